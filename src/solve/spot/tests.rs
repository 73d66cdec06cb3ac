//! The spot solver's checks: bad input, tree shape, the sweep against brute force, the
//! solver against the generic `GameTree` solvers on a flattened spot, the closed-form river
//! toy game, thread-count independence and invariants on random spots.

use super::solver::{compatible, sweep, Tables};
use super::*;
use crate::core::{Game, GameTree, InfoStates, LaneOutcome, LaneRng, StopFlag};
use crate::poker::evaluate;
use crate::solve::cfr::{CfrConfig, CfrSolver};
use crate::solve::exploit;
use crate::solve::flat::FlatTree;
use crate::solve::policy::Policy;

fn spot(board: &str, pot: u64, stack: u64, oop: &str, ip: &str, bets: &str, raises: &str) -> Spot {
    Spot::parse(
        board,
        pot,
        stack,
        oop,
        ip,
        TreeConfig::uniform(bets, raises).unwrap(),
    )
    .unwrap()
}

fn options(algorithm: Algorithm) -> SolveOptions {
    SolveOptions {
        algorithm,
        ..SolveOptions::default()
    }
}

#[test]
fn bad_inputs_are_clear_errors() {
    let tree = || TreeConfig::uniform("50%", "").unwrap();
    let err = |r: Result<Spot>| r.unwrap_err().to_string();
    let e = err(Spot::parse("AhKd7c4s2h3h", 10, 10, "AA", "KK", tree()));
    assert!(e.contains("3, 4 or 5"), "{e}");
    let e = err(Spot::parse("AhKdAh", 10, 10, "QQ", "KK", tree()));
    assert!(e.contains("more than once"), "{e}");
    let ah = "Ah".parse::<crate::poker::Card>().unwrap();
    let w = WeightedRange::parse("QQ").unwrap();
    let e = Spot::new(&[ah, ah, ah], 10, 10, &w, &w, tree())
        .unwrap_err()
        .to_string();
    assert!(e.contains("twice"), "{e}");
    let e = err(Spot::parse("AhKd7c", 0, 10, "QQ", "KK", tree()));
    assert!(e.contains("pot"), "{e}");
    let e = err(Spot::parse("AhKd7c", 10, MAX_CHIPS + 1, "QQ", "KK", tree()));
    assert!(e.contains("stack"), "{e}");
    // A range that only holds board cards.
    let e = err(Spot::parse("AhKd7c", 10, 10, "AhKd", "KK", tree()));
    assert!(
        e.contains("OOP range is empty") && e.contains("overlap the board"),
        "{e}"
    );
    let e = err(Spot::parse("AhKd7c", 10, 10, "QQ", "7c2d", tree()));
    assert!(e.contains("IP range is empty"), "{e}");
    // Every pair shares a card.
    let e = err(Spot::parse("AhKd7c", 10, 10, "QcQd", "QcQh", tree()));
    assert!(e.contains("no OOP hand"), "{e}");
    let e = err(Spot::parse("AhKd7c", 10, 10, "QX", "KK", tree()));
    assert!(e.contains("OOP range"), "{e}");
    for bad in ["60", "abc", "0%", "-5%", "1x", "e2", "200000%"] {
        let e = BetSize::parse(bad).unwrap_err().to_string();
        assert!(e.contains(bad), "{e}");
    }
    let e = TreeConfig::uniform("2.5x", "").unwrap_err().to_string();
    assert!(e.contains("raise size"), "{e}");
    assert_eq!(
        BetSize::parse_list("60%, e,A,2.5x", true).unwrap(),
        vec![
            BetSize::Pot(0.6),
            BetSize::Geometric,
            BetSize::AllIn,
            BetSize::Multiple(2.5)
        ]
    );
    let mut t = tree();
    t.force_allin_threshold = 2.0;
    assert!(Spot::parse("AhKd7c", 10, 10, "QQ", "KK", t).is_err());
    let mut t = tree();
    t.raise_cap = MAX_RAISE_CAP + 1;
    assert!(Spot::parse("AhKd7c", 10, 10, "QQ", "KK", t).is_err());
    assert!(Algorithm::parse("cfr").is_err());
    assert_eq!(Algorithm::parse("PCFR+").unwrap(), Algorithm::PcfrPlus);
    let s = spot("AhKd7c4s2h", 100, 100, "QQ", "JJ", "50%", "");
    for o in [
        SolveOptions {
            target_pct: f64::NAN,
            ..SolveOptions::default()
        },
        SolveOptions {
            max_iterations: 0,
            ..SolveOptions::default()
        },
        SolveOptions {
            time_limit: Some(0.0),
            ..SolveOptions::default()
        },
    ] {
        assert!(SpotSolver::new(&s, &o).is_err());
    }
}

#[test]
fn memory_is_reported_and_a_spot_above_the_limit_refused() {
    let s = spot(
        "Td9d6hQc",
        200,
        900,
        "66+,AJo+,KQo",
        "QQ-22,ATo+",
        "60%,e,a",
        "2.5x",
    );
    let o = SolveOptions::default();
    let (tree, m) = SpotSolver::plan(&s, &o).unwrap();
    assert_eq!(m.nodes, tree.nodes().len() as u64);
    assert_eq!(
        m.nodes,
        m.decision_nodes + m.chance_nodes + m.terminal_nodes
    );
    assert_eq!(m.storage_bytes, 8 * m.slots);
    assert!(m.chance_nodes > 0 && m.total_bytes > m.storage_bytes);
    let tight = SolveOptions {
        max_memory: m.total_bytes - 1,
        ..o
    };
    let e = SpotSolver::new(&s, &tight).unwrap_err().to_string();
    assert!(
        e.contains(&format!("{} bytes", m.total_bytes)) && e.contains("max memory"),
        "{e}"
    );
    assert!(SpotSolver::new(
        &s,
        &SolveOptions {
            max_memory: m.total_bytes,
            ..o
        }
    )
    .is_ok());
    // PCFR+ keeps a third array.
    let (_, m3) = SpotSolver::plan(&s, &options(Algorithm::PcfrPlus)).unwrap();
    assert_eq!(m3.storage_bytes, 12 * m.slots);
    let e = SpotSolver::plan(&s, &SolveOptions { max_nodes: 10, ..o })
        .unwrap_err()
        .to_string();
    assert!(e.contains("more than 10 nodes"), "{e}");
}

