//! Solvers above the games: equilibria of games small enough to solve exactly.
//!
//! - `pushfold`: heads-up push/fold no-limit hold'em (small blind shoves or folds, big blind
//!   calls or folds) solved by CFR+ on the exact preflop equity table.

pub mod pushfold;
