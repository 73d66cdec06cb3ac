//! The public tree of a [`Spot`]: what both players see (actions and board cards), built
//! once before solving. Nodes are stored depth first (a node before its subtree, subtrees
//! of consecutive children one after the other), and every decision node owns a block of
//! per-(action, hand) slots laid out in the same order, so a subtree's slots are one
//! contiguous range.

use std::collections::HashMap;

use super::iso;
use super::line::{self, LineUse};
use super::{BetSize, Spot};
use crate::core::{CardSet64, Error, Result};
use crate::poker::Card;

/// The default largest tree, in nodes.
pub const DEFAULT_MAX_NODES: usize = 50_000_000;

/// What happens at a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// Player 0 (OOP) or 1 (IP) acts.
    Decision(u8),
    /// The player given folded: the other takes the pot.
    Fold(u8),
    /// The river is checked or called down (or both are all-in): the better hand takes the
    /// pot, a tie splits it.
    Showdown,
    /// The next board card is dealt (one child per card not on the board).
    Chance,
}

/// The edge into a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// The root (no edge).
    Root,
    /// Fold.
    Fold,
    /// Check.
    Check,
    /// Call.
    Call,
    /// Bet, to this many chips on the street.
    Bet(u32),
    /// Raise, to this many chips on the street.
    Raise(u32),
    /// The card dealt.
    Deal(Card),
}

impl std::fmt::Display for Action {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Action::Root => write!(f, "root"),
            Action::Fold => write!(f, "fold"),
            Action::Check => write!(f, "check"),
            Action::Call => write!(f, "call"),
            Action::Bet(to) => write!(f, "bet:{to}"),
            Action::Raise(to) => write!(f, "raise:{to}"),
            Action::Deal(c) => write!(f, "{c}"),
        }
    }
}

/// One node of a [`SpotTree`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpotNode {
    /// What happens here.
    pub kind: NodeKind,
    /// The edge into the node.
    pub action: Action,
    /// The street: 0 flop, 1 turn, 2 river.
    pub street: u8,
    /// The board cards at the node.
    pub board: CardSet64,
    /// The chips each player has put in since the spot started.
    pub spent: [u32; 2],
    first_child: u32,
    num_children: u32,
    /// A decision node's first slot (its block: actions × the player's hands).
    pub(super) slot: u64,
    /// The end of the slots of the node's subtree.
    pub(super) slot_end: u64,
    /// A showdown's board, an index into [`SpotTree::boards`].
    pub(super) showdown: u32,
    /// The node this one mirrors under suit isomorphism (its own index when it is not a
    /// mirror; see the `iso` module): always a node that is not a mirror itself.
    pub(super) rep: u32,
    /// The index (into `iso::all_perms`) of the suit permutation mapping this node's cards
    /// and hands onto `rep`'s.
    pub(super) perm: u8,
}

/// The node counts and the memory a solve needs (see [`SpotTree::memory`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct MemoryEstimate {
    /// All nodes.
    pub nodes: u64,
    /// Decision nodes.
    pub decision_nodes: u64,
    /// Chance nodes.
    pub chance_nodes: u64,
    /// Fold and showdown nodes.
    pub terminal_nodes: u64,
    /// (action, hand) entries over all decision nodes.
    pub slots: u64,
    /// The tree's own arrays.
    pub tree_bytes: u64,
    /// The solver's f32 arrays (regrets, cumulative strategy, and the prediction of PCFR+).
    pub storage_bytes: u64,
    /// The showdown tables (hand ranks sorted per river board).
    pub showdown_bytes: u64,
    /// Nodes that mirror another under suit isomorphism ([`SpotTree::mirrors`]): their
    /// slots are allocated (counted above) and not walked while training.
    pub mirrors: u64,
    /// The sum.
    pub total_bytes: u64,
}

