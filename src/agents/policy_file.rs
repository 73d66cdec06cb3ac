//! `policy`: a trained network read from a policy file, as a bot for every game.
//!
//! # The file
//!
//! A [safetensors](https://huggingface.co/docs/safetensors) file holding a multilayer
//! perceptron, every tensor f32:
//!
//! - `layers.{i}.weight` `[out, in]` and `layers.{i}.bias` `[out]` for `i = 0, 1, ...` (as
//!   PyTorch's `nn.Linear` stores them): layer `i + 1` reads what layer `i` writes, the
//!   first reads the game's observation row ([`crate::core::Game::observe`], `obs_dim` values) and the
//!   last writes one logit per action (`num_actions`);
//! - optionally `obs_mean` and `obs_std` `[obs_dim]`: the input is `(obs - mean) / std`
//!   (both or neither; every `std` positive), clamped to `[-obs_clip, obs_clip]` when the
//!   metadata gives `obs_clip`.
//!
//! The header's `__metadata__` (a map of strings) says what the network was trained on:
//!
//! | key | value |
//! | --- | --- |
//! | `format` | `cardvec-policy` |
//! | `version` | `1` |
//! | `game` | the registry id (`kuhn`, `lost-cities`, ...) |
//! | `options` | the game options, a JSON object (`{}`: the defaults); compared with the game's, every option read with its default when not given |
//! | `obs_dtype` | `f32` or `u8`: the dtype of the rows it was trained on (the `u8` rows expand to the f32 row bit for bit, so both read the f32 row here) |
//! | `obs_layout` | optional: the game's `obs_layout` option (Lost Cities' `card-major` / `channel-major`); checked against the game's when given |
//! | `activation` | `relu` or `tanh`, after every layer but the last |
//! | `obs_clip` | optional, with `obs_mean`/`obs_std` only: a positive number; the normalized input is clamped to `[-obs_clip, obs_clip]` (the PPO examples' running normalization clips at 10) |
//! | `action_head` | optional: `actions` (the default: the last layer writes one logit per action) or `keys` (one logit per action key of the game, [`GameSpec::action_keys`]: an action's logit is its key's, so a Lost Cities network scores cards rather than hand slots) |
//!
//! Any other metadata key is refused (a file written for a newer reader is not read
//! differently), and anything else wrong with an error naming the problem before any game starts
//! ([`PolicyFile::read`], [`PolicyFile::check_game`]).
//!
//! # Inference
//!
//! [`Mlp::forward`] runs a batch of observation rows through the network with one matrix
//! product per layer (the `matrixmultiply` crate, single-threaded: a row's logits do not
//! depend on the other rows of its batch, so the result is the same for any thread count
//! or chunking). The bot masks the illegal actions (their logits read as −∞: never chosen)
//! and plays the legal action with the highest logit (the first such in action order), or
//! with `sample=1` draws from the softmax over the legal actions with the stream it is
//! given (the lane's own stream in batched play).
//!
//! The name: `policy:<path>` (greedy) or `policy:<path>,sample=1`.

use std::collections::HashMap;
use std::marker::PhantomData;
use std::path::Path;
use std::sync::Arc;

use rayon::prelude::*;
use safetensors::{Dtype, SafeTensors};

use crate::core::policy::LaneBatch;
use crate::core::spec::OptionValue;
use crate::core::{Bot, Error, GameSpec, LaneRng, ObsDtype, Options, Result};

/// The family prefix of the name.
pub const PREFIX: &str = "policy";

/// The `format` a policy file's metadata must hold.
pub const FORMAT: &str = "cardvec-policy";

/// The `version` a policy file's metadata must hold.
pub const VERSION: &str = "1";

/// The metadata keys a policy file may hold (any other is refused).
pub const METADATA_KEYS: &[&str] = &[
    "format",
    "version",
    "game",
    "options",
    "obs_dtype",
    "obs_layout",
    "activation",
    "obs_clip",
    "action_head",
];

/// Most layers a policy file may hold.
pub const MAX_LAYERS: usize = 64;

/// The activation between layers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Activation {
    /// `max(x, 0)`.
    Relu,
    /// `tanh(x)`.
    Tanh,
}

impl Activation {
    /// The name as the metadata spells it.
    pub fn name(self) -> &'static str {
        match self {
            Activation::Relu => "relu",
            Activation::Tanh => "tanh",
        }
    }

    fn apply(self, x: f32) -> f32 {
        match self {
            Activation::Relu => x.max(0.0),
            Activation::Tanh => x.tanh(),
        }
    }
}

/// One linear layer: `y = W x + b`.
#[derive(Clone, Debug, PartialEq)]
pub struct Linear {
    /// Weights, `outputs` rows of `inputs` values (row-major `[out, in]`).
    pub weight: Vec<f32>,
    /// Biases, `outputs` values.
    pub bias: Vec<f32>,
    /// Width of the input.
    pub inputs: usize,
    /// Width of the output.
    pub outputs: usize,
}

/// A multilayer perceptron with an optional input normalization.
#[derive(Clone, Debug, PartialEq)]
pub struct Mlp {
    /// The layers, first to last.
    pub layers: Vec<Linear>,
    /// The activation after every layer but the last.
    pub activation: Activation,
    /// `(mean, std)` of the input normalization, if any.
    pub normalization: Option<(Vec<f32>, Vec<f32>)>,
    /// The bound the normalized input is clamped to (`[-clip, clip]`), if any.
    pub obs_clip: Option<f32>,
}

impl Mlp {
    /// Width of the input row.
    pub fn input_dim(&self) -> usize {
        self.layers[0].inputs
    }

    /// Width of the output row (logits).
    pub fn output_dim(&self) -> usize {
        self.layers[self.layers.len() - 1].outputs
    }

    /// The logits of `rows` input rows (`obs`: `rows × input_dim` values), into `out`
    /// (resized to `rows × output_dim`): one matrix product per layer over the whole batch.
    ///
    /// # Panics
    /// If `obs` is not `rows × input_dim` long.
    pub fn forward(&self, obs: &[f32], rows: usize, out: &mut Vec<f32>) {
        assert_eq!(
            obs.len(),
            rows * self.input_dim(),
            "Mlp::forward: input length"
        );
        let mut x = obs.to_vec();
        if let Some((mean, std)) = &self.normalization {
            for row in x.chunks_exact_mut(self.input_dim()) {
                for ((v, m), s) in row.iter_mut().zip(mean).zip(std) {
                    *v = (*v - m) / s;
                    if let Some(c) = self.obs_clip {
                        *v = v.clamp(-c, c);
                    }
                }
            }
        }
        let last = self.layers.len() - 1;
        for (i, layer) in self.layers.iter().enumerate() {
            let (k, n) = (layer.inputs, layer.outputs);
            let mut y = vec![0f32; rows * n];
            for row in y.chunks_exact_mut(n) {
                row.copy_from_slice(&layer.bias);
            }
            if rows > 0 {
                // SAFETY: `x` is `rows × k` row-major, `weight` is `n × k` row-major read
                // as its transpose `k × n` (row stride 1, column stride k), `y` is
                // `rows × n` row-major; every pointer covers its matrix, and `y` does not
                // alias the inputs.
                unsafe {
                    matrixmultiply::sgemm(
                        rows,
                        k,
                        n,
                        1.0,
                        x.as_ptr(),
                        k as isize,
                        1,
                        layer.weight.as_ptr(),
                        1,
                        k as isize,
                        1.0,
                        y.as_mut_ptr(),
                        n as isize,
                        1,
                    );
                }
            }
            if i < last {
                for v in &mut y {
                    *v = self.activation.apply(*v);
                }
            }
            x = y;
        }
        *out = x;
    }
}

