//! Tabular counterfactual regret minimization over a [`FlatTree`]: vanilla CFR and CFR+,
//! defined exactly as OpenSpiel's `CFRSolver` and `CFRPlusSolver`
//! (`open_spiel/python/algorithms/cfr.py`, and the C++ solvers of the same names), so that
//! the exploitability curves compare iteration for iteration:
//!
//! - an iteration updates the players in turn (alternating updates): for each player, one
//!   pass computes counterfactual values under the current policy, adds the player's
//!   instantaneous regrets to its cumulative regrets and its reach-weighted policy to its
//!   cumulative policy, then the current policy of every information set is recomputed by
//!   regret matching (positive regrets normalized, uniform when none is positive);
//! - CFR+ clips cumulative regrets at zero after each player's pass (regret matching+) and
//!   weights the cumulative policy of iteration `t` by `t` (linear averaging);
//! - the average policy is the normalized cumulative policy (uniform where it is zero).
//!
//! Two later variants run on the same passes:
//!
//! - DCFR (discounted CFR, Brown & Sandholm 2019, "Solving Imperfect-Information Games via
//!   Discounted Regret Minimization", with their recommended `alpha = 1.5, beta = 0,
//!   gamma = 2`), as OpenSpiel's `DCFRSolver`: after a player's pass of iteration `t`, each
//!   of its cumulative regrets is multiplied by `t^alpha / (t^alpha + 1)` when it is
//!   non-negative and by `t^beta / (t^beta + 1)` when negative; the cumulative policy of
//!   iteration `t` is weighted by `t^gamma` (equivalent to the paper's multiplying the sum
//!   by `((t - 1) / t)^gamma` each iteration);
//! - PCFR+ (predictive CFR+, Farina, Kroer & Sandholm 2021, "Faster Game Solving via
//!   Predictive Blackwell Approachability"): cumulative regrets clipped at zero as in CFR+,
//!   and the next policy is regret matching on the *predicted* regrets `max(R + m, 0)`,
//!   the prediction `m` being the set's last instantaneous regret; the cumulative policy of
//!   iteration `t` is weighted by `t^2` (quadratic averaging, the paper's choice).
//!
//! Simultaneous updates (every player from the same pass) are available through
//! [`CfrConfig`]. Everything is deterministic: one thread, a fixed order of operations.

use super::flat::{FlatTree, NodeKind};
use super::policy::Policy;
use crate::core::{Error, Result};

/// DCFR's discounting of cumulative regrets (Brown & Sandholm 2019): after iteration `t`,
/// non-negative regrets are multiplied by `t^alpha / (t^alpha + 1)`, negative ones by
/// `t^beta / (t^beta + 1)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Discount {
    /// The exponent for non-negative regrets.
    pub alpha: f64,
    /// The exponent for negative regrets.
    pub beta: f64,
}

/// The variant of CFR.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CfrConfig {
    /// Clip cumulative regrets at zero after each update (regret matching+).
    pub regret_matching_plus: bool,
    /// Update the players one after the other (each pass seeing the previous player's new
    /// policy) rather than all from one pass.
    pub alternating_updates: bool,
    /// Weight iteration `t`'s contribution to the average policy by `t^averaging_exponent`:
    /// 0 uniform averaging, 1 linear (CFR+), 2 quadratic (PCFR+, and DCFR's `gamma = 2`).
    pub averaging_exponent: f64,
    /// DCFR's discounting of cumulative regrets after each update, if any.
    pub discount: Option<Discount>,
    /// Predictive regret matching: the next policy is regret matching on the cumulative
    /// regrets plus the last instantaneous regrets (PCFR+ with `regret_matching_plus`).
    pub predictive: bool,
}

