//! Large batch buffers.
//!
//! At thousands of lanes the states and observation rows of a [`crate::core::VecEnv`] take
//! megabytes, touched a few lines per lane per step in lane order. On 4 KiB pages every
//! lane or two is a new page: the TLB cannot hold them all, and each miss walks the page
//! tables (twice over in a virtual machine). A [`HugeBuf`] of at least one huge page is
//! aligned to [`HUGE_PAGE`] and, on Linux, advised for transparent huge pages before its
//! memory is first touched, so that the whole buffer can be backed by 2 MiB pages. Where the
//! kernel declines (or elsewhere) it is ordinary memory.

use std::alloc::{self, Layout};
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;

/// Size of a transparent huge page on x86_64 and aarch64 Linux.
pub const HUGE_PAGE: usize = 2 << 20;

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
    /// `len` copies of `value`.
    ///
    /// # Panics
    /// If the size overflows `isize` (as `vec!` would).
    pub fn filled(len: usize, value: T) -> Self {
        let layout = Self::layout(len);
        if layout.size() == 0 {
            return HugeBuf {
                ptr: NonNull::dangling(),
                len,
            };
        }
        // SAFETY: the layout has a non-zero size.
        let raw = unsafe { alloc::alloc(layout) } as *mut T;
        let Some(ptr) = NonNull::new(raw) else {
            alloc::handle_alloc_error(layout)
        };
        if layout.align() == HUGE_PAGE {
            advise_huge(raw as *mut u8, layout.size());
        }
        for i in 0..len {
            // SAFETY: `i < len` and the allocation holds `len` values of `T`.
            unsafe { ptr.as_ptr().add(i).write(value) };
        }
        HugeBuf { ptr, len }
    }

    /// The allocation of `len` values: huge-page aligned and rounded up to whole huge pages
    /// from one huge page on, else the plain array layout.
    fn layout(len: usize) -> Layout {
        let array = Layout::array::<T>(len).expect("buffer size overflows isize");
        if array.size() < HUGE_PAGE {
            return array;
        }
        let size = array.size().next_multiple_of(HUGE_PAGE);
        Layout::from_size_align(size, HUGE_PAGE.max(array.align()))
            .expect("buffer size overflows isize")
    }
}

impl<T: Copy> Drop for HugeBuf<T> {
    fn drop(&mut self) {
        let layout = Self::layout(self.len);
        if layout.size() != 0 {
            // SAFETY: allocated in `filled` with this same layout; `T: Copy` needs no drop.
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

    #[test]
    fn holds_its_values() {
        for len in [0, 1, 1000, 3 * HUGE_PAGE / 16 + 17, HUGE_PAGE / 4] {
            let mut v = HugeBuf::filled(len, 7u32);
            assert_eq!(v.len(), len);
            assert!(v.iter().all(|&x| x == 7));
            if len > 0 {
                v[len - 1] = 9;
                assert_eq!(v[len - 1], 9);
            }
        }
        let mut states = HugeBuf::filled(5000, [1u8; 860]);
        assert!(states.iter().all(|s| s.iter().all(|&b| b == 1)));
        states[4999][859] = 2;
        assert_eq!(states.iter().map(|s| s[859] as u32).sum::<u32>(), 5001);
        assert_eq!(HugeBuf::filled(0, ()).len(), 0);
        assert_eq!(HugeBuf::filled(3, ()).len(), 3);
    }

    #[test]
    fn large_buffers_are_huge_page_aligned() {
        let v = HugeBuf::filled(HUGE_PAGE / 4, 0f32);
        assert_eq!(v.as_ptr() as usize % HUGE_PAGE, 0);
        assert_eq!(
            HugeBuf::<f32>::layout(HUGE_PAGE / 4 + 1).size(),
            2 * HUGE_PAGE
        );
        assert_eq!(HugeBuf::<f32>::layout(10).align(), 4);
    }
}
