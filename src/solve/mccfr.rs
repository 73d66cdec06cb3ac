//! Monte Carlo CFR over any [`GameTree`], without enumerating it: external sampling and
//! outcome sampling, as OpenSpiel's `ExternalSamplingSolver` (simple averaging) and
//! `OutcomeSamplingSolver` (exploration `epsilon`, no baseline) define one traversal.
//!
//! The sampled traversals run on lanes in parallel: an iteration plays `lanes`
//! independent traversals per player (each lane a copy of the root state, stepped by
//! copying states down the tree, its randomness from stream `(seed, lane, iteration)`), all
//! against the tables as they stood at the start of the iteration; each lane records its
//! regret and average-policy increments, and the increments are then added lane by lane in
//! lane order. So the result depends on the seed and the number of lanes, never on the
//! number of threads. With one lane an iteration is OpenSpiel's (one traversal per player)
//! except that the second player's traversal sees the tables before the first one's update.
//!
//! Information sets are found as they are reached, keyed by `(player, info_state_key)`.

use std::collections::HashMap;

use rayon::prelude::*;

use super::cfr::regret_matching;
use super::flat::FlatTree;
use super::policy::Policy;
use crate::core::{Error, GameTree, LaneRng, Result};

/// How a traversal samples.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Sampling {
    /// External sampling: chance and the other players sampled, every action of the
    /// updated player walked.
    External,
    /// Outcome sampling: one path per traversal; the updated player samples from its
    /// policy mixed with `epsilon` of uniform exploration (OpenSpiel's default 0.6).
    Outcome {
        /// The exploration weight, in `(0, 1]`.
        epsilon: f64,
    },
}

/// What a [`McCfrSolver`] runs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct McCfrConfig {
    /// The sampling scheme.
    pub sampling: Sampling,
    /// The seed of every lane's stream.
    pub seed: u64,
    /// Traversals per player per iteration, run in parallel.
    pub lanes: usize,
}

/// The most lanes an iteration may run.
pub const MAX_LANES: usize = 1 << 16;

/// An information set's identity: the acting player and its information-state key.
type SetKey = (u32, Vec<u8>);

/// The tables of one information set.
#[derive(Clone, Debug)]
struct Set {
    actions: Vec<u32>,
    offset: usize,
}

/// An MCCFR solver over game `G`.
#[derive(Clone, Debug)]
pub struct McCfrSolver<G: GameTree> {
    game: G,
    config: McCfrConfig,
    iteration: u64,
    by_key: HashMap<SetKey, u32>,
    /// Per set, its key (the order of `sets`: what a saved state lists).
    keys: Vec<SetKey>,
    sets: Vec<Set>,
    regrets: Vec<f64>,
    average: Vec<f64>,
}

/// A reference to an information set from inside a lane: one of the solver's, or one the
/// lane found (index into the lane's new sets).
#[derive(Clone, Copy, Debug)]
enum SetRef {
    Known(u32),
    New(u32),
}

/// One increment a lane records.
#[derive(Clone, Copy, Debug)]
struct Delta {
    set: SetRef,
    slot: u32,
    regret: bool,
    amount: f64,
}

impl<G: GameTree> McCfrSolver<G> {
    /// A solver with empty tables; an error for `lanes` outside `1..=MAX_LANES` or an
    /// `epsilon` outside `(0, 1]`.
    pub fn new(game: G, config: McCfrConfig) -> Result<Self> {
        Error::check_range("lanes", 1, MAX_LANES as i128, config.lanes as i128)?;
        if let Sampling::Outcome { epsilon } = config.sampling {
            if !(epsilon > 0.0 && epsilon <= 1.0) {
                return Err(Error::Invalid {
                    what: "epsilon",
                    reason: format!("must be in (0, 1], got {epsilon}"),
                });
            }
        }
        Ok(McCfrSolver {
            game,
            config,
            iteration: 0,
            by_key: HashMap::new(),
            keys: Vec::new(),
            sets: Vec::new(),
            regrets: Vec::new(),
            average: Vec::new(),
        })
    }

    /// The iterations done.
    pub fn iteration(&self) -> u64 {
        self.iteration
    }

    /// The number of information sets reached so far.
    pub fn num_infosets(&self) -> usize {
        self.sets.len()
    }

