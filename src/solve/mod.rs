//! Solvers, a layer above the games: CFR, MCCFR and exact exploitability over any game with
//! the [`GameTree`](crate::core::GameTree) capability (knowing none of them; `docs/cfr.md` is
//! the guide), and heads-up push/fold hold'em solved on the poker evaluator.
//!
//! - [`flat`]: the tree flattened into arrays, walked once from the root;
//! - [`policy`]: policies (flat, and keyed by information-state string, with JSON);
//! - [`cfr`]: tabular CFR and CFR+ as OpenSpiel defines them;
//! - [`mccfr`]: external- and outcome-sampling Monte Carlo CFR on parallel lanes;
//! - [`exploit`]: exact best response, NashConv, exploitability and game value;
//! - [`run`]: the solvers by game id and algorithm name, what the CLI and Python call;
//! - [`lbr`]: local best response, a lower bound on the exploitability of any heads-up
//!   no-limit hold'em policy (`docs/exploit.md`);
//! - [`pushfold`]: heads-up push/fold no-limit hold'em (small blind shoves or folds, big
//!   blind calls or folds) solved by CFR+ on the exact preflop equity table
//!   (`docs/pushfold.md`).

pub mod cfr;
pub mod exploit;
pub mod flat;
pub(crate) mod frame;
pub mod lbr;
pub use frame::check_writable;
pub mod mccfr;
pub mod policy;
pub mod pushfold;
pub mod run;
pub mod spot;
pub mod state;
