//! `ismcts`: single-observer information-set Monte Carlo tree search (SO-ISMCTS, Cowling,
//! Powley and Whitehouse 2012, "Information Set Monte Carlo Tree Search", IEEE TCIAIG
//! 4(2)), for every game with a determinization ([`crate::core::determinize`]).
//!
//! One tree is grown per decision, its nodes the sequences of actions played from the
//! bot's decision (the information sets of the bot's seat, every action treated as seen, as
//! in the paper's single-observer variant; chance is inside the determinized states). Each
//! iteration:
//!
//! 1. **determinize**: deals a world for the bot's seat (the hidden cards dealt afresh,
//!    uniformly among those consistent with what the seat has seen);
//! 2. **select**: from the root, while the world is not over and every action legal in it
//!    has a child, moves to the child legal in the world with the highest
//!    `mean + c * sqrt(ln(availability) / visits)` (UCB1 with the paper's availability
//!    count: the number of iterations in which the child's action was legal, in place of
//!    the parent's visits), the mean from the side of the seat that chose the action;
//! 3. **expand**: adds a child for one action legal in the world and not yet tried (drawn
//!    uniformly), every existing child legal in the world counting one more availability;
//! 4. **play out**: plays the world on to its end with the playout bot
//!    ([`crate::core::rollout`]);
//! 5. **back up**: every node of the path gets a visit and the value of the end for the
//!    seat that chose its action.
//!
//! The value of an end (`value=`): `win` (default), 1 for a sole winner of the game's
//! [`Outcome`](crate::core::Outcome), `1/k` to each of `k` tied winners, 0 to the others
//! (the scale UCB1's `c` is made for); `reward`, each seat's rewards summed from the
//! decision to the end (choose `c` on the scale of the game's rewards).
//!
//! The bot plays the root's most visited action (then the highest mean, then the first in
//! action order). A decision with one legal action is played without search.
//!
//! With `batch=B` the iterations run in rounds of `B`: the `B` descents of a round are made
//! one after another, each counting its visits at once with the value still unknown (a
//! virtual loss, so the next descents of the round spread out), then the `B` playouts run
//! together as the lanes of one batch environment on `threads` workers, and are backed up
//! in order. `threads` spreads a round's playouts; it never changes the action (the
//! playouts return what they return one at a time, with the same streams). With
//! `batch=1` (the default) the search is the paper's sequential one.
//!
//! | option | default | meaning |
//! | --- | --- | --- |
//! | `iters` | 1000 | iterations (determinizations, playouts) per decision |
//! | `ms` | none | instead of `iters`: milliseconds per decision (wall clock, not reproducible) |
//! | `playout` | `random` | the game's built-in bot that plays every seat in the playouts |
//! | `c` | 0.7 | UCB1's exploration constant (the paper's value for wins in 0..1) |
//! | `value` | `win` | `win` or `reward` (above) |
//! | `batch` | 1 | iterations per round whose playouts run together (above) |
//! | `threads` | 1 | workers of a round's playouts (never changes the action) |
//!
//! With `ms=M` (exclusive with `iters`) the rounds go on until `M` milliseconds have passed
//! since the decision began (checked before each round, so with `batch=1` before each
//! iteration): at least one iteration however long it takes, at most [`MAX_ITERS`].
//!
//! With an `iters` budget the bot is deterministic: its action depends only on the stream it
//! is given and on what its seat sees of the state (the worlds come from the game's
//! determinization, which reads nothing hidden), whatever `threads` is. With `ms` it still
//! reads nothing hidden, but how many iterations it runs depends on the machine's speed, so
//! its action is not reproducible. It keeps no tree between decisions.

use std::time::Instant;

use super::Budget;
use crate::core::policy::{check_batchable, random_legal};
use crate::core::rng::splitmix64;
use crate::core::rollout::{rollouts, rollouts_serial};
use crate::core::{Bot, DeterminizeFn, Error, GameSpec, LaneRng, Result, MAX_THREADS};

/// The family prefix of the name.
pub const PREFIX: &str = "ismcts";

