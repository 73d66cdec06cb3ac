//! `cardvec.holdem.lbr`: local best response against a heads-up no-limit policy, a built-in
//! one by name or a Python callable batched over holdings (see docs/exploit.md).

use std::sync::{Arc, Mutex};

use cardvec::core::{Error, ForkSafePool, Game};
use cardvec::games::holdem::policy::{check_call, holding_views, HoldemPolicy};
use cardvec::solve::lbr::{self, Estimator, LbrBet, LbrOptions, PreflopMode};
use cardvec::solve::spot::SpotPolicy;
use cardvec::{NoLimitHoldem, NoLimitHoldemState};
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::{args, interrupt};

/// A Python callable as a policy: `f(obs, mask)` with `obs` the float32 observations
/// (holdings, obs_dim) of the seat to act, one row per holding in its place, and `mask`
/// the uint8 legal mask (num_actions,), returning (holdings, num_actions) probabilities.
/// Its first exception is kept and raised once the run stops.
struct PyPolicy {
    f: Py<PyAny>,
    error: Mutex<Option<PyErr>>,
}

impl PyPolicy {
    fn fail(&self, e: PyErr) -> Error {
        let text = Python::attach(|py| e.value(py).to_string());
        let mut slot = self.error.lock().unwrap_or_else(|p| p.into_inner());
        slot.get_or_insert(e);
        Error::Invalid {
            what: "policy",
            reason: format!("the Python policy raised: {text}"),
        }
    }
}

impl HoldemPolicy for PyPolicy {
    fn name(&self) -> &str {
        "python"
    }
    fn probabilities(
        &self,
        game: &NoLimitHoldem,
        s: &NoLimitHoldemState,
        holdings: &[[u8; 2]],
        out: &mut [f64],
    ) -> cardvec::core::Result<()> {
        let mask = check_call(game, s, holdings, out)?;
        let seat = game.current_player(s);
        let (d, n) = (game.obs_dim(), game.num_actions());
        let mut obs = vec![0f32; holdings.len() * d];
        for (view, row) in holding_views(s, holdings)
            .iter()
            .zip(obs.chunks_exact_mut(d))
        {
            game.observe(view, seat, row);
        }
        let rows = holdings.len();
        let got: PyResult<Vec<f64>> = Python::attach(|py| {
            let obs = PyArray1::from_vec(py, obs).reshape([rows, d])?;
            let mask = PyArray1::from_vec(py, mask);
            let r = self.f.bind(py).call1((obs, mask))?;
            let np = py.import("numpy")?;
            let arr = np
                .getattr("asarray")?
                .call1((r, "float64"))?
                .cast_into::<PyArray2<f64>>()
                .map_err(|_| {
                    pyo3::exceptions::PyValueError::new_err(format!(
                        "the policy must return a ({rows}, {n}) array of probabilities"
                    ))
                })?;
            if arr.shape() != [rows, n] {
                return Err(pyo3::exceptions::PyValueError::new_err(format!(
                    "the policy must return a ({rows}, {n}) array of probabilities, got shape \
                     {:?}",
                    arr.shape()
                )));
            }
            arr.to_vec().map_err(|e| e.into())
        });
        let got = got.map_err(|e| self.fail(e))?;
        out.copy_from_slice(&got);
        Ok(())
    }
}

/// `lbr_json(policy, hands, seed, bets, preflop, limp, exact_limit, samples, estimator, control,
/// threads,
/// time_limit, **game)`: the LBR report as JSON text (`cardvec.holdem.lbr` wraps it).
#[pyfunction]
#[pyo3(signature = (policy, hands=None, seed=None, bets=None, preflop=None, limp=None,
    exact_limit=None, samples=None, estimator=None, control=None, threads=None, time_limit=None, **game))]
