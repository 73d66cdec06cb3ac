//! Python bindings of the hold'em evaluator and equity calculator: the submodule
//! `cardvec._cardvec.holdem`, re-exported as `cardvec.holdem` (see docs/holdem-evaluator.md).
//!
//! Cards are ids `13 * suit + rank` (suits c, d, h, s; ranks 2..A as 0..12) or strings such
//! as `"As"`, `"Td"`, `"♠A"`. Ranks handed to Python are ordinals `1..=7462`, higher wins
//! (phevaluator's rank of the same hand is `7463 - rank`). Every bad input is a `ValueError`.

use cardvec::core::{CardSet64, Error, ForkSafePool, StopFlag};
use cardvec::poker::{
    self, best_five, rank_of_set, Card, Category, EquityOptions, HandRank, Method, WeightedRange,
};
use numpy::PyUntypedArrayMethods;
use numpy::{PyArray1, PyArray2, PyArrayDescrMethods, PyArrayMethods, PyUntypedArray};
use pyo3::exceptions::PyValueError;

use crate::args;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use rayon::prelude::*;

use crate::errors::value_err;
use crate::interrupt;

mod lbr;
mod nlhe;

fn err(e: Error) -> PyErr {
    crate::errors::core_err(e)
}

/// One card id (`0..52`, an integer: a bool or a float is refused) as a [`Card`].
fn card_of_id(id: &Bound<'_, PyAny>) -> PyResult<Card> {
    let id = args::int_in(id, "card id", 0, 51)?;
    Ok(Card::from_id(id as u8).expect("an id in 0..=51 is a card"))
}

/// Cards from a string (`"AsKd"`, `"As Kd"`) or an iterable of card strings and ids.
/// Duplicates are not checked here.
fn cards_arg(obj: &Bound<'_, PyAny>) -> PyResult<Vec<Card>> {
    if let Ok(s) = obj.cast::<PyString>() {
        return poker::parse_cards(&s.to_cow()?).map_err(err);
    }
    let mut cards = Vec::new();
    for item in obj.try_iter()? {
        let item = item?;
        if let Ok(s) = item.cast::<PyString>() {
            cards.extend(poker::parse_cards(&s.to_cow()?).map_err(err)?);
        } else if !args::is_bool(&item) && item.extract::<i128>().is_ok() {
            cards.push(card_of_id(&item)?);
        } else {
            return Err(value_err(format!(
                "a card is a string such as \"As\" or an id in 0..=51, got {}",
                item.repr()?
            )));
        }
    }
    Ok(cards)
}

/// A `ValueError` about argument `what` with its name in front; other errors unchanged.
fn naming(py: Python<'_>, what: &str, e: PyErr) -> PyErr {
    if e.is_instance_of::<PyValueError>(py) {
        value_err(format!("{what}: {}", e.value(py)))
    } else {
        e
    }
}

/// Distinct cards, or a `ValueError` naming the repeated one.
fn distinct_cards(obj: &Bound<'_, PyAny>) -> PyResult<Vec<Card>> {
    let cards = cards_arg(obj)?;
    poker::card_set(&cards).map_err(err)?;
    Ok(cards)
}

/// The ordinal (`1..=7462`, higher wins) of the first class of each category.
fn category_starts() -> [u16; 9] {
    let mut starts = [0u16; 9];
    let mut start = 1;
    for (s, c) in starts.iter_mut().zip(Category::ALL) {
        *s = start;
        start += c.classes();
    }
    starts
}

/// The value of a hand: `rank` (`1..=7462`, higher wins), `category` (name),
/// `category_index` (0 high card .. 8 straight flush), `name` (in words) and `best_five`.
/// Values compare (and hash) by `rank` only: hands of equal rank tie and compare equal.
#[pyclass(name = "HandValue", module = "cardvec.holdem", frozen, eq, ord, hash)]
#[derive(Clone)]
pub struct PyHandValue {
    rank: u16,
    five: [u8; 5],
}

