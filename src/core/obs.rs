//! Observation formats: the element type of the batch observation rows ([`ObsDtype`]) and
//! the exact mapping of a game's f32 observation onto the compact `u8` format
//! ([`ObsFormat`]).
//!
//! Every game's observation is defined as an f32 row ([`Game::observe`](super::Game)). The
//! compact format splits that row in two, value by value, with nothing lost:
//!
//! - **bytes**: the values that are always `q / div` for an integer `q` in `0..=255` and a
//!   divisor `div` fixed per value (one-hot flags and small counts: `div = 1`; fractions
//!   such as "cards left / 44": `div = 44`), stored as `q`, one byte each;
//! - **tail**: every other value (large counts, chips, signed differences), copied as f32.
//!
//! Both keep the row's order. The f32 row is recovered value by value as `q as f32 / div as
//! f32` (`q as f32` for `div = 1`) and the tail's values as they are, which gives back the
//! f32 row bit for bit (the conformance suite checks this in every reached state: the games
//! compute their fractions the same way, `numerator as f32 / divisor as f32`).
//!
//! A game describes its mapping once ([`Game::obs_format`](super::Game::obs_format), by
//! runs of consecutive values); the default puts every value in the tail, which is exact and
//! saves nothing. The batch environment writes the compact rows either with the game's own
//! encoder ([`Game::observe_u8`](super::Game::observe_u8)) or, when the game has none, by
//! writing the f32 row into a small per-chunk scratch row (which stays in the first-level
//! cache) and converting it with [`ObsFormat::compress`] (SIMD for the `div = 1` runs).

use super::error::{Error, Result};

/// The element type of the observation rows a batch environment writes
/// ([`EnvOptions::obs_dtype`](super::EnvOptions::obs_dtype)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ObsDtype {
    /// One f32 per value (`obs_dim × 4` bytes per row): [`VecEnv::obs`](super::VecEnv::obs).
    #[default]
    F32,
    /// The compact format of the game's [`ObsFormat`]: `byte_dim` bytes
    /// ([`VecEnv::obs_u8`](super::VecEnv::obs_u8)) plus `tail_dim` f32 values
    /// ([`VecEnv::obs_tail`](super::VecEnv::obs_tail)) per row.
    U8,
}

impl ObsDtype {
    /// Every dtype, in the order of their names in [`ObsDtype::NAMES`].
    pub const ALL: [ObsDtype; 2] = [ObsDtype::F32, ObsDtype::U8];
    /// The accepted names: `"f32"` and `"u8"`.
    pub const NAMES: [&'static str; 2] = ["f32", "u8"];

    /// The dtype's name (`"f32"` or `"u8"`).
    pub fn name(self) -> &'static str {
        match self {
            ObsDtype::F32 => "f32",
            ObsDtype::U8 => "u8",
        }
    }

    /// Parses a name (`"f32"`/`"float32"` or `"u8"`/`"uint8"`); anything else is an error
    /// that lists the names.
    pub fn parse(text: &str) -> Result<ObsDtype> {
        match text {
            "f32" | "float32" => Ok(ObsDtype::F32),
            "u8" | "uint8" => Ok(ObsDtype::U8),
            _ => Err(Error::Invalid {
                what: "obs_dtype",
                reason: format!(
                    "unknown observation dtype {text:?} (expected one of: {})",
                    Self::NAMES.join(", ")
                ),
            }),
        }
    }
}

impl std::fmt::Display for ObsDtype {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for ObsDtype {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        ObsDtype::parse(s)
    }
}

/// A run of consecutive values of the f32 observation row and where the compact format
/// keeps them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ObsRun {
    /// First value of the run in the f32 row.
    pub start: usize,
    /// Number of values.
    pub len: usize,
    /// `Some(div)`: each value is `q / div` with `q` in `0..=255`, kept as the byte `q`;
    /// `None`: kept as f32 in the tail.
    pub div: Option<u16>,
}

/// The exact mapping between a game's f32 observation row and its compact `u8` format (see
/// the [module](self) documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObsFormat {
    runs: Vec<ObsRun>,
    dim: usize,
    byte_dim: usize,
    tail_dim: usize,
}

impl ObsFormat {
    /// The format that keeps every one of `dim` values in the tail (exact, saves nothing):
    /// the default of a game that describes none.
    pub fn all_f32(dim: usize) -> Self {
        Self::from_runs(&[(dim, None)])
    }

    /// The format that keeps every one of `dim` values as a byte with divisor 1 (rows of
    /// flags and small counts).
    pub fn all_bytes(dim: usize) -> Self {
        Self::from_runs(&[(dim, Some(1))])
    }

