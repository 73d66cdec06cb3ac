//! `cardvec._cardvec.campaign`: the shards of `cardvec.campaign` (a differential run, a bot
//! match, an arena series, the units of a ladder, an oracle trace over the games `first..first + count` of a run
//! with seed `seed`, each game played exactly as in the whole run; `cardvec::campaign`).
//! Each call runs without the GIL on a rayon pool of `threads` workers (None: one per core)
//! and returns plain Python values (dicts of ints, floats, strings and lists) that pickle
//! and merge exactly: counts are integers, reward sums fixed-point integers.

use cardvec::arena::ladder::{play_pair_range, SeriesConfig};
use cardvec::arena::runner::{Clock, MatchConfig};
use cardvec::core::diff::DiffConfig;
use cardvec::core::matches::REWARD_SCALE;
use cardvec::core::spec::{split_pairs, OptionValue, Options};
use cardvec::ladder::{play_units, read_log, report, LadderSpec};
use cardvec::registry;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::errors::core_err;
use crate::{args, options};

fn pool(threads: Option<&Bound<'_, PyAny>>) -> PyResult<rayon::ThreadPool> {
    let n = match threads {
        Some(t) if !t.is_none() => args::size_in(t, "threads", 1, cardvec::core::MAX_THREADS)?,
        _ => 0,
    };
    rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .build()
        .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(format!("thread pool: {e}")))
}

/// `(first, count)` checked: integers, `count >= 1`, no index past `2**64 - 1`.
fn range(first: &Bound<'_, PyAny>, count: &Bound<'_, PyAny>) -> PyResult<(u64, u64)> {
    let first = args::int_in(first, "first", 0, u64::MAX as i128)? as u64;
    let count = args::int_in(count, "count", 1, u64::MAX as i128)? as u64;
    cardvec::campaign::check_range(first, count).map_err(core_err)?;
    Ok((first, count))
}

/// The game's options given in `options` (a dict; None: none), checked.
fn option_pairs(
    game_id: &str,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Vec<(String, OptionValue)>> {
    let info = registry::info(game_id).map_err(core_err)?;
    Ok(options::pairs(&options::from_kwargs(info, options)?))
}

/// `diff_shard(game_id, seed, first, count, options=None, threads=None, probe_every=16,
/// plant_mismatch_game=None) -> dict`: the differential run of games `first..first +
/// count` (`cardvec diff GAME --seed SEED --first FIRST --games COUNT`): `games`,
/// `actions`, `rejected`, `failed_games`, `mismatches` (`[{"game", "step", "what"}]`, the
/// first 20 by game index) and `seconds`. `plant_mismatch_game` is a test hook: that game,
/// if in the range, is reported as a mismatch (never set it in a real run).
#[pyfunction]
#[pyo3(signature = (game_id, seed, first, count, options=None, threads=None, probe_every=16, plant_mismatch_game=None))]
#[allow(clippy::too_many_arguments)]
fn diff_shard<'py>(
    py: Python<'py>,
    game_id: &str,
    seed: &Bound<'py, PyAny>,
    first: &Bound<'py, PyAny>,
    count: &Bound<'py, PyAny>,
    options: Option<&Bound<'py, PyDict>>,
    threads: Option<&Bound<'py, PyAny>>,
    probe_every: u32,
    plant_mismatch_game: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let seed = args::seed(seed)?;
    let (first, games) = range(first, count)?;
    let pairs = option_pairs(game_id, options)?;
    let plant = args::opt_seed(plant_mismatch_game)?;
    let pool = pool(threads)?;
    let config = DiffConfig {
        games,
        first,
        seed,
        illegal_probe_every: probe_every,
    };
    let report = py
        .detach(|| pool.install(|| cardvec::campaign::diff_shard(game_id, pairs, &config, plant)))
        .map_err(core_err)?;
    let d = PyDict::new(py);
    d.set_item("games", report.games)?;
    d.set_item("actions", report.actions)?;
    d.set_item("rejected", report.rejected)?;
    d.set_item("failed_games", report.failed_games)?;
    let list = PyList::empty(py);
    for m in &report.mismatches {
        let md = PyDict::new(py);
        md.set_item("game", m.game)?;
        md.set_item("step", m.step)?;
        md.set_item("what", &m.what)?;
        list.append(md)?;
    }
    d.set_item("mismatches", list)?;
    d.set_item("seconds", report.elapsed.as_secs_f64())?;
    Ok(d)
}

