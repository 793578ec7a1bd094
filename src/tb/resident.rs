//! Lower levels copied into huge-page memory while a level is built.
//!
//! The builder looks up the children of captures at random in the lower
//! levels, which are memory-mapped files on 4 KiB pages: at the sizes of
//! the large levels nearly every look-up also misses the TLB, and the page
//! walk stalls the prefetch that was meant to hide the miss. A copy in an
//! anonymous mapping on transparent huge pages avoids that (level 25, 2
//! threads, phases timed with temporary timers: the pass over the moves
//! took 23 s instead of 43 s). The copies are taken
//! only within the memory the machine has to spare, nearest levels first;
//! everything else is read from the maps as before. A compact level is copied a byte a board
//! ([`NarrowLevel`]) where its entries allow, in half the memory of its raw
//! entries, so that a memory limit leaves fewer levels to be read through
//! their compact files.
//!
//! A capture from level n+1 reaches the levels a capture from level n
//! reaches, but the lowest, and one more: the copies a level took are
//! [kept](KeptCopies) through its write for the next one, instead of being
//! decoded again.

use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use super::build::LowerLevels;
use super::compact::narrow::NarrowLevel;
use super::file::{Encoding, TableError};
use super::levels::Levels;
use super::prefetch::prefetch;
use super::scratch::Scratch;
use super::tables::{decode, prefetch_entry};
use super::value::Value;

/// Levels smaller than this stay mapped: their page tables mostly stay in
/// the caches. (At level 23, whose captures reach levels of at most
/// 361 MB, copying every level changed the time by about 1 %.)
const MIN_COPY_BYTES: usize = 32 << 20;

/// The most seeds one move captures: 6 pits of 3 (a grand slam, under the
/// rules that let it capture).
const MAX_CAPTURE: usize = 18;

/// The levels a capture from a board of `level` seeds lands in: a capture
/// takes at least two seeds and at most 18 (six pits of three).
pub fn capture_reach(level: usize) -> Range<usize> {
    level.saturating_sub(MAX_CAPTURE)..level.saturating_sub(1)
}

/// A lower level held in memory.
enum Held {
    /// Its raw entries.
    Raw(Encoding, Scratch),
    /// A compact level's entries, a byte a board.
    Narrow(Encoding, Box<NarrowLevel>),
}

impl Held {
    /// Bytes it takes.
    fn bytes(&self) -> u64 {
        match self {
            Held::Raw(_, copy) => copy.len() as u64,
            Held::Narrow(_, narrow) => narrow.memory(),
        }
    }
}

/// A copy kept from one level's build to the next.
struct Kept {
    level: usize,
    /// The checksum of the entries of the file it was taken of: a copy
    /// serves that file only.
    checksum: u32,
    held: Arc<Held>,
}

/// The copies of lower levels a build keeps from one level to the next
/// (each [`Levels`] has its own): [`Resident::reaching`] with `narrow`
/// (as [`Resident::new`] calls it) takes those it plans to hold again, and
/// leaves all it holds here when it is made. Mancala's solvers, which read
/// raw copies ([`Resident::reaching_raw`]), keep none.
#[derive(Default)]
pub struct KeptCopies(Mutex<Vec<Kept>>);

impl KeptCopies {
    /// Lets go of the copies a capture from `next` does not reach, or of
    /// all of them when no level follows (`None`).
    pub fn keep_for(&self, next: Option<usize>) {
        let reach = next.map_or(0..0, capture_reach);
        self.lock().retain(|k| reach.contains(&k.level));
    }

    /// Lets go of the copy of `level`, if one is kept (its file is being
    /// replaced).
    pub fn forget(&self, level: usize) {
        self.lock().retain(|k| k.level != level);
    }

    /// Bytes the kept copies take.
    pub fn bytes(&self) -> u64 {
        self.lock().iter().map(|k| k.held.bytes()).sum()
    }

