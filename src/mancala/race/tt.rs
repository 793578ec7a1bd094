//! The race solver's transposition table: bounds on a position's outcome
//! and the move that proved them, shared between threads without locks.

use std::sync::atomic::{AtomicU64, Ordering};

/// Entries a bucket holds (one cache line).
const WAYS: usize = 4;

/// The bits of an entry's data word that carry the key: the board word's
/// high half (bits 32..63) and the mover's need (bits 24..28).
const KEY_BITS: u64 = 0xffff_ffff_1f00_0000;

#[repr(align(64))]
struct Bucket([AtomicU64; 2 * WAYS]);

const _: () = assert!(std::mem::size_of::<Bucket>() == 64);

/// What the table holds for a position: bounds on the mover's outcome
/// (−1, 0, 1) and the house whose move proved the lower bound, if any.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Held {
    /// The outcome is at least this.
    pub lower: i8,
    /// The outcome is at most this.
    pub upper: i8,
    /// The move (house 0..5) that proved `lower`, tried first next time.
    pub best: Option<u8>,
}

/// Bounds on race outcomes keyed by (board word, mover's need), shared
/// between threads without locks (an entry's first word is stored XOR-ed
/// with its second, so a torn read fails the key check).
///
/// Data word: key (bits 24..28 and 32..63), the best house + 1 (bits
/// 29..31, 0: none), the work that proved it (16..23), the lower bound
/// (8..15) and the upper (0..7).
pub struct RaceTable {
    buckets: Vec<Bucket>,
    mask: usize,
}

impl RaceTable {
    /// A table of at most `mib` MiB (a power of two of buckets).
    pub fn new(mib: usize) -> RaceTable {
        let fit = ((mib.max(1) << 20) / std::mem::size_of::<Bucket>()).max(1);
        let buckets = 1usize << fit.ilog2();
        RaceTable {
            buckets: (0..buckets)
                .map(|_| Bucket(std::array::from_fn(|_| AtomicU64::new(0))))
                .collect(),
            mask: buckets - 1,
        }
    }

    fn key(word: u128, a: u8) -> (u64, u64) {
        debug_assert!(a < 32);
        (
            word as u64,
            ((word >> 64) as u64 & 0xffff_ffff) << 32 | u64::from(a) << 24,
        )
    }

    fn bucket(&self, (low, high): (u64, u64)) -> &Bucket {
        let h =
            (low ^ high.wrapping_mul(0xc2b2_ae3d_27d4_eb4f)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        &self.buckets[(h >> 20) as usize & self.mask]
    }

    /// What is stored for `word` with need `a`.
    pub fn probe(&self, word: u128, a: u8) -> Option<Held> {
        let k = RaceTable::key(word, a);
        let bucket = self.bucket(k);
        (0..WAYS).find_map(|w| {
            let data = bucket.0[2 * w + 1].load(Ordering::Relaxed);
            let check = bucket.0[2 * w].load(Ordering::Relaxed);
            (check ^ data == k.0 && data & KEY_BITS == k.1).then(|| RaceTable::unpack(data).0)
        })
    }

    /// Adds bounds proved for `word` with need `a` (and the move that
    /// proved the lower one), found with `work` (log of the nodes) of
    /// search; they narrow an entry already held, or a new entry replaces
    /// the cheapest of its bucket.
    pub fn store(&self, word: u128, a: u8, held: Held, work: u8) {
        let k = RaceTable::key(word, a);
        let bucket = self.bucket(k);
        let (mut victim, mut cheapest) = (0, u8::MAX);
        for w in 0..WAYS {
            let data = bucket.0[2 * w + 1].load(Ordering::Relaxed);
            let check = bucket.0[2 * w].load(Ordering::Relaxed);
            let (old, held_work) = RaceTable::unpack(data);
            if check ^ data == k.0 && data & KEY_BITS == k.1 {
                let merged = Held {
                    lower: held.lower.max(old.lower),
                    upper: held.upper.min(old.upper),
                    best: held.best.or(old.best),
                };
                RaceTable::write(bucket, w, k, merged, work.max(held_work));
                return;
            }
            let cost = if data == 0 {
                0
            } else {
                held_work.saturating_add(1)
            };
            if cost < cheapest {
                cheapest = cost;
                victim = w;
            }
        }
        RaceTable::write(bucket, victim, k, held, work);
    }

    /// An entry's bounds, best move and work, from its data word.
    fn unpack(data: u64) -> (Held, u8) {
        let held = Held {
            lower: (data >> 8) as u8 as i8,
            upper: data as u8 as i8,
            best: match (data >> 29) & 7 {
                0 => None,
                h => Some(h as u8 - 1),
            },
        };
        (held, (data >> 16) as u8)
    }

    fn write(bucket: &Bucket, w: usize, k: (u64, u64), held: Held, work: u8) {
        let best = held.best.map_or(0, |h| u64::from(h) + 1);
        let data = k.1
            | best << 29
            | u64::from(work) << 16
            | u64::from(held.lower as u8) << 8
            | u64::from(held.upper as u8);
        bucket.0[2 * w + 1].store(data, Ordering::Relaxed);
        bucket.0[2 * w].store(k.0 ^ data, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_reads_back_and_bounds_narrow() {
        let t = RaceTable::new(1);
        let word = 0x0123_4567_89ab_cdef_0fed_cba9_8765_4321u128;
        assert_eq!(t.probe(word, 7), None);
        let first = Held {
            lower: -1,
            upper: 0,
            best: None,
        };
        t.store(word, 7, first, 3);
        assert_eq!(t.probe(word, 7), Some(first));
        assert_eq!(t.probe(word, 8), None, "the need is part of the key");
        t.store(
            word,
            7,
            Held {
                lower: 0,
                upper: 1,
                best: Some(5),
            },
            2,
        );
        assert_eq!(
            t.probe(word, 7),
            Some(Held {
                lower: 0,
                upper: 0,
                best: Some(5)
            })
        );
        t.store(
            word,
            25,
            Held {
                lower: 1,
                upper: 1,
                best: Some(0),
            },
            0,
        );
        assert_eq!(t.probe(word, 25).and_then(|h| h.best), Some(0));
        assert_eq!(t.probe(word, 7).map(|h| h.lower), Some(0));
    }
}
