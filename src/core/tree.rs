//! Optional capabilities for solvers: what a seat knows ([`InfoStates`]: a perfect-recall
//! information-state key and tensor) and the game as an extensive-form tree with explicit
//! chance nodes ([`GameTree`]), so that a solver (CFR, best response) can enumerate or
//! sample every chance outcome.
//!
//! A game opts in by implementing the traits and by overriding two hooks of its
//! [`GameSpec`]: [`GameSpec::info_states`]
//! (a table of function pointers, so a batch environment can write information states for
//! every lane without knowing the game) and
//! [`GameSpec::visit_tree`] (typed access for solvers,
//! reached from a game id through `registry::visit_tree`).
//!
//! Nothing here knows any particular game.

use rayon::prelude::*;

use super::env::VecEnv;
use super::error::{Error, Result};
use super::game::Game;
use super::spec::GameSpec;

/// The information states of a game of imperfect information.
///
/// Two states give the same key for `player` exactly when `player` cannot tell them apart
/// (perfect recall: the key holds everything the seat has seen, in order, and its own past
/// actions). The tensor is a fixed-length encoding of the same information (for games whose
/// key is a full history, OpenSpiel's `information_state_tensor`).
pub trait InfoStates: Game {
    /// Length of one information-state tensor.
    fn info_state_dim(&self) -> usize;
    /// Appends the key of `player`'s information state in `state` to `key` (bytes; the
    /// caller clears it first if it wants the key alone).
    fn info_state_key(&self, state: &Self::State, player: usize, key: &mut Vec<u8>);
    /// Writes the tensor of `player`'s information state in `state` into `out`
    /// (`info_state_dim` long).
    fn info_state_tensor(&self, state: &Self::State, player: usize, out: &mut [f32]);
    /// A human-readable form of the key (for games ported from OpenSpiel, its
    /// `information_state_string`). The default shows the key's bytes.
    fn info_state_string(&self, state: &Self::State, player: usize) -> String {
        let mut key = Vec::new();
        self.info_state_key(state, player, &mut key);
        format!("{key:?}")
    }
}

/// A game as an extensive-form tree: a root before any chance outcome, chance nodes whose
/// outcomes and probabilities can be listed, decision nodes played with [`Game::step`] and
/// terminal nodes with their returns.
///
/// Tree states are [`Game::State`]s, but chance nodes are states the batch engine never
/// holds (they need not pass [`Game::check_state`]); at a chance node only the methods of
/// this trait are called. At a decision node [`Game::current_player`], [`Game::legal_mask`]
/// and [`Game::step`] behave as in the batch engine, and `step` draws nothing from its
/// random stream: every random event of the game is a chance node.
pub trait GameTree: InfoStates {
    /// The root: the state before the first chance outcome.
    fn root(&self) -> Self::State;
    /// Whether chance acts at `state`.
    fn is_chance(&self, state: &Self::State) -> bool;
    /// The chance outcomes at `state` (a chance node) and their probabilities, which are
    /// positive and sum to 1, appended to `out`.
    fn chance_outcomes(&self, state: &Self::State, out: &mut Vec<(u32, f64)>);
    /// Applies chance outcome `outcome`, one of [`GameTree::chance_outcomes`]; `false`, with
    /// nothing changed, for anything else (or at a node that is not a chance node).
    fn apply_chance(&self, state: &mut Self::State, outcome: u32) -> bool;
    /// Each seat's return for the whole game at a terminal `state` (`num_players` long);
    /// zeros elsewhere.
    fn returns(&self, state: &Self::State, out: &mut [f64]);
    /// `state`, a decision or terminal node, as a state the batch engine can hold (one that
    /// passes [`Game::check_state`]): the cards chance has not dealt yet, on which nothing
    /// a seat sees depends, dealt in some fixed way. What names the actions and shows the
    /// views of tree states (a chance node has neither). The default: `state` itself.
    fn batch_state(&self, state: &Self::State) -> Self::State {
        *state
    }
}

/// The size and bounds of a game tree, found by walking all of it ([`DynTree::stats`]).
#[derive(Clone, Debug, PartialEq)]
pub struct TreeStats {
    /// Nodes (chance, decision and terminal).
    pub nodes: usize,
    /// One more than the largest chance outcome id (0 without chance nodes).
    pub max_chance_outcomes: usize,
    /// The most decisions (actions of the seats, chance not counted) on a path.
    pub max_game_length: usize,
    /// The smallest return of any seat at any terminal node.
    pub min_utility: f64,
    /// The largest return of any seat at any terminal node.
    pub max_utility: f64,
}

