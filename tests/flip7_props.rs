//! Flip 7 invariants under proptest: observations that differ between seats only in the
//! observer field, whole games that conserve the 94 cards and pay the final scores, bad
//! configurations, and incremental observation rows (`observe_update`, which only Flip 7
//! implements) that always equal a full observation under every interleaving of batch
//! operations. (The fuzz check, the mask being exactly what `step` accepts, and the batch
//! contract of every game are checked by `tests/conformance.rs`.)

use cardvec::core::policy::random_legal;
use cardvec::core::{EnvOptions, Game, LaneRng, VecEnv};
use cardvec::games::flip7::{make_deck, Flip7, Flip7State};
use proptest::prelude::*;

/// A random legal game position: `steps` random legal actions from a shuffled deck.
fn position(players: usize, seed: u64, steps: usize) -> (Flip7, Flip7State) {
    let game = Flip7::with_players(players).unwrap();
    let mut rng = LaneRng::from_seed(seed);
    let mut s = game.reset(&mut rng);
    let mut mask = vec![0u8; game.num_actions()];
    let mut rewards = vec![0f32; players];
    for _ in 0..steps {
        if s.is_over() {
            break;
        }
        game.legal_mask(&s, &mut mask);
        let a = random_legal(&mask, &mut rng);
        game.step(&mut s, a, &mut rng, &mut rewards);
    }
    (game, s)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn seats_see_the_same_public_observation(players in 3usize..=18, seed: u64, steps in 0usize..400) {
        let (game, s) = position(players, seed, steps);
        let mut first = vec![0f32; game.obs_dim()];
        let mut other = vec![0f32; game.obs_dim()];
        game.observe(&s, 0, &mut first);
        for p in 1..players {
            game.observe(&s, p, &mut other);
            prop_assert_eq!(other[0], p as f32);
            prop_assert_eq!(&other[1..], &first[1..]);
        }
    }
}

#[test]
fn full_games_conserve_cards_and_pay_the_final_scores() {
    for players in [3, 4, 6, 10, 18] {
        for seed in 0..30 {
            let game = Flip7::new(players, 200, Some(100)).unwrap();
            let mut rng = LaneRng::from_seed(seed);
            let mut s = game.reset(&mut rng);
            let mut mask = vec![0u8; game.num_actions()];
            let mut rewards = vec![0f32; players];
            let mut totals = vec![0f64; players];
            while !s.is_over() {
                game.check_state(&s).unwrap();
                game.legal_mask(&s, &mut mask);
                let a = random_legal(&mask, &mut rng);
                rewards.fill(0.0);
                assert!(game.step(&mut s, a, &mut rng, &mut rewards).applied);
                for (t, r) in totals.iter_mut().zip(&rewards) {
                    *t += *r as f64;
                }
            }
            game.check_state(&s).unwrap();
            let scores: Vec<f64> = s.scores()[..players].iter().map(|&x| x as f64).collect();
            assert_eq!(totals, scores);
        }
    }
}

#[test]
fn bad_configurations_are_errors() {
    for (n, t, m) in [
        (2, 200, None),
        (19, 200, None),
        (3, 0, None),
        (3, 200, Some(0)),
    ] {
        assert!(Flip7::new(n, t, m).is_err());
    }
    let game = Flip7::with_players(3).unwrap();
    assert!(game.reset_from_order(&[0; 94]).is_err());
    assert!(game.reset_from_order(&[0; 3]).is_err());
}

/// Checks every lane's observation row against a full observation of its state, bit for bit.
fn assert_rows_in_sync(env: &VecEnv<Flip7>, when: &str) {
    let d = env.game().obs_dim();
    let mut fresh = vec![0f32; d];
    for lane in 0..env.num_envs() {
        let player = env.current_player()[lane] as usize;
        env.observe_as(lane, player, &mut fresh).unwrap();
        let row = &env.obs()[lane * d..(lane + 1) * d];
        let same = row
            .iter()
            .zip(&fresh)
            .all(|(a, b)| a.to_bits() == b.to_bits());
        assert!(same, "lane {lane} out of sync after {when}");
    }
}

/// Drives a batch with observation on (and at times off), random actions with illegal ones,
/// autoreset toggled, and resets, gathers and set states interleaved; after every observed
/// step (and every full observe, and every lane operation while the rows are known to be in
/// sync) each row must equal a fresh full observation: the incremental update
/// (`observe_update`) never drifts.
fn incremental_rows_stay_in_sync(players: usize, seed: u64, ops: usize) {
    let game = Flip7::new(players, 60 + (seed % 3) as u32 * 70, None).unwrap();
    let mut rng = LaneRng::from_seed(seed);
    let mut o = EnvOptions::new(1 + rng.below(23) as usize);
    o.seed = seed;
    o.num_threads = Some(1 + rng.below(2) as usize);
    o.chunk_size = 1 + rng.below(8) as usize;
    o.autoreset = rng.below(2) == 0;
    let mut env = VecEnv::new(game, o).unwrap();
    let n = env.num_envs();
    let a = game.num_actions();
    assert_rows_in_sync(&env, "new");
    // Whether the test knows every row to be in sync (observation on since the last full
    // observe of every lane or observed step).
    let mut synced = true;
    for op in 0..ops {
        match rng.below(40) {
            0 => {
                let on = !env.observe_on_step();
                env.set_observe_on_step(on);
            }
            1 => {
                let on = !env.autoreset();
                env.set_autoreset(on);
            }
            2 => {
                let mask: Vec<bool> = (0..n).map(|_| rng.below(3) == 0).collect();
                env.reset_lanes(&mask).unwrap();
                synced &= env.observe_on_step() || !mask.contains(&true);
            }
            3 => {
                let sources: Vec<usize> = (0..n).map(|_| rng.below(n as u32) as usize).collect();
                env.gather(&sources).unwrap();
            }
            4 => {
                let (dst, src) = (rng.below(n as u32) as usize, rng.below(n as u32) as usize);
                let state = env.states()[src];
                env.set_state(dst, state).unwrap();
                synced &= env.observe_on_step();
            }
            5 => {
                let mut order = make_deck();
                rng.shuffle(&mut order);
                env.reset_lane_from_order(rng.below(n as u32) as usize, &order)
                    .unwrap();
                synced &= env.observe_on_step();
            }
            6 => {
                env.observe();
                synced = true;
            }
            7 => {
                env.reset(rng.next_u64());
                synced = env.observe_on_step();
            }
            _ => {
                let actions: Vec<u32> = env
                    .legal_mask()
                    .chunks(a)
                    .map(|m| match rng.below(8) {
                        0 => rng.below(a as u32 + 3),
                        1 => u32::MAX - rng.below(2),
                        _ => random_legal(m, &mut rng),
                    })
                    .collect();
                env.step(&actions).unwrap();
                synced = env.observe_on_step();
            }
        }
        if synced {
            assert_rows_in_sync(&env, &format!("op {op} (players {players}, seed {seed})"));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn incremental_observation_equals_full_observation(
        players in prop_oneof![Just(3usize), Just(8), Just(18)],
        seed in any::<u64>(),
    ) {
        incremental_rows_stay_in_sync(players, seed, 600);
    }
}

#[test]
fn incremental_observation_in_sync_for_3_8_and_18_players() {
    for players in [3, 8, 18] {
        for seed in 0..4 {
            incremental_rows_stay_in_sync(players, seed, 1500);
        }
    }
}
