//! The batch game: configuration, discrete action abstraction and observation encoding
//! shared by the fast lane engine ([`super::fast`]) and the reference lane
//! ([`super::reference_lane`]).
//!
//! ## Actions
//!
//! With `K` raise fractions configured (default 1/2, 1 and 2 pots), `num_actions = 3 + K`:
//!
//! | id | action | legal when |
//! | --- | --- | --- |
//! | `0` | fold | facing a bet |
//! | `1` | check or call (a call for less when short) | always |
//! | `2 + k` | raise to `max_bet + floor(f_k * (pot + to_call))` | raising is legal and the amount is in `min_raise_to..max_raise_to` (below all-in) |
//! | `2 + K` | all-in (raise to the whole stack) | raising is legal |
//! | `EXACT_RAISE \| c` | raise to exactly `c` chips | raising is legal and `c` is in `min_raise_to..=max_raise_to` |
//!
//! `pot` is every chip in the middle (pots plus this street's bets) and `to_call` the
//! actor's call amount, so the fraction 1 is the classic pot-sized raise. The exact
//! raise-to ids (`0x8000_0000 | chips`) lie outside the mask: callers that use them validate
//! with the `min_raise_to` / `max_raise_to` of the observation (or get a flagged no-op).
//!
//! ## Observation (`obs_dim = 118 + 9 * seats`), as seen by seat `p`
//!
//! Chip amounts are in big blinds. Seats are listed relative to the observer: row `i` is
//! seat `(p + i) % seats`, so row 0 is always the observer.
//!
//! | offset | length | content |
//! | --- | --- | --- |
//! | 0 | 52 | own hole cards, one-hot by card id `13 * suit + rank` |
//! | 52 | 52 | board cards dealt so far, one-hot |
//! | 104 | 5 | street one-hot: preflop, flop, turn, river, hand over |
//! | 109 | 9 per seat | stack, bet this street, chips in the pots from earlier streets, folded, all-in, is the button, is to act, raises this street, raises this hand |
//! | 109 + 9n | 4 | pot (all chips in the middle), to call, min raise-to, max raise-to (the last three for the seat to act; 0 when raising is closed or the hand is over) |
//! | 113 + 9n | 4 | raises (bets included) on the preflop, flop, turn, river |
//! | 117 + 9n | 1 | the observer's position: seats between the button and the observer, the small blind (left of the button) being 0 (heads-up the button is 1) |

use super::{Chips, Legal, TableConfig, MAX_SEATS, MIN_SEATS};
use crate::core::{Error, Result};

/// Action id of fold.
pub const FOLD: u32 = 0;
/// Action id of check or call.
pub const CHECK_CALL: u32 = 1;
/// First id of the fractional raises.
pub const RAISE_BASE: u32 = 2;
/// Flag bit of an exact raise-to: `EXACT_RAISE | chips`.
pub const EXACT_RAISE: u32 = 0x8000_0000;
/// Most raise fractions a configuration may hold.
pub const MAX_FRACTIONS: usize = 8;
/// Largest total of chips at a table (so that every amount fits a `u32`, and an `f32`
/// observation of a chip count in big blinds stays close).
pub const MAX_TABLE_CHIPS: u64 = 1 << 30;

/// No-limit hold'em as a batch game: one hand per lane.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NoLimitHoldem {
    pub(crate) seats: u8,
    pub(crate) table: TableConfig,
    pub(crate) stacks: [u32; MAX_SEATS],
    pub(crate) button: Option<u8>,
    /// Raise fractions in thousandths of the pot.
    pub(crate) fractions: [u32; MAX_FRACTIONS],
    pub(crate) num_fractions: u8,
}

impl NoLimitHoldem {
    /// `seats` (2..=10) seats, each starting every hand with `stack` chips (more than ante
    /// plus big blind), under `table`;
    /// a random button each hand; raises of 1/2, 1 and 2 pots.
    pub fn new(seats: usize, table: TableConfig, stack: Chips) -> Result<Self> {
        Error::check_range("seats", MIN_SEATS as i64, MAX_SEATS as i64, seats as i64)?;
        let game = NoLimitHoldem {
            seats: seats as u8,
            table,
            stacks: [0; MAX_SEATS],
            button: None,
            fractions: [0; MAX_FRACTIONS],
            num_fractions: 0,
        };
        game.with_stacks(&vec![stack; seats])?
            .with_raise_fractions(&[0.5, 1.0, 2.0])
    }

    /// Heads-up or six-max with blinds 1/2, no ante, 200 chips (100 big blinds) each.
    pub fn standard(seats: usize) -> Result<Self> {
        Self::new(seats, TableConfig::new(1, 2, 0)?, 200)
    }