/// A [`GameTree`] with its state type erased, for bindings that hold one node at a time
/// (the OpenSpiel adapter): a state is the bytes of the game's `State` (`state_size`
/// long), made by [`DynTree::root`] and changed only by the methods below. Built from a
/// configured game by [`ErasedTree`] (through a [`TreeVisitor`], [`Erase`]). A byte string
/// of another length is refused (`false`, empty answers), never a panic.
pub trait DynTree: Send + Sync {
    /// Number of seats.
    fn num_players(&self) -> usize;
    /// Size of the action space.
    fn num_actions(&self) -> usize;
    /// Length of one observation row ([`Game::observe`]).
    fn obs_dim(&self) -> usize;
    /// Length of one information-state tensor.
    fn info_state_dim(&self) -> usize;
    /// Length of a state's bytes.
    fn state_size(&self) -> usize;
    /// The root's bytes.
    fn root(&self) -> Vec<u8>;
    /// Whether chance acts at `state`.
    fn is_chance(&self, state: &[u8]) -> bool;
    /// Whether the game is over at `state` (terminated or truncated).
    fn is_terminal(&self, state: &[u8]) -> bool;
    /// The seat to act at a decision node.
    fn current_player(&self, state: &[u8]) -> usize;
    /// The chance outcomes and their probabilities at a chance node (empty elsewhere).
    fn chance_outcomes(&self, state: &[u8]) -> Vec<(u32, f64)>;
    /// The legal actions at a decision node, ascending (empty elsewhere).
    fn legal_actions(&self, state: &[u8]) -> Vec<u32>;
    /// Applies a chance outcome at a chance node, or an action at a decision node; `false`,
    /// with nothing changed, for anything the node does not accept.
    fn apply(&self, state: &mut [u8], action: u32) -> bool;
    /// Each seat's return for the whole game (zeros before the end).
    fn returns(&self, state: &[u8]) -> Vec<f64>;
    /// `player`'s information-state string at a decision or terminal node.
    fn info_state_string(&self, state: &[u8], player: usize) -> String;
    /// `player`'s information-state tensor at a decision or terminal node.
    fn info_state_tensor(&self, state: &[u8], player: usize) -> Vec<f32>;
    /// `player`'s observation ([`Game::observe`]) at a decision or terminal node.
    fn observe(&self, state: &[u8], player: usize) -> Vec<f32>;
    /// [`GameTree::batch_state`] of a decision or terminal node (`None` at a chance node).
    fn batch_state(&self, state: &[u8]) -> Option<Vec<u8>>;
    /// The state's fields as Rust's `Debug` shows them.
    fn debug(&self, state: &[u8]) -> String;
    /// Walks the whole tree: its size and bounds, or an error naming the limit if it has
    /// more than `max_nodes` nodes.
    fn stats(&self, max_nodes: usize) -> Result<TreeStats>;
}

/// A game with the [`GameTree`] capability behind [`DynTree`].
pub struct ErasedTree<G: GameTree>(pub G);

impl<G: GameTree> ErasedTree<G> {
    fn read(&self, state: &[u8]) -> Option<G::State> {
        (state.len() == std::mem::size_of::<G::State>())
            .then(|| bytemuck::pod_read_unaligned(state))
    }

    /// A decision or terminal node (not a chance node) read from `state`.
    fn node(&self, state: &[u8]) -> Option<G::State> {
        self.read(state).filter(|s| !self.0.is_chance(s))
    }
}

