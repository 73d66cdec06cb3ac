//! Fuzzes the arena's readers (`cardvec::arena::fuzz_check_replay`): any bytes read as a
//! 151 replay and as a ladder log must not panic, and what reads must write back and read
//! back to the same value (and give sane standings).
//!
//! `scripts/fuzz_campaign.sh replay MINUTES` (or `cargo fuzz run -s none replay
//! fuzz/corpus/replay` from the repository root).

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = cardvec::arena::fuzz_check_replay(data) {
        panic!("{e}");
    }
});
