//! Solvers over any game with the [`GameTree`](crate::core::GameTree) capability: a layer
//! above the games that knows none of them. `docs/cfr.md` is the guide.
//!
//! - [`flat`]: the tree flattened into arrays, walked once from the root;
//! - [`policy`]: policies (flat, and keyed by information-state string, with JSON);
//! - [`cfr`]: tabular CFR and CFR+ as OpenSpiel defines them;
//! - [`mccfr`]: external- and outcome-sampling Monte Carlo CFR on parallel lanes;
//! - [`exploit`]: exact best response, NashConv, exploitability and game value;
//! - [`run`]: the solvers by game id and algorithm name, what the CLI and Python call.

pub mod cfr;
pub mod exploit;
pub mod flat;
pub mod mccfr;
pub mod policy;
pub mod run;
