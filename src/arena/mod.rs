//! The i151 competition arena, above the rules of 151 (`games::i151`): the match runner with
//! its time limits, forfeits and official-shape JSON replays ([`runner`]), and the catalog of
//! opponents ([`catalog`]). See `docs/151-arena.md`.

pub mod catalog;
pub mod runner;
