//! Lost Cities' determinization ([`Determinize`]): the opponent's unseen cards and the
//! order of the deck dealt afresh. What the seat has seen is kept: its own hand, both
//! boards, the discard piles, and the cards the opponent took from a discard pile and still
//! holds. The opponent's other cards and the deck are, to the seat, one pool dealt
//! uniformly: the opponent's unseen hand is a uniform subset of the pool of its size, the
//! deck a uniform order of the rest. The cards already dealt (`deck[..deck_pos]`, which no
//! seat sees in that order) are rewritten in increasing order, so that no byte of the
//! sample depends on the hidden part of the state.

use super::{LostCities, LostCitiesState, DECK_SIZE};
use crate::core::determinize::{redeal, Determinize};
use crate::core::LaneRng;

impl Determinize for LostCities {
    fn determinize(&self, state: &LostCitiesState, seat: usize, rng: &mut LaneRng) -> LostCitiesState {
        let opp = 1 - seat;
        let seen = state.hands[seat]
            | state.boards[0]
            | state.boards[1]
            | state.discards
            | state.public_hands[opp];
        let unseen_in_hand = (state.hands[opp] & !state.public_hands[opp]).count_ones() as usize;
        let mut pool: Vec<u8> = (0..DECK_SIZE as u8)
            .filter(|&c| seen >> c & 1 == 0)
            .collect();
        redeal(&mut pool, rng);
        let mut out = *state;
        let (hand, deck) = pool.split_at(unseen_in_hand);
        out.hands[opp] = hand
            .iter()
            .fold(state.public_hands[opp], |h, &c| h | 1u64 << c);
        let pos = state.deck_pos as usize;
        out.deck[pos..].copy_from_slice(deck);
        let in_deck = deck.iter().fold(0u64, |s, &c| s | 1u64 << c);
        let dealt = (0..DECK_SIZE as u8).filter(|&c| in_deck >> c & 1 == 0);
        for (slot, c) in out.deck[..pos].iter_mut().zip(dealt) {
            *slot = c;
        }
        out
    }
}
