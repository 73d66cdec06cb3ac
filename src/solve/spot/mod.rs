//! Postflop hold'em spots solved range against range (issue 30; `docs/spot.md` is the
//! guide): a [`Spot`] (board, pot, effective stack, two weighted ranges, a bet tree), its
//! public tree ([`SpotTree`]: betting nodes, fold and showdown terminals, chance nodes for
//! the turn and river cards) and a range-vector CFR solver ([`SpotSolver`]: DCFR, CFR+ or
//! PCFR+) with the exact best response and exploitability of its average strategy.
//!
//! # Conventions
//!
//! - Chips are integers. `pot` is the pot when the spot starts; `stack` is the effective
//!   stack behind, the same for both players. A player's EV is what it takes from the pot
//!   minus what it puts in after the start, so the two EVs sum to `pot`.
//! - Player 0 is out of position (OOP, acts first on every street), player 1 in position.
//! - A range is the combos of a [`WeightedRange`] that use no
//!   board card (card removal against the board). A deal of hands `(h0, h1)` has
//!   probability proportional to `w0(h0) w1(h1)` over the pairs with no common card.
//!
//! # Bet sizes ([`BetSize`])
//!
//! - `60%`: a bet of 60% of the pot; as a raise, the call plus 60% of the pot after the
//!   call.
//! - `2.5x`: a raise to 2.5 times the bet faced (raises only).
//! - `e`: the geometric size, the same fraction of the pot on this street and every later
//!   street reaching all-in on the river (as a raise, computed from the pot and the stacks
//!   after the call).
//! - `a`: all-in.
//!
//! Sizes are rounded to whole chips; a bet is at least 1 chip and a raise at least the
//! previous bet or raise increment of the street (the minimum raise); a size at or above the
//! stack is all-in. The tree's two thresholds ([`TreeConfig`]): all-in is added to a
//! player's sizes when it is at most `add_allin_threshold` times the pot after a call
//! (default 1.5), and a size that would leave the bettor, once called, with less than
//! `force_allin_threshold` times the pot behind becomes all-in (default 0.15). At most
//! `raise_cap` raises per street (default 3).
//!
//! Spot files ([`SpotSolver::save`], [`SpotSolver::load`]: the format is in
//! `docs/spot.md`) keep a solve to continue it bit for bit; [`SpotSolver::node_report`]
//! reads any node by its line of actions (each hand's strategy, EV and equity, aggregated
//! by class and category) and [`SpotSolver::subtree_json`] exports a subtree.
//!
//! # Node locking
//!
//! [`SpotSolver::set_locks`] fixes a player's strategy at chosen nodes ([`NodeLock`]: the
//! node's action line, a distribution over its actions, all hands or some) and the solve
//! solves the rest against it; what exploitability means then is in
//! [`SpotSolver::set_locks`].
//!
//! # Suit isomorphism
//!
//! Where two suits are interchangeable (the same board ranks, both ranges symmetric in
//! them), a turn or river card of one is solved through the same rank of the other: the
//! tree marks mirror subtrees ([`SpotTree::mirrors`]) and the solver walks only their
//! representatives ([`SolveOptions::isomorphism`], on by default; not used while node
//! locks are in force).

mod check;
mod io;
mod iso;
mod line;
mod lock;
mod policy;
mod report;
mod solver;
mod tree;

#[cfg(test)]
mod io_tests;
#[cfg(test)]
mod iso_tests;
#[cfg(test)]
mod report_tests;
#[cfg(test)]
mod sizes_tests;
#[cfg(test)]
mod tests;

pub use check::{check_solve_invariants, fuzz_check_spot, INVARIANT_TOLERANCE};
pub use io::{SPOT_FILE_MAGIC, SPOT_FILE_VERSION};
pub use lock::{NodeLock, LOCK_SUM_TOLERANCE};
pub use policy::SpotPolicy;
pub use report::{ActionInfo, Aggregate, NodeReport, PlayerReport, SHAPES};
pub use solver::{
    Algorithm, Progress, SolveOptions, SpotSolution, SpotSolver, StopReason, DEFAULT_MAX_MEMORY,
    MAX_ITERATIONS,
};
pub use tree::{Action, MemoryEstimate, NodeKind, SpotNode, SpotTree, DEFAULT_MAX_NODES};

