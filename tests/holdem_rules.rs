//! No-limit hold'em rules, one edge case per test, each with a concrete hand played on the
//! reference engine (`NlHand`). The same rules are checked against pokerkit on 20,000 random
//! hands by `python/tests/test_holdem_pokerkit.py`.

use cardvec::games::holdem::{Action, ActionKind, NlHand, Pot, Street, TableConfig};
use cardvec::poker::{parse_cards, Card};

use Action::*;

/// A hand: blinds `sb/bb`, `ante`, `stacks`, `button`, hole cards of every seat in seat
/// order ("AsAd KcKd ...") and the five board cards.
fn deal(
    sb: u64,
    bb: u64,
    ante: u64,
    stacks: &[u64],
    button: usize,
    hole: &str,
    board: &str,
) -> NlHand {
    let cards = parse_cards(hole).unwrap();
    let hole: Vec<[Card; 2]> = cards.chunks(2).map(|c| [c[0], c[1]]).collect();
    let b = parse_cards(board).unwrap();
    NlHand::new(
        TableConfig::new(sb, bb, ante).unwrap(),
        stacks,
        button,
        &hole,
        [b[0], b[1], b[2], b[3], b[4]],
    )
    .unwrap()
}

/// Applies actions, checking each time that `seat` is the one to act.
fn play(hand: &mut NlHand, actions: &[(usize, Action)]) {
    for &(seat, action) in actions {
        assert_eq!(hand.to_act(), Some(seat), "before {action:?}");
        hand.apply(action)
            .unwrap_or_else(|e| panic!("seat {seat} {action:?}: {e}"));
    }
}

fn pot(amount: u64, eligible: &[usize]) -> Pot {
    Pot {
        amount,
        eligible: eligible.to_vec(),
    }
}

const BOARD: &str = "2c 7d 9h Js 3c";

#[test]
fn blinds_and_button_three_handed() {
    let hand = deal(1, 2, 0, &[100, 100, 100], 0, "AsAd KcKd QhQs", BOARD);
    // Small blind left of the button, big blind next; the button acts first (left of the BB).
    assert_eq!(hand.bets(), &[0, 1, 2]);
    assert_eq!(hand.stacks(), &[100, 99, 98]);
    let legal = hand.legal().unwrap();
    assert_eq!((legal.seat, legal.call_amount), (0, 2));
    assert_eq!((legal.min_raise_to, legal.max_raise_to), (4, 100));
    assert_eq!(hand.street(), Street::Preflop);
}

#[test]
fn heads_up_button_posts_small_blind_acts_first_preflop_and_last_after() {
    let mut hand = deal(1, 2, 0, &[100, 100], 1, "AsAd KcKd", BOARD);
    assert_eq!(hand.bets(), &[2, 1]); // seat 1 is the button and the small blind
    assert_eq!(hand.to_act(), Some(1));
    play(&mut hand, &[(1, Call), (0, Check)]);
    assert_eq!(hand.street(), Street::Flop);
    assert_eq!(hand.to_act(), Some(0)); // the big blind acts first after the flop
    play(&mut hand, &[(0, Check), (1, Check)]);
    assert_eq!(hand.street(), Street::Turn);
}

#[test]
fn antes_are_posted_by_every_seat_before_the_blinds() {
    let hand = deal(
        1,
        2,
        1,
        &[100, 100, 100, 100],
        3,
        "AsAd KcKd QhQs JhJd",
        BOARD,
    );
    assert_eq!(hand.committed(), &[1, 1, 1, 1]);
    assert_eq!(hand.bets(), &[1, 2, 0, 0]);
    assert_eq!(hand.stacks(), &[98, 97, 99, 99]);
    assert_eq!(hand.pot_total(), 7);
    assert_eq!(hand.to_act(), Some(2));
}

