//! Python bindings of cardvec: the compiled module `cardvec._cardvec`.
//!
//! One file (or folder) per feature, each with a `register(m)` that adds its classes,
//! functions and submodules; the module function below is one line per feature. A new
//! binding goes into a new file here, registered by one line in [`_cardvec`]. The shared
//! helpers sit below the features and import nothing of them:
//!
//! - [`errors`]: core errors as Python exceptions, fallible buffers;
//! - [`args`]: integer, seed and dtype arguments (one rule for every argument);
//! - [`arrays`]: numpy I/O (reading arrays, read-only views, `out=` arrays, torch aliases);
//! - [`options`]: a game's options from keyword arguments, and back;
//! - [`env_options`]: the environment options every constructor takes;
//! - [`interrupt`]: long calls that Ctrl-C and time limits stop;
//! - [`single`]: what the single-game classes share.
//!
//! The features: [`batch`] (`BatchEnv`, one class for every registered game, and
//! `ObsFormat`), [`learner`] (`LearnerEnv`), [`bots`] (the batched bots), [`constants`]
//! (per-game constants submodules), [`flip7`], [`holdem`] (evaluator, equity, no-limit
//! tables), [`arena`], [`pushfold`], [`campaign`], [`solve`] (and [`tree`], its `TreeNode`), [`spot`].

use cardvec::core::ActionStatus;
use pyo3::prelude::*;

mod args;
mod arrays;
mod env_options;
mod errors;
mod interrupt;
mod options;
mod single;

mod arena;
mod batch;
mod bots;
mod campaign;
mod constants;
mod flip7;
mod holdem;
mod learner;
mod obs_format;
mod pushfold;
mod solve;
mod spot;
mod tree;

/// The compiled part of the `cardvec` package.
#[pymodule]
fn _cardvec(m: &Bound<'_, PyModule>) -> PyResult<()> {
    arrays::load_numpy_api(m.py())?;
    errors::register(m)?;
    batch::register(m)?;
    options::register(m)?;
    constants::register(m)?;
    flip7::register(m)?;
    holdem::register(m)?;
    arena::register(m)?;
    pushfold::register(m)?;
    campaign::register(m)?;
    solve::register(m)?;
    spot::register(m)?;
    learner::register(m)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("ACTION_APPLIED", ActionStatus::Applied as u8)?;
    m.add("ACTION_ILLEGAL", ActionStatus::Illegal as u8)?;
    m.add("ACTION_FINISHED", ActionStatus::Finished as u8)?;
    m.add("ACTION_RESET", ActionStatus::Reset as u8)?;
    m.add("MAX_THREADS", cardvec::core::MAX_THREADS)?;
    register_submodules(m)
}

/// Makes every submodule of `m` importable by its full name (`import
/// cardvec._cardvec.holdem`), as type checkers and `stubtest` expect of the stub package
/// `cardvec/_cardvec/`: PyO3 adds a submodule as an attribute only, so it is put in
/// `sys.modules` too. Runs last, so it covers every submodule added above.
fn register_submodules(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let modules = m.py().import("sys")?.getattr("modules")?;
    let parent = m.name()?;
    for (name, value) in m.dict().iter() {
        if value.is_instance_of::<PyModule>() {
            modules.set_item(format!("{parent}.{name}"), value)?;
        }
    }
    Ok(())
}
