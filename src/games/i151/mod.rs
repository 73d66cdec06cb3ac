//! 151, the card game of the i151 student AI competition, exactly as the official engine
//! `i151-engine` 0.2.4 plays it (see `docs/151.md`): cards and actions, the configuration
//! ([`I151`]), CPython's shuffle for identical deals, the fast lane engine, the player view
//! and its observation encoding, the reference engine, invariants, bots and the oracle
//! trace.
//!
//! Cards are ids `0..32` in the official deck order: `id = suit * 8 + rank`, suits
//! spades, hearts, diamonds, clubs and ranks ace, king, queen, jack, ten, nine, eight,
//! seven (the order of `i151_engine.models.card.standard_deck()`).

pub(crate) mod bots;
pub(crate) mod checks;
mod determinize;
pub(crate) mod cpython_random;
pub(crate) mod fast;
pub(crate) mod horizon;
pub(crate) mod reference;
mod words;
#[cfg(test)]
mod rules_tests;
pub(crate) mod seed;
pub(crate) mod trace;
pub(crate) mod view;

pub use bots::{policy_by_name, Greedy, Medium, Minmax, RandomPolicy, ViewPolicy};
pub use cpython_random::{python_shuffle, Mt19937};
pub use fast::I151State;
pub use reference::Reference;
pub use seed::{MatchSeed, MATCH_SEED_BITS};
pub use view::{encode_state, encode_view, PlayerView, SeatView};

use crate::core::spec::{
    GameInfo, GameSpec, OptionKind, OptionSpec, OptionValue, Options,
};
use crate::core::{Bot, Error, Result};

/// Number of cards.
pub const DECK_SIZE: usize = 32;
/// Number of suits.
pub const N_SUITS: usize = 4;
/// Fewest players.
pub const MIN_PLAYERS: usize = 2;
/// Most players.
pub const MAX_PLAYERS: usize = 4;
/// The largest `target_score` accepted (20,000, as the official engine's runner is used
/// with; scores are held in `i16`).
pub const MAX_TARGET_SCORE: i64 = 20_000;

/// Rank index of the ace.
pub const ACE: u8 = 0;
/// Rank index of the king.
pub const KING: u8 = 1;
/// Rank index of the queen.
pub const QUEEN: u8 = 2;
/// Rank index of the jack.
pub const JACK: u8 = 3;
/// Rank index of the ten.
pub const TEN: u8 = 4;
/// Rank index of the nine.
pub const NINE: u8 = 5;
/// Rank index of the eight.
pub const EIGHT: u8 = 6;
/// Rank index of the seven.
pub const SEVEN: u8 = 7;

/// Points of a card left in hand, by rank index (8 → 32, A → 11, 10 → 10, 9 → 9, 7 → 7,
/// K → 4, Q → 3, J → 2).
pub const RANK_POINTS: [u8; 8] = [11, 4, 3, 2, 10, 9, 32, 7];

/// Action: draw a card (two under an ace).
pub const ACTION_DRAW: u32 = 32;
/// Action: pass the turn (after drawing, or to end a chain).
pub const ACTION_PASS: u32 = 33;
/// Action `ACTION_CHOOSE_SUIT + s`: announce suit `s` after an eight.
pub const ACTION_CHOOSE_SUIT: u32 = 34;
/// Size of the action space: play card 0..32, draw, pass, choose suit 0..4.
pub const N_ACTIONS: usize = 38;
/// Length of an observation row (its layout: `view::layout`).
pub const OBS_DIM: usize = 142;

/// "No card" in a state's card byte (an empty table).
pub(crate) const NO_CARD: u8 = 0xFF;
/// "No suit" in a state's suit byte (no suit imposed).
pub(crate) const NO_SUIT: u8 = 0xFF;
/// "No seat" in a state's seat byte (no round winner yet, no match winner).
pub(crate) const NO_SEAT: u8 = 0xFF;

