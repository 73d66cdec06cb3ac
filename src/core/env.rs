//! The vectorized environment: N lanes of one [`Game`] in contiguous memory, stepped in
//! parallel over rayon chunks, with output buffers allocated once.
//!
//! The batch contract (see `docs/architecture.md`):
//! - lane `i` of episode `e` after `reset(seed)` draws from [`LaneRng::for_lane`]`(seed, i, e)`;
//!   after `reset_seeds(seeds)` from `for_lane(seeds[i], 0, e)`, the stream lane 0 of an
//!   environment reset with `seeds[i]` draws (so the lane plays that environment's games);
//!   results are bit-identical for any thread count and chunk size;
//! - `step(actions)` takes one action per lane; an illegal action, or an action on a finished
//!   lane, is a no-op with zero reward and the lane's `illegal` code says which;
//! - autoreset (when on) resets a finished lane on the next step, so the terminal
//!   observation stays readable for one step;
//! - [`EnvOptions::on_illegal`] chooses what an illegal action on a live lane does: a no-op
//!   ([`OnIllegal::Noop`], the default), an [`Error::IllegalAction`] that changes nothing
//!   ([`OnIllegal::Raise`]), or the end of the lane, the offending seat taking the game's
//!   worst result ([`OnIllegal::Lose`], [`Game::forfeit_rewards`]);
//! - with [`EnvOptions::max_steps`], a lane whose episode reaches that many attempted steps
//!   (actions sent to it while live: applied ones and illegal no-ops alike) without ending
//!   is truncated (`truncated` true, `terminated` false), whatever the game;
//! - rewards are zero after a reset, except for a game that is over as dealt (a hold'em hand
//!   with no decision, played out at the deal): its lane shows the whole game's rewards
//!   ([`Game::deal_rewards`]) and is terminated at once;
//! - nothing is allocated per step, and a call that returns an error changes nothing;
//! - the output buffers never move (see [`VecEnv`]), so views over them stay valid;
//! - the lanes run on a [`ForkSafePool`]: an environment built before a `fork()` steps in
//!   the child too (on threads of the child's own), with the same results.

use rayon::prelude::*;

use super::error::{Error, Result};
use super::game::{ActionStatus, Game};
use super::mem::{lane_rows, try_to_vec, try_vec, try_with_capacity, HugeBuf};
use super::obs::{ObsDtype, ObsFormat};
use super::pool::ForkSafePool;
use super::rng::LaneRng;
use super::simd;

/// Largest batch the environment accepts.
pub const MAX_ENVS: usize = 1 << 24;

/// What a batch step does with an illegal action sent to a live lane
/// ([`EnvOptions::on_illegal`]). An action sent to a finished lane is never illegal: it is
/// the finished no-op (or, with autoreset, the reset) in every mode.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum OnIllegal {
    /// A no-op with zero reward, flagged [`ActionStatus::Illegal`] (the default). It counts
    /// as a step toward [`EnvOptions::max_steps`].
    #[default]
    Noop,
    /// The step is refused: [`Error::IllegalAction`] names the lanes and their actions, and
    /// no lane changes (every action is checked before any lane is stepped).
    Raise,
    /// The lane ends (`terminated`, its mask empty, flagged [`ActionStatus::Illegal`]) with
    /// the game's forfeit rewards ([`Game::forfeit_rewards`]: the offending seat takes the
    /// game's worst result). A game without a forfeit rule refuses this mode.
    Lose,
}

/// The words of [`OnIllegal`], in its order.
pub const ON_ILLEGAL_WORDS: &[&str] = &["noop", "raise", "lose"];

impl OnIllegal {
    /// The option word: `"noop"`, `"raise"` or `"lose"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            OnIllegal::Noop => "noop",
            OnIllegal::Raise => "raise",
            OnIllegal::Lose => "lose",
        }
    }

    /// Parses an option word; anything else is an [`Error::Unknown`] listing the words.
    pub fn parse(word: &str) -> Result<OnIllegal> {
        match word {
            "noop" => Ok(OnIllegal::Noop),
            "raise" => Ok(OnIllegal::Raise),
            "lose" => Ok(OnIllegal::Lose),
            _ => Err(Error::Unknown {
                what: "on_illegal",
                name: word.to_string(),
                expected: ON_ILLEGAL_WORDS.join(", "),
            }),
        }
    }
}

/// Whose observation rows a [`VecEnv`] keeps ([`EnvOptions::obs_seats`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ObsSeats {
    /// One row per lane, `[N, obs_dim]`: the observation of the seat to act (the default).
    #[default]
    Acting,
    /// One row per seat of every lane, `[N, num_players, obs_dim]`: row `[i, s]` is lane
    /// `i`'s observation as seen by seat `s`, whoever is to act. A trainer reads the row of
    /// [`VecEnv::current_player`]; nothing is copied. An observed step brings a lane's rows
    /// up to date by [`Game::observe_seats_update`] where the game has it (writing only
    /// what the step changed in each seat's view), else observes every seat in full. Only
    /// with [`ObsDtype::F32`].
    All,
}

/// The words of [`ObsSeats`], in order.
pub const OBS_SEATS_WORDS: &[&str] = &["acting", "all"];

impl ObsSeats {
    /// The option word: `"acting"` or `"all"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            ObsSeats::Acting => "acting",
            ObsSeats::All => "all",
        }
    }

    /// Parses an option word; anything else is an [`Error::Unknown`] listing the words.
    pub fn parse(word: &str) -> Result<ObsSeats> {
        match word {
            "acting" => Ok(ObsSeats::Acting),
            "all" => Ok(ObsSeats::All),
            _ => Err(Error::Unknown {
                what: "obs_seats",
                name: word.to_string(),
                expected: OBS_SEATS_WORDS.join(", "),
            }),
        }
    }
}

impl std::fmt::Display for ObsSeats {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for ObsSeats {
    type Err = Error;
    fn from_str(s: &str) -> Result<ObsSeats> {
        ObsSeats::parse(s)
    }
}

impl std::fmt::Display for OnIllegal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for OnIllegal {
    type Err = Error;
    fn from_str(s: &str) -> Result<OnIllegal> {
        OnIllegal::parse(s)
    }
}

/// How a [`VecEnv`] is built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EnvOptions {
    /// Number of lanes (`1..=MAX_ENVS`).
    pub num_envs: usize,
    /// Seed of the first reset.
    pub seed: u64,
    /// Worker threads (`1..=`[`super::MAX_THREADS`]); `None` uses one per core.
    pub num_threads: Option<usize>,
    /// Lanes per parallel work item (results never depend on it).
    pub chunk_size: usize,
    /// Reset a finished lane on the next step instead of ignoring it.
    pub autoreset: bool,
    /// Compute the f32 observation of the player to act in every step (else only on
    /// [`VecEnv::observe`]).
    pub observe_on_step: bool,
    /// Step limit per episode (`None`: off, the default): a lane whose episode has taken
    /// this many attempted steps (actions sent to it while live: applied actions and illegal
    /// no-ops alike; the no-op of a finished lane does not count) and is not over is
    /// truncated (`truncated` true, `terminated` false), then treated as any finished lane
    /// (a no-op, or reset by autoreset). So a lane fed only illegal actions is truncated
    /// after `max_steps` steps. Added to the game's own limits, which are unchanged.
    /// `Some(0)` is refused.
    pub max_steps: Option<u32>,
    /// What an illegal action on a live lane does ([`OnIllegal`]; default
    /// [`OnIllegal::Noop`]).
    pub on_illegal: OnIllegal,
    /// The element type of the observation rows ([`ObsDtype::F32`], the default: one f32
    /// per value in [`VecEnv::obs`]; [`ObsDtype::U8`]: the game's compact format, bytes in
    /// [`VecEnv::obs_u8`] and the other values in [`VecEnv::obs_tail`], see
    /// [`super::obs`]). Only the rows of the chosen dtype are allocated and written.
    pub obs_dtype: ObsDtype,
    /// Whose rows [`VecEnv::obs`] holds ([`ObsSeats::Acting`], the default: the seat to
    /// act's, `[N, obs_dim]`; [`ObsSeats::All`]: every seat's, `[N, num_players,
    /// obs_dim]`, kept up to date incrementally where the game can). [`ObsSeats::All`]
    /// needs [`ObsDtype::F32`].
    pub obs_seats: ObsSeats,
}

impl EnvOptions {
    /// Defaults for `num_envs` lanes: seed 0, one thread per core, chunks of 64 lanes,
    /// autoreset off, observations computed on every step, no step limit, illegal actions
    /// no-ops.
    pub fn new(num_envs: usize) -> Self {
        EnvOptions {
            num_envs,
            seed: 0,
            num_threads: None,
            chunk_size: 64,
            autoreset: false,
            observe_on_step: true,
            max_steps: None,
            on_illegal: OnIllegal::Noop,
            obs_dtype: ObsDtype::F32,
            obs_seats: ObsSeats::Acting,
        }
    }
}

