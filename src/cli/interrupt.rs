//! Ctrl-C (and `kill`'s SIGTERM) for the long commands: the handler only
//! sets flags, and the command stops at its next check.

use std::sync::atomic::{AtomicBool, Ordering};

/// The exit status of an interrupted command (128 + SIGINT).
pub const STATUS: i32 = 130;

/// Set by the handler.
static REQUESTED: AtomicBool = AtomicBool::new(false);

/// Whether an interruption has been asked for.
pub fn requested() -> bool {
    REQUESTED.load(Ordering::Relaxed)
}

#[cfg(target_os = "linux")]
extern "C" fn on_signal(_: libc::c_int) {
    REQUESTED.store(true, Ordering::Relaxed);
    // The builder polls its own flag between chunks of work.
    oware::tb::builder::INTERRUPTED.store(true, Ordering::Relaxed);
}

/// Sets [`on_signal`] as the handler of SIGINT and SIGTERM, once: a second
/// signal ends the process the default way.
#[cfg(target_os = "linux")]
pub fn install() {
    for signal in [libc::SIGINT, libc::SIGTERM] {
        // SAFETY: the handler only stores to static atomics, which is
        // async-signal-safe; `action` is fully initialised (zeroed, then
        // its handler, flags and empty mask set) before `sigaction` reads
        // it, and a null old action is allowed.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
            action.sa_flags = libc::SA_RESTART | libc::SA_RESETHAND;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(signal, &action, std::ptr::null_mut());
        }
    }
}

#[cfg(not(target_os = "linux"))]
pub fn install() {}