#[test]
fn the_tree_follows_the_sizes_and_thresholds() {
    // River, pot 100, stack 1000: OOP check or bet 50; IP check or bet 50 after a check;
    // raises to 2.5x (125), then 312, then 780, then the cap (3 raises).
    let s = spot("AhKd7c4s2h", 100, 1000, "QQ", "JJ", "50%", "2.5x");
    let t = SpotTree::build(&s, 1000).unwrap();
    let root = 0;
    let kids: Vec<String> = t
        .children(root)
        .iter()
        .map(|&c| t.nodes()[c as usize].action.to_string())
        .collect();
    assert_eq!(kids, ["check", "bet:50"]);
    let n = t.find("bet:50").unwrap();
    let kids: Vec<String> = t
        .children(n)
        .iter()
        .map(|&c| t.nodes()[c as usize].action.to_string())
        .collect();
    assert_eq!(kids, ["fold", "call", "raise:125"]);
    let n = t.find("bet:50,raise:125,raise:313").unwrap();
    let kids: Vec<String> = t
        .children(n)
        .iter()
        .map(|&c| t.nodes()[c as usize].action.to_string())
        .collect();
    // 2.5 × 313 = 782.5 → 783 leaves 217 behind against a pot of 1666 after a call: less
    // than 0.15 × the pot, so the raise is all-in (1000).
    assert_eq!(kids, ["fold", "call", "raise:1000"]);
    let n = t.find("bet:50,raise:125,raise:313,raise:1000").unwrap();
    assert_eq!(t.children(n).len(), 2);
    assert!(t.find("bet:50,raise:999").is_none());
    assert!(matches!(
        t.nodes()[t.find("bet:50,fold").unwrap()].kind,
        NodeKind::Fold(1)
    ));
    assert!(matches!(
        t.nodes()[t.find("check,check").unwrap()].kind,
        NodeKind::Showdown
    ));
    // All-in is added when it is at most 1.5 pots: stack 150 behind a pot of 100.
    let s = spot("AhKd7c4s2h", 100, 150, "QQ", "JJ", "50%", "");
    let t = SpotTree::build(&s, 1000).unwrap();
    assert!(t.find("bet:150").is_some() && t.find("bet:50").is_some());
    // Geometric: the river alone (one street): all-in. Two streets from the turn, pot
    // 100, stack 400: (1 + 2·400/100)^(1/2) = 3, so a pot-sized bet, then pot-sized again.
    let s = spot("AhKd7c4s", 100, 400, "QQ", "JJ", "e", "");
    let t = SpotTree::build(&s, 1_000_000).unwrap();
    assert!(t.find("bet:100,call").is_some());
    let n = t.find("bet:100,call").unwrap();
    assert_eq!(t.nodes()[n].kind, NodeKind::Chance);
    assert_eq!(t.children(n).len(), 48);
    assert!(t.find("bet:100,call,3c,bet:300,call").is_some());
    assert_eq!(t.boards().len(), 48);
    // A called all-in on the turn runs the river out with no betting.
    let s = spot("AhKd7c4s", 100, 100, "QQ", "JJ", "a", "");
    let t = SpotTree::build(&s, 1_000_000).unwrap();
    let n = t.find("bet:100,call,3c").unwrap();
    assert_eq!(t.nodes()[n].kind, NodeKind::Showdown);
    // A stack of 0: no betting at all.
    let s = spot("AhKd7c4s2h", 100, 0, "QQ", "JJ", "50%", "");
    let t = SpotTree::build(&s, 10).unwrap();
    assert_eq!(t.nodes().len(), 1);
    assert_eq!(t.nodes()[0].kind, NodeKind::Showdown);
}

/// The sweep and the inclusion–exclusion against an n² loop over explicit pairs.
#[test]
fn showdown_and_fold_values_match_brute_force() {
    let s = spot(
        "Ts9d4c",
        100,
        100,
        "22+,A2s+,KTo+,T9s,98s:0.5",
        "55+,AT+,KQ:0.25,J9s,T9o",
        "",
        "",
    );
    let tree = SpotTree::build(&s, 1 << 20).unwrap();
    let t = Tables::new(&s, &tree);
    let mut rng = 12345u64;
    let mut next = || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        (rng % 1000) as f32 / 1000.0
    };
    for (b, board) in tree.boards().iter().enumerate().step_by(97) {
        for p in 0..2 {
            let o = 1 - p;
            // Hands meeting the board have no reach (the chance nodes zero them).
            let reach: Vec<f32> = s
                .hands(o)
                .iter()
                .map(|x| {
                    let r = next();
                    if (x.set() & *board).is_empty() {
                        r
                    } else {
                        0.0
                    }
                })
                .collect();
            let mut sw = vec![[0.0, 0.0]; s.hands(p).len()];
            sweep(&t, b, p, &reach, &mut sw);
            let comp = compatible(&t, p, &reach);
            for (i, h) in s.hands(p).iter().enumerate() {
                if !(h.set() & *board).is_empty() {
                    continue;
                }
                let (mut w, mut le, mut all) = (0.0f64, 0.0f64, 0.0f64);
                let mine = evaluate_set_of(h.set() | *board);
                for (j, x) in s.hands(o).iter().enumerate() {
                    if !(x.set() & (h.set() | *board)).is_empty() {
                        continue;
                    }
                    let theirs = evaluate_set_of(x.set() | *board);
                    let r = reach[j] as f64;
                    all += r;
                    if theirs < mine {
                        w += r;
                    }
                    if theirs <= mine {
                        le += r;
                    }
                }
                assert!((sw[i][0] - w).abs() < 1e-9, "{h}: {} vs {w}", sw[i][0]);
                assert!((sw[i][1] - le).abs() < 1e-9, "{h}: {} vs {le}", sw[i][1]);
                // Compatible reach ignores the board (reach of blocked hands is zeroed
                // upstream); compare on the hands the board does not block.
                let all_any: f64 = s
                    .hands(o)
                    .iter()
                    .zip(&reach)
                    .filter(|(x, _)| (x.set() & h.set()).is_empty())
                    .map(|(_, &r)| r as f64)
                    .sum();
                assert!((comp[i] - all_any).abs() < 1e-9);
                assert!(all <= all_any + 1e-9);
            }
        }
    }
}

fn evaluate_set_of(set: crate::core::CardSet64) -> crate::poker::HandRank {
    let cards: Vec<crate::poker::Card> = crate::poker::cards::set_cards(set).collect();
    evaluate(&cards).unwrap()
}

// ---------------------------------------------------------------------------------------
// The spot as a generic GameTree (written apart from the vector solver: explicit hand
// pairs, payoffs from the scalar evaluator), so the generic CFR and best response check it.

#[derive(Clone)]
struct Flattened {
    spot: Spot,
    tree: SpotTree,
    /// The deals: (OOP hand, IP hand, probability).
    pairs: Vec<(u32, u32, f64)>,
    actions: usize,
}

/// `[dealt, OOP hand, IP hand, node]`.
type FState = [u32; 4];

impl Flattened {
    fn new(spot: &Spot) -> Flattened {
        let tree = SpotTree::build(spot, 1 << 22).unwrap();
        let mut pairs = Vec::new();
        for (i, a) in spot.hands(0).iter().enumerate() {
            for (j, b) in spot.hands(1).iter().enumerate() {
                if (a.set() & b.set()).is_empty() {
                    let w = spot.weights(0)[i] as f64 * spot.weights(1)[j] as f64;
                    pairs.push((i as u32, j as u32, w));
                }
            }
        }
        let total: f64 = pairs.iter().map(|p| p.2).sum();
        pairs.iter_mut().for_each(|p| p.2 /= total);
        let actions = (0..tree.nodes().len())
            .map(|n| tree.children(n).len())
            .max()
            .unwrap();
        Flattened {
            spot: spot.clone(),
            tree,
            pairs,
            actions,
        }
    }

