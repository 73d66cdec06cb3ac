//! The invariants of a spot solve, checked at every iteration ([`check_solve_invariants`]),
//! and the fuzz check of spots ([`fuzz_check_spot`], fuzz target `spots`): random bytes
//! decoded into a small river or turn spot, maybe a node lock, solved a few iterations
//! under those invariants. The proptest of `tests.rs` runs the same invariants on random
//! spots and `tests/fuzz_corpus.rs` replays the fuzz corpus, so `cargo test` checks both.

use super::{
    Algorithm, BetSize, NodeKind, NodeLock, SolveOptions, Spot, SpotSolver, StreetSizes, TreeConfig,
};
use crate::poker::{Card, HoleCards, WeightedRange};

/// Relative tolerance of the chip identities (EVs summing to the pot, best responses not
/// below the EVs, exploitability ≥ 0), as a fraction of the starting pot: the solver keeps
/// f32 strategies and sums in f64.
pub const INVARIANT_TOLERANCE: f64 = 1e-4;

/// The locked slots of every locked node: (regrets, cumulative strategy, average strategy)
/// of the locked hands' columns.
type LockedSlots = Vec<(Vec<f32>, Vec<f32>, Vec<f32>)>;

fn locked_slots(solver: &SpotSolver) -> LockedSlots {
    solver
        .locked_nodes()
        .into_iter()
        .map(|n| {
            let (r, c) = solver.raw_block(n);
            let st = solver.average_strategy(n).unwrap_or_default();
            let h = solver.locked_hands(n);
            let k = solver.tree().children(n).len().max(1);
            let all = r.len() / k;
            let pick = |v: &[f32]| -> Vec<f32> {
                (0..k)
                    .flat_map(|a| h.iter().map(move |&i| v[a * all + i as usize]))
                    .collect()
            };
            // 16-bit storage encodes a node's block again after its update, with the
            // block's new scale: the locked hands' raw values may move by a rounding step,
            // their strategy (the lock) may not.
            if solver.compressed() {
                (Vec::new(), Vec::new(), pick(&st))
            } else {
                (pick(&r), pick(&c), pick(&st))
            }
        })
        .collect()
}

fn bits(slots: &LockedSlots) -> Vec<u32> {
    slots
        .iter()
        .flat_map(|(r, c, s)| r.iter().chain(c).chain(s).map(|x| x.to_bits()))
        .collect()
}

/// Checks the invariants of `solver` as it stands (`at` names the moment in a failure):
/// both players' EVs are finite and sum to the pot, each best-response value is at least
/// the player's EV, the exploitability is ≥ 0 and equals `(BR₀ + BR₁ − pot) / 2`, the root
/// equities are in [0, 1] and sum to 1, and every decision node's average strategy is a
/// distribution for every hand (finite, ≥ 0, summing to 1). All within
/// [`INVARIANT_TOLERANCE`] of the pot plus f32 rounding of the chips at stake (1e-6 of
/// the pot and both stacks: a pot of 1 with stacks of 800 has EVs in the hundreds, summed
/// in f32), and 1e-4 for the probabilities.
fn check_now(solver: &mut SpotSolver, at: &str) -> Result<(), String> {
    let pot = solver.spot().pot() as f64;
    let stake = pot + 2.0 * solver.spot().stack() as f64;
    let tol = INVARIANT_TOLERANCE * pot + 1e-6 * stake;
    let ev = solver.root_ev();
    if !(ev[0].is_finite() && ev[1].is_finite()) || (ev[0] + ev[1] - pot).abs() > tol {
        return Err(format!("{at}: the EVs {ev:?} do not sum to the pot {pot}"));
    }
    let br = solver.best_response_values();
    if !(br[0].is_finite() && br[1].is_finite()) || br[0] < ev[0] - tol || br[1] < ev[1] - tol {
        return Err(format!(
            "{at}: a best response {br:?} is below the EV {ev:?} (pot {pot})"
        ));
    }
    let e = solver.exploitability();
    if !e.is_finite() || e < -tol {
        return Err(format!("{at}: the exploitability is {e} (pot {pot})"));
    }
    if (e - (br[0] + br[1] - pot) / 2.0).abs() > tol {
        return Err(format!(
            "{at}: the exploitability {e} is not (BR0 + BR1 - pot) / 2 with BR {br:?}, pot {pot}"
        ));
    }
    let eq = solver.root_equity();
    if (eq[0] + eq[1] - 1.0).abs() > 1e-4 || eq.iter().any(|&x| !(-1e-6..=1.0 + 1e-6).contains(&x))
    {
        return Err(format!(
            "{at}: the root equities {eq:?} are not a split of 1"
        ));
    }
    for n in 0..solver.tree().nodes().len() {
        let Some(st) = solver.average_strategy(n) else {
            continue;
        };
        let NodeKind::Decision(q) = solver.tree().nodes()[n].kind else {
            return Err(format!(
                "{at}: node {n} has a strategy but is not a decision"
            ));
        };
        let k = solver.tree().children(n).len();
        let h = solver.spot().hands(q as usize).len();
        if st.len() != k * h {
            return Err(format!(
                "{at}: node {n}: {} strategy entries for {k} actions x {h} hands",
                st.len()
            ));
        }
        for i in 0..h {
            let column: Vec<f32> = (0..k).map(|a| st[a * h + i]).collect();
            let sum: f32 = column.iter().sum();
            if column.iter().any(|x| !x.is_finite() || *x < 0.0) || (sum - 1.0).abs() > 1e-4 {
                return Err(format!(
                    "{at}: node {n}, hand {}: the strategy {column:?} is not a distribution",
                    solver.spot().hands(q as usize)[i]
                ));
            }
        }
    }
    Ok(())
}