impl CfrConfig {
    /// OpenSpiel's `CFRSolver`: alternating updates, plain regret matching, uniform
    /// averaging.
    pub const CFR: CfrConfig = CfrConfig {
        regret_matching_plus: false,
        alternating_updates: true,
        averaging_exponent: 0.0,
        discount: None,
        predictive: false,
    };
    /// OpenSpiel's `CFRPlusSolver`: alternating updates, regret matching+, linear averaging.
    pub const CFR_PLUS: CfrConfig = CfrConfig {
        regret_matching_plus: true,
        alternating_updates: true,
        averaging_exponent: 1.0,
        discount: None,
        predictive: false,
    };
    /// DCFR with Brown & Sandholm's recommended parameters (OpenSpiel's `DCFRSolver`
    /// defaults): alternating updates, plain regret matching, regrets discounted with
    /// `alpha = 1.5, beta = 0`, the average policy weighted by `t^2` (`gamma = 2`).
    pub const DCFR: CfrConfig = CfrConfig {
        regret_matching_plus: false,
        alternating_updates: true,
        averaging_exponent: 2.0,
        discount: Some(Discount {
            alpha: 1.5,
            beta: 0.0,
        }),
        predictive: false,
    };
    /// PCFR+ (Farina, Kroer & Sandholm 2021): alternating updates, regret matching+ on
    /// the cumulative regrets, the next policy from the predicted regrets (cumulative plus
    /// the last instantaneous), quadratic averaging.
    pub const PCFR_PLUS: CfrConfig = CfrConfig {
        regret_matching_plus: true,
        alternating_updates: true,
        averaging_exponent: 2.0,
        discount: None,
        predictive: true,
    };

    /// The weight of iteration `t`'s policy in the average: `t^averaging_exponent` (exactly
    /// 1 and `t` for the exponents 0 and 1).
    fn averaging_weight(&self, t: u64) -> f64 {
        let e = self.averaging_exponent;
        if e == 0.0 {
            1.0
        } else if e == 1.0 {
            t as f64
        } else if e == 2.0 {
            (t as f64) * (t as f64)
        } else {
            (t as f64).powf(e)
        }
    }
}

/// A CFR solver over one flattened tree.
#[derive(Clone, Debug)]
pub struct CfrSolver<'t> {
    tree: &'t FlatTree,
    config: CfrConfig,
    iteration: u64,
    regrets: Vec<f64>,
    /// Per slot the last instantaneous regret (predictive variants only; empty otherwise).
    instant: Vec<f64>,
    cumulative: Vec<f64>,
    current: Vec<f64>,
    /// Per node, each player's reach then chance's (`players + 1` values).
    reach: Vec<f64>,
    /// Per node, each player's value.
    values: Vec<f64>,
    /// Per decision node the first slot of its information set (alternating passes).
    slot: Vec<u32>,
    /// Per node the updated player's value (alternating passes).
    value: Vec<f64>,
    /// Each player's information sets.
    sets_of: Vec<Vec<u32>>,
    /// The chance and decision nodes, ascending (the passes skip terminals).
    internal: Vec<u32>,
    /// Per player, per node: the player's return at a terminal, 0 elsewhere.
    terminal_values: Vec<Vec<f64>>,
}

impl<'t> CfrSolver<'t> {
    /// A solver at iteration 0 (current policy uniform).
    pub fn new(tree: &'t FlatTree, config: CfrConfig) -> Self {
        let slots = tree.num_slots();
        let players = tree.num_players();
        CfrSolver {
            tree,
            config,
            iteration: 0,
            regrets: vec![0.0; slots],
            instant: if config.predictive {
                vec![0.0; slots]
            } else {
                Vec::new()
            },
            cumulative: vec![0.0; slots],
            current: Policy::uniform(tree).probs().to_vec(),
            reach: Vec::new(),
            values: Vec::new(),
            slot: (0..tree.num_nodes())
                .map(|n| match tree.kind(n) {
                    NodeKind::Decision => tree.infosets()[tree.infoset(n)].offset as u32,
                    _ => 0,
                })
                .collect(),
            value: vec![0.0; tree.num_nodes()],
            internal: (0..tree.num_nodes() as u32)
                .filter(|&n| tree.kind(n as usize) != NodeKind::Terminal)
                .collect(),
            terminal_values: (0..players)
                .map(|p| {
                    (0..tree.num_nodes())
                        .map(|n| match tree.kind(n) {
                            NodeKind::Terminal => tree.returns(n)[p],
                            _ => 0.0,
                        })
                        .collect()
                })
                .collect(),
            sets_of: (0..players)
                .map(|p| {
                    (0..tree.infosets().len() as u32)
                        .filter(|&s| tree.infosets()[s as usize].player == p)
                        .collect()
                })
                .collect(),
        }
    }

