//! The fuzz check every game shares: arbitrary bytes choose a configuration, a deal and an
//! action script, played on the reference and the fast engine in lockstep with every
//! comparison of the differential runner after every action (and of the rewards of the
//! deal), plus [`Game::check_state`], the zero-sum law where the game has it, and the game's
//! own invariants
//! ([`GameChecks::fuzz_invariants`](crate::core::GameChecks::fuzz_invariants)). The cargo-fuzz targets call [`check`] (through the
//! registry); `cargo test` runs the same function on random inputs.
//!
//! Input layout: the first [`GameChecks::FUZZ_CONFIG_BYTES`](crate::core::GameChecks::FUZZ_CONFIG_BYTES) bytes choose the configuration
//! ([`GameChecks::fuzz_config`](crate::core::GameChecks::fuzz_config)), the next 8 (little-endian) seed the deal, and each further
//! byte is one action:
//!
//! | byte | action |
//! | --- | --- |
//! | `0..=199` | the `byte`-th legal action, counting modulo the number of legal actions |
//! | `200..=239` | the raw id `byte - 200` (legal or not) |
//! | `240..=254` | the game's raw action `k = byte - 240` ([`GameChecks::fuzz_raw_action`](crate::core::GameChecks::fuzz_raw_action)) |
//! | `255` | `u32::MAX` |
//!
//! Once the game is over, one more action checks that a finished game accepts nothing, and
//! the script stops.
//!
//! [`check_states`] is the second check: it corrupts reachable states byte by byte and
//! holds [`Game::check_state`] to its contract (every reachable state accepted; every
//! accepted state safe for every method and closed under steps). The `states` fuzz target
//! calls it through the registry.
//!
//! [`Game::check_state`]: crate::core::Game::check_state

use super::diff::{Lockstep, Scripted};
use super::game::{Game, SingleLane};
use super::obs::ObsFormat;
use super::policy::random_legal;
use super::rng::LaneRng;
use super::spec::{FuzzStep, GameSpec, Options};

/// Plays one fuzz input on game `G` (see the module documentation); the first failed
/// check is the error.
pub fn check<G: GameSpec>(data: &[u8]) -> Result<(), String> {
    let k = G::FUZZ_CONFIG_BYTES;
    let mut config_bytes = vec![0u8; k];
    let head = data.len().min(k);
    config_bytes[..head].copy_from_slice(&data[..head]);
    let rest = &data[head..];
    let mut seed_bytes = [0u8; 8];
    let seed_len = rest.len().min(8);
    seed_bytes[..seed_len].copy_from_slice(&rest[..seed_len]);
    let script = &rest[seed_len..];

    let game = G::fuzz_config(&config_bytes);
    let (reference, fast) = game.fuzz_pair(u64::from_le_bytes(seed_bytes));
    let mut pair = Lockstep::new(reference, fast)?;
    // The totals start with the rewards of the deal (a game over as dealt pays there).
    let mut totals: Vec<f64> = pair.rewards().iter().map(|&r| r as f64).collect();
    let zero_sum = |rewards: &[f32]| -> Result<(), String> {
        if !game.zero_sum() {
            return Ok(());
        }
        let sum: f64 = rewards.iter().map(|&r| r as f64).sum();
        let scale: f64 = rewards
            .iter()
            .map(|&r| (r as f64).abs())
            .sum::<f64>()
            .max(1.0);
        if sum.abs() > 1e-5 * scale {
            return Err(format!("rewards {rewards:?} do not sum to zero"));
        }
        Ok(())
    };
    zero_sum(pair.rewards()).map_err(|e| format!("the deal: {e}"))?;
    let mut previous = pair.b.state;
    let invariants =
        |pair: &Lockstep<G::Reference, SingleLane<G>>, previous: &G::State, totals: &[f64]| {
            game.check_state(&pair.b.state)
                .map_err(|e| format!("check_state: {e}"))?;
            G::fuzz_invariants(&FuzzStep {
                reference: &pair.a,
                fast: &pair.b,
                previous,
                reward_totals: totals,
            })
        };
    pair.compare()?;
    invariants(&pair, &previous, &totals)?;
    let format = game.obs_format();
    let mut obs = vec![0f32; game.obs_dim()];
    for (i, &byte) in script.iter().enumerate() {
        let was_done = pair.done();
        let scripted = match byte {
            0..=199 => Scripted::Legal(byte as u32),
            200..=239 => Scripted::Raw(byte as u32 - 200),
            240..=254 => Scripted::Raw(G::fuzz_raw_action(&pair.a, byte - 240)),
            255 => Scripted::Raw(u32::MAX),
        };
        let action = pair.resolve(scripted);
        previous = pair.b.state;
        let outcome = pair
            .apply(action)
            .map_err(|e| format!("script step {i}: {e}"))?;
        if !outcome.applied && pair.b.state != previous {
            return Err(format!(
                "script step {i}: the refused action {action} changed the state"
            ));
        }
        let rewards = pair.rewards();
        for (t, &r) in totals.iter_mut().zip(rewards) {
            *t += r as f64;
        }
        zero_sum(rewards).map_err(|e| format!("script step {i}: {e}"))?;
        pair.compare()
            .map_err(|e| format!("after script step {i}: {e}"))?;
        invariants(&pair, &previous, &totals).map_err(|e| format!("after script step {i}: {e}"))?;
        let seat = game
            .current_player(&pair.b.state)
            .min(game.num_players() - 1);
        game.observe(&pair.b.state, seat, &mut obs);
        check_compact(&game, &format, &pair.b.state, seat, &obs)
            .map_err(|e| format!("after script step {i}: {e}"))?;
        if was_done {
            break;
        }
    }
    Ok(())
}

