//! The conformance suite: every game of the registry (`cardvec::registry`), in every
//! configuration its entry lists (`GameInfo::configurations`), held to the one batch contract
//! by the same generic code ([`conformance`]):
//!
//! - a model check: every lane of a [`VecEnv`] must equal a single lane of the game played
//!   beside it (state, random stream, episode), through steps under a mixed random/illegal
//!   policy, lane resets, gathers, states set from another environment (typed and as bytes),
//!   explicit deals and resets, with observation and autoreset switched on and off; after
//!   every operation each lane's outputs must be those of its state, its state must pass
//!   `check_state`, rewards must sum to zero where the game says so, and the mask must be
//!   exactly the set of actions the engine accepts; the output buffers must stay at the
//!   addresses they had at construction (the Python views point into them);
//! - the status codes of no-ops (illegal, finished, reset) and what they leave unchanged,
//!   autoreset keeping the terminal observation readable for one step;
//! - the rewards of a deal: zero after every reset (construction, `reset`, `reset_lanes`,
//!   autoreset, explicit deals), except for a game over as dealt, which shows its
//!   `Game::deal_rewards` (a hold'em hand with no decision); zero after a state is set;
//! - identical results for 1 to 3 threads and any chunk size;
//! - every call with bad input (lengths, lanes, sources, state bytes, deal orders) is an
//!   error that changes nothing, and no corrupt state that `check_state` accepts can make a
//!   method panic or lead to a state it rejects;
//! - bad configurations are errors (options, `configure`, `registry::make`);
//! - the golden playthroughs of `tests/golden/trajectories.txt`, one per configuration.
//!
//! Two property tests run the generic fuzz check (`cardvec::core::fuzz::check`) and the lane
//! contract on random inputs and random configurations of every game.
//!
//! `cargo test --release --test integration conformance:: -- --nocapture` prints what was covered.

use crate::common;

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::fmt::Debug;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Once;

use cardvec::core::policy::random_legal;
use cardvec::core::spec::{GameSpec, OptionKind, OptionSpec, OptionValue, Options};
use cardvec::core::{
    ActionStatus, EnvOptions, Error, Game, LaneRng, ObsDtype, ObsSeats, OnIllegal, VecEnv,
    ON_ILLEGAL_WORDS,
};
use cardvec::registry::{self, Visitor};
use common::{assert_same_for_any_threads_and_chunks, mixed_action, mixed_actions};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use sha2::{Digest, Sha256};

// ------------------------------------------------------------------------------------------
// The suite over the registry

/// What the suite covered in one configuration of one game.
struct Covered {
    game: &'static str,
    config: String,
    /// The golden line (index in the file's lines) this configuration matched.
    golden_line: usize,
    /// What was exercised, for the printed summary.
    notes: String,
    /// Corrupt states `check_state` accepted that then broke the contract.
    holes: Vec<Hole>,
}

struct Suite {
    covered: Vec<Covered>,
}

impl Visitor for Suite {
    type Output = ();
    fn visit<G: GameSpec>(&mut self) {
        configuration_errors::<G>();
        for text in G::INFO.configurations {
            let options = Options::parse(G::INFO.options, text)
                .unwrap_or_else(|e| panic!("{}: configuration {text:?}: {e}", G::INFO.id));
            let covered = conformance::<G>(&options);
            eprintln!(
                "conformance: {} {}: {}",
                covered.game, covered.config, covered.notes
            );
            self.covered.push(covered);
        }
    }
}

#[test]
fn every_registered_game_and_configuration_conforms() {
    let mut suite = Suite {
        covered: Vec::new(),
    };
    registry::visit_all(&mut suite);
    let golden = golden_lines();
    let mut games: Vec<&str> = Vec::new();
    for c in &suite.covered {
        if !games.contains(&c.game) {
            games.push(c.game);
        }
    }
    let matched: Vec<usize> = suite.covered.iter().map(|c| c.golden_line).collect();
    for (i, line) in golden.iter().enumerate() {
        assert!(
            matched.contains(&i),
            "golden line {:?} {:?} matches no registered configuration",
            line.game,
            line.options
        );
    }
    assert_eq!(registry::GAMES.len(), games.len());
    eprintln!(
        "conformance: covered {} games ({}) in {} configurations; {} golden playthroughs match",
        games.len(),
        games.join(", "),
        suite.covered.len(),
        golden.len()
    );
    let holes: Vec<&Hole> = suite.covered.iter().flat_map(|c| &c.holes).collect();
    assert!(holes.is_empty(), "{}", report_holes(&holes));
}

/// Every check of the suite on game `G` configured by `options`.
fn conformance<G: GameSpec>(options: &Options) -> Covered {
    let game = G::configure(options).unwrap_or_else(|e| panic!("{}: {e}", G::INFO.id));
    let config = if options.to_string().is_empty() {
        "-".to_string()
    } else {
        options.to_string()
    };
    let label = format!("{} {config}", G::INFO.id);
    let mut notes = Vec::new();

    // The golden playthrough of this configuration.
    let golden_line = golden_match::<G>(options, &golden_hash(&game), &label);

    // `reset_into` (what the batch calls) is `reset` written over any state: the same state
    // and the same draws, whatever the lane held before (a deal, states played on, a
    // finished game).
    for (k, donor) in donor_states(&game).into_iter().enumerate() {
        for seed in 0..16 {
            let (mut a, mut b) = (LaneRng::for_lane(seed, 1, 0), LaneRng::for_lane(seed, 1, 0));
            let fresh = game.reset(&mut a);
            let mut held = donor;
            game.reset_into(&mut b, &mut held);
            assert_eq!(
                held, fresh,
                "{label}: reset_into over donor state {k} differs from reset (seed {seed})"
            );
            assert_eq!(
                a.next_u64(),
                b.next_u64(),
                "{label}: reset_into draws differently"
            );
        }
    }
    notes.push("reset_into = reset".to_string());

    // Results never depend on the thread count or the chunk size.
    for autoreset in [false, true] {
        let mut env = EnvOptions::new(37);
        env.seed = 5;
        env.autoreset = autoreset;
        assert_same_for_any_threads_and_chunks(
            &game,
            &env,
            200,
            9,
            &[(2, 64), (2, 1), (3, 7), (2, 10_000), (1, 5)],
            &format!("{label} (autoreset {autoreset})"),
        );
    }
    let mut env = EnvOptions::new(37);
    env.seed = 6;
    env.autoreset = true;
    env.obs_dtype = ObsDtype::U8;
    assert_same_for_any_threads_and_chunks(
        &game,
        &env,
        200,
        9,
        &[(2, 64), (3, 7), (1, 5)],
        &format!("{label} (obs u8)"),
    );
    notes.push("threads/chunks (f32 and u8 rows)".to_string());

    // Steps only, autoreset off then on, until every status code has been seen.
    for autoreset in [false, true] {
        let mut env = EnvOptions::new(16);
        env.seed = 11;
        env.num_threads = Some(2);
        env.chunk_size = 3;
        env.autoreset = autoreset;
        // With autoreset the rows are compact: every row of whole games, checked against
        // the f32 observation after conversion.
        env.obs_dtype = if autoreset {
            ObsDtype::U8
        } else {
            ObsDtype::F32
        };
        let what = format!("{label} (autoreset {autoreset}, obs {})", env.obs_dtype);
        let mut model = Model::new(&game, env, 3, &what);
        let mut steps = 0;
        while steps < 5000 && !(steps >= 300 && model.counts.all_statuses_seen(autoreset)) {
            let actions = mixed_actions(&model.env, &mut model.rng);
            model.step(&actions);
            steps += 1;
        }
        let c = &model.counts;
        assert!(
            c.all_statuses_seen(autoreset),
            "{label}: {steps} steps with autoreset {autoreset} did not see every status: {c:?}"
        );
        notes.push(format!(
            "autoreset {}: {steps} steps ({} applied, {} illegal, {} finished, {} reset, {} \
             ends, {} ids probed, {} deals over at once)",
            if autoreset { "on" } else { "off" },
            c.applied,
            c.illegal,
            c.finished,
            c.reset,
            c.ends,
            c.probed,
            c.dealt_over
        ));
    }

    // Every lane operation and error, interleaved at random.
    let orders = game.sample_order(&mut LaneRng::from_seed(0)).is_some();
    let mut holes = Vec::new();
    let mut c = Counts::default();
    for seed in 0..4 {
        let (counts, found) = lane_operations(&game, seed, 400, &label);
        holes.extend(found);
        c.add(&counts);
    }
    notes.push(format!(
        "4 x 400 lane operations ({} steps, {} lane resets, {} gathers, {} states set, {} \
         orders dealt, {} bad calls refused)",
        c.applied + c.illegal + c.finished + c.reset,
        c.lane_resets,
        c.gathers,
        c.states_set,
        c.orders,
        c.errors
    ));
    if !orders {
        notes.push("no explicit deal (reset_from_order not checked)".to_string());
    }

    // A lane fed only illegal actions ends by the rule of each `on_illegal` mode.
    notes.push(illegal_only(&game, &label));

    // The registry builds the same environment.
    registry_make_matches::<G>(&game, options, &label);

    // Corrupt states: rejected, or harmless.
    let (tried, rejected, found) = corrupt_states(&game, &label);
    holes.extend(found);
    notes.push(format!(
        "{tried} corrupt states ({rejected} rejected by check_state)"
    ));
    notes.push("golden playthrough".to_string());

    Covered {
        game: G::INFO.id,
        config,
        golden_line,
        notes: notes.join(", "),
        holes,
    }
}

// ------------------------------------------------------------------------------------------
// Illegal actions only: `on_illegal` and `max_steps`

