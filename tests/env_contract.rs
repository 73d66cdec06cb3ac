//! The batch contract of the core environment, checked on Lost Cities: determinism across
//! threads and chunk sizes, no-op semantics, autoreset, lane resets, gather, and input
//! validation that changes nothing.

mod common;

use cardvec::core::policy::random_legal;
use cardvec::core::{ActionStatus, EnvOptions, Error, Game, LaneRng, VecEnv};
use cardvec::games::lost_cities::{LostCities, N_ACTIONS, OBS_DIM};
use common::assert_same_for_any_threads_and_chunks;

fn env(n: usize, threads: usize, chunk: usize, autoreset: bool) -> VecEnv<LostCities> {
    let mut o = EnvOptions::new(n);
    o.seed = 42;
    o.num_threads = Some(threads);
    o.chunk_size = chunk;
    o.autoreset = autoreset;
    VecEnv::new(LostCities, o).unwrap()
}

#[test]
fn results_do_not_depend_on_threads_or_chunk_size() {
    for autoreset in [false, true] {
        assert_same_for_any_threads_and_chunks(
            |threads, chunk| env(97, threads, chunk, autoreset),
            150,
            200,
            9,
            &[(2, 64), (2, 1), (3, 7), (2, 10_000), (1, 5)],
        );
    }
}

#[test]
fn same_seed_same_games_and_new_seed_new_games() {
    let mut a = env(16, 2, 4, false);
    let first = a.snapshot();
    a.reset(43);
    assert_ne!(first, a.snapshot());
    a.reset(42);
    assert_eq!(first, a.snapshot());
}

#[test]
fn illegal_action_is_a_flagged_noop() {
    let mut e = env(4, 1, 64, false);
    let before = e.states().to_vec();
    let obs = e.obs().to_vec();
    let illegal = (0..N_ACTIONS as u32)
        .find(|&a| e.legal_mask()[a as usize] == 0)
        .unwrap();
    e.step(&[illegal, 96, u32::MAX, 1000]).unwrap();
    assert!(e
        .illegal()
        .iter()
        .all(|&s| s == ActionStatus::Illegal as u8));
    assert_eq!(e.states(), &before[..]);
    assert_eq!(e.obs(), &obs[..]);
    assert!(e.rewards().iter().all(|&r| r == 0.0));
}

fn play_to_end(e: &mut VecEnv<LostCities>) {
    let mut rng = LaneRng::from_seed(1);
    for _ in 0..10_000 {
        if e.terminated()[0] || e.truncated()[0] {
            return;
        }
        let a = random_legal(&e.legal_mask()[..N_ACTIONS], &mut rng);
        e.step(&[a]).unwrap();
        assert_eq!(e.illegal()[0], ActionStatus::Applied as u8);
    }
    panic!("game did not end");
}

#[test]
fn finished_lane_is_a_noop_without_autoreset() {
    let mut e = env(1, 1, 64, false);
    play_to_end(&mut e);
    let rewards = e.rewards().to_vec();
    assert_eq!(rewards[0], -rewards[1], "terminal reward is zero-sum");
    let state = e.states()[0];
    e.step(&[0]).unwrap();
    assert_eq!(e.illegal()[0], ActionStatus::Finished as u8);
    assert_eq!(e.states()[0], state);
    assert_eq!(e.rewards(), &[0.0, 0.0]);
    assert!(e.legal_mask().iter().all(|&m| m == 0));
}

#[test]
fn autoreset_keeps_terminal_observation_then_resets() {
    let mut e = env(1, 1, 64, true);
    play_to_end(&mut e);
    let terminal_obs = e.obs().to_vec();
    let mut check = vec![0f32; OBS_DIM];
    e.observe_as(0, e.current_player()[0] as usize, &mut check)
        .unwrap();
    assert_eq!(
        terminal_obs, check,
        "terminal observation readable after the final step"
    );
    e.step(&[0]).unwrap();
    assert_eq!(e.illegal()[0], ActionStatus::Reset as u8);
    assert_eq!(e.episodes()[0], 1);
    assert!(!e.terminated()[0] && !e.truncated()[0]);
    assert_eq!(e.states()[0].steps, 0);
    assert_eq!(e.rewards(), &[0.0, 0.0]);
    // The new episode comes from stream (seed, lane, 1).
    let mut rng = LaneRng::for_lane(42, 0, 1);
    assert_eq!(e.states()[0], LostCities.reset(&mut rng));
}

