//! Bots above the games: the one place a bot name becomes a bot.
//!
//! A game knows its own built-in bots ([`GameSpec::bot`]: `random`, its heuristics). Bots
//! that work for any game (search bots over a game's determinization, trained policies
//! read from a file) live here, above the games, and are reached by a family prefix in the
//! name (`family:options`). Every tool that takes a bot name (`cardvec match`, the learner
//! view's opponents, `cardvec.bots.act`, campaigns, the web table) resolves it through
//! [`bot`], so a family added here works everywhere at once; nothing here switches on a
//! game's name, and `core/` takes bots already built (it never resolves a name).

//!
//! The families, for every game with a determinization: [`pimc`]
//! (`pimc:sims=N,playout=BOT`, determinized rollouts of every action) and [`ismcts`]
//! (`ismcts:iters=N,playout=BOT,c=C`, single-observer information-set MCTS); and for every
//! game, [`policy_file`] (`policy:<path>`, a trained network read from a policy file).
//!
//! Each takes its per-decision budget ([`Budget`]) either as a count (`sims=`, `iters=`:
//! deterministic, the action a function of the bot's stream whatever the thread count) or
//! as wall-clock milliseconds (`ms=`: the arena's clock, searching until the time is
//! spent; the action then depends on the machine's speed and load and is **not**
//! reproducible). The two are exclusive: a name with both is an error.

pub mod ismcts;
pub mod pimc;
pub mod policy_file;

use std::time::{Duration, Instant};

use crate::core::spec::split_pairs;
use crate::core::{Bot, EnvOptions, Error, GameSpec, LearnerEnv, LearnerSeat, Opponents, Result};

/// The bot named `name` for `game`: a bot of a family above the games when the name starts
/// with its prefix (`pimc` or `pimc:options`, see [`pimc`]), else the game's own built-in
/// bot ([`GameSpec::bot`]). An unknown name is an [`crate::Error::Unknown`] listing the
/// game's bots.
pub fn bot<G: GameSpec>(game: &G, name: &str) -> Result<Box<dyn Bot<G>>> {
    if is_family(name, pimc::PREFIX) {
        return Ok(Box::new(pimc::Pimc::parse(game, name)?));
    }
    if is_family(name, ismcts::PREFIX) {
        return Ok(Box::new(ismcts::Ismcts::parse(game, name)?));
    }
    if is_family(name, policy_file::PREFIX) {
        return Ok(Box::new(policy_file::PolicyBot::parse(game, name)?));
    }
    game.bot(name)
}

/// The names of the bot families above the games, as patterns (what `cardvec games` may
/// list after a game's own bots).
pub const FAMILIES: &[&str] = &[
    "pimc:sims=<N>|ms=<MS>,playout=<bot>,value=<reward|win>,crn=<0|1>,horizon=<H>,halving=<0|1>,threads=<T>",
    "ismcts:iters=<N>|ms=<MS>,playout=<bot>,c=<C>,value=<win|reward>,batch=<B>,threads=<T>",
    "policy:<path>,sample=<0|1>",
];

/// Most milliseconds per decision of a `ms=` budget (ten minutes).
pub const MAX_MS: u32 = 600_000;

/// A search bot's budget per decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// A number of simulations (pimc: worlds per legal action; ismcts: iterations):
    /// deterministic and independent of the thread count.
    Count(u32),
    /// Wall-clock milliseconds per decision: the search runs until they are spent (at least
    /// one round of simulations, however slow). Not reproducible: how many simulations fit
    /// depends on the machine and its load.
    Millis(u32),
}

impl Budget {
    /// The budget of a family's options: `ms` (milliseconds, `1..=`[`MAX_MS`]) or the
    /// count under `count_key` (`1..=max`), `default` when neither is given. Both given is
    /// an error (`what` names the family's options).
    fn parse(
        what: &'static str,
        count_key: &str,
        count: Option<&str>,
        ms: Option<&str>,
        max: u32,
        default: u32,
    ) -> Result<Budget> {
        match (count, ms) {
            (Some(_), Some(_)) => Err(Error::Invalid {
                what,
                reason: format!(
                    "{count_key} and ms are two budgets, give one ({count_key}: simulations, reproducible; ms: milliseconds per decision, not reproducible)"
                ),
            }),
            (Some(n), None) => Ok(Budget::Count(
                int_option(what, count_key, n, 1, max as u64)? as u32,
            )),
            (None, Some(ms)) => Ok(Budget::Millis(
                int_option(what, "ms", ms, 1, MAX_MS as u64)? as u32,
            )),
            (None, None) => Ok(Budget::Count(default)),
        }
    }

