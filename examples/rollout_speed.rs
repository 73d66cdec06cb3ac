//! Rollouts per second inside a search bot, batched against one state at a time, for every
//! game of the registry: one decision's rollouts (a mid-game decision state, its first 16
//! legal actions x `--worlds` worlds dealt by the game's determinization for the seat to
//! act, as `pimc` deals them) played to the end by the game's `random` bot (or `--playout
//! NAME` where the game has that bot), either as the lanes of one batch environment on one
//! worker (`core::rollout::rollout_returns`, what `pimc` runs) or one state at a time
//! through `Game::step` and `Bot::act` (`rollout_returns_serial`). Both return the same
//! numbers (checked here, and in tests/search.rs).
//!
//! For each mode, the best of `--repeats` measurements (each as many calls as fill a
//! quarter of a second): rollouts per second of CPU time (every thread of the process,
//! `CLOCK_PROCESS_CPUTIME_ID`: time the machine gave to other processes is not counted)
//! and of wall time. The batched mode includes building its environment (and its
//! one-worker pool) for every call, as `pimc` does at every decision. Pin it to one core on a shared machine:
//!
//! ```text
//! cargo build --profile ci --example rollout_speed
//! taskset -c 1 target/ci/examples/rollout_speed [--worlds 40] [--repeats 5] [--playout NAME]
//! ```
//!
//! Prints one markdown table row per game. Nothing here names a game: the games and their
//! decision states come from the registry.

use std::time::{Duration, Instant};

use cardvec::core::policy::random_legal;
use cardvec::core::rollout::{rollout_returns, rollout_returns_serial};
use cardvec::core::spec::{GameSpec, Options};
use cardvec::core::LaneRng;
use cardvec::registry::{self, Visitor};

/// CPU time used so far by every thread of this process (`CLOCK_PROCESS_CPUTIME_ID`), or
/// `None` where it is not available.
#[cfg(target_os = "linux")]
fn cpu_time() -> Option<Duration> {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec for the call to fill.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) } == 0;
    ok.then(|| Duration::new(t.tv_sec as u64, t.tv_nsec as u32))
}

#[cfg(not(target_os = "linux"))]
fn cpu_time() -> Option<Duration> {
    None
}

struct Speed {
    worlds: u64,
    repeats: usize,
    playout: String,
}

/// The best (CPU, wall) seconds per call of `f` over `repeats` measurements, each of as
/// many calls as fill a quarter of a second (at least one).
fn best(repeats: usize, mut f: impl FnMut()) -> (f64, f64) {
    let (mut cpu, mut wall) = (f64::INFINITY, f64::INFINITY);
    for _ in 0..repeats {
        let (c0, w0) = (cpu_time(), Instant::now());
        let mut calls = 0u32;
        while calls == 0 || w0.elapsed() < Duration::from_millis(250) {
            f();
            calls += 1;
        }
        let w = w0.elapsed().as_secs_f64();
        let c = match (c0, cpu_time()) {
            (Some(a), Some(b)) => (b - a).as_secs_f64(),
            _ => w,
        };
        cpu = cpu.min(c / calls as f64);
        wall = wall.min(w / calls as f64);
    }
    (cpu, wall)
}

impl Visitor for Speed {
    type Output = Option<String>;
    fn visit<G: GameSpec>(&mut self) -> Option<String> {
        let options = Options::parse(G::INFO.options, G::INFO.configurations[0]).ok()?;
        let game = G::configure(&options).ok()?;
        let det = G::determinizer()?;
        let bot = game.bot(&self.playout).ok()?;
        // A decision state: the first one with two or more legal actions after 20 random
        // plies of the game dealt from seed 11 (or the last before the game ended).
        let mut rng = LaneRng::from_seed(11);
        let mut state = game.reset(&mut rng);
        let mut mask = vec![0u8; game.num_actions()];
        let mut rewards = vec![0f32; game.num_players()];
        let mut decision = None;
        for ply in 0..400 {
            let (t, u) = game.finished(&state);
            if t || u {
                break;
            }
            game.legal_mask(&state, &mut mask);
            if mask.iter().filter(|&&m| m != 0).count() >= 2 {
                decision = Some(state);
                if ply >= 20 {
                    break;
                }
            }
            rewards.fill(0.0);
            game.step(
                &mut state,
                random_legal(&mask, &mut rng),
                &mut rng,
                &mut rewards,
            );
        }
        let state = decision?;
        game.legal_mask(&state, &mut mask);
        let seat = game.current_player(&state);
        let legal: Vec<u32> = (0..mask.len() as u32)
            .filter(|&a| mask[a as usize] != 0)
            .take(16)
            .collect();
        let (game, state) = (&game, &state);
        let starts: Vec<(G::State, u32)> = legal
            .iter()
            .flat_map(|&a| {
                (0..self.worlds)
                    .map(move |w| (det(game, state, seat, &mut LaneRng::for_lane(5, w, 0)), a))
            })
            .collect();
        let batched = rollout_returns(game, &starts, &*bot, 3, Some(1)).ok()?;
        let serial = rollout_returns_serial(game, &starts, &*bot, 3).ok()?;
        assert_eq!(
            batched,
            serial,
            "{}: batched and serial rollouts differ",
            G::INFO.id
        );
        let n = starts.len() as f64;
        let (bc, bw) = best(self.repeats, || {
            rollout_returns(game, &starts, &*bot, 3, Some(1)).unwrap();
        });
        let (sc, sw) = best(self.repeats, || {
            rollout_returns_serial(game, &starts, &*bot, 3).unwrap();
        });
        Some(format!(
            "| `{}` | {} x {} = {} | {:.0} | {:.0} | {:.2} | {:.0} | {:.0} |",
            G::INFO.id,
            legal.len(),
            self.worlds,
            starts.len(),
            n / bc,
            n / sc,
            sc / bc,
            n / bw,
            n / sw,
        ))
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: rollout_speed [--worlds W] [--repeats R] [--playout NAME]";
    let mut speed = Speed {
        worlds: 40,
        repeats: 5,
        playout: "random".to_string(),
    };
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let value = it.next().expect(usage);
        match flag.as_str() {
            "--worlds" => speed.worlds = value.parse().expect(usage),
            "--repeats" => speed.repeats = value.parse().expect(usage),
            "--playout" => speed.playout = value.clone(),
            _ => panic!("{usage}"),
        }
    }
    assert!(speed.worlds >= 1 && speed.repeats >= 1, "{usage}");
    println!(
        "playout `{}`, one worker, best of {} runs; rollouts per second of CPU time, then of wall time",
        speed.playout, speed.repeats
    );
    println!("| game | rollouts (actions x worlds) | batched / CPU s | serial / CPU s | batched speed-up | batched / wall s | serial / wall s |");
    println!("| --- | --- | ---: | ---: | ---: | ---: | ---: |");
    for row in registry::visit_all(&mut speed).into_iter().flatten() {
        println!("{row}");
    }
}
