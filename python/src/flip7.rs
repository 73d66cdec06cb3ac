//! `Flip7Game`, one game of Flip 7 with its shuffle log, which the PettingZoo wrapper
//! (`cardvec.pettingzoo.flip7_v0`) and the game-room differential test drive, and the
//! `flip7` constants. (The batch class `Flip7` is the generic `BatchEnv`.)

use cardvec::core::{Game, Words};
use pyo3::prelude::*;

use crate::args;
use crate::errors::{core_err, value_err};
use crate::single::{single_legal_mask, single_outcome, single_parse, single_step, single_view};
use cardvec::core::LaneRng;
use cardvec::games::flip7::{self as f7, Flip7, Flip7State};
use numpy::PyArray1;

const PLAYERS_MSG: &str = "num_players must be an integer from 3 to 18";
const TARGET_MSG: &str = "target_score must be a positive integer";
const ROUNDS_MSG: &str = "max_rounds must be a positive integer or None";

/// A Python int option (bools and other types are a `ValueError` with `msg`, as flip7_v0),
/// at its full value (an int beyond `i128` reads as `i128::MAX`, which every check refuses).
fn int_option(value: &Bound<'_, PyAny>, msg: &str) -> PyResult<i128> {
    match args::int_value(value, "option") {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(_)) => Ok(i128::MAX),
        Err(_) => Err(value_err(msg.to_string())),
    }
}

/// An option in `1..=MAX_OPTION`, else the engine's message showing the value given.
fn bounded(value: i128, what: &str, or_none: &str, shown: &Bound<'_, PyAny>) -> PyResult<u32> {
    match u32::try_from(value) {
        Ok(v) if v <= f7::MAX_OPTION => Ok(v),
        _ => Err(value_err(format!(
            "invalid {what}: {what} must be a positive integer (at most 2^24){or_none}, got {}",
            shown.str()?
        ))),
    }
}

/// flip7_v0's validation (with its messages, which `Flip7Game` keeps for the drop-in
/// `flip7_v0`), then cardvec's (target and round limit at most 2^24).
fn config(
    num_players: Option<&Bound<'_, PyAny>>,
    target_score: Option<&Bound<'_, PyAny>>,
    max_rounds: Option<&Bound<'_, PyAny>>,
) -> PyResult<Flip7> {
    let n = num_players.map_or(Ok(3), |v| int_option(v, PLAYERS_MSG))?;
    if !(3..=18).contains(&n) {
        return Err(value_err(PLAYERS_MSG.into()));
    }
    let target = target_score.map_or(Ok(200), |v| int_option(v, TARGET_MSG))?;
    if target < 1 {
        return Err(value_err(TARGET_MSG.into()));
    }
    let rounds = match max_rounds {
        Some(v) if !v.is_none() => Some(int_option(v, ROUNDS_MSG)?),
        _ => None,
    };
    if rounds.is_some_and(|m| m < 1) {
        return Err(value_err(ROUNDS_MSG.into()));
    }
    let target = match target_score {
        Some(shown) => bounded(target, "target_score", "", shown)?,
        None => target as u32,
    };
    let rounds = match (rounds, max_rounds) {
        (Some(m), Some(shown)) => Some(bounded(m, "max_rounds", " or None", shown)?),
        _ => None,
    };
    Flip7::new(n as usize, target, rounds).map_err(core_err)
}

/// One game of Flip 7, stepped one decision at a time (what `cardvec.pettingzoo.flip7_v0`
/// wraps). Every shuffle (the opening one and each recycled discard pile) is logged until
/// `take_shuffles()` drains it: bottom first, the order game-room's list must be left in.
#[pyclass(module = "cardvec._cardvec", name = "Flip7Game")]
pub struct Flip7Game {
    game: Flip7,
    state: Flip7State,
    rng: LaneRng,
    rewards: Vec<f32>,
    scratch: Vec<f32>,
    shuffles: Vec<Vec<u8>>,
}

impl Flip7Game {
    fn check_seat(&self, seat: &Bound<'_, PyAny>) -> PyResult<usize> {
        args::size_in(seat, "seat", 0, self.game.num_players() - 1)
    }

    /// Starts a new game (see `reset`).
    fn restart(&mut self, seed: Option<u64>) {
        if let Some(seed) = seed {
            self.rng = LaneRng::for_lane(seed, 0, 0);
        }
        self.shuffles.clear();
        let log = &mut self.shuffles;
        self.state = self
            .game
            .reset_logged(&mut self.rng, &mut |o: &[u8]| log.push(o.to_vec()));
        self.rewards.fill(0.0);
    }
}

#[pymethods]
impl Flip7Game {
    /// The name of `action` for the seat to act ("hit", "call 2"); any id gets a name.
    fn action_name(&self, action: &Bound<'_, PyAny>) -> PyResult<String> {
        let action = args::size_in(action, "action", 0, u32::MAX as usize)? as u32;
        Ok(self.game.action_name(&self.state, action))
    }

