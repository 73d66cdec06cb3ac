//! `cardvec spot solve`: a postflop hold'em spot solved range against range
//! (`cardvec::solve::spot`, `docs/spot.md`), saved and resumed (Ctrl-C stops it with the
//! strategy reached, its summary printed and `--save` written); `cardvec spot show`: a
//! saved spot read at any node; `cardvec spot batch`: a file of spots, one per
//! line, solved in parallel (one spot per worker) into a file of results, resumable.

use std::collections::BTreeSet;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

use cardvec::core::{Error, Result};
use cardvec::solve::spot::{
    Aggregate, Algorithm, NodeKind, NodeLock, PlayerReport, SizeSpecs, SolveOptions, Spot,
    SpotSolver, TreeConfig, DEFAULT_ADD_ALLIN_THRESHOLD, DEFAULT_FORCE_ALLIN_THRESHOLD,
    DEFAULT_RAISE_CAP,
};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// `cardvec spot <command>`.
#[derive(clap::Args, Debug)]
pub struct SpotArgs {
    #[command(subcommand)]
    command: SpotCommand,
}

#[derive(clap::Subcommand, Debug)]
enum SpotCommand {
    /// Solves a spot and reports its exploitability, EVs and equities.
    Solve(Box<SolveArgs>),
    /// Reads a saved spot at any node: each hand's strategy, EV and equity, the same by
    /// class and category, the range weights reaching it; or a subtree as JSON.
    Show(ShowArgs),
    /// Solves a JSON-lines file of spots (one per line) into a JSON-lines file of results
    /// with every root action's EV for every hand; finished lines are skipped on a rerun.
    Batch(BatchArgs),
}

/// Options of `cardvec spot solve`.
#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    /// The board: 3, 4 or 5 cards (`Td9d6hQc`).
    #[arg(long, required_unless_present = "resume", conflicts_with = "resume")]
    board: Option<String>,
    /// The starting pot in chips.
    #[arg(long, required_unless_present = "resume", conflicts_with = "resume")]
    pot: Option<u64>,
    /// The effective stack behind in chips.
    #[arg(long, required_unless_present = "resume", conflicts_with = "resume")]
    stack: Option<u64>,
    /// OOP's range (`66+,AJo+`, weights `AKs:0.5`, or `15%`).
    #[arg(long, required_unless_present = "resume", conflicts_with = "resume")]
    oop_range: Option<String>,
    /// IP's range.
    #[arg(long, required_unless_present = "resume", conflicts_with = "resume")]
    ip_range: Option<String>,
    /// Bet sizes, both players: a list for every street (`60%,e,a`), or per street
    /// (`flop:33%,75%;turn:60%;river:75%,a`; a street not named has none).
    #[arg(long, default_value = "60%,a", conflicts_with = "resume")]
    bets: String,
    /// Raise sizes, both players (`2.5x`, `100%`, `a`; per street as for --bets).
    #[arg(long, default_value = "2.5x", conflicts_with = "resume")]
    raises: String,
    /// OOP's bet sizes instead of --bets (a list, or per street: streets not named keep
    /// --bets).
    #[arg(long, value_name = "SIZES", conflicts_with = "resume")]
    oop_bets: Option<String>,
    /// IP's bet sizes instead of --bets (as --oop-bets).
    #[arg(long, value_name = "SIZES", conflicts_with = "resume")]
    ip_bets: Option<String>,
    /// OOP's raise sizes instead of --raises (as --oop-bets).
    #[arg(long, value_name = "SIZES", conflicts_with = "resume")]
    oop_raises: Option<String>,
    /// IP's raise sizes instead of --raises (as --oop-bets).
    #[arg(long, value_name = "SIZES", conflicts_with = "resume")]
    ip_raises: Option<String>,
    /// OOP's donk sizes: its bets when it leads on the turn or river into IP, the last to
    /// bet or raise on the previous street (`50%`, or `turn:50%;river:33%,75%`; `turn:`
    /// alone: no donk bet on the turn). Without it OOP leads with its bets.
    #[arg(long, value_name = "SIZES", conflicts_with = "resume")]
    donk: Option<String>,
    /// Most raises per street.
    #[arg(long, default_value_t = DEFAULT_RAISE_CAP, conflicts_with = "resume")]
    raise_cap: u32,
    /// All-in added when at most this times the pot after a call.
    #[arg(long, default_value_t = DEFAULT_ADD_ALLIN_THRESHOLD, conflicts_with = "resume")]
    add_allin: f64,
    /// A size leaving less than this times the pot behind becomes all-in.
    #[arg(long, default_value_t = DEFAULT_FORCE_ALLIN_THRESHOLD, conflicts_with = "resume")]
    force_allin: f64,
    /// Stop at this exploitability, in % of the starting pot [default: 0.5, or the
    /// resumed file's].
    #[arg(long)]
    target: Option<f64>,
    /// Most iterations in this run [default: 1000, or the resumed file's].
    #[arg(long)]
    iterations: Option<u64>,
    /// Stop after this many seconds, keeping the strategy reached [default: none, or the
    /// resumed file's].
    #[arg(long)]
    time_limit: Option<f64>,
    /// Compute the exploitability every this many iterations [default: 10, or the resumed
    /// file's].
    #[arg(long)]
    check_every: Option<u64>,
    /// Worker threads (default: one per core; results do not depend on it).
    #[arg(long)]
    threads: Option<usize>,
    /// dcfr, cfr+ or pcfr+ [default: dcfr; a resumed file keeps its own].
    #[arg(long)]
    algorithm: Option<String>,
    /// Print the tree's size and the memory the solve needs, and stop.
    #[arg(long)]
    dry_run: bool,
    /// 16-bit storage: regrets and strategy sums as 16-bit integers with a scale per node
    /// (about half the memory) [default: f32; a resumed file keeps its own].
    #[arg(long)]
    compress: bool,
    /// Solve every turn and river card, without suit isomorphism (by default a card of a
    /// suit interchangeable with another on the board and both ranges is solved through
    /// its twin) [a resumed file keeps its own unless given].
    #[arg(long)]
    no_isomorphism: bool,
    /// Refuse a spot needing more memory than this (`4GB`, `512MB`, bytes) [default: 4GB,
    /// or the resumed file's].
    #[arg(long)]
    max_memory: Option<String>,
    /// Save the solved spot to this file when the solve stops, Ctrl-C included
    /// (`docs/spot.md`, "Spot files"; checked before the solve starts).
    #[arg(long)]
    save: Option<PathBuf>,
    /// Continue solving a spot file (saved by `--save`): its spot, tree and algorithm, its
    /// stopping options unless given here; the iterations count on from the file's.
    #[arg(long)]
    resume: Option<PathBuf>,
    /// JSON lines (one per check, then the summary) instead of text.
    #[arg(long)]
    json: bool,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
    /// Locks a node: `[oop:|ip:]LINE=ACTION:FREQ,...[@HANDS]` (repeatable), such as
    /// `check,bet:75%=call:1` or `bet:120=fold:0.3,call:0.7@QQ-99,AKo`; `*` in the line
    /// stands for every dealt card (docs/spot.md, "Node locking"). With `--resume`, these
    /// replace the file's locks.
    #[arg(long = "lock", value_name = "LOCK")]
    locks: Vec<String>,
    /// With `--resume`: drop the file's locks and solve on unlocked.
    #[arg(long, requires = "resume", conflicts_with = "locks")]
    unlock: bool,
}

