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
//! Simultaneous updates (every player from the same pass) are available through
//! [`CfrConfig`]. Everything is deterministic: one thread, a fixed order of operations.

use super::flat::{FlatTree, NodeKind};
use super::policy::Policy;

/// The variant of CFR.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CfrConfig {
    /// Clip cumulative regrets at zero after each update (regret matching+).
    pub regret_matching_plus: bool,
    /// Update the players one after the other (each pass seeing the previous player's new
    /// policy) rather than all from one pass.
    pub alternating_updates: bool,
    /// Weight iteration `t`'s contribution to the average policy by `t`.
    pub linear_averaging: bool,
}

impl CfrConfig {
    /// OpenSpiel's `CFRSolver`: alternating updates, plain regret matching, uniform
    /// averaging.
    pub const CFR: CfrConfig = CfrConfig {
        regret_matching_plus: false,
        alternating_updates: true,
        linear_averaging: false,
    };
    /// OpenSpiel's `CFRPlusSolver`: alternating updates, regret matching+, linear averaging.
    pub const CFR_PLUS: CfrConfig = CfrConfig {
        regret_matching_plus: true,
        alternating_updates: true,
        linear_averaging: true,
    };
}

/// A CFR solver over one flattened tree.
#[derive(Clone, Debug)]
pub struct CfrSolver<'t> {
    tree: &'t FlatTree,
    config: CfrConfig,
    iteration: u64,
    regrets: Vec<f64>,
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
                self.after_pass();
            }
        } else {
            self.simultaneous_pass();
            self.after_pass();
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

    fn after_pass(&mut self) {
        if self.config.regret_matching_plus {
            self.regrets.iter_mut().for_each(|r| *r = r.max(0.0));
        }
        for set in self.tree.infosets() {
            let range = set.offset..set.offset + set.actions.len();
            regret_matching(&self.regrets[range.clone()], &mut self.current[range]);
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
        let weight = if self.config.linear_averaging {
            self.iteration as f64
        } else {
            1.0
        };
        for &s in &self.sets_of[u] {
            let set = &tree.infosets()[s as usize];
            let k = set.actions.len();
            let range = set.offset..set.offset + k;
            let probs = &current[range.clone()];
            let regrets = &mut self.regrets[range.clone()];
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
        let weight = if self.config.linear_averaging {
            self.iteration as f64
        } else {
            1.0
        };
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
                        self.regrets[slot] += cf * (child - v);
                        self.cumulative[slot] += weight * own * self.current[slot];
                    }
                }
            }
        }
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
