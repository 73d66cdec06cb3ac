//! Batched policies and bots that any game can use: the uniformly random legal policy, and
//! the [`Bot`] trait that game-specific bots implement.

use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::env::VecEnv;
use super::error::Result;
use super::game::Game;
use super::mem::try_vec;
use super::rng::LaneRng;

/// A player program for one game: picks an action for the player to act.
///
/// A bot may read only what its seat may know (its game documents which parts of the state
/// are public); `mask` is the legal mask of the state.
pub trait Bot<G: Game>: Send + Sync {
    /// The bot's name, as the CLI spells it.
    fn name(&self) -> &str;
    /// The action to play; must be legal in `mask`.
    fn act(&self, game: &G, state: &G::State, mask: &[u8], rng: &mut LaneRng) -> u32;
}

/// The uniformly random legal bot.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomBot;

impl<G: Game> Bot<G> for RandomBot {
    fn name(&self) -> &str {
        "random"
    }
    fn act(&self, _game: &G, _state: &G::State, mask: &[u8], rng: &mut LaneRng) -> u32 {
        random_legal(mask, rng)
    }
}

/// A uniformly random index whose mask byte is nonzero; `u32::MAX` (always illegal) if none.
#[inline]
pub fn random_legal(mask: &[u8], rng: &mut LaneRng) -> u32 {
    let count: u32 = mask.iter().map(|&m| (m != 0) as u32).sum();
    if count == 0 {
        return u32::MAX;
    }
    let mut k = rng.below(count);
    for (i, &m) in mask.iter().enumerate() {
        if m != 0 {
            if k == 0 {
                return i as u32;
            }
            k -= 1;
        }
    }
    u32::MAX
}

/// Fills `actions[i]` with a random legal action of mask row `i` (rows of `num_actions`
/// bytes), each lane from its own stream, in parallel on the current rayon pool.
pub fn random_legal_batch(
    mask: &[u8],
    num_actions: usize,
    rngs: &mut [LaneRng],
    actions: &mut [u32],
) {
    const CHUNK: usize = 256;
    mask.par_chunks(num_actions * CHUNK)
        .zip(rngs.par_chunks_mut(CHUNK))
        .zip(actions.par_chunks_mut(CHUNK))
        .for_each(|((m, r), a)| {
            for ((row, rng), act) in m.chunks_exact(num_actions).zip(r).zip(a) {
                *act = random_legal(row, rng);
            }
        });
}

/// Drives a [`VecEnv`] with the uniformly random legal policy, one stream per lane
/// (`(seed, lane, u64::MAX)`, apart from the environment's own streams): what benchmarks and
/// throughput runs use.
pub struct RandomDriver {
    rngs: Vec<LaneRng>,
    actions: Vec<u32>,
}

impl RandomDriver {
    /// A driver for `num_envs` lanes;
    /// [`Error::OutOfMemory`](crate::core::Error::OutOfMemory) if its buffers cannot be
    /// allocated.
    pub fn new(num_envs: usize, seed: u64) -> Result<Self> {
        let mut rngs = try_vec(num_envs, LaneRng::from_seed(seed), "policy streams")
            .map_err(|e| e.in_context(|| format!("num_envs={num_envs}")))?;
        for (i, rng) in rngs.iter_mut().enumerate() {
            *rng = LaneRng::for_lane(seed, i as u64, u64::MAX);
        }
        Ok(RandomDriver {
            rngs,
            actions: try_vec(num_envs, 0, "policy actions")
                .map_err(|e| e.in_context(|| format!("num_envs={num_envs}")))?,
        })
    }

    /// Picks a random legal action for every lane (on the environment's thread pool) and
    /// steps the environment. Returns the time spent choosing and the time spent in
    /// [`VecEnv::step`].
    pub fn step<G: Game>(&mut self, env: &mut VecEnv<G>) -> Result<(Duration, Duration)> {
        let start = Instant::now();
        self.choose(env);
        let chosen = Instant::now();
        env.step(&self.actions)?;
        Ok((chosen - start, chosen.elapsed()))
    }

    /// Picks a random legal action for every lane from its current mask, into
    /// [`RandomDriver::actions`] (the first half of [`RandomDriver::step`], for callers that
    /// time the environment's step themselves).
    pub fn choose<G: Game>(&mut self, env: &VecEnv<G>) {
        let (rngs, actions) = (&mut self.rngs, &mut self.actions);
        let num_actions = env.game().num_actions();
        env.install(|| random_legal_batch(env.legal_mask(), num_actions, rngs, actions));
    }

    /// The actions of the last [`RandomDriver::choose`], one per lane.
    pub fn actions(&self) -> &[u32] {
        &self.actions
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_legal_is_uniform_over_legal_entries() {
        let mask = [0u8, 1, 1, 0, 1];
        let mut rng = LaneRng::from_seed(5);
        let mut counts = [0u32; 5];
        for _ in 0..3000 {
            counts[random_legal(&mask, &mut rng) as usize] += 1;
        }
        assert_eq!(counts[0] + counts[3], 0);
        assert!(
            counts[1] > 900 && counts[2] > 900 && counts[4] > 900,
            "{counts:?}"
        );
        assert_eq!(random_legal(&[0, 0], &mut rng), u32::MAX);
    }
}
