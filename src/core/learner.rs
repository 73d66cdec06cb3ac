//! The learner view ([`LearnerEnv`]): a batch of games in which one seat per lane, the
//! learner's, is played from outside and every other seat by a built-in bot inside Rust.
//! The caller sees only the learner's decisions: its observation, its legal mask and the
//! reward credited to its last action.
//!
//! # One step of one lane
//!
//! ```text
//!             step(a)                                     step(a')          step(_)
//!                |                                           |                 |
//!   learner ply  v   bot ply    bot ply    learner ply       v  bot ply        v  autoreset
//!  ---[obs t]--(a)----(b1)-------(b2)------[obs t+1]-------(a')---(b3)--[END]-----(deal, bots)--[obs 0']
//!               r0  +  r1    +   r2   ->  rewards[l] at t+1  r3  +  r4  -> rewards[l], terminated
//!                                                                         reward 0, illegal = 3
//! ```
//!
//! - A lane shown live is always at a decision of the learner's seat. `step(actions)` applies
//!   the learner's action; an illegal one is what [`EnvOptions::on_illegal`] says: a no-op
//!   (status [`ActionStatus::Illegal`], zero reward, nothing else changes, but it counts as a
//!   ply toward `max_steps`), an [`Error::IllegalAction`] before any lane changes, or the
//!   end of the game (terminated, status [`ActionStatus::Illegal`], the learner seat's
//!   forfeit reward, [`Game::forfeit_rewards`], as the step's reward). Then the bots play every other seat until the learner is
//!   to act again or the game is over. The lane's reward is the sum of the learner seat's
//!   rewards over all those plies, so a terminal reward that lands on a bot's ply is credited
//!   to the learner's decision that preceded it.
//! - Next-step autoreset, always on: the step after a lane finished deals its next game,
//!   ignores the action (status [`ActionStatus::Reset`]), shows zero reward, and the bots play
//!   until the learner's first decision.
//! - A reward the learner's seat receives before its first decision of a game (at the deal,
//!   or on bot plies before it) is credited to that first decision. A game that ends before
//!   the learner ever decides (a hold'em hand folded to the learner's big blind, a hand
//!   over as dealt) is never shown: it is counted (`episodes`, `skipped`, `skipped_return`)
//!   and the next game is dealt in the same call.
//!
//! # Limits (why every call ends)
//!
//! Every game of the registry ends, but a configuration may make every game end before the
//! learner decides (hold'em stacks no larger than the blinds), and a bot could (by a bug)
//! play an illegal action. So: at most [`MAX_REDEALS`] games are dealt in one lane per call;
//! when that many in a row ended before the learner decided, the last one is shown as
//! *truncated* (no decision in it, its learner reward as the step's reward). At most
//! [`MAX_BOT_PLIES`] bot plies are played in one lane per call; a game that reaches the
//! limit, or in which a bot's action is refused, is cut off and shown as truncated.
//!
//! With [`EnvOptions::max_steps`], a game that has taken that many plies (the learner's
//! attempted steps, illegal no-ops included, and the bots' applied actions together, as a
//! [`crate::core::VecEnv`] counts its lane's attempted steps, so both cut the same game at
//! the same point) without ending is cut off and
//! shown as truncated, whoever is to act; if that happens before the learner's first
//! decision, the game is shown truncated with no decision in it (as above).
//!
//! # Streams
//!
//! Game `k` of lane `l` (counting every game dealt in the lane since `reset(seed)`, skipped
//! ones included) is dealt from, and its later randomness drawn from,
//! [`LaneRng::for_lane`]`(seed, l, k)`: the stream a [`crate::core::VecEnv`] gives episode
//! `k` of lane `l`. Its bots draw from a stream keyed by `(seed, l, k)` too, apart from it.
//! After [`LearnerEnv::reset_seeds`]`(seeds)`, lane `l` draws from the streams of
//! `(seeds[l], 0, k)`: the games lane 0 of a view reset with `seeds[l]` plays.
//! With `seat` [`LearnerSeat::Rotate`] the learner's seat in game `k` of lane `l` is
//! `(l + k) % num_players`. Nothing depends on the thread count or the chunk size.

use std::any::Any;

use rayon::prelude::*;

use super::env::{refused_lanes, refuses, EnvOptions, OnIllegal};
use super::error::{Error, Result};
use super::game::{ActionStatus, Game};
use super::mem::{lane_rows, try_vec, HugeBuf};
use super::policy::{act_lanes, check_batchable, Bot, LaneBatch};
use super::pool::ForkSafePool;
use super::rng::LaneRng;
use super::spec::{GameInfo, GameSpec, Options};

