//! Bots for 151: the random legal bot and a greedy heuristic, and [`by_name`].
//!
//! Bots read only what their seat may know: they build the seat's [`PlayerView`].

use super::*;
use crate::core::policy::random_legal;
use crate::core::{Bot, Error, LaneRng, RandomBot, Result};

/// Sheds points: plays the playable card worth the most points, keeping eights (wild) for
/// last; announces the suit it holds most of; draws only when it cannot play.
#[derive(Clone, Copy, Debug, Default)]
pub struct Greedy;

impl Bot<I151> for Greedy {
    fn name(&self) -> &str {
        "greedy"
    }

    fn act(&self, game: &I151, state: &I151State, mask: &[u8], rng: &mut LaneRng) -> u32 {
        let view = game.view(state, state.current as usize);
        let legal = |a: u32| mask.get(a as usize).is_some_and(|&m| m != 0);
        if legal(ACTION_CHOOSE_SUIT) {
            let best = (0..4u8)
                .max_by_key(|&s| ((view.hand & suit_set(s)).count_ones(), std::cmp::Reverse(s)))
                .unwrap_or(0);
            return ACTION_CHOOSE_SUIT + best as u32;
        }
        let play = (0..N_CARDS as u32).filter(|&c| legal(c)).max_by_key(|&c| {
            let card = c as u8;
            (
                (rank_of(card) != EIGHT) as u32,
                card_points(card),
                std::cmp::Reverse(c),
            )
        });
        if let Some(card) = play {
            return card;
        }
        if legal(ACTION_PASS) {
            return ACTION_PASS;
        }
        if legal(ACTION_DRAW) {
            return ACTION_DRAW;
        }
        random_legal(mask, rng)
    }
}

/// The bot called `name`: `random` or `greedy`.
pub fn by_name(name: &str) -> Result<Box<dyn Bot<I151>>> {
    match name {
        "random" => Ok(Box::new(RandomBot)),
        "greedy" => Ok(Box::new(Greedy)),
        other => Err(Error::Unknown {
            what: "151 bot",
            name: other.to_string(),
            expected: "random, greedy".into(),
        }),
    }
}
