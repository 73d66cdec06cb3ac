//! The evaluator's lookup tables, generated at build time by `tables_gen.rs` (through
//! `build.rs`): the perfect hash of rank-key sums, the flush table, the per-suit key sums and
//! the ranks of every hand class. See that file for what each table holds.

include!(concat!(env!("OUT_DIR"), "/holdem_tables.rs"));
