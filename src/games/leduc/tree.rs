//! Leduc hold'em as a game tree for solvers ([`GameTree`]), in OpenSpiel's shape: a chance
//! node deals seat 0's private card, a second deals seat 1's (each uniform over the cards
//! left), the first betting round, then (unless someone folded) a chance node deals the
//! public card (uniform over the 4 cards left), the second round, the end.
//!
//! Tree states are [`LeducHoldemState`]s whose undealt cards hold [`NO_CARD`]: at the root
//! every card; in the first round the public card. The batch engine deals the public card
//! at the start and hides it until the second round; nothing a seat sees depends on it
//! before then, so a batch state and the tree state that differs from it only by the hidden
//! public card have the same information states. A first-round decision node of the tree
//! is not a batch state ([`crate::core::Game::check_state`] wants three dealt cards): deal
//! it a public card (any of the four left) to hold it in a lane.
//!
//! The fast engine's [`Game::step`] plays a tree state as it is: the first round's end
//! moves to the second round without reading the public card, which leaves the chance node
//! of the public card ([`GameTree::is_chance`]); the showdown, in the second round, reads it
//! after the chance node dealt it.
//!
//! The information state of a seat: the seat, its private card, the public card once shown,
//! the betting of both rounds. Its tensor is the observation (OpenSpiel's
//! `information_state_tensor`), its string OpenSpiel's `information_state_string`.

use super::fast::LeducHoldemState;
use super::*;
use crate::core::{Game, GameTree, InfoStates};

/// The slot of a card not dealt yet (tree states only).
pub const NO_CARD: u8 = DECK_SIZE as u8;

/// The byte between the two rounds' actions in an information-state key (not an action).
pub const ROUND_END: u8 = N_ACTIONS as u8;

/// Seat 0's result in chips at the end of the hand (`None` while it runs): the folding
/// seat loses what it put in; at the showdown the stronger hand wins the other's stake
/// (equal ranks split).
pub fn payoff(s: &LeducHoldemState) -> Option<i32> {
    if !s.is_over() {
        return None;
    }
    let last = s.round_history(s.round()).last().copied();
    if last == Some(FOLD as u8) {
        let folder = s.to_act as usize;
        let lost = s.contributed[folder] as i32;
        return Some(if folder == 0 { -lost } else { lost });
    }
    let (a, b) = (
        fast::strength(s.cards[0], s.public),
        fast::strength(s.cards[1], s.public),
    );
    let won = s.contributed[0] as i32;
    Some(match a.cmp(&b) {
        std::cmp::Ordering::Greater => won,
        std::cmp::Ordering::Less => -won,
        std::cmp::Ordering::Equal => 0,
    })
}

/// The public card if `player`'s view shows it: in the second round, once dealt.
#[inline]
fn shown_public(s: &LeducHoldemState) -> Option<u8> {
    (s.round == 1 && s.public < NO_CARD).then_some(s.public)
}

impl InfoStates for LeducHoldem {
    fn info_state_dim(&self) -> usize {
        OBS_DIM
    }

    /// The seat, its private card, the public card once shown (`NO_CARD` before), the
    /// first round's actions, `ROUND_END`, the second round's actions.
    fn info_state_key(&self, s: &LeducHoldemState, player: usize, key: &mut Vec<u8>) {
        key.push(player as u8);
        key.push(s.cards[player]);
        key.push(shown_public(s).unwrap_or(NO_CARD));
        key.extend_from_slice(s.round_history(0));
        key.push(ROUND_END);
        key.extend_from_slice(s.round_history(1));
    }

    fn info_state_tensor(&self, s: &LeducHoldemState, player: usize, out: &mut [f32]) {
        if s.round == 1 && s.public >= NO_CARD {
            // The chance node of the public card (which the batch engine never holds):
            // nothing of the second round is shown yet.
            let first = LeducHoldemState { round: 0, ..*s };
            self.observe(&first, player, out)
        } else {
            self.observe(s, player, out)
        }
    }