    /// The same game with these starting stacks (one per seat, each at least 1, the total
    /// at most [`MAX_TABLE_CHIPS`]).
    pub fn with_stacks(mut self, stacks: &[Chips]) -> Result<Self> {
        Error::check_len("stacks", self.seats as usize, stacks.len())?;
        let mut total = 0u64;
        for &s in stacks {
            Error::check_range(
                "stack",
                1,
                MAX_TABLE_CHIPS as i64,
                s.min(MAX_TABLE_CHIPS + 1) as i64,
            )?;
            total += s;
        }
        Error::check_range(
            "total chips",
            1,
            MAX_TABLE_CHIPS as i64,
            total.min(MAX_TABLE_CHIPS + 1) as i64,
        )?;
        let t = self.table;
        Error::check_range(
            "big blind",
            1,
            MAX_TABLE_CHIPS as i64,
            t.big_blind.min(MAX_TABLE_CHIPS + 1) as i64,
        )?;
        Error::check_range(
            "ante",
            0,
            MAX_TABLE_CHIPS as i64,
            t.ante.min(MAX_TABLE_CHIPS + 1) as i64,
        )?;
        self.stacks = [0; MAX_SEATS];
        for (d, &s) in self.stacks.iter_mut().zip(stacks) {
            *d = s as u32;
        }
        Ok(self)
    }

    /// The same game with a fixed button seat (`None`: drawn from the lane's stream at each
    /// reset; [`crate::core::Game::reset_from_order`] then uses seat 0).
    pub fn with_button(mut self, button: Option<usize>) -> Result<Self> {
        if let Some(b) = button {
            Error::check_range("button", 0, self.seats as i64 - 1, b as i64)?;
        }
        self.button = button.map(|b| b as u8);
        Ok(self)
    }

    /// The same game with these raise sizes, as fractions of the pot after a call (0 to 8
    /// of them, each in `0.001..=100`, rounded to thousandths, strictly increasing).
    pub fn with_raise_fractions(mut self, fractions: &[f64]) -> Result<Self> {
        Error::check_range(
            "raise fractions",
            0,
            MAX_FRACTIONS as i64,
            fractions.len() as i64,
        )?;
        let mut out = [0u32; MAX_FRACTIONS];
        for (i, &f) in fractions.iter().enumerate() {
            if !(0.001..=100.0).contains(&f) {
                return Err(Error::Invalid {
                    what: "raise fraction",
                    reason: format!("{f} is not in 0.001..=100"),
                });
            }
            out[i] = (f * 1000.0).round() as u32;
            if i > 0 && out[i] <= out[i - 1] {
                return Err(Error::Invalid {
                    what: "raise fractions",
                    reason: "must be strictly increasing".into(),
                });
            }
        }
        self.fractions = out;
        self.num_fractions = fractions.len() as u8;
        Ok(self)
    }

    /// Number of seats.
    pub fn seats(&self) -> usize {
        self.seats as usize
    }

    /// Blinds and ante.
    pub fn table(&self) -> TableConfig {
        self.table
    }

    /// Starting stacks, one per seat.
    pub fn stacks(&self) -> Vec<Chips> {
        self.stacks[..self.seats()]
            .iter()
            .map(|&s| s as Chips)
            .collect()
    }

    /// The fixed button, if any.
    pub fn button(&self) -> Option<usize> {
        self.button.map(|b| b as usize)
    }

    /// The raise fractions in thousandths of the pot.
    pub fn raise_fractions_permille(&self) -> &[u32] {
        &self.fractions[..self.num_fractions as usize]
    }

    /// Id of the all-in action: `2 + K`.
    pub fn all_in_action(&self) -> u32 {
        RAISE_BASE + self.num_fractions as u32
    }

    /// Size of the discrete action space: `3 + K`.
    pub fn action_count(&self) -> usize {
        3 + self.num_fractions as usize
    }

    /// Length of an observation: `118 + 9 * seats`.
    pub fn observation_len(&self) -> usize {
        118 + 9 * self.seats()
    }

    /// The raise-to of fraction `k` for an actor facing `to_call` with `pot` chips in the
    /// middle and a largest bet `max_bet`.
    pub fn fraction_raise_to(&self, k: usize, max_bet: Chips, to_call: Chips, pot: Chips) -> Chips {
        max_bet + self.fractions[k] as Chips * (pot + to_call) / 1000
    }

