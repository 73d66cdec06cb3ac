//! Flip 7 alone on a fresh deck, solved without a graph: [`FreshSolver`] evaluates the solo
//! round of [`super::solo`] (the same positions, the same rules, the same tie-breaking) by a
//! memoized recursion whose memo is indexed by a **compact state** instead of a hash of the
//! whole draw pile.
//!
//! When a round is dealt from a fresh deck and the draw pile never runs out (on the 94-card
//! deck a round draws at most 6 numbers, 6 modifiers, 3 Second Chances with 3 duplicates,
//! 3 Flip Threes and 3 Freezes: 24 cards), the pile is the deck minus what the round drew:
//! the numbers in front of the player (a set), the modifiers (a set), the Second Chance held
//! or not, the Second Chances gone (used on a duplicate or discarded as a second one), the
//! duplicates they discarded (a multiset of at most three numbers, each among the numbers
//! held), the Flip Threes started, and the Freeze and Flip Three cards waiting in the
//! scheduled steps. So:
//!
//! - a **decision** (nothing scheduled) gets a dense index ([`DecisionIndex`]): the numbers
//!   set (at most six of thirteen), the rank of the duplicates multiset among the multisets
//!   over that set, the Second Chance pair (held, gone), the modifiers set and the Flip
//!   Threes started; about 1.24 × 10^8 slots for the full deck, one `f64` each;
//! - a position **inside a Flip Three** (forced draws left, the deferred Freeze/Flip Three
//!   cards in draw order, the resolves still queued from an outer Flip Three) gets a 52-bit
//!   packed key in a fixed-size, 4-way set-associative cache (`Memo`): on the full deck
//!   there are far more of them than decisions (about twenty per decision evaluated, most
//!   with deferred cards or queued resolves), more than fit in memory, so a full bucket
//!   evicts the entry with the least work behind it and a position met again after its
//!   eviction is recomputed. Values are exact whatever the cache's size (a test solves with
//!   two buckets); the size only trades memory for time ([`INNER_CACHE_LOG2`] for the full
//!   deck: 4.3 GB).
//!
//! A decision's hit (and the opening deal) is a chance node with one parent, so it is not
//! stored. A decision at which staying already scores the best utility of any outcome stays
//! (ties stay, as in [`super::solo::RoundGraph`]) without looking at its hit: the
//! rounds-to-target sweeps near the target visit only a small part of the round.
//!
//! If the pile runs out during a round (a small test deck), the pile is no longer the deck
//! minus the round's draws, and the solver returns an error instead of a wrong value.
//!
//! The full-deck solve, its time and memory: `docs/flip7.md`, "Flip 7 alone".

use super::solo::{
    empty_table, numbers_held, points, pop_front, start_three, KeyHasher, Pos, MAX_POINTS, T_DRAW,
    T_END_THREE, T_RESOLVE_FREEZE, T_RESOLVE_THREE,
};
use super::*;
use crate::core::{Error, Result};

/// Numbers at a decision: seven end the round.
const MAX_HELD: usize = 6;
/// Most duplicates discarded in a round (one per Second Chance).
const MAX_DUPS: usize = 3;
/// A solve checkpoint's first bytes (before the zstd frame).
const CHECKPOINT_MAGIC: &[u8; 8] = b"F7CKPT1\n";
/// Slots per (numbers, duplicates, Second Chance) block: 64 modifier sets × 4 Flip Three counts.
const LOW: usize = 256;

/// `(held, gone)` Second Chance pairs with `held + gone <= 3` and `gone >= dups` (each
/// duplicate took a Second Chance): `7 - 2 * dups` of them.
fn hg_count(dups: usize) -> usize {
    7 - 2 * dups
}

fn hg_rank(dups: usize, held: usize, gone: usize) -> Option<usize> {
    if held > 1 || gone < dups || held + gone > 3 {
        return None;
    }
    Some(if held == 0 {
        gone - dups
    } else {
        (4 - dups) + (gone - dups)
    })
}

/// The dense index of the decisions of a fresh-deck solo round (see the module docs).
#[derive(Clone, Debug)]
pub struct DecisionIndex {
    /// Per numbers mask (13 bits): the first block, or `u32::MAX` for more than six numbers.
    base: Vec<u32>,
    /// Per numbers held `k` and duplicates `u`: the offset (in blocks) of the size-`u`
    /// multisets within the mask's block range.
    offset: [[u32; MAX_DUPS + 1]; MAX_HELD + 1],
    /// Per `k`, `u` and sorted positions `p1 <= p2 <= p3` (as `p1 * 36 + p2 * 6 + p3`): the
    /// multiset's rank.
    rank: Vec<u16>,
    blocks: usize,
    /// Per number id, its bit in the numbers mask (only the deck's numbers have one).
    bit: [u8; MAX_NUMBER as usize + 1],
}

impl DecisionIndex {
    /// Builds the index tables for rounds dealt from `deck` (a few hundred kilobytes,
    /// microseconds); the numbers mask has a bit per number the deck holds.
    pub fn new(deck: &[u8; CARD_IDS]) -> Self {
        let mut bit = [u8::MAX; MAX_NUMBER as usize + 1];
        let mut present = 0;
        for n in 0..=MAX_NUMBER as usize {
            if deck[n] > 0 {
                bit[n] = present;
                present += 1;
            }
        }
        let mut rank = vec![u16::MAX; (MAX_HELD + 1) * (MAX_DUPS + 1) * 216];
        let mut offset = [[0u32; MAX_DUPS + 1]; MAX_HELD + 1];
        let mut block_len = [0u32; MAX_HELD + 1];
        for k in 0..=MAX_HELD {
            let mut off = 0u32;
            for u in 0..=MAX_DUPS {
                offset[k][u] = off;
                // The sorted position tuples of length `u` over `0..k`, lexicographic;
                // unused positions are 0 in the code.
                let mut r = 0u16;
                let mut tuples = vec![Vec::new()];
                for _ in 0..u {
                    tuples = tuples
                        .into_iter()
                        .flat_map(|t: Vec<usize>| {
                            let from = t.last().copied().unwrap_or(0);
                            (from..k).map(move |p| {
                                let mut t = t.clone();
                                t.push(p);
                                t
                            })
                        })
                        .collect();
                }
                for t in tuples {
                    let mut ps = [0usize; 3];
                    ps[..u].copy_from_slice(&t);
                    let code = ps[0] * 36 + ps[1] * 6 + ps[2];
                    rank[(k * (MAX_DUPS + 1) + u) * 216 + code] = r;
                    r += 1;
                }
                off += r as u32 * hg_count(u) as u32;
            }
            block_len[k] = off;
        }
        let mut base = vec![u32::MAX; 1 << present];
        let mut blocks = 0u32;
        for (mask, b) in base.iter_mut().enumerate() {
            let k = (mask as u32).count_ones() as usize;
            if k <= MAX_HELD {
                *b = blocks;
                blocks += block_len[k];
            }
        }
        DecisionIndex {
            base,
            offset,
            rank,
            blocks: blocks as usize,
            bit,
        }
    }

    /// Number of slots (every decision index is below it).
    pub fn len(&self) -> usize {
        self.blocks * LOW
    }

    /// Whether the index has no slot (never: the empty table has one).
    pub fn is_empty(&self) -> bool {
        self.blocks == 0
    }