    /// The iterations done.
    pub fn iteration(&self) -> u64 {
        self.iteration
    }

    /// The variant.
    pub fn config(&self) -> CfrConfig {
        self.config
    }

    /// One iteration.
    pub fn iterate(&mut self) {
        self.iteration += 1;
        if self.config.alternating_updates {
            for player in 0..self.tree.num_players() {
                self.player_pass(player);
                self.after_pass(Some(player));
            }
        } else {
            self.simultaneous_pass();
            self.after_pass(None);
        }
    }

    /// The policy of the next iteration (regret matching on the cumulative regrets).
    pub fn current_policy(&self) -> Policy {
        Policy::normalized(self.tree, &self.current)
    }

    /// The average policy: the normalized cumulative policy, the one that converges to an
    /// equilibrium.
    pub fn average_policy(&self) -> Policy {
        Policy::normalized(self.tree, &self.cumulative)
    }

    /// After the pass updating `player` (every player: `None`): the predictive variants'
    /// instantaneous regrets added in, the clipping of regret matching+ or DCFR's
    /// discounting, then the current policy of every set by regret matching.
    fn after_pass(&mut self, player: Option<usize>) {
        let tree = self.tree;
        let updated = |set: &super::flat::InfoSet| player.is_none_or(|p| set.player == p);
        if self.config.predictive {
            for set in tree.infosets().iter().filter(|s| updated(s)) {
                let range = set.offset..set.offset + set.actions.len();
                for (r, m) in self.regrets[range.clone()]
                    .iter_mut()
                    .zip(&self.instant[range])
                {
                    *r += m;
                }
            }
        }
        if self.config.regret_matching_plus {
            self.regrets.iter_mut().for_each(|r| *r = r.max(0.0));
        }
        if let Some(Discount { alpha, beta }) = self.config.discount {
            let t = self.iteration as f64;
            let (ta, tb) = (t.powf(alpha), t.powf(beta));
            let (pos, neg) = (ta / (ta + 1.0), tb / (tb + 1.0));
            for set in tree.infosets().iter().filter(|s| updated(s)) {
                for r in &mut self.regrets[set.offset..set.offset + set.actions.len()] {
                    *r *= if *r >= 0.0 { pos } else { neg };
                }
            }
        }
        if self.config.predictive {
            let mut predicted = Vec::new();
            for set in tree.infosets() {
                let range = set.offset..set.offset + set.actions.len();
                predicted.clear();
                predicted.extend(
                    self.regrets[range.clone()]
                        .iter()
                        .zip(&self.instant[range.clone()])
                        .map(|(r, m)| r + m),
                );
                regret_matching(&predicted, &mut self.current[range]);
            }
        } else {
            for set in tree.infosets() {
                let range = set.offset..set.offset + set.actions.len();
                regret_matching(&self.regrets[range.clone()], &mut self.current[range]);
            }
        }
    }

