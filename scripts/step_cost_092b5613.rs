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
//! mkdir -p /tmp/w092/examples && cp scripts/step_cost_092b5613.rs /tmp/w092/examples/step_cost.rs
//! (cd /tmp/w092 && cargo build --release --example step_cost)
//! valgrind --tool=callgrind --instr-atstart=no /tmp/w092/target/release/examples/step_cost \
//!     flip7 f32 --players 3 --envs 512 --steps 256
//! ```
//!
//! Arguments: `flip7 mask|f32 --players P --envs N --steps S`, in that order.

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

/// Callgrind's client requests (`valgrind/callgrind.h`): the magic instruction sequence that
/// does nothing outside valgrind. Only on x86_64; elsewhere the requests do nothing.
mod callgrind {
    /// `VG_USERREQ_TOOL_BASE('C', 'T')`.
    const BASE: u64 = (b'C' as u64) << 24 | (b'T' as u64) << 16;
    const START_INSTRUMENTATION: u64 = BASE + 4;
    const STOP_INSTRUMENTATION: u64 = BASE + 5;

    #[cfg(target_arch = "x86_64")]
    fn request(code: u64) {
        let args = [code, 0u64, 0, 0, 0, 0];
        // SAFETY: the sequence rotates rdi by 128 bits in all (no change) and exchanges rbx
        // with itself; valgrind recognises it and reads `args`, which outlives the call.
        unsafe {
            std::arch::asm!(
                "rol rdi, 3", "rol rdi, 13", "rol rdi, 61", "rol rdi, 51", "xchg rbx, rbx",
                in("rax") args.as_ptr(),
                inout("rdx") 0u64 => _,
                options(nostack)
            );
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    fn request(_code: u64) {}

    pub fn start_instrumentation() {
        request(START_INSTRUMENTATION)
    }
    pub fn stop_instrumentation() {
        request(STOP_INSTRUMENTATION)
    }
}
