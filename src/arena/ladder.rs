//! The arena's ladder: catalog bots played against each other in series of matches through
//! the runner (seats alternating, [`play_pair`]), every pair of a list of bots
//! ([`play_ladder`]), and the standings the tallies give ([`Standings`]: win rates with 95%
//! Wilson intervals and Elo ratings from `core::stats`). A pair's tally ([`PairResult`]) is
//! one JSON line of a ladder log; [`read_log`] reads a log back, so the standings of an
//! interrupted ladder come from the pairs it finished. Drawing the table is the caller's
//! (`cardvec arena ladder`, `cardvec arena table`).

use std::collections::BTreeSet;
use std::time::Instant;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::catalog::{self, FULL_LADDER};
use super::runner::{play_series_match, Clock, EndReason, MatchConfig, MatchResult};
use crate::core::progress::{Progress, Silent};
use crate::core::stats::{elo_ratings, wilson, Proportion};
use crate::core::{Error, Result};

/// How the matches of a series are played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeriesConfig {
    /// The settings of every match (the seed of match `g` comes from [`SeriesConfig::seed`]).
    pub match_config: MatchConfig,
    /// The clock of every match: [`Clock::Wall`] for real runs.
    pub clock: Clock,
    /// Matches per pair (at least 1).
    pub games: u64,
    /// Seed of the series: match `g` is dealt from stream `(seed, g, 0)` and its bots draw
    /// from streams `(seed, g, 1)` and `(seed, g, 2)`.
    pub seed: u64,
}

impl SeriesConfig {
    fn check(&self) -> Result<()> {
        self.match_config.game()?;
        Error::check_range("games", 1, i64::MAX, self.games)
    }
}

/// The tally of a series between two bots, from `a`'s side; one line of a ladder log
/// (`{"a":"builtin:random","b":"builtin:greedy","games":2000,"a_wins":0,"ties":0,
/// "normal":2000,"forfeit":0,"timeout":0,"max_steps":0,"seed":151,"seconds":4.4,...}`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PairResult {
    /// The first bot's catalog id (the challenger `p0` in even matches).
    pub a: String,
    /// The second bot's catalog id.
    pub b: String,
    /// Matches played.
    pub games: u64,
    /// Matches `a` won.
    pub a_wins: u64,
    /// Matches without a winner.
    pub ties: u64,
    /// Matches that ended `normal`.
    pub normal: u64,
    /// Matches that ended by a `forfeit`.
    pub forfeit: u64,
    /// Matches that ended by a `timeout`.
    pub timeout: u64,
    /// Matches that ended at the step limit (`max_steps`).
    pub max_steps: u64,
    /// Seed of the series.
    pub seed: u64,
    /// Wall time of the series in seconds, to a tenth (a report only: no result depends
    /// on it).
    pub seconds: f64,
    /// Matches `a` forfeited, whatever the reason (0 in logs written before it was kept).
    #[serde(default)]
    pub forfeits_by_a: u64,
    /// Matches `b` forfeited.
    #[serde(default)]
    pub forfeits_by_b: u64,
    /// Actions played in all the matches.
    #[serde(default)]
    pub actions: u64,
}

impl PairResult {
    /// What `a` scored: its wins and half its ties.
    pub fn a_score(&self) -> f64 {
        self.a_wins as f64 + 0.5 * self.ties as f64
    }

    /// What `b` scored.
    pub fn b_score(&self) -> f64 {
        self.games
            .saturating_sub(self.a_wins.saturating_add(self.ties)) as f64
            + 0.5 * self.ties as f64
    }

    /// `a`'s score rate with its 95% Wilson interval.
    pub fn a_rate(&self) -> Proportion {
        wilson(self.a_score(), self.games as f64)
    }

