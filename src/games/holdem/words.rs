//! No-limit hold'em in words: action names ("check", "call 2", "raise to 12", "all-in
//! (raise to 200)"), the table view the web page draws, and the outcome of a hand: each
//! seat's chips won or lost, the hands shown down named by the evaluator ("two pair, eights
//! and twos"), and the winners of the pot with ties kept as a split pot.

use serde_json::{json, Value};

use super::fast::{decode_history, HISTORY_BYTES, HISTORY_OVERFLOW};
use super::{NoLimitHoldem, NoLimitHoldemState, CHECK_CALL, EXACT_RAISE, FOLD, NO_SEAT, RAISE_BASE};
use crate::core::words::{
    agrees, checked, join, list, nums_text, number, opt_text, parse_nums, parse_opt,
    parse_seat_bits, parts, seats_bits_text, seats_text, text_error, Fields, Outcome, Words,
};
use crate::core::{CardSet64, Result};
use crate::poker::cards::{read_cards, Card};
use crate::poker::eval::{rank_of_set, HandRank};

/// The keys of the state text, in order: the deal and history, what they give (checked
/// against the replay), and for an overflowed history the betting fields it cannot replay.
const KEYS: [&str; 21] = [
    "button", "hole", "board", "history", "overflow", "stacks", "bets", "committed",
    "increment", "short", "raises_street", "raises_total", "street_raises", "folded",
    "pending", "acted", "dealt", "runout", "pot", "street", "to_act",
];

/// The street names of the state text, `street` 0 to 4.
const STREETS: [&str; 5] = ["preflop", "flop", "turn", "river", "over"];

/// A history action in the state text: `f` fold, `c` check or call, `p<k>` the `k`-th pot
/// fraction raise, `a` all-in, `r<chips>` an exact raise-to.
fn action_code(game: &NoLimitHoldem, a: u32) -> String {
    match a {
        FOLD => "f".into(),
        CHECK_CALL => "c".into(),
        _ if a & EXACT_RAISE != 0 => format!("r{}", a & !EXACT_RAISE),
        _ if a == game.all_in_action() => "a".into(),
        _ => format!("p{}", a - RAISE_BASE),
    }
}

/// Reads an [`action_code`].
fn parse_action(game: &NoLimitHoldem, code: &str) -> Result<u32> {
    let bad = || text_error(format!("history: {code:?} is not an action (f, c, p0.., a, r<chips>)"));
    match code {
        "f" => Ok(FOLD),
        "c" => Ok(CHECK_CALL),
        "a" => Ok(game.all_in_action()),
        _ => {
            let (kind, n) = code.split_at(code.len().min(1));
            let n: u32 = n.parse().map_err(|_| bad())?;
            match kind {
                "p" if RAISE_BASE + n < game.all_in_action() => Ok(RAISE_BASE + n),
                "r" if n < 1 << 30 => Ok(EXACT_RAISE | n),
                _ => Err(bad()),
            }
        }
    }
}

/// Reads `count` cards written together (`AsKd`); an error naming a bad card or a wrong count.
fn parse_card_run(key: &str, text: &str, count: usize) -> Result<Vec<u8>> {
    let cards = read_cards(text).map_err(|e| text_error(format!("{key}: {e}")))?;
    if cards.len() != count {
        return Err(text_error(format!(
            "{key}: {text:?} has {} cards, expected {count}",
            cards.len()
        )));
    }
    Ok(cards.iter().map(|c| c.id()).collect())
}

fn card_code(id: u8) -> String {
    Card::from_id(id).map_or("??".to_string(), |c| c.to_string())
}

fn card_json(id: u8) -> Value {
    match Card::from_id(id) {
        Some(c) => {
            let t = c.to_string();
            json!({ "id": id, "rank": &t[..1], "suit": &t[1..], "text": t })
        }
        None => Value::Null,
    }
}

/// The outcome of a finished hand: `hole` each seat's cards, `board` the five board cards
/// (read only at a showdown), `folded` per seat, `net` each seat's chips won or lost.
///
/// One seat left (the others folded): it wins, no hand is shown. At a showdown every seat
/// still in shows its hand, named; the winners are the seats with the best hand, the ones
/// that take the main pot (a side pot may go to another seat: `results` says what each
/// won), and equal hands split it, whatever an odd chip does to the chips.
pub fn hand_outcome(hole: &[[u8; 2]], board: [u8; 5], folded: &[bool], net: &[i64]) -> Outcome {
    let n = hole.len();
    let results: Vec<f64> = net.iter().map(|&x| x as f64).collect();
    let live: Vec<usize> = (0..n).filter(|&p| !folded[p]).collect();
    if let [only] = live.as_slice() {
        return Outcome {
            results,
            winners: vec![*only],
            hands: vec![None; n],
            summary: format!("seat {only} wins (every other seat folds)"),
        };
    }
    let ranks: Vec<Option<HandRank>> = (0..n)
        .map(|p| {
            (!folded[p]).then(|| {
                let mut set = CardSet64::from_ids(board);
                set.insert(hole[p][0]);
                set.insert(hole[p][1]);
                rank_of_set(set)
            })
        })
        .collect();
    let best = ranks.iter().flatten().max().copied();
    let winners: Vec<usize> = (0..n)
        .filter(|&p| ranks[p].is_some() && ranks[p] == best)
        .collect();
    let hands: Vec<Option<String>> = ranks.iter().map(|r| r.map(HandRank::name)).collect();
    let best_name = best.map(HandRank::name).unwrap_or_default();
    let summary = match winners.as_slice() {
        [w] => format!("seat {w} wins with {best_name}"),
        many => format!("split pot between {} ({best_name})", seats_text(many)),
    };
    Outcome {
        results,
        winners,
        hands,
        summary,
    }
}

