//! Helpers shared by the integration tests of several games.
// Each test crate that includes this module uses only some of its helpers.
#![allow(dead_code)]

use cardvec::core::policy::random_legal;
use cardvec::core::{Game, LaneRng, VecEnv};

/// Drives `env` for `steps` batch steps with a policy that plays a random legal action, or
/// one time in ten a random action below `raw_below` (often illegal), and returns what
/// `record` reads from the environment after every step.
pub fn mixed_policy_run<G: Game, T>(
    env: &mut VecEnv<G>,
    steps: usize,
    raw_below: u32,
    seed: u64,
    mut record: impl FnMut(&VecEnv<G>) -> T,
) -> Vec<T> {
    let a = env.game().num_actions();
    let mut rng = LaneRng::from_seed(seed);
    let mut actions = vec![0u32; env.num_envs()];
    let mut out = Vec::new();
    for _ in 0..steps {
        for (i, action) in actions.iter_mut().enumerate() {
            *action = if rng.below(10) == 0 {
                rng.below(raw_below)
            } else {
                random_legal(&env.legal_mask()[i * a..(i + 1) * a], &mut rng)
            };
        }
        env.step(&actions).unwrap();
        out.push(record(env));
    }
    out
}

/// [`mixed_policy_run`] recording [`VecEnv::snapshot`] (every buffer and lane state as
/// bytes) after every step.
pub fn mixed_policy_snapshots<G: Game>(
    env: &mut VecEnv<G>,
    steps: usize,
    raw_below: u32,
    seed: u64,
) -> Vec<Vec<u8>>
where
    G::State: bytemuck::NoUninit,
{
    mixed_policy_run(env, steps, raw_below, seed, VecEnv::snapshot)
}

/// What a batch shows after a step: observations, masks, rewards and the lane states (for
/// states compared with `==` rather than as bytes).
pub type Shown<S> = (Vec<f32>, Vec<u8>, Vec<f32>, Vec<S>);

/// [`mixed_policy_run`] recording [`Shown`] after every step.
pub fn mixed_policy_shown<G: Game>(
    env: &mut VecEnv<G>,
    steps: usize,
    raw_below: u32,
    seed: u64,
) -> Vec<Shown<G::State>> {
    mixed_policy_run(env, steps, raw_below, seed, |e| {
        (
            e.obs().to_vec(),
            e.legal_mask().to_vec(),
            e.rewards().to_vec(),
            e.states().to_vec(),
        )
    })
}
