//! Invariants of a Leduc hold'em lane: [`check_state`] (what `Game::check_state` and
//! `VecEnv::set_state` require) and the game's part of the generic fuzz check.

use super::fast::{deal, LeducHoldemState};
use super::*;
use crate::core::{Game, LaneRng, SingleLane};
use crate::core::spec::{FuzzStep, GameChecks};

/// Checks that `s` is a state the engine reaches: its three cards (two private, the
/// public one) are different cards of `0..6`, each round holds at most 4 actions, and
/// replaying the history (round 1's actions, then round 2's) from the deal applies every
/// action and gives exactly `s`: so the counters, chips, seat to act, end flag and every
/// history slot agree, and no action follows the end.
pub fn check_state(s: &LeducHoldemState) -> std::result::Result<(), String> {
    let cards = [s.cards[0], s.cards[1], s.public];
    if fast::check_order(&cards).is_err() {
        return Err(format!("cards {cards:?} are not three different cards"));
    }
    if s.len.iter().any(|&l| l as usize > MAX_ROUND_ACTIONS) {
        return Err(format!(
            "round lengths {:?} above {MAX_ROUND_ACTIONS}",
            s.len
        ));
    }
    let mut replay = deal(cards);
    let mut rng = LaneRng::from_seed(0);
    let mut rewards = [0f32; NUM_PLAYERS];
    for r in 0..N_ROUNDS {
        for (i, &a) in s.history[r][..s.len[r] as usize].iter().enumerate() {
            let applied = !replay.is_over()
                && LeducHoldem
                    .step(&mut replay, a as u32, &mut rng, &mut rewards)
                    .applied;
            if !applied {
                return Err(format!("round {r} action {i} ({a}) cannot be played"));
            }
        }
    }
    if replay != *s {
        return Err(format!(
            "state {s:?} is not the replay of its history, {replay:?}"
        ));
    }
    Ok(())
}

impl GameChecks for LeducHoldem {
    type Reference = reference::Reference;

    fn diff_pair(g: u64, deal: &mut LaneRng) -> (Self::Reference, SingleLane<Self>) {
        reference::diff_pair(g, deal)
    }

    /// Seat 0's card, seat 1's card, the public card (see
    /// [`crate::core::Game::reset_from_order`]).
    fn sample_order(&self, rng: &mut LaneRng) -> Option<Vec<u8>> {
        Some(fast::deal_cards(rng).to_vec())
    }

    const FUZZ_CONFIG_BYTES: usize = 0;

    /// The configuration of a fuzz input: Leduc hold'em has no options, so it reads no byte.
    fn fuzz_config(_bytes: &[u8]) -> Self {
        LeducHoldem
    }

    fn fuzz_pair(&self, seed: u64) -> (Self::Reference, SingleLane<Self>) {
        let mut deal = LaneRng::from_seed(seed);
        reference::diff_pair(0, &mut deal)
    }

    /// The invariants the generic fuzz check adds for Leduc hold'em: both engines hold the
    /// same cards, public card, stakes and moves.
    fn fuzz_invariants(step: &FuzzStep<'_, Self>) -> std::result::Result<(), String> {
        let (r, f) = (step.reference, step.fast);
        let s = &f.state;
        if r.private_card(0) != s.card(0) || r.private_card(1) != s.card(1) {
            return Err("private cards differ".into());
        }
        if r.public_card() != s.public_card() {
            return Err("public cards differ".into());
        }
        let stakes = [s.contributed(0) as i32, s.contributed(1) as i32];
        if r.stakes() != stakes {
            return Err(format!("stakes differ: {:?} and {stakes:?}", r.stakes()));
        }
        for round in 0..N_ROUNDS {
            let moves: Vec<u8> = r.moves(round + 1).iter().map(|m| m.action()).collect();
            if moves != s.round_history(round) {
                return Err(format!("round {round} moves differ"));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::fuzz::check;
    use crate::core::testing::refuse_edit;
    use crate::core::Playable;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]
        #[test]
        fn check_state_answers_arbitrary_bytes_without_panicking(
            data in proptest::collection::vec(any::<u8>(), 20)
        ) {
            let s: LeducHoldemState = bytemuck::pod_read_unaligned(&data);
            let _ = check_state(&s);
        }
    }

    /// Plays `actions` from the deal `order` on both engines; returns seat 0's result.
    fn play(order: [u8; 3], actions: &[u32]) -> f32 {
        let mut s = deal(order);
        let mut r = reference::Reference::from_order(&order).unwrap();
        let mut rng = LaneRng::from_seed(0);
        let mut rewards = [0f32; 2];
        for &a in actions {
            assert_eq!(check_state(&s), Ok(()));
            assert!(!s.is_over());
            rewards = [0.0; 2];
            let mut r_rewards = [0f32; 2];
            assert!(LeducHoldem.step(&mut s, a, &mut rng, &mut rewards).applied);
            assert!(r.step(a, &mut r_rewards).applied);
            assert_eq!(rewards, r_rewards);
        }
        assert!(s.is_over());
        assert_eq!(check_state(&s), Ok(()));
        assert_eq!(rewards[0], -rewards[1]);
        rewards[0]
    }

    #[test]
    fn payoffs_of_a_few_hands() {
        // Seat 0 holds a king (4), seat 1 a queen (2), the public card a jack (0).
        assert_eq!(play([4, 2, 0], &[1, 1, 1, 1]), 1.0);
        // Raise, call; raise, raise, call: 1 + 2 + 4 + 4 = 11 chips each.
        assert_eq!(play([4, 2, 0], &[2, 1, 2, 2, 1]), 11.0);
        assert_eq!(play([4, 2, 0], &[1, 2, 2, 1, 2, 2, 1]), 13.0);
        // A pair beats a king: seat 1 pairs the public queen.
        assert_eq!(play([4, 2, 3], &[1, 1, 1, 1]), -1.0);
        // Equal ranks split: both kings.
        assert_eq!(play([4, 5, 0], &[2, 1, 1, 1]), 0.0);
        // Folds: seat 1 folds to a raise; seat 0 folds to a raise in round 2.
        assert_eq!(play([0, 2, 4], &[2, 0]), 1.0);
        assert_eq!(play([0, 2, 4], &[1, 2, 1, 1, 2, 0]), -3.0);
    }

    #[test]
    fn fuzz_check_plays_whole_games() {
        let mut data = vec![7u8; 8];
        data.extend(std::iter::repeat_n(1u8, 50));
        assert_eq!(check::<LeducHoldem>(&data), Ok(()));
    }

    #[test]
    fn corrupted_states_are_refused() {
        refuse_edit(
            LeducHoldem,
            "to_act = 1 at the deal",
            |s: &mut LeducHoldemState| s.to_act = 1,
        );
        refuse_edit(LeducHoldem, "public card = a private card", |s| {
            s.public = s.cards[0]
        });
        refuse_edit(LeducHoldem, "a stale history slot", |s| s.history[1][3] = 2);
        refuse_edit(LeducHoldem, "chips not put in", |s| s.contributed[0] = 3);
    }
}
