//! `cardvec bench`: batch throughput under a random legal policy, counting only live
//! transitions (finished lanes are autoreset, and the reset steps are not counted); the
//! mean game of that policy over each lane's first game; with `--memset`, the rate of a
//! plain fill of the same bytes per step, measured beside each repeat.

use std::time::{Duration, Instant};

use cardvec::core::policy::RandomDriver;
use cardvec::core::spec::{GameSpec, Options};
use cardvec::core::stats::Summary;
use cardvec::core::{
    ActionStatus, EnvOptions, Error, Game, ObsDtype, ObsSeats, OnIllegal, Result, VecEnv, MAX_ENVS,
};
use cardvec::registry::{self, Visitor};
use rayon::prelude::*;
use serde::Serialize;

use crate::game_args::{check_count, options, players_option};

/// Options of `cardvec bench`.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// The game to run (`cardvec games` lists them).
    #[arg(default_value = "lost-cities")]
    game: String,
    /// Game options, `name=value` (repeatable).
    #[arg(short = 'o', long = "option", value_name = "NAME=VALUE")]
    options: Vec<String>,
    /// Number of lanes.
    #[arg(long, default_value_t = 8192)]
    envs: usize,
    /// Batch steps per measurement.
    #[arg(long, default_value_t = 256)]
    steps: usize,
    /// Worker threads (default: one per core).
    #[arg(long)]
    threads: Option<usize>,
    /// Seed of the lanes and the policy.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Seats (the `num_players` option), for games with a variable number.
    #[arg(long)]
    players: Option<usize>,
    /// Measurements per mode; the best is reported (wall clock and CPU time separately).
    #[arg(long, default_value_t = 3)]
    repeats: usize,
    /// Step limit per episode: an episode that reaches that many attempted steps (illegal
    /// no-ops included) without ending is truncated and reset (counted as an episode of that
    /// length). Default: none.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    max_steps: Option<u32>,
    /// What an illegal action on a live lane does (`EnvOptions::on_illegal`): `noop` (a
    /// flagged no-op), `raise` (the step is an error that changes nothing) or `lose` (the
    /// lane ends, the offending seat taking the game's worst result). The bench's random
    /// policy plays legal actions only, so this times the mode's cost on legal play.
    #[arg(long, default_value = "noop", value_parser = parse_on_illegal)]
    on_illegal: OnIllegal,
    /// Print the results as one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Also time a plain fill (memset) of the bytes a step writes (legal mask, plus the f32
    /// observation row when observing) over all lanes on the same threads, once after each
    /// repeat, and report each mode's rate as a fraction of it.
    #[arg(long)]
    memset: bool,
    /// Observation dtypes to time, comma-separated: `f32` (one f32 per value) and/or `u8`
    /// (the game's exact compact format: bytes plus a small f32 tail, docs/performance.md).
    /// Each adds a mode `step+mask+obs_<dtype>` after `step+mask`.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "f32",
        value_name = "DTYPES"
    )]
    obs_dtype: Vec<String>,
    /// Whose observation rows the observed modes keep (`EnvOptions::obs_seats`): `acting`
    /// (one row per lane, the seat to act's) or `all` (every seat's row `[N, P, obs_dim]`,
    /// updated incrementally where the game can; f32 only). With `all` the observed modes
    /// are labelled `..._seats`; their `bytes_per_step` stays the mask and one row, the
    /// acting seat's row a trainer reads.
    #[arg(long, default_value = "acting", value_parser = parse_obs_seats)]
    obs_seats: ObsSeats,
}

/// The result of one observation mode, as `--json` prints it.
#[derive(Serialize)]
struct ModeReport {
    mode: String,
    live_steps: u64,
    env_seconds: f64,
    env_steps_per_sec: f64,
    env_steps_per_cpu_sec: Option<f64>,
    with_policy_steps_per_sec: f64,
    episodes: u64,
    episodes_per_sec: f64,
    /// Bytes of output rows a step writes per lane: the legal mask (one byte per action),
    /// plus the observation row when observing (`obs_dim` × 4 for f32; bytes plus 4 per
    /// tail value for u8).
    bytes_per_step: usize,
    /// With `--memset`: lanes × steps per second of a plain fill of `bytes_per_step` per
    /// lane (best repeat).
    memset_steps_per_sec: Option<f64>,
    /// With `--memset`: `env_steps_per_sec / memset_steps_per_sec`.
    fraction_of_memset: Option<f64>,
}