/// Most iterations per decision.
pub const MAX_ITERS: u32 = 1 << 20;

/// Most iterations per round (`batch`).
pub const MAX_BATCH: u32 = 1 << 12;

/// Key of the iterations' streams (determinization, expansion, the tree's chance events).
const ITERATION_KEY: u64 = 0x6973_6d63_7473_6974;
/// Key of the playouts' seeds.
const PLAYOUT_KEY: u64 = 0x6973_6d63_7473_706c;

/// No node.
const NONE: u32 = u32::MAX;

/// How an end is valued for the seats (the `value` option).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// The seat's share of the win (1, `1/k` for `k` tied winners, 0).
    Win,
    /// The seat's rewards from the decision to the end.
    Reward,
}

/// The `ismcts` search bot (see the module documentation).
pub struct Ismcts<G: GameSpec> {
    name: String,
    budget: Budget,
    c: f64,
    value: Value,
    batch: u32,
    threads: usize,
    playout: Box<dyn Bot<G>>,
    determinize: DeterminizeFn<G>,
}

/// A node of the tree: the action that leads to it from its parent and its statistics.
#[derive(Clone, Copy, Debug)]
struct Node {
    action: u32,
    /// Iterations that passed through the node (virtual visits included while a round
    /// is in flight).
    visits: u32,
    /// Iterations in which the node's action was legal at its parent.
    avail: u32,
    /// Values backed up, for the seat that chose `action`.
    value: f64,
    first_child: u32,
    next_sibling: u32,
}

/// One iteration's descent: the nodes it passed (the root first) with the seat that chose
/// each node's action, the rewards paid on the way, and where its playout starts (`None`:
/// the world ended inside the tree, in `end`).
struct Descent<S> {
    path: Vec<(u32, usize)>,
    rewards: Vec<f32>,
    playout: Option<(S, u32)>,
    end: S,
}

impl<G: GameSpec> Ismcts<G> {
    /// The bot named `name`: `ismcts`, or `ismcts:` followed by options (see the module
    /// documentation). An unknown option, a bad value, a playout bot the game does not know
    /// or that remembers, or a game without a determinization is an error.
    pub fn parse(game: &G, name: &str) -> Result<Ismcts<G>> {
        const WHAT: &str = "ismcts option";
        let pairs = super::family_options(
            name,
            PREFIX,
            WHAT,
            "ismcts, ismcts:iters=N,playout=BOT,c=C,value=win|reward,batch=B,threads=T (or ms=MS for iters)",
        )?;
        let determinize = G::determinizer().ok_or_else(|| Error::Invalid {
            what: "bot",
            reason: format!("{} has no determinization, which ismcts needs", G::INFO.id),
        })?;
        let (mut iters, mut ms) = (None, None);
        let (mut c, mut value) = (0.7f64, Value::Win);
        let (mut batch, mut threads, mut playout) = (1u32, 1usize, "random".to_string());
        for (key, text) in pairs {
            let int = |min: u64, max: u64| super::int_option(WHAT, &key, &text, min, max);
            match key.as_str() {
                "iters" => iters = Some(text),
                "ms" => ms = Some(text),
                "batch" => batch = int(1, MAX_BATCH as u64)? as u32,
                "threads" => threads = int(1, MAX_THREADS as u64)? as usize,
                "c" => {
                    c = text
                        .parse::<f64>()
                        .ok()
                        .filter(|c| c.is_finite() && (0.0..=1e6).contains(c))
                        .ok_or_else(|| Error::Invalid {
                            what: WHAT,
                            reason: format!("c must be a number 0..=1e6, got {text:?}"),
                        })?
                }
                "value" => {
                    value = match text.as_str() {
                        "win" => Value::Win,
                        "reward" => Value::Reward,
                        _ => {
                            return Err(Error::Unknown {
                                what: "ismcts value",
                                name: text,
                                expected: "win, reward".to_string(),
                            })
                        }
                    }
                }
                "playout" => playout = text,
                _ => {
                    return Err(Error::Unknown {
                        what: WHAT,
                        name: key,
                        expected: "iters, ms, playout, c, value, batch, threads".to_string(),
                    })
                }
            }
        }
        let budget = Budget::parse(
            WHAT,
            "iters",
            iters.as_deref(),
            ms.as_deref(),
            MAX_ITERS,
            1000,
        )?;
        let bot = game.bot(&playout)?;
        check_batchable(&*bot)?;
        let mut shown = format!("{PREFIX}:{},playout={playout},c={c}", budget.shown("iters"));
        if value == Value::Reward {
            shown += ",value=reward";
        }
        if batch > 1 {
            shown += &format!(",batch={batch}");
        }
        Ok(Ismcts {
            name: shown,
            budget,
            c,
            value,
            batch,
            threads,
            playout: bot,
            determinize,
        })
    }

