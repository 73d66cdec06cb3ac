//! SIMD encoders (`wide`): turn bit sets into one-hot rows of observations and legal masks;
//! and the cache hint the environment gives before it works on a lane ([`prefetch`]).
//!
//! Each function writes many values at once: a bit set is broadcast to every lane of a
//! vector, masked with one bit per lane, compared, and the comparison selects the output
//! value. The scalar versions in the tests are the specification.

use wide::u32x8;

const BIT_WEIGHTS_8: u32x8 = u32x8::new([1, 2, 4, 8, 16, 32, 64, 128]);
const ONE_F32_BITS: u32 = 0x3F80_0000;

/// Writes `out[i] = 1.0` where bit `i` of `bits` is set and `0.0` elsewhere, for every
/// `i < out.len()` (`out.len() <= 64`).
#[inline]
pub fn one_hot_f32(bits: u64, out: &mut [f32]) {
    debug_assert!(out.len() <= 64);
    let ones = u32x8::splat(ONE_F32_BITS);
    let mut chunks = out.chunks_exact_mut(8);
    let mut shift = 0;
    for chunk in &mut chunks {
        let byte = u32x8::splat(((bits >> shift) & 0xFF) as u32);
        let hit = (byte & BIT_WEIGHTS_8).simd_eq(BIT_WEIGHTS_8);
        let values: [f32; 8] = bytemuck::cast((hit & ones).to_array());
        chunk.copy_from_slice(&values);
        shift += 8;
    }
    let rest = chunks.into_remainder();
    if !rest.is_empty() {
        let byte = u32x8::splat(((bits >> shift) & 0xFF) as u32);
        let hit = (byte & BIT_WEIGHTS_8).simd_eq(BIT_WEIGHTS_8);
        let values: [f32; 8] = bytemuck::cast((hit & ones).to_array());
        rest.copy_from_slice(&values[..rest.len()]);
    }
}

/// Spreads the 8 bits of `byte` over the 8 bytes of a `u64` (byte `k` = bit `k`, 0 or 1):
/// SIMD within a register, five integer operations.
#[inline]
pub const fn spread_bits_to_bytes(byte: u8) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let picked = (byte as u64).wrapping_mul(ONES) & 0x8040_2010_0804_0201;
    ((picked + 0x7F7F_7F7F_7F7F_7F7F) >> 7) & ONES
}

/// Writes `out[i] = 1` where bit `i` of `bits` is set and `0` elsewhere, for every
/// `i < out.len()` (`out.len() <= 128`). Eight mask bytes are produced per
/// [`spread_bits_to_bytes`] (this beat a `wide::u8x16` broadcast-and-compare here).
#[inline]
pub fn one_hot_u8(bits: u128, out: &mut [u8]) {
    debug_assert!(out.len() <= 128);
    let mut chunks = out.chunks_exact_mut(8);
    let mut rest_bits = bits;
    for chunk in &mut chunks {
        chunk.copy_from_slice(&spread_bits_to_bytes(rest_bits as u8).to_le_bytes());
        rest_bits >>= 8;
    }
    write_short(
        chunks.into_remainder(),
        spread_bits_to_bytes(rest_bits as u8),
    );
}

/// Writes the first `out.len()` (< 8) little-endian bytes of `bytes` into `out` with at most
/// two overlapping fixed-size stores (a `copy_from_slice` of unknown length would be a
/// `memcpy` call).
#[inline(always)]
fn write_short(out: &mut [u8], bytes: u64) {
    let b = bytes.to_le_bytes();
    let n = out.len();
    debug_assert!(n < 8);
    if n >= 4 {
        out[..4].copy_from_slice(&b[..4]);
        out[n - 4..].copy_from_slice(&b[n - 4..n]);
    } else if n >= 2 {
        out[..2].copy_from_slice(&b[..2]);
        out[n - 2..].copy_from_slice(&b[n - 2..n]);
    } else if n == 1 {
        out[0] = b[0];
    }
}