#[allow(clippy::too_many_arguments)]
pub fn lbr_json<'py>(
    py: Python<'py>,
    policy: &Bound<'py, PyAny>,
    hands: Option<&Bound<'py, PyAny>>,
    seed: Option<&Bound<'py, PyAny>>,
    bets: Option<&str>,
    preflop: Option<&str>,
    limp: Option<&Bound<'py, PyAny>>,
    exact_limit: Option<&Bound<'py, PyAny>>,
    samples: Option<&Bound<'py, PyAny>>,
    estimator: Option<&str>,
    control: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
    time_limit: Option<&Bound<'py, PyAny>>,
    game: Option<&Bound<'py, PyDict>>,
) -> PyResult<String> {
    let err = crate::errors::core_err;
    // A solved spot (`cardvec.spot.Solution`'s solver): its strategy, LBR from its root.
    let spot = match policy.cast::<crate::spot::PySolver>() {
        Ok(s) => {
            let solver = s.borrow().solver().clone();
            Some(py.detach(|| SpotPolicy::new(solver, "spot")).map_err(err)?)
        }
        Err(_) => None,
    };
    let g: NoLimitHoldem = match &spot {
        Some(p) => {
            if game.is_some_and(|d| !d.is_empty()) {
                return Err(pyo3::exceptions::PyValueError::new_err(
                    "a solved spot is played at its own table: give no table options",
                ));
            }
            p.start().game().map_err(err)?
        }
        None => crate::options::configure(game)?,
    };
    lbr::check_game(&g).map_err(err)?;
    let int = |o: Option<&Bound<'py, PyAny>>, what: &str, min: i128, max: i128, d: i128| {
        o.filter(|o| !o.is_none())
            .map_or(Ok(d), |o| args::int_in(o, what, min, max))
    };
    let options = LbrOptions {
        hands: int(hands, "hands", 1, lbr::MAX_HANDS as i128, 1000)? as u64,
        seed: match seed.filter(|o| !o.is_none()) {
            Some(s) => args::seed(s)?,
            None => 0,
        },
        bets: LbrBet::parse_list(bets.unwrap_or("pot,all-in")).map_err(err)?,
        preflop: PreflopMode::parse(preflop.unwrap_or("call")).map_err(err)?,
        limp: args::opt_flag(limp, "limp", true)?,
        exact_limit: int(exact_limit, "exact_limit", 0, 10_000_000, 1081)? as u64,
        samples: int(samples, "samples", 1, 1_000_000, 500)? as u32,
        estimator: Estimator::parse(estimator.unwrap_or("sample")).map_err(err)?,
        control: args::opt_flag(control, "control", false)?,
        spot: spot.as_ref().map(|p| Arc::new(p.start().clone())),
    };
    options.check().map_err(err)?;
    let threads = match threads.filter(|o| !o.is_none()) {
        Some(t) => Some(args::size_in(t, "threads", 1, cardvec::core::MAX_THREADS)?),
        None => None,
    };
    let time_limit = interrupt::time_limit_arg(time_limit)?;
    let named = match policy.extract::<String>() {
        _ if spot.is_some() => None,
        Ok(name) => Some(lbr::policy_by_name(&g, &name).map_err(err)?),
        Err(_) if policy.is_callable() => None,
        Err(_) => {
            return Err(pyo3::exceptions::PyTypeError::new_err(
                "policy must be a policy name (str), a callable f(obs, mask) -> probabilities \
                 or a solved spot (cardvec.spot.Solution)",
            ))
        }
    };
    let py_policy = PyPolicy {
        f: policy.clone().unbind(),
        error: Mutex::new(None),
    };
    let p: &dyn HoldemPolicy = match (&named, &spot) {
        (Some(b), _) => b.as_ref(),
        (None, Some(s)) => s,
        (None, None) => &py_policy,
    };
    let own;
    let pool = match threads {
        Some(t) => {
            own = ForkSafePool::new(Some(t)).map_err(err)?;
            &own
        }
        None => ForkSafePool::shared(),
    };
    let report = interrupt::on_pool(py, pool, time_limit, "lbr", |stop| {
        lbr::lbr(&g, p, &options, stop)
    })?;
    let report = report.map_err(|e| {
        let raised = py_policy
            .error
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take();
        raised.unwrap_or_else(|| err(e))
    })?;
    Ok(report.to_json())
}
