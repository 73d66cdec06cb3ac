//! Heads-up preflop all-in equity: the 169 starting-hand classes and the exact 169 × 169
//! equity table, computed with the project's evaluator ([`rank_of_set`]).
//!
//! # The classes and their order
//!
//! The 1,326 two-card holes fall into 169 classes that suit relabeling does not change:
//! 13 pairs (`"AA"`, 6 combos each), 78 suited hands (`"AKs"`, 4 combos) and 78 offsuit
//! hands (`"AKo"`, 12 combos). A class's index is its cell in the usual 13 × 13 chart:
//! `index = 13 * row + col`, rows and columns ranked ace first (`0` = ace .. `12` = deuce);
//! the diagonal holds the pairs, the cells above it (`row < col`) the suited hands (row
//! rank high), the cells below it (`row > col`) the offsuit hands (column rank high). So
//! index 0 is `"AA"`, 1 is `"AKs"`, 13 is `"AKo"`, 14 is `"KK"` and 168 is `"22"`.
//!
//! # The table
//!
//! For classes `a` and `b`, [`EquityTable`] counts, over every pair of disjoint holes
//! `h ∈ a`, `h' ∈ b` and every five-card board disjoint from both (C(48, 5) = 1,712,304
//! boards a pair), the deals where `h` wins and the deals that tie: exact integers, so the
//! equity `(wins + ties / 2) / deals` is exact up to the final division.
//!
//! [`EquityTable::compute`] does not deal each pair of holes (about 4.7 × 10^12 evaluations).
//! It enumerates the 2,598,960 boards up to suit relabeling (134,459 canonical boards, each
//! weighted by the size of its orbit: class pairs are suit-invariant, so their sums are the
//! same on every board of an orbit); on each board it ranks the 1,081 holes disjoint from
//! it once, sorts them, and sweeps upward keeping, per class, the number of holes already
//! passed, and per card and class the number of those that hold the card. A hole of class
//! `a` beats `passed[b] - passed_with[c1][b] - passed_with[c2][b]` disjoint holes of class
//! `b` (inclusion–exclusion over its two cards `c1`, `c2`; no passed hole holds both). Ties
//! follow from the totals: `ties(a, b) = deals(a, b) - wins(a, b) - wins(b, a)`. The boards
//! are spread over the caller's rayon pool; the result is the same integer table whatever
//! the number of threads. It takes about 5 s of CPU (`docs/pushfold.md` has the
//! measured time).
//!
//! # Storage
//!
//! [`EquityTable::to_json`] writes the table as JSON (format `cardvec-preflop-equity`,
//! version 1: the class names, the integer win and tie counts, the disjoint combo pairs, the
//! equities rounded to 6 decimals and a checksum, FNV-1a 64 over the counts).
//! [`EquityTable::from_json`] checks everything it can: the checksum, the class names, the
//! combo pairs (recomputed), that no count exceeds its deals. The table computed for this
//! release ships inside the library ([`EquityTable::builtin`], the same file as
//! `docs/data/preflop-equity.json`); [`EquityTable::cached_or_compute`] keeps a computed one
//! in the cache directory ([`cache_dir`]).
//!
//! ```
//! use cardvec::poker::preflop::{EquityTable, HandClass};
//! let table = EquityTable::builtin().unwrap();
//! let aa = HandClass::parse("AA").unwrap();
//! let kk = HandClass::parse("KK").unwrap();
//! assert!((table.equity(aa, kk) - 0.8195).abs() < 5e-4);
//! assert_eq!(table.combo_pairs(aa, kk), 36);
//! ```

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use rayon::prelude::*;
use serde::Deserialize;

use crate::core::{CardSet64, Error, Progress, Result};
use crate::poker::cards::{Card, Rank, DECK_SIZE};
use crate::poker::eval::rank_of_set;

/// The number of starting-hand classes.
pub const CLASSES: usize = 169;
/// The number of two-card holes, C(52, 2).
pub const HOLES: usize = 1326;
/// The boards for one pair of disjoint holes, C(48, 5).
pub const BOARDS_PER_PAIR: u64 = 1_712_304;
/// The ordered pairs of disjoint holes, 1,326 × 1,225: the denominator of
/// [`EquityTable::pair_weight`].
pub const HOLE_PAIRS: u64 = 1_624_350;
/// The five-card boards, C(52, 5).
pub const BOARDS: u64 = 2_598_960;

const RANK_CHARS: &[u8; 13] = b"AKQJT98765432";

/// What a class holds: a pair, two suited cards or two offsuit cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClassKind {
    /// Two cards of one rank (6 combos).
    Pair,
    /// Two ranks, one suit (4 combos).
    Suited,
    /// Two ranks, two suits (12 combos).
    Offsuit,
}

/// One of the 169 starting-hand classes (see the module documentation for the order).
///
/// ```
/// use cardvec::poker::preflop::HandClass;
/// let c = HandClass::parse("AKo").unwrap();
/// assert_eq!((c.index(), c.name(), c.combos()), (13, "AKo".to_string(), 12));
/// assert_eq!(HandClass::parse("ak").unwrap_err().to_string(),
///            "invalid hand class: \"ak\" is not a class like AA, AKs or AKo");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct HandClass(u8);

