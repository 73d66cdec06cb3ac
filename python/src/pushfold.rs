//! Python bindings of heads-up push/fold hold'em: the submodule `cardvec._cardvec.pushfold`
//! (the hand classes, the exact preflop equity table, the CFR+ solver and the exploitability
//! of any strategy pair). The long calls run without the GIL; the table computation and the
//! solver stop on Ctrl-C.

use cardvec::core::{Error as CoreError, ForkSafePool};
use cardvec::poker::preflop::{class_names, EquityTable, HandClass, CLASSES};
use cardvec::solve::pushfold::{self, PushFoldOptions};
use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::{args, interrupt};

fn err(e: CoreError) -> PyErr {
    crate::errors::core_err(e)
}

/// The value given, as `repr` shows it (cut after 60 characters).
fn given(obj: &Bound<'_, PyAny>) -> String {
    let r = obj
        .repr()
        .map_or_else(|_| "?".to_string(), |r| r.to_string());
    match r.char_indices().nth(60) {
        Some((i, _)) => format!("{}...", &r[..i]),
        None => r,
    }
}

/// A real-number argument: an int or a float (Python or numpy), not a bool (a
/// `ValueError`); another type is a `TypeError`. The range is checked by the library.
pub(crate) fn number(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<f64> {
    if args::is_bool(obj) {
        return Err(PyValueError::new_err(format!(
            "{what} must be a number, got {} (a bool)",
            given(obj)
        )));
    }
    if obj.is_instance_of::<pyo3::types::PyString>() {
        return Err(PyTypeError::new_err(format!(
            "{what} must be a number, got {}",
            given(obj)
        )));
    }
    obj.extract::<f64>()
        .map_err(|_| PyTypeError::new_err(format!("{what} must be a number, got {}", given(obj))))
}

/// 169 probabilities from any sequence or array of numbers (checked by the library).
fn strategy(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<f64>> {
    let np = obj.py().import("numpy")?;
    let arr = np.getattr("asarray")?.call1((obj,)).map_err(|_| {
        PyTypeError::new_err(format!("{what} must be 169 numbers, got {}", given(obj)))
    })?;
    let kind: String = arr.getattr("dtype")?.getattr("kind")?.extract()?;
    if !matches!(kind.as_str(), "i" | "u" | "f") {
        return Err(PyTypeError::new_err(format!(
            "{what} must be 169 numbers, got {}",
            given(obj)
        )));
    }
    let ndim: usize = arr.getattr("ndim")?.extract()?;
    if ndim != 1 {
        return Err(PyValueError::new_err(format!(
            "{what} must be a 1-D sequence of 169 numbers, got {ndim} dimensions"
        )));
    }
    let flat = arr.call_method1("astype", ("float64",))?;
    flat.call_method0("tolist")?.extract()
}

fn builtin() -> PyResult<&'static EquityTable> {
    EquityTable::builtin().map_err(err)
}

/// `classes()`: the 169 hand-class names in index order (`"AA"`, `"AKs"`, ..., `"AKo"` at
/// 13, ..., `"22"`): the 13 x 13 chart row by row, ace first; pairs on the diagonal, suited
/// hands above it, offsuit hands below it.
#[pyfunction]
fn classes() -> Vec<String> {
    class_names()
}

/// `combos()`: the number of holes of each class (6, 4 or 12), int64 array of 169.
#[pyfunction]
fn combos(py: Python<'_>) -> Bound<'_, PyArray1<i64>> {
    PyArray1::from_vec(
        py,
        HandClass::all().map(|c| i64::from(c.combos())).collect(),
    )
}

fn grid<'py, T: numpy::Element + Copy>(
    py: Python<'py>,
    flat: Vec<T>,
) -> PyResult<Bound<'py, PyArray2<T>>> {
    PyArray1::from_vec(py, flat).reshape([CLASSES, CLASSES])
}

