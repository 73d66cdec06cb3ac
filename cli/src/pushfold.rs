//! `cardvec pushfold`: heads-up push/fold hold'em solved by CFR+ at several stack depths,
//! on the exact preflop equity table (built in, cached or computed now). `--time-limit`
//! stops each depth with the strategies reached; Ctrl-C stops the depth under way with its
//! strategies, prints its line, writes `--out` and `--save` and exits with 130; `--save`
//! writes every depth's solver state and `--resume` continues them exactly. Output paths
//! are checked before anything is solved.

use std::path::PathBuf;
use std::time::Instant;

use cardvec::core::{Error, Result};
use cardvec::poker::preflop::{class_names, EquityTable, HandClass, CLASSES};
use cardvec::solve::pushfold::{
    check_depth, check_options, load_states, save_states, PushFoldAlgorithm, PushFoldGame,
    PushFoldOptions, PushFoldSolution, PushFoldState, PushFoldStop,
};
use serde::Serialize;

use crate::progress::Bar;

/// Where the equity table comes from.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableSource {
    /// The table shipped in the library (docs/data/preflop-equity.json), checksum verified.
    Builtin,
    /// The cached table (`$CARDVEC_CACHE` or ~/.cache/cardvec), computed and cached if absent.
    Cache,
    /// Compute it now (about 5 s of CPU), cache it and compare it with the built-in one.
    Compute,
}

/// Options of `cardvec pushfold`.
#[derive(clap::Args, Debug)]
pub struct PushFoldArgs {
    /// Stack depths in big blinds: a range of whole numbers ("1-20"), a list ("5,7.5,10")
    /// or both ("1-5,10,15") [default: 1-20, or the resumed file's depths].
    #[arg(long)]
    depths: Option<String>,
    /// Target exploitability (NashConv / 2) in big blinds per hand.
    #[arg(long, default_value_t = 1e-3)]
    target: f64,
    /// Most iterations per depth (in this run: a resumed depth counts on from the file's).
    #[arg(long, default_value_t = 1_000_000)]
    max_iterations: u64,
    /// Stop each depth after this many seconds (wall time), keeping the strategies reached
    /// (`stop` = `time-limit`).
    #[arg(long, value_name = "SECONDS")]
    time_limit: Option<f64>,
    /// The solver: cfr+, dcfr or pcfr+ [default: cfr+, or the resumed file's].
    #[arg(long)]
    algorithm: Option<String>,
    /// Write every depth's solver state (regrets, averages) to this file when the run
    /// stops, whatever the reason (the target, the iterations, the time limit, Ctrl-C), to
    /// continue with `--resume`; checked before the run starts.
    #[arg(long, value_name = "FILE")]
    save: Option<PathBuf>,
    /// Continue the depths saved in this file (`--save`) exactly where they stopped (same
    /// algorithm and equity table); depths not in the file start from scratch.
    #[arg(long, value_name = "FILE")]
    resume: Option<PathBuf>,
    /// The equity table to use.
    #[arg(long, value_enum, default_value = "builtin")]
    table: TableSource,
    /// Also write the equity table (JSON) here.
    #[arg(long)]
    table_out: Option<PathBuf>,
    /// Print one JSON object per depth instead of the text table.
    #[arg(long)]
    json: bool,
    /// Write every depth's strategies and figures as one JSON file here.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Worker threads for the table computation (default: one per core).
    #[arg(long)]
    threads: Option<usize>,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
    /// Show and write the purified charts (each class pushed / called when the average
    /// strategy does so with probability above 1/2) instead of the raw CFR+ averages,
    /// with the purified strategies' exploitability beside the average's.
    #[arg(long)]
    purify: bool,
}

