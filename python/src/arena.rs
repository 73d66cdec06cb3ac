//! The i151 arena from Python: a student's `decide(view, legal_actions, time_left_ms)` plays
//! catalog bots through cardvec's match runner. The view and the legal actions reach the
//! student as the i151 SDK's own objects: this module hands the Python adapter
//! (`cardvec/arena.py`) a plain description of them, and the adapter builds
//! `i151_engine`'s `PlayerView` and `Action`s, calls `decide` under the time limit and
//! answers an action id. Matches run on the wall clock with the official time limits.
//!
//! A bot's ordinary exception (a subclass of `Exception`) forfeits it, as officially; an
//! exception that is not an `Exception` (`KeyboardInterrupt`, `SystemExit`, `GeneratorExit`)
//! stops the match and propagates to the caller. A match between catalog bots runs without
//! the GIL and stops on Ctrl-C (see `interrupt`).

use cardvec::arena::catalog;
use cardvec::arena::replay::Replay;
use cardvec::arena::runner::{
    play_match, ArenaBot, BotFailure, Clock, Decision, MatchConfig, MatchResult, PolicyBot,
};
use cardvec::core::{Error as CoreError, LaneRng, StopFlag};
use cardvec::games::i151::{self, card_code, ACTION_DRAW, ACTION_PASS, I151};
use pyo3::exceptions::{PyException, PyTimeoutError};

use crate::args;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::interrupt;

fn core_err(e: CoreError) -> PyErr {
    crate::errors::core_err(e)
}

/// A Python callable as an arena bot: `adapter(view: dict, legal: list[int],
/// time_left_ms: int) -> int` (an action id; the adapter raises `TimeoutError` when the
/// bot ran out of time).
struct PyBot<'py> {
    adapter: Bound<'py, PyAny>,
    /// An exception that must stop the match rather than forfeit the bot
    /// (`KeyboardInterrupt`, `SystemExit`, ...), raised again by the caller of the match.
    interrupt: Option<PyErr>,
}

impl PyBot<'_> {
    /// What a Python exception means for the match: an `Exception` forfeits the bot
    /// (`TimeoutError` as a timeout); any other `BaseException` stops the match.
    fn failure(&mut self, e: PyErr) -> BotFailure {
        let py = self.adapter.py();
        if e.is_instance_of::<PyTimeoutError>(py) {
            BotFailure::Timeout
        } else if e.is_instance_of::<PyException>(py) {
            BotFailure::Error(e.to_string())
        } else {
            self.interrupt = Some(e);
            BotFailure::Interrupted
        }
    }
}

/// A bot that stops the match once `stop` is raised (Ctrl-C while catalog bots play).
struct Stoppable<'a, B> {
    bot: B,
    stop: &'a StopFlag,
}

impl<B: ArenaBot> ArenaBot for Stoppable<'_, B> {
    fn decide(&mut self, game: &I151, d: &Decision<'_>) -> Result<u32, BotFailure> {
        if self.stop.is_stopped() {
            return Err(BotFailure::Interrupted);
        }
        self.bot.decide(game, d)
    }
}

fn codes(cards: &[u8]) -> Vec<String> {
    cards.iter().map(|&c| card_code(c)).collect()
}

fn suit_code(s: Option<u8>) -> Option<&'static str> {
    s.map(|x| ["S", "H", "D", "C"][x as usize & 3])
}

