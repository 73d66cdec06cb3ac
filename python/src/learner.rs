//! The learner view in Python (`cardvec.LearnerEnv`) and the batched bots of
//! `cardvec.bots.act`.
//!
//! [`LearnerEnv`] wraps the [`DynLearner`] that [`cardvec::registry::make_learner`] builds
//! for a game id: every seat but the learner's is played by built-in bots inside Rust, and
//! the views show the learner's decisions only (see `cardvec::core::learner`). As for
//! `BatchEnv`, two objects: [`LearnerEngine`] (private) owns the environment and is the
//! `base` of every view; [`LearnerEnv`] (frozen) holds it and the views, created once.

use cardvec::core::learner::{DynLearner, LearnerSeat, Opponents};
use cardvec::core::spec::{GameInfo, GameSpec, Options};
use cardvec::core::Error as CoreError;
use cardvec::registry::{self, Visitor};
use numpy::{PyArray1, PyArray2};
use pyo3::exceptions::{PyRuntimeError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};

use crate::arrays::{array_1d, for_each_int, torch_tensors, view, view2, writable_alias};
use crate::bots::bot_actions;
use crate::env_options::env_options;
use crate::errors::{core_err, core_err_in, try_buffer, value_err};
use crate::{args, options};

/// The learner view of one game and the scratch space of its Python calls: the object
/// every view has as its `base`.
#[pyclass(module = "cardvec._cardvec", name = "_LearnerEngine", weakref)]
pub struct LearnerEngine {
    env: Box<dyn DynLearner>,
    actions: Vec<u32>,
}

/// Numpy views of a learner engine's outputs, created once.
struct LearnerViews {
    obs: Py<PyArray2<f32>>,
    legal_mask: Py<PyArray2<u8>>,
    rewards: Py<PyArray1<f32>>,
    terminated: Py<PyArray1<bool>>,
    truncated: Py<PyArray1<bool>>,
    illegal: Py<PyArray1<u8>>,
    seat: Py<PyArray1<i32>>,
    opponent_id: Py<PyArray1<i64>>,
    episode_return: Py<PyArray1<f32>>,
    seat_returns: Py<PyArray2<f32>>,
    episode_length: Py<PyArray1<i32>>,
    episodes: Py<PyArray1<u64>>,
    skipped: Py<PyArray1<u64>>,
    skipped_return: Py<PyArray1<f64>>,
}

impl LearnerViews {
    /// Writable aliases of every view, by name (see [`writable_alias`]).
    fn writable_aliases<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        // SAFETY: every field is a view made by `view`/`view2` in `LearnerViews::new`.
        unsafe {
            writable_alias(&d, "obs", &self.obs)?;
            writable_alias(&d, "legal_mask", &self.legal_mask)?;
            writable_alias(&d, "rewards", &self.rewards)?;
            writable_alias(&d, "terminated", &self.terminated)?;
            writable_alias(&d, "truncated", &self.truncated)?;
            writable_alias(&d, "illegal", &self.illegal)?;
            writable_alias(&d, "seat", &self.seat)?;
            writable_alias(&d, "episode_return", &self.episode_return)?;
            writable_alias(&d, "seat_returns", &self.seat_returns)?;
            writable_alias(&d, "episode_length", &self.episode_length)?;
            writable_alias(&d, "episodes", &self.episodes)?;
            writable_alias(&d, "skipped", &self.skipped)?;
            writable_alias(&d, "skipped_return", &self.skipped_return)?;
        }
        Ok(d)
    }

    fn new(engine: &Bound<'_, LearnerEngine>) -> PyResult<Self> {
        let owner = engine.as_any();
        let guard = engine.borrow();
        let env = &*guard.env;
        let n = env.num_envs();
        // SAFETY: the buffers belong to the `LearnerEnv` inside `owner`, which lives as long
        // as any view (each view holds a reference to it). It allocates them once, never
        // resizes or moves them, and writes them only in `reset` and `step` (`&mut self`),
        // which run only while `LearnerEnv::engine` holds the engine's unique borrow.
        unsafe {
            Ok(LearnerViews {
                obs: view2(owner, env.obs(), n, env.obs_dim())?.unbind(),
                legal_mask: view2(owner, env.legal_mask(), n, env.num_actions())?.unbind(),
                rewards: view(owner, env.rewards())?.unbind(),
                terminated: view(owner, env.terminated())?.unbind(),
                truncated: view(owner, env.truncated())?.unbind(),
                illegal: view(owner, env.illegal())?.unbind(),
                seat: view(owner, env.seat())?.unbind(),
                opponent_id: view(owner, env.opponent_ids())?.unbind(),
                episode_return: view(owner, env.episode_return())?.unbind(),
                seat_returns: view2(owner, env.seat_returns(), n, env.num_players())?.unbind(),
                episode_length: view(owner, env.episode_length())?.unbind(),
                episodes: view(owner, env.episodes())?.unbind(),
                skipped: view(owner, env.skipped())?.unbind(),
                skipped_return: view(owner, env.skipped_return())?.unbind(),
            })
        }
    }
}