impl Words for NoLimitHoldem {
    fn action_name(&self, s: &NoLimitHoldemState, action: u32) -> String {
        let Some(legal) = self.legal(s) else {
            return format!("action {action}");
        };
        if action == FOLD {
            return "fold".into();
        }
        if action == CHECK_CALL {
            return if legal.check {
                "check".into()
            } else {
                format!("call {}", legal.call_amount)
            };
        }
        let max_bet = s.bets().iter().copied().max().unwrap_or(0) as u64;
        match self.raise_target(action, &legal, max_bet, s.pot_total()) {
            Some(to) if to == legal.max_raise_to => format!("all-in (raise to {to})"),
            Some(to) => format!("raise to {to}"),
            None if action & EXACT_RAISE != 0 => {
                format!("raise to {}", action & !EXACT_RAISE)
            }
            None => format!("action {action}"),
        }
    }

    fn view(&self, s: &NoLimitHoldemState, seat: usize, reveal: bool) -> Value {
        let n = self.num_players();
        let over = s.is_over();
        let net = s.net();
        let sb = super::small_blind_seat(n, s.button());
        let bb = super::big_blind_seat(n, s.button());
        let seats: Vec<Value> = (0..n)
            .map(|p| {
                let show = p == seat || reveal || (over && !s.is_folded(p));
                let cards: Vec<Value> = s.hole_cards()[p]
                    .iter()
                    .map(|&c| if show { card_json(c) } else { Value::Null })
                    .collect();
                json!({
                    "seat": p, "cards": cards, "stack": s.stacks()[p], "bet": s.bets()[p],
                    "in_pot": s.committed()[p] + s.bets()[p], "folded": s.is_folded(p),
                    "button": p == s.button(), "net": net[p],
                    "blind": if p == sb { json!("SB") } else if p == bb { json!("BB") } else { Value::Null },
                })
            })
            .collect();
        let board: Vec<Value> = s.board().iter().map(|&c| card_json(c)).collect();
        let legal = self.legal(s).map(|l| {
            json!({
                "seat": l.seat, "fold": l.fold, "check": l.check, "call": l.call_amount,
                "raise": l.raise, "min_raise_to": l.min_raise_to, "max_raise_to": l.max_raise_to,
                "exact_raise_flag": EXACT_RAISE,
            })
        });
        let table = self.table();
        json!({
            "kind": "poker", "seats": seats, "board": board, "pot": s.pot_total(),
            "street": (["preflop", "flop", "turn", "river", "over"][s.street() as usize]),
            "legal": legal, "blinds": [table.small_blind, table.big_blind],
        })
    }

    /// Each seat's chips won or lost; see [`hand_outcome`].
    fn outcome(&self, s: &NoLimitHoldemState) -> Option<Outcome> {
        if !s.is_over() {
            return None;
        }
        let n = s.num_players();
        let folded: Vec<bool> = (0..n).map(|p| s.is_folded(p)).collect();
        Some(hand_outcome(s.hole_cards(), s.full_board(), &folded, &s.net()[..n]))
    }

    /// `button=0 hole=AsKd/7h7c board=2c3d4h5s6c history=c,c,p0,f stacks=98/102 pot=0
    /// street=over to_act=-`: the button, each seat's hole cards, the five board cards of
    /// the deal (shown as the streets come), the actions so far (`f` fold, `c` check or
    /// call, `p<k>` the `k`-th pot-fraction raise, `a` all-in, `r<chips>` an exact
    /// raise-to), and what they give: each seat's stack, the chips in the middle, the
    /// street, the seat to act (`-` once over). A history longer than the state records
    /// (more than 56 bytes) adds `overflow=<hash>` and the betting fields the text then
    /// cannot replay. docs/holdem.md has the format.
    fn state_text(&self, s: &NoLimitHoldemState) -> String {
        let n = s.num_players();
        let (recorded, overflow) = s.history();
        let hole = join(s.hole_cards(), "/", |h| format!("{}{}", card_code(h[0]), card_code(h[1])));
        let mut out = format!(
            "button={} hole={hole} board={} history={}",
            s.button,
            join(s.board, "", card_code),
            join(decode_history(recorded), ",", |a| action_code(self, a)),
        );
        if let Some(hash) = overflow {
            out.push_str(&format!(
                " overflow={hash:016x} bets={} committed={} increment={} short={},{} raises_street={} raises_total={} street_raises={} folded={} pending={} acted={} dealt={} runout={}",
                nums_text(s.bets(), ","), nums_text(s.committed(), ","), s.increment, s.short_sum,
                s.short_any, nums_text(&s.raises_street[..n], ","),
                nums_text(&s.raises_total[..n], ","), nums_text(&s.street_raises, ","),
                seats_bits_text(s.folded.into()), seats_bits_text(s.pending.into()),
                seats_bits_text(s.acted.into()),
                s.dealt, s.runout
            ));
        }
        let to_act = opt_text(s.to_act, NO_SEAT);
        out.push_str(&format!(
            " stacks={} pot={} street={} to_act={to_act}",
            nums_text(s.stacks(), "/"),
            s.pot_total(),
            STREETS[(s.street as usize).min(4)],
        ));
        out
    }

