//! Fuzzes every registered game at once: the first byte picks the game, the rest is that
//! game's input for the generic fuzz check (`cardvec::core::fuzz`): a configuration, a deal
//! seed and an action script played on the reference and fast engines in lockstep.
//!
//! `cargo fuzz run -s none games -- -max_total_time=60` (from the repository root).

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = cardvec::registry::fuzz_check_any(data) {
        panic!("{e}");
    }
});