/// Runs `iterations` iterations of `solver` and checks its invariants before the first and
/// after every one (issue 30): the two players' EVs sum to the pot, each best response is
/// worth at least the player's EV, the exploitability is ≥ 0 (and is
/// `(BR₀ + BR₁ − pot) / 2`), the root equities split 1, every average strategy is a
/// distribution for every hand, and the locked hands of every locked node
/// ([`SpotSolver::set_locks`]) keep their regrets, cumulative strategy and average
/// strategy bit for bit. `Err` describes the first broken invariant.
pub fn check_solve_invariants(solver: &mut SpotSolver, iterations: u32) -> Result<(), String> {
    let start = locked_slots(solver);
    let start_bits = bits(&start);
    check_now(solver, "before the first iteration")?;
    for i in 1..=iterations {
        solver.iterate();
        let at = format!("after iteration {i}");
        if bits(&locked_slots(solver)) != start_bits {
            return Err(format!(
                "{at}: a locked node changed (locked nodes {:?})",
                solver.locked_nodes()
            ));
        }
        check_now(solver, &at)?;
    }
    Ok(())
}

/// The fuzz input read byte by byte; past its end every byte reads 0.
struct Bytes<'a> {
    data: &'a [u8],
    at: usize,
}

impl Bytes<'_> {
    fn u8(&mut self) -> u8 {
        let b = self.data.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        b
    }

    fn u16(&mut self) -> u16 {
        u16::from_le_bytes([self.u8(), self.u8()])
    }

    /// A number in `0..n` (`n` ≥ 1).
    fn below(&mut self, n: usize) -> usize {
        if n <= 256 {
            self.u8() as usize % n
        } else {
            self.u16() as usize % n
        }
    }
}

/// The bet and raise size words the fuzz input picks from.
const BET_WORDS: [&str; 8] = ["25%", "33%", "50%", "75%", "100%", "150%", "e", "a"];
const RAISE_WORDS: [&str; 6] = ["50%", "100%", "2.5x", "3x", "e", "a"];

/// Up to `most` sizes of `words`, by the bits of one byte.
fn sizes(b: &mut Bytes, words: &[&str], most: usize) -> Vec<BetSize> {
    let mask = b.u8();
    (0..words.len())
        .filter(|i| mask >> i & 1 == 1)
        .take(most)
        .map(|i| BetSize::parse(words[i]).expect("a valid size word"))
        .collect()
}

/// The largest tree the fuzz check builds (bigger ones are refused by the solver, which is
/// checked to be an error, not a panic).
const FUZZ_MAX_NODES: usize = 20_000;

