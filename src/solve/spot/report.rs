//! Reading a solved spot at any node: the node addressed by its line of actions (and the
//! cards dealt on the way), each hand's strategy, EV and equity there, the range weights
//! reaching it, the same aggregated over the 13×13 hand classes and over hand categories,
//! and a JSON export of a subtree's strategies.
//!
//! # Lines
//!
//! A line is comma-separated words from the root: `fold`, `check`, `call`; `bet:120` or
//! `raise:300` (to that many chips on the street, as [`super::Action`] displays them);
//! `bet:75%` or `raise:100%` (the bet or raise whose size, beyond the call, is nearest that
//! fraction of the pot after the call, within one chip or one percentage point); `raise:2.5x`
//! (to nearest 2.5 times the bet faced, within one chip or 1%); `allin` (or `a`, `bet:a`,
//! `raise:a`: the action putting the player all-in); `bet` or `raise` alone where there is
//! one; and at a chance node, the card dealt (`Kh`). Cards not written in the line are taken
//! in order from the extra cards given with it ([`SpotSolver::node_report`]'s `cards`), at
//! each chance node the line reaches and, once the line is read, at the chance nodes that
//! follow it. A word that matches no action is an error listing the actions there; a
//! chance node with no card left, or a card that cannot come there, an error listing the
//! cards that can.
//!
//! # What a node reports ([`NodeReport`])
//!
//! For each player and hand: `reach`, the player's range weight reaching the node (its
//! starting weight times its own average-strategy probabilities along the line; 0 for a
//! hand holding a board card); `weight`, the hand's probability weight at the node,
//! `reach × ` the opponent's reach compatible with it (card removal), so the weights are
//! proportional to the chance of holding the hand there; `ev`, its EV in chips given that it
//! holds the hand at the node, counted as everywhere in this module from the start of the
//! spot (what it takes from the pot minus everything it put in since the start, so at every
//! node the two players' weight-averaged EVs sum to the starting pot); `equity`, its share of
//! the pot with the board run out against the opponent's reaching range, no more betting;
//! for the player to act, `strategy[action][hand]` (its average strategy) and
//! `action_ev[action][hand]` (the EV of taking the action and playing the average strategy
//! after it). `ev` and `equity` are NaN for a hand that holds a board card or that no
//! opponent hand reaching the node can be dealt with.
//!
//! Aggregates ([`PlayerReport::by_class`], [`PlayerReport::by_category`]) average `ev`,
//! `equity` and `strategy` over a group's hands weighted by `weight`, and sum `reach` into
//! `combos`.

use super::line::{self, LineUse};
use super::tree::{Action, NodeKind};
use super::SpotSolver;
use crate::core::{CardSet64, Result};
use crate::poker::preflop::{ClassKind, HandClass};
use crate::poker::{rank_of_set, Card, HoleCards};

/// One action at a decision node, labelled.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct ActionInfo {
    /// The word of the action in a line (`check`, `bet:120`, `raise:300`, `call`, `fold`).
    pub word: String,
    /// For a bet or raise: the chips it goes to on the street.
    pub to: Option<u32>,
    /// For a bet or raise: its size beyond the call in % of the pot after the call.
    pub pct: Option<f64>,
    /// Whether it puts the player all-in.
    pub all_in: bool,
}

/// One player's hands at a node (see the module documentation).
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerReport {
    /// The player's hands (those of [`super::Spot::hands`]).
    pub hands: Vec<HoleCards>,
    /// The range weight reaching the node, per hand.
    pub reach: Vec<f32>,
    /// The hand's probability weight at the node (`reach` times the compatible opponent
    /// reach).
    pub weight: Vec<f64>,
    /// EV in chips per hand (NaN where undefined).
    pub ev: Vec<f64>,
    /// Equity per hand (NaN where undefined).
    pub equity: Vec<f64>,
    /// For the player to act: `strategy[action * hands + hand]`.
    pub strategy: Option<Vec<f32>>,
    /// For the player to act: `action_ev[action * hands + hand]` (NaN where undefined).
    pub action_ev: Option<Vec<f64>>,
}

/// A group of hands aggregated ([`PlayerReport::by_class`], [`PlayerReport::by_category`]).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Aggregate {
    /// The class (`AKs`) or category (`pairs`, `one pair`, ...).
    pub name: String,
    /// The hands of the group in the player's range.
    pub hands: usize,
    /// The sum of their `reach` (combos of the range reaching the node).
    pub combos: f64,
    /// The sum of their `weight`.
    pub weight: f64,
    /// Weight-averaged EV (NaN if the weight is 0).
    pub ev: f64,
    /// Weight-averaged equity (NaN if the weight is 0).
    pub equity: f64,
    /// Weight-averaged strategy per action, for the player to act (empty otherwise; NaN if
    /// the weight is 0).
    pub strategy: Vec<f64>,
}

