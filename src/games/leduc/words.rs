//! Leduc hold'em in words: action names ("check", "bet 2", "raise 4", "call", "fold"), the
//! table view the web page draws, the outcome of a hand (ties split the pot).

use serde_json::{json, Value};

use super::fast::strength;
use super::{
    card_name, rank_of, LeducHoldem, LeducHoldemState, CALL, FOLD, NUM_PLAYERS, RAISE,
    RAISE_AMOUNTS,
};
use crate::core::words::{seats_text, Outcome, Words};

const RANKS: [&str; 3] = ["J", "Q", "K"];
const RANK_WORDS: [&str; 3] = ["jack", "queen", "king"];

fn card_json(c: u8) -> Value {
    json!({ "rank": RANKS[rank_of(c) as usize % 3], "suit": (["s", "h"][(c % 2) as usize]), "text": card_name(c) })
}

/// The hand a private card makes with the public card: "pair of kings", "queen high".
fn hand_name(card: u8, public: u8) -> String {
    let word = RANK_WORDS[rank_of(card) as usize % 3];
    if rank_of(card) == rank_of(public) {
        format!("pair of {word}s")
    } else {
        format!("{word} high")
    }
}

impl Words for LeducHoldem {
    fn action_name(&self, s: &LeducHoldemState, action: u32) -> String {
        let r = s.round();
        match action {
            FOLD => "fold".into(),
            CALL if s.facing_bet() => "call".into(),
            CALL => "check".into(),
            RAISE if s.facing_bet() => format!("raise {}", RAISE_AMOUNTS[r]),
            RAISE => format!("bet {}", RAISE_AMOUNTS[r]),
            _ => format!("action {action}"),
        }
    }

    fn view(&self, s: &LeducHoldemState, seat: usize, reveal: bool) -> Value {
        let show = reveal || s.is_over();
        let seats: Vec<Value> = (0..NUM_PLAYERS)
            .map(|p| {
                let card = (p == seat || show).then(|| card_json(s.card(p)));
                json!({ "seat": p, "cards": [card], "in_pot": s.contributed(p) })
            })
            .collect();
        let board: Vec<Value> = s.public_card().map(card_json).into_iter().collect();
        let history: Vec<Value> = (0..=s.round()).map(|r| json!(s.round_history(r))).collect();
        json!({
            "kind": "poker", "seats": seats, "board": board,
            "pot": s.contributed(0) as u32 + s.contributed(1) as u32,
            "round": s.round(), "history": history,
        })
    }

    /// Each seat's chips won or lost; at a showdown the hands are named and equal hands
    /// split the pot.
    fn outcome(&self, s: &LeducHoldemState) -> Option<Outcome> {
        if !s.is_over() {
            return None;
        }
        let folded = s.round_history(s.round()).last() == Some(&(FOLD as u8));
        if folded {
            let loser = s.to_act as usize & 1;
            let winner = 1 - loser;
            let won = s.contributed(loser) as f64;
            let mut results = vec![0.0; NUM_PLAYERS];
            results[winner] = won;
            results[loser] = -won;
            return Some(Outcome {
                results,
                winners: vec![winner],
                hands: vec![None, None],
                summary: format!("seat {winner} wins {won} chips (seat {loser} folds)"),
            });
        }
        let (a, b) = (strength(s.cards[0], s.public), strength(s.cards[1], s.public));
        let won = s.contributed(0) as f64;
        let v = if a > b {
            won
        } else if a < b {
            -won
        } else {
            0.0
        };
        let winners: Vec<usize> = match a.cmp(&b) {
            std::cmp::Ordering::Greater => vec![0],
            std::cmp::Ordering::Less => vec![1],
            std::cmp::Ordering::Equal => vec![0, 1],
        };
        let hands: Vec<Option<String>> = (0..NUM_PLAYERS)
            .map(|p| Some(hand_name(s.card(p), s.public)))
            .collect();
        let summary = match winners.as_slice() {
            [w] => format!(
                "seat {w} wins {won} chips at showdown ({} against {})",
                hands[*w].as_deref().unwrap_or(""),
                hands[1 - w].as_deref().unwrap_or("")
            ),
            _ => format!(
                "split pot between {} ({})",
                seats_text(&winners),
                hands[0].as_deref().unwrap_or("")
            ),
        };
        Some(Outcome {
            results: vec![v, 0.0 - v],
            winners,
            hands,
            summary,
        })
    }
}
