//! Suit isomorphism: which cards mirror which, and that solving through the mirrors gives
//! what solving every card gives (up to f32 rounding), whatever the thread count, with
//! 16-bit storage, node locks and files.

use super::*;

fn spot(board: &str, oop: &str, ip: &str, bets: &str) -> Spot {
    Spot::parse(
        board,
        60,
        120,
        oop,
        ip,
        TreeConfig::uniform(bets, "").unwrap(),
    )
    .unwrap()
}

/// A turn spot where diamonds and spades are interchangeable (no card of either on the
/// board, ranges written by rank).
fn symmetric_turn() -> Spot {
    spot("AhKh7c4c", "AK,77,QJs,T9s", "AQs,44,T9s,KQ:0.5", "75%")
}

fn iso(on: bool, compress: bool) -> SolveOptions {
    SolveOptions {
        isomorphism: on,
        compress,
        target_pct: 0.0,
        max_iterations: 25,
        check_every: 25,
        ..SolveOptions::default()
    }
}

fn chance_children(tree: &SpotTree, line: &str) -> Vec<(String, Option<String>)> {
    let n = tree.find(line).unwrap();
    assert_eq!(tree.nodes()[n].kind, NodeKind::Chance);
    tree.children(n)
        .iter()
        .map(|&c| {
            let name = tree.nodes()[c as usize].action.to_string();
            let rep = tree
                .mirror_of(c as usize)
                .map(|(r, _)| tree.nodes()[r].action.to_string());
            (name, rep)
        })
        .collect()
}

#[test]
fn a_card_mirrors_the_same_rank_of_the_lowest_interchangeable_suit() {
    // Qs Jh 2h: clubs and diamonds carry no board card, hearts and spades differ.
    let s = spot("QsJh2h", "AA,KQ,JTs", "QQ,AK,T9s", "a");
    let t = SpotTree::build(&s, 1 << 24).unwrap();
    let turn = chance_children(&t, "check,check");
    assert_eq!(turn.len(), 49);
    for (card, rep) in &turn {
        if card.ends_with('d') {
            assert_eq!(rep.as_deref(), Some(&*card.replace('d', "c")), "{card}");
        } else {
            assert_eq!(rep, &None, "{card}");
        }
    }
    // After a spade turn clubs and diamonds are still interchangeable on the river; after
    // a club turn they are not.
    let river = chance_children(&t, "check,check,5s,check,check");
    assert_eq!(river.iter().filter(|(_, r)| r.is_some()).count(), 13);
    let river = chance_children(&t, "check,check,5c,check,check");
    assert!(river.iter().all(|(_, r)| r.is_none()));
    // A river card under a diamond turn mirrors the club turn's subtree: 5d then 9s is
    // 5c then 9s, and 5d then 9c is 5c then 9d (the swap moves both cards).
    let n = t.find("check,check,5d,check,check,9c").unwrap();
    let (r, _) = t.mirror_of(n).unwrap();
    assert_eq!(r, t.find("check,check,5c,check,check,9d").unwrap());
    let n = t.find("check,check,5d,check,check,9s").unwrap();
    assert_eq!(
        t.mirror_of(n).unwrap().0,
        t.find("check,check,5c,check,check,9s").unwrap()
    );
    // Every node of a mirrored subtree mirrors a node that is not a mirror, of its kind.
    for n in 0..t.nodes().len() {
        if let Some((r, _)) = t.mirror_of(n) {
            assert_eq!(t.mirror_of(r), None);
            assert_eq!(t.nodes()[r].kind, t.nodes()[n].kind);
            assert_eq!(t.nodes()[r].spent, t.nodes()[n].spent);
        }
    }
    assert!(t.mirrors() > 0);
}

#[test]
fn suit_specific_ranges_or_weights_turn_the_mirrors_off() {
    for (oop, ip) in [
        ("QQ,77,AdKd", "AQs,44"),           // a diamond combo without its spade twin
        ("QQ,77", "AQs,44,JdTd:0.5,JsTs"),  // its twin at another weight
        ("QQ,77,QsJs:0.25,QdJd", "AQs,44"), // the same, the other player
    ] {
        let s = spot("AhKh7c4c", oop, ip, "75%");
        assert_eq!(
            SpotTree::build(&s, 1 << 22).unwrap().mirrors(),
            0,
            "{oop} / {ip}"
        );
    }
    // A board with one rank per suit: no two suits interchangeable.
    let s = spot("AhKd7c4s", "AK,77", "AQs,44", "75%");
    assert_eq!(SpotTree::build(&s, 1 << 22).unwrap().mirrors(), 0);
}