    /// The levels of the kept copies, ascending.
    pub fn levels(&self) -> Vec<usize> {
        let mut levels: Vec<usize> = self.lock().iter().map(|k| k.level).collect();
        levels.sort_unstable();
        levels
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Kept>> {
        // The list is whole between calls: a panic elsewhere cannot have
        // left it half changed.
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// The lower levels of a build, some of them copied into huge-page memory.
pub struct Resident<'a> {
    tables: &'a Levels,
    copies: Vec<Option<Arc<Held>>>,
    /// Levels whose copy was kept from the level before.
    reused: Vec<usize>,
}

impl<'a> Resident<'a> {
    /// The levels below Oware's `level` that `tables` holds, copying the
    /// ones a capture reaches, nearest first, while their payloads fit in
    /// `budget` bytes. A copy that does not decode to the entries the
    /// level was built with is an error
    /// ([`TableFile::decode_all_checked`](super::file::TableFile::decode_all_checked)).
    pub fn new(tables: &'a Levels, level: usize, budget: u64) -> Result<Resident<'a>, TableError> {
        Resident::copying(tables, level, budget, MIN_COPY_BYTES)
    }

    /// [`Resident::new`] copying levels of at least `min_bytes` only.
    pub fn copying(
        tables: &'a Levels,
        level: usize,
        budget: u64,
        min_bytes: usize,
    ) -> Result<Resident<'a>, TableError> {
        Resident::reaching(tables, level, capture_reach(level), budget, min_bytes, true)
    }

    /// The levels below `level` that `tables` holds, copying those of
    /// `reach` of at least `min_bytes` (the highest first) while their
    /// copies fit in `budget` bytes: a byte a board for a compact level
    /// when `narrow` allows (a few bytes more for boards of its rarest
    /// entries, beyond the 255 a byte names), else its raw entries.
    ///
    /// With `narrow`, the copies [kept](KeptCopies) from the level before
    /// are used again where the plan holds them, the others let go before
    /// anything is decoded, and the copies made are kept for the next
    /// level. `budget` then counts the kept copies as free (see
    /// [`copy_budget_keeping`]): the plan is the one made without them.
    pub fn reaching(
        tables: &'a Levels,
        level: usize,
        reach: Range<usize>,
        budget: u64,
        min_bytes: usize,
        narrow: bool,
    ) -> Result<Resident<'a>, TableError> {
        let mut copies: Vec<Option<Arc<Held>>> = (0..level).map(|_| None).collect();
        let limited = memory_limit().is_some();
        // Copies kept from the level before, of these very files, in the
        // form this build reads (only builds a byte a board keep them).
        let mut kept: Vec<Kept> = if narrow {
            std::mem::take(&mut *tables.kept_copies().lock())
        } else {
            Vec::new()
        };
        kept.retain(|k| {
            reach.contains(&k.level)
                && tables
                    .table(k.level)
                    .is_some_and(|t| t.header().checksum == k.checksum)
        });
        // Under a limit, pages of the lower levels touched before (by the
        // level below, which read them too) are let go: they would count in
        // the resident memory and not in the budget. The levels out of
        // reach are not read again, the others are counted below.
        if limited {
            for lower in 0..level {
                if let Some(table) = tables.table(lower) {
                    table.release_pages();
                }
            }
        }
        let mut left = budget;
        // Under a memory limit the compact files within reach count too:
        // every page of them may be touched, and counted in the resident
        // memory, until the level is copied (its pages then let go). So
        // does what the process holds already. Raw files are not counted:
        // a raw level in reach is the build's own choice of a format that
        // needs more memory.
        if limited {
            let mapped: u64 = reach
                .clone()
                .filter_map(|lower| tables.table(lower))
                .filter(|table| table.is_compact())
                .map(|table| table.file_bytes())
                .sum();
            // The kept copies are planned again as if they were not held.
            let kept_bytes: u64 = kept.iter().map(|k| k.held.bytes()).sum();
            let held = resident_bytes().unwrap_or(0).saturating_sub(kept_bytes);
            left = left.saturating_sub(mapped.saturating_add(held));
        }
        // The plan first, highest level first, so that the kept copies it
        // leaves out are let go before anything new is decoded.
        let mut planned = Vec::new();
        for lower in reach.rev() {
            let Some(table) = tables.table(lower) else {
                continue;
            };
            let boards = table.header().boards as usize;
            let raw_bytes = boards * table.header().encoding.bytes_per_board();
            let copy_bytes = if narrow && table.is_compact() {
                boards
            } else {
                raw_bytes
            };
            // A copied compact level's pages are let go: under a limit only
            // the difference counts.
            let mapped = if limited && table.is_compact() {
                table.file_bytes()
            } else {
                0
            };
            let cost = (copy_bytes as u64).saturating_sub(mapped);
            // A compact level is worth decoding whatever its size: a probe
            // of the copy costs a load, of the compact file a block's decode.
            let small = raw_bytes < min_bytes && !table.is_compact();
            if small || cost > left {
                continue;
            }
            left -= cost;
            planned.push(lower);
        }
        kept.retain(|k| planned.contains(&k.level));
        let mut reused = Vec::new();
        for lower in planned {
            if let Some(k) = kept.iter().find(|k| k.level == lower) {
                copies[lower] = Some(k.held.clone());
                reused.push(lower);
                continue;
            }
            let table = tables.loaded(lower);
            let encoding = table.header().encoding;
            // Without the memory the level is read from its file: slower,
            // not wrong (its share of the budget then goes unused). A copy
            // is checked against the checksum of the entries the level was
            // built with, which also covers the chunks of a compact file
            // the build's sampled check did not decode.
            let copy = if narrow && table.is_compact() {
                table
                    .decode_narrow_checked()
                    .map(|n| n.map(|n| Held::Narrow(encoding, Box::new(n))))
            } else {
                table
                    .decode_all_checked()
                    .map(|c| Some(Held::Raw(encoding, c)))
            };
            let copy = match copy {
                Ok(Some(copy)) => copy,
                Ok(None) | Err(TableError::Io { .. }) => continue,
                Err(error) => return Err(error),
            };
            table.release_pages();
            copies[lower] = Some(Arc::new(copy));
        }
        drop(kept);
        if narrow {
            let mut keep = tables.kept_copies().lock();
            for (lower, copy) in copies.iter().enumerate() {
                if let Some(held) = copy {
                    keep.push(Kept {
                        level: lower,
                        checksum: tables.loaded(lower).header().checksum,
                        held: held.clone(),
                    });
                }
            }
        }
        reused.reverse();
        Ok(Resident {
            tables,
            copies,
            reused,
        })
    }

    /// [`Resident::reaching`] with every level of `reach` held raw: the
    /// compact ones left out for want of budget are decoded all the same
    /// (for solvers that read the raw payloads, see
    /// [`Resident::payload`]).
    pub fn reaching_raw(
        tables: &'a Levels,
        level: usize,
        reach: Range<usize>,
        budget: u64,
    ) -> Result<Resident<'a>, TableError> {
        let mut resident = Resident::reaching(tables, level, reach.clone(), budget, 0, false)?;
        for lower in reach {
            if let Some(table) = tables.table(lower)
                && table.is_compact()
                && resident.copies[lower].is_none()
            {
                resident.copies[lower] = Some(Arc::new(Held::Raw(
                    table.header().encoding,
                    table.decode_all_checked()?,
                )));
                table.release_pages();
            }
        }
        Ok(resident)
    }