/// The game options of a learner view: `options` without `obs_dtype`, `mask_dtype` and
/// `obs_seats`, which are accepted at their defaults (`"f32"`, `"u8"`, `"acting"`) only: the
/// learner view writes float32 observations of the learner's seat and uint8 masks. Another value is a `ValueError` that points to
/// the batch environment.
fn without_default_dtypes<'py>(
    info: &GameInfo,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<Option<Bound<'py, PyDict>>> {
    let Some(options) = options else {
        return Ok(None);
    };
    let rest = options.copy()?;
    if let Some(v) = rest.get_item("obs_dtype")? {
        if args::obs_dtype(Some(&v))? != cardvec::core::ObsDtype::F32 {
            return Err(value_err(format!(
                "LearnerEnv({:?}): obs_dtype={} is not supported: the learner view's \
                 observations are float32 (compact observations: cardvec.make({:?}, \
                 num_envs, obs_dtype=\"u8\"), the batch environment)",
                info.id,
                v.repr()?,
                info.id
            )));
        }
        rest.del_item("obs_dtype")?;
    }
    if let Some(v) = rest.get_item("mask_dtype")? {
        if args::mask_dtype(Some(&v))? != args::MaskDtype::U8 {
            return Err(value_err(format!(
                "LearnerEnv({:?}): mask_dtype={} is not supported: the learner view's \
                 legal_mask is uint8 (use legal_mask.view(bool), or the batch environment)",
                info.id,
                v.repr()?
            )));
        }
        rest.del_item("mask_dtype")?;
    }
    if let Some(v) = rest.get_item("obs_seats")? {
        if crate::env_options::obs_seats_arg(Some(&v))? != cardvec::core::ObsSeats::Acting {
            return Err(value_err(format!(
                "LearnerEnv({:?}): obs_seats={} is not supported: the learner view observes                  the learner's seat only (every seat's rows: cardvec.make({:?}, num_envs,                  obs_seats=\"all\"), the batch environment)",
                info.id,
                v.repr()?,
                info.id
            )));
        }
        rest.del_item("obs_seats")?;
    }
    Ok(Some(rest))
}

/// The number of seats of game `id` configured by `options` (for the message of a seat
/// that is not even a seat index).
struct Players(Option<Options>);

impl Visitor for Players {
    type Output = Result<usize, CoreError>;
    fn visit<G: GameSpec>(&mut self) -> Self::Output {
        let options = self
            .0
            .take()
            .unwrap_or_else(|| Options::defaults(G::INFO.options));
        Ok(G::configure(&options)?.num_players())
    }
}

/// The `seat` argument: an integer seat or `"rotate"`.
fn learner_seat(
    seat: &Bound<'_, PyAny>,
    info: &'static GameInfo,
    options: &Options,
) -> PyResult<LearnerSeat> {
    if seat.is_instance_of::<PyString>() {
        let text = seat.extract::<String>()?;
        return match text.as_str() {
            "rotate" => Ok(LearnerSeat::Rotate),
            _ => Err(value_err(format!(
                "seat must be a seat index or \"rotate\", got {text:?}"
            ))),
        };
    }
    match args::int_value(seat, "seat")? {
        Ok(v) if v >= 0 && v <= usize::MAX as i128 => Ok(LearnerSeat::Fixed(v as usize)),
        value => {
            let players = registry::visit(info.id, &mut Players(Some(options.clone())))
                .and_then(|r| r)
                .map_err(core_err)?;
            let shown = match value {
                Ok(v) => v.to_string(),
                Err(text) => text,
            };
            Err(value_err(format!(
                "seat must be in 0..={}, got {shown}",
                players - 1
            )))
        }
    }
}

