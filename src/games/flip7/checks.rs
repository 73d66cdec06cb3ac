//! Invariants of a Flip 7 lane and the fuzz check. [`check_state`] states what must hold
//! after every step (every card accounted for, counters consistent, a decision available to
//! the seat to act); [`fuzz_check`] plays an arbitrary byte script on the reference and the
//! fast engine in lockstep and checks the invariants and the reward totals at every step.
//! The cargo-fuzz target `fuzz/fuzz_targets/flip7.rs` and the proptests call it.

use super::fast::{Flip7State, NONE, TASK_CAPACITY};
use super::reference::compare_hidden;
use super::*;
use crate::core::spec::FuzzStep;
use crate::core::Game;

/// The most events the scheduler can hold (18 deals, 1 turn, 3 forced draws, 1 end of a
/// Flip Three, 6 deferred actions).
pub const MAX_TASKS: usize = 29;

/// Every card of a lane by id: draw pile, discard pile, hands, deferred actions, scheduled
/// deferred actions and the pending card.
pub fn card_census(s: &Flip7State) -> [u32; CARD_IDS] {
    let mut counts = [0u32; CARD_IDS];
    for &c in s.draw_pile() {
        counts[c as usize] += 1;
    }
    for c in 0..CARD_IDS {
        counts[c] += s.discard[c] as u32;
        counts[c] += s.hands.iter().map(|h| h[c] as u32).sum::<u32>();
    }
    for &c in &s.deferred[..s.deferred_len as usize] {
        counts[c as usize] += 1;
    }
    for i in 0..s.task_len as usize {
        let (kind, _, card) = s.task_at(i);
        if kind == TASK_RESOLVE {
            counts[card as usize] += 1;
        }
    }
    if s.pending != NONE {
        counts[s.pending as usize] += 1;
    }
    counts
}

/// Checks the invariants of a lane: all 94 cards accounted for, the cached counters
/// agree with the card counts, the scheduler fits, and a live game offers the seat to act
/// at least one legal action.
pub fn check_state(game: &Flip7, s: &Flip7State) -> Result<(), String> {
    let n = game.num_players();
    let census = card_census(s);
    if census.iter().zip(CARD_COPIES).any(|(&a, b)| a != b as u32) {
        return Err(format!("cards not conserved: {census:?}"));
    }
    if s.discard_len as u32 != s.discard.iter().map(|&c| c as u32).sum::<u32>() {
        return Err("discard_len disagrees with the discard counts".into());
    }
    for p in 0..MAX_PLAYERS {
        let hand = &s.hands[p];
        let held: u32 = hand.iter().map(|&c| c as u32).sum();
        let numbers: u32 = hand[..=MAX_NUMBER as usize].iter().map(|&c| c as u32).sum();
        if held != s.held[p] as u32 || numbers != s.numbers[p] as u32 {
            return Err(format!("seat {p}: cached card counts are stale"));
        }
        if p >= n && (held != 0 || s.scores[p] != 0) {
            return Err(format!("seat {p} does not exist but holds cards or points"));
        }
        if p < n && s.status[p] != BUSTED && hand[..=MAX_NUMBER as usize].iter().any(|&c| c > 1) {
            return Err(format!("seat {p} holds a duplicate number without busting"));
        }
        if hand[SECOND_CHANCE as usize] > 1 {
            return Err(format!("seat {p} holds two Second Chances"));
        }
    }
    let active = (0..n)
        .filter(|&p| s.status[p] == ACTIVE)
        .fold(0u32, |bits, p| bits | 1 << p);
    if active != s.active || s.status[..n].iter().any(|&st| st > FROZEN) {
        return Err("status counts are inconsistent".into());
    }
    if s.task_len as usize > MAX_TASKS || TASK_CAPACITY < MAX_TASKS {
        return Err(format!("scheduler holds {} events", s.task_len));
    }
    if s.end == 0 {
        let mut mask = vec![0u8; game.num_actions()];
        game.legal_mask(s, &mut mask);
        if mask.iter().all(|&m| m == 0) {
            return Err("no legal action for the seat to act".into());
        }
        if s.to_act as usize >= n {
            return Err("seat to act out of range".into());
        }
    }
    Ok(())
}

/// A configuration from two fuzz bytes: players `3 + a % 16`; `b` picks the target (200,
/// 60 or 1) and the round limit (none or `1 + b / 8 % 4`).
pub fn config_from_bytes(a: u8, b: u8) -> Flip7 {
    let target = [200, 60, 1, 200][(b % 4) as usize];
    let max_rounds = (b & 4 != 0).then_some(1 + (b / 8 % 4) as u32);
    Flip7::new(3 + (a % 16) as usize, target, max_rounds).expect("valid fuzz configuration")
}

/// The invariants the generic fuzz check ([`crate::core::fuzz`]) adds for Flip 7: both
/// engines agree on everything hidden (draw pile, hands, scores), and every seat's rewards
/// so far sum to its banked total.
pub fn fuzz_invariants(step: &FuzzStep<'_, Flip7>) -> Result<(), String> {
    compare_hidden(step.reference, step.fast)?;
    let scores = &step.fast.state.scores;
    for (p, &t) in step.reward_totals.iter().enumerate() {
        if t != scores[p] as f64 {
            return Err(format!(
                "seat {p}: rewards sum to {t} but it banked {}",
                scores[p]
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fresh_games_keep_the_invariants() {
        for players in 3..=18 {
            let game = Flip7::with_players(players).unwrap();
            let s = game.reset(&mut LaneRng::from_seed(players as u64));
            check_state(&game, &s).unwrap();
        }
    }

    #[test]
    fn fuzz_check_accepts_short_and_random_inputs() {
        let check = crate::core::fuzz::check::<Flip7>;
        check(&[]).unwrap();
        let mut rng = LaneRng::from_seed(11);
        for _ in 0..200 {
            let data: Vec<u8> = (0..400).map(|_| rng.below(256) as u8).collect();
            check(&data).unwrap();
        }
    }
}
