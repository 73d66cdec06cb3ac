//! The search bots (`cardvec::agents::pimc`, `cardvec::agents::ismcts`) over every game of
//! the registry, with tiny budgets:
//!
//! - **no peeking**: given two states that differ only in cards its seat cannot see (the
//!   second a determinization of the first), each returns the same action values (pimc)
//!   or root visits and values (ismcts), so the same action, from the same stream;
//! - their action does not depend on the thread count of their rollouts;
//! - the batched rollouts return what the same rollouts played one state at a time return;
//! - its name works where bot names work (`registry::bot_actions` on a batch environment),
//!   and bad names are errors naming what is accepted;
//! - it is a search: on Lost Cities it beats the random bot it plays out with;
//! - a millisecond budget (`ms=`) returns a legal action in every game (how many
//!   simulations fit is the machine's business: no assertion on speed), and a name with
//!   two budgets or a zero budget is an error.

use cardvec::agents::{self, ismcts::Ismcts, pimc::Pimc};
use cardvec::core::matches::head_to_head;
use cardvec::core::policy::random_legal;
use cardvec::core::rollout::{
    rollout_returns, rollout_returns_serial, rollouts_serial, rollouts_serial_until, rollouts_until,
};
use cardvec::core::spec::{GameSpec, Options};
use cardvec::core::{EnvOptions, Game, LaneRng};
use cardvec::games::flip7::Flip7;
use cardvec::games::i151::I151;
use cardvec::games::lost_cities::LostCities;
use cardvec::registry::{self, Visitor};

/// Live states with at least two legal actions from a few random games (at most `limit`).
fn decision_states<G: Game>(game: &G, limit: usize) -> Vec<G::State> {
    let mut out = Vec::new();
    let mut mask = vec![0u8; game.num_actions()];
    let mut rewards = vec![0f32; game.num_players()];
    for seed in 0..20u64 {
        let mut deal = LaneRng::for_lane(seed, 0, 0);
        let mut policy = LaneRng::for_lane(seed, 1, 0);
        let mut state = game.reset(&mut deal);
        for ply in 0.. {
            let (t, u) = game.finished(&state);
            if t || u || out.len() >= limit {
                break;
            }
            game.legal_mask(&state, &mut mask);
            if (seed + ply) % 7 == 0 && mask.iter().filter(|&&m| m != 0).count() >= 2 {
                out.push(state);
            }
            rewards.fill(0.0);
            game.step(
                &mut state,
                random_legal(&mask, &mut policy),
                &mut deal,
                &mut rewards,
            );
        }
    }
    out
}

struct Checks;