/// The `opponents` argument: one bot name, or a list (or tuple) of names.
fn opponent_names(opponents: &Bound<'_, PyAny>) -> PyResult<Opponents> {
    if opponents.is_instance_of::<PyString>() {
        return Ok(Opponents::Every(opponents.extract::<String>()?));
    }
    if opponents.is_instance_of::<PyList>() || opponents.is_instance_of::<PyTuple>() {
        let mut names = Vec::new();
        for item in opponents.try_iter()? {
            let item = item?;
            if !item.is_instance_of::<PyString>() {
                return Err(PyTypeError::new_err(format!(
                    "opponents must be bot names (str), got {}",
                    item.repr()?
                )));
            }
            names.push(item.extract::<String>()?);
        }
        return Ok(Opponents::Each(names));
    }
    Err(PyTypeError::new_err(format!(
        "opponents must be a bot name or a list of bot names, got {}",
        opponents.repr()?
    )))
}

/// The `entries` of `set_pool`: a list of entries, each a bot name (every other seat) or a
/// list of `num_players - 1` names; `weights` one float per entry (`None`: 1 each).
fn pool_entries(
    entries: &Bound<'_, PyAny>,
    weights: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<(Opponents, f64)>> {
    if entries.is_instance_of::<PyString>()
        || !(entries.is_instance_of::<PyList>() || entries.is_instance_of::<PyTuple>())
    {
        return Err(PyTypeError::new_err(format!(
            "entries must be a list of bot names (or of lists of names), got {}",
            entries.repr()?
        )));
    }
    let mut out = Vec::new();
    for item in entries.try_iter()? {
        out.push((opponent_names(&item?)?, 1.0));
    }
    if let Some(w) = weights.filter(|w| !w.is_none()) {
        let w: Vec<f64> = w.extract().map_err(|_| {
            PyTypeError::new_err(format!(
                "weights must be a list of floats, got {}",
                w.repr().map(|r| r.to_string()).unwrap_or_default()
            ))
        })?;
        if w.len() != out.len() {
            return Err(value_err(format!(
                "weights: {} weights for {} entries",
                w.len(),
                out.len()
            )));
        }
        for (entry, w) in out.iter_mut().zip(w) {
            entry.1 = w;
        }
    }
    Ok(out)
}

/// The learner view of a registered game: `num_envs` lanes in which the learner plays one
/// seat and built-in bots play every other seat inside Rust.
///
/// `LearnerEnv(game_id, num_envs, opponents="random", seat=0, seed=None, num_threads=None,
/// chunk_size=None, max_steps=None, on_illegal="noop", **options)`, or `cardvec.make(game_id, num_envs, opponents=...,
/// seat=..., **kw)`. `opponents` is one bot name for every other seat or a list of
/// `num_players - 1` names (the other seats in seat order, skipping the learner's);
/// `cardvec.bots.names(game_id)` lists them. `seat` is the learner's seat, or `"rotate"`:
/// lane l's seat in its k-th game is `(l + k) % num_players`.
///
/// `reset(seed=None) -> obs` and `step(actions) -> (obs, rewards, terminated, truncated)`:
/// each step applies the learner's action (an illegal one is what `on_illegal` says:
/// `"noop"`, a no-op flagged 1 in `illegal`, reward 0, nothing else changes, counted as a
/// ply toward `max_steps`; `"raise"`, `cardvec.IllegalActionError` naming the lanes, nothing
/// changed; `"lose"`, the game ends, `terminated`, flagged 1, the learner's reward the
/// game's worst result), then the bots play until the learner is to
/// act again or the game ends; `rewards[l]` is the learner seat's reward summed over all
/// those plies (a terminal reward landing on a bot's ply is credited to the learner's
/// decision that preceded it; a reward before the learner's first decision of a game, to
/// that first decision). Next-step autoreset, always on: the step after a lane finished
/// deals a new game, ignores the action (`illegal` 3) and shows reward 0. A game that ends
/// before the learner ever decides is never shown: it counts in `episodes`, `skipped` and
/// `skipped_return`, and the next game is dealt. `max_steps` (`None`: off; at least 1) cuts
/// a game off after that many plies of every seat, the learner's attempts and the bots'
/// actions (as the batch classes count a lane's attempted steps): the lane is shown `truncated`. See
/// docs/python.md, "Learner view".
///
/// Views (read-only numpy arrays, the same objects after every call, written by `reset`
/// and `step` with the GIL released: do not read them from another thread meanwhile):
/// `obs` float32 [N, obs_dim] (as seen by the learner's seat; at a finished lane the
/// final observation), `legal_mask` uint8 [N, num_actions], `rewards` float32 [N],
/// `terminated`, `truncated` bool [N], `illegal` uint8 [N], `seat` int32 [N] (the
/// learner's seat in the lane's current game), `episode_return` float32 [N] and
/// `episode_length` int32 [N] (the learner's return and number of decisions in the lane's
/// current episode so far: where terminated or truncated, the whole episode's),
/// `seat_returns` float32 [N, num_players] (every seat's rewards in the lane's current game,
/// column `s` seat `s`), `episodes` uint64 [N] (games finished since the reset, skipped ones included),
/// `skipped` uint64 [N] and `skipped_return` float64 [N] (the games that ended before the
/// learner's first decision, and the learner's total reward in them).
#[pyclass(module = "cardvec._cardvec", name = "LearnerEnv", frozen)]
pub struct LearnerEnv {
    engine: Py<LearnerEngine>,
    views: LearnerViews,
    info: &'static GameInfo,
    config: Options,
    opponents: Vec<String>,
    seat_rule: LearnerSeat,
    num_envs: usize,
    num_actions: usize,
    obs_dim: usize,
    num_players: usize,
    /// Set by `close()`: every later call that uses the engine is a `RuntimeError`.
    closed: std::sync::atomic::AtomicBool,
}

impl LearnerEnv {
    /// The engine, borrowed for one call; a call from another thread while one runs is a
    /// `RuntimeError`.
    fn engine<'py>(&self, py: Python<'py>) -> PyResult<PyRefMut<'py, LearnerEngine>> {
        if self.closed.load(std::sync::atomic::Ordering::Acquire) {
            return Err(PyRuntimeError::new_err(
                "this LearnerEnv is closed (close() was called): make a new environment",
            ));
        }
        self.engine.bind(py).try_borrow_mut().map_err(|_| {
            PyRuntimeError::new_err("LearnerEnv is busy: another thread is using this environment")
        })
    }

    fn step_result<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let v = &self.views;
        PyTuple::new(
            py,
            [
                v.obs.bind(py).as_any(),
                v.rewards.bind(py).as_any(),
                v.terminated.bind(py).as_any(),
                v.truncated.bind(py).as_any(),
            ],
        )
    }
}

