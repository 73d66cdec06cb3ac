//! The batch benchmark every game's criterion bench shares: `VecEnv::step` timed alone
//! under the batched random legal policy (`RandomDriver`), with autoreset, on 1 and 2
//! threads, without and with the f32 observation.

use std::time::Duration;

use cardvec::core::policy::RandomDriver;
use cardvec::core::{EnvOptions, Game, VecEnv};
use criterion::{BenchmarkId, Criterion, Throughput};

/// Benches `lanes` lanes of each `(name, game)` configuration in the criterion group `group`
/// (throughput in lanes stepped). Benchmark ids are `step_mask[_name]/<threads>t` and
/// `step_mask_obs[_name]/<threads>t`.
pub fn batch<G: Game>(c: &mut Criterion, group: &str, lanes: usize, configs: &[(&str, G)]) {
    let mut group = c.benchmark_group(group);
    group.throughput(Throughput::Elements(lanes as u64));
    for (name, game) in configs {
        for threads in [1, 2] {
            for (label, observe) in [("step_mask", false), ("step_mask_obs", true)] {
                let mut options = EnvOptions::new(lanes);
                options.num_threads = Some(threads);
                options.autoreset = true;
                options.observe_on_step = observe;
                let mut env = VecEnv::new(game.clone(), options).unwrap();
                let mut driver = RandomDriver::new(lanes, 0);
                let label = if name.is_empty() {
                    label.to_string()
                } else {
                    format!("{label}_{name}")
                };
                let id = BenchmarkId::new(label, format!("{threads}t"));
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