    /// OpenSpiel's `[Observer: 0][Private: 4][Round 1][Player: 0][Pot: 2][Money: 99 99]`
    /// `[Round1: ][Round2: ]`, with `[Public: c]` before the betting once it is shown. At
    /// the end the pot is 0 and the money holds each seat's result; `Player` is then the
    /// seat whose action ended the hand, as in OpenSpiel.
    fn info_state_string(&self, s: &LeducHoldemState, player: usize) -> String {
        let (pot, money) = match payoff(s) {
            Some(v) => (0, [STARTING_MONEY + v, STARTING_MONEY - v]),
            None => {
                let c = s.contributed.map(|c| c as i32);
                (c[0] + c[1], c.map(|c| STARTING_MONEY - c))
            }
        };
        let mut text = format!(
            "[Observer: {player}][Private: {}][Round {}][Player: {}][Pot: {pot}][Money: {} {}]",
            s.cards[player],
            s.round + 1,
            s.to_act,
            money[0],
            money[1]
        );
        if let Some(public) = shown_public(s) {
            text += &format!("[Public: {public}]");
        }
        for r in 0..N_ROUNDS {
            let actions: Vec<String> = s.round_history(r).iter().map(u8::to_string).collect();
            text += &format!("[Round{}: {}]", r + 1, actions.join(" "));
        }
        text
    }
}

impl GameTree for LeducHoldem {
    fn root(&self) -> LeducHoldemState {
        fast::deal([NO_CARD; 3])
    }

    fn is_chance(&self, s: &LeducHoldemState) -> bool {
        s.cards.contains(&NO_CARD) || (s.round == 1 && s.public == NO_CARD && !s.is_over())
    }

    fn chance_outcomes(&self, s: &LeducHoldemState, out: &mut Vec<(u32, f64)>) {
        if !self.is_chance(s) {
            return;
        }
        let dealt = [s.cards[0], s.cards[1], s.public];
        let n = DECK_SIZE - dealt.iter().filter(|&&c| c != NO_CARD).count();
        let left = (0..DECK_SIZE as u8).filter(|c| !dealt.contains(c));
        out.extend(left.map(|c| (c as u32, 1.0 / n as f64)));
    }

    fn apply_chance(&self, s: &mut LeducHoldemState, outcome: u32) -> bool {
        if !self.is_chance(s)
            || outcome >= DECK_SIZE as u32
            || [s.cards[0], s.cards[1], s.public].contains(&(outcome as u8))
        {
            return false;
        }
        match s.cards.iter().position(|&c| c == NO_CARD) {
            Some(seat) => s.cards[seat] = outcome as u8,
            None => s.public = outcome as u8,
        }
        true
    }

    fn returns(&self, s: &LeducHoldemState, out: &mut [f64]) {
        out[..NUM_PLAYERS].fill(0.0);
        if let Some(v) = payoff(s) {
            out[0] = v as f64;
            out[1] = -v as f64;
        }
    }