    /// The index of a decision with draw pile `pile` and cards `table` in front of the
    /// player, in a round dealt from a fresh `deck` whose pile never ran out; `None` if the
    /// position is not one (a Freeze in front, more than six numbers, a count above the
    /// deck's, a Freeze or Flip Three missing from the pile and the table, ...).
    pub fn index(
        &self,
        deck: &[u8; CARD_IDS],
        pile: &[u8; CARD_IDS],
        table: &[u8; CARD_IDS],
    ) -> Option<usize> {
        let mut mask = 0usize;
        let mut k = 0;
        let mut dup_ids = [0u8; MAX_DUPS];
        let mut u = 0;
        for n in 0..=MAX_NUMBER as usize {
            let t = table[n];
            let gone = deck[n].checked_sub(pile[n])?.checked_sub(t)?;
            if t > 1 || (t == 0 && gone > 0) {
                return None;
            }
            if t == 1 {
                if k == MAX_HELD {
                    return None;
                }
                mask |= 1 << self.bit[n];
                for _ in 0..gone {
                    if u == MAX_DUPS {
                        return None;
                    }
                    dup_ids[u] = k as u8;
                    u += 1;
                }
                k += 1;
            }
        }
        let mut m = 0usize;
        for (i, c) in (PLUS_2..=TIMES_2).enumerate() {
            let c = c as usize;
            if table[c] > 1 || deck[c].checked_sub(pile[c])? != table[c] {
                return None;
            }
            m |= (table[c] as usize) << i;
        }
        let sc = SECOND_CHANCE as usize;
        let held = table[sc] as usize;
        let gone = deck[sc].checked_sub(pile[sc])?.checked_sub(table[sc])? as usize;
        let hg = hg_rank(u, held, gone)?;
        let f3 = FLIP_THREE as usize;
        if table[FREEZE as usize] != 0
            || pile[FREEZE as usize] != deck[FREEZE as usize]
            || table[f3] > 3
            || deck[f3].checked_sub(pile[f3])? != table[f3]
        {
            return None;
        }
        let mut ps = [0usize; 3];
        for (p, &d) in ps.iter_mut().zip(&dup_ids[..u]) {
            *p = d as usize;
        }
        let code = ps[0] * 36 + ps[1] * 6 + ps[2];
        let r = self.rank[(k * (MAX_DUPS + 1) + u) * 216 + code];
        if r == u16::MAX || self.base[mask] == u32::MAX {
            return None;
        }
        let block = self.base[mask] as usize
            + self.offset[k][u] as usize
            + r as usize * hg_count(u)
            + hg;
        Some(block * LOW + m * 4 + table[f3] as usize)
    }
}

/// Slots per bucket of the inner cache: four keys and four values fill one 64-byte line.
const WAYS: usize = 4;

/// One cache line of the inner cache: keys (0: empty) and their values.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Bucket {
    keys: [u64; WAYS],
    vals: [f64; WAYS],
}

const EMPTY_BUCKET: Bucket = Bucket {
    keys: [0; WAYS],
    vals: [0.0; WAYS],
};

/// The cache of positions inside a Flip Three: a fixed-size, 4-way set-associative table
/// from a nonzero 64-bit key (the exact packed position, [`FreshSolver::inner_key`]) to its
/// value (and optionally the probability of a 0-point round). It never grows: when a
/// bucket is full, a new entry evicts the one with the least work behind it (the fewest
/// forced draws and pending resolves, read from the key). A lookup that misses is
/// recomputed, so the values are exact whatever the size; only the time depends on it.
struct Memo {
    buckets: Vec<Bucket>,
    zeros: Vec<[f32; WAYS]>,
    /// Entries stored now.
    len: usize,
    /// Entries evicted by the current solve.
    evictions: usize,
    track_zero: bool,
}

/// The inner cache's size for the full deck: 2^28 slots (4.3 GB of keys and values, 5.4 GB
/// with the 0-point probabilities). The full deck has more positions inside Flip Threes than
/// that (docs/flip7.md); the cache evicts instead of growing.
pub const INNER_CACHE_LOG2: u32 = 28;

#[inline]
fn mix(k: u64) -> u64 {
    let mut z = k.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The work behind an inner position, from its packed key: the forced draws left in the
/// current Flip Three, the deferred cards and the resolves queued (more: keep longer).
#[inline]
fn work(key: u64) -> u64 {
    ((key >> 14) & 3) + ((key >> 11) & 7) + ((key >> 3) & 3)
}

impl Memo {
    /// A cache of `2^capacity_log2` slots (at least one bucket).
    fn new(capacity_log2: u32, track_zero: bool) -> Self {
        let n = (1usize << capacity_log2).div_ceil(WAYS).next_power_of_two();
        Memo {
            buckets: vec![EMPTY_BUCKET; n],
            zeros: if track_zero { vec![[0.0; WAYS]; n] } else { Vec::new() },
            len: 0,
            evictions: 0,
            track_zero,
        }
    }

    fn clear(&mut self) {
        if self.len > 0 {
            self.buckets.iter_mut().for_each(|b| b.keys = [0; WAYS]);
        }
        self.len = 0;
        self.evictions = 0;
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        mix(key) as usize & (self.buckets.len() - 1)
    }

    fn get(&self, key: u64) -> Option<(f64, f64)> {
        let b = self.bucket(key);
        let bucket = &self.buckets[b];
        let w = bucket.keys.iter().position(|&k| k == key)?;
        let z = if self.track_zero { self.zeros[b][w] as f64 } else { 0.0 };
        Some((bucket.vals[w], z))
    }

    /// Stores `key` (not present), evicting the entry with the least work behind it if
    /// its bucket is full.
    fn insert(&mut self, key: u64, v: (f64, f64)) {
        let b = self.bucket(key);
        let bucket = &mut self.buckets[b];
        let w = match bucket.keys.iter().position(|&k| k == 0) {
            Some(w) => {
                self.len += 1;
                w
            }
            None => {
                self.evictions += 1;
                // The first slot with the least work (deterministic).
                let mut w = 0;
                for i in 1..WAYS {
                    if work(bucket.keys[i]) < work(bucket.keys[w]) {
                        w = i;
                    }
                }
                w
            }
        };
        bucket.keys[w] = key;
        bucket.vals[w] = v.0;
        if self.track_zero {
            self.zeros[b][w] = v.1 as f32;
        }
    }

    fn bytes(&self) -> usize {
        self.buckets.len() * (64 + if self.track_zero { 16 } else { 0 })
    }
}

/// Statistics of the last [`FreshSolver::solve`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SolveStats {
    /// Decisions evaluated (stored in the dense table).
    pub decisions: usize,
    /// Positions inside a Flip Three held by the inner cache at the end.
    pub inner: usize,
    /// Positions inside a Flip Three evicted from the full cache (each recomputed if met
    /// again).
    pub evictions: usize,
    /// Bytes of the two tables.
    pub bytes: usize,
}

/// The solo round on a fresh deck, solved by a memoized recursion over compact states
/// (module documentation). Its values equal [`super::solo::RoundGraph`]'s (the tests compare
/// them) wherever the pile does not run out during a round.
pub struct FreshSolver {
    deck: [u8; CARD_IDS],
    index: DecisionIndex,
    /// Per decision: the value under the last utility solved (`NaN`: not evaluated).
    dec: Vec<f64>,
    /// Per decision: the probability of a 0-point round (only when tracked).
    dec_zero: Vec<f32>,
    /// Per decision: whether the last solve's policy hits (bitset).
    hit: Vec<u64>,
    /// Decisions evaluated by the last solve, while few (else `None`: reset everything).
    touched: Option<Vec<u32>>,
    memo: Memo,
    utility: Vec<f64>,
    best: f64,
    error: Option<String>,
    decisions: usize,
    /// Chance nodes expanded by the current solve.
    nodes: u64,
    /// Cards of the opening deal whose subtrees the current solve has finished.
    root_done: u32,
    progress: Option<ProgressFn>,
    /// Where and every how many chance nodes the current solve saves its finished decisions
    /// ([`FreshSolver::set_checkpoint`]).
    checkpoint: Option<(std::path::PathBuf, u64)>,
    /// Checkpoints written by the current solve.
    checkpoints: u32,
}

/// The callback of [`FreshSolver::set_progress`].
type ProgressFn = Box<dyn FnMut(&SolveProgress)>;

/// What a long solve reports to [`FreshSolver::set_progress`] (every 2^24 chance nodes).
#[derive(Clone, Copy, Debug)]
pub struct SolveProgress {
    /// Chance nodes expanded so far.
    pub nodes: u64,
    /// Decisions evaluated so far.
    pub decisions: usize,
    /// Positions inside Flip Threes cached now.
    pub inner: usize,
    /// Positions evicted from the inner cache so far.
    pub evictions: usize,
    /// Cards of the opening deal (out of the deck's) whose subtrees are finished: a rough
    /// measure of how far the solve is (the first subtrees take the longest, the later ones
    /// find more of their positions solved).
    pub root_done: u32,
    /// Checkpoints written so far by this solve ([`FreshSolver::set_checkpoint`]).
    pub checkpoints: u32,
}

/// Terminal value and zero-probability of a round that ends with `x` points.
#[inline]
fn end(utility: &[f64], x: u32) -> (f64, f64) {
    (utility[x as usize], f64::from(u8::from(x == 0)))
}

