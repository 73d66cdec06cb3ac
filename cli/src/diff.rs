//! `cardvec diff`: the differential run between a game's reference and fast engines, for one
//! game or every registered game in one process (`cardvec diff all`). Each game draws its own
//! random configuration (`GameChecks::diff_pair`), unless `-o` fixes one for every game.

use cardvec::core::diff::{run as run_diff, DiffConfig, DiffReport};
use cardvec::core::spec::{GameSpec, Options};
use cardvec::core::{Error, Result};
use cardvec::registry::{self, Visitor};
use serde::Serialize;

use crate::game_args::options;

/// Options of `cardvec diff`.
#[derive(clap::Args, Debug)]
pub struct DiffArgs {
    /// The game to check, or `all` for every registered game in turn.
    game: String,
    /// Number of games (per game with `all`).
    #[arg(long, default_value_t = 100_000)]
    games: u64,
    /// Seed of the run (game `g` is dealt from stream `(seed, g, 0)`).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Index of the first game: plays games `first..first + games`, each dealt as in the
    /// run from 0 (a shard of a larger run; `--first G --games 1` replays game `G`).
    #[arg(long, default_value_t = 0)]
    first: u64,
    /// Worker threads (default: one per core).
    #[arg(long)]
    threads: Option<usize>,
    /// One action in this many is a random, mostly illegal, probe (0: none).
    #[arg(long, default_value_t = 16)]
    probe_every: u32,
    /// Hide the progress bar.
    #[arg(long)]
    quiet: bool,
    /// Print each game's result as a JSON line instead of text.
    #[arg(long)]
    json: bool,
    /// Play every game in this configuration, `name=value` (repeatable; one game only)
    /// instead of each game's random configuration: game `g` is dealt from a seed drawn
    /// from stream `(seed, g, 0)`.
    #[arg(short = 'o', long = "option", value_name = "NAME=VALUE")]
    options: Vec<String>,
}

/// One game's result, as `--json` prints it.
#[derive(Serialize)]
struct DiffLine<'a> {
    game: &'static str,
    /// The fixed configuration (`-o`), or none: each game's random one.
    options: Option<String>,
    games: u64,
    seed: u64,
    actions: u64,
    rejected_probes: u64,
    mismatched_games: u64,
    seconds: f64,
    mismatches: Vec<MismatchLine<'a>>,
}

#[derive(Serialize)]
struct MismatchLine<'a> {
    game: u64,
    step: u32,
    what: &'a str,
    reproduce: String,
}

fn print(id: &'static str, report: &DiffReport, args: &DiffArgs, options: Option<&Options>) {
    let with = options.map_or(String::new(), |o| format!(" -o {o}"));
    let reproduce = |g: u64| {
        format!(
            "cardvec diff {id} --seed {} --first {g} --games 1{with}",
            args.seed
        )
    };
    if args.json {
        let line = DiffLine {
            game: id,
            options: options.map(|o| o.to_string()),
            games: report.games,
            seed: args.seed,
            actions: report.actions,
            rejected_probes: report.rejected,
            mismatched_games: report.failed_games,
            seconds: report.elapsed.as_secs_f64(),
            mismatches: report
                .mismatches
                .iter()
                .map(|m| MismatchLine {
                    game: m.game,
                    step: m.step,
                    what: &m.what,
                    reproduce: reproduce(m.game),
                })
                .collect(),
        };
        println!(
            "{}",
            serde_json::to_string(&line).expect("a report always serializes")
        );
        return;
    }
    let config = options.map_or(String::new(), |o| format!(" options={o}"));
    println!(
        "game={id}{config} games={} seed={} actions={} rejected_probes={} mismatched_games={} elapsed={:.2}s",
        report.games,
        args.seed,
        report.actions,
        report.rejected,
        report.failed_games,
        report.elapsed.as_secs_f64()
    );
    for m in &report.mismatches {
        println!(
            "MISMATCH game={} step={}: {} (reproduce: {})",
            m.game,
            m.step,
            m.what,
            reproduce(m.game)
        );
    }
}

struct Diff<'a> {
    args: &'a DiffArgs,
    pool: &'a rayon::ThreadPool,
}

impl Visitor for Diff<'_> {
    /// Mismatched games, or a bad configuration.
    type Output = Result<u64>;
    fn visit<G: GameSpec>(&mut self) -> Result<u64> {
        let config = DiffConfig {
            games: self.args.games,
            first: self.args.first,
            seed: self.args.seed,
            illegal_probe_every: self.args.probe_every,
        };
        let bar = crate::progress::Bar::new(self.args.quiet);
        if self.args.options.is_empty() {
            let report = self.pool.install(|| run_diff(&config, &bar, G::diff_pair));
            print(G::INFO.id, &report, self.args, None);
            return Ok(report.failed_games);
        }
        let options = options(G::INFO.id, &self.args.options, Vec::new(), "")?;
        let game = G::configure(&options)?;
        let report = self
            .pool
            .install(|| run_diff(&config, &bar, |_, deal| game.fuzz_pair(deal.next_u64())));
        print(G::INFO.id, &report, self.args, Some(&options));
        Ok(report.failed_games)
    }
}

/// Runs `cardvec diff`; a mismatch is an error (exit status 2).
pub fn run(args: DiffArgs) -> Result<()> {
    crate::game_args::check_count("--games", args.games)?;
    if args.first.checked_add(args.games).is_none() {
        return Err(Error::Invalid {
            what: "--first",
            reason: format!(
                "{} + --games {} is past the last game index",
                args.first, args.games
            ),
        });
    }
    let pool = crate::pool(args.threads)?;
    let mut diff = Diff {
        args: &args,
        pool: &pool,
    };
    let failed: u64 = if args.game == "all" {
        if !args.options.is_empty() {
            return Err(Error::Invalid {
                what: "options",
                reason: "-o configures one game: give a game id, not all".into(),
            });
        }
        let mut failed = 0;
        for result in registry::visit_all(&mut diff) {
            failed += result?;
        }
        failed
    } else {
        registry::visit(&args.game, &mut diff)??
    };
    if failed > 0 {
        return Err(Error::Invalid {
            what: "differential run",
            reason: format!(
                "{failed} {} mismatched",
                if failed == 1 { "game" } else { "games" }
            ),
        });
    }
    Ok(())
}
