//! `cardvec arena`: the i151 arena. `match` plays catalog bots against each other through
//! the match runner (time limits, forfeits, replays), `ladder` plays every catalog bot
//! against every other and prints the standings (win rates with Wilson intervals, Elo
//! ratings), `table` prints the standings of a saved ladder log, `replay` prints a replay
//! file. The matches and the standings are the library's (`cardvec::arena`); this module
//! parses the options, draws the progress bar and the tables.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Subcommand;

use cardvec::arena::catalog::{self, FULL_LADDER};
use cardvec::arena::ladder::{
    play_ladder, play_pair, read_log, PairResult, SeriesConfig, Standings,
};
use cardvec::arena::replay::{format_replay, Replay};
use cardvec::arena::runner::{Clock, MatchConfig, MatchResult};
use cardvec::core::{Error, Result};

use crate::progress::Bar;

/// Options of `cardvec arena`.
#[derive(clap::Args, Debug)]
pub struct ArenaArgs {
    #[command(subcommand)]
    command: ArenaCommand,
}

/// Runner settings shared by `match` and `ladder`.
#[derive(clap::Args, Debug, Clone)]
struct RunnerOpts {
    /// Decision time limit in milliseconds (must be > 0), on the wall clock.
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
    /// The series settings: the official limits unless changed, on the wall clock.
    fn series(&self, games: u64) -> SeriesConfig {
        let mut match_config = MatchConfig::new(0);
        match_config.decision_timeout_ms = self.time_limit_ms;
        match_config.max_steps_per_round = self.max_steps;
        SeriesConfig {
            match_config,
            clock: Clock::Wall,
            games,
            seed: self.seed,
        }
    }
}

#[derive(Subcommand, Debug)]
enum ArenaCommand {
    /// Plays one catalog bot (`--bot`) against another (`--vs`) over many matches, seats
    /// alternating; optionally writes every replay. A trained network plays as
    /// `policy:<path>` (a policy file trained on 151 with the match's rules; `,sample=1`
    /// samples its actions) wherever a catalog id is taken.
    Match {
        /// The opponent's catalog id (or `policy:<path>`).
        #[arg(long)]
        vs: String,
        /// The challenger's catalog id (or `policy:<path>`).
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
        /// The bots, comma separated (default: the full ladder; `policy:<path>` files too);
        /// the first is the Elo anchor (1000).
        #[arg(long)]
        bots: Option<String>,
        /// Append each finished pair as a JSON line to this file (partial results survive
        /// an interrupted ladder; `cardvec arena table FILE` prints their standings).
        #[arg(long)]
        jsonl: Option<PathBuf>,
        #[command(flatten)]
        opts: RunnerOpts,
    },
    /// The standings (win rates with 95% Wilson intervals, Elo ratings) of a ladder log
    /// written by `ladder --jsonl`: the pairs it finished.
    Table {
        /// The ladder log (JSON lines).
        file: PathBuf,
    },
    /// Prints a replay file readably.
    Replay {
        /// The replay (JSON, as `arena match --replay-dir` or the official recorder writes).
        file: PathBuf,
    },
}

fn print_pair(p: &PairResult) {
    let rate = p.a_rate();
    let (a, b) = (&p.a, &p.b);
    println!(
        "{a} vs {b}: matches={} {a} wins={} ({:.4}, 95% CI {:.4}..{:.4}) ties={} \
         reasons normal={} forfeit={} timeout={} max_steps={} (forfeits by {a}={}, by {b}={}) \
         actions/match={:.1} {:.1}s",
        p.games,
        p.a_wins,
        rate.rate,
        rate.low,
        rate.high,
        p.ties,
        p.normal,
        p.forfeit,
        p.timeout,
        p.max_steps,
        p.forfeits_by_a,
        p.forfeits_by_b,
        p.actions as f64 / p.games.max(1) as f64,
        p.seconds
    );
}

