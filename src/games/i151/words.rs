//! 151 in words: action names ("play TH", "draw", "pass", "choose S"), the table view the
//! web page draws, the outcome (each seat's penalty points; the match winner, or the
//! leaders of a match cut off).

use serde_json::{json, Value};

use super::{action_name, card_code, PlayerView, I151State, I151};
use crate::core::words::{Outcome, Words};
use crate::core::{CardSet64, Game};

fn card_json(c: u8) -> Value {
    let code = card_code(c);
    json!({ "id": c, "rank": &code[..1], "suit": &code[1..], "text": code })
}

impl Words for I151 {
    fn action_name(&self, _s: &I151State, action: u32) -> String {
        action_name(action)
    }

    fn view(&self, s: &I151State, seat: usize, reveal: bool) -> Value {
        let v = PlayerView::from_state(self, s, seat);
        let n = self.num_players();
        let seats: Vec<Value> = (0..n)
            .map(|p| {
                let sv = v.seats[p];
                let hand: Vec<Value> = if p == seat || reveal {
                    CardSet64(s.hand(p) as u64).iter().map(card_json).collect()
                } else {
                    Vec::new()
                };
                json!({
                    "seat": p, "hand": hand, "hand_size": sv.hand_size, "score": sv.total_score,
                    "excluded": sv.is_excluded, "streak": sv.consecutive_round_wins,
                })
            })
            .collect();
        let recent: Vec<Value> = v.recent_cards[..v.recent_len as usize]
            .iter()
            .map(|&c| card_json(c))
            .collect();
        json!({
            "kind": "151", "seats": seats, "top": v.top_card.map(card_json), "recent": recent,
            "bank": v.bank_size, "pile": v.played_pile_size,
            "required_suit": v.required_suit.map(|x| ["S", "H", "D", "C"][x as usize & 3]),
            "must_choose_suit": v.must_choose_suit, "ace_effect": v.ace_effect_active,
            "round": v.round_number, "dealer": v.dealer, "target_score": v.target_score,
            "hand_points": v.hand_points,
        })
    }

    /// Each seat's penalty points (lower is better); the match winner, the last seat not
    /// excluded; for a match cut off, the leaders among the seats still in.
    fn outcome(&self, s: &I151State) -> Option<Outcome> {
        let (terminated, truncated) = self.finished(s);
        if !terminated && !truncated {
            return None;
        }
        let n = self.num_players();
        let results: Vec<f64> = s.scores()[..n].iter().map(|&x| x as f64).collect();
        if let (true, Some(w)) = (terminated, s.winner()) {
            return Some(Outcome {
                results,
                winners: vec![w],
                hands: Vec::new(),
                summary: format!("seat {w} wins the match"),
            });
        }
        let live: Vec<usize> = (0..n).filter(|&p| !s.is_excluded(p)).collect();
        let best = live.iter().map(|&p| s.scores()[p]).min();
        let mut o = Outcome::by_results(results, false);
        o.winners = live
            .into_iter()
            .filter(|&p| Some(s.scores()[p]) == best)
            .collect();
        Some(o.cut_off())
    }
}
