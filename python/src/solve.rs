//! The solvers from Python (`cardvec._cardvec.solve`; `cardvec.solve` wraps it): CFR, CFR+
//! and MCCFR on a game with a game tree, and the exact evaluation (exploitability, NashConv,
//! best responses, values) of a policy given as `"uniform"` or a table keyed by
//! information-state string. Both run without the GIL and stop on Ctrl-C or a time limit.

use cardvec::core::spec::OptionValue;
use cardvec::core::{GameTree, TreeVisitor};
use cardvec::registry;
use cardvec::solve::exploit::Evaluation;
use cardvec::solve::flat::DEFAULT_MAX_NODES;
use cardvec::solve::policy::PolicyTable;
use cardvec::solve::run::{
    evaluate_table, load_policy as run_load_policy, solve_resumable, Algorithm, PolicySource,
    ReportPoint, SolveConfig,
};
use cardvec::solve::state::RunState;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

use crate::errors::core_err;
use crate::{args, interrupt, options};

/// Game `id`'s options from a dict (`None`: defaults), as `(name, value)` pairs.
fn game_options(
    id: &str,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<Vec<(String, OptionValue)>> {
    let info = registry::info(id).map_err(core_err)?;
    Ok(options::pairs(&options::from_kwargs(info, kwargs)?))
}

fn evaluation_dict<'py>(py: Python<'py>, e: &Evaluation) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("exploitability", e.exploitability)?;
    d.set_item("nash_conv", e.nash_conv)?;
    d.set_item("values", e.values.clone())?;
    d.set_item("best_response_values", e.best_response_values.clone())?;
    Ok(d)
}

/// `solve(game_id, iterations, algorithm="cfr+", *, seed=0, every=0, lanes=1,
/// epsilon=0.6, max_nodes=10000000, options=None, time_limit=None) -> dict`: runs the
/// algorithm (`cfr`, `cfr+`, `dcfr`, `pcfr+`, `es-mccfr`, `os-mccfr`) and returns the
/// average policy (`{info_state_string: {action: probability}}`), its evaluation, the
/// curve of report points `(iteration, exploitability, seconds)` (every `every` iterations
/// and at the end) and the time spent iterating. At `time_limit` seconds the run stops and
/// returns the solution reached (`stopped` is then `"time-limit"`, `iterations` the count
/// done); Ctrl-C raises `KeyboardInterrupt`. `resume` (a path) continues the run saved
/// there (its game, options, algorithm, seed, lanes and epsilon must be these: a
/// `ValueError` says which is not); `save` (a path, checked before the solve) is written
/// with the run's state when the solve stops, whatever the reason (Ctrl-C included, before
/// `KeyboardInterrupt` is raised).
#[pyfunction]
#[pyo3(signature = (game_id, iterations, algorithm="cfr+", *, seed=None, every=None, lanes=None,
    epsilon=0.6, max_nodes=None, options=None, time_limit=None, save=None, resume=None))]
