//! Invariants of a no-limit lane: [`check_state`] (what `Game::check_state` and
//! `VecEnv::set_state` require) and the game's part of the generic fuzz check (exact
//! raise-to amounts around the legal bounds, hidden-state agreement, chip conservation).

use super::fast::{NlheState, NO_SEAT};
use super::reference::{compare_hidden, ReferenceLane};
use super::{Chips, TableConfig};
use super::{NoLimitHoldem, EXACT_RAISE};
use crate::core::spec::FuzzStep;
use crate::core::{Game, LaneRng};

/// Checks a lane: chips conserved (stacks, bets and pots add up to the starting stacks; once
/// over, the stacks alone), folded seats out of the queue, the seat to act live with chips,
/// and a live hand offering check/call.
pub fn check_state(game: &NoLimitHoldem, s: &NlheState) -> Result<(), String> {
    let n = s.n as usize;
    let start: u64 = s.starting[..n].iter().map(|&x| x as u64).sum();
    let stacks: u64 = s.stacks[..n].iter().map(|&x| x as u64).sum();
    if s.is_over() {
        if stacks != start {
            return Err(format!(
                "chips not conserved at the end: {stacks} vs {start}"
            ));
        }
        if s.to_act != NO_SEAT || s.pending != 0 {
            return Err("a finished hand has a seat to act".into());
        }
        let net: i64 = s.net().iter().sum();
        if net != 0 {
            return Err(format!("results do not sum to zero: {net}"));
        }
        return Ok(());
    }
    let middle = s.pot_total();
    if stacks + middle != start {
        return Err(format!(
            "chips not conserved: {stacks} + {middle} vs {start}"
        ));
    }
    if s.pending & s.folded != 0 {
        return Err("a folded seat is still to act".into());
    }
    let seat = s.to_act as usize;
    if seat >= n || s.folded >> seat & 1 != 0 || s.stacks[seat] == 0 {
        return Err(format!("seat to act {seat} cannot act"));
    }
    let mut mask = vec![0u8; game.num_actions()];
    game.legal_mask(s, &mut mask);
    if mask[1] != 1 {
        return Err("check/call is not offered".into());
    }
    Ok(())
}

/// A configuration from three fuzz bytes: seats `2 + a % 9`, blinds, ante and stacks from
/// `b` and `c` (short stacks included).
pub fn config_from_bytes(a: u8, b: u8, c: u8) -> NoLimitHoldem {
    let seats = 2 + (a % 9) as usize;
    let bb: Chips = [2, 3, 10, 100][(b % 4) as usize];
    let ante: Chips = if b & 4 != 0 {
        1 + (b as Chips >> 3) % bb
    } else {
        0
    };
    let table = TableConfig::new((bb / 2).max(1), bb, ante).expect("valid blinds");
    let mut rng = LaneRng::from_seed(c as u64);
    let stacks: Vec<Chips> = (0..seats)
        .map(|_| {
            ante + bb
                + match rng.below(4) {
                    0 => 1 + rng.below(2 * bb as u32) as Chips,
                    1 => 1 + rng.below((10 * bb) as u32) as Chips,
                    _ => 1 + rng.below((150 * bb) as u32) as Chips,
                }
        })
        .collect();
    let fractions: &[f64] = if c & 1 == 0 {
        &[0.5, 1.0, 2.0]
    } else {
        &[0.25, 0.75]
    };
    NoLimitHoldem::new(seats, table, ante + bb + 1)
        .and_then(|g| g.with_stacks(&stacks))
        .and_then(|g| g.with_raise_fractions(fractions))
        .expect("valid fuzz configuration")
}

/// A raw action of the fuzz script ([`crate::core::fuzz`], `k` in `0..15`): an exact
/// raise-to near the legal bounds, `min_raise_to - 2 + k` for `k < 8`, else
/// `max_raise_to + 2 - (k - 8)`.
pub fn fuzz_raw_action(reference: &ReferenceLane, k: u8) -> u32 {
    let legal = reference.hand.legal();
    let (lo, hi) = legal.map_or((0, 0), |l| (l.min_raise_to, l.max_raise_to));
    let to = if k < 8 {
        lo as i64 - 2 + k as i64
    } else {
        hi as i64 + 2 - (k as i64 - 8)
    };
    EXACT_RAISE | (to.clamp(0, 0x7fff_ffff) as u32)
}

/// The invariants the generic fuzz check adds for hold'em: both engines hold the same
/// hidden and public state ([`compare_hidden`]), and once the hand is over every seat's
/// rewards add up to its result in big blinds and the results to zero.
pub fn fuzz_invariants(step: &FuzzStep<'_, NoLimitHoldem>) -> Result<(), String> {
    compare_hidden(step.reference, step.fast)?;
    let (game, state) = (&step.fast.game, &step.fast.state);
    if state.is_over() {
        let bb = game.table().big_blind as f32;
        let net = state.net();
        for (seat, &total) in step.reward_totals.iter().enumerate() {
            let expected = (net[seat] as f32 / bb) as f64;
            if total != expected {
                return Err(format!(
                    "seat {seat}: rewards {total} but result {expected} big blinds"
                ));
            }
        }
        if net.iter().sum::<i64>() != 0 {
            return Err("results do not sum to zero".into());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fuzz_check_accepts_short_and_random_inputs() {
        let check = crate::core::fuzz::check::<NoLimitHoldem>;
        check(&[]).unwrap();
        let mut rng = LaneRng::from_seed(17);
        for _ in 0..500 {
            let data: Vec<u8> = (0..200).map(|_| rng.below(256) as u8).collect();
            check(&data).unwrap();
        }
    }
}
