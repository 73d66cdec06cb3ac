//! Spot files: a solved (or partly solved) spot saved to disk and loaded back, so that a
//! solve continues exactly where it stopped.
//!
//! # Format (version 2)
//!
//! - 8 bytes of magic, `\x89CVSPOT\n` (a high byte and a newline, so a file mangled by a
//!   text transfer is caught at once), then the format version as a little-endian `u32`.
//! - Then one zstd frame (level 3, with its content checksum) holding:
//!   - the metadata's length in bytes (`u64`, little-endian) and the metadata, in postcard:
//!     the board (card ids), pot, stack, both players' hands (card ids) and weights (f32),
//!     the bet tree (sizes per player and street, raise cap, thresholds), the solve options
//!     (algorithm, target, iteration cap, time limit, check interval, memory and node
//!     limits), the iterations run, the tree's node and slot counts, the cardvec version
//!     that wrote it and the node locks ([`super::NodeLock`]s as given: player, line,
//!     strategy, hands; version 2); then the metadata's 64-bit FNV-1a hash (checked before
//!     it is decoded);
//!   - the regrets, the cumulative strategy and (PCFR+ only) the prediction, each
//!     `slots` f32 values in little-endian bytes, byte-shuffled in blocks of 65,536 values
//!     (the four bytes of each value in four planes: the exponent bytes compress well).
//!
//! Loading rebuilds the spot and its tree from the metadata (so a tree that this version of
//! cardvec builds differently is refused) before reading the arrays, and reads the frame to
//! its end, so the checksum is always checked. A file that is not a spot file, another
//! format version, a truncated file and a corrupt one are each a clear error.

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::{
    Algorithm, BetSize, NodeLock, SolveOptions, Spot, SpotSolver, StreetSizes, TreeConfig,
    DEFAULT_MAX_NODES,
};
use crate::core::{Error, Result};
use crate::poker::{Card, HoleCards, WeightedRange};

/// The first 8 bytes of a spot file.
pub const SPOT_FILE_MAGIC: [u8; 8] = *b"\x89CVSPOT\n";
/// The format version this cardvec writes and reads.
/// Version 1 (no node locks) is refused: its files are solved again.
pub const SPOT_FILE_VERSION: u32 = 2;

/// The format version of a spot file of a solver with 16-bit storage
/// ([`super::SolveOptions::compress`]): version 2's layout with the arrays as 16-bit words
/// and their per-node scales.
pub const SPOT_FILE_VERSION_16: u32 = 3;

/// Values per byte-shuffled block.
const BLOCK: usize = 1 << 16;
/// The largest metadata accepted (a spot's metadata is a few tens of kB).
const MAX_META: u64 = 64 << 20;
/// zstd's compression level.
const LEVEL: i32 = 3;

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
    fn rebuild(&self, compress: bool) -> Result<(Spot, SolveOptions)> {
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
        };
        options.check()?;
        Ok((spot, options))
    }
}

fn corrupt(reason: String) -> Error {
    Error::Invalid {
        what: "spot file",
        reason: format!("the file is corrupt: {reason}"),
    }
}

/// An I/O error while reading the frame: truncated, corrupt, or the file's own error.
fn read_error(e: std::io::Error) -> Error {
    if e.kind() == std::io::ErrorKind::UnexpectedEof {
        Error::Invalid {
            what: "spot file",
            reason: "the file is truncated (it ends before the solver's arrays do)".into(),
        }
    } else {
        corrupt(format!("{e}"))
    }
}

/// The 64-bit FNV-1a hash, checked on the metadata before it is decoded (zstd's checksum
/// covers the whole frame but is read only at its end, after the arrays are allocated).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

fn write_f32s(w: &mut impl Write, values: &[f32]) -> std::io::Result<()> {
    let mut buf = vec![0u8; 4 * BLOCK.min(values.len())];
    for chunk in values.chunks(BLOCK) {
        let n = chunk.len();
        for (i, x) in chunk.iter().enumerate() {
            for (k, b) in x.to_le_bytes().into_iter().enumerate() {
                buf[k * n + i] = b;
            }
        }
        w.write_all(&buf[..4 * n])?;
    }
    Ok(())
}

