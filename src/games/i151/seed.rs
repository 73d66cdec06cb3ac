//! The match seed: a Python integer of up to 256 bits in magnitude, as the official
//! `create_match(..., seed=...)` takes it.
//!
//! i151-engine deals round `r` from `random.Random(seed + r)`, whose Mersenne Twister is
//! seeded from every 32-bit word of `abs(seed + r)`, so two seeds that differ in any bit deal
//! different matches: a lane must keep the whole seed. A [`MatchSeed`] is a fixed-size,
//! `Pod` two's-complement integer of [`SEED_WORDS`] 32-bit words, enough for every seed with
//! `|seed| < 2**256` ([`MATCH_SEED_BITS`]) plus any round number. Larger seeds, which the
//! official engine also takes, are refused with a message naming the bound (docs/151.md).

use bytemuck::{Pod, Zeroable};

use crate::core::{Error, Result};

/// Seeds are accepted while `|seed| < 2**MATCH_SEED_BITS`.
pub const MATCH_SEED_BITS: u32 = 256;
/// 32-bit words of a [`MatchSeed`]: 256 bits of magnitude, then one word that holds the
/// sign (and keeps `seed + round` exact).
pub const SEED_WORDS: usize = MATCH_SEED_BITS as usize / 32 + 1;

/// A match seed: an integer with `|seed| < 2**256`, in two's complement over
/// `SEED_WORDS` little-endian 32-bit words.
///
/// ```
/// use cardvec::games::i151::MatchSeed;
/// let big = MatchSeed::from_le_bytes(&(1u128 << 100).to_le_bytes()).unwrap();
/// assert_eq!(big.to_string(), "1267650600228229401496703205376");
/// assert_eq!(MatchSeed::from(-5i64).to_i64(), Some(-5));
/// assert!(big.to_i64().is_none());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Pod, Zeroable, Default)]
#[repr(C)]
pub struct MatchSeed {
    words: [u32; SEED_WORDS],
}

impl MatchSeed {
    /// The seed written as little-endian two's-complement bytes (Python's
    /// `seed.to_bytes(n, "little", signed=True)` for any `n >= 1`). An empty slice is 0.
    /// Refused (nothing is read) if `|seed| >= 2**256`.
    pub fn from_le_bytes(bytes: &[u8]) -> Result<MatchSeed> {
        let negative = bytes.last().is_some_and(|&b| b & 0x80 != 0);
        let fill = if negative { 0xFF } else { 0 };
        let width = SEED_WORDS * 4;
        if bytes.len() > width && bytes[width..].iter().any(|&b| b != fill) {
            return Err(Self::too_large(bytes));
        }
        let mut padded = [fill; SEED_WORDS * 4];
        let n = bytes.len().min(width);
        padded[..n].copy_from_slice(&bytes[..n]);
        let mut words = [0u32; SEED_WORDS];
        for (w, chunk) in words.iter_mut().zip(padded.chunks_exact(4)) {
            *w = u32::from_le_bytes(chunk.try_into().expect("4 bytes"));
        }
        let seed = MatchSeed { words };
        // The top word must be pure sign: 0 (0 <= seed < 2**256) or all ones with a
        // non-zero low part (-2**256 < seed < 0); -2**256 itself is out.
        let top = seed.words[SEED_WORDS - 1];
        let low_zero = seed.words[..SEED_WORDS - 1].iter().all(|&w| w == 0);
        let in_range = if negative {
            top == u32::MAX && !low_zero
        } else {
            top == 0
        };
        if in_range {
            Ok(seed)
        } else {
            Err(Self::too_large(bytes))
        }
    }

    fn too_large(bytes: &[u8]) -> Error {
        Error::Invalid {
            what: "151 match seed",
            reason: format!(
                "|seed| must be below 2**{MATCH_SEED_BITS}, got a {}-byte seed outside it",
                bytes.len()
            ),
        }
    }

    /// True for a seed below zero.
    pub fn is_negative(&self) -> bool {
        self.words[SEED_WORDS - 1] >> 31 != 0
    }

    /// The seed as an `i64`, if it is one.
    pub fn to_i64(&self) -> Option<i64> {
        let low = self.low_u64() as i64;
        let fill = if low < 0 { u32::MAX } else { 0 };
        self.words[2..].iter().all(|&w| w == fill).then_some(low)
    }

    /// The low 64 bits (two's complement; the seed itself for any `i64` seed, cast).
    pub fn low_u64(&self) -> u64 {
        self.words[0] as u64 | (self.words[1] as u64) << 32
    }

    /// `seed + k`, exact for every seed in range.
    pub fn plus(&self, k: u32) -> MatchSeed {
        let mut out = *self;
        let mut carry = k as u64;
        for w in out.words.iter_mut() {
            let sum = *w as u64 + carry;
            *w = sum as u32;
            carry = sum >> 32;
        }
        out
    }