impl Visitor for Checks {
    type Output = String;
    fn visit<G: GameSpec>(&mut self) -> String {
        let id = G::INFO.id;
        let options = Options::parse(G::INFO.options, G::INFO.configurations[0]).unwrap();
        let game = G::configure(&options).unwrap();
        let det = G::determinizer().unwrap();
        let one = Pimc::parse(&game, "pimc:sims=3,threads=1").unwrap();
        let two = Pimc::parse(&game, "pimc:sims=3,threads=2").unwrap();
        let halving = Pimc::parse(&game, "pimc:sims=3,halving=1").unwrap();
        let states = decision_states(&game, 6);
        assert!(states.len() >= 3, "{id}: {} decision states", states.len());
        let mut mask = vec![0u8; game.num_actions()];
        let mut differ = 0;
        for (i, state) in states.iter().enumerate() {
            let seat = game.current_player(state);
            game.legal_mask(state, &mut mask);
            let rng = LaneRng::for_lane(9, i as u64, 0);
            let values = one.evaluate(&game, state, &mask, &mut rng.clone()).unwrap();
            assert_eq!(values.len(), mask.iter().filter(|&&m| m != 0).count());
            // No peeking: a state the seat cannot tell from this one.
            let other = det(&game, state, seat, &mut LaneRng::from_seed(1000 + i as u64));
            differ += (bytemuck::bytes_of(&other) != bytemuck::bytes_of(state)) as usize;
            assert_eq!(
                one.evaluate(&game, &other, &mask, &mut rng.clone())
                    .unwrap(),
                values,
                "{id} state {i}: the values depend on hidden cards"
            );
            use cardvec::core::Bot;
            let action = one.act(&game, state, &mask, &mut rng.clone());
            assert_eq!(
                one.act(&game, &other, &mask, &mut rng.clone()),
                action,
                "{id} state {i}"
            );
            assert_eq!(
                two.act(&game, state, &mask, &mut rng.clone()),
                action,
                "{id} state {i}: threads"
            );
            assert_eq!(mask[action as usize], 1);
            let halved = halving
                .evaluate(&game, state, &mask, &mut rng.clone())
                .unwrap();
            assert_eq!(
                halving
                    .evaluate(&game, &other, &mask, &mut rng.clone())
                    .unwrap(),
                halved,
                "{id} state {i}: halving"
            );
            // Sequential halving spends about the same budget (at least one world per
            // surviving action and round).
            let spent: u64 = halved.iter().map(|v| v.2).sum();
            assert!(
                spent <= 2 * 3 * values.len() as u64,
                "{id}: {spent} rollouts"
            );
        }
        assert!(differ > 0, "{id}: no state had hidden cards to redeal");
        // The win value, common random numbers and (where the game has an estimate of the
        // win) the horizon: no peeking, 1 = 2 threads.
        let mut names = vec!["pimc:sims=3,value=win", "pimc:sims=3,value=win,crn=1"];
        let estimate = game.win_estimate();
        if estimate.is_some() {
            names.push("pimc:sims=3,value=win,crn=1,horizon=1");
            names.push("pimc:sims=3,value=win,horizon=2,halving=1");
        }
        for name in names {
            let one = Pimc::parse(&game, &format!("{name},threads=1")).unwrap();
            let two = Pimc::parse(&game, &format!("{name},threads=2")).unwrap();
            for (i, state) in states.iter().enumerate() {
                let seat = game.current_player(state);
                game.legal_mask(state, &mut mask);
                let rng = LaneRng::for_lane(19, i as u64, 0);
                let values = one.evaluate(&game, state, &mask, &mut rng.clone()).unwrap();
                assert!(
                    values.iter().all(|v| (0.0..=1.0).contains(&v.1)),
                    "{id} {name}: {values:?}"
                );
                let other = det(&game, state, seat, &mut LaneRng::from_seed(3000 + i as u64));
                assert_eq!(
                    one.evaluate(&game, &other, &mask, &mut rng.clone())
                        .unwrap(),
                    values,
                    "{id} {name} state {i}: the values depend on hidden cards"
                );
                assert_eq!(
                    two.evaluate(&game, state, &mask, &mut rng.clone()).unwrap(),
                    values,
                    "{id} {name} state {i}: threads"
                );
            }
        }
        // Batched and serial rollouts agree, also stopped at a horizon.
        let playout = game.bot("random").unwrap();
        if let Some(e) = &estimate {
            let starts: Vec<(G::State, u32)> = states
                .iter()
                .map(|s| {
                    game.legal_mask(s, &mut mask);
                    (*s, mask.iter().position(|&m| m != 0).unwrap() as u32)
                })
                .collect();
            let at = states.iter().map(|s| e.stage(&game, s)).min().unwrap() + 1;
            let stop = |s: &G::State| e.stage(&game, s) >= at;
            let batched = rollouts_until(&game, &starts, &*playout, 4, Some(2), &stop).unwrap();
            let serial = rollouts_serial_until(&game, &starts, &*playout, 4, &stop).unwrap();
            assert_eq!(
                batched, serial,
                "{id}: batched and serial stopped rollouts differ"
            );
            let whole = rollouts_serial(&game, &starts, &*playout, 4).unwrap();
            let stopped = serial.ends.iter().filter(|&s| !game.finished(s).0).count();
            assert!(
                stopped > 0 && serial != whole,
                "{id}: no rollout stopped early"
            );
        }
        let starts: Vec<(G::State, u32)> = states
            .iter()
            .map(|s| {
                game.legal_mask(s, &mut mask);
                (*s, mask.iter().position(|&m| m != 0).unwrap() as u32)
            })
            .collect();
        let batched = rollout_returns(&game, &starts, &*playout, 4, Some(2)).unwrap();
        let serial = rollout_returns_serial(&game, &starts, &*playout, 4).unwrap();
        assert_eq!(batched, serial, "{id}: batched and serial rollouts differ");
        // The names work where bot names work.
        let env = registry::make(id, vec![], EnvOptions::new(3)).unwrap();
        let mut out = vec![0i64; 3];
        for name in ["pimc:sims=2", "ismcts:iters=8"] {
            registry::bot_actions(&*env, name, None, 1, &mut out).unwrap();
            assert!(out.iter().all(|&a| a >= 0), "{id} {name}: {out:?}");
        }
        format!(
            "{id}: {} states, no peeking, 1 = 2 threads, batched = serial",
            states.len()
        )
    }
}