/// N lanes of a [`Game`], stepped together.
///
/// # Output buffers
///
/// The outputs — [`obs`](VecEnv::obs), [`legal_mask`](VecEnv::legal_mask),
/// [`rewards`](VecEnv::rewards), [`terminated`](VecEnv::terminated),
/// [`truncated`](VecEnv::truncated), [`current_player`](VecEnv::current_player) and
/// [`illegal`](VecEnv::illegal) — are allocated once, by [`VecEnv::new`], and never move nor
/// change length for the environment's lifetime: every call writes them in place
/// ([`VecEnv::gather`] included, which copies rows). A pointer to one of them stays valid,
/// at the same address, as long as the environment lives; the zero-copy Python views rely
/// on it (a test checks the addresses across every kind of call). The lane states and
/// random streams are not outputs and may move ([`VecEnv::gather`] swaps them with a
/// scratch copy).
///
/// The outputs are written by the calls that take `&mut self`: [`VecEnv::reset`],
/// [`VecEnv::reset_lanes`], [`VecEnv::reset_lane_from_order`], [`VecEnv::step`],
/// [`VecEnv::observe`], [`VecEnv::gather`] and the `set_state` family. A step writes the
/// rows of many lanes at once from several threads, so a reader that bypassed the borrow
/// (through a raw pointer or a Python view, from another thread) during such a call would
/// see rows half old and half new; read them between calls.
pub struct VecEnv<G: Game> {
    game: G,
    options: EnvOptions,
    pool: &'static ForkSafePool,
    states: HugeBuf<G::State>,
    rngs: Vec<LaneRng>,
    /// Each lane's stream key ([`LaneRng::lane_key`]): episode `e` of lane `i` draws from
    /// [`LaneRng::for_key`]`(lane_keys[i], e)`. Set by [`VecEnv::reset`] (the seed and the
    /// lane's index) and [`VecEnv::reset_seeds`] (the lane's own seed, as lane 0).
    lane_keys: Vec<u64>,
    episodes: Vec<u64>,
    obs: ObsBufs,
    mask: Vec<u8>,
    rewards: Vec<f32>,
    terminated: Vec<bool>,
    truncated: Vec<bool>,
    current_player: Vec<i32>,
    illegal: Vec<u8>,
    /// Attempted steps of each lane's episode (for [`EnvOptions::max_steps`]).
    steps: Vec<u32>,
    scratch_states: HugeBuf<G::State>,
    scratch_rngs: Vec<LaneRng>,
    scratch_episodes: Vec<u64>,
    /// Whether every lane's observation row is the observation of its state for the player
    /// to act (so an observed step may update rows incrementally, [`Game::observe_update`]).
    /// Set by a full observe of every lane and by an observed step; cleared when a lane's
    /// state changes while observation is off.
    obs_synced: bool,
}

/// The mutable outputs of one lane, borrowed together; `R` is its observation row(s) (an
/// [`ObsRow`] of either dtype, or in the batch step a row of the chunk's one dtype).
struct LaneOut<'a, R = ObsRow<'a>> {
    obs: R,
    mask: &'a mut [u8],
    rewards: &'a mut [f32],
    terminated: &'a mut bool,
    truncated: &'a mut bool,
    current_player: &'a mut i32,
}

impl EnvOptions {
    /// Checks the sizes and limits (not `num_threads`, which the pool checks):
    /// `num_envs` in `1..=MAX_ENVS`, `chunk_size` in `1..=2**20`, `max_steps` not `Some(0)`.
    pub(crate) fn check(&self) -> Result<()> {
        Error::check_range("num_envs", 1, MAX_ENVS, self.num_envs)?;
        Error::check_range("chunk_size", 1, 1 << 20, self.chunk_size)?;
        if let Some(m) = self.max_steps {
            Error::check_range("max_steps", 1, u32::MAX as usize, m as usize)?;
        }
        if self.obs_seats == ObsSeats::All && self.obs_dtype != ObsDtype::F32 {
            return Err(Error::Invalid {
                what: "obs_seats",
                reason: format!(
                    "\"all\" keeps f32 rows only; obs_dtype is \"{}\"",
                    self.obs_dtype
                ),
            });
        }
        Ok(())
    }

    /// Checks what depends on the game: [`OnIllegal::Lose`] needs its forfeit rule
    /// ([`Game::forfeit_rewards`]).
    pub(crate) fn check_game<G: Game>(&self, game: &G) -> Result<()> {
        if self.on_illegal != OnIllegal::Lose {
            return Ok(());
        }
        let state = game.reset(&mut LaneRng::for_lane(self.seed, 0, 0));
        let mut rewards = vec![0.0; game.num_players()];
        if game.forfeit_rewards(&state, game.current_player(&state), &mut rewards) {
            Ok(())
        } else {
            Err(Error::Invalid {
                what: "on_illegal",
                reason: "\"lose\" needs the game's forfeit rule (Game::forfeit_rewards), \
                         which this game does not define; use \"noop\" or \"raise\""
                    .to_string(),
            })
        }
    }
}

impl<G: Game> VecEnv<G> {
    /// Builds the environment and resets every lane with `options.seed`.
    ///
    /// Every buffer is allocated fallibly: memory the system refuses (a limited address
    /// space, a batch too large for the machine) is an [`Error::OutOfMemory`] naming
    /// `num_envs`, the buffer and its size, and nothing stays allocated.
    pub fn new(game: G, options: EnvOptions) -> Result<Self> {
        options.check()?;
        options.check_game(&game)?;
        // Checks `num_threads` (1..=MAX_THREADS); the pool of that many workers is shared by
        // every environment of the process that asks for the same count.
        let pool = ForkSafePool::with_threads(options.num_threads)?;
        let n = options.num_envs;
        let mut env = Self::allocate(game, options, pool)
            .map_err(|e| e.in_context(|| format!("num_envs={n}")))?;
        env.reset(env.options.seed);
        Ok(env)
    }

    /// The environment with its buffers allocated (fallibly, the largest first) and not
    /// yet reset.
    fn allocate(game: G, options: EnvOptions, pool: &'static ForkSafePool) -> Result<Self> {
        let n = options.num_envs;
        let (p, a) = (game.num_players(), game.num_actions());
        let mut rng0 = LaneRng::for_lane(options.seed, 0, 0);
        let blank = game.reset(&mut rng0);
        let seats = match options.obs_seats {
            ObsSeats::Acting => 1,
            ObsSeats::All => p,
        };
        Ok(VecEnv {
            obs: ObsBufs::allocate(n, game.obs_format(), options.obs_dtype, seats)?,
            states: HugeBuf::try_filled(n, blank, "lane states")?,
            scratch_states: HugeBuf::try_filled(n, blank, "lane states")?,
            mask: try_vec(lane_rows::<u8>(n, a, "legal masks")?, 0, "legal masks")?,
            rewards: try_vec(lane_rows::<f32>(n, p, "rewards")?, 0.0, "rewards")?,
            rngs: try_vec(n, rng0, "lane streams")?,
            lane_keys: try_vec(n, 0, "lane stream keys")?,
            scratch_rngs: try_with_capacity(n, "lane streams")?,
            episodes: try_vec(n, 0, "episode counters")?,
            scratch_episodes: try_vec(n, 0, "episode counters")?,
            terminated: try_vec(n, false, "terminated flags")?,
            truncated: try_vec(n, false, "truncated flags")?,
            current_player: try_vec(n, 0, "current players")?,
            illegal: try_vec(n, 0, "action status codes")?,
            steps: try_vec(n, 0, "episode step counters")?,
            obs_synced: false,
            game,
            pool,
            options,
        })
    }

    /// The game's configuration.
    pub fn game(&self) -> &G {
        &self.game
    }
    /// The options the environment was built with (the seed is the last reset's).
    pub fn options(&self) -> &EnvOptions {
        &self.options
    }
    /// Number of lanes.
    pub fn num_envs(&self) -> usize {
        self.options.num_envs
    }
    /// Whether autoreset is on.
    pub fn autoreset(&self) -> bool {
        self.options.autoreset
    }
    /// Turns autoreset on or off.
    pub fn set_autoreset(&mut self, on: bool) {
        self.options.autoreset = on;
    }
    /// Whether observations are computed during every step.
    pub fn observe_on_step(&self) -> bool {
        self.options.observe_on_step
    }
    /// Turns observation on every step on or off.
    pub fn set_observe_on_step(&mut self, on: bool) {
        self.options.observe_on_step = on;
    }

