//! Invariants of a 151 lane ([`check_state`]: what `Game::check_state` and
//! `VecEnv::set_state` require) and the game's part of the generic fuzz check.

use super::fast::{I151State, STATUS_PLAYING, STATUS_TERMINATED, STATUS_TRUNCATED};
use super::reference::Reference;
use super::*;
use crate::core::spec::FuzzStep;
use std::result::Result;

/// Checks one state: all 32 cards are in exactly one place (a hand, the bank, the played
/// pile, or dropped with an excluded seat's deal), the bookkeeping agrees, and a live
/// match has a seat to act with a non-empty legal mask. (Once the match is over, the
/// seats excluded by the last round keep their last hands, as in the official engine.)
pub fn check_state(game: &I151, s: &I151State) -> Result<(), String> {
    let n = game.num_players();
    if s.players as usize != n {
        return Err(format!("players {} vs {n}", s.players));
    }
    if s.bank_head > s.bank_tail || s.bank_tail as usize > N_CARDS {
        return Err(format!("bank bounds {}..{}", s.bank_head, s.bank_tail));
    }
    let mut seen = 0u32;
    let mut add = |set: u32, what: &str| -> Result<(), String> {
        if seen & set != 0 {
            return Err(format!(
                "{what} holds cards already elsewhere: {:#x}",
                seen & set
            ));
        }
        seen |= set;
        Ok(())
    };
    for (p, &hand) in s.hands.iter().enumerate() {
        if p >= n && hand != 0 {
            return Err(format!("seat {p} does not exist but holds cards"));
        }
        if p < n && s.is_excluded(p) && hand != 0 && s.status == STATUS_PLAYING {
            return Err(format!("excluded seat {p} holds cards in a live match"));
        }
        add(hand, "a hand")?;
    }
    let mut bank = 0u32;
    for &c in s.bank() {
        if c as usize >= N_CARDS || bank >> c & 1 != 0 {
            return Err(format!("bank card {c} invalid or repeated"));
        }
        bank |= 1 << c;
    }
    add(bank, "the bank")?;
    let mut pile = 0u32;
    for &c in s.played_pile() {
        if c as usize >= N_CARDS || pile >> c & 1 != 0 {
            return Err(format!("pile card {c} invalid or repeated"));
        }
        pile |= 1 << c;
    }
    if pile != s.pile_set {
        return Err("pile set differs from the pile".into());
    }
    add(pile, "the played pile")?;
    add(s.dead, "the dropped deal")?;
    if seen != u32::MAX {
        return Err(format!("cards missing: {:#x}", !seen));
    }
    if s.excluded >> n != 0 {
        return Err("a seat beyond the player count is excluded".into());
    }
    if let Some(&last) = s.played_pile().last() {
        if s.top != last {
            return Err(format!("top {} is not the last played card {last}", s.top));
        }
    }
    match s.status {
        STATUS_PLAYING => {
            if s.current as usize >= n || s.is_excluded(s.current as usize) {
                return Err(format!("seat {} to act is not an active seat", s.current));
            }
            if s.active_count() < 2 {
                return Err("a live match with fewer than two active seats".into());
            }
            if game.legal_bits(s) == 0 {
                return Err("no legal action for the seat to act".into());
            }
        }
        STATUS_TERMINATED => {
            if s.active_count() > 1 {
                return Err("a finished match with more than one active seat".into());
            }
            if game.legal_bits(s) != 0 {
                return Err("a finished match offers actions".into());
            }
        }
        STATUS_TRUNCATED => {}
        other => return Err(format!("unknown status {other}")),
    }
    Ok(())
}

/// Checks that scores only grow from `before` to `after`, except for one seat's −10 bonus
/// on its third consecutive round win.
pub fn check_scores(before: &I151State, after: &I151State) -> Result<(), String> {
    let mut bonuses = 0;
    for p in 0..before.players as usize {
        let delta = after.scores[p] as i32 - before.scores[p] as i32;
        if delta == -10 && after.last_winner as usize == p && after.consecutive[p] == 0 {
            bonuses += 1;
        } else if delta < 0 {
            return Err(format!(
                "seat {p} score went from {} to {}",
                before.scores[p], after.scores[p]
            ));
        }
    }
    if bonuses > 1 {
        return Err("two bonuses in one step".into());
    }
    Ok(())
}

/// The configuration a fuzz input's first byte selects: 2..=4 seats, optional deal size,
/// first dealer, and a small target sometimes so that exclusions and match ends come fast.
pub fn fuzz_config(byte: u8) -> I151 {
    let players = 2 + (byte % 3) as usize;
    let mut game = I151::new(players).expect("2..=4 seats");
    let max = N_CARDS / players;
    game = game
        .with_cards_per_player(1 + (byte as usize / 3) % max)
        .expect("in range");
    game = game
        .with_initial_dealer((byte as usize / 7) % players)
        .expect("in range");
    if byte & 0x80 != 0 {
        game = game.with_target_score(30).expect("in range");
    }
    game.with_max_round_steps(0)
}

/// The invariants the generic fuzz check ([`crate::core::fuzz`]) adds for 151: the score
/// bookkeeping of the step ([`check_scores`]) and agreement of both engines on cards and
/// scores ([`agree`]).
pub fn fuzz_invariants(step: &FuzzStep<'_, I151>) -> Result<(), String> {
    check_scores(step.previous, &step.fast.state)?;
    agree(step.reference, &step.fast.state)
}

/// Checks that the reference and the fast state hold the same cards in the same places
/// and the same scores.
pub fn agree(r: &Reference, s: &I151State) -> Result<(), String> {
    for (p, hand) in r.hands().iter().enumerate() {
        let set = hand.iter().fold(0u32, |a, &c| a | 1 << c);
        if set != s.hands[p] {
            return Err(format!("hand of seat {p} differs"));
        }
    }
    if r.bank() != s.bank() {
        return Err("bank differs".into());
    }
    if r.played_pile() != s.played_pile() {
        return Err("played pile differs".into());
    }
    let scores: Vec<i32> = (0..s.players as usize)
        .map(|p| s.scores[p] as i32)
        .collect();
    if r.scores() != scores {
        return Err(format!("scores {:?} vs {scores:?}", r.scores()));
    }
    Ok(())
}
