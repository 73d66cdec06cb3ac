//! The i151 arena's runner, bots and catalog: forfeits and their reasons, the forfeit
//! penalty, the time limits, determinism, replay round trips and bad input. Every match runs
//! on a fixed clock ([`Clock::FREE`], or decisions of a set cost), so no result depends on
//! how loaded the machine is. (The replay's equality with the official recorder is checked
//! by `python/tests/test_i151_arena.py`.)

use cardvec::arena::catalog;
use std::time::Duration;

use cardvec::arena::replay::Replay;
use cardvec::arena::runner::{
    play_match, play_series_match, ArenaBot, BotFailure, Clock, Decision, EndReason, MatchConfig,
    MatchResult, PolicyBot,
};
use cardvec::core::{Error, Game, LaneRng};
use cardvec::games::i151::*;

/// Plays the first legal action `n` times, then misbehaves.
struct Cheat {
    calls: u32,
    after: u32,
    how: &'static str,
}

impl ArenaBot for Cheat {
    fn decide(&mut self, _game: &I151, d: &Decision<'_>) -> Result<u32, BotFailure> {
        self.calls += 1;
        if self.calls < self.after {
            return Ok(d.legal[0]);
        }
        match self.how {
            "illegal" => Ok((0..38).find(|&a| d.legal_bits >> a & 1 == 0).unwrap()),
            "error" => Err(BotFailure::Error("crashed".into())),
            "timeout" => Err(BotFailure::Timeout),
            "interrupt" => Err(BotFailure::Interrupted),
            _ => unreachable!(),
        }
    }
}

#[test]
fn an_interrupted_decision_stops_the_match_without_a_forfeit() {
    for seat in 0..2 {
        let mut cheat = Cheat {
            calls: 0,
            after: 4,
            how: "interrupt",
        };
        let mut other = greedy(1);
        let bots: [&mut dyn ArenaBot; 2] = if seat == 0 {
            [&mut cheat, &mut other]
        } else {
            [&mut other, &mut cheat]
        };
        let r = play_match(
            &MatchConfig::new(5),
            Clock::FREE,
            bots,
            ["a", "b"],
            "builtin:greedy",
        );
        assert_eq!(
            r.unwrap_err(),
            Error::Cancelled { what: "151 match" },
            "seat {seat}"
        );
        assert_eq!(cheat.calls, 4, "no decision after the interrupted one");
    }
}

fn greedy(seed: u64) -> PolicyBot {
    PolicyBot::new(Box::new(Greedy), LaneRng::from_seed(seed))
}

/// Checks that seat `p1` forfeited with `reason` and that only its hand was added to its
/// score.
fn assert_p1_forfeited(r: &MatchResult, reason: EndReason, what: &str) {
    assert_eq!(r.reason, reason, "{what}");
    assert_eq!(r.forfeited, Some(1));
    assert_eq!(r.winner, Some(0));
    assert_eq!(r.replay.result.reason, reason.as_str());
    assert_eq!(r.replay.result.forfeited_player_id.as_deref(), Some("p1"));
    assert_eq!(r.replay.result.winner_id.as_deref(), Some("p0"));
    // Only the forfeiting seat's hand is added; the other score stands.
    let last = r.replay.rounds.last().unwrap().steps.last().unwrap();
    let snap = &last.snapshot;
    assert_eq!(snap.current_player_id, "p1");
    assert_eq!(r.final_scores[0], snap.scores["p0"]);
    assert_eq!(
        r.final_scores[1],
        snap.scores["p1"] + snap.hand_points["p1"] as i64,
        "{what}"
    );
}

#[test]
fn misbehaving_bots_forfeit_with_the_official_reason() {
    for (how, reason) in [
        ("illegal", EndReason::Forfeit),
        ("error", EndReason::Forfeit),
        ("timeout", EndReason::Timeout),
    ] {
        let mut cfg = MatchConfig::new(77);
        cfg.decision_timeout_ms = 10;
        let mut cheat = Cheat {
            calls: 0,
            after: 6,
            how,
        };
        let mut other = greedy(1);
        let r = play_match(
            &cfg,
            Clock::FREE,
            [&mut other, &mut cheat],
            ["Greedy", "Cheat"],
            "student:x",
        )
        .unwrap();
        assert_p1_forfeited(&r, reason, how);
    }
}

/// A clock on which seat `p0` decides at once and each decision of `p1` takes `p1_ms`.
fn p1_takes(p1_ms: u64) -> Clock {
    Clock::Fixed {
        per_decision: [Duration::ZERO, Duration::from_millis(p1_ms)],
    }
}

#[test]
fn a_decision_slower_than_the_limit_times_out() {
    let mut cfg = MatchConfig::new(77);
    cfg.decision_timeout_ms = 10;
    // Seat p1 deals, so p0 acts first and the replay holds its step before p1's decision.
    cfg.initial_dealer = 1;
    let (mut a, mut b) = (greedy(1), greedy(2));
    let r = play_match(&cfg, p1_takes(11), [&mut a, &mut b], ["A", "B"], "x").unwrap();
    assert_p1_forfeited(&r, EndReason::Timeout, "slow");
    assert_eq!(r.detail.as_deref(), Some("decision took 11 ms"));
    // A decision that takes exactly the limit is in time: the match is played out.
    let (mut a, mut b) = (greedy(1), greedy(2));
    let r = play_match(&cfg, p1_takes(10), [&mut a, &mut b], ["A", "B"], "x").unwrap();
    assert_eq!(r.reason, EndReason::Normal);
}

