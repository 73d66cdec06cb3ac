//! No-limit hold'em in words: action names ("check", "call 2", "raise to 12", "all-in
//! (raise to 200)"), the table view the web page draws, and the outcome of a hand: each
//! seat's chips won or lost, the hands shown down named by the evaluator ("two pair, eights
//! and twos"), and the winners of the pot with ties kept as a split pot.

use serde_json::{json, Value};

use super::{NoLimitHoldem, NoLimitHoldemState, CHECK_CALL, EXACT_RAISE, FOLD};
use crate::core::words::{seats_text, Outcome, Words};
use crate::core::CardSet64;
use crate::poker::cards::Card;
use crate::poker::eval::{rank_of_set, HandRank};

fn card_json(id: u8) -> Value {
    match Card::from_id(id) {
        Some(c) => {
            let t = c.to_string();
            json!({ "id": id, "rank": &t[..1], "suit": &t[1..], "text": t })
        }
        None => Value::Null,
    }
}

/// The outcome of a finished hand: `hole` each seat's cards, `board` the five board cards
/// (read only at a showdown), `folded` per seat, `net` each seat's chips won or lost.
///
/// One seat left (the others folded): it wins, no hand is shown. At a showdown every seat
/// still in shows its hand, named; the winners are the seats with the best hand, the ones
/// that take the main pot (a side pot may go to another seat: `results` says what each
/// won), and equal hands split it, whatever an odd chip does to the chips.
pub fn hand_outcome(hole: &[[u8; 2]], board: [u8; 5], folded: &[bool], net: &[i64]) -> Outcome {
    let n = hole.len();
    let results: Vec<f64> = net.iter().map(|&x| x as f64).collect();
    let live: Vec<usize> = (0..n).filter(|&p| !folded[p]).collect();
    if let [only] = live.as_slice() {
        return Outcome {
            results,
            winners: vec![*only],
            hands: vec![None; n],
            summary: format!("seat {only} wins (every other seat folds)"),
        };
    }
    let ranks: Vec<Option<HandRank>> = (0..n)
        .map(|p| {
            (!folded[p]).then(|| {
                let mut set = CardSet64::from_ids(board);
                set.insert(hole[p][0]);
                set.insert(hole[p][1]);
                rank_of_set(set)
            })
        })
        .collect();
    let best = ranks.iter().flatten().max().copied();
    let winners: Vec<usize> = (0..n)
        .filter(|&p| ranks[p].is_some() && ranks[p] == best)
        .collect();
    let hands: Vec<Option<String>> = ranks.iter().map(|r| r.map(HandRank::name)).collect();
    let best_name = best.map(HandRank::name).unwrap_or_default();
    let summary = match winners.as_slice() {
        [w] => format!("seat {w} wins with {best_name}"),
        many => format!("split pot between {} ({best_name})", seats_text(many)),
    };
    Outcome {
        results,
        winners,
        hands,
        summary,
    }
}

impl Words for NoLimitHoldem {
    fn action_name(&self, s: &NoLimitHoldemState, action: u32) -> String {
        let Some(legal) = self.legal(s) else {
            return format!("action {action}");
        };
        if action == FOLD {
            return "fold".into();
        }
        if action == CHECK_CALL {
            return if legal.check {
                "check".into()
            } else {
                format!("call {}", legal.call_amount)
            };
        }
        let max_bet = s.bets().iter().copied().max().unwrap_or(0) as u64;
        match self.raise_target(action, &legal, max_bet, s.pot_total()) {
            Some(to) if to == legal.max_raise_to => format!("all-in (raise to {to})"),
            Some(to) => format!("raise to {to}"),
            None if action & EXACT_RAISE != 0 => {
                format!("raise to {}", action & !EXACT_RAISE)
            }
            None => format!("action {action}"),
        }
    }

    fn view(&self, s: &NoLimitHoldemState, seat: usize, reveal: bool) -> Value {
        let n = self.num_players();
        let over = s.is_over();
        let net = s.net();
        let seats: Vec<Value> = (0..n)
            .map(|p| {
                let show = p == seat || reveal || (over && !s.is_folded(p));
                let cards: Vec<Value> = s.hole_cards()[p]
                    .iter()
                    .map(|&c| if show { card_json(c) } else { Value::Null })
                    .collect();
                json!({
                    "seat": p, "cards": cards, "stack": s.stacks()[p], "bet": s.bets()[p],
                    "in_pot": s.committed()[p] + s.bets()[p], "folded": s.is_folded(p),
                    "button": p == s.button(), "net": net[p],
                })
            })
            .collect();
        let board: Vec<Value> = s.board().iter().map(|&c| card_json(c)).collect();
        let legal = self.legal(s).map(|l| {
            json!({
                "seat": l.seat, "fold": l.fold, "check": l.check, "call": l.call_amount,
                "raise": l.raise, "min_raise_to": l.min_raise_to, "max_raise_to": l.max_raise_to,
                "exact_raise_flag": EXACT_RAISE,
            })
        });
        let table = self.table();
        json!({
            "kind": "poker", "seats": seats, "board": board, "pot": s.pot_total(),
            "street": (["preflop", "flop", "turn", "river", "over"][s.street() as usize]),
            "legal": legal, "blinds": [table.small_blind, table.big_blind],
        })
    }

    /// Each seat's chips won or lost; see [`hand_outcome`].
    fn outcome(&self, s: &NoLimitHoldemState) -> Option<Outcome> {
        if !s.is_over() {
            return None;
        }
        let n = s.num_players();
        let folded: Vec<bool> = (0..n).map(|p| s.is_folded(p)).collect();
        Some(hand_outcome(s.hole_cards(), s.full_board(), &folded, &s.net()[..n]))
    }
}
