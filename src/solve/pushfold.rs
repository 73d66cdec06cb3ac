//! Heads-up push/fold no-limit hold'em, solved by CFR+ on the exact preflop equity table
//! ([`crate::poker::preflop::EquityTable`]).
//!
//! # The game
//!
//! Both players start with `depth` big blinds (the blinds included). The small blind posts
//! 0.5, the big blind 1; each is dealt two cards. The small blind shoves (bets its whole
//! stack) or folds (losing 0.5); facing a shove the big blind calls (the five board cards
//! are dealt and the better hand takes the pot of `2 × depth`, a tie splits it) or folds
//! (losing 1). In big blinds for the small blind, with `e` its all-in equity:
//! fold `-0.5`; shove, fold `+1`; shove, call `depth × (2e - 1)`.
//!
//! A strategy is a probability per hand class (the 169 classes of
//! [`crate::poker::preflop`], in their index order): `push[a]` for the small blind holding
//! `a`, `call[b]` for the big blind holding `b`. The deal of classes `(a, b)` has
//! probability [`EquityTable::pair_weight`] (card removal exact: disjoint hole pairs out of
//! 1,326 × 1,225) and the showdown the exact equity of the table, so values and
//! exploitability are exact (up to floating-point rounding).
//!
//! # The solver
//!
//! CFR+ vectorized over the 169 classes of each player: regret matching+, alternating
//! updates (the small blind, then the big blind against the small blind's new strategy),
//! the average strategy weighted by the iteration number (linear averaging, as CFR+ does).
//! [`PushFoldOptions::algorithm`] chooses DCFR or PCFR+ instead, defined as the generic
//! solvers define them ([`crate::solve::cfr`]): DCFR (alpha 1.5, beta 0, gamma 2) keeps
//! plain regrets, multiplied after each player's update by `t^1.5 / (t^1.5 + 1)` when
//! non-negative and by 1/2 when negative, the average weighted by `t^2`; PCFR+ keeps
//! regrets+ and plays regret matching on the predicted regrets (cumulative plus the last
//! instantaneous), the average weighted by `t^2`.
//! After every iteration the exact best response to each average strategy gives the
//! exploitability, NashConv / 2 in big blinds per hand; the solver stops at the first
//! iteration where it is below the target.
//!
//! # Stopping, saving, resuming
//!
//! [`PushFoldGame::solve_from`] runs from a [`PushFoldState`] (the regrets, PCFR+'s
//! predictions, the summed strategies and their weights) and leaves the state reached in it:
//! a time limit ([`PushFoldOptions::time_limit`]) or a stop request (a
//! [`crate::core::StopFlag`] raised by Ctrl-C) ends the solve after the iteration under way
//! with the average strategies reached ([`PushFoldStop`]), and N iterations then M more
//! from the state give the same bits as N + M at once. [`save_states`] and [`load_states`]
//! keep the states of one or more depths in a run file (the framed format of the other
//! solvers' files, `src/solve/frame.rs`).
//!
//! ```
//! use cardvec::solve::pushfold::{solve_pushfold, PushFoldOptions};
//! let s = solve_pushfold(10.0, &PushFoldOptions::default()).unwrap();
//! assert!(s.exploitability < 1e-3);
//! assert!(s.push[0] > 0.99); // AA shoves
//! assert!(solve_pushfold(0.25, &PushFoldOptions::default()).is_err());
//! ```

use std::io::{Read, Write};
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::frame::{self, Format, FrameReader, FrameWriter};
use crate::core::{Error, Result};
use crate::poker::preflop::{EquityTable, HandClass, CLASSES};

/// The regret-minimization variant of the push/fold solver.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PushFoldAlgorithm {
    /// CFR+ (the default): regret matching+, linear averaging.
    #[default]
    CfrPlus,
    /// Discounted CFR (alpha 1.5, beta 0, gamma 2).
    Dcfr,
    /// Predictive CFR+ (quadratic averaging).
    PcfrPlus,
}

impl PushFoldAlgorithm {
    /// Every variant.
    pub const ALL: [PushFoldAlgorithm; 3] = [
        PushFoldAlgorithm::CfrPlus,
        PushFoldAlgorithm::Dcfr,
        PushFoldAlgorithm::PcfrPlus,
    ];

    /// `cfr+`, `dcfr` or `pcfr+`.
    pub fn name(self) -> &'static str {
        match self {
            PushFoldAlgorithm::CfrPlus => "cfr+",
            PushFoldAlgorithm::Dcfr => "dcfr",
            PushFoldAlgorithm::PcfrPlus => "pcfr+",
        }
    }

    /// The variant named `name` (an unknown name is an error listing the names).
    pub fn parse(name: &str) -> Result<PushFoldAlgorithm> {
        PushFoldAlgorithm::ALL
            .into_iter()
            .find(|a| a.name() == name)
            .ok_or_else(|| Error::Unknown {
                what: "algorithm",
                name: name.to_string(),
                expected: PushFoldAlgorithm::ALL.map(|a| a.name()).join(", "),
            })
    }

    /// The weight of iteration `t` in the average.
    fn weight(self, t: f64) -> f64 {
        match self {
            PushFoldAlgorithm::CfrPlus => t,
            PushFoldAlgorithm::Dcfr | PushFoldAlgorithm::PcfrPlus => t * t,
        }
    }

    /// The probability of the first of two actions, from their regrets and predictions.
    fn strategy(self, r: (f64, f64), m: (f64, f64)) -> f64 {
        match self {
            PushFoldAlgorithm::CfrPlus => regret_match(r.0, r.1),
            PushFoldAlgorithm::Dcfr => regret_match(r.0.max(0.0), r.1.max(0.0)),
            PushFoldAlgorithm::PcfrPlus => regret_match((r.0 + m.0).max(0.0), (r.1 + m.1).max(0.0)),
        }
    }

    /// Adds the instantaneous regret of iteration `t`, the action's value `v` less the
    /// node's `ev`, to `r` (and to its prediction `m`), in CFR+'s order of operations.
    fn update(self, t: f64, r: &mut f64, m: &mut f64, v: f64, ev: f64) {
        match self {
            PushFoldAlgorithm::CfrPlus => *r = (*r + v - ev).max(0.0),
            PushFoldAlgorithm::Dcfr => {
                *r = *r + v - ev;
                let ta = t.powf(1.5);
                *r *= if *r >= 0.0 { ta / (ta + 1.0) } else { 0.5 };
            }
            PushFoldAlgorithm::PcfrPlus => {
                *r = (*r + v - ev).max(0.0);
                *m = v - ev;
            }
        }
    }
}

