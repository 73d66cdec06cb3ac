//! Random hands as JSON lines for the pokerkit differential test
//! (`python/tests/test_holdem_pokerkit.py`).
//!
//! One line per hand ([`TracedHand`] through serde), every seat in cardvec's numbering (the
//! replay maps seat `s` to pokerkit's player index with [`super::pokerkit_index`]):
//!
//! ```text
//! {"hand":i,"seats":n,"button":b,"sb":1,"bb":2,"ante":0,"stacks":[...],
//!  "hole":["AsKd",...],"board":"2c7d9hJs3c",
//!  "decisions":[{"seat":s,"fold":true,"check":false,"call":2,"raise":true,"min":4,"max":100,
//!                "action":"f"|"x"|"c"|"r40"}, ...],
//!  "pots":[{"amount":30,"eligible":[0,2]}, ...],"final":[...],"showdown":true}
//! ```
//!
//! The configuration (seats, blinds, ante, random stacks with many short ones, button) and
//! the actions (a mix of fold, check/call, minimum raise, random raise size and all-in) are
//! drawn from the seeded stream of the hand, so a trace is reproducible.

use std::io::{self, Write};

use serde::Serialize;

use super::{Action, Chips, Legal, NlHand, TableConfig, DECK_SIZE};
use crate::core::{LaneRng, Result};
use crate::poker::cards::Card;

/// Which hands a trace holds.
#[derive(Clone, Debug)]
pub struct TraceConfig {
    /// Number of hands.
    pub hands: u64,
    /// Index of the first hand: the trace holds hands `first..first + hands`.
    pub first: u64,
    /// Player counts, used in turn.
    pub players: Vec<usize>,
    /// Seed: hand `i` draws from stream `(seed, i, 0)`.
    pub seed: u64,
}

/// Totals of a written trace.
#[derive(Clone, Copy, Debug, Default)]
pub struct TraceSummary {
    /// Hands written.
    pub hands: u64,
    /// Decisions written.
    pub decisions: u64,
    /// Hands that reached a showdown.
    pub showdowns: u64,
}

/// A random table and deal for hand `i` of `num_players` seats: blinds, ante, stacks (a
/// third of them short, a few below the ante or the big blind), button and cards.
pub fn random_hand(num_players: usize, rng: &mut LaneRng) -> Result<NlHand> {
    let bb: Chips = [2, 2, 3, 10, 25, 100][rng.below(6) as usize];
    // The small blind is below the big blind: with equal blinds heads-up, pokerkit lets the
    // big blind act first before the flop (see docs/holdem.md), cardvec the button.
    let sb: Chips = if rng.below(4) == 0 {
        1 + rng.below(bb as u32 - 1) as Chips
    } else {
        (bb / 2).max(1)
    };
    let ante: Chips = match rng.below(5) {
        0 | 1 => 1 + rng.below(bb as u32) as Chips,
        _ => 0,
    };
    let stacks: Vec<Chips> = (0..num_players)
        .map(|_| match rng.below(6) {
            0 => 1 + rng.below((2 * bb + ante) as u32) as Chips,
            1 | 2 => 1 + rng.below((12 * bb) as u32) as Chips,
            _ => 1 + rng.below((200 * bb) as u32) as Chips,
        })
        .collect();
    let button = rng.below(num_players as u32) as usize;
    let mut deck: Vec<u8> = (0..DECK_SIZE as u8).collect();
    rng.shuffle(&mut deck);
    let card = |i: usize| Card::from_id(deck[i]).expect("id < 52");
    let hole: Vec<[Card; 2]> = (0..num_players)
        .map(|s| [card(2 * s), card(2 * s + 1)])
        .collect();
    let board = [0, 1, 2, 3, 4].map(|k| card(2 * num_players + k));
    NlHand::new(
        TableConfig::new(sb, bb, ante)?,
        &stacks,
        button,
        &hole,
        board,
    )
}

/// The trace policy: a legal action mixing fold, check/call, minimum raise, random raise
/// sizes and all-in.
pub fn random_action(legal: &Legal, rng: &mut LaneRng) -> Action {
    loop {
        let action = match rng.below(20) {
            0..=2 => Action::Fold,
            3..=10 => {
                if legal.check {
                    Action::Check
                } else {
                    Action::Call
                }
            }
            11..=13 => Action::RaiseTo(legal.min_raise_to),
            14..=17 => {
                let span = (legal.max_raise_to - legal.min_raise_to).min(u32::MAX as u64 - 1);
                let r = rng.below(span as u32 + 1) as u64;
                // Mostly small raises: square the uniform draw's fraction.
                Action::RaiseTo(
                    legal.min_raise_to + (r as u128 * r as u128 / span.max(1) as u128) as u64,
                )
            }
            _ => Action::AllIn,
        };
        if legal.allows(action) {
            return action;
        }
    }
}

fn cards(cs: &[Card]) -> String {
    cs.iter().map(|c| c.to_string()).collect()
}

fn action_code(action: Action) -> String {
    match action {
        Action::Fold => "f".into(),
        Action::Check => "x".into(),
        Action::Call => "c".into(),
        Action::RaiseTo(to) => format!("r{to}"),
        Action::AllIn => "a".into(),
    }
}

