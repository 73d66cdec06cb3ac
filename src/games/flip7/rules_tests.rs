//! Flip 7 rules that need a position no deal reaches directly (a seat's status, a hand, the
//! piles written into the state): game-room's scenario tests of that kind, as unit tests
//! because the state's fields are private to the crate. The other scenario tests read the
//! state through its accessors in `tests/flip7_rules.rs`.

use super::*;
use crate::core::{Game, LaneRng};

const SC: u8 = SECOND_CHANCE;

fn game() -> Flip7 {
    Flip7::with_players(3).unwrap()
}

fn position(g: &Flip7, hands: &[&[u8]], draws: &[u8]) -> Flip7State {
    g.position(hands, draws).unwrap()
}

fn step(g: &Flip7, s: &mut Flip7State, action: u32) -> Vec<f32> {
    let mut rewards = vec![0.0; g.num_players()];
    let out = g.step(s, action, &mut LaneRng::from_seed(0), &mut rewards);
    assert!(out.applied, "action {action} was rejected");
    rewards
}

fn hand(cards: &[u8]) -> [u8; CARD_IDS] {
    let mut h = [0; CARD_IDS];
    for &c in cards {
        h[c as usize] += 1;
    }
    h
}

#[test]
fn second_chance_is_discarded_without_recipient() {
    let g = game();
    let mut s = position(&g, &[&[SC], &[], &[]], &[SC]);
    s.set_seat_status(1, STAYED);
    s.set_seat_status(2, STAYED);
    step(&g, &mut s, HIT);
    assert_eq!(s.discard, hand(&[SC]));
}

#[test]
fn winner_only_at_round_end_and_tied_leaders_share() {
    let g = Flip7::new(3, 12, None).unwrap();
    let mut s = position(&g, &[&[12], &[12], &[]], &[]);
    step(&g, &mut s, STAY);
    assert!(!s.is_over());
    step(&g, &mut s, STAY);
    s.hands[2] = hand(&[TIMES_2]);
    s.held[2] = 1;
    step(&g, &mut s, STAY);
    assert_eq!(g.winners(&s), [0, 1]);
}

#[test]
fn reshuffle_takes_only_the_discards() {
    let g = game();
    let mut s = position(&g, &[&[12], &[], &[]], &[]);
    s.deck_len = 0;
    s.discard = hand(&[3]);
    s.discard_len = 1;
    step(&g, &mut s, HIT);
    assert_eq!(s.hands[0], hand(&[12, 3]));
    assert_eq!(s.discard, [0; CARD_IDS]);
    assert_eq!(s.last_shuffle(), [3]);
}

#[test]
fn exhausted_deck_banks_the_round() {
    let g = Flip7::new(3, 200, Some(1)).unwrap();
    let mut s = position(&g, &[&[1], &[2], &[3]], &[]);
    s.deck_len = 0;
    step(&g, &mut s, HIT);
    assert_eq!(s.scores[..3], [1, 2, 3]);
    assert_eq!(g.finished(&s), (false, true));
}
