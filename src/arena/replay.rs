//! The 151 arena's JSON replay, in the exact shape of the official `game/recorder.py`
//! ([`Replay`]): its types, reading and writing ([`Replay::from_json`], [`Replay::to_json`]),
//! the readable print ([`format_replay`]), and the recorder the match runner
//! (`super::runner`) fills as it plays.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::runner::{EndReason, MatchConfig, SeatInfo};
use crate::core::{Error, Result};
use crate::games::i151::fast::{FLAG_ACE_EFFECT, FLAG_CHOOSE_SUIT};
use crate::games::i151::*;

/// A replay (official `ReplayLog.to_dict()`), serialized by [`Replay::to_json`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Replay {
    /// Format version (1).
    pub version: u32,
    /// The match seed.
    pub seed: i64,
    /// `target_score` and `cards_per_player`.
    pub config: ReplayConfig,
    /// The two seats.
    pub players: Vec<ReplayPlayer>,
    /// The rounds played (a round with no recorded step is left out, as officially).
    pub rounds: Vec<ReplayRound>,
    /// The outcome.
    pub result: ReplayResult,
}

/// The replay's `config`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReplayConfig {
    /// Exclusion score.
    pub target_score: i64,
    /// Cards dealt per seat.
    pub cards_per_player: u32,
}

/// One seat in the replay.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReplayPlayer {
    /// `p0` or `p1`.
    pub id: String,
    /// Display name.
    pub name: String,
    /// `challenger` or `opponent`.
    pub role: String,
    /// The opponent's catalog id (opponent only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opponent_id: Option<String>,
}

/// One round.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReplayRound {
    /// From 1.
    pub round_number: u32,
    /// The round winner (`null` for a round cut short by a forfeit).
    pub winner_id: Option<String>,
    /// The actions, each with the public snapshot after it.
    pub steps: Vec<ReplayStep>,
}

/// One action.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReplayStep {
    /// The match step index (from 1).
    pub index: u64,
    /// The seat that acted.
    pub player_id: String,
    /// The action.
    pub action: ReplayAction,
    /// The table after the action.
    pub snapshot: Snapshot,
}

/// An action as the official recorder writes it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReplayAction {
    /// `PLAY_CARD`, `DRAW_CARD`, `PASS_TURN`, `CHOOSE_SUIT` (`PLAY_MULTIPLE_CARDS` is never
    /// legal in 0.2.4).
    #[serde(rename = "type")]
    pub kind: String,
    /// The card played (`"7H"`).
    pub card: Option<String>,
    /// Several cards (never in 0.2.4).
    pub cards: Option<Vec<String>>,
    /// The announced suit (`"S"`, `"H"`, `"D"`, `"C"`).
    pub chosen_suit: Option<String>,
}

/// The table part of a snapshot.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableSnapshot {
    /// The last three cards of the played pile, oldest first.
    pub recent_cards: Vec<String>,
    /// The cards put down by the last action.
    pub last_play_cards: Vec<String>,
    /// No top card and an empty pile.
    pub table_empty: bool,
    /// The suit imposed by an eight.
    pub required_suit: Option<String>,
    /// The seat to act must announce a suit.
    pub must_choose_suit: bool,
    /// An ace is active.
    pub ace_effect_active: bool,
    /// Cards in the bank.
    pub bank_size: u32,
    /// Cards in the played pile.
    pub played_pile_size: u32,
    /// Cards put down by the last action.
    pub last_play_count: u32,
}

/// The state after one action. Recorded for the post-match viewer: like the official
/// recorder it lists every hand (`hands`, `hand_points`); bots never see a snapshot, only
/// their own view during play.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Snapshot {
    /// The match step index.
    pub step_index: u64,
    /// The seat to act after the action.
    pub current_player_id: String,
    /// The table.
    pub table: TableSnapshot,
    /// Hand sizes by seat.
    pub hands_size: BTreeMap<String, u32>,
    /// Hands by seat, in the engine's order.
    pub hands: BTreeMap<String, Vec<String>>,
    /// Hand points by seat.
    pub hand_points: BTreeMap<String, u32>,
    /// Total scores by seat (before this round's scoring).
    pub scores: BTreeMap<String, i64>,
    /// The opponent's catalog id.
    pub opponent_id: String,
}

/// The replay's `result`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReplayResult {
    /// The match winner.
    pub winner_id: Option<String>,
    /// Final scores by seat.
    pub final_scores: BTreeMap<String, i64>,
    /// `normal`, `forfeit`, `timeout` or `max_steps`.
    pub reason: String,
    /// The seat that forfeited (forfeits only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forfeited_player_id: Option<String>,
}