#[test]
fn all_in_on_the_ante_posts_no_blind_and_never_acts() {
    // Seat 1 (small blind) has exactly the ante; it is all-in before the blinds.
    let mut hand = deal(1, 2, 5, &[100, 5, 100], 0, "AsAd KcKd QhQs", BOARD);
    assert_eq!(hand.bets(), &[0, 0, 2]);
    assert!(hand.is_all_in(1));
    play(&mut hand, &[(0, Call), (2, Check)]);
    play(&mut hand, &[(2, Check), (0, Check)]); // flop: seat 1 is skipped
    play(&mut hand, &[(2, Check), (0, Check), (2, Check), (0, Check)]);
    assert!(hand.is_over());
    // The antes make a main pot all three can win; the blinds a side pot seat 1 cannot.
    assert_eq!(hand.final_pots(), &[pot(15, &[0, 1, 2]), pot(4, &[0, 2])]);
}

#[test]
fn big_blind_option_check_or_raise_after_limps() {
    let mut hand = deal(1, 2, 0, &[100, 100, 100], 0, "AsAd KcKd QhQs", BOARD);
    play(&mut hand, &[(0, Call), (1, Call)]);
    let legal = hand.legal().unwrap();
    assert_eq!(legal.seat, 2);
    assert!(legal.check && legal.raise && !legal.fold);
    assert_eq!(legal.kinds(), vec![ActionKind::Check, ActionKind::Raise]);
    assert_eq!(legal.min_raise_to, 4);
    play(&mut hand, &[(2, RaiseTo(6))]);
    assert_eq!(hand.to_act(), Some(0)); // the option raise reopens the betting
}

#[test]
fn fold_is_not_offered_when_a_check_is_free() {
    let mut hand = deal(1, 2, 0, &[100, 100], 0, "AsAd KcKd", BOARD);
    play(&mut hand, &[(0, Call)]);
    let legal = hand.legal().unwrap();
    assert!(!legal.fold && legal.check);
    assert!(hand.apply(Fold).is_err());
}

#[test]
fn min_raise_is_the_last_full_raise_increment() {
    let mut hand = deal(
        1,
        2,
        0,
        &[500, 500, 500, 500],
        3,
        "AsAd KcKd QhQs JhJd",
        BOARD,
    );
    play(&mut hand, &[(2, RaiseTo(10))]); // +8
    assert_eq!(hand.legal().unwrap().min_raise_to, 18);
    play(&mut hand, &[(3, RaiseTo(30))]); // +20
    assert_eq!(hand.legal().unwrap().min_raise_to, 50);
    assert!(hand.apply(RaiseTo(49)).is_err());
    play(&mut hand, &[(0, RaiseTo(50))]); // exactly +20
    assert_eq!(hand.legal().unwrap().min_raise_to, 70);
}

#[test]
fn minimum_bet_after_the_flop_is_the_big_blind() {
    let mut hand = deal(5, 10, 0, &[500, 500], 0, "AsAd KcKd", BOARD);
    play(&mut hand, &[(0, Call), (1, Check)]);
    let legal = hand.legal().unwrap();
    assert_eq!((legal.min_raise_to, legal.max_raise_to), (10, 490));
    play(&mut hand, &[(1, RaiseTo(15)), (0, RaiseTo(30))]); // a bet of 15, raise by 15
    assert_eq!(hand.legal().unwrap().min_raise_to, 45);
}

#[test]
fn short_all_in_does_not_reopen_betting_for_players_who_acted() {
    // Flop: seat 1 bets 100, seat 2 calls, seat 0 goes all-in for 150 (a raise of 50, less
    // than the full 100). Seats 1 and 2 may call or fold, not raise.
    let mut hand = deal(1, 2, 0, &[152, 1000, 1000], 0, "AsAd KcKd QhQs", BOARD);
    play(&mut hand, &[(0, Call), (1, Call), (2, Check)]);
    play(&mut hand, &[(1, RaiseTo(100)), (2, Call), (0, AllIn)]);
    assert_eq!(hand.bets(), &[150, 100, 100]);
    let legal = hand.legal().unwrap();
    assert_eq!(legal.seat, 1);
    assert!(!legal.raise && legal.fold);
    assert_eq!(legal.call_amount, 50);
    assert!(hand.apply(RaiseTo(250)).is_err());
    play(&mut hand, &[(1, Call)]);
    assert!(!hand.legal().unwrap().raise);
    play(&mut hand, &[(2, Call)]);
    assert_eq!(hand.street(), Street::Turn);
}