    /// Observations `[N, obs_dim]` of the player to act in each lane, with
    /// [`ObsDtype::F32`] (empty with another dtype: see [`VecEnv::obs_u8`]); with
    /// [`ObsSeats::All`], `[N, num_players, obs_dim]`, every seat's observation.
    pub fn obs(&self) -> &[f32] {
        &self.obs.f32
    }
    /// Whose rows [`VecEnv::obs`] holds ([`EnvOptions::obs_seats`]).
    pub fn obs_seats(&self) -> ObsSeats {
        self.options.obs_seats
    }
    /// The bytes of the compact observations `[N, byte_dim]` of the player to act in each
    /// lane, with [`ObsDtype::U8`] (empty with another dtype); see [`VecEnv::obs_format`].
    pub fn obs_u8(&self) -> &[u8] {
        &self.obs.bytes
    }
    /// The f32 tail of the compact observations `[N, tail_dim]`, with [`ObsDtype::U8`]
    /// (empty with another dtype or when the game's format has no tail).
    pub fn obs_tail(&self) -> &[f32] {
        &self.obs.tail
    }
    /// The element type of the observation rows ([`EnvOptions::obs_dtype`]).
    pub fn obs_dtype(&self) -> ObsDtype {
        self.options.obs_dtype
    }
    /// The game's compact observation format ([`Game::obs_format`]): how a row of
    /// [`VecEnv::obs_u8`] and [`VecEnv::obs_tail`] maps onto the f32 observation.
    pub fn obs_format(&self) -> &ObsFormat {
        &self.obs.format
    }
    /// Legal masks `[N, num_actions]`.
    pub fn legal_mask(&self) -> &[u8] {
        &self.mask
    }
    /// Words of one lane's packed legal mask ([`VecEnv::legal_bits`]): `ceil(num_actions /
    /// 64)`.
    pub fn mask_words(&self) -> usize {
        self.game.num_actions().div_ceil(64)
    }
    /// The legal masks packed as bits `[N, mask_words]` into `out`: bit `a % 64` of word
    /// `a / 64` of a lane's row is set when action `a` is legal (little-endian bit order;
    /// the bits past `num_actions` are zero). Packed from [`VecEnv::legal_mask`] on the
    /// environment's threads (SIMD, 16 actions per instruction pair); a wrong length is an
    /// error that writes nothing.
    pub fn legal_bits(&self, out: &mut [u64]) -> Result<()> {
        let (a, w) = (self.game.num_actions(), self.mask_words());
        Error::check_len("legal bits buffer", self.num_envs() * w, out.len())?;
        let cs = self.options.chunk_size;
        self.pool.install(|| {
            out.par_chunks_mut(cs * w)
                .zip(self.mask.par_chunks(cs * a))
                .for_each(|(bits, bytes)| {
                    for (row, m) in bits.chunks_exact_mut(w).zip(bytes.chunks_exact(a)) {
                        simd::pack_bytes_to_bits(m, row);
                    }
                })
        });
        Ok(())
    }
    /// Rewards of the last step `[N, num_players]`, for every seat; after a reset of a lane
    /// (construction, [`VecEnv::reset`], [`VecEnv::reset_lanes`], an autoreset,
    /// [`VecEnv::reset_lane_from_order`]) the rewards of its deal: zero, unless the game is
    /// over as dealt ([`Game::deal_rewards`]).
    pub fn rewards(&self) -> &[f32] {
        &self.rewards
    }
    /// Natural end flags `[N]`.
    pub fn terminated(&self) -> &[bool] {
        &self.terminated
    }
    /// Cut-off flags `[N]`.
    pub fn truncated(&self) -> &[bool] {
        &self.truncated
    }
    /// Seat to act `[N]`.
    pub fn current_player(&self) -> &[i32] {
        &self.current_player
    }
    /// What happened to each lane's last action `[N]`, as [`ActionStatus`] codes.
    pub fn illegal(&self) -> &[u8] {
        &self.illegal
    }
    /// The step limit per episode ([`EnvOptions::max_steps`]).
    pub fn max_steps(&self) -> Option<u32> {
        self.options.max_steps
    }
    /// What an illegal action on a live lane does ([`EnvOptions::on_illegal`]).
    pub fn on_illegal(&self) -> OnIllegal {
        self.options.on_illegal
    }
    /// Attempted steps of each lane's current episode `[N]` (applied actions and illegal
    /// no-ops; zero after a reset, an autoreset or a `set_state`), what
    /// [`EnvOptions::max_steps`] counts.
    pub fn episode_steps(&self) -> &[u32] {
        &self.steps
    }
    /// Episode counter of each lane since the last `reset`.
    pub fn episodes(&self) -> &[u64] {
        &self.episodes
    }
    /// The lane states (unlike the outputs, they may move: [`VecEnv::gather`] swaps them
    /// with a scratch copy).
    pub fn states(&self) -> &[G::State] {
        &self.states
    }

    /// Everything the environment shows, and every lane state, as bytes: two environments
    /// that played the same games give equal snapshots (what the determinism tests compare
    /// across thread counts and chunk sizes).
    pub fn snapshot(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend(bytemuck::cast_slice::<f32, u8>(&self.obs.f32));
        out.extend(&*self.obs.bytes);
        out.extend(bytemuck::cast_slice::<f32, u8>(&self.obs.tail));
        out.extend(&self.mask);
        out.extend(bytemuck::cast_slice::<f32, u8>(&self.rewards));
        out.extend(self.terminated.iter().map(|&b| b as u8));
        out.extend(self.truncated.iter().map(|&b| b as u8));
        out.extend(bytemuck::cast_slice::<i32, u8>(&self.current_player));
        out.extend(&self.illegal);
        out.extend(bytemuck::cast_slice::<G::State, u8>(&self.states));
        out
    }

    /// Resets every lane: lane `i` starts episode 0 of stream `(seed, i, 0)`.
    pub fn reset(&mut self, seed: u64) {
        self.options.seed = seed;
        for (i, key) in self.lane_keys.iter_mut().enumerate() {
            *key = LaneRng::lane_key(seed, i as u64);
        }
        self.restart_streams();
    }

    /// Resets every lane with a seed of its own (`seeds`: one per lane): lane `i` starts
    /// episode 0 of stream `(seeds[i], 0, 0)` and its later episodes (autoreset,
    /// [`VecEnv::reset_lanes`]) follow `(seeds[i], 0, e)`, so the lane plays exactly the
    /// games of an environment reset with `seeds[i]` plays in its lane 0, whatever the
    /// thread count. `options().seed` is left as it was. A wrong length is an error that
    /// changes nothing.
    pub fn reset_seeds(&mut self, seeds: &[u64]) -> Result<()> {
        Error::check_len("seeds", self.num_envs(), seeds.len())?;
        for (key, &seed) in self.lane_keys.iter_mut().zip(seeds) {
            *key = LaneRng::lane_key(seed, 0);
        }
        self.restart_streams();
        Ok(())
    }

    /// Episode 0 of every lane's key, every lane dealt.
    fn restart_streams(&mut self) {
        self.episodes.fill(0);
        for (rng, &key) in self.rngs.iter_mut().zip(&self.lane_keys) {
            *rng = LaneRng::for_key(key, 0);
        }
        self.reset_selected(&[]);
    }

    /// Resets the lanes where `mask` is true (each starts its next episode). `mask` must have
    /// one entry per lane.
    pub fn reset_lanes(&mut self, mask: &[bool]) -> Result<()> {
        Error::check_len("reset mask", self.num_envs(), mask.len())?;
        for ((&m, &key), (rng, ep)) in mask
            .iter()
            .zip(&self.lane_keys)
            .zip(self.rngs.iter_mut().zip(self.episodes.iter_mut()))
        {
            if m {
                *ep += 1;
                *rng = LaneRng::for_key(key, *ep);
            }
        }
        self.reset_selected(mask);
        Ok(())
    }

    /// Deals lane `lane` explicitly (see the game's `reset_from_order`): its outputs are
    /// those of the new deal, its rewards the deal's ([`Game::deal_rewards`]: zero unless the
    /// game is over as dealt). Its episode and random stream are kept.
    pub fn reset_lane_from_order(&mut self, lane: usize, order: &[u8]) -> Result<()> {
        self.check_lane(lane)?;
        let state = self.game.reset_from_order(order)?;
        self.set_state(lane, state)?;
        let (game, out) = self.lane_out(lane);
        game.deal_rewards(&state, out.rewards);
        Ok(())
    }

    /// The state of one lane.
    pub fn state(&self, lane: usize) -> Result<&G::State> {
        self.check_lane(lane)?;
        Ok(&self.states[lane])
    }

    /// The state of one lane as bytes (what [`VecEnv::set_state_bytes`] takes back).
    pub fn state_bytes(&self, lane: usize) -> Result<&[u8]> {
        Ok(bytemuck::bytes_of(self.state(lane)?))
    }

    /// Replaces the state of one lane (its outputs are recomputed, rewards zeroed), after
    /// checking it with [`Game::check_state`]: a state the game rejects is an
    /// [`Error::Invalid`] and changes nothing.
    pub fn set_state(&mut self, lane: usize, state: G::State) -> Result<()> {
        self.check_lane(lane)?;
        self.game
            .check_state(&state)
            .map_err(|reason| Error::Invalid {
                what: "state",
                reason,
            })?;
        self.set_state_unchecked(lane, state)
    }

    /// [`VecEnv::set_state`] from the bytes of a state (as [`VecEnv::state_bytes`] gives
    /// them): a wrong length or a state the game rejects is an error that changes nothing.
    pub fn set_state_bytes(&mut self, lane: usize, bytes: &[u8]) -> Result<()> {
        Error::check_len("state bytes", std::mem::size_of::<G::State>(), bytes.len())?;
        self.set_state(lane, bytemuck::pod_read_unaligned(bytes))
    }

