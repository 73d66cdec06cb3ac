//! Invariants of a Kuhn poker lane: [`check_state`] (what `Game::check_state` and
//! `VecEnv::set_state` require) and the game's part of the generic fuzz check.

use super::fast::{deal, KuhnPokerState};
use super::reference::Move;
use super::*;
use crate::core::{Game, LaneRng, SingleLane};
use crate::core::spec::{FuzzStep, GameChecks};

/// Checks that `s` is a state the engine reaches: its cards are two different cards of
/// `0..3`, its history holds `len <= 3` actions of `0..2` (the slots after them zero), and
/// replaying that history from the deal applies every action and gives exactly `s` (so
/// the seat to act, the end flag and every slot agree, and no action follows the end).
pub fn check_state(s: &KuhnPokerState) -> std::result::Result<(), String> {
    if s.cards.iter().any(|&c| c as usize >= DECK_SIZE) || s.cards[0] == s.cards[1] {
        return Err(format!("cards {:?} are not two different cards", s.cards));
    }
    let len = s.len as usize;
    if len > MAX_HISTORY {
        return Err(format!("history length {len} above {MAX_HISTORY}"));
    }
    let mut replay = deal(s.cards);
    let mut rng = LaneRng::from_seed(0);
    let mut rewards = [0f32; NUM_PLAYERS];
    for (i, &a) in s.history[..len].iter().enumerate() {
        if replay.is_over() || !KuhnPoker.step(&mut replay, a as u32, &mut rng, &mut rewards).applied {
            return Err(format!("history action {i} ({a}) cannot be played"));
        }
    }
    if replay != *s {
        return Err(format!("state {s:?} is not the replay of its history, {replay:?}"));
    }
    Ok(())
}

impl GameChecks for KuhnPoker {
    type Reference = reference::Reference;

    fn diff_pair(g: u64, deal: &mut LaneRng) -> (Self::Reference, SingleLane<Self>) {
        reference::diff_pair(g, deal)
    }

    /// Seat 0's card, then seat 1's (see [`crate::core::Game::reset_from_order`]).
    fn sample_order(&self, rng: &mut LaneRng) -> Option<Vec<u8>> {
        Some(fast::deal_cards(rng).to_vec())
    }

    const FUZZ_CONFIG_BYTES: usize = 0;

    /// The configuration of a fuzz input: Kuhn poker has no options, so it reads no byte.
    fn fuzz_config(_bytes: &[u8]) -> Self {
        KuhnPoker
    }

    fn fuzz_pair(&self, seed: u64) -> (Self::Reference, SingleLane<Self>) {
        let mut deal = LaneRng::from_seed(seed);
        reference::diff_pair(0, &mut deal)
    }

    /// The invariants the generic fuzz check adds for Kuhn poker: both engines hold the same
    /// cards and the same history.
    fn fuzz_invariants(step: &FuzzStep<'_, Self>) -> std::result::Result<(), String> {
        let (r, f) = (step.reference, step.fast);
        let s = &f.state;
        if r.card(0) != s.card(0) || r.card(1) != s.card(1) {
            return Err("cards differ".into());
        }
        let moves: Vec<u8> = r
            .moves()
            .iter()
            .map(|m| match m {
                Move::Pass => PASS as u8,
                Move::Bet => BET as u8,
            })
            .collect();
        if moves != s.history() {
            return Err(format!("histories differ: {moves:?} and {:?}", s.history()));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::fuzz::check;
    use crate::core::testing::refuse_edit;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]
        #[test]
        fn check_state_answers_arbitrary_bytes_without_panicking(
            data in proptest::collection::vec(any::<u8>(), 8)
        ) {
            let s: KuhnPokerState = bytemuck::pod_read_unaligned(&data);
            let _ = check_state(&s);
        }
    }

    /// Every history of every deal: the payoffs of OpenSpiel's kuhn_poker, and every state
    /// on the way accepted.
    #[test]
    fn every_history_pays_as_openspiel() {
        // (history, seat 0's result when seat 0 holds the higher card, when the lower)
        let table: [(&[u8], i32, i32); 5] = [
            (&[0, 0], 1, -1),
            (&[1, 0], 1, 1),
            (&[1, 1], 2, -2),
            (&[0, 1, 0], -1, -1),
            (&[0, 1, 1], 2, -2),
        ];
        for c0 in 0..3u8 {
            for c1 in (0..3u8).filter(|&c| c != c0) {
                for (history, high, low) in table {
                    let mut s = deal([c0, c1]);
                    let mut rng = LaneRng::from_seed(0);
                    let mut rewards = [0f32; 2];
                    for &a in history {
                        assert_eq!(check_state(&s), Ok(()));
                        assert!(!s.is_over());
                        rewards = [0.0; 2];
                        assert!(KuhnPoker.step(&mut s, a as u32, &mut rng, &mut rewards).applied);
                    }
                    assert!(s.is_over());
                    assert_eq!(check_state(&s), Ok(()));
                    let want = if c0 > c1 { high } else { low };
                    assert_eq!(rewards, [want as f32, -want as f32], "{c0} {c1} {history:?}");
                }
            }
        }
    }

    #[test]
    fn fuzz_check_plays_whole_games() {
        let mut data = vec![7u8; 8];
        data.extend(std::iter::repeat_n(1u8, 50));
        assert_eq!(check::<KuhnPoker>(&data), Ok(()));
    }

    #[test]
    fn corrupted_states_are_refused() {
        refuse_edit(KuhnPoker, "to_act = 1 at the deal", |s: &mut KuhnPokerState| {
            s.to_act = 1
        });
        refuse_edit(KuhnPoker, "the same card twice", |s: &mut KuhnPokerState| {
            s.cards[1] = s.cards[0]
        });
        refuse_edit(KuhnPoker, "a stale history slot", |s: &mut KuhnPokerState| {
            s.history[2] = 1
        });
        refuse_edit(KuhnPoker, "over at the deal", |s: &mut KuhnPokerState| s.end = 1);
    }
}
