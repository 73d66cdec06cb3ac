//! What a game registers ([`GameSpec`]) and the vocabulary of its configuration options
//! ([`OptionSpec`], [`Options`]): the one description of a game that every tool reads (the
//! CLI, the Python `make`, the conformance suite, the fuzz check, the benches). The table of
//! registered games is `crate::registry`; this module knows no game.
//!
//! Options have a text form, used by the CLI (`-o num_players=8`), the defaults in
//! [`OptionSpec::default`] and the conformance configurations: `name=value` pairs separated
//! by commas, integers in decimal, `none` for an absent value, lists in brackets
//! (`stacks=[50,200,1000]`).

use std::collections::BTreeMap;
use std::fmt;

use super::determinize::DeterminizeFn;
use super::error::{Error, Result};
use super::game::{Game, Playable, SingleLane};
use super::horizon::WinEstimate;
use super::policy::Bot;
use super::rng::LaneRng;
use super::tree::{InfoStateFns, TreeVisitor};
use super::words::Words;

/// The kind and range of one option.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum OptionKind {
    /// An integer in `min..=max`.
    Int {
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
    },
    /// An integer in `min..=max`, or `none`.
    OptionalInt {
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
    },
    /// A list of integers, each in `min..=max` (the game checks the length), or `none`.
    IntList {
        /// Smallest element.
        min: i64,
        /// Largest element.
        max: i64,
    },
    /// A list of numbers, each in `min..=max` (the game checks the length), or `none`.
    FloatList {
        /// Smallest element.
        min: f64,
        /// Largest element.
        max: f64,
    },
    /// One of these words.
    Choice(&'static [&'static str]),
}

impl fmt::Display for OptionKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionKind::Int { min, max } => write!(f, "integer {min}..={max}"),
            OptionKind::OptionalInt { min, max } => write!(f, "integer {min}..={max} or none"),
            OptionKind::IntList { min, max } => write!(f, "list of integers {min}..={max}"),
            OptionKind::FloatList { min, max } => write!(f, "list of numbers {min}..={max}"),
            OptionKind::Choice(words) => write!(f, "one of {}", words.join(", ")),
        }
    }
}

/// One configuration option of a game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OptionSpec {
    /// The name (`num_players`, `target_score`, ...), the same in Rust, the CLI and Python.
    pub name: &'static str,
    /// Its kind and range.
    pub kind: OptionKind,
    /// The default, in the text form (`"3"`, `"none"`, `"[0.5,1,2]"`); `"auto"` for an
    /// option whose default depends on others (the game's doc says how).
    pub default: &'static str,
    /// What it sets, in one line.
    pub doc: &'static str,
}

/// The value of one option.
#[derive(Clone, Debug, PartialEq)]
pub enum OptionValue {
    /// An integer.
    Int(i64),
    /// A number with a fraction.
    Float(f64),
    /// A word.
    Text(String),
    /// A list.
    List(Vec<OptionValue>),
    /// No value (`none`).
    None,
}

impl fmt::Display for OptionValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionValue::Int(v) => write!(f, "{v}"),
            OptionValue::Float(v) => write!(f, "{v}"),
            OptionValue::Text(t) => write!(f, "{t}"),
            OptionValue::None => write!(f, "none"),
            OptionValue::List(items) => {
                write!(f, "[")?;
                for (i, x) in items.iter().enumerate() {
                    if i > 0 {
                        write!(f, ",")?;
                    }
                    write!(f, "{x}")?;
                }
                write!(f, "]")
            }
        }
    }
}

impl OptionValue {
    /// Parses the text form of one value: an integer, a number, `none`, a bracketed list
    /// of such scalars, or else a word. Lists do not nest (no option takes a list of
    /// lists): an item that is itself bracketed reads as a word, which no list option
    /// accepts; so parsing takes time linear in the text, whatever its brackets.
    pub fn parse(text: &str) -> OptionValue {
        let t = text.trim();
        if let Some(inner) = t.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
            if inner.trim().is_empty() {
                return OptionValue::List(Vec::new());
            }
            return OptionValue::List(inner.split(',').map(OptionValue::scalar).collect());
        }
        OptionValue::scalar(t)
    }

    /// An integer, a number, `none`, or else a word.
    fn scalar(text: &str) -> OptionValue {
        let t = text.trim();
        if t.eq_ignore_ascii_case("none") {
            return OptionValue::None;
        }
        if let Ok(v) = t.parse::<i64>() {
            return OptionValue::Int(v);
        }
        if let Ok(v) = t.parse::<f64>() {
            if v.is_finite() {
                return OptionValue::Float(v);
            }
        }
        OptionValue::Text(t.to_string())
    }
}