    /// One pass updating player `u` only: every seat's reach and chance's forward, `u`'s
    /// values backward, then `u`'s regrets and cumulative policy, set by set, each set's
    /// nodes in depth-first order (as OpenSpiel's recursive traversal adds them: the same
    /// floating-point sums, which keeps the curves equal long after regret matching+ has
    /// started to amplify rounding).
    fn player_pass(&mut self, u: usize) {
        let tree = self.tree;
        let nodes = tree.num_nodes();
        let p = tree.num_players();
        let w = p + 1;
        if self.reach.is_empty() {
            self.reach = vec![0.0; nodes * w];
        }
        let (reach, value) = (&mut self.reach, &mut self.value);
        let current = &self.current;
        reach[..w].fill(1.0);
        for &n in &self.internal {
            let n = n as usize;
            let children = tree.children(n);
            let (head, rest) = reach.split_at_mut(children.start * w);
            let parent = &head[n * w..(n + 1) * w];
            let rows = &mut rest[..children.len() * w];
            match tree.kind(n) {
                NodeKind::Chance => {
                    for (row, c) in rows.chunks_exact_mut(w).zip(children) {
                        row.copy_from_slice(parent);
                        row[p] *= tree.chance_prob(c);
                    }
                }
                _ => {
                    let q = tree.player(n);
                    let slot = self.slot[n] as usize;
                    let probs = &current[slot..slot + children.len()];
                    for (row, &prob) in rows.chunks_exact_mut(w).zip(probs) {
                        row.copy_from_slice(parent);
                        row[q] *= prob;
                    }
                }
            }
        }
        value.copy_from_slice(&self.terminal_values[u]);
        for &n in self.internal.iter().rev() {
            let n = n as usize;
            let children = tree.children(n);
            value[n] = match tree.kind(n) {
                NodeKind::Terminal => unreachable!("terminals are not internal nodes"),
                NodeKind::Chance => {
                    let mut v = 0.0;
                    for c in children {
                        v += tree.chance_prob(c) * value[c];
                    }
                    v
                }
                NodeKind::Decision => {
                    let slot = self.slot[n] as usize;
                    let probs = &current[slot..slot + children.len()];
                    let mut v = 0.0;
                    for (prob, vc) in probs.iter().zip(&value[children]) {
                        v += prob * vc;
                    }
                    v
                }
            };
        }
        let weight = self.config.averaging_weight(self.iteration);
        let predictive = self.config.predictive;
        for &s in &self.sets_of[u] {
            let set = &tree.infosets()[s as usize];
            let k = set.actions.len();
            let range = set.offset..set.offset + k;
            let probs = &current[range.clone()];
            // The predictive variants gather the instantaneous regrets apart (the
            // prediction of the next iteration), then add them in `after_pass`.
            let regrets = if predictive {
                let instant = &mut self.instant[range.clone()];
                instant.fill(0.0);
                instant
            } else {
                &mut self.regrets[range.clone()]
            };
            let cumulative = &mut self.cumulative[range];
            for &h in tree.infoset_nodes(s as usize) {
                let h = h as usize;
                let r = &reach[h * w..(h + 1) * w];
                // OpenSpiel: prod(reach[:u]) * prod(reach[u + 1:]), chance last.
                let left: f64 = r[..u].iter().product();
                let right: f64 = r[u + 1..].iter().product();
                let cf = left * right;
                let own = weight * r[u];
                let v = value[h];
                let first = tree.children(h).start;
                for i in 0..k {
                    regrets[i] += cf * (value[first + i] - v);
                    cumulative[i] += own * probs[i];
                }
            }
        }
    }

