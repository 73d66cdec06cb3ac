//! Node locking: one player's strategy fixed at chosen nodes, for all its hands or some,
//! while the solver solves the rest ([`NodeLock`], [`super::SpotSolver::set_locks`]).

use std::collections::HashMap;

use super::tree::SpotTree;
use super::Spot;
use crate::core::{Error, Result};
use crate::poker::WeightedRange;

/// How far a lock's frequencies may sum from 1.
pub const LOCK_SUM_TOLERANCE: f64 = 1e-6;

/// A node lock: at the node (or nodes) `line` names, the acting player plays `strategy`
/// with `hands` (all its hands when `None`), whatever the solver would do.
///
/// - `line`: the actions from the root, comma separated, as [`SpotTree::find`] reads them
///   (`check`, `bet:120`, `raise:300`, `call`, `fold`; the root is the empty line or
///   `root`), with two additions: a bet or raise may be named by its size word as the tree
///   was given it (`bet:75%`, `raise:2.5x`, `bet:e`, `bet:a`: the bet that size became at
///   that node, after rounding and the all-in thresholds), and a card dealt on the way is
///   written as the card (`7h`) or `*`, every card (the lock then applies below each card
///   of that chance node).
/// - `strategy`: (action, frequency) pairs, actions named as in the line; actions not
///   listed get 0. Frequencies are finite, ≥ 0 and sum to 1 (within
///   [`LOCK_SUM_TOLERANCE`]); an action may appear once.
/// - `hands`: range text in the notation of [`WeightedRange::parse`] (`AKs,QQ+`,
///   `AhKh`, `15%`), without weights other than 1; the combos of it in the player's range
///   are locked (card removal: a combo meeting the board or a dealt card is simply never
///   there), and a text none of whose combos is in the range is an error.
/// - `player`: 0 (OOP) or 1 (IP) to refuse a line that ends at the other player's node;
///   `None` accepts either.
///
/// Several locks may name the same node; a later one overrides an earlier one for the
/// hands they share.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct NodeLock {
    /// The player the lock is for, if it says (0 OOP, 1 IP).
    pub player: Option<usize>,
    /// The node's action line.
    pub line: String,
    /// The locked distribution over the node's actions.
    pub strategy: Vec<(String, f64)>,
    /// The locked hands (range text), or all.
    pub hands: Option<String>,
}

impl NodeLock {
    /// Parses the text form `[oop:|ip:]LINE=ACTION:FREQ,...[@HANDS]` (the CLI's
    /// `--lock`): `check,bet:75%=call:1`, `bet:50=fold:0.3,call:0.7@QQ-99,AKo`,
    /// `ip:check,check,*,bet:a=fold:1`, `=check:1` (the root). An action without
    /// `:FREQ` has frequency 1 (`bet:50=call`).
    pub fn parse(text: &str) -> Result<NodeLock> {
        let bad = |reason: &str| Error::Invalid {
            what: "lock",
            reason: format!(
                "{text:?}: {reason} (a lock is [oop:|ip:]LINE=ACTION:FREQ,...[@HANDS], such \
                 as check,bet:75%=call:1 or bet:50=fold:0.3,call:0.7@QQ-99)"
            ),
        };
        let mut rest = text.trim();
        let mut player = None;
        for (prefix, p) in [("oop:", 0), ("ip:", 1)] {
            if rest.len() >= prefix.len() && rest[..prefix.len()].eq_ignore_ascii_case(prefix) {
                player = Some(p);
                rest = &rest[prefix.len()..];
                break;
            }
        }
        let (line, tail) = rest.split_once('=').ok_or_else(|| bad("no '='"))?;
        let (strategy_text, hands) = match tail.split_once('@') {
            Some((s, h)) if h.trim().is_empty() => {
                return Err(bad(&format!("no hands after '@' in {s:?}")))
            }
            Some((s, h)) => (s, Some(h.trim().to_string())),
            None => (tail, None),
        };
        let mut strategy = Vec::new();
        for item in strategy_text.split(',').map(str::trim) {
            if item.is_empty() {
                return Err(bad("an empty action"));
            }
            // `call:0.7`, `bet:120:0.5`; `bet:120` and `call` alone are actions at 1.
            let (action, freq) = match item.rsplit_once(':') {
                Some((a, f))
                    if !matches!(a.trim().to_ascii_lowercase().as_str(), "bet" | "raise") =>
                {
                    let f: f64 = f
                        .trim()
                        .parse()
                        .map_err(|_| bad(&format!("{f:?} in {item:?} is not a frequency")))?;
                    (a.trim().to_string(), f)
                }
                _ => (item.to_string(), 1.0),
            };
            strategy.push((action, freq));
        }
        Ok(NodeLock {
            player,
            line: line.trim().to_string(),
            strategy,
            hands,
        })
    }
}

