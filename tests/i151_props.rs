//! 151 invariants under proptest: the observation written from the state equals the one
//! encoded from a seat's `PlayerView`. (Whole random matches keeping the score laws are a
//! unit test of `src/games/i151/checks.rs`.) (The fuzz check and the batch
//! contract of every game are checked by `tests/conformance.rs`.)

use cardvec::core::policy::random_legal;
use cardvec::core::{Game, LaneRng};
use cardvec::games::i151::{encode_state, encode_view, PlayerView, I151, N_ACTIONS, OBS_DIM};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

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
