use std::sync::Mutex;

use super::*;
use crate::core::progress::Silent;
use crate::core::Game;
use crate::games::lost_cities::LostCities;

fn names(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

fn spec(game: &str, options: &str, bots: &[&str], games: u64) -> Result<LadderSpec> {
    let info = registry::info(game)?;
    LadderSpec::new(
        game,
        &Options::parse(info.options, options)?,
        &names(bots),
        games,
        7,
        None,
    )
}

fn run(
    spec: &LadderSpec,
    done: Vec<UnitRecord>,
    threads: usize,
) -> (LadderReport, Vec<UnitRecord>) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    let mut logged = Vec::new();
    let report = pool
        .install(|| {
            play(spec, done, &Silent, &mut |u| {
                logged.push(u.clone());
                Ok(())
            })
        })
        .unwrap();
    (report, logged)
}

/// A bot that plays the first legal action and records, for the first decision of each
/// game it sees, the state and who it is: the state a deal starts from.
struct Recorder<'a> {
    name: &'static str,
    first: &'a Mutex<Vec<(&'static str, usize, LostCitiesStateText)>>,
}

type LostCitiesStateText = String;

impl Bot<LostCities> for Recorder<'_> {
    fn name(&self) -> &str {
        self.name
    }
    fn act(
        &self,
        game: &LostCities,
        state: &<LostCities as Game>::State,
        mask: &[u8],
        _rng: &mut LaneRng,
    ) -> u32 {
        let mut first = self.first.lock().unwrap();
        if first.is_empty() {
            first.push((self.name, game.current_player(state), format!("{state:?}")));
        }
        mask.iter().position(|&m| m != 0).unwrap() as u32
    }
}

#[test]
fn duplicate_deals_replay_the_same_cards_with_the_seats_swapped() {
    let game =
        LostCities::configure(&Options::parse(LostCities::INFO.options, "").unwrap()).unwrap();
    let first = |deal: u64, rotation: u64| {
        let log = Mutex::new(Vec::new());
        let a = Recorder {
            name: "a",
            first: &log,
        };
        let b = Recorder {
            name: "b",
            first: &log,
        };
        let bots: [&dyn Bot<LostCities>; 2] = [&a, &b];
        play_deal(&game, &bots, 3, deal, rotation, None);
        log.into_inner().unwrap().remove(0)
    };
    for deal in 0..4 {
        let (bot0, seat0, state0) = first(deal, 0);
        let (bot1, seat1, state1) = first(deal, 1);
        assert_eq!(state0, state1, "deal {deal}: the rotations start alike");
        assert_eq!(seat0, seat1);
        assert_ne!(bot0, bot1, "deal {deal}: the other bot holds that seat");
        assert_ne!(state0, first(deal + 1, 0).2, "deals differ");
    }
    // In the ladder, each unit is one deal at both rotations: the same bot pair, and a
    // deterministic pair swapped over the same cards gives opposite-sign games.
    let s = spec("lost-cities", "", &["discard-only", "safe-heuristic"], 6).unwrap();
    let records = play_units(&s, 0, s.units().unwrap()).unwrap();
    assert_eq!(records.len(), 3);
    for r in &records {
        assert_eq!(r.bots, names(&["discard-only", "safe-heuristic"]));
        assert_eq!(r.games.len(), 2);
    }
}

#[test]
fn resuming_from_a_log_gives_the_uninterrupted_standings() {
    for (game, options, bots, games) in [
        (
            "lost-cities",
            "",
            &["random", "discard-only", "safe-heuristic"][..],
            8,
        ),
        (
            "flip7",
            "num_players=3",
            &["random", "threshold-20", "expected-value", "threshold-25"][..],
            12,
        ),
    ] {
        let s = spec(game, options, bots, games).unwrap();
        let (whole, log) = run(&s, Vec::new(), 1);
        assert_eq!(log.len() as u64, s.units().unwrap());
        assert_eq!(whole.units_done, whole.units);
        assert_eq!(whole.games, s.total_games().unwrap());
        // Through the log's text, cut after some lines (and shuffled: order is not needed).
        let mut text = format!("{}\n", s.to_json());
        for r in &log {
            text.push_str(&r.to_json());
            text.push('\n');
        }
        let (read, records) = read_log(&text).unwrap();
        assert_eq!(read, s);
        assert_eq!(records, log);
        for cut in [0, 1, log.len() / 2, log.len()] {
            let mut done: Vec<UnitRecord> = log[..cut].to_vec();
            done.reverse();
            let (resumed, new) = run(&s, done, 2);
            assert_eq!(resumed, whole, "{game}: resumed after {cut} units");
            assert_eq!(
                new,
                log[cut..].to_vec(),
                "{game}: only the missing units are played"
            );
        }
        // A partial report counts only what it was given.
        let partial = report(&s, &log[..1]).unwrap();
        assert_eq!(partial.units_done, 1);
        assert_eq!(partial.games, s.seats as u64);
        assert_eq!(report(&s, &log).unwrap(), whole);
    }
}

