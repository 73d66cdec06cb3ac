//! Lost Cities bots: `random`, `discard-only` and `safe-heuristic`.
//!
//! Bots read only what their seat may know: their own hand, both boards, the discard piles,
//! the opponent's public hand cards and the deck size (never the deck order or the
//! opponent's unseen cards).
//!
//! `safe-heuristic` in short:
//! - **Open an expedition** only when the hand holds enough of the colour: the playable
//!   numbers of the colour still to come (in hand) must sum to at least 20 + a margin that
//!   grows with each handshake, and enough deck must remain to play them out.
//! - **Play low before high**: on an open expedition play the lowest playable card of the
//!   colour, preferring the one that skips the fewest still-available numbers; a handshake
//!   only before any number and only when the colour is strong.
//! - **Discard** the card that helps the opponent least (a colour the opponent has not
//!   opened, or a number below their top) and is least useful to us; never discard a card we
//!   could still play profitably when something else can go.
//! - **Draw** a discard top when it extends one of our open expeditions (above our top) or is
//!   a strong card for a colour we are building; otherwise draw from the deck.

use super::fast::LostCitiesState;
use super::*;
use crate::core::policy::random_legal;
use crate::core::{Bot, Error, LaneRng, RandomBot, Result};

/// Names of the Lost Cities bots.
pub const BOT_NAMES: &[&str] = &["random", "discard-only", "safe-heuristic"];

/// Resolves a bot name.
pub fn by_name(name: &str) -> Result<Box<dyn Bot<LostCities>>> {
    match name {
        "random" => Ok(Box::new(RandomBot)),
        "discard-only" => Ok(Box::new(DiscardOnly)),
        "safe-heuristic" => Ok(Box::new(SafeHeuristic::default())),
        _ => Err(Error::Unknown {
            what: "lost-cities bot",
            name: name.to_string(),
            expected: BOT_NAMES.join(", "),
        }),
    }
}

/// Discards a uniformly random card to a uniformly random legal draw; never plays.
#[derive(Clone, Copy, Debug, Default)]
pub struct DiscardOnly;

impl Bot<LostCities> for DiscardOnly {
    fn name(&self) -> &str {
        "discard-only"
    }
    fn act(&self, _: &LostCities, _: &LostCitiesState, mask: &[u8], rng: &mut LaneRng) -> u32 {
        let mut discards = [0u8; N_ACTIONS];
        for (i, d) in discards.iter_mut().enumerate() {
            *d = mask[i] & decode_action(i as u32).1 as u8;
        }
        random_legal(&discards, rng)
    }
}

/// The careful heuristic described in the module documentation.
#[derive(Clone, Copy, Debug)]
pub struct SafeHeuristic {
    /// Extra sum of numbers (above the 20 an expedition costs) needed to open a colour,
    /// per handshake that would multiply it.
    pub open_margin: i32,
}

impl Default for SafeHeuristic {
    fn default() -> Self {
        SafeHeuristic { open_margin: 4 }
    }
}

/// The handshake slots of a column.
const HANDSHAKES: u64 = 0b111;
/// The number slots of a column.
const NUMBERS: u64 = 0xFF8;

/// What the acting seat knows, precomputed once per decision. The heuristic works on
/// columns (12 bits a colour, bit `s` for slot `s`) without allocating: it runs once per
/// ply of every search rollout, where it is most of the cost.
struct View {
    hand: u64,
    mine: u64,
    theirs: u64,
    /// Cards no longer available to anyone's expedition: on a board or below a pile top.
    gone: u64,
    deck_left: i32,
    pile_tops: [Option<u8>; N_COLORS],
}

impl View {
    fn new(s: &LostCitiesState) -> View {
        let p = s.to_act as usize;
        let mut buried = s.discards;
        let pile_tops = std::array::from_fn(|c| s.pile_top(c));
        for top in pile_tops.iter().flatten() {
            buried &= !(1u64 << top);
        }
        View {
            hand: s.hands[p],
            mine: s.boards[p],
            theirs: s.boards[p ^ 1],
            gone: s.boards[0] | s.boards[1] | buried,
            deck_left: s.deck_len() as i32,
            pile_tops,
        }
    }

    /// Slot of the highest card on `board`'s column (`None` if empty).
    fn top_slot(board: u64, color: usize) -> Option<u8> {
        let col = fast::column(board, color);
        (col != 0).then(|| 63 - col.leading_zeros() as u8)
    }

