//! Per-game constants as submodules of the compiled module (`cardvec._cardvec.i151`,
//! `cardvec._cardvec.lost_cities`; the Flip 7 and hold'em constants are registered with their
//! classes in `flip7.rs` and `holdem/`).

use cardvec::games::{i151, lost_cities};
use pyo3::prelude::*;

/// The 151 constants, as a submodule.
fn i151_module(py: Python<'_>) -> PyResult<Bound<'_, PyModule>> {
    let m = PyModule::new(py, "i151")?;
    m.add("DECK_SIZE", i151::DECK_SIZE)?;
    m.add("N_ACTIONS", i151::N_ACTIONS)?;
    m.add("OBS_DIM", i151::OBS_DIM)?;
    m.add("ACTION_DRAW", i151::ACTION_DRAW)?;
    m.add("ACTION_PASS", i151::ACTION_PASS)?;
    m.add("ACTION_CHOOSE_SUIT", i151::ACTION_CHOOSE_SUIT)?;
    Ok(m)
}

/// The Lost Cities constants, as a submodule.
fn lost_cities_module(py: Python<'_>) -> PyResult<Bound<'_, PyModule>> {
    let m = PyModule::new(py, "lost_cities")?;
    m.add("DECK_SIZE", lost_cities::DECK_SIZE)?;
    m.add("N_COLORS", lost_cities::N_COLORS)?;
    m.add("SLOTS_PER_COLOR", lost_cities::SLOTS_PER_COLOR)?;
    m.add("HAND_SIZE", lost_cities::HAND_SIZE)?;
    m.add("DECK_AFTER_DEAL", lost_cities::DECK_AFTER_DEAL)?;
    m.add("N_ACTIONS", lost_cities::N_ACTIONS)?;
    m.add("OBS_DIM", lost_cities::OBS_DIM)?;
    m.add("N_CHANNELS", lost_cities::N_CHANNELS)?;
    m.add("MAX_STEPS", lost_cities::MAX_STEPS)?;
    m.add("MAX_BOARD_SCORE", lost_cities::MAX_BOARD_SCORE)?;
    m.add("NUM_PLAYERS", lost_cities::NUM_PLAYERS)?;
    Ok(m)
}

/// Adds the per-game constants submodules to the extension module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_submodule(&lost_cities_module(m.py())?)?;
    m.add_submodule(&i151_module(m.py())?)
}
