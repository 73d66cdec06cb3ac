//! The ladder of any registered game: a pool of bots (any name [`crate::agents::bot`] knows)
//! played against each other over **duplicate deals**, and the standings the games give:
//! win rates with 95% intervals, mean score differences, and ratings with intervals
//! (Bradley–Terry for two seats, Plackett–Luce for more, [`ratings`]). See `docs/ladder.md`.
//!
//! # The schedule
//!
//! The ladder is a list of *units*, each one deal played once per rotation of the seats (as
//! many games as seats, [`crate::core::matches::play_deal`]): game `r` of a unit seats bot
//! `table[(s + r) % seats]` at seat `s`, all its games dealt from stream `(seed, deal, 0)`,
//! so every bot of the table plays every seat of the same cards.
//!
//! - Two seats: every pair of bots (`i < j`, neighbouring entries first,
//!   [`ladder_pairs`]) plays `⌈games / 2⌉` deals; unit `p · deals + k` is deal `k` of pair
//!   `p`, the first bot of the pair in seat 0 in its first game. Every pair plays the same
//!   deals `0, 1, ...`.
//! - Three or more seats: `⌈games / seats⌉` units; unit `d` is deal `d` at a table of
//!   `seats` distinct bots drawn uniformly from the pool, in a random seat order, from
//!   stream `(seed, d, TABLE_STREAM)`.
//!
//! Units are played in parallel on the caller's rayon pool and tallied in unit order, so the
//! results never depend on the thread count. Each finished unit is one line of the ladder's
//! log ([`UnitRecord`], after a header line holding the [`LadderSpec`]); [`play`] given the
//! records of a log skips their units and returns exactly what an uninterrupted ladder
//! returns.
//!
//! A bot that remembers between its decisions ([`crate::core::Bot::remembers`]) is built
//! afresh for every game it plays.
//!
//! [`play_timed`] also measures each bot's wall-clock time per decision over the games it
//! plays ([`DecisionTime`]): a figure of the machine, its load and the thread count, never
//! part of the log nor of what the standings depend on.

pub mod ratings;

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::core::matches::play_deal;
use crate::core::progress::Progress;
use crate::core::spec::{GameSpec, Options};
use crate::core::stats::{wilson, Summary};
use crate::core::{Bot, Error, Game, LaneRng, Result};
use crate::registry::{self, Visitor};
use ratings::{fit_plackett_luce, order_by_score, Rankings, Rating};

/// The episode of the stream `(seed, d, TABLE_STREAM)` that draws the table of unit `d` of
/// a ladder of three or more seats.
pub const TABLE_STREAM: u64 = 0x7461_626c_6573;

/// The version of the log format, the `ladder` field of a log's header.
pub const LOG_VERSION: u32 = 1;

/// The most bots a ladder may hold.
pub const MAX_BOTS: usize = 256;

/// The pairs of a ladder of `n` bots (indices `i < j`), neighbouring entries first: with the
/// bots listed weakest first, the pairs that decide the order come before the foregone ones
/// (`(0,1), (1,2), (2,3), (0,2), (1,3), (0,3)` for 4).
pub fn ladder_pairs(n: usize) -> Vec<(usize, usize)> {
    let mut pairs: Vec<(usize, usize)> = (0..n)
        .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
        .collect();
    pairs.sort_by_key(|&(i, j)| (j - i, j));
    pairs
}

/// What a ladder plays: the header line of its log. Two runs with equal specs play the
/// same games.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LadderSpec {
    /// The log format version ([`LOG_VERSION`]).
    pub ladder: u32,
    /// The game's registry id.
    pub game: String,
    /// The game's options, in their text form (every option the configured game reports).
    pub options: String,
    /// Seats per game.
    pub seats: usize,
    /// The bots, distinct names; the first is the ratings' anchor (at 1000).
    pub bots: Vec<String>,
    /// Games asked for: per pair for two seats, in all for more (rounded up to whole deals).
    pub games: u64,
    /// The seed of every deal and table.
    pub seed: u64,
    /// The step limit of a game (cut off, scored by the rewards paid until then).
    pub max_steps: Option<u32>,
}

