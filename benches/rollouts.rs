//! Criterion bench of the rollouts inside the `pimc` search bot: the same 640 Lost Cities
//! rollouts (a decision's 16 legal actions x 40 worlds of one mid-game state, the worlds
//! dealt by the game's determinization) played to the end by a playout bot, as the lanes
//! of one batch environment on one worker (`rollout_returns`) and one state at a time
//! through `Game::step` and `Bot::act` (`rollout_returns_serial`), for the `random` and
//! `safe-heuristic` playouts. Both return the same numbers (tests/search.rs); the ratio of
//! their times is the batch's gain. Run: `cargo bench --bench rollouts`.

use cardvec::core::rollout::{rollout_returns, rollout_returns_serial};
use cardvec::core::spec::GameSpec;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

#[path = "common/rollout_case.rs"]
mod rollout_case;

fn rollouts(c: &mut Criterion) {
    let (game, starts) = rollout_case::lost_cities_decision(40);
    let mut group = c.benchmark_group("lost_cities_rollouts");
    group.throughput(Throughput::Elements(starts.len() as u64));
    group.sample_size(10);
    for playout in ["random", "safe-heuristic"] {
        let bot = game.bot(playout).unwrap();
        group.bench_function(format!("batched/{playout}"), |b| {
            b.iter(|| rollout_returns(&game, &starts, &*bot, 3, Some(1)).unwrap())
        });
        group.bench_function(format!("serial/{playout}"), |b| {
            b.iter(|| rollout_returns_serial(&game, &starts, &*bot, 3).unwrap())
        });
    }
    group.finish();
}

criterion_group!(benches, rollouts);
criterion_main!(benches);
