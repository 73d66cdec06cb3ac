//! Spot files: N iterations, save, load, M more equal N + M straight, bit for bit, for
//! every algorithm; a file that is not a spot file, of another version, truncated or
//! corrupt is refused with a clear error.

use super::*;

fn spot(board: &str, oop: &str, ip: &str, bets: &str) -> Spot {
    let mut tree = TreeConfig::uniform(bets, "2.5x").unwrap();
    tree.raise_cap = 2;
    Spot::parse(board, 100, 300, oop, ip, tree).unwrap()
}

/// A turn spot (river chance nodes) with weights.
fn turn_spot() -> Spot {
    spot(
        "Td9d6hQc",
        "AA,KQs,J8s:0.5,76s,AdKd:0.25",
        "QQ-JJ,AQs,T9s,87s:0.75",
        "60%,a",
    )
}

fn opts(algorithm: Algorithm, iterations: u64) -> SolveOptions {
    SolveOptions {
        algorithm,
        target_pct: 0.0,
        max_iterations: iterations,
        check_every: 3,
        ..SolveOptions::default()
    }
}

fn bits(v: &[f32]) -> Vec<u32> {
    v.iter().map(|x| x.to_bits()).collect()
}

fn tmp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("cardvec-spot-io-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn save_load_and_continue_equals_solving_straight() {
    for algorithm in [Algorithm::Dcfr, Algorithm::CfrPlus, Algorithm::PcfrPlus] {
        let spot = turn_spot();
        let (n, m) = (7, 5);
        let mut straight = SpotSolver::new(&spot, &opts(algorithm, n + m)).unwrap();
        let whole = straight
            .solve(&opts(algorithm, n + m), &mut |_| true)
            .unwrap();

        let mut first = SpotSolver::new(&spot, &opts(algorithm, n)).unwrap();
        first.solve(&opts(algorithm, n), &mut |_| true).unwrap();
        let path = tmp(&format!("{}.cvspot", algorithm.name().replace('+', "p")));
        let bytes = first.save(&path, &opts(algorithm, n)).unwrap();
        assert_eq!(bytes, std::fs::metadata(&path).unwrap().len());
        let (mut loaded, options) = SpotSolver::load(&path).unwrap();
        assert_eq!(options, opts(algorithm, n));
        assert_eq!(loaded.algorithm(), algorithm);
        assert_eq!(loaded.iterations(), n);
        assert_eq!(loaded.spot(), &spot);
        assert_eq!(loaded.memory(), first.memory());
        for (a, b) in loaded.state().iter().zip(first.state()) {
            assert_eq!(bits(a), bits(b), "{algorithm:?}: the state read back");
        }
        let rest = loaded.solve(&opts(algorithm, m), &mut |_| true).unwrap();
        assert_eq!(rest.iterations, n + m);
        assert_eq!(
            rest.exploitability.to_bits(),
            whole.exploitability.to_bits(),
            "{algorithm:?}"
        );
        assert_eq!(rest.root_ev, whole.root_ev);
        for (a, b) in loaded.state().iter().zip(straight.state()) {
            assert_eq!(bits(a), bits(b), "{algorithm:?}: the state after M more");
        }
        for node in 0..loaded.tree().nodes().len() {
            let (a, b) = (
                loaded.average_strategy(node),
                straight.average_strategy(node),
            );
            assert_eq!(a.map(|v| bits(&v)), b.map(|v| bits(&v)), "node {node}");
        }
        // In memory too, and a saved file is smaller than the raw arrays.
        let mut buf = Vec::new();
        loaded.write_to(&mut buf, &opts(algorithm, m)).unwrap();
        let (again, _) = SpotSolver::read_from(buf.as_slice()).unwrap();
        assert_eq!(bits(again.state()[1]), bits(loaded.state()[1]));
        let raw = loaded.memory().slots * algorithm.arrays() * 4;
        assert!(
            (buf.len() as u64) < raw,
            "{} bytes for {raw} raw",
            buf.len()
        );
        std::fs::remove_file(&path).unwrap();
    }
}