/// One finished unit (a deal played at every rotation): one line of a ladder log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitRecord {
    /// The unit's index in the schedule.
    pub unit: u64,
    /// The table: the bots in seat order of the unit's first game.
    pub bots: Vec<String>,
    /// The games, rotation `r` at index `r`.
    pub games: Vec<PlayedGame>,
}

/// One game of a unit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayedGame {
    /// Each seat's total reward.
    pub rewards: Vec<f32>,
    /// Actions applied.
    pub plies: u32,
    /// Cut off rather than ended.
    pub truncated: bool,
}

/// The game of a spec, its pool of bots, built: what [`play`] needs of the registry.
struct Pool<G: GameSpec> {
    game: G,
    bots: Vec<Box<dyn Bot<G>>>,
    /// Per bot, when timed: nanoseconds spent in its decisions and their number.
    clocks: Option<Vec<(AtomicU64, AtomicU64)>>,
}

/// A bot whose decisions are timed into a pool's clock.
struct Timed<'a, G: Game> {
    bot: &'a dyn Bot<G>,
    clock: &'a (AtomicU64, AtomicU64),
}

impl<G: Game> Bot<G> for Timed<'_, G> {
    fn name(&self) -> &str {
        self.bot.name()
    }

    fn act(&self, game: &G, state: &G::State, mask: &[u8], rng: &mut LaneRng) -> u32 {
        let began = Instant::now();
        let action = self.bot.act(game, state, mask, rng);
        let nanos = began.elapsed().as_nanos().min(u64::MAX as u128) as u64;
        self.clock.0.fetch_add(nanos, Ordering::Relaxed);
        self.clock.1.fetch_add(1, Ordering::Relaxed);
        action
    }

    fn remembers(&self) -> bool {
        self.bot.remembers()
    }
}

/// One bot's measured time per decision (wall clock, over the games a [`play_timed`] run
/// played, not those resumed from a log).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DecisionTime {
    /// The bot.
    pub bot: String,
    /// Decisions timed.
    pub decisions: u64,
    /// Mean seconds per decision (0 when none was timed).
    pub seconds: f64,
}

fn configure<G: GameSpec>(options: &str) -> Result<G> {
    G::configure(&Options::parse(G::INFO.options, options)?)
}

impl<G: GameSpec> Pool<G> {
    fn new(spec: &LadderSpec, timed: bool) -> Result<Pool<G>> {
        let game = configure::<G>(&spec.options)?;
        let bots = spec
            .bots
            .iter()
            .map(|name| crate::agents::bot(&game, name))
            .collect::<Result<Vec<_>>>()?;
        let clocks = timed.then(|| {
            (0..bots.len())
                .map(|_| (AtomicU64::new(0), AtomicU64::new(0)))
                .collect()
        });
        Ok(Pool { game, bots, clocks })
    }

    /// Each bot's time per decision so far (`None` when the pool is not timed).
    fn times(&self, spec: &LadderSpec) -> Option<Vec<DecisionTime>> {
        self.clocks.as_ref().map(|clocks| {
            clocks
                .iter()
                .zip(&spec.bots)
                .map(|((nanos, count), bot)| {
                    let decisions = count.load(Ordering::Relaxed);
                    DecisionTime {
                        bot: bot.clone(),
                        decisions,
                        seconds: nanos.load(Ordering::Relaxed) as f64
                            / 1e9
                            / decisions.max(1) as f64,
                    }
                })
                .collect()
        })
    }

