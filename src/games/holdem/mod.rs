//! No-limit Texas hold'em: the rules of one hand with integer chips for 2 to 10 seats (see
//! `docs/holdem.md`), checked action by action against pokerkit 0.7.
//!
//! - this module: the configuration [`NoLimitHoldem`] (with [`TableConfig`]: blinds and
//!   ante), action ids and its registration;
//! - `fast`: the fast lane engine and its state [`NoLimitHoldemState`];
//! - `reference`: [`NlHand`], one hand from the deal to the payout with plain owned
//!   data (callers ask it who acts ([`NlHand::to_act`]), what is legal ([`NlHand::legal`]:
//!   the call amount, min and max raise-to) and apply an [`Action`]; an illegal action is an
//!   [`Error`] and changes nothing), and [`reference::Reference`], that hand played through
//!   the batch game's actions (the **reference engine** of `cardvec diff holdem`);
//! - `checks`: `checks::check_state` and the fuzz check's part; `bots`: the bots;
//!   `info`: the information states (the action history of the hand, for solvers);
//!   `view`: the observation encoder (private to the crate); [`policy`]: policies giving
//!   action probabilities for every holding (for local best response);
//! - `trace`: hands under a mixed random policy written as JSON lines, which
//!   `python/tests/test_holdem_pokerkit.py` replays in pokerkit; `phh`: hand histories;
//!   [`Session`]: many hands at one table.
//!
//! Seats are numbered clockwise `0..n`; the button is a seat. With three seats or more the
//! small blind sits left of the button (`button + 1`) and the big blind next; heads-up the
//! button posts the small blind, acts first before the flop and last after it.
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

// Seat loops index several per-seat arrays at once; `for seat in 0..n` says it plainest.
#![allow(clippy::needless_range_loop)]

pub(crate) mod bots;
pub(crate) mod checks;
mod determinize;
pub(crate) mod fast;
pub(crate) mod info;
pub(crate) mod phh;
pub mod policy;
pub(crate) mod reference;
mod words;
mod session;
pub(crate) mod trace;
pub(crate) mod view;

pub use fast::NoLimitHoldemState;
pub use phh::{fuzz_check as fuzz_check_phh, read_phh, write_phh};
pub use reference::{NlHand, Pot, Reference, Street};
pub use session::Session;
pub use words::hand_outcome;

/// Cards in the deck (the poker deck's 52 card ids, [`crate::poker::Card`]).
pub use crate::poker::DECK_SIZE;

use crate::core::spec::{
    GameInfo, GameSpec, OptionKind, OptionSpec, OptionValue, Options,
};
use crate::core::tree::InfoStateFns;
use crate::core::{Bot, Error, Result};

/// Chips are whole numbers.
pub type Chips = u64;

/// Fewest players (seats at a table).
pub const MIN_PLAYERS: usize = 2;
/// Most players (seats at a table).
pub const MAX_PLAYERS: usize = 10;

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

/// Largest blind, ante or hand stack ([`TableConfig::new`], [`NlHand::new`]): 2^40 chips, so
/// that sums over ten seats never overflow.
pub const MAX_CHIPS: Chips = 1 << 40;

