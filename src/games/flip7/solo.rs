//! Flip 7 alone, solved: the single-player round as an exact dynamic program over the
//! composition of the draw pile, for two objectives, most expected points per round and
//! fewest expected rounds to a target score (see `docs/flip7.md`, "Flip 7 alone").
//!
//! A solo round (one seat) is a stopping problem: the only choice is Hit or Stay (an action
//! card's recipient is always oneself: Freeze banks the hand, Flip Three forces three draws,
//! a second Second Chance has no eligible recipient and is discarded). [`RoundGraph`] holds
//! every position of a round reachable from a starting draw pile, each node keyed by
//! everything that decides the future: the draw pile's composition (counts per card id),
//! the cards in front of the player, the scheduled forced draws / end of a Flip Three /
//! deferred action cards (in the engine's order), so the values it computes are exact (up to
//! `f64` rounding) for the engine's rules, action cards and modifiers included. The model
//! mirrors [`super::fast`]'s scheduler: a duplicate number busts unless a Second Chance is
//! held (then both are discarded); Freeze and Flip Three drawn during a Flip Three wait until
//! its three draws end and are canceled by a bust; seven distinct numbers end the round with
//! the 15-point bonus; an empty draw pile is refilled from the discard pile (in a solo game
//! every card not on the table), and if that is empty too the round is banked.
//!
//! Objectives:
//! - [`RoundGraph::solve_points`]: the policy that maximizes the expected round points.
//! - [`RoundGraph::rounds_to_target`]: the policy that minimizes the expected number of rounds for the
//!   banked total to reach a target when **every round is dealt from a fresh, full 94-card
//!   deck** (the per-score values `V(s)` solved exactly by Dinkelbach's iteration, as a bust
//!   leaves the score unchanged). The engine carries the draw pile over between rounds; with
//!   a carried-over pile, the state of a game would include the whole pile, which no table
//!   holds, so the fresh-deck game is the one this objective solves.
//!
//! **Scope.** The solver is checked exactly against a naive enumeration on tiny decks
//! (tests below, with reshuffles, Flip Three chains, deferred cards, Second Chance and
//! Freeze). The full 94-card graph ([`RoundGraph::fresh`]) is too large for this
//! representation (a hash of the whole pile per node: one build took about 19 minutes, a
//! later one failed to grow its memo table at 7.5 GB); the full deck is solved by
//! [`super::solo_table::FreshSolver`] over compact states, which the tests there compare
//! with this graph on small decks.
//! Positions that can recur (a Second Chance given back by a reshuffle of a small deck) make
//! the graph cyclic; [`RoundGraph::with_deck`] refuses them.

use std::collections::HashMap;

use super::*;

/// The largest round total (see `super::bots::MAX_ROUND_TOTAL`); utilities are indexed
/// by round points `0..=MAX_POINTS`.
pub const MAX_POINTS: usize = 171;

/// A scheduled step of the round before the player's next turn (the engine's task queue
/// between the current moment and the next `turn` event).
pub(super) const T_DRAW: u8 = 1;
pub(super) const T_END_THREE: u8 = 2;
pub(super) const T_RESOLVE_FREEZE: u8 = 3;
pub(super) const T_RESOLVE_THREE: u8 = 4;

/// Most scheduled steps at once: three forced draws and the end of the current Flip Three,
/// plus resolves of action cards deferred by earlier Flip Threes (at most 3 Flip Three and 3
/// Freeze cards in the deck).
const QUEUE_CAP: usize = 12;

/// A solo round's position between events: the model the graph is built from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Pos {
    /// The draw pile, counts per card id.
    pub(super) pile: [u8; CARD_IDS],
    /// The cards in front of the player (resolved action cards stay there until the round
    /// ends, as in the engine).
    pub(super) table: [u8; CARD_IDS],
    /// Scheduled steps, front first.
    pub(super) queue: [u8; QUEUE_CAP],
    pub(super) qlen: u8,
    /// Action cards drawn during the current Flip Three, in draw order.
    pub(super) deferred: [u8; OBS_DEFERRED_SLOTS],
    pub(super) dlen: u8,
}

/// A child of a node: a node index, or a terminal outcome (the round's points) with
/// [`TERMINAL`] set.
type Child = u32;
/// The bit that marks a [`Child`] as a terminal outcome (its low bits are the points).
const TERMINAL: u32 = 1 << 31;