/// Splits `a=1,b=[2,3]` into `("a", "1"), ("b", "[2,3]")` (commas inside brackets stay).
pub fn split_pairs(text: &str) -> Result<Vec<(String, String)>> {
    let mut pairs = Vec::new();
    let mut depth = 0isize;
    let mut start = 0;
    let bytes = text.as_bytes();
    let mut push = |piece: &str| -> Result<()> {
        let piece = piece.trim();
        if piece.is_empty() {
            return Ok(());
        }
        match piece.split_once('=') {
            Some((k, v)) if !k.trim().is_empty() => {
                pairs.push((k.trim().to_string(), v.trim().to_string()));
                Ok(())
            }
            _ => Err(Error::Invalid {
                what: "option",
                reason: format!("expected name=value, got {piece:?}"),
            }),
        }
    };
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'[' => depth += 1,
            b']' => depth -= 1,
            b',' if depth == 0 => {
                push(&text[start..i])?;
                start = i + 1;
            }
            _ => {}
        }
    }
    push(&text[start..])?;
    Ok(pairs)
}

/// A game's options, checked against its [`OptionSpec`]s: every name known, every value of
/// the right kind and in range. An option not given reads as its default.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    specs: &'static [OptionSpec],
    values: BTreeMap<&'static str, OptionValue>,
}

fn kind_error(spec: &OptionSpec, value: &OptionValue) -> Error {
    Error::Invalid {
        what: "option",
        reason: format!("{} must be {}, got {}", spec.name, spec.kind, shown(value)),
    }
}

/// A value as an error message shows it: as the text form, except that a number with a
/// fraction keeps its point (`200.0`, not `200`, when an integer was expected).
fn shown(value: &OptionValue) -> String {
    match value {
        OptionValue::Float(v) => format!("{v:?}"),
        OptionValue::List(items) => {
            let items: Vec<String> = items.iter().map(shown).collect();
            format!("[{}]", items.join(","))
        }
        other => other.to_string(),
    }
}

fn check_int(spec: &OptionSpec, value: &OptionValue, min: i64, max: i64, v: i64) -> Result<()> {
    if (min..=max).contains(&v) {
        Ok(())
    } else {
        Err(kind_error(spec, value))
    }
}

/// Checks one value against its spec (kind and range); integers given for a number list
/// are accepted as numbers.
fn check_value(spec: &OptionSpec, value: OptionValue) -> Result<OptionValue> {
    match (spec.kind, &value) {
        (OptionKind::Int { min, max }, OptionValue::Int(v))
        | (OptionKind::OptionalInt { min, max }, OptionValue::Int(v)) => {
            check_int(spec, &value, min, max, *v)?;
            Ok(value)
        }
        (
            OptionKind::OptionalInt { .. }
            | OptionKind::IntList { .. }
            | OptionKind::FloatList { .. },
            OptionValue::None,
        ) => Ok(value),
        (OptionKind::IntList { min, max }, OptionValue::List(items)) => {
            for x in items {
                match x {
                    OptionValue::Int(v) => check_int(spec, &value, min, max, *v)?,
                    _ => return Err(kind_error(spec, &value)),
                }
            }
            Ok(value)
        }
        (OptionKind::FloatList { min, max }, OptionValue::List(items)) => {
            let mut out = Vec::with_capacity(items.len());
            for x in items {
                let v = match x {
                    OptionValue::Int(v) => *v as f64,
                    OptionValue::Float(v) => *v,
                    _ => return Err(kind_error(spec, &value)),
                };
                if !(min..=max).contains(&v) {
                    return Err(kind_error(spec, &value));
                }
                out.push(OptionValue::Float(v));
            }
            Ok(OptionValue::List(out))
        }
        (OptionKind::Choice(words), OptionValue::Text(t)) if words.contains(&t.as_str()) => {
            Ok(value)
        }
        _ => Err(kind_error(spec, &value)),
    }
}

