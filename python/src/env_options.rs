//! The environment options every environment constructor takes (`num_envs`, `seed`,
//! `num_threads`, `autoreset`, `observe`, `chunk_size`, `max_steps`), read into one
//! [`EnvOptions`]: the batch classes and the learner view share it.

use cardvec::core::{EnvOptions, MAX_ENVS};
use pyo3::prelude::*;

use crate::args;

/// Builds the options of a new environment from the constructor's arguments (integers
/// checked by [`args`]: a bool, a value out of range or of another type is refused).
/// `None` for `seed` or `chunk_size` means the default (0 and 64).
pub(crate) fn env_options(
    num_envs: &Bound<'_, PyAny>,
    seed: Option<&Bound<'_, PyAny>>,
    num_threads: Option<&Bound<'_, PyAny>>,
    autoreset: bool,
    observe: bool,
    chunk_size: Option<&Bound<'_, PyAny>>,
    max_steps: Option<&Bound<'_, PyAny>>,
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
    Ok(options)
}
