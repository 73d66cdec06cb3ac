//! Flip 7 rules, one behaviour per test: game-room 0.1.0's own scenario tests
//! (`tests/test_flip7.py` in the seed) replayed on the fast engine with the same controlled
//! positions, plus the batch-only behaviours (illegal actions are no-ops). The scenarios
//! that write a position into the state (a seat's status, a hand, the piles) are unit tests
//! in `src/games/flip7/rules_tests.rs`.

use cardvec::core::{Game, LaneRng};
use cardvec::games::flip7::*;

const SC: u8 = SECOND_CHANCE;
const FT: u8 = FLIP_THREE;
const PLUS_4: u8 = PLUS_2 + 1;

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

fn mask(g: &Flip7, s: &Flip7State) -> Vec<u8> {
    let mut m = vec![0; g.num_actions()];
    g.legal_mask(s, &mut m);
    m
}

fn hand(cards: &[u8]) -> [u8; CARD_IDS] {
    let mut h = [0; CARD_IDS];
    for &c in cards {
        h[c as usize] += 1;
    }
    h
}

fn top(s: &Flip7State) -> u8 {
    s.draw_pile()[s.draw_pile().len() - 1]
}

#[test]
fn duplicate_busts_and_the_cards_stay() {
    let g = game();
    let mut s = position(&g, &[&[12], &[], &[]], &[12]);
    step(&g, &mut s, HIT);
    assert_eq!(s.status(0), BUSTED);
    assert_eq!(*s.hand(0), hand(&[12, 12]));
    assert_eq!(g.round_score(&s, 0), 0);
    assert_eq!(g.current_player(&s), 1);
}

#[test]
fn second_chance_is_consumed_with_the_duplicate() {
    let g = game();
    let mut s = position(&g, &[&[12, SC], &[], &[]], &[12]);
    step(&g, &mut s, HIT);
    assert_eq!(s.status(0), ACTIVE);
    assert_eq!(*s.hand(0), hand(&[12]));
    assert_eq!(*s.discard(), hand(&[12, SC]));
}

#[test]
fn second_second_chance_is_gifted_to_an_eligible_player_only() {
    let g = game();
    let mut s = position(&g, &[&[SC], &[SC], &[]], &[SC]);
    step(&g, &mut s, HIT);
    assert_eq!(mask(&g, &s), [0, 0, 0, 0, 1]);
    step(&g, &mut s, 4);
    assert_eq!(s.hand(2)[SC as usize], 1);
    assert_eq!(g.current_player(&s), 1);
}

#[test]
fn stay_requires_a_card_and_an_illegal_action_changes_nothing() {
    let g = game();
    let s = position(&g, &[&[], &[], &[]], &[]);
    assert_eq!(mask(&g, &s), [1, 0, 0, 0, 0]);
    for action in [STAY, 2, 4, 5, 99, u32::MAX] {
        let mut t = s;
        let mut rewards = vec![0.0; 3];
        let out = g.step(&mut t, action, &mut LaneRng::from_seed(0), &mut rewards);
        assert!(!out.applied);
        assert_eq!(t, s);
    }
    let s = position(&g, &[&[PLUS_2], &[], &[]], &[]);
    assert_eq!(mask(&g, &s)[STAY as usize], 1);
}

#[test]
fn freeze_banks_the_target_and_turns_resume() {
    let g = game();
    let mut s = position(&g, &[&[10], &[11], &[]], &[FREEZE]);
    step(&g, &mut s, HIT);
    step(&g, &mut s, 3);
    assert_eq!(s.status(1), FROZEN);
    assert_eq!(g.round_score(&s, 1), 11);
    assert_eq!(g.current_player(&s), 2);
}

#[test]
fn freeze_drawn_in_flip_three_waits_for_the_three_draws() {
    let g = game();
    let mut s = position(&g, &[&[1], &[], &[]], &[FT, FREEZE, 2, 3]);
    step(&g, &mut s, HIT);
    step(&g, &mut s, 2);
    assert_eq!(s.pending_card(), Some(FREEZE));
    assert_eq!(*s.hand(0), hand(&[1, FT, 2, 3]));
    step(&g, &mut s, 2);
    assert_eq!(s.status(0), FROZEN);
    assert_eq!(g.round_score(&s, 0), 6);
    assert_eq!(g.current_player(&s), 1);
}

