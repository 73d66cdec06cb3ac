//! Fuzzes `Game::check_state` of every registered game at once: the first byte picks the
//! game, the rest is that game's input for the state-corruption check
//! (`cardvec::core::fuzz::check_states`): a reachable state is corrupted byte by byte, and
//! if the game's check accepts the result, every method must work on it and every step
//! from it must stay valid.
//!
//! `cargo fuzz run -s none states -- -max_total_time=300` (from the repository root).

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = cardvec::registry::state_check_any(data) {
        panic!("{e}");
    }
});
