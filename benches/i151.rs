//! Criterion benches of 151's single-lane kernels: legal mask, observation, and a round deal
//! with CPython's shuffle. The batch step is benched with every game's in
//! `benches/games.rs`.

use cardvec::core::Game;
use cardvec::games::i151::{I151, N_ACTIONS, OBS_DIM};
use criterion::{criterion_group, criterion_main, Criterion};

fn kernels(c: &mut Criterion) {
    let game = I151::new(2).unwrap();
    let states: Vec<_> = (0..64).map(|i| game.reset_with_match_seed(i)).collect();
    let mut mask = [0u8; N_ACTIONS];
    let mut obs = [0f32; OBS_DIM];
    c.bench_function("i151_legal_mask", |b| {
        b.iter(|| {
            for s in &states {
                game.legal_mask(std::hint::black_box(s), &mut mask);
            }
        })
    });
    c.bench_function("i151_observe", |b| {
        b.iter(|| {
            for s in &states {
                game.observe(std::hint::black_box(s), 0, &mut obs);
            }
        })
    });
    c.bench_function("i151_round_deck_cpython_shuffle", |b| {
        let mut seed = 0i64;
        b.iter(|| {
            seed += 1;
            I151::round_deck(std::hint::black_box(seed), 1)
        })
    });
}

criterion_group!(benches, kernels);
criterion_main!(benches);
