//! Opponent pools of the learner view (`LearnerEnv::set_pool`, self-play): a lane draws its
//! opponents when its game starts and keeps them for the whole game, whatever the pool
//! becomes meanwhile; the bots that play are the drawn entry's; draws follow the weights
//! and do not depend on the thread count or the chunk size; bad pools are errors that
//! change nothing.

use std::collections::HashMap;
use std::sync::Mutex;

use cardvec::agents::policy_file::testing::{bytes, metadata, mlp_tensors};
use cardvec::core::learner::{LearnerEnv, LearnerSeat, Opponents};
use cardvec::core::policy::{random_legal, Bot};
use cardvec::core::spec::{GameSpec, Options};
use cardvec::core::{ActionStatus, EnvOptions, Game, LaneRng, Result};
use cardvec::{Flip7, KuhnPoker, LostCities};

fn every(name: &str) -> Opponents {
    Opponents::Every(name.to_string())
}

fn configured<G: GameSpec>() -> G {
    G::configure(&Options::defaults(G::INFO.options)).unwrap()
}

fn env_of<G: GameSpec>(lanes: usize, threads: usize, chunk: usize, seed: u64) -> LearnerEnv<G> {
    let mut o = EnvOptions::new(lanes);
    o.num_threads = Some(threads);
    o.chunk_size = chunk;
    o.seed = seed;
    cardvec::agents::learner(configured::<G>(), &every("random"), LearnerSeat::Rotate, o).unwrap()
}

/// A random legal learner action for every lane (`0` where the lane is finished).
fn actions_for<G: Game>(env: &LearnerEnv<G>, rng: &mut LaneRng) -> Vec<u32> {
    env.legal_mask()
        .chunks(env.game().num_actions())
        .map(|m| match random_legal(m, rng) {
            u32::MAX => 0,
            a => a,
        })
        .collect()
}

/// Plays `steps` steps swapping the pool before every step (cycling through `pools`), and
/// checks that every lane keeps the entry it drew at its game's start until the game
/// ends, and that the entry was in the pool current when the game started. Returns every
/// step's opponent ids and the number of games seen start.
fn swap_every_step<G: GameSpec>(
    env: &mut LearnerEnv<G>,
    pools: &[Vec<(Opponents, f64)>],
    steps: usize,
) -> (Vec<Vec<i64>>, usize) {
    let mut rng = LaneRng::from_seed(7);
    let mut current: Vec<i64> = env.opponent_ids().to_vec();
    let mut history = vec![current.clone()];
    let mut starts = 0;
    for t in 0..steps {
        let pool = &pools[t % pools.len()];
        env.set_pool(pool).unwrap();
        let actions = actions_for(env, &mut rng);
        env.step(&actions).unwrap();
        let pool_ids: Vec<u32> = env.pool().iter().map(|p| p.0).collect();
        for (l, cur) in current.iter_mut().enumerate() {
            let id = env.opponent_ids()[l];
            if env.illegal()[l] == ActionStatus::Reset as u8 {
                // A new game: drawn from the pool set before this step.
                assert!(pool_ids.contains(&(id as u32)), "step {t} lane {l}: {id}");
                *cur = id;
                starts += 1;
            } else {
                assert_eq!(
                    id, *cur,
                    "step {t} lane {l}: the opponent changed in a game in progress"
                );
            }
        }
        history.push(env.opponent_ids().to_vec());
    }
    (history, starts)
}

#[test]
fn a_game_in_progress_never_changes_opponents_when_the_pool_changes() {
    let pools = vec![
        vec![(every("random"), 1.0)],
        vec![(every("safe-heuristic"), 1.0), (every("discard-only"), 2.0)],
        vec![(every("random"), 1.0), (every("discard-only"), 1.0)],
        vec![(every("safe-heuristic"), 3.0)],
    ];
    let mut one = env_of::<LostCities>(48, 1, 64, 3);
    let (h1, starts) = swap_every_step(&mut one, &pools, 300);
    assert!(starts > 100, "{starts} games started");
    // The same on two threads and other chunks.
    let mut two = env_of::<LostCities>(48, 2, 5, 3);
    let (h2, _) = swap_every_step(&mut two, &pools, 300);
    assert_eq!(h1, h2);
    assert_eq!(one.obs(), two.obs());
    assert_eq!(
        one.entry_labels(),
        ["random", "safe-heuristic", "discard-only"]
    );
    // Ids are stable: the same names keep their id.
    assert_eq!(one.pool(), &[(1, 3.0)]);

    // Three seats, one list per other seat.
    let pools = vec![
        vec![(every("random"), 1.0)],
        vec![
            (
                Opponents::Each(vec!["threshold-20".into(), "random".into()]),
                1.0,
            ),
            (every("threshold-25"), 1.0),
        ],
    ];
    let mut f7 = env_of::<Flip7>(32, 2, 3, 9);
    let (_, starts) = swap_every_step(&mut f7, &pools, 200);
    assert!(starts > 50, "{starts}");
    assert_eq!(
        f7.entry_labels(),
        ["random", "threshold-20 | random", "threshold-25"]
    );
}