impl FreshSolver {
    /// A solver for rounds dealt from the full 94-card deck. Allocates the dense table (about
    /// 1 GB of `f64`, 1.5 GB with `track_zero`, which [`FreshSolver::rounds_to_target`]
    /// needs) and the inner cache (2^[`INNER_CACHE_LOG2`] slots, 4.3 GB, 5.4 GB with
    /// `track_zero`).
    pub fn full(track_zero: bool) -> Self {
        Self::with_cache(&CARD_COPIES, track_zero, INNER_CACHE_LOG2).expect("the full deck is valid")
    }

    /// A solver for rounds dealt from `deck` (counts per card id, each at most the real
    /// deck's), with an inner cache of 2^16 slots (2^[`INNER_CACHE_LOG2`] from 60 cards on).
    /// Errors if a count exceeds the real deck's.
    pub fn with_deck(deck: &[u8; CARD_IDS], track_zero: bool) -> Result<Self> {
        let cards: usize = deck.iter().map(|&k| k as usize).sum();
        let log2 = if cards >= 60 { INNER_CACHE_LOG2 } else { 16 };
        Self::with_cache(deck, track_zero, log2)
    }

    /// [`FreshSolver::with_deck`] with an inner cache of `2^cache_log2` slots (2 to 34): the
    /// values do not depend on it (a smaller cache evicts and recomputes more). Errors if a
    /// count exceeds the real deck's or `cache_log2` is out of range.
    pub fn with_cache(deck: &[u8; CARD_IDS], track_zero: bool, cache_log2: u32) -> Result<Self> {
        if !(2..=34).contains(&cache_log2) {
            return Err(Error::Invalid {
                what: "solo inner cache",
                reason: format!("cache_log2 must be in 2..=34, got {cache_log2}"),
            });
        }
        for c in 0..CARD_IDS {
            if deck[c] > CARD_COPIES[c] {
                return Err(Error::Invalid {
                    what: "solo deck",
                    reason: format!(
                        "card {}: {} copies, the deck has {}",
                        card_name(c as u8),
                        deck[c],
                        CARD_COPIES[c]
                    ),
                });
            }
        }
        let index = DecisionIndex::new(deck);
        let n = index.len();
        Ok(FreshSolver {
            deck: *deck,
            dec: vec![f64::NAN; n],
            dec_zero: if track_zero { vec![0.0; n] } else { Vec::new() },
            hit: vec![0; n.div_ceil(64)],
            touched: Some(Vec::new()),
            index,
            memo: Memo::new(cache_log2, track_zero),
            utility: Vec::new(),
            best: 0.0,
            error: None,
            decisions: 0,
            nodes: 0,
            root_done: 0,
            progress: None,
            checkpoint: None,
            checkpoints: 0,
        })
    }

    /// The deck each round is dealt from.
    pub fn deck(&self) -> &[u8; CARD_IDS] {
        &self.deck
    }

    /// The decision index (to read a policy from [`FreshSolver::hits`]).
    pub fn decision_index(&self) -> &DecisionIndex {
        &self.index
    }

    /// Solves the round for terminal utilities `utility[points]` (`MAX_POINTS + 1` values;
    /// `utility[0]` for a bust and a banked empty hand alike): the value of the round's start
    /// under the policy maximizing them, and the probability of a 0-point round under that
    /// policy (`NaN` unless the solver tracks it). Errors on a utility of the wrong length or
    /// not finite, or if the pile can run out during a round (not modeled, see the module
    /// documentation).
    pub fn solve(&mut self, utility: &[f64]) -> Result<(f64, f64)> {
        self.begin(utility)?;
        self.run()
    }

    /// [`FreshSolver::solve`] resumed from a checkpoint file written by an earlier solve of
    /// the same deck, utility and `track_zero` ([`FreshSolver::set_checkpoint`]): the
    /// decisions it holds are not evaluated again. The result is the same as an
    /// uninterrupted solve's (the tests compare them). Errors if the file is unreadable,
    /// corrupt, or of another deck, utility or `track_zero`, or as [`FreshSolver::solve`].
    pub fn resume(&mut self, utility: &[f64], checkpoint: &std::path::Path) -> Result<(f64, f64)> {
        self.begin(utility)?;
        self.load_checkpoint(checkpoint)?;
        self.run()
    }

    /// Validates the utility and clears the last solve.
    fn begin(&mut self, utility: &[f64]) -> Result<()> {
        if utility.len() != MAX_POINTS + 1 || utility.iter().any(|u| !u.is_finite()) {
            return Err(Error::Invalid {
                what: "solo utility",
                reason: format!(
                    "{} finite values expected, got {} values",
                    MAX_POINTS + 1,
                    utility.len()
                ),
            });
        }
        self.utility.clear();
        self.utility.extend_from_slice(utility);
        self.best = utility.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        match self.touched.as_mut() {
            Some(t) => {
                for &i in t.iter() {
                    self.dec[i as usize] = f64::NAN;
                    self.hit[i as usize / 64] = 0;
                }
                t.clear();
            }
            None => {
                self.dec.iter_mut().for_each(|v| *v = f64::NAN);
                self.hit.iter_mut().for_each(|b| *b = 0);
                self.touched = Some(Vec::new());
            }
        }
        self.memo.clear();
        self.error = None;
        self.decisions = 0;
        self.nodes = 0;
        self.root_done = 0;
        self.checkpoints = 0;
        Ok(())
    }

    /// Runs the recursion from the round's start (after [`FreshSolver::begin`]).
    fn run(&mut self) -> Result<(f64, f64)> {
        let root = self.chance(empty_table(&self.deck), false);
        if let Some(reason) = self.error.take() {
            return Err(Error::Invalid {
                what: "solo deck",
                reason,
            });
        }
        let zero = if self.dec_zero.is_empty() { f64::NAN } else { root.1 };
        Ok((root.0, zero))
    }

    /// Counts of the last solve.
    pub fn stats(&self) -> SolveStats {
        SolveStats {
            decisions: self.decisions,
            inner: self.memo.len,
            evictions: self.memo.evictions,
            bytes: self.dec.len() * (8 + if self.dec_zero.is_empty() { 0 } else { 4 })
                + self.memo.bytes(),
        }
    }

    /// Whether the last solve's policy hits at the decision with this draw pile and these
    /// cards in front (a round dealt from [`FreshSolver::deck`]): `Some(true)` hit,
    /// `Some(false)` stay (also where the solve stayed without evaluating the hit), `None` if
    /// the position is not a decision of such a round or was not reached by the solve.
    pub fn hits(&self, pile: &[u8; CARD_IDS], table: &[u8; CARD_IDS]) -> Option<bool> {
        let i = self.index.index(&self.deck, pile, table)?;
        self.hits_at(i, table)
    }

    fn hits_at(&self, i: usize, table: &[u8; CARD_IDS]) -> Option<bool> {
        let held: u8 = table.iter().sum();
        if held == 0 {
            return Some(true);
        }
        let stay = self.utility[points(table) as usize];
        if self.dec[i].is_nan() {
            // Stayed without evaluating the hit, or never reached.
            return (stay >= self.best).then_some(false);
        }
        Some(self.hit[i / 64] >> (i % 64) & 1 == 1)
    }

    /// Frees the inner cache (the bulk of a full-deck solve's memory: `2^cache_log2` slots of
    /// 16 bytes, 17 GB at `cache_log2 = 30`) and keeps a one-bucket cache in its place. The
    /// decision tables stay: [`FreshSolver::walk_policy`] needs only them. A later solve is
    /// still exact, only slower.
    pub fn release_cache(&mut self) {
        self.memo = Memo::new(2, self.memo.track_zero);
    }

    /// The last solve's policy as a bitset over [`DecisionIndex`] (bit set: hit), for the
    /// decisions the solve evaluated (every other decision stays or was not reached).
    pub fn policy_bits(&self) -> &[u64] {
        &self.hit
    }

    fn set_error(&mut self, reason: &str) {
        if self.error.is_none() {
            self.error = Some(reason.to_string());
        }
    }