#[test]
fn short_all_in_leaves_betting_open_for_players_yet_to_act() {
    // Seat 3 bets 100 on the flop, seat 0 goes all-in for 150: seat 1 has not acted since the
    // bet and may raise, to at least 150 + 100.
    let mut hand = deal(
        1,
        2,
        0,
        &[152, 1000, 1000, 1000],
        3,
        "AsAd KcKd QhQs JhJd",
        BOARD,
    );
    play(&mut hand, &[(2, Call), (3, Call), (0, Call), (1, Check)]);
    play(
        &mut hand,
        &[(0, Check), (1, Check), (2, Check), (3, RaiseTo(100))],
    );
    play(&mut hand, &[(0, AllIn)]);
    let legal = hand.legal().unwrap();
    assert_eq!(legal.seat, 1);
    assert!(legal.raise);
    assert_eq!(legal.min_raise_to, 250);
}

#[test]
fn consecutive_short_all_ins_adding_up_to_a_full_raise_reopen_betting() {
    // Seat 1 bets 100; seat 2 all-in for 150 (+50), seat 3 all-in for 200 (+50): together a
    // full raise, so seat 1 may raise again.
    let mut hand = deal(
        1,
        2,
        0,
        &[1000, 1000, 152, 202],
        0,
        "AsAd KcKd QhQs JhJd",
        BOARD,
    );
    play(&mut hand, &[(3, Call), (0, Call), (1, Call), (2, Check)]);
    play(&mut hand, &[(1, RaiseTo(100)), (2, AllIn), (3, AllIn)]);
    assert_eq!(hand.bets(), &[0, 100, 150, 200]);
    let legal = hand.legal().unwrap();
    assert_eq!(legal.seat, 0);
    assert!(legal.raise);
    play(&mut hand, &[(0, Call)]);
    let legal = hand.legal().unwrap();
    assert_eq!(legal.seat, 1);
    assert!(legal.raise);
    assert_eq!(legal.min_raise_to, 300);
}

#[test]
fn no_raising_when_everyone_else_is_all_in() {
    let mut hand = deal(1, 2, 0, &[1000, 50], 0, "AsAd KcKd", BOARD);
    play(&mut hand, &[(0, RaiseTo(10)), (1, AllIn)]);
    let legal = hand.legal().unwrap();
    assert!(!legal.raise && legal.fold);
    assert_eq!(legal.call_amount, 40);
    play(&mut hand, &[(0, Call)]);
    assert!(hand.is_over());
    assert_eq!(hand.board().len(), 5);
}

#[test]
fn a_call_for_less_is_an_all_in_call() {
    let mut hand = deal(1, 2, 0, &[1000, 30], 0, "KcKd AsAd", BOARD);
    play(&mut hand, &[(0, RaiseTo(100))]);
    let legal = hand.legal().unwrap();
    assert_eq!(legal.call_amount, 28);
    assert!(!legal.raise);
    play(&mut hand, &[(1, Call)]);
    assert!(hand.is_over());
    // 70 of seat 0's raise was never called and came back.
    assert_eq!(hand.returned(), &[70, 0]);
    assert_eq!(hand.final_pots(), &[pot(60, &[0, 1])]);
    assert_eq!(hand.stacks(), &[970, 60]);
}

#[test]
fn uncalled_bet_is_returned_when_everyone_folds() {
    let mut hand = deal(1, 2, 0, &[100, 100, 100], 0, "AsAd KcKd QhQs", BOARD);
    play(&mut hand, &[(0, RaiseTo(20)), (1, Fold), (2, Fold)]);
    assert!(hand.is_over());
    assert_eq!(hand.returned(), &[18, 0, 0]);
    assert_eq!(hand.stacks(), &[103, 99, 98]);
}

