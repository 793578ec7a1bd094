//! The transposition table: shared by all search threads, lock-free.
//!
//! Each entry is two `AtomicU64`s: the data word and the key XOR the data,
//! so a torn write (another thread storing between our two loads) fails the
//! key check instead of returning another position's data.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Whether a stored score is exact or a bound.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// No score, only a move.
    None = 0,
    /// The score is a lower bound (fail high).
    Lower = 1,
    /// The score is an upper bound (fail low).
    Upper = 2,
    /// The exact score.
    Exact = 3,
}

/// What the table holds for a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The score, adjusted for proven results as seen from this position.
    pub score: i16,
    /// The depth the score was searched to.
    pub depth: u8,
    /// The kind of score.
    pub bound: Bound,
    /// The best move's house (0..5), if any.
    pub house: Option<u8>,
    /// No evaluation went into the score: it is the game's value, or a
    /// bound on it, at every depth (see
    /// [`SearchGame::SOLVES`](super::SearchGame::SOLVES)).
    pub solved: bool,
    generation: u8,
}

impl Entry {
    /// A new entry.
    pub fn new(score: i16, depth: u8, bound: Bound, house: Option<u8>) -> Entry {
        Entry {
            score,
            depth,
            bound,
            house,
            solved: false,
            generation: 0,
        }
    }

    fn pack(self) -> u64 {
        (self.score as u16 as u64)
            | (u64::from(self.depth) << 16)
            | ((self.bound as u64) << 24)
            | (u64::from(self.house.unwrap_or(7)) << 26)
            | (u64::from(self.solved) << 29)
            | (u64::from(self.generation) << 32)
    }

    fn unpack(word: u64) -> Entry {
        let house = ((word >> 26) & 7) as u8;
        Entry {
            score: word as u16 as i16,
            depth: (word >> 16) as u8,
            bound: match (word >> 24) & 3 {
                1 => Bound::Lower,
                2 => Bound::Upper,
                3 => Bound::Exact,
                _ => Bound::None,
            },
            house: (house < 6).then_some(house),
            solved: (word >> 29) & 1 != 0,
            generation: (word >> 32) as u8,
        }
    }
}

#[derive(Default)]
#[repr(C, align(16))]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

const _: () = assert!(std::mem::size_of::<Slot>() == 16);

/// The largest table size accepted, in MiB (larger requests are capped).
pub const MAX_MIB: usize = 1 << 20;

/// Slots per bucket: a key may live in any of them.
const WAYS: usize = 4;

/// A fixed-size table of `2^k` buckets of four 16-byte slots, in an
/// anonymous memory map (asking the kernel for huge pages, which saves most
/// of the address-translation misses of random probes).
pub struct TranspositionTable {
    map: memmap2::MmapMut,
    len: usize,
    mask: usize,
    generation: AtomicU64,
}

/// A table this small is kept at the size the system first gives.
const ROOM: usize = 16 << 20;

impl TranspositionTable {
    /// A table of at most `mib` MiB (at least one bucket). If the system
    /// refuses that much memory, the size is halved until it does not, and
    /// once more when it is over 16 MiB, to leave the process room for the
    /// rest of its work ([`TranspositionTable::mib`] says what it got).
    /// Every page is touched here, on all cores, so that no search pays for
    /// the first touch of its pages (about 5 ms a 2 MiB page on a small
    /// virtual machine: a 4 GiB table would cost seconds of the first moves'
    /// time).
    pub fn new(mib: usize) -> TranspositionTable {
        let fit = (mib.clamp(1, MAX_MIB) << 20) / (16 * WAYS);
        // The largest power of two that fits.
        let mut buckets = 1usize << (usize::BITS - 1 - fit.leading_zeros());
        let mut refused = false;
        let map = loop {
            match memmap2::MmapMut::map_anon(buckets * WAYS * 16) {
                Ok(map) if !refused || buckets * WAYS * 16 <= ROOM => break map,
                // What fits at the system's limit would leave nothing for
                // the threads and allocations that follow: half of it.
                Ok(_) => {
                    refused = false;
                    buckets /= 2;
                }
                Err(_) if buckets > 1 => {
                    refused = true;
                    buckets /= 2;
                }
                Err(e) => panic!("cannot map 64 bytes for the transposition table: {e}"),
            }
        };
        let len = buckets * WAYS;
        #[cfg(target_os = "linux")]
        let _ = map.advise(memmap2::Advice::HugePage);
        let table = TranspositionTable {
            map,
            len,
            mask: buckets - 1,
            generation: AtomicU64::new(0),
        };
        // One store a 4 KiB page faults the page in (a load would only map
        // the shared zero page).
        in_parallel(table.slots(), |part| {
            for slot in part.iter().step_by(4096 / 16) {
                slot.check.store(0, Relaxed);
            }
        });
        table
    }

