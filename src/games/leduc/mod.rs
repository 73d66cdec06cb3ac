//! Leduc hold'em, exactly as OpenSpiel's `leduc_poker` plays it with its default
//! parameters (two players; see `docs/leduc.md`): six cards (jack, queen, king in two
//! suits), an ante of one chip each, one private card per seat, a first betting round, one
//! public card, a second betting round, then a showdown in which a pair with the public card
//! beats any unpaired hand and otherwise the higher card wins (equal ranks split the pot).
//!
//! Card ids are OpenSpiel's: card `c` has rank `c / 2` (`0` jack, `1` queen, `2` king) and
//! suit `c % 2`. Actions are OpenSpiel's: `0` fold (legal only when facing a bet), `1` call
//! (or check), `2` raise (by 2 chips in the first round, 4 in the second; at most 2 raises a
//! round). Seat 0 acts first in both rounds. A round ends when both have checked, or when a
//! raise is called. The rewards at the end are OpenSpiel's returns (chips won or lost);
//! every other step pays 0.
//!
//! The public card is drawn at the deal (from the four cards left, as OpenSpiel's chance
//! node draws it) and stays hidden until the first round is over.
//!
//! The observation is OpenSpiel's `information_state_tensor` (30 floats): the observing seat
//! one-hot (2), its card one-hot (6), the public card one-hot once revealed (6), then the
//! betting of each round, 4 slots of 2 bits (call `10`, raise `01`, fold `00`).
//!
//! Leduc has the solver capabilities ([`crate::core::InfoStates`],
//! [`crate::core::GameTree`]) in OpenSpiel's tree shape: see `tree`.

pub(crate) mod bots;
pub(crate) mod checks;
mod determinize;
pub(crate) mod fast;
pub(crate) mod reference;
mod words;
pub(crate) mod tree;

pub use fast::LeducHoldemState;
pub use reference::Reference;

use crate::core::spec::{GameInfo, GameSpec, Options};
use crate::core::tree::{InfoStateFns, TreeVisitor};
use crate::core::{Bot, Result};

/// Leduc hold'em, the value the core batches. The game has no options.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LeducHoldem;

impl GameSpec for LeducHoldem {
    const INFO: GameInfo = GameInfo {
        id: "leduc",
        title: "Leduc hold'em",
        summary: "two-player Leduc hold'em, rules, actions and payoffs as OpenSpiel's leduc_poker",
        docs: "docs/leduc.md",
        python_class: "LeducHoldem",
        num_players: (NUM_PLAYERS, NUM_PLAYERS),
        options: &[],
        bots: bots::BOT_NAMES,
        configurations: &[""],
        match_bots: &["raise-with-king", "random"],
        match_players: &[],
        match_options: "",
        reward_unit: "chips",
        result_unit: "chips",
        engine_options: &[],
        reward_report: (1.0, "chips"),
        oracle: "OpenSpiel leduc_poker (python/tests/test_kuhn_leduc_openspiel.py)",
    };

    fn configure(_options: &Options) -> Result<Self> {
        Ok(LeducHoldem)
    }

    fn options(&self) -> Options {
        Options::defaults(Self::INFO.options)
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

    fn visit_tree<V: TreeVisitor>(&self, visitor: &mut V) -> Option<V::Output> {
        Some(visitor.visit(self))
    }
}

/// Number of players.
pub const NUM_PLAYERS: usize = 2;
/// Number of cards in the deck: three ranks in two suits.
pub const DECK_SIZE: usize = 6;
/// Size of the action space.
pub const N_ACTIONS: usize = 3;
/// Fold (OpenSpiel's action 0): legal only when facing a bet.
pub const FOLD: u32 = 0;
/// Call, or check (OpenSpiel's action 1): always legal.
pub const CALL: u32 = 1;
/// Raise (OpenSpiel's action 2): legal while the round has seen fewer than 2 raises.
pub const RAISE: u32 = 2;
/// Betting rounds.
pub const N_ROUNDS: usize = 2;
/// Raises allowed in a round.
pub const MAX_RAISES: u8 = 2;
/// The most actions in one round (check, raise, raise, call).
pub const MAX_ROUND_ACTIONS: usize = 4;
/// The size of a raise in each round.
pub const RAISE_AMOUNTS: [u8; N_ROUNDS] = [2, 4];
/// The chips each seat puts in before the deal.
pub const ANTE: u8 = 1;
/// Each seat's chips before the ante (OpenSpiel's starting money; only its information
/// state string shows it).
pub const STARTING_MONEY: i32 = 100;
/// Offset of the private card one-hot in the observation.
pub const OBS_PRIVATE: usize = NUM_PLAYERS;
/// Offset of the public card one-hot in the observation.
pub const OBS_PUBLIC: usize = OBS_PRIVATE + DECK_SIZE;
/// Offset of the betting in the observation: round `r`, slot `i` at `+ 8r + 2i` (call) and
/// `+ 8r + 2i + 1` (raise).
pub const OBS_BETTING: usize = OBS_PUBLIC + DECK_SIZE;
/// Length of an observation row: OpenSpiel's information-state tensor.
pub const OBS_DIM: usize = OBS_BETTING + N_ROUNDS * MAX_ROUND_ACTIONS * 2;
/// The rank of the king.
pub const KING: u8 = 2;

/// The rank of a card: `0` jack, `1` queen, `2` king.
#[inline]
pub const fn rank_of(card: u8) -> u8 {
    card / 2
}

/// A card as text: its rank letter and suit, `J0` .. `K1`.
pub fn card_name(card: u8) -> String {
    let rank = ['J', 'Q', 'K'].get(rank_of(card) as usize).unwrap_or(&'?');
    format!("{rank}{}", card % 2)
}