impl HandClass {
    /// The class of index `index`, if `index < 169`.
    pub const fn from_index(index: usize) -> Option<HandClass> {
        if index < CLASSES {
            Some(HandClass(index as u8))
        } else {
            None
        }
    }

    /// All 169 classes in index order.
    pub fn all() -> impl Iterator<Item = HandClass> {
        (0..CLASSES as u8).map(HandClass)
    }

    /// The index `0..169`.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The row of the 13 × 13 chart (`0` = ace .. `12` = deuce).
    pub const fn row(self) -> usize {
        self.0 as usize / 13
    }

    /// The column of the 13 × 13 chart (`0` = ace .. `12` = deuce).
    pub const fn col(self) -> usize {
        self.0 as usize % 13
    }

    /// The class at `row`, `col` of the chart, if both are below 13.
    pub const fn at(row: usize, col: usize) -> Option<HandClass> {
        if row < 13 && col < 13 {
            Some(HandClass((13 * row + col) as u8))
        } else {
            None
        }
    }

    /// Pair, suited or offsuit.
    pub const fn kind(self) -> ClassKind {
        let (r, c) = (self.row(), self.col());
        if r == c {
            ClassKind::Pair
        } else if r < c {
            ClassKind::Suited
        } else {
            ClassKind::Offsuit
        }
    }

    /// The higher rank (the pair's rank for a pair).
    pub const fn high(self) -> Rank {
        let (r, c) = (self.row(), self.col());
        let top = if r < c { r } else { c };
        Rank::ALL[12 - top]
    }

    /// The lower rank (the pair's rank for a pair).
    pub const fn low(self) -> Rank {
        let (r, c) = (self.row(), self.col());
        let bottom = if r < c { c } else { r };
        Rank::ALL[12 - bottom]
    }

    /// The number of holes in the class: 6, 4 or 12.
    pub const fn combos(self) -> u32 {
        match self.kind() {
            ClassKind::Pair => 6,
            ClassKind::Suited => 4,
            ClassKind::Offsuit => 12,
        }
    }

    /// The usual name: `"AA"`, `"AKs"`, `"AKo"`.
    pub fn name(self) -> String {
        let hi = RANK_CHARS[12 - self.high() as usize] as char;
        let lo = RANK_CHARS[12 - self.low() as usize] as char;
        match self.kind() {
            ClassKind::Pair => format!("{hi}{lo}"),
            ClassKind::Suited => format!("{hi}{lo}s"),
            ClassKind::Offsuit => format!("{hi}{lo}o"),
        }
    }

    /// The class named `name` (`"AA"`, `"AKs"`, `"KAo"`; ranks as in card names, either
    /// case, `T` for ten; the suffix is required for two ranks and refused for a pair).
    pub fn parse(name: &str) -> Result<HandClass> {
        let bad = || Error::Invalid {
            what: "hand class",
            reason: format!("{name:?} is not a class like AA, AKs or AKo"),
        };
        let b = name.as_bytes();
        let rank = |c: u8| {
            RANK_CHARS
                .iter()
                .position(|&r| r == c.to_ascii_uppercase())
                .map(|i| 12 - i)
        };
        let (r1, r2, suffix) = match b {
            [x, y] => (rank(*x), rank(*y), None),
            [x, y, s] => (rank(*x), rank(*y), Some(s.to_ascii_lowercase())),
            _ => return Err(bad()),
        };
        let (Some(r1), Some(r2)) = (r1, r2) else {
            return Err(bad());
        };
        let (hi, lo) = (r1.max(r2), r1.min(r2));
        let (row_hi, row_lo) = (12 - hi, 12 - lo);
        match (hi == lo, suffix) {
            (true, None) => Ok(HandClass((13 * row_hi + row_hi) as u8)),
            (false, Some(b's')) => Ok(HandClass((13 * row_hi + row_lo) as u8)),
            (false, Some(b'o')) => Ok(HandClass((13 * row_lo + row_hi) as u8)),
            _ => Err(bad()),
        }
    }

    /// The class of the hole `a`, `b` (two different cards; for one card twice, the pair of
    /// its rank).
    pub const fn of_hole(a: Card, b: Card) -> HandClass {
        let (ra, rb) = (a.rank() as usize, b.rank() as usize);
        let (hi, lo) = if ra >= rb { (ra, rb) } else { (rb, ra) };
        let (row_hi, row_lo) = (12 - hi, 12 - lo);
        let index = if hi == lo {
            13 * row_hi + row_hi
        } else if a.suit() as u8 == b.suit() as u8 {
            13 * row_hi + row_lo
        } else {
            13 * row_lo + row_hi
        };
        HandClass(index as u8)
    }

    /// The holes of the class, lower card id first, in increasing id order.
    pub fn holes(self) -> Vec<[Card; 2]> {
        all_holes()
            .into_iter()
            .filter(|&[a, b]| HandClass::of_hole(a, b) == self)
            .collect()
    }
}

