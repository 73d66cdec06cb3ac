//! No-limit hold'em beyond the generic batch class (`NoLimitHoldem` is a `BatchEnv`):
//! `legal_bounds`, the chip amounts behind the exact raise-to entry point, and
//! `NoLimitHoldemGame`, one hand stepped one decision at a time, which the PettingZoo
//! wrapper (`cardvec.pettingzoo.holdem_v0`) drives; both take the registry's options.
//! See docs/holdem.md for the rules, actions and observation.

use cardvec::core::{Game, Words};
use numpy::PyArray2;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::batch::BatchEnv;
use crate::errors::value_err;
use crate::single::{single_legal_mask, single_outcome, single_parse, single_step, single_view};
use crate::{args, options};
use cardvec::core::LaneRng;
use cardvec::core::VecEnv;
use cardvec::games::holdem::{self as nl, NoLimitHoldem, NoLimitHoldemState, EXACT_RAISE};
use numpy::PyArray1;

/// The chip amounts of the decision in every lane, int64 [num_envs, 5]: the seat to act,
/// the call amount, the minimum and maximum raise-to (0 when raising is closed) and the pot;
/// -1 in every column for a finished lane. An exact raise-to `EXACT_RAISE | c` is legal
/// when `min_raise_to <= c <= max_raise_to` and `max_raise_to > 0`. `env` must be a
/// no-limit hold'em environment (else `ValueError`).
#[pyfunction]
fn legal_bounds<'py>(
    py: Python<'py>,
    env: &Bound<'py, BatchEnv>,
) -> PyResult<Bound<'py, PyArray2<i64>>> {
    let env = env.get();
    let info = env.info();
    let engine = env.engine(py)?;
    let venv = engine
        .env
        .as_any()
        .downcast_ref::<VecEnv<NoLimitHoldem>>()
        .ok_or_else(|| {
            value_err(format!(
                "legal_bounds needs a no-limit hold'em environment, got {} ({})",
                info.python_class, info.id
            ))
        })?;
    let game = venv.game();
    let mut out = Vec::with_capacity(venv.num_envs() * 5);
    for s in venv.states() {
        match game.legal(s) {
            Some(l) => out.extend([
                l.seat as i64,
                l.call_amount as i64,
                l.min_raise_to as i64,
                l.max_raise_to as i64,
                s.pot_total() as i64,
            ]),
            None => out.extend([-1i64; 5]),
        }
    }
    let arr = numpy::ndarray::Array2::from_shape_vec((venv.num_envs(), 5), out)
        .map_err(|e| value_err(e.to_string()))?;
    Ok(PyArray2::from_owned_array(py, arr))
}

/// One hand of no-limit hold'em after another, stepped one decision at a time (what
/// `cardvec.pettingzoo.holdem_v0` wraps). Every hand starts from the configured stacks.
#[pyclass(module = "cardvec._cardvec", name = "NoLimitHoldemGame")]
pub struct NoLimitHoldemGame {
    game: NoLimitHoldem,
    state: NoLimitHoldemState,
    rng: LaneRng,
    rewards: Vec<f32>,
    scratch: Vec<f32>,
}

impl NoLimitHoldemGame {
    fn check_seat(&self, seat: &Bound<'_, PyAny>) -> PyResult<usize> {
        args::size_in(seat, "seat", 0, self.game.num_players() - 1)
    }

    /// Deals a hand from the game's stream: a hand decided at the deal (nobody has a
    /// decision) is over at once and its results are the rewards.
    fn deal(&mut self) {
        self.state = self.game.reset(&mut self.rng);
        self.rewards.fill(0.0);
        self.game.deal_rewards(&self.state, &mut self.rewards);
    }
}

#[pymethods]
impl NoLimitHoldemGame {
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

    /// A table with the options of `NoLimitHoldem`, the first hand dealt from `seed` (the
    /// stream of lane 0 of the batch environment after `reset(seed)`, so the same seed and
    /// actions play the same hand in both). A
    /// hand in which nobody has a decision (stacks no larger than the forced bets) is played
    /// out at the deal: `terminated` at once, its results in `rewards`.
    #[new]
    #[pyo3(signature = (seed=None, **options), text_signature = "(seed=0, **options)")]
    fn new(seed: Option<&Bound<'_, PyAny>>, options: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let seed = args::opt_seed(seed)?.unwrap_or(0);
        let game = options::configure::<NoLimitHoldem>(options)?;
        let n = game.num_players();
        let mut rng = LaneRng::for_lane(seed, 0, 0);
        let state = game.reset(&mut rng);
        let mut rewards = vec![0.0; n];
        game.deal_rewards(&state, &mut rewards);
        Ok(NoLimitHoldemGame {
            game,
            state,
            rng,
            rewards,
            scratch: vec![0.0; n],
        })
    }

    /// Deals a new hand. With a seed, the stream restarts from it (as lane 0's after the
    /// batch environment's `reset(seed)`); without, it goes on. A
    /// hand decided at the deal is over at once, its results in `rewards` (else they are 0).
    #[pyo3(signature = (seed=None))]
    fn reset(&mut self, seed: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        if let Some(seed) = args::opt_seed(seed)? {
            self.rng = LaneRng::for_lane(seed, 0, 0);
        }
        self.deal();
        Ok(())
    }