/// An action the game refuses at lane `i` of a batch whose masks are `masks` (width
/// `num_actions`): a masked-out id in range, else the first id past the range that names no
/// extended action.
fn refused_action<G: Game>(game: &G, masks: &[u8], i: usize) -> u32 {
    let a = game.num_actions();
    match masks[i * a..(i + 1) * a].iter().position(|&m| m == 0) {
        Some(x) => x as u32,
        None => (a as u32..).find(|&x| !game.is_extended_action(x)).unwrap(),
    }
}

/// [`refused_action`] for every lane.
fn refused_actions<G: Game>(game: &G, masks: &[u8], n: usize) -> Vec<u32> {
    (0..n).map(|i| refused_action(game, masks, i)).collect()
}

/// The lanes of a batch that are live (neither terminated nor truncated).
fn live_lanes(terminated: &[bool], truncated: &[bool]) -> Vec<usize> {
    (0..terminated.len())
        .filter(|&i| !terminated[i] && !truncated[i])
        .collect()
}

/// Lanes fed only illegal actions, in the batch environment and in the learner view, under
/// each [`OnIllegal`] mode: `noop` leaves them as they were (zero rewards, status illegal)
/// but counts each as a step, so `max_steps` truncates them; `raise` refuses the step with
/// an error naming exactly the live lanes that were sent an illegal action, changing
/// nothing; `lose` ends them at once with the game's forfeit rewards, the offender's the
/// lowest of its row.
fn illegal_only<G: GameSpec>(game: &G, label: &str) -> String {
    const N: usize = 24;
    const LIMIT: u32 = 5;
    let (p, a) = (game.num_players(), game.num_actions());
    let options = |on_illegal, autoreset| EnvOptions {
        seed: 3,
        num_threads: Some(2),
        chunk_size: 5,
        autoreset,
        max_steps: Some(LIMIT),
        on_illegal,
        ..EnvOptions::new(N)
    };
    let mut rng = LaneRng::from_seed(17);
    // A few legal steps first, so that the lanes are in the middle of a game.
    let advance = |env: &mut VecEnv<G>, rng: &mut LaneRng, steps: usize| {
        for _ in 0..steps {
            let acts: Vec<u32> = env
                .legal_mask()
                .chunks(a)
                .map(|m| random_legal(m, rng))
                .collect();
            env.step(&acts).unwrap();
        }
    };
    assert_eq!(OnIllegal::parse("noop").unwrap(), OnIllegal::default());
    let err = OnIllegal::parse("ignore").unwrap_err().to_string();
    for word in ON_ILLEGAL_WORDS {
        assert!(err.contains(word), "{label}: {err}");
        assert_eq!(OnIllegal::parse(word).unwrap().as_str(), *word);
    }

    // noop: a no-op that counts toward max_steps.
    for autoreset in [false, true] {
        let mut env = VecEnv::new(game.clone(), options(OnIllegal::Noop, autoreset)).unwrap();
        let live = live_lanes(env.terminated(), env.truncated());
        let states = env.states().to_vec();
        for t in 1..=LIMIT {
            let acts = refused_actions(game, env.legal_mask(), N);
            env.step(&acts).unwrap();
            for &i in &live {
                let what = || format!("{label}: noop, autoreset {autoreset}, lane {i}, step {t}");
                assert_eq!(env.illegal()[i], ActionStatus::Illegal as u8, "{}", what());
                assert_eq!(env.states()[i], states[i], "{}", what());
                assert!(
                    env.rewards()[i * p..(i + 1) * p].iter().all(|&r| r == 0.0),
                    "{}",
                    what()
                );
                assert_eq!(env.episode_steps()[i], t, "{}", what());
                assert!(!env.terminated()[i], "{}", what());
                assert_eq!(env.truncated()[i], t == LIMIT, "{}", what());
            }
        }
        // The lanes are over: the next step is the finished no-op (not counted), or a reset.
        let acts = refused_actions(game, env.legal_mask(), N);
        env.step(&acts).unwrap();
        for &i in &live {
            let (code, steps) = if autoreset {
                (ActionStatus::Reset, 0)
            } else {
                (ActionStatus::Finished, LIMIT)
            };
            assert_eq!(
                env.illegal()[i],
                code as u8,
                "{label}: noop lane {i} after the limit"
            );
            assert_eq!(env.episode_steps()[i], steps, "{label}: noop lane {i}");
        }
    }

    // raise: an error naming the live lanes, and nothing changed.
    let mut env = VecEnv::new(game.clone(), options(OnIllegal::Raise, false)).unwrap();
    advance(&mut env, &mut rng, 1);
    let live = live_lanes(env.terminated(), env.truncated());
    let (before, steps) = (env.snapshot(), env.episode_steps().to_vec());
    let acts = refused_actions(game, env.legal_mask(), N);
    match env.step(&acts) {
        Err(Error::IllegalAction {
            lanes,
            actions,
            count,
        }) => {
            assert_eq!(lanes, live, "{label}: raise names the live lanes");
            assert_eq!(count, live.len());
            let expected: Vec<u32> = live.iter().map(|&i| acts[i]).collect();
            assert_eq!(actions, expected, "{label}: raise names their actions");
        }
        other => panic!("{label}: raise: expected IllegalAction, got {other:?}"),
    }
    if let Some(&first) = live.first() {
        let msg = env.step(&acts).unwrap_err().to_string();
        assert!(
            msg.contains(&format!("lane {first} action {}", acts[first]))
                && msg.contains(&format!("{} live lane", live.len()))
                && msg.contains("nothing was changed"),
            "{label}: {msg}"
        );
        // One illegal lane among legal ones refuses the whole step too.
        let mut mixed: Vec<u32> = env
            .legal_mask()
            .chunks(a)
            .map(|m| random_legal(m, &mut rng))
            .collect();
        mixed[first] = acts[first];
        match env.step(&mixed) {
            Err(Error::IllegalAction { lanes, .. }) => assert_eq!(lanes, vec![first]),
            other => panic!("{label}: raise, one lane: {other:?}"),
        }
    }
    assert!(!live.is_empty(), "{label}: live lanes after one step");
    assert_eq!(
        env.snapshot(),
        before,
        "{label}: a refused step changed nothing"
    );
    assert_eq!(env.episode_steps(), &steps[..]);
    // Legal actions (and anything on finished lanes) step as usual.
    advance(&mut env, &mut rng, 3);

    // lose: the lane ends with the forfeit rewards.
    for autoreset in [false, true] {
        let mut env = VecEnv::new(game.clone(), options(OnIllegal::Lose, autoreset)).unwrap();
        advance(&mut env, &mut rng, 1);
        let live = live_lanes(env.terminated(), env.truncated());
        let states = env.states().to_vec();
        let expected: Vec<Vec<f32>> = (0..N)
            .map(|i| {
                let mut r = vec![0.0; p];
                let offender = env.current_player()[i] as usize;
                assert!(
                    game.forfeit_rewards(&states[i], offender, &mut r),
                    "{label}"
                );
                r
            })
            .collect();
        let offenders = env.current_player().to_vec();
        let acts = refused_actions(game, env.legal_mask(), N);
        env.step(&acts).unwrap();
        for &i in &live {
            let what = || format!("{label}: lose, autoreset {autoreset}, lane {i}");
            let row = &env.rewards()[i * p..(i + 1) * p];
            assert_eq!(env.illegal()[i], ActionStatus::Illegal as u8, "{}", what());
            assert!(env.terminated()[i] && !env.truncated()[i], "{}", what());
            assert_eq!(row, &expected[i][..], "{}", what());
            let off = row[offenders[i] as usize];
            assert!(row.iter().all(|&r| off <= r), "{}: {row:?}", what());
            if game.zero_sum() {
                assert_zero_sum(row, &what);
            }
            assert!(env.legal_mask()[i * a..(i + 1) * a].iter().all(|&m| m == 0));
            assert_eq!(env.states()[i], states[i], "{}", what());
        }
        let acts = refused_actions(game, env.legal_mask(), N);
        env.step(&acts).unwrap();
        let code = if autoreset {
            ActionStatus::Reset
        } else {
            ActionStatus::Finished
        };
        for &i in &live {
            assert_eq!(
                env.illegal()[i],
                code as u8,
                "{label}: lose lane {i}, next step"
            );
        }
    }

    // The learner view: the same three rules for the learner's actions.
    let learner = |on_illegal| {
        cardvec::agents::learner(
            game.clone(),
            &cardvec::core::Opponents::Every("random".into()),
            cardvec::core::LearnerSeat::Rotate,
            options(on_illegal, true),
        )
        .unwrap()
    };
    let mut env = learner(OnIllegal::Noop);
    let live = live_lanes(env.terminated(), env.truncated());
    let (obs, d) = (env.obs().to_vec(), game.obs_dim());
    let mut cut = [false; N];
    for t in 1..=LIMIT {
        let acts = refused_actions(game, env.legal_mask(), N);
        env.step(&acts).unwrap();
        for &i in &live {
            if cut[i] {
                continue;
            }
            let what = || format!("{label}: learner noop, lane {i}, step {t}");
            assert_eq!(env.illegal()[i], ActionStatus::Illegal as u8, "{}", what());
            assert_eq!(env.rewards()[i], 0.0, "{}", what());
            assert!(!env.terminated()[i], "{}", what());
            assert_eq!(env.obs()[i * d..(i + 1) * d], obs[i * d..(i + 1) * d]);
            // The bots' plies before the learner's first decision count too, so the cut
            // may come before the learner's LIMIT-th attempt, never after it.
            cut[i] = env.truncated()[i];
        }
    }
    assert!(
        live.iter().all(|&i| cut[i]),
        "{label}: learner noop: every lane cut"
    );
    let mut env = learner(OnIllegal::Raise);
    let live = live_lanes(env.terminated(), env.truncated());
    let (obs, mask) = (env.obs().to_vec(), env.legal_mask().to_vec());
    let acts = refused_actions(game, env.legal_mask(), N);
    match env.step(&acts) {
        Err(Error::IllegalAction { lanes, .. }) => assert_eq!(lanes, live, "{label}"),
        other => assert!(live.is_empty() && other.is_ok(), "{label}: {other:?}"),
    }
    assert_eq!((env.obs(), env.legal_mask()), (&obs[..], &mask[..]));
    let mut env = learner(OnIllegal::Lose);
    let live = live_lanes(env.terminated(), env.truncated());
    let seats = env.seat().to_vec();
    let acts = refused_actions(game, env.legal_mask(), N);
    env.step(&acts).unwrap();
    for &i in &live {
        let mut r = vec![0.0; p];
        game.forfeit_rewards(&env.states()[i], seats[i] as usize, &mut r);
        assert!(
            env.terminated()[i] && !env.truncated()[i],
            "{label}: learner lose {i}"
        );
        assert_eq!(env.illegal()[i], ActionStatus::Illegal as u8);
        // The learner's reward: the forfeit (nothing was paid before its first decision in
        // these deals).
        assert_eq!(
            env.rewards()[i],
            r[seats[i] as usize],
            "{label}: learner lose {i}"
        );
    }
    "illegal actions only (noop + max_steps, raise, lose; batch and learner)".to_string()
}