/// Most games dealt in one lane by one call ([`LearnerEnv::reset`] or
/// [`LearnerEnv::step`]): when this many in a row end before the learner decides, the last
/// is shown truncated (see the module documentation).
pub const MAX_REDEALS: u32 = 100;

/// Most bot plies played in one lane by one call: a game that needs more before the
/// learner's next decision is cut off and shown truncated.
pub const MAX_BOT_PLIES: u32 = 1 << 16;

/// Key that keeps the bots' streams apart from the games' streams.
const BOT_STREAM_KEY: u64 = 0x6c65_6172_6e65_7221;

/// Which seat the learner plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LearnerSeat {
    /// The same seat in every game.
    Fixed(usize),
    /// Seat `(l + k) % num_players` in game `k` of lane `l`.
    Rotate,
}

impl LearnerSeat {
    /// The learner's seat in game `game` (counted from 0 since the reset) of lane `lane`.
    pub fn seat(self, lane: usize, game: u64, num_players: usize) -> usize {
        match self {
            LearnerSeat::Fixed(s) => s,
            LearnerSeat::Rotate => {
                let p = num_players as u64;
                ((lane as u64 % p + game % p) % p) as usize
            }
        }
    }
}

/// What a lane keeps besides its state and outputs.
#[derive(Clone, Debug)]
struct LaneCtl {
    /// The game's stream (deal and later randomness).
    rng: LaneRng,
    /// The bots' stream.
    bot_rng: LaneRng,
    /// The keys ([`LaneRng::lane_key`]) of the lane's game and bot streams: game `k` draws
    /// from [`LaneRng::for_key`]`(keys.0, k)`, its bots from `for_key(keys.1, k)`.
    keys: (u64, u64),
    /// Index of the lane's current game since the reset.
    game: u64,
    /// The learner's rewards of the current game not yet shown (those before its first
    /// decision).
    carry: f32,
    /// Plies (learner's attempted steps and bots' applied actions) of the current game, for
    /// `max_steps`.
    plies: u32,
}

/// The learner view of `num_envs` lanes of a game (see the module documentation).
///
/// # Output buffers
///
/// Allocated once by [`LearnerEnv::new`], never moved nor resized (Python views them), and
/// written by [`LearnerEnv::reset`] and [`LearnerEnv::step`] only:
/// [`obs`](LearnerEnv::obs) `[N, obs_dim]`, [`legal_mask`](LearnerEnv::legal_mask)
/// `[N, num_actions]`, [`rewards`](LearnerEnv::rewards) `[N]` (the learner's only),
/// [`terminated`](LearnerEnv::terminated), [`truncated`](LearnerEnv::truncated),
/// [`illegal`](LearnerEnv::illegal), [`seat`](LearnerEnv::seat),
/// [`episode_return`](LearnerEnv::episode_return),
/// [`episode_length`](LearnerEnv::episode_length), [`episodes`](LearnerEnv::episodes),
/// [`skipped`](LearnerEnv::skipped) and [`skipped_return`](LearnerEnv::skipped_return).
pub struct LearnerEnv<G: Game> {
    game: G,
    bots: Vec<Box<dyn Bot<G>>>,
    opponents: Vec<String>,
    seat_rule: LearnerSeat,
    options: EnvOptions,
    pool: &'static ForkSafePool,
    states: HugeBuf<G::State>,
    ctl: Vec<LaneCtl>,
    /// Scratch rewards of one ply, `[N, num_players]`.
    ply_rewards: Vec<f32>,
    obs: HugeBuf<f32>,
    mask: Vec<u8>,
    rewards: Vec<f32>,
    terminated: Vec<bool>,
    truncated: Vec<bool>,
    illegal: Vec<u8>,
    seat: Vec<i32>,
    episode_return: Vec<f32>,
    episode_length: Vec<i32>,
    episodes: Vec<u64>,
    skipped: Vec<u64>,
    skipped_return: Vec<f64>,
}

/// One lane's state, bookkeeping and outputs, borrowed together.
struct Lane<'a, G: Game> {
    index: usize,
    state: &'a mut G::State,
    ctl: &'a mut LaneCtl,
    ply_rewards: &'a mut [f32],
    obs: &'a mut [f32],
    mask: &'a mut [u8],
    reward: &'a mut f32,
    terminated: &'a mut bool,
    truncated: &'a mut bool,
    illegal: &'a mut u8,
    seat: &'a mut i32,
    episode_return: &'a mut f32,
    episode_length: &'a mut i32,
    episodes: &'a mut u64,
    skipped: &'a mut u64,
    skipped_return: &'a mut f64,
}