use crate::core::{CardSet64, Error, Result};
use crate::poker::{parse_cards, Card, HoleCards, WeightedRange};

/// The largest pot and stack accepted, in chips.
pub const MAX_CHIPS: u64 = 100_000_000;
/// The largest raise cap per street.
pub const MAX_RAISE_CAP: u32 = 100;
/// The default raise cap per street.
pub const DEFAULT_RAISE_CAP: u32 = 3;
/// The default add-all-in threshold (all-in added when at most this times the pot).
pub const DEFAULT_ADD_ALLIN_THRESHOLD: f64 = 1.5;
/// The default force-all-in threshold (a size leaving less than this times the pot behind
/// becomes all-in).
pub const DEFAULT_FORCE_ALLIN_THRESHOLD: f64 = 0.15;

/// One bet or raise size of a bet tree (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BetSize {
    /// A fraction of the pot (`60%` is 0.6); as a raise, of the pot after the call.
    Pot(f64),
    /// A multiple of the bet faced (`2.5x`; raises only).
    Multiple(f64),
    /// The geometric size to all-in over the remaining streets (`e`).
    Geometric,
    /// All-in (`a`).
    AllIn,
}

impl BetSize {
    /// Parses one size word: `60%` (0 < p ≤ 10,000), `2.5x` (1 < x ≤ 100), `e` or `a`.
    pub fn parse(word: &str) -> Result<BetSize> {
        let w = word.trim().to_ascii_lowercase();
        let bad = |reason: &str| Error::Invalid {
            what: "bet size",
            reason: format!(
                "{word:?}: {reason} (a size is 60% of the pot, 2.5x the bet faced, e for \
                 geometric or a for all-in)"
            ),
        };
        if w == "e" {
            return Ok(BetSize::Geometric);
        }
        if w == "a" {
            return Ok(BetSize::AllIn);
        }
        if let Some(p) = w.strip_suffix('%') {
            let p: f64 = p.trim().parse().map_err(|_| bad("not a percentage"))?;
            if !(p.is_finite() && p > 0.0 && p <= 10_000.0) {
                return Err(bad("a percentage must be in (0, 10000]"));
            }
            return Ok(BetSize::Pot(p / 100.0));
        }
        if let Some(x) = w.strip_suffix('x') {
            let x: f64 = x.trim().parse().map_err(|_| bad("not a multiple"))?;
            if !(x.is_finite() && x > 1.0 && x <= 100.0) {
                return Err(bad("a multiple must be in (1, 100]"));
            }
            return Ok(BetSize::Multiple(x));
        }
        Err(bad("unknown size word"))
    }

    /// Parses a comma-separated list of sizes (`60%,e,a`; empty text: no size). A multiple
    /// (`2.5x`) is refused unless `raises` (a bet faces no previous bet).
    pub fn parse_list(text: &str, raises: bool) -> Result<Vec<BetSize>> {
        let mut out = Vec::new();
        if text.trim().is_empty() {
            return Ok(out);
        }
        for word in text.split(',') {
            let size = BetSize::parse(word)?;
            if !raises && matches!(size, BetSize::Multiple(_)) {
                return Err(Error::Invalid {
                    what: "bet size",
                    reason: format!(
                        "{:?} is a raise size: a bet faces no previous bet to multiply",
                        word.trim()
                    ),
                });
            }
            out.push(size);
        }
        Ok(out)
    }
}

/// One player's sizes on one street.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StreetSizes {
    /// Sizes of a bet (no bet faced on the street).
    pub bets: Vec<BetSize>,
    /// Sizes of a raise (facing a bet or raise).
    pub raises: Vec<BetSize>,
}

