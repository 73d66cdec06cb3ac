//! A game tree flattened into arrays: one walk of any [`GameTree`] from its root, after
//! which the exact solvers (CFR, CFR+, best response) never touch the game again.
//!
//! Nodes are stored breadth first, so the children of a node are consecutive and come after
//! it: a pass in increasing index order visits every parent before its children (reach
//! probabilities), a pass in decreasing order every child before its parent (values).
//! Every decision node points at its information set; an information set is one
//! `(player, info_state_key)` with its legal actions, the same at each of its nodes.

use std::collections::{HashMap, VecDeque};

use crate::core::{Error, GameTree, LaneRng, Result};

/// The kind of a node: who acts, or none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// Chance acts: each child has a probability ([`FlatTree::chance_prob`]).
    Chance,
    /// A player acts at an information set ([`FlatTree::infoset`]).
    Decision,
    /// The game is over: the returns are [`FlatTree::returns`].
    Terminal,
}

/// One information set: whose it is, its key and name, and its legal actions.
#[derive(Clone, Debug, PartialEq)]
pub struct InfoSet {
    /// The seat to act.
    pub player: usize,
    /// The game's [`crate::core::InfoStates::info_state_key`] of the seat.
    pub key: Vec<u8>,
    /// The game's [`crate::core::InfoStates::info_state_string`] (OpenSpiel's
    /// `information_state_string` for games ported from it).
    pub string: String,
    /// The legal actions, ascending; a decision node's children follow this order.
    pub actions: Vec<u32>,
    /// Where this set's per-action values start in arrays of [`FlatTree::num_slots`]
    /// values (one slot per legal action of every set, sets in index order).
    pub offset: usize,
}

/// The default largest tree [`FlatTree::build`] accepts, in nodes.
pub const DEFAULT_MAX_NODES: usize = 10_000_000;

/// A game tree as flat arrays (see the module documentation).
#[derive(Clone, Debug)]
pub struct FlatTree {
    num_players: usize,
    num_actions: usize,
    kind: Vec<NodeKind>,
    /// The acting player of a decision node (0 elsewhere).
    player: Vec<u32>,
    first_child: Vec<u32>,
    num_children: Vec<u32>,
    /// Per node: the chance probability of the edge into it (1 at the root and below
    /// decision nodes).
    chance_prob: Vec<f64>,
    /// Per node: the action or chance outcome of the edge into it (0 at the root).
    edge: Vec<u32>,
    /// Per decision node its information set (`u32::MAX` elsewhere).
    infoset: Vec<u32>,
    /// Per terminal node its first return in `returns` (`u32::MAX` elsewhere).
    terminal: Vec<u32>,
    returns: Vec<f64>,
    infosets: Vec<InfoSet>,
    by_key: HashMap<(u32, Vec<u8>), u32>,
    num_slots: usize,
    /// The decision nodes of each information set: set `s`'s at
    /// `set_nodes[set_start[s]..set_start[s + 1]]`.
    set_start: Vec<u32>,
    set_nodes: Vec<u32>,
}

