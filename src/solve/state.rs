//! A run of the generic solvers ([`super::run`]) saved to disk and resumed: the game, its
//! options, the algorithm and its settings, and the solver's whole state (CFR family:
//! regrets, PCFR+'s last instantaneous regrets, the cumulative and the current policy;
//! MCCFR: the information sets found, regrets and average policy), so that N iterations,
//! a save, a resume and M more give the same bits as N + M iterations at once.
//!
//! # Format (version 1)
//!
//! The framed format of the spot files (`src/solve/frame.rs`): 8 bytes of magic
//! `\x89CVSOLV\n`, the format version (`u32` LE), then one zstd frame (with its content
//! checksum) of the metadata's length, the metadata in postcard (the cardvec version that
//! wrote it, game id, options as given, algorithm name, seed, lanes, epsilon, the tree's
//! node and information-set counts, the iterations done, and the solver's kind: CFR with
//! its slot count and whether it keeps instantaneous regrets, or MCCFR with its
//! information sets as `(player, key, actions)`), its FNV-1a hash, then the arrays as
//! `f64`s (every bit kept), byte-shuffled: CFR `regrets`, (`instant`), `cumulative`,
//! `current`; MCCFR `regrets`, `average`.
//!
//! Reading checks the magic, the version, the hash, the metadata, the arrays and the
//! frame's checksum; resuming ([`super::run::solve_resumable`]) checks the file against
//! the game, options and algorithm asked for and the tree built.

use std::io::{Read, Write};
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::cfr::CfrState;
use super::frame::{self, Format, FrameReader, FrameWriter};
use super::mccfr::{McCfrSetState, McCfrState};
use super::run::Algorithm;
use crate::core::spec::{OptionValue, Options};
use crate::core::{Error, Result};
use crate::registry;

/// The first 8 bytes of a run file.
pub const RUN_FILE_MAGIC: [u8; 8] = *b"\x89CVSOLV\n";
/// The run file format version this cardvec writes and reads.
pub const RUN_FILE_VERSION: u32 = 1;

/// The run file format.
const FORMAT: Format = Format {
    what: "run file",
    magic: RUN_FILE_MAGIC,
    version: RUN_FILE_VERSION,
    oldest_version: RUN_FILE_VERSION,
    not_this: "not a cardvec run file (it does not start with the run file magic; save one \
               with `cardvec solve --save` or cardvec.solve.cfr(..., save=...))",
    other_version: "solve the game again with this version",
    max_meta: 1 << 30,
};

/// The solver's arrays.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum SolverState {
    /// CFR, CFR+, DCFR, PCFR+.
    Cfr(CfrState),
    /// External or outcome sampling MCCFR.
    Mccfr(McCfrState),
}

/// A run of [`super::run::solve_resumable`] as it stopped: what to continue it from, in
/// memory or in a run file ([`RunState::save`], [`RunState::load`]).
#[derive(Clone, Debug, PartialEq)]
pub struct RunState {
    pub(crate) cardvec_version: String,
    pub(crate) game: String,
    pub(crate) options: String,
    pub(crate) algorithm: Algorithm,
    pub(crate) seed: u64,
    pub(crate) lanes: u64,
    pub(crate) epsilon: f64,
    pub(crate) nodes: u64,
    pub(crate) infosets: u64,
    pub(crate) solver: SolverState,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
enum KindMeta {
    Cfr { slots: u64, instant: bool },
    Mccfr { sets: Vec<(u32, Vec<u8>, Vec<u32>)> },
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Meta {
    cardvec_version: String,
    game: String,
    options: String,
    algorithm: String,
    seed: u64,
    lanes: u64,
    epsilon: f64,
    nodes: u64,
    infosets: u64,
    iteration: u64,
    kind: KindMeta,
}

/// Every option of game `id` resolved (given or default), `name=value` in the order of the
/// specs: two option sets configure the same game exactly when these are equal.
pub(crate) fn resolved_options(options: &Options) -> String {
    options
        .specs()
        .iter()
        .map(|s| {
            let v = options.get(s.name);
            format!("{}={}", s.name, v.map_or("auto".into(), |v| v.to_string()))
        })
        .collect::<Vec<_>>()
        .join(",")
}

impl RunState {
    /// The game id.
    pub fn game(&self) -> &str {
        &self.game
    }

    /// The game's options as given (`name=value,...`; empty for the defaults).
    pub fn options(&self) -> &str {
        &self.options
    }

    /// The game's options as `(name, value)` pairs, as [`super::run::solve`] takes them.
    pub fn option_pairs(&self) -> Result<Vec<(String, OptionValue)>> {
        let options = Options::parse(registry::info(&self.game)?.options, &self.options)?;
        Ok(options
            .given()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect())
    }

    /// The algorithm.
    pub fn algorithm(&self) -> Algorithm {
        self.algorithm
    }

    /// The seed (sampling algorithms).
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Traversals per player per iteration (sampling algorithms).
    pub fn lanes(&self) -> usize {
        self.lanes as usize
    }

    /// Outcome sampling's exploration.
    pub fn epsilon(&self) -> f64 {
        self.epsilon
    }

    /// The iterations done.
    pub fn iterations(&self) -> u64 {
        match &self.solver {
            SolverState::Cfr(s) => s.iteration,
            SolverState::Mccfr(s) => s.iteration,
        }
    }

    /// The cardvec version that wrote the state.
    pub fn cardvec_version(&self) -> &str {
        &self.cardvec_version
    }

