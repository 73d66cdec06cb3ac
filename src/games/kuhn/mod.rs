//! Kuhn poker, exactly as OpenSpiel's `kuhn_poker` plays it (two players; see
//! `docs/kuhn.md`): a three-card deck (jack, queen, king), an ante of one chip each, one
//! card dealt to each seat, then one betting round in which a bet is one chip.
//!
//! Card ids are OpenSpiel's: `0` jack, `1` queen, `2` king. Actions are OpenSpiel's: `0`
//! pass (check or fold), `1` bet (bet or call). Seat 0 acts first. The game ends after
//! pass-pass (showdown for 1 chip), bet-pass (the bettor wins 1), pass-bet-pass (seat 1
//! wins 1), or a called bet (showdown for 2). The rewards at the end are OpenSpiel's
//! returns (±1 or ±2); every other step pays 0.
//!
//! The observation is OpenSpiel's `information_state_tensor` (11 floats): the observing
//! seat one-hot (2), its card one-hot (3), then the betting history, 3 slots of 2 bits
//! (pass `10`, bet `01`).

pub(crate) mod bots;
pub(crate) mod checks;
mod determinize;
pub(crate) mod fast;
pub(crate) mod reference;
mod words;
pub(crate) mod tree;

pub use fast::KuhnPokerState;
pub use reference::Reference;

use crate::core::spec::{GameInfo, GameSpec, Options};
use crate::core::tree::{InfoStateFns, TreeVisitor};
use crate::core::{Bot, Result};

/// Kuhn poker, the value the core batches. The game has no options.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KuhnPoker;

impl GameSpec for KuhnPoker {
    const INFO: GameInfo = GameInfo {
        id: "kuhn",
        title: "Kuhn poker",
        summary: "two-player Kuhn poker, rules, actions and payoffs as OpenSpiel's kuhn_poker",
        docs: "docs/kuhn.md",
        python_class: "KuhnPoker",
        num_players: (NUM_PLAYERS, NUM_PLAYERS),
        options: &[],
        bots: bots::BOT_NAMES,
        configurations: &[""],
        match_bots: &["king-only", "random"],
        match_players: &[],
        match_options: "",
        reward_unit: "chips",
        result_unit: "chips",
        engine_options: &[],
        reward_report: (1.0, "chips"),
        oracle: "OpenSpiel kuhn_poker (python/tests/test_kuhn_leduc_openspiel.py)",
    };

    fn configure(_options: &Options) -> Result<Self> {
        Ok(KuhnPoker)
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
/// Number of cards in the deck (jack, queen, king).
pub const DECK_SIZE: usize = 3;
/// Size of the action space.
pub const N_ACTIONS: usize = 2;
/// Pass: check, or fold to a bet (OpenSpiel's action 0).
pub const PASS: u32 = 0;
/// Bet: bet, or call a bet (OpenSpiel's action 1).
pub const BET: u32 = 1;
/// The longest betting history (pass, bet, then pass or bet).
pub const MAX_HISTORY: usize = 3;
/// Length of an observation row: OpenSpiel's information-state tensor.
pub const OBS_DIM: usize = NUM_PLAYERS + DECK_SIZE + 2 * MAX_HISTORY;
/// Offset of the card one-hot in the observation.
pub const OBS_CARD: usize = NUM_PLAYERS;
/// Offset of the betting history in the observation (slot `i`: pass at `+2i`, bet at
/// `+2i+1`).
pub const OBS_HISTORY: usize = NUM_PLAYERS + DECK_SIZE;
/// The king, the highest card.
pub const KING: u8 = 2;

/// A card's letter: `J`, `Q` or `K` (`?` for anything else).
pub fn card_name(card: u8) -> char {
    match card {
        0 => 'J',
        1 => 'Q',
        2 => 'K',
        _ => '?',
    }
}

/// OpenSpiel's letter of an action in a history: `p` (pass) or `b` (bet).
pub fn action_letter(action: u8) -> char {
    if action == BET as u8 {
        'b'
    } else {
        'p'
    }
}
