//! Criterion benches of Flip 7's single-lane kernels (legal mask, observation, step) at 3 and
//! 8 players over 1024 positions of random games. The batch step is benched with every
//! game's in `benches/games.rs`.

use cardvec::core::policy::random_legal;
use cardvec::core::{Game, LaneRng};
use cardvec::games::flip7::Flip7;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

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

criterion_group!(benches, kernels);
criterion_main!(benches);