/// The solver's options.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PushFoldOptions {
    /// Stop once the exploitability of the average strategies is below this (big blinds per
    /// hand; finite and > 0). Default 0.001.
    pub target: f64,
    /// Stop after this many iterations at most (1..=10,000,000). Default 1,000,000.
    pub max_iterations: u64,
    /// The variant. Default CFR+.
    pub algorithm: PushFoldAlgorithm,
    /// Stop after this many seconds (wall time; finite and > 0), keeping the strategies
    /// reached ([`PushFoldStop::TimeLimit`]). Default none.
    pub time_limit: Option<f64>,
}

impl Default for PushFoldOptions {
    fn default() -> PushFoldOptions {
        PushFoldOptions {
            target: 1e-3,
            max_iterations: 1_000_000,
            algorithm: PushFoldAlgorithm::CfrPlus,
            time_limit: None,
        }
    }
}

/// Why a solve stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PushFoldStop {
    /// The exploitability fell below the target.
    Target,
    /// `max_iterations` ran.
    Iterations,
    /// The time limit passed.
    TimeLimit,
    /// The caller asked it to stop ([`crate::core::Progress::should_stop`]: Ctrl-C).
    Interrupted,
}

impl PushFoldStop {
    /// `target`, `iterations`, `time-limit` or `interrupted`.
    pub fn name(self) -> &'static str {
        match self {
            PushFoldStop::Target => "target",
            PushFoldStop::Iterations => "iterations",
            PushFoldStop::TimeLimit => "time-limit",
            PushFoldStop::Interrupted => "interrupted",
        }
    }
}

/// Largest `max_iterations`.
pub const MAX_ITERATIONS: u64 = 10_000_000;
/// Largest stack depth accepted, in big blinds.
pub const MAX_DEPTH_BB: f64 = 1_000_000.0;

/// An (approximate) equilibrium of the push/fold game at one depth.
#[derive(Clone, Debug, PartialEq)]
pub struct PushFoldSolution {
    /// The stack depth in big blinds.
    pub depth_bb: f64,
    /// The small blind's probability of shoving, per hand class.
    pub push: [f64; CLASSES],
    /// The big blind's probability of calling a shove, per hand class.
    pub call: [f64; CLASSES],
    /// NashConv / 2 of (`push`, `call`), in big blinds per hand.
    pub exploitability: f64,
    /// The small blind's expected result under (`push`, `call`), in big blinds per hand.
    pub sb_value: f64,
    /// Iterations run in all (a resumed state's included).
    pub iterations: u64,
    /// The iterations the state had when this solve started (0 for a fresh solve).
    pub resumed_from: u64,
    /// Whether `exploitability` is below the target (false: stopped before it).
    pub converged: bool,
    /// Why the solve stopped.
    pub stop: PushFoldStop,
}

/// The solver's arrays in a [`PushFoldState`]: the regrets of (push, fold), (call, fold),
/// their predictions (PCFR+'s last instantaneous regrets), the summed push and call
/// strategies.
const ARRAYS: usize = 10;

/// A push/fold solve at one depth as it stopped, to continue exactly
/// ([`PushFoldGame::solve_from`]) in this process or from a run file ([`save_states`],
/// [`load_states`]).
#[derive(Clone, Debug, PartialEq)]
pub struct PushFoldState {
    depth_bb: f64,
    algorithm: PushFoldAlgorithm,
    table_checksum: u64,
    iterations: u64,
    /// The sum of the iterations' weights in the average.
    weights: f64,
    arrays: Box<[[f64; CLASSES]; ARRAYS]>,
}

impl PushFoldState {
    /// The stack depth in big blinds.
    pub fn depth_bb(&self) -> f64 {
        self.depth_bb
    }

    /// The variant the state belongs to.
    pub fn algorithm(&self) -> PushFoldAlgorithm {
        self.algorithm
    }

    /// The iterations done.
    pub fn iterations(&self) -> u64 {
        self.iterations
    }

    /// The checksum of the equity table it was solved on ([`EquityTable::checksum`]).
    pub fn table_checksum(&self) -> u64 {
        self.table_checksum
    }

    /// Refuses a state of another game or variant than `game` and `algorithm`.
    fn check_fits(&self, game: &PushFoldGame, algorithm: PushFoldAlgorithm) -> Result<()> {
        let bad = |reason: String| {
            Err(Error::Invalid {
                what: "push/fold state",
                reason,
            })
        };
        if self.depth_bb.to_bits() != game.depth_bb.to_bits() {
            return bad(format!(
                "the state is of depth {} BB, not of the game's {} BB",
                self.depth_bb, game.depth_bb
            ));
        }
        if self.algorithm != algorithm {
            return bad(format!(
                "the state was solved with {}, not {}: a resumed solve keeps its algorithm",
                self.algorithm.name(),
                algorithm.name()
            ));
        }
        if self.table_checksum != game.table_checksum {
            return bad(format!(
                "the state was solved on the equity table fnv1a64:{:016x}, not on this game's \
                 fnv1a64:{:016x}",
                self.table_checksum, game.table_checksum
            ));
        }
        Ok(())
    }
}

