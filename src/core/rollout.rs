//! Rollouts: many games played from given states to their end by one bot, for search bots
//! (`crate::agents`: `pimc`, `ismcts`). [`rollout_returns`] runs them as the lanes of one
//! batch environment ([`VecEnv`]: every lane stepped together, the bot's actions for every
//! lane computed together), [`rollout_returns_serial`] one state after another through
//! [`Game::step`] and [`Bot::act`] (what a search bot written one state at a time does;
//! the bench compares the two, `benches/rollouts.rs`). [`rollouts`] and
//! [`rollouts_serial`] are the same with the states the games ended in (what a search bot
//! that values a game by its winner reads, through the game's
//! [`Words::outcome`](super::words::Words::outcome)).
//!
//! # Streams
//!
//! Rollout `l` of a call with seed `seed` steps with the lane stream `(seed, l, 0)` as a
//! batch environment's lane `l` holds it after its first deal (the lane's chance events;
//! the serial function deals once from it too, and discards the deal) and its bot draws from
//! [`bot_stream`](super::policy::bot_stream) `(seed, l, state)` (a bot that never draws gets
//! [`idle_stream`]`(seed)`), in both functions: the returns depend only on the seed and the
//! starts, never on the thread count, and both functions return the same numbers.

use super::env::{EnvOptions, VecEnv};
use super::error::{Error, Result};
use super::game::ActionStatus;
use super::game::Game;
use super::policy::{check_batchable, idle_stream, stream_for, Bot, NO_ACTION};
use super::rng::LaneRng;

/// Each seat's rewards summed from the first action of each start to the end of its game:
/// `starts[l] = (state, action)` is played by applying `action` to `state` (a live state
/// that passes [`Game::check_state`]; `action` legal in it), then `bot` for every seat
/// until the game is over. Returns `starts.len() * num_players` sums, the rows of the
/// starts in order. The rollouts are the lanes of one [`VecEnv`] of `threads` workers
/// (`None`: one per core), observation off.
///
/// Errors: no start, a start state the game refuses, a bot that remembers
/// ([`check_batchable`]), buffers that cannot be allocated (nothing played); a first action
/// or a bot's action that the game refuses (an [`Error::Invalid`] naming the bot).
pub fn rollout_returns<G: Game>(
    game: &G,
    starts: &[(G::State, u32)],
    bot: &dyn Bot<G>,
    seed: u64,
    threads: Option<usize>,
) -> Result<Vec<f32>> {
    rollouts(game, starts, bot, seed, threads).map(|r| r.returns)
}

/// What [`rollouts`] and [`rollouts_serial`] return: the rows of [`rollout_returns`] and the
/// state each rollout ended in.
#[derive(Clone, Debug, PartialEq)]
pub struct Rollouts<S> {
    /// Each seat's rewards summed from the start's action to the end, `num_players` per
    /// start, the starts in order.
    pub returns: Vec<f32>,
    /// The finished state of each rollout, the starts in order.
    pub ends: Vec<S>,
}

/// [`rollout_returns`] with the states the rollouts ended in. Errors: as
/// [`rollout_returns`].
pub fn rollouts<G: Game>(
    game: &G,
    starts: &[(G::State, u32)],
    bot: &dyn Bot<G>,
    seed: u64,
    threads: Option<usize>,
) -> Result<Rollouts<G::State>> {
    rollouts_until(game, starts, bot, seed, threads, &|_: &G::State| false)
}

