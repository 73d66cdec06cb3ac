//! The range-vector solver of a [`Spot`]: one pass over the public tree handles every hand
//! of both players at once. At a decision node the acting player's regrets and cumulative
//! strategy are `actions × hands` f32 arrays (action-major, so the per-hand loops are plain
//! slice loops the compiler vectorizes); at a fold node the opponent reach compatible with
//! each hand comes from inclusion–exclusion over its two cards; at a showdown a sorted
//! sweep over both ranges (ranks precomputed and sorted per river board) with per-card
//! blocker sums gives each hand's wins and ties in O(n) after the sort; a chance node deals
//! each card not on the board, removing the hands that hold it.
//!
//! Chance children are solved in parallel (rayon, in the caller's pool) and their values
//! summed in card order, so the result is bit-identical for any thread count.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Instant;

use rayon::prelude::*;

use super::iso;
use super::lock::{self, LockedNode, NodeLock};
use super::tree::{MemoryEstimate, NodeKind, SpotTree, DEFAULT_MAX_NODES};
use super::Spot;
use crate::core::{CardSet64, Error, Result, StopFlag};
use crate::poker::rank_of_set;

/// Scratch vectors reused across node visits: a pass allocates per tree depth, not per node.
mod scratch {
    use std::cell::RefCell;
    use std::ops::{Deref, DerefMut};

    /// The most buffers a thread keeps (a pass needs a few per level of the tree).
    const KEEP: usize = 256;

    /// A zeroed scratch vector taken from the thread's pool and given back on drop.
    pub(super) struct Buf<T: Pooled> {
        v: Vec<T>,
    }

    pub(super) trait Pooled: Copy + Default + Sized + 'static {
        fn with_pool<R>(f: impl FnOnce(&mut Vec<Vec<Self>>) -> R) -> R;
    }

    thread_local! {
        static F32: RefCell<Vec<Vec<f32>>> = const { RefCell::new(Vec::new()) };
        static F64: RefCell<Vec<Vec<f64>>> = const { RefCell::new(Vec::new()) };
    }

    impl Pooled for f32 {
        fn with_pool<R>(f: impl FnOnce(&mut Vec<Vec<f32>>) -> R) -> R {
            F32.with(|p| f(&mut p.borrow_mut()))
        }
    }

    impl Pooled for f64 {
        fn with_pool<R>(f: impl FnOnce(&mut Vec<Vec<f64>>) -> R) -> R {
            F64.with(|p| f(&mut p.borrow_mut()))
        }
    }

    impl<T: Pooled> Buf<T> {
        /// `n` zeros.
        pub(super) fn zeroed(n: usize) -> Buf<T> {
            let mut v = T::with_pool(|p| p.pop()).unwrap_or_default();
            v.clear();
            v.resize(n, T::default());
            Buf { v }
        }

        /// A copy of `x`.
        pub(super) fn from_slice(x: &[T]) -> Buf<T> {
            let mut v = T::with_pool(|p| p.pop()).unwrap_or_default();
            v.clear();
            v.extend_from_slice(x);
            Buf { v }
        }

        /// The vector itself (leaves the pool).
        pub(super) fn into_vec(mut self) -> Vec<T> {
            std::mem::take(&mut self.v)
        }
    }

    impl<T: Pooled> Drop for Buf<T> {
        fn drop(&mut self) {
            let v = std::mem::take(&mut self.v);
            if v.capacity() > 0 {
                T::with_pool(|p| {
                    if p.len() < KEEP {
                        p.push(v);
                    }
                });
            }
        }
    }

    impl<T: Pooled> Deref for Buf<T> {
        type Target = [T];
        fn deref(&self) -> &[T] {
            &self.v
        }
    }

    impl<T: Pooled> DerefMut for Buf<T> {
        fn deref_mut(&mut self) -> &mut [T] {
            &mut self.v
        }
    }
}

/// The default largest memory a solve may take: 4 GiB.
pub const DEFAULT_MAX_MEMORY: u64 = 4 << 30;

/// The regret-minimization algorithm (alternating updates in all three).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Algorithm {
    /// Discounted CFR (Brown & Sandholm 2019) with α = 1.5, β = 0, γ = 2: positive regrets
    /// scaled by `t^α / (t^α + 1)`, negative by `t^β / (t^β + 1)` and the average's
    /// contributions by `(t / (t + 1))^γ` after each iteration. The default.
    #[default]
    Dcfr,
    /// CFR+ (Tammelin 2014): regrets clipped at zero, linear averaging (iteration `t`
    /// weighted by `t`).
    CfrPlus,
    /// Predictive CFR+ (Farina, Kroer & Sandholm 2021): regret matching+ on the regrets plus
    /// a prediction of the next instantaneous regret (the last one), quadratic averaging
    /// (iteration `t` weighted by `t²`).
    PcfrPlus,
}

impl Algorithm {
    /// The name: `dcfr`, `cfr+` or `pcfr+`.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Dcfr => "dcfr",
            Algorithm::CfrPlus => "cfr+",
            Algorithm::PcfrPlus => "pcfr+",
        }
    }

    /// The algorithm of a name ([`Algorithm::name`]).
    pub fn parse(name: &str) -> Result<Algorithm> {
        match name.trim().to_ascii_lowercase().as_str() {
            "dcfr" => Ok(Algorithm::Dcfr),
            "cfr+" | "cfrplus" => Ok(Algorithm::CfrPlus),
            "pcfr+" | "pcfrplus" => Ok(Algorithm::PcfrPlus),
            _ => Err(Error::Unknown {
                what: "spot algorithm",
                name: name.into(),
                expected: "dcfr, cfr+, pcfr+".into(),
            }),
        }
    }

    /// The f32 arrays per (action, hand) slot: regrets and cumulative strategy, and the
    /// prediction for PCFR+.
    pub fn arrays(self) -> u64 {
        match self {
            Algorithm::PcfrPlus => 3,
            _ => 2,
        }
    }

    /// The exponent of the average's weights (iteration `t` weighted by `t^γ`).
    fn gamma(self) -> i32 {
        match self {
            Algorithm::CfrPlus => 1,
            _ => 2,
        }
    }
}

/// When a solve stops and what it may use.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SolveOptions {
    /// The algorithm. Default DCFR.
    pub algorithm: Algorithm,
    /// Stop once the exploitability is at most this % of the starting pot (finite, ≥ 0;
    /// 0: never). Default 0.5.
    pub target_pct: f64,
    /// Stop after this many iterations (1..=[`MAX_ITERATIONS`]). Default 1,000.
    pub max_iterations: u64,
    /// Stop after this many seconds (finite, > 0), keeping the strategy reached. Default
    /// none.
    pub time_limit: Option<f64>,
    /// Compute the exploitability every this many iterations (≥ 1). Default 10.
    pub check_every: u64,
    /// Refuse a spot whose solve needs more bytes than this. Default [`DEFAULT_MAX_MEMORY`].
    pub max_memory: u64,
    /// Refuse a tree of more nodes than this. Default [`DEFAULT_MAX_NODES`].
    pub max_nodes: usize,
    /// 16-bit storage: regrets, the cumulative strategy and the prediction kept as 16-bit
    /// integers with one f32 scale per decision node and array (about half the memory; the
    /// strategy a little less precise). Default false (f32).
    pub compress: bool,
    /// Suit isomorphism: where two suits are interchangeable (the board holds the same
    /// ranks in both and both ranges are symmetric in them), the turn and river cards of
    /// one are solved through the cards of the other ([`SpotTree::mirrors`]), which saves
    /// their time (not their memory). Not used while node locks are in force. Default true.
    pub isomorphism: bool,
}

/// The largest iteration cap.
pub const MAX_ITERATIONS: u64 = 10_000_000;

impl Default for SolveOptions {
    fn default() -> SolveOptions {
        SolveOptions {
            algorithm: Algorithm::Dcfr,
            target_pct: 0.5,
            max_iterations: 1_000,
            time_limit: None,
            check_every: 10,
            max_memory: DEFAULT_MAX_MEMORY,
            max_nodes: DEFAULT_MAX_NODES,
            compress: false,
            isomorphism: true,
        }
    }
}

impl SolveOptions {
    /// Checks the options (see the fields).
    pub fn check(&self) -> Result<()> {
        let t = self.target_pct;
        if !(t.is_finite() && t >= 0.0) {
            return Err(Error::Invalid {
                what: "target",
                reason: format!("the target must be a finite % of the pot ≥ 0, got {t}"),
            });
        }
        Error::check_range("iterations", 1, MAX_ITERATIONS, self.max_iterations)?;
        Error::check_range("check_every", 1, MAX_ITERATIONS, self.check_every)?;
        if let Some(s) = self.time_limit {
            if !(s.is_finite() && s > 0.0) {
                return Err(Error::Invalid {
                    what: "time limit",
                    reason: format!("must be a finite number of seconds > 0, got {s}"),
                });
            }
        }
        Ok(())
    }
}

