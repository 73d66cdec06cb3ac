//! Kuhn poker in words: action names ("check", "bet 1", "call 1", "fold"), the table view
//! the web page draws, the outcome of a hand.

use serde_json::{json, Value};

use super::fast::payoff;
use super::{card_name, KuhnPoker, KuhnPokerState, BET, NUM_PLAYERS, PASS};
use crate::core::words::{Outcome, Words};

fn card_json(c: u8) -> Value {
    json!({ "rank": card_name(c).to_string(), "text": card_name(c).to_string() })
}

impl Words for KuhnPoker {
    fn action_name(&self, s: &KuhnPokerState, action: u32) -> String {
        let facing = s.history().contains(&(BET as u8));
        match (action, facing) {
            (PASS, false) => "check".into(),
            (PASS, true) => "fold".into(),
            (BET, false) => "bet 1".into(),
            (BET, true) => "call 1".into(),
            _ => format!("action {action}"),
        }
    }

    fn view(&self, s: &KuhnPokerState, seat: usize, reveal: bool) -> Value {
        let show = reveal || s.is_over();
        let mut pot = [1u32, 1u32];
        let hist: Vec<Value> = s
            .history()
            .iter()
            .enumerate()
            .map(|(i, &a)| {
                if a == BET as u8 {
                    pot[i % 2] += 1;
                }
                json!({ "seat": i % 2, "action": if a == 1 { "b" } else { "p" } })
            })
            .collect();
        let seats: Vec<Value> = (0..NUM_PLAYERS)
            .map(|p| {
                let card = (p == seat || show).then(|| card_json(s.card(p)));
                json!({ "seat": p, "cards": card.map_or(vec![Value::Null], |c| vec![c]), "in_pot": pot[p] })
            })
            .collect();
        json!({ "kind": "poker", "seats": seats, "board": [], "pot": pot[0] + pot[1], "history": hist })
    }

    /// Each seat's chips won or lost; at a showdown (no fold) both cards are the hands.
    fn outcome(&self, s: &KuhnPokerState) -> Option<Outcome> {
        let p0 = payoff(s.cards, s.history())?;
        let winner = if p0 > 0 { 0 } else { 1 };
        let folded = s.history().last() == Some(&(PASS as u8)) && s.history().contains(&(BET as u8));
        let hands = if folded {
            vec![None, None]
        } else {
            (0..NUM_PLAYERS).map(|p| Some(card_name(s.card(p)).to_string())).collect()
        };
        let won = p0.unsigned_abs();
        let summary = if folded {
            format!("seat {winner} wins {won} chip (seat {} folds)", 1 - winner)
        } else {
            format!(
                "seat {winner} wins {won} chip{} at showdown ({} against {})",
                if won == 1 { "" } else { "s" },
                card_name(s.card(winner)),
                card_name(s.card(1 - winner))
            )
        };
        Some(Outcome {
            results: vec![p0 as f64, -p0 as f64],
            winners: vec![winner],
            hands,
            summary,
        })
    }
}