/// The public tree of a spot (see the module documentation).
#[derive(Clone, Debug)]
pub struct SpotTree {
    nodes: Vec<SpotNode>,
    children: Vec<u32>,
    boards: Vec<CardSet64>,
    num_hands: [usize; 2],
    slots: u64,
    mirrors: u64,
}

/// The betting state at a node, as the builder (and a line followed down the tree) moves it.
#[derive(Clone)]
pub(super) struct State {
    /// 0 flop, 1 turn, 2 river.
    pub(super) street: usize,
    /// The board cards.
    pub(super) board: CardSet64,
    /// The chips each player has put in since the spot started.
    pub(super) spent: [u32; 2],
    /// The chips each player has put in on this street.
    pub(super) street_in: [u32; 2],
    /// The player to act.
    pub(super) player: usize,
    /// The raises on this street.
    pub(super) raises: u32,
    /// The last bet or raise increment on this street (the minimum raise).
    pub(super) last_incr: u32,
    /// The last player to bet or raise on this street, and on the previous one (donk
    /// sizes: OOP leading into the previous street's aggressor).
    pub(super) aggressor: Option<u8>,
    pub(super) previous_aggressor: Option<u8>,
}

impl State {
    /// The betting state at the root of `spot`'s tree.
    pub(super) fn root(spot: &Spot) -> State {
        State {
            street: spot.street(),
            board: spot.board_set(),
            spent: [0, 0],
            street_in: [0, 0],
            player: 0,
            raises: 0,
            last_incr: 0,
            aggressor: None,
            previous_aggressor: None,
        }
    }
}

struct Builder<'a> {
    spot: &'a Spot,
    max_nodes: usize,
    nodes: Vec<SpotNode>,
    children: Vec<u32>,
    boards: Vec<CardSet64>,
    board_index: HashMap<u64, u32>,
    slots: u64,
    /// Which suit swaps leave both ranges as they are (`iso::range_symmetry`).
    swappable: [[bool; 4]; 4],
    mirrors: u64,
}

impl SpotTree {
    /// Builds the tree of `spot`, refusing (an error, nothing more allocated) a tree of more
    /// than `max_nodes` nodes.
    pub fn build(spot: &Spot, max_nodes: usize) -> Result<SpotTree> {
        let mut b = Builder {
            spot,
            max_nodes,
            nodes: Vec::new(),
            children: Vec::new(),
            boards: Vec::new(),
            board_index: HashMap::new(),
            slots: 0,
            swappable: iso::range_symmetry(spot),
            mirrors: 0,
        };
        let st = State::root(spot);
        if spot.stack() == 0 {
            b.close_street(st, Action::Root)?;
        } else {
            b.decision(st, Action::Root)?;
        }
        Ok(SpotTree {
            nodes: b.nodes,
            children: b.children,
            boards: b.boards,
            num_hands: [spot.hands(0).len(), spot.hands(1).len()],
            slots: b.slots,
            mirrors: b.mirrors,
        })
    }

    /// The number of nodes that mirror another under suit isomorphism (see the `iso`
    /// module): subtrees of a turn or river card whose values the solver reads from the
    /// card of the same rank in an interchangeable suit. 0 when no two suits are
    /// interchangeable (the board, or a range that is not suit-symmetric).
    pub fn mirrors(&self) -> u64 {
        self.mirrors
    }

    /// The node `n` mirrors and the index of the suit permutation mapping `n`'s cards onto
    /// it (`None` when `n` is not a mirror).
    pub(super) fn mirror_of(&self, n: usize) -> Option<(usize, u8)> {
        let node = &self.nodes[n];
        (node.rep as usize != n).then_some((node.rep as usize, node.perm))
    }

    /// The nodes, depth first; node 0 is the root.
    pub fn nodes(&self) -> &[SpotNode] {
        &self.nodes
    }

    /// Node `n`'s children (in action order, or card order at a chance node).
    pub fn children(&self, n: usize) -> &[u32] {
        let node = &self.nodes[n];
        &self.children[node.first_child as usize..][..node.num_children as usize]
    }

