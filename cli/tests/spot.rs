//! `cardvec spot solve` at tiny sizes: the JSON lines, the dry run, the memory refusal and
//! bad input refused with the value named.

use std::process::{Command, Output};

fn cardvec(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cardvec"))
        .args(args)
        .output()
        .expect("the cardvec binary runs")
}

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
