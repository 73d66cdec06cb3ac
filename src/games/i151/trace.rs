//! The oracle trace: matches played by the fast engine under a random policy ([`trace_policy`]),
//! written as JSON lines that `python/tests/i151_oracle.py` replays in i151-engine 0.2.4,
//! comparing every decision point.
//!
//! Lines: a header `{"match": seed, "players": n, "cpp": c, "dealer": d}`; one line per
//! decision with the full state before the action and the action `a` (card ids, seats and
//! suits as in [`super`]); an end line `{"end": true, "winner": w, "scores": [...],
//! "rounds": r}`.

use std::fmt::Write as _;
use std::io::{self, Write};

use super::fast::{I151State, FLAG_ACE_EFFECT, FLAG_CHOOSE_SUIT, FLAG_SKIP_NEXT};
use super::*;
use crate::core::policy::random_legal;
use crate::core::{Game, LaneRng};

/// Which matches a trace holds.
#[derive(Clone, Debug)]
pub struct TraceConfig {
    /// Number of matches.
    pub matches: u64,
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
        let max = N_CARDS / players;
        game = game
            .with_cards_per_player(1 + ((i / 5) as usize % max))
            .expect("in range");
    }
    game.with_initial_dealer((i / 3) as usize % players)
        .expect("in range")
        .with_max_round_steps(0)
}

fn list<T: std::fmt::Display>(out: &mut String, items: impl IntoIterator<Item = T>) {
    out.push('[');
    for (i, x) in items.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let _ = write!(out, "{x}");
    }
    out.push(']');
}

fn opt(value: u8) -> String {
    if value == NONE {
        "null".into()
    } else {
        value.to_string()
    }
}

/// Appends the JSON of the state before `action` to `out` (no newline).
pub fn state_line(game: &I151, s: &I151State, action: u32, out: &mut String) {
    let n = game.num_players();
    let bits = |set: u32| (0..32u8).filter(move |&c| set >> c & 1 != 0);
    let _ = write!(out, "{{\"cp\":{},\"legal\":", s.current);
    let legal = game.legal_bits(s);
    list(out, (0..N_ACTIONS as u32).filter(|&a| legal >> a & 1 != 0));
    out.push_str(",\"hands\":[");
    for p in 0..n {
        if p > 0 {
            out.push(',');
        }
        list(out, bits(s.hands[p]));
    }
    out.push_str("],\"bank\":");
    list(out, s.bank().iter());
    out.push_str(",\"pile\":");
    list(out, s.played_pile().iter());
    let flag = |f: u8| s.flags & f != 0;
    let _ = write!(
        out,
        ",\"top\":{},\"req\":{},\"choose\":{},\"ace\":{},\"skip\":{},\"drawn\":",
        opt(s.top),
        opt(s.required_suit),
        flag(FLAG_CHOOSE_SUIT),
        flag(FLAG_ACE_EFFECT),
        flag(FLAG_SKIP_NEXT)
    );
    list(out, (0..n).map(|p| s.drawn >> p & 1 != 0));
    out.push_str(",\"chain\":");
    list(out, (0..n).map(|p| s.chaining >> p & 1 != 0));
    let _ = write!(out, ",\"lpc\":{},\"scores\":", s.last_play_count);
    list(out, s.scores[..n].iter());
    out.push_str(",\"consec\":");
    list(out, s.consecutive[..n].iter());
    out.push_str(",\"excl\":");
    list(out, (0..n).map(|p| s.is_excluded(p)));
    let _ = write!(
        out,
        ",\"round\":{},\"dealer\":{},\"a\":{action}}}",
        s.round_number, s.dealer
    );
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
    let mut line = String::with_capacity(1024);
    let mut mask = [0u8; N_ACTIONS];
    for i in 0..config.matches {
        let game = trace_game(config, i);
        let seed = config.first_seed.wrapping_add(i as i64);
        let mut s = game.reset_with_match_seed(seed);
        let mut policy = LaneRng::for_lane(config.policy_seed, i, 0);
        let mut rewards = [0f32; MAX_PLAYERS];
        writeln!(
            out,
            "{{\"match\":{seed},\"players\":{},\"cpp\":{},\"dealer\":{}}}",
            game.num_players(),
            game.cards_per_player(),
            game.initial_dealer()
        )?;
        while !s.is_over() {
            game.legal_mask(&s, &mut mask);
            let action = trace_policy(&mask, &mut policy);
            line.clear();
            state_line(&game, &s, action, &mut line);
            writeln!(out, "{line}")?;
            let outcome = game.step(&mut s, action, &mut policy, &mut rewards[..game.num_players()]);
            debug_assert!(outcome.applied);
            summary.decisions += 1;
        }
        line.clear();
        let _ = write!(
            line,
            "{{\"end\":true,\"winner\":{},\"scores\":",
            opt(s.winner)
        );
        list(&mut line, s.scores[..game.num_players()].iter());
        let _ = write!(line, ",\"rounds\":{}}}", s.round_number);
        writeln!(out, "{line}")?;
        summary.matches += 1;
        summary.rounds += s.round_number as u64;
    }
    Ok(summary)
}