fn write_u16s(w: &mut impl Write, values: &[u16]) -> std::io::Result<()> {
    let mut buf = vec![0u8; 2 * BLOCK.min(values.len())];
    for chunk in values.chunks(BLOCK) {
        let n = chunk.len();
        for (i, x) in chunk.iter().enumerate() {
            let [lo, hi] = x.to_le_bytes();
            buf[i] = lo;
            buf[n + i] = hi;
        }
        w.write_all(&buf[..2 * n])?;
    }
    Ok(())
}

fn read_u16s(r: &mut impl Read, out: &mut [u16]) -> std::io::Result<()> {
    let mut buf = vec![0u8; 2 * BLOCK.min(out.len())];
    for chunk in out.chunks_mut(BLOCK) {
        let n = chunk.len();
        r.read_exact(&mut buf[..2 * n])?;
        for (i, x) in chunk.iter_mut().enumerate() {
            *x = u16::from_le_bytes([buf[i], buf[n + i]]);
        }
    }
    Ok(())
}

fn read_f32s(r: &mut impl Read, out: &mut [f32]) -> std::io::Result<()> {
    let mut buf = vec![0u8; 4 * BLOCK.min(out.len())];
    for chunk in out.chunks_mut(BLOCK) {
        let n = chunk.len();
        r.read_exact(&mut buf[..4 * n])?;
        for (i, x) in chunk.iter_mut().enumerate() {
            *x = f32::from_le_bytes([buf[i], buf[n + i], buf[2 * n + i], buf[3 * n + i]]);
        }
    }
    Ok(())
}

fn file_error(path: &Path, e: impl std::fmt::Display) -> Error {
    Error::Invalid {
        what: "spot file",
        reason: format!("{}: {e}", path.display()),
    }
}

fn in_file(path: &Path, e: Error) -> Error {
    match e {
        Error::Invalid {
            what: "spot file",
            reason,
        } => file_error(path, reason),
        e => file_error(path, e),
    }
}

impl SpotSolver {
    /// Writes the spot, the tree's configuration, `options` (with this solver's
    /// algorithm), the iterations run and the solver's state (regrets, cumulative strategy,
    /// PCFR+'s prediction) to `w` in the spot file format (the `io` module's documentation,
    /// `docs/spot.md`). [`SpotSolver::read_from`] gives back a solver that continues
    /// exactly as this one would.
    pub fn write_to(&self, w: impl Write, options: &SolveOptions) -> Result<()> {
        let io = |e: std::io::Error| Error::Invalid {
            what: "spot file",
            reason: format!("writing failed: {e}"),
        };
        let mut w = w;
        w.write_all(&SPOT_FILE_MAGIC).map_err(io)?;
        let version = if self.compressed() {
            SPOT_FILE_VERSION_16
        } else {
            SPOT_FILE_VERSION
        };
        w.write_all(&version.to_le_bytes()).map_err(io)?;
        let meta = postcard::to_stdvec(&Meta::of(self, options)).map_err(|e| Error::Invalid {
            what: "spot file",
            reason: format!("the metadata could not be written: {e}"),
        })?;
        let mut z = zstd::stream::Encoder::new(w, LEVEL).map_err(io)?;
        z.include_checksum(true).map_err(io)?;
        z.write_all(&(meta.len() as u64).to_le_bytes())
            .map_err(io)?;
        z.write_all(&meta).map_err(io)?;
        z.write_all(&fnv1a(&meta).to_le_bytes()).map_err(io)?;
        let arrays = self.algorithm().arrays() as usize;
        match self.packed_state() {
            None => {
                for a in &self.state()[..arrays] {
                    write_f32s(&mut z, a).map_err(io)?;
                }
            }
            Some((words, scales)) => {
                for (a, sc) in words.iter().zip(&scales).take(arrays) {
                    write_f32s(&mut z, sc).map_err(io)?;
                    write_u16s(&mut z, a).map_err(io)?;
                }
            }
        }
        let mut w = z.finish().map_err(io)?;
        w.flush().map_err(io)?;
        Ok(())
    }

