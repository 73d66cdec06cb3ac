//! A solved spot as a hold'em policy, and LBR from a spot's root checked against the
//! spot's exact best response.

use std::sync::Arc;

use super::*;
use crate::solve::spot::{SolveOptions, Spot, SpotPolicy, SpotSolver, TreeConfig};

/// A river spot: OOP's range is polarized (sets and air), IP's holds bluff-catchers.
fn river() -> Spot {
    Spot::parse(
        "AhKh7d4c2s",
        100,
        300,
        "77,44,QJs,T9s,86s,JTs",
        "AQ,KQ,QQ,JJ,TT",
        TreeConfig::uniform("50%,a", "a").unwrap(),
    )
    .unwrap()
}

/// A turn spot: one bet size, an all-in raise.
fn turn() -> Spot {
    Spot::parse(
        "Td9d6hQc",
        60,
        150,
        "AA,KK,T9s,87s,AdKd,QJs",
        "QQ,JJ,AQs,KJs,98s,Ad5d",
        TreeConfig::uniform("60%", "a").unwrap(),
    )
    .unwrap()
}

fn policy(spot: &Spot, iterations: u64) -> SpotPolicy {
    let mut solver = SpotSolver::new(spot, &SolveOptions::default()).unwrap();
    for _ in 0..iterations {
        solver.iterate();
    }
    SpotPolicy::new(solver, "spot").unwrap()
}

fn options(p: &SpotPolicy, hands: u64, estimator: Estimator) -> LbrOptions {
    LbrOptions {
        hands,
        seed: 1,
        estimator,
        spot: Some(Arc::new(p.start().clone())),
        ..LbrOptions::default()
    }
}

fn step(game: &NoLimitHoldem, s: &mut NoLimitHoldemState, action: u32) -> bool {
    let mut r = [0f32; 2];
    game.step(s, action, &mut LaneRng::from_seed(0), &mut r)
        .applied
}