    /// The raw payload of `level` (below the level being built): the raw
    /// copy, or the map of a raw file. A compact level without a raw copy
    /// has none (never after [`Resident::reaching_raw`]): an empty slice.
    #[inline]
    pub fn payload(&self, level: usize) -> &[u8] {
        match self.copies[level].as_deref() {
            Some(Held::Raw(_, copy)) => copy,
            Some(Held::Narrow(..)) => {
                debug_assert!(false, "a raw payload asked of a copy a byte a board");
                &[]
            }
            None => self.tables.loaded(level).raw_payload().unwrap_or(&[]),
        }
    }

    /// Bytes held in copies.
    pub fn copied_bytes(&self) -> u64 {
        self.copies.iter().flatten().map(|held| held.bytes()).sum()
    }

    /// The levels held in copies, ascending.
    pub fn copied_levels(&self) -> Vec<usize> {
        (0..self.copies.len())
            .filter(|&l| self.copies[l].is_some())
            .collect()
    }

    /// The levels whose copies were kept from the level built before,
    /// ascending (not decoded again).
    pub fn reused_levels(&self) -> &[usize] {
        &self.reused
    }
}

impl LowerLevels for Resident<'_> {
    #[inline]
    fn value_at(&self, level: usize, r: u64) -> Value {
        match self.copies[level].as_deref() {
            Some(Held::Raw(encoding, copy)) => decode(*encoding, copy, r),
            Some(Held::Narrow(encoding, narrow)) => encoding.value(narrow.entry(r)),
            None => self.tables.value_at(level, r),
        }
    }

    #[inline]
    fn prefetch(&self, level: usize, r: u64) {
        match self.copies[level].as_deref() {
            Some(Held::Raw(encoding, copy)) => prefetch_entry(*encoding, copy, r),
            Some(Held::Narrow(_, narrow)) => {
                if let Some(byte) = narrow.byte(r) {
                    prefetch(byte);
                }
            }
            None => LowerLevels::prefetch(self.tables, level, r),
        }
    }
}

