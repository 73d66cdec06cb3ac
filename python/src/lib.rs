//! Python bindings of cardvec: one batch class for every registered game.
//!
//! [`BatchEnv`] wraps the [`DynEnv`] that [`cardvec::registry::make`] builds for a game id,
//! so a game added to the registry is available in Python without code here; the Python
//! package derives one subclass per game from the table ([`options::games`]), named by
//! `GameInfo::python_class` (`cardvec.LostCities`, `cardvec.Flip7`, ...).
//!
//! Two objects per environment:
//!
//! - [`BatchEngine`] (`_BatchEngine`, private) owns the [`DynEnv`] and is the `base` of every
//!   array view, so the memory stays alive as long as any view does;
//! - [`BatchEnv`] (public, frozen) holds the engine and the views created once.
//!
//! Why two objects: numpy arrays do not take part in Python's garbage collector, so an
//! environment that held views whose `base` was the environment itself would form a cycle
//! the collector cannot see, and every environment would leak. Here the arrays point to the
//! engine and the engine points to nothing, so dropping the environment frees everything
//! once the last view is gone.
//!
//! Zero copy: the views are built with [`PyArray::borrow_from_array`] over the output
//! buffers of the `VecEnv` behind the [`DynEnv`], which are allocated once and never
//! reallocated (the core keeps the output buffers in place, `gather` included). They are
//! marked read-only; numpy refuses to make them writeable again because their base exposes
//! no writeable buffer. The GIL is released while the engine works; a call from another
//! thread meanwhile finds the engine borrowed and raises `RuntimeError` ("busy"), but a read
//! of a view cannot be stopped: the docs forbid reading the views from another thread during
//! a call that writes them (the rows may be torn).
//!
//! The engine's `VecEnv` runs on a `ForkSafePool`, so an environment keeps working in a
//! process forked after it was used.

use cardvec::core::spec::{GameInfo, Options};
use cardvec::core::DynEnv;
use cardvec::core::MAX_ENVS;
use cardvec::core::{
    ActionStatus, EnvOptions, Error as CoreError, ForkSafePool, Game, InfoSeats, ObsDtype,
    ObsFormat,
};
use cardvec::games::i151;
use cardvec::games::lost_cities;
use numpy::ndarray::{ArrayView1, ArrayView2};
use numpy::{
    Element, PyArray, PyArray1, PyArray2, PyArrayDescrMethods, PyArrayMethods, PyUntypedArray,
    PyUntypedArrayMethods,
};
use pyo3::exceptions::{PyMemoryError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedBytes;
use pyo3::types::{PyBytes, PyDict, PyList, PyTuple};
use rayon::prelude::*;

mod arena;
mod args;
mod campaign;
mod flip7;
mod holdem;
mod interrupt;
mod learner;
mod nlhe;
mod options;
mod pushfold;
mod solve;

/// A core error as a Python exception: [`CoreError::OutOfMemory`] is a `MemoryError`, every
/// other error (bad input) a `ValueError`.
fn core_err(e: CoreError) -> PyErr {
    core_err_in("", e)
}

/// [`core_err`] with `prefix` (`"Flip7: "`) before the message.
fn core_err_in(prefix: &str, e: CoreError) -> PyErr {
    match e {
        CoreError::OutOfMemory { .. } => PyMemoryError::new_err(format!("{prefix}{e}")),
        _ => PyValueError::new_err(format!("{prefix}{e}")),
    }
}

/// A buffer of `len` copies of `value` whose size follows from the caller's input,
/// allocated fallibly (a `MemoryError`, not an abort, when memory is refused).
fn try_buffer<T: Clone>(len: usize, value: T, what: &'static str) -> PyResult<Vec<T>> {
    cardvec::core::try_vec(len, value, what).map_err(core_err)
}

fn value_err(msg: String) -> PyErr {
    PyValueError::new_err(msg)
}

/// The legal mask of one game's `state` as int8 (the single-game classes' `legal_mask`).
fn single_legal_mask<'py, G: Game>(
    py: Python<'py>,
    game: &G,
    state: &G::State,
) -> Bound<'py, numpy::PyArray1<i8>> {
    let mut mask = vec![0u8; game.num_actions()];
    game.legal_mask(state, &mut mask);
    numpy::PyArray1::from_vec(py, mask.into_iter().map(|m| m as i8).collect())
}

/// One step of a single-game class: `step` writes its rewards into the zeroed `scratch`,
/// and they become the game's `rewards` only if the action was applied (an illegal action
/// changes nothing). Returns whether it was applied.
fn single_step(
    scratch: &mut [f32],
    rewards: &mut [f32],
    step: impl FnOnce(&mut [f32]) -> cardvec::core::LaneOutcome,
) -> bool {
    scratch.fill(0.0);
    let out = step(scratch);
    if out.applied {
        rewards.copy_from_slice(scratch);
    }
    out.applied
}

/// `obj` as a 1-D numpy array (array-likes go through `numpy.asarray`), of length `len`
/// when given.
fn array_1d<'py>(
    obj: &Bound<'py, PyAny>,
    what: &str,
    len: Option<usize>,
) -> PyResult<Bound<'py, PyUntypedArray>> {
    let arr = match obj.cast::<PyUntypedArray>() {
        Ok(a) => a.clone(),
        Err(_) => {
            let np = obj.py().import("numpy")?;
            let converted = np.getattr("asarray")?.call1((obj,))?;
            converted
                .cast_into::<PyUntypedArray>()
                .map_err(|_| value_err(format!("{what} must be a numpy array")))?
        }
    };
    if arr.ndim() != 1 {
        return Err(value_err(format!(
            "{what} must be a 1-D array, got shape {:?}",
            arr.shape()
        )));
    }
    if let Some(n) = len {
        if arr.len() != n {
            return Err(value_err(format!(
                "{what}: expected length {n}, got {}",
                arr.len()
            )));
        }
    }
    Ok(arr)
}

/// Reads a 1-D array of elements `T` if `arr` has that dtype.
fn try_read<T: Element + Copy + Into<i128>>(
    arr: &Bound<'_, PyUntypedArray>,
    f: &mut impl FnMut(usize, i128),
) -> Option<PyResult<()>> {
    let typed = arr.cast::<PyArray1<T>>().ok()?;
    Some(match typed.try_readonly() {
        Ok(ro) => {
            for (i, &v) in ro.as_array().iter().enumerate() {
                f(i, v.into());
            }
            Ok(())
        }
        Err(e) => Err(value_err(format!("cannot read the array: {e}"))),
    })
}

