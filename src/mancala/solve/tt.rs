//! The solvers' transposition table: for each position seen, the bounds on
//! its exact value proved so far, the move that proved the lower one, and
//! how much work that took. The store-difference solver and the race
//! solver ([`crate::mancala::race::solve`]) both keep their bounds here.
//!
//! Every bound is a bound on the game value itself (the solvers have no
//! depth limit and no heuristic), so an entry stays true across the passes
//! of MTD(f) and between the root moves solved in parallel. The table is
//! shared between threads without locks: an entry is two words, the first
//! stored XOR-ed with the second, so a torn read fails the key check.

use std::sync::atomic::{AtomicU64, Ordering};

use super::board::Board;
use crate::tb::prefetch::prefetch;

/// Entries a bucket holds (one cache line).
const WAYS: usize = 4;
/// No move recorded.
const NO_MOVE: u8 = 0xf;
/// The bits of an entry's data word that hold its key: the board's high
/// 32 bits (32..63) and the key's extra (26..31).
const KEY_BITS: u64 = !0 << 26;
/// The largest work recorded (six bits).
const MAX_WORK: u8 = 63;

/// What the table knows of a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// The value is at least this.
    pub lower: i8,
    /// The value is at most this.
    pub upper: i8,
    /// The house whose move proved `lower`, if any.
    pub best: Option<u8>,
}

impl Bounds {
    /// Bits 0..7 the lower bound, 8..15 the upper, 16..19 the best house
    /// (0xf: none), 20..25 the work.
    const fn pack(self, work: u8) -> u64 {
        let best = match self.best {
            Some(h) => h,
            None => NO_MOVE,
        };
        let work = if work < MAX_WORK { work } else { MAX_WORK };
        (self.lower as u8 as u64)
            | ((self.upper as u8 as u64) << 8)
            | ((best as u64) << 16)
            | ((work as u64) << 20)
    }

    const fn unpack(data: u64) -> (Bounds, u8) {
        let best = ((data >> 16) & 0xf) as u8;
        let bounds = Bounds {
            lower: data as u8 as i8,
            upper: (data >> 8) as u8 as i8,
            best: if best == NO_MOVE { None } else { Some(best) },
        };
        (bounds, ((data >> 20) & 0x3f) as u8)
    }
}

/// A position's key: a 96-bit board word and six bits more (the race
/// solver's need; 0 for a board alone).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Key {
    /// The word's low 64 bits, checked through the XOR.
    low: u64,
    /// The word's high 32 bits (0..31) and the extra (32..37).
    high: u64,
}

impl Key {
    /// The key of `word` (96 bits) with `extra` (below 64).
    #[inline]
    pub const fn new(word: u128, extra: u8) -> Key {
        debug_assert!(word >> 96 == 0 && extra < 64);
        Key {
            low: word as u64,
            high: (word >> 64) as u64 | (extra as u64) << 32,
        }
    }

    /// The key's bits as the data word holds them.
    const fn tag(self) -> u64 {
        (self.high & 0xffff_ffff) << 32 | (self.high >> 32) << 26
    }
}

impl From<Board> for Key {
    #[inline]
    fn from(board: Board) -> Key {
        Key::new(board.word(), 0)
    }
}

#[repr(align(64))]
struct Bucket([AtomicU64; 2 * WAYS]);

const _: () = assert!(std::mem::size_of::<Bucket>() == 64);

/// A shared table of bounds.
pub struct Table {
    buckets: Vec<Bucket>,
    shift: u32,
}

impl Table {
    /// A table of at most `mib` MiB (at least one bucket), its size a power
    /// of two.
    pub fn new(mib: usize) -> Table {
        let fit = ((mib.max(1) << 20) / std::mem::size_of::<Bucket>()).max(1);
        let buckets = 1usize << fit.ilog2();
        Table {
            buckets: (0..buckets)
                .map(|_| Bucket(std::array::from_fn(|_| AtomicU64::new(0))))
                .collect(),
            shift: 64 - buckets.trailing_zeros(),
        }
    }

    /// The table's size in bytes.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }

    /// The bucket of the key's board: the extra is left out, so that the
    /// race solver's looks at one board's neighbouring needs, one after the
    /// other, find its cache line loaded (half the cache misses).
    #[inline]
    fn bucket(&self, k: Key) -> &Bucket {
        let h = (k.low ^ (k.high & 0xffff_ffff).wrapping_mul(0xc2b2_ae3d_27d4_eb4f))
            .wrapping_mul(0x9e37_79b9_7f4a_7c15);
        // A table of one bucket shifts by 64: every key goes to bucket 0.
        let index = h.checked_shr(self.shift).unwrap_or(0) as usize;
        &self.buckets[index]
    }