impl TableConfig {
    /// A validated configuration: `1 <= small_blind <= big_blind`, `ante >= 0`, and every
    /// amount at most [`MAX_CHIPS`] (2^40, so that sums over ten seats never overflow).
    pub fn new(small_blind: Chips, big_blind: Chips, ante: Chips) -> Result<Self> {
        Error::check_range("big_blind", 1, MAX_CHIPS, big_blind)?;
        Error::check_range("small_blind", 1, big_blind, small_blind)?;
        Error::check_range("ante", 0, MAX_CHIPS, ante)?;
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
pub fn small_blind_seat(num_players: usize, button: usize) -> usize {
    if num_players == 2 {
        button
    } else {
        (button + 1) % num_players
    }
}

/// The seat that posts the big blind: left of the small blind.
pub fn big_blind_seat(num_players: usize, button: usize) -> usize {
    (small_blind_seat(num_players, button) + 1) % num_players
}

/// pokerkit's player index of `seat`: pokerkit orders players from the seat left of the
/// button (index 0) to the button (index `num_players - 1`), so heads-up the big blind is
/// index 0.
pub fn pokerkit_index(num_players: usize, button: usize, seat: usize) -> usize {
    (seat + num_players - button - 1) % num_players
}

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
/// "No seat" in a state's seat byte (nobody to act: the hand is over).
pub(crate) const NO_SEAT: u8 = u8::MAX;
/// Largest total of chips at a table (so that every amount fits a `u32`, and an `f32`
/// observation of a chip count in big blinds stays close).
pub const MAX_TABLE_CHIPS: u64 = 1 << 30;

impl GameSpec for NoLimitHoldem {
    const INFO: GameInfo = GameInfo {
        id: "holdem",
        title: "No-limit Texas hold'em",
        summary: "one hand per lane, pokerkit 0.7's rules decision for decision",
        docs: "docs/holdem.md",
        python_class: "NoLimitHoldem",
        num_players: (MIN_PLAYERS, MAX_PLAYERS),
        options: &[
            OptionSpec {
                name: "num_players",
                kind: OptionKind::Int {
                    min: MIN_PLAYERS as i64,
                    max: MAX_PLAYERS as i64,
                },
                default: "2",
                doc: "seats",
            },
            OptionSpec {
                name: "small_blind",
                kind: OptionKind::Int { min: 1, max: 1 << 40 },
                default: "1",
                doc: "the small blind (at most the big blind)",
            },
            OptionSpec {
                name: "big_blind",
                kind: OptionKind::Int { min: 1, max: 1 << 40 },
                default: "2",
                doc: "the big blind, also the minimum bet",
            },
            OptionSpec {
                name: "ante",
                kind: OptionKind::Int { min: 0, max: 1 << 40 },
                default: "0",
                doc: "the ante every seat posts",
            },
            OptionSpec {
                name: "stack",
                kind: OptionKind::Int {
                    min: 1,
                    max: MAX_TABLE_CHIPS as i64,
                },
                default: "auto",
                doc: "every seat's starting stack (auto: 100 big blinds)",
            },
            OptionSpec {
                name: "stacks",
                kind: OptionKind::IntList {
                    min: 1,
                    max: MAX_TABLE_CHIPS as i64,
                },
                default: "none",
                doc: "one starting stack per seat (instead of stack)",
            },
            OptionSpec {
                name: "raise_fractions",
                kind: OptionKind::FloatList {
                    min: 0.001,
                    max: 100.0,
                },
                default: "[0.5,1,2]",
                doc: "raise sizes as fractions of the pot after a call (0 to 8, increasing)",
            },
            OptionSpec {
                name: "button",
                kind: OptionKind::OptionalInt {
                    min: 0,
                    max: MAX_PLAYERS as i64 - 1,
                },
                default: "none",
                doc: "a fixed button seat (none: drawn at random each hand)",
            },
        ],
        bots: bots::BOT_NAMES,
        configurations: &[
            "",
            "num_players=6",
            "num_players=3,ante=1,stacks=[50,200,1000]",
            "num_players=10,small_blind=5,big_blind=10,stack=1000,raise_fractions=[0.33,0.75,1.5,3.0]",
            // A short table: about a quarter of its hands are decided at the deal.
            "num_players=4,ante=5,stacks=[3,4,6,1000]",
        ],
        match_bots: &["random", "call-station", "equity"],
        match_players: &[2, 6],
        match_options: "",
        reward_unit: "big blinds",
        result_unit: "chips",
        engine_options: &["raise_fractions"],
        reward_report: (100.0, "bb/100"),
        oracle: "pokerkit 0.7",
    };

    fn configure(options: &Options) -> Result<Self> {
        let chips = |name: &str| -> Result<Chips> { Ok(options.int(name)? as Chips) };
        let table = TableConfig::new(chips("small_blind")?, chips("big_blind")?, chips("ante")?)?;
        let num_players = options.int("num_players")? as usize;
        let blank = NoLimitHoldem::blank(num_players, table)?;
        // The stacks given are the ones checked: the default stack is computed only when
        // neither `stack` nor `stacks` is given.
        let mut game = match (options.opt_int("stack")?, options.int_list("stacks")?) {
            (Some(_), Some(_)) => {
                return Err(Error::Invalid {
                    what: "stacks",
                    reason: "give stack or stacks, not both".into(),
                })
            }
            (_, Some(stacks)) => {
                let stacks: Vec<Chips> = stacks.iter().map(|&s| s as Chips).collect();
                blank.with_stacks(&stacks)?
            }
            (Some(stack), None) => blank.with_stacks(&vec![stack as Chips; num_players])?,
            (None, None) => {
                let stack = table.big_blind.saturating_mul(100);
                let total = stack as u128 * num_players as u128;
                if stack > MAX_TABLE_CHIPS || total > MAX_TABLE_CHIPS as u128 {
                    return Err(Error::Invalid {
                        what: "stack",
                        reason: format!(
                            "the default stack, 100 big blinds ({stack} chips), makes {total} \
                             chips at {num_players} seats, more than a table holds \
                             ({MAX_TABLE_CHIPS}): give stack or stacks"
                        ),
                    });
                }
                blank.with_stacks(&vec![stack; num_players])?
            }
        };
        if let Some(fractions) = options.float_list("raise_fractions")? {
            game = game.with_raise_fractions(&fractions)?;
        }
        if let Some(b) = options.opt_int("button")? {
            game = game.with_button(Some(b as usize))?;
        }
        Ok(game)
    }

    fn options(&self) -> Options {
        let int = |v: Chips| OptionValue::Int(v as i64);
        let t = self.table();
        Options::new(
            Self::INFO.options,
            [
                ("num_players".into(), int(self.num_players() as Chips)),
                ("small_blind".into(), int(t.small_blind)),
                ("big_blind".into(), int(t.big_blind)),
                ("ante".into(), int(t.ante)),
                (
                    "stacks".into(),
                    OptionValue::List(self.stacks().into_iter().map(int).collect()),
                ),
                (
                    "raise_fractions".into(),
                    OptionValue::List(
                        self.raise_fractions_permille()
                            .iter()
                            .map(|&f| OptionValue::Float(f as f64 / 1000.0))
                            .collect(),
                    ),
                ),
                (
                    "button".into(),
                    self.button().map_or(OptionValue::None, |b| int(b as Chips)),
                ),
            ],
        )
        .expect("a configuration's own options are valid")
    }

    fn zero_sum(&self) -> bool {
        true
    }

    fn determinizer() -> Option<crate::core::DeterminizeFn<Self>> {
        Some(<Self as crate::core::Determinize>::determinize)
    }

    fn bot(&self, name: &str) -> Result<Box<dyn Bot<Self>>> {
        bots::by_name(name)
    }

    fn info_states() -> Option<InfoStateFns<Self>> {
        Some(InfoStateFns::of())
    }

}

/// No-limit hold'em as a batch game: one hand per lane.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NoLimitHoldem {
    pub(crate) num_players: u8,
    pub(crate) table: TableConfig,
    pub(crate) stacks: [u32; MAX_PLAYERS],
    pub(crate) button: Option<u8>,
    /// Raise fractions in thousandths of the pot.
    pub(crate) fractions: [u32; MAX_FRACTIONS],
    pub(crate) num_fractions: u8,
}

impl NoLimitHoldem {
    /// `num_players` (2..=10) seats, each starting every hand with `stack` chips, under
    /// `table`; a random button each hand; raises of 1/2, 1 and 2 pots.
    pub fn new(num_players: usize, table: TableConfig, stack: Chips) -> Result<Self> {
        Self::blank(num_players, table)?.with_stacks(&vec![stack; num_players])
    }

