//! Python bindings of the postflop spot solver (`cardvec::solve::spot`): the submodule
//! `cardvec._cardvec.spot`, wrapped by `python/cardvec/spot.py`.

use cardvec::core::{Error as CoreError, ForkSafePool};
use cardvec::solve::spot::{
    Aggregate, Algorithm, NodeKind, NodeLock, SizeSpecs, SolveOptions, Spot, SpotSolver,
    StopReason, TreeConfig, MAX_ITERATIONS,
};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

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
        StopReason::Interrupted => "interrupted",
    }
}

/// A chip argument: an integer in `0..=u64::MAX` (the library checks its range).
fn chips(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<u64> {
    Ok(args::int_in(obj, what, 0, i128::from(u64::MAX))? as u64)
}

/// The `locks` argument: `None` or a sequence of lock strings (the CLI's `--lock` form).
fn locks_arg(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<NodeLock>> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(Vec::new());
    };
    if obj.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(
            "locks must be a list of lock strings (such as [\"check,bet:75%=call:1\"]), not one \
             string",
        ));
    }
    let items = obj.try_iter().map_err(|_| {
        PyTypeError::new_err(format!(
            "locks must be a list of lock strings, not {}",
            obj.get_type().name().map_or("?".into(), |n| n.to_string())
        ))
    })?;
    let mut out = Vec::new();
    for item in items {
        let item = item?;
        let text: String = item.extract().map_err(|_| {
            PyTypeError::new_err(format!(
                "each lock is a string such as \"bet:100=call:1\", not {}",
                item.get_type().name().map_or("?".into(), |n| n.to_string())
            ))
        })?;
        out.push(NodeLock::parse(&text).map_err(core_err)?);
    }
    Ok(out)
}

/// The solve options of a call: `base` with the arguments given (None keeps `base`'s).
fn options_of<'py>(
    base: SolveOptions,
    target: Option<&Bound<'py, PyAny>>,
    max_iterations: Option<&Bound<'py, PyAny>>,
    time_limit: Option<&Bound<'py, PyAny>>,
    check_every: Option<&Bound<'py, PyAny>>,
    max_memory: Option<&Bound<'py, PyAny>>,
) -> PyResult<SolveOptions> {
    let some = |o: Option<&Bound<'py, PyAny>>| o.filter(|o| !o.is_none()).cloned();
    let mut options = base;
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
    if let Some(t) = interrupt::time_limit_arg(time_limit)? {
        options.time_limit = Some(t.as_secs_f64());
    }
    options.check().map_err(core_err)?;
    Ok(options)
}

/// The cards of a `cards=` argument: None, a string of cards (`"Kh"`, `"Kh7d"`, `"Kh,7d"`)
/// or a sequence of card strings.
fn cards_arg(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<cardvec::poker::Card>> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(Vec::new());
    };
    let text: String = if let Ok(s) = obj.extract::<String>() {
        s
    } else if let Ok(v) = obj.extract::<Vec<String>>() {
        v.join(" ")
    } else {
        return Err(pyo3::exceptions::PyTypeError::new_err(
            "cards must be a string of cards (\"Kh7d\") or a list of card strings",
        ));
    };
    cardvec::poker::parse_cards(&text.replace(',', " ")).map_err(core_err)
}

/// A group's aggregates as a dict of arrays (one entry per group).
fn aggregates<'py>(
    py: Python<'py>,
    rows: &[Aggregate],
    actions: usize,
    with_strategy: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item(
        "name",
        rows.iter().map(|r| r.name.clone()).collect::<Vec<_>>(),
    )?;
    d.set_item("hands", rows.iter().map(|r| r.hands).collect::<Vec<_>>())?;
    let col = |f: &dyn Fn(&Aggregate) -> f64| -> Vec<f64> { rows.iter().map(f).collect() };
    d.set_item("combos", PyArray1::from_vec(py, col(&|r| r.combos)))?;
    d.set_item("weight", PyArray1::from_vec(py, col(&|r| r.weight)))?;
    d.set_item("ev", PyArray1::from_vec(py, col(&|r| r.ev)))?;
    d.set_item("equity", PyArray1::from_vec(py, col(&|r| r.equity)))?;
    if with_strategy {
        let mut flat = Vec::with_capacity(actions * rows.len());
        for a in 0..actions {
            flat.extend(rows.iter().map(|r| r.strategy[a]));
        }
        let arr = PyArray1::from_vec(py, flat).reshape([actions, rows.len()])?;
        d.set_item("strategy", arr)?;
    } else {
        d.set_item("strategy", py.None())?;
    }
    Ok(d)
}