    /// The JSON line (without newline).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a pair result always serializes")
    }

    /// The tallies of `self` and `other` (two parts of one series) added.
    fn merged(mut self, other: &PairResult) -> PairResult {
        self.games += other.games;
        self.a_wins += other.a_wins;
        self.ties += other.ties;
        self.normal += other.normal;
        self.forfeit += other.forfeit;
        self.timeout += other.timeout;
        self.max_steps += other.max_steps;
        self.forfeits_by_a += other.forfeits_by_a;
        self.forfeits_by_b += other.forfeits_by_b;
        self.actions += other.actions;
        self
    }

    /// Checks that the counts agree: at least one match, `a_wins + ties` at most `games`,
    /// every match ended one way, a non-negative time.
    fn check(&self) -> std::result::Result<(), String> {
        if self.games == 0 {
            return Err("games is 0".into());
        }
        let decided = self.a_wins.checked_add(self.ties);
        if decided.is_none_or(|d| d > self.games) {
            return Err(format!(
                "a_wins {} and ties {} exceed games {}",
                self.a_wins, self.ties, self.games
            ));
        }
        let ends = [self.normal, self.forfeit, self.timeout, self.max_steps];
        let ended = ends.iter().try_fold(0u64, |sum, &x| sum.checked_add(x));
        if ended != Some(self.games) {
            return Err(format!(
                "normal {} + forfeit {} + timeout {} + max_steps {} is not games {}",
                self.normal, self.forfeit, self.timeout, self.max_steps, self.games
            ));
        }
        if self.seconds.is_nan() || self.seconds < 0.0 {
            return Err(format!("seconds {} is negative", self.seconds));
        }
        Ok(())
    }

    fn tally(&mut self, m: &MatchResult, a_first: bool) {
        self.games += 1;
        let a_seat = if a_first { 0 } else { 1 };
        match m.winner {
            Some(w) if w == a_seat => self.a_wins += 1,
            Some(_) => {}
            None => self.ties += 1,
        }
        match m.reason {
            EndReason::Normal => self.normal += 1,
            EndReason::Forfeit => self.forfeit += 1,
            EndReason::Timeout => self.timeout += 1,
            EndReason::MaxSteps => self.max_steps += 1,
        }
        match m.forfeited {
            Some(f) if f == a_seat => self.forfeits_by_a += 1,
            Some(_) => self.forfeits_by_b += 1,
            None => {}
        }
        self.actions += m.steps_played;
    }
}

/// Called with every match of a series as it ends: its index `g` in the series, its
/// result, and whether `a` was seat 0 (for example to write the replays).
pub type OnMatch<'a> = &'a (dyn Fn(u64, &MatchResult, bool) -> Result<()> + Sync);

/// The series of `config.games` matches `first..first + config.games` between catalog bots
/// `a` and `b`, in parallel on the caller's rayon pool; one `progress` unit per match, no
/// start or finish.
fn play_series(
    config: &SeriesConfig,
    first: u64,
    a: &str,
    b: &str,
    progress: &dyn Progress,
    on_match: OnMatch<'_>,
) -> Result<PairResult> {
    let started = Instant::now();
    let blank = || PairResult {
        a: a.to_string(),
        b: b.to_string(),
        games: 0,
        a_wins: 0,
        ties: 0,
        normal: 0,
        forfeit: 0,
        timeout: 0,
        max_steps: 0,
        seed: config.seed,
        seconds: 0.0,
        forfeits_by_a: 0,
        forfeits_by_b: 0,
        actions: 0,
    };
    // Tallied as the matches end (no list of results: memory does not grow with `games`).
    let end = first
        .checked_add(config.games)
        .ok_or_else(|| Error::Invalid {
            what: "first match",
            reason: format!("{first} + {} matches is past the last index", config.games),
        })?;
    let mut pair = (first..end)
        .into_par_iter()
        .try_fold(blank, |mut tally, g| {
            let (m, a_first) =
                play_series_match(&config.match_config, config.clock, a, b, config.seed, g)?;
            on_match(g, &m, a_first)?;
            progress.advance(1);
            tally.tally(&m, a_first);
            Ok(tally)
        })
        .try_reduce(blank, |x, y| Ok(x.merged(&y)))?;
    pair.seconds = (started.elapsed().as_secs_f64() * 10.0).round() / 10.0;
    Ok(pair)
}