    fn dead(&self, s: &FState) -> crate::core::CardSet64 {
        let n = &self.tree.nodes()[s[3] as usize];
        n.board | self.spot.hands(0)[s[1] as usize].set() | self.spot.hands(1)[s[2] as usize].set()
    }

    fn oop_return(&self, s: &FState) -> f64 {
        let n = &self.tree.nodes()[s[3] as usize];
        let pot = self.spot.pot() as f64 + n.spent[0] as f64 + n.spent[1] as f64;
        let ev0 = match n.kind {
            NodeKind::Fold(0) => -(n.spent[0] as f64),
            NodeKind::Fold(_) => pot - n.spent[0] as f64,
            NodeKind::Showdown => {
                let a = evaluate_set_of(self.spot.hands(0)[s[1] as usize].set() | n.board);
                let b = evaluate_set_of(self.spot.hands(1)[s[2] as usize].set() | n.board);
                let share = match a.cmp(&b) {
                    std::cmp::Ordering::Greater => 1.0,
                    std::cmp::Ordering::Equal => 0.5,
                    std::cmp::Ordering::Less => 0.0,
                };
                share * pot - n.spent[0] as f64
            }
            _ => return 0.0,
        };
        ev0 - self.spot.pot() as f64 / 2.0
    }

    fn terminal(&self, s: &FState) -> bool {
        s[0] == 1
            && matches!(
                self.tree.nodes()[s[3] as usize].kind,
                NodeKind::Fold(_) | NodeKind::Showdown
            )
    }
}

impl Game for Flattened {
    type State = FState;
    fn num_players(&self) -> usize {
        2
    }
    fn num_actions(&self) -> usize {
        self.actions
    }
    fn obs_dim(&self) -> usize {
        0
    }
    fn reset(&self, _: &mut LaneRng) -> FState {
        [0; 4]
    }
    fn reset_from_order(&self, _: &[u8]) -> Result<FState> {
        Ok([0; 4])
    }
    fn current_player(&self, s: &FState) -> usize {
        match self.tree.nodes()[s[3] as usize].kind {
            NodeKind::Decision(p) => p as usize,
            _ => 0,
        }
    }
    fn finished(&self, s: &FState) -> (bool, bool) {
        (self.terminal(s), false)
    }
    fn check_state(&self, _: &FState) -> std::result::Result<(), String> {
        Ok(())
    }
    fn legal_mask(&self, s: &FState, mask: &mut [u8]) {
        for m in mask
            .iter_mut()
            .take(self.tree.children(s[3] as usize).len())
        {
            *m = 1;
        }
    }
    fn step(&self, s: &mut FState, a: u32, _: &mut LaneRng, rewards: &mut [f32]) -> LaneOutcome {
        let kids = self.tree.children(s[3] as usize);
        if self.terminal(s) || a as usize >= kids.len() {
            return LaneOutcome::ILLEGAL;
        }
        s[3] = kids[a as usize];
        let done = self.terminal(s);
        if done {
            let r = self.oop_return(s);
            rewards[0] = r as f32;
            rewards[1] = -r as f32;
        }
        LaneOutcome {
            applied: true,
            terminated: done,
            truncated: false,
        }
    }
    fn observe(&self, _: &FState, _: usize, _: &mut [f32]) {}
}

impl InfoStates for Flattened {
    fn info_state_dim(&self) -> usize {
        0
    }
    fn info_state_key(&self, s: &FState, p: usize, key: &mut Vec<u8>) {
        key.extend_from_slice(&s[1 + p].to_le_bytes());
        key.extend_from_slice(&s[3].to_le_bytes());
    }
    fn info_state_tensor(&self, _: &FState, _: usize, _: &mut [f32]) {}
    fn info_state_string(&self, s: &FState, p: usize) -> String {
        format!("{p}:{}:{}", s[1 + p], s[3])
    }
}

impl GameTree for Flattened {
    fn root(&self) -> FState {
        [0; 4]
    }
    fn is_chance(&self, s: &FState) -> bool {
        s[0] == 0 || self.tree.nodes()[s[3] as usize].kind == NodeKind::Chance
    }
    fn chance_outcomes(&self, s: &FState, out: &mut Vec<(u32, f64)>) {
        if s[0] == 0 {
            out.extend(self.pairs.iter().enumerate().map(|(i, p)| (i as u32, p.2)));
        } else {
            let dead = self.dead(s);
            let live: Vec<u32> = (0..52).filter(|c| dead.0 >> c & 1 == 0).collect();
            let p = 1.0 / live.len() as f64;
            out.extend(live.into_iter().map(|c| (c, p)));
        }
    }
    fn apply_chance(&self, s: &mut FState, o: u32) -> bool {
        if s[0] == 0 {
            let Some(&(i, j, _)) = self.pairs.get(o as usize) else {
                return false;
            };
            *s = [1, i, j, 0];
            return true;
        }
        if o >= 52 || self.dead(s).0 >> o & 1 == 1 {
            return false;
        }
        let kids = self.tree.children(s[3] as usize);
        match kids.iter().find(|&&c| {
            matches!(self.tree.nodes()[c as usize].action, Action::Deal(card) if card.id() as u32 == o)
        }) {
            Some(&c) => {
                s[3] = c;
                true
            }
            None => false,
        }
    }
    fn returns(&self, s: &FState, out: &mut [f64]) {
        let r = if self.terminal(s) {
            self.oop_return(s)
        } else {
            0.0
        };
        out[0] = r;
        out[1] = -r;
    }
}

/// The solver's average strategy as a policy of the flattened tree.
fn policy_of(flat: &FlatTree, solver: &SpotSolver) -> Policy {
    let mut probs = vec![0.0; flat.num_slots()];
    for set in flat.infosets() {
        let hand = u32::from_le_bytes(set.key[0..4].try_into().unwrap()) as usize;
        let node = u32::from_le_bytes(set.key[4..8].try_into().unwrap()) as usize;
        let s = solver.average_strategy(node).unwrap();
        let n = solver.spot().hands(set.player).len();
        for (i, &a) in set.actions.iter().enumerate() {
            probs[set.offset + i] = s[a as usize * n + hand] as f64;
        }
        let row = &mut probs[set.offset..set.offset + set.actions.len()];
        let sum: f64 = row.iter().sum();
        row.iter_mut().for_each(|x| *x /= sum);
    }
    Policy::from_probs(flat, probs).unwrap()
}

