//! `cardvec diff`: the differential run between a game's reference and fast engines.

use cardvec::core::diff::{run as run_diff, DiffConfig, DiffReport};
use cardvec::core::{Error, Result};
use cardvec::games::holdem::reference;
use cardvec::games::{flip7, i151, lost_cities};

/// Options of `cardvec diff`.
#[derive(clap::Args, Debug)]
pub struct DiffArgs {
    /// The game to check.
    game: String,
    /// Number of games.
    #[arg(long, default_value_t = 100_000)]
    games: u64,
    /// Seed of the run (game `g` is dealt from stream `(seed, g, 0)`).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Worker threads (default: one per core).
    #[arg(long)]
    threads: Option<usize>,
    /// One action in this many is a random, mostly illegal, probe (0: none).
    #[arg(long, default_value_t = 16)]
    probe_every: u32,
    /// Hide the progress bar.
    #[arg(long)]
    quiet: bool,
}

fn print(report: &DiffReport, args: &DiffArgs) {
    println!(
        "game={} games={} seed={} actions={} rejected_probes={} mismatched_games={} elapsed={:.2}s",
        args.game,
        report.games,
        args.seed,
        report.actions,
        report.rejected,
        report.failed_games,
        report.elapsed.as_secs_f64()
    );
    for m in &report.mismatches {
        println!(
            "MISMATCH game={} step={}: {} (reproduce: cardvec diff {} --seed {} --games {})",
            m.game,
            m.step,
            m.what,
            args.game,
            args.seed,
            m.game + 1
        );
    }
}

/// Runs `cardvec diff`; a mismatch is an error (exit status 2).
pub fn run(args: DiffArgs) -> Result<()> {
    let config = DiffConfig {
        games: args.games,
        seed: args.seed,
        illegal_probe_every: args.probe_every,
    };
    let pool = crate::pool(args.threads)?;
    let bar = crate::progress::Bar::new(args.quiet);
    let report = match args.game.as_str() {
        "lost-cities" => {
            pool.install(|| run_diff(&config, &bar, lost_cities::reference::diff_pair))
        }
        "flip7" => pool.install(|| run_diff(&config, &bar, flip7::reference::diff_pair)),
        "151" => pool.install(|| run_diff(&config, &bar, i151::reference::diff_pair)),
        "holdem" => pool.install(|| run_diff(&config, &bar, reference::diff_pair)),
        other => return Err(crate::unknown_game(other)),
    };
    print(&report, &args);
    if report.failed_games > 0 {
        return Err(Error::Invalid {
            what: "differential run",
            reason: format!("{} games mismatched", report.failed_games),
        });
    }
    Ok(())
}
