//! Batch information states (`VecEnv::write_info_states`, `info_state_key`,
//! `info_state_string`, the same on `DynEnv`), over every game of the registry that has
//! them ([`registry::info_state_ids`]):
//!
//! - each row is the game's own `InfoStates::info_state_tensor` of the lane's state for the
//!   seat asked (Kuhn and Leduc: the observation), the key and string the game's;
//! - rows and keys do not depend on the thread count or the chunk size;
//! - a game without them, a wrong length or a bad seat is an error that writes nothing.

use cardvec::core::spec::GameSpec;
use cardvec::core::{DynEnv, EnvOptions, InfoSeats, InfoStates, VecEnv};
use cardvec::games::{holdem::NoLimitHoldem, kuhn::KuhnPoker, leduc::LeducHoldem};
use cardvec::registry;

fn env_options(n: usize, threads: usize, chunk: usize) -> EnvOptions {
    EnvOptions {
        num_threads: Some(threads),
        chunk_size: chunk,
        seed: 5,
        autoreset: true,
        ..EnvOptions::new(n)
    }
}

/// Plays `steps` random steps (the game's `random` bot) on `env`.
fn play(env: &mut dyn DynEnv, steps: usize) {
    let mut actions = vec![0i64; env.num_envs()];
    let mut u32s = vec![0u32; env.num_envs()];
    for t in 0..steps {
        cardvec::registry::bot_actions(env, "random", None, t as u64, &mut actions).unwrap();
        for (u, &a) in u32s.iter_mut().zip(&actions) {
            // A finished lane (no action) resets on this step whatever it is given.
            *u = a.max(0) as u32;
        }
        env.step(&u32s).unwrap();
    }
}

/// Every lane's rows (the seat to act, then each seat), keys and strings.
type Dump = (Vec<f32>, Vec<Vec<u8>>, Vec<String>);

fn dump(env: &dyn DynEnv) -> Dump {
    let (n, d) = (env.num_envs(), env.info_state_dim().unwrap());
    let mut rows = vec![0f32; n * d * (1 + env.num_players())];
    let (to_act, by_seat) = rows.split_at_mut(n * d);
    env.write_info_states(InfoSeats::ToAct, to_act).unwrap();
    for (seat, out) in by_seat.chunks_exact_mut(n * d).enumerate() {
        env.write_info_states(InfoSeats::Seat(seat), out).unwrap();
    }
    let mut keys = Vec::new();
    let mut strings = Vec::new();
    for lane in 0..n {
        for seat in 0..env.num_players() {
            keys.push(env.info_state_key(lane, seat).unwrap());
            strings.push(env.info_state_string(lane, seat).unwrap());
        }
    }
    (rows, keys, strings)
}

#[test]
fn the_games_with_information_states_are_listed() {
    let ids = registry::info_state_ids();
    assert!(ids.contains(&"kuhn") && ids.contains(&"leduc"), "{ids:?}");
    for info in registry::GAMES {
        let env = registry::make(info.id, vec![], EnvOptions::new(2)).unwrap();
        assert_eq!(env.info_state_dim().is_some(), ids.contains(&info.id));
    }
}

#[test]
fn rows_and_keys_do_not_depend_on_threads_or_chunks() {
    for id in registry::info_state_ids() {
        let mut dumps = Vec::new();
        for (threads, chunk) in [(1, 64), (2, 1), (2, 7)] {
            let mut env = registry::make(id, vec![], env_options(50, threads, chunk)).unwrap();
            play(&mut *env, 9);
            dumps.push(dump(&*env));
        }
        assert!(dumps.windows(2).all(|w| w[0] == w[1]), "{id}");
        // Not all alike: the lanes hold different states.
        let keys: std::collections::BTreeSet<_> = dumps[0].1.iter().collect();
        assert!(keys.len() > 10, "{id}");
    }
}