    /// Game `rotation` of `unit` (its table `table`).
    fn play_game(
        &self,
        spec: &LadderSpec,
        table: &[usize],
        deal: u64,
        rotation: u64,
    ) -> Result<PlayedGame> {
        let fresh: Vec<Option<Box<dyn Bot<G>>>> = table
            .iter()
            .map(|&b| {
                self.bots[b]
                    .remembers()
                    .then(|| crate::agents::bot(&self.game, &spec.bots[b]))
                    .transpose()
            })
            .collect::<Result<_>>()?;
        let bots: Vec<&dyn Bot<G>> = table
            .iter()
            .zip(&fresh)
            .map(|(&b, f)| f.as_deref().unwrap_or(self.bots[b].as_ref()))
            .collect();
        let timed: Vec<Timed<G>> = match &self.clocks {
            Some(clocks) => table
                .iter()
                .zip(&bots)
                .map(|(&b, &bot)| Timed {
                    bot,
                    clock: &clocks[b],
                })
                .collect(),
            None => Vec::new(),
        };
        let bots: Vec<&dyn Bot<G>> = if timed.is_empty() {
            bots
        } else {
            timed.iter().map(|t| t as &dyn Bot<G>).collect()
        };
        let played = play_deal(&self.game, &bots, spec.seed, deal, rotation, spec.max_steps);
        Ok(PlayedGame {
            rewards: played.rewards,
            plies: played.plies,
            truncated: played.truncated,
        })
    }

    fn play_unit(&self, spec: &LadderSpec, unit: u64) -> Result<UnitRecord> {
        let (table, deal) = spec.table(unit);
        let games = (0..spec.seats as u64)
            .map(|r| self.play_game(spec, &table, deal, r))
            .collect::<Result<Vec<_>>>()?;
        Ok(UnitRecord {
            unit,
            bots: table.iter().map(|&b| spec.bots[b].clone()).collect(),
            games,
        })
    }
}

struct Check<'a>(&'a LadderSpec);

impl Visitor for Check<'_> {
    type Output = Result<(String, usize)>;
    fn visit<G: GameSpec>(&mut self) -> Self::Output {
        let pool = Pool::<G>::new(self.0, false)?;
        Ok((pool.game.options().to_string(), pool.game.num_players()))
    }
}

impl LadderSpec {
    /// The ladder of game `game` (a registry id) configured by `options`, among `bots` (two
    /// or more distinct names the game knows, at least as many as its seats), `games`
    /// games per pair (two seats) or in all (more seats), dealt from `seed`, each game cut
    /// off after `max_steps` plies if given. Errors: an unknown game or bot, options of
    /// another game, `games` of 0, too few bots, a bot named twice.
    pub fn new(
        game: &str,
        options: &Options,
        bots: &[String],
        games: u64,
        seed: u64,
        max_steps: Option<u32>,
    ) -> Result<LadderSpec> {
        let info = registry::info(game)?;
        if options.specs() != info.options {
            return Err(Error::Invalid {
                what: "options",
                reason: format!("checked against another game's options, not {game}'s"),
            });
        }
        let mut spec = LadderSpec {
            ladder: LOG_VERSION,
            game: game.to_string(),
            options: options.to_string(),
            seats: 0,
            bots: bots.to_vec(),
            games,
            seed,
            max_steps,
        };
        spec.check_fields()?;
        let (options, seats) = registry::visit(game, &mut Check(&spec))??;
        spec.options = options;
        spec.seats = seats;
        spec.check_pool()?;
        spec.units()?;
        Ok(spec)
    }

    /// Checks a spec read from a log as [`LadderSpec::new`] checks its arguments, and that
    /// its options and seats are what the game reports.
    pub fn check(&self) -> Result<()> {
        let invalid = |reason: String| Error::Invalid {
            what: "ladder log header",
            reason,
        };
        if self.ladder != LOG_VERSION {
            return Err(invalid(format!(
                "format {} (this build reads {LOG_VERSION})",
                self.ladder
            )));
        }
        self.check_fields()?;
        let (options, seats) = registry::visit(&self.game, &mut Check(self))??;
        if options != self.options || seats != self.seats {
            return Err(invalid(format!(
                "options {:?} and {} seats, but the game reports {options:?} and {seats}",
                self.options, self.seats
            )));
        }
        self.check_pool()?;
        self.units().map(|_| ())
    }

