//! Batched policies and bots that any game can use: the uniformly random legal policy, the
//! [`Bot`] trait that game-specific bots implement, and batched bots ([`act_lanes`]): the
//! action a bot picks for the seat to act in every lane of a batch, computed in parallel.
//!
//! # Streams of batched bots
//!
//! A batched bot draws its randomness for lane `l` from [`bot_stream`]`(seed, l, state)`,
//! keyed by the seed, the lane and a hash of the lane's state bytes: the actions depend
//! only on the seed and the states, never on the thread count, the chunk size or the calls
//! made before.

use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::env::VecEnv;
use super::error::{Error, Result};
use super::game::Game;
use super::mem::try_vec;
use super::pool::ForkSafePool;
use super::rng::{splitmix64, LaneRng};

/// A player program for one game: picks an action for the player to act.
///
/// A bot may read only what its seat may know (its game documents which parts of the state
/// are public); `mask` is the legal mask of the state.
pub trait Bot<G: Game>: Send + Sync {
    /// The bot's name, as the CLI spells it.
    fn name(&self) -> &str;
    /// The action to play; must be legal in `mask`.
    fn act(&self, game: &G, state: &G::State, mask: &[u8], rng: &mut LaneRng) -> u32;
    /// The actions for several states at once: `out[i]` is what [`Bot::act`] plays in
    /// `states[i]` with `masks[i]` and `rngs[i]`. Batched play ([`act_lanes`]) calls it once
    /// per chunk of lanes, so that a bot with a cheaper batch (a network's forward pass,
    /// one matrix product per layer) can take it; its action for a state must not depend
    /// on the other states of the batch. The default: [`Bot::act`] state by state.
    fn act_batch(
        &self,
        game: &G,
        states: &[&G::State],
        masks: &[&[u8]],
        rngs: &mut [LaneRng],
        out: &mut [u32],
    ) {
        for (((state, mask), rng), o) in states.iter().zip(masks).zip(rngs).zip(out) {
            *o = self.act(game, state, mask, rng);
        }
    }
    /// Whether the bot remembers between its decisions (a search bot tracking what an
    /// opponent revealed): such a bot follows one game at a time, so batched play
    /// ([`act_lanes`], the learner view) refuses it ([`check_batchable`]). The default: it
    /// does not.
    fn remembers(&self) -> bool {
        false
    }
    /// Whether the bot may draw from the stream it is given. A bot that never does (a
    /// deterministic heuristic) says `false`, and batched play and rollouts then hand it one
    /// fixed stream ([`idle_stream`]) instead of hashing every state for its own
    /// ([`bot_stream`]): a fifth of a `pimc` rollout's time with `safe-heuristic` playouts.
    /// The default: it may.
    fn draws(&self) -> bool {
        true
    }
}

/// `Ok` if `bot` may play many lanes at once; an [`Error::Invalid`] naming it if it
/// remembers between decisions ([`Bot::remembers`]).
pub fn check_batchable<G: Game>(bot: &dyn Bot<G>) -> Result<()> {
    if bot.remembers() {
        return Err(Error::Invalid {
            what: "bot",
            reason: format!(
                "{} remembers between its decisions, so it cannot play many lanes at once",
                bot.name()
            ),
        });
    }
    Ok(())
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

/// What [`act_lanes`] writes for a lane it was not asked about or whose game is over.
pub const NO_ACTION: i64 = -1;

/// Key that keeps the streams of batched bots apart from the lanes' own streams.
const BOT_STREAM_KEY: u64 = 0x626f_7473_2d61_6374;

/// A 64-bit hash of `bytes` (a lane state), for keying random streams (not for
/// adversaries): four independent multiply-rotate accumulators over the little-endian
/// 64-bit words (the last one zero-padded), so that a long state costs about one
/// multiplication per word, then SplitMix64 over the accumulators and the length.
pub fn state_hash(bytes: &[u8]) -> u64 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    #[inline(always)]
    fn mix(acc: u64, word: &[u8]) -> u64 {
        let mut w = [0u8; 8];
        w[..word.len()].copy_from_slice(word);
        (acc.rotate_left(29) ^ u64::from_le_bytes(w)).wrapping_mul(K)
    }
    let mut acc = [1u64, 2, 3, 4];
    let mut blocks = bytes.chunks_exact(32);
    for block in &mut blocks {
        for (a, word) in acc.iter_mut().zip(block.chunks_exact(8)) {
            *a = mix(*a, word);
        }
    }
    for (a, word) in acc.iter_mut().zip(blocks.remainder().chunks(8)) {
        *a = mix(*a, word);
    }
    acc.iter()
        .fold(splitmix64(bytes.len() as u64), |h, &a| splitmix64(h ^ a))
}

