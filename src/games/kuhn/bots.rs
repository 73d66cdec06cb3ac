//! Kuhn poker bots: `random`, `always-pass`, `always-bet` and `king-only` (bets and calls
//! only with the king). Bots read only their own card and the betting history.

use super::fast::KuhnPokerState;
use super::*;
use crate::core::{Bot, Error, LaneRng, RandomBot, Result};

/// Names of the Kuhn poker bots.
pub const BOT_NAMES: &[&str] = &["random", "always-pass", "always-bet", "king-only"];

/// Resolves a bot name.
pub fn by_name(name: &str) -> Result<Box<dyn Bot<KuhnPoker>>> {
    match name {
        "random" => Ok(Box::new(RandomBot)),
        "always-pass" => Ok(Box::new(Always(PASS))),
        "always-bet" => Ok(Box::new(Always(BET))),
        "king-only" => Ok(Box::new(KingOnly)),
        _ => Err(Error::Unknown {
            what: "kuhn bot",
            name: name.to_string(),
            expected: BOT_NAMES.join(", "),
        }),
    }
}

/// Always the same action (both are legal at every decision).
#[derive(Clone, Copy, Debug)]
pub struct Always(pub u32);

impl Bot<KuhnPoker> for Always {
    fn name(&self) -> &str {
        if self.0 == BET {
            "always-bet"
        } else {
            "always-pass"
        }
    }
    fn act(&self, _: &KuhnPoker, _: &KuhnPokerState, _: &[u8], _: &mut LaneRng) -> u32 {
        self.0
    }
}

/// Bets or calls with the king, passes (checks or folds) with anything else.
#[derive(Clone, Copy, Debug, Default)]
pub struct KingOnly;

impl Bot<KuhnPoker> for KingOnly {
    fn name(&self) -> &str {
        "king-only"
    }
    fn act(&self, _: &KuhnPoker, s: &KuhnPokerState, _: &[u8], _: &mut LaneRng) -> u32 {
        if s.card(s.to_act as usize) == KING {
            BET
        } else {
            PASS
        }
    }
}
