//! What the page draws: each game's lane state as seen by one seat, as JSON (its cards,
//! piles, chips and scores; never a card that seat may not see while the game runs), and
//! a label for every action id. Written against the games' public state accessors.

use serde_json::{json, Value};

use cardvec::core::{DynEnv, Game, GameSpec, VecEnv};
use cardvec::games::flip7::{self, Flip7};
use cardvec::games::holdem::{self, NoLimitHoldem};
use cardvec::games::i151::{self, I151};
use cardvec::games::kuhn::{self, KuhnPoker};
use cardvec::games::leduc::{self, LeducHoldem};
use cardvec::games::lost_cities::{self, LostCities};
use cardvec::poker::cards::Card;

fn lane<G: Game>(env: &dyn DynEnv) -> Option<(&G, &G::State)> {
    let env = env.as_any().downcast_ref::<VecEnv<G>>()?;
    Some((env.game(), env.state(0).ok()?))
}

/// The view of lane 0 of `env` as seat `seat` sees it (`reveal`: every card shown, as at
/// the end of a game or in a replay).
pub fn view(env: &dyn DynEnv, seat: usize, reveal: bool) -> Value {
    if let Some((_, s)) = lane::<KuhnPoker>(env) {
        return kuhn_view(s, seat, reveal);
    }
    if let Some((_, s)) = lane::<LeducHoldem>(env) {
        return leduc_view(s, seat, reveal);
    }
    if let Some((g, s)) = lane::<LostCities>(env) {
        return lost_cities_view(g, s, seat, reveal);
    }
    if let Some((g, s)) = lane::<Flip7>(env) {
        return flip7_view(g, s);
    }
    if let Some((g, s)) = lane::<I151>(env) {
        return i151_view(g, s, seat, reveal);
    }
    if let Some((g, s)) = lane::<NoLimitHoldem>(env) {
        return holdem_view(g, s, seat, reveal);
    }
    json!({ "kind": "generic" })
}

/// What one unit of a game's rewards is, as the result shows it.
pub fn reward_unit(game: &str) -> &'static str {
    match game {
        "holdem" => "big blinds",
        "kuhn" | "leduc" => "chips",
        "151" => "reward",
        _ => "points",
    }
}

/// The label of `action` in lane 0 of `env` (before it is applied).
pub fn action_label(env: &dyn DynEnv, action: u32) -> String {
    if let Some((_, s)) = lane::<KuhnPoker>(env) {
        let facing = s.history().contains(&(kuhn::BET as u8));
        return match (action, facing) {
            (kuhn::PASS, false) => "check".into(),
            (kuhn::PASS, true) => "fold".into(),
            (kuhn::BET, false) => "bet 1".into(),
            (kuhn::BET, true) => "call 1".into(),
            _ => format!("action {action}"),
        };
    }
    if let Some((_, s)) = lane::<LeducHoldem>(env) {
        let r = s.round();
        return match action {
            leduc::FOLD => "fold".into(),
            leduc::CALL if s.facing_bet() => "call".into(),
            leduc::CALL => "check".into(),
            leduc::RAISE if s.facing_bet() => format!("raise {}", leduc::RAISE_AMOUNTS[r]),
            leduc::RAISE => format!("bet {}", leduc::RAISE_AMOUNTS[r]),
            _ => format!("action {action}"),
        };
    }
    if let Some((g, s)) = lane::<LostCities>(env) {
        if action as usize >= lost_cities::N_ACTIONS {
            return format!("action {action}");
        }
        let (slot, discard, source) = lost_cities::decode_action(action);
        let me = g.current_player(s);
        let card = s.hand(me).iter().nth(slot as usize);
        let card = card.map_or("?".to_string(), lc_card_text);
        let draw = if source == 0 {
            "draw from deck".to_string()
        } else {
            format!("draw from {} pile", LC_COLORS[source as usize - 1])
        };
        let verb = if discard { "discard" } else { "play" };
        return format!("{verb} {card}, {draw}");
    }
    if let Some((_, s)) = lane::<Flip7>(env) {
        return match action {
            flip7::HIT => "hit".into(),
            flip7::STAY => "stay".into(),
            a => {
                let card = s.pending_card().map_or("card".into(), flip7::card_name);
                format!("give {card} to seat {}", a - flip7::TARGET_OFFSET)
            }
        };
    }
    if lane::<I151>(env).is_some() {
        return i151::action_name(action);
    }
    if let Some((g, s)) = lane::<NoLimitHoldem>(env) {
        let Some(legal) = g.legal(s) else {
            return format!("action {action}");
        };
        if action == holdem::FOLD {
            return "fold".into();
        }
        if action == holdem::CHECK_CALL {
            return if legal.check {
                "check".into()
            } else {
                format!("call {}", legal.call_amount)
            };
        }
        let max_bet = s.bets().iter().copied().max().unwrap_or(0) as u64;
        return match g.raise_target(action, &legal, max_bet, s.pot_total()) {
            Some(to) if to == legal.max_raise_to => format!("all-in (raise to {to})"),
            Some(to) => format!("raise to {to}"),
            None if action & holdem::EXACT_RAISE != 0 => {
                format!("raise to {}", action & !holdem::EXACT_RAISE)
            }
            None => format!("action {action}"),
        };
    }
    format!("action {action}")
}