    /// Deals the cards and replays the history (with `overflow`, sets the betting fields
    /// it gives instead); the stacks, the pot, the street and the seat to act must be what
    /// that gives.
    fn parse_state(&self, text: &str) -> Result<NoLimitHoldemState> {
        let f = Fields::parse(text, &KEYS)?;
        let n = self.num_players();
        let button: usize = f.number("button")?;
        if button >= n {
            return Err(text_error(format!("button={button}: this table has seats 0..{n}")));
        }
        let hole = parts("hole", f.get("hole")?, '/', n)?;
        let mut cards = Vec::new();
        for h in hole {
            cards.extend(parse_card_run("hole", h, 2)?);
        }
        cards.extend(parse_card_run("board", f.get("board")?, 5)?);
        crate::core::words::distinct(cards.iter().copied(), card_code)?;
        let pairs: Vec<[u8; 2]> = cards[..2 * n].chunks(2).map(|c| [c[0], c[1]]).collect();
        let board: [u8; 5] = std::array::from_fn(|i| cards[2 * n + i]);
        let mut s = self.deal(&pairs, board, button);
        let actions = list(f.get("history")?, ',', |c| parse_action(self, c))?;
        let mut rng = crate::core::LaneRng::from_seed(0);
        let mut rewards = [0f32; super::MAX_PLAYERS];
        for (i, &a) in actions.iter().enumerate() {
            use crate::core::Game;
            if s.is_over() || !self.step(&mut s, a, &mut rng, &mut rewards).applied {
                return Err(text_error(format!(
                    "history: action {i} ({}) cannot be played there",
                    action_code(self, a)
                )));
            }
        }
        if let Some(hash) = f.opt("overflow") {
            let hash = u64::from_str_radix(hash, 16)
                .map_err(|_| text_error(format!("overflow={hash:?} is not a hexadecimal hash")))?;
            let (recorded, _) = s.history();
            if recorded.len() + 4 <= HISTORY_BYTES {
                return Err(text_error("overflow with a history that fits the state"));
            }
            s.hist_len |= HISTORY_OVERFLOW;
            s.hist_hash = [hash as u32, (hash >> 32) as u32];
            parse_nums("bets", f.get("bets")?, ',', &mut s.bets[..n])?;
            parse_nums("committed", f.get("committed")?, ',', &mut s.committed[..n])?;
            s.increment = f.number("increment")?;
            let short = parts("short", f.get("short")?, ',', 2)?;
            s.short_sum = number("short", short[0])?;
            s.short_any = number("short", short[1])?;
            parse_nums("raises_street", f.get("raises_street")?, ',', &mut s.raises_street[..n])?;
            parse_nums("raises_total", f.get("raises_total")?, ',', &mut s.raises_total[..n])?;
            parse_nums("street_raises", f.get("street_raises")?, ',', &mut s.street_raises)?;
            s.folded = parse_seat_bits("folded", f.get("folded")?, n)? as u16;
            s.pending = parse_seat_bits("pending", f.get("pending")?, n)? as u16;
            s.acted = parse_seat_bits("acted", f.get("acted")?, n)? as u16;
            s.dealt = f.number("dealt")?;
            s.runout = f.number("runout")?;
            parse_nums("stacks", f.get("stacks")?, '/', &mut s.stacks[..n])?;
            let street = f.get("street")?;
            s.street = STREETS.iter().position(|&x| x == street).ok_or_else(|| {
                text_error(format!("street={street:?} is not one of {}", STREETS.join(", ")))
            })? as u8;
            s.to_act = parse_opt("to_act", f.get("to_act")?, NO_SEAT)?;
        } else {
            for key in &KEYS[6..18] {
                if f.opt(key).is_some() {
                    return Err(text_error(format!("{key} goes only with overflow")));
                }
            }
        }
        agrees("stacks", f.get("stacks")?, nums_text(s.stacks(), "/").as_str())?;
        agrees("pot", f.number::<u64>("pot")?, s.pot_total() as u64)?;
        agrees("street", f.get("street")?, STREETS[(s.street as usize).min(4)])?;
        let to_act = opt_text(s.to_act, NO_SEAT);
        agrees("to_act", f.get("to_act")?, to_act.as_str())?;
        checked(self, s)
    }
}
