//! `cardvec spot solve` at tiny sizes: the JSON lines, the dry run, the memory refusal and
//! bad input refused with the value named.

use crate::common;

use common::{cardvec, summary};

const SPOT: [&str; 12] = [
    "spot",
    "solve",
    "--board",
    "Td9d6hQc2s",
    "--pot",
    "100",
    "--stack",
    "300",
    "--oop-range",
    "AQ,KJs,88,A5s:0.5",
    "--ip-range",
    "T9s,JTs,QQ,AK",
];

#[test]
fn solve_prints_json_lines_ending_with_the_summary() {
    let mut args = SPOT.to_vec();
    args.extend([
        "--bets",
        "60%,e,a",
        "--raises",
        "2.5x",
        "--target",
        "0.5",
        "--threads",
        "2",
        "--json",
        "--quiet",
    ]);
    let out = cardvec(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(lines.len() >= 2, "{text}");
    let last = lines.last().unwrap();
    let pct = last["exploitability_pct"].as_f64().unwrap();
    assert!((0.0..=0.5).contains(&pct), "{last}");
    assert_eq!(last["stop"], "target");
    assert!(last["iterations"].as_u64().unwrap() >= 10);
    assert!(last["seconds"].as_f64().unwrap() >= 0.0);
    assert!(last["memory_bytes"].as_u64().unwrap() > 0);
    let ev: Vec<f64> = last["root_ev"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    assert!((ev[0] + ev[1] - 100.0).abs() < 1e-2, "{ev:?}");
    let eq: Vec<f64> = last["root_equity"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    assert!((eq[0] + eq[1] - 1.0).abs() < 1e-4, "{eq:?}");
    // The check lines before it count up.
    assert!(lines[0]["exploitability_pct"].as_f64().unwrap() >= pct);
}

#[test]
fn dry_run_reports_memory_and_max_memory_refuses() {
    let mut args = SPOT.to_vec();
    args.extend(["--dry-run", "--json"]);
    let out = cardvec(&args);
    assert!(out.status.success());
    let line: serde_json::Value =
        serde_json::from_str(String::from_utf8(out.stdout).unwrap().trim()).unwrap();
    let bytes = line["memory_bytes"].as_u64().unwrap();
    assert!(bytes > 0 && line["memory"]["nodes"].as_u64().unwrap() > 1);
    let limit = (bytes - 1).to_string();
    let mut args = SPOT.to_vec();
    args.extend(["--max-memory", &limit, "--json", "--quiet"]);
    let out = cardvec(&args);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!("{bytes} bytes")) && err.contains("max memory"),
        "{err}"
    );
}

#[test]
fn bad_input_is_refused_with_the_value_named() {
    for (flag, value, expect) in [
        ("--bets", "60", "\"60\""),
        ("--board", "Td9d6hTd", "more than once"),
        ("--oop-range", "Td9d", "overlap the board"),
        ("--algorithm", "cfr", "\"cfr\""),
        ("--max-memory", "4XB", "4XB"),
    ] {
        let mut args = SPOT.to_vec();
        let i = args.iter().position(|a| *a == flag);
        match i {
            Some(i) => args[i + 1] = value,
            None => args.extend([flag, value]),
        }
        args.push("--quiet");
        let out = cardvec(&args);
        assert!(!out.status.success(), "{flag} {value}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(expect), "{flag} {value}: {err}");
    }
}

/// The flags go through the batch line's path (`SpotParams::prepare`): a spot flag left out
/// is clap's "required" error naming it, bad solve options and locks are refused with the
/// value named, before anything is solved or written; the same options in a batch line
/// are refused with the same words.
#[test]
fn missing_flags_and_bad_solve_options_are_refused_first() {
    for missing in ["--board", "--pot", "--stack", "--oop-range", "--ip-range"] {
        let i = SPOT.iter().position(|a| *a == missing).unwrap();
        let args: Vec<&str> = SPOT
            .iter()
            .enumerate()
            .filter(|(k, _)| *k != i && *k != i + 1)
            .map(|(_, a)| *a)
            .collect();
        let out = cardvec(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{missing}: {err}");
        assert!(
            err.contains("required arguments were not provided") && err.contains(missing),
            "{missing}: {err}"
        );
    }
    let dir = std::env::temp_dir().join(format!("cardvec-spot-flags-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let saved = dir.join("s.cvspot");
    for (extra, expect) in [
        (vec!["--target=-1"], "target"),
        (vec!["--iterations", "0"], "iterations"),
        (vec!["--check-every", "0"], "check"),
        (vec!["--time-limit", "0"], "time"),
        (vec!["--algorithm", "magic"], "magic"),
        (vec!["--lock", "bet:999=call:1"], "bet:999"),
    ] {
        let mut args = SPOT.to_vec();
        args.extend(extra.iter().copied());
        args.extend(["--quiet", "--save", saved.to_str().unwrap()]);
        let out = cardvec(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{extra:?}");
        assert!(err.to_lowercase().contains(expect), "{extra:?}: {err}");
        assert!(out.stdout.is_empty(), "{extra:?}");
        assert!(!saved.exists(), "{extra:?} wrote the spot file");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A batch file of river spots: two good ones (one by default sizes), one bad.
fn batch_file(dir: &std::path::Path) -> std::path::PathBuf {
    let spots = dir.join("spots.jsonl");
    let lines = [
        r#"{"id": "toy", "board": "AhKhQd7c2s", "pot": 100, "stack": 1000, "oop_range": "JcTc,6c5c", "ip_range": "3d3h", "bets": "100%", "raises": "", "target": 0.01, "iterations": 20000}"#,
        "",
        r#"{"id": 7, "board": "Td9d6hQc2s", "pot": 100, "stack": 300, "oop_range": "AQ,KJs,88", "ip_range": "T9s,JTs,QQ,AK"}"#,
        r#"{"board": "Td9d6hQc2s", "pot": 100, "stack": 300, "oop_range": "AQ", "ip_range": "KK", "bets": "huge"}"#,
    ];
    std::fs::write(&spots, lines.join("\n") + "\n").unwrap();
    spots
}

fn read_results(path: &std::path::Path) -> Vec<serde_json::Value> {
    let mut v: Vec<serde_json::Value> = std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    v.sort_by_key(|r| r["line"].as_u64().unwrap());
    v
}

#[test]
fn batch_solves_every_line_with_action_evs_and_resumes() {
    let dir = std::env::temp_dir().join(format!("cardvec-spot-batch-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let spots = batch_file(&dir);
    let out = dir.join("results.jsonl");
    let _ = std::fs::remove_file(&out);
    let run = |threads: &str| {
        let o = cardvec(&[
            "spot",
            "batch",
            spots.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--threads",
            threads,
            "--quiet",
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8(o.stderr).unwrap()
    };
    let said = run("2");
    assert!(
        said.contains("3 spots") && said.contains("1 with an error"),
        "{said}"
    );
    let results = read_results(&out);
    assert_eq!(
        results
            .iter()
            .map(|r| r["line"].as_u64().unwrap())
            .collect::<Vec<_>>(),
        [1, 3, 4]
    );
    // The toy game (nuts or air against a bluff-catcher, a pot-sized bet): per-action EVs
    // of the root, betting 150 / 0 for the nuts / air and checking 0 for air (a check with
    // the nuts is not pinned down: IP's strategy after a check only ever faces air).
    let toy = &results[0];
    assert_eq!(toy["id"], "toy");
    assert_eq!(toy["stop"], "target");
    let root = &toy["root"];
    assert_eq!(root["player"], 0);
    assert_eq!(root["actions"], serde_json::json!(["check", "bet:100"]));
    let hands: Vec<&str> = root["hands"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h.as_str().unwrap())
        .collect();
    let nuts = hands.iter().position(|h| h.contains('J')).unwrap();
    let ev = |a: usize, h: usize| root["action_ev"][a][h].as_f64().unwrap();
    assert!((ev(0, nuts) - 100.0).abs() < 0.1, "{root}");
    assert!((ev(1, nuts) - 150.0).abs() < 0.1, "{root}");
    assert!(
        ev(0, 1 - nuts).abs() < 0.1 && ev(1, 1 - nuts).abs() < 0.1,
        "{root}"
    );
    // The default-size spot equals the same spot solved alone with `spot solve`.
    let alone = cardvec(&[
        "spot",
        "solve",
        "--board",
        "Td9d6hQc2s",
        "--pot",
        "100",
        "--stack",
        "300",
        "--oop-range",
        "AQ,KJs,88",
        "--ip-range",
        "T9s,JTs,QQ,AK",
        "--json",
        "--quiet",
    ]);
    let alone: serde_json::Value = serde_json::from_str(
        String::from_utf8(alone.stdout)
            .unwrap()
            .lines()
            .last()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(results[1]["id"], 7);
    for key in [
        "root_ev",
        "root_equity",
        "exploitability",
        "iterations",
        "memory_bytes",
    ] {
        assert_eq!(results[1][key], alone[key], "{key}");
    }
    assert!(
        results[2]["error"].as_str().unwrap().contains("huge"),
        "{}",
        results[2]
    );
    // A rerun skips every finished line; a line cut short (a killed run) is solved again,
    // to the same result on one thread.
    let before = std::fs::read_to_string(&out).unwrap();
    assert!(run("1").contains("0 solved now"));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), before);
    let keep: Vec<&str> = before
        .lines()
        .filter(|l| !l.contains("\"line\":3"))
        .collect();
    let cut = keep.join("\n") + "\n" + r#"{"line":3,"id":7,"root_ev":[1"#;
    std::fs::write(&out, cut).unwrap();
    assert!(run("1").contains("1 solved now"));
    let again = read_results(&out);
    for key in ["root_ev", "root_equity", "exploitability", "root"] {
        assert_eq!(again[1][key], results[1][key], "{key}");
    }
    std::fs::write(&out, "not a result\n").unwrap();
    let o = cardvec(&[
        "spot",
        "batch",
        spots.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("not a result"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn save_and_resume_continue_exactly() {
    let dir = std::env::temp_dir().join(format!("cardvec-spot-save-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("a.cvspot");
    let file = file.to_str().unwrap();
    let run = |extra: &[&str]| {
        let mut args = SPOT.to_vec();
        args.extend(["--target", "0", "--check-every", "3", "--json", "--quiet"]);
        args.extend(extra);
        summary(&args)
    };
    let straight = run(&["--iterations", "10", "--algorithm", "pcfr+"]);
    let first = run(&["--iterations", "6", "--algorithm", "pcfr+", "--save", file]);
    assert_eq!(first["saved"], file);
    let bytes = std::fs::metadata(file).unwrap().len();
    assert_eq!(first["file_bytes"], bytes);
    // Resumed: the file's spot, tree, algorithm and options, 4 more iterations, saved
    // over itself.
    let resumed = summary(&[
        "spot",
        "solve",
        "--resume",
        file,
        "--iterations",
        "4",
        "--save",
        file,
        "--json",
        "--quiet",
    ]);
    assert_eq!(resumed["iterations"], 10);
    assert_eq!(resumed["algorithm"], "pcfr+");
    for key in ["exploitability", "root_ev", "root_equity", "nodes", "board"] {
        assert_eq!(resumed[key], straight[key], "{key}");
    }
    // Resuming keeps the algorithm and refuses the spot's own options.
    let out = cardvec(&["spot", "solve", "--resume", file, "--algorithm", "dcfr"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("keeps its algorithm"),
        "{err}"
    );
    let out = cardvec(&["spot", "solve", "--resume", file, "--board", "AhKh2c"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("cannot be used with"),
        "{err}"
    );
    // A bad file is refused with its path and the reason.
    let cut = dir.join("cut.cvspot");
    let good = std::fs::read(file).unwrap();
    std::fs::write(&cut, &good[..good.len() / 2]).unwrap();
    let out = cardvec(&["spot", "solve", "--resume", cut.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("cut.cvspot") && err.contains("truncated"),
        "{err}"
    );
    // --save is checked before the solve.
    let mut args = SPOT.to_vec();
    args.extend([
        "--save",
        "/nonexistent-dir/x.cvspot",
        "--iterations",
        "1000000",
    ]);
    let out = cardvec(&args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("--save") && err.contains("nonexistent-dir"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--lock` and a batch line's `locks`: IP locked to always call the pot-sized river bet of
/// the toy game, OOP stops bluffing (its EV is the nuts' pot plus the call: 100, against 75
/// unlocked); bad locks are refused, in a dry run too.
#[test]
fn locks_from_the_command_line_and_a_batch_line() {
    let toy = [
        "spot",
        "solve",
        "--board",
        "AhKhQd7c2s",
        "--pot",
        "100",
        "--stack",
        "1000",
        "--oop-range",
        "JcTc,6c5c",
        "--ip-range",
        "3d3h",
        "--bets",
        "100%",
        "--raises",
        "",
        "--target",
        "0.01",
        "--iterations",
        "5000",
        "--json",
        "--quiet",
    ];
    let mut args = toy.to_vec();
    args.extend(["--lock", "ip:bet:100%=call:1"]);
    let last = summary(&args);
    assert_eq!(last["locks"], serde_json::json!(["ip:bet:100%=call:1"]));
    assert_eq!(last["locked_nodes"], 1);
    assert_eq!(last["stop"], "target");
    let ev = last["root_ev"][0].as_f64().unwrap();
    assert!((ev - 100.0).abs() < 0.1, "{last}");
    for (lock, expect) in [
        ("bet:100=fold:0.5", "sum to 0.5"),
        ("bet:100=raise:300:1", "no action \"raise:300\""),
        ("oop:bet:100=call:1", "not OOP's"),
        ("bet:100", "no '='"),
    ] {
        for dry in [false, true] {
            let mut args = toy.to_vec();
            args.extend(["--lock", lock]);
            if dry {
                args.push("--dry-run");
            }
            let out = cardvec(&args);
            assert!(!out.status.success(), "{lock}");
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(err.contains(expect), "{lock}: {err}");
        }
    }
    let dir = std::env::temp_dir().join(format!("cardvec-spot-locks-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let spots = dir.join("spots.jsonl");
    std::fs::write(
        &spots,
        concat!(
            r#"{"board": "AhKhQd7c2s", "pot": 100, "stack": 1000, "oop_range": "JcTc,6c5c", "ip_range": "3d3h", "bets": "100%", "raises": "", "target": 0.01, "iterations": 5000, "locks": ["bet:100=call:1"]}"#,
            "\n",
            r#"{"board": "AhKhQd7c2s", "pot": 100, "stack": 1000, "oop_range": "JcTc,6c5c", "ip_range": "3d3h", "locks": ["bet:100=call:1"]}"#,
            "\n"
        ),
    )
    .unwrap();
    let out_path = dir.join("results.jsonl");
    let _ = std::fs::remove_file(&out_path);
    let o = cardvec(&[
        "spot",
        "batch",
        spots.to_str().unwrap(),
        "--out",
        out_path.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let results = read_results(&out_path);
    let root = &results[0]["root"];
    assert_eq!(results[0]["locked_nodes"], 1);
    let hands: Vec<&str> = root["hands"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h.as_str().unwrap())
        .collect();
    let air = hands.iter().position(|h| h.contains('6')).unwrap();
    let nuts = 1 - air;
    let bet = |h: usize| root["strategy"][1][h].as_f64().unwrap();
    assert!(bet(air) < 1e-3 && bet(nuts) > 0.999, "{root}");
    // The default sizes (60%, a) have no 100% bet: the lock is that line's error.
    let e = results[1]["error"].as_str().unwrap();
    assert!(e.contains("no action \"bet:100\""), "{e}");
    std::fs::remove_dir_all(&dir).ok();
}

/// A spot file keeps its locks: `--resume` solves on with them, `--lock` replaces them and
/// `--unlock` drops them.
#[test]
fn a_resumed_file_keeps_its_locks() {
    let dir = std::env::temp_dir().join(format!("cardvec-spot-lockfile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("locked.cvspot");
    let f = file.to_str().unwrap();
    let first = summary(&[
        "spot",
        "solve",
        "--board",
        "AhKhQd7c2s",
        "--pot",
        "100",
        "--stack",
        "1000",
        "--oop-range",
        "JcTc,6c5c",
        "--ip-range",
        "3d3h",
        "--bets",
        "100%",
        "--raises",
        "",
        "--iterations",
        "20",
        "--target",
        "0",
        "--lock",
        "ip:bet:100=call:1",
        "--save",
        f,
        "--json",
        "--quiet",
    ]);
    assert_eq!(first["locked_nodes"], 1);
    let resumed = summary(&[
        "spot",
        "solve",
        "--resume",
        f,
        "--iterations",
        "2000",
        "--target",
        "0.01",
        "--json",
        "--quiet",
    ]);
    assert_eq!(resumed["locks"], serde_json::json!(["ip:bet:100=call:1"]));
    assert!(
        (resumed["root_ev"][0].as_f64().unwrap() - 100.0).abs() < 0.1,
        "{resumed}"
    );
    let unlocked = summary(&[
        "spot",
        "solve",
        "--resume",
        f,
        "--unlock",
        "--iterations",
        "5000",
        "--target",
        "0.01",
        "--json",
        "--quiet",
    ]);
    assert_eq!(unlocked["locked_nodes"], 0);
    assert!(
        (unlocked["root_ev"][0].as_f64().unwrap() - 75.0).abs() < 0.5,
        "{unlocked}"
    );
    let other = summary(&[
        "spot",
        "solve",
        "--resume",
        f,
        "--lock",
        "ip:bet:100=fold:1",
        "--iterations",
        "2000",
        "--target",
        "0.01",
        "--json",
        "--quiet",
    ]);
    assert_eq!(other["locks"], serde_json::json!(["ip:bet:100=fold:1"]));
    // IP always folds: OOP bets everything and takes the pot: EV 100 as well, from air too.
    assert!(
        (other["root_ev"][0].as_f64().unwrap() - 100.0).abs() < 0.1,
        "{other}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn show_reads_any_node_of_a_saved_spot() {
    let dir = std::env::temp_dir().join(format!("cardvec-spot-show-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("river.cvspot");
    let file = file.to_str().unwrap();
    let mut args = SPOT.to_vec();
    args.extend([
        "--bets",
        "60%,a",
        "--iterations",
        "60",
        "--target",
        "0",
        "--save",
        file,
        "--json",
        "--quiet",
    ]);
    summary(&args);
    // The root: OOP's strategy, both players' hands, classes and categories.
    let root = summary(&["spot", "show", file, "--json"]);
    assert_eq!(root["kind"], "decision");
    assert_eq!(root["player"], 0);
    assert_eq!(root["iterations"], 60);
    let actions: Vec<&str> = root["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["word"].as_str().unwrap())
        .collect();
    assert_eq!(actions[0], "check");
    let oop = &root["players"][0];
    let hands = oop["hands"].as_array().unwrap().len();
    assert_eq!(oop["strategy"].as_array().unwrap().len(), actions.len());
    assert_eq!(oop["strategy"][0].as_array().unwrap().len(), hands);
    assert!(root["players"][1]["strategy"].is_null());
    let classes = oop["classes"].as_array().unwrap();
    assert!(classes
        .iter()
        .any(|c| c["name"] == "AQs" && c["row"] == 0 && c["col"] == 2));
    let n: u64 = classes.iter().map(|c| c["hands"].as_u64().unwrap()).sum();
    assert_eq!(n as usize, hands);
    let cats = oop["categories"].as_array().unwrap();
    assert!(cats.iter().any(|c| c["name"] == "pairs"));
    // A node down the line, as text and JSON.
    let out = cardvec(&["spot", "show", file, "--line", "check,bet:60%"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.starts_with("check,bet:60: river, board Td9d6hQc2s, pot 160"),
        "{text}"
    );
    assert!(
        text.contains("OOP to act") && text.contains("category") && text.contains("AQs"),
        "{text}"
    );
    let node = summary(&[
        "spot",
        "show",
        file,
        "--line",
        "check,bet:60",
        "--player",
        "ip",
        "--json",
    ]);
    assert_eq!(node["line"], "check,bet:60");
    assert_eq!(node["players"].as_array().unwrap().len(), 1);
    assert_eq!(node["players"][0]["player"], 1);
    // A bad line lists the actions; a card with no chance node is left over.
    let out = cardvec(&["spot", "show", file, "--line", "check,raise"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("IP to act can check, bet:60 (60%)"),
        "{err}"
    );
    let out = cardvec(&["spot", "show", file, "--cards", "Kh"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("left over"), "{err}");
    // The subtree export.
    let tree = summary(&[
        "spot",
        "show",
        file,
        "--line",
        "check",
        "--subtree",
        "--depth",
        "1",
    ]);
    assert_eq!(tree["line"], "check");
    let kids = tree["node"]["children"].as_array().unwrap();
    assert_eq!(kids[0]["kind"], "showdown");
    assert_eq!(kids[1]["truncated"], true);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Ctrl-C (SIGINT) stops `spot solve` after the iteration under way: the summary
/// (`stop: "interrupted"`, the iterations reached), `--save` written and status 130; the
/// file resumes exactly (as a straight solve of as many iterations and more).
#[cfg(unix)]
#[test]
fn ctrl_c_keeps_the_strategy_reached_and_saves_it() {
    let dir = std::env::temp_dir().join(format!("cardvec-spot-int-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("int.cvspot");
    let file = file.to_str().unwrap();
    let mut args = SPOT.to_vec();
    args.extend([
        "--target",
        "0",
        "--iterations",
        "10000000",
        "--check-every",
        "1",
        "--threads",
        "1",
        "--json",
        "--quiet",
        "--save",
        file,
    ]);
    let (first, rest) = common::interrupt_after_first_line(&args);
    // The first check came before the signal: the handler was set, the solve under way.
    assert!(first.contains("\"iterations\":1,"), "{first}");
    let last: serde_json::Value = serde_json::from_str(rest.last().unwrap()).unwrap();
    assert_eq!(last["stop"], "interrupted", "{last}");
    assert_eq!(last["saved"], file);
    let n = last["iterations"].as_u64().unwrap();
    assert!((1..10_000_000).contains(&n), "{last}");
    // The last check line is the iteration reached.
    let check: serde_json::Value = serde_json::from_str(&rest[rest.len() - 2]).unwrap();
    assert_eq!(check["iterations"], n, "{rest:?}");
    let resumed = summary(&[
        "spot",
        "solve",
        "--resume",
        file,
        "--iterations",
        "3",
        "--json",
        "--quiet",
    ]);
    assert_eq!(resumed["iterations"], n + 3);
    assert_eq!(resumed["stop"], "iterations");
    let mut straight = SPOT.to_vec();
    let total = (n + 3).to_string();
    straight.extend([
        "--target",
        "0",
        "--iterations",
        &total,
        "--check-every",
        "1000",
        "--json",
        "--quiet",
    ]);
    let straight = summary(&straight);
    for key in ["iterations", "exploitability", "root_ev", "root_equity"] {
        assert_eq!(resumed[key], straight[key], "{key}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A closed stdout (`cardvec spot show FILE | head -1`) ends the process quietly, killed by
/// SIGPIPE (status 141 in the shell), not by a panic ("failed printing to stdout").
#[cfg(unix)]
#[test]
fn a_closed_stdout_ends_quietly() {
    use std::process::Command;
    let dir = std::env::temp_dir().join(format!("cardvec-spot-pipe-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("pipe.cvspot");
    let file = file.to_str().unwrap();
    let mut args = SPOT.to_vec();
    args.extend(["--iterations", "3", "--json", "--quiet", "--save", file]);
    summary(&args);
    let bin = env!("CARGO_BIN_EXE_cardvec");
    for command in ["spot show \"$2\"", "spot show \"$2\" --json", "games"] {
        // `true` exits at once, closing the pipe's read end before cardvec (started 0.3 s
        // later) writes: its first write meets a pipe without a reader.
        let script = format!("(sleep 0.3; \"$1\" {command}; echo \"status=$?\" >&2) | true");
        let out = Command::new("sh")
            .args(["-c", &script, "sh", bin, file])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{command}: {err}");
        assert_eq!(err.trim(), "status=141", "{command}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--compress`: 16-bit storage in the dry run's memory (about half the arrays), a solve
/// saved and resumed exactly like an f32 one, and a resumed f32 file refusing it.
#[test]
fn compress_halves_the_arrays_and_resumes_exactly() {
    let dir = std::env::temp_dir().join(format!("cardvec-spot-16-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let dry = |extra: &[&str]| {
        let mut args = SPOT.to_vec();
        args.extend(["--dry-run", "--json"]);
        args.extend(extra);
        summary(&args)
    };
    let (full, packed) = (dry(&[]), dry(&["--compress"]));
    assert_eq!(full["storage"], "f32");
    assert_eq!(packed["storage"], "16-bit");
    let bytes = |v: &serde_json::Value| v["memory"]["storage_bytes"].as_u64().unwrap();
    assert!(bytes(&packed) * 10 < bytes(&full) * 6, "{packed} vs {full}");
    let file = dir.join("p.cvspot");
    let file = file.to_str().unwrap();
    let run = |extra: &[&str]| {
        let mut args = SPOT.to_vec();
        args.extend([
            "--target",
            "0",
            "--check-every",
            "3",
            "--json",
            "--quiet",
            "--compress",
        ]);
        args.extend(extra);
        summary(&args)
    };
    let straight = run(&["--iterations", "9"]);
    assert_eq!(straight["storage"], "16-bit");
    run(&["--iterations", "5", "--save", file]);
    let resumed = summary(&[
        "spot",
        "solve",
        "--resume",
        file,
        "--iterations",
        "4",
        "--json",
        "--quiet",
    ]);
    assert_eq!(resumed["storage"], "16-bit");
    for key in ["iterations", "exploitability", "root_ev"] {
        assert_eq!(resumed[key], straight[key], "{key}");
    }
    // An f32 file resumed with --compress: refused.
    let plain = dir.join("f.cvspot");
    let plain = plain.to_str().unwrap();
    let mut args = SPOT.to_vec();
    args.extend(["--iterations", "2", "--save", plain, "--quiet"]);
    assert!(cardvec(&args).status.success());
    let out = cardvec(&["spot", "solve", "--resume", plain, "--compress"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("keeps its storage"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Per-player and per-street sizes and donk sizes from the command line and a batch line:
/// IP's turn bet of 75% (`--ip-bets turn:75%`), OOP's river donk of 40% into IP's turn bet
/// (`--donk river:40%`), OOP's own bets after a checked-through turn; bad specs refused,
/// naming the option; a batch line with `oop_bets` and `donk` solved, a bad one an error
/// line.
#[test]
fn per_player_and_donk_sizes_from_the_command_line_and_a_batch_line() {
    let run = cardvec;
    let dir = std::env::temp_dir().join(format!("cardvec-spot-sizes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("turn.cvspot");
    let file = file.to_str().unwrap();
    let spot = [
        "spot",
        "solve",
        "--board",
        "Td9d6hQc",
        "--pot",
        "100",
        "--stack",
        "1000",
        "--oop-range",
        "AA,KQs",
        "--ip-range",
        "JJ,T9s",
        "--bets",
        "60%",
        "--raises",
        "3x",
    ];
    let mut args = spot.to_vec();
    args.extend([
        "--ip-bets",
        "turn:75%",
        "--donk",
        "river:40%",
        "--iterations",
        "3",
        "--target",
        "0",
        "--save",
        file,
        "--quiet",
        "--json",
    ]);
    let out = run(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let words = |line: &str| -> Vec<String> {
        let out = run(&["spot", "show", file, "--line", line, "--json"]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        v["actions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a["word"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(words(""), ["check", "bet:60"]);
    assert_eq!(words("check"), ["check", "bet:75"]);
    // Pot 250 after IP's 75 is called: OOP's donk is 40% = 100.
    assert_eq!(words("check,bet:75,call,2c"), ["check", "bet:100"]);
    assert_eq!(words("check,check,2c"), ["check", "bet:60"]);
    for (extra, parts) in [
        (
            vec!["--donk", "flop:33%"],
            vec!["--donk", "flop:33%", "turn and river"],
        ),
        (
            vec!["--oop-bets", "turn:2.5x"],
            vec!["--oop-bets", "raise size"],
        ),
        (
            vec!["--ip-raises", "street:3x"],
            vec!["--ip-raises", "unknown street"],
        ),
        (
            vec!["--ip-bets", "turn:60%;turn:75%"],
            vec!["--ip-bets", "named twice"],
        ),
        (
            vec!["--oop-raises", "river:big"],
            vec!["--oop-raises", "big"],
        ),
    ] {
        let mut args = spot.to_vec();
        args.extend(extra.iter().copied());
        args.push("--dry-run");
        let out = run(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{extra:?}: {stderr}");
        for part in parts {
            assert!(
                stderr.contains(part),
                "{extra:?}: {stderr:?} lacks {part:?}"
            );
        }
    }
    let out = run(&["spot", "solve", "--resume", file, "--donk", "33%"]);
    assert!(!out.status.success());

    let spots = dir.join("sizes.jsonl");
    std::fs::write(
        &spots,
        [
            r#"{"id": "a", "board": "Td9d6hQc", "pot": 100, "stack": 1000, "oop_range": "AA,KQs", "ip_range": "JJ,T9s", "bets": "60%", "oop_bets": "turn:33%", "ip_raises": "a", "donk": "river:40%", "iterations": 3, "target": 0}"#,
            r#"{"id": "b", "board": "Td9d6hQc", "pot": 100, "stack": 1000, "oop_range": "AA,KQs", "ip_range": "JJ,T9s", "donk": "flop:40%"}"#,
        ]
        .join("\n"),
    )
    .unwrap();
    let results = dir.join("sizes-out.jsonl");
    let out = run(&[
        "spot",
        "batch",
        spots.to_str().unwrap(),
        "--out",
        results.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut lines: Vec<serde_json::Value> = std::fs::read_to_string(&results)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    lines.sort_by_key(|r| r["line"].as_u64().unwrap());
    assert_eq!(lines[0]["id"], "a", "{}", lines[0]);
    assert_eq!(
        lines[0]["root"]["actions"],
        serde_json::json!(["check", "bet:33"])
    );
    let e = lines[1]["error"].as_str().unwrap();
    assert!(e.contains("donk") && e.contains("flop"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Suit isomorphism on by default where two suits are interchangeable (the summary says so
/// and counts the mirror nodes), `--no-isomorphism` and a batch line's `"isomorphism":
/// false` turn it off with the same result up to rounding, and a resumed file keeps the
/// choice unless `--no-isomorphism` is given.
#[test]
fn isomorphism_is_on_by_default_and_can_be_turned_off() {
    let dir = std::env::temp_dir().join(format!("cardvec-spot-iso-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Diamonds and spades carry no board card: the 13 spade rivers mirror the diamonds.
    let spot = [
        "spot",
        "solve",
        "--board",
        "AhKh7c4c",
        "--pot",
        "60",
        "--stack",
        "120",
        "--oop-range",
        "AK,77,QJs",
        "--ip-range",
        "AQs,44,T9s",
        "--bets",
        "75%",
        "--target",
        "0",
        "--iterations",
        "12",
        "--check-every",
        "6",
        "--json",
        "--quiet",
    ];
    let run = |extra: &[&str]| {
        let mut args = spot.to_vec();
        args.extend(extra);
        summary(&args)
    };
    let on = run(&[]);
    let off = run(&["--no-isomorphism"]);
    assert_eq!(on["isomorphism"], true);
    assert_eq!(off["isomorphism"], false);
    assert!(on["mirrors"].as_u64().unwrap() > 0);
    assert_eq!(on["mirrors"], off["mirrors"]);
    let e = |v: &serde_json::Value| v["exploitability"].as_f64().unwrap();
    assert!((e(&on) - e(&off)).abs() < 1e-3, "{on} vs {off}");
    // A lock turns it off for the solve.
    let locked = run(&["--lock", "=check:1"]);
    assert_eq!(locked["isomorphism"], false);
    // Saved without it, resumed: still without it, unless asked.
    let file = dir.join("off.cvspot");
    let file = file.to_str().unwrap();
    run(&["--no-isomorphism", "--save", file]);
    let resumed = summary(&["spot", "solve", "--resume", file, "--json", "--quiet"]);
    assert_eq!(resumed["isomorphism"], false);
    // A batch line.
    let batch = dir.join("b.jsonl");
    std::fs::write(
        &batch,
        "{\"board\":\"AhKh7c4c\",\"pot\":60,\"stack\":120,\"oop_range\":\"AK,77\",\
         \"ip_range\":\"AQs,44\",\"bets\":\"75%\",\"iterations\":4,\"target\":0,\
         \"isomorphism\":false}\n",
    )
    .unwrap();
    let out = dir.join("out.jsonl");
    let status = cardvec(&[
        "spot",
        "batch",
        batch.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    let line: serde_json::Value = serde_json::from_str(
        std::fs::read_to_string(&out)
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    assert!(line.get("error").is_none(), "{line}");
    assert_eq!(line["isomorphism"], false, "{line}");
    assert!(line["mirrors"].as_u64().unwrap() > 0, "{line}");
    std::fs::remove_dir_all(&dir).unwrap();
}
