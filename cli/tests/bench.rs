//! `cardvec bench`: the first-game statistic and `--memset` (shape of the report only; no
//! test depends on a timing).

use std::process::Command;

fn bench_json(args: &[&str]) -> serde_json::Value {
    let out = Command::new(env!("CARGO_BIN_EXE_cardvec"))
        .arg("bench")
        .args(args)
        .args(["--steps", "4", "--repeats", "1", "--json"])
        .output()
        .expect("cardvec runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

/// Every lane's first game is played to its end, however short the timed window: 64 Lost
/// Cities games of at least 44 plies each (the deck after the deal), counted once each,
/// although the window is 4 + 8 steps.
#[test]
fn first_games_are_whole_games() {
    let r = bench_json(&["lost-cities", "--envs", "64"]);
    let g = &r["first_games"];
    assert_eq!(g["games"], 64);
    assert_eq!(g["unfinished"], 0);
    let mean = g["mean_length"].as_f64().unwrap();
    assert!((44.0..=400.0).contains(&mean), "{mean}");
    for m in r["modes"].as_array().unwrap() {
        assert!(m["memset_steps_per_sec"].is_null());
    }
}

/// `--memset` reports the fill rate and the fraction for both modes, with the bytes per step
/// of each: the mask alone, then mask and f32 row.
#[test]
fn memset_reports_a_fraction_per_mode() {
    let r = bench_json(&[
        "lost-cities",
        "-o",
        "obs_layout=channel-major",
        "--envs",
        "64",
        "--memset",
    ]);
    assert_eq!(r["options"], "obs_layout=channel-major");
    let modes = r["modes"].as_array().unwrap();
    assert_eq!(modes[0]["bytes_per_step"], 96);
    assert_eq!(modes[1]["bytes_per_step"], 96 + 454 * 4);
    for m in modes {
        let (rate, fraction) = (
            m["memset_steps_per_sec"].as_f64().unwrap(),
            m["fraction_of_memset"].as_f64().unwrap(),
        );
        assert!(rate > 0.0 && fraction > 0.0, "{m}");
        let expected = m["env_steps_per_sec"].as_f64().unwrap() / rate;
        assert!((fraction - expected).abs() <= 1e-9 * expected, "{m}");
    }
}

/// `--obs-seats all` times the observed modes with every seat's rows (labelled `_seats`,
/// the bytes per step still the mask and one row); with `u8` rows it is an error.
#[test]
fn obs_seats_all_labels_the_observed_modes() {
    let r = bench_json(&["lost-cities", "--envs", "64", "--obs-seats", "all"]);
    assert_eq!(r["obs_seats"], "all");
    let modes = r["modes"].as_array().unwrap();
    assert_eq!(modes[0]["mode"], "step+mask");
    assert_eq!(modes[1]["mode"], "step+mask+obs_f32_seats");
    assert_eq!(modes[1]["bytes_per_step"], 96 + 454 * 4);
    assert!(modes[1]["live_steps"].as_u64().unwrap() > 0);
    let out = Command::new(env!("CARGO_BIN_EXE_cardvec"))
        .args(["bench", "kuhn", "--steps", "2", "--repeats", "1"])
        .args(["--obs-seats", "all", "--obs-dtype", "u8"])
        .output()
        .expect("cardvec runs");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("obs_seats"), "{err}");
    let out = Command::new(env!("CARGO_BIN_EXE_cardvec"))
        .args(["bench", "kuhn", "--obs-seats", "both"])
        .output()
        .expect("cardvec runs");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("acting, all"), "{err}");
}