impl FlatTree {
    /// Walks `game` from its root and flattens it; a tree of more than `max_nodes` nodes
    /// is refused (an error, before the memory is taken), as is a game whose information
    /// sets are inconsistent (different legal actions at two nodes of one set) or whose
    /// chance or legal moves fail.
    pub fn build<G: GameTree>(game: &G, max_nodes: usize) -> Result<FlatTree> {
        let players = game.num_players();
        let num_actions = game.num_actions();
        let mut tree = FlatTree {
            num_players: players,
            num_actions,
            kind: Vec::new(),
            player: Vec::new(),
            first_child: Vec::new(),
            num_children: Vec::new(),
            chance_prob: Vec::new(),
            edge: Vec::new(),
            infoset: Vec::new(),
            terminal: Vec::new(),
            returns: Vec::new(),
            infosets: Vec::new(),
            by_key: HashMap::new(),
            num_slots: 0,
            set_start: Vec::new(),
            set_nodes: Vec::new(),
        };
        let too_big = || Error::Invalid {
            what: "game tree",
            reason: format!(
                "more than {max_nodes} nodes: too large to enumerate (use a sampling solver, \
                 es-mccfr or os-mccfr, or a larger node limit)"
            ),
        };
        // The states of the nodes not expanded yet (node `next` first): a node's state is
        // dropped once its children are made.
        let mut states: VecDeque<G::State> = VecDeque::from([game.root()]);
        tree.push_node(0, 1.0);
        let mut rng = LaneRng::from_seed(0);
        let mut outcomes = Vec::new();
        let mut mask = vec![0u8; num_actions];
        let mut rewards = vec![0f32; players];
        let mut ret = vec![0f64; players];
        let mut key = Vec::new();
        // Breadth first: node `i` is expanded when the queue reaches it, its children
        // appended at the end.
        let mut next = 0usize;
        while let Some(state) = states.pop_front() {
            let first = tree.kind.len();
            tree.first_child[next] = first as u32;
            if game.is_chance(&state) {
                tree.kind[next] = NodeKind::Chance;
                outcomes.clear();
                game.chance_outcomes(&state, &mut outcomes);
                if outcomes.is_empty() {
                    return Err(bad("a chance node has no outcome"));
                }
                for &(o, p) in &outcomes {
                    let mut child = state;
                    if !game.apply_chance(&mut child, o) {
                        return Err(bad(format!("chance outcome {o} was refused")));
                    }
                    if tree.kind.len() >= max_nodes {
                        return Err(too_big());
                    }
                    states.push_back(child);
                    tree.push_node(o, p);
                }
                tree.num_children[next] = outcomes.len() as u32;
            } else {
                let (terminated, truncated) = game.finished(&state);
                if terminated || truncated {
                    tree.kind[next] = NodeKind::Terminal;
                    game.returns(&state, &mut ret);
                    tree.terminal[next] = tree.returns.len() as u32;
                    tree.returns.extend_from_slice(&ret);
                    next += 1;
                    continue;
                }
                tree.kind[next] = NodeKind::Decision;
                let p = game.current_player(&state);
                tree.player[next] = p as u32;
                mask.fill(0);
                game.legal_mask(&state, &mut mask);
                key.clear();
                game.info_state_key(&state, p, &mut key);
                let set = match tree.by_key.get(&(p as u32, key.clone())) {
                    Some(&set) => {
                        let actions = &tree.infosets[set as usize].actions;
                        let same = actions.len() == mask.iter().filter(|&&m| m != 0).count()
                            && actions.iter().all(|&a| mask[a as usize] != 0);
                        if !same {
                            return Err(bad(format!(
                                "information state {:?} of player {p} has different legal \
                                 actions at two of its nodes",
                                tree.infosets[set as usize].string
                            )));
                        }
                        set
                    }
                    None => {
                        let actions: Vec<u32> = (0..num_actions as u32)
                            .filter(|&a| mask[a as usize] != 0)
                            .collect();
                        if actions.is_empty() {
                            return Err(bad("a decision node has no legal action"));
                        }
                        let set = tree.infosets.len() as u32;
                        tree.infosets.push(InfoSet {
                            player: p,
                            key: key.clone(),
                            string: game.info_state_string(&state, p),
                            offset: tree.num_slots,
                            actions,
                        });
                        tree.num_slots += tree.infosets[set as usize].actions.len();
                        tree.by_key.insert((p as u32, key.clone()), set);
                        set
                    }
                };
                tree.infoset[next] = set;
                let n = tree.infosets[set as usize].actions.len();
                for i in 0..n {
                    let a = tree.infosets[set as usize].actions[i];
                    let mut child = state;
                    rewards.fill(0.0);
                    if !game.step(&mut child, a, &mut rng, &mut rewards).applied {
                        return Err(bad(format!("legal action {a} was refused")));
                    }
                    if tree.kind.len() >= max_nodes {
                        return Err(too_big());
                    }
                    states.push_back(child);
                    tree.push_node(a, 1.0);
                }
                tree.num_children[next] = n as u32;
            }
            debug_assert_eq!(tree.first_child[next] as usize, first);
            next += 1;
        }
        tree.index_set_nodes();
        Ok(tree)
    }