/// Calls `f(index, value)` for every element of a 1-D array of any integer dtype; any other
/// dtype (float, bool, object, ...) is a `ValueError`.
fn for_each_int(
    arr: &Bound<'_, PyUntypedArray>,
    what: &str,
    mut f: impl FnMut(usize, i128),
) -> PyResult<()> {
    let dtype = arr.dtype();
    let kind = dtype.kind();
    if kind != b'i' && kind != b'u' {
        return Err(value_err(format!(
            "{what} must have an integer dtype, got {dtype}"
        )));
    }
    let read = try_read::<i64>(arr, &mut f)
        .or_else(|| try_read::<i32>(arr, &mut f))
        .or_else(|| try_read::<u8>(arr, &mut f))
        .or_else(|| try_read::<u32>(arr, &mut f))
        .or_else(|| try_read::<u64>(arr, &mut f))
        .or_else(|| try_read::<i16>(arr, &mut f))
        .or_else(|| try_read::<u16>(arr, &mut f))
        .or_else(|| try_read::<i8>(arr, &mut f));
    match read {
        Some(r) => r,
        // Integer dtypes numpy does not hand over directly (non-native byte order).
        None => {
            let converted = arr.call_method1("astype", ("int64",))?;
            let converted = converted.cast::<PyUntypedArray>()?;
            try_read::<i64>(converted, &mut f)
                .unwrap_or_else(|| Err(value_err(format!("{what}: unsupported dtype {dtype}"))))
        }
    }
}

/// The batch environment of one game and the scratch space of its Python calls: the
/// object every array view has as its `base`.
#[pyclass(module = "cardvec._cardvec", name = "_BatchEngine", weakref)]
pub struct BatchEngine {
    env: Box<dyn DynEnv>,
    actions: Vec<u32>,
}

impl BatchEngine {
    fn step(&mut self, py: Python<'_>, actions: &Bound<'_, PyAny>) -> PyResult<()> {
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

    fn reset(&mut self, py: Python<'_>, seed: Option<u64>) {
        let seed = seed.unwrap_or(self.env.env_options().seed);
        let env = &mut self.env;
        py.detach(|| env.reset(seed));
    }

    fn observe(&mut self, py: Python<'_>) {
        let env = &mut self.env;
        py.detach(|| env.observe());
    }

    fn reset_lanes(&mut self, py: Python<'_>, mask: &Bound<'_, PyAny>) -> PyResult<()> {
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

    fn reset_lane_from_order(&mut self, lane: usize, order: &Bound<'_, PyAny>) -> PyResult<()> {
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

    fn gather(&mut self, py: Python<'_>, sources: &Bound<'_, PyAny>) -> PyResult<()> {
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

    fn observe_as<'py>(
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
    fn info_state_tensor<'py>(
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
fn info_state_dim(env: &dyn DynEnv, info: &GameInfo) -> PyResult<usize> {
    env.info_state_dim().ok_or_else(|| {
        core_err_in(
            &format!("{}: ", info.python_class),
            cardvec::registry::no_info_states(info.id),
        )
    })
}

/// Builds a read-only 1-D numpy view of `data` whose base is `owner`.
///
/// # Safety
/// `data` must stay allocated, at the same address and length, for as long as `owner` lives,
/// and Rust must never hold a reference to it while Python code runs except through `owner`.
unsafe fn view<'py, T: Element>(
    owner: &Bound<'py, PyAny>,
    data: &[T],
) -> PyResult<Bound<'py, PyArray1<T>>> {
    let arr = unsafe { PyArray::borrow_from_array(&ArrayView1::from(data), owner.clone()) };
    arr.call_method1("setflags", (false,))?;
    Ok(arr)
}

/// A read-only 2-D view of `data`, `rows` rows of `cols` values (`cols` may be 0: an
/// empty `[rows, 0]` view), whose base is `owner`.
///
/// # Safety
/// As for [`view`].
unsafe fn view2<'py, T: Element>(
    owner: &Bound<'py, PyAny>,
    data: &[T],
    rows: usize,
    cols: usize,
) -> PyResult<Bound<'py, PyArray2<T>>> {
    let shape = (rows, cols);
    let v = ArrayView2::from_shape(shape, data).map_err(|e| value_err(e.to_string()))?;
    let arr = unsafe { PyArray::borrow_from_array(&v, owner.clone()) };
    arr.call_method1("setflags", (false,))?;
    Ok(arr)
}

/// The `out` argument of `obs_f32` and `legal_bits`: `None` (absent) is a new zeroed
/// array of `shape`; otherwise it must be a numpy array of element `T` (`dtype_name`) and
/// of that shape, C-contiguous and writable, or it is a `ValueError` (nothing written).
fn out_array<'py, T: Element>(
    py: Python<'py>,
    out: Option<&Bound<'py, PyAny>>,
    what: &str,
    dtype_name: &str,
    shape: (usize, usize),
) -> PyResult<Bound<'py, PyArray2<T>>> {
    let Some(obj) = out.filter(|o| !o.is_none()) else {
        return Ok(PyArray2::zeros(py, shape, false));
    };
    let want = format!(
        "a C-contiguous writable {dtype_name} numpy array of shape ({}, {})",
        shape.0, shape.1
    );
    let arr = obj.cast::<PyUntypedArray>().map_err(|_| {
        let ty = obj
            .get_type()
            .name()
            .map(|n| n.to_string())
            .unwrap_or_default();
        value_err(format!("{what} must be {want}, got a {ty}"))
    })?;
    let got = format!("{} {:?}", arr.dtype(), arr.shape());
    let typed = arr
        .cast::<PyArray2<T>>()
        .ok()
        .filter(|a| a.shape() == [shape.0, shape.1])
        .ok_or_else(|| value_err(format!("{what} must be {want}, got {got}")))?;
    if !typed.is_c_contiguous() {
        return Err(value_err(format!(
            "{what} must be {want}, got a non-contiguous array"
        )));
    }
    let writeable: bool = typed.getattr("flags")?.getattr("writeable")?.extract()?;
    if !writeable {
        return Err(value_err(format!(
            "{what} must be {want}, got a read-only array"
        )));
    }
    Ok(typed.clone())
}

