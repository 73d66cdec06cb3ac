//! 151's determinization ([`Determinize`]): the other seats' hands, the cards dropped with
//! the seats excluded this round, and the bank dealt afresh, and a new match seed (which
//! deals the later rounds). What the seat sees is kept: its own hand, the played pile and
//! every size (each hand, the bank). The cards out of its sight form one pool, dealt
//! uniformly: each other hand a uniform subset of its size, then the dropped cards, then
//! the bank in a uniform order. The match seed is 63 fresh random bits, as a reset draws
//! it.
//!
//! A seat that chains same-rank plays shows that it still holds a card of the top's rank:
//! when another seat chains, deals that break this are drawn again (rejection, so the
//! sample stays uniform among the consistent deals; the chance that a deal keeps it is at
//! least one in the pool's size, and after 65,536 refused deals, which no real state
//! comes near, the state is returned as it is).
//!
//! One simplification, documented: after a refill the bank's order is in principle known
//! to a seat that watched the played pile go into it (the pile is appended unshuffled);
//! the observation does not show it, and the sample treats the bank's order as unseen.
//! The bank bytes outside `bank_head..bank_tail` (cards long drawn) are written as zeros.

use super::{rank_of, rank_set, I151State, MatchSeed, DECK_SIZE, I151};
use crate::core::determinize::{redeal, Determinize};
use crate::core::{Game, LaneRng};

impl Determinize for I151 {
    fn determinize(&self, state: &I151State, seat: usize, rng: &mut LaneRng) -> I151State {
        let (terminated, truncated) = self.finished(state);
        if terminated || truncated {
            return *state;
        }
        let seen = state.hands[seat] | state.pile_set;
        let mut pool: Vec<u8> = (0..DECK_SIZE as u8).filter(|&c| seen >> c & 1 == 0).collect();
        let chainer = state.to_act as usize;
        let must_hold = (state.chaining != 0 && chainer != seat && (state.top as usize) < DECK_SIZE)
            .then(|| rank_set(rank_of(state.top)));
        for _ in 0..1 << 16 {
            redeal(&mut pool, rng);
            let out = deal_pool(self, state, seat, &pool);
            if must_hold.is_none_or(|rank| out.hands[chainer] & rank != 0) {
                let mut out = out;
                out.match_seed = MatchSeed::from((rng.next_u64() >> 1) as i64);
                return out;
            }
        }
        *state
    }
}

/// `state` with the cards of `pool` dealt in order: each other seat's hand (its size
/// kept), the dropped cards, then the bank; the bank bytes outside its range zeroed.
fn deal_pool(game: &I151, state: &I151State, seat: usize, pool: &[u8]) -> I151State {
    let mut out = *state;
    let mut next = pool.iter().copied();
    let mut take = |count: u32| {
        next.by_ref()
            .take(count as usize)
            .fold(0u32, |s, c| s | 1 << c)
    };
    for p in 0..game.num_players() {
        if p != seat {
            out.hands[p] = take(state.hands[p].count_ones());
        }
    }
    out.dead = take(state.dead.count_ones());
    let (head, tail) = (state.bank_head as usize, state.bank_tail as usize);
    out.bank = [0; DECK_SIZE];
    for (slot, c) in out.bank[head..tail].iter_mut().zip(next) {
        *slot = c;
    }
    out
}
