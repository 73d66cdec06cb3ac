//! 151 invariants under proptest (cards conserved, scores only grow except by the bonus,
//! a legal action always exists for the seat to act, reference and fast engines agree),
//! through the same check the fuzz target runs; and the batch contract on 151 lanes.

mod common;

use cardvec::core::policy::random_legal;
use cardvec::core::{EnvOptions, Game, LaneRng, VecEnv};
use cardvec::games::i151::checks::{check_scores, check_state};
use cardvec::games::i151::view::{encode_state, encode_view, PlayerView, OBS_DIM};
use cardvec::games::i151::{I151, N_ACTIONS};
use common::assert_same_for_any_threads_and_chunks;
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn fuzz_check_holds_for_arbitrary_inputs(data in proptest::collection::vec(any::<u8>(), 0..600)) {
        prop_assert_eq!(cardvec::core::fuzz::check::<I151>(&data), Ok(()));
    }

    #[test]
    fn whole_random_matches_keep_the_invariants(seed in any::<i64>(), players in 2usize..=4, policy in any::<u64>()) {
        let game = I151::new(players).unwrap().with_max_round_steps(0);
        let mut s = game.reset_with_match_seed(seed);
        let mut rng = LaneRng::from_seed(policy);
        let mut mask = [0u8; N_ACTIONS];
        let mut rewards = vec![0f32; players];
        while !s.is_over() {
            check_state(&game, &s).map_err(TestCaseError::fail)?;
            game.legal_mask(&s, &mut mask);
            let before = s;
            let out = game.step(&mut s, random_legal(&mask, &mut rng), &mut rng, &mut rewards);
            prop_assert!(out.applied);
            check_scores(&before, &s).map_err(TestCaseError::fail)?;
        }
        check_state(&game, &s).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn the_direct_observation_equals_the_view_encoding(seed in any::<i64>(), players in 2usize..=4, policy in any::<u64>(), target in 1i64..=300) {
        let game = I151::new(players).unwrap().with_target_score(target).unwrap();
        let mut s = game.reset_with_match_seed(seed);
        let mut rng = LaneRng::from_seed(policy);
        let mut mask = [0u8; N_ACTIONS];
        let mut rewards = vec![0f32; players];
        let (mut direct, mut via_view) = ([0f32; OBS_DIM], [0f32; OBS_DIM]);
        loop {
            for seat in 0..players {
                direct.fill(f32::NAN);
                via_view.fill(f32::NAN);
                encode_state(&game, &s, seat, &mut direct);
                encode_view(&PlayerView::from_state(&game, &s, seat), &mut via_view);
                prop_assert_eq!(
                    bytemuck::cast_slice::<f32, u32>(&direct),
                    bytemuck::cast_slice::<f32, u32>(&via_view)
                );
            }
            if s.is_over() {
                break;
            }
            game.legal_mask(&s, &mut mask);
            game.step(&mut s, random_legal(&mask, &mut rng), &mut rng, &mut rewards);
        }
    }
}

fn env(threads: usize, chunk: usize) -> VecEnv<I151> {
    let mut o = EnvOptions::new(61);
    o.seed = 7;
    o.num_threads = Some(threads);
    o.chunk_size = chunk;
    o.autoreset = true;
    VecEnv::new(I151::new(3).unwrap(), o).unwrap()
}

#[test]
fn batch_results_do_not_depend_on_threads_or_chunks() {
    assert_same_for_any_threads_and_chunks(env, 300, 50, 1, &[(2, 1), (2, 7), (3, 10_000)]);
}

#[test]
fn gathered_lanes_continue_like_their_sources() {
    let mut o = EnvOptions::new(4);
    o.num_threads = Some(1);
    let mut e = VecEnv::new(I151::new(2).unwrap(), o).unwrap();
    let mut rng = LaneRng::from_seed(3);
    for _ in 0..20 {
        let actions: Vec<u32> = (0..4)
            .map(|i| {
                random_legal(
                    &e.legal_mask()[i * N_ACTIONS..(i + 1) * N_ACTIONS],
                    &mut rng,
                )
            })
            .collect();
        e.step(&actions).unwrap();
    }
    e.gather(&[2, 2, 2, 2]).unwrap();
    let s = e.states()[0];
    assert!(e.states().iter().all(|x| *x == s));
    assert!(check_state(e.game(), &s).is_ok());
}
