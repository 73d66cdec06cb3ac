//! SIMD encoders (`wide`): turn bit sets into one-hot rows of observations and legal masks.
//!
//! Each function writes many values at once: a bit set is broadcast to every lane of a
//! vector, masked with one bit per lane, compared, and the comparison selects the output
//! value. The scalar versions in the tests are the specification.

use wide::{u32x8, u8x16};

const BIT_WEIGHTS_8: u32x8 = u32x8::new([1, 2, 4, 8, 16, 32, 64, 128]);
const BIT_WEIGHTS_16: u8x16 = u8x16::new([
    1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128,
]);
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

/// Writes `out[i] = 1` where bit `i` of `bits` is set and `0` elsewhere, for every
/// `i < out.len()` (`out.len() <= 128`).
#[inline]
pub fn one_hot_u8(bits: u128, out: &mut [u8]) {
    debug_assert!(out.len() <= 128);
    let one = u8x16::splat(1);
    let mut chunks = out.chunks_exact_mut(16);
    let mut shift = 0;
    let expand = |shift: u32| {
        let pair = (bits >> shift) as u16;
        let mut lanes = [0u8; 16];
        lanes[..8].fill(pair as u8);
        lanes[8..].fill((pair >> 8) as u8);
        let hit = (u8x16::new(lanes) & BIT_WEIGHTS_16).simd_eq(BIT_WEIGHTS_16);
        (hit & one).to_array()
    };
    for chunk in &mut chunks {
        chunk.copy_from_slice(&expand(shift));
        shift += 16;
    }
    let rest = chunks.into_remainder();
    if !rest.is_empty() {
        rest.copy_from_slice(&expand(shift)[..rest.len()]);
    }
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