    fn check_fields(&self) -> Result<()> {
        Error::check_range("games", 1, u64::MAX, self.games)?;
        if self.max_steps == Some(0) {
            return Err(Error::check_range("max_steps", 1, u32::MAX, 0).unwrap_err());
        }
        for (k, name) in self.bots.iter().enumerate() {
            if self.bots[..k].contains(name) {
                return Err(Error::Invalid {
                    what: "ladder",
                    reason: format!("bot {name} is given twice"),
                });
            }
        }
        if self.bots.len() > MAX_BOTS {
            return Err(Error::Invalid {
                what: "ladder",
                reason: format!("{} bots; at most {MAX_BOTS}", self.bots.len()),
            });
        }
        Ok(())
    }

    fn check_pool(&self) -> Result<()> {
        let needed = self.seats.max(2);
        if self.bots.len() < needed {
            return Err(Error::Invalid {
                what: "ladder",
                reason: format!(
                    "{} bot(s) for {} seats; a ladder needs at least {needed} distinct bots",
                    self.bots.len(),
                    self.seats
                ),
            });
        }
        Ok(())
    }

    /// Deals per pair (two seats) or in all (more seats).
    pub fn deals(&self) -> u64 {
        self.games.div_ceil(self.seats.max(1) as u64)
    }

    /// Units in the schedule (an error if the count overflows).
    pub fn units(&self) -> Result<u64> {
        let groups = if self.seats == 2 {
            ladder_pairs(self.bots.len()).len() as u64
        } else {
            1
        };
        groups
            .checked_mul(self.deals())
            .ok_or_else(|| Error::Invalid {
                what: "ladder",
                reason: format!("{} games per pair is too many", self.games),
            })
    }

    /// Games in the schedule.
    pub fn total_games(&self) -> Result<u64> {
        self.units()?
            .checked_mul(self.seats as u64)
            .ok_or_else(|| Error::Invalid {
                what: "ladder",
                reason: format!("{} games is too many", self.games),
            })
    }

    /// Unit `unit`'s table (bot indices in seat order of its first game) and deal index.
    pub fn table(&self, unit: u64) -> (Vec<usize>, u64) {
        if self.seats == 2 {
            let deals = self.deals();
            let (i, j) = ladder_pairs(self.bots.len())[(unit / deals) as usize];
            return (vec![i, j], unit % deals);
        }
        let mut rng = LaneRng::for_lane(self.seed, unit, TABLE_STREAM);
        let mut pool: Vec<usize> = (0..self.bots.len()).collect();
        for k in 0..self.seats {
            let j = k + rng.below((pool.len() - k) as u32) as usize;
            pool.swap(k, j);
        }
        pool.truncate(self.seats);
        (pool, unit)
    }

    /// The JSON line (without newline) of the log's header.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a spec always serializes")
    }

    /// Checks that `record` is unit `record.unit` of this ladder: in range, its table the
    /// schedule's, one game per seat, one finite reward per seat.
    pub fn check_record(&self, record: &UnitRecord) -> std::result::Result<(), String> {
        let units = self.units().map_err(|e| e.to_string())?;
        if record.unit >= units {
            return Err(format!("unit {} of {units}", record.unit));
        }
        let (table, _) = self.table(record.unit);
        let names: Vec<&str> = table.iter().map(|&b| self.bots[b].as_str()).collect();
        if record.bots != names {
            return Err(format!(
                "unit {} seats {:?}, the schedule {names:?}",
                record.unit, record.bots
            ));
        }
        if record.games.len() != self.seats {
            return Err(format!(
                "unit {} has {} games, not {}",
                record.unit,
                record.games.len(),
                self.seats
            ));
        }
        for g in &record.games {
            if g.rewards.len() != self.seats || g.rewards.iter().any(|r| !r.is_finite()) {
                return Err(format!(
                    "unit {}: rewards {:?} are not {} numbers",
                    record.unit, g.rewards, self.seats
                ));
            }
        }
        Ok(())
    }
}