/// The official `PlayerView` as nested dicts (field names as in `i151_engine.view`).
fn view_dict<'py>(py: Python<'py>, d: &Decision<'_>) -> PyResult<Bound<'py, PyDict>> {
    let v = d.view;
    let seat = v.seat as usize;
    let n = v.num_players as usize;
    let cur = v.current_player as usize;
    let you = PyDict::new(py);
    you.set_item("player_id", &d.seats[seat].player_id)?;
    you.set_item("hand", codes(d.hand))?;
    you.set_item("hand_size", d.hand.len())?;
    you.set_item("hand_points", v.hand_points)?;
    you.set_item("total_score", v.seats[seat].total_score)?;
    you.set_item("is_excluded", v.seats[seat].is_excluded)?;
    you.set_item("has_drawn_this_turn", v.current_has_drawn && cur == seat)?;
    you.set_item("is_chaining", v.current_is_chaining && cur == seat)?;
    you.set_item(
        "consecutive_round_wins",
        v.seats[seat].consecutive_round_wins,
    )?;
    let opponents = PyList::empty(py);
    for p in (0..n).filter(|&p| p != seat) {
        let o = PyDict::new(py);
        let turns = if p == cur { 0 } else { (p + n - cur) % n };
        o.set_item("player_id", &d.seats[p].player_id)?;
        o.set_item("seat_index", p)?;
        o.set_item("opponent_id", &d.seats[p].spec_id)?;
        o.set_item("name", &d.seats[p].name)?;
        o.set_item("tier", py.None())?;
        o.set_item("hand_size", v.seats[p].hand_size)?;
        o.set_item("total_score", v.seats[p].total_score)?;
        o.set_item("is_excluded", v.seats[p].is_excluded)?;
        o.set_item("consecutive_round_wins", v.seats[p].consecutive_round_wins)?;
        o.set_item("turns_until_next", turns)?;
        o.set_item("is_next_to_play", turns == 1)?;
        opponents.append(o)?;
    }
    let recent = &v.recent_cards[..v.recent_len as usize];
    let last = if v.last_play_count == 0 || v.played_pile_size == 0 {
        &recent[..0]
    } else {
        &recent[recent.len().saturating_sub(v.last_play_count as usize)..]
    };
    let table = PyDict::new(py);
    table.set_item("recent_cards", codes(recent))?;
    table.set_item("last_play_cards", codes(last))?;
    table.set_item("table_empty", v.table_empty)?;
    table.set_item("required_suit", suit_code(v.required_suit))?;
    table.set_item("must_choose_suit", v.must_choose_suit)?;
    table.set_item("ace_effect_active", v.ace_effect_active)?;
    table.set_item("bank_size", v.bank_size)?;
    table.set_item("played_pile_size", v.played_pile_size)?;
    table.set_item("last_play_count", v.last_play_count)?;
    let turn = PyDict::new(py);
    turn.set_item("is_your_turn", cur == seat)?;
    turn.set_item("can_draw", d.legal_bits >> ACTION_DRAW & 1 != 0)?;
    turn.set_item("can_pass", d.legal_bits >> ACTION_PASS & 1 != 0)?;
    turn.set_item(
        "draw_count_if_draw",
        if v.ace_effect_active { 2 } else { 1 },
    )?;
    turn.set_item("step_index", d.step_index)?;
    turn.set_item("current_player_id", &d.seats[cur].player_id)?;
    turn.set_item("next_player_id", &d.seats[v.next_player as usize].player_id)?;
    turn.set_item("is_chaining", v.current_is_chaining)?;
    let m = PyDict::new(py);
    m.set_item("round_number", v.round_number)?;
    m.set_item("target_score", v.target_score)?;
    m.set_item("you_are_dealer", v.dealer as usize == seat)?;
    m.set_item("player_count", n)?;
    m.set_item(
        "active_player_count",
        (0..n).filter(|&p| !v.seats[p].is_excluded).count(),
    )?;
    m.set_item(
        "seats",
        (0..n)
            .map(|p| d.seats[p].player_id.clone())
            .collect::<Vec<_>>(),
    )?;
    let out = PyDict::new(py);
    out.set_item("you", you)?;
    out.set_item("opponents", opponents)?;
    out.set_item("table", table)?;
    out.set_item("turn", turn)?;
    out.set_item("match", m)?;
    Ok(out)
}

impl ArenaBot for PyBot<'_> {
    fn decide(&mut self, _game: &I151, d: &Decision<'_>) -> Result<u32, BotFailure> {
        let py = self.adapter.py();
        let view = view_dict(py, d).map_err(|e| self.failure(e))?;
        let answer = self.adapter.call1((view, d.legal.to_vec(), d.time_left_ms));
        match answer {
            Ok(a) => match a.extract::<i64>() {
                Ok(id) if (0..i151::N_ACTIONS as i64).contains(&id) => Ok(id as u32),
                // Not an action id: the runner forfeits it as illegal.
                Ok(_) => Ok(u32::MAX),
                Err(e) => Err(self.failure(e)),
            },
            Err(e) => Err(self.failure(e)),
        }
    }
}

/// An optional integer argument in `min..=max` (see `args`), `default` when absent.
fn int_or(
    obj: Option<&Bound<'_, PyAny>>,
    what: &str,
    min: i128,
    max: i128,
    default: i128,
) -> PyResult<i128> {
    match obj {
        Some(o) if !o.is_none() => args::int_in(o, what, min, max),
        _ => Ok(default),
    }
}

