//! `cardvec match` with a policy file as a bot (`policy:<path>`): a tiny network written by
//! the test plays Kuhn poker; a bad file is refused before any game starts.

use cardvec::agents::policy_file::testing::{bytes, metadata, mlp_tensors};

use crate::common::cardvec;

/// Runs `cardvec` with `args`, which must succeed, and parses the first line of its output
/// as JSON.
fn cardvec_json(args: &[&str]) -> serde_json::Value {
    let out = cardvec(args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    serde_json::from_str(text.lines().next().expect("a line of output")).unwrap()
}

/// Kuhn poker: 11 observation values, 2 actions.
fn write_policy(dir: &std::path::Path, name: &str, game: &str) -> String {
    let path = dir.join(name);
    let b = bytes(&mlp_tensors(&[11, 16, 2]), metadata(game, "{}", "relu"));
    std::fs::write(&path, b).unwrap();
    path.display().to_string()
}

#[test]
fn a_policy_file_plays_a_match_and_a_bad_one_is_refused() {
    let dir = std::env::temp_dir().join(format!("cardvec-cli-policy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = write_policy(&dir, "kuhn.safetensors", "kuhn");
    for bot in [format!("policy:{good}"), format!("policy:{good},sample=1")] {
        let line = cardvec_json(&[
            "match", "kuhn", "--a", &bot, "--b", "random", "--games", "20", "--json",
        ]);
        assert_eq!(line["games"], 20, "{line}");
    }

    let other = write_policy(&dir, "leduc.safetensors", "leduc");
    let truncated = dir.join("truncated.safetensors");
    let data = std::fs::read(&good).unwrap();
    std::fs::write(&truncated, &data[..data.len() / 2]).unwrap();
    for (path, want) in [
        (other, "trained on leduc, not kuhn"),
        (truncated.display().to_string(), "truncated"),
        (dir.join("missing").display().to_string(), "cannot read"),
    ] {
        let out = cardvec(&[
            "match",
            "kuhn",
            "--a",
            &format!("policy:{path}"),
            "--b",
            "random",
            "--games",
            "20",
        ]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            !out.status.success() && err.contains(want),
            "{want:?} not in {err}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `cardvec ladder --bots` takes policy files with their options (`policy:<path>,sample=1`
/// stays one bot), and a path with a comma in it.
#[test]
fn a_ladder_rates_policy_files_among_the_bots() {
    let dir =
        std::env::temp_dir().join(format!("cardvec-cli-ladder-policy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = write_policy(&dir, "kuhn.safetensors", "kuhn");
    let list = format!("random,policy:{path},sample=1,policy:{path}");
    let out = cardvec(&[
        "ladder", "kuhn", "--bots", &list, "--games", "40", "--json", "-q",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_str(
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .last()
            .unwrap(),
    )
    .unwrap();
    let names: Vec<String> = report["spec"]["bots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b.as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        names,
        [
            "random".to_string(),
            format!("policy:{path},sample=1"),
            format!("policy:{path}")
        ]
    );
    assert_eq!(report["bots"].as_array().unwrap().len(), 3);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `cardvec serve --policy NAME=PATH` checks every file and name before it listens: a
/// missing or truncated file, a name of the game's own bots, a name given twice are errors.
#[test]
fn serve_refuses_a_bad_policy_before_it_starts() {
    let dir = std::env::temp_dir().join(format!("cardvec-cli-serve-policy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = write_policy(&dir, "kuhn.safetensors", "kuhn");
    let truncated = dir.join("truncated.safetensors");
    let data = std::fs::read(&good).unwrap();
    std::fs::write(&truncated, &data[..data.len() / 2]).unwrap();
    let missing = dir.join("missing.safetensors");
    for (policies, want) in [
        (vec![format!("net={}", missing.display())], "cannot read"),
        (vec![format!("net={}", truncated.display())], "truncated"),
        (vec![format!("random={good}")], "one of kuhn's own bots"),
        (
            vec![format!("net={good}"), format!("net={good}")],
            "given twice",
        ),
        (vec!["net".to_string()], "expected NAME=PATH"),
    ] {
        let mut args = vec!["serve".to_string(), "--port".into(), "0".into()];
        for p in &policies {
            args.push("--policy".into());
            args.push(p.clone());
        }
        let args: Vec<&str> = args.iter().map(|s| s.as_str()).collect();
        let out = cardvec(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            !out.status.success() && err.contains(want),
            "{want:?} not in {err}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The committed Lost Cities policy (`models/lost_cities_imitation.safetensors`, written by
/// `examples/imitate_lost_cities.py`, docs/policies.md) loads and plays whole games through
/// `cardvec match` in both seats (a match stops on an illegal move), every game counted.
/// Its strength is a documented figure, not asserted here.
#[test]
fn the_committed_lost_cities_policy_plays_a_match() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../models/lost_cities_imitation.safetensors"
    );
    let line = cardvec_json(&[
        "match",
        "lost-cities",
        "--a",
        &format!("policy:{path}"),
        "--b",
        "safe-heuristic",
        "--games",
        "40",
        "--json",
    ]);
    assert_eq!(line["games"], 40, "{line}");
    let counted = ["a_wins", "ties", "a_losses"]
        .iter()
        .map(|k| line[k].as_u64().unwrap())
        .sum::<u64>();
    assert_eq!(counted, 40, "{line}");
}

/// The committed Flip 7 policy (`models/flip7_imitation.safetensors`, written by
/// `examples/imitate_flip7.py` for 3 seats) loads and plays whole 3-seat games through
/// `cardvec match` against two `expected-value` bots, seats rotated, every game counted in
/// its standings (a match stops on an illegal move). Its strength is a documented figure
/// (docs/python.md), not asserted here.
#[test]
fn the_committed_flip7_policy_plays_a_three_seat_match() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../models/flip7_imitation.safetensors"
    );
    let bots = format!("policy:{path},expected-value,expected-value");
    let line = cardvec_json(&[
        "match",
        "flip7",
        "--players",
        "3",
        "--bots",
        &bots,
        "--games",
        "12",
        "--seed",
        "31",
        "--json",
    ]);
    assert_eq!(line["games"], 12, "{line}");
    assert_eq!(line["truncated"], 0, "{line}");
    let standings = line["standings"].as_array().unwrap();
    assert_eq!(standings.len(), 3, "{line}");
    assert_eq!(standings[0]["bot"], format!("policy:{path}").as_str());
    assert!(standings.iter().all(|s| s["seats"] == 12), "{line}");
    // Every game has a winner (tied leaders share it): the win rates sum to 1.
    let total: f64 = standings
        .iter()
        .map(|s| s["win_rate"].as_f64().unwrap())
        .sum();
    assert!((total - 1.0).abs() < 1e-9, "{line}");
}

/// `cardvec arena match` and `arena ladder` take a policy file trained on 151 (a tiny
/// network written by the test) as a bot; one trained with other rules is refused.
#[test]
fn the_151_arena_takes_a_policy_file() {
    let dir = std::env::temp_dir().join(format!("cardvec-cli-arena-policy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let write = |name: &str, options: &str| {
        let path = dir.join(name);
        // 151 with 2 seats: 142 observation values, 38 actions.
        let b = bytes(
            &mlp_tensors(&[142, 16, 38]),
            metadata("151", options, "tanh"),
        );
        std::fs::write(&path, b).unwrap();
        format!("policy:{}", path.display())
    };
    let net = write("net.safetensors", "{}");
    let out = cardvec(&[
        "arena",
        "match",
        "--bot",
        &net,
        "--vs",
        "builtin:random",
        "--games",
        "4",
        "--quiet",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("forfeit=0"), "{text}");
    let sampled = format!("{net},sample=1");
    let bots = format!("builtin:random,{sampled}");
    let out = cardvec(&[
        "arena", "ladder", "--bots", &bots, "--games", "2", "--quiet",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains(&sampled));
    let seven = write("seven.safetensors", r#"{"cards_per_player": 7}"#);
    let out = cardvec(&[
        "arena",
        "match",
        "--bot",
        &seven,
        "--vs",
        "builtin:random",
        "--games",
        "2",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("cards_per_player"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