/// The peak of this process's resident memory over a span of work,
/// sampled every 50 ms from `/proc/self/status` by a thread of its own (the
/// kernel's own peak, `VmHWM`, cannot be reset without also resetting what
/// `getrusage` and `/usr/bin/time` report).
pub struct PeakRss {
    peak: std::sync::Arc<AtomicU64>,
    done: std::sync::Arc<std::sync::atomic::AtomicBool>,
    sampler: Option<std::thread::JoinHandle<()>>,
}

impl PeakRss {
    /// Starts sampling (nothing where the kernel does not say).
    pub fn start() -> PeakRss {
        let peak = std::sync::Arc::new(AtomicU64::new(0));
        let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let sampler = resident_bytes().map(|first| {
            peak.store(first, Ordering::Relaxed);
            let (peak, done) = (peak.clone(), done.clone());
            std::thread::spawn(move || {
                while !done.load(Ordering::Relaxed) {
                    std::thread::sleep(std::time::Duration::from_millis(50));
                    if let Some(now) = resident_bytes() {
                        peak.fetch_max(now, Ordering::Relaxed);
                    }
                }
            })
        });
        PeakRss {
            peak,
            done,
            sampler,
        }
    }

    /// Stops sampling: the peak seen, in bytes.
    pub fn finish(mut self) -> Option<u64> {
        let sampler = self.sampler.take()?;
        self.done.store(true, Ordering::Relaxed);
        let _ = sampler.join();
        let last = resident_bytes().unwrap_or(0);
        Some(self.peak.load(Ordering::Relaxed).max(last))
    }
}

impl Drop for PeakRss {
    fn drop(&mut self) {
        self.done.store(true, Ordering::Relaxed);
    }
}

/// This process's resident memory now, in bytes (`VmRSS` of
/// `/proc/self/status`).
fn resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kib: u64 = line["VmRSS:".len()..]
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kib.saturating_mul(1024))
}

/// A field of `/proc/meminfo` (`"MemAvailable:"`, `"MemTotal:"` …) in
/// bytes, or `None` where the kernel does not say.
pub fn meminfo(name: &str) -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with(name))?;
    let kib: u64 = line[name.len()..]
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kib.saturating_mul(1024))
}

/// The memory a build may take (`oware build --memory`); `u64::MAX`: no
/// limit but the machine's.
static MEMORY_LIMIT: AtomicU64 = AtomicU64::new(u64::MAX);

/// Limits the memory of the builds that follow in this process to `bytes`
/// (`None`: the machine's memory only). The limit bounds the copies of
/// lower levels, which are the part a build can do without: the level's
/// own working memory is what it is.
pub fn set_memory_limit(bytes: Option<u64>) {
    MEMORY_LIMIT.store(bytes.unwrap_or(u64::MAX), Ordering::Relaxed);
}

/// The limit [`set_memory_limit`] set, if any.
pub fn memory_limit() -> Option<u64> {
    let limit = MEMORY_LIMIT.load(Ordering::Relaxed);
    (limit != u64::MAX).then_some(limit)
}

/// Bytes the build may spend on copies while `working` bytes are in use
/// for the level itself: what the kernel reports available, less the
/// working memory and a quarter of the machine's memory kept free (for the
/// page cache the build writes through, and for everything else); and no
/// more than the [memory limit](set_memory_limit) less the working memory.
/// Zero where the kernel does not say.
pub fn copy_budget(working: u64) -> u64 {
    copy_budget_keeping(working, 0)
}