/// The match settings from Python, every integer checked by `args` (a bool, a value out
/// of range or of another type is refused, never wrapped): `seed` any 64-bit signed
/// integer, `decision_timeout_ms` in `1..=3600000` (default 1000), `max_steps_per_round`
/// in `1..=1000000` (500), `cards_per_player` in `1..=16` (8), `target_score` in
/// `1..=10000` (151).
fn config(
    seed: &Bound<'_, PyAny>,
    decision_timeout_ms: Option<&Bound<'_, PyAny>>,
    max_steps_per_round: Option<&Bound<'_, PyAny>>,
    cards_per_player: Option<&Bound<'_, PyAny>>,
    target_score: Option<&Bound<'_, PyAny>>,
) -> PyResult<MatchConfig> {
    let seed = args::int_in(seed, "seed", i64::MIN.into(), i64::MAX.into())? as i64;
    let mut c = MatchConfig::new(seed);
    c.decision_timeout_ms = int_or(
        decision_timeout_ms,
        "decision_timeout_ms",
        1,
        3_600_000,
        1000,
    )? as u64;
    c.max_steps_per_round = int_or(
        max_steps_per_round,
        "max_steps_per_round",
        1,
        1_000_000,
        500,
    )? as u32;
    c.cards_per_player = int_or(cards_per_player, "cards_per_player", 1, 16, 8)? as u32;
    c.target_score = int_or(target_score, "target_score", 1, 10_000, 151)? as i64;
    c.game().map_err(core_err)?;
    Ok(c)
}

/// The bots' seed: an integer in `0..=2**64-1` (see `args`), 0 when absent.
fn bot_seed_arg(obj: Option<&Bound<'_, PyAny>>) -> PyResult<u64> {
    Ok(int_or(obj, "bot_seed", 0, u64::MAX.into(), 0)? as u64)
}

fn result_dict<'py>(py: Python<'py>, r: &MatchResult) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(py);
    let pid = |s: usize| format!("p{s}");
    out.set_item("winner_id", r.winner.map(pid))?;
    out.set_item("reason", r.reason.as_str())?;
    out.set_item("forfeited_player_id", r.forfeited.map(pid))?;
    out.set_item("detail", r.detail.clone())?;
    let scores = PyDict::new(py);
    scores.set_item("p0", r.final_scores[0])?;
    scores.set_item("p1", r.final_scores[1])?;
    out.set_item("final_scores", scores)?;
    out.set_item("rounds_played", r.rounds_played)?;
    out.set_item("steps_played", r.steps_played)?;
    out.set_item("replay_json", r.replay.to_json())?;
    Ok(out)
}

/// Plays `adapter` (seat `p0`, the challenger) against catalog bot `opponent_id` (`p1`; or a
/// trained network, `policy:<path>`, checked against the match's rules).
/// Returns a dict: `winner_id`, `reason`, `forfeited_player_id`, `detail`,
/// `final_scores`, `rounds_played`, `steps_played`, `replay_json`. An exception of the
/// adapter that is not an `Exception` (`KeyboardInterrupt`, `SystemExit`) ends the match
/// and is raised again here.
#[pyfunction]
#[pyo3(
    signature = (adapter, opponent_id, seed, *, challenger_name = "Challenger", decision_timeout_ms = None, max_steps_per_round = None, cards_per_player = None, target_score = None, bot_seed = None),
    text_signature = "(adapter, opponent_id, seed, *, challenger_name='Challenger', decision_timeout_ms=1000, max_steps_per_round=500, cards_per_player=8, target_score=151, bot_seed=0)"
)]
#[allow(clippy::too_many_arguments)]
fn play_python_match<'py>(
    py: Python<'py>,
    adapter: Bound<'py, PyAny>,
    opponent_id: &str,
    seed: &Bound<'py, PyAny>,
    challenger_name: &str,
    decision_timeout_ms: Option<&Bound<'py, PyAny>>,
    max_steps_per_round: Option<&Bound<'py, PyAny>>,
    cards_per_player: Option<&Bound<'py, PyAny>>,
    target_score: Option<&Bound<'py, PyAny>>,
    bot_seed: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let cfg = config(
        seed,
        decision_timeout_ms,
        max_steps_per_round,
        cards_per_player,
        target_score,
    )?;
    let (seed, bot_seed) = (cfg.seed, bot_seed_arg(bot_seed)?);
    let name = catalog::display_name(opponent_id).map_err(core_err)?;
    let policy =
        catalog::resolve_in(&cfg.game().map_err(core_err)?, opponent_id).map_err(core_err)?;
    let mut student = PyBot {
        adapter,
        interrupt: None,
    };
    let mut opponent = PolicyBot::new(policy, LaneRng::for_lane(bot_seed, seed as u64, 2));
    let r = play_match(
        &cfg,
        Clock::Wall,
        [&mut student, &mut opponent],
        [challenger_name, &name],
        opponent_id,
    );
    if let Some(e) = student.interrupt.take() {
        return Err(e);
    }
    result_dict(py, &r.map_err(core_err)?)
}

