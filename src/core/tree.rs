//! Optional capabilities for solvers: what a seat knows ([`InfoStates`]: a perfect-recall
//! information-state key and tensor) and the game as an extensive-form tree with explicit
//! chance nodes ([`GameTree`]), so that a solver (CFR, best response) can enumerate or
//! sample every chance outcome.
//!
//! A game opts in by implementing the traits and by overriding two hooks of its
//! [`GameSpec`](super::spec::GameSpec): [`GameSpec::info_states`](super::spec::GameSpec::info_states)
//! (a table of function pointers, so a batch environment can write information states for
//! every lane without knowing the game) and
//! [`GameSpec::visit_tree`](super::spec::GameSpec::visit_tree) (typed access for solvers,
//! reached from a game id through `registry::visit_tree`).
//!
//! Nothing here knows any particular game.

use super::game::Game;

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
}

/// Batch access to a game's information states without its [`InfoStates`] bound: the
/// trait's methods as function pointers on the game's own types. Built by
/// [`InfoStateFns::of`], returned by
/// [`GameSpec::info_states`](super::spec::GameSpec::info_states).
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
