//! The Leduc hold'em reference engine: the rules of `docs/leduc.md` written the way a
//! dealer keeps the table (each seat's money and stake, the pot, the bet level, the calls
//! and raises of the round, the moves of each round) and a showdown that ranks two-card
//! hands (private and public card) like poker: a pair, else the high card, then the low.
//!
//! Written independently of the fast lane engine (`fast.rs`); `cardvec diff leduc` plays
//! both side by side and compares them after every step (see [`diff_pair`]).

use super::{
    rank_of, LeducHoldem, DECK_SIZE, MAX_ROUND_ACTIONS, NUM_PLAYERS, N_ACTIONS, N_ROUNDS,
    OBS_BETTING, OBS_DIM, OBS_PRIVATE, OBS_PUBLIC, STARTING_MONEY,
};
use crate::core::{Error, LaneOutcome, LaneRng, Playable, Result, SingleLane};

/// The chips each seat antes.
const ANTE: i32 = 1;
/// The raise size of the first round.
const FIRST_ROUND_RAISE: i32 = 2;
/// The raise size of the second round.
const SECOND_ROUND_RAISE: i32 = 4;
/// Raises allowed in a round.
const RAISES_PER_ROUND: u32 = 2;

/// One betting move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    /// Give up the hand (action 0).
    Fold,
    /// Match the bet level, or check (action 1).
    Call,
    /// Match the bet level and raise it (action 2).
    Raise,
}

impl Move {
    /// The move of an action id, if it names one.
    pub fn from_action(action: u32) -> Option<Move> {
        match action {
            0 => Some(Move::Fold),
            1 => Some(Move::Call),
            2 => Some(Move::Raise),
            _ => None,
        }
    }

    /// The action id of the move.
    pub fn action(self) -> u8 {
        match self {
            Move::Fold => 0,
            Move::Call => 1,
            Move::Raise => 2,
        }
    }
}

/// One hand of Leduc hold'em, held in plain owned data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reference {
    /// Each seat's private card.
    private: [u8; NUM_PLAYERS],
    /// The card the dealer turns up after the first round.
    next_public: u8,
    /// The public card, once turned up.
    public: Option<u8>,
    /// The betting round, 1 or 2.
    round: usize,
    /// The seat to act (after the end: the seat whose move ended the hand).
    to_act: usize,
    /// Each seat's money (starting money minus what it put in, plus what it won).
    money: [i32; NUM_PLAYERS],
    /// Each seat's chips in the pot.
    stake: [i32; NUM_PLAYERS],
    /// The chips in the pot.
    pot: i32,
    /// The bet level every seat must reach to stay in.
    level: i32,
    /// Calls in this round since its last raise.
    calls: u32,
    /// Raises in this round.
    raises: u32,
    /// Each round's moves.
    moves: [Vec<Move>; N_ROUNDS],
    /// The seat that folded, if any.
    folded: Option<usize>,
    /// Whether the hand is over.
    over: bool,
}

/// The poker rank of a two-card hand (higher is better): a pair above every other hand,
/// otherwise the higher rank, then the lower.
pub fn hand_rank(a: u8, b: u8) -> u32 {
    let (hi, lo) = if rank_of(a) >= rank_of(b) {
        (rank_of(a) as u32, rank_of(b) as u32)
    } else {
        (rank_of(b) as u32, rank_of(a) as u32)
    };
    if hi == lo {
        100 + hi
    } else {
        hi * 10 + lo
    }
}

impl Reference {
    /// A hand in which seat 0 holds `order[0]`, seat 1 `order[1]` and the public card will
    /// be `order[2]`: an error unless they are three different cards of `0..6`.
    pub fn from_order(order: &[u8]) -> Result<Reference> {
        Error::check_len("deal order", 3, order.len())?;
        let mut seen = [false; DECK_SIZE];
        for &card in order {
            if card as usize >= DECK_SIZE || seen[card as usize] {
                return Err(Error::Invalid {
                    what: "deal order",
                    reason: format!("card {card} is not below {DECK_SIZE} or dealt twice"),
                });
            }
            seen[card as usize] = true;
        }
        Ok(Reference {
            private: [order[0], order[1]],
            next_public: order[2],
            public: None,
            round: 1,
            to_act: 0,
            money: [STARTING_MONEY - ANTE; NUM_PLAYERS],
            stake: [ANTE; NUM_PLAYERS],
            pot: ANTE * NUM_PLAYERS as i32,
            level: ANTE,
            calls: 0,
            raises: 0,
            moves: [Vec::new(), Vec::new()],
            folded: None,
            over: false,
        })
    }

    /// The private card of `seat`.
    pub fn private_card(&self, seat: usize) -> u8 {
        self.private[seat]
    }

    /// The public card, once turned up.
    pub fn public_card(&self) -> Option<u8> {
        self.public
    }

    /// The moves of round `round` (1 or 2).
    pub fn moves(&self, round: usize) -> &[Move] {
        &self.moves[round - 1]
    }

    /// Each seat's chips in the pot.
    pub fn stakes(&self) -> [i32; NUM_PLAYERS] {
        self.stake
    }

