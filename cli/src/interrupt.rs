//! Ctrl-C for the long solves (`cardvec solve`, `cardvec spot solve`): the handler raises a
//! [`StopFlag`] that the solve reads, so the run stops at the next iteration with the
//! solution reached, prints its summary and writes its files as at the end of a full run,
//! then exits with [`STATUS`].

use std::sync::Arc;

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