impl<G: GameTree> DynTree for ErasedTree<G> {
    fn num_players(&self) -> usize {
        self.0.num_players()
    }
    fn num_actions(&self) -> usize {
        self.0.num_actions()
    }
    fn obs_dim(&self) -> usize {
        self.0.obs_dim()
    }
    fn info_state_dim(&self) -> usize {
        self.0.info_state_dim()
    }
    fn state_size(&self) -> usize {
        std::mem::size_of::<G::State>()
    }
    fn root(&self) -> Vec<u8> {
        bytemuck::bytes_of(&self.0.root()).to_vec()
    }
    fn is_chance(&self, state: &[u8]) -> bool {
        self.read(state).is_some_and(|s| self.0.is_chance(&s))
    }
    fn is_terminal(&self, state: &[u8]) -> bool {
        self.node(state).is_some_and(|s| {
            let (terminated, truncated) = self.0.finished(&s);
            terminated || truncated
        })
    }
    fn current_player(&self, state: &[u8]) -> usize {
        self.node(state).map_or(0, |s| self.0.current_player(&s))
    }
    fn chance_outcomes(&self, state: &[u8]) -> Vec<(u32, f64)> {
        let mut out = Vec::new();
        if let Some(s) = self.read(state).filter(|s| self.0.is_chance(s)) {
            self.0.chance_outcomes(&s, &mut out);
        }
        out
    }
    fn legal_actions(&self, state: &[u8]) -> Vec<u32> {
        match self.node(state) {
            Some(s) if !self.is_terminal(state) => {
                let mut mask = vec![0u8; self.0.num_actions()];
                self.0.legal_mask(&s, &mut mask);
                (0..mask.len() as u32)
                    .filter(|&a| mask[a as usize] != 0)
                    .collect()
            }
            _ => Vec::new(),
        }
    }
    fn apply(&self, state: &mut [u8], action: u32) -> bool {
        let Some(mut s) = self.read(state) else {
            return false;
        };
        let applied = if self.0.is_chance(&s) {
            self.0.apply_chance(&mut s, action)
        } else {
            // A tree's decision step draws nothing from the stream (every random event is
            // a chance node).
            let mut rewards = vec![0f32; self.0.num_players()];
            let mut rng = super::rng::LaneRng::from_seed(0);
            self.0.step(&mut s, action, &mut rng, &mut rewards).applied
        };
        if applied {
            state.copy_from_slice(bytemuck::bytes_of(&s));
        }
        applied
    }
    fn returns(&self, state: &[u8]) -> Vec<f64> {
        let mut out = vec![0f64; self.0.num_players()];
        if let Some(s) = self.node(state) {
            self.0.returns(&s, &mut out);
        }
        out
    }
    fn info_state_string(&self, state: &[u8], player: usize) -> String {
        match self.node(state) {
            Some(s) if player < self.0.num_players() => self.0.info_state_string(&s, player),
            _ => String::new(),
        }
    }
    fn info_state_tensor(&self, state: &[u8], player: usize) -> Vec<f32> {
        let mut out = vec![0f32; self.0.info_state_dim()];
        if let Some(s) = self.node(state).filter(|_| player < self.0.num_players()) {
            self.0.info_state_tensor(&s, player, &mut out);
        }
        out
    }
    fn observe(&self, state: &[u8], player: usize) -> Vec<f32> {
        let mut out = vec![0f32; self.0.obs_dim()];
        if let Some(s) = self.node(state).filter(|_| player < self.0.num_players()) {
            self.0.observe(&self.0.batch_state(&s), player, &mut out);
        }
        out
    }
    fn batch_state(&self, state: &[u8]) -> Option<Vec<u8>> {
        self.node(state)
            .map(|s| bytemuck::bytes_of(&self.0.batch_state(&s)).to_vec())
    }
    fn debug(&self, state: &[u8]) -> String {
        self.read(state)
            .map_or_else(String::new, |s| format!("{s:?}"))
    }
    fn stats(&self, max_nodes: usize) -> Result<TreeStats> {
        let game = &self.0;
        let mut stats = TreeStats {
            nodes: 0,
            max_chance_outcomes: 0,
            max_game_length: 0,
            min_utility: f64::INFINITY,
            max_utility: f64::NEG_INFINITY,
        };
        let n = game.num_players();
        let mut mask = vec![0u8; game.num_actions()];
        let mut outcomes = Vec::new();
        let mut returns = vec![0f64; n];
        let mut rewards = vec![0f32; n];
        let mut rng = super::rng::LaneRng::from_seed(0);
        // Depth-first, (node, decisions on the way there).
        let mut stack = vec![(game.root(), 0usize)];
        while let Some((s, depth)) = stack.pop() {
            stats.nodes += 1;
            if stats.nodes > max_nodes {
                return Err(Error::Invalid {
                    what: "game tree",
                    reason: format!("more than {max_nodes} nodes"),
                });
            }
            if game.is_chance(&s) {
                outcomes.clear();
                game.chance_outcomes(&s, &mut outcomes);
                for &(o, _) in &outcomes {
                    stats.max_chance_outcomes = stats.max_chance_outcomes.max(o as usize + 1);
                    let mut t = s;
                    if game.apply_chance(&mut t, o) {
                        stack.push((t, depth));
                    }
                }
                continue;
            }
            let (terminated, truncated) = game.finished(&s);
            if terminated || truncated {
                game.returns(&s, &mut returns);
                for &r in &returns {
                    stats.min_utility = stats.min_utility.min(r);
                    stats.max_utility = stats.max_utility.max(r);
                }
                stats.max_game_length = stats.max_game_length.max(depth);
                continue;
            }
            mask.fill(0);
            game.legal_mask(&s, &mut mask);
            for a in (0..mask.len() as u32).filter(|&a| mask[a as usize] != 0) {
                let mut t = s;
                rewards.fill(0.0);
                if game.step(&mut t, a, &mut rng, &mut rewards).applied {
                    stack.push((t, depth + 1));
                }
            }
        }
        if !stats.min_utility.is_finite() {
            (stats.min_utility, stats.max_utility) = (0.0, 0.0);
        }
        Ok(stats)
    }
}