    /// The budget per decision: iterations, or milliseconds.
    pub fn budget(&self) -> Budget {
        self.budget
    }

    /// The root's children after a search of `state` (a live state that passes
    /// [`crate::core::Game::check_state`]) with the stream `rng` deals: each tried action in action order, with the mean value of its iterations for
    /// the seat to act and their number. What [`Bot::act`] picks from (the most visits,
    /// then the highest mean). Errors: a playout the game refuses (as
    /// [`crate::core::rollout::rollout_returns`]).
    pub fn evaluate(
        &self,
        game: &G,
        state: &G::State,
        rng: &mut LaneRng,
    ) -> Result<Vec<(u32, f64, u64)>> {
        let seat = game.current_player(state);
        let base = rng.next_u64();
        let p = game.num_players();
        let mut nodes = vec![Node {
            action: NONE,
            visits: 0,
            avail: 0,
            value: 0.0,
            first_child: NONE,
            next_sibling: NONE,
        }];
        let mut scratch = vec![0u8; game.num_actions()];
        let deadline = self.budget.deadline();
        let limit = match self.budget {
            Budget::Count(n) => n,
            Budget::Millis(_) => MAX_ITERS,
        };
        let mut done = 0u32;
        let mut round = 0u64;
        while done < limit {
            if done > 0 && deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
            let size = self.batch.min(limit - done);
            let descents: Vec<Descent<G::State>> = (done..done + size)
                .map(|i| {
                    let mut stream = LaneRng::for_lane(base, i as u64, ITERATION_KEY);
                    let world = (self.determinize)(game, state, seat, &mut stream);
                    self.descend(game, &mut nodes, world, &mut stream, &mut scratch)
                })
                .collect();
            let starts: Vec<(G::State, u32)> = descents.iter().filter_map(|d| d.playout).collect();
            let seed = splitmix64(base ^ PLAYOUT_KEY).wrapping_add(round);
            let played = if starts.is_empty() {
                None
            } else if self.threads > 1 && starts.len() > 1 {
                Some(rollouts(
                    game,
                    &starts,
                    &*self.playout,
                    seed,
                    Some(self.threads),
                )?)
            } else {
                Some(rollouts_serial(game, &starts, &*self.playout, seed)?)
            };
            let mut next = 0;
            for d in descents {
                let mut rewards = d.rewards;
                let end = match (&d.playout, &played) {
                    (Some(_), Some(r)) => {
                        for (t, x) in rewards.iter_mut().zip(&r.returns[next * p..(next + 1) * p]) {
                            *t += x;
                        }
                        next += 1;
                        r.ends[next - 1]
                    }
                    _ => d.end,
                };
                let values = self.values(game, &end, &rewards);
                for &(n, mover) in &d.path[1..] {
                    nodes[n as usize].value += values[mover];
                }
                nodes[0].visits += 1;
            }
            done += size;
            round += 1;
        }
        let mut out = Vec::new();
        let mut child = nodes[0].first_child;
        while child != NONE {
            let n = &nodes[child as usize];
            out.push((n.action, n.value / n.visits.max(1) as f64, n.visits as u64));
            child = n.next_sibling;
        }
        out.sort_unstable_by_key(|&(a, _, _)| a);
        Ok(out)
    }