#[test]
fn hand_ends_at_once_when_one_player_remains() {
    let mut hand = deal(1, 2, 0, &[100, 100, 100], 0, "2h3h KcKd QhQs", BOARD);
    play(
        &mut hand,
        &[(0, Call), (1, Call), (2, Check), (1, RaiseTo(10))],
    );
    play(&mut hand, &[(2, Fold), (0, Fold)]);
    assert!(hand.is_over());
    assert_eq!(hand.to_act(), None);
    assert!(hand.legal().is_none());
    assert_eq!(hand.board().len(), 3); // no turn or river dealt
    assert_eq!(hand.net(), vec![-2, 4, -2]);
}

#[test]
fn board_is_run_out_when_betting_is_over() {
    let mut hand = deal(1, 2, 0, &[100, 100], 0, "4h8h KcKd", BOARD);
    assert!(hand.board().is_empty());
    play(&mut hand, &[(0, AllIn), (1, Call)]);
    assert!(hand.is_over());
    assert_eq!(hand.board().len(), 5);
    assert_eq!(hand.stacks(), &[0, 200]);
}

#[test]
fn side_pots_layered_by_contribution_folded_chips_in_folded_players_out() {
    // Seat 1 all-in 20, seat 2 all-in 50, seat 3 raises to 200, seat 0 (who had called 50)
    // folds. Seat 0's 50 stays in the pots; seat 0 can win none of them.
    let mut hand = deal(
        1,
        2,
        0,
        &[1000, 20, 50, 1000],
        3,
        "AsAd 7c8c 4d4s KhKs",
        BOARD,
    );
    play(&mut hand, &[(2, AllIn), (3, Call), (0, Call)]);
    play(&mut hand, &[(1, AllIn)]);
    assert_eq!(hand.street(), Street::Flop);
    // Flop: seat 3 bets, seat 0 folds.
    play(&mut hand, &[(0, Check), (3, RaiseTo(200)), (0, Fold)]);
    assert!(hand.is_over());
    assert_eq!(hand.final_pots(), &[pot(80, &[1, 2, 3]), pot(90, &[2, 3])]);
    assert_eq!(hand.returned(), &[0, 0, 0, 200]);
    // Kings win both pots (no card pairs the board better).
    assert_eq!(hand.stacks(), &[950, 0, 0, 1120]);
}

#[test]
fn each_pot_is_settled_separately() {
    // The short stack holds the best hand and wins the main pot only; the side pot goes to
    // the best hand among those who reached it.
    let mut hand = deal(1, 2, 0, &[10, 100, 100], 0, "AsAd KcKd QhQs", BOARD);
    play(&mut hand, &[(0, AllIn), (1, RaiseTo(50)), (2, Call)]);
    play(&mut hand, &[(1, AllIn), (2, Call)]);
    assert!(hand.is_over());
    assert_eq!(hand.final_pots(), &[pot(30, &[0, 1, 2]), pot(180, &[1, 2])]);
    assert_eq!(hand.stacks(), &[30, 180, 0]);
}

#[test]
fn odd_chip_goes_to_the_first_winner_left_of_the_button() {
    // Board plays (a royal flush): every live hand ties. Pot of 3 (antes) + 2 + 2 + ... is
    // split with the odd chip to the first winner left of the button.
    let board = "As Ks Qs Js Ts";
    let mut hand = deal(1, 2, 1, &[100, 100, 100], 1, "2c3c 4d5d 6h7h", board);
    // Button 1: small blind seat 2, big blind seat 0, seat 1 acts first.
    play(&mut hand, &[(1, Fold), (2, Call), (0, Check)]);
    for _ in 0..3 {
        play(&mut hand, &[(2, Check), (0, Check)]);
    }
    assert!(hand.is_over());
    // Pot 3 antes + 2 + 2 = 7: seats 2 and 0 tie; seat 2 is first left of the button.
    assert_eq!(hand.final_pots(), &[pot(7, &[0, 2])]);
    assert_eq!(hand.winnings(), &[3, 0, 4]);
}

