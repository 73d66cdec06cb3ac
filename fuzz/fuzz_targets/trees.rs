//! Fuzzes every game with a game tree for solvers (`cardvec::core::tree::check_tree`, through
//! the registry): the first byte picks the game, the rest chooses chance outcomes and actions
//! along four paths, and every invariant of the tree (chance probabilities, refused moves
//! that change nothing, returns equal to the rewards along the path, information states with
//! perfect recall) is checked.
//!
//! `cargo fuzz run -s none trees -- -max_total_time=60` (from the repository root).

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = cardvec::registry::tree_check_any(data) {
        panic!("{e}");
    }
});
