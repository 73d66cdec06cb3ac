//! `cardvec arena`: the i151 arena. `match` plays catalog bots against each other through
//! the match runner (time limits, forfeits, replays), `ladder` plays every catalog bot
//! against every other (win rates with Wilson intervals, Elo ratings), `replay` prints a
//! replay file.

use std::io::Write;
use std::path::PathBuf;

use clap::Subcommand;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

use cardvec::arena::catalog::{self, FULL_LADDER};
use cardvec::arena::runner::{
    format_replay, play_series_match, EndReason, MatchConfig, MatchResult, Replay,
};
use cardvec::core::stats::{elo_ratings, wilson};
use cardvec::core::{Error, Result};

/// Options of `cardvec arena`.
#[derive(clap::Args, Debug)]
pub struct ArenaArgs {
    #[command(subcommand)]
    command: ArenaCommand,
}

/// Runner settings shared by `match` and `ladder`.
#[derive(clap::Args, Debug, Clone)]
struct RunnerOpts {
    /// Decision time limit in milliseconds (must be > 0).
    #[arg(long, default_value_t = 1000)]
    time_limit_ms: u64,
    /// Actions per round after which the seat to act forfeits (`max_steps`).
    #[arg(long, default_value_t = 500)]
    max_steps: u32,
    /// Seed of the series (match `g` is dealt from stream `(seed, g, 0)`).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Worker threads (default: one per core).
    #[arg(long)]
    threads: Option<usize>,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

impl RunnerOpts {
    fn config(&self) -> Result<MatchConfig> {
        let mut c = MatchConfig::new(0);
        c.decision_timeout_ms = self.time_limit_ms;
        c.max_steps_per_round = self.max_steps;
        c.game()?;
        Ok(c)
    }
}

#[derive(Subcommand, Debug)]
enum ArenaCommand {
    /// Plays one catalog bot (`--bot`) against another (`--vs`) over many matches, seats
    /// alternating; optionally writes every replay.
    Match {
        /// The opponent's catalog id.
        #[arg(long)]
        vs: String,
        /// The challenger's catalog id.
        #[arg(long, default_value = "builtin:greedy")]
        bot: String,
        /// Number of matches.
        #[arg(long, default_value_t = 1000)]
        games: u64,
        /// Write the replay of every match into this directory (`match_<g>.json`).
        #[arg(long)]
        replay_dir: Option<PathBuf>,
        #[command(flatten)]
        opts: RunnerOpts,
    },
    /// Every catalog bot against every other: win rates with 95% Wilson intervals and
    /// Elo ratings.
    Ladder {
        /// Matches per pair.
        #[arg(long, default_value_t = 2000)]
        games: u64,
        /// The bots, comma separated (default: the full ladder).
        #[arg(long)]
        bots: Option<String>,
        /// Append each finished pair as a JSON line to this file (partial results survive
        /// an interrupted ladder).
        #[arg(long)]
        jsonl: Option<PathBuf>,
        #[command(flatten)]
        opts: RunnerOpts,
    },
    /// Prints a replay file readably.
    Replay {
        /// The replay (JSON, as `arena match --replay-dir` or the official recorder writes).
        file: PathBuf,
    },
}

/// Results of one pair, from `a`'s side.
#[derive(Clone, Debug, Default)]
struct PairResult {
    games: u64,
    a_wins: u64,
    ties: u64,
    reasons: [u64; 4],
    forfeits_by_a: u64,
    forfeits_by_b: u64,
    steps: u64,
    seconds: f64,
}

fn reason_index(r: EndReason) -> usize {
    match r {
        EndReason::Normal => 0,
        EndReason::Forfeit => 1,
        EndReason::Timeout => 2,
        EndReason::MaxSteps => 3,
    }
}

fn progress(len: u64, quiet: bool, msg: String) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::new(len);
    pb.set_style(
        ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} {elapsed_precise} eta {eta}")
            .expect("valid template")
            .progress_chars("=> "),
    );
    pb.set_message(msg);
    pb
}