/// What a policy file says it was trained on (its `__metadata__`).
#[derive(Clone, Debug, PartialEq)]
pub struct PolicyMeta {
    /// The registry id of the game.
    pub game: String,
    /// The game options, as the file gives them (name → JSON value).
    pub options: serde_json::Map<String, serde_json::Value>,
    /// The dtype of the observation rows it was trained on.
    pub obs_dtype: ObsDtype,
    /// The observation layout it was trained on, if the file names one.
    pub obs_layout: Option<String>,
    /// What the last layer writes a logit for.
    pub action_head: ActionHead,
}

/// What a policy network's last layer writes a logit for (the metadata's `action_head`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ActionHead {
    /// One logit per action id (`num_actions`).
    Actions,
    /// One logit per action key of the game ([`GameSpec::action_key_count`]); an action's
    /// logit is its key's at the decision ([`GameSpec::action_keys`]).
    Keys,
}

/// A policy file read and checked in itself (see the [module](self) documentation); whether
/// it fits a game is [`PolicyFile::check_game`].
#[derive(Clone, Debug, PartialEq)]
pub struct PolicyFile {
    /// What it was trained on.
    pub meta: PolicyMeta,
    /// The network.
    pub mlp: Mlp,
}

fn bad(reason: String) -> Error {
    Error::Invalid {
        what: "policy file",
        reason,
    }
}

impl PolicyFile {
    /// Reads the policy file at `path`. Errors (naming the path): a file that cannot be
    /// read, and everything [`PolicyFile::from_bytes`] refuses.
    pub fn read(path: &Path) -> Result<PolicyFile> {
        let bytes =
            std::fs::read(path).map_err(|e| bad(format!("cannot read {}: {e}", path.display())))?;
        PolicyFile::from_bytes(&bytes).map_err(|e| match e {
            Error::Invalid { reason, .. } => bad(format!("{}: {reason}", path.display())),
            other => other,
        })
    }

    /// Reads a policy file from its bytes. Errors: not a safetensors file (or truncated),
    /// no metadata, a wrong `format` or `version`, a missing or unknown key value, a
    /// tensor that is not f32, missing layers, shapes that do not chain, weights that are
    /// not finite, a nonpositive `obs_std`.
    pub fn from_bytes(bytes: &[u8]) -> Result<PolicyFile> {
        let st = SafeTensors::deserialize(bytes).map_err(|e| {
            bad(format!(
                "not a safetensors file, or truncated ({} bytes): {e}",
                bytes.len()
            ))
        })?;
        let (_, header) = SafeTensors::read_metadata(bytes)
            .map_err(|e| bad(format!("not a safetensors file: {e}")))?;
        let empty = HashMap::new();
        let md = header.metadata().as_ref().unwrap_or(&empty);
        let key = |k: &str| -> Result<&String> {
            md.get(k)
                .ok_or_else(|| bad(format!("the metadata has no {k:?} (format {FORMAT})")))
        };
        if let Some(extra) = md.keys().find(|k| !METADATA_KEYS.contains(&k.as_str())) {
            return Err(bad(format!(
                "unknown metadata key {extra:?} (this build reads {}): a file written for a \
                 newer reader is refused rather than read differently",
                METADATA_KEYS.join(", ")
            )));
        }
        let format = key("format")?;
        if format != FORMAT {
            return Err(bad(format!("format is {format:?}, expected {FORMAT:?}")));
        }
        let version = key("version")?;
        if version != VERSION {
            return Err(bad(format!(
                "version {version:?}, this build reads version {VERSION:?}"
            )));
        }
        let game = key("game")?.clone();
        let options = match serde_json::from_str::<serde_json::Value>(key("options")?) {
            Ok(serde_json::Value::Object(map)) => map,
            _ => {
                return Err(bad(
                    "options must be a JSON object ({} for the defaults)".into()
                ))
            }
        };
        let obs_dtype =
            ObsDtype::parse(key("obs_dtype")?).map_err(|e| bad(format!("obs_dtype: {e}")))?;
        let obs_layout = md.get("obs_layout").cloned();
        let action_head = match md.get("action_head").map(String::as_str) {
            None | Some("actions") => ActionHead::Actions,
            Some("keys") => ActionHead::Keys,
            Some(other) => {
                return Err(bad(format!(
                    "action_head {other:?}, expected \"actions\" or \"keys\""
                )))
            }
        };
        let activation = match key("activation")?.as_str() {
            "relu" => Activation::Relu,
            "tanh" => Activation::Tanh,
            other => {
                return Err(bad(format!(
                    "activation {other:?}, expected \"relu\" or \"tanh\""
                )))
            }
        };
        let tensor = |name: &str| -> Result<Option<(Vec<usize>, Vec<f32>)>> {
            let Ok(view) = st.tensor(name) else {
                return Ok(None);
            };
            if view.dtype() != Dtype::F32 {
                return Err(bad(format!("{name} is {:?}, expected F32", view.dtype())));
            }
            let values: Vec<f32> = view
                .data()
                .chunks_exact(4)
                .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect();
            if let Some(i) = values.iter().position(|v| !v.is_finite()) {
                return Err(bad(format!("{name} holds {} at index {i}", values[i])));
            }
            Ok(Some((view.shape().to_vec(), values)))
        };
        let mut layers = Vec::new();
        for i in 0.. {
            let (wname, bname) = (format!("layers.{i}.weight"), format!("layers.{i}.bias"));
            let (w, b) = (tensor(&wname)?, tensor(&bname)?);
            let (w, b) = match (w, b) {
                (None, None) => break,
                (Some(w), Some(b)) => (w, b),
                (Some(_), None) => return Err(bad(format!("{wname} without {bname}"))),
                (None, Some(_)) => return Err(bad(format!("{bname} without {wname}"))),
            };
            if i == MAX_LAYERS {
                return Err(bad(format!("more than {MAX_LAYERS} layers")));
            }
            let [outputs, inputs] = w.0[..] else {
                return Err(bad(format!(
                    "{wname} has shape {:?}, expected [out, in]",
                    w.0
                )));
            };
            if outputs == 0 || inputs == 0 {
                return Err(bad(format!("{wname} has shape {:?}, an empty layer", w.0)));
            }
            if b.0 != [outputs] {
                return Err(bad(format!(
                    "{bname} has shape {:?}, expected [{outputs}] ({wname} is {:?})",
                    b.0, w.0
                )));
            }
            if let Some(prev) = layers.last().map(|l: &Linear| l.outputs) {
                if prev != inputs {
                    return Err(bad(format!(
                        "{wname} reads {inputs} values but layer {} writes {prev}",
                        i - 1
                    )));
                }
            }
            layers.push(Linear {
                weight: w.1,
                bias: b.1,
                inputs,
                outputs,
            });
        }
        if layers.is_empty() {
            return Err(bad(
                "no layers (expected layers.0.weight, layers.0.bias, ...)".into(),
            ));
        }
        let names = st.names();
        if let Some(extra) = names.iter().find(|n| {
            !(**n == "obs_mean"
                || **n == "obs_std"
                || n.strip_prefix("layers.").is_some_and(|rest| {
                    rest.split_once('.').is_some_and(|(i, field)| {
                        i.parse::<usize>().is_ok_and(|i| i < layers.len())
                            && (field == "weight" || field == "bias")
                    })
                }))
        }) {
            return Err(bad(format!("unexpected tensor {extra:?}")));
        }
        let dim = layers[0].inputs;
        let normalization = match (tensor("obs_mean")?, tensor("obs_std")?) {
            (None, None) => None,
            (Some(m), Some(s)) => {
                for (name, t) in [("obs_mean", &m), ("obs_std", &s)] {
                    if t.0 != [dim] {
                        return Err(bad(format!(
                            "{name} has shape {:?}, expected [{dim}] (the input width)",
                            t.0
                        )));
                    }
                }
                if let Some(i) = s.1.iter().position(|&v| v <= 0.0) {
                    return Err(bad(format!("obs_std[{i}] = {} is not positive", s.1[i])));
                }
                Some((m.1, s.1))
            }
            _ => return Err(bad("obs_mean and obs_std go together".into())),
        };
        let obs_clip = match md.get("obs_clip") {
            None => None,
            Some(text) => match text.parse::<f32>() {
                Ok(c) if c.is_finite() && c > 0.0 && normalization.is_some() => Some(c),
                Ok(c) if c.is_finite() && c > 0.0 => {
                    return Err(bad("obs_clip without obs_mean and obs_std".into()))
                }
                _ => return Err(bad(format!("obs_clip {text:?} is not a positive number"))),
            },
        };
        Ok(PolicyFile {
            meta: PolicyMeta {
                game,
                options,
                obs_dtype,
                obs_layout,
                action_head,
            },
            mlp: Mlp {
                layers,
                activation,
                normalization,
                obs_clip,
            },
        })
    }

