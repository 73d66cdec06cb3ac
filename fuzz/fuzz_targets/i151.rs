//! Arbitrary configurations, match seeds and action scripts on the 151 reference and fast
//! engines in lockstep, with the invariants checked after every step; the checking function
//! lives in the library (`games::i151::checks::fuzz_check`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = cardvec::games::i151::checks::fuzz_check(data) {
        panic!("{e}");
    }
});
