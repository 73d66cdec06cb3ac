//! Criterion benches of Lost Cities: batch step+mask and step+mask+observation at 8192
//! lanes on 1 and 2 threads (random legal policy, autoreset; only `step` is timed), and the
//! single-lane kernels (legal mask, observation, step).

mod common;

use cardvec::core::policy::random_legal;
use cardvec::core::{Game, LaneRng};
use cardvec::games::lost_cities::{LostCities, N_ACTIONS, OBS_DIM};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

const LANES: usize = 8192;

fn batch(c: &mut Criterion) {
    common::batch(c, "lost_cities_batch", LANES, &[("", LostCities)]);
}

fn kernels(c: &mut Criterion) {
    let game = LostCities;
    let mut rng = LaneRng::from_seed(3);
    let mut states = Vec::new();
    let mut mask = [0u8; N_ACTIONS];
    let mut rewards = [0f32; 2];
    while states.len() < 1024 {
        let mut s = game.reset(&mut rng);
        while !s.is_over() && states.len() < 1024 {
            states.push(s);
            game.legal_mask(&s, &mut mask);
            let a = random_legal(&mask, &mut rng);
            game.step(&mut s, a, &mut rng, &mut rewards);
        }
    }
    let mut group = c.benchmark_group("lost_cities_lane");
    group.throughput(Throughput::Elements(states.len() as u64));
    group.bench_function("legal_mask", |b| {
        b.iter(|| {
            for s in &states {
                game.legal_mask(s, &mut mask);
                std::hint::black_box(&mask);
            }
        })
    });
    let mut obs = [0f32; OBS_DIM];
    group.bench_function("observe", |b| {
        b.iter(|| {
            for s in &states {
                game.observe(s, s.to_move as usize, &mut obs);
                std::hint::black_box(&obs);
            }
        })
    });
    let first_legal: Vec<u32> = states
        .iter()
        .map(|s| {
            game.legal_mask(s, &mut mask);
            mask.iter().position(|&m| m == 1).unwrap() as u32
        })
        .collect();
    group.bench_function("step", |b| {
        b.iter(|| {
            for (s, &a) in states.iter().zip(&first_legal) {
                let mut t = *s;
                game.step(&mut t, a, &mut rng, &mut rewards);
                std::hint::black_box(&t);
            }
        })
    });
    group.finish();
}

criterion_group!(benches, batch, kernels);
criterion_main!(benches);