/// What every lane of a call shares.
struct Ctx<'g, G: Game> {
    game: &'g G,
    bots: &'g [Box<dyn Bot<G>>],
    seat_rule: LearnerSeat,
    /// [`EnvOptions::max_steps`], 0 when off.
    max_steps: u32,
    /// [`EnvOptions::on_illegal`] (a step under [`OnIllegal::Raise`] has checked every
    /// action already).
    on_illegal: OnIllegal,
}

impl<G: Game> Ctx<'_, G> {
    /// The bot of `seat` when the learner sits at `learner` (the bots fill the other seats
    /// in seat order).
    fn bot_of(&self, seat: usize, learner: usize) -> &dyn Bot<G> {
        &*self.bots[if seat < learner { seat } else { seat - 1 }]
    }

    /// Plays bot plies until the learner is to act or the game is over. Returns the
    /// learner seat's rewards over them and whether the game was cut off (the bot ply
    /// limit or `max_steps` reached, or a bot's action refused).
    fn play_bots(&self, lane: &mut Lane<'_, G>) -> (f32, bool) {
        let game = self.game;
        let learner = *lane.seat as usize;
        let mut total = 0.0;
        for plies in 0..=MAX_BOT_PLIES {
            let (terminated, truncated) = game.finished(lane.state);
            if terminated || truncated {
                return (total, false);
            }
            if self.max_steps != 0 && lane.ctl.plies >= self.max_steps {
                return (total, true);
            }
            let to_act = game.current_player(lane.state);
            if to_act == learner {
                return (total, false);
            }
            if plies == MAX_BOT_PLIES {
                break;
            }
            // The mask row serves as scratch: it is rewritten for the learner afterwards.
            game.legal_mask(lane.state, lane.mask);
            let action = self.bot_of(to_act, learner).act(
                game,
                lane.state,
                lane.mask,
                &mut lane.ctl.bot_rng,
            );
            lane.ply_rewards.fill(0.0);
            let outcome = game.step(lane.state, action, &mut lane.ctl.rng, lane.ply_rewards);
            if !outcome.applied {
                return (total, true);
            }
            lane.ctl.plies += 1;
            total += lane.ply_rewards[learner];
        }
        (total, true)
    }

    /// Writes the lane's flags, mask and observation (as seen by the learner's seat);
    /// `cut` shows it truncated whatever its state says. Counts a finished episode.
    fn show(&self, lane: &mut Lane<'_, G>, cut: bool) {
        let shown = if cut {
            (false, true)
        } else {
            self.game.finished(lane.state)
        };
        self.show_as(lane, shown);
    }

    /// [`Ctx::show`] with the flags `(terminated, truncated)` given.
    fn show_as(&self, lane: &mut Lane<'_, G>, (terminated, truncated): (bool, bool)) {
        let game = self.game;
        *lane.terminated = terminated;
        *lane.truncated = truncated;
        if terminated || truncated {
            lane.mask.fill(0);
            *lane.episodes += 1;
        } else {
            game.legal_mask(lane.state, lane.mask);
        }
        game.observe(lane.state, *lane.seat as usize, lane.obs);
    }

    /// Deals game `lane.ctl.game` and the ones after it until the learner has a decision
    /// (or [`MAX_REDEALS`] games ended without one), and shows the lane.
    fn start_episode(&self, lane: &mut Lane<'_, G>) {
        let game = self.game;
        let p = game.num_players();
        let mut dealt = 0;
        loop {
            let k = lane.ctl.game;
            lane.ctl.rng = LaneRng::for_key(lane.ctl.keys.0, k);
            lane.ctl.bot_rng = LaneRng::for_key(lane.ctl.keys.1, k);
            *lane.state = game.reset(&mut lane.ctl.rng);
            lane.ctl.plies = 0;
            let seat = self.seat_rule.seat(lane.index, k, p);
            *lane.seat = seat as i32;
            *lane.episode_return = 0.0;
            *lane.episode_length = 0;
            lane.ply_rewards.fill(0.0);
            game.deal_rewards(lane.state, lane.ply_rewards);
            let mut carry = lane.ply_rewards[seat];
            let (before, cut) = self.play_bots(lane);
            carry += before;
            dealt += 1;
            let (terminated, truncated) = game.finished(lane.state);
            if !(terminated || truncated || cut) {
                lane.ctl.carry = carry;
                self.show(lane, false);
                return;
            }
            if cut || dealt == MAX_REDEALS {
                lane.ctl.carry = 0.0;
                *lane.reward += carry;
                *lane.episode_return = carry;
                self.show(lane, true);
                return;
            }
            *lane.episodes += 1;
            *lane.skipped += 1;
            *lane.skipped_return += carry as f64;
            lane.ctl.game += 1;
        }
    }

    /// One lane's step (see the module documentation).
    fn step(&self, lane: &mut Lane<'_, G>, action: u32) {
        *lane.reward = 0.0;
        if *lane.terminated || *lane.truncated {
            *lane.illegal = ActionStatus::Reset as u8;
            lane.ctl.game += 1;
            self.start_episode(lane);
            return;
        }
        let learner = *lane.seat as usize;
        lane.ply_rewards.fill(0.0);
        let outcome = self
            .game
            .step(lane.state, action, &mut lane.ctl.rng, lane.ply_rewards);
        if !outcome.applied {
            *lane.illegal = ActionStatus::Illegal as u8;
            if self.on_illegal == OnIllegal::Lose {
                lane.ply_rewards.fill(0.0);
                self.game
                    .forfeit_rewards(lane.state, learner, lane.ply_rewards);
                let reward = std::mem::take(&mut lane.ctl.carry) + lane.ply_rewards[learner];
                *lane.reward = reward;
                *lane.episode_return += reward;
                self.show_as(lane, (true, false));
                return;
            }
            lane.ctl.plies += 1;
            if self.max_steps != 0 && lane.ctl.plies >= self.max_steps {
                self.show(lane, true);
            }
            return;
        }
        *lane.illegal = ActionStatus::Applied as u8;
        lane.ctl.plies += 1;
        let mine = std::mem::take(&mut lane.ctl.carry) + lane.ply_rewards[learner];
        let (theirs, cut) = self.play_bots(lane);
        let reward = mine + theirs;
        *lane.reward = reward;
        *lane.episode_return += reward;
        *lane.episode_length += 1;
        self.show(lane, cut);
    }
}

