//! Reading a solved spot at a node: the root against `root_hand_ev` and
//! `root_action_evs`, reach, equity and the aggregates against direct computations, the
//! line's words and its errors, the subtree export.

// Parallel arrays (hands, reach, strategy rows) read by index.
#![allow(clippy::needless_range_loop)]

use super::*;
use crate::poker::{rank_of_set, Card, HoleCards};

fn solved(board: &str, oop: &str, ip: &str, bets: &str, iterations: u64) -> SpotSolver {
    let mut tree = TreeConfig::uniform(bets, "2.5x").unwrap();
    tree.raise_cap = 1;
    let spot = Spot::parse(board, 100, 200, oop, ip, tree).unwrap();
    let options = SolveOptions {
        target_pct: 0.0,
        max_iterations: iterations,
        ..SolveOptions::default()
    };
    let mut s = SpotSolver::new(&spot, &options).unwrap();
    s.solve(&options, &mut |_| true).unwrap();
    s
}

const RIVER: &str = "2s3s8sTdKd";
const OOP: &str = "AsQs,7s6s,5h4h,5c4c:0.5,KcJc,QhJh";
const IP: &str = "KhQh,KcQc:0.7,KhJc,TcTh,AhAd";

fn same(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan()))
}

fn cards(text: &str) -> Vec<Card> {
    crate::poker::parse_cards(text).unwrap()
}

/// Each hand's equity against `reach_o` on a 5-card board, by an n² loop.
fn brute_equity(
    hands: &[HoleCards],
    opp: &[HoleCards],
    reach_o: &[f32],
    board: &[Card],
) -> Vec<f64> {
    let mut set = crate::core::CardSet64(0);
    for c in board {
        set |= c.bit();
    }
    hands
        .iter()
        .map(|h| {
            if !(h.set() & set).is_empty() {
                return f64::NAN;
            }
            let mine = rank_of_set(h.set() | set);
            let (mut won, mut all) = (0.0, 0.0);
            for (o, &r) in opp.iter().zip(reach_o) {
                if !(o.set() & (h.set() | set)).is_empty() || r == 0.0 {
                    continue;
                }
                let theirs = rank_of_set(o.set() | set);
                let r = r as f64;
                all += r;
                won += r * match mine.cmp(&theirs) {
                    std::cmp::Ordering::Greater => 1.0,
                    std::cmp::Ordering::Equal => 0.5,
                    std::cmp::Ordering::Less => 0.0,
                };
            }
            if all > 0.0 {
                won / all
            } else {
                f64::NAN
            }
        })
        .collect()
}

#[test]
fn the_root_report_is_root_hand_ev_and_root_action_evs() {
    let mut s = solved(RIVER, OOP, IP, "75%,a", 50);
    let r = s.node_report("", &[]).unwrap();
    assert_eq!(r.node, 0);
    assert_eq!(r.player, Some(0));
    assert!(r.line.is_empty());
    for p in 0..2 {
        assert!(same(&r.players[p].ev, &s.root_hand_ev(p)), "player {p}");
        assert_eq!(r.players[p].reach, s.spot().weights(p));
    }
    let (q, evs) = s.root_action_evs().unwrap();
    assert_eq!(q, 0);
    assert!(same(
        r.players[0].action_ev.as_ref().unwrap(),
        &evs.concat()
    ));
    assert_eq!(r.players[0].strategy, s.average_strategy(0));
    assert!(r.players[1].strategy.is_none());
    // The root's equities are root_equity's per hand.
    let eq = s.root_equity();
    for p in 0..2 {
        let pr = &r.players[p];
        let w: f64 = pr.weight.iter().sum();
        let avg: f64 = pr
            .weight
            .iter()
            .zip(&pr.equity)
            .map(|(w, e)| w * e)
            .sum::<f64>()
            / w;
        assert!((avg - eq[p]).abs() < 1e-6, "{avg} vs {}", eq[p]);
    }
}