    /// The slots a card may still take on a column `col`: a number above its top card, a
    /// handshake while it holds no number ([`fast::playable_on`] for every slot at once).
    fn open_slots(col: u64) -> u64 {
        let above = NUMBERS & (!0u64 << (64 - col.leading_zeros()));
        above | if col >> 3 == 0 { HANDSHAKES } else { 0 }
    }

    fn can_play(&self, card: u8) -> bool {
        fast::playable_on(fast::column(self.mine, color_of(card) as usize), slot_of(card))
    }

    /// The slots of the hand cards of `color` that could still go on our column.
    fn playable_in_color(&self, color: usize) -> u64 {
        let col = fast::column(self.mine, color);
        fast::column(self.hand, color) & Self::open_slots(col)
    }

    /// Projected value of building `color` from our column plus the playable hand cards.
    fn projected(&self, color: usize, extra: Option<u8>) -> i32 {
        let col = fast::column(self.mine, color) | self.playable_in_color(color);
        fast::column_score(col | extra.map_or(0, |c| 1 << slot_of(c)))
    }

    /// Whether the opponent could still use `card` on their expedition.
    fn useful_to_opponent(&self, card: u8) -> bool {
        let color = color_of(card) as usize;
        let col = fast::column(self.theirs, color);
        if col == 0 {
            return !is_handshake(card) && rank_of(card) >= 6;
        }
        fast::playable_on(col, slot_of(card))
    }
}

/// The lowest slot of a column's bits, if any.
fn lowest_slot(bits: u64) -> Option<u8> {
    (bits != 0).then(|| bits.trailing_zeros() as u8)
}

impl SafeHeuristic {
    /// Value of playing `card` now (higher is better; negative: do not play).
    fn play_value(&self, v: &View, card: u8) -> i32 {
        if !v.can_play(card) {
            return i32::MIN;
        }
        let color = color_of(card) as usize;
        let slot = slot_of(card);
        let col = fast::column(v.mine, color);
        let hand_playable = v.playable_in_color(color);
        if col == 0 {
            // Opening: the colour must be strong enough and there must be time to play it.
            let handshakes_in_hand = (hand_playable & HANDSHAKES).count_ones() as i32;
            let numbers = hand_playable & NUMBERS;
            let sum = fast::rank_sum(numbers);
            let count = numbers.count_ones() as i32;
            let turns_left = v.deck_left / 2;
            if count > turns_left + 1 {
                return i32::MIN;
            }
            let need = 20 + self.open_margin * (1 + handshakes_in_hand);
            if sum < need || count < 3 {
                return i32::MIN;
            }
            if Some(slot) != lowest_slot(hand_playable) {
                return i32::MIN;
            }
            return 10 + sum - need;
        }
        if is_handshake(card) {
            return i32::MIN;
        }
        // On an open expedition: play the lowest playable number first; penalise skipping
        // numbers that are still available.
        if Some(slot) != lowest_slot(hand_playable & NUMBERS) {
            return i32::MIN;
        }
        let top = View::top_slot(v.mine, color).unwrap_or(2).max(2);
        let between = ((1u64 << slot) - 1) & !((2u64 << top) - 1);
        let skipped = (between & !fast::column(v.gone, color)).count_ones() as i32;
        let cards_after = hand_playable.count_ones() as i32 - 1;
        // Keep the gap small unless the game is ending.
        if skipped > 2 && v.deck_left > 2 * (cards_after + 1) {
            return i32::MIN;
        }
        30 - 4 * skipped
    }

    /// Cost of discarding `card` (lower is better).
    fn discard_cost(&self, v: &View, card: u8) -> i32 {
        let color = color_of(card) as usize;
        let mut cost = 0;
        if v.useful_to_opponent(card) {
            cost += 20 + rank_of(card) as i32;
        }
        if v.can_play(card) {
            let open = fast::column(v.mine, color) != 0;
            let strength = v.projected(color, None);
            if open {
                cost += 25;
            } else if strength > -10 {
                cost += 10 + strength.max(0) / 2;
            }
            if is_handshake(card) && !open {
                cost += 2;
            }
        }
        cost
    }