/// The `ismcts` checks of one game: no peeking, 1 = 2 threads (batched rounds), every
/// iteration counted at the root.
struct IsmctsChecks;

impl Visitor for IsmctsChecks {
    type Output = String;
    fn visit<G: GameSpec>(&mut self) -> String {
        use cardvec::core::Bot;
        let id = G::INFO.id;
        let options = Options::parse(G::INFO.options, G::INFO.configurations[0]).unwrap();
        let game = G::configure(&options).unwrap();
        let det = G::determinizer().unwrap();
        let serial = Ismcts::parse(&game, "ismcts:iters=24").unwrap();
        let one = Ismcts::parse(&game, "ismcts:iters=24,batch=5,threads=1").unwrap();
        let two = Ismcts::parse(&game, "ismcts:iters=24,batch=5,threads=2").unwrap();
        let reward = Ismcts::parse(&game, "ismcts:iters=24,value=reward,c=2").unwrap();
        let states = decision_states(&game, 6);
        let mut mask = vec![0u8; game.num_actions()];
        let mut differ = 0;
        for (i, state) in states.iter().enumerate() {
            let seat = game.current_player(state);
            game.legal_mask(state, &mut mask);
            let rng = LaneRng::for_lane(11, i as u64, 0);
            let other = det(&game, state, seat, &mut LaneRng::from_seed(2000 + i as u64));
            differ += (bytemuck::bytes_of(&other) != bytemuck::bytes_of(state)) as usize;
            for bot in [&serial, &one, &reward] {
                let root = bot.evaluate(&game, state, &mut rng.clone()).unwrap();
                let visits: u64 = root.iter().map(|c| c.2).sum();
                assert_eq!(visits, 24, "{id} state {i} {}: {root:?}", bot.name());
                assert!(root.iter().all(|&(a, _, _)| mask[a as usize] == 1));
                assert_eq!(
                    bot.evaluate(&game, &other, &mut rng.clone()).unwrap(),
                    root,
                    "{id} state {i} {}: the search depends on hidden cards",
                    bot.name()
                );
                let action = bot.act(&game, state, &mask, &mut rng.clone());
                assert_eq!(mask[action as usize], 1);
                assert_eq!(bot.act(&game, &other, &mask, &mut rng.clone()), action);
            }
            assert_eq!(
                two.evaluate(&game, state, &mut rng.clone()).unwrap(),
                one.evaluate(&game, state, &mut rng.clone()).unwrap(),
                "{id} state {i}: threads"
            );
        }
        assert!(differ > 0, "{id}: no state had hidden cards to redeal");
        format!("{id}: ismcts no peeking, 1 = 2 threads")
    }
}

#[test]
fn pimc_never_peeks_and_is_reproducible_in_every_game() {
    let notes = registry::visit_all(&mut Checks);
    eprintln!("{}", notes.join("\n"));
}

#[test]
fn ismcts_never_peeks_and_is_reproducible_in_every_game() {
    let notes = registry::visit_all(&mut IsmctsChecks);
    eprintln!("{}", notes.join("\n"));
}

#[test]
fn bad_ismcts_names_are_errors() {
    let game = LostCities::default();
    for (bad, says) in [
        ("ismcts:iters=0", "iters"),
        ("ismcts:iters=x", "iters"),
        ("ismcts:depth=3", "iters, ms, playout, c"),
        ("ismcts:playout=nobody", "nobody"),
        ("ismcts:iters=2,iters=3", "twice"),
        ("ismcts:threads=0", "threads"),
        ("ismcts:c=-1", "c must be"),
        ("ismcts:c=nan", "c must be"),
        ("ismcts:value=points", "win, reward"),
        ("ismcts:batch=0", "batch"),
        ("ismcts:iters", "name=value"),
        ("ismctsx", "ismctsx"),
    ] {
        let err = agents::bot(&game, bad)
            .err()
            .unwrap_or_else(|| panic!("{bad} accepted"))
            .to_string();
        assert!(err.contains(says), "{bad}: {err}");
    }
    let bot = agents::bot(&game, "ismcts:playout=safe-heuristic,iters=7,c=1.4").unwrap();
    assert_eq!(bot.name(), "ismcts:iters=7,playout=safe-heuristic,c=1.4");
    assert_eq!(
        agents::bot(&game, "ismcts").unwrap().name(),
        "ismcts:iters=1000,playout=random,c=0.7"
    );
}

