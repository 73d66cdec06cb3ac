use super::*;
use crate::games::holdem::policy::{policy_by_name, AllInPolicy, CallStationPolicy};
use crate::games::holdem::{TableConfig, RAISE_BASE};
use crate::poker::{evaluate, Card};

fn game(stack: u64) -> NoLimitHoldem {
    NoLimitHoldem::new(2, TableConfig::new(1, 2, 0).unwrap(), stack).unwrap()
}

/// A mixed policy whose probabilities depend on the holding (its cards' ids) and on the
/// public state (the board size): a test of the batched interface and of Bayes' rule.
struct Mixed;

impl HoldemPolicy for Mixed {
    fn name(&self) -> &str {
        "mixed"
    }
    fn probabilities(
        &self,
        game: &NoLimitHoldem,
        s: &NoLimitHoldemState,
        holdings: &[[u8; 2]],
        out: &mut [f64],
    ) -> Result<()> {
        let mask = crate::games::holdem::policy::check_call(game, s, holdings, out)?;
        let n = game.num_actions();
        for (k, h) in holdings.iter().enumerate() {
            let row = &mut out[k * n..(k + 1) * n];
            let mut total = 0.0;
            for a in 0..n {
                let x = if mask[a] != 0 {
                    1.0 + ((h[0] as usize * 7 + h[1] as usize * 3 + a * 5 + s.board().len()) % 11)
                        as f64
                } else {
                    0.0
                };
                row[a] = x;
                total += x;
            }
            for x in row.iter_mut() {
                *x /= total;
            }
        }
        Ok(())
    }
}

fn step(game: &NoLimitHoldem, s: &mut NoLimitHoldemState, action: u32) {
    let mut r = [0f32; 2];
    assert!(
        game.step(s, action, &mut LaneRng::from_seed(0), &mut r)
            .applied,
        "{action:#x}"
    );
}

#[test]
fn the_tracked_range_equals_a_brute_force_bayes_update() {
    let g = game(200);
    // LBR (seat 0, the button) holds 0 and 1; the policy seat 1; the board 4..9.
    let mut s = g.deal(&[[0, 1], [2, 3]], [4, 5, 6, 7, 8], 0);
    let lbr_cards = CardSet64::from_ids([0, 1]);
    let mut range = OpponentRange::uniform(lbr_cards);
    // (who acts, action): LBR limps, the policy raises half the pot, LBR calls; on the flop
    // the policy bets, LBR calls; on the turn the policy checks.
    let script = [
        (0, CHECK_CALL),
        (1, RAISE_BASE),
        (0, CHECK_CALL),
        (1, RAISE_BASE + 1),
        (0, CHECK_CALL),
        (1, CHECK_CALL),
    ];
    let mut states = Vec::new();
    for &(seat, a) in &script {
        assert_eq!(g.legal(&s).unwrap().seat, seat);
        if seat == 1 {
            range.block(CardSet64::from_ids(s.board().iter().copied()));
            range.observe(&g, &s, &Mixed, a).unwrap();
            states.push((s, a));
        }
        step(&g, &mut s, a);
    }
    // Brute force: each holding alone, the product of its probabilities over the policy's
    // actions, zero when blocked by LBR's cards or the board reached, normalized.
    let n = g.num_actions();
    let dead = CardSet64::from_ids([0, 1, 4, 5, 6, 7]);
    let mut brute = vec![0.0; HOLDINGS];
    for (i, h) in holdings().iter().enumerate() {
        if dead.contains(h[0]) || dead.contains(h[1]) {
            continue;
        }
        let mut p = 1.0;
        for (st, a) in &states {
            let mut out = vec![0.0; n];
            Mixed.probabilities(&g, st, &[*h], &mut out).unwrap();
            p *= out[*a as usize];
        }
        brute[i] = p;
    }
    let sum: f64 = brute.iter().sum();
    for (i, (&got, &b)) in range.weights().iter().zip(&brute).enumerate() {
        assert!(
            (got - b / sum).abs() < 1e-12,
            "holding {i}: {got} vs {}",
            b / sum
        );
    }
    // The range is not uniform: the update did something.
    let live: Vec<f64> = range
        .weights()
        .iter()
        .copied()
        .filter(|&w| w > 0.0)
        .collect();
    assert!(
        live.iter().cloned().fold(0.0, f64::max) > 1.5 * live.iter().cloned().fold(1.0, f64::min)
    );
    // An action the range never plays is an error that changes nothing.
    let before = range.clone();
    assert!(range
        .observe(&g, &states[0].0, &CallStationPolicy, FOLD)
        .is_err());
    assert!(range
        .observe(&g, &states[0].0, &CallStationPolicy, 99)
        .is_err());
    assert_eq!(range, before);
}