    /// The size in MiB (rounded down).
    pub fn mib(&self) -> usize {
        self.bytes() >> 20
    }

    fn slots(&self) -> &[Slot] {
        // SAFETY: the map is page-aligned (more than `Slot`'s 16), `len * 16`
        // bytes long, zero-filled by the kernel (all-zero bytes are valid
        // `AtomicU64`s), lives as long as `self`, and is only accessed
        // through these atomics.
        unsafe { std::slice::from_raw_parts(self.map.as_ptr().cast::<Slot>(), self.len) }
    }

    /// Size in bytes.
    pub fn bytes(&self) -> usize {
        self.len * 16
    }

    /// Empties the table, on all cores.
    pub fn clear(&self) {
        in_parallel(self.slots(), clear_slots);
    }

    /// Starts a new search: older entries become preferred for replacement.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Relaxed);
    }

    fn bucket(&self, key: u64) -> &[Slot] {
        let b = (key as usize) & self.mask;
        &self.slots()[b * WAYS..b * WAYS + WAYS]
    }

    /// Asks the processor to start loading the bucket of `key`, so that a
    /// probe a little later does not wait for memory.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let ptr = self.bucket(key).as_ptr().cast::<i8>();
            // SAFETY: prefetching is only a hint; it never faults and does not
            // change memory, and `ptr` points into the live slot vector.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(ptr) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry for `key`, if present (verified against the full key).
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        probe_bucket(self.bucket(key), key)
    }

    /// Stores an entry, replacing the same key, else the shallowest entry of
    /// an older search, else the shallowest entry.
    #[inline]
    pub fn store(&self, key: u64, entry: Entry) {
        let generation = self.generation.load(Relaxed) as u8;
        store_bucket(self.bucket(key), key, entry, generation);
    }
}

/// Runs `work` over `slots` in one part a core, on scoped threads; a part
/// whose thread the system will not start is done on this thread.
fn in_parallel(slots: &[Slot], work: impl Fn(&[Slot]) + Sync) {
    const SMALL: usize = 1 << 16;
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    if threads == 1 || slots.len() <= SMALL {
        work(slots);
        return;
    }
    let work = &work;
    std::thread::scope(|scope| {
        for part in slots.chunks(slots.len().div_ceil(threads)) {
            if crate::threads::builder()
                .and_then(|b| b.spawn_scoped(scope, move || work(part)))
                .is_err()
            {
                work(part);
            }
        }
    });
}

/// What is wrong with a hash size.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HashError {
    /// More than the machine can give.
    #[error(
        "--hash {asked} MiB is more than the memory available ({available} MiB of {total} MiB); use a smaller table"
    )]
    TooLarge {
        /// MiB asked for.
        asked: usize,
        /// MiB the system reports available.
        available: usize,
        /// MiB of memory in all.
        total: usize,
    },
}

