//! `cardvec solve`: CFR, CFR+, DCFR, PCFR+ or MCCFR on a game with a game tree, the exploitability of
//! the average policy reported along the way, the policy written as JSON on request.
//! `--time-limit` and Ctrl-C end the run early with the solution reached: the summary is
//! printed (with `stopped`) and the policy file written; the policy file's path is checked
//! for writing before the solve starts. `--save` writes the run's state when it stops
//! (whatever the reason) and `--resume` continues a saved run exactly.

use cardvec::core::spec::OptionValue;

use cardvec::core::{Error, Result};
use cardvec::registry;
use cardvec::solve::flat::DEFAULT_MAX_NODES;
use cardvec::solve::run::{solve_resumable, Algorithm, ReportPoint, SolveConfig, Stopped};
use cardvec::solve::state::RunState;
use serde::Serialize;

use crate::game_args::{check_count, options};
use crate::interrupt::{check_writable, time_limit};

/// Options of `cardvec solve`.
#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    /// The game (one with a game tree: kuhn, leduc, ...).
    game: String,
    /// The algorithm: cfr, cfr+, dcfr, pcfr+, es-mccfr or os-mccfr [default: cfr+, or the
    /// resumed run's].
    #[arg(long)]
    algorithm: Option<String>,
    /// Iterations to run (in this run: a resumed run counts on from the file's).
    #[arg(long, default_value_t = 1000)]
    iterations: u64,
    /// Seed of the sampling algorithms (lane `l` of iteration `i` draws from stream
    /// `(seed, l, i)`) [default: 0, or the resumed run's].
    #[arg(long)]
    seed: Option<u64>,
    /// Report the exploitability every this many iterations (0: only at the end).
    #[arg(long, default_value_t = 0)]
    every: u64,
    /// Sampled traversals per player per iteration (MCCFR), run in parallel [default: 1, or
    /// the resumed run's].
    #[arg(long)]
    lanes: Option<usize>,
    /// Exploration of outcome sampling [default: 0.6, or the resumed run's].
    #[arg(long)]
    epsilon: Option<f64>,
    /// Stop after this many seconds (wall time) with the solution reached: the summary and
    /// the policy file are those of the iterations done.
    #[arg(long, value_name = "SECONDS")]
    time_limit: Option<f64>,
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
    /// Write the run's state (regrets, averages, the sampled sets) to this file when the
    /// solve stops, whatever the reason (the iterations done, the time limit, Ctrl-C), to
    /// continue with `--resume`; the path is checked before the solve starts.
    #[arg(long, value_name = "FILE")]
    save: Option<std::path::PathBuf>,
    /// Continue the run saved in this file (`--save`): the game must be the file's, and the
    /// options, algorithm, seed, lanes and epsilon are the file's unless given again (then
    /// they must match); `--iterations` more are run, counting on from the file's.
    #[arg(long, value_name = "FILE")]
    resume: Option<std::path::PathBuf>,
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
    /// Iterations in all, a resumed run's included.
    iterations: u64,
    /// The iterations of the resumed file (0 without `--resume`).
    resumed_from: u64,
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
    /// Why the run ended before `--iterations`: `time-limit`, `interrupted` (Ctrl-C), or
    /// null.
    stopped: Option<&'static str>,
    /// The `--save` file written, if any.
    saved: Option<String>,
}

/// Runs `cardvec solve`.
pub fn run(args: SolveArgs) -> Result<()> {
    check_count("--iterations", args.iterations)?;
    registry::info(&args.game)?;
    let resume = args.resume.as_ref().map(RunState::load).transpose()?;
    if let Some(state) = &resume {
        if state.game() != args.game {
            return Err(Error::Invalid {
                what: "--resume",
                reason: format!(
                    "{} holds a run of {}, not of {}",
                    args.resume.as_ref().expect("given").display(),
                    state.game(),
                    args.game
                ),
            });
        }
    }
    let algorithm = match (&args.algorithm, &resume) {
        (Some(name), _) => Algorithm::parse(name)?,
        (None, Some(state)) => state.algorithm(),
        (None, None) => Algorithm::CfrPlus,
    };
    let time_limit = args.time_limit.map(time_limit).transpose()?;
    let saved_options = resume.as_ref().map_or("", |s| s.options());
    let options = options(&args.game, &args.options, Vec::new(), saved_options)?;
    if let Some(path) = &args.policy_out {
        check_writable("--policy-out", path)?;
    }
    if let Some(path) = &args.save {
        check_writable("--save", path)?;
    }
    let pairs: Vec<(String, OptionValue)> = options
        .given()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect();
    let config = SolveConfig {
        algorithm,
        iterations: args.iterations,
        seed: args.seed.or(resume.as_ref().map(|s| s.seed())).unwrap_or(0),
        every: args.every,
        lanes: args
            .lanes
            .or(resume.as_ref().map(|s| s.lanes()))
            .unwrap_or(1),
        epsilon: args
            .epsilon
            .or(resume.as_ref().map(|s| s.epsilon()))
            .unwrap_or(0.6),
        max_nodes: args.max_nodes,
        time_limit,
    };
    let pool = crate::pool(args.threads)?;
    let bar = crate::progress::Bar::new(args.quiet);
    // Ctrl-C stops the run at the next iteration; the solution reached is reported and
    // written as at the end of a full run.
    let interrupted = crate::interrupt::ctrl_c_flag()?;
    let progress = crate::progress::Interruptible {
        bar: &bar,
        stop: &interrupted,
    };
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
    let (solution, state) = pool.install(|| {
        solve_resumable(&args.game, pairs, &config, resume, &progress, &mut on_point)
    })?;
    // The state first: it is what hours of solving are worth.
    if let Some(path) = &args.save {
        state.save(path).map_err(|e| Error::Invalid {
            what: "--save",
            reason: e.to_string(),
        })?;
    }
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
        resumed_from: solution.resumed_from,
        seed: config.seed,
        exploitability: e.exploitability,
        nash_conv: e.nash_conv,
        game_value: e.values[0],
        values: &e.values,
        seconds: solution.seconds,
        seconds_per_iteration: solution.seconds
            / (solution.iterations - solution.resumed_from).max(1) as f64,
        nodes: solution.nodes,
        infosets: solution.infosets,
        stopped: solution.stopped.map(|s| s.name()),
        saved: args.save.as_ref().map(|p| p.display().to_string()),
    };
    let interrupted = solution.stopped == Some(Stopped::Interrupted);
    if json {
        println!("{}", serde_json::to_string(&summary).expect("serializes"));
    } else {
        println!(
            "game={} algorithm={} iterations={} exploitability={:.6e} nash_conv={:.6e} \
             game_value={:.6} seconds={:.3} ({:.1} us/iteration) nodes={} infosets={}{}{}{}",
            summary.game,
            summary.algorithm,
            summary.iterations,
            summary.exploitability,
            summary.nash_conv,
            summary.game_value,
            summary.seconds,
            summary.seconds_per_iteration * 1e6,
            summary.nodes,
            summary.infosets,
            summary
                .stopped
                .map_or(String::new(), |s| format!(" stopped={s}")),
            if summary.resumed_from > 0 {
                format!(" resumed_from={}", summary.resumed_from)
            } else {
                String::new()
            },
            summary
                .saved
                .as_ref()
                .map_or(String::new(), |p| format!(" saved={p}"))
        );
    }
    if interrupted {
        std::process::exit(crate::interrupt::STATUS);
    }
    Ok(())
}