/// Plays catalog bot `a` against catalog bot `b` over `config.games` matches (seats
/// alternating: `a` is the challenger `p0` in even matches), in parallel on the caller's
/// rayon pool. `progress` counts matches; `on_match` sees every match as it ends. Errors:
/// an unknown or unplayable id, a bad configuration, or the first error `on_match`
/// returns.
pub fn play_pair(
    config: &SeriesConfig,
    a: &str,
    b: &str,
    progress: &dyn Progress,
    on_match: OnMatch<'_>,
) -> Result<PairResult> {
    config.check()?;
    let game = config.match_config.game()?;
    catalog::resolve_in(&game, a)?;
    catalog::resolve_in(&game, b)?;
    progress.start(config.games, "matches");
    let pair = play_series(config, 0, a, b, progress, on_match);
    progress.finish();
    pair
}

/// Matches `first..first + config.games` of the series [`play_pair`] plays (each exactly
/// as there: same seats, seeds and bot streams), so the tallies of consecutive ranges
/// (shards of a series, run anywhere) add up to the tally of the whole series; only
/// `seconds` is each range's own. No progress is reported.
pub fn play_pair_range(config: &SeriesConfig, first: u64, a: &str, b: &str) -> Result<PairResult> {
    config.check()?;
    let game = config.match_config.game()?;
    catalog::resolve_in(&game, a)?;
    catalog::resolve_in(&game, b)?;
    play_series(config, first, a, b, &Silent, &|_, _, _| Ok(()))
}

pub use crate::ladder::ladder_pairs;

/// Plays every pair of `ids` (two or more distinct catalog ids, weakest first by
/// convention: the first is the Elo anchor) in [`ladder_pairs`] order. `progress` counts
/// the matches of the whole ladder; `on_pair` gets each finished pair before the next
/// starts (to print it or append it to a log), and its error stops the ladder.
pub fn play_ladder(
    config: &SeriesConfig,
    ids: &[&str],
    progress: &dyn Progress,
    on_pair: &mut dyn FnMut(&PairResult) -> Result<()>,
) -> Result<Standings> {
    config.check()?;
    if ids.len() < 2 {
        return Err(Error::Invalid {
            what: "ladder",
            reason: format!("{} bot(s); a ladder needs two or more", ids.len()),
        });
    }
    let game = config.match_config.game()?;
    for (k, id) in ids.iter().enumerate() {
        catalog::resolve_in(&game, id)?;
        if ids[..k].contains(id) {
            return Err(Error::Invalid {
                what: "ladder",
                reason: format!("{id} is given twice"),
            });
        }
    }
    let mut standings = Standings::new(ids.iter().map(|s| s.to_string()).collect());
    let pairs = ladder_pairs(ids.len());
    progress.start(config.games.saturating_mul(pairs.len() as u64), "matches");
    let played = pairs.iter().try_for_each(|&(i, j)| {
        let pair = play_series(config, 0, ids[i], ids[j], progress, &|_, _, _| Ok(()))?;
        standings.add(&pair);
        on_pair(&pair)
    });
    progress.finish();
    played.map(|()| standings)
}

/// The most different bots a ladder log may name: the standings hold a row and a column
/// per bot and their Elo fit takes time quadratic in the bots (the full ladder has 6).
pub const MAX_LOG_BOTS: usize = 256;