/// A bet tree: sizes per player and street, the raise cap and the two all-in thresholds.
#[derive(Clone, Debug, PartialEq)]
pub struct TreeConfig {
    /// `sizes[player][street]`: player 0 OOP, 1 IP; street 0 flop, 1 turn, 2 river.
    pub sizes: [[StreetSizes; 3]; 2],
    /// Most raises per street (a bet is not a raise). Default [`DEFAULT_RAISE_CAP`].
    pub raise_cap: u32,
    /// All-in is added to the sizes when it is at most this times the pot after a call
    /// (finite, ≥ 0; 0 adds it never). Default [`DEFAULT_ADD_ALLIN_THRESHOLD`].
    pub add_allin_threshold: f64,
    /// A size that leaves the bettor, once called, less than this times the pot behind
    /// becomes all-in (finite, in 0..=1). Default [`DEFAULT_FORCE_ALLIN_THRESHOLD`].
    pub force_allin_threshold: f64,
    /// `donk[street]`: OOP's sizes when it leads (bets first) on the turn (1) or the river
    /// (2) into IP, the last player to bet or raise on the previous street (a donk bet).
    /// `None`: OOP's ordinary bets apply; `Some(vec![])`: OOP cannot lead there. The flop
    /// (0) has no previous street in a spot and must be `None`.
    pub donk: [Option<Vec<BetSize>>; 3],
}

/// The streets' names, by index (0 flop, 1 turn, 2 river).
pub const STREETS: [&str; 3] = ["flop", "turn", "river"];

/// Parses a donk spec: a size list (the turn and the river) or street parts (`turn:50%;
/// river:33%,75%`; `turn:` alone: OOP cannot lead on the turn). The flop is refused.
fn parse_donk(spec: &str) -> Result<[Option<Vec<BetSize>>; 3]> {
    let what = "--donk";
    let bad = |reason: String| Error::Invalid {
        what,
        reason: format!("{spec:?}: {reason}"),
    };
    if !spec.contains(':') {
        let sizes = BetSize::parse_list(spec, false).map_err(|e| bad(e.to_string()))?;
        return Ok([None, Some(sizes.clone()), Some(sizes)]);
    }
    let mut out = [None, None, None];
    for part in spec.split(';').map(str::trim).filter(|p| !p.is_empty()) {
        let Some((street, _)) = part.split_once(':') else {
            return Err(bad(format!(
                "{part:?} has no street (write street:sizes, as turn:50%;river:33%,75%)"
            )));
        };
        let street = street.trim().to_ascii_lowercase();
        if street == "flop" {
            return Err(bad(
                "no donk sizes on the flop (a donk bet leads into the previous street's \
                 aggressor: turn and river only)"
                    .into(),
            ));
        }
        let one = parse_street_sizes(what, part, false, &Default::default())?;
        let i = STREETS
            .iter()
            .position(|n| *n == street)
            .expect("parse_street_sizes knows the street");
        if out[i].is_some() {
            return Err(bad(format!("the {street} is named twice")));
        }
        out[i] = Some(one[i].clone());
    }
    Ok(out)
}

/// The text form of a bet tree's sizes, as `cardvec spot solve`, `spot batch` and
/// `cardvec.spot.solve` take it (docs/spot.md, "Bet sizes"). Each field is a size spec:
/// either a size list for every street (`60%,e,a`; empty: none), or street parts
/// `flop:33%,75%;turn:60%;river:75%,a`, a street not named keeping the sizes of the layer
/// below (`bets` and `raises` for the per-player fields; for `bets` and `raises`
/// themselves, no size).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SizeSpecs<'a> {
    /// Bet sizes of both players.
    pub bets: &'a str,
    /// Raise sizes of both players.
    pub raises: &'a str,
    /// OOP's bet sizes over `bets`.
    pub oop_bets: Option<&'a str>,
    /// IP's bet sizes over `bets`.
    pub ip_bets: Option<&'a str>,
    /// OOP's raise sizes over `raises`.
    pub oop_raises: Option<&'a str>,
    /// IP's raise sizes over `raises`.
    pub ip_raises: Option<&'a str>,
    /// OOP's donk sizes on the turn and river ([`TreeConfig::donk`]); streets not named
    /// (and every street without this spec) use OOP's bets. The flop is refused.
    pub donk: Option<&'a str>,
}

