//! The no-limit hold'em classes: `NoLimitHoldem`, the batch environment (the shared
//! `game_env!` shape with table keyword options), `legal_bounds`, the chip amounts behind
//! the exact raise-to entry point, and `NoLimitHoldemGame`, one hand stepped one decision
//! at a time, which the PettingZoo wrapper (`cardvec.pettingzoo.holdem_v0`) drives.
//! See docs/holdem.md for the rules, actions and observation.

use super::*;
use cardvec::core::LaneRng;
use cardvec::games::holdem::{
    self as nl, Chips, NlheState, NoLimitHoldem, TableConfig, EXACT_RAISE,
};
use numpy::PyArray1;

/// The game options every hold'em class takes.
const OPTIONS: &[&str] = &[
    "num_players",
    "stack",
    "stacks",
    "small_blind",
    "big_blind",
    "ante",
    "raise_fractions",
    "button",
];

/// A non-negative integer option (bools are refused).
fn chips_option(value: &Bound<'_, PyAny>, what: &str) -> PyResult<Chips> {
    if value.is_instance_of::<pyo3::types::PyBool>() {
        return Err(value_err(format!("{what} must be an integer, got {value}")));
    }
    match value.extract::<i64>() {
        Ok(v) if v >= 0 => Ok(v as Chips),
        Ok(v) => Err(value_err(format!("{what} must be >= 0, got {v}"))),
        Err(_) => Err(value_err(format!("{what} must be an integer, got {value}"))),
    }
}

/// Builds the game from keyword options: `num_players=2` (2..=10), `stack=200` or
/// `stacks=[...]` (one per seat), `small_blind=1`, `big_blind=2`, `ante=0`,
/// `raise_fractions=(0.5, 1.0, 2.0)`, `button=None` (random each hand). Unknown keywords
/// are a `TypeError`, bad values a `ValueError`.
fn config(class: &str, options: Option<&Bound<'_, PyDict>>) -> PyResult<NoLimitHoldem> {
    let get = |key: &str| -> PyResult<Option<Bound<'_, PyAny>>> {
        match options {
            Some(d) => Ok(d.get_item(key)?.filter(|v| !v.is_none())),
            None => Ok(None),
        }
    };
    if let Some(d) = options {
        for key in d.keys() {
            let k: String = key.extract()?;
            if !OPTIONS.contains(&k.as_str()) {
                return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                    "{class}() got an unexpected keyword argument {k} (options: {})",
                    OPTIONS.join(", ")
                )));
            }
        }
    }
    let seats = get("num_players")?
        .map(|v| chips_option(&v, "num_players"))
        .transpose()?
        .unwrap_or(2);
    let sb = get("small_blind")?
        .map(|v| chips_option(&v, "small_blind"))
        .transpose()?
        .unwrap_or(1);
    let bb = get("big_blind")?
        .map(|v| chips_option(&v, "big_blind"))
        .transpose()?
        .unwrap_or(2);
    let ante = get("ante")?
        .map(|v| chips_option(&v, "ante"))
        .transpose()?
        .unwrap_or(0);
    let table = TableConfig::new(sb, bb, ante).map_err(core_err)?;
    let stack = get("stack")?
        .map(|v| chips_option(&v, "stack"))
        .transpose()?
        .unwrap_or(100 * bb);
    let seats = usize::try_from(seats).unwrap_or(usize::MAX);
    let mut game = NoLimitHoldem::new(seats, table, stack).map_err(core_err)?;
    if let Some(list) = get("stacks")? {
        if get("stack")?.is_some() {
            return Err(value_err("give stack or stacks, not both".into()));
        }
        let stacks = list
            .try_iter()?
            .map(|v| chips_option(&v?, "stacks"))
            .collect::<PyResult<Vec<Chips>>>()?;
        game = game.with_stacks(&stacks).map_err(core_err)?;
    }
    if let Some(f) = get("raise_fractions")? {
        let fractions = f
            .try_iter()?
            .map(|v| {
                v?.extract::<f64>()
                    .map_err(|_| value_err("raise_fractions must be numbers".into()))
            })
            .collect::<PyResult<Vec<f64>>>()?;
        game = game.with_raise_fractions(&fractions).map_err(core_err)?;
    }
    if let Some(b) = get("button")? {
        let b = chips_option(&b, "button")?;
        game = game
            .with_button(Some(usize::try_from(b).unwrap_or(usize::MAX)))
            .map_err(core_err)?;
    }
    Ok(game)
}

fn nlhe_game(options: Option<&Bound<'_, PyDict>>) -> PyResult<NoLimitHoldem> {
    config("NoLimitHoldem", options)
}

game_env!(
    PyNoLimitHoldem,
    NoLimitHoldemEngine,
    "NoLimitHoldem",
    "_NoLimitHoldemEngine",
    NoLimitHoldem,
    nlhe_game,
    "No-limit Texas hold'em, one hand per lane (see docs/holdem.md): `num_envs` lanes.\n\n\
     Options: num_players=2 (2..10), stack=100 big blinds or stacks=[...] (chips per seat), \
     small_blind=1, big_blind=2, ante=0, raise_fractions=(0.5, 1.0, 2.0), button=None \
     (random each hand).\n\
     Actions (3 + K ids for K raise fractions): 0 fold, 1 check/call, 2 + k raise to \
     max_bet + fraction_k * (pot + to_call), 2 + K all-in; and the exact raise-to entry \
     point: EXACT_RAISE | chips (`cardvec.holdem.raise_to(chips)`) raises to exactly that \
     many chips, legal when `legal_bounds(env)` allows it (otherwise a flagged no-op).\n\
     Observations: 118 + 9 * num_players floats, chip amounts in big blinds. Rewards: each \
     seat's net result in big blinds at the hand's end."
);

