//! The learner view (`cardvec::core::learner`) and the batched bots
//! (`cardvec::core::policy::act_lanes`), over every game of the registry:
//!
//! - replay: a lane of a learner view is replayed ply by ply (the learner's actions and the
//!   bots' actions, recorded) on a single lane of the game dealt from the same stream; the
//!   states agree after every step, and each game's learner reward (the sum of the step
//!   rewards, `episode_return`) equals the learner seat's total in the replay, the skipped
//!   games' total equals `skipped_return`, every seat's `seat_returns` equals its total in
//!   the replay, zero-sum games sum to zero;
//! - an illegal learner action is a flagged no-op that changes nothing;
//! - results are the same for any thread count and chunk size;
//! - bad input is an error that changes nothing;
//! - the crediting rules and the limits on a game written for them (rewards before the first
//!   decision, terminal rewards on a bot's ply, a game that never reaches the learner, a bot
//!   whose action is refused).

use std::sync::{Arc, Mutex};

use cardvec::core::learner::{LearnerEnv, LearnerSeat, Opponents, MAX_BOT_PLIES, MAX_REDEALS};
use cardvec::core::policy::{random_legal, Bot, NO_ACTION};
use cardvec::core::spec::{GameSpec, Options};
use cardvec::core::{
    ActionStatus, EnvOptions, Error, Game, LaneOutcome, LaneRng, Playable, SingleLane, VecEnv,
};
use cardvec::registry::{self, Visitor};

/// The plies a recording bot saw: `(seat, action)` in the order played.
type Log = Arc<Mutex<Vec<(usize, u32)>>>;

/// A bot that plays like `inner` and records every ply in `log`.
struct Recording<G: Game> {
    inner: Box<dyn Bot<G>>,
    log: Log,
}

impl<G: Game> Bot<G> for Recording<G> {
    fn name(&self) -> &str {
        self.inner.name()
    }
    fn act(&self, game: &G, state: &G::State, mask: &[u8], rng: &mut LaneRng) -> u32 {
        let action = self.inner.act(game, state, mask, rng);
        let seat = game.current_player(state);
        self.log.lock().unwrap().push((seat, action));
        action
    }
}

/// A game of the replay: its index in the lane, the learner's seat and each seat's total.
#[derive(Debug)]
struct Played {
    seat: usize,
    totals: Vec<f64>,
}

/// Lane `lane` of a learner view played again from its recorded plies on a [`SingleLane`]:
/// game `k` dealt from `LaneRng::for_lane(seed, lane, k)`.
struct Replay<G: Game> {
    game: G,
    seed: u64,
    lane: u64,
    seat_rule: LearnerSeat,
    k: u64,
    single: SingleLane<G>,
    totals: Vec<f64>,
    finished: Vec<Played>,
}

impl<G: Game> Replay<G> {
    fn new(game: G, seed: u64, lane: u64, seat_rule: LearnerSeat) -> Self {
        let single = SingleLane::new(game.clone(), LaneRng::for_lane(seed, lane, 0));
        let mut replay = Replay {
            totals: vec![0.0; game.num_players()],
            game,
            seed,
            lane,
            seat_rule,
            k: 0,
            single,
            finished: Vec::new(),
        };
        replay.add_deal_rewards();
        replay
    }

    fn add_deal_rewards(&mut self) {
        let mut r = vec![0f32; self.game.num_players()];
        self.single.deal_rewards(&mut r);
        for (t, x) in self.totals.iter_mut().zip(&r) {
            *t = *x as f64;
        }
    }

    fn learner(&self) -> usize {
        self.seat_rule
            .seat(self.lane as usize, self.k, self.game.num_players())
    }

    fn is_over(&self) -> bool {
        let (te, tr) = self.single.finished();
        te || tr
    }

    /// Closes the games that are over and deals the next, as the learner view does.
    fn close_finished(&mut self) {
        while self.is_over() {
            let seat = self.learner();
            self.finished.push(Played {
                seat,
                totals: std::mem::take(&mut self.totals),
            });
            self.k += 1;
            self.single = SingleLane::new(
                self.game.clone(),
                LaneRng::for_lane(self.seed, self.lane, self.k),
            );
            self.totals = vec![0.0; self.game.num_players()];
            self.add_deal_rewards();
        }
    }