/// Parses a size spec (see [`SizeSpecs`]) over `base`: a size list replaces every street's,
/// street parts replace the streets named. `raises` allows multiples (`2.5x`). Errors: an
/// unknown street word, a street named twice, a bad size; each names the spec.
pub fn parse_street_sizes(
    what: &'static str,
    spec: &str,
    raises: bool,
    base: &[Vec<BetSize>; 3],
) -> Result<[Vec<BetSize>; 3]> {
    let mut out = base.clone();
    let in_spec = |e: Error| Error::Invalid {
        what,
        reason: format!("{spec:?}: {e}"),
    };
    if !spec.contains(':') {
        let sizes = BetSize::parse_list(spec, raises).map_err(in_spec)?;
        return Ok([sizes.clone(), sizes.clone(), sizes]);
    }
    let mut named = [false; 3];
    for part in spec.split(';').map(str::trim) {
        if part.is_empty() {
            continue;
        }
        let Some((street, sizes)) = part.split_once(':') else {
            return Err(Error::Invalid {
                what,
                reason: format!(
                    "{spec:?}: {part:?} has no street (write street:sizes, as \
                     flop:33%,75%;turn:60%;river:75%,a)"
                ),
            });
        };
        let street = street.trim().to_ascii_lowercase();
        let Some(i) = STREETS.iter().position(|s| *s == street) else {
            return Err(Error::Invalid {
                what,
                reason: format!("{spec:?}: unknown street {street:?} (flop, turn or river)"),
            });
        };
        if std::mem::replace(&mut named[i], true) {
            return Err(Error::Invalid {
                what,
                reason: format!("{spec:?}: the {street} is named twice"),
            });
        }
        out[i] = BetSize::parse_list(sizes, raises).map_err(in_spec)?;
    }
    Ok(out)
}

impl TreeConfig {
    /// The same bet and raise sizes for both players on every street (`bets` and `raises`
    /// parsed by [`BetSize::parse_list`]), the default cap and thresholds.
    pub fn uniform(bets: &str, raises: &str) -> Result<TreeConfig> {
        let street = StreetSizes {
            bets: BetSize::parse_list(bets, false)?,
            raises: BetSize::parse_list(raises, true)?,
        };
        let player = [street.clone(), street.clone(), street];
        Ok(TreeConfig {
            sizes: [player.clone(), player],
            raise_cap: DEFAULT_RAISE_CAP,
            add_allin_threshold: DEFAULT_ADD_ALLIN_THRESHOLD,
            force_allin_threshold: DEFAULT_FORCE_ALLIN_THRESHOLD,
            donk: [None, None, None],
        })
    }

    /// Sizes per player and street from their text form ([`SizeSpecs`]), the default cap
    /// and thresholds. Errors: a bad spec (an unknown street or size word, a street twice,
    /// a multiple `2.5x` among bets or donk sizes, donk sizes on the flop), naming the
    /// option (`--oop-bets`, ...) and the spec.
    pub fn from_specs(specs: &SizeSpecs<'_>) -> Result<TreeConfig> {
        let none: [Vec<BetSize>; 3] = Default::default();
        let bets = parse_street_sizes("--bets", specs.bets, false, &none)?;
        let raises = parse_street_sizes("--raises", specs.raises, true, &none)?;
        let layer = |what, spec: Option<&str>, raises: bool, base: &[Vec<BetSize>; 3]| match spec {
            Some(spec) => parse_street_sizes(what, spec, raises, base),
            None => Ok(base.clone()),
        };
        let per_player = [
            (
                layer("--oop-bets", specs.oop_bets, false, &bets)?,
                layer("--oop-raises", specs.oop_raises, true, &raises)?,
            ),
            (
                layer("--ip-bets", specs.ip_bets, false, &bets)?,
                layer("--ip-raises", specs.ip_raises, true, &raises)?,
            ),
        ];
        let sizes = per_player.map(|(b, r)| {
            let [b0, b1, b2] = b;
            let [r0, r1, r2] = r;
            [(b0, r0), (b1, r1), (b2, r2)].map(|(bets, raises)| StreetSizes { bets, raises })
        });
        let donk = match specs.donk {
            Some(spec) => parse_donk(spec)?,
            None => [None, None, None],
        };
        let tree = TreeConfig {
            sizes,
            raise_cap: DEFAULT_RAISE_CAP,
            add_allin_threshold: DEFAULT_ADD_ALLIN_THRESHOLD,
            force_allin_threshold: DEFAULT_FORCE_ALLIN_THRESHOLD,
            donk,
        };
        tree.check()?;
        Ok(tree)
    }