fn kuhn_card(c: u8) -> Value {
    json!({ "rank": kuhn::card_name(c).to_string(), "text": kuhn::card_name(c).to_string() })
}

fn kuhn_view(s: &kuhn::KuhnPokerState, seat: usize, reveal: bool) -> Value {
    let show = reveal || s.is_over();
    let mut pot = [1u32, 1u32];
    let hist: Vec<Value> = s
        .history()
        .iter()
        .enumerate()
        .map(|(i, &a)| {
            if a == kuhn::BET as u8 {
                pot[i % 2] += 1;
            }
            json!({ "seat": i % 2, "action": if a == 1 { "b" } else { "p" } })
        })
        .collect();
    let seats: Vec<Value> = (0..2)
        .map(|p| {
            let card = (p == seat || show).then(|| kuhn_card(s.card(p)));
            json!({ "seat": p, "cards": card.map_or(vec![Value::Null], |c| vec![c]), "in_pot": pot[p] })
        })
        .collect();
    json!({ "kind": "poker", "seats": seats, "board": [], "pot": pot[0] + pot[1], "history": hist })
}

fn leduc_card(c: u8) -> Value {
    json!({ "rank": (["J", "Q", "K"][leduc::rank_of(c) as usize % 3]), "suit": (["s", "h"][(c % 2) as usize]), "text": leduc::card_name(c) })
}

fn leduc_view(s: &leduc::LeducHoldemState, seat: usize, reveal: bool) -> Value {
    let show = reveal || s.is_over();
    let seats: Vec<Value> = (0..2)
        .map(|p| {
            let card = (p == seat || show).then(|| leduc_card(s.card(p)));
            json!({ "seat": p, "cards": [card], "in_pot": s.contributed(p) })
        })
        .collect();
    let board: Vec<Value> = s.public_card().map(leduc_card).into_iter().collect();
    let history: Vec<Value> = (0..=s.round()).map(|r| json!(s.round_history(r))).collect();
    json!({
        "kind": "poker", "seats": seats, "board": board,
        "pot": s.contributed(0) as u32 + s.contributed(1) as u32,
        "round": s.round(), "history": history,
    })
}

const LC_COLORS: [&str; 5] = ["yellow", "blue", "white", "green", "red"];

fn lc_card_text(c: u8) -> String {
    let color = LC_COLORS[lost_cities::color_of(c) as usize % 5];
    if lost_cities::is_handshake(c) {
        format!("{color} wager")
    } else {
        format!("{color} {}", lost_cities::rank_of(c))
    }
}

fn lc_card(c: u8) -> Value {
    json!({
        "id": c, "color": lost_cities::color_of(c),
        "rank": if lost_cities::is_handshake(c) { "W".to_string() } else { lost_cities::rank_of(c).to_string() },
        "text": lc_card_text(c),
    })
}

fn lost_cities_view(
    g: &LostCities,
    s: &lost_cities::LostCitiesState,
    seat: usize,
    reveal: bool,
) -> Value {
    let scores = lost_cities::fast::board_score(s);
    let seats: Vec<Value> = (0..2)
        .map(|p| {
            let board = s.board(p);
            let columns: Vec<Vec<Value>> = (0..5)
                .map(|c| {
                    board
                        .iter()
                        .filter(|&x| lost_cities::color_of(x) as usize == c)
                        .map(lc_card)
                        .collect()
                })
                .collect();
            let hand: Vec<Value> = if p == seat || reveal {
                s.hand(p).iter().map(lc_card).collect()
            } else {
                Vec::new()
            };
            json!({ "seat": p, "hand": hand, "hand_size": s.hand(p).len(), "expeditions": columns, "board_score": scores[p] })
        })
        .collect();
    let piles: Vec<Value> = (0..5)
        .map(|c| json!({ "color": c, "size": s.pile(c).len(), "top": s.pile_top(c).map(lc_card) }))
        .collect();
    let _ = g;
    json!({ "kind": "lost-cities", "seats": seats, "piles": piles, "deck": s.deck_len(), "colors": LC_COLORS })
}

