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
//!
//! # Opponent pools (self-play)
//!
//! The other seats are played by an *entry* of the opponent pool: a set of bots (one
//! name for every other seat, or one per seat), each entry with a weight. At construction
//! the pool is the one entry the view was built with. [`LearnerEnv::set_pool`] replaces it
//! between steps (a new checkpoint, `policy:<path>`, added; weights changed): a lane draws
//! its entry when its game starts, from a stream of its own keyed by `(seed, l, k)`, and
//! keeps it for the whole game, so games in progress never change opponents.
//! [`LearnerEnv::opponent_ids`] tells each lane's entry (ids are stable: the same names
//! keep their id), so results can be tallied per opponent.
//!
//! # Batched bot plies
//!
//! Inside a call, the bots of a chunk's lanes play in rounds: every lane that waits for a
//! bot ply is grouped with the lanes that wait for the same bot (pool entry and seat), and
//! each group is one [`Bot::act_batch`] call (a policy network: one forward pass over the
//! group). Each lane draws from its own bot stream and a bot's action for a state does not
//! depend on the other states of its batch, so the games are those of one lane at a time.

use std::any::Any;

use rayon::prelude::*;

use super::env::{refused_lanes, refuses, EnvOptions, OnIllegal};
use super::error::{Error, Result};
use super::game::{ActionStatus, Game};
use super::mem::{lane_rows, try_vec, HugeBuf};
use super::policy::{check_batchable, Bot, LaneBatch};
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

/// Key that keeps the opponent draws' streams apart from the bots' streams.
const POOL_STREAM_KEY: u64 = 0x706f_6f6c_6472_6177;

/// Most entries an opponent pool may hold.
pub const MAX_POOL: usize = 1 << 16;

/// Resolves a bot name into a bot for the game (what [`LearnerEnv::set_pool`] calls; the
/// view built by [`LearnerEnv::with_bots`] keeps the resolver it was given).
pub type Resolver<G> = fn(&G, &str) -> Result<Box<dyn Bot<G>>>;

/// One set of opponents a lane can draw: the bots of the seats other than the learner's.
struct Entry<G: Game> {
    /// Their names, one per other seat in seat order (skipping the learner's).
    names: Vec<String>,
    /// The bots, `None` once the entry is neither in the pool nor playing in any lane.
    bots: Option<Vec<Box<dyn Bot<G>>>>,
}

impl<G: Game> Entry<G> {
    /// The entry's name: the bot name when every other seat has the same bot, else the
    /// names joined by `" | "`.
    fn label(&self) -> String {
        if self.names.iter().all(|n| *n == self.names[0]) {
            self.names[0].clone()
        } else {
            self.names.join(" | ")
        }
    }
}

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
    /// The id of the pool entry playing the other seats in the current game.
    entry: u32,
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
/// [`seat_returns`](LearnerEnv::seat_returns) `[N, num_players]`,
/// [`episode_length`](LearnerEnv::episode_length), [`episodes`](LearnerEnv::episodes),
/// [`skipped`](LearnerEnv::skipped) and [`skipped_return`](LearnerEnv::skipped_return).
pub struct LearnerEnv<G: Game> {
    game: G,
    /// Every opponent entry ever added, by id (an id is never reused).
    entries: Vec<Entry<G>>,
    /// The opponent pool: `(entry id, weight)`, what a lane draws from when a game starts.
    opponent_pool: Vec<(u32, f64)>,
    resolve: Option<Resolver<G>>,
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
    opponent: Vec<i64>,
    episode_return: Vec<f32>,
    /// Every seat's rewards in the lane's current game, `[N, num_players]`.
    seat_returns: Vec<f32>,
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
    opponent: &'a mut i64,
    episode_return: &'a mut f32,
    seat_returns: &'a mut [f32],
    episode_length: &'a mut i32,
    episodes: &'a mut u64,
    skipped: &'a mut u64,
    skipped_return: &'a mut f64,
}

/// What every lane of a call shares.
struct Ctx<'g, G: Game> {
    game: &'g G,
    entries: &'g [Entry<G>],
    /// The pool as `(entry id, cumulative weight)`.
    draws: Vec<(u32, f64)>,
    seat_rule: LearnerSeat,
    /// [`EnvOptions::max_steps`], 0 when off.
    max_steps: u32,
    /// [`EnvOptions::on_illegal`] (a step under [`OnIllegal::Raise`] has checked every
    /// action already).
    on_illegal: OnIllegal,
}