impl PartialEq for PyHandValue {
    fn eq(&self, other: &Self) -> bool {
        self.rank == other.rank
    }
}
impl Eq for PyHandValue {}
impl PartialOrd for PyHandValue {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for PyHandValue {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.rank.cmp(&other.rank)
    }
}
impl std::hash::Hash for PyHandValue {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.rank.hash(state);
    }
}

#[pymethods]
impl PyHandValue {
    /// Ordinal of the hand's class, 1 (seven-five-high) to 7462 (royal flush); higher wins.
    #[getter]
    fn rank(&self) -> u16 {
        self.rank
    }
    /// Category name: "high card" .. "straight flush".
    #[getter]
    fn category(&self) -> &'static str {
        self.hand_rank().category().name()
    }
    /// Category index: 0 (high card) .. 8 (straight flush).
    #[getter]
    fn category_index(&self) -> u8 {
        self.hand_rank().category() as u8
    }
    /// The hand in words: "full house, threes over twos", "royal flush", ...
    #[getter]
    fn name(&self) -> String {
        self.hand_rank().name()
    }
    /// The best five cards in display order (made part first, then kickers).
    #[getter]
    fn best_five(&self) -> Vec<String> {
        self.cards().map(|c| c.to_string()).to_vec()
    }
    /// The best five cards as ids.
    #[getter]
    fn best_five_ids(&self) -> Vec<u32> {
        self.five.map(u32::from).to_vec()
    }

    fn __repr__(&self) -> String {
        format!(
            "HandValue(rank={}, category={:?}, name={:?}, best_five={:?})",
            self.rank,
            self.category(),
            self.name(),
            self.best_five().join(" ")
        )
    }
}

impl PyHandValue {
    fn hand_rank(&self) -> HandRank {
        HandRank::from_ordinal(self.rank).expect("a valid ordinal")
    }
    fn cards(&self) -> [Card; 5] {
        self.five.map(|id| Card::from_id(id).expect("a valid id"))
    }
}

/// `parse_cards("AsKd")` -> `[51, 38]`: card ids of a card string ("As Kd", "As,Kd", "♠A"
/// accepted); repeated or unknown cards are a `ValueError`.
#[pyfunction]
fn parse_cards(text: &str) -> PyResult<Vec<u32>> {
    Ok(poker::parse_cards(text)
        .map_err(err)?
        .iter()
        .map(|c| u32::from(c.id()))
        .collect())
}

/// `card_id("As")` -> 51.
#[pyfunction]
fn card_id(text: &str) -> PyResult<u8> {
    text.trim().parse::<Card>().map(|c| c.id()).map_err(err)
}

/// `card_str(51)` -> "As".
#[pyfunction]
fn card_str(id: &Bound<'_, PyAny>) -> PyResult<String> {
    Ok(card_of_id(id)?.to_string())
}

/// `format_cards([51, 38])` -> "As Kd".
#[pyfunction]
fn format_cards(cards: &Bound<'_, PyAny>) -> PyResult<String> {
    Ok(cards_arg(cards)?
        .iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(" "))
}

/// `evaluate(cards)`: the value of the best five of 5 to 7 distinct cards, given as a string
/// ("AsKsQsJsTs2h3d") or a list of card strings or ids.
#[pyfunction]
fn evaluate(cards: &Bound<'_, PyAny>) -> PyResult<PyHandValue> {
    let cards = cards_arg(cards)?;
    let (rank, five) = best_five(&cards).map_err(err)?;
    Ok(PyHandValue {
        rank: rank.ordinal(),
        five: five.map(|c| c.id()),
    })
}

/// `hand_name(cards)`: the hand in words, e.g. "straight, five-high".
#[pyfunction]
fn hand_name(cards: &Bound<'_, PyAny>) -> PyResult<String> {
    let cards = cards_arg(cards)?;
    Ok(poker::evaluate(&cards).map_err(err)?.name())
}

