//! Invariants of a Lost Cities lane: [`check_state`] (what `Game::check_state` and
//! `VecEnv::set_state` require) and the game's part of the generic fuzz check.

use super::fast::{board_score, LostCitiesState};
use super::*;
use crate::core::{CardSet64, SingleLane};
use crate::core::spec::{FuzzStep, GameChecks};
use crate::core::LaneRng;

/// Checks that `s` is a state the engine can reach, as far as its bytes tell, so that every
/// method is safe on it and every step keeps it valid:
///
/// - the deal order `deck` is a permutation of the 60 cards and `deck_pos` lies in
///   `16..=60`;
/// - each card is in exactly one place: the deck (`deck[deck_pos..]`), a hand, a board, a
///   discard pile;
/// - each discard pile holds at most 12 cards, all of its colour, and the piles together
///   hold exactly the discard set; the slots above a pile's height hold 0 or a card of its
///   colour (what an earlier discard left there);
/// - both hands hold 8 cards, each seat's public cards are in its hand, and no more cards
///   are public than were drawn from piles (`steps - (deck_pos - 16)`);
/// - `steps <= 400`, the seat to act is `steps % 2`, and the end flag agrees with the deck
///   and the step count (1 once the deck is empty, else 2 at 400 steps, else 0);
/// - the padding bytes are zero.
pub fn check_state(s: &LostCitiesState) -> std::result::Result<(), String> {
    let bytes = bytemuck::bytes_of(s);
    let pad_from = std::mem::offset_of!(LostCitiesState, end) + 1;
    if bytes[pad_from..].iter().any(|&b| b != 0) {
        return Err("padding bytes are not zero".into());
    }
    if s.to_act > 1 || s.end > 2 || s.steps > MAX_STEPS {
        return Err(format!(
            "counters out of range: to_act {} end {} steps {}",
            s.to_act, s.end, s.steps
        ));
    }
    let deck_pos = s.deck_pos as usize;
    if !(2 * HAND_SIZE..=DECK_SIZE).contains(&deck_pos) {
        return Err(format!("deck_pos {deck_pos} outside 16..=60"));
    }
    let mut dealt = 0u64;
    for &c in &s.deck {
        if c as usize >= DECK_SIZE || dealt >> c & 1 == 1 {
            return Err(format!(
                "deal order is not a permutation (card {c} out of range or repeated)"
            ));
        }
        dealt |= 1u64 << c;
    }
    let deck = CardSet64::from_ids(s.deck[deck_pos..].iter().copied()).0;
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
    if total != DECK_SIZE as u32 || union != (1u64 << DECK_SIZE) - 1 {
        return Err(format!(
            "cards not conserved: {total} placed, union {union:#x}"
        ));
    }
    let mut piled = 0u64;
    let mut heights = 0u32;
    for c in 0..N_COLORS {
        let len = s.pile_len[c] as usize;
        if len > SLOTS_PER_COLOR {
            return Err(format!("pile {c} holds {len} cards"));
        }
        for &card in &s.piles[c][..len] {
            if card as usize >= DECK_SIZE || color_of(card) as usize != c {
                return Err(format!("card {card} lies on pile {c}"));
            }
            piled |= 1u64 << card;
        }
        if let Some(&card) = s.piles[c][len..]
            .iter()
            .find(|&&card| card != 0 && color_of(card) as usize != c)
        {
            return Err(format!("stale slot of pile {c} holds card {card}"));
        }
        heights += len as u32;
    }
    if piled != s.discards || heights != s.discards.count_ones() {
        return Err("discard piles and discard set disagree".into());
    }
    let drawn_from_deck = (deck_pos - 2 * HAND_SIZE) as u32;
    if (s.steps as u32) < drawn_from_deck {
        return Err(format!(
            "{} steps but {drawn_from_deck} cards drawn from the deck",
            s.steps
        ));
    }
    let pile_draws = s.steps as u32 - drawn_from_deck;
    let mut public = 0;
    for p in 0..2 {
        if s.public_hands[p] & !s.hands[p] != 0 {
            return Err(format!(
                "public hand of seat {p} holds cards not in the hand"
            ));
        }
        if s.hands[p].count_ones() != HAND_SIZE as u32 {
            return Err(format!("seat {p} holds {} cards", s.hands[p].count_ones()));
        }
        public += s.public_hands[p].count_ones();
    }
    if public > pile_draws {
        return Err(format!(
            "{public} public hand cards but {pile_draws} draws from the piles"
        ));
    }
    if s.to_act as u16 != s.steps % 2 {
        return Err(format!("seat {} to act after {} steps", s.to_act, s.steps));
    }
    let natural_end = deck_pos == DECK_SIZE;
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

impl GameChecks for LostCities {
    type Reference = reference::Reference;

    fn diff_pair(g: u64, deal: &mut LaneRng) -> (Self::Reference, SingleLane<Self>) {
        reference::diff_pair(g, deal)
    }

    /// The 60 card ids shuffled (see [`crate::core::Game::reset_from_order`]).
    fn sample_order(&self, rng: &mut LaneRng) -> Option<Vec<u8>> {
        let mut order: Vec<u8> = (0..DECK_SIZE as u8).collect();
        rng.shuffle(&mut order);
        Some(order)
    }

    const FUZZ_CONFIG_BYTES: usize = 1;

    /// The configuration of a fuzz input (what [`crate::core::spec::GameChecks::fuzz_config`]
    /// reads): the game's one option, the observation layout, from the low bit of the first
    /// byte (0 card-major, 1 channel-major), so the fuzz check plays both layouts.
    fn fuzz_config(bytes: &[u8]) -> Self {
        let layout = if bytes.first().is_some_and(|b| b & 1 == 1) {
            ObsLayout::ChannelMajor
        } else {
            ObsLayout::CardMajor
        };
        LostCities::new(layout)
    }

    /// The pair of `reference::diff_pair` in this game's layout (its game 0 observes
    /// card-major, game 1 channel-major).
    fn fuzz_pair(&self, seed: u64) -> (Self::Reference, SingleLane<Self>) {
        let mut deal = LaneRng::from_seed(seed);
        let game = (self.layout() == ObsLayout::ChannelMajor) as u64;
        reference::diff_pair(game, &mut deal)
    }

    /// The invariants the generic fuzz check ([`crate::core::fuzz`]) adds for Lost Cities: both
    /// engines agree on the board scores.
    fn fuzz_invariants(step: &FuzzStep<'_, Self>) -> std::result::Result<(), String> {
        let (r, f) = (step.reference, step.fast);
        if r.board_score() != board_score(&f.state) {
            return Err("board scores differ".to_string());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::check_state;
    use crate::core::fuzz::check;
    use crate::core::testing::refuse_edit;
    use crate::core::{Game, LaneRng};
    use crate::games::lost_cities::{LostCities, LostCitiesState, MAX_STEPS, N_ACTIONS};
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]
        #[test]
        fn check_state_answers_arbitrary_bytes_without_panicking(
            data in proptest::collection::vec(any::<u8>(), 192)
        ) {
            let s: LostCitiesState = bytemuck::pod_read_unaligned(&data);
            let _ = check_state(&s);
        }
    }

    fn dealt() -> LostCitiesState {
        LostCities::default().reset(&mut LaneRng::from_seed(4))
    }

    #[test]
    fn every_state_of_games_cut_off_at_the_step_limit_is_accepted() {
        let mut truncated = 0;
        let mut mask = [0u8; N_ACTIONS];
        let mut rewards = [0f32; 2];
        for seed in 0..200 {
            let mut rng = LaneRng::from_seed(seed);
            let mut s = LostCities::default().reset(&mut rng);
            while !s.is_over() {
                assert_eq!(check_state(&s), Ok(()));
                LostCities::default().legal_mask(&s, &mut mask);
                // Mostly draws from a discard pile, so that the deck lasts past the limit.
                let from_piles: Vec<u32> = (0..N_ACTIONS as u32)
                    .filter(|&a| mask[a as usize] != 0 && a % 6 != 0)
                    .collect();
                let a = if !from_piles.is_empty() && rng.below(10) < 9 {
                    from_piles[rng.below(from_piles.len() as u32) as usize]
                } else {
                    crate::core::policy::random_legal(&mask, &mut rng)
                };
                assert!(LostCities::default().step(&mut s, a, &mut rng, &mut rewards).applied);
            }
            assert_eq!(check_state(&s), Ok(()));
            truncated += (s.end == 2) as usize;
        }
        assert!(truncated > 100, "only {truncated} games truncated");
    }

    #[test]
    fn a_fresh_deal_is_accepted() {
        assert_eq!(check_state(&dealt()), Ok(()));
    }

    #[test]
    fn a_public_card_before_any_pile_draw_is_rejected() {
        let mut s = dealt();
        s.public_hands[0] = 1 << s.hands[0].trailing_zeros();
        assert!(check_state(&s)
            .unwrap_err()
            .contains("draws from the piles"));
    }

    #[test]
    fn a_stale_pile_slot_of_another_colour_is_rejected() {
        let mut s = dealt();
        s.piles[1][5] = 3; // a card of colour 0 above the empty pile of colour 1
        assert!(check_state(&s).unwrap_err().contains("stale slot"));
        s.piles[1][5] = 12; // colour 1: what an earlier discard may leave
        assert_eq!(check_state(&s), Ok(()));
    }

    #[test]
    fn the_end_flag_must_follow_the_deck_and_steps() {
        let mut s = dealt();
        s.end = 1;
        assert!(check_state(&s).unwrap_err().contains("end flag"));
        s.end = 0;
        s.steps = 1;
        assert!(check_state(&s)
            .unwrap_err()
            .contains("to act after 1 steps"));
        s.steps = MAX_STEPS;
        assert!(check_state(&s).unwrap_err().contains("end flag"));
        s.end = 2;
        assert_eq!(check_state(&s), Ok(()));
    }

    #[test]
    fn fuzz_check_plays_whole_games() {
        // 8 seed bytes, then enough "first legal action" picks to finish any game.
        let mut data = vec![7u8; 8];
        data.extend(std::iter::repeat_n(0u8, 2000));
        assert_eq!(check::<LostCities>(&data), Ok(()));
    }

    #[test]
    fn lost_cities_seat_to_act_7_is_refused() {
        refuse_edit(LostCities::default(), "to_act = 7", |s: &mut LostCitiesState| {
            s.to_act = 7
        });
    }

    #[test]
    fn lost_cities_deck_position_200_is_refused() {
        refuse_edit(LostCities::default(), "deck_pos = 200", |s: &mut LostCitiesState| {
            s.deck_pos = 200
        });
    }

    #[test]
    fn lost_cities_padding_and_deal_order_are_checked() {
        let padding_at = std::mem::size_of::<LostCitiesState>() - 1;
        refuse_edit(LostCities::default(), "padding", |s: &mut LostCitiesState| {
            bytemuck::bytes_of_mut(s)[padding_at] = 1
        });
        refuse_edit(
            LostCities::default(),
            "deal order card 99",
            |s: &mut LostCitiesState| s.deck[0] = 99,
        );
        refuse_edit(LostCities::default(), "seat to act against the step parity", |s| {
            s.to_act ^= 1
        });
    }
}