    fn index_set_nodes(&mut self) {
        let mut count = vec![0u32; self.infosets.len() + 1];
        for &s in &self.infoset {
            if s != u32::MAX {
                count[s as usize + 1] += 1;
            }
        }
        for i in 1..count.len() {
            count[i] += count[i - 1];
        }
        self.set_start = count.clone();
        self.set_nodes = vec![0; *count.last().unwrap_or(&0) as usize];
        for (n, &s) in self.infoset.iter().enumerate() {
            if s != u32::MAX {
                self.set_nodes[count[s as usize] as usize] = n as u32;
                count[s as usize] += 1;
            }
        }
    }

    fn push_node(&mut self, edge: u32, chance_prob: f64) {
        self.kind.push(NodeKind::Terminal);
        self.player.push(0);
        self.first_child.push(0);
        self.num_children.push(0);
        self.chance_prob.push(chance_prob);
        self.edge.push(edge);
        self.infoset.push(u32::MAX);
        self.terminal.push(u32::MAX);
    }

    /// Number of seats.
    pub fn num_players(&self) -> usize {
        self.num_players
    }
    /// The game's action-space size.
    pub fn num_actions(&self) -> usize {
        self.num_actions
    }
    /// Number of nodes (node 0 is the root).
    pub fn num_nodes(&self) -> usize {
        self.kind.len()
    }
    /// Number of terminal nodes.
    pub fn num_terminals(&self) -> usize {
        self.returns.len() / self.num_players.max(1)
    }
    /// The kind of node `n`.
    pub fn kind(&self, n: usize) -> NodeKind {
        self.kind[n]
    }
    /// The player acting at decision node `n`.
    pub fn player(&self, n: usize) -> usize {
        self.player[n] as usize
    }
    /// The children of node `n`: a range of node indices (empty at a terminal).
    pub fn children(&self, n: usize) -> std::ops::Range<usize> {
        let f = self.first_child[n] as usize;
        f..f + self.num_children[n] as usize
    }
    /// The probability of chance's edge into node `n` (1 below a decision node).
    pub fn chance_prob(&self, n: usize) -> f64 {
        self.chance_prob[n]
    }
    /// The action or chance outcome of the edge into node `n`.
    pub fn edge(&self, n: usize) -> u32 {
        self.edge[n]
    }
    /// The information set of decision node `n`.
    pub fn infoset(&self, n: usize) -> usize {
        self.infoset[n] as usize
    }
    /// Each seat's return at terminal node `n`.
    pub fn returns(&self, n: usize) -> &[f64] {
        let r = self.terminal[n] as usize;
        &self.returns[r..r + self.num_players]
    }
    /// The decision nodes of information set `set`, ascending.
    pub fn infoset_nodes(&self, set: usize) -> &[u32] {
        &self.set_nodes[self.set_start[set] as usize..self.set_start[set + 1] as usize]
    }
    /// Every information set, in index order.
    pub fn infosets(&self) -> &[InfoSet] {
        &self.infosets
    }
    /// The information set of `player` with key `key`, if the tree has it.
    pub fn find_infoset(&self, player: usize, key: &[u8]) -> Option<usize> {
        self.by_key
            .get(&(player as u32, key.to_vec()))
            .map(|&s| s as usize)
    }
    /// The total number of legal actions over all information sets: the length of a
    /// [`crate::solve::policy::Policy`]'s table.
    pub fn num_slots(&self) -> usize {
        self.num_slots
    }
}