/// Tables to write `rows` one-hot rows of `width` bytes each from one index byte per row
/// (`out[r * width + k] = 1` when `index[r] == k`, else `0`): for each 16-byte block of the
/// output, the first row it touches, which of the next rows each byte belongs to, and the
/// value of `k` each byte stands for. Built at compile time ([`OneHotRows::new`]); used by
/// [`OneHotRows::write`].
pub struct OneHotRows {
    width: usize,
    rows: usize,
    blocks: usize,
    start: [u16; 64],
    base: [u8; 64],
    shuffle: [[u8; 16]; 64],
    value: [[u8; 16]; 64],
}

impl OneHotRows {
    /// The tables for `rows` rows of `width` (`16 <= rows * width <= 1024`, `width >= 1`).
    /// The last block overlaps the one before it when the output is not a multiple of 16.
    pub const fn new(width: usize, rows: usize) -> Self {
        let len = width * rows;
        assert!(width >= 1 && len >= 16 && len <= 1024 && rows <= 240);
        let blocks = len.div_ceil(16);
        let mut t = OneHotRows {
            width,
            rows,
            blocks,
            start: [0; 64],
            base: [0; 64],
            shuffle: [[0; 16]; 64],
            value: [[0; 16]; 64],
        };
        let mut b = 0;
        while b < blocks {
            let start = if 16 * b + 16 <= len { 16 * b } else { len - 16 };
            let base = start / width;
            t.start[b] = start as u16;
            t.base[b] = base as u8;
            let mut i = 0;
            while i < 16 {
                t.shuffle[b][i] = ((start + i) / width - base) as u8;
                t.value[b][i] = ((start + i) % width) as u8;
                i += 1;
            }
            b += 1;
        }
        t
    }

    /// Writes the rows for `index` (`rows + 16` bytes: one index per row, then padding the
    /// 16-byte loads may read; an index `>= width` gives a zero row) into `out` (`rows ×
    /// width` bytes). SSSE3 (a byte shuffle, a compare and an AND per 16 output bytes)
    /// when the processor has it, else one byte at a time.
    #[inline]
    pub fn write(&self, index: &[u8], out: &mut [u8]) {
        assert!(
            index.len() >= self.rows + 16 && out.len() == self.rows * self.width,
            "OneHotRows::write: buffer lengths"
        );
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("ssse3") {
            // SAFETY: SSSE3 is present; the lengths were checked above, and every block's
            // 16-byte load starts at `base <= rows - 1` (so ends within `rows + 16`) and its
            // store at `start <= rows * width - 16`.
            unsafe { self.write_ssse3(index, out) };
            return;
        }
        for (i, o) in out.iter_mut().enumerate() {
            *o = (index[i / self.width] as usize == i % self.width) as u8;
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "ssse3")]
    unsafe fn write_ssse3(&self, index: &[u8], out: &mut [u8]) {
        unsafe {
            use core::arch::x86_64::*;
            let ones = _mm_set1_epi8(1);
            for b in 0..self.blocks {
                let src =
                    _mm_loadu_si128(index.as_ptr().add(self.base[b] as usize) as *const __m128i);
                let spread = _mm_shuffle_epi8(
                    src,
                    _mm_loadu_si128(self.shuffle[b].as_ptr() as *const __m128i),
                );
                let hit = _mm_cmpeq_epi8(
                    spread,
                    _mm_loadu_si128(self.value[b].as_ptr() as *const __m128i),
                );
                _mm_storeu_si128(
                    out.as_mut_ptr().add(self.start[b] as usize) as *mut __m128i,
                    _mm_and_si128(hit, ones),
                );
            }
        }
    }
}

/// Row `k` has `1.0` at position `k`; row 8 is all zeros (an index past the width).
const ONE_HOT_F32_8: [[f32; 8]; 9] = {
    let mut t = [[0.0f32; 8]; 9];
    let mut k = 0;
    while k < 8 {
        t[k][k] = 1.0;
        k += 1;
    }
    t
};