    /// Writes the state to `w` in the run file format (the module's documentation).
    pub fn write_to(&self, w: impl Write) -> Result<()> {
        let kind = match &self.solver {
            SolverState::Cfr(s) => KindMeta::Cfr {
                slots: s.regrets.len() as u64,
                instant: !s.instant.is_empty(),
            },
            SolverState::Mccfr(s) => KindMeta::Mccfr {
                sets: s
                    .sets
                    .iter()
                    .map(|s| (s.player, s.key.clone(), s.actions.clone()))
                    .collect(),
            },
        };
        let meta = Meta {
            cardvec_version: self.cardvec_version.clone(),
            game: self.game.clone(),
            options: self.options.clone(),
            algorithm: self.algorithm.name().into(),
            seed: self.seed,
            lanes: self.lanes,
            epsilon: self.epsilon,
            nodes: self.nodes,
            infosets: self.infosets,
            iteration: self.iterations(),
            kind,
        };
        let meta = postcard::to_stdvec(&meta).map_err(|e| Error::Invalid {
            what: "run file",
            reason: format!("the metadata could not be written: {e}"),
        })?;
        let mut frame = FrameWriter::new(w, &FORMAT, &meta)?;
        match &self.solver {
            SolverState::Cfr(s) => {
                frame.f64s(&s.regrets)?;
                if !s.instant.is_empty() {
                    frame.f64s(&s.instant)?;
                }
                frame.f64s(&s.cumulative)?;
                frame.f64s(&s.current)?;
            }
            SolverState::Mccfr(s) => {
                frame.f64s(&s.regrets)?;
                frame.f64s(&s.average)?;
            }
        }
        frame.finish()
    }

    /// Reads a state written by [`RunState::write_to`]. Errors: not a run file (the
    /// magic), another format version, a truncated or corrupt file (the hash, the
    /// metadata, the checksum, trailing bytes, an unknown algorithm, arrays that do not fit
    /// the metadata, a value that is not finite).
    pub fn read_from(r: impl Read) -> Result<RunState> {
        let (_, meta, mut z) = FrameReader::open(r, &FORMAT)?;
        let meta: Meta =
            postcard::from_bytes(&meta).map_err(|e| FORMAT.corrupt(format!("metadata: {e}")))?;
        let algorithm = Algorithm::parse(&meta.algorithm)
            .map_err(|_| FORMAT.corrupt(format!("unknown algorithm {:?}", meta.algorithm)))?;
        let sampling = matches!(algorithm, Algorithm::EsMccfr | Algorithm::OsMccfr);
        let read = |z: &mut FrameReader<_>, n: usize| -> Result<Vec<f64>> {
            let mut v = vec![0.0; n];
            z.f64s(&mut v)?;
            Ok(v)
        };
        let solver = match meta.kind {
            KindMeta::Cfr { slots, instant } => {
                if sampling || slots > meta.nodes || meta.nodes > u32::MAX as u64 {
                    return Err(FORMAT.corrupt(format!(
                        "{slots} slots of a tree of {} nodes for {}",
                        meta.nodes, meta.algorithm
                    )));
                }
                let n = slots as usize;
                let regrets = read(&mut z, n)?;
                let instant = if instant {
                    read(&mut z, n)?
                } else {
                    Vec::new()
                };
                SolverState::Cfr(CfrState {
                    iteration: meta.iteration,
                    regrets,
                    instant,
                    cumulative: read(&mut z, n)?,
                    current: read(&mut z, n)?,
                })
            }
            KindMeta::Mccfr { sets } => {
                if !sampling {
                    return Err(FORMAT.corrupt(format!("sampled sets for {}", meta.algorithm)));
                }
                let n = sets.iter().map(|s| s.2.len()).sum();
                SolverState::Mccfr(McCfrState {
                    iteration: meta.iteration,
                    sets: sets
                        .into_iter()
                        .map(|(player, key, actions)| McCfrSetState {
                            player,
                            key,
                            actions,
                        })
                        .collect(),
                    regrets: read(&mut z, n)?,
                    average: read(&mut z, n)?,
                })
            }
        };
        z.finish()?;
        let finite = |v: &[f64]| v.iter().all(|x| x.is_finite());
        let ok = match &solver {
            SolverState::Cfr(s) => {
                finite(&s.regrets)
                    && finite(&s.instant)
                    && finite(&s.cumulative)
                    && finite(&s.current)
            }
            SolverState::Mccfr(s) => finite(&s.regrets) && finite(&s.average),
        };
        if !ok {
            return Err(FORMAT.corrupt("a value is not finite"));
        }
        Ok(RunState {
            cardvec_version: meta.cardvec_version,
            game: meta.game,
            options: meta.options,
            algorithm,
            seed: meta.seed,
            lanes: meta.lanes,
            epsilon: meta.epsilon,
            nodes: meta.nodes,
            infosets: meta.infosets,
            solver,
        })
    }

    /// Saves the state to `path` ([`RunState::write_to`]) through a temporary file renamed
    /// at the end; returns the file's size in bytes.
    pub fn save(&self, path: impl AsRef<Path>) -> Result<u64> {
        frame::save(path.as_ref(), &FORMAT, |w| self.write_to(w))
    }

    /// Loads a state saved by [`RunState::save`] ([`RunState::read_from`]); errors name the
    /// path.
    pub fn load(path: impl AsRef<Path>) -> Result<RunState> {
        frame::load(path.as_ref(), &FORMAT, RunState::read_from)
    }
}