/// What one [`check_states`] input did: how many corrupted states it tried, how many
/// the game's check accepted, and how many steps the playouts from them applied.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StateCheckReport {
    /// Corrupted states tried.
    pub tried: usize,
    /// Corrupted states [`Game::check_state`] accepted
    /// (each then played out with every check passing).
    pub accepted: usize,
    /// Steps applied in the playouts.
    pub steps: usize,
}

/// Most steps [`check_states`] plays from the corrupted state its input spells out.
pub const STATE_PLAYOUT_STEPS: usize = 250;
/// Corrupted states [`check_states`] derives at random from each input, besides the one the
/// input spells out.
pub const STATE_TRIALS: usize = 32;
/// Most steps [`check_states`] plays from each of its random corrupted states.
pub const STATE_TRIAL_STEPS: usize = 16;
/// Most byte mutations one input spells out.
pub const STATE_MUTATIONS: usize = 12;

fn panic_message(payload: Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic without a message".to_string()
    }
}

/// A little-endian reader over fuzz bytes that reads zeros past the end.
struct Bytes<'a>(&'a [u8]);

impl<'a> Bytes<'a> {
    fn take(&mut self, n: usize) -> Vec<u8> {
        let k = n.min(self.0.len());
        let mut out = self.0[..k].to_vec();
        out.resize(n, 0);
        self.0 = &self.0[k..];
        out
    }
    fn u8(&mut self) -> u8 {
        self.take(1)[0]
    }
    fn u16(&mut self) -> u16 {
        let b = self.take(2);
        u16::from_le_bytes([b[0], b[1]])
    }
    fn u64(&mut self) -> u64 {
        let b = self.take(8);
        u64::from_le_bytes(b.try_into().expect("8 bytes"))
    }
}

/// Plays up to `steps` random legal steps from a deal of `seed`, checking that every state
/// on the way passes [`Game::check_state`]; returns the last state.
fn reach<G: GameSpec>(game: &G, seed: u64, steps: usize) -> Result<G::State, String> {
    let mut rng = LaneRng::from_seed(seed);
    let mut state = game.reset(&mut rng);
    let mut mask = vec![0u8; game.num_actions()];
    let mut rewards = vec![0f32; game.num_players()];
    for i in 0..=steps {
        game.check_state(&state)
            .map_err(|e| format!("reachable state after {i} steps rejected: {e}"))?;
        let (terminated, truncated) = game.finished(&state);
        if i == steps || terminated || truncated {
            break;
        }
        game.legal_mask(&state, &mut mask);
        let action = random_legal(&mask, &mut rng);
        rewards.fill(0.0);
        if !game
            .step(&mut state, action, &mut rng, &mut rewards)
            .applied
        {
            return Err(format!(
                "legal action {action} refused while reaching a state"
            ));
        }
    }
    Ok(state)
}

