//! What the single-game classes (`Flip7Game`, `NoLimitHoldemGame`: one game stepped one
//! decision at a time, for the PettingZoo wrappers) share: the legal mask as int8 and the
//! step that keeps the rewards of an illegal action out.

use cardvec::core::{Game, Words};
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

/// A JSON value (a game's view or outcome) as the Python object `json.loads` makes of it.
pub(crate) fn json_to_py<'py>(
    py: Python<'py>,
    value: &impl std::fmt::Display,
) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?
        .call_method1("loads", (value.to_string(),))
}

/// The view of one game's `state` for `seat` as a dict (the single-game classes' `view`).
pub(crate) fn single_view<'py, G: Words>(
    py: Python<'py>,
    game: &G,
    state: &G::State,
    seat: usize,
    reveal: bool,
) -> PyResult<Bound<'py, PyAny>> {
    json_to_py(py, &game.view(state, seat, reveal))
}

/// How one game's `state` ended as a dict, or `None` while it runs (the single-game
/// classes' `outcome`).
pub(crate) fn single_outcome<'py, G: Words>(
    py: Python<'py>,
    game: &G,
    state: &G::State,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    game.outcome(state)
        .map(|o| json_to_py(py, &o.to_json()))
        .transpose()
}

/// A state read from a state text, or a `ValueError` naming the problem (the single-game
/// classes' `set_state_text`, which replaces their state only on success).
pub(crate) fn single_parse<G: Words>(game: &G, text: &str) -> PyResult<G::State> {
    game.parse_state(text).map_err(crate::errors::core_err)
}
