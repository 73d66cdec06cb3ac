//! Flip 7 (rules edition 3.1) for 3 to 18 players, step for step identical to game-room
//! 0.1.0's `flip7_v0` (see `docs/flip7.md`), and alone (one seat, the solo game of
//! `solo`, which `flip7_v0` does not offer): card ids, action ids, the configuration
//! [`Flip7`], the fast lane engine (`fast`), the reference engine (`reference`), bots
//! (`bots`) and invariants (`checks`).
//!
//! Card ids: `0..=12` numbers, `13..=17` the modifiers +2..+10, `18` x2, `19` Freeze, `20`
//! Flip Three, `21` Second Chance. Actions: [`HIT`], [`STAY`], [`TARGET_OFFSET`] `+ seat`.

pub(crate) mod bots;
pub(crate) mod checks;
mod determinize;
mod encode;
pub(crate) mod fast;
pub(crate) mod horizon;
pub(crate) mod reference;
pub(crate) mod solo;
pub(crate) mod solo_bot;
pub(crate) mod solo_table;
mod words;
#[cfg(test)]
mod rules_tests;

pub use fast::Flip7State;
pub use reference::Reference;
pub use solo::{DecisionKey, RoundGraph, MAX_POINTS as SOLO_MAX_POINTS};
pub use solo_bot::{OptimalSolo, SoloPolicy, DEFAULT_POLICY_FILE as SOLO_POLICY_FILE};
pub use solo_table::{
    DecisionIndex, FreshSolver, PolicyWalk, SolveProgress, SolveStats, WalkProgress, INNER_CACHE_LOG2,
};

use crate::core::error::{Error, Result as CoreResult};
use crate::core::spec::{
    GameInfo, GameSpec, OptionKind, OptionSpec, OptionValue, Options,
};
use crate::core::Bot;

/// Number of distinct card ids.
pub const CARD_IDS: usize = 22;
/// Number of cards in the deck.
pub const DECK_SIZE: usize = 94;
/// Fewest seats of the multi-player game (`flip7_v0`'s); one seat ([`SOLO_PLAYERS`]) is the
/// solo game, two seats are refused.
pub const MIN_PLAYERS: usize = 3;
/// The seat count of the solo game (Flip 7 alone: every action card goes to oneself).
pub const SOLO_PLAYERS: usize = 1;
/// Most seats.
pub const MAX_PLAYERS: usize = 18;
/// Highest number card.
pub const MAX_NUMBER: u8 = 12;
/// The +2 modifier (the modifiers +2, +4, +6, +8, +10 are ids 13..=17).
pub const PLUS_2: u8 = 13;
/// The +10 modifier.
pub const PLUS_10: u8 = 17;
/// The x2 card (doubles the numbers only).
pub const TIMES_2: u8 = 18;
/// The Freeze action card.
pub const FREEZE: u8 = 19;
/// The Flip Three action card.
pub const FLIP_THREE: u8 = 20;
/// The Second Chance card.
pub const SECOND_CHANCE: u8 = 21;
/// Number cards that end the round with the Flip 7 bonus.
pub const FLIP7_CARDS: u8 = 7;
/// The Flip 7 bonus (not doubled by x2).
pub const FLIP7_BONUS: u32 = 15;

/// Action: draw a card.
pub const HIT: u32 = 0;
/// Action: bank the round's cards (needs at least one card in front of the player).
pub const STAY: u32 = 1;
/// Action `TARGET_OFFSET + seat` gives the pending card to `seat`.
pub const TARGET_OFFSET: u32 = 2;

/// Round status: still drawing.
pub const ACTIVE: u8 = 0;
/// Round status: stayed.
pub const STAYED: u8 = 1;
/// Round status: busted (scores 0 this round).
pub const BUSTED: u8 = 2;
/// Round status: frozen (banked by a Freeze).
pub const FROZEN: u8 = 3;

/// Scheduled event: opening deal of one card to a seat.
pub const TASK_DEAL: u8 = 1;
/// Scheduled event: one forced draw of a Flip Three.
pub const TASK_FORCED_DRAW: u8 = 2;
/// Scheduled event: end of a Flip Three (deferred actions are scheduled or canceled).
pub const TASK_END_THREE: u8 = 3;
/// Scheduled event: resolve a deferred action card (the only kind with a card).
pub const TASK_RESOLVE: u8 = 4;
/// Scheduled event: the next ordinary turn.
pub const TASK_TURN: u8 = 5;
/// Scheduled-event slots in the observation.
pub const OBS_TASK_SLOTS: usize = 128;
/// Deferred-action slots in the observation.
pub const OBS_DEFERRED_SLOTS: usize = 3;
/// Length of the observation header.
pub const OBS_HEADER: usize = 10;
/// Length of one seat's row in the observation (banked total, status, 22 counts).
pub const OBS_ROW: usize = 2 + CARD_IDS;

