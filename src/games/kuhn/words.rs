//! Kuhn poker in words: action names ("check", "bet 1", "call 1", "fold"), the table view
//! the web page draws, the outcome of a hand.

use serde_json::{json, Value};

use super::fast::{deal, payoff};
use super::{card_name, KuhnPoker, KuhnPokerState, BET, DECK_SIZE, NUM_PLAYERS, PASS};
use crate::core::words::{agrees, checked, distinct, join, list, parts, text_error, Fields, Outcome, Words};
use crate::core::{Game, LaneRng, Result};

/// The keys of the state text, in order.
const KEYS: [&str; 3] = ["cards", "history", "to_act"];

/// The action letters of the state text: `p` pass (check or fold), `b` bet (bet or call).
const LETTERS: [char; 2] = ['p', 'b'];

/// Reads a card letter (`J`, `Q`, `K`).
fn parse_card(text: &str) -> Result<u8> {
    (0..DECK_SIZE as u8)
        .find(|&c| text.len() == 1 && text.starts_with(card_name(c)))
        .ok_or_else(|| text_error(format!("{text:?} is not a card (J, Q, K)")))
}

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

    /// `cards=K/Q history=pb to_act=0`: seat 0's and seat 1's card (`J`, `Q`, `K`), the
    /// actions so far (`p` pass, `b` bet), the seat to act (after the end, the seat after
    /// the last to act). docs/kuhn.md has the format.
    fn state_text(&self, s: &KuhnPokerState) -> String {
        format!(
            "cards={}/{} history={} to_act={}",
            card_name(s.cards[0]),
            card_name(s.cards[1]),
            join(s.history(), "", |&a| LETTERS[a as usize % 2].to_string()),
            s.to_act
        )
    }

    /// Deals the cards and replays the history; the seat to act must be the replay's.
    fn parse_state(&self, text: &str) -> Result<KuhnPokerState> {
        let f = Fields::parse(text, &KEYS)?;
        let cards = list(f.get("cards")?, '/', parse_card)?;
        parts("cards", f.get("cards")?, '/', NUM_PLAYERS)?;
        distinct(cards.iter().copied(), |c| card_name(c).to_string())?;
        let mut s = deal([cards[0], cards[1]]);
        let history = f.get("history")?;
        let (mut rng, mut rewards) = (LaneRng::from_seed(0), [0f32; NUM_PLAYERS]);
        for (i, letter) in history.chars().enumerate() {
            let a = LETTERS.iter().position(|&l| l == letter).ok_or_else(|| {
                text_error(format!("history: {letter:?} is not an action (p, b)"))
            })?;
            if s.is_over() || !self.step(&mut s, a as u32, &mut rng, &mut rewards).applied {
                return Err(text_error(format!(
                    "history: action {i} ({letter}) comes after the end of the hand"
                )));
            }
        }
        agrees("to_act", f.number::<u8>("to_act")?, s.to_act)?;
        checked(self, s)
    }
}
