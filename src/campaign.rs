//! Shards of long runs, by game id: a differential run, a bot match or an oracle trace
//! restricted to the games `first..first + count` of a run with seed `seed`. Each game is
//! played exactly as in the whole run, so the results of consecutive shards, computed in
//! any process on any machine in any order, add up to the result of the whole run (the
//! Python package's `cardvec.campaign` runs them as Ray tasks and merges them). The arena's
//! shard is [`crate::arena::ladder::play_pair_range`].

use crate::core::diff::{run as run_diff, DiffConfig, DiffReport, Mismatch};
use crate::core::matches::{tally_range, MatchTally};
use crate::core::progress::Silent;
use crate::core::spec::{split_pairs, GameSpec, OptionValue, Options, TraceRequest, TraceSummary};
use crate::core::{Bot, Error, Result};
use crate::registry::{self, Visitor};

/// What planting a mismatch writes (the test hook of [`diff_shard`]).
pub const PLANTED: &str = "planted mismatch (test hook)";

/// Checks a shard's range: `count >= 1` and no game index past `u64::MAX`.
pub fn check_range(first: u64, count: u64) -> Result<()> {
    Error::check_range("count", 1, u64::MAX, count)?;
    if first.checked_add(count).is_none() {
        return Err(Error::Invalid {
            what: "first",
            reason: format!("{first} + count {count} is past the last game index"),
        });
    }
    Ok(())
}

struct Diff<'a> {
    options: Vec<(String, OptionValue)>,
    config: &'a DiffConfig,
}

impl Visitor for Diff<'_> {
    type Output = Result<DiffReport>;
    fn visit<G: GameSpec>(&mut self) -> Result<DiffReport> {
        if self.options.is_empty() {
            return Ok(run_diff(self.config, &Silent, G::diff_pair));
        }
        let options = Options::new(G::INFO.options, std::mem::take(&mut self.options))?;
        let game = G::configure(&options)?;
        Ok(run_diff(self.config, &Silent, |_, deal| {
            game.fuzz_pair(deal.next_u64())
        }))
    }
}

/// The differential run of game `id` over games `config.first..config.first + config.games`
/// on the current rayon pool, as `cardvec diff` plays it: each game in its own random
/// configuration when `options` is empty, else every game in the configuration `options`.
/// `plant_mismatch` is a test hook: when game `g` of the range is given, it is reported as
/// a mismatch at step 0 ([`PLANTED`]) on top of what the engines said, so callers can test
/// how a mismatch travels; `None` in every real run.
pub fn diff_shard(
    id: &str,
    options: Vec<(String, OptionValue)>,
    config: &DiffConfig,
    plant_mismatch: Option<u64>,
) -> Result<DiffReport> {
    check_range(config.first, config.games)?;
    let mut report = registry::visit(id, &mut Diff { options, config })??;
    if let Some(g) = plant_mismatch {
        if (config.first..config.first + config.games).contains(&g) {
            if let Some(m) = report.mismatches.iter_mut().find(|m| m.game == g) {
                m.step = 0;
                m.what = PLANTED.to_string();
            } else {
                report.failed_games += 1;
                report.mismatches.push(Mismatch {
                    game: g,
                    step: 0,
                    what: PLANTED.to_string(),
                });
                report.mismatches.sort_by_key(|m| m.game);
                report.mismatches.truncate(20);
            }
        }
    }
    Ok(report)
}

struct Match<'a> {
    options: Vec<(String, OptionValue)>,
    bots: &'a [String],
    seed: u64,
    first: u64,
    count: u64,
}

impl Visitor for Match<'_> {
    type Output = Result<(MatchTally, Vec<String>)>;
    fn visit<G: GameSpec>(&mut self) -> Self::Output {
        let info = &G::INFO;
        let mut pairs = std::mem::take(&mut self.options);
        for (k, v) in split_pairs(info.match_options)? {
            if !pairs.iter().any(|(name, _)| *name == k) {
                pairs.push((k, OptionValue::parse(&v)));
            }
        }
        let game = G::configure(&Options::new(info.options, pairs)?)?;
        let names: Vec<String> = if self.bots.is_empty() {
            info.match_bots.iter().map(|s| s.to_string()).collect()
        } else {
            self.bots.to_vec()
        };
        let owned = names
            .iter()
            .map(|n| crate::agents::bot(&game, n))
            .collect::<Result<Vec<Box<dyn Bot<G>>>>>()?;
        let bots: Vec<&dyn Bot<G>> = owned.iter().map(|b| b.as_ref()).collect();
        let tally = tally_range(&game, &bots, self.seed, self.first, self.count);
        Ok((tally, bots.iter().map(|b| b.name().to_string()).collect()))
    }
}

/// Games `first..first + count` of a match of game `id` (options checked, the game's
/// match defaults applied unless given) between `bots` (built-in names; empty: the game's
/// match bots) rotated over the seats, on the current rayon pool: the exact tally and the
/// bots' names. `cardvec match` plays the same games (game `g` dealt from stream
/// `(seed, g, 0)`).
pub fn match_shard(
    id: &str,
    options: Vec<(String, OptionValue)>,
    bots: &[String],
    seed: u64,
    first: u64,
    count: u64,
) -> Result<(MatchTally, Vec<String>)> {
    check_range(first, count)?;
    registry::visit(
        id,
        &mut Match {
            options,
            bots,
            seed,
            first,
            count,
        },
    )?
}

struct Trace(TraceRequest);

