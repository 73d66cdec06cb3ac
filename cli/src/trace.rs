//! `cardvec trace`: random games written for a game's external oracle to replay (151:
//! `python/tests/i151_oracle.py` in i151-engine; hold'em: `holdem_pokerkit_oracle.py` in
//! pokerkit, or PHH files with `--dir`).

use std::io::{BufWriter, Write};

use cardvec::core::spec::{GameSpec, TraceRequest};
use cardvec::core::{Error, Result};
use cardvec::registry::{self, Visitor};

use crate::game_args::{check_players, parse_list};

/// Options of `cardvec trace`.
#[derive(clap::Args, Debug)]
pub struct TraceArgs {
    /// The game (`cardvec games` says which have an oracle).
    game: String,
    /// Number of games.
    #[arg(long, default_value_t = 100, visible_aliases = ["matches", "hands"])]
    games: u64,
    /// Player counts used in turn, comma separated (default: the game's mix).
    #[arg(long, visible_alias = "seats")]
    players: Option<String>,
    /// Seed of the first game (151: match `i` has seed `seed + i`; hold'em: hand `i` draws
    /// from stream `(seed, i, 0)`).
    #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
    seed: i64,
    /// Index of the first game: writes games `first..first + games`, each as in the trace
    /// from 0 (a shard of a larger trace).
    #[arg(long, default_value_t = 0)]
    first: u64,
    /// Seed of the random legal policy (151).
    #[arg(long, default_value_t = 0)]
    policy_seed: u64,
    /// Write one history file per game into this directory (hold'em: PHH) instead of JSON
    /// lines on standard output.
    #[arg(long, visible_alias = "phh-dir")]
    dir: Option<std::path::PathBuf>,
}

struct Trace(TraceRequest);

impl Visitor for Trace {
    type Output = Result<()>;
    fn visit<G: GameSpec>(&mut self) -> Result<()> {
        let stdout = std::io::stdout();
        let mut out = BufWriter::with_capacity(1 << 20, stdout.lock());
        let summary = G::write_trace(&self.0, &mut out)?;
        out.flush().map_err(|e| Error::Invalid {
            what: "trace output",
            reason: e.to_string(),
        })?;
        let counts: Vec<String> = summary.iter().map(|(k, v)| format!("{k}={v}")).collect();
        eprintln!("{}", counts.join(" "));
        Ok(())
    }
}

/// Runs `cardvec trace`, writing to standard output.
pub fn run(args: TraceArgs) -> Result<()> {
    crate::game_args::check_count("--games", args.games)?;
    let info = registry::info(&args.game)?;
    let players: Vec<usize> = match &args.players {
        Some(list) => parse_list("--players", list)?,
        None => Vec::new(),
    };
    for &p in &players {
        check_players(info, p)?;
    }
    let request = TraceRequest {
        games: args.games,
        first: args.first,
        seed: args.seed,
        players,
        policy_seed: args.policy_seed,
        dir: args.dir.clone(),
    };
    registry::visit(&args.game, &mut Trace(request))?
}