    /// Replaces the state of one lane without [`Game::check_state`], for callers that know
    /// the state is valid (one this environment produced). A state the game would reject
    /// may make a later step panic. Only the lane index is checked.
    pub fn set_state_unchecked(&mut self, lane: usize, state: G::State) -> Result<()> {
        self.check_lane(lane)?;
        self.states[lane] = state;
        self.steps[lane] = 0;
        self.illegal[lane] = ActionStatus::Applied as u8;
        let observe = self.options.observe_on_step;
        self.obs_synced &= observe;
        let (game, mut out) = self.lane_out(lane);
        out.rewards.fill(0.0);
        refresh(game, &state, &mut out, observe, false, None);
        Ok(())
    }

    /// Copies lanes: afterwards lane `i` holds what lane `sources[i]` held (state, random
    /// stream, episode, outputs). `sources` has one entry per lane; any lane may be repeated.
    /// (A row moves with its state, so rows in sync stay in sync.)
    pub fn gather(&mut self, sources: &[usize]) -> Result<()> {
        Error::check_len("gather sources", self.num_envs(), sources.len())?;
        if let Some(&bad) = sources.iter().find(|&&s| s >= self.num_envs()) {
            return Error::check_range("gather source lane", 0, self.num_envs() - 1, bad);
        }
        // The rows are copied before anything changes: a copy the allocator refuses is an
        // error that leaves the environment as it was.
        let (p, a) = (self.game.num_players(), self.game.num_actions());
        let (d, nb, nt) = self.obs.widths();
        let old_obs = try_to_vec(&self.obs.f32, "observations (gather)")?;
        let old_bytes = try_to_vec(&self.obs.bytes, "observations (gather)")?;
        let old_tail = try_to_vec(&self.obs.tail, "observations (gather)")?;
        let old_mask = try_to_vec(&self.mask, "legal masks (gather)")?;
        let old_rewards = try_to_vec(&self.rewards, "rewards (gather)")?;
        let old_flags = try_to_vec(&self.terminated, "flags (gather)")?;
        let old_truncated = try_to_vec(&self.truncated, "flags (gather)")?;
        let old_player = try_to_vec(&self.current_player, "current players (gather)")?;
        let old_illegal = try_to_vec(&self.illegal, "action status codes (gather)")?;
        let old_steps = try_to_vec(&self.steps, "episode step counters (gather)")?;
        for (dst, &src) in sources.iter().enumerate() {
            self.scratch_states[dst] = self.states[src];
            self.scratch_episodes[dst] = self.episodes[src];
        }
        self.scratch_rngs.clear();
        self.scratch_rngs
            .extend(sources.iter().map(|&s| self.rngs[s].clone()));
        std::mem::swap(&mut self.states, &mut self.scratch_states);
        std::mem::swap(&mut self.episodes, &mut self.scratch_episodes);
        std::mem::swap(&mut self.rngs, &mut self.scratch_rngs);
        gather_rows(&mut self.rewards, &old_rewards, sources, p);
        gather_rows(&mut self.illegal, &old_illegal, sources, 1);
        gather_rows(&mut self.steps, &old_steps, sources, 1);
        gather_rows(&mut self.terminated, &old_flags, sources, 1);
        gather_rows(&mut self.truncated, &old_truncated, sources, 1);
        gather_rows(&mut self.current_player, &old_player, sources, 1);
        gather_rows(&mut self.mask, &old_mask, sources, a);
        gather_rows(&mut self.obs.f32, &old_obs, sources, d);
        gather_rows(&mut self.obs.bytes, &old_bytes, sources, nb);
        gather_rows(&mut self.obs.tail, &old_tail, sources, nt);
        Ok(())
    }

    /// Steps every lane with its action. `actions` has one entry per lane; any `u32` is
    /// accepted (out-of-range actions are illegal). An illegal action on a live lane is what
    /// [`EnvOptions::on_illegal`] says: a flagged no-op, an [`Error::IllegalAction`] that
    /// changes nothing (every lane's action is checked before any lane is stepped), or the
    /// end of the lane with the game's forfeit rewards.
    ///
    /// With observation on, a lane whose action was applied has its row brought up to date
    /// by [`Game::observe_update`] when every row was in sync before the step (else by a full
    /// [`Game::observe`]); a reset lane is observed in full. When the rows were not in sync
    /// (observation was off during an earlier step, or a lane was reset or set meanwhile),
    /// the no-op lanes are observed in full too, so that after any observed step every row is
    /// the observation of its lane.
    pub fn step(&mut self, actions: &[u32]) -> Result<()> {
        Error::check_len("actions", self.num_envs(), actions.len())?;
        if self.options.on_illegal == OnIllegal::Raise {
            self.check_actions(actions)?;
        }
        let game = &self.game;
        let cs = self.options.chunk_size;
        let (autoreset, observe) = (self.options.autoreset, self.options.observe_on_step);
        let obs_mode = match (observe, self.obs_synced) {
            (false, _) => OBS_OFF,
            (true, true) => OBS_UPDATE,
            (true, false) => OBS_FULL,
        };
        let (p, a) = (game.num_players(), game.num_actions());
        let work = (
            self.states.par_chunks_mut(cs),
            self.rngs.par_chunks_mut(cs),
            self.episodes.par_chunks_mut(cs),
            actions.par_chunks(cs),
            self.obs.chunks(cs),
            self.mask.par_chunks_mut(cs * a),
            self.rewards.par_chunks_mut(cs * p),
            self.terminated.par_chunks_mut(cs),
            self.truncated.par_chunks_mut(cs),
            self.current_player.par_chunks_mut(cs),
            self.illegal.par_chunks_mut(cs),
            self.steps.par_chunks_mut(cs),
        );
        let ctx = StepCtx {
            game,
            widths: (p, a),
            chunk_size: cs,
            keys: &self.lane_keys,
            autoreset,
            truncate_past: self.options.max_steps.unwrap_or(0).wrapping_sub(1),
            on_illegal: self.options.on_illegal,
        };
        let lose = ctx.on_illegal == OnIllegal::Lose;
        self.pool.install(|| {
            work.into_par_iter()
                .enumerate()
                .for_each(|(c, bufs)| match lose {
                    false => step_chunk::<G, false>(&ctx, c, obs_mode, bufs),
                    true => step_chunk::<G, true>(&ctx, c, obs_mode, bufs),
                })
        });
        self.obs_synced = observe;
        Ok(())
    }

    /// The batch API's name for [`VecEnv::reset`] (the seed's `batched_reset`; one
    /// implementation behind both names).
    pub fn batched_reset(&mut self, seed: u64) {
        self.reset(seed)
    }

    /// The batch API's name for [`VecEnv::step`] (the seed's `batched_step`).
    pub fn batched_step(&mut self, actions: &[u32]) -> Result<()> {
        self.step(actions)
    }

    /// The batch API's observation `[N, obs_dim]`: [`VecEnv::observe`] (the player to act in
    /// every lane), then [`VecEnv::obs`] (the seed's `batched_obs`).
    pub fn batched_obs(&mut self) -> &[f32] {
        self.observe();
        &self.obs.f32
    }

    /// The batch API's name for [`VecEnv::legal_mask`] `[N, num_actions]` (the seed's
    /// `batched_legal_mask`; `u8`, 1 = legal).
    pub fn batched_legal_mask(&self) -> &[u8] {
        &self.mask
    }

    /// Computes the observation of the player to act in every lane into [`VecEnv::obs`].
    pub fn observe(&mut self) {
        let game = &self.game;
        let cs = self.options.chunk_size;
        let work = (
            self.states.par_chunks(cs),
            self.current_player.par_chunks(cs),
            self.obs.chunks(cs),
        );
        self.pool.install(|| {
            work.into_par_iter().for_each(|(st, cp, mut ob)| {
                let mut scratch = Vec::new();
                for j in 0..st.len() {
                    if j + 1 < st.len() {
                        prefetch_lane(&st[j + 1], None);
                        ob.prefetch(j + 1);
                    }
                    ob.lane(j, &mut scratch)
                        .write(game, &st[j], cp[j] as usize, false);
                }
            })
        });
        self.obs_synced = true;
    }

    /// Writes the observation of lane `lane` as seen by seat `player` into `out`.
    pub fn observe_as(&self, lane: usize, player: usize, out: &mut [f32]) -> Result<()> {
        self.check_lane(lane)?;
        Error::check_range("player", 0, self.game.num_players() - 1, player)?;
        Error::check_len("observation buffer", self.game.obs_dim(), out.len())?;
        self.game.observe(&self.states[lane], player, out);
        Ok(())
    }

    /// The action `bot` picks for the seat to act in every lane selected by `selected`
    /// (`None`: every lane) whose game is not over, written into `out` (one entry per lane;
    /// [`NO_ACTION`](super::policy::NO_ACTION) for the others), computed in parallel on the
    /// environment's pool in chunks of its `chunk_size`. Deterministic: see
    /// [`act_lanes`](super::policy::act_lanes). A wrong length or a bot that remembers is an
    /// error that writes nothing.
    pub fn bot_actions(
        &self,
        bot: &dyn super::policy::Bot<G>,
        selected: Option<&[bool]>,
        seed: u64,
        out: &mut [i64],
    ) -> Result<()> {
        self.lane_view().bot_actions(bot, selected, seed, out)
    }

