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
    /// A numeric option was outside its allowed range. The bounds and the value are
    /// `i128`, wide enough for any integer a caller can give (`u64` and `i64` alike), so the
    /// message shows the value as given, never a wrapped or clamped one.
    #[error("{what} must be in {min}..={max}, got {got}")]
    OutOfRange {
        /// The option's name.
        what: &'static str,
        /// Smallest allowed value.
        min: i128,
        /// Largest allowed value.
        max: i128,
        /// The value given.
        got: i128,
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
    /// A buffer whose size depends on the caller's input (the number of lanes, of rows)
    /// could not be allocated: the allocator refused it, or its size in bytes does not fit
    /// the address space. Nothing was changed; the memory asked for was given back.
    #[error("{}", oom_message(context, what, *bytes))]
    OutOfMemory {
        /// The input the size follows from, e.g. `num_envs=4194304` (may be empty).
        context: String,
        /// The buffer, e.g. `observations`.
        what: &'static str,
        /// The size asked for, in bytes (computed without overflow).
        bytes: u128,
    },
    /// A step sent illegal actions to live lanes while the environment's
    /// [`OnIllegal`](crate::core::OnIllegal) mode is `Raise`: nothing was changed.
    #[error("{}", illegal_message(lanes, actions, *count))]
    IllegalAction {
        /// The lanes whose action was illegal, in lane order.
        lanes: Vec<usize>,
        /// Their actions, in the same order.
        actions: Vec<u32>,
        /// How many lanes (the length of `lanes`).
        count: usize,
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

    /// Checks that `got` lies in `min..=max`. Takes any primitive integer (no cast at the
    /// call site, so no value is wrapped before it is checked or shown).
    pub fn check_range(
        what: &'static str,
        min: impl Integer,
        max: impl Integer,
        got: impl Integer,
    ) -> Result<()> {
        let (min, max, got) = (min.wide(), max.wide(), got.wide());
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

    /// The same error with `context` (the input the size follows from) when it is an
    /// [`Error::OutOfMemory`] without one; any other error unchanged.
    pub fn in_context(self, context: impl FnOnce() -> String) -> Error {
        match self {
            Error::OutOfMemory {
                context: c,
                what,
                bytes,
            } if c.is_empty() => Error::OutOfMemory {
                context: context(),
                what,
                bytes,
            },
            other => other,
        }
    }
}

/// A primitive integer, widened without loss (every `u64` and `i64` fits an `i128`) for
/// range checks and their messages.
pub trait Integer: Copy {
    /// The value as an `i128`.
    fn wide(self) -> i128;
}

macro_rules! integer {
    ($($t:ty),*) => {$(
        impl Integer for $t {
            #[inline]
            fn wide(self) -> i128 {
                // Lossless: every listed type fits an i128 (usize and isize are at most 64 bits
                // on every supported target).
                self as i128
            }
        }
    )*};
}
integer!(i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, usize);

/// `bytes` for people: `3.2 GiB`, `512.0 MiB`, `100 bytes`.
pub fn human_bytes(bytes: u128) -> String {
    const UNITS: [&str; 6] = ["KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    if bytes < 1024 {
        return format!("{bytes} bytes");
    }
    let mut value = bytes as f64 / 1024.0;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    format!("{value:.1} {}", UNITS[unit])
}

/// How many lanes an [`Error::IllegalAction`] message names.
const ILLEGAL_SHOWN: usize = 5;

fn illegal_message(lanes: &[usize], actions: &[u32], count: usize) -> String {
    let shown: Vec<String> = lanes
        .iter()
        .zip(actions)
        .take(ILLEGAL_SHOWN)
        .map(|(l, a)| format!("lane {l} action {a}"))
        .collect();
    let more = if count > shown.len() {
        format!(", and {} more", count - shown.len())
    } else {
        String::new()
    };
    let s = if count == 1 { "" } else { "s" };
    format!(
        "illegal action in {count} live lane{s} (on_illegal=\"raise\"): {}{more}; nothing was \
         changed",
        shown.join(", ")
    )
}

fn oom_message(context: &str, what: &str, bytes: u128) -> String {
    let size = human_bytes(bytes);
    let exact = if bytes >= 1024 {
        format!(" ({bytes} bytes)")
    } else {
        String::new()
    };
    if context.is_empty() {
        format!("out of memory: cannot allocate {size}{exact} for {what}")
    } else {
        format!("{context}: out of memory: cannot allocate {size}{exact} for {what}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn range_errors_show_the_value_given() {
        let e = Error::check_range("games", 1, i64::MAX, u64::MAX).unwrap_err();
        assert_eq!(
            e.to_string(),
            "games must be in 1..=9223372036854775807, got 18446744073709551615"
        );
        let e = Error::check_range("lane", 0usize, 3usize, usize::MAX).unwrap_err();
        assert!(e.to_string().ends_with("got 18446744073709551615"), "{e}");
        assert!(Error::check_range("x", -1, 1, -1i8).is_ok());
    }

    #[test]
    fn out_of_memory_names_the_input_the_buffer_and_its_size() {
        let e = Error::OutOfMemory {
            context: String::new(),
            what: "observations",
            bytes: 3 << 30,
        }
        .in_context(|| "num_envs=4194304".into());
        assert_eq!(
            e.to_string(),
            "num_envs=4194304: out of memory: cannot allocate 3.0 GiB (3221225472 bytes) \
             for observations"
        );
        assert_eq!(human_bytes(100), "100 bytes");
        assert_eq!(human_bytes(1536), "1.5 KiB");
    }
}