#[test]
fn the_spot_and_the_options_come_back_whole() {
    // Per-player, per-street sizes of every kind, other thresholds, a time limit.
    let mut tree = TreeConfig::uniform("33%,e", "2.5x,a").unwrap();
    tree.sizes[1][2].bets = vec![BetSize::Pot(1.25), BetSize::AllIn];
    tree.sizes[0][2].raises.clear();
    tree.raise_cap = 1;
    tree.add_allin_threshold = 0.0;
    tree.force_allin_threshold = 0.3;
    let spot = Spot::parse(
        "2s3s8sTdKd",
        60,
        250,
        "AsQs,7s6s:0.5,5h4h",
        "KhQh,KcQc:0.3",
        tree,
    )
    .unwrap();
    let options = SolveOptions {
        algorithm: Algorithm::CfrPlus,
        target_pct: 0.25,
        max_iterations: 77,
        time_limit: Some(12.5),
        check_every: 4,
        max_memory: 1 << 30,
        max_nodes: 123_456,
        compress: false,
        isomorphism: false,
    };
    let mut solver = SpotSolver::new(&spot, &options).unwrap();
    solver.solve(&options, &mut |_| true).unwrap();
    let mut buf = Vec::new();
    solver.write_to(&mut buf, &options).unwrap();
    let (loaded, back) = SpotSolver::read_from(buf.as_slice()).unwrap();
    assert_eq!(back, options);
    assert_eq!(loaded.spot(), &spot);
    assert_eq!(loaded.spot().tree_config(), spot.tree_config());
    assert_eq!(loaded.iterations(), solver.iterations());
    // A reader's lower limit: the same file refused before allocating, or read with the
    // lower limit in its options.
    let need = solver.memory().total_bytes;
    let e = SpotSolver::read_from_limited(buf.as_slice(), need - 1)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("max memory"), "{e}");
    let (again, capped) = SpotSolver::read_from_limited(buf.as_slice(), need).unwrap();
    assert_eq!(capped.max_memory, need);
    assert_eq!(again.iterations(), solver.iterations());
}

#[test]
fn a_bad_file_is_refused_with_a_clear_error() {
    let spot = spot(
        "2s3s8sTdKd",
        "AsQs,7s6s,5h4h,5c4c",
        "KhQh,KcQc,KhJc",
        "100%",
    );
    let o = opts(Algorithm::PcfrPlus, 20);
    let mut solver = SpotSolver::new(&spot, &o).unwrap();
    solver.solve(&o, &mut |_| true).unwrap();
    let mut good = Vec::new();
    solver.write_to(&mut good, &o).unwrap();
    assert!(good.starts_with(&SPOT_FILE_MAGIC));
    let err = |bytes: &[u8]| SpotSolver::read_from(bytes).err().unwrap().to_string();

    // Not a spot file: text, nothing at all, a policy file.
    for bytes in [&b"{\"game\": \"kuhn\"}"[..], b"", b"\x89CVSP"] {
        let e = err(bytes);
        assert!(e.contains("not a cardvec spot file"), "{e}");
    }
    // Another format version, truncated, corrupt.
    crate::solve::frame::check_damaged_files(&good, err, &[1, 5], "reads versions 2 to 4");
    // A file error names the path.
    let missing = tmp("missing.cvspot");
    let e = SpotSolver::load(&missing).err().unwrap().to_string();
    assert!(e.contains("missing.cvspot"), "{e}");
    let path = tmp("cut.cvspot");
    std::fs::write(&path, &good[..good.len() / 2]).unwrap();
    let e = SpotSolver::load(&path).err().unwrap().to_string();
    assert!(e.contains("cut.cvspot") && e.contains("truncated"), "{e}");
    std::fs::remove_file(&path).unwrap();
    // The good bytes still load.
    assert!(SpotSolver::read_from(good.as_slice()).is_ok());
}