// ------------------------------------------------------------------------------------------
// Golden playthroughs

const GOLDEN: &str = include_str!("golden/trajectories.txt");

/// One line of the golden file: game id, options (`-` for the defaults), SHA-256.
struct GoldenLine {
    game: &'static str,
    options: &'static str,
    hash: &'static str,
}

fn golden_lines() -> Vec<GoldenLine> {
    GOLDEN
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let fields: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(fields.len(), 3, "golden line {l:?}");
            GoldenLine {
                game: fields[0],
                options: fields[1],
                hash: fields[2],
            }
        })
        .collect()
}

/// The index of the one golden line of this configuration, after checking its hash.
fn golden_match<G: GameSpec>(options: &Options, hash: &str, label: &str) -> usize {
    let lines = golden_lines();
    let found: Vec<usize> = (0..lines.len())
        .filter(|&i| {
            let line = &lines[i];
            let text = if line.options == "-" {
                ""
            } else {
                line.options
            };
            line.game == G::INFO.id && Options::parse(G::INFO.options, text).as_ref() == Ok(options)
        })
        .collect();
    let text = options.to_string();
    assert_eq!(
        found.len(),
        1,
        "{label}: expected one golden line, found {}; the line of this configuration, to add \
         to tests/golden/trajectories.txt once the game is right, is:\n{} {} {hash}",
        found.len(),
        G::INFO.id,
        if text.is_empty() { "-" } else { &text }
    );
    assert_eq!(
        hash, lines[found[0]].hash,
        "{label}: the golden playthrough changed"
    );
    found[0]
}