/// The first 8 bytes of a push/fold run file.
pub const RUN_FILE_MAGIC: [u8; 8] = *b"\x89CVPUSH\n";
/// The push/fold run file format version this cardvec writes and reads.
pub const RUN_FILE_VERSION: u32 = 1;
/// The most depths a run file holds.
pub const MAX_STATES: usize = 100_000;

const FORMAT: Format = Format {
    what: "push/fold run file",
    magic: RUN_FILE_MAGIC,
    version: RUN_FILE_VERSION,
    oldest_version: RUN_FILE_VERSION,
    not_this: "not a cardvec push/fold run file (it does not start with its magic; save one \
               with `cardvec pushfold --save` or cardvec.pushfold.solve(..., save=...))",
    other_version: "solve the depths again with this version",
    max_meta: 1 << 24,
};

#[derive(Serialize, Deserialize)]
struct StateMeta {
    depth_bb: f64,
    algorithm: String,
    table_checksum: u64,
    iterations: u64,
    weights: f64,
}

#[derive(Serialize, Deserialize)]
struct FileMeta {
    cardvec_version: String,
    states: Vec<StateMeta>,
}

/// Writes `states` (at most [`MAX_STATES`], distinct depths) to `w` in the push/fold run
/// file format: the framed format of the solvers' files (`src/solve/frame.rs`: magic
/// `\x89CVPUSH\n`, version, one zstd frame with its checksum) holding the metadata (the
/// cardvec version; per state its depth, algorithm, equity table checksum, iterations and
/// summed weights) and each state's ten arrays of 169 `f64`s (every bit kept).
pub fn write_states(w: impl Write, states: &[PushFoldState]) -> Result<()> {
    check_states(states)?;
    let meta = FileMeta {
        cardvec_version: env!("CARGO_PKG_VERSION").into(),
        states: states
            .iter()
            .map(|s| StateMeta {
                depth_bb: s.depth_bb,
                algorithm: s.algorithm.name().into(),
                table_checksum: s.table_checksum,
                iterations: s.iterations,
                weights: s.weights,
            })
            .collect(),
    };
    let meta = postcard::to_stdvec(&meta).map_err(|e| Error::Invalid {
        what: FORMAT.what,
        reason: format!("the metadata could not be written: {e}"),
    })?;
    let mut frame = FrameWriter::new(w, &FORMAT, &meta)?;
    for s in states {
        for a in s.arrays.iter() {
            frame.f64s(a)?;
        }
    }
    frame.finish()
}

fn check_states(states: &[PushFoldState]) -> Result<()> {
    Error::check_range("push/fold states", 0, MAX_STATES, states.len())?;
    for (i, s) in states.iter().enumerate() {
        if states[..i]
            .iter()
            .any(|o| o.depth_bb.to_bits() == s.depth_bb.to_bits())
        {
            return Err(Error::Invalid {
                what: "push/fold states",
                reason: format!("depth {} BB appears twice", s.depth_bb),
            });
        }
    }
    Ok(())
}

/// Reads states written by [`write_states`]. Errors: not a push/fold run file (the magic;
/// a run file of `cardvec solve` or a spot file included), another format version, a
/// truncated or corrupt file (hash, metadata, checksum, trailing bytes, an unknown
/// algorithm, a bad depth, a repeated depth, a value that is not finite or out of its
/// range).
pub fn read_states(r: impl Read) -> Result<Vec<PushFoldState>> {
    let (_, meta, mut z) = FrameReader::open(r, &FORMAT)?;
    let meta: FileMeta =
        postcard::from_bytes(&meta).map_err(|e| FORMAT.corrupt(format!("metadata: {e}")))?;
    if meta.states.len() > MAX_STATES {
        return Err(FORMAT.corrupt(format!("{} states", meta.states.len())));
    }
    let mut states = Vec::with_capacity(meta.states.len());
    for m in meta.states {
        let algorithm = PushFoldAlgorithm::parse(&m.algorithm)
            .map_err(|_| FORMAT.corrupt(format!("unknown algorithm {:?}", m.algorithm)))?;
        check_depth(m.depth_bb).map_err(|e| FORMAT.corrupt(e))?;
        if m.iterations > u64::MAX / 2
            || !(m.weights.is_finite() && m.weights >= 0.0)
            || (m.iterations == 0) != (m.weights == 0.0)
        {
            return Err(FORMAT.corrupt(format!(
                "{} iterations with summed weights {} at depth {}",
                m.iterations, m.weights, m.depth_bb
            )));
        }
        let mut arrays = Box::new([[0.0; CLASSES]; ARRAYS]);
        for (k, a) in arrays.iter_mut().enumerate() {
            z.f64s(a)?;
            // Summed strategies are >= 0; every value is finite.
            if let Some(x) = a.iter().find(|x| !x.is_finite() || (k >= 8 && **x < 0.0)) {
                return Err(FORMAT.corrupt(format!("the value {x} at depth {}", m.depth_bb)));
            }
        }
        states.push(PushFoldState {
            depth_bb: m.depth_bb,
            algorithm,
            table_checksum: m.table_checksum,
            iterations: m.iterations,
            weights: m.weights,
            arrays,
        });
    }
    z.finish()?;
    check_states(&states).map_err(|e| FORMAT.corrupt(e))?;
    Ok(states)
}

/// Writes `states` to the file `path` ([`write_states`]) through a temporary file renamed
/// at the end; returns the file's size in bytes. Errors name the path.
pub fn save_states(path: &Path, states: &[PushFoldState]) -> Result<u64> {
    check_states(states)?;
    frame::save(path, &FORMAT, |w| write_states(w, states))
}