#[test]
fn results_do_not_depend_on_the_thread_count() {
    let s = spec(
        "flip7",
        "num_players=3",
        &["random", "threshold-20", "expected-value"],
        9,
    )
    .unwrap();
    let (one, log1) = run(&s, Vec::new(), 1);
    let (two, log2) = run(&s, Vec::new(), 2);
    assert_eq!(one, two);
    assert_eq!(log1, log2);
    let s = spec("lost-cities", "", &["random", "safe-heuristic"], 10).unwrap();
    assert_eq!(run(&s, Vec::new(), 1), run(&s, Vec::new(), 2));
}

#[test]
fn the_standings_add_up_and_rank_the_strong_bot_first() {
    let s = spec("lost-cities", "", &["random", "safe-heuristic"], 40).unwrap();
    let (r, _) = run(&s, Vec::new(), 2);
    assert_eq!(r.model, "Bradley-Terry");
    assert_eq!(r.games, 40);
    assert_eq!(r.bots[0].games, 40);
    assert_eq!(r.pairs.len(), 1);
    let p = &r.pairs[0];
    assert_eq!((p.games, p.deals), (40, 20));
    // Lost Cities is zero-sum: win shares of the pair add to 1, and the difference is
    // twice the mean reward.
    let shares = r.bots[0].win_share.value + r.bots[1].win_share.value;
    assert!((shares - 1.0).abs() < 1e-12);
    assert!((p.difference.value - 2.0 * r.bots[0].reward.value).abs() < 1e-9);
    assert!(p.score.high < 0.5, "random loses to safe-heuristic: {p:?}");
    let (anchor, strong) = (
        r.bots[0]
            .rating
            .unwrap_or_else(|| panic!("{:?}", r.ratings_error)),
        r.bots[1].rating.unwrap(),
    );
    assert_eq!(anchor.rating, 1000.0);
    assert!(strong.low > 1000.0, "{strong:?}");
    // Three seats: Plackett-Luce, every game seats 3 of the 4 bots.
    let s = spec(
        "flip7",
        "num_players=3",
        &["random", "threshold-20", "expected-value", "threshold-25"],
        30,
    )
    .unwrap();
    let (r, log) = run(&s, Vec::new(), 2);
    assert_eq!(r.model, "Plackett-Luce");
    assert_eq!(r.games, 30);
    assert_eq!(r.bots.iter().map(|b| b.games).sum::<u64>(), 90);
    for u in &log {
        let mut t = u.bots.clone();
        t.sort();
        t.dedup();
        assert_eq!(t.len(), 3, "a table of distinct bots: {:?}", u.bots);
    }
    let tables: std::collections::BTreeSet<Vec<String>> =
        log.iter().map(|u| u.bots.clone()).collect();
    assert!(tables.len() > 1, "tables are drawn, not fixed");
}

#[test]
fn bad_ladders_and_logs_are_clear_errors() {
    let err = |r: Result<LadderSpec>| r.unwrap_err().to_string();
    assert!(err(spec("lost-cities", "", &["random", "nobody"], 10)).contains("nobody"));
    assert!(err(spec("lost-cities", "", &["random"], 10)).contains("at least 2"));
    assert!(err(spec(
        "flip7",
        "num_players=4",
        &["random", "threshold-20", "expected-value"],
        10
    ))
    .contains("at least 4"));
    assert!(err(spec("lost-cities", "", &["random", "safe-heuristic"], 0)).contains("games"));
    assert!(err(spec("lost-cities", "", &["random", "random"], 10)).contains("twice"));
    assert!(
        err(spec("no-such-game", "", &["random", "safe-heuristic"], 10)).contains("no-such-game")
    );

    let s = spec("lost-cities", "", &["random", "safe-heuristic"], 4).unwrap();
    let records = play_units(&s, 0, 2).unwrap();
    assert!(play_units(&s, 1, 2).is_err(), "past the schedule's end");
    let header = s.to_json();
    let line = records[0].to_json();
    let bad_logs = [
        String::new(),
        "not json\n".to_string(),
        format!("{header}\n{{\"unit\":0}}\n"),
        format!("{header}\n{line}\n{line}\n"),
        format!(
            "{header}\n{}\n",
            line.replacen("\"unit\":0", "\"unit\":9", 1)
        ),
        format!(
            "{header}\n{}\n",
            line.replacen("safe-heuristic", "discard-only", 1)
        ),
        format!("{}\n", header.replacen("\"seats\":2", "\"seats\":3", 1)),
        format!("{}\n", header.replacen("\"ladder\":1", "\"ladder\":99", 1)),
        format!("{}\n", header.replacen("random", "nobody", 1)),
    ];
    for text in &bad_logs {
        match read_log(text) {
            Err(Error::Invalid { what, .. }) => assert_eq!(what, "ladder log", "{text}"),
            other => panic!("{text:?} read as {other:?}"),
        }
    }
    // A record of another ladder handed to play is refused before anything is played.
    let other = spec("lost-cities", "", &["random", "discard-only"], 4).unwrap();
    let foreign = play_units(&other, 0, 1).unwrap();
    assert!(play(&s, foreign, &Silent, &mut |_| panic!("nothing is played")).is_err());
}

#[test]
fn ladder_pairs_put_neighbours_first() {
    assert_eq!(
        ladder_pairs(4),
        vec![(0, 1), (1, 2), (2, 3), (0, 2), (1, 3), (0, 3)]
    );
    assert!(ladder_pairs(1).is_empty());
}