    /// One iteration: `lanes` traversals per player on the current rayon pool.
    pub fn iterate(&mut self) {
        let iteration = self.iteration;
        let lanes: Vec<Lane> = {
            let this = &*self;
            (0..this.config.lanes as u64)
                .into_par_iter()
                .map(|l| {
                    let rng = LaneRng::for_lane(this.config.seed, l, iteration);
                    let mut lane = Lane::new(rng, this.game.num_players());
                    for player in 0..this.game.num_players() {
                        let root = this.game.root();
                        match this.config.sampling {
                            Sampling::External => {
                                this.external(&mut lane, root, player);
                            }
                            Sampling::Outcome { epsilon } => {
                                this.outcome(&mut lane, root, player, epsilon, 1.0, 1.0, 1.0);
                            }
                        }
                    }
                    lane
                })
                .collect()
        };
        for lane in lanes {
            self.merge(lane);
        }
        self.iteration += 1;
    }

    /// The average policy on `tree` (the flattened tree of the same game): sets never
    /// reached play uniformly.
    pub fn average_policy(&self, tree: &FlatTree) -> Policy {
        let mut weights = vec![0.0; tree.num_slots()];
        for (&(player, ref key), &s) in &self.by_key {
            let Some(t) = tree.find_infoset(player as usize, key) else {
                continue;
            };
            let set = &self.sets[s as usize];
            let target = &tree.infosets()[t];
            if target.actions != set.actions {
                continue;
            }
            let n = set.actions.len();
            weights[target.offset..target.offset + n]
                .copy_from_slice(&self.average[set.offset..set.offset + n]);
        }
        Policy::normalized(tree, &weights)
    }

    fn merge(&mut self, lane: Lane) {
        let mut new_ids = Vec::with_capacity(lane.new_sets.len());
        for (key, actions) in lane.new_sets {
            let id = match self.by_key.get(&key) {
                Some(&id) => id,
                None => {
                    let id = self.sets.len() as u32;
                    let offset = self.regrets.len();
                    self.regrets.resize(offset + actions.len(), 0.0);
                    self.average.resize(offset + actions.len(), 0.0);
                    self.sets.push(Set { actions, offset });
                    self.keys.push(key.clone());
                    self.by_key.insert(key, id);
                    id
                }
            };
            new_ids.push(id);
        }
        for d in lane.deltas {
            let id = match d.set {
                SetRef::Known(id) => id,
                SetRef::New(i) => new_ids[i as usize],
            };
            let slot = self.sets[id as usize].offset + d.slot as usize;
            if d.regret {
                self.regrets[slot] += d.amount;
            } else {
                self.average[slot] += d.amount;
            }
        }
    }

    /// The set of `player` at `state` seen from `lane`: its reference, legal actions and
    /// current policy.
    fn lookup(
        &self,
        lane: &mut Lane,
        state: &G::State,
        player: usize,
    ) -> (SetRef, Vec<u32>, Vec<f64>) {
        lane.key.clear();
        self.game.info_state_key(state, player, &mut lane.key);
        let k = (player as u32, std::mem::take(&mut lane.key));
        let found = if let Some(&id) = self.by_key.get(&k) {
            let set = &self.sets[id as usize];
            let mut policy = vec![0.0; set.actions.len()];
            let regrets = &self.regrets[set.offset..set.offset + set.actions.len()];
            regret_matching(regrets, &mut policy);
            (SetRef::Known(id), set.actions.clone(), policy)
        } else {
            let id = match lane.new_index.get(&k) {
                Some(&i) => i,
                None => {
                    lane.mask.clear();
                    lane.mask.resize(self.game.num_actions(), 0);
                    self.game.legal_mask(state, &mut lane.mask);
                    let actions: Vec<u32> = (0..lane.mask.len() as u32)
                        .filter(|&a| lane.mask[a as usize] != 0)
                        .collect();
                    let i = lane.new_sets.len() as u32;
                    lane.new_sets.push((k.clone(), actions));
                    lane.new_index.insert(k.clone(), i);
                    i
                }
            };
            let actions = lane.new_sets[id as usize].1.clone();
            let n = actions.len();
            (SetRef::New(id), actions, vec![1.0 / n as f64; n])
        };
        lane.key = k.1;
        found
    }

    fn child(&self, lane: &mut Lane, state: &G::State, action: u32) -> G::State {
        let mut child = *state;
        lane.rewards.fill(0.0);
        self.game
            .step(&mut child, action, &mut lane.unused_rng, &mut lane.rewards);
        child
    }

