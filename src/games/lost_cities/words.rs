//! Lost Cities in words: action names ("play yellow 7, draw from deck", "discard blue
//! handshake, draw from red pile"), the table view the web page draws, the outcome (each
//! seat's expedition points; equal points tie).

use serde_json::{json, Value};

use super::fast::board_score;
use super::{
    color_of, decode_action, is_handshake, rank_of, LostCities, LostCitiesState, N_ACTIONS,
    N_COLORS, NUM_PLAYERS,
};
use crate::core::words::{
    checked, join, list, parse_window, parts, text_error, window_text, Fields, Outcome, Words,
};
use crate::core::{CardSet64, Game, Result};
use super::{slot_of, DECK_SIZE, SLOTS_PER_COLOR};

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

const COLOR_LETTERS: [char; N_COLORS] = ['Y', 'B', 'W', 'G', 'R'];

/// A card's code in the state text: the colour's letter and the rank (`Y2` .. `Y10`), or
/// `H` and the handshake's number (`YH1` .. `YH3`).
pub fn card_code(c: u8) -> String {
    let color = COLOR_LETTERS[color_of(c) as usize % N_COLORS];
    if is_handshake(c) {
        format!("{color}H{}", slot_of(c) + 1)
    } else {
        format!("{color}{}", rank_of(c))
    }
}

/// Reads a [`card_code`].
pub fn parse_card_code(code: &str) -> Result<u8> {
    let bad = || text_error(format!("{code:?} is not a card (Y2 .. R10, YH1 .. RH3)"));
    let mut chars = code.chars();
    let letter = chars.next().ok_or_else(bad)?;
    let color = COLOR_LETTERS.iter().position(|&l| l == letter).ok_or_else(bad)? as u8;
    let rest = chars.as_str();
    let slot = match rest.strip_prefix('H') {
        Some(k) => match k {
            "1" | "2" | "3" => k.parse::<u8>().map_err(|_| bad())? - 1,
            _ => return Err(bad()),
        },
        None => match rest.parse::<u8>() {
            Ok(rank @ 2..=10) => rank + 1,
            _ => return Err(bad()),
        },
    };
    Ok(color * SLOTS_PER_COLOR as u8 + slot)
}

fn codes(cards: impl IntoIterator<Item = u8>) -> String {
    join(cards, ",", card_code)
}

fn parse_codes(text: &str) -> Result<Vec<u8>> {
    list(text, ',', parse_card_code)
}

fn parse_set(text: &str) -> Result<u64> {
    Ok(CardSet64::from_ids(parse_codes(text)?).0)
}

/// The keys of the state text, in order.
const KEYS: [&str; 9] = [
    "to_act", "steps", "end", "pos", "deck", "hands", "public", "boards", "piles",
];

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

    /// `to_act=0 steps=0 end=0 pos=16 deck=<60 cards> hands=<cards>/<cards>
    /// public=<cards>/<cards> boards=<cards>/<cards> piles=<5 piles>` on one line: the
    /// deal order and the position in it, each seat's hand, the hand cards it took from a
    /// pile (seen by both), its expeditions, the five discard piles bottom first (after a
    /// `~`, what earlier discards left in the slots above a pile's top). Cards are
    /// [`card_code`]s joined by commas. docs/lost-cities.md has an example.
    fn state_text(&self, s: &LostCitiesState) -> String {
        let pair = |x: [u64; 2]| format!("{}/{}", codes(CardSet64(x[0]).iter()), codes(CardSet64(x[1]).iter()));
        let piles = join(0..N_COLORS, "/", |c| {
            window_text(&s.piles[c], 0, s.pile_len[c] as usize, card_code)
        });
        format!(
            "to_act={} steps={} end={} pos={} deck={} hands={} public={} boards={} piles={}",
            s.to_act,
            s.steps,
            s.end,
            s.deck_pos,
            codes(s.deck.iter().copied()),
            pair(s.hands),
            pair(s.public_hands),
            pair(s.boards),
            piles
        )
    }

    fn parse_state(&self, text: &str) -> Result<LostCitiesState> {
        let f = Fields::parse(text, &KEYS)?;
        let get = |k: usize| f.get(KEYS[k]);
        let mut s: LostCitiesState = bytemuck::Zeroable::zeroed();
        s.to_act = f.number("to_act")?;
        s.steps = f.number("steps")?;
        s.end = f.number("end")?;
        s.deck_pos = f.number("pos")?;
        let deck = parse_codes(get(4)?)?;
        if deck.len() != DECK_SIZE {
            return Err(text_error(format!("deck has {} cards, expected {DECK_SIZE}", deck.len())));
        }
        s.deck.copy_from_slice(&deck);
        for (k, field) in [(5, &mut s.hands), (6, &mut s.public_hands), (7, &mut s.boards)] {
            let p = parts(KEYS[k], get(k)?, '/', 2)?;
            *field = [parse_set(p[0])?, parse_set(p[1])?];
        }
        let piles = parts("piles", get(8)?, '/', N_COLORS)?;
        for (c, pile) in piles.iter().enumerate() {
            let (_, len) = parse_window("piles", pile, &mut s.piles[c], parse_card_code)?;
            s.pile_len[c] = len as u8;
            s.discards |= CardSet64::from_ids(s.piles[c][..len].iter().copied()).0;
        }
        checked(self, s)
    }
}