/// Refuses a table larger than the memory the system has available now
/// (Linux: `MemAvailable` of `/proc/meminfo`; elsewhere nothing is
/// checked). Touching more than that would have the process killed.
pub fn check_size(mib: usize) -> Result<(), HashError> {
    let Some((available, total)) = memory_mib() else {
        return Ok(());
    };
    if mib > available {
        return Err(HashError::TooLarge {
            asked: mib,
            available,
            total,
        });
    }
    Ok(())
}

/// Available and total memory in MiB, as Linux reports them.
fn memory_mib() -> Option<(usize, usize)> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let field = |name: &str| -> Option<usize> {
        let line = info.lines().find(|l| l.starts_with(name))?;
        let kib: usize = line[name.len()..]
            .trim()
            .strip_suffix("kB")?
            .trim()
            .parse()
            .ok()?;
        Some(kib >> 10)
    };
    Some((field("MemAvailable:")?, field("MemTotal:")?))
}

/// Empties `slots`.
fn clear_slots(slots: &[Slot]) {
    for s in slots {
        s.check.store(0, Relaxed);
        s.data.store(0, Relaxed);
    }
}

/// The entry for `key` in `bucket`, if present.
#[inline]
fn probe_bucket(bucket: &[Slot], key: u64) -> Option<Entry> {
    for slot in bucket {
        let data = slot.data.load(Relaxed);
        if slot.check.load(Relaxed) ^ data == key && data != 0 {
            return Some(Entry::unpack(data));
        }
    }
    None
}

/// Stores `entry` for `key` in `bucket`, in the slot of the same key, else
/// an empty one, else the least worth keeping (shallow, and from an older
/// search than `generation`).
#[inline]
fn store_bucket(bucket: &[Slot], key: u64, mut entry: Entry, generation: u8) {
    entry.generation = generation;
    let mut victim = 0;
    let mut worst = i32::MAX;
    for (i, slot) in bucket.iter().enumerate() {
        let data = slot.data.load(Relaxed);
        if slot.check.load(Relaxed) ^ data == key || data == 0 {
            victim = i;
            // Keep a deeper move-bearing entry's move if this one has none.
            if data != 0 && entry.house.is_none() {
                entry.house = Entry::unpack(data).house;
            }
            break;
        }
        let old = Entry::unpack(data);
        let age = i32::from(generation.wrapping_sub(old.generation));
        let worth = i32::from(old.depth) - 8 * age;
        if worth < worst {
            worst = worth;
            victim = i;
        }
    }
    let data = entry.pack();
    bucket[victim].data.store(data, Relaxed);
    bucket[victim].check.store(key ^ data, Relaxed);
}

/// A small table private to one search thread, for the many nodes two
/// plies above the leaves. It stays in the core's cache, where a probe of
/// the large shared table would wait for memory; those nodes' results are
/// cheap to redo and seldom worth sharing between threads. Same entries
/// and the same verification as [`TranspositionTable`].
pub struct LocalTable {
    slots: Box<[Slot]>,
}

impl LocalTable {
    /// Buckets of the table (256 KiB: 4,096 buckets of four 16-byte slots).
    const BUCKETS: usize = 1 << 12;

    /// An empty table.
    pub fn new() -> LocalTable {
        LocalTable {
            slots: (0..Self::BUCKETS * WAYS).map(|_| Slot::default()).collect(),
        }
    }

    #[inline]
    fn bucket(&self, key: u64) -> &[Slot] {
        let b = (key as usize) & (Self::BUCKETS - 1);
        &self.slots[b * WAYS..b * WAYS + WAYS]
    }

    /// Empties the table.
    pub fn clear(&self) {
        clear_slots(&self.slots);
    }

    /// The entry for `key`, if present (verified against the full key).
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        probe_bucket(self.bucket(key), key)
    }

    /// Stores an entry as [`TranspositionTable::store`] does.
    #[inline]
    pub fn store(&self, key: u64, entry: Entry) {
        store_bucket(self.bucket(key), key, entry, 0);
    }
}

impl Default for LocalTable {
    fn default() -> LocalTable {
        LocalTable::new()
    }
}
