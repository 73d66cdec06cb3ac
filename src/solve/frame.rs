//! The framed file format the solvers save their state in (spot files, `spot::io`; run
//! files, [`super::state`]): one machinery for both, so they check the same things the
//! same way.
//!
//! - 8 bytes of magic (each format its own; a high byte and a newline, so a file mangled
//!   by a text transfer is caught at once), then the format version as a little-endian
//!   `u32`;
//! - then one zstd frame (level 3, with its content checksum) holding the metadata's
//!   length (`u64` LE), the metadata (postcard, written by the format), its 64-bit FNV-1a
//!   hash (checked before the metadata is decoded: zstd's checksum is read only at the
//!   frame's end, after the arrays are allocated), then the format's arrays, each value
//!   little-endian and byte-shuffled in blocks of 65,536 values (the bytes of the values in
//!   planes: the exponent bytes compress well).
//!
//! Reading checks the magic, the version, the hash, and reads the frame to its end, so
//! the checksum is always checked: a file that is not of the format, another version, a
//! truncated file and a corrupt one are each a clear error naming the format (and the file,
//! through [`load`]). [`save`] writes through a temporary file renamed at the end.

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::Path;

use crate::core::{Error, Result};

/// Values per byte-shuffled block.
const BLOCK: usize = 1 << 16;
/// zstd's compression level.
const LEVEL: i32 = 3;

/// A file format: its name in errors, magic, version and what to say on refusals.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Format {
    /// The name errors use (`spot file`, `run file`).
    pub what: &'static str,
    /// The first 8 bytes.
    pub magic: [u8; 8],
    /// The version written (and the newest read).
    pub version: u32,
    /// The oldest version read.
    pub oldest_version: u32,
    /// The reason given for a file without the magic.
    pub not_this: &'static str,
    /// What to do with a file of another version (`solve the spot again with this
    /// version`).
    pub other_version: &'static str,
    /// The largest metadata accepted, in bytes.
    pub max_meta: u64,
}

impl Format {
    /// The error for a file that is corrupt for `reason`.
    pub fn corrupt(&self, reason: impl std::fmt::Display) -> Error {
        Error::Invalid {
            what: self.what,
            reason: format!("the file is corrupt: {reason}"),
        }
    }

    /// An I/O error while reading the frame: truncated, corrupt, or the reader's own error.
    pub fn read_error(&self, e: std::io::Error) -> Error {
        if e.kind() == std::io::ErrorKind::UnexpectedEof {
            Error::Invalid {
                what: self.what,
                reason: "the file is truncated (it ends before the solver's arrays do)".into(),
            }
        } else {
            self.corrupt(e)
        }
    }

    fn write_error(&self, e: std::io::Error) -> Error {
        Error::Invalid {
            what: self.what,
            reason: format!("writing failed: {e}"),
        }
    }

    fn file_error(&self, path: &Path, e: impl std::fmt::Display) -> Error {
        Error::Invalid {
            what: self.what,
            reason: format!("{}: {e}", path.display()),
        }
    }

    /// `e` with the file's path in its message.
    fn in_file(&self, path: &Path, e: Error) -> Error {
        match e {
            Error::Invalid { what, reason } if what == self.what => self.file_error(path, reason),
            e => self.file_error(path, e),
        }
    }
}

/// The 64-bit FNV-1a hash of `bytes`.
pub(crate) fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The writer of a frame's arrays.
pub(crate) struct FrameWriter<W: Write> {
    z: zstd::stream::Encoder<'static, W>,
    format: Format,
}

impl<W: Write> FrameWriter<W> {
    /// Writes the magic, the version and the metadata `meta`, and returns the writer of the
    /// arrays that follow.
    pub fn new(w: W, format: &Format, meta: &[u8]) -> Result<Self> {
        let io = |e| format.write_error(e);
        let mut w = w;
        w.write_all(&format.magic).map_err(io)?;
        w.write_all(&format.version.to_le_bytes()).map_err(io)?;
        let mut z = zstd::stream::Encoder::new(w, LEVEL).map_err(io)?;
        z.include_checksum(true).map_err(io)?;
        z.write_all(&(meta.len() as u64).to_le_bytes())
            .map_err(io)?;
        z.write_all(meta).map_err(io)?;
        z.write_all(&fnv1a(meta).to_le_bytes()).map_err(io)?;
        Ok(FrameWriter { z, format: *format })
    }

    /// Writes `values`, byte-shuffled.
    pub fn f32s(&mut self, values: &[f32]) -> Result<()> {
        write_shuffled(&mut self.z, values, |x| x.to_le_bytes())
            .map_err(|e| self.format.write_error(e))
    }

