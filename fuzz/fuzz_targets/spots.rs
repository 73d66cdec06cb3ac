//! Fuzzes the postflop spot solver (`cardvec::solve::spot::fuzz_check_spot`): the bytes
//! become a small river or turn spot (board, few-combo weighted ranges, pot, stack, sizes,
//! raise cap, thresholds), an algorithm, maybe a node lock, and a few iterations, and the
//! invariants are checked before and after every iteration (the EVs sum to the pot, best
//! responses and exploitability ≥ 0, strategies are distributions, locked nodes never
//! change).
//!
//! `cargo fuzz run -s none spots -- -max_total_time=60` (from the repository root).

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = cardvec::solve::spot::fuzz_check_spot(data) {
        panic!("{e}");
    }
});
