//! Watching what others played: a 151 replay (the official recorder's JSON), a PHH hand
//! history stepped action by action, and a ladder's standings for the charts (the 151
//! arena's log, or the `cardvec ladder --jsonl` log of any game).

use serde_json::{json, Value};

use cardvec::arena::ladder::{read_log, Standings};
use cardvec::arena::replay::Replay;
use cardvec::arena::runner::{play_series_match, Clock, MatchConfig};
use cardvec::core::{Error, LaneRng, Result};
use cardvec::games::holdem::{hand_outcome, read_phh, write_phh, Action, NlHand, TableConfig};
use cardvec::ladder::ratings::Rating;
use cardvec::poker::cards::Card;

/// The ladder log shipped in docs/ (what `GET /api/ladder` charts).
pub const LADDER_LOG: &str = include_str!("../../../docs/data/151-arena-ladder.jsonl");

/// A 151 replay checked and returned as JSON (the page steps through its snapshots).
pub fn replay_151(text: &str) -> Result<Value> {
    let replay = Replay::from_json(text)?;
    let steps: usize = replay.rounds.iter().map(|r| r.steps.len()).sum();
    let mut v = serde_json::to_value(&replay).map_err(|e| Error::Invalid {
        what: "151 replay",
        reason: e.to_string(),
    })?;
    v["total_steps"] = json!(steps);
    Ok(v)
}

/// A sample 151 replay: one arena match between two built-in bots, seeded `seed`.
pub fn sample_replay(seed: u64) -> Result<String> {
    let config = MatchConfig::new(0);
    let (result, _) = play_series_match(
        &config,
        Clock::FREE,
        "builtin:greedy",
        "builtin:medium",
        seed,
        0,
    )?;
    Ok(result.replay.to_json())
}

fn card_json(c: Card) -> Value {
    let t = c.to_string();
    json!({ "rank": &t[..1], "suit": &t[1..], "text": t })
}

fn frame(hand: &NlHand, label: &str, actor: Option<usize>) -> Value {
    let n = hand.num_players();
    let over = hand.is_over();
    let seats: Vec<Value> = (0..n)
        .map(|p| {
            json!({
                "seat": p, "cards": hand.hole_cards()[p].iter().map(|&c| card_json(c)).collect::<Vec<_>>(),
                "stack": hand.stacks()[p], "bet": hand.bets()[p],
                "in_pot": hand.committed()[p] + hand.bets()[p], "folded": hand.folded()[p],
                "button": p == hand.button(),
                "net": if over { json!(hand.net()[p]) } else { Value::Null },
            })
        })
        .collect();
    json!({
        "label": label, "actor": actor, "to_act": hand.to_act(), "over": over,
        "board": hand.board().iter().map(|&c| card_json(c)).collect::<Vec<_>>(),
        "pot": hand.pot_total(), "seats": seats,
        "street": format!("{:?}", hand.street()).to_lowercase(),
    })
}

fn action_text(a: Action) -> String {
    match a {
        Action::Fold => "fold".into(),
        Action::Check => "check".into(),
        Action::Call => "call".into(),
        Action::RaiseTo(c) => format!("raise to {c}"),
        Action::AllIn => "all-in".into(),
    }
}

/// A PHH hand history read and replayed: one frame after the deal, then one after every
/// action (seats are cardvec's: the button's number is kept when the file has it).
pub fn phh_frames(text: &str) -> Result<Value> {
    let done = read_phh(text)?;
    let mut hand = NlHand::new(
        done.config(),
        done.starting_stacks(),
        done.button(),
        done.hole_cards(),
        done.full_board(),
    )?;
    let mut frames = vec![frame(&hand, "deal", None)];
    for &(seat, action) in done.history() {
        hand.apply_for(seat, action)?;
        frames.push(frame(
            &hand,
            &format!("seat {seat}: {}", action_text(action)),
            Some(seat),
        ));
    }
    let cfg = done.config();
    // How the hand ended, as the web table says it: a split pot is a tie, the hands shown
    // down are named (`null` for a hand history that stops before its end).
    let outcome = hand.is_over().then(|| {
        let hole: Vec<[u8; 2]> = hand.hole_cards().iter().map(|h| h.map(Card::id)).collect();
        let board = hand.full_board().map(Card::id);
        hand_outcome(&hole, board, hand.folded(), &hand.net()).to_json()
    });
    Ok(json!({
        "num_players": done.num_players(), "button": done.button(),
        "blinds": [cfg.small_blind, cfg.big_blind], "ante": cfg.ante,
        "net": done.net(), "frames": frames, "outcome": outcome,
    }))
}