impl UnitRecord {
    /// The JSON line (without newline).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a record always serializes")
    }
}

/// Reads a ladder log: its header ([`LadderSpec`], checked) and its unit records (each
/// checked against it, no unit twice), blank lines skipped. Any malformed line is an
/// [`Error::Invalid`] naming it; an empty log is an error.
pub fn read_log(text: &str) -> Result<(LadderSpec, Vec<UnitRecord>)> {
    let mut spec: Option<LadderSpec> = None;
    let mut records = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let invalid = |reason: String| Error::Invalid {
            what: "ladder log",
            reason: format!("line {}: {reason}", i + 1),
        };
        match &spec {
            None => {
                let s: LadderSpec =
                    serde_json::from_str(line).map_err(|e| invalid(format!("header: {e}")))?;
                s.check().map_err(|e| invalid(e.to_string()))?;
                spec = Some(s);
            }
            Some(s) => {
                let r: UnitRecord =
                    serde_json::from_str(line).map_err(|e| invalid(e.to_string()))?;
                s.check_record(&r).map_err(invalid)?;
                if !seen.insert(r.unit) {
                    return Err(invalid(format!("unit {} is logged twice", r.unit)));
                }
                records.push(r);
            }
        }
    }
    let spec = spec.ok_or_else(|| Error::Invalid {
        what: "ladder log",
        reason: "no header line".into(),
    })?;
    Ok((spec, records))
}

/// A proportion or mean with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Interval {
    /// The estimate.
    pub value: f64,
    /// Lower end of the 95% interval.
    pub low: f64,
    /// Upper end of the 95% interval.
    pub high: f64,
}

impl Interval {
    fn proportion(successes: f64, trials: f64) -> Interval {
        let p = wilson(successes, trials);
        Interval {
            value: p.rate,
            low: p.low,
            high: p.high,
        }
    }

    fn mean(s: &Summary, scale: f64) -> Interval {
        let (m, h) = (scale * s.mean(), scale * s.ci95());
        Interval {
            value: m,
            low: m - h,
            high: m + h,
        }
    }
}

/// One bot's line of a [`LadderReport`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BotLine {
    /// The bot's name.
    pub bot: String,
    /// Games it played.
    pub games: u64,
    /// Its rating (Elo scale) with the 95% interval of its difference from the anchor.
    pub rating: Option<Rating>,
    /// Its wins per game (a game's highest total reward wins; `k` tied leaders get `1/k`
    /// each), with the 95% Wilson interval.
    pub win_share: Interval,
    /// Its mean reward per game (in the game's report unit), 95% interval.
    pub reward: Interval,
}

/// What bot `a` did against bot `b` in the games they played together.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PairLine {
    /// The first bot.
    pub a: String,
    /// The second bot.
    pub b: String,
    /// Games played together.
    pub games: u64,
    /// Deals (units) played together.
    pub deals: u64,
    /// `a`'s score against `b`: games `a` finished above `b`, ties half, per game, 95%
    /// Wilson interval (treating games as independent).
    pub score: Interval,
    /// `a`'s reward minus `b`'s per game (report unit), 95% interval over deals (each
    /// deal's mean over its games: the duplicate estimate).
    pub difference: Interval,
}