fn bad(reason: impl Into<String>) -> Error {
    Error::Invalid {
        what: "game tree",
        reason: reason.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::kuhn::KuhnPoker;

    #[test]
    fn kuhn_flattens_to_openspiel_sizes() {
        let tree = FlatTree::build(&KuhnPoker, 1000).unwrap();
        // The root, 3 first cards, then 6 deals × 9 betting nodes (4 decision, 5 terminal).
        assert_eq!(tree.num_nodes(), 1 + 3 + 6 * 9);
        assert_eq!(tree.num_terminals(), 30);
        assert_eq!(tree.infosets().len(), 12);
        assert_eq!(tree.num_slots(), 24);
        assert_eq!(tree.kind(0), NodeKind::Chance);
        for n in 0..tree.num_nodes() {
            for c in tree.children(n) {
                assert!(c > n);
            }
        }
    }

    /// A one-card game that misreports its information states: chance deals card 0 or 1,
    /// player 0 may stop (action 0) or, holding card 1, also go on (action 1); the key is
    /// the card unless `blind` (then both deals share one key), the string always "?".
    #[derive(Clone)]
    struct Liar {
        blind: bool,
    }

    impl crate::core::Game for Liar {
        /// `[card + 1 (0: not dealt), done]`.
        type State = [u8; 2];
        fn num_players(&self) -> usize {
            1
        }
        fn num_actions(&self) -> usize {
            2
        }
        fn obs_dim(&self) -> usize {
            0
        }
        fn reset(&self, _: &mut LaneRng) -> [u8; 2] {
            [1, 0]
        }
        fn reset_from_order(&self, _: &[u8]) -> Result<[u8; 2]> {
            Ok([1, 0])
        }
        fn current_player(&self, _: &[u8; 2]) -> usize {
            0
        }
        fn finished(&self, s: &[u8; 2]) -> (bool, bool) {
            (s[1] == 1, false)
        }
        fn check_state(&self, _: &[u8; 2]) -> std::result::Result<(), String> {
            Ok(())
        }
        fn legal_mask(&self, s: &[u8; 2], mask: &mut [u8]) {
            mask[0] = 1;
            mask[1] = (s[0] == 2) as u8;
        }
        fn step(
            &self,
            s: &mut [u8; 2],
            _: u32,
            _: &mut LaneRng,
            _: &mut [f32],
        ) -> crate::core::LaneOutcome {
            s[1] = 1;
            crate::core::LaneOutcome {
                applied: true,
                terminated: true,
                truncated: false,
            }
        }
        fn observe(&self, _: &[u8; 2], _: usize, _: &mut [f32]) {}
    }

    impl crate::core::InfoStates for Liar {
        fn info_state_dim(&self) -> usize {
            0
        }
        fn info_state_key(&self, s: &[u8; 2], _: usize, key: &mut Vec<u8>) {
            key.push(if self.blind { 0 } else { s[0] });
        }
        fn info_state_tensor(&self, _: &[u8; 2], _: usize, _: &mut [f32]) {}
        fn info_state_string(&self, _: &[u8; 2], _: usize) -> String {
            "?".into()
        }
    }

    impl GameTree for Liar {
        fn root(&self) -> [u8; 2] {
            [0, 0]
        }
        fn is_chance(&self, s: &[u8; 2]) -> bool {
            s[0] == 0
        }
        fn chance_outcomes(&self, _: &[u8; 2], out: &mut Vec<(u32, f64)>) {
            out.extend([(0, 0.5), (1, 0.5)]);
        }
        fn apply_chance(&self, s: &mut [u8; 2], o: u32) -> bool {
            s[0] = o as u8 + 1;
            true
        }
        fn returns(&self, _: &[u8; 2], out: &mut [f64]) {
            out[0] = 0.0;
        }
    }

    #[test]
    fn inconsistent_information_states_are_refused() {
        let err = FlatTree::build(&Liar { blind: true }, 100)
            .unwrap_err()
            .to_string();
        assert!(err.contains("different legal actions"), "{err}");
        // Consistent keys flatten, but the strings cannot key a policy.
        let tree = FlatTree::build(&Liar { blind: false }, 100).unwrap();
        assert_eq!(tree.infosets().len(), 2);
        let err = crate::solve::policy::Policy::uniform(&tree)
            .to_table(&tree)
            .unwrap_err()
            .to_string();
        assert!(err.contains("share the string \"?\""), "{err}");
    }

    #[test]
    fn a_tree_above_the_limit_is_refused() {
        let err = FlatTree::build(&KuhnPoker, 20).unwrap_err().to_string();
        assert!(err.contains("more than 20 nodes"), "{err}");
    }
}
