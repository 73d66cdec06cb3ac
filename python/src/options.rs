//! Game options between Python and the registry: keyword arguments converted to
//! [`OptionValue`]s and checked against a game's [`OptionSpec`]s, option values back to
//! Python objects, and `games()`, the registry's table as Python dicts.
//!
//! Conversion is by Python type, the same for every game: `int` (and numpy integers) to
//! `Int` (a `bool` is refused), `float` to `Float`, `str` to `Text`, `None` to `None`, a
//! list, tuple or 1-D array to `List`. `None` for an option whose default the game computes
//! (`"auto"`) means that default. The kind and range checks are the registry's
//! ([`Options`]); every failure is a `ValueError` that names the accepted options.

use cardvec::core::spec::{GameInfo, GameSpec, OptionKind, OptionSpec, OptionValue, Options};
use cardvec::registry;
use numpy::{PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};

/// What a game accepts, for error messages: `accepted options: num_players (integer
/// 3..=18, default 3), ...`, or that it takes none.
fn accepted(info: &GameInfo) -> String {
    if info.options.is_empty() {
        return format!("{} takes no options", info.python_class);
    }
    let list: Vec<String> = info
        .options
        .iter()
        .map(|s| format!("{} ({}, default {})", s.name, s.kind, s.default))
        .collect();
    format!("accepted options: {}", list.join(", "))
}

fn option_error(info: &GameInfo, what: String) -> PyErr {
    PyValueError::new_err(format!("{}: {what}; {}", info.python_class, accepted(info)))
}

/// One Python value as an option value; `Err` says why it cannot be one. A list holds
/// scalars only (no option takes a list of lists), so a deeply nested or self-containing
/// list is an error, not a stack overflow.
pub fn value_from_py(obj: &Bound<'_, PyAny>) -> Result<OptionValue, String> {
    value_at(obj, true)
}

/// [`value_from_py`], a list (or 1-D array) accepted only if `list` is set.
fn value_at(obj: &Bound<'_, PyAny>, list: bool) -> Result<OptionValue, String> {
    let nested = || "a list inside a list is not an option value".to_string();
    if obj.is_none() {
        return Ok(OptionValue::None);
    }
    if crate::args::is_bool(obj) {
        return Err("a bool is not an option value".into());
    }
    // Before the number checks: an array has `__index__` and `__float__` (for size one).
    if let Ok(arr) = obj.cast::<PyUntypedArray>() {
        if !list {
            return Err(nested());
        }
        if arr.ndim() != 1 {
            return Err(format!("expected a 1-D array, got shape {:?}", arr.shape()));
        }
        return value_at(
            &arr.call_method0("tolist").map_err(|e| e.to_string())?,
            true,
        );
    }
    if obj.is_instance_of::<PyString>() {
        return obj
            .extract::<String>()
            .map(OptionValue::Text)
            .map_err(|e| e.to_string());
    }
    if obj.is_instance_of::<PyInt>() || obj.hasattr("__index__").unwrap_or(false) {
        return obj.extract::<i64>().map(OptionValue::Int).map_err(|_| {
            let text = obj.str().map(|s| s.to_string()).unwrap_or_default();
            format!("the integer {text} is out of range")
        });
    }
    if obj.is_instance_of::<PyFloat>() || obj.hasattr("__float__").unwrap_or(false) {
        let v = obj.extract::<f64>().map_err(|e| e.to_string())?;
        if !v.is_finite() {
            return Err("the number is not finite".into());
        }
        return Ok(OptionValue::Float(v));
    }
    if !(obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>()) {
        let ty = obj
            .get_type()
            .name()
            .map(|n| n.to_string())
            .unwrap_or_default();
        return Err(format!("a value of type {ty} is not an option value"));
    }
    if !list {
        return Err(nested());
    }
    let mut out = Vec::new();
    for item in obj.try_iter().map_err(|e| e.to_string())? {
        out.push(value_at(&item.map_err(|e| e.to_string())?, false)?);
    }
    Ok(OptionValue::List(out))
}

/// An option value as a Python object.
pub fn value_to_py<'py>(py: Python<'py>, value: &OptionValue) -> PyResult<Bound<'py, PyAny>> {
    Ok(match value {
        OptionValue::Int(v) => v.into_pyobject(py)?.into_any(),
        OptionValue::Float(v) => v.into_pyobject(py)?.into_any(),
        OptionValue::Text(t) => t.into_pyobject(py)?.into_any(),
        OptionValue::None => py.None().into_bound(py),
        OptionValue::List(items) => {
            let list = PyList::empty(py);
            for x in items {
                list.append(value_to_py(py, x)?)?;
            }
            list.into_any()
        }
    })
}

/// The options given in `options`, in the order of the game's specs, as a dict.
pub fn options_dict<'py>(py: Python<'py>, options: &Options) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for spec in options.specs() {
        if let (true, Some(v)) = (options.is_given(spec.name), options.get(spec.name)) {
            d.set_item(spec.name, value_to_py(py, &v)?)?;
        }
    }
    Ok(d)
}