/// `match_shard(game_id, seed, first, count, bots=None, options=None, threads=None) ->
/// dict`: games `first..first + count` of a match between built-in `bots` (None: the
/// game's match bots) rotated over the seats (`cardvec match`'s games): `games`, `plies`,
/// `plies_sq`, `reward_scale` and `bots` (`[{"name", "seats", "leaders", "reward_sum",
/// "reward_sq_sum"}]`: `leaders[k-1]` counts the seats that led with `k - 1` others; reward
/// sums are integers in units of `1 / reward_scale`).
#[pyfunction]
#[pyo3(signature = (game_id, seed, first, count, bots=None, options=None, threads=None))]
#[allow(clippy::too_many_arguments)]
fn match_shard<'py>(
    py: Python<'py>,
    game_id: &str,
    seed: &Bound<'py, PyAny>,
    first: &Bound<'py, PyAny>,
    count: &Bound<'py, PyAny>,
    bots: Option<Vec<String>>,
    options: Option<&Bound<'py, PyDict>>,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let seed = args::seed(seed)?;
    let (first, count) = range(first, count)?;
    let pairs = option_pairs(game_id, options)?;
    let bots = bots.unwrap_or_default();
    let pool = pool(threads)?;
    let (tally, names) = py
        .detach(|| {
            pool.install(|| {
                cardvec::campaign::match_shard(game_id, pairs, &bots, seed, first, count)
            })
        })
        .map_err(core_err)?;
    let d = PyDict::new(py);
    d.set_item("games", tally.games)?;
    d.set_item("plies", tally.plies)?;
    d.set_item("plies_sq", tally.plies_sq)?;
    d.set_item("reward_scale", REWARD_SCALE as u64)?;
    let list = PyList::empty(py);
    for (b, name) in tally.bots.iter().zip(&names) {
        let bd = PyDict::new(py);
        bd.set_item("name", name)?;
        bd.set_item("seats", b.seats)?;
        bd.set_item("leaders", b.leaders.clone())?;
        bd.set_item("reward_sum", b.reward_sum)?;
        bd.set_item("reward_sq_sum", b.reward_sq_sum)?;
        list.append(bd)?;
    }
    d.set_item("bots", list)?;
    Ok(d)
}

/// `arena_shard(a, b, seed, first, count, threads=None, max_steps=500) -> dict`: matches
/// `first..first + count` of the 151 arena series between catalog bots `a` and `b`
/// (`cardvec arena match --bot A --vs B`'s matches, seats alternating), on a deterministic
/// clock on which no time passes (no timeouts: the tally depends only on the range): the
/// ladder log's fields (`a`, `b`, `games`, `a_wins`, `ties`, `normal`, `forfeit`,
/// `timeout`, `max_steps`, `forfeits_by_a`, `forfeits_by_b`, `actions`, `seed`,
/// `seconds`).
#[pyfunction]
#[pyo3(signature = (a, b, seed, first, count, threads=None, max_steps=500))]
#[allow(clippy::too_many_arguments)]
fn arena_shard<'py>(
    py: Python<'py>,
    a: &str,
    b: &str,
    seed: &Bound<'py, PyAny>,
    first: &Bound<'py, PyAny>,
    count: &Bound<'py, PyAny>,
    threads: Option<&Bound<'py, PyAny>>,
    max_steps: u32,
) -> PyResult<Bound<'py, PyDict>> {
    let seed = args::seed(seed)?;
    let (first, games) = range(first, count)?;
    let pool = pool(threads)?;
    let mut match_config = MatchConfig::new(0);
    match_config.max_steps_per_round = max_steps;
    let config = SeriesConfig {
        match_config,
        clock: Clock::FREE,
        games,
        seed,
    };
    let p = py
        .detach(|| pool.install(|| play_pair_range(&config, first, a, b)))
        .map_err(core_err)?;
    let json = py.import("json")?;
    json.call_method1("loads", (p.to_json(),))?
        .cast_into::<PyDict>()
        .map_err(|e| e.into())
}

/// `trace_shard(game_id, seed, first, count, players=None, policy_seed=0) -> (str, dict)`:
/// games `first..first + count` of the oracle trace of `game_id` (`cardvec trace GAME
/// --seed SEED --first FIRST --games COUNT`; 151 and holdem), the JSON lines and the
/// trace's counts.
#[pyfunction]
#[pyo3(signature = (game_id, seed, first, count, players=None, policy_seed=0))]
fn trace_shard<'py>(
    py: Python<'py>,
    game_id: &str,
    seed: &Bound<'py, PyAny>,
    first: &Bound<'py, PyAny>,
    count: &Bound<'py, PyAny>,
    players: Option<Vec<usize>>,
    policy_seed: u64,
) -> PyResult<(String, Bound<'py, PyDict>)> {
    let seed = args::int_in(seed, "seed", i64::MIN as i128, i64::MAX as i128)? as i64;
    let (first, count) = range(first, count)?;
    let players = players.unwrap_or_default();
    let (text, summary) = py
        .detach(|| {
            cardvec::campaign::trace_shard(game_id, seed, first, count, players, policy_seed)
        })
        .map_err(core_err)?;
    let d = PyDict::new(py);
    for (k, v) in summary {
        d.set_item(k, v)?;
    }
    let text = String::from_utf8(text)
        .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(e.to_string()))?;
    Ok((text, d))
}

