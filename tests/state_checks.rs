//! `Game::check_state` held to its contract for every registered game: the
//! state-corruption check (`cardvec::core::fuzz::check_states`, what the `states` fuzz
//! target runs) on random inputs, and regressions: corrupt states that `VecEnv::set_state`
//! must refuse, leaving the environment as it was.

use cardvec::core::fuzz::{check_states, StateCheckReport};
use cardvec::core::spec::{GameSpec, Options};
use cardvec::core::{EnvOptions, Error, Game, LaneRng, VecEnv};
use cardvec::games::flip7::{Flip7, Flip7State};
use cardvec::games::holdem::{small_blind_seat, NoLimitHoldem, NoLimitHoldemState};
use cardvec::games::i151::{I151State, I151};
use cardvec::games::lost_cities::{LostCities, LostCitiesState};
use cardvec::registry::{self, state_check_any, Visitor};
use proptest::prelude::*;

/// The fields of one structured input of the state-corruption check (its layout is in
/// `check_states`' documentation), so that random cases corrupt a few bytes of a state
/// rather than many (which the checks nearly always reject).
#[derive(Clone, Debug)]
struct Case {
    source: u8,
    config: Vec<u8>,
    seed: u64,
    steps: u8,
    donor: [u8; 2],
    edits: Vec<(u8, u16, u8)>,
    script: Vec<u8>,
}

impl Case {
    fn bytes(&self, config_len: usize) -> Vec<u8> {
        let mut out = vec![self.source];
        out.extend((0..config_len).map(|i| self.config.get(i).copied().unwrap_or(0)));
        out.extend(self.seed.to_le_bytes());
        out.push(self.steps);
        out.extend(self.donor);
        out.push(self.edits.len() as u8);
        for &(kind, offset, value) in &self.edits {
            out.push(kind);
            out.extend(offset.to_le_bytes());
            out.push(value);
        }
        out.extend(&self.script);
        out
    }
}

fn case() -> impl Strategy<Value = Case> {
    (
        any::<u8>(),
        proptest::collection::vec(any::<u8>(), 4),
        any::<u64>(),
        any::<u8>(),
        any::<[u8; 2]>(),
        proptest::collection::vec((any::<u8>(), any::<u16>(), any::<u8>()), 0..3),
        proptest::collection::vec(any::<u8>(), 0..40),
    )
        .prop_map(|(source, config, seed, steps, donor, edits, script)| Case {
            source,
            config,
            seed,
            steps,
            donor,
            edits,
            script,
        })
}

/// Runs one case on every game.
struct RunCase<'a>(&'a Case);

impl Visitor for RunCase<'_> {
    type Output = (&'static str, Result<StateCheckReport, String>);
    fn visit<G: GameSpec>(&mut self) -> Self::Output {
        (
            G::INFO.id,
            check_states::<G>(&self.0.bytes(G::FUZZ_CONFIG_BYTES)),
        )
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]
    #[test]
    fn every_game_keeps_check_state_sound_on_corrupted_states(case in case()) {
        for (id, result) in registry::visit_all(&mut RunCase(&case)) {
            prop_assert!(result.is_ok(), "{}: {:?}", id, result);
        }
    }

    #[test]
    fn every_game_keeps_check_state_sound_on_raw_bytes(
        data in proptest::collection::vec(any::<u8>(), 0..200)
    ) {
        let result = state_check_any(&data);
        prop_assert!(result.is_ok(), "{:?}", result);
    }
}

/// The corruption check must not be vacuous: over a few hundred inputs, every game both
/// rejects corrupted states and accepts some (mutations of bytes its state does not depend
/// on, or changes to another valid state) and plays on from them.
#[test]
fn corrupted_states_are_both_accepted_and_rejected() {
    let mut rng = LaneRng::from_seed(13);
    let mut totals = std::collections::BTreeMap::<&str, StateCheckReport>::new();
    for _ in 0..200 {
        let case = Case {
            source: rng.below(256) as u8,
            config: (0..4).map(|_| rng.below(256) as u8).collect(),
            seed: rng.next_u64(),
            steps: rng.below(256) as u8,
            donor: [rng.below(256) as u8, rng.below(256) as u8],
            edits: Vec::new(),
            script: Vec::new(),
        };
        for (id, result) in registry::visit_all(&mut RunCase(&case)) {
            let report = result.unwrap_or_else(|e| panic!("{id}: {e}"));
            let total = totals.entry(id).or_default();
            total.tried += report.tried;
            total.accepted += report.accepted;
            total.steps += report.steps;
        }
    }
    for (id, t) in totals {
        assert!(
            t.accepted >= t.tried / 50
                && t.accepted <= t.tried * 9 / 10
                && 4 * t.steps > t.accepted,
            "{id}: {t:?}"
        );
    }
}

