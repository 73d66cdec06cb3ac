//! `cardvec pushfold`: the JSON lines, the `--out` file, and bad options refused before any
//! work with the value typed.

use crate::common;

use common::cardvec;

#[test]
fn json_lines_and_the_out_file() {
    let path = std::env::temp_dir().join(format!("cardvec-pushfold-{}.json", std::process::id()));
    let out = cardvec(&[
        "pushfold",
        "--depths",
        "2,10",
        "--json",
        "--quiet",
        "--out",
        path.to_str().unwrap(),
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
    assert_eq!(lines.len(), 2);
    for (line, depth) in lines.iter().zip([2.0, 10.0]) {
        assert_eq!(line["depth_bb"].as_f64(), Some(depth));
        assert!(line["exploitability"].as_f64().unwrap() < 1e-3);
        assert_eq!(line["converged"].as_bool(), Some(true));
        assert_eq!(line["push"].as_array().unwrap().len(), 169);
        assert!(line["push"][0].as_f64().unwrap() > 0.99, "AA shoves");
    }
    let file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(file["format"], "cardvec-pushfold");
    assert_eq!(file["classes"][13], "AKo");
    assert_eq!(file["equity_table_checksum"], "fnv1a64:c71a40335574f35e");
    assert_eq!(file["depths"].as_array().unwrap().len(), 2);
}

#[test]
fn bad_options_are_refused_with_the_value_typed() {
    for (args, part) in [
        (&["pushfold", "--depths", "0.5"][..], "got 0.5"),
        (&["pushfold", "--depths", "3-1"][..], "\"3-1\""),
        (&["pushfold", "--depths", "ten"][..], "\"ten\""),
        (&["pushfold", "--target", "0"][..], "got 0"),
        (&["pushfold", "--target", "NaN"][..], "got NaN"),
        (&["pushfold", "--max-iterations", "0"][..], "got 0"),
        (&["pushfold", "--threads", "0"][..], "got 0"),
    ] {
        let out = cardvec(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(part), "{args:?}: {stderr:?} lacks {part:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn a_bad_depth_is_named_once() {
    let out = cardvec(&["pushfold", "--depths", "0.5"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(
        stderr.matches("0.5").count(),
        2,
        "the part, then its value: {stderr:?}"
    );
    assert_eq!(stderr.matches("\"0.5\"").count(), 1, "{stderr:?}");
    let out = cardvec(&["pushfold", "--depths", "2,0.5"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("\"2,0.5\""),
        "a list names the whole text and the part: {stderr:?}"
    );
}

#[test]
fn purified_charts_are_zero_or_one_with_their_exploitability() {
    let out = cardvec(&[
        "pushfold", "--depths", "10", "--json", "--quiet", "--purify",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let line: serde_json::Value =
        serde_json::from_str(String::from_utf8(out.stdout).unwrap().trim()).unwrap();
    assert_eq!(line["purified"], true);
    let strategies = [
        line["push"].as_array().unwrap(),
        line["call"].as_array().unwrap(),
    ];
    for s in strategies {
        assert!(s.iter().all(|x| x == 0.0 || x == 1.0), "{s:?}");
    }
    let avg = line["exploitability"].as_f64().unwrap();
    let pure = line["purified_exploitability"].as_f64().unwrap();
    // Rounding an equilibrium's few mixed classes costs a little, never a lot.
    assert!(
        (0.0..0.05).contains(&pure),
        "purified exploitability {pure} (average {avg})"
    );
    // Without --purify the raw averages are shown and there is no purified figure.
    let out = cardvec(&["pushfold", "--depths", "10", "--json", "--quiet"]);
    let line: serde_json::Value =
        serde_json::from_str(String::from_utf8(out.stdout).unwrap().trim()).unwrap();
    assert_eq!(line["purified"], false);
    assert!(line.get("purified_exploitability").is_none());
}

/// `--algorithm dcfr|pcfr+` solves push/fold to the target on the same equilibrium (the SB
/// value at 10 BB within 1e-5 of the exact -0.045371), DCFR in fewer iterations than
/// CFR+; an unknown name is refused.
#[test]
fn dcfr_and_pcfr_plus_solve_push_fold() {
    let solve = |algorithm: &str| -> serde_json::Value {
        common::summary(&[
            "pushfold",
            "--depths",
            "10",
            "--target",
            "1e-6",
            "--algorithm",
            algorithm,
            "--json",
            "--quiet",
        ])
    };
    let plus = solve("cfr+");
    for algorithm in ["dcfr", "pcfr+"] {
        let s = solve(algorithm);
        assert_eq!(s["converged"], true, "{s}");
        assert!(s["exploitability"].as_f64().unwrap() < 1e-6, "{s}");
        assert!(
            (s["sb_value"].as_f64().unwrap() + 0.045371).abs() < 1e-5,
            "{s}"
        );
        assert!(s["iterations"].as_u64().unwrap() < plus["iterations"].as_u64().unwrap());
    }
    let out = cardvec(&["pushfold", "--depths", "3", "--algorithm", "pcfr"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("\"pcfr\"") && stderr.contains("cfr+, dcfr, pcfr+"),
        "{stderr}"
    );
}

fn tmp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("cardvec-pushfold-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The JSON lines of a run that must succeed, without their `seconds`.
fn lines(args: &[&str]) -> Vec<serde_json::Value> {
    let out = cardvec(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
            v.as_object_mut().unwrap().remove("seconds");
            v
        })
        .collect()
}

/// 40 iterations per depth saved, resumed for 30 more (the depths and algorithm from the
/// file), give the same lines and the same run file byte for byte as 70 at once, for two
/// depths and two algorithms.
#[test]
fn save_and_resume_continue_exactly() {
    let dir = tmp_dir("resume");
    let file = |n: &str| dir.join(n).to_str().unwrap().to_string();
    for algorithm in ["cfr+", "dcfr"] {
        let (a, b, c) = (file("a.cvpush"), file("b.cvpush"), file("c.cvpush"));
        let base = ["pushfold", "--target", "1e-12", "--json", "--quiet"];
        let run = |extra: &[&str]| lines(&[&base[..], extra].concat());
        let first = run(&[
            "--depths",
            "7,12.5",
            "--algorithm",
            algorithm,
            "--max-iterations",
            "40",
            "--save",
            &a,
        ]);
        assert!(first
            .iter()
            .all(|l| l["stop"] == "iterations" && l["iterations"] == 40));
        let resumed = run(&["--resume", &a, "--max-iterations", "30", "--save", &b]);
        let straight = run(&[
            "--depths",
            "7,12.5",
            "--algorithm",
            algorithm,
            "--max-iterations",
            "70",
            "--save",
            &c,
        ]);
        assert_eq!(resumed.len(), 2);
        for (r, s) in resumed.iter().zip(&straight) {
            assert_eq!(r["resumed_from"], 40, "{r}");
            assert_eq!(s["resumed_from"], 0, "{s}");
            assert_eq!(r["iterations"], 70);
            let strip = |v: &serde_json::Value| {
                let mut v = v.clone();
                v.as_object_mut().unwrap().remove("resumed_from");
                v
            };
            assert_eq!(strip(r), strip(s), "{algorithm}");
        }
        assert_eq!(
            std::fs::read(&b).unwrap(),
            std::fs::read(&c).unwrap(),
            "{algorithm}"
        );
        // 30 iterations alone are another solution.
        let alone = run(&[
            "--depths",
            "7,12.5",
            "--algorithm",
            algorithm,
            "--max-iterations",
            "30",
        ]);
        assert_ne!(alone[0]["push"], straight[0]["push"]);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--time-limit` stops each depth with the strategies reached (`stop` = `time-limit`,
/// exit 0).
#[test]
fn a_time_limit_keeps_the_strategies_reached() {
    let out = lines(&[
        "pushfold",
        "--depths",
        "10,11",
        "--target",
        "1e-15",
        "--max-iterations",
        "10000000",
        "--time-limit",
        "0.3",
        "--json",
        "--quiet",
    ]);
    assert_eq!(out.len(), 2);
    for l in &out {
        assert_eq!(l["stop"], "time-limit", "{l}");
        assert_eq!(l["converged"], false);
        assert!(l["iterations"].as_u64().unwrap() > 10, "{l}");
        assert!(l["exploitability"].as_f64().unwrap() < 1e-3, "{l}");
    }
}

/// Ctrl-C stops the depth under way: its line is printed (`stopped: interrupted`), the
/// depths after it are not solved, `--out` and `--save` are written, the status is 130;
/// the saved state resumes.
#[cfg(unix)]
#[test]
fn ctrl_c_keeps_the_depth_under_way_and_writes_the_files() {
    let dir = tmp_dir("ctrl-c");
    let saved = dir.join("run.cvpush");
    let out = dir.join("out.json");
    let (first, rest) = common::interrupt_after_first_line(&[
        "pushfold",
        "--depths",
        "10,20",
        "--target",
        "1e-15",
        "--max-iterations",
        "10000000",
        "--quiet",
        "--save",
        saved.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(
        first.contains("depth") && first.contains("exploitability"),
        "{first}"
    );
    assert_eq!(rest.len(), 1, "{rest:?}");
    assert!(rest[0].contains("(stopped: interrupted)"), "{rest:?}");
    let file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let depths = file["depths"].as_array().unwrap();
    assert_eq!(depths.len(), 1);
    assert_eq!(depths[0]["stop"], "interrupted");
    assert_eq!(depths[0]["depth_bb"], 10.0);
    let done = depths[0]["iterations"].as_u64().unwrap();
    let more = lines(&[
        "pushfold",
        "--resume",
        saved.to_str().unwrap(),
        "--max-iterations",
        "5",
        "--target",
        "1e-15",
        "--json",
        "--quiet",
    ]);
    assert_eq!(more.len(), 1);
    assert_eq!(more[0]["resumed_from"].as_u64(), Some(done));
    assert_eq!(more[0]["iterations"].as_u64(), Some(done + 5));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Bad `--resume` files (not a file of this kind: text, a `cardvec solve` run file; a
/// corrupt or truncated one; another algorithm), unwritable output paths and bad
/// `--time-limit` values are refused before anything is solved or written.
#[test]
fn bad_resume_files_and_output_paths_are_refused_first() {
    let dir = tmp_dir("refused");
    let path = |n: &str| dir.join(n).to_str().unwrap().to_string();
    let good = path("good.cvpush");
    lines(&[
        "pushfold",
        "--depths",
        "5",
        "--max-iterations",
        "10",
        "--target",
        "1e-12",
        "--json",
        "--save",
        &good,
        "--quiet",
    ]);
    let bytes = std::fs::read(&good).unwrap();
    std::fs::write(path("text"), "{\"depths\": []}").unwrap();
    let mut corrupt = bytes.clone();
    let mid = corrupt.len() / 2;
    corrupt[mid] ^= 0x55;
    std::fs::write(path("corrupt"), corrupt).unwrap();
    std::fs::write(path("short"), &bytes[..bytes.len() - 3]).unwrap();
    let solve_run = path("kuhn.cvsolve");
    let out = cardvec(&[
        "solve",
        "kuhn",
        "--iterations",
        "5",
        "--quiet",
        "--save",
        &solve_run,
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let missing = path("no/such/dir/x");
    let not_dir = format!("{good}/x.json");
    for (args, part) in [
        (
            vec!["--resume", &path("text")],
            "not a cardvec push/fold run file",
        ),
        (
            vec!["--resume", &solve_run],
            "not a cardvec push/fold run file",
        ),
        (vec!["--resume", &path("corrupt")], "corrupt"),
        (vec!["--resume", &path("short")], "truncated"),
        (vec!["--resume", &path("absent")], "absent"),
        (
            vec!["--resume", &good, "--algorithm", "dcfr"],
            "solved with cfr+, not dcfr",
        ),
        (vec!["--save", &missing], "--save"),
        (vec!["--out", &not_dir], "--out"),
        (vec!["--table-out", &missing], "--table-out"),
        (vec!["--time-limit", "0"], "got 0"),
        (vec!["--time-limit", "NaN"], "got NaN"),
        (vec!["--time-limit=-3"], "got -3"),
    ] {
        let args = [&["pushfold", "--quiet"][..], &args].concat();
        let out = cardvec(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(part), "{args:?}: {stderr:?} lacks {part:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    assert_eq!(
        std::fs::read(&good).unwrap(),
        bytes,
        "the good file is untouched"
    );
    assert!(!dir.join("no").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}