/// Why a solve stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    /// The target exploitability was reached.
    Target,
    /// The iteration cap ran out.
    Iterations,
    /// The time limit ran out.
    TimeLimit,
    /// The progress callback asked to stop.
    Cancelled,
    /// The stop flag of [`SpotSolver::solve_with_stop`] was raised (Ctrl-C in the CLI and
    /// in Python).
    Interrupted,
}

/// The summary of a solve (the strategy stays in the [`SpotSolver`]).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct SpotSolution {
    /// The algorithm's name.
    pub algorithm: &'static str,
    /// Iterations run in all (over every call to `solve` on this solver).
    pub iterations: u64,
    /// Exploitability of the average strategy in chips: (BR₀ + BR₁ − pot) / 2 (with node
    /// locks, of the locked game: see [`SpotSolver::set_locks`]).
    pub exploitability: f64,
    /// The same in % of the starting pot.
    pub exploitability_pct: f64,
    /// Each player's EV in chips under the average strategy (they sum to the pot).
    pub root_ev: [f64; 2],
    /// Each player's equity at the root (all-in to the river, no betting).
    pub root_equity: [f64; 2],
    /// Seconds spent in this call.
    pub seconds: f64,
    /// Node counts and memory.
    pub memory: MemoryEstimate,
    /// The storage: `f32`, or `16-bit` ([`SolveOptions::compress`]).
    pub storage: &'static str,
    /// Why it stopped.
    pub stop: StopReason,
    /// The exploitability (% of the pot) at each check: (iterations, %).
    pub history: Vec<(u64, f64)>,
    /// Whether training walked only the representatives of mirrored cards (suit
    /// isomorphism asked for, mirrors in the tree, no node locks).
    pub isomorphism: bool,
}

/// A progress report, passed to the callback of [`SpotSolver::solve`] at each check.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Progress {
    /// Iterations run.
    pub iterations: u64,
    /// The exploitability in % of the pot.
    pub exploitability_pct: f64,
    /// Seconds since the call started.
    pub seconds: f64,
}

/// Per-hand tables the passes read.
#[derive(Clone, Debug)]
pub(super) struct Tables {
    /// Each hand's two card ids.
    cards: [Vec<[u8; 2]>; 2],
    /// The index of the same combo in the other player's range (`u32::MAX`: none).
    same: [Vec<u32>; 2],
    /// The hands holding each card.
    by_card: [Vec<Vec<u32>>; 2],
    /// Per suit permutation (an index into `iso::all_perms`) that maps a mirror node onto
    /// its representative, per player: hand `i`'s image (empty for the others).
    hand_perm: Vec<[Vec<u32>; 2]>,
    /// Per river board of the tree, per player: the hands not meeting the board sorted by
    /// rank (ties by index), with their rank and cards, so a sweep reads them in order.
    sorted: Vec<[Vec<Ranked>; 2]>,
    board_index: HashMap<u64, usize>,
}

/// A hand in a river board's rank order.
#[derive(Clone, Copy, Debug)]
struct Ranked {
    rank: u16,
    cards: [u8; 2],
    hand: u32,
}

/// A spot's solver: the tree, the tables, the regrets and the cumulative strategy.
#[derive(Clone, Debug)]
pub struct SpotSolver {
    spot: Spot,
    tree: SpotTree,
    algorithm: Algorithm,
    tables: Tables,
    regrets: Vec<f32>,
    cum: Vec<f32>,
    pred: Vec<f32>,
    iteration: u64,
    memory: MemoryEstimate,
    locks: Vec<NodeLock>,
    locked: HashMap<u32, LockedNode>,
    /// 16-bit storage (then `regrets`, `cum` and `pred` are empty).
    packed: Option<Packed>,
    /// Whether training walks use suit isomorphism ([`SolveOptions::isomorphism`]).
    isomorphism: bool,
    /// The mirror nodes' own slots are out of date (training ran with isomorphism since
    /// they were last filled): every read of a mirror goes to its representative.
    stale: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// Update the traverser's regrets and average at iteration `t`.
    Train(u64),
    /// Both play their average strategy.
    Average,
    /// The traverser best-responds to the other's average strategy.
    Best,
}

/// A subtree's slice of the solver's arrays: f32 (`r`, `c`, `q`) or, with 16-bit storage,
/// the packed values (`r16`, `c16`, `q16`); the others are empty.
struct Store<'a> {
    r: &'a mut [f32],
    c: &'a mut [f32],
    q: &'a mut [f32],
    r16: &'a mut [i16],
    c16: &'a mut [u16],
    q16: &'a mut [i16],
}

/// Splits `s` at `mid`, or gives two empty slices when `s` is empty (an array not in use).
fn split_opt<T>(s: &mut [T], mid: usize) -> (&mut [T], &mut [T]) {
    if s.is_empty() {
        (Default::default(), Default::default())
    } else {
        s.split_at_mut(mid)
    }
}

impl<'a> Store<'a> {
    fn split(self, mid: usize) -> (Store<'a>, Store<'a>) {
        let (r0, r1) = split_opt(self.r, mid);
        let (c0, c1) = split_opt(self.c, mid);
        let (q0, q1) = split_opt(self.q, mid);
        let (r160, r161) = split_opt(self.r16, mid);
        let (c160, c161) = split_opt(self.c16, mid);
        let (q160, q161) = split_opt(self.q16, mid);
        (
            Store {
                r: r0,
                c: c0,
                q: q0,
                r16: r160,
                c16: c160,
                q16: q160,
            },
            Store {
                r: r1,
                c: c1,
                q: q1,
                r16: r161,
                c16: c161,
                q16: q161,
            },
        )
    }
}

/// 16-bit storage ([`SolveOptions::compress`]): each decision node's block of regrets,
/// cumulative strategy and prediction is kept as 16-bit integers scaled by the block's
/// largest magnitude (one f32 scale per block and array), decoded to f32 when the node is
/// visited and encoded again after its update.
#[derive(Debug, Default)]
struct Packed {
    r: Vec<i16>,
    c: Vec<u16>,
    q: Vec<i16>,
    /// Per decision node (in [`Packed::index`] order) and array: the scale, as f32 bits
    /// (each node reads and writes only its own, from whichever thread walks it).
    scales: Vec<AtomicU32>,
    /// Each node's decision ordinal (`u32::MAX` for other nodes).
    index: Vec<u32>,
}

impl Clone for Packed {
    fn clone(&self) -> Packed {
        Packed {
            r: self.r.clone(),
            c: self.c.clone(),
            q: self.q.clone(),
            scales: self
                .scales
                .iter()
                .map(|x| AtomicU32::new(x.load(Ordering::Relaxed)))
                .collect(),
            index: self.index.clone(),
        }
    }
}

impl Packed {
    fn scale(&self, node: usize, array: usize) -> f32 {
        f32::from_bits(self.scales[self.index[node] as usize * 3 + array].load(Ordering::Relaxed))
    }
}

/// The scales of [`Packed`], read-only, for a pass (the arrays themselves go by [`Store`]).
#[derive(Clone, Copy)]
struct Scales<'a> {
    scales: &'a [AtomicU32],
    index: &'a [u32],
}

impl Scales<'_> {
    fn get(&self, node: usize, array: usize) -> f32 {
        f32::from_bits(self.scales[self.index[node] as usize * 3 + array].load(Ordering::Relaxed))
    }

    fn set(&self, node: usize, array: usize, x: f32) {
        self.scales[self.index[node] as usize * 3 + array].store(x.to_bits(), Ordering::Relaxed)
    }
}

/// `dst = src · scale` (16-bit words, signed or not, to f32).
fn decode<T: Copy + Into<f32>>(src: &[T], scale: f32, dst: &mut [f32]) {
    for (d, &x) in dst.iter_mut().zip(src) {
        *d = x.into() * scale;
    }
}

/// Encodes `src` into `dst` by the largest magnitude (±32,767); returns the scale.
fn encode_i16(src: &[f32], dst: &mut [i16]) -> f32 {
    let m = src.iter().fold(0f32, |m, x| m.max(x.abs()));
    if !(m > 0.0 && m.is_finite()) {
        dst.fill(0);
        return 0.0;
    }
    let inv = 32767.0 / m;
    for (d, &x) in dst.iter_mut().zip(src) {
        *d = (x * inv).round() as i16;
    }
    m / 32767.0
}