    fn ply(&mut self, seat: usize, action: u32) {
        self.close_finished();
        assert_eq!(self.single.current_player(), seat, "replay: seat to act");
        let mut r = vec![0f32; self.game.num_players()];
        assert!(self.single.step(action, &mut r).applied, "replay: {action}");
        for (t, x) in self.totals.iter_mut().zip(&r) {
            *t += *x as f64;
        }
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-3 * a.abs().max(b.abs()).max(1.0)
}

/// Plays one lane of a learner view of `game` (bots `opponents`, recorded) for `steps`
/// steps with a random legal learner that sometimes sends an illegal action, replays it
/// and checks the crediting (see the module documentation). Returns the number of games
/// shown and skipped.
fn replay_one<G: GameSpec>(
    game: &G,
    opponents: &[&str],
    seat_rule: LearnerSeat,
    seed: u64,
    steps: usize,
) -> (usize, usize) {
    let id = G::INFO.id;
    let log: Log = Arc::default();
    let bots: Vec<Box<dyn Bot<G>>> = opponents
        .iter()
        .map(|name| {
            Box::new(Recording {
                inner: game.bot(name).unwrap(),
                log: log.clone(),
            }) as Box<dyn Bot<G>>
        })
        .collect();
    let names = opponents.iter().map(|s| s.to_string()).collect();
    let mut options = EnvOptions::new(1);
    options.seed = seed;
    let mut env = LearnerEnv::new(game.clone(), bots, names, seat_rule, options).unwrap();
    let mut replay = Replay::new(game.clone(), seed, 0, seat_rule);
    let mut policy = LaneRng::for_lane(seed, 99, 0);
    let (mut shown, mut episode_sum) = (Vec::new(), 0f64);
    let sync = |env: &LearnerEnv<G>, replay: &mut Replay<G>, log: &Log, learner: Option<u32>| {
        let plies: Vec<_> = std::mem::take(&mut *log.lock().unwrap());
        if let Some(a) = learner {
            replay.ply(env.seat()[0] as usize, a);
        }
        for (seat, action) in plies {
            replay.ply(seat, action);
        }
        if !(env.terminated()[0] || env.truncated()[0]) {
            replay.close_finished();
        }
        assert_eq!(&env.states()[0], &replay.single.state, "{id}: lane state");
        assert_eq!(
            env.seat()[0] as usize,
            replay.learner(),
            "{id}: learner seat"
        );
    };
    sync(&env, &mut replay, &log, None);
    for t in 0..steps {
        let done = env.terminated()[0] || env.truncated()[0];
        let mask = env.legal_mask().to_vec();
        let obs = env.obs().to_vec();
        let illegal_probe = !done && t % 7 == 3;
        let action = if illegal_probe {
            // An action id no mask covers, or a masked-out one.
            match mask.iter().position(|&m| m == 0) {
                Some(i) if t % 2 == 0 => i as u32,
                _ => game.num_actions() as u32 + 1,
            }
        } else {
            random_legal(&mask, &mut policy)
        };
        let before = (
            env.episode_return()[0],
            env.episode_length()[0],
            env.episodes()[0],
        );
        let state = env.states()[0];
        env.step(&[action]).unwrap();
        let status = env.illegal()[0];
        if done {
            assert_eq!(status, ActionStatus::Reset as u8, "{id}: autoreset");
            episode_sum = env.rewards()[0] as f64;
        } else if illegal_probe {
            assert_eq!(status, ActionStatus::Illegal as u8, "{id}: illegal probe");
            assert_eq!(env.rewards()[0], 0.0);
            assert_eq!(
                env.states()[0],
                state,
                "{id}: an illegal action changed the state"
            );
            assert_eq!(env.obs(), &obs[..]);
            assert_eq!(env.legal_mask(), &mask[..]);
            let after = (
                env.episode_return()[0],
                env.episode_length()[0],
                env.episodes()[0],
            );
            assert_eq!(before, after);
            assert!(
                log.lock().unwrap().is_empty(),
                "{id}: bots played after a no-op"
            );
            continue;
        } else {
            assert_eq!(status, ActionStatus::Applied as u8, "{id}: legal action");
            episode_sum += env.rewards()[0] as f64;
        }
        let applied = (status == ActionStatus::Applied as u8).then_some(action);
        sync(&env, &mut replay, &log, applied);
        if env.episode_length()[0] > 0 && !env.truncated()[0] {
            // The return so far is the learner seat's total so far in the replay.
            let (ret, total) = (
                env.episode_return()[0] as f64,
                replay.totals[replay.learner()],
            );
            assert!(
                close(ret, total),
                "{id}: return so far {ret}, replay {total}"
            );
            // Every seat's return so far is that seat's total in the replay.
            for (s, (&got, &want)) in env.seat_returns().iter().zip(&replay.totals).enumerate() {
                assert!(
                    close(got as f64, want),
                    "{id}: seat {s}'s return so far {got}, replay {want}"
                );
            }
        }
        if env.terminated()[0] || env.truncated()[0] {
            let ret = env.episode_return()[0] as f64;
            assert!(
                close(ret, episode_sum),
                "{id}: return {ret} vs {episode_sum}"
            );
            assert!(replay.is_over(), "{id}: shown finished, replay not");
            let seat = replay.learner();
            let total = replay.totals[seat];
            assert!(close(ret, total), "{id}: return {ret}, replay {total}");
            shown.push(replay.k);
        }
    }
    // Every game the replay closed was shown or skipped; the skipped ones carry
    // `skipped_return`.
    let mut skipped = (0u64, 0f64);
    for (k, played) in replay.finished.iter().enumerate() {
        if G::zero_sum(game) {
            let sum: f64 = played.totals.iter().sum();
            assert!(close(sum, 0.0), "{id}: game {k} sums to {sum}");
        }
        if !shown.contains(&(k as u64)) {
            skipped.0 += 1;
            skipped.1 += played.totals[played.seat];
        }
    }
    assert_eq!(env.skipped()[0], skipped.0, "{id}: skipped games");
    assert!(
        close(env.skipped_return()[0], skipped.1),
        "{id}: skipped return {} vs {}",
        env.skipped_return()[0],
        skipped.1
    );
    let closed = replay.finished.len() as u64 + replay.is_over() as u64;
    assert_eq!(env.episodes()[0], closed, "{id}: episodes");
    (shown.len(), skipped.0 as usize)
}

/// A concrete name for each bot a game lists (families filled in).
fn concrete_bots(names: &[&str]) -> Vec<String> {
    names
        .iter()
        .map(|n| match *n {
            "threshold-<K>" => "threshold-20".to_string(),
            "equity-<N>" => "equity-8".to_string(),
            "minmax_d<D>w<W>[t]" => "minmax_d1w2".to_string(),
            other => other.to_string(),
        })
        .collect()
}

#[test]
fn learner_rewards_replay_to_each_games_totals() {
    struct Check;
    impl Visitor for Check {
        type Output = ();
        fn visit<G: GameSpec>(&mut self) {
            for (c, text) in G::INFO.configurations.iter().enumerate() {
                let options = Options::parse(G::INFO.options, text).unwrap();
                let game = G::configure(&options).unwrap();
                let others = game.num_players() - 1;
                let (mut shown, mut skipped) = (0, 0);
                for (r, seat_rule) in [LearnerSeat::Rotate, LearnerSeat::Fixed(others)]
                    .into_iter()
                    .enumerate()
                {
                    let seed = 100 * c as u64 + r as u64;
                    let (a, b) = replay_one(&game, &vec!["random"; others], seat_rule, seed, 300);
                    shown += a;
                    skipped += b;
                }
                eprintln!(
                    "replay: {} {text:?}: {shown} games shown, {skipped} skipped",
                    G::INFO.id
                );
            }
            // Every built-in bot as an opponent, in the default configuration.
            let game = G::configure(&Options::defaults(G::INFO.options)).unwrap();
            let others = game.num_players() - 1;
            for (i, bot) in concrete_bots(G::INFO.bots).iter().enumerate() {
                let steps = if bot.starts_with("minmax") { 40 } else { 120 };
                let seat = LearnerSeat::Fixed(i % game.num_players());
                replay_one(
                    &game,
                    &vec![bot.as_str(); others],
                    seat,
                    7 + i as u64,
                    steps,
                );
            }
        }
    }
    registry::visit_all(&mut Check);
}

#[test]
fn zero_sum_games_show_the_learners_whole_result() {
    // Over many finished games the learner's returns of a zero-sum game are the seat's
    // results: some positive, some negative, never all zero.
    struct Check;
    impl Visitor for Check {
        type Output = ();
        fn visit<G: GameSpec>(&mut self) {
            let game = G::configure(&Options::defaults(G::INFO.options)).unwrap();
            if !game.zero_sum() {
                return;
            }
            let mut options = EnvOptions::new(64);
            options.seed = 3;
            let mut env = cardvec::agents::learner(
                game.clone(),
                &every("random"),
                LearnerSeat::Rotate,
                options,
            )
            .unwrap();
            let mut rng = LaneRng::from_seed(1);
            let (mut wins, mut losses) = (0, 0);
            for _ in 0..400 {
                let actions = actions_for(&env, &mut rng);
                env.step(&actions).unwrap();
                for l in 0..64 {
                    if env.terminated()[l] {
                        wins += (env.episode_return()[l] > 0.0) as u32;
                        losses += (env.episode_return()[l] < 0.0) as u32;
                    }
                }
            }
            assert!(wins > 0 && losses > 0, "{}: {wins} {losses}", G::INFO.id);
        }
    }
    registry::visit_all(&mut Check);
}

/// The same bot at every other seat.
fn every(name: &str) -> Opponents {
    Opponents::Every(name.to_string())
}

/// A random legal learner action for every lane (`0` where the lane is finished).
fn actions_for<G: Game>(env: &LearnerEnv<G>, rng: &mut LaneRng) -> Vec<u32> {
    env.legal_mask()
        .chunks(env.game().num_actions())
        .map(|m| {
            let a = random_legal(m, rng);
            if a == u32::MAX {
                0
            } else {
                a
            }
        })
        .collect()
}

/// Everything a learner view shows, as bytes.
fn snapshot<G: Game>(env: &LearnerEnv<G>) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend(bytemuck::cast_slice::<f32, u8>(env.obs()));
    out.extend(env.legal_mask());
    out.extend(bytemuck::cast_slice::<f32, u8>(env.rewards()));
    out.extend(env.terminated().iter().map(|&b| b as u8));
    out.extend(env.truncated().iter().map(|&b| b as u8));
    out.extend(env.illegal());
    out.extend(bytemuck::cast_slice::<i32, u8>(env.seat()));
    out.extend(bytemuck::cast_slice::<f32, u8>(env.episode_return()));
    out.extend(bytemuck::cast_slice::<f32, u8>(env.seat_returns()));
    out.extend(bytemuck::cast_slice::<i32, u8>(env.episode_length()));
    out.extend(bytemuck::cast_slice::<u64, u8>(env.episodes()));
    out.extend(bytemuck::cast_slice::<u64, u8>(env.skipped()));
    out.extend(bytemuck::cast_slice::<f64, u8>(env.skipped_return()));
    out.extend(bytemuck::cast_slice::<G::State, u8>(env.states()));
    out
}

