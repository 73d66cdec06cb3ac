//! Criterion bench of the rollouts inside the `pimc` search bot: the same 640 Lost Cities
//! rollouts (a decision's 16 legal actions x 40 worlds of one mid-game state, the worlds
//! dealt by the game's determinization) played to the end by a playout bot, as the lanes
//! of one batch environment on one worker (`rollout_returns`) and one state at a time
//! through `Game::step` and `Bot::act` (`rollout_returns_serial`), for the `random` and
//! `safe-heuristic` playouts. Both return the same numbers (tests/search.rs); the ratio of
//! their times is the batch's gain. Run: `cargo bench --bench rollouts`.

use cardvec::core::policy::random_legal;
use cardvec::core::rollout::{rollout_returns, rollout_returns_serial};
use cardvec::core::spec::GameSpec;
use cardvec::core::{Game, LaneRng};
use cardvec::games::lost_cities::{LostCities, N_ACTIONS};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

fn rollouts(c: &mut Criterion) {
    let game = LostCities::default();
    let mut rng = LaneRng::from_seed(11);
    let mut state = game.reset(&mut rng);
    let mut mask = [0u8; N_ACTIONS];
    let mut rewards = [0f32; 2];
    for _ in 0..20 {
        game.legal_mask(&state, &mut mask);
        game.step(
            &mut state,
            random_legal(&mask, &mut rng),
            &mut rng,
            &mut rewards,
        );
    }
    game.legal_mask(&state, &mut mask);
    let legal: Vec<u32> = (0..N_ACTIONS as u32)
        .filter(|&a| mask[a as usize] != 0)
        .take(16)
        .collect();
    let det = LostCities::determinizer().unwrap();
    let seat = game.current_player(&state);
    let starts: Vec<_> = legal
        .iter()
        .flat_map(|&a| {
            (0..40u64).map(move |w| (det(&game, &state, seat, &mut LaneRng::for_lane(5, w, 0)), a))
        })
        .collect();
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