#[test]
fn a_node_reads_reach_ev_equity_and_aggregates_as_computed_directly() {
    let mut s = solved(RIVER, OOP, IP, "75%,a", 80);
    let spot = s.spot().clone();
    // OOP checks, IP bets 75% (75 chips into 100), OOP to act.
    let r = s.node_report("check,bet:75%", &[]).unwrap();
    assert_eq!(r.line, ["check", "bet:75"]);
    assert_eq!(r.player, Some(0));
    assert_eq!(r.pot, 175);
    assert_eq!(r.spent, [0, 75]);
    let words: Vec<&str> = r.actions.iter().map(|a| a.word.as_str()).collect();
    assert_eq!(words, ["fold", "call", "raise:200"]);
    assert!(r.actions[2].all_in);
    assert!((r.actions[2].pct.unwrap() - 100.0 * 125.0 / 250.0).abs() < 1e-9);
    // Reach: the starting weights times each player's own strategy along the line.
    let root = s.average_strategy(0).unwrap();
    let check = s.tree().find("check").unwrap();
    let after = s.average_strategy(check).unwrap();
    let (n0, n1) = (spot.hands(0).len(), spot.hands(1).len());
    for i in 0..n0 {
        assert_eq!(r.players[0].reach[i], spot.weights(0)[i] * root[i]);
    }
    let bet = s
        .tree()
        .children(check)
        .iter()
        .position(|&c| s.tree().nodes()[c as usize].action == Action::Bet(75));
    let bet = bet.unwrap();
    for i in 0..n1 {
        assert_eq!(
            r.players[1].reach[i],
            spot.weights(1)[i] * after[bet * n1 + i]
        );
    }
    // Equity against the other's reach, by brute force.
    let b = cards(RIVER);
    for p in 0..2 {
        let direct = brute_equity(
            spot.hands(p),
            spot.hands(1 - p),
            &r.players[1 - p].reach,
            &b,
        );
        for (x, y) in r.players[p].equity.iter().zip(&direct) {
            assert!(
                (x - y).abs() < 1e-6 || (x.is_nan() && y.is_nan()),
                "{x} {y}"
            );
        }
    }
    // The two players' average EVs sum to the starting pot; the actor's EV mixes its
    // action EVs by its strategy.
    let avg = |pr: &PlayerReport| {
        let w: f64 = pr.weight.iter().sum();
        pr.weight
            .iter()
            .zip(&pr.ev)
            .filter(|(w, _)| **w > 0.0)
            .map(|(w, e)| w * e)
            .sum::<f64>()
            / w
    };
    let total = avg(&r.players[0]) + avg(&r.players[1]);
    assert!((total - 100.0).abs() < 1e-3, "{total}");
    let pr = &r.players[0];
    let (st, aev) = (
        pr.strategy.as_ref().unwrap(),
        pr.action_ev.as_ref().unwrap(),
    );
    for i in (0..n0).filter(|&i| pr.weight[i] > 0.0) {
        let mixed: f64 = (0..3)
            .map(|a| st[a * n0 + i] as f64 * aev[a * n0 + i])
            .sum();
        assert!(
            (mixed - pr.ev[i]).abs() < 1e-3,
            "hand {i}: {mixed} vs {}",
            pr.ev[i]
        );
        // Folding loses nothing more than what OOP put in: 0 since the start.
        assert_eq!(aev[i], 0.0);
    }
    // The classes and categories against a direct loop over the hands.
    for (p, pr) in r.players.iter().enumerate() {
        let classes = pr.by_class();
        assert_eq!(
            classes.iter().map(|(_, a)| a.hands).sum::<usize>(),
            spot.hands(p).len()
        );
        for (class, agg) in &classes {
            let members: Vec<usize> = (0..spot.hands(p).len())
                .filter(|&i| {
                    let [a, b] = spot.hands(p)[i].cards();
                    crate::poker::preflop::HandClass::of_hole(a, b) == *class
                })
                .collect();
            assert_eq!(agg.name, class.name());
            assert_eq!(agg.hands, members.len());
            let w: f64 = members.iter().map(|&i| pr.weight[i]).sum();
            assert!((agg.weight - w).abs() < 1e-12);
            let c: f64 = members.iter().map(|&i| pr.reach[i] as f64).sum();
            assert!((agg.combos - c).abs() < 1e-12);
            if w > 0.0 {
                let ev: f64 = members
                    .iter()
                    .filter(|&&i| pr.weight[i] > 0.0)
                    .map(|&i| pr.weight[i] * pr.ev[i])
                    .sum::<f64>()
                    / w;
                assert!((agg.ev - ev).abs() < 1e-9, "{} {ev}", agg.ev);
                if let Some(st) = &pr.strategy {
                    let n = spot.hands(p).len();
                    for a in 0..3 {
                        let f: f64 = members
                            .iter()
                            .map(|&i| pr.weight[i] * st[a * n + i] as f64)
                            .sum::<f64>()
                            / w;
                        assert!((agg.strategy[a] - f).abs() < 1e-9);
                    }
                }
            } else {
                assert!(agg.ev.is_nan());
            }
        }
        let cats = pr.by_category(&b);
        let shapes: usize = cats
            .iter()
            .filter(|a| SHAPES.contains(&a.name.as_str()))
            .map(|a| a.hands)
            .sum();
        let made: usize = cats
            .iter()
            .filter(|a| !SHAPES.contains(&a.name.as_str()))
            .map(|a| a.hands)
            .sum();
        assert_eq!(shapes, spot.hands(p).len());
        assert_eq!(made, spot.hands(p).len());
    }
    let cats = r.players[0].by_category(&b);
    let names: Vec<&str> = cats.iter().map(|a| a.name.as_str()).collect();
    // AsQs and 7s6s make flushes, KcJc a pair of kings; 5h4h, 5c4c and QhJh nothing.
    assert!(
        names.contains(&"flush") && names.contains(&"one pair"),
        "{names:?}"
    );
    let count = |name: &str| cats.iter().find(|a| a.name == name).map_or(0, |a| a.hands);
    assert_eq!(
        [count("flush"), count("one pair"), count("high card")],
        [2, 1, 3]
    );
    let suited = cats.iter().find(|a| a.name == "suited").unwrap();
    assert_eq!(suited.hands, 6);
}

