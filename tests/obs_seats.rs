//! Every seat's rows (`EnvOptions::obs_seats = ObsSeats::All`): for every registered game in
//! every configuration its entry lists, after every batch operation, row `[i, s]` of
//! `VecEnv::obs` must be bit for bit what `Game::observe(state_i, s)` writes — through
//! steps under the mixed random/illegal policy, autoreset on and off (finished lanes),
//! illegal actions under each `on_illegal` rule that steps, a step limit, steps with
//! observation off (stale rows), lane resets, gathers, states set from outside and
//! `VecEnv::observe`. A game with `Game::observe_seats_update` (Lost Cities) updates the rows
//! incrementally, the others observe every seat in full; both are held to the same rows.
//! The acting seat's row must also equal the row an environment with the default
//! (`ObsSeats::Acting`) shows, played beside it.

#[allow(dead_code)]
use crate::common;

use cardvec::core::spec::{GameSpec, Options};
use cardvec::core::{EnvOptions, Error, Game, LaneRng, ObsDtype, ObsSeats, OnIllegal, VecEnv};
use cardvec::registry::{self, Visitor};
use common::mixed_actions;

fn bits(x: &[f32]) -> Vec<u32> {
    x.iter().map(|v| v.to_bits()).collect()
}

/// Every row of `seats` (an `ObsSeats::All` environment) against the game's observation of
/// its lane for its seat, and the acting seat's row against `acting`'s row of the lane.
fn verify<G: Game>(seats: &VecEnv<G>, acting: &VecEnv<G>, when: &str) {
    let game = seats.game();
    let (p, d) = (game.num_players(), game.obs_dim());
    assert_eq!(seats.obs().len(), seats.num_envs() * p * d, "{when}: rows");
    let mut want = vec![0.0f32; d];
    for (i, state) in seats.states().iter().enumerate() {
        for s in 0..p {
            game.observe(state, s, &mut want);
            let row = &seats.obs()[(i * p + s) * d..(i * p + s + 1) * d];
            if bits(row) != bits(&want) {
                let at = (0..d)
                    .find(|&k| row[k].to_bits() != want[k].to_bits())
                    .unwrap();
                panic!(
                    "{when}: lane {i}, seat {s}: value {at} is {} where observe gives {}",
                    row[at], want[at]
                );
            }
        }
        let cp = seats.current_player()[i];
        assert_eq!(
            cp,
            acting.current_player()[i],
            "{when}: lane {i}: current player"
        );
        if cp >= 0 && (cp as usize) < p {
            let cp = cp as usize;
            assert_eq!(
                bits(&seats.obs()[(i * p + cp) * d..(i * p + cp + 1) * d]),
                bits(&acting.obs()[i * d..(i + 1) * d]),
                "{when}: lane {i}: the acting seat's row differs from the acting row"
            );
        }
    }
}

/// Plays an `ObsSeats::All` environment and a default one side by side.
fn play<G: GameSpec>(game: &G, label: &str, on_illegal: OnIllegal, autoreset: bool) {
    const N: usize = 19;
    let options = |obs_seats| EnvOptions {
        seed: 11,
        num_threads: Some(2),
        chunk_size: 5,
        autoreset,
        max_steps: Some(150),
        on_illegal,
        obs_seats,
        ..EnvOptions::new(N)
    };
    let mut seats = VecEnv::new(game.clone(), options(ObsSeats::All)).unwrap();
    let mut acting = VecEnv::new(game.clone(), options(ObsSeats::Acting)).unwrap();
    assert_eq!(seats.obs_seats(), ObsSeats::All);
    let label = format!("{label} on_illegal={on_illegal} autoreset={autoreset}");
    verify(&seats, &acting, &format!("{label}: after construction"));
    let mut rng = LaneRng::from_seed(5);
    for step in 0..400 {
        // Observation off for a few steps now and then: the rows go stale and the next
        // observed step observes in full.
        let observe = step % 97 < 90;
        seats.set_observe_on_step(observe);
        acting.set_observe_on_step(observe);
        let actions = mixed_actions(&acting, &mut rng);
        let (a, b) = (seats.step(&actions), acting.step(&actions));
        assert_eq!(a.is_ok(), b.is_ok(), "{label}: step {step}");
        if observe {
            verify(&seats, &acting, &format!("{label}: step {step}"));
        }
        match step % 50 {
            13 => {
                let mask: Vec<bool> = (0..N).map(|i| i % 3 == step % 3).collect();
                seats.reset_lanes(&mask).unwrap();
                acting.reset_lanes(&mask).unwrap();
            }
            29 => {
                let sources: Vec<usize> = (0..N).map(|i| (i * 7 + step) % N).collect();
                seats.gather(&sources).unwrap();
                acting.gather(&sources).unwrap();
            }
            41 => {
                let state = *acting.state((step * 3) % N).unwrap();
                seats.set_state(step % N, state).unwrap();
                acting.set_state(step % N, state).unwrap();
            }
            47 => {
                seats.observe();
                acting.observe();
            }
            _ => continue,
        }
        if seats.observe_on_step() || step % 50 == 47 {
            verify(
                &seats,
                &acting,
                &format!("{label}: after operation {}", step % 50),
            );
        }
    }
    seats.observe();
    acting.observe();
    verify(&seats, &acting, &format!("{label}: at the end"));
}

struct Suite {
    configurations: usize,
}

impl Visitor for Suite {
    type Output = ();
    fn visit<G: GameSpec>(&mut self) {
        for text in G::INFO.configurations {
            let options = Options::parse(G::INFO.options, text).unwrap();
            let game = G::configure(&options).unwrap();
            let label = format!("{} {text:?}", G::INFO.id);
            for (on_illegal, autoreset) in [
                (OnIllegal::Noop, true),
                (OnIllegal::Noop, false),
                (OnIllegal::Lose, true),
            ] {
                let lose = on_illegal == OnIllegal::Lose;
                let mut rewards = vec![0.0; game.num_players()];
                let state = game.reset(&mut LaneRng::from_seed(0));
                let seat = game.current_player(&state);
                if lose && !game.forfeit_rewards(&state, seat, &mut rewards) {
                    continue;
                }
                play(&game, &label, on_illegal, autoreset);
            }
            self.configurations += 1;
        }
    }
}

#[test]
fn every_seats_rows_are_its_observations_in_every_game() {
    let mut suite = Suite { configurations: 0 };
    registry::visit_all(&mut suite);
    assert!(suite.configurations >= registry::GAMES.len());
}

#[test]
fn every_seats_rows_need_f32() {
    let game = cardvec::games::lost_cities::LostCities::default();
    let options = EnvOptions {
        obs_dtype: ObsDtype::U8,
        obs_seats: ObsSeats::All,
        ..EnvOptions::new(4)
    };
    let err = VecEnv::new(game, options)
        .err()
        .expect("u8 rows of every seat are refused");
    assert!(
        matches!(
            err,
            Error::Invalid {
                what: "obs_seats",
                ..
            }
        ),
        "{err}"
    );
    assert_eq!(ObsSeats::parse("all").unwrap(), ObsSeats::All);
    assert_eq!("acting".parse::<ObsSeats>().unwrap(), ObsSeats::Acting);
    let err = ObsSeats::parse("both").unwrap_err();
    assert!(err.to_string().contains("acting, all"), "{err}");
}
