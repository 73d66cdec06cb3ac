//! `pimc`: Perfect Information Monte Carlo search (determinized rollouts), for every game
//! with a determinization ([`crate::core::determinize`]).
//!
//! At each decision the bot deals `sims` worlds for its seat (the hidden cards dealt afresh,
//! uniformly among those consistent with what the seat has seen), and for every legal
//! action plays each world to the end with a playout bot: `legal × sims` rollouts, run
//! together as the lanes of one batch environment on `threads` workers
//! ([`rollouts_until`]), or with `threads=1` one state at a time
//! ([`rollouts_serial_until`]: the same rollouts, and faster on one core, since building a
//! batch environment for each decision costs more than it saves, docs/search.md). It plays the
//! action whose rollouts are worth the most to the seat on average (the first such in action
//! order; the `value` option says what a rollout is worth). Every action is tried on the
//! same worlds (common random numbers), as
//! OpenSpiel's PIMC bot evaluates each world for every move. A decision with one legal
//! action is played without search.
//!
//! With `halving=1` the same budget (`legal × sims` rollouts) is spent by sequential
//! halving (Karnin, Koren and Somekh 2013): `ceil(log2(legal))` rounds of equal budget,
//! each surviving action rolled out on the same fresh worlds, the worse half dropped after
//! each round; the bot plays the best of the last survivors (the most rollouts, then the
//! highest mean).
//!
//! The name carries the options, `pimc:sims=200,playout=safe-heuristic,threads=2`:
//!
//! | option | default | meaning |
//! | --- | --- | --- |
//! | `sims` | 100 | worlds per legal action (the budget, in rollouts per action) |
//! | `ms` | none | instead of `sims`: milliseconds per decision (wall clock, not reproducible) |
//! | `playout` | `random` | the game's built-in bot that plays every seat in the rollouts |
//! | `value` | `reward` | how a rollout is valued for the seat: `reward`, its rewards summed from the decision on; `win`, its share of the win (1 for a sole winner of the game's outcome, `1/k` for each of `k` tied winners, 0 otherwise) |
//! | `crn` | 0 | 1: common random numbers for the rollouts too: every action's rollout in world `w` draws its chance events (reshuffles, later deals) and its playout bot's choices from the same streams |
//! | `horizon` | 0 | `H` >= 1: stop each rollout `H` stages after the decision (Flip 7: rounds; 151: actions, or the round's end if sooner) and value it by the game's estimate of the win from the standings ([`crate::core::horizon`]); needs `value=win` and a game with an estimate ([`GameSpec::win_estimate`]); 0: play to the end |
//! | `halving` | 0 | 1: sequential halving (the same budget spent in rounds, the worse half of the actions dropped after each) |
//! | `threads` | 1 | workers of the rollouts' batch environment; 1: the rollouts one state at a time (never changes the action) |
//!
//! Why `value` and `horizon` (docs/search.md, "Flip 7"): with `value=reward` a bot
//! maximizes its points from now to the end of the game, which in a race to a target
//! (Flip 7) counts ending the game, that is winning it, as a loss of the later rounds'
//! points; with `value=win` a rollout played to the end is a 0 or 1 decided mostly by
//! the luck of the later rounds, which a few hundred rollouts cannot average out. Stopping
//! at the end of the round and reading the standings through the game's estimate keeps
//! what the decision changes and replaces the rest by its expectation.
//!
//! With `ms=M` (exclusive with `sims`, and with `halving`, whose rounds need a known budget)
//! the bot deals worlds in rounds, every legal action rolled out in each round's worlds,
//! until `M` milliseconds have passed since the decision began: the first round has one
//! world per action, each next round at most twice as many worlds as the last and sized to
//! fit half the time left at the last round's speed. At least one round is played however
//! long it takes, and at most [`MAX_SIMS`] worlds.
//!
//! With a `sims` budget the bot is deterministic: its action depends only on the stream it
//! is given and on what its seat sees of the state (the worlds are dealt from the stream
//! through the game's determinization, which reads nothing hidden), whatever `threads` is.
//! With `ms` it still reads nothing hidden, but how many worlds it deals depends on the
//! machine's speed, so its action is not reproducible. It does not remember between
//! decisions.

