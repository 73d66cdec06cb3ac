//! Helpers shared by the integration tests of several games.

use cardvec::core::policy::random_legal;
use cardvec::core::{Game, LaneRng, VecEnv};

/// Drives `env` for `steps` batch steps with a policy that plays a random legal action, or
/// one time in ten a random action below `raw_below` (often illegal), and returns
/// [`VecEnv::snapshot`] after every step.
pub fn mixed_policy_snapshots<G: Game>(
    env: &mut VecEnv<G>,
    steps: usize,
    raw_below: u32,
    seed: u64,
) -> Vec<Vec<u8>>
where
    G::State: bytemuck::NoUninit,
{
    let a = env.game().num_actions();
    let mut rng = LaneRng::from_seed(seed);
    let mut actions = vec![0u32; env.num_envs()];
    let mut snaps = Vec::new();
    for _ in 0..steps {
        for (i, action) in actions.iter_mut().enumerate() {
            *action = if rng.below(10) == 0 {
                rng.below(raw_below)
            } else {
                random_legal(&env.legal_mask()[i * a..(i + 1) * a], &mut rng)
            };
        }
        env.step(&actions).unwrap();
        snaps.push(env.snapshot());
    }
    snaps
}