/// The stream a batched bot draws from for lane `lane` in the state whose bytes are
/// `state`: keyed by `(seed, lane, hash of the state)`, apart from every lane stream.
pub fn bot_stream(seed: u64, lane: u64, state: &[u8]) -> LaneRng {
    LaneRng::for_lane(seed, lane, state_hash(state) ^ BOT_STREAM_KEY)
}

/// The stream handed to a bot that never draws ([`Bot::draws`] is false) in place of
/// [`bot_stream`]'s: the same for every lane and state, so nothing is hashed.
pub fn idle_stream(seed: u64) -> LaneRng {
    LaneRng::for_lane(seed, u64::MAX, BOT_STREAM_KEY)
}

/// The stream `bot` is handed for lane `lane` in state `state`: [`bot_stream`]'s if it
/// draws, else a copy of `idle` ([`idle_stream`]).
#[inline]
pub fn stream_for<G: Game>(
    bot: &dyn Bot<G>,
    idle: &LaneRng,
    seed: u64,
    lane: u64,
    state: &G::State,
) -> LaneRng {
    if bot.draws() {
        bot_stream(seed, lane, bytemuck::bytes_of(state))
    } else {
        idle.clone()
    }
}

/// The lanes of a batch as a batched bot reads them: one state, one legal-mask row and two
/// end flags per lane.
#[derive(Clone, Copy, Debug)]
pub struct LaneBatch<'a, G: Game> {
    /// Lane states.
    pub states: &'a [G::State],
    /// Legal masks, rows of `num_actions` bytes.
    pub masks: &'a [u8],
    /// Natural end flags.
    pub terminated: &'a [bool],
    /// Cut-off flags.
    pub truncated: &'a [bool],
}

impl<'a, G: Game> LaneBatch<'a, G> {
    /// Whether lane `l` is asked for an action: selected by `selected` (`None`: every
    /// lane) and its game not over.
    pub fn asked(&self, l: usize, selected: Option<&[bool]>) -> bool {
        selected.is_none_or(|sel| sel[l]) && !self.terminated[l] && !self.truncated[l]
    }

    /// The states and legal-mask rows (`num_actions` bytes each) of `lanes`, in order.
    pub fn rows(&self, lanes: &[usize], num_actions: usize) -> (Vec<&'a G::State>, Vec<&'a [u8]>) {
        let a = num_actions;
        (
            lanes.iter().map(|&l| &self.states[l]).collect(),
            lanes
                .iter()
                .map(|&l| &self.masks[l * a..(l + 1) * a])
                .collect(),
        )
    }
}

/// A batch's lanes with what acting on them takes: the game, the chunk size and the
/// batch's thread pool. [`VecEnv::lane_view`] and
/// [`LearnerEnv::lane_view`](super::LearnerEnv::lane_view) give one, so the tools that act
/// on either kind of batch (bots, policy files) are written once.
#[derive(Clone, Copy)]
pub struct LaneView<'a, G: Game> {
    /// The game's configuration.
    pub game: &'a G,
    /// The lanes.
    pub lanes: LaneBatch<'a, G>,
    /// Lanes per parallel work item.
    pub chunk_size: usize,
    pool: &'a ForkSafePool,
}

impl<'a, G: Game> LaneView<'a, G> {
    /// The view of `lanes` of `game`, acted on in chunks of `chunk_size` on `pool`.
    pub(crate) fn new(
        game: &'a G,
        lanes: LaneBatch<'a, G>,
        chunk_size: usize,
        pool: &'a ForkSafePool,
    ) -> Self {
        LaneView {
            game,
            lanes,
            chunk_size,
            pool,
        }
    }