/// [`rollouts`] stopped early: each rollout ends at the first state after its start's
/// action where its game is over or `stop` holds (a horizon, [`super::horizon`]); its
/// returns are the rewards paid until then and its end is that state (live if `stop`
/// stopped it). With `stop` never true, [`rollouts`]. Errors: as [`rollout_returns`].
pub fn rollouts_until<G: Game>(
    game: &G,
    starts: &[(G::State, u32)],
    bot: &dyn Bot<G>,
    seed: u64,
    threads: Option<usize>,
    stop: &dyn Fn(&G::State) -> bool,
) -> Result<Rollouts<G::State>> {
    check_batchable(bot)?;
    let n = starts.len();
    let p = game.num_players();
    let mut env = VecEnv::new(
        game.clone(),
        EnvOptions {
            seed,
            num_threads: threads,
            chunk_size: 16,
            observe_on_step: false,
            ..EnvOptions::new(n)
        },
    )?;
    for (lane, (state, _)) in starts.iter().enumerate() {
        env.set_state(lane, *state)?;
    }
    let mut totals = vec![0f32; n * p];
    let mut actions: Vec<u32> = starts.iter().map(|&(_, a)| a).collect();
    let mut chosen = vec![NO_ACTION; n];
    // The end of each rollout, once it has one (a lane stopped live plays on, unread).
    let mut ends: Vec<Option<G::State>> = vec![None; n];
    let mut open = n;
    loop {
        env.step(&actions)?;
        if let Some(l) = env
            .illegal()
            .iter()
            .enumerate()
            .position(|(l, &s)| ends[l].is_none() && s == ActionStatus::Illegal as u8)
        {
            return Err(refused(bot, actions[l], l));
        }
        let states = env.states();
        let (terminated, truncated) = (env.terminated(), env.truncated());
        for (l, (end, (t, r))) in ends
            .iter_mut()
            .zip(
                totals
                    .chunks_exact_mut(p)
                    .zip(env.rewards().chunks_exact(p)),
            )
            .enumerate()
        {
            if end.is_some() {
                continue;
            }
            for (t, r) in t.iter_mut().zip(r) {
                *t += r;
            }
            if terminated[l] || truncated[l] || stop(&states[l]) {
                *end = Some(states[l]);
                open -= 1;
            }
        }
        if open == 0 {
            return Ok(Rollouts {
                returns: totals,
                ends: ends.into_iter().flatten().collect(),
            });
        }
        env.bot_actions(bot, None, seed, &mut chosen)?;
        for (a, &c) in actions.iter_mut().zip(&chosen) {
            // A finished lane ignores its action (autoreset is off).
            *a = c.max(0) as u32;
        }
    }
}

/// [`rollout_returns`] one state at a time: each start played to its end through
/// [`Game::step`] and [`Bot::act`] before the next, with the same streams, so the same
/// returns (what the bench measures the batch against). Errors: as [`rollout_returns`].
pub fn rollout_returns_serial<G: Game>(
    game: &G,
    starts: &[(G::State, u32)],
    bot: &dyn Bot<G>,
    seed: u64,
) -> Result<Vec<f32>> {
    rollouts_serial(game, starts, bot, seed).map(|r| r.returns)
}

/// [`rollout_returns_serial`] with the states the rollouts ended in: what [`rollouts`]
/// returns. Errors: as [`rollout_returns`].
pub fn rollouts_serial<G: Game>(
    game: &G,
    starts: &[(G::State, u32)],
    bot: &dyn Bot<G>,
    seed: u64,
) -> Result<Rollouts<G::State>> {
    rollouts_serial_until(game, starts, bot, seed, &|_: &G::State| false)
}

/// [`rollouts_until`] one state at a time: the same rollouts, stopped at the same states,
/// with the same returns. Errors: as [`rollout_returns`].
pub fn rollouts_serial_until<G: Game>(
    game: &G,
    starts: &[(G::State, u32)],
    bot: &dyn Bot<G>,
    seed: u64,
    stop: &dyn Fn(&G::State) -> bool,
) -> Result<Rollouts<G::State>> {
    check_batchable(bot)?;
    let p = game.num_players();
    let mut totals = vec![0f32; starts.len() * p];
    let mut ends = Vec::with_capacity(starts.len());
    let mut mask = vec![0u8; game.num_actions()];
    let mut rewards = vec![0f32; p];
    let idle = idle_stream(seed);
    for (l, (&(start, first), total)) in starts.iter().zip(totals.chunks_exact_mut(p)).enumerate() {
        game.check_state(&start).map_err(|reason| Error::Invalid {
            what: "state",
            reason,
        })?;
        let mut state = start;
        let mut rng = LaneRng::for_lane(seed, l as u64, 0);
        // The batch lane's stream after its first deal.
        let _ = game.reset(&mut rng);
        let mut action = first;
        loop {
            rewards.fill(0.0);
            if !game
                .step(&mut state, action, &mut rng, &mut rewards)
                .applied
            {
                return Err(refused(bot, action, l));
            }
            for (t, r) in total.iter_mut().zip(&rewards) {
                *t += r;
            }
            let (terminated, truncated) = game.finished(&state);
            if terminated || truncated || stop(&state) {
                ends.push(state);
                break;
            }
            game.legal_mask(&state, &mut mask);
            let mut stream = stream_for(bot, &idle, seed, l as u64, &state);
            action = bot.act(game, &state, &mask, &mut stream);
        }
    }
    Ok(Rollouts {
        returns: totals,
        ends,
    })
}

/// The error of a rollout whose action the game refused.
fn refused<G: Game>(bot: &dyn Bot<G>, action: u32, lane: usize) -> Error {
    Error::Invalid {
        what: "rollout",
        reason: format!(
            "action {action} of rollout {lane} (its first action, or bot {}'s) is illegal",
            bot.name()
        ),
    }
}