    /// Value of taking the top of pile `color` after placing `placed` (lower than 0: do not).
    fn draw_value(&self, v: &View, color: usize, placed: u8, placed_on_pile: bool) -> i32 {
        let top = if placed_on_pile && color == color_of(placed) as usize {
            return i32::MIN;
        } else {
            match v.pile_tops[color] {
                Some(t) => t,
                None => return i32::MIN,
            }
        };
        let col = fast::column(v.mine, color)
            | if !placed_on_pile && color_of(placed) as usize == color {
                1 << slot_of(placed)
            } else {
                0
            };
        if !fast::playable_on(col, slot_of(top)) {
            return i32::MIN;
        }
        if col != 0 && !is_handshake(top) {
            return 10 + rank_of(top) as i32;
        }
        if col == 0 && v.projected(color, Some(top)) > 0 && v.deck_left > 10 {
            return 5;
        }
        i32::MIN
    }
}

impl Bot<LostCities> for SafeHeuristic {
    fn name(&self) -> &str {
        "safe-heuristic"
    }

    fn act(&self, _: &LostCities, s: &LostCitiesState, mask: &[u8], _: &mut LaneRng) -> u32 {
        let action = self.choose(s);
        if mask.get(action as usize) == Some(&1) {
            action
        } else {
            // A safety net no test has seen used: the first legal action.
            mask.iter().position(|&m| m != 0).unwrap_or(0) as u32
        }
    }

    /// Deterministic: it never draws from its stream.
    fn draws(&self) -> bool {
        false
    }
}

impl SafeHeuristic {
    /// The heuristic's action for the player to act in a live game (before the safety net
    /// in `act`, which falls back to the first legal action and which tests show is never
    /// needed).
    pub fn choose(&self, s: &LostCitiesState) -> u32 {
        let v = View::new(s);
        let hand = || crate::core::CardSet64(v.hand).iter().enumerate();
        // Placement: the best play if any is worth it, else the cheapest discard (the first
        // in hand order on a tie, a higher number first at equal cost).
        let mut best: Option<(i32, usize, u8)> = None;
        for (slot, card) in hand() {
            let value = self.play_value(&v, card);
            if value != i32::MIN && best.is_none_or(|b| value > b.0) {
                best = Some((value, slot, card));
            }
        }
        let (slot, card, discard) = match best {
            Some((_, slot, card)) => (slot, card, false),
            None => {
                let (slot, card) = hand()
                    .min_by_key(|&(_, c)| (self.discard_cost(&v, c), std::cmp::Reverse(rank_of(c))))
                    .expect("hand is never empty in a live game");
                (slot, card, true)
            }
        };
        let mut source = 0;
        let mut best_draw = 0;
        for color in 0..N_COLORS {
            let value = self.draw_value(&v, color, card, discard);
            if value != i32::MIN && value > best_draw {
                best_draw = value;
                source = color as u32 + 1;
            }
        }
        action_id(slot as u32, discard, source)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Game, RandomBot};

    /// Plays `games` games of `a` against random and checks that the heuristic's own choice
    /// is legal in every position it meets.
    #[test]
    fn safe_heuristic_never_needs_its_fallback() {
        let game = LostCities::default();
        let bot = SafeHeuristic::default();
        let mut mask = [0u8; N_ACTIONS];
        let mut rewards = [0f32; 2];
        for g in 0..300 {
            let mut rng = LaneRng::for_lane(11, g, 0);
            let mut s = game.reset(&mut rng);
            while !s.is_over() {
                game.legal_mask(&s, &mut mask);
                let action = if s.to_act as u64 == g % 2 {
                    let a = bot.choose(&s);
                    assert_eq!(mask[a as usize], 1, "illegal heuristic choice {a} in {s:?}");
                    a
                } else {
                    Bot::<LostCities>::act(&RandomBot, &game, &s, &mask, &mut rng)
                };
                assert!(game.step(&mut s, action, &mut rng, &mut rewards).applied);
            }
        }
    }

    /// `safe-heuristic` as first written (over lists of cards, allocating), kept as the
    /// specification the column version above is compared with.
    mod as_written {
        use super::super::*;

        /// The heuristic with the default margin (4).
        pub struct AsWritten;

        /// What the acting seat knows, precomputed once per decision.
        struct View {
            hand: u64,
            mine: u64,
            theirs: u64,
            /// Cards no longer available to anyone's expedition: on a board or below a pile top.
            gone: u64,
            deck_left: i32,
            pile_tops: [Option<u8>; N_COLORS],
        }

        impl View {
            fn new(s: &LostCitiesState) -> View {
                let p = s.to_act as usize;
                let mut buried = s.discards;
                let pile_tops = std::array::from_fn(|c| s.pile_top(c));
                for top in pile_tops.iter().flatten() {
                    buried &= !(1u64 << top);
                }
                View {
                    hand: s.hands[p],
                    mine: s.boards[p],
                    theirs: s.boards[p ^ 1],
                    gone: s.boards[0] | s.boards[1] | buried,
                    deck_left: s.deck_len() as i32,
                    pile_tops,
                }
            }