    /// Writes `values`, byte-shuffled.
    pub fn u16s(&mut self, values: &[u16]) -> Result<()> {
        write_shuffled(&mut self.z, values, |x| x.to_le_bytes())
            .map_err(|e| self.format.write_error(e))
    }

    /// Writes `values`, byte-shuffled (every bit kept).
    pub fn f64s(&mut self, values: &[f64]) -> Result<()> {
        write_shuffled(&mut self.z, values, |x| x.to_le_bytes())
            .map_err(|e| self.format.write_error(e))
    }

    /// Ends the frame and flushes the writer.
    pub fn finish(self) -> Result<()> {
        let format = self.format;
        let mut w = self.z.finish().map_err(|e| format.write_error(e))?;
        w.flush().map_err(|e| format.write_error(e))
    }
}

/// The reader of a frame's arrays, after [`FrameReader::open`] has checked the header and
/// the metadata's hash.
pub(crate) struct FrameReader<R: Read> {
    z: zstd::stream::Decoder<'static, BufReader<R>>,
    format: Format,
}

impl<R: Read> FrameReader<R> {
    /// Checks the magic, the version and the metadata's hash; returns the file's version,
    /// the metadata (still to decode) and the reader of the arrays.
    pub fn open(r: R, format: &Format) -> Result<(u32, Vec<u8>, Self)> {
        let mut r = r;
        let mut head = [0u8; 12];
        let mut got = 0;
        while got < head.len() {
            match r.read(&mut head[got..]) {
                Ok(0) => break,
                Ok(n) => got += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(format.read_error(e)),
            }
        }
        if got < 8 || head[..8] != format.magic {
            return Err(Error::Invalid {
                what: format.what,
                reason: format.not_this.into(),
            });
        }
        if got < 12 {
            return Err(format.read_error(std::io::ErrorKind::UnexpectedEof.into()));
        }
        let version = u32::from_le_bytes([head[8], head[9], head[10], head[11]]);
        if !(format.oldest_version..=format.version).contains(&version) {
            let reads = if format.oldest_version == format.version {
                format!("version {} only", format.version)
            } else {
                format!("versions {} to {}", format.oldest_version, format.version)
            };
            return Err(Error::Invalid {
                what: format.what,
                reason: format!(
                    "format version {version}, and this cardvec ({}) reads {reads} ({})",
                    env!("CARGO_PKG_VERSION"),
                    format.other_version
                ),
            });
        }
        let io = |e| format.read_error(e);
        let mut z = zstd::stream::Decoder::new(r).map_err(io)?;
        let mut len = [0u8; 8];
        z.read_exact(&mut len).map_err(io)?;
        let len = u64::from_le_bytes(len);
        if len > format.max_meta {
            return Err(format.corrupt(format!("a metadata length of {len} bytes")));
        }
        let mut meta = vec![0u8; len as usize];
        z.read_exact(&mut meta).map_err(io)?;
        let mut hash = [0u8; 8];
        z.read_exact(&mut hash).map_err(io)?;
        if u64::from_le_bytes(hash) != fnv1a(&meta) {
            return Err(format.corrupt("the metadata's hash does not match"));
        }
        Ok((version, meta, FrameReader { z, format: *format }))
    }

    /// Reads `out.len()` values written by [`FrameWriter::f32s`].
    pub fn f32s(&mut self, out: &mut [f32]) -> Result<()> {
        read_shuffled(&mut self.z, out, f32::from_le_bytes).map_err(|e| self.format.read_error(e))
    }

    /// Reads `out.len()` values written by [`FrameWriter::u16s`].
    pub fn u16s(&mut self, out: &mut [u16]) -> Result<()> {
        read_shuffled(&mut self.z, out, u16::from_le_bytes).map_err(|e| self.format.read_error(e))
    }

    /// Reads `out.len()` values written by [`FrameWriter::f64s`].
    pub fn f64s(&mut self, out: &mut [f64]) -> Result<()> {
        read_shuffled(&mut self.z, out, f64::from_le_bytes).map_err(|e| self.format.read_error(e))
    }

    /// Reads to the frame's end (where zstd checks the content checksum); bytes after the
    /// arrays are corrupt.
    pub fn finish(mut self) -> Result<()> {
        let mut rest = Vec::new();
        self.z
            .read_to_end(&mut rest)
            .map_err(|e| self.format.read_error(e))?;
        if !rest.is_empty() {
            return Err(self
                .format
                .corrupt(format!("{} bytes after the solver's arrays", rest.len())));
        }
        Ok(())
    }
}