    fn settle(&mut self, mut p: Pos) -> (f64, f64) {
        loop {
            if numbers_held(&p.table) >= FLIP7_CARDS {
                return end(&self.utility, points(&p.table));
            }
            if p.qlen == 0 {
                return self.decision(p);
            }
            match p.queue[0] {
                T_DRAW => return self.chance(p, true),
                T_END_THREE => {
                    pop_front(&mut p);
                    let d = p.dlen as usize;
                    for i in (0..d).rev() {
                        let t = if p.deferred[i] == FREEZE {
                            T_RESOLVE_FREEZE
                        } else {
                            T_RESOLVE_THREE
                        };
                        super::solo::push_front(&mut p, t);
                    }
                    p.dlen = 0;
                    p.deferred = [0; OBS_DEFERRED_SLOTS];
                }
                T_RESOLVE_FREEZE => return end(&self.utility, points(&p.table)),
                _ => {
                    pop_front(&mut p);
                    p.table[FLIP_THREE as usize] += 1;
                    start_three(&mut p);
                }
            }
        }
    }

    fn decision(&mut self, p: Pos) -> (f64, f64) {
        let Some(i) = self.index.index(&self.deck, &p.pile, &p.table) else {
            self.set_error("a decision outside the compact index (the pile ran out?)");
            return (0.0, 0.0);
        };
        let v = self.dec[i];
        if !v.is_nan() {
            let z = if self.dec_zero.is_empty() { 0.0 } else { self.dec_zero[i] as f64 };
            return (v, z);
        }
        let held: u8 = p.table.iter().sum();
        let stay_points = points(&p.table);
        let stay = self.utility[stay_points as usize];
        if held > 0 && stay >= self.best {
            // No outcome beats staying, and ties stay: the hit is not needed.
            return end(&self.utility, stay_points);
        }
        let hit = self.chance(p, false);
        let out = if held > 0 && stay >= hit.0 {
            end(&self.utility, stay_points)
        } else {
            self.hit[i / 64] |= 1 << (i % 64);
            hit
        };
        self.dec[i] = out.0;
        if !self.dec_zero.is_empty() {
            self.dec_zero[i] = out.1 as f32;
        }
        self.decisions += 1;
        if let Some(t) = self.touched.as_mut() {
            if t.len() < 1 << 20 {
                t.push(i as u32);
            } else {
                self.touched = None;
            }
        }
        out
    }

    /// The packed key of a position inside a Flip Three (its forced draw popped): numbers
    /// held (13 bits), duplicates (3 × 4 bits), Second Chance held/gone (3), modifiers (6),
    /// Flip Threes started (2), the queue `D^a E R*` (a: 2 bits, R: 3 + 6), the deferred
    /// cards (2 + 3). `None` if the position has another shape.
    fn inner_key(&self, p: &Pos) -> Option<u64> {
        inner_key(&self.deck, p)
    }
}

/// [`FreshSolver::inner_key`] for rounds dealt from `deck`: [`cards_key`] followed by 16 bits
/// of queue and deferred cards, bit 63 set.
fn inner_key(deck: &[u8; CARD_IDS], p: &Pos) -> Option<u64> {
    let mut k = cards_key(deck, p)?;
    let mut put = |v: u64, bits: u32| {
        debug_assert!(v < (1 << bits));
        k = k << bits | v;
    };
    let q = &p.queue[..p.qlen as usize];
    let a = q.iter().take_while(|&&t| t == T_DRAW).count();
    if a > 2 || q.get(a) != Some(&T_END_THREE) || q.len() - a - 1 > 6 {
        return None;
    }
    put(a as u64, 2);
    let rest = &q[a + 1..];
    put(rest.len() as u64, 3);
    let mut bits = 0u64;
    for (i, &t) in rest.iter().enumerate() {
        match t {
            T_RESOLVE_THREE => bits |= 1 << i,
            T_RESOLVE_FREEZE => {}
            _ => return None,
        }
    }
    put(bits, 6);
    put(p.dlen as u64, 2);
    let mut bits = 0u64;
    for (i, &c) in p.deferred[..p.dlen as usize].iter().enumerate() {
        if c == FLIP_THREE {
            bits |= 1 << i;
        }
    }
    put(bits, 3);
    Some(k | 1 << 63)
}

/// Bits of [`cards_key`].
const CARDS_BITS: u32 = 36;
/// Bits [`inner_key`] adds after [`cards_key`].
const QUEUE_BITS: u32 = 16;

/// The cards of a position packed (36 bits): numbers held (13 bits), the numbers gone to a
/// Second Chance (3 × 4 bits), Second Chance held (1) and gone (2), modifiers held (6), Flip
/// Threes started (2). `None` if more than three numbers are gone.
// `n` indexes the deck, the pile and the table alike.
#[allow(clippy::needless_range_loop)]
fn cards_key(deck: &[u8; CARD_IDS], p: &Pos) -> Option<u64> {
    let mut k: u64 = 0;
    let mut put = |v: u64, bits: u32| {
        debug_assert!(v < (1 << bits));
        k = k << bits | v;
    };
    let mut dups = [15u64; MAX_DUPS];
    let mut u = 0;
    for n in 0..=MAX_NUMBER as usize {
        put(p.table[n] as u64, 1);
        let gone = deck[n] - p.pile[n] - p.table[n];
        for _ in 0..gone {
            if u == MAX_DUPS {
                return None;
            }
            dups[u] = n as u64;
            u += 1;
        }
    }
    for d in dups {
        put(d, 4);
    }
    let sc = SECOND_CHANCE as usize;
    put(p.table[sc] as u64, 1);
    put((deck[sc] - p.pile[sc] - p.table[sc]) as u64, 2);
    for c in PLUS_2..=TIMES_2 {
        put(p.table[c as usize] as u64, 1);
    }
    put(p.table[FLIP_THREE as usize] as u64, 2);
    Some(k)
}

/// The key of a position of the policy walk ([`walk_with`]): a decision (nothing scheduled)
/// is its [`cards_key`] with bit 62 set, a position inside a Flip Three its [`inner_key`].
/// [`walk_pos`] inverts it. `None` if the position has another shape.
fn walk_key(deck: &[u8; CARD_IDS], p: &Pos) -> Option<u64> {
    if p.qlen == 0 && p.dlen == 0 {
        Some(cards_key(deck, p)? | 1 << 62)
    } else {
        inner_key(deck, p)
    }
}

/// The position of a [`walk_key`] in a round dealt from `deck` (the pile is the deck less
/// the cards on the table, gone, deferred or waiting in the queue); `None` if no position has
/// this key.
fn walk_pos(deck: &[u8; CARD_IDS], key: u64) -> Option<Pos> {
    let mut p = empty_table(deck);
    let mut out = [0u8; CARD_IDS];
    let mut cards = if key >> 63 == 1 {
        let mut q = key & ((1 << QUEUE_BITS) - 1);
        let mut take = |bits: u32| {
            let v = q & ((1 << bits) - 1);
            q >>= bits;
            v
        };
        let three_bits = take(3);
        let dlen = take(2) as usize;
        let rest_bits = take(6);
        let rest = take(3) as usize;
        let a = take(2) as usize;
        if dlen > p.deferred.len() || rest > 6 || a > 2 {
            return None;
        }
        for i in 0..dlen {
            let c = if three_bits >> i & 1 == 1 { FLIP_THREE } else { FREEZE };
            p.deferred[i] = c;
            out[c as usize] += 1;
        }
        p.dlen = dlen as u8;
        let mut len = 0;
        for _ in 0..a {
            p.queue[len] = T_DRAW;
            len += 1;
        }
        p.queue[len] = T_END_THREE;
        len += 1;
        for i in 0..rest {
            let (t, c) = if rest_bits >> i & 1 == 1 {
                (T_RESOLVE_THREE, FLIP_THREE)
            } else {
                (T_RESOLVE_FREEZE, FREEZE)
            };
            p.queue[len] = t;
            out[c as usize] += 1;
            len += 1;
        }
        p.qlen = len as u8;
        (key >> QUEUE_BITS) & ((1 << CARDS_BITS) - 1)
    } else if key >> 62 == 1 {
        key & ((1 << CARDS_BITS) - 1)
    } else {
        return None;
    };
    let mut take = |bits: u32| {
        let v = cards & ((1 << bits) - 1);
        cards >>= bits;
        v as u8
    };
    p.table[FLIP_THREE as usize] = take(2);
    for c in (PLUS_2..=TIMES_2).rev() {
        p.table[c as usize] = take(1);
    }
    out[SECOND_CHANCE as usize] += take(2);
    p.table[SECOND_CHANCE as usize] = take(1);
    for _ in 0..MAX_DUPS {
        let d = take(4);
        if d != 15 {
            *out.get_mut(d as usize).filter(|_| d <= MAX_NUMBER)? += 1;
        }
    }
    for n in (0..=MAX_NUMBER as usize).rev() {
        p.table[n] = take(1);
    }
    for c in 0..CARD_IDS {
        p.pile[c] = deck[c].checked_sub(p.table[c])?.checked_sub(out[c])?;
    }
    Some(p)
}