            fn column(board: u64, color: usize) -> u64 {
                board >> (color * SLOTS_PER_COLOR) & 0xFFF
            }

            /// Slot of the highest card on `board`'s column (`None` if empty).
            fn top_slot(board: u64, color: usize) -> Option<u8> {
                let col = Self::column(board, color);
                (col != 0).then(|| 63 - col.leading_zeros() as u8)
            }

            fn can_play(&self, card: u8) -> bool {
                let col = Self::column(self.mine, color_of(card) as usize);
                let from = if is_handshake(card) { 3 } else { slot_of(card) };
                col >> from == 0
            }

            /// Hand cards of `color` that could still go on our column, in slot order.
            fn playable_in_color(&self, color: usize) -> impl Iterator<Item = u8> + '_ {
                let base = (color * SLOTS_PER_COLOR) as u8;
                (base..base + SLOTS_PER_COLOR as u8)
                    .filter(move |&c| self.hand >> c & 1 == 1 && self.can_play(c))
            }

            /// Projected value of building `color` from our column plus the playable hand cards.
            fn projected(&self, color: usize, extra: Option<u8>) -> i32 {
                let mut col = Self::column(self.mine, color);
                for c in self.playable_in_color(color).chain(extra) {
                    col |= 1 << slot_of(c);
                }
                fast::column_score(col)
            }

            /// Whether the opponent could still use `card` on their expedition.
            fn useful_to_opponent(&self, card: u8) -> bool {
                let color = color_of(card) as usize;
                let col = Self::column(self.theirs, color);
                if col == 0 {
                    return !is_handshake(card) && rank_of(card) >= 6;
                }
                let from = if is_handshake(card) { 3 } else { slot_of(card) };
                col >> from == 0
            }
        }

        impl AsWritten {
            /// Value of playing `card` now (higher is better; negative: do not play).
            fn play_value(&self, v: &View, card: u8) -> i32 {
                if !v.can_play(card) {
                    return i32::MIN;
                }
                let color = color_of(card) as usize;
                let col = View::column(v.mine, color);
                let hand_playable: Vec<u8> = v.playable_in_color(color).collect();
                let lowest = hand_playable.first().copied();
                if col == 0 {
                    // Opening: the colour must be strong enough and there must be time to play it.
                    let handshakes_in_hand = hand_playable.iter().filter(|&&c| is_handshake(c)).count();
                    let numbers: Vec<u8> = hand_playable
                        .iter()
                        .copied()
                        .filter(|&c| !is_handshake(c))
                        .collect();
                    let sum: i32 = numbers.iter().map(|&c| rank_of(c) as i32).sum();
                    let turns_left = v.deck_left / 2;
                    if numbers.len() as i32 > turns_left + 1 {
                        return i32::MIN;
                    }
                    let need = 20 + 4 * (1 + handshakes_in_hand as i32);
                    if sum < need || numbers.len() < 3 {
                        return i32::MIN;
                    }
                    if Some(card) != lowest {
                        return i32::MIN;
                    }
                    return 10 + sum - need;
                }
                if is_handshake(card) {
                    return i32::MIN;
                }
                // On an open expedition: play the lowest playable number first; penalise skipping
                // numbers that are still available.
                let lowest_number = hand_playable.iter().copied().find(|&c| !is_handshake(c));
                if Some(card) != lowest_number {
                    return i32::MIN;
                }
                let top = View::top_slot(v.mine, color).unwrap_or(2).max(2);
                let skipped = ((top + 1)..slot_of(card))
                    .filter(|&s| v.gone >> (color * SLOTS_PER_COLOR + s as usize) & 1 == 0)
                    .count() as i32;
                let cards_after = hand_playable.len() as i32 - 1;
                // Keep the gap small unless the game is ending.
                if skipped > 2 && v.deck_left > 2 * (cards_after + 1) {
                    return i32::MIN;
                }
                30 - 4 * skipped
            }

            /// Cost of discarding `card` (lower is better).
            fn discard_cost(&self, v: &View, card: u8) -> i32 {
                let color = color_of(card) as usize;
                let mut cost = 0;
                if v.useful_to_opponent(card) {
                    cost += 20 + rank_of(card) as i32;
                }
                if v.can_play(card) {
                    let open = View::column(v.mine, color) != 0;
                    let strength = v.projected(color, None);
                    if open {
                        cost += 25;
                    } else if strength > -10 {
                        cost += 10 + strength.max(0) / 2;
                    }
                    if is_handshake(card) && !open {
                        cost += 2;
                    }
                }
                cost
            }