fn write_shuffled<T: Copy, const N: usize>(
    w: &mut impl Write,
    values: &[T],
    bytes: impl Fn(T) -> [u8; N],
) -> std::io::Result<()> {
    let mut buf = vec![0u8; N * BLOCK.min(values.len())];
    for chunk in values.chunks(BLOCK) {
        let n = chunk.len();
        for (i, &x) in chunk.iter().enumerate() {
            for (k, b) in bytes(x).into_iter().enumerate() {
                buf[k * n + i] = b;
            }
        }
        w.write_all(&buf[..N * n])?;
    }
    Ok(())
}

fn read_shuffled<T, const N: usize>(
    r: &mut impl Read,
    out: &mut [T],
    value: impl Fn([u8; N]) -> T,
) -> std::io::Result<()> {
    let mut buf = vec![0u8; N * BLOCK.min(out.len())];
    for chunk in out.chunks_mut(BLOCK) {
        let n = chunk.len();
        r.read_exact(&mut buf[..N * n])?;
        for (i, x) in chunk.iter_mut().enumerate() {
            *x = value(std::array::from_fn(|k| buf[k * n + i]));
        }
    }
    Ok(())
}

/// Writes a file to `path` with `write`, through a temporary file beside it renamed at the
/// end (a save cut short leaves no half file under `path`). Returns the file's size in
/// bytes; errors name the path.
pub(crate) fn save(
    path: &Path,
    format: &Format,
    write: impl FnOnce(&mut BufWriter<&File>) -> Result<()>,
) -> Result<u64> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = std::path::PathBuf::from(tmp);
    let f = File::create(&tmp).map_err(|e| format.file_error(&tmp, e))?;
    let written = {
        let mut w = BufWriter::new(&f);
        write(&mut w).and_then(|()| {
            w.flush().map_err(|e| format.write_error(e))?;
            drop(w);
            f.sync_all().map_err(|e| format.file_error(&tmp, e))
        })
    };
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(format.in_file(path, e));
    }
    std::fs::rename(&tmp, path).map_err(|e| format.file_error(path, e))?;
    let bytes = std::fs::metadata(path)
        .map_err(|e| format.file_error(path, e))?
        .len();
    Ok(bytes)
}

/// Checks that `path` can be written, before any work (a long solve whose output would be
/// lost): opens it for writing (creating it when absent, then removing it again) without
/// touching an existing file's contents. The error names `what` (the option) and the path.
pub fn check_writable(what: &'static str, path: &Path) -> Result<()> {
    let existed = path.exists();
    std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(|e| Error::Invalid {
            what,
            reason: format!("cannot write {}: {e}", path.display()),
        })?;
    if !existed {
        let _ = std::fs::remove_file(path);
    }
    Ok(())
}

/// Reads the file at `path` with `read`; errors name the path.
pub(crate) fn load<T>(
    path: &Path,
    format: &Format,
    read: impl FnOnce(BufReader<File>) -> Result<T>,
) -> Result<T> {
    let f = File::open(path).map_err(|e| format.file_error(path, e))?;
    read(BufReader::new(f)).map_err(|e| format.in_file(path, e))
}

/// The checks every framed file's reader must pass (tests of the run, spot and push/fold
/// files): `read` on `good` with another format version (each of `versions`: its error
/// names the version and says `reads`), cut at several points (truncated), a byte flipped
/// at several places (corrupt or truncated), and junk after the frame (corrupt). `read`
/// returns the error's text (it must fail).
#[cfg(test)]
pub(crate) fn check_damaged_files(
    good: &[u8],
    read: impl Fn(&[u8]) -> String,
    versions: &[u32],
    reads: &str,
) {
    let mut other = good.to_vec();
    for &version in versions {
        other[8..12].copy_from_slice(&version.to_le_bytes());
        let e = read(&other);
        assert!(
            e.contains(&format!("format version {version}")) && e.contains(reads),
            "{e}"
        );
    }
    // Truncated: at several points, the header included.
    for cut in [10, 12, 20, good.len() / 2, good.len() - 1] {
        let e = read(&good[..cut]);
        assert!(e.contains("truncated"), "cut at {cut}: {e}");
    }
    // Corrupt: any flipped byte of the frame is caught (a block, the checksum), and bytes
    // after the frame.
    for at in [14, good.len() / 3, good.len() / 2, good.len() - 2] {
        let mut bad = good.to_vec();
        bad[at] ^= 0x55;
        let e = read(&bad);
        assert!(
            e.contains("corrupt") || e.contains("truncated"),
            "byte {at}: {e}"
        );
    }
    let mut longer = good.to_vec();
    longer.extend_from_slice(b"junk");
    let e = read(&longer);
    assert!(e.contains("corrupt"), "{e}");
}