/// A `ValueError` if `dst` (an `out` array) overlaps `src` (an engine buffer the call
/// reads), say a writable alias from `torch()`.
fn check_disjoint<T, U>(dst: &[T], src: &[U]) -> PyResult<()> {
    let d = dst.as_ptr_range();
    let (d0, d1) = (d.start as usize, d.end as usize);
    let s = src.as_ptr_range();
    let (s0, s1) = (s.start as usize, s.end as usize);
    if d0 < s1 && s0 < d1 {
        return Err(value_err(
            "out shares memory with the environment's buffers".to_string(),
        ));
    }
    Ok(())
}

/// Lanes per task of [`expand_obs`].
const EXPAND_LANES: usize = 64;

/// Writes the float32 observations of every lane of `env` into `out` (`[N, obs_dim]`): a
/// copy of `obs` (f32 rows) or each compact row expanded by the game's [`ObsFormat`], on
/// the shared pool (the result does not depend on the thread count).
fn expand_obs(env: &dyn DynEnv, out: &mut [f32]) {
    let d = env.obs_dim();
    if d == 0 {
        return;
    }
    let chunk = EXPAND_LANES * d;
    match env.env_options().obs_dtype {
        ObsDtype::F32 => ForkSafePool::shared().install(|| {
            out.par_chunks_mut(chunk)
                .zip(env.obs().par_chunks(chunk))
                .for_each(|(o, src)| o.copy_from_slice(src))
        }),
        ObsDtype::U8 => {
            let format = env.obs_format();
            let (b, t) = (format.byte_dim(), format.tail_dim());
            let (bytes, tail) = (env.obs_u8(), env.obs_tail());
            ForkSafePool::shared().install(|| {
                out.par_chunks_mut(chunk).enumerate().for_each(|(c, rows)| {
                    for (i, row) in rows.chunks_exact_mut(d).enumerate() {
                        let lane = c * EXPAND_LANES + i;
                        format.expand(
                            &bytes[lane * b..(lane + 1) * b],
                            &tail[lane * t..(lane + 1) * t],
                            row,
                        );
                    }
                })
            })
        }
    }
}

/// A game's compact observation format (`BatchEnv.obs_format`): how a row of `obs` with
/// `obs_dtype="u8"` (`byte_dim` bytes) and its `obs_tail` row (`tail_dim` float32 values)
/// map onto the float32 row (`dim` values): `row[byte_index[k]] = obs[k] / byte_div[k]`
/// (float32 division) and `row[tail_index[j]] = obs_tail[j]`, exact bit for bit. The
/// arrays are new copies, made for this object.
#[pyclass(module = "cardvec._cardvec", name = "ObsFormat", frozen)]
pub struct PyObsFormat {
    dim: usize,
    byte_dim: usize,
    tail_dim: usize,
    byte_index: Py<PyArray1<i64>>,
    byte_div: Py<PyArray1<f32>>,
    tail_index: Py<PyArray1<i64>>,
}

impl PyObsFormat {
    fn new(py: Python<'_>, format: &ObsFormat) -> PyResult<Self> {
        let (bytes, tail) = format.index_tables();
        let index: Vec<i64> = bytes.iter().map(|&(i, _)| i as i64).collect();
        let div: Vec<f32> = bytes.iter().map(|&(_, d)| d as f32).collect();
        let tail: Vec<i64> = tail.iter().map(|&i| i as i64).collect();
        Ok(PyObsFormat {
            dim: format.dim(),
            byte_dim: format.byte_dim(),
            tail_dim: format.tail_dim(),
            byte_index: PyArray1::from_vec(py, index).unbind(),
            byte_div: PyArray1::from_vec(py, div).unbind(),
            tail_index: PyArray1::from_vec(py, tail).unbind(),
        })
    }
}

#[pymethods]
impl PyObsFormat {
    /// Length of the float32 row (`obs_dim`).
    #[getter]
    fn dim(&self) -> usize {
        self.dim
    }
    /// Bytes per compact row (the width of `obs` with `obs_dtype="u8"`).
    #[getter]
    fn byte_dim(&self) -> usize {
        self.byte_dim
    }
    /// float32 values per compact row's tail (the width of `obs_tail`).
    #[getter]
    fn tail_dim(&self) -> usize {
        self.tail_dim
    }
    /// Bytes one compact row takes: `byte_dim + 4 * tail_dim`.
    #[getter]
    fn compact_bytes(&self) -> usize {
        self.byte_dim + 4 * self.tail_dim
    }
    /// int64 [byte_dim]: the index in the float32 row of each byte.
    #[getter]
    fn byte_index(&self, py: Python<'_>) -> Py<PyArray1<i64>> {
        self.byte_index.clone_ref(py)
    }
    /// float32 [byte_dim]: the divisor of each byte (`value = byte / div`; 1 for flags and
    /// small counts).
    #[getter]
    fn byte_div(&self, py: Python<'_>) -> Py<PyArray1<f32>> {
        self.byte_div.clone_ref(py)
    }
    /// int64 [tail_dim]: the index in the float32 row of each tail value.
    #[getter]
    fn tail_index(&self, py: Python<'_>) -> Py<PyArray1<i64>> {
        self.tail_index.clone_ref(py)
    }
    fn __repr__(&self) -> String {
        format!(
            "ObsFormat(dim={}, byte_dim={}, tail_dim={})",
            self.dim, self.byte_dim, self.tail_dim
        )
    }
}

/// Adds to `dict` under `name` a writable numpy alias of `arr` (a view made by [`view`] or
/// [`view2`]): the same memory, with `arr` as its base (so the engine stays alive). Only for
/// the `torch()` methods, which hand the aliases to `torch.from_numpy` (that warns on a
/// read-only array, and `torch.from_dlpack` refuses one unless numpy and torch both speak
/// DLPack 1.0); the tensors share the engine's buffers, documented as not to be written.
///
/// # Safety
/// `arr` must be such a view: its memory lives as long as `arr` does.
pub(crate) unsafe fn writable_alias<T: Element, D: numpy::ndarray::Dimension>(
    dict: &Bound<'_, PyDict>,
    name: &str,
    arr: &Py<PyArray<T, D>>,
) -> PyResult<()> {
    let arr = arr.bind(dict.py());
    let alias = unsafe { PyArray::borrow_from_array(&arr.as_array(), arr.clone().into_any()) };
    dict.set_item(name, alias)
}

