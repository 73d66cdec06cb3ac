#![doc = include_str!("../README.md")]
//!
//! # The Rust API: where to start
//!
//! - **A batch of games**: [`VecEnv`] steps `N` lanes of one game configuration
//!   ([`LostCities`], [`Flip7`], [`I151`], [`NoLimitHoldem`], [`KuhnPoker`], [`LeducHoldem`])
//!   built with [`EnvOptions`];
//!   [`make`] builds one for any registered game from its id and options, as a [`DynEnv`].
//! - **The games**: [`GAMES`] lists them (a [`GameInfo`] each: id, options, bots); each
//!   game's module under [`games`] holds its configuration, rules, state (read through
//!   its accessors), reference engine, bots and invariants.
//! - **One lane**: [`Game`] is what a game supplies for one lane; [`SingleLane`] plays one
//!   lane step by step; [`Playable`] is any engine driven that way.
//! - **A new game** implements [`Game`] and [`GameSpec`] and adds one line to
//!   [`registry`] (see `docs/architecture.md`).
//! - **Tools**: bots ([`Bot`], [`core::policy`]), matches ([`core::matches`]), the
//!   differential runner ([`core::diff`]), the fuzz checks ([`core::fuzz`]), statistics
//!   ([`core::stats`]); the poker hand evaluator and equity ([`poker`]); the 151
//!   competition arena ([`arena`]); the ladder of any game's bots, with duplicate deals and
//!   ratings ([`ladder`]).
//! - **Solvers**: CFR, CFR+, MCCFR, best response and exploitability over any game with
//!   the [`core::tree`] capability ([`solve`], `docs/cfr.md`).
#![deny(missing_docs)]

pub mod agents;
pub mod arena;
pub mod campaign;
pub mod core;
pub mod games;
pub mod ladder;
pub mod poker;
pub mod registry;
pub mod solve;

pub use crate::core::{
    ActionStatus, Bot, CardSet64, DynEnv, DynLearner, EnvOptions, Error, Game, GameInfo, GameSpec,
    LaneOutcome, LaneRng, LearnerEnv, LearnerSeat, OnIllegal, Opponents, OptionValue, Options,
    Playable, Progress, RandomBot, Result, SingleLane, VecEnv,
};
pub use games::flip7::{Flip7, Flip7State};
pub use games::holdem::{NoLimitHoldem, NoLimitHoldemState, TableConfig};
pub use games::i151::{I151State, RewardMode, I151};
pub use games::kuhn::{KuhnPoker, KuhnPokerState};
pub use games::leduc::{LeducHoldem, LeducHoldemState};
pub use games::lost_cities::{LostCities, LostCitiesState};
pub use registry::{make, make_learner, visit, visit_all, Visitor, GAMES};
