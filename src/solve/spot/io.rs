//! Spot files: a solved (or partly solved) spot saved to disk and loaded back, so that a
//! solve continues exactly where it stopped.
//!
//! # Format (version 4; versions 2 and 3 are read too)
//!
//! The framed format of `crate::solve::frame`, shared with the generic solvers' run files:
//! - 8 bytes of magic, `\x89CVSPOT\n` (a high byte and a newline, so a file mangled by a
//!   text transfer is caught at once), then the format version as a little-endian `u32`.
//! - Then one zstd frame (level 3, with its content checksum) holding:
//!   - the metadata's length in bytes (`u64`, little-endian) and the metadata, in postcard:
//!     the board (card ids), pot, stack, both players' hands (card ids) and weights (f32),
//!     the bet tree (sizes per player and street, raise cap, thresholds), the solve options
//!     (algorithm, target, iteration cap, time limit, check interval, memory and node
//!     limits), the iterations run, the tree's node and slot counts, the cardvec version
//!     that wrote it and the node locks ([`super::NodeLock`]s as given: player, line,
//!     strategy, hands; version 2), then (version 3) the donk sizes per street
//!     ([`super::TreeConfig::donk`]) and the storage (a bool: 16-bit,
//!     [`super::SolveOptions::compress`]), then (version 4) two bools: the isomorphism option
//!     ([`super::SolveOptions::isomorphism`]) and whether the mirror nodes' slots are out of
//!     date (they were not kept up to date while training with isomorphism, and are read
//!     from their representatives); then the metadata's 64-bit FNV-1a hash (checked
//!     before it is decoded). A version-2 file has no donk sizes and f32 storage, a
//!     version-2 or -3 file up-to-date mirrors;
//!   - the regrets, the cumulative strategy and (PCFR+ only) the prediction, each
//!     `slots` f32 values in little-endian bytes, byte-shuffled in blocks of 65,536 values
//!     (the four bytes of each value in four planes: the exponent bytes compress well);
//!     with 16-bit storage, each array as its scales (one f32 per decision node, in node
//!     order) then its `slots` 16-bit words, byte-shuffled the same way.
//!
//! Loading rebuilds the spot and its tree from the metadata (so a tree that this version of
//! cardvec builds differently is refused) before reading the arrays, and reads the frame to
//! its end, so the checksum is always checked. A file that is not a spot file, another
//! format version, a truncated file and a corrupt one are each a clear error.

use std::io::{Read, Write};
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::{
    Algorithm, BetSize, NodeLock, SolveOptions, Spot, SpotSolver, StreetSizes, TreeConfig,
    DEFAULT_MAX_NODES,
};
use crate::core::{Error, Result};
use crate::poker::{Card, HoleCards, WeightedRange};
use crate::solve::frame::{self, Format, FrameReader, FrameWriter};

/// The first 8 bytes of a spot file.
pub const SPOT_FILE_MAGIC: [u8; 8] = *b"\x89CVSPOT\n";
/// The format version this cardvec writes (it reads versions 2 and 3).
/// Version 3 adds the donk sizes after the metadata, version 4 the suit-isomorphism state
/// after them; version 2 files (no donk sizes) and version 3 files (solved without
/// isomorphism) load as before; version 1 (no node locks) is refused: its files are solved again.
pub const SPOT_FILE_VERSION: u32 = 4;

/// The largest metadata accepted (a spot's metadata is a few tens of kB).
const MAX_META: u64 = 64 << 20;

