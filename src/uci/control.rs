//! What a running search shares with the session: whether its `bestmove`
//! is held (`go infinite`, `go ponder`), and the deadlines that start at
//! `ponderhit`.

use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::Instant;

use crate::search::Limits;

/// A mutex's contents, even if a thread panicked while holding it.
pub(super) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

/// What a running search shares with the session: whether its `bestmove`
/// is held, and the time limits of a ponder search.
#[derive(Default)]
pub(super) struct Hold {
    /// The `bestmove` waits until this is cleared.
    pub(super) held: bool,
    /// `go infinite`: still held after `ponderhit`.
    pub(super) infinite: bool,
    /// The time limits that start at `ponderhit` (while pondering).
    pub(super) ponder: Option<Limits>,
    /// After `ponderhit`: no iteration starts after this.
    pub(super) soft: Option<Instant>,
    /// The search thread has printed its `bestmove`.
    pub(super) finished: bool,
}

/// A [`Hold`] and the condition its changes are signalled on.
#[derive(Default)]
pub(super) struct Control {
    pub(super) hold: Mutex<Hold>,
    pub(super) changed: Condvar,
}

impl Control {
    pub(super) fn release(&self) {
        lock(&self.hold).held = false;
        self.changed.notify_all();
    }

    pub(super) fn wait_for_release(&self) {
        let mut hold = lock(&self.hold);
        while hold.held {
            hold = self.changed.wait(hold).unwrap_or_else(|e| e.into_inner());
        }
    }

    pub(super) fn finish(&self) {
        lock(&self.hold).finished = true;
        self.changed.notify_all();
    }

    /// Raises `stop` at `deadline` unless the search has finished first
    /// (checked under the lock, so that a later search is never stopped).
    pub(super) fn stop_at(&self, deadline: Instant, stop: &AtomicBool) {
        let mut hold = lock(&self.hold);
        loop {
            if hold.finished {
                return;
            }
            let now = Instant::now();
            if now >= deadline {
                stop.store(true, Relaxed);
                return;
            }
            hold = self
                .changed
                .wait_timeout(hold, deadline - now)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }
}

/// The running search.
pub(super) struct Running {
    pub(super) thread: JoinHandle<()>,
    pub(super) control: Arc<Control>,
    /// Stops a search at its deadline after `ponderhit`.
    pub(super) timer: Option<JoinHandle<()>>,
}