/// `equity_table()`: the exact all-in equity of each class (row) against each class
/// (column), float64 array (169, 169), from the built-in table (checksum verified).
#[pyfunction]
fn equity_table(py: Python<'_>) -> PyResult<Bound<'_, PyArray2<f64>>> {
    let t = builtin()?;
    grid(py, t.equities())
}

fn counts<'py>(py: Python<'py>, t: &EquityTable) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let pairs = |f: &dyn Fn(HandClass, HandClass) -> u64| -> Vec<i64> {
        HandClass::all()
            .flat_map(|a| HandClass::all().map(move |b| (a, b)))
            .map(|(a, b)| f(a, b) as i64)
            .collect()
    };
    d.set_item("wins", grid(py, pairs(&|a, b| t.wins(a, b)))?)?;
    d.set_item("ties", grid(py, pairs(&|a, b| t.ties(a, b)))?)?;
    d.set_item("deals", grid(py, pairs(&|a, b| t.deals(a, b)))?)?;
    d.set_item(
        "combo_pairs",
        grid(py, pairs(&|a, b| u64::from(t.combo_pairs(a, b))))?,
    )?;
    d.set_item("equity", grid(py, t.equities())?)?;
    d.set_item("checksum", format!("fnv1a64:{:016x}", t.checksum()))?;
    Ok(d)
}

/// `equity_counts()`: the built-in table's integers: a dict of int64 (169, 169) arrays
/// `wins`, `ties`, `deals` (combo pairs x C(48, 5)), `combo_pairs`, the float64 `equity` and
/// the `checksum` string.
#[pyfunction]
fn equity_counts(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let t = builtin()?;
    counts(py, t)
}

/// `compute_equity_table(time_limit=None)`: computes the table again, exactly (about ten
/// seconds on two cores), without the GIL on a fork-safe thread pool; same dict as
/// `equity_counts()`. Ctrl-C stops it (`KeyboardInterrupt`), `time_limit` (seconds > 0)
/// with `TimeoutError`.
#[pyfunction]
#[pyo3(signature = (time_limit=None))]
fn compute_equity_table<'py>(
    py: Python<'py>,
    time_limit: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let time_limit = interrupt::time_limit_arg(time_limit)?;
    let t = interrupt::on_pool(
        py,
        ForkSafePool::shared(),
        time_limit,
        "compute_equity_table",
        |stop| EquityTable::compute(stop),
    )?
    .map_err(err)?;
    counts(py, &t)
}

/// `solve(depth_bb, target=0.001, max_iterations=1000000, algorithm="cfr+", *,
/// time_limit=None, save=None, resume=None)`: the push/fold equilibrium at `depth_bb` big
/// blinds (a number >= 1) by CFR+ (or `dcfr`, `pcfr+`) until the exploitability is below
/// `target` (big blinds per hand, > 0). Returns a dict: `push`, `call` (float64 arrays of
/// 169, class order), `exploitability`, `sb_value`, `iterations`, `resumed_from`,
/// `converged`, `stop` (`"target"`, `"iterations"`, `"time-limit"`), `depth_bb`. At
/// `time_limit` seconds the solve stops and returns the strategies reached; Ctrl-C raises
/// `KeyboardInterrupt`. `resume` (a path saved by `save=` or `cardvec pushfold --save`)
/// continues the state of this depth saved there exactly (`max_iterations` more; the
/// algorithm is the file's unless given); `save` (a path, checked before the solve) is
/// written with this depth's state when the solve stops, whatever the reason (Ctrl-C
/// included, before `KeyboardInterrupt` is raised). Runs without the GIL.
#[pyfunction]
#[pyo3(signature = (depth_bb, target=None, max_iterations=None, algorithm=None, *,
    time_limit=None, save=None, resume=None))]
