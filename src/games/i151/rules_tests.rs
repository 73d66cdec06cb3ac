//! 151 rules, one behaviour per test, played on the fast engine from positions written
//! into the state (hands, bank, played pile, scores): unit tests because the state's fields
//! are private to the crate. The reference engine is held to the same behaviour by `cardvec
//! diff 151` and the fuzz check; the deal, CPython's shuffle and bad input are checked in
//! `tests/i151_rules.rs`.

use super::fast::{FLAG_ACE_EFFECT, FLAG_CHOOSE_SUIT, STATUS_TERMINATED};
use super::*;
use crate::core::{Game, LaneRng};

fn id(code: &str) -> u8 {
    (0..32u8)
        .find(|&c| card_code(c) == code)
        .expect("a card code")
}

fn set(codes: &[&str]) -> u32 {
    codes.iter().fold(0, |s, c| s | 1 << id(c))
}

fn legal(game: &I151, s: &I151State) -> Vec<String> {
    let bits = game.legal_bits(s);
    (0..N_ACTIONS as u32)
        .filter(|&a| bits >> a & 1 != 0)
        .map(action_name)
        .collect()
}

fn step(game: &I151, s: &mut I151State, action: u32) -> Vec<f32> {
    let mut rewards = vec![0.0; game.num_players()];
    let out = game.step(s, action, &mut LaneRng::from_seed(0), &mut rewards);
    assert!(out.applied, "{} refused", action_name(action));
    rewards
}

/// A 2-player state with the given hands, seat 0 to act, the rest of the deck in the bank
/// in id order.
fn position(game: &I151, hands: &[&[&str]]) -> I151State {
    let mut s = game.reset_with_match_seed(0);
    s.hands = [0; 4];
    for (p, h) in hands.iter().enumerate() {
        s.hands[p] = set(h);
    }
    let held = s.hands.iter().fold(0, |a, h| a | h);
    let bank: Vec<u8> = (0..32u8).filter(|&c| held >> c & 1 == 0).collect();
    s.bank = [0; 32];
    s.bank[..bank.len()].copy_from_slice(&bank);
    s.bank_head = 0;
    s.bank_tail = bank.len() as u8;
    s.to_act = 0;
    s
}

/// Plays `card` from the bank onto the table as if it had been played.
fn put_on_table(s: &mut I151State, code: &str) {
    let c = id(code);
    let pos = s.bank().iter().position(|&x| x == c).expect("card in bank");
    let mut bank: Vec<u8> = s.bank().to_vec();
    bank.remove(pos);
    s.bank = [0; 32];
    s.bank[..bank.len()].copy_from_slice(&bank);
    s.bank_head = 0;
    s.bank_tail = bank.len() as u8;
    s.pile[s.pile_len as usize] = c;
    s.pile_len += 1;
    s.pile_set |= 1 << c;
    s.top = c;
}

#[test]
fn any_card_may_open_an_empty_table_and_drawing_is_not_offered() {
    let game = I151::new(2).unwrap();
    let s = position(&game, &[&["7S", "AH"], &["KD"]]);
    assert_eq!(legal(&game, &s), vec!["play 7S", "play AH"]);
}

#[test]
fn a_card_follows_by_suit_or_rank_and_a_draw_is_offered() {
    let game = I151::new(2).unwrap();
    let mut s = position(&game, &[&["7S", "9H", "KD", "8C"], &["KC"]]);
    put_on_table(&mut s, "9S");
    assert_eq!(
        legal(&game, &s),
        vec!["play 7S", "play 9H", "play 8C", "draw"]
    );
}

#[test]
fn eight_is_wild_then_a_suit_is_chosen_and_imposed() {
    let game = I151::new(2).unwrap();
    let mut s = position(&game, &[&["8C", "KH"], &["7D", "7H"]]);
    put_on_table(&mut s, "9S");
    step(&game, &mut s, id("8C") as u32);
    assert!(s.flags & FLAG_CHOOSE_SUIT != 0);
    assert_eq!(
        legal(&game, &s),
        vec!["choose S", "choose H", "choose D", "choose C"]
    );
    step(&game, &mut s, ACTION_CHOOSE_SUIT + 2);
    assert_eq!(s.to_act, 1);
    assert_eq!(legal(&game, &s), vec!["play 7D", "draw"]);
}

#[test]
fn only_an_ace_or_an_eight_may_follow_an_ace() {
    let game = I151::new(2).unwrap();
    let mut s = position(&game, &[&["AS", "KS"], &["AH", "8D", "KH", "QS"]]);
    step(&game, &mut s, id("AS") as u32);
    assert_eq!(legal(&game, &s), vec!["play AH", "play 8D", "draw"]);
}

#[test]
fn drawing_under_an_ace_takes_two_cards_and_ends_the_turn() {
    let game = I151::new(2).unwrap();
    let mut s = position(&game, &[&["AS", "KS"], &["KH"]]);
    step(&game, &mut s, id("AS") as u32);
    assert!(s.flags & FLAG_ACE_EFFECT != 0);
    let bank_before = s.bank_len();
    step(&game, &mut s, ACTION_DRAW);
    assert_eq!(s.hands[1].count_ones(), 3);
    assert_eq!(s.bank_len(), bank_before - 2);
    assert_eq!(s.to_act, 0);
    assert!(s.flags & FLAG_ACE_EFFECT == 0);
}

