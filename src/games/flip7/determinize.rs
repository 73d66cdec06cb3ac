//! Flip 7's determinization ([`Determinize`]): the order of the draw pile dealt afresh.
//! Every card in Flip 7 is seen face up when it is drawn, so a seat knows every card in
//! front of every player, the discard pile and the composition of the draw pile; only the
//! order of the draw pile (`deck[..deck_len]`) is hidden, and the sample is a uniform
//! order of its cards. The cards drawn since the last shuffle (`deck[deck_len..]`, all
//! seen) are kept. A game that is over is returned as it is.

use super::{Flip7, Flip7State};
use crate::core::determinize::{redeal, Determinize};
use crate::core::{Game, LaneRng};

impl Determinize for Flip7 {
    fn determinize(&self, state: &Flip7State, _seat: usize, rng: &mut LaneRng) -> Flip7State {
        let (terminated, truncated) = self.finished(state);
        if terminated || truncated {
            return *state;
        }
        let mut out = *state;
        redeal(&mut out.deck[..state.deck_len as usize], rng);
        out
    }
}
