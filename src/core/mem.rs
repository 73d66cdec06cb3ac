//! Large batch buffers.
//!
//! At thousands of lanes the states and observation rows of a [`crate::core::VecEnv`] take
//! megabytes, touched a few lines per lane per step in lane order. On 4 KiB pages every
//! lane or two is a new page: the TLB cannot hold them all, and each miss walks the page
//! tables (twice over in a virtual machine). A [`HugeBuf`] of at least one huge page is
//! aligned to [`HUGE_PAGE`] and, on Linux, advised for transparent huge pages before its
//! memory is first touched, so that the whole buffer can be backed by 2 MiB pages. Where the
//! kernel declines (or elsewhere) it is ordinary memory.
//!
//! Every buffer whose size follows from the caller's input is allocated fallibly here
//! ([`HugeBuf::try_filled`], [`try_vec`]): a refused allocation, or a size that does not fit
//! the address space, is an [`Error::OutOfMemory`] naming the buffer and its size, never an
//! abort of the process (which in Python would kill the interpreter).

use std::alloc::{self, Layout};

use super::error::{Error, Result};
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;

/// Size of a transparent huge page on x86_64 and aarch64 Linux.
pub const HUGE_PAGE: usize = 2 << 20;

/// The alignment of a buffer smaller than a huge page: a cache line on x86_64 and most
/// aarch64 processors.
pub const CACHE_LINE: usize = 64;

/// A fixed-length buffer of `Copy` values in memory suited to huge pages (see the module
/// documentation). Dereferences to a slice.
pub struct HugeBuf<T: Copy> {
    ptr: NonNull<T>,
    len: usize,
}

// SAFETY: a `HugeBuf` owns its values like a `Box<[T]>`.
unsafe impl<T: Copy + Send> Send for HugeBuf<T> {}
// SAFETY: as above; shared access only reads.
unsafe impl<T: Copy + Sync> Sync for HugeBuf<T> {}

impl<T: Copy> HugeBuf<T> {
    /// `len` copies of `value`; [`Error::OutOfMemory`] (naming the buffer `what`) when
    /// the allocator refuses the memory or its size overflows `isize`.
    pub fn try_filled(len: usize, value: T, what: &'static str) -> Result<Self> {
        let oom = || Error::OutOfMemory {
            context: String::new(),
            what,
            bytes: len as u128 * std::mem::size_of::<T>() as u128,
        };
        let layout = Self::layout(len).ok_or_else(oom)?;
        if layout.size() == 0 {
            return Ok(HugeBuf {
                ptr: NonNull::dangling(),
                len,
            });
        }
        // SAFETY: the layout has a non-zero size.
        let raw = unsafe { alloc::alloc(layout) } as *mut T;
        let ptr = NonNull::new(raw).ok_or_else(oom)?;
        if layout.align() == HUGE_PAGE {
            advise_huge(raw as *mut u8, layout.size());
        }
        for i in 0..len {
            // SAFETY: `i < len` and the allocation holds `len` values of `T`.
            unsafe { ptr.as_ptr().add(i).write(value) };
        }
        Ok(HugeBuf { ptr, len })
    }

    /// The allocation of `len` values: huge-page aligned and rounded up to whole huge pages
    /// from one huge page on, else the array aligned to a cache line ([`CACHE_LINE`]: a
    /// lane whose size is a multiple of it then starts on a line); `None` if the size
    /// overflows `isize`.
    fn layout(len: usize) -> Option<Layout> {
        let array = Layout::array::<T>(len).ok()?;
        if array.size() < HUGE_PAGE {
            return array.align_to(CACHE_LINE).ok();
        }
        let size = array.size().checked_next_multiple_of(HUGE_PAGE)?;
        Layout::from_size_align(size, HUGE_PAGE.max(array.align())).ok()
    }
}

/// `len` copies of `value` in a `Vec` allocated fallibly: [`Error::OutOfMemory`] (naming the
/// buffer `what`) instead of an abort when the allocator refuses or the size overflows.
/// What every buffer whose size follows from a caller's input is allocated with (the CLI
/// and the Python bindings too; [`Error::in_context`] adds the input to the message).
pub fn try_vec<T: Clone>(len: usize, value: T, what: &'static str) -> Result<Vec<T>> {
    let mut v = try_with_capacity(len, what)?;
    v.resize(len, value);
    Ok(v)
}

/// The number of values in rows of `width` values of `T` for each of `lanes` lanes (the
/// length of a `[lanes, width]` buffer); [`Error::OutOfMemory`] (naming the buffer `what`)
/// when the product overflows `usize`: it asks for more than any address space holds.
pub fn lane_rows<T>(lanes: usize, width: usize, what: &'static str) -> Result<usize> {
    lanes.checked_mul(width).ok_or(Error::OutOfMemory {
        context: String::new(),
        what,
        bytes: lanes as u128 * width as u128 * std::mem::size_of::<T>() as u128,
    })
}