    /// The budget as a bot name shows it (`sims=100`, `ms=50`).
    fn shown(self, count_key: &str) -> String {
        match self {
            Budget::Count(n) => format!("{count_key}={n}"),
            Budget::Millis(ms) => format!("ms={ms}"),
        }
    }

    /// When a decision that starts now must stop (`None` for a count budget).
    fn deadline(self) -> Option<Instant> {
        match self {
            Budget::Count(_) => None,
            Budget::Millis(ms) => Some(Instant::now() + Duration::from_millis(ms as u64)),
        }
    }
}

/// Each seat's share of the win at `end` (a finished game; `rewards`: each seat's rewards
/// summed over the rollout that reached it): 1 for a sole winner of the game's
/// [`Outcome`](crate::core::Outcome), `1/k` to each of `k` tied winners, 0 to the others;
/// a game that names no winner: the leaders of `rewards` win.
fn win_shares<G: GameSpec>(game: &G, end: &G::State, rewards: &[f32]) -> Vec<f64> {
    match game.outcome(end).map(|o| o.winners) {
        Some(w) if !w.is_empty() => {
            let share = 1.0 / w.len() as f64;
            (0..rewards.len())
                .map(|s| if w.contains(&s) { share } else { 0.0 })
                .collect()
        }
        _ => {
            let best = rewards.iter().copied().fold(f32::NEG_INFINITY, f32::max);
            let k = rewards.iter().filter(|&&r| r == best).count() as f64;
            rewards
                .iter()
                .map(|&r| if r == best { 1.0 / k } else { 0.0 })
                .collect()
        }
    }
}

/// Whether `name` is `prefix` or `prefix:options`.
fn is_family(name: &str, prefix: &str) -> bool {
    name.strip_prefix(prefix)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with(':'))
}

/// The options of a family's bot name (`prefix` alone: none; `prefix:k=v,...`), each key
/// once. Errors: a name of another family, a piece that is not `name=value`, a key given
/// twice (`what` names the family's options, `usage` what a name looks like).
fn family_options(
    name: &str,
    prefix: &str,
    what: &'static str,
    usage: &str,
) -> Result<Vec<(String, String)>> {
    let options = match name.strip_prefix(prefix) {
        Some("") => "",
        Some(rest) if rest.starts_with(':') => &rest[1..],
        _ => {
            return Err(Error::Unknown {
                what: "bot",
                name: name.to_string(),
                expected: usage.to_string(),
            })
        }
    };
    let pairs = split_pairs(options)?;
    for (k, (key, _)) in pairs.iter().enumerate() {
        if pairs[..k].iter().any(|(other, _)| other == key) {
            return Err(Error::Invalid {
                what,
                reason: format!("{key} is given twice"),
            });
        }
    }
    Ok(pairs)
}

/// Option `key`'s `value` as an integer in `min..=max`, or an error naming both.
fn int_option(what: &'static str, key: &str, value: &str, min: u64, max: u64) -> Result<u64> {
    value
        .parse::<u64>()
        .ok()
        .filter(|v| (min..=max).contains(v))
        .ok_or_else(|| Error::Invalid {
            what,
            reason: format!("{key} must be an integer {min}..={max}, got {value:?}"),
        })
}

/// A learner view of `game` whose other seats are played by the bots `opponents` names
/// (every name [`bot`] knows), the learner at `seat`: [`LearnerEnv::with_bots`] with
/// [`bot`] as the resolver.
pub fn learner<G: GameSpec>(
    game: G,
    opponents: &Opponents,
    seat: LearnerSeat,
    options: EnvOptions,
) -> Result<LearnerEnv<G>> {
    LearnerEnv::with_bots(game, opponents, seat, options, bot::<G>)
}