#[test]
fn an_ordinary_draw_keeps_the_turn_and_then_offers_pass() {
    let game = I151::new(2).unwrap();
    let mut s = position(&game, &[&["KS", "7H"], &["KH"]]);
    put_on_table(&mut s, "9D");
    let front = s.bank()[0];
    step(&game, &mut s, ACTION_DRAW);
    assert!(s.hands[0] >> front & 1 == 1, "draws the front of the bank");
    assert_eq!(s.to_act, 0);
    assert!(legal(&game, &s).contains(&"pass".to_string()));
    assert!(!legal(&game, &s).contains(&"draw".to_string()));
}

#[test]
fn same_rank_on_same_rank_chains_until_pass() {
    let game = I151::new(2).unwrap();
    let mut s = position(&game, &[&["9H", "9C", "KS"], &["KH"]]);
    put_on_table(&mut s, "9S");
    step(&game, &mut s, id("9H") as u32);
    assert_eq!(s.to_act, 0, "still chaining");
    assert_eq!(legal(&game, &s), vec!["play 9C", "pass"]);
    step(&game, &mut s, ACTION_PASS);
    assert_eq!(s.to_act, 1);
}

#[test]
fn queen_skips_the_next_player() {
    let game = I151::new(3).unwrap();
    let mut s = position(&game, &[&["QS", "KS"], &["KH"], &["KD"]]);
    step(&game, &mut s, id("QS") as u32);
    assert_eq!(s.to_act, 2);
}

#[test]
fn with_two_players_a_queen_lets_its_player_play_again() {
    let game = I151::new(2).unwrap();
    let mut s = position(&game, &[&["QS", "KS"], &["KH"]]);
    step(&game, &mut s, id("QS") as u32);
    assert_eq!(s.to_act, 0);
}

#[test]
fn with_two_players_a_hand_emptied_by_a_queen_draws_and_goes_on() {
    let game = I151::new(2).unwrap();
    let mut s = position(&game, &[&["QS"], &["KH"]]);
    step(&game, &mut s, id("QS") as u32);
    assert_eq!(s.hands[0].count_ones(), 1);
    assert_eq!(s.round_number, 1, "the round goes on");
    assert_eq!(s.to_act, 0);
    assert!(legal(&game, &s).contains(&"pass".to_string()));
}

#[test]
fn refill_appends_the_played_pile_unshuffled_and_empties_it() {
    let game = I151::new(2).unwrap();
    let mut s = position(&game, &[&["KS", "7H"], &["KH"]]);
    let bank: Vec<u8> = s.bank().to_vec();
    for &c in &bank {
        put_on_table(&mut s, &card_code(c));
    }
    assert_eq!(s.bank_len(), 0);
    step(&game, &mut s, ACTION_DRAW);
    assert_eq!(s.hands[0] >> bank[0] & 1, 1, "drew the oldest played card");
    assert_eq!(s.bank(), &bank[1..]);
    assert_eq!(s.played_pile(), &[] as &[u8]);
    assert_eq!(
        s.top_card(),
        Some(*bank.last().unwrap()),
        "the top card stays"
    );
}

#[test]
fn the_emptied_hand_wins_and_losers_score_their_hands() {
    let game = I151::new(2).unwrap();
    let mut s = position(&game, &[&["KS"], &["8H", "AD"]]);
    let rewards = step(&game, &mut s, id("KS") as u32);
    assert_eq!(s.scores[..2], [0, 43]);
    assert_eq!(rewards, vec![0.0, -43.0]);
    assert_eq!(s.round_number, 2);
    assert_eq!(s.dealer, 1);
    assert_eq!(s.to_act, 0, "the seat after the new dealer starts");
    assert_eq!(s.hands[0].count_ones(), 8, "round 2 is dealt");
}

#[test]
fn the_third_consecutive_win_takes_ten_points_off() {
    let game = I151::new(2).unwrap();
    let mut s = position(&game, &[&["KS"], &["7H"]]);
    s.last_winner = 0;
    s.consecutive[0] = 2;
    s.scores[0] = 30;
    let rewards = step(&game, &mut s, id("KS") as u32);
    assert_eq!(s.scores[0], 20);
    assert_eq!(s.consecutive[0], 0);
    assert_eq!(rewards[0], 10.0);
}

#[test]
fn reaching_151_excludes_and_the_last_seat_left_wins() {
    let game = I151::new(2).unwrap().with_reward(RewardMode::MatchOutcome);
    let mut s = position(&game, &[&["KS"], &["8H"]]);
    s.scores[1] = 120;
    let rewards = step(&game, &mut s, id("KS") as u32);
    assert_eq!(s.status, STATUS_TERMINATED);
    assert_eq!(s.winner, 0);
    assert_eq!(rewards, vec![1.0, -1.0]);
    assert_eq!(game.legal_bits(&s), 0);
}

#[test]
fn excluded_seats_are_dealt_nothing_and_skipped() {
    let game = I151::new(3).unwrap();
    let mut s = position(&game, &[&["KS"], &["8H", "8S", "8D", "8C"], &["7H"]]);
    s.scores[1] = 100;
    step(&game, &mut s, id("KS") as u32);
    assert!(s.is_excluded(1));
    assert_eq!(s.hands[1], 0);
    assert_eq!(
        s.dead.count_ones(),
        8,
        "the excluded seat's deal is dropped"
    );
    assert_eq!(s.dealer, 2, "the dealer moves past the excluded seat");
    assert_eq!(s.to_act, 0);
}