impl Visitor for Trace {
    type Output = Result<(Vec<u8>, TraceSummary)>;
    fn visit<G: GameSpec>(&mut self) -> Self::Output {
        let mut out = Vec::new();
        let summary = G::write_trace(&self.0, &mut out)?;
        Ok((out, summary))
    }
}

/// Games `first..first + count` of the oracle trace of game `id` (`cardvec trace`: JSON
/// lines for the game's external oracle), in memory, with the trace's counts.
pub fn trace_shard(
    id: &str,
    seed: i64,
    first: u64,
    count: u64,
    players: Vec<usize>,
    policy_seed: u64,
) -> Result<(Vec<u8>, TraceSummary)> {
    check_range(first, count)?;
    registry::visit(
        id,
        &mut Trace(TraceRequest {
            games: count,
            first,
            seed,
            players,
            policy_seed,
            dir: None,
        }),
    )?
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diff(id: &str, first: u64, games: u64) -> DiffReport {
        let config = DiffConfig {
            games,
            first,
            seed: 7,
            illegal_probe_every: 16,
        };
        diff_shard(id, Vec::new(), &config, None).unwrap()
    }

    #[test]
    fn diff_shards_add_up_to_the_whole_run() {
        for id in ["kuhn", "151", "lost-cities"] {
            let whole = diff(id, 0, 300);
            let parts = [diff(id, 0, 100), diff(id, 100, 7), diff(id, 107, 193)];
            assert_eq!(parts.iter().map(|p| p.games).sum::<u64>(), whole.games);
            assert_eq!(
                parts.iter().map(|p| p.actions).sum::<u64>(),
                whole.actions,
                "{id}"
            );
            assert_eq!(
                parts.iter().map(|p| p.rejected).sum::<u64>(),
                whole.rejected
            );
            assert!(whole.actions > 300 && whole.rejected > 0);
            assert_eq!(whole.failed_games, 0);
        }
    }

    #[test]
    fn a_planted_mismatch_is_reported_in_its_shard_only() {
        let config = |first| DiffConfig {
            games: 50,
            first,
            seed: 1,
            illegal_probe_every: 16,
        };
        let hit = diff_shard("kuhn", Vec::new(), &config(100), Some(123)).unwrap();
        assert_eq!(hit.failed_games, 1);
        assert_eq!(
            hit.mismatches,
            vec![Mismatch {
                game: 123,
                step: 0,
                what: PLANTED.into()
            }]
        );
        let miss = diff_shard("kuhn", Vec::new(), &config(0), Some(123)).unwrap();
        assert_eq!((miss.failed_games, miss.mismatches.len()), (0, 0));
    }

    #[test]
    fn match_shards_add_up_to_the_whole_match() {
        let bots = vec!["random".to_string(), "random".to_string()];
        let (whole, names) = match_shard("lost-cities", Vec::new(), &bots, 3, 0, 40).unwrap();
        assert_eq!(names, ["random", "random"]);
        let mut merged = match_shard("lost-cities", Vec::new(), &bots, 3, 0, 13)
            .unwrap()
            .0;
        merged.merge(
            &match_shard("lost-cities", Vec::new(), &bots, 3, 13, 27)
                .unwrap()
                .0,
        );
        assert_eq!(merged, whole);
        assert_eq!(whole.games, 40);
        assert_eq!(whole.bots[0].seats + whole.bots[1].seats, 80);
    }

    #[test]
    fn trace_shards_are_slices_of_the_whole_trace() {
        for id in ["151", "holdem"] {
            let (whole, _) = trace_shard(id, 5, 0, 6, Vec::new(), 9).unwrap();
            let (a, _) = trace_shard(id, 5, 0, 2, Vec::new(), 9).unwrap();
            let (b, _) = trace_shard(id, 5, 2, 4, Vec::new(), 9).unwrap();
            assert_eq!([a, b].concat(), whole, "{id}");
        }
    }

    #[test]
    fn arena_ranges_add_up_to_the_whole_series() {
        use crate::arena::ladder::{play_pair, play_pair_range, SeriesConfig};
        use crate::arena::runner::{Clock, MatchConfig};
        let config = |games| SeriesConfig {
            match_config: MatchConfig::new(0),
            clock: Clock::FREE,
            games,
            seed: 11,
        };
        let (a, b) = ("builtin:random", "builtin:greedy");
        let whole = play_pair(&config(9), a, b, &Silent, &|_, _, _| Ok(())).unwrap();
        let x = play_pair_range(&config(4), 0, a, b).unwrap();
        let y = play_pair_range(&config(5), 4, a, b).unwrap();
        assert_eq!(x.games + y.games, whole.games);
        assert_eq!(x.a_wins + y.a_wins, whole.a_wins);
        assert_eq!(x.actions + y.actions, whole.actions);
        assert_eq!(x.normal + y.normal, whole.normal);
        assert!(play_pair_range(&config(2), u64::MAX, a, b).is_err());
    }

    #[test]
    fn bad_ranges_and_ids_are_errors() {
        let config = DiffConfig {
            games: 0,
            first: 0,
            seed: 0,
            illegal_probe_every: 16,
        };
        assert!(diff_shard("kuhn", Vec::new(), &config, None).is_err());
        let config = DiffConfig {
            games: 2,
            first: u64::MAX,
            ..config
        };
        assert!(diff_shard("kuhn", Vec::new(), &config, None).is_err());
        assert!(match_shard("nope", Vec::new(), &[], 0, 0, 1).is_err());
        assert!(match_shard("kuhn", Vec::new(), &["nobot".into()], 0, 0, 1).is_err());
        assert!(trace_shard("kuhn", 0, 0, 1, Vec::new(), 0).is_err());
    }
}