/// Encodes non-negative `src` into `dst` by the largest value (65,535); returns the scale.
fn encode_u16(src: &[f32], dst: &mut [u16]) -> f32 {
    let m = src.iter().fold(0f32, |m, &x| m.max(x));
    if !(m > 0.0 && m.is_finite()) {
        dst.fill(0);
        return 0.0;
    }
    let inv = 65535.0 / m;
    for (d, &x) in dst.iter_mut().zip(src) {
        *d = (x.max(0.0) * inv).round() as u16;
    }
    m / 65535.0
}

fn alloc(len: u64, what: &'static str) -> Result<Vec<f32>> {
    let mut v = Vec::new();
    let n = usize::try_from(len).map_err(|_| Error::OutOfMemory {
        context: String::new(),
        what,
        bytes: len as u128 * 4,
    })?;
    v.try_reserve_exact(n).map_err(|_| Error::OutOfMemory {
        context: String::new(),
        what,
        bytes: len as u128 * 4,
    })?;
    v.resize(n, 0.0);
    Ok(v)
}

impl SpotSolver {
    /// The tree and the memory a solve of `spot` with `options` would need, without
    /// allocating the solver's arrays (a dry run).
    pub fn plan(spot: &Spot, options: &SolveOptions) -> Result<(SpotTree, MemoryEstimate)> {
        options.check()?;
        let node_bytes = std::mem::size_of::<super::SpotNode>() as u64 + 4;
        let by_memory = (options.max_memory / node_bytes).max(1);
        let max_nodes = options.max_nodes.min(by_memory as usize);
        let tree = SpotTree::build(spot, max_nodes).map_err(|e| {
            if max_nodes < options.max_nodes {
                Error::Invalid {
                    what: "spot",
                    reason: format!(
                        "the tree alone needs more than {} (max memory {}): {e}",
                        crate::core::error::human_bytes(max_nodes as u128 * node_bytes as u128),
                        crate::core::error::human_bytes(options.max_memory as u128)
                    ),
                }
            } else {
                e
            }
        })?;
        let mut memory = tree.memory(options.algorithm.arrays());
        if options.compress {
            // 2 bytes per value, an f32 scale per decision node and array, a u32 index
            // per node.
            memory.storage_bytes = memory.slots * options.algorithm.arrays() * 2
                + memory.decision_nodes * 3 * 4
                + memory.nodes * 4;
            memory.total_bytes = memory.tree_bytes + memory.storage_bytes + memory.showdown_bytes;
        }
        Ok((tree, memory))
    }