/// The [`TreeVisitor`] that erases a game's type: a clone of the game behind [`DynTree`].
pub struct Erase;

impl TreeVisitor for Erase {
    type Output = Box<dyn DynTree>;
    fn visit<G: GameTree>(&mut self, game: &G) -> Box<dyn DynTree> {
        Box::new(ErasedTree(game.clone()))
    }
}

/// Batch access to a game's information states without its [`InfoStates`] bound: the
/// trait's methods as function pointers on the game's own types. Built by
/// [`InfoStateFns::of`], returned by
/// [`GameSpec::info_states`].
pub struct InfoStateFns<G: Game> {
    /// [`InfoStates::info_state_dim`].
    pub dim: fn(&G) -> usize,
    /// [`InfoStates::info_state_key`].
    pub key: fn(&G, &G::State, usize, &mut Vec<u8>),
    /// [`InfoStates::info_state_tensor`].
    pub tensor: fn(&G, &G::State, usize, &mut [f32]),
    /// [`InfoStates::info_state_string`].
    pub string: fn(&G, &G::State, usize) -> String,
}

impl<G: Game> Clone for InfoStateFns<G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: Game> Copy for InfoStateFns<G> {}

impl<G: InfoStates> InfoStateFns<G> {
    /// The table of `G`'s information-state methods.
    pub fn of() -> Self {
        InfoStateFns {
            dim: G::info_state_dim,
            key: G::info_state_key,
            tensor: G::info_state_tensor,
            string: G::info_state_string,
        }
    }
}

/// A computation over a game with the [`GameTree`] capability, generic in its type (a
/// solver, an exploitability calculation).
pub trait TreeVisitor {
    /// What the computation returns.
    type Output;
    /// Runs the computation on `game`.
    fn visit<G: GameTree>(&mut self, game: &G) -> Self::Output;
}

/// What one information state looked like the first time a check met it.
struct Seen {
    mask: Vec<u8>,
    tensor: Vec<f32>,
    /// The seat's earlier information states on the way there, in order.
    past: Vec<Vec<u8>>,
}

