//! [`BatchEngine`] (`_BatchEngine`, private): owns the [`DynEnv`] and the scratch space of
//! the Python calls, and is the `base` of every array view (see the module docs of
//! [`super`]).

use cardvec::core::spec::GameInfo;
use cardvec::core::{DynEnv, InfoSeats};
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::exceptions::PyMemoryError;
use pyo3::prelude::*;

use crate::args::ResetSeed;
use crate::arrays::{array_1d, for_each_int};
use crate::errors::{core_err, core_err_in, try_buffer, value_err};

/// The batch environment of one game and the scratch space of its Python calls: the
/// object every array view has as its `base`.
#[pyclass(module = "cardvec._cardvec", name = "_BatchEngine", weakref)]
pub(crate) struct BatchEngine {
    /// The environment of every lane.
    pub(crate) env: Box<dyn DynEnv>,
    /// Scratch space: the actions of a `step` call as read from Python.
    pub(super) actions: Vec<u32>,
}

impl BatchEngine {
    pub(super) fn step(&mut self, py: Python<'_>, actions: &Bound<'_, PyAny>) -> PyResult<()> {
        let n = self.env.num_envs();
        let arr = array_1d(actions, "actions", Some(n))?;
        let scratch = &mut self.actions;
        // Anything outside u32 (negative, too large) is an illegal action: a flagged no-op.
        for_each_int(&arr, "actions", |i, v| {
            scratch[i] = u32::try_from(v).unwrap_or(u32::MAX)
        })?;
        let (env, actions) = (&mut self.env, &self.actions);
        py.detach(|| env.step(actions)).map_err(core_err)
    }

    pub(super) fn reset(&mut self, py: Python<'_>, seed: ResetSeed) -> PyResult<()> {
        let env = &mut self.env;
        match seed {
            ResetSeed::Last => {
                let seed = env.env_options().seed;
                py.detach(|| env.reset(seed));
            }
            ResetSeed::All(seed) => py.detach(|| env.reset(seed)),
            ResetSeed::PerLane(seeds) => py.detach(|| env.reset_seeds(&seeds)).map_err(core_err)?,
        }
        Ok(())
    }

    pub(super) fn observe(&mut self, py: Python<'_>) {
        let env = &mut self.env;
        py.detach(|| env.observe());
    }

    pub(super) fn reset_lanes(&mut self, py: Python<'_>, mask: &Bound<'_, PyAny>) -> PyResult<()> {
        let arr = array_1d(mask, "reset mask", Some(self.env.num_envs()))?;
        let typed = arr.cast::<PyArray1<bool>>().map_err(|_| {
            value_err(format!(
                "reset mask must have dtype bool, got {}",
                arr.dtype()
            ))
        })?;
        let mut mask = try_buffer(self.env.num_envs(), false, "reset mask")?;
        let ro = typed
            .try_readonly()
            .map_err(|e| value_err(format!("cannot read the array: {e}")))?;
        for (m, &v) in mask.iter_mut().zip(ro.as_array().iter()) {
            *m = v;
        }
        let env = &mut self.env;
        py.detach(|| env.reset_lanes(&mask)).map_err(core_err)
    }

    pub(super) fn reset_lane_from_order(
        &mut self,
        lane: usize,
        order: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let arr = array_1d(order, "order", None)?;
        let mut bytes = try_buffer(arr.len(), 0u8, "order")?;
        let mut bad = None;
        for_each_int(&arr, "order", |i, v| match u8::try_from(v) {
            Ok(b) => bytes[i] = b,
            Err(_) => bad = bad.or(Some(v)),
        })?;
        if let Some(v) = bad {
            return Err(value_err(format!(
                "order: card id {v} is out of range 0..=255"
            )));
        }
        self.env
            .reset_lane_from_order(lane, &bytes)
            .map_err(core_err)
    }

    pub(super) fn gather(&mut self, py: Python<'_>, sources: &Bound<'_, PyAny>) -> PyResult<()> {
        let n = self.env.num_envs();
        let arr = array_1d(sources, "gather sources", Some(n))?;
        let mut lanes = try_buffer(n, 0usize, "gather sources")?;
        let mut bad = None;
        for_each_int(&arr, "gather sources", |i, v| match usize::try_from(v) {
            Ok(s) if s < n => lanes[i] = s,
            _ => bad = bad.or(Some(v)),
        })?;
        if let Some(v) = bad {
            return Err(value_err(format!(
                "gather source lane must be in 0..={}, got {v}",
                n - 1
            )));
        }
        let env = &mut self.env;
        py.detach(|| env.gather(&lanes)).map_err(core_err)
    }

    pub(super) fn observe_as<'py>(
        &self,
        py: Python<'py>,
        lane: usize,
        player: usize,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let mut out = vec![0f32; self.env.obs_dim()];
        self.env
            .observe_as(lane, player, &mut out)
            .map_err(core_err)?;
        Ok(PyArray1::from_vec(py, out))
    }
}

impl BatchEngine {
    /// The information-state tensors of every lane for `seats` (see
    /// `BatchEnv.info_state_tensor`), `[num_envs, dim]`.
    pub(super) fn info_state_tensor<'py>(
        &self,
        py: Python<'py>,
        info: &GameInfo,
        seats: InfoSeats<'_>,
    ) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let n = self.env.num_envs();
        let d = info_state_dim(&*self.env, info)?;
        let len = n.checked_mul(d).ok_or_else(|| {
            PyMemoryError::new_err(format!("info_state_tensor: {n} x {d} floats"))
        })?;
        let mut out = try_buffer(len, 0f32, "information-state tensors")?;
        let env = &*self.env;
        py.detach(|| env.write_info_states(seats, &mut out))
            .map_err(core_err)?;
        let arr = numpy::ndarray::Array2::from_shape_vec((n, d), out)
            .map_err(|e| value_err(format!("info_state_tensor: {e}")))?;
        Ok(PyArray2::from_owned_array(py, arr))
    }
}

/// The information-state tensor length of `env`, or the `ValueError` of a game without
/// information states naming those that have them.
pub(super) fn info_state_dim(env: &dyn DynEnv, info: &GameInfo) -> PyResult<usize> {
    env.info_state_dim().ok_or_else(|| {
        core_err_in(
            &format!("{}: ", info.python_class),
            cardvec::registry::no_info_states(info.id),
        )
    })
}