/// A node of a solved spot read by [`SpotSolver::node_report`].
#[derive(Clone, Debug, PartialEq)]
pub struct NodeReport {
    /// The node's index in [`super::SpotTree::nodes`].
    pub node: usize,
    /// The line from the root as words (cards included), each as a line accepts it.
    pub line: Vec<String>,
    /// What happens at the node.
    pub kind: NodeKind,
    /// The street: 0 flop, 1 turn, 2 river.
    pub street: u8,
    /// The board at the node.
    pub board: Vec<Card>,
    /// The pot at the node (the starting pot plus every chip put in since).
    pub pot: u32,
    /// The chips each player has put in since the start.
    pub spent: [u32; 2],
    /// The player to act at a decision node.
    pub player: Option<usize>,
    /// The actions of a decision node.
    pub actions: Vec<ActionInfo>,
    /// The cards a chance node can deal.
    pub cards: Vec<Card>,
    /// Both players, OOP first.
    pub players: [PlayerReport; 2],
}

/// Where a line leads: the nodes from the root and each node's chips on the street.
struct Walk {
    path: Vec<usize>,
    words: Vec<String>,
    street_in: [u32; 2],
}

/// The made-hand category names ([`crate::poker::Category::name`]) and the three shape
/// groups, in the order [`PlayerReport::by_category`] lists them.
pub const SHAPES: [&str; 3] = ["pairs", "suited", "offsuit"];

impl SpotSolver {
    /// The board at the end of `path`: the spot's cards in their order, then the cards
    /// dealt along the path.
    fn board_on(&self, path: &[usize]) -> Vec<Card> {
        line::board_on(self.spot(), self.tree(), path)
    }

    fn action_info(&self, node: usize, street_in: [u32; 2]) -> Vec<ActionInfo> {
        line::action_info(self.spot(), self.tree(), node, street_in)
    }

    /// Follows `line` (and the extra `cards`) from the root (see the module documentation;
    /// the words are read by the `line` module's resolver, as a lock's are).
    fn walk_line(&self, text: &str, cards: &[Card]) -> Result<Walk> {
        let mut reached = line::resolve(self.spot(), self.tree(), text, cards, LineUse::Report)?;
        debug_assert_eq!(reached.len(), 1, "a report's line reaches one node");
        let r = reached.swap_remove(0);
        Ok(Walk {
            path: r.path,
            words: r.words,
            street_in: r.state.street_in,
        })
    }

