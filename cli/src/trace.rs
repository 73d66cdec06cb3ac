//! `cardvec trace`: random matches or hands as a JSON-lines trace for an external oracle.

use std::io::{BufWriter, Write};

use cardvec::core::{Error, Result};
use cardvec::games::holdem::trace as holdem_trace;
use cardvec::games::i151::trace::{write_trace, TraceConfig};

/// Options of `cardvec trace`.
#[derive(clap::Args, Debug)]
pub struct TraceArgs {
    /// The game: `151` (replayed in i151-engine) or `holdem` (replayed in pokerkit).
    game: String,
    /// Number of matches (151).
    #[arg(long, default_value_t = 100)]
    matches: u64,
    /// Number of hands (holdem).
    #[arg(long, default_value_t = 1000)]
    hands: u64,
    /// Seat counts used in turn (holdem), comma separated, each 2..=10.
    #[arg(long, default_value = "2,3,6,10", value_delimiter = ',')]
    seats: Vec<usize>,
    /// Seed of the first match (151: match `i` has seed `seed + i`; holdem: hand `i` draws
    /// from stream `(seed, i, 0)`).
    #[arg(long, default_value_t = 0)]
    seed: i64,
    /// Seats of every match (151; default: 2, 3, 4 in turn).
    #[arg(long)]
    players: Option<usize>,
    /// Seed of the random legal policy (151).
    #[arg(long, default_value_t = 0)]
    policy_seed: u64,
    /// Holdem: write each hand as a PHH file (`hand_NNNNNN.phh`) in this directory instead
    /// of JSON lines (the same hands).
    #[arg(long)]
    phh_dir: Option<std::path::PathBuf>,
}

fn io(e: std::io::Error) -> Error {
    Error::Invalid {
        what: "trace output",
        reason: e.to_string(),
    }
}

/// Runs `cardvec trace`, writing to standard output.
pub fn run(args: TraceArgs) -> Result<()> {
    let stdout = std::io::stdout();
    let mut out = BufWriter::with_capacity(1 << 20, stdout.lock());
    match args.game.as_str() {
        "151" => {
            if let Some(p) = args.players {
                Error::check_range("players", 2, 4, p as i64)?;
            }
            let config = TraceConfig {
                matches: args.matches,
                first_seed: args.seed,
                players: args.players,
                policy_seed: args.policy_seed,
            };
            let summary = write_trace(&config, &mut out).map_err(io)?;
            out.flush().map_err(io)?;
            eprintln!(
                "matches={} decisions={} rounds={}",
                summary.matches, summary.decisions, summary.rounds
            );
        }
        "holdem" => {
            if args.seats.is_empty() {
                return Err(Error::Invalid {
                    what: "seats",
                    reason: "give at least one seat count".into(),
                });
            }
            for &s in &args.seats {
                Error::check_range("seats", 2, 10, s as i64)?;
            }
            let config = holdem_trace::TraceConfig {
                hands: args.hands,
                seats: args.seats.clone(),
                seed: args.seed as u64,
            };
            let summary = match &args.phh_dir {
                Some(dir) => {
                    std::fs::create_dir_all(dir).map_err(io)?;
                    holdem_trace::write_phh_files(&config, dir).map_err(io)?
                }
                None => holdem_trace::write_trace(&config, &mut out).map_err(io)?,
            };
            out.flush().map_err(io)?;
            eprintln!(
                "hands={} decisions={} showdowns={}",
                summary.hands, summary.decisions, summary.showdowns
            );
        }
        other => return Err(crate::unknown_game(other)),
    }
    Ok(())
}
