//! Numpy I/O: reading the arrays Python hands in (1-D, any integer dtype, array-likes through
//! `numpy.asarray`), the read-only views over engine buffers (their `base` is the engine
//! object), the `out=` arrays a call writes into, and the writable aliases the `torch()`
//! methods hand to `cardvec._torch`.

use numpy::ndarray::{ArrayView1, ArrayView2, ArrayView3};
use numpy::{
    Element, PyArray, PyArray1, PyArray2, PyArray3, PyArrayDescrMethods, PyArrayMethods,
    PyUntypedArray, PyUntypedArrayMethods,
};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors::value_err;

/// `obj` as a 1-D numpy array (array-likes go through `numpy.asarray`), of length `len`
/// when given.
pub(crate) fn array_1d<'py>(
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
pub(crate) fn try_read<T: Element + Copy + Into<i128>>(
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
pub(crate) fn for_each_int(
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

/// Builds a read-only 1-D numpy view of `data` whose base is `owner`.
///
/// # Safety
/// `data` must stay allocated, at the same address and length, for as long as `owner` lives,
/// and Rust must never hold a reference to it while Python code runs except through `owner`.
pub(crate) unsafe fn view<'py, T: Element>(
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
pub(crate) unsafe fn view2<'py, T: Element>(
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

/// A read-only 3-D view of `data`, `[rows, seats, cols]`, whose base is `owner`.
///
/// # Safety
/// As for [`view`].
pub(crate) unsafe fn view3<'py, T: Element>(
    owner: &Bound<'py, PyAny>,
    data: &[T],
    shape: (usize, usize, usize),
) -> PyResult<Bound<'py, PyArray3<T>>> {
    let v = ArrayView3::from_shape(shape, data).map_err(|e| value_err(e.to_string()))?;
    let arr = unsafe { PyArray::borrow_from_array(&v, owner.clone()) };
    arr.call_method1("setflags", (false,))?;
    Ok(arr)
}

/// The `out` argument of `obs_f32` and `legal_bits`: `None` (absent) is a new zeroed
/// array of `shape`; otherwise it must be a numpy array of element `T` (`dtype_name`) and
/// of that shape, C-contiguous and writable, or it is a `ValueError` (nothing written).
pub(crate) fn out_array<'py, T: Element>(
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
pub(crate) fn check_disjoint<T, U>(dst: &[T], src: &[U]) -> PyResult<()> {
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

/// Loads numpy's C API now, while `import cardvec` runs, so that a failure (a Ctrl-C that
/// lands during numpy's import included) is that import's exception. rust-numpy loads the
/// API on its first use and panics when that fails, which turned a Ctrl-C during the
/// first environment's construction into a `PanicException` (issue 27).
pub(crate) fn load_numpy_api(py: Python<'_>) -> PyResult<()> {
    py.import("numpy")?;
    // A signal that arrived during the import raises here, as Python would.
    py.check_signals()?;
    // The first array call loads the API capsule (numpy is imported: no Python code runs).
    let _ = numpy::PyArray1::<u8>::zeros(py, 0, false);
    Ok(())
}