/// A node of the round graph.
#[derive(Clone, Copy, Debug)]
struct Node {
    /// For a decision: the points of staying, or `u8::MAX` when Stay is illegal (no card in
    /// front); for a chance node: `CHANCE`.
    stay: u8,
    /// Number of outcomes (chance node) or 1 (decision: the hit child at `first`).
    len: u8,
    /// Sum of the outcome weights (chance node).
    total: u8,
    /// First edge in [`RoundGraph::edges`].
    first: u32,
}

const CHANCE: u8 = u8::MAX - 1;
const NO_STAY: u8 = u8::MAX;

/// Every position of a solo round reachable from a starting draw pile, in an order where a
/// node's children come before it (see the module documentation).
#[derive(Clone, Debug)]
pub struct RoundGraph {
    nodes: Vec<Node>,
    /// Edges: `(child, weight)`; a decision's single edge is its hit child.
    edges: Vec<(Child, u8)>,
    /// The round's start: the opening deal (a chance node or, for an empty pile, terminal).
    root: Child,
    /// Decision nodes by packed position (what the bot looks up).
    decisions: KeyMap,
}

/// What identifies a decision (Hit or Stay) in a solo round: the draw pile and the cards in
/// front of the player (at a decision nothing is scheduled).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DecisionKey {
    /// The draw pile, counts per card id.
    pub pile: [u8; CARD_IDS],
    /// The cards in front of the player, counts per card id.
    pub table: [u8; CARD_IDS],
}

/// The points of a table that was not busted: numbers (doubled by x2), modifiers, and the
/// Flip 7 bonus for seven numbers.
pub(super) fn points(table: &[u8; CARD_IDS]) -> u32 {
    let mut numbers = 0u32;
    let mut count = 0u8;
    for (c, &k) in table[..=MAX_NUMBER as usize].iter().enumerate() {
        numbers += c as u32 * k as u32;
        count += k;
    }
    if table[TIMES_2 as usize] > 0 {
        numbers *= 2;
    }
    let plus: u32 = (PLUS_2..=PLUS_10)
        .map(|c| plus_value(c) * table[c as usize] as u32)
        .sum();
    numbers + plus + if count >= FLIP7_CARDS { FLIP7_BONUS } else { 0 }
}

pub(super) fn numbers_held(table: &[u8; CARD_IDS]) -> u8 {
    table[..=MAX_NUMBER as usize].iter().sum()
}

fn terminal(points: u32) -> Child {
    TERMINAL | points
}

/// A position packed into 127 bits (see [`pack`]), the memo's key.
type Key = u128;

/// A multiplicative hash of a packed key (the keys are dense bit fields; SipHash is far
/// slower here and resisting collisions chosen by an adversary is not needed).
#[derive(Clone, Copy, Default)]
pub(crate) struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ b as u64).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }
    fn write_u64(&mut self, k: u64) {
        self.write_u128(k as u128);
    }
    fn write_u128(&mut self, k: u128) {
        let x = (k as u64) ^ ((k >> 64) as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let x = (x ^ (x >> 32)).wrapping_mul(0xd6e8_feb8_6659_fd93);
        self.0 = x ^ (x >> 29);
    }
}

type KeyMap = HashMap<Key, u32, std::hash::BuildHasherDefault<KeyHasher>>;

/// Packs a position: the pile (4 bits per number id, 1 per modifier, 2 per action card), the
/// table (1 bit per number and modifier, 1 for a Second Chance, 2 for Flip Threes), the
/// queue (3 bits a step, 11 steps), the deferred cards (2 bits each) and a 2-bit `marker`
/// (0 decision, 1 forced draw, 2 hit or deal).
fn pack(p: &Pos, marker: u8) -> Key {
    let mut k: u128 = 0;
    let mut put = |v: u8, bits: u32| {
        debug_assert!((v as u32) < (1 << bits));
        k = k << bits | v as u128;
    };
    for c in 0..CARD_IDS {
        let bits = if c <= MAX_NUMBER as usize {
            4
        } else if c <= TIMES_2 as usize {
            1
        } else {
            2
        };
        put(p.pile[c], bits);
    }
    for c in 0..=TIMES_2 as usize {
        put(p.table[c], 1);
    }
    put(p.table[SECOND_CHANCE as usize], 1);
    put(p.table[FLIP_THREE as usize], 2);
    debug_assert_eq!(p.table[FREEZE as usize], 0);
    for i in 0..QUEUE_CAP - 1 {
        put(p.queue[i], 3);
    }
    for i in 0..OBS_DEFERRED_SLOTS {
        put(
            match p.deferred[i] {
                0 => 0,
                FREEZE => 1,
                _ => 2,
            },
            2,
        );
    }
    put(marker, 2);
    k
}