/// [`copy_budget`] when `kept` bytes of copies are [kept](KeptCopies)
/// from the level before: the bytes the copies may take in all, those
/// included, as if they were not held (they are in the memory the kernel
/// reports taken).
pub fn copy_budget_keeping(working: u64, kept: u64) -> u64 {
    budget_of(
        meminfo("MemAvailable:"),
        meminfo("MemTotal:"),
        MEMORY_LIMIT.load(Ordering::Relaxed),
        working,
        kept,
    )
}

/// [`copy_budget_keeping`] from the kernel's `available` and `total`
/// memory and the `limit`.
fn budget_of(
    available: Option<u64>,
    total: Option<u64>,
    limit: u64,
    working: u64,
    kept: u64,
) -> u64 {
    // The kept copies are added before anything is cut off at zero: a plan
    // without them would see them free, no more.
    usable_of(available, total, kept)
        .saturating_sub(working)
        .min(limit.saturating_sub(working))
}

/// What the kernel's `available` memory, with `freed` bytes more, leaves
/// less a quarter of its `total` (0 where the kernel does not say).
fn usable_of(available: Option<u64>, total: Option<u64>, freed: u64) -> u64 {
    match (available, total) {
        (Some(available), Some(total)) => available.saturating_add(freed).saturating_sub(total / 4),
        _ => 0,
    }
}

/// The memory a build may fill now, whatever the limit: what the kernel
/// reports available less a quarter of the machine's memory (0 where the
/// kernel does not say: no copies then).
pub fn usable_memory() -> u64 {
    usable_of(meminfo("MemAvailable:"), meminfo("MemTotal:"), 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_copies_count_as_free_memory_and_no_more() {
        const NONE: u64 = u64::MAX;
        // (available, total, limit, working, kept, budget)
        for (available, total, limit, working, kept, budget) in [
            // 100 available, less a quarter of the RAM (25) and 40 of
            // working memory.
            (100, 100, NONE, 40, 0, 35),
            // 20 kept count as free: a plan without them sees 120.
            (100, 100, NONE, 40, 20, 55),
            // The working memory does not fit beside the kept copies: only
            // what a plan without them would have, not the kept bytes.
            (50, 100, NONE, 40, 20, 5),
            (30, 100, NONE, 40, 20, 0),
            (10, 100, NONE, 0, 10, 0),
            // The limit less the working memory bounds it, kept or not.
            (100, 100, 50, 40, 20, 10),
            (100, 100, 30, 40, 20, 0),
        ] {
            let got = budget_of(Some(available), Some(total), limit, working, kept);
            assert_eq!(got, budget, "{available} {total} {limit} {working} {kept}");
            // Never more than the plan made with the kept copies let go.
            let fresh = budget_of(Some(available + kept), Some(total), limit, working, 0);
            assert_eq!(got, fresh);
        }
        assert_eq!(budget_of(None, Some(100), NONE, 0, 50), 0);
    }

    #[test]
    fn kept_copies_are_those_the_next_level_reaches() {
        let kept = KeptCopies::default();
        for level in [0, 1, 2, 10, 18, 19] {
            let copy = Scratch::zeroed(100).expect("memory");
            kept.lock().push(Kept {
                level,
                checksum: 0,
                held: Arc::new(Held::Raw(Encoding::ForcedPair, copy)),
            });
        }
        assert_eq!(kept.bytes(), 600);
        // Level 20's captures reach levels 2..=18.
        kept.keep_for(Some(20));
        assert_eq!(kept.levels(), [2, 10, 18]);
        kept.forget(10);
        assert_eq!(kept.levels(), [2, 18]);
        assert_eq!(kept.bytes(), 200);
        kept.keep_for(None);
        assert!(kept.levels().is_empty());
    }

    #[test]
    fn the_memory_limit_bounds_the_copies() {
        set_memory_limit(Some(1_000_000));
        assert_eq!(memory_limit(), Some(1_000_000));
        assert!(copy_budget(400_000) <= 600_000);
        assert_eq!(copy_budget(2_000_000), 0);
        set_memory_limit(None);
        assert_eq!(memory_limit(), None);
    }
}