/// The invariants of a [`GameTree`], checked along paths that `data` chooses (one byte per
/// chance outcome or action, taken modulo the number of choices): what the `trees` fuzz
/// target and each tree game's tests run.
///
/// Checked: chance outcomes are distinct with positive probabilities summing to 1, and
/// `apply_chance` refuses anything else without changing the state; a decision node has a
/// legal action, a refused action changes nothing, a terminal node is no chance node; the
/// rewards of the steps along a path add up to [`GameTree::returns`]; two nodes with the
/// same information-state key for the seat to act have the same legal mask and tensor and
/// the same earlier keys for that seat (perfect recall), over all paths of one call (four
/// paths: the bytes read forwards, and from three other offsets).
pub fn check_tree<G: GameTree>(game: &G, data: &[u8]) -> std::result::Result<(), String> {
    use super::rng::LaneRng;
    use std::collections::HashMap;

    const MAX_DEPTH: usize = 100_000;
    let n = game.num_players();
    let actions = game.num_actions();
    let dim = game.info_state_dim();
    let mut seen: HashMap<Vec<u8>, Seen> = HashMap::new();
    let mut outcomes = Vec::new();
    let mut mask = vec![0u8; actions];
    let mut tensor = vec![0f32; dim];
    let mut rewards = vec![0f32; n];
    let mut returns = vec![0f64; n];
    let mut rng = LaneRng::from_seed(0);
    let paths = if data.is_empty() { 1 } else { 4 };
    for path in 0..paths {
        let start = path * data.len() / 4;
        let byte = |i: usize| -> usize {
            if data.is_empty() {
                0
            } else {
                data[(start + i) % data.len()] as usize
            }
        };
        let mut s = game.root();
        let mut total = vec![0f64; n];
        let mut past: Vec<Vec<Vec<u8>>> = vec![Vec::new(); n];
        let mut depth = 0;
        loop {
            depth += 1;
            if depth > MAX_DEPTH {
                return Err(format!("no terminal node after {MAX_DEPTH} steps"));
            }
            if game.is_chance(&s) {
                outcomes.clear();
                game.chance_outcomes(&s, &mut outcomes);
                if outcomes.is_empty() {
                    return Err(format!("a chance node without outcomes: {s:?}"));
                }
                let sum: f64 = outcomes.iter().map(|o| o.1).sum();
                if (sum - 1.0).abs() > 1e-9
                    || outcomes.iter().any(|o| o.1 <= 0.0 || !o.1.is_finite())
                {
                    return Err(format!("chance probabilities {outcomes:?} at {s:?}"));
                }
                let mut ids: Vec<u32> = outcomes.iter().map(|o| o.0).collect();
                ids.sort_unstable();
                ids.dedup();
                if ids.len() != outcomes.len() {
                    return Err(format!("repeated chance outcomes {outcomes:?}"));
                }
                // An outcome that is not listed is refused and changes nothing.
                let missing = (0..=ids.len() as u32 + 1).find(|o| ids.binary_search(o).is_err());
                if let Some(o) = missing {
                    let before = s;
                    if game.apply_chance(&mut s, o) || s != before {
                        return Err(format!(
                            "apply_chance accepted unlisted outcome {o} at {before:?}"
                        ));
                    }
                }
                let o = outcomes[byte(depth) % outcomes.len()].0;
                if !game.apply_chance(&mut s, o) {
                    return Err(format!("apply_chance refused listed outcome {o} at {s:?}"));
                }
                continue;
            }
            let (terminated, truncated) = game.finished(&s);
            if terminated || truncated {
                game.returns(&s, &mut returns);
                for p in 0..n {
                    if (returns[p] - total[p]).abs() > 1e-6 * (1.0 + total[p].abs()) {
                        return Err(format!(
                            "returns {returns:?} differ from the rewards along the path {total:?}"
                        ));
                    }
                }
                break;
            }
            let p = game.current_player(&s);
            if p >= n {
                return Err(format!("seat {p} to act of {n}"));
            }
            mask.fill(0);
            game.legal_mask(&s, &mut mask);
            let legal: Vec<u32> = (0..actions as u32)
                .filter(|&a| mask[a as usize] != 0)
                .collect();
            if legal.is_empty() {
                return Err(format!("a decision node without legal actions: {s:?}"));
            }
            tensor.fill(f32::NAN);
            game.info_state_tensor(&s, p, &mut tensor);
            if tensor.iter().any(|x| !x.is_finite()) {
                return Err(format!(
                    "information-state tensor not written in full: {tensor:?}"
                ));
            }
            let mut key = vec![p as u8];
            game.info_state_key(&s, p, &mut key);
            match seen.get(&key) {
                Some(first) => {
                    if first.mask != mask || first.tensor != tensor || first.past != past[p] {
                        return Err(format!(
                            "two nodes share seat {p}'s key {key:?} but differ in legal mask, \
                             tensor or earlier keys (perfect recall): {s:?}"
                        ));
                    }
                }
                None => {
                    seen.insert(
                        key.clone(),
                        Seen {
                            mask: mask.clone(),
                            tensor: tensor.clone(),
                            past: past[p].clone(),
                        },
                    );
                }
            }
            past[p].push(key);
            if let Some(bad) = (0..actions as u32).find(|a| mask[*a as usize] == 0) {
                let before = s;
                rewards.fill(0.0);
                if game.step(&mut s, bad, &mut rng, &mut rewards).applied || s != before {
                    return Err(format!("illegal action {bad} applied at {before:?}"));
                }
            }
            let a = legal[byte(depth) % legal.len()];
            rewards.fill(0.0);
            if !game.step(&mut s, a, &mut rng, &mut rewards).applied {
                return Err(format!("legal action {a} refused at {s:?}"));
            }
            for (t, r) in total.iter_mut().zip(&rewards) {
                *t += *r as f64;
            }
        }
    }
    Ok(())
}

