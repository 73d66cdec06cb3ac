//! Fork safety from Rust: an environment and the shared pool used before `fork()` work in
//! the child, with the results the parent gets. (The Python tests,
//! `python/tests/test_reliability_fork.py`, check the same through `os.fork()` and a
//! `multiprocessing` pool.)
//!
//! The child only steps environments and computes; it reports through its exit code and
//! leaves with `_exit`, never running the test harness again. The parent waits for it with
//! a deadline and kills it when the deadline passes, so a regression (a child that hangs)
//! fails the test instead of hanging it; the deadline guards a hang, it measures no speed.
#![cfg(target_os = "linux")]

use std::time::{Duration, Instant};

use cardvec::core::policy::random_legal;
use cardvec::core::{DynEnv, EnvOptions, ForkSafePool, LaneRng};
use cardvec::poker::{equity, EquityOptions, Method, Range};
use cardvec::registry;

/// How long a child may take before it counts as hung.
const DEADLINE: Duration = Duration::from_secs(120);

/// Steps `env` `steps` times with random legal actions from `seed`; the snapshot after.
fn play(env: &mut dyn DynEnv, seed: u64, steps: usize) -> Vec<u8> {
    let mut rng = LaneRng::from_seed(seed);
    let (n, a) = (env.num_envs(), env.num_actions());
    let mut actions = vec![0u32; n];
    for _ in 0..steps {
        for (lane, action) in actions.iter_mut().enumerate() {
            *action = random_legal(&env.legal_mask()[lane * a..(lane + 1) * a], &mut rng);
        }
        env.step(&actions).unwrap();
    }
    env.snapshot()
}

fn monte_carlo_wins() -> Vec<u64> {
    let players = [Range::parse("AsAh").unwrap(), Range::all(), Range::all()];
    let options = EquityOptions {
        method: Method::MonteCarlo,
        trials: 50_000,
        seed: 4,
        ..Default::default()
    };
    let report = ForkSafePool::shared().install(|| equity(&players, &options).unwrap());
    report.players.iter().map(|p| p.wins).collect()
}

/// Runs `child` in a forked process; its exit code (0: the child's checks held).
fn in_child(child: impl FnOnce() -> bool) -> i32 {
    // SAFETY: the child runs only `child` (allocation and thread creation are fork-safe with
    // glibc) and leaves with `_exit`, without unwinding into the test harness.
    let pid = unsafe { libc::fork() };
    assert!(pid >= 0, "fork failed");
    if pid == 0 {
        let ok = std::panic::catch_unwind(std::panic::AssertUnwindSafe(child)).unwrap_or(false);
        // SAFETY: ends the child at once.
        unsafe { libc::_exit(if ok { 0 } else { 1 }) };
    }
    let started = Instant::now();
    let mut status = 0;
    loop {
        // SAFETY: waits for our own child without blocking.
        let done = unsafe { libc::waitpid(pid, &mut status, libc::WNOHANG) };
        if done == pid {
            break;
        }
        if started.elapsed() > DEADLINE {
            // SAFETY: kills and reaps our own child.
            unsafe {
                libc::kill(pid, libc::SIGKILL);
                libc::waitpid(pid, &mut status, 0);
            }
            panic!("the forked child hung (still running after {DEADLINE:?})");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(libc::WIFEXITED(status), "the child died: status {status}");
    libc::WEXITSTATUS(status)
}

#[test]
fn an_env_and_the_shared_pool_used_before_a_fork_work_in_the_child() {
    let make = |threads| {
        let mut options = EnvOptions::new(96);
        options.num_threads = threads;
        options.seed = 3;
        options.chunk_size = 8;
        options.autoreset = true;
        let mut env = registry::make("lost-cities", vec![], options).unwrap();
        play(env.as_mut(), 1, 20); // the pool has run work before the fork
        env
    };
    let mut envs = [make(Some(1)), make(Some(2)), make(None)];
    let wins = monte_carlo_wins();
    // What the child must find: the same environments played on in the parent.
    let mut twins = [make(Some(1)), make(Some(2)), make(None)];
    let expected: Vec<Vec<u8>> = twins.iter_mut().map(|e| play(e.as_mut(), 2, 30)).collect();
    let code = in_child(|| {
        let same_play = envs
            .iter_mut()
            .zip(&expected)
            .all(|(env, want)| play(env.as_mut(), 2, 30) == *want);
        same_play && monte_carlo_wins() == wins
    });
    assert_eq!(code, 0, "the child's results differ from the parent's");
    // The parent's pools are untouched by the child's rebuild.
    for (env, want) in envs.iter_mut().zip(&expected) {
        assert_eq!(play(env.as_mut(), 2, 30), *want);
    }
}