#[test]
fn bust_in_flip_three_cancels_deferred_actions_and_remaining_draws() {
    let g = game();
    let mut s = position(&g, &[&[12], &[], &[]], &[FT, FREEZE, 12, 5]);
    step(&g, &mut s, HIT);
    step(&g, &mut s, 2);
    assert_eq!(s.status(0), BUSTED);
    assert_eq!(s.pending_card(), None);
    assert_eq!(s.hand(0)[FREEZE as usize], 1);
    assert_eq!(top(&s), 5);
}

#[test]
fn second_chance_works_during_flip_three() {
    let g = game();
    let mut s = position(&g, &[&[12], &[], &[]], &[FT, SC, 12, 2]);
    step(&g, &mut s, HIT);
    step(&g, &mut s, 2);
    assert_eq!(s.status(0), ACTIVE);
    assert_eq!(*s.hand(0), hand(&[12, FT, 2]));
}

#[test]
fn chained_flip_three_resolves_after_the_three_draws() {
    let g = game();
    let mut s = position(&g, &[&[0], &[], &[]], &[FT, FT, 1, 2, 3, 4, 5]);
    step(&g, &mut s, HIT);
    step(&g, &mut s, 2);
    assert_eq!(*s.hand(0), hand(&[0, FT, 1, 2]));
    assert_eq!(s.pending_card(), Some(FT));
    step(&g, &mut s, 3);
    assert_eq!(*s.hand(1), hand(&[FT, 3, 4, 5]));
    assert_eq!(g.current_player(&s), 1);
}

#[test]
fn flip7_ends_the_round_and_its_bonus_is_not_doubled() {
    let g = Flip7::new(3, 1, None).unwrap();
    let mut s = position(
        &g,
        &[&[0, 1, 2, 3, 4, 5, TIMES_2, PLUS_10], &[12], &[11]],
        &[6],
    );
    let rewards = step(&g, &mut s, HIT);
    assert_eq!(s.scores()[..3], [67, 12, 11]);
    assert_eq!(rewards, [67.0, 12.0, 11.0]);
    assert_eq!(g.finished(&s), (true, false));
    assert_eq!(g.winners(&s), [0]);
    assert_eq!(mask(&g, &s), [0; 5]);
}

#[test]
fn flip7_interrupts_forced_draws() {
    let g = Flip7::new(3, 1, None).unwrap();
    let mut s = position(&g, &[&[0, 1, 2, 3, 4, 5], &[], &[]], &[FT, 6, 7, 8]);
    step(&g, &mut s, HIT);
    step(&g, &mut s, 2);
    assert_eq!(s.scores()[0], 36);
    assert_eq!(top(&s), 7);
}

#[test]
fn modifiers_score_without_numbers() {
    let g = game();
    let s = position(&g, &[&[PLUS_10, TIMES_2], &[], &[]], &[]);
    assert_eq!(g.round_score(&s, 0), 10);
}

#[test]
fn next_round_keeps_the_deck_and_rotates_the_dealer() {
    let g = game();
    let mut s = position(&g, &[&[1], &[2], &[3]], &[4, 5, 6]);
    let before = s.draw_pile().len();
    for _ in 0..3 {
        step(&g, &mut s, STAY);
    }
    assert_eq!(s.round(), 2);
    assert_eq!(s.dealer(), 1);
    assert_eq!(g.current_player(&s), 2);
    assert_eq!(
        [*s.hand(0), *s.hand(1), *s.hand(2)],
        [hand(&[5]), hand(&[6]), hand(&[4])]
    );
    assert_eq!(s.draw_pile().len(), before - 3);
    assert_eq!(*s.discard(), hand(&[1, 2, 3]));
}

