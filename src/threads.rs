//! Starting threads so that a shortage of memory is an error, not an abort.
//!
//! A new thread needs two mappings: its stack, which the starting thread maps,
//! and a small signal stack, which the Rust runtime maps from inside the new
//! thread before any of its code runs. When the address space is nearly full
//! (a `ulimit -v`, a container's limit) the first can fit where the second
//! does not, and the runtime then aborts the whole process. So a thread is
//! started only once room for its stack and a margin could be mapped (and at
//! once given back): when that fails, the caller gets the error and can go on
//! with the threads it has.

use std::io;
use std::thread::Builder;

/// The stack of the threads started here: the standard library's default.
pub const STACK: usize = 2 << 20;

/// What must be free beyond a thread's stack: its signal stack, its guard
/// page and the small allocations of starting it, with a wide margin.
const MARGIN: usize = 1 << 20;

/// A thread builder with a [`STACK`]-sized stack, once there is room for it;
/// the error of mapping that room otherwise.
pub fn builder() -> io::Result<Builder> {
    builder_with_stack(STACK)
}

/// A thread builder with a `stack`-byte stack, once there is room for it.
pub fn builder_with_stack(stack: usize) -> io::Result<Builder> {
    let room = memmap2::MmapOptions::new()
        .len(stack.saturating_add(MARGIN))
        .map_anon()?;
    drop(room);
    Ok(Builder::new().stack_size(stack))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_thread_starts_with_the_builder() {
        let handle = builder().unwrap().spawn(|| 6 * 7).unwrap();
        assert_eq!(handle.join().unwrap(), 42);
    }

    #[test]
    fn no_room_is_an_error() {
        // More than a 64-bit machine's user address space (47 or 48 bits).
        let error = builder_with_stack(1 << 50).unwrap_err();
        assert!(error.raw_os_error().is_some(), "{error}");
    }
}