/// A saved file carries the node locks: loaded, the solver has the same locks on the same
/// nodes, and N locked iterations, save, load, M more equal N + M locked straight.
#[test]
fn locks_are_saved_and_a_locked_solve_continues_exactly() {
    let spot = turn_spot();
    let locks: Vec<NodeLock> = [
        "oop:check,check,*=bet:60%:0.25,check:0.75@KQs",
        "ip:bet:60%=fold:0.1,call:0.9",
    ]
    .iter()
    .map(|t| NodeLock::parse(t).unwrap())
    .collect();
    let (n, m) = (6, 4);
    let algorithm = Algorithm::PcfrPlus;
    let mut straight = SpotSolver::new(&spot, &opts(algorithm, n + m)).unwrap();
    straight.set_locks(&locks).unwrap();
    let whole = straight
        .solve(&opts(algorithm, n + m), &mut |_| true)
        .unwrap();
    let mut first = SpotSolver::new(&spot, &opts(algorithm, n)).unwrap();
    first.set_locks(&locks).unwrap();
    first.solve(&opts(algorithm, n), &mut |_| true).unwrap();
    let mut buf = Vec::new();
    first.write_to(&mut buf, &opts(algorithm, n)).unwrap();
    let (mut loaded, _) = SpotSolver::read_from(buf.as_slice()).unwrap();
    assert_eq!(loaded.locks(), locks.as_slice());
    assert_eq!(loaded.locked_nodes(), first.locked_nodes());
    assert!(loaded.locked_nodes().len() > 40);
    for &node in &loaded.locked_nodes() {
        assert_eq!(loaded.locked_hands(node), first.locked_hands(node));
    }
    let rest = loaded.solve(&opts(algorithm, m), &mut |_| true).unwrap();
    assert_eq!(
        rest.exploitability.to_bits(),
        whole.exploitability.to_bits()
    );
    for (a, b) in loaded.state().iter().zip(straight.state()) {
        assert_eq!(bits(a), bits(b), "the locked state after M more");
    }
    for node in 0..loaded.tree().nodes().len() {
        let (a, b) = (
            loaded.average_strategy(node),
            straight.average_strategy(node),
        );
        assert_eq!(a.map(|v| bits(&v)), b.map(|v| bits(&v)), "node {node}");
    }
    // A file without locks loads without locks.
    let plain = SpotSolver::new(&spot, &opts(algorithm, 1)).unwrap();
    let mut buf = Vec::new();
    plain.write_to(&mut buf, &opts(algorithm, 1)).unwrap();
    let (back, _) = SpotSolver::read_from(buf.as_slice()).unwrap();
    assert!(back.locks().is_empty() && back.locked_nodes().is_empty());
}

/// 16-bit storage: N, save (format version 3), load, M = N + M straight, bit for bit.
#[test]
fn a_sixteen_bit_solve_saves_and_continues_exactly() {
    for algorithm in [Algorithm::Dcfr, Algorithm::PcfrPlus] {
        let spot = turn_spot();
        let o = |iterations| SolveOptions {
            compress: true,
            ..opts(algorithm, iterations)
        };
        let (n, m) = (6, 4);
        let mut straight = SpotSolver::new(&spot, &o(n + m)).unwrap();
        let whole = straight.solve(&o(n + m), &mut |_| true).unwrap();
        let mut first = SpotSolver::new(&spot, &o(n)).unwrap();
        first.solve(&o(n), &mut |_| true).unwrap();
        let mut buf = Vec::new();
        first.write_to(&mut buf, &o(n)).unwrap();
        assert_eq!(
            u32::from_le_bytes(buf[8..12].try_into().unwrap()),
            SPOT_FILE_VERSION
        );
        let (mut loaded, options) = SpotSolver::read_from(buf.as_slice()).unwrap();
        assert_eq!(options, o(n));
        assert!(loaded.compressed());
        assert_eq!(loaded.packed_state(), first.packed_state());
        let rest = loaded.solve(&o(m), &mut |_| true).unwrap();
        assert_eq!(
            rest.exploitability.to_bits(),
            whole.exploitability.to_bits(),
            "{algorithm:?}"
        );
        assert_eq!(loaded.packed_state(), straight.packed_state());
        // A cut file is refused.
        let cut = &buf[..buf.len() - 9];
        assert!(SpotSolver::read_from(cut).is_err());
    }
}