    /// The format made of consecutive runs `(len, div)` from the start of the row (see
    /// [`ObsRun::div`]); adjacent runs of the same kind are merged and empty runs dropped.
    ///
    /// # Panics
    /// On a divisor of 0 (a game's constant table, not user input).
    pub fn from_runs(runs: &[(usize, Option<u16>)]) -> Self {
        let mut out: Vec<ObsRun> = Vec::new();
        let mut start = 0;
        for &(len, div) in runs {
            assert!(div != Some(0), "ObsFormat: a divisor of 0");
            if len == 0 {
                continue;
            }
            match out.last_mut() {
                Some(last) if last.div == div => last.len += len,
                _ => out.push(ObsRun { start, len, div }),
            }
            start += len;
        }
        let byte_dim = out.iter().filter(|r| r.div.is_some()).map(|r| r.len).sum();
        ObsFormat {
            dim: start,
            byte_dim,
            tail_dim: start - byte_dim,
            runs: out,
        }
    }

    /// The runs, in row order, covering `0..dim` exactly.
    pub fn runs(&self) -> &[ObsRun] {
        &self.runs
    }

    /// Length of the f32 row.
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// Bytes per compact row.
    pub fn byte_dim(&self) -> usize {
        self.byte_dim
    }

    /// f32 values per compact row's tail.
    pub fn tail_dim(&self) -> usize {
        self.tail_dim
    }

    /// Bytes one compact row takes (`byte_dim + 4 × tail_dim`).
    pub fn compact_bytes(&self) -> usize {
        self.byte_dim + 4 * self.tail_dim
    }

    /// For every byte of the compact row, the index of its value in the f32 row and its
    /// divisor; for every tail value, its index (the tables a reader uses to map the
    /// compact row back, also given to Python).
    pub fn index_tables(&self) -> (Vec<(usize, u16)>, Vec<usize>) {
        let mut bytes = Vec::with_capacity(self.byte_dim);
        let mut tail = Vec::with_capacity(self.tail_dim);
        for r in &self.runs {
            match r.div {
                Some(div) => bytes.extend((r.start..r.start + r.len).map(|i| (i, div))),
                None => tail.extend(r.start..r.start + r.len),
            }
        }
        (bytes, tail)
    }

    /// Converts an f32 row into the compact row: `bytes[k] = round(row[i] × div)`, `tail`
    /// the other values as they are. Exact for a row the format describes (a byte value out
    /// of `0..=255` saturates; [`ObsFormat::check_row`] says whether a row is described).
    ///
    /// # Panics
    /// If the lengths are not `dim`, `byte_dim` and `tail_dim`.
    pub fn compress(&self, row: &[f32], bytes: &mut [u8], tail: &mut [f32]) {
        assert!(
            row.len() == self.dim && bytes.len() == self.byte_dim && tail.len() == self.tail_dim,
            "ObsFormat::compress: lengths differ from the format"
        );
        let (mut b, mut t) = (0, 0);
        for r in &self.runs {
            let src = &row[r.start..r.start + r.len];
            match r.div {
                Some(1) => narrow_f32_u8(src, &mut bytes[b..b + r.len]),
                Some(div) => {
                    let div = div as f32;
                    for (o, &v) in bytes[b..b + r.len].iter_mut().zip(src) {
                        *o = to_byte(v * div);
                    }
                }
                None => tail[t..t + r.len].copy_from_slice(src),
            }
            match r.div {
                Some(_) => b += r.len,
                None => t += r.len,
            }
        }
    }

    /// Converts a compact row back into the f32 row (`q as f32 / div as f32`, tail values
    /// as they are).
    ///
    /// # Panics
    /// If the lengths are not `byte_dim`, `tail_dim` and `dim`.
    pub fn expand(&self, bytes: &[u8], tail: &[f32], row: &mut [f32]) {
        assert!(
            row.len() == self.dim && bytes.len() == self.byte_dim && tail.len() == self.tail_dim,
            "ObsFormat::expand: lengths differ from the format"
        );
        let (mut b, mut t) = (0, 0);
        for r in &self.runs {
            let dst = &mut row[r.start..r.start + r.len];
            match r.div {
                Some(1) => super::simd::widen_u8_f32(&bytes[b..b + r.len], dst),
                Some(div) => {
                    for (o, &q) in dst.iter_mut().zip(&bytes[b..b + r.len]) {
                        *o = q as f32 / div as f32;
                    }
                }
                None => dst.copy_from_slice(&tail[t..t + r.len]),
            }
            match r.div {
                Some(_) => b += r.len,
                None => t += r.len,
            }
        }
    }

    /// Whether `row` survives the round trip through the compact format bit for bit;
    /// otherwise the first value that does not (its index, value and divisor).
    pub fn check_row(&self, row: &[f32]) -> std::result::Result<(), String> {
        if row.len() != self.dim {
            return Err(format!(
                "row of {} values, the format has {}",
                row.len(),
                self.dim
            ));
        }
        let mut bytes = vec![0u8; self.byte_dim];
        let mut tail = vec![0f32; self.tail_dim];
        self.compress(row, &mut bytes, &mut tail);
        let mut back = vec![0f32; self.dim];
        self.expand(&bytes, &tail, &mut back);
        for r in &self.runs {
            for i in r.start..r.start + r.len {
                if back[i].to_bits() != row[i].to_bits() {
                    return Err(format!(
                        "value {i} = {} is not q/{} for a byte q (the compact row gives {})",
                        row[i],
                        r.div.unwrap_or(1),
                        back[i]
                    ));
                }
            }
        }
        Ok(())
    }
}

