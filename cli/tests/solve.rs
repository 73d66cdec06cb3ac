//! `cardvec solve`: the JSON lines (report points, then the summary with `exploitability`
//! and `game_value`), the policy file, and the refusals (unknown game, game without a tree,
//! unknown algorithm, zero iterations) with the value typed.

mod common;

use common::cardvec;

#[test]
fn kuhn_cfr_plus_json_ends_with_the_summary() {
    let dir = std::env::temp_dir().join(format!("cardvec-solve-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let policy = dir.join("kuhn.json");
    let out = cardvec(&[
        "solve",
        "kuhn",
        "--iterations",
        "1000",
        "--every",
        "500",
        "--json",
        "--quiet",
        "--policy-out",
        policy.to_str().unwrap(),
    ]);
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
    assert_eq!(lines.len(), 3, "{text}");
    assert_eq!(lines[0]["iteration"], 500);
    assert_eq!(lines[1]["iteration"], 1000);
    let last = &lines[2];
    assert_eq!(last["algorithm"], "cfr+");
    assert_eq!(last["iterations"], 1000);
    assert!(last["exploitability"].as_f64().unwrap() < 1e-3, "{last}");
    assert!(
        (last["game_value"].as_f64().unwrap() + 1.0 / 18.0).abs() < 1e-3,
        "{last}"
    );
    assert!(last["seconds"].as_f64().unwrap() >= 0.0);
    let file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&policy).unwrap()).unwrap();
    assert_eq!(file["game"], "kuhn");
    assert_eq!(file["policy"].as_object().unwrap().len(), 12);
    let p = &file["policy"]["2pb"];
    assert!(p["1"].as_f64().unwrap() > 0.99, "the king calls: {p}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_requests_are_refused_with_what_was_typed() {
    for (args, parts) in [
        (
            &["solve", "lost-cities", "--quiet"][..],
            &["lost-cities has no game tree", "kuhn", "leduc"][..],
        ),
        (&["solve", "chess", "--quiet"], &["unknown game \"chess\""]),
        (
            &["solve", "kuhn", "--algorithm", "cfr++", "--quiet"],
            &["unknown algorithm \"cfr++\"", "os-mccfr"],
        ),
        (
            &["solve", "kuhn", "--iterations", "0", "--quiet"],
            &["--iterations", "got 0"],
        ),
        (
            &["solve", "kuhn", "--max-nodes", "10", "--quiet"],
            &["more than 10 nodes"],
        ),
    ] {
        let out = cardvec(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        for part in parts {
            assert!(stderr.contains(part), "{args:?}: {stderr:?} lacks {part:?}");
        }
    }
}

/// `--algorithm dcfr` and `pcfr+` on Kuhn: the curve and a summary at the game value.
#[test]
fn dcfr_and_pcfr_plus_solve_kuhn_from_the_command_line() {
    for algorithm in ["dcfr", "pcfr+"] {
        let out = cardvec(&[
            "solve",
            "kuhn",
            "--algorithm",
            algorithm,
            "--iterations",
            "1000",
            "--every",
            "250",
            "--json",
            "--quiet",
        ]);
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
        assert_eq!(lines.len(), 5, "{text}");
        let first = lines[0]["exploitability"].as_f64().unwrap();
        let last = &lines[4];
        assert_eq!(last["algorithm"], algorithm);
        let e = last["exploitability"].as_f64().unwrap();
        assert!(e < 1e-3 && e < first, "{algorithm}: {text}");
        assert!(
            (last["game_value"].as_f64().unwrap() + 1.0 / 18.0).abs() < 1e-3,
            "{last}"
        );
    }
}

/// `--time-limit` ends a long run with the solution reached: report point and summary at
/// the iteration reached, `stopped: "time-limit"`, the policy file written.
#[test]
fn a_time_limit_keeps_the_solution_and_writes_the_policy() {
    let dir = std::env::temp_dir().join(format!("cardvec-solve-tl-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let policy = dir.join("leduc.json");
    let out = cardvec(&[
        "solve",
        "leduc",
        "--iterations",
        "1000000000000",
        "--time-limit",
        "0.3",
        "--json",
        "--quiet",
        "--policy-out",
        policy.to_str().unwrap(),
    ]);
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
    let last = lines.last().unwrap();
    assert_eq!(last["stopped"], "time-limit", "{text}");
    let done = last["iterations"].as_u64().unwrap();
    assert!((2..1_000_000_000_000).contains(&done), "{text}");
    assert_eq!(lines[lines.len() - 2]["iteration"], done);
    assert!(last["exploitability"].as_f64().unwrap() < 2.3, "{text}");
    let file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&policy).unwrap()).unwrap();
    assert_eq!(file["policy"].as_object().unwrap().len(), 936);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Ctrl-C (SIGINT) ends the run with the summary (`stopped: "interrupted"`), the policy
/// file written and status 130.
#[cfg(unix)]
#[test]
fn ctrl_c_ends_with_the_summary_and_the_policy_file() {
    let dir = std::env::temp_dir().join(format!("cardvec-solve-int-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let policy = dir.join("leduc.json");
    let (first, rest) = common::interrupt_after_first_line(&[
        "solve",
        "leduc",
        "--iterations",
        "1000000000000",
        "--every",
        "100",
        "--json",
        "--quiet",
        "--policy-out",
        policy.to_str().unwrap(),
    ]);
    // The first report point came before the signal: the handler was set, the solve under way.
    assert!(first.contains("\"iteration\":100"), "{first}");
    let last: serde_json::Value = serde_json::from_str(rest.last().unwrap()).unwrap();
    assert_eq!(last["stopped"], "interrupted", "{last}");
    assert!(last["iterations"].as_u64().unwrap() >= 100, "{last}");
    let file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&policy).unwrap()).unwrap();
    assert_eq!(file["policy"].as_object().unwrap().len(), 936);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// An unwritable `--policy-out` is refused before the solve (which would otherwise run for
/// ever), and a bad `--time-limit` is refused with the value typed.
#[test]
fn an_unwritable_policy_path_and_a_bad_time_limit_are_refused_first() {
    let missing = std::env::temp_dir().join(format!(
        "cardvec-solve-missing-{}/dir/p.json",
        std::process::id()
    ));
    for (args, parts) in [
        (
            vec![
                "solve",
                "leduc",
                "--iterations",
                "1000000000000",
                "--quiet",
                "--policy-out",
                missing.to_str().unwrap(),
            ],
            vec!["--policy-out", "cannot write", "p.json"],
        ),
        (
            vec!["solve", "kuhn", "--time-limit", "0", "--quiet"],
            vec!["--time-limit", "got 0"],
        ),
        (
            vec!["solve", "kuhn", "--time-limit=-2", "--quiet"],
            vec!["--time-limit", "got -2"],
        ),
    ] {
        let out = cardvec(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        for part in parts {
            assert!(stderr.contains(part), "{args:?}: {stderr:?} lacks {part:?}");
        }
    }
}