#[test]
fn a_turn_spot_reads_nodes_after_the_river_card() {
    let mut s = solved("Td9d6hQc", "AA,KQs,J8s", "QQ-JJ,AQs,T9s", "60%", 20);
    // The river card in the line, or from the cards.
    let a = s.node_report("check,check,Kh", &[]).unwrap();
    let b = s.node_report("check,check", &cards("Kh")).unwrap();
    assert_eq!((a.node, &a.line, &a.board), (b.node, &b.line, &b.board));
    for p in 0..2 {
        assert_eq!(a.players[p].reach, b.players[p].reach);
        assert!(same(&a.players[p].ev, &b.players[p].ev));
    }
    assert_eq!(a.line, ["check", "check", "Kh"]);
    assert_eq!(a.street, 2);
    assert_eq!(a.board.len(), 5);
    assert_eq!(a.player, Some(0));
    // Hands holding the king are out of both ranges there.
    for p in 0..2 {
        for (h, (&r, &e)) in a.players[p]
            .hands
            .iter()
            .zip(a.players[p].reach.iter().zip(&a.players[p].ev))
        {
            if h.cards().iter().any(|c| c.to_string() == "Kh") {
                assert_eq!(r, 0.0);
                assert!(e.is_nan());
            }
        }
        let direct = brute_equity(
            &a.players[p].hands,
            &a.players[1 - p].hands,
            &a.players[1 - p].reach,
            &a.board,
        );
        for (x, y) in a.players[p].equity.iter().zip(&direct) {
            assert!(
                (x - y).abs() < 1e-6 || (x.is_nan() && y.is_nan()),
                "{x} {y}"
            );
        }
    }
    // The chance node itself: the cards that can come.
    let c = s.node_report("check,check", &[]).unwrap();
    assert_eq!(c.kind, NodeKind::Chance);
    assert_eq!(c.cards.len(), 48);
    assert!(c.actions.is_empty() && c.player.is_none());
    // On from the river node, and an illegal, a missing and a left-over card.
    let bet = s.node_report("check,check,Kh,bet", &[]).unwrap();
    assert_eq!(bet.player, Some(1));
    let mut err = |line: &str, extra: &str| {
        s.node_report(line, &cards_or_none(extra))
            .unwrap_err()
            .to_string()
    };
    let e = err("check,check,Td", "");
    assert!(
        e.contains("Td cannot come as the river card") && e.contains("Kh"),
        "{e}"
    );
    let e = err("check,check,bet", "");
    assert!(
        e.contains("the river card comes after \"check,check\"") && e.contains("2c"),
        "{e}"
    );
    let e = err("check", "Kh");
    assert!(e.contains("Kh is left over"), "{e}");
    let e = err("check,check,Kh,check,check,call", "");
    assert!(e.contains("the hand is over"), "{e}");
}

fn cards_or_none(text: &str) -> Vec<Card> {
    if text.is_empty() {
        Vec::new()
    } else {
        cards(text)
    }
}

