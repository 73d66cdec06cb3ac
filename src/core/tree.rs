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
