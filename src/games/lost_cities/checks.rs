//! Invariants of a Lost Cities lane, and the fuzz check: the function the cargo-fuzz target
//! `lost_cities` calls, kept here so that `cargo test` runs the same checks.

use super::fast::{board_score, LostCitiesState};
use super::reference::ReferenceGame;
use super::*;
use crate::core::diff::{compare_script, Scripted};
use crate::core::{CardSet64, LaneRng, SingleLane};

/// Checks what must hold in every reachable state: the 60 cards are each in exactly one
/// place (deck, a hand, a board, a discard pile), the piles match the discard set and hold
/// only their colour, public hand cards are in the hand, a live game has two full hands,
/// and the counters are in range.
pub fn check_state(s: &LostCitiesState) -> Result<(), String> {
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

/// Decodes fuzz bytes: the first eight (zero-padded) seed the deal; then each byte below
/// `0xF0` picks the `byte`-th legal action, and a byte from `0xF0` takes the next four bytes
/// as a raw `u32` action (almost always illegal).
pub fn decode_fuzz(data: &[u8]) -> (u64, Vec<Scripted>) {
    let mut seed = [0u8; 8];
    let head = data.len().min(8);
    seed[..head].copy_from_slice(&data[..head]);
    let mut script = Vec::new();
    let mut rest = &data[head..];
    while let Some((&b, tail)) = rest.split_first() {
        rest = tail;
        if b < 0xF0 {
            script.push(Scripted::Legal(b as u32));
        } else {
            let mut raw = [0u8; 4];
            let n = rest.len().min(4);
            raw[..n].copy_from_slice(&rest[..n]);
            rest = &rest[n..];
            script.push(Scripted::Raw(u32::from_le_bytes(raw)));
        }
    }
    (u64::from_le_bytes(seed), script)
}

/// The fuzz check: plays the decoded script on the reference and the fast engine in
/// lockstep, comparing masks, outcomes, rewards and observations after every action, and
/// checking the state invariants and the zero-sum terminal reward.
pub fn fuzz_check(data: &[u8]) -> Result<(), String> {
    let (seed, script) = decode_fuzz(data);
    let mut order: [u8; N_CARDS] = std::array::from_fn(|i| i as u8);
    let mut rng = LaneRng::from_seed(seed);
    rng.shuffle(&mut order);
    let reference = ReferenceGame::from_order(&order).map_err(|e| e.to_string())?;
    let fast = SingleLane::from_order(LostCities, &order, rng).map_err(|e| e.to_string())?;
    let check = |r: &ReferenceGame, f: &SingleLane<LostCities>| {
        check_state(&f.state)?;
        if r.board_score() != board_score(&f.state) {
            return Err("board scores differ".to_string());
        }
        Ok(())
    };
    compare_script(reference, fast, script, check).map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]
        #[test]
        fn fuzz_check_passes_on_random_scripts(data in proptest::collection::vec(any::<u8>(), 0..600)) {
            prop_assert_eq!(fuzz_check(&data), Ok(()));
        }
    }

    #[test]
    fn fuzz_check_plays_whole_games() {
        // 8 seed bytes, then enough "first legal action" picks to finish any game.
        let mut data = vec![7u8; 8];
        data.extend(std::iter::repeat_n(0u8, 2000));
        assert_eq!(fuzz_check(&data), Ok(()));
    }

    #[test]
    fn decode_reads_raw_actions() {
        let (seed, script) = decode_fuzz(&[1, 0, 0, 0, 0, 0, 0, 0, 5, 0xF0, 1, 0, 0, 0]);
        assert_eq!(seed, 1);
        assert_eq!(script, vec![Scripted::Legal(5), Scripted::Raw(1)]);
    }
}
