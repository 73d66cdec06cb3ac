//! The oracle trace: matches played by the fast engine under a random policy ([`trace_policy`]),
//! written as JSON lines that `python/tests/i151_oracle.py` replays in i151-engine 0.2.4,
//! comparing every decision point.
//!
//! Lines (serde structs, one per kind): a header `{"match": seed, "players": n, "cpp": c,
//! "dealer": d}`; one line per decision with the full state before the action and the
//! action `a` (card ids, seats and suits as in [`super`]); an end line `{"end": true,
//! "winner": w, "scores": [...], "rounds": r}`.

use std::io::{self, Write};

use serde::Serialize;

use super::fast::{I151State, FLAG_ACE_EFFECT, FLAG_CHOOSE_SUIT, FLAG_SKIP_NEXT};
use super::*;
use crate::core::policy::random_legal;
use crate::core::{Game, LaneRng};

/// Which matches a trace holds.
#[derive(Clone, Debug)]
pub struct TraceConfig {
    /// Number of matches.
    pub matches: u64,
    /// Index of the first match: the trace holds matches `first..first + matches`.
    pub first: u64,
    /// Match `i` has seed `first_seed + i`.
    pub first_seed: i64,
    /// Seat counts used in turn (empty: 2, 3, 4 in turn).
    pub players: Vec<usize>,
    /// Seed of the random legal policy.
    pub policy_seed: u64,
}

/// The configuration of match `i`: its seats, and every fifth match a deal size other than
/// 8 and a first dealer other than seat 0 in turn.
pub fn trace_game(config: &TraceConfig, i: u64) -> I151 {
    let players = if config.players.is_empty() {
        2 + (i % 3) as usize
    } else {
        config.players[(i % config.players.len() as u64) as usize]
    };
    let mut game = I151::new(players).expect("2..=4 seats");
    if i % 5 == 4 {
        let max = DECK_SIZE / players;
        game = game
            .with_cards_per_player(1 + ((i / 5) as usize % max))
            .expect("in range");
    }
    game.with_initial_dealer((i / 3) as usize % players)
        .expect("in range")
        .with_max_round_steps(0)
}

/// The header line of a match.
#[derive(Serialize)]
struct MatchHeader {
    #[serde(rename = "match")]
    seed: i64,
    players: usize,
    cpp: usize,
    dealer: usize,
}

/// One decision: the state before the action, and the action `a`.
#[derive(Serialize)]
struct DecisionLine {
    cp: u8,
    legal: Vec<u32>,
    hands: Vec<Vec<u8>>,
    bank: Vec<u8>,
    pile: Vec<u8>,
    top: Option<u8>,
    req: Option<u8>,
    choose: bool,
    ace: bool,
    skip: bool,
    drawn: Vec<bool>,
    chain: Vec<bool>,
    lpc: u8,
    scores: Vec<i16>,
    consec: Vec<u8>,
    excl: Vec<bool>,
    round: u16,
    dealer: u8,
    a: u32,
}

/// The last line of a match.
#[derive(Serialize)]
struct EndLine {
    end: bool,
    winner: Option<u8>,
    scores: Vec<i16>,
    rounds: u16,
}

impl DecisionLine {
    /// The state `s` before `action`.
    fn new(game: &I151, s: &I151State, action: u32) -> DecisionLine {
        let n = game.num_players();
        let cards = |set: u32| (0..32u8).filter(|&c| set >> c & 1 != 0).collect();
        let seats = |bits: u8| (0..n).map(|p| bits >> p & 1 != 0).collect();
        let legal = game.legal_bits(s);
        let flag = |f: u8| s.flags & f != 0;
        DecisionLine {
            cp: s.to_act,
            legal: (0..N_ACTIONS as u32)
                .filter(|&a| legal >> a & 1 != 0)
                .collect(),
            hands: s.hands[..n].iter().map(|&h| cards(h)).collect(),
            bank: s.bank().to_vec(),
            pile: s.played_pile().to_vec(),
            top: s.top_card(),
            req: s.required_suit(),
            choose: flag(FLAG_CHOOSE_SUIT),
            ace: flag(FLAG_ACE_EFFECT),
            skip: flag(FLAG_SKIP_NEXT),
            drawn: seats(s.drawn),
            chain: seats(s.chaining),
            lpc: s.last_play_count,
            scores: s.scores[..n].to_vec(),
            consec: s.consecutive[..n].to_vec(),
            excl: (0..n).map(|p| s.is_excluded(p)).collect(),
            round: s.round_number,
            dealer: s.dealer,
            a: action,
        }
    }
}

fn json_line<W: Write, T: Serialize>(out: &mut W, value: &T) -> io::Result<()> {
    serde_json::to_writer(&mut *out, value)?;
    out.write_all(b"\n")
}

/// The policy of the trace: three times in four a uniformly random card play or suit
/// choice when there is one, else a uniformly random legal action (draws and passes
/// included), which keeps random matches a few hundred decisions long.
pub fn trace_policy(mask: &[u8; N_ACTIONS], rng: &mut LaneRng) -> u32 {
    if rng.below(4) != 0 {
        let mut plays = *mask;
        plays[ACTION_DRAW as usize] = 0;
        plays[ACTION_PASS as usize] = 0;
        let action = random_legal(&plays, rng);
        if action != u32::MAX {
            return action;
        }
    }
    random_legal(mask, rng)
}

/// Totals of a written trace.
#[derive(Clone, Copy, Debug, Default)]
pub struct TraceSummary {
    /// Matches written.
    pub matches: u64,
    /// Decisions written.
    pub decisions: u64,
    /// Rounds played.
    pub rounds: u64,
}

/// Plays and writes the matches of `config`.
pub fn write_trace<W: Write>(config: &TraceConfig, out: &mut W) -> io::Result<TraceSummary> {
    let mut summary = TraceSummary::default();
    let mut mask = [0u8; N_ACTIONS];
    for i in config.first..config.first.saturating_add(config.matches) {
        let game = trace_game(config, i);
        let n = game.num_players();
        let seed = config.first_seed.wrapping_add(i as i64);
        let mut s = game.reset_with_match_seed(seed);
        let mut policy = LaneRng::for_lane(config.policy_seed, i, 0);
        let mut rewards = [0f32; MAX_PLAYERS];
        json_line(
            out,
            &MatchHeader {
                seed,
                players: n,
                cpp: game.cards_per_player(),
                dealer: game.initial_dealer(),
            },
        )?;
        while !s.is_over() {
            game.legal_mask(&s, &mut mask);
            let action = trace_policy(&mask, &mut policy);
            json_line(out, &DecisionLine::new(&game, &s, action))?;
            let outcome = game.step(&mut s, action, &mut policy, &mut rewards[..n]);
            debug_assert!(outcome.applied);
            summary.decisions += 1;
        }
        json_line(
            out,
            &EndLine {
                end: true,
                winner: s.winner().map(|w| w as u8),
                scores: s.scores[..n].to_vec(),
                rounds: s.round_number,
            },
        )?;
        summary.matches += 1;
        summary.rounds += s.round_number as u64;
    }
    Ok(summary)
}