/// Plays catalog bot `challenger_id` (`p0`) against catalog bot `opponent_id` (`p1`; either
/// may be a trained network, `policy:<path>`)
/// through the runner, without the GIL; the same dict as `play_python_match`. Ctrl-C stops
/// the match at the next decision (`KeyboardInterrupt`).
#[pyfunction]
#[pyo3(
    signature = (challenger_id, opponent_id, seed, *, decision_timeout_ms = None, max_steps_per_round = None, bot_seed = None),
    text_signature = "(challenger_id, opponent_id, seed, *, decision_timeout_ms=1000, max_steps_per_round=500, bot_seed=0)"
)]
fn play_catalog_match<'py>(
    py: Python<'py>,
    challenger_id: &str,
    opponent_id: &str,
    seed: &Bound<'py, PyAny>,
    decision_timeout_ms: Option<&Bound<'py, PyAny>>,
    max_steps_per_round: Option<&Bound<'py, PyAny>>,
    bot_seed: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let cfg = config(seed, decision_timeout_ms, max_steps_per_round, None, None)?;
    let (seed, bot_seed) = (cfg.seed, bot_seed_arg(bot_seed)?);
    let a = catalog::display_name(challenger_id).map_err(core_err)?;
    let b = catalog::display_name(opponent_id).map_err(core_err)?;
    let game = cfg.game().map_err(core_err)?;
    // Checked here; the bots are built again on the thread that plays the match.
    catalog::resolve_in(&game, challenger_id).map_err(core_err)?;
    catalog::resolve_in(&game, opponent_id).map_err(core_err)?;
    let r = interrupt::on_thread(py, None, "151 match", |stop| {
        let bot = |id: &str, seat: u64| -> Result<_, CoreError> {
            Ok(Stoppable {
                bot: PolicyBot::new(
                    catalog::resolve_in(&game, id)?,
                    LaneRng::for_lane(bot_seed, seed as u64, seat),
                ),
                stop,
            })
        };
        let (mut bot0, mut bot1) = (bot(challenger_id, 1)?, bot(opponent_id, 2)?);
        play_match(
            &cfg,
            Clock::Wall,
            [&mut bot0, &mut bot1],
            [&a, &b],
            opponent_id,
        )
    })?
    .map_err(core_err)?;
    result_dict(py, &r)
}

/// The catalog: a list of dicts (`id`, `name`, `kind`, `tier`, `description`, `tags`,
/// `implemented`).
#[pyfunction]
fn opponent_catalog(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    let out = PyList::empty(py);
    for s in catalog::CATALOG {
        let d = PyDict::new(py);
        d.set_item("id", s.id)?;
        d.set_item("name", s.name)?;
        d.set_item("kind", s.kind.as_str())?;
        d.set_item("tier", s.tier.as_str())?;
        d.set_item("description", s.description)?;
        d.set_item("tags", s.tags.to_vec())?;
        d.set_item("implemented", s.implemented)?;
        out.append(d)?;
    }
    Ok(out)
}

/// Parses and re-serializes a replay (checks its shape); `ValueError` if malformed.
#[pyfunction]
fn check_replay(text: &str) -> PyResult<String> {
    Ok(Replay::from_json(text).map_err(core_err)?.to_json())
}

/// The `arena` submodule.
fn module(py: Python<'_>) -> PyResult<Bound<'_, PyModule>> {
    let m = PyModule::new(py, "arena")?;
    m.add_function(wrap_pyfunction!(play_python_match, &m)?)?;
    m.add_function(wrap_pyfunction!(play_catalog_match, &m)?)?;
    m.add_function(wrap_pyfunction!(opponent_catalog, &m)?)?;
    m.add_function(wrap_pyfunction!(check_replay, &m)?)?;
    Ok(m)
}

/// Adds the `arena` submodule to the extension module.
pub(crate) fn register(parent: &Bound<'_, PyModule>) -> PyResult<()> {
    parent.add_submodule(&module(parent.py())?)
}
