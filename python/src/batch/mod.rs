//! Python bindings of cardvec: one batch class for every registered game.
//!
//! [`BatchEnv`] wraps the [`DynEnv`] that [`cardvec::registry::make`] builds for a game id,
//! so a game added to the registry is available in Python without code here; the Python
//! package derives one subclass per game from the table ([`options::games`]), named by
//! `GameInfo::python_class` (`cardvec.LostCities`, `cardvec.Flip7`, ...).
//!
//! Two objects per environment:
//!
//! - [`BatchEngine`] (`_BatchEngine`, private) owns the [`DynEnv`] and is the `base` of every
//!   array view, so the memory stays alive as long as any view does;
//! - [`BatchEnv`] (public, frozen) holds the engine and the views created once.
//!
//! Why two objects: numpy arrays do not take part in Python's garbage collector, so an
//! environment that held views whose `base` was the environment itself would form a cycle
//! the collector cannot see, and every environment would leak. Here the arrays point to the
//! engine and the engine points to nothing, so dropping the environment frees everything
//! once the last view is gone.
//!
//! Zero copy: the views are built with [`PyArray::borrow_from_array`] over the output
//! buffers of the `VecEnv` behind the [`DynEnv`], which are allocated once and never
//! reallocated (the core keeps the output buffers in place, `gather` included). They are
//! marked read-only; numpy refuses to make them writeable again because their base exposes
//! no writeable buffer. The GIL is released while the engine works; a call from another
//! thread meanwhile finds the engine borrowed and raises `RuntimeError` ("busy"), but a read
//! of a view cannot be stopped: the docs forbid reading the views from another thread during
//! a call that writes them (the rows may be torn).
//!
//! The engine's `VecEnv` runs on a `ForkSafePool`, so an environment keeps working in a
//! process forked after it was used.

use cardvec::core::spec::{GameInfo, Options};
use cardvec::core::{DynEnv, InfoSeats, ObsDtype, ObsSeats};
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedBytes;
use pyo3::types::{PyBytes, PyDict, PyList, PyTuple};

use crate::arrays::{array_1d, check_disjoint, for_each_int, out_array, torch_tensors};
use crate::env_options::env_options;
use crate::errors::{core_err, core_err_in, try_buffer, value_err};
use crate::obs_format::{expand_obs, PyObsFormat};
use crate::{args, bots, options};

mod engine;
mod views;

use engine::info_state_dim;
pub(crate) use engine::BatchEngine;
use views::Views;

/// The batch environment of a registered game: `num_envs` lanes stepped together.
///
/// `BatchEnv(game_id, num_envs, seed=None, num_threads=None, autoreset=False,
/// observe=True, chunk_size=None, max_steps=None, *, obs_dtype="f32", mask_dtype="u8",
/// on_illegal="noop", obs_seats="acting", **options)`; each game's class (`cardvec.Flip7`, ..., see `cardvec.games()`) is a
/// subclass that supplies `game_id`, and `cardvec.make(game_id, num_envs, **kwargs)` builds
/// one by id. `seed=None` is 0, `num_threads=None` uses every core (`1..=MAX_THREADS`
/// otherwise; every environment of the process with the same count shares one pool),
/// `chunk_size=None` is 64; the game's options are keyword arguments (a bad one is a `ValueError` naming the
/// accepted options). `obs_dtype="u8"` writes the game's compact observation rows (`obs`
/// uint8 plus `obs_tail` float32, see `obs_format` and `obs_f32`); `mask_dtype="bool"`
/// shows `legal_mask` as numpy bools (the same memory). `on_illegal` says what an illegal
/// action on a live lane does: `"noop"` (a no-op flagged 1 in `illegal`, counted toward
/// `max_steps`), `"raise"` (`step` raises `cardvec.IllegalActionError`, a `ValueError`
/// naming the lanes, and changes nothing) or `"lose"` (the lane ends, `terminated`, the
/// offending seat taking the game's worst result in `rewards`; docs/architecture.md).
/// `obs_seats="all"` keeps every seat's float32 row: `obs` is `[num_envs, num_players,
/// obs_dim]`, row `[i, s]` lane i as seat s sees it (read `obs[i, current_player[i]]`),
/// updated incrementally where the game can (docs/performance.md); float32 only.
///
/// Outputs (`obs`, `obs_tail`, `legal_mask`, `rewards`, `terminated`, `truncated`,
/// `current_player`, `illegal`) are read-only numpy views of the engine's buffers: the same
/// array objects on every call, at the same addresses for the environment's lifetime,
/// updated in place.
///
/// Which calls write the views: `step`, `reset`, `reset_lanes`, `reset_lane_from_order`,
/// `gather`, `set_state` and `observe` (only `obs`). They release the GIL while the lanes
/// run on worker threads, so another Python thread could read a view meanwhile: that is not
/// allowed, the rows it reads may be half old and half new (torn). Read the views between
/// calls, or copy them (`arr.copy()`) before handing them to another thread. A second call
/// on the same environment from another thread during one of these calls is refused with
/// `RuntimeError` ("busy").
///
/// Fork: an environment (created and used before `os.fork()`, a `multiprocessing` "fork"
/// pool or a DataLoader worker) works in the child, which starts worker threads of its own
/// on its first call; results are the same as in the parent.
#[pyclass(module = "cardvec._cardvec", name = "BatchEnv", frozen, subclass)]
pub(crate) struct BatchEnv {
    engine: Py<BatchEngine>,
    views: Views,
    obs_dtype: ObsDtype,
    obs_seats: ObsSeats,
    mask_dtype: args::MaskDtype,
    info: &'static GameInfo,
    config: Options,
    num_envs: usize,
    num_actions: usize,
    obs_dim: usize,
    num_players: usize,
    state_size: usize,
    zero_sum: bool,
    /// Set by `close()`: every later call that uses the engine is a `RuntimeError`.
    closed: std::sync::atomic::AtomicBool,
}