#[test]
fn short_big_blind_all_in_leaves_the_small_blind_as_the_bet_to_call() {
    // Blinds 5/10, the big blind has 3 chips: the largest bet is the small blind's 5, and a
    // raise must reach 5 + 10 (as pokerkit).
    let hand = deal(5, 10, 0, &[100, 100, 3], 0, "AsAd KcKd QhQs", BOARD);
    assert_eq!(hand.bets(), &[0, 5, 3]);
    let legal = hand.legal().unwrap();
    assert_eq!(
        (legal.seat, legal.call_amount, legal.min_raise_to),
        (0, 5, 15)
    );
}

#[test]
fn blinds_that_cover_everyone_end_the_betting_at_once() {
    // Heads-up, the big blind has 1 chip: the small blind's 1 matches it, nobody acts.
    let hand = deal(1, 2, 0, &[100, 1], 0, "AsAd KcKd", BOARD);
    assert!(hand.is_over());
    assert_eq!(hand.stacks(), &[102 - 1, 0]);
}

#[test]
fn all_in_resolves_to_a_raise_or_a_call() {
    let mut hand = deal(1, 2, 0, &[100, 100], 0, "AsAd KcKd", BOARD);
    play(&mut hand, &[(0, AllIn)]);
    assert_eq!(hand.history(), &[(0, RaiseTo(100))]);
    play(&mut hand, &[(1, AllIn)]);
    assert_eq!(hand.history()[1], (1, Call));
}

#[test]
fn illegal_actions_are_errors_and_change_nothing() {
    let mut hand = deal(1, 2, 0, &[100, 100, 100], 0, "AsAd KcKd QhQs", BOARD);
    play(&mut hand, &[(0, RaiseTo(10))]);
    let before = format!("{hand:?}");
    for bad in [Check, RaiseTo(17), RaiseTo(101), RaiseTo(0)] {
        let err = hand.apply(bad).unwrap_err().to_string();
        assert!(err.contains("seat 1"), "{err}");
        assert_eq!(format!("{hand:?}"), before);
    }
    play(&mut hand, &[(1, Fold), (2, Fold)]);
    assert!(hand.apply(Call).is_err());
    assert!(hand.apply(AllIn).is_err());
}

#[test]
fn acting_out_of_turn_is_an_error_and_changes_nothing() {
    let mut hand = deal(1, 2, 0, &[100, 100, 100], 0, "AsAd KcKd QhQs", BOARD);
    let before = format!("{hand:?}");
    let err = hand.apply_for(2, Call).unwrap_err().to_string();
    assert!(err.contains("out of turn"), "{err}");
    assert_eq!(format!("{hand:?}"), before);
    hand.apply_for(0, Call).unwrap();
    assert_eq!(hand.to_act(), Some(1));
}

#[test]
fn bad_tables_and_deals_are_errors() {
    let cfg = TableConfig::new(1, 2, 0).unwrap();
    assert!(TableConfig::new(3, 2, 0).is_err());
    assert!(TableConfig::new(0, 2, 0).is_err());
    assert!(TableConfig::new(1, 0, 0).is_err());
    let c = parse_cards("As Ad Kc Kd 2c 7d 9h Js 3c Qh Qs").unwrap();
    let hole = [[c[0], c[1]], [c[2], c[3]]];
    let board = [c[4], c[5], c[6], c[7], c[8]];
    assert!(NlHand::new(cfg, &[100], 0, &hole[..1], board).is_err());
    assert!(NlHand::new(cfg, &[100, 0], 0, &hole, board).is_err());
    assert!(NlHand::new(cfg, &[100, 100], 2, &hole, board).is_err());
    assert!(NlHand::new(cfg, &[100, 100, 100], 0, &hole, board).is_err());
    let dup = [[c[0], c[1]], [c[0], c[3]]];
    assert!(NlHand::new(cfg, &[100, 100], 0, &dup, board).is_err());
    assert!(NlHand::new(cfg, &[100; 11], 0, &[hole[0]; 11], board).is_err());
}