/// The standings of a ladder: what [`play`] and [`report`] return.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LadderReport {
    /// The ladder.
    pub spec: LadderSpec,
    /// Units in the schedule.
    pub units: u64,
    /// Units tallied (all of them after [`play`]; those of the records given to [`report`]).
    pub units_done: u64,
    /// Games tallied.
    pub games: u64,
    /// The rating model: `Bradley-Terry` (two seats) or `Plackett-Luce`.
    pub model: &'static str,
    /// Why there are no ratings, if there are none (bots not linked by games).
    pub ratings_error: Option<String>,
    /// The unit of the rewards and differences (the game's report unit).
    pub reward_unit: &'static str,
    /// One line per bot, in the spec's order.
    pub bots: Vec<BotLine>,
    /// Every pair that played (`a` before `b` in the spec's order).
    pub pairs: Vec<PairLine>,
    /// Mean plies per game.
    pub plies_per_game: f64,
    /// Games cut off rather than ended.
    pub truncated: u64,
    /// Each bot's time per decision, in the spec's order, when measured ([`play_timed`]);
    /// not reproducible, absent from the JSON when not measured.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timing: Option<Vec<DecisionTime>>,
}

impl LadderReport {
    /// The report as one JSON line (without newline), `cardvec ladder --json`'s.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a report always serializes")
    }
}

/// The running totals of a ladder, fed unit records in unit order.
struct Tally {
    n: usize,
    units: u64,
    games: u64,
    seats: Vec<u64>,
    wins: Vec<f64>,
    reward: Vec<Summary>,
    together: Vec<Vec<u64>>,
    deals_together: Vec<Vec<u64>>,
    above: Vec<Vec<f64>>,
    difference: Vec<Vec<Summary>>,
    rankings: Rankings,
    plies: Summary,
    truncated: u64,
}

impl Tally {
    fn new(n: usize) -> Result<Tally> {
        Ok(Tally {
            n,
            units: 0,
            games: 0,
            seats: vec![0; n],
            wins: vec![0.0; n],
            reward: vec![Summary::default(); n],
            together: vec![vec![0; n]; n],
            deals_together: vec![vec![0; n]; n],
            above: vec![vec![0.0; n]; n],
            difference: vec![vec![Summary::default(); n]; n],
            rankings: Rankings::new(n)?,
            plies: Summary::default(),
            truncated: 0,
        })
    }

    fn add(&mut self, spec: &LadderSpec, record: &UnitRecord) -> Result<()> {
        let (table, _) = spec.table(record.unit);
        let p = table.len();
        let mut diff = vec![vec![0.0f64; p]; p];
        for (r, g) in record.games.iter().enumerate() {
            // By table position: seat s holds table[(s + r) % p].
            let mut by_pos = vec![0f32; p];
            for (s, &x) in g.rewards.iter().enumerate() {
                by_pos[(s + r) % p] = x;
            }
            let best = by_pos.iter().copied().fold(f32::NEG_INFINITY, f32::max);
            let leaders = by_pos.iter().filter(|&&x| x == best).count() as f64;
            for (a, &x) in by_pos.iter().enumerate() {
                let i = table[a];
                self.seats[i] += 1;
                self.reward[i].push(x as f64);
                if x == best {
                    self.wins[i] += 1.0 / leaders;
                }
                for (b, &y) in by_pos.iter().enumerate() {
                    if a == b {
                        continue;
                    }
                    let j = table[b];
                    self.together[i][j] += 1;
                    self.above[i][j] += if x > y {
                        1.0
                    } else if x == y {
                        0.5
                    } else {
                        0.0
                    };
                    diff[a][b] += (x - y) as f64;
                }
            }
            self.rankings.add(&order_by_score(&table, &by_pos)?, 1.0)?;
            self.plies.push(g.plies as f64);
            self.truncated += g.truncated as u64;
            self.games += 1;
        }
        for a in 0..p {
            for b in 0..p {
                if a != b {
                    let (i, j) = (table[a], table[b]);
                    self.deals_together[i][j] += 1;
                    self.difference[i][j].push(diff[a][b] / record.games.len() as f64);
                }
            }
        }
        self.units += 1;
        Ok(())
    }

