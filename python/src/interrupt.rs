//! Long calls that Python can stop: Ctrl-C (or any signal whose Python handler raises) and
//! time limits.
//!
//! Python runs signal handlers only on its main thread, between bytecodes or when C code
//! asks (`PyErr_CheckSignals`); a call that releases the GIL and computes for minutes in
//! Rust would otherwise ignore Ctrl-C until it returns. Here the work runs on worker threads
//! without the GIL, and the calling thread waits for it: every [`POLL`] it takes the GIL for
//! a moment, runs the pending signal handlers ([`Python::check_signals`]) and looks at the
//! clock. When a handler raises (`KeyboardInterrupt` for Ctrl-C) or the time limit has
//! passed, it raises the work's [`StopFlag`], waits for the work to wind down (the library
//! asks the flag about every millisecond of work) and raises the exception (`TimeoutError`
//! for the time limit). The library never sees Python: it only reads the flag.

use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::{self, Thread};
use std::time::{Duration, Instant};

use cardvec::core::{ForkSafePool, StopFlag};
use pyo3::exceptions::{PyTimeoutError, PyTypeError, PyValueError};
use pyo3::prelude::*;

/// How often the waiting thread looks for signals and the time limit.
pub const POLL: Duration = Duration::from_millis(50);

/// The end of some work, told to the thread that waits for it.
struct Done {
    flag: AtomicBool,
    waiter: Thread,
}

impl Done {
    fn new() -> Done {
        Done {
            flag: AtomicBool::new(false),
            waiter: thread::current(),
        }
    }
    fn is_set(&self) -> bool {
        self.flag.load(Ordering::Acquire)
    }
}

/// Marks the work done when dropped: after it returns, and also when it panics (the panic
/// then reaches the caller through the scope that ran the work).
struct SetOnDrop<'a>(&'a Done);

impl Drop for SetOnDrop<'_> {
    fn drop(&mut self) {
        self.0.flag.store(true, Ordering::Release);
        self.0.waiter.unpark();
    }
}

/// Waits (without the GIL) until `done`, running Python's signal handlers and checking the
/// time limit every [`POLL`]; the first exception (or the time limit) raises `stop` and is
/// returned once the work has wound down.
fn watch(done: &Done, stop: &StopFlag, time_limit: Option<Duration>, what: &str) -> Option<PyErr> {
    let started = Instant::now();
    let mut raised = None;
    while !done.is_set() {
        thread::park_timeout(POLL);
        if raised.is_some() || done.is_set() {
            continue;
        }
        let err = Python::attach(|py| py.check_signals().err()).or_else(|| {
            let limit = time_limit.filter(|&limit| started.elapsed() >= limit)?;
            Some(PyTimeoutError::new_err(format!(
                "{what} stopped at its time limit of {} s",
                limit.as_secs_f64()
            )))
        });
        if let Some(e) = err {
            stop.stop();
            raised = Some(e);
        }
    }
    raised
}

/// Runs `work` on `pool` without the GIL, stoppable by Ctrl-C and `time_limit` (see the
/// module documentation). `work` must return soon after its [`StopFlag`] is raised; what
/// it returns then is dropped.
pub fn on_pool<R: Send>(
    py: Python<'_>,
    pool: &ForkSafePool,
    time_limit: Option<Duration>,
    what: &str,
    work: impl FnOnce(&StopFlag) -> R + Send,
) -> PyResult<R> {
    let stop = StopFlag::new();
    let mut result = None;
    let raised = py.detach(|| {
        let done = Done::new();
        let (slot, stop, done) = (&mut result, &stop, &done);
        pool.pool().in_place_scope(|scope| {
            scope.spawn(move |_| {
                let _done = SetOnDrop(done);
                *slot = Some(work(stop));
            });
            watch(done, stop, time_limit, what)
        })
    });
    match raised {
        Some(e) => Err(e),
        None => Ok(result.expect("the work has finished")),
    }
}

/// [`on_pool`] for work that is not parallel: it runs on a thread of its own.
pub fn on_thread<R: Send>(
    py: Python<'_>,
    time_limit: Option<Duration>,
    what: &str,
    work: impl FnOnce(&StopFlag) -> R + Send,
) -> PyResult<R> {
    let stop = StopFlag::new();
    let mut result = None;
    let raised = py.detach(|| {
        let done = Done::new();
        let (slot, stop, done) = (&mut result, &stop, &done);
        thread::scope(|scope| {
            scope.spawn(move || {
                let _done = SetOnDrop(done);
                *slot = Some(work(stop));
            });
            watch(done, stop, time_limit, what)
        })
    });
    match raised {
        Some(e) => Err(e),
        None => Ok(result.expect("the work has finished")),
    }
}

/// The `ValueError` of a bad bound argument: `rule`, then the value given.
fn bad_value(rule: &str, obj: &Bound<'_, PyAny>) -> PyErr {
    let given = obj
        .repr()
        .map_or_else(|_| "?".to_string(), |r| r.to_string());
    PyValueError::new_err(format!("{rule}, got {given}"))
}

/// A `time_limit=` argument: `None`, or a number of seconds, finite and > 0. A bool, NaN, a
/// number <= 0 or too large is a `ValueError` showing the value given; a value that is not a
/// number (`"10"`) a `TypeError`, as for every argument (`crate::args`).
pub fn time_limit_arg(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Duration>> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(None);
    };
    let bad = || bad_value("time_limit must be a number of seconds > 0 (or None)", obj);
    if crate::args::is_bool(obj) {
        return Err(bad());
    }
    let seconds: f64 = obj.extract().map_err(|_| {
        let given = obj
            .repr()
            .map_or_else(|_| "?".to_string(), |r| r.to_string());
        PyTypeError::new_err(format!(
            "time_limit must be a number of seconds > 0 (or None), got {given}"
        ))
    })?;
    if seconds.is_nan() || seconds <= 0.0 {
        return Err(bad());
    }
    Duration::try_from_secs_f64(seconds)
        .map(Some)
        .map_err(|_| bad())
}

/// A `max_work=`-style argument: `None`, or an integer in `1..=2**64 - 1`, checked by the
/// rule every integer argument follows (`crate::args`): a bool or a value out of range is a
/// `ValueError` showing the value given, another type (`1.5`, `"10"`) a `TypeError`.
pub fn positive_u64_arg(obj: Option<&Bound<'_, PyAny>>, what: &str) -> PyResult<Option<u64>> {
    match obj.filter(|o| !o.is_none()) {
        None => Ok(None),
        Some(obj) => Ok(Some(
            crate::args::int_in(obj, what, 1, u64::MAX as i128)? as u64
        )),
    }
}
