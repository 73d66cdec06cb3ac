//! `cardvec match --max-steps N`: games cut off at N plies are reported as truncated, in
//! text and JSON, head-to-head and free-for-all.

use crate::common::cardvec;

fn json_lines(args: &[&str]) -> Vec<serde_json::Value> {
    let out = cardvec(args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

/// Every Lost Cities game lasts more than 10 plies, so all 30 are cut at exactly 10.
#[test]
fn head_to_head_games_are_cut_off_and_counted() {
    let base = ["match", "lost-cities", "--games", "30", "--threads", "1"];
    let cut = json_lines(&[&base[..], &["--max-steps", "10", "--json"]].concat());
    assert_eq!(cut[0]["max_steps"], 10);
    assert_eq!(cut[0]["truncated"], 30);
    assert_eq!(cut[0]["plies_per_game"], 10.0);
    let whole = json_lines(&[&base[..], &["--json"]].concat());
    assert!(whole[0]["max_steps"].is_null());
    assert_eq!(whole[0]["truncated"], 0);
    assert!(whole[0]["plies_per_game"].as_f64().unwrap() > 44.0);
    let text = cardvec(&[&base[..], &["--max-steps", "10"]].concat());
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.contains("max_steps=10 truncated=30"), "{text}");
}

/// A limit longer than any Kuhn game (at most 3 plies) truncates nothing and changes
/// nothing.
#[test]
fn a_limit_never_reached_changes_nothing() {
    let base = ["match", "kuhn", "--games", "200", "--json"];
    let mut limited = json_lines(&[&base[..], &["--max-steps", "3"]].concat());
    let plain = json_lines(&base);
    assert_eq!(limited[0]["truncated"], 0);
    limited[0]["max_steps"] = serde_json::Value::Null;
    assert_eq!(limited, plain);
}

#[test]
fn free_for_all_games_are_cut_off_and_counted() {
    let lines = json_lines(&[
        "match",
        "flip7",
        "--players",
        "3,5",
        "--games",
        "12",
        "--max-steps",
        "4",
        "--json",
    ]);
    assert_eq!(lines.len(), 2);
    for l in &lines {
        assert_eq!(l["truncated"], 12, "{l}");
        assert_eq!(l["plies_per_game"], 4.0);
    }
}

#[test]
fn max_steps_zero_is_refused() {
    let out = cardvec(&["match", "kuhn", "--games", "1", "--max-steps", "0"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--max-steps") && err.contains('0'), "{err}");
}

#[test]
fn a_duplicate_match_reports_its_interval_over_deals() {
    let args = [
        "match",
        "holdem",
        "--a",
        "equity-20",
        "--b",
        "call-station",
        "--games",
        "600",
        "--seed",
        "3",
        "--json",
    ];
    let dup = json_lines(&[&args[..], &["--duplicate"]].concat());
    let plain = json_lines(&args);
    let (d, p) = (&dup[0], &plain[0]);
    assert_eq!(d["duplicate"], true);
    // Without duplicate every game is its own deal: the two intervals are one.
    assert_eq!(p["reward_a_ci95_deals"], p["reward_a_ci95"]);
    // With it, the interval over deals is the narrower: the luck of the cards cancels.
    let (deals, games) = (
        d["reward_a_ci95_deals"].as_f64().unwrap(),
        d["reward_a_ci95"].as_f64().unwrap(),
    );
    assert!(deals < games, "{deals} vs {games}");
    let out = cardvec(&[&args[..args.len() - 1], &["--duplicate"]].concat());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("treating the games as independent (width ratio"),
        "{text}"
    );
}

/// `--bots` keeps a search bot's own comma-separated options with it (the ladder's
/// splitter): three bots here, the first a `pimc` with two options.
#[test]
fn free_for_all_bot_names_keep_their_options() {
    let lines = json_lines(&[
        "match",
        "flip7",
        "--players",
        "3",
        "--bots",
        "pimc:sims=2,playout=expected-value,expected-value,threshold-20",
        "--games",
        "3",
        "--threads",
        "1",
        "--json",
    ]);
    let standings = lines[0]["standings"].as_array().unwrap();
    let names: Vec<&str> = standings
        .iter()
        .map(|s| s["bot"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "pimc:sims=2,playout=expected-value",
            "expected-value",
            "threshold-20"
        ]
    );
    assert!(standings.iter().all(|s| s["seats"] == 3), "{standings:?}");
}
