//! The `optimal-solo` bot: Flip 7 alone played by the exact points-optimal policy of
//! [`super::solo_table::FreshSolver`], read from a table file.
//!
//! **Status:** not yet registered in [`super::bots::BOT_NAMES`]: the table file is produced
//! by the command below, which was not run to completion on the shared machine, and the
//! registered bots must build without it in every test. Registering it is one line in
//! `bots::by_name` once `data/flip7_solo_policy.zst` is committed.
//!
//! The table ([`SoloPolicy`]) holds the decisions the points-optimal policy reaches in a
//! round dealt from a fresh 94-card deck, with the action it takes at each (hit or stay),
//! keyed by the dense [`DecisionIndex`]; it is written by
//! `cargo run --profile ci --example flip7_solo -- policy data/flip7_solo_policy.zst`
//! (one full solve, then the policy played forward) and read once per process, lazily, by
//! the first `optimal-solo` bot ([`SoloPolicy::shared`]).
//!
//! At a Hit/Stay decision the bot computes the position's key from public information: the
//! cards in front of it and the draw pile's composition (every card not in sight). When the
//! pile is what a fresh deck minus this round's draws would be (a fresh-deck round, the
//! first round of a game), that is the exact key. When the pile was carried over from
//! earlier rounds (the engine's rule), it keys the position as if the round had been dealt
//! from a fresh deck with no card discarded yet (the table's policy for the same cards in
//! front); a position the table does not hold (rare; other seats' cards in a multi-seat
//! game make most positions such) is played by the `expected-value` rule. Action-card
//! recipients follow [`super::bots::choose_target`] (alone, the only recipient is oneself).

use std::sync::{Arc, OnceLock};

use super::bots::{choose_target, next_draw_counts, ExpectedValue};
use super::fast::Flip7State;
use super::solo_table::{DecisionIndex, PolicyWalk};
use super::*;
use crate::core::{Bot, Error, LaneRng, Result};

/// The policy file's first bytes (before the zstd frame).
const MAGIC: &[u8; 8] = b"F7SOLO1\n";

/// Where [`SoloPolicy::shared`] reads the table (relative to the crate's directory), unless
/// `CARDVEC_FLIP7_SOLO_POLICY` names another file.
pub const DEFAULT_POLICY_FILE: &str = "data/flip7_solo_policy.zst";

/// The points-optimal solo policy at the decisions it reaches from a fresh deck.
#[derive(Clone, Debug)]
pub struct SoloPolicy {
    index: DecisionIndex,
    /// Sorted decision indices; bit 31 set where the policy hits.
    entries: Vec<u32>,
}

impl SoloPolicy {
    /// The table of a policy walk ([`super::solo_table::FreshSolver::walk_policy`] on the full
    /// deck).
    pub fn from_walk(walk: &PolicyWalk) -> Self {
        let entries = walk
            .decisions
            .iter()
            .map(|&(i, hit)| i | u32::from(hit) << 31)
            .collect();
        SoloPolicy {
            index: DecisionIndex::new(&CARD_COPIES),
            entries,
        }
    }