#[test]
fn ismcts_beats_its_random_playout_at_lost_cities() {
    let game = LostCities::default();
    let ismcts = agents::bot(&game, "ismcts:iters=200").unwrap();
    let random = agents::bot(&game, "random").unwrap();
    let result = head_to_head(&game, &*ismcts, &*random, 8, 3, None);
    assert!(result.wins >= 7, "ismcts won {} of 8", result.wins);
}

#[test]
fn bad_pimc_names_are_errors() {
    let game = LostCities::default();
    for bad in [
        "pimc:sims=0",
        "pimc:sims=x",
        "pimc:depth=3",
        "pimc:playout=nobody",
        "pimc:sims=2,sims=3",
        "pimc:threads=0",
        "pimc:halving=2",
        "pimcx",
    ] {
        let err = agents::bot(&game, bad)
            .err()
            .unwrap_or_else(|| panic!("{bad} accepted"));
        assert!(!err.to_string().is_empty());
    }
    let err = agents::bot(&game, "pimc:depth=3")
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("sims") && err.contains("playout"), "{err}");
    let bot = agents::bot(&game, "pimc:playout=safe-heuristic,sims=7").unwrap();
    assert_eq!(bot.name(), "pimc:sims=7,playout=safe-heuristic");
    for (bad, says) in [
        ("pimc:value=points", "reward, win"),
        ("pimc:crn=2", "crn"),
        ("pimc:horizon=x", "horizon"),
        ("pimc:horizon=65537,value=win", "horizon"),
        // Lost Cities (one round) has no estimate of the win part-way.
        ("pimc:horizon=1,value=win", "no estimate"),
    ] {
        let err = agents::bot(&game, bad)
            .err()
            .unwrap_or_else(|| panic!("{bad} accepted"))
            .to_string();
        assert!(err.contains(says), "{bad}: {err}");
    }
    let flip7 = Flip7::with_players(3).unwrap();
    let err = agents::bot(&flip7, "pimc:horizon=1")
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("value=win"), "{err}");
    let err = agents::bot(
        &Flip7::new(3, 5000, None).unwrap(),
        "pimc:horizon=1,value=win",
    )
    .err()
    .unwrap()
    .to_string();
    assert!(err.contains("no estimate"), "{err}");
    let bot = agents::bot(&flip7, "pimc:horizon=1,crn=1,value=win,sims=8").unwrap();
    assert_eq!(
        bot.name(),
        "pimc:sims=8,playout=random,value=win,crn=1,horizon=1"
    );
    // 151 has an estimate with two seats (its stages: actions, a new deal a jump), none
    // with three or four.
    let two = I151::new(2).unwrap();
    let bot = agents::bot(&two, "pimc:sims=4,playout=medium,value=win,horizon=8").unwrap();
    assert_eq!(bot.name(), "pimc:sims=4,playout=medium,value=win,horizon=8");
    for players in [3, 4] {
        let err = agents::bot(&I151::new(players).unwrap(), "pimc:horizon=8,value=win")
            .err()
            .unwrap_or_else(|| panic!("151 with {players} seats has no estimate"))
            .to_string();
        assert!(err.contains("no estimate"), "{err}");
    }
    // horizon=0 is no horizon (any game).
    let bot = agents::bot(&game, "pimc:horizon=0,value=win,crn=0").unwrap();
    assert_eq!(bot.name(), "pimc:sims=100,playout=random,value=win");
    assert_eq!(
        agents::bot(&game, "pimc").unwrap().name(),
        "pimc:sims=100,playout=random"
    );
}

#[test]
fn pimc_beats_its_random_playout_at_lost_cities() {
    let game = LostCities::default();
    let pimc = agents::bot(&game, "pimc:sims=4").unwrap();
    let random = agents::bot(&game, "random").unwrap();
    let result = head_to_head(&game, &*pimc, &*random, 8, 3, None);
    assert!(result.wins >= 7, "pimc won {} of 8", result.wins);
}