            /// Value of taking the top of pile `color` after placing `placed` (lower than 0: do not).
            fn draw_value(&self, v: &View, color: usize, placed: u8, placed_on_pile: bool) -> i32 {
                let top = if placed_on_pile && color == color_of(placed) as usize {
                    return i32::MIN;
                } else {
                    match v.pile_tops[color] {
                        Some(t) => t,
                        None => return i32::MIN,
                    }
                };
                let col = View::column(v.mine, color)
                    | if !placed_on_pile && color_of(placed) as usize == color {
                        1 << slot_of(placed)
                    } else {
                        0
                    };
                let from = if is_handshake(top) { 3 } else { slot_of(top) };
                if col >> from != 0 {
                    return i32::MIN;
                }
                if col != 0 && !is_handshake(top) {
                    return 10 + rank_of(top) as i32;
                }
                if col == 0 && v.projected(color, Some(top)) > 0 && v.deck_left > 10 {
                    return 5;
                }
                i32::MIN
            }
        }

        impl AsWritten {
            /// The heuristic's action for the player to act in a live game (before the safety net
            /// in `act`, which falls back to a random legal action and which tests show is never
            /// needed).
            pub fn choose(&self, s: &LostCitiesState) -> u32 {
                let v = View::new(s);
                let hand: Vec<u8> = crate::core::CardSet64(v.hand).iter().collect();
                // Placement: the best play if any is worth it, else the cheapest discard.
                let mut best: Option<(i32, usize, bool)> = None;
                for (slot, &card) in hand.iter().enumerate() {
                    let value = self.play_value(&v, card);
                    if value != i32::MIN && best.is_none_or(|b| value > b.0) {
                        best = Some((value, slot, false));
                    }
                }
                let (slot, discard) = match best {
                    Some((_, slot, d)) => (slot, d),
                    None => {
                        let (slot, _) = hand
                            .iter()
                            .enumerate()
                            .map(|(i, &c)| (i, self.discard_cost(&v, c)))
                            .min_by_key(|&(i, cost)| (cost, std::cmp::Reverse(rank_of(hand[i]))))
                            .expect("hand is never empty in a live game");
                        (slot, true)
                    }
                };
                let card = hand[slot];
                let mut source = 0;
                let mut best_draw = 0;
                for color in 0..N_COLORS {
                    let value = self.draw_value(&v, color, card, discard);
                    if value != i32::MIN && value > best_draw {
                        best_draw = value;
                        source = color as u32 + 1;
                    }
                }
                action_id(slot as u32, discard, source)
            }
        }
    }

    /// The heuristic's open slots of a column are the slots the game lets a card take, for
    /// every column and slot.
    #[test]
    fn open_slots_are_the_games_playable_slots() {
        for col in 0..1u64 << SLOTS_PER_COLOR {
            for slot in 0..SLOTS_PER_COLOR as u8 {
                assert_eq!(
                    View::open_slots(col) >> slot & 1 == 1,
                    fast::playable_on(col, slot),
                    "column {col:#x}, slot {slot}"
                );
            }
        }
    }

    /// The column version chooses what the heuristic as first written chooses, in every
    /// position of games where it plays against itself and against random moves (about
    /// 300,000 positions).
    #[test]
    fn safe_heuristic_chooses_as_first_written() {
        let game = LostCities::default();
        let bot = SafeHeuristic::default();
        let mut mask = [0u8; N_ACTIONS];
        let mut rewards = [0f32; 2];
        let mut positions = 0;
        for g in 0..6_000u64 {
            let mut rng = LaneRng::for_lane(23, g, 0);
            let mut s = game.reset(&mut rng);
            while !s.is_over() {
                let a = bot.choose(&s);
                assert_eq!(a, as_written::AsWritten.choose(&s), "in {s:?}");
                positions += 1;
                game.legal_mask(&s, &mut mask);
                let action = if g % 3 == 0 && s.to_act == 1 {
                    Bot::<LostCities>::act(&RandomBot, &game, &s, &mask, &mut rng)
                } else {
                    a
                };
                assert!(game.step(&mut s, action, &mut rng, &mut rewards).applied);
            }
        }
        assert!(positions > 250_000, "{positions}");
    }
}