/// The standings as markdown: the win-rate table (row against column, 95% Wilson
/// intervals), the Elo ratings, and the pairs that had other ends than `normal`.
fn standings_text(s: &Standings) -> String {
    let ids = s.ids();
    let n = ids.len();
    let short = |id: &str| id.trim_start_matches("builtin:").to_string();
    let mut games: Vec<u64> = s.pairs().iter().map(|p| p.games).collect();
    games.sort_unstable();
    games.dedup();
    let per_pair = match games.as_slice() {
        [g] => format!(", {g} matches per pair"),
        _ => String::new(),
    };
    let mut out =
        format!("win rate of the row against the column (95% Wilson interval){per_pair}:\n\n| |");
    for id in ids {
        out += &format!(" {} |", short(id));
    }
    out += &format!("\n|---|{}\n", "---|".repeat(n));
    for (i, id) in ids.iter().enumerate() {
        out += &format!("| {} |", short(id));
        for j in 0..n {
            out += &match s.win_rate(i, j) {
                Some(p) => format!(" {:.3} ({:.3}–{:.3}) |", p.rate, p.low, p.high),
                None => " — |".to_string(),
            };
        }
        out.push('\n');
    }
    let elo = s.elo();
    out += &format!("\nElo (Bradley–Terry fit, {} = 1000):\n\n", ids[0]);
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&x, &y| elo[y].total_cmp(&elo[x]));
    for i in order {
        out += &format!("  {:<20} {:>7.0}\n", ids[i], elo[i]);
    }
    let unusual: Vec<&PairResult> = s.pairs().iter().filter(|p| p.normal != p.games).collect();
    if !unusual.is_empty() {
        out += "\nother ends than normal:\n\n";
        for p in unusual {
            out += &format!(
                "  {} vs {}: forfeit={} timeout={} max_steps={}\n",
                p.a, p.b, p.forfeit, p.timeout, p.max_steps
            );
        }
    }
    out
}

fn io_error(what: &'static str, path: &Path, e: std::io::Error) -> Error {
    Error::Invalid {
        what,
        reason: format!("{}: {e}", path.display()),
    }
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
            let config = opts.series(games);
            if let Some(dir) = &replay_dir {
                std::fs::create_dir_all(dir).map_err(|e| io_error("replay directory", dir, e))?;
            }
            let write_replay = |g: u64, m: &MatchResult, _a_first: bool| -> Result<()> {
                if let Some(dir) = &replay_dir {
                    let path = dir.join(format!("match_{g}.json"));
                    std::fs::write(&path, m.replay.to_json())
                        .map_err(|e| io_error("replay file", &path, e))?;
                }
                Ok(())
            };
            let pool = crate::pool(opts.threads)?;
            let bar = Bar::new(opts.quiet);
            let pair = pool.install(|| play_pair(&config, &bot, &vs, &bar, &write_replay))?;
            println!(
                "arena match: seed={} time_limit_ms={} max_steps={}",
                opts.seed, opts.time_limit_ms, opts.max_steps
            );
            print_pair(&pair);
            Ok(())
        }
        ArenaCommand::Ladder {
            games,
            bots,
            jsonl,
            opts,
        } => {
            let config = opts.series(games);
            let ids: Vec<String> = match bots {
                Some(list) => crate::game_args::split_bots(&list)?,
                None => FULL_LADDER.iter().map(|s| s.to_string()).collect(),
            };
            let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
            // Unknown ids are refused before the log file is created.
            let game = config.match_config.game()?;
            for id in &ids {
                catalog::resolve_in(&game, id)?;
            }
            let mut log = match &jsonl {
                Some(p) => Some(
                    std::fs::OpenOptions::new()
                        .create(true)
                        .append(true)
                        .open(p)
                        .map_err(|e| io_error("ladder log", p, e))?,
                ),
                None => None,
            };
            let pool = crate::pool(opts.threads)?;
            let bar = Bar::new(opts.quiet);
            let standings = pool.install(|| {
                play_ladder(&config, &ids, &bar, &mut |pair| {
                    bar.suspend(|| print_pair(pair));
                    match (&mut log, &jsonl) {
                        (Some(f), Some(path)) => writeln!(f, "{}", pair.to_json())
                            .map_err(|e| io_error("ladder log", path, e)),
                        _ => Ok(()),
                    }
                })
            })?;
            println!();
            print!("{}", standings_text(&standings));
            Ok(())
        }
        ArenaCommand::Table { file } => {
            let text =
                std::fs::read_to_string(&file).map_err(|e| io_error("ladder log", &file, e))?;
            let pairs = read_log(&text).map_err(|e| match e {
                Error::Invalid { what, reason } => Error::Invalid {
                    what,
                    reason: format!("{}: {reason}", file.display()),
                },
                other => other,
            })?;
            if pairs.is_empty() {
                return Err(Error::Invalid {
                    what: "ladder log",
                    reason: format!("{}: no finished pair", file.display()),
                });
            }
            print!("{}", standings_text(&Standings::from_pairs(&pairs)));
            Ok(())
        }
        ArenaCommand::Replay { file } => {
            let text =
                std::fs::read_to_string(&file).map_err(|e| io_error("replay file", &file, e))?;
            let replay = Replay::from_json(&text).map_err(|e| Error::Invalid {
                what: "replay file",
                reason: format!("{}: {e}", file.display()),
            })?;
            print!("{}", format_replay(&replay));
            Ok(())
        }
    }
}