impl FreshSolver {
    /// Calls `f` every 2^24 chance nodes of a solve (a long full-deck solve's progress).
    pub fn set_progress(&mut self, f: impl FnMut(&SolveProgress) + 'static) {
        self.progress = Some(Box::new(f));
    }

    /// Makes every later solve save its finished decisions to `path` every `every_nodes`
    /// chance nodes ([`FreshSolver::write_checkpoint`]), so that a solve stopped before
    /// its end can go on with [`FreshSolver::resume`]. Saving does not change any value.
    /// Errors if `every_nodes` is 0.
    pub fn set_checkpoint(&mut self, path: impl Into<std::path::PathBuf>, every_nodes: u64) -> Result<()> {
        if every_nodes == 0 {
            return Err(Error::Invalid {
                what: "solo checkpoint",
                reason: "every_nodes must be at least 1".into(),
            });
        }
        self.checkpoint = Some((path.into(), every_nodes));
        Ok(())
    }

    /// Writes the decisions the current (or last) solve has finished, with its deck,
    /// utility and `track_zero`, to `path` (through `path` + `.tmp`, renamed when
    /// complete, so an interrupted write leaves the previous checkpoint): the magic
    /// `F7CKPT1\n`, then one zstd frame of the deck (22 bytes), `track_zero` (1 byte), the
    /// utility (`u32` count, `f64` values), the decision count (`u64`) and per finished
    /// decision its dense index with bit 31 set where the policy hits (`u32`), its value
    /// (`f64`) and, if tracked, its 0-point probability (`f32`), all little-endian.
    /// Returns the decisions written. Errors if no solve began or on an I/O error.
    pub fn write_checkpoint(&self, path: &std::path::Path) -> Result<usize> {
        use std::io::Write;
        if self.utility.is_empty() {
            return Err(Error::Invalid {
                what: "solo checkpoint",
                reason: "no solve began".into(),
            });
        }
        let io = |e: std::io::Error| Error::Invalid {
            what: "solo checkpoint",
            reason: format!("{}: {e}", path.display()),
        };
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".tmp");
        let tmp = std::path::PathBuf::from(tmp);
        let file = std::fs::File::create(&tmp).map_err(io)?;
        let mut out = std::io::BufWriter::new(file);
        out.write_all(CHECKPOINT_MAGIC).map_err(io)?;
        let mut z = zstd::stream::write::Encoder::new(out, 1).map_err(io)?;
        z.write_all(&self.deck).map_err(io)?;
        let track = !self.dec_zero.is_empty();
        z.write_all(&[u8::from(track)]).map_err(io)?;
        z.write_all(&(self.utility.len() as u32).to_le_bytes()).map_err(io)?;
        for u in &self.utility {
            z.write_all(&u.to_le_bytes()).map_err(io)?;
        }
        let count = self.dec.iter().filter(|v| !v.is_nan()).count();
        z.write_all(&(count as u64).to_le_bytes()).map_err(io)?;
        for (i, v) in self.dec.iter().enumerate().filter(|(_, v)| !v.is_nan()) {
            let hit = self.hit[i / 64] >> (i % 64) & 1;
            z.write_all(&(i as u32 | (hit as u32) << 31).to_le_bytes()).map_err(io)?;
            z.write_all(&v.to_le_bytes()).map_err(io)?;
            if track {
                z.write_all(&self.dec_zero[i].to_le_bytes()).map_err(io)?;
            }
        }
        let mut out = z.finish().map_err(io)?;
        out.flush().map_err(io)?;
        out.into_inner().map_err(|e| io(e.into_error()))?.sync_all().map_err(io)?;
        std::fs::rename(&tmp, path).map_err(io)?;
        Ok(count)
    }

    /// Reads a checkpoint into the cleared tables of a solve that has begun with the same
    /// deck, utility and `track_zero`.
    fn load_checkpoint(&mut self, path: &std::path::Path) -> Result<()> {
        use std::io::Read;
        let bad = |reason: String| Error::Invalid {
            what: "solo checkpoint",
            reason: format!("{}: {reason}", path.display()),
        };
        let file = std::fs::File::open(path).map_err(|e| bad(e.to_string()))?;
        let mut input = std::io::BufReader::new(file);
        let mut magic = [0u8; 8];
        input.read_exact(&mut magic).map_err(|e| bad(e.to_string()))?;
        if &magic != CHECKPOINT_MAGIC {
            return Err(bad("not a solo checkpoint".into()));
        }
        let mut z = zstd::stream::read::Decoder::new(input).map_err(|e| bad(e.to_string()))?;
        let mut read = |n: usize| -> Result<Vec<u8>> {
            let mut b = vec![0u8; n];
            z.read_exact(&mut b).map_err(|e| bad(format!("truncated or corrupt: {e}")))?;
            Ok(b)
        };
        if read(CARD_IDS)? != self.deck {
            return Err(bad("another deck".into()));
        }
        let track = read(1)?[0] == 1;
        if track == self.dec_zero.is_empty() {
            return Err(bad("another track_zero".into()));
        }
        let n = u32::from_le_bytes(read(4)?.try_into().unwrap()) as usize;
        if n != self.utility.len() {
            return Err(bad("another utility".into()));
        }
        for k in 0..n {
            let u = f64::from_le_bytes(read(8)?.try_into().unwrap());
            if u.to_bits() != self.utility[k].to_bits() {
                return Err(bad("another utility".into()));
            }
        }
        let count = u64::from_le_bytes(read(8)?.try_into().unwrap());
        if count > self.dec.len() as u64 {
            return Err(bad(format!("{count} decisions, the index has {}", self.dec.len())));
        }
        // Every slot may change: the next solve clears them all.
        self.touched = None;
        let entry = if track { 16 } else { 12 };
        let mut last = None;
        for _ in 0..count {
            let b = read(entry)?;
            let w = u32::from_le_bytes(b[..4].try_into().unwrap());
            let i = (w & !(1 << 31)) as usize;
            let v = f64::from_le_bytes(b[4..12].try_into().unwrap());
            if i >= self.dec.len() || last.is_some_and(|l| i <= l) || !v.is_finite() {
                return Err(bad("a decision out of order or range, or not finite".into()));
            }
            last = Some(i);
            self.dec[i] = v;
            self.hit[i / 64] |= u64::from(w >> 31) << (i % 64);
            if track {
                self.dec_zero[i] = f32::from_le_bytes(b[12..16].try_into().unwrap());
            }
        }
        if z.read(&mut [0u8; 1]).map_err(|e| bad(e.to_string()))? != 0 {
            return Err(bad("trailing bytes".into()));
        }
        self.decisions = count as usize;
        Ok(())
    }

    fn chance(&mut self, mut p: Pos, forced: bool) -> (f64, f64) {
        self.nodes += 1;
        if self.nodes & ((1 << 24) - 1) == 0 {
            if let Some(f) = self.progress.as_mut() {
                f(&SolveProgress {
                    nodes: self.nodes,
                    decisions: self.decisions,
                    inner: self.memo.len,
                    evictions: self.memo.evictions,
                    root_done: self.root_done,
                    checkpoints: self.checkpoints,
                });
            }
        }
        if let Some((path, every)) = &self.checkpoint {
            if self.nodes % every == 0 && self.error.is_none() {
                let path = path.clone();
                match self.write_checkpoint(&path) {
                    Ok(_) => self.checkpoints += 1,
                    Err(e) => self.set_error(&format!("checkpoint: {e}")),
                }
            }
        }
        let root = !forced && p.table.iter().all(|&t| t == 0);
        if self.error.is_some() {
            // Unwind: the solve has failed.
            return (0.0, 0.0);
        }
        if forced {
            pop_front(&mut p);
        }
        if p.pile.iter().all(|&k| k == 0) {
            self.set_error(
                "the draw pile runs out during a round from this deck (a reshuffle), which \
                 the compact state does not model",
            );
            return (0.0, 0.0);
        }
        let key = if forced {
            let Some(key) = self.inner_key(&p) else {
                self.set_error("a position outside the compact key");
                return (0.0, 0.0);
            };
            if let Some(v) = self.memo.get(key) {
                return v;
            }
            Some(key)
        } else {
            None
        };
        let (mut v, mut z, mut total) = (0.0, 0.0, 0u32);
        for c in 0..CARD_IDS {
            let k = p.pile[c];
            if k == 0 {
                continue;
            }
            let mut q = p;
            q.pile[c] -= 1;
            let (cv, cz) = self.after_draw(q, c as u8, forced);
            v += k as f64 * cv;
            z += k as f64 * cz;
            total += k as u32;
            if root {
                self.root_done = total;
            }
        }
        let out = (v / total as f64, z / total as f64);
        if let Some(key) = key {
            self.memo.insert(key, out);
        }
        out
    }

    fn after_draw(&mut self, mut p: Pos, card: u8, forced: bool) -> (f64, f64) {
        let c = card as usize;
        if is_number(card) {
            if p.table[c] > 0 {
                if p.table[SECOND_CHANCE as usize] > 0 {
                    p.table[SECOND_CHANCE as usize] -= 1;
                } else {
                    return end(&self.utility, 0);
                }
            } else {
                p.table[c] = 1;
            }
        } else if is_modifier(card) {
            p.table[c] += 1;
        } else if card == SECOND_CHANCE {
            if p.table[c] == 0 {
                p.table[c] = 1;
            }
        } else if forced {
            p.deferred[p.dlen as usize] = card;
            p.dlen += 1;
        } else if card == FREEZE {
            return end(&self.utility, points(&p.table));
        } else {
            p.table[c] += 1;
            start_three(&mut p);
        }
        self.settle(p)
    }
}

