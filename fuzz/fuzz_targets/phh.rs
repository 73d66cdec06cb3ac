//! Fuzzes the PHH reader (`cardvec::games::holdem::fuzz_check_phh`): any bytes read as a
//! hand history must not panic, and a hand it reads must keep its chips and write back as
//! PHH that reads back to the same hand.
//!
//! `scripts/fuzz_campaign.sh phh MINUTES` (or `cargo fuzz run -s none phh fuzz/corpus/phh`
//! from the repository root).

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = cardvec::games::holdem::fuzz_check_phh(data) {
        panic!("{e}");
    }
});