/// The fuzz check of spots: `data` decoded into a small spot (river or turn; a random
/// board; one to four combos per player with weights in (0, 1], the players' ranges
/// possibly sharing cards; pot 1 to 400, stack 0 to 799; per player one or two bet and
/// raise sizes, a raise cap of 0 to 3 and the two all-in thresholds), an algorithm, f32 or
/// 16-bit storage (bit 6 of the first byte), with bit 7 a spot where suit isomorphism
/// applies (a board in two suits, ranges closed under the suit permutations), maybe a
/// node lock at a random decision node (a random distribution, all hands or one, the cards
/// of its line maybe `*`), then one to eight iterations under
/// [`check_solve_invariants`]. A spot or tree the library refuses must be refused with an
/// error (never a panic); a lock written from the tree's own line must be accepted.
/// `Err` describes the first broken rule.
pub fn fuzz_check_spot(data: &[u8]) -> Result<(), String> {
    let mut b = Bytes { data, at: 0 };
    let flags = b.u8();
    let street = if flags & 1 == 1 { 1 } else { 2 };
    let algorithm =
        [Algorithm::Dcfr, Algorithm::CfrPlus, Algorithm::PcfrPlus][(flags >> 1) as usize % 3];
    // A shuffle of the deck driven by the input: the board first.
    let mut deck: Vec<Card> = (0..52u8)
        .map(|i| Card::from_id(i).expect("a card id below 52"))
        .collect();
    let board_len = 3 + street;
    for i in 0..board_len {
        let j = i + b.below(52 - i);
        deck.swap(i, j);
    }
    let (board, rest) = deck.split_at(board_len);
    // Bit 7: a spot where suit isomorphism applies: the board in hearts and spades only
    // (clubs and diamonds interchangeable), each range closed under the suit permutations
    // (a hand's images at its weight, those meeting the board left out).
    let symmetric = flags >> 7 & 1 == 1;
    let (board, rest): (Vec<Card>, Vec<Card>) = if symmetric {
        let board: Vec<Card> = board
            .iter()
            .enumerate()
            .map(|(i, c)| Card::from_id(13 * (2 + (i as u8 & 1)) + c.id() % 13).expect("a card id"))
            .collect();
        let mut seen = 0u64;
        for c in &board {
            if seen >> c.id() & 1 == 1 {
                return Ok(());
            }
            seen |= 1 << c.id();
        }
        let rest = Card::all().filter(|c| seen >> c.id() & 1 == 0).collect();
        (board, rest)
    } else {
        (board.to_vec(), rest.to_vec())
    };
    let board_set: u64 = board.iter().map(|c| 1u64 << c.id()).sum();
    let mut ranges = Vec::new();
    for _ in 0..2 {
        let n = 1 + b.below(4);
        let mut entries: Vec<(HoleCards, f64)> = Vec::new();
        for _ in 0..n {
            let x = b.below(rest.len());
            let y = (x + 1 + b.below(rest.len() - 1)) % rest.len();
            let h = HoleCards::new(rest[x], rest[y]).map_err(|e| e.to_string())?;
            let w = (1 + b.below(4)) as f64 / 4.0;
            if entries.iter().any(|(g, _)| *g == h) {
                continue;
            }
            if !symmetric {
                entries.push((h, w));
                continue;
            }
            for &perm in super::iso::all_perms() {
                let [x, y] = h.cards().map(|c| super::iso::map_card(perm, c.id()));
                let image = HoleCards::new(
                    Card::from_id(x).expect("a card id"),
                    Card::from_id(y).expect("a card id"),
                )
                .map_err(|e| e.to_string())?;
                if image.set().0 & board_set == 0 && !entries.iter().any(|(g, _)| *g == image) {
                    entries.push((image, w));
                }
            }
        }
        ranges.push(WeightedRange::from_entries(entries).map_err(|e| e.to_string())?);
    }
    let pot = 1 + b.u16() as u64 % 400;
    let stack = b.u16() as u64 % 800;
    // The turn's tree has a river under every card: fewer sizes keep it small.
    let most = if street == 1 { 1 } else { 2 };
    let mut per_player = Vec::new();
    for _ in 0..2 {
        let street_sizes = StreetSizes {
            bets: sizes(&mut b, &BET_WORDS, most),
            raises: sizes(&mut b, &RAISE_WORDS, most),
        };
        per_player.push([street_sizes.clone(), street_sizes.clone(), street_sizes]);
    }
    let cfg = b.u8();
    let tree = TreeConfig {
        sizes: [per_player[0].clone(), per_player[1].clone()],
        raise_cap: (cfg % 4) as u32,
        add_allin_threshold: [0.0, 1.5, 3.0][(cfg >> 2) as usize % 3],
        force_allin_threshold: [0.0, 0.15, 0.5][(cfg >> 4) as usize % 3],
        // Bit 6: donk sizes on the turn and the river.
        donk: if cfg >> 6 & 1 == 1 {
            let d = sizes(&mut b, &BET_WORDS, most);
            [None, Some(d.clone()), Some(d)]
        } else {
            [None, None, None]
        },
    };
    let spot = match Spot::new(&board, pot, stack, &ranges[0], &ranges[1], tree) {
        Ok(spot) => spot,
        // Every pair of hands sharing a card: refused, as documented.
        Err(e) if e.to_string().contains("can be dealt") => return Ok(()),
        Err(e) => return Err(format!("a valid spot refused: {e}")),
    };
    let options = SolveOptions {
        algorithm,
        max_nodes: FUZZ_MAX_NODES,
        compress: flags >> 6 & 1 == 1,
        ..SolveOptions::default()
    };
    let mut solver = match SpotSolver::new(&spot, &options) {
        Ok(solver) => solver,
        Err(e) if e.to_string().contains("more than") => return Ok(()),
        Err(e) => return Err(format!("a small spot refused: {e}")),
    };
    if flags >> 3 & 1 == 1 {
        lock_one_node(&mut solver, &mut b, flags)?;
    }
    let iterations = 1 + b.below(8) as u32;
    check_solve_invariants(&mut solver, iterations)
}

