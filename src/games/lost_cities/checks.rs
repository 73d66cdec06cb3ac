//! Invariants of a Lost Cities lane: [`check_state`] (what `Game::check_state` and
//! `VecEnv::set_state` require) and the game's part of the generic fuzz check.

use super::fast::{board_score, LostCitiesState};
use super::reference::ReferenceGame;
use super::*;
use crate::core::{CardSet64, SingleLane};

/// Checks what must hold in every reachable state: the 60 cards are each in exactly one
/// place (deck, a hand, a board, a discard pile), the piles match the discard set and hold
/// only their colour, public hand cards are in the hand, a live game has two full hands,
/// and the counters are in range.
pub fn check_state(s: &LostCitiesState) -> std::result::Result<(), String> {
    let deck: u64 = CardSet64::from_ids(s.deck[s.deck_pos as usize..].iter().copied()).0;
    let places = [
        s.hands[0],
        s.hands[1],
        s.boards[0],
        s.boards[1],
        s.discards,
        deck,
    ];
    let total: u32 = places.iter().map(|p| p.count_ones()).sum();
    let union = places.iter().fold(0, |a, p| a | p);
    if total != N_CARDS as u32 || union != (1u64 << N_CARDS) - 1 {
        return Err(format!(
            "cards not conserved: {total} placed, union {union:#x}"
        ));
    }
    let mut piled = 0u64;
    for c in 0..N_COLORS {
        let len = s.pile_len[c] as usize;
        if len > SLOTS_PER_COLOR {
            return Err(format!("pile {c} holds {len} cards"));
        }
        for &card in &s.piles[c][..len] {
            if color_of(card) as usize != c {
                return Err(format!("card {card} lies on pile {c}"));
            }
            piled |= 1u64 << card;
        }
    }
    if piled != s.discards {
        return Err("discard piles and discard set disagree".into());
    }
    for p in 0..2 {
        if s.public_hands[p] & !s.hands[p] != 0 {
            return Err(format!(
                "public hand of seat {p} holds cards not in the hand"
            ));
        }
        if s.hands[p].count_ones() != HAND_SIZE as u32 {
            return Err(format!("seat {p} holds {} cards", s.hands[p].count_ones()));
        }
    }
    if s.steps > MAX_STEPS || s.to_move > 1 || s.end > 2 || (s.deck_pos as usize) < 2 * HAND_SIZE {
        return Err(format!(
            "counters out of range: steps {} to_move {} end {} deck_pos {}",
            s.steps, s.to_move, s.end, s.deck_pos
        ));
    }
    let natural_end = s.deck_pos as usize == N_CARDS;
    let expected_end = if natural_end {
        1
    } else if s.steps >= MAX_STEPS {
        2
    } else {
        0
    };
    if s.end != expected_end {
        return Err(format!("end flag {} but expected {expected_end}", s.end));
    }
    Ok(())
}

/// The invariants the generic fuzz check ([`crate::core::fuzz`]) adds for Lost Cities: both
/// engines agree on the board scores.
pub fn fuzz_invariants(
    r: &ReferenceGame,
    f: &SingleLane<LostCities>,
) -> std::result::Result<(), String> {
    if r.board_score() != board_score(&f.state) {
        return Err("board scores differ".to_string());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::core::fuzz::check;
    use crate::games::lost_cities::LostCities;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]
        #[test]
        fn fuzz_check_passes_on_random_scripts(data in proptest::collection::vec(any::<u8>(), 0..600)) {
            prop_assert_eq!(check::<LostCities>(&data), Ok(()));
        }
    }

    #[test]
    fn fuzz_check_plays_whole_games() {
        // 8 seed bytes, then enough "first legal action" picks to finish any game.
        let mut data = vec![7u8; 8];
        data.extend(std::iter::repeat_n(0u8, 2000));
        assert_eq!(check::<LostCities>(&data), Ok(()));
    }
}
