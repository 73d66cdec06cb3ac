//! What every game shares: the vectorized environment, the lane contract, lane random
//! streams, card bit sets, SIMD encoders, the differential runner and errors.
//!
//! Nothing in this module knows any particular game. A game implements [`Game`] for a
//! single lane; [`VecEnv`] turns it into a batch of lanes stepped in parallel.

pub mod bits;
pub mod diff;
pub mod dyn_env;
pub mod env;
pub mod error;
pub mod fuzz;
pub mod game;
pub mod matches;
pub mod mem;
pub mod policy;
pub mod progress;
pub mod rng;
pub mod simd;
pub mod spec;
pub mod stats;
#[cfg(test)]
pub(crate) mod testing;

pub use bits::CardSet64;
pub use env::{EnvOptions, VecEnv};
pub use error::{Error, Result};
pub use game::{ActionStatus, Game, LaneOutcome, Playable, SingleLane};
pub use policy::{Bot, RandomBot};
pub use rng::LaneRng;
