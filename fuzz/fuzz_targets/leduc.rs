//! Fuzzes leduc alone with the generic fuzz check (`cardvec::core::fuzz`, through the
//! registry): a configuration, a deal seed and an action script played on the reference and
//! fast engines in lockstep, every invariant checked after every step.
//!
//! `cargo fuzz run -s none leduc -- -max_total_time=60` (from the repository root).

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = cardvec::registry::fuzz_check("leduc", data) {
        panic!("{e}");
    }
});