/// `cardvec._torch.tensors(arrays, mask)`: the `torch()` methods' result (see there).
/// `mask=None` is the default, `"bool"`.
pub(crate) fn torch_tensors<'py>(
    arrays: &Bound<'py, PyDict>,
    mask: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = arrays.py();
    let tensors = py.import("cardvec._torch")?.getattr("tensors")?;
    match mask {
        Some(mask) => tensors.call1((arrays, mask)),
        None => tensors.call1((arrays, "bool")),
    }
}

/// The `obs` view: float32 rows, or the bytes of the compact rows (`obs_dtype="u8"`).
enum ObsView {
    F32(Py<PyArray2<f32>>),
    U8(Py<PyArray2<u8>>),
}

/// Numpy views of an engine's output buffers, created once.
pub struct Views {
    obs: ObsView,
    /// The f32 tail of the compact rows `[N, tail_dim]` (`[N, 0]` with f32 rows).
    obs_tail: Py<PyArray2<f32>>,
    /// The mask bytes as uint8 (the `legal_mask` of `mask_dtype="u8"`, and what `torch()`
    /// aliases).
    legal_mask: Py<PyArray2<u8>>,
    /// With `mask_dtype="bool"`: `legal_mask` seen as numpy bools (a view of the uint8
    /// view: the same memory).
    legal_bool: Option<Py<PyArray2<bool>>>,
    rewards: Py<PyArray2<f32>>,
    terminated: Py<PyArray1<bool>>,
    truncated: Py<PyArray1<bool>>,
    current_player: Py<PyArray1<i32>>,
    illegal: Py<PyArray1<u8>>,
}