/// A spot's solver and the options it solves with: `cardvec.spot.Solution` wraps it.
#[pyclass(module = "cardvec._cardvec.spot", name = "_Solver")]
pub struct PySolver {
    solver: SpotSolver,
    options: SolveOptions,
}

/// The root's data of a result, computed without the GIL.
struct RootData {
    hands: Vec<Vec<String>>,
    hand_ev: [Vec<f64>; 2],
    root_player: Option<usize>,
    root_actions: Vec<String>,
    root_strategy: Vec<f32>,
    root_action_ev: Vec<f64>,
    locks: Vec<String>,
    locked_nodes: usize,
}

impl RootData {
    fn of(solver: &mut SpotSolver) -> RootData {
        let spot = solver.spot().clone();
        let hands: Vec<Vec<String>> = (0..2)
            .map(|p| spot.hands(p).iter().map(|h| h.to_string()).collect())
            .collect();
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
        RootData {
            hands,
            hand_ev,
            root_player,
            root_actions,
            root_strategy,
            root_action_ev,
            locks: solver.locks().iter().map(|l| l.to_string()).collect(),
            locked_nodes: solver.locked_nodes().len(),
        }
    }
}

/// The summary dict of `s` with the root's strategy and EVs.
fn result<'py>(
    py: Python<'py>,
    s: &cardvec::solve::spot::SpotSolution,
    stop: &str,
    root: RootData,
) -> PyResult<Bound<'py, PyDict>> {
    let RootData {
        hands,
        hand_ev,
        root_player,
        root_actions,
        root_strategy,
        root_action_ev,
        locks,
        locked_nodes,
    } = root;
    let d = PyDict::new(py);
    d.set_item("algorithm", s.algorithm)?;
    d.set_item("iterations", s.iterations)?;
    d.set_item("exploitability", s.exploitability)?;
    d.set_item("exploitability_pct", s.exploitability_pct)?;
    d.set_item("root_ev", s.root_ev.to_vec())?;
    d.set_item("root_equity", s.root_equity.to_vec())?;
    d.set_item("seconds", s.seconds)?;
    d.set_item("memory_bytes", s.memory.total_bytes)?;
    d.set_item("storage", s.storage)?;
    d.set_item("isomorphism", s.isomorphism)?;
    d.set_item("mirrors", s.memory.mirrors)?;
    d.set_item("nodes", s.memory.nodes)?;
    d.set_item("stop", stop)?;
    d.set_item(
        "history",
        PyList::new(py, s.history.iter().map(|&(i, e)| (i, e)))?,
    )?;
    d.set_item("hands", hands)?;
    d.set_item(
        "hand_ev",
        vec![
            PyArray1::from_slice(py, &hand_ev[0]),
            PyArray1::from_slice(py, &hand_ev[1]),
        ],
    )?;
    d.set_item("root_player", root_player)?;
    d.set_item("root_actions", root_actions.clone())?;
    let k = root_actions.len();
    let strategy = PyArray1::from_slice(py, &root_strategy);
    let strategy = match root_strategy.len().checked_div(k) {
        Some(h) => strategy.reshape([k, h])?.into_any(),
        None => strategy.into_any(),
    };
    d.set_item("root_strategy", strategy)?;
    let action_ev = PyArray1::from_slice(py, &root_action_ev);
    let action_ev = match root_action_ev.len().checked_div(k) {
        Some(h) => action_ev.reshape([k, h])?.into_any(),
        None => action_ev.into_any(),
    };
    d.set_item("root_action_ev", action_ev)?;
    d.set_item("locks", locks)?;
    d.set_item("locked_nodes", locked_nodes)?;
    Ok(d)
}

impl PySolver {
    /// The solver (`cardvec.holdem.lbr` plays its strategy as a policy).
    pub(crate) fn solver(&self) -> &SpotSolver {
        &self.solver
    }
}