impl std::fmt::Display for HandClass {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name())
    }
}

/// The names of the 169 classes in index order.
pub fn class_names() -> Vec<String> {
    HandClass::all().map(HandClass::name).collect()
}

/// The 1,326 holes, lower card id first, in increasing order.
fn all_holes() -> Vec<[Card; 2]> {
    let mut out = Vec::with_capacity(HOLES);
    for a in Card::all() {
        for b in Card::all().filter(|b| b.id() > a.id()) {
            out.push([a, b]);
        }
    }
    out
}

/// The number of ordered pairs of disjoint holes (`h ∈ a`, `h' ∈ b`) for every class pair,
/// row-major `[a * 169 + b]`.
pub fn combo_pair_counts() -> Vec<u32> {
    let holes = all_holes();
    let mut out = vec![0u32; CLASSES * CLASSES];
    for &[a, b] in &holes {
        let ca = HandClass::of_hole(a, b).index();
        let sa = a.bit().0 | b.bit().0;
        for &[c, d] in &holes {
            if sa & (c.bit().0 | d.bit().0) == 0 {
                out[ca * CLASSES + HandClass::of_hole(c, d).index()] += 1;
            }
        }
    }
    out
}

/// The exact heads-up all-in equity of every class against every class (see the module
/// documentation): integer win and tie counts over all deals.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EquityTable {
    wins: Vec<u64>,
    ties: Vec<u64>,
    pairs: Vec<u32>,
}

/// Row length of the sweep's counters: 169 classes padded to a multiple of 8 lanes.
const LANES: usize = 176;

/// The holes as the sweep reads them.
struct HoleTable {
    mask: Vec<u64>,
    cards: Vec<[u8; 2]>,
    class: Vec<u8>,
}

impl HoleTable {
    fn new() -> HoleTable {
        let holes = all_holes();
        HoleTable {
            mask: holes.iter().map(|&[a, b]| a.bit().0 | b.bit().0).collect(),
            cards: holes.iter().map(|&[a, b]| [a.id(), b.id()]).collect(),
            class: holes
                .iter()
                .map(|&[a, b]| HandClass::of_hole(a, b).index() as u8)
                .collect(),
        }
    }
}

/// The 24 permutations of the four suits.
fn suit_permutations() -> Vec<[usize; 4]> {
    let mut out = Vec::with_capacity(24);
    for a in 0..4 {
        for b in 0..4 {
            for c in 0..4 {
                for d in 0..4 {
                    let p = [a, b, c, d];
                    if (0..4).all(|i| (0..i).all(|j| p[i] != p[j])) {
                        out.push(p);
                    }
                }
            }
        }
    }
    out
}

/// The card set with its suits relabeled by `perm` (suit `s` becomes `perm[s]`).
#[inline]
fn permute(mask: u64, perm: &[usize; 4]) -> u64 {
    let mut out = 0;
    for (s, &to) in perm.iter().enumerate() {
        out |= ((mask >> (13 * s)) & 0x1fff) << (13 * to);
    }
    out
}

/// The canonical five-card boards (each the smallest mask of its suit orbit) with the size
/// of their orbit, in increasing mask order. The weights sum to C(52, 5).
fn canonical_boards() -> Vec<(u64, u8)> {
    let perms = suit_permutations();
    // All boards by their lowest card, in parallel; each keeps its canonical ones.
    let per_first: Vec<Vec<(u64, u8)>> = (0..DECK_SIZE as u32)
        .into_par_iter()
        .map(|a| {
            let mut out = Vec::new();
            let n = DECK_SIZE as u32;
            for b in a + 1..n {
                for c in b + 1..n {
                    for d in c + 1..n {
                        for e in d + 1..n {
                            let mask = (1u64 << a) | (1 << b) | (1 << c) | (1 << d) | (1 << e);
                            let mut images = [0u64; 24];
                            let mut least = true;
                            for (slot, p) in images.iter_mut().zip(&perms) {
                                *slot = permute(mask, p);
                                if *slot < mask {
                                    least = false;
                                    break;
                                }
                            }
                            if least {
                                images.sort_unstable();
                                let distinct =
                                    1 + images.windows(2).filter(|w| w[0] != w[1]).count();
                                out.push((mask, distinct as u8));
                            }
                        }
                    }
                }
            }
            out
        })
        .collect();
    let mut all: Vec<(u64, u8)> = per_first.into_iter().flatten().collect();
    all.sort_unstable();
    all
}

/// Per-board scratch of the sweep.
struct Sweep {
    keys: Vec<u32>,
    passed: [u32; LANES],
    passed_with: Vec<[u32; LANES]>,
}

impl Sweep {
    fn new() -> Sweep {
        Sweep {
            keys: Vec::with_capacity(HOLES),
            passed: [0; LANES],
            passed_with: vec![[0; LANES]; DECK_SIZE],
        }
    }

