//! `cardvec solve`: the JSON lines (report points, then the summary with `exploitability`
//! and `game_value`), the policy file, and the refusals (unknown game, game without a tree,
//! unknown algorithm, zero iterations) with the value typed.

use crate::common;

use common::{cardvec, summary};

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

/// `--save` then `--resume`: N iterations, save, resume, M more give the same policy file
/// and the same run file, byte for byte, as N + M at once (CFR+, PCFR+, outcome-sampling
/// MCCFR with 2 lanes); the summary counts on (`iterations` N + M, `resumed_from` N) and
/// the algorithm, seed and lanes default to the file's.
#[test]
fn save_and_resume_continue_exactly_from_the_command_line() {
    let run = summary;
    let dir = std::env::temp_dir().join(format!("cardvec-solve-resume-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    for algorithm in ["cfr+", "pcfr+", "os-mccfr"] {
        let common = ["--json", "--quiet", "--seed", "4", "--lanes", "2"];
        let mut whole = vec!["solve", "leduc", "--algorithm", algorithm];
        whole.extend(common);
        let (w_run, w_policy) = (path("whole.cvsolve"), path("whole.json"));
        whole.extend([
            "--iterations",
            "30",
            "--save",
            &w_run,
            "--policy-out",
            &w_policy,
        ]);
        let summary = run(&whole);
        assert_eq!(summary["saved"], w_run.as_str());
        assert_eq!(summary["resumed_from"], 0);

        let mut first = vec!["solve", "leduc", "--algorithm", algorithm];
        first.extend(common);
        let part = path("part.cvsolve");
        first.extend(["--iterations", "17", "--save", &part]);
        assert_eq!(run(&first)["iterations"], 17);
        // The rest: algorithm, seed and lanes from the file; the file saved over.
        let p_policy = path("part.json");
        let summary = run(&[
            "solve",
            "leduc",
            "--resume",
            &part,
            "--iterations",
            "13",
            "--save",
            &part,
            "--policy-out",
            &p_policy,
            "--json",
            "--quiet",
        ]);
        assert_eq!(summary["iterations"], 30, "{summary}");
        assert_eq!(summary["resumed_from"], 17, "{summary}");
        assert_eq!(summary["algorithm"], algorithm);
        assert_eq!(summary["seed"], 4);
        let read = |p: &str| std::fs::read(p).unwrap();
        assert_eq!(read(&p_policy), read(&w_policy), "{algorithm}: the policy");
        assert_eq!(read(&part), read(&w_run), "{algorithm}: the run file");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--resume` refuses a file of another game, algorithm, seed or lanes, a file that is not
/// a run file, a truncated or corrupt one, and a missing one, before solving; an
/// unwritable `--save` is refused before the solve.
#[test]
fn resume_refuses_another_run_and_damaged_files() {
    let dir = std::env::temp_dir().join(format!("cardvec-solve-refuse-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let kuhn = file("kuhn.cvsolve");
    let es = file("es.cvsolve");
    let policy = file("kuhn.json");
    for args in [
        vec![
            "solve",
            "kuhn",
            "--iterations",
            "5",
            "--quiet",
            "--save",
            &kuhn,
        ],
        vec![
            "solve",
            "kuhn",
            "--iterations",
            "5",
            "--quiet",
            "--policy-out",
            &policy,
        ],
        vec![
            "solve",
            "kuhn",
            "--iterations",
            "5",
            "--quiet",
            "--algorithm",
            "es-mccfr",
            "--seed",
            "9",
            "--save",
            &es,
        ],
    ] {
        let out = cardvec(&args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let good = std::fs::read(&kuhn).unwrap();
    let (cut, flipped) = (file("cut.cvsolve"), file("flipped.cvsolve"));
    std::fs::write(&cut, &good[..good.len() / 2]).unwrap();
    let mut bad = good.clone();
    let at = good.len() / 2;
    bad[at] ^= 0x55;
    std::fs::write(&flipped, &bad).unwrap();
    let missing_dir = file("no/such/dir/x.cvsolve");
    for (args, parts) in [
        (
            vec!["solve", "leduc", "--resume", &kuhn],
            vec!["holds a run of kuhn, not of leduc"],
        ),
        (
            vec!["solve", "kuhn", "--resume", &kuhn, "--algorithm", "dcfr"],
            vec!["of cfr+, not of dcfr"],
        ),
        (
            vec!["solve", "kuhn", "--resume", &es, "--seed", "3"],
            vec!["seed 9 and 1 lanes, not seed 3 and 1 lanes"],
        ),
        (
            vec!["solve", "kuhn", "--resume", &es, "--lanes", "4"],
            vec!["not seed 9 and 4 lanes"],
        ),
        (
            vec!["solve", "kuhn", "--resume", &policy],
            vec!["not a cardvec run file", "kuhn.json"],
        ),
        (
            vec!["solve", "kuhn", "--resume", &cut],
            vec!["truncated", "cut.cvsolve"],
        ),
        (
            vec!["solve", "kuhn", "--resume", &flipped],
            vec!["flipped.cvsolve"],
        ),
        (
            vec!["solve", "kuhn", "--resume", &missing_dir],
            vec!["run file", "x.cvsolve"],
        ),
        (
            vec![
                "solve",
                "leduc",
                "--iterations",
                "1000000000000",
                "--save",
                &missing_dir,
            ],
            vec!["--save", "cannot write", "x.cvsolve"],
        ),
    ] {
        let out = cardvec(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        for part in parts {
            assert!(stderr.contains(part), "{args:?}: {stderr:?} lacks {part:?}");
        }
    }
    // The flipped byte is reported as damage.
    let out = cardvec(&["solve", "kuhn", "--resume", &flipped]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("corrupt") || stderr.contains("truncated"),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A run stopped by its time limit or by Ctrl-C writes `--save` with the state reached,
/// and `--resume` counts on from it.
#[cfg(unix)]
#[test]
fn a_stopped_run_saves_its_state_and_resumes() {
    let dir = std::env::temp_dir().join(format!("cardvec-solve-stopsave-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let saved = dir.join("leduc.cvsolve");
    let saved = saved.to_str().unwrap();
    let resume = |saved: &str| {
        summary(&[
            "solve",
            "leduc",
            "--resume",
            saved,
            "--iterations",
            "5",
            "--json",
            "--quiet",
        ])
    };
    // The time limit.
    let last = summary(&[
        "solve",
        "leduc",
        "--algorithm",
        "dcfr",
        "--iterations",
        "1000000000000",
        "--time-limit",
        "0.3",
        "--json",
        "--quiet",
        "--save",
        saved,
    ]);
    assert_eq!(last["stopped"], "time-limit");
    let done = last["iterations"].as_u64().unwrap();
    let again = resume(saved);
    assert_eq!(again["algorithm"], "dcfr");
    assert_eq!(again["resumed_from"].as_u64(), Some(done));
    assert_eq!(again["iterations"].as_u64(), Some(done + 5));
    // Ctrl-C.
    let (first, rest) = common::interrupt_after_first_line(&[
        "solve",
        "leduc",
        "--iterations",
        "1000000000000",
        "--every",
        "100",
        "--json",
        "--quiet",
        "--save",
        saved,
    ]);
    assert!(first.contains("\"iteration\":100"), "{first}");
    let last: serde_json::Value = serde_json::from_str(rest.last().unwrap()).unwrap();
    assert_eq!(last["stopped"], "interrupted");
    assert_eq!(last["saved"], saved);
    let done = last["iterations"].as_u64().unwrap();
    assert!(done >= 100);
    let again = resume(saved);
    assert_eq!(again["algorithm"], "cfr+");
    assert_eq!(again["resumed_from"].as_u64(), Some(done));
    assert_eq!(again["iterations"].as_u64(), Some(done + 5));
    std::fs::remove_dir_all(&dir).unwrap();
}
