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

/// A legal action for lane `lane` of a mask row, drawn from `rng` (the lane's own policy
/// stream, so a lane of a batch and a one-lane environment choose alike).
fn pick(mask: &[u8], rng: &mut cardvec::core::LaneRng) -> u32 {
    let legal: Vec<u32> = (0..mask.len() as u32)
        .filter(|&a| mask[a as usize] != 0)
        .collect();
    if legal.is_empty() {
        0
    } else {
        legal[rng.below(legal.len() as u32) as usize]
    }
}

const SEEDS: [u64; 5] = [0, 3, u64::MAX, 3, 1 << 40];

/// `reset_seeds`: each lane of a batch plays exactly the games (states, rewards, flags,
/// across autoresets) that lane 0 of a one-lane environment reset with that lane's seed
/// plays, for every registered game, at 1 and 3 threads and several chunk sizes.
#[test]
fn per_lane_seeds_play_what_a_one_lane_env_with_that_seed_plays() {
    use cardvec::core::LaneRng;
    use cardvec::registry;
    let n = SEEDS.len();
    for id in registry::ids() {
        // 151's matches are long: one round each, so that lanes autoreset within the test.
        let pairs = || -> Vec<(String, cardvec::core::OptionValue)> {
            match id {
                "151" => vec![("target_score".into(), cardvec::core::OptionValue::Int(0))],
                _ => Vec::new(),
            }
        };
        for (threads, chunk) in [(1, 64), (3, 1), (2, 2)] {
            let options = EnvOptions {
                num_threads: Some(threads),
                chunk_size: chunk,
                autoreset: true,
                ..EnvOptions::new(n)
            };
            let mut batch = registry::make(id, pairs(), options).unwrap();
            batch.reset_seeds(&SEEDS).unwrap();
            let mut singles: Vec<_> = SEEDS
                .iter()
                .map(|&s| {
                    let o = EnvOptions {
                        num_threads: Some(1),
                        autoreset: true,
                        ..EnvOptions::new(1)
                    };
                    let mut e = registry::make(id, pairs(), o).unwrap();
                    e.reset(s);
                    e
                })
                .collect();
            let mut policies: Vec<LaneRng> = SEEDS.iter().map(|&s| LaneRng::from_seed(s)).collect();
            let (a, p) = (batch.num_actions(), batch.num_players());
            let mut ends = 0;
            for step in 0..400 {
                for (i, single) in singles.iter().enumerate() {
                    assert_eq!(
                        batch.state_bytes(i).unwrap(),
                        single.state_bytes(0).unwrap(),
                        "{id}: lane {i} (seed {}) differs at step {step} ({threads} threads)",
                        SEEDS[i]
                    );
                    assert_eq!(
                        &batch.rewards()[i * p..(i + 1) * p],
                        single.rewards(),
                        "{id}"
                    );
                    assert_eq!(batch.terminated()[i], single.terminated()[0], "{id}");
                    assert_eq!(batch.episodes()[i], single.episodes()[0], "{id}");
                }
                let actions: Vec<u32> = (0..n)
                    .map(|i| pick(&batch.legal_mask()[i * a..(i + 1) * a], &mut policies[i]))
                    .collect();
                batch.step(&actions).unwrap();
                for (i, single) in singles.iter_mut().enumerate() {
                    single.step(&actions[i..i + 1]).unwrap();
                }
                ends += batch.terminated().iter().filter(|&&t| t).count();
            }
            assert!(ends > 0, "{id}: no game ended, so no autoreset was checked");
            // Lanes 1 and 3 share a seed: the same games.
            assert_eq!(
                batch.state_bytes(1).unwrap(),
                batch.state_bytes(3).unwrap(),
                "{id}"
            );
        }
    }
}

