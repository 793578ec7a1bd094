//! Asking the processor to start loading memory that will be needed soon.
//!
//! The builder updates boards at random places in arrays far larger than
//! the caches. Asking for each line as soon as its address is known lets
//! those loads overlap with the work that follows (un-sowing and ranking
//! the next parents), where a plain load would stall the processor once
//! enough of them waited.

/// Starts loading the cache line that holds `value` into every cache level.
#[inline(always)]
pub fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch has no effect but on the caches, and `value` is a
    // valid reference anyway.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>((value as *const T).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}