struct Builder {
    nodes: Vec<Node>,
    edges: Vec<(Child, u8)>,
    /// Chance nodes by packed position.
    memo: KeyMap,
    /// Decision nodes by packed position.
    decisions: KeyMap,
    /// The cards of the whole deck (a reshuffle takes every card not on the table).
    deck: [u8; CARD_IDS],
    /// Chance nodes being built (a position reached again from itself is a cycle).
    open: std::collections::HashSet<Key, std::hash::BuildHasherDefault<KeyHasher>>,
    /// Set when a cycle was found.
    cycle: bool,
}

impl Builder {
    /// Runs the scheduled steps that need no chance and no decision, then returns the node
    /// (or outcome) of the position.
    fn settle(&mut self, mut p: Pos) -> Child {
        loop {
            if numbers_held(&p.table) >= FLIP7_CARDS {
                return terminal(points(&p.table));
            }
            if p.qlen == 0 {
                return self.decision(p);
            }
            match p.queue[0] {
                T_DRAW => return self.chance(p, true),
                T_END_THREE => {
                    pop_front(&mut p);
                    let d = p.dlen as usize;
                    for i in (0..d).rev() {
                        let t = if p.deferred[i] == FREEZE {
                            T_RESOLVE_FREEZE
                        } else {
                            T_RESOLVE_THREE
                        };
                        push_front(&mut p, t);
                    }
                    p.dlen = 0;
                    p.deferred = [0; OBS_DEFERRED_SLOTS];
                }
                T_RESOLVE_FREEZE => {
                    // Frozen: the round ends, the hand banked.
                    p.table[FREEZE as usize] += 1;
                    return terminal(points(&p.table));
                }
                _ => {
                    pop_front(&mut p);
                    p.table[FLIP_THREE as usize] += 1;
                    start_three(&mut p);
                }
            }
        }
    }

    fn decision(&mut self, p: Pos) -> Child {
        let key = pack(&p, 0);
        if let Some(&c) = self.decisions.get(&key) {
            return c;
        }
        let hit = self.chance(p, false);
        let held: u8 = p.table.iter().sum();
        let stay = if held > 0 {
            points(&p.table) as u8
        } else {
            NO_STAY
        };
        let id = self.nodes.len() as u32;
        self.edges.push((hit, 1));
        self.nodes.push(Node {
            stay,
            len: 1,
            total: 1,
            first: self.edges.len() as u32 - 1,
        });
        self.decisions.insert(key, id);
        id
    }

    /// The next card drawn (a forced draw of a Flip Three when `forced`, whose task is at
    /// the queue's front; else a hit or the opening deal).
    fn chance(&mut self, mut p: Pos, forced: bool) -> Child {
        if forced {
            pop_front(&mut p);
        }
        if p.pile.iter().all(|&k| k == 0) {
            // The discard pile (every card not on the table nor waiting) becomes the pile.
            for c in 0..CARD_IDS {
                p.pile[c] = self.deck[c] - p.table[c];
            }
            for &c in &p.deferred[..p.dlen as usize] {
                p.pile[c as usize] -= 1;
            }
            for &t in &p.queue[..p.qlen as usize] {
                match t {
                    T_RESOLVE_FREEZE => p.pile[FREEZE as usize] -= 1,
                    T_RESOLVE_THREE => p.pile[FLIP_THREE as usize] -= 1,
                    _ => {}
                }
            }
            if p.pile.iter().all(|&k| k == 0) {
                // Both piles empty: the round is banked.
                return terminal(points(&p.table));
            }
        }
        // Memoized on the position before the draw (with the forced task popped, marked).
        let key = pack(&p, if forced { 1 } else { 2 });
        if let Some(&c) = self.memo.get(&key) {
            return c;
        }
        if !self.open.insert(key) {
            self.cycle = true;
            return terminal(0);
        }
        let mut outcomes = [(0u32, 0u8); CARD_IDS];
        let mut n = 0;
        let mut total = 0u8;
        for c in 0..CARD_IDS {
            let k = p.pile[c];
            if k == 0 {
                continue;
            }
            let mut q = p;
            q.pile[c] -= 1;
            let child = self.after_draw(q, c as u8, forced);
            outcomes[n] = (child, k);
            n += 1;
            total += k;
        }
        let id = self.nodes.len() as u32;
        let first = self.edges.len() as u32;
        self.edges.extend_from_slice(&outcomes[..n]);
        self.nodes.push(Node {
            stay: CHANCE,
            len: n as u8,
            total,
            first,
        });
        self.memo.insert(key, id);
        self.open.remove(&key);
        id
    }

