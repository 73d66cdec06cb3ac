//! The error type of the public API: bad input from a caller is reported, never panicked on.

/// Errors returned by cardvec's public functions. Any call that returns an error leaves the
/// environment exactly as it was.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// A buffer or slice had the wrong length.
    #[error("{what}: expected length {expected}, got {got}")]
    Length {
        /// What was being passed.
        what: &'static str,
        /// The length the call needs.
        expected: usize,
        /// The length it got.
        got: usize,
    },
    /// A numeric option was outside its allowed range.
    #[error("{what} must be in {min}..={max}, got {got}")]
    OutOfRange {
        /// The option's name.
        what: &'static str,
        /// Smallest allowed value.
        min: i64,
        /// Largest allowed value.
        max: i64,
        /// The value given.
        got: i64,
    },
    /// An unknown name (game, bot, option, arena opponent) was given.
    #[error("unknown {what} {name:?}; expected one of: {expected}")]
    Unknown {
        /// What kind of name it was.
        what: &'static str,
        /// The name given.
        name: String,
        /// The accepted names, comma separated.
        expected: String,
    },
    /// Input that is well-formed but describes something impossible (for example a deck
    /// order that is not a permutation).
    #[error("invalid {what}: {reason}")]
    Invalid {
        /// What was invalid.
        what: &'static str,
        /// Why.
        reason: String,
    },
    /// A long call was stopped at its caller's request ([`crate::core::Progress::should_stop`],
    /// a bot asking to stop a match) before it finished; it returns no partial result.
    #[error("{what} was stopped before it finished")]
    Cancelled {
        /// What was stopped.
        what: &'static str,
    },
}

/// Shorthand for results carrying [`Error`].
pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    /// Checks that `got` equals `expected`, naming the buffer in the error.
    pub fn check_len(what: &'static str, expected: usize, got: usize) -> Result<()> {
        if expected == got {
            Ok(())
        } else {
            Err(Error::Length {
                what,
                expected,
                got,
            })
        }
    }

    /// Checks that `got` lies in `min..=max`.
    pub fn check_range(what: &'static str, min: i64, max: i64, got: i64) -> Result<()> {
        if (min..=max).contains(&got) {
            Ok(())
        } else {
            Err(Error::OutOfRange {
                what,
                min,
                max,
                got,
            })
        }
    }
}
