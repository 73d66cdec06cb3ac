//! Flip 7 alone, solved on the full 94-card deck (`docs/flip7.md`, "Flip 7 alone"): the
//! exact expected points per round of the points-optimal policy and the exact expected rounds
//! to a target score of the rounds-optimal policy, every round dealt from a fresh deck
//! (`cardvec::games::flip7::FreshSolver`), with the time and peak memory of each solve.
//!
//! ```text
//! cargo run --profile ci --example flip7_solo -- points [--checkpoint CK] [--cache-log2 K]
//! cargo run --profile ci --example flip7_solo -- rounds 200 [--from S]
//! cargo run --profile ci --example flip7_solo -- policy data/flip7_solo_policy.zst [--checkpoint CK] [--cache-log2 K]
//! cargo run --profile ci --example flip7_solo -- simulate 1000000 [--seed S]
//! ```
//!
//! `points` solves the points objective once (on the full deck: about 5.5 GB and over an
//! hour of CPU, `docs/flip7.md`, "Flip 7 alone"; progress lines on stderr). With
//! `--checkpoint CK` the solve saves its finished decisions to `CK` every 2^28 chance nodes
//! and, if `CK` exists, resumes from it (`FreshSolver::resume`), so a solve can be stopped
//! and continued in another run.
//! `rounds T` runs the Dinkelbach iteration per banked total from `T - 1` down (to
//! `--from S`, default 0), one solve per step, printing each `V(s)` as it is found (a full
//! solve per step far from the target: not run on the full deck). `policy PATH` solves the
//! points objective, plays its policy forward (the exact distribution of a round's points,
//! and the expected rounds to 200 of that policy with a fresh deck every round) and writes
//! the table the `optimal-solo` bot reads (the decisions reached and the points
//! distribution). `simulate N` prints the table's exact expected rounds to 200 (fresh deck
//! every round) and plays `N` solo games to 200 through the engine (`Flip7` with one seat)
//! with the `optimal-solo` bot, twice: a fresh deck every round (each round a one-round
//! engine game, the model the solver solves) and the engine's own game (the pile carried
//! over), and prints the mean rounds with its standard error.

use std::time::Instant;

use cardvec::core::{Bot, Game, LaneRng};
use cardvec::games::flip7::{
    Flip7, FreshSolver, OptimalSolo, SoloPolicy, CARD_COPIES, INNER_CACHE_LOG2, SOLO_MAX_POINTS,
};

