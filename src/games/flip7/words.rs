//! Flip 7 in words: action names ("hit", "stay", "give Freeze to seat 2"), a hit as played
//! with the card it drew ("hit: 7", "hit: 7, bust"), the table view the web page draws, the
//! outcome (each seat's banked score; the highest total wins, equal totals share the win).

use serde_json::{json, Value};

use super::fast::{unpack_task, TASK_CAPACITY};
use super::{card_name, is_number, plus_value, Flip7, Flip7State, HIT, STAY, TARGET_OFFSET};
use super::{FLIP_THREE, FREEZE, SECOND_CHANCE};
use super::{ACTIVE, CARD_COPIES, CARD_IDS, MAX_NUMBER, NO_CARD, NO_SEAT, PLUS_10, PLUS_2};
use crate::core::words::{
    checked, join, list, nums_text, number, opt_text, parse_nums, parse_opt, parse_seat_bits,
    parse_window, parts, seats_bits_text, text_error, window_text, Fields, Outcome, Words,
};
use crate::core::{Game, Result};

const STATUS: [&str; 4] = ["active", "stayed", "busted", "frozen"];

/// A card as it is printed, for people (the log, the table): `7`, `+4`, `x2`, `Freeze`,
/// `Flip Three`, `Second Chance`. The state text keeps the codes of [`card_name`]
/// (`FREEZE`, `FLIP_THREE`).
pub fn card_words(card: u8) -> String {
    match card {
        FREEZE => "Freeze".into(),
        FLIP_THREE => "Flip Three".into(),
        SECOND_CHANCE => "Second Chance".into(),
        c => card_name(c),
    }
}

/// The keys of the state text, in order.
const KEYS: [&str; 21] = [
    "round", "completed", "shuffles", "dealer", "scores", "round_scores", "status", "hands",
    "deck", "discard", "head", "events", "deferred", "pending", "flip7", "exhausted", "obs",
    "obs_seats", "players", "to_act", "end",
];

/// The seat statuses of the text: `a` active, `s` stayed, `b` busted, `f` frozen.
const STATUS_LETTERS: [char; 4] = ['a', 's', 'b', 'f'];

/// The event kinds of the text (kind ids 0 to 7; 0 an unused ring slot).
const EVENTS: [&str; 8] = ["none", "deal", "draw", "end3", "resolve", "turn", "k6", "k7"];

/// Reads a [`card_name`] (`0` .. `12`, `+2` .. `+10`, `x2`, `FREEZE`, `FLIP_THREE`,
/// `SECOND_CHANCE`).
fn parse_card(text: &str) -> Result<u8> {
    (0..CARD_IDS as u8).find(|&c| card_name(c) == text).ok_or_else(|| {
        text_error(format!(
            "{text:?} is not a card (0 .. 12, +2 .. +10, x2, FREEZE, FLIP_THREE, SECOND_CHANCE)"
        ))
    })
}

/// Per-card-id counts as the cards, each as often as counted, joined by commas.
fn counts_text(counts: &[u8; CARD_IDS]) -> String {
    let cards = (0..CARD_IDS as u8).flat_map(|c| std::iter::repeat_n(c, counts[c as usize] as usize));
    join(cards, ",", card_name)
}

fn parse_counts(text: &str) -> Result<[u8; CARD_IDS]> {
    let mut counts = [0u8; CARD_IDS];
    for c in list(text, ',', parse_card)? {
        counts[c as usize] = counts[c as usize].saturating_add(1);
    }
    Ok(counts)
}

/// An event: `kind:seat`, and `:card` for a card other than `0` (`turn:2`,
/// `resolve:1:FREEZE`); `-` for an unused ring slot.
fn event_text(t: u16) -> String {
    if t == 0 {
        return "-".into();
    }
    let (kind, seat, card) = unpack_task(t);
    let mut out = format!("{}:{seat}", EVENTS[kind as usize & 7]);
    if card != 0 {
        out.push(':');
        out.push_str(&card_name(card));
    }
    out
}

fn parse_event(text: &str) -> Result<u16> {
    if text == "-" {
        return Ok(0);
    }
    let bad = || text_error(format!("events: {text:?} is not an event (kind:seat[:card])"));
    let mut it = text.split(':');
    let kind = it.next().ok_or_else(bad)?;
    let kind = EVENTS.iter().position(|&k| k == kind).ok_or_else(bad)? as u16;
    let seat: u16 = it.next().and_then(|x| x.parse().ok()).filter(|&x| x < 32).ok_or_else(bad)?;
    let card = it.next().map_or(Ok(0), parse_card)? as u16;
    if it.next().is_some() {
        return Err(bad());
    }
    Ok(kind | seat << 3 | card << 8)
}

fn card_or_none(c: u8) -> String {
    if c == NO_CARD {
        "-".into()
    } else {
        card_name(c)
    }
}

