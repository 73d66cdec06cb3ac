//! The command line refuses bad counts and player numbers with a message that shows the
//! value typed (never a wrapped or clamped one) and exits with status 2, before any work.

use crate::common::cardvec;

/// Runs `args`, expects the error exit and a message containing every one of `parts`.
fn refused(args: &[&str], parts: &[&str]) {
    let out = cardvec(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    for part in parts {
        assert!(stderr.contains(part), "{args:?}: {stderr:?} lacks {part:?}");
    }
    assert!(out.stdout.is_empty(), "{args:?} printed {:?}", out.stdout);
}

const U64_MAX: &str = "18446744073709551615";

#[test]
fn huge_counts_are_shown_as_typed() {
    refused(
        &[
            "arena",
            "match",
            "--vs",
            "builtin:random",
            "--games",
            U64_MAX,
        ],
        &["games must be in 1..=9223372036854775807, got 18446744073709551615"],
    );
    refused(
        &["equity", "AsAh", "--opponents", U64_MAX, "--quiet"],
        &["--opponents must be in 0..=9, got 18446744073709551615"],
    );
    refused(
        &["bench", "--threads", U64_MAX, "--envs", "4"],
        &["--threads must be in 1..=256, got 18446744073709551615"],
    );
    refused(
        &["match", "flip7", "--threads", "0", "--games", "1"],
        &["--threads must be in 1..=256, got 0"],
    );
}

#[test]
fn player_counts_outside_the_game_are_errors() {
    refused(
        &["match", "151", "--players", "5", "--games", "1"],
        &["--players", "151 is played by 2 to 4 players, got 5"],
    );
    refused(
        &["bench", "lost-cities", "--players", "7", "--envs", "4"],
        &["lost-cities is played by 2 players, got 7"],
    );
    refused(
        &["bench", "flip7", "--players", "2", "--envs", "4"],
        &["num_players must be 1 (solo) or an integer from 3 to 18, got 2"],
    );
    refused(
        &["bench", "flip7", "--players", "19", "--envs", "4"],
        &["flip7 is played by 1 to 18 players, got 19"],
    );
    refused(
        &["match", "holdem", "--players", "2,11", "--games", "1"],
        &["holdem is played by 2 to 10 players, got 11"],
    );
    refused(
        &[
            "match",
            "flip7",
            "--players",
            "4",
            "-o",
            "num_players=5",
            "--games",
            "1",
        ],
        &["give --players or -o num_players, not both"],
    );
    refused(
        &[
            "bench",
            "flip7",
            "--players",
            "4",
            "-o",
            "num_players=5",
            "--envs",
            "4",
        ],
        &["num_players is given twice"],
    );
    refused(
        &["trace", "holdem", "--players", "2,11", "--games", "1"],
        &["holdem is played by 2 to 10 players, got 11"],
    );
    refused(
        &["match", "flip7", "--bots", ",", "--games", "1"],
        &["no bot in"],
    );
}

#[test]
fn zero_counts_are_errors() {
    refused(
        &["bench", "--steps", "0", "--envs", "4"],
        &["--steps: must be at least 1, got 0"],
    );
    refused(&["bench", "--repeats", "0", "--envs", "4"], &["--repeats"]);
    refused(
        &["bench", "--envs", "0"],
        &["--envs must be in 1..=16777216, got 0"],
    );
    refused(
        &["match", "flip7", "--games", "0"],
        &["--games: must be at least 1, got 0"],
    );
    refused(&["diff", "flip7", "--games", "0"], &["--games"]);
    refused(&["trace", "flip7", "--games", "0"], &["--games"]);
    refused(
        &["arena", "match", "--vs", "builtin:random", "--games", "0"],
        &["games must be in 1..="],
    );
    refused(
        &["equity", "AsAh", "KsKh", "--mc", "--trials", "0", "--quiet"],
        &["trials"],
    );
}

#[test]
fn negative_counts_are_refused_by_the_parser() {
    for args in [
        &["bench", "--steps", "-1"][..],
        &["match", "flip7", "--games", "-5"],
        &["equity", "AsAh", "--opponents", "-1"],
    ] {
        let out = cardvec(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!String::from_utf8_lossy(&out.stderr).is_empty());
    }
}

#[test]
fn range_errors_say_what_is_wrong() {
    refused(
        &["equity", "AsAs", "KsKh", "--quiet"],
        &["As twice", "(AA: all six combos)"],
    );
    refused(&["equity", "As", "KsKh", "--quiet"], &["\"As\": 1 card; "]);
}

#[test]
fn weighted_and_percentage_range_errors_say_what_is_wrong() {
    refused(
        &["equity", "AKs:1.5", "QQ", "--quiet"],
        &["AKs:1.5", "0 < weight <= 1"],
    );
    refused(&["equity", "AKs:0", "QQ", "--quiet"], &["0 < weight <= 1"]);
    refused(
        &["equity", "QQ+,AA:0.5", "KK", "--quiet"],
        &["AA:0.5", "a combo gets one weight"],
    );
    refused(&["equity", "0%", "QQ", "--quiet"], &["percentage"]);
    refused(&["equity", "101%", "QQ", "--quiet"], &["at most 100%"]);
    refused(
        &["equity", "AA:0.5", "QQ", "--board", "AsAhAd", "--quiet"],
        &["player 1", "board or dead card"],
    );
}

#[test]
fn weighted_and_percentage_ranges_are_accepted() {
    let out = cardvec(&[
        "equity",
        "AKs:0.5,QQ+,T9s:0.25",
        "15%",
        "--board",
        "2c7d9hKs",
        "--json",
        "--quiet",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["exact"], true);
    let e: Vec<f64> = (0..2)
        .map(|i| v["players"][i]["equity"].as_f64().unwrap())
        .collect();
    assert!((e[0] + e[1] - 1.0).abs() < 1e-9 && e[0] > 0.5, "{e:?}");
}
