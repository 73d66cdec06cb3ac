//! `cardvec pushfold`: the JSON lines, the `--out` file, and bad options refused before any
//! work with the value typed.

mod common;

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
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_cardvec"))
            .args(args)
            .output()
            .expect("the cardvec binary runs")
    };
    let solve = |algorithm: &str| -> serde_json::Value {
        let out = run(&[
            "pushfold",
            "--depths",
            "10",
            "--target",
            "1e-6",
            "--algorithm",
            algorithm,
            "--json",
            "--quiet",
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).unwrap()
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
    let out = run(&["pushfold", "--depths", "3", "--algorithm", "pcfr"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("\"pcfr\"") && stderr.contains("cfr+, dcfr, pcfr+"),
        "{stderr}"
    );
}