impl Words for Flip7 {
    fn action_name(&self, s: &Flip7State, action: u32) -> String {
        match action {
            HIT => "hit".into(),
            STAY => "stay".into(),
            a if a < TARGET_OFFSET + self.num_players() as u32 => {
                let card = s.pending_card().map_or("card".into(), card_words);
                format!("give {card} to seat {}", a - TARGET_OFFSET)
            }
            a => format!("action {a}"),
        }
    }

    /// A hit names the card it drew: the draw pile's top before it, or, when the pile was
    /// empty, the top of the shuffle the hit made; a number already held says "bust" (or
    /// that a Second Chance was spent).
    fn move_text(&self, before: &Flip7State, action: u32, after: &Flip7State) -> String {
        let name = self.action_name(before, action);
        if action != HIT || before.pending_card().is_some() {
            return name;
        }
        let card = if before.deck_len > 0 {
            Some(before.deck[before.deck_len as usize - 1])
        } else if after.shuffles == before.shuffles.wrapping_add(1) && after.shuffled_len > 0 {
            Some(after.deck[after.shuffled_len as usize - 1])
        } else {
            None
        };
        let Some(card) = card else {
            return if after.exhausted != 0 {
                "hit: no card left to draw".into()
            } else {
                name
            };
        };
        let p = before.to_act as usize;
        let hand = before.hand(p);
        let mut text = format!("hit: {}", card_words(card));
        if is_number(card) && hand[card as usize] > 0 {
            if hand[SECOND_CHANCE as usize] > 0 {
                text.push_str(", Second Chance spent");
            } else {
                text.push_str(", bust");
            }
        }
        text
    }

