//! Python bindings of the postflop spot solver (`cardvec::solve::spot`): the submodule
//! `cardvec._cardvec.spot`, wrapped by `python/cardvec/spot.py`.

use cardvec::core::{Error as CoreError, ForkSafePool};
use cardvec::solve::spot::{
    Algorithm, NodeKind, SolveOptions, Spot, SpotSolver, StopReason, TreeConfig, MAX_ITERATIONS,
};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::errors::core_err;
use crate::{args, interrupt, pushfold::number};

/// The stop reason's word in the result (`"target"`, `"iterations"`, `"time_limit"`,
/// `"cancelled"`).
fn stop_word(s: StopReason) -> &'static str {
    match s {
        StopReason::Target => "target",
        StopReason::Iterations => "iterations",
        StopReason::TimeLimit => "time_limit",
        StopReason::Cancelled => "cancelled",
    }
}

/// A chip argument: an integer in `0..=u64::MAX` (the library checks its range).
fn chips(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<u64> {
    Ok(args::int_in(obj, what, 0, i128::from(u64::MAX))? as u64)
}

/// What one solve returns, built on the solving thread.
struct Solved {
    summary: cardvec::solve::spot::SpotSolution,
    hands: [Vec<String>; 2],
    hand_ev: [Vec<f64>; 2],
    root_player: Option<usize>,
    root_actions: Vec<String>,
    root_strategy: Vec<f32>,
    root_action_ev: Vec<f64>,
}

/// `solve(board, pot, stack, oop_range, ip_range, bets="60%,e,a", raises="2.5x", target=0.5,
/// max_iterations=1000, time_limit=None, algorithm="dcfr", check_every=10,
/// max_memory=None)`: see `cardvec.spot.solve`.
#[pyfunction]
#[pyo3(signature = (board, pot, stack, oop_range, ip_range, bets="60%,e,a", raises="2.5x",
    target=None, max_iterations=None, time_limit=None, algorithm="dcfr", check_every=None,
    max_memory=None))]
#[allow(clippy::too_many_arguments)]
fn solve<'py>(
    py: Python<'py>,
    board: &str,
    pot: &Bound<'py, PyAny>,
    stack: &Bound<'py, PyAny>,
    oop_range: &str,
    ip_range: &str,
    bets: &str,
    raises: &str,
    target: Option<&Bound<'py, PyAny>>,
    max_iterations: Option<&Bound<'py, PyAny>>,
    time_limit: Option<&Bound<'py, PyAny>>,
    algorithm: &str,
    check_every: Option<&Bound<'py, PyAny>>,
    max_memory: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let some = |o: Option<&Bound<'py, PyAny>>| o.filter(|o| !o.is_none()).cloned();
    let mut options = SolveOptions {
        algorithm: Algorithm::parse(algorithm).map_err(core_err)?,
        ..SolveOptions::default()
    };
    if let Some(t) = some(target) {
        options.target_pct = number(&t, "target")?;
    }
    if let Some(m) = some(max_iterations) {
        options.max_iterations =
            args::int_in(&m, "max_iterations", 1, i128::from(MAX_ITERATIONS))? as u64;
    }
    if let Some(c) = some(check_every) {
        options.check_every =
            args::int_in(&c, "check_every", 1, i128::from(MAX_ITERATIONS))? as u64;
    }
    if let Some(m) = some(max_memory) {
        options.max_memory = args::int_in(&m, "max_memory", 1, i128::from(u64::MAX))? as u64;
    }
    options.time_limit = interrupt::time_limit_arg(time_limit)?.map(|d| d.as_secs_f64());
    options.check().map_err(core_err)?;
    let tree = TreeConfig::uniform(bets, raises).map_err(core_err)?;
    let spot = Spot::parse(
        board,
        chips(pot, "pot")?,
        chips(stack, "stack")?,
        oop_range,
        ip_range,
        tree,
    )
    .map_err(core_err)?;
    // Ctrl-C raises KeyboardInterrupt (the solve stops within an iteration); time_limit is
    // the solver's own, so a timed-out solve returns what it reached.
    let solved = interrupt::on_pool(py, ForkSafePool::shared(), None, "spot.solve", |stop| {
        let mut solver = SpotSolver::new(&spot, &options)?;
        let summary = solver.solve(&options, &mut |_| !stop.is_stopped())?;
        let hands = [0, 1].map(|p| spot.hands(p).iter().map(|h| h.to_string()).collect());
        let hand_ev = [0, 1].map(|p| solver.root_hand_ev(p));
        let root_action_ev: Vec<f64> = solver
            .root_action_evs()
            .map(|(_, evs)| evs.concat())
            .unwrap_or_default();
        let root = solver.tree().nodes()[0];
        let (root_player, root_actions, root_strategy) = match root.kind {
            NodeKind::Decision(q) => (
                Some(q as usize),
                solver
                    .tree()
                    .children(0)
                    .iter()
                    .map(|&c| solver.tree().nodes()[c as usize].action.to_string())
                    .collect(),
                solver.average_strategy(0).unwrap_or_default(),
            ),
            _ => (None, Vec::new(), Vec::new()),
        };
        Ok::<Solved, CoreError>(Solved {
            summary,
            hands,
            hand_ev,
            root_player,
            root_actions,
            root_strategy,
            root_action_ev,
        })
    })?
    .map_err(core_err)?;
    let s = &solved.summary;
    let d = PyDict::new(py);
    d.set_item("algorithm", s.algorithm)?;
    d.set_item("iterations", s.iterations)?;
    d.set_item("exploitability", s.exploitability)?;
    d.set_item("exploitability_pct", s.exploitability_pct)?;
    d.set_item("root_ev", s.root_ev.to_vec())?;
    d.set_item("root_equity", s.root_equity.to_vec())?;
    d.set_item("seconds", s.seconds)?;
    d.set_item("memory_bytes", s.memory.total_bytes)?;
    d.set_item("nodes", s.memory.nodes)?;
    d.set_item("stop", stop_word(s.stop))?;
    d.set_item(
        "history",
        PyList::new(py, s.history.iter().map(|&(i, e)| (i, e)))?,
    )?;
    d.set_item("hands", solved.hands.to_vec())?;
    d.set_item(
        "hand_ev",
        vec![
            PyArray1::from_slice(py, &solved.hand_ev[0]),
            PyArray1::from_slice(py, &solved.hand_ev[1]),
        ],
    )?;
    d.set_item("root_player", solved.root_player)?;
    d.set_item("root_actions", solved.root_actions.clone())?;
    let k = solved.root_actions.len();
    let strategy = PyArray1::from_slice(py, &solved.root_strategy);
    let strategy = match solved.root_strategy.len().checked_div(k) {
        Some(h) => strategy.reshape([k, h])?.into_any(),
        None => strategy.into_any(),
    };
    d.set_item("root_strategy", strategy)?;
    let action_ev = PyArray1::from_slice(py, &solved.root_action_ev);
    let action_ev = match solved.root_action_ev.len().checked_div(k) {
        Some(h) => action_ev.reshape([k, h])?.into_any(),
        None => action_ev.into_any(),
    };
    d.set_item("root_action_ev", action_ev)?;
    Ok(d)
}

/// The submodule `spot`.
fn module(py: Python<'_>) -> PyResult<Bound<'_, PyModule>> {
    let m = PyModule::new(py, "spot")?;
    m.add_function(wrap_pyfunction!(solve, &m)?)?;
    Ok(m)
}

/// Adds the `spot` submodule to the extension module.
pub(crate) fn register(parent: &Bound<'_, PyModule>) -> PyResult<()> {
    parent.add_submodule(&module(parent.py())?)
}