impl Views {
    /// Views over the buffers of `engine`, the engine object they keep alive; `legal_mask`
    /// as `mask`.
    fn new(engine: &Bound<'_, BatchEngine>, mask: args::MaskDtype) -> PyResult<Self> {
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
            let obs = match env.env_options().obs_dtype {
                ObsDtype::F32 => ObsView::F32(view2(owner, env.obs(), n, env.obs_dim())?.unbind()),
                ObsDtype::U8 => {
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
    fn writable_aliases<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        // SAFETY: every field is a view made by `view`/`view2` in `Views::new`.
        unsafe {
            match &self.obs {
                ObsView::F32(obs) => writable_alias(&d, "obs", obs)?,
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
    fn obs<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        match &self.obs {
            ObsView::F32(a) => a.bind(py).clone().into_any(),
            ObsView::U8(a) => a.bind(py).clone().into_any(),
        }
    }

    /// The `legal_mask` view (uint8 or bool).
    fn legal_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        match &self.legal_bool {
            Some(b) => b.bind(py).clone().into_any(),
            None => self.legal_mask.bind(py).clone().into_any(),
        }
    }

    fn step_result<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
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

/// Builds the options of a new environment from the constructor's arguments (integers
/// checked by [`args`]: a bool, a value out of range or of another type is refused).
/// `None` for `seed` or `chunk_size` means the default (0 and 64).
fn env_options(
    num_envs: &Bound<'_, PyAny>,
    seed: Option<&Bound<'_, PyAny>>,
    num_threads: Option<&Bound<'_, PyAny>>,
    autoreset: bool,
    observe: bool,
    chunk_size: Option<&Bound<'_, PyAny>>,
    max_steps: Option<&Bound<'_, PyAny>>,
) -> PyResult<EnvOptions> {
    let mut options = EnvOptions::new(args::size_in(num_envs, "num_envs", 1, MAX_ENVS)?);
    options.seed = args::opt_seed(seed)?.unwrap_or(0);
    options.num_threads = match num_threads {
        Some(t) if !t.is_none() => Some(args::size_in(t, "num_threads", 1, 1024)?),
        _ => None,
    };
    options.autoreset = autoreset;
    options.observe_on_step = observe;
    if let Some(cs) = chunk_size.filter(|c| !c.is_none()) {
        options.chunk_size = args::size_in(cs, "chunk_size", 1, 1 << 20)?;
    }
    if let Some(m) = max_steps.filter(|m| !m.is_none()) {
        options.max_steps = Some(args::size_in(m, "max_steps", 1, u32::MAX as usize)? as u32);
    }
    Ok(options)
}

/// The batch environment of a registered game: `num_envs` lanes stepped together.
///
/// `BatchEnv(game_id, num_envs, seed=None, num_threads=None, autoreset=False,
/// observe=True, chunk_size=None, max_steps=None, *, obs_dtype="f32", mask_dtype="u8",
/// **options)`; each game's class (`cardvec.Flip7`, ..., see `cardvec.games()`) is a
/// subclass that supplies `game_id`, and `cardvec.make(game_id, num_envs, **kwargs)` builds
/// one by id. `seed=None` is 0, `num_threads=None` uses every core, `chunk_size=None` is
/// 64; the game's options are keyword arguments (a bad one is a `ValueError` naming the
/// accepted options). `obs_dtype="u8"` writes the game's compact observation rows (`obs`
/// uint8 plus `obs_tail` float32, see `obs_format` and `obs_f32`); `mask_dtype="bool"`
/// shows `legal_mask` as numpy bools (the same memory).
///
/// Outputs (`obs`, `obs_tail`, `legal_mask`, `rewards`, `terminated`, `truncated`,
/// `current_player`, `illegal`) are read-only numpy views of the engine's buffers: the same
/// array objects on every call, at the same addresses for the environment's lifetime,
/// updated in place.
///
/// Which calls write the views: `step`, `reset`, `reset_lanes`, `reset_lane_from_order`,
/// `gather`, `set_state` and `observe` (only `obs`). They release the GIL while the lanes
/// run on worker threads, so another Python thread could read a view meanwhile: that is not
/// allowed, the rows it reads may be half old and half new (torn). Read the views between
/// calls, or copy them (`arr.copy()`) before handing them to another thread. A second call
/// on the same environment from another thread during one of these calls is refused with
/// `RuntimeError` ("busy").
///
/// Fork: an environment (created and used before `os.fork()`, a `multiprocessing` "fork"
/// pool or a DataLoader worker) works in the child, which starts worker threads of its own
/// on its first call; results are the same as in the parent.
#[pyclass(module = "cardvec._cardvec", name = "BatchEnv", frozen, subclass)]
pub struct BatchEnv {
    engine: Py<BatchEngine>,
    views: Views,
    obs_dtype: ObsDtype,
    mask_dtype: args::MaskDtype,
    info: &'static GameInfo,
    config: Options,
    num_envs: usize,
    num_actions: usize,
    obs_dim: usize,
    num_players: usize,
    state_size: usize,
    zero_sum: bool,
}

impl BatchEnv {
    /// A lane index (`0..num_envs`) from Python (see [`args`]).
    fn lane(&self, lane: &Bound<'_, PyAny>) -> PyResult<usize> {
        args::size_in(lane, "lane", 0, self.num_envs - 1)
    }

    /// The engine, borrowed for one call; a call from another thread while one runs (the
    /// GIL is released while stepping) is a `RuntimeError`.
    fn engine<'py>(&self, py: Python<'py>) -> PyResult<PyRefMut<'py, BatchEngine>> {
        self.engine.bind(py).try_borrow_mut().map_err(|_| {
            PyRuntimeError::new_err(format!(
                "{} is busy: another thread is using this environment",
                self.info.python_class
            ))
        })
    }
}

#[pymethods]
impl BatchEnv {
    #[new]
    #[pyo3(
        signature = (game_id, num_envs, seed=None, num_threads=None, autoreset=false, observe=true, chunk_size=None, max_steps=None, *, obs_dtype=None, mask_dtype=None, **options),
        text_signature = "(game_id, num_envs, seed=None, num_threads=None, autoreset=False, observe=True, chunk_size=None, max_steps=None, *, obs_dtype='f32', mask_dtype='u8', **options)"
    )]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        game_id: &str,
        num_envs: &Bound<'_, PyAny>,
        seed: Option<&Bound<'_, PyAny>>,
        num_threads: Option<&Bound<'_, PyAny>>,
        autoreset: bool,
        observe: bool,
        chunk_size: Option<&Bound<'_, PyAny>>,
        max_steps: Option<&Bound<'_, PyAny>>,
        obs_dtype: Option<&Bound<'_, PyAny>>,
        mask_dtype: Option<&Bound<'_, PyAny>>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let info = cardvec::registry::info(game_id).map_err(core_err)?;
        let mut env_options = env_options(
            num_envs,
            seed,
            num_threads,
            autoreset,
            observe,
            chunk_size,
            max_steps,
        )?;
        env_options.obs_dtype = args::obs_dtype(obs_dtype)?;
        let mask_dtype = args::mask_dtype(mask_dtype)?;
        let pairs = options::pairs(&options::from_kwargs(info, options)?);
        let env = py
            .detach(|| cardvec::registry::make(info.id, pairs, env_options))
            .map_err(|e| core_err_in(&format!("{}: ", info.python_class), e))?;
        let batch = BatchEnv::from_env(py, info, env, mask_dtype)?;
        Ok(batch)
    }

    /// Resets every lane (lane i draws from the stream (seed, i, episode 0)). `seed=None`
    /// reuses the last seed. Returns `obs`.
    #[pyo3(signature = (seed=None))]
    fn reset<'py>(
        &self,
        py: Python<'py>,
        seed: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let seed = args::opt_seed(seed)?;
        self.engine(py)?.reset(py, seed);
        Ok(self.views.obs(py))
    }

    /// Steps every lane with one action (a 1-D integer array of length num_envs). Illegal
    /// or out-of-range actions and actions on finished lanes are no-ops flagged in
    /// `illegal`. Returns `(obs, rewards, terminated, truncated)`, the same array objects on
    /// every call.
    fn step<'py>(
        &self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        self.engine(py)?.step(py, actions)?;
        self.views.step_result(py)
    }

    /// Computes the observation of the player to act in every lane. Returns `obs`.
    fn observe<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.engine(py)?.observe(py);
        Ok(self.views.obs(py))
    }

    /// The batch API's name for `reset` (one implementation behind both names): resets
    /// every lane; returns `obs`.
    #[pyo3(signature = (seed=None))]
    fn batched_reset<'py>(
        &self,
        py: Python<'py>,
        seed: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.reset(py, seed)
    }

    /// The batch API's name for `step` (one implementation behind both names): returns
    /// `(obs, rewards, terminated, truncated)`.
    fn batched_step<'py>(
        &self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        self.step(py, actions)
    }

    /// The batch API's name for `observe`: the observation of the player to act in every
    /// lane, `obs` (float32 [num_envs, obs_dim], or uint8 [num_envs, byte_dim] with
    /// `obs_dtype="u8"`).
    fn batched_obs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.observe(py)
    }

    /// The batch API's legal masks: the `legal_mask` view, uint8 (or bool with
    /// `mask_dtype="bool"`) [num_envs, num_actions].
    fn batched_legal_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        self.views.legal_mask(py)
    }

    /// Resets the lanes where `mask` (bool array [num_envs]) is true; each starts its next
    /// episode.
    fn reset_lanes(&self, py: Python<'_>, mask: &Bound<'_, PyAny>) -> PyResult<()> {
        self.engine(py)?.reset_lanes(py, mask)
    }

    /// Deals lane `lane` from an explicit card order (an integer array; the game documents
    /// its format).
    fn reset_lane_from_order(
        &self,
        py: Python<'_>,
        lane: &Bound<'_, PyAny>,
        order: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let lane = self.lane(lane)?;
        self.engine(py)?.reset_lane_from_order(lane, order)
    }

    /// Copies lanes: afterwards lane i holds what lane sources[i] held (state, random
    /// stream, outputs). `sources` is an integer array [num_envs].
    fn gather(&self, py: Python<'_>, sources: &Bound<'_, PyAny>) -> PyResult<()> {
        self.engine(py)?.gather(py, sources)
    }

    /// The actions the game's built-in bot `bot` picks for the seat to act (what
    /// `cardvec.bots.act(env, bot, lanes, seed)` returns): int64 [num_envs], -1 where not
    /// selected or finished.
    #[pyo3(signature = (bot, lanes=None, seed=None))]
    fn _bot_actions<'py>(
        &self,
        py: Python<'py>,
        bot: &str,
        lanes: Option<&Bound<'py, PyAny>>,
        seed: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let engine = self.engine(py)?;
        let env = &*engine.env;
        learner::bot_actions(py, self.num_envs, lanes, seed, |mask, seed, out| {
            cardvec::registry::bot_actions(env, bot, mask, seed, out)
        })
    }

    /// A new float32 array: the observation of lane `lane` as seen by seat `player`.
    fn observe_as<'py>(
        &self,
        py: Python<'py>,
        lane: &Bound<'py, PyAny>,
        player: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let lane = self.lane(lane)?;
        let player = args::size_in(player, "player", 0, self.num_players - 1)?;
        self.engine(py)?.observe_as(py, lane, player)
    }

    /// Length of one information-state tensor (`info_state_tensor`), or `None` for a game
    /// without information states.
    #[getter]
    fn info_state_dim(&self, py: Python<'_>) -> PyResult<Option<usize>> {
        Ok(self.engine(py)?.env.info_state_dim())
    }

    /// A new float32 array `[num_envs, info_state_dim]`: each lane's information-state
    /// tensor (the perfect-recall information state, fixed length; Kuhn and Leduc:
    /// OpenSpiel's `information_state_tensor`) for `player`: `None` (each lane's seat to
    /// act), one seat for every lane, or an integer array `[num_envs]` of seats. Written in
    /// parallel; the same for any thread count. A game without information states is a
    /// `ValueError` naming those that have them.
    #[pyo3(signature = (player=None))]
    fn info_state_tensor<'py>(
        &self,
        py: Python<'py>,
        player: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let engine = self.engine(py)?;
        let last = self.num_players - 1;
        match player {
            None => engine.info_state_tensor(py, self.info, InfoSeats::ToAct),
            Some(p) if p.is_none() => engine.info_state_tensor(py, self.info, InfoSeats::ToAct),
            Some(p)
                if p.cast::<PyUntypedArray>().is_ok_and(|a| a.ndim() > 0)
                    || p.cast::<PyList>().is_ok()
                    || p.cast::<PyTuple>().is_ok() =>
            {
                info_state_dim(&*engine.env, self.info)?;
                let arr = array_1d(p, "player", Some(self.num_envs))?;
                let mut seats = try_buffer(self.num_envs, 0usize, "player")?;
                let mut bad = None;
                for_each_int(&arr, "player", |i, v| match usize::try_from(v) {
                    Ok(s) if s <= last => seats[i] = s,
                    _ => bad = bad.or(Some(v)),
                })?;
                if let Some(v) = bad {
                    return Err(value_err(format!("player must be in 0..={last}, got {v}")));
                }
                engine.info_state_tensor(py, self.info, InfoSeats::PerLane(&seats))
            }
            Some(p) => {
                let seat = args::size_in(p, "player", 0, last)?;
                engine.info_state_tensor(py, self.info, InfoSeats::Seat(seat))
            }
        }
    }

    /// The perfect-recall information-state key of seat `player` in lane `lane` (bytes:
    /// equal keys exactly when the seat cannot tell the states apart). A game without
    /// information states is a `ValueError` naming those that have them.
    fn info_state_key<'py>(
        &self,
        py: Python<'py>,
        lane: &Bound<'py, PyAny>,
        player: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let lane = self.lane(lane)?;
        let player = args::size_in(player, "player", 0, self.num_players - 1)?;
        let engine = self.engine(py)?;
        info_state_dim(&*engine.env, self.info)?;
        let key = engine.env.info_state_key(lane, player).map_err(core_err)?;
        Ok(PyBytes::new(py, &key))
    }

    /// The information state of seat `player` in lane `lane` as text (Kuhn and Leduc:
    /// OpenSpiel's `information_state_string`). A game without information states is a
    /// `ValueError` naming those that have them.
    fn info_state_string(
        &self,
        py: Python<'_>,
        lane: &Bound<'_, PyAny>,
        player: &Bound<'_, PyAny>,
    ) -> PyResult<String> {
        let lane = self.lane(lane)?;
        let player = args::size_in(player, "player", 0, self.num_players - 1)?;
        let engine = self.engine(py)?;
        info_state_dim(&*engine.env, self.info)?;
        engine.env.info_state_string(lane, player).map_err(core_err)
    }

    /// The state of lane `lane` as bytes (`state_size` of them): the game's state record,
    /// without the lane's random stream. `set_state` takes it back.
    fn get_state<'py>(
        &self,
        py: Python<'py>,
        lane: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let lane = self.lane(lane)?;
        let engine = self.engine(py)?;
        let bytes = engine.env.state_bytes(lane).map_err(core_err)?;
        Ok(PyBytes::new(py, bytes))
    }

    /// Replaces the state of lane `lane` with `state` (bytes from `get_state`, possibly of
    /// another lane or environment of the same configuration); its outputs are recomputed
    /// and its rewards zeroed. A bad lane, a wrong length or a state the game rejects is a
    /// `ValueError` that changes nothing.
    fn set_state(
        &self,
        py: Python<'_>,
        lane: &Bound<'_, PyAny>,
        state: PyBackedBytes,
    ) -> PyResult<()> {
        let lane = self.lane(lane)?;
        self.engine(py)?
            .env
            .set_state_bytes(lane, &state)
            .map_err(core_err)
    }

    /// The outputs as torch tensors sharing the views' memory (no copy, no warning):
    /// `TorchViews` with the attributes `obs`, `legal_mask`, `rewards`, `terminated`,
    /// `truncated`, `current_player`, `illegal`. `mask="bool"` gives `legal_mask` as
    /// `torch.bool`, `mask="uint8"` as `torch.uint8`. The tensors follow every call like the
    /// views: make them once. Treat them as read-only (torch has no read-only tensors): an
    /// in-place write changes the environment's outputs. Needs PyTorch (`ImportError`
    /// otherwise). `step` takes a CPU integer tensor as its actions.
    #[pyo3(signature = (mask=None), text_signature = "($self, mask='bool')")]
    fn torch<'py>(
        &self,
        py: Python<'py>,
        mask: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        torch_tensors(&self.views.writable_aliases(py)?, mask)
    }

    /// Observations of the player to act (read-only view): float32 [num_envs, obs_dim], or
    /// with `obs_dtype="u8"` the bytes of the compact rows, uint8 [num_envs, byte_dim]
    /// (the other values in `obs_tail`; `obs_f32()` rebuilds the float32 rows).
    #[getter]
    fn obs<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        self.views.obs(py)
    }
    /// The float32 tail of the compact observations, [num_envs, tail_dim] (read-only view;
    /// `[num_envs, 0]` with `obs_dtype="f32"`), see `obs_format`.
    #[getter]
    fn obs_tail(&self, py: Python<'_>) -> Py<PyArray2<f32>> {
        self.views.obs_tail.clone_ref(py)
    }
    /// Legal masks, uint8 (bool with `mask_dtype="bool"`: the same memory) [num_envs,
    /// num_actions] (read-only view).
    #[getter]
    fn legal_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        self.views.legal_mask(py)
    }
    /// The element type of `obs`: `"f32"` or `"u8"` (the constructor's `obs_dtype`).
    #[getter]
    fn obs_dtype(&self) -> &'static str {
        self.obs_dtype.name()
    }
    /// The element type of `legal_mask`: `"u8"` or `"bool"` (the constructor's
    /// `mask_dtype`).
    #[getter]
    fn mask_dtype(&self) -> &'static str {
        self.mask_dtype.name()
    }
    /// The game's compact observation format (a new `ObsFormat`): where each byte of a
    /// `obs_dtype="u8"` row and each tail value go in the float32 row.
    #[getter]
    fn obs_format(&self, py: Python<'_>) -> PyResult<PyObsFormat> {
        PyObsFormat::new(py, self.engine(py)?.env.obs_format())
    }
    /// The float32 observations [num_envs, obs_dim] (a copy): with `obs_dtype="u8"` rebuilt
    /// from `obs` and `obs_tail` (`byte / div`, tail values as they are: the float32 rows
    /// bit for bit), in parallel without the GIL. `out`: a C-contiguous writable float32
    /// array of that shape to write into (returned); another array is a `ValueError` that
    /// writes nothing.
    #[pyo3(signature = (out=None))]
    fn obs_f32<'py>(
        &self,
        py: Python<'py>,
        out: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let out = out_array::<f32>(py, out, "out", "float32", (self.num_envs, self.obs_dim))?;
        let engine = self.engine(py)?;
        let env = &*engine.env;
        let mut rw = out
            .try_readwrite()
            .map_err(|e| value_err(format!("out: cannot write the array: {e}")))?;
        let dst = rw
            .as_slice_mut()
            .map_err(|e| value_err(format!("out: {e}")))?;
        check_disjoint(dst, env.obs())?;
        check_disjoint(dst, env.obs_u8())?;
        check_disjoint(dst, env.obs_tail())?;
        py.detach(|| expand_obs(env, dst));
        drop(rw);
        Ok(out)
    }
    /// Words per lane of `legal_bits`: `ceil(num_actions / 64)`.
    #[getter]
    fn mask_words(&self) -> usize {
        self.num_actions.div_ceil(64)
    }
    /// The legal masks packed as bits, uint64 [num_envs, mask_words] (a new array, or
    /// written into `out`, a C-contiguous writable uint64 array of that shape, and
    /// returned; another array is a `ValueError` that writes nothing): bit `a % 64` of word
    /// `a / 64` is set when action `a` is legal (little-endian bit order, so
    /// `np.unpackbits(bits.view(np.uint8), axis=1, bitorder="little")[:, :num_actions]` is
    /// `legal_mask`); the bits past `num_actions` are 0.
    #[pyo3(signature = (out=None))]
    fn legal_bits<'py>(
        &self,
        py: Python<'py>,
        out: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyArray2<u64>>> {
        let shape = (self.num_envs, self.num_actions.div_ceil(64));
        let out = out_array::<u64>(py, out, "out", "uint64", shape)?;
        let engine = self.engine(py)?;
        let env = &*engine.env;
        let mut rw = out
            .try_readwrite()
            .map_err(|e| value_err(format!("out: cannot write the array: {e}")))?;
        let dst = rw
            .as_slice_mut()
            .map_err(|e| value_err(format!("out: {e}")))?;
        check_disjoint(dst, env.legal_mask())?;
        py.detach(|| env.legal_bits(dst)).map_err(core_err)?;
        drop(rw);
        Ok(out)
    }
    /// Rewards of the last step for every seat, float32 [num_envs, num_players]; after a
    /// reset of a lane, the rewards of its deal: zero, unless the game is over as dealt (a
    /// hold'em hand with no decision, played out at the deal: the lane is terminated).
    #[getter]
    fn rewards(&self, py: Python<'_>) -> Py<PyArray2<f32>> {
        self.views.rewards.clone_ref(py)
    }
    /// Natural end flags, bool [num_envs] (read-only view).
    #[getter]
    fn terminated(&self, py: Python<'_>) -> Py<PyArray1<bool>> {
        self.views.terminated.clone_ref(py)
    }
    /// Cut-off flags, bool [num_envs] (read-only view).
    #[getter]
    fn truncated(&self, py: Python<'_>) -> Py<PyArray1<bool>> {
        self.views.truncated.clone_ref(py)
    }
    /// Seat to act, int32 [num_envs] (read-only view).
    #[getter]
    fn current_player(&self, py: Python<'_>) -> Py<PyArray1<i32>> {
        self.views.current_player.clone_ref(py)
    }
    /// What happened to each lane's last action, uint8 [num_envs]: 0 applied, 1 illegal
    /// (no-op), 2 lane finished (no-op), 3 lane autoreset.
    #[getter]
    fn illegal(&self, py: Python<'_>) -> Py<PyArray1<u8>> {
        self.views.illegal.clone_ref(py)
    }
    /// The game's registry id (`cardvec.games()`).
    #[getter]
    fn game_id(&self) -> &'static str {
        self.info.id
    }
    /// The game's configuration: a new dict of every option the game reports (in the order
    /// of its options), enough to build the same game again.
    #[getter]
    fn config<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        options::options_dict(py, &self.config)
    }
    /// Whether every step's rewards sum to zero over the seats in this configuration.
    #[getter]
    fn zero_sum(&self) -> bool {
        self.zero_sum
    }
    /// Size in bytes of one lane state (`get_state`, `set_state`).
    #[getter]
    fn state_size(&self) -> usize {
        self.state_size
    }
    /// Number of lanes.
    #[getter]
    fn num_envs(&self) -> usize {
        self.num_envs
    }
    /// Size of the action space.
    #[getter]
    fn num_actions(&self) -> usize {
        self.num_actions
    }
    /// Length of one observation row.
    #[getter]
    fn obs_dim(&self) -> usize {
        self.obs_dim
    }
    /// Number of seats.
    #[getter]
    fn num_players(&self) -> usize {
        self.num_players
    }
    /// Seed of the last reset.
    #[getter]
    fn seed(&self, py: Python<'_>) -> PyResult<u64> {
        Ok(self.engine(py)?.env.env_options().seed)
    }
    /// Whether a finished lane is reset on the next step.
    #[getter]
    fn autoreset(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(self.engine(py)?.env.env_options().autoreset)
    }
    #[setter]
    fn set_autoreset(&self, py: Python<'_>, on: bool) -> PyResult<()> {
        self.engine(py)?.env.set_autoreset(on);
        Ok(())
    }
    /// Step limit per episode (`None`: off): an episode that reaches this many applied
    /// actions without ending is truncated (`truncated` true).
    #[getter]
    fn max_steps(&self, py: Python<'_>) -> PyResult<Option<u32>> {
        Ok(self.engine(py)?.env.env_options().max_steps)
    }
    /// Whether `step` computes observations (else call `observe()`).
    #[getter]
    fn observe_on_step(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(self.engine(py)?.env.env_options().observe_on_step)
    }
    #[setter]
    fn set_observe_on_step(&self, py: Python<'_>, on: bool) -> PyResult<()> {
        self.engine(py)?.env.set_observe_on_step(on);
        Ok(())
    }
    /// The engine object that owns the buffers (the `base` of every view).
    #[getter]
    fn _engine(&self, py: Python<'_>) -> Py<BatchEngine> {
        self.engine.clone_ref(py)
    }

    fn __len__(&self) -> usize {
        self.num_envs
    }

    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        let name = slf.get_type().name()?;
        let me = slf.get();
        let mut extra = String::new();
        if me.obs_dtype != ObsDtype::F32 {
            extra += &format!(", obs_dtype='{}'", me.obs_dtype.name());
        }
        if me.mask_dtype != args::MaskDtype::U8 {
            extra += &format!(", mask_dtype='{}'", me.mask_dtype.name());
        }
        Ok(format!(
            "{name}(num_envs={}, num_players={}, num_actions={}, obs_dim={}{extra})",
            me.num_envs, me.num_players, me.num_actions, me.obs_dim
        ))
    }
}