    /// A solver for `spot` at iteration 0, refusing a spot that needs more than
    /// `options.max_memory` bytes (the message gives the figure) before allocating.
    pub fn new(spot: &Spot, options: &SolveOptions) -> Result<SpotSolver> {
        let (tree, memory) = SpotSolver::plan(spot, options)?;
        if memory.total_bytes > options.max_memory {
            return Err(Error::Invalid {
                what: "spot",
                reason: format!(
                    "the solve needs {} ({} bytes: {} nodes, {} slots) and the limit is {} \
                     (max memory)",
                    crate::core::error::human_bytes(memory.total_bytes as u128),
                    memory.total_bytes,
                    memory.nodes,
                    memory.slots,
                    crate::core::error::human_bytes(options.max_memory as u128)
                ),
            });
        }
        let tables = Tables::new(spot, &tree);
        let slots = tree.num_slots();
        let pcfr = options.algorithm == Algorithm::PcfrPlus;
        let (regrets, cum, pred, packed) = if options.compress {
            let n = usize::try_from(slots).map_err(|_| Error::OutOfMemory {
                context: String::new(),
                what: "spot 16-bit storage",
                bytes: slots as u128 * 2,
            })?;
            let zeros16 = |len: usize, what: &'static str| -> Result<Vec<u16>> {
                let mut v = Vec::new();
                v.try_reserve_exact(len).map_err(|_| Error::OutOfMemory {
                    context: String::new(),
                    what,
                    bytes: len as u128 * 2,
                })?;
                v.resize(len, 0);
                Ok(v)
            };
            let signed = |v: Vec<u16>| -> Vec<i16> { v.into_iter().map(|x| x as i16).collect() };
            let mut index = vec![u32::MAX; tree.nodes().len()];
            let mut d = 0u32;
            for (i, nd) in tree.nodes().iter().enumerate() {
                if matches!(nd.kind, NodeKind::Decision(_)) {
                    index[i] = d;
                    d += 1;
                }
            }
            let packed = Packed {
                r: signed(zeros16(n, "spot regrets")?),
                c: zeros16(n, "spot cumulative strategy")?,
                q: if pcfr {
                    signed(zeros16(n, "spot predictions")?)
                } else {
                    Vec::new()
                },
                scales: (0..d as usize * 3).map(|_| AtomicU32::new(0)).collect(),
                index,
            };
            (Vec::new(), Vec::new(), Vec::new(), Some(packed))
        } else {
            (
                alloc(slots, "spot regrets")?,
                alloc(slots, "spot cumulative strategy")?,
                if pcfr {
                    alloc(slots, "spot predictions")?
                } else {
                    Vec::new()
                },
                None,
            )
        };
        Ok(SpotSolver {
            spot: spot.clone(),
            algorithm: options.algorithm,
            regrets,
            cum,
            pred,
            tree,
            tables,
            iteration: 0,
            memory,
            locks: Vec::new(),
            locked: HashMap::new(),
            packed,
            isomorphism: options.isomorphism,
            stale: false,
        })
    }

    /// The spot.
    pub fn spot(&self) -> &Spot {
        &self.spot
    }

    /// The public tree.
    pub fn tree(&self) -> &SpotTree {
        &self.tree
    }

    /// The node counts and memory.
    pub fn memory(&self) -> MemoryEstimate {
        self.memory
    }

    /// Iterations run.
    pub fn iterations(&self) -> u64 {
        self.iteration
    }

    /// The algorithm.
    pub fn algorithm(&self) -> Algorithm {
        self.algorithm
    }

    /// Whether the solver keeps 16-bit storage ([`SolveOptions::compress`]).
    pub fn compressed(&self) -> bool {
        self.packed.is_some()
    }

    /// The cumulative strategy of the block of `k × h` slots at decision node `n`, as f32.
    fn cum_block(&self, n: usize, k: usize, h: usize) -> Vec<f32> {
        let n = self.mirror_source(n).map_or(n, |(r, _)| r);
        let start = self.tree.nodes()[n].slot as usize;
        match &self.packed {
            None => self.cum[start..start + k * h].to_vec(),
            Some(pk) => {
                let mut out = vec![0f32; k * h];
                decode(&pk.c[start..start + k * h], pk.scale(n, 1), &mut out);
                out
            }
        }
    }

    /// Replaces the solver's node locks by `locks` (see [`NodeLock`]; an empty slice
    /// unlocks everything). Every lock is checked first (an unknown node or action, a line
    /// ending at a chance or terminal node, a node of the other player than the lock's,
    /// frequencies that are negative or do not sum to 1, hands not in the range): an error
    /// leaves the solver's locks as they were. From then on a locked hand plays its locked
    /// distribution at the node in every training pass, in the average strategy
    /// ([`SpotSolver::average_strategy`], the EVs) and in the best responses, and its
    /// regrets and cumulative strategy there are never updated; the rest is solved
    /// against it. Locks may be set before solving or between two solves (the lock holds
    /// from then on; what the hands did there before is kept, unused, and comes back if the
    /// lock is removed).
    ///
    /// With locks, [`SpotSolver::exploitability`] is the exploitability of the *locked
    /// game*: `(BR₀ + BR₁ − pot) / 2` where `BRₚ` is player `p`'s best response to the
    /// other's average strategy among the strategies that keep `p`'s own locks — for a
    /// player with no lock its ordinary best response (its gain by deviating anywhere),
    /// for a locked player its gain by deviating at its unlocked nodes and hands only.
    /// It is ≥ 0 and 0 exactly at an equilibrium of the locked game, which is what the
    /// solve converges to; it does not count how much a locked strategy itself loses (that
    /// loss is what the lock asks for).
    pub fn set_locks(&mut self, locks: &[NodeLock]) -> Result<()> {
        let locked = lock::resolve(&self.spot, &self.tree, locks)?;
        if !locked.is_empty() {
            // Locks may make the game asymmetric: the mirrors get their own state back.
            self.fill_mirrors();
        }
        self.locks = locks.to_vec();
        self.locked = locked;
        Ok(())
    }

    /// The node locks in force ([`SpotSolver::set_locks`]).
    pub fn locks(&self) -> &[NodeLock] {
        &self.locks
    }

    /// The decision nodes where at least one hand is locked, ascending.
    pub fn locked_nodes(&self) -> Vec<usize> {
        let mut v: Vec<usize> = self.locked.keys().map(|&n| n as usize).collect();
        v.sort_unstable();
        v
    }

    /// The hands (indices into the acting player's [`Spot::hands`]) locked at node `n`,
    /// ascending (empty when none).
    pub fn locked_hands(&self, n: usize) -> &[u32] {
        self.locked.get(&(n as u32)).map_or(&[], |l| &l.hands)
    }

    /// The raw regrets and cumulative strategy of decision node `n`'s block (tests: the
    /// locked slots must never change).
    pub(super) fn raw_block(&self, n: usize) -> (Vec<f32>, Vec<f32>) {
        let node = &self.tree.nodes()[n];
        let k = self.tree.children(n).len();
        let NodeKind::Decision(q) = node.kind else {
            return (Vec::new(), Vec::new());
        };
        let h = self.spot.hands(q as usize).len();
        let mirror = self.mirror_source(n);
        let m = mirror.map_or(n, |(r, _)| r);
        let start = self.tree.nodes()[m].slot as usize;
        let r = start..start + k * h;
        let regrets = match &self.packed {
            None => self.regrets[r].to_vec(),
            Some(pk) => {
                let mut regrets = vec![0f32; k * h];
                decode(&pk.r[r], pk.scale(m, 0), &mut regrets);
                regrets
            }
        };
        // `cum_block` follows the mirror itself.
        let cum = self.cum_block(n, k, h);
        match mirror {
            None => (regrets, cum),
            Some((_, perm)) => {
                let pi = &self.tables.hand_perm[perm as usize][q as usize];
                (
                    permute_block(&regrets, k, h, pi),
                    permute_block(&cum, k, h, pi),
                )
            }
        }
    }

    /// Where node `n`'s slots are read: `Some((representative, permutation))` when `n` is
    /// a mirror whose own slots are out of date, `None` when its own slots hold its state.
    fn mirror_source(&self, n: usize) -> Option<(usize, u8)> {
        if self.stale {
            self.tree.mirror_of(n)
        } else {
            None
        }
    }

    /// Whether training walks use suit isomorphism now ([`SolveOptions::isomorphism`]): asked
    /// for, no node locks, and mirrors in the tree ([`SpotTree::mirrors`]).
    pub fn use_isomorphism(&self) -> bool {
        self.isomorphism && self.locked.is_empty() && self.tree.mirrors() > 0
    }

    /// Fills every mirror decision node's slots from its representative's (hands
    /// permuted), so that they hold the state again and walks without isomorphism (node
    /// locks, [`SolveOptions::isomorphism`] off) can continue from them.
    pub(super) fn fill_mirrors(&mut self) {
        if !self.stale {
            return;
        }
        let SpotSolver {
            tree,
            tables,
            regrets,
            cum,
            pred,
            packed,
            spot,
            ..
        } = self;
        for n in 0..tree.nodes().len() {
            let Some((r, perm)) = tree.mirror_of(n) else {
                continue;
            };
            let NodeKind::Decision(q) = tree.nodes()[n].kind else {
                continue;
            };
            let k = tree.children(n).len();
            let h = spot.hands(q as usize).len();
            let pi = &tables.hand_perm[perm as usize][q as usize];
            let (dst, src) = (tree.nodes()[n].slot as usize, tree.nodes()[r].slot as usize);
            fn copy<T: Copy>(v: &mut [T], dst: usize, src: usize, k: usize, pi: &[u32]) {
                let h = pi.len();
                for a in 0..k {
                    for (i, &j) in pi.iter().enumerate() {
                        v[dst + a * h + i] = v[src + a * h + j as usize];
                    }
                }
            }
            debug_assert_eq!(pi.len(), h);
            match packed {
                None => {
                    for v in [&mut *regrets, &mut *cum, &mut *pred] {
                        if !v.is_empty() {
                            copy(v, dst, src, k, pi);
                        }
                    }
                }
                Some(pk) => {
                    copy(&mut pk.r, dst, src, k, pi);
                    copy(&mut pk.c, dst, src, k, pi);
                    if !pk.q.is_empty() {
                        copy(&mut pk.q, dst, src, k, pi);
                    }
                    let (dn, rn) = (pk.index[n] as usize, pk.index[r] as usize);
                    for a in 0..3 {
                        let x = pk.scales[rn * 3 + a].load(Ordering::Relaxed);
                        pk.scales[dn * 3 + a].store(x, Ordering::Relaxed);
                    }
                }
            }
        }
        self.stale = false;
    }

    /// The context of a walk and the store of the slots `range` (a subtree's).
    fn parts(&mut self, range: std::ops::Range<usize>, iso: bool) -> (Ctx<'_>, Store<'_>) {
        let SpotSolver {
            spot,
            tree,
            algorithm,
            tables,
            regrets,
            cum,
            pred,
            packed,
            locked,
            ..
        } = self;
        fn part<'a, T>(v: &'a mut [T], range: &std::ops::Range<usize>) -> &'a mut [T] {
            if v.is_empty() {
                v
            } else {
                &mut v[range.clone()]
            }
        }
        let (store, scales) = match packed {
            None => (
                Store {
                    r: part(regrets, &range),
                    c: part(cum, &range),
                    q: part(pred, &range),
                    r16: &mut [],
                    c16: &mut [],
                    q16: &mut [],
                },
                None,
            ),
            Some(Packed {
                r,
                c,
                q,
                scales,
                index,
            }) => (
                Store {
                    r: &mut [],
                    c: &mut [],
                    q: &mut [],
                    r16: part(r, &range),
                    c16: part(c, &range),
                    q16: part(q, &range),
                },
                Some(Scales { scales, index }),
            ),
        };
        let ctx = Ctx {
            spot,
            tree,
            tables,
            algorithm: *algorithm,
            locked,
            scales,
            iso,
        };
        (ctx, store)
    }

    fn pass(&mut self, p: usize, mode: Mode) -> Vec<f32> {
        let mut out = vec![0f32; self.spot.hands(p).len()];
        let (wp, wo) = (
            self.spot.weights(p).to_vec(),
            self.spot.weights(1 - p).to_vec(),
        );
        // Training with isomorphism leaves the mirrors out of date; the other walks read
        // their representatives while they are (`fast_exploitability`, the solve's checks)
        // or fill them first (the public EVs and best responses: see `exact`).
        let iso = match mode {
            Mode::Train(_) => {
                let iso = self.use_isomorphism();
                if !iso {
                    self.fill_mirrors();
                }
                self.stale |= iso;
                iso
            }
            _ => self.stale,
        };
        let all = 0..self.tree.num_slots() as usize;
        let (ctx, store) = self.parts(all, iso);
        ctx.walk(0, p, mode, &wp, &wo, store, &mut out);
        out
    }

    /// Runs one iteration (OOP's update, then IP's against it).
    pub fn iterate(&mut self) {
        self.iteration += 1;
        let t = self.iteration;
        for p in 0..2 {
            self.pass(p, Mode::Train(t));
        }
    }

    fn root_value(&self, p: usize, values: &[f32]) -> f64 {
        let w = self.spot.weights(p);
        let total: f64 = w
            .iter()
            .zip(values)
            .map(|(&a, &b)| a as f64 * b as f64)
            .sum();
        total / self.spot.pair_weight()
    }

    /// Fills the mirrors (if out of date), so that the walks that follow go over every card:
    /// a mirror's value is its representative's with the hands permuted only when the reach
    /// into their chance node is symmetric, which in f32 it is up to rounding. The public
    /// EVs, best responses and exploitability are exact for the strategy as read; the
    /// solve's periodic checks read through the mirrors instead (faster; the same to f32
    /// rounding, tested).
    fn exact(&mut self) {
        self.fill_mirrors();
    }

    /// The exploitability as the solve's checks compute it: through the mirrors while they
    /// are out of date (see [`SpotSolver::exploitability`] for the exact figure).
    pub(super) fn fast_exploitability(&mut self) -> f64 {
        let [b0, b1] = self.best_response_passes();
        (b0 + b1 - self.spot.pot() as f64) / 2.0
    }

    /// Both players' best-response values, walked as the mirrors stand (see
    /// [`SpotSolver::best_response_values`]).
    fn best_response_passes(&mut self) -> [f64; 2] {
        let v0 = self.pass(0, Mode::Best);
        let v1 = self.pass(1, Mode::Best);
        [self.root_value(0, &v0), self.root_value(1, &v1)]
    }

    /// Each player's EV in chips when both play the average strategy (they sum to the pot).
    pub fn root_ev(&mut self) -> [f64; 2] {
        self.exact();
        let v0 = self.pass(0, Mode::Average);
        let v1 = self.pass(1, Mode::Average);
        [self.root_value(0, &v0), self.root_value(1, &v1)]
    }

    /// Each player's best-response value in chips against the other's average strategy
    /// (a locked hand keeps its lock: see [`SpotSolver::set_locks`]).
    pub fn best_response_values(&mut self) -> [f64; 2] {
        self.exact();
        self.best_response_passes()
    }

    /// The exploitability of the average strategy in chips: `(BR₀ + BR₁ − pot) / 2` (with
    /// node locks, of the locked game: see [`SpotSolver::set_locks`]).
    pub fn exploitability(&mut self) -> f64 {
        self.exact();
        self.fast_exploitability()
    }

    /// Player `p`'s EV per hand at the root under the average strategy, in chips, given
    /// that it holds the hand (aligned with [`Spot::hands`]; NaN for a hand no opponent
    /// hand can be dealt with).
    pub fn root_hand_ev(&mut self, p: usize) -> Vec<f64> {
        self.exact();
        let v = self.pass(p, Mode::Average);
        let reach = compatible(&self.tables, p, self.spot.weights(1 - p));
        v.iter()
            .zip(&reach)
            .map(|(&x, &a)| if a > 0.0 { x as f64 / a } else { f64::NAN })
            .collect()
    }

    /// The EV in chips of each root action for each hand of the player to act at the root,
    /// when that action is taken and both play the average strategy afterwards: `(player,
    /// evs)` with `evs[action][hand]` (actions in [`SpotTree::children`] order of the root,
    /// hands aligned with [`Spot::hands`]; NaN for a hand no opponent hand can be dealt
    /// with). Weighted by the root's average strategy, a hand's action EVs give its
    /// [`SpotSolver::root_hand_ev`]; the difference between the best and an action's EV is
    /// the EV that action loses. `None` when the root is not a decision (a spot that starts
    /// all-in).
    pub fn root_action_evs(&mut self) -> Option<(usize, Vec<Vec<f64>>)> {
        let root = self.tree.nodes()[0];
        let NodeKind::Decision(q) = root.kind else {
            return None;
        };
        let q = q as usize;
        let reach = compatible(&self.tables, q, self.spot.weights(1 - q));
        let kids = self.tree.children(0).to_vec();
        let n = self.spot.hands(q).len();
        let (wq, wo) = (
            self.spot.weights(q).to_vec(),
            self.spot.weights(1 - q).to_vec(),
        );
        let all = 0..self.tree.num_slots() as usize;
        self.fill_mirrors();
        let (ctx, store) = self.parts(all, false);
        // The root's own block comes first, then each child's subtree in order (the layout
        // `decision` walks).
        let (_, mut rest) = store.split(kids.len() * n);
        let mut evs = Vec::with_capacity(kids.len());
        for &c in &kids {
            let cn = &ctx.tree.nodes()[c as usize];
            let (mine, r) = rest.split((cn.slot_end - cn.slot) as usize);
            rest = r;
            let mut v = vec![0f32; n];
            ctx.walk(c as usize, q, Mode::Average, &wq, &wo, mine, &mut v);
            evs.push(
                v.iter()
                    .zip(&reach)
                    .map(|(&x, &a)| if a > 0.0 { x as f64 / a } else { f64::NAN })
                    .collect(),
            );
        }
        Some((q, evs))
    }

    /// Each player's equity at the root: the share of the pot it wins with the board run
    /// out and no more betting.
    pub fn root_equity(&self) -> [f64; 2] {
        let mut eq = [0.0; 2];
        for (p, e) in eq.iter_mut().enumerate() {
            let v = equity_walk(
                &self.tables,
                self.spot.board_set(),
                p,
                self.spot.weights(1 - p),
            );
            *e = self.root_value(p, &v);
        }
        eq
    }

    /// The average strategy at decision node `n`: `actions × hands` probabilities,
    /// action-major (`[a * hands + h]`), each hand's a distribution (uniform where the
    /// hand never reached the node); `None` if `n` is not a decision node.
    pub fn average_strategy(&self, n: usize) -> Option<Vec<f32>> {
        let node = self.tree.nodes().get(n)?;
        let NodeKind::Decision(q) = node.kind else {
            return None;
        };
        let k = self.tree.children(n).len();
        let h = self.spot.hands(q as usize).len();
        let mut out = vec![0f32; k * h];
        normalize(&self.cum_block(n, k, h), k, h, &mut out);
        if let Some((_, perm)) = self.mirror_source(n) {
            out = permute_block(
                &out,
                k,
                h,
                &self.tables.hand_perm[perm as usize][q as usize],
            );
        }
        if let Some(l) = self.locked.get(&(n as u32)) {
            l.apply(&mut out, k, h);
        }
        Some(out)
    }

    /// Runs iterations until the target, the iteration cap or the time limit (see
    /// [`SolveOptions`]), calling `progress` at each check; `progress` returning `false`
    /// stops the solve. The strategy reached stays in the solver whatever the reason.
    pub fn solve(
        &mut self,
        options: &SolveOptions,
        progress: &mut dyn FnMut(&Progress) -> bool,
    ) -> Result<SpotSolution> {
        self.solve_with_stop(options, &StopFlag::new(), progress)
    }

    /// [`SpotSolver::solve`], also stopping once `stop` is raised (from another thread, a
    /// Ctrl-C handler): the flag is read before every iteration, so the solve ends after
    /// the iteration under way with [`StopReason::Interrupted`], the strategy reached kept
    /// in the solver (saved and continued as after any other stop) and the summary's
    /// exploitability that of the iterations done.
    pub fn solve_with_stop(
        &mut self,
        options: &SolveOptions,
        stop: &StopFlag,
        progress: &mut dyn FnMut(&Progress) -> bool,
    ) -> Result<SpotSolution> {
        options.check()?;
        if options.compress != self.compressed() {
            return Err(Error::Invalid {
                what: "storage",
                reason: format!(
                    "this solver keeps {} storage, and the options ask for {}",
                    if self.compressed() { "16-bit" } else { "f32" },
                    if options.compress { "16-bit" } else { "f32" }
                ),
            });
        }
        if options.algorithm != self.algorithm {
            return Err(Error::Invalid {
                what: "algorithm",
                reason: format!(
                    "this solver runs {}, not {}",
                    self.algorithm.name(),
                    options.algorithm.name()
                ),
            });
        }
        self.isomorphism = options.isomorphism;
        let start = Instant::now();
        let pot = self.spot.pot() as f64;
        let mut history = Vec::new();
        let mut done = 0u64;
        let mut exploit = f64::NAN;
        // Whether `exploit` is that of the strategy as it is now.
        let mut fresh = false;
        let stop = loop {
            if done >= options.max_iterations {
                break StopReason::Iterations;
            }
            if stop.is_stopped() {
                if !fresh {
                    exploit = self.exploitability();
                    history.push((self.iteration, 100.0 * exploit / pot));
                }
                break StopReason::Interrupted;
            }
            self.iterate();
            done += 1;
            fresh = false;
            let secs = start.elapsed().as_secs_f64();
            let timed_out = options.time_limit.is_some_and(|l| secs >= l);
            let last = done >= options.max_iterations;
            if done % options.check_every == 0 || timed_out || last {
                exploit = self.fast_exploitability();
                fresh = true;
                let pct = 100.0 * exploit / pot;
                history.push((self.iteration, pct));
                let go = progress(&Progress {
                    iterations: self.iteration,
                    exploitability_pct: pct,
                    seconds: start.elapsed().as_secs_f64(),
                });
                if options.target_pct > 0.0 && pct <= options.target_pct {
                    break StopReason::Target;
                }
                if !go {
                    break StopReason::Cancelled;
                }
            }
            if timed_out {
                break StopReason::TimeLimit;
            }
        };
        if exploit.is_nan() || self.stale {
            // The summary's figure is exact (the checks may have read through the mirrors).
            exploit = self.exploitability();
        }
        Ok(SpotSolution {
            algorithm: self.algorithm.name(),
            iterations: self.iteration,
            exploitability: exploit,
            exploitability_pct: 100.0 * exploit / pot,
            root_ev: self.root_ev(),
            root_equity: self.root_equity(),
            seconds: start.elapsed().as_secs_f64(),
            memory: self.memory,
            storage: if self.compressed() { "16-bit" } else { "f32" },
            stop,
            history,
            isomorphism: self.use_isomorphism(),
        })
    }
}

