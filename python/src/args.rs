//! Integer arguments from Python, checked the same way everywhere (sizes, seeds, lanes,
//! seats, counts, actions, card ids, ranks):
//!
//! - a Python `int` or any object with `__index__` (numpy integers) is taken at its full
//!   value, never wrapped or truncated, and checked against the parameter's range: outside
//!   it, a `ValueError` showing the value given;
//! - a `bool` (Python or numpy) is refused with a `ValueError`: it is an `int` to Python,
//!   but `num_envs=True` or a card `False` is a mistake, not a number;
//! - any other type (`str`, `float`, ...) is a `TypeError` naming the parameter.

use cardvec::core::ObsDtype;
use pyo3::exceptions::{PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyString, PyType};

/// Whether `obj` is a Python or numpy boolean.
pub fn is_bool(obj: &Bound<'_, PyAny>) -> bool {
    if obj.is_instance_of::<PyBool>() {
        return true;
    }
    let ty = obj.get_type();
    let module = ty.module().map(|m| m.to_string()).unwrap_or_default();
    let name = ty.name().map(|n| n.to_string()).unwrap_or_default();
    module == "numpy" && (name == "bool" || name == "bool_")
}

/// A flag argument (`autoreset=`, `observe=`): a Python or numpy bool; `None` (or absent)
/// is `default`. Anything else (`"yes"`, `1`) is a `TypeError` naming the argument.
pub fn opt_flag(obj: Option<&Bound<'_, PyAny>>, what: &str, default: bool) -> PyResult<bool> {
    match obj {
        None => Ok(default),
        Some(o) if o.is_none() => Ok(default),
        Some(o) if is_bool(o) => o.is_truthy(),
        Some(o) => Err(PyTypeError::new_err(format!(
            "{what} must be a bool (True or False), got {} ({})",
            o.repr().map_or_else(|_| "?".into(), |r| r.to_string()),
            type_name(o)
        ))),
    }
}

/// The name of `obj`'s type, for messages.
fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into())
}

/// `obj` as an integer at its full value (an `int` beyond `i128` is `Err` with its text),
/// with the errors of the module documentation for bools and other types.
pub fn int_value(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Result<i128, String>> {
    if is_bool(obj) {
        return Err(PyValueError::new_err(format!(
            "{what} must be an integer, got {} (a bool)",
            obj.repr()?
        )));
    }
    match obj.extract::<i128>() {
        Ok(v) => Ok(Ok(v)),
        // An int beyond i128 (`extract` goes through `__index__`, so only ints get here).
        Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => Ok(Err(obj.str()?.to_string())),
        Err(_) => Err(PyTypeError::new_err(format!(
            "{what} must be an integer, got {} ({})",
            obj.repr()?,
            type_name(obj)
        ))),
    }
}

/// `obj` as an integer in `min..=max` (see the module documentation).
pub fn int_in(obj: &Bound<'_, PyAny>, what: &str, min: i128, max: i128) -> PyResult<i128> {
    match int_value(obj, what)? {
        Ok(v) if (min..=max).contains(&v) => Ok(v),
        Ok(v) => Err(range_err(what, min, max, &v.to_string())),
        Err(text) => Err(range_err(what, min, max, &text)),
    }
}

fn range_err(what: &str, min: i128, max: i128, got: &str) -> PyErr {
    PyValueError::new_err(format!("{what} must be in {min}..={max}, got {got}"))
}

/// A size or index: an integer in `0..=max`.
pub fn size_in(obj: &Bound<'_, PyAny>, what: &str, min: usize, max: usize) -> PyResult<usize> {
    Ok(int_in(obj, what, min as i128, max as i128)? as usize)
}

/// A seed: an integer in `0..=2**64-1`.
pub fn seed(obj: &Bound<'_, PyAny>) -> PyResult<u64> {
    Ok(int_in(obj, "seed", 0, u64::MAX as i128)? as u64)
}

/// What `reset(seed=...)` takes: nothing (the last seed), one seed, or one seed per lane.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ResetSeed {
    /// `None` or absent: the last reset's seed.
    Last,
    /// One integer: the batch's seed (lane `i` draws from the stream `(seed, i)`).
    All(u64),
    /// A sequence of `num_envs` integers: lane `i` plays what one lane reset with `seeds[i]`
    /// plays.
    PerLane(Vec<u64>),
}