    /// A first-round node (or a hand folded in it) holds no public card yet: it gets the
    /// lowest card left, which nothing a seat sees in the first round depends on.
    fn batch_state(&self, s: &LeducHoldemState) -> LeducHoldemState {
        let mut t = *s;
        if t.public == NO_CARD && !t.cards.contains(&NO_CARD) {
            t.public = (0..DECK_SIZE as u8)
                .find(|c| !t.cards.contains(c))
                .unwrap_or(NO_CARD);
        }
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::LaneRng;
    use std::collections::{BTreeMap, BTreeSet};

    /// What a walk of the whole tree saw.
    #[derive(Default)]
    struct Walk {
        /// Each leaf's probability under uniform play and seat 0's return.
        leaves: Vec<(f64, f64)>,
        /// Each information state's key and the strings and tensors seen with it.
        infos: BTreeMap<Vec<u8>, BTreeSet<(String, Vec<u32>)>>,
    }

    fn walk(game: &LeducHoldem, s: LeducHoldemState, p: f64, seen: &mut Walk) {
        if game.is_chance(&s) {
            let mut outcomes = Vec::new();
            game.chance_outcomes(&s, &mut outcomes);
            let total: f64 = outcomes.iter().map(|o| o.1).sum();
            assert!((total - 1.0).abs() < 1e-12);
            assert!(outcomes.len() == 6 || outcomes.len() == 5 || outcomes.len() == 4);
            for (o, q) in outcomes {
                let mut t = s;
                assert!(game.apply_chance(&mut t, o));
                walk(game, t, p * q, seen);
            }
        } else if s.is_over() {
            let mut r = [0.0; 2];
            game.returns(&s, &mut r);
            assert_eq!(r[0] + r[1], 0.0);
            seen.leaves.push((p, r[0]));
        } else {
            if s.round == 1 {
                assert!(game.check_state(&s).is_ok(), "{s:?}");
            }
            let player = game.current_player(&s);
            let mut key = Vec::new();
            game.info_state_key(&s, player, &mut key);
            let mut tensor = vec![0f32; game.info_state_dim()];
            game.info_state_tensor(&s, player, &mut tensor);
            let bits = tensor.iter().map(|x| x.to_bits()).collect();
            let text = game.info_state_string(&s, player);
            seen.infos.entry(key).or_default().insert((text, bits));
            let mut mask = [0u8; N_ACTIONS];
            game.legal_mask(&s, &mut mask);
            let legal: Vec<u32> = (0..N_ACTIONS as u32)
                .filter(|&a| mask[a as usize] == 1)
                .collect();
            for &a in &legal {
                let mut t = s;
                let mut rewards = [0.0; 2];
                let outcome = game.step(&mut t, a, &mut LaneRng::from_seed(0), &mut rewards);
                assert!(outcome.applied);
                if outcome.terminated {
                    let mut r = [0.0; 2];
                    game.returns(&t, &mut r);
                    assert_eq!(r.map(|x| x as f32), rewards, "{t:?}");
                }
                walk(game, t, p / legal.len() as f64, seen);
            }
        }
    }

    #[test]
    fn the_tree_has_openspiels_5520_histories_and_936_information_states() {
        let game = LeducHoldem;
        let mut seen = Walk::default();
        walk(&game, game.root(), 1.0, &mut seen);
        // OpenSpiel's leduc_poker: 5520 terminal histories, 936 information states.
        assert_eq!(seen.leaves.len(), 5520);
        assert_eq!(seen.infos.len(), 936);
        // Each key has one string and one tensor, and different keys different strings
        // and tensors.
        assert!(seen.infos.values().all(|v| v.len() == 1));
        let strings: BTreeSet<_> = seen.infos.values().flatten().map(|v| &v.0).collect();
        let tensors: BTreeSet<_> = seen.infos.values().flatten().map(|v| &v.1).collect();
        assert_eq!((strings.len(), tensors.len()), (936, 936));
        let p: f64 = seen.leaves.iter().map(|l| l.0).sum();
        assert!((p - 1.0).abs() < 1e-12, "{p}");
        // Uniform random play (each legal action alike): seat 0's value, as OpenSpiel's
        // expected_returns with a uniform policy gives it.
        let value: f64 = seen.leaves.iter().map(|l| l.0 * l.1).sum();
        assert!((value - UNIFORM_VALUE).abs() < 1e-12, "{value}");
    }

    /// Seat 0's value under uniform random play (OpenSpiel:
    /// `expected_game_score.policy_value(state, [UniformRandomPolicy(game)] * 2)`).
    const UNIFORM_VALUE: f64 = -0.078125;

    #[test]
    fn chance_refuses_dealt_cards_and_decision_nodes() {
        let game = LeducHoldem;
        let mut s = game.root();
        assert!(game.is_chance(&s));
        assert!(!game.apply_chance(&mut s, 6));
        assert!(game.apply_chance(&mut s, 4));
        assert!(!game.apply_chance(&mut s, 4));
        let mut outcomes = Vec::new();
        game.chance_outcomes(&s, &mut outcomes);
        assert_eq!(outcomes.iter().map(|o| o.0).collect::<Vec<_>>(), [0, 1, 2, 3, 5]);
        assert!(game.apply_chance(&mut s, 2));
        assert!(!game.is_chance(&s));
        assert!(!game.apply_chance(&mut s, 0));
        outcomes.clear();
        game.chance_outcomes(&s, &mut outcomes);
        assert!(outcomes.is_empty());
        assert_eq!(
            game.info_state_string(&s, 0),
            "[Observer: 0][Private: 4][Round 1][Player: 0][Pot: 2][Money: 99 99][Round1: ][Round2: ]"
        );
        // Check, raise, call: the public card's chance node.
        let mut rewards = [0.0; 2];
        for a in [CALL, RAISE, CALL] {
            assert!(!game.is_chance(&s));
            assert!(game.step(&mut s, a, &mut LaneRng::from_seed(0), &mut rewards).applied);
        }
        assert!(game.is_chance(&s));
        assert_eq!(s.public_card(), None);
        outcomes.clear();
        game.chance_outcomes(&s, &mut outcomes);
        assert_eq!(outcomes, [(0, 0.25), (1, 0.25), (3, 0.25), (5, 0.25)]);
        assert!(!game.apply_chance(&mut s, 2));
        assert!(game.apply_chance(&mut s, 5));
        assert!(!game.is_chance(&s));
        assert!(!game.apply_chance(&mut s, 0));
        assert_eq!(s.public_card(), Some(5));
        let mut key = Vec::new();
        game.info_state_key(&s, 1, &mut key);
        assert_eq!(key, [1, 2, 5, 1, 2, 1, ROUND_END]);
        assert_eq!(
            game.info_state_string(&s, 1),
            "[Observer: 1][Private: 2][Round 2][Player: 0][Pot: 6][Money: 97 97][Public: 5]\
             [Round1: 1 2 1][Round2: ]"
        );
        // A fold in the first round ends the hand with the public card undealt.
        let mut s = game.root();
        for c in [0, 2] {
            assert!(game.apply_chance(&mut s, c));
        }
        for a in [RAISE, FOLD] {
            assert!(game.step(&mut s, a, &mut LaneRng::from_seed(0), &mut rewards).applied);
        }
        assert!(s.is_over() && !game.is_chance(&s));
        let mut r = [0.0; 2];
        game.returns(&s, &mut r);
        assert_eq!(r, [1.0, -1.0]);
        assert_eq!(
            game.info_state_string(&s, 0),
            "[Observer: 0][Private: 0][Round 1][Player: 1][Pot: 0][Money: 101 99][Round1: 2 0][Round2: ]"
        );
    }

    #[test]
    fn a_batch_state_and_its_tree_state_have_the_same_information_states() {
        let game = LeducHoldem;
        let mut rng = LaneRng::from_seed(9);
        for _ in 0..200 {
            let order = fast::deal_cards(&mut rng);
            let mut batch = fast::deal(order);
            let mut tree = game.root();
            assert!(game.apply_chance(&mut tree, order[0] as u32));
            assert!(game.apply_chance(&mut tree, order[1] as u32));
            let mut rewards = [0.0; 2];
            while !batch.is_over() {
                if game.is_chance(&tree) {
                    assert!(game.apply_chance(&mut tree, order[2] as u32));
                }
                assert_eq!(batch.round(), tree.round());
                for seat in 0..2 {
                    let (mut a, mut b) = (Vec::new(), Vec::new());
                    game.info_state_key(&batch, seat, &mut a);
                    game.info_state_key(&tree, seat, &mut b);
                    assert_eq!(a, b);
                    assert_eq!(
                        game.info_state_string(&batch, seat),
                        game.info_state_string(&tree, seat)
                    );
                    let (mut x, mut y) = ([0f32; OBS_DIM], [0f32; OBS_DIM]);
                    game.info_state_tensor(&batch, seat, &mut x);
                    game.info_state_tensor(&tree, seat, &mut y);
                    assert_eq!(x, y);
                }
                let mut mask = [0u8; N_ACTIONS];
                game.legal_mask(&batch, &mut mask);
                let legal: Vec<u32> = (0..3).filter(|&a| mask[a as usize] == 1).collect();
                let a = legal[rng.below(legal.len() as u32) as usize];
                let mut tree_rewards = [0.0; 2];
                assert!(game.step(&mut batch, a, &mut rng.clone(), &mut rewards).applied);
                assert!(game.step(&mut tree, a, &mut rng.clone(), &mut tree_rewards).applied);
                assert_eq!(rewards, tree_rewards);
            }
            assert!(tree.is_over());
            let mut r = [0.0; 2];
            game.returns(&tree, &mut r);
            assert_eq!(r.map(|x| x as f32), rewards);
        }
    }
}