impl Tables {
    pub(super) fn new(spot: &Spot, tree: &SpotTree) -> Tables {
        let cards: [Vec<[u8; 2]>; 2] = std::array::from_fn(|p| {
            spot.hands(p)
                .iter()
                .map(|h| {
                    let [a, b] = h.cards();
                    [a.id(), b.id()]
                })
                .collect()
        });
        let same = std::array::from_fn(|p| {
            let other: HashMap<u64, u32> = spot
                .hands(1 - p)
                .iter()
                .enumerate()
                .map(|(i, h)| (h.set().0, i as u32))
                .collect();
            spot.hands(p)
                .iter()
                .map(|h| other.get(&h.set().0).copied().unwrap_or(u32::MAX))
                .collect()
        });
        let by_card = std::array::from_fn(|p| {
            let mut v = vec![Vec::new(); 52];
            for (i, c) in cards[p].iter().enumerate() {
                v[c[0] as usize].push(i as u32);
                v[c[1] as usize].push(i as u32);
            }
            v
        });
        let mut hand_perm: Vec<[Vec<u32>; 2]> = vec![Default::default(); 24];
        for n in 0..tree.nodes().len() {
            if let Some((_, perm)) = tree.mirror_of(n) {
                let slot = &mut hand_perm[perm as usize];
                if slot[0].is_empty() && slot[1].is_empty() {
                    *slot = iso::hand_perm(spot, iso::all_perms()[perm as usize])
                        .expect("the tree mirrors only under permutations the ranges keep");
                }
            }
        }
        let mut t = Tables {
            cards,
            same,
            by_card,
            hand_perm,
            sorted: Vec::new(),
            board_index: HashMap::new(),
        };
        for &b in tree.boards() {
            t.add_board(spot, b);
        }
        t
    }