    /// Checks the cap, the thresholds and the sizes (a multiple only among raises).
    pub fn check(&self) -> Result<()> {
        Error::check_range("raise cap", 0, MAX_RAISE_CAP, self.raise_cap)?;
        let t = self.add_allin_threshold;
        if !(t.is_finite() && t >= 0.0) {
            return Err(Error::Invalid {
                what: "add-all-in threshold",
                reason: format!("must be a finite number ≥ 0, got {t}"),
            });
        }
        let t = self.force_allin_threshold;
        if !(t.is_finite() && (0.0..=1.0).contains(&t)) {
            return Err(Error::Invalid {
                what: "force-all-in threshold",
                reason: format!("must be in [0, 1], got {t}"),
            });
        }
        if self.donk[0].is_some() {
            return Err(Error::Invalid {
                what: "donk sizes",
                reason: "none on the flop (a donk bet leads into the previous street's \
                         aggressor: turn and river only)"
                    .into(),
            });
        }
        let donks = StreetSizes {
            bets: self.donk.iter().flatten().flatten().copied().collect(),
            raises: Vec::new(),
        };
        for street in self.sizes.iter().flatten().chain([&donks]) {
            for s in street.bets.iter().chain(&street.raises) {
                let ok = match *s {
                    BetSize::Pot(f) => f.is_finite() && f > 0.0 && f <= 100.0,
                    BetSize::Multiple(x) => x.is_finite() && x > 1.0 && x <= 100.0,
                    _ => true,
                };
                if !ok {
                    return Err(Error::Invalid {
                        what: "bet size",
                        reason: format!("{s:?} is out of range"),
                    });
                }
            }
            if street
                .bets
                .iter()
                .any(|s| matches!(s, BetSize::Multiple(_)))
            {
                return Err(Error::Invalid {
                    what: "bet size",
                    reason: "a multiple (2.5x) is a raise size, not a bet size".into(),
                });
            }
        }
        Ok(())
    }
}

/// A postflop spot: the board, the pot, the effective stack, both ranges after card
/// removal against the board, and the bet tree. Built by [`Spot::new`] or [`Spot::parse`],
/// which check everything.
#[derive(Clone, Debug, PartialEq)]
pub struct Spot {
    board: Vec<Card>,
    board_set: CardSet64,
    pot: u32,
    stack: u32,
    hands: [Vec<HoleCards>; 2],
    weights: [Vec<f32>; 2],
    tree: TreeConfig,
}

