//! Fuzzes the card and range parsers (`cardvec::poker::fuzz_check_cards`): any bytes read
//! as a card, a list of cards and a range (`AsKs`, `QQ+`, `A5s-A2s`, `random`, ...) must
//! not panic, and what parses must print and parse back to the same value.
//!
//! `scripts/fuzz_campaign.sh cards MINUTES` (or `cargo fuzz run -s none cards
//! fuzz/corpus/cards` from the repository root).

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = cardvec::poker::fuzz_check_cards(data) {
        panic!("{e}");
    }
});