    fn add_board(&mut self, spot: &Spot, board: CardSet64) {
        let sorted = std::array::from_fn(|p| {
            let mut v: Vec<Ranked> = spot
                .hands(p)
                .iter()
                .enumerate()
                .filter(|(_, h)| (h.set() & board).is_empty())
                .map(|(i, h)| Ranked {
                    rank: rank_of_set(h.set() | board).0,
                    cards: self.cards[p][i],
                    hand: i as u32,
                })
                .collect();
            v.sort_by_key(|r| (r.rank, r.hand));
            v
        });
        self.board_index.insert(board.0, self.sorted.len());
        self.sorted.push(sorted);
    }
}

/// The opponent reach summed over all its hands and per card (each hand counted on both of
/// its cards), in f64: what inclusion–exclusion subtracts.
fn card_sums(t: &Tables, o: usize, reach_o: &[f32]) -> (f64, [f64; 52]) {
    let mut card = [0f64; 52];
    let mut total = 0f64;
    for (c, &r) in t.cards[o].iter().zip(reach_o) {
        let r = r as f64;
        total += r;
        card[c[0] as usize] += r;
        card[c[1] as usize] += r;
    }
    (total, card)
}

/// Hand `h` of `p`'s compatible opponent reach from [`card_sums`].
#[inline(always)]
fn compatible_one(
    t: &Tables,
    p: usize,
    h: usize,
    reach_o: &[f32],
    total: f64,
    card: &[f64; 52],
) -> f64 {
    let c = t.cards[p][h];
    let s = t.same[p][h];
    let back = if s == u32::MAX {
        0.0
    } else {
        reach_o[s as usize] as f64
    };
    total - card[c[0] as usize] - card[c[1] as usize] + back
}

/// Each of `p`'s hands' compatible opponent reach: `Σ reach_o(h')` over the opponent hands
/// `h'` sharing no card with it (inclusion–exclusion over the two cards).
pub(super) fn compatible(t: &Tables, p: usize, reach_o: &[f32]) -> Vec<f64> {
    let (total, card) = card_sums(t, 1 - p, reach_o);
    (0..t.cards[p].len())
        .map(|h| compatible_one(t, p, h, reach_o, total, &card))
        .collect()
}

/// `out[h] = scale · compatible(h)`: a fold node's values, without allocating.
fn fold_values(t: &Tables, p: usize, reach_o: &[f32], scale: f64, out: &mut [f32]) {
    let (total, card) = card_sums(t, 1 - p, reach_o);
    for (h, o) in out.iter_mut().enumerate() {
        *o = (scale * compatible_one(t, p, h, reach_o, total, &card)) as f32;
    }
}

/// For each of `p`'s hands on river board `b`: (opponent reach strictly weaker and
/// compatible, opponent reach weaker or tied and compatible), by the sorted sweep: one
/// pass over both rank orders, a group of `p`'s hands of equal rank at a time (its wins
/// read before the opponent hands of that rank are added, its ties after). Returns the
/// opponent's [`card_sums`].
pub(super) fn sweep(
    t: &Tables,
    b: usize,
    p: usize,
    reach_o: &[f32],
    out: &mut [[f64; 2]],
) -> (f64, [f64; 52]) {
    let o = 1 - p;
    let (sp, so) = (&t.sorted[b][p], &t.sorted[b][o]);
    // 64 entries, indexed by `card & 63`: no bounds check in the loops (cards are < 52).
    let mut card = [0f64; 64];
    let mut total = 0f64;
    let mut j = 0;
    let add = |x: &Ranked, total: &mut f64, card: &mut [f64; 64]| {
        let w = reach_o[x.hand as usize] as f64;
        *total += w;
        card[(x.cards[0] & 63) as usize] += w;
        card[(x.cards[1] & 63) as usize] += w;
    };
    let mut i = 0;
    while i < sp.len() {
        let r = sp[i].rank;
        let mut end = i + 1;
        while end < sp.len() && sp[end].rank == r {
            end += 1;
        }
        while j < so.len() && so[j].rank < r {
            add(&so[j], &mut total, &mut card);
            j += 1;
        }
        for x in &sp[i..end] {
            let [c0, c1] = x.cards;
            out[x.hand as usize][0] = total - card[(c0 & 63) as usize] - card[(c1 & 63) as usize];
        }
        while j < so.len() && so[j].rank == r {
            add(&so[j], &mut total, &mut card);
            j += 1;
        }
        for x in &sp[i..end] {
            let h = x.hand as usize;
            let [c0, c1] = x.cards;
            let s = t.same[p][h];
            let back = if s == u32::MAX {
                0.0
            } else {
                reach_o[s as usize] as f64
            };
            out[h][1] = total - card[(c0 & 63) as usize] - card[(c1 & 63) as usize] + back;
        }
        i = end;
    }
    for x in &so[j..] {
        add(x, &mut total, &mut card);
    }
    let mut c52 = [0f64; 52];
    c52.copy_from_slice(&card[..52]);
    (total, c52)
}

/// A showdown's values: `pot/2 · (wins + wins-or-ties) − spent · compatible` per hand.
fn showdown_values(
    t: &Tables,
    b: usize,
    p: usize,
    reach_o: &[f32],
    pot: f64,
    spent: f64,
    out: &mut [f32],
) {
    let mut s = scratch::Buf::<f64>::zeroed(2 * out.len());
    let pairs: &mut [[f64; 2]] = bytemuck::cast_slice_mut(&mut s[..]);
    let (total, card) = sweep(t, b, p, reach_o, pairs);
    let half = 0.5 * pot;
    for (h, (o, &[w, le])) in out.iter_mut().zip(pairs.iter()).enumerate() {
        let all = compatible_one(t, p, h, reach_o, total, &card);
        *o = (half * (w + le) - spent * all) as f32;
    }
}

/// The number of cards a chance node at `board` may deal given both hands: the divisor of
/// its children's values.
fn chance_divisor(board: CardSet64) -> f32 {
    (52 - board.0.count_ones() - 4) as f32
}

/// `reach` with the hands holding a card set to 0.
fn masked(reach: &[f32], holding: &[u32]) -> scratch::Buf<f32> {
    let mut r = scratch::Buf::from_slice(reach);
    for &h in holding {
        r[h as usize] = 0.0;
    }
    r
}

fn equity_walk(t: &Tables, board: CardSet64, p: usize, reach_o: &[f32]) -> Vec<f32> {
    let n = t.cards[p].len();
    if board.0.count_ones() == 5 {
        let mut s = vec![[0.0, 0.0]; n];
        let b = t.board_index[&board.0];
        sweep(t, b, p, reach_o, &mut s);
        return s.iter().map(|&[w, le]| (0.5 * (w + le)) as f32).collect();
    }
    let cards: Vec<u8> = (0..52u8).filter(|&c| board.0 >> c & 1 == 0).collect();
    let parts: Vec<Vec<f32>> = cards
        .par_iter()
        .map(|&c| {
            let ro = masked(reach_o, &t.by_card[1 - p][c as usize]);
            let mut v = equity_walk(t, CardSet64(board.0 | 1 << c), p, &ro);
            for &h in &t.by_card[p][c as usize] {
                v[h as usize] = 0.0;
            }
            v
        })
        .collect();
    let mut out = vec![0f32; n];
    for v in &parts {
        for (o, x) in out.iter_mut().zip(v) {
            *o += x;
        }
    }
    let d = 1.0 / chance_divisor(board);
    out.iter_mut().for_each(|x| *x *= d);
    out
}

