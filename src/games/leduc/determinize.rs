//! Leduc hold'em's determinization ([`Determinize`]): the opponent's card and, while it is
//! not shown (the first round, or a hand folded in it), the public card, dealt uniformly
//! from the cards the seat has not seen (the betting is public; the opponent's card is
//! never shown). A game-tree state whose public card is not dealt yet keeps it undealt.

use super::{LeducHoldem, LeducHoldemState, DECK_SIZE};
use crate::core::determinize::{redeal, Determinize};
use crate::core::LaneRng;

impl Determinize for LeducHoldem {
    fn determinize(
        &self,
        state: &LeducHoldemState,
        seat: usize,
        rng: &mut LaneRng,
    ) -> LeducHoldemState {
        let mine = state.cards[seat];
        let shown = state.public_card();
        let undealt = state.public as usize >= DECK_SIZE;
        let mut pool: Vec<u8> = (0..DECK_SIZE as u8)
            .filter(|&c| c != mine && Some(c) != shown)
            .collect();
        redeal(&mut pool, rng);
        let mut out = *state;
        out.cards[1 - seat] = pool[0];
        if shown.is_none() && !undealt {
            out.public = pool[1];
        }
        out
    }
}
