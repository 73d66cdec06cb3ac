//! Sessions of many hands at one table: the button moves one occupied seat clockwise after
//! every hand, players who lose their last chip leave, and rebuys are off unless asked for.
//!
//! ```
//! use cardvec::games::holdem::{Action, Session, TableConfig};
//! let mut session = Session::new(TableConfig::new(1, 2, 0).unwrap(), &[20, 20, 20], 0, 7).unwrap();
//! while !session.is_over() && session.hands_played() < 1000 {
//!     session.play_hand(|_, legal| if legal.check { Action::Check } else { Action::AllIn }).unwrap();
//! }
//! assert_eq!(session.stacks().iter().sum::<u64>(), 60);
//! ```

use super::{Action, Chips, Legal, NlHand, TableConfig, DECK_SIZE, MAX_PLAYERS, MIN_PLAYERS};
use crate::core::{Error, LaneRng, Result};
use crate::poker::cards::Card;

/// A table playing hand after hand.
#[derive(Clone, Debug)]
pub struct Session {
    table: TableConfig,
    stacks: Vec<Chips>,
    seated: Vec<bool>,
    button: usize,
    rebuy: Option<Chips>,
    rebuys: Vec<u32>,
    hands: u64,
    rng: LaneRng,
}

impl Session {
    /// A session: `stacks[s]` for seat `s` (2 to 10 seats, each at least 1), the first
    /// hand's button, and the seed of the deals.
    pub fn new(table: TableConfig, stacks: &[Chips], button: usize, seed: u64) -> Result<Self> {
        let n = stacks.len();
        Error::check_range("seats", MIN_PLAYERS as i64, MAX_PLAYERS as i64, n as i64)?;
        Error::check_range("button", 0, n as i64 - 1, button as i64)?;
        for &s in stacks {
            Error::check_range("stack", 1, super::MAX_CHIPS, s)?;
        }
        Ok(Session {
            table,
            stacks: stacks.to_vec(),
            seated: vec![true; n],
            button,
            rebuy: None,
            rebuys: vec![0; n],
            hands: 0,
            rng: LaneRng::from_seed(seed),
        })
    }

    /// Turns rebuys on: a player who loses everything buys back in for `amount` chips before
    /// the next hand instead of leaving.
    pub fn with_rebuys(mut self, amount: Chips) -> Result<Self> {
        Error::check_range("rebuy", 1, super::MAX_CHIPS, amount)?;
        self.rebuy = Some(amount);
        Ok(self)
    }

    /// Chips of every seat (0 for players who left).
    pub fn stacks(&self) -> &[Chips] {
        &self.stacks
    }

    /// Which seats still play.
    pub fn seated(&self) -> &[bool] {
        &self.seated
    }

    /// Rebuys taken per seat.
    pub fn rebuys(&self) -> &[u32] {
        &self.rebuys
    }

    /// The button of the next hand.
    pub fn button(&self) -> usize {
        self.button
    }

    /// Hands played so far.
    pub fn hands_played(&self) -> u64 {
        self.hands
    }

    /// Whether fewer than two players remain.
    pub fn is_over(&self) -> bool {
        self.seated.iter().filter(|&&s| s).count() < 2
    }

    /// The seats of the next hand, in seat order (the hand's seat `i` is session seat
    /// `seats[i]`).
    pub fn hand_seats(&self) -> Vec<usize> {
        (0..self.stacks.len()).filter(|&s| self.seated[s]).collect()
    }

    /// Deals the next hand among the seated players (shuffled from the session's stream).
    pub fn deal(&mut self) -> Result<NlHand> {
        if self.is_over() {
            return Err(Error::Invalid {
                what: "session",
                reason: "fewer than two players remain".into(),
            });
        }
        let seats = self.hand_seats();
        let n = seats.len();
        let button = seats
            .iter()
            .position(|&s| s == self.button)
            .expect("the button is a seated player");
        let mut deck: Vec<u8> = (0..DECK_SIZE as u8).collect();
        self.rng.shuffle(&mut deck);
        let card = |i: usize| Card::from_id(deck[i]).expect("id < 52");
        let hole: Vec<[Card; 2]> = (0..n).map(|i| [card(2 * i), card(2 * i + 1)]).collect();
        let board = [0, 1, 2, 3, 4].map(|k| card(2 * n + k));
        let stacks: Vec<Chips> = seats.iter().map(|&s| self.stacks[s]).collect();
        NlHand::new(self.table, &stacks, button, &hole, board)
    }

