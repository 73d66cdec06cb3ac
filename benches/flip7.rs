//! Criterion benches of Flip 7: batch step+mask and step+mask+observation at 4096 lanes with
//! 3 and 8 players on 1 and 2 threads (random legal policy, autoreset; only `step` is
//! timed), and the single-lane kernels (legal mask, observation, step) at 3 and 8 players.

use std::time::Duration;

use cardvec::core::policy::{random_legal, RandomDriver};
use cardvec::core::{EnvOptions, Game, LaneRng, VecEnv};
use cardvec::games::flip7::Flip7;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

const LANES: usize = 4096;

fn batch(c: &mut Criterion) {
    let mut group = c.benchmark_group("flip7_batch");
    group.throughput(Throughput::Elements(LANES as u64));
    for players in [3, 8] {
        let game = Flip7::with_players(players).unwrap();
        for threads in [1, 2] {
            for (label, observe) in [("step_mask", false), ("step_mask_obs", true)] {
                let mut options = EnvOptions::new(LANES);
                options.num_threads = Some(threads);
                options.autoreset = true;
                options.observe_on_step = observe;
                let mut env = VecEnv::new(game, options).unwrap();
                let mut driver = RandomDriver::new(LANES, 0);
                let id = BenchmarkId::new(format!("{label}_{players}p"), format!("{threads}t"));
                group.bench_function(id, |b| {
                    b.iter_custom(|iters| {
                        let mut timed = Duration::ZERO;
                        for _ in 0..iters {
                            timed += driver.step(&mut env).unwrap().1;
                        }
                        timed
                    })
                });
            }
        }
    }
    group.finish();
}

fn kernels(c: &mut Criterion) {
    let mut group = c.benchmark_group("flip7_lane");
    for players in [3, 8] {
        let game = Flip7::with_players(players).unwrap();
        let mut rng = LaneRng::from_seed(3);
        let mut states = Vec::new();
        let mut mask = vec![0u8; game.num_actions()];
        let mut rewards = vec![0f32; players];
        while states.len() < 1024 {
            let mut s = game.reset(&mut rng);
            while !s.is_over() && states.len() < 1024 {
                states.push((s, rng.clone()));
                game.legal_mask(&s, &mut mask);
                let a = random_legal(&mask, &mut rng);
                game.step(&mut s, a, &mut rng, &mut rewards);
            }
        }
        group.throughput(Throughput::Elements(states.len() as u64));
        group.bench_function(format!("legal_mask_{players}p"), |b| {
            b.iter(|| {
                for (s, _) in &states {
                    game.legal_mask(s, &mut mask);
                }
                mask[0]
            })
        });
        let mut obs = vec![0f32; game.obs_dim()];
        group.bench_function(format!("observe_{players}p"), |b| {
            b.iter(|| {
                for (s, _) in &states {
                    game.observe(s, 0, &mut obs);
                }
                obs[4]
            })
        });
        let actions: Vec<u32> = states
            .iter()
            .map(|(s, r)| {
                game.legal_mask(s, &mut mask);
                random_legal(&mask, &mut r.clone())
            })
            .collect();
        group.bench_function(format!("step_{players}p"), |b| {
            b.iter(|| {
                for ((s, r), &a) in states.iter().zip(&actions) {
                    let mut s = *s;
                    game.step(&mut s, a, &mut r.clone(), &mut rewards);
                }
                rewards[0]
            })
        });
    }
    group.finish();
}

criterion_group!(benches, batch, kernels);
criterion_main!(benches);