/// The strategies of two solvers at every decision node (mirrors included), the largest
/// difference.
fn max_strategy_diff(a: &SpotSolver, b: &SpotSolver) -> f32 {
    let mut worst = 0f32;
    for n in 0..a.tree().nodes().len() {
        if let (Some(x), Some(y)) = (a.average_strategy(n), b.average_strategy(n)) {
            for (u, v) in x.iter().zip(&y) {
                worst = worst.max((u - v).abs());
            }
        }
    }
    worst
}

#[test]
fn solving_through_the_mirrors_matches_solving_every_card() {
    let s = symmetric_turn();
    for compress in [false, true] {
        for algorithm in [Algorithm::Dcfr, Algorithm::CfrPlus, Algorithm::PcfrPlus] {
            let run = |on: bool| {
                let o = SolveOptions {
                    algorithm,
                    ..iso(on, compress)
                };
                let mut solver = SpotSolver::new(&s, &o).unwrap();
                let sol = solver.solve(&o, &mut |_| true).unwrap();
                (solver, sol)
            };
            let (mut with, a) = run(true);
            let (mut without, b) = run(false);
            let pot = s.pot() as f64;
            let what = format!("{algorithm:?}, compress {compress}");
            // The same iterates in exact arithmetic: equal up to f32 rounding (16-bit
            // storage rounds each node's block to its own scale, so more).
            let tol = if compress { 2e-3 } else { 2e-5 };
            assert!(
                (a.exploitability - b.exploitability).abs() < tol * pot,
                "{what}: {} vs {}",
                a.exploitability,
                b.exploitability
            );
            for p in 0..2 {
                assert!((a.root_ev[p] - b.root_ev[p]).abs() < tol * pot, "{what}");
            }
            let d = max_strategy_diff(&with, &without);
            assert!(d < if compress { 2e-2 } else { 1e-3 }, "{what}: {d}");
            // One more iteration leaves the mirrors out of date (the summary filled them);
            // filled from their representatives, the strategies read the same, and the
            // exploitability computed over every card (exact) equals the one computed
            // through the mirrors (the solve's checks).
            with.iterate();
            let before: Vec<Option<Vec<f32>>> = (0..with.tree().nodes().len())
                .map(|n| with.average_strategy(n))
                .collect();
            let through = with.fast_exploitability();
            with.fill_mirrors();
            let after: Vec<Option<Vec<f32>>> = (0..with.tree().nodes().len())
                .map(|n| with.average_strategy(n))
                .collect();
            assert!(before == after, "{what}");
            let every = with.exploitability();
            assert!(
                (through - every).abs() < 1e-5 * pot,
                "{what}: {through} vs {every}"
            );
            assert!(without.exploitability() >= 0.0);
        }
    }
}

#[test]
fn mirrors_give_the_same_bits_for_any_thread_count() {
    let s = symmetric_turn();
    for compress in [false, true] {
        let run = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| {
                let o = iso(true, compress);
                let mut solver = SpotSolver::new(&s, &o).unwrap();
                let sol = solver.solve(&o, &mut |_| true).unwrap();
                let st: Vec<Vec<u32>> = (0..solver.tree().nodes().len())
                    .filter_map(|n| solver.average_strategy(n))
                    .map(|v| v.iter().map(|x| x.to_bits()).collect())
                    .collect();
                (sol.exploitability.to_bits(), st)
            })
        };
        assert!(run(1) == run(2), "compress {compress}");
    }
}

#[test]
fn a_lock_fills_the_mirrors_and_solves_without_them() {
    let s = symmetric_turn();
    let o = iso(true, false);
    let mut solver = SpotSolver::new(&s, &o).unwrap();
    solver.solve(&o, &mut |_| true).unwrap();
    let before: Vec<Option<Vec<f32>>> = (0..solver.tree().nodes().len())
        .map(|n| solver.average_strategy(n))
        .collect();
    let mirror = (0..solver.tree().nodes().len())
        .find(|&n| {
            solver.tree().mirror_of(n).is_some()
                && matches!(solver.tree().nodes()[n].kind, NodeKind::Decision(_))
        })
        .unwrap();
    solver
        .set_locks(&[NodeLock::parse("=check:1").unwrap()])
        .unwrap();
    // The mirrors' own slots now hold what was read through them.
    let (r, c) = solver.raw_block(mirror);
    assert!(c.iter().any(|&x| x != 0.0) && r.iter().any(|&x| x != 0.0));
    // (The root is the locked node: skipped.)
    for (n, b) in before.iter().enumerate().skip(1) {
        assert_eq!(&solver.average_strategy(n), b, "node {n}");
    }
    // With a lock from the start, isomorphism on or off gives the same bits: it is not
    // used while locks are in force.
    let locked = |on: bool| {
        let o = iso(on, false);
        let mut solver = SpotSolver::new(&s, &o).unwrap();
        solver
            .set_locks(&[NodeLock::parse("=check:1").unwrap()])
            .unwrap();
        let sol = solver.solve(&o, &mut |_| true).unwrap();
        (sol.exploitability.to_bits(), solver.average_strategy(0))
    };
    assert_eq!(locked(true), locked(false));
}