    /// The distinct river boards of the showdown nodes.
    pub fn boards(&self) -> &[CardSet64] {
        &self.boards
    }

    /// The number of hands of player `p`.
    pub fn num_hands(&self, p: usize) -> usize {
        self.num_hands[p]
    }

    /// The number of (action, hand) slots over all decision nodes.
    pub fn num_slots(&self) -> u64 {
        self.slots
    }

    /// The node reached from the root by `line`, actions written as [`Action`] displays
    /// them (`check`, `bet:120`, `call`, a card such as `7h`), comma separated; `None` when
    /// the line leaves the tree.
    pub fn find(&self, line: &str) -> Option<usize> {
        let mut n = 0usize;
        for word in line.split(',').map(str::trim).filter(|w| !w.is_empty()) {
            n = *self
                .children(n)
                .iter()
                .find(|&&c| self.nodes[c as usize].action.to_string() == word)?
                as usize;
        }
        Some(n)
    }

    /// The node counts and the memory a solve with `arrays` f32 arrays per slot (2 for
    /// DCFR and CFR+, 3 for PCFR+) needs, computed from the tree before anything else is
    /// allocated.
    pub fn memory(&self, arrays: u64) -> MemoryEstimate {
        let mut e = MemoryEstimate {
            nodes: self.nodes.len() as u64,
            decision_nodes: 0,
            chance_nodes: 0,
            terminal_nodes: 0,
            slots: self.slots,
            tree_bytes: (self.nodes.len() * std::mem::size_of::<SpotNode>()
                + self.children.len() * 4) as u64,
            storage_bytes: self.slots * arrays * 4,
            showdown_bytes: self.boards.len() as u64
                * (self.num_hands[0] + self.num_hands[1]) as u64
                * 8,
            mirrors: self.mirrors,
            total_bytes: 0,
        };
        for n in &self.nodes {
            match n.kind {
                NodeKind::Decision(_) => e.decision_nodes += 1,
                NodeKind::Chance => e.chance_nodes += 1,
                _ => e.terminal_nodes += 1,
            }
        }
        e.total_bytes = e.tree_bytes + e.storage_bytes + e.showdown_bytes;
        e
    }
}

