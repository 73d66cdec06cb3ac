//! `cardvec eval` and `cardvec equity`: the hold'em hand evaluator and equity calculator on
//! the command line.

use std::io::{BufRead, BufWriter, Write};

use cardvec::core::{Error, Result};
use cardvec::poker::{
    best_five, equity_weighted_with_progress, parse_cards, EquityOptions, EquityReport, Method,
    Range, WeightedRange,
};
use serde::Serialize;

/// Options of `cardvec eval`.
#[derive(clap::Args, Debug)]
pub struct EvalArgs {
    /// Five to seven cards, as separate words or one ("As Ks Qs Js Ts 2h 3d", "AsKsQsJsTs").
    cards: Vec<String>,
    /// Read one hand per line from standard input and print its ordinal (1 = worst class,
    /// 7462 = royal flush) per line, for oracle comparisons.
    #[arg(long, conflicts_with = "cards")]
    stdin: bool,
}

/// Runs `cardvec eval`.
pub fn run_eval(args: EvalArgs) -> Result<()> {
    if args.stdin {
        return eval_lines();
    }
    let cards = parse_cards(&args.cards.join(" "))?;
    let (rank, five) = best_five(&cards)?;
    let shown: Vec<String> = five.iter().map(|c| c.to_string()).collect();
    println!("rank      {} of 7462 (raw {:#06x})", rank.ordinal(), rank.0);
    println!("category  {}", rank.category());
    println!("name      {}", rank.name());
    println!("best five {}", shown.join(" "));
    Ok(())
}

fn io_error(e: std::io::Error) -> Error {
    Error::Invalid {
        what: "input/output",
        reason: e.to_string(),
    }
}

fn eval_lines() -> Result<()> {
    let stdin = std::io::stdin();
    let mut out = BufWriter::new(std::io::stdout().lock());
    for (i, line) in stdin.lock().lines().enumerate() {
        let line = line.map_err(io_error)?;
        let cards = parse_cards(&line).map_err(|e| Error::Invalid {
            what: "input line",
            reason: format!("line {}: {e}", i + 1),
        })?;
        let rank = cardvec::poker::evaluate(&cards).map_err(|e| Error::Invalid {
            what: "input line",
            reason: format!("line {}: {e}", i + 1),
        })?;
        writeln!(out, "{}", rank.ordinal()).map_err(io_error)?;
    }
    out.flush().map_err(io_error)
}

/// Most players `cardvec equity` takes (given and `--opponents` together).
const MAX_EQUITY_PLAYERS: usize = 10;

/// Options of `cardvec equity`.
#[derive(clap::Args, Debug)]
pub struct EquityArgs {
    /// One word per player: hole cards ("AsAh") or a range ("AKs,TT+", "A5s-A2s", "random"),
    /// with weights ("AKs:0.5,QQ+,T9s:0.25") and percentages ("15%": the top 15% of the
    /// combos by preflop all-in equity against a random hand).
    players: Vec<String>,
    /// Players with unknown cards added after the given ones.
    #[arg(long, default_value_t = 0)]
    opponents: usize,
    /// Board cards, e.g. "2c7d9h".
    #[arg(long, default_value = "")]
    board: String,
    /// Dead cards, out of play.
    #[arg(long, default_value = "")]
    dead: String,
    /// Always enumerate exactly.
    #[arg(long, conflicts_with = "mc")]
    exact: bool,
    /// Always use Monte Carlo.
    #[arg(long)]
    mc: bool,
    /// Monte Carlo trials.
    #[arg(long, default_value_t = 1_000_000)]
    trials: u64,
    /// Largest enumeration done exactly without --exact (work units: board completions
    /// times combos ranked and deals scored per board).
    #[arg(long, default_value_t = 400_000_000)]
    exact_limit: u64,
    /// Seed of the Monte Carlo streams.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Worker threads (default: one per core).
    #[arg(long)]
    threads: Option<usize>,
    /// Hide the progress bar.
    #[arg(long)]
    quiet: bool,
    /// Print the result as one JSON object (counts, equities, standard errors).
    #[arg(long)]
    json: bool,
}

