//! Large batch buffers.
//!
//! At thousands of lanes the states and observation rows of a [`crate::core::VecEnv`] take
//! megabytes, touched a few lines per lane per step in lane order. On 4 KiB pages every
//! lane or two is a new page: the TLB cannot hold them all, and each miss walks the page
//! tables (twice over in a virtual machine). [`filled`] asks Linux to back such a buffer with
//! transparent huge pages (2 MiB) before its memory is first touched; elsewhere, or when the
//! kernel declines, it is an ordinary `Vec`.

/// Size of a transparent huge page on x86_64 and aarch64 Linux.
pub const HUGE_PAGE: usize = 2 << 20;

/// `vec![value; len]`, its memory advised for transparent huge pages when it spans at least
/// one whole huge page (a hint: contents and behaviour are those of the `Vec`).
pub fn filled<T: Clone>(len: usize, value: T) -> Vec<T> {
    let mut v = Vec::with_capacity(len);
    advise_huge(v.spare_capacity_mut());
    v.resize(len, value);
    v
}

/// Advises the whole huge pages inside `buf` (not yet touched, for the advice to take effect
/// at the first write) for transparent huge pages.
fn advise_huge<T>(buf: &mut [T]) {
    #[cfg(target_os = "linux")]
    {
        let start = buf.as_mut_ptr() as usize;
        let end = start + std::mem::size_of_val(buf);
        let first = start.next_multiple_of(HUGE_PAGE);
        let last = end / HUGE_PAGE * HUGE_PAGE;
        if last > first {
            // SAFETY: `first..last` lies inside `buf`, an allocation this function was lent,
            // and is page-aligned; MADV_HUGEPAGE changes how the pages are backed, never their
            // contents, and a failure (a kernel without THP) leaves them as they were.
            unsafe {
                libc::madvise(
                    first as *mut libc::c_void,
                    last - first,
                    libc::MADV_HUGEPAGE,
                );
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = buf;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filled_is_vec_of_value() {
        for len in [0, 1, 1000, 3 * HUGE_PAGE / 4 + 17] {
            let v = filled(len, 7u32);
            assert_eq!(v.len(), len);
            assert!(v.iter().all(|&x| x == 7));
        }
        let states = filled(5000, [1u8; 860]);
        assert!(states.iter().all(|s| s.iter().all(|&b| b == 1)));
    }
}
