//! Lost Cities in words: action names ("play yellow 7, draw from deck", "discard blue
//! handshake, draw from red pile"), the table view the web page draws, the outcome (each
//! seat's expedition points; equal points tie).

use serde_json::{json, Value};

use super::fast::board_score;
use super::{
    color_of, decode_action, is_handshake, rank_of, LostCities, LostCitiesState, N_ACTIONS,
    N_COLORS, NUM_PLAYERS,
};
use crate::core::words::{Outcome, Words};
use crate::core::Game;

/// The colours, in colour-id order.
pub const COLOR_NAMES: [&str; N_COLORS] = ["yellow", "blue", "white", "green", "red"];

/// A card in words: "yellow 7", "blue handshake".
pub fn card_text(c: u8) -> String {
    let color = COLOR_NAMES[color_of(c) as usize % N_COLORS];
    if is_handshake(c) {
        format!("{color} handshake")
    } else {
        format!("{color} {}", rank_of(c))
    }
}

fn card_json(c: u8) -> Value {
    json!({
        "id": c, "color": color_of(c),
        "rank": if is_handshake(c) { "H".to_string() } else { rank_of(c).to_string() },
        "text": card_text(c),
    })
}

impl Words for LostCities {
    fn action_name(&self, s: &LostCitiesState, action: u32) -> String {
        if action as usize >= N_ACTIONS {
            return format!("action {action}");
        }
        let (slot, discard, source) = decode_action(action);
        let me = self.current_player(s);
        let card = s.hand(me).iter().nth(slot as usize);
        let card = card.map_or("?".to_string(), card_text);
        let draw = if source == 0 {
            "draw from deck".to_string()
        } else {
            format!("draw from {} pile", COLOR_NAMES[source as usize - 1])
        };
        let verb = if discard { "discard" } else { "play" };
        format!("{verb} {card}, {draw}")
    }

    fn view(&self, s: &LostCitiesState, seat: usize, reveal: bool) -> Value {
        let scores = board_score(s);
        let seats: Vec<Value> = (0..NUM_PLAYERS)
            .map(|p| {
                let board = s.board(p);
                let columns: Vec<Vec<Value>> = (0..N_COLORS)
                    .map(|c| {
                        board
                            .iter()
                            .filter(|&x| color_of(x) as usize == c)
                            .map(card_json)
                            .collect()
                    })
                    .collect();
                let hand: Vec<Value> = if p == seat || reveal {
                    s.hand(p).iter().map(card_json).collect()
                } else {
                    Vec::new()
                };
                json!({ "seat": p, "hand": hand, "hand_size": s.hand(p).len(), "expeditions": columns, "board_score": scores[p] })
            })
            .collect();
        let piles: Vec<Value> = (0..N_COLORS)
            .map(|c| json!({ "color": c, "size": s.pile(c).len(), "top": s.pile_top(c).map(card_json) }))
            .collect();
        json!({ "kind": "lost-cities", "seats": seats, "piles": piles, "deck": s.deck_len(), "colors": COLOR_NAMES })
    }

    /// Each seat's expedition points; the most points win, equal points tie.
    fn outcome(&self, s: &LostCitiesState) -> Option<Outcome> {
        let (terminated, truncated) = self.finished(s);
        if !terminated && !truncated {
            return None;
        }
        let o = Outcome::by_results(board_score(s).map(f64::from).to_vec(), true);
        Some(if truncated { o.cut_off() } else { o })
    }
}
