//! Flip 7 in words: action names ("hit", "stay", "give FREEZE to seat 2"), the table view
//! the web page draws, the outcome (each seat's banked score; the highest total wins, equal
//! totals share the win).

use serde_json::{json, Value};

use super::{card_name, Flip7, Flip7State, HIT, STAY, TARGET_OFFSET};
use crate::core::words::{Outcome, Words};
use crate::core::Game;

const STATUS: [&str; 4] = ["active", "stayed", "busted", "frozen"];

impl Words for Flip7 {
    fn action_name(&self, s: &Flip7State, action: u32) -> String {
        match action {
            HIT => "hit".into(),
            STAY => "stay".into(),
            a => {
                let card = s.pending_card().map_or("card".into(), card_name);
                format!("give {card} to seat {}", a - TARGET_OFFSET)
            }
        }
    }

    fn view(&self, s: &Flip7State, _seat: usize, _reveal: bool) -> Value {
        let n = self.num_players();
        let seats: Vec<Value> = (0..n)
            .map(|p| {
                let mut cards = Vec::new();
                for (card, &count) in s.hand(p).iter().enumerate() {
                    for _ in 0..count {
                        cards.push(json!({ "id": card, "text": card_name(card as u8) }));
                    }
                }
                json!({
                    "seat": p, "cards": cards, "status": STATUS[s.status(p) as usize % 4],
                    "score": s.scores()[p], "round_points": self.round_score(s, p),
                })
            })
            .collect();
        json!({
            "kind": "flip7", "seats": seats, "round": s.round(), "dealer": s.dealer(),
            "deck": s.draw_pile().len(),
            "pending": s.pending_card().map(|c| json!({ "id": c, "text": card_name(c) })),
            "target_score": self.target_score(),
        })
    }

    /// Each seat's banked score; the highest total wins, equal totals share the win.
    fn outcome(&self, s: &Flip7State) -> Option<Outcome> {
        let (terminated, truncated) = self.finished(s);
        if !terminated && !truncated {
            return None;
        }
        let results: Vec<f64> = s.scores()[..self.num_players()]
            .iter()
            .map(|&x| x as f64)
            .collect();
        let o = Outcome::by_results(results, true);
        Some(if truncated { o.cut_off() } else { o })
    }
}