    /// The key CPython's `random.seed` gives `init_by_array`: `abs(seed)` in 32-bit words,
    /// least significant first, without leading zero words (`[0]` for zero). Returns the
    /// words and how many are used.
    pub fn python_key(&self) -> ([u32; SEED_WORDS], usize) {
        let mut words = self.words;
        if self.is_negative() {
            let mut carry = 1u64;
            for w in words.iter_mut() {
                let sum = (!*w) as u64 + carry;
                *w = sum as u32;
                carry = sum >> 32;
            }
        }
        let len = words.iter().rposition(|&w| w != 0).map_or(1, |i| i + 1);
        (words, len)
    }
}

impl From<i64> for MatchSeed {
    fn from(seed: i64) -> MatchSeed {
        MatchSeed::from(seed as i128)
    }
}

impl From<i32> for MatchSeed {
    fn from(seed: i32) -> MatchSeed {
        MatchSeed::from(seed as i128)
    }
}

impl From<u64> for MatchSeed {
    fn from(seed: u64) -> MatchSeed {
        MatchSeed::from(seed as i128)
    }
}

impl From<i128> for MatchSeed {
    fn from(seed: i128) -> MatchSeed {
        MatchSeed::from_le_bytes(&seed.to_le_bytes()).expect("an i128 is below 2**256")
    }
}

impl std::str::FromStr for MatchSeed {
    type Err = Error;

    /// A decimal integer with an optional sign (`-12`, `+7`, `340282366920938463463374607431768211456`),
    /// refused if it is not one or if `|seed| >= 2**256`; the message shows the text.
    fn from_str(text: &str) -> Result<MatchSeed> {
        let bad = |reason: &str| Error::Invalid {
            what: "151 match seed",
            reason: format!("{reason}, got {text:?}"),
        };
        let (negative, digits) = match text.as_bytes().first() {
            Some(b'-') => (true, &text[1..]),
            Some(b'+') => (false, &text[1..]),
            _ => (false, text),
        };
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad("expected a decimal integer"));
        }
        let too_large = || bad(&format!("|seed| must be below 2**{MATCH_SEED_BITS}"));
        let mut words = [0u32; SEED_WORDS];
        for d in digits.bytes() {
            let mut carry = (d - b'0') as u64;
            for w in words.iter_mut() {
                let cur = *w as u64 * 10 + carry;
                *w = cur as u32;
                carry = cur >> 32;
            }
            if carry != 0 || words[SEED_WORDS - 1] != 0 {
                return Err(too_large());
            }
        }
        let magnitude = MatchSeed { words };
        if !negative {
            return Ok(magnitude);
        }
        // Two's complement of the magnitude (0 stays 0).
        let mut carry = 1u64;
        for w in words.iter_mut() {
            let sum = (!*w) as u64 + carry;
            *w = sum as u32;
            carry = sum >> 32;
        }
        Ok(MatchSeed { words })
    }
}

impl std::fmt::Display for MatchSeed {
    /// The decimal value, as Python prints it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (mut words, mut len) = self.python_key();
        // Repeated division by 10**9 of the magnitude, most significant word first.
        let mut groups = Vec::new();
        loop {
            let mut rem = 0u64;
            for w in words[..len].iter_mut().rev() {
                let cur = rem << 32 | *w as u64;
                *w = (cur / 1_000_000_000) as u32;
                rem = cur % 1_000_000_000;
            }
            groups.push(rem as u32);
            while len > 1 && words[len - 1] == 0 {
                len -= 1;
            }
            if len == 1 && words[0] == 0 {
                break;
            }
        }
        let mut text = String::new();
        if self.is_negative() {
            text.push('-');
        }
        let mut groups = groups.iter().rev();
        text.push_str(&groups.next().expect("one group").to_string());
        for g in groups {
            text.push_str(&format!("{g:09}"));
        }
        f.pad(&text)
    }
}