impl Builder<'_> {
    fn push(&mut self, kind: NodeKind, action: Action, st: &State) -> Result<usize> {
        if self.nodes.len() >= self.max_nodes {
            return Err(Error::Invalid {
                what: "spot tree",
                reason: format!(
                    "more than {} nodes (fewer sizes, a lower raise cap or a later street \
                     make it smaller)",
                    self.max_nodes
                ),
            });
        }
        self.nodes.push(SpotNode {
            kind,
            action,
            street: st.street as u8,
            board: st.board,
            spent: st.spent,
            first_child: 0,
            num_children: 0,
            slot: self.slots,
            slot_end: self.slots,
            showdown: u32::MAX,
            rep: self.nodes.len() as u32,
            perm: 0,
        });
        Ok(self.nodes.len() - 1)
    }

    /// Marks the subtree of `n` as the mirror of the subtree of `r` under `sigma` (which
    /// maps `n`'s cards onto `r`'s): node for node, a chance child of card `d` matched with
    /// `r`'s child of card `sigma(d)`, other children in order.
    fn mirror(&mut self, n: u32, r: u32, sigma: iso::SuitPerm) {
        let rn = self.nodes[r as usize];
        debug_assert_eq!(rn.kind, self.nodes[n as usize].kind);
        let to_rep = iso::all_perms()[rn.perm as usize];
        let node = &mut self.nodes[n as usize];
        // A node already a mirror inside its own subtree (a river card) is counted once.
        let counted = node.rep != n;
        node.rep = rn.rep;
        node.perm = iso::perm_id(iso::compose(to_rep, sigma));
        self.mirrors += u64::from(!counted);
        let (nn, rn) = (self.nodes[n as usize], rn);
        let kids = |b: &Builder, x: &SpotNode| {
            b.children[x.first_child as usize..][..x.num_children as usize].to_vec()
        };
        let (kn, kr) = (kids(self, &nn), kids(self, &rn));
        if nn.kind == NodeKind::Chance {
            for x in kn {
                let Action::Deal(d) = self.nodes[x as usize].action else {
                    unreachable!("a chance node's children are deals")
                };
                let target = iso::map_card(sigma, d.id());
                let y = *kr
                    .iter()
                    .find(|&&y| {
                        matches!(self.nodes[y as usize].action, Action::Deal(c) if c.id() == target)
                    })
                    .expect("the mirror card is dealt at the representative's chance node");
                self.mirror(x, y, sigma);
            }
        } else {
            for (x, y) in kn.into_iter().zip(kr) {
                self.mirror(x, y, sigma);
            }
        }
    }

    fn set_children(&mut self, n: usize, kids: &[u32]) {
        self.nodes[n].first_child = self.children.len() as u32;
        self.nodes[n].num_children = kids.len() as u32;
        self.children.extend_from_slice(kids);
        self.nodes[n].slot_end = self.slots;
    }

    /// The street ends (check-check or a call): the showdown on the river, else the next
    /// card.
    fn close_street(&mut self, st: State, action: Action) -> Result<u32> {
        if st.street == 2 {
            let n = self.push(NodeKind::Showdown, action, &st)?;
            let next = self.boards.len() as u32;
            let idx = *self.board_index.entry(st.board.0).or_insert(next);
            if idx == next {
                self.boards.push(st.board);
            }
            self.nodes[n].showdown = idx;
            return Ok(n as u32);
        }
        let n = self.push(NodeKind::Chance, action, &st)?;
        let all_in = self.spot.stack() == st.spent[0];
        let reps = iso::representatives(&self.swappable, st.board);
        let mut by_card = [u32::MAX; 52];
        let mut kids = Vec::new();
        for id in 0..52u8 {
            if st.board.0 >> id & 1 == 1 {
                continue;
            }
            let card = Card::from_id(id).expect("card id below 52");
            let next = State {
                street: st.street + 1,
                board: st.board | card.bit(),
                spent: st.spent,
                street_in: [0, 0],
                player: 0,
                raises: 0,
                last_incr: 0,
                aggressor: None,
                previous_aggressor: st.aggressor,
            };
            let child = if all_in {
                self.close_street(next, Action::Deal(card))?
            } else {
                self.decision(next, Action::Deal(card))?
            };
            by_card[id as usize] = child;
            kids.push(child);
            // A card of a suit interchangeable with a lower one mirrors the card of the same
            // rank in the lowest such suit (built before it: its id is lower).
            let (s, m) = (id / 13, reps[(id / 13) as usize]);
            if m != s {
                let rep = by_card[(13 * m + id % 13) as usize];
                self.mirror(child, rep, iso::swap(s, m));
            }
        }
        self.set_children(n, &kids);
        Ok(n as u32)
    }

    /// The street totals the player to act may bet or raise to, ascending.
    fn amounts(&self, st: &State) -> Vec<u32> {
        amounts(self.spot, st)
    }

    fn decision(&mut self, st: State, action: Action) -> Result<u32> {
        let (p, o) = (st.player, 1 - st.player);
        let n = self.push(NodeKind::Decision(p as u8), action, &st)?;
        let call = st.street_in[o] - st.street_in[p];
        let amounts = self.amounts(&st);
        let num_actions = 1 + (call > 0) as u64 + amounts.len() as u64;
        self.nodes[n].slot = self.slots;
        self.slots += num_actions * self.spot.hands(p).len() as u64;
        let mut kids = Vec::new();
        let copy = |st: &State| State {
            street: st.street,
            board: st.board,
            spent: st.spent,
            street_in: st.street_in,
            player: st.player,
            raises: st.raises,
            last_incr: st.last_incr,
            aggressor: st.aggressor,
            previous_aggressor: st.previous_aggressor,
        };
        if call > 0 {
            kids.push(self.push(NodeKind::Fold(p as u8), Action::Fold, &st)? as u32);
            let mut next = copy(&st);
            next.street_in[p] += call;
            next.spent[p] += call;
            kids.push(self.close_street(next, Action::Call)?);
        } else if p == 1 {
            kids.push(self.close_street(copy(&st), Action::Check)?);
        } else {
            let mut next = copy(&st);
            next.player = 1;
            kids.push(self.decision(next, Action::Check)?);
        }
        for to in amounts {
            let mut next = copy(&st);
            next.spent[p] += to - st.street_in[p];
            next.street_in[p] = to;
            next.player = o;
            next.raises += (call > 0) as u32;
            next.last_incr = to - st.street_in[o];
            next.aggressor = Some(p as u8);
            let a = if call > 0 {
                Action::Raise(to)
            } else {
                Action::Bet(to)
            };
            kids.push(self.decision(next, a)?);
        }
        self.set_children(n, &kids);
        Ok(n as u32)
    }
}