/// The vector solver's values, best responses and exploitability equal the generic ones on
/// the flattened tree for the same strategy, within `tol` of the pot.
fn check_against_generic(solver: &mut SpotSolver, flat: &FlatTree, tol: f64) -> f64 {
    let pot = solver.spot().pot() as f64;
    let ev = exploit::evaluate(flat, &policy_of(flat, solver));
    let mine_ev = solver.root_ev();
    let mine_br = solver.best_response_values();
    for p in 0..2 {
        let generic_ev = ev.values[p] + pot / 2.0;
        let generic_br = ev.best_response_values[p] + pot / 2.0;
        assert!(
            (mine_ev[p] - generic_ev).abs() <= tol * pot,
            "EV {p}: {} vs {generic_ev}",
            mine_ev[p]
        );
        assert!(
            (mine_br[p] - generic_br).abs() <= tol * pot,
            "BR {p}: {} vs {generic_br}",
            mine_br[p]
        );
    }
    let e = solver.exploitability();
    assert!((e - ev.exploitability).abs() <= tol * pot);
    ev.exploitability
}

/// The river spot small enough to flatten that the checks against the generic tree
/// solvers share.
fn generic_river_spot() -> Spot {
    spot(
        "AhKd7c4s2h",
        100,
        300,
        "AK,77,QJs,65s:0.5,AdQd",
        "AQs,KQs,44,T9s,A7s:0.5",
        "50%,a",
        "2.5x",
    )
}

#[test]
fn a_river_spot_matches_the_generic_tree_solvers() {
    let s = generic_river_spot();
    let flattened = Flattened::new(&s);
    crate::core::tree::check_tree(&flattened, &[0, 1, 2, 3, 4, 5, 6, 7]).unwrap();
    let flat = FlatTree::build(&flattened, 1 << 22).unwrap();
    let pot = s.pot() as f64;
    for algorithm in [Algorithm::Dcfr, Algorithm::CfrPlus, Algorithm::PcfrPlus] {
        let mut solver = SpotSolver::new(&s, &options(algorithm)).unwrap();
        // The uniform strategy (iteration 0), then partly and fully solved strategies.
        check_against_generic(&mut solver, &flat, 1e-6);
        for _ in 0..7 {
            solver.iterate();
        }
        check_against_generic(&mut solver, &flat, 1e-6);
        for _ in 0..3000 {
            solver.iterate();
        }
        let e_mine = check_against_generic(&mut solver, &flat, 1e-6);
        assert!(
            e_mine >= -1e-9 && e_mine < 1e-4 * pot,
            "{algorithm:?}: {e_mine}"
        );
        // The generic CFR+ to its own equilibrium: the same game value within both
        // exploitabilities (and both near 0).
        let mut cfr = CfrSolver::new(&flat, CfrConfig::CFR_PLUS);
        for _ in 0..3000 {
            cfr.iterate();
        }
        let ev = exploit::evaluate(&flat, &cfr.average_policy());
        assert!(ev.exploitability < 1e-3 * pot, "{}", ev.exploitability);
        let value = ev.values[0] + pot / 2.0;
        let mine = solver.root_ev()[0];
        assert!(
            (mine - value).abs() <= e_mine + ev.exploitability + 1e-6 * pot,
            "{algorithm:?}: {mine} vs {value}"
        );
    }
}

#[test]
fn a_turn_spot_with_chance_nodes_matches_the_generic_evaluation() {
    let s = spot("AhKd7c4s", 60, 120, "AK,77,QJs", "AQs,44,T9s", "75%", "");
    let flattened = Flattened::new(&s);
    crate::core::tree::check_tree(&flattened, &[3, 1, 4, 1, 5, 9, 2, 6]).unwrap();
    let flat = FlatTree::build(&flattened, 1 << 23).unwrap();
    let mut solver = SpotSolver::new(&s, &options(Algorithm::Dcfr)).unwrap();
    check_against_generic(&mut solver, &flat, 1e-6);
    for _ in 0..20 {
        solver.iterate();
    }
    check_against_generic(&mut solver, &flat, 1e-6);
}

/// With suit isomorphism (diamonds and spades interchangeable on this board and ranges, so
/// the 13 spade river cards are solved through the diamonds), the solver's values, best
/// responses and exploitability still equal the generic evaluation of its strategy, which
/// reads every mirror node's strategy from its representative.
#[test]
fn a_turn_spot_with_mirrored_cards_matches_the_generic_evaluation() {
    let s = spot("AhKh7c4c", 60, 120, "AK,77,QJs", "AQs,44,T9s", "75%", "");
    let flattened = Flattened::new(&s);
    let flat = FlatTree::build(&flattened, 1 << 23).unwrap();
    let mut solver = SpotSolver::new(&s, &options(Algorithm::Dcfr)).unwrap();
    assert!(solver.tree().mirrors() > 0);
    check_against_generic(&mut solver, &flat, 1e-6);
    for _ in 0..20 {
        solver.iterate();
    }
    check_against_generic(&mut solver, &flat, 1e-6);
}

/// OOP holds the nuts or air, IP only bluff-catchers; OOP may bet `b` of the pot, IP only
/// calls or folds. At equilibrium bluffs are `b / (1 + 2b)` of OOP's bets and IP calls
/// `1 / (1 + b)` of the time.
#[test]
fn the_river_toy_game_matches_its_closed_form() {
    for (pct, b) in [(50u32, 0.5f64), (100, 1.0), (75, 0.75)] {
        // Board A♥K♥Q♦7♣2♠: J♣T♣ is the nuts (a straight), 6♣5♣ air (ace high, no pair),
        // 3♦3♥ a pair that beats air only. No card of one range blocks the other.
        let mut tree = TreeConfig::uniform(&format!("{pct}%"), "").unwrap();
        for street in &mut tree.sizes[1] {
            street.bets.clear();
        }
        let s = Spot::parse("AhKhQd7c2s", 100, 1000, "JcTc,6c5c", "3d3h", tree).unwrap();
        let mut solver = SpotSolver::new(&s, &options(Algorithm::Dcfr)).unwrap();
        let sol = solver
            .solve(
                &SolveOptions {
                    target_pct: 1e-4,
                    max_iterations: 20_000,
                    check_every: 100,
                    ..SolveOptions::default()
                },
                &mut |_| true,
            )
            .unwrap();
        assert!(sol.exploitability_pct < 5e-3, "{}", sol.exploitability_pct);
        let t = solver.tree();
        let bet = format!("bet:{pct}");
        let root = solver.average_strategy(0).unwrap();
        let hands = s.hands(0);
        let nuts = hands
            .iter()
            .position(|h| h.to_string().contains('J'))
            .unwrap();
        let air = 1 - nuts;
        let bet_index = t
            .children(0)
            .iter()
            .position(|&c| t.nodes()[c as usize].action.to_string() == bet)
            .unwrap();
        let p_nuts = root[bet_index * 2 + nuts] as f64;
        let p_air = root[bet_index * 2 + air] as f64;
        let bluffs = p_air / (p_nuts + p_air);
        assert!(p_nuts > 0.999, "{p_nuts}");
        assert!(
            (bluffs - b / (1.0 + 2.0 * b)).abs() < 1e-3,
            "b={b}: {bluffs}"
        );
        let facing = solver.average_strategy(t.find(&bet).unwrap()).unwrap();
        let call = facing[1] as f64; // fold, call
        assert!((call - 1.0 / (1.0 + b)).abs() < 1e-3, "b={b}: {call}");
        // OOP's value: the pot when it has the nuts plus what the calls pay, zero with air.
        let v = 0.5 * (100.0 + (1.0 / (1.0 + b)) * b * 100.0);
        assert!(
            (sol.root_ev[0] - v).abs() < 1e-2 * 100.0 * 1e-1,
            "{} vs {v}",
            sol.root_ev[0]
        );
        // The root's action EVs: checking wins the pot with the nuts and nothing with air;
        // betting wins the pot plus the calls with the nuts, and air is indifferent (its
        // bet EV is the check's 0, which is why it mixes). Mixed by the root strategy they
        // give each hand's EV.
        let (player, evs) = solver.root_action_evs().unwrap();
        assert_eq!((player, evs.len()), (0, 2));
        let check_index = 1 - bet_index;
        let nut_bet = 100.0 + b * 100.0 / (1.0 + b);
        for (got, want) in [
            (evs[check_index][nuts], 100.0),
            (evs[bet_index][nuts], nut_bet),
            (evs[check_index][air], 0.0),
            (evs[bet_index][air], 0.0),
        ] {
            assert!((got - want).abs() < 0.05, "b={b}: {evs:?}");
        }
        let hand_ev = solver.root_hand_ev(0);
        for h in 0..2 {
            let mixed: f64 = (0..2).map(|a| root[a * 2 + h] as f64 * evs[a][h]).sum();
            assert!(
                (mixed - hand_ev[h]).abs() < 1e-3,
                "{mixed} vs {}",
                hand_ev[h]
            );
        }
    }
}