use std::time::Instant;

use rayon::prelude::*;

use super::Budget;
use crate::core::policy::{bot_stream, check_batchable, random_legal, LaneBatch};
use crate::core::rollout::{rollouts_serial_until, rollouts_until, Rollouts};
use crate::core::{
    Bot, DeterminizeFn, Error, Game, GameSpec, LaneRng, Result, WinEstimate, MAX_THREADS,
};

/// The family prefix of the name.
pub const PREFIX: &str = "pimc";

/// Most worlds per action.
pub const MAX_SIMS: u32 = 1 << 16;

/// Key that keeps the world streams apart from the rollouts' streams.
const WORLD_KEY: u64 = 0x7069_6d63_776f_726c;

/// Most stages of a horizon (`horizon=`).
pub const MAX_HORIZON: u64 = 1 << 16;

/// How a rollout is valued for the seat (the `value` option).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// The seat's rewards summed from the decision to the end of the rollout.
    Reward,
    /// The seat's share of the win: 1 for a sole winner of the game's outcome, `1/k` for
    /// each of `k` tied winners, 0 otherwise; at a horizon, the game's estimate.
    Win,
}

/// The `pimc` search bot (see the module documentation).
pub struct Pimc<G: Game> {
    name: String,
    budget: Budget,
    halving: bool,
    threads: usize,
    value: Value,
    crn: bool,
    horizon: u64,
    estimate: Option<Box<dyn WinEstimate<G>>>,
    playout: Box<dyn Bot<G>>,
    determinize: DeterminizeFn<G>,
}

impl<G: GameSpec> Pimc<G> {
    /// The bot named `name`: `pimc`, or `pimc:` followed by options (see the module
    /// documentation). An unknown option, a bad value, a playout bot the game does not
    /// know or that remembers, or a game without a determinization is an error.
    pub fn parse(game: &G, name: &str) -> Result<Pimc<G>> {
        let pairs = super::family_options(
            name,
            PREFIX,
            "pimc option",
            "pimc, pimc:sims=N,playout=BOT,value=reward|win,crn=0|1,horizon=H,halving=0|1,threads=T (or ms=MS for sims)",
        )?;
        let determinize = G::determinizer().ok_or_else(|| Error::Invalid {
            what: "bot",
            reason: format!("{} has no determinization, which pimc needs", G::INFO.id),
        })?;
        let (mut sims, mut ms) = (None, None);
        let (mut threads, mut playout) = (1usize, "random".to_string());
        let (mut halving, mut crn, mut horizon) = (false, false, 0u64);
        let mut value = Value::Reward;
        for (key, text) in pairs {
            let int = |min: u64, max: u64| super::int_option("pimc option", &key, &text, min, max);
            match key.as_str() {
                "sims" => sims = Some(text),
                "ms" => ms = Some(text),
                "threads" => threads = int(1, MAX_THREADS as u64)? as usize,
                "halving" => halving = int(0, 1)? == 1,
                "crn" => crn = int(0, 1)? == 1,
                "horizon" => horizon = int(0, MAX_HORIZON)?,
                "value" => {
                    value = match text.as_str() {
                        "reward" => Value::Reward,
                        "win" => Value::Win,
                        _ => {
                            return Err(Error::Unknown {
                                what: "pimc value",
                                name: text,
                                expected: "reward, win".to_string(),
                            })
                        }
                    }
                }
                "playout" => playout = text,
                _ => {
                    return Err(Error::Unknown {
                        what: "pimc option",
                        name: key,
                        expected: "sims, ms, playout, value, crn, horizon, halving, threads"
                            .to_string(),
                    })
                }
            }
        }
        let budget = Budget::parse(
            "pimc option",
            "sims",
            sims.as_deref(),
            ms.as_deref(),
            MAX_SIMS,
            100,
        )?;
        if halving && matches!(budget, Budget::Millis(_)) {
            return Err(Error::Invalid {
                what: "pimc option",
                reason: "halving=1 needs a sims budget (its rounds split a known number of rollouts), not ms".to_string(),
            });
        }
        let estimate = if horizon > 0 {
            if value != Value::Win {
                return Err(Error::Invalid {
                    what: "pimc option",
                    reason: "horizon=H values a stopped rollout by the game's estimate of the win: it needs value=win".to_string(),
                });
            }
            Some(game.win_estimate().ok_or_else(|| Error::Invalid {
                what: "pimc option",
                reason: format!(
                    "{} (options {}) has no estimate of the win part-way through a game, which horizon=H needs",
                    G::INFO.id,
                    game.options()
                ),
            })?)
        } else {
            None
        };
        let bot = game.bot(&playout)?;
        check_batchable(&*bot)?;
        let mut shown = format!("{PREFIX}:{},playout={playout}", budget.shown("sims"));
        if value == Value::Win {
            shown += ",value=win";
        }
        if crn {
            shown += ",crn=1";
        }
        if horizon > 0 {
            shown += &format!(",horizon={horizon}");
        }
        if halving {
            shown += ",halving=1";
        }
        Ok(Pimc {
            name: shown,
            budget,
            halving,
            threads,
            value,
            crn,
            horizon,
            estimate,
            playout: bot,
            determinize,
        })
    }

