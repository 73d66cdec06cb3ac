//! The environment options every environment constructor takes (`num_envs`, `seed`,
//! `num_threads`, `autoreset`, `observe`, `chunk_size`, `max_steps`, `on_illegal`), read into one
//! [`EnvOptions`]: the batch classes and the learner view share it.

use cardvec::core::{EnvOptions, ObsSeats, OnIllegal, MAX_ENVS, OBS_SEATS_WORDS, ON_ILLEGAL_WORDS};
use pyo3::prelude::*;

use crate::args;

/// Builds the options of a new environment from the constructor's arguments (integers
/// checked by [`args`]: a bool, a value out of range or of another type is refused).
/// `None` for `seed` or `chunk_size` means the default (0 and 64).
#[allow(clippy::too_many_arguments)]
pub(crate) fn env_options(
    num_envs: &Bound<'_, PyAny>,
    seed: Option<&Bound<'_, PyAny>>,
    num_threads: Option<&Bound<'_, PyAny>>,
    autoreset: bool,
    observe: bool,
    chunk_size: Option<&Bound<'_, PyAny>>,
    max_steps: Option<&Bound<'_, PyAny>>,
    on_illegal: Option<&Bound<'_, PyAny>>,
) -> PyResult<EnvOptions> {
    let mut options = EnvOptions::new(args::size_in(num_envs, "num_envs", 1, MAX_ENVS)?);
    options.seed = args::opt_seed(seed)?.unwrap_or(0);
    options.num_threads = match num_threads {
        Some(t) if !t.is_none() => Some(args::size_in(
            t,
            "num_threads",
            1,
            cardvec::core::MAX_THREADS,
        )?),
        _ => None,
    };
    options.autoreset = autoreset;
    options.observe_on_step = observe;
    if let Some(cs) = chunk_size.filter(|c| !c.is_none()) {
        options.chunk_size = args::size_in(cs, "chunk_size", 1, 1 << 20)?;
    }
    if let Some(m) = max_steps.filter(|m| !m.is_none()) {
        options.max_steps = Some(args::size_in(m, "max_steps", 1, u32::MAX as usize)? as u32);
    }
    options.on_illegal = on_illegal_arg(on_illegal)?;
    Ok(options)
}

/// The `obs_seats` argument: `None` (the default, `"acting"`) or one of the words
/// `"acting"`, `"all"`; anything else is a `ValueError` listing them.
pub(crate) fn obs_seats_arg(value: Option<&Bound<'_, PyAny>>) -> PyResult<ObsSeats> {
    let Some(v) = value.filter(|v| !v.is_none()) else {
        return Ok(ObsSeats::Acting);
    };
    match v.extract::<String>() {
        Ok(word) => ObsSeats::parse(&word).map_err(crate::errors::core_err),
        Err(_) => Err(crate::errors::value_err(format!(
            "obs_seats must be one of {}, got {}",
            OBS_SEATS_WORDS
                .iter()
                .map(|w| format!("{w:?}"))
                .collect::<Vec<_>>()
                .join(", "),
            v.repr().map_or_else(|_| "?".to_string(), |r| r.to_string())
        ))),
    }
}

/// The `on_illegal` argument: `None` (the default, `"noop"`) or one of the words
/// `"noop"`, `"raise"`, `"lose"`; anything else is a `ValueError` listing them.
pub(crate) fn on_illegal_arg(value: Option<&Bound<'_, PyAny>>) -> PyResult<OnIllegal> {
    let Some(v) = value.filter(|v| !v.is_none()) else {
        return Ok(OnIllegal::Noop);
    };
    match v.extract::<String>() {
        Ok(word) => OnIllegal::parse(&word).map_err(crate::errors::core_err),
        Err(_) => Err(crate::errors::value_err(format!(
            "on_illegal must be one of {}, got {}",
            ON_ILLEGAL_WORDS
                .iter()
                .map(|w| format!("{w:?}"))
                .collect::<Vec<_>>()
                .join(", "),
            v.repr().map_or_else(|_| "?".to_string(), |r| r.to_string())
        ))),
    }
}