/// The random policy's games: every lane's first game, from its deal to its end.
#[derive(Serialize)]
struct GamesReport {
    games: u64,
    /// Lanes whose first game did not end within the step cap (excluded).
    unfinished: u64,
    mean_length: f64,
    length_ci95: f64,
    seat0_mean_reward: f64,
    seat0_reward_ci95: f64,
}

/// Everything `cardvec bench --json` prints.
#[derive(Serialize)]
struct BenchReport {
    game: &'static str,
    options: String,
    envs: usize,
    steps: usize,
    threads: usize,
    repeats: usize,
    seed: u64,
    first_games: GamesReport,
    max_steps: Option<u32>,
    on_illegal: &'static str,
    obs_seats: &'static str,
    modes: Vec<ModeReport>,
}

/// Parses `--obs-seats` (the error lists the words).
fn parse_obs_seats(word: &str) -> std::result::Result<ObsSeats, String> {
    ObsSeats::parse(word).map_err(|e| e.to_string())
}

/// Parses `--on-illegal` (the error lists the words).
fn parse_on_illegal(word: &str) -> std::result::Result<OnIllegal, String> {
    OnIllegal::parse(word).map_err(|e| e.to_string())
}

/// CPU time used so far by every thread of this process (Linux: the first field of each
/// `/proc/self/task/*/schedstat`, in nanoseconds), or `None` where that is not readable.
/// Unlike the wall clock, it does not count time the machine gave to other processes.
fn process_cpu_time() -> Option<Duration> {
    let mut total = 0u64;
    for task in std::fs::read_dir("/proc/self/task").ok()? {
        let stat = std::fs::read_to_string(task.ok()?.path().join("schedstat")).ok()?;
        total += stat.split_whitespace().next()?.parse::<u64>().ok()?;
    }
    Some(Duration::from_nanos(total))
}

/// One timed run.
struct Measure {
    live: u64,
    env_time: Duration,
    /// CPU time of the environment's steps, if the platform reports it.
    env_cpu: Option<Duration>,
    policy_time: Duration,
    episodes: u64,
    /// Lanes × steps per second of the plain fill, if asked for.
    memset_rate: Option<f64>,
}

fn measure<G: Game>(game: &G, args: &BenchArgs, obs: Option<ObsDtype>) -> Result<Measure> {
    let observe = obs.is_some();
    let mut options = EnvOptions::new(args.envs);
    options.seed = args.seed;
    options.num_threads = args.threads;
    options.autoreset = true;
    options.observe_on_step = observe;
    options.max_steps = args.max_steps;
    options.on_illegal = args.on_illegal;
    options.obs_dtype = obs.unwrap_or_default();
    if observe {
        options.obs_seats = args.obs_seats;
    }
    let mut env = VecEnv::new(game.clone(), options)?;
    let n = env.num_envs();
    let mut driver = RandomDriver::new(n, args.seed)?;
    let mut m = Measure {
        live: 0,
        env_time: Duration::ZERO,
        env_cpu: Some(Duration::ZERO),
        policy_time: Duration::ZERO,
        episodes: 0,
        memset_rate: None,
    };
    for step in 0..args.steps + 8 {
        let start = Instant::now();
        driver.choose(&env);
        let cpu_before = process_cpu_time();
        let chosen = Instant::now();
        env.step(driver.actions())?;
        let stepped = Instant::now();
        let cpu_after = process_cpu_time();
        if step < 8 {
            continue;
        }
        m.policy_time += chosen - start;
        m.env_time += stepped - chosen;
        m.env_cpu = match (m.env_cpu, cpu_before, cpu_after) {
            (Some(total), Some(before), Some(after)) => Some(total + after.saturating_sub(before)),
            _ => None,
        };
        let (status, term, trunc) = (env.illegal(), env.terminated(), env.truncated());
        for i in 0..n {
            if status[i] == ActionStatus::Applied as u8 {
                m.live += 1;
                m.episodes += (term[i] || trunc[i]) as u64;
            }
        }
    }
    if args.memset {
        m.memset_rate = Some(memset_rate(&env, bytes_per_step(game, obs), args.steps));
    }
    Ok(m)
}

/// Bytes of output rows one step writes per lane (see [`ModeReport::bytes_per_step`]).
fn bytes_per_step<G: Game>(game: &G, obs: Option<ObsDtype>) -> usize {
    game.num_actions()
        + match obs {
            None => 0,
            Some(ObsDtype::F32) => game.obs_dim() * 4,
            Some(ObsDtype::U8) => game.obs_format().compact_bytes(),
        }
}

