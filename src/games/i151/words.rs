//! 151 in words: action names in the cards' own words, as the table draws them ("play
//! 10♥", "draw", "pass", "choose ♠"; the engine's codes `TH`, `S` stay in
//! [`super::action_name`] and the replays), the table view the web page draws, the outcome
//! (each seat's penalty points; the match winner, or the leaders of a match cut off).

use serde_json::{json, Value};

use super::fast::{FLAG_ACE_EFFECT, FLAG_CHOOSE_SUIT, FLAG_SKIP_NEXT};
use super::{card_code, MatchSeed, PlayerView, I151State, ACTION_DRAW, ACTION_PASS, DECK_SIZE, I151};
use super::{NO_CARD, NO_SEAT, NO_SUIT};
use crate::core::words::{
    checked, join, list, nums_text, opt_text, parse_nums, parse_opt, parse_seat_bits,
    parse_window, parts, seats_bits_text, text_error, window_text, Fields, Outcome, Words,
};
use crate::core::{CardSet64, Game, Result};

/// The keys of the state text, in order.
const KEYS: [&str; 22] = [
    "seed", "round", "steps", "status", "winner", "last_winner", "dealer", "scores", "streaks",
    "excluded", "hands", "dead", "bank", "pile", "top", "suit", "flags", "drawn", "chaining",
    "last_play", "players", "to_act",
];

/// The suit letters (suit ids 0 to 3).
const SUITS: [&str; 4] = ["S", "H", "D", "C"];

/// The match states of the text: `STATUS_PLAYING`, `STATUS_TERMINATED`, `STATUS_TRUNCATED`.
const STATUSES: [&str; 3] = ["playing", "over", "cut"];

/// The flag letters: `c` a suit to choose, `a` an ace's draw pending, `q` a queen's skip.
const FLAGS: [(char, u8); 3] = [
    ('c', FLAG_CHOOSE_SUIT),
    ('a', FLAG_ACE_EFFECT),
    ('q', FLAG_SKIP_NEXT),
];

/// Reads a [`card_code`] (`AS` .. `7C`).
fn parse_card(text: &str) -> Result<u8> {
    (0..DECK_SIZE as u8)
        .find(|&c| card_code(c) == text)
        .ok_or_else(|| text_error(format!("{text:?} is not a card (AS .. 7C: rank AKQJT987, suit SHDC)")))
}

fn cards_text(set: u32) -> String {
    join(CardSet64(set as u64).iter(), ",", card_code)
}

/// Reads cards into a set; a card twice is an error.
fn parse_set(key: &str, text: &str) -> Result<u32> {
    let cards = list(text, ',', parse_card)?;
    crate::core::words::distinct(cards.iter().copied(), card_code)
        .map_err(|e| text_error(format!("{key}: {e}")))?;
    Ok(cards.iter().fold(0u32, |set, &c| set | 1 << c))
}

fn named(key: &str, text: &str, names: &[&str]) -> Result<u8> {
    names
        .iter()
        .position(|&x| x == text)
        .map(|i| i as u8)
        .ok_or_else(|| text_error(format!("{key}={text:?} is not one of {}", names.join(", "))))
}

const SUIT_SIGNS: [&str; 4] = ["♠", "♥", "♦", "♣"];

/// A card as it is printed: rank and suit sign, `10♥`, `A♠`.
pub fn card_words(c: u8) -> String {
    let code = card_code(c);
    let rank = match &code[..1] {
        "T" => "10",
        r => r,
    };
    let suit = match &code[1..] {
        "S" => SUIT_SIGNS[0],
        "H" => SUIT_SIGNS[1],
        "D" => SUIT_SIGNS[2],
        _ => SUIT_SIGNS[3],
    };
    format!("{rank}{suit}")
}

fn card_json(c: u8) -> Value {
    let code = card_code(c);
    json!({ "id": c, "rank": &code[..1], "suit": &code[1..], "code": code, "text": card_words(c) })
}