#[test]
fn results_do_not_depend_on_the_thread_count() {
    let s = spot(
        "Td9d6hQc",
        200,
        900,
        "AQ,KJs,88",
        "T9s,JTs,A5s:0.5",
        "60%,a",
        "",
    );
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let mut solver = SpotSolver::new(&s, &options(Algorithm::Dcfr)).unwrap();
            let sol = solver
                .solve(
                    &SolveOptions {
                        target_pct: 0.0,
                        max_iterations: 6,
                        check_every: 3,
                        ..SolveOptions::default()
                    },
                    &mut |_| true,
                )
                .unwrap();
            let strategies: Vec<Vec<f32>> = (0..solver.tree().nodes().len())
                .filter_map(|n| solver.average_strategy(n))
                .collect();
            (sol.history, sol.root_ev, sol.root_equity, strategies)
        })
    };
    let one = run(1);
    let two = run(2);
    assert_eq!(one.0.len(), 2);
    assert!(one == two, "1 thread and 2 threads differ");
    // The bits, not only the values compared equal.
    assert_eq!(one.1[0].to_bits(), two.1[0].to_bits());
}

#[test]
fn the_solve_stops_at_the_target_the_cap_or_the_time_limit() {
    let s = spot(
        "AhKd7c4s2h",
        100,
        300,
        "AK,77,QJs",
        "AQs,KQs,44",
        "50%,a",
        "2.5x",
    );
    let mut solver = SpotSolver::new(&s, &SolveOptions::default()).unwrap();
    let mut seen = 0;
    let sol = solver
        .solve(
            &SolveOptions {
                target_pct: 0.1,
                check_every: 5,
                ..SolveOptions::default()
            },
            &mut |_| {
                seen += 1;
                true
            },
        )
        .unwrap();
    assert_eq!(sol.stop, StopReason::Target);
    assert!(sol.exploitability_pct <= 0.1 && sol.iterations % 5 == 0);
    assert_eq!(seen, sol.history.len());
    let e = solver.exploitability();
    assert_eq!(e, sol.exploitability);
    // Continuing keeps the strategy and counts on.
    let before = solver.iterations();
    let more = solver
        .solve(
            &SolveOptions {
                target_pct: 0.0,
                max_iterations: 7,
                ..SolveOptions::default()
            },
            &mut |_| true,
        )
        .unwrap();
    assert_eq!(more.stop, StopReason::Iterations);
    assert_eq!(more.iterations, before + 7);
    let mut fresh = SpotSolver::new(&s, &SolveOptions::default()).unwrap();
    let timed = fresh
        .solve(
            &SolveOptions {
                target_pct: 0.0,
                max_iterations: MAX_ITERATIONS,
                time_limit: Some(0.05),
                ..SolveOptions::default()
            },
            &mut |_| true,
        )
        .unwrap();
    assert_eq!(timed.stop, StopReason::TimeLimit);
    assert!(timed.iterations > 0 && timed.exploitability.is_finite());
    let mut fresh = SpotSolver::new(&s, &SolveOptions::default()).unwrap();
    let cancelled = fresh
        .solve(
            &SolveOptions {
                target_pct: 0.0,
                check_every: 1,
                ..SolveOptions::default()
            },
            &mut |p| p.iterations < 3,
        )
        .unwrap();
    assert_eq!(cancelled.stop, StopReason::Cancelled);
    assert_eq!(cancelled.iterations, 3);
    let bad = SolveOptions {
        algorithm: Algorithm::CfrPlus,
        ..SolveOptions::default()
    };
    assert!(fresh.solve(&bad, &mut |_| true).is_err());
}

/// A stop flag raised from another thread ends the solve after the iteration under way:
/// `Interrupted`, the iterations reached counted, the exploitability that of the strategy
/// kept, which is bit for bit that of an uninterrupted solve of as many iterations and
/// continues as it would.
#[test]
fn a_stop_flag_raised_from_another_thread_keeps_the_strategy_reached() {
    let s = spot(
        "Td9d6hQc2s",
        100,
        300,
        "AK,77,QJs",
        "AQs,KQs,44",
        "50%,a",
        "2.5x",
    );
    let long = SolveOptions {
        target_pct: 0.0,
        max_iterations: MAX_ITERATIONS,
        // No check before the interrupt: the flag alone stops the solve.
        check_every: MAX_ITERATIONS,
        ..SolveOptions::default()
    };
    let stop = StopFlag::new();
    let mut solver = SpotSolver::new(&s, &long).unwrap();
    let mut checks = 0;
    let sol = std::thread::scope(|scope| {
        scope.spawn(|| {
            std::thread::sleep(std::time::Duration::from_millis(100));
            stop.stop();
        });
        solver
            .solve_with_stop(&long, &stop, &mut |_| {
                checks += 1;
                true
            })
            .unwrap()
    });
    assert_eq!(sol.stop, StopReason::Interrupted);
    assert_eq!(checks, 0);
    let n = sol.iterations;
    assert!(n > 0 && n < MAX_ITERATIONS, "{n}");
    assert_eq!(solver.iterations(), n);
    assert_eq!(
        sol.exploitability.to_bits(),
        solver.exploitability().to_bits()
    );
    assert_eq!(sol.history, vec![(n, sol.exploitability_pct)]);
    let strategies = |solver: &SpotSolver| -> Vec<Vec<f32>> {
        (0..solver.tree().nodes().len())
            .filter_map(|n| solver.average_strategy(n))
            .collect()
    };
    let exactly = |k: u64| SolveOptions {
        max_iterations: k,
        ..long
    };
    let mut straight = SpotSolver::new(&s, &long).unwrap();
    let whole = straight.solve(&exactly(n), &mut |_| true).unwrap();
    assert_eq!(whole.stop, StopReason::Iterations);
    assert_eq!(whole.exploitability.to_bits(), sol.exploitability.to_bits());
    assert!(strategies(&solver) == strategies(&straight));
    // Both continue alike.
    solver.solve(&exactly(5), &mut |_| true).unwrap();
    straight.solve(&exactly(5), &mut |_| true).unwrap();
    assert!(strategies(&solver) == strategies(&straight));
    // A flag raised before the call: no iteration, the strategy as it was.
    let again = solver.solve_with_stop(&long, &stop, &mut |_| true).unwrap();
    assert_eq!(again.stop, StopReason::Interrupted);
    assert_eq!(again.iterations, n + 5);
    assert!(strategies(&solver) == strategies(&straight));
}