#[test]
fn learner_results_do_not_depend_on_threads_or_chunks() {
    struct Check;
    impl Visitor for Check {
        type Output = ();
        fn visit<G: GameSpec>(&mut self) {
            for text in G::INFO.configurations {
                let options = Options::parse(G::INFO.options, text).unwrap();
                let game = G::configure(&options).unwrap();
                let bots = concrete_bots(G::INFO.bots);
                // The cheapest non-random bot against the learner, with rotating seats.
                let bot = bots
                    .iter()
                    .find(|b| *b != "random" && !b.starts_with("minmax"));
                let opponents = every(bot.map_or("random", |b| b.as_str()));
                let mut runs = Vec::new();
                for (threads, chunk) in [(1, 64), (2, 7), (3, 1)] {
                    let mut options = EnvOptions::new(67);
                    options.seed = 11;
                    options.num_threads = Some(threads);
                    options.chunk_size = chunk;
                    let mut env = cardvec::agents::learner(
                        game.clone(),
                        &opponents,
                        LearnerSeat::Rotate,
                        options,
                    )
                    .unwrap();
                    let mut rng = LaneRng::from_seed(5);
                    let mut shots = vec![snapshot(&env)];
                    let mut bot_actions = Vec::new();
                    for _ in 0..60 {
                        let actions = actions_for(&env, &mut rng);
                        env.step(&actions).unwrap();
                        shots.push(snapshot(&env));
                        let mut out = vec![0i64; 67];
                        let b = game.bot("random").unwrap();
                        env.bot_actions(&*b, None, 9, &mut out).unwrap();
                        bot_actions.push(out);
                    }
                    runs.push((shots, bot_actions));
                }
                for (i, run) in runs.iter().enumerate().skip(1) {
                    for (t, (a, b)) in runs[0].0.iter().zip(&run.0).enumerate() {
                        assert!(
                            a == b,
                            "{} {text:?}: run {i} differs at step {t}",
                            G::INFO.id
                        );
                    }
                    assert_eq!(runs[0].1, run.1, "{} {text:?}: bot actions", G::INFO.id);
                }
            }
        }
    }
    registry::visit_all(&mut Check);
}

