//! What a running solve shares with whoever watches it: a stop request
//! and a live count of the boards searched.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// How often (in boards) a searcher checks the stop flag and adds to the
/// shared count.
pub(super) const CHECK_EVERY: u64 = 1 << 16;

/// A stop flag and a node count shared by the searchers of a solve.
#[derive(Debug, Default)]
pub struct Control {
    stop: AtomicBool,
    nodes: AtomicU64,
}

impl Control {
    /// A control with no stop requested.
    pub const fn new() -> Control {
        Control {
            stop: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
        }
    }

    /// Asks every searcher to give up soon (within `CHECK_EVERY` boards).
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// A stop was asked for.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Boards searched so far, to within `CHECK_EVERY` a searcher.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// Adds `n` boards to the count.
    pub(super) fn add_nodes(&self, n: u64) {
        self.nodes.fetch_add(n, Ordering::Relaxed);
    }
}