/// The golden playthrough's hash, exactly as `tests/golden/trajectories.txt` describes it:
/// 16 lanes, seed 2026, one thread, chunks of 64, autoreset and observation on; SHA-256 over
/// the outputs after construction and after each of 200 steps of a fixed policy.
fn golden_hash<G: Game>(game: &G) -> String {
    let options = EnvOptions {
        num_envs: 16,
        seed: 2026,
        num_threads: Some(1),
        chunk_size: 64,
        autoreset: true,
        observe_on_step: true,
        max_steps: None,
        on_illegal: OnIllegal::Noop,
        obs_dtype: ObsDtype::F32,
        obs_seats: ObsSeats::Acting,
    };
    let mut env = VecEnv::new(game.clone(), options).unwrap();
    let mut h = Sha256::new();
    let record = |h: &mut Sha256, env: &VecEnv<G>| {
        for x in env.obs() {
            h.update(x.to_le_bytes());
        }
        h.update(env.legal_mask());
        for x in env.rewards() {
            h.update(x.to_le_bytes());
        }
        h.update(
            env.terminated()
                .iter()
                .map(|&b| b as u8)
                .collect::<Vec<u8>>(),
        );
        h.update(
            env.truncated()
                .iter()
                .map(|&b| b as u8)
                .collect::<Vec<u8>>(),
        );
        for x in env.current_player() {
            h.update(x.to_le_bytes());
        }
        h.update(env.illegal());
    };
    record(&mut h, &env);
    let a = game.num_actions();
    for t in 0..200usize {
        let actions: Vec<u32> = env
            .legal_mask()
            .chunks(a)
            .enumerate()
            .map(|(i, mask)| {
                let legal: Vec<u32> = (0..a as u32).filter(|&x| mask[x as usize] != 0).collect();
                if t % 11 == 5 {
                    ((t * 31 + i * 17) % (a + 3)) as u32
                } else if legal.is_empty() {
                    0
                } else {
                    legal[(t * 7 + i * 13) % legal.len()]
                }
            })
            .collect();
        env.step(&actions).unwrap();
        record(&mut h, &env);
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

// ------------------------------------------------------------------------------------------
// The model check

/// What one lane shows: state, episode and outputs (floats as bits, so that equality is
/// exact).
#[derive(Clone, Debug, PartialEq)]
struct Shown<S> {
    state: S,
    episode: u64,
    obs: Vec<u32>,
    mask: Vec<u8>,
    rewards: Vec<u32>,
    terminated: bool,
    truncated: bool,
    current_player: i32,
    illegal: u8,
}

fn bits(x: &[f32]) -> Vec<u32> {
    x.iter().map(|v| v.to_bits()).collect()
}

/// Lane `i`'s observation row as f32: the row itself, or the compact row converted back
/// with the game's format (which must give the f32 observation bit for bit).
fn obs_row<G: Game>(env: &VecEnv<G>, i: usize) -> Vec<f32> {
    let d = env.game().obs_dim();
    match env.obs_dtype() {
        ObsDtype::F32 => env.obs()[i * d..(i + 1) * d].to_vec(),
        ObsDtype::U8 => {
            let f = env.obs_format();
            let (nb, nt) = (f.byte_dim(), f.tail_dim());
            assert_eq!(f.dim(), d, "the compact format covers the observation");
            assert!(env.obs().is_empty(), "u8 rows: no f32 rows are kept");
            let mut row = vec![f32::NAN; d];
            f.expand(
                &env.obs_u8()[i * nb..(i + 1) * nb],
                &env.obs_tail()[i * nt..(i + 1) * nt],
                &mut row,
            );
            row
        }
    }
}

fn shown<G: Game>(env: &VecEnv<G>, i: usize) -> Shown<G::State> {
    let g = env.game();
    let (p, a) = (g.num_players(), g.num_actions());
    Shown {
        state: *env.state(i).unwrap(),
        episode: env.episodes()[i],
        obs: bits(&obs_row(env, i)),
        mask: env.legal_mask()[i * a..(i + 1) * a].to_vec(),
        rewards: bits(&env.rewards()[i * p..(i + 1) * p]),
        terminated: env.terminated()[i],
        truncated: env.truncated()[i],
        current_player: env.current_player()[i],
        illegal: env.illegal()[i],
    }
}

/// The rewards a lane shows right after it was dealt `state` ([`Game::deal_rewards`]: zero
/// unless the game is over as dealt), as bits.
fn deal_rewards<G: Game>(game: &G, state: &G::State) -> Vec<u32> {
    let mut rewards = vec![0f32; game.num_players()];
    game.deal_rewards(state, &mut rewards);
    bits(&rewards)
}

/// A single lane of the game, played beside a batch lane: what the batch lane must equal.
#[derive(Clone)]
struct Twin<S> {
    state: S,
    rng: LaneRng,
    episode: u64,
}

impl<S> Twin<S> {
    /// Episode `episode` of lane `lane` of a batch reset with `seed`.
    fn dealt<G: Game<State = S>>(game: &G, seed: u64, lane: usize, episode: u64) -> Self {
        let mut rng = LaneRng::for_lane(seed, lane as u64, episode);
        let state = game.reset(&mut rng);
        Twin {
            state,
            rng,
            episode,
        }
    }
}

/// What a model run exercised.
#[derive(Clone, Debug, Default)]
struct Counts {
    applied: u64,
    illegal: u64,
    finished: u64,
    reset: u64,
    /// Steps that ended an episode.
    ends: u64,
    probed: u64,
    lane_resets: u64,
    gathers: u64,
    states_set: u64,
    orders: u64,
    errors: u64,
    /// Deals that were over at once (a hold'em hand with no decision).
    dealt_over: u64,
}

impl Counts {
    fn add(&mut self, other: &Counts) {
        self.applied += other.applied;
        self.illegal += other.illegal;
        self.finished += other.finished;
        self.reset += other.reset;
        self.ends += other.ends;
        self.probed += other.probed;
        self.lane_resets += other.lane_resets;
        self.gathers += other.gathers;
        self.states_set += other.states_set;
        self.orders += other.orders;
        self.errors += other.errors;
        self.dealt_over += other.dealt_over;
    }

    fn all_statuses_seen(&self, autoreset: bool) -> bool {
        self.applied > 0
            && self.illegal > 0
            && self.ends > 0
            && if autoreset {
                self.reset > 0
            } else {
                self.finished > 0
            }
    }
}

/// Where the outputs of an environment live: the address and length of `obs`, `legal_mask`,
/// `rewards`, `terminated`, `truncated`, `current_player` and `illegal`.
fn output_buffers<G: Game>(env: &VecEnv<G>) -> [(usize, usize); 7] {
    fn at<T>(buf: &[T]) -> (usize, usize) {
        (buf.as_ptr() as usize, buf.len())
    }
    [
        at(env.obs()),
        at(env.legal_mask()),
        at(env.rewards()),
        at(env.terminated()),
        at(env.truncated()),
        at(env.current_player()),
        at(env.illegal()),
    ]
}

/// A batch environment and its single-lane twins.
struct Model<G: GameSpec> {
    game: G,
    env: VecEnv<G>,
    /// The output buffers at construction: they must never move (what zero-copy views of
    /// them, such as the Python arrays, rely on).
    buffers: [(usize, usize); 7],
    twins: Vec<Twin<G::State>>,
    seed: u64,
    /// Whether every observation row is known to be the observation of its lane.
    synced: bool,
    /// The stream of the policy and of the operations.
    rng: LaneRng,
    counts: Counts,
    label: String,
    /// Calls with corrupt states that panicked instead of failing.
    holes: Vec<Hole>,
}

impl<G: GameSpec> Model<G> {
    fn new(game: &G, options: EnvOptions, policy_seed: u64, label: &str) -> Self {
        let twins = (0..options.num_envs)
            .map(|i| Twin::dealt(game, options.seed, i, 0))
            .collect();
        let env = VecEnv::new(game.clone(), options.clone()).unwrap();
        let mut model = Model {
            game: game.clone(),
            buffers: output_buffers(&env),
            env,
            twins,
            seed: options.seed,
            synced: options.observe_on_step,
            rng: LaneRng::from_seed(policy_seed),
            counts: Counts::default(),
            label: label.to_string(),
            holes: Vec::new(),
        };
        model.verify_deal_rewards("construction");
        model.verify("construction");
        model
    }

    /// After every lane was dealt: each shows the rewards of its deal (zero unless the game
    /// is over as dealt) and the Applied status.
    fn verify_deal_rewards(&mut self, when: &str) {
        for i in 0..self.n() {
            let s = shown(&self.env, i);
            assert_eq!(
                s.rewards,
                deal_rewards(&self.game, &self.twins[i].state),
                "{}: lane {i}: rewards of the deal after {when}",
                self.label
            );
            assert_eq!(s.illegal, ActionStatus::Applied as u8, "{}", self.label);
            if s.terminated || s.truncated {
                self.counts.dealt_over += 1;
            }
        }
    }

    fn n(&self) -> usize {
        self.env.num_envs()
    }

    fn shown_all(&self) -> Vec<Shown<G::State>> {
        (0..self.n()).map(|i| shown(&self.env, i)).collect()
    }

    /// Every lane equals its twin, its outputs are those of its state, and the state keeps
    /// every law of the lane contract ([`check_lane`]).
    fn verify(&mut self, when: &str) {
        let label = &self.label;
        assert_eq!(
            output_buffers(&self.env),
            self.buffers,
            "{label}: an output buffer moved during {when} (obs, legal_mask, rewards, \
             terminated, truncated, current_player, illegal)"
        );
        // The packed masks are the byte masks, bit for bit.
        let (a, w) = (self.game.num_actions(), self.env.mask_words());
        let mut packed = vec![u64::MAX; self.n() * w];
        self.env.legal_bits(&mut packed).unwrap();
        for (i, m) in self.env.legal_mask().chunks_exact(a).enumerate() {
            for (k, word) in packed[i * w..(i + 1) * w].iter().enumerate() {
                let want = (0..64)
                    .filter(|&b| 64 * k + b < a && m[64 * k + b] != 0)
                    .fold(0u64, |acc, b| acc | 1 << b);
                assert_eq!(*word, want, "{label}: lane {i}: legal_bits word {k}");
            }
        }
        assert!(self.env.legal_bits(&mut packed[1..]).is_err(), "{label}");
        for i in 0..self.n() {
            let s = shown(&self.env, i);
            let twin = &self.twins[i];
            assert!(
                s.state == twin.state,
                "{label}: lane {i} differs from its single-lane twin after {when}, first in {}",
                field_name(&s.state, &twin.state, 0)
            );
            assert_eq!(
                s.episode, twin.episode,
                "{label}: lane {i} episode after {when}"
            );
            let ctx = || format!("{label}: lane {i} after {when}");
            self.counts.probed += check_lane(&self.game, &s.state, &ctx);
            let (terminated, truncated) = self.game.finished(&s.state);
            assert_eq!(
                (s.terminated, s.truncated),
                (terminated, truncated),
                "{}",
                ctx()
            );
            assert_eq!(
                s.current_player,
                self.game.current_player(&s.state) as i32,
                "{}",
                ctx()
            );
            let mut mask = vec![0u8; self.game.num_actions()];
            self.game.legal_mask(&s.state, &mut mask);
            assert_eq!(s.mask, mask, "{}: mask", ctx());
            // Action keys (a game that names them): below the count, distinct over the
            // legal actions of a live decision.
            let count = self.game.action_key_count();
            if count > 0 && !terminated && !truncated {
                let mut keys = vec![u32::MAX; mask.len()];
                self.game.action_keys(&s.state, &mut keys);
                let mut legal: Vec<u32> = keys
                    .iter()
                    .zip(&mask)
                    .filter(|&(_, &m)| m != 0)
                    .map(|(&k, _)| k)
                    .collect();
                assert!(
                    keys.iter().all(|&k| (k as usize) < count),
                    "{}: keys",
                    ctx()
                );
                let n = legal.len();
                legal.sort_unstable();
                legal.dedup();
                assert_eq!(legal.len(), n, "{}: the legal actions' keys", ctx());
            }
            if self.game.zero_sum() {
                let rewards: Vec<f32> = s.rewards.iter().map(|&b| f32::from_bits(b)).collect();
                assert_zero_sum(&rewards, &ctx);
            }
            // observe_as is the game's observation for any seat; the row is the one of the
            // seat to act whenever the rows are in sync.
            let d = self.game.obs_dim();
            for player in 0..self.game.num_players() {
                let mut expected = vec![f32::NAN; d];
                self.game.observe(&s.state, player, &mut expected);
                let mut got = vec![f32::NAN; d];
                self.env.observe_as(i, player, &mut got).unwrap();
                assert_eq!(
                    bits(&got),
                    bits(&expected),
                    "{}: observe_as {player}",
                    ctx()
                );
                if self.synced && player as i32 == s.current_player {
                    assert_eq!(s.obs, bits(&expected), "{}: observation row", ctx());
                }
            }
        }
        // observe_as refuses a bad lane, seat or buffer length.
        let (n, p, d) = (self.n(), self.game.num_players(), self.game.obs_dim());
        let mut buf = vec![0f32; d + 1];
        assert!(self.env.observe_as(n, 0, &mut buf[..d]).is_err(), "{label}");
        assert!(self.env.observe_as(0, p, &mut buf[..d]).is_err(), "{label}");
        assert!(self.env.observe_as(0, 0, &mut buf).is_err(), "{label}");
        assert!(
            self.env.observe_as(0, 0, &mut buf[..d - 1]).is_err(),
            "{label}"
        );
    }

    /// One batch step; every lane's status, rewards and no-op must be what its twin says.
    fn step(&mut self, actions: &[u32]) {
        let before = self.shown_all();
        let was_synced = self.synced;
        let observe = self.env.observe_on_step();
        let autoreset = self.env.autoreset();
        self.env.step(actions).unwrap();
        let (p, a) = (self.game.num_players(), self.game.num_actions() as u32);
        for (i, b) in before.iter().enumerate() {
            let label = &self.label;
            let twin = &mut self.twins[i];
            let mut rewards = vec![0f32; p];
            let (te, tr) = self.game.finished(&twin.state);
            let status = if te || tr {
                if autoreset {
                    // The action is ignored; the new deal's rewards show (zero unless the
                    // game is over as dealt).
                    *twin = Twin::dealt(&self.game, self.seed, i, twin.episode + 1);
                    self.game.deal_rewards(&twin.state, &mut rewards);
                    ActionStatus::Reset
                } else {
                    ActionStatus::Finished
                }
            } else {
                let action = actions[i];
                let out = self
                    .game
                    .step(&mut twin.state, action, &mut twin.rng, &mut rewards);
                let in_mask = action < a && b.mask[action as usize] != 0;
                if action < a || !self.game.is_extended_action(action) {
                    assert_eq!(
                        out.applied, in_mask,
                        "{label}: lane {i}: action {action} applied {} but the mask said {in_mask}",
                        out.applied
                    );
                }
                if out.applied {
                    ActionStatus::Applied
                } else {
                    ActionStatus::Illegal
                }
            };
            let s = shown(&self.env, i);
            assert_eq!(
                s.illegal, status as u8,
                "{label}: lane {i}: status code for action {}",
                actions[i]
            );
            assert_eq!(s.rewards, bits(&rewards), "{label}: lane {i}: rewards");
            match status {
                ActionStatus::Applied => {
                    self.counts.applied += 1;
                    if s.terminated || s.truncated {
                        self.counts.ends += 1;
                    }
                }
                ActionStatus::Reset => {
                    self.counts.reset += 1;
                    if s.terminated {
                        self.counts.dealt_over += 1;
                    }
                }
                ActionStatus::Illegal | ActionStatus::Finished => {
                    if status == ActionStatus::Illegal {
                        self.counts.illegal += 1;
                    } else {
                        self.counts.finished += 1;
                    }
                    assert!(s.rewards.iter().all(|&r| r == 0), "{label}: lane {i}");
                    let kept = (
                        &s.state,
                        s.episode,
                        &s.mask,
                        s.terminated,
                        s.truncated,
                        s.current_player,
                    );
                    let was = (
                        &b.state,
                        b.episode,
                        &b.mask,
                        b.terminated,
                        b.truncated,
                        b.current_player,
                    );
                    assert!(
                        kept == was,
                        "{label}: lane {i}: a no-op ({status:?}) changed it"
                    );
                    if was_synced || !observe {
                        assert_eq!(s.obs, b.obs, "{label}: lane {i}: a no-op changed the row");
                    }
                }
            }
        }
        self.synced = observe;
        self.verify("a step");
    }

    fn reset_lanes(&mut self, mask: &[bool]) {
        let before = self.shown_all();
        self.env.reset_lanes(mask).unwrap();
        for (i, b) in before.iter().enumerate() {
            let s = shown(&self.env, i);
            if mask[i] {
                self.twins[i] = Twin::dealt(&self.game, self.seed, i, self.twins[i].episode + 1);
                assert_eq!(s.illegal, ActionStatus::Applied as u8, "{}", self.label);
                assert_eq!(
                    s.rewards,
                    deal_rewards(&self.game, &self.twins[i].state),
                    "{}: lane {i}: rewards of the deal",
                    self.label
                );
            } else {
                assert!(
                    s == *b,
                    "{}: lane {i} was not chosen but changed",
                    self.label
                );
            }
        }
        if !self.env.observe_on_step() && mask.contains(&true) {
            self.synced = false;
        }
        self.counts.lane_resets += 1;
        self.verify("reset_lanes");
    }

    fn gather(&mut self, sources: &[usize]) {
        let before = self.shown_all();
        self.env.gather(sources).unwrap();
        self.twins = sources.iter().map(|&s| self.twins[s].clone()).collect();
        for (i, &src) in sources.iter().enumerate() {
            assert!(
                shown(&self.env, i) == before[src],
                "{}: lane {i} is not what lane {src} was",
                self.label
            );
        }
        self.counts.gathers += 1;
        self.verify("gather");
    }

    /// Sets lane `lane` to `state` (typed, or as bytes), as a state from elsewhere.
    fn set_state(&mut self, lane: usize, state: G::State, as_bytes: bool) {
        let before = self.shown_all();
        let bytes = bytemuck::bytes_of(&state).to_vec();
        let result = if as_bytes {
            self.env.set_state_bytes(lane, &bytes)
        } else {
            self.env.set_state(lane, state)
        };
        result.unwrap_or_else(|e| panic!("{}: a reached state was refused: {e}", self.label));
        assert_eq!(
            self.env.state_bytes(lane).unwrap(),
            &bytes[..],
            "{}",
            self.label
        );
        self.twins[lane].state = state;
        // A state set from elsewhere is not a deal: it pays nothing.
        self.after_lane_set(lane, &before, &vec![0; self.game.num_players()]);
        self.counts.states_set += 1;
        self.verify("set_state");
    }

    /// Deals lane `lane` from `order` (which must be valid).
    fn deal_order(&mut self, lane: usize, order: &[u8]) {
        let state = self
            .game
            .reset_from_order(order)
            .unwrap_or_else(|e| panic!("{}: sample order refused: {e}", self.label));
        let before = self.shown_all();
        self.env.reset_lane_from_order(lane, order).unwrap();
        self.twins[lane].state = state;
        self.after_lane_set(lane, &before, &deal_rewards(&self.game, &state));
        self.counts.orders += 1;
        self.verify("reset_lane_from_order");
    }

    /// After a lane's state was set: the lane's status is Applied with `rewards` (as bits)
    /// and its episode is kept; no other lane changed.
    fn after_lane_set(&mut self, lane: usize, before: &[Shown<G::State>], rewards: &[u32]) {
        for (i, b) in before.iter().enumerate() {
            let s = shown(&self.env, i);
            if i == lane {
                assert_eq!(s.illegal, ActionStatus::Applied as u8, "{}", self.label);
                assert_eq!(s.rewards, rewards, "{}: rewards", self.label);
                assert_eq!(s.episode, b.episode, "{}", self.label);
            } else {
                assert!(s == *b, "{}: lane {i} changed with lane {lane}", self.label);
            }
        }
        self.synced &= self.env.observe_on_step();
    }

    fn reset(&mut self, seed: u64) {
        self.env.reset(seed);
        self.seed = seed;
        self.twins = (0..self.n())
            .map(|i| Twin::dealt(&self.game, seed, i, 0))
            .collect();
        self.synced = self.env.observe_on_step();
        self.verify_deal_rewards("reset");
        self.verify("reset");
    }

    fn observe(&mut self) {
        self.env.observe();
        self.synced = true;
        self.verify("observe");
    }

    /// A call that must fail and change nothing (outputs, states, episodes, and, through the
    /// twins checked by later steps, the random streams).
    /// A panic (of `check_state` on a corrupt state) is recorded as a [`Hole`].
    fn refuse(
        &mut self,
        what: &str,
        call: impl FnOnce(&mut VecEnv<G>) -> cardvec::core::Result<()>,
    ) {
        let snapshot = self.env.snapshot();
        let episodes = self.env.episodes().to_vec();
        let result = match quietly(|| call(&mut self.env)) {
            Ok(result) => result,
            Err(panic) => {
                self.holes.push(Hole {
                    label: self.label.clone(),
                    field: format!("({what})"),
                    change: String::new(),
                    what: format!("refusing it panicked: {panic}"),
                });
                return;
            }
        };
        assert!(result.is_err(), "{}: {what} was accepted", self.label);
        assert!(
            self.env.snapshot() == snapshot && self.env.episodes() == episodes,
            "{}: {what} failed but changed the environment",
            self.label
        );
        self.counts.errors += 1;
    }
}

/// The laws of one lane state: `check_state` holds; a finished game has an empty mask and a
/// live one a legal action; the seat to act is a seat; and the mask is exactly the set of
/// actions `step` accepts (tried on copies: every id, a few out of range), a refused action
/// changing nothing and paying nothing, an accepted one reaching a state `check_state`
/// accepts with the outcome's end flags and zero-sum rewards where the game has them.
/// Returns the number of ids tried.
fn check_lane<G: GameSpec>(game: &G, state: &G::State, ctx: &dyn Fn() -> String) -> u64 {
    if let Err(e) = game.check_state(state) {
        panic!(
            "{}: check_state refused a reached state: {e}\n{state:?}",
            ctx()
        );
    }
    // The state text round-trips, and a corrupt one is an error that names it.
    let text = game.state_text(state);
    assert!(
        !text.contains('\n'),
        "{}: the state text is not one line",
        ctx()
    );
    assert!(
        !text.starts_with("bytes:"),
        "{}: the state text is the bytes, not a readable line",
        ctx()
    );
    match game.parse_state(&text) {
        Ok(back) => assert!(
            back == *state,
            "{}: state text does not round-trip: {text}",
            ctx()
        ),
        Err(e) => panic!("{}: the state's own text is refused: {e}\n{text}", ctx()),
    }
    for bad in [
        String::new(),
        text[..text.len() - 1].to_string(),
        format!("{text} x"),
    ] {
        match game.parse_state(&bad) {
            Err(e) => assert!(e.to_string().contains("state text"), "{}: {e}", ctx()),
            Ok(_) => panic!("{}: a corrupt state text was accepted: {bad}", ctx()),
        }
    }
    let (p, a) = (game.num_players(), game.num_actions() as u32);
    // Words: an id the game does not know is named as one ("action N").
    assert_eq!(
        game.action_name(state, a + 1),
        format!("action {}", a + 1),
        "{}: an unknown action's name",
        ctx()
    );
    let mut mask = vec![0u8; a as usize];
    game.legal_mask(state, &mut mask);
    let (te, tr) = game.finished(state);
    if te || tr {
        assert!(
            mask.iter().all(|&m| m == 0),
            "{}: finished with a legal action",
            ctx()
        );
    } else {
        assert!(
            mask.contains(&1),
            "{}: a live game without a legal action",
            ctx()
        );
    }
    assert!(
        mask.iter().all(|&m| m <= 1),
        "{}: mask bytes are 0 or 1",
        ctx()
    );
    assert!(game.current_player(state) < p, "{}: seat to act", ctx());
    let extra = [
        a,
        a + 1,
        a + 2,
        a + 97,
        1 << 16,
        1 << 31,
        (1 << 31) + 1,
        u32::MAX - 1,
        u32::MAX,
    ];
    let mut tried = 0;
    for id in (0..a).chain(extra) {
        if id >= a && game.is_extended_action(id) {
            continue;
        }
        let mut t = *state;
        let mut rewards = vec![0f32; p];
        let out = game.step(&mut t, id, &mut LaneRng::from_seed(id as u64), &mut rewards);
        let legal = id < a && mask[id as usize] == 1;
        assert_eq!(
            out.applied,
            legal,
            "{}: action {id} against the mask",
            ctx()
        );
        if out.applied {
            if let Err(e) = game.check_state(&t) {
                panic!(
                    "{}: action {id} reached a state check_state refuses: {e}",
                    ctx()
                );
            }
            assert_eq!(
                (out.terminated, out.truncated),
                game.finished(&t),
                "{}: action {id}: outcome flags",
                ctx()
            );
            if game.zero_sum() {
                assert_zero_sum(&rewards, &|| format!("{}: action {id}", ctx()));
            }
        } else {
            assert!(
                t == *state && rewards.iter().all(|&r| r == 0.0) && !out.done(),
                "{}: refused action {id} changed something",
                ctx()
            );
        }
        tried += 1;
    }
    tried
}

fn assert_zero_sum(rewards: &[f32], ctx: &dyn Fn() -> String) {
    let sum: f64 = rewards.iter().map(|&r| r as f64).sum();
    let scale = rewards
        .iter()
        .map(|&r| (r as f64).abs())
        .sum::<f64>()
        .max(1.0);
    assert!(
        sum.abs() <= 1e-5 * scale,
        "{}: rewards {rewards:?} do not sum to zero",
        ctx()
    );
}

/// A random interleaving of every lane operation (steps, lane resets, gathers with repeated
/// sources, states set from another environment and from other lanes, explicit deals, full
/// resets and observes, observation and autoreset switched) and of calls that must fail, on a
/// batch of random size, threads and chunk size, checked against the twins after every one.
fn lane_operations<G: GameSpec>(
    game: &G,
    seed: u64,
    ops: usize,
    label: &str,
) -> (Counts, Vec<Hole>) {
    let mut rng = LaneRng::for_lane(seed, 77, 0);
    let mut options = EnvOptions::new(1 + rng.below(12) as usize);
    options.seed = seed;
    options.num_threads = Some(1 + rng.below(3) as usize);
    options.chunk_size = 1 + rng.below(5) as usize;
    options.autoreset = rng.below(2) == 0;
    options.observe_on_step = rng.below(4) != 0;
    // Every other run keeps the compact rows: each row is checked against the f32
    // observation after conversion.
    options.obs_dtype = ObsDtype::ALL[seed as usize % 2];
    let label = format!(
        "{label} (lane operations, seed {seed}, obs {})",
        options.obs_dtype
    );
    let mut m = Model::new(game, options, seed, &label);
    // Another environment, played on its own, lends its states.
    let mut donor_options = EnvOptions::new(5);
    donor_options.seed = seed + 1000;
    donor_options.autoreset = true;
    let mut donor = VecEnv::new(game.clone(), donor_options).unwrap();
    let mut donor_rng = LaneRng::from_seed(seed + 1000);
    let n = m.n();
    let a = game.num_actions();
    let state_len = std::mem::size_of::<G::State>();
    for _ in 0..ops {
        let lane = m.rng.below(n as u32) as usize;
        match m.rng.below(48) {
            0 => {
                let on = !m.env.observe_on_step();
                m.env.set_observe_on_step(on);
            }
            1 => {
                let on = !m.env.autoreset();
                m.env.set_autoreset(on);
            }
            2 | 3 => {
                let mask: Vec<bool> = (0..n).map(|_| m.rng.below(3) == 0).collect();
                m.reset_lanes(&mask);
            }
            4 | 5 => {
                let sources: Vec<usize> = (0..n).map(|_| m.rng.below(n as u32) as usize).collect();
                m.gather(&sources);
            }
            6 | 7 => {
                for _ in 0..1 + donor_rng.below(20) {
                    let actions = mixed_actions(&donor, &mut donor_rng);
                    donor.step(&actions).unwrap();
                }
                let k = donor_rng.below(5) as usize;
                let state = *donor.state(k).unwrap();
                let as_bytes = m.rng.below(2) == 0;
                m.set_state(lane, state, as_bytes);
            }
            8 => {
                let other = m.rng.below(n as u32) as usize;
                let state = *m.env.state(other).unwrap();
                m.set_state(lane, state, false);
            }
            9 | 10 => {
                if let Some(order) = game.sample_order(&mut m.rng) {
                    m.deal_order(lane, &order);
                }
            }
            11 => m.observe(),
            12 => {
                let s = m.rng.next_u64();
                m.reset(s);
            }
            13..=16 => refuse_one(&mut m, lane, state_len),
            _ => {
                let actions: Vec<u32> = m
                    .env
                    .legal_mask()
                    .chunks(a)
                    .map(|mask| mixed_action(mask, &mut donor_rng))
                    .collect();
                m.step(&actions);
            }
        }
    }
    m.verify("the last operation");
    (m.counts, m.holes)
}

/// One call with bad input, picked at random: it must fail and change nothing.
fn refuse_one<G: GameSpec>(m: &mut Model<G>, lane: usize, state_len: usize) {
    let n = m.n();
    let good = *m.env.state(lane).unwrap();
    let good_bytes = bytemuck::bytes_of(&good).to_vec();
    match m.rng.below(12) {
        0 => {
            let actions = vec![0u32; n + 1];
            m.refuse("a step with one action too many", |e| e.step(&actions));
            m.refuse("a step with one action too few", |e| {
                e.step(&actions[..n - 1])
            });
        }
        1 => {
            let mask = vec![true; n + 1];
            m.refuse("reset_lanes with a mask too long", |e| e.reset_lanes(&mask));
            m.refuse("reset_lanes with a mask too short", |e| {
                e.reset_lanes(&mask[..n - 1])
            });
        }
        2 => {
            let mut sources: Vec<usize> = (0..n).collect();
            m.refuse("gather with a source too few", |e| {
                e.gather(&sources[..n - 1])
            });
            sources[lane] = n;
            m.refuse("gather from a lane that does not exist", |e| {
                e.gather(&sources)
            });
        }
        3 => {
            m.refuse("set_state on a lane that does not exist", |e| {
                e.set_state(n, good)
            });
            m.refuse("set_state_bytes on a lane that does not exist", |e| {
                e.set_state_bytes(n, &good_bytes)
            });
        }
        4 => {
            let mut long = good_bytes.clone();
            long.push(0);
            m.refuse("state bytes one too many", |e| {
                e.set_state_bytes(lane, &long)
            });
            m.refuse("state bytes one too few", |e| {
                e.set_state_bytes(lane, &good_bytes[..state_len - 1])
            });
            m.refuse("no state bytes", |e| e.set_state_bytes(lane, &[]));
            m.refuse("b\"garbage\"", |e| e.set_state_bytes(lane, b"garbage"));
        }
        5 | 6 => {
            let garbage: Vec<u8> = (0..state_len).map(|_| m.rng.below(256) as u8).collect();
            m.refuse("random state bytes", |e| e.set_state_bytes(lane, &garbage));
            m.refuse("state bytes all 0xff", |e| {
                e.set_state_bytes(lane, &vec![0xff; state_len])
            });
        }
        7 | 8 => {
            // A reached state with one byte changed so that check_state refuses it.
            let game = m.game.clone();
            let mut tries = 0;
            loop {
                let mut bytes = good_bytes.clone();
                let at = m.rng.below(state_len as u32) as usize;
                bytes[at] ^= 1 << m.rng.below(8);
                let bad: G::State = bytemuck::pod_read_unaligned(&bytes);
                let verdict = match quietly(|| game.check_state(&bad)) {
                    Ok(verdict) => verdict,
                    Err(panic) => {
                        m.holes.push(Hole {
                            label: m.label.clone(),
                            field: field_name(&good, &bad, at),
                            change: byte_change(at, good_bytes[at], bytes[at]),
                            what: format!("check_state panicked: {panic}"),
                        });
                        break;
                    }
                };
                if verdict.is_err() {
                    m.refuse("a state check_state refuses", |e| e.set_state(lane, bad));
                    m.refuse("the bytes of a state check_state refuses", |e| {
                        e.set_state_bytes(lane, &bytes)
                    });
                    break;
                }
                tries += 1;
                assert!(
                    tries < 10_000,
                    "{}: no refused one-bit change found",
                    m.label
                );
            }
        }
        _ => {
            let Some(order) = m.game.sample_order(&mut m.rng) else {
                return;
            };
            m.refuse("an order dealt to a lane that does not exist", |e| {
                e.reset_lane_from_order(n, &order)
            });
            for bad in bad_orders(&order) {
                assert!(
                    m.game.reset_from_order(&bad).is_err(),
                    "{}: order {bad:?}",
                    m.label
                );
                m.refuse("a bad deal order", |e| e.reset_lane_from_order(lane, &bad));
            }
        }
    }
}

/// Orders no game accepts, made from a valid one: empty, one byte short, one byte long, a
/// card id 255, and a card repeated in place of another.
fn bad_orders(order: &[u8]) -> Vec<Vec<u8>> {
    let mut out = vec![Vec::new(), order[..order.len() - 1].to_vec()];
    let mut long = order.to_vec();
    long.push(order[0]);
    out.push(long);
    let mut far = order.to_vec();
    far[0] = 255;
    out.push(far);
    if let Some(j) = order.iter().position(|&c| c != order[0]) {
        let mut dup = order.to_vec();
        dup[j] = order[0];
        out.push(dup);
    }
    out
}

/// `registry::make` with this configuration's options builds the environment `VecEnv::new`
/// builds, and both play alike.
fn registry_make_matches<G: GameSpec>(game: &G, options: &Options, label: &str) {
    let pairs: Vec<(String, OptionValue)> = options
        .given()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect();
    let mut env = EnvOptions::new(7);
    env.seed = 3;
    let mut dynamic = registry::make(G::INFO.id, pairs, env.clone()).unwrap();
    let mut direct = VecEnv::new(game.clone(), env).unwrap();
    assert_eq!(dynamic.info().id, G::INFO.id);
    assert_eq!(dynamic.config(), game.options(), "{label}");
    assert_eq!(dynamic.num_players(), game.num_players(), "{label}");
    assert_eq!(dynamic.zero_sum(), game.zero_sum(), "{label}");
    assert_eq!(
        dynamic.state_len(),
        std::mem::size_of::<G::State>(),
        "{label}"
    );
    let mut rng = LaneRng::from_seed(1);
    for _ in 0..50 {
        assert!(
            dynamic.snapshot() == direct.snapshot(),
            "{label}: make differs"
        );
        let actions = mixed_actions(&direct, &mut rng);
        dynamic.step(&actions).unwrap();
        direct.step(&actions).unwrap();
    }
}

// ------------------------------------------------------------------------------------------
// Corrupt states

/// A corrupt state that `check_state` accepted and that then broke the contract.
#[derive(Clone, Debug)]
struct Hole {
    /// The game and configuration (and run).
    label: String,
    /// The field changed (from the `Debug` forms), or what was set.
    field: String,
    /// The change (`byte 117: 0x00 -> 0x7f`), if one byte was changed.
    change: String,
    /// What broke.
    what: String,
}

/// The change of one byte, for a [`Hole`].
fn byte_change(offset: usize, from: u8, to: u8) -> String {
    format!("byte {offset}: {from:#04x} -> {to:#04x}")
}

fn report_holes(holes: &[&Hole]) -> String {
    let mut by_field: BTreeMap<(String, String), (usize, &Hole)> = BTreeMap::new();
    for h in holes {
        let game = h.label.split(' ').next().unwrap_or("").to_string();
        by_field.entry((game, h.field.clone())).or_insert((0, h)).0 += 1;
    }
    let mut out = format!(
        "check_state accepted {} corrupt states that then broke the contract, in {} fields:\n",
        holes.len(),
        by_field.len()
    );
    for ((game, field), (count, h)) in by_field {
        out += &format!(
            "- {game} {field}: {count} states; e.g. {} {}: {}\n",
            h.label, h.change, h.what
        );
    }
    out
}

thread_local! {
    /// Whether panics on this thread are expected (the hook then records them quietly).
    static QUIET: Cell<bool> = const { Cell::new(false) };
    /// The message and place of the last quiet panic.
    static LAST_PANIC: RefCell<String> = const { RefCell::new(String::new()) };
}

/// Runs `f`, catching a panic as an error (its message and place), without printing it.
fn quietly<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if QUIET.with(|q| q.get()) {
                LAST_PANIC.with(|l| *l.borrow_mut() = info.to_string());
            } else {
                default(info);
            }
        }));
    });
    QUIET.with(|q| q.set(true));
    let result = catch_unwind(AssertUnwindSafe(f));
    QUIET.with(|q| q.set(false));
    result.map_err(|_| LAST_PANIC.with(|l| l.borrow().replace('\n', " ")))
}