impl<G: Game> LearnerEnv<G> {
    /// A learner view of `game`: `bots` play the seats other than the learner's, in seat
    /// order (`num_players - 1` of them), `opponents` are their names (what
    /// [`LearnerEnv::opponents`] reports), `seat` places the learner, and `options` gives
    /// `num_envs`, `seed`, `num_threads`, `chunk_size`, `max_steps` (plies per game, see
    /// the module documentation; `Some(0)` is refused) and `on_illegal` (`Lose` needs the
    /// game's forfeit rule) (autoreset is always on and the
    /// learner's observation is computed at every step: `autoreset` and `observe_on_step`
    /// are ignored). Every lane is reset with `options.seed`.
    ///
    /// Errors: a bot count other than `num_players - 1`, a fixed seat out of range, a bot
    /// that remembers between decisions ([`Bot::remembers`]), options out of range, memory
    /// refused.
    pub fn new(
        game: G,
        bots: Vec<Box<dyn Bot<G>>>,
        opponents: Vec<String>,
        seat: LearnerSeat,
        options: EnvOptions,
    ) -> Result<Self> {
        let p = game.num_players();
        if bots.len() + 1 != p || opponents.len() != bots.len() {
            return Err(Error::Invalid {
                what: "opponents",
                reason: format!(
                    "the game has {p} seats: give one bot for every other seat ({}), got {}",
                    p - 1,
                    bots.len()
                ),
            });
        }
        if let LearnerSeat::Fixed(s) = seat {
            Error::check_range("seat", 0, p - 1, s)?;
        }
        for bot in &bots {
            check_batchable(&**bot)?;
        }
        options.check()?;
        options.check_game(&game)?;
        // Checks `num_threads` (1..=MAX_THREADS); the pool of that many workers is shared by
        // every environment of the process that asks for the same count.
        let pool = ForkSafePool::with_threads(options.num_threads)?;
        let n = options.num_envs;
        let mut env = Self::allocate(game, bots, opponents, seat, options, pool)
            .map_err(|e| e.in_context(|| format!("num_envs={n}")))?;
        env.reset(env.options.seed);
        Ok(env)
    }