/// The suit of a card id.
#[inline]
pub const fn suit_of(card: u8) -> u8 {
    card >> 3
}

/// The rank index of a card id.
#[inline]
pub const fn rank_of(card: u8) -> u8 {
    card & 7
}

/// The card id of `(suit, rank)`.
#[inline]
pub const fn card_id(suit: u8, rank: u8) -> u8 {
    suit * 8 + rank
}

/// Points of one card.
#[inline]
pub const fn card_points(card: u8) -> u32 {
    RANK_POINTS[rank_of(card) as usize] as u32
}

/// The cards of suit `suit`, as a 32-bit set.
#[inline]
pub const fn suit_set(suit: u8) -> u32 {
    0xFF << (suit * 8)
}

/// The cards of rank `rank`, as a 32-bit set.
#[inline]
pub const fn rank_set(rank: u8) -> u32 {
    0x0101_0101 << rank
}

/// Points of a set of cards (the round score of a hand).
#[inline]
pub fn hand_points(hand: u32) -> u32 {
    let mut total = 0;
    for rank in 0..8u8 {
        total += (hand & rank_set(rank)).count_ones() * RANK_POINTS[rank as usize] as u32;
    }
    total
}

/// The official card code, e.g. `"AS"`, `"TH"`, `"8D"`, `"7C"`.
pub fn card_code(card: u8) -> String {
    let ranks = b"AKQJT987";
    let suits = b"SHDC";
    format!(
        "{}{}",
        ranks[rank_of(card) as usize] as char,
        suits[suit_of(card) as usize & 3] as char
    )
}

/// A readable name for an action id.
pub fn action_name(action: u32) -> String {
    match action {
        0..32 => format!("play {}", card_code(action as u8)),
        ACTION_DRAW => "draw".into(),
        ACTION_PASS => "pass".into(),
        34..38 => format!("choose {}", ["S", "H", "D", "C"][(action - 34) as usize]),
        _ => format!("invalid {action}"),
    }
}

/// What the per-seat rewards pay.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RewardMode {
    /// At each round end, every seat receives minus the change of its total score: the
    /// losers `-hand points`, a winner `+10` when the third consecutive win takes 10 off.
    RoundPoints,
    /// At the end of the match, `+1` to the winner and `-1/(players-1)` to every other seat.
    MatchOutcome,
}

impl RewardMode {
    /// The option word: `round-points` or `match-outcome`.
    pub fn as_str(self) -> &'static str {
        match self {
            RewardMode::RoundPoints => "round-points",
            RewardMode::MatchOutcome => "match-outcome",
        }
    }
}

/// The option words of [`RewardMode`].
const REWARD_WORDS: &[&str] = &["round-points", "match-outcome"];