    /// The lanes as bots and policy files read them, with the game, the chunk size and the
    /// environment's thread pool.
    pub fn lane_view(&self) -> super::policy::LaneView<'_, G> {
        let lanes = super::policy::LaneBatch {
            states: &self.states,
            masks: &self.mask,
            terminated: &self.terminated,
            truncated: &self.truncated,
        };
        super::policy::LaneView::new(&self.game, lanes, self.options.chunk_size, self.pool)
    }

    /// Runs `f` on the environment's thread pool (for callers that add their own parallel
    /// work per step, such as batched policies, with the same thread count).
    pub fn install<R: Send>(&self, f: impl FnOnce() -> R + Send) -> R {
        self.pool.install(f)
    }

    fn check_lane(&self, lane: usize) -> Result<()> {
        Error::check_range("lane", 0, self.num_envs() - 1, lane)
    }

    /// [`OnIllegal::Raise`]: an [`Error::IllegalAction`] naming every live lane whose action
    /// the game would refuse, or nothing. Reads only: the mask says it for an action in
    /// range; an extended action ([`Game::is_extended_action`]) is tried on a copy of the
    /// lane.
    fn check_actions(&self, actions: &[u32]) -> Result<()> {
        let refused = |i: usize| {
            refuses(
                &self.game,
                &self.states[i],
                &self.rngs[i],
                &self.mask,
                (self.terminated[i], self.truncated[i]),
                i,
                actions[i],
            )
        };
        refused_lanes(self.pool, self.options.chunk_size, actions, refused)
    }

    fn lane_out(&mut self, lane: usize) -> (&G, LaneOut<'_>) {
        let (p, a) = (self.game.num_players(), self.game.num_actions());
        (
            &self.game,
            LaneOut {
                obs: self.obs.lane(lane),
                mask: &mut self.mask[lane * a..(lane + 1) * a],
                rewards: &mut self.rewards[lane * p..(lane + 1) * p],
                terminated: &mut self.terminated[lane],
                truncated: &mut self.truncated[lane],
                current_player: &mut self.current_player[lane],
            },
        )
    }

    /// Resets lanes whose `mask` entry is true (an empty mask selects every lane) from their
    /// current random streams, and refreshes their outputs.
    fn reset_selected(&mut self, mask: &[bool]) {
        let game = &self.game;
        let cs = self.options.chunk_size;
        let observe = self.options.observe_on_step;
        let (p, a) = (game.num_players(), game.num_actions());
        let all = mask.is_empty();
        if all {
            self.obs_synced = observe;
        } else if !observe && mask.iter().any(|&m| m) {
            self.obs_synced = false;
        }
        let work = (
            self.states.par_chunks_mut(cs),
            self.rngs.par_chunks_mut(cs),
            self.obs.chunks(cs),
            self.mask.par_chunks_mut(cs * a),
            self.rewards.par_chunks_mut(cs * p),
            self.terminated.par_chunks_mut(cs),
            self.truncated.par_chunks_mut(cs),
            self.current_player.par_chunks_mut(cs),
            self.illegal.par_chunks_mut(cs),
            self.steps.par_chunks_mut(cs),
        );
        self.pool.install(|| {
            work.into_par_iter().enumerate().for_each(
                |(c, (st, rn, mut ob, ma, re, te, tr, cp, il, sc))| {
                    let mut scratch = Vec::new();
                    for j in 0..st.len() {
                        if !all && !mask[c * cs + j] {
                            continue;
                        }
                        game.reset_into(&mut rn[j], &mut st[j]);
                        sc[j] = 0;
                        il[j] = ActionStatus::Applied as u8;
                        let mut out = LaneOut::in_chunk(
                            j,
                            (p, a),
                            ob.lane(j, &mut scratch),
                            ma,
                            re,
                            te,
                            tr,
                            cp,
                        );
                        out.rewards.fill(0.0);
                        game.deal_rewards(&st[j], out.rewards);
                        refresh(game, &st[j], &mut out, observe, false, None);
                    }
                },
            )
        });
    }
}

impl<'a, R> LaneOut<'a, R> {
    /// The outputs of lane `j` of a chunk, given its observation row, the chunk's other
    /// buffers and the row widths `(players, actions)`.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn in_chunk(
        j: usize,
        (p, a): (usize, usize),
        obs: R,
        mask: &'a mut [u8],
        rewards: &'a mut [f32],
        terminated: &'a mut [bool],
        truncated: &'a mut [bool],
        current_player: &'a mut [i32],
    ) -> Self {
        LaneOut {
            obs,
            mask: &mut mask[j * a..(j + 1) * a],
            rewards: &mut rewards[j * p..(j + 1) * p],
            terminated: &mut terminated[j],
            truncated: &mut truncated[j],
            current_player: &mut current_player[j],
        }
    }
}

/// Asks the cache for the next lane's state and observation row while the current lane is
/// worked on. A row written in full (at thousands of lanes the rows live beyond L2) would
/// otherwise have its stores wait on memory one lane at a time (about 10% of an observed
/// Flip 7 step at 4096 lanes, docs/flip7.md). A row updated incrementally is prefetched by
/// the game instead ([`Game::prefetch_observe_update`]), which asks only for the lines the
/// update will probably write.
#[inline]
fn prefetch_lane<S>(state: &S, obs_row: Option<&[f32]>) {
    simd::prefetch(std::slice::from_ref(state));
    if let Some(row) = obs_row {
        simd::prefetch(row);
    }
}

/// The observation rows of every lane, in the environment's dtype: `f32` rows
/// ([`ObsDtype::F32`]) or compact rows, `bytes` and `tail` ([`ObsDtype::U8`]). The buffers
/// of the other dtype are empty.
struct ObsBufs {
    lanes: usize,
    dtype: ObsDtype,
    format: ObsFormat,
    f32: HugeBuf<f32>,
    bytes: HugeBuf<u8>,
    tail: HugeBuf<f32>,
    /// An f32 row for single-lane writes of a game without a direct compact encoder.
    scratch: Vec<f32>,
    /// f32 rows per lane: 1, or every seat's ([`ObsSeats::All`]).
    seats: usize,
}

impl ObsBufs {
    fn allocate(n: usize, format: ObsFormat, dtype: ObsDtype, seats: usize) -> Result<Self> {
        let (d, nb, nt) = (format.dim() * seats, format.byte_dim(), format.tail_dim());
        let rows = |w: usize, on: bool| if on { w } else { 0 };
        let compact = dtype == ObsDtype::U8;
        Ok(ObsBufs {
            f32: HugeBuf::try_filled(
                lane_rows::<f32>(n, rows(d, !compact), "observations")?,
                0.0,
                "observations",
            )?,
            bytes: HugeBuf::try_filled(
                lane_rows::<u8>(n, rows(nb, compact), "observations (u8)")?,
                0,
                "observations (u8)",
            )?,
            tail: HugeBuf::try_filled(
                lane_rows::<f32>(n, rows(nt, compact), "observations (tail)")?,
                0.0,
                "observations (tail)",
            )?,
            scratch: try_vec(if compact { d } else { 0 }, 0.0, "observation scratch row")?,
            lanes: n,
            dtype,
            format,
            seats,
        })
    }

    /// Row widths of the three buffers `(f32, bytes, tail)`: zero for the buffers of the
    /// other dtype.
    fn widths(&self) -> (usize, usize, usize) {
        match self.dtype {
            ObsDtype::F32 => (self.format.dim() * self.seats, 0, 0),
            ObsDtype::U8 => (0, self.format.byte_dim(), self.format.tail_dim()),
        }
    }

    /// The rows of `lane`.
    fn lane(&mut self, lane: usize) -> ObsRow<'_> {
        let (d, nb, nt) = self.widths();
        match self.dtype {
            ObsDtype::F32 if self.seats > 1 => ObsRow::Seats(SeatRow {
                rows: &mut self.f32[lane * d..(lane + 1) * d],
                d: self.format.dim(),
            }),
            ObsDtype::F32 => ObsRow::F32(&mut self.f32[lane * d..(lane + 1) * d]),
            ObsDtype::U8 => ObsRow::U8 {
                bytes: &mut self.bytes[lane * nb..(lane + 1) * nb],
                tail: &mut self.tail[lane * nt..(lane + 1) * nt],
                scratch: &mut self.scratch,
                format: &self.format,
            },
        }
    }

    /// The rows cut into chunks of `cs` lanes (the last may be shorter), as a parallel
    /// iterator to zip with the other buffers' chunks. The buffers of the other dtype (and a
    /// compact part of width 0) give an empty slice per chunk. Allocates nothing.
    fn chunks(&mut self, cs: usize) -> impl IndexedParallelIterator<Item = ObsChunk<'_>> {
        let (d, nb, nt) = self.widths();
        let (n, dtype, format, seats) = (self.lanes, self.dtype, &self.format, self.seats);
        let count = n.div_ceil(cs);
        chunks_or_empty(&mut self.f32, d, cs, count)
            .zip(chunks_or_empty(&mut self.bytes, nb, cs, count))
            .zip(chunks_or_empty(&mut self.tail, nt, cs, count))
            .enumerate()
            .map(move |(c, ((f32, bytes), tail))| ObsChunk {
                lanes: cs.min(n - c * cs),
                dtype,
                format,
                seats,
                f32,
                bytes,
                tail,
            })
    }
}