    /// Applies `action` (an integer: a discrete id, or `EXACT_RAISE | chips`) for the seat
    /// to act. Returns False (and changes nothing) if it is illegal or the hand is over; a
    /// bool is a `ValueError`, a float or another type a `TypeError`.
    fn step(&mut self, action: &Bound<'_, PyAny>) -> PyResult<bool> {
        let action = args::action(action)?;
        let (game, state, rng) = (&self.game, &mut self.state, &mut self.rng);
        Ok(single_step(&mut self.scratch, &mut self.rewards, |r| {
            game.step(state, action, rng, r)
        }))
    }

    /// The observation as seen by `seat` (float32, 118 + 9 * num_players values).
    fn observe<'py>(
        &self,
        py: Python<'py>,
        seat: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let seat = self.check_seat(seat)?;
        let mut obs = vec![0f32; self.game.obs_dim()];
        self.game.observe(&self.state, seat, &mut obs);
        Ok(PyArray1::from_vec(py, obs))
    }

    /// The legal mask of the seat to act (int8, 3 + K; all zero once over).
    fn legal_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        single_legal_mask(py, &self.game, &self.state)
    }

    /// The decision in chips, or None once over: a dict with `seat`, `fold`, `check`,
    /// `call_amount`, `raise`, `min_raise_to`, `max_raise_to`.
    fn legal<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(l) = self.game.legal(&self.state) else {
            return Ok(None);
        };
        let d = PyDict::new(py);
        d.set_item("seat", l.seat)?;
        d.set_item("fold", l.fold)?;
        d.set_item("check", l.check)?;
        d.set_item("call_amount", l.call_amount)?;
        d.set_item("raise", l.raise)?;
        d.set_item("min_raise_to", l.min_raise_to)?;
        d.set_item("max_raise_to", l.max_raise_to)?;
        Ok(Some(d))
    }

    /// Number of seats.
    #[getter]
    fn num_players(&self) -> usize {
        self.game.num_players()
    }
    /// Size of the discrete action space, 3 + K.
    #[getter]
    fn num_actions(&self) -> usize {
        self.game.num_actions()
    }
    /// Length of an observation, 118 + 9 * num_players.
    #[getter]
    fn obs_dim(&self) -> usize {
        self.game.obs_dim()
    }
    /// The seat to act (0 once the hand is over).
    #[getter]
    fn current_player(&self) -> usize {
        self.game.current_player(&self.state)
    }
    /// Whether the hand is over.
    #[getter]
    fn terminated(&self) -> bool {
        self.state.is_over()
    }
    /// Each seat's reward from the last applied step (its net in big blinds at the end);
    /// after a deal, 0, or the results of a hand decided at the deal.
    #[getter]
    fn rewards(&self) -> Vec<f64> {
        self.rewards.iter().map(|&r| r as f64).collect()
    }
    /// Chips behind, per seat.
    #[getter]
    fn stacks(&self) -> Vec<u32> {
        self.state.stacks().to_vec()
    }
    /// Bets on the current street, per seat.
    #[getter]
    fn bets(&self) -> Vec<u32> {
        self.state.bets().to_vec()
    }
    /// Chips in the middle (pots and bets).
    #[getter]
    fn pot(&self) -> u64 {
        self.state.pot_total()
    }
    /// Folded flags, per seat.
    #[getter]
    fn folded(&self) -> Vec<bool> {
        (0..self.game.num_players())
            .map(|s| self.state.is_folded(s))
            .collect()
    }
    /// The button seat.
    #[getter]
    fn button(&self) -> usize {
        self.state.button()
    }
    /// 0..=3 preflop, flop, turn, river; 4 once over.
    #[getter]
    fn street(&self) -> u8 {
        self.state.street() as u8
    }
    /// Board card ids dealt so far.
    #[getter]
    fn board(&self) -> Vec<u8> {
        self.state.board().to_vec()
    }
    /// The hole card ids of every seat (hidden information: for tests and rendering).
    #[getter]
    fn hole_cards(&self) -> Vec<[u8; 2]> {
        self.state.hole_cards().to_vec()
    }
    /// The big blind in chips.
    #[getter]
    fn big_blind(&self) -> u64 {
        self.game.table().big_blind
    }

    fn __repr__(&self) -> String {
        format!(
            "NoLimitHoldemGame(num_players={}, stacks={:?}, blinds={}/{})",
            self.game.num_players(),
            self.game.stacks(),
            self.game.table().small_blind,
            self.game.table().big_blind
        )
    }
}

/// Adds `NoLimitHoldemGame` to the extension module, `legal_bounds` and their constants to `holdem`.
pub(crate) fn register(m: &Bound<'_, PyModule>, holdem: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<NoLimitHoldemGame>()?;
    holdem.add_function(wrap_pyfunction!(legal_bounds, holdem)?)?;
    holdem.add("FOLD", nl::FOLD)?;
    holdem.add("CHECK_CALL", nl::CHECK_CALL)?;
    holdem.add("RAISE_BASE", nl::RAISE_BASE)?;
    holdem.add("EXACT_RAISE", EXACT_RAISE)?;
    holdem.add("MIN_PLAYERS", nl::MIN_PLAYERS)?;
    holdem.add("MAX_PLAYERS", nl::MAX_PLAYERS)?;
    Ok(())
}