impl std::fmt::Debug for MatchSeed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "MatchSeed({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pow2(bits: u32) -> Vec<u8> {
        let mut b = vec![0u8; bits as usize / 8 + 1];
        b[bits as usize / 8] = 1 << (bits % 8);
        b
    }

    #[test]
    fn i64_seeds_round_trip_and_print_as_python() {
        for v in [0i64, 1, -1, 41, i64::MIN, i64::MAX] {
            let s = MatchSeed::from(v);
            assert_eq!(s.to_i64(), Some(v));
            assert_eq!(s.low_u64(), v as u64);
            assert_eq!(s.to_string(), v.to_string());
            assert_eq!(MatchSeed::from_le_bytes(&v.to_le_bytes()).unwrap(), s);
        }
        assert_eq!(MatchSeed::from_le_bytes(&[]).unwrap(), MatchSeed::from(0i64));
        assert_eq!(MatchSeed::from_le_bytes(&[0xFF]).unwrap(), MatchSeed::from(-1i64));
    }

    #[test]
    fn the_bound_is_two_to_the_256_either_side() {
        // 2**256 - 1 and -(2**256 - 1) are in; 2**256 and -2**256 are out.
        let max = [0xFFu8; 32].iter().copied().chain([0]).collect::<Vec<_>>();
        let s = MatchSeed::from_le_bytes(&max).unwrap();
        assert_eq!(s.python_key(), ([u32::MAX; 8].iter().copied().chain([0]).collect::<Vec<_>>().try_into().unwrap(), 8));
        let mut min = vec![1u8];
        min.extend([0u8; 31]);
        min.push(0xFF); // -(2**256 - 1) = ...FF 00..00 01
        let s = MatchSeed::from_le_bytes(&min).unwrap();
        assert!(s.is_negative());
        assert_eq!(s.python_key().1, 8);
        assert_eq!(s.plus(1).python_key().0[..8], [u32::MAX - 1, u32::MAX, u32::MAX, u32::MAX, u32::MAX, u32::MAX, u32::MAX, u32::MAX]);
        let err = MatchSeed::from_le_bytes(&pow2(256)).unwrap_err();
        assert!(err.to_string().contains("2**256"), "{err}");
        let mut neg = vec![0u8; 32];
        neg.push(0xFF); // -2**256
        assert!(MatchSeed::from_le_bytes(&neg).is_err());
        // A positive value with ones in the sign word is out, however it is written.
        let mut ones = vec![0u8; 32];
        ones.extend([0xFF, 0xFF, 0xFF, 0xFF, 0]);
        assert!(MatchSeed::from_le_bytes(&ones).is_err());
        // A long sign extension is fine; long non-sign bytes are not.
        let mut long = (-7i64).to_le_bytes().to_vec();
        long.resize(60, 0xFF);
        assert_eq!(MatchSeed::from_le_bytes(&long).unwrap().to_i64(), Some(-7));
        assert!(MatchSeed::from_le_bytes(&pow2(300)).is_err());
    }

    #[test]
    fn seed_plus_round_carries_into_every_word() {
        let max = MatchSeed::from_le_bytes(&[0xFF; 32].iter().copied().chain([0]).collect::<Vec<_>>()).unwrap();
        let (key, len) = max.plus(1).python_key();
        assert_eq!(len, 9);
        assert_eq!(key, [0, 0, 0, 0, 0, 0, 0, 0, 1]);
        assert_eq!(MatchSeed::from(-3i64).plus(5).to_i64(), Some(2));
        assert_eq!(MatchSeed::from(-3i64).python_key(), ([3, 0, 0, 0, 0, 0, 0, 0, 0], 1));
        assert_eq!(MatchSeed::from(0i64).python_key().1, 1);
    }

    #[test]
    fn decimal_text_parses_to_the_same_seed() {
        for v in [0i128, 7, -7, i64::MIN as i128, 10i128.pow(30), -(1i128 << 70), i128::MIN] {
            let s: MatchSeed = v.to_string().parse().unwrap();
            assert_eq!(s, MatchSeed::from(v));
            assert_eq!(s.to_string(), v.to_string());
        }
        assert_eq!("+5".parse::<MatchSeed>().unwrap().to_i64(), Some(5));
        assert_eq!("-0".parse::<MatchSeed>().unwrap().to_i64(), Some(0));
        let max = "115792089237316195423570985008687907853269984665640564039457584007913129639935";
        assert_eq!(max.parse::<MatchSeed>().unwrap().to_string(), max);
        assert_eq!(format!("-{max}").parse::<MatchSeed>().unwrap().to_string(), format!("-{max}"));
        let two_256 = "115792089237316195423570985008687907853269984665640564039457584007913129639936";
        for bad in [two_256, &format!("-{two_256}"), "", "-", "1e3", " 1", "0x10"] {
            let err = bad.parse::<MatchSeed>().unwrap_err().to_string();
            assert!(err.contains(&format!("{bad:?}")), "{err}");
        }
    }

    #[test]
    fn big_seeds_print_in_decimal() {
        let ten30: i128 = 10i128.pow(30);
        assert_eq!(MatchSeed::from(ten30).to_string(), "1000000000000000000000000000000");
        assert_eq!(MatchSeed::from(-(1i128 << 70)).to_string(), "-1180591620717411303424");
        assert_eq!(format!("{:?}", MatchSeed::from(7i64)), "MatchSeed(7)");
    }
}
