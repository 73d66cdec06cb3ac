//! `Game::check_state` held to its contract for every registered game: the
//! state-corruption check (`cardvec::core::fuzz::check_states`, what the `states` fuzz
//! target runs) on random inputs, every state an environment reaches accepted back, and
//! the inputs it once failed on. The regressions that write a corrupt state field by field
//! (which `VecEnv::set_state` must refuse, leaving the environment as it was) are unit
//! tests in each game's `checks.rs`.

use cardvec::core::fuzz::{check_states, StateCheckReport};
use cardvec::core::spec::{GameSpec, Options};
use cardvec::core::{EnvOptions, LaneRng, VecEnv};
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
/// on, or changes to another valid state) and plays on from them. (Plays on: at least one
/// step per 20 accepted states. A game of a few steps, Kuhn poker's 2 or 3, is mostly
/// reached finished, and a finished state accepted has no step to play: Kuhn poker plays
/// 75 steps from 1,304 accepted states, Leduc 208 from 601, the longer games far more.)
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
                && 20 * t.steps > t.accepted,
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