/// Parses `--lock` texts (or a batch line's `locks`).
fn parse_locks(texts: &[String]) -> Result<Vec<NodeLock>> {
    texts.iter().map(|t| NodeLock::parse(t)).collect()
}

/// Parses a memory size: a number of bytes, or with `KB`, `MB`, `GB` (powers of 1,000) or
/// `KiB`, `MiB`, `GiB` (powers of 1,024).
pub(crate) fn parse_memory(text: &str) -> Result<u64> {
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
    /// `f32` or `16-bit`.
    storage: &'static str,
    /// Whether training used suit isomorphism, and the tree's mirror nodes.
    isomorphism: bool,
    mirrors: u64,
    iterations: u64,
    seconds: f64,
    exploitability: f64,
    exploitability_pct: f64,
    stop: cardvec::solve::spot::StopReason,
    root_ev: [f64; 2],
    root_equity: [f64; 2],
    /// The locks in force (their text form), and how many decision nodes they lock.
    locks: Vec<String>,
    locked_nodes: usize,
    /// The file written by `--save`, and its size.
    #[serde(skip_serializing_if = "Option::is_none")]
    saved: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    file_bytes: Option<u64>,
}

/// Runs `cardvec spot`.
pub fn run(args: SpotArgs) -> Result<()> {
    match args.command {
        SpotCommand::Solve(a) => solve(*a),
        SpotCommand::Show(a) => show(a),
        SpotCommand::Batch(a) => batch(a),
    }
}