impl Replay {
    /// The JSON text (compact, UTF-8, like `ReplayLog.to_json()`).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a replay always serializes")
    }

    /// The JSON text, indented by two spaces.
    pub fn to_json_pretty(&self) -> String {
        serde_json::to_string_pretty(self).expect("a replay always serializes")
    }

    /// Parses a replay; any malformed or incomplete text is an [`Error::Invalid`] that says
    /// where.
    pub fn from_json(text: &str) -> Result<Replay> {
        let replay: Replay = serde_json::from_str(text).map_err(|e| Error::Invalid {
            what: "151 replay",
            reason: e.to_string(),
        })?;
        if replay.version != 1 {
            return Err(Error::Invalid {
                what: "151 replay",
                reason: format!("version {} (only version 1 is known)", replay.version),
            });
        }
        if replay.players.len() != 2 {
            return Err(Error::Invalid {
                what: "151 replay",
                reason: format!(
                    "{} {} (2 expected)",
                    replay.players.len(),
                    if replay.players.len() == 1 {
                        "player"
                    } else {
                        "players"
                    }
                ),
            });
        }
        Ok(replay)
    }
}

/// Official card sort key (`sort_hand`): suit by name (clubs, diamonds, hearts, spades),
/// then rank in the engine's order T 9 7 K J Q A 8.
fn sort_key(card: u8) -> (u8, u8) {
    const SUIT_BY_NAME: [u8; 4] = [3, 2, 1, 0];
    const RANK_ORDER: [u8; 8] = [6, 3, 5, 4, 0, 1, 7, 2];
    (
        SUIT_BY_NAME[suit_of(card) as usize],
        RANK_ORDER[rank_of(card) as usize],
    )
}

const SUIT_CODES: [&str; 4] = ["S", "H", "D", "C"];

/// Hands in the official order: the deal order until a seat plays or draws, then sorted.
pub(super) struct HandOrder {
    deal: [Vec<u8>; 2],
    sorted: [bool; 2],
}

impl HandOrder {
    pub(super) fn new(game: &I151, seed: i64, round: u32) -> HandOrder {
        let deck = I151::round_deck(seed, round);
        let dealt = 2 * game.cards_dealt();
        let mut deal = [Vec::new(), Vec::new()];
        for (i, &c) in deck[..dealt].iter().enumerate() {
            deal[i % 2].push(c);
        }
        HandOrder {
            deal,
            sorted: [false; 2],
        }
    }

    /// From now on `seat`'s hand is listed sorted (it played or drew).
    pub(super) fn sort(&mut self, seat: usize) {
        self.sorted[seat] = true;
    }

    pub(super) fn hand(&self, seat: usize, set: u32) -> Vec<u8> {
        if self.sorted[seat] {
            let mut cards: Vec<u8> = (0..DECK_SIZE as u8)
                .filter(|&c| set >> c & 1 != 0)
                .collect();
            cards.sort_by_key(|&c| sort_key(c));
            cards
        } else {
            self.deal[seat]
                .iter()
                .copied()
                .filter(|&c| set >> c & 1 != 0)
                .collect()
        }
    }
}

pub(super) fn replay_action(a: u32) -> ReplayAction {
    let (kind, card, suit) = match a {
        0..32 => ("PLAY_CARD", Some(card_code(a as u8)), None),
        ACTION_DRAW => ("DRAW_CARD", None, None),
        ACTION_PASS => ("PASS_TURN", None, None),
        _ => (
            "CHOOSE_SUIT",
            None,
            Some(SUIT_CODES[(a - ACTION_CHOOSE_SUIT) as usize & 3].to_string()),
        ),
    };
    ReplayAction {
        kind: kind.into(),
        card,
        cards: None,
        chosen_suit: suit,
    }
}

pub(super) fn pid(seat: usize) -> String {
    format!("p{seat}")
}

fn codes(cards: &[u8]) -> Vec<String> {
    cards.iter().map(|&c| card_code(c)).collect()
}

pub(super) fn snapshot(s: &I151State, order: &HandOrder, step: u64, opponent_id: &str) -> Snapshot {
    let pile = s.played_pile();
    let recent = &pile[pile.len().saturating_sub(3)..];
    let last = s.last_play_count as usize;
    let last_play = if last == 0 || pile.is_empty() {
        &pile[..0]
    } else {
        &pile[pile.len().saturating_sub(last)..]
    };
    let mut hands_size = BTreeMap::new();
    let mut hands = BTreeMap::new();
    let mut points = BTreeMap::new();
    let mut scores = BTreeMap::new();
    for p in 0..2 {
        hands_size.insert(pid(p), s.hands[p].count_ones());
        hands.insert(pid(p), codes(&order.hand(p, s.hands[p])));
        points.insert(pid(p), hand_points(s.hands[p]));
        scores.insert(pid(p), s.scores[p] as i64);
    }
    Snapshot {
        step_index: step,
        current_player_id: pid(s.to_act as usize),
        table: TableSnapshot {
            recent_cards: codes(recent),
            last_play_cards: codes(last_play),
            table_empty: s.top == NO_CARD && s.pile_len == 0,
            required_suit: s
                .required_suit()
                .map(|x| SUIT_CODES[x as usize & 3].to_string()),
            must_choose_suit: s.flags & FLAG_CHOOSE_SUIT != 0,
            ace_effect_active: s.flags & FLAG_ACE_EFFECT != 0,
            bank_size: s.bank_len() as u32,
            played_pile_size: s.pile_len as u32,
            last_play_count: s.last_play_count as u32,
        },
        hands_size,
        hands,
        hand_points: points,
        scores,
        opponent_id: opponent_id.to_string(),
    }
}

