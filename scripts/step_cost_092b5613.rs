//! `examples/step_cost.rs` for commit 092b5613 (before the registry redesign), Flip 7 only:
//! the same loop (one thread, autoreset, the random legal policy of `RandomDriver` with seed
//! 0, callgrind instrumentation around each `VecEnv::step` only) written against that
//! commit's API, so that its instruction, branch and cache counts compare with today's
//! `step_cost flip7 ...` step for step (both play the same 129,733 live steps at 512 lanes ×
//! 256 steps, 3 seats). Not part of any crate; to use it (docs/performance.md, "Flip 7 with
//! three seats under callgrind against 092b5613"):
//!
//! ```text
//! git worktree add --detach /tmp/w092 092b5613
//! mkdir -p /tmp/w092/examples/step_cost
//! cp scripts/step_cost_092b5613.rs /tmp/w092/examples/step_cost.rs
//! cp examples/step_cost/callgrind.rs /tmp/w092/examples/step_cost/
//! (cd /tmp/w092 && RUSTFLAGS="-C target-cpu=x86-64-v2" cargo build --release --example step_cost)
//! valgrind --tool=callgrind --instr-atstart=no /tmp/w092/target/release/examples/step_cost \
//!     flip7 f32 --players 3 --envs 512 --steps 256
//! ```
//!
//! (`RUSTFLAGS` as this checkout's `.cargo/config.toml`, which a worktree outside it does not
//! read.) Arguments: `flip7 mask|f32 --players P --envs N --steps S`, in that order.

use cardvec::core::policy::RandomDriver;
use cardvec::core::{ActionStatus, EnvOptions, VecEnv};
use cardvec::games::flip7::Flip7;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // step_cost flip7 MODE --players P --envs N --steps S (the flags in that order)
    let mode = args[1].clone();
    let players: usize = args[3].parse().unwrap();
    let envs: usize = args[5].parse().unwrap();
    let steps: usize = args[7].parse().unwrap();
    let game = Flip7::new(players, 200, None).unwrap();
    let mut options = EnvOptions::new(envs);
    options.num_threads = Some(1);
    options.autoreset = true;
    options.observe_on_step = mode == "f32";
    let mut env = VecEnv::new(game, options).unwrap();
    let mut driver = RandomDriver::new(envs, 0);
    let mut live = 0u64;
    for _ in 0..steps {
        driver.choose(&env);
        callgrind::start_instrumentation();
        let stepped = env.step(driver.actions());
        callgrind::stop_instrumentation();
        stepped.unwrap();
        live += env.illegal().iter().filter(|&&s| s == ActionStatus::Applied as u8).count() as u64;
    }
    println!("live_steps={live}");
}

#[path = "step_cost/callgrind.rs"]
mod callgrind;