/// `buf` (`count` chunks of `cs` rows of `width` values) cut into its chunks, or, when
/// `width` is 0 (an empty buffer), `count` empty slices: so that buffers of any width zip
/// chunk for chunk.
fn chunks_or_empty<T: Copy + Send + Sync>(
    buf: &mut [T],
    width: usize,
    cs: usize,
    count: usize,
) -> impl IndexedParallelIterator<Item = &mut [T]> {
    if width == 0 {
        rayon::iter::Either::Right((0..count).into_par_iter().map(|_| <&mut [T]>::default()))
    } else {
        rayon::iter::Either::Left(buf.par_chunks_mut(cs * width))
    }
}

/// The observation rows of one chunk of lanes (see [`ObsBufs`]).
struct ObsChunk<'a> {
    lanes: usize,
    dtype: ObsDtype,
    format: &'a ObsFormat,
    /// f32 rows per lane ([`ObsBufs`]).
    seats: usize,
    f32: &'a mut [f32],
    bytes: &'a mut [u8],
    tail: &'a mut [f32],
}

impl<'a> ObsChunk<'a> {
    /// The f32 rows of the chunk, `d` values each (the chunk's dtype is f32).
    #[inline]
    fn into_f32(self, d: usize) -> F32Rows<'a> {
        assert!(self.dtype == ObsDtype::F32 && self.seats == 1 && self.f32.len() == self.lanes * d);
        F32Rows { rows: self.f32, d }
    }

    /// Every seat's f32 rows of the chunk, `d` values each (the chunk's dtype is f32 with
    /// [`ObsSeats::All`]).
    #[inline]
    fn into_seats(self, d: usize) -> SeatRows<'a> {
        let w = d * self.seats;
        assert!(self.dtype == ObsDtype::F32 && self.f32.len() == self.lanes * w);
        SeatRows {
            rows: self.f32,
            d,
            w,
        }
    }

    /// The compact rows of the chunk (the chunk's dtype is u8).
    #[inline]
    fn into_u8(self) -> U8Rows<'a> {
        let (nb, nt) = (self.format.byte_dim(), self.format.tail_dim());
        assert!(
            self.dtype == ObsDtype::U8
                && self.bytes.len() == self.lanes * nb
                && self.tail.len() == self.lanes * nt
        );
        U8Rows {
            bytes: self.bytes,
            tail: self.tail,
            widths: (nb, nt),
            format: self.format,
            scratch: Vec::new(),
        }
    }

    /// Asks the cache for the rows of lane `j`.
    #[inline]
    fn prefetch(&self, j: usize) {
        match self.dtype {
            ObsDtype::F32 => {
                let d = self.format.dim() * self.seats;
                simd::prefetch(&self.f32[j * d..(j + 1) * d])
            }
            ObsDtype::U8 => {
                let (nb, nt) = (self.format.byte_dim(), self.format.tail_dim());
                simd::prefetch(&self.bytes[j * nb..(j + 1) * nb]);
                simd::prefetch(&self.tail[j * nt..(j + 1) * nt]);
            }
        }
    }

    /// The rows of lane `j` of the chunk.
    #[inline]
    fn lane<'b>(&'b mut self, j: usize, scratch: &'b mut Vec<f32>) -> ObsRow<'b> {
        match self.dtype {
            ObsDtype::F32 if self.seats > 1 => {
                let d = self.format.dim();
                let w = d * self.seats;
                ObsRow::Seats(SeatRow {
                    rows: &mut self.f32[j * w..(j + 1) * w],
                    d,
                })
            }
            ObsDtype::F32 => {
                let d = self.format.dim();
                ObsRow::F32(&mut self.f32[j * d..(j + 1) * d])
            }
            ObsDtype::U8 => {
                let (nb, nt) = (self.format.byte_dim(), self.format.tail_dim());
                ObsRow::U8 {
                    bytes: &mut self.bytes[j * nb..(j + 1) * nb],
                    tail: &mut self.tail[j * nt..(j + 1) * nt],
                    scratch,
                    format: self.format,
                }
            }
        }
    }
}

/// The observation row(s) of one lane.
enum ObsRow<'a> {
    F32(&'a mut [f32]),
    Seats(SeatRow<'a>),
    U8 {
        bytes: &'a mut [u8],
        tail: &'a mut [f32],
        /// An f32 row for [`ObsFormat::compress`] when the game has no direct encoder:
        /// empty in a batch loop until first needed (sized then, once per chunk and call;
        /// every registered game has a direct encoder, so a step allocates nothing).
        scratch: &'a mut Vec<f32>,
        format: &'a ObsFormat,
    },
}

/// The observation row(s) of one lane, as the batch loops write them.
trait LaneRow {
    /// Whether an incremental update needs the lane's state as it was before the step
    /// ([`LaneRow::write_update`]): the batch step copies it then, and only then.
    const WANTS_BEFORE: bool = false;
    /// Writes the observation of `state` for `player`; with `incremental`, an f32 row that
    /// held the observation before the step just applied is updated with
    /// [`Game::observe_update`] when the game supports it.
    fn write<G: Game>(&mut self, game: &G, state: &G::State, player: usize, incremental: bool);
    /// Brings rows that were in sync with `before` up to date after the step that made
    /// `state` of it (called instead of an incremental [`LaneRow::write`] when
    /// [`LaneRow::WANTS_BEFORE`]).
    #[inline(always)]
    fn write_update<G: Game>(
        &mut self,
        game: &G,
        before: &G::State,
        state: &G::State,
        player: usize,
    ) {
        let _ = before;
        self.write(game, state, player, true)
    }
}

impl LaneRow for ObsRow<'_> {
    #[inline(always)]
    fn write<G: Game>(&mut self, game: &G, state: &G::State, player: usize, incremental: bool) {
        match self {
            ObsRow::F32(row) => row.write(game, state, player, incremental),
            ObsRow::Seats(rows) => rows.write(game, state, player, incremental),
            ObsRow::U8 {
                bytes,
                tail,
                scratch,
                format,
            } => write_u8(game, state, player, (bytes, tail), scratch, format),
        }
    }
}

/// An f32 row.
impl LaneRow for &mut [f32] {
    #[inline(always)]
    fn write<G: Game>(&mut self, game: &G, state: &G::State, player: usize, incremental: bool) {
        if !(incremental && game.observe_update(state, player, self)) {
            game.observe(state, player, self);
        }
    }
}

/// Every seat's f32 row of one lane ([`ObsSeats::All`]): `rows` is `num_players` rows of
/// `d` values.
struct SeatRow<'a> {
    rows: &'a mut [f32],
    d: usize,
}

impl SeatRow<'_> {
    /// Observes every seat in full.
    #[inline(always)]
    fn observe_all<G: Game>(&mut self, game: &G, state: &G::State) {
        for (seat, row) in self.rows.chunks_exact_mut(self.d).enumerate() {
            game.observe(state, seat, row);
        }
    }
}

impl LaneRow for SeatRow<'_> {
    const WANTS_BEFORE: bool = true;
    /// Every seat's row in full (a write without the state before the step).
    #[inline(always)]
    fn write<G: Game>(&mut self, game: &G, state: &G::State, _: usize, _: bool) {
        self.observe_all(game, state);
    }
    #[inline(always)]
    fn write_update<G: Game>(&mut self, game: &G, before: &G::State, state: &G::State, _: usize) {
        if !game.observe_seats_update(before, state, self.rows) {
            self.observe_all(game, state);
        }
    }
}

/// No row: a step that does not observe.
impl LaneRow for () {
    #[inline(always)]
    fn write<G: Game>(&mut self, _: &G, _: &G::State, _: usize, _: bool) {}
}

/// A compact row of a batch step ([`U8Rows::lane`]).
struct U8Row<'b> {
    bytes: &'b mut [u8],
    tail: &'b mut [f32],
    scratch: &'b mut Vec<f32>,
    format: &'b ObsFormat,
}

impl LaneRow for U8Row<'_> {
    #[inline(always)]
    fn write<G: Game>(&mut self, game: &G, state: &G::State, player: usize, _: bool) {
        let bytes_tail = (&mut *self.bytes, &mut *self.tail);
        write_u8(game, state, player, bytes_tail, self.scratch, self.format);
    }
}

/// Writes the compact observation of `state` for `player` into `(bytes, tail)`: by the
/// game's direct encoder, or else through an f32 row in `scratch` (sized when first needed).
#[inline(always)]
fn write_u8<G: Game>(
    game: &G,
    state: &G::State,
    player: usize,
    (bytes, tail): (&mut [u8], &mut [f32]),
    scratch: &mut Vec<f32>,
    format: &ObsFormat,
) {
    if !game.observe_u8(state, player, bytes, tail) {
        scratch.resize(format.dim(), 0.0);
        game.observe(state, player, scratch);
        format.compress(scratch, bytes, tail);
    }
}