impl BatchEnv {
    /// The Python object of a freshly built environment of game `info`, its `legal_mask`
    /// as `mask_dtype`.
    fn from_env(
        py: Python<'_>,
        info: &'static GameInfo,
        env: Box<dyn DynEnv>,
        mask_dtype: args::MaskDtype,
    ) -> PyResult<Self> {
        let (num_envs, num_actions, obs_dim, num_players) = (
            env.num_envs(),
            env.num_actions(),
            env.obs_dim(),
            env.num_players(),
        );
        let (state_size, zero_sum, config) = (env.state_len(), env.zero_sum(), env.config());
        let obs_dtype = env.env_options().obs_dtype;
        let engine = Bound::new(
            py,
            BatchEngine {
                env,
                actions: try_buffer(num_envs, 0, "actions")?,
            },
        )?;
        let views = Views::new(&engine, mask_dtype)?;
        Ok(BatchEnv {
            engine: engine.unbind(),
            views,
            obs_dtype,
            mask_dtype,
            info,
            config,
            num_envs,
            num_actions,
            obs_dim,
            num_players,
            state_size,
            zero_sum,
        })
    }
}

/// The 151 constants, as a submodule.
fn i151_module(py: Python<'_>) -> PyResult<Bound<'_, PyModule>> {
    let m = PyModule::new(py, "i151")?;
    m.add("DECK_SIZE", i151::DECK_SIZE)?;
    m.add("N_ACTIONS", i151::N_ACTIONS)?;
    m.add("OBS_DIM", i151::OBS_DIM)?;
    m.add("ACTION_DRAW", i151::ACTION_DRAW)?;
    m.add("ACTION_PASS", i151::ACTION_PASS)?;
    m.add("ACTION_CHOOSE_SUIT", i151::ACTION_CHOOSE_SUIT)?;
    Ok(m)
}

/// The Lost Cities constants, as a submodule.
fn lost_cities_module(py: Python<'_>) -> PyResult<Bound<'_, PyModule>> {
    let m = PyModule::new(py, "lost_cities")?;
    m.add("DECK_SIZE", lost_cities::DECK_SIZE)?;
    m.add("N_COLORS", lost_cities::N_COLORS)?;
    m.add("SLOTS_PER_COLOR", lost_cities::SLOTS_PER_COLOR)?;
    m.add("HAND_SIZE", lost_cities::HAND_SIZE)?;
    m.add("DECK_AFTER_DEAL", lost_cities::DECK_AFTER_DEAL)?;
    m.add("N_ACTIONS", lost_cities::N_ACTIONS)?;
    m.add("OBS_DIM", lost_cities::OBS_DIM)?;
    m.add("N_CHANNELS", lost_cities::N_CHANNELS)?;
    m.add("MAX_STEPS", lost_cities::MAX_STEPS)?;
    m.add("MAX_BOARD_SCORE", lost_cities::MAX_BOARD_SCORE)?;
    m.add("NUM_PLAYERS", lost_cities::NUM_PLAYERS)?;
    Ok(m)
}

/// The compiled part of the `cardvec` package.
#[pymodule]
fn _cardvec(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<BatchEnv>()?;
    m.add_class::<BatchEngine>()?;
    m.add_class::<PyObsFormat>()?;
    m.add_function(wrap_pyfunction!(options::games, m)?)?;
    m.add_submodule(&lost_cities_module(m.py())?)?;
    flip7::register(m)?;
    m.add_submodule(&i151_module(m.py())?)?;
    let holdem = holdem::module(m.py())?;
    nlhe::register(m, &holdem)?;
    m.add_submodule(&holdem)?;
    m.add_submodule(&arena::module(m.py())?)?;
    m.add_submodule(&pushfold::module(m.py())?)?;
    m.add_submodule(&campaign::module(m.py())?)?;
    m.add_submodule(&solve::module(m.py())?)?;
    learner::register(m)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("ACTION_APPLIED", ActionStatus::Applied as u8)?;
    m.add("ACTION_ILLEGAL", ActionStatus::Illegal as u8)?;
    m.add("ACTION_FINISHED", ActionStatus::Finished as u8)?;
    m.add("ACTION_RESET", ActionStatus::Reset as u8)?;
    register_submodules(m)
}

/// Makes every submodule of `m` importable by its full name (`import
/// cardvec._cardvec.holdem`), as type checkers and `stubtest` expect of the stub package
/// `cardvec/_cardvec/`: PyO3 adds a submodule as an attribute only, so it is put in
/// `sys.modules` too. Runs last, so it covers every submodule added above.
fn register_submodules(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let modules = m.py().import("sys")?.getattr("modules")?;
    let parent = m.name()?;
    for (name, value) in m.dict().iter() {
        if value.is_instance_of::<PyModule>() {
            modules.set_item(format!("{parent}.{name}"), value)?;
        }
    }
    Ok(())
}