#[allow(clippy::too_many_arguments)]
fn solve<'py>(
    py: Python<'py>,
    game_id: &str,
    iterations: &Bound<'py, PyAny>,
    algorithm: &str,
    seed: Option<&Bound<'py, PyAny>>,
    every: Option<&Bound<'py, PyAny>>,
    lanes: Option<&Bound<'py, PyAny>>,
    epsilon: f64,
    max_nodes: Option<&Bound<'py, PyAny>>,
    options: Option<&Bound<'py, PyDict>>,
    time_limit: Option<&Bound<'py, PyAny>>,
    save: Option<std::path::PathBuf>,
    resume: Option<std::path::PathBuf>,
) -> PyResult<Bound<'py, PyDict>> {
    let pairs = game_options(game_id, options)?;
    let algorithm = Algorithm::parse(algorithm).map_err(core_err)?;
    let int = |obj: Option<&Bound<'py, PyAny>>, what: &str, min: i128, max: i128, default: i128| {
        obj.filter(|o| !o.is_none())
            .map_or(Ok(default), |o| args::int_in(o, what, min, max))
    };
    let config = SolveConfig {
        algorithm,
        iterations: args::int_in(iterations, "iterations", 1, i64::MAX as i128)? as u64,
        seed: args::opt_seed(seed)?.unwrap_or(0),
        every: int(every, "every", 0, i64::MAX as i128, 0)? as u64,
        lanes: int(
            lanes,
            "lanes",
            1,
            cardvec::solve::mccfr::MAX_LANES as i128,
            1,
        )? as usize,
        epsilon,
        max_nodes: int(
            max_nodes,
            "max_nodes",
            1,
            u32::MAX as i128,
            DEFAULT_MAX_NODES as i128,
        )? as usize,
        // The library stops at the limit and returns the solution reached.
        time_limit: interrupt::time_limit_arg(time_limit)?,
    };
    if !(epsilon > 0.0 && epsilon <= 1.0) {
        return Err(PyValueError::new_err(format!(
            "epsilon must be in (0, 1], got {epsilon}"
        )));
    }
    let resume = match resume {
        Some(path) => Some(py.detach(|| RunState::load(&path)).map_err(core_err)?),
        None => None,
    };
    if let Some(path) = &save {
        check_writable(path)?;
    }
    let id = game_id.to_string();
    let result = interrupt::on_pool(
        py,
        cardvec::core::ForkSafePool::shared(),
        None,
        "solve",
        |stop| {
            let (solution, state) =
                solve_resumable(&id, pairs, &config, resume, stop, &mut |_: &ReportPoint| {})?;
            // Written here, so that a Ctrl-C'd run is saved before KeyboardInterrupt.
            if let Some(path) = &save {
                state.save(path)?;
            }
            Ok::<_, cardvec::core::Error>(solution)
        },
    )?;
    let s = result.map_err(core_err)?;
    let d = evaluation_dict(py, &s.evaluation)?;
    let policy = PyDict::new(py);
    for (key, dist) in &s.table.0 {
        let row = PyDict::new(py);
        for &(a, p) in dist {
            row.set_item(a, p)?;
        }
        policy.set_item(key, row)?;
    }
    d.set_item("policy", policy)?;
    d.set_item("game_value", s.evaluation.values[0])?;
    d.set_item("algorithm", algorithm.name())?;
    d.set_item("iterations", s.iterations)?;
    d.set_item("resumed_from", s.resumed_from)?;
    d.set_item("stopped", s.stopped.map(|w| w.name()))?;
    d.set_item(
        "curve",
        s.curve
            .iter()
            .map(|p| (p.iteration, p.exploitability, p.seconds))
            .collect::<Vec<_>>(),
    )?;
    d.set_item("seconds", s.seconds)?;
    d.set_item("nodes", s.nodes)?;
    d.set_item("infosets", s.infosets)?;
    Ok(d)
}

/// A `save=` path that cannot be written is a `ValueError` before the solve starts (an
/// existing file is opened for writing without being truncated; a new one is removed again).
pub(crate) fn check_writable(path: &std::path::Path) -> PyResult<()> {
    cardvec::solve::check_writable("save", path).map_err(core_err)
}

struct NumActions;

impl TreeVisitor for NumActions {
    type Output = usize;
    fn visit<G: GameTree>(&mut self, game: &G) -> usize {
        game.num_actions()
    }
}

/// A policy table from Python: `{info_state_string: probabilities}`, the probabilities a
/// sequence over the game's `num_actions` actions or a dict `{action: probability}`.
fn table_from_py(policy: &Bound<'_, PyDict>, num_actions: usize) -> PyResult<PolicyTable> {
    let mut table = PolicyTable::default();
    for (key, value) in policy.iter() {
        let Ok(key) = key.cast::<PyString>() else {
            return Err(PyTypeError::new_err(format!(
                "policy keys must be information-state strings, got {}",
                key.repr()?
            )));
        };
        let key = key.to_string();
        let prob = |p: &Bound<'_, PyAny>| -> PyResult<f64> {
            if args::is_bool(p) {
                return Err(PyTypeError::new_err(format!(
                    "policy[{key:?}]: probabilities must be numbers, got {}",
                    p.repr()?
                )));
            }
            p.extract::<f64>().map_err(|_| {
                PyTypeError::new_err(format!(
                    "policy[{key:?}]: probabilities must be numbers, got {}",
                    p.repr().map_or("?".into(), |r| r.to_string())
                ))
            })
        };
        let mut dist = Vec::new();
        if let Ok(d) = value.cast::<PyDict>() {
            for (a, p) in d.iter() {
                let action =
                    args::int_in(&a, &format!("policy[{key:?}] action"), 0, u32::MAX as i128)?;
                dist.push((action as u32, prob(&p)?));
            }
        } else if value.is_instance_of::<PyString>() {
            return Err(PyTypeError::new_err(format!(
                "policy[{key:?}] must be a sequence of probabilities or a dict, got {}",
                value.repr()?
            )));
        } else {
            let Ok(items) = value.try_iter() else {
                return Err(PyTypeError::new_err(format!(
                    "policy[{key:?}] must be a sequence of probabilities or a dict, got {}",
                    value.repr()?
                )));
            };
            for (a, p) in items.enumerate() {
                dist.push((a as u32, prob(&p?)?));
            }
            if dist.len() != num_actions {
                return Err(PyValueError::new_err(format!(
                    "policy[{key:?}] has {} probabilities, the game has {num_actions} actions",
                    dist.len()
                )));
            }
        }
        table.0.insert(key, dist);
    }
    Ok(table)
}

