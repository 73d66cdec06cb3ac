//! The reference engine (being written on branch `lc-reference`).
//!
//! Until it lands, this file only holds a placeholder for the differential pair so that the
//! `cardvec` binary builds; the `lc-reference` branch replaces the whole file.

use super::LostCities;
use crate::core::{LaneRng, SingleLane};

/// Placeholder for the (reference, fast) pair of the differential runner: the reference
/// engine does not exist yet, so asking for the pair stops with a clear message.
pub fn diff_pair(
    _game: u64,
    _rng: &mut LaneRng,
) -> (SingleLane<LostCities>, SingleLane<LostCities>) {
    unimplemented!("the Lost Cities reference engine is not written yet (branch lc-reference)")
}