impl FreshSolver {
    /// The most expected points of a round and the probability of a 0-point round under
    /// that policy (`NaN` unless tracked); the policy stays in the solver
    /// ([`FreshSolver::hits`], [`FreshSolver::policy_bits`]).
    pub fn solve_points(&mut self) -> Result<(f64, f64)> {
        self.solve(&points_utility())
    }

    /// [`FreshSolver::solve_points`] resumed from a checkpoint ([`FreshSolver::resume`]).
    pub fn resume_points(&mut self, checkpoint: &std::path::Path) -> Result<(f64, f64)> {
        self.resume(&points_utility(), checkpoint)
    }

    /// Fewest expected rounds to bank `target` points from each banked total `s` in
    /// `0..target`, every round dealt from a fresh deck: the same equation and Dinkelbach
    /// iteration as [`super::solo::RoundGraph::rounds_to_target`], each step one
    /// [`FreshSolver::solve`]. `progress(s, v_s, sweeps)` is called after each total (with
    /// its value and the solves it took; returning `false` stops with an error). Errors if
    /// the solver does not track 0-point rounds, if `target` is not in `1..=10000`, if no
    /// policy scores, or as [`FreshSolver::solve`].
    pub fn rounds_to_target(
        &mut self,
        target: u32,
        mut progress: impl FnMut(u32, f64, usize) -> bool,
    ) -> Result<Vec<f64>> {
        if self.dec_zero.is_empty() {
            return Err(Error::Invalid {
                what: "solo solver",
                reason: "rounds_to_target needs a solver built with track_zero".into(),
            });
        }
        if !(1..=10_000).contains(&target) {
            return Err(Error::Invalid {
                what: "solo target",
                reason: format!("the target must be in 1..=10000, got {target}"),
            });
        }
        let t = target as usize;
        let mut v = vec![0.0f64; t + MAX_POINTS + 1];
        let mut utility = vec![0.0f64; MAX_POINTS + 1];
        for s in (0..t).rev() {
            let mut guess = v[s + 1] + 1.0;
            let mut sweeps = 0;
            for _ in 0..200 {
                utility[0] = -guess;
                for x in 1..=MAX_POINTS {
                    utility[x] = -v[s + x];
                }
                let (value, p0) = self.solve(&utility)?;
                sweeps += 1;
                if p0 >= 1.0 - 1e-7 {
                    return Err(Error::Invalid {
                        what: "solo target",
                        reason: "no policy scores from this deck".into(),
                    });
                }
                // The policy's fixed point; `p0` (stored as f32) only sets the step, the
                // fixed point `guess = 1 - value(guess)` is exact.
                let rest = value - p0 * utility[0];
                let next = (1.0 - rest) / (1.0 - p0);
                let done = (next - guess).abs() <= 1e-12 * next.abs().max(1.0)
                    && ((1.0 - value) - guess).abs() <= 1e-11 * guess.abs().max(1.0);
                guess = next;
                if done {
                    break;
                }
            }
            v[s] = guess;
            if !progress(s as u32, guess, sweeps) {
                return Err(Error::Invalid {
                    what: "solo target",
                    reason: format!("interrupted at banked total {s}"),
                });
            }
        }
        v.truncate(t);
        Ok(v)
    }
}

/// Where a position goes next without chance or choice (the forward walk's
/// [`FreshSolver::settle`]).
enum Next {
    End(u32),
    Decision(Pos),
    Forced(Pos),
}

fn advance(mut p: Pos) -> Next {
    loop {
        if numbers_held(&p.table) >= FLIP7_CARDS {
            return Next::End(points(&p.table));
        }
        if p.qlen == 0 {
            return Next::Decision(p);
        }
        match p.queue[0] {
            T_DRAW => return Next::Forced(p),
            T_END_THREE => {
                pop_front(&mut p);
                for i in (0..p.dlen as usize).rev() {
                    let t = if p.deferred[i] == FREEZE {
                        T_RESOLVE_FREEZE
                    } else {
                        T_RESOLVE_THREE
                    };
                    super::solo::push_front(&mut p, t);
                }
                p.dlen = 0;
                p.deferred = [0; OBS_DEFERRED_SLOTS];
            }
            T_RESOLVE_FREEZE => return Next::End(points(&p.table)),
            _ => {
                pop_front(&mut p);
                p.table[FLIP_THREE as usize] += 1;
                start_three(&mut p);
            }
        }
    }
}

/// [`FreshSolver::after_draw`] for the forward walk.
fn draw_card(mut p: Pos, card: u8, forced: bool) -> Next {
    let c = card as usize;
    p.pile[c] -= 1;
    if is_number(card) {
        if p.table[c] > 0 {
            if p.table[SECOND_CHANCE as usize] > 0 {
                p.table[SECOND_CHANCE as usize] -= 1;
            } else {
                return Next::End(0);
            }
        } else {
            p.table[c] = 1;
        }
    } else if is_modifier(card) {
        p.table[c] += 1;
    } else if card == SECOND_CHANCE {
        if p.table[c] == 0 {
            p.table[c] = 1;
        }
    } else if forced {
        p.deferred[p.dlen as usize] = card;
        p.dlen += 1;
    } else if card == FREEZE {
        return Next::End(points(&p.table));
    } else {
        p.table[c] += 1;
        start_three(&mut p);
    }
    advance(p)
}

/// The last solve's policy played forward from the round's start: the distribution of the
/// round's points and every decision it reaches.
#[derive(Clone, Debug, Default)]
pub struct PolicyWalk {
    /// Probability of each round total `0..=MAX_POINTS` (0: a bust or an empty hand).
    pub points: Vec<f64>,
    /// The decisions reached (dense index) and whether the policy hits there, sorted.
    pub decisions: Vec<(u32, bool)>,
}

impl PolicyWalk {
    /// Expected round points.
    pub fn mean(&self) -> f64 {
        self.points.iter().enumerate().map(|(x, p)| x as f64 * p).sum()
    }

    /// Expected rounds to bank `target` from 0 when every round follows this policy (the
    /// policy does not depend on the banked total) and is dealt from a fresh deck:
    /// `W(s) = (1 + sum_{x>0} P(x) W(s + x)) / (1 - P(0))`, `W(s) = 0` from `target` on.
    pub fn rounds_to_target(&self, target: u32) -> Vec<f64> {
        let t = target as usize;
        let mut w = vec![0.0f64; t + MAX_POINTS + 1];
        let p0 = self.points[0];
        for s in (0..t).rev() {
            let rest: f64 = (1..=MAX_POINTS).map(|x| self.points[x] * w[s + x]).sum();
            w[s] = (1.0 + rest) / (1.0 - p0);
        }
        w.truncate(t);
        w
    }
}