    fn report(&self, spec: &LadderSpec, units: u64) -> LadderReport {
        let info = registry::info(&spec.game).expect("a checked spec names a game");
        let (scale, unit) = info.reward_report;
        let fit = if self.games == 0 {
            Err(Error::Invalid {
                what: "ratings",
                reason: "no game played".into(),
            })
        } else {
            fit_plackett_luce(&self.rankings, 0)
        };
        let (ratings, ratings_error) = match fit {
            Ok(f) => (Some(f.elo(1000.0)), None),
            Err(e) => (None, Some(e.to_string())),
        };
        let bots = (0..self.n)
            .map(|i| BotLine {
                bot: spec.bots[i].clone(),
                games: self.seats[i],
                rating: ratings.as_ref().map(|r| r[i]),
                win_share: Interval::proportion(self.wins[i], self.seats[i] as f64),
                reward: Interval::mean(&self.reward[i], scale),
            })
            .collect();
        let mut pairs = Vec::new();
        for i in 0..self.n {
            for j in i + 1..self.n {
                if self.together[i][j] == 0 {
                    continue;
                }
                pairs.push(PairLine {
                    a: spec.bots[i].clone(),
                    b: spec.bots[j].clone(),
                    games: self.together[i][j],
                    deals: self.deals_together[i][j],
                    score: Interval::proportion(self.above[i][j], self.together[i][j] as f64),
                    difference: Interval::mean(&self.difference[i][j], scale),
                });
            }
        }
        LadderReport {
            spec: spec.clone(),
            units,
            units_done: self.units,
            games: self.games,
            model: if spec.seats == 2 {
                "Bradley-Terry"
            } else {
                "Plackett-Luce"
            },
            ratings_error,
            reward_unit: unit,
            bots,
            pairs,
            plies_per_game: self.plies.mean(),
            truncated: self.truncated,
            timing: None,
        }
    }
}

/// The standings of the records of a ladder (all of its units or some, such as a log of
/// an interrupted run), tallied in unit order. Errors: a record that is not of `spec`
/// ([`LadderSpec::check_record`]) or a unit given twice.
pub fn report(spec: &LadderSpec, records: &[UnitRecord]) -> Result<LadderReport> {
    let sorted = sorted_records(spec, records.to_vec())?;
    let mut tally = Tally::new(spec.bots.len())?;
    for r in sorted.values() {
        tally.add(spec, r)?;
    }
    Ok(tally.report(spec, spec.units()?))
}

fn sorted_records(
    spec: &LadderSpec,
    records: Vec<UnitRecord>,
) -> Result<BTreeMap<u64, UnitRecord>> {
    let mut sorted = BTreeMap::new();
    for r in records {
        spec.check_record(&r).map_err(|reason| Error::Invalid {
            what: "ladder record",
            reason,
        })?;
        let unit = r.unit;
        if sorted.insert(unit, r).is_some() {
            return Err(Error::Invalid {
                what: "ladder record",
                reason: format!("unit {unit} is given twice"),
            });
        }
    }
    Ok(sorted)
}

struct Play<'a> {
    spec: &'a LadderSpec,
    done: BTreeMap<u64, UnitRecord>,
    progress: &'a dyn Progress,
    on_unit: &'a mut dyn FnMut(&UnitRecord) -> Result<()>,
    timed: bool,
}