/// `value` of option `name` as a `T`, or the range error of the type `T` showing `value`.
fn narrow<T: TryFrom<i64>>(name: &'static str, value: i64) -> Result<T> {
    T::try_from(value).map_err(|_| {
        // The bounds of `T` as far as an i64 reaches (every option value is an i64).
        let fits = |v: &&i64| T::try_from(**v).is_ok();
        const MAXIMA: [i64; 7] = [127, 255, 32_767, 65_535, 0x7fff_ffff, 0xffff_ffff, i64::MAX];
        const MINIMA: [i64; 4] = [i64::MIN, -0x8000_0000, -32_768, -128];
        let hi = MAXIMA.iter().rev().find(fits).copied().unwrap_or(0);
        let lo = MINIMA.iter().find(fits).copied().unwrap_or(0);
        Error::OutOfRange {
            what: name,
            min: lo.into(),
            max: hi.into(),
            got: value.into(),
        }
    })
}

impl Options {
    /// No option given: every option reads as its default.
    pub fn defaults(specs: &'static [OptionSpec]) -> Options {
        Options {
            specs,
            values: BTreeMap::new(),
        }
    }

    /// Checks `pairs` against `specs`: an unknown name, a value of the wrong kind or out of
    /// range, or a name given twice is an error.
    pub fn new(
        specs: &'static [OptionSpec],
        pairs: impl IntoIterator<Item = (String, OptionValue)>,
    ) -> Result<Options> {
        let mut options = Options::defaults(specs);
        for (name, value) in pairs {
            options.set(&name, value)?;
        }
        Ok(options)
    }

    /// Parses the text form (`num_players=8,target_score=60`) and checks it.
    pub fn parse(specs: &'static [OptionSpec], text: &str) -> Result<Options> {
        let pairs = split_pairs(text)?;
        Options::new(
            specs,
            pairs.into_iter().map(|(k, v)| (k, OptionValue::parse(&v))),
        )
    }

    /// Sets one option (checked like [`Options::new`]).
    pub fn set(&mut self, name: &str, value: OptionValue) -> Result<()> {
        let spec = self
            .specs
            .iter()
            .find(|s| s.name == name)
            .ok_or_else(|| Error::Unknown {
                what: "option",
                name: name.to_string(),
                expected: self
                    .specs
                    .iter()
                    .map(|s| s.name)
                    .collect::<Vec<_>>()
                    .join(", "),
            })?;
        if self.values.contains_key(spec.name) {
            return Err(Error::Invalid {
                what: "option",
                reason: format!("{name} is given twice"),
            });
        }
        let value = check_value(spec, value)?;
        self.values.insert(spec.name, value);
        Ok(())
    }

