//! Progress bars (indicatif) behind the library's progress callback.

use cardvec::core::progress::Progress;
use indicatif::{ProgressBar, ProgressStyle};

/// A progress bar on standard error, or nothing when `quiet`.
pub struct Bar(ProgressBar);

impl Bar {
    /// A bar that draws unless `quiet`; its length and unit come from [`Progress::start`].
    pub fn new(quiet: bool) -> Self {
        Bar(if quiet {
            ProgressBar::hidden()
        } else {
            ProgressBar::new(0)
        })
    }

    /// Runs `f` (which prints) with the bar hidden, then draws the bar again.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        self.0.suspend(f)
    }
}

impl Progress for Bar {
    fn start(&self, total: u64, unit: &str) {
        self.0.set_length(total);
        let template = format!(
            "{{elapsed_precise}} [{{bar:40}}] {{pos}}/{{len}} {unit} ({{per_sec}}, eta {{eta}})"
        );
        self.0.set_style(
            ProgressStyle::with_template(&template)
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> "),
        );
    }
    fn advance(&self, done: u64) {
        self.0.inc(done);
    }
    fn finish(&self) {
        self.0.finish_and_clear();
    }
}

/// A bar that also answers [`Progress::should_stop`] from a stop flag (Ctrl-C, see
/// `crate::interrupt::ctrl_c_flag`): what a long command hands the library.
pub struct Interruptible<'a> {
    /// The bar drawn.
    pub bar: &'a Bar,
    /// Set when the run should stop at its next check.
    pub stop: &'a cardvec::core::progress::StopFlag,
}

impl Progress for Interruptible<'_> {
    fn start(&self, total: u64, unit: &str) {
        self.bar.start(total, unit)
    }
    fn advance(&self, done: u64) {
        self.bar.advance(done)
    }
    fn finish(&self) {
        self.bar.finish()
    }
    fn should_stop(&self) -> bool {
        self.stop.is_stopped()
    }
}
