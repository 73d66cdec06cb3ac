//! Criterion bench of a policy file's batched inference (`cardvec::agents::policy_file`):
//! the forward pass of the PPO examples' actor widths for Lost Cities (454 → 256 → 256 →
//! 96, ReLU, with the input normalization) over batches of 1, 16, 64 and 256 observation
//! rows on one thread (`Mlp::forward`: one `matrixmultiply` product per layer), and the
//! whole greedy bot over 256 Lost Cities lanes (`VecEnv::bot_actions` on one worker:
//! observing, the forward pass, the masked argmax). Throughput is rows (lanes) per second
//! on one core. Run: `cargo bench --bench policy`; figures in docs/policies.md.

use std::sync::Arc;

use cardvec::agents::policy_file::testing::{bytes, metadata, mlp_tensors, value};
use cardvec::agents::policy_file::{PolicyBot, PolicyFile};
use cardvec::core::{EnvOptions, Game, VecEnv};
use cardvec::games::lost_cities::{LostCities, ObsLayout};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

fn policy(game: &LostCities) -> PolicyFile {
    let d = game.obs_dim();
    let mut tensors = mlp_tensors(&[d, 256, 256, game.num_actions()]);
    tensors.push(("obs_mean".into(), vec![d], vec![0.05; d]));
    tensors.push(("obs_std".into(), vec![d], vec![0.5; d]));
    let p =
        PolicyFile::from_bytes(&bytes(&tensors, metadata("lost-cities", "{}", "relu"))).unwrap();
    p.check_game(game).unwrap();
    p
}

fn inference(c: &mut Criterion) {
    let game = LostCities::new(ObsLayout::CardMajor);
    let p = policy(&game);
    let d = game.obs_dim();
    let mut group = c.benchmark_group("policy_forward_lost_cities");
    for rows in [1usize, 16, 64, 256] {
        let obs: Vec<f32> = (0..rows * d)
            .map(|i| value(7, i as u64, 1.0).abs())
            .collect();
        let mut out = Vec::new();
        group.throughput(Throughput::Elements(rows as u64));
        group.bench_function(format!("rows/{rows}"), |b| {
            b.iter(|| p.mlp.forward(&obs, rows, &mut out))
        });
    }
    group.finish();

    let lanes = 256;
    let mut o = EnvOptions::new(lanes);
    o.num_threads = Some(1);
    o.chunk_size = lanes;
    let mut env = VecEnv::new(game, o).unwrap();
    env.reset(3);
    let bot = PolicyBot::<LostCities>::new(Arc::new(p), false, "bench");
    let mut out = vec![0i64; lanes];
    let mut group = c.benchmark_group("policy_bot_lost_cities");
    group.throughput(Throughput::Elements(lanes as u64));
    group.bench_function("greedy/256_lanes", |b| {
        b.iter(|| env.bot_actions(&bot, None, 1, &mut out).unwrap())
    });
    group.finish();
}

criterion_group!(benches, inference);
criterion_main!(benches);
