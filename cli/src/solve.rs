//! `cardvec solve`: CFR, CFR+, DCFR, PCFR+ or MCCFR on a game with a game tree, the exploitability of
//! the average policy reported along the way, the policy written as JSON on request.

use cardvec::core::spec::OptionValue;
use cardvec::core::{Error, Result};
use cardvec::registry;
use cardvec::solve::flat::DEFAULT_MAX_NODES;
use cardvec::solve::run::{solve, Algorithm, ReportPoint, SolveConfig};
use serde::Serialize;

use crate::game_args::{check_count, options};

/// Options of `cardvec solve`.
#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    /// The game (one with a game tree: kuhn, leduc, ...).
    game: String,
    /// The algorithm: cfr, cfr+, dcfr, pcfr+, es-mccfr or os-mccfr.
    #[arg(long, default_value = "cfr+")]
    algorithm: String,
    /// Iterations to run.
    #[arg(long, default_value_t = 1000)]
    iterations: u64,
    /// Seed of the sampling algorithms (lane `l` of iteration `i` draws from stream
    /// `(seed, l, i)`).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Report the exploitability every this many iterations (0: only at the end).
    #[arg(long, default_value_t = 0)]
    every: u64,
    /// Sampled traversals per player per iteration (MCCFR), run in parallel.
    #[arg(long, default_value_t = 1)]
    lanes: usize,
    /// Exploration of outcome sampling.
    #[arg(long, default_value_t = 0.6)]
    epsilon: f64,
    /// The largest game tree to enumerate, in nodes.
    #[arg(long, default_value_t = DEFAULT_MAX_NODES)]
    max_nodes: usize,
    /// Worker threads (default: one per core; results do not depend on it).
    #[arg(long)]
    threads: Option<usize>,
    /// Write the average policy as JSON to this file (OpenSpiel information-state
    /// strings to action probabilities).
    #[arg(long)]
    policy_out: Option<std::path::PathBuf>,
    /// Print JSON lines (one per report point, then a summary) instead of text.
    #[arg(long)]
    json: bool,
    /// Hide the progress bar.
    #[arg(long)]
    quiet: bool,
    /// Game options, `name=value` (repeatable).
    #[arg(short = 'o', long = "option", value_name = "NAME=VALUE")]
    options: Vec<String>,
}

#[derive(Serialize)]
struct PointLine {
    iteration: u64,
    exploitability: f64,
    seconds: f64,
}

#[derive(Serialize)]
struct SummaryLine<'a> {
    game: &'a str,
    algorithm: &'static str,
    iterations: u64,
    seed: u64,
    exploitability: f64,
    nash_conv: f64,
    /// The first player's expected return under the average policy.
    game_value: f64,
    values: &'a [f64],
    seconds: f64,
    seconds_per_iteration: f64,
    nodes: usize,
    infosets: usize,
}

/// Runs `cardvec solve`.
pub fn run(args: SolveArgs) -> Result<()> {
    check_count("--iterations", args.iterations)?;
    let algorithm = Algorithm::parse(&args.algorithm)?;
    registry::info(&args.game)?;
    let options = options(&args.game, &args.options, Vec::new(), "")?;
    let pairs: Vec<(String, OptionValue)> = options
        .given()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect();
    let config = SolveConfig {
        algorithm,
        iterations: args.iterations,
        seed: args.seed,
        every: args.every,
        lanes: args.lanes,
        epsilon: args.epsilon,
        max_nodes: args.max_nodes,
    };
    let pool = crate::pool(args.threads)?;
    let bar = crate::progress::Bar::new(args.quiet);
    let json = args.json;
    let mut on_point = |p: &ReportPoint| {
        bar.suspend(|| {
            if json {
                let line = PointLine {
                    iteration: p.iteration,
                    exploitability: p.exploitability,
                    seconds: p.seconds,
                };
                println!("{}", serde_json::to_string(&line).expect("serializes"));
            } else {
                println!(
                    "iteration={} exploitability={:.6e} seconds={:.3}",
                    p.iteration, p.exploitability, p.seconds
                );
            }
        })
    };
    let solution = pool.install(|| solve(&args.game, pairs, &config, &bar, &mut on_point))?;
    if let Some(path) = &args.policy_out {
        let text = solution.table.to_json(&args.game, &options.to_string());
        std::fs::write(path, text).map_err(|e| Error::Invalid {
            what: "--policy-out",
            reason: format!("cannot write {}: {e}", path.display()),
        })?;
    }
    let e = &solution.evaluation;
    let summary = SummaryLine {
        game: &args.game,
        algorithm: algorithm.name(),
        iterations: solution.iterations,
        seed: args.seed,
        exploitability: e.exploitability,
        nash_conv: e.nash_conv,
        game_value: e.values[0],
        values: &e.values,
        seconds: solution.seconds,
        seconds_per_iteration: solution.seconds / solution.iterations as f64,
        nodes: solution.nodes,
        infosets: solution.infosets,
    };
    if json {
        println!("{}", serde_json::to_string(&summary).expect("serializes"));
    } else {
        println!(
            "game={} algorithm={} iterations={} exploitability={:.6e} nash_conv={:.6e} \
             game_value={:.6} seconds={:.3} ({:.1} us/iteration) nodes={} infosets={}",
            summary.game,
            summary.algorithm,
            summary.iterations,
            summary.exploitability,
            summary.nash_conv,
            summary.game_value,
            summary.seconds,
            summary.seconds_per_iteration * 1e6,
            summary.nodes,
            summary.infosets
        );
    }
    Ok(())
}
