//! `cardvec spot solve`: a postflop hold'em spot solved range against range
//! (`cardvec::solve::spot`, `docs/spot.md`).

use std::time::Duration;

use cardvec::core::{Error, Result};
use cardvec::solve::spot::{
    Algorithm, SolveOptions, Spot, SpotSolver, TreeConfig, DEFAULT_ADD_ALLIN_THRESHOLD,
    DEFAULT_FORCE_ALLIN_THRESHOLD, DEFAULT_RAISE_CAP,
};
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

/// `cardvec spot <command>`.
#[derive(clap::Args, Debug)]
pub struct SpotArgs {
    #[command(subcommand)]
    command: SpotCommand,
}

#[derive(clap::Subcommand, Debug)]
enum SpotCommand {
    /// Solves a spot and reports its exploitability, EVs and equities.
    Solve(SolveArgs),
}

/// Options of `cardvec spot solve`.
#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    /// The board: 3, 4 or 5 cards (`Td9d6hQc`).
    #[arg(long)]
    board: String,
    /// The starting pot in chips.
    #[arg(long)]
    pot: u64,
    /// The effective stack behind in chips.
    #[arg(long)]
    stack: u64,
    /// OOP's range (`66+,AJo+`, weights `AKs:0.5`, or `15%`).
    #[arg(long)]
    oop_range: String,
    /// IP's range.
    #[arg(long)]
    ip_range: String,
    /// Bet sizes, both players, every street (`60%,e,a`).
    #[arg(long, default_value = "60%,a")]
    bets: String,
    /// Raise sizes (`2.5x`, `100%`, `a`).
    #[arg(long, default_value = "2.5x")]
    raises: String,
    /// Most raises per street.
    #[arg(long, default_value_t = DEFAULT_RAISE_CAP)]
    raise_cap: u32,
    /// All-in added when at most this times the pot after a call.
    #[arg(long, default_value_t = DEFAULT_ADD_ALLIN_THRESHOLD)]
    add_allin: f64,
    /// A size leaving less than this times the pot behind becomes all-in.
    #[arg(long, default_value_t = DEFAULT_FORCE_ALLIN_THRESHOLD)]
    force_allin: f64,
    /// Stop at this exploitability, in % of the starting pot.
    #[arg(long, default_value_t = 0.5)]
    target: f64,
    /// Most iterations.
    #[arg(long, default_value_t = 1000)]
    iterations: u64,
    /// Stop after this many seconds, keeping the strategy reached.
    #[arg(long)]
    time_limit: Option<f64>,
    /// Compute the exploitability every this many iterations.
    #[arg(long, default_value_t = 10)]
    check_every: u64,
    /// Worker threads (default: one per core; results do not depend on it).
    #[arg(long)]
    threads: Option<usize>,
    /// dcfr, cfr+ or pcfr+.
    #[arg(long, default_value = "dcfr")]
    algorithm: String,
    /// Print the tree's size and the memory the solve needs, and stop.
    #[arg(long)]
    dry_run: bool,
    /// Refuse a spot needing more memory than this (`4GB`, `512MB`, bytes).
    #[arg(long, default_value = "4GB")]
    max_memory: String,
    /// JSON lines (one per check, then the summary) instead of text.
    #[arg(long)]
    json: bool,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

/// Parses a memory size: a number of bytes, or with `KB`, `MB`, `GB` (powers of 1,000) or
/// `KiB`, `MiB`, `GiB` (powers of 1,024).
fn parse_memory(text: &str) -> Result<u64> {
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let scale: f64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1.0,
        "kb" => 1e3,
        "mb" => 1e6,
        "gb" => 1e9,
        "tb" => 1e12,
        "kib" => 1024.0,
        "mib" => 1024.0 * 1024.0,
        "gib" => 1024.0 * 1024.0 * 1024.0,
        _ => f64::NAN,
    };
    let n: f64 = num.parse().unwrap_or(f64::NAN);
    let bytes = n * scale;
    if !(bytes.is_finite() && (1.0..1.8e19).contains(&bytes)) {
        return Err(Error::Invalid {
            what: "--max-memory",
            reason: format!("{text:?} is not a size like 4GB, 512MB, 2GiB or a byte count"),
        });
    }
    Ok(bytes as u64)
}

#[derive(Serialize)]
struct CheckLine {
    iterations: u64,
    exploitability_pct: f64,
    seconds: f64,
}

#[derive(Serialize)]
struct Summary {
    board: String,
    pot: u32,
    stack: u32,
    algorithm: &'static str,
    threads: usize,
    hands: [usize; 2],
    nodes: u64,
    memory_bytes: u64,
    iterations: u64,
    seconds: f64,
    exploitability: f64,
    exploitability_pct: f64,
    stop: cardvec::solve::spot::StopReason,
    root_ev: [f64; 2],
    root_equity: [f64; 2],
}