/// Reads a ladder log: one [`PairResult`] per line (blank lines skipped). Any malformed
/// line (bad JSON, an unknown or missing field, counts that disagree: more wins and ties
/// than matches, ends that do not add up to the matches) or more than [`MAX_LOG_BOTS`]
/// bots is an [`Error::Invalid`] naming the line. Time is linear in the text.
pub fn read_log(text: &str) -> Result<Vec<PairResult>> {
    let mut pairs = Vec::new();
    let mut bots: BTreeSet<String> = BTreeSet::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let invalid = |reason: String| Error::Invalid {
            what: "ladder log",
            reason: format!("line {}: {reason}", i + 1),
        };
        let pair: PairResult = serde_json::from_str(line).map_err(|e| invalid(e.to_string()))?;
        pair.check().map_err(invalid)?;
        for id in [&pair.a, &pair.b] {
            if !bots.contains(id) {
                if bots.len() == MAX_LOG_BOTS {
                    return Err(invalid(format!(
                        "bot {id:?} is one more than the {MAX_LOG_BOTS} a log may name"
                    )));
                }
                bots.insert(id.clone());
            }
        }
        pairs.push(pair);
    }
    Ok(pairs)
}

/// What the bots of a ladder scored against each other: the pairs' tallies summed by
/// bot (a pair played twice counts twice).
#[derive(Clone, Debug, PartialEq)]
pub struct Standings {
    ids: Vec<String>,
    /// `score[i][j]`: what bot `i` scored against bot `j` (wins, half the ties).
    score: Vec<Vec<f64>>,
    /// `games[i][j]`: matches between bots `i` and `j`.
    games: Vec<Vec<u64>>,
    pairs: Vec<PairResult>,
}

impl Standings {
    /// Standings of `ids` with no match played yet.
    pub fn new(ids: Vec<String>) -> Standings {
        let n = ids.len();
        Standings {
            ids,
            score: vec![vec![0.0; n]; n],
            games: vec![vec![0; n]; n],
            pairs: Vec::new(),
        }
    }

    /// The standings of finished pairs (a ladder log): the bots in the full ladder's order
    /// (weakest first), then any other in order of appearance.
    pub fn from_pairs(pairs: &[PairResult]) -> Standings {
        let mut ids: Vec<String> = Vec::new();
        for p in pairs {
            for id in [&p.a, &p.b] {
                if !ids.contains(id) {
                    ids.push(id.clone());
                }
            }
        }
        ids.sort_by_key(|id| {
            FULL_LADDER
                .iter()
                .position(|&x| x == id)
                .unwrap_or(FULL_LADDER.len())
        });
        let mut standings = Standings::new(ids);
        for p in pairs {
            standings.add(p);
        }
        standings
    }

    fn index(&mut self, id: &str) -> usize {
        if let Some(i) = self.ids.iter().position(|x| x == id) {
            return i;
        }
        self.ids.push(id.to_string());
        for row in &mut self.score {
            row.push(0.0);
        }
        for row in &mut self.games {
            row.push(0);
        }
        let n = self.ids.len();
        self.score.push(vec![0.0; n]);
        self.games.push(vec![0; n]);
        n - 1
    }

    /// Adds a pair's tally (a bot not yet listed is added last).
    pub fn add(&mut self, pair: &PairResult) {
        let (i, j) = (self.index(&pair.a), self.index(&pair.b));
        self.score[i][j] += pair.a_score();
        self.score[j][i] += pair.b_score();
        self.games[i][j] = self.games[i][j].saturating_add(pair.games);
        self.games[j][i] = self.games[j][i].saturating_add(pair.games);
        self.pairs.push(pair.clone());
    }

    /// The bots, in table order.
    pub fn ids(&self) -> &[String] {
        &self.ids
    }

    /// The pairs added, in order.
    pub fn pairs(&self) -> &[PairResult] {
        &self.pairs
    }

    /// Matches played between bots `i` and `j`.
    pub fn games(&self, i: usize, j: usize) -> u64 {
        self.games[i][j]
    }

    /// Bot `i`'s score rate against bot `j` (wins and half the ties, over the matches) with
    /// its 95% Wilson interval; `None` if they did not play.
    pub fn win_rate(&self, i: usize, j: usize) -> Option<Proportion> {
        (i != j && self.games[i][j] > 0).then(|| wilson(self.score[i][j], self.games[i][j] as f64))
    }

