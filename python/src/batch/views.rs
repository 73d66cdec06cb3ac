//! [`Views`]: the numpy views of a [`BatchEngine`]'s output buffers, created once with the
//! engine as their `base`.

use cardvec::core::{ObsDtype, ObsSeats};
use numpy::{PyArray1, PyArray2, PyArray3};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use super::engine::BatchEngine;
use crate::args;
use crate::arrays::{view, view2, view3, writable_alias};

/// The `obs` view: float32 rows, or the bytes of the compact rows (`obs_dtype="u8"`).
pub(super) enum ObsView {
    F32(Py<PyArray2<f32>>),
    /// Every seat's float32 rows `[N, num_players, obs_dim]` (`obs_seats="all"`).
    Seats(Py<PyArray3<f32>>),
    U8(Py<PyArray2<u8>>),
}

/// Numpy views of an engine's output buffers, created once.
pub(super) struct Views {
    pub(super) obs: ObsView,
    /// The f32 tail of the compact rows `[N, tail_dim]` (`[N, 0]` with f32 rows).
    pub(super) obs_tail: Py<PyArray2<f32>>,
    /// The mask bytes as uint8 (the `legal_mask` of `mask_dtype="u8"`, and what `torch()`
    /// aliases).
    pub(super) legal_mask: Py<PyArray2<u8>>,
    /// With `mask_dtype="bool"`: `legal_mask` seen as numpy bools (a view of the uint8
    /// view: the same memory).
    pub(super) legal_bool: Option<Py<PyArray2<bool>>>,
    pub(super) rewards: Py<PyArray2<f32>>,
    pub(super) terminated: Py<PyArray1<bool>>,
    pub(super) truncated: Py<PyArray1<bool>>,
    pub(super) current_player: Py<PyArray1<i32>>,
    pub(super) illegal: Py<PyArray1<u8>>,
}

impl Views {
    /// Views over the buffers of `engine`, the engine object they keep alive; `legal_mask`
    /// as `mask`.
    pub(super) fn new(engine: &Bound<'_, BatchEngine>, mask: args::MaskDtype) -> PyResult<Self> {
        let py = engine.py();
        let owner = engine.as_any();
        let guard = engine.borrow();
        let env = &*guard.env;
        let n = env.num_envs();
        let format = env.obs_format();
        // SAFETY: the buffers belong to the `VecEnv` inside `owner`, which lives as long as
        // any view (each view holds a reference to it). `VecEnv` allocates them once, never
        // resizes or swaps them, and writes them only through `&mut self` in its own methods,
        // which run only while `BatchEnv::engine` holds the engine's unique borrow.
        unsafe {
            let seats = (n, env.num_players(), env.obs_dim());
            let obs = match (env.env_options().obs_dtype, env.env_options().obs_seats) {
                (ObsDtype::F32, ObsSeats::All) => {
                    ObsView::Seats(view3(owner, env.obs(), seats)?.unbind())
                }
                (ObsDtype::F32, _) => {
                    ObsView::F32(view2(owner, env.obs(), n, env.obs_dim())?.unbind())
                }
                (ObsDtype::U8, _) => {
                    ObsView::U8(view2(owner, env.obs_u8(), n, format.byte_dim())?.unbind())
                }
            };
            let tail_dim = env.obs_tail().len() / n;
            let legal_mask = view2(owner, env.legal_mask(), n, env.num_actions())?;
            // The mask bytes are 0 or 1, valid bools: numpy's `view` reinterprets them (no
            // copy; read-only like its base).
            let legal_bool = match mask {
                args::MaskDtype::U8 => None,
                args::MaskDtype::Bool => Some(
                    legal_mask
                        .call_method1("view", (numpy::dtype::<bool>(py),))?
                        .cast_into::<PyArray2<bool>>()?
                        .unbind(),
                ),
            };
            Ok(Views {
                obs,
                obs_tail: view2(owner, env.obs_tail(), n, tail_dim)?.unbind(),
                legal_mask: legal_mask.unbind(),
                legal_bool,
                rewards: view2(owner, env.rewards(), n, env.num_players())?.unbind(),
                terminated: view(owner, env.terminated())?.unbind(),
                truncated: view(owner, env.truncated())?.unbind(),
                current_player: view(owner, env.current_player())?.unbind(),
                illegal: view(owner, env.illegal())?.unbind(),
            })
        }
    }

    /// Writable aliases of every view, by name (see [`writable_alias`]).
    pub(super) fn writable_aliases<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        // SAFETY: every field is a view made by `view`/`view2` in `Views::new`.
        unsafe {
            match &self.obs {
                ObsView::F32(obs) => writable_alias(&d, "obs", obs)?,
                ObsView::Seats(obs) => writable_alias(&d, "obs", obs)?,
                ObsView::U8(obs) => {
                    writable_alias(&d, "obs", obs)?;
                    writable_alias(&d, "obs_tail", &self.obs_tail)?;
                }
            }
            writable_alias(&d, "legal_mask", &self.legal_mask)?;
            writable_alias(&d, "rewards", &self.rewards)?;
            writable_alias(&d, "terminated", &self.terminated)?;
            writable_alias(&d, "truncated", &self.truncated)?;
            writable_alias(&d, "current_player", &self.current_player)?;
            writable_alias(&d, "illegal", &self.illegal)?;
        }
        Ok(d)
    }

    /// The `obs` view (float32 or uint8).
    pub(super) fn obs<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        match &self.obs {
            ObsView::F32(a) => a.bind(py).clone().into_any(),
            ObsView::Seats(a) => a.bind(py).clone().into_any(),
            ObsView::U8(a) => a.bind(py).clone().into_any(),
        }
    }

    /// The `legal_mask` view (uint8 or bool).
    pub(super) fn legal_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        match &self.legal_bool {
            Some(b) => b.bind(py).clone().into_any(),
            None => self.legal_mask.bind(py).clone().into_any(),
        }
    }

    pub(super) fn step_result<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(
            py,
            [
                &self.obs(py),
                self.rewards.bind(py).as_any(),
                self.terminated.bind(py).as_any(),
                self.truncated.bind(py).as_any(),
            ],
        )
    }
}
