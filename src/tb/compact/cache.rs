//! A compact level's cache of recent probes.

use std::sync::atomic::{AtomicU64, Ordering};

/// The entries of a compact level's recent probes, shared by the threads:
/// a search probes the same boards again and again (every iteration of
/// its deepening), and a hit costs a load instead of a block's decode.
/// Direct-mapped by rank; each slot one `u64` (the rank + 1 in the high
/// 48 bits, the entry in the low 16), so a slot read is whole or stale,
/// never torn.
pub struct ProbeCache {
    slots: Box<[AtomicU64]>,
}

impl ProbeCache {
    /// The most slots a level's cache has (512 KiB).
    pub const MAX_SLOTS: u64 = 1 << 16;

    /// A cache for a level of `boards` boards: as many slots as boards, up
    /// to [`ProbeCache::MAX_SLOTS`].
    pub fn new(boards: u64) -> ProbeCache {
        let slots = boards.clamp(1, Self::MAX_SLOTS).next_power_of_two();
        ProbeCache {
            slots: (0..slots).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    #[inline]
    fn slot(&self, r: u64) -> &AtomicU64 {
        // Fibonacci hashing: neighbouring ranks spread over the slots.
        let i = (r.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) as usize;
        &self.slots[i & (self.slots.len() - 1)]
    }

    #[inline]
    pub fn get(&self, r: u64) -> Option<u16> {
        let word = self.slot(r).load(Ordering::Relaxed);
        (word >> 16 == r + 1).then_some(word as u16)
    }

    #[inline]
    pub fn put(&self, r: u64, entry: u16) {
        self.slot(r)
            .store((r + 1) << 16 | u64::from(entry), Ordering::Relaxed);
    }
}
