//! `cardvec ladder`: the ladder of any registered game ([`cardvec::ladder`]): every pair of
//! bots (two seats) or tables drawn from the pool (more seats) over duplicate deals, the
//! seats rotated; win rates, mean score differences and ratings with 95% intervals.
//! `--jsonl FILE` logs every finished deal; run again with the same arguments and the same
//! file, it resumes where the log stops and prints what one uninterrupted run prints.

use std::io::Write;
use std::path::{Path, PathBuf};

use cardvec::core::{Error, Result};
use cardvec::ladder::{play, play_timed, read_log, LadderReport, LadderSpec};
use cardvec::registry;

use crate::game_args::{check_count, options, players_option, split_bots};
use crate::progress::Bar;

/// Options of `cardvec ladder`.
#[derive(clap::Args, Debug)]
pub struct LadderArgs {
    /// The game (`cardvec games` lists games and bots).
    game: String,
    /// Game options, `name=value` (repeatable).
    #[arg(short = 'o', long = "option", value_name = "NAME=VALUE")]
    options: Vec<String>,
    /// Players per game (the `num_players` option of games that have one).
    #[arg(long)]
    players: Option<usize>,
    /// The bots, comma separated, at least two and at least as many as the seats (any
    /// name `cardvec match` takes); the first is the ratings' anchor (1000). A piece
    /// `key=value` after a bot with options continues its options:
    /// `random,pimc:sims=10,playout=greedy` is `random` and `pimc:sims=10,playout=greedy`.
    #[arg(long)]
    bots: String,
    /// Games per pair (two seats) or in all (more seats), rounded up to whole deals (one
    /// game per seat rotation of each deal).
    #[arg(long, default_value_t = 1_000)]
    games: u64,
    /// Seed of every deal and table.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Step limit per game (a game cut off is scored by the rewards paid so far).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    max_steps: Option<u32>,
    /// Log every finished deal as a JSON line (header first). If the file holds a log of
    /// the same ladder, the ladder resumes from it; a log of another ladder is an error.
    #[arg(long)]
    jsonl: Option<PathBuf>,
    /// Worker threads (default: one per core); results never depend on it.
    #[arg(long)]
    threads: Option<usize>,
    /// Also measure each bot's wall-clock time per decision over the games this run plays
    /// (not those resumed from the log): a figure of the machine, its load and `--threads`,
    /// never of the standings.
    #[arg(long)]
    timing: bool,
    /// Print the standings as one JSON line instead of text.
    #[arg(long)]
    json: bool,
    /// No progress bar.
    #[arg(long, short = 'q')]
    quiet: bool,
}

fn io_error(path: &Path, e: std::io::Error) -> Error {
    Error::Invalid {
        what: "ladder log",
        reason: format!("{}: {e}", path.display()),
    }
}