    fn allocate(
        game: G,
        bots: Vec<Box<dyn Bot<G>>>,
        opponents: Vec<String>,
        seat_rule: LearnerSeat,
        options: EnvOptions,
        pool: &'static ForkSafePool,
    ) -> Result<Self> {
        let n = options.num_envs;
        let (p, a, d) = (game.num_players(), game.num_actions(), game.obs_dim());
        let mut rng0 = LaneRng::for_lane(options.seed, 0, 0);
        let blank = game.reset(&mut rng0);
        let ctl0 = LaneCtl {
            rng: rng0.clone(),
            bot_rng: rng0,
            keys: (0, 0),
            game: 0,
            carry: 0.0,
            plies: 0,
        };
        Ok(LearnerEnv {
            obs: HugeBuf::try_filled(lane_rows::<f32>(n, d, "observations")?, 0.0, "observations")?,
            states: HugeBuf::try_filled(n, blank, "lane states")?,
            mask: try_vec(lane_rows::<u8>(n, a, "legal masks")?, 0, "legal masks")?,
            ply_rewards: try_vec(lane_rows::<f32>(n, p, "rewards")?, 0.0, "rewards")?,
            ctl: try_vec(n, ctl0, "lane streams")?,
            rewards: try_vec(n, 0.0, "rewards")?,
            terminated: try_vec(n, false, "terminated flags")?,
            truncated: try_vec(n, false, "truncated flags")?,
            illegal: try_vec(n, 0, "action status codes")?,
            seat: try_vec(n, 0, "learner seats")?,
            episode_return: try_vec(n, 0.0, "episode returns")?,
            episode_length: try_vec(n, 0, "episode lengths")?,
            episodes: try_vec(n, 0, "episode counters")?,
            skipped: try_vec(n, 0, "episode counters")?,
            skipped_return: try_vec(n, 0.0, "episode returns")?,
            game,
            bots,
            opponents,
            seat_rule,
            options,
            pool,
        })
    }

    /// Runs `f` on every lane, in parallel over chunks of `chunk_size` lanes, with the
    /// lane's action (`0` when `actions` is empty).
    fn for_each_lane(
        &mut self,
        actions: &[u32],
        f: impl Fn(&Ctx<'_, G>, &mut Lane<'_, G>, u32) + Sync,
    ) {
        let cs = self.options.chunk_size;
        let (p, a, d) = (
            self.game.num_players(),
            self.game.num_actions(),
            self.game.obs_dim(),
        );
        let ctx = Ctx {
            game: &self.game,
            bots: &self.bots,
            seat_rule: self.seat_rule,
            max_steps: self.options.max_steps.unwrap_or(0),
            on_illegal: self.options.on_illegal,
        };
        let lanes = (
            self.states.par_chunks_mut(cs),
            self.ctl.par_chunks_mut(cs),
            self.ply_rewards.par_chunks_mut(cs * p),
            self.obs.par_chunks_mut(cs * d),
            self.mask.par_chunks_mut(cs * a),
            self.rewards.par_chunks_mut(cs),
        );
        let flags = (
            self.terminated.par_chunks_mut(cs),
            self.truncated.par_chunks_mut(cs),
            self.illegal.par_chunks_mut(cs),
            self.seat.par_chunks_mut(cs),
        );
        let stats = (
            self.episode_return.par_chunks_mut(cs),
            self.episode_length.par_chunks_mut(cs),
            self.episodes.par_chunks_mut(cs),
            self.skipped.par_chunks_mut(cs),
            self.skipped_return.par_chunks_mut(cs),
        );
        let work = (
            lanes.into_par_iter(),
            flags.into_par_iter(),
            stats.into_par_iter(),
        );
        self.pool.install(|| {
            work.into_par_iter().enumerate().for_each(
                |(c, ((st, ct, pr, ob, ma, re), (te, tr, il, se), (er, el, ep, sk, sr)))| {
                    for j in 0..st.len() {
                        let index = c * cs + j;
                        let mut lane = Lane {
                            index,
                            state: &mut st[j],
                            ctl: &mut ct[j],
                            ply_rewards: &mut pr[j * p..(j + 1) * p],
                            obs: &mut ob[j * d..(j + 1) * d],
                            mask: &mut ma[j * a..(j + 1) * a],
                            reward: &mut re[j],
                            terminated: &mut te[j],
                            truncated: &mut tr[j],
                            illegal: &mut il[j],
                            seat: &mut se[j],
                            episode_return: &mut er[j],
                            episode_length: &mut el[j],
                            episodes: &mut ep[j],
                            skipped: &mut sk[j],
                            skipped_return: &mut sr[j],
                        };
                        f(&ctx, &mut lane, actions.get(index).copied().unwrap_or(0));
                    }
                },
            )
        });
    }

