//! Property tests of Lost Cities scoring on the fast engine: the final reward is the final
//! score, the column formula, the zero-sum board difference, and one-hot card channels. (The
//! lane laws every game keeps, such as `check_state` on every reached state and the mask being
//! exactly what `step` accepts, are checked by `tests/conformance.rs`.)

use cardvec::core::policy::random_legal;
use cardvec::core::{Game, LaneRng};
use cardvec::games::lost_cities::fast::{board_score, column_score, score};
use cardvec::games::lost_cities::{LostCities, LostCitiesState, N_ACTIONS};
use proptest::prelude::*;

/// Plays `plies` random legal plies from the deal of `seed`.
fn position(seed: u64, plies: usize) -> LostCitiesState {
    let game = LostCities;
    let mut rng = LaneRng::from_seed(seed);
    let mut s = game.reset(&mut rng);
    let mut mask = [0u8; N_ACTIONS];
    let mut rewards = [0f32; 2];
    for _ in 0..plies {
        if s.is_over() {
            break;
        }
        game.legal_mask(&s, &mut mask);
        let a = random_legal(&mask, &mut rng);
        assert!(game.step(&mut s, a, &mut rng, &mut rewards).applied);
    }
    s
}

proptest! {
    #[test]
    fn final_reward_is_the_final_score(seed in any::<u64>()) {
        let game = LostCities;
        let mut rng = LaneRng::from_seed(seed);
        let mut s = game.reset(&mut rng);
        let mut mask = [0u8; N_ACTIONS];
        let mut rewards = [0f32; 2];
        while !s.is_over() {
            game.legal_mask(&s, &mut mask);
            let a = random_legal(&mask, &mut rng);
            rewards.fill(0.0);
            prop_assert!(game.step(&mut s, a, &mut rng, &mut rewards).applied);
        }
        prop_assert_eq!(rewards[0], -rewards[1]);
        prop_assert_eq!(rewards[0] as i32, score(&s)[0]);
    }

    #[test]
    fn column_score_follows_the_formula(handshakes in 0u32..=3, numbers in proptest::collection::btree_set(2u32..=10, 0..=9)) {
        let mut column = (1u64 << handshakes) - 1;
        for &r in &numbers {
            column |= 1 << (r + 1);
        }
        let len = handshakes + numbers.len() as u32;
        let expected = if len == 0 {
            0
        } else {
            let sum: i32 = numbers.iter().map(|&r| r as i32).sum();
            (sum - 20) * (1 + handshakes as i32) + if len >= 8 { 20 } else { 0 }
        };
        prop_assert_eq!(column_score(column), expected);
    }

    #[test]
    fn score_is_the_zero_sum_board_difference(seed in any::<u64>(), plies in 0usize..200) {
        let s = position(seed, plies);
        let [a, b] = board_score(&s);
        prop_assert_eq!(score(&s), [a - b, b - a]);
    }
}

#[test]
fn observation_channels_are_one_hot_per_card() {
    let game = LostCities;
    for seed in 0..50 {
        let s = position(seed, (seed * 7 % 90) as usize);
        for player in 0..2 {
            let mut obs = [0f32; 454];
            game.observe(&s, player, &mut obs);
            for card in 0..60 {
                let total: f32 = (0..7).map(|ch| obs[ch * 60 + card]).sum();
                assert_eq!(total, 1.0, "card {card} seed {seed}");
            }
        }
    }
}