    /// The position after `card` came off the pile (the engine's `draw`).
    fn after_draw(&mut self, mut p: Pos, card: u8, forced: bool) -> Child {
        let c = card as usize;
        if is_number(card) {
            if p.table[c] > 0 {
                if p.table[SECOND_CHANCE as usize] > 0 {
                    // Both discarded.
                    p.table[SECOND_CHANCE as usize] -= 1;
                } else {
                    return terminal(0);
                }
            } else {
                p.table[c] = 1;
            }
        } else if is_modifier(card) {
            p.table[c] += 1;
        } else if card == SECOND_CHANCE {
            if p.table[c] == 0 {
                p.table[c] = 1;
            }
            // Else: no other player may take it; discarded.
        } else if forced {
            p.deferred[p.dlen as usize] = card;
            p.dlen += 1;
        } else if card == FREEZE {
            // Given to oneself: frozen, the hand banked.
            p.table[c] += 1;
            return terminal(points(&p.table));
        } else {
            p.table[c] += 1;
            start_three(&mut p);
        }
        self.settle(p)
    }
}

pub(super) fn empty_table(pile: &[u8; CARD_IDS]) -> Pos {
    Pos {
        pile: *pile,
        table: [0; CARD_IDS],
        queue: [0; QUEUE_CAP],
        qlen: 0,
        deferred: [0; OBS_DEFERRED_SLOTS],
        dlen: 0,
    }
}

pub(super) fn pop_front(p: &mut Pos) {
    let n = p.qlen as usize;
    p.queue.copy_within(1..n, 0);
    p.queue[n - 1] = 0;
    p.qlen -= 1;
}

pub(super) fn push_front(p: &mut Pos, t: u8) {
    let n = p.qlen as usize;
    assert!(n + 1 < QUEUE_CAP, "solo round queue overflow");
    p.queue.copy_within(0..n, 1);
    p.queue[0] = t;
    p.qlen += 1;
}

/// A Flip Three given to oneself: three forced draws, then its end.
pub(super) fn start_three(p: &mut Pos) {
    push_front(p, T_END_THREE);
    for _ in 0..3 {
        push_front(p, T_DRAW);
    }
}

impl RoundGraph {
    /// The graph of a solo round dealt from a draw pile of `pile[c]` cards of each id, the
    /// table empty, in a game whose deck is the full 94 cards ([`CARD_COPIES`]; a reshuffle
    /// takes back every card not on the table). Errors if a count exceeds the deck's.
    pub fn new(pile: &[u8; CARD_IDS]) -> crate::core::Result<Self> {
        Self::with_deck(pile, &CARD_COPIES)
    }

    /// [`RoundGraph::new`] for a smaller deck `deck` (counts per card id, each at most the
    /// real deck's): the tests solve tiny decks exactly and compare with enumeration. Errors
    /// if the pile holds more of a card than `deck`, or `deck` more than the real deck.
    pub fn with_deck(pile: &[u8; CARD_IDS], deck: &[u8; CARD_IDS]) -> crate::core::Result<Self> {
        for c in 0..CARD_IDS {
            if pile[c] > deck[c] || deck[c] > CARD_COPIES[c] {
                return Err(crate::core::Error::Invalid {
                    what: "solo draw pile",
                    reason: format!(
                        "card {}: the pile has {}, the deck {} (at most {})",
                        card_name(c as u8),
                        pile[c],
                        deck[c],
                        CARD_COPIES[c]
                    ),
                });
            }
        }
        let mut b = Builder {
            nodes: Vec::new(),
            edges: Vec::new(),
            memo: KeyMap::default(),
            decisions: KeyMap::default(),
            deck: *deck,
            open: Default::default(),
            cycle: false,
        };
        let root = b.chance(empty_table(pile), false);
        if b.cycle {
            return Err(crate::core::Error::Invalid {
                what: "solo draw pile",
                reason: "a round from this pile can come back to a position it left (a \
                         Second Chance given back by a reshuffle of a small deck): the \
                         graph would have a cycle, which this solver does not handle"
                    .into(),
            });
        }
        drop(b.memo);
        Ok(RoundGraph {
            nodes: b.nodes,
            edges: b.edges,
            root,
            decisions: b.decisions,
        })
    }

    /// The graph of a round dealt from the full 94-card deck.
    pub fn fresh() -> Self {
        Self::new(&CARD_COPIES).expect("the full deck is a valid pile")
    }