    /// Each seat's result: its money now minus its money before the hand.
    pub fn results(&self) -> [i32; NUM_PLAYERS] {
        [
            self.money[0] - STARTING_MONEY,
            self.money[1] - STARTING_MONEY,
        ]
    }

    /// Whether `action` is legal now: fold only below the bet level, call always, raise
    /// while the round has seen fewer than two raises.
    pub fn is_legal(&self, action: u32) -> bool {
        if self.over {
            return false;
        }
        match Move::from_action(action) {
            Some(Move::Fold) => self.stake[self.to_act] < self.level,
            Some(Move::Call) => true,
            Some(Move::Raise) => self.raises < RAISES_PER_ROUND,
            None => false,
        }
    }

    fn put_in(&mut self, seat: usize, chips: i32) {
        self.stake[seat] += chips;
        self.money[seat] -= chips;
        self.pot += chips;
    }

    /// Whether the round's betting is closed: both checked, or the last raise was called.
    fn round_closed(&self) -> bool {
        if self.raises == 0 {
            self.calls == NUM_PLAYERS as u32
        } else {
            self.calls == NUM_PLAYERS as u32 - 1
        }
    }

    fn showdown(&mut self) {
        let public = self.public.expect("a showdown comes after the public card");
        let ranks = [
            hand_rank(self.private[0], public),
            hand_rank(self.private[1], public),
        ];
        let best = ranks[0].max(ranks[1]);
        let winners: Vec<usize> = (0..NUM_PLAYERS).filter(|&s| ranks[s] == best).collect();
        let share = self.pot / winners.len() as i32;
        for &w in &winners {
            self.money[w] += share;
        }
        self.pot = 0;
    }

    fn apply(&mut self, action: u32, rewards: &mut [f32]) -> LaneOutcome {
        if !self.is_legal(action) {
            return LaneOutcome::ILLEGAL;
        }
        let mv = Move::from_action(action).expect("a legal action is a move");
        let seat = self.to_act;
        self.moves[self.round - 1].push(mv);
        match mv {
            Move::Fold => {
                self.folded = Some(seat);
                let winner = 1 - seat;
                self.money[winner] += self.pot;
                self.pot = 0;
                self.over = true;
            }
            Move::Call => {
                let owed = self.level - self.stake[seat];
                self.put_in(seat, owed);
                self.calls += 1;
                if self.round_closed() {
                    if self.round == 2 {
                        self.showdown();
                        self.over = true;
                    } else {
                        self.round = 2;
                        self.public = Some(self.next_public);
                        self.calls = 0;
                        self.raises = 0;
                        self.to_act = 0;
                    }
                } else {
                    self.to_act = 1 - seat;
                }
            }
            Move::Raise => {
                let owed = self.level - self.stake[seat];
                let raise = if self.round == 1 {
                    FIRST_ROUND_RAISE
                } else {
                    SECOND_ROUND_RAISE
                };
                self.put_in(seat, owed + raise);
                self.level += raise;
                self.raises += 1;
                self.calls = 0;
                self.to_act = 1 - seat;
            }
        }
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

    /// OpenSpiel's information-state tensor of `player`.
    fn write_observation(&self, player: usize, obs: &mut [f32]) {
        assert!(player < NUM_PLAYERS, "player {player} out of range");
        obs.fill(0.0);
        obs[player] = 1.0;
        obs[OBS_PRIVATE + self.private[player] as usize] = 1.0;
        if let Some(card) = self.public {
            obs[OBS_PUBLIC + card as usize] = 1.0;
        }
        for (round, moves) in self.moves.iter().enumerate() {
            for (slot, mv) in moves.iter().enumerate() {
                let at = OBS_BETTING + round * MAX_ROUND_ACTIONS * 2 + slot * 2;
                match mv {
                    Move::Call => obs[at] = 1.0,
                    Move::Raise => obs[at + 1] = 1.0,
                    Move::Fold => {}
                }
            }
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
        self.to_act
    }
    fn finished(&self) -> (bool, bool) {
        (self.over, false)
    }
    fn legal_mask(&self, mask: &mut [u8]) {
        for (action, m) in mask.iter_mut().enumerate().take(N_ACTIONS) {
            *m = self.is_legal(action as u32) as u8;
        }
    }
    fn step(&mut self, action: u32, rewards: &mut [f32]) -> LaneOutcome {
        self.apply(action, rewards)
    }
    fn observe(&self, player: usize, obs: &mut [f32]) {
        self.write_observation(player, obs)
    }
}

/// The two engines of one differential game, dealt alike: three different cards drawn
/// from `deal` as the fast engine's `reset` draws them. The fast lane keeps a clone of
/// `deal` as its stream (Leduc draws nothing after the deal). `_game` is not needed.
pub fn diff_pair(_game: u64, deal: &mut LaneRng) -> (Reference, SingleLane<LeducHoldem>) {
    let order = super::fast::deal_cards(deal);
    let reference = Reference::from_order(&order).expect("three different cards");
    let fast =
        SingleLane::from_order(LeducHoldem, &order, deal.clone()).expect("three different cards");
    (reference, fast)
}
