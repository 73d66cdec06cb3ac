//! Criterion bench of no-limit hold'em whole hands on one lane on one thread (random legal
//! policy over the default action abstraction; hands/s, the figure to set beside pokerkit's
//! hands/s) with 2 and 6 seats. The batch step is benched with every game's in
//! `benches/games.rs`.

use std::time::Duration;

use cardvec::core::policy::random_legal;
use cardvec::core::{Game, LaneRng};
use cardvec::games::holdem::NoLimitHoldem;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

const HANDS: u64 = 1000;

fn hands(c: &mut Criterion) {
    let mut group = c.benchmark_group("holdem_hands");
    group.throughput(Throughput::Elements(HANDS));
    for seats in [2, 6] {
        let game = NoLimitHoldem::standard(seats).unwrap();
        let mut rng = LaneRng::from_seed(11);
        let mut mask = vec![0u8; game.num_actions()];
        let mut rewards = vec![0f32; seats];
        group.bench_function(format!("full_hands_{seats}p_1t"), |b| {
            b.iter(|| {
                let mut steps = 0u64;
                for _ in 0..HANDS {
                    let mut s = game.reset(&mut rng);
                    while !s.is_over() {
                        game.legal_mask(&s, &mut mask);
                        let a = random_legal(&mask, &mut rng);
                        game.step(&mut s, a, &mut rng, &mut rewards);
                        steps += 1;
                    }
                }
                steps
            })
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    targets = hands
}
criterion_main!(benches);