    /// The budget per decision: worlds per legal action, or milliseconds.
    pub fn budget(&self) -> Budget {
        self.budget
    }

    /// Each legal action of `state` (in action order) with the mean return of its rollouts
    /// for the seat to act and their number, from the worlds and rollouts that stream `rng`
    /// deals: what [`Bot::act`] picks from (the most rollouts, then the highest mean).
    /// Errors: as [`crate::core::rollout::rollout_returns`].
    pub fn evaluate(
        &self,
        game: &G,
        state: &G::State,
        mask: &[u8],
        rng: &mut LaneRng,
    ) -> Result<Vec<(u32, f64, u64)>> {
        let legal: Vec<u32> = (0..mask.len() as u32)
            .filter(|&a| mask[a as usize] != 0)
            .collect();
        let seat = game.current_player(state);
        let base = rng.next_u64();
        let mut sums = vec![0f64; legal.len()];
        let mut counts = vec![0u64; legal.len()];
        let stop_at = self
            .estimate
            .as_ref()
            .map(|e| e.stage(game, state).saturating_add(self.horizon));
        let stop = |s: &G::State| match (&self.estimate, stop_at) {
            (Some(e), Some(at)) => e.stage(game, s) >= at,
            _ => false,
        };
        let play = |starts: &[(G::State, u32)], seed: u64| -> Result<Rollouts<G::State>> {
            // One worker: one state at a time (the same rollouts, and faster on one core
            // than a batch environment built for the decision: docs/search.md); more: the
            // lanes of a batch environment on `threads` workers.
            if self.threads > 1 && starts.len() > 1 {
                rollouts_until(
                    game,
                    starts,
                    &*self.playout,
                    seed,
                    Some(self.threads),
                    &stop,
                )
            } else {
                rollouts_serial_until(game, starts, &*self.playout, seed, &stop)
            }
        };
        // Rolls the actions `alive` (indices into `legal`) out in worlds `first..first + per`
        // with rollout seed `seed`: the seat's summed value of each.
        let round = |alive: &[usize], first: u64, per: u64, seed: u64| -> Result<Vec<f64>> {
            let worlds: Vec<G::State> = (first..first + per)
                .map(|w| {
                    let mut stream = LaneRng::for_lane(base, w, WORLD_KEY);
                    (self.determinize)(game, state, seat, &mut stream)
                })
                .collect();
            let legal = &legal;
            let worlds = &worlds;
            let starts = move |i: usize| worlds.iter().map(move |&w| (w, legal[i]));
            if self.crn {
                // Every action's rollouts of world `w` draw from the same streams (rollout
                // `w` of a call per action with the same seed).
                alive
                    .iter()
                    .map(|&i| {
                        let played = play(&starts(i).collect::<Vec<_>>(), seed)?;
                        Ok(self.values(game, seat, &played).iter().sum())
                    })
                    .collect()
            } else {
                let all: Vec<(G::State, u32)> = alive.iter().flat_map(|&i| starts(i)).collect();
                let played = play(&all, seed)?;
                Ok(self
                    .values(game, seat, &played)
                    .chunks_exact(per as usize)
                    .map(|c| c.iter().sum())
                    .collect())
            }
        };
        let add = |sums: &mut [f64], counts: &mut [u64], alive: &[usize], per, summed: Vec<f64>| {
            for (&i, s) in alive.iter().zip(summed) {
                sums[i] += s;
                counts[i] += per;
            }
        };
        let all: Vec<usize> = (0..legal.len()).collect();
        match self.budget {
            Budget::Count(sims) => {
                let budget = legal.len() as u64 * sims as u64;
                let rounds = if self.halving {
                    (usize::BITS - (legal.len().max(2) - 1).leading_zeros()) as u64
                } else {
                    1
                };
                let mut alive = all;
                let mut next_world = 0u64;
                for r in 0..rounds {
                    let per = (budget / (rounds * alive.len() as u64)).max(1);
                    add(
                        &mut sums,
                        &mut counts,
                        &alive,
                        per,
                        round(&alive, next_world, per, base.wrapping_add(r))?,
                    );
                    next_world += per;
                    if r + 1 < rounds {
                        // Keep the better half (ties: the first in action order).
                        let mean = |i: usize| sums[i] / counts[i] as f64;
                        alive.sort_by(|&x, &y| mean(y).total_cmp(&mean(x)).then(x.cmp(&y)));
                        alive.truncate(alive.len().div_ceil(2));
                        alive.sort_unstable();
                    }
                }
            }
            Budget::Millis(_) => {
                let deadline = self.budget.deadline().expect("a time budget");
                let (mut next_world, mut per, mut r) = (0u64, 1u64, 0u64);
                loop {
                    let began = Instant::now();
                    add(
                        &mut sums,
                        &mut counts,
                        &all,
                        per,
                        round(&all, next_world, per, base.wrapping_add(r))?,
                    );
                    next_world += per;
                    r += 1;
                    let now = Instant::now();
                    if now >= deadline || next_world >= MAX_SIMS as u64 {
                        break;
                    }
                    // Half the time left at this round's speed, at most twice this round.
                    let per_world = (now - began).as_secs_f64() / per as f64;
                    let fit = ((deadline - now).as_secs_f64() / 2.0 / per_world.max(1e-9)) as u64;
                    per = fit.clamp(1, 2 * per).min(MAX_SIMS as u64 - next_world);
                }
            }
        }
        Ok(legal
            .iter()
            .enumerate()
            .map(|(i, &a)| (a, sums[i] / counts[i].max(1) as f64, counts[i]))
            .collect())
    }