fn play_pair(
    config: &MatchConfig,
    a: &str,
    b: &str,
    games: u64,
    seed: u64,
    pb: &ProgressBar,
    replay_dir: Option<&PathBuf>,
) -> Result<PairResult> {
    let start = std::time::Instant::now();
    let results: Vec<Result<(MatchResult, bool)>> = (0..games)
        .into_par_iter()
        .map(|g| {
            let r = play_series_match(config, a, b, seed, g);
            if let (Some(dir), Ok((m, _))) = (replay_dir, &r) {
                let path = dir.join(format!("match_{g}.json"));
                std::fs::write(&path, m.replay.to_json()).map_err(|e| Error::Invalid {
                    what: "replay file",
                    reason: format!("{}: {e}", path.display()),
                })?;
            }
            pb.inc(1);
            r
        })
        .collect();
    let mut out = PairResult {
        games,
        ..Default::default()
    };
    for r in results {
        let (m, a_first) = r?;
        let a_seat = if a_first { 0 } else { 1 };
        match m.winner {
            Some(w) if w == a_seat => out.a_wins += 1,
            Some(_) => {}
            None => out.ties += 1,
        }
        out.reasons[reason_index(m.reason)] += 1;
        match m.forfeited {
            Some(f) if f == a_seat => out.forfeits_by_a += 1,
            Some(_) => out.forfeits_by_b += 1,
            None => {}
        }
        out.steps += m.steps_played;
    }
    out.seconds = start.elapsed().as_secs_f64();
    Ok(out)
}

fn print_pair(a: &str, b: &str, r: &PairResult) {
    let p = wilson(r.a_wins as f64 + 0.5 * r.ties as f64, r.games as f64);
    println!(
        "{a} vs {b}: matches={} {a} wins={} ({:.4}, 95% CI {:.4}..{:.4}) ties={} \
         reasons normal={} forfeit={} timeout={} max_steps={} (forfeits by {a}={}, by {b}={}) \
         actions/match={:.1} {:.1}s",
        r.games,
        r.a_wins,
        p.rate,
        p.low,
        p.high,
        r.ties,
        r.reasons[0],
        r.reasons[1],
        r.reasons[2],
        r.reasons[3],
        r.forfeits_by_a,
        r.forfeits_by_b,
        r.steps as f64 / r.games.max(1) as f64,
        r.seconds
    );
}