/// The name of the field where the `Debug` forms of two states first differ.
fn field_name<S: Debug>(a: &S, b: &S, offset: usize) -> String {
    let (x, y) = (format!("{a:?}"), format!("{b:?}"));
    let Some(at) = x.bytes().zip(y.bytes()).position(|(p, q)| p != q) else {
        return format!("(byte {offset}, not shown by Debug)");
    };
    let head = &x[..at];
    let Some(colon) = head.rfind(": ") else {
        return format!("(byte {offset})");
    };
    let name: String = head[..colon]
        .chars()
        .rev()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    name.chars().rev().collect()
}

/// Every one-byte change (to 0, 1, 0x7f, 0x80, 0xff, and by one bit or one unit) of a few
/// reached states (a deal, mid-game, an end) is set as a lane's state: `set_state_bytes` must
/// refuse it, changing nothing, or accept a state on which every method works and whose steps
/// `check_state` accepts for a few dozen steps. Returns the states tried, those refused, and
/// the accepted ones that broke the contract. A method that does not return within a minute
/// counts as looping forever; its thread is left running, and the scan of this
/// configuration stops there.
fn corrupt_states<G: GameSpec>(game: &G, label: &str) -> (u64, u64, Vec<Hole>) {
    let donors = donor_states(game);
    let mut options = EnvOptions::new(1);
    options.num_threads = Some(1);
    let mut env = VecEnv::new(game.clone(), options).unwrap();
    let (mut tried, mut refused) = (0u64, 0u64);
    let mut holes = Vec::new();
    for donor in &donors {
        let original = bytemuck::bytes_of(donor).to_vec();
        for offset in 0..original.len() {
            let b = original[offset];
            let mut values = vec![
                0,
                1,
                0x7f,
                0x80,
                0xff,
                b ^ 1,
                b ^ 0x80,
                b.wrapping_add(1),
                b.wrapping_sub(1),
            ];
            values.sort_unstable();
            values.dedup();
            for to in values.into_iter().filter(|&v| v != b) {
                let mut bytes = original.clone();
                bytes[offset] = to;
                let state: G::State = bytemuck::pod_read_unaligned(&bytes);
                tried += 1;
                let hole = |what: String| Hole {
                    label: label.to_string(),
                    field: field_name(donor, &state, offset),
                    change: byte_change(offset, b, to),
                    what,
                };
                let g = game.clone();
                let verdict = match within(move || quietly(|| g.check_state(&state))) {
                    None => {
                        holes.push(hole("check_state does not return".into()));
                        return (tried, refused, holes);
                    }
                    Some(Err(panic)) => {
                        holes.push(hole(format!("check_state panicked: {panic}")));
                        continue;
                    }
                    Some(Ok(verdict)) => verdict,
                };
                if verdict.is_err() {
                    refused += 1;
                    let snapshot = env.snapshot();
                    assert!(
                        env.set_state_bytes(0, &bytes).is_err() && env.snapshot() == snapshot,
                        "{label}: a state check_state refuses was set, or changed the environment"
                    );
                    continue;
                }
                let g = game.clone();
                let seed = tried;
                match within(move || quietly(|| play_accepted(&g, state, seed))) {
                    None => {
                        holes.push(hole("a method does not return (loops forever?)".into()));
                        return (tried, refused, holes);
                    }
                    Some(Err(panic)) => holes.push(hole(format!("panicked: {panic}"))),
                    Some(Ok(Err(broken))) => holes.push(hole(broken)),
                    Some(Ok(Ok(()))) => {
                        env.set_state_bytes(0, &bytes).unwrap();
                        assert_eq!(env.state_bytes(0).unwrap(), &bytes[..], "{label}");
                    }
                }
            }
        }
    }
    (tried, refused, holes)
}