/// Reads the states in the file `path` ([`read_states`]). Errors name the path.
pub fn load_states(path: &Path) -> Result<Vec<PushFoldState>> {
    frame::load(path, &FORMAT, read_states)
}

/// The push/fold game at one depth: the payoff matrices built from an equity table.
#[derive(Clone, Debug)]
pub struct PushFoldGame {
    depth_bb: f64,
    /// `w[b][a]` (transposed): probability of the deal (a, b).
    w_t: Vec<f64>,
    /// `w[a][b] × depth × (2e - 1)` transposed (`[b][a]`): the small blind's showdown result.
    g_t: Vec<f64>,
    /// `w[a][b] × (depth × (2e - 1) - 1)`: a shove's gain from a call over a fold.
    d: Vec<f64>,
    /// Probability of each small-blind class.
    m_sb: Vec<f64>,
    /// The equity table's checksum ([`EquityTable::checksum`]).
    table_checksum: u64,
}

/// Checks a depth: finite, at least 1 big blind (both blinds posted in full), at most
/// [`MAX_DEPTH_BB`].
pub fn check_depth(depth_bb: f64) -> Result<()> {
    if depth_bb.is_finite() && (1.0..=MAX_DEPTH_BB).contains(&depth_bb) {
        Ok(())
    } else {
        Err(Error::Invalid {
            what: "depth",
            reason: format!(
                "the stack depth must be a finite number of big blinds in 1..={MAX_DEPTH_BB} \
                 (both blinds posted in full), got {depth_bb}"
            ),
        })
    }
}

/// Checks the solver's options: `target` finite and > 0, `max_iterations` in
/// 1..=[`MAX_ITERATIONS`].
pub fn check_options(options: &PushFoldOptions) -> Result<()> {
    if !(options.target.is_finite() && options.target > 0.0) {
        return Err(Error::Invalid {
            what: "target",
            reason: format!(
                "the target exploitability must be a finite number > 0, got {}",
                options.target
            ),
        });
    }
    Error::check_range("max_iterations", 1, MAX_ITERATIONS, options.max_iterations)?;
    if let Some(t) = options.time_limit {
        if !(t.is_finite() && t > 0.0) {
            return Err(Error::Invalid {
                what: "time_limit",
                reason: format!("the time limit must be a finite number of seconds > 0, got {t}"),
            });
        }
    }
    Ok(())
}

fn check_strategy(what: &'static str, s: &[f64]) -> Result<()> {
    Error::check_len(what, CLASSES, s.len())?;
    if let Some((i, x)) = s
        .iter()
        .enumerate()
        .find(|(_, x)| !(x.is_finite() && (0.0..=1.0).contains(*x)))
    {
        return Err(Error::Invalid {
            what,
            reason: format!(
                "probabilities must be in [0, 1], got {x} for {}",
                HandClass::from_index(i)
                    .map(|c| c.name())
                    .unwrap_or_default()
            ),
        });
    }
    Ok(())
}

fn regret_match(pos: f64, neg: f64) -> f64 {
    let sum = pos + neg;
    if sum > 0.0 {
        pos / sum
    } else {
        0.5
    }
}

impl PushFoldGame {
    /// The game at `depth_bb` big blinds on `table` (the depth checked by [`check_depth`]).
    pub fn new(depth_bb: f64, table: &EquityTable) -> Result<PushFoldGame> {
        check_depth(depth_bb)?;
        let n = CLASSES;
        let mut w_t = vec![0.0; n * n];
        let mut g_t = vec![0.0; n * n];
        let mut d = vec![0.0; n * n];
        let mut m_sb = vec![0.0; n];
        for a in HandClass::all() {
            for b in HandClass::all() {
                let (i, j) = (a.index(), b.index());
                let weight = table.pair_weight(a, b);
                let showdown = depth_bb * (2.0 * table.equity(a, b) - 1.0);
                w_t[j * n + i] = weight;
                g_t[j * n + i] = weight * showdown;
                d[i * n + j] = weight * (showdown - 1.0);
                m_sb[i] += weight;
            }
        }
        Ok(PushFoldGame {
            depth_bb,
            w_t,
            g_t,
            d,
            m_sb,
            table_checksum: table.checksum(),
        })
    }

    /// The stack depth in big blinds.
    pub fn depth_bb(&self) -> f64 {
        self.depth_bb
    }

    /// The small blind's counterfactual values of shoving and folding per class against
    /// `call`.
    fn sb_values(&self, call: &[f64], push_v: &mut [f64], fold_v: &mut [f64]) {
        for a in 0..CLASSES {
            let row = &self.d[a * CLASSES..(a + 1) * CLASSES];
            let dot: f64 = row.iter().zip(call).map(|(x, c)| x * c).sum();
            push_v[a] = self.m_sb[a] + dot;
            fold_v[a] = -0.5 * self.m_sb[a];
        }
    }

    /// The big blind's counterfactual values (its own payoffs) of calling and folding per
    /// class against `push`.
    fn bb_values(&self, push: &[f64], call_v: &mut [f64], fold_v: &mut [f64]) {
        for b in 0..CLASSES {
            let g = &self.g_t[b * CLASSES..(b + 1) * CLASSES];
            let w = &self.w_t[b * CLASSES..(b + 1) * CLASSES];
            let (mut gc, mut wf) = (0.0, 0.0);
            for a in 0..CLASSES {
                gc += g[a] * push[a];
                wf += w[a] * push[a];
            }
            call_v[b] = -gc;
            fold_v[b] = -wf;
        }
    }

    /// The small blind's expected result of (`push`, `call`) in big blinds per hand (both
    /// 169 probabilities, checked).
    pub fn value(&self, push: &[f64], call: &[f64]) -> Result<f64> {
        check_strategy("push", push)?;
        check_strategy("call", call)?;
        Ok(self.value_unchecked(push, call))
    }

