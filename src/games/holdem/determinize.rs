//! Hold'em's determinization ([`Determinize`]): the other seats' hole cards and the board
//! cards not dealt yet, dealt afresh. A seat sees its own hole cards, the board dealt so
//! far and every action (no card is shown before the hand is over); the other 52 cards
//! form one pool dealt uniformly, the other seats' holes in seat order, then the rest of
//! the board. A hand that is over is returned as it is (its payout may depend on the
//! hidden cards, and nobody decides in it).

use super::{NoLimitHoldem, NoLimitHoldemState};
use crate::core::determinize::{redeal, Determinize};
use crate::core::{Game, LaneRng};

impl Determinize for NoLimitHoldem {
    fn determinize(
        &self,
        state: &NoLimitHoldemState,
        seat: usize,
        rng: &mut LaneRng,
    ) -> NoLimitHoldemState {
        let (terminated, truncated) = self.finished(state);
        if terminated || truncated {
            return *state;
        }
        let dealt = state.dealt as usize;
        let seen = state.hole[seat]
            .iter()
            .chain(&state.board[..dealt])
            .fold(0u64, |s, &c| s | 1u64 << c);
        let mut pool: Vec<u8> = (0..52u8).filter(|&c| seen >> c & 1 == 0).collect();
        redeal(&mut pool, rng);
        let mut out = *state;
        let mut next = pool.into_iter();
        for p in 0..state.num_players() {
            if p != seat {
                for slot in &mut out.hole[p] {
                    *slot = next.next().unwrap_or(0);
                }
            }
        }
        for slot in &mut out.board[dealt..] {
            *slot = next.next().unwrap_or(0);
        }
        out
    }
}