/// Duplicate deals: with one deterministic bot in both seats, the two games of a deal are
/// one game seen from both sides, so (Lost Cities being zero-sum) the first bot's mean is 0
/// and it wins as often as it loses; the plain match's mean is not 0.
#[test]
fn duplicate_matches_replay_each_deal_with_the_seats_swapped() {
    use cardvec::core::matches::head_to_head_duplicate;
    let game = LostCities::default();
    let bot = agents::bot(&game, "safe-heuristic").unwrap();
    let dup = head_to_head_duplicate(&game, &*bot, &*bot, 40, 3, None);
    assert_eq!(dup.games, 40);
    assert!(dup.reward_a.mean().abs() < 1e-9, "{}", dup.reward_a.mean());
    assert_eq!(dup.wins, 40 - dup.wins - dup.ties);
    // Over deals (each deal's two games averaged) the luck cancels exactly: every deal's
    // mean is 0, so is its interval; the games taken one by one vary.
    assert_eq!(dup.reward_a_deals.count(), 20);
    assert!(
        dup.reward_a_deals.ci95() < 1e-9,
        "{}",
        dup.reward_a_deals.ci95()
    );
    assert!(dup.reward_a.ci95() > 1.0, "{}", dup.reward_a.ci95());
    let odd = head_to_head_duplicate(&game, &*bot, &*bot, 41, 3, None);
    assert_eq!(odd.reward_a_deals.count(), 21);
    let plain = head_to_head(&game, &*bot, &*bot, 40, 3, None);
    assert_eq!(plain.reward_a_deals.count(), 40);
    assert_eq!(plain.reward_a_deals.ci95(), plain.reward_a.ci95());
    assert!(
        plain.reward_a.mean().abs() > 1e-3,
        "{}",
        plain.reward_a.mean()
    );
}

/// The `ms=` budget in every game: each bot returns a legal action of a few decision
/// states, having searched (at least one round: every legal action has rollouts, the root
/// has a visit). The only bound on time is a generous one that catches a search that
/// never stops.
struct TimedChecks;

impl Visitor for TimedChecks {
    type Output = String;
    fn visit<G: GameSpec>(&mut self) -> String {
        use cardvec::core::Bot;
        let id = G::INFO.id;
        let options = Options::parse(G::INFO.options, G::INFO.configurations[0]).unwrap();
        let game = G::configure(&options).unwrap();
        let pimc = Pimc::parse(&game, "pimc:ms=2").unwrap();
        let ismcts = Ismcts::parse(&game, "ismcts:ms=2,batch=4").unwrap();
        let mut mask = vec![0u8; game.num_actions()];
        for (i, state) in decision_states(&game, 3).iter().enumerate() {
            game.legal_mask(state, &mut mask);
            let legal = mask.iter().filter(|&&m| m != 0).count();
            let rng = LaneRng::for_lane(13, i as u64, 0);
            let began = std::time::Instant::now();
            let values = pimc
                .evaluate(&game, state, &mask, &mut rng.clone())
                .unwrap();
            assert_eq!(values.len(), legal, "{id} state {i}");
            assert!(
                values.iter().all(|v| v.2 >= 1),
                "{id} state {i}: {values:?}"
            );
            let root = ismcts.evaluate(&game, state, &mut rng.clone()).unwrap();
            assert!(!root.is_empty(), "{id} state {i}");
            for bot in [&pimc as &dyn Bot<G>, &ismcts] {
                let action = bot.act(&game, state, &mask, &mut rng.clone());
                assert_eq!(mask[action as usize], 1, "{id} state {i} {}", bot.name());
            }
            assert!(
                began.elapsed() < std::time::Duration::from_secs(60),
                "{id} state {i}: a 2 ms budget did not stop"
            );
        }
        format!("{id}: ms budgets return legal actions")
    }
}

#[test]
fn ms_budgets_return_legal_actions_in_every_game() {
    let notes = registry::visit_all(&mut TimedChecks);
    eprintln!("{}", notes.join("\n"));
}

