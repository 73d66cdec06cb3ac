//! The batched bots of `cardvec.bots.act` (`BatchEnv._bot_actions`,
//! `LearnerEnv._bot_actions`), `cardvec.bots.policy_probs` and
//! `cardvec.bots.action_values`, and the action keys (`env.action_keys()`): the `lanes`
//! mask and the call without the GIL.

use cardvec::core::Error as CoreError;
use numpy::{PyArray1, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::prelude::*;

use crate::args;
use crate::arrays::array_1d;
use crate::errors::{core_err, try_buffer, value_err};

/// The `lanes` argument of the batched bots: `None` (every lane) or a bool array with one
/// entry per lane.
pub(crate) fn lanes_mask(
    lanes: Option<&Bound<'_, PyAny>>,
    n: usize,
) -> PyResult<Option<Vec<bool>>> {
    let Some(obj) = lanes.filter(|l| !l.is_none()) else {
        return Ok(None);
    };
    let arr = array_1d(obj, "lanes", Some(n))?;
    let typed = arr.cast::<PyArray1<bool>>().map_err(|_| {
        value_err(format!(
            "lanes must be a bool array (a mask), got dtype {}",
            arr.dtype()
        ))
    })?;
    let ro = typed
        .try_readonly()
        .map_err(|e| value_err(format!("cannot read the array: {e}")))?;
    let mut mask = try_buffer(n, false, "lanes")?;
    for (m, &v) in mask.iter_mut().zip(ro.as_array().iter()) {
        *m = v;
    }
    Ok(Some(mask))
}

/// Runs a batched bot over `n` lanes without the GIL (`run` gets the lane mask, the seed
/// and the output) and returns its actions as a new int64 array (`-1`: no action).
pub(crate) fn bot_actions<'py>(
    py: Python<'py>,
    n: usize,
    lanes: Option<&Bound<'py, PyAny>>,
    seed: Option<&Bound<'py, PyAny>>,
    run: impl FnOnce(Option<&[bool]>, u64, &mut [i64]) -> Result<(), CoreError> + Send,
) -> PyResult<Bound<'py, PyArray1<i64>>> {
    let mask = lanes_mask(lanes, n)?;
    let seed = args::opt_seed(seed)?.unwrap_or(0);
    let mut out = try_buffer(n, -1i64, "bot actions")?;
    py.detach(|| run(mask.as_deref(), seed, &mut out))
        .map_err(core_err)?;
    Ok(PyArray1::from_vec(py, out))
}

/// Runs a policy's probabilities over `n` lanes of `a` actions without the GIL (`run` gets
/// the lane mask and the output) and returns them as a new float32 array `[n, a]`.
pub(crate) fn policy_probs<'py>(
    py: Python<'py>,
    n: usize,
    a: usize,
    lanes: Option<&Bound<'py, PyAny>>,
    run: impl FnOnce(Option<&[bool]>, &mut [f32]) -> Result<(), CoreError> + Send,
) -> PyResult<Bound<'py, numpy::PyArray2<f32>>> {
    let mask = lanes_mask(lanes, n)?;
    let mut out = try_buffer(n * a, 0f32, "probabilities")?;
    py.detach(|| run(mask.as_deref(), &mut out))
        .map_err(core_err)?;
    PyArray1::from_vec(py, out).reshape([n, a])
}

/// Runs a search bot's action values over `n` lanes of `a` actions without the GIL (`run`
/// gets the lane mask, the seed and the output) and returns them as a new float32 array
/// `[n, a]` (`NaN`: no value).
pub(crate) fn search_values<'py>(
    py: Python<'py>,
    n: usize,
    a: usize,
    lanes: Option<&Bound<'py, PyAny>>,
    seed: Option<&Bound<'py, PyAny>>,
    run: impl FnOnce(Option<&[bool]>, u64, &mut [f32]) -> Result<(), CoreError> + Send,
) -> PyResult<Bound<'py, numpy::PyArray2<f32>>> {
    let mask = lanes_mask(lanes, n)?;
    let seed = args::opt_seed(seed)?.unwrap_or(0);
    let mut out = try_buffer(n * a, f32::NAN, "action values")?;
    py.detach(|| run(mask.as_deref(), seed, &mut out))
        .map_err(core_err)?;
    PyArray1::from_vec(py, out).reshape([n, a])
}

/// Runs the action keys of `n` lanes of `a` actions without the GIL (`run` gets the
/// output) and returns them as a new int64 array `[n, a]`.
pub(crate) fn action_keys<'py>(
    py: Python<'py>,
    n: usize,
    a: usize,
    run: impl FnOnce(&mut [i64]) -> Result<usize, CoreError> + Send,
) -> PyResult<Bound<'py, numpy::PyArray2<i64>>> {
    let mut out = try_buffer(n * a, 0i64, "action keys")?;
    py.detach(|| run(&mut out)).map_err(core_err)?;
    PyArray1::from_vec(py, out).reshape([n, a])
}