    /// Checks that the policy was trained on `game` as configured: the same registry id,
    /// the same options (each read with its default when not given), the same observation
    /// layout, an input as wide as the observation and an output as wide as the action
    /// count. The error names the first difference.
    pub fn check_game<G: GameSpec>(&self, game: &G) -> Result<()> {
        self.check_game_except(game, &[])
    }

    /// [`PolicyFile::check_game`] with the options named in `except` not compared: for a
    /// caller that sets them itself whatever the file was trained with (the 151 arena cuts
    /// rounds and scores matches by its own rules, so a file's `max_round_steps` and
    /// `reward` do not matter there). The observation layout and widths are still checked.
    pub fn check_game_except<G: GameSpec>(&self, game: &G, except: &[&str]) -> Result<()> {
        let id = G::INFO.id;
        if self.meta.game != id {
            return Err(bad(format!("trained on {}, not {id}", self.meta.game)));
        }
        let pairs: Vec<(String, OptionValue)> = self
            .meta
            .options
            .iter()
            .map(|(k, v)| {
                let text = match v {
                    serde_json::Value::String(s) => s.clone(),
                    serde_json::Value::Null => "none".to_string(),
                    other => other.to_string(),
                };
                (k.clone(), OptionValue::parse(&text))
            })
            .collect();
        // Both sides as the game reads them: the file's options configure a game, whose
        // options (defaults and computed values filled in) are compared with ours.
        let file = Options::new(G::INFO.options, pairs)
            .and_then(|o| G::configure(&o))
            .map_err(|e| bad(format!("options of the file: {e}")))?
            .options();
        let ours = game.options();
        for spec in G::INFO.options.iter().filter(|o| !except.contains(&o.name)) {
            let (theirs, mine) = (file.get(spec.name), ours.get(spec.name));
            if theirs != mine {
                let show = |v: Option<OptionValue>| v.map_or("auto".to_string(), |v| v.to_string());
                return Err(bad(format!(
                    "trained with {}={}, the game has {}={}",
                    spec.name,
                    show(theirs),
                    spec.name,
                    show(mine)
                )));
            }
        }
        if let Some(layout) = &self.meta.obs_layout {
            let mine = ours.get("obs_layout").map(|v| v.to_string());
            if mine.as_deref().is_some_and(|m| m != layout)
                || (mine.is_none() && layout != "default")
            {
                return Err(bad(format!(
                    "trained on observation layout {layout}, the game observes in {}",
                    mine.as_deref().unwrap_or("its only layout (\"default\")")
                )));
            }
        }
        if self.mlp.input_dim() != game.obs_dim() {
            return Err(bad(format!(
                "the network reads {} values, {id}'s observation has {}",
                self.mlp.input_dim(),
                game.obs_dim()
            )));
        }
        match self.meta.action_head {
            ActionHead::Actions if self.mlp.output_dim() != game.num_actions() => {
                return Err(bad(format!(
                    "the network writes {} logits, {id} has {} actions",
                    self.mlp.output_dim(),
                    game.num_actions()
                )));
            }
            ActionHead::Keys if game.action_key_count() == 0 => {
                return Err(bad(format!(
                    "action_head \"keys\", but {id} names no action keys"
                )));
            }
            ActionHead::Keys if self.mlp.output_dim() != game.action_key_count() => {
                return Err(bad(format!(
                    "the network writes {} logits, {id} has {} action keys (action_head \"keys\")",
                    self.mlp.output_dim(),
                    game.action_key_count()
                )));
            }
            _ => {}
        }
        Ok(())
    }
}