/// Runs `cardvec arena`.
pub fn run(args: ArenaArgs) -> Result<()> {
    match args.command {
        ArenaCommand::Match {
            vs,
            bot,
            games,
            replay_dir,
            opts,
        } => {
            let config = opts.config()?;
            catalog::resolve(&vs)?;
            catalog::resolve(&bot)?;
            Error::check_range("games", 1, i64::MAX, games as i64)?;
            if let Some(dir) = &replay_dir {
                std::fs::create_dir_all(dir).map_err(|e| Error::Invalid {
                    what: "replay directory",
                    reason: format!("{}: {e}", dir.display()),
                })?;
            }
            let pool = crate::pool(opts.threads)?;
            let pb = progress(games, opts.quiet, format!("{bot} vs {vs}"));
            let r = pool.install(|| {
                play_pair(
                    &config,
                    &bot,
                    &vs,
                    games,
                    opts.seed,
                    &pb,
                    replay_dir.as_ref(),
                )
            })?;
            pb.finish_and_clear();
            println!(
                "arena match: seed={} time_limit_ms={} max_steps={}",
                opts.seed, opts.time_limit_ms, opts.max_steps
            );
            print_pair(&bot, &vs, &r);
            Ok(())
        }
        ArenaCommand::Ladder {
            games,
            bots,
            jsonl,
            opts,
        } => {
            let config = opts.config()?;
            Error::check_range("games", 1, i64::MAX, games as i64)?;
            let ids: Vec<String> = match bots {
                Some(list) => list.split(',').map(|s| s.trim().to_string()).collect(),
                None => FULL_LADDER.iter().map(|s| s.to_string()).collect(),
            };
            for id in &ids {
                catalog::resolve(id)?;
            }
            let n = ids.len();
            let pool = crate::pool(opts.threads)?;
            let mut wins = vec![vec![0f64; n]; n];
            let mut played = vec![vec![0u64; n]; n];
            // Neighbouring tiers first: the pairs that decide the ladder's order.
            let mut pairs: Vec<(usize, usize)> = (0..n)
                .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
                .collect();
            pairs.sort_by_key(|&(i, j)| (j - i, j));
            let mut log = match &jsonl {
                Some(p) => Some(
                    std::fs::OpenOptions::new()
                        .create(true)
                        .append(true)
                        .open(p)
                        .map_err(|e| Error::Invalid {
                            what: "ladder log",
                            reason: format!("{}: {e}", p.display()),
                        })?,
                ),
                None => None,
            };
            for (k, &(i, j)) in pairs.iter().enumerate() {
                let pb = progress(
                    games,
                    opts.quiet,
                    format!("pair {}/{} {} vs {}", k + 1, pairs.len(), ids[i], ids[j]),
                );
                let r = pool.install(|| {
                    play_pair(&config, &ids[i], &ids[j], games, opts.seed, &pb, None)
                })?;
                pb.finish_and_clear();
                print_pair(&ids[i], &ids[j], &r);
                wins[i][j] += r.a_wins as f64 + 0.5 * r.ties as f64;
                wins[j][i] += (r.games - r.a_wins - r.ties) as f64 + 0.5 * r.ties as f64;
                played[i][j] += r.games;
                played[j][i] += r.games;
                if let Some(f) = log.as_mut() {
                    let _ = writeln!(
                        f,
                        "{{\"a\":\"{}\",\"b\":\"{}\",\"games\":{},\"a_wins\":{},\"ties\":{},\"normal\":{},\"forfeit\":{},\"timeout\":{},\"max_steps\":{},\"seed\":{},\"seconds\":{:.1}}}",
                        ids[i], ids[j], r.games, r.a_wins, r.ties, r.reasons[0], r.reasons[1], r.reasons[2], r.reasons[3], opts.seed, r.seconds
                    );
                }
            }
            println!("\nwin rate of the row against the column (95% Wilson interval), {games} matches per pair:\n");
            print!("| |");
            for id in &ids {
                print!(" {} |", id.trim_start_matches("builtin:"));
            }
            println!();
            println!("|---|{}", "---|".repeat(n));
            for i in 0..n {
                print!("| {} |", ids[i].trim_start_matches("builtin:"));
                for j in 0..n {
                    if i == j || played[i][j] == 0 {
                        print!(" — |");
                    } else {
                        let p = wilson(wins[i][j], played[i][j] as f64);
                        print!(" {:.3} ({:.3}–{:.3}) |", p.rate, p.low, p.high);
                    }
                }
                println!();
            }
            let elo = elo_ratings(&wins, 0, 1000.0);
            println!("\nElo (Bradley–Terry fit, {} = 1000):\n", ids[0]);
            let mut order: Vec<usize> = (0..n).collect();
            order.sort_by(|&x, &y| elo[y].total_cmp(&elo[x]));
            for i in order {
                println!("  {:<20} {:>7.0}", ids[i], elo[i]);
            }
            Ok(())
        }
        ArenaCommand::Replay { file } => {
            let text = std::fs::read_to_string(&file).map_err(|e| Error::Invalid {
                what: "replay file",
                reason: format!("{}: {e}", file.display()),
            })?;
            let replay = Replay::from_json(&text).map_err(|e| Error::Invalid {
                what: "replay file",
                reason: format!("{}: {e}", file.display()),
            })?;
            print!("{}", format_replay(&replay));
            Ok(())
        }
    }
}