#[test]
fn the_match_time_limit_forfeits_the_seat_to_act() {
    let mut cfg = MatchConfig::new(77);
    cfg.match_timeout_ms = 200;
    let (mut a, mut b) = (greedy(1), greedy(2));
    let clock = Clock::fixed(Duration::from_millis(5));
    let r = play_match(&cfg, clock, [&mut a, &mut b], ["A", "B"], "x").unwrap();
    assert_eq!(r.reason, EndReason::Timeout);
    assert_eq!(r.detail.as_deref(), Some("match time limit"));
    // 40 decisions of 5 ms reach the limit before the 41st.
    assert_eq!(r.steps_played, 40);
    let seat = r.forfeited.unwrap();
    assert_eq!(r.winner, Some(1 - seat));
}

#[test]
fn the_step_limit_forfeits_the_seat_to_act() {
    let mut cfg = MatchConfig::new(5);
    cfg.max_steps_per_round = 4;
    let (mut a, mut b) = (greedy(1), greedy(2));
    let r = play_match(
        &cfg,
        Clock::FREE,
        [&mut a, &mut b],
        ["A", "B"],
        "builtin:greedy",
    )
    .unwrap();
    assert_eq!(r.reason, EndReason::MaxSteps);
    assert_eq!(r.steps_played, 5);
    assert_eq!(r.replay.rounds[0].steps.len(), 4);
}

#[test]
fn a_time_limit_of_zero_is_an_error() {
    let mut cfg = MatchConfig::new(5);
    cfg.decision_timeout_ms = 0;
    let (mut a, mut b) = (greedy(1), greedy(2));
    let err = play_match(
        &cfg,
        Clock::FREE,
        [&mut a, &mut b],
        ["A", "B"],
        "builtin:greedy",
    )
    .unwrap_err();
    assert!(matches!(err, Error::OutOfRange { .. }), "{err}");
    assert!(err.to_string().contains("decision time limit"));
}

#[test]
fn unknown_opponents_are_errors_listing_the_catalog() {
    let cfg = MatchConfig::new(0);
    let err =
        play_series_match(&cfg, Clock::FREE, "builtin:greedy", "builtin:zeus", 0, 0).unwrap_err();
    assert!(
        matches!(&err, Error::Unknown { what: "opponent", name, .. } if name == "builtin:zeus"),
        "{err}"
    );
    for id in catalog::FULL_LADDER {
        assert!(err.to_string().contains(id), "{err}");
    }
}

#[test]
fn catalog_bots_play_legal_matches_deterministically_and_replays_round_trip() {
    let ids = catalog::FULL_LADDER;
    for g in 0..12u64 {
        let a = ids[(g % 6) as usize];
        let b = ids[((g / 2 + 1) % 6) as usize];
        // The official limits, on a clock where deciding takes no time: minmax_d6 cannot
        // time out however loaded the machine is.
        let cfg = MatchConfig::new(0);
        let (r1, _) = play_series_match(&cfg, Clock::FREE, a, b, 9, g).unwrap();
        let (r2, _) = play_series_match(&cfg, Clock::FREE, a, b, 9, g).unwrap();
        assert_eq!(r1.reason, EndReason::Normal, "{a} vs {b}");
        assert_eq!(r1, r2, "{a} vs {b} not deterministic");
        let json = r1.replay.to_json();
        assert_eq!(Replay::from_json(&json).unwrap(), r1.replay);
        let total: usize = r1.replay.rounds.iter().map(|r| r.steps.len()).sum();
        assert_eq!(total as u64, r1.steps_played);
    }
}

#[test]
fn malformed_replays_are_clear_errors() {
    for text in [
        "",
        "{",
        "[]",
        r#"{"version": 1, "seed": 1}"#,
        r#"{"version": 2, "seed": 1, "config": {"target_score": 151, "cards_per_player": 8}, "players": [], "rounds": [], "result": {"winner_id": null, "final_scores": {}, "reason": "normal"}}"#,
    ] {
        let err = Replay::from_json(text).unwrap_err();
        assert!(err.to_string().contains("151 replay"), "{err}");
    }
}

#[test]
fn greedy_keeps_its_eights_and_medium_answers_an_ace() {
    let game = I151::new(2).unwrap();
    // Find positions where an eight and another card are both playable.
    let mut rng = LaneRng::from_seed(4);
    let (mut checked, mut aces) = (0, 0);
    for seed in 0..300i64 {
        let mut s = game.reset_with_match_seed(seed);
        for _ in 0..80 {
            if s.is_over() {
                break;
            }
            let bits = game.legal_bits(&s);
            let view = game.view(&s, game.current_player(&s));
            let plays = bits as u32;
            let eights = plays & rank_set(EIGHT);
            if eights != 0 && plays & !eights != 0 {
                let a = Greedy.choose(&game, &view, bits, &mut rng);
                assert!(a < 32 && rank_of(a as u8) != EIGHT, "greedy spent an eight");
                checked += 1;
            }
            if view.ace_effect_active && plays & rank_set(ACE) != 0 {
                let a = Medium.choose(&game, &view, bits, &mut rng);
                assert!(a < 32, "medium drew under an ace while holding one");
                aces += 1;
            }
            let a = cardvec::games::i151::RandomPolicy.choose(&game, &view, bits, &mut rng);
            if let Some(w) = game.act(&mut s, a).unwrap() {
                game.finish_round(&mut s, w);
            }
        }
    }
    assert!(checked > 50 && aces > 10, "{checked} {aces}");
}