impl BatchEnv {
    /// The registry entry of the environment's game.
    pub(crate) fn info(&self) -> &'static GameInfo {
        self.info
    }

    /// A lane index (`0..num_envs`) from Python (see [`args`]).
    fn lane(&self, lane: &Bound<'_, PyAny>) -> PyResult<usize> {
        args::size_in(lane, "lane", 0, self.num_envs - 1)
    }

    /// The engine, borrowed for one call; a call from another thread while one runs (the
    /// GIL is released while stepping) is a `RuntimeError`.
    pub(crate) fn engine<'py>(&self, py: Python<'py>) -> PyResult<PyRefMut<'py, BatchEngine>> {
        if self.closed.load(std::sync::atomic::Ordering::Acquire) {
            return Err(PyRuntimeError::new_err(format!(
                "this {} is closed (close() was called): make a new environment",
                self.info.python_class
            )));
        }
        self.engine.bind(py).try_borrow_mut().map_err(|_| {
            PyRuntimeError::new_err(format!(
                "{} is busy: another thread is using this environment",
                self.info.python_class
            ))
        })
    }
}

#[pymethods]
impl BatchEnv {
    #[new]
    #[pyo3(
        signature = (game_id, num_envs, seed=None, num_threads=None, autoreset=None, observe=None, chunk_size=None, max_steps=None, *, obs_dtype=None, mask_dtype=None, on_illegal=None, obs_seats=None, **options),
        text_signature = "(game_id, num_envs, seed=None, num_threads=None, autoreset=False, observe=True, chunk_size=None, max_steps=None, *, obs_dtype='f32', mask_dtype='u8', on_illegal='noop', obs_seats='acting', **options)"
    )]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        game_id: &str,
        num_envs: &Bound<'_, PyAny>,
        seed: Option<&Bound<'_, PyAny>>,
        num_threads: Option<&Bound<'_, PyAny>>,
        autoreset: Option<&Bound<'_, PyAny>>,
        observe: Option<&Bound<'_, PyAny>>,
        chunk_size: Option<&Bound<'_, PyAny>>,
        max_steps: Option<&Bound<'_, PyAny>>,
        obs_dtype: Option<&Bound<'_, PyAny>>,
        mask_dtype: Option<&Bound<'_, PyAny>>,
        on_illegal: Option<&Bound<'_, PyAny>>,
        obs_seats: Option<&Bound<'_, PyAny>>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let info = cardvec::registry::info(game_id).map_err(core_err)?;
        let autoreset = args::opt_flag(autoreset, "autoreset", false)?;
        let observe = args::opt_flag(observe, "observe", true)?;
        let mut env_options = env_options(
            num_envs,
            seed,
            num_threads,
            autoreset,
            observe,
            chunk_size,
            max_steps,
            on_illegal,
        )?;
        env_options.obs_dtype = args::obs_dtype(obs_dtype)?;
        env_options.obs_seats = crate::env_options::obs_seats_arg(obs_seats)?;
        let mask_dtype = args::mask_dtype(mask_dtype)?;
        let options = options::from_kwargs(info, options)?;
        let env = py
            .detach(|| cardvec::registry::make_with(info.id, &options, env_options))
            .map_err(|e| core_err_in(&format!("{}: ", info.python_class), e))?;
        let batch = BatchEnv::from_env(py, info, env, mask_dtype)?;
        Ok(batch)
    }

    /// Resets every lane (lane i draws from the stream (seed, i, episode 0)). `seed=None`
    /// reuses the last seed; a sequence of num_envs seeds gives each lane its own: lane i
    /// then plays the games a one-lane environment reset with `seed[i]` plays (a wrong
    /// length or a value outside 0..=2**64-1 is an error that changes nothing). Returns
    /// `obs`.
    #[pyo3(signature = (seed=None))]
    fn reset<'py>(
        &self,
        py: Python<'py>,
        seed: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let seed = args::reset_seed(seed, self.num_envs)?;
        self.engine(py)?.reset(py, seed)?;
        Ok(self.views.obs(py))
    }

    /// Steps every lane with one action (a 1-D integer array of length num_envs). Illegal
    /// or out-of-range actions and actions on finished lanes are no-ops flagged in
    /// `illegal`. Returns `(obs, rewards, terminated, truncated)`, the same array objects on
    /// every call.
    fn step<'py>(
        &self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        self.engine(py)?.step(py, actions)?;
        self.views.step_result(py)
    }

    /// Computes the observation of the player to act in every lane. Returns `obs`.
    fn observe<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.engine(py)?.observe(py);
        Ok(self.views.obs(py))
    }

    /// The batch API's name for `reset` (one implementation behind both names): resets
    /// every lane; returns `obs`.
    #[pyo3(signature = (seed=None))]
    fn batched_reset<'py>(
        &self,
        py: Python<'py>,
        seed: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.reset(py, seed)
    }

    /// The batch API's name for `step` (one implementation behind both names): returns
    /// `(obs, rewards, terminated, truncated)`.
    fn batched_step<'py>(
        &self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        self.step(py, actions)
    }

    /// The batch API's name for `observe`: the observation of the player to act in every
    /// lane, `obs` (float32 [num_envs, obs_dim], or uint8 [num_envs, byte_dim] with
    /// `obs_dtype="u8"`).
    fn batched_obs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.observe(py)
    }

    /// The batch API's legal masks: the `legal_mask` view, uint8 (or bool with
    /// `mask_dtype="bool"`) [num_envs, num_actions].
    fn batched_legal_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        self.views.legal_mask(py)
    }

    /// Resets the lanes where `mask` (bool array [num_envs]) is true; each starts its next
    /// episode.
    fn reset_lanes(&self, py: Python<'_>, mask: &Bound<'_, PyAny>) -> PyResult<()> {
        self.engine(py)?.reset_lanes(py, mask)
    }

    /// Deals lane `lane` from an explicit card order (an integer array; the game documents
    /// its format).
    fn reset_lane_from_order(
        &self,
        py: Python<'_>,
        lane: &Bound<'_, PyAny>,
        order: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let lane = self.lane(lane)?;
        self.engine(py)?.reset_lane_from_order(lane, order)
    }

    /// Copies lanes: afterwards lane i holds what lane sources[i] held (state, random
    /// stream, outputs). `sources` is an integer array [num_envs].
    fn gather(&self, py: Python<'_>, sources: &Bound<'_, PyAny>) -> PyResult<()> {
        self.engine(py)?.gather(py, sources)
    }

    /// The actions the game's built-in bot `bot` picks for the seat to act (what
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
        bots::bot_actions(py, self.num_envs, lanes, seed, |mask, seed, out| {
            cardvec::registry::bot_actions(env, bot, mask, seed, out)
        })
    }

    /// The action keys of the seat to act in every lane: int64 [num_envs, num_actions], a new
    /// array (each action's key, `GameSpec::action_keys`: for Lost Cities `card_id * 12 +
    /// place_type * 6 + draw_source`, the card in the action's hand slot; the action ids in
    /// a lane whose game is over, and everywhere for a game that names no keys). What a
    /// network with a key head (a policy file's `action_head = "keys"`) gathers its logits
    /// by.
    fn action_keys<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, numpy::PyArray2<i64>>> {
        let engine = self.engine(py)?;
        let env = &*engine.env;
        bots::action_keys(py, self.num_envs, self.num_actions, |out| {
            cardvec::registry::action_keys(env, Some(out))
        })
    }

    /// How many action keys the game names (`action_keys`' values are below it); 0 for a
    /// game that names none.
    #[getter]
    fn action_key_count(&self, py: Python<'_>) -> PyResult<usize> {
        let engine = self.engine(py)?;
        cardvec::registry::action_keys(&*engine.env, None).map_err(crate::errors::core_err)
    }

    /// The action probabilities of the policy file `path` for the seat to act (what
    /// `cardvec.bots.policy_probs(env, path, lanes)` returns): float32 [num_envs,
    /// num_actions], zero rows where not selected or finished.
    #[pyo3(signature = (path, lanes=None))]
    fn _policy_probs<'py>(
        &self,
        py: Python<'py>,
        path: std::path::PathBuf,
        lanes: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, numpy::PyArray2<f32>>> {
        let engine = self.engine(py)?;
        let env = &*engine.env;
        bots::policy_probs(py, self.num_envs, self.num_actions, lanes, |mask, out| {
            cardvec::registry::policy_probs(env, &path, mask, out)
        })
    }

    /// The action values of the search bot `bot` (a `pimc` name) for the seat to act (what
    /// `cardvec.bots.action_values(env, bot, lanes, seed)` returns): float32 [num_envs,
    /// num_actions], NaN for illegal actions and where not selected or finished.
    #[pyo3(signature = (bot, lanes=None, seed=None))]
    fn _search_values<'py>(
        &self,
        py: Python<'py>,
        bot: &str,
        lanes: Option<&Bound<'py, PyAny>>,
        seed: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, numpy::PyArray2<f32>>> {
        let engine = self.engine(py)?;
        let env = &*engine.env;
        bots::search_values(
            py,
            self.num_envs,
            self.num_actions,
            lanes,
            seed,
            |mask, seed, out| cardvec::registry::search_values(env, bot, mask, seed, out),
        )
    }

    /// A new float32 array: the observation of lane `lane` as seen by seat `player`.
    fn observe_as<'py>(
        &self,
        py: Python<'py>,
        lane: &Bound<'py, PyAny>,
        player: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let lane = self.lane(lane)?;
        let player = args::size_in(player, "player", 0, self.num_players - 1)?;
        self.engine(py)?.observe_as(py, lane, player)
    }

    /// Length of one information-state tensor (`info_state_tensor`), or `None` for a game
    /// without information states.
    #[getter]
    fn info_state_dim(&self, py: Python<'_>) -> PyResult<Option<usize>> {
        Ok(self.engine(py)?.env.info_state_dim())
    }

    /// A new float32 array `[num_envs, info_state_dim]`: each lane's information-state
    /// tensor (the perfect-recall information state, fixed length; Kuhn and Leduc:
    /// OpenSpiel's `information_state_tensor`) for `player`: `None` (each lane's seat to
    /// act), one seat for every lane, or an integer array `[num_envs]` of seats. Written in
    /// parallel; the same for any thread count. A game without information states is a
    /// `ValueError` naming those that have them.
    #[pyo3(signature = (player=None))]
    fn info_state_tensor<'py>(
        &self,
        py: Python<'py>,
        player: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let engine = self.engine(py)?;
        let last = self.num_players - 1;
        match player {
            None => engine.info_state_tensor(py, self.info, InfoSeats::ToAct),
            Some(p) if p.is_none() => engine.info_state_tensor(py, self.info, InfoSeats::ToAct),
            Some(p)
                if p.cast::<PyUntypedArray>().is_ok_and(|a| a.ndim() > 0)
                    || p.cast::<PyList>().is_ok()
                    || p.cast::<PyTuple>().is_ok() =>
            {
                info_state_dim(&*engine.env, self.info)?;
                let arr = array_1d(p, "player", Some(self.num_envs))?;
                let mut seats = try_buffer(self.num_envs, 0usize, "player")?;
                let mut bad = None;
                for_each_int(&arr, "player", |i, v| match usize::try_from(v) {
                    Ok(s) if s <= last => seats[i] = s,
                    _ => bad = bad.or(Some(v)),
                })?;
                if let Some(v) = bad {
                    return Err(value_err(format!("player must be in 0..={last}, got {v}")));
                }
                engine.info_state_tensor(py, self.info, InfoSeats::PerLane(&seats))
            }
            Some(p) => {
                let seat = args::size_in(p, "player", 0, last)?;
                engine.info_state_tensor(py, self.info, InfoSeats::Seat(seat))
            }
        }
    }

    /// The perfect-recall information-state key of seat `player` in lane `lane` (bytes:
    /// equal keys exactly when the seat cannot tell the states apart). A game without
    /// information states is a `ValueError` naming those that have them.
    fn info_state_key<'py>(
        &self,
        py: Python<'py>,
        lane: &Bound<'py, PyAny>,
        player: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let lane = self.lane(lane)?;
        let player = args::size_in(player, "player", 0, self.num_players - 1)?;
        let engine = self.engine(py)?;
        info_state_dim(&*engine.env, self.info)?;
        let key = engine.env.info_state_key(lane, player).map_err(core_err)?;
        Ok(PyBytes::new(py, &key))
    }

    /// The information state of seat `player` in lane `lane` as text (Kuhn and Leduc:
    /// OpenSpiel's `information_state_string`). A game without information states is a
    /// `ValueError` naming those that have them.
    fn info_state_string(
        &self,
        py: Python<'_>,
        lane: &Bound<'_, PyAny>,
        player: &Bound<'_, PyAny>,
    ) -> PyResult<String> {
        let lane = self.lane(lane)?;
        let player = args::size_in(player, "player", 0, self.num_players - 1)?;
        let engine = self.engine(py)?;
        info_state_dim(&*engine.env, self.info)?;
        engine.env.info_state_string(lane, player).map_err(core_err)
    }

    /// The state of lane `lane` as bytes (`state_size` of them): the game's state record,
    /// without the lane's random stream. `set_state` takes it back.
    fn get_state<'py>(
        &self,
        py: Python<'py>,
        lane: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let lane = self.lane(lane)?;
        let engine = self.engine(py)?;
        let bytes = engine.env.state_bytes(lane).map_err(core_err)?;
        Ok(PyBytes::new(py, bytes))
    }

    /// Replaces the state of lane `lane` with `state` (bytes from `get_state`, possibly of
    /// another lane or environment of the same configuration); its outputs are recomputed
    /// and its rewards zeroed. A bad lane, a wrong length or a state the game rejects is a
    /// `ValueError` that changes nothing.
    fn set_state(
        &self,
        py: Python<'_>,
        lane: &Bound<'_, PyAny>,
        state: PyBackedBytes,
    ) -> PyResult<()> {
        let lane = self.lane(lane)?;
        self.engine(py)?
            .env
            .set_state_bytes(lane, &state)
            .map_err(core_err)
    }

    /// The name of `action` for the seat to act in lane `lane` (the game's words: "call 2",
    /// "play yellow 7, draw from deck", "hit"); any id gets a name ("action N" for one the
    /// game does not know).
    fn action_name(
        &self,
        py: Python<'_>,
        lane: &Bound<'_, PyAny>,
        action: &Bound<'_, PyAny>,
    ) -> PyResult<String> {
        let lane = self.lane(lane)?;
        let action = args::size_in(action, "action", 0, u32::MAX as usize)? as u32;
        self.engine(py)?
            .env
            .action_name(lane, action)
            .map_err(core_err)
    }

    /// What `seat` sees of lane `lane`, as a dict (the structure the web table draws: a
    /// `kind`, the seats, piles, chips and scores); no card that seat may not see unless
    /// `reveal`.
    #[pyo3(signature = (lane, seat, reveal=false))]
    fn view<'py>(
        &self,
        py: Python<'py>,
        lane: &Bound<'py, PyAny>,
        seat: &Bound<'py, PyAny>,
        reveal: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let lane = self.lane(lane)?;
        let seat = args::size_in(seat, "seat", 0, self.num_players - 1)?;
        let text = self
            .engine(py)?
            .env
            .view(lane, seat, reveal)
            .map_err(core_err)?
            .to_string();
        py.import("json")?.call_method1("loads", (text,))
    }

    /// How lane `lane`'s game ended, as a dict (`results` per seat, `winners` with ties
    /// kept, `hands` shown down, a one-line `summary`, `tie`), or `None` while it runs.
    fn outcome<'py>(
        &self,
        py: Python<'py>,
        lane: &Bound<'py, PyAny>,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        let lane = self.lane(lane)?;
        let outcome = self.engine(py)?.env.outcome(lane).map_err(core_err)?;
        match outcome {
            None => Ok(None),
            Some(o) => {
                let text = o.to_json().to_string();
                Ok(Some(py.import("json")?.call_method1("loads", (text,))?))
            }
        }
    }

    /// Lane `lane`'s state as one readable line that `set_state_text` reads back to the
    /// same state (the game's docs page gives the format).
    fn state_text(&self, py: Python<'_>, lane: &Bound<'_, PyAny>) -> PyResult<String> {
        let lane = self.lane(lane)?;
        self.engine(py)?.env.state_text(lane).map_err(core_err)
    }

    /// `determinize(lane, seat, seed) -> bytes`: lane `lane`'s state with the cards `seat`
    /// cannot see dealt afresh (uniformly among the deals consistent with what `seat` has
    /// seen, from a stream seeded by `seed`), as bytes for `set_state`; the lane does not
    /// change. A game without the capability (`ValueError`), a bad lane, seat or seed is
    /// an error.
    fn determinize<'py>(
        &self,
        py: Python<'py>,
        lane: &Bound<'py, PyAny>,
        seat: &Bound<'py, PyAny>,
        seed: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let lane = self.lane(lane)?;
        let seat = args::size_in(seat, "seat", 0, self.num_players - 1)?;
        let seed = args::seed(seed)?;
        let bytes = self
            .engine(py)?
            .env
            .determinize(lane, seat, seed)
            .map_err(core_err)?;
        Ok(PyBytes::new(py, &bytes))
    }

    /// Sets lane `lane` from a state text (as `set_state`): a malformed text or a state
    /// the game cannot reach is a `ValueError` naming the problem, and changes nothing.
    fn set_state_text(&self, py: Python<'_>, lane: &Bound<'_, PyAny>, text: &str) -> PyResult<()> {
        let lane = self.lane(lane)?;
        self.engine(py)?
            .env
            .set_state_text(lane, text)
            .map_err(core_err)
    }

    /// The outputs as torch tensors sharing the views' memory (no copy, no warning):
    /// `TorchViews` with the attributes `obs`, `legal_mask`, `rewards`, `terminated`,
    /// `truncated`, `current_player`, `illegal`. `mask="bool"` gives `legal_mask` as
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

    /// Observations of the player to act (read-only view): float32 [num_envs, obs_dim], or
    /// with `obs_dtype="u8"` the bytes of the compact rows, uint8 [num_envs, byte_dim]
    /// (the other values in `obs_tail`; `obs_f32()` rebuilds the float32 rows).
    #[getter]
    fn obs<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        self.views.obs(py)
    }
    /// The float32 tail of the compact observations, [num_envs, tail_dim] (read-only view;
    /// `[num_envs, 0]` with `obs_dtype="f32"`), see `obs_format`.
    #[getter]
    fn obs_tail(&self, py: Python<'_>) -> Py<PyArray2<f32>> {
        self.views.obs_tail.clone_ref(py)
    }
    /// Legal masks, uint8 (bool with `mask_dtype="bool"`: the same memory) [num_envs,
    /// num_actions] (read-only view).
    #[getter]
    fn legal_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        self.views.legal_mask(py)
    }
    /// The element type of `obs`: `"f32"` or `"u8"` (the constructor's `obs_dtype`).
    #[getter]
    fn obs_dtype(&self) -> &'static str {
        self.obs_dtype.name()
    }
    /// The element type of `legal_mask`: `"u8"` or `"bool"` (the constructor's
    /// `mask_dtype`).
    #[getter]
    fn mask_dtype(&self) -> &'static str {
        self.mask_dtype.name()
    }
    /// The game's compact observation format (a new `ObsFormat`): where each byte of a
    /// `obs_dtype="u8"` row and each tail value go in the float32 row.
    #[getter]
    fn obs_format(&self, py: Python<'_>) -> PyResult<PyObsFormat> {
        PyObsFormat::new(py, self.engine(py)?.env.obs_format())
    }
    /// The float32 observations [num_envs, obs_dim] (a copy): with `obs_dtype="u8"` rebuilt
    /// from `obs` and `obs_tail` (`byte / div`, tail values as they are: the float32 rows
    /// bit for bit), in parallel without the GIL. `out`: a C-contiguous writable float32
    /// array of that shape to write into (returned); another array is a `ValueError` that
    /// writes nothing.
    #[pyo3(signature = (out=None))]
    fn obs_f32<'py>(
        &self,
        py: Python<'py>,
        out: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let engine = self.engine(py)?;
        let env = &*engine.env;
        if env.env_options().obs_seats != ObsSeats::Acting {
            return Err(value_err(
                "obs_f32 rebuilds the acting seat's rows; with obs_seats=\"all\" `obs` is \
                 already float32 [num_envs, num_players, obs_dim] (copy it)"
                    .to_string(),
            ));
        }
        let out = out_array::<f32>(py, out, "out", "float32", (self.num_envs, self.obs_dim))?;
        let mut rw = out
            .try_readwrite()
            .map_err(|e| value_err(format!("out: cannot write the array: {e}")))?;
        let dst = rw
            .as_slice_mut()
            .map_err(|e| value_err(format!("out: {e}")))?;
        check_disjoint(dst, env.obs())?;
        check_disjoint(dst, env.obs_u8())?;
        check_disjoint(dst, env.obs_tail())?;
        py.detach(|| expand_obs(env, dst));
        drop(rw);
        Ok(out)
    }
    /// Words per lane of `legal_bits`: `ceil(num_actions / 64)`.
    #[getter]
    fn mask_words(&self) -> usize {
        self.num_actions.div_ceil(64)
    }
    /// The legal masks packed as bits, uint64 [num_envs, mask_words] (a new array, or
    /// written into `out`, a C-contiguous writable uint64 array of that shape, and
    /// returned; another array is a `ValueError` that writes nothing): bit `a % 64` of word
    /// `a / 64` is set when action `a` is legal (little-endian bit order, so
    /// `np.unpackbits(bits.view(np.uint8), axis=1, bitorder="little")[:, :num_actions]` is
    /// `legal_mask`); the bits past `num_actions` are 0.
    #[pyo3(signature = (out=None))]
    fn legal_bits<'py>(
        &self,
        py: Python<'py>,
        out: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyArray2<u64>>> {
        let shape = (self.num_envs, self.num_actions.div_ceil(64));
        let out = out_array::<u64>(py, out, "out", "uint64", shape)?;
        let engine = self.engine(py)?;
        let env = &*engine.env;
        let mut rw = out
            .try_readwrite()
            .map_err(|e| value_err(format!("out: cannot write the array: {e}")))?;
        let dst = rw
            .as_slice_mut()
            .map_err(|e| value_err(format!("out: {e}")))?;
        check_disjoint(dst, env.legal_mask())?;
        py.detach(|| env.legal_bits(dst)).map_err(core_err)?;
        drop(rw);
        Ok(out)
    }
    /// Rewards of the last step for every seat, float32 [num_envs, num_players]; after a
    /// reset of a lane, the rewards of its deal: zero, unless the game is over as dealt (a
    /// hold'em hand with no decision, played out at the deal: the lane is terminated).
    #[getter]
    fn rewards(&self, py: Python<'_>) -> Py<PyArray2<f32>> {
        self.views.rewards.clone_ref(py)
    }
    /// Natural end flags, bool [num_envs] (read-only view).
    #[getter]
    fn terminated(&self, py: Python<'_>) -> Py<PyArray1<bool>> {
        self.views.terminated.clone_ref(py)
    }
    /// Cut-off flags, bool [num_envs] (read-only view).
    #[getter]
    fn truncated(&self, py: Python<'_>) -> Py<PyArray1<bool>> {
        self.views.truncated.clone_ref(py)
    }
    /// Seat to act, int32 [num_envs] (read-only view).
    #[getter]
    fn current_player(&self, py: Python<'_>) -> Py<PyArray1<i32>> {
        self.views.current_player.clone_ref(py)
    }
    /// What happened to each lane's last action, uint8 [num_envs]: 0 applied, 1 illegal
    /// (no-op), 2 lane finished (no-op), 3 lane autoreset.
    #[getter]
    fn illegal(&self, py: Python<'_>) -> Py<PyArray1<u8>> {
        self.views.illegal.clone_ref(py)
    }
    /// The game's name for people (`"Kuhn poker"`, `"Lost Cities"`).
    #[getter]
    fn game_title(&self) -> &'static str {
        self.info.title
    }
    /// The game's registry id (`cardvec.games()`).
    #[getter]
    fn game_id(&self) -> &'static str {
        self.info.id
    }
    /// The game's configuration: a new dict of every option the game reports (in the order
    /// of its options), enough to build the same game again.
    #[getter]
    fn config<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        options::options_dict(py, &self.config)
    }
    /// Whether every step's rewards sum to zero over the seats in this configuration.
    #[getter]
    fn zero_sum(&self) -> bool {
        self.zero_sum
    }
    /// Size in bytes of one lane state (`get_state`, `set_state`).
    #[getter]
    fn state_size(&self) -> usize {
        self.state_size
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
    /// Whether a finished lane is reset on the next step.
    #[getter]
    fn autoreset(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(self.engine(py)?.env.env_options().autoreset)
    }
    #[setter]
    fn set_autoreset(&self, py: Python<'_>, on: bool) -> PyResult<()> {
        self.engine(py)?.env.set_autoreset(on);
        Ok(())
    }
    /// Step limit per episode (`None`: off): an episode that reaches this many attempted
    /// steps (illegal no-ops included) without ending is truncated (`truncated` true).
    #[getter]
    fn max_steps(&self, py: Python<'_>) -> PyResult<Option<u32>> {
        Ok(self.engine(py)?.env.env_options().max_steps)
    }
    /// What an illegal action on a live lane does: `"noop"`, `"raise"` or `"lose"`.
    #[getter]
    fn on_illegal(&self, py: Python<'_>) -> PyResult<&'static str> {
        Ok(self.engine(py)?.env.env_options().on_illegal.as_str())
    }
    /// Whose rows `obs` holds: `"acting"` (`[num_envs, obs_dim]`, the seat to act's) or
    /// `"all"` (`[num_envs, num_players, obs_dim]`, every seat's).
    #[getter]
    fn obs_seats(&self) -> &'static str {
        self.obs_seats.as_str()
    }
    /// Whether `step` computes observations (else call `observe()`).
    #[getter]
    fn observe_on_step(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(self.engine(py)?.env.env_options().observe_on_step)
    }
    #[setter]
    fn set_observe_on_step(&self, py: Python<'_>, on: bool) -> PyResult<()> {
        self.engine(py)?.env.set_observe_on_step(on);
        Ok(())
    }
    /// The engine object that owns the buffers (the `base` of every view).
    #[getter]
    fn _engine(&self, py: Python<'_>) -> Py<BatchEngine> {
        self.engine.clone_ref(py)
    }

    /// Closes the environment (Gymnasium's and EnvPool's `close()`): every later call that
    /// steps, resets or reads the engine is a `RuntimeError` saying so; views taken before
    /// stay readable (the memory goes when the last of them and the environment go).
    /// Closing twice is allowed. Also a context manager: `with cardvec.make(...) as env:`.
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

    fn __len__(&self) -> usize {
        self.num_envs
    }

    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        let name = slf.get_type().name()?;
        let me = slf.get();
        let mut extra = String::new();
        if me.obs_dtype != ObsDtype::F32 {
            extra += &format!(", obs_dtype='{}'", me.obs_dtype.name());
        }
        if me.mask_dtype != args::MaskDtype::U8 {
            extra += &format!(", mask_dtype='{}'", me.mask_dtype.name());
        }
        if me.obs_seats != ObsSeats::Acting {
            extra += &format!(", obs_seats='{}'", me.obs_seats);
        }
        Ok(format!(
            "{name}(num_envs={}, num_players={}, num_actions={}, obs_dim={}{extra})",
            me.num_envs, me.num_players, me.num_actions, me.obs_dim
        ))
    }
}