/// Runs `f` on a thread of its own and returns its result, or `None` if it has not returned
/// within a minute (the thread is then left running). What it runs takes microseconds: only a
/// method that loops forever comes near the limit.
fn within<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> Option<T> {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(std::time::Duration::from_secs(60)).ok()
}

/// A deal, states after a few and after many steps, and the end of a game, of lane 0.
fn donor_states<G: GameSpec>(game: &G) -> Vec<G::State> {
    let mut rng = LaneRng::from_seed(17);
    let mut s = game.reset(&mut rng);
    let mut out = vec![s];
    let mut mask = vec![0u8; game.num_actions()];
    let mut rewards = vec![0f32; game.num_players()];
    for step in 1..=100_000 {
        let (te, tr) = game.finished(&s);
        if te || tr {
            out.push(s);
            break;
        }
        if step == 8 || step == 60 {
            out.push(s);
        }
        game.legal_mask(&s, &mut mask);
        game.step(
            &mut s,
            random_legal(&mask, &mut rng),
            &mut rng,
            &mut rewards,
        );
    }
    out
}

/// Plays a state `check_state` accepted: every method on every seat, every action id tried on
/// a copy, then a random legal action, for up to 24 steps; any state reached must pass
/// `check_state`.
fn play_accepted<G: GameSpec>(game: &G, mut state: G::State, seed: u64) -> Result<(), String> {
    let mut rng = LaneRng::from_seed(seed);
    let (p, a, d) = (game.num_players(), game.num_actions(), game.obs_dim());
    let mut mask = vec![0u8; a];
    let mut obs = vec![0f32; d];
    let mut rewards = vec![0f32; p];
    for step in 0..24 {
        game.check_state(&state)
            .map_err(|e| format!("step {step} reached a state check_state refuses: {e}"))?;
        let (te, tr) = game.finished(&state);
        let cp = game.current_player(&state);
        if cp >= p {
            return Err(format!("seat to act {cp} of {p}"));
        }
        game.legal_mask(&state, &mut mask);
        for player in 0..p {
            game.observe(&state, player, &mut obs);
        }
        for id in (0..a as u32).chain([a as u32, u32::MAX]) {
            let mut t = state;
            rewards.fill(0.0);
            let out = game.step(&mut t, id, &mut rng.clone(), &mut rewards);
            if out.applied != (mask.get(id as usize) == Some(&1)) {
                return Err(format!(
                    "step {step}: action {id} applied {} against the mask",
                    out.applied
                ));
            }
            if out.applied {
                game.check_state(&t).map_err(|e| {
                    format!("step {step}: action {id} reached a state check_state refuses: {e}")
                })?;
            }
        }
        if te || tr {
            return Ok(());
        }
        let action = random_legal(&mask, &mut rng);
        if action == u32::MAX {
            return Err(format!("step {step}: a live game without a legal action"));
        }
        rewards.fill(0.0);
        game.step(&mut state, action, &mut rng, &mut rewards);
    }
    Ok(())
}