impl<G: Game> Ctx<'_, G> {
    /// The bot of `seat` in entry `entry` when the learner sits at `learner` (the bots fill
    /// the other seats in seat order).
    fn bot_of(&self, entry: u32, seat: usize, learner: usize) -> &dyn Bot<G> {
        let bots = self.entries[entry as usize]
            .bots
            .as_ref()
            .expect("a lane's entry keeps its bots");
        &*bots[if seat < learner { seat } else { seat - 1 }]
    }

    /// The pool entry drawn with `rng`: entry `i` with probability `weight_i / total`.
    fn draw(&self, rng: &mut LaneRng) -> u32 {
        let total = self.draws.last().map_or(0.0, |d| d.1);
        let u = rng.unit_f64() * total;
        self.draws
            .iter()
            .find(|&&(_, cum)| u < cum)
            .or(self.draws.iter().rev().find(|d| d.1 > 0.0))
            .map_or(0, |d| d.0)
    }

    /// Whether the lane's bots have a ply to play, as the learner waits: `Ok(seat)` the
    /// seat of the bot to act, or `Err(cut)` when they are done: the learner is to act or
    /// the game is over (`false`), or the game is cut off (`true`: `max_steps` reached, or
    /// `plies` bot plies already played in this call, [`MAX_BOT_PLIES`]).
    fn bot_turn(&self, lane: &Lane<'_, G>, plies: u32) -> std::result::Result<usize, bool> {
        let game = self.game;
        let (terminated, truncated) = game.finished(lane.state);
        if terminated || truncated {
            return Err(false);
        }
        if self.max_steps != 0 && lane.ctl.plies >= self.max_steps {
            return Err(true);
        }
        let to_act = game.current_player(lane.state);
        if to_act == *lane.seat as usize {
            return Err(false);
        }
        if plies == MAX_BOT_PLIES {
            return Err(true);
        }
        Ok(to_act)
    }

    /// Plays the bots of every lane of `lanes` whose [`Pending`] waits for them, until none
    /// does, and runs each lane's continuation when its bots are done ([`Ctx::resume`],
    /// which may deal a game whose bots play in turn). At each round the lanes that need a
    /// bot ply are grouped by bot and each group is one [`Bot::act_batch`] call (a policy
    /// network: one forward pass over the group); each lane draws from its own bot stream,
    /// so the actions are the ones the lanes would get one by one.
    fn play_all(&self, lanes: &mut [Lane<'_, G>], pending: &mut [Pending]) {
        let learner_of = |lane: &Lane<'_, G>| *lane.seat as usize;
        let mut need: Vec<(usize, usize)> = Vec::new();
        loop {
            need.clear();
            for (j, lane) in lanes.iter_mut().enumerate() {
                // A lane whose bots are done continues (maybe dealing a game whose bots
                // play), until it needs a bot ply or is finished with.
                while !matches!(pending[j].cont, Cont::Done) {
                    match self.bot_turn(lane, pending[j].plies) {
                        Ok(seat) => {
                            need.push((j, seat));
                            break;
                        }
                        Err(cut) => {
                            let done = std::mem::replace(&mut pending[j], Pending::done());
                            pending[j] = self.resume(lane, done, cut);
                        }
                    }
                }
            }
            if need.is_empty() {
                return;
            }
            // Group by bot: (entry, index of the seat among the bots).
            let key = |(j, seat): (usize, usize)| {
                let learner = learner_of(&lanes[j]);
                let index = if seat < learner { seat } else { seat - 1 };
                (lanes[j].ctl.entry, index)
            };
            let mut keys: Vec<((u32, usize), usize, usize)> = need
                .iter()
                .map(|&(j, seat)| (key((j, seat)), j, seat))
                .collect();
            keys.sort_unstable();
            let mut g = 0;
            while g < keys.len() {
                let k = keys[g].0;
                let end = g + keys[g..].iter().take_while(|x| x.0 == k).count();
                let group = &keys[g..end];
                for &(_, j, _) in group {
                    let lane = &mut lanes[j];
                    // The mask row serves as scratch: it is rewritten for the learner later.
                    self.game.legal_mask(lane.state, lane.mask);
                }
                let (j0, seat0) = (group[0].1, group[0].2);
                let bot = self.bot_of(k.0, seat0, learner_of(&lanes[j0]));
                let mut rngs: Vec<LaneRng> = group
                    .iter()
                    .map(|&(_, j, _)| lanes[j].ctl.bot_rng.clone())
                    .collect();
                let mut actions = vec![0u32; group.len()];
                {
                    let states: Vec<&G::State> =
                        group.iter().map(|&(_, j, _)| &*lanes[j].state).collect();
                    let masks: Vec<&[u8]> =
                        group.iter().map(|&(_, j, _)| &*lanes[j].mask).collect();
                    bot.act_batch(self.game, &states, &masks, &mut rngs, &mut actions);
                }
                for ((&(_, j, _), rng), action) in group.iter().zip(rngs).zip(actions) {
                    let lane = &mut lanes[j];
                    lane.ctl.bot_rng = rng;
                    let learner = learner_of(lane);
                    lane.ply_rewards.fill(0.0);
                    let outcome =
                        self.game
                            .step(lane.state, action, &mut lane.ctl.rng, lane.ply_rewards);
                    if !outcome.applied {
                        // A refused bot action cuts the game off.
                        let done = std::mem::replace(&mut pending[j], Pending::done());
                        pending[j] = self.resume(lane, done, true);
                        continue;
                    }
                    lane.ctl.plies += 1;
                    pending[j].plies += 1;
                    pending[j].total += lane.ply_rewards[learner];
                    add_rewards(lane.seat_returns, lane.ply_rewards);
                }
                g = end;
            }
        }
    }

    /// What a lane does once its bots are done (`cut`: the game was cut off), given what
    /// it was waiting for: the end of a learner step, or of a deal. Returns what it waits
    /// for next.
    fn resume(&self, lane: &mut Lane<'_, G>, pending: Pending, cut: bool) -> Pending {
        let Pending { cont, total, .. } = pending;
        match cont {
            Cont::Done => Pending::done(),
            Cont::AfterStep { mine } => {
                let reward = mine + total;
                *lane.reward = reward;
                *lane.episode_return += reward;
                *lane.episode_length += 1;
                self.show(lane, cut);
                Pending::done()
            }
            Cont::AfterDeal { carry, dealt } => {
                let game = self.game;
                let carry = carry + total;
                let dealt = dealt + 1;
                let (terminated, truncated) = game.finished(lane.state);
                if !(terminated || truncated || cut) {
                    lane.ctl.carry = carry;
                    self.show(lane, false);
                    return Pending::done();
                }
                if cut || dealt == MAX_REDEALS {
                    lane.ctl.carry = 0.0;
                    *lane.reward += carry;
                    *lane.episode_return = carry;
                    self.show(lane, true);
                    return Pending::done();
                }
                *lane.episodes += 1;
                *lane.skipped += 1;
                *lane.skipped_return += carry as f64;
                lane.ctl.game += 1;
                self.deal(lane, dealt)
            }
        }
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

    /// Deals game `lane.ctl.game` (its streams, its opponents drawn from the pool, the
    /// learner's seat, the deal's rewards); `dealt` games were dealt before it in this
    /// call. Returns the wait for its bots to reach the learner's first decision.
    fn deal(&self, lane: &mut Lane<'_, G>, dealt: u32) -> Pending {
        let game = self.game;
        let k = lane.ctl.game;
        lane.ctl.rng = LaneRng::for_key(lane.ctl.keys.0, k);
        lane.ctl.bot_rng = LaneRng::for_key(lane.ctl.keys.1, k);
        lane.ctl.entry = if self.draws.len() == 1 {
            self.draws[0].0
        } else {
            self.draw(&mut LaneRng::for_key(lane.ctl.keys.1 ^ POOL_STREAM_KEY, k))
        };
        *lane.opponent = lane.ctl.entry as i64;
        *lane.state = game.reset(&mut lane.ctl.rng);
        lane.ctl.plies = 0;
        let seat = self.seat_rule.seat(lane.index, k, game.num_players());
        *lane.seat = seat as i32;
        *lane.episode_return = 0.0;
        *lane.episode_length = 0;
        lane.ply_rewards.fill(0.0);
        game.deal_rewards(lane.state, lane.ply_rewards);
        lane.seat_returns.copy_from_slice(lane.ply_rewards);
        Pending::waiting(Cont::AfterDeal {
            carry: lane.ply_rewards[seat],
            dealt,
        })
    }

    /// One lane's step up to its bots (see the module documentation): the learner's
    /// action applied, or the next game dealt after a finished one. Returns what the lane
    /// waits for.
    fn step(&self, lane: &mut Lane<'_, G>, action: u32) -> Pending {
        *lane.reward = 0.0;
        if *lane.terminated || *lane.truncated {
            *lane.illegal = ActionStatus::Reset as u8;
            lane.ctl.game += 1;
            return self.deal(lane, 0);
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
                add_rewards(lane.seat_returns, lane.ply_rewards);
                let reward = std::mem::take(&mut lane.ctl.carry) + lane.ply_rewards[learner];
                *lane.reward = reward;
                *lane.episode_return += reward;
                self.show_as(lane, (true, false));
                return Pending::done();
            }
            lane.ctl.plies += 1;
            if self.max_steps != 0 && lane.ctl.plies >= self.max_steps {
                self.show(lane, true);
            }
            return Pending::done();
        }
        *lane.illegal = ActionStatus::Applied as u8;
        lane.ctl.plies += 1;
        add_rewards(lane.seat_returns, lane.ply_rewards);
        let mine = std::mem::take(&mut lane.ctl.carry) + lane.ply_rewards[learner];
        Pending::waiting(Cont::AfterStep { mine })
    }
}