/// `rank_name(rank)`: the name of the class of ordinal `rank` (`1..=7462`).
#[pyfunction]
fn rank_name(rank: &Bound<'_, PyAny>) -> PyResult<String> {
    let r = args::int_in(rank, "rank", 1, i128::from(poker::HAND_CLASSES))?;
    Ok(HandRank::from_ordinal(r as u16).map_err(err)?.name())
}

/// Rows per parallel task of [`rank_rows`].
const ROWS_PER_TASK: usize = 1 << 13;

/// Why row `row` of `k` card ids is not a hand, if it is not one.
fn row_error<T: Copy + TryInto<u8>>(i: usize, row: &[T]) -> Option<String> {
    let mut bits = 0u64;
    for &v in row {
        match v.try_into() {
            Ok(id) if id < 52 => bits |= 1u64 << id,
            _ => return Some(format!("row {i}: card ids must be in 0..=51")),
        }
    }
    (bits.count_ones() as usize != row.len())
        .then(|| format!("row {i}: a card appears more than once"))
}

/// Ranks (ordinals) and categories of the rows of `k` card ids in `rows`; the index (in
/// `rows`) of the first bad row, if any.
fn rank_task<T: Copy + TryInto<u8>>(
    rows: &[T],
    k: usize,
    ranks: &mut [u16],
    cats: &mut [u8],
) -> Option<usize> {
    let starts = category_starts();
    let rows = rows.chunks_exact(k);
    for (j, ((r, c), row)) in ranks.iter_mut().zip(cats.iter_mut()).zip(rows).enumerate() {
        let mut bits = 0u64;
        let mut ok = true;
        for &v in row {
            match v.try_into() {
                Ok(id) if id < 52 => bits |= 1u64 << id,
                _ => ok = false,
            }
        }
        if !ok || bits.count_ones() as usize != k {
            return Some(j);
        }
        let rank = rank_of_set(CardSet64(bits));
        let cat = rank.category() as u8;
        *c = cat;
        *r = starts[cat as usize] + (rank.0 & 0xfff);
    }
    None
}

/// Ranks (ordinals) and categories of the rows of `k` card ids in `flat` (row-major), in
/// parallel on the current pool when there is more than one task; the first bad row is an
/// error. Tasks not started when `stop` is raised are skipped (the caller then discards the
/// output).
fn rank_rows<T: Copy + Sync + TryInto<u8>>(
    flat: &[T],
    k: usize,
    ranks: &mut [u16],
    cats: &mut [u8],
    stop: &StopFlag,
) -> Result<(), String> {
    let bad = if ranks.len() <= ROWS_PER_TASK {
        rank_task(flat, k, ranks, cats)
    } else {
        ranks
            .par_chunks_mut(ROWS_PER_TASK)
            .zip(cats.par_chunks_mut(ROWS_PER_TASK))
            .zip(flat.par_chunks(ROWS_PER_TASK * k))
            .enumerate()
            .filter_map(|(task, ((ranks, cats), rows))| {
                if stop.is_stopped() {
                    return None;
                }
                rank_task(rows, k, ranks, cats).map(|j| task * ROWS_PER_TASK + j)
            })
            .min()
    };
    match bad {
        None => Ok(()),
        Some(i) => Err(row_error(i, &flat[i * k..(i + 1) * k])
            .unwrap_or_else(|| format!("row {i} is not a hand"))),
    }
}

macro_rules! rank_typed {
    ($py:expr, $arr:expr, $k:expr, $ranks:expr, $cats:expr, $($t:ty),*) => {{
        let mut out = None;
        $(
            if out.is_none() {
                if let Ok(typed) = $arr.cast::<PyArray2<$t>>() {
                    let ro = typed
                        .try_readonly()
                        .map_err(|e| value_err(format!("cannot read the array: {e}")))?;
                    let flat = ro
                        .as_slice()
                        .map_err(|e| value_err(format!("cannot read the array: {e}")))?;
                    let (ranks, cats) = (&mut $ranks, &mut $cats);
                    out = Some(rank_batch($py, flat, $k, ranks, cats)?);
                }
            }
        )*
        out
    }};
}

