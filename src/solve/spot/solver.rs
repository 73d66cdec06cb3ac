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
use std::time::Instant;

use rayon::prelude::*;

use super::lock::{self, LockedNode, NodeLock};
use super::tree::{MemoryEstimate, NodeKind, SpotTree, DEFAULT_MAX_NODES};
use super::Spot;
use crate::core::{CardSet64, Error, Result, StopFlag};
use crate::poker::rank_of_set;

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
    /// Why it stopped.
    pub stop: StopReason,
    /// The exploitability (% of the pot) at each check: (iterations, %).
    pub history: Vec<(u64, f64)>,
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
    /// Per river board of the tree, per player: hand ranks (0 for a hand meeting the
    /// board) and the hands sorted by rank.
    ranks: Vec<[Vec<u16>; 2]>,
    order: Vec<[Vec<u32>; 2]>,
    board_index: HashMap<u64, usize>,
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

struct Store<'a> {
    r: &'a mut [f32],
    c: &'a mut [f32],
    q: &'a mut [f32],
}

impl<'a> Store<'a> {
    fn split(self, mid: usize) -> (Store<'a>, Store<'a>) {
        let (r0, r1) = self.r.split_at_mut(mid);
        let (c0, c1) = self.c.split_at_mut(mid);
        let (q0, q1) = if self.q.is_empty() {
            (<&mut [f32]>::default(), <&mut [f32]>::default())
        } else {
            self.q.split_at_mut(mid)
        };
        (
            Store {
                r: r0,
                c: c0,
                q: q0,
            },
            Store {
                r: r1,
                c: c1,
                q: q1,
            },
        )
    }
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
        let memory = tree.memory(options.algorithm.arrays());
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
        let pred = if options.algorithm == Algorithm::PcfrPlus {
            alloc(slots, "spot predictions")?
        } else {
            Vec::new()
        };
        Ok(SpotSolver {
            spot: spot.clone(),
            algorithm: options.algorithm,
            regrets: alloc(slots, "spot regrets")?,
            cum: alloc(slots, "spot cumulative strategy")?,
            pred,
            tree,
            tables,
            iteration: 0,
            memory,
            locks: Vec::new(),
            locked: HashMap::new(),
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
        let r = node.slot as usize..node.slot as usize + k * h;
        (self.regrets[r.clone()].to_vec(), self.cum[r].to_vec())
    }

    fn pass(&mut self, p: usize, mode: Mode) -> Vec<f32> {
        let ctx = Ctx {
            spot: &self.spot,
            tree: &self.tree,
            tables: &self.tables,
            algorithm: self.algorithm,
            locked: &self.locked,
        };
        let mut out = vec![0f32; self.spot.hands(p).len()];
        let store = Store {
            r: &mut self.regrets,
            c: &mut self.cum,
            q: &mut self.pred,
        };
        ctx.walk(
            0,
            p,
            mode,
            self.spot.weights(p),
            self.spot.weights(1 - p),
            store,
            &mut out,
        );
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

    /// Each player's EV in chips when both play the average strategy (they sum to the pot).
    pub fn root_ev(&mut self) -> [f64; 2] {
        let v0 = self.pass(0, Mode::Average);
        let v1 = self.pass(1, Mode::Average);
        [self.root_value(0, &v0), self.root_value(1, &v1)]
    }

    /// Each player's best-response value in chips against the other's average strategy
    /// (a locked hand keeps its lock: see [`SpotSolver::set_locks`]).
    pub fn best_response_values(&mut self) -> [f64; 2] {
        let v0 = self.pass(0, Mode::Best);
        let v1 = self.pass(1, Mode::Best);
        [self.root_value(0, &v0), self.root_value(1, &v1)]
    }

    /// The exploitability of the average strategy in chips: `(BR₀ + BR₁ − pot) / 2` (with
    /// node locks, of the locked game: see [`SpotSolver::set_locks`]).
    pub fn exploitability(&mut self) -> f64 {
        let [b0, b1] = self.best_response_values();
        (b0 + b1 - self.spot.pot() as f64) / 2.0
    }

    /// Player `p`'s EV per hand at the root under the average strategy, in chips, given
    /// that it holds the hand (aligned with [`Spot::hands`]; NaN for a hand no opponent
    /// hand can be dealt with).
    pub fn root_hand_ev(&mut self, p: usize) -> Vec<f64> {
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
        let ctx = Ctx {
            spot: &self.spot,
            tree: &self.tree,
            tables: &self.tables,
            algorithm: self.algorithm,
            locked: &self.locked,
        };
        let kids = self.tree.children(0);
        let n = self.spot.hands(q).len();
        let store = Store {
            r: &mut self.regrets,
            c: &mut self.cum,
            q: &mut self.pred,
        };
        // The root's own block comes first, then each child's subtree in order (the layout
        // `decision` walks).
        let (_, mut rest) = store.split(kids.len() * n);
        let mut evs = Vec::with_capacity(kids.len());
        for &c in kids {
            let cn = &self.tree.nodes()[c as usize];
            let (mine, r) = rest.split((cn.slot_end - cn.slot) as usize);
            rest = r;
            let mut v = vec![0f32; n];
            ctx.walk(
                c as usize,
                q,
                Mode::Average,
                self.spot.weights(q),
                self.spot.weights(1 - q),
                mine,
                &mut v,
            );
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
        let start = node.slot as usize;
        let mut out = vec![0f32; k * h];
        normalize(&self.cum[start..start + k * h], k, h, &mut out);
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
                exploit = self.exploitability();
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
        if exploit.is_nan() {
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
            stop,
            history,
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
        let mut t = Tables {
            cards,
            same,
            by_card,
            ranks: Vec::new(),
            order: Vec::new(),
            board_index: HashMap::new(),
        };
        for &b in tree.boards() {
            t.add_board(spot, b);
        }
        t
    }

    fn add_board(&mut self, spot: &Spot, board: CardSet64) {
        let mut ranks: [Vec<u16>; 2] = [Vec::new(), Vec::new()];
        let mut order: [Vec<u32>; 2] = [Vec::new(), Vec::new()];
        for p in 0..2 {
            ranks[p] = spot
                .hands(p)
                .iter()
                .map(|h| {
                    if (h.set() & board).is_empty() {
                        rank_of_set(h.set() | board).0
                    } else {
                        0
                    }
                })
                .collect();
            let mut o: Vec<u32> = (0..ranks[p].len() as u32).collect();
            o.sort_by_key(|&i| (ranks[p][i as usize], i));
            order[p] = o;
        }
        self.board_index.insert(board.0, self.ranks.len());
        self.ranks.push(ranks);
        self.order.push(order);
    }
}

/// Each of `p`'s hands' compatible opponent reach: `Σ reach_o(h')` over the opponent hands
/// `h'` sharing no card with it (inclusion–exclusion over the two cards).
pub(super) fn compatible(t: &Tables, p: usize, reach_o: &[f32]) -> Vec<f64> {
    let o = 1 - p;
    let mut card = [0f64; 52];
    let mut total = 0f64;
    for (c, &r) in t.cards[o].iter().zip(reach_o) {
        let r = r as f64;
        total += r;
        card[c[0] as usize] += r;
        card[c[1] as usize] += r;
    }
    t.cards[p]
        .iter()
        .zip(&t.same[p])
        .map(|(c, &s)| {
            let back = if s == u32::MAX {
                0.0
            } else {
                reach_o[s as usize] as f64
            };
            total - card[c[0] as usize] - card[c[1] as usize] + back
        })
        .collect()
}

/// For each of `p`'s hands on river board `b`: (opponent reach strictly weaker and
/// compatible, opponent reach weaker or tied and compatible), by the sorted sweep.
pub(super) fn sweep(t: &Tables, b: usize, p: usize, reach_o: &[f32], out: &mut [(f64, f64)]) {
    let o = 1 - p;
    let (rp, ro) = (&t.ranks[b][p], &t.ranks[b][o]);
    let (op, oo) = (&t.order[b][p], &t.order[b][o]);
    for pass in 0..2 {
        let mut card = [0f64; 52];
        let mut total = 0f64;
        let mut j = 0;
        for &h in op {
            let h = h as usize;
            let r = rp[h];
            while j < oo.len() {
                let x = oo[j] as usize;
                let rx = ro[x];
                if rx < r || (pass == 1 && rx == r) {
                    let w = reach_o[x] as f64;
                    total += w;
                    let c = t.cards[o][x];
                    card[c[0] as usize] += w;
                    card[c[1] as usize] += w;
                    j += 1;
                } else {
                    break;
                }
            }
            let c = t.cards[p][h];
            let mut v = total - card[c[0] as usize] - card[c[1] as usize];
            if pass == 1 {
                let s = t.same[p][h];
                if s != u32::MAX {
                    v += reach_o[s as usize] as f64;
                }
                out[h].1 = v;
            } else {
                out[h].0 = v;
            }
        }
    }
}

/// The number of cards a chance node at `board` may deal given both hands: the divisor of
/// its children's values.
fn chance_divisor(board: CardSet64) -> f32 {
    (52 - board.0.count_ones() - 4) as f32
}

fn masked(reach: &[f32], holding: &[u32]) -> Vec<f32> {
    let mut r = reach.to_vec();
    for &h in holding {
        r[h as usize] = 0.0;
    }
    r
}

fn equity_walk(t: &Tables, board: CardSet64, p: usize, reach_o: &[f32]) -> Vec<f32> {
    let n = t.cards[p].len();
    if board.0.count_ones() == 5 {
        let mut s = vec![(0.0, 0.0); n];
        let b = t.board_index[&board.0];
        sweep(t, b, p, reach_o, &mut s);
        return s.iter().map(|&(w, le)| (0.5 * (w + le)) as f32).collect();
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

/// Normalizes `k × n` non-negative weights per hand (uniform where a hand's sum is 0).
fn normalize(w: &[f32], k: usize, n: usize, out: &mut [f32]) {
    let mut sum = vec![0f32; n];
    for a in 0..k {
        for (s, x) in sum.iter_mut().zip(&w[a * n..(a + 1) * n]) {
            *s += x;
        }
    }
    let uniform = 1.0 / k as f32;
    for a in 0..k {
        let row = &w[a * n..(a + 1) * n];
        for ((o, x), s) in out[a * n..(a + 1) * n].iter_mut().zip(row).zip(&sum) {
            *o = if *s > 0.0 { x / s } else { uniform };
        }
    }
}

struct Ctx<'a> {
    spot: &'a Spot,
    tree: &'a SpotTree,
    tables: &'a Tables,
    algorithm: Algorithm,
    locked: &'a HashMap<u32, LockedNode>,
}

impl Ctx<'_> {
    /// The current strategy at a node (regret matching, or matching+ of regrets plus the
    /// prediction).
    fn current(&self, store: &Store<'_>, k: usize, n: usize, out: &mut [f32]) {
        let r = &store.r[..k * n];
        if self.algorithm == Algorithm::PcfrPlus {
            let q = &store.q[..k * n];
            for ((o, x), y) in out.iter_mut().zip(r).zip(q) {
                *o = (x + y).max(0.0);
            }
        } else {
            for (o, x) in out.iter_mut().zip(r) {
                *o = x.max(0.0);
            }
        }
        let w = out.to_vec();
        normalize(&w, k, n, out);
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
                let a = compatible(self.tables, p, reach_o);
                for (o, x) in out.iter_mut().zip(&a) {
                    *o = (payoff * x) as f32;
                }
            }
            NodeKind::Showdown => {
                let n = out.len();
                let mut s = vec![(0.0, 0.0); n];
                sweep(self.tables, nd.showdown as usize, p, reach_o, &mut s);
                let a = compatible(self.tables, p, reach_o);
                let spent = nd.spent[p] as f64;
                for ((o, &(w, le)), &all) in out.iter_mut().zip(&s).zip(&a) {
                    *o = (0.5 * pot * (w + le) - spent * all) as f32;
                }
            }
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
        let mut rest = store;
        for &c in kids {
            let cn = &nodes[c as usize];
            let (mine, r) = rest.split((cn.slot_end - cn.slot) as usize);
            rest = r;
            jobs.push((c as usize, mine));
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
                let mut v = vec![0f32; reach_p.len()];
                self.walk(c, p, mode, &rp, &ro, st, &mut v);
                for &h in &self.tables.by_card[p][card] {
                    v[h as usize] = 0.0;
                }
                v
            })
            .collect();
        out.fill(0.0);
        for v in &parts {
            for (o, x) in out.iter_mut().zip(v) {
                *o += x;
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
        let mut strat = vec![0f32; k * n];
        match mode {
            Mode::Train(_) => self.current(&own, k, n, &mut strat),
            _ => normalize(&own.c[..k * n], k, n, &mut strat),
        }
        let lock = if self.locked.is_empty() {
            None
        } else {
            self.locked.get(&(node as u32))
        };
        if let Some(l) = lock {
            l.apply(&mut strat, k, n);
        }
        let mut child_stores = Vec::with_capacity(k);
        for &c in kids {
            let cn = &nodes[c as usize];
            let (mine, r) = rest.split((cn.slot_end - cn.slot) as usize);
            rest = r;
            child_stores.push(mine);
        }
        let np = out.len();
        if q != p {
            out.fill(0.0);
            let mut v = vec![0f32; np];
            for (a, (&c, st)) in kids.iter().zip(child_stores).enumerate() {
                let sa = &strat[a * n..(a + 1) * n];
                let ro: Vec<f32> = reach_o.iter().zip(sa).map(|(r, s)| r * s).collect();
                self.walk(c as usize, p, mode, reach_p, &ro, st, &mut v);
                for (o, x) in out.iter_mut().zip(&v) {
                    *o += x;
                }
            }
            return;
        }
        let mut vals = vec![0f32; k * np];
        for (a, (&c, st)) in kids.iter().zip(child_stores).enumerate() {
            let sa = &strat[a * n..(a + 1) * n];
            let rp: Vec<f32> = reach_p.iter().zip(sa).map(|(r, s)| r * s).collect();
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
        let (r, c, qv) = (own.r, own.c, own.q);
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
    }
}

/// What the file and report modules (`io.rs`, `report.rs`) read and restore.
impl SpotSolver {
    /// The regrets, the cumulative strategy and the prediction (empty unless PCFR+).
    pub(super) fn state(&self) -> [&[f32]; 3] {
        [&self.regrets, &self.cum, &self.pred]
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
        let nd = self.tree.nodes()[node];
        let (s, e) = (nd.slot as usize, nd.slot_end as usize);
        let ctx = Ctx {
            spot: &self.spot,
            tree: &self.tree,
            tables: &self.tables,
            algorithm: self.algorithm,
            locked: &self.locked,
        };
        let store = Store {
            r: &mut self.regrets[s..e],
            c: &mut self.cum[s..e],
            q: if self.pred.is_empty() {
                &mut []
            } else {
                &mut self.pred[s..e]
            },
        };
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