/// The state-corruption check every game shares: arbitrary bytes choose a configuration, a
/// reachable state (mid-game or finished) and corruptions of its bytes. Every reachable
/// state on the way must pass [`Game::check_state`]. For
/// every corrupted state the check accepts, every method must work on it and on every state
/// it leads to: `current_player` (a seat while the game runs), `finished`, `legal_mask`
/// (empty exactly when finished), `observe` for every seat (finite values), `observe_update`
/// and `observe_seats_update` after a step (equal to `observe`), `step` with every legal action (each accepted, each
/// successor accepted by the check) and with illegal and raw ids (refused without a change
/// or an outcome, unless the game accepts an extended id), for a number of steps. A panic
/// anywhere, in the check included, is an error carrying its message.
///
/// Each input tries the corrupted state it spells out (played for up to
/// [`STATE_PLAYOUT_STEPS`] steps, by its script), then [`STATE_TRIALS`] more derived from
/// its seed (one or two random mutations each, played for up to [`STATE_TRIAL_STEPS`]
/// steps by a random policy): a fuzzer's inputs then corrupt many bytes of many states.
///
/// Input layout, in order (bytes past the end read as zero):
///
/// - 1 byte, the configuration: even = [`GameChecks::fuzz_config`](crate::core::GameChecks::fuzz_config), odd = entry
///   `(b >> 1) % len` of the game's listed configurations;
/// - [`GameChecks::FUZZ_CONFIG_BYTES`](crate::core::GameChecks::FUZZ_CONFIG_BYTES) bytes for `fuzz_config`;
/// - 8 bytes: the seed of the deal, of the random legal policy that reaches the state, and
///   of the random trials;
/// - 1 byte, the steps to reach the state: `b % 16` for `b < 96`, `b - 96` for `b < 192`,
///   else `24 * (b - 192)` (the game may end first);
/// - 2 bytes, the donor state (another reachable state, which kind-2 mutations copy from):
///   a seed tweak and its steps (as above);
/// - 1 byte, the number of mutations, modulo [`STATE_MUTATIONS`] + 1;
/// - 4 bytes per mutation: kind, offset (2 bytes, modulo the state size), value;
/// - the rest, the playout script, one byte per step: `0..=199` the byte-th legal action,
///   `200..=239` the raw id `byte - 200`, `240..=254` a random id with the top bit set (an
///   extended id), `255` `u32::MAX`; later steps follow a random legal policy, every
///   seventh step a random id.
///
/// Mutation kinds (`kind % 4`): 0 xor the byte with `value`, 1 add `+1` or `-1` (by
/// `value & 1`) to the byte, 2 copy `value % 16 + 1` bytes at the offset from the donor
/// (a field of another reachable state), 3 set the byte to `value`.
pub fn check_states<G: GameSpec>(data: &[u8]) -> Result<StateCheckReport, String> {
    let mut input = Bytes(data);
    let source = input.u8();
    let config_bytes = input.take(G::FUZZ_CONFIG_BYTES);
    let game = if source & 1 == 0 || G::INFO.configurations.is_empty() {
        G::fuzz_config(&config_bytes)
    } else {
        let configs = G::INFO.configurations;
        let text = configs[(source >> 1) as usize % configs.len()];
        let options = Options::parse(G::INFO.options, text).map_err(|e| e.to_string())?;
        G::configure(&options).map_err(|e| e.to_string())?
    };
    let seed = input.u64();
    let steps = reach_steps(input.u8());
    let donor_tweak = input.u8();
    let donor_steps = reach_steps(input.u8());
    let mutations = input.u8() as usize % (STATE_MUTATIONS + 1);
    let edits: Vec<(u8, u16, u8)> = (0..mutations)
        .map(|_| (input.u8(), input.u16(), input.u8()))
        .collect();
    let script = input.0;

    let run = || -> Result<StateCheckReport, String> {
        let original = reach(&game, seed, steps)?;
        let donor = reach(
            &game,
            seed ^ (donor_tweak as u64 + 1).rotate_left(17),
            donor_steps,
        )?;
        let mut report = StateCheckReport::default();
        let mut state = original;
        for &edit in &edits {
            mutate(&mut state, &donor, edit);
        }
        try_state(&game, state, seed, script, STATE_PLAYOUT_STEPS, &mut report)?;
        let mut trials = LaneRng::from_seed(seed ^ 0x7a1a_1500 ^ steps as u64);
        for t in 0..STATE_TRIALS {
            let mut state = original;
            for _ in 0..1 + trials.below(2) {
                let edit = (
                    trials.below(4) as u8,
                    trials.below(1 << 16) as u16,
                    trials.below(256) as u8,
                );
                mutate(&mut state, &donor, edit);
            }
            try_state(
                &game,
                state,
                seed ^ t as u64,
                &[],
                STATE_TRIAL_STEPS,
                &mut report,
            )
            .map_err(|e| format!("random trial {t}: {e}"))?;
        }
        Ok(report)
    };
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(run)) {
        Ok(result) => result,
        Err(payload) => Err(format!("panic: {}", panic_message(payload))),
    }
}

