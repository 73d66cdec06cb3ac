//! Invariants of a no-limit lane and the fuzz check. [`check_state`] states what holds after
//! every step; [`fuzz_check`] plays an arbitrary byte script (discrete actions, exact
//! raise-to amounts around the legal bounds, illegal ids) on the reference and fast engines
//! in lockstep and checks the invariants, chip conservation and zero-sum rewards. The
//! cargo-fuzz target `fuzz/fuzz_targets/holdem.rs` and the proptests call it.

use super::fast::{NlheState, NO_SEAT};
use super::reference::{compare_hidden, ReferenceLane};
use super::{Chips, TableConfig};
use super::{NoLimitHoldem, EXACT_RAISE};
use crate::core::diff::{Lockstep, Scripted};
use crate::core::{Game, LaneRng, Playable, SingleLane};

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

/// Plays a fuzz input: bytes 0..3 choose the configuration ([`config_from_bytes`]), bytes
/// 3..11 the seed of the deal, and each further byte one action: below 200 the `byte`-th
/// legal action (modulo the legal count); 200..=219 the raw id `byte - 200`; 220..=239 an
/// exact raise-to `min_raise_to - 2 + (byte - 220)`; 240..=254 an exact raise-to
/// `max_raise_to + 2 - (byte - 240)`; 255 `u32::MAX`. Both engines run in lockstep; after
/// every step they must agree on everything shown and hidden and keep [`check_state`];
/// at the end every seat's rewards must add up to its result in big blinds, and the results
/// to zero.
pub fn fuzz_check(data: &[u8]) -> Result<(), String> {
    if data.len() < 11 {
        return Ok(());
    }
    let game = config_from_bytes(data[0], data[1], data[2]);
    let seed = u64::from_le_bytes(data[3..11].try_into().expect("8 bytes"));
    let rng = LaneRng::from_seed(seed);
    let reference = ReferenceLane::dealt(game, &mut rng.clone());
    let fast = SingleLane::new(game, rng);
    let mut pair = Lockstep::new(reference, fast)?;
    let n = game.seats();
    let mut totals = vec![0f64; n];
    let check = |pair: &Lockstep<ReferenceLane, SingleLane<NoLimitHoldem>>| {
        check_state(&game, &pair.b.state)?;
        compare_hidden(&pair.a, &pair.b)
    };
    pair.compare()?;
    check(&pair)?;
    for (i, &byte) in data[11..].iter().enumerate() {
        if pair.done() {
            break;
        }
        let legal = pair.a.hand.legal();
        let (lo, hi) = legal.map_or((0, 0), |l| (l.min_raise_to, l.max_raise_to));
        let exact = |to: i64| EXACT_RAISE | (to.clamp(0, 0x7fff_ffff) as u32);
        let scripted = match byte {
            0..=199 => Scripted::Legal(byte as u32),
            200..=219 => Scripted::Raw(byte as u32 - 200),
            220..=239 => Scripted::Raw(exact(lo as i64 - 2 + (byte as i64 - 220))),
            240..=254 => Scripted::Raw(exact(hi as i64 + 2 - (byte as i64 - 240))),
            255 => Scripted::Raw(u32::MAX),
        };
        let action = pair.resolve(scripted);
        let exact_raise = action & EXACT_RAISE != 0 && action != u32::MAX;
        let outcome = if exact_raise {
            // Outside the mask: the engines must agree with each other and with the bounds.
            let before = pair.b.state;
            let mut ra = vec![0f32; n];
            let mut rb = vec![0f32; n];
            let oa = pair.a.step(action, &mut ra);
            let ob = pair.b.step(action, &mut rb);
            let to = (action & !EXACT_RAISE) as Chips;
            let legal_to = legal.is_some_and(|l| l.raise && (lo..=hi).contains(&to));
            if oa != ob || ra != rb || oa.applied != legal_to {
                return Err(format!(
                    "step {i}: exact raise to {to}: {oa:?} vs {ob:?}, legal {legal_to}"
                ));
            }
            if !oa.applied && pair.b.state != before {
                return Err(format!("step {i}: a refused exact raise changed the state"));
            }
            for (t, &r) in totals.iter_mut().zip(&ra) {
                *t += r as f64;
            }
            oa
        } else {
            let out = pair.apply(action).map_err(|e| format!("step {i}: {e}"))?;
            for (t, &r) in totals.iter_mut().zip(pair.rewards()) {
                *t += r as f64;
            }
            out
        };
        let _ = outcome;
        pair.compare().map_err(|e| format!("after step {i}: {e}"))?;
        check(&pair).map_err(|e| format!("after step {i}: {e}"))?;
    }
    if pair.done() {
        let bb = game.table().big_blind as f64;
        let net = pair.b.state.net();
        for seat in 0..n {
            let expected = (net[seat] as f32 / bb as f32) as f64;
            if totals[seat] != expected {
                return Err(format!(
                    "seat {seat}: rewards {} but result {} big blinds",
                    totals[seat], expected
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
        fuzz_check(&[]).unwrap();
        let mut rng = LaneRng::from_seed(17);
        for _ in 0..500 {
            let data: Vec<u8> = (0..200).map(|_| rng.below(256) as u8).collect();
            fuzz_check(&data).unwrap();
        }
    }
}