    /// Number of decisions held.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the table holds no decision.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The file's bytes: the magic `F7SOLO1\n`, then one zstd frame of the entries as
    /// little-endian `u32` deltas (bit 31 the action).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut raw = Vec::with_capacity(4 * self.entries.len());
        let mut last = 0u32;
        for &e in &self.entries {
            let i = e & !(1 << 31);
            raw.extend_from_slice(&((i - last) | (e & 1 << 31)).to_le_bytes());
            last = i;
        }
        let mut out = MAGIC.to_vec();
        out.extend(zstd::bulk::compress(&raw, 19).expect("zstd compresses"));
        out
    }

    /// Reads [`SoloPolicy::to_bytes`]'s format. Errors on another format or a corrupt file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        let bad = |reason: String| Error::Invalid {
            what: "optimal-solo policy file",
            reason,
        };
        let body = bytes
            .strip_prefix(MAGIC.as_slice())
            .ok_or_else(|| bad("not an optimal-solo policy file".into()))?;
        let raw = zstd::stream::decode_all(body).map_err(|e| bad(format!("zstd: {e}")))?;
        if raw.len() % 4 != 0 {
            return Err(bad("truncated".into()));
        }
        let index = DecisionIndex::new(&CARD_COPIES);
        let mut entries = Vec::with_capacity(raw.len() / 4);
        let mut last = 0u32;
        for (k, w) in raw.chunks_exact(4).enumerate() {
            let w = u32::from_le_bytes([w[0], w[1], w[2], w[3]]);
            let i = last
                .checked_add(w & !(1 << 31))
                .filter(|&i| (i as usize) < index.len() && (k == 0 || i > last))
                .ok_or_else(|| bad("decision indices out of order or range".into()))?;
            entries.push(i | (w & 1 << 31));
            last = i;
        }
        Ok(SoloPolicy { index, entries })
    }

    /// The process-wide table, read once from `CARDVEC_FLIP7_SOLO_POLICY` or
    /// [`DEFAULT_POLICY_FILE`]; an error (kept) says how to produce the file.
    pub fn shared() -> Result<Arc<SoloPolicy>> {
        static SHARED: OnceLock<std::result::Result<Arc<SoloPolicy>, String>> = OnceLock::new();
        SHARED
            .get_or_init(|| {
                let path = std::env::var("CARDVEC_FLIP7_SOLO_POLICY").unwrap_or_else(|_| {
                    format!("{}/{DEFAULT_POLICY_FILE}", env!("CARGO_MANIFEST_DIR"))
                });
                let bytes = std::fs::read(&path).map_err(|e| {
                    format!(
                        "{path}: {e} (write it with `cargo run --profile ci --example \
                         flip7_solo -- policy {DEFAULT_POLICY_FILE}`)"
                    )
                })?;
                SoloPolicy::from_bytes(&bytes)
                    .map(Arc::new)
                    .map_err(|e| format!("{path}: {e}"))
            })
            .clone()
            .map_err(|reason| Error::Invalid {
                what: "optimal-solo",
                reason,
            })
    }

    /// The policy at the decision with draw pile `pile` and cards `table` in front, in a
    /// round dealt from a fresh full deck: `Some(true)` hit, `Some(false)` stay, `None` if
    /// the table does not hold it.
    pub fn hits(&self, pile: &[u8; CARD_IDS], table: &[u8; CARD_IDS]) -> Option<bool> {
        let i = self.index.index(&CARD_COPIES, pile, table)? as u32;
        let k = self
            .entries
            .binary_search_by_key(&i, |&e| e & !(1 << 31))
            .ok()?;
        Some(self.entries[k] >> 31 == 1)
    }

    /// The policy at the seat to act of an engine state (module documentation): the exact
    /// key, else the fresh-deck key of the same cards in front; `None` if neither is held.
    pub fn hits_state(&self, s: &Flip7State) -> Option<bool> {
        let me = s.to_act as usize;
        let table = s.hands[me];
        let counts = next_draw_counts(s);
        let pile = counts.map(|k| k.min(u8::MAX as u32) as u8);
        if let Some(h) = self.hits(&pile, &table) {
            return Some(h);
        }
        let mut fresh = CARD_COPIES;
        for (f, &t) in fresh.iter_mut().zip(&table) {
            *f = f.checked_sub(t)?;
        }
        self.hits(&fresh, &table)
    }
}

/// The `optimal-solo` bot (module documentation).
#[derive(Clone, Debug)]
pub struct OptimalSolo {
    policy: Arc<SoloPolicy>,
}

impl OptimalSolo {
    /// The bot on the shared table ([`SoloPolicy::shared`]); errors if the file is missing.
    pub fn shared() -> Result<Self> {
        Ok(OptimalSolo {
            policy: SoloPolicy::shared()?,
        })
    }