fn ids(text: &str) -> Vec<u8> {
    crate::poker::parse_cards(text)
        .unwrap()
        .iter()
        .map(|c| c.id())
        .collect()
}

#[test]
fn fold_or_call_lbr_on_a_river_spot_has_the_closed_form_value() {
    let g = game(200);
    let lbr = ids("Qh Jd");
    let opp = ids("2c 3c");
    let board = ids("Ah Kh 7d 5s 2d");
    // The big blind (seat 1) is LBR: limp, check, then checks to the river, where the
    // button bets the pot.
    let mut s = g.deal(
        &[[opp[0], opp[1]], [lbr[0], lbr[1]]],
        [board[0], board[1], board[2], board[3], board[4]],
        0,
    );
    for a in [
        CHECK_CALL, CHECK_CALL, CHECK_CALL, CHECK_CALL, CHECK_CALL, CHECK_CALL,
    ] {
        step(&g, &mut s, a);
    }
    assert_eq!(s.board().len(), 5);
    step(&g, &mut s, CHECK_CALL); // LBR checks the river
    step(&g, &mut s, RAISE_BASE + 1); // the button bets the pot: 4 into 4
    let dead = CardSet64::from_ids(lbr.iter().chain(&board).copied());
    let range = OpponentRange::uniform(dead);
    // Closed form: WP over the 990 holdings left, by the slow evaluator.
    let card = |id: u8| Card::from_id(id).unwrap();
    let cards = |h: &[u8]| -> Vec<Card> { h.iter().chain(&board).map(|&c| card(c)).collect() };
    let mine = evaluate(&cards(&lbr)).unwrap();
    let (mut score, mut count) = (0.0, 0.0);
    for h in holdings() {
        if dead.contains(h[0]) || dead.contains(h[1]) {
            continue;
        }
        let theirs = evaluate(&cards(h)).unwrap();
        count += 1.0;
        score += if mine > theirs {
            1.0
        } else if mine == theirs {
            0.5
        } else {
            0.0
        };
    }
    assert_eq!(count, 990.0);
    let wp_closed = score / count;
    let wp = win_probability(
        [lbr[0], lbr[1]],
        s.board(),
        &range,
        1081,
        1,
        &mut LaneRng::from_seed(0),
    );
    assert!((wp - wp_closed).abs() < 1e-12, "{wp} vs {wp_closed}");
    let options = LbrOptions {
        bets: vec![],
        ..LbrOptions::default()
    };
    let c = lbr_candidates(&g, &s, &range, &CallStationPolicy, &options, wp).unwrap();
    let (pot, to_call) = (8.0, 4.0);
    assert_eq!(c.len(), 2);
    assert_eq!((c[0].action, c[0].value), (FOLD, 0.0));
    assert_eq!(c[1].action, CHECK_CALL);
    assert!((c[1].value - (wp_closed * pot - (1.0 - wp_closed) * to_call)).abs() < 1e-12);
    // LBR calls when the call is worth more than folding.
    assert_eq!(best(&c), if c[1].value > 0.0 { CHECK_CALL } else { FOLD });
}