    /// One pass updating every player at once: reach probabilities forward, values
    /// backward, then every seat's regrets and cumulative policy.
    fn simultaneous_pass(&mut self) {
        let tree = self.tree;
        let p = tree.num_players();
        let w = p + 1;
        let nodes = tree.num_nodes();
        if self.reach.is_empty() {
            self.reach = vec![0.0; nodes * w];
            self.values = vec![0.0; nodes * p];
        }
        self.reach[..w].fill(1.0);
        for n in 0..nodes {
            let kind = tree.kind(n);
            if kind == NodeKind::Terminal {
                continue;
            }
            let (r0, rest) = self.reach.split_at_mut((n + 1) * w);
            let parent = &r0[n * w..];
            let children = tree.children(n);
            let base = children.start;
            match kind {
                NodeKind::Chance => {
                    for c in children {
                        let row = &mut rest[(c - n - 1) * w..(c - n) * w];
                        row.copy_from_slice(parent);
                        row[p] *= tree.chance_prob(c);
                    }
                }
                _ => {
                    let q = tree.player(n);
                    let set = &tree.infosets()[tree.infoset(n)];
                    for c in children {
                        let row = &mut rest[(c - n - 1) * w..(c - n) * w];
                        row.copy_from_slice(parent);
                        row[q] *= self.current[set.offset + (c - base)];
                    }
                }
            }
        }
        let weight = self.config.averaging_weight(self.iteration);
        let predictive = self.config.predictive;
        if predictive {
            self.instant.fill(0.0);
        }
        for n in (0..nodes).rev() {
            let (v0, below) = self.values.split_at_mut((n + 1) * p);
            let value = &mut v0[n * p..];
            match tree.kind(n) {
                NodeKind::Terminal => value.copy_from_slice(tree.returns(n)),
                NodeKind::Chance => {
                    value.fill(0.0);
                    for c in tree.children(n) {
                        let pc = tree.chance_prob(c);
                        let child = &below[(c - n - 1) * p..(c - n) * p];
                        for k in 0..p {
                            value[k] += pc * child[k];
                        }
                    }
                }
                NodeKind::Decision => {
                    let q = tree.player(n);
                    let set = &tree.infosets()[tree.infoset(n)];
                    let children = tree.children(n);
                    let base = children.start;
                    value.fill(0.0);
                    for c in children.clone() {
                        let sigma = self.current[set.offset + (c - base)];
                        let child = &below[(c - n - 1) * p..(c - n) * p];
                        for k in 0..p {
                            value[k] += sigma * child[k];
                        }
                    }
                    let reach = &self.reach[n * w..(n + 1) * w];
                    let own = reach[q];
                    let cf: f64 = (0..w).filter(|&k| k != q).map(|k| reach[k]).product();
                    let v = value[q];
                    for c in children {
                        let slot = set.offset + (c - base);
                        let child = below[(c - n - 1) * p + q];
                        let regrets = if predictive {
                            &mut self.instant
                        } else {
                            &mut self.regrets
                        };
                        regrets[slot] += cf * (child - v);
                        self.cumulative[slot] += weight * own * self.current[slot];
                    }
                }
            }
        }
    }
}

/// A [`CfrSolver`]'s state between iterations: enough to continue exactly where it stopped
/// (the same numbers, bit for bit, as a run that never stopped). Serializable (serde); JSON
/// keeps every `f64` exactly (serde_json's `float_roundtrip`).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CfrState {
    /// Iterations done.
    pub iteration: u64,
    /// Cumulative regrets, one per slot.
    pub regrets: Vec<f64>,
    /// The last instantaneous regrets (predictive variants; empty otherwise).
    pub instant: Vec<f64>,
    /// The cumulative (weighted) policy, one per slot.
    pub cumulative: Vec<f64>,
    /// The current policy, one per slot.
    pub current: Vec<f64>,
}

impl<'t> CfrSolver<'t> {
    /// The state to continue from later ([`CfrSolver::resume`]).
    pub fn state(&self) -> CfrState {
        CfrState {
            iteration: self.iteration,
            regrets: self.regrets.clone(),
            instant: self.instant.clone(),
            cumulative: self.cumulative.clone(),
            current: self.current.clone(),
        }
    }

    /// A solver continuing from `state` (saved from a solver of the same tree and variant).
    /// Errors: arrays of the wrong length for `tree` (another game or options), an
    /// `instant` array present or absent against `config.predictive`, a non-finite value.
    pub fn resume(tree: &'t FlatTree, config: CfrConfig, state: CfrState) -> Result<Self> {
        let slots = tree.num_slots();
        let instant = if config.predictive { slots } else { 0 };
        for (what, len, want) in [
            ("regrets", state.regrets.len(), slots),
            ("instant", state.instant.len(), instant),
            ("cumulative", state.cumulative.len(), slots),
            ("current", state.current.len(), slots),
        ] {
            if len != want {
                return Err(Error::Invalid {
                    what: "solver state",
                    reason: format!(
                        "{what} has {len} values, this tree and algorithm need {want} \
                         (another game, options or algorithm?)"
                    ),
                });
            }
        }
        let all = [
            &state.regrets,
            &state.instant,
            &state.cumulative,
            &state.current,
        ];
        if all.iter().any(|v| v.iter().any(|x| !x.is_finite())) {
            return Err(Error::Invalid {
                what: "solver state",
                reason: "a value is not finite".into(),
            });
        }
        let mut solver = CfrSolver::new(tree, config);
        solver.iteration = state.iteration;
        solver.regrets = state.regrets;
        solver.instant = state.instant;
        solver.cumulative = state.cumulative;
        solver.current = state.current;
        Ok(solver)
    }
}

