//! Leduc hold'em bots: `random`, `always-call`, `always-raise` (raises while it may, else
//! calls) and `raise-with-king` (raises with a king or a pair, folds other cards to a bet in
//! the second round, calls otherwise). Bots read only their own card, the public card once
//! shown and the betting.

use super::fast::LeducHoldemState;
use super::*;
use crate::core::{Bot, Error, LaneRng, RandomBot, Result};

/// Names of the Leduc hold'em bots.
pub const BOT_NAMES: &[&str] = &["random", "always-call", "always-raise", "raise-with-king"];

/// Resolves a bot name.
pub fn by_name(name: &str) -> Result<Box<dyn Bot<LeducHoldem>>> {
    match name {
        "random" => Ok(Box::new(RandomBot)),
        "always-call" => Ok(Box::new(AlwaysCall)),
        "always-raise" => Ok(Box::new(AlwaysRaise)),
        "raise-with-king" => Ok(Box::new(RaiseWithKing)),
        _ => Err(Error::Unknown {
            what: "leduc bot",
            name: name.to_string(),
            expected: BOT_NAMES.join(", "),
        }),
    }
}

/// Calls (or checks) every time.
#[derive(Clone, Copy, Debug, Default)]
pub struct AlwaysCall;

impl Bot<LeducHoldem> for AlwaysCall {
    fn name(&self) -> &str {
        "always-call"
    }
    fn act(&self, _: &LeducHoldem, _: &LeducHoldemState, _: &[u8], _: &mut LaneRng) -> u32 {
        CALL
    }
}

/// Raises while the round allows it, else calls.
#[derive(Clone, Copy, Debug, Default)]
pub struct AlwaysRaise;

impl Bot<LeducHoldem> for AlwaysRaise {
    fn name(&self) -> &str {
        "always-raise"
    }
    fn act(&self, _: &LeducHoldem, _: &LeducHoldemState, mask: &[u8], _: &mut LaneRng) -> u32 {
        if mask[RAISE as usize] != 0 {
            RAISE
        } else {
            CALL
        }
    }
}

/// Raises (while it may) with a king or a card paired with the public card; with anything
/// else folds to a bet in the second round and calls (or checks) otherwise.
#[derive(Clone, Copy, Debug, Default)]
pub struct RaiseWithKing;

impl Bot<LeducHoldem> for RaiseWithKing {
    fn name(&self) -> &str {
        "raise-with-king"
    }
    fn act(&self, _: &LeducHoldem, s: &LeducHoldemState, mask: &[u8], _: &mut LaneRng) -> u32 {
        let card = s.card(s.to_act as usize);
        let paired = s.public_card().is_some_and(|p| rank_of(p) == rank_of(card));
        if paired || rank_of(card) == KING {
            if mask[RAISE as usize] != 0 {
                RAISE
            } else {
                CALL
            }
        } else if s.round() == 1 && mask[FOLD as usize] != 0 {
            FOLD
        } else {
            CALL
        }
    }
}