/// A `k × h` action-major block with its hands permuted: `out[a·h + i] = block[a·h + pi[i]]`.
fn permute_block(block: &[f32], k: usize, h: usize, pi: &[u32]) -> Vec<f32> {
    let mut out = vec![0f32; k * h];
    for a in 0..k {
        for (i, &j) in pi.iter().enumerate() {
            out[a * h + i] = block[a * h + j as usize];
        }
    }
    out
}

/// Normalizes `k × n` non-negative weights per hand in place (uniform where a hand's sum
/// is 0).
fn normalize_in_place(w: &mut [f32], k: usize, n: usize) {
    let mut sum = scratch::Buf::<f32>::zeroed(n);
    for a in 0..k {
        for (s, x) in sum.iter_mut().zip(&w[a * n..(a + 1) * n]) {
            *s += x;
        }
    }
    // The reciprocal, or 0 where the sum is 0 (then the uniform fill below).
    let uniform = 1.0 / k as f32;
    for a in 0..k {
        for (x, s) in w[a * n..(a + 1) * n].iter_mut().zip(sum.iter()) {
            *x = if *s > 0.0 { *x / *s } else { uniform };
        }
    }
}

/// Normalizes `k × n` non-negative weights per hand (uniform where a hand's sum is 0).
fn normalize(w: &[f32], k: usize, n: usize, out: &mut [f32]) {
    out[..k * n].copy_from_slice(&w[..k * n]);
    normalize_in_place(&mut out[..k * n], k, n);
}

struct Ctx<'a> {
    spot: &'a Spot,
    tree: &'a SpotTree,
    tables: &'a Tables,
    algorithm: Algorithm,
    locked: &'a HashMap<u32, LockedNode>,
    /// The scales of 16-bit storage (`None`: f32 storage).
    scales: Option<Scales<'a>>,
    /// Chance nodes walk only the representatives and read the mirrors from them.
    iso: bool,
}

impl Ctx<'_> {
    /// The current strategy at a node (regret matching, or matching+ of regrets plus the
    /// prediction).
    fn current(&self, r: &[f32], q: &[f32], k: usize, n: usize, out: &mut [f32]) {
        let r = &r[..k * n];
        if self.algorithm == Algorithm::PcfrPlus {
            let q = &q[..k * n];
            for ((o, x), y) in out.iter_mut().zip(r).zip(q) {
                *o = (x + y).max(0.0);
            }
        } else {
            for (o, x) in out.iter_mut().zip(r) {
                *o = x.max(0.0);
            }
        }
        normalize_in_place(out, k, n);
    }

    #[allow(clippy::too_many_arguments)]
    fn walk(
        &self,
        node: usize,
        p: usize,
        mode: Mode,
        reach_p: &[f32],
        reach_o: &[f32],
        store: Store<'_>,
        out: &mut [f32],
    ) {
        let nd = &self.tree.nodes()[node];
        let pot = self.spot.pot() as f64 + nd.spent[0] as f64 + nd.spent[1] as f64;
        match nd.kind {
            NodeKind::Fold(folder) => {
                let payoff = if folder as usize == p {
                    -(nd.spent[p] as f64)
                } else {
                    pot - nd.spent[p] as f64
                };
                fold_values(self.tables, p, reach_o, payoff, out);
            }
            NodeKind::Showdown => showdown_values(
                self.tables,
                nd.showdown as usize,
                p,
                reach_o,
                pot,
                nd.spent[p] as f64,
                out,
            ),
            NodeKind::Chance => self.chance(node, p, mode, reach_p, reach_o, store, out),
            NodeKind::Decision(q) => {
                self.decision(node, q as usize, p, mode, reach_p, reach_o, store, out)
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn chance(
        &self,
        node: usize,
        p: usize,
        mode: Mode,
        reach_p: &[f32],
        reach_o: &[f32],
        store: Store<'_>,
        out: &mut [f32],
    ) {
        let nodes = self.tree.nodes();
        let kids = self.tree.children(node);
        let mut jobs = Vec::with_capacity(kids.len());
        // Per child: its values' index in `parts` and, for a mirror, its permutation.
        let mut source = Vec::with_capacity(kids.len());
        let mut rest = store;
        for &c in kids {
            let cn = &nodes[c as usize];
            let (mine, r) = rest.split((cn.slot_end - cn.slot) as usize);
            rest = r;
            match self.tree.mirror_of(c as usize).filter(|_| self.iso) {
                Some((r, perm)) => {
                    let j = source
                        .iter()
                        .zip(kids)
                        .find(|&(_, &k)| k as usize == r)
                        .map(|(&(j, _), _)| j)
                        .expect("a mirror's representative is an earlier sibling");
                    source.push((j, Some(perm)));
                }
                None => {
                    source.push((jobs.len(), None));
                    jobs.push((c as usize, mine));
                }
            }
        }
        let o = 1 - p;
        let parts: Vec<Vec<f32>> = jobs
            .into_par_iter()
            .map(|(c, st)| {
                let card = match nodes[c].action {
                    super::Action::Deal(card) => card.id() as usize,
                    _ => unreachable!("a chance node's children are deals"),
                };
                let rp = masked(reach_p, &self.tables.by_card[p][card]);
                let ro = masked(reach_o, &self.tables.by_card[o][card]);
                let mut v = scratch::Buf::<f32>::zeroed(reach_p.len());
                self.walk(c, p, mode, &rp, &ro, st, &mut v);
                for &h in &self.tables.by_card[p][card] {
                    v[h as usize] = 0.0;
                }
                v.into_vec()
            })
            .collect();
        out.fill(0.0);
        for &(j, perm) in &source {
            let v = &parts[j];
            match perm {
                None => {
                    for (o, x) in out.iter_mut().zip(v) {
                        *o += x;
                    }
                }
                Some(perm) => {
                    let pi = &self.tables.hand_perm[perm as usize][p];
                    for (o, &i) in out.iter_mut().zip(pi) {
                        *o += v[i as usize];
                    }
                }
            }
        }
        let d = 1.0 / chance_divisor(nodes[node].board);
        out.iter_mut().for_each(|x| *x *= d);
    }

    #[allow(clippy::too_many_arguments)]
    fn decision(
        &self,
        node: usize,
        q: usize,
        p: usize,
        mode: Mode,
        reach_p: &[f32],
        reach_o: &[f32],
        store: Store<'_>,
        out: &mut [f32],
    ) {
        let nodes = self.tree.nodes();
        let kids = self.tree.children(node);
        let k = kids.len();
        let n = if q == p { reach_p.len() } else { reach_o.len() };
        let (own, mut rest) = store.split(k * n);
        let Store {
            r,
            c,
            q: qv,
            r16,
            c16,
            q16,
        } = own;
        let train = matches!(mode, Mode::Train(_));
        // With 16-bit storage: the node's arrays decoded into scratch vectors.
        let (mut rb, mut cb, mut qb) = (
            scratch::Buf::<f32>::zeroed(0),
            scratch::Buf::<f32>::zeroed(0),
            scratch::Buf::<f32>::zeroed(0),
        );
        let (r, c, qv): (&mut [f32], &mut [f32], &mut [f32]) = match self.scales {
            None => (r, c, qv),
            Some(sc) => {
                if train {
                    rb = scratch::Buf::zeroed(k * n);
                    decode(r16, sc.get(node, 0), &mut rb);
                    if !q16.is_empty() {
                        qb = scratch::Buf::zeroed(k * n);
                        decode(q16, sc.get(node, 2), &mut qb);
                    }
                }
                if !train || q == p {
                    cb = scratch::Buf::zeroed(k * n);
                    decode(c16, sc.get(node, 1), &mut cb);
                }
                (&mut rb, &mut cb, &mut qb)
            }
        };
        let mut strat = scratch::Buf::<f32>::zeroed(k * n);
        match mode {
            Mode::Train(_) => self.current(r, qv, k, n, &mut strat),
            _ => normalize(&c[..k * n], k, n, &mut strat),
        }
        let lock = if self.locked.is_empty() {
            None
        } else {
            self.locked.get(&(node as u32))
        };
        if let Some(l) = lock {
            l.apply(&mut strat, k, n);
        }
        let np = out.len();
        if q != p {
            out.fill(0.0);
            let mut v = scratch::Buf::<f32>::zeroed(np);
            let mut ro = scratch::Buf::<f32>::zeroed(n);
            for (a, &c) in kids.iter().enumerate() {
                let cn = &nodes[c as usize];
                let (st, r) = rest.split((cn.slot_end - cn.slot) as usize);
                rest = r;
                let sa = &strat[a * n..(a + 1) * n];
                for ((x, r), s) in ro.iter_mut().zip(reach_o).zip(sa) {
                    *x = r * s;
                }
                self.walk(c as usize, p, mode, reach_p, &ro, st, &mut v);
                for (o, x) in out.iter_mut().zip(v.iter()) {
                    *o += x;
                }
            }
            return;
        }
        let mut vals = scratch::Buf::<f32>::zeroed(k * np);
        let mut rp = scratch::Buf::<f32>::zeroed(n);
        for (a, &c) in kids.iter().enumerate() {
            let cn = &nodes[c as usize];
            let (st, r) = rest.split((cn.slot_end - cn.slot) as usize);
            rest = r;
            let sa = &strat[a * n..(a + 1) * n];
            for ((x, r), s) in rp.iter_mut().zip(reach_p).zip(sa) {
                *x = r * s;
            }
            self.walk(
                c as usize,
                p,
                mode,
                &rp,
                reach_o,
                st,
                &mut vals[a * np..(a + 1) * np],
            );
        }
        if mode == Mode::Best {
            out.copy_from_slice(&vals[..np]);
            for a in 1..k {
                for (o, x) in out.iter_mut().zip(&vals[a * np..(a + 1) * np]) {
                    *o = o.max(*x);
                }
            }
            // A locked hand does not deviate: its value is its locked mix.
            if let Some(l) = lock {
                for &h in &l.hands {
                    let h = h as usize;
                    out[h] = (0..k).map(|a| strat[a * n + h] * vals[a * np + h]).sum();
                }
            }
            return;
        }
        out.fill(0.0);
        for a in 0..k {
            let sa = &strat[a * n..(a + 1) * n];
            for ((o, x), s) in out.iter_mut().zip(&vals[a * np..(a + 1) * np]).zip(sa) {
                *o += x * s;
            }
        }
        let Mode::Train(t) = mode else {
            return;
        };
        // A locked hand's regrets, average and prediction stay as they are: kept here and
        // put back after the updates (the loops below stay plain slice loops).
        let kept: Vec<(usize, f32, f32, f32)> = match lock {
            None => Vec::new(),
            Some(l) => (0..k)
                .flat_map(|a| l.hands.iter().map(move |&h| a * n + h as usize))
                .map(|i| (i, r[i], c[i], qv.get(i).copied().unwrap_or(0.0)))
                .collect(),
        };
        let tf = t as f64;
        match self.algorithm {
            Algorithm::Dcfr => {
                let prev = tf - 1.0;
                let pos = (prev.powf(1.5) / (prev.powf(1.5) + 1.0)) as f32;
                let neg = 0.5f32;
                for a in 0..k {
                    let row = &mut r[a * n..(a + 1) * n];
                    for ((x, v), o) in row.iter_mut().zip(&vals[a * n..(a + 1) * n]).zip(&*out) {
                        let d = if *x > 0.0 { pos } else { neg };
                        *x = *x * d + (v - o);
                    }
                }
            }
            Algorithm::CfrPlus => {
                for a in 0..k {
                    let row = &mut r[a * n..(a + 1) * n];
                    for ((x, v), o) in row.iter_mut().zip(&vals[a * n..(a + 1) * n]).zip(&*out) {
                        *x = (*x + (v - o)).max(0.0);
                    }
                }
            }
            Algorithm::PcfrPlus => {
                for a in 0..k {
                    let row = &mut r[a * n..(a + 1) * n];
                    let pr = &mut qv[a * n..(a + 1) * n];
                    for (((x, y), v), o) in row
                        .iter_mut()
                        .zip(pr.iter_mut())
                        .zip(&vals[a * n..(a + 1) * n])
                        .zip(&*out)
                    {
                        let inst = v - o;
                        *x = (*x + inst).max(0.0);
                        *y = inst;
                    }
                }
            }
        }
        let g = self.algorithm.gamma();
        let scale = ((tf - 1.0) / tf).powi(g) as f32;
        for a in 0..k {
            let row = &mut c[a * n..(a + 1) * n];
            let sa = &strat[a * n..(a + 1) * n];
            for ((x, s), rp) in row.iter_mut().zip(sa).zip(reach_p) {
                *x = *x * scale + s * rp;
            }
        }
        for (i, ri, ci, qi) in kept {
            r[i] = ri;
            c[i] = ci;
            if let Some(y) = qv.get_mut(i) {
                *y = qi;
            }
        }
        if let Some(sc) = self.scales {
            sc.set(node, 0, encode_i16(r, r16));
            sc.set(node, 1, encode_u16(c, c16));
            if !q16.is_empty() {
                sc.set(node, 2, encode_i16(qv, q16));
            }
        }
    }
}

/// The 16-bit arrays as words and each array's scales per decision node.
pub(super) type PackedState<'a> = ([&'a [u16]; 3], [Vec<f32>; 3]);

