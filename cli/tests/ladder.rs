//! `cardvec ladder`: the standings of any game's bots, resumable from the `--jsonl` log;
//! bad arguments and logs are clear errors that leave the log alone.

use crate::common::cardvec;

fn ok(args: &[&str]) -> String {
    let out = cardvec(args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn fails(args: &[&str], needle: &str) {
    let out = cardvec(args);
    assert!(!out.status.success(), "{args:?} succeeded");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(needle), "{args:?}: {err}");
}

const BASE: [&str; 8] = [
    "ladder",
    "lost-cities",
    "--bots",
    "random,discard-only,safe-heuristic",
    "--games",
    "6",
    "-q",
    "--json",
];

#[test]
fn a_resumed_ladder_prints_what_an_uninterrupted_one_prints() {
    let dir = std::env::temp_dir().join(format!("cardvec-ladder-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("ladder.jsonl");
    let _ = std::fs::remove_file(&log);
    let log_s = log.to_str().unwrap();
    let whole = ok(&[&BASE[..], &["--threads", "1"]].concat());
    let logged = ok(&[&BASE[..], &["--threads", "2", "--jsonl", log_s]].concat());
    assert_eq!(whole, logged);
    let text = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 1 + 9, "a header and 3 pairs x 3 deals");
    // Interrupted after the header and two deals: the rerun finishes it.
    std::fs::write(&log, format!("{}\n", lines[..3].join("\n"))).unwrap();
    let resumed = ok(&[&BASE[..], &["--jsonl", log_s]].concat());
    assert_eq!(resumed, whole);
    assert_eq!(std::fs::read_to_string(&log).unwrap().lines().count(), 10);
    let report: serde_json::Value = serde_json::from_str(whole.trim()).unwrap();
    assert_eq!(report["games"], 18);
    assert_eq!(report["model"], "Bradley-Terry");
    let text_out = ok(&BASE[..7]);
    assert!(text_out.contains("ratings (Bradley-Terry"), "{text_out}");

    // Another ladder's log, and a corrupt log, are refused and left as they were.
    let before = std::fs::read_to_string(&log).unwrap();
    fails(
        &[
            "ladder",
            "lost-cities",
            "--bots",
            "random,safe-heuristic",
            "--games",
            "6",
            "-q",
            "--jsonl",
            log_s,
        ],
        "another ladder",
    );
    std::fs::write(&log, format!("{before}{{\"unit\":\n")).unwrap();
    fails(&[&BASE[..], &["--jsonl", log_s]].concat(), "ladder log");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_arguments_are_clear_errors() {
    fails(
        &["ladder", "lost-cities", "--bots", "random,nobody", "-q"],
        "nobody",
    );
    fails(
        &["ladder", "lost-cities", "--bots", "random", "-q"],
        "at least 2",
    );
    fails(
        &[
            "ladder",
            "lost-cities",
            "--bots",
            "random,safe-heuristic",
            "--games",
            "0",
        ],
        "--games",
    );
    fails(
        &[
            "ladder",
            "flip7",
            "--players",
            "4",
            "--bots",
            "random,threshold-20,expected-value",
        ],
        "at least 4",
    );
    fails(&["ladder", "no-such-game", "--bots", "a,b"], "no-such-game");
}

#[test]
fn a_multi_seat_ladder_rates_by_plackett_luce() {
    let out = ok(&[
        "ladder",
        "flip7",
        "--players",
        "3",
        "--bots",
        "random,threshold-20,expected-value,threshold-25",
        "--games",
        "12",
        "-q",
        "--json",
        "--threads",
        "2",
    ]);
    let r: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(r["model"], "Plackett-Luce");
    assert_eq!(r["games"], 12);
    assert_eq!(r["spec"]["seats"], 3);
}

/// `--timing` adds each bot's time per decision and changes nothing else of the report;
/// a search bot's budget in milliseconds works in a ladder.
#[test]
fn timing_adds_the_time_per_decision_and_nothing_else() {
    let plain: serde_json::Value =
        serde_json::from_str(ok(&[&BASE[..], &["--threads", "1"]].concat()).trim()).unwrap();
    let timed: serde_json::Value =
        serde_json::from_str(ok(&[&BASE[..], &["--threads", "1", "--timing"]].concat()).trim())
            .unwrap();
    assert!(plain.get("timing").is_none());
    let timing = timed["timing"].as_array().unwrap().clone();
    assert_eq!(timing.len(), 3);
    for (t, bot) in timing
        .iter()
        .zip(["random", "discard-only", "safe-heuristic"])
    {
        assert_eq!(t["bot"], bot);
        assert!(t["decisions"].as_u64().unwrap() > 0, "{t}");
        assert!(t["seconds"].as_f64().unwrap() >= 0.0, "{t}");
    }
    let mut without = timed.clone();
    without.as_object_mut().unwrap().remove("timing");
    assert_eq!(without, plain);
    let text = ok(&[
        "ladder",
        "kuhn",
        "--bots",
        "random,pimc:ms=1,playout=always-bet,ismcts:iters=5,c=1",
        "--games",
        "4",
        "-q",
        "--timing",
    ]);
    assert!(text.contains("time per decision"), "{text}");
    assert!(text.contains("pimc:ms=1,playout=always-bet "), "{text}");
    assert!(text.contains("ismcts:iters=5,c=1 "), "{text}");
}
