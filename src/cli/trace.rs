//! `cardvec trace`: random matches as a JSON-lines trace for an external oracle.

use std::io::{BufWriter, Write};

use cardvec::core::{Error, Result};
use cardvec::games::i151::trace::{write_trace, TraceConfig};

/// Options of `cardvec trace`.
#[derive(clap::Args, Debug)]
pub struct TraceArgs {
    /// The game (only `151` has a trace).
    game: String,
    /// Number of matches.
    #[arg(long, default_value_t = 100)]
    matches: u64,
    /// Seed of the first match (match `i` has seed `seed + i`).
    #[arg(long, default_value_t = 0)]
    seed: i64,
    /// Seats of every match (default: 2, 3, 4 in turn).
    #[arg(long)]
    players: Option<usize>,
    /// Seed of the random legal policy.
    #[arg(long, default_value_t = 0)]
    policy_seed: u64,
}

/// Runs `cardvec trace`, writing to standard output.
pub fn run(args: TraceArgs) -> Result<()> {
    if args.game != "151" {
        return Err(super::unknown_game(&args.game));
    }
    if let Some(p) = args.players {
        Error::check_range("players", 2, 4, p as i64)?;
    }
    let config = TraceConfig {
        matches: args.matches,
        first_seed: args.seed,
        players: args.players,
        policy_seed: args.policy_seed,
    };
    let stdout = std::io::stdout();
    let mut out = BufWriter::with_capacity(1 << 20, stdout.lock());
    let io = |e: std::io::Error| Error::Invalid {
        what: "trace output",
        reason: e.to_string(),
    };
    let summary = write_trace(&config, &mut out).map_err(io)?;
    out.flush().map_err(io)?;
    eprintln!(
        "matches={} decisions={} rounds={}",
        summary.matches, summary.decisions, summary.rounds
    );
    Ok(())
}
