//! CPython's `random.Random(seed).shuffle`, bit for bit: the Mersenne Twister MT19937
//! seeded from a Python `int` by `init_by_array`, `getrandbits`, `_randbelow` by rejection
//! sampling and the Fisher–Yates shuffle from the end of the list.
//!
//! i151-engine deals every round from `random.Random(match_seed + round_number).shuffle` of
//! the standard deck; this module lets cardvec deal exactly the same cards. It is checked
//! against outputs of CPython 3.11 committed under `tests/data/` (the algorithm of
//! `random.seed(int)`, `getrandbits(k <= 32)`, `_randbelow_with_getrandbits` and `shuffle`
//! is the same in CPython 3.2 through 3.14).
//!
//! The twister's state is twisted lazily, one word at a time in the standard order, which
//! gives the same outputs as the block twist while computing only the words a 32-card
//! shuffle reads (about 40 of 624).

use super::MatchSeed;

const N: usize = 624;
const M: usize = 397;
const MATRIX_A: u32 = 0x9908_B0DF;
const UPPER_MASK: u32 = 0x8000_0000;
const LOWER_MASK: u32 = 0x7FFF_FFFF;

/// `init_genrand(19650218)`, the constant start of every `init_by_array`.
const INIT_19650218: [u32; N] = {
    let mut mt = [0u32; N];
    mt[0] = 19_650_218;
    let mut i = 1;
    while i < N {
        let prev = mt[i - 1];
        mt[i] = 1_812_433_253u32
            .wrapping_mul(prev ^ (prev >> 30))
            .wrapping_add(i as u32);
        i += 1;
    }
    mt
};

/// A Mersenne Twister in the state CPython's `random.Random(seed)` leaves it.
#[derive(Clone)]
pub struct Mt19937 {
    mt: [u32; N],
    /// Index of the next word to twist and output.
    index: usize,
}

impl std::fmt::Debug for Mt19937 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Mt19937")
            .field("index", &self.index)
            .finish()
    }
}

impl Mt19937 {
    /// The generator of `random.Random(seed)` for an integer seed (`i64`, `i128` or any
    /// [`MatchSeed`]): the key is `abs(seed)` in 32-bit words, least significant first (`[0]`
    /// for zero).
    pub fn from_python_int(seed: impl Into<MatchSeed>) -> Mt19937 {
        let (key, len) = seed.into().python_key();
        Mt19937::from_key(&key[..len])
    }

    /// MT19937's `init_by_array(key)` (`key` not empty).
    ///
    /// Both loops are one serial chain of multiply-xor steps (each word depends on the
    /// previous one), so the previous word is kept in a register (`prev`) instead of being
    /// read back from the array just written: that store-to-load round trip was on the
    /// critical path of every step.
    pub fn from_key(key: &[u32]) -> Mt19937 {
        debug_assert!(!key.is_empty());
        let mut mt = INIT_19650218;
        let mut prev = mt[0];
        let (mut i, mut j) = (1usize, 0usize);
        for _ in 0..N.max(key.len()) {
            let add = key[j].wrapping_add(j as u32);
            prev = (mt[i] ^ (prev ^ (prev >> 30)).wrapping_mul(1_664_525)).wrapping_add(add);
            mt[i] = prev;
            i += 1;
            j += 1;
            if i >= N {
                // mt[0] = mt[N - 1], which is `prev`.
                mt[0] = prev;
                i = 1;
            }
            if j >= key.len() {
                j = 0;
            }
        }
        for _ in 0..N - 1 {
            prev =
                (mt[i] ^ (prev ^ (prev >> 30)).wrapping_mul(1_566_083_941)).wrapping_sub(i as u32);
            mt[i] = prev;
            i += 1;
            if i >= N {
                mt[0] = prev;
                i = 1;
            }
        }
        mt[0] = 0x8000_0000;
        Mt19937 { mt, index: 0 }
    }

    /// `genrand_uint32`: the next 32-bit output.
    #[inline]
    pub fn next_u32(&mut self) -> u32 {
        let k = self.index;
        let y = (self.mt[k] & UPPER_MASK) | (self.mt[(k + 1) % N] & LOWER_MASK);
        let mag = if y & 1 == 0 { 0 } else { MATRIX_A };
        self.mt[k] = self.mt[(k + M) % N] ^ (y >> 1) ^ mag;
        self.index = if k + 1 == N { 0 } else { k + 1 };
        let mut y = self.mt[k];
        y ^= y >> 11;
        y ^= (y << 7) & 0x9D2C_5680;
        y ^= (y << 15) & 0xEFC6_0000;
        y ^ (y >> 18)
    }

    /// `getrandbits(k)` for `1 <= k <= 32`.
    #[inline]
    pub fn getrandbits(&mut self, k: u32) -> u32 {
        debug_assert!((1..=32).contains(&k));
        self.next_u32() >> (32 - k)
    }

    /// `_randbelow(n)` (`n >= 1`): `getrandbits(n.bit_length())` until below `n`.
    #[inline]
    pub fn randbelow(&mut self, n: u32) -> u32 {
        debug_assert!(n >= 1);
        let k = 32 - n.leading_zeros();
        loop {
            let r = self.getrandbits(k);
            if r < n {
                return r;
            }
        }
    }

    /// `shuffle(items)`: for `i` from `len - 1` down to 1, swap `items[i]` with
    /// `items[randbelow(i + 1)]`.
    #[inline]
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.randbelow(i as u32 + 1) as usize;
            items.swap(i, j);
        }
    }
}

/// `random.Random(seed).shuffle(items)`.
pub fn python_shuffle<T>(seed: impl Into<MatchSeed>, items: &mut [T]) {
    Mt19937::from_python_int(seed).shuffle(items)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The classic test vector of `init_by_array({0x123, 0x234, 0x345, 0x456})`
    /// (mt19937ar.out).
    #[test]
    fn init_by_array_matches_the_reference_test_vector() {
        let mut mt = Mt19937::from_key(&[0x123, 0x234, 0x345, 0x456]);
        let first: Vec<u32> = (0..5).map(|_| mt.next_u32()).collect();
        assert_eq!(
            first,
            vec![
                1_067_595_299,
                955_945_823,
                477_289_528,
                4_107_218_783,
                4_228_976_476
            ]
        );
    }

    #[test]
    fn lazy_twist_wraps_like_the_block_twist() {
        // Output 1000 of the reference test vector (mt19937ar.out lists 1000 values; the
        // last one is 3460025646).
        let mut mt = Mt19937::from_key(&[0x123, 0x234, 0x345, 0x456]);
        let mut last = 0;
        for _ in 0..1000 {
            last = mt.next_u32();
        }
        assert_eq!(last, 3_460_025_646);
    }
}