    /// Saves the solver to `path` ([`SpotSolver::write_to`]), through a temporary file
    /// beside it renamed at the end, so a save cut short leaves no half file under `path`.
    /// Returns the file's size in bytes.
    pub fn save(&self, path: impl AsRef<Path>, options: &SolveOptions) -> Result<u64> {
        let path = path.as_ref();
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".tmp");
        let tmp = std::path::PathBuf::from(tmp);
        let f = File::create(&tmp).map_err(|e| file_error(&tmp, e))?;
        let written = self
            .write_to(BufWriter::new(&f), options)
            .and_then(|()| f.sync_all().map_err(|e| file_error(&tmp, e)));
        if let Err(e) = written {
            let _ = std::fs::remove_file(&tmp);
            return Err(in_file(path, e));
        }
        std::fs::rename(&tmp, path).map_err(|e| file_error(path, e))?;
        let bytes = std::fs::metadata(path)
            .map_err(|e| file_error(path, e))?
            .len();
        Ok(bytes)
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
        let mut r = r;
        let mut head = [0u8; 12];
        let mut got = 0;
        while got < head.len() {
            match r.read(&mut head[got..]) {
                Ok(0) => break,
                Ok(n) => got += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(read_error(e)),
            }
        }
        if got < 8 || head[..8] != SPOT_FILE_MAGIC {
            return Err(Error::Invalid {
                what: "spot file",
                reason: "not a cardvec spot file (it does not start with the spot file \
                         magic; save one with `cardvec spot solve --save` or \
                         SpotSolver::save)"
                    .into(),
            });
        }
        if got < 12 {
            return Err(read_error(std::io::ErrorKind::UnexpectedEof.into()));
        }
        let version = u32::from_le_bytes([head[8], head[9], head[10], head[11]]);
        if version != SPOT_FILE_VERSION && version != SPOT_FILE_VERSION_16 {
            return Err(Error::Invalid {
                what: "spot file",
                reason: format!(
                    "format version {version}, and this cardvec ({}) reads versions {} (f32 \
                     storage) and {} (16-bit storage) only (solve the spot again with this \
                     version)",
                    env!("CARGO_PKG_VERSION"),
                    SPOT_FILE_VERSION,
                    SPOT_FILE_VERSION_16
                ),
            });
        }
        let mut z = zstd::stream::Decoder::new(r).map_err(read_error)?;
        let mut len = [0u8; 8];
        z.read_exact(&mut len).map_err(read_error)?;
        let len = u64::from_le_bytes(len);
        if len > MAX_META {
            return Err(corrupt(format!("a metadata length of {len} bytes")));
        }
        let mut meta = vec![0u8; len as usize];
        z.read_exact(&mut meta).map_err(read_error)?;
        let mut hash = [0u8; 8];
        z.read_exact(&mut hash).map_err(read_error)?;
        if u64::from_le_bytes(hash) != fnv1a(&meta) {
            return Err(corrupt("the metadata's hash does not match".into()));
        }
        let meta: Meta =
            postcard::from_bytes(&meta).map_err(|e| corrupt(format!("metadata: {e}")))?;
        let (spot, mut options) = meta.rebuild(version == SPOT_FILE_VERSION_16)?;
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
                read_f32s(&mut z, &mut scales).map_err(read_error)?;
                if scales.iter().any(|x| !(x.is_finite() && *x >= 0.0)) {
                    return Err(corrupt("a scale that is not a finite number ≥ 0".into()));
                }
                solver.set_packed_scales(a, &scales);
                let words = solver
                    .packed_state_mut()
                    .expect("a solver made with compress has 16-bit storage");
                read_u16s(
                    &mut z,
                    &mut *words.into_iter().nth(a).expect("three arrays"),
                )
                .map_err(read_error)?;
            }
        } else {
            let (state, _) = solver.state_mut();
            for a in state.into_iter().take(arrays) {
                read_f32s(&mut z, a).map_err(read_error)?;
            }
        }
        *solver.state_mut().1 = meta.iterations;
        solver
            .set_locks(&meta.locks)
            .map_err(|e| corrupt(format!("the node locks: {e}")))?;
        // Read to the frame's end: zstd checks the content checksum there.
        let mut rest = Vec::new();
        z.read_to_end(&mut rest).map_err(read_error)?;
        if !rest.is_empty() {
            return Err(corrupt(format!(
                "{} bytes after the solver's arrays",
                rest.len()
            )));
        }
        Ok((solver, options))
    }

    /// Loads a solver saved by [`SpotSolver::save`] (see [`SpotSolver::read_from`]); errors
    /// name the path.
    pub fn load(path: impl AsRef<Path>) -> Result<(SpotSolver, SolveOptions)> {
        let path = path.as_ref();
        let f = File::open(path).map_err(|e| file_error(path, e))?;
        SpotSolver::read_from(BufReader::new(f)).map_err(|e| in_file(path, e))
    }
}