/// The legal action with the highest logit (the first such in action order); `u32::MAX`
/// if no action is legal. Illegal actions are never chosen.
pub fn masked_argmax(logits: &[f32], mask: &[u8]) -> u32 {
    let mut best = (u32::MAX, f32::NEG_INFINITY);
    for (a, (&l, &m)) in logits.iter().zip(mask).enumerate() {
        if m != 0 && (best.0 == u32::MAX || l > best.1) {
            best = (a as u32, l);
        }
    }
    best.0
}

/// The softmax of `logits` over the legal actions of `mask` into `probs` (0 for illegal
/// actions, whose logits read as −∞); all zero if no action is legal.
pub fn masked_probabilities(logits: &[f32], mask: &[u8], probs: &mut [f32]) {
    let max = logits
        .iter()
        .zip(mask)
        .filter(|&(_, &m)| m != 0)
        .map(|(&l, _)| l)
        .fold(f32::NEG_INFINITY, f32::max);
    let mut total = 0f64;
    for ((p, &l), &m) in probs.iter_mut().zip(logits).zip(mask) {
        *p = if m != 0 { (l - max).exp() } else { 0.0 };
        total += *p as f64;
    }
    if total > 0.0 {
        for p in probs.iter_mut() {
            *p = (*p as f64 / total) as f32;
        }
    }
}

/// A legal action drawn from the softmax of `logits` over the legal actions, with one
/// uniform from `rng`; `u32::MAX` if no action is legal.
pub fn masked_sample(logits: &[f32], mask: &[u8], rng: &mut LaneRng) -> u32 {
    let mut probs = vec![0f32; logits.len()];
    masked_probabilities(logits, mask, &mut probs);
    let u = rng.unit_f64();
    let mut acc = 0f64;
    let mut last = u32::MAX;
    for (a, (&p, &m)) in probs.iter().zip(mask).enumerate() {
        if m != 0 {
            last = a as u32;
            acc += p as f64;
            if u < acc {
                return last;
            }
        }
    }
    last
}

/// The `policy:<path>` bot: a policy file's network playing the seat to act (see the
/// [module](self) documentation).
pub struct PolicyBot<G> {
    name: String,
    policy: Arc<PolicyFile>,
    sample: bool,
    game: PhantomData<fn() -> G>,
}

impl<G: GameSpec> PolicyBot<G> {
    /// The bot named `name`: `policy:<path>` or `policy:<path>,sample=0|1`, the file read
    /// and checked against `game` ([`PolicyFile::read`], [`PolicyFile::check_game`]).
    pub fn parse(game: &G, name: &str) -> Result<PolicyBot<G>> {
        PolicyBot::parse_except(game, name, &[])
    }

    /// [`PolicyBot::parse`] with the options of `except` not compared
    /// ([`PolicyFile::check_game_except`]).
    pub fn parse_except(game: &G, name: &str, except: &[&str]) -> Result<PolicyBot<G>> {
        let usage = "policy:<path> or policy:<path>,sample=1";
        let Some(mut rest) = name
            .strip_prefix(PREFIX)
            .and_then(|r| r.strip_prefix(':'))
            .filter(|r| !r.is_empty())
        else {
            return Err(Error::Invalid {
                what: "bot",
                reason: format!("{name:?} names no policy file (expected {usage})"),
            });
        };
        let mut sample = false;
        while let Some((head, tail)) = rest.rsplit_once(',') {
            match tail.split_once('=') {
                Some(("sample", v)) => {
                    sample = super::int_option("policy option", "sample", v, 0, 1)? == 1;
                    rest = head;
                }
                _ => break,
            }
        }
        PolicyBot::from_path_except(game, Path::new(rest), sample, except)
    }

    /// The bot playing the policy file at `path` (read and checked against `game`:
    /// [`PolicyFile::read`], [`PolicyFile::check_game`]), greedy or sampling.
    pub fn from_path(game: &G, path: &Path, sample: bool) -> Result<PolicyBot<G>> {
        PolicyBot::from_path_except(game, path, sample, &[])
    }

    /// [`PolicyBot::from_path`] with the options of `except` not compared
    /// ([`PolicyFile::check_game_except`]).
    pub fn from_path_except(
        game: &G,
        path: &Path,
        sample: bool,
        except: &[&str],
    ) -> Result<PolicyBot<G>> {
        let shown = path.display().to_string();
        let policy = PolicyFile::read(path)?;
        policy
            .check_game_except(game, except)
            .map_err(|e| match e {
                Error::Invalid { reason, .. } => bad(format!("{shown}: {reason}")),
                other => other,
            })?;
        Ok(PolicyBot::new(policy.into(), sample, &shown))
    }

    /// The policy's action probabilities for the seat to act in every lane of `lanes`
    /// selected by `selected` (`None`: every lane) whose game is not over, into `out`
    /// (rows of `num_actions`: the softmax over the legal actions, 0 for the illegal ones;
    /// all zero for the other lanes). One forward pass per chunk of `chunk_size` lanes, in
    /// parallel on the current rayon pool; a row does not depend on its chunk.
    ///
    /// Errors (nothing written): buffers of the wrong length, a `chunk_size` of zero.
    pub fn lane_probabilities(
        &self,
        game: &G,
        lanes: &LaneBatch<'_, G>,
        selected: Option<&[bool]>,
        chunk_size: usize,
        out: &mut [f32],
    ) -> Result<()> {
        let n = lanes.states.len();
        let a = game.num_actions();
        Error::check_len("probabilities", n * a, out.len())?;
        Error::check_len("legal masks", n * a, lanes.masks.len())?;
        Error::check_len("terminated flags", n, lanes.terminated.len())?;
        Error::check_len("truncated flags", n, lanes.truncated.len())?;
        if let Some(sel) = selected {
            Error::check_len("lanes", n, sel.len())?;
        }
        Error::check_range("chunk_size", 1, 1 << 20, chunk_size)?;
        if a == 0 {
            return Ok(());
        }
        out.par_chunks_mut(chunk_size * a)
            .enumerate()
            .for_each(|(c, chunk)| {
                chunk.fill(0.0);
                let base = c * chunk_size;
                let asked: Vec<usize> = (base..base + chunk.len() / a)
                    .filter(|&l| lanes.asked(l, selected))
                    .collect();
                if asked.is_empty() {
                    return;
                }
                let (states, masks) = lanes.rows(&asked, a);
                let probs = self.probabilities(game, &states, &masks);
                for (&l, row) in asked.iter().zip(probs.chunks_exact(a)) {
                    chunk[(l - base) * a..(l - base + 1) * a].copy_from_slice(row);
                }
            });
        Ok(())
    }

    /// The bot playing `policy` (already checked against the game), greedy or sampling;
    /// `path` only names it.
    pub fn new(policy: Arc<PolicyFile>, sample: bool, path: &str) -> PolicyBot<G> {
        let shown = if sample { ",sample=1" } else { "" };
        PolicyBot {
            name: format!("{PREFIX}:{path}{shown}"),
            policy,
            sample,
            game: PhantomData,
        }
    }