    /// Adds to `acc[a][b]` (rows of [`LANES`]) the number of (hole of class `a`, disjoint
    /// hole of class `b`) on `board` where the first hole's hand is strictly better.
    fn board(&mut self, holes: &HoleTable, board: u64, acc: &mut [[u32; LANES]]) {
        self.keys.clear();
        for (h, &m) in holes.mask.iter().enumerate() {
            if m & board == 0 {
                let rank = rank_of_set(CardSet64(board | m)).0 as u32;
                self.keys.push((rank << 11) | h as u32);
            }
        }
        self.keys.sort_unstable();
        self.passed = [0; LANES];
        for row in self.passed_with.iter_mut() {
            *row = [0; LANES];
        }
        let keys = &self.keys;
        let mut i = 0;
        while i < keys.len() {
            let rank = keys[i] >> 11;
            let mut j = i + 1;
            while j < keys.len() && keys[j] >> 11 == rank {
                j += 1;
            }
            for &key in &keys[i..j] {
                let h = (key & 0x7ff) as usize;
                let [c1, c2] = holes.cards[h];
                let row = &mut acc[holes.class[h] as usize];
                let w1 = &self.passed_with[c1 as usize];
                let w2 = &self.passed_with[c2 as usize];
                for x in 0..LANES {
                    row[x] = row[x]
                        .wrapping_add(self.passed[x])
                        .wrapping_sub(w1[x])
                        .wrapping_sub(w2[x]);
                }
            }
            for &key in &keys[i..j] {
                let h = (key & 0x7ff) as usize;
                let [c1, c2] = holes.cards[h];
                let class = holes.class[h] as usize;
                self.passed[class] += 1;
                self.passed_with[c1 as usize][class] += 1;
                self.passed_with[c2 as usize][class] += 1;
            }
            i = j;
        }
    }
}

/// Boards of one weight per job: at most this many (the `u32` counters of a job hold at
/// most 144 a board).
const JOB_BOARDS: usize = 256;

/// Strict win counts `[a * 169 + b]` summed over `boards` (mask, weight), on the caller's
/// rayon pool; `progress` is advanced by boards and asked whether to stop.
fn strict_wins(boards: &[(u64, u8)], progress: &dyn Progress) -> Result<Vec<u64>> {
    let holes = HoleTable::new();
    // Jobs of boards of equal weight.
    let mut by_weight: Vec<(u8, Vec<u64>)> = Vec::new();
    for &(mask, w) in boards {
        match by_weight.iter_mut().find(|(x, _)| *x == w) {
            Some((_, v)) => v.push(mask),
            None => by_weight.push((w, vec![mask])),
        }
    }
    by_weight.sort_by_key(|(w, _)| *w);
    let jobs: Vec<(u8, &[u64])> = by_weight
        .iter()
        .flat_map(|(w, v)| v.chunks(JOB_BOARDS).map(move |c| (*w, c)))
        .collect();
    let partial: Vec<Option<Vec<u64>>> = jobs
        .par_iter()
        .map_init(Sweep::new, |sweep, &(w, masks)| {
            if progress.should_stop() {
                return None;
            }
            let mut acc = vec![[0u32; LANES]; CLASSES];
            for &m in masks {
                sweep.board(&holes, m, &mut acc);
            }
            progress.advance(masks.len() as u64);
            let mut out = vec![0u64; CLASSES * CLASSES];
            for (a, row) in acc.iter().enumerate() {
                for b in 0..CLASSES {
                    out[a * CLASSES + b] = u64::from(w) * u64::from(row[b]);
                }
            }
            Some(out)
        })
        .collect();
    let mut total = vec![0u64; CLASSES * CLASSES];
    for part in partial {
        let part = part.ok_or(Error::Cancelled {
            what: "preflop equity table",
        })?;
        for (t, p) in total.iter_mut().zip(part) {
            *t += p;
        }
    }
    Ok(total)
}

#[derive(Deserialize)]
struct TableFile {
    format: String,
    version: u32,
    classes: Vec<String>,
    boards_per_pair: u64,
    checksum: String,
    combo_pairs: Vec<Vec<u32>>,
    wins: Vec<Vec<u64>>,
    ties: Vec<Vec<u64>>,
    equity: Vec<Vec<f64>>,
}

const FORMAT: &str = "cardvec-preflop-equity";

static BUILTIN: OnceLock<std::result::Result<EquityTable, String>> = OnceLock::new();

impl EquityTable {
    /// Computes the table exactly (about 5 s of CPU; see the module documentation) on
    /// the caller's rayon pool. `progress` is told the 134,459 canonical boards as they are
    /// done and may stop the call ([`Error::Cancelled`]).
    pub fn compute(progress: &dyn Progress) -> Result<EquityTable> {
        let boards = canonical_boards();
        progress.start(boards.len() as u64, "boards");
        let wins = strict_wins(&boards, progress);
        progress.finish();
        let wins = wins?;
        Ok(EquityTable::from_strict_wins(wins, combo_pair_counts()))
    }

    fn from_strict_wins(wins: Vec<u64>, pairs: Vec<u32>) -> EquityTable {
        let mut ties = vec![0u64; CLASSES * CLASSES];
        for a in 0..CLASSES {
            for b in 0..CLASSES {
                let deals = u64::from(pairs[a * CLASSES + b]) * BOARDS_PER_PAIR;
                ties[a * CLASSES + b] = deals - wins[a * CLASSES + b] - wins[b * CLASSES + a];
            }
        }
        EquityTable { wins, ties, pairs }
    }