/// The names of the bots that played, in order (one lane only).
static PLAYED: Mutex<Vec<String>> = Mutex::new(Vec::new());

struct Logging<G: Game> {
    inner: Box<dyn Bot<G>>,
}

impl<G: Game> Bot<G> for Logging<G> {
    fn name(&self) -> &str {
        self.inner.name()
    }
    fn act(&self, game: &G, state: &G::State, mask: &[u8], rng: &mut LaneRng) -> u32 {
        PLAYED.lock().unwrap().push(self.inner.name().to_string());
        self.inner.act(game, state, mask, rng)
    }
}

fn logging(game: &LostCities, name: &str) -> Result<Box<dyn Bot<LostCities>>> {
    let inner = game.bot(name)?;
    Ok(Box::new(Logging { inner }))
}

#[test]
fn the_bots_that_play_are_the_drawn_entrys() {
    let mut o = EnvOptions::new(1);
    o.seed = 11;
    let game = configured::<LostCities>();
    let bots = vec![logging(&game, "random").unwrap()];
    let mut env = LearnerEnv::new(game, bots, vec!["random".into()], LearnerSeat::Rotate, o)
        .unwrap()
        .with_resolver(logging);
    let pools = [
        vec![(every("random"), 1.0), (every("safe-heuristic"), 1.0)],
        vec![(every("discard-only"), 1.0), (every("random"), 1.0)],
    ];
    PLAYED.lock().unwrap().clear();
    let mut rng = LaneRng::from_seed(1);
    let mut seen = HashMap::new();
    for t in 0..3000 {
        env.set_pool(&pools[t % 2]).unwrap();
        let actions = actions_for(&env, &mut rng);
        env.step(&actions).unwrap();
        let id = env.opponent_ids()[0] as u32;
        let want = &env.entry_names(id).unwrap()[0];
        for name in PLAYED.lock().unwrap().drain(..) {
            assert_eq!(&name, want, "step {t}");
            *seen.entry(name).or_insert(0) += 1;
        }
    }
    assert_eq!(seen.len(), 3, "{seen:?}");
}

#[test]
fn draws_follow_the_weights() {
    let mut env = env_of::<KuhnPoker>(4000, 2, 64, 1);
    env.set_pool(&[(every("random"), 1.0), (every("always-bet"), 3.0)])
        .unwrap();
    env.reset(2);
    let second = env.opponent_ids().iter().filter(|&&i| i == 1).count();
    let share = second as f64 / 4000.0;
    assert!((share - 0.75).abs() < 0.03, "{share}");
    // A zero weight is never drawn.
    env.set_pool(&[(every("random"), 0.0), (every("random"), 1.0)])
        .unwrap_err();
    env.set_pool(&[(every("random"), 0.0), (every("always-bet"), 1.0)])
        .unwrap();
    env.reset(3);
    assert!(env.opponent_ids().iter().all(|&i| i == 1));
}