    fn value_unchecked(&self, push: &[f64], call: &[f64]) -> f64 {
        let (mut pv, mut fv) = ([0.0; CLASSES], [0.0; CLASSES]);
        self.sb_values(call, &mut pv, &mut fv);
        (0..CLASSES)
            .map(|a| push[a] * pv[a] + (1.0 - push[a]) * fv[a])
            .sum()
    }

    /// The best responses' values: (the small blind's best result against `call`, the big
    /// blind's best result against `push`), each in big blinds per hand for that player.
    pub fn best_response_values(&self, push: &[f64], call: &[f64]) -> Result<(f64, f64)> {
        check_strategy("push", push)?;
        check_strategy("call", call)?;
        Ok(self.best_responses_unchecked(push, call))
    }

    fn best_responses_unchecked(&self, push: &[f64], call: &[f64]) -> (f64, f64) {
        let (mut pv, mut fv) = ([0.0; CLASSES], [0.0; CLASSES]);
        self.sb_values(call, &mut pv, &mut fv);
        let sb: f64 = (0..CLASSES).map(|a| pv[a].max(fv[a])).sum();
        let (mut cv, mut bfv) = ([0.0; CLASSES], [0.0; CLASSES]);
        self.bb_values(push, &mut cv, &mut bfv);
        let walks: f64 = (0..CLASSES)
            .map(|a| 0.5 * (1.0 - push[a]) * self.m_sb[a])
            .sum();
        let bb: f64 = walks + (0..CLASSES).map(|b| cv[b].max(bfv[b])).sum::<f64>();
        (sb, bb)
    }

    /// The exploitability of (`push`, `call`): NashConv / 2, the mean of what each player's
    /// best response gains over the profile, in big blinds per hand (0 at an equilibrium).
    pub fn exploitability(&self, push: &[f64], call: &[f64]) -> Result<f64> {
        let (sb, bb) = self.best_response_values(push, call)?;
        Ok(0.5 * (sb + bb))
    }

    /// Runs CFR+ (or `options.algorithm`) until the average strategies' exploitability is
    /// below `options.target`, `options.max_iterations` ran or `options.time_limit` passed
    /// (see the module documentation).
    pub fn solve(&self, options: &PushFoldOptions) -> Result<PushFoldSolution> {
        check_options(options)?;
        let mut state = self.start(options.algorithm);
        self.solve_from(&mut state, options, &crate::core::progress::Silent)
    }

    /// A solver state at iteration 0 for this game and `algorithm`, for
    /// [`PushFoldGame::solve_from`].
    pub fn start(&self, algorithm: PushFoldAlgorithm) -> PushFoldState {
        PushFoldState {
            depth_bb: self.depth_bb,
            algorithm,
            table_checksum: self.table_checksum,
            iterations: 0,
            weights: 0.0,
            arrays: Box::new([[0.0; CLASSES]; ARRAYS]),
        }
    }

    /// Runs the solver from `state` (fresh from [`PushFoldGame::start`], or saved and
    /// loaded: [`save_states`], [`load_states`]) and leaves in it the state reached, so
    /// that N iterations, then M more from the state, give the same bits as N + M at once.
    /// `options.max_iterations` counts the iterations of this call; `stop` is asked after
    /// every iteration ([`crate::core::Progress::should_stop`], e.g. a
    /// [`crate::core::StopFlag`] raised by Ctrl-C: [`PushFoldStop::Interrupted`]). At
    /// least one iteration runs, so the solution is always the average strategies of the
    /// state reached. Errors (nothing run, `state` unchanged): bad options, a state of
    /// another depth, algorithm or equity table.
    pub fn solve_from(
        &self,
        state: &mut PushFoldState,
        options: &PushFoldOptions,
        stop: &dyn crate::core::Progress,
    ) -> Result<PushFoldSolution> {
        check_options(options)?;
        state.check_fits(self, options.algorithm)?;
        let started = std::time::Instant::now();
        let n = CLASSES;
        let alg = options.algorithm;
        let resumed_from = state.iterations;
        // Regrets of (push, fold) and (call, fold), their predictions (PCFR+), the summed
        // strategies.
        let [r_push, r_sfold, r_call, r_bfold, m_push, m_sfold, m_call, m_bfold, sum_push, sum_call] =
            &mut *state.arrays;
        // The current strategies: the big blind's from its regrets (0.5 everywhere at
        // iteration 0); the small blind's is recomputed before use.
        let mut push = [0.5; CLASSES];
        let mut call: [f64; CLASSES] =
            std::array::from_fn(|b| alg.strategy((r_call[b], r_bfold[b]), (m_call[b], m_bfold[b])));
        let (mut v1, mut v2) = ([0.0; CLASSES], [0.0; CLASSES]);
        let (mut avg_push, mut avg_call) = ([0.0; CLASSES], [0.0; CLASSES]);
        let mut weights = state.weights;
        let mut iterations = state.iterations;
        let (exploitability, why) = loop {
            iterations += 1;
            let t = iterations as f64;
            let w = alg.weight(t);
            // Small blind against the big blind's current strategy.
            for a in 0..n {
                push[a] = alg.strategy((r_push[a], r_sfold[a]), (m_push[a], m_sfold[a]));
                sum_push[a] += w * push[a];
            }
            self.sb_values(&call, &mut v1, &mut v2);
            for a in 0..n {
                let ev = push[a] * v1[a] + (1.0 - push[a]) * v2[a];
                alg.update(t, &mut r_push[a], &mut m_push[a], v1[a], ev);
                alg.update(t, &mut r_sfold[a], &mut m_sfold[a], v2[a], ev);
                push[a] = alg.strategy((r_push[a], r_sfold[a]), (m_push[a], m_sfold[a]));
            }
            // Big blind against the small blind's updated strategy.
            for b in 0..n {
                call[b] = alg.strategy((r_call[b], r_bfold[b]), (m_call[b], m_bfold[b]));
                sum_call[b] += w * call[b];
            }
            self.bb_values(&push, &mut v1, &mut v2);
            for b in 0..n {
                let ev = call[b] * v1[b] + (1.0 - call[b]) * v2[b];
                alg.update(t, &mut r_call[b], &mut m_call[b], v1[b], ev);
                alg.update(t, &mut r_bfold[b], &mut m_bfold[b], v2[b], ev);
                call[b] = alg.strategy((r_call[b], r_bfold[b]), (m_call[b], m_bfold[b]));
            }
            weights += w;
            for a in 0..n {
                avg_push[a] = sum_push[a] / weights;
                avg_call[a] = sum_call[a] / weights;
            }
            let (sb, bb) = self.best_responses_unchecked(&avg_push, &avg_call);
            let exploitability = 0.5 * (sb + bb);
            if exploitability < options.target {
                break (exploitability, PushFoldStop::Target);
            }
            if iterations - resumed_from >= options.max_iterations {
                break (exploitability, PushFoldStop::Iterations);
            }
            if stop.should_stop() {
                break (exploitability, PushFoldStop::Interrupted);
            }
            if options
                .time_limit
                .is_some_and(|l| started.elapsed().as_secs_f64() >= l)
            {
                break (exploitability, PushFoldStop::TimeLimit);
            }
        };
        state.iterations = iterations;
        state.weights = weights;
        Ok(PushFoldSolution {
            depth_bb: self.depth_bb,
            push: avg_push,
            call: avg_call,
            exploitability,
            sb_value: self.value_unchecked(&avg_push, &avg_call),
            iterations,
            resumed_from,
            converged: exploitability < options.target,
            stop: why,
        })
    }
}

