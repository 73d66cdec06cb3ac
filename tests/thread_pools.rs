//! Thread pools are shared by worker count across the process: many environments start
//! at most one pool per distinct `num_threads` (issue 27: 50 environments used to start 50
//! pools). One test in its own binary, so that no other test's threads are counted.
#![cfg(target_os = "linux")]

use cardvec::core::{resolve_threads, EnvOptions, LearnerSeat, Opponents, MAX_THREADS};
use cardvec::registry;

/// The threads of this process (`/proc/self/task`).
fn threads() -> usize {
    std::fs::read_dir("/proc/self/task").unwrap().count()
}

#[test]
fn two_hundred_environments_share_one_pool_per_thread_count() {
    let before = threads();
    let counts = [None, Some(1), Some(2)];
    let mut envs = Vec::new();
    let mut learners = Vec::new();
    for i in 0..200 {
        let mut options = EnvOptions::new(4);
        options.seed = i as u64;
        options.num_threads = counts[i % counts.len()];
        let id = registry::ids()[i % registry::ids().len()];
        let mut env = registry::make(id, Vec::new(), options.clone()).unwrap();
        // Use the pool, so that its workers exist.
        env.reset(i as u64);
        envs.push(env);
        if i % 10 == 0 {
            let learner = registry::make_learner(
                id,
                Vec::new(),
                &Opponents::Every("random".into()),
                LearnerSeat::Fixed(0),
                options,
            )
            .unwrap();
            learners.push(learner);
        }
    }
    let mut distinct: Vec<usize> = counts.iter().map(|&c| resolve_threads(c)).collect();
    distinct.sort_unstable();
    distinct.dedup();
    let bound: usize = distinct.iter().sum();
    let started = threads() - before;
    assert!(
        started <= bound,
        "200 environments and 20 learner views with num_threads in {counts:?} started \
         {started} threads; at most {bound} (one pool per distinct count: {distinct:?})"
    );
    // An out-of-range count is an error that builds nothing.
    let mut options = EnvOptions::new(4);
    options.num_threads = Some(MAX_THREADS + 1);
    let err = match registry::make("kuhn", Vec::new(), options) {
        Ok(_) => panic!("num_threads = MAX_THREADS + 1 was accepted"),
        Err(e) => e,
    };
    assert!(err.to_string().contains("num_threads"), "{err}");
    assert_eq!(threads() - before, started);
}