/// The street total one size becomes for the player to act at `st` (rounded, at least the
/// minimum raise, all-in at or above the stack or when the force-all-in threshold says so);
/// `None` when the player cannot bet or raise, or for a multiple with no bet faced.
pub(super) fn size_to(spot: &Spot, st: &State, size: BetSize) -> Option<u64> {
    let (p, o) = (st.player, 1 - st.player);
    let cfg = spot.tree_config();
    let call = (st.street_in[o] - st.street_in[p]) as u64;
    let behind = (spot.stack() - st.spent[p]) as u64;
    let facing = call > 0;
    if behind <= call || (facing && st.raises >= cfg.raise_cap) {
        return None;
    }
    let pot = spot.pot() as u64 + st.spent[0] as u64 + st.spent[1] as u64;
    let pot_after_call = (pot + call) as f64;
    let faced = st.street_in[o] as u64;
    let mine = st.street_in[p] as u64;
    let max_to = mine + behind;
    let min_to = (faced + (st.last_incr as u64).max(1)).min(max_to);
    let streets_left = (3 - st.street) as f64;
    let to = match size {
        BetSize::Pot(f) => faced + (f * pot_after_call).round() as u64,
        BetSize::Multiple(x) => {
            if !facing {
                return None;
            }
            (x * faced as f64).round() as u64
        }
        BetSize::Geometric => {
            let rest = (behind - call) as f64;
            let r = ((1.0 + 2.0 * rest / pot_after_call).powf(1.0 / streets_left) - 1.0) / 2.0;
            faced + (r * pot_after_call).round() as u64
        }
        BetSize::AllIn => max_to,
    };
    let mut to = to.clamp(min_to, max_to);
    // Force all-in: once called, less than the threshold times the pot behind.
    let left = max_to - to;
    let pot_called = pot + (to - mine) + (to - faced);
    if (left as f64) < cfg.force_allin_threshold * pot_called as f64 {
        to = max_to;
    }
    Some(to)
}