impl std::fmt::Display for NodeLock {
    /// The text form [`NodeLock::parse`] reads.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(p) = self.player {
            write!(f, "{}:", ["oop", "ip"][p.min(1)])?;
        }
        write!(f, "{}=", self.line)?;
        for (i, (a, x)) in self.strategy.iter().enumerate() {
            if i > 0 {
                write!(f, ",")?;
            }
            write!(f, "{a}:{x}")?;
        }
        if let Some(h) = &self.hands {
            write!(f, "@{h}")?;
        }
        Ok(())
    }
}

/// The locks of one node, resolved: the locked hands and their distributions.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct LockedNode {
    /// The locked hands (indices into the acting player's hands), ascending.
    pub(super) hands: Vec<u32>,
    /// `actions × hands`, action-major; only the locked hands' columns are used.
    pub(super) strategy: Vec<f32>,
}

impl LockedNode {
    /// Writes the locked hands' distributions into `strat` (`k × n`, action-major).
    pub(super) fn apply(&self, strat: &mut [f32], k: usize, n: usize) {
        for a in 0..k {
            for &h in &self.hands {
                let i = a * n + h as usize;
                strat[i] = self.strategy[i];
            }
        }
    }
}

/// Resolves `locks` on `tree` into per-node locked hands, checking everything (see
/// [`NodeLock`]); an error leaves nothing resolved.
pub(super) fn resolve(
    spot: &Spot,
    tree: &SpotTree,
    locks: &[NodeLock],
) -> Result<HashMap<u32, LockedNode>> {
    let mut out: HashMap<u32, LockedNode> = HashMap::new();
    for lock in locks {
        let bad = |reason: String| Error::Invalid {
            what: "lock",
            reason: format!("{lock}: {reason}"),
        };
        if let Some(p) = lock.player {
            if p > 1 {
                return Err(bad(format!("player {p}: a player is 0 (OOP) or 1 (IP)")));
            }
        }
        if lock.strategy.is_empty() {
            return Err(bad("no action".into()));
        }
        let mut sum = 0.0;
        for (i, (a, x)) in lock.strategy.iter().enumerate() {
            if !x.is_finite() || *x < 0.0 || *x > 1.0 + LOCK_SUM_TOLERANCE {
                return Err(bad(format!(
                    "the frequency of {a:?} is {x}: a frequency is a number in [0, 1]"
                )));
            }
            if lock.strategy[..i]
                .iter()
                .any(|(b, _)| b.trim().eq_ignore_ascii_case(a.trim()))
            {
                return Err(bad(format!("{a:?} is given twice")));
            }
            sum += x;
        }
        if (sum - 1.0).abs() > LOCK_SUM_TOLERANCE {
            let shown = (sum * 1e9).round() / 1e9;
            return Err(bad(format!("the frequencies sum to {shown}, not 1")));
        }
        let words: Vec<&str> = lock.strategy.iter().map(|(a, _)| a.as_str()).collect();
        let found = tree.resolve_actions(spot, &lock.line, &words)?;
        // Every node a line names is the same player's (the same betting line).
        let n0 = found[0].0;
        let super::NodeKind::Decision(q) = tree.nodes()[n0].kind else {
            unreachable!("resolve_actions returns decision nodes")
        };
        let q = q as usize;
        if let Some(p) = lock.player {
            if p != q {
                return Err(bad(format!(
                    "the node {:?} is {}'s decision, not {}'s",
                    lock.line,
                    ["OOP", "IP"][q],
                    ["OOP", "IP"][p]
                )));
            }
        }
        let hands: Vec<u32> = match &lock.hands {
            None => (0..spot.hands(q).len() as u32).collect(),
            Some(text) => {
                let range = WeightedRange::parse(text).map_err(|e| bad(format!("hands: {e}")))?;
                if let Some((h, w)) = range.entries().iter().find(|(_, w)| *w != 1.0) {
                    return Err(bad(format!(
                        "hands: {h} has weight {w}; a lock's hands take no weights"
                    )));
                }
                let index: HashMap<u64, u32> = spot
                    .hands(q)
                    .iter()
                    .enumerate()
                    .map(|(i, h)| (h.set().0, i as u32))
                    .collect();
                let mut v: Vec<u32> = range
                    .entries()
                    .iter()
                    .filter_map(|(h, _)| index.get(&h.set().0).copied())
                    .collect();
                v.sort_unstable();
                if v.is_empty() {
                    return Err(bad(format!(
                        "hands: no combo of {text:?} is in {}'s range",
                        ["OOP", "IP"][q]
                    )));
                }
                v
            }
        };
        let n = spot.hands(q).len();
        for (node, idx) in found {
            let k = tree.children(node).len();
            let entry = out.entry(node as u32).or_insert_with(|| LockedNode {
                hands: Vec::new(),
                strategy: vec![0.0; k * n],
            });
            for &h in &hands {
                for a in 0..k {
                    entry.strategy[a * n + h as usize] = 0.0;
                }
                for (&a, (_, x)) in idx.iter().zip(&lock.strategy) {
                    entry.strategy[a * n + h as usize] = *x as f32;
                }
            }
            let mut merged: Vec<u32> = entry.hands.iter().chain(&hands).copied().collect();
            merged.sort_unstable();
            merged.dedup();
            entry.hands = merged;
        }
    }
    Ok(out)
}