mod invariants {
    use super::*;
    use proptest::prelude::*;

    fn random_spot(seed: u64, street: usize) -> Spot {
        let mut rng = LaneRng::from_seed(seed);
        let mut deck = crate::poker::Deck::shuffled(&mut rng, crate::core::CardSet64(0));
        let cards: Vec<crate::poker::Card> = deck.deal(52).unwrap().to_vec();
        let board = &cards[..3 + street];
        let mut at = 3 + street;
        let mut range = |n: usize| {
            let mut text = Vec::new();
            for k in 0..n {
                text.push(format!(
                    "{}{}{}",
                    cards[at],
                    cards[at + 1],
                    if k % 2 == 1 { ":0.5" } else { "" }
                ));
                at += 2;
            }
            text.join(",")
        };
        let oop = range(2 + (seed % 3) as usize);
        // IP shares a card with OOP's first hand (card removal between the ranges).
        let ip = format!(
            "{},{}{}",
            range(2 + (seed / 3 % 3) as usize),
            cards[3 + street],
            cards[at]
        );
        let sizes = ["33%", "75%,a", "e", "50%,120%"][(seed % 4) as usize];
        let raises = ["", "2.5x", "a"][(seed / 4 % 3) as usize];
        let pot = 10 + seed % 190;
        let stack = (seed / 7) % 400;
        let b: String = board.iter().map(|c| c.to_string()).collect();
        Spot::parse(
            &b,
            pot,
            stack,
            &oop,
            &ip,
            TreeConfig::uniform(sizes, raises).unwrap(),
        )
        .unwrap()
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]
        #[test]
        fn evs_sum_to_the_pot_and_strategies_are_distributions(seed in any::<u64>(), turn in any::<bool>()) {
            let s = random_spot(seed, if turn { 1 } else { 2 });
            let alg = [Algorithm::Dcfr, Algorithm::CfrPlus, Algorithm::PcfrPlus][(seed % 3) as usize];
            let mut solver = SpotSolver::new(&s, &options(alg)).unwrap();
            // Half the spots lock one random decision node (some hands or all, a random
            // distribution; on the turn the river cards of its line often a wildcard).
            let decisions: Vec<(usize, String)> = node_lines(solver.tree())
                .into_iter()
                .filter(|&(n, _)| matches!(solver.tree().nodes()[n].kind, NodeKind::Decision(_)))
                .collect();
            if seed % 2 == 0 && !decisions.is_empty() {
                let (n, line) = &decisions[(seed / 2) as usize % decisions.len()];
                let line = if seed / 8 % 2 == 0 {
                    line.split(',')
                        .map(|w| if w.parse::<crate::poker::Card>().is_ok() { "*" } else { w })
                        .collect::<Vec<_>>()
                        .join(",")
                } else {
                    line.clone()
                };
                let t = solver.tree();
                let kids = t.children(*n);
                let mut w: Vec<f64> = (0..kids.len()).map(|a| ((seed >> (3 * a)) % 5) as f64).collect();
                if w.iter().sum::<f64>() == 0.0 {
                    w[0] = 1.0;
                }
                let total: f64 = w.iter().sum();
                let mut strategy: Vec<(String, f64)> = kids
                    .iter()
                    .zip(&w)
                    .map(|(&c, &x)| (t.nodes()[c as usize].action.to_string(), x / total))
                    .collect();
                let head: f64 = strategy[1..].iter().map(|x| x.1).sum();
                strategy[0].1 = 1.0 - head;
                let NodeKind::Decision(q) = t.nodes()[*n].kind else { unreachable!() };
                let hands = (seed / 16 % 2 == 0).then(|| s.hands(q as usize)[0].to_string());
                solver
                    .set_locks(&[NodeLock { player: Some(q as usize), line, strategy, hands }])
                    .unwrap();
                prop_assert!(!solver.locked_nodes().is_empty());
            }
            // The invariants at every iteration (EVs summing to the pot, exploitability
            // ≥ 0, distributions, locked nodes never changing): the library's check, which
            // the fuzz target `spots` calls too.
            if let Err(e) = super::super::check_solve_invariants(&mut solver, 12) {
                prop_assert!(false, "{e}");
            }
        }