    /// The network's logits for the seat to act in each of `states` (rows of
    /// `num_actions`), one forward pass over all of them (with a key head, each action's
    /// logit is its key's: [`ActionHead::Keys`]).
    pub fn logits(&self, game: &G, states: &[&G::State]) -> Vec<f32> {
        let dim = game.obs_dim();
        let mut obs = vec![0f32; states.len() * dim];
        for (row, state) in obs.chunks_exact_mut(dim).zip(states) {
            game.observe(state, game.current_player(state), row);
        }
        let mut logits = Vec::new();
        self.policy.mlp.forward(&obs, states.len(), &mut logits);
        if self.policy.meta.action_head == ActionHead::Keys {
            let (a, width) = (game.num_actions(), self.policy.mlp.output_dim());
            let mut keys = vec![0u32; a];
            let mut by_action = vec![0f32; states.len() * a];
            for ((row, out), state) in logits
                .chunks_exact(width)
                .zip(by_action.chunks_exact_mut(a))
                .zip(states)
            {
                game.action_keys(state, &mut keys);
                for (o, &k) in out.iter_mut().zip(&keys) {
                    *o = row[k as usize];
                }
            }
            return by_action;
        }
        logits
    }

    /// The action for an observation row written by the caller (`obs`: the game's
    /// observation of the seat to act, as [`Game::observe`](crate::core::Game::observe)
    /// writes it; `mask`: its legal actions): greedy or sampled from `rng` as the bot is.
    /// For a caller that holds a seat's view rather than a state (the 151 arena). `u32::MAX`
    /// if no action is legal. Panics if `obs` is not as wide as the network's input, or if
    /// the network has a key head (which needs the state; [`PolicyFile::check_game`]
    /// refuses one for a game that names no keys, such as 151).
    pub fn act_on_obs(&self, obs: &[f32], mask: &[u8], rng: &mut LaneRng) -> u32 {
        assert_eq!(obs.len(), self.policy.mlp.input_dim(), "observation width");
        assert_eq!(
            self.policy.meta.action_head,
            ActionHead::Actions,
            "a key head needs the state"
        );
        let mut logits = Vec::new();
        self.policy.mlp.forward(obs, 1, &mut logits);
        self.pick(&logits, mask, rng)
    }

    /// The bot's choice from one row of logits: sampled from `rng` or the greedy argmax,
    /// over the legal actions of `mask`.
    fn pick(&self, logits: &[f32], mask: &[u8], rng: &mut LaneRng) -> u32 {
        if self.sample {
            masked_sample(logits, mask, rng)
        } else {
            masked_argmax(logits, mask)
        }
    }

    /// The policy's action probabilities for the seat to act in each of `states` (rows of
    /// `num_actions`, 0 for the illegal actions of `masks`).
    pub fn probabilities(&self, game: &G, states: &[&G::State], masks: &[&[u8]]) -> Vec<f32> {
        let a = game.num_actions();
        let mut logits = self.logits(game, states);
        for (row, mask) in logits.chunks_exact_mut(a).zip(masks) {
            let l = row.to_vec();
            masked_probabilities(&l, mask, row);
        }
        logits
    }
}

impl<G: GameSpec> Bot<G> for PolicyBot<G> {
    fn name(&self) -> &str {
        &self.name
    }

    fn act(&self, game: &G, state: &G::State, mask: &[u8], rng: &mut LaneRng) -> u32 {
        let mut out = [0u32];
        self.act_batch(game, &[state], &[mask], std::slice::from_mut(rng), &mut out);
        out[0]
    }

    fn act_batch(
        &self,
        game: &G,
        states: &[&G::State],
        masks: &[&[u8]],
        rngs: &mut [LaneRng],
        out: &mut [u32],
    ) {
        let a = game.num_actions();
        let logits = self.logits(game, states);
        for (((row, mask), rng), o) in logits.chunks_exact(a).zip(masks).zip(rngs).zip(out) {
            *o = self.pick(row, mask, rng);
        }
    }
}

/// Policy files built in memory, for tests (here and in other crates' tests).
#[doc(hidden)]
pub mod testing {
    use std::collections::HashMap;

    use safetensors::tensor::TensorView;
    use safetensors::Dtype;