#[pymethods]
impl LearnerEnv {
    #[new]
    #[pyo3(
        signature = (game_id, num_envs, opponents=None, seat=None, seed=None, num_threads=None, chunk_size=None, max_steps=None, on_illegal=None, **options),
        text_signature = "(game_id, num_envs, opponents=\"random\", seat=0, seed=None, num_threads=None, chunk_size=None, max_steps=None, on_illegal=\"noop\", **options)"
    )]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        game_id: &str,
        num_envs: &Bound<'_, PyAny>,
        opponents: Option<&Bound<'_, PyAny>>,
        seat: Option<&Bound<'_, PyAny>>,
        seed: Option<&Bound<'_, PyAny>>,
        num_threads: Option<&Bound<'_, PyAny>>,
        chunk_size: Option<&Bound<'_, PyAny>>,
        max_steps: Option<&Bound<'_, PyAny>>,
        on_illegal: Option<&Bound<'_, PyAny>>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let info = registry::info(game_id).map_err(core_err)?;
        let env_options = env_options(
            num_envs,
            seed,
            num_threads,
            true,
            true,
            chunk_size,
            max_steps,
            on_illegal,
        )?;
        let options = without_default_dtypes(info, options)?;
        let config = options::from_kwargs(info, options.as_ref())?;
        let names = match opponents.filter(|o| !o.is_none()) {
            Some(o) => opponent_names(o)?,
            None => Opponents::Every("random".to_string()),
        };
        let seat_rule = match seat.filter(|s| !s.is_none()) {
            Some(s) => learner_seat(s, info, &config)?,
            None => LearnerSeat::Fixed(0),
        };
        let env = py
            .detach(|| {
                registry::make_learner_with(info.id, &config, &names, seat_rule, env_options)
            })
            .map_err(|e| core_err_in(&format!("LearnerEnv({:?}): ", info.id), e))?;
        let (num_envs, num_actions, obs_dim, num_players) = (
            env.num_envs(),
            env.num_actions(),
            env.obs_dim(),
            env.num_players(),
        );
        let (config, opponents) = (env.config(), env.opponents().to_vec());
        let engine = Bound::new(
            py,
            LearnerEngine {
                env,
                actions: try_buffer(num_envs, 0, "actions")?,
            },
        )?;
        let views = LearnerViews::new(&engine)?;
        Ok(LearnerEnv {
            engine: engine.unbind(),
            views,
            info,
            config,
            opponents,
            seat_rule,
            num_envs,
            num_actions,
            obs_dim,
            num_players,
            closed: std::sync::atomic::AtomicBool::new(false),
        })
    }

    /// Closes the view (Gymnasium's `close()`): every later call that steps, resets or
    /// reads the engine is a `RuntimeError` saying so; views taken before stay readable.
    /// Closing twice is allowed. Also a context manager.
    fn close(&self) {
        self.closed
            .store(true, std::sync::atomic::Ordering::Release);
    }

    /// Whether `close()` was called.
    #[getter]
    fn closed(&self) -> bool {
        self.closed.load(std::sync::atomic::Ordering::Acquire)
    }

    fn __enter__(slf: Bound<'_, Self>) -> Bound<'_, Self> {
        slf
    }

    fn __exit__(
        &self,
        _exc_type: &Bound<'_, PyAny>,
        _exc: &Bound<'_, PyAny>,
        _tb: &Bound<'_, PyAny>,
    ) -> bool {
        self.close();
        false
    }

    /// Resets every lane (lane l deals its game 0 from the stream (seed, l, 0); the bots
    /// play until the learner's first decision). `seed=None` reuses the last seed; a
    /// sequence of num_envs seeds gives each lane its own: lane l then plays the games (and
    /// its bots the moves) of a one-lane view reset with `seed[l]` (a wrong length or a
    /// value outside 0..=2**64-1 is an error that changes nothing). Episode counters and
    /// statistics restart from zero. Returns `obs`.
    #[pyo3(signature = (seed=None))]
    fn reset<'py>(
        &self,
        py: Python<'py>,
        seed: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let mut engine = self.engine(py)?;
        let seed = args::reset_seed(seed, engine.env.num_envs())?;
        let env = &mut engine.env;
        match seed {
            args::ResetSeed::Last => {
                let seed = env.env_options().seed;
                py.detach(|| env.reset(seed));
            }
            args::ResetSeed::All(seed) => py.detach(|| env.reset(seed)),
            args::ResetSeed::PerLane(seeds) => py
                .detach(|| env.reset_seeds(&seeds))
                .map_err(crate::errors::core_err)?,
        }
        Ok(self.views.obs.bind(py).clone())
    }

    /// Steps every lane with the learner's action (a 1-D integer array of length
    /// num_envs; an illegal or out-of-range action is a no-op flagged 1 in `illegal`).
    /// Returns `(obs, rewards, terminated, truncated)`, the same array objects on every
    /// call. A wrong length or dtype is a `ValueError` that changes nothing.
    fn step<'py>(
        &self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let mut guard = self.engine(py)?;
        let engine = &mut *guard;
        let arr = array_1d(actions, "actions", Some(self.num_envs))?;
        let scratch = &mut engine.actions;
        for_each_int(&arr, "actions", |i, v| {
            scratch[i] = u32::try_from(v).unwrap_or(u32::MAX)
        })?;
        let (env, actions) = (&mut engine.env, &engine.actions);
        py.detach(|| env.step(actions)).map_err(core_err)?;
        drop(guard);
        self.step_result(py)
    }

    /// The batch API's name for `reset` (one implementation behind both names).
    #[pyo3(signature = (seed=None))]
    fn batched_reset<'py>(
        &self,
        py: Python<'py>,
        seed: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyArray2<f32>>> {
        self.reset(py, seed)
    }

    /// The batch API's name for `step` (one implementation behind both names).
    fn batched_step<'py>(
        &self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        self.step(py, actions)
    }

    /// The batch API's observation: the `obs` view (the learner view observes every step).
    fn batched_obs<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f32>> {
        self.views.obs.bind(py).clone()
    }

    /// The batch API's legal masks: the `legal_mask` view.
    fn batched_legal_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<u8>> {
        self.views.legal_mask.bind(py).clone()
    }

    /// The actions the game's built-in bot `bot` picks in the learner's place (what
    /// `cardvec.bots.act(env, bot, lanes, seed)` returns): int64 [num_envs], -1 where not
    /// selected or finished.
    #[pyo3(signature = (bot, lanes=None, seed=None))]
    fn _bot_actions<'py>(
        &self,
        py: Python<'py>,
        bot: &str,
        lanes: Option<&Bound<'py, PyAny>>,
        seed: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let engine = self.engine(py)?;
        let env = &*engine.env;
        bot_actions(py, self.num_envs, lanes, seed, |mask, seed, out| {
            cardvec::registry::learner_bot_actions(env, bot, mask, seed, out)
        })
    }

    /// The action keys of the learner's seat in every lane: int64 [num_envs, num_actions], a new
    /// array (each action's key, `GameSpec::action_keys`: for Lost Cities `card_id * 12 +
    /// place_type * 6 + draw_source`, the card in the action's hand slot; the action ids in
    /// a lane whose game is over, and everywhere for a game that names no keys). What a
    /// network with a key head (a policy file's `action_head = "keys"`) gathers its logits
    /// by.
    fn action_keys<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, numpy::PyArray2<i64>>> {
        let engine = self.engine(py)?;
        let env = &*engine.env;
        crate::bots::action_keys(py, self.num_envs, self.num_actions, |out| {
            cardvec::registry::learner_action_keys(env, Some(out))
        })
    }

    /// How many action keys the game names (`action_keys`' values are below it); 0 for a
    /// game that names none.
    #[getter]
    fn action_key_count(&self, py: Python<'_>) -> PyResult<usize> {
        let engine = self.engine(py)?;
        cardvec::registry::learner_action_keys(&*engine.env, None).map_err(crate::errors::core_err)
    }

    /// The action probabilities of the policy file `path` in the learner's place (what
    /// `cardvec.bots.policy_probs(env, path, lanes)` returns): float32 [num_envs,
    /// num_actions], zero rows where not selected or finished.
    #[pyo3(signature = (path, lanes=None))]
    fn _policy_probs<'py>(
        &self,
        py: Python<'py>,
        path: std::path::PathBuf,
        lanes: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let engine = self.engine(py)?;
        let env = &*engine.env;
        crate::bots::policy_probs(py, self.num_envs, self.num_actions, lanes, |mask, out| {
            cardvec::registry::learner_policy_probs(env, &path, mask, out)
        })
    }

    /// The action values of the search bot `bot` (a `pimc` name) in the learner's place
    /// (what `cardvec.bots.action_values(env, bot, lanes, seed)` returns): float32
    /// [num_envs, num_actions], NaN for illegal actions and where not selected or finished.
    #[pyo3(signature = (bot, lanes=None, seed=None))]
    fn _search_values<'py>(
        &self,
        py: Python<'py>,
        bot: &str,
        lanes: Option<&Bound<'py, PyAny>>,
        seed: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let engine = self.engine(py)?;
        let env = &*engine.env;
        crate::bots::search_values(
            py,
            self.num_envs,
            self.num_actions,
            lanes,
            seed,
            |mask, seed, out| cardvec::registry::learner_search_values(env, bot, mask, seed, out),
        )
    }

    /// Replaces the opponent pool (self-play): `entries` is a list of opponents, each a bot
    /// name (every other seat; `"policy:<path>"` included) or a list of `num_players - 1`
    /// names, `weights` one weight per entry (finite, at least 0, adding up to more than 0;
    /// `None`: equal). A lane draws its entry when its next game starts (from its own
    /// stream) and keeps it for the whole game: games in progress keep their opponents.
    /// The same names keep their id in `opponent_id`; `opponent_names[id]` names it. An
    /// empty pool, a bad weight, an unknown bot, a policy file for another game is a
    /// `ValueError` that changes nothing.
    #[pyo3(signature = (entries, weights=None))]
    fn set_pool(
        &self,
        py: Python<'_>,
        entries: &Bound<'_, PyAny>,
        weights: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let pool = pool_entries(entries, weights)?;
        let mut engine = self.engine(py)?;
        let env = &mut engine.env;
        py.detach(|| env.set_pool(&pool)).map_err(core_err)
    }

    /// The opponent pool: a new list of `(id, name, weight)`, in the order given to
    /// `set_pool` (at construction, `[(0, opponents, 1.0)]`).
    #[getter]
    fn pool(&self, py: Python<'_>) -> PyResult<Vec<(u32, String, f64)>> {
        let engine = self.engine(py)?;
        let labels = engine.env.entry_labels();
        Ok(engine
            .env
            .pool()
            .iter()
            .map(|&(id, w)| (id, labels[id as usize].clone(), w))
            .collect())
    }

    /// The name of every opponent entry ever in the pool, indexed by id (a new list): the
    /// bot name, or the names of the seats joined by `" | "`.
    #[getter]
    fn opponent_names(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        Ok(self.engine(py)?.env.entry_labels())
    }

    /// The id of the opponent entry playing the other seats of each lane's current game,
    /// int64 [num_envs] (read-only view; drawn when the game started, the same until it
    /// ends; `opponent_names[id]` names it).
    #[getter]
    fn opponent_id(&self, py: Python<'_>) -> Py<PyArray1<i64>> {
        self.views.opponent_id.clone_ref(py)
    }

    /// The outputs as torch tensors sharing the views' memory (no copy, no warning):
    /// `TorchViews` with one attribute per view (`obs`, `legal_mask`, `rewards`,
    /// `terminated`, `truncated`, `illegal`, `seat`, `episode_return`, `seat_returns`,
    /// `episode_length`, `episodes`, `skipped`, `skipped_return`). `mask="bool"` gives `legal_mask` as
    /// `torch.bool`, `mask="uint8"` as `torch.uint8`. The tensors follow every call like the
    /// views: make them once. Treat them as read-only (torch has no read-only tensors): an
    /// in-place write changes the environment's outputs. Needs PyTorch (`ImportError`
    /// otherwise). `step` takes a CPU integer tensor as its actions.
    #[pyo3(signature = (mask=None), text_signature = "($self, mask='bool')")]
    fn torch<'py>(
        &self,
        py: Python<'py>,
        mask: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        torch_tensors(&self.views.writable_aliases(py)?, mask)
    }

    /// Observations as seen by the learner's seat, float32 [num_envs, obs_dim] (read-only
    /// view; at a finished lane, the final observation).
    #[getter]
    fn obs(&self, py: Python<'_>) -> Py<PyArray2<f32>> {
        self.views.obs.clone_ref(py)
    }
    /// The learner's legal masks, uint8 [num_envs, num_actions] (all zero at a finished
    /// lane).
    #[getter]
    fn legal_mask(&self, py: Python<'_>) -> Py<PyArray2<u8>> {
        self.views.legal_mask.clone_ref(py)
    }
    /// The learner's reward of the last step, float32 [num_envs].
    #[getter]
    fn rewards(&self, py: Python<'_>) -> Py<PyArray1<f32>> {
        self.views.rewards.clone_ref(py)
    }
    /// Natural end flags, bool [num_envs].
    #[getter]
    fn terminated(&self, py: Python<'_>) -> Py<PyArray1<bool>> {
        self.views.terminated.clone_ref(py)
    }
    /// Cut-off flags, bool [num_envs] (a step limit of the game, or the learner view's own
    /// limits: see docs/python.md).
    #[getter]
    fn truncated(&self, py: Python<'_>) -> Py<PyArray1<bool>> {
        self.views.truncated.clone_ref(py)
    }
    /// What happened to each lane's last action, uint8 [num_envs]: 0 applied, 1 illegal
    /// (no-op), 3 the lane had finished and was reset (action ignored).
    #[getter]
    fn illegal(&self, py: Python<'_>) -> Py<PyArray1<u8>> {
        self.views.illegal.clone_ref(py)
    }
    /// The learner's seat in each lane's current game, int32 [num_envs].
    #[getter]
    fn seat(&self, py: Python<'_>) -> Py<PyArray1<i32>> {
        self.views.seat.clone_ref(py)
    }
    /// The learner's return in each lane's current episode so far, float32 [num_envs]:
    /// where terminated or truncated, the return of the episode that just ended.
    #[getter]
    fn episode_return(&self, py: Python<'_>) -> Py<PyArray1<f32>> {
        self.views.episode_return.clone_ref(py)
    }
    /// Every seat's rewards in each lane's current game so far, float32
    /// [num_envs, num_players] (column `s`: seat `s`, not relative to the learner), the
    /// bots' included: where terminated or truncated, the whole game's, so a trainer can
    /// tell who won. A reward counts here when received: the learner's column is
    /// `episode_return` except before its first decision of a game (the rewards it got
    /// before then wait for its first step's reward there).
    #[getter]
    fn seat_returns(&self, py: Python<'_>) -> Py<PyArray2<f32>> {
        self.views.seat_returns.clone_ref(py)
    }
    /// The learner's decisions (actions applied) in each lane's current episode so far,
    /// int32 [num_envs]: where terminated or truncated, the length of the episode that just
    /// ended.
    #[getter]
    fn episode_length(&self, py: Python<'_>) -> Py<PyArray1<i32>> {
        self.views.episode_length.clone_ref(py)
    }
    /// Games finished in each lane since the reset, skipped ones included, uint64
    /// [num_envs].
    #[getter]
    fn episodes(&self, py: Python<'_>) -> Py<PyArray1<u64>> {
        self.views.episodes.clone_ref(py)
    }
    /// Games of each lane that ended before the learner's first decision (never shown),
    /// uint64 [num_envs].
    #[getter]
    fn skipped(&self, py: Python<'_>) -> Py<PyArray1<u64>> {
        self.views.skipped.clone_ref(py)
    }
    /// The learner's total reward in the skipped games of each lane, float64 [num_envs].
    #[getter]
    fn skipped_return(&self, py: Python<'_>) -> Py<PyArray1<f64>> {
        self.views.skipped_return.clone_ref(py)
    }
    /// The game's view of lane `lane` as the learner's seat there sees it (the game's own
    /// words, `Words::view`: the JSON the web table draws; every card with `reveal=True`),
    /// as JSON text. What `cardvec.gym`'s `render()` draws.
    #[pyo3(signature = (lane=None, reveal=false))]
    fn view_json(
        &self,
        py: Python<'_>,
        lane: Option<&Bound<'_, PyAny>>,
        reveal: bool,
    ) -> PyResult<String> {
        let lane = match lane {
            Some(l) => args::size_in(l, "lane", 0, self.num_envs.saturating_sub(1))?,
            None => 0,
        };
        let engine = self.engine(py)?;
        let v = engine
            .env
            .view(lane, reveal)
            .map_err(crate::errors::core_err)?;
        Ok(v.to_string())
    }
    /// The game's registry id.
    #[getter]
    fn game_id(&self) -> &'static str {
        self.info.id
    }
    /// The game's configuration: a new dict of every option the game reports.
    #[getter]
    fn config<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        options::options_dict(py, &self.config)
    }
    /// The bots of the other seats, a new list of `num_players - 1` names in seat order
    /// (skipping the learner's).
    #[getter]
    fn opponents(&self) -> Vec<String> {
        self.opponents.clone()
    }
    /// The `seat` the environment was built with: an int, or `"rotate"`.
    #[getter]
    fn learner_seat<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(match self.seat_rule {
            LearnerSeat::Fixed(s) => s.into_pyobject(py)?.into_any(),
            LearnerSeat::Rotate => PyString::new(py, "rotate").into_any(),
        })
    }
    /// Number of lanes.
    #[getter]
    fn num_envs(&self) -> usize {
        self.num_envs
    }
    /// Size of the action space.
    #[getter]
    fn num_actions(&self) -> usize {
        self.num_actions
    }
    /// Length of one observation row.
    #[getter]
    fn obs_dim(&self) -> usize {
        self.obs_dim
    }
    /// Number of seats.
    #[getter]
    fn num_players(&self) -> usize {
        self.num_players
    }
    /// Seed of the last reset.
    #[getter]
    fn seed(&self, py: Python<'_>) -> PyResult<u64> {
        Ok(self.engine(py)?.env.env_options().seed)
    }
    /// Step limit per game (`None`: off): a game that reaches this many plies of every
    /// seat (the learner's illegal no-ops included) without ending is shown truncated.
    #[getter]
    fn max_steps(&self, py: Python<'_>) -> PyResult<Option<u32>> {
        Ok(self.engine(py)?.env.env_options().max_steps)
    }
    /// What an illegal learner action does: `"noop"`, `"raise"` or `"lose"`.
    #[getter]
    fn on_illegal(&self, py: Python<'_>) -> PyResult<&'static str> {
        Ok(self.engine(py)?.env.env_options().on_illegal.as_str())
    }
    /// The engine object that owns the buffers (the `base` of every view).
    #[getter]
    fn _engine(&self, py: Python<'_>) -> Py<LearnerEngine> {
        self.engine.clone_ref(py)
    }

    fn __len__(&self) -> usize {
        self.num_envs
    }

    fn __repr__(&self) -> String {
        let seat = match self.seat_rule {
            LearnerSeat::Fixed(s) => s.to_string(),
            LearnerSeat::Rotate => "'rotate'".into(),
        };
        format!(
            "LearnerEnv({:?}, num_envs={}, opponents={:?}, seat={seat}, num_players={}, \
             num_actions={}, obs_dim={})",
            self.info.id,
            self.num_envs,
            self.opponents,
            self.num_players,
            self.num_actions,
            self.obs_dim
        )
    }
}

/// Registers the learner classes in the compiled module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<LearnerEnv>()?;
    m.add_class::<LearnerEngine>()?;
    Ok(())
}