    /// The table shipped with the library (the file `docs/data/preflop-equity.json`),
    /// parsed and verified once.
    pub fn builtin() -> Result<&'static EquityTable> {
        BUILTIN
            .get_or_init(|| {
                EquityTable::from_json(include_str!("../../docs/data/preflop-equity.json"))
                    .map_err(|e| e.to_string())
            })
            .as_ref()
            .map_err(|reason| Error::Invalid {
                what: "built-in preflop equity table",
                reason: reason.clone(),
            })
    }

    /// Deals where a hole of `a` beats a disjoint hole of `b`.
    pub fn wins(&self, a: HandClass, b: HandClass) -> u64 {
        self.wins[a.index() * CLASSES + b.index()]
    }

    /// Deals where a hole of `a` and a disjoint hole of `b` tie.
    pub fn ties(&self, a: HandClass, b: HandClass) -> u64 {
        self.ties[a.index() * CLASSES + b.index()]
    }

    /// Deals where a hole of `a` loses to a disjoint hole of `b`.
    pub fn losses(&self, a: HandClass, b: HandClass) -> u64 {
        self.wins(b, a)
    }

    /// Ordered pairs of disjoint holes `h ∈ a`, `h' ∈ b`.
    pub fn combo_pairs(&self, a: HandClass, b: HandClass) -> u32 {
        self.pairs[a.index() * CLASSES + b.index()]
    }

    /// All deals of `a` against `b`: combo pairs × C(48, 5).
    pub fn deals(&self, a: HandClass, b: HandClass) -> u64 {
        u64::from(self.combo_pairs(a, b)) * BOARDS_PER_PAIR
    }

    /// The probability that the two players are dealt `a` and `b` in that order:
    /// combo pairs / (1,326 × 1,225). The weights of all 169 × 169 pairs sum to 1.
    pub fn pair_weight(&self, a: HandClass, b: HandClass) -> f64 {
        f64::from(self.combo_pairs(a, b)) / HOLE_PAIRS as f64
    }

    /// The all-in equity of `a` against `b`: (wins + ties / 2) / deals.
    pub fn equity(&self, a: HandClass, b: HandClass) -> f64 {
        (self.wins(a, b) as f64 + 0.5 * self.ties(a, b) as f64) / self.deals(a, b) as f64
    }

    /// Every equity, row-major `[a * 169 + b]`.
    pub fn equities(&self) -> Vec<f64> {
        let mut out = Vec::with_capacity(CLASSES * CLASSES);
        for a in HandClass::all() {
            for b in HandClass::all() {
                out.push(self.equity(a, b));
            }
        }
        out
    }

    /// The checksum of the counts: FNV-1a 64 over every win then tie count of a class pair
    /// (little-endian `u64`s, pairs row-major).
    pub fn checksum(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for i in 0..CLASSES * CLASSES {
            for v in [self.wins[i], self.ties[i]] {
                for byte in v.to_le_bytes() {
                    h ^= u64::from(byte);
                    h = h.wrapping_mul(0x0100_0000_01b3);
                }
            }
        }
        h
    }

    /// The table as JSON (format `cardvec-preflop-equity`, version 1), one row of each
    /// grid a line.
    pub fn to_json(&self) -> String {
        let mut s = String::with_capacity(1 << 20);
        s.push_str("{\n\"format\": \"cardvec-preflop-equity\",\n\"version\": 1,\n");
        s.push_str(
            "\"about\": \"heads-up all-in preflop equity of the 169 hand classes (row) against each other (column); \
             wins/ties count deals (disjoint hole pairs x C(48,5) boards); equity = (wins + ties/2) / (combo_pairs * boards_per_pair), \
             rounded to 6 decimals; checksum = FNV-1a 64 over the (wins, ties) u64 little-endian of each pair, row-major\",\n",
        );
        let names: Vec<String> = class_names().iter().map(|n| format!("\"{n}\"")).collect();
        s.push_str(&format!("\"classes\": [{}],\n", names.join(",")));
        s.push_str(&format!("\"boards_per_pair\": {BOARDS_PER_PAIR},\n"));
        s.push_str(&format!(
            "\"checksum\": \"fnv1a64:{:016x}\",\n",
            self.checksum()
        ));
        let grid = |s: &mut String, name: &str, cell: &dyn Fn(usize) -> String| {
            s.push_str(&format!("\"{name}\": [\n"));
            for a in 0..CLASSES {
                let row: Vec<String> = (0..CLASSES).map(|b| cell(a * CLASSES + b)).collect();
                let sep = if a + 1 < CLASSES { "," } else { "" };
                s.push_str(&format!("[{}]{sep}\n", row.join(",")));
            }
            s.push(']');
        };
        grid(&mut s, "combo_pairs", &|i| self.pairs[i].to_string());
        s.push_str(",\n");
        grid(&mut s, "wins", &|i| self.wins[i].to_string());
        s.push_str(",\n");
        grid(&mut s, "ties", &|i| self.ties[i].to_string());
        s.push_str(",\n");
        let eq = self.equities();
        grid(&mut s, "equity", &|i| format!("{:.6}", eq[i]));
        s.push_str("\n}\n");
        s
    }

    /// Reads a table written by [`EquityTable::to_json`], checking the format, the class
    /// names, the combo pairs (recomputed), that wins, ties and losses add up to the deals
    /// of every pair, the equities (to their 6 decimals) and the checksum.
    pub fn from_json(text: &str) -> Result<EquityTable> {
        let bad = |reason: String| Error::Invalid {
            what: "preflop equity table",
            reason,
        };
        let file: TableFile =
            serde_json::from_str(text).map_err(|e| bad(format!("not a table file: {e}")))?;
        if file.format != FORMAT || file.version != 1 {
            return Err(bad(format!(
                "format {:?} version {}, expected {FORMAT:?} version 1",
                file.format, file.version
            )));
        }
        if file.classes != class_names() || file.boards_per_pair != BOARDS_PER_PAIR {
            return Err(bad("the class names or the board count differ".into()));
        }
        let flat = |what: &str, g: &[Vec<u64>]| -> Result<Vec<u64>> {
            if g.len() != CLASSES || g.iter().any(|r| r.len() != CLASSES) {
                return Err(bad(format!("{what} is not a 169 x 169 grid")));
            }
            Ok(g.concat())
        };
        let wins = flat("wins", &file.wins)?;
        let ties = flat("ties", &file.ties)?;
        let pairs64: Vec<Vec<u64>> = file
            .combo_pairs
            .iter()
            .map(|r| r.iter().map(|&x| u64::from(x)).collect())
            .collect();
        let pairs = flat("combo_pairs", &pairs64)?;
        let expected_pairs = combo_pair_counts();
        if pairs
            .iter()
            .zip(&expected_pairs)
            .any(|(&p, &e)| p != u64::from(e))
        {
            return Err(bad("the combo pair counts are wrong".into()));
        }
        let table = EquityTable {
            wins,
            ties,
            pairs: expected_pairs,
        };
        for a in HandClass::all() {
            for b in HandClass::all() {
                let sum = u128::from(table.wins(a, b))
                    + u128::from(table.ties(a, b))
                    + u128::from(table.losses(a, b));
                if sum != u128::from(table.deals(a, b)) || table.ties(a, b) != table.ties(b, a) {
                    return Err(bad(format!("the counts of {a} against {b} do not add up")));
                }
            }
        }
        let sum = format!("fnv1a64:{:016x}", table.checksum());
        if file.checksum != sum {
            return Err(bad(format!(
                "checksum mismatch: the file says {}, its counts give {sum}",
                file.checksum
            )));
        }
        let eq = flat(
            "equity",
            &file
                .equity
                .iter()
                .map(|r| r.iter().map(|x| x.to_bits()).collect())
                .collect::<Vec<_>>(),
        )?;
        for (i, (&bits, exact)) in eq.iter().zip(table.equities()).enumerate() {
            if (f64::from_bits(bits) - exact).abs() > 6e-7 {
                return Err(bad(format!(
                    "the equity of {} against {} differs from its counts",
                    HandClass((i / CLASSES) as u8),
                    HandClass((i % CLASSES) as u8)
                )));
            }
        }
        Ok(table)
    }

    /// Reads and verifies ([`EquityTable::from_json`]) the table file at `path`.
    pub fn load(path: &Path) -> Result<EquityTable> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::Invalid {
            what: "preflop equity table",
            reason: format!("cannot read {}: {e}", path.display()),
        })?;
        EquityTable::from_json(&text)
    }

    /// Writes the table as JSON to `path` (through a temporary file renamed into place),
    /// creating its directory.
    pub fn save(&self, path: &Path) -> Result<()> {
        let fail = |e: std::io::Error| Error::Invalid {
            what: "preflop equity table",
            reason: format!("cannot write {}: {e}", path.display()),
        };
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(fail)?;
        }
        let tmp = path.with_extension(format!("tmp{}", std::process::id()));
        std::fs::write(&tmp, self.to_json()).map_err(fail)?;
        std::fs::rename(&tmp, path).map_err(fail)
    }

    /// The cached table ([`cache_path`]) if it is there and valid; otherwise computes it
    /// ([`EquityTable::compute`]) and writes it there (a failed write is not an error: the
    /// table is returned anyway). Returns the table and whether it was computed.
    pub fn cached_or_compute(progress: &dyn Progress) -> Result<(EquityTable, bool)> {
        let path = cache_path();
        if let Some(p) = &path {
            if let Ok(t) = EquityTable::load(p) {
                return Ok((t, false));
            }
        }
        let table = EquityTable::compute(progress)?;
        if let Some(p) = &path {
            let _ = table.save(p);
        }
        Ok((table, true))
    }
}