impl BatchEnv {
    /// The Python object of a freshly built environment of game `info`, its `legal_mask`
    /// as `mask_dtype`.
    fn from_env(
        py: Python<'_>,
        info: &'static GameInfo,
        env: Box<dyn DynEnv>,
        mask_dtype: args::MaskDtype,
    ) -> PyResult<Self> {
        let (num_envs, num_actions, obs_dim, num_players) = (
            env.num_envs(),
            env.num_actions(),
            env.obs_dim(),
            env.num_players(),
        );
        let (state_size, zero_sum, config) = (env.state_len(), env.zero_sum(), env.config());
        let (obs_dtype, obs_seats) = (env.env_options().obs_dtype, env.env_options().obs_seats);
        let engine = Bound::new(
            py,
            BatchEngine {
                env,
                actions: try_buffer(num_envs, 0, "actions")?,
            },
        )?;
        let views = Views::new(&engine, mask_dtype)?;
        Ok(BatchEnv {
            engine: engine.unbind(),
            views,
            obs_dtype,
            obs_seats,
            mask_dtype,
            info,
            config,
            num_envs,
            num_actions,
            obs_dim,
            num_players,
            state_size,
            zero_sum,
            closed: std::sync::atomic::AtomicBool::new(false),
        })
    }
}

/// Registers the batch classes (`BatchEnv`, `_BatchEngine`, `ObsFormat`) in the compiled
/// module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<BatchEnv>()?;
    m.add_class::<BatchEngine>()?;
    m.add_class::<PyObsFormat>()
}