/// An empty `Vec` with room for `len` values, allocated fallibly (see [`try_vec`]).
pub fn try_with_capacity<T>(len: usize, what: &'static str) -> Result<Vec<T>> {
    let mut v = Vec::new();
    v.try_reserve_exact(len).map_err(|_| Error::OutOfMemory {
        context: String::new(),
        what,
        bytes: len as u128 * std::mem::size_of::<T>() as u128,
    })?;
    Ok(v)
}

/// A copy of `data` in a `Vec` allocated fallibly (see [`try_vec`]).
pub fn try_to_vec<T: Clone>(data: &[T], what: &'static str) -> Result<Vec<T>> {
    let mut v = try_with_capacity(data.len(), what)?;
    v.extend_from_slice(data);
    Ok(v)
}

impl<T: Copy> Drop for HugeBuf<T> {
    fn drop(&mut self) {
        let layout = Self::layout(self.len).expect("the layout of an allocated buffer");
        if layout.size() != 0 {
            // SAFETY: allocated in `try_filled` with this same layout; `T: Copy` needs no drop.
            unsafe { alloc::dealloc(self.ptr.as_ptr() as *mut u8, layout) };
        }
    }
}

impl<T: Copy> Deref for HugeBuf<T> {
    type Target = [T];
    #[inline]
    fn deref(&self) -> &[T] {
        // SAFETY: `ptr` holds `len` initialized values (dangling and aligned when empty).
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Copy> DerefMut for HugeBuf<T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, and `&mut self` makes the access unique.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Copy + std::fmt::Debug> std::fmt::Debug for HugeBuf<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// Advises `bytes` bytes from `start` (huge-page aligned, not yet touched) for transparent
/// huge pages. A hint: contents never change.
fn advise_huge(start: *mut u8, bytes: usize) {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: the range is an allocation of ours, page-aligned; MADV_HUGEPAGE changes how
        // the pages are backed, never their contents, and a failure (a kernel without THP)
        // leaves them as they were.
        unsafe {
            libc::madvise(start as *mut libc::c_void, bytes, libc::MADV_HUGEPAGE);
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (start, bytes);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn filled<T: Copy>(len: usize, value: T) -> HugeBuf<T> {
        HugeBuf::try_filled(len, value, "test buffer").unwrap()
    }

    #[test]
    fn holds_its_values() {
        for len in [0, 1, 1000, 3 * HUGE_PAGE / 16 + 17, HUGE_PAGE / 4] {
            let mut v = filled(len, 7u32);
            assert_eq!(v.len(), len);
            assert!(v.iter().all(|&x| x == 7));
            if len > 0 {
                v[len - 1] = 9;
                assert_eq!(v[len - 1], 9);
            }
        }
        let mut states = filled(5000, [1u8; 860]);
        assert!(states.iter().all(|s| s.iter().all(|&b| b == 1)));
        states[4999][859] = 2;
        assert_eq!(states.iter().map(|s| s[859] as u32).sum::<u32>(), 5001);
        assert_eq!(filled(0, ()).len(), 0);
        assert_eq!(filled(3, ()).len(), 3);
    }

    #[test]
    fn large_buffers_are_huge_page_aligned() {
        let v = filled(HUGE_PAGE / 4, 0f32);
        assert_eq!(v.as_ptr() as usize % HUGE_PAGE, 0);
        assert_eq!(
            HugeBuf::<f32>::layout(HUGE_PAGE / 4 + 1).unwrap().size(),
            2 * HUGE_PAGE
        );
        assert_eq!(HugeBuf::<f32>::layout(10).unwrap().align(), CACHE_LINE);
        let small = filled(1000, 0u8);
        assert_eq!(small.as_ptr() as usize % CACHE_LINE, 0);
    }

    /// Sizes beyond the address space (overflowing `isize`, or more than any allocator
    /// gives) are errors that name the buffer and the size asked for, not aborts.
    #[test]
    fn absurd_sizes_are_out_of_memory_errors() {
        let huge = usize::MAX / 8;
        let Err(err) = HugeBuf::try_filled(huge, 0f32, "observations") else {
            panic!("allocated {huge} floats");
        };
        assert_eq!(
            err,
            Error::OutOfMemory {
                context: String::new(),
                what: "observations",
                bytes: huge as u128 * 4,
            }
        );
        assert!(err.to_string().contains("for observations"), "{err}");
        // A size that fits `isize` but no machine: the allocator itself refuses.
        let refused = (isize::MAX as usize >> 1) & !(HUGE_PAGE - 1);
        assert!(matches!(
            HugeBuf::try_filled(refused, 0u8, "states"),
            Err(Error::OutOfMemory { bytes, .. }) if bytes == refused as u128
        ));
        assert!(matches!(
            try_vec(usize::MAX, 0u64, "rewards"),
            Err(Error::OutOfMemory {
                what: "rewards",
                ..
            })
        ));
        assert!(matches!(
            try_vec(isize::MAX as usize >> 1, 0u8, "mask"),
            Err(Error::OutOfMemory { what: "mask", .. })
        ));
        assert_eq!(try_vec(3, 1u8, "mask").unwrap(), vec![1, 1, 1]);
        assert_eq!(try_to_vec(&[1u8, 2], "copy").unwrap(), vec![1, 2]);
    }
}