    /// Resets every lane with `seed`: lane `l` deals its game 0 from stream `(seed, l, 0)`
    /// and the bots play until the learner's first decision (games that end before it are
    /// counted and redealt). Rewards, episode counters and statistics restart from zero.
    pub fn reset(&mut self, seed: u64) {
        self.options.seed = seed;
        self.restart(|l| (seed, l as u64));
    }

    /// Resets every lane with a seed of its own (`seeds`: one per lane): lane `l` plays the
    /// games, and its bots the moves, that lane 0 of a learner view reset with `seeds[l]`
    /// plays (its streams are keyed `(seeds[l], 0)`), whatever the thread count.
    /// `options().seed` is left as it was. A wrong length is an error that changes nothing.
    pub fn reset_seeds(&mut self, seeds: &[u64]) -> Result<()> {
        Error::check_len("seeds", self.num_envs(), seeds.len())?;
        self.restart(|l| (seeds[l], 0));
        Ok(())
    }

    /// Restarts every lane `l` on the streams of `(seed, index) = key_of(l)`.
    fn restart(&mut self, key_of: impl Fn(usize) -> (u64, u64) + Sync) {
        self.for_each_lane(&[], |ctx, lane, _| {
            let (seed, index) = key_of(lane.index);
            lane.ctl.keys = (
                LaneRng::lane_key(seed, index),
                LaneRng::lane_key(seed ^ BOT_STREAM_KEY, index),
            );
            lane.ctl.game = 0;
            lane.ctl.carry = 0.0;
            *lane.reward = 0.0;
            *lane.illegal = ActionStatus::Applied as u8;
            *lane.episodes = 0;
            *lane.skipped = 0;
            *lane.skipped_return = 0.0;
            ctx.start_episode(lane);
        });
    }

    /// Steps every lane with the learner's action (one per lane; any `u32`; an illegal one
    /// is what [`EnvOptions::on_illegal`] says): see the module documentation. A wrong
    /// length, or under [`OnIllegal::Raise`] an illegal action on a live lane
    /// ([`Error::IllegalAction`], naming the lanes), is an error that changes nothing.
    pub fn step(&mut self, actions: &[u32]) -> Result<()> {
        Error::check_len("actions", self.num_envs(), actions.len())?;
        if self.options.on_illegal == OnIllegal::Raise {
            self.check_actions(actions)?;
        }
        self.for_each_lane(actions, |ctx, lane, action| ctx.step(lane, action));
        Ok(())
    }

    /// The action `bot` picks for the learner's seat in every lane selected by `selected`
    /// (`None`: every lane) that is at a decision, into `out`
    /// ([`NO_ACTION`](super::policy::NO_ACTION) for the others), as
    /// [`VecEnv::bot_actions`](super::VecEnv::bot_actions) does: a baseline to play in the
    /// learner's place.
    pub fn bot_actions(
        &self,
        bot: &dyn Bot<G>,
        selected: Option<&[bool]>,
        seed: u64,
        out: &mut [i64],
    ) -> Result<()> {
        let lanes = LaneBatch {
            states: &self.states,
            masks: &self.mask,
            terminated: &self.terminated,
            truncated: &self.truncated,
        };
        let cs = self.options.chunk_size;
        self.pool
            .install(|| act_lanes(&self.game, bot, &lanes, selected, seed, cs, out))
    }

