//! Ctrl-C (SIGINT) and `kill` (SIGTERM) for the long commands: the handler
//! only records the signal and sets flags, and the command stops at its
//! next check.

use std::sync::atomic::{AtomicI32, Ordering};

/// The signal received, 0 before any.
static RECEIVED: AtomicI32 = AtomicI32::new(0);

/// Whether an interruption has been asked for.
pub fn requested() -> bool {
    RECEIVED.load(Ordering::Relaxed) != 0
}

/// The exit status of a command the signal interrupted: 128 + its number
/// (130 for Ctrl-C, 143 for SIGTERM).
pub fn status() -> i32 {
    match RECEIVED.load(Ordering::Relaxed) {
        0 => 130,
        signal => 128 + signal,
    }
}

#[cfg(unix)]
extern "C" fn on_signal(signal: libc::c_int) {
    RECEIVED.store(signal, Ordering::Relaxed);
    // The builder polls its own flag between chunks of work.
    oware::tb::builder::INTERRUPTED.store(true, Ordering::Relaxed);
    // A second signal, of either kind, ends the process the default way.
    // SAFETY: `signal` is async-signal-safe, and SIG_DFL is a valid action.
    unsafe {
        libc::signal(libc::SIGINT, libc::SIG_DFL);
        libc::signal(libc::SIGTERM, libc::SIG_DFL);
    }
}

/// Sets [`on_signal`] as the handler of SIGINT and SIGTERM, except for a
/// signal the process was started ignoring (a background job of a script).
#[cfg(unix)]
pub fn install() {
    for signal in [libc::SIGINT, libc::SIGTERM] {
        // SAFETY: the handler only stores to static atomics and resets the
        // two actions, which is async-signal-safe; `action` and `old` are
        // fully initialised (zeroed, then the action's handler, flags and
        // empty mask set) before `sigaction` reads or writes them.
        unsafe {
            let mut old: libc::sigaction = std::mem::zeroed();
            libc::sigaction(signal, std::ptr::null(), &mut old);
            if old.sa_sigaction == libc::SIG_IGN {
                continue;
            }
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
            action.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(signal, &action, std::ptr::null_mut());
        }
    }
}

/// Elsewhere the signals keep their default action.
#[cfg(not(unix))]
pub fn install() {}