    /// A deterministic pseudo-random f32 in `-scale..scale` for index `i` of tensor `t`.
    pub fn value(t: u64, i: u64, scale: f32) -> f32 {
        let h = crate::core::rng::splitmix64(t.wrapping_mul(0x1000_0001) ^ i);
        ((h >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * scale
    }

    /// The tensors of an MLP of widths `widths` (`widths[0]` inputs, the last outputs),
    /// weights from [`value`], as name → (shape, values).
    pub fn mlp_tensors(widths: &[usize]) -> Vec<(String, Vec<usize>, Vec<f32>)> {
        let mut out = Vec::new();
        for (i, w) in widths.windows(2).enumerate() {
            let (k, n) = (w[0], w[1]);
            let scale = 1.0 / (k as f32).sqrt();
            let t = 2 * i as u64;
            out.push((
                format!("layers.{i}.weight"),
                vec![n, k],
                (0..(n * k) as u64).map(|j| value(t, j, scale)).collect(),
            ));
            out.push((
                format!("layers.{i}.bias"),
                vec![n],
                (0..n as u64).map(|j| value(t + 1, j, scale)).collect(),
            ));
        }
        out
    }

    /// The metadata of a policy for `game` with options `options` (JSON) and activation
    /// `activation`.
    pub fn metadata(game: &str, options: &str, activation: &str) -> HashMap<String, String> {
        [
            ("format", "cardvec-policy"),
            ("version", "1"),
            ("game", game),
            ("options", options),
            ("obs_dtype", "f32"),
            ("activation", activation),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
    }

    /// The safetensors bytes of `tensors` with `metadata`.
    pub fn bytes(
        tensors: &[(String, Vec<usize>, Vec<f32>)],
        metadata: HashMap<String, String>,
    ) -> Vec<u8> {
        let data: Vec<(String, Vec<usize>, Vec<u8>)> = tensors
            .iter()
            .map(|(n, s, v)| (n.clone(), s.clone(), bytemuck::cast_slice(v).to_vec()))
            .collect();
        let views = data.iter().map(|(n, s, d)| {
            (
                n.clone(),
                TensorView::new(Dtype::F32, s.clone(), d).unwrap(),
            )
        });
        safetensors::serialize(views, Some(metadata)).unwrap()
    }
}

#[cfg(test)]
mod tests {
    use super::testing::{bytes, metadata, mlp_tensors};
    use super::*;
    use crate::core::{EnvOptions, Game, VecEnv};
    use crate::games::kuhn::KuhnPoker;
    use crate::games::lost_cities::{LostCities, ObsLayout};

    fn kuhn_widths() -> Vec<usize> {
        let g = KuhnPoker;
        vec![g.obs_dim(), 16, 8, g.num_actions()]
    }

    fn kuhn_policy(activation: &str) -> PolicyFile {
        let b = bytes(
            &mlp_tensors(&kuhn_widths()),
            metadata("kuhn", "{}", activation),
        );
        let p = PolicyFile::from_bytes(&b).unwrap();
        p.check_game(&KuhnPoker).unwrap();
        p
    }

    /// The forward pass one value at a time, in f64 (plain index loops on purpose).
    #[allow(clippy::needless_range_loop)]
    fn scalar_forward(p: &PolicyFile, x: &[f32]) -> Vec<f64> {
        let mut v: Vec<f64> = x.iter().map(|&x| x as f64).collect();
        if let Some((m, s)) = &p.mlp.normalization {
            for i in 0..v.len() {
                v[i] = (v[i] - m[i] as f64) / s[i] as f64;
                if let Some(c) = p.mlp.obs_clip {
                    v[i] = v[i].clamp(-c as f64, c as f64);
                }
            }
        }
        let last = p.mlp.layers.len() - 1;
        for (li, l) in p.mlp.layers.iter().enumerate() {
            let mut y = vec![0f64; l.outputs];
            for o in 0..l.outputs {
                let mut acc = l.bias[o] as f64;
                for i in 0..l.inputs {
                    acc += l.weight[o * l.inputs + i] as f64 * v[i];
                }
                y[o] = if li == last {
                    acc
                } else {
                    match p.mlp.activation {
                        Activation::Relu => acc.max(0.0),
                        Activation::Tanh => acc.tanh(),
                    }
                };
            }
            v = y;
        }
        v
    }

    #[test]
    fn the_batched_forward_pass_equals_a_scalar_computation() {
        for (activation, clip) in [("relu", None), ("tanh", None), ("relu", Some("0.75"))] {
            let mut tensors = mlp_tensors(&[7, 33, 5, 4]);
            tensors.push((
                "obs_mean".into(),
                vec![7],
                (0..7).map(|i| i as f32 * 0.1).collect(),
            ));
            tensors.push((
                "obs_std".into(),
                vec![7],
                (0..7).map(|i| 0.5 + i as f32).collect(),
            ));
            let mut md = metadata("kuhn", "{}", activation);
            if let Some(c) = clip {
                md.insert("obs_clip".into(), c.into());
            }
            let p = PolicyFile::from_bytes(&bytes(&tensors, md)).unwrap();
            assert_eq!(p.mlp.obs_clip, clip.map(|c| c.parse().unwrap()));
            let rows = 37;
            let x: Vec<f32> = (0..rows * 7)
                .map(|i| testing::value(99, i as u64, 3.0))
                .collect();
            let mut out = Vec::new();
            p.mlp.forward(&x, rows, &mut out);
            assert_eq!(out.len(), rows * 4);
            for r in 0..rows {
                let want = scalar_forward(&p, &x[r * 7..(r + 1) * 7]);
                for (a, w) in want.iter().enumerate() {
                    let got = out[r * 4 + a] as f64;
                    assert!(
                        (got - w).abs() <= 1e-5,
                        "{activation} row {r} action {a}: {got} vs {w}"
                    );
                }
                // A row's logits do not depend on its batch.
                let mut one = Vec::new();
                p.mlp.forward(&x[r * 7..(r + 1) * 7], 1, &mut one);
                assert_eq!(one, out[r * 4..(r + 1) * 4], "row {r} alone");
            }
        }
    }

    #[test]
    fn masked_choices_never_pick_an_illegal_action_and_greedy_is_the_argmax() {
        let logits = [5.0, -1.0, 3.0, 4.0];
        assert_eq!(masked_argmax(&logits, &[1, 1, 1, 1]), 0);
        assert_eq!(masked_argmax(&logits, &[0, 1, 1, 1]), 3);
        assert_eq!(masked_argmax(&logits, &[0, 1, 0, 0]), 1);
        assert_eq!(masked_argmax(&[2.0, 2.0], &[1, 1]), 0);
        assert_eq!(masked_argmax(&logits, &[0, 0, 0, 0]), u32::MAX);
        let mut probs = [0f32; 4];
        masked_probabilities(&logits, &[0, 1, 1, 0], &mut probs);
        assert_eq!((probs[0], probs[3]), (0.0, 0.0));
        assert!((probs[1] + probs[2] - 1.0).abs() < 1e-6);
        let mut rng = LaneRng::from_seed(3);
        let mut counts = [0u32; 4];
        for _ in 0..4000 {
            counts[masked_sample(&logits, &[0, 1, 1, 0], &mut rng) as usize] += 1;
        }
        assert_eq!(counts[0] + counts[3], 0, "{counts:?}");
        // p(1) = 1 / (1 + e^4) ≈ 0.018.
        assert!(counts[1] > 20 && counts[1] < 150, "{counts:?}");

        // The bot over whole games: every action legal, the greedy one the argmax.
        let p = Arc::new(kuhn_policy("relu"));
        let greedy = PolicyBot::<KuhnPoker>::new(p.clone(), false, "t");
        let sampler = PolicyBot::<KuhnPoker>::new(p, true, "t");
        let game = KuhnPoker;
        let a = game.num_actions();
        let mut deal = LaneRng::from_seed(11);
        let mut mask = vec![0u8; a];
        let mut rewards = vec![0f32; 2];
        for g in 0..200 {
            let mut s = game.reset(&mut deal);
            while !game.finished(&s).0 {
                game.legal_mask(&s, &mut mask);
                let logits = greedy.logits(&game, &[&s]);
                let best = (0..a)
                    .filter(|&i| mask[i] != 0)
                    .max_by(|&i, &j| logits[i].total_cmp(&logits[j]).then(j.cmp(&i)))
                    .unwrap() as u32;
                let mut rng = LaneRng::for_lane(1, g, 0);
                assert_eq!(greedy.act(&game, &s, &mask, &mut rng), best);
                let x = sampler.act(&game, &s, &mask, &mut rng);
                assert_ne!(mask[x as usize], 0);
                game.step(&mut s, x, &mut deal, &mut rewards);
            }
        }
    }

    #[test]
    fn batched_play_is_the_same_on_one_thread_and_two() {
        let p = Arc::new(kuhn_policy("tanh"));
        for sample in [false, true] {
            let bot = PolicyBot::<KuhnPoker>::new(p.clone(), sample, "t");
            let run = |threads: usize, chunk: usize| {
                let mut o = EnvOptions::new(300);
                o.num_threads = Some(threads);
                o.chunk_size = chunk;
                o.seed = 5;
                let mut env = VecEnv::new(KuhnPoker, o).unwrap();
                env.reset(5);
                let mut all = Vec::new();
                for _ in 0..3 {
                    let mut out = vec![0i64; 300];
                    env.bot_actions(&bot, None, 9, &mut out).unwrap();
                    let actions: Vec<u32> = out.iter().map(|&a| a.max(0) as u32).collect();
                    all.extend(out);
                    env.step(&actions).unwrap();
                }
                all
            };
            let one = run(1, 64);
            assert_eq!(one, run(2, 64), "sample={sample}");
            assert_eq!(one, run(2, 7), "sample={sample}, other chunks");
            assert!(one.iter().any(|&a| a >= 0));
        }
    }

    /// A Lost Cities network with a key head scores cards: each action's logit is the
    /// network's output for the card in the action's hand slot (found here from the
    /// observation's hand channel, not from `action_keys`), its placement and its draw.
    #[test]
    fn a_key_head_scores_the_card_in_each_hand_slot() {
        let game = LostCities::new(ObsLayout::CardMajor);
        let mut md = metadata("lost-cities", "{}", "relu");
        md.insert("action_head".into(), "keys".into());
        let p = PolicyFile::from_bytes(&bytes(&mlp_tensors(&[454, 24, 720]), md)).unwrap();
        p.check_game(&game).unwrap();
        let bot = PolicyBot::<LostCities>::new(Arc::new(p.clone()), false, "k");
        let mut deal = LaneRng::from_seed(21);
        let (mut checked, mut moved) = (0, 0);
        for g in 0..6 {
            let mut state = game.reset(&mut deal);
            let mut rng = LaneRng::for_lane(4, g, 0);
            while game.finished(&state) == (false, false) {
                let mut obs = vec![0f32; 454];
                game.observe(&state, game.current_player(&state), &mut obs);
                let mut raw = Vec::new();
                p.mlp.forward(&obs, 1, &mut raw);
                let hand: Vec<usize> = (0..60).filter(|&c| obs[c * 7] == 1.0).collect();
                assert_eq!(hand.len(), 8);
                let logits = bot.logits(&game, &[&state]);
                for (a, &l) in logits.iter().enumerate() {
                    assert_eq!(l, raw[hand[a / 12] * 12 + a % 12], "action {a}");
                }
                let mut mask = vec![0u8; 96];
                game.legal_mask(&state, &mut mask);
                let mut keys = vec![0u32; 96];
                game.action_keys(&state, &mut keys);
                let mut legal: Vec<u32> =
                    (0..96).filter(|&a| mask[a] == 1).map(|a| keys[a]).collect();
                let n = legal.len();
                legal.sort_unstable();
                legal.dedup();
                assert_eq!(legal.len(), n, "the legal actions' keys are distinct");
                let action = bot.act(&game, &state, &mask, &mut rng);
                assert_eq!(mask[action as usize], 1);
                moved += usize::from(action / 12 != 0);
                let mut r = [0f32; 2];
                assert!(game.step(&mut state, action, &mut rng, &mut r).applied);
                checked += 1;
            }
        }
        assert!(
            checked > 300 && moved > 0,
            "{checked} decisions, {moved} past slot 0"
        );
        // The head must fit the game.
        let mut md = metadata("kuhn", "{}", "relu");
        md.insert("action_head".into(), "keys".into());
        let k = PolicyFile::from_bytes(&bytes(&mlp_tensors(&kuhn_widths()), md)).unwrap();
        let e = k.check_game(&KuhnPoker).unwrap_err().to_string();
        assert!(e.contains("kuhn names no action keys"), "{e}");
        let mut md = metadata("lost-cities", "{}", "relu");
        md.insert("action_head".into(), "keys".into());
        let w = PolicyFile::from_bytes(&bytes(&mlp_tensors(&[454, 8, 96]), md)).unwrap();
        let e = w.check_game(&game).unwrap_err().to_string();
        assert!(
            e.contains("writes 96 logits, lost-cities has 720 action keys"),
            "{e}"
        );
        let mut md = metadata("lost-cities", "{}", "relu");
        md.insert("action_head".into(), "cards".into());
        let e = refused(&bytes(&mlp_tensors(&[454, 8, 720]), md));
        assert!(e.contains("action_head \"cards\""), "{e}");
    }

    fn refused(b: &[u8]) -> String {
        PolicyFile::from_bytes(b).unwrap_err().to_string()
    }

    fn refused_for<G: GameSpec>(game: &G, b: &[u8]) -> String {
        PolicyFile::from_bytes(b)
            .unwrap()
            .check_game(game)
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn every_bad_file_is_an_error_naming_the_problem() {
        let w = kuhn_widths();
        let good = bytes(&mlp_tensors(&w), metadata("kuhn", "{}", "relu"));
        let check = |e: String, want: &str| assert!(e.contains(want), "{want:?} not in {e}");

        // Missing path, and through the bot name.
        let e = PolicyFile::read(Path::new("/nonexistent/p.safetensors")).unwrap_err();
        check(e.to_string(), "cannot read /nonexistent/p.safetensors");
        let e = crate::agents::bot(&KuhnPoker, "policy:/nonexistent/p.safetensors")
            .err()
            .unwrap();
        check(e.to_string(), "cannot read");
        check(
            crate::agents::bot(&KuhnPoker, "policy")
                .err()
                .unwrap()
                .to_string(),
            "names no policy file",
        );
        // Not safetensors, truncated.
        check(
            refused(b"hello, world, not a policy"),
            "not a safetensors file",
        );
        check(refused(&good[..good.len() - 5]), "truncated");
        check(refused(&good[..20]), "truncated");
        // Metadata.
        for (key, value, want) in [
            ("format", "other", "format is \"other\""),
            ("version", "2", "version \"2\""),
            ("activation", "gelu", "activation \"gelu\""),
            ("obs_dtype", "f16", "obs_dtype"),
            ("options", "[1]", "options must be a JSON object"),
        ] {
            let mut md = metadata("kuhn", "{}", "relu");
            md.insert(key.into(), value.into());
            check(refused(&bytes(&mlp_tensors(&w), md)), want);
        }
        let mut md = metadata("kuhn", "{}", "relu");
        md.insert("obs_scale".into(), "2".into());
        check(
            refused(&bytes(&mlp_tensors(&w), md)),
            "unknown metadata key \"obs_scale\"",
        );
        let mut md = metadata("kuhn", "{}", "relu");
        md.remove("game");
        check(refused(&bytes(&mlp_tensors(&w), md)), "no \"game\"");
        check(
            refused(&bytes(&mlp_tensors(&w), HashMap::new())),
            "no \"format\"",
        );
        // Another game, other options, other layout.
        check(
            refused_for(
                &KuhnPoker,
                &bytes(&mlp_tensors(&w), metadata("leduc", "{}", "relu")),
            ),
            "trained on leduc, not kuhn",
        );
        let lc = LostCities::new(ObsLayout::CardMajor);
        let lw = [lc.obs_dim(), 4, lc.num_actions()];
        let lc_file =
            |options: &str| bytes(&mlp_tensors(&lw), metadata("lost-cities", options, "relu"));
        PolicyFile::from_bytes(&lc_file("{}"))
            .unwrap()
            .check_game(&lc)
            .unwrap();
        PolicyFile::from_bytes(&lc_file(r#"{"obs_layout": "card-major"}"#))
            .unwrap()
            .check_game(&lc)
            .unwrap();
        check(
            refused_for(&lc, &lc_file(r#"{"obs_layout": "channel-major"}"#)),
            "trained with obs_layout=channel-major, the game has obs_layout=card-major",
        );
        check(
            refused_for(&lc, &lc_file(r#"{"colours": 6}"#)),
            "options of the file",
        );
        // Options the game computes (hold'em's stacks) compare as the game reads them.
        use crate::games::holdem::NoLimitHoldem;
        let h = NoLimitHoldem::configure(&Options::defaults(NoLimitHoldem::INFO.options)).unwrap();
        let hw = [h.obs_dim(), 4, h.num_actions()];
        let h_file = |options: &str| bytes(&mlp_tensors(&hw), metadata("holdem", options, "relu"));
        PolicyFile::from_bytes(&h_file("{}"))
            .unwrap()
            .check_game(&h)
            .unwrap();
        PolicyFile::from_bytes(&h_file(r#"{"stacks": [200, 200]}"#))
            .unwrap()
            .check_game(&h)
            .unwrap();
        check(
            refused_for(&h, &h_file(r#"{"stacks": [100, 100]}"#)),
            "trained with stacks=[100,100]",
        );
        let mut md = metadata("lost-cities", "{}", "relu");
        md.insert("obs_layout".into(), "channel-major".into());
        check(
            refused_for(&lc, &bytes(&mlp_tensors(&lw), md)),
            "observation layout channel-major",
        );
        // Widths.
        let mut wide = w.clone();
        wide[0] += 1;
        check(
            refused_for(
                &KuhnPoker,
                &bytes(&mlp_tensors(&wide), metadata("kuhn", "{}", "relu")),
            ),
            "reads 12 values",
        );
        let mut narrow = w.clone();
        *narrow.last_mut().unwrap() += 1;
        check(
            refused_for(
                &KuhnPoker,
                &bytes(&mlp_tensors(&narrow), metadata("kuhn", "{}", "relu")),
            ),
            "logits, kuhn has",
        );
        // Weights that are not finite.
        for bad_value in [f32::NAN, f32::INFINITY] {
            let mut t = mlp_tensors(&w);
            t[2].2[3] = bad_value;
            check(
                refused(&bytes(&t, metadata("kuhn", "{}", "relu"))),
                "layers.1.weight holds",
            );
        }
        // Shapes that do not chain, a bias of the wrong shape, a missing tensor, a stray one.
        let mut t = mlp_tensors(&w);
        // Layer 1 reads 15 values, layer 0 writes 16.
        t.splice(
            2..4,
            mlp_tensors(&[15, 8])
                .into_iter()
                .map(|(n, s, v)| (n.replace("layers.0", "layers.1"), s, v)),
        );
        check(
            refused(&bytes(&t, metadata("kuhn", "{}", "relu"))),
            "layers.1.weight reads 15 values but layer 0 writes 16",
        );
        let mut t = mlp_tensors(&w);
        t[1].1 = vec![4, 4];
        check(
            refused(&bytes(&t, metadata("kuhn", "{}", "relu"))),
            "layers.0.bias has shape [4, 4]",
        );
        let mut t = mlp_tensors(&w);
        t.remove(3);
        check(
            refused(&bytes(&t, metadata("kuhn", "{}", "relu"))),
            "layers.1.weight without layers.1.bias",
        );
        let mut t = mlp_tensors(&w);
        t.push(("extra".into(), vec![1], vec![0.0]));
        check(
            refused(&bytes(&t, metadata("kuhn", "{}", "relu"))),
            "unexpected tensor \"extra\"",
        );
        check(
            refused(&bytes(&[], metadata("kuhn", "{}", "relu"))),
            "no layers",
        );
        let mut t = mlp_tensors(&w);
        t.push(("obs_mean".into(), vec![w[0]], vec![0.0; w[0]]));
        check(
            refused(&bytes(&t, metadata("kuhn", "{}", "relu"))),
            "obs_mean and obs_std go together",
        );
        let mut md = metadata("kuhn", "{}", "relu");
        md.insert("obs_clip".into(), "10".into());
        check(
            refused(&bytes(&mlp_tensors(&w), md.clone())),
            "obs_clip without obs_mean and obs_std",
        );
        md.insert("obs_clip".into(), "-1".into());
        check(refused(&bytes(&mlp_tensors(&w), md)), "obs_clip \"-1\"");
        t.push(("obs_std".into(), vec![w[0]], vec![0.0; w[0]]));
        check(
            refused(&bytes(&t, metadata("kuhn", "{}", "relu"))),
            "obs_std[0] = 0 is not positive",
        );
        // A tensor of another dtype.
        let data = [0u8; 2 * 16];
        let tensors = vec![(
            "layers.0.weight".to_string(),
            safetensors::tensor::TensorView::new(Dtype::F16, vec![2, 8], &data[..]).unwrap(),
        )];
        let b = safetensors::serialize(tensors, Some(metadata("kuhn", "{}", "relu"))).unwrap();
        check(refused(&b), "is F16, expected F32");
    }

    #[test]
    fn a_policy_file_on_disk_is_a_bot_by_name() {
        let dir = std::env::temp_dir().join(format!("cardvec-policy-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("kuhn,greedy.safetensors");
        std::fs::write(
            &path,
            bytes(&mlp_tensors(&kuhn_widths()), metadata("kuhn", "{}", "relu")),
        )
        .unwrap();
        let name = format!("policy:{}", path.display());
        let bot = crate::agents::bot(&KuhnPoker, &name).unwrap();
        assert_eq!(bot.name(), name);
        let sampled = crate::agents::bot(&KuhnPoker, &format!("{name},sample=1")).unwrap();
        assert!(sampled.name().ends_with(",sample=1"));
        let e = crate::agents::bot(&KuhnPoker, &format!("{name},sample=2"))
            .err()
            .unwrap();
        assert!(e.to_string().contains("sample must be"), "{e}");
        let e = crate::agents::bot(&LostCities::new(ObsLayout::CardMajor), &name)
            .err()
            .unwrap();
        assert!(
            e.to_string().contains("trained on kuhn, not lost-cities"),
            "{e}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