// ------------------------------------------------------------------------------------------
// Configurations

/// Values of the wrong kind, or out of range, for an option.
fn bad_values(spec: &OptionSpec) -> Vec<OptionValue> {
    use OptionValue::{Float, Int, List, Text};
    let word = || Text("bogus".into());
    // Integers just outside the range, where an i64 can hold them (151's initial_dealer
    // takes every i64).
    let outside = |min: i64, max: i64| {
        [min.checked_sub(1), max.checked_add(1)]
            .into_iter()
            .flatten()
            .map(Int)
    };
    match spec.kind {
        OptionKind::Int { min, max } => outside(min, max)
            .chain([
                Float(min as f64 + 0.5),
                word(),
                OptionValue::None,
                List(vec![Int(min)]),
            ])
            .collect(),
        OptionKind::OptionalInt { min, max } => outside(min, max)
            .chain([Float(min as f64 + 0.5), word(), List(vec![Int(min)])])
            .collect(),
        OptionKind::IntList { min, max } => vec![
            List(vec![Int(min - 1)]),
            List(vec![Int(max + 1)]),
            List(vec![Float(min as f64 + 0.5)]),
            List(vec![word()]),
            Int(min),
            word(),
        ],
        OptionKind::FloatList { min, max } => vec![
            List(vec![Float(min - 1.0)]),
            List(vec![Float(max * 2.0 + 1.0)]),
            List(vec![word()]),
            Float(min),
            word(),
        ],
        OptionKind::Choice(_) => vec![word(), Int(1), OptionValue::None],
    }
}