        /// The fuzz check of spots on random bytes (the fuzz target's decoding).
        #[test]
        fn fuzz_check_spot_on_random_bytes(data in proptest::collection::vec(any::<u8>(), 0..48)) {
            if let Err(e) = super::super::fuzz_check_spot(&data) {
                prop_assert!(false, "{data:?}: {e}");
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Node locking.

/// Every node with its action line (as a lock line names it), depth first.
fn node_lines(t: &SpotTree) -> Vec<(usize, String)> {
    fn go(t: &SpotTree, n: usize, line: &str, out: &mut Vec<(usize, String)>) {
        out.push((n, line.to_string()));
        for &c in t.children(n) {
            let a = t.nodes()[c as usize].action.to_string();
            let next = if line.is_empty() {
                a
            } else {
                format!("{line},{a}")
            };
            go(t, c as usize, &next, out);
        }
    }
    let mut out = Vec::new();
    go(t, 0, "", &mut out);
    out
}

fn lock(text: &str) -> NodeLock {
    NodeLock::parse(text).unwrap()
}

/// The check: IP locked to always call the river bet, OOP stops bluffing (its air
/// never bets) and keeps betting its value; the exploitability of the locked game is the
/// closed form at iteration 0 and goes to 0.
#[test]
fn locking_ip_to_always_call_stops_oop_bluffing() {
    for (pct, b) in [(75u32, 0.75f64), (100, 1.0)] {
        let mut tree = TreeConfig::uniform(&format!("{pct}%"), "").unwrap();
        for street in &mut tree.sizes[1] {
            street.bets.clear();
        }
        let s = Spot::parse("AhKhQd7c2s", 100, 1000, "JcTc,6c5c", "3d3h", tree).unwrap();
        let mut solver = SpotSolver::new(&s, &options(Algorithm::Dcfr)).unwrap();
        // The size word names the same node as the chips.
        solver
            .set_locks(&[lock(&format!("ip:bet:{pct}%=call:1"))])
            .unwrap();
        let facing = solver.tree().find(&format!("bet:{pct}")).unwrap();
        assert_eq!(solver.locked_nodes(), vec![facing]);
        assert_eq!(solver.locked_hands(facing), &[0]);
        // Iteration 0: OOP's average is uniform (EV 50, as is IP's, which cannot deviate);
        // OOP's best response bets the nuts and checks air: 0.5 (100 + 100 b). So the
        // locked game's exploitability is (50 + 50 b + 50 − 100) / 2 = 25 b.
        let ev = solver.root_ev();
        let br = solver.best_response_values();
        assert!(
            (ev[0] - 50.0).abs() < 1e-4 && (br[1] - ev[1]).abs() < 1e-4,
            "{ev:?} {br:?}"
        );
        assert!((br[0] - 0.5 * (100.0 + 100.0 * b)).abs() < 1e-4, "{br:?}");
        let e0 = solver.exploitability();
        assert!((e0 - 25.0 * b).abs() < 1e-4, "b={b}: {e0}");
        let before = solver.raw_block(facing);
        let sol = solver
            .solve(
                &SolveOptions {
                    target_pct: 1e-3,
                    max_iterations: 5_000,
                    check_every: 50,
                    ..SolveOptions::default()
                },
                &mut |_| true,
            )
            .unwrap();
        assert_eq!(
            sol.stop,
            StopReason::Target,
            "b={b}: {}",
            sol.exploitability_pct
        );
        // The locked node never changed and plays the lock.
        assert_eq!(solver.raw_block(facing), before);
        assert_eq!(solver.average_strategy(facing).unwrap(), vec![0.0, 1.0]);
        let t = solver.tree();
        let bet_index = t
            .children(0)
            .iter()
            .position(|&c| t.nodes()[c as usize].action == Action::Bet(pct))
            .unwrap();
        let nuts = s
            .hands(0)
            .iter()
            .position(|h| h.to_string().contains('J'))
            .unwrap();
        let root = solver.average_strategy(0).unwrap();
        let (p_nuts, p_air) = (root[bet_index * 2 + nuts], root[bet_index * 2 + 1 - nuts]);
        assert!(p_nuts > 0.999, "b={b}: value bets {p_nuts}");
        assert!(p_air < 1e-3, "b={b}: bluffs {p_air}");
        // OOP wins the pot and the call with the nuts, nothing with air.
        let v = 0.5 * (100.0 + 100.0 * b);
        assert!(
            (sol.root_ev[0] - v).abs() < 0.1,
            "{} vs {v}",
            sol.root_ev[0]
        );
        // Unlocked, the same spot bluffs b/(1+2b) of its bets.
        solver.set_locks(&[]).unwrap();
        assert!(solver.locked_nodes().is_empty());
        solver
            .solve(
                &SolveOptions {
                    target_pct: 1e-3,
                    max_iterations: 5_000,
                    check_every: 50,
                    ..SolveOptions::default()
                },
                &mut |_| true,
            )
            .unwrap();
        let root = solver.average_strategy(0).unwrap();
        assert!(root[bet_index * 2 + 1 - nuts] > 0.2, "{root:?}");
    }
}

#[test]
fn bad_locks_are_clear_errors_and_change_nothing() {
    let s = spot("AhKd7c4s", 60, 120, "AK,77,QJs", "AQs,44,T9s", "75%", "");
    let mut solver = SpotSolver::new(&s, &options(Algorithm::Dcfr)).unwrap();
    let good = lock("bet:45=fold:0.3,call:0.7@AQs");
    solver.set_locks(std::slice::from_ref(&good)).unwrap();
    let locked = solver.locked_nodes();
    assert_eq!(locked, vec![solver.tree().find("bet:45").unwrap()]);
    for (text, want) in [
        ("bet:999=call:1", "no action \"bet:999\""),
        ("bet:45=raise:200:1", "no action \"raise:200\""),
        ("oop:bet:45=call:1", "IP's decision, not OOP's"),
        ("bet:45=fold:0.3,call:0.6", "sum to 0.9"),
        ("bet:45=fold:-0.5,call:1.5", "[0, 1]"),
        ("bet:45=fold:0.5,fold:0.5", "twice"),
        ("check,check=check:1", "chance node"),
        ("check,check,Ah,check=check:1", "on the board"),
        ("check,check,*,bet:45,fold=call:1", "ends at a fold"),
        ("bet:45,fold,call=call:1", "hand is over"),
        ("check,check,zz=check:1", "not a card"),
        ("*=check:1", "* stands for a dealt card"),
        ("bet:45=call:1@KK", "no combo"),
        ("bet:45=call:1@AQs:0.5", "no weights"),
        ("bet:45=call:1@QX", "hands"),
        ("bet:45=bet:7q:1", "lock action"),
    ] {
        let e = match solver.set_locks(&[good.clone(), lock(text)]) {
            Err(e) => e.to_string(),
            Ok(()) => panic!("{text} accepted"),
        };
        assert!(e.contains(want), "{text}: {e}");
        assert_eq!(solver.locked_nodes(), locked, "{text}");
        assert_eq!(solver.locks(), std::slice::from_ref(&good));
    }
    for text in ["check", "check=", "=@AK", "bet:45=call:x"] {
        assert!(NodeLock::parse(text).is_err(), "{text}");
    }
    // The text form goes both ways; a bare action is frequency 1, and the root is "".
    let l = lock("IP:check,bet:45=bet:120:0.25,call:0.75@AQs");
    assert_eq!(l.player, Some(1));
    assert_eq!(
        l.strategy,
        vec![("bet:120".into(), 0.25), ("call".into(), 0.75)]
    );
    assert_eq!(NodeLock::parse(&l.to_string()).unwrap(), l);
    assert_eq!(lock("bet:45=call").strategy, vec![("call".into(), 1.0)]);
    // An action at 0 is allowed (the same as leaving it out).
    solver.set_locks(&[lock("bet:45=call:1,fold:0")]).unwrap();
    solver.set_locks(&[lock("=check:1")]).unwrap();
    assert_eq!(solver.locked_nodes(), vec![0]);
    // A wildcard: OOP's river node under every turn card after check-check.
    solver
        .set_locks(&[lock("oop:check,check,*=bet:75%:1")])
        .unwrap();
    assert_eq!(solver.locked_nodes().len(), 48);
    let one = solver.tree().find("check,check,3c").unwrap();
    assert!(solver.locked_nodes().contains(&one));
}

/// With a lock the vector solver's EVs still equal the generic evaluation of the same
/// strategy, the unlocked player's best response equals the generic one, and the locked
/// player's (restricted to its unlocked nodes and hands) lies between its EV and its
/// generic best response; with every node of a player locked it equals its EV.
#[test]
fn locked_best_responses_match_the_generic_evaluation() {
    let s = generic_river_spot();
    let flattened = Flattened::new(&s);
    let flat = FlatTree::build(&flattened, 1 << 22).unwrap();
    let pot = s.pot() as f64;
    let tol = 1e-6 * pot;
    let mut solver = SpotSolver::new(&s, &options(Algorithm::Dcfr)).unwrap();
    solver
        .set_locks(&[
            lock("bet:50=fold:0.2,call:0.8@AQs,44"),
            lock("check=bet:50:0.5,bet:300:0.5@T9s"),
        ])
        .unwrap();
    for _ in 0..30 {
        solver.iterate();
    }
    let ev = exploit::evaluate(&flat, &policy_of(&flat, &solver));
    let mine_ev = solver.root_ev();
    let mine_br = solver.best_response_values();
    for (mine, generic) in mine_ev.iter().zip(&ev.values) {
        assert!((mine - (generic + pot / 2.0)).abs() <= tol);
    }
    assert!((mine_br[0] - (ev.best_response_values[0] + pot / 2.0)).abs() <= tol);
    let generic_br1 = ev.best_response_values[1] + pot / 2.0;
    assert!(mine_br[1] <= generic_br1 + tol && mine_br[1] >= mine_ev[1] - tol);
    assert!(
        mine_br[1] < generic_br1 - 1e-3,
        "the lock binds: {mine_br:?} {generic_br1}"
    );
    // Every IP node locked for every hand: IP cannot deviate at all.
    let all: Vec<NodeLock> = node_lines(solver.tree())
        .into_iter()
        .filter(|&(n, _)| solver.tree().nodes()[n].kind == NodeKind::Decision(1))
        .map(|(n, line)| {
            let first = solver.tree().nodes()[solver.tree().children(n)[0] as usize].action;
            NodeLock {
                player: Some(1),
                line,
                strategy: vec![(first.to_string(), 1.0)],
                hands: None,
            }
        })
        .collect();
    solver.set_locks(&all).unwrap();
    for _ in 0..10 {
        solver.iterate();
    }
    let ev = solver.root_ev();
    let br = solver.best_response_values();
    assert!((br[1] - ev[1]).abs() <= tol, "{br:?} {ev:?}");
    let e = solver.exploitability();
    assert!((e - (br[0] - ev[0]) / 2.0).abs() <= tol);
    let generic = exploit::evaluate(&flat, &policy_of(&flat, &solver));
    assert!((br[0] - (generic.best_response_values[0] + pot / 2.0)).abs() <= tol);
}

#[test]
fn locked_results_do_not_depend_on_the_thread_count() {
    let s = spot(
        "Td9d6hQc",
        200,
        900,
        "AQ,KJs,88",
        "T9s,JTs,A5s:0.5",
        "60%,a",
        "",
    );
    let locks = [
        lock("check,check,*=bet:60%:0.5,check:0.5@KJs"),
        lock("ip:bet:120=call:1"),
    ];
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let mut solver = SpotSolver::new(&s, &options(Algorithm::PcfrPlus)).unwrap();
            solver.set_locks(&locks).unwrap();
            let sol = solver
                .solve(
                    &SolveOptions {
                        algorithm: Algorithm::PcfrPlus,
                        target_pct: 0.0,
                        max_iterations: 6,
                        check_every: 3,
                        ..SolveOptions::default()
                    },
                    &mut |_| true,
                )
                .unwrap();
            let strategies: Vec<Vec<f32>> = (0..solver.tree().nodes().len())
                .filter_map(|n| solver.average_strategy(n))
                .collect();
            (
                sol.history,
                sol.root_ev,
                strategies,
                solver.locked_nodes().len(),
            )
        })
    };
    let one = run(1);
    assert!(one.3 > 40, "{}", one.3);
    assert!(one == run(2), "1 thread and 2 threads differ");
}