/// Which seat's information state each lane of a batch shows
/// ([`VecEnv::write_info_states`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InfoSeats<'a> {
    /// The seat to act in each lane (after the end: what [`Game::current_player`] says).
    ToAct,
    /// The same seat in every lane.
    Seat(usize),
    /// One seat per lane.
    PerLane(&'a [usize]),
}

impl<G: GameSpec> VecEnv<G> {
    /// The game's information-state table, or the error of a game without the capability.
    fn info_fns(&self) -> Result<InfoStateFns<G>> {
        G::info_states().ok_or_else(|| no_info_states(G::INFO.id))
    }

    /// Length of one information-state tensor, or `None` if the game has no information
    /// states ([`GameSpec::info_states`]).
    pub fn info_state_dim(&self) -> Option<usize> {
        G::info_states().map(|f| (f.dim)(self.game()))
    }

    /// Writes, for every lane, the information-state tensor of the seat `seats` names into
    /// row `lane` of `out` (`[num_envs, info_state_dim]`), in parallel over the lanes in
    /// chunks of the environment's `chunk_size` (the rows do not depend on the thread count
    /// or the chunk size). A game without information states, a wrong length or a seat out
    /// of range is an error that writes nothing.
    pub fn write_info_states(&self, seats: InfoSeats<'_>, out: &mut [f32]) -> Result<()> {
        let fns = self.info_fns()?;
        let game = self.game();
        let (n, p, d) = (self.num_envs(), game.num_players(), (fns.dim)(game));
        Error::check_len("information-state buffer", n.saturating_mul(d), out.len())?;
        match seats {
            InfoSeats::ToAct => {
                if let Some(&bad) = self
                    .current_player()
                    .iter()
                    .find(|&&s| s < 0 || s as usize >= p)
                {
                    Error::check_range("seat to act", 0, p - 1, bad)?;
                }
            }
            InfoSeats::Seat(seat) => Error::check_range("player", 0, p - 1, seat)?,
            InfoSeats::PerLane(seats) => {
                Error::check_len("seats", n, seats.len())?;
                if let Some(&bad) = seats.iter().find(|&&s| s >= p) {
                    Error::check_range("player", 0, p - 1, bad)?;
                }
            }
        }
        if d == 0 {
            return Ok(());
        }
        let cs = self.options().chunk_size;
        let states = self.states();
        let to_act = self.current_player();
        self.install(|| {
            out.par_chunks_mut(cs * d)
                .enumerate()
                .for_each(|(c, rows)| {
                    for (j, row) in rows.chunks_exact_mut(d).enumerate() {
                        let lane = c * cs + j;
                        let seat = match seats {
                            InfoSeats::ToAct => to_act[lane] as usize,
                            InfoSeats::Seat(seat) => seat,
                            InfoSeats::PerLane(seats) => seats[lane],
                        };
                        (fns.tensor)(game, &states[lane], seat, row);
                    }
                })
        });
        Ok(())
    }

    /// The information-state key of seat `player` in lane `lane`
    /// ([`InfoStates::info_state_key`]). A game without information states, a bad lane or
    /// a bad seat is an error.
    pub fn info_state_key(&self, lane: usize, player: usize) -> Result<Vec<u8>> {
        let fns = self.info_fns()?;
        let state = self.info_lane(lane, player)?;
        let mut key = Vec::new();
        (fns.key)(self.game(), state, player, &mut key);
        Ok(key)
    }

    /// The information state of seat `player` in lane `lane` as text
    /// ([`InfoStates::info_state_string`]). A game without information states, a bad lane
    /// or a bad seat is an error.
    pub fn info_state_string(&self, lane: usize, player: usize) -> Result<String> {
        let fns = self.info_fns()?;
        let state = self.info_lane(lane, player)?;
        Ok((fns.string)(self.game(), state, player))
    }

    /// The state of `lane`, after checking the lane and the seat `player`.
    fn info_lane(&self, lane: usize, player: usize) -> Result<&G::State> {
        let state = self.state(lane)?;
        Error::check_range("player", 0, self.game().num_players() - 1, player)?;
        Ok(state)
    }
}

/// The error of a batch information-state call on game `id`, which has none (the core
/// knows no other game; `registry::no_info_states` also names those that have them).
fn no_info_states(id: &str) -> Error {
    Error::Invalid {
        what: "game",
        reason: format!("{id} has no information states"),
    }
}
