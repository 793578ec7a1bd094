//! Starting threads so that a shortage of memory is an error, not an abort.
//!
//! A new thread needs two mappings: its stack, which the starting thread maps,
//! and a small signal stack, which the Rust runtime maps from inside the new
//! thread before any of its code runs (after the thread's first allocation,
//! which may reserve an allocator arena). When the address space is nearly full
//! (a `ulimit -v`, a container's limit) the first can fit where the second
//! does not, and the runtime then aborts the whole process. So a thread is
//! started only once room for its stack and a margin could be mapped (and at
//! once given back): when that fails, the caller gets the error and can go on
//! with the threads it has.
//!
//! The room must still be there when the new thread maps its signal stack.
//! Threads started before it could take it meanwhile: their own signal
//! stacks, and the allocator's arena of each thread (a reservation of tens of
//! MiB made at its first allocation). So [`Starter`] waits, before it returns,
//! until the new thread is running and has made its first allocation: the
//! next thread's room is measured only once this one has taken its share.
//! It waits only when room is short: with 4 GiB free, nothing that
//! threads starting at once can take would leave too little.

use std::io;
use std::sync::{Arc, Barrier};
use std::thread::{Builder, JoinHandle, Scope, ScopedJoinHandle};

/// The stack of the threads started here: the standard library's default.
pub const STACK: usize = 2 << 20;

/// Free address space beyond a stack that lets a thread start without
/// waiting for it to run: more than the arenas (64 MiB each) and stacks
/// of the threads that may be starting meanwhile.
const PLENTY: usize = 4 << 30;

/// What must be free beyond a thread's stack: the allocator's arena the
/// thread may make as it starts, before the runtime maps its signal stack
/// (glibc reserves 64 MiB for one), the signal stack and guard page, and
/// room for the running threads' other allocations (one failing aborts the
/// process).
const MARGIN: usize = 72 << 20;

/// A thread about to be started, once there was room for it (see the module
/// docs): when room is short, [`Starter::spawn`] and
/// [`Starter::spawn_scoped`] return only once the thread runs.
#[derive(Debug)]
#[must_use]
pub struct Starter {
    builder: Builder,
    /// Room is short: wait until the thread runs (see the module docs).
    wait: bool,
}

/// A thread starter with a [`STACK`]-sized stack, once there is room for it;
/// the error of mapping that room otherwise.
pub fn builder() -> io::Result<Starter> {
    builder_with_stack(STACK)
}

/// A thread starter with a `stack`-byte stack, once there is room for it.
pub fn builder_with_stack(stack: usize) -> io::Result<Starter> {
    let room = |beyond: usize| {
        memmap2::MmapOptions::new()
            .len(stack.saturating_add(beyond))
            .map_anon()
            .map(drop)
    };
    let wait = room(PLENTY).is_err();
    if wait {
        room(MARGIN)?;
    }
    Ok(Starter {
        builder: Builder::new().stack_size(stack),
        wait,
    })
}

impl Starter {
    /// Names the thread.
    pub fn name(self, name: String) -> Starter {
        Starter {
            builder: self.builder.name(name),
            wait: self.wait,
        }
    }

    /// Starts `f` on a new thread (and waits until it runs when room is
    /// short).
    pub fn spawn<F, T>(self, f: F) -> io::Result<JoinHandle<T>>
    where
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        if !self.wait {
            return self.builder.spawn(f);
        }
        let (running, f) = announced(f);
        let handle = self.builder.spawn(f)?;
        running.wait();
        Ok(handle)
    }

    /// Starts `f` on a new thread of `scope` (and waits until it runs when
    /// room is short).
    pub fn spawn_scoped<'scope, 'env, F, T>(
        self,
        scope: &'scope Scope<'scope, 'env>,
        f: F,
    ) -> io::Result<ScopedJoinHandle<'scope, T>>
    where
        F: FnOnce() -> T + Send + 'scope,
        T: Send + 'scope,
    {
        if !self.wait {
            return self.builder.spawn_scoped(scope, f);
        }
        let (running, f) = announced(f);
        let handle = self.builder.spawn_scoped(scope, f)?;
        running.wait();
        Ok(handle)
    }
}

/// `f`, preceded by a first allocation and a meeting at the barrier returned.
fn announced<F: FnOnce() -> T, T>(f: F) -> (Arc<Barrier>, impl FnOnce() -> T) {
    let running = Arc::new(Barrier::new(2));
    let theirs = Arc::clone(&running);
    let f = move || {
        // The allocator gives this thread its arena now, not later while
        // the next thread starts.
        drop(std::hint::black_box(Box::new(0_u64)));
        theirs.wait();
        drop(theirs);
        f()
    };
    (running, f)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, Ordering};

    #[test]
    fn a_thread_starts_with_the_builder() {
        let handle = builder().unwrap().spawn(|| 6 * 7).unwrap();
        assert_eq!(handle.join().unwrap(), 42);
    }

    #[test]
    fn a_scoped_thread_starts_with_its_name() {
        let ran = AtomicBool::new(false);
        std::thread::scope(|scope| {
            let handle = builder()
                .unwrap()
                .name("t".to_owned())
                .spawn_scoped(scope, || {
                    ran.store(true, Ordering::SeqCst);
                    std::thread::current().name().map(str::to_owned)
                })
                .unwrap();
            assert_eq!(handle.join().unwrap().as_deref(), Some("t"));
        });
        assert!(ran.load(Ordering::SeqCst));
    }

    #[test]
    fn a_thread_started_when_room_is_short_meets_its_starter() {
        let short = || Starter {
            builder: Builder::new().stack_size(STACK),
            wait: true,
        };
        let handle = short().spawn(|| 6 * 7).unwrap();
        assert_eq!(handle.join().unwrap(), 42);
        let value = std::thread::scope(|scope| {
            let handle = short().spawn_scoped(scope, || 6 * 7).unwrap();
            handle.join().unwrap()
        });
        assert_eq!(value, 42);
    }

    #[test]
    fn no_room_is_an_error() {
        // More than a 64-bit machine's user address space (47 or 48 bits).
        let error = builder_with_stack(1 << 50).unwrap_err();
        assert!(error.raw_os_error().is_some(), "{error}");
    }
}
