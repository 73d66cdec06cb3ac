//! Flip 7 bots: `random`, `threshold-K`, `expected-value` and `optimal-solo` (the exact
//! points-optimal policy of Flip 7 alone, [`super::solo_bot::OptimalSolo`], which plays any
//! table by its solo policy), sharing one rule for choosing the recipient of an action card.
//!
//! Bots read only public information: every card in front of every seat, the discard pile,
//! pending and deferred action cards, banked totals and the draw pile's size (never its
//! order).
//!
//! Recipients ([`choose_target`]):
//! - **Freeze**: oneself when one's round total has reached the bot's banking point (it banks
//!   the points); otherwise the active opponent with the highest banked total (ties: the one
//!   with the smallest round total, who loses the most future points), oneself if alone.
//! - **Flip Three**: the active opponent most likely to bust, the one with the most number
//!   cards (ties: the highest round total); oneself only if alone.
//! - **Second Chance**: the eligible opponent with the lowest banked total.

use super::fast::Flip7State;
use super::*;
use crate::core::{Bot, Error, LaneRng, RandomBot, Result};

/// Names of the Flip 7 bots (`threshold-K` takes any `K`, for example `threshold-27`).
pub const BOT_NAMES: &[&str] = &["random", "threshold-<K>", "expected-value", "optimal-solo"];

/// The largest round total a seat can score: the seven highest numbers (12 + 11 + ... + 6 =
/// 63) doubled by the ×2 card, the five modifiers (+2 ... +10 = 30) and the Flip 7 bonus
/// (15). A `threshold-K` above it would never stay, so `K` is refused there.
pub const MAX_ROUND_TOTAL: u32 = 2 * 63 + 30 + FLIP7_BONUS;

/// Resolves a bot name: `random`, `threshold-K` (`K` an integer in
/// `0..=`[`MAX_ROUND_TOTAL`]), `expected-value`, or `optimal-solo`
/// ([`super::solo_bot::OptimalSolo`]).
pub fn by_name(name: &str) -> Result<Box<dyn Bot<Flip7>>> {
    if let Some(k) = name.strip_prefix("threshold-") {
        if let Ok(k) = k.parse::<u64>() {
            if k > u64::from(MAX_ROUND_TOTAL) {
                return Err(Error::Invalid {
                    what: "flip7 bot",
                    reason: format!(
                        "{name:?}: K must be in 0..={MAX_ROUND_TOTAL} (the largest round \
                         total; a higher threshold would never stay), got {k}"
                    ),
                });
            }
            return Ok(Box::new(Threshold::new(k as u32)));
        }
    }
    match name {
        "random" => Ok(Box::new(RandomBot)),
        "expected-value" => Ok(Box::new(ExpectedValue)),
        "optimal-solo" => Ok(Box::new(super::solo_bot::OptimalSolo::shared()?)),
        _ => Err(Error::Unknown {
            what: "flip7 bot",
            name: name.to_string(),
            expected: BOT_NAMES.join(", "),
        }),
    }
}

/// The recipient of the pending action card, by the rules in the module documentation.
/// `bank_at` is the round total at which the bot would rather freeze itself.
pub fn choose_target(game: &Flip7, s: &Flip7State, mask: &[u8], bank_at: u32) -> u32 {
    let me = s.to_act as usize;
    let targets: Vec<usize> = (0..game.num_players())
        .filter(|&t| mask[TARGET_OFFSET as usize + t] != 0)
        .collect();
    let others: Vec<usize> = targets.iter().copied().filter(|&t| t != me).collect();
    let pick = |t: usize| TARGET_OFFSET + t as u32;
    let Some(&first) = targets.first() else {
        return u32::MAX;
    };
    if others.is_empty() {
        return pick(first);
    }
    let total = |p: usize| game.round_score(s, p);
    match s.pending {
        FREEZE => {
            if targets.contains(&me) && total(me) >= bank_at {
                return pick(me);
            }
            let best = others
                .iter()
                .copied()
                .max_by_key(|&t| (s.scores[t], std::cmp::Reverse(total(t))));
            pick(best.unwrap_or(first))
        }
        FLIP_THREE => {
            let best = others
                .iter()
                .copied()
                .max_by_key(|&t| (s.numbers[t], total(t)));
            pick(best.unwrap_or(first))
        }
        _ => {
            let best = others.iter().copied().min_by_key(|&t| s.scores[t]);
            pick(best.unwrap_or(first))
        }
    }
}

