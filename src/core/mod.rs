//! What every game shares: the vectorized environment, the lane contract, lane random
//! streams, card bit sets, SIMD encoders, the differential runner and errors.
//!
//! Nothing in this module knows any particular game. A game implements [`Game`] for a
//! single lane; [`VecEnv`] turns it into a batch of lanes stepped in parallel.
//!
//! The types every user needs are re-exported here (and at the crate root); the modules
//! left public are tools in their own right: [`spec`] (what a game registers), [`policy`]
//! (bots, batched bots and the random policy), [`learner`] (the learner view: the other
//! seats played by bots), [`progress`], [`diff`] (the differential runner),
//! [`fuzz`] (the generic fuzz and state-corruption checks), [`tree`] (information states and
//! chance nodes for solvers), [`determinize`] (a seat's hidden cards dealt afresh, for
//! search bots), [`rollout`] (many games played out by a bot, batched or one by one), [`words`] (a game's words: action names, views,
//! outcomes), [`mod@matches`] (bot matches) and
//! [`stats`].

pub(crate) mod bits;
pub mod determinize;
pub mod diff;
pub(crate) mod dyn_env;
pub(crate) mod env;
pub(crate) mod error;
pub mod fuzz;
pub(crate) mod game;
pub mod horizon;
pub mod learner;
pub mod matches;
pub(crate) mod mem;
pub mod obs;
pub mod policy;
pub(crate) mod pool;
pub mod progress;
pub(crate) mod rng;
pub mod rollout;
pub(crate) mod simd;
pub mod spec;
pub mod stats;
#[cfg(test)]
pub(crate) mod testing;
pub mod tree;
pub mod words;

pub use bits::{CardIter, CardSet64};
pub use determinize::{Determinize, DeterminizeFn};
pub use dyn_env::DynEnv;
pub use env::{
    EnvOptions, ObsSeats, OnIllegal, VecEnv, MAX_ENVS, OBS_SEATS_WORDS, ON_ILLEGAL_WORDS,
};
pub use error::{Error, Integer, Result};
pub use game::{ActionStatus, Game, LaneOutcome, Playable, SingleLane};
pub use horizon::WinEstimate;
pub use learner::{DynLearner, LearnerEnv, LearnerSeat, Opponents};
pub use mem::try_vec;
pub use obs::{ObsDtype, ObsFormat};
pub use policy::{Bot, RandomBot};
pub use pool::{resolve_threads, ForkSafePool, MAX_THREADS};
pub use progress::{Progress, StopFlag};
pub use rng::LaneRng;
pub use spec::{GameChecks, GameInfo, GameSpec, OptionKind, OptionSpec, OptionValue, Options};
pub use tree::{
    DynTree, Erase, ErasedTree, GameTree, InfoSeats, InfoStateFns, InfoStates, TreeStats,
    TreeVisitor,
};
pub use words::{DynWords, ErasedWords, Outcome, Words};