/// Lanes × steps per second of a plain fill of `bytes` per lane over all of `env`'s lanes,
/// `steps` times, in chunks of 64 lanes on `env`'s thread pool: the write limit a step that
/// writes `bytes` per lane cannot beat.
fn memset_rate<G: Game>(env: &VecEnv<G>, bytes: usize, steps: usize) -> f64 {
    let lanes = env.num_envs();
    let mut buf = vec![0u8; lanes * bytes];
    let fill = |buf: &mut [u8], v: u8| {
        env.install(|| {
            buf.par_chunks_mut(64 * bytes)
                .for_each(|chunk| chunk.fill(v));
        })
    };
    fill(&mut buf, 1); // fault the pages in before timing
    let start = Instant::now();
    for step in 0..steps {
        fill(&mut buf, step as u8);
    }
    let rate = (lanes * steps) as f64 / start.elapsed().as_secs_f64();
    std::hint::black_box(&buf);
    rate
}

/// Plays every lane's first game (dealt at construction, autoreset off) to its end with the
/// random legal policy, stepping at most `cap` times: the unbiased mean game of the policy
/// (a window of autoreset steps would see only games ending inside it, and cut the first
/// game of each lane at the window's start).
fn first_games<G: Game>(game: &G, args: &BenchArgs, cap: usize) -> Result<GamesReport> {
    let mut options = EnvOptions::new(args.envs);
    options.seed = args.seed;
    options.num_threads = args.threads;
    options.observe_on_step = false;
    let mut env = VecEnv::new(game.clone(), options)?;
    let (n, p) = (env.num_envs(), game.num_players());
    let mut driver = RandomDriver::new(n, args.seed)?;
    let mut lengths = cardvec::core::try_vec(n, 0u32, "game lengths")
        .map_err(|e| e.in_context(|| format!("num_envs={n}")))?;
    let (mut length, mut reward0) = (Summary::default(), Summary::default());
    let mut live = n;
    // A game that is over as dealt counts with length 0 and its deal rewards.
    for i in 0..n {
        if env.terminated()[i] || env.truncated()[i] {
            length.push(0.0);
            reward0.push(env.rewards()[i * p] as f64);
            live -= 1;
        }
    }
    for _ in 0..cap {
        if live == 0 {
            break;
        }
        driver.choose(&env);
        env.step(driver.actions())?;
        let (status, term, trunc, rewards) = (
            env.illegal(),
            env.terminated(),
            env.truncated(),
            env.rewards(),
        );
        for i in 0..n {
            if status[i] == ActionStatus::Applied as u8 {
                lengths[i] += 1;
                if term[i] || trunc[i] {
                    length.push(lengths[i] as f64);
                    reward0.push(rewards[i * p] as f64);
                    live -= 1;
                }
            }
        }
    }
    Ok(GamesReport {
        games: length.count(),
        unfinished: live as u64,
        mean_length: length.mean(),
        length_ci95: length.ci95(),
        seat0_mean_reward: reward0.mean(),
        seat0_reward_ci95: reward0.ci95(),
    })
}