/// Steps to reach a state from one input byte: `0..16` (early: a hand of hold'em is
/// short), `0..96`, or up to 1512 in steps of 24 (long games).
fn reach_steps(b: u8) -> usize {
    match b {
        0..=95 => b as usize % 16,
        96..=191 => b as usize - 96,
        _ => 24 * (b as usize - 192),
    }
}

/// Applies one mutation `(kind, offset, value)` (see [`check_states`]) to `state`.
fn mutate<S: bytemuck::Pod>(state: &mut S, donor: &S, (kind, offset, value): (u8, u16, u8)) {
    let bytes = bytemuck::bytes_of_mut(state);
    let donor = bytemuck::bytes_of(donor);
    let size = bytes.len();
    let at = offset as usize % size;
    match kind % 4 {
        0 => bytes[at] ^= value,
        1 => {
            bytes[at] = if value & 1 == 0 {
                bytes[at].wrapping_add(1)
            } else {
                bytes[at].wrapping_sub(1)
            }
        }
        2 => {
            let end = (at + value as usize % 16 + 1).min(size);
            bytes[at..end].copy_from_slice(&donor[at..end]);
        }
        _ => bytes[at] = value,
    }
}

/// Checks the compact observation of `state` for `seat` against its f32 row `obs`: the row
/// survives the round trip through the game's [`ObsFormat`] bit for bit, and the game's
/// direct encoder ([`Game::observe_u8`], if it has one) writes what the format makes of
/// the row.
pub fn check_compact<G: Game>(
    game: &G,
    format: &ObsFormat,
    state: &G::State,
    seat: usize,
    obs: &[f32],
) -> Result<(), String> {
    if format.dim() != obs.len() {
        return Err(format!(
            "the compact format covers {} values, the observation has {}",
            format.dim(),
            obs.len()
        ));
    }
    format
        .check_row(obs)
        .map_err(|e| format!("compact (u8) format: {e}"))?;
    let (mut want_b, mut want_t) = (vec![0u8; format.byte_dim()], vec![0f32; format.tail_dim()]);
    format.compress(obs, &mut want_b, &mut want_t);
    let (mut b, mut t) = (
        vec![0u8; format.byte_dim()],
        vec![f32::NAN; format.tail_dim()],
    );
    if game.observe_u8(state, seat, &mut b, &mut t) {
        if let Some(k) = (0..b.len()).find(|&k| b[k] != want_b[k]) {
            return Err(format!(
                "observe_u8 byte {k} = {}, the f32 row gives {}",
                b[k], want_b[k]
            ));
        }
        if let Some(k) = (0..t.len()).find(|&k| t[k].to_bits() != want_t[k].to_bits()) {
            return Err(format!(
                "observe_u8 tail value {k} = {}, the f32 row gives {}",
                t[k], want_t[k]
            ));
        }
    }
    Ok(())
}

/// Checks one corrupted state and, if the game accepts it, plays it out.
fn try_state<G: GameSpec>(
    game: &G,
    state: G::State,
    seed: u64,
    script: &[u8],
    steps: usize,
    report: &mut StateCheckReport,
) -> Result<(), String> {
    report.tried += 1;
    if game.check_state(&state).is_err() {
        return Ok(());
    }
    report.accepted += 1;
    report.steps += play_accepted(game, state, seed, script, steps)
        .map_err(|e| format!("{e}\n  from the accepted corrupted state {state:?}"))?;
    Ok(())
}