/// "No card" in a state's card byte (no pending action card).
pub(crate) const NO_CARD: u8 = u8::MAX;
/// "No seat" in a state's seat byte (nobody flipped seven this round).
pub(crate) const NO_SEAT: u8 = u8::MAX;

/// How many copies of each card id the deck holds.
pub const CARD_COPIES: [u8; CARD_IDS] = [
    1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 1, 1, 1, 1, 1, 1, 3, 3, 3,
];

/// Whether a card id is a number card.
#[inline]
pub const fn is_number(card: u8) -> bool {
    card <= MAX_NUMBER
}

/// Whether a card id is a score modifier (+2..+10 or x2).
#[inline]
pub const fn is_modifier(card: u8) -> bool {
    card >= PLUS_2 && card <= TIMES_2
}

/// The points of a `+` modifier card id (13 → 2, …, 17 → 10).
#[inline]
pub const fn plus_value(card: u8) -> u32 {
    2 * (card as u32 - MAX_NUMBER as u32)
}

/// The unshuffled deck in game-room's `make_deck()` order (ascending card ids).
pub fn make_deck() -> [u8; DECK_SIZE] {
    let mut deck = [0u8; DECK_SIZE];
    let mut i = 0;
    for (card, &copies) in CARD_COPIES.iter().enumerate() {
        for _ in 0..copies {
            deck[i] = card as u8;
            i += 1;
        }
    }
    deck
}

/// A readable name of a card id (`"7"`, `"+4"`, `"x2"`, `"FREEZE"`, …).
pub fn card_name(card: u8) -> String {
    match card {
        0..=MAX_NUMBER => card.to_string(),
        PLUS_2..=PLUS_10 => format!("+{}", plus_value(card)),
        TIMES_2 => "x2".into(),
        FREEZE => "FREEZE".into(),
        FLIP_THREE => "FLIP_THREE".into(),
        SECOND_CHANCE => "SECOND_CHANCE".into(),
        _ => format!("?{card}"),
    }
}

/// The largest `target_score` and `max_rounds` accepted: every value of the observation
/// then stays an integer that `f32` holds exactly.
pub const MAX_OPTION: u32 = 1 << 24;

/// Flip 7 with its options; the value the core batches (see `docs/flip7.md`).
///
/// The action space is per configuration, `2 + num_players` (as `flip7_v0`'s
/// `Discrete(2 + N)`), and the observation is `419 + 24 * num_players` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flip7 {
    num_players: u8,
    target_score: u32,
    max_rounds: u32,
}

impl Default for Flip7 {
    fn default() -> Self {
        Flip7 {
            num_players: 3,
            target_score: 200,
            max_rounds: 0,
        }
    }
}

impl Flip7 {
    /// A validated configuration: `num_players` 1 (the solo game) or in 3..=18,
    /// `target_score` at least 1, `max_rounds` `None` (no limit) or at least 1. Both numbers
    /// are at most [`MAX_OPTION`] (2^24) so that the `f32` observation stays exact.
    pub fn new(num_players: usize, target_score: u32, max_rounds: Option<u32>) -> CoreResult<Self> {
        if num_players != SOLO_PLAYERS && !(MIN_PLAYERS..=MAX_PLAYERS).contains(&num_players) {
            return Err(Error::Invalid {
                what: "num_players",
                reason: format!(
                    "num_players must be 1 (solo) or an integer from 3 to 18, got {num_players}"
                ),
            });
        }
        if !(1..=MAX_OPTION).contains(&target_score) {
            return Err(Error::Invalid {
                what: "target_score",
                reason: format!(
                    "target_score must be a positive integer (at most 2^24), got {target_score}"
                ),
            });
        }
        if let Some(m) = max_rounds {
            if !(1..=MAX_OPTION).contains(&m) {
                return Err(Error::Invalid {
                    what: "max_rounds",
                    reason: format!(
                        "max_rounds must be a positive integer (at most 2^24) or None, got {m}"
                    ),
                });
            }
        }
        Ok(Flip7 {
            num_players: num_players as u8,
            target_score,
            max_rounds: max_rounds.unwrap_or(0),
        })
    }

    /// `flip7_v0`'s defaults for `num_players` seats: target 200, no round limit.
    pub fn with_players(num_players: usize) -> CoreResult<Self> {
        Self::new(num_players, 200, None)
    }

    /// Number of seats.
    #[inline]
    pub fn num_players(&self) -> usize {
        self.num_players as usize
    }

    /// The banked total that ends the game at a round's end.
    #[inline]
    pub fn target_score(&self) -> u32 {
        self.target_score
    }

    /// The round limit, if any.
    #[inline]
    pub fn max_rounds(&self) -> Option<u32> {
        (self.max_rounds > 0).then_some(self.max_rounds)
    }

    /// Length of the observation: `419 + 24 * num_players`.
    #[inline]
    pub fn obs_dim(&self) -> usize {
        OBS_HEADER
            + OBS_ROW * self.num_players()
            + CARD_IDS
            + 3 * OBS_TASK_SLOTS
            + OBS_DEFERRED_SLOTS
    }
}

