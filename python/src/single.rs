//! What the single-game classes (`Flip7Game`, `NoLimitHoldemGame`: one game stepped one
//! decision at a time, for the PettingZoo wrappers) share: the legal mask as int8 and the
//! step that keeps the rewards of an illegal action out.

use cardvec::core::Game;
use pyo3::prelude::*;

/// The legal mask of one game's `state` as int8 (the single-game classes' `legal_mask`).
pub(crate) fn single_legal_mask<'py, G: Game>(
    py: Python<'py>,
    game: &G,
    state: &G::State,
) -> Bound<'py, numpy::PyArray1<i8>> {
    let mut mask = vec![0u8; game.num_actions()];
    game.legal_mask(state, &mut mask);
    numpy::PyArray1::from_vec(py, mask.into_iter().map(|m| m as i8).collect())
}

/// One step of a single-game class: `step` writes its rewards into the zeroed `scratch`,
/// and they become the game's `rewards` only if the action was applied (an illegal action
/// changes nothing). Returns whether it was applied.
pub(crate) fn single_step(
    scratch: &mut [f32],
    rewards: &mut [f32],
    step: impl FnOnce(&mut [f32]) -> cardvec::core::LaneOutcome,
) -> bool {
    scratch.fill(0.0);
    let out = step(scratch);
    if out.applied {
        rewards.copy_from_slice(scratch);
    }
    out.applied
}
