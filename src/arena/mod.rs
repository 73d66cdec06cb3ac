//! The i151 competition arena, above the rules of 151 (`games::i151`): the match runner with
//! its time limits on a caller's clock, forfeits and official-shape JSON replays
//! ([`runner`], [`replay`]), the catalog of opponents ([`catalog`]), and the ladder of catalog bots with
//! its standings ([`ladder`]). See `docs/151-arena.md`. [`fuzz_check_replay`] is the fuzz
//! check of the replay and ladder-log readers.

pub mod catalog;
mod fuzz;
pub mod ladder;
pub mod replay;
pub mod runner;

pub use fuzz::fuzz_check_replay;