/// Stays once the round total reaches `k` (`threshold-K`); published strategy studies found
/// `K` around 27 the strongest fixed threshold.
#[derive(Clone, Debug)]
pub struct Threshold {
    k: u32,
    name: String,
}

impl Threshold {
    /// The bot that stays at a round total of `k` or more.
    pub fn new(k: u32) -> Self {
        Threshold {
            k,
            name: format!("threshold-{k}"),
        }
    }
}

impl Bot<Flip7> for Threshold {
    fn name(&self) -> &str {
        &self.name
    }
    fn act(&self, game: &Flip7, s: &Flip7State, mask: &[u8], _rng: &mut LaneRng) -> u32 {
        if s.pending != NO_CARD {
            return choose_target(game, s, mask, self.k);
        }
        let p = s.to_act as usize;
        if mask[STAY as usize] != 0 && game.round_score(s, p) >= self.k {
            STAY
        } else {
            HIT
        }
    }
}

/// Hits when the expected round total after one more card, over the publicly known
/// composition of the draw pile, beats the current total.
#[derive(Clone, Copy, Debug, Default)]
pub struct ExpectedValue;

/// The composition of the next card's source as public information gives it: the deck
/// minus every card in sight, or the discard pile when the draw pile is empty (it is
/// reshuffled for the next draw).
pub fn next_draw_counts(s: &Flip7State) -> [u32; CARD_IDS] {
    if s.deck_len == 0 {
        return s.discard.map(|c| c as u32);
    }
    let mut left = CARD_COPIES.map(|c| c as u32);
    for c in 0..CARD_IDS {
        let seen = s.discard[c] as u32 + s.hands.iter().map(|h| h[c] as u32).sum::<u32>();
        left[c] -= seen;
    }
    let pending = s.deferred[..s.deferred_len as usize]
        .iter()
        .copied()
        .chain((s.pending != NO_CARD).then_some(s.pending))
        .chain((0..s.task_len as usize).filter_map(|i| {
            let (kind, _, card) = s.task_at(i);
            (kind == TASK_RESOLVE).then_some(card)
        }));
    for c in pending {
        left[c as usize] -= 1;
    }
    left
}

impl ExpectedValue {
    /// The expected round total of the seat to act after one more card, and its current
    /// round total.
    pub fn expected_after_hit(&self, game: &Flip7, s: &Flip7State) -> (f64, f64) {
        let p = s.to_act as usize;
        let hand = &s.hands[p];
        let current = game.round_score(s, p) as f64;
        let numbers: u32 = (0..=MAX_NUMBER as usize)
            .map(|c| c as u32 * hand[c] as u32)
            .sum();
        let mods: u32 = (PLUS_2..=PLUS_10)
            .map(|c| plus_value(c) * hand[c as usize] as u32)
            .sum();
        let doubled = hand[TIMES_2 as usize] > 0;
        let has_second_chance = hand[SECOND_CHANCE as usize] > 0;
        let score = |numbers: u32, doubled: bool, mods: u32, flip7: bool| {
            (numbers * if doubled { 2 } else { 1 } + mods + if flip7 { FLIP7_BONUS } else { 0 })
                as f64
        };
        let counts = next_draw_counts(s);
        let total: u32 = counts.iter().sum();
        if total == 0 {
            return (current, current);
        }
        let mut expected = 0.0;
        for (c, &k) in counts.iter().enumerate() {
            if k == 0 {
                continue;
            }
            let card = c as u8;
            let value = if is_number(card) {
                if hand[c] > 0 {
                    if has_second_chance {
                        current
                    } else {
                        0.0
                    }
                } else {
                    let flip7 = s.numbers[p] + 1 == FLIP7_CARDS;
                    score(numbers + c as u32, doubled, mods, flip7)
                }
            } else if card == TIMES_2 {
                score(numbers, true, mods, false)
            } else if is_modifier(card) {
                score(numbers, doubled, mods + plus_value(card), false)
            } else {
                current
            };
            expected += k as f64 * value;
        }
        (expected / total as f64, current)
    }
}