    /// The decision node of a turn (nothing scheduled) with this draw pile and these cards
    /// in front of the player, if the graph holds it.
    pub fn decision(&self, key: &DecisionKey) -> Option<u32> {
        let mut p = empty_table(&key.pile);
        p.table = key.table;
        if p.table[FREEZE as usize] != 0
            || (0..CARD_IDS).any(|c| p.table[c] > CARD_COPIES[c] || p.pile[c] > CARD_COPIES[c])
            || p.table[..=TIMES_2 as usize].iter().any(|&k| k > 1)
            || p.table[SECOND_CHANCE as usize] > 1
        {
            return None;
        }
        self.decisions.get(&pack(&p, 0)).copied()
    }

    /// Number of nodes (decisions and chance nodes).
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the graph has no node (a round from an empty pile is banked at once).
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Number of decision nodes.
    pub fn decision_count(&self) -> usize {
        self.decisions.len()
    }

    /// Values of every node for terminal utilities `utility[points]` under the policy that
    /// maximizes them, written into `values` (one per node); also, when `zero` is given,
    /// the probability under that policy of ending the round with 0 points, per node. The
    /// utility of 0 points is `utility[0]` (a bust and a banked empty hand alike).
    fn sweep(&self, utility: &[f64], values: &mut Vec<f64>, mut zero: Option<&mut Vec<f64>>) {
        values.clear();
        values.resize(self.nodes.len(), 0.0);
        if let Some(z) = zero.as_deref_mut() {
            z.clear();
            z.resize(self.nodes.len(), 0.0);
        }
        let value_of = |values: &[f64], c: Child| -> f64 {
            if c & TERMINAL != 0 {
                utility[(c & !TERMINAL) as usize]
            } else {
                values[c as usize]
            }
        };
        let zero_of = |z: &[f64], c: Child| -> f64 {
            if c & TERMINAL != 0 {
                f64::from(u8::from(c & !TERMINAL == 0))
            } else {
                z[c as usize]
            }
        };
        for (i, node) in self.nodes.iter().enumerate() {
            let edges = &self.edges[node.first as usize..(node.first + node.len as u32) as usize];
            if node.stay == CHANCE {
                let mut v = 0.0;
                for &(c, k) in edges {
                    v += k as f64 * value_of(values, c);
                }
                values[i] = v / node.total as f64;
                if let Some(z) = zero.as_deref_mut() {
                    let mut p = 0.0;
                    for &(c, k) in edges {
                        p += k as f64 * zero_of(z, c);
                    }
                    z[i] = p / node.total as f64;
                }
            } else {
                let hit = value_of(values, edges[0].0);
                let stays = node.stay != NO_STAY && utility[node.stay as usize] >= hit;
                if stays {
                    values[i] = utility[node.stay as usize];
                } else {
                    values[i] = hit;
                }
                if let Some(z) = zero.as_deref_mut() {
                    z[i] = if stays {
                        f64::from(u8::from(node.stay == 0))
                    } else {
                        zero_of(z, edges[0].0)
                    };
                }
            }
        }
    }

    /// Value of the round's start for node values computed by a sweep.
    fn root_value(&self, utility: &[f64], values: &[f64]) -> f64 {
        if self.root & TERMINAL != 0 {
            utility[(self.root & !TERMINAL) as usize]
        } else {
            values[self.root as usize]
        }
    }

    /// The most expected points of a round (the optimal policy's), and per node values
    /// (to read the policy with [`RoundGraph::hits`]).
    pub fn solve_points(&self) -> (f64, Vec<f64>) {
        let utility: Vec<f64> = (0..=MAX_POINTS).map(|x| x as f64).collect();
        let mut values = Vec::new();
        self.sweep(&utility, &mut values, None);
        (self.root_value(&utility, &values), values)
    }

    /// The optimal expected utility of the round's start for terminal utilities
    /// `utility[points]` (`MAX_POINTS + 1` values).
    #[cfg(test)]
    pub(super) fn optimal_value(&self, utility: &[f64]) -> f64 {
        let mut values = Vec::new();
        self.sweep(utility, &mut values, None);
        self.root_value(utility, &values)
    }

    /// Whether the policy that maximizes `utility` hits at decision node `id` (from
    /// [`RoundGraph::decision`]), given the node values of that utility (for the points
    /// objective, the values [`RoundGraph::solve_points`] returns); ties stay. `None` if
    /// `id` is not a decision node, `utility` has fewer than `MAX_POINTS + 1` entries or
    /// `values` is not one per node.
    pub fn hits(&self, id: u32, utility: &[f64], values: &[f64]) -> Option<bool> {
        let node = *self.nodes.get(id as usize)?;
        if node.stay == CHANCE || utility.len() <= MAX_POINTS || values.len() != self.nodes.len()
        {
            return None;
        }
        if node.stay == NO_STAY {
            return Some(true);
        }
        let hit = self.edges[node.first as usize].0;
        let hit = if hit & TERMINAL != 0 {
            utility[(hit & !TERMINAL) as usize]
        } else {
            values[hit as usize]
        };
        Some(hit > utility[node.stay as usize])
    }

