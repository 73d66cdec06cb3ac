//! Property tests of Lost Cities scoring on the fast engine: the final reward is the final
//! score, the column formula, the zero-sum board difference, and one-hot card channels. (The
//! lane laws every game keeps, such as `check_state` on every reached state and the mask being
//! exactly what `step` accepts, are checked by `tests/conformance.rs`.)

use cardvec::core::policy::random_legal;
use cardvec::core::{Game, LaneRng};
use cardvec::games::lost_cities::{
    board_score, column_score, score, LostCities, LostCitiesState, ObsLayout, DECK_SIZE, N_ACTIONS,
    N_CHANNELS, OBS_DIM,
};
use proptest::prelude::*;

/// Plays `plies` random legal plies from the deal of `seed`.
fn position(seed: u64, plies: usize) -> LostCitiesState {
    let game = LostCities::default();
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
        let game = LostCities::default();
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

/// The seed's text, "60 cards x 7 one-hot channels", read as a `[60, 7]` array: in the
/// default (card-major) layout each card's seven consecutive values are one block of
/// `0.0`/`1.0` summing to 1 (which channel is hot, in the seed's order, is checked against
/// the reference engine's places in `tests/lost_cities_rules.rs`).
#[test]
fn card_major_blocks_are_one_hot_per_card() {
    let game = LostCities::default();
    assert_eq!(game.layout(), ObsLayout::CardMajor);
    for seed in 0..50 {
        let s = position(seed, (seed * 7 % 90) as usize);
        for player in 0..2 {
            let mut obs = [0f32; OBS_DIM];
            game.observe(&s, player, &mut obs);
            for (card, block) in obs[..N_CHANNELS * DECK_SIZE]
                .chunks_exact(N_CHANNELS)
                .enumerate()
            {
                assert!(block.iter().all(|&v| v == 0.0 || v == 1.0));
                assert_eq!(block.iter().sum::<f32>(), 1.0, "card {card} seed {seed}");
            }
        }
    }
}

proptest! {
    /// Transposing the channel-major `[7, 60]` block gives the card-major `[60, 7]` block;
    /// the scalars are the same.
    #[test]
    fn channel_major_transposed_is_card_major(seed in any::<u64>(), plies in 0usize..200) {
        let s = position(seed, plies);
        let card = LostCities::new(ObsLayout::CardMajor);
        let channel = LostCities::new(ObsLayout::ChannelMajor);
        for player in 0..2 {
            let (mut a, mut b) = ([0f32; OBS_DIM], [0f32; OBS_DIM]);
            card.observe(&s, player, &mut a);
            channel.observe(&s, player, &mut b);
            for c in 0..DECK_SIZE {
                for ch in 0..N_CHANNELS {
                    prop_assert_eq!(a[c * N_CHANNELS + ch], b[ch * DECK_SIZE + c]);
                }
            }
            prop_assert_eq!(&a[N_CHANNELS * DECK_SIZE..], &b[N_CHANNELS * DECK_SIZE..]);
        }
    }
}