fn peak_rss_mb() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<f64>().ok())
        })
        .map_or(f64::NAN, |kb| kb / 1024.0)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage =
        "usage: flip7_solo points [--checkpoint CK] [--cache-log2 K] | rounds T [--from S] | policy PATH [--checkpoint CK] [--cache-log2 K] | simulate N [--seed S]";
    match args.get(1).map(String::as_str) {
        Some("points") | Some("policy") => {
            let t = Instant::now();
            // `--cache-log2 K`: an inner cache of 2^K slots (16 bytes each, 20 with the
            // zero-probability of `points`) instead of 2^INNER_CACHE_LOG2; the values do not
            // depend on it, a larger cache recomputes fewer evicted positions.
            let log2 = match args.iter().position(|a| a == "--cache-log2") {
                Some(k) => args.get(k + 1).and_then(|v| v.parse().ok()).expect(usage),
                None => INNER_CACHE_LOG2,
            };
            let mut solver = FreshSolver::with_cache(&CARD_COPIES, args[1] == "points", log2)
                .expect("a valid cache size");
            let t0 = Instant::now();
            solver.set_progress(move |p| {
                eprintln!(
                    "  {:.0} s: {} chance nodes, {} decisions, {} inner cached, {} evicted, opening deal {}/94 done, {} checkpoints",
                    t0.elapsed().as_secs_f64(),
                    p.nodes,
                    p.decisions,
                    p.inner,
                    p.evictions,
                    p.root_done,
                    p.checkpoints
                );
            });
            let checkpoint = args
                .iter()
                .position(|a| a == "--checkpoint")
                .map(|k| std::path::PathBuf::from(args.get(k + 1).expect(usage)));
            let (points, p0) = match &checkpoint {
                Some(path) => {
                    // Every 2^28 chance nodes (a few CPU-minutes here).
                    solver.set_checkpoint(path, 1 << 28).expect("a checkpoint");
                    if path.exists() {
                        eprintln!("resuming from {}", path.display());
                        solver.resume_points(path).expect("the full deck solves")
                    } else {
                        solver.solve_points().expect("the full deck solves")
                    }
                }
                None => solver.solve_points().expect("the full deck solves"),
            };
            let st = solver.stats();
            if p0.is_nan() {
                // `policy` solves without tracking the 0-point probability (its walk below
                // computes it exactly).
                println!("points-optimal: {points:.12} expected points per round");
            } else {
                println!(
                    "points-optimal: {points:.12} expected points per round, P(0 points) {p0:.9}"
                );
            }
            println!(
                "decisions evaluated {}, inner positions cached {} (evicted {}), tables {:.0} MB, peak RSS {:.0} MB, {:.1} s",
                st.decisions,
                st.inner,
                st.evictions,
                st.bytes as f64 / 1e6,
                peak_rss_mb(),
                t.elapsed().as_secs_f64()
            );
            if args[1] == "policy" {
                let path = args.get(2).expect(usage);
                // The walk needs the decision tables only: the inner cache's memory goes
                // back first (a full-deck walk beside a 17 GB cache ran out of 23 GB).
                solver.release_cache();
                let walk = solver
                    .walk_policy_progress(|w| {
                        eprintln!(
                            "  walk: layer {} ({} positions, next {}), rounds ended {:.9}, {:.0} s, peak RSS {:.0} MB",
                            w.layer,
                            w.positions,
                            w.next,
                            w.ended,
                            t.elapsed().as_secs_f64(),
                            peak_rss_mb()
                        )
                    })
                    .expect("the policy walks");
                println!(
                    "policy walk: {} decisions reached, mean {:.12}, P(0) {:.9}, {:.1} s",
                    walk.decisions.len(),
                    walk.mean(),
                    walk.points[0],
                    t.elapsed().as_secs_f64()
                );
                let w = walk.rounds_to_target(200);
                println!("points-optimal policy, fresh deck each round: expected rounds to 200 from 0: {:.12}", w[0]);
                let policy = SoloPolicy::from_walk(&walk).expect("the walk's decisions");
                let bytes = policy.to_bytes();
                std::fs::write(path, &bytes).expect("write the policy");
                println!(
                    "wrote {} decisions ({} bytes) to {path}",
                    policy.len(),
                    bytes.len()
                );
            }
        }
        Some("rounds") => {
            let target: u32 = args.get(2).and_then(|t| t.parse().ok()).expect(usage);
            let from: u32 = match args.get(3).map(String::as_str) {
                Some("--from") => args.get(4).and_then(|s| s.parse().ok()).expect(usage),
                _ => 0,
            };
            let t = Instant::now();
            let mut solver = FreshSolver::full(true);
            let mut total_sweeps = 0;
            let v = solver.rounds_to_target(target, |s, v, sweeps| {
                total_sweeps += sweeps;
                println!(
                    "V({s}) = {v:.12} sweeps={sweeps} total_sweeps={total_sweeps} elapsed={:.1}s rss={:.0}MB",
                    t.elapsed().as_secs_f64(),
                    peak_rss_mb()
                );
                s > from
            });
            match v {
                Ok(v) => {
                    println!("expected rounds to {target} from 0: {:.12}", v[0]);
                }
                Err(e) => println!("stopped: {e}"),
            }
            let _ = SOLO_MAX_POINTS;
        }
        Some("simulate") => {
            let n: u64 = args.get(2).and_then(|t| t.parse().ok()).expect(usage);
            let seed: u64 = match args.get(3).map(String::as_str) {
                Some("--seed") => args.get(4).and_then(|s| s.parse().ok()).expect(usage),
                _ => 1,
            };
            let policy = SoloPolicy::shared().expect("the optimal-solo table");
            let bot = OptimalSolo::new(policy.clone());
            let mean_points: f64 = policy
                .round_points()
                .iter()
                .enumerate()
                .map(|(x, p)| x as f64 * p)
                .sum();
            let exact = policy.expected_rounds(200);
            println!(
                "table: {} decisions; exact, fresh deck each round: {mean_points:.9} expected points per round, {exact:.9} expected rounds to 200 (any policy needs at least 200/{mean_points:.6} = {:.6})",
                policy.len(),
                200.0 / mean_points
            );
            let t = Instant::now();
            let one_round = Flip7::new(1, 200, Some(1)).unwrap();
            let fresh = mean_rounds(n, seed, |rng| {
                // A fresh deck every round: each round is a one-round engine game.
                let (mut total, mut rounds) = (0u32, 0u64);
                while total < 200 {
                    let (s, _) = play(&one_round, &bot, rng);
                    total += s.scores()[0];
                    rounds += 1;
                }
                rounds
            });
            println!(
                "fresh deck each round: {n} games, mean rounds to 200 {:.5} +- {:.5} (s.e.), exact {exact:.5}, {:+.2} s.e., {:.1} s",
                fresh.0,
                fresh.1,
                (fresh.0 - exact) / fresh.1,
                t.elapsed().as_secs_f64()
            );
            let t = Instant::now();
            let game = Flip7::new(1, 200, None).unwrap();
            let carried = mean_rounds(n, seed ^ 0x5eed, |rng| {
                let (s, _) = play(&game, &bot, rng);
                s.completed_round() as u64
            });
            println!(
                "engine game (pile carried over): {n} games, mean rounds to 200 {:.5} +- {:.5} (s.e.), {:.1} s",
                carried.0,
                carried.1,
                t.elapsed().as_secs_f64()
            );
        }
        _ => panic!("{usage}"),
    }
}

/// Plays one engine game with `bot` in every seat; the final state and the decisions.
fn play(
    game: &Flip7,
    bot: &OptimalSolo,
    rng: &mut LaneRng,
) -> (cardvec::games::flip7::Flip7State, u64) {
    let mut s = game.reset(rng);
    let mut mask = vec![0u8; game.num_actions()];
    let mut rewards = vec![0f32; game.num_players()];
    let mut steps = 0;
    while !s.is_over() {
        game.legal_mask(&s, &mut mask);
        let a = bot.act(game, &s, &mask, rng);
        assert!(game.step(&mut s, a, rng, &mut rewards).applied);
        steps += 1;
    }
    (s, steps)
}

/// Mean and standard error of `rounds(rng)` over `n` games, game `g` on the stream of
/// `(seed, g)`.
fn mean_rounds(n: u64, seed: u64, mut rounds: impl FnMut(&mut LaneRng) -> u64) -> (f64, f64) {
    let (mut sum, mut sq) = (0f64, 0f64);
    for g in 0..n {
        let mut rng = LaneRng::for_lane(seed, g, 0);
        let r = rounds(&mut rng) as f64;
        sum += r;
        sq += r * r;
    }
    let mean = sum / n as f64;
    let var = (sq / n as f64 - mean * mean) * n as f64 / (n as f64 - 1.0).max(1.0);
    (mean, (var / n as f64).sqrt())
}
