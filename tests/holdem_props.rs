//! No-limit hold'em invariants under proptest: chips conserved and rewards zero-sum over
//! whole hands of random tables (short tables included, whose hands are often decided at the
//! deal), exact raise-to actions legal exactly between their bounds, and bad tables and
//! deals; hands decided at the deal through the batch environment, the differential and fuzz
//! configurations and bot matches. (The fuzz check, the mask being exactly what `step`
//! accepts, and the batch contract of every game are checked by `tests/conformance.rs`.)

use cardvec::core::diff::Lockstep;
use cardvec::core::policy::random_legal;
use cardvec::core::spec::{GameChecks, GameSpec, Options};
use cardvec::core::{ActionStatus, EnvOptions, Game, LaneRng, SingleLane, VecEnv};
use cardvec::games::holdem::Reference;
use cardvec::games::holdem::{NoLimitHoldem, NoLimitHoldemState, TableConfig, EXACT_RAISE};
use proptest::prelude::*;

/// A random position: `steps` random legal actions into a hand of a fuzz configuration.
fn position(a: u8, b: u8, c: u8, seed: u64, steps: usize) -> (NoLimitHoldem, NoLimitHoldemState) {
    let game = NoLimitHoldem::fuzz_config(&[a, b, c]);
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
        let game = NoLimitHoldem::fuzz_config(&[a, b, c]);
        let mut rng = LaneRng::from_seed(seed);
        let mut s = game.reset(&mut rng);
        let mut mask = vec![0u8; game.num_actions()];
        let n = game.num_players();
        // A hand decided at the deal pays there.
        let mut dealt = vec![0f32; n];
        game.deal_rewards(&s, &mut dealt);
        prop_assert_eq!(dealt.iter().any(|&r| r != 0.0), s.is_over() && s.net().iter().any(|&x| x != 0));
        let mut total: Vec<f64> = dealt.iter().map(|&r| r as f64).collect();
        while !s.is_over() {
            prop_assert_eq!(game.check_state(&s), Ok(()));
            game.legal_mask(&s, &mut mask);
            let act = random_legal(&mask, &mut rng);
            let mut rewards = vec![0f32; n];
            prop_assert!(game.step(&mut s, act, &mut rng, &mut rewards).applied);
            for (t, r) in total.iter_mut().zip(rewards) {
                *t += r as f64;
            }
        }
        prop_assert_eq!(game.check_state(&s), Ok(()));
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

/// A configuration from its text form.
fn table(text: &str) -> NoLimitHoldem {
    NoLimitHoldem::configure(&Options::parse(NoLimitHoldem::INFO.options, text).unwrap()).unwrap()
}

/// Each seat's result in big blinds: the rewards of a finished hand.
fn results(game: &NoLimitHoldem, s: &NoLimitHoldemState) -> Vec<f32> {
    let bb = game.table().big_blind as f32;
    s.net()[..game.num_players()]
        .iter()
        .map(|&x| x as f32 / bb)
        .collect()
}

/// Hands decided at the deal (every seat, or all but one facing no bet, all-in from the
/// antes and blinds) are lanes terminated at once with their results as rewards: after
/// construction, reset_lanes, an autoreset and an explicit deal; chips are conserved; a step
/// on them is the usual no-op (code 2, nothing paid) without autoreset, a reset (code 3, the
/// new deal's rewards) with it.
#[test]
fn hands_decided_at_the_deal_are_terminated_lanes_with_their_results() {
    // (configuration, every hand decided)
    let tables = [
        ("ante=500,stack=100", true),
        ("stacks=[1,1000]", true),
        ("small_blind=50,big_blind=100,stacks=[40,70]", true),
        ("num_players=3,ante=1,stacks=[1,1000,2],button=0", true),
        ("num_players=4,ante=5,stacks=[3,4,6,1000]", false),
    ];
    for (text, all) in tables {
        let game = table(text);
        let n = game.num_players();
        let total: u64 = game.stacks().iter().sum();
        let mut options = EnvOptions::new(64);
        options.seed = 7;
        let mut env = VecEnv::new(game, options).unwrap();
        let check_lanes = |env: &VecEnv<NoLimitHoldem>, what: &str| -> usize {
            let mut decided = 0;
            for (i, s) in env.states().iter().enumerate() {
                let rewards = &env.rewards()[i * n..(i + 1) * n];
                let sum: u64 = s.stacks().iter().map(|&x| x as u64).sum();
                assert_eq!(game.check_state(s), Ok(()), "{text}: lane {i} {what}");
                if s.is_over() {
                    decided += 1;
                    assert!(env.terminated()[i], "{text}: lane {i} {what}");
                    assert_eq!(rewards, &results(&game, s)[..], "{text}: lane {i} {what}");
                    assert_eq!(sum, total, "{text}: lane {i} {what}: chips");
                    if (0..n).filter(|&p| !s.is_folded(p)).count() > 1 {
                        assert_eq!(s.board().len(), 5, "{text}: lane {i} {what}: board");
                    }
                    assert!(
                        env.legal_mask()[i * game.num_actions()..][..game.num_actions()]
                            .iter()
                            .all(|&m| m == 0)
                    );
                    if s.net().iter().any(|&x| x != 0) {
                        assert!(rewards.iter().any(|&r| r != 0.0), "{text}: lane {i} {what}");
                    }
                } else {
                    assert!(!env.terminated()[i] && rewards.iter().all(|&r| r == 0.0));
                }
            }
            decided
        };
        let decided = check_lanes(&env, "after construction");
        if all {
            assert_eq!(decided, 64, "{text}");
        } else {
            assert!(
                (1..64).contains(&decided),
                "{text}: {decided} of 64 decided"
            );
        }
        // Without autoreset a step on a decided lane is a no-op that pays nothing.
        let before = env.states().to_vec();
        env.step(&vec![1; 64]).unwrap();
        for (i, s) in before.iter().enumerate() {
            if s.is_over() {
                assert_eq!(env.illegal()[i], ActionStatus::Finished as u8);
                assert!(env.rewards()[i * n..(i + 1) * n].iter().all(|&r| r == 0.0));
                assert_eq!(&env.states()[i], s);
            }
        }
        // reset_lanes deals again: the new deals show their rewards.
        env.reset_lanes(&[true; 64]).unwrap();
        check_lanes(&env, "after reset_lanes");
        // Autoreset: a finished lane is dealt again on the next step, with its rewards.
        env.set_autoreset(true);
        for _ in 0..4 {
            let done: Vec<bool> = env.terminated().to_vec();
            env.step(&vec![1; 64]).unwrap();
            for (i, &d) in done.iter().enumerate() {
                let status = if d {
                    ActionStatus::Reset
                } else {
                    ActionStatus::Applied
                };
                assert_eq!(env.illegal()[i], status as u8, "{text}: lane {i}");
            }
            check_lanes(&env, "after an autoreset step");
        }
        // An explicit deal of a decided hand shows its rewards; a state set from outside
        // pays nothing.
        let mut rng = LaneRng::from_seed(3);
        let mut found = false;
        for _ in 0..200 {
            let order = game.sample_order(&mut rng).unwrap();
            let s = game.reset_from_order(&order).unwrap();
            if s.is_over() && s.net().iter().any(|&x| x != 0) {
                env.reset_lane_from_order(5, &order).unwrap();
                assert!(env.terminated()[5]);
                assert_eq!(&env.rewards()[5 * n..6 * n], &results(&game, &s)[..]);
                env.set_state(5, s).unwrap();
                assert!(env.terminated()[5]);
                assert!(env.rewards()[5 * n..6 * n].iter().all(|&r| r == 0.0));
                found = true;
                break;
            }
        }
        // Seat 0 is the button of explicit deals: a table whose decided hands all need
        // another button may not deal one (the mixed table with button 0 does not).
        assert!(found || !all, "{text}: no decided explicit deal");
    }
}

/// The differential and fuzz configurations deal hands decided at the deal (and live ones),
/// so that `cardvec diff holdem` and the generic fuzz check cover them.
#[test]
fn differential_and_fuzz_configurations_deal_decided_hands() {
    let mut rng = LaneRng::from_seed(11);
    let (mut decided, mut live) = (0, 0);
    for g in 0..4000 {
        let s = NoLimitHoldem::diff_pair(g, &mut rng).1.state;
        if s.is_over() {
            decided += 1;
        } else {
            live += 1;
        }
    }
    eprintln!("diff: {decided} decided, {live} live");
    assert!(
        decided > 200 && live > 3000,
        "diff: {decided} decided, {live} live"
    );
    let (mut decided, mut live) = (0, 0);
    for a in 0..=255u8 {
        for c in [0u8, 1, 77, 200] {
            let game = NoLimitHoldem::fuzz_config(&[a, a.wrapping_mul(7), c]);
            let s = game.reset(&mut rng);
            if s.is_over() {
                decided += 1;
            } else {
                live += 1;
            }
        }
    }
    eprintln!("fuzz: {decided} decided, {live} live");
    assert!(
        decided > 25 && live > 800,
        "fuzz: {decided} decided, {live} live"
    );
}

/// The lockstep comparison (differential runner, fuzz check) compares the rewards of the
/// deal: two engines paying a decided deal differently disagree at once.
#[test]
fn lockstep_compares_the_rewards_of_the_deal() {
    let game = table("stacks=[1,1000]");
    let mut differ = 0;
    for seed in 0..40u64 {
        let rng = LaneRng::from_seed(seed);
        let same = Lockstep::new(
            Reference::dealt(game, &mut rng.clone()),
            SingleLane::new(game, rng.clone()),
        );
        let pair = same.expect("the same deal pays the same");
        assert_eq!(pair.rewards(), &results(&game, &pair.b.state)[..]);
        let other = SingleLane::new(game, LaneRng::from_seed(seed + 1000));
        if other.state.net() != pair.b.state.net() {
            let err = Lockstep::new(Reference::dealt(game, &mut rng.clone()), other)
                .err()
                .expect("different results");
            assert!(err.contains("rewards of the deal"), "{err}");
            differ += 1;
        }
    }
    assert!(differ > 5);
}

/// Bot matches count the results of hands decided at the deal.
#[test]
fn matches_count_hands_decided_at_the_deal() {
    use cardvec::core::matches::play_rotated;
    let game = table("stacks=[1,1000]");
    let bot = game.bot("random").unwrap();
    let bots = [bot.as_ref(), bot.as_ref()];
    let mut paid = 0;
    for g in 0..50 {
        let (rewards, plies) = play_rotated(&game, &bots, 5, g);
        assert_eq!(plies, 0);
        assert_eq!(rewards.iter().sum::<f32>(), 0.0);
        paid += rewards.iter().any(|&r| r != 0.0) as u32;
    }
    assert!(paid > 40, "{paid}");
}

/// Errors show the amounts given, never a clamped or wrapped number; explicit stacks are
/// checked, not the default stack of the blinds.
#[test]
fn errors_show_the_amounts_given() {
    let t = TableConfig::new(1, 2, 0).unwrap();
    let e = NoLimitHoldem::new(2, t, 600_000_000)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("[600000000, 600000000] make 1200000000 chips"),
        "{e}"
    );
    let e = NoLimitHoldem::new(2, t, 1 << 31).unwrap_err().to_string();
    assert!(e.contains("got 2147483648"), "{e}");
    for (sb, bb, ante, shown) in [
        (1, 1 << 50, 0, "got 1125899906842624"),
        (1, u64::MAX, 0, "got 18446744073709551615"),
        (3, 2, 0, "got 3"),
        (1, 2, 1 << 41, "got 2199023255552"),
    ] {
        let e = TableConfig::new(sb, bb, ante).unwrap_err().to_string();
        assert!(e.contains(shown), "{e}");
    }
    let big = table("small_blind=5000000,big_blind=10000000,stacks=[20000000,20000000]");
    assert_eq!(big.stacks(), vec![20_000_000, 20_000_000]);
    let options = Options::parse(
        NoLimitHoldem::INFO.options,
        "small_blind=5000000,big_blind=10000000",
    )
    .unwrap();
    let e = NoLimitHoldem::configure(&options).unwrap_err().to_string();
    assert!(
        e.contains("default stack, 100 big blinds (1000000000 chips), makes 2000000000"),
        "{e}"
    );
    use cardvec::games::holdem::{NlHand, Session};
    use cardvec::poker::parse_cards;
    let c = parse_cards("As Ad Kc Kd 2c 7d 9h Js 3c").unwrap();
    let e = NlHand::new(
        t,
        &[1 << 41, 100],
        0,
        &[[c[0], c[1]], [c[2], c[3]]],
        [c[4], c[5], c[6], c[7], c[8]],
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("got 2199023255552"), "{e}");
    let e = Session::new(t, &[u64::MAX, 1], 0, 0)
        .unwrap_err()
        .to_string();
    assert!(e.contains("got 18446744073709551615"), "{e}");
}
