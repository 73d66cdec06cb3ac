//! 151's determinization ([`Determinize`]): the other seats' hands, the cards dropped with
//! the seats excluded this round, and the bank dealt afresh, and a new match seed (which
//! deals the later rounds). What the seat sees is kept: its own hand, the played pile and
//! every size (each hand, the bank). The cards out of its sight form one pool, dealt
//! uniformly: each other hand a uniform subset of its size, then the dropped cards, then
//! the bank in a uniform order. The match seed is 63 fresh random bits, as a reset draws
//! it.
//!
//! One simplification, documented: after a refill the bank's order is in principle known
//! to a seat that watched the played pile go into it (the pile is appended unshuffled);
//! the observation does not show it, and the sample treats the bank's order as unseen.
//! The bank bytes outside `bank_head..bank_tail` (cards long drawn) are written as zeros.

use super::{I151State, MatchSeed, I151};
use crate::core::determinize::{redeal, Determinize};
use crate::core::{Game, LaneRng};

impl Determinize for I151 {
    fn determinize(&self, state: &I151State, seat: usize, rng: &mut LaneRng) -> I151State {
        let (terminated, truncated) = self.finished(state);
        if terminated || truncated {
            return *state;
        }
        let seen = state.hands[seat] | state.pile_set;
        let mut pool: Vec<u8> = (0..32u8).filter(|&c| seen >> c & 1 == 0).collect();
        redeal(&mut pool, rng);
        let mut out = *state;
        let mut next = pool.into_iter();
        let mut take = |count: u32| next.by_ref().take(count as usize).fold(0u32, |s, c| s | 1 << c);
        for p in 0..self.num_players() {
            if p != seat {
                out.hands[p] = take(state.hands[p].count_ones());
            }
        }
        out.dead = take(state.dead.count_ones());
        let (head, tail) = (state.bank_head as usize, state.bank_tail as usize);
        out.bank = [0; 32];
        for (slot, c) in out.bank[head..tail].iter_mut().zip(next) {
            *slot = c;
        }
        out.match_seed = MatchSeed::from((rng.next_u64() >> 1) as i64);
        out
    }
}