    /// Expected utility of the round's start when playing `hits(decision node) -> bool`
    /// (any fixed policy; a test compares policies with it).
    pub fn evaluate(&self, utility: &[f64], hits: impl Fn(u32) -> bool) -> f64 {
        let mut values = vec![0.0; self.nodes.len()];
        for (i, node) in self.nodes.iter().enumerate() {
            let edges = &self.edges[node.first as usize..(node.first + node.len as u32) as usize];
            let value_of = |values: &[f64], c: Child| {
                if c & TERMINAL != 0 {
                    utility[(c & !TERMINAL) as usize]
                } else {
                    values[c as usize]
                }
            };
            values[i] = if node.stay == CHANCE {
                edges
                    .iter()
                    .map(|&(c, k)| k as f64 * value_of(&values, c))
                    .sum::<f64>()
                    / node.total as f64
            } else if node.stay == NO_STAY || hits(i as u32) {
                value_of(&values, edges[0].0)
            } else {
                utility[node.stay as usize]
            };
        }
        self.root_value(utility, &values)
    }
}

impl RoundGraph {
    /// Fewest expected rounds to bank `target` points from each banked total `s` in
    /// `0..target` (`result[s]`), every round dealt from this graph's pile (for
    /// [`RoundGraph::fresh`], a fresh full deck each round), playing each round by the policy
    /// that is optimal for that banked total. A round that ends with 0 points (a bust, or a
    /// banked empty hand) leaves the total unchanged, so `V(s)` solves
    /// `V(s) = 1 + min_pi E[V(s + X)]` with `X` the round's points and `V(s) = 0` from
    /// `target` on; each `s` (from `target - 1` down) is solved by Dinkelbach's iteration:
    /// for the current guess `v`, the policy maximizing `-V(s + X)` (with `-v` for `X = 0`)
    /// is found by one sweep, and `v` becomes that policy's exact fixed point
    /// `(1 + E[V(s + X); X > 0]) / (1 - P(X = 0))`, until the policy stops changing `v`.
    /// Errors if `target` is 0 or above 10,000, or if no policy ever scores.
    pub fn rounds_to_target(&self, target: u32) -> crate::core::Result<Vec<f64>> {
        if !(1..=10_000).contains(&target) {
            return Err(crate::core::Error::Invalid {
                what: "solo target",
                reason: format!("the target must be in 1..=10000, got {target}"),
            });
        }
        let t = target as usize;
        let mut v = vec![0.0f64; t + MAX_POINTS + 1];
        let mut utility = vec![0.0f64; MAX_POINTS + 1];
        let mut values = Vec::new();
        let mut zero = Vec::new();
        for s in (0..t).rev() {
            let mut guess = v[s + 1] + 1.0;
            for _ in 0..200 {
                utility[0] = -guess;
                for x in 1..=MAX_POINTS {
                    utility[x] = -v[s + x];
                }
                self.sweep(&utility, &mut values, Some(&mut zero));
                let value = self.root_value(&utility, &values);
                let p0 = if self.root & TERMINAL != 0 {
                    f64::from(u8::from(self.root & !TERMINAL == 0))
                } else {
                    zero[self.root as usize]
                };
                if p0 >= 1.0 - 1e-15 {
                    return Err(crate::core::Error::Invalid {
                        what: "solo target",
                        reason: "no policy scores from this pile".into(),
                    });
                }
                // E[-V(s + X); X > 0] under the policy, then its fixed point.
                let rest = value - p0 * utility[0];
                let next = (1.0 - rest) / (1.0 - p0);
                let done = (next - guess).abs() <= 1e-12 * next.abs().max(1.0);
                guess = next;
                if done {
                    break;
                }
            }
            v[s] = guess;
        }
        v.truncate(t);
        Ok(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A naive expectimax written straight from the rules (no graph, no memo, the queue as a
    /// `Vec`): the value of drawing one card, forced or not, then playing on optimally.
    struct Brute<'a> {
        deck: [u8; CARD_IDS],
        utility: &'a [f64],
    }

    #[derive(Clone)]
    struct State {
        pile: [u8; CARD_IDS],
        table: [u8; CARD_IDS],
        queue: Vec<u8>,
        deferred: Vec<u8>,
    }

    impl Brute<'_> {
        fn end(&self, table: &[u8; CARD_IDS]) -> f64 {
            self.utility[points(table) as usize]
        }

        fn run(&self, mut s: State) -> f64 {
            loop {
                if numbers_held(&s.table) >= 7 {
                    return self.end(&s.table);
                }
                let Some(&t) = s.queue.first() else {
                    let hit = self.draw(s.clone(), false);
                    let held: u8 = s.table.iter().sum();
                    return if held > 0 { hit.max(self.end(&s.table)) } else { hit };
                };
                s.queue.remove(0);
                match t {
                    T_DRAW => return self.draw(s, true),
                    T_END_THREE => {
                        let d = std::mem::take(&mut s.deferred);
                        for (i, c) in d.into_iter().enumerate() {
                            s.queue.insert(i, if c == FREEZE { T_RESOLVE_FREEZE } else { T_RESOLVE_THREE });
                        }
                    }
                    T_RESOLVE_FREEZE => return self.end(&s.table),
                    _ => {
                        s.table[FLIP_THREE as usize] += 1;
                        for _ in 0..3 {
                            s.queue.insert(0, T_DRAW);
                        }
                        s.queue.insert(3, T_END_THREE);
                    }
                }
            }
        }

        fn draw(&self, mut s: State, forced: bool) -> f64 {
            if s.pile.iter().all(|&k| k == 0) {
                for c in 0..CARD_IDS {
                    s.pile[c] = self.deck[c] - s.table[c];
                }
                for &c in &s.deferred {
                    s.pile[c as usize] -= 1;
                }
                for &t in &s.queue {
                    if t == T_RESOLVE_FREEZE {
                        s.pile[FREEZE as usize] -= 1;
                    } else if t == T_RESOLVE_THREE {
                        s.pile[FLIP_THREE as usize] -= 1;
                    }
                }
                if s.pile.iter().all(|&k| k == 0) {
                    return self.end(&s.table);
                }
            }
            let total: u32 = s.pile.iter().map(|&k| k as u32).sum();
            let mut value = 0.0;
            for c in 0..CARD_IDS {
                if s.pile[c] == 0 {
                    continue;
                }
                let mut n = s.clone();
                n.pile[c] -= 1;
                let card = c as u8;
                let v = if is_number(card) && n.table[c] > 0 {
                    if n.table[SECOND_CHANCE as usize] > 0 {
                        n.table[SECOND_CHANCE as usize] = 0;
                        self.run(n)
                    } else {
                        self.utility[0]
                    }
                } else if is_number(card) || is_modifier(card) {
                    n.table[c] += 1;
                    self.run(n)
                } else if card == SECOND_CHANCE {
                    n.table[c] = 1;
                    self.run(n)
                } else if forced {
                    n.deferred.push(card);
                    self.run(n)
                } else if card == FREEZE {
                    self.end(&n.table)
                } else {
                    n.table[c] += 1;
                    let mut q = vec![T_DRAW, T_DRAW, T_DRAW, T_END_THREE];
                    q.extend(n.queue);
                    n.queue = q;
                    self.run(n)
                };
                value += s.pile[c] as f64 * v;
            }
            value / total as f64
        }
    }

    fn deck_of(cards: &[u8]) -> [u8; CARD_IDS] {
        let mut d = [0u8; CARD_IDS];
        for &c in cards {
            d[c as usize] += 1;
        }
        d
    }

    fn tiny_decks() -> Vec<[u8; CARD_IDS]> {
        vec![
            deck_of(&[1, 2, 2, 3, 3, 3]),
            deck_of(&[0, 2, 5, 5, PLUS_2 + 2, TIMES_2, FREEZE]),
            deck_of(&[3, 4, 4, 7, SECOND_CHANCE, SECOND_CHANCE, FLIP_THREE]),
            deck_of(&[1, 1 + 1, 2, 6, FLIP_THREE, FLIP_THREE, FREEZE, SECOND_CHANCE, PLUS_10]),
            deck_of(&[2, 2, 3, 3, 8, FLIP_THREE, SECOND_CHANCE, TIMES_2]),
        ]
    }

    #[test]
    fn dp_matches_brute_force_on_tiny_decks() {
        let linear: Vec<f64> = (0..=MAX_POINTS).map(|x| x as f64).collect();
        // A utility that is not linear (as -V(s + x) is not), with a bust worth something.
        let bent: Vec<f64> = (0..=MAX_POINTS)
            .map(|x| if x == 0 { -3.0 } else { (x as f64).sqrt() - (x % 3) as f64 })
            .collect();
        let (mut solved, mut cyclic) = (0, 0);
        for deck in tiny_decks() {
            // From the full tiny deck, and from a pile missing some cards (in the discard
            // pile, so that a reshuffle brings them back).
            let mut partial = deck;
            for c in (0..CARD_IDS).rev() {
                if partial[c] > 0 {
                    partial[c] -= 1;
                    break;
                }
            }
            for pile in [deck, partial] {
                let Ok(g) = RoundGraph::with_deck(&pile, &deck) else {
                    cyclic += 1;
                    continue;
                };
                solved += 1;
                for utility in [&linear, &bent] {
                    let mut values = Vec::new();
                    g.sweep(utility, &mut values, None);
                    let dp = g.root_value(utility, &values);
                    let brute = Brute { deck, utility }.draw(
                        State {
                            pile,
                            table: [0; CARD_IDS],
                            queue: Vec::new(),
                            deferred: Vec::new(),
                        },
                        false,
                    );
                    assert!((dp - brute).abs() < 1e-9, "{deck:?} {pile:?}: dp {dp} brute {brute}");
                }
            }
        }
        assert!(solved >= 6, "solved {solved}, cyclic {cyclic}");
    }

    #[test]
    fn the_optimum_beats_every_threshold_policy() {
        let linear: Vec<f64> = (0..=MAX_POINTS).map(|x| x as f64).collect();
        for deck in tiny_decks() {
            let Ok(g) = RoundGraph::with_deck(&deck, &deck) else {
                continue;
            };
            let mut values = Vec::new();
            g.sweep(&linear, &mut values, None);
            let best = g.root_value(&linear, &values);
            // The optimal policy, evaluated as a fixed policy, gives the same value.
            let replay = g.evaluate(&linear, |id| g.hits(id, &linear, &values).unwrap());
            assert!((best - replay).abs() < 1e-12);
            let mut beaten = 0;
            for k in 0..=40u8 {
                let v = g.evaluate(&linear, |id| g.nodes[id as usize].stay < k);
                assert!(v <= best + 1e-12, "threshold {k}: {v} > {best}");
                beaten += usize::from(v < best - 1e-9);
            }
            // Some threshold is strictly worse (the comparison can fail).
            assert!(beaten > 0);
        }
    }

    #[test]
    fn dinkelbach_matches_value_iteration() {
        for deck in tiny_decks() {
            let Ok(g) = RoundGraph::with_deck(&deck, &deck) else {
                continue;
            };
            let target = 25u32;
            let v = g.rounds_to_target(target).unwrap();
            // Plain value iteration of W(s) = -1 + max E[-V(s + X)], X = 0 keeping W(s).
            let t = target as usize;
            let mut w = vec![0.0f64; t + MAX_POINTS + 1];
            let mut utility = vec![0.0; MAX_POINTS + 1];
            let mut values = Vec::new();
            for s in (0..t).rev() {
                let mut guess = 0.0;
                for _ in 0..100_000 {
                    utility[0] = guess;
                    utility[1..].copy_from_slice(&w[s + 1..=s + MAX_POINTS]);
                    g.sweep(&utility, &mut values, None);
                    let next = -1.0 + g.root_value(&utility, &values);
                    let done = (next - guess).abs() < 1e-13;
                    guess = next;
                    if done {
                        break;
                    }
                }
                w[s] = guess;
            }
            for s in 0..t {
                assert!((v[s] + w[s]).abs() < 1e-8, "{deck:?} s={s}: {} vs {}", v[s], -w[s]);
            }
            // More to go from lower totals, at least one round from any.
            assert!(v.windows(2).all(|p| p[0] >= p[1] - 1e-12) && v[t - 1] >= 1.0);
        }
    }

    #[test]
    fn bad_piles_and_targets_are_errors() {
        let mut pile = CARD_COPIES;
        pile[5] += 1;
        assert!(RoundGraph::new(&pile).is_err());
        let deck = deck_of(&[1, 2]);
        assert!(RoundGraph::with_deck(&deck_of(&[1, 1]), &deck).is_err());
        let g = RoundGraph::with_deck(&deck, &deck).unwrap();
        assert!(g.rounds_to_target(0).is_err());
        assert!(g.rounds_to_target(10_001).is_err());
        // A pile of one zero never scores.
        let zero = deck_of(&[0]);
        let g = RoundGraph::with_deck(&zero, &zero).unwrap();
        assert!(g.rounds_to_target(5).is_err());
    }
}