#[test]
fn second_chance_gift_resumes_the_remaining_forced_draws() {
    let g = game();
    let mut s = position(&g, &[&[12, SC], &[], &[]], &[FT, SC, 12, 3]);
    step(&g, &mut s, HIT);
    step(&g, &mut s, 2);
    assert_eq!(s.pending_card(), Some(SC));
    step(&g, &mut s, 3);
    assert_eq!(s.hand(1)[SC as usize], 1);
    assert_eq!(*s.hand(0), hand(&[12, FT, 3]));
    assert_eq!(g.current_player(&s), 1);
}

#[test]
fn deferred_actions_keep_draw_order_after_self_freeze() {
    let g = game();
    let mut s = position(&g, &[&[1], &[], &[]], &[FT, FREEZE, FT, 2, 3, 4, 5]);
    step(&g, &mut s, HIT);
    step(&g, &mut s, 2);
    assert_eq!(s.pending_card(), Some(FREEZE));
    step(&g, &mut s, 2);
    assert_eq!(s.status(0), FROZEN);
    assert_eq!(g.current_player(&s), 0);
    assert_eq!(s.pending_card(), Some(FT));
    assert_eq!(mask(&g, &s), [0, 0, 0, 1, 1]);
    step(&g, &mut s, 3);
    assert_eq!(*s.hand(1), hand(&[FT, 3, 4, 5]));
}

#[test]
fn opening_deal_pauses_for_action_cards() {
    let g = game();
    let mut rest: Vec<u8> = make_deck().to_vec();
    for c in [7, 6, 5, FREEZE] {
        let i = rest.iter().position(|&x| x == c).unwrap();
        rest.remove(i);
    }
    rest.extend([7, 6, 5, FREEZE]);
    let mut s = g.reset_from_order(&rest).unwrap();
    assert_eq!(g.current_player(&s), 1);
    assert_eq!(s.pending_card(), Some(FREEZE));
    step(&g, &mut s, 4);
    assert_eq!(*s.hand(0), hand(&[5]));
    assert_eq!(*s.hand(1), hand(&[]));
    assert_eq!(*s.hand(2), hand(&[FREEZE]));
    assert_eq!(g.current_player(&s), 1);
    assert_eq!(mask(&g, &s)[STAY as usize], 0);
}

#[test]
fn round_limit_truncates() {
    let g = Flip7::new(3, 200, Some(1)).unwrap();
    let mut s = position(&g, &[&[1], &[2], &[3]], &[]);
    for _ in 0..3 {
        step(&g, &mut s, STAY);
    }
    assert_eq!(g.finished(&s), (false, true));
    assert_eq!(s.scores()[..3], [1, 2, 3]);
    assert!(g.winners(&s).is_empty());
}

#[test]
fn observation_layout_follows_flip7_v0() {
    let g = Flip7::new(4, 150, Some(7)).unwrap();
    let mut s = position(&g, &[&[3, PLUS_4], &[], &[9], &[]], &[FT, FREEZE, 2, 3]);
    step(&g, &mut s, HIT);
    let mut obs = vec![-1.0; g.obs_dim()];
    g.observe(&s, 2, &mut obs);
    assert_eq!(obs.len(), 419 + 24 * 4);
    assert_eq!(
        obs[..10],
        [
            2.0,
            0.0,
            0.0,
            1.0,
            s.draw_pile().len() as f32,
            150.0,
            7.0,
            1.0,
            FT as f32,
            0.0
        ]
    );
    let row0 = &obs[10..34];
    assert_eq!(row0[..2], [0.0, 0.0]);
    assert_eq!(row0[2 + 3], 1.0);
    assert_eq!(row0[2 + PLUS_4 as usize], 1.0);
    // Give the Flip Three to seat 1: three forced draws (one deferred Freeze), then its end.
    step(&g, &mut s, 3);
    g.observe(&s, 0, &mut obs);
    let queue = 10 + 24 * 4 + 22;
    assert_eq!(obs[7..9], [1.0, FREEZE as f32]);
    assert_eq!(obs[queue..queue + 3], [TASK_TURN as f32, 1.0, 0.0]);
    assert!(obs[queue + 3..queue + 384].iter().all(|&v| v == 0.0));
}