    /// What `seat` sees of the game, as a dict (the structure the web table draws); no
    /// card that seat may not see unless `reveal`.
    #[pyo3(signature = (seat, reveal=false))]
    fn view<'py>(
        &self,
        py: Python<'py>,
        seat: &Bound<'py, PyAny>,
        reveal: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let seat = self.check_seat(seat)?;
        single_view(py, &self.game, &self.state, seat, reveal)
    }

    /// How the game ended, as a dict (`results`, `winners`, `hands`, `summary`, `tie`), or
    /// `None` while it runs.
    fn outcome<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        single_outcome(py, &self.game, &self.state)
    }

    /// The state as one readable line that `set_state_text` reads back (the game's docs
    /// page gives the format).
    fn state_text(&self) -> String {
        self.game.state_text(&self.state)
    }

    /// Replaces the state with the one a state text gives (rewards zeroed); a bad text is
    /// a `ValueError` naming the problem, and changes nothing.
    fn set_state_text(&mut self, text: &str) -> PyResult<()> {
        self.state = single_parse(&self.game, text)?;
        self.rewards.fill(0.0);
        Ok(())
    }

    /// A game with flip7_v0's options, dealt from `seed` (`None` is 0): the stream of lane 0
    /// of the batch environment after `reset(seed)`, so the same seed and actions play the
    /// same game in both. An unknown keyword argument is `cardvec.errors.UnknownOptionError`
    /// (a `ValueError` and a `TypeError`), as for every registry class.
    #[new]
    #[pyo3(
        signature = (num_players=None, target_score=None, max_rounds=None, seed=None, **unknown),
        text_signature = "(num_players=3, target_score=200, max_rounds=None, seed=0)"
    )]
    fn new(
        num_players: Option<&Bound<'_, PyAny>>,
        target_score: Option<&Bound<'_, PyAny>>,
        max_rounds: Option<&Bound<'_, PyAny>>,
        seed: Option<&Bound<'_, PyAny>>,
        unknown: Option<&Bound<'_, pyo3::types::PyDict>>,
    ) -> PyResult<Self> {
        if let Some((name, _)) = unknown.and_then(|u| u.iter().next()) {
            return Err(crate::errors::unknown_option(format!(
                "unknown Flip7Game argument {name}; expected one of: num_players, \
                 target_score, max_rounds, seed"
            )));
        }
        let game = config(num_players, target_score, max_rounds)?;
        let seed = args::opt_seed(seed)?.unwrap_or(0);
        let mut g = Flip7Game {
            game,
            state: game.reset(&mut LaneRng::from_seed(0)),
            rng: LaneRng::for_lane(seed, 0, 0),
            rewards: vec![0.0; game.num_players()],
            scratch: vec![0.0; game.num_players()],
            shuffles: Vec::new(),
        };
        g.restart(Some(seed));
        Ok(g)
    }

    /// Starts a new game. With a seed, the stream restarts from it (lane 0's stream of the
    /// batch environment after `reset(seed)`); without, the game's stream goes on (as
    /// `np_random` does in flip7_v0). Clears the shuffle log first.
    #[pyo3(signature = (seed=None))]
    fn reset(&mut self, seed: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        let seed = args::opt_seed(seed)?;
        self.restart(seed);
        Ok(())
    }

    /// Applies `action` for the seat to act. Returns False (and changes nothing) if it is
    /// illegal (any integer is taken; a bool is a `ValueError`).
    fn step(&mut self, action: &Bound<'_, PyAny>) -> PyResult<bool> {
        let action = args::action(action)?;
        let log = &mut self.shuffles;
        let (game, state, rng) = (&self.game, &mut self.state, &mut self.rng);
        Ok(single_step(&mut self.scratch, &mut self.rewards, |r| {
            game.step_logged(state, action, rng, r, &mut |o: &[u8]| log.push(o.to_vec()))
        }))
    }

    /// The observation as seen by `seat` (float64, 419 + 24 * num_players values).
    fn observe<'py>(
        &self,
        py: Python<'py>,
        seat: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let seat = self.check_seat(seat)?;
        let mut obs = vec![0f32; self.game.obs_dim()];
        self.game.observe(&self.state, seat, &mut obs);
        Ok(PyArray1::from_vec(
            py,
            obs.into_iter().map(|v| v as f64).collect(),
        ))
    }

    /// The legal mask of the seat to act (int8, 2 + num_players; all zero once over).
    fn legal_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        single_legal_mask(py, &self.game, &self.state)
    }

    /// The shuffles since the last call (or reset), oldest first, and clears the log.
    fn take_shuffles(&mut self) -> Vec<Vec<u8>> {
        std::mem::take(&mut self.shuffles)
    }

    /// Number of seats.
    #[getter]
    fn num_players(&self) -> usize {
        self.game.num_players()
    }
    /// The target score.
    #[getter]
    fn target_score(&self) -> u32 {
        self.game.target_score()
    }
    /// The round limit, or None.
    #[getter]
    fn max_rounds(&self) -> Option<u32> {
        self.game.max_rounds()
    }
    /// Size of the action space, 2 + num_players.
    #[getter]
    fn num_actions(&self) -> usize {
        self.game.num_actions()
    }
    /// Length of an observation, 419 + 24 * num_players.
    #[getter]
    fn obs_dim(&self) -> usize {
        self.game.obs_dim()
    }
    /// The seat to act (0 once the game is over).
    #[getter]
    fn current_player(&self) -> usize {
        self.game.current_player(&self.state)
    }
    /// Whether a round ended with someone at the target score.
    #[getter]
    fn terminated(&self) -> bool {
        self.game.finished(&self.state).0
    }
    /// Whether the round limit ended the game.
    #[getter]
    fn truncated(&self) -> bool {
        self.game.finished(&self.state).1
    }
    /// Each seat's reward from the last applied step (points scored at a round's end).
    #[getter]
    fn rewards(&self) -> Vec<f64> {
        self.rewards.iter().map(|&r| r as f64).collect()
    }
    /// Banked totals.
    #[getter]
    fn scores(&self) -> Vec<u32> {
        self.state.scores()[..self.game.num_players()].to_vec()
    }
    /// Each seat's points in the last completed round.
    #[getter]
    fn round_scores(&self) -> Vec<u32> {
        self.state.round_scores()[..self.game.num_players()].to_vec()
    }
    /// The last completed round (0 before the first round ends).
    #[getter]
    fn completed_round(&self) -> u32 {
        self.state.completed_round()
    }
    /// The tied leaders once terminated; empty otherwise.
    #[getter]
    fn winners(&self) -> Vec<usize> {
        self.game.winners(&self.state)
    }
    /// The current round (1-based).
    #[getter]
    fn round(&self) -> u32 {
        self.state.round()
    }
    /// The dealer seat.
    #[getter]
    fn dealer(&self) -> usize {
        self.state.dealer()
    }
    /// Round status of each seat (0 active, 1 stayed, 2 busted, 3 frozen).
    #[getter]
    fn status(&self) -> Vec<u8> {
        (0..self.game.num_players())
            .map(|p| self.state.status(p))
            .collect()
    }
    /// The card counts (22 ids) in front of each seat.
    #[getter]
    fn hands(&self) -> Vec<Vec<u8>> {
        (0..self.game.num_players())
            .map(|p| self.state.hand(p).to_vec())
            .collect()
    }
    /// The action card waiting for a target, or None.
    #[getter]
    fn pending_card(&self) -> Option<u8> {
        self.state.pending_card()
    }
    /// The discard pile, as counts per card id (22).
    #[getter]
    fn discard(&self) -> Vec<u8> {
        self.state.discard().to_vec()
    }
    /// The seat that flipped seven numbers this round, or None.
    #[getter]
    fn flip7_player(&self) -> Option<usize> {
        self.state.flip7_seat()
    }
    /// The scheduled events, first to run first, as `(kind, seat, card)` (game-room's
    /// `tasks`: 1 deal, 2 forced draw, 3 end of Flip Three, 4 resolve a card, 5 turn).
    #[getter]
    fn tasks(&self) -> Vec<(u8, u8, u8)> {
        (0..self.state.task_count())
            .map(|i| self.state.task_at(i))
            .collect()
    }
    /// Action cards drawn during a Flip Three and held until it ends, in draw order.
    #[getter]
    fn deferred(&self) -> Vec<u8> {
        self.state.deferred().to_vec()
    }
    /// The draw pile, bottom first (hidden information: for tests and tools).
    #[getter]
    fn draw_pile(&self) -> Vec<u8> {
        self.state.draw_pile().to_vec()
    }

    fn __repr__(&self) -> String {
        format!(
            "Flip7Game(num_players={}, target_score={}, max_rounds={:?})",
            self.game.num_players(),
            self.game.target_score(),
            self.game.max_rounds()
        )
    }
}

/// Adds `Flip7Game` and the `flip7` constants submodule to the extension module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Flip7Game>()?;
    let c = PyModule::new(m.py(), "flip7")?;
    c.add("HIT", f7::HIT)?;
    c.add("STAY", f7::STAY)?;
    c.add("TARGET_OFFSET", f7::TARGET_OFFSET)?;
    c.add("CARD_IDS", f7::CARD_IDS)?;
    c.add("DECK_SIZE", f7::DECK_SIZE)?;
    c.add("MIN_PLAYERS", f7::MIN_PLAYERS)?;
    c.add("MAX_PLAYERS", f7::MAX_PLAYERS)?;
    c.add("TIMES_2", f7::TIMES_2)?;
    c.add("FREEZE", f7::FREEZE)?;
    c.add("FLIP_THREE", f7::FLIP_THREE)?;
    c.add("SECOND_CHANCE", f7::SECOND_CHANCE)?;
    c.add("ACTIVE", f7::ACTIVE)?;
    c.add("STAYED", f7::STAYED)?;
    c.add("BUSTED", f7::BUSTED)?;
    c.add("FROZEN", f7::FROZEN)?;
    c.add("MAKE_DECK", f7::make_deck().to_vec())?;
    m.add_submodule(&c)
}
