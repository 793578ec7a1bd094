//! The solver's transposition table: for each board seen, the bounds on
//! its exact value proved so far, the move that proved the lower one, and
//! how much work that took.
//!
//! Every bound is a bound on the game value itself (the solver has no
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

/// What the table knows of a board.
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
    const fn pack(self, work: u8) -> u32 {
        let best = match self.best {
            Some(h) => h,
            None => NO_MOVE,
        };
        (self.lower as u8 as u32)
            | ((self.upper as u8 as u32) << 8)
            | ((best as u32) << 16)
            | ((work as u32) << 20)
    }

    const fn unpack(data: u32) -> (Bounds, u8) {
        let best = ((data >> 16) & 0xf) as u8;
        let bounds = Bounds {
            lower: data as u8 as i8,
            upper: (data >> 8) as u8 as i8,
            best: if best == NO_MOVE { None } else { Some(best) },
        };
        (bounds, (data >> 20) as u8)
    }
}

#[repr(align(64))]
struct Bucket([AtomicU64; 2 * WAYS]);

/// A shared table of bounds.
pub struct Table {
    buckets: Vec<Bucket>,
    shift: u32,
}

/// The 96 bits of a board as a low word and the high 32 bits.
#[inline]
const fn key(board: Board) -> (u64, u64) {
    board.words()
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

    #[inline]
    fn bucket(&self, (low, high): (u64, u64)) -> &Bucket {
        let h =
            (low ^ high.wrapping_mul(0xc2b2_ae3d_27d4_eb4f)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        // A table of one bucket shifts by 64: every board goes to bucket 0.
        let index = h.checked_shr(self.shift).unwrap_or(0) as usize;
        &self.buckets[index]
    }

    /// Starts loading the bucket of `board` into the caches.
    #[inline]
    pub fn prefetch(&self, board: Board) {
        prefetch(self.bucket(key(board)));
    }

    /// The bounds stored for `board`, if any.
    #[inline]
    pub fn probe(&self, board: Board) -> Option<Bounds> {
        let k = key(board);
        let bucket = self.bucket(k);
        (0..WAYS).find_map(|way| {
            let data = bucket.0[2 * way + 1].load(Ordering::Relaxed);
            let check = bucket.0[2 * way].load(Ordering::Relaxed);
            (check ^ data == k.0 && data >> 32 == k.1).then(|| Bounds::unpack(data as u32).0)
        })
    }

    /// Adds what a search proved of `board` (bounds met with what the
    /// table held), recording `work` (the log of the nodes it took); a
    /// new board replaces the bucket's cheapest entry.
    pub fn store(&self, board: Board, bounds: Bounds, work: u8) {
        let k = key(board);
        let bucket = self.bucket(k);
        let mut victim = 0;
        let mut cheapest = u8::MAX;
        for way in 0..WAYS {
            let data = bucket.0[2 * way + 1].load(Ordering::Relaxed);
            let check = bucket.0[2 * way].load(Ordering::Relaxed);
            let (held, held_work) = Bounds::unpack(data as u32);
            if check ^ data == k.0 && data >> 32 == k.1 {
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

    fn write(bucket: &Bucket, way: usize, k: (u64, u64), bounds: Bounds, work: u8) {
        let data = k.1 << 32 | u64::from(bounds.pack(work.min(63)));
        bucket.0[2 * way + 1].store(data, Ordering::Relaxed);
        bucket.0[2 * way].store(k.0 ^ data, Ordering::Relaxed);
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
}
