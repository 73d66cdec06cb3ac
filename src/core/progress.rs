//! Progress of long library calls (differential runs, equity enumeration, ladders), reported
//! through a callback: the library draws nothing and depends on no terminal crate. The CLI
//! turns the calls into a progress bar; Python callers may pass their own.
//!
//! The callback may also stop a call ([`Progress::should_stop`]): the Python bindings stop
//! long calls that way on Ctrl-C or a time limit, the library knowing nothing of signals.

/// Told how much of a long call's work is done. Calls may come from any worker thread.
pub trait Progress: Sync {
    /// Called once, before any [`Progress::advance`], with the total amount of work in
    /// `unit`s (for example `"games"`).
    fn start(&self, total: u64, unit: &str) {
        let _ = (total, unit);
    }
    /// `done` more units were finished.
    fn advance(&self, done: u64);
    /// The work is over (also after an error).
    fn finish(&self) {}
    /// Whether the caller wants the call to stop. Calls that document support for stopping
    /// (the equity calculator) ask it often (about every millisecond of work, from any
    /// worker thread), so it must be cheap (an atomic load); once it says `true` the call
    /// winds down and returns [`crate::core::Error::Cancelled`]. Calls that do not support
    /// it never ask.
    fn should_stop(&self) -> bool {
        false
    }
}

/// A flag another thread raises to stop a call: a [`Progress`] that reports nothing and
/// says stop once [`StopFlag::stop`] was called.
#[derive(Debug, Default)]
pub struct StopFlag(std::sync::atomic::AtomicBool);

impl StopFlag {
    /// A flag not raised.
    pub const fn new() -> StopFlag {
        StopFlag(std::sync::atomic::AtomicBool::new(false))
    }
    /// Asks the calls watching the flag to stop.
    pub fn stop(&self) {
        self.0.store(true, std::sync::atomic::Ordering::Relaxed);
    }
    /// Whether [`StopFlag::stop`] was called.
    pub fn is_stopped(&self) -> bool {
        self.0.load(std::sync::atomic::Ordering::Relaxed)
    }
}

impl Progress for StopFlag {
    fn advance(&self, _done: u64) {}
    fn should_stop(&self) -> bool {
        self.is_stopped()
    }
}

/// Reports nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct Silent;

impl Progress for Silent {
    fn advance(&self, _done: u64) {}
}

/// A closure called with each increment.
impl<F: Fn(u64) + Sync> Progress for F {
    fn advance(&self, done: u64) {
        self(done)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering};

    #[test]
    fn closures_receive_every_increment() {
        let total = AtomicU64::new(0);
        let p = |n: u64| {
            total.fetch_add(n, Ordering::Relaxed);
        };
        let progress: &dyn Progress = &p;
        progress.start(10, "games");
        progress.advance(3);
        progress.advance(4);
        progress.finish();
        assert_eq!(total.load(Ordering::Relaxed), 7);
        Silent.advance(5);
        assert!(!progress.should_stop() && !Silent.should_stop());
    }

    #[test]
    fn a_stop_flag_says_stop_once_raised() {
        let flag = StopFlag::new();
        let progress: &dyn Progress = &flag;
        assert!(!progress.should_stop());
        flag.stop();
        assert!(progress.should_stop() && flag.is_stopped());
    }
}
