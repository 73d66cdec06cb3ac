//! Ctrl-C for the long solves (`cardvec solve`, `cardvec spot solve`): the handler raises a
//! [`StopFlag`] that the solve reads, so the run stops at the next iteration with the
//! solution reached, prints its summary and writes its files as at the end of a full run,
//! then exits with [`STATUS`]. Also what those solves check before they start: the
//! output paths ([`check_writable`]) and `--time-limit` ([`time_limit`]).

use std::sync::Arc;
use std::time::Duration;

use cardvec::core::{Error, Result, StopFlag};

/// The conventional status of a run ended by SIGINT (128 + 2), used after the output is
/// complete.
pub const STATUS: i32 = 130;

/// Installs the Ctrl-C handler (once per process) and returns the flag it raises.
pub fn ctrl_c_flag() -> Result<Arc<StopFlag>> {
    let flag = Arc::new(StopFlag::new());
    let raised = Arc::clone(&flag);
    ctrlc::set_handler(move || raised.stop()).map_err(|e| Error::Invalid {
        what: "Ctrl-C handler",
        reason: e.to_string(),
    })?;
    Ok(flag)
}

pub use cardvec::solve::check_writable;

/// A `--time-limit` value: finite seconds > 0.
pub fn time_limit(seconds: f64) -> Result<Duration> {
    if seconds.is_nan() || seconds <= 0.0 {
        return Err(Error::Invalid {
            what: "--time-limit",
            reason: format!("must be a number of seconds > 0, got {seconds}"),
        });
    }
    Duration::try_from_secs_f64(seconds).map_err(|_| Error::Invalid {
        what: "--time-limit",
        reason: format!("must be a number of seconds > 0, got {seconds}"),
    })
}
