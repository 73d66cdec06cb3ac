//! Fuzzes Flip 7: arbitrary bytes choose the configuration, the deck seed and an action
//! script; `cardvec::games::flip7::checks::fuzz_check` plays it on the reference and fast
//! engines in lockstep and checks every invariant after every step.
//!
//! `cargo +nightly fuzz run flip7` (from the repository root).

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = cardvec::games::flip7::checks::fuzz_check(data) {
        panic!("{e}");
    }
});
