//! Arbitrary action scripts on the Lost Cities reference and fast engines in lockstep; the
//! checking function lives in the library (`games::lost_cities::checks::fuzz_check`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = cardvec::games::lost_cities::checks::fuzz_check(data) {
        panic!("{e}");
    }
});
