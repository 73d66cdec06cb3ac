//! Helpers of the conformance suite (`tests/conformance.rs`): the mixed random/illegal policy
//! that drives a batch, and the comparison of whole batches across thread counts and chunk
//! sizes.

use cardvec::core::policy::random_legal;
use cardvec::core::{EnvOptions, Game, LaneRng, VecEnv};
use sha2::{Digest, Sha256};

/// One action of the mixed policy for a lane whose legal mask is `mask`: mostly a random
/// legal action, one time in ten a random id below `num_actions + 3` (often illegal), one
/// time in forty `u32::MAX` or `u32::MAX - 1`. A lane without a legal action (a finished
/// one) gets `u32::MAX`, like any action it would ignore.
pub fn mixed_action(mask: &[u8], rng: &mut LaneRng) -> u32 {
    match rng.below(40) {
        0..=3 => rng.below(mask.len() as u32 + 3),
        4 => u32::MAX - rng.below(2),
        _ => random_legal(mask, rng),
    }
}

/// The mixed policy's actions for every lane of `env` ([`mixed_action`] on each mask row).
pub fn mixed_actions<G: Game>(env: &VecEnv<G>, rng: &mut LaneRng) -> Vec<u32> {
    env.legal_mask()
        .chunks(env.game().num_actions())
        .map(|m| mixed_action(m, rng))
        .collect()
}

/// The SHA-256 of everything `env` shows ([`VecEnv::snapshot`]: outputs and lane states) and
/// of its episode counters.
pub fn digest<G: Game>(env: &VecEnv<G>) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(env.snapshot());
    for e in env.episodes() {
        h.update(e.to_le_bytes());
    }
    h.finalize().into()
}

/// Drives `env` for `steps` batch steps with the mixed policy (stream `policy_seed`) and
/// returns the [`digest`] after construction and after every step.
pub fn mixed_policy_digests<G: Game>(
    env: &mut VecEnv<G>,
    steps: usize,
    policy_seed: u64,
) -> Vec<[u8; 32]> {
    let mut rng = LaneRng::from_seed(policy_seed);
    let mut out = vec![digest(env)];
    for _ in 0..steps {
        let actions = mixed_actions(env, &mut rng);
        env.step(&actions).unwrap();
        out.push(digest(env));
    }
    out
}

/// Plays the mixed policy for `steps` steps on an environment of `game` built with `options`
/// on one thread with chunks of 64 lanes, and again with each `(threads, chunk_size)` of
/// `others`, and asserts that every step shows the same outputs, lane states and episode
/// counters (naming the first step that differs).
pub fn assert_same_for_any_threads_and_chunks<G: Game>(
    game: &G,
    options: &EnvOptions,
    steps: usize,
    policy_seed: u64,
    others: &[(usize, usize)],
    label: &str,
) {
    let run = |threads: usize, chunk_size: usize| {
        let options = EnvOptions {
            num_threads: Some(threads),
            chunk_size,
            ..options.clone()
        };
        let mut env = VecEnv::new(game.clone(), options).unwrap();
        mixed_policy_digests(&mut env, steps, policy_seed)
    };
    let base = run(1, 64);
    for &(threads, chunk) in others {
        let other = run(threads, chunk);
        if let Some(step) = (0..base.len()).find(|&t| base[t] != other[t]) {
            panic!(
                "{label}: {threads} threads with chunks of {chunk} differ from 1 thread with \
                 chunks of 64 after step {step}"
            );
        }
    }
}