/// Parses `--depths`.
fn parse_depths(text: &str) -> Result<Vec<f64>> {
    // Each reason names the part it is about (once: "0.5" alone is the whole text).
    let bad = |why: String| Error::Invalid {
        what: "--depths",
        reason: if text.contains(',') {
            format!("{text:?}: {why}")
        } else {
            why
        },
    };
    let mut out = Vec::new();
    for part in text.split(',').map(str::trim) {
        let depths: Vec<f64> =
            if let Some((lo, hi)) = part.split_once('-').filter(|(lo, _)| !lo.is_empty()) {
                let not_range = || bad(format!("{part:?} is not a range like 1-20"));
                let lo: u32 = lo.trim().parse().map_err(|_| not_range())?;
                let hi: u32 = hi.trim().parse().map_err(|_| not_range())?;
                if lo > hi || hi > 1000 {
                    return Err(not_range());
                }
                (lo..=hi).map(f64::from).collect()
            } else {
                vec![part
                    .parse()
                    .map_err(|_| bad(format!("{part:?} is not a number")))?]
            };
        for &d in &depths {
            check_depth(d).map_err(|e| bad(format!("{part:?}: {e}")))?;
        }
        out.extend(depths);
    }
    Ok(out)
}

/// One depth's record (the `--json` lines and the entries of `--out`).
#[derive(Serialize)]
struct DepthRecord {
    depth_bb: f64,
    /// Iterations in all, a resumed depth's included.
    iterations: u64,
    /// The iterations of the resumed state (0 without one).
    resumed_from: u64,
    seconds: f64,
    exploitability: f64,
    converged: bool,
    /// Why the depth stopped: `target`, `iterations`, `time-limit` or `interrupted`.
    stop: &'static str,
    sb_value: f64,
    /// Share of the 1,326 holes the small blind shoves.
    push_share: f64,
    /// Share of the 1,326 holes the big blind calls with.
    call_share: f64,
    /// Whether `push` and `call` are the purified strategies (`--purify`).
    purified: bool,
    /// With `--purify`: the exploitability of the purified strategies (big blinds per hand).
    #[serde(skip_serializing_if = "Option::is_none")]
    purified_exploitability: Option<f64>,
    push: Vec<f64>,
    call: Vec<f64>,
}

#[derive(Serialize)]
struct OutFile<'a> {
    format: &'static str,
    version: u32,
    about: &'static str,
    classes: Vec<String>,
    equity_table_checksum: String,
    target: f64,
    command: String,
    depths: &'a [DepthRecord],
}

fn share(s: &[f64; CLASSES]) -> f64 {
    HandClass::all()
        .map(|c| s[c.index()] * f64::from(c.combos()))
        .sum::<f64>()
        / 1326.0
}

