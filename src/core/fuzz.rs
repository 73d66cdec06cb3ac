//! The fuzz check every game shares: arbitrary bytes choose a configuration, a deal and an
//! action script, played on the reference and the fast engine in lockstep with every
//! comparison of the differential runner after every action, plus [`Game::check_state`], the
//! zero-sum law where the game has it, and the game's own invariants
//! ([`GameSpec::fuzz_invariants`]). The cargo-fuzz targets call [`check`] (through the
//! registry); `cargo test` runs the same function on random inputs.
//!
//! Input layout: the first [`GameSpec::FUZZ_CONFIG_BYTES`] bytes choose the configuration
//! ([`GameSpec::fuzz_config`]), the next 8 (little-endian) seed the deal, and each further
//! byte is one action:
//!
//! | byte | action |
//! | --- | --- |
//! | `0..=199` | the `byte`-th legal action, counting modulo the number of legal actions |
//! | `200..=239` | the raw id `byte - 200` (legal or not) |
//! | `240..=254` | the game's raw action `k = byte - 240` ([`GameSpec::fuzz_raw_action`]) |
//! | `255` | `u32::MAX` |
//!
//! Once the game is over, one more action checks that a finished game accepts nothing, and
//! the script stops.

use super::diff::{Lockstep, Scripted};
use super::game::SingleLane;
use super::spec::{FuzzStep, GameSpec};

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
    let n = game.num_players();
    let mut totals = vec![0f64; n];
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
        if game.zero_sum() {
            let sum: f64 = rewards.iter().map(|&r| r as f64).sum();
            let scale: f64 = rewards
                .iter()
                .map(|&r| (r as f64).abs())
                .sum::<f64>()
                .max(1.0);
            if sum.abs() > 1e-5 * scale {
                return Err(format!(
                    "script step {i}: rewards {rewards:?} do not sum to zero"
                ));
            }
        }
        pair.compare()
            .map_err(|e| format!("after script step {i}: {e}"))?;
        invariants(&pair, &previous, &totals).map_err(|e| format!("after script step {i}: {e}"))?;
        if was_done {
            break;
        }
    }
    Ok(())
}
