//! Positions that some thread is searching right now, so that another
//! thread reaching the same position through a sibling move can search its
//! other moves first (the idea of ABDADA's "exclusive" flag, kept simple).
//!
//! It is only advice: a lost or overwritten mark costs some duplicated work,
//! never a wrong result, so one atomic word per slot suffices.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// A small table of the keys of positions being searched.
pub struct Busy {
    slots: Box<[AtomicU64]>,
}

/// Slots in the table: far more than the positions the threads can be
/// inside of at once (a few per ply and thread).
const SLOTS: usize = 1 << 14;

impl Busy {
    /// An empty table.
    pub fn new() -> Busy {
        Busy {
            slots: (0..SLOTS).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    /// The stored form of `key` (never 0, which marks a free slot).
    #[inline]
    fn mark(key: u64) -> u64 {
        key | 1
    }

    #[inline]
    fn slot(&self, key: u64) -> &AtomicU64 {
        &self.slots[(key >> 50) as usize & (SLOTS - 1)]
    }

    /// Whether a thread has said it is searching `key`.
    #[inline]
    pub fn is_busy(&self, key: u64) -> bool {
        self.slot(key).load(Relaxed) == Busy::mark(key)
    }

    /// Says that this thread is searching `key`.
    #[inline]
    pub fn enter(&self, key: u64) {
        self.slot(key).store(Busy::mark(key), Relaxed);
    }

    /// Says that the search of `key` is over (unless the slot has been
    /// taken by another key since).
    #[inline]
    pub fn leave(&self, key: u64) {
        let _ = self
            .slot(key)
            .compare_exchange(Busy::mark(key), 0, Relaxed, Relaxed);
    }
}

impl Default for Busy {
    fn default() -> Busy {
        Busy::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_come_and_go() {
        let busy = Busy::new();
        let (a, b) = (0x1234_5678_9ABC_DEF0, 0x0FED_CBA9_8765_4321);
        assert!(!busy.is_busy(a));
        busy.enter(a);
        assert!(busy.is_busy(a));
        assert!(!busy.is_busy(b));
        busy.leave(b);
        assert!(busy.is_busy(a), "leaving another key keeps the mark");
        busy.leave(a);
        assert!(!busy.is_busy(a));
    }
}