/// A sample PHH hand: `players` seats of 200 chips, blinds 1/2, random legal play seeded
/// `seed` (checks and calls mostly, some raises, few folds).
pub fn sample_phh(seed: u64, players: usize) -> Result<String> {
    Error::check_range("players", 2, 10, players as i64)?;
    let mut rng = LaneRng::from_seed(seed);
    let mut deck: Vec<u8> = (0..52).collect();
    rng.shuffle(&mut deck);
    let card = |i: usize| Card::from_id(deck[i]).expect("a deck card");
    let hole: Vec<[Card; 2]> = (0..players)
        .map(|p| [card(2 * p), card(2 * p + 1)])
        .collect();
    let board = [0, 1, 2, 3, 4].map(|i| card(2 * players + i));
    let config = TableConfig::new(1, 2, 0)?;
    let button = rng.below(players as u32) as usize;
    let mut hand = NlHand::new(config, &vec![200; players], button, &hole, board)?;
    while let Some(legal) = hand.legal() {
        let roll = rng.below(10);
        let action = if legal.raise && roll < 2 {
            let span = (legal.max_raise_to - legal.min_raise_to).min(20);
            Action::RaiseTo(legal.min_raise_to + rng.below(span as u32 + 1) as u64)
        } else if legal.fold && roll == 9 {
            Action::Fold
        } else if legal.check {
            Action::Check
        } else {
            Action::Call
        };
        hand.apply(action)?;
    }
    Ok(write_phh(&hand, Some(seed)))
}

/// Whether `text` is a `cardvec ladder --jsonl` log (its first line a [`cardvec::ladder::LadderSpec`] header,
/// with its `ladder` version field) rather than a `cardvec arena ladder` log.
fn is_game_ladder_log(text: &str) -> bool {
    text.lines()
        .find(|l| !l.trim().is_empty())
        .and_then(|l| serde_json::from_str::<Value>(l).ok())
        .is_some_and(|v| v.get("ladder").is_some() && v.get("bots").is_some())
}

/// The standings of a `cardvec ladder --jsonl` log of any game (complete or not), in the
/// chart's shape: as [`ladder`], the win rates being each pair's score (games finished
/// above the other, ties half) and the ratings the log's Bradley–Terry / Plackett–Luce fit
/// with their 95% intervals.
fn game_ladder(text: &str) -> Result<Value> {
    let (spec, records) = cardvec::ladder::read_log(text)?;
    if records.is_empty() {
        return Err(Error::Invalid {
            what: "ladder log",
            reason: "no unit line".into(),
        });
    }
    let report = cardvec::ladder::report(&spec, &records)?;
    let fitted: Option<Vec<Rating>> = report.bots.iter().map(|b| b.rating).collect();
    let ratings = match fitted {
        Some(r) => r,
        None => {
            return Err(Error::Invalid {
                what: "ladder log",
                reason: format!(
                    "no ratings: {}",
                    report.ratings_error.as_deref().unwrap_or("not fitted")
                ),
            })
        }
    };
    let n = spec.bots.len();
    let mut rate = vec![vec![Value::Null; n]; n];
    let index = |name: &str| spec.bots.iter().position(|b| b == name);
    for p in &report.pairs {
        let (Some(i), Some(j)) = (index(&p.a), index(&p.b)) else {
            continue;
        };
        let s = p.score;
        rate[i][j] = json!({ "rate": s.value, "low": s.low, "high": s.high, "games": p.games });
        rate[j][i] = json!({ "rate": 1.0 - s.value, "low": 1.0 - s.high, "high": 1.0 - s.low, "games": p.games });
    }
    Ok(json!({
        "kind": "ladder",
        "game": spec.game,
        "options": spec.options,
        "seats": spec.seats,
        "model": report.model,
        "games": report.games,
        "units": [report.units_done, report.units],
        "ids": spec.bots,
        "win_rate": rate,
        "elo": ratings.iter().map(|r| r.rating).collect::<Vec<_>>(),
        "elo_low": ratings.iter().map(|r| r.low).collect::<Vec<_>>(),
        "elo_high": ratings.iter().map(|r| r.high).collect::<Vec<_>>(),
    }))
}

/// The standings of a ladder log: a `cardvec arena ladder` log (151, one JSON line per
/// pair) or a `cardvec ladder --jsonl` log of any game (a header, then one line per deal),
/// told apart by the first line. The bots (`ids`), the win rates of every pair (row against
/// column, `null` where they did not meet), the ratings on the Elo scale (`elo`, the first
/// bot at 1000) and, for a game ladder, their 95% intervals (`elo_low`, `elo_high`), the
/// game, its rating model, and the units tallied.
pub fn ladder(text: &str) -> Result<Value> {
    if is_game_ladder_log(text) {
        return game_ladder(text);
    }
    let pairs = read_log(text)?;
    if pairs.is_empty() {
        return Err(Error::Invalid {
            what: "ladder log",
            reason: "no result line".into(),
        });
    }
    let st = Standings::from_pairs(&pairs);
    let n = st.ids().len();
    let rate: Vec<Vec<Value>> = (0..n)
        .map(|i| {
            (0..n)
                .map(|j| match st.win_rate(i, j) {
                    Some(p) if i != j => json!({ "rate": p.rate, "low": p.low, "high": p.high, "games": st.games(i, j) }),
                    _ => Value::Null,
                })
                .collect()
        })
        .collect();
    Ok(json!({
        "kind": "arena", "game": "151", "model": "Bradley-Terry (arena series)",
        "ids": st.ids(), "win_rate": rate, "elo": st.elo(),
    }))
}
