//! The library's integration tests, one test binary: each module is a file of this
//! directory (`conformance.rs`, `search.rs`, ...) that used to be a binary of its own. One
//! binary compiles the engines' generic code (instantiated for every game by most files) and
//! links once, instead of once per file. Run one file's tests with its module path, for
//! example `cargo test --profile ci --test integration conformance::`.
//!
//! Two files stay binaries of their own because they need a process to themselves:
//! `fork.rs` (forks the process) and `thread_pools.rs` (counts the process's threads).

mod common;

mod conformance;
mod determinize;
mod flip7_props;
mod flip7_rules;
mod forfeit;
mod fuzz_corpus;
mod holdem_exhaustive;
mod holdem_props;
mod holdem_rules;
mod i151_arena;
mod i151_props;
mod i151_rules;
mod info_states;
mod learner;
mod learner_pool;
mod lost_cities_props;
mod lost_cities_rules;
mod obs_fallback;
mod obs_seats;
mod search;
mod seed_api;
mod state_checks;
mod state_text;