fn flip7_view(g: &Flip7, s: &flip7::Flip7State) -> Value {
    let n = g.num_players();
    let status = ["active", "stayed", "busted", "frozen"];
    let seats: Vec<Value> = (0..n)
        .map(|p| {
            let mut cards = Vec::new();
            for (card, &count) in s.hand(p).iter().enumerate() {
                for _ in 0..count {
                    cards.push(json!({ "id": card, "text": flip7::card_name(card as u8) }));
                }
            }
            json!({
                "seat": p, "cards": cards, "status": status[s.status(p) as usize % 4],
                "score": s.scores()[p], "round_points": g.round_score(s, p),
            })
        })
        .collect();
    json!({
        "kind": "flip7", "seats": seats, "round": s.round(), "dealer": s.dealer(),
        "deck": s.draw_pile().len(),
        "pending": s.pending_card().map(|c| json!({ "id": c, "text": flip7::card_name(c) })),
        "target_score": g.options().int("target_score").ok(),
    })
}

fn i151_card(c: u8) -> Value {
    let code = i151::card_code(c);
    json!({ "id": c, "rank": &code[..1], "suit": &code[1..], "text": code })
}

fn i151_view(g: &I151, s: &i151::I151State, seat: usize, reveal: bool) -> Value {
    let v = i151::PlayerView::from_state(g, s, seat);
    let n = g.num_players();
    let seats: Vec<Value> = (0..n)
        .map(|p| {
            let sv = v.seats[p];
            let hand: Vec<Value> = if p == seat || reveal {
                cardvec::core::CardSet64(s.hand(p) as u64)
                    .iter()
                    .map(i151_card)
                    .collect()
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
        .map(|&c| i151_card(c))
        .collect();
    json!({
        "kind": "151", "seats": seats, "top": v.top_card.map(i151_card), "recent": recent,
        "bank": v.bank_size, "pile": v.played_pile_size,
        "required_suit": v.required_suit.map(|x| ["S", "H", "D", "C"][x as usize & 3]),
        "must_choose_suit": v.must_choose_suit, "ace_effect": v.ace_effect_active,
        "round": v.round_number, "dealer": v.dealer, "target_score": v.target_score,
        "hand_points": v.hand_points,
    })
}

fn holdem_card(id: u8) -> Value {
    match Card::from_id(id) {
        Some(c) => {
            let t = c.to_string();
            json!({ "id": id, "rank": &t[..1], "suit": &t[1..], "text": t })
        }
        None => Value::Null,
    }
}

fn holdem_view(
    g: &NoLimitHoldem,
    s: &holdem::NoLimitHoldemState,
    seat: usize,
    reveal: bool,
) -> Value {
    let n = g.num_players();
    let over = s.is_over();
    let net = s.net();
    let seats: Vec<Value> = (0..n)
        .map(|p| {
            let show = p == seat || reveal || (over && !s.is_folded(p));
            let cards: Vec<Value> = s.hole_cards()[p]
                .iter()
                .map(|&c| if show { holdem_card(c) } else { Value::Null })
                .collect();
            json!({
                "seat": p, "cards": cards, "stack": s.stacks()[p], "bet": s.bets()[p],
                "in_pot": s.committed()[p] + s.bets()[p], "folded": s.is_folded(p),
                "button": p == s.button(), "net": net[p],
            })
        })
        .collect();
    let board: Vec<Value> = s.board().iter().map(|&c| holdem_card(c)).collect();
    let legal = g.legal(s).map(|l| {
        json!({
            "seat": l.seat, "fold": l.fold, "check": l.check, "call": l.call_amount,
            "raise": l.raise, "min_raise_to": l.min_raise_to, "max_raise_to": l.max_raise_to,
            "exact_raise_flag": holdem::EXACT_RAISE,
        })
    });
    let table = g.table();
    json!({
        "kind": "poker", "seats": seats, "board": board, "pot": s.pot_total(),
        "street": (["preflop", "flop", "turn", "river", "over"][s.street() as usize]),
        "legal": legal, "blinds": [table.small_blind, table.big_blind],
    })
}