/// The chip amounts of the decision in every lane, int64 [num_envs, 5]: the seat to act,
/// the call amount, the minimum and maximum raise-to (0 when raising is closed) and the pot;
/// -1 in every column for a finished lane. An exact raise-to `EXACT_RAISE | c` is legal
/// when `min_raise_to <= c <= max_raise_to` and `max_raise_to > 0`.
#[pyfunction]
fn legal_bounds<'py>(
    py: Python<'py>,
    env: &Bound<'py, PyNoLimitHoldem>,
) -> PyResult<Bound<'py, PyArray2<i64>>> {
    let env = env.get();
    let engine = env.engine(py)?;
    let venv = &engine.inner.env;
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
    state: NlheState,
    rng: LaneRng,
    rewards: Vec<f32>,
    scratch: Vec<f32>,
}

impl NoLimitHoldemGame {
    fn check_seat(&self, seat: i64) -> PyResult<usize> {
        usize::try_from(seat)
            .ok()
            .filter(|&s| s < self.game.num_players())
            .ok_or_else(|| value_err(format!("seat must be in 0..{}", self.game.num_players())))
    }
}

#[pymethods]
impl NoLimitHoldemGame {
    /// A table with the options of `NoLimitHoldem`, the first hand dealt from `seed`.
    #[new]
    #[pyo3(signature = (seed=0, **options))]
    fn new(seed: u64, options: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let game = config("NoLimitHoldemGame", options)?;
        let mut rng = LaneRng::from_seed(seed);
        let state = game.reset(&mut rng);
        let n = game.num_players();
        Ok(NoLimitHoldemGame {
            game,
            state,
            rng,
            rewards: vec![0.0; n],
            scratch: vec![0.0; n],
        })
    }

    /// Deals a new hand. With a seed, the stream restarts from it; without, it goes on.
    #[pyo3(signature = (seed=None))]
    fn reset(&mut self, seed: Option<u64>) {
        if let Some(seed) = seed {
            self.rng = LaneRng::from_seed(seed);
        }
        self.state = self.game.reset(&mut self.rng);
        self.rewards.fill(0.0);
    }

    /// Applies `action` (a discrete id, or `EXACT_RAISE | chips`) for the seat to act.
    /// Returns False (and changes nothing) if it is illegal.
    fn step(&mut self, action: i64) -> bool {
        let action = u32::try_from(action).unwrap_or(u32::MAX);
        let (game, state, rng) = (&self.game, &mut self.state, &mut self.rng);
        single_step(&mut self.scratch, &mut self.rewards, |r| {
            game.step(state, action, rng, r)
        })
    }

    /// The observation as seen by `seat` (float32, 118 + 9 * num_players values).
    fn observe<'py>(&self, py: Python<'py>, seat: i64) -> PyResult<Bound<'py, PyArray1<f32>>> {
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
    /// Each seat's reward from the last applied step (its net in big blinds at the end).
    #[getter]
    fn rewards(&self) -> Vec<f64> {
        self.rewards.iter().map(|&r| r as f64).collect()
    }
    /// Chips behind, per seat.
    #[getter]
    fn stacks(&self) -> Vec<u32> {
        self.state.stacks[..self.game.num_players()].to_vec()
    }
    /// Bets on the current street, per seat.
    #[getter]
    fn bets(&self) -> Vec<u32> {
        self.state.bets[..self.game.num_players()].to_vec()
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
            .map(|s| self.state.folded >> s & 1 != 0)
            .collect()
    }
    /// The button seat.
    #[getter]
    fn button(&self) -> usize {
        self.state.button as usize
    }
    /// 0..=3 preflop, flop, turn, river; 4 once over.
    #[getter]
    fn street(&self) -> u8 {
        self.state.street
    }
    /// Board card ids dealt so far.
    #[getter]
    fn board(&self) -> Vec<u8> {
        self.state.board[..self.state.dealt as usize].to_vec()
    }
    /// The hole card ids of every seat (hidden information: for tests and rendering).
    #[getter]
    fn hole_cards(&self) -> Vec<[u8; 2]> {
        self.state.hole[..self.game.num_players()].to_vec()
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

/// Adds the no-limit classes to the extension module and their constants to `holdem`.
pub fn register(m: &Bound<'_, PyModule>, holdem: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyNoLimitHoldem>()?;
    m.add_class::<NoLimitHoldemEngine>()?;
    m.add_class::<NoLimitHoldemGame>()?;
    holdem.add_function(wrap_pyfunction!(legal_bounds, holdem)?)?;
    holdem.add("FOLD", nl::FOLD)?;
    holdem.add("CHECK_CALL", nl::CHECK_CALL)?;
    holdem.add("RAISE_BASE", nl::RAISE_BASE)?;
    holdem.add("EXACT_RAISE", EXACT_RAISE)?;
    holdem.add("MIN_SEATS", nl::MIN_SEATS)?;
    holdem.add("MAX_SEATS", nl::MAX_SEATS)?;
    Ok(())
}