/// The street totals the player to act at `st` may bet or raise to, ascending.
fn amounts(spot: &Spot, st: &State) -> Vec<u32> {
    let (p, o) = (st.player, 1 - st.player);
    let cfg = spot.tree_config();
    let call = (st.street_in[o] - st.street_in[p]) as u64;
    let street = &cfg.sizes[p][st.street];
    let facing = call > 0;
    // A donk bet: OOP leads into IP, the previous street's last aggressor.
    let donk = (p == 0 && !facing && st.previous_aggressor == Some(1))
        .then(|| cfg.donk[st.street].as_ref())
        .flatten();
    let sizes = if facing {
        &street.raises
    } else {
        donk.unwrap_or(&street.bets)
    };
    let mut out: Vec<u32> = sizes
        .iter()
        .filter_map(|&s| size_to(spot, st, s))
        .map(|to| to as u32)
        .collect();
    if out.is_empty() && sizes.is_empty() {
        return out;
    }
    if size_to(spot, st, BetSize::AllIn).is_none() {
        return Vec::new();
    }
    let pot = spot.pot() as u64 + st.spent[0] as u64 + st.spent[1] as u64;
    let behind = (spot.stack() - st.spent[p]) as u64;
    let max_to = st.street_in[p] as u64 + behind;
    let faced = st.street_in[o] as u64;
    if ((max_to - faced) as f64) <= cfg.add_allin_threshold * (pot + call) as f64 {
        out.push(max_to as u32);
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// The state after `action` from a decision node of `st.player` (or a deal at a chance
/// node), as the builder moves it.
pub(super) fn step(st: &State, action: Action) -> State {
    let mut next = st.clone();
    let (p, o) = (st.player, 1 - st.player);
    match action {
        Action::Check => next.player = 1,
        Action::Call => {
            let call = st.street_in[o] - st.street_in[p];
            next.street_in[p] += call;
            next.spent[p] += call;
        }
        Action::Bet(to) | Action::Raise(to) => {
            next.spent[p] += to - st.street_in[p];
            next.street_in[p] = to;
            next.player = o;
            next.raises += matches!(action, Action::Raise(_)) as u32;
            next.last_incr = to - st.street_in[o];
            next.aggressor = Some(p as u8);
        }
        Action::Deal(card) => {
            next.street += 1;
            next.board = st.board | card.bit();
            next.street_in = [0, 0];
            next.player = 0;
            next.raises = 0;
            next.last_incr = 0;
            next.previous_aggressor = st.aggressor;
            next.aggressor = None;
        }
        Action::Fold | Action::Root => {}
    }
    next
}

impl SpotTree {
    /// Checks `locks` against this tree of `spot` as [`super::SpotSolver::set_locks`] would
    /// (an error names the bad lock), without a solver: for a dry run.
    pub fn check_locks(&self, spot: &Spot, locks: &[super::NodeLock]) -> Result<()> {
        super::lock::resolve(spot, self, locks).map(|_| ())
    }

    /// The nodes a lock line names and, for each, the index among its children of each of
    /// `words` (actions named as in a lock line, such as `call` or `bet:75%`). Errors: the
    /// line leaves the tree, ends at a node that is not a decision, or a word names no
    /// action there.
    pub(super) fn resolve_actions(
        &self,
        spot: &Spot,
        line: &str,
        words: &[&str],
    ) -> Result<Vec<(usize, Vec<usize>)>> {
        let mut out = Vec::new();
        for reached in line::resolve(spot, self, line, &[], LineUse::Lock)? {
            let (n, mut st) = (reached.node, reached.state);
            let node = &self.nodes[n];
            let NodeKind::Decision(q) = node.kind else {
                return Err(Error::Invalid {
                    what: "lock line",
                    reason: format!(
                        "{line:?} ends at {}, not at a player's decision",
                        match node.kind {
                            NodeKind::Chance => "a chance node (a card is dealt there)",
                            NodeKind::Showdown => "a showdown",
                            _ => "a fold",
                        }
                    ),
                });
            };
            st.player = q as usize;
            let mut idx = Vec::with_capacity(words.len());
            for w in words {
                match line::match_action(spot, self, n, &st, w, LineUse::Lock)? {
                    Some(i) => idx.push(i),
                    None => {
                        return Err(Error::Invalid {
                            what: "lock",
                            reason: format!(
                                "no action {w:?} at {line:?} ({} acts); the actions are {}",
                                ["OOP", "IP"][q as usize],
                                line::actions_text(self, n)
                            ),
                        })
                    }
                }
            }
            out.push((n, idx));
        }
        Ok(out)
    }
}
