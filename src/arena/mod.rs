//! The i151 competition arena, above the rules of 151 (`games::i151`): the match runner with
//! its time limits on a caller's clock, forfeits and official-shape JSON replays
//! ([`runner`]), the catalog of opponents ([`catalog`]), and the ladder of catalog bots with
//! its standings ([`ladder`]). See `docs/151-arena.md`.

pub mod catalog;
pub mod ladder;
pub mod runner;