    /// The option specs these options are checked against.
    pub fn specs(&self) -> &'static [OptionSpec] {
        self.specs
    }

    /// Whether `name` was given (rather than read as its default).
    pub fn is_given(&self, name: &str) -> bool {
        self.values.contains_key(name)
    }

    /// The options given, by name.
    pub fn given(&self) -> impl Iterator<Item = (&'static str, &OptionValue)> {
        self.values.iter().map(|(k, v)| (*k, v))
    }

    /// The value of `name`: as given, else its default parsed from the spec (`None` for an
    /// unknown name, or a default the game computes, `"auto"`).
    pub fn get(&self, name: &str) -> Option<OptionValue> {
        if let Some(v) = self.values.get(name) {
            return Some(v.clone());
        }
        let spec = self.specs.iter().find(|s| s.name == name)?;
        if spec.default == "auto" {
            return None;
        }
        check_value(spec, OptionValue::parse(spec.default)).ok()
    }

    fn missing(name: &str) -> Error {
        Error::Invalid {
            what: "option",
            reason: format!("{name} has no value"),
        }
    }

    /// An integer option.
    pub fn int(&self, name: &str) -> Result<i64> {
        match self.get(name) {
            Some(OptionValue::Int(v)) => Ok(v),
            _ => Err(Self::missing(name)),
        }
    }

    /// An integer-or-none option.
    pub fn opt_int(&self, name: &str) -> Result<Option<i64>> {
        match self.get(name) {
            Some(OptionValue::Int(v)) => Ok(Some(v)),
            Some(OptionValue::None) | None => Ok(None),
            _ => Err(Self::missing(name)),
        }
    }

    /// An integer option as the type the game keeps it in (`u32`, `usize`, ...). The value
    /// was checked against the option's range; one that still does not fit `T` (a range
    /// wider than the type) is an [`Error::OutOfRange`] showing the value, never a wrapped
    /// or truncated one.
    pub fn int_as<T: TryFrom<i64>>(&self, name: &'static str) -> Result<T> {
        narrow(name, self.int(name)?)
    }

    /// An integer-or-none option as the type the game keeps it in (see
    /// [`Options::int_as`]).
    pub fn opt_int_as<T: TryFrom<i64>>(&self, name: &'static str) -> Result<Option<T>> {
        self.opt_int(name)?.map(|v| narrow(name, v)).transpose()
    }

    /// An integer list option, if it has a value.
    pub fn int_list(&self, name: &str) -> Result<Option<Vec<i64>>> {
        match self.get(name) {
            Some(OptionValue::List(items)) => Ok(Some(
                items
                    .iter()
                    .filter_map(|x| match x {
                        OptionValue::Int(v) => Some(*v),
                        _ => None,
                    })
                    .collect(),
            )),
            Some(OptionValue::None) | None => Ok(None),
            _ => Err(Self::missing(name)),
        }
    }

    /// A number list option, if it has a value.
    pub fn float_list(&self, name: &str) -> Result<Option<Vec<f64>>> {
        match self.get(name) {
            Some(OptionValue::List(items)) => Ok(Some(
                items
                    .iter()
                    .filter_map(|x| match x {
                        OptionValue::Float(v) => Some(*v),
                        OptionValue::Int(v) => Some(*v as f64),
                        _ => None,
                    })
                    .collect(),
            )),
            Some(OptionValue::None) | None => Ok(None),
            _ => Err(Self::missing(name)),
        }
    }

    /// A word option.
    pub fn choice(&self, name: &str) -> Result<String> {
        match self.get(name) {
            Some(OptionValue::Text(t)) => Ok(t),
            _ => Err(Self::missing(name)),
        }
    }
}

/// The text form: every option given, in the order of the specs.
impl fmt::Display for Options {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for spec in self.specs {
            if let Some(v) = self.values.get(spec.name) {
                if !first {
                    write!(f, ",")?;
                }
                write!(f, "{}={v}", spec.name)?;
                first = false;
            }
        }
        Ok(())
    }
}

/// What every tool knows of a registered game, as constants.
#[derive(Clone, Copy, Debug)]
pub struct GameInfo {
    /// The id the CLI, Python (`cardvec.make`) and the docs use: `lost-cities`, `flip7`, ...
    pub id: &'static str,
    /// The game's name for people.
    pub title: &'static str,
    /// One line on the rules it follows.
    pub summary: &'static str,
    /// Its rules-and-encodings page.
    pub docs: &'static str,
    /// The name of its Python batch class (`cardvec.LostCities`, ...).
    pub python_class: &'static str,
    /// Fewest and most players (the range of `num_players`; the key `players` in Python's
    /// `cardvec.games()` and in `cardvec games --json`).
    pub num_players: (usize, usize),
    /// The configuration options.
    pub options: &'static [OptionSpec],
    /// The built-in bots, by name (a pattern such as `threshold-<N>` stands for a family).
    pub bots: &'static [&'static str],
    /// Configurations (text form) that the conformance suite and the golden playthroughs
    /// cover; the first is the defaults.
    pub configurations: &'static [&'static str],
    /// `cardvec match`: the bots played by default (two-player games: the first against
    /// the second; others: a free-for-all among all of them).
    pub match_bots: &'static [&'static str],
    /// `cardvec match`: the player counts of the free-for-all (empty: a head-to-head at the
    /// configured count).
    pub match_players: &'static [usize],
    /// `cardvec match`: options applied unless given (text form).
    pub match_options: &'static str,
    /// What one unit of the rewards is ("big blinds", "chips", "points"): the one word the
    /// web page, its API and the Python docs use for the game's rewards.
    pub reward_unit: &'static str,
    /// The unit of the game's own count of its end, [`Outcome::results`](crate::core::Outcome)
    /// ("chips", "points", "penalty points"): what a person reads at the end of a game
    /// (the web table's result), which need not be the rewards' unit.
    pub result_unit: &'static str,
    /// The options that set up the engine for training rather than the game a person
    /// plays (an observation layout, a reward scheme, a cut-off, an action abstraction):
    /// the web table folds them away under "engine options".
    pub engine_options: &'static [&'static str],
    /// Match reports show the rewards multiplied by this, in this unit (hold'em: 100,
    /// "bb/100": big blinds per 100 hands).
    pub reward_report: (f64, &'static str),
    /// The external implementation the game is checked against (`""`: none).
    pub oracle: &'static str,
}