    /// Starts loading the bucket of `key` into the caches.
    #[inline]
    pub fn prefetch(&self, key: impl Into<Key>) {
        prefetch(self.bucket(key.into()));
    }

    /// The bounds stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: impl Into<Key>) -> Option<Bounds> {
        let k = key.into();
        let bucket = self.bucket(k);
        (0..WAYS).find_map(|way| {
            let data = bucket.0[2 * way + 1].load(Ordering::Relaxed);
            let check = bucket.0[2 * way].load(Ordering::Relaxed);
            (check ^ data == k.low && data & KEY_BITS == k.tag()).then(|| Bounds::unpack(data).0)
        })
    }

    /// Adds what a search proved of `key` (bounds met with what the table
    /// held), recording `work` (the log of the nodes it took); a new key
    /// replaces the bucket's cheapest entry.
    pub fn store(&self, key: impl Into<Key>, bounds: Bounds, work: u8) {
        let k = key.into();
        let bucket = self.bucket(k);
        let mut victim = 0;
        let mut cheapest = u8::MAX;
        for way in 0..WAYS {
            let data = bucket.0[2 * way + 1].load(Ordering::Relaxed);
            let check = bucket.0[2 * way].load(Ordering::Relaxed);
            let (held, held_work) = Bounds::unpack(data);
            if check ^ data == k.low && data & KEY_BITS == k.tag() {
                let merged = Bounds {
                    lower: bounds.lower.max(held.lower),
                    upper: bounds.upper.min(held.upper),
                    best: bounds.best.or(held.best),
                };
                Table::write(bucket, way, k, merged, work.max(held_work));
                return;
            }
            let held_work = if data == 0 { 0 } else { held_work + 1 };
            if held_work < cheapest {
                cheapest = held_work;
                victim = way;
            }
        }
        Table::write(bucket, victim, k, bounds, work);
    }

    fn write(bucket: &Bucket, way: usize, k: Key, bounds: Bounds, work: u8) {
        let data = k.tag() | bounds.pack(work);
        bucket.0[2 * way + 1].store(data, Ordering::Relaxed);
        bucket.0[2 * way].store(k.low ^ data, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_meet_and_survive_other_boards() {
        let table = Table::new(1);
        let a = Board::new([4, 4, 4, 4, 4, 4, 1, 2, 3, 4, 5, 6]);
        let b = Board::new([3; 12]);
        assert_eq!(table.probe(a), None);
        let low = Bounds {
            lower: 2,
            upper: 48,
            best: Some(2),
        };
        table.store(a, low, 10);
        table.store(
            a,
            Bounds {
                lower: -48,
                upper: 10,
                best: None,
            },
            3,
        );
        table.store(
            b,
            Bounds {
                lower: -5,
                upper: -5,
                best: None,
            },
            1,
        );
        assert_eq!(
            table.probe(a),
            Some(Bounds {
                lower: 2,
                upper: 10,
                best: Some(2)
            })
        );
        assert_eq!(table.probe(b).map(|e| (e.lower, e.upper)), Some((-5, -5)));
        assert_eq!(table.probe(a.flip()), None);
    }

    #[test]
    fn the_extra_is_part_of_the_key_and_work_saturates() {
        let t = Table::new(1);
        let word = 0x89ab_cdef_0fed_cba9_8765_4321u128;
        let first = Bounds {
            lower: -1,
            upper: 0,
            best: None,
        };
        t.store(Key::new(word, 7), first, 200);
        assert_eq!(t.probe(Key::new(word, 7)), Some(first));
        assert_eq!(
            t.probe(Key::new(word, 8)),
            None,
            "the extra is part of the key"
        );
        assert_eq!(t.probe(Key::new(word, 0)), None);
        t.store(
            Key::new(word, 63),
            Bounds {
                lower: 1,
                upper: 1,
                best: Some(5),
            },
            0,
        );
        assert_eq!(t.probe(Key::new(word, 63)).and_then(|h| h.best), Some(5));
        assert_eq!(t.probe(Key::new(word, 7)).map(|h| h.lower), Some(-1));
        // Every field round-trips at its extremes.
        for (lower, upper, best, work) in [(-128, 127, Some(14), 63), (127, -128, None, 0)] {
            let b = Bounds { lower, upper, best };
            assert_eq!(Bounds::unpack(b.pack(work)), (b, work));
        }
        assert_eq!(Bounds::unpack(first.pack(200)).1, MAX_WORK);
    }
}