impl Visitor for Play<'_> {
    type Output = Result<LadderReport>;
    fn visit<G: GameSpec>(&mut self) -> Self::Output {
        let spec = self.spec;
        let pool = Pool::<G>::new(spec, self.timed)?;
        let units = spec.units()?;
        let mut tally = Tally::new(spec.bots.len())?;
        let missing = units - self.done.len() as u64;
        self.progress
            .start(missing.saturating_mul(spec.seats as u64), "games");
        // Units played in parallel a block at a time; only how often the log is written
        // depends on the block, never a result.
        let block = 4 * rayon::current_num_threads().max(1) as u64;
        let mut start = 0;
        let run = (|| {
            while start < units {
                let end = units.min(start + block);
                let todo: Vec<u64> = (start..end)
                    .filter(|u| !self.done.contains_key(u))
                    .collect();
                let played: Vec<UnitRecord> = todo
                    .par_iter()
                    .map(|&u| {
                        let r = pool.play_unit(spec, u);
                        self.progress.advance(spec.seats as u64);
                        r
                    })
                    .collect::<Result<_>>()?;
                let mut played = played.into_iter();
                for u in start..end {
                    match self.done.remove(&u) {
                        Some(r) => tally.add(spec, &r)?,
                        None => {
                            let r = played.next().expect("one record per unit to play");
                            (self.on_unit)(&r)?;
                            tally.add(spec, &r)?;
                        }
                    }
                }
                start = end;
            }
            Ok(())
        })();
        self.progress.finish();
        run.map(|()| LadderReport {
            timing: pool.times(spec),
            ..tally.report(spec, units)
        })
    }
}

/// Plays the ladder `spec` on the current rayon pool, skipping the units of `done` (records
/// of an earlier run of the same spec, such as its log: each is checked, no unit twice),
/// and returns its standings, the same as an uninterrupted run's whatever the thread count.
/// `progress` counts the games to play; `on_unit` gets every newly played unit in unit
/// order (to append it to the log), and its error stops the ladder.
pub fn play(
    spec: &LadderSpec,
    done: Vec<UnitRecord>,
    progress: &dyn Progress,
    on_unit: &mut dyn FnMut(&UnitRecord) -> Result<()>,
) -> Result<LadderReport> {
    play_with(spec, done, progress, on_unit, false)
}

/// [`play`], each bot's decisions also timed on the wall clock: the report's `timing`
/// holds each bot's mean time per decision over the games played by this call (not those
/// of `done`). Everything else in the report is what [`play`] returns; the times depend on
/// the machine, its load and the thread count (the units run in parallel).
pub fn play_timed(
    spec: &LadderSpec,
    done: Vec<UnitRecord>,
    progress: &dyn Progress,
    on_unit: &mut dyn FnMut(&UnitRecord) -> Result<()>,
) -> Result<LadderReport> {
    play_with(spec, done, progress, on_unit, true)
}

fn play_with(
    spec: &LadderSpec,
    done: Vec<UnitRecord>,
    progress: &dyn Progress,
    on_unit: &mut dyn FnMut(&UnitRecord) -> Result<()>,
    timed: bool,
) -> Result<LadderReport> {
    spec.check()?;
    let done = sorted_records(spec, done)?;
    registry::visit(
        &spec.game,
        &mut Play {
            spec,
            done,
            progress,
            on_unit,
            timed,
        },
    )?
}

struct PlayRange<'a> {
    spec: &'a LadderSpec,
    first: u64,
    count: u64,
}

impl Visitor for PlayRange<'_> {
    type Output = Result<Vec<UnitRecord>>;
    fn visit<G: GameSpec>(&mut self) -> Self::Output {
        let pool = Pool::<G>::new(self.spec, false)?;
        (self.first..self.first + self.count)
            .into_par_iter()
            .map(|u| pool.play_unit(self.spec, u))
            .collect()
    }
}

/// Units `first..first + count` of the ladder `spec`, played exactly as [`play`] plays them,
/// on the current rayon pool: a shard of a ladder, run anywhere; [`report`] over the records
/// of every shard gives the standings of the whole ladder. Errors: a bad spec, a range past
/// the schedule's end.
pub fn play_units(spec: &LadderSpec, first: u64, count: u64) -> Result<Vec<UnitRecord>> {
    spec.check()?;
    let units = spec.units()?;
    if first.checked_add(count).is_none_or(|end| end > units) {
        return Err(Error::Invalid {
            what: "ladder units",
            reason: format!("{first} + {count} is past the {units} units of the schedule"),
        });
    }
    registry::visit(&spec.game, &mut PlayRange { spec, first, count })?
}

#[cfg(test)]
mod tests;
