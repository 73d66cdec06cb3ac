//! Errors as Python exceptions: the one mapping of a core [`CoreError`] (a `MemoryError` for
//! a refused allocation, a `ValueError` for every bad input), and fallible buffers whose size
//! follows from the caller's input.

use cardvec::core::Error as CoreError;
use pyo3::exceptions::{PyMemoryError, PyValueError};
use pyo3::prelude::*;

pyo3::create_exception!(
    cardvec,
    IllegalActionError,
    PyValueError,
    "A step refused under `on_illegal=\"raise\"`: some live lanes were sent an illegal action, and \
     nothing changed. A `ValueError`; `lanes` and `actions` are the lanes and their actions (lists \
     of int, in lane order), `count` how many."
);

/// Adds `IllegalActionError` to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add(
        "IllegalActionError",
        m.py().get_type::<IllegalActionError>(),
    )
}

/// A core error as a Python exception: [`CoreError::OutOfMemory`] is a `MemoryError`,
/// [`CoreError::IllegalAction`] an [`IllegalActionError`] (a `ValueError` with `lanes`,
/// `actions` and `count`), every other error (bad input) a `ValueError`.
pub(crate) fn core_err(e: CoreError) -> PyErr {
    core_err_in("", e)
}

/// [`core_err`] with `prefix` (`"Flip7: "`) before the message.
pub(crate) fn core_err_in(prefix: &str, e: CoreError) -> PyErr {
    match e {
        CoreError::OutOfMemory { .. } => PyMemoryError::new_err(format!("{prefix}{e}")),
        CoreError::Unknown { what: "option", .. } => unknown_option(format!("{prefix}{e}")),
        CoreError::IllegalAction {
            ref lanes,
            ref actions,
            count,
        } => Python::attach(|py| {
            let err = IllegalActionError::new_err(format!("{prefix}{e}"));
            let value = err.value(py);
            let set = value
                .setattr("lanes", lanes.clone())
                .and_then(|_| value.setattr("actions", actions.clone()))
                .and_then(|_| value.setattr("count", count));
            match set {
                Ok(()) => err,
                Err(other) => other,
            }
        }),
        _ => PyValueError::new_err(format!("{prefix}{e}")),
    }
}

/// `cardvec.errors.UnknownOptionError(msg)`: an option or keyword argument no one accepts
/// (a subclass of both `ValueError` and `TypeError`, defined in Python); a plain
/// `ValueError` if that module cannot be imported.
pub(crate) fn unknown_option(msg: String) -> PyErr {
    Python::attach(|py| {
        let class = py
            .import("cardvec.errors")
            .and_then(|m| m.getattr("UnknownOptionError"))
            .ok()
            .and_then(|c| c.cast_into::<pyo3::types::PyType>().ok());
        match class {
            Some(class) => PyErr::from_type(class, msg),
            None => PyValueError::new_err(msg),
        }
    })
}

/// A buffer of `len` copies of `value` whose size follows from the caller's input,
/// allocated fallibly (a `MemoryError`, not an abort, when memory is refused).
pub(crate) fn try_buffer<T: Clone>(len: usize, value: T, what: &'static str) -> PyResult<Vec<T>> {
    cardvec::core::try_vec(len, value, what).map_err(core_err)
}

pub(crate) fn value_err(msg: String) -> PyErr {
    PyValueError::new_err(msg)
}