fn round6(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

/// A strategy made pure: 1 where it plays the action with probability above 1/2 (the
/// rule of the charts in docs/pushfold.md and of the published charts), else 0.
fn purified(s: &[f64; CLASSES]) -> [f64; CLASSES] {
    s.map(|x| if x > 0.5 { 1.0 } else { 0.0 })
}

fn record(
    game: &PushFoldGame,
    s: &PushFoldSolution,
    seconds: f64,
    purify: bool,
) -> Result<DepthRecord> {
    let (push, call, purified_exploitability) = if purify {
        let (push, call) = (purified(&s.push), purified(&s.call));
        let e = game.exploitability(&push, &call)?;
        (push, call, Some(e))
    } else {
        (s.push, s.call, None)
    };
    Ok(DepthRecord {
        depth_bb: s.depth_bb,
        iterations: s.iterations,
        resumed_from: s.resumed_from,
        seconds: (seconds * 1e4).round() / 1e4,
        exploitability: s.exploitability,
        converged: s.converged,
        stop: s.stop.name(),
        sb_value: s.sb_value,
        push_share: share(&push),
        call_share: share(&call),
        purified: purify,
        purified_exploitability,
        push: push.iter().map(|&x| round6(x)).collect(),
        call: call.iter().map(|&x| round6(x)).collect(),
    })
}

fn get_table(args: &PushFoldArgs) -> Result<EquityTable> {
    let bar = Bar::new(args.quiet);
    let pool = crate::pool(args.threads)?;
    let started = Instant::now();
    let (table, computed) = match args.table {
        TableSource::Builtin => (EquityTable::builtin()?.clone(), false),
        TableSource::Cache => pool.install(|| EquityTable::cached_or_compute(&bar))?,
        TableSource::Compute => {
            let t = pool.install(|| EquityTable::compute(&bar))?;
            if let Some(p) = cardvec::poker::preflop::cache_path() {
                t.save(&p)?;
            }
            (t, true)
        }
    };
    if computed {
        let same = match EquityTable::builtin() {
            Ok(b) => {
                if *b == table {
                    "equal to the built-in table"
                } else {
                    "DIFFERENT from the built-in table"
                }
            }
            Err(_) => "the built-in table is missing or invalid",
        };
        eprintln!(
            "equity table computed in {:.1} s on {} threads, checksum fnv1a64:{:016x}, {same}",
            started.elapsed().as_secs_f64(),
            pool.current_num_threads(),
            table.checksum()
        );
    }
    if let Some(p) = &args.table_out {
        table.save(p)?;
    }
    Ok(table)
}

/// Runs `cardvec pushfold`.
pub fn run(args: PushFoldArgs) -> Result<()> {
    // Everything is checked before the table step and the solves: the options, the
    // resumed file, the output paths.
    let mut resumed = match &args.resume {
        Some(path) => load_states(path).map_err(|e| Error::Invalid {
            what: "--resume",
            reason: e.to_string(),
        })?,
        None => Vec::new(),
    };
    let depths = match (&args.depths, &args.resume) {
        (Some(text), _) => parse_depths(text)?,
        (None, Some(_)) => resumed.iter().map(|s| s.depth_bb()).collect(),
        (None, None) => parse_depths("1-20")?,
    };
    let algorithm = match (&args.algorithm, resumed.first()) {
        (Some(name), _) => PushFoldAlgorithm::parse(name)?,
        (None, Some(s)) => s.algorithm(),
        (None, None) => PushFoldAlgorithm::CfrPlus,
    };
    if let Some(s) = resumed.iter().find(|s| s.algorithm() != algorithm) {
        return Err(Error::Invalid {
            what: "--resume",
            reason: format!(
                "depth {} in {} was solved with {}, not {}: a resumed solve keeps its algorithm",
                s.depth_bb(),
                args.resume.as_ref().expect("given").display(),
                s.algorithm().name(),
                algorithm.name()
            ),
        });
    }
    let options = PushFoldOptions {
        target: args.target,
        max_iterations: args.max_iterations,
        algorithm,
        time_limit: args
            .time_limit
            .map(crate::interrupt::time_limit)
            .transpose()?
            .map(|d| d.as_secs_f64()),
    };
    check_options(&options)?;
    // `--out`'s folder is created if need be.
    if let Some(dir) = args
        .out
        .as_ref()
        .and_then(|p| p.parent())
        .filter(|d| !d.as_os_str().is_empty())
    {
        std::fs::create_dir_all(dir).map_err(|e| Error::Invalid {
            what: "--out",
            reason: format!("cannot create {}: {e}", dir.display()),
        })?;
    }
    for (what, path) in [
        ("--out", &args.out),
        ("--save", &args.save),
        ("--table-out", &args.table_out),
    ] {
        if let Some(path) = path {
            crate::interrupt::check_writable(what, path)?;
        }
    }
    let table = get_table(&args)?;
    // Ctrl-C stops the depth under way after its iteration: its line is printed, `--out`
    // and `--save` written as at the end of a full run, then the status is 130.
    let interrupted = crate::interrupt::ctrl_c_flag()?;
    let bar = Bar::new(args.quiet || args.json);
    use cardvec::core::progress::Progress;
    bar.start(depths.len() as u64, "depths");
    let mut records = Vec::new();
    if !args.json {
        bar.suspend(|| {
            println!(
                "{:>6} {:>10} {:>9} {:>14} {:>10} {:>7} {:>7}{}",
                "depth",
                "iterations",
                "seconds",
                "exploitability",
                "sb value",
                "push %",
                "call %",
                if args.purify {
                    "  purified exploitability (push % and call % purified)"
                } else {
                    ""
                }
            )
        });
    }
    // The states to save: those of the depths solved now, then the resumed file's others.
    let mut states: Vec<PushFoldState> = Vec::new();
    let mut stopped = false;
    for &d in &depths {
        let started = Instant::now();
        let game = PushFoldGame::new(d, &table)?;
        let found = resumed
            .iter()
            .position(|s| s.depth_bb().to_bits() == d.to_bits());
        let mut state = match found {
            Some(i) => resumed.remove(i),
            None => game.start(algorithm),
        };
        let s = game
            .solve_from(&mut state, &options, &*interrupted)
            .map_err(|e| match found {
                // A resumed state of another equity table (`--table`).
                Some(_) => Error::Invalid {
                    what: "--resume",
                    reason: e.to_string(),
                },
                None => e,
            })?;
        states.push(state);
        let r = record(&game, &s, started.elapsed().as_secs_f64(), args.purify)?;
        bar.suspend(|| {
            if args.json {
                println!("{}", serde_json::to_string(&r).unwrap_or_default());
            } else {
                println!(
                    "{:>6} {:>10} {:>9.3} {:>14.3e} {:>10.5} {:>7.2} {:>7.2}{}{}",
                    d,
                    r.iterations,
                    r.seconds,
                    r.exploitability,
                    r.sb_value,
                    100.0 * r.push_share,
                    100.0 * r.call_share,
                    r.purified_exploitability
                        .map_or_else(String::new, |e| format!("  {e:>12.3e}")),
                    match s.stop {
                        PushFoldStop::TimeLimit | PushFoldStop::Interrupted =>
                            format!("  (stopped: {})", r.stop),
                        _ => String::new(),
                    }
                )
            }
        });
        bar.advance(1);
        records.push(r);
        if s.stop == PushFoldStop::Interrupted {
            stopped = true;
            break;
        }
    }
    bar.finish();
    // The state first: it is what the solving is worth.
    if let Some(path) = &args.save {
        states.append(&mut resumed);
        let bytes = save_states(path, &states).map_err(|e| Error::Invalid {
            what: "--save",
            reason: e.to_string(),
        })?;
        eprintln!(
            "saved {} depths to {} ({bytes} bytes)",
            states.len(),
            path.display()
        );
    }
    if let Some(path) = &args.out {
        let file = OutFile {
            format: "cardvec-pushfold",
            version: 1,
            about: "heads-up push/fold no-limit hold'em equilibria (CFR+ average strategies) per stack depth in big blinds: \
                    push[i] = small blind's shove probability, call[i] = big blind's call probability for class classes[i] \
                    (purified = true: 1 where the average is above 1/2, else 0, with purified_exploitability); \
                    exploitability = NashConv/2 in big blinds per hand; sb_value = small blind's expected result in big blinds per hand; \
                    seconds = solve time on the machine that wrote the file; stop = why the depth stopped",
            classes: class_names(),
            equity_table_checksum: format!("fnv1a64:{:016x}", table.checksum()),
            target: args.target,
            command: std::env::args().collect::<Vec<_>>().join(" "),
            depths: &records,
        };
        let text = serde_json::to_string(&file).map_err(|e| Error::Invalid {
            what: "--out",
            reason: e.to_string(),
        })?;
        std::fs::write(path, text + "\n").map_err(|e| Error::Invalid {
            what: "--out",
            reason: format!("cannot write {}: {e}", path.display()),
        })?;
    }
    if stopped {
        std::process::exit(crate::interrupt::STATUS);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depths_parse_and_refuse_bad_text() {
        assert_eq!(parse_depths("1-3,7.5").unwrap(), vec![1.0, 2.0, 3.0, 7.5]);
        assert_eq!(parse_depths("10").unwrap(), vec![10.0]);
        for bad in ["", "0.5", "3-1", "a", "1-x", "nan", "-2"] {
            let e = parse_depths(bad).unwrap_err().to_string();
            assert!(e.contains(bad), "{bad:?}: {e}");
        }
    }
}