/// The methods on an accepted state and the states it leads to (see [`check_states`]);
/// returns the number of steps applied.
fn play_accepted<G: GameSpec>(
    game: &G,
    mut state: G::State,
    seed: u64,
    script: &[u8],
    steps: usize,
) -> Result<usize, String> {
    let mut applied = 0;
    let n = game.num_players();
    let a = game.num_actions();
    let mut rng = LaneRng::from_seed(seed ^ 0x5eed_5eed);
    let mut mask = vec![0u8; a];
    let mut rewards = vec![0f32; n];
    let mut obs = vec![0f32; game.obs_dim()];
    let mut full = vec![0f32; game.obs_dim()];
    // Every seat's observation of the state before each step, for `observe_seats_update`.
    let d = game.obs_dim();
    let mut seat_rows = vec![0f32; n * d];
    let format = game.obs_format();
    for i in 0..steps {
        let at = |e: String| format!("playout step {i}: {e}");
        let (terminated, truncated) = game.finished(&state);
        let done = terminated || truncated;
        let player = game.current_player(&state);
        if !done && player >= n {
            return Err(at(format!("current player {player} of {n} seats")));
        }
        game.legal_mask(&state, &mut mask);
        if done && mask.iter().any(|&m| m != 0) {
            return Err(at("a finished game offers actions".into()));
        }
        if !done && mask.iter().all(|&m| m == 0) {
            return Err(at("a live game offers no action".into()));
        }
        for seat in 0..n {
            game.observe(&state, seat, &mut obs);
            if let Some(k) = obs.iter().position(|x| !x.is_finite()) {
                return Err(at(format!(
                    "observation of seat {seat}: entry {k} not finite"
                )));
            }
            check_compact(game, &format, &state, seat, &obs)
                .map_err(|e| at(format!("observation of seat {seat}: {e}")))?;
            seat_rows[seat * d..(seat + 1) * d].copy_from_slice(&obs);
        }
        // Every legal action is accepted and leads to a state the check accepts.
        for action in (0..a as u32).filter(|&x| mask[x as usize] != 0) {
            let mut next = state;
            let mut r = rng.clone();
            rewards.fill(0.0);
            if !game.step(&mut next, action, &mut r, &mut rewards).applied {
                return Err(at(format!("legal action {action} refused")));
            }
            game.check_state(&next)
                .map_err(|e| at(format!("after legal action {action}: {e}")))?;
        }
        let action = match script.get(i) {
            Some(&byte @ 0..=199) => nth_legal(&mask, byte as usize),
            Some(&byte @ 200..=239) => byte as u32 - 200,
            Some(&byte @ 240..=254) => {
                let bits = (2 * (byte as u32 - 240) + 1).min(31);
                0x8000_0000 | (rng.next_u64() as u32 & ((1u32 << bits) - 1))
            }
            Some(_) => u32::MAX,
            None if i % 7 == 3 => rng.next_u64() as u32 % (a as u32 + 3),
            None => random_legal(&mask, &mut rng),
        };
        let observer = i % n;
        game.observe(&state, observer, &mut obs);
        let before = state;
        rewards.fill(0.0);
        let outcome = game.step(&mut state, action, &mut rng, &mut rewards);
        let listed = (action as usize) < a && mask[action as usize] != 0;
        if listed && !outcome.applied {
            return Err(at(format!("legal action {action} refused")));
        }
        if !outcome.applied {
            if state != before {
                return Err(at(format!("refused action {action} changed the state")));
            }
            if outcome.done() || rewards.iter().any(|&r| r != 0.0) {
                return Err(at(format!("refused action {action} reported an outcome")));
            }
            if done {
                break;
            }
            continue;
        }
        applied += 1;
        if done {
            return Err(at(format!("action {action} applied to a finished game")));
        }
        if !listed && !game.is_extended_action(action) {
            return Err(at(format!("unlisted action {action} applied")));
        }
        if let Some(r) = rewards.iter().find(|r| !r.is_finite()) {
            return Err(at(format!("reward {r} not finite")));
        }
        game.check_state(&state)
            .map_err(|e| at(format!("after action {action}: {e}")))?;
        if outcome.done() != {
            let (t, u) = game.finished(&state);
            t || u
        } {
            return Err(at("the outcome disagrees with finished()".into()));
        }
        let seat = (i + 1) % n;
        if game.observe_update(&state, seat, &mut obs) {
            game.observe(&state, seat, &mut full);
            if obs != full {
                return Err(at(format!(
                    "observe_update for seat {seat} differs from observe"
                )));
            }
        }
        if game.observe_seats_update(&before, &state, &mut seat_rows) {
            for (seat, row) in seat_rows.chunks_exact(d.max(1)).enumerate() {
                game.observe(&state, seat, &mut full);
                if row != full {
                    return Err(at(format!(
                        "observe_seats_update: seat {seat}'s row differs from observe"
                    )));
                }
            }
        }
    }
    Ok(applied)
}

/// The `k`-th legal action of `mask`, counting modulo their number (`u32::MAX` if none).
fn nth_legal(mask: &[u8], k: usize) -> u32 {
    let count = mask.iter().filter(|&&m| m != 0).count();
    if count == 0 {
        return u32::MAX;
    }
    mask.iter()
        .enumerate()
        .filter(|&(_, &m)| m != 0)
        .nth(k % count)
        .map_or(u32::MAX, |(i, _)| i as u32)
}
