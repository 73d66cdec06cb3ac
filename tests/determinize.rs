//! Determinization conformance ([`cardvec::core::determinize`]), for every game of the
//! registry and every configuration it lists, on states reached by random play:
//!
//! - every game has the capability;
//! - **invisible**: a sample passes `check_state` and shows the seat what the state shows
//!   it (its observation, the seat to act, the end flags, the legal mask when the seat is
//!   to act, its information state where the game has one), and can be played to the end;
//! - **blind**: two states that differ only in cards the seat cannot see (the second made
//!   by a determinization of the first from another stream) give the same sample from the
//!   same stream, byte for byte;
//! - **uniform**: on a state with few hidden deals (found late in a random game), the
//!   distinct samples are equally frequent: a chi-square test with a fixed seed and a
//!   threshold (the 1e-6 quantile) that a biased sampler fails. The samples are told apart
//!   by their bytes, or, where every sample differs (151 draws a fresh match seed), by
//!   every seat's observation (each seat sees its own hand), both equiprobable classes
//!   under a uniform deal. Every game has such a state in at least one configuration
//!   (not every configuration: a short Flip 7 game never runs its deck low).

use std::collections::BTreeMap;

use cardvec::core::policy::random_legal;
use cardvec::core::spec::{GameSpec, Options};
use cardvec::core::{DeterminizeFn, Game, LaneRng};
use cardvec::registry::{self, Visitor};

/// A state's bytes.
fn bytes<G: Game>(s: &G::State) -> Vec<u8> {
    bytemuck::bytes_of(s).to_vec()
}

/// What a seat is shown: its observation (bits), the legal mask when it is to act, the seat
/// to act, the end flags and its information-state key.
type Shown = (Vec<u32>, Vec<u8>, usize, (bool, bool), Vec<u8>);

/// Everything `seat` is shown of `state`.
fn shown<G: GameSpec>(game: &G, state: &G::State, seat: usize) -> Shown {
    let mut obs = vec![0f32; game.obs_dim()];
    game.observe(state, seat, &mut obs);
    let mut mask = vec![0u8; game.num_actions()];
    let to_act = game.current_player(state);
    if to_act == seat {
        game.legal_mask(state, &mut mask);
    }
    let mut key = Vec::new();
    if let Some(fns) = G::info_states() {
        (fns.key)(game, state, seat, &mut key);
    }
    (
        obs.iter().map(|x| x.to_bits()).collect(),
        mask,
        to_act,
        game.finished(state),
        key,
    )
}

/// Every seat's observation of `state`, as bits.
fn all_observations<G: Game>(game: &G, state: &G::State) -> Vec<u32> {
    let mut out = Vec::new();
    let mut obs = vec![0f32; game.obs_dim()];
    for p in 0..game.num_players() {
        game.observe(state, p, &mut obs);
        out.extend(obs.iter().map(|x| x.to_bits()));
    }
    out
}

/// The states of one random game from `seed`, in order (at most `limit`), live ones only.
fn random_game<G: Game>(game: &G, seed: u64, limit: usize) -> Vec<G::State> {
    let mut deal = LaneRng::for_lane(seed, 0, 0);
    let mut policy = LaneRng::for_lane(seed, 1, 0);
    let mut state = game.reset(&mut deal);
    let mut mask = vec![0u8; game.num_actions()];
    let mut rewards = vec![0f32; game.num_players()];
    let mut out = Vec::new();
    while out.len() < limit {
        let (t, u) = game.finished(&state);
        if t || u {
            break;
        }
        out.push(state);
        game.legal_mask(&state, &mut mask);
        rewards.fill(0.0);
        let a = random_legal(&mask, &mut policy);
        assert!(game.step(&mut state, a, &mut deal, &mut rewards).applied);
    }
    out
}

/// Plays `state` to the end (or 5,000 plies) with random legal actions.
fn play_out<G: Game>(game: &G, mut state: G::State, seed: u64) -> Result<(), String> {
    let mut rng = LaneRng::from_seed(seed);
    let mut mask = vec![0u8; game.num_actions()];
    let mut rewards = vec![0f32; game.num_players()];
    for _ in 0..5000 {
        let (t, u) = game.finished(&state);
        if t || u {
            return Ok(());
        }
        game.legal_mask(&state, &mut mask);
        let a = random_legal(&mask, &mut rng);
        rewards.fill(0.0);
        if !game.step(&mut state, a, &mut rng, &mut rewards).applied {
            return Err(format!("random legal action {a} refused"));
        }
    }
    Ok(())
}

/// The 1e-6 upper quantile of the chi-square distribution with `df` degrees of freedom
/// (Wilson–Hilferty).
fn chi2_threshold(df: f64) -> f64 {
    let z = 4.753; // the standard normal's 1 - 1e-6 quantile
    let a = 2.0 / (9.0 * df);
    df * (1.0 - a + z * a.sqrt()).powi(3)
}