#[test]
fn bad_pools_are_errors_that_change_nothing() {
    let dir = std::env::temp_dir().join(format!("cardvec-pool-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let kuhn = KuhnPoker;
    let kuhn_file = dir.join("kuhn.safetensors");
    std::fs::write(
        &kuhn_file,
        bytes(
            &mlp_tensors(&[kuhn.obs_dim(), 8, kuhn.num_actions()]),
            metadata("kuhn", "{}", "relu"),
        ),
    )
    .unwrap();
    let mut env = env_of::<LostCities>(16, 2, 4, 5);
    let mut twin = env_of::<LostCities>(16, 2, 4, 5);
    let good = vec![(every("random"), 1.0), (every("safe-heuristic"), 2.0)];
    env.set_pool(&good).unwrap();
    twin.set_pool(&good).unwrap();
    let policy = format!("policy:{}", kuhn_file.display());
    let cases: Vec<(Vec<(Opponents, f64)>, &str)> = vec![
        (vec![], "give 1..="),
        (vec![(every("random"), -1.0)], "at least 0"),
        (vec![(every("random"), f64::NAN)], "finite"),
        (vec![(every("random"), f64::INFINITY)], "finite"),
        (vec![(every("random"), 0.0)], "add up to 0"),
        (vec![(every("no-such-bot"), 1.0)], "no-such-bot"),
        (
            vec![(every(&policy), 1.0)],
            "trained on kuhn, not lost-cities",
        ),
        (
            vec![(every("policy:/nonexistent/p.safetensors"), 1.0)],
            "cannot read",
        ),
        (
            vec![(Opponents::Each(vec!["random".into(), "random".into()]), 1.0)],
            "list of 1, got a list of 2",
        ),
        (
            vec![(every("random"), 1.0), (every("random"), 2.0)],
            "given twice",
        ),
    ];
    let labels = env.entry_labels();
    for (pool, want) in cases {
        let e = env.set_pool(&pool).unwrap_err().to_string();
        assert!(e.contains(want), "{want:?} not in {e}");
        assert_eq!(env.pool(), twin.pool());
        assert_eq!(env.entry_labels(), labels);
    }
    let mut rng = (LaneRng::from_seed(4), LaneRng::from_seed(4));
    for _ in 0..50 {
        env.step(&actions_for(&env, &mut rng.0)).unwrap();
        twin.step(&actions_for(&twin, &mut rng.1)).unwrap();
        assert_eq!(env.obs(), twin.obs());
        assert_eq!(env.opponent_ids(), twin.opponent_ids());
    }
    // A view built from bots has no resolver.
    let game = configured::<LostCities>();
    let bots = vec![game.bot("random").unwrap()];
    let mut bare = LearnerEnv::new(
        game,
        bots,
        vec!["random".into()],
        LearnerSeat::Fixed(0),
        EnvOptions::new(2),
    )
    .unwrap();
    let e = bare.set_pool(&good).unwrap_err().to_string();
    assert!(e.contains("no resolver"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A bot that plays `inner` one state at a time (the default `act_batch`).
struct OneByOne<G: Game>(Box<dyn Bot<G>>);

impl<G: Game> Bot<G> for OneByOne<G> {
    fn name(&self) -> &str {
        self.0.name()
    }
    fn act(&self, game: &G, state: &G::State, mask: &[u8], rng: &mut LaneRng) -> u32 {
        self.0.act(game, state, mask, rng)
    }
}

/// The opponents' plies inside the learner view are batched over a chunk's lanes (a policy
/// file's forward pass over all of them): the same games as one state at a time, for any
/// thread count and chunk size, greedy and sampled.
#[test]
fn batched_opponent_plies_play_the_games_of_one_at_a_time() {
    let dir = std::env::temp_dir().join(format!("cardvec-pool-batch-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let game = configured::<LostCities>();
    let path = dir.join("lc.safetensors");
    std::fs::write(
        &path,
        bytes(
            &mlp_tensors(&[game.obs_dim(), 32, game.num_actions()]),
            metadata("lost-cities", "{}", "tanh"),
        ),
    )
    .unwrap();
    for name in [
        format!("policy:{}", path.display()),
        format!("policy:{}", path.display()) + ",sample=1",
    ] {
        let run = |threads: usize, chunk: usize, one_by_one: bool| {
            let mut o = EnvOptions::new(40);
            o.num_threads = Some(threads);
            o.chunk_size = chunk;
            o.seed = 8;
            let bot = cardvec::agents::bot(&game, &name).unwrap();
            let bot: Box<dyn Bot<LostCities>> = if one_by_one {
                Box::new(OneByOne(bot))
            } else {
                bot
            };
            let mut env =
                LearnerEnv::new(game, vec![bot], vec![name.clone()], LearnerSeat::Rotate, o)
                    .unwrap();
            let mut rng = LaneRng::from_seed(5);
            let mut seen = Vec::new();
            for _ in 0..120 {
                env.step(&actions_for(&env, &mut rng)).unwrap();
                seen.extend_from_slice(env.obs());
                seen.extend(env.rewards());
                seen.extend(env.episodes().iter().map(|&e| e as f32));
            }
            assert!(env.episodes().iter().sum::<u64>() > 20);
            seen
        };
        let reference = run(1, 1, true);
        assert_eq!(reference, run(1, 64, false), "{name}");
        assert_eq!(reference, run(2, 7, false), "{name}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