#[pymethods]
impl PySolver {
    /// `_Solver(board, pot, stack, oop_range, ip_range, bets, raises, target,
    /// max_iterations, time_limit, algorithm, check_every, max_memory, locks, *, oop_bets,
    /// ip_bets, oop_raises, ip_raises, donk, compress, isomorphism)`: a solver at iteration 0 (see
    /// `cardvec.spot.solve`; the size specs are `TreeConfig::from_specs`').
    #[new]
    #[pyo3(signature = (board, pot, stack, oop_range, ip_range, bets="60%,e,a", raises="2.5x",
        target=None, max_iterations=None, time_limit=None, algorithm="dcfr", check_every=None,
        max_memory=None, locks=None, *, oop_bets=None, ip_bets=None, oop_raises=None,
        ip_raises=None, donk=None, compress=false, isomorphism=true))]
    #[allow(clippy::too_many_arguments)]
    fn new<'py>(
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
        locks: Option<&Bound<'py, PyAny>>,
        oop_bets: Option<&str>,
        ip_bets: Option<&str>,
        oop_raises: Option<&str>,
        ip_raises: Option<&str>,
        donk: Option<&str>,
        compress: bool,
        isomorphism: bool,
    ) -> PyResult<PySolver> {
        let base = SolveOptions {
            algorithm: Algorithm::parse(algorithm).map_err(core_err)?,
            compress,
            isomorphism,
            ..SolveOptions::default()
        };
        let options = options_of(
            base,
            target,
            max_iterations,
            time_limit,
            check_every,
            max_memory,
        )?;
        let tree = TreeConfig::from_specs(&SizeSpecs {
            bets,
            raises,
            oop_bets,
            ip_bets,
            oop_raises,
            ip_raises,
            donk,
        })
        .map_err(core_err)?;
        let spot = Spot::parse(
            board,
            chips(pot, "pot")?,
            chips(stack, "stack")?,
            oop_range,
            ip_range,
            tree,
        )
        .map_err(core_err)?;
        let locks = locks_arg(locks)?;
        let mut solver = SpotSolver::new(&spot, &options).map_err(core_err)?;
        solver.set_locks(&locks).map_err(core_err)?;
        Ok(PySolver { solver, options })
    }

    /// Replaces the node locks (a list of lock strings; empty or None unlocks); a bad lock
    /// raises `ValueError` and changes nothing. The next `solve` solves on against them.
    #[pyo3(signature = (locks))]
    fn set_locks(&mut self, locks: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        let locks = locks_arg(locks)?;
        self.solver.set_locks(&locks).map_err(core_err)
    }

    /// Runs the solver on from where it is (the options given replace the stored ones for
    /// this and later calls) and returns the summary dict (`cardvec.spot.Solution`). Ctrl-C
    /// stops it after the iteration under way and raises `KeyboardInterrupt`, the strategy
    /// reached kept in the solver (`summary()` describes it).
    #[pyo3(signature = (target=None, max_iterations=None, time_limit=None, check_every=None))]
    fn solve<'py>(
        &mut self,
        py: Python<'py>,
        target: Option<&Bound<'py, PyAny>>,
        max_iterations: Option<&Bound<'py, PyAny>>,
        time_limit: Option<&Bound<'py, PyAny>>,
        check_every: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let options = options_of(
            self.options,
            target,
            max_iterations,
            time_limit,
            check_every,
            None,
        )?;
        self.options = options;
        let solver = &mut self.solver;
        // Ctrl-C raises KeyboardInterrupt once the solve has stopped after the iteration under
        // way (the solver reads the flag before each), the strategy reached kept in `solver`;
        // time_limit is the solver's own, so a timed-out solve returns what it reached.
        let (summary, root) =
            interrupt::on_pool(py, ForkSafePool::shared(), None, "spot.solve", |stop| {
                let summary = solver.solve_with_stop(&options, stop, &mut |_| true)?;
                Ok::<_, CoreError>((summary, RootData::of(solver)))
            })?
            .map_err(core_err)?;
        result(py, &summary, stop_word(summary.stop), root)
    }

    /// The summary dict of the strategy as it is, without iterating (`stop` is
    /// `"loaded"`, `seconds` the time to evaluate it, `history` empty).
    fn summary<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let start = std::time::Instant::now();
        let solver = &mut self.solver;
        let (exploitability, root_ev, root_equity, root) =
            interrupt::on_pool(py, ForkSafePool::shared(), None, "spot.summary", |_| {
                (
                    solver.exploitability(),
                    solver.root_ev(),
                    solver.root_equity(),
                    RootData::of(solver),
                )
            })?;
        let pot = self.solver.spot().pot() as f64;
        let s = cardvec::solve::spot::SpotSolution {
            algorithm: self.solver.algorithm().name(),
            iterations: self.solver.iterations(),
            exploitability,
            exploitability_pct: 100.0 * exploitability / pot,
            root_ev,
            root_equity,
            seconds: start.elapsed().as_secs_f64(),
            memory: self.solver.memory(),
            storage: if self.solver.compressed() {
                "16-bit"
            } else {
                "f32"
            },
            stop: StopReason::Iterations,
            history: Vec::new(),
            isomorphism: self.solver.use_isomorphism(),
        };
        result(py, &s, "loaded", root)
    }

    /// Saves the spot, its options and the solver's state to `path` (`docs/spot.md`, "Spot
    /// files"); returns the file's size in bytes.
    fn save(&self, py: Python<'_>, path: std::path::PathBuf) -> PyResult<u64> {
        let (solver, options) = (&self.solver, &self.options);
        py.detach(|| solver.save(&path, options)).map_err(core_err)
    }

    /// The node of `line` (and `cards`): see `cardvec.spot.Solution.node`.
    #[pyo3(signature = (line="", cards=None))]
    fn node<'py>(
        &mut self,
        py: Python<'py>,
        line: &str,
        cards: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let cards = cards_arg(cards)?;
        let solver = &mut self.solver;
        let line = line.to_string();
        let r = py
            .detach(|| solver.node_report(&line, &cards))
            .map_err(core_err)?;
        let d = PyDict::new(py);
        d.set_item("line", r.line.join(","))?;
        d.set_item(
            "kind",
            match r.kind {
                NodeKind::Decision(_) => "decision",
                NodeKind::Chance => "chance",
                NodeKind::Fold(_) => "fold",
                NodeKind::Showdown => "showdown",
            },
        )?;
        d.set_item("street", r.street)?;
        d.set_item(
            "board",
            r.board.iter().map(|c| c.to_string()).collect::<String>(),
        )?;
        d.set_item("pot", r.pot)?;
        d.set_item("spent", r.spent.to_vec())?;
        d.set_item("player", r.player)?;
        d.set_item(
            "actions",
            r.actions.iter().map(|a| a.word.clone()).collect::<Vec<_>>(),
        )?;
        d.set_item(
            "action_pct",
            r.actions.iter().map(|a| a.pct).collect::<Vec<_>>(),
        )?;
        d.set_item(
            "cards",
            r.cards.iter().map(|c| c.to_string()).collect::<Vec<_>>(),
        )?;
        let k = r.actions.len();
        let (mut hands, mut reach, mut weight, mut ev, mut equity) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
        let (mut classes, mut categories) = (Vec::new(), Vec::new());
        for p in &r.players {
            hands.push(p.hands.iter().map(|h| h.to_string()).collect::<Vec<_>>());
            reach.push(PyArray1::from_slice(py, &p.reach));
            weight.push(PyArray1::from_slice(py, &p.weight));
            ev.push(PyArray1::from_slice(py, &p.ev));
            equity.push(PyArray1::from_slice(py, &p.equity));
            let by_class: Vec<Aggregate> = p.by_class().into_iter().map(|(_, a)| a).collect();
            classes.push(aggregates(py, &by_class, k, p.strategy.is_some())?);
            categories.push(aggregates(
                py,
                &p.by_category(&r.board),
                k,
                p.strategy.is_some(),
            )?);
        }
        d.set_item("hands", hands)?;
        d.set_item("reach", reach)?;
        d.set_item("weight", weight)?;
        d.set_item("ev", ev)?;
        d.set_item("equity", equity)?;
        let actor = r.player.map(|q| &r.players[q]);
        match actor.and_then(|p| p.strategy.as_ref().map(|s| (p, s))) {
            Some((p, s)) => {
                let n = p.hands.len();
                d.set_item("strategy", PyArray1::from_slice(py, s).reshape([k, n])?)?;
                let aev = p.action_ev.clone().unwrap_or_default();
                d.set_item("action_ev", PyArray1::from_vec(py, aev).reshape([k, n])?)?;
            }
            None => {
                d.set_item("strategy", py.None())?;
                d.set_item("action_ev", py.None())?;
            }
        }
        d.set_item("classes", classes)?;
        d.set_item("categories", categories)?;
        Ok(d)
    }

    /// The subtree below the node of `line` as JSON text (`SpotSolver::subtree_json`).
    #[pyo3(signature = (line="", cards=None, depth=None))]
    fn subtree(
        &self,
        py: Python<'_>,
        line: &str,
        cards: Option<&Bound<'_, PyAny>>,
        depth: Option<usize>,
    ) -> PyResult<String> {
        let cards = cards_arg(cards)?;
        let solver = &self.solver;
        let line = line.to_string();
        py.detach(|| solver.subtree_json(&line, &cards, depth))
            .map(|v| v.to_string())
            .map_err(core_err)
    }

    /// Loads a spot file saved by `save` (or `cardvec spot solve --save`).
    #[staticmethod]
    fn load(py: Python<'_>, path: std::path::PathBuf) -> PyResult<PySolver> {
        let (solver, options) = py.detach(|| SpotSolver::load(&path)).map_err(core_err)?;
        Ok(PySolver { solver, options })
    }
}

/// The submodule `spot`.
fn module(py: Python<'_>) -> PyResult<Bound<'_, PyModule>> {
    let m = PyModule::new(py, "spot")?;
    m.add_class::<PySolver>()?;
    Ok(m)
}

/// Adds the `spot` submodule to the extension module.
pub(crate) fn register(parent: &Bound<'_, PyModule>) -> PyResult<()> {
    parent.add_submodule(&module(parent.py())?)
}