/// 16-bit storage: the solver's exploitability and EVs are those of its (decoded) average
/// strategy exactly, as the generic tree evaluates it; it converges to the game value the
/// generic CFR+ finds; the arrays take half the bytes; 1 thread = 2 threads bit for bit.
#[test]
fn sixteen_bit_storage_evaluates_exactly_and_converges() {
    let s = generic_river_spot();
    let flattened = Flattened::new(&s);
    let flat = FlatTree::build(&flattened, 1 << 22).unwrap();
    let pot = s.pot() as f64;
    let mut cfr = CfrSolver::new(&flat, CfrConfig::CFR_PLUS);
    for _ in 0..3000 {
        cfr.iterate();
    }
    let ev = exploit::evaluate(&flat, &cfr.average_policy());
    let value = ev.values[0] + pot / 2.0;
    for algorithm in [Algorithm::Dcfr, Algorithm::CfrPlus, Algorithm::PcfrPlus] {
        let o = SolveOptions {
            compress: true,
            ..options(algorithm)
        };
        let (_, packed) = SpotSolver::plan(&s, &o).unwrap();
        let (_, full) = SpotSolver::plan(&s, &options(algorithm)).unwrap();
        assert!(
            packed.storage_bytes * 10 < full.storage_bytes * 6,
            "{} vs {}",
            packed.storage_bytes,
            full.storage_bytes
        );
        let mut solver = SpotSolver::new(&s, &o).unwrap();
        assert!(solver.compressed());
        check_against_generic(&mut solver, &flat, 1e-6);
        for _ in 0..7 {
            solver.iterate();
        }
        check_against_generic(&mut solver, &flat, 1e-6);
        for _ in 0..3000 {
            solver.iterate();
        }
        let e_mine = check_against_generic(&mut solver, &flat, 1e-6);
        // 16-bit values converge less far than f32 (CFR+ here: about 0.2% of the pot after
        // 3,000 iterations, against < 0.01% in f32): the rounding of small entries.
        assert!(
            e_mine >= -1e-9 && e_mine < 5e-3 * pot,
            "{algorithm:?}: {e_mine}"
        );
        let mine = solver.root_ev()[0];
        assert!(
            (mine - value).abs() <= e_mine + ev.exploitability + 1e-6 * pot,
            "{algorithm:?}: {mine} vs {value}"
        );
        // A solver of the other storage refuses these options.
        let mut plain = SpotSolver::new(&s, &options(algorithm)).unwrap();
        assert!(plain.solve(&o, &mut |_| true).is_err());
    }
    // Threads: a turn spot (chance nodes run in parallel) with 1 and 2 threads.
    let t = spot("AhKd7c4s", 60, 120, "AK,77,QJs", "AQs,44,T9s", "75%", "");
    let o = SolveOptions {
        compress: true,
        target_pct: 0.0,
        max_iterations: 15,
        ..options(Algorithm::PcfrPlus)
    };
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let mut solver = SpotSolver::new(&t, &o).unwrap();
            let sol = solver.solve(&o, &mut |_| true).unwrap();
            let strategy: Vec<u32> = (0..solver.tree().nodes().len())
                .filter_map(|n| solver.average_strategy(n))
                .flatten()
                .map(f32::to_bits)
                .collect();
            (sol.exploitability.to_bits(), strategy)
        })
    };
    assert_eq!(run(1), run(2));
}
