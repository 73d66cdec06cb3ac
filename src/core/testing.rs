//! Helpers of the crate's unit tests that write states field by field (the fields are
//! private to the crate): a small environment of any game, and the check that
//! `VecEnv::set_state` refuses a corrupted state without changing anything.

use super::env::{EnvOptions, VecEnv};
use super::error::Error;
use super::game::Game;

/// A 4-lane environment of `game`, reset from seed 9.
pub(crate) fn env_of<G: Game>(game: G) -> VecEnv<G> {
    let mut options = EnvOptions::new(4);
    options.seed = 9;
    VecEnv::new(game, options).unwrap()
}

/// Sets `state` on lane 1 of `env` (as a state and as bytes) and expects an
/// `Error::Invalid` that changes nothing.
pub(crate) fn assert_refused<G: Game>(env: &mut VecEnv<G>, state: G::State, what: &str) {
    let before = env.snapshot();
    match env.set_state(1, state) {
        Err(Error::Invalid { what: "state", .. }) => {}
        other => panic!("{what}: expected Error::Invalid, got {other:?}"),
    }
    assert_eq!(
        env.snapshot(),
        before,
        "{what}: the refused state changed the env"
    );
    let bytes = bytemuck::bytes_of(&state).to_vec();
    assert!(
        matches!(env.set_state_bytes(1, &bytes), Err(Error::Invalid { .. })),
        "{what}: accepted as bytes"
    );
    assert_eq!(
        env.snapshot(),
        before,
        "{what}: the refused bytes changed the env"
    );
}

/// Applies `edit` to a copy of lane 1's state of an [`env_of`] `game` and expects it
/// refused.
pub(crate) fn refuse_edit<G: Game>(game: G, what: &str, edit: impl Fn(&mut G::State)) {
    let mut env = env_of(game);
    let mut state = *env.state(1).unwrap();
    edit(&mut state);
    assert_refused(&mut env, state, what);
}