    /// The node that `line` (and the extra `cards`, dealt in order at the chance nodes the
    /// line reaches without a card) leads to, read: both players' hands, reach, weights,
    /// EVs and equities, and the strategy and action EVs of the player to act (see the
    /// `report` module documentation for the line's words and what each figure is). An
    /// unknown action, a missing or impossible card, a word after the hand is over, or a
    /// card left over is an error saying what is possible there.
    pub fn node_report(&mut self, line: &str, cards: &[Card]) -> Result<NodeReport> {
        let walk = self.walk_line(line, cards)?;
        let tree = self.tree().clone();
        let spot = self.spot().clone();
        let mut reach: [Vec<f32>; 2] = [spot.weights(0).to_vec(), spot.weights(1).to_vec()];
        for w in walk.path.windows(2) {
            let (n, c) = (w[0], w[1]);
            match tree.nodes()[n].kind {
                NodeKind::Decision(q) => {
                    let q = q as usize;
                    let a = tree
                        .children(n)
                        .iter()
                        .position(|&x| x as usize == c)
                        .expect("a child of its parent");
                    let s = self.average_strategy(n).expect("a decision node");
                    let h = spot.hands(q).len();
                    for (r, x) in reach[q].iter_mut().zip(&s[a * h..(a + 1) * h]) {
                        *r *= x;
                    }
                }
                NodeKind::Chance => {
                    let Action::Deal(card) = tree.nodes()[c].action else {
                        unreachable!("a chance node's children are deals")
                    };
                    for (p, r) in reach.iter_mut().enumerate() {
                        for (x, h) in r.iter_mut().zip(spot.hands(p)) {
                            if (h.set() & card.bit()).0 != 0 {
                                *x = 0.0;
                            }
                        }
                    }
                }
                _ => unreachable!("terminal nodes have no children"),
            }
        }
        let node = *walk.path.last().expect("the root is on the path");
        let nd = tree.nodes()[node];
        let actor = match nd.kind {
            NodeKind::Decision(q) => Some(q as usize),
            _ => None,
        };
        let players: Vec<PlayerReport> = (0..2)
            .map(|p| {
                let o = 1 - p;
                let compat = self.compatible_reach(p, &reach[o]);
                let blocked: Vec<bool> = spot
                    .hands(p)
                    .iter()
                    .map(|h| (h.set() & nd.board).0 != 0)
                    .collect();
                let per_hand = |v: &[f32]| -> Vec<f64> {
                    v.iter()
                        .zip(&compat)
                        .zip(&blocked)
                        .map(|((&x, &a), &b)| {
                            if a > 0.0 && !b {
                                x as f64 / a
                            } else {
                                f64::NAN
                            }
                        })
                        .collect()
                };
                let values = self.node_values(node, p, &reach[p], &reach[o]);
                let equity = self.board_equity(nd.board, p, &reach[o]);
                let (strategy, action_ev) = if actor == Some(p) {
                    let mut evs = Vec::new();
                    for &c in tree.children(node) {
                        let v = self.node_values(c as usize, p, &reach[p], &reach[o]);
                        evs.extend(per_hand(&v));
                    }
                    (self.average_strategy(node), Some(evs))
                } else {
                    (None, None)
                };
                PlayerReport {
                    hands: spot.hands(p).to_vec(),
                    weight: reach[p]
                        .iter()
                        .zip(&compat)
                        .zip(&blocked)
                        .map(|((&r, &a), &b)| if b { 0.0 } else { r as f64 * a })
                        .collect(),
                    reach: reach[p].clone(),
                    ev: per_hand(&values),
                    equity: per_hand(&equity),
                    strategy,
                    action_ev,
                }
            })
            .collect();
        let [p0, p1]: [PlayerReport; 2] = players.try_into().expect("two players");
        Ok(NodeReport {
            node,
            line: walk.words,
            kind: nd.kind,
            street: nd.street,
            board: self.board_on(&walk.path),
            pot: spot.pot() + nd.spent[0] + nd.spent[1],
            spent: nd.spent,
            player: actor,
            actions: self.action_info(node, walk.street_in),
            cards: if nd.kind == NodeKind::Chance {
                tree.children(node)
                    .iter()
                    .filter_map(|&c| match tree.nodes()[c as usize].action {
                        Action::Deal(card) => Some(card),
                        _ => None,
                    })
                    .collect()
            } else {
                Vec::new()
            },
            players: [p0, p1],
        })
    }

    /// The subtree below the node of `line` (and `cards`, as for
    /// [`SpotSolver::node_report`]) as JSON, down to `depth` levels below it (`None`: all):
    /// each node's `action` (its word in a line), `kind` (`decision`, `chance`, `fold`,
    /// `showdown`), `pot`, `board`; a decision node's `player`, `actions` (as
    /// [`ActionInfo`]) and `strategy[action][hand]` (the average strategy; hands in
    /// [`super::Spot::hands`] order of that player, listed once at the top as `hands`);
    /// `children` (omitted at the depth limit, with `truncated: true`).
    pub fn subtree_json(
        &self,
        line: &str,
        cards: &[Card],
        depth: Option<usize>,
    ) -> Result<serde_json::Value> {
        let walk = self.walk_line(line, cards)?;
        let node = *walk.path.last().expect("the root is on the path");
        // The chips at the start of the node's street: from the last deal on the path.
        let start = walk
            .path
            .iter()
            .rev()
            .find(|&&n| matches!(self.tree().nodes()[n].action, Action::Deal(_)))
            .map_or([0, 0], |&n| self.tree().nodes()[n].spent);
        let hands: Vec<Vec<String>> = (0..2)
            .map(|p| self.spot().hands(p).iter().map(|h| h.to_string()).collect())
            .collect();
        let board = self.board_on(&walk.path);
        Ok(serde_json::json!({
            "line": walk.words.join(","),
            "hands": hands,
            "node": self.node_json(node, start, &board, depth),
        }))
    }