    fn sample_chance(&self, lane: &mut Lane, state: &G::State) -> (G::State, f64) {
        lane.outcomes.clear();
        self.game.chance_outcomes(state, &mut lane.outcomes);
        let i = sample(&mut lane.rng, lane.outcomes.iter().map(|o| o.1));
        let (o, p) = lane.outcomes[i];
        let mut child = *state;
        self.game.apply_chance(&mut child, o);
        (child, p)
    }

    fn terminal_return(&self, lane: &mut Lane, state: &G::State, player: usize) -> Option<f64> {
        let (t, u) = self.game.finished(state);
        if !(t || u) {
            return None;
        }
        self.game.returns(state, &mut lane.returns);
        Some(lane.returns[player])
    }

    fn external(&self, lane: &mut Lane, state: G::State, player: usize) -> f64 {
        if self.game.is_chance(&state) {
            let (child, _) = self.sample_chance(lane, &state);
            return self.external(lane, child, player);
        }
        if let Some(r) = self.terminal_return(lane, &state, player) {
            return r;
        }
        let q = self.game.current_player(&state);
        let (set, actions, policy) = self.lookup(lane, &state, q);
        let value;
        if q != player {
            let a = sample(&mut lane.rng, policy.iter().copied());
            value = {
                let child = self.child(lane, &state, actions[a]);
                self.external(lane, child, player)
            };
        } else {
            let mut child_values = vec![0.0; actions.len()];
            let mut v = 0.0;
            for (i, &a) in actions.iter().enumerate() {
                let child = self.child(lane, &state, a);
                child_values[i] = self.external(lane, child, player);
                v += policy[i] * child_values[i];
            }
            for (i, cv) in child_values.iter().enumerate() {
                lane.push(set, i, true, cv - v);
            }
            value = v;
        }
        if q == (player + 1) % self.game.num_players() {
            for (i, p) in policy.iter().enumerate() {
                lane.push(set, i, false, *p);
            }
        }
        value
    }

    #[allow(clippy::too_many_arguments)]
    fn outcome(
        &self,
        lane: &mut Lane,
        state: G::State,
        player: usize,
        epsilon: f64,
        my_reach: f64,
        opp_reach: f64,
        sample_reach: f64,
    ) -> f64 {
        if self.game.is_chance(&state) {
            let (child, p) = self.sample_chance(lane, &state);
            return self.outcome(
                lane,
                child,
                player,
                epsilon,
                my_reach,
                p * opp_reach,
                p * sample_reach,
            );
        }
        if let Some(r) = self.terminal_return(lane, &state, player) {
            return r;
        }
        let q = self.game.current_player(&state);
        let (set, actions, policy) = self.lookup(lane, &state, q);
        let n = actions.len();
        let sample_policy: Vec<f64> = if q == player {
            policy
                .iter()
                .map(|p| epsilon / n as f64 + (1.0 - epsilon) * p)
                .collect()
        } else {
            policy.clone()
        };
        let a = sample(&mut lane.rng, sample_policy.iter().copied());
        let (new_my, new_opp) = if q == player {
            (my_reach * policy[a], opp_reach)
        } else {
            (my_reach, opp_reach * policy[a])
        };
        let child = self.child(lane, &state, actions[a]);
        let child_value = self.outcome(
            lane,
            child,
            player,
            epsilon,
            new_my,
            new_opp,
            sample_reach * sample_policy[a],
        );
        let sampled_value = child_value / sample_policy[a];
        let value_estimate = policy[a] * sampled_value;
        if q == player {
            let cf_value = value_estimate * opp_reach / sample_reach;
            for i in 0..n {
                let cf_action = if i == a {
                    sampled_value * opp_reach / sample_reach
                } else {
                    0.0
                };
                lane.push(set, i, true, cf_action - cf_value);
            }
            for (i, p) in policy.iter().enumerate() {
                lane.push(set, i, false, my_reach * p / sample_reach);
            }
        }
        value_estimate
    }
}

/// One information set of a [`McCfrState`]: the acting player, its information-state key
/// and its legal actions (its slots follow the previous set's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct McCfrSetState {
    /// The acting player.
    pub player: u32,
    /// The information-state key.
    pub key: Vec<u8>,
    /// The legal actions, one slot each.
    pub actions: Vec<u32>,
}

/// A [`McCfrSolver`]'s state between iterations: the information sets found (in the order
/// they were found), the cumulative regrets and the cumulative average policy. Lane `l` of
/// iteration `i` draws from stream `(seed, l, i)`, so no random state is needed beyond the
/// iteration count: a solver resumed from this state continues exactly, bit for bit.
#[derive(Clone, Debug, PartialEq)]
pub struct McCfrState {
    /// Iterations done.
    pub iteration: u64,
    /// The information sets, in the order of their slots.
    pub sets: Vec<McCfrSetState>,
    /// Cumulative regrets, one per slot.
    pub regrets: Vec<f64>,
    /// The cumulative average policy, one per slot.
    pub average: Vec<f64>,
}