impl GameSpec for Flip7 {
    const INFO: GameInfo = GameInfo {
        id: "flip7",
        title: "Flip 7",
        summary: "rules edition 3.1, step for step as game-room 0.1.0's flip7_v0",
        docs: "docs/flip7.md",
        python_class: "Flip7",
        num_players: (SOLO_PLAYERS, MAX_PLAYERS),
        options: &[
            OptionSpec {
                name: "num_players",
                kind: OptionKind::Int {
                    min: SOLO_PLAYERS as i64,
                    max: MAX_PLAYERS as i64,
                },
                default: "3",
                doc: "seats: 1 (solo) or 3 to 18 (2 is refused)",
            },
            OptionSpec {
                name: "target_score",
                kind: OptionKind::Int {
                    min: 1,
                    max: MAX_OPTION as i64,
                },
                default: "200",
                doc: "the banked total that ends the game at a round's end",
            },
            OptionSpec {
                name: "max_rounds",
                kind: OptionKind::OptionalInt {
                    min: 1,
                    max: MAX_OPTION as i64,
                },
                default: "none",
                doc: "rounds after which the game is truncated (none: no limit)",
            },
        ],
        bots: bots::BOT_NAMES,
        configurations: &[
            "",
            "num_players=8,target_score=60",
            "num_players=18,max_rounds=2",
        ],
        match_bots: &["random", "threshold-27", "expected-value"],
        match_players: &[3, 4, 5, 6],
        match_options: "",
        reward_unit: "points",
        result_unit: "points",
        engine_options: &[],
        reward_report: (1.0, "points"),
        oracle: "game-room 0.1.0 (flip7_v0)",
    };

    fn configure(options: &Options) -> CoreResult<Self> {
        Flip7::new(
            options.int_as("num_players")?,
            options.int_as("target_score")?,
            options.opt_int_as("max_rounds")?,
        )
    }

    fn options(&self) -> Options {
        let max_rounds = self
            .max_rounds()
            .map_or(OptionValue::None, |m| OptionValue::Int(m as i64));
        Options::new(
            Self::INFO.options,
            [
                (
                    "num_players".into(),
                    OptionValue::Int(self.num_players() as i64),
                ),
                (
                    "target_score".into(),
                    OptionValue::Int(self.target_score() as i64),
                ),
                ("max_rounds".into(), max_rounds),
            ],
        )
        .expect("a configuration's own options are valid")
    }

    fn determinizer() -> Option<crate::core::DeterminizeFn<Self>> {
        Some(<Self as crate::core::Determinize>::determinize)
    }

    fn bot(&self, name: &str) -> CoreResult<Box<dyn Bot<Self>>> {
        bots::by_name(name)
    }

    fn win_estimate(&self) -> Option<Box<dyn crate::core::WinEstimate<Self>>> {
        horizon::RoundModel::new(self).map(|m| Box::new(m) as Box<dyn crate::core::WinEstimate<Self>>)
    }

}

/// Checks that `order` holds exactly the 94 cards of the deck (any order); the draw pile is
/// the order with its top at the end, as game-room's list.
pub fn check_order(order: &[u8]) -> CoreResult<[u8; DECK_SIZE]> {
    Error::check_len("deck order", DECK_SIZE, order.len())?;
    let mut counts = [0u8; CARD_IDS];
    for &c in order {
        if c as usize >= CARD_IDS {
            return Err(Error::Invalid {
                what: "deck order",
                reason: format!("card id {c} is not in 0..22"),
            });
        }
        counts[c as usize] += 1;
    }
    if counts != CARD_COPIES {
        return Err(Error::Invalid {
            what: "deck order",
            reason: "must hold each card id as many times as the deck does".into(),
        });
    }
    let mut out = [0u8; DECK_SIZE];
    out.copy_from_slice(order);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deck_has_94_cards_with_the_printed_counts() {
        let deck = make_deck();
        assert_eq!(deck.len(), 94);
        assert_eq!(deck.iter().filter(|&&c| c == 12).count(), 12);
        assert_eq!(deck.iter().filter(|&&c| c == FLIP_THREE).count(), 3);
        assert!(deck.windows(2).all(|w| w[0] <= w[1]));
    }

    #[test]
    fn observation_len_matches_flip7_v0() {
        for n in 3..=18 {
            assert_eq!(Flip7::with_players(n).unwrap().obs_dim(), 419 + 24 * n);
        }
    }

    #[test]
    fn invalid_configurations_are_errors() {
        assert!(Flip7::new(0, 200, None).is_err());
        assert!(Flip7::new(2, 200, None).is_err());
        assert!(Flip7::new(1, 200, None).is_ok());
        assert!(Flip7::new(19, 200, None).is_err());
        assert!(Flip7::new(3, 0, None).is_err());
        assert!(Flip7::new(3, 200, Some(0)).is_err());
        assert!(Flip7::new(3, 1, Some(1)).is_ok());
    }
}