/// The observation rows of one chunk of a batch step in the environment's one dtype, so
/// that the loop over its lanes is compiled once per dtype and decides nothing per lane:
/// [`NoRows`] (a step that does not observe), [`F32Rows`], [`U8Rows`]. The chunk's lengths
/// are checked once, when it is made.
trait ChunkRows {
    /// The rows of one lane.
    type Row<'b>: LaneRow
    where
        Self: 'b;
    /// The rows of lane `j`.
    fn lane(&mut self, j: usize) -> Self::Row<'_>;
    /// Asks the cache for the rows of lane `j`, which the step will write in full.
    fn prefetch(&self, j: usize);
    /// Asks the cache for what an incremental update of lane `j` (state `state`) writes.
    fn prefetch_update<G: Game>(&self, game: &G, state: &G::State, j: usize);
}

/// No rows (observation off).
struct NoRows;

impl ChunkRows for NoRows {
    type Row<'b> = ();
    #[inline(always)]
    fn lane(&mut self, _: usize) {}
    #[inline(always)]
    fn prefetch(&self, _: usize) {}
    #[inline(always)]
    fn prefetch_update<G: Game>(&self, _: &G, _: &G::State, _: usize) {}
}

/// The f32 rows of a chunk, `d` values each.
struct F32Rows<'a> {
    rows: &'a mut [f32],
    d: usize,
}

impl ChunkRows for F32Rows<'_> {
    type Row<'b>
        = &'b mut [f32]
    where
        Self: 'b;
    #[inline(always)]
    fn lane(&mut self, j: usize) -> &mut [f32] {
        &mut self.rows[j * self.d..(j + 1) * self.d]
    }
    #[inline(always)]
    fn prefetch(&self, j: usize) {
        simd::prefetch(&self.rows[j * self.d..(j + 1) * self.d]);
    }
    #[inline(always)]
    fn prefetch_update<G: Game>(&self, game: &G, state: &G::State, j: usize) {
        game.prefetch_observe_update(state, &self.rows[j * self.d..(j + 1) * self.d]);
    }
}

/// Every seat's f32 rows of a chunk ([`ObsSeats::All`]): `w` values per lane, `d` per seat.
struct SeatRows<'a> {
    rows: &'a mut [f32],
    d: usize,
    w: usize,
}

impl ChunkRows for SeatRows<'_> {
    type Row<'b>
        = SeatRow<'b>
    where
        Self: 'b;
    #[inline(always)]
    fn lane(&mut self, j: usize) -> SeatRow<'_> {
        SeatRow {
            rows: &mut self.rows[j * self.w..(j + 1) * self.w],
            d: self.d,
        }
    }
    #[inline(always)]
    fn prefetch(&self, j: usize) {
        simd::prefetch(&self.rows[j * self.w..(j + 1) * self.w]);
    }
    /// An incremental update writes a few values per seat, where the step's cards are,
    /// which are not known before the step: the whole rows are asked for (without it, at
    /// 8,192 lanes, whose rows are beyond the last-level cache, each of those few stores
    /// waits on memory and the step is slower than writing the acting row in full).
    #[inline(always)]
    fn prefetch_update<G: Game>(&self, _: &G, _: &G::State, j: usize) {
        self.prefetch(j)
    }
}

/// The compact rows of a chunk: bytes and f32 tail, `widths` values each.
struct U8Rows<'a> {
    bytes: &'a mut [u8],
    tail: &'a mut [f32],
    widths: (usize, usize),
    format: &'a ObsFormat,
    /// An f32 row for a game without a direct compact encoder (empty until first needed;
    /// every registered game has one, so a step allocates nothing).
    scratch: Vec<f32>,
}

impl ChunkRows for U8Rows<'_> {
    type Row<'b>
        = U8Row<'b>
    where
        Self: 'b;
    #[inline(always)]
    fn lane(&mut self, j: usize) -> U8Row<'_> {
        let (nb, nt) = self.widths;
        U8Row {
            bytes: &mut self.bytes[j * nb..(j + 1) * nb],
            tail: &mut self.tail[j * nt..(j + 1) * nt],
            scratch: &mut self.scratch,
            format: self.format,
        }
    }
    #[inline(always)]
    fn prefetch(&self, j: usize) {
        let (nb, nt) = self.widths;
        simd::prefetch(&self.bytes[j * nb..(j + 1) * nb]);
        simd::prefetch(&self.tail[j * nt..(j + 1) * nt]);
    }
    /// A compact row has no incremental update: it is written in full.
    #[inline(always)]
    fn prefetch_update<G: Game>(&self, _: &G, _: &G::State, j: usize) {
        self.prefetch(j)
    }
}

/// How a batch step writes observation rows, as the const generic parameter `MODE` of the
/// batch loop (one loop per mode, so the mode costs nothing per lane): not at all.
const OBS_OFF: u8 = 0;
/// Every row was in sync before the step: applied steps update their row incrementally.
const OBS_UPDATE: u8 = 1;
/// Rows may be stale: every lane, no-ops included, is observed in full.
const OBS_FULL: u8 = 2;

/// What every chunk of a batch step shares.
struct StepCtx<'g, G> {
    game: &'g G,
    /// Row widths `(players, actions)`.
    widths: (usize, usize),
    chunk_size: usize,
    /// Every lane's stream key ([`VecEnv`]'s `lane_keys`), read when a lane autoresets.
    keys: &'g [u64],
    autoreset: bool,
    /// The episode step count past which a lane is truncated: [`EnvOptions::max_steps`]
    /// minus one, wrapping: `u32::MAX` when off (counts saturate there, so none goes past).
    truncate_past: u32,
    /// [`EnvOptions::on_illegal`] (a step under [`OnIllegal::Raise`] has checked every
    /// action already, so it runs as [`OnIllegal::Noop`]).
    on_illegal: OnIllegal,
}

/// The [`OnIllegal::Raise`] check of a batch (the batch env's and the learner view's):
/// nothing when no lane `refused(i)`, else an [`Error::IllegalAction`] naming every such
/// lane and its action. The lanes are scanned in parallel on `pool` in chunks of
/// `chunk_size`; only a refused batch is scanned a second time, to list the lanes in order.
pub(crate) fn refused_lanes(
    pool: &ForkSafePool,
    chunk_size: usize,
    actions: &[u32],
    refused: impl Fn(usize) -> bool + Sync,
) -> Result<()> {
    let n = actions.len();
    let any = pool.install(|| {
        (0..n)
            .into_par_iter()
            .with_min_len(chunk_size)
            .any(&refused)
    });
    if !any {
        return Ok(());
    }
    let lanes: Vec<usize> = (0..n).filter(|&i| refused(i)).collect();
    Err(Error::IllegalAction {
        actions: lanes.iter().map(|&i| actions[i]).collect(),
        count: lanes.len(),
        lanes,
    })
}

/// Whether `game` would refuse `action` on a lane (`state`, `rng`, its row of the `masks`
/// of width `num_actions`, its `(terminated, truncated)` flags): a live lane and an action
/// the mask does not allow, or an extended action that a step on a copy of the lane
/// refuses. A finished lane refuses nothing (its action is the finished no-op or a reset).
pub(crate) fn refuses<G: Game>(
    game: &G,
    state: &G::State,
    rng: &LaneRng,
    masks: &[u8],
    (terminated, truncated): (bool, bool),
    lane: usize,
    action: u32,
) -> bool {
    if terminated || truncated {
        return false;
    }
    let a = game.num_actions();
    if (action as usize) < a {
        return masks[lane * a + action as usize] == 0;
    }
    if !game.is_extended_action(action) {
        return true;
    }
    let (mut copy, mut rng) = (*state, rng.clone());
    let mut small = [0.0f32; 32];
    let mut large = Vec::new();
    let rewards = if game.num_players() <= small.len() {
        &mut small[..game.num_players()]
    } else {
        large.resize(game.num_players(), 0.0);
        &mut large[..]
    };
    !game.step(&mut copy, action, &mut rng, rewards).applied
}

/// The buffers of one chunk of a batch step: states, random streams, episodes, actions,
/// observations (`O`: an [`ObsChunk`], then its rows in their dtype), masks, rewards,
/// terminated, truncated, current player, status codes, episode step counters.
type ChunkBufs<'a, S, O = ObsChunk<'a>> = (
    &'a mut [S],
    &'a mut [LaneRng],
    &'a mut [u64],
    &'a [u32],
    O,
    &'a mut [u8],
    &'a mut [f32],
    &'a mut [bool],
    &'a mut [bool],
    &'a mut [i32],
    &'a mut [u8],
    &'a mut [u32],
);