#[allow(clippy::too_many_arguments)]
fn solve<'py>(
    py: Python<'py>,
    depth_bb: &Bound<'py, PyAny>,
    target: Option<&Bound<'py, PyAny>>,
    max_iterations: Option<&Bound<'py, PyAny>>,
    algorithm: Option<&str>,
    time_limit: Option<&Bound<'py, PyAny>>,
    save: Option<std::path::PathBuf>,
    resume: Option<std::path::PathBuf>,
) -> PyResult<Bound<'py, PyDict>> {
    let depth = number(depth_bb, "depth_bb")?;
    pushfold::check_depth(depth).map_err(err)?;
    let state = match &resume {
        Some(path) => {
            let states = py.detach(|| pushfold::load_states(path)).map_err(err)?;
            let depths: Vec<String> = states.iter().map(|s| s.depth_bb().to_string()).collect();
            let state = states
                .into_iter()
                .find(|s| s.depth_bb().to_bits() == depth.to_bits())
                .ok_or_else(|| {
                    PyValueError::new_err(format!(
                        "resume: {} holds no state of depth {depth} (its depths: {})",
                        path.display(),
                        depths.join(", ")
                    ))
                })?;
            Some(state)
        }
        None => None,
    };
    let defaults = PushFoldOptions::default();
    let options = PushFoldOptions {
        target: match target.filter(|t| !t.is_none()) {
            Some(t) => number(t, "target")?,
            None => defaults.target,
        },
        max_iterations: match max_iterations.filter(|t| !t.is_none()) {
            Some(m) => {
                args::int_in(m, "max_iterations", 1, i128::from(pushfold::MAX_ITERATIONS))? as u64
            }
            None => defaults.max_iterations,
        },
        algorithm: match (algorithm, &state) {
            (Some(name), _) => pushfold::PushFoldAlgorithm::parse(name).map_err(err)?,
            (None, Some(s)) => s.algorithm(),
            (None, None) => defaults.algorithm,
        },
        // The solver's own limit, so that a timed-out solve returns what it reached.
        time_limit: interrupt::time_limit_arg(time_limit)?.map(|d| d.as_secs_f64()),
    };
    pushfold::check_options(&options).map_err(err)?;
    if let Some(path) = &save {
        crate::solve::check_writable(path)?;
    }
    let result = interrupt::on_thread(py, None, "pushfold.solve", |stop| {
        let game = pushfold::PushFoldGame::new(depth, EquityTable::builtin()?)?;
        let mut state = state.unwrap_or_else(|| game.start(options.algorithm));
        let s = game.solve_from(&mut state, &options, stop)?;
        // Written here, so that a Ctrl-C'd solve is saved before KeyboardInterrupt.
        if let Some(path) = &save {
            pushfold::save_states(path, std::slice::from_ref(&state))?;
        }
        Ok::<_, CoreError>(s)
    })?;
    let s = result.map_err(err)?;
    let d = PyDict::new(py);
    d.set_item("depth_bb", s.depth_bb)?;
    d.set_item("push", PyArray1::from_slice(py, &s.push))?;
    d.set_item("call", PyArray1::from_slice(py, &s.call))?;
    d.set_item("exploitability", s.exploitability)?;
    d.set_item("sb_value", s.sb_value)?;
    d.set_item("iterations", s.iterations)?;
    d.set_item("resumed_from", s.resumed_from)?;
    d.set_item("converged", s.converged)?;
    d.set_item("stop", s.stop.name())?;
    Ok(d)
}

/// `exploitability(depth_bb, push, call)`: NashConv / 2 in big blinds per hand of any
/// strategy pair at `depth_bb` big blinds: `push` and `call` are 169 probabilities each
/// (class order).
#[pyfunction]
fn exploitability<'py>(
    py: Python<'py>,
    depth_bb: &Bound<'py, PyAny>,
    push: &Bound<'py, PyAny>,
    call: &Bound<'py, PyAny>,
) -> PyResult<f64> {
    let depth = number(depth_bb, "depth_bb")?;
    let push = strategy(push, "push")?;
    let call = strategy(call, "call")?;
    py.detach(|| pushfold::exploitability(depth, &push, &call))
        .map_err(err)
}

/// The submodule `pushfold`.
fn module(py: Python<'_>) -> PyResult<Bound<'_, PyModule>> {
    let m = PyModule::new(py, "pushfold")?;
    m.add_function(wrap_pyfunction!(classes, &m)?)?;
    m.add_function(wrap_pyfunction!(combos, &m)?)?;
    m.add_function(wrap_pyfunction!(equity_table, &m)?)?;
    m.add_function(wrap_pyfunction!(equity_counts, &m)?)?;
    m.add_function(wrap_pyfunction!(compute_equity_table, &m)?)?;
    m.add_function(wrap_pyfunction!(solve, &m)?)?;
    m.add_function(wrap_pyfunction!(exploitability, &m)?)?;
    m.add("CLASSES", CLASSES)?;
    Ok(m)
}

/// Adds the `pushfold` submodule to the extension module.
pub(crate) fn register(parent: &Bound<'_, PyModule>) -> PyResult<()> {
    parent.add_submodule(&module(parent.py())?)
}