    /// Writes the legal mask of a decision: `legal` from the engine, `max_bet` the largest
    /// bet and `pot` the chips in the middle.
    #[inline(always)]
    pub fn mask_of(&self, legal: &Legal, max_bet: Chips, pot: Chips, mask: &mut [u8]) {
        mask.fill(0);
        mask[FOLD as usize] = legal.fold as u8;
        mask[CHECK_CALL as usize] = 1;
        if legal.raise {
            for k in 0..self.num_fractions as usize {
                let to = self.fraction_raise_to(k, max_bet, legal.call_amount, pot);
                mask[RAISE_BASE as usize + k] =
                    (to >= legal.min_raise_to && to < legal.max_raise_to) as u8;
            }
            mask[self.all_in_action() as usize] = 1;
        }
    }

    /// The exact raise-to of a legal raise action id (fraction, all-in or exact), or `None`
    /// when `action` is not a legal raise. `Some(0)` never occurs.
    pub fn raise_target(
        &self,
        action: u32,
        legal: &Legal,
        max_bet: Chips,
        pot: Chips,
    ) -> Option<Chips> {
        if !legal.raise {
            return None;
        }
        let to = if action & EXACT_RAISE != 0 {
            (action & !EXACT_RAISE) as Chips
        } else if action == self.all_in_action() {
            return Some(legal.max_raise_to);
        } else if action >= RAISE_BASE && action < self.all_in_action() {
            let to = self.fraction_raise_to(
                (action - RAISE_BASE) as usize,
                max_bet,
                legal.call_amount,
                pot,
            );
            if to >= legal.max_raise_to {
                return None;
            }
            to
        } else {
            return None;
        };
        (legal.min_raise_to..=legal.max_raise_to)
            .contains(&to)
            .then_some(to)
    }
}

/// What the observation encoder reads, in integers, from either engine.
pub struct ObsInputs<'a> {
    /// Seats.
    pub n: usize,
    /// Button seat.
    pub button: usize,
    /// Seat to act, if the hand is live.
    pub to_act: Option<usize>,
    /// 0..=3 the street, 4 the hand is over.
    pub street: usize,
    /// Hole card ids per seat.
    pub hole: &'a [[u8; 2]],
    /// Board card ids dealt so far.
    pub board: &'a [u8],
    /// Stacks, bets and chips from earlier streets per seat.
    pub stacks: &'a [Chips],
    /// Bets per seat.
    pub bets: &'a [Chips],
    /// Chips in the pots per seat.
    pub committed: &'a [Chips],
    /// Folded per seat.
    pub folded: &'a [bool],
    /// Raises this street per seat.
    pub raises_street: &'a [u16],
    /// Raises this hand per seat.
    pub raises_total: &'a [u16],
    /// Raises per street.
    pub street_raises: [u16; 4],
    /// The legal options of the seat to act.
    pub legal: Option<Legal>,
}

/// Writes the observation of seat `p` (see the module documentation) into `obs`.
pub fn encode(game: &NoLimitHoldem, x: &ObsInputs<'_>, p: usize, obs: &mut [f32]) {
    obs.fill(0.0);
    let bb = game.table.big_blind as f32;
    let chips = |c: Chips| c as f32 / bb;
    for &c in &x.hole[p] {
        obs[c as usize] = 1.0;
    }
    for &c in x.board {
        obs[52 + c as usize] = 1.0;
    }
    obs[104 + x.street.min(4)] = 1.0;
    let n = x.n;
    for i in 0..n {
        let s = (p + i) % n;
        let row = &mut obs[109 + 9 * i..109 + 9 * i + 9];
        row[0] = chips(x.stacks[s]);
        row[1] = chips(x.bets[s]);
        row[2] = chips(x.committed[s]);
        row[3] = x.folded[s] as u8 as f32;
        row[4] = (!x.folded[s] && x.stacks[s] == 0) as u8 as f32;
        row[5] = (s == x.button) as u8 as f32;
        row[6] = (x.to_act == Some(s)) as u8 as f32;
        row[7] = x.raises_street[s] as f32;
        row[8] = x.raises_total[s] as f32;
    }
    let g = 109 + 9 * n;
    let pot: Chips = x.committed.iter().sum::<Chips>() + x.bets.iter().sum::<Chips>();
    obs[g] = chips(pot);
    if let Some(l) = x.legal {
        obs[g + 1] = chips(l.call_amount);
        obs[g + 2] = chips(l.min_raise_to);
        obs[g + 3] = chips(l.max_raise_to);
    }
    for k in 0..4 {
        obs[g + 4 + k] = x.street_raises[k] as f32;
    }
    obs[g + 8] = ((p + 2 * n - x.button - 1) % n) as f32;
}