    /// The seat's value of each rollout of `played` (the `value` option): its summed
    /// rewards, or its share of the win (of the game's outcome at an end; of the game's
    /// estimate at a horizon).
    fn values(&self, game: &G, seat: usize, played: &Rollouts<G::State>) -> Vec<f64> {
        let p = game.num_players();
        let mut estimate = vec![0f64; p];
        played
            .returns
            .chunks_exact(p)
            .zip(&played.ends)
            .map(|(rewards, end)| match self.value {
                Value::Reward => rewards[seat] as f64,
                Value::Win => {
                    let (terminated, truncated) = game.finished(end);
                    match &self.estimate {
                        Some(e) if !(terminated || truncated) => {
                            e.estimate(game, end, &mut estimate);
                            estimate[seat]
                        }
                        _ => super::win_shares(game, end, rewards)[seat],
                    }
                }
            })
            .collect()
    }

    /// The action values of the search in every lane of `lanes` selected by `selected`
    /// (`None`: every lane) whose game is not over, written into row `l` of `out`
    /// (`[N, num_actions]`, row-major): for each legal action, the mean value of its
    /// rollouts for the seat to act (its return, or its win share with `value=win`:
    /// [`Pimc::evaluate`]); `NaN` for the illegal actions and
    /// in the rows of the lanes not asked. What imitation learning reads as a search bot's
    /// soft targets (`cardvec.bots.action_values`, docs/policies.md).
    ///
    /// Lane `l` searches with the stream batched play gives the bot,
    /// [`bot_stream`]`(seed, l, state)`, so with a `sims` budget the values depend only on
    /// `seed` and the states (never on the thread count or `chunk_size`), and the action
    /// `pimc` plays in batched play with the same seed is the legal action with the highest
    /// value (the first such in action order; with `halving=1`, the most rollouts first:
    /// the actions dropped early have means over fewer rollouts). Unlike [`Bot::act`], a
    /// state with one legal action is searched too. The lanes run in parallel, one lane per
    /// work item, on the current rayon pool (callers install their environment's pool).
    ///
    /// Errors (nothing written): `out`, `selected` or the buffers of `lanes` of the wrong
    /// length, or a rollout error ([`rollouts_until`]).
    pub fn lane_values(
        &self,
        game: &G,
        lanes: &LaneBatch<'_, G>,
        selected: Option<&[bool]>,
        seed: u64,
        out: &mut [f32],
    ) -> Result<()> {
        let n = lanes.states.len();
        let a = game.num_actions();
        Error::check_len("action values", n * a, out.len())?;
        Error::check_len("legal masks", n * a, lanes.masks.len())?;
        Error::check_len("terminated flags", n, lanes.terminated.len())?;
        Error::check_len("truncated flags", n, lanes.truncated.len())?;
        if let Some(sel) = selected {
            Error::check_len("lanes", n, sel.len())?;
        }
        let mut values = crate::core::try_vec(n * a, f32::NAN, "action values")?;
        if a > 0 {
            values
                .par_chunks_mut(a)
                .with_max_len(1)
                .enumerate()
                .try_for_each(|(l, row)| -> Result<()> {
                    if !lanes.asked(l, selected) {
                        return Ok(());
                    }
                    let state = &lanes.states[l];
                    let mask = &lanes.masks[l * a..(l + 1) * a];
                    let mut rng = bot_stream(seed, l as u64, bytemuck::bytes_of(state));
                    for (action, mean, _) in self.evaluate(game, state, mask, &mut rng)? {
                        row[action as usize] = mean as f32;
                    }
                    Ok(())
                })?;
        }
        out.copy_from_slice(&values);
        Ok(())
    }
}

impl<G: GameSpec> Bot<G> for Pimc<G> {
    fn name(&self) -> &str {
        &self.name
    }

    fn act(&self, game: &G, state: &G::State, mask: &[u8], rng: &mut LaneRng) -> u32 {
        if mask.iter().filter(|&&m| m != 0).count() <= 1 {
            return random_legal(mask, rng);
        }
        match self.evaluate(game, state, mask, rng) {
            Ok(values) => {
                let mut best = values[0];
                for &(a, v, n) in &values[1..] {
                    if (n, v) > (best.2, best.1) {
                        best = (a, v, n);
                    }
                }
                best.0
            }
            // Only buffers the system refuses get here (the worlds are valid states and
            // the playout bot plays legal actions): play as the playout bot would.
            Err(_) => self.playout.act(game, state, mask, rng),
        }
    }
}