/// Adds one ply's rewards of every seat to the game's totals.
fn add_rewards(totals: &mut [f32], ply: &[f32]) {
    for (t, r) in totals.iter_mut().zip(ply) {
        *t += r;
    }
}

/// The first `n` items of `rest`, which keeps the others.
fn take_row<'a, T>(rest: &mut &'a mut [T], n: usize) -> &'a mut [T] {
    let (row, tail) = std::mem::take(rest).split_at_mut(n);
    *rest = tail;
    row
}

/// What a lane waits for while its bots play (see [`Ctx::play_all`]).
enum Cont {
    /// Nothing: the lane is done for this call.
    Done,
    /// The end of the learner's step: `mine` is the learner's reward of its own ply.
    AfterStep { mine: f32 },
    /// The learner's first decision of a game just dealt: `carry` the learner's rewards
    /// so far (the deal's), `dealt` the games dealt before it in this call.
    AfterDeal { carry: f32, dealt: u32 },
}

/// A lane's wait, with the bot plies played in it so far.
struct Pending {
    cont: Cont,
    /// The learner seat's rewards over the bot plies.
    total: f32,
    /// Bot plies played.
    plies: u32,
}

impl Pending {
    fn done() -> Pending {
        Pending::waiting(Cont::Done)
    }

    fn waiting(cont: Cont) -> Pending {
        Pending {
            cont,
            total: 0.0,
            plies: 0,
        }
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
            entry: 0,
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
            opponent: try_vec(n, 0, "opponent ids")?,
            episode_return: try_vec(n, 0.0, "episode returns")?,
            seat_returns: try_vec(lane_rows::<f32>(n, p, "seat returns")?, 0.0, "seat returns")?,
            episode_length: try_vec(n, 0, "episode lengths")?,
            episodes: try_vec(n, 0, "episode counters")?,
            skipped: try_vec(n, 0, "episode counters")?,
            skipped_return: try_vec(n, 0.0, "episode returns")?,
            game,
            entries: vec![Entry {
                names: opponents.clone(),
                bots: Some(bots),
            }],
            opponent_pool: vec![(0, 1.0)],
            resolve: None,
            opponents,
            seat_rule,
            options,
            pool,
        })
    }

    /// Runs `f` on every lane, in parallel over chunks of `chunk_size` lanes, with the
    /// lane's action (`0` when `actions` is empty), then plays the bots of every lane of the
    /// chunk that waits for them, batched over the chunk ([`Ctx::play_all`]).
    fn for_each_lane(
        &mut self,
        actions: &[u32],
        f: impl Fn(&Ctx<'_, G>, &mut Lane<'_, G>, u32) -> Pending + Sync,
    ) {
        let cs = self.options.chunk_size;
        let (p, a, d) = (
            self.game.num_players(),
            self.game.num_actions(),
            self.game.obs_dim(),
        );
        let mut cumulative = 0.0;
        let draws = self
            .opponent_pool
            .iter()
            .map(|&(id, w)| {
                cumulative += w;
                (id, cumulative)
            })
            .collect();
        let ctx = Ctx {
            game: &self.game,
            entries: &self.entries,
            draws,
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
            self.opponent.par_chunks_mut(cs),
        );
        let stats = (
            self.episode_return.par_chunks_mut(cs),
            self.seat_returns.par_chunks_mut(cs * p),
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
                |(
                    c,
                    ((st, ct, pr, ob, ma, re), (te, tr, il, se, op), (er, sa, el, ep, sk, sr)),
                )| {
                    let n = st.len();
                    let (mut st, mut ct, mut pr, mut ob, mut ma, mut re) = (st, ct, pr, ob, ma, re);
                    let (mut te, mut tr, mut il, mut se, mut op) = (te, tr, il, se, op);
                    let (mut er, mut sa, mut el) = (er, sa, el);
                    let (mut ep, mut sk, mut sr) = (ep, sk, sr);
                    let mut chunk = Vec::with_capacity(n);
                    for j in 0..n {
                        chunk.push(Lane {
                            index: c * cs + j,
                            state: &mut take_row(&mut st, 1)[0],
                            ctl: &mut take_row(&mut ct, 1)[0],
                            ply_rewards: take_row(&mut pr, p),
                            obs: take_row(&mut ob, d),
                            mask: take_row(&mut ma, a),
                            reward: &mut take_row(&mut re, 1)[0],
                            terminated: &mut take_row(&mut te, 1)[0],
                            truncated: &mut take_row(&mut tr, 1)[0],
                            illegal: &mut take_row(&mut il, 1)[0],
                            seat: &mut take_row(&mut se, 1)[0],
                            opponent: &mut take_row(&mut op, 1)[0],
                            episode_return: &mut take_row(&mut er, 1)[0],
                            seat_returns: take_row(&mut sa, p),
                            episode_length: &mut take_row(&mut el, 1)[0],
                            episodes: &mut take_row(&mut ep, 1)[0],
                            skipped: &mut take_row(&mut sk, 1)[0],
                            skipped_return: &mut take_row(&mut sr, 1)[0],
                        });
                    }
                    let mut pending: Vec<Pending> = chunk
                        .iter_mut()
                        .map(|lane| {
                            let action = actions.get(lane.index).copied().unwrap_or(0);
                            f(&ctx, lane, action)
                        })
                        .collect();
                    ctx.play_all(&mut chunk, &mut pending);
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
            ctx.deal(lane, 0)
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
        self.lane_view().bot_actions(bot, selected, seed, out)
    }

    /// The lanes as bots and policy files read them (the learner's seat to act), with the
    /// game, the chunk size and the view's thread pool.
    pub fn lane_view(&self) -> super::policy::LaneView<'_, G> {
        let lanes = LaneBatch {
            states: &self.states,
            masks: &self.mask,
            terminated: &self.terminated,
            truncated: &self.truncated,
        };
        super::policy::LaneView::new(&self.game, lanes, self.options.chunk_size, self.pool)
    }

    /// Runs `f` on the view's thread pool (for callers that add their own parallel work,
    /// such as batched policies, with the same thread count).
    pub fn install<R: Send>(&self, f: impl FnOnce() -> R + Send) -> R {
        self.pool.install(f)
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
    /// The names of the bots of the other seats the view was built with, in seat order
    /// (skipping the learner's): entry 0 of the opponents (see [`LearnerEnv::set_pool`]).
    pub fn opponents(&self) -> &[String] {
        &self.opponents
    }

    /// Replaces the opponent pool: `entries` are `(opponents, weight)`, the bots of the
    /// other seats (one name for all of them, or one per other seat) and a weight (finite,
    /// at least 0; the weights add up to more than 0). From the next game a lane starts
    /// (in a later step, or at a reset), it plays against entry `i` with probability
    /// `weight_i / total`, drawn from a stream of its own keyed by `(seed, lane, game)`
    /// (apart from the game's and the bots' streams; no draw when the pool has one entry)
    /// and kept for the whole game: games in progress keep their opponents. An entry whose
    /// names are those of an entry added before keeps that entry's id (and its bots, if
    /// it still has them); new names get the next id. Entries neither in the new pool nor
    /// playing in a lane free their bots (their ids and names stay).
    ///
    /// Errors (nothing changes): an empty pool or one of more than [`MAX_POOL`] entries, a
    /// weight that is negative, not finite, or weights that add up to 0, the same opponents
    /// twice, a list of names of another length than `num_players - 1`, a name the
    /// resolver refuses (an unknown bot, a policy file for another game), a bot that
    /// remembers, a view built from bots without a resolver ([`LearnerEnv::new`]; see
    /// [`LearnerEnv::with_bots`] and [`LearnerEnv::with_resolver`]).
    pub fn set_pool(&mut self, entries: &[(Opponents, f64)]) -> Result<()> {
        let invalid = |reason: String| Error::Invalid {
            what: "opponent pool",
            reason,
        };
        let Some(resolve) = self.resolve else {
            return Err(invalid(
                "this learner view was built from bots, not names: it has no resolver".into(),
            ));
        };
        if entries.is_empty() || entries.len() > MAX_POOL {
            return Err(invalid(format!(
                "give 1..={MAX_POOL} entries, got {}",
                entries.len()
            )));
        }
        let others = self.game.num_players() - 1;
        let mut named: Vec<(Vec<String>, f64)> = Vec::with_capacity(entries.len());
        let mut total = 0.0;
        for (i, (opponents, weight)) in entries.iter().enumerate() {
            if !(weight.is_finite() && *weight >= 0.0) {
                return Err(invalid(format!(
                    "entry {i}: the weight must be finite and at least 0, got {weight}"
                )));
            }
            total += weight;
            let names = opponents.names(others)?;
            if named.iter().any(|(n, _)| *n == names) {
                return Err(invalid(format!("entry {i}: {names:?} is given twice")));
            }
            named.push((names, *weight));
        }
        if !(total > 0.0 && total.is_finite()) {
            return Err(invalid(format!(
                "the weights add up to {total}: give at least one positive weight"
            )));
        }
        // Resolve every new bot before changing anything.
        let mut fresh: Vec<Option<Vec<Box<dyn Bot<G>>>>> = Vec::with_capacity(named.len());
        for (names, _) in &named {
            let live = self
                .entries
                .iter()
                .any(|e| e.names == *names && e.bots.is_some());
            if live {
                fresh.push(None);
                continue;
            }
            let bots = names
                .iter()
                .map(|name| resolve(&self.game, name))
                .collect::<Result<Vec<_>>>()?;
            for bot in &bots {
                check_batchable(&**bot)?;
            }
            fresh.push(Some(bots));
        }
        let mut pool = Vec::with_capacity(named.len());
        for ((names, weight), bots) in named.into_iter().zip(fresh) {
            let id = match self.entries.iter().position(|e| e.names == names) {
                Some(id) => {
                    if let Some(bots) = bots {
                        self.entries[id].bots = Some(bots);
                    }
                    id
                }
                None => {
                    self.entries.push(Entry {
                        names,
                        bots: Some(bots.expect("new names were resolved")),
                    });
                    self.entries.len() - 1
                }
            };
            pool.push((id as u32, weight));
        }
        self.opponent_pool = pool;
        let mut used = vec![false; self.entries.len()];
        for &(id, _) in &self.opponent_pool {
            used[id as usize] = true;
        }
        for ctl in &self.ctl {
            used[ctl.entry as usize] = true;
        }
        for (entry, used) in self.entries.iter_mut().zip(used) {
            if !used {
                entry.bots = None;
            }
        }
        Ok(())
    }

    /// The view with `resolve` as the resolver [`LearnerEnv::set_pool`] makes bots with.
    pub fn with_resolver(mut self, resolve: Resolver<G>) -> Self {
        self.resolve = Some(resolve);
        self
    }

    /// The opponent pool: `(entry id, weight)` in the order given to
    /// [`LearnerEnv::set_pool`] (at construction, entry 0 with weight 1).
    pub fn pool(&self) -> &[(u32, f64)] {
        &self.opponent_pool
    }

    /// The bot names of entry `id` (one per other seat), `None` for an id never given.
    pub fn entry_names(&self, id: u32) -> Option<&[String]> {
        self.entries.get(id as usize).map(|e| &e.names[..])
    }

    /// The name of every entry ever added, by id: the bot name when every other seat has
    /// the same bot, else the names joined by `" | "`.
    pub fn entry_labels(&self) -> Vec<String> {
        self.entries.iter().map(Entry::label).collect()
    }

    /// The id of the opponent entry playing the other seats of each lane's current game
    /// `[N]` (an index into [`LearnerEnv::entry_labels`]): drawn when the game started,
    /// the same until it ends.
    pub fn opponent_ids(&self) -> &[i64] {
        &self.opponent
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
    /// Every seat's rewards in each lane's current game so far, `[N, num_players]` (row
    /// `l`, column `s`: seat `s`, not relative to the learner), the bots' included: at a
    /// finished lane, the whole game's, so a trainer can tell who won. A reward counts here
    /// when it is received: the learner's own column is its
    /// [`episode_return`](LearnerEnv::episode_return) summed ply by ply, except before its
    /// first decision of a game, where the rewards it received (at the deal, on the bots'
    /// plies) already count here but wait for its first step's reward there.
    pub fn seat_returns(&self) -> &[f32] {
        &self.seat_returns
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

impl Opponents {
    /// The names, one per other seat (`others` of them). A list of another length is an
    /// error.
    pub fn names(&self, others: usize) -> Result<Vec<String>> {
        match self {
            Opponents::Every(name) => Ok(vec![name.clone(); others]),
            Opponents::Each(names) if names.len() == others => Ok(names.clone()),
            Opponents::Each(names) => Err(Error::Invalid {
                what: "opponents",
                reason: format!(
                    "the game has {} seats: give one bot name for every other seat, or a \
                     list of {others}, got a list of {}",
                    others + 1,
                    names.len()
                ),
            }),
        }
    }
}

impl<G: GameSpec> LearnerEnv<G> {
    /// A learner view whose other seats are played by the bots `opponents` names, each name
    /// made a bot by `resolve` (kept for [`LearnerEnv::set_pool`]; `crate::agents::bot` knows every name: the game's own bots
    /// and the families above the games; `crate::agents::learner` passes it). A list
    /// ([`Opponents::Each`]) of another length than `num_players - 1`, or a name `resolve`
    /// refuses, is an error. See [`LearnerEnv::new`] for the rest.
    pub fn with_bots(
        game: G,
        opponents: &Opponents,
        seat: LearnerSeat,
        options: EnvOptions,
        resolve: Resolver<G>,
    ) -> Result<Self> {
        let names = opponents.names(game.num_players() - 1)?;
        let bots = names
            .iter()
            .map(|name| resolve(&game, name))
            .collect::<Result<Vec<_>>>()?;
        Ok(LearnerEnv::new(game, bots, names, seat, options)?.with_resolver(resolve))
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
    /// See [`LearnerEnv::set_pool`].
    fn set_pool(&mut self, entries: &[(Opponents, f64)]) -> Result<()>;
    /// See [`LearnerEnv::pool`].
    fn pool(&self) -> &[(u32, f64)];
    /// See [`LearnerEnv::entry_labels`].
    fn entry_labels(&self) -> Vec<String>;
    /// See [`LearnerEnv::opponent_ids`].
    fn opponent_ids(&self) -> &[i64];
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
    /// See [`LearnerEnv::seat_returns`].
    fn seat_returns(&self) -> &[f32];
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
    fn set_pool(&mut self, entries: &[(Opponents, f64)]) -> Result<()> {
        LearnerEnv::set_pool(self, entries)
    }
    fn pool(&self) -> &[(u32, f64)] {
        LearnerEnv::pool(self)
    }
    fn entry_labels(&self) -> Vec<String> {
        LearnerEnv::entry_labels(self)
    }
    fn opponent_ids(&self) -> &[i64] {
        LearnerEnv::opponent_ids(self)
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
    fn seat_returns(&self) -> &[f32] {
        &self.seat_returns
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
