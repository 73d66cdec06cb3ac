//! Criterion benches of 151: batch step+mask and step+mask+observation at 4096 lanes on 1
//! and 2 threads (2 and 4 players, random legal policy, autoreset; only `step` is timed),
//! and the single-lane kernels (legal mask, observation, a round deal with CPython's
//! shuffle).

mod common;

use cardvec::core::Game;
use cardvec::games::i151::view::OBS_DIM;
use cardvec::games::i151::{I151, N_ACTIONS};
use criterion::{criterion_group, criterion_main, Criterion};

const LANES: usize = 4096;

fn batch(c: &mut Criterion) {
    let configs = [("2p", I151::new(2).unwrap()), ("4p", I151::new(4).unwrap())];
    common::batch(c, "i151_batch", LANES, &configs);
}

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

criterion_group!(benches, batch, kernels);
criterion_main!(benches);