/// [`rank_rows`] without the GIL: a batch of one task on this thread, a larger one on the
/// shared fork-safe pool, stoppable by Ctrl-C (see `interrupt`).
fn rank_batch<T: Copy + Sync + TryInto<u8>>(
    py: Python<'_>,
    flat: &[T],
    k: usize,
    ranks: &mut [u16],
    cats: &mut [u8],
) -> PyResult<Result<(), String>> {
    if ranks.len() <= ROWS_PER_TASK {
        return Ok(py.detach(|| rank_rows(flat, k, ranks, cats, &StopFlag::new())));
    }
    interrupt::on_pool(py, ForkSafePool::shared(), None, "evaluate_batch", |stop| {
        rank_rows(flat, k, ranks, cats, stop)
    })
}

/// Ranks and categories of a batch.
type BatchResult<'py> = (Bound<'py, PyArray1<u16>>, Bound<'py, PyArray1<u8>>);

/// `evaluate_batch(cards)` -> `(ranks, categories)`: `cards` is an integer array of card ids
/// of shape (N, 5), (N, 6) or (N, 7); `ranks` is uint16 (`1..=7462`, higher wins) and
/// `categories` uint8 (0 high card .. 8 straight flush), both of length N. Runs in parallel
/// without the GIL, on a thread pool that survives `os.fork()`; Ctrl-C stops a large batch
/// (`KeyboardInterrupt`). Bad shapes, dtypes, ids or repeated cards are a `ValueError`.
#[pyfunction]
fn evaluate_batch<'py>(py: Python<'py>, cards: &Bound<'py, PyAny>) -> PyResult<BatchResult<'py>> {
    let arr = match cards.cast::<PyUntypedArray>() {
        Ok(a) => a.clone(),
        Err(_) => py
            .import("numpy")?
            .getattr("asarray")?
            .call1((cards,))?
            .cast_into::<PyUntypedArray>()
            .map_err(|_| value_err("cards must be a numpy array".to_string()))?,
    };
    if arr.ndim() != 2 || !(5..=7).contains(&arr.shape()[1]) {
        return Err(value_err(format!(
            "cards must have shape (N, 5), (N, 6) or (N, 7), got {:?}",
            arr.shape()
        )));
    }
    let dtype = arr.dtype();
    let kind = dtype.kind();
    if kind != b'i' && kind != b'u' {
        return Err(value_err(format!(
            "cards must have an integer dtype, got {dtype}"
        )));
    }
    let (n, k) = (arr.shape()[0], arr.shape()[1]);
    // C order and native byte order, copying only when needed.
    let arr = py
        .import("numpy")?
        .getattr("ascontiguousarray")?
        .call1((arr,))?
        .cast_into::<PyUntypedArray>()
        .map_err(|_| value_err("cards must be a numpy array".to_string()))?;
    let mut ranks = crate::errors::try_buffer(n, 0u16, "ranks")?;
    let mut cats = crate::errors::try_buffer(n, 0u8, "categories")?;
    match rank_typed!(py, arr, k, ranks, cats, u8, i8, i16, u16, i32, u32, i64, u64) {
        Some(r) => r,
        None => {
            // Integer dtypes numpy does not hand over directly (non-native byte order).
            let converted = arr.call_method1("astype", ("int64",))?;
            let converted = converted.cast::<PyUntypedArray>()?;
            rank_typed!(py, converted, k, ranks, cats, i64)
                .ok_or_else(|| value_err(format!("unsupported dtype {dtype}")))?
        }
    }
    .map_err(value_err)?;
    // The vectors become the arrays' memory (no copy to allocate).
    Ok((PyArray1::from_vec(py, ranks), PyArray1::from_vec(py, cats)))
}