/// Version 3 keeps the donk and per-player sizes; a version-2 file (the same metadata
/// without the donk sizes) still loads, with none, and continues exactly; so does a
/// version-3 file (no isomorphism state).
#[test]
fn donk_sizes_are_saved_and_version_2_files_still_load() {
    let tree = TreeConfig::from_specs(&SizeSpecs {
        bets: "60%",
        raises: "2.5x",
        ip_bets: Some("river:75%,a"),
        donk: Some("river:33%"),
        ..SizeSpecs::default()
    })
    .unwrap();
    let spot = Spot::parse("Td9d6hQc", 100, 300, "AA,KQs,76s", "JJ,AQs,T9s", tree).unwrap();
    let o = opts(Algorithm::Dcfr, 4);
    let mut solver = SpotSolver::new(&spot, &o).unwrap();
    solver.solve(&o, &mut |_| true).unwrap();
    let mut buf = Vec::new();
    solver.write_to(&mut buf, &o).unwrap();
    assert_eq!(buf[8..12], 4u32.to_le_bytes());
    let (back, _) = SpotSolver::read_from(buf.as_slice()).unwrap();
    assert_eq!(back.spot().tree_config(), spot.tree_config());
    assert_eq!(back.tree().nodes().len(), solver.tree().nodes().len());

    // A version-2 file, as version 2 wrote it: the metadata without the donk sizes and the
    // storage.
    let plain = turn_spot();
    let mut first = SpotSolver::new(&plain, &o).unwrap();
    first.solve(&o, &mut |_| true).unwrap();
    let mut v4 = Vec::new();
    first.write_to(&mut v4, &o).unwrap();
    let frame = zstd::stream::decode_all(&v4[12..]).unwrap();
    let len = u64::from_le_bytes(frame[..8].try_into().unwrap()) as usize;
    let meta = &frame[8..8 + len];
    // No donk sizes: three `None`s, a zero byte each; then f32 storage (`false`, a zero
    // byte); then (version 4) isomorphism on and up-to-date mirrors (this board has none).
    assert_eq!(meta[len - 6..], [0, 0, 0, 0, 1, 0]);
    // A version-3 file: the same without the last two bytes.
    let v3meta = &meta[..len - 2];
    let mut inner = (v3meta.len() as u64).to_le_bytes().to_vec();
    inner.extend_from_slice(v3meta);
    inner.extend_from_slice(&crate::solve::frame::fnv1a(v3meta).to_le_bytes());
    inner.extend_from_slice(&frame[8 + len + 8..]);
    let mut v3file = SPOT_FILE_MAGIC.to_vec();
    v3file.extend_from_slice(&3u32.to_le_bytes());
    v3file.extend(zstd::stream::encode_all(inner.as_slice(), 3).unwrap());
    let (from_v3, options) = SpotSolver::read_from(v3file.as_slice()).unwrap();
    assert_eq!(options, o);
    for (a, b) in from_v3.state().iter().zip(first.state()) {
        assert_eq!(bits(a), bits(b));
    }
    let meta = &meta[..len - 6];
    let mut inner = (meta.len() as u64).to_le_bytes().to_vec();
    inner.extend_from_slice(meta);
    inner.extend_from_slice(&crate::solve::frame::fnv1a(meta).to_le_bytes());
    inner.extend_from_slice(&frame[8 + len + 8..]);
    let mut v2 = SPOT_FILE_MAGIC.to_vec();
    v2.extend_from_slice(&2u32.to_le_bytes());
    v2.extend(zstd::stream::encode_all(inner.as_slice(), 3).unwrap());
    let (mut loaded, options) = SpotSolver::read_from(v2.as_slice()).unwrap();
    assert_eq!(options, o);
    assert_eq!(loaded.spot(), &plain);
    assert_eq!(loaded.spot().tree_config().donk, [None, None, None]);
    for (a, b) in loaded.state().iter().zip(first.state()) {
        assert_eq!(bits(a), bits(b));
    }
    // It continues as the version-4 file does.
    let (mut again, _) = SpotSolver::read_from(v4.as_slice()).unwrap();
    let a = loaded
        .solve(&opts(Algorithm::Dcfr, 3), &mut |_| true)
        .unwrap();
    let b = again
        .solve(&opts(Algorithm::Dcfr, 3), &mut |_| true)
        .unwrap();
    assert_eq!(a.exploitability.to_bits(), b.exploitability.to_bits());
    // Version 2 with bytes after its metadata is corrupt.
    let mut inner = ((meta.len() + 1) as u64).to_le_bytes().to_vec();
    let mut longer = meta.to_vec();
    longer.push(0);
    inner.extend_from_slice(&longer);
    inner.extend_from_slice(&crate::solve::frame::fnv1a(&longer).to_le_bytes());
    inner.extend_from_slice(&frame[8 + len + 8..]);
    let mut bad = SPOT_FILE_MAGIC.to_vec();
    bad.extend_from_slice(&2u32.to_le_bytes());
    bad.extend(zstd::stream::encode_all(inner.as_slice(), 3).unwrap());
    let e = SpotSolver::read_from(bad.as_slice())
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("corrupt"), "{e}");
}