#[test]
fn budgets_parse_one_at_a_time() {
    use agents::Budget;
    let game = LostCities::default();
    for (bad, says) in [
        ("pimc:sims=10,ms=50", "two budgets"),
        ("pimc:ms=50,sims=10", "two budgets"),
        ("ismcts:iters=10,ms=50", "two budgets"),
        ("pimc:ms=0", "ms must be"),
        ("ismcts:ms=0", "ms must be"),
        ("pimc:ms=-5", "ms must be"),
        ("ismcts:ms=1.5", "ms must be"),
        ("pimc:ms=600001", "ms must be"),
        ("pimc:ms=50,halving=1", "halving"),
        ("pimc:ms=5,ms=6", "twice"),
    ] {
        let err = agents::bot(&game, bad)
            .err()
            .unwrap_or_else(|| panic!("{bad} accepted"))
            .to_string();
        assert!(err.contains(says), "{bad}: {err}");
    }
    let pimc = Pimc::parse(&game, "pimc:playout=safe-heuristic,ms=50").unwrap();
    assert_eq!(pimc.budget(), Budget::Millis(50));
    use cardvec::core::Bot;
    assert_eq!(pimc.name(), "pimc:ms=50,playout=safe-heuristic");
    assert_eq!(
        Pimc::parse(&game, "pimc").unwrap().budget(),
        Budget::Count(100)
    );
    let ismcts = Ismcts::parse(&game, "ismcts:ms=20,batch=8").unwrap();
    assert_eq!(ismcts.budget(), Budget::Millis(20));
    assert_eq!(ismcts.name(), "ismcts:ms=20,playout=random,c=0.7,batch=8");
    assert_eq!(
        Ismcts::parse(&game, "ismcts:iters=9").unwrap().budget(),
        Budget::Count(9)
    );
}

/// `registry::search_values`: pimc's action values over a batch, in Lost Cities after a few
/// random plies and in Leduc: `NaN` exactly at the illegal actions and in the lanes not
/// asked, finite at every legal action of the others; the first highest value is the action
/// `registry::bot_actions` returns for the same name and seed; one thread and two threads
/// (chunks of 1 and 64) give the same values; a name that is not pimc is an error that
/// writes nothing.
#[test]
fn pimc_search_values_match_its_batched_actions() {
    for (id, plies) in [("lost-cities", 9u32), ("leduc", 1)] {
        let n = 6;
        let mut values_by_threads = Vec::new();
        for (threads, chunk) in [(1, 1), (2, 64)] {
            let mut options = EnvOptions::new(n);
            options.num_threads = Some(threads);
            options.chunk_size = chunk;
            let mut env = registry::make(id, vec![], options).unwrap();
            env.reset(5);
            let a = env.num_actions();
            let mut rng = LaneRng::for_lane(3, 0, 0);
            for _ in 0..plies {
                let actions: Vec<u32> = env
                    .legal_mask()
                    .chunks_exact(a)
                    .map(|m| random_legal(m, &mut rng))
                    .collect();
                env.step(&actions).unwrap();
            }
            let name = "pimc:sims=3,playout=random";
            let mut selected = vec![true; n];
            selected[2] = false;
            let mut values = vec![0f32; n * a];
            registry::search_values(&*env, name, Some(&selected), 11, &mut values).unwrap();
            let mut actions = vec![0i64; n];
            registry::bot_actions(&*env, name, Some(&selected), 11, &mut actions).unwrap();
            for l in 0..n {
                let row = &values[l * a..(l + 1) * a];
                let mask = &env.legal_mask()[l * a..(l + 1) * a];
                if l == 2 || env.terminated()[l] {
                    assert!(row.iter().all(|v| v.is_nan()), "{id} lane {l}: {row:?}");
                    continue;
                }
                for (v, &m) in row.iter().zip(mask) {
                    assert_eq!(v.is_finite(), m != 0, "{id} lane {l}: {row:?}");
                }
                let best = (0..a)
                    .filter(|&i| mask[i] != 0)
                    .fold(None::<usize>, |b, i| match b {
                        Some(j) if row[j] >= row[i] => Some(j),
                        _ => Some(i),
                    })
                    .unwrap();
                assert_eq!(best as i64, actions[l], "{id} lane {l}: {row:?}");
            }
            let mut untouched = vec![7f32; n * a];
            let err = registry::search_values(&*env, "random", None, 11, &mut untouched);
            assert!(err.is_err() && untouched.iter().all(|&v| v == 7.0));
            values_by_threads.push(values);
        }
        let (one, two) = (&values_by_threads[0], &values_by_threads[1]);
        assert!(
            one.iter().zip(two).all(|(x, y)| x.to_bits() == y.to_bits()),
            "{id}: 1 and 2 threads differ"
        );
    }
}