    /// The bot on a given table.
    pub fn new(policy: Arc<SoloPolicy>) -> Self {
        OptimalSolo { policy }
    }
}

impl Bot<Flip7> for OptimalSolo {
    fn name(&self) -> &str {
        "optimal-solo"
    }

    fn act(&self, game: &Flip7, s: &Flip7State, mask: &[u8], rng: &mut LaneRng) -> u32 {
        if s.pending != NO_CARD {
            // Freeze oneself where the policy would stay.
            let me = s.to_act as usize;
            let stays = self.policy.hits_state(s) == Some(false);
            let bank_at = if stays { 0 } else { game.round_score(s, me) + 1 };
            return choose_target(game, s, mask, bank_at);
        }
        if mask[STAY as usize] == 0 {
            return HIT;
        }
        match self.policy.hits_state(s) {
            Some(true) => HIT,
            Some(false) => STAY,
            None => ExpectedValue.act(game, s, mask, rng),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Game;

    #[test]
    fn the_policy_file_round_trips_and_refuses_corruption() {
        let walk = PolicyWalk {
            points: vec![0.0; super::super::solo::MAX_POINTS + 1],
            decisions: vec![(3, true), (17, false), (1 << 20, true)],
        };
        let p = SoloPolicy::from_walk(&walk);
        let bytes = p.to_bytes();
        let q = SoloPolicy::from_bytes(&bytes).unwrap();
        assert_eq!(q.entries, p.entries);
        assert!(SoloPolicy::from_bytes(b"nonsense").is_err());
        assert!(SoloPolicy::from_bytes(&bytes[..bytes.len() - 3]).is_err());
        let mut other = MAGIC.to_vec();
        other.extend(zstd::bulk::compress(&[1, 2, 3], 3).unwrap());
        assert!(SoloPolicy::from_bytes(&other).is_err());
    }

    /// With the committed table: in one-round solo games (a fresh deck, the model the table
    /// solves) every decision the bot meets is in the table under its exact key, and the
    /// bot only plays legal actions, alone and at a 3-seat table.
    #[test]
    #[ignore = "needs data/flip7_solo_policy.zst (examples/flip7_solo policy), not committed yet"]
    fn the_table_covers_every_fresh_deck_decision() {
        let bot = OptimalSolo::shared().expect("data/flip7_solo_policy.zst is committed");
        let one_round = Flip7::new(1, 200, Some(1)).unwrap();
        let mut decisions = 0;
        for g in 0..300 {
            let mut rng = LaneRng::for_lane(7, g, 0);
            let mut s = one_round.reset(&mut rng);
            let mut mask = vec![0u8; one_round.num_actions()];
            let mut rewards = vec![0f32; 1];
            while !s.is_over() {
                one_round.legal_mask(&s, &mut mask);
                if s.pending == NO_CARD && mask[STAY as usize] == 1 {
                    let mut pile = [0u8; CARD_IDS];
                    for &c in s.draw_pile() {
                        pile[c as usize] += 1;
                    }
                    assert!(bot.policy.hits(&pile, &s.hands[0]).is_some(), "{:?}", s.hands[0]);
                    decisions += 1;
                }
                let a = bot.act(&one_round, &s, &mask, &mut rng);
                assert_eq!(mask[a as usize], 1);
                assert!(one_round.step(&mut s, a, &mut rng, &mut rewards).applied);
            }
        }
        assert!(decisions > 300);
        let three = Flip7::with_players(3).unwrap();
        let mut rng = LaneRng::from_seed(3);
        let mut s = three.reset(&mut rng);
        let mut mask = vec![0u8; three.num_actions()];
        let mut rewards = vec![0f32; 3];
        while !s.is_over() {
            three.legal_mask(&s, &mut mask);
            let a = bot.act(&three, &s, &mask, &mut rng);
            assert_eq!(mask[a as usize], 1);
            assert!(three.step(&mut s, a, &mut rng, &mut rewards).applied);
        }
    }
}
