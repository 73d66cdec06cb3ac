//! The command line's integration tests, one test binary: each module is a file of this
//! directory that used to be a binary of its own (one binary links once). Run one file's
//! tests with its module path, for example `cargo test --profile ci -p cardvec-cli --test
//! cli ladder::`.

mod common;

mod bench;
mod errors;
mod exploit;
mod ladder;
mod matches;
mod policy;
mod pushfold;
mod solve;
mod spot;