#[test]
fn a_bet_is_valued_with_the_fold_probability() {
    let g = game(200);
    let mut s = g.deal(&[[0, 1], [2, 3]], [4, 5, 6, 7, 8], 0);
    for a in [CHECK_CALL, CHECK_CALL] {
        step(&g, &mut s, a);
    }
    // The flop: the big blind (seat 1) to act is LBR here; the policy (seat 0) never folds.
    let range = OpponentRange::uniform(CardSet64::from_ids([2, 3, 4, 5, 6]));
    let options = LbrOptions::default();
    let c = lbr_candidates(&g, &s, &range, &CallStationPolicy, &options, 0.6).unwrap();
    // check, pot (4 into 4), all-in (198).
    assert_eq!(
        c.iter().map(|c| c.action).collect::<Vec<_>>(),
        [CHECK_CALL, EXACT_RAISE | 4, g.all_in_action()]
    );
    assert!((c[0].value - 0.6 * 4.0).abs() < 1e-12);
    assert!((c[1].value - (0.6 * 8.0 - 0.4 * 4.0)).abs() < 1e-12);
    assert!((c[2].value - (0.6 * 202.0 - 0.4 * 198.0)).abs() < 1e-12);
}

#[test]
fn known_answers_call_station_and_all_in_lose_heavily() {
    let g = game(200);
    let options = LbrOptions {
        hands: 300,
        seed: 7,
        ..LbrOptions::default()
    };
    // LBR calls every shove before the flop by default: against always all-in it acts
    // there, at 20 big blinds (a smaller variance).
    let act = LbrOptions {
        preflop: PreflopMode::Act,
        hands: 2400,
        samples: 50,
        ..options.clone()
    };
    let short = game(40);
    for (policy, options, g) in [
        (&CallStationPolicy as &dyn HoldemPolicy, &options, &g),
        (&AllInPolicy, &act, &short),
    ] {
        let r = lbr(g, policy, options, &crate::core::progress::Silent).unwrap();
        assert_eq!(r.hands, options.hands);
        assert!(
            r.mbb - r.ci95 > 500.0,
            "{}: {} ± {}",
            r.policy,
            r.mbb,
            r.ci95
        );
        let parts: f64 = r.positions.iter().map(|p| p.share).sum();
        assert!((parts - r.mbb).abs() < 1e-6);
        let streets: f64 = r.streets.iter().map(|p| p.share).sum();
        assert!((streets - r.mbb).abs() < 1e-6);
        assert_eq!(r.positions[0].hands, options.hands / 2);
    }
}

#[test]
fn results_do_not_depend_on_the_thread_count() {
    let g = game(200);
    let options = LbrOptions {
        hands: 40,
        seed: 3,
        preflop: PreflopMode::Act,
        samples: 30,
        ..LbrOptions::default()
    };
    let policy = policy_by_name("random").unwrap();
    let run = |threads: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| {
                lbr(
                    &g,
                    policy.as_ref(),
                    &options,
                    &crate::core::progress::Silent,
                )
                .unwrap()
            })
    };
    let (one, two) = (run(1), run(2));
    assert_eq!(one, two);
    assert_eq!(one.mbb.to_bits(), two.mbb.to_bits());
    let other_seed = LbrOptions {
        seed: 4,
        ..options.clone()
    };
    let r = lbr(
        &g,
        policy.as_ref(),
        &other_seed,
        &crate::core::progress::Silent,
    )
    .unwrap();
    assert_ne!(r.mbb, one.mbb);
}