    /// Books a finished hand dealt by [`Session::deal`]: new stacks, busted players leave
    /// (or rebuy), and the button moves to the next seated player clockwise.
    pub fn finish(&mut self, hand: &NlHand) -> Result<()> {
        let seats = self.hand_seats();
        if !hand.is_over() || hand.num_players() != seats.len() {
            return Err(Error::Invalid {
                what: "session hand",
                reason: "not a finished hand of this session's seats".into(),
            });
        }
        for (i, &s) in seats.iter().enumerate() {
            self.stacks[s] = hand.stacks()[i];
            if self.stacks[s] == 0 {
                match self.rebuy {
                    Some(amount) => {
                        self.stacks[s] = amount;
                        self.rebuys[s] += 1;
                    }
                    None => self.seated[s] = false,
                }
            }
        }
        self.hands += 1;
        let n = self.stacks.len();
        if let Some(next) = (1..=n)
            .map(|k| (self.button + k) % n)
            .find(|&s| self.seated[s])
        {
            self.button = next;
        }
        Ok(())
    }

    /// Deals, plays and books one hand; `policy(hand, legal)` chooses every action (an
    /// illegal choice is an error, and the hand is then not booked).
    pub fn play_hand<F: FnMut(&NlHand, &Legal) -> Action>(
        &mut self,
        mut policy: F,
    ) -> Result<NlHand> {
        let mut hand = self.deal()?;
        while let Some(legal) = hand.legal() {
            let action = policy(&hand, &legal);
            hand.apply(action)?;
        }
        self.finish(&hand)?;
        Ok(hand)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> TableConfig {
        TableConfig::new(1, 2, 0).unwrap()
    }

    fn check_or_fold(_: &NlHand, l: &Legal) -> Action {
        if l.check {
            Action::Check
        } else {
            Action::Fold
        }
    }

    #[test]
    fn button_moves_one_seat_clockwise_each_hand() {
        let mut s = Session::new(table(), &[100; 4], 2, 1).unwrap();
        let mut buttons = Vec::new();
        for _ in 0..6 {
            buttons.push(s.button());
            let hand = s.play_hand(check_or_fold).unwrap();
            assert_eq!(hand.button(), buttons.last().copied().unwrap());
        }
        assert_eq!(buttons, vec![2, 3, 0, 1, 2, 3]);
    }

    #[test]
    fn busted_players_leave_and_the_button_skips_them() {
        let mut s = Session::new(table(), &[1000, 3, 1000], 0, 5).unwrap();
        let mut hands = 0;
        while s.seated()[1] && hands < 200 {
            s.play_hand(|_, l| {
                if l.raise {
                    Action::AllIn
                } else if l.check {
                    Action::Check
                } else {
                    Action::Call
                }
            })
            .unwrap();
            hands += 1;
        }
        assert!(!s.seated()[1] || s.is_over());
        assert_eq!(s.stacks().iter().sum::<u64>(), 2003);
        if !s.is_over() {
            assert_eq!(s.hand_seats(), vec![0, 2]);
            let hand = s.deal().unwrap();
            assert_eq!(hand.num_players(), 2);
            assert!(s.seated()[s.button()]);
        }
    }

    #[test]
    fn a_session_ends_when_one_player_has_the_chips() {
        let mut s = Session::new(table(), &[20, 20, 20], 0, 9).unwrap();
        while !s.is_over() {
            s.play_hand(|_, l| {
                if l.raise {
                    Action::AllIn
                } else if l.check {
                    Action::Check
                } else {
                    Action::Call
                }
            })
            .unwrap();
            assert!(s.hands_played() < 10_000);
        }
        assert_eq!(s.stacks().iter().sum::<u64>(), 60);
        assert_eq!(s.stacks().iter().filter(|&&c| c > 0).count(), 1);
        assert!(s.deal().is_err());
    }

    #[test]
    fn rebuys_are_off_by_default_and_on_when_asked() {
        let mut s = Session::new(table(), &[2, 1000], 0, 2)
            .unwrap()
            .with_rebuys(50)
            .unwrap();
        for _ in 0..20 {
            s.play_hand(|_, l| if l.check { Action::Check } else { Action::Call })
                .unwrap();
        }
        assert!(!s.is_over());
        assert!(s.rebuys()[0] > 0);
        assert_eq!(
            s.stacks().iter().sum::<u64>(),
            1002 + 50 * s.rebuys()[0] as u64
        );
        assert!(Session::new(table(), &[100], 0, 0).is_err());
        assert!(Session::new(table(), &[100, 0], 0, 0).is_err());
        assert!(Session::new(table(), &[100, 100], 2, 0).is_err());
    }
}