/// Writes `out[i] = src[i] as u8` (rounded to nearest, saturated to `0..=255`) for every
/// `i`: flags and small counts kept as bytes, sixteen at a time (SSE2, baseline on x86_64:
/// four conversions, two saturating packs). A length of 16 or more that is not a multiple
/// of 16 ends with one overlapping block.
#[inline]
pub fn narrow_f32_u8(src: &[f32], out: &mut [u8]) {
    assert_eq!(src.len(), out.len(), "narrow_f32_u8: lengths differ");
    let n = src.len();
    #[cfg(target_arch = "x86_64")]
    if n >= 16 {
        // SAFETY: `start + 16 <= n`: the 16 floats read and the 16 bytes written are in
        // bounds; unaligned loads and stores; SSE2 is baseline on x86_64.
        super::simd::blocks16(n, |start| unsafe {
            narrow16(src.as_ptr().add(start), out.as_mut_ptr().add(start))
        });
        return;
    }
    for (o, &v) in out.iter_mut().zip(src) {
        *o = to_byte(v);
    }
}

/// `v` rounded to the nearest byte, saturated to `0..=255` (NaN gives 0): `v + 0.5`
/// truncated by Rust's saturating float-to-int cast, without the `roundf` call that
/// `f32::round` is on baseline x86_64 (no SSE4.1). Ties round up; the values it sees are
/// within a few ulps of an integer.
#[inline(always)]
fn to_byte(v: f32) -> u8 {
    (v + 0.5) as u8
}

/// Narrows the 16 floats at `src` into 16 bytes at `dst`.
///
/// # Safety
/// `src` must be readable for 16 `f32`s and `dst` writable for 16 bytes.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn narrow16(src: *const f32, dst: *mut u8) {
    unsafe {
        use core::arch::x86_64::*;
        let q = |k: usize| _mm_cvtps_epi32(_mm_loadu_ps(src.add(4 * k)));
        let lo = _mm_packs_epi32(q(0), q(1));
        let hi = _mm_packs_epi32(q(2), q(3));
        _mm_storeu_si128(dst as *mut __m128i, _mm_packus_epi16(lo, hi));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dtype_names_round_trip_and_unknown_names_are_refused() {
        for (d, n) in ObsDtype::ALL.iter().zip(ObsDtype::NAMES) {
            assert_eq!(ObsDtype::parse(n).unwrap(), *d);
            assert_eq!(d.name(), n);
        }
        assert_eq!(ObsDtype::parse("uint8").unwrap(), ObsDtype::U8);
        let e = ObsDtype::parse("f16").unwrap_err().to_string();
        assert!(e.contains("\"f16\"") && e.contains("f32, u8"), "{e}");
    }

    #[test]
    fn narrow_equals_the_scalar_rule_at_every_length() {
        for n in 0..70 {
            let src: Vec<f32> = (0..n).map(|i| ((i * 37) % 300) as f32 - 20.0).collect();
            let mut got = vec![7u8; n];
            narrow_f32_u8(&src, &mut got);
            let want: Vec<u8> = src.iter().map(|v| v.clamp(0.0, 255.0) as u8).collect();
            assert_eq!(got, want, "n = {n}");
        }
    }

    #[test]
    fn runs_merge_and_tables_cover_the_row() {
        let f = ObsFormat::from_runs(&[
            (3, Some(1)),
            (2, Some(1)),
            (0, None),
            (2, None),
            (1, Some(4)),
        ]);
        assert_eq!(f.runs().len(), 3);
        assert_eq!((f.dim(), f.byte_dim(), f.tail_dim()), (8, 6, 2));
        assert_eq!(f.compact_bytes(), 14);
        let (b, t) = f.index_tables();
        assert_eq!(b, vec![(0, 1), (1, 1), (2, 1), (3, 1), (4, 1), (7, 4)]);
        assert_eq!(t, vec![5, 6]);
    }

    #[test]
    fn a_described_row_round_trips_bit_for_bit_and_others_are_named() {
        let f = ObsFormat::from_runs(&[(20, Some(1)), (2, Some(44)), (2, None)]);
        let mut row: Vec<f32> = (0..20).map(|i| (i % 2) as f32).collect();
        row.extend([37.0 / 44.0, 44.0 / 44.0, -780.0 / 1560.0, 1e9]);
        f.check_row(&row).unwrap();
        let (mut b, mut t) = (vec![0; 22], vec![0.0; 2]);
        f.compress(&row, &mut b, &mut t);
        assert_eq!(&b[20..], &[37, 44]);
        assert_eq!(t, vec![-0.5, 1e9]);
        let mut bad = row.clone();
        bad[3] = 0.5;
        assert!(f.check_row(&bad).unwrap_err().contains("value 3"));
        bad = row.clone();
        bad[20] = 0.3;
        assert!(f.check_row(&bad).unwrap_err().contains("value 20"));
        assert!(f.check_row(&row[1..]).is_err());
    }
}