/// Game `info`'s options from keyword arguments, converted and checked (names, kinds,
/// ranges); a failure is a `ValueError` naming the accepted options.
pub fn from_kwargs(
    info: &'static GameInfo,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<Options> {
    let mut options = Options::defaults(info.options);
    let Some(kwargs) = kwargs else {
        return Ok(options);
    };
    for (key, value) in kwargs.iter() {
        let name: String = key.extract()?;
        let Some(spec) = info.options.iter().find(|s| s.name == name) else {
            return Err(crate::errors::unknown_option(format!(
                "{}: unknown option {name:?}; {}",
                info.python_class,
                accepted(info)
            )));
        };
        if value.is_none() && spec.default == "auto" {
            continue; // the default the game computes
        }
        let given = format!("{name}={}", value.repr()?);
        let v =
            value_from_py(&value).map_err(|why| option_error(info, format!("{given}: {why}")))?;
        options
            .set(&name, v)
            .map_err(|e| option_error(info, format!("{given}: {e}")))?;
    }
    Ok(options)
}

/// The `(name, value)` pairs of the options given, for [`registry::make`].
pub fn pairs(options: &Options) -> Vec<(String, OptionValue)> {
    options
        .given()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect()
}

/// Game `G` configured from keyword arguments (see [`from_kwargs`]); a configuration the
/// game rejects (one stack per seat, blinds in order, ...) is a `ValueError`.
pub fn configure<G: GameSpec>(kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<G> {
    let options = from_kwargs(&G::INFO, kwargs)?;
    G::configure(&options)
        .map_err(|e| crate::errors::core_err_in(&format!("{}: ", G::INFO.python_class), e))
}

/// The kind of an option as a word (`int`, `optional int`, `int list`, `float list`,
/// `choice`), with its range or its words.
fn kind_fields(d: &Bound<'_, PyDict>, spec: &OptionSpec) -> PyResult<()> {
    let py = d.py();
    let (kind, min, max, choices): (&str, Option<f64>, Option<f64>, Option<Vec<&str>>) = match spec
        .kind
    {
        OptionKind::Int { min, max } => ("int", Some(min as f64), Some(max as f64), None),
        OptionKind::OptionalInt { min, max } => {
            ("optional int", Some(min as f64), Some(max as f64), None)
        }
        OptionKind::IntList { min, max } => ("int list", Some(min as f64), Some(max as f64), None),
        OptionKind::FloatList { min, max } => ("float list", Some(min), Some(max), None),
        OptionKind::Choice(words) => ("choice", None, None, Some(words.to_vec())),
    };
    d.set_item("type", kind)?;
    let bound = |v: Option<f64>| -> PyResult<Bound<'_, PyAny>> {
        Ok(match (v, spec.kind) {
            (None, _) => py.None().into_bound(py),
            (Some(v), OptionKind::FloatList { .. }) => v.into_pyobject(py)?.into_any(),
            (Some(v), _) => (v as i64).into_pyobject(py)?.into_any(),
        })
    };
    d.set_item("min", bound(min)?)?;
    d.set_item("max", bound(max)?)?;
    d.set_item("choices", choices)?;
    Ok(())
}

/// One registry entry as a dict (see [`games`]).
fn game_dict<'py>(py: Python<'py>, info: &'static GameInfo) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("id", info.id)?;
    d.set_item("title", info.title)?;
    d.set_item("summary", info.summary)?;
    d.set_item("players", info.num_players)?;
    d.set_item("python_class", info.python_class)?;
    d.set_item("docs", info.docs)?;
    d.set_item("oracle", (!info.oracle.is_empty()).then_some(info.oracle))?;
    let defaults = Options::defaults(info.options);
    let options = PyList::empty(py);
    for spec in info.options {
        let o = PyDict::new(py);
        o.set_item("name", spec.name)?;
        o.set_item("kind", spec.kind.to_string())?;
        kind_fields(&o, spec)?;
        match defaults.get(spec.name) {
            Some(v) => o.set_item("default", value_to_py(py, &v)?)?,
            None => o.set_item("default", spec.default)?,
        }
        o.set_item("doc", spec.doc)?;
        options.append(o)?;
    }
    d.set_item("options", options)?;
    d.set_item("bots", info.bots.to_vec())?;
    let configurations = PyList::empty(py);
    for text in info.configurations {
        let parsed = Options::parse(info.options, text).map_err(|e| {
            PyValueError::new_err(format!("{}: configuration {text:?}: {e}", info.id))
        })?;
        configurations.append(options_dict(py, &parsed)?)?;
    }
    d.set_item("configurations", configurations)?;
    Ok(d)
}

/// The registered games, in the registry's order: one dict per game with `id`, `title`,
/// `summary`, `players` (fewest, most), `python_class`, `docs`, `oracle` (None when the
/// game has no external oracle), `options` (dicts with `name`, `kind` (text), `type`,
/// `min`, `max`, `choices`, `default` (the string `"auto"` when the game computes it) and
/// `doc`), `bots` and `configurations` (the option dicts the conformance suite covers, the
/// first being the defaults, `{}`).
#[pyfunction]
pub fn games(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    let list = PyList::empty(py);
    for info in registry::GAMES {
        list.append(game_dict(py, info)?)?;
    }
    Ok(list)
}

/// Adds `games()` to the extension module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(games, m)?)
}