/// Writes `index.len()` one-hot f32 rows of `W` values (`1 <= W <= 8`): `out[r * W + k] =
/// 1.0` when `index[r] == k`, else `0.0` (an index `>= W` gives a zero row), `out` being
/// `index.len() × W` long. Each row is one 8-value copy from a table (two 16-byte loads
/// and stores), in order, so that the zeros it writes past its `W` values are overwritten
/// by the rows after it; the rows too near the end take `W` values. No byte row to widen,
/// no compare: the card-major block of an f32 observation (one row per card).
#[inline]
pub fn one_hot_rows_f32<const W: usize>(index: &[u8], out: &mut [f32]) {
    const { assert!(W >= 1 && W <= 8) };
    assert_eq!(
        out.len(),
        index.len() * W,
        "one_hot_rows_f32: lengths differ"
    );
    // Rows whose 8-value copy stays inside `out`.
    let head = if out.len() >= 8 {
        ((out.len() - 8) / W + 1).min(index.len())
    } else {
        0
    };
    for (r, &k) in index[..head].iter().enumerate() {
        let k = if (k as usize) < W { k as usize } else { 8 };
        // SAFETY: `r < head`, so `r * W + 8 <= out.len()` (`head` is the number of rows
        // whose start is at most `out.len() - 8`); the table row is 8 values.
        unsafe {
            std::ptr::copy_nonoverlapping(ONE_HOT_F32_8[k].as_ptr(), out.as_mut_ptr().add(r * W), 8)
        };
    }
    for (r, &k) in index.iter().enumerate().skip(head) {
        let k = if (k as usize) < W { k as usize } else { 8 };
        out[r * W..(r + 1) * W].copy_from_slice(&ONE_HOT_F32_8[k][..W]);
    }
}

/// Packs a row of mask bytes (`0` or not) into bits: bit `i % 64` of `out[i / 64]` is set
/// when `src[i] != 0`, for every `i < src.len()`; the bits past `src.len()` are zero
/// (`out.len() == src.len().div_ceil(64)`). Sixteen bytes per compare-and-movemask (SSE2).
#[inline]
pub fn pack_bytes_to_bits(src: &[u8], out: &mut [u64]) {
    assert_eq!(
        out.len(),
        src.len().div_ceil(64),
        "pack_bytes_to_bits: lengths differ"
    );
    for (word, bytes) in out.iter_mut().zip(src.chunks(64)) {
        let mut w = 0u64;
        let mut blocks = bytes.chunks_exact(16);
        let mut shift = 0;
        for block in &mut blocks {
            #[cfg(target_arch = "x86_64")]
            {
                use core::arch::x86_64::*;
                // SAFETY: `block` is 16 bytes long (an unaligned load); SSE2 is baseline on
                // x86_64.
                let bits = unsafe {
                    let x = _mm_loadu_si128(block.as_ptr() as *const __m128i);
                    !_mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_setzero_si128())) as u32 & 0xFFFF
                };
                w |= (bits as u64) << shift;
            }
            #[cfg(not(target_arch = "x86_64"))]
            for (k, &b) in block.iter().enumerate() {
                w |= ((b != 0) as u64) << (shift + k);
            }
            shift += 16;
        }
        for (k, &b) in blocks.remainder().iter().enumerate() {
            w |= ((b != 0) as u64) << (shift + k);
        }
        *word = w;
    }
}

/// Calls `f(start)` for the starts of 16-value blocks that cover `0..n` (`n >= 16`) in
/// order, each `start + 16 <= n`: every multiple of 16 that fits, then, when `n` is not a
/// multiple of 16, one last block `n - 16` that overlaps the one before it.
#[inline(always)]
pub(crate) fn blocks16(n: usize, mut f: impl FnMut(usize)) {
    debug_assert!(n >= 16);
    let mut start = 0;
    loop {
        f(start);
        if start + 16 == n {
            return;
        }
        start = (start + 16).min(n - 16);
    }
}

