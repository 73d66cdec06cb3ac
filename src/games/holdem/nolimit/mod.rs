//! No-limit Texas hold'em: the rules of one hand with integer chips for 2 to 10 seats (see
//! `docs/holdem.md`), checked action by action against pokerkit 0.7.
//!
//! - [`TableConfig`]: blinds and ante.
//! - [`NlHand`] (in `hand.rs`): the **reference engine**, one hand from the deal to the
//!   payout, with plain owned data. Callers ask it who acts ([`NlHand::to_act`]), what is
//!   legal ([`NlHand::legal`]: the call amount, min and max raise-to) and apply an
//!   [`Action`]; an illegal action is an [`Error`](crate::core::Error) and changes nothing.
//! - `trace`: hands under a mixed random policy written as JSON lines, which
//!   `python/tests/test_holdem_pokerkit.py` replays in pokerkit.
//!
//! Seats are numbered clockwise `0..n`; the button is a seat. With three seats or more the
//! small blind sits left of the button (`button + 1`) and the big blind next; heads-up the
//! button posts the small blind, acts first before the flop and last after it.

// Seat loops index several per-seat arrays at once; `for seat in 0..n` says it plainest.
#![allow(clippy::needless_range_loop)]

pub mod bots;
pub mod checks;
pub mod fast;
mod hand;
pub mod lane;
pub mod phh;
pub mod reference_lane;
mod session;
pub mod trace;

pub use fast::NlheState;
pub use hand::{NlHand, Pot, Street};
pub use lane::{NoLimitHoldem, CHECK_CALL, EXACT_RAISE, FOLD, RAISE_BASE};
pub use phh::{read_phh, write_phh};
pub use session::Session;

use crate::core::{Error, Result};

/// Chips are whole numbers.
pub type Chips = u64;

/// Fewest seats at a table.
pub const MIN_SEATS: usize = 2;
/// Most seats at a table.
pub const MAX_SEATS: usize = 10;

/// The forced bets of a table. The minimum bet (and the smallest raise increment) is the big
/// blind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TableConfig {
    /// The small blind (`1..=big_blind`).
    pub small_blind: Chips,
    /// The big blind, also the minimum bet (at least 1).
    pub big_blind: Chips,
    /// The ante every seat posts before the blinds (0: none).
    pub ante: Chips,
}

impl TableConfig {
    /// A validated configuration: `1 <= small_blind <= big_blind`, `ante >= 0`, and every
    /// amount at most 2^40 (so that sums over ten seats never overflow).
    pub fn new(small_blind: Chips, big_blind: Chips, ante: Chips) -> Result<Self> {
        const MAX: i64 = 1 << 40;
        Error::check_range("big_blind", 1, MAX, big_blind.min(MAX as u64 + 1) as i64)?;
        Error::check_range(
            "small_blind",
            1,
            big_blind as i64,
            small_blind.min(MAX as u64 + 1) as i64,
        )?;
        Error::check_range("ante", 0, MAX, ante.min(MAX as u64 + 1) as i64)?;
        Ok(TableConfig {
            small_blind,
            big_blind,
            ante,
        })
    }
}

/// A player's decision. Bets and raises are given as the total the player's bet reaches on
/// this street ("raise to"), as pokerkit and hand histories write them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Give up the hand. Legal only when facing a bet (there is something to call), as in
    /// pokerkit's tournament mode: folding when a check is free is not offered.
    Fold,
    /// Pass when there is nothing to call.
    Check,
    /// Match the largest bet, or put in the whole stack if it is short of it (a call that
    /// goes all-in).
    Call,
    /// Bet (nobody has bet on this street) or raise so that the player's bet on this street
    /// totals this many chips; `min_raise_to..=max_raise_to` of [`Legal`].
    RaiseTo(Chips),
    /// The whole stack: a raise to `max_raise_to` when raising is legal, else a call.
    AllIn,
}

impl Action {
    /// The kind of the action, for legal-action lists.
    pub fn kind(self) -> ActionKind {
        match self {
            Action::Fold => ActionKind::Fold,
            Action::Check => ActionKind::Check,
            Action::Call => ActionKind::Call,
            Action::RaiseTo(_) | Action::AllIn => ActionKind::Raise,
        }
    }
}

/// The kinds of actions a player may be offered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ActionKind {
    /// [`Action::Fold`].
    Fold,
    /// [`Action::Check`].
    Check,
    /// [`Action::Call`].
    Call,
    /// [`Action::RaiseTo`] (a bet when nobody has bet yet).
    Raise,
}

/// What the player to act may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Legal {
    /// The seat to act.
    pub seat: usize,
    /// Folding is legal (there is a bet to call).
    pub fold: bool,
    /// Checking is legal (nothing to call).
    pub check: bool,
    /// Chips a call puts in (0 when checking; the whole stack when it is short).
    pub call_amount: Chips,
    /// Betting or raising is legal. When false, `min_raise_to` and `max_raise_to` are 0.
    pub raise: bool,
    /// The smallest legal raise-to: the largest bet plus the last full raise increment (at
    /// least the big blind), or the whole stack when that is less.
    pub min_raise_to: Chips,
    /// The largest legal raise-to: the player's bet plus stack (all-in).
    pub max_raise_to: Chips,
}

impl Legal {
    /// Whether `action` is legal here.
    pub fn allows(&self, action: Action) -> bool {
        match action {
            Action::Fold => self.fold,
            Action::Check => self.check,
            Action::Call => !self.check,
            Action::RaiseTo(to) => {
                self.raise && (self.min_raise_to..=self.max_raise_to).contains(&to)
            }
            Action::AllIn => true,
        }
    }

    /// The legal action kinds, in the order fold, check, call, raise.
    pub fn kinds(&self) -> Vec<ActionKind> {
        let mut kinds = Vec::with_capacity(3);
        if self.fold {
            kinds.push(ActionKind::Fold);
        }
        kinds.push(if self.check {
            ActionKind::Check
        } else {
            ActionKind::Call
        });
        if self.raise {
            kinds.push(ActionKind::Raise);
        }
        kinds
    }
}

/// The seat that posts the small blind: the button heads-up, else the seat on its left.
pub fn small_blind_seat(seats: usize, button: usize) -> usize {
    if seats == 2 {
        button
    } else {
        (button + 1) % seats
    }
}

/// The seat that posts the big blind: left of the small blind.
pub fn big_blind_seat(seats: usize, button: usize) -> usize {
    (small_blind_seat(seats, button) + 1) % seats
}

/// pokerkit's player index of `seat`: pokerkit orders players from the seat left of the
/// button (index 0) to the button (index `seats - 1`), so heads-up the big blind is index 0.
pub fn pokerkit_index(seats: usize, button: usize, seat: usize) -> usize {
    (seat + seats - button - 1) % seats
}