/// What `cardvec trace` asks of a game: random games written as JSON lines (or one history
/// file per game in `dir`) for an external oracle to replay.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TraceRequest {
    /// Number of games.
    pub games: u64,
    /// Index of the first game: the trace holds games `first..first + games`, each exactly
    /// as in a trace from 0 (a shard of a larger trace).
    pub first: u64,
    /// Seed of game 0 (the game documents how later games derive theirs).
    pub seed: i64,
    /// Player counts used in turn (empty: the game's mix).
    pub players: Vec<usize>,
    /// Seed of the random legal policy, for games that keep it apart from the deal.
    pub policy_seed: u64,
    /// Write one history file per game into this directory instead of JSON lines.
    pub dir: Option<std::path::PathBuf>,
}

/// What a trace wrote: named counts (`("matches", 100), ("decisions", 31_000)`).
pub type TraceSummary = Vec<(&'static str, u64)>;

/// Invariants checked after every step of the generic fuzz check ([`crate::core::fuzz`]).
pub struct FuzzStep<'a, G: GameChecks> {
    /// The reference engine.
    pub reference: &'a G::Reference,
    /// The fast lane.
    pub fast: &'a SingleLane<G>,
    /// The fast lane's state before the step.
    pub previous: &'a G::State,
    /// Each seat's rewards summed since the deal.
    pub reward_totals: &'a [f64],
}

/// The hooks of a game's proof of correctness, apart from its registration ([`GameSpec`]):
/// the reference engine that `cardvec diff`, the conformance suite and the fuzz check
/// compare the fast one with, how they deal and configure it, the game's own fuzz
/// invariants, and its oracle traces. A game implements it in its `checks.rs`; every
/// registered game has it ([`GameSpec`] requires it).
pub trait GameChecks: Game + Sized {
    /// The reference engine that `cardvec diff` and the fuzz check compare with the fast one.
    type Reference: Playable;

    /// The reference engine and a fast lane of differential game `g`, both dealt the same
    /// game from `deal` (the configuration may vary with `g`, to cover several).
    fn diff_pair(g: u64, deal: &mut LaneRng) -> (Self::Reference, SingleLane<Self>);

    /// A random deal order that [`Game::reset_from_order`] accepts, drawn from `rng`: what
    /// the conformance suite deals explicitly to check the round trip. `None` (the default)
    /// if the game takes no explicit deal.
    fn sample_order(&self, rng: &mut LaneRng) -> Option<Vec<u8>> {
        let _ = rng;
        None
    }

    /// How many leading fuzz bytes [`GameChecks::fuzz_config`] reads.
    const FUZZ_CONFIG_BYTES: usize;

    /// The fuzz check's configuration from its first [`GameChecks::FUZZ_CONFIG_BYTES`] bytes
    /// (zero-padded when the input is shorter).
    fn fuzz_config(bytes: &[u8]) -> Self;

