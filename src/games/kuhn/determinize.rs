//! Kuhn poker's determinization ([`Determinize`]): the opponent's card, uniformly one of
//! the two cards the seat does not hold (the betting is public; no card is ever shown).

use super::{KuhnPoker, KuhnPokerState, DECK_SIZE};
use crate::core::determinize::{redeal, Determinize};
use crate::core::LaneRng;

impl Determinize for KuhnPoker {
    fn determinize(&self, state: &KuhnPokerState, seat: usize, rng: &mut LaneRng) -> KuhnPokerState {
        let mine = state.cards[seat];
        let mut pool: Vec<u8> = (0..DECK_SIZE as u8).filter(|&c| c != mine).collect();
        redeal(&mut pool, rng);
        let mut out = *state;
        out.cards[1 - seat] = pool[0];
        out
    }
}