    fn node_json(
        &self,
        node: usize,
        start: [u32; 2],
        board: &[Card],
        depth: Option<usize>,
    ) -> serde_json::Value {
        let tree = self.tree();
        let nd = tree.nodes()[node];
        let street_in = [nd.spent[0] - start[0], nd.spent[1] - start[1]];
        let kind = match nd.kind {
            NodeKind::Decision(_) => "decision",
            NodeKind::Chance => "chance",
            NodeKind::Fold(_) => "fold",
            NodeKind::Showdown => "showdown",
        };
        let mut v = serde_json::json!({
            "action": nd.action.to_string(),
            "kind": kind,
            "pot": self.spot().pot() + nd.spent[0] + nd.spent[1],
            "board": board.iter().map(|c| c.to_string()).collect::<String>(),
        });
        if let NodeKind::Decision(q) = nd.kind {
            let h = self.spot().hands(q as usize).len();
            let s = self.average_strategy(node).unwrap_or_default();
            v["player"] = serde_json::json!(q);
            v["actions"] = serde_json::json!(self.action_info(node, street_in));
            v["strategy"] = serde_json::json!(s.chunks(h.max(1)).collect::<Vec<_>>());
        }
        if let NodeKind::Fold(p) = nd.kind {
            v["folder"] = serde_json::json!(p);
        }
        let kids = tree.children(node);
        if !kids.is_empty() {
            if depth == Some(0) {
                v["truncated"] = serde_json::json!(true);
            } else {
                let next = depth.map(|d| d - 1);
                v["children"] = kids
                    .iter()
                    .map(|&c| {
                        let c = c as usize;
                        let cn = tree.nodes()[c];
                        match cn.action {
                            Action::Deal(card) => {
                                let mut b = board.to_vec();
                                b.push(card);
                                self.node_json(c, cn.spent, &b, next)
                            }
                            _ => self.node_json(c, start, board, next),
                        }
                    })
                    .collect();
            }
        }
        v
    }
}

impl PlayerReport {
    fn aggregate(&self, name: String, members: &[usize], actions: usize) -> Aggregate {
        let n = self.hands.len();
        let weight: f64 = members.iter().map(|&i| self.weight[i]).sum();
        let avg = |v: &dyn Fn(usize) -> f64| -> f64 {
            if weight > 0.0 {
                members
                    .iter()
                    .filter(|&&i| self.weight[i] > 0.0)
                    .map(|&i| self.weight[i] * v(i))
                    .sum::<f64>()
                    / weight
            } else {
                f64::NAN
            }
        };
        let strategy = match &self.strategy {
            Some(s) => (0..actions)
                .map(|a| avg(&|i| s[a * n + i] as f64))
                .collect(),
            None => Vec::new(),
        };
        Aggregate {
            name,
            hands: members.len(),
            combos: members.iter().map(|&i| self.reach[i] as f64).sum(),
            weight,
            ev: avg(&|i| self.ev[i]),
            equity: avg(&|i| self.equity[i]),
            strategy,
        }
    }

    fn actions(&self) -> usize {
        match &self.strategy {
            Some(s) if !self.hands.is_empty() => s.len() / self.hands.len(),
            _ => 0,
        }
    }

    /// The 13×13 hand classes (`AA`, `AKs`, `AKo`, ...) holding hands of the range, in
    /// [`HandClass`] index order (the chart's rows and columns), aggregated (see the module
    /// documentation).
    pub fn by_class(&self) -> Vec<(HandClass, Aggregate)> {
        let mut members: Vec<Vec<usize>> = vec![Vec::new(); 169];
        for (i, h) in self.hands.iter().enumerate() {
            let [a, b] = h.cards();
            members[HandClass::of_hole(a, b).index()].push(i);
        }
        let k = self.actions();
        HandClass::all()
            .zip(members)
            .filter(|(_, m)| !m.is_empty())
            .map(|(c, m)| (c, self.aggregate(c.name(), &m, k)))
            .collect()
    }

    /// The range split by shape (`pairs`, `suited`, `offsuit`, [`SHAPES`]) and by the made
    /// hand on `board` (the 5- to 7-card category of the hand with the board: `high card`,
    /// `one pair` .. `straight flush`, weakest first; a board pair counts, so on a paired
    /// board every hand is at least `one pair`), each group holding hands of the range,
    /// aggregated. Hands holding a board card are left out of the made-hand groups.
    pub fn by_category(&self, board: &[Card]) -> Vec<Aggregate> {
        let k = self.actions();
        let mut out = Vec::new();
        let mut shapes: [Vec<usize>; 3] = Default::default();
        for (i, h) in self.hands.iter().enumerate() {
            let [a, b] = h.cards();
            let s = match HandClass::of_hole(a, b).kind() {
                ClassKind::Pair => 0,
                ClassKind::Suited => 1,
                ClassKind::Offsuit => 2,
            };
            shapes[s].push(i);
        }
        for (name, m) in SHAPES.iter().zip(&shapes) {
            if !m.is_empty() {
                out.push(self.aggregate(name.to_string(), m, k));
            }
        }
        let mut set = CardSet64(0);
        for c in board {
            set |= c.bit();
        }
        let mut made: Vec<Vec<usize>> = vec![Vec::new(); crate::poker::Category::ALL.len()];
        for (i, h) in self.hands.iter().enumerate() {
            if (h.set() & set).0 != 0 {
                continue;
            }
            made[rank_of_set(h.set() | set).category() as usize].push(i);
        }
        for (c, m) in crate::poker::Category::ALL.iter().zip(&made) {
            if !m.is_empty() {
                out.push(self.aggregate(c.name().to_string(), m, k));
            }
        }
        out
    }
}
