//! Replays the kept fuzz corpora as regression tests: every file of `fuzz/corpus/<target>/`
//! (the minimized corpus of the campaigns, see docs/fuzzing.md) and of
//! `fuzz/regressions/<target>/` (inputs that once failed, kept once fixed) goes through
//! the library function the fuzz target calls, so that `cargo test` fails on any input a
//! campaign ever kept or a crash it ever found. The table below maps every target of
//! `fuzz/Cargo.toml` to its function; a test checks that both list the same targets.

use std::collections::BTreeSet;
use std::fs;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use rayon::prelude::*;

/// A fuzz target's check: `Err` (or a panic) is a failure.
type Check = fn(&[u8]) -> Result<(), String>;

fn lost_cities(data: &[u8]) -> Result<(), String> {
    cardvec::registry::fuzz_check("lost-cities", data)
}

fn flip7(data: &[u8]) -> Result<(), String> {
    cardvec::registry::fuzz_check("flip7", data)
}

fn i151(data: &[u8]) -> Result<(), String> {
    cardvec::registry::fuzz_check("151", data)
}

fn holdem(data: &[u8]) -> Result<(), String> {
    cardvec::registry::fuzz_check("holdem", data)
}

fn kuhn(data: &[u8]) -> Result<(), String> {
    cardvec::registry::fuzz_check("kuhn", data)
}

fn leduc(data: &[u8]) -> Result<(), String> {
    cardvec::registry::fuzz_check("leduc", data)
}

fn states(data: &[u8]) -> Result<(), String> {
    cardvec::registry::state_check_any(data).map(|_| ())
}

/// Every fuzz target (the `[[bin]]` names of `fuzz/Cargo.toml`) and the library function
/// its `fuzz_targets/<name>.rs` calls.
const TARGETS: &[(&str, Check)] = &[
    ("lost_cities", lost_cities),
    ("flip7", flip7),
    ("i151", i151),
    ("holdem", holdem),
    ("kuhn", kuhn),
    ("leduc", leduc),
    ("games", cardvec::registry::fuzz_check_any),
    ("states", states),
    ("trees", cardvec::registry::tree_check_any),
    ("phh", cardvec::games::holdem::fuzz_check_phh),
    ("cards", cardvec::poker::fuzz_check_cards),
    ("replay", cardvec::arena::fuzz_check_replay),
    ("spots", cardvec::solve::spot::fuzz_check_spot),
];

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz")
}

/// The files of `dir` (none if it does not exist), hidden files left out.
fn files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<PathBuf> = entries
        .map(|e| e.expect("a readable directory entry").path())
        .filter(|p| p.is_file())
        .filter(|p| !p.file_name().unwrap().to_string_lossy().starts_with('.'))
        .collect();
    out.sort();
    out
}

/// The subdirectories of `fuzz/<kind>/`.
fn target_dirs(kind: &str) -> Vec<String> {
    let Ok(entries) = fs::read_dir(fuzz_dir().join(kind)) else {
        return Vec::new();
    };
    entries
        .map(|e| e.expect("a readable directory entry").path())
        .filter(|p| p.is_dir())
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect()
}

#[test]
fn every_fuzz_target_is_in_the_table() {
    let text = fs::read_to_string(fuzz_dir().join("Cargo.toml")).unwrap();
    let manifest: toml::Table = toml::from_str(&text).unwrap();
    let bins: Vec<String> = manifest["bin"]
        .as_array()
        .expect("[[bin]] entries")
        .iter()
        .map(|b| b["name"].as_str().expect("a bin name").to_string())
        .collect();
    let in_manifest: BTreeSet<&str> = bins.iter().map(String::as_str).collect();
    assert_eq!(
        in_manifest.len(),
        bins.len(),
        "a target twice in fuzz/Cargo.toml"
    );
    let in_table: BTreeSet<&str> = TARGETS.iter().map(|&(name, _)| name).collect();
    assert_eq!(in_table.len(), TARGETS.len(), "a target twice in the table");
    assert_eq!(
        in_manifest, in_table,
        "fuzz/Cargo.toml and the table of tests/fuzz_corpus.rs list different targets"
    );
    // Every kept directory belongs to a target (a misspelt one would never be replayed).
    for kind in ["corpus", "regressions"] {
        for dir in target_dirs(kind) {
            assert!(
                in_table.contains(dir.as_str()),
                "fuzz/{kind}/{dir}: no such target"
            );
        }
    }
}

/// Runs every kept input of `target` through its check; the failures, one line each.
fn replay(target: &str, check: Check) -> (usize, Vec<String>) {
    let mut inputs = files(&fuzz_dir().join("corpus").join(target));
    assert!(
        !inputs.is_empty(),
        "fuzz/corpus/{target} is empty: run scripts/fuzz_campaign.sh {target} 1"
    );
    inputs.extend(files(&fuzz_dir().join("regressions").join(target)));
    let failures = inputs
        .par_iter()
        .filter_map(|path| {
            let data = fs::read(path).unwrap();
            let outcome = catch_unwind(AssertUnwindSafe(|| check(&data)));
            let why = match outcome {
                Ok(Ok(())) => return None,
                Ok(Err(e)) => e,
                Err(panic) => panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_else(|| "a panic".into()),
            };
            let first = why.lines().next().unwrap_or("").to_string();
            Some(format!("{}: {first}", path.display()))
        })
        .collect();
    (inputs.len(), failures)
}

#[test]
fn kept_corpora_and_regressions_pass_their_checks() {
    let mut failures = Vec::new();
    for &(target, check) in TARGETS {
        let (n, failed) = replay(target, check);
        eprintln!("{target}: {n} inputs, {} failed", failed.len());
        failures.extend(failed);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