    /// [`OnIllegal::Raise`]: an [`Error::IllegalAction`] naming every live lane whose
    /// learner action the game would refuse, or nothing (reads only).
    fn check_actions(&self, actions: &[u32]) -> Result<()> {
        let refused = |i: usize| {
            refuses(
                &self.game,
                &self.states[i],
                &self.ctl[i].rng,
                &self.mask,
                (self.terminated[i], self.truncated[i]),
                i,
                actions[i],
            )
        };
        refused_lanes(self.pool, self.options.chunk_size, actions, refused)
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
    /// The names of the bots of the other seats, in seat order (skipping the learner's).
    pub fn opponents(&self) -> &[String] {
        &self.opponents
    }
    /// The step limit per game ([`EnvOptions::max_steps`]: plies of every seat).
    pub fn max_steps(&self) -> Option<u32> {
        self.options.max_steps
    }
    /// What an illegal learner action does ([`EnvOptions::on_illegal`]).
    pub fn on_illegal(&self) -> OnIllegal {
        self.options.on_illegal
    }
    /// Which seat the learner plays.
    pub fn seat_rule(&self) -> LearnerSeat {
        self.seat_rule
    }
    /// The lane states.
    pub fn states(&self) -> &[G::State] {
        &self.states
    }
    /// Observations `[N, obs_dim]` as seen by the learner's seat (at a finished lane, the
    /// final observation).
    pub fn obs(&self) -> &[f32] {
        &self.obs
    }
    /// Legal masks of the learner `[N, num_actions]` (all zero at a finished lane).
    pub fn legal_mask(&self) -> &[u8] {
        &self.mask
    }
    /// The learner's reward of the last step `[N]`.
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
    /// What happened to each lane's last action `[N]`, as [`ActionStatus`] codes.
    pub fn illegal(&self) -> &[u8] {
        &self.illegal
    }
    /// The learner's seat in each lane's current game `[N]`.
    pub fn seat(&self) -> &[i32] {
        &self.seat
    }
    /// The learner's return in each lane's current episode so far `[N]`: at a finished
    /// lane, the whole episode's.
    pub fn episode_return(&self) -> &[f32] {
        &self.episode_return
    }
    /// The learner's decisions (actions applied) in each lane's current episode so far
    /// `[N]`: at a finished lane, the whole episode's.
    pub fn episode_length(&self) -> &[i32] {
        &self.episode_length
    }
    /// Games finished in each lane since the reset `[N]`, skipped ones included.
    pub fn episodes(&self) -> &[u64] {
        &self.episodes
    }
    /// Games of each lane since the reset that ended before the learner's first decision
    /// and were never shown `[N]`.
    pub fn skipped(&self) -> &[u64] {
        &self.skipped
    }
    /// The learner seat's total reward in the skipped games of each lane `[N]`.
    pub fn skipped_return(&self) -> &[f64] {
        &self.skipped_return
    }
}

/// The bots of the seats other than the learner's, by name (`crate::agents::bot`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Opponents {
    /// The same bot at every other seat.
    Every(String),
    /// One bot per other seat, in seat order skipping the learner's (`num_players - 1`).
    Each(Vec<String>),
}

impl<G: GameSpec> LearnerEnv<G> {
    /// A learner view whose other seats are played by the bots `opponents` names, each name
    /// made a bot by `resolve` (`crate::agents::bot` knows every name: the game's own bots
    /// and the families above the games; `crate::agents::learner` passes it). A list
    /// ([`Opponents::Each`]) of another length than `num_players - 1`, or a name `resolve`
    /// refuses, is an error. See [`LearnerEnv::new`] for the rest.
    pub fn with_bots(
        game: G,
        opponents: &Opponents,
        seat: LearnerSeat,
        options: EnvOptions,
        resolve: impl Fn(&G, &str) -> Result<Box<dyn Bot<G>>>,
    ) -> Result<Self> {
        let others = game.num_players() - 1;
        let names: Vec<String> = match opponents {
            Opponents::Every(name) => vec![name.clone(); others],
            Opponents::Each(names) if names.len() == others => names.clone(),
            Opponents::Each(names) => {
                return Err(Error::Invalid {
                    what: "opponents",
                    reason: format!(
                        "the game has {} seats: give one bot name for every other seat, or a \
                         list of {others}, got a list of {}",
                        others + 1,
                        names.len()
                    ),
                })
            }
        };
        let bots = names
            .iter()
            .map(|name| resolve(&game, name))
            .collect::<Result<Vec<_>>>()?;
        LearnerEnv::new(game, bots, names, seat, options)
    }
}