    fn view(&self, s: &Flip7State, _seat: usize, _reveal: bool) -> Value {
        let n = self.num_players();
        let seats: Vec<Value> = (0..n)
            .map(|p| {
                let mut cards = Vec::new();
                for (card, &count) in s.hand(p).iter().enumerate() {
                    for _ in 0..count {
                        cards.push(json!({ "id": card, "text": card_words(card as u8) }));
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
            "pending": s.pending_card().map(|c| json!({ "id": c, "text": card_words(c) })),
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

    /// Every field of the game on one line: `round=1 completed=0 shuffles=1 dealer=0
    /// scores=0/0/0 round_scores=0/0/0 status=a/a/a hands=<cards>/<cards>/<cards>
    /// deck=<draw pile, top last>|<drawn since the shuffle>~<stale> discard=<cards>
    /// head=0 events=turn:1~<stale> deferred= pending=- flip7=- exhausted=0 obs=0,0,0
    /// obs_seats=all players=3 to_act=1 end=0`. Cards are
    /// [`card_name`]s (`7`, `+4`, `x2`, `FREEZE`) joined by commas. docs/flip7.md has the
    /// format.
    fn state_text(&self, s: &Flip7State) -> String {
        let n = self.num_players();
        let ring = |from: usize, len: usize| {
            (0..len).map(move |i| s.tasks[(s.task_head as usize + from + i) % TASK_CAPACITY])
        };
        let live = s.task_len as usize;
        let stale: Vec<u16> = ring(live, TASK_CAPACITY - live).collect();
        let keep = stale.iter().rposition(|&t| t != 0).map_or(0, |i| i + 1);
        let mut events = join(ring(0, live), ",", event_text);
        if keep > 0 {
            events.push('~');
            events.push_str(&join(stale[..keep].iter().copied(), ",", event_text));
        }
        let obs_seats = if s.obs_seats == u32::MAX {
            "all".to_string()
        } else {
            seats_bits_text(s.obs_seats)
        };
        format!(
            "round={} completed={} shuffles={} dealer={} scores={} round_scores={} status={} hands={} deck={} discard={} head={} events={events} deferred={} pending={} flip7={} exhausted={} obs={},{},{} obs_seats={obs_seats} players={n} to_act={} end={}",
            s.round,
            s.completed_round,
            s.shuffles,
            s.dealer,
            nums_text(&s.scores[..n], "/"),
            nums_text(&s.round_scores[..n], "/"),
            join(&s.status[..n], "/", |&x| STATUS_LETTERS[x as usize % 4].to_string()),
            join(&s.hands[..n], "/", counts_text),
            window_text(&s.deck, s.deck_len as usize, s.shuffled_len as usize, card_name),
            counts_text(&s.discard),
            s.task_head,
            window_text(&s.deferred, 0, s.deferred_len as usize, card_name),
            card_or_none(s.pending),
            opt_text(s.flip7, NO_SEAT),
            s.exhausted,
            s.obs_discard,
            s.obs_task_len,
            s.obs_deferred_len,
            s.to_act,
            s.end,
        )
    }

    fn parse_state(&self, text: &str) -> Result<Flip7State> {
        let f = Fields::parse(text, &KEYS)?;
        let n = self.num_players();
        let players: usize = f.number("players")?;
        if players != n {
            return Err(text_error(format!("players={players}: this game has {n}")));
        }
        let mut s: Flip7State = bytemuck::Zeroable::zeroed();
        s.round = f.number("round")?;
        s.completed_round = f.number("completed")?;
        s.shuffles = f.number("shuffles")?;
        s.dealer = f.number("dealer")?;
        parse_nums("scores", f.get("scores")?, '/', &mut s.scores[..n])?;
        parse_nums("round_scores", f.get("round_scores")?, '/', &mut s.round_scores[..n])?;
        for (p, x) in parts("status", f.get("status")?, '/', n)?.iter().enumerate() {
            let st = STATUS_LETTERS.iter().position(|l| x.len() == 1 && x.starts_with(*l));
            s.status[p] = st.ok_or_else(|| {
                text_error(format!("status of seat {p}: {x:?} is not one of a, s, b, f"))
            })? as u8;
            if s.status[p] == ACTIVE {
                s.active |= 1 << p;
            }
        }
        for (p, x) in parts("hands", f.get("hands")?, '/', n)?.iter().enumerate() {
            let hand = parse_counts(x)?;
            s.hands[p] = hand;
            let (mut held, mut numbers, mut number_sum, mut plus) = (0u32, 0u32, 0u32, 0u32);
            for (c, &k) in hand.iter().enumerate() {
                let (c8, k) = (c as u8, k as u32);
                held += k;
                if c8 <= MAX_NUMBER {
                    numbers += k;
                    number_sum += c as u32 * k;
                }
                if (PLUS_2..=PLUS_10).contains(&c8) {
                    plus += plus_value(c8) * k;
                }
            }
            if held > 255 || number_sum > 255 || plus > 255 {
                return Err(text_error(format!("hands: seat {p} holds {held} cards")));
            }
            (s.held[p], s.numbers[p], s.number_sum[p], s.plus_sum[p]) =
                (held as u8, numbers as u8, number_sum as u8, plus as u8);
        }
        let (len, shuffled) = parse_window("deck", f.get("deck")?, &mut s.deck, parse_card)?;
        (s.deck_len, s.shuffled_len) = (len as u8, shuffled as u8);
        s.discard = parse_counts(f.get("discard")?)?;
        let discarded: u32 = s.discard.iter().map(|&c| c as u32).sum();
        s.discard_len = discarded.min(255) as u8;
        s.task_head = f.number("head")?;
        if s.task_head as usize >= TASK_CAPACITY {
            return Err(text_error(format!("head={}: the ring has {TASK_CAPACITY} slots", s.task_head)));
        }
        let events = f.get("events")?;
        let (live, stale) = events.split_once('~').unwrap_or((events, ""));
        let (live, stale) = (list(live, ',', parse_event)?, list(stale, ',', parse_event)?);
        if live.len() + stale.len() > TASK_CAPACITY {
            return Err(text_error(format!("events: more than {TASK_CAPACITY} slots")));
        }
        s.task_len = live.len() as u8;
        for (i, &t) in live.iter().chain(&stale).enumerate() {
            s.tasks[(s.task_head as usize + i) % TASK_CAPACITY] = t;
        }
        let (_, deferred) = parse_window("deferred", f.get("deferred")?, &mut s.deferred, parse_card)?;
        s.deferred_len = deferred as u8;
        s.pending = match f.get("pending")? {
            "-" => NO_CARD,
            c => parse_card(c)?,
        };
        s.flip7 = parse_opt("flip7", f.get("flip7")?, NO_SEAT)?;
        s.exhausted = f.number("exhausted")?;
        let obs = parts("obs", f.get("obs")?, ',', 3)?;
        s.obs_discard = number("obs", obs[0])?;
        s.obs_task_len = number("obs", obs[1])?;
        s.obs_deferred_len = number("obs", obs[2])?;
        s.obs_seats = match f.get("obs_seats")? {
            "all" => u32::MAX,
            x => parse_seat_bits("obs_seats", x, n)?,
        };
        s.to_act = f.number("to_act")?;
        if s.to_act as usize >= n {
            return Err(text_error(format!("to_act={}: this game has seats 0..{n}", s.to_act)));
        }
        s.end = f.number("end")?;
        let census = super::checks::card_census(&s);
        for (c, (&have, want)) in census.iter().zip(CARD_COPIES).enumerate() {
            if have != want as u32 {
                return Err(text_error(format!(
                    "card {} stands {have} times (draw pile, discards, hands, events, pending), the deck has {want}",
                    card_name(c as u8)
                )));
            }
        }
        checked(self, s)
    }
}