impl GameSpec for I151 {
    const INFO: GameInfo = GameInfo {
        id: "151",
        title: "151",
        summary: "the i151 competition game, as the official engine i151-engine 0.2.4 plays it",
        docs: "docs/151.md",
        python_class: "I151",
        num_players: (MIN_PLAYERS, MAX_PLAYERS),
        options: &[
            OptionSpec {
                name: "num_players",
                kind: OptionKind::Int {
                    min: 2,
                    max: MAX_PLAYERS as i64,
                },
                default: "2",
                doc: "seats",
            },
            OptionSpec {
                name: "cards_per_player",
                kind: OptionKind::Int {
                    min: 1,
                    max: (DECK_SIZE / 2) as i64,
                },
                default: "8",
                doc: "cards dealt to each seat (at most 32 / num_players; 4 seats are dealt 7)",
            },
            OptionSpec {
                name: "target_score",
                kind: OptionKind::Int {
                    min: 0,
                    max: MAX_TARGET_SCORE,
                },
                default: "151",
                doc: "the score at which a seat is excluded (0 ends the match after round 1)",
            },
            OptionSpec {
                name: "initial_dealer",
                kind: OptionKind::Int {
                    min: i64::MIN,
                    max: i64::MAX,
                },
                default: "0",
                doc: "the seat that deals round 1 (the next seat starts): any integer, taken \
                      modulo num_players as Python's % does (-1: the last seat), as the \
                      official create_match takes initial_dealer_index",
            },
            OptionSpec {
                name: "max_round_steps",
                kind: OptionKind::Int {
                    min: 0,
                    max: u16::MAX as i64,
                },
                default: "500",
                doc: "actions after which a round is cut off and the match truncated (0: never)",
            },
            OptionSpec {
                name: "reward",
                kind: OptionKind::Choice(REWARD_WORDS),
                default: "round-points",
                doc: "round-points: minus each seat's score change at round ends; \
                      match-outcome: +1 to the winner, -1/(n-1) to the others",
            },
        ],
        bots: bots::BOT_NAMES,
        configurations: &[
            "",
            "num_players=3",
            "num_players=4",
            "num_players=2,target_score=60,reward=match-outcome",
        ],
        match_bots: &["greedy", "random"],
        match_players: &[],
        match_options: "reward=match-outcome",
        reward_unit: "points",
        result_unit: "penalty points",
        engine_options: &["max_round_steps", "reward"],
        reward_report: (1.0, "reward"),
        oracle: "i151-engine 0.2.4",
    };

    fn configure(options: &Options) -> Result<Self> {
        let reward = match options.choice("reward")?.as_str() {
            "match-outcome" => RewardMode::MatchOutcome,
            _ => RewardMode::RoundPoints,
        };
        Ok(I151::new(options.int_as("num_players")?)?
            .with_cards_per_player(options.int_as("cards_per_player")?)?
            .with_target_score(options.int("target_score")?)?
            .with_initial_dealer_index(options.int("initial_dealer")?)
            .with_max_round_steps(options.int_as("max_round_steps")?)
            .with_reward(reward))
    }

    fn options(&self) -> Options {
        let int = |v: usize| OptionValue::Int(v as i64);
        Options::new(
            Self::INFO.options,
            [
                ("num_players".into(), int(self.num_players())),
                ("cards_per_player".into(), int(self.cards_per_player())),
                ("target_score".into(), int(self.target_score() as usize)),
                ("initial_dealer".into(), int(self.initial_dealer())),
                (
                    "max_round_steps".into(),
                    int(self.max_round_steps() as usize),
                ),
                (
                    "reward".into(),
                    OptionValue::Text(self.reward().as_str().into()),
                ),
            ],
        )
        .expect("a configuration's own options are valid")
    }

    fn zero_sum(&self) -> bool {
        self.reward == RewardMode::MatchOutcome
    }

    fn determinizer() -> Option<crate::core::DeterminizeFn<Self>> {
        Some(<Self as crate::core::Determinize>::determinize)
    }

    fn bot(&self, name: &str) -> Result<Box<dyn Bot<Self>>> {
        bots::by_name(name)
    }

    fn win_estimate(&self) -> Option<Box<dyn crate::core::WinEstimate<Self>>> {
        horizon::MatchModel::new(self)
            .map(|m| Box::new(m) as Box<dyn crate::core::WinEstimate<Self>>)
    }
}

/// The game's configuration: seats, deal size, target, first dealer, rewards, step limit.
///
/// ```
/// use cardvec::games::i151::I151;
/// let game = I151::new(3).unwrap();
/// assert_eq!(game.cards_dealt(), 8);
/// assert_eq!(I151::new(4).unwrap().cards_dealt(), 7);
/// assert!(I151::new(5).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct I151 {
    num_players: u8,
    cards_per_player: u8,
    target_score: i16,
    initial_dealer: u8,
    max_round_steps: u16,
    reward: RewardMode,
}

