//! Criterion benches of Lost Cities' single-lane kernels (legal mask, observation, step) over
//! 1024 positions of random games. The batch step is benched with every game's in
//! `benches/games.rs`.

use cardvec::core::policy::random_legal;
use cardvec::core::{Game, LaneRng};
use cardvec::games::lost_cities::{LostCities, N_ACTIONS, OBS_DIM};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

fn kernels(c: &mut Criterion) {
    let game = LostCities::default();
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
                game.observe(s, game.current_player(s), &mut obs);
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

criterion_group!(benches, kernels);
criterion_main!(benches);
