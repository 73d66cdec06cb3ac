//! Horizons: a game's capability to value a position part-way through a game, so that a
//! search bot can stop its rollouts early (`pimc:horizon=H`, `crate::agents::pimc`).
//!
//! A game made of stages (Flip 7: rounds; 151: actions, a new deal jumping ahead) that opts
//! in returns a [`WinEstimate`] from
//! [`GameSpec::win_estimate`](super::spec::GameSpec::win_estimate): the stage of a state (a
//! count that never goes down during a game), and a cheap estimate of each seat's share of
//! the win from a state where a stage has just begun (Flip 7: from the standings; 151: from
//! the hands and the scores). A
//! rollout that stops `H` stages after the decision is then valued by that estimate instead
//! of by the winner of a game played on to its end: the later stages' luck, which the
//! decision cannot change and which a few rollouts cannot average out, is replaced by its
//! expectation under the estimate's model.
//!
//! The estimate is called only on determinized worlds and on the states rollouts reach from
//! them, never on the real state, so it may read the whole state it is given (151 reads the
//! hands) without making a search bot read hidden cards; it must read nothing else. The
//! stage reads only what every seat sees (it decides where the rollouts stop). It is built once
//! per bot (it may hold tables) and must be deterministic: the same state, the same
//! estimate. Nothing here knows any particular game, and nothing here runs threads.

use super::game::Game;

/// A game's stages and its estimate of the win from the standings (see the module
/// documentation).
pub trait WinEstimate<G: Game>: Send + Sync {
    /// The stage of `state`: a count that never decreases as the game is played (Flip 7:
    /// the rounds completed). Reads only what every seat sees.
    fn stage(&self, game: &G, state: &G::State) -> u64;

    /// Each seat's estimated share of the win from the live `state` (a stage has just
    /// begun), written to `out` (`num_players` values, each in `0..=1`, summing to 1).
    /// Reads only `state` (a world a search dealt, or a state reached from one).
    fn estimate(&self, game: &G, state: &G::State, out: &mut [f64]);
}
