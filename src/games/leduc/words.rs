//! Leduc hold'em in words: action names ("check", "bet 2", "raise 4", "call", "fold"), the
//! table view the web page draws, the outcome of a hand (ties split the pot).

use serde_json::{json, Value};

use super::fast::{deal, strength};
use super::{
    card_name, rank_of, LeducHoldem, LeducHoldemState, CALL, DECK_SIZE, FOLD, NUM_PLAYERS,
    N_ROUNDS, RAISE, RAISE_AMOUNTS,
};
use crate::core::words::{
    agrees, checked, distinct, join, list, parts, seats_text, text_error, Fields, Outcome, Words,
};
use crate::core::{Game, LaneRng, Result};

/// The keys of the state text, in order.
const KEYS: [&str; 5] = ["cards", "public", "history", "pot", "to_act"];

/// The action letters of the state text: `f` fold, `c` call or check, `r` raise or bet.
const LETTERS: [char; 3] = ['f', 'c', 'r'];

/// Reads a card (`J0` .. `K1`, as [`card_name`] writes it).
fn parse_card(text: &str) -> Result<u8> {
    (0..DECK_SIZE as u8)
        .find(|&c| card_name(c) == text)
        .ok_or_else(|| text_error(format!("{text:?} is not a card (J0, J1, Q0, Q1, K0, K1)")))
}

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

    /// `cards=K0/Q1 public=J0 history=rc/c pot=3/3 to_act=1`: seat 0's and seat 1's card,
    /// the public card (dealt at the start, shown from the second round), the actions of
    /// each round (`f` fold, `c` call or check, `r` raise or bet), the chips each seat has
    /// in the pot, the seat to act (after the end, the seat whose action ended the hand).
    /// docs/leduc.md has the format.
    fn state_text(&self, s: &LeducHoldemState) -> String {
        let rounds = join(0..N_ROUNDS, "/", |r| {
            join(s.round_history(r), "", |&a| LETTERS[a as usize % 3].to_string())
        });
        format!(
            "cards={}/{} public={} history={rounds} pot={}/{} to_act={}",
            card_name(s.cards[0]),
            card_name(s.cards[1]),
            card_name(s.public),
            s.contributed[0],
            s.contributed[1],
            s.to_act
        )
    }

    /// Deals the cards and replays the history; the chips in the pot and the seat to act
    /// must be the replay's.
    fn parse_state(&self, text: &str) -> Result<LeducHoldemState> {
        let f = Fields::parse(text, &KEYS)?;
        parts("cards", f.get("cards")?, '/', NUM_PLAYERS)?;
        let mut cards = list(f.get("cards")?, '/', parse_card)?;
        cards.push(parse_card(f.get("public")?)?);
        distinct(cards.iter().copied(), card_name)?;
        let mut s = deal([cards[0], cards[1], cards[2]]);
        let (mut rng, mut rewards) = (LaneRng::from_seed(0), [0f32; NUM_PLAYERS]);
        let rounds = parts("history", f.get("history")?, '/', N_ROUNDS)?;
        for (r, round) in rounds.iter().enumerate() {
            for (i, letter) in round.chars().enumerate() {
                let a = LETTERS.iter().position(|&l| l == letter).ok_or_else(|| {
                    text_error(format!("history: {letter:?} is not an action (f, c, r)"))
                })?;
                let applied = s.round() == r
                    && !s.is_over()
                    && self.step(&mut s, a as u32, &mut rng, &mut rewards).applied;
                if !applied {
                    return Err(text_error(format!(
                        "history: round {r} action {i} ({letter}) cannot be played there"
                    )));
                }
            }
        }
        let pot = parts("pot", f.get("pot")?, '/', NUM_PLAYERS)?;
        for (p, chips) in pot.iter().enumerate() {
            let chips: u8 = crate::core::words::number("pot", chips)?;
            agrees(&format!("pot of seat {p}"), chips, s.contributed[p])?;
        }
        agrees("to_act", f.number::<u8>("to_act")?, s.to_act)?;
        checked(self, s)
    }
}