/// Writes `out[i] = src[i] as f32` for every `i` (`src` and `out` of equal length): counts
/// kept as bytes, widened sixteen at a time (SSE2, baseline on x86_64: two unpacks to 32
/// bits and a conversion per four values). A length of 16 or more that is not a multiple
/// of 16 ends with one overlapping block, which writes some values twice, identically.
#[inline]
pub fn widen_u8_f32(src: &[u8], out: &mut [f32]) {
    assert_eq!(src.len(), out.len(), "widen_u8_f32: lengths differ");
    let n = src.len();
    #[cfg(target_arch = "x86_64")]
    if n >= 16 {
        // SAFETY: `start + 16 <= n`, so both the 16 bytes read from `src` and the 16
        // floats written to `out` are in bounds; unaligned loads and stores are used;
        // SSE2 is baseline on x86_64.
        blocks16(n, |start| unsafe {
            widen16(src.as_ptr().add(start), out.as_mut_ptr().add(start))
        });
        return;
    }
    for (o, &c) in out.iter_mut().zip(src) {
        *o = c as f32;
    }
}

/// Widens the 16 bytes at `src` into 16 floats at `dst`.
///
/// # Safety
/// `src` must be readable for 16 bytes and `dst` writable for 16 `f32`s.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn widen16(src: *const u8, dst: *mut f32) {
    unsafe {
        use core::arch::x86_64::*;
        let zero = _mm_setzero_si128();
        let bytes = _mm_loadu_si128(src as *const __m128i);
        let lo = _mm_unpacklo_epi8(bytes, zero);
        let hi = _mm_unpackhi_epi8(bytes, zero);
        let parts = [
            _mm_unpacklo_epi16(lo, zero),
            _mm_unpackhi_epi16(lo, zero),
            _mm_unpacklo_epi16(hi, zero),
            _mm_unpackhi_epi16(hi, zero),
        ];
        for (k, part) in parts.into_iter().enumerate() {
            _mm_storeu_ps(dst.add(4 * k), _mm_cvtepi32_ps(part));
        }
    }
}

/// Sets every value of `out` to `0.0` with fixed-size stores (the last two may overlap):
/// for the short rows of a lane (rewards per seat), where a `fill` of unknown length is a
/// `memset` call.
#[inline(always)]
pub fn zero_f32(out: &mut [f32]) {
    let n = out.len();
    if n >= 4 {
        let mut chunks = out.chunks_exact_mut(4);
        for c in &mut chunks {
            c.copy_from_slice(&[0.0; 4]);
        }
        if n % 4 != 0 {
            out[n - 4..].copy_from_slice(&[0.0; 4]);
        }
    } else if n >= 2 {
        out[..2].copy_from_slice(&[0.0; 2]);
        out[n - 2..].copy_from_slice(&[0.0; 2]);
    } else if n == 1 {
        out[0] = 0.0;
    }
}

