//! No-limit hold'em invariants under proptest: chips conserved and rewards zero-sum over
//! whole hands of random tables, exact raise-to actions legal exactly between their bounds,
//! and bad tables and deals. (The fuzz check, the mask being exactly what `step` accepts, and
//! the batch contract of every game are checked by `tests/conformance.rs`.)

use cardvec::core::policy::random_legal;
use cardvec::core::{Game, LaneRng};
use cardvec::games::holdem::checks::{check_state, fuzz_config};
use cardvec::games::holdem::{NoLimitHoldem, NoLimitHoldemState, TableConfig, EXACT_RAISE};
use proptest::prelude::*;

/// A random position: `steps` random legal actions into a hand of a fuzz configuration.
fn position(a: u8, b: u8, c: u8, seed: u64, steps: usize) -> (NoLimitHoldem, NoLimitHoldemState) {
    let game = fuzz_config(&[a, b, c]);
    let mut rng = LaneRng::from_seed(seed);
    let mut s = game.reset(&mut rng);
    let mut mask = vec![0u8; game.num_actions()];
    let mut rewards = vec![0f32; game.num_players()];
    for _ in 0..steps {
        if s.is_over() {
            break;
        }
        game.legal_mask(&s, &mut mask);
        let act = random_legal(&mask, &mut rng);
        game.step(&mut s, act, &mut rng, &mut rewards);
    }
    (game, s)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn hands_conserve_chips_and_pay_zero_sum_rewards(a: u8, b: u8, c: u8, seed: u64) {
        let game = fuzz_config(&[a, b, c]);
        let mut rng = LaneRng::from_seed(seed);
        let mut s = game.reset(&mut rng);
        let mut mask = vec![0u8; game.num_actions()];
        let n = game.num_players();
        let mut total = vec![0f64; n];
        while !s.is_over() {
            prop_assert_eq!(check_state(&game, &s), Ok(()));
            game.legal_mask(&s, &mut mask);
            let act = random_legal(&mask, &mut rng);
            let mut rewards = vec![0f32; n];
            prop_assert!(game.step(&mut s, act, &mut rng, &mut rewards).applied);
            for (t, r) in total.iter_mut().zip(rewards) {
                *t += r as f64;
            }
        }
        prop_assert_eq!(check_state(&game, &s), Ok(()));
        let net = s.net();
        prop_assert_eq!(net.iter().sum::<i64>(), 0);
        let bb = game.table().big_blind as f64;
        for seat in 0..n {
            prop_assert!((total[seat] - net[seat] as f64 / bb).abs() < 1e-3);
        }
        prop_assert!(total.iter().sum::<f64>().abs() < 1e-3);
    }

    #[test]
    fn exact_raise_to_is_legal_exactly_between_the_bounds(a: u8, b: u8, c: u8, seed: u64, steps in 0usize..30) {
        let (game, s) = position(a, b, c, seed, steps);
        let legal = game.legal(&s);
        for delta in -2i64..=2 {
            for base in [legal.map_or(0, |l| l.min_raise_to), legal.map_or(0, |l| l.max_raise_to)] {
                let to = (base as i64 + delta).max(0) as u64;
                let mut t = s;
                let mut rewards = vec![0f32; game.num_players()];
                let act = EXACT_RAISE | to as u32;
                let applied = game.step(&mut t, act, &mut LaneRng::from_seed(0), &mut rewards).applied;
                let expected = legal.is_some_and(|l| l.raise && (l.min_raise_to..=l.max_raise_to).contains(&to));
                prop_assert_eq!(applied, expected, "raise to {}", to);
                if !applied {
                    prop_assert_eq!(t, s);
                }
            }
        }
    }
}

#[test]
fn bad_configurations_are_errors() {
    let t = TableConfig::new(1, 2, 0).unwrap();
    assert!(NoLimitHoldem::new(1, t, 100).is_err());
    assert!(NoLimitHoldem::new(11, t, 100).is_err());
    assert!(NoLimitHoldem::new(2, t, 0).is_err());
    assert!(NoLimitHoldem::new(2, t, 1 << 31).is_err());
    let g = NoLimitHoldem::new(2, t, 100).unwrap();
    assert!(g.with_stacks(&[100]).is_err());
    assert!(g.with_button(Some(2)).is_err());
    assert!(g.with_raise_fractions(&[1.0, 0.5]).is_err());
    assert!(g.with_raise_fractions(&[0.0]).is_err());
    assert!(g.with_raise_fractions(&[1.0; 9]).is_err());
    assert!(g.reset_from_order(&[0; 9]).is_err());
    assert!(g.reset_from_order(&[0, 1, 2, 3, 4, 5, 6, 7]).is_err());
    assert!(g.reset_from_order(&[0, 1, 2, 3, 4, 5, 6, 7, 52]).is_err());
    let s = g
        .reset_from_order(&[51, 50, 0, 1, 10, 20, 30, 40, 45])
        .unwrap();
    assert_eq!(s.hole_cards()[0], [51, 50]);
    assert_eq!(s.full_board(), [10, 20, 30, 40, 45]);
}