    /// Both engines of a fuzz game with this configuration, dealt from `seed`.
    fn fuzz_pair(&self, seed: u64) -> (Self::Reference, SingleLane<Self>);

    /// A game-specific raw action for script bytes `240..=254` (`k` = `byte - 240`): for
    /// example a raise-to amount near the legal bounds. The default sends `k`.
    fn fuzz_raw_action(reference: &Self::Reference, k: u8) -> u32 {
        let _ = reference;
        k as u32
    }

    /// Writes the oracle trace `request` asks for ([`TraceRequest`]) to `out`. The default:
    /// the game has no trace.
    fn write_trace(request: &TraceRequest, out: &mut dyn std::io::Write) -> Result<TraceSummary> {
        let _ = (request, out);
        Err(Error::Invalid {
            what: "trace",
            reason: "this game writes no oracle trace".to_string(),
        })
    }

    /// The game's invariants after a fuzz step, beyond what the generic check already
    /// compares (masks, outcomes, rewards, observations, [`Game::check_state`]): hidden
    /// state agreement, score bookkeeping, conservation laws.
    fn fuzz_invariants(step: &FuzzStep<'_, Self>) -> std::result::Result<(), String>;
}

/// One game as the registry holds it: its fast engine (the [`Game`] this type configures),
/// its words ([`Words`]: action names, views, outcomes), its options, its bots and its
/// capabilities (information states, a game tree, determinization). Its proof-of-correctness
/// hooks are [`GameChecks`].
pub trait GameSpec: GameChecks + Words {
    /// What the tools show of the game.
    const INFO: GameInfo;

    /// A configuration from checked options (the names and kinds are checked already;
    /// this checks what depends on several options, such as one stack per seat).
    fn configure(options: &Options) -> Result<Self>;

    /// This configuration as options (every option given).
    fn options(&self) -> Options;

    /// Whether every step's rewards sum to zero over the seats in this configuration.
    fn zero_sum(&self) -> bool {
        false
    }

    /// A built-in bot by name (see [`GameInfo::bots`]).
    fn bot(&self, name: &str) -> Result<Box<dyn Bot<Self>>>;

    /// The game's information states ([`super::tree::InfoStates`]) as a table of function
    /// pointers, if it has that capability: what lets a batch environment write them for
    /// every lane. The default: none. A game that implements the trait returns
    /// `Some(InfoStateFns::of())`.
    fn info_states() -> Option<InfoStateFns<Self>> {
        None
    }

    /// Runs `visitor` on this configuration as a [`super::tree::GameTree`], if the game has
    /// that capability (`None`, the default, if not). A game that implements the trait
    /// returns `Some(visitor.visit(self))`.
    fn visit_tree<V: TreeVisitor>(&self, visitor: &mut V) -> Option<V::Output> {
        let _ = visitor;
        None
    }

    /// The game's determinization ([`super::determinize`]: a seat's hidden cards dealt
    /// afresh from a stream), if it has that capability: what search bots need. The
    /// default: none. A game that implements [`super::determinize::Determinize`] returns
    /// `Some(<Self as Determinize>::determinize)`.
    fn determinizer() -> Option<DeterminizeFn<Self>> {
        None
    }

    /// The game's estimate of the win part-way through a game
    /// ([`super::horizon::WinEstimate`]: its stages, and each seat's estimated share of the
    /// win from a state part-way), for this configuration, if it has that capability: what lets a
    /// search bot stop its rollouts at a horizon (`pimc:horizon=H`). Built once per bot (it
    /// may hold tables). The default: none.
    fn win_estimate(&self) -> Option<Box<dyn WinEstimate<Self>>> {
        None
    }

    /// How many action keys the game names ([`GameSpec::action_keys`]); 0, the default, if
    /// it names none.
    fn action_key_count(&self) -> usize {
        0
    }