/// Every state of an environment of every listed configuration, after any number of
/// random legal batch steps, goes back into the environment through its bytes.
#[test]
fn states_an_environment_reaches_are_accepted_back() {
    struct RoundTrip;
    impl Visitor for RoundTrip {
        type Output = ();
        fn visit<G: GameSpec>(&mut self) {
            for text in G::INFO.configurations {
                let game = G::configure(&Options::parse(G::INFO.options, text).unwrap()).unwrap();
                let mut options = EnvOptions::new(8);
                options.seed = 5;
                options.autoreset = false;
                let mut env = VecEnv::new(game.clone(), options).unwrap();
                let mut rng = LaneRng::from_seed(3);
                for _ in 0..300 {
                    let actions: Vec<u32> = env
                        .legal_mask()
                        .chunks(game.num_actions())
                        .map(|m| cardvec::core::policy::random_legal(m, &mut rng))
                        .collect();
                    env.step(&actions).unwrap();
                    for lane in 0..env.num_envs() {
                        let bytes = env.state_bytes(lane).unwrap().to_vec();
                        env.set_state_bytes(lane, &bytes)
                            .unwrap_or_else(|e| panic!("{} [{text}] lane {lane}: {e}", G::INFO.id));
                    }
                }
            }
        }
    }
    registry::visit_all(&mut RoundTrip);
}

/// Sets `state` on lane 1 of `env` and expects an `Error::Invalid` that changes nothing.
fn assert_refused<G: Game>(env: &mut VecEnv<G>, state: G::State, what: &str) {
    let before = env.snapshot();
    match env.set_state(1, state) {
        Err(Error::Invalid { what: "state", .. }) => {}
        other => panic!("{what}: expected Error::Invalid, got {other:?}"),
    }
    assert_eq!(
        env.snapshot(),
        before,
        "{what}: the refused state changed the env"
    );
    let bytes = bytemuck::bytes_of(&state).to_vec();
    assert!(
        matches!(env.set_state_bytes(1, &bytes), Err(Error::Invalid { .. })),
        "{what}: accepted as bytes"
    );
    assert_eq!(
        env.snapshot(),
        before,
        "{what}: the refused bytes changed the env"
    );
}

fn env_of<G: Game>(game: G) -> VecEnv<G> {
    let mut options = EnvOptions::new(4);
    options.seed = 9;
    VecEnv::new(game, options).unwrap()
}

/// Applies `edit` to a copy of lane 1's state and expects it refused.
fn refuse_edit<G: Game>(game: G, what: &str, edit: impl Fn(&mut G::State)) {
    let mut env = env_of(game);
    let mut state = *env.state(1).unwrap();
    edit(&mut state);
    assert_refused(&mut env, state, what);
}

#[test]
fn lost_cities_seat_to_act_7_is_refused() {
    refuse_edit(LostCities, "to_act = 7", |s: &mut LostCitiesState| {
        s.to_act = 7
    });
}

#[test]
fn lost_cities_deck_position_200_is_refused() {
    refuse_edit(LostCities, "deck_pos = 200", |s: &mut LostCitiesState| {
        s.deck_pos = 200
    });
}

#[test]
fn lost_cities_padding_and_deal_order_are_checked() {
    let padding_at = std::mem::size_of::<LostCitiesState>() - 1;
    refuse_edit(LostCities, "padding", |s: &mut LostCitiesState| {
        bytemuck::bytes_of_mut(s)[padding_at] = 1
    });
    refuse_edit(
        LostCities,
        "deal order card 99",
        |s: &mut LostCitiesState| s.deck[0] = 99,
    );
    refuse_edit(LostCities, "seat to act against the step parity", |s| {
        s.to_act ^= 1
    });
}

#[test]
fn flip7_draw_pile_longer_than_the_deck_is_refused() {
    let game = Flip7::with_players(4).unwrap();
    refuse_edit(game, "deck_len = 200", |s: &mut Flip7State| {
        s.deck_len = 200
    });
    refuse_edit(game, "task_len = 40", |s: &mut Flip7State| s.task_len = 40);
    refuse_edit(game, "pending card 30", |s: &mut Flip7State| s.pending = 30);
    refuse_edit(game, "padding", |s: &mut Flip7State| {
        let at = std::mem::offset_of!(Flip7State, obs_deferred_len) + 1;
        bytemuck::bytes_of_mut(s)[at] = 1
    });
}

#[test]
fn i151_imposed_suit_beyond_the_suits_is_refused() {
    let game = I151::new(3).unwrap();
    refuse_edit(game, "required_suit = 9", |s: &mut I151State| {
        s.required_suit = 9
    });
    refuse_edit(game, "seat to act 5", |s: &mut I151State| s.to_act = 5);
    refuse_edit(game, "players = 4", |s: &mut I151State| s.num_players = 4);
}