#[test]
fn a_spot_policy_reads_the_average_strategy_at_the_tables_node() {
    let spot = river();
    let p = policy(&spot, 50);
    let game = p.start().game().unwrap();
    let board: Vec<u8> = spot.board().iter().map(|c| c.id()).collect();
    let b5 = [board[0], board[1], board[2], board[3], board[4]];
    // The seats' cards: IP (the button, seat 0) its first hand, OOP (seat 1) a hand
    // disjoint from it (the policy never reads the cards of the seat to act).
    let oop: Vec<[u8; 2]> = spot
        .hands(0)
        .iter()
        .map(|h| h.cards().map(|c| c.id()))
        .collect();
    let ip: Vec<[u8; 2]> = spot
        .hands(1)
        .iter()
        .map(|h| h.cards().map(|c| c.id()))
        .collect();
    let hole = [
        ip[0],
        oop.iter()
            .copied()
            .find(|h| !h.iter().any(|c| ip[0].contains(c)))
            .unwrap(),
    ];
    let s = p.start().root(&game, &hole, b5).unwrap();
    assert_eq!(s.pot_total(), 100);
    // The root: OOP's actions (check, bet 50, all-in 300) and its strategy per hand.
    let acts = p.actions(&game, &s).unwrap();
    assert_eq!(acts, [CHECK_CALL, EXACT_RAISE | 50, game.all_in_action()]);
    let tree = p.solver().tree();
    let mut out = vec![0.0; oop.len() * 3];
    p.probabilities(&game, &s, &oop, &mut out).unwrap();
    let avg = p.solver().average_strategy(0).unwrap();
    for (i, row) in out.chunks(3).enumerate() {
        assert!((row.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        for a in 0..3 {
            assert!((row[a] - avg[a * oop.len() + i] as f64).abs() < 1e-6);
        }
    }
    // The strategy differs by hand (the policy is not uniform after 50 iterations).
    assert!(
        out.chunks(3)
            .any(|r| r.iter().zip(&out[..3]).any(|(x, y)| (x - y).abs() > 0.05)),
        "{:?}",
        &out[..30]
    );
    // OOP bets 50: IP's node `bet:50`, its actions fold, call, all-in.
    let mut t = s;
    assert!(step(&game, &mut t, EXACT_RAISE | 50));
    let n = p.node(&game, &t).unwrap();
    assert_eq!(n, tree.find("bet:50").unwrap());
    assert_eq!(
        p.actions(&game, &t).unwrap(),
        [FOLD, CHECK_CALL, game.all_in_action()]
    );
    let mut out = vec![0.0; ip.len() * 3];
    p.probabilities(&game, &t, &ip, &mut out).unwrap();
    let avg = p.solver().average_strategy(n).unwrap();
    for (i, row) in out.chunks(3).enumerate() {
        for a in 0..3 {
            assert!((row[a] - avg[a * ip.len() + i] as f64).abs() < 1e-6);
        }
    }
    // Range tracking by the policy's own action list: IP's all-in is one of its actions.
    let mut range = OpponentRange {
        weights: p.start().weights(1).to_vec(),
    };
    range.normalize();
    range.observe(&game, &t, &p, game.all_in_action()).unwrap();
    // Off the tree: a bet of 40 is an error naming the tree's actions, and so is a raise
    // size the tree does not have.
    let mut off = s;
    assert!(step(&game, &mut off, EXACT_RAISE | 40));
    let e = p.node(&game, &off).unwrap_err().to_string();
    assert!(
        e.contains("bet or raise to 40") && e.contains("bet:50"),
        "{e}"
    );
    assert!(p.probabilities(&game, &off, &ip, &mut out).is_err());
    let mut off = t;
    assert!(step(&game, &mut off, EXACT_RAISE | 150));
    assert!(p.node(&game, &off).is_err());
    // A holding outside the range, a wrong length, another table: errors.
    let out_of_range = [[0u8, 1u8]];
    let mut one = vec![0.0; 3];
    let e = p
        .probabilities(&game, &s, &out_of_range, &mut one)
        .unwrap_err()
        .to_string();
    assert!(e.contains("not in the spot's OOP range"), "{e}");
    assert!(p.probabilities(&game, &s, &oop, &mut one).is_err());
    let other = NoLimitHoldem::new(
        2,
        crate::games::holdem::TableConfig::new(1, 2, 0).unwrap(),
        400,
    )
    .unwrap();
    let dealt = other.deal(&hole, b5, 0);
    assert!(p.node(&other, &dealt).is_err());
    // An odd pot cannot be played at the table.
    let odd = Spot::parse(
        "AhKh7d4c2s",
        101,
        300,
        "AK",
        "QQ",
        TreeConfig::uniform("50%", "").unwrap(),
    )
    .unwrap();
    let solver = SpotSolver::new(&odd, &SolveOptions::default()).unwrap();
    assert!(SpotPolicy::new(solver, "odd").is_err());
}

#[test]
fn a_turn_spots_policy_follows_the_river_card() {
    let spot = turn();
    let p = policy(&spot, 20);
    let game = p.start().game().unwrap();
    let board: Vec<u8> = spot.board().iter().map(|c| c.id()).collect();
    let river = crate::poker::parse_cards("2s").unwrap()[0].id();
    let ip = spot.hands(1)[0].cards().map(|c| c.id());
    let oop = spot
        .hands(0)
        .iter()
        .map(|h| h.cards().map(|c| c.id()))
        .find(|h| !h.iter().any(|c| ip.contains(c)))
        .unwrap();
    let s = p
        .start()
        .root(
            &game,
            &[ip, oop],
            [board[0], board[1], board[2], board[3], river],
        )
        .unwrap();
    // Check, check: the river card's node, OOP to act.
    let mut t = s;
    assert!(step(&game, &mut t, CHECK_CALL));
    assert!(step(&game, &mut t, CHECK_CALL));
    assert_eq!(t.board().len(), 5);
    assert_eq!(
        p.node(&game, &t).unwrap(),
        p.solver().tree().find("check,check,2s").unwrap()
    );
}

/// LBR's value per spot player and the exact values, for a policy.
fn run(p: &SpotPolicy, hands: u64, estimator: Estimator) -> LbrReport {
    let game = p.start().game().unwrap();
    lbr(
        &game,
        p,
        &options(p, hands, estimator),
        &crate::core::progress::Silent,
    )
    .unwrap()
}

#[test]
fn lbr_from_a_spot_root_never_beats_the_exact_best_response() {
    for (name, spot, hands) in [("river", river(), 2000), ("turn", turn(), 1000)] {
        // A solved strategy: LBR stays at or below the exact best response (within its
        // interval); a bad one (the uniform strategy, no iteration): LBR still does, and
        // finds a large part of what the best response gains.
        for iterations in [300, 0] {
            let p = policy(&spot, iterations);
            let r = run(&p, hands, Estimator::Expect);
            let sr = r.spot.unwrap();
            for part in sr.players {
                let br = part.best_response.unwrap();
                let ev = part.strategy_ev.unwrap();
                eprintln!(
                    "{name} {iterations}: LBR {:.3} ± {:.3}, BR {br:.3}, EV {ev:.3}, found {:?}",
                    part.value, part.ci95, part.found
                );
                assert!(
                    part.value <= br + part.ci95,
                    "{name} {iterations}: {part:?}"
                );
                if iterations == 0 {
                    assert!(part.value - part.ci95 > ev, "{name}: {part:?}");
                    assert!(part.found.unwrap() > 0.3, "{name}: {part:?}");
                }
            }
            assert_eq!(sr.players[0].hands + sr.players[1].hands, hands);
        }
    }
}

#[test]
fn the_sampled_and_expected_estimators_agree_from_a_spot_root() {
    let p = policy(&river(), 0);
    let a = run(&p, 3000, Estimator::Sample).spot.unwrap();
    let b = run(&p, 400, Estimator::Expect).spot.unwrap();
    for (x, y) in a.players.iter().zip(&b.players) {
        let gap = (x.value - y.value).abs();
        assert!(gap < 1.5 * (x.ci95 + y.ci95), "{x:?} vs {y:?}");
        // The expected estimator's variance per hand is smaller.
        let var = |p: &crate::solve::lbr::SpotPart| p.ci95 * p.ci95 * p.hands as f64;
        assert!(var(y) < var(x), "{x:?} vs {y:?}");
    }
}

#[test]
fn lbr_from_a_spot_does_not_depend_on_the_thread_count() {
    let p = policy(&turn(), 30);
    let game = p.start().game().unwrap();
    let opts = options(&p, 40, Estimator::Sample);
    let run = |threads: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| lbr(&game, &p, &opts, &crate::core::progress::Silent).unwrap())
    };
    assert_eq!(run(1), run(2));
    // The control variate and another table are refused.
    let bad = LbrOptions {
        control: true,
        ..opts.clone()
    };
    assert!(lbr(&game, &p, &bad, &crate::core::progress::Silent).is_err());
    let other = NoLimitHoldem::new(
        2,
        crate::games::holdem::TableConfig::new(1, 2, 0).unwrap(),
        400,
    )
    .unwrap();
    assert!(lbr(&other, &p, &opts, &crate::core::progress::Silent).is_err());
}
