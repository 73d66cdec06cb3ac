//! The compact observation format in Python (`ObsFormat`, `BatchEnv.obs_format`) and the
//! expansion of compact rows back to float32 rows (`BatchEnv.obs_f32`).

use cardvec::core::{DynEnv, ForkSafePool, ObsDtype, ObsFormat};
use numpy::PyArray1;
use pyo3::prelude::*;
use rayon::prelude::*;

/// Lanes per task of [`expand_obs`].
pub(crate) const EXPAND_LANES: usize = 64;

/// Writes the float32 observations of every lane of `env` into `out` (`[N, obs_dim]`): a
/// copy of `obs` (f32 rows) or each compact row expanded by the game's [`ObsFormat`], on
/// the shared pool (the result does not depend on the thread count).
pub(crate) fn expand_obs(env: &dyn DynEnv, out: &mut [f32]) {
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
pub(crate) struct PyObsFormat {
    dim: usize,
    byte_dim: usize,
    tail_dim: usize,
    byte_index: Py<PyArray1<i64>>,
    byte_div: Py<PyArray1<f32>>,
    tail_index: Py<PyArray1<i64>>,
}

impl PyObsFormat {
    pub(crate) fn new(py: Python<'_>, format: &ObsFormat) -> PyResult<Self> {
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
