//! The `cardvec` command line: batch benchmarks, differential runs, bot matches, oracle
//! traces, the 151 arena, the poker evaluator and the solvers. A separate crate from the library, so the
//! library and the Python extension carry no terminal dependencies (clap, indicatif).

mod arena;
mod bench;
mod diff;
mod exploit;
mod game_args;
mod games;
mod holdem;
mod interrupt;
mod ladder;
mod matches;
mod progress;
mod pushfold;
mod solve;
mod spot;
mod trace;
mod web;

use clap::{Parser, Subcommand};

use cardvec::core::{Error, Result};

/// Vectorized card-game environments: benchmarks, differential checks and bot matches.
#[derive(Parser, Debug)]
#[command(name = "cardvec", version, about)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Lists every game with its players, options, bots and docs page.
    Games(games::GamesArgs),
    /// Batch throughput with a random legal policy: steps/s for step+mask and for
    /// step+mask+observation, plus the outcomes of the games played.
    Bench(bench::BenchArgs),
    /// Plays random legal games on the reference and the fast engine and compares them
    /// after every step.
    Diff(diff::DiffArgs),
    /// Plays one bot against another over many games and reports win rate and margin.
    Match(matches::MatchArgs),
    /// The ladder of any game's bots: every pair (two seats) or tables drawn from the pool
    /// (more) over duplicate deals, with win rates, score differences and ratings
    /// (Bradley–Terry, Plackett–Luce), resumable from its `--jsonl` log.
    Ladder(ladder::LadderArgs),
    /// Writes a JSON-lines trace of random matches for an external oracle to replay
    /// (151: `python/tests/i151_oracle.py` replays it in i151-engine 0.2.4).
    Trace(trace::TraceArgs),
    /// The i151 arena: catalog bots through the match runner (`match`), the ladder
    /// (`ladder`) and its standings (`table`), replays (`replay`).
    Arena(arena::ArenaArgs),
    /// Hold'em: the rank, category, name and best five cards of 5 to 7 cards.
    Eval(holdem::EvalArgs),
    /// Hold'em: win, tie and equity of 2 to 10 players (hole cards or ranges).
    Equity(holdem::EquityArgs),
    /// Heads-up push/fold hold'em: the CFR+ equilibrium at stack depths of 1 to 20 big
    /// blinds on the exact preflop equity table, with its exploitability.
    Pushfold(pushfold::PushFoldArgs),
    /// Solves a game with a game tree (kuhn, leduc, ...) by CFR, CFR+ or MCCFR and reports
    /// the exploitability of the average policy and the first player's game value.
    Solve(solve::SolveArgs),
    /// Local best response: a lower bound on the exploitability of a heads-up no-limit
    /// hold'em policy, in mbb per game with a 95% interval (`docs/exploit.md`).
    Exploit(exploit::ExploitArgs),
    /// Postflop hold'em spots solved range against range (DCFR, CFR+, PCFR+) with the
    /// exact exploitability (`docs/spot.md`).
    Spot(spot::SpotArgs),
    /// The web table: play every game against its bots in a browser, watch replays.
    Serve(web::ServeArgs),
}

/// Builds a rayon pool with `threads` workers (`None`: one per core).
pub fn pool(threads: Option<usize>) -> Result<rayon::ThreadPool> {
    if let Some(t) = threads {
        Error::check_range("--threads", 1, cardvec::core::MAX_THREADS, t)?;
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()
        .map_err(|e| Error::Invalid {
            what: "thread pool",
            reason: e.to_string(),
        })
}

/// Runs one parsed command.
pub fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Games(args) => games::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Diff(args) => diff::run(args),
        Command::Match(args) => matches::run(args),
        Command::Ladder(args) => ladder::run(args),
        Command::Trace(args) => trace::run(args),
        Command::Arena(args) => arena::run(args),
        Command::Eval(args) => holdem::run_eval(args),
        Command::Equity(args) => holdem::run_equity(args),
        Command::Pushfold(args) => pushfold::run(args),
        Command::Solve(args) => solve::run(args),
        Command::Spot(args) => spot::run(args),
        Command::Exploit(args) => exploit::run(args),
        Command::Serve(args) => web::run(args),
    }
}

/// Lets a closed stdout end the process quietly, as it ends `cat` or `grep`: `cardvec spot
/// show FILE | head -1` exits when `head` stops reading, killed by SIGPIPE (status 141 in
/// a shell, nothing on stderr) instead of panicking in `println!` ("failed printing to
/// stdout: Broken pipe"). Rust ignores SIGPIPE at startup so that writes to a closed pipe
/// or socket return `EPIPE`; this restores the default disposition for every command but
/// `cardvec serve`, whose HTTP connections are sockets a browser may close at any time.
/// (On other platforms a closed stdout still panics.)
fn die_on_closed_stdout(command: &Command) {
    #[cfg(unix)]
    if !matches!(command, Command::Serve(_)) {
        // SAFETY: sets a signal's disposition to the default before any other thread is
        // started; no handler runs Rust code.
        unsafe {
            libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        }
    }
    #[cfg(not(unix))]
    let _ = command;
}

fn main() {
    let args = Cli::parse();
    die_on_closed_stdout(&args.command);
    if let Err(err) = run(args) {
        eprintln!("error: {err}");
        std::process::exit(2);
    }
}
