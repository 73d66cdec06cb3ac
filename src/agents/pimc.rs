//! `pimc`: Perfect Information Monte Carlo search (determinized rollouts), for every game
//! with a determinization ([`crate::core::determinize`]).
//!
//! At each decision the bot deals `sims` worlds for its seat (the hidden cards dealt afresh,
//! uniformly among those consistent with what the seat has seen), and for every legal
//! action plays each world to the end with a playout bot: `legal × sims` rollouts, run
//! together as the lanes of one batch environment ([`rollout_returns`]). It plays the
//! action whose rollouts return the seat the most on average (the first such in action
//! order). Every action is tried on the same worlds (common random numbers), as
//! OpenSpiel's PIMC bot evaluates each world for every move. A decision with one legal
//! action is played without search.
//!
//! The name carries the options, `pimc:sims=200,playout=safe-heuristic,threads=2`:
//!
//! | option | default | meaning |
//! | --- | --- | --- |
//! | `sims` | 100 | worlds per legal action (the budget, in rollouts per action) |
//! | `playout` | `random` | the game's built-in bot that plays every seat in the rollouts |
//! | `threads` | 1 | workers of the rollouts' batch environment (never changes the action) |
//!
//! The bot is deterministic: its action depends only on the stream it is given and on what
//! its seat sees of the state (the worlds are dealt from the stream through the game's
//! determinization, which reads nothing hidden), whatever `threads` is. It does not
//! remember between decisions.

use crate::core::policy::random_legal;
use crate::core::rollout::rollout_returns;
use crate::core::spec::split_pairs;
use crate::core::{Bot, DeterminizeFn, Error, Game, GameSpec, LaneRng, Result, MAX_THREADS};

/// The family prefix of the name.
pub const PREFIX: &str = "pimc";

/// Most worlds per action.
pub const MAX_SIMS: u32 = 1 << 16;

/// Key that keeps the world streams apart from the rollouts' streams.
const WORLD_KEY: u64 = 0x7069_6d63_776f_726c;

/// The `pimc` search bot (see the module documentation).
pub struct Pimc<G: Game> {
    name: String,
    sims: u32,
    threads: usize,
    playout: Box<dyn Bot<G>>,
    determinize: DeterminizeFn<G>,
}

impl<G: GameSpec> Pimc<G> {
    /// The bot named `name`: `pimc`, or `pimc:` followed by options (see the module
    /// documentation). An unknown option, a bad value, a playout bot the game does not
    /// know or that remembers, or a game without a determinization is an error.
    pub fn parse(game: &G, name: &str) -> Result<Pimc<G>> {
        let options = match name.strip_prefix(PREFIX) {
            Some("") => "",
            Some(rest) => rest.strip_prefix(':').ok_or_else(|| Error::Unknown {
                what: "bot",
                name: name.to_string(),
                expected: "pimc, pimc:sims=N,playout=BOT,threads=T".to_string(),
            })?,
            None => {
                return Err(Error::Unknown {
                    what: "bot",
                    name: name.to_string(),
                    expected: "pimc".to_string(),
                })
            }
        };
        let determinize = G::determinizer().ok_or_else(|| Error::Invalid {
            what: "bot",
            reason: format!("{} has no determinization, which pimc needs", G::INFO.id),
        })?;
        let (mut sims, mut threads, mut playout) = (100u32, 1usize, "random".to_string());
        let mut given: Vec<String> = Vec::new();
        for (key, value) in split_pairs(options)? {
            if given.contains(&key) {
                return Err(Error::Invalid {
                    what: "pimc option",
                    reason: format!("{key} is given twice"),
                });
            }
            let int = |min: u64, max: u64| -> Result<u64> {
                value
                    .parse::<u64>()
                    .ok()
                    .filter(|v| (min..=max).contains(v))
                    .ok_or_else(|| Error::Invalid {
                        what: "pimc option",
                        reason: format!("{key} must be an integer {min}..={max}, got {value:?}"),
                    })
            };
            match key.as_str() {
                "sims" => sims = int(1, MAX_SIMS as u64)? as u32,
                "threads" => threads = int(1, MAX_THREADS as u64)? as usize,
                "playout" => playout = value.clone(),
                _ => {
                    return Err(Error::Unknown {
                        what: "pimc option",
                        name: key,
                        expected: "sims, playout, threads".to_string(),
                    })
                }
            }
            given.push(key);
        }
        let bot = game.bot(&playout)?;
        crate::core::policy::check_batchable(&*bot)?;
        Ok(Pimc {
            name: format!("{PREFIX}:sims={sims},playout={playout}"),
            sims,
            threads,
            playout: bot,
            determinize,
        })
    }

    /// Worlds per legal action.
    pub fn sims(&self) -> u32 {
        self.sims
    }

    /// The mean return of each legal action of `state` for the seat to act (in action
    /// order, with the actions), from the worlds and rollouts that stream `rng` deals: what
    /// [`Bot::act`] maximizes. Errors: as [`rollout_returns`].
    pub fn evaluate(
        &self,
        game: &G,
        state: &G::State,
        mask: &[u8],
        rng: &mut LaneRng,
    ) -> Result<Vec<(u32, f64)>> {
        let legal: Vec<u32> = (0..mask.len() as u32)
            .filter(|&a| mask[a as usize] != 0)
            .collect();
        let seat = game.current_player(state);
        let base = rng.next_u64();
        let worlds: Vec<G::State> = (0..self.sims as u64)
            .map(|w| {
                (self.determinize)(
                    game,
                    state,
                    seat,
                    &mut LaneRng::for_lane(base, w, WORLD_KEY),
                )
            })
            .collect();
        let starts: Vec<(G::State, u32)> = legal
            .iter()
            .flat_map(|&a| worlds.iter().map(move |&w| (w, a)))
            .collect();
        let returns = rollout_returns(game, &starts, &*self.playout, base, Some(self.threads))?;
        let p = game.num_players();
        let per_action = self.sims as usize * p;
        Ok(legal
            .iter()
            .zip(returns.chunks_exact(per_action))
            .map(|(&a, rows)| {
                let sum: f64 = rows.chunks_exact(p).map(|r| r[seat] as f64).sum();
                (a, sum / self.sims as f64)
            })
            .collect())
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
                for &(a, v) in &values[1..] {
                    if v > best.1 {
                        best = (a, v);
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