/// The chi-square statistic of `counts` against equal frequencies.
fn chi2(counts: &BTreeMap<Vec<u8>, u64>, total: u64) -> f64 {
    let expected = total as f64 / counts.len() as f64;
    counts
        .values()
        .map(|&c| (c as f64 - expected).powi(2) / expected)
        .sum()
}

/// The key a sample is counted under: its bytes, or every seat's observation.
fn key<G: Game>(game: &G, s: &G::State, by_observation: bool) -> Vec<u8> {
    if by_observation {
        bytemuck::cast_slice(&all_observations(game, s)).to_vec()
    } else {
        bytes::<G>(s)
    }
}

/// Counts the samples of `(state, seat)` by key.
fn histogram<G: Game>(
    game: &G,
    det: DeterminizeFn<G>,
    state: &G::State,
    seat: usize,
    draws: u64,
    seed: u64,
    by_observation: bool,
) -> BTreeMap<Vec<u8>, u64> {
    let mut counts = BTreeMap::new();
    let mut rng = LaneRng::from_seed(seed);
    for _ in 0..draws {
        *counts
            .entry(key(game, &det(game, state, seat, &mut rng), by_observation))
            .or_insert(0) += 1;
    }
    counts
}

/// A uniformity test run: the number of distinct samples, the statistic and its threshold.
#[derive(Debug)]
struct Uniformity {
    classes: usize,
    stat: f64,
    threshold: f64,
    by_observation: bool,
}

/// Looks for a state of few hidden deals (2..=1000 distinct samples among 3,000) in random
/// games (from their end), then draws 40 samples per class and runs the chi-square test.
fn uniformity<G: GameSpec>(game: &G, det: DeterminizeFn<G>, label: &str) -> Option<Uniformity> {
    for by_observation in [false, true] {
        for seed in 0..12u64 {
            let states = random_game(game, 1000 + seed, 4000);
            for state in states.iter().rev().take(300) {
                let seat = game.current_player(state);
                // Quick filters: some repeat among 80 draws, then at most 1,000 classes
                // among 3,000.
                if histogram(game, det, state, seat, 80, seed, by_observation).len() == 80 {
                    continue;
                }
                let pilot = histogram(game, det, state, seat, 3000, seed, by_observation);
                if !(2..=1000).contains(&pilot.len()) {
                    continue;
                }
                let draws = 40 * pilot.len() as u64;
                let counts = histogram(game, det, state, seat, draws, 77 + seed, by_observation);
                let stat = chi2(&counts, draws);
                let threshold = chi2_threshold(counts.len() as f64 - 1.0);
                assert!(
                    stat <= threshold,
                    "{label}: samples not uniform over {} classes: chi2 {stat:.1} > {threshold:.1}",
                    counts.len()
                );
                return Some(Uniformity {
                    classes: counts.len(),
                    stat,
                    threshold,
                    by_observation,
                });
            }
        }
    }
    None
}

struct Check;

impl Visitor for Check {
    type Output = String;
    fn visit<G: GameSpec>(&mut self) -> String {
        let id = G::INFO.id;
        let det = G::determinizer().unwrap_or_else(|| panic!("{id} has no determinization"));
        let mut notes = Vec::new();
        let mut uniform = 0;
        for text in G::INFO.configurations {
            let options = Options::parse(G::INFO.options, text).unwrap();
            let game = G::configure(&options).unwrap();
            let label = format!("{id} {text:?}");
            let (mut checked, mut changed) = (0u64, 0u64);
            for seed in 0..6u64 {
                for (ply, state) in random_game(&game, seed, 400).iter().enumerate().step_by(3) {
                    for seat in 0..game.num_players() {
                        let ctx = format!("{label} seed {seed} ply {ply} seat {seat}");
                        let mut rng = LaneRng::for_lane(seed, ply as u64, seat as u64);
                        let sample = det(&game, state, seat, &mut rng.clone());
                        game.check_state(&sample)
                            .unwrap_or_else(|e| panic!("{ctx}: sample refused: {e}"));
                        assert_eq!(
                            shown(&game, &sample, seat),
                            shown(&game, state, seat),
                            "{ctx}: the sample shows the seat something else"
                        );
                        changed += (bytes::<G>(&sample) != bytes::<G>(state)) as u64;
                        // Another state the seat cannot tell from this one.
                        let other = det(
                            &game,
                            state,
                            seat,
                            &mut LaneRng::from_seed(!seed ^ ply as u64),
                        );
                        assert_eq!(
                            bytes::<G>(&det(&game, &other, seat, &mut rng.clone())),
                            bytes::<G>(&sample),
                            "{ctx}: the sample depends on hidden cards"
                        );
                        // The same stream, the same sample; a stream is advanced.
                        let again = det(&game, state, seat, &mut rng);
                        assert_eq!(bytes::<G>(&again), bytes::<G>(&sample), "{ctx}");
                        if ply % 30 == 0 {
                            play_out(&game, sample, seed).unwrap_or_else(|e| panic!("{ctx}: {e}"));
                        }
                        checked += 1;
                    }
                }
            }
            // Some samples differ from the state (the hidden cards are dealt afresh).
            assert!(
                changed * 4 > checked,
                "{label}: {changed} of {checked} samples changed"
            );
            notes.push(format!("{label}: {checked} samples invisible and blind"));
            // Uniformity where a state with few hidden deals turns up (in every game at least
            // one configuration has one).
            if let Some(u) = uniformity(&game, det, &label) {
                uniform += 1;
                notes.push(format!(
                    "{label}: uniform over {} classes{} (chi2 {:.1} <= {:.1})",
                    u.classes,
                    if u.by_observation {
                        " of observations"
                    } else {
                        ""
                    },
                    u.stat,
                    u.threshold
                ));
            }
        }
        // Hold'em's random games rarely see a river with two seats in; its test is below.
        assert!(
            uniform > 0 || id == "holdem",
            "{id}: no configuration has a state with few hidden deals"
        );
        notes.join("\n")
    }
}

