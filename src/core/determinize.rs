//! Determinization: a game's capability to sample, for one seat, a full state among those
//! the seat cannot tell apart from the true one — the hidden cards (the other hands, the
//! order of the deck, a seed that deals later rounds) dealt afresh, uniformly, from an
//! explicit random stream, everything the seat has seen kept. What search bots
//! (`crate::agents`: `pimc`) play their simulations on, as OpenSpiel's
//! `State::ResampleFromInfostate` serves its IS-MCTS bot.
//!
//! A game opts in by implementing [`Determinize`] and returning
//! `Some(<Self as Determinize>::determinize)` from
//! [`GameSpec::determinizer`](super::spec::GameSpec::determinizer). The contract (checked
//! for every game of the registry by `tests/determinize.rs`):
//!
//! - **invisible**: the sample shows the seat exactly what the state shows it (its
//!   observation, the legal mask, the seat to act, the end flags, and the information
//!   state where the game has one), and passes [`Game::check_state`];
//! - **uniform**: every hidden deal consistent with what the seat sees is equally likely
//!   (the game documents what it counts as seen);
//! - **blind**: the sample depends only on what the seat sees and on the stream: two states
//!   that differ only in cards the seat cannot see give the same sample from the same
//!   stream (no byte of the hidden part of the state is read, not even its order).
//!
//! Nothing here knows any particular game, and nothing here runs threads.

use super::game::Game;
use super::rng::LaneRng;

/// A game that can deal its hidden cards afresh for one seat (see the module documentation
/// for the contract).
pub trait Determinize: Game {
    /// A state drawn from `rng`, uniformly among the states `seat` (any seat in
    /// `0..num_players`) cannot tell from `state` (a state that passes
    /// [`Game::check_state`]). A state that is over may be returned as it is (a game whose
    /// payout depends on the hidden cards, as hold'em's showdown, does): nobody decides in
    /// it.
    fn determinize(&self, state: &Self::State, seat: usize, rng: &mut LaneRng) -> Self::State;
}

/// [`Determinize::determinize`] as a function pointer on the game's own types: what
/// [`GameSpec::determinizer`](super::spec::GameSpec::determinizer) returns, so that a tool
/// generic over every registered game can ask whether it has the capability.
pub type DeterminizeFn<G> = fn(&G, &<G as Game>::State, usize, &mut LaneRng) -> <G as Game>::State;

/// Deals `cards` (the hidden cards of a determinization, in any order) in a uniformly
/// random order that depends only on the multiset of `cards` and on `rng`: sorted first,
/// so that the order the hidden part of a state held them in is never read, then shuffled
/// ([`LaneRng::shuffle`]). The games' determinizations share it.
pub fn redeal(cards: &mut [u8], rng: &mut LaneRng) {
    cards.sort_unstable();
    rng.shuffle(cards);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redeal_ignores_the_order_it_was_given() {
        let mut a = [5u8, 1, 9, 3, 3, 7];
        let mut b = [3u8, 9, 7, 1, 5, 3];
        redeal(&mut a, &mut LaneRng::from_seed(4));
        redeal(&mut b, &mut LaneRng::from_seed(4));
        assert_eq!(a, b);
        let mut sorted = a;
        sorted.sort_unstable();
        assert_eq!(sorted, [1, 3, 3, 5, 7, 9]);
        let mut c = [3u8, 9, 7, 1, 5, 3];
        redeal(&mut c, &mut LaneRng::from_seed(5));
        assert_ne!(a, c);
    }
}