    /// Runs `f` on the batch's thread pool.
    pub fn install<R: Send>(&self, f: impl FnOnce() -> R + Send) -> R {
        self.pool.install(f)
    }

    /// [`act_lanes`] on these lanes, on the batch's pool in chunks of its chunk size.
    pub fn bot_actions(
        &self,
        bot: &dyn Bot<G>,
        selected: Option<&[bool]>,
        seed: u64,
        out: &mut [i64],
    ) -> Result<()> {
        self.install(|| {
            act_lanes(
                self.game,
                bot,
                &self.lanes,
                selected,
                seed,
                self.chunk_size,
                out,
            )
        })
    }
}

/// Writes into `out[l]` the action `bot` picks for the seat to act in lane `l` of `lanes`,
/// for every lane selected by `selected` (`None`: every lane) whose game is not over;
/// [`NO_ACTION`] for the others. Lane `l` draws from [`bot_stream`]`(seed, l, state)`, so
/// the result depends only on `seed` and the states. Runs in parallel, `chunk_size` lanes
/// per work item, on the current rayon pool (callers install their environment's pool).
///
/// Errors (nothing written): `out`, `selected` or the buffers of `lanes` of the wrong
/// length, a `chunk_size` of zero, a bot that remembers ([`check_batchable`]).
pub fn act_lanes<G: Game>(
    game: &G,
    bot: &dyn Bot<G>,
    lanes: &LaneBatch<'_, G>,
    selected: Option<&[bool]>,
    seed: u64,
    chunk_size: usize,
    out: &mut [i64],
) -> Result<()> {
    let n = lanes.states.len();
    let a = game.num_actions();
    Error::check_len("bot actions", n, out.len())?;
    Error::check_len("legal masks", n * a, lanes.masks.len())?;
    Error::check_len("terminated flags", n, lanes.terminated.len())?;
    Error::check_len("truncated flags", n, lanes.truncated.len())?;
    if let Some(sel) = selected {
        Error::check_len("lanes", n, sel.len())?;
    }
    Error::check_range("chunk_size", 1, 1 << 20, chunk_size)?;
    check_batchable(bot)?;
    out.par_chunks_mut(chunk_size)
        .enumerate()
        .for_each(|(c, chunk)| {
            let base = c * chunk_size;
            let mut lanes_asked = Vec::with_capacity(chunk.len());
            for (j, slot) in chunk.iter_mut().enumerate() {
                let l = base + j;
                *slot = NO_ACTION;
                if lanes.asked(l, selected) {
                    lanes_asked.push(l);
                }
            }
            if lanes_asked.is_empty() {
                return;
            }
            let (states, masks) = lanes.rows(&lanes_asked, a);
            let idle = idle_stream(seed);
            let mut rngs: Vec<LaneRng> = lanes_asked
                .iter()
                .map(|&l| stream_for(bot, &idle, seed, l as u64, &lanes.states[l]))
                .collect();
            let mut actions = vec![0u32; lanes_asked.len()];
            bot.act_batch(game, &states, &masks, &mut rngs, &mut actions);
            for (&l, &action) in lanes_asked.iter().zip(&actions) {
                chunk[l - base] = action as i64;
            }
        });
    Ok(())
}

/// Drives a [`VecEnv`] with the uniformly random legal policy, one stream per lane
/// (`(seed, lane, u64::MAX)`, apart from the environment's own streams): what benchmarks and
/// throughput runs use.
pub struct RandomDriver {
    rngs: Vec<LaneRng>,
    actions: Vec<u32>,
}

impl RandomDriver {
    /// A driver for `num_envs` lanes; [`Error::OutOfMemory`] if its buffers cannot be
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
    fn state_hash_sees_every_byte() {
        let base = [7u8; 45];
        let h = state_hash(&base);
        for i in 0..base.len() {
            let mut other = base;
            other[i] ^= 1;
            assert_ne!(state_hash(&other), h, "byte {i}");
        }
        assert_ne!(state_hash(&base[..44]), h);
        assert_ne!(state_hash(&[0u8; 8]), state_hash(&[0u8; 16]));
        assert_eq!(state_hash(&base), h);
    }

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