/// `evaluate(game_id, policy, *, max_nodes=10000000, options=None, time_limit=None) ->
/// dict`: the exact evaluation of `policy` (`"uniform"`, or a table keyed by every
/// information-state string): `exploitability`, `nash_conv`, `values` (each seat's return
/// under the policy) and `best_response_values`. A bad table is a `ValueError` naming the
/// information state.
#[pyfunction]
#[pyo3(signature = (game_id, policy, *, max_nodes=None, options=None, time_limit=None))]
fn evaluate<'py>(
    py: Python<'py>,
    game_id: &str,
    policy: &Bound<'py, PyAny>,
    max_nodes: Option<&Bound<'py, PyAny>>,
    options: Option<&Bound<'py, PyDict>>,
    time_limit: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let pairs = game_options(game_id, options)?;
    let max_nodes = match max_nodes.filter(|o| !o.is_none()) {
        Some(o) => args::size_in(o, "max_nodes", 1, u32::MAX as usize)?,
        None => DEFAULT_MAX_NODES,
    };
    let num_actions =
        registry::visit_tree(game_id, pairs.clone(), &mut NumActions).map_err(core_err)?;
    let table = if let Ok(text) = policy.cast::<PyString>() {
        if *text != "uniform" {
            return Err(PyValueError::new_err(format!(
                "policy must be \"uniform\" or a table {{info_state_string: probabilities}}, \
                 got {}",
                policy.repr()?
            )));
        }
        None
    } else if let Ok(d) = policy.cast::<PyDict>() {
        Some(table_from_py(d, num_actions)?)
    } else {
        return Err(PyTypeError::new_err(format!(
            "policy must be \"uniform\" or a dict {{info_state_string: probabilities}}, got {}",
            policy.get_type().name()?
        )));
    };
    let time_limit = interrupt::time_limit_arg(time_limit)?;
    let id = game_id.to_string();
    let e = interrupt::on_thread(py, time_limit, "evaluate", |_| {
        let source = table
            .as_ref()
            .map_or(PolicySource::Uniform, PolicySource::Table);
        evaluate_table(&id, pairs, source, max_nodes)
    })?
    .map_err(core_err)?;
    evaluation_dict(py, &e)
}

/// `load_policy(text, game_id=None) -> (game_id, options_text, {info_state_string: {action:
/// probability}})`: the JSON text of a policy file checked against its game
/// (`cardvec::solve::run::load_policy`: the game the file names, `game_id` when given, a
/// full policy of its tree, every row a finite distribution over the legal actions). A bad
/// file is a `ValueError` saying what is wrong.
#[pyfunction]
#[pyo3(signature = (text, game_id=None))]
fn load_policy<'py>(
    py: Python<'py>,
    text: &str,
    game_id: Option<&str>,
) -> PyResult<(String, String, Bound<'py, PyDict>)> {
    let loaded = py
        .detach(|| run_load_policy(text, game_id, DEFAULT_MAX_NODES))
        .map_err(core_err)?;
    let policy = PyDict::new(py);
    for (key, dist) in &loaded.table.0 {
        let row = PyDict::new(py);
        for &(a, p) in dist {
            row.set_item(a, p)?;
        }
        policy.set_item(key, row)?;
    }
    Ok((loaded.game, loaded.options, policy))
}

/// `tree_ids() -> list[str]`: the games with a game tree (what the solvers accept).
#[pyfunction]
fn tree_ids(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    PyList::new(py, registry::tree_ids())
}

/// The `solve` submodule.
fn module(py: Python<'_>) -> PyResult<Bound<'_, PyModule>> {
    let m = PyModule::new(py, "solve")?;
    m.add_function(wrap_pyfunction!(solve, &m)?)?;
    m.add_function(wrap_pyfunction!(evaluate, &m)?)?;
    m.add_function(wrap_pyfunction!(tree_ids, &m)?)?;
    m.add_function(wrap_pyfunction!(load_policy, &m)?)?;
    m.add("DEFAULT_MAX_NODES", DEFAULT_MAX_NODES)?;
    crate::tree::register(&m)?;
    Ok(m)
}

/// Adds the `solve` submodule to the extension module.
pub(crate) fn register(parent: &Bound<'_, PyModule>) -> PyResult<()> {
    parent.add_submodule(&module(parent.py())?)
}