/// `players` of `equity`: a list (or tuple) of range texts, one per player. A single string
/// (`"AsKs QQ"`) is a `TypeError` that says so and shows the list it probably meant.
fn player_ranges(players: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    if let Ok(text) = players.cast::<PyString>() {
        let text = text.to_cow()?;
        let guess: Vec<&str> = text.split_whitespace().collect();
        return Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "players must be a list of ranges, one per player, not a string: got {text:?}; \
             did you mean {guess:?}?"
        )));
    }
    players.extract::<Vec<String>>().map_err(|_| {
        pyo3::exceptions::PyTypeError::new_err(format!(
            "players must be a list of ranges (strings), one per player, such as \
             [\"AsKs\", \"QQ+\"]; got {}",
            players
                .repr()
                .map_or_else(|_| "an unprintable object".into(), |r| r.to_string())
        ))
    })
}

/// `equity(players, board="", dead="", samples=None, seed=0, exact=None, max_work=None,
/// time_limit=None)`: the equity of 2 to 10 players, each given as hole cards ("AsAh") or a
/// range ("TT+, AKs", "random"), with weights ("AKs:0.5,QQ+,T9s:0.25": a deal weighs the
/// product of its combos' weights) and percentages ("15%": the top 15% of the 1,326 combos
/// by preflop all-in equity against a random hand).
///
/// `exact=None` enumerates when the work is small enough and samples otherwise; `True`
/// always enumerates, `False` always samples. `samples` is the number of Monte Carlo trials
/// (default 1,000,000), `seed` their seed. Returns a dict of per-player lists `win`, `tie`
/// (rates), `equity` (ties shared), `stderr` (0 when exact), `wins`, `ties` (counts), and
/// `total` (deals or trials), `exact`, `seconds`. With weights, the rates and equities are
/// weighted; the counts `wins`, `ties` and `total` stay counts of deals enumerated (exact)
/// or drawn (sampling draws each deal with probability proportional to its weight).
///
/// Some problems never finish (ten random hands enumerated exactly, `samples=10**11`):
/// Ctrl-C stops the call (`KeyboardInterrupt`, within a fraction of a second), and two bounds
/// refuse or stop them. `max_work` (an integer >= 1) refuses up front, with a `ValueError`, a
/// computation above it: an enumeration of more than `max_work` units of work (board
/// completions times the combos ranked and deals scored per board) or more than `max_work`
/// hands ranked by sampling (`samples` times players); with `exact=None` it also caps
/// when to enumerate. `time_limit` (seconds > 0) stops the call with `TimeoutError` once it
/// has run that long. Bad values of either are a `ValueError`. Runs on a thread pool that
/// survives `os.fork()`.
#[pyfunction]
#[pyo3(
    signature = (players, board=None, dead=None, samples=None, seed=None, exact=None, max_work=None, time_limit=None),
    text_signature = "(players, board='', dead='', samples=None, seed=0, exact=None, max_work=None, time_limit=None)"
)]
#[allow(clippy::too_many_arguments)]
fn equity<'py>(
    py: Python<'py>,
    players: &Bound<'py, PyAny>,
    board: Option<&Bound<'py, PyAny>>,
    dead: Option<&Bound<'py, PyAny>>,
    samples: Option<&Bound<'py, PyAny>>,
    seed: Option<&Bound<'py, PyAny>>,
    exact: Option<bool>,
    max_work: Option<&Bound<'py, PyAny>>,
    time_limit: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let players = player_ranges(players)?;
    let samples = match samples {
        Some(s) if !s.is_none() => Some(args::int_in(s, "samples", 1, u64::MAX as i128)? as u64),
        _ => None,
    };
    let seed = args::opt_seed(seed)?.unwrap_or(0);
    let max_work = interrupt::positive_u64_arg(max_work, "max_work")?;
    let time_limit = interrupt::time_limit_arg(time_limit)?;
    let ranges = players
        .iter()
        .map(|p| WeightedRange::parse(p))
        .collect::<Result<Vec<_>, _>>()
        .map_err(err)?;
    let defaults = EquityOptions::default();
    let options = EquityOptions {
        board: board
            .map(|b| distinct_cards(b).map_err(|e| naming(py, "board", e)))
            .transpose()?
            .unwrap_or_default(),
        dead: dead
            .map(|d| distinct_cards(d).map_err(|e| naming(py, "dead", e)))
            .transpose()?
            .unwrap_or_default(),
        method: match exact {
            None => Method::Auto,
            Some(true) => Method::Exact,
            Some(false) => Method::MonteCarlo,
        },
        trials: samples.unwrap_or(defaults.trials),
        seed,
        max_work,
        ..defaults
    };
    let report = interrupt::on_pool(py, ForkSafePool::shared(), time_limit, "equity", |stop| {
        poker::equity_weighted_with_progress(&ranges, &options, stop)
    })?
    .map_err(err)?;
    let d = PyDict::new(py);
    let col =
        |f: fn(&poker::PlayerEquity) -> f64| -> Vec<f64> { report.players.iter().map(f).collect() };
    d.set_item("win", col(|p| p.win_rate))?;
    d.set_item("tie", col(|p| p.tie_rate))?;
    d.set_item("equity", col(|p| p.equity))?;
    d.set_item("stderr", col(|p| p.equity_se))?;
    d.set_item(
        "wins",
        report.players.iter().map(|p| p.wins).collect::<Vec<_>>(),
    )?;
    d.set_item(
        "ties",
        report.players.iter().map(|p| p.ties).collect::<Vec<_>>(),
    )?;
    d.set_item("total", report.total)?;
    d.set_item("exact", report.exact)?;
    d.set_item("seconds", report.elapsed.as_secs_f64())?;
    Ok(d)
}

