//! The fuzz check of the arena's readers (fuzz target `replay`; `tests/fuzz_corpus.rs`
//! replays its corpus): 151 replays ([`Replay::from_json`]) and ladder logs
//! ([`read_log`]), the two files the arena reads back.

use super::ladder::{read_log, Standings, MAX_LOG_BOTS};
use super::replay::{format_replay, Replay};

/// Reads any bytes (as text, invalid UTF-8 replaced) as a replay and as a ladder log: no
/// reader may panic; a replay read must write back (compact and indented) and read back to
/// the same replay and format as text; a log read must write back line by line to the same
/// pairs (the wall time to a relative 1e-12: JSON numbers are read to the nearest float or
/// one next to it), and give standings of at most [`MAX_LOG_BOTS`] bots with win rates
/// and intervals that are numbers (no NaN; `0 <= low <= high <= 1`) and finite Elo
/// ratings. `Err` describes the first broken rule.
pub fn fuzz_check_replay(data: &[u8]) -> Result<(), String> {
    let text = String::from_utf8_lossy(data);
    if let Ok(replay) = Replay::from_json(&text) {
        for json in [replay.to_json(), replay.to_json_pretty()] {
            let back = Replay::from_json(&json)
                .map_err(|e| format!("a written replay is refused: {e}\n{json}"))?;
            if back != replay {
                return Err(format!(
                    "a replay reads back differently\n{text}\n---\n{json}"
                ));
            }
        }
        format_replay(&replay);
    }
    if let Ok(pairs) = read_log(&text) {
        let log: String = pairs.iter().map(|p| p.to_json() + "\n").collect();
        let back = read_log(&log).map_err(|e| format!("a written log is refused: {e}\n{log}"))?;
        let close = |a: f64, b: f64| (a - b).abs() <= 1e-12 * a.abs().max(b.abs());
        let same = back.len() == pairs.len()
            && pairs.iter().zip(&back).all(|(p, q)| {
                close(p.seconds, q.seconds)
                    && *p
                        == super::ladder::PairResult {
                            seconds: p.seconds,
                            ..q.clone()
                        }
            });
        if !same {
            return Err(format!("a log reads back differently\n{text}\n---\n{log}"));
        }
        if pairs.is_empty() {
            return Ok(());
        }
        let standings = Standings::from_pairs(&pairs);
        let n = standings.ids().len();
        if n > MAX_LOG_BOTS {
            return Err(format!("{n} bots in the standings of a log"));
        }
        for i in 0..n {
            for j in 0..n {
                if let Some(p) = standings.win_rate(i, j) {
                    let ok = p.rate >= 0.0 && (0.0..=p.high).contains(&p.low) && p.high <= 1.0;
                    if !ok {
                        return Err(format!("win rate {p:?} of bots {i} and {j}\n{text}"));
                    }
                }
            }
        }
        let elo = standings.elo();
        if elo.iter().any(|x| !x.is_finite()) {
            return Err(format!("Elo ratings {elo:?}\n{text}"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::ladder::PairResult;

    #[test]
    fn deep_json_is_an_error_not_a_stack_overflow() {
        // The typed structs refuse a nested value at its first bracket (and serde_json has
        // a recursion limit, its `unbounded_depth` feature off), on a thread with the
        // default 2 MiB stack.
        std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(|| {
                let deep = "[".repeat(200_000);
                for text in [
                    deep.clone(),
                    format!("{{\"version\":{deep}"),
                    format!("{deep}1{}", "]".repeat(200_000)),
                ] {
                    let err = Replay::from_json(&text).unwrap_err().to_string();
                    assert!(err.contains("151 replay"), "{err}");
                    let err = read_log(&text).unwrap_err().to_string();
                    assert!(err.contains("ladder log: line 1"), "{err}");
                    fuzz_check_replay(text.as_bytes()).unwrap();
                }
            })
            .unwrap()
            .join()
            .unwrap();
    }

    #[test]
    fn the_fuzz_check_passes_on_a_log_and_on_garbage() {
        let pair = PairResult {
            a: "builtin:random".into(),
            b: "builtin:greedy".into(),
            games: 10,
            a_wins: 3,
            ties: 1,
            normal: 9,
            forfeit: 1,
            timeout: 0,
            max_steps: 0,
            seed: 7,
            seconds: 0.1 + 0.2,
            forfeits_by_a: 1,
            forfeits_by_b: 0,
            actions: 99,
        };
        let log = format!("{}\n\n{}\n", pair.to_json(), pair.to_json());
        assert_eq!(read_log(&log).unwrap().len(), 2);
        fuzz_check_replay(log.as_bytes()).unwrap();
        for garbage in [&b""[..], b"{", b"[[[[", b"\xff", b"null"] {
            fuzz_check_replay(garbage).unwrap();
        }
    }
}
