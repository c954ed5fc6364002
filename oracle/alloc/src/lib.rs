//! The global allocator of the `dioptra` command and of every benchmark:
//! mimalloc, through `libmimalloc-sys`.
//!
//! It belongs to no layer: it knows nothing of dioptra, and every crate's
//! binaries and benchmarks may use it.
//!
//! Why not the `mimalloc` crate's `MiMalloc`: it hands every request to
//! `mi_malloc_aligned`, including those whose alignment every mimalloc
//! block already has. In mimalloc 3 that entry takes its fast path only
//! when the free list of the size class happens to start at an aligned
//! block, and otherwise over-allocates through its generic path: about 150
//! instructions a call instead of about 20. dioptra's values hold `u128`s
//! (16-byte alignment), so that was most of its allocations: 57% of the
//! aligned requests of `bench eval` went the generic way. Asking for plain
//! blocks where they are aligned enough took `bench eval` from 674 to 654
//! instructions per op and the whole `bench pipeline` from 13.61 to 13.04
//! billion instructions (callgrind). Upstream knows (mimalloc_rust's
//! pull request 170, open); until it lands, this is the glue.

use libmimalloc_sys as mi;
use std::alloc::{GlobalAlloc, Layout};
use std::ffi::c_void;

/// The alignment every mimalloc block whose size is a multiple of it has
/// (`MI_MAX_ALIGN_SIZE`).
///
/// mimalloc's size classes are whole 8-byte words: exact up to 8 words,
/// and above that an even number of words; the first block of a page is
/// aligned to 16 (`MI_PAGE_MIN_START_BLOCK_ALIGN`), and huge blocks start
/// their own segment. So a request whose size is a multiple of its
/// alignment, for an alignment of at most 16, lands in a class whose
/// blocks all have that alignment. Debug builds check each block.
const MIN_ALIGN: usize = 16;

/// mimalloc, with plain requests wherever a plain block is aligned enough.
pub struct Mimalloc;

/// Whether a plain mimalloc block of `size` bytes has alignment `align`.
#[inline]
fn plain_is_aligned(size: usize, align: usize) -> bool {
    align <= MIN_ALIGN && size.is_multiple_of(align)
}

/// `p`, after checking in debug builds that it has the alignment asked for.
#[inline]
fn checked(p: *mut c_void, align: usize) -> *mut u8 {
    debug_assert!(
        p.is_null() || (p as usize).is_multiple_of(align),
        "mimalloc gave a block misaligned for {align}"
    );
    p.cast()
}

/// A block for `layout`: from `plain` (by size) where a plain block is
/// aligned enough, else from `aligned` (by size and alignment).
#[inline]
fn block(
    layout: Layout,
    plain: unsafe extern "C" fn(usize) -> *mut c_void,
    aligned: unsafe extern "C" fn(usize, usize) -> *mut c_void,
) -> *mut u8 {
    let (size, align) = (layout.size(), layout.align());
    // SAFETY: mimalloc's allocation functions take any size and, in the
    // aligned ones, a power-of-two alignment, which a `Layout` has.
    let p = unsafe {
        if plain_is_aligned(size, align) {
            plain(size)
        } else {
            aligned(size, align)
        }
    };
    checked(p, align)
}

// SAFETY: every method passes the caller's layout on to the mimalloc
// function meant for it: plain requests only where `plain_is_aligned` (the
// reasoning at `MIN_ALIGN`), the aligned functions otherwise. Blocks from
// either are freed by `mi_free` and resized by `mi_realloc` or
// `mi_realloc_aligned`, which mimalloc allows for any of its blocks.
unsafe impl GlobalAlloc for Mimalloc {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        block(layout, mi::mi_malloc, mi::mi_malloc_aligned)
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        block(layout, mi::mi_zalloc, mi::mi_zalloc_aligned)
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        // SAFETY: the caller passes a block this allocator gave, and every
        // such block is mimalloc's.
        unsafe { mi::mi_free(ptr.cast()) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let align = layout.align();
        // SAFETY: `ptr` is a mimalloc block (as in `dealloc`); the new
        // block keeps `align` by the same rule as in `alloc`.
        let p = unsafe {
            if plain_is_aligned(new_size, align) {
                mi::mi_realloc(ptr.cast(), new_size)
            } else {
                mi::mi_realloc_aligned(ptr.cast(), new_size, align)
            }
        };
        checked(p, align)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every size a plain block serves, and sizes no plain block does,
    /// come back with their alignment, zeroed where asked, and keep it and
    /// their contents through growing and shrinking. Each check is the
    /// address itself, not the debug assertion, so it holds in release.
    #[test]
    fn blocks_have_the_alignment_asked_for() {
        let a = Mimalloc;
        let mut sizes: Vec<usize> = (1..=64).map(|k| 16 * k).collect();
        sizes.extend([8, 24, 40, 3, 5, 17, 1000, 4096, 65536, 1 << 20, 5 << 20]);
        for align in [1, 2, 4, 8, 16, 32, 64, 4096] {
            for &size in &sizes {
                let layout = Layout::from_size_align(size, align).unwrap();
                // SAFETY: a layout of non-zero size; each block is freed
                // once, with the layout it has at that time.
                unsafe {
                    // Several at once, so that blocks come from the middle
                    // of a page's free list too, not just its start.
                    let blocks: Vec<*mut u8> = (0..8).map(|_| a.alloc(layout)).collect();
                    for &p in &blocks {
                        assert!(!p.is_null());
                        assert_eq!(p as usize % align, 0, "alloc({size}, {align})");
                        p.write_bytes(0xA5, size);
                    }
                    let z = a.alloc_zeroed(layout);
                    assert_eq!(z as usize % align, 0, "alloc_zeroed({size}, {align})");
                    assert!(std::slice::from_raw_parts(z, size).iter().all(|&b| b == 0));
                    let grown = a.realloc(z, layout, size * 3);
                    assert_eq!(
                        grown as usize % align,
                        0,
                        "realloc({size} to {}, {align})",
                        size * 3
                    );
                    assert!(std::slice::from_raw_parts(grown, size)
                        .iter()
                        .all(|&b| b == 0));
                    let grown_layout = Layout::from_size_align(size * 3, align).unwrap();
                    let shrunk = a.realloc(grown, grown_layout, align);
                    assert_eq!(shrunk as usize % align, 0, "realloc to {align}, {align}");
                    a.dealloc(shrunk, Layout::from_size_align(align, align).unwrap());
                    for p in blocks {
                        a.dealloc(p, layout);
                    }
                }
            }
        }
    }

    /// The rule itself: plain blocks only for alignments up to 16 and
    /// sizes that are multiples of them.
    #[test]
    fn plain_requests_are_exactly_the_aligned_enough_ones() {
        assert!(plain_is_aligned(48, 16));
        assert!(plain_is_aligned(24, 8));
        assert!(plain_is_aligned(5, 1));
        assert!(!plain_is_aligned(24, 16));
        assert!(!plain_is_aligned(64, 32));
        assert!(!plain_is_aligned(12, 8));
    }
}