/// Runs `cardvec equity`.
pub fn run_equity(args: EquityArgs) -> Result<()> {
    let mut names: Vec<String> = args.players.clone();
    let mut ranges = Vec::new();
    for p in &args.players {
        ranges.push(WeightedRange::parse(p)?);
    }
    // Checked apart first, so that the message shows the count typed (a sum could wrap).
    Error::check_range(
        "--opponents",
        0,
        MAX_EQUITY_PLAYERS.saturating_sub(ranges.len()),
        args.opponents,
    )?;
    Error::check_range(
        "players",
        2,
        MAX_EQUITY_PLAYERS,
        ranges.len() + args.opponents,
    )?;
    for i in 0..args.opponents {
        ranges.push(WeightedRange::from(&Range::all()));
        names.push(format!("random #{}", i + 1));
    }
    let options = EquityOptions {
        board: parse_cards(&args.board)?,
        dead: parse_cards(&args.dead)?,
        method: if args.exact {
            Method::Exact
        } else if args.mc {
            Method::MonteCarlo
        } else {
            Method::Auto
        },
        exact_limit: args.exact_limit,
        trials: args.trials,
        seed: args.seed,
        max_work: None,
    };
    let pool = crate::pool(args.threads)?;
    let bar = crate::progress::Bar::new(args.quiet);
    let report = pool.install(|| equity_weighted_with_progress(&ranges, &options, &bar))?;
    if args.json {
        print_json(&names, &report);
    } else {
        print_report(&names, &ranges, &args, &report);
    }
    Ok(())
}

/// One player of `cardvec equity --json`.
#[derive(Serialize)]
struct PlayerJson<'a> {
    player: &'a str,
    wins: u64,
    ties: u64,
    equity: f64,
    equity_se: f64,
}

/// Everything `cardvec equity --json` prints.
#[derive(Serialize)]
struct EquityJson<'a> {
    exact: bool,
    total: u64,
    seconds: f64,
    players: Vec<PlayerJson<'a>>,
}

fn print_json(names: &[String], report: &EquityReport) {
    let out = EquityJson {
        exact: report.exact,
        total: report.total,
        seconds: report.elapsed.as_secs_f64(),
        players: names
            .iter()
            .zip(&report.players)
            .map(|(name, p)| PlayerJson {
                player: name,
                wins: p.wins,
                ties: p.ties,
                equity: p.equity,
                equity_se: p.equity_se,
            })
            .collect(),
    };
    println!(
        "{}",
        serde_json::to_string(&out).expect("an equity report always serializes")
    );
}

fn print_report(
    names: &[String],
    ranges: &[WeightedRange],
    args: &EquityArgs,
    report: &EquityReport,
) {
    let method = if report.exact {
        format!("exact, {} deals", report.total)
    } else {
        format!("Monte Carlo, {} trials, seed {}", report.total, args.seed)
    };
    let board = if args.board.is_empty() {
        "preflop".to_string()
    } else {
        format!("board {}", args.board)
    };
    println!("{board}; {method}; {:.2}s", report.elapsed.as_secs_f64());
    let width = names.iter().map(|n| n.len()).max().unwrap_or(6).max(6);
    let se_head = if report.exact { "" } else { "   ±1 SE" };
    println!(
        "{:<width$}  {:>6}  {:>8}  {:>8}  {:>8}{se_head}",
        "player", "combos", "win %", "tie %", "equity %"
    );
    let combos = |r: &WeightedRange| {
        if r.is_unweighted() {
            r.len().to_string()
        } else {
            format!("{:.2}", r.total_weight())
        }
    };
    for ((name, range), p) in names.iter().zip(ranges).zip(&report.players) {
        let se = if report.exact {
            String::new()
        } else {
            format!("  {:>7.4}", 100.0 * p.equity_se)
        };
        println!(
            "{:<width$}  {:>6}  {:>8.4}  {:>8.4}  {:>8.4}{se}",
            name,
            combos(range),
            100.0 * p.win_rate,
            100.0 * p.tie_rate,
            100.0 * p.equity
        );
    }
}