#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq)]
enum SizeMeta {
    Pot(f64),
    Multiple(f64),
    Geometric,
    AllIn,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct StreetMeta {
    bets: Vec<SizeMeta>,
    raises: Vec<SizeMeta>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct TreeMeta {
    sizes: [[StreetMeta; 3]; 2],
    raise_cap: u32,
    add_allin_threshold: f64,
    force_allin_threshold: f64,
}

/// Version 3: the donk sizes per street ([`TreeConfig::donk`]), written after [`Meta`].
#[derive(Serialize, Deserialize, Debug, Clone, Default, PartialEq)]
struct DonkMeta([Option<Vec<SizeMeta>>; 3]);

#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq)]
struct OptionsMeta {
    algorithm: u8,
    target_pct: f64,
    max_iterations: u64,
    time_limit: Option<f64>,
    check_every: u64,
    max_memory: u64,
    max_nodes: u64,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Meta {
    cardvec_version: String,
    board: Vec<u8>,
    pot: u32,
    stack: u32,
    hands: [Vec<[u8; 2]>; 2],
    weights: [Vec<f32>; 2],
    tree: TreeMeta,
    options: OptionsMeta,
    iterations: u64,
    nodes: u64,
    slots: u64,
    arrays: u8,
    locks: Vec<NodeLock>,
}

fn size_meta(s: &BetSize) -> SizeMeta {
    match *s {
        BetSize::Pot(f) => SizeMeta::Pot(f),
        BetSize::Multiple(x) => SizeMeta::Multiple(x),
        BetSize::Geometric => SizeMeta::Geometric,
        BetSize::AllIn => SizeMeta::AllIn,
    }
}

fn size_of_meta(s: &SizeMeta) -> BetSize {
    match *s {
        SizeMeta::Pot(f) => BetSize::Pot(f),
        SizeMeta::Multiple(x) => BetSize::Multiple(x),
        SizeMeta::Geometric => BetSize::Geometric,
        SizeMeta::AllIn => BetSize::AllIn,
    }
}

fn algorithm_code(a: Algorithm) -> u8 {
    match a {
        Algorithm::Dcfr => 0,
        Algorithm::CfrPlus => 1,
        Algorithm::PcfrPlus => 2,
    }
}

impl Meta {
    fn of(solver: &SpotSolver, options: &SolveOptions) -> Meta {
        let spot = solver.spot();
        let cfg = spot.tree_config();
        let street = |s: &StreetSizes| StreetMeta {
            bets: s.bets.iter().map(size_meta).collect(),
            raises: s.raises.iter().map(size_meta).collect(),
        };
        let memory = solver.memory();
        Meta {
            cardvec_version: env!("CARGO_PKG_VERSION").into(),
            board: spot.board().iter().map(|c| c.id()).collect(),
            pot: spot.pot(),
            stack: spot.stack(),
            hands: [0, 1].map(|p| {
                spot.hands(p)
                    .iter()
                    .map(|h| {
                        let [a, b] = h.cards();
                        [a.id(), b.id()]
                    })
                    .collect()
            }),
            weights: [0, 1].map(|p| spot.weights(p).to_vec()),
            tree: TreeMeta {
                sizes: cfg.sizes.each_ref().map(|p| p.each_ref().map(street)),
                raise_cap: cfg.raise_cap,
                add_allin_threshold: cfg.add_allin_threshold,
                force_allin_threshold: cfg.force_allin_threshold,
            },
            options: OptionsMeta {
                algorithm: algorithm_code(solver.algorithm()),
                target_pct: options.target_pct,
                max_iterations: options.max_iterations,
                time_limit: options.time_limit,
                check_every: options.check_every,
                max_memory: options.max_memory,
                max_nodes: options.max_nodes as u64,
            },
            iterations: solver.iterations(),
            nodes: memory.nodes,
            slots: memory.slots,
            arrays: solver.algorithm().arrays() as u8,
            locks: solver.locks().to_vec(),
        }
    }

    /// The spot and the options, every part checked as when built from text.
    fn rebuild(&self, donk: &DonkMeta, compress: bool) -> Result<(Spot, SolveOptions)> {
        let card = |id: u8| {
            Card::from_id(id).ok_or_else(|| corrupt(format!("card id {id} is not below 52")))
        };
        let board = self
            .board
            .iter()
            .map(|&c| card(c))
            .collect::<Result<Vec<Card>>>()?;
        let mut ranges = Vec::with_capacity(2);
        for p in 0..2 {
            if self.hands[p].len() != self.weights[p].len() {
                return Err(corrupt("hands and weights of different lengths".into()));
            }
            let entries = self.hands[p]
                .iter()
                .zip(&self.weights[p])
                .map(|(&[a, b], &w)| Ok((HoleCards::new(card(a)?, card(b)?)?, w as f64)))
                .collect::<Result<Vec<_>>>()?;
            ranges.push(WeightedRange::from_entries(entries)?);
        }
        let street = |s: &StreetMeta| StreetSizes {
            bets: s.bets.iter().map(size_of_meta).collect(),
            raises: s.raises.iter().map(size_of_meta).collect(),
        };
        let tree = TreeConfig {
            sizes: self.tree.sizes.each_ref().map(|p| p.each_ref().map(street)),
            raise_cap: self.tree.raise_cap,
            add_allin_threshold: self.tree.add_allin_threshold,
            force_allin_threshold: self.tree.force_allin_threshold,
            donk: donk
                .0
                .each_ref()
                .map(|d| d.as_ref().map(|s| s.iter().map(size_of_meta).collect())),
        };
        let spot = Spot::new(
            &board,
            self.pot as u64,
            self.stack as u64,
            &ranges[0],
            &ranges[1],
            tree,
        )?;
        for p in 0..2 {
            let same = spot.hands(p).len() == self.hands[p].len()
                && spot.weights(p) == self.weights[p].as_slice();
            if !same {
                return Err(corrupt(format!(
                    "player {p}'s hands are not a range after card removal"
                )));
            }
        }
        let o = &self.options;
        let options = SolveOptions {
            algorithm: match o.algorithm {
                0 => Algorithm::Dcfr,
                1 => Algorithm::CfrPlus,
                2 => Algorithm::PcfrPlus,
                a => return Err(corrupt(format!("unknown algorithm code {a}"))),
            },
            target_pct: o.target_pct,
            max_iterations: o.max_iterations,
            time_limit: o.time_limit,
            check_every: o.check_every,
            max_memory: o.max_memory,
            max_nodes: usize::try_from(o.max_nodes).unwrap_or(DEFAULT_MAX_NODES),
            compress,
            isomorphism: true,
        };
        options.check()?;
        Ok((spot, options))
    }
}

/// The spot file format (`super::super::frame`).
const FORMAT: Format = Format {
    what: "spot file",
    magic: SPOT_FILE_MAGIC,
    version: SPOT_FILE_VERSION,
    oldest_version: 2,
    not_this: "not a cardvec spot file (it does not start with the spot file magic; save one \
               with `cardvec spot solve --save` or SpotSolver::save)",
    other_version: "solve the spot again with this version",
    max_meta: MAX_META,
};

fn corrupt(reason: String) -> Error {
    FORMAT.corrupt(reason)
}

impl SpotSolver {
    /// Writes the spot, the tree's configuration, `options` (with this solver's
    /// algorithm), the iterations run and the solver's state (regrets, cumulative strategy,
    /// PCFR+'s prediction) to `w` in the spot file format (the `io` module's documentation,
    /// `docs/spot.md`). [`SpotSolver::read_from`] gives back a solver that continues
    /// exactly as this one would.
    pub fn write_to(&self, w: impl Write, options: &SolveOptions) -> Result<()> {
        let cannot = |e: postcard::Error| Error::Invalid {
            what: "spot file",
            reason: format!("the metadata could not be written: {e}"),
        };
        let mut meta = postcard::to_stdvec(&Meta::of(self, options)).map_err(cannot)?;
        let donk = DonkMeta(
            self.spot()
                .tree_config()
                .donk
                .each_ref()
                .map(|d| d.as_ref().map(|s| s.iter().map(size_meta).collect())),
        );
        meta.extend(postcard::to_stdvec(&donk).map_err(cannot)?);
        meta.extend(postcard::to_stdvec(&self.compressed()).map_err(cannot)?);
        let iso = (options.isomorphism, self.mirrors_stale());
        meta.extend(postcard::to_stdvec(&iso).map_err(cannot)?);
        let mut frame = FrameWriter::new(w, &FORMAT, &meta)?;
        let arrays = self.algorithm().arrays() as usize;
        match self.packed_state() {
            None => {
                for a in &self.state()[..arrays] {
                    frame.f32s(a)?;
                }
            }
            Some((words, scales)) => {
                for (a, sc) in words.iter().zip(&scales).take(arrays) {
                    frame.f32s(sc)?;
                    frame.u16s(a)?;
                }
            }
        }
        frame.finish()
    }

    /// Saves the solver to `path` ([`SpotSolver::write_to`]), through a temporary file
    /// beside it renamed at the end, so a save cut short leaves no half file under `path`.
    /// Returns the file's size in bytes.
    pub fn save(&self, path: impl AsRef<Path>, options: &SolveOptions) -> Result<u64> {
        frame::save(path.as_ref(), &FORMAT, |w| self.write_to(w, options))
    }

    /// Reads a solver written by [`SpotSolver::write_to`]: the solver (its spot, tree,
    /// algorithm, iterations and state) and the solve options saved with it. Errors: not a
    /// spot file (the magic), another format version, a truncated or corrupt file (the
    /// checksum, the metadata, a spot that does not check, a tree this version builds with
    /// other counts), a spot above the saved memory limit.
    pub fn read_from(r: impl Read) -> Result<(SpotSolver, SolveOptions)> {
        SpotSolver::read_from_limited(r, u64::MAX)
    }

    /// [`SpotSolver::read_from`], refusing before allocating a spot whose solve needs more
    /// than `max_memory` bytes even where the file's own limit is higher (a server reading
    /// files it did not write): the options returned keep the lower of the two limits.
    pub fn read_from_limited(r: impl Read, max_memory: u64) -> Result<(SpotSolver, SolveOptions)> {
        let (version, meta, mut z) = FrameReader::open(r, &FORMAT)?;
        let (meta, rest): (Meta, &[u8]) =
            postcard::take_from_bytes(&meta).map_err(|e| corrupt(format!("metadata: {e}")))?;
        // Version 3: the donk sizes and the storage follow the version-2 metadata; version
        // 4: the isomorphism option and whether the mirrors' slots are out of date.
        let (donk, compress, iso) = if version >= 3 {
            let (donk, rest): (DonkMeta, &[u8]) =
                postcard::take_from_bytes(rest).map_err(|e| corrupt(format!("metadata: {e}")))?;
            let (compress, rest): (bool, &[u8]) =
                postcard::take_from_bytes(rest).map_err(|e| corrupt(format!("metadata: {e}")))?;
            let (iso, rest): ((bool, bool), &[u8]) = if version >= 4 {
                postcard::take_from_bytes(rest).map_err(|e| corrupt(format!("metadata: {e}")))?
            } else {
                ((true, false), rest)
            };
            if !rest.is_empty() {
                return Err(corrupt("bytes after the metadata".into()));
            }
            (donk, compress, iso)
        } else if rest.is_empty() {
            (DonkMeta::default(), false, (true, false))
        } else {
            return Err(corrupt("bytes after the metadata".into()));
        };
        let (spot, mut options) = meta.rebuild(&donk, compress)?;
        options.isomorphism = iso.0;
        options.max_memory = options.max_memory.min(max_memory);
        if meta.arrays as u64 != options.algorithm.arrays() {
            return Err(corrupt(format!(
                "{} arrays for {}",
                meta.arrays,
                options.algorithm.name()
            )));
        }
        let mut solver = SpotSolver::new(&spot, &options)?;
        let memory = solver.memory();
        if memory.nodes != meta.nodes || memory.slots != meta.slots {
            return Err(Error::Invalid {
                what: "spot file",
                reason: format!(
                    "the file's tree has {} nodes and {} slots, and this cardvec builds {} \
                     nodes and {} slots for the same spot (written by cardvec {}; solve \
                     the spot again)",
                    meta.nodes, meta.slots, memory.nodes, memory.slots, meta.cardvec_version
                ),
            });
        }
        let arrays = meta.arrays as usize;
        if options.compress {
            let decisions = memory.decision_nodes as usize;
            for a in 0..arrays {
                let mut scales = vec![0f32; decisions];
                z.f32s(&mut scales)?;
                if scales.iter().any(|x| !(x.is_finite() && *x >= 0.0)) {
                    return Err(corrupt("a scale that is not a finite number ≥ 0".into()));
                }
                solver.set_packed_scales(a, &scales);
                let words = solver
                    .packed_state_mut()
                    .expect("a solver made with compress has 16-bit storage");
                z.u16s(&mut *words.into_iter().nth(a).expect("three arrays"))?;
            }
        } else {
            let (state, _) = solver.state_mut();
            for a in state.into_iter().take(arrays) {
                z.f32s(a)?;
            }
        }
        *solver.state_mut().1 = meta.iterations;
        solver.set_mirror_state(iso.0, iso.1);
        solver
            .set_locks(&meta.locks)
            .map_err(|e| corrupt(format!("the node locks: {e}")))?;
        // Read to the frame's end: zstd checks the content checksum there.
        z.finish()?;
        Ok((solver, options))
    }

    /// Loads a solver saved by [`SpotSolver::save`] (see [`SpotSolver::read_from`]); errors
    /// name the path.
    pub fn load(path: impl AsRef<Path>) -> Result<(SpotSolver, SolveOptions)> {
        frame::load(path.as_ref(), &FORMAT, SpotSolver::read_from)
    }
}