impl Words for I151 {
    fn action_name(&self, _s: &I151State, action: u32) -> String {
        match action {
            0..32 => format!("play {}", card_words(action as u8)),
            ACTION_DRAW => "draw".into(),
            ACTION_PASS => "pass".into(),
            34..38 => format!("choose {}", SUIT_SIGNS[(action - 34) as usize]),
            _ => format!("action {action}"),
        }
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

    /// Every field of the match on one line: `seed=7 round=1 steps=0 status=playing
    /// winner=- last_winner=- dealer=0 scores=0/0 streaks=0/0 excluded= hands=<cards>/<cards>
    /// dead= bank=<drawn>|<bank>~<stale> pile=<pile>~<stale> top=7H suit=- flags= drawn=
    /// chaining= last_play=1 players=2 to_act=1`. Cards are [`card_code`]s (`AS`, `TH`,
    /// `7C`) joined by commas; seats are numbers, `-` for none. docs/151.md has the format.
    fn state_text(&self, s: &I151State) -> String {
        let n = s.num_players as usize;
        let top = if s.top == NO_CARD { "-".to_string() } else { card_code(s.top) };
        let suit = SUITS.get(s.required_suit as usize).copied().unwrap_or("-");
        let flags: String = FLAGS.iter().filter(|f| s.flags & f.1 != 0).map(|f| f.0).collect();
        format!(
            "seed={} round={} steps={} status={} winner={} last_winner={} dealer={} scores={} streaks={} excluded={} hands={} dead={} bank={} pile={} top={top} suit={suit} flags={flags} drawn={} chaining={} last_play={} players={n} to_act={}",
            s.match_seed,
            s.round_number,
            s.round_steps,
            STATUSES.get(s.status as usize).copied().unwrap_or("?"),
            opt_text(s.winner, NO_SEAT),
            opt_text(s.last_winner, NO_SEAT),
            s.dealer,
            nums_text(&s.scores[..n], "/"),
            nums_text(&s.consecutive[..n], "/"),
            seats_bits_text(s.excluded.into()),
            join(&s.hands[..n], "/", |&h| cards_text(h)),
            cards_text(s.dead),
            window_text(&s.bank, s.bank_head as usize, s.bank_tail as usize, card_code),
            window_text(&s.pile, 0, s.pile_len as usize, card_code),
            seats_bits_text(s.drawn.into()),
            seats_bits_text(s.chaining.into()),
            s.last_play_count,
            s.to_act,
        )
    }

    fn parse_state(&self, text: &str) -> Result<I151State> {
        let f = Fields::parse(text, &KEYS)?;
        let n = self.num_players();
        let mut s: I151State = bytemuck::Zeroable::zeroed();
        let players: usize = f.number("players")?;
        if players != n {
            return Err(text_error(format!("players={players}: this game has {n}")));
        }
        s.num_players = n as u8;
        s.match_seed = f
            .get("seed")?
            .parse::<MatchSeed>()
            .map_err(|e| text_error(format!("seed: {e}")))?;
        s.round_number = f.number("round")?;
        s.round_steps = f.number("steps")?;
        s.status = named("status", f.get("status")?, &STATUSES)?;
        s.winner = parse_opt("winner", f.get("winner")?, NO_SEAT)?;
        s.last_winner = parse_opt("last_winner", f.get("last_winner")?, NO_SEAT)?;
        s.dealer = f.number("dealer")?;
        parse_nums("scores", f.get("scores")?, '/', &mut s.scores[..n])?;
        parse_nums("streaks", f.get("streaks")?, '/', &mut s.consecutive[..n])?;
        s.excluded = parse_seat_bits("excluded", f.get("excluded")?, n)? as u8;
        for (p, hand) in parts("hands", f.get("hands")?, '/', n)?.iter().enumerate() {
            s.hands[p] = parse_set("hands", hand)?;
        }
        s.dead = parse_set("dead", f.get("dead")?)?;
        let (head, tail) = parse_window("bank", f.get("bank")?, &mut s.bank, parse_card)?;
        (s.bank_head, s.bank_tail) = (head as u8, tail as u8);
        let (_, len) = parse_window("pile", f.get("pile")?, &mut s.pile, parse_card)?;
        s.pile_len = len as u8;
        s.pile_set = s.pile[..len].iter().fold(0u32, |set, &c| set | 1 << c);
        let mut seen = 0u32;
        for (what, set) in (0..n)
            .map(|p| ("a hand", s.hands[p]))
            .chain([("the dead cards", s.dead), ("the pile", s.pile_set)])
            .chain([("the bank", s.bank().iter().fold(0u32, |set, &c| set | 1 << c))])
        {
            if let Some(c) = CardSet64((seen & set) as u64).iter().next() {
                return Err(text_error(format!("duplicate card {} (again in {what})", card_code(c))));
            }
            seen |= set;
        }
        if seen != u32::MAX {
            return Err(text_error(format!(
                "{} of the 32 cards are missing: {}",
                (!seen).count_ones(),
                cards_text(!seen)
            )));
        }
        s.top = match f.get("top")? {
            "-" => NO_CARD,
            c => parse_card(c)?,
        };
        s.required_suit = match f.get("suit")? {
            "-" => NO_SUIT,
            x => named("suit", x, &SUITS)?,
        };
        for letter in f.get("flags")?.chars() {
            let flag = FLAGS.iter().find(|f| f.0 == letter).ok_or_else(|| {
                text_error(format!("flags: {letter:?} is not a flag (c, a, q)"))
            })?;
            s.flags |= flag.1;
        }
        s.drawn = parse_seat_bits("drawn", f.get("drawn")?, n)? as u8;
        s.chaining = parse_seat_bits("chaining", f.get("chaining")?, n)? as u8;
        s.last_play_count = f.number("last_play")?;
        s.to_act = f.number("to_act")?;
        if s.to_act as usize >= n || s.is_excluded(s.to_act as usize) && s.status == 0 {
            return Err(text_error(format!("to_act={}: that seat cannot be to act", s.to_act)));
        }
        checked(self, s)
    }
}