#[test]
fn batched_bots_depend_only_on_the_seed_and_the_states() {
    struct Check;
    impl Visitor for Check {
        type Output = ();
        fn visit<G: GameSpec>(&mut self) {
            let game = G::configure(&Options::defaults(G::INFO.options)).unwrap();
            let n = 53;
            let build = |threads: usize, chunk: usize| {
                let mut options = EnvOptions::new(n);
                options.seed = 4;
                options.num_threads = Some(threads);
                options.chunk_size = chunk;
                options.autoreset = true;
                VecEnv::new(game.clone(), options).unwrap()
            };
            let (mut a, mut b) = (build(1, 64), build(2, 5));
            for name in concrete_bots(G::INFO.bots) {
                // The search bots are slow: fewer steps.
                let steps = if name.starts_with("minmax") { 2 } else { 30 };
                let bot = game.bot(&name).unwrap();
                let mut rng = LaneRng::from_seed(2);
                for t in 0..steps {
                    let (mut x, mut y, mut z) = (vec![0i64; n], vec![0i64; n], vec![0i64; n]);
                    a.bot_actions(&*bot, None, t, &mut x).unwrap();
                    b.bot_actions(&*bot, None, t, &mut y).unwrap();
                    a.bot_actions(&*bot, None, t, &mut z).unwrap();
                    assert_eq!(
                        x,
                        y,
                        "{} {name}: threads or chunks changed the actions",
                        G::INFO.id
                    );
                    assert_eq!(
                        x,
                        z,
                        "{} {name}: a second call changed the actions",
                        G::INFO.id
                    );
                    for (l, &act) in x.iter().enumerate() {
                        let over = a.terminated()[l] || a.truncated()[l];
                        if over {
                            assert_eq!(act, NO_ACTION);
                        } else {
                            let row = &a.legal_mask()[l * game.num_actions()..];
                            assert!(
                                act >= 0 && row[act as usize] != 0,
                                "{} {name}: illegal {act}",
                                G::INFO.id
                            );
                        }
                    }
                    // Lanes not selected get no action; the selected ones the same.
                    let sel: Vec<bool> = (0..n).map(|l| l % 3 != 0).collect();
                    a.bot_actions(&*bot, Some(&sel), t, &mut y).unwrap();
                    for l in 0..n {
                        assert_eq!(y[l], if sel[l] { x[l] } else { NO_ACTION });
                    }
                    let actions: Vec<u32> = x
                        .iter()
                        .map(|&v| {
                            if v < 0 {
                                random_legal(&[1], &mut rng)
                            } else {
                                v as u32
                            }
                        })
                        .collect();
                    a.step(&actions).unwrap();
                    b.step(&actions).unwrap();
                }
            }
        }
    }
    registry::visit_all(&mut Check);
}