#[test]
fn holdem_chips_from_nowhere_are_refused() {
    let game = NoLimitHoldem::standard(6).unwrap();
    refuse_edit(game, "stack + 1", |s: &mut NoLimitHoldemState| {
        s.stacks[0] += 1
    });
    refuse_edit(game, "button 6 of 6 seats", |s: &mut NoLimitHoldemState| {
        s.button = 6
    });
    refuse_edit(game, "hole card 60", |s: &mut NoLimitHoldemState| {
        s.hole[0][0] = 60
    });
    refuse_edit(
        NoLimitHoldem::standard(2).unwrap(),
        "a 6-seat hand at a 2-seat table",
        |s: &mut NoLimitHoldemState| *s = env_of(game).states()[0],
    );
}

/// Inputs of the `states` fuzz target that once failed (hex), each with what it found. Every
/// one must now pass: the corrupted state is refused, or plays on validly.
const FUZZ_FINDINGS: &[(&str, &str)] = &[
    (
        "hold'em: a seat that had put in less than the others (pots [11, 3, 11] on the \
         flop) was accepted; when the others folded, the pot level no live seat reached \
         was lost",
        "1fb52201000100000400003a000401009b411f000084",
    ),
    (
        "151: the skip flag of a queen was accepted while the seat to act did not chain \
         queens; its next play (an eight) kept the skip over a card that is not a queen",
        concat!(
            "a68f9b0ad1d1d1d1d1add1d1d1d1d1d1d1d1d1d1d1d1d1d1",
            "d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1"
        ),
    ),
];

#[test]
fn fuzz_findings_stay_fixed() {
    for (what, hex) in FUZZ_FINDINGS {
        let bytes: Vec<u8> = (0..hex.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
            .collect();
        let result = state_check_any(&bytes);
        assert!(result.is_ok(), "{what}: {result:?}");
    }
}

/// The hand of the first hold'em finding, as its corrupted state: refused.
#[test]
fn holdem_pots_no_live_seat_can_win_are_refused() {
    let game = NoLimitHoldem::configure(
        &Options::parse(
            NoLimitHoldem::INFO.options,
            "num_players=3,ante=1,stacks=[50,200,1000]",
        )
        .unwrap(),
    )
    .unwrap();
    let mut env = env_of(game);
    let mut state = *env.state(1).unwrap();
    state.stacks[..3].copy_from_slice(&[39, 197, 989]);
    state.bets = [0; 10];
    state.committed[..3].copy_from_slice(&[11, 3, 11]);
    state.increment = 0;
    state.short_sum = 0;
    state.short_any = 0;
    state.raises_street = [0; 10];
    state.raises_total = [0; 10];
    state.raises_total[2] = 1;
    state.street_raises = [1, 0, 0, 0];
    state.folded = 0;
    state.acted = 0;
    state.pending = 7;
    state.button = 2;
    state.to_act = 2;
    state.street = 1;
    state.dealt = 3;
    assert_refused(&mut env, state, "pots [11, 3, 11] on the flop");
}

/// What the random cases found while the hold'em check was being hardened: a live seat
/// with chips facing a bet but not pending would never answer the bet (the round ended with
/// its pots short of the others').
#[test]
fn holdem_a_seat_facing_a_bet_must_be_pending() {
    let game = NoLimitHoldem::standard(3).unwrap();
    let mut env = env_of(game);
    let mut state = *env.state(1).unwrap();
    let small_blind = small_blind_seat(3, state.button as usize);
    assert_eq!((state.street, state.bets[small_blind]), (0, 1));
    assert_ne!(state.to_act as usize, small_blind);
    state.pending &= !(1 << small_blind);
    assert_refused(
        &mut env,
        state,
        "the small blind facing the big blind, not pending",
    );
}

/// The state of the 151 finding: a queen on top with its skip pending, but the seat to act
/// not chaining queens (a queen that does not chain ends the turn and uses the skip).
#[test]
fn i151_a_pending_skip_needs_a_queen_chain() {
    let game = I151::new(2).unwrap();
    let mut env = env_of(game);
    let mut state = *env.state(1).unwrap();
    let queen = 8 + cardvec::games::i151::QUEEN;
    let holder = (0..2).find(|&p| state.hands[p] >> queen & 1 != 0);
    let (from_bank, pos) = match holder {
        Some(p) => (false, p),
        None => (true, 0),
    };
    // Put the queen of suit 1 on the pile, from wherever it is.
    if from_bank {
        let i = state.bank[state.bank_head as usize..state.bank_tail as usize]
            .iter()
            .position(|&c| c == queen)
            .map(|i| i + state.bank_head as usize);
        match i {
            Some(i) => {
                let last = state.bank_tail as usize - 1;
                state.bank.swap(i, last);
                state.bank_tail -= 1;
            }
            None => state.dead &= !(1 << queen),
        }
    } else {
        state.hands[pos] &= !(1 << queen);
    }
    state.pile[0] = queen;
    state.pile_len = 1;
    state.pile_set = 1 << queen;
    state.top = queen;
    state.chaining = 0;
    state.flags = 0;
    assert_eq!(game.check_state(&state), Ok(()), "a queen on top, no skip");
    state.flags = cardvec::games::i151::fast::FLAG_SKIP_NEXT;
    assert_refused(&mut env, state, "a skip without a queen chain");
}