    /// Writes the key of every action of the seat to act in `state` (a live state) into
    /// `keys` (`num_actions` long, every key below [`GameSpec::action_key_count`]): a name
    /// for what the action does that does not depend on the order in which the game lists
    /// the seat's cards, with distinct keys for the actions legal at the decision. Lost
    /// Cities' actions name a hand slot (the n-th card of the hand in card order), so one
    /// action id plays a different card from one decision to the next; its keys name the
    /// card. A policy network can then score keys rather than action ids (a policy file's
    /// `action_head = "keys"`, [`crate::agents::policy_file`]). Called only when the count
    /// is not 0; the default writes the action ids.
    fn action_keys(&self, state: &Self::State, keys: &mut [u32]) {
        let _ = state;
        for (a, k) in keys.iter_mut().enumerate() {
            *k = a as u32;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPECS: &[OptionSpec] = &[
        OptionSpec {
            name: "num_players",
            kind: OptionKind::Int { min: 2, max: 4 },
            default: "2",
            doc: "seats",
        },
        OptionSpec {
            name: "limit",
            kind: OptionKind::OptionalInt { min: 1, max: 9 },
            default: "none",
            doc: "a limit",
        },
        OptionSpec {
            name: "stacks",
            kind: OptionKind::IntList { min: 1, max: 100 },
            default: "none",
            doc: "stacks",
        },
        OptionSpec {
            name: "sizes",
            kind: OptionKind::FloatList {
                min: 0.0,
                max: 10.0,
            },
            default: "[0.5,1,2]",
            doc: "sizes",
        },
        OptionSpec {
            name: "mode",
            kind: OptionKind::Choice(&["a", "b"]),
            default: "a",
            doc: "mode",
        },
    ];

    #[test]
    fn defaults_read_from_the_specs() {
        let o = Options::defaults(SPECS);
        assert_eq!(o.int("num_players"), Ok(2));
        assert_eq!(o.opt_int("limit"), Ok(None));
        assert_eq!(o.int_list("stacks"), Ok(None));
        assert_eq!(o.float_list("sizes"), Ok(Some(vec![0.5, 1.0, 2.0])));
        assert_eq!(o.choice("mode"), Ok("a".into()));
        assert_eq!(o.to_string(), "");
    }

    #[test]
    fn text_form_round_trips() {
        let o = Options::parse(SPECS, "num_players=3, stacks=[5,6,7],mode=b,limit=none").unwrap();
        assert_eq!(o.int("num_players"), Ok(3));
        assert_eq!(o.int_list("stacks"), Ok(Some(vec![5, 6, 7])));
        assert_eq!(
            o.to_string(),
            "num_players=3,limit=none,stacks=[5,6,7],mode=b"
        );
        assert_eq!(Options::parse(SPECS, &o.to_string()).unwrap(), o);
    }

    #[test]
    fn bad_options_are_errors() {
        for bad in [
            "players=3",
            "num_players=5",
            "num_players=x",
            "num_players=2.5",
            "num_players=none",
            "limit=0",
            "stacks=[1,x]",
            "stacks=3",
            "stacks=[none]",
            "sizes=[11]",
            "mode=c",
            "num_players=2,num_players=3",
            "num_players",
        ] {
            assert!(Options::parse(SPECS, bad).is_err(), "{bad} accepted");
        }
    }

    #[test]
    fn deeply_bracketed_values_are_errors_not_stack_overflows() {
        // On a thread with the default 2 MiB stack; nested lists read as words.
        std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(|| {
                let deep = format!("{}1{}", "[".repeat(200_000), "]".repeat(200_000));
                let err = Options::parse(SPECS, &format!("stacks={deep}")).unwrap_err();
                assert!(err.to_string().contains("stacks"), "{err}");
                assert_eq!(
                    OptionValue::parse("[[1],2]"),
                    OptionValue::List(vec![OptionValue::Text("[1]".into()), OptionValue::Int(2)])
                );
                let open = "[".repeat(200_000);
                assert_eq!(OptionValue::parse(&open), OptionValue::Text(open.clone()));
                assert!(Options::parse(SPECS, &format!("stacks={open}")).is_err());
            })
            .unwrap()
            .join()
            .unwrap();
    }

    #[test]
    fn integers_are_accepted_as_numbers() {
        let o = Options::parse(SPECS, "sizes=[1,2.5]").unwrap();
        assert_eq!(o.float_list("sizes"), Ok(Some(vec![1.0, 2.5])));
    }
}