#[test]
fn the_line_words_match_sizes_and_unknown_ones_list_the_actions() {
    let mut s = solved(RIVER, OOP, IP, "33%,75%", 5);
    let find = |s: &mut SpotSolver, line: &str| s.node_report(line, &[]).map(|r| r.line.join(","));
    assert_eq!(find(&mut s, "bet:33%").unwrap(), "bet:33");
    assert_eq!(find(&mut s, "BET:75%").unwrap(), "bet:75");
    assert_eq!(find(&mut s, "bet:75").unwrap(), "bet:75");
    assert_eq!(find(&mut s, "bet:74%").unwrap(), "bet:75");
    // The all-in the threshold adds (200 ≤ 1.5 × 100? no: 200 > 150), so none here.
    let e = find(&mut s, "allin").unwrap_err().to_string();
    assert!(e.contains("no action \"allin\" at the root"), "{e}");
    assert!(e.contains("check, bet:33 (33%), bet:75 (75%)"), "{e}");
    let e = find(&mut s, "bet:50%").unwrap_err().to_string();
    assert!(e.contains("bet:50%") && e.contains("OOP to act can"), "{e}");
    let e = find(&mut s, "bet").unwrap_err().to_string();
    assert!(e.contains("no action \"bet\""), "{e}");
    // Raises: 2.5x the bet faced (33 → 83 or so), and all-in.
    let r = s.node_report("bet:33%", &[]).unwrap();
    let raises: Vec<String> = r.actions.iter().map(|a| a.word.clone()).collect();
    assert!(raises.iter().any(|w| w.starts_with("raise:")), "{raises:?}");
    assert_eq!(
        find(&mut s, "bet:33,raise:2.5x")
            .unwrap()
            .split(',')
            .count(),
        2
    );
    let e = find(&mut s, "bet:33,check").unwrap_err().to_string();
    assert!(
        e.contains("after \"bet:33\"") && e.contains("IP to act can fold, call"),
        "{e}"
    );
    // A fold is a terminal: the folder's EV is what it put in, lost.
    let f = s.node_report("bet:75,fold", &[]).unwrap();
    assert_eq!(f.kind, NodeKind::Fold(1));
    for (&ev, &w) in f.players[1].ev.iter().zip(&f.players[1].weight) {
        if w > 0.0 {
            assert_eq!(ev, 0.0);
        }
    }
    for (&ev, &w) in f.players[0].ev.iter().zip(&f.players[0].weight) {
        if w > 0.0 {
            assert!((ev - 100.0).abs() < 1e-4, "{ev}");
        }
    }
}

#[test]
fn the_subtree_export_holds_the_strategies() {
    let s = solved(RIVER, OOP, IP, "75%", 10);
    let v = s.subtree_json("check", &[], None).unwrap();
    assert_eq!(v["line"], "check");
    assert_eq!(
        v["hands"][1].as_array().unwrap().len(),
        s.spot().hands(1).len()
    );
    let node = &v["node"];
    assert_eq!(node["kind"], "decision");
    assert_eq!(node["player"], 1);
    let check = s.tree().find("check").unwrap();
    let st = s.average_strategy(check).unwrap();
    let n = s.spot().hands(1).len();
    let rows = node["strategy"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    for (a, row) in rows.iter().enumerate() {
        for (i, x) in row.as_array().unwrap().iter().enumerate() {
            assert_eq!(x.as_f64().unwrap() as f32, st[a * n + i]);
        }
    }
    let kids = node["children"].as_array().unwrap();
    assert_eq!(kids[0]["kind"], "showdown");
    assert_eq!(kids[1]["action"], "bet:75");
    assert_eq!(kids[1]["children"][0]["kind"], "fold");
    assert_eq!(kids[1]["children"][0]["folder"], 0);
    // Depth 0: the node alone, marked truncated.
    let top = s.subtree_json("", &[], Some(0)).unwrap();
    assert_eq!(top["node"]["truncated"], true);
    assert!(top["node"].get("children").is_none());
    assert!(s.subtree_json("fold", &[], None).is_err());
}

#[test]
fn a_locked_node_reports_the_lock() {
    // IP locked to always call the pot-sized bet: the report shows the lock's strategy and
    // the reach below it follows it.
    let mut s = solved(RIVER, OOP, IP, "100%", 5);
    s.set_locks(&[NodeLock::parse("ip:bet:100=call:1").unwrap()])
        .unwrap();
    let options = SolveOptions {
        target_pct: 0.0,
        max_iterations: 30,
        ..SolveOptions::default()
    };
    s.solve(&options, &mut |_| true).unwrap();
    let r = s.node_report("bet:100%", &[]).unwrap();
    assert_eq!(r.player, Some(1));
    let n = r.players[1].hands.len();
    let st = r.players[1].strategy.as_ref().unwrap();
    assert!(st[..n].iter().all(|&x| x == 0.0), "fold: {:?}", &st[..n]);
    assert!(
        st[n..2 * n].iter().all(|&x| x == 1.0),
        "call: {:?}",
        &st[n..]
    );
    let called = s.node_report("bet:100,call", &[]).unwrap();
    assert_eq!(called.players[1].reach, s.spot().weights(1));
}
