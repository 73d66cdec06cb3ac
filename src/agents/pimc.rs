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
//! | `playout` | `random` | the game's built-in bot that plays every seat in the rollouts |
//! | `halving` | 0 | 1: sequential halving (the same budget spent in rounds, the worse half of the actions dropped after each) |
//! | `threads` | 1 | workers of the rollouts' batch environment (never changes the action) |
//!
//! The bot is deterministic: its action depends only on the stream it is given and on what
//! its seat sees of the state (the worlds are dealt from the stream through the game's
//! determinization, which reads nothing hidden), whatever `threads` is. It does not
//! remember between decisions.

use crate::core::policy::random_legal;
use crate::core::rollout::rollout_returns;
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
    halving: bool,
    threads: usize,
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
            "pimc, pimc:sims=N,playout=BOT,halving=0|1,threads=T",
        )?;
        let determinize = G::determinizer().ok_or_else(|| Error::Invalid {
            what: "bot",
            reason: format!("{} has no determinization, which pimc needs", G::INFO.id),
        })?;
        let (mut sims, mut threads, mut playout) = (100u32, 1usize, "random".to_string());
        let mut halving = false;
        for (key, value) in pairs {
            let int = |min: u64, max: u64| super::int_option("pimc option", &key, &value, min, max);
            match key.as_str() {
                "sims" => sims = int(1, MAX_SIMS as u64)? as u32,
                "threads" => threads = int(1, MAX_THREADS as u64)? as usize,
                "halving" => halving = int(0, 1)? == 1,
                "playout" => playout = value,
                _ => {
                    return Err(Error::Unknown {
                        what: "pimc option",
                        name: key,
                        expected: "sims, playout, halving, threads".to_string(),
                    })
                }
            }
        }
        let bot = game.bot(&playout)?;
        crate::core::policy::check_batchable(&*bot)?;
        let shown = if halving { ",halving=1" } else { "" };
        Ok(Pimc {
            name: format!("{PREFIX}:sims={sims},playout={playout}{shown}"),
            sims,
            halving,
            threads,
            playout: bot,
            determinize,
        })
    }

    /// Worlds per legal action.
    pub fn sims(&self) -> u32 {
        self.sims
    }

    /// Each legal action of `state` (in action order) with the mean return of its rollouts
    /// for the seat to act and their number, from the worlds and rollouts that stream `rng`
    /// deals: what [`Bot::act`] picks from (the most rollouts, then the highest mean).
    /// Errors: as [`rollout_returns`].
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
        let p = game.num_players();
        let budget = legal.len() as u64 * self.sims as u64;
        let rounds = if self.halving {
            (usize::BITS - (legal.len().max(2) - 1).leading_zeros()) as u64
        } else {
            1
        };
        let mut sums = vec![0f64; legal.len()];
        let mut counts = vec![0u64; legal.len()];
        let mut alive: Vec<usize> = (0..legal.len()).collect();
        let mut next_world = 0u64;
        for round in 0..rounds {
            let per = (budget / (rounds * alive.len() as u64)).max(1);
            let worlds: Vec<G::State> = (next_world..next_world + per)
                .map(|w| {
                    let mut stream = LaneRng::for_lane(base, w, WORLD_KEY);
                    (self.determinize)(game, state, seat, &mut stream)
                })
                .collect();
            next_world += per;
            let starts: Vec<(G::State, u32)> = alive
                .iter()
                .flat_map(|&i| {
                    let a = legal[i];
                    worlds.iter().map(move |&w| (w, a))
                })
                .collect();
            let seed = base.wrapping_add(round);
            let returns = rollout_returns(game, &starts, &*self.playout, seed, Some(self.threads))?;
            for (&i, rows) in alive.iter().zip(returns.chunks_exact(per as usize * p)) {
                sums[i] += rows.chunks_exact(p).map(|r| r[seat] as f64).sum::<f64>();
                counts[i] += per;
            }
            if round + 1 < rounds {
                // Keep the better half (ties: the first in action order).
                let mean = |i: usize| sums[i] / counts[i] as f64;
                alive.sort_by(|&x, &y| mean(y).total_cmp(&mean(x)).then(x.cmp(&y)));
                alive.truncate(alive.len().div_ceil(2));
                alive.sort_unstable();
            }
        }
        Ok(legal
            .iter()
            .enumerate()
            .map(|(i, &a)| (a, sums[i] / counts[i].max(1) as f64, counts[i]))
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