/// The cache directory: `$CARDVEC_CACHE` if set and not empty, else `$XDG_CACHE_HOME/cardvec`,
/// else `$HOME/.cache/cardvec` (`%LOCALAPPDATA%\cardvec` on Windows); `None` if none is set.
pub fn cache_dir() -> Option<PathBuf> {
    let var = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    if let Some(d) = var("CARDVEC_CACHE") {
        return Some(d);
    }
    if cfg!(windows) {
        return var("LOCALAPPDATA").map(|d| d.join("cardvec"));
    }
    var("XDG_CACHE_HOME")
        .or_else(|| var("HOME").map(|h| h.join(".cache")))
        .map(|d| d.join("cardvec"))
}

/// Where [`EquityTable::cached_or_compute`] keeps the table: `preflop-equity-v1.json` in
/// [`cache_dir`].
pub fn cache_path() -> Option<PathBuf> {
    cache_dir().map(|d| d.join("preflop-equity-v1.json"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::progress::Silent;
    use crate::core::LaneRng;

    /// Strict wins on `board` by comparing every pair of holes directly.
    fn direct_board(holes: &HoleTable, board: u64, out: &mut [u64]) {
        let live: Vec<(usize, u16)> = (0..HOLES)
            .filter(|&h| holes.mask[h] & board == 0)
            .map(|h| (h, rank_of_set(CardSet64(board | holes.mask[h])).0))
            .collect();
        for &(h, r) in &live {
            for &(g, s) in &live {
                if holes.mask[h] & holes.mask[g] == 0 && r > s {
                    out[holes.class[h] as usize * CLASSES + holes.class[g] as usize] += 1;
                }
            }
        }
    }

    #[test]
    fn the_sweep_equals_direct_pair_comparison_on_random_boards() {
        let holes = HoleTable::new();
        let mut rng = LaneRng::from_seed(16);
        let mut boards = Vec::new();
        while boards.len() < 12 {
            let mut m = 0u64;
            while m.count_ones() < 5 {
                m |= 1 << (rng.next_u64() % 52);
            }
            // weight 1 or 3, to check the weighting too
            boards.push((m, if boards.len() % 2 == 0 { 1 } else { 3 }));
        }
        let fast = strict_wins(&boards, &Silent).unwrap();
        let mut slow = vec![0u64; CLASSES * CLASSES];
        for &(m, w) in &boards {
            let mut one = vec![0u64; CLASSES * CLASSES];
            direct_board(&holes, m, &mut one);
            for (s, o) in slow.iter_mut().zip(one) {
                *s += u64::from(w) * o;
            }
        }
        assert_eq!(fast, slow);
        assert!(fast.iter().sum::<u64>() > 0);
    }

    #[test]
    fn the_sweep_does_not_depend_on_the_thread_count() {
        let boards: Vec<(u64, u8)> = canonical_boards().into_iter().step_by(4099).collect();
        let on = |threads| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| strict_wins(&boards, &Silent).unwrap())
        };
        assert_eq!(on(1), on(3));
    }

    #[test]
    fn canonical_boards_cover_every_board_once() {
        let boards = canonical_boards();
        assert_eq!(boards.len(), 134_459);
        assert_eq!(
            boards.iter().map(|&(_, w)| u64::from(w)).sum::<u64>(),
            BOARDS
        );
    }

    #[test]
    fn classes_names_and_combos() {
        assert_eq!(
            HandClass::all().map(|c| c.combos()).sum::<u32>(),
            HOLES as u32
        );
        let names = class_names();
        assert_eq!(&names[..3], ["AA", "AKs", "AQs"]);
        assert_eq!(names[13], "AKo");
        assert_eq!(names[14], "KK");
        assert_eq!(names[168], "22");
        for c in HandClass::all() {
            assert_eq!(HandClass::parse(&c.name()).unwrap(), c);
            assert_eq!(c.holes().len() as u32, c.combos());
        }
        assert_eq!(
            HandClass::parse("ka").unwrap_err().to_string(),
            "invalid hand class: \"ka\" is not a class like AA, AKs or AKo"
        );
        assert_eq!(HandClass::parse("kao").unwrap().name(), "AKo");
        assert!(HandClass::parse("AAs").is_err());
        assert!(HandClass::parse("AKx").is_err());
        assert!(HandClass::parse("").is_err());
        let pairs = combo_pair_counts();
        assert_eq!(pairs.iter().map(|&p| u64::from(p)).sum::<u64>(), HOLE_PAIRS);
    }

    fn class(name: &str) -> HandClass {
        HandClass::parse(name).unwrap()
    }

    /// (wins, ties, deals) of `a` against `b` by dealing every disjoint hole pair and every
    /// board: nothing shared with the sweep but the evaluator.
    fn direct(a: HandClass, b: HandClass) -> (u64, u64, u64) {
        let mut pairs = Vec::new();
        for h in a.holes() {
            for g in b.holes() {
                let (hm, gm) = (h[0].bit().0 | h[1].bit().0, g[0].bit().0 | g[1].bit().0);
                if hm & gm == 0 {
                    pairs.push((hm, gm));
                }
            }
        }
        pairs
            .par_iter()
            .map(|&(hm, gm)| {
                let rest: Vec<u64> = (0..52)
                    .map(|i| 1u64 << i)
                    .filter(|bit| bit & (hm | gm) == 0)
                    .collect();
                let (mut w, mut t, mut n) = (0, 0, 0);
                let k = rest.len();
                for i in 0..k {
                    for j in i + 1..k {
                        for l in j + 1..k {
                            for m in l + 1..k {
                                for o in m + 1..k {
                                    let board = rest[i] | rest[j] | rest[l] | rest[m] | rest[o];
                                    let x = rank_of_set(CardSet64(board | hm));
                                    let y = rank_of_set(CardSet64(board | gm));
                                    n += 1;
                                    if x > y {
                                        w += 1;
                                    } else if x == y {
                                        t += 1;
                                    }
                                }
                            }
                        }
                    }
                }
                (w, t, n)
            })
            .reduce(|| (0, 0, 0), |p, q| (p.0 + q.0, p.1 + q.1, p.2 + q.2))
    }

    #[test]
    fn the_builtin_table_equals_direct_enumeration_on_sample_pairs() {
        let table = EquityTable::builtin().unwrap();
        // A pair over a pair, two hands sharing an ace, two suited connectors.
        for (a, b) in [("AA", "KK"), ("AKs", "AQo"), ("T9s", "87s")] {
            let (a, b) = (class(a), class(b));
            let (w, t, n) = direct(a, b);
            assert_eq!(n, table.deals(a, b), "{a} {b}");
            assert_eq!((w, t), (table.wins(a, b), table.ties(a, b)), "{a} {b}");
            assert_eq!(n - w - t, table.losses(a, b), "{a} {b}");
        }
    }

    #[test]
    fn the_builtin_table_is_the_published_one_and_consistent() {
        let table = EquityTable::builtin().unwrap();
        // The checksum printed in docs/pushfold.md.
        assert_eq!(table.checksum(), 0xc71a_4033_5574_f35e);
        let mut total = 0u64;
        for a in HandClass::all() {
            for b in HandClass::all() {
                let sum = table.equity(a, b) + table.equity(b, a);
                assert!((sum - 1.0).abs() < 1e-12, "{a} {b} {sum}");
                assert_eq!(table.combo_pairs(a, b), table.combo_pairs(b, a));
                assert_eq!(table.ties(a, b), table.ties(b, a));
                total += u64::from(table.combo_pairs(a, b));
            }
            assert_eq!(table.equity(a, a), 0.5);
        }
        assert_eq!(total, HOLE_PAIRS);
        let w: f64 = HandClass::all()
            .flat_map(|a| HandClass::all().map(move |b| (a, b)))
            .map(|(a, b)| table.pair_weight(a, b))
            .sum();
        assert!((w - 1.0).abs() < 1e-12);
    }

    #[test]
    fn the_builtin_table_matches_published_equities() {
        let table = EquityTable::builtin().unwrap();
        let pct = |a: &str, b: &str| (100.0 * table.equity(class(a), class(b))).round();
        // The issue's reference (AA vs KK 81.95%, PokerStove/Equilab to two decimals).
        assert_eq!(
            (10_000.0 * table.equity(class("AA"), class("KK"))).round(),
            8195.0
        );
        // Equilab, whole percents (splitsuit.com "Ace King all-in preflop quiz").
        assert_eq!(pct("AKo", "TT"), 43.0);
        assert_eq!(pct("AKs", "TT"), 46.0);
        // pokerstrategy.com forum "AK or AKs vs AA or QQ", whole percents.
        assert_eq!(pct("AKs", "AA"), 12.0);
        assert_eq!(pct("AKo", "AA"), 7.0);
        assert_eq!(pct("AKs", "QQ"), 46.0);
    }

    #[test]
    fn a_table_file_round_trips_and_tampering_is_caught() {
        let table = EquityTable::builtin().unwrap();
        let text = table.to_json();
        assert_eq!(&EquityTable::from_json(&text).unwrap(), table);
        // One win count of AA against KK changed: the sums no longer add up.
        let aa_kk = table.wins(class("AA"), class("KK")).to_string();
        let bad = text.replacen(
            &aa_kk,
            &(table.wins(class("AA"), class("KK")) + 1).to_string(),
            1,
        );
        assert_ne!(bad, text);
        assert!(EquityTable::from_json(&bad).is_err());
        // A deal moved from AKs's wins to AA's keeps every sum: the checksum catches it.
        let mut moved = table.clone();
        moved.wins[1] += 1;
        moved.wins[CLASSES] -= 1;
        let forged = moved.to_json().replace(
            &format!("{:016x}", moved.checksum()),
            &format!("{:016x}", table.checksum()),
        );
        let e = EquityTable::from_json(&forged).unwrap_err().to_string();
        assert!(e.contains("checksum"), "{e}");
        assert!(EquityTable::from_json("{}").is_err());
        let dir = std::env::temp_dir().join(format!("cardvec-preflop-{}", std::process::id()));
        let path = dir.join("t.json");
        table.save(&path).unwrap();
        assert_eq!(&EquityTable::load(&path).unwrap(), table);
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(EquityTable::load(&path).is_err());
    }
}