impl FreshSolver {
    /// Plays the last solve's policy forward from the round's start, layer by layer (every
    /// step draws one card, so a layer is the positions after `d` cards), and returns the
    /// distribution of the round's points and the decisions it reaches. Errors if no solve
    /// ran or the policy is unknown at a decision reached.
    pub fn walk_policy(&self) -> Result<PolicyWalk> {
        self.walk_policy_progress(|_| {})
    }

    /// [`FreshSolver::walk_policy`], calling `on_layer` after each layer (a full-deck walk
    /// runs for an hour or more).
    pub fn walk_policy_progress(&self, on_layer: impl FnMut(&WalkProgress)) -> Result<PolicyWalk> {
        if self.utility.is_empty() {
            return Err(Error::Invalid {
                what: "solo policy walk",
                reason: "no solve ran".into(),
            });
        }
        walk_with(&self.deck, &self.index, |i, table| self.hits_at(i, table), on_layer)
    }
}

/// What a policy walk reports after each layer ([`FreshSolver::walk_policy_progress`]).
#[derive(Clone, Copy, Debug)]
pub struct WalkProgress {
    /// Cards drawn in the layer just walked.
    pub layer: usize,
    /// Positions in it.
    pub positions: usize,
    /// Positions in the next layer.
    pub next: usize,
    /// Probability of the rounds ended so far.
    pub ended: f64,
}

/// Plays a policy forward from the start of a round dealt from `deck`, layer by layer (every
/// step draws one card), and returns the distribution of the round's points and the
/// decisions it reaches. `hits(i, table)` is the policy at the decision of dense index `i`
/// (`None`: unknown, an error). Errors if the pile runs out or a decision falls outside
/// the index.
pub(super) fn walk_with(
    deck: &[u8; CARD_IDS],
    index: &DecisionIndex,
    hits: impl Fn(usize, &[u8; CARD_IDS]) -> Option<bool>,
    mut on_layer: impl FnMut(&WalkProgress),
) -> Result<PolicyWalk> {
    let invalid = |reason: &str| Error::Invalid {
        what: "solo policy walk",
        reason: reason.into(),
    };
    let mut points = vec![0.0f64; MAX_POINTS + 1];
    let mut decisions = Vec::new();
    let expand = |p: Pos, forced: bool, prob: f64, next: &mut NextLayer, points: &mut Vec<f64>| {
        let total: u32 = p.pile.iter().map(|&k| k as u32).sum();
        if total == 0 {
            return Err(invalid("the pile ran out"));
        }
        for c in 0..CARD_IDS {
            let k = p.pile[c];
            if k == 0 {
                continue;
            }
            let pr = prob * k as f64 / total as f64;
            let q = match draw_card(p, c as u8, forced) {
                Next::End(x) => {
                    points[x as usize] += pr;
                    continue;
                }
                Next::Decision(q) => q,
                Next::Forced(mut q) => {
                    pop_front(&mut q);
                    q
                }
            };
            // The layer keeps keys only: the key must give the position back.
            let key = walk_key(deck, &q)
                .filter(|&key| walk_pos(deck, key) == Some(q))
                .ok_or_else(|| invalid("a position outside the walk's key"))?;
            *next.entry(key).or_insert(0.0) += pr;
        }
        Ok(())
    };
    // The opening deal: a hit with an empty table.
    let mut next = NextLayer::default();
    expand(empty_table(deck), false, 1.0, &mut next, &mut points)?;
    let mut layer = finish_layer(next);
    let mut drawn = 1;
    while !layer.is_empty() {
        let mut next = NextLayer::default();
        for &(key, prob) in &layer {
            let p = walk_pos(deck, key).ok_or_else(|| invalid("a key without a position"))?;
            if key >> 63 == 1 {
                expand(p, true, prob, &mut next, &mut points)?;
                continue;
            }
            let i = index
                .index(deck, &p.pile, &p.table)
                .ok_or_else(|| invalid("a decision outside the index"))?;
            let hit = hits(i, &p.table)
                .ok_or_else(|| invalid("the policy is unknown at a decision reached"))?;
            decisions.push((i as u32, hit));
            if hit {
                expand(p, false, prob, &mut next, &mut points)?;
            } else {
                points[points_of(&p.table)] += prob;
            }
        }
        on_layer(&WalkProgress {
            layer: drawn,
            positions: layer.len(),
            next: next.len(),
            ended: points.iter().sum(),
        });
        drawn += 1;
        // The finished layer's memory goes before the next one is sorted.
        drop(layer);
        layer = finish_layer(next);
    }
    decisions.sort_unstable();
    decisions.dedup();
    Ok(PolicyWalk { points, decisions })
}

/// The positions of the next layer of [`walk_with`] by [`walk_key`], each with its
/// probability. Keys only (16 bytes a position, [`walk_pos`] gives the position back): on
/// the full deck a layer holds tens of millions of positions, and layers of whole positions
/// (80 bytes each) ran out of 23 GB.
type NextLayer = std::collections::HashMap<u64, f64, std::hash::BuildHasherDefault<KeyHasher>>;

/// The layer walked next, sorted by key (the order the walk adds probabilities in: the
/// result does not depend on hashing).
fn finish_layer(next: NextLayer) -> Vec<(u64, f64)> {
    let mut layer: Vec<(u64, f64)> = next.into_iter().collect();
    layer.sort_unstable_by_key(|e| e.0);
    layer
}

/// The points objective's utility: a round's points.
fn points_utility() -> Vec<f64> {
    (0..=MAX_POINTS).map(|x| x as f64).collect()
}

fn points_of(table: &[u8; CARD_IDS]) -> usize {
    points(table) as usize
}

#[cfg(test)]
mod tests {
    use super::super::solo::RoundGraph;
    use super::*;

    fn deck_of(cards: &[u8]) -> [u8; CARD_IDS] {
        let mut d = [0u8; CARD_IDS];
        for &c in cards {
            d[c as usize] += 1;
        }
        d
    }

    /// Decks whose pile cannot run out during a round (more cards than a round can draw),
    /// small enough for [`RoundGraph`], with every kind of card among them.
    fn decks() -> Vec<[u8; CARD_IDS]> {
        vec![
            deck_of(&[2, 2, 3, 3, 3, 4, 4, 4, 5, 5, SECOND_CHANCE, FLIP_THREE, TIMES_2]),
            deck_of(&[
                0, 3, 3, 3, 4, 4, 4, 6, 6, FREEZE, FLIP_THREE, FLIP_THREE, SECOND_CHANCE, PLUS_2 + 2,
            ]),
            deck_of(&[
                2, 2, 3, 3, 3, 5, 5, 5, 5, FLIP_THREE, FREEZE, SECOND_CHANCE, SECOND_CHANCE,
                PLUS_10, TIMES_2,
            ]),
            deck_of(&[
                1, 4, 4, 4, 4, 7, 7, 7, 7, 7, FLIP_THREE, FLIP_THREE, FLIP_THREE, FREEZE, FREEZE,
                SECOND_CHANCE, PLUS_2,
            ]),
        ]
    }

    #[test]
    fn equals_round_graph_on_small_decks() {
        let mut compared = 0;
        for deck in decks() {
            let Ok(g) = RoundGraph::with_deck(&deck, &deck) else {
                panic!("{deck:?}: no graph");
            };
            let mut s = FreshSolver::with_deck(&deck, true).unwrap();
            let (points, _) = s.solve_points().unwrap();
            let want = g.solve_points().0;
            assert!((points - want).abs() < 1e-9, "{deck:?}: {points} vs {want}");
            // A utility that is not linear, a bust worth something.
            let bent: Vec<f64> = (0..=MAX_POINTS)
                .map(|x| if x == 0 { -3.0 } else { (x as f64).sqrt() - (x % 3) as f64 })
                .collect();
            let (dp, _) = s.solve(&bent).unwrap();
            let want = g.optimal_value(&bent);
            assert!((dp - want).abs() < 1e-9, "{deck:?}: {dp} vs {want}");
            // The policy played forward scores what the solve says.
            s.solve_points().unwrap();
            let walk = s.walk_policy().unwrap();
            assert!((walk.points.iter().sum::<f64>() - 1.0).abs() < 1e-12);
            // Its progress: one report a layer, in order, the last with every round ended.
            let mut layers = Vec::new();
            let again = s.walk_policy_progress(|w| layers.push(*w)).unwrap();
            assert_eq!(again.points, walk.points);
            assert!(layers.iter().enumerate().all(|(k, w)| w.layer == k + 1 && w.positions > 0));
            let last = layers.last().unwrap();
            assert_eq!(last.next, 0);
            assert!((last.ended - 1.0).abs() < 1e-12, "{last:?}");
            // The inner cache freed: the same walk (it reads the decision tables only), and
            // the solves below (one-bucket cache) still equal the graph's.
            s.release_cache();
            let again = s.walk_policy().unwrap();
            assert_eq!((&again.points, &again.decisions), (&walk.points, &walk.decisions));
            assert!((walk.mean() - points).abs() < 1e-9, "{deck:?}: {} vs {points}", walk.mean());
            let fixed = walk.rounds_to_target(30);
            let fresh = s.rounds_to_target(30, |_, _, _| true).unwrap();
            // The rounds-optimal policy needs no more rounds than the points-optimal one.
            assert!(fresh.iter().zip(&fixed).all(|(a, b)| *a <= b + 1e-9));
            let graph = g.rounds_to_target(30).unwrap();
            for (a, b) in fresh.iter().zip(&graph) {
                assert!((a - b).abs() < 1e-8, "{deck:?}: {a} vs {b}");
            }
            compared += 1;
        }
        assert_eq!(compared, decks().len());
    }

