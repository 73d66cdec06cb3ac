//! Progress of long library calls (differential runs, equity enumeration, ladders), reported
//! through a callback: the library draws nothing and depends on no terminal crate. The CLI
//! turns the calls into a progress bar; Python callers may pass their own.

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
    }
}