#[test]
fn bad_inputs_are_clear_errors() {
    let six = NoLimitHoldem::standard(6).unwrap();
    let ok = LbrOptions::default();
    let silent = crate::core::progress::Silent;
    assert!(lbr(&six, &CallStationPolicy, &ok, &silent).is_err());
    let g = game(200);
    for bad in [
        LbrOptions {
            hands: 0,
            ..ok.clone()
        },
        LbrOptions {
            samples: 0,
            ..ok.clone()
        },
        LbrOptions {
            bets: vec![LbrBet::AllIn, LbrBet::AllIn],
            ..ok.clone()
        },
        LbrOptions {
            bets: vec![LbrBet::Pot(-1.0)],
            ..ok.clone()
        },
        LbrOptions {
            bets: vec![LbrBet::Pot(f64::NAN)],
            ..ok.clone()
        },
    ] {
        assert!(
            lbr(&g, &CallStationPolicy, &bad, &silent).is_err(),
            "{bad:?}"
        );
    }
    assert_eq!(
        LbrBet::parse_list("pot, all-in").unwrap(),
        [LbrBet::Pot(1.0), LbrBet::AllIn]
    );
    assert_eq!(
        LbrBet::parse_list("50%,0.75").unwrap(),
        [LbrBet::Pot(0.5), LbrBet::Pot(0.75)]
    );
    assert!(LbrBet::parse_list("").unwrap().is_empty());
    for bad in ["x", "0", "-1", "200", "nan", "pot,,a"] {
        assert!(LbrBet::parse_list(bad).is_err(), "{bad}");
    }
    assert!(PreflopMode::parse("raise").is_err());
    // A policy that gives no distribution is an error, not a panic.
    struct Broken;
    impl HoldemPolicy for Broken {
        fn name(&self) -> &str {
            "broken"
        }
        fn probabilities(
            &self,
            _: &NoLimitHoldem,
            _: &NoLimitHoldemState,
            _: &[[u8; 2]],
            out: &mut [f64],
        ) -> Result<()> {
            out.fill(0.5);
            Ok(())
        }
    }
    assert!(lbr(
        &g,
        &Broken,
        &LbrOptions {
            hands: 2,
            ..ok.clone()
        },
        &silent
    )
    .is_err());
}

#[test]
fn lbr_against_the_push_fold_equilibrium_stays_within_its_interval_of_the_exact_value() {
    // 10 big blinds: 20 chips with blinds 1/2.
    let g = game(20);
    let (policy, exact) = pushfold_policy(&g, 1e-3).unwrap();
    assert!(exact < 1.0, "{exact}");
    let r = lbr(
        &g,
        &policy,
        &pushfold_options(600, 1, 40),
        &crate::core::progress::Silent,
    )
    .unwrap();
    assert!(r.mbb - r.ci95 <= exact, "{} ± {} vs {exact}", r.mbb, r.ci95);
    assert!(r.mbb + r.ci95 >= exact, "{} ± {} vs {exact}", r.mbb, r.ci95);
    // And a policy off equilibrium (always all-in) is caught at the same depth.
    let r = lbr(
        &g,
        &AllInPolicy,
        &pushfold_options(600, 1, 40),
        &crate::core::progress::Silent,
    )
    .unwrap();
    assert!(r.mbb - r.ci95 > 0.0, "{} ± {}", r.mbb, r.ci95);
}