/// Regret matching: `out` proportional to the positive part of `regrets`, uniform when no
/// regret is positive.
pub fn regret_matching(regrets: &[f64], out: &mut [f64]) {
    let total: f64 = regrets.iter().map(|r| r.max(0.0)).sum();
    if total > 0.0 {
        for (o, r) in out.iter_mut().zip(regrets) {
            *o = r.max(0.0) / total;
        }
    } else {
        out.fill(1.0 / out.len() as f64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::kuhn::KuhnPoker;
    use crate::games::leduc::LeducHoldem;
    use crate::solve::exploit::exploitability;

    /// N + M iterations in one go equal N, the state saved (JSON) and loaded, then M: bit
    /// for bit, for every variant; a state of another tree or variant is refused.
    #[test]
    fn a_saved_state_resumes_bit_for_bit() {
        let leduc = FlatTree::build(&LeducHoldem, 100_000).unwrap();
        let kuhn = FlatTree::build(&KuhnPoker, 1000).unwrap();
        for config in [
            CfrConfig::CFR,
            CfrConfig::CFR_PLUS,
            CfrConfig::DCFR,
            CfrConfig::PCFR_PLUS,
        ] {
            let mut whole = CfrSolver::new(&leduc, config);
            for _ in 0..30 {
                whole.iterate();
            }
            let mut first = CfrSolver::new(&leduc, config);
            for _ in 0..17 {
                first.iterate();
            }
            let text = serde_json::to_string(&first.state()).unwrap();
            let state: CfrState = serde_json::from_str(&text).unwrap();
            assert_eq!(state, first.state());
            let mut second = CfrSolver::resume(&leduc, config, state.clone()).unwrap();
            for _ in 0..13 {
                second.iterate();
            }
            assert_eq!(second.state(), whole.state(), "{config:?}");
            assert_eq!(second.average_policy(), whole.average_policy());
            let err = CfrSolver::resume(&kuhn, config, state)
                .unwrap_err()
                .to_string();
            assert!(err.contains("this tree and algorithm need"), "{err}");
        }
        let pcfr = CfrSolver::new(&kuhn, CfrConfig::PCFR_PLUS).state();
        let err = CfrSolver::resume(&kuhn, CfrConfig::CFR_PLUS, pcfr.clone())
            .unwrap_err()
            .to_string();
        assert!(err.contains("instant"), "{err}");
        let mut bad = pcfr;
        bad.regrets[0] = f64::NAN;
        assert!(CfrSolver::resume(&kuhn, CfrConfig::PCFR_PLUS, bad).is_err());
    }

    /// OpenSpiel's `_CFRSolver(game, regret_matching_plus=False, alternating_updates=False,
    /// linear_averaging=False)` (open-spiel 2.0.2): simultaneous updates.
    #[test]
    fn simultaneous_updates_follow_openspiel() {
        let simultaneous = CfrConfig {
            alternating_updates: false,
            ..CfrConfig::CFR
        };
        let kuhn = FlatTree::build(&KuhnPoker, 1000).unwrap();
        let mut solver = CfrSolver::new(&kuhn, simultaneous);
        for (iterations, openspiel) in [(10, 0.09620850020140503), (100, 0.02567473584694785)] {
            while solver.iteration() < iterations {
                solver.iterate();
            }
            let e = exploitability(&kuhn, &solver.average_policy());
            assert!((e - openspiel).abs() < 1e-12, "{iterations}: {e}");
        }
        let leduc = FlatTree::build(&LeducHoldem, 100_000).unwrap();
        let mut solver = CfrSolver::new(&leduc, simultaneous);
        for _ in 0..10 {
            solver.iterate();
        }
        let e = exploitability(&leduc, &solver.average_policy());
        assert!((e - 0.9270185719676691).abs() < 1e-12, "{e}");
    }
}
