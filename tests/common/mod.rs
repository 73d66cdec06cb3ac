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

/// What a batch shows after a step: observations, masks, rewards, terminated, truncated,
/// current players, illegal codes, and the lane states (compared with `==`).
pub type Shown<S> = (
    Vec<f32>,
    Vec<u8>,
    Vec<f32>,
    Vec<bool>,
    Vec<bool>,
    Vec<i32>,
    Vec<u8>,
    Vec<S>,
);

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
            e.terminated().to_vec(),
            e.truncated().to_vec(),
            e.current_player().to_vec(),
            e.illegal().to_vec(),
            e.states().to_vec(),
        )
    })
}

/// Plays the mixed policy ([`mixed_policy_run`], policy seed `policy_seed`) for `steps`
/// steps on `make(1, 64)` and on `make(threads, chunk)` for each pair of `others`, and
/// asserts that every step shows the same buffers and lane states.
pub fn assert_same_for_any_threads_and_chunks<G: Game>(
    make: impl Fn(usize, usize) -> VecEnv<G>,
    steps: usize,
    raw_below: u32,
    policy_seed: u64,
    others: &[(usize, usize)],
) where
    G::State: PartialEq,
{
    let base = mixed_policy_shown(&mut make(1, 64), steps, raw_below, policy_seed);
    for &(threads, chunk) in others {
        let other = mixed_policy_shown(&mut make(threads, chunk), steps, raw_below, policy_seed);
        assert!(other == base, "{threads} threads, chunk {chunk} differ");
    }
}