impl<G: GameTree> McCfrSolver<G> {
    /// The state to continue from later ([`McCfrSolver::resume`]).
    pub fn state(&self) -> McCfrState {
        McCfrState {
            iteration: self.iteration,
            sets: self
                .sets
                .iter()
                .zip(&self.keys)
                .map(|(s, (player, key))| McCfrSetState {
                    player: *player,
                    key: key.clone(),
                    actions: s.actions.clone(),
                })
                .collect(),
            regrets: self.regrets.clone(),
            average: self.average.clone(),
        }
    }

    /// A solver of `game` continuing from `state` (saved from a solver of the same game and
    /// `config`). Errors: those of [`McCfrSolver::new`]; a set twice, of a player or with an
    /// action the game does not have, or without actions; arrays whose lengths are not the
    /// sets' action counts; a value that is not finite.
    pub fn resume(game: G, config: McCfrConfig, state: McCfrState) -> Result<Self> {
        let mut solver = McCfrSolver::new(game, config)?;
        let bad = |reason: String| Error::Invalid {
            what: "solver state",
            reason,
        };
        let players = solver.game.num_players() as u32;
        let actions = solver.game.num_actions() as u32;
        let mut slots = 0usize;
        for (i, s) in state.sets.iter().enumerate() {
            if s.player >= players {
                return Err(bad(format!("set {i} is of player {}", s.player)));
            }
            if s.actions.is_empty() || s.actions.iter().any(|&a| a >= actions) {
                return Err(bad(format!("set {i} has actions {:?}", s.actions)));
            }
            let key = (s.player, s.key.clone());
            if solver.by_key.insert(key, i as u32).is_some() {
                return Err(bad(format!("set {i} appears twice")));
            }
            solver.sets.push(Set {
                actions: s.actions.clone(),
                offset: slots,
            });
            solver.keys.push((s.player, s.key.clone()));
            slots += s.actions.len();
        }
        for (what, len) in [
            ("regrets", state.regrets.len()),
            ("average", state.average.len()),
        ] {
            if len != slots {
                return Err(bad(format!(
                    "{what} has {len} values, its sets have {slots} actions"
                )));
            }
        }
        if state
            .regrets
            .iter()
            .chain(&state.average)
            .any(|x| !x.is_finite())
        {
            return Err(bad("a value is not finite".into()));
        }
        solver.iteration = state.iteration;
        solver.regrets = state.regrets;
        solver.average = state.average;
        Ok(solver)
    }
}

/// An index drawn from the distribution `probs` (the last index if rounding leaves the
/// draw past the total).
fn sample(rng: &mut LaneRng, probs: impl Iterator<Item = f64> + Clone) -> usize {
    let x = rng.unit_f64();
    let mut acc = 0.0;
    let mut last = 0;
    for (i, p) in probs.enumerate() {
        acc += p;
        if p > 0.0 {
            last = i;
        }
        if x < acc {
            return i;
        }
    }
    last
}

/// One lane's traversals: its stream, the sets it found, its increments and scratch
/// buffers.
struct Lane {
    rng: LaneRng,
    /// The stream `Game::step` is given (it draws nothing in a tree: see `GameTree`).
    unused_rng: LaneRng,
    rewards: Vec<f32>,
    returns: Vec<f64>,
    outcomes: Vec<(u32, f64)>,
    mask: Vec<u8>,
    key: Vec<u8>,
    new_sets: Vec<(SetKey, Vec<u32>)>,
    new_index: HashMap<SetKey, u32>,
    deltas: Vec<Delta>,
}

impl Lane {
    fn new(rng: LaneRng, players: usize) -> Self {
        Lane {
            rng,
            unused_rng: LaneRng::from_seed(0),
            rewards: vec![0.0; players],
            returns: vec![0.0; players],
            outcomes: Vec::new(),
            mask: Vec::new(),
            key: Vec::new(),
            new_sets: Vec::new(),
            new_index: HashMap::new(),
            deltas: Vec::new(),
        }
    }

    fn push(&mut self, set: SetRef, slot: usize, regret: bool, amount: f64) {
        self.deltas.push(Delta {
            set,
            slot: slot as u32,
            regret,
            amount,
        });
    }
}
