//! Poker hands as a library (not a game): cards, the hand evaluator, the batch evaluator,
//! ranges and equity (see `docs/holdem-evaluator.md`). The no-limit hold'em game
//! (`games::holdem`) scores its showdowns with it; the batch evaluator and the equity
//! calculator run on the caller's rayon pool.
//!
//! - `cards`: ranks, suits, card ids `13 * suit + rank`, parsing (`As`, `Td`, `♠A`), dealing.
//! - `eval`: [`Hand`], [`HandRank`], [`Category`], [`evaluate`], [`best_five`], hand names.
//! - `batch`: many card sets at once, in parallel.
//! - `reference`: the rules written for clarity, to check `eval` against.
//! - `preflop`: the 169 starting-hand classes and the exact heads-up all-in equity table.
//! - `range`: hole-card ranges in the usual notation (`AKs`, `TT+`, `A5s-A2s`).
//! - `equity`: exact enumeration and seeded Monte Carlo for 2 to 10 players.
//! - `fuzz`: the fuzz check of the card and range parsers ([`fuzz_check_cards`]).

pub mod batch;
pub mod cards;
pub mod equity;
pub mod eval;
mod fuzz;
pub mod preflop;
pub mod range;
pub mod reference;
mod tables;

pub use batch::{evaluate_sets, rank_hands, rank_sets};
pub use cards::{card_set, format_set, parse_cards, Card, Deck, Rank, Suit, DECK_SIZE, FULL_DECK};
pub use equity::{
    equity, equity_weighted, equity_weighted_with_progress, equity_with_progress, EquityOptions,
    EquityReport, Method, PlayerEquity,
};
pub use eval::{
    best_five, evaluate, evaluate_set, rank_of_set, winners, Category, Hand, HandRank, HAND_CLASSES,
};
pub use fuzz::fuzz_check_cards;
pub use range::{preflop_ranking, HoleCards, Range, WeightedRange};