impl Spot {
    /// A spot from its parts. Errors: a board of other than 3 to 5 cards or with a repeated
    /// card; a pot outside 1..=[`MAX_CHIPS`] or a stack outside 0..=[`MAX_CHIPS`]; a range
    /// left empty once the combos using a board card are removed (the message says how
    /// many combos the board removed); two ranges with no pair of disjoint hands; a bad
    /// tree ([`TreeConfig::check`]).
    pub fn new(
        board: &[Card],
        pot: u64,
        stack: u64,
        oop: &WeightedRange,
        ip: &WeightedRange,
        tree: TreeConfig,
    ) -> Result<Spot> {
        if !(3..=5).contains(&board.len()) {
            return Err(Error::Invalid {
                what: "board",
                reason: format!(
                    "a spot starts on the flop, turn or river: 3, 4 or 5 cards, got {}",
                    board.len()
                ),
            });
        }
        let mut board_set = CardSet64(0);
        for c in board {
            if board_set.0 & c.bit().0 != 0 {
                return Err(Error::Invalid {
                    what: "board",
                    reason: format!("the card {c} appears twice"),
                });
            }
            board_set |= c.bit();
        }
        Error::check_range("pot", 1, MAX_CHIPS, pot)?;
        Error::check_range("stack", 0, MAX_CHIPS, stack)?;
        tree.check()?;
        let mut hands: [Vec<HoleCards>; 2] = [Vec::new(), Vec::new()];
        let mut weights: [Vec<f32>; 2] = [Vec::new(), Vec::new()];
        for (p, range) in [oop, ip].into_iter().enumerate() {
            let kept = range.without(board_set);
            if kept.is_empty() {
                return Err(Error::Invalid {
                    what: "range",
                    reason: format!(
                        "the {} range is empty once the {} combos that overlap the board {} \
                         are removed",
                        ["OOP", "IP"][p],
                        range.len(),
                        board.iter().map(|c| c.to_string()).collect::<String>()
                    ),
                });
            }
            for &(h, w) in kept.entries() {
                hands[p].push(h);
                weights[p].push(w as f32);
            }
        }
        let spot = Spot {
            board: board.to_vec(),
            board_set,
            pot: pot as u32,
            stack: stack as u32,
            hands,
            weights,
            tree,
        };
        if spot.pair_weight() <= 0.0 {
            return Err(Error::Invalid {
                what: "range",
                reason: "no OOP hand can be dealt with any IP hand (every pair shares a card)"
                    .into(),
            });
        }
        Ok(spot)
    }

    /// A spot from text: the board (`Td9d6hQc`, spaces allowed), the ranges in the
    /// notation of [`WeightedRange::parse`]; see [`Spot::new`] for the checks.
    pub fn parse(
        board: &str,
        pot: u64,
        stack: u64,
        oop: &str,
        ip: &str,
        tree: TreeConfig,
    ) -> Result<Spot> {
        let cards = parse_cards(board)?;
        let ctx = |what: &'static str| {
            move |e: Error| Error::Invalid {
                what,
                reason: e.to_string(),
            }
        };
        let oop = WeightedRange::parse(oop).map_err(ctx("OOP range"))?;
        let ip = WeightedRange::parse(ip).map_err(ctx("IP range"))?;
        Spot::new(&cards, pot, stack, &oop, &ip, tree)
    }

    /// The board cards.
    pub fn board(&self) -> &[Card] {
        &self.board
    }

    /// The board as a card set.
    pub fn board_set(&self) -> CardSet64 {
        self.board_set
    }

    /// The starting pot in chips.
    pub fn pot(&self) -> u32 {
        self.pot
    }

    /// The effective stack behind in chips.
    pub fn stack(&self) -> u32 {
        self.stack
    }

    /// Player `p`'s hands (0 OOP, 1 IP) after card removal, in id order.
    pub fn hands(&self, p: usize) -> &[HoleCards] {
        &self.hands[p]
    }

    /// Player `p`'s weights, aligned with [`Spot::hands`].
    pub fn weights(&self, p: usize) -> &[f32] {
        &self.weights[p]
    }

    /// The bet tree.
    pub fn tree_config(&self) -> &TreeConfig {
        &self.tree
    }

    /// The street the spot starts on: 0 flop, 1 turn, 2 river.
    pub fn street(&self) -> usize {
        self.board.len() - 3
    }

    /// `Σ w0(h0) w1(h1)` over the pairs of disjoint hands: the normalizer of the deal.
    pub fn pair_weight(&self) -> f64 {
        let mut total = 0.0;
        for (a, &wa) in self.hands[0].iter().zip(&self.weights[0]) {
            for (b, &wb) in self.hands[1].iter().zip(&self.weights[1]) {
                if (a.set() & b.set()).is_empty() {
                    total += wa as f64 * wb as f64;
                }
            }
        }
        total
    }
}