fn solve(a: SolveArgs) -> Result<()> {
    let mut loaded = None;
    let mut fresh_locks = None;
    let (spot, options) = if let Some(path) = &a.resume {
        let (solver, saved) = SpotSolver::load(path)?;
        if let Some(name) = &a.algorithm {
            let asked = Algorithm::parse(name)?;
            if asked != saved.algorithm {
                return Err(Error::Invalid {
                    what: "--algorithm",
                    reason: format!(
                        "{} was solved with {}: a resumed solve keeps its algorithm",
                        path.display(),
                        saved.algorithm.name()
                    ),
                });
            }
        }
        if a.compress && !saved.compress {
            return Err(Error::Invalid {
                what: "--compress",
                reason: format!(
                    "{} was solved with f32 storage: a resumed solve keeps its storage",
                    path.display()
                ),
            });
        }
        let options = SolveOptions {
            target_pct: a.target.unwrap_or(saved.target_pct),
            max_iterations: a.iterations.unwrap_or(saved.max_iterations),
            time_limit: a.time_limit.or(saved.time_limit),
            check_every: a.check_every.unwrap_or(saved.check_every),
            max_memory: match &a.max_memory {
                Some(m) => parse_memory(m)?,
                None => saved.max_memory,
            },
            isomorphism: saved.isomorphism && !a.no_isomorphism,
            ..saved
        };
        let spot = solver.spot().clone();
        loaded = Some(solver);
        (spot, options)
    } else {
        // The flags as a batch line: one path builds and checks the tree, the options and
        // the locks (the flags clap requires without --resume are there).
        let (spot, options, locks) = SpotParams::from_flags(&a).prepare()?;
        fresh_locks = Some(locks);
        (spot, options)
    };
    options.check()?;
    if let Some(path) = &a.save {
        crate::interrupt::check_writable("--save", path)?;
    }
    let pool = crate::pool(a.threads)?;
    let board: String = spot.board().iter().map(|c| c.to_string()).collect();
    // The locks: `--lock`, else a resumed file's own (unless `--unlock`). Bad locks are
    // refused before the solve (and in a dry run).
    let locks = match (&loaded, fresh_locks) {
        (Some(s), _) if a.locks.is_empty() && !a.unlock => s.locks().to_vec(),
        (_, Some(locks)) => locks,
        _ => parse_locks(&a.locks)?,
    };
    let (spot_tree, memory) = SpotSolver::plan(&spot, &options)?;
    spot_tree.check_locks(&spot, &locks)?;
    drop(spot_tree);
    if a.dry_run || !a.json {
        let line = serde_json::json!({
            "dry_run": a.dry_run,
            "hands": [spot.hands(0).len(), spot.hands(1).len()],
            "memory": memory,
            "memory_bytes": memory.total_bytes,
            "storage": if options.compress { "16-bit" } else { "f32" },
            "max_memory": options.max_memory,
            "fits": memory.total_bytes <= options.max_memory,
        });
        if a.json {
            println!("{line}");
        } else {
            println!(
                "spot {}: {} + {} hands, {} nodes ({} decision, {} chance, {} terminal), \
                 {} slots, needs {} bytes ({:.1} MB; limit {} bytes)",
                board,
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
            if let Some(s) = &loaded {
                println!(
                    "resuming {} after {} iterations of {}",
                    a.resume
                        .as_ref()
                        .map(|p| p.display().to_string())
                        .unwrap_or_default(),
                    s.iterations(),
                    s.algorithm().name()
                );
            }
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
    let start_iterations = loaded.as_ref().map_or(0, |s| s.iterations());
    // Ctrl-C stops the solve after the iteration under way (`stop` = `interrupted`): the
    // summary is printed and `--save` written as at any other stop, then the status is 130.
    let interrupted = crate::interrupt::ctrl_c_flag()?;
    let (result, saved) = pool.install(|| -> Result<_> {
        let mut solver = match loaded {
            Some(s) => s,
            None => SpotSolver::new(&spot, &options)?,
        };
        solver.set_locks(&locks)?;
        let locked = solver.locked_nodes().len();
        let sol = solver.solve_with_stop(&options, &interrupted, &mut |p| {
            bar.set_position(p.iterations - start_iterations);
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
        let saved = match &a.save {
            Some(path) => Some((path.display().to_string(), solver.save(path, &options)?)),
            None => None,
        };
        Ok(((sol, locked), saved))
    })?;
    let (result, locked_nodes) = result;
    bar.finish_and_clear();
    let summary = Summary {
        board,
        pot: spot.pot(),
        stack: spot.stack(),
        algorithm: result.algorithm,
        threads: pool.current_num_threads(),
        hands: [spot.hands(0).len(), spot.hands(1).len()],
        nodes: result.memory.nodes,
        memory_bytes: result.memory.total_bytes,
        storage: if options.compress { "16-bit" } else { "f32" },
        isomorphism: result.isomorphism,
        mirrors: result.memory.mirrors,
        iterations: result.iterations,
        seconds: result.seconds,
        exploitability: result.exploitability,
        exploitability_pct: result.exploitability_pct,
        stop: result.stop,
        root_ev: result.root_ev,
        root_equity: result.root_equity,
        locks: locks.iter().map(|l| l.to_string()).collect(),
        locked_nodes,
        saved: saved.as_ref().map(|s| s.0.clone()),
        file_bytes: saved.as_ref().map(|s| s.1),
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
        if !summary.locks.is_empty() {
            println!(
                "{} locks on {} nodes (the exploitability is the locked game's)",
                summary.locks.len(),
                summary.locked_nodes
            );
        }
        if let (Some(path), Some(bytes)) = (&summary.saved, summary.file_bytes) {
            println!("saved to {path} ({bytes} bytes)");
        }
    }
    if summary.stop == cardvec::solve::spot::StopReason::Interrupted {
        std::process::exit(crate::interrupt::STATUS);
    }
    Ok(())
}

/// Options of `cardvec spot show`.
#[derive(clap::Args, Debug)]
pub struct ShowArgs {
    /// A spot file (`cardvec spot solve --save`).
    file: PathBuf,
    /// The node's line of actions from the root, comma separated (`check,bet:75%,call`,
    /// `bet:120`, `raise:2.5x`, `allin`, cards such as `Kh` at chance nodes; empty: the
    /// root).
    #[arg(long, default_value = "")]
    line: String,
    /// Cards dealt at the chance nodes the line reaches without one, in order (`Kh`,
    /// `Kh,7d`).
    #[arg(long)]
    cards: Option<String>,
    /// Whose hands to show: oop, ip or both.
    #[arg(long, default_value = "both")]
    player: String,
    /// Also list every hand (text output; the JSON always has them).
    #[arg(long)]
    hands: bool,
    /// Export the subtree below the node as JSON (each decision node's actions and every
    /// hand's strategy) instead of the node's report.
    #[arg(long)]
    subtree: bool,
    /// With --subtree: levels below the node (default: all).
    #[arg(long)]
    depth: Option<usize>,
    /// JSON instead of text.
    #[arg(long)]
    json: bool,
}

/// The extra cards of a node's line (`Kh`, `Kh,7d`, `Kh 7d`; empty: none).
pub(crate) fn parse_card_list(text: &str) -> Result<Vec<cardvec::poker::Card>> {
    let text = text.replace(',', " ");
    if text.trim().is_empty() {
        return Ok(Vec::new());
    }
    cardvec::poker::parse_cards(&text)
}

/// The word of a node's kind: `decision`, `chance`, `fold` or `showdown`.
fn kind_word(kind: NodeKind) -> &'static str {
    match kind {
        NodeKind::Decision(_) => "decision",
        NodeKind::Chance => "chance",
        NodeKind::Fold(_) => "fold",
        NodeKind::Showdown => "showdown",
    }
}

/// A node report as the JSON of `cardvec spot show --json` (and of `cardvec serve`'s node
/// query): the node, its actions or cards, and `players` (0 OOP, 1 IP) with each hand's
/// figures and the class and category aggregates.
pub(crate) fn report_json(
    solver: &SpotSolver,
    r: &cardvec::solve::spot::NodeReport,
    players: &[usize],
) -> serde_json::Value {
    let board: String = r.board.iter().map(|c| c.to_string()).collect();
    serde_json::json!({
        "line": r.line.join(","),
        "node": r.node,
        "kind": kind_word(r.kind),
        "street": r.street,
        "board": board,
        "pot": r.pot,
        "spent": r.spent,
        "player": r.player,
        "actions": r.actions,
        "cards": r.cards.iter().map(|c| c.to_string()).collect::<Vec<_>>(),
        "iterations": solver.iterations(),
        "algorithm": solver.algorithm().name(),
        "players": players
            .iter()
            .map(|&p| player_json(p, &r.players[p], &r.board))
            .collect::<Vec<_>>(),
    })
}

fn player_json(p: usize, r: &PlayerReport, board: &[cardvec::poker::Card]) -> serde_json::Value {
    let n = r.hands.len().max(1);
    let classes: Vec<serde_json::Value> = r
        .by_class()
        .into_iter()
        .map(|(c, a)| {
            let mut v = serde_json::json!(a);
            v["row"] = serde_json::json!(c.row());
            v["col"] = serde_json::json!(c.col());
            v
        })
        .collect();
    serde_json::json!({
        "player": p,
        "hands": r.hands.iter().map(|h| h.to_string()).collect::<Vec<_>>(),
        "reach": r.reach,
        "weight": r.weight,
        "ev": r.ev,
        "equity": r.equity,
        "strategy": r.strategy.as_ref().map(|s| s.chunks(n).map(|c| c.to_vec()).collect::<Vec<_>>()),
        "action_ev": r.action_ev.as_ref().map(|s| s.chunks(n).map(|c| c.to_vec()).collect::<Vec<_>>()),
        "classes": classes,
        "categories": r.by_category(board),
    })
}

fn fmt_num(x: f64, digits: usize) -> String {
    if x.is_finite() {
        format!("{x:.digits$}")
    } else {
        "-".into()
    }
}

fn print_aggregates(title: &str, rows: &[Aggregate], actions: &[String]) {
    let mut head = format!(
        "  {title:<16} {:>6} {:>9} {:>9} {:>7}",
        "hands", "combos", "ev", "equity"
    );
    for a in actions {
        head.push_str(&format!(" {a:>12}"));
    }
    println!("{head}");
    for r in rows {
        let mut line = format!(
            "  {:<16} {:>6} {:>9.3} {:>9} {:>7}",
            r.name,
            r.hands,
            r.combos,
            fmt_num(r.ev, 2),
            fmt_num(r.equity, 4)
        );
        for s in &r.strategy {
            line.push_str(&format!(" {:>12}", fmt_num(*s, 4)));
        }
        println!("{line}");
    }
}

fn show(a: ShowArgs) -> Result<()> {
    let players: Vec<usize> = match a.player.trim().to_ascii_lowercase().as_str() {
        "oop" | "0" => vec![0],
        "ip" | "1" => vec![1],
        "both" => vec![0, 1],
        _ => {
            return Err(Error::Unknown {
                what: "--player",
                name: a.player.clone(),
                expected: "oop, ip, both".into(),
            })
        }
    };
    let cards = parse_card_list(a.cards.as_deref().unwrap_or(""))?;
    let (mut solver, _) = SpotSolver::load(&a.file)?;
    if a.subtree {
        let v = solver.subtree_json(&a.line, &cards, a.depth)?;
        println!("{}", serde_json::to_string(&v).expect("plain data"));
        return Ok(());
    }
    let r = solver.node_report(&a.line, &cards)?;
    if a.json {
        let v = report_json(&solver, &r, &players);
        println!("{}", serde_json::to_string(&v).expect("plain data"));
        return Ok(());
    }
    let board: String = r.board.iter().map(|c| c.to_string()).collect();
    let kind = kind_word(r.kind);
    let street = ["flop", "turn", "river"][r.street as usize];
    let line = if r.line.is_empty() {
        "root".to_string()
    } else {
        r.line.join(",")
    };
    let who = match r.player {
        Some(p) => format!("{} to act", ["OOP", "IP"][p]),
        None => kind.to_string(),
    };
    println!(
        "{line}: {street}, board {board}, pot {}, spent {}/{}; {who} ({} iterations of {})",
        r.pot,
        r.spent[0],
        r.spent[1],
        solver.iterations(),
        solver.algorithm().name()
    );
    let labels: Vec<String> = r
        .actions
        .iter()
        .map(|x| match x.pct {
            Some(p) if x.all_in => format!("{} ({p:.0}%, all-in)", x.word),
            Some(p) => format!("{} ({p:.0}%)", x.word),
            None => x.word.clone(),
        })
        .collect();
    if !labels.is_empty() {
        println!("actions: {}", labels.join(", "));
    }
    if !r.cards.is_empty() {
        println!(
            "cards that can come: {}",
            r.cards
                .iter()
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        );
    }
    let words: Vec<String> = r.actions.iter().map(|x| x.word.clone()).collect();
    for &p in &players {
        let pr = &r.players[p];
        let weight: f64 = pr.weight.iter().sum();
        let total = |v: &[f64]| -> f64 {
            pr.weight
                .iter()
                .zip(v)
                .filter(|(w, _)| **w > 0.0)
                .map(|(w, x)| w * x)
                .sum::<f64>()
                / weight
        };
        let combos: f64 = pr.reach.iter().map(|&x| x as f64).sum();
        println!(
            "\n{}: {} hands, {combos:.3} combos reaching, EV {}, equity {}",
            ["OOP", "IP"][p],
            pr.hands.len(),
            fmt_num(total(&pr.ev), 3),
            fmt_num(total(&pr.equity), 4)
        );
        let acts: &[String] = if pr.strategy.is_some() { &words } else { &[] };
        print_aggregates("category", &pr.by_category(&r.board), acts);
        let classes: Vec<Aggregate> = pr.by_class().into_iter().map(|(_, x)| x).collect();
        print_aggregates("class", &classes, acts);
        if a.hands {
            let n = pr.hands.len();
            let rows: Vec<Aggregate> = (0..n)
                .map(|i| Aggregate {
                    name: pr.hands[i].to_string(),
                    hands: 1,
                    combos: pr.reach[i] as f64,
                    weight: pr.weight[i],
                    ev: pr.ev[i],
                    equity: pr.equity[i],
                    strategy: pr
                        .strategy
                        .as_ref()
                        .map(|s| (0..acts.len()).map(|k| s[k * n + i] as f64).collect())
                        .unwrap_or_default(),
                })
                .collect();
            print_aggregates("hand", &rows, acts);
        }
    }
    Ok(())
}

/// Options of `cardvec spot batch`.
#[derive(clap::Args, Debug)]
pub struct BatchArgs {
    /// The spots: one JSON object per line (`docs/spot.md`, "Many spots").
    spots: PathBuf,
    /// The results, one JSON line per spot, appended (lines already there are skipped).
    #[arg(long)]
    out: PathBuf,
    /// Worker threads: one spot per worker (default: one per core; results do not depend
    /// on it).
    #[arg(long)]
    threads: Option<usize>,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

/// A spot and how to solve it, as JSON (the defaults of `spot solve`): a line of a batch
/// file, and the body of `cardvec serve`'s `POST /api/spot`.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub(crate) struct SpotParams {
    /// Any JSON value, copied to the result (a label for the spot).
    #[serde(default)]
    id: serde_json::Value,
    board: String,
    pot: u64,
    stack: u64,
    oop_range: String,
    ip_range: String,
    #[serde(default = "default_bets")]
    bets: String,
    #[serde(default = "default_raises")]
    raises: String,
    /// Per-player sizes and donk sizes, as `--oop-bets` ... `--donk`.
    #[serde(default)]
    oop_bets: Option<String>,
    #[serde(default)]
    ip_bets: Option<String>,
    #[serde(default)]
    oop_raises: Option<String>,
    #[serde(default)]
    ip_raises: Option<String>,
    #[serde(default)]
    donk: Option<String>,
    #[serde(default = "default_raise_cap")]
    raise_cap: u32,
    #[serde(default = "default_add_allin")]
    add_allin: f64,
    #[serde(default = "default_force_allin")]
    force_allin: f64,
    #[serde(default = "default_target")]
    target: f64,
    #[serde(default = "default_iterations")]
    iterations: u64,
    #[serde(default)]
    time_limit: Option<f64>,
    #[serde(default = "default_check_every")]
    check_every: u64,
    #[serde(default = "default_algorithm")]
    algorithm: String,
    #[serde(default = "default_max_memory")]
    max_memory: String,
    /// Node locks in the text form of `--lock`.
    #[serde(default)]
    locks: Vec<String>,
    /// 16-bit storage (`--compress`).
    #[serde(default)]
    compress: bool,
    /// Suit isomorphism (`--no-isomorphism` turns it off).
    #[serde(default = "default_isomorphism")]
    isomorphism: bool,
}

fn default_isomorphism() -> bool {
    true
}

fn default_bets() -> String {
    "60%,a".into()
}
fn default_raises() -> String {
    "2.5x".into()
}
fn default_raise_cap() -> u32 {
    DEFAULT_RAISE_CAP
}
fn default_add_allin() -> f64 {
    DEFAULT_ADD_ALLIN_THRESHOLD
}
fn default_force_allin() -> f64 {
    DEFAULT_FORCE_ALLIN_THRESHOLD
}
fn default_target() -> f64 {
    0.5
}
fn default_iterations() -> u64 {
    1000
}
fn default_check_every() -> u64 {
    10
}
fn default_algorithm() -> String {
    "dcfr".into()
}
fn default_max_memory() -> String {
    "4GB".into()
}

/// The root of a solved spot: who acts, its actions, and for each of its hands the average
/// strategy and every action's EV.
#[derive(Serialize)]
struct RootLine {
    player: usize,
    actions: Vec<String>,
    hands: Vec<String>,
    /// `strategy[action][hand]`.
    strategy: Vec<Vec<f32>>,
    /// `action_ev[action][hand]`, chips (null where no opponent hand can be dealt).
    action_ev: Vec<Vec<Option<f64>>>,
}

/// An I/O error on `path`, naming it.
fn io_error(path: &std::path::Path, e: std::io::Error) -> Error {
    Error::Invalid {
        what: "file",
        reason: format!("{}: {e}", path.display()),
    }
}

impl SpotParams {
    /// The spot of `cardvec spot solve`'s flags (without `--resume`: clap has required
    /// the board, pot, stack and ranges; a flag absent stands as empty and is refused by
    /// [`SpotParams::prepare`]).
    fn from_flags(a: &SolveArgs) -> SpotParams {
        SpotParams {
            id: serde_json::Value::Null,
            board: a.board.clone().unwrap_or_default(),
            pot: a.pot.unwrap_or_default(),
            stack: a.stack.unwrap_or_default(),
            oop_range: a.oop_range.clone().unwrap_or_default(),
            ip_range: a.ip_range.clone().unwrap_or_default(),
            bets: a.bets.clone(),
            raises: a.raises.clone(),
            oop_bets: a.oop_bets.clone(),
            ip_bets: a.ip_bets.clone(),
            oop_raises: a.oop_raises.clone(),
            ip_raises: a.ip_raises.clone(),
            donk: a.donk.clone(),
            raise_cap: a.raise_cap,
            add_allin: a.add_allin,
            force_allin: a.force_allin,
            target: a.target.unwrap_or_else(default_target),
            iterations: a.iterations.unwrap_or_else(default_iterations),
            time_limit: a.time_limit,
            check_every: a.check_every.unwrap_or_else(default_check_every),
            algorithm: a.algorithm.clone().unwrap_or_else(default_algorithm),
            max_memory: a.max_memory.clone().unwrap_or_else(default_max_memory),
            locks: a.locks.clone(),
            compress: a.compress,
            isomorphism: !a.no_isomorphism,
        }
    }

    /// The spot, the solve options and the locks, each checked (the locks against the
    /// spot's tree only once a solver is built).
    pub(crate) fn prepare(&self) -> Result<(Spot, SolveOptions, Vec<NodeLock>)> {
        let mut tree = TreeConfig::from_specs(&SizeSpecs {
            bets: &self.bets,
            raises: &self.raises,
            oop_bets: self.oop_bets.as_deref(),
            ip_bets: self.ip_bets.as_deref(),
            oop_raises: self.oop_raises.as_deref(),
            ip_raises: self.ip_raises.as_deref(),
            donk: self.donk.as_deref(),
        })?;
        tree.raise_cap = self.raise_cap;
        tree.add_allin_threshold = self.add_allin;
        tree.force_allin_threshold = self.force_allin;
        let options = SolveOptions {
            algorithm: Algorithm::parse(&self.algorithm)?,
            target_pct: self.target,
            max_iterations: self.iterations,
            time_limit: self.time_limit,
            check_every: self.check_every,
            max_memory: parse_memory(&self.max_memory)?,
            compress: self.compress,
            isomorphism: self.isomorphism,
            ..SolveOptions::default()
        };
        options.check()?;
        let spot = Spot::parse(
            &self.board,
            self.pot,
            self.stack,
            &self.oop_range,
            &self.ip_range,
            tree,
        )?;
        let locks = parse_locks(&self.locks)?;
        Ok((spot, options, locks))
    }
}

/// Solves one batch spot alone (single-threaded inside; the batch runs spots in parallel).
fn solve_one(b: &SpotParams) -> Result<serde_json::Value> {
    let (spot, options, locks) = b.prepare()?;
    let mut solver = SpotSolver::new(&spot, &options)?;
    solver.set_locks(&locks)?;
    let sol = solver.solve(&options, &mut |_| true)?;
    let root = solver.root_action_evs().map(|(player, evs)| {
        let kids = solver.tree().children(0).to_vec();
        let n = spot.hands(player).len();
        let strategy = solver.average_strategy(0).unwrap_or_default();
        RootLine {
            player,
            actions: kids
                .iter()
                .map(|&c| solver.tree().nodes()[c as usize].action.to_string())
                .collect(),
            hands: spot.hands(player).iter().map(|h| h.to_string()).collect(),
            strategy: strategy.chunks(n.max(1)).map(|c| c.to_vec()).collect(),
            action_ev: evs
                .iter()
                .map(|v| v.iter().map(|&x| x.is_finite().then_some(x)).collect())
                .collect(),
        }
    });
    Ok(serde_json::json!({
        "id": b.id,
        "board": b.board,
        "pot": spot.pot(),
        "stack": spot.stack(),
        "algorithm": sol.algorithm,
        "hands": [spot.hands(0).len(), spot.hands(1).len()],
        "nodes": sol.memory.nodes,
        "memory_bytes": sol.memory.total_bytes,
        "isomorphism": sol.isomorphism,
        "mirrors": sol.memory.mirrors,
        "iterations": sol.iterations,
        "seconds": sol.seconds,
        "exploitability": sol.exploitability,
        "exploitability_pct": sol.exploitability_pct,
        "stop": sol.stop,
        "root_ev": sol.root_ev,
        "root_equity": sol.root_equity,
        "root": root,
        "locks": b.locks,
        "locked_nodes": solver.locked_nodes().len(),
    }))
}

/// The line numbers (1-based) already in a results file. A last line cut short (a run
/// killed while writing it) is cut off the file so that it is solved again; any other line
/// that is not a result is an error (the file is not this command's).
fn finished_lines(path: &std::path::Path) -> Result<BTreeSet<u64>> {
    let mut done = BTreeSet::new();
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(done),
        Err(e) => return Err(io_error(path, e)),
    };
    let mut good_len = 0usize;
    let mut offset = 0usize;
    let pieces: Vec<&str> = text.split_inclusive('\n').collect();
    for (i, piece) in pieces.iter().enumerate() {
        offset += piece.len();
        let complete = piece.ends_with('\n');
        let parsed: Option<serde_json::Value> = serde_json::from_str(piece.trim()).ok();
        match parsed.as_ref().and_then(|v| v["line"].as_u64()) {
            Some(n) if complete => {
                done.insert(n);
                good_len = offset;
            }
            _ if piece.trim().is_empty() && complete => good_len = offset,
            _ if i + 1 == pieces.len() && !complete => {}
            _ => {
                return Err(Error::Invalid {
                    what: "--out",
                    reason: format!(
                        "{}: line {} is not a result of cardvec spot batch",
                        path.display(),
                        i + 1
                    ),
                })
            }
        }
    }
    if good_len < text.len() {
        let f = OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(|e| io_error(path, e))?;
        f.set_len(good_len as u64).map_err(|e| io_error(path, e))?;
    }
    Ok(done)
}

fn batch(a: BatchArgs) -> Result<()> {
    let input = BufReader::new(File::open(&a.spots).map_err(|e| Error::Invalid {
        what: "spots file",
        reason: format!("{}: {e}", a.spots.display()),
    })?);
    let mut spots = Vec::new();
    for (i, line) in input.lines().enumerate() {
        let line = line.map_err(|e| io_error(&a.spots, e))?;
        if line.trim().is_empty() {
            continue;
        }
        spots.push((i as u64 + 1, line));
    }
    let done = finished_lines(&a.out)?;
    let todo: Vec<&(u64, String)> = spots.iter().filter(|(n, _)| !done.contains(n)).collect();
    let out = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&a.out)
        .map_err(|e| Error::Invalid {
            what: "--out",
            reason: format!("{}: {e}", a.out.display()),
        })?;
    let out = Mutex::new(out);
    let pool = crate::pool(a.threads)?;
    let bar = if a.quiet {
        ProgressBar::hidden()
    } else {
        let b = ProgressBar::new(todo.len() as u64);
        b.set_style(
            ProgressStyle::with_template("{elapsed_precise} [{bar:40}] {pos}/{len} spots {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> "),
        );
        b.enable_steady_tick(Duration::from_millis(500));
        b
    };
    let failed = std::sync::atomic::AtomicU64::new(0);
    pool.install(|| {
        todo.par_iter()
            .with_max_len(1)
            .try_for_each(|(n, text)| -> Result<()> {
                let result = serde_json::from_str::<SpotParams>(text)
                    .map_err(|e| Error::Invalid {
                        what: "spot",
                        reason: e.to_string(),
                    })
                    .and_then(|b| solve_one(&b));
                let mut value = match result {
                    Ok(v) => v,
                    Err(e) => {
                        failed.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        serde_json::json!({ "error": e.to_string() })
                    }
                };
                value["line"] = serde_json::json!(n);
                let mut line = serde_json::to_string(&value).expect("plain data");
                line.push('\n');
                let mut f = out.lock().unwrap_or_else(|e| e.into_inner());
                f.write_all(line.as_bytes())
                    .and_then(|()| f.flush())
                    .map_err(|e| io_error(&a.out, e))?;
                bar.inc(1);
                Ok(())
            })
    })?;
    bar.finish_and_clear();
    let failed = failed.into_inner();
    eprintln!(
        "{} spots in {}: {} solved now ({} with an error line), {} already in {}",
        spots.len(),
        a.spots.display(),
        todo.len(),
        failed,
        spots.len() - todo.len(),
        a.out.display()
    );
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