    /// A cache far too small for the round (two buckets) evicts all the time and changes
    /// no value: the solve, the zero probabilities and the policy equal the roomy cache's.
    /// A solve stopped after a checkpoint and resumed from it gives the uninterrupted
    /// solve's value, 0-point probability and policy, evaluating fewer decisions; a
    /// checkpoint of another utility, deck or `track_zero`, or a damaged one, is refused.
    #[test]
    fn a_resumed_solve_equals_an_uninterrupted_one() {
        let dir = std::env::temp_dir();
        let bent: Vec<f64> = (0..=MAX_POINTS).map(|x| (x as f64).sqrt() - 0.5).collect();
        for (d, deck) in decks().into_iter().enumerate() {
            let path = dir.join(format!("cardvec-f7ckpt-{}-{d}", std::process::id()));
            let mut whole = FreshSolver::with_deck(&deck, true).unwrap();
            let want = whole.solve(&bent).unwrap();
            let (nodes, all) = (whole.nodes, whole.stats().decisions);
            // One checkpoint, written halfway through the solve's chance nodes.
            let mut first = FreshSolver::with_deck(&deck, true).unwrap();
            first.set_checkpoint(&path, nodes / 2 + 1).unwrap();
            assert_eq!(first.solve(&bent).unwrap(), want);
            assert_eq!(first.checkpoints, 1);
            let mut second = FreshSolver::with_deck(&deck, true).unwrap();
            let got = second.resume(&bent, &path).unwrap();
            assert!((got.0 - want.0).abs() < 1e-12 && (got.1 - want.1).abs() < 1e-6, "{got:?} {want:?}");
            assert_eq!(second.policy_bits(), whole.policy_bits(), "{deck:?}");
            assert_eq!(second.stats().decisions, all);
            assert!(second.nodes < nodes, "{deck:?}: {} of {nodes}", second.nodes);
            assert_eq!(second.walk_policy().unwrap().points, whole.walk_policy().unwrap().points);
            // Refused: another utility, another track_zero, another deck, damage.
            let mut other = FreshSolver::with_deck(&deck, true).unwrap();
            assert!(other.resume_points(&path).is_err());
            let mut untracked = FreshSolver::with_deck(&deck, false).unwrap();
            assert!(untracked.resume(&bent, &path).is_err());
            let mut smaller = deck;
            let c = smaller.iter().position(|&k| k > 0).unwrap();
            smaller[c] -= 1;
            let mut elsewhere = FreshSolver::with_deck(&smaller, true).unwrap();
            assert!(elsewhere.resume(&bent, &path).is_err());
            let bytes = std::fs::read(&path).unwrap();
            std::fs::write(&path, &bytes[..bytes.len() - 5]).unwrap();
            assert!(other.resume(&bent, &path).is_err());
            std::fs::remove_file(&path).unwrap();
            assert!(other.resume(&bent, &path).is_err());
            assert!(other.set_checkpoint(&path, 0).is_err());
        }
    }

    #[test]
    fn a_tiny_inner_cache_changes_no_value() {
        for deck in decks() {
            let mut roomy = FreshSolver::with_deck(&deck, true).unwrap();
            let mut tiny = FreshSolver::with_cache(&deck, true, 3).unwrap();
            let a = roomy.solve_points().unwrap();
            let b = tiny.solve_points().unwrap();
            assert_eq!(roomy.stats().evictions, 0, "{deck:?}");
            assert!(tiny.stats().evictions > 0, "{deck:?}");
            assert!((a.0 - b.0).abs() < 1e-12 && (a.1 - b.1).abs() < 1e-6, "{a:?} vs {b:?}");
            assert_eq!(roomy.policy_bits(), tiny.policy_bits());
            assert_eq!(roomy.stats().decisions, tiny.stats().decisions);
        }
        assert!(FreshSolver::with_cache(&decks()[0], false, 1).is_err());
        assert!(FreshSolver::with_cache(&decks()[0], false, 35).is_err());
    }
}

#[cfg(test)]
mod index_tests {
    use super::*;

    /// Every decision of the full deck's index space with at most two numbers held, and
    /// every one holding six particular numbers, gets its own slot below `len()`.
    #[test]
    fn the_decision_index_is_injective() {
        let deck = CARD_COPIES;
        let idx = DecisionIndex::new(&deck);
        let mut seen = std::collections::HashSet::new();
        let masks: Vec<u32> = (0u32..1 << 13)
            .filter(|m| m.count_ones() <= 2 || *m == 0b1_1111_1000_0000 || *m == 0b0_0001_0101_0111)
            .collect();
        let mut count = 0usize;
        for &mask in &masks {
            let held: Vec<usize> = (0..13).filter(|n| mask >> n & 1 == 1).collect();
            // Duplicates: up to three, each of a held number with a spare copy.
            let mut dup_sets = vec![vec![]];
            for _ in 0..3 {
                let mut next = dup_sets.clone();
                for d in &dup_sets {
                    for &n in &held {
                        if d.last().is_none_or(|&l| l <= n) {
                            let mut d2 = d.clone();
                            d2.push(n);
                            next.push(d2);
                        }
                    }
                }
                dup_sets = next;
                dup_sets.sort();
                dup_sets.dedup();
            }
            for dups in &dup_sets {
                let mut table = [0u8; CARD_IDS];
                let mut pile = deck;
                for &n in &held {
                    table[n] = 1;
                    pile[n] -= 1;
                }
                if dups.iter().any(|&n| pile[n] == 0 || {
                    pile[n] -= 1;
                    false
                }) {
                    continue;
                }
                for held_sc in 0..2u8 {
                    for gone in dups.len() as u8..=3 - held_sc {
                        for m in 0..64usize {
                            for f in 0..4u8 {
                                let (mut t, mut p) = (table, pile);
                                t[SECOND_CHANCE as usize] = held_sc;
                                p[SECOND_CHANCE as usize] = 3 - held_sc - gone;
                                for i in 0..6 {
                                    let c = PLUS_2 as usize + i;
                                    t[c] = (m >> i & 1) as u8;
                                    p[c] -= t[c];
                                }
                                t[FLIP_THREE as usize] = f;
                                p[FLIP_THREE as usize] = 3 - f;
                                let i = idx.index(&deck, &p, &t).expect("a valid decision");
                                assert!(i < idx.len());
                                assert!(seen.insert(i), "{t:?} {p:?}: slot {i} twice");
                                count += 1;
                            }
                        }
                    }
                }
            }
        }
        assert!(count > 100_000, "{count}");
        // Not decisions: a Freeze in front, a duplicate without its number, too many numbers.
        let mut t = [0u8; CARD_IDS];
        t[FREEZE as usize] = 1;
        let mut p = deck;
        p[FREEZE as usize] -= 1;
        assert_eq!(idx.index(&deck, &p, &t), None);
        let mut p = deck;
        p[5] -= 1;
        assert_eq!(idx.index(&deck, &p, &[0; CARD_IDS]), None);
        let mut t = [0u8; CARD_IDS];
        let mut p = deck;
        for n in 2..9 {
            t[n] = 1;
            p[n] -= 1;
        }
        assert_eq!(idx.index(&deck, &p, &t), None);
    }
}
