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
    let rest = chunks.into_remainder();
    let n = rest.len();
    rest.copy_from_slice(&spread_bits_to_bytes(rest_bits as u8).to_le_bytes()[..n]);
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
}
