//! What the page draws, read from the game's own words ([`cardvec::core::Words`] through
//! the [`DynEnv`]): lane 0's state as seen by one seat, as JSON (never a card that seat may
//! not see while the game runs), a label for every action id, and the outcome of a finished
//! game. No game is named here: a new game's words appear without an edit.

use serde_json::{json, Value};

use cardvec::core::{DynEnv, Outcome};

/// The view of lane 0 of `env` as seat `seat` sees it (`reveal`: every card shown, as at
/// the end of a game or in a replay).
pub fn view(env: &dyn DynEnv, seat: usize, reveal: bool) -> Value {
    env.view(0, seat, reveal)
        .unwrap_or_else(|_| json!({ "kind": "generic" }))
}

/// The label of `action` in lane 0 of `env` (before it is applied).
pub fn action_label(env: &dyn DynEnv, action: u32) -> String {
    env.action_name(0, action)
        .unwrap_or_else(|_| format!("action {action}"))
}

/// The log's words for `action` as played in lane 0 of `env`, which was in the state
/// `before` (its state bytes before the step): what the move revealed included ("hit: 7").
pub fn move_label(env: &dyn DynEnv, before: &[u8], action: u32) -> String {
    env.move_text(0, before, action)
        .unwrap_or_else(|_| format!("action {action}"))
}

/// How lane 0's game ended, once it has (`None` while it runs, or for a game that says
/// nothing of its end).
pub fn outcome(env: &dyn DynEnv) -> Option<Outcome> {
    env.outcome(0).ok().flatten()
}