#[test]
fn a_saved_solve_with_mirrors_continues_exactly() {
    let s = symmetric_turn();
    for on in [true, false] {
        let o = SolveOptions {
            max_iterations: 7,
            ..iso(on, false)
        };
        let mut first = SpotSolver::new(&s, &o).unwrap();
        first.solve(&o, &mut |_| true).unwrap();
        let mut buf = Vec::new();
        first.write_to(&mut buf, &o).unwrap();
        let (mut loaded, back) = SpotSolver::read_from(buf.as_slice()).unwrap();
        assert_eq!(back.isomorphism, on);
        let more = SolveOptions {
            max_iterations: 5,
            ..back
        };
        loaded.solve(&more, &mut |_| true).unwrap();
        let mut straight = SpotSolver::new(&s, &o).unwrap();
        straight
            .solve(
                &SolveOptions {
                    max_iterations: 12,
                    ..o
                },
                &mut |_| true,
            )
            .unwrap();
        for n in 0..straight.tree().nodes().len() {
            assert_eq!(loaded.average_strategy(n), straight.average_strategy(n));
        }
        for (a, b) in loaded.state().iter().zip(straight.state()) {
            assert!(
                a.iter()
                    .zip(b.iter())
                    .all(|(x, y)| x.to_bits() == y.to_bits()),
                "iso {on}"
            );
        }
    }
}

/// The fuzz check's symmetric spots (bit 7 of its first byte) solve under the invariants
/// with the mirrors in use: a few hundred inputs from a fixed stream.
#[test]
fn the_fuzz_checks_symmetric_spots_hold_their_invariants() {
    use rand_core::{Rng, SeedableRng};
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(7);
    for _ in 0..200 {
        let mut data = vec![0u8; 64];
        rng.fill_bytes(&mut data);
        data[0] |= 0b1000_0001; // symmetric, a turn spot
        fuzz_check_spot(&data).unwrap();
    }
}

/// A mirror node reads as the same node solved over every card: reach, EVs, equities, the
/// strategy and the action EVs of every hand (up to f32 rounding).
#[test]
fn a_mirror_node_reads_as_when_every_card_is_solved() {
    let s = symmetric_turn();
    let solved = |on: bool| {
        let o = iso(on, false);
        let mut solver = SpotSolver::new(&s, &o).unwrap();
        solver.solve(&o, &mut |_| true).unwrap();
        solver
    };
    let (mut with, mut without) = (solved(true), solved(false));
    let close =
        |a: f64, b: f64| (a.is_nan() && b.is_nan()) || (a - b).abs() <= 1e-3 * (1.0 + b.abs());
    // 9s mirrors 9d: the river decisions after a checked and a called turn.
    for line in [
        "check,check,9s",
        "check,check,9s,check",
        "check,bet:45,call,9s",
    ] {
        let n = with.tree().find(line).unwrap();
        assert!(with.tree().mirror_of(n).is_some(), "{line}");
        let (a, b) = (
            with.node_report(line, &[]).unwrap(),
            without.node_report(line, &[]).unwrap(),
        );
        assert_eq!(a.node, b.node);
        for p in 0..2 {
            let (x, y) = (&a.players[p], &b.players[p]);
            assert_eq!(x.hands, y.hands);
            for i in 0..x.hands.len() {
                assert!(
                    close(x.reach[i] as f64, y.reach[i] as f64),
                    "{line} {p} reach {i}"
                );
                assert!(
                    close(x.ev[i], y.ev[i]),
                    "{line} {p} ev {i}: {} {}",
                    x.ev[i],
                    y.ev[i]
                );
                assert!(close(x.equity[i], y.equity[i]), "{line} {p} equity {i}");
            }
            match (&x.strategy, &y.strategy) {
                (Some(u), Some(v)) => {
                    assert!(u.iter().zip(v).all(|(u, v)| (u - v).abs() < 1e-3), "{line}")
                }
                (None, None) => {}
                _ => panic!("{line}: a strategy on one side only"),
            }
            if let (Some(u), Some(v)) = (&x.action_ev, &y.action_ev) {
                assert!(u.iter().zip(v).all(|(&u, &v)| close(u, v)), "{line}");
            }
        }
    }
}