/// Builds the replay as the official `MatchRecorder` does.
pub(super) struct Recorder {
    pub(super) rounds: Vec<ReplayRound>,
    pub(super) current: Option<ReplayRound>,
}

impl Recorder {
    pub(super) fn start_round(&mut self, round_number: u32) {
        if let Some(r) = self.current.take() {
            if !r.steps.is_empty() {
                self.rounds.push(r);
            }
        }
        self.current = Some(ReplayRound {
            round_number,
            winner_id: None,
            steps: Vec::new(),
        });
    }

    pub(super) fn end_round(&mut self, winner: Option<String>) {
        if let Some(mut r) = self.current.take() {
            r.winner_id = winner;
            self.rounds.push(r);
        }
    }

    pub(super) fn finish(mut self) -> Vec<ReplayRound> {
        if let Some(r) = self.current.take() {
            if !r.steps.is_empty() {
                self.rounds.push(r);
            }
        }
        self.rounds
    }
}

#[allow(clippy::too_many_arguments)]
pub(super) fn build_replay(
    config: &MatchConfig,
    seats: &[SeatInfo; 2],
    opponent_id: &str,
    rounds: Vec<ReplayRound>,
    winner: Option<usize>,
    final_scores: [i64; 2],
    reason: EndReason,
    forfeited: Option<usize>,
) -> Replay {
    Replay {
        version: 1,
        seed: config.seed,
        config: ReplayConfig {
            target_score: config.target_score,
            cards_per_player: config.cards_per_player,
        },
        players: vec![
            ReplayPlayer {
                id: pid(0),
                name: seats[0].name.clone(),
                role: "challenger".into(),
                opponent_id: None,
            },
            ReplayPlayer {
                id: pid(1),
                name: seats[1].name.clone(),
                role: "opponent".into(),
                opponent_id: Some(opponent_id.to_string()),
            },
        ],
        rounds,
        result: ReplayResult {
            winner_id: winner.map(pid),
            final_scores: (0..2).map(|p| (pid(p), final_scores[p])).collect(),
            reason: reason.as_str().into(),
            forfeited_player_id: forfeited.map(pid),
        },
    }
}

/// Prints a replay readably: one line per action, round results and the outcome.
pub fn format_replay(r: &Replay) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let name = |id: &str| {
        r.players
            .iter()
            .find(|p| p.id == id)
            .map_or(id.to_string(), |p| format!("{} ({id})", p.name))
    };
    let _ = writeln!(
        out,
        "151 replay v{}: seed {}, target {}, {} cards each",
        r.version, r.seed, r.config.target_score, r.config.cards_per_player
    );
    for p in &r.players {
        let _ = writeln!(
            out,
            "  {} {} [{}]{}",
            p.id,
            p.name,
            p.role,
            p.opponent_id
                .as_ref()
                .map_or(String::new(), |o| format!(" {o}"))
        );
    }
    for round in &r.rounds {
        let _ = writeln!(
            out,
            "round {} ({} actions)",
            round.round_number,
            round.steps.len()
        );
        for st in &round.steps {
            let a = &st.action;
            let what = match a.kind.as_str() {
                "PLAY_CARD" => format!("plays {}", a.card.as_deref().unwrap_or("?")),
                "DRAW_CARD" => "draws".to_string(),
                "PASS_TURN" => "passes".to_string(),
                "CHOOSE_SUIT" => format!("announces {}", a.chosen_suit.as_deref().unwrap_or("?")),
                other => other.to_string(),
            };
            let t = &st.snapshot.table;
            let hands: Vec<String> = st
                .snapshot
                .hands
                .iter()
                .map(|(p, h)| format!("{p}:[{}]", h.join(" ")))
                .collect();
            let _ = writeln!(
                out,
                "  #{:<4} {} {:<14} table [{}]{}{}{} bank {} pile {}  {}",
                st.index,
                st.player_id,
                what,
                t.recent_cards.join(" "),
                t.required_suit
                    .as_ref()
                    .map_or(String::new(), |s| format!(" suit {s}")),
                if t.ace_effect_active { " ace!" } else { "" },
                if t.must_choose_suit {
                    " choose-suit"
                } else {
                    ""
                },
                t.bank_size,
                t.played_pile_size,
                hands.join(" ")
            );
        }
        if let Some(w) = &round.winner_id {
            let _ = writeln!(out, "  round won by {}", name(w));
        }
    }
    let res = &r.result;
    let scores: Vec<String> = res
        .final_scores
        .iter()
        .map(|(p, s)| format!("{p}={s}"))
        .collect();
    let _ = writeln!(
        out,
        "result: {} ({}{}); final scores {}",
        res.winner_id
            .as_deref()
            .map_or("no winner".to_string(), name),
        res.reason,
        res.forfeited_player_id
            .as_ref()
            .map_or(String::new(), |f| format!(", forfeited by {f}")),
        scores.join(" ")
    );
    out
}
