//! Kuhn poker as a game tree for solvers ([`GameTree`]), in OpenSpiel's shape: a chance
//! node deals seat 0's card, a second deals seat 1's (each uniform over the cards left),
//! then the betting. The information state of a seat is its card and the betting so far;
//! the tensor is the observation (OpenSpiel's `information_state_tensor`), the string
//! OpenSpiel's `information_state_string` (`"0pb"`: the card id, then `p`/`b` per action).

use super::*;
use crate::core::{Game, GameTree, InfoStates};

/// The card slot of a seat not dealt yet (tree states only).
pub const NO_CARD: u8 = DECK_SIZE as u8;

impl InfoStates for KuhnPoker {
    fn info_state_dim(&self) -> usize {
        OBS_DIM
    }

    /// The seat, its card, then the actions so far.
    fn info_state_key(&self, s: &KuhnPokerState, player: usize, key: &mut Vec<u8>) {
        key.push(player as u8);
        key.push(s.cards[player]);
        key.extend_from_slice(s.history());
    }

    fn info_state_tensor(&self, s: &KuhnPokerState, player: usize, out: &mut [f32]) {
        self.observe(s, player, out)
    }

    fn info_state_string(&self, s: &KuhnPokerState, player: usize) -> String {
        let mut text = s.cards[player].to_string();
        text.extend(s.history().iter().map(|&a| action_letter(a)));
        text
    }
}

impl GameTree for KuhnPoker {
    fn root(&self) -> KuhnPokerState {
        fast::deal([NO_CARD; NUM_PLAYERS])
    }

    fn is_chance(&self, s: &KuhnPokerState) -> bool {
        s.cards.contains(&NO_CARD)
    }

    fn chance_outcomes(&self, s: &KuhnPokerState, out: &mut Vec<(u32, f64)>) {
        if !self.is_chance(s) {
            return;
        }
        let left = (0..DECK_SIZE as u8).filter(|c| !s.cards.contains(c));
        let n = DECK_SIZE - s.cards.iter().filter(|&&c| c != NO_CARD).count();
        out.extend(left.map(|c| (c as u32, 1.0 / n as f64)));
    }

    fn apply_chance(&self, s: &mut KuhnPokerState, outcome: u32) -> bool {
        let Some(seat) = s.cards.iter().position(|&c| c == NO_CARD) else {
            return false;
        };
        if outcome >= DECK_SIZE as u32 || s.cards.contains(&(outcome as u8)) {
            return false;
        }
        s.cards[seat] = outcome as u8;
        true
    }

    fn returns(&self, s: &KuhnPokerState, out: &mut [f64]) {
        out[..NUM_PLAYERS].fill(0.0);
        if s.is_over() {
            if let Some(v) = fast::payoff(s.cards, s.history()) {
                out[0] = v as f64;
                out[1] = -v as f64;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::LaneRng;

    /// Walks the whole tree: every leaf's probability and return.
    fn walk(game: &KuhnPoker, s: KuhnPokerState, p: f64, leaves: &mut Vec<(f64, f64)>) {
        if game.is_chance(&s) {
            let mut outcomes = Vec::new();
            game.chance_outcomes(&s, &mut outcomes);
            let total: f64 = outcomes.iter().map(|o| o.1).sum();
            assert!((total - 1.0).abs() < 1e-12);
            for (o, q) in outcomes {
                let mut t = s;
                assert!(game.apply_chance(&mut t, o));
                walk(game, t, p * q, leaves);
            }
        } else if s.is_over() {
            let mut r = [0.0; 2];
            game.returns(&s, &mut r);
            assert_eq!(r[0] + r[1], 0.0);
            leaves.push((p, r[0]));
        } else {
            assert!(game.check_state(&s).is_ok(), "{s:?}");
            for a in [PASS, BET] {
                let mut t = s;
                let mut rewards = [0.0; 2];
                assert!(game.step(&mut t, a, &mut LaneRng::from_seed(0), &mut rewards).applied);
                walk(game, t, p * 0.5, leaves);
            }
        }
    }

    #[test]
    fn the_tree_has_six_deals_of_five_histories_and_uniform_play_is_worth_an_eighth() {
        let game = KuhnPoker;
        let mut leaves = Vec::new();
        walk(&game, game.root(), 1.0, &mut leaves);
        assert_eq!(leaves.len(), 30);
        let p: f64 = leaves.iter().map(|l| l.0).sum();
        assert!((p - 1.0).abs() < 1e-12);
        // Uniform random play: seat 0 wins 1/8 of a chip on average (OpenSpiel agrees).
        let value: f64 = leaves.iter().map(|l| l.0 * l.1).sum();
        assert!((value - 0.125).abs() < 1e-12, "{value}");
    }

    #[test]
    fn chance_refuses_dealt_cards_and_decision_nodes() {
        let game = KuhnPoker;
        let mut s = game.root();
        assert!(game.apply_chance(&mut s, 2));
        assert!(!game.apply_chance(&mut s, 2));
        assert!(!game.apply_chance(&mut s, 3));
        assert!(game.apply_chance(&mut s, 0));
        assert!(!game.is_chance(&s));
        assert!(!game.apply_chance(&mut s, 1));
        assert_eq!(game.info_state_string(&s, 0), "2");
        let mut key = Vec::new();
        game.info_state_key(&s, 1, &mut key);
        assert_eq!(key, [1, 0]);
    }
}
