//! Fuzzes no-limit hold'em: arbitrary bytes choose the table (seats, blinds, ante, stacks),
//! the deal seed and an action script (discrete actions, exact raise-to amounts around the
//! legal bounds, illegal ids); `cardvec::games::holdem::checks::fuzz_check` plays it
//! on the reference and fast engines in lockstep and checks every invariant after every step.
//!
//! `cargo +nightly fuzz run holdem` (from the repository root).

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = cardvec::games::holdem::checks::fuzz_check(data) {
        panic!("{e}");
    }
});