/// A wrong number of seeds is an error that changes nothing; a scalar `reset(seed)`
/// afterwards is today's reset (lane `i` on the stream `(seed, i)`), per-lane keys gone.
#[test]
fn per_lane_seeds_of_the_wrong_length_change_nothing_and_a_scalar_reset_undoes_them() {
    use cardvec::registry;
    let options = EnvOptions {
        num_threads: Some(2),
        ..EnvOptions::new(4)
    };
    let mut env = registry::make("flip7", Vec::new(), options.clone()).unwrap();
    env.reset(11);
    env.step(&[0, 0, 0, 0]).unwrap();
    let before = env.snapshot();
    for bad in [&[1u64, 2, 3][..], &[1, 2, 3, 4, 5], &[]] {
        let e = env.reset_seeds(bad).unwrap_err();
        assert!(
            matches!(
                e,
                Error::Length {
                    what: "seeds",
                    expected: 4,
                    ..
                }
            ),
            "{e}"
        );
        assert_eq!(env.snapshot(), before);
    }
    env.reset_seeds(&[5, 6, 7, 8]).unwrap();
    env.reset(11);
    let mut fresh = registry::make("flip7", Vec::new(), options).unwrap();
    fresh.reset(11);
    for _ in 0..50 {
        assert_eq!(env.snapshot(), fresh.snapshot());
        let a: Vec<u32> = (0..4)
            .map(|i| {
                if env.legal_mask()[i * env.num_actions()] != 0 {
                    0
                } else {
                    1
                }
            })
            .collect();
        env.step(&a).unwrap();
        fresh.step(&a).unwrap();
    }
}

/// The learner view: lane `l` after `reset_seeds` plays what lane 0 of a one-lane view
/// reset with `seeds[l]` plays (its games and the bots' moves; the learner's seat is fixed
/// here, as `LearnerSeat::Rotate` counts from the lane's index), at 1 and 3 threads.
#[test]
fn learner_lanes_with_their_own_seeds_play_what_one_lane_views_play() {
    use cardvec::core::learner::{LearnerSeat, Opponents};
    use cardvec::core::LaneRng;
    use cardvec::registry;
    let n = SEEDS.len();
    for id in ["kuhn", "leduc", "flip7", "lost-cities"] {
        for threads in [1, 3] {
            let make = |lanes: usize, threads: usize| {
                let o = EnvOptions {
                    num_threads: Some(threads),
                    chunk_size: 2,
                    ..EnvOptions::new(lanes)
                };
                let bots = Opponents::Every("random".into());
                registry::make_learner(id, Vec::new(), &bots, LearnerSeat::Fixed(0), o).unwrap()
            };
            let mut batch = make(n, threads);
            batch.reset_seeds(&SEEDS).unwrap();
            let mut singles: Vec<_> = SEEDS
                .iter()
                .map(|&s| {
                    let mut e = make(1, 1);
                    e.reset(s);
                    e
                })
                .collect();
            let a = batch.num_actions();
            let mut policies: Vec<LaneRng> = SEEDS.iter().map(|&s| LaneRng::from_seed(s)).collect();
            let mut ends = 0;
            for step in 0..300 {
                for (i, single) in singles.iter().enumerate() {
                    let d = batch.obs_dim();
                    assert_eq!(
                        &batch.obs()[i * d..(i + 1) * d],
                        single.obs(),
                        "{id}: lane {i}, step {step}"
                    );
                    assert_eq!(
                        batch.rewards()[i],
                        single.rewards()[0],
                        "{id}: lane {i}, step {step}"
                    );
                    assert_eq!(batch.episodes()[i], single.episodes()[0], "{id}: lane {i}");
                }
                let actions: Vec<u32> = (0..n)
                    .map(|i| pick(&batch.legal_mask()[i * a..(i + 1) * a], &mut policies[i]))
                    .collect();
                batch.step(&actions).unwrap();
                for (i, single) in singles.iter_mut().enumerate() {
                    single.step(&actions[i..i + 1]).unwrap();
                }
                ends += batch.terminated().iter().filter(|&&t| t).count();
            }
            assert!(ends > 0, "{id}: no game ended");
            let e = batch.reset_seeds(&SEEDS[..2]).unwrap_err();
            assert!(matches!(e, Error::Length { .. }), "{e}");
        }
    }
}