fn report<G: GameSpec>(game: G, args: &BenchArgs, dtypes: &[ObsDtype]) -> Result<()> {
    let threads = args.threads.unwrap_or_else(rayon::current_num_threads);
    let mut out = BenchReport {
        game: G::INFO.id,
        options: game.options().to_string(),
        envs: args.envs,
        steps: args.steps,
        threads,
        repeats: args.repeats,
        seed: args.seed,
        first_games: first_games(&game, args, 1 << 20)?,
        max_steps: args.max_steps,
        on_illegal: args.on_illegal.as_str(),
        obs_seats: args.obs_seats.as_str(),
        modes: Vec::new(),
    };
    if !args.json {
        println!(
            "game={} options={} envs={} steps={} threads={} repeats={}{}{}",
            out.game,
            out.options,
            args.envs,
            args.steps,
            args.threads
                .map_or_else(|| format!("{threads} (all cores)"), |t| t.to_string()),
            args.repeats,
            args.max_steps
                .map_or_else(String::new, |m| format!(" max_steps={m}")),
            if args.on_illegal == OnIllegal::Noop {
                String::new()
            } else {
                format!(" on_illegal={}", args.on_illegal)
            }
        );
        let g = &out.first_games;
        println!(
            "first games        games={} unfinished={} mean_length={:.2} ±{:.2} seat0_mean_reward={:.2} ±{:.2}",
            g.games, g.unfinished, g.mean_length, g.length_ci95, g.seat0_mean_reward, g.seat0_reward_ci95
        );
    }
    let modes = std::iter::once(("step+mask".to_string(), None)).chain(dtypes.iter().map(|&d| {
        match args.obs_seats {
            ObsSeats::Acting => (format!("step+mask+obs_{d}"), Some(d)),
            ObsSeats::All => (format!("step+mask+obs_{d}_seats"), Some(d)),
        }
    }));
    for (label, observe) in modes {
        let mut best: Option<Measure> = None;
        let mut best_cpu_rate: Option<f64> = None;
        let mut best_memset: Option<f64> = None;
        for _ in 0..args.repeats {
            let m = measure(&game, args, observe)?;
            if let Some(rate) = m.memset_rate {
                best_memset = Some(best_memset.map_or(rate, |b| b.max(rate)));
            }
            if let Some(cpu) = m.env_cpu {
                let rate = m.live as f64 / cpu.as_secs_f64();
                best_cpu_rate = Some(best_cpu_rate.map_or(rate, |b| b.max(rate)));
            }
            if best.as_ref().is_none_or(|b| {
                m.live as f64 / m.env_time.as_secs_f64() > b.live as f64 / b.env_time.as_secs_f64()
            }) {
                best = Some(m);
            }
        }
        let m = best.expect("at least one repeat");
        let mode = ModeReport {
            mode: label.clone(),
            live_steps: m.live,
            env_seconds: m.env_time.as_secs_f64(),
            env_steps_per_sec: m.live as f64 / m.env_time.as_secs_f64(),
            env_steps_per_cpu_sec: best_cpu_rate,
            with_policy_steps_per_sec: m.live as f64 / (m.env_time + m.policy_time).as_secs_f64(),
            episodes: m.episodes,
            episodes_per_sec: m.episodes as f64 / m.env_time.as_secs_f64(),
            bytes_per_step: bytes_per_step(&game, observe),
            memset_steps_per_sec: best_memset,
            fraction_of_memset: best_memset.map(|r| m.live as f64 / m.env_time.as_secs_f64() / r),
        };
        if !args.json {
            let cpu_rate = mode
                .env_steps_per_cpu_sec
                .map_or_else(|| "n/a".to_string(), |r| format!("{r:.0}"));
            println!(
                "{label:<18} live_steps={} env_time={:.3}s env_steps_per_sec={:.0} env_steps_per_cpu_sec={cpu_rate} with_policy_steps_per_sec={:.0}",
                mode.live_steps, mode.env_seconds, mode.env_steps_per_sec, mode.with_policy_steps_per_sec
            );
            let memset = match (mode.memset_steps_per_sec, mode.fraction_of_memset) {
                (Some(r), Some(f)) => {
                    format!(" memset_steps_per_sec={r:.0} fraction_of_memset={f:.3}")
                }
                _ => String::new(),
            };
            println!(
                "{:<18} episodes={} episodes_per_sec={:.0} bytes_per_step={}{memset}",
                "", mode.episodes, mode.episodes_per_sec, mode.bytes_per_step
            );
        }
        out.modes.push(mode);
    }
    if args.json {
        println!(
            "{}",
            serde_json::to_string(&out).expect("a report always serializes")
        );
    }
    Ok(())
}

struct Bench<'a> {
    args: &'a BenchArgs,
    options: Options,
    dtypes: Vec<ObsDtype>,
}

impl Visitor for Bench<'_> {
    type Output = Result<()>;
    fn visit<G: GameSpec>(&mut self) -> Result<()> {
        report(G::configure(&self.options)?, self.args, &self.dtypes)
    }
}

/// Runs `cardvec bench`.
pub fn run(args: BenchArgs) -> Result<()> {
    Error::check_range("--envs", 1, MAX_ENVS, args.envs)?;
    check_count("--steps", args.steps as u64)?;
    check_count("--repeats", args.repeats as u64)?;
    if let Some(t) = args.threads {
        Error::check_range("--threads", 1, cardvec::core::MAX_THREADS, t)?;
    }
    let mut dtypes = Vec::new();
    for text in &args.obs_dtype {
        let d = ObsDtype::parse(text.trim())?;
        if !dtypes.contains(&d) {
            dtypes.push(d);
        }
    }
    let info = registry::info(&args.game)?;
    let players = players_option(info, args.players)?;
    let options = options(&args.game, &args.options, players, "")?;
    registry::visit(
        &args.game.clone(),
        &mut Bench {
            args: &args,
            options,
            dtypes,
        },
    )?
}