#[test]
fn reset_lanes_resets_only_selected_lanes() {
    let mut e = env(3, 2, 1, false);
    let actions: Vec<u32> = (0..3)
        .map(|i| {
            (0..N_ACTIONS as u32)
                .find(|&a| e.legal_mask()[i * N_ACTIONS + a as usize] == 1)
                .unwrap()
        })
        .collect();
    e.step(&actions).unwrap();
    let before = e.states().to_vec();
    assert_eq!(
        e.reset_lanes(&[true, false]),
        Err(Error::Length {
            what: "reset mask",
            expected: 3,
            got: 2
        })
    );
    assert_eq!(e.states(), &before[..], "a failed call changes nothing");
    e.reset_lanes(&[true, false, true]).unwrap();
    assert_eq!(e.states()[1], before[1]);
    assert_eq!(e.states()[0].steps, 0);
    assert_eq!(e.episodes(), &[1, 0, 1]);
}

#[test]
fn gather_copies_lanes_with_their_outputs() {
    let mut e = env(4, 2, 1, false);
    let first = (0..N_ACTIONS as u32)
        .find(|&a| e.legal_mask()[a as usize] == 1)
        .unwrap();
    e.step(&[first, u32::MAX, u32::MAX, u32::MAX]).unwrap();
    let states = e.states().to_vec();
    let obs0 = e.obs()[..OBS_DIM].to_vec();
    assert!(e.gather(&[0, 0, 9, 1]).is_err());
    assert_eq!(e.states(), &states[..]);
    e.gather(&[0, 0, 3, 1]).unwrap();
    assert_eq!(e.states(), &[states[0], states[0], states[3], states[1]]);
    assert_eq!(&e.obs()[OBS_DIM..2 * OBS_DIM], &obs0[..]);
    assert_eq!(e.illegal(), &[0, 0, 1, 1]);
}

#[test]
fn bad_input_is_an_error_that_changes_nothing() {
    let mut e = env(2, 1, 64, false);
    let snap = e.snapshot();
    assert!(matches!(e.step(&[0]), Err(Error::Length { .. })));
    assert!(e.reset_lane_from_order(0, &[0; 60]).is_err());
    assert!(e
        .reset_lane_from_order(5, &(0..60).collect::<Vec<u8>>())
        .is_err());
    assert!(e.observe_as(0, 2, &mut [0.0; OBS_DIM]).is_err());
    assert_eq!(snap, e.snapshot());
    for bad in [
        EnvOptions {
            num_envs: 0,
            ..EnvOptions::new(1)
        },
        EnvOptions {
            chunk_size: 0,
            ..EnvOptions::new(1)
        },
        EnvOptions {
            num_threads: Some(0),
            ..EnvOptions::new(1)
        },
    ] {
        assert!(matches!(
            VecEnv::new(LostCities, bad),
            Err(Error::OutOfRange { .. })
        ));
    }
}

#[test]
fn reset_lane_from_order_deals_that_order() {
    let mut e = env(2, 1, 64, false);
    let order: Vec<u8> = (0..60).rev().collect();
    e.reset_lane_from_order(1, &order).unwrap();
    let s = e.states()[1];
    assert_eq!(s.hands[0], (52..60).fold(0u64, |a, c| a | 1 << c));
    assert_eq!(s.hands[1], (44..52).fold(0u64, |a, c| a | 1 << c));
    assert_eq!(s.deck[s.deck_pos as usize], 43);
}