/// Solves the push/fold game at `depth_bb` big blinds on the built-in equity table
/// ([`EquityTable::builtin`]).
pub fn solve_pushfold(depth_bb: f64, options: &PushFoldOptions) -> Result<PushFoldSolution> {
    check_depth(depth_bb)?;
    check_options(options)?;
    PushFoldGame::new(depth_bb, EquityTable::builtin()?)?.solve(options)
}

/// The exploitability (NashConv / 2, big blinds per hand) of any push/fold strategy pair at
/// `depth_bb` big blinds on the built-in equity table: `push` and `call` are 169
/// probabilities each, in class index order.
pub fn exploitability(depth_bb: f64, push: &[f64], call: &[f64]) -> Result<f64> {
    check_depth(depth_bb)?;
    check_strategy("push", push)?;
    check_strategy("call", call)?;
    PushFoldGame::new(depth_bb, EquityTable::builtin()?)?.exploitability(push, call)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_inputs_are_clear_errors() {
        for d in [0.5, 0.99, -1.0, f64::NAN, f64::INFINITY, 2e6] {
            let e = check_depth(d).unwrap_err().to_string();
            assert!(e.contains(&format!("{d}")), "{e}");
        }
        let o = PushFoldOptions {
            target: 0.0,
            ..Default::default()
        };
        assert!(check_options(&o).is_err());
        let o = PushFoldOptions {
            max_iterations: 0,
            ..Default::default()
        };
        assert!(check_options(&o).is_err());
        assert!(check_strategy("push", &[0.5; 168]).is_err());
        let mut s = [0.5; CLASSES];
        s[1] = 1.5;
        let e = check_strategy("push", &s).unwrap_err().to_string();
        assert!(e.contains("1.5") && e.contains("AKs"), "{e}");
        s[1] = f64::NAN;
        assert!(check_strategy("push", &s).is_err());
    }

    use crate::poker::preflop::HandClass;

    fn class(name: &str) -> usize {
        HandClass::parse(name).unwrap().index()
    }

    /// The small blind's value by the game's definition, pair by pair.
    fn direct_value(depth: f64, push: &[f64], call: &[f64]) -> f64 {
        let t = EquityTable::builtin().unwrap();
        let mut v = 0.0;
        for a in HandClass::all() {
            for b in HandClass::all() {
                let (p, c) = (push[a.index()], call[b.index()]);
                let showdown = depth * (2.0 * t.equity(a, b) - 1.0);
                let r = (1.0 - p) * -0.5 + p * ((1.0 - c) * 1.0 + c * showdown);
                v += t.pair_weight(a, b) * r;
            }
        }
        v
    }

    #[test]
    fn values_and_best_responses_follow_the_rules() {
        let table = EquityTable::builtin().unwrap();
        let game = PushFoldGame::new(7.0, table).unwrap();
        let mut push = [0.0; CLASSES];
        let mut call = [0.0; CLASSES];
        for i in 0..CLASSES {
            push[i] = ((i * 37) % 11) as f64 / 10.0;
            call[i] = ((i * 53) % 7) as f64 / 6.0;
        }
        let v = game.value(&push, &call).unwrap();
        assert!((v - direct_value(7.0, &push, &call)).abs() < 1e-12);
        // Always folding loses the small blind; against a big blind that never calls,
        // always shoving wins the big blind.
        assert!((game.value(&[0.0; CLASSES], &call).unwrap() + 0.5).abs() < 1e-12);
        assert!((game.value(&[1.0; CLASSES], &[0.0; CLASSES]).unwrap() - 1.0).abs() < 1e-12);
        // A best response is worth at least every pure strategy, and is one.
        let (sb, bb) = game.best_response_values(&push, &call).unwrap();
        let mut best = [0.0; CLASSES];
        let (mut pv, mut fv) = ([0.0; CLASSES], [0.0; CLASSES]);
        game.sb_values(&call, &mut pv, &mut fv);
        for a in 0..CLASSES {
            best[a] = if pv[a] > fv[a] { 1.0 } else { 0.0 };
        }
        assert!((direct_value(7.0, &best, &call) - sb).abs() < 1e-12);
        for cand in [[0.0; CLASSES], [1.0; CLASSES], call] {
            assert!(direct_value(7.0, &push, &cand) >= -bb - 1e-12);
            assert!(direct_value(7.0, &cand, &call) <= sb + 1e-12);
        }
        assert!(game.exploitability(&push, &call).unwrap() > 0.01);
    }

    #[test]
    fn cfr_plus_reaches_the_target_with_sane_ranges() {
        let table = EquityTable::builtin().unwrap();
        let mut share = Vec::new();
        for depth in [2.0, 10.0, 20.0] {
            let game = PushFoldGame::new(depth, table).unwrap();
            let s = game.solve(&PushFoldOptions::default()).unwrap();
            assert!(s.converged && s.exploitability < 1e-3, "{depth}: {s:?}");
            let e = game.exploitability(&s.push, &s.call).unwrap();
            assert!((e - s.exploitability).abs() < 1e-12 && e >= 0.0);
            assert!((s.sb_value - game.value(&s.push, &s.call).unwrap()).abs() < 1e-12);
            assert!(s.push[class("AA")] > 0.99 && s.call[class("AA")] > 0.99);
            share.push(s.push.iter().sum::<f64>());
            if depth == 20.0 {
                assert!(s.push[class("72o")] < 0.01 && s.call[class("72o")] < 0.01);
            }
        }
        assert!(share[0] > share[1] && share[1] > share[2], "{share:?}");
        // A tighter target takes more iterations and stays consistent.
        let game = PushFoldGame::new(10.0, table).unwrap();
        let coarse = game.solve(&PushFoldOptions::default()).unwrap();
        let fine = game
            .solve(&PushFoldOptions {
                target: 1e-5,
                ..Default::default()
            })
            .unwrap();
        assert!(fine.exploitability < 1e-5 && fine.iterations > coarse.iterations);
        // The same answer through the free functions.
        let s = solve_pushfold(10.0, &PushFoldOptions::default()).unwrap();
        assert_eq!(
            exploitability(10.0, &s.push, &s.call).unwrap(),
            s.exploitability
        );
        let stopped = solve_pushfold(
            20.0,
            &PushFoldOptions {
                target: 1e-9,
                max_iterations: 3,
                ..Default::default()
            },
        )
        .unwrap();
        assert!(!stopped.converged && stopped.iterations == 3);
    }

    /// DCFR and PCFR+ reach the target too, on the same equilibrium: at 10 BB the SB value
    /// of each 1e-6 solution is within 1e-5 of the exact value (-0.045371, docs/pushfold.md,
    /// "Exact values"), the ranges agree with CFR+'s; an unknown name is refused.
    #[test]
    fn dcfr_and_pcfr_plus_reach_the_same_equilibrium() {
        let table = EquityTable::builtin().unwrap();
        let game = PushFoldGame::new(10.0, table).unwrap();
        let solve = |algorithm| {
            game.solve(&PushFoldOptions {
                target: 1e-6,
                algorithm,
                ..Default::default()
            })
            .unwrap()
        };
        let plus = solve(PushFoldAlgorithm::CfrPlus);
        for algorithm in [PushFoldAlgorithm::Dcfr, PushFoldAlgorithm::PcfrPlus] {
            let s = solve(algorithm);
            assert!(
                s.converged && s.exploitability < 1e-6,
                "{algorithm:?}: {s:?}"
            );
            assert!((s.sb_value + 0.045371).abs() < 1e-5, "{algorithm:?}: {s:?}");
            assert_ne!(s.iterations, plus.iterations, "{algorithm:?} is CFR+");
            for a in 0..CLASSES {
                assert!((s.push[a] - plus.push[a]).abs() < 0.05, "{algorithm:?} {a}");
            }
        }
        assert_eq!(
            PushFoldAlgorithm::parse("pcfr+").unwrap(),
            PushFoldAlgorithm::PcfrPlus
        );
        let e = PushFoldAlgorithm::parse("cfr").unwrap_err().to_string();
        assert!(e.contains("cfr+, dcfr, pcfr+"), "{e}");
    }

    fn bytes(states: &[PushFoldState]) -> Vec<u8> {
        let mut v = Vec::new();
        write_states(&mut v, states).unwrap();
        v
    }

    /// N iterations, the states saved to a file and loaded, M more give the same bits as
    /// N + M at once (strategies, values, exploitability, states, files byte for byte), for
    /// every algorithm; without the state M iterations are another solution.
    #[test]
    fn a_saved_solve_resumes_bit_for_bit() {
        let table = EquityTable::builtin().unwrap();
        let dir = std::env::temp_dir().join(format!("cardvec-pushfold-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let options = |max_iterations| PushFoldOptions {
            target: 1e-12,
            max_iterations,
            ..Default::default()
        };
        for algorithm in PushFoldAlgorithm::ALL {
            let games = [7.0, 12.5].map(|d| PushFoldGame::new(d, table).unwrap());
            let o = |m| PushFoldOptions {
                algorithm,
                ..options(m)
            };
            let silent = crate::core::progress::Silent;
            let mut whole = Vec::new();
            let mut first = Vec::new();
            for g in &games {
                let mut s = g.start(algorithm);
                let sol = g.solve_from(&mut s, &o(90), &silent).unwrap();
                assert_eq!((sol.iterations, sol.stop), (90, PushFoldStop::Iterations));
                assert_eq!(sol, g.solve(&o(90)).unwrap());
                whole.push((sol, s));
                let mut s = g.start(algorithm);
                g.solve_from(&mut s, &o(37), &silent).unwrap();
                first.push(s);
            }
            let path = dir.join(format!("{}.cvpush", algorithm.name()));
            assert!(save_states(&path, &first).unwrap() > 0);
            let loaded = load_states(&path).unwrap();
            assert_eq!(loaded, first);
            for ((g, mut s), (sol, state)) in games.iter().zip(loaded).zip(&whole) {
                assert_eq!(s.iterations(), 37);
                let more = g.solve_from(&mut s, &o(53), &silent).unwrap();
                assert_eq!((more.iterations, more.resumed_from), (90, 37));
                for (a, b) in more
                    .push
                    .iter()
                    .chain(&more.call)
                    .zip(sol.push.iter().chain(&sol.call))
                {
                    assert_eq!(a.to_bits(), b.to_bits(), "{algorithm:?}");
                }
                assert_eq!(more.exploitability.to_bits(), sol.exploitability.to_bits());
                assert_eq!(more.sb_value.to_bits(), sol.sb_value.to_bits());
                assert_eq!(&s, state, "{algorithm:?}");
                assert_eq!(bytes(&[s]), bytes(std::slice::from_ref(state)));
                assert_ne!(g.solve(&o(53)).unwrap().push, sol.push);
            }
            std::fs::remove_file(&path).unwrap();
        }
        std::fs::remove_dir(&dir).unwrap();
    }

    /// A raised stop flag ends the solve after one iteration (`Interrupted`), a time limit
    /// with `TimeLimit`, both keeping the strategies reached; a resume continues from them.
    #[test]
    fn a_stop_or_a_time_limit_keeps_the_strategies_reached() {
        let table = EquityTable::builtin().unwrap();
        let game = PushFoldGame::new(10.0, table).unwrap();
        let flag = crate::core::StopFlag::new();
        flag.stop();
        let o = PushFoldOptions {
            target: 1e-12,
            ..Default::default()
        };
        let mut s = game.start(o.algorithm);
        let sol = game.solve_from(&mut s, &o, &flag).unwrap();
        assert_eq!((sol.iterations, sol.stop), (1, PushFoldStop::Interrupted));
        assert!(!sol.converged && sol.exploitability > 0.0);
        assert_eq!(s.iterations(), 1);
        let timed = PushFoldOptions {
            time_limit: Some(0.05),
            ..o
        };
        let started = std::time::Instant::now();
        let sol = game
            .solve_from(&mut s, &timed, &crate::core::progress::Silent)
            .unwrap();
        assert_eq!(sol.stop, PushFoldStop::TimeLimit);
        assert!(sol.iterations > 2 && sol.resumed_from == 1, "{sol:?}");
        assert!(started.elapsed().as_secs_f64() < 5.0);
        assert_eq!(
            game.exploitability(&sol.push, &sol.call).unwrap(),
            sol.exploitability
        );
        let sol = game.solve(&PushFoldOptions::default()).unwrap();
        assert_eq!(sol.stop, PushFoldStop::Target);
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            let o = PushFoldOptions {
                time_limit: Some(bad),
                ..Default::default()
            };
            let e = game.solve(&o).unwrap_err().to_string();
            assert!(
                e.contains("time limit") && e.contains(&format!("{bad}")),
                "{e}"
            );
        }
    }

    /// A state of another depth, algorithm or equity table is refused, the state unchanged;
    /// a file that is not a push/fold run file (a `cardvec solve` run file, a spot file,
    /// text), of another version, truncated or corrupt is refused.
    #[test]
    fn a_run_file_of_another_solve_or_damaged_is_refused() {
        let table = EquityTable::builtin().unwrap();
        let game = PushFoldGame::new(10.0, table).unwrap();
        let silent = crate::core::progress::Silent;
        let o = PushFoldOptions {
            target: 1e-12,
            max_iterations: 20,
            ..Default::default()
        };
        let mut state = game.start(o.algorithm);
        game.solve_from(&mut state, &o, &silent).unwrap();
        let kept = state.clone();
        let other = PushFoldGame::new(11.0, table).unwrap();
        let e = other
            .solve_from(&mut state, &o, &silent)
            .unwrap_err()
            .to_string();
        assert!(e.contains("depth 10 BB, not of the game's 11 BB"), "{e}");
        let dcfr = PushFoldOptions {
            algorithm: PushFoldAlgorithm::Dcfr,
            ..o
        };
        let e = game
            .solve_from(&mut state, &dcfr, &silent)
            .unwrap_err()
            .to_string();
        assert!(e.contains("solved with cfr+, not dcfr"), "{e}");
        let mut foreign = game.clone();
        foreign.table_checksum ^= 1;
        let e = foreign
            .solve_from(&mut state, &o, &silent)
            .unwrap_err()
            .to_string();
        assert!(e.contains("equity table"), "{e}");
        let bad = PushFoldOptions {
            max_iterations: 0,
            ..o
        };
        assert!(game.solve_from(&mut state, &bad, &silent).is_err());
        assert_eq!(state, kept);

        let good = bytes(&[state.clone()]);
        assert!(good.starts_with(&RUN_FILE_MAGIC));
        assert_eq!(read_states(good.as_slice()).unwrap(), vec![state.clone()]);
        let err = |b: &[u8]| read_states(b).unwrap_err().to_string();
        for b in [
            &b"{}"[..],
            b"",
            b"\x89CVSOLV\n\x01\0\0\0",
            b"\x89CVSPOT\n\x02\0\0\0",
        ] {
            let e = err(b);
            assert!(e.contains("not a cardvec push/fold run file"), "{e}");
        }
        crate::solve::frame::check_damaged_files(&good, err, &[2], "reads version 1");
        let e = write_states(Vec::new(), &[state.clone(), state.clone()])
            .unwrap_err()
            .to_string();
        assert!(e.contains("twice"), "{e}");
        let e = load_states(Path::new("/nonexistent/x.cvpush"))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("push/fold run file") && e.contains("x.cvpush"),
            "{e}"
        );
    }
}