#[test]
fn every_game_determinizes_invisibly_blindly_and_uniformly() {
    let notes = registry::visit_all(&mut Check);
    assert_eq!(notes.len(), registry::GAMES.len());
    eprintln!("{}", notes.join("\n"));
}

/// A sampler that favours one deal fails the uniformity test (so the test can fail).
#[test]
fn a_biased_sampler_fails_the_chi_square_test() {
    use cardvec::games::kuhn::KuhnPoker;
    let game = KuhnPoker;
    let state = game.reset_from_order(&[0, 1]).unwrap();
    fn biased(
        g: &KuhnPoker,
        s: &<KuhnPoker as Game>::State,
        seat: usize,
        rng: &mut LaneRng,
    ) -> <KuhnPoker as Game>::State {
        // Two thirds of the time the fair sample, else the true state.
        let fair = KuhnPoker::determinizer().unwrap()(g, s, seat, rng);
        if rng.below(3) == 0 {
            *s
        } else {
            fair
        }
    }
    let counts = histogram(&game, biased, &state, 0, 400, 3, false);
    assert_eq!(counts.len(), 2);
    assert!(chi2(&counts, 400) > chi2_threshold(1.0), "{counts:?}");
    let fair = histogram(
        &game,
        KuhnPoker::determinizer().unwrap(),
        &state,
        0,
        400,
        3,
        false,
    );
    assert!(chi2(&fair, 400) <= chi2_threshold(1.0), "{fair:?}");
}

/// The exact number of hidden deals on the small games: Kuhn's opponent card (2), Leduc's
/// opponent and public cards before the flop (5 x 4) and the opponent's card after (4).
#[test]
fn small_games_reach_every_hidden_deal() {
    use cardvec::games::{kuhn::KuhnPoker, leduc::LeducHoldem};
    let kuhn = KuhnPoker;
    let s = kuhn.reset_from_order(&[2, 0]).unwrap();
    let counts = histogram(
        &kuhn,
        KuhnPoker::determinizer().unwrap(),
        &s,
        0,
        600,
        1,
        false,
    );
    assert_eq!(counts.len(), 2);
    let leduc = LeducHoldem;
    let mut s = leduc.reset(&mut LaneRng::from_seed(2));
    let det = LeducHoldem::determinizer().unwrap();
    assert_eq!(histogram(&leduc, det, &s, 1, 4000, 1, false).len(), 20);
    let mut rewards = [0f32; 2];
    let mut rng = LaneRng::from_seed(0);
    for _ in 0..2 {
        leduc.step(&mut s, 1, &mut rng, &mut rewards); // check, check: the flop
    }
    assert!(s.public_card().is_some());
    assert_eq!(histogram(&leduc, det, &s, 0, 1000, 1, false).len(), 4);
}

/// Hold'em heads-up on the river (checked down): the opponent's two hole cards are uniform
/// over the 45 x 44 ordered pairs of the cards the seat has not seen.
#[test]
fn holdem_river_holes_are_uniform() {
    use cardvec::games::holdem::NoLimitHoldem;
    let options = Options::parse(NoLimitHoldem::INFO.options, "num_players=2").unwrap();
    let game = NoLimitHoldem::configure(&options).unwrap();
    let mut rng = LaneRng::from_seed(8);
    let mut state = game.reset(&mut rng);
    let mut rewards = [0f32; 2];
    let mut mask = vec![0u8; game.num_actions()];
    // Check or call until the river is dealt.
    while !game.finished(&state).0 {
        game.legal_mask(&state, &mut mask);
        if state.board().len() == 5 {
            break;
        }
        assert!(game.step(&mut state, 1, &mut rng, &mut rewards).applied);
    }
    assert_eq!(state.board().len(), 5, "checked down to the river");
    let seat = game.current_player(&state);
    let det = NoLimitHoldem::determinizer().unwrap();
    let counts = histogram(&game, det, &state, seat, 20 * 1980, 5, false);
    assert_eq!(counts.len(), 1980);
    let stat = chi2(&counts, 20 * 1980);
    assert!(stat <= chi2_threshold(1979.0), "chi2 {stat:.1}");
}