/// What the file and report modules (`io.rs`, `report.rs`) read and restore.
impl SpotSolver {
    /// The regrets, the cumulative strategy and the prediction (empty unless PCFR+).
    pub(super) fn state(&self) -> [&[f32]; 3] {
        [&self.regrets, &self.cum, &self.pred]
    }

    /// With 16-bit storage: the regrets, the cumulative strategy and the prediction (empty
    /// unless PCFR+) as 16-bit words, and each array's scales per decision node.
    pub(super) fn packed_state(&self) -> Option<PackedState<'_>> {
        let pk = self.packed.as_ref()?;
        let scales = std::array::from_fn(|a| {
            pk.scales
                .iter()
                .skip(a)
                .step_by(3)
                .map(|x| f32::from_bits(x.load(Ordering::Relaxed)))
                .collect()
        });
        Some((
            [
                bytemuck::cast_slice(&pk.r),
                &pk.c,
                bytemuck::cast_slice(&pk.q),
            ],
            scales,
        ))
    }

    /// The same to overwrite (the words; the scales by [`SpotSolver::set_packed_scales`]).
    pub(super) fn packed_state_mut(&mut self) -> Option<[&mut [u16]; 3]> {
        let pk = self.packed.as_mut()?;
        Some([
            bytemuck::cast_slice_mut(&mut pk.r),
            &mut pk.c,
            bytemuck::cast_slice_mut(&mut pk.q),
        ])
    }

    /// Sets array `a`'s scales per decision node (16-bit storage); `false` if the count
    /// is not the number of decision nodes.
    pub(super) fn set_packed_scales(&mut self, a: usize, scales: &[f32]) -> bool {
        let Some(pk) = self.packed.as_mut() else {
            return false;
        };
        if scales.len() * 3 != pk.scales.len() {
            return false;
        }
        for (i, x) in scales.iter().enumerate() {
            pk.scales[i * 3 + a].store(x.to_bits(), Ordering::Relaxed);
        }
        true
    }

    /// Whether the mirrors' own slots are out of date (what a file saves and restores).
    pub(super) fn mirrors_stale(&self) -> bool {
        self.stale
    }

    /// Restores [`SpotSolver::mirrors_stale`] (a file's), and the isomorphism option.
    pub(super) fn set_mirror_state(&mut self, isomorphism: bool, stale: bool) {
        self.isomorphism = isomorphism;
        self.stale = stale && self.tree.mirrors() > 0;
    }

    /// The same to overwrite, and the iteration count.
    pub(super) fn state_mut(&mut self) -> ([&mut [f32]; 3], &mut u64) {
        (
            [&mut self.regrets, &mut self.cum, &mut self.pred],
            &mut self.iteration,
        )
    }

    /// Player `p`'s counterfactual values per hand at `node` when both play the average
    /// strategy below it, `reach_p` and `reach_o` the two players' reach at the node (hands
    /// meeting the node's board at 0).
    pub(super) fn node_values(
        &mut self,
        node: usize,
        p: usize,
        reach_p: &[f32],
        reach_o: &[f32],
    ) -> Vec<f32> {
        // A mirror's own slots, filled from its representative, are walked like any node.
        self.fill_mirrors();
        let nd = self.tree.nodes()[node];
        let (s, e) = (nd.slot as usize, nd.slot_end as usize);
        let (ctx, store) = self.parts(s..e, false);
        let mut out = vec![0f32; reach_p.len()];
        ctx.walk(node, p, Mode::Average, reach_p, reach_o, store, &mut out);
        out
    }

    /// Player `p`'s equity numerators per hand on `board` (the board run out, no more
    /// betting) against the opponent's reach `reach_o`: divided by
    /// [`SpotSolver::compatible_reach`], each hand's equity.
    pub(super) fn board_equity(&self, board: CardSet64, p: usize, reach_o: &[f32]) -> Vec<f32> {
        equity_walk(&self.tables, board, p, reach_o)
    }

    /// For each of `p`'s hands, the opponent reach sharing no card with it.
    pub(super) fn compatible_reach(&self, p: usize, reach_o: &[f32]) -> Vec<f64> {
        compatible(&self.tables, p, reach_o)
    }
}