#[test]
fn a_sampling_policy_file_gives_its_softmax_at_every_holding() {
    use crate::agents::policy_file::testing::{bytes, metadata, mlp_tensors};
    let g = game(200);
    let path = std::env::temp_dir().join(format!("cardvec-lbr-{}.safetensors", std::process::id()));
    let tensors = mlp_tensors(&[g.obs_dim(), 8, g.num_actions()]);
    std::fs::write(&path, bytes(&tensors, metadata("holdem", "{}", "relu"))).unwrap();
    let name = format!("policy:{},sample=1", path.display());
    let p = super::policy_by_name(&g, &name).unwrap();
    let greedy = super::policy_by_name(&g, &format!("policy:{}", path.display())).unwrap();
    std::fs::remove_file(&path).unwrap();
    let s = g.deal(&[[0, 1], [2, 3]], [4, 5, 6, 7, 8], 0);
    let hs: Vec<[u8; 2]> = holdings().iter().copied().filter(|h| h[0] > 8).collect();
    let n = g.num_actions();
    let (mut soft, mut hard) = (vec![0.0; hs.len() * n], vec![0.0; hs.len() * n]);
    p.probabilities(&g, &s, &hs, &mut soft).unwrap();
    greedy.probabilities(&g, &s, &hs, &mut hard).unwrap();
    let mut mask = vec![0u8; n];
    g.legal_mask(&s, &mut mask);
    for (row, one) in soft.chunks(n).zip(hard.chunks(n)) {
        assert!((row.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        assert!(row.iter().zip(&mask).all(|(&x, &m)| (x > 0.0) == (m != 0)));
        // The greedy file plays the most likely action of the softmax.
        let best = (0..n).max_by(|&a, &b| row[a].total_cmp(&row[b])).unwrap();
        assert_eq!(one[best], 1.0);
    }
    // The holding shows in the observation: the rows differ.
    assert!(soft.chunks(n).any(|r| r != &soft[..n]));
    let options = LbrOptions {
        hands: 4,
        ..LbrOptions::default()
    };
    assert_eq!(
        lbr(&g, p.as_ref(), &options, &crate::core::progress::Silent)
            .unwrap()
            .hands,
        4
    );
}

/// Folds or checks/calls, with probabilities that depend on the holding and the board.
struct FoldCall;

impl HoldemPolicy for FoldCall {
    fn name(&self) -> &str {
        "fold-call"
    }
    fn probabilities(
        &self,
        game: &NoLimitHoldem,
        s: &NoLimitHoldemState,
        holdings: &[[u8; 2]],
        out: &mut [f64],
    ) -> Result<()> {
        let mask = crate::games::holdem::policy::check_call(game, s, holdings, out)?;
        let n = game.num_actions();
        for (k, h) in holdings.iter().enumerate() {
            let row = &mut out[k * n..(k + 1) * n];
            row.fill(0.0);
            let f = if mask[FOLD as usize] != 0 {
                ((h[0] as usize * 5 + h[1] as usize * 3 + s.board().len()) % 7) as f64 / 8.0
            } else {
                0.0
            };
            row[FOLD as usize] = f;
            row[CHECK_CALL as usize] = 1.0 - f;
        }
        Ok(())
    }
}

/// LBR's expected net on a deal by brute force: every holding of the policy disjoint from
/// LBR's cards and the board dealt for real, every action of the policy followed with its
/// probability at that holding, LBR deciding as the sampled hand does (its range by
/// `OpponentRange::observe` along the branch; decisions memoized by the public history).
fn brute_force(
    g: &NoLimitHoldem,
    policy: &dyn HoldemPolicy,
    options: &LbrOptions,
    seat: usize,
    mine: [u8; 2],
    board: [u8; 5],
) -> f64 {
    use std::collections::HashMap;
    #[allow(clippy::too_many_arguments)]
    fn walk(
        g: &NoLimitHoldem,
        policy: &dyn HoldemPolicy,
        options: &LbrOptions,
        seat: usize,
        s: NoLimitHoldemState,
        range: OpponentRange,
        memo: &mut HashMap<Vec<u8>, u32>,
        p: f64,
    ) -> f64 {
        if s.is_over() {
            return p * s.net()[seat] as f64;
        }
        let mut range = range;
        range.block(CardSet64::from_ids(s.board().iter().copied()));
        let legal = g.legal(&s).unwrap();
        let n = g.num_actions();
        let next = |a: u32| {
            let mut t = s;
            step(g, &mut t, a);
            t
        };
        if legal.seat == seat {
            let key = s.history().0.to_vec();
            let a = *memo.entry(key).or_insert_with(|| {
                if s.street == 0 && options.preflop == PreflopMode::Call {
                    return CHECK_CALL;
                }
                let wp = win_probability(
                    s.hole_cards()[seat],
                    s.board(),
                    &range,
                    options.exact_limit,
                    options.samples,
                    &mut LaneRng::from_seed(0),
                );
                best(&lbr_candidates(g, &s, &range, policy, options, wp).unwrap())
            });
            return walk(g, policy, options, seat, next(a), range, memo, p);
        }
        let mut row = vec![0.0; n];
        policy
            .probabilities(g, &s, &[s.hole_cards()[1 - seat]], &mut row)
            .unwrap();
        let mut total = 0.0;
        for (a, &q) in row.iter().enumerate() {
            if q > 0.0 {
                let mut r = range.clone();
                r.observe(g, &s, policy, a as u32).unwrap();
                total += walk(g, policy, options, seat, next(a as u32), r, memo, p * q);
            }
        }
        total
    }
    let dead = CardSet64::from_ids(mine.iter().chain(&board).copied());
    let mut memo = HashMap::new();
    let (mut sum, mut count) = (0.0, 0);
    for &h in holdings() {
        if dead.contains(h[0]) || dead.contains(h[1]) {
            continue;
        }
        let mut hole = [h; 2];
        hole[seat] = mine;
        let s = g.deal(&hole, board, 0);
        let range = OpponentRange::uniform(CardSet64::from_ids(mine));
        sum += walk(g, policy, options, seat, s, range, &mut memo, 1.0);
        count += 1;
    }
    assert_eq!(count, 990);
    sum / count as f64
}

#[test]
fn the_expected_estimator_equals_the_brute_force_expectation_of_the_sampled_hand() {
    let g = game(200);
    let options = LbrOptions {
        bets: vec![LbrBet::Pot(1.0), LbrBet::Pot(0.5)],
        estimator: Estimator::Expect,
        ..LbrOptions::default()
    };
    for (seat, mine, board) in [
        (0, "Qh Jd", "Ah Kh 7d 5s 2d"),
        (1, "9c 8c", "Tc 7h 2c Ks 3d"),
    ] {
        let (m, b) = (ids(mine), ids(board));
        let (m, b) = ([m[0], m[1]], [b[0], b[1], b[2], b[3], b[4]]);
        let expected = brute_force(&g, &FoldCall, &options, seat, m, b);
        // The other seat's cards are a placeholder the estimator never reads.
        let other = if m.contains(&50) || b.contains(&50) {
            [48, 49]
        } else {
            [50, 51]
        };
        let mut hole = [other; 2];
        hole[seat] = m;
        let h = expect::expect_deal(
            &g,
            &FoldCall,
            &options,
            seat,
            hole,
            b,
            LaneRng::from_seed(0),
        )
        .unwrap();
        assert!(
            (h.value - expected).abs() < 1e-9,
            "{mine} {board}: {} vs {expected}",
            h.value
        );
        assert!((h.streets.iter().sum::<f64>() - h.value).abs() < 1e-9);
        assert!(h.showdown > 0.0 && h.showdown < 1.0, "{}", h.showdown);
    }
}

#[test]
fn an_all_in_on_the_flop_is_valued_over_every_runout() {
    // LBR holds aces on an ace-high flop and shoves; call-station calls. The expected
    // estimator's value is the all-in's, S · (2 · share − 1) with the share over every
    // runout and holding by the slow evaluator, whatever turn and river the deal holds.
    let g = game(200);
    let options = LbrOptions {
        bets: vec![LbrBet::AllIn],
        estimator: Estimator::Expect,
        ..LbrOptions::default()
    };
    let (m, f) = (ids("As Ah"), ids("Ad 7c 2h"));
    let card = |id: u8| Card::from_id(id).unwrap();
    let dead = CardSet64::from_ids(m.iter().chain(&f).copied());
    let deck: Vec<u8> = (0..52).filter(|&c| !dead.contains(c)).collect();
    let (mut score, mut count) = (0.0, 0.0);
    for i in 0..deck.len() {
        for j in i + 1..deck.len() {
            let board: Vec<u8> = f.iter().copied().chain([deck[i], deck[j]]).collect();
            let hand = |h: &[u8]| {
                let cards: Vec<Card> = h.iter().chain(&board).map(|&c| card(c)).collect();
                evaluate(&cards).unwrap()
            };
            let mine = hand(&m);
            for h in holdings() {
                if board.contains(&h[0])
                    || board.contains(&h[1])
                    || dead.contains(h[0])
                    || dead.contains(h[1])
                {
                    continue;
                }
                let theirs = hand(h);
                count += 1.0;
                score += if mine > theirs {
                    1.0
                } else if mine == theirs {
                    0.5
                } else {
                    0.0
                };
            }
        }
    }
    assert_eq!(count, 1081.0 * 990.0);
    let closed = 200.0 * (2.0 * score / count - 1.0);
    for (seat, turn, river) in [(0, "Kd", "3s"), (1, "Ac", "9d")] {
        let (t, r) = (ids(turn)[0], ids(river)[0]);
        let mut hole = [[50, 51]; 2];
        hole[seat] = [m[0], m[1]];
        let h = expect::expect_deal(
            &g,
            &CallStationPolicy,
            &options,
            seat,
            hole,
            [f[0], f[1], f[2], t, r],
            LaneRng::from_seed(0),
        )
        .unwrap();
        assert!((h.value - closed).abs() < 1e-9, "{} vs {closed}", h.value);
        assert!((h.showdown - 1.0).abs() < 1e-12);
    }
}

#[test]
fn the_all_in_control_variate_makes_lbr_against_call_station_a_function_of_the_flop() {
    // Against call-station LBR plays the all-in strategy of the control variate exactly, so
    // expect + control leaves mean_x φ(x, flop): the same for any LBR cards, turn and river.
    let g = game(200);
    let options = LbrOptions {
        estimator: Estimator::Expect,
        control: true,
        seed: 1,
        ..LbrOptions::default()
    };
    let flop = ids("Ad 7c 2h");
    let mut values = Vec::new();
    for (seat, mine, tr) in [
        (0, "Kd Qd", "9s 3c"),
        (1, "5h 4h", "Js Jd"),
        (1, "Ac As", "2s 8d"),
    ] {
        let (m, x) = (ids(mine), ids(tr));
        let board = [flop[0], flop[1], flop[2], x[0], x[1]];
        let mut hole = [[50, 51]; 2];
        hole[seat] = [m[0], m[1]];
        let h = expect::expect_deal(
            &g,
            &CallStationPolicy,
            &options,
            seat,
            hole,
            board,
            LaneRng::from_seed(0),
        )
        .unwrap();
        let c = control::allin_correction([m[0], m[1]], board, 200.0, 2.0);
        values.push(h.value + c);
    }
    assert!(
        (values[0] - values[1]).abs() < 1e-9 && (values[0] - values[2]).abs() < 1e-9,
        "{values:?}"
    );
    // Over the hands of a run the correction averages to zero within its interval, and the
    // corrected estimates agree with the sampled ones.
    let run = |estimator, control| {
        lbr(
            &g,
            &CallStationPolicy,
            &LbrOptions {
                hands: 96,
                estimator,
                control,
                ..options.clone()
            },
            &crate::core::progress::Silent,
        )
        .unwrap()
    };
    let sampled = run(Estimator::Sample, false);
    let controlled = run(Estimator::Sample, true);
    let c = controlled.correction;
    assert!(c.mbb.abs() < c.ci95, "{c:?}");
    let exp = run(Estimator::Expect, true);
    assert!((exp.mbb - sampled.mbb).abs() < exp.ci95 + sampled.ci95);
    assert!(
        exp.ci95 < sampled.ci95 / 10.0,
        "{} vs {}",
        exp.ci95,
        sampled.ci95
    );
    let sum: f64 = exp.streets.iter().map(|p| p.share).sum::<f64>() + exp.correction.share;
    assert!((sum - exp.mbb).abs() < 1e-6);
}

#[test]
fn the_expected_estimator_does_not_depend_on_the_thread_count() {
    let g = game(200);
    let options = LbrOptions {
        hands: 16,
        seed: 5,
        preflop: PreflopMode::Act,
        samples: 20,
        estimator: Estimator::Expect,
        control: true,
        ..LbrOptions::default()
    };
    let policy = policy_by_name("random").unwrap();
    let run = |threads: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| {
                lbr(
                    &g,
                    policy.as_ref(),
                    &options,
                    &crate::core::progress::Silent,
                )
                .unwrap()
            })
    };
    let (one, two) = (run(1), run(2));
    assert_eq!(one, two);
    assert_eq!(one.mbb.to_bits(), two.mbb.to_bits());
}