impl Bot<Flip7> for ExpectedValue {
    fn name(&self) -> &str {
        "expected-value"
    }
    fn act(&self, game: &Flip7, s: &Flip7State, mask: &[u8], _rng: &mut LaneRng) -> u32 {
        if s.pending != NO_CARD {
            return choose_target(game, s, mask, 25);
        }
        if mask[STAY as usize] == 0 {
            return HIT;
        }
        let (after, now) = self.expected_after_hit(game, s);
        if after > now {
            HIT
        } else {
            STAY
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Game;

    fn play(game: &Flip7, bots: &[&dyn Bot<Flip7>], seed: u64) {
        let mut rng = LaneRng::from_seed(seed);
        let mut s = game.reset(&mut rng);
        let mut mask = vec![0u8; game.num_actions()];
        let mut rewards = vec![0f32; game.num_players()];
        while !s.is_over() {
            game.legal_mask(&s, &mut mask);
            let bot = bots[s.to_act as usize % bots.len()];
            let a = bot.act(game, &s, &mask, &mut rng);
            assert_eq!(
                mask[a as usize],
                1,
                "{} chose an illegal action",
                bot.name()
            );
            assert!(game.step(&mut s, a, &mut rng, &mut rewards).applied);
        }
    }

    #[test]
    fn bots_play_only_legal_actions() {
        let threshold = Threshold::new(27);
        let bots: [&dyn Bot<Flip7>; 3] = [&RandomBot, &threshold, &ExpectedValue];
        for players in [3, 5, 18] {
            for seed in 0..20 {
                play(&Flip7::with_players(players).unwrap(), &bots, seed);
            }
        }
    }

    #[test]
    fn names_resolve() {
        assert_eq!(by_name("threshold-27").unwrap().name(), "threshold-27");
        assert_eq!(by_name("expected-value").unwrap().name(), "expected-value");
        assert!(by_name("threshold-x").is_err());
        assert_eq!(by_name("optimal-solo").unwrap().name(), "optimal-solo");
        assert_eq!(MAX_ROUND_TOTAL, 171);
        assert!(by_name("threshold-171").is_ok());
        for bad in ["threshold-172", "threshold-999", "threshold-99999999999"] {
            let err = by_name(bad).err().expect("refused").to_string();
            assert!(err.contains("171") && err.contains(bad), "{err}");
        }
    }

    #[test]
    fn next_draw_counts_match_the_hidden_pile() {
        let game = Flip7::with_players(6).unwrap();
        let mut rng = LaneRng::from_seed(4);
        let mut s = game.reset(&mut rng);
        let mut mask = vec![0u8; game.num_actions()];
        let mut rewards = vec![0f32; 6];
        for _ in 0..2000 {
            if s.is_over() {
                s = game.reset(&mut rng);
            }
            let mut pile = [0u32; CARD_IDS];
            for &c in s.draw_pile() {
                pile[c as usize] += 1;
            }
            if s.deck_len > 0 {
                assert_eq!(next_draw_counts(&s), pile);
            }
            game.legal_mask(&s, &mut mask);
            let a = rng.pick_set(&mask).unwrap() as u32;
            game.step(&mut s, a, &mut rng, &mut rewards);
        }
    }
}
