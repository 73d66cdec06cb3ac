//! The Kuhn poker reference engine: the rules of `docs/kuhn.md` written as a poker dealer
//! would play them (chips in the pot, a fold, a showdown), not as the fast engine's table
//! of histories.
//!
//! Written independently of the fast lane engine (`fast.rs`); `cardvec diff kuhn` plays
//! both side by side and compares them after every step (see [`diff_pair`]).

use super::{KuhnPoker, DECK_SIZE, NUM_PLAYERS, N_ACTIONS, OBS_CARD, OBS_DIM, OBS_HISTORY};
use crate::core::{Error, LaneOutcome, LaneRng, Playable, Result, SingleLane};

/// The chips each seat puts in before the cards are dealt.
const ANTE: i32 = 1;
/// The size of a bet.
const BET_SIZE: i32 = 1;

/// One move of the betting round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    /// Check, or fold when facing a bet (action 0).
    Pass,
    /// Bet, or call a bet (action 1).
    Bet,
}

impl Move {
    /// The move of an action id, if it names one.
    pub fn from_action(action: u32) -> Option<Move> {
        match action {
            0 => Some(Move::Pass),
            1 => Some(Move::Bet),
            _ => None,
        }
    }
}

/// One game of Kuhn poker, held in plain owned data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reference {
    /// Each seat's card.
    cards: [u8; NUM_PLAYERS],
    /// The moves so far.
    moves: Vec<Move>,
    /// The chips each seat has put in the pot.
    contributed: [i32; NUM_PLAYERS],
    /// The seat that folded, if one did.
    folded: Option<usize>,
    /// Whether the game is over.
    over: bool,
}

impl Reference {
    /// A game in which seat 0 holds `order[0]` and seat 1 `order[1]`: an error unless
    /// they are two different cards of `0..3`.
    pub fn from_order(order: &[u8]) -> Result<Reference> {
        Error::check_len("deal order", NUM_PLAYERS, order.len())?;
        for &card in order {
            if card as usize >= DECK_SIZE {
                return Err(Error::Invalid {
                    what: "deal order",
                    reason: format!("card {card} is not below {DECK_SIZE}"),
                });
            }
        }
        if order[0] == order[1] {
            return Err(Error::Invalid {
                what: "deal order",
                reason: format!("card {} is dealt twice", order[0]),
            });
        }
        Ok(Reference {
            cards: [order[0], order[1]],
            moves: Vec::new(),
            contributed: [ANTE; NUM_PLAYERS],
            folded: None,
            over: false,
        })
    }

    /// The card of `seat`.
    pub fn card(&self, seat: usize) -> u8 {
        self.cards[seat]
    }

    /// The moves so far.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.over
    }

    /// The seat to act: the players alternate, seat 0 first.
    pub fn to_act(&self) -> usize {
        self.moves.len() % NUM_PLAYERS
    }

    /// Each seat's result in chips: the winner takes the pot (the seat that did not fold,
    /// else the higher card), so wins what the loser put in.
    pub fn results(&self) -> [i32; NUM_PLAYERS] {
        let winner = match self.folded {
            Some(seat) => 1 - seat,
            None if self.cards[0] > self.cards[1] => 0,
            None => 1,
        };
        let mut out = [0; NUM_PLAYERS];
        out[winner] = self.contributed[1 - winner];
        out[1 - winner] = -self.contributed[1 - winner];
        out
    }

    fn apply(&mut self, action: u32, rewards: &mut [f32]) -> LaneOutcome {
        let Some(mv) = Move::from_action(action) else {
            return LaneOutcome::ILLEGAL;
        };
        if self.over {
            return LaneOutcome::ILLEGAL;
        }
        let seat = self.to_act();
        let opponent = 1 - seat;
        let facing_bet = self.contributed[opponent] > self.contributed[seat];
        match mv {
            Move::Bet => self.contributed[seat] += BET_SIZE,
            Move::Pass if facing_bet => self.folded = Some(seat),
            Move::Pass => {}
        }
        self.moves.push(mv);
        // Over on a fold, or once both have acted and the chips in are level.
        let level = self.contributed[0] == self.contributed[1];
        self.over = self.folded.is_some() || (self.moves.len() >= 2 && level);
        if self.over {
            for (r, v) in rewards.iter_mut().zip(self.results()) {
                *r = v as f32;
            }
        }
        LaneOutcome {
            applied: true,
            terminated: self.over,
            truncated: false,
        }
    }

    fn write_observation(&self, player: usize, obs: &mut [f32]) {
        assert!(player < NUM_PLAYERS, "player {player} out of range");
        obs.fill(0.0);
        obs[player] = 1.0;
        obs[OBS_CARD + self.cards[player] as usize] = 1.0;
        for (slot, mv) in self.moves.iter().enumerate() {
            let bit = match mv {
                Move::Pass => 0,
                Move::Bet => 1,
            };
            obs[OBS_HISTORY + 2 * slot + bit] = 1.0;
        }
    }
}

impl Playable for Reference {
    fn num_players(&self) -> usize {
        NUM_PLAYERS
    }
    fn num_actions(&self) -> usize {
        N_ACTIONS
    }
    fn obs_dim(&self) -> usize {
        OBS_DIM
    }
    fn current_player(&self) -> usize {
        self.to_act()
    }
    fn finished(&self) -> (bool, bool) {
        (self.over, false)
    }
    fn legal_mask(&self, mask: &mut [u8]) {
        mask.fill(!self.over as u8);
    }
    fn step(&mut self, action: u32, rewards: &mut [f32]) -> LaneOutcome {
        self.apply(action, rewards)
    }
    fn observe(&self, player: usize, obs: &mut [f32]) {
        self.write_observation(player, obs)
    }
}

/// The two engines of one differential game, dealt alike: two different cards drawn
/// from `deal` as the fast engine's `reset` draws them. The fast lane keeps a clone of
/// `deal` as its stream (Kuhn poker draws nothing after the deal). `_game` is not needed.
pub fn diff_pair(_game: u64, deal: &mut LaneRng) -> (Reference, SingleLane<KuhnPoker>) {
    let order = super::fast::deal_cards(deal);
    let reference = Reference::from_order(&order).expect("two different cards");
    let fast =
        SingleLane::from_order(KuhnPoker, &order, deal.clone()).expect("two different cards");
    (reference, fast)
}