/// Bad configurations are errors through `Options`, and through `registry::make`: an unknown
/// option, every option given a value of the wrong kind or out of range (num_players among
/// them, where the game has it), an option given twice; bad batch options too.
fn configuration_errors<G: GameSpec>() {
    let id = G::INFO.id;
    let specs = G::INFO.options;
    let env = EnvOptions::new(2);
    let make = |pairs: Vec<(String, OptionValue)>| registry::make(id, pairs, env.clone());
    assert!(Options::parse(specs, "no_such_option=1").is_err(), "{id}");
    assert!(
        matches!(
            make(vec![("no_such_option".into(), OptionValue::Int(1))]),
            Err(Error::Unknown { .. })
        ),
        "{id}"
    );
    match specs.iter().find(|s| s.name == "num_players") {
        Some(spec) => assert_eq!(
            spec.kind,
            OptionKind::Int {
                min: G::INFO.num_players.0 as i64,
                max: G::INFO.num_players.1 as i64
            },
            "{id}: num_players spans the players of the entry"
        ),
        None => {
            assert_eq!(G::INFO.num_players.0, G::INFO.num_players.1, "{id}");
            assert!(make(vec![("num_players".into(), OptionValue::Int(3))]).is_err());
        }
    }
    for spec in specs {
        for bad in bad_values(spec) {
            let pairs = vec![(spec.name.to_string(), bad.clone())];
            assert!(
                Options::new(specs, pairs.clone()).is_err(),
                "{id}: {}={bad} accepted",
                spec.name
            );
            assert!(
                make(pairs).is_err(),
                "{id}: make accepted {}={bad}",
                spec.name
            );
        }
        if let Some(default) = Options::defaults(specs).get(spec.name) {
            let twice = vec![
                (spec.name.to_string(), default.clone()),
                (spec.name.to_string(), default),
            ];
            assert!(make(twice).is_err(), "{id}: {} given twice", spec.name);
        }
    }
    let game = G::configure(&Options::defaults(specs)).unwrap();
    for bad in [
        EnvOptions {
            num_envs: 0,
            ..EnvOptions::new(1)
        },
        EnvOptions {
            chunk_size: 0,
            ..EnvOptions::new(1)
        },
        EnvOptions {
            num_threads: Some(0),
            ..EnvOptions::new(1)
        },
    ] {
        assert!(matches!(
            VecEnv::new(game.clone(), bad.clone()),
            Err(Error::OutOfRange { .. })
        ));
        assert!(registry::make(id, vec![], bad).is_err(), "{id}");
    }
    // The same seed deals the same games; another seed others.
    let mut e = VecEnv::new(game, EnvOptions::new(16)).unwrap();
    let first = e.snapshot();
    e.reset(1);
    assert!(
        e.snapshot() != first,
        "{id}: a new seed dealt the same games"
    );
    e.reset(0);
    assert!(
        e.snapshot() == first,
        "{id}: the same seed dealt other games"
    );
}

// ------------------------------------------------------------------------------------------
// Property tests over every game

/// Inputs that once failed (kept from the per-game property tests), run on every game.
const FUZZ_REGRESSIONS: &[&[u8]] = &[&[27, 0, 87, 0, 0, 0, 0, 0, 0, 0, 0]];

struct Fuzz {
    cases: u32,
}

impl Visitor for Fuzz {
    type Output = ();
    fn visit<G: GameSpec>(&mut self) {
        let id = G::INFO.id;
        for data in FUZZ_REGRESSIONS {
            assert_eq!(registry::fuzz_check(id, data), Ok(()), "{id}: {data:?}");
        }
        // A whole configuration and seed, then up to 800 script bytes; at times a short
        // input (zero-padded by the check).
        let head = G::FUZZ_CONFIG_BYTES + 8;
        let full = (
            proptest::collection::vec(any::<u8>(), head),
            proptest::collection::vec(any::<u8>(), 0..800),
        )
            .prop_map(|(mut h, s)| {
                h.extend(s);
                h
            });
        let inputs = prop_oneof![
            7 => full,
            1 => proptest::collection::vec(any::<u8>(), 0..head + 4),
        ];
        let mut runner = TestRunner::new(Config {
            cases: self.cases,
            failure_persistence: None,
            ..Config::default()
        });
        runner
            .run(&inputs, |data| {
                prop_assert_eq!(registry::fuzz_check(id, &data), Ok(()));
                Ok(())
            })
            .unwrap_or_else(|e| panic!("{id}: {e}"));
        eprintln!("fuzz: {id}: {} random inputs", self.cases);
    }
}

#[test]
fn fuzz_check_holds_on_random_inputs_for_every_game() {
    registry::visit_all(&mut Fuzz { cases: 400 });
}

struct RandomConfigurations {
    cases: u32,
}

impl Visitor for RandomConfigurations {
    type Output = ();
    fn visit<G: GameSpec>(&mut self) {
        let id = G::INFO.id;
        let inputs = (
            proptest::collection::vec(any::<u8>(), G::FUZZ_CONFIG_BYTES),
            any::<u64>(),
            0usize..400,
        );
        let mut runner = TestRunner::new(Config {
            cases: self.cases,
            failure_persistence: None,
            ..Config::default()
        });
        runner
            .run(&inputs, |(config, seed, plies)| {
                let game = G::fuzz_config(&config);
                let (_, mut lane) = game.fuzz_pair(seed);
                let mut rng = LaneRng::from_seed(seed);
                let mut mask = vec![0u8; game.num_actions()];
                for ply in 0..=plies {
                    let ctx = || format!("{id}: {:?}, ply {ply}", game.options().to_string());
                    check_lane(&game, &lane.state, &ctx);
                    let (te, tr) = game.finished(&lane.state);
                    if te || tr {
                        break;
                    }
                    game.legal_mask(&lane.state, &mut mask);
                    let action = random_legal(&mask, &mut rng);
                    let mut rewards = vec![0f32; game.num_players()];
                    prop_assert!(
                        game.step(&mut lane.state, action, &mut lane.rng, &mut rewards)
                            .applied
                    );
                }
                Ok(())
            })
            .unwrap_or_else(|e| panic!("{id}: {e}"));
        eprintln!("lane contract: {id}: {} random configurations", self.cases);
    }
}

/// The lane laws of [`check_lane`] (mask = what step accepts, check_state, end flags,
/// zero-sum) on random configurations of every game (the fuzz check's configuration bytes),
/// along random games.
#[test]
fn random_configurations_keep_the_lane_contract() {
    registry::visit_all(&mut RandomConfigurations { cases: 256 });
}

/// A random value in an option's range, often one of its bounds; lists of random lengths.
fn random_value(spec: &OptionSpec, rng: &mut LaneRng) -> OptionValue {
    use OptionValue::{Float, Int, List, Text};
    let int = |rng: &mut LaneRng, min: i64, max: i64| match rng.below(4) {
        0 => min,
        1 => max,
        // In i128: the span of 151's initial_dealer (every i64) overflows an i64.
        _ => min + (rng.next_u64() % ((max as i128 - min as i128).min(1000) as u64 + 1)) as i64,
    };
    match spec.kind {
        OptionKind::Int { min, max } => Int(int(rng, min, max)),
        OptionKind::OptionalInt { min, max } => match rng.below(3) {
            0 => OptionValue::None,
            _ => Int(int(rng, min, max)),
        },
        OptionKind::IntList { min, max } => match rng.below(4) {
            0 => OptionValue::None,
            _ => List(
                (0..rng.below(12))
                    .map(|_| Int(int(rng, min, max)))
                    .collect(),
            ),
        },
        OptionKind::FloatList { min, max } => {
            let mut v: Vec<f64> = (0..rng.below(10))
                .map(|_| min + (max - min) * rng.unit_f64().powi(3))
                .collect();
            if rng.below(2) == 0 {
                v.sort_by(f64::total_cmp);
            }
            List(v.into_iter().map(Float).collect())
        }
        OptionKind::Choice(words) => Text(words[rng.below(words.len() as u32) as usize].into()),
    }
}

struct RandomOptions {
    cases: u32,
}

impl Visitor for RandomOptions {
    type Output = ();
    fn visit<G: GameSpec>(&mut self) {
        let id = G::INFO.id;
        let (built, refused) = (Cell::new(0u32), Cell::new(0u32));
        let mut runner = TestRunner::new(Config {
            cases: self.cases,
            failure_persistence: None,
            ..Config::default()
        });
        runner
            .run(&any::<u64>(), |seed| {
                let mut rng = LaneRng::from_seed(seed);
                let mut pairs: Vec<(String, OptionValue)> = Vec::new();
                for spec in G::INFO.options {
                    if rng.below(2) == 0 {
                        pairs.push((spec.name.to_string(), random_value(spec, &mut rng)));
                    }
                }
                let options = Options::new(G::INFO.options, pairs.clone())
                    .map_err(|e| TestCaseError::fail(format!("{pairs:?}: {e}")))?;
                let label = format!("{id} {options}");
                match quietly(|| G::configure(&options)) {
                    Err(panic) => {
                        return Err(TestCaseError::fail(format!(
                            "{label}: configure panicked: {panic}"
                        )))
                    }
                    Ok(Err(_)) => {
                        refused.set(refused.get() + 1);
                        let made = registry::make(id, pairs, EnvOptions::new(2));
                        prop_assert!(made.is_err(), "{}: make accepted it", label);
                    }
                    Ok(Ok(game)) => {
                        built.set(built.get() + 1);
                        let again = G::configure(&game.options()).unwrap();
                        prop_assert_eq!(again.options(), game.options());
                        let mut env = EnvOptions::new(4);
                        env.seed = seed;
                        env.autoreset = true;
                        let mut model = Model::new(&game, env, seed, &label);
                        for _ in 0..40 {
                            let actions = mixed_actions(&model.env, &mut model.rng);
                            model.step(&actions);
                        }
                    }
                }
                Ok(())
            })
            .unwrap_or_else(|e| panic!("{id}: {e}"));
        assert!(built.get() > 0, "{id}: no random configuration was built");
        eprintln!(
            "options: {id}: {} random configurations built, {} refused by configure",
            built.get(),
            refused.get()
        );
    }
}

/// Random in-range options of every game: `configure` builds a configuration whose options
/// round-trip and whose batch keeps the contract, or refuses it (and so does
/// `registry::make`); it never panics.
#[test]
fn random_options_configure_or_are_refused() {
    registry::visit_all(&mut RandomOptions { cases: 200 });
}