/// The rows of a typed environment are the game's tensors of each lane's state, the
/// observation of the seat asked (Kuhn and Leduc: OpenSpiel's information-state tensor is
/// their observation), and the key and string the game's.
fn rows_are_the_games<G: GameSpec + InfoStates + Clone>(game: G, obs_is_tensor: bool) {
    let mut env = VecEnv::new(game.clone(), env_options(40, 2, 3)).unwrap();
    play(&mut env, 3);
    let (n, d, p) = (40, game.info_state_dim(), game.num_players());
    assert_eq!(env.info_state_dim(), Some(d));
    let mut rows = vec![0f32; n * d];
    env.write_info_states(InfoSeats::ToAct, &mut rows).unwrap();
    if obs_is_tensor {
        assert_eq!(rows, env.obs());
    }
    let seats: Vec<usize> = (0..n).map(|i| (i * 7 + 1) % p).collect();
    env.write_info_states(InfoSeats::PerLane(&seats), &mut rows)
        .unwrap();
    let mut row = vec![0f32; d];
    let mut obs = vec![0f32; game.obs_dim()];
    for lane in 0..n {
        let state = env.state(lane).unwrap();
        game.info_state_tensor(state, seats[lane], &mut row);
        assert_eq!(&rows[lane * d..(lane + 1) * d], &row[..]);
        if obs_is_tensor {
            env.observe_as(lane, seats[lane], &mut obs).unwrap();
            assert_eq!(obs, row);
        }
        let mut key = Vec::new();
        game.info_state_key(state, seats[lane], &mut key);
        assert_eq!(env.info_state_key(lane, seats[lane]).unwrap(), key);
        assert_eq!(
            env.info_state_string(lane, seats[lane]).unwrap(),
            game.info_state_string(state, seats[lane])
        );
    }
}

#[test]
fn kuhn_and_leduc_rows_are_their_observations() {
    rows_are_the_games(KuhnPoker, true);
    rows_are_the_games(LeducHoldem, true);
}

#[test]
fn holdem_rows_start_with_the_observation() {
    for players in [2, 6] {
        let game = NoLimitHoldem::standard(players).unwrap();
        rows_are_the_games(game, false);
        let mut env = VecEnv::new(game, env_options(30, 2, 4)).unwrap();
        play(&mut env, 4);
        let d = game.info_state_dim();
        let mut rows = vec![0f32; 30 * d];
        env.write_info_states(InfoSeats::ToAct, &mut rows).unwrap();
        let obs = game.obs_dim();
        for (row, ob) in rows.chunks_exact(d).zip(env.obs().chunks_exact(obs)) {
            assert_eq!(&row[..obs], ob);
        }
    }
}

#[test]
fn bad_calls_are_errors_that_write_nothing() {
    let env = registry::make("leduc", vec![], EnvOptions::new(4)).unwrap();
    let d = env.info_state_dim().unwrap();
    let mut out = vec![7f32; 4 * d];
    let err = env
        .write_info_states(InfoSeats::Seat(2), &mut out)
        .unwrap_err();
    assert!(err.to_string().contains("got 2"), "{err}");
    let err = env
        .write_info_states(InfoSeats::PerLane(&[0, 1, 0]), &mut out)
        .unwrap_err();
    assert!(err.to_string().contains("seats"), "{err}");
    let err = env
        .write_info_states(InfoSeats::PerLane(&[0, 1, 5, 0]), &mut out)
        .unwrap_err();
    assert!(err.to_string().contains("got 5"), "{err}");
    let err = env
        .write_info_states(InfoSeats::ToAct, &mut out[1..])
        .unwrap_err();
    assert!(err.to_string().contains("expected length"), "{err}");
    assert!(out.iter().all(|&x| x == 7.0));
    assert!(env.info_state_key(4, 0).is_err());
    assert!(env.info_state_key(0, 2).is_err());
    assert!(env.info_state_string(0, 9).is_err());

    let other = registry::GAMES
        .iter()
        .find(|g| !registry::info_state_ids().contains(&g.id))
        .unwrap();
    let env = registry::make(other.id, vec![], EnvOptions::new(2)).unwrap();
    assert_eq!(env.info_state_dim(), None);
    let err = env
        .write_info_states(InfoSeats::ToAct, &mut out)
        .unwrap_err();
    assert!(err.to_string().contains(other.id), "{err}");
    assert!(env.info_state_key(0, 0).is_err());
    assert!(env.info_state_string(0, 0).is_err());
    let err = registry::no_info_states(other.id).to_string();
    assert!(
        err.contains(other.id) && err.contains("kuhn") && err.contains("leduc"),
        "{err}"
    );
}