/// `ladder_spec(game_id, bots, games, seed=0, options=None, max_steps=None) -> (str, int)`:
/// the ladder `cardvec ladder GAME --bots ... --games GAMES --seed SEED` plays (the game's
/// options as given, its match defaults filled in as the command fills them), checked: its
/// log header (JSON) and its number of units.
#[pyfunction]
#[pyo3(signature = (game_id, bots, games, seed=None, options=None, max_steps=None))]
fn ladder_spec<'py>(
    game_id: &str,
    bots: Vec<String>,
    games: &Bound<'py, PyAny>,
    seed: Option<&Bound<'py, PyAny>>,
    options: Option<&Bound<'py, PyDict>>,
    max_steps: Option<u32>,
) -> PyResult<(String, u64)> {
    let info = registry::info(game_id).map_err(core_err)?;
    let games = args::int_in(games, "games", 1, u64::MAX as i128)? as u64;
    let seed = seed.map(args::seed).transpose()?.unwrap_or(0);
    let mut pairs = option_pairs(game_id, options)?;
    for (k, v) in split_pairs(info.match_options).map_err(core_err)? {
        if !pairs.iter().any(|(name, _)| *name == k) {
            pairs.push((k, OptionValue::parse(&v)));
        }
    }
    let options = Options::new(info.options, pairs).map_err(core_err)?;
    let spec =
        LadderSpec::new(game_id, &options, &bots, games, seed, max_steps).map_err(core_err)?;
    let units = spec.units().map_err(core_err)?;
    Ok((spec.to_json(), units))
}

/// `ladder_shard(spec, first, count, threads=None) -> list[str]`: units `first..first +
/// count` of the ladder whose header is `spec` (JSON, as `ladder_spec` returns), played as
/// `cardvec ladder` plays them: one log line (JSON) per unit.
#[pyfunction]
#[pyo3(signature = (spec, first, count, threads=None))]
fn ladder_shard<'py>(
    py: Python<'py>,
    spec: &str,
    first: &Bound<'py, PyAny>,
    count: &Bound<'py, PyAny>,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<Vec<String>> {
    let (spec, _) = read_log(spec).map_err(core_err)?;
    let (first, count) = range(first, count)?;
    let pool = pool(threads)?;
    let records = py
        .detach(|| pool.install(|| play_units(&spec, first, count)))
        .map_err(core_err)?;
    Ok(records.iter().map(|r| r.to_json()).collect())
}

/// `ladder_report(spec, records) -> str`: the standings (JSON, `cardvec ladder --json`'s)
/// of the unit records `records` (log lines, any order, each unit once) of the ladder
/// `spec`.
#[pyfunction]
fn ladder_report(spec: &str, records: Vec<String>) -> PyResult<String> {
    let mut text = spec.trim_end().to_string();
    for r in &records {
        text.push('\n');
        text.push_str(r.trim_end());
    }
    let (spec, records) = read_log(&text).map_err(core_err)?;
    Ok(report(&spec, &records).map_err(core_err)?.to_json())
}

/// The submodule `cardvec._cardvec.campaign`.
fn module(py: Python<'_>) -> PyResult<Bound<'_, PyModule>> {
    let m = PyModule::new(py, "campaign")?;
    m.add_function(wrap_pyfunction!(diff_shard, &m)?)?;
    m.add_function(wrap_pyfunction!(match_shard, &m)?)?;
    m.add_function(wrap_pyfunction!(arena_shard, &m)?)?;
    m.add_function(wrap_pyfunction!(trace_shard, &m)?)?;
    m.add_function(wrap_pyfunction!(ladder_spec, &m)?)?;
    m.add_function(wrap_pyfunction!(ladder_shard, &m)?)?;
    m.add_function(wrap_pyfunction!(ladder_report, &m)?)?;
    m.add("PLANTED", cardvec::campaign::PLANTED)?;
    Ok(m)
}

/// Adds the `campaign` submodule to the extension module.
pub(crate) fn register(parent: &Bound<'_, PyModule>) -> PyResult<()> {
    parent.add_submodule(&module(parent.py())?)
}