    /// Each seat's value of the end `end`, whose rewards from the decision on are
    /// `rewards`.
    fn values(&self, game: &G, end: &G::State, rewards: &[f32]) -> Vec<f64> {
        match self.value {
            Value::Win => super::win_shares(game, end, rewards),
            Value::Reward => rewards.iter().map(|&r| r as f64).collect(),
        }
    }

    /// Selection and expansion in `world`: the path from the root, each node's visit
    /// counted at once (the value comes at the back-up).
    fn descend(
        &self,
        game: &G,
        nodes: &mut Vec<Node>,
        mut world: G::State,
        stream: &mut LaneRng,
        mask: &mut [u8],
    ) -> Descent<G::State> {
        let p = game.num_players();
        let mut rewards = vec![0f32; p];
        let mut step = vec![0f32; p];
        let mut path = vec![(0u32, 0usize)];
        let mut node = 0u32;
        let mut untried: Vec<u32> = Vec::new();
        loop {
            let (terminated, truncated) = game.finished(&world);
            if terminated || truncated {
                return Descent {
                    path,
                    rewards,
                    playout: None,
                    end: world,
                };
            }
            game.legal_mask(&world, mask);
            let mover = game.current_player(&world);
            // The children legal in this world, and the legal actions without one.
            untried.clear();
            untried.extend((0..mask.len() as u32).filter(|&a| mask[a as usize] != 0));
            let mut best = (NONE, f64::NEG_INFINITY);
            let mut child = nodes[node as usize].first_child;
            while child != NONE {
                let n = nodes[child as usize];
                if mask.get(n.action as usize).is_some_and(|&m| m != 0) {
                    untried.retain(|&a| a != n.action);
                    let visits = n.visits.max(1) as f64;
                    let score =
                        n.value / visits + self.c * ((n.avail.max(1) as f64).ln() / visits).sqrt();
                    if score > best.1 {
                        best = (child, score);
                    }
                }
                child = n.next_sibling;
            }
            // Every child legal here was available in this iteration.
            let mut child = nodes[node as usize].first_child;
            while child != NONE {
                let n = &mut nodes[child as usize];
                if mask.get(n.action as usize).is_some_and(|&m| m != 0) {
                    n.avail += 1;
                }
                child = n.next_sibling;
            }
            if !untried.is_empty() {
                let action = untried[stream.below(untried.len() as u32) as usize];
                let id = nodes.len() as u32;
                let parent = &mut nodes[node as usize];
                let sibling = parent.first_child;
                parent.first_child = id;
                nodes.push(Node {
                    action,
                    visits: 1,
                    avail: 1,
                    value: 0.0,
                    first_child: NONE,
                    next_sibling: sibling,
                });
                path.push((id, mover));
                return Descent {
                    path,
                    rewards,
                    playout: Some((world, action)),
                    end: world,
                };
            }
            // Every legal action has a child, so `best` is one of them.
            let chosen = &mut nodes[best.0 as usize];
            chosen.visits += 1;
            let action = chosen.action;
            step.fill(0.0);
            let applied = game.step(&mut world, action, stream, &mut step).applied;
            debug_assert!(applied, "a legal action was refused");
            for (t, r) in rewards.iter_mut().zip(&step) {
                *t += r;
            }
            path.push((best.0, mover));
            node = best.0;
        }
    }
}

impl<G: GameSpec> Bot<G> for Ismcts<G> {
    fn name(&self) -> &str {
        &self.name
    }

    fn act(&self, game: &G, state: &G::State, mask: &[u8], rng: &mut LaneRng) -> u32 {
        if mask.iter().filter(|&&m| m != 0).count() <= 1 {
            return random_legal(mask, rng);
        }
        match self.evaluate(game, state, rng) {
            Ok(children) if !children.is_empty() => {
                let mut best = children[0];
                for &(a, v, n) in &children[1..] {
                    if (n, v) > (best.2, best.1) {
                        best = (a, v, n);
                    }
                }
                best.0
            }
            // Only buffers the system refuses get here (the worlds are valid states and
            // the playout bot plays legal actions): play as the playout bot would.
            _ => self.playout.act(game, state, mask, rng),
        }
    }
}