/// Hands in which nobody has a decision are played out at the deal: board run out, showdown,
/// pots paid, chips conserved (pokerkit plays them the same way: the decided-at-deal tables
/// of `python/tests/test_holdem_pokerkit.py`).
#[test]
fn hands_decided_at_the_deal_are_played_out_and_paid() {
    // Antes above both stacks: both all-in for 100 (ante trimming), no blind, no decision.
    let hand = deal(1, 2, 500, &[100, 100], 0, "AsAd KcKd", BOARD);
    assert!(hand.is_over() && hand.went_to_showdown());
    assert_eq!(hand.history(), &[]);
    assert_eq!(hand.board().len(), 5);
    assert_eq!(hand.final_pots(), &[pot(200, &[0, 1])]);
    assert_eq!(hand.stacks(), &[200, 0]);
    assert_eq!(hand.net(), vec![100, -100]);
    // Heads-up blinds above both stacks: each all-in on its blind.
    let hand = deal(50, 100, 0, &[40, 70], 1, "AsAd KcKd", BOARD);
    assert!(hand.is_over());
    assert_eq!(hand.final_pots(), &[pot(80, &[0, 1])]);
    assert_eq!(hand.returned(), &[0, 10]);
    assert_eq!(hand.stacks(), &[80, 30]);
    // Several seats all-in on the antes and blinds, the one seat with chips left has posted
    // the largest bet: it faces nothing, so it has no decision either.
    let hand = deal(1, 2, 5, &[3, 4, 1000, 6], 1, "AsAd KcKd QhQs JcJd", BOARD);
    assert!(hand.is_over() && hand.went_to_showdown());
    assert_eq!(hand.history(), &[]);
    assert_eq!(hand.stacks().iter().sum::<u64>(), 1013);
    // Pots 12 (everyone's ante up to 3), 3 (seats 1-3) and 4 (seats 2 and 3): seat 3's
    // three jacks take them all.
    assert_eq!(
        hand.final_pots(),
        &[pot(12, &[0, 1, 2, 3]), pot(3, &[1, 2, 3]), pot(4, &[2, 3])]
    );
    assert_eq!(hand.net(), vec![-3, -4, -6, 13]);
}

#[test]
fn the_one_seat_with_chips_decides_only_when_it_faces_a_bet() {
    // Heads-up, the big blind has 1 chip: the button's small blind matches it, it faces no
    // bet and is the only one with chips: nobody acts.
    let hand = deal(1, 2, 0, &[1000, 1], 0, "AsAd KcKd", BOARD);
    assert!(hand.is_over());
    assert_eq!(hand.stacks(), &[1001, 0]);
    // Three-handed, ante 1: the button is all-in on the ante, the big blind on the ante and
    // one chip of its blind; the small blind (chips left) has matched the largest bet.
    let hand = deal(1, 2, 1, &[1, 1000, 2], 0, "AsAd KcKd QhQs", BOARD);
    assert!(hand.is_over());
    assert_eq!(hand.history(), &[]);
    // The same with the short big blind's blind larger than the small blind's: the small
    // blind faces a bet (1 more) and decides, call or fold (raising is closed).
    let hand = deal(1, 2, 1, &[1, 1000, 3], 0, "AsAd KcKd QhQs", BOARD);
    let legal = hand.legal().unwrap();
    assert_eq!((legal.seat, legal.call_amount), (1, 1));
    assert_eq!(legal.kinds(), vec![ActionKind::Fold, ActionKind::Call]);
}

#[test]
fn a_hand_decided_at_the_deal_round_trips_through_phh() {
    use cardvec::games::holdem::{read_phh, write_phh};
    let hand = deal(1, 2, 5, &[3, 4, 1000, 6], 1, "AsAd KcKd QhQs JcJd", BOARD);
    assert!(hand.is_over());
    let text = write_phh(&hand, Some(7));
    // No player action but the showdown; the board is dealt and the stacks are final.
    assert!(
        text.contains("finishing_stacks = [994, 19, 0, 0]"),
        "{text}"
    );
    let back = read_phh(&text).unwrap();
    assert!(back.is_over());
    assert_eq!(back.stacks(), hand.stacks());
    assert_eq!(back.history(), &[]);
}
