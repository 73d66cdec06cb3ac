//! The seed-compatible batch surface (issue 20): the step limit per episode
//! (`EnvOptions::max_steps`) on the always-hit Flip 7 table (18 players, target 2^24,
//! always Hit, pending cards given to oneself), whose rounds can cycle without end, and the
//! `batched_*` names of `VecEnv`.

use cardvec::core::{ActionStatus, EnvOptions, Error, VecEnv};
use cardvec::games::flip7::{Flip7, HIT, TARGET_OFFSET};

const PLAYERS: usize = 18;

fn table() -> Flip7 {
    Flip7::new(PLAYERS, 1 << 24, None).unwrap()
}

/// Always Hit; a pending card goes to the player to act; else the first legal action.
fn always_hit(env: &VecEnv<Flip7>, out: &mut [u32]) {
    let a = PLAYERS + TARGET_OFFSET as usize;
    for (i, act) in out.iter_mut().enumerate() {
        let mask = &env.legal_mask()[i * a..(i + 1) * a];
        let me = TARGET_OFFSET as usize + env.current_player()[i].max(0) as usize;
        *act = if mask[HIT as usize] != 0 {
            HIT
        } else if mask[me] != 0 {
            me as u32
        } else {
            mask.iter().position(|&m| m != 0).unwrap_or(0) as u32
        };
    }
}

fn env(
    n: usize,
    threads: usize,
    chunk: usize,
    max_steps: Option<u32>,
    auto: bool,
) -> VecEnv<Flip7> {
    let options = EnvOptions {
        seed: 7,
        num_threads: Some(threads),
        chunk_size: chunk,
        autoreset: auto,
        max_steps,
        ..EnvOptions::new(n)
    };
    VecEnv::new(table(), options).unwrap()
}

#[test]
fn always_hit_table_never_ends_without_a_limit() {
    let mut e = env(4, 1, 64, None, false);
    let mut actions = vec![0u32; 4];
    for _ in 0..3000 {
        always_hit(&e, &mut actions);
        e.step(&actions).unwrap();
    }
    // The table: no lane has ended after 3,000 steps, and nothing is truncated.
    assert!(e.terminated().iter().all(|&t| !t));
    assert!(e.truncated().iter().all(|&t| !t));
    assert!(e.episode_steps().iter().all(|&s| s == 3000));
}

#[test]
fn max_steps_truncates_then_autoresets() {
    const LIMIT: u32 = 300;
    let n = 8;
    let mut e = env(n, 1, 64, Some(LIMIT), true);
    assert_eq!(e.max_steps(), Some(LIMIT));
    let mut actions = vec![0u32; n];
    for step in 1..=LIMIT {
        always_hit(&e, &mut actions);
        e.step(&actions).unwrap();
        assert!(e
            .illegal()
            .iter()
            .all(|&s| s == ActionStatus::Applied as u8));
        assert!(e.terminated().iter().all(|&t| !t));
        let cut = step == LIMIT;
        assert!(e.truncated().iter().all(|&t| t == cut), "step {step}");
        assert!(e.episode_steps().iter().all(|&s| s == step));
    }
    // The next step resets every truncated lane (episode 1, count 0, not truncated).
    always_hit(&e, &mut actions);
    e.step(&actions).unwrap();
    assert!(e.illegal().iter().all(|&s| s == ActionStatus::Reset as u8));
    assert!(e.truncated().iter().all(|&t| !t));
    assert!(e.episode_steps().iter().all(|&s| s == 0));
    assert!(e.episodes().iter().all(|&ep| ep == 1));
    // Without autoreset, a truncated lane is finished: further actions are no-ops.
    let mut e = env(n, 1, 64, Some(5), false);
    for _ in 0..5 {
        always_hit(&e, &mut actions);
        e.step(&actions).unwrap();
    }
    assert!(e.truncated().iter().all(|&t| t));
    always_hit(&e, &mut actions);
    e.step(&actions).unwrap();
    assert!(e
        .illegal()
        .iter()
        .all(|&s| s == ActionStatus::Finished as u8));
    assert!(e.episode_steps().iter().all(|&s| s == 5));
    // Reset starts the count again.
    e.reset(3);
    assert!(e.truncated().iter().all(|&t| !t) && e.episode_steps().iter().all(|&s| s == 0));
}

#[test]
fn max_steps_results_do_not_depend_on_threads() {
    let run = |threads: usize, chunk: usize| {
        let n = 37;
        let mut e = env(n, threads, chunk, Some(97), true);
        let mut actions = vec![0u32; n];
        let mut out = Vec::new();
        for _ in 0..400 {
            always_hit(&e, &mut actions);
            e.step(&actions).unwrap();
            out.extend(e.snapshot());
            out.extend(e.episode_steps().iter().flat_map(|s| s.to_le_bytes()));
        }
        out
    };
    let base = run(1, 64);
    assert_eq!(base, run(2, 5));
    assert_eq!(base, run(2, 1));
}

#[test]
fn max_steps_zero_is_refused() {
    let options = EnvOptions {
        max_steps: Some(0),
        ..EnvOptions::new(2)
    };
    assert!(matches!(
        VecEnv::new(table(), options),
        Err(Error::OutOfRange { .. })
    ));
}

#[test]
fn batched_names_are_the_same_calls() {
    let (mut a, mut b) = (env(9, 1, 64, None, true), env(9, 2, 4, None, true));
    let mut actions = vec![0u32; 9];
    a.reset(11);
    b.batched_reset(11);
    for _ in 0..200 {
        always_hit(&a, &mut actions);
        assert_eq!(a.legal_mask(), b.batched_legal_mask());
        a.step(&actions).unwrap();
        b.batched_step(&actions).unwrap();
        assert_eq!(a.snapshot(), b.snapshot());
    }
    a.set_observe_on_step(false);
    a.step(&actions).unwrap();
    b.step(&actions).unwrap();
    let obs = a.batched_obs().to_vec();
    assert_eq!(obs, b.obs());
    // A wrong length is the same error under both names.
    assert!(b.batched_step(&[0]).is_err());
}

/// `play_rotated_until` cuts a game off at `max_steps` plies, and a limit the game never
/// reaches changes nothing (the bot matches' `--max-steps`).
#[test]
fn bot_matches_truncate_at_max_steps() {
    use cardvec::core::matches::{head_to_head, play_rotated, play_rotated_until};
    use cardvec::core::spec::GameSpec;
    use cardvec::games::lost_cities::LostCities;
    let game = LostCities::default();
    let a = game.bot("random").unwrap();
    let b = game.bot("random").unwrap();
    let bots = [a.as_ref(), b.as_ref()];
    for g in 0..20 {
        let (rewards, plies) = play_rotated(&game, &bots, 3, g);
        let whole = play_rotated_until(&game, &bots, 3, g, Some(plies));
        assert_eq!(
            (whole.rewards, whole.plies, whole.truncated),
            (rewards, plies, false)
        );
        let cut = play_rotated_until(&game, &bots, 3, g, Some(plies - 1));
        assert_eq!((cut.plies, cut.truncated), (plies - 1, true));
    }
    let r = head_to_head(&game, bots[0], bots[1], 40, 3, Some(10));
    assert_eq!((r.truncated, r.plies.mean()), (40, 10.0));
    assert_eq!(
        head_to_head(&game, bots[0], bots[1], 40, 3, None).truncated,
        0
    );
}