/// Runs `cardvec spot`.
pub fn run(args: SpotArgs) -> Result<()> {
    match args.command {
        SpotCommand::Solve(a) => solve(a),
    }
}

fn solve(a: SolveArgs) -> Result<()> {
    let mut tree = TreeConfig::uniform(&a.bets, &a.raises)?;
    tree.raise_cap = a.raise_cap;
    tree.add_allin_threshold = a.add_allin;
    tree.force_allin_threshold = a.force_allin;
    let options = SolveOptions {
        algorithm: Algorithm::parse(&a.algorithm)?,
        target_pct: a.target,
        max_iterations: a.iterations,
        time_limit: a.time_limit,
        check_every: a.check_every,
        max_memory: parse_memory(&a.max_memory)?,
        ..SolveOptions::default()
    };
    options.check()?;
    let pool = crate::pool(a.threads)?;
    let spot = Spot::parse(&a.board, a.pot, a.stack, &a.oop_range, &a.ip_range, tree)?;
    let (_, memory) = SpotSolver::plan(&spot, &options)?;
    if a.dry_run || !a.json {
        let line = serde_json::json!({
            "dry_run": a.dry_run,
            "hands": [spot.hands(0).len(), spot.hands(1).len()],
            "memory": memory,
            "memory_bytes": memory.total_bytes,
            "max_memory": options.max_memory,
            "fits": memory.total_bytes <= options.max_memory,
        });
        if a.json {
            println!("{line}");
        } else {
            println!(
                "spot {}: {} + {} hands, {} nodes ({} decision, {} chance, {} terminal), \
                 {} slots, needs {} bytes ({:.1} MB; limit {} bytes)",
                a.board,
                spot.hands(0).len(),
                spot.hands(1).len(),
                memory.nodes,
                memory.decision_nodes,
                memory.chance_nodes,
                memory.terminal_nodes,
                memory.slots,
                memory.total_bytes,
                memory.total_bytes as f64 / 1e6,
                options.max_memory
            );
        }
        if a.dry_run {
            return Ok(());
        }
    }
    let bar = if a.quiet {
        ProgressBar::hidden()
    } else {
        let b = ProgressBar::new(options.max_iterations);
        b.set_style(
            ProgressStyle::with_template(
                "{elapsed_precise} [{bar:40}] {pos}/{len} iterations, exploitability {msg}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
        );
        b.enable_steady_tick(Duration::from_millis(500));
        b
    };
    let json = a.json;
    let result = pool.install(|| -> Result<_> {
        let mut solver = SpotSolver::new(&spot, &options)?;
        let sol = solver.solve(&options, &mut |p| {
            bar.set_position(p.iterations);
            bar.set_message(format!("{:.4}% of the pot", p.exploitability_pct));
            if json {
                let line = CheckLine {
                    iterations: p.iterations,
                    exploitability_pct: p.exploitability_pct,
                    seconds: p.seconds,
                };
                bar.suspend(|| println!("{}", serde_json::to_string(&line).expect("plain data")));
            }
            true
        })?;
        Ok(sol)
    })?;
    bar.finish_and_clear();
    let summary = Summary {
        board: a.board.clone(),
        pot: spot.pot(),
        stack: spot.stack(),
        algorithm: result.algorithm,
        threads: pool.current_num_threads(),
        hands: [spot.hands(0).len(), spot.hands(1).len()],
        nodes: result.memory.nodes,
        memory_bytes: result.memory.total_bytes,
        iterations: result.iterations,
        seconds: result.seconds,
        exploitability: result.exploitability,
        exploitability_pct: result.exploitability_pct,
        stop: result.stop,
        root_ev: result.root_ev,
        root_equity: result.root_equity,
    };
    if a.json {
        println!("{}", serde_json::to_string(&summary).expect("plain data"));
    } else {
        println!(
            "{} iterations of {} in {:.2} s ({:?}): exploitability {:.4} chips = {:.4}% of the \
             pot\nOOP EV {:.3}, IP EV {:.3} (chips); equity OOP {:.4}, IP {:.4}",
            summary.iterations,
            summary.algorithm,
            summary.seconds,
            summary.stop,
            summary.exploitability,
            summary.exploitability_pct,
            summary.root_ev[0],
            summary.root_ev[1],
            summary.root_equity[0],
            summary.root_equity[1]
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::parse_memory;

    #[test]
    fn memory_sizes_parse() {
        assert_eq!(parse_memory("4GB").unwrap(), 4_000_000_000);
        assert_eq!(parse_memory("2GiB").unwrap(), 2 << 30);
        assert_eq!(parse_memory("512mb").unwrap(), 512_000_000);
        assert_eq!(parse_memory("1000").unwrap(), 1000);
        for bad in ["", "GB", "4XB", "-1GB", "0"] {
            assert!(parse_memory(bad).is_err(), "{bad}");
        }
    }
}