/// `reset`'s `seed` for `n` lanes: `None`, an integer, or a sequence (list, tuple, numpy
/// array) of exactly `n` integers, each in `0..=2**64-1`. Checked in full before anything
/// changes: a wrong length is a `ValueError` naming both lengths, a value out of range a
/// `ValueError` naming its index, a non-integer a `TypeError`.
pub fn reset_seed(obj: Option<&Bound<'_, PyAny>>, n: usize) -> PyResult<ResetSeed> {
    let Some(o) = obj.filter(|o| !o.is_none()) else {
        return Ok(ResetSeed::Last);
    };
    if o.is_instance_of::<pyo3::types::PyString>() || o.is_instance_of::<pyo3::types::PyBytes>() {
        return Err(PyTypeError::new_err(format!(
            "seed must be an integer or a sequence of {n} integers (one per lane), got {}",
            o.repr()?
        )));
    }
    let Ok(items) = o.try_iter() else {
        return seed(o).map(ResetSeed::All);
    };
    let mut seeds = Vec::new();
    for (i, item) in items.enumerate() {
        let item = item?;
        if seeds.len() < n {
            seeds.push(int_in(&item, &format!("seed[{i}]"), 0, u64::MAX as i128)? as u64);
        } else {
            seeds.push(0);
        }
    }
    if seeds.len() != n {
        return Err(PyValueError::new_err(format!(
            "seed: expected {n} seeds (one per lane), got {}",
            seeds.len()
        )));
    }
    Ok(ResetSeed::PerLane(seeds))
}

/// An optional seed (`None` or absent: `None`).
pub fn opt_seed(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<u64>> {
    match obj {
        Some(o) if !o.is_none() => seed(o).map(Some),
        _ => Ok(None),
    }
}

/// An action id: any integer; one outside `u32` is no action of any game (the step treats
/// it as illegal), so it becomes `u32::MAX`.
pub fn action(obj: &Bound<'_, PyAny>) -> PyResult<u32> {
    Ok(match int_value(obj, "action")? {
        Ok(v) => u32::try_from(v).unwrap_or(u32::MAX),
        Err(_) => u32::MAX,
    })
}

/// The element type of the `legal_mask` view (`mask_dtype`): the engine's bytes as uint8,
/// or the same bytes seen as numpy bools (they are always 0 or 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MaskDtype {
    /// `"u8"` (`"uint8"`, `numpy.uint8`), the default.
    U8,
    /// `"bool"` (`numpy.bool_`, `bool`).
    Bool,
}

impl MaskDtype {
    /// The dtype's name (`"u8"` or `"bool"`).
    pub fn name(self) -> &'static str {
        match self {
            MaskDtype::U8 => "u8",
            MaskDtype::Bool => "bool",
        }
    }
}

/// The name of a dtype argument (not `None`): a `str` as given; a numpy dtype or a type
/// (`numpy.uint8`, `bool`) by numpy's name for it (`"uint8"`, `"bool"`); `None` for any
/// other object (the caller names the accepted values).
fn dtype_name(obj: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(Some(s.extract::<String>()?));
    }
    let dtype = obj.py().import("numpy")?.getattr("dtype")?;
    if !(obj.is_instance(&dtype)? || obj.is_instance_of::<PyType>()) {
        return Ok(None);
    }
    match dtype.call1((obj,)) {
        Ok(d) => Ok(Some(d.getattr("name")?.extract::<String>()?)),
        Err(_) => Ok(None),
    }
}

/// The error of a dtype argument `what` = `obj` that is not one of `accepted`.
fn dtype_err(what: &str, obj: &Bound<'_, PyAny>, accepted: &str) -> PyErr {
    let shown = obj
        .repr()
        .map(|r| r.to_string())
        .unwrap_or_else(|_| "?".into());
    PyValueError::new_err(format!("{what} must be one of {accepted}, got {shown}"))
}

/// The accepted values of `obs_dtype`, for messages.
const OBS_DTYPES: &str = "'f32' (or 'float32', numpy.float32), 'u8' (or 'uint8', numpy.uint8)";
/// The accepted values of `mask_dtype`, for messages.
const MASK_DTYPES: &str = "'u8' (or 'uint8', numpy.uint8), 'bool' (or numpy.bool_, bool)";

/// The `obs_dtype` argument: `"f32"`/`"float32"`/`numpy.float32` (or `None`: the default)
/// or `"u8"`/`"uint8"`/`numpy.uint8`; anything else is a `ValueError` naming the value and
/// the accepted names.
pub fn obs_dtype(obj: Option<&Bound<'_, PyAny>>) -> PyResult<ObsDtype> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(ObsDtype::F32);
    };
    dtype_name(obj)?
        .and_then(|name| ObsDtype::parse(&name).ok())
        .ok_or_else(|| dtype_err("obs_dtype", obj, OBS_DTYPES))
}

/// The `mask_dtype` argument: `"u8"`/`"uint8"`/`numpy.uint8` (or `None`: the default) or
/// `"bool"`/`numpy.bool_`/`bool`; anything else is a `ValueError` naming the value and the
/// accepted names.
pub fn mask_dtype(obj: Option<&Bound<'_, PyAny>>) -> PyResult<MaskDtype> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(MaskDtype::U8);
    };
    match dtype_name(obj)?.as_deref() {
        Some("u8" | "uint8") => Ok(MaskDtype::U8),
        Some("bool") => Ok(MaskDtype::Bool),
        _ => Err(dtype_err("mask_dtype", obj, MASK_DTYPES)),
    }
}