/// `range_combos(text)`: the combos of a range text (hole cards, classes, `QQ+`,
/// `A5s-A2s`, `random`, weights `AKs:0.5`, percentages `15%`) as `(combo, weight)` pairs,
/// each combo once, in card-id order (`"AsKs"`, ...). A bad text is a `ValueError` that
/// names the part (a weight outside (0, 1], a percentage outside (0, 100], two weights
/// for one combo).
#[pyfunction]
fn range_combos(text: &str) -> PyResult<Vec<(String, f64)>> {
    let range = WeightedRange::parse(text).map_err(err)?;
    Ok(range
        .entries()
        .iter()
        .map(|&(h, w)| (h.to_string(), w))
        .collect())
}

/// The hold'em submodule.
fn module(py: Python<'_>) -> PyResult<Bound<'_, PyModule>> {
    let m = PyModule::new(py, "holdem")?;
    m.add_class::<PyHandValue>()?;
    m.add_function(wrap_pyfunction!(parse_cards, &m)?)?;
    m.add_function(wrap_pyfunction!(card_id, &m)?)?;
    m.add_function(wrap_pyfunction!(card_str, &m)?)?;
    m.add_function(wrap_pyfunction!(format_cards, &m)?)?;
    m.add_function(wrap_pyfunction!(evaluate, &m)?)?;
    m.add_function(wrap_pyfunction!(hand_name, &m)?)?;
    m.add_function(wrap_pyfunction!(rank_name, &m)?)?;
    m.add_function(wrap_pyfunction!(evaluate_batch, &m)?)?;
    m.add_function(wrap_pyfunction!(equity, &m)?)?;
    m.add_function(wrap_pyfunction!(range_combos, &m)?)?;
    m.add_function(wrap_pyfunction!(lbr::lbr_json, &m)?)?;
    m.add("HAND_CLASSES", poker::HAND_CLASSES)?;
    m.add("CATEGORIES", Category::ALL.map(|c| c.name()).to_vec())?;
    Ok(m)
}

/// Adds the `holdem` submodule (the evaluator, equity and the no-limit constants) and
/// `NoLimitHoldemGame` to the extension module.
pub(crate) fn register(parent: &Bound<'_, PyModule>) -> PyResult<()> {
    let holdem = module(parent.py())?;
    nlhe::register(parent, &holdem)?;
    parent.add_submodule(&holdem)
}