#[test]
fn bad_learner_arguments_are_errors() {
    struct Check;
    impl Visitor for Check {
        type Output = ();
        fn visit<G: GameSpec>(&mut self) {
            let id = G::INFO.id;
            let game = G::configure(&Options::defaults(G::INFO.options)).unwrap();
            let p = game.num_players();
            let make = |opponents: &Opponents, seat| {
                cardvec::agents::learner(game.clone(), opponents, seat, EnvOptions::new(4))
            };
            for count in [0, p - 2, p] {
                let list = Opponents::Each(vec!["random".into(); count]);
                if count == p - 1 {
                    continue;
                }
                let err = make(&list, LearnerSeat::Fixed(0)).err().unwrap();
                assert_eq!(
                    err.to_string(),
                    format!(
                        "invalid opponents: the game has {p} seats: give one bot name for every \
                         other seat, or a list of {}, got a list of {count}",
                        p - 1
                    )
                );
            }
            let list = Opponents::Each(vec!["random".into(); p - 1]);
            assert!(make(&list, LearnerSeat::Fixed(0)).is_ok());
            let err = make(&every("random"), LearnerSeat::Fixed(p)).err().unwrap();
            assert_eq!(
                err.to_string(),
                format!("seat must be in 0..={}, got {p}", p - 1)
            );
            let err = make(&every("no-such-bot"), LearnerSeat::Rotate)
                .err()
                .unwrap();
            assert!(matches!(err, Error::Unknown { .. }), "{id}: {err}");
            assert!(err.to_string().contains("random"), "{id}: {err}");
            // A wrong action count changes nothing.
            let mut env = make(&every("random"), LearnerSeat::Rotate).unwrap();
            let before = snapshot(&env);
            assert!(env.step(&[0; 3]).is_err());
            assert_eq!(snapshot(&env), before);
            let bot = game.bot("random").unwrap();
            let mut out = vec![7i64; 4];
            assert!(env
                .bot_actions(&*bot, Some(&[true; 3]), 0, &mut out)
                .is_err());
            assert!(env.bot_actions(&*bot, None, 0, &mut [0i64; 5]).is_err());
            assert_eq!(out, vec![7; 4]);
        }
    }
    registry::visit_all(&mut Check);
}