/// The standings as text: the bots (rating, win share, mean reward), then every pair.
pub fn report_text(r: &LadderReport) -> String {
    use std::fmt::Write as _;
    let s = &r.spec;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "game={} options={} seats={} seed={} deals={}/{} games={} plies_per_game={:.1}{}",
        s.game,
        s.options,
        s.seats,
        s.seed,
        r.units_done,
        r.units,
        r.games,
        r.plies_per_game,
        match s.max_steps {
            Some(m) => format!(" max_steps={m} truncated={}", r.truncated),
            None => String::new(),
        }
    );
    let width = s.bots.iter().map(|b| b.len()).max().unwrap_or(3).max(3);
    let _ = writeln!(
        out,
        "ratings ({}, Elo scale, {} = 1000; 95% intervals){}",
        r.model,
        s.bots[0],
        r.ratings_error
            .as_ref()
            .map_or_else(String::new, |e| format!(": none, {e}"))
    );
    let _ = writeln!(
        out,
        "  {:<width$} {:>7} {:>17} {:>8} {:>15} {:>20}",
        "bot", "games", "rating", "win", "95% CI", "reward"
    );
    let mut order: Vec<usize> = (0..r.bots.len()).collect();
    order.sort_by(|&a, &b| {
        let key = |i: usize| {
            r.bots[i]
                .rating
                .map_or(r.bots[i].win_share.value, |x| x.rating)
        };
        key(b).total_cmp(&key(a)).then(a.cmp(&b))
    });
    for i in order {
        let b = &r.bots[i];
        let rating = b.rating.map_or_else(
            || "-".to_string(),
            |x| format!("{:.0} [{:.0},{:.0}]", x.rating, x.low, x.high),
        );
        let _ = writeln!(
            out,
            "  {:<width$} {:>7} {:>17} {:>8.4} {:>15} {:>10.2} ±{:<7.2}",
            b.bot,
            b.games,
            rating,
            b.win_share.value,
            format!("{:.4}..{:.4}", b.win_share.low, b.win_share.high),
            b.reward.value,
            b.reward.high - b.reward.value,
        );
    }
    let _ = writeln!(
        out,
        "pairs (a's score against b: finished above, ties half; a's reward minus b's in {}, per game, duplicate deals)",
        r.reward_unit
    );
    for p in &r.pairs {
        let _ = writeln!(
            out,
            "  {:<width$} vs {:<width$} games={:<7} score={:.4} ({:.4}..{:.4}) difference={:+.2} ({:+.2}..{:+.2})",
            p.a,
            p.b,
            p.games,
            p.score.value,
            p.score.low,
            p.score.high,
            p.difference.value,
            p.difference.low,
            p.difference.high
        );
    }
    if let Some(timing) = &r.timing {
        let _ = writeln!(
            out,
            "time per decision (wall clock, this run's games; not reproducible)"
        );
        for t in timing {
            let _ = writeln!(
                out,
                "  {:<width$} {:>12.3} ms  over {} decisions",
                t.bot,
                t.seconds * 1e3,
                t.decisions
            );
        }
    }
    out
}

/// Runs `cardvec ladder`.
pub fn run(args: LadderArgs) -> Result<()> {
    check_count("--games", args.games)?;
    let info = registry::info(&args.game)?;
    let bots = split_bots(&args.bots)?;
    let options = options(
        &args.game,
        &args.options,
        players_option(info, args.players)?,
        info.match_options,
    )?;
    let spec = LadderSpec::new(
        &args.game,
        &options,
        &bots,
        args.games,
        args.seed,
        args.max_steps,
    )?;
    let pool = crate::pool(args.threads)?;
    // The log: read and checked (a log of this very ladder to resume) before anything is
    // played or written.
    let mut done = Vec::new();
    let mut log = None;
    if let Some(path) = &args.jsonl {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(io_error(path, e)),
        };
        let fresh = text.trim().is_empty();
        if !fresh {
            let (logged, records) = read_log(&text).map_err(|e| Error::Invalid {
                what: "ladder log",
                reason: format!("{}: {e}", path.display()),
            })?;
            if logged != spec {
                return Err(Error::Invalid {
                    what: "ladder log",
                    reason: format!(
                        "{} is the log of another ladder ({}); give the same arguments or another file",
                        path.display(),
                        logged.to_json()
                    ),
                });
            }
            if !text.ends_with('\n') {
                // Never append to a line without its end.
                return Err(Error::Invalid {
                    what: "ladder log",
                    reason: format!("{}: the last line has no newline", path.display()),
                });
            }
            done = records;
        }
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| io_error(path, e))?;
        if fresh {
            writeln!(f, "{}", spec.to_json()).map_err(|e| io_error(path, e))?;
        }
        log = Some((f, path.clone()));
    }
    let bar = Bar::new(args.quiet || args.json);
    let run = if args.timing { play_timed } else { play };
    let report = pool.install(|| {
        run(&spec, done, &bar, &mut |unit| match &mut log {
            Some((f, path)) => writeln!(f, "{}", unit.to_json()).map_err(|e| io_error(path, e)),
            None => Ok(()),
        })
    })?;
    if args.json {
        println!(
            "{}",
            serde_json::to_string(&report).expect("a report always serializes")
        );
    } else {
        print!("{}", report_text(&report));
    }
    Ok(())
}