/// One hand of the trace (one JSON line).
#[derive(Serialize)]
pub struct TracedHand {
    hand: u64,
    seats: usize,
    button: usize,
    sb: Chips,
    bb: Chips,
    ante: Chips,
    stacks: Vec<Chips>,
    hole: Vec<String>,
    board: String,
    decisions: Vec<TracedDecision>,
    pots: Vec<TracedPot>,
    #[serde(rename = "final")]
    final_stacks: Vec<Chips>,
    showdown: bool,
}

/// A decision: what the seat was offered, and the action taken.
#[derive(Serialize)]
struct TracedDecision {
    seat: usize,
    fold: bool,
    check: bool,
    call: Chips,
    raise: bool,
    min: Chips,
    max: Chips,
    action: String,
}

/// A pot at the end of the hand.
#[derive(Serialize)]
struct TracedPot {
    amount: Chips,
    eligible: Vec<usize>,
}

impl TracedHand {
    /// Decisions in the hand.
    pub fn decisions(&self) -> u64 {
        self.decisions.len() as u64
    }

    /// Whether the hand reached a showdown.
    pub fn showdown(&self) -> bool {
        self.showdown
    }
}

/// Plays hand `index` of `config`.
pub fn trace_hand(config: &TraceConfig, index: u64) -> Result<TracedHand> {
    let seats = config.players[(index % config.players.len() as u64) as usize];
    let mut rng = LaneRng::for_lane(config.seed, index, 0);
    let mut hand = random_hand(seats, &mut rng)?;
    let mut decisions = Vec::new();
    while let Some(legal) = hand.legal() {
        hand.apply(random_action(&legal, &mut rng))?;
        let action = hand.history().last().expect("just applied").1;
        decisions.push(TracedDecision {
            seat: legal.seat,
            fold: legal.fold,
            check: legal.check,
            call: legal.call_amount,
            raise: legal.raise,
            min: legal.min_raise_to,
            max: legal.max_raise_to,
            action: action_code(action),
        });
    }
    let c = hand.config();
    Ok(TracedHand {
        hand: index,
        seats,
        button: hand.button(),
        sb: c.small_blind,
        bb: c.big_blind,
        ante: c.ante,
        stacks: hand.starting_stacks().to_vec(),
        hole: hand.hole_cards().iter().map(|h| cards(h)).collect(),
        board: cards(&hand.full_board()),
        decisions,
        pots: hand
            .final_pots()
            .iter()
            .map(|p| TracedPot {
                amount: p.amount,
                eligible: p.eligible.clone(),
            })
            .collect(),
        final_stacks: hand.stacks().to_vec(),
        showdown: hand.folded().iter().filter(|&&f| !f).count() > 1,
    })
}

/// Writes `config.hands` hands as JSON lines to `w`.
pub fn write_trace<W: Write>(config: &TraceConfig, w: &mut W) -> io::Result<TraceSummary> {
    let mut summary = TraceSummary::default();
    for i in config.first..config.first.saturating_add(config.hands) {
        let hand = trace_hand(config, i)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e.to_string()))?;
        serde_json::to_writer(&mut *w, &hand)?;
        w.write_all(b"\n")?;
        summary.hands += 1;
        summary.decisions += hand.decisions();
        summary.showdowns += hand.showdown() as u64;
    }
    Ok(summary)
}

/// Plays the hands of `config` like [`write_trace`] and writes each as a PHH file
/// `hand_{i:06}.phh` in `dir` (which must exist).
pub fn write_phh_files(config: &TraceConfig, dir: &std::path::Path) -> io::Result<TraceSummary> {
    let mut summary = TraceSummary::default();
    for i in config.first..config.first.saturating_add(config.hands) {
        let seats = config.players[(i % config.players.len() as u64) as usize];
        let mut rng = LaneRng::for_lane(config.seed, i, 0);
        let mut hand = random_hand(seats, &mut rng)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e.to_string()))?;
        while let Some(legal) = hand.legal() {
            hand.apply(random_action(&legal, &mut rng))
                .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e.to_string()))?;
            summary.decisions += 1;
        }
        summary.hands += 1;
        summary.showdowns += hand.went_to_showdown() as u64;
        let text = super::phh::write_phh(&hand, Some(i));
        std::fs::write(dir.join(format!("hand_{i:06}.phh")), text)?;
    }
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chips_are_conserved_over_random_hands() {
        for i in 0..3000u64 {
            let seats = [2, 3, 6, 10][(i % 4) as usize];
            let mut rng = LaneRng::for_lane(42, i, 0);
            let mut hand = random_hand(seats, &mut rng).unwrap();
            let total: u64 = hand.starting_stacks().iter().sum();
            while let Some(legal) = hand.legal() {
                assert_eq!(hand.stacks().iter().sum::<u64>() + hand.pot_total(), total);
                hand.apply(random_action(&legal, &mut rng)).unwrap();
            }
            assert_eq!(hand.stacks().iter().sum::<u64>(), total);
            assert_eq!(hand.net().iter().sum::<i64>(), 0);
        }
    }
}