#[test]
fn bots_that_remember_are_refused_for_batches() {
    let game = cardvec::I151::new(2).unwrap();
    let err = cardvec::agents::learner(
        game,
        &every("minmax_d1w2t"),
        LearnerSeat::Rotate,
        EnvOptions::new(2),
    )
    .err()
    .unwrap();
    assert!(err.to_string().contains("remembers"), "{err}");
    let env = VecEnv::new(game, EnvOptions::new(2)).unwrap();
    let bot = game.bot("minmax_d1w2t").unwrap();
    let mut out = vec![0i64; 2];
    assert!(env.bot_actions(&*bot, None, 0, &mut out).is_err());
    let bot = game.bot("minmax_d1w2").unwrap();
    env.bot_actions(&*bot, None, 0, &mut out).unwrap();
}

// ------------------------------------------------------------------------------------------
// A game written to test the crediting rules and the limits

/// Two seats; seat 1 plays first, then seat 0 (the learner) and seat 1 alternate, seat 1
/// playing `bot_plies` plies in a row; the game ends after the learner's `decisions`-th
/// action and the bot plies that follow it. Action 0 is the only legal one. Every bot ply
/// pays seat 0 one point (and seat 1 loses it); the deal pays seat 0 a quarter.
#[derive(Clone, Debug)]
struct Relay {
    bot_plies: u32,
    decisions: u32,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
struct RelayState {
    bot_left: u32,
    decisions_left: u32,
    to_act: u32,
    over: u32,
}

impl Game for Relay {
    type State = RelayState;
    fn num_players(&self) -> usize {
        2
    }
    fn num_actions(&self) -> usize {
        2
    }
    fn obs_dim(&self) -> usize {
        2
    }
    fn reset(&self, _rng: &mut LaneRng) -> RelayState {
        RelayState {
            bot_left: 1,
            decisions_left: self.decisions,
            to_act: 1,
            over: 0,
        }
    }
    fn reset_from_order(&self, _order: &[u8]) -> cardvec::Result<RelayState> {
        Err(Error::Invalid {
            what: "order",
            reason: "no cards".into(),
        })
    }
    fn current_player(&self, s: &RelayState) -> usize {
        s.to_act as usize
    }
    fn finished(&self, s: &RelayState) -> (bool, bool) {
        (s.over == 1, false)
    }
    fn check_state(&self, _s: &RelayState) -> Result<(), String> {
        Ok(())
    }
    fn legal_mask(&self, s: &RelayState, mask: &mut [u8]) {
        mask.copy_from_slice(&[(s.over == 0) as u8, 0]);
    }
    fn step(&self, s: &mut RelayState, action: u32, _: &mut LaneRng, r: &mut [f32]) -> LaneOutcome {
        if s.over == 1 || action != 0 {
            return LaneOutcome::ILLEGAL;
        }
        if s.to_act == 1 {
            r[0] = 1.0;
            r[1] = -1.0;
            s.bot_left -= 1;
            if s.bot_left == 0 {
                if s.decisions_left == 0 {
                    s.over = 1;
                } else {
                    s.to_act = 0;
                }
            }
        } else {
            s.decisions_left -= 1;
            s.bot_left = self.bot_plies;
            s.to_act = 1;
        }
        LaneOutcome {
            applied: true,
            terminated: s.over == 1,
            truncated: false,
        }
    }
    fn observe(&self, s: &RelayState, player: usize, obs: &mut [f32]) {
        obs.copy_from_slice(&[s.decisions_left as f32, player as f32]);
    }
    fn deal_rewards(&self, _s: &RelayState, rewards: &mut [f32]) {
        rewards[0] = 0.25;
    }
}

/// Plays seat 1 with action 0, or with `action` when given (an illegal one).
struct RelayBot(u32);

impl Bot<Relay> for RelayBot {
    fn name(&self) -> &str {
        "relay"
    }
    fn act(&self, _: &Relay, _: &RelayState, _: &[u8], _: &mut LaneRng) -> u32 {
        self.0
    }
}

fn relay_env(bot_plies: u32, decisions: u32, bot_action: u32) -> LearnerEnv<Relay> {
    relay_env_limited(bot_plies, decisions, bot_action, None).unwrap()
}

fn relay_env_limited(
    bot_plies: u32,
    decisions: u32,
    bot_action: u32,
    max_steps: Option<u32>,
) -> cardvec::Result<LearnerEnv<Relay>> {
    let game = Relay {
        bot_plies,
        decisions,
    };
    let mut options = EnvOptions::new(3);
    options.num_threads = Some(1);
    options.max_steps = max_steps;
    LearnerEnv::new(
        game,
        vec![Box::new(RelayBot(bot_action))],
        vec!["relay".into()],
        LearnerSeat::Fixed(0),
        options,
    )
}

#[test]
fn rewards_before_the_first_decision_and_on_bot_plies_go_to_the_learner() {
    let mut env = relay_env(3, 2, 0);
    assert_eq!(env.rewards(), &[0.0; 3]);
    assert_eq!(env.legal_mask(), &[1, 0, 1, 0, 1, 0]);
    // First decision: the deal's quarter and the first bot ply, then three bot plies.
    env.step(&[0; 3]).unwrap();
    assert_eq!(env.rewards(), &[4.25; 3]);
    assert_eq!(env.terminated(), &[false; 3]);
    // Second and last decision: three bot plies, the last one ends the game.
    env.step(&[0; 3]).unwrap();
    assert_eq!(env.rewards(), &[3.0; 3]);
    assert_eq!(env.terminated(), &[true; 3]);
    assert_eq!(env.episode_return(), &[7.25; 3]);
    assert_eq!(env.episode_length(), &[2; 3]);
    assert_eq!(env.episodes(), &[1; 3]);
    assert_eq!(env.legal_mask(), &[0; 6]);
    // Next-step autoreset: action ignored, zero reward, a fresh episode.
    env.step(&[1, 5, u32::MAX]).unwrap();
    assert_eq!(env.illegal(), &[ActionStatus::Reset as u8; 3]);
    assert_eq!(env.rewards(), &[0.0; 3]);
    assert_eq!(env.terminated(), &[false; 3]);
    assert_eq!((env.episode_return()[0], env.episode_length()[0]), (0.0, 0));
    // An illegal learner action: a no-op.
    env.step(&[1, 0, 1]).unwrap();
    assert_eq!(env.illegal(), &[1, 0, 1]);
    assert_eq!(env.rewards(), &[0.0, 4.25, 0.0]);
    assert_eq!(env.episode_length(), &[0, 1, 0]);
}

#[test]
fn a_game_that_never_reaches_the_learner_is_skipped_then_shown_truncated() {
    // No decision at all: every game ends on the bot's first ply.
    let mut env = relay_env(1, 0, 0);
    let redeals = MAX_REDEALS as u64;
    assert_eq!(env.truncated(), &[true; 3]);
    assert_eq!(env.terminated(), &[false; 3]);
    assert_eq!(env.skipped(), &[redeals - 1; 3]);
    assert_eq!(env.skipped_return(), &[1.25 * (redeals - 1) as f64; 3]);
    assert_eq!(env.episodes(), &[redeals; 3]);
    // The last game is shown, its reward with it.
    assert_eq!(env.rewards(), &[1.25; 3]);
    assert_eq!(env.episode_return(), &[1.25; 3]);
    assert_eq!(env.episode_length(), &[0; 3]);
    env.step(&[0; 3]).unwrap();
    assert_eq!(env.illegal(), &[ActionStatus::Reset as u8; 3]);
    assert_eq!(env.episodes(), &[2 * redeals; 3]);
}

#[test]
fn too_many_bot_plies_or_a_refused_bot_action_cut_the_game_off() {
    let mut env = relay_env(MAX_BOT_PLIES + 1, 1, 0);
    assert_eq!(env.truncated(), &[false; 3]);
    env.step(&[0; 3]).unwrap();
    assert_eq!(env.truncated(), &[true; 3]);
    assert_eq!(env.terminated(), &[false; 3]);
    assert_eq!(env.rewards(), &[1.25 + MAX_BOT_PLIES as f32; 3]);
    assert_eq!(env.legal_mask(), &[0; 6]);
    // Exactly the limit is fine.
    let mut env = relay_env(MAX_BOT_PLIES, 1, 0);
    env.step(&[0; 3]).unwrap();
    assert_eq!(env.terminated(), &[true; 3]);
    // A bot whose action is refused cuts the game off before the learner's first decision.
    let mut env = relay_env(2, 2, 1);
    assert_eq!(env.truncated(), &[true; 3]);
    assert_eq!(env.rewards(), &[0.25; 3]);
    env.step(&[0; 3]).unwrap();
    assert_eq!(env.illegal(), &[ActionStatus::Reset as u8; 3]);
    assert_eq!(env.truncated(), &[true; 3]);
}

/// `max_steps` counts every ply of the game (bot 1, learner 2, bots 3..=5, learner 6, bots
/// 7..=9 in a Relay of 3 bot plies and 2 decisions), as a VecEnv counts its lane's actions:
/// both cut the same game at the same ply.
#[test]
fn max_steps_cuts_the_game_at_that_many_plies_of_every_seat() {
    // The game's own length is not a cut.
    let mut env = relay_env_limited(3, 2, 0, Some(9)).unwrap();
    assert_eq!(env.max_steps(), Some(9));
    env.step(&[0; 3]).unwrap();
    env.step(&[0; 3]).unwrap();
    assert_eq!(
        (env.terminated(), env.truncated()),
        (&[true; 3][..], &[false; 3][..])
    );
    // Cut on the bots' plies after the learner's second decision (plies 7 and 8 played).
    let mut env = relay_env_limited(3, 2, 0, Some(8)).unwrap();
    env.step(&[0; 3]).unwrap();
    assert_eq!(env.truncated(), &[false; 3]);
    env.step(&[0; 3]).unwrap();
    assert_eq!(
        (env.terminated(), env.truncated()),
        (&[false; 3][..], &[true; 3][..])
    );
    assert_eq!(env.rewards(), &[2.0; 3]);
    assert_eq!(env.episode_return(), &[6.25; 3]);
    assert_eq!(env.episode_length(), &[2; 3]);
    assert_eq!(env.legal_mask(), &[0; 6]);
    assert_eq!(env.episodes(), &[1; 3]);
    // Next-step autoreset starts a new game with a fresh count.
    env.step(&[0; 3]).unwrap();
    assert_eq!(env.illegal(), &[ActionStatus::Reset as u8; 3]);
    assert_eq!(env.truncated(), &[false; 3]);
    env.step(&[0; 3]).unwrap();
    assert_eq!(env.truncated(), &[false; 3]);
    // Cut right after the learner's first decision (ply 2), with the learner to act no more.
    let mut env = relay_env_limited(3, 2, 0, Some(2)).unwrap();
    env.step(&[0; 3]).unwrap();
    assert_eq!(env.truncated(), &[true; 3]);
    assert_eq!(env.rewards(), &[1.25; 3]);
    // Cut before the learner's first decision: shown truncated with no decision in it.
    let env = relay_env_limited(3, 2, 0, Some(1)).unwrap();
    assert_eq!(env.truncated(), &[true; 3]);
    assert_eq!(env.episode_length(), &[0; 3]);
    assert_eq!(env.rewards(), &[1.25; 3]);
    assert_eq!(env.skipped(), &[0; 3]);
    // A VecEnv of the same game with the same limit truncates at the same ply.
    let mut options = EnvOptions::new(1);
    options.max_steps = Some(8);
    let mut vec_env = cardvec::core::VecEnv::new(
        Relay {
            bot_plies: 3,
            decisions: 2,
        },
        options,
    )
    .unwrap();
    for ply in 1..=8 {
        assert_eq!(vec_env.truncated(), &[false], "ply {ply}");
        vec_env.step(&[0]).unwrap();
    }
    assert_eq!(
        (vec_env.terminated(), vec_env.truncated()),
        (&[false][..], &[true][..])
    );
}

#[test]
fn max_steps_zero_is_refused_by_the_learner_view() {
    let err = relay_env_limited(3, 2, 0, Some(0)).err().expect("refused");
    assert!(err.to_string().contains("max_steps"), "{err}");
    let game = cardvec::games::kuhn::KuhnPoker;
    let mut options = EnvOptions::new(2);
    options.max_steps = Some(0);
    let err = cardvec::agents::learner(game, &every("random"), LearnerSeat::Fixed(0), options)
        .err()
        .expect("refused");
    assert!(
        err.to_string().contains("max_steps must be in 1..="),
        "{err}"
    );
}