impl I151 {
    /// The official defaults for `num_players` seats (2..=4): 8 cards per player (7 are
    /// dealt with 4 players), target 151, seat 0 deals first (seat 1 starts), round-points
    /// rewards, rounds cut off after 500 actions (the official runner's limit).
    pub fn new(num_players: usize) -> Result<I151> {
        Error::check_range("num_players", MIN_PLAYERS, MAX_PLAYERS, num_players)?;
        Ok(I151 {
            num_players: num_players as u8,
            cards_per_player: 8,
            target_score: 151,
            initial_dealer: 0,
            max_round_steps: 500,
            reward: RewardMode::RoundPoints,
        })
    }

    /// Sets the configured cards per player, checked like the official engine
    /// (`1..=32 / num_players`). With 4 players the official deal gives 7 whatever this says.
    pub fn with_cards_per_player(mut self, cards: usize) -> Result<I151> {
        let max = DECK_SIZE / self.num_players as usize;
        Error::check_range("cards_per_player", 1, max, cards)?;
        self.cards_per_player = cards as u8;
        Ok(self)
    }

    /// Sets the score at which a player is excluded (`0..=`[`MAX_TARGET_SCORE`]; the
    /// official engine takes any integer, and 0 excludes every loser of round 1).
    pub fn with_target_score(mut self, target: i64) -> Result<I151> {
        Error::check_range("target_score", 0, MAX_TARGET_SCORE, target)?;
        self.target_score = target as i16;
        Ok(self)
    }

    /// Sets the seat that deals round 1 (`0..num_players`); the next seat starts.
    pub fn with_initial_dealer(mut self, dealer: usize) -> Result<I151> {
        Error::check_range("initial_dealer", 0, self.num_players - 1, dealer)?;
        self.initial_dealer = dealer as u8;
        Ok(self)
    }

    /// Sets the seat that deals round 1 as the official `create_match` takes
    /// `initial_dealer_index`: any integer, modulo the number of seats (Python's `%`, so
    /// `-1` is the last seat).
    pub fn with_initial_dealer_index(mut self, index: i64) -> I151 {
        self.initial_dealer = index.rem_euclid(self.num_players as i64) as u8;
        self
    }

    /// Sets the number of actions after which a round is cut off and the match truncated
    /// (`0` = never; the official runner forfeits after 500).
    pub fn with_max_round_steps(mut self, steps: u16) -> I151 {
        self.max_round_steps = steps;
        self
    }

    /// Sets what the rewards pay.
    pub fn with_reward(mut self, reward: RewardMode) -> I151 {
        self.reward = reward;
        self
    }

    /// Number of seats.
    pub fn num_players(&self) -> usize {
        self.num_players as usize
    }

    /// The configured cards per player.
    pub fn cards_per_player(&self) -> usize {
        self.cards_per_player as usize
    }

    /// Cards actually dealt to each seat: 7 with 4 players, else the configured number.
    pub fn cards_dealt(&self) -> usize {
        let per = if self.num_players == 4 {
            7
        } else {
            self.cards_per_player as usize
        };
        per.min(DECK_SIZE / self.num_players as usize)
    }

    /// The exclusion score.
    pub fn target_score(&self) -> i32 {
        self.target_score as i32
    }

    /// The seat dealing round 1.
    pub fn initial_dealer(&self) -> usize {
        self.initial_dealer as usize
    }

    /// The per-round action limit (`0` = none).
    pub fn max_round_steps(&self) -> u16 {
        self.max_round_steps
    }

    /// The reward mode.
    pub fn reward(&self) -> RewardMode {
        self.reward
    }

    /// The deck of round `round` of the match with seed `match_seed`: the official order
    /// shuffled by `random.Random(match_seed + round).shuffle`.
    pub fn round_deck(match_seed: impl Into<MatchSeed>, round: u32) -> [u8; DECK_SIZE] {
        let mut deck: [u8; DECK_SIZE] = std::array::from_fn(|i| i as u8);
        cpython_random::python_shuffle(match_seed.into().plus(round), &mut deck);
        deck
    }
}