/// Steps the lanes of chunk `c` in observation mode `mode` (one of the `OBS_*` constants;
/// with `LOSE`, [`OnIllegal::Lose`]): picks, once for the chunk, the loop compiled for that
/// mode and the chunk's dtype.
#[inline]
fn step_chunk<G: Game, const LOSE: bool>(
    ctx: &StepCtx<'_, G>,
    c: usize,
    mode: u8,
    bufs: ChunkBufs<'_, G::State>,
) {
    let (st, rn, ep, ac, ob, ma, re, te, tr, cp, il, sc) = bufs;
    let dtype = ob.dtype;
    match (mode, dtype) {
        (OBS_OFF, _) => {
            let bufs = (st, rn, ep, ac, NoRows, ma, re, te, tr, cp, il, sc);
            step_lanes::<G, OBS_OFF, LOSE, _>(ctx, c, bufs)
        }
        (_, ObsDtype::F32) if ob.seats > 1 => step_chunk_seats::<G, LOSE>(
            ctx,
            c,
            mode,
            (st, rn, ep, ac, ob, ma, re, te, tr, cp, il, sc),
        ),
        (OBS_UPDATE, ObsDtype::F32) => {
            let rows = ob.into_f32(ctx.game.obs_dim());
            let bufs = (st, rn, ep, ac, rows, ma, re, te, tr, cp, il, sc);
            step_lanes::<G, OBS_UPDATE, LOSE, _>(ctx, c, bufs)
        }
        (_, ObsDtype::F32) => {
            let rows = ob.into_f32(ctx.game.obs_dim());
            let bufs = (st, rn, ep, ac, rows, ma, re, te, tr, cp, il, sc);
            step_lanes::<G, OBS_FULL, LOSE, _>(ctx, c, bufs)
        }
        (OBS_UPDATE, ObsDtype::U8) => {
            let bufs = (st, rn, ep, ac, ob.into_u8(), ma, re, te, tr, cp, il, sc);
            step_lanes::<G, OBS_UPDATE, LOSE, _>(ctx, c, bufs)
        }
        (_, ObsDtype::U8) => {
            let bufs = (st, rn, ep, ac, ob.into_u8(), ma, re, te, tr, cp, il, sc);
            step_lanes::<G, OBS_FULL, LOSE, _>(ctx, c, bufs)
        }
    }
}

/// [`step_chunk`] with every seat's rows ([`ObsSeats::All`], observation on): a function of
/// its own, out of line, so that its loops do not change how the default loops are compiled
/// (inlined together they cost the default modes 1-2% more instructions per step).
#[inline(never)]
fn step_chunk_seats<G: Game, const LOSE: bool>(
    ctx: &StepCtx<'_, G>,
    c: usize,
    mode: u8,
    bufs: ChunkBufs<'_, G::State>,
) {
    let (st, rn, ep, ac, ob, ma, re, te, tr, cp, il, sc) = bufs;
    let rows = ob.into_seats(ctx.game.obs_dim());
    let bufs = (st, rn, ep, ac, rows, ma, re, te, tr, cp, il, sc);
    match mode {
        OBS_UPDATE => step_lanes::<G, OBS_UPDATE, LOSE, _>(ctx, c, bufs),
        _ => step_lanes::<G, OBS_FULL, LOSE, _>(ctx, c, bufs),
    }
}

/// Steps the lanes of chunk `c` (observation mode `MODE`, one of the `OBS_*` constants;
/// with `LOSE`, [`OnIllegal::Lose`]; rows `R` of one dtype, whose lengths were checked when
/// they were made): one loop per mode and dtype, so they cost nothing per lane.
#[inline]
fn step_lanes<G: Game, const MODE: u8, const LOSE: bool, R: ChunkRows>(
    ctx: &StepCtx<'_, G>,
    c: usize,
    (st, rn, ep, ac, mut ob, ma, re, te, tr, cp, il, sc): ChunkBufs<'_, G::State, R>,
) {
    let game = ctx.game;
    let (p, a) = ctx.widths;
    let first = (c * ctx.chunk_size) as u64;
    let lanes = st.len();
    // Every buffer holds `lanes` rows (as `step` cut them); said once here, so that the
    // per-lane indexing below needs no bounds checks.
    assert!(
        rn.len() == lanes
            && ep.len() == lanes
            && ac.len() == lanes
            && te.len() == lanes
            && tr.len() == lanes
            && cp.len() == lanes
            && il.len() == lanes
            && sc.len() == lanes
            && ma.len() == lanes * a
            && re.len() == lanes * p
    );
    for j in 0..lanes {
        if j + 1 < lanes {
            prefetch_lane(&st[j + 1], None);
            match MODE {
                OBS_OFF => {}
                OBS_UPDATE => ob.prefetch_update(game, &st[j + 1], j + 1),
                _ => ob.prefetch(j + 1),
            }
        }
        let mut out = LaneOut::in_chunk(j, (p, a), ob.lane(j), ma, re, te, tr, cp);
        il[j] = step_lane::<G, MODE, R::Row<'_>>(
            game,
            &mut st[j],
            &mut rn[j],
            &mut ep[j],
            (ctx.keys, first as usize + j),
            ac[j],
            &mut out,
            ctx.autoreset,
        ) as u8;
        if LOSE && il[j] == ActionStatus::Illegal as u8 {
            forfeit(game, &st[j], &mut out);
        }
        limit_steps(&mut sc[j], il[j], ctx.truncate_past, &mut out);
    }
}

/// Recomputes a lane's flags, mask, current player and (optionally) observation; with
/// `incremental`, the row held the observation before the step just applied and is updated
/// with [`Game::observe_update`] when the game supports it.
#[inline(always)]
fn refresh<G: Game, R: LaneRow>(
    game: &G,
    state: &G::State,
    out: &mut LaneOut<'_, R>,
    observe: bool,
    incremental: bool,
    before: Option<&G::State>,
) {
    let (terminated, truncated) = game.finished(state);
    *out.terminated = terminated;
    *out.truncated = truncated;
    let player = game.current_player(state);
    *out.current_player = player as i32;
    game.legal_mask(state, out.mask);
    if observe {
        match before {
            Some(before) if incremental => out.obs.write_update(game, before, state, player),
            _ => out.obs.write(game, state, player, incremental),
        }
    }
}

/// One lane's step under the batch contract (an illegal action is a no-op here; under
/// [`OnIllegal::Lose`] the chunk's loop then calls [`forfeit`]).
// Inlined always: called once per lane, and LLVM's heuristics left it out of line once the
// loop had a copy per mode, dtype and illegal-action rule (+60 instructions per lane).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn step_lane<G: Game, const MODE: u8, R: LaneRow>(
    game: &G,
    state: &mut G::State,
    rng: &mut LaneRng,
    episode: &mut u64,
    (keys, lane): (&[u64], usize),
    action: u32,
    out: &mut LaneOut<'_, R>,
    autoreset: bool,
) -> ActionStatus {
    simd::zero_f32(out.rewards);
    // The state before the step, for rows that update from it (every seat's rows).
    let mut before = None;
    let status = if *out.terminated || *out.truncated {
        if !autoreset {
            resync_noop::<G, MODE, R>(game, state, out);
            return ActionStatus::Finished;
        }
        *episode += 1;
        *rng = LaneRng::for_key(keys[lane], *episode);
        game.reset_into(rng, state);
        game.deal_rewards(state, out.rewards);
        ActionStatus::Reset
    } else {
        if MODE == OBS_UPDATE && R::WANTS_BEFORE {
            before = Some(*state);
        }
        let outcome = game.step(state, action, rng, out.rewards);
        if !outcome.applied {
            resync_noop::<G, MODE, R>(game, state, out);
            return ActionStatus::Illegal;
        }
        ActionStatus::Applied
    };
    refresh(
        game,
        state,
        out,
        MODE != OBS_OFF,
        MODE == OBS_UPDATE && status == ActionStatus::Applied,
        before.as_ref(),
    );
    status
}

/// [`OnIllegal::Lose`]: the lane ends (terminated, mask empty) with the game's forfeit
/// rewards for the seat to act (its state is kept; the lane is finished by its flag, as a
/// lane truncated by `max_steps` is).
#[cold]
fn forfeit<G: Game, R>(game: &G, state: &G::State, out: &mut LaneOut<'_, R>) {
    game.forfeit_rewards(state, game.current_player(state), out.rewards);
    *out.terminated = true;
    *out.truncated = false;
    out.mask.fill(0);
}

/// Counts an attempted step of a live lane (an applied action or an illegal no-op; a reset
/// starts the count again, a finished lane's no-op does not count) and truncates the lane
/// when its count goes past `truncate_past` (`max_steps - 1`; `u32::MAX`, which no count
/// goes past, when there is no limit: one comparison per lane either way) without being
/// over.
#[inline(always)]
fn limit_steps<R>(steps: &mut u32, status: u8, truncate_past: u32, out: &mut LaneOut<'_, R>) {
    if status == ActionStatus::Reset as u8 {
        *steps = 0;
    } else if status <= ActionStatus::Illegal as u8 {
        *steps = steps.saturating_add(1);
        if *steps > truncate_past && !*out.terminated {
            *out.truncated = true;
        }
    }
}

/// A no-op leaves a lane's outputs alone, unless the rows may be stale ([`OBS_FULL`]):
/// then its row is observed in full, so that every row is in sync after the step.
#[inline]
fn resync_noop<G: Game, const MODE: u8, R: LaneRow>(
    game: &G,
    state: &G::State,
    out: &mut LaneOut<'_, R>,
) {
    if MODE == OBS_FULL {
        out.obs
            .write(game, state, game.current_player(state), false);
    }
}

/// Reorders rows of `width` values so that row `i` becomes row `sources[i]` of `old` (a
/// copy of `data` before the call).
fn gather_rows<T: Copy>(data: &mut [T], old: &[T], sources: &[usize], width: usize) {
    for (dst, &src) in sources.iter().enumerate() {
        data[dst * width..(dst + 1) * width].copy_from_slice(&old[src * width..(src + 1) * width]);
    }
}