/// A [`LearnerEnv`] of any registered game behind one object type (what Python holds).
pub trait DynLearner: Send + Sync {
    /// The game's registry entry.
    fn info(&self) -> &'static GameInfo;
    /// The game's configuration, every option given.
    fn config(&self) -> Options;
    /// Number of lanes.
    fn num_envs(&self) -> usize;
    /// Number of seats.
    fn num_players(&self) -> usize;
    /// Size of the action space.
    fn num_actions(&self) -> usize;
    /// Length of one observation row.
    fn obs_dim(&self) -> usize;
    /// See [`LearnerEnv::options`].
    fn env_options(&self) -> &EnvOptions;
    /// See [`LearnerEnv::opponents`].
    fn opponents(&self) -> &[String];
    /// See [`LearnerEnv::seat_rule`].
    fn seat_rule(&self) -> LearnerSeat;
    /// See [`LearnerEnv::reset`].
    fn reset(&mut self, seed: u64);
    /// See [`LearnerEnv::reset_seeds`].
    fn reset_seeds(&mut self, seeds: &[u64]) -> Result<()>;
    /// See [`LearnerEnv::step`].
    fn step(&mut self, actions: &[u32]) -> Result<()>;
    /// See [`LearnerEnv::obs`].
    fn obs(&self) -> &[f32];
    /// See [`LearnerEnv::legal_mask`].
    fn legal_mask(&self) -> &[u8];
    /// See [`LearnerEnv::rewards`].
    fn rewards(&self) -> &[f32];
    /// See [`LearnerEnv::terminated`].
    fn terminated(&self) -> &[bool];
    /// See [`LearnerEnv::truncated`].
    fn truncated(&self) -> &[bool];
    /// See [`LearnerEnv::illegal`].
    fn illegal(&self) -> &[u8];
    /// See [`LearnerEnv::seat`].
    fn seat(&self) -> &[i32];
    /// See [`LearnerEnv::episode_return`].
    fn episode_return(&self) -> &[f32];
    /// See [`LearnerEnv::episode_length`].
    fn episode_length(&self) -> &[i32];
    /// See [`LearnerEnv::episodes`].
    fn episodes(&self) -> &[u64];
    /// See [`LearnerEnv::skipped`].
    fn skipped(&self) -> &[u64];
    /// See [`LearnerEnv::skipped_return`].
    fn skipped_return(&self) -> &[f64];
    /// The game's view of lane `lane` as its learner's seat sees it ([`Words::view`]: every
    /// card shown with `reveal`), the JSON the web table draws; an error for a lane out of
    /// range.
    ///
    /// [`Words::view`]: crate::core::Words::view
    fn view(&self, lane: usize, reveal: bool) -> Result<serde_json::Value>;
    /// The environment itself, to downcast to its [`LearnerEnv`] type.
    fn as_any(&self) -> &dyn Any;
}

impl<G: GameSpec> DynLearner for LearnerEnv<G> {
    fn info(&self) -> &'static GameInfo {
        &G::INFO
    }
    fn config(&self) -> Options {
        self.game.options()
    }
    fn num_envs(&self) -> usize {
        LearnerEnv::num_envs(self)
    }
    fn num_players(&self) -> usize {
        self.game.num_players()
    }
    fn num_actions(&self) -> usize {
        self.game.num_actions()
    }
    fn obs_dim(&self) -> usize {
        self.game.obs_dim()
    }
    fn env_options(&self) -> &EnvOptions {
        &self.options
    }
    fn opponents(&self) -> &[String] {
        &self.opponents
    }
    fn seat_rule(&self) -> LearnerSeat {
        self.seat_rule
    }
    fn reset(&mut self, seed: u64) {
        LearnerEnv::reset(self, seed)
    }
    fn reset_seeds(&mut self, seeds: &[u64]) -> Result<()> {
        LearnerEnv::reset_seeds(self, seeds)
    }
    fn step(&mut self, actions: &[u32]) -> Result<()> {
        LearnerEnv::step(self, actions)
    }
    fn obs(&self) -> &[f32] {
        &self.obs
    }
    fn legal_mask(&self) -> &[u8] {
        &self.mask
    }
    fn rewards(&self) -> &[f32] {
        &self.rewards
    }
    fn terminated(&self) -> &[bool] {
        &self.terminated
    }
    fn truncated(&self) -> &[bool] {
        &self.truncated
    }
    fn illegal(&self) -> &[u8] {
        &self.illegal
    }
    fn seat(&self) -> &[i32] {
        &self.seat
    }
    fn episode_return(&self) -> &[f32] {
        &self.episode_return
    }
    fn episode_length(&self) -> &[i32] {
        &self.episode_length
    }
    fn episodes(&self) -> &[u64] {
        &self.episodes
    }
    fn skipped(&self) -> &[u64] {
        &self.skipped
    }
    fn skipped_return(&self) -> &[f64] {
        &self.skipped_return
    }
    fn view(&self, lane: usize, reveal: bool) -> Result<serde_json::Value> {
        Error::check_range("lane", 0, self.num_envs() as i64 - 1, lane as i64)?;
        let seat = self.seat[lane].max(0) as usize;
        Ok(crate::core::Words::view(
            &self.game,
            &self.states[lane],
            seat,
            reveal,
        ))
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}