    /// `num_players` seats under `table`, raises of 1/2, 1 and 2 pots, a random button and
    /// no stacks yet (every builder fills them with [`NoLimitHoldem::with_stacks`]).
    fn blank(num_players: usize, table: TableConfig) -> Result<Self> {
        Error::check_range(
            "num_players",
            MIN_PLAYERS as Chips,
            MAX_PLAYERS as Chips,
            num_players as Chips,
        )?;
        let game = NoLimitHoldem {
            num_players: num_players as u8,
            table,
            stacks: [0; MAX_PLAYERS],
            button: None,
            fractions: [0; MAX_FRACTIONS],
            num_fractions: 0,
        };
        game.with_raise_fractions(&[0.5, 1.0, 2.0])
    }

    /// Heads-up or six-max with blinds 1/2, no ante, 200 chips (100 big blinds) each.
    pub fn standard(num_players: usize) -> Result<Self> {
        Self::new(num_players, TableConfig::new(1, 2, 0)?, 200)
    }

    /// The same game with these starting stacks (one per seat, each at least 1, the total
    /// at most [`MAX_TABLE_CHIPS`]).
    ///
    /// Any stacks are playable, however short: a hand in which nobody has a decision (every
    /// seat, or every seat but one that faces no bet, all-in from the antes and blinds) is
    /// played out at the deal, board run out and pots paid, and its lane starts terminated
    /// with the results as rewards ([`crate::core::Game::deal_rewards`]).
    pub fn with_stacks(mut self, stacks: &[Chips]) -> Result<Self> {
        Error::check_len("stacks", self.num_players(), stacks.len())?;
        for &s in stacks {
            Error::check_range("stack", 1, MAX_TABLE_CHIPS, s)?;
        }
        let total: u128 = stacks.iter().map(|&s| s as u128).sum();
        if total > MAX_TABLE_CHIPS as u128 {
            return Err(Error::Invalid {
                what: "stacks",
                reason: format!(
                    "the stacks {stacks:?} make {total} chips, more than a table holds \
                     ({MAX_TABLE_CHIPS})"
                ),
            });
        }
        let t = self.table;
        Error::check_range("big_blind", 1, MAX_TABLE_CHIPS, t.big_blind)?;
        Error::check_range("ante", 0, MAX_TABLE_CHIPS, t.ante)?;
        self.stacks = [0; MAX_PLAYERS];
        for (d, &s) in self.stacks.iter_mut().zip(stacks) {
            *d = s as u32;
        }
        Ok(self)
    }

    /// The same game with a fixed button seat (`None`: drawn from the lane's stream at each
    /// reset; [`crate::core::Game::reset_from_order`] then uses seat 0).
    pub fn with_button(mut self, button: Option<usize>) -> Result<Self> {
        if let Some(b) = button {
            Error::check_range("button", 0, self.num_players() as i64 - 1, b as i64)?;
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

    /// Number of players (seats at the table).
    pub fn num_players(&self) -> usize {
        self.num_players as usize
    }

    /// Blinds and ante.
    pub fn table(&self) -> TableConfig {
        self.table
    }

    /// Starting stacks, one per seat.
    pub fn stacks(&self) -> Vec<Chips> {
        self.stacks[..self.num_players()]
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
    pub fn num_actions(&self) -> usize {
        3 + self.num_fractions as usize
    }

    /// Length of an observation: `118 + 9 * num_players`.
    pub fn obs_dim(&self) -> usize {
        118 + 9 * self.num_players()
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
