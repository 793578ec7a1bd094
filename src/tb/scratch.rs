//! Zeroed working memory for the level being built.
//!
//! The builder's records are hundreds of megabytes to gigabytes touched at
//! random, so with 4 KiB pages many touches also miss the TLB. The memory
//! is an anonymous mapping that asks the kernel for transparent huge pages,
//! which many kernels grant only on request. (At level 18 this made no
//! measurable difference; it is meant for the levels of gigabytes.)

use std::io;
use std::ops::{Deref, DerefMut};

use memmap2::MmapMut;

/// A zeroed byte buffer on huge pages where the kernel allows.
pub struct Scratch {
    map: MmapMut,
    len: usize,
}

impl Scratch {
    /// `len` zero bytes; fails only when the memory cannot be mapped.
    pub fn zeroed(len: usize) -> io::Result<Scratch> {
        // An empty mapping is an error, so map at least one byte.
        let map = MmapMut::map_anon(len.max(1))?;
        // Only advice: without huge pages the build is slower, not wrong.
        #[cfg(target_os = "linux")]
        let _ = map.advise(memmap2::Advice::HugePage);
        Ok(Scratch { map, len })
    }

    /// Keeps the first `len` bytes and gives the memory of the rest back.
    pub fn truncate(&mut self, len: usize) {
        if len >= self.len {
            return;
        }
        self.len = len;
        // Whole pages past the kept bytes; failing to free them only costs
        // memory until the buffer is dropped.
        let page = 4096;
        let start = len.div_ceil(page) * page;
        if start < self.map.len() {
            // SAFETY: nothing reads past `self.len` again (`Deref` stops
            // there), so dropping the contents of these pages is harmless.
            let _ = unsafe {
                self.map.unchecked_advise_range(
                    memmap2::UncheckedAdvice::DontNeed,
                    start,
                    self.map.len() - start,
                )
            };
        }
    }
}

impl Deref for Scratch {
    type Target = [u8];

    #[inline]
    fn deref(&self) -> &[u8] {
        &self.map[..self.len]
    }
}

impl DerefMut for Scratch {
    #[inline]
    fn deref_mut(&mut self) -> &mut [u8] {
        &mut self.map[..self.len]
    }
}