    /// Elo ratings (the Bradley–Terry fit of [`elo_ratings`]), the first bot at 1000.
    pub fn elo(&self) -> Vec<f64> {
        elo_ratings(&self.score, 0, 1000.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::progress::Silent;
    use std::sync::atomic::{AtomicU64, Ordering};

    fn config(games: u64) -> SeriesConfig {
        SeriesConfig {
            match_config: MatchConfig::new(0),
            clock: Clock::FREE,
            games,
            seed: 3,
        }
    }

    fn pair(a: &str, b: &str, games: u64, a_wins: u64, ties: u64) -> PairResult {
        PairResult {
            a: a.into(),
            b: b.into(),
            games,
            a_wins,
            ties,
            normal: games,
            forfeit: 0,
            timeout: 0,
            max_steps: 0,
            seed: 0,
            seconds: 1.5,
            forfeits_by_a: 0,
            forfeits_by_b: 0,
            actions: 0,
        }
    }

    #[test]
    fn neighbouring_tiers_are_paired_first() {
        assert_eq!(
            ladder_pairs(4),
            vec![(0, 1), (1, 2), (2, 3), (0, 2), (1, 3), (0, 3)]
        );
        assert!(ladder_pairs(1).is_empty());
    }

    #[test]
    fn a_ladder_plays_every_pair_and_counts_every_match() {
        let matches = AtomicU64::new(0);
        let count = |n: u64| {
            matches.fetch_add(n, Ordering::Relaxed);
        };
        let mut seen = Vec::new();
        let ids = ["builtin:random", "builtin:greedy", "builtin:medium"];
        let standings = play_ladder(&config(6), &ids, &count, &mut |p| {
            seen.push((p.a.clone(), p.b.clone()));
            Ok(())
        })
        .unwrap();
        assert_eq!(matches.load(Ordering::Relaxed), 18);
        assert_eq!(seen.len(), 3);
        assert_eq!(standings.ids(), ids);
        for p in standings.pairs() {
            assert_eq!(p.games, 6);
            assert_eq!(p.normal + p.forfeit + p.timeout + p.max_steps, 6);
            assert!(p.actions > 0);
        }
        // Greedy never loses to random.
        assert_eq!(standings.win_rate(1, 0).unwrap().rate, 1.0);
        assert!(standings.win_rate(0, 0).is_none());
        let elo = standings.elo();
        assert_eq!(elo[0], 1000.0);
        assert!(elo[1] > elo[0] && elo[2] > elo[0]);
    }

    #[test]
    fn series_are_deterministic_on_a_fixed_clock() {
        let c = config(8);
        let noop: OnMatch<'_> = &|_, _, _| Ok(());
        let first = play_pair(&c, "builtin:medium", "builtin:greedy", &Silent, noop).unwrap();
        let again = play_pair(&c, "builtin:medium", "builtin:greedy", &Silent, noop).unwrap();
        let strip = |p: PairResult| PairResult { seconds: 0.0, ..p };
        assert_eq!(strip(first), strip(again));
    }

    #[test]
    fn bad_ladders_are_errors() {
        let mut ignore = |_: &PairResult| Ok(());
        let err = play_ladder(&config(2), &["builtin:random"], &Silent, &mut ignore);
        assert!(matches!(err, Err(Error::Invalid { .. })));
        let twice = ["builtin:random", "builtin:greedy", "builtin:random"];
        assert!(play_ladder(&config(2), &twice, &Silent, &mut ignore).is_err());
        let unknown = ["builtin:random", "builtin:zeus"];
        let err = play_ladder(&config(2), &unknown, &Silent, &mut ignore).unwrap_err();
        assert!(
            matches!(
                err,
                Error::Unknown {
                    what: "opponent",
                    ..
                }
            ),
            "{err}"
        );
        let err = play_ladder(&config(0), &ids2(), &Silent, &mut ignore).unwrap_err();
        assert!(err.to_string().contains("games"), "{err}");
        let stop = play_ladder(&config(2), &ids2(), &Silent, &mut |_| {
            Err(Error::Invalid {
                what: "ladder log",
                reason: "disk full".into(),
            })
        });
        assert!(stop.unwrap_err().to_string().contains("disk full"));
    }

    fn ids2() -> [&'static str; 2] {
        ["builtin:random", "builtin:greedy"]
    }

    #[test]
    fn a_log_reads_back_into_the_same_standings() {
        let pairs = vec![
            pair("builtin:greedy", "builtin:medium", 100, 40, 2),
            pair("builtin:random", "builtin:greedy", 100, 0, 0),
            pair("student:x", "builtin:medium", 10, 5, 0),
        ];
        let log: String = pairs.iter().map(|p| p.to_json() + "\n").collect();
        let back = read_log(&format!("{log}\n")).unwrap();
        assert_eq!(back, pairs);
        let s = Standings::from_pairs(&back);
        assert_eq!(
            s.ids(),
            [
                "builtin:random",
                "builtin:greedy",
                "builtin:medium",
                "student:x"
            ]
        );
        // Greedy against medium: 40 wins and 2 ties of 100; medium: 58 wins and 2 ties.
        assert_eq!(s.win_rate(1, 2).unwrap().rate, 0.41);
        assert_eq!(s.win_rate(2, 1).unwrap().rate, 0.59);
        assert_eq!(s.games(3, 2), 10);
        assert!(s.win_rate(0, 3).is_none());
    }

    #[test]
    fn counts_that_disagree_and_too_many_bots_are_errors() {
        let good = pair("builtin:random", "builtin:greedy", 10, 4, 2);
        let mut wins = good.clone();
        wins.a_wins = u64::MAX;
        let mut ends = good.clone();
        ends.normal = 9;
        let mut none = good.clone();
        none.games = 0;
        none.normal = 0;
        none.a_wins = 0;
        none.ties = 0;
        for (bad, says) in [
            (wins, "exceed games"),
            (ends, "is not games"),
            (none, "games is 0"),
        ] {
            let err = read_log(&format!("{}\n{}", good.to_json(), bad.to_json()))
                .unwrap_err()
                .to_string();
            assert!(err.contains("line 2") && err.contains(says), "{err}");
        }
        let line = |k: usize| pair(&format!("bot{k}"), "builtin:random", 1, 0, 0).to_json();
        let fits: Vec<String> = (1..MAX_LOG_BOTS).map(line).collect();
        assert_eq!(read_log(&fits.join("\n")).unwrap().len(), MAX_LOG_BOTS - 1);
        let over: Vec<String> = (1..=MAX_LOG_BOTS).map(line).collect();
        let err = read_log(&over.join("\n")).unwrap_err().to_string();
        assert!(err.contains(&format!("line {MAX_LOG_BOTS}")), "{err}");
    }

    #[test]
    fn logs_of_the_first_format_still_read() {
        let line = r#"{"a":"builtin:random","b":"builtin:greedy","games":2000,"a_wins":0,"ties":0,"normal":2000,"forfeit":0,"timeout":0,"max_steps":0,"seed":151,"seconds":4.4}"#;
        let p = &read_log(line).unwrap()[0];
        assert_eq!((p.games, p.seed, p.seconds, p.actions), (2000, 151, 4.4, 0));
    }

    #[test]
    fn malformed_logs_are_errors_naming_the_line() {
        let good = pair("builtin:random", "builtin:greedy", 1, 0, 0).to_json();
        for bad in [
            "{",
            "[]",
            r#"{"a":"x"}"#,
            &good.replace("\"games\"", "\"gamez\""),
        ] {
            let err = read_log(&format!("{good}\n{bad}\n"))
                .unwrap_err()
                .to_string();
            assert!(
                err.contains("ladder log") && err.contains("line 2"),
                "{err}"
            );
        }
    }
}
