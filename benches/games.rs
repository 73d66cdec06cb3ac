//! Criterion benches of every registered game's batch step, through the registry: `VecEnv::step`
//! timed alone at 4096 lanes under the batched random legal policy (`RandomDriver`), with
//! autoreset, on 1 and 2 threads, without and with the f32 observation (step+mask and
//! step+mask+obs; throughput in lanes stepped), for each game's default configuration and the
//! listed configuration with the most players (when it has more than the default).
//!
//! Benchmark ids: `<game>_batch/step_mask_<N>p/<threads>t` and
//! `<game>_batch/step_mask_obs_<N>p/<threads>t`. Run: `cargo bench --bench games` (one game:
//! `cargo bench --bench games -- flip7_batch`). Single-lane kernels and game-specific
//! benches are in the per-game benches.

use std::time::Duration;

use cardvec::core::policy::RandomDriver;
use cardvec::core::spec::{GameSpec, Options};
use cardvec::core::{EnvOptions, VecEnv};
use cardvec::registry::{self, Visitor};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

/// Lanes stepped together.
const LANES: usize = 4096;

/// The configurations benched: the default one, and the listed one with the most players
/// if it has more (the first listed among equals).
fn bench_configurations<G: GameSpec>() -> Vec<G> {
    let configure = |text: &str| {
        let options = Options::parse(G::INFO.options, text)
            .unwrap_or_else(|e| panic!("{}: {text:?}: {e}", G::INFO.id));
        G::configure(&options).unwrap_or_else(|e| panic!("{}: {text:?}: {e}", G::INFO.id))
    };
    let default = configure("");
    let largest = G::INFO
        .configurations
        .iter()
        .map(|text| configure(text))
        .fold(None::<G>, |best, g| match best {
            Some(b) if b.num_players() >= g.num_players() => Some(b),
            _ => Some(g),
        });
    let mut out = vec![default.clone()];
    if let Some(g) = largest.filter(|g| g.num_players() > default.num_players()) {
        out.push(g);
    }
    out
}

/// Benches the batch step of one game (see the module documentation).
struct Batch<'c> {
    c: &'c mut Criterion,
}

impl Visitor for Batch<'_> {
    type Output = ();
    fn visit<G: GameSpec>(&mut self) {
        let mut group = self
            .c
            .benchmark_group(format!("{}_batch", G::INFO.id.replace('-', "_")));
        group.throughput(Throughput::Elements(LANES as u64));
        for game in bench_configurations::<G>() {
            let players = game.num_players();
            for threads in [1, 2] {
                for (label, observe) in [("step_mask", false), ("step_mask_obs", true)] {
                    let mut options = EnvOptions::new(LANES);
                    options.num_threads = Some(threads);
                    options.autoreset = true;
                    options.observe_on_step = observe;
                    let mut env = VecEnv::new(game.clone(), options).unwrap();
                    let mut driver = RandomDriver::new(LANES, 0).unwrap();
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
}

fn batch(c: &mut Criterion) {
    registry::visit_all(&mut Batch { c });
}

criterion_group!(benches, batch);
criterion_main!(benches);