/// Locks one decision node the input picks, by its line from the root (its cards `*` when
/// bit 5 of `flags` is set), to a distribution the input picks, for all hands or for one
/// (bit 4). The lock must be accepted and the node be among the locked ones.
fn lock_one_node(solver: &mut SpotSolver, b: &mut Bytes, flags: u8) -> Result<(), String> {
    let tree = solver.tree();
    let nodes = tree.nodes();
    let mut parent = vec![usize::MAX; nodes.len()];
    for n in 0..nodes.len() {
        for &c in tree.children(n) {
            parent[c as usize] = n;
        }
    }
    let decisions: Vec<usize> = (0..nodes.len())
        .filter(|&n| matches!(nodes[n].kind, NodeKind::Decision(_)))
        .collect();
    if decisions.is_empty() {
        return Ok(());
    }
    let n = decisions[b.below(decisions.len())];
    let mut words = Vec::new();
    let mut at = n;
    while at != 0 {
        let word = match nodes[at].action {
            super::Action::Deal(_) if flags >> 5 & 1 == 1 => "*".to_string(),
            a => a.to_string(),
        };
        words.push(word);
        at = parent[at];
    }
    words.reverse();
    let line = words.join(",");
    let kids = tree.children(n);
    let mut w: Vec<f64> = (0..kids.len()).map(|_| (b.u8() % 5) as f64).collect();
    if w.iter().sum::<f64>() == 0.0 {
        w[0] = 1.0;
    }
    let total: f64 = w.iter().sum();
    let mut strategy: Vec<(String, f64)> = kids
        .iter()
        .zip(&w)
        .map(|(&c, &x)| (nodes[c as usize].action.to_string(), x / total))
        .collect();
    let tail: f64 = strategy[1..].iter().map(|x| x.1).sum();
    strategy[0].1 = (1.0 - tail).max(0.0);
    let NodeKind::Decision(q) = nodes[n].kind else {
        unreachable!("a decision node")
    };
    let q = q as usize;
    let hands = (flags >> 4 & 1 == 1).then(|| {
        let h = solver.spot().hands(q);
        h[b.below(h.len())].to_string()
    });
    let lock = NodeLock {
        player: Some(q),
        line,
        strategy,
        hands,
    };
    solver
        .set_locks(std::slice::from_ref(&lock))
        .map_err(|e| format!("the lock {lock} of node {n}, written from the tree, refused: {e}"))?;
    if !solver.locked_nodes().contains(&n) {
        return Err(format!(
            "the lock {lock} does not lock its node {n} (locked: {:?})",
            solver.locked_nodes()
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The snapshot of the locked slots sees a lock's strategy change (what a solve that
    /// moved a locked node would show), and the invariants hold on a locked solve.
    #[test]
    fn the_locked_snapshot_sees_a_change() {
        let spot = Spot::parse(
            "AhKd7c4s2h",
            100,
            200,
            "AsAd,QcQd:0.5,6h5h",
            "KsKc,JcJd,9s8s:0.75",
            TreeConfig::uniform("50%", "").unwrap(),
        )
        .unwrap();
        let mut solver = SpotSolver::new(&spot, &SolveOptions::default()).unwrap();
        let lock = |a: &str| NodeLock {
            player: Some(0),
            line: String::new(),
            strategy: vec![(a.to_string(), 1.0)],
            hands: Some("AsAd".into()),
        };
        solver.set_locks(&[lock("check")]).unwrap();
        let before = bits(&locked_slots(&solver));
        assert!(!before.is_empty());
        check_solve_invariants(&mut solver, 5).unwrap();
        assert_eq!(bits(&locked_slots(&solver)), before);
        solver.set_locks(&[lock("bet:50")]).unwrap();
        assert_ne!(bits(&locked_slots(&solver)), before);
    }

    #[test]
    fn fuzz_check_on_fixed_inputs() {
        for data in [
            &b""[..],
            &[0xff; 64][..],
            &[0x09, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12][..],
            &[
                0x39, 200, 17, 3, 99, 42, 7, 0, 255, 128, 64, 32, 16, 8, 4, 2, 1, 0, 3,
            ][..],
        ] {
            fuzz_check_spot(data).unwrap();
        }
    }
}