/// Asks the cache to fetch every 64-byte line of `data` (a hint: on x86_64 `prefetcht0`,
/// elsewhere nothing), so that later reads and writes of it do not wait on memory. Changes
/// no value.
#[inline]
pub fn prefetch<T>(data: &[T]) {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        let bytes = std::mem::size_of_val(data);
        let start = data.as_ptr() as *const i8;
        let mut offset = 0;
        while offset < bytes {
            // SAFETY: `start + offset` lies inside `data`; a prefetch never faults and
            // changes nothing observable; SSE is baseline on x86_64.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(start.add(offset)) };
            offset += 64;
        }
        if bytes > 0 {
            // SAFETY: as above; the last byte, whose line the loop misses when `data` does
            // not start on a line boundary.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(start.add(bytes - 1)) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = data;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_f32_clears_every_length() {
        for n in 0..40 {
            let mut row = vec![1.5f32; n + 2];
            zero_f32(&mut row[1..n + 1]);
            assert!(row[1..n + 1].iter().all(|v| v.to_bits() == 0), "length {n}");
            assert_eq!(
                (row[0], row[n + 1]),
                (1.5, 1.5),
                "length {n}: wrote outside"
            );
        }
    }

    #[test]
    fn one_hot_u8_writes_exactly_its_row_for_every_length() {
        for n in 0..=40 {
            for bits in [0u128, u128::MAX, 0x5555_5555_5555, 1 << 13 | 1 << 37] {
                let mut row = vec![9u8; n + 2];
                one_hot_u8(bits, &mut row[1..n + 1]);
                for i in 0..n {
                    assert_eq!(row[i + 1], (bits >> i & 1) as u8, "length {n} bit {i}");
                }
                assert_eq!((row[0], row[n + 1]), (9, 9), "length {n}: wrote outside");
            }
        }
    }

    #[test]
    fn widen_u8_f32_matches_scalar_for_every_length() {
        let src: Vec<u8> = (0..70u32).map(|i| (i * 37 % 256) as u8).collect();
        for n in 0..=src.len() {
            let mut out = vec![-1.0f32; n];
            widen_u8_f32(&src[..n], &mut out);
            let want: Vec<f32> = src[..n].iter().map(|&c| c as f32).collect();
            assert_eq!(out, want, "length {n}");
        }
    }

    use proptest::prelude::*;

    proptest! {
        #[test]
        fn one_hot_f32_matches_scalar(bits in any::<u64>(), len in 0usize..=64) {
            let mut out = vec![7.0f32; len];
            one_hot_f32(bits, &mut out);
            for (i, v) in out.iter().enumerate() {
                prop_assert_eq!(*v, if bits >> i & 1 == 1 { 1.0 } else { 0.0 });
            }
        }

        #[test]
        fn one_hot_u8_matches_scalar(bits in any::<u128>(), len in 0usize..=128) {
            let mut out = vec![7u8; len];
            one_hot_u8(bits, &mut out);
            for (i, v) in out.iter().enumerate() {
                prop_assert_eq!(*v, (bits >> i & 1) as u8);
            }
        }
    }

    #[test]
    fn pack_bytes_to_bits_equals_the_scalar_rule() {
        for n in [0usize, 1, 5, 15, 16, 17, 38, 63, 64, 65, 96, 130] {
            let src: Vec<u8> = (0..n)
                .map(|i| ((i * 7 + n) % 3 == 0) as u8 * (1 + i as u8 % 2))
                .collect();
            let mut got = vec![u64::MAX; n.div_ceil(64)];
            pack_bytes_to_bits(&src, &mut got);
            let mut want = vec![0u64; n.div_ceil(64)];
            for (i, &b) in src.iter().enumerate() {
                want[i / 64] |= ((b != 0) as u64) << (i % 64);
            }
            assert_eq!(got, want, "n = {n}");
        }
    }

    fn check_one_hot_rows_f32<const W: usize>(rows: usize) {
        for seed in 0..20u64 {
            let index: Vec<u8> = (0..rows)
                .map(|r| ((r as u64 * 2654435761 + seed * 97) % (W as u64 + 2)) as u8)
                .collect();
            let mut got = vec![9.0f32; rows * W];
            one_hot_rows_f32::<W>(&index, &mut got);
            let want: Vec<f32> = (0..rows * W)
                .map(|i| (index[i / W] as usize == i % W) as u8 as f32)
                .collect();
            assert_eq!(got, want, "width {W} rows {rows} seed {seed}");
        }
    }

    #[test]
    fn one_hot_rows_f32_equal_the_scalar_rule_for_every_width_and_length() {
        for rows in 0..=20 {
            check_one_hot_rows_f32::<1>(rows);
            check_one_hot_rows_f32::<2>(rows);
            check_one_hot_rows_f32::<3>(rows);
            check_one_hot_rows_f32::<5>(rows);
            check_one_hot_rows_f32::<7>(rows);
            check_one_hot_rows_f32::<8>(rows);
        }
        check_one_hot_rows_f32::<7>(60);
    }

    #[test]
    fn one_hot_rows_equal_the_scalar_rule() {
        const T7: OneHotRows = OneHotRows::new(7, 60);
        const T3: OneHotRows = OneHotRows::new(3, 11);
        for (t, w, rows) in [(&T7, 7usize, 60usize), (&T3, 3, 11)] {
            for seed in 0..20u64 {
                let mut index = vec![0u8; rows + 16];
                for (r, x) in index.iter_mut().take(rows).enumerate() {
                    *x = ((r as u64 * 2654435761 + seed * 97) % (w as u64 + 1)) as u8;
                }
                let mut got = vec![9u8; rows * w];
                t.write(&index, &mut got);
                let want: Vec<u8> = (0..rows * w)
                    .map(|i| (index[i / w] as usize == i % w) as u8)
                    .collect();
                assert_eq!(got, want, "width {w} seed {seed}");
            }
        }
    }
}
