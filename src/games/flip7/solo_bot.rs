//! The `optimal-solo` bot: Flip 7 alone played by the exact points-optimal policy of
//! [`super::solo_table::FreshSolver`], read from a table built into the library
//! (`data/flip7_solo_policy.zst`, written by a full-deck solve, `docs/flip7.md`, "Flip 7
//! alone"; `CARDVEC_FLIP7_SOLO_POLICY` names another file to read instead).
//!
//! The table ([`SoloPolicy`]) holds the decisions the points-optimal policy reaches in a
//! round dealt from a fresh 94-card deck, with the action it takes at each (hit or stay),
//! as two bitmaps over the dense [`DecisionIndex`], and the exact distribution of a round's
//! points under the policy; it is written by
//! `cargo run --profile ci --example flip7_solo -- policy data/flip7_solo_policy.zst`
//! (one full solve, then the policy played forward).
//!
//! At a Hit/Stay decision the bot computes the position's key from public information: the
//! cards in front of it and the draw pile's composition (every card not in sight). When the
//! pile is what a fresh deck minus this round's draws would be (a fresh-deck round, the
//! first round of a game), that is the exact key. When the pile was carried over from
//! earlier rounds (the engine's rule), it keys the position as if the round had been dealt
//! from a fresh deck with no card discarded yet (the table's policy for the same cards in
//! front; at a multi-seat table likewise, the other seats' cards taken as still in the pile);
//! a position the table holds under neither key is played by the `expected-value` rule. Action-card
//! recipients follow [`super::bots::choose_target`] (alone, the only recipient is oneself).

use std::sync::{Arc, OnceLock};

use super::bots::{choose_target, next_draw_counts, ExpectedValue};
use super::fast::Flip7State;
use super::solo::MAX_POINTS;
use super::solo_table::{walk_with, DecisionIndex, PolicyWalk};
use super::*;
use crate::core::{Bot, Error, LaneRng, Result};

/// The policy file's first bytes (before the zstd frame).
const MAGIC: &[u8; 8] = b"F7SOLO2\n";

/// The table's file in the crate's directory, built into the library ([`SoloPolicy::shared`]
/// reads it unless `CARDVEC_FLIP7_SOLO_POLICY` names another file).
pub const DEFAULT_POLICY_FILE: &str = "data/flip7_solo_policy.zst";

/// The bytes of [`DEFAULT_POLICY_FILE`], as the full-deck solve wrote them.
static BUILT_IN_POLICY: &[u8] =
    include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/data/flip7_solo_policy.zst"));

/// How far from 1 the total of a table's points distribution may be. The full-deck walk
/// adds billions of round-ending probabilities into 172 bins in `f64`; a bust of
/// probability below half an ulp of its bin (about 2.8e-17 near 0.33) adds nothing, so the
/// committed table's distribution totals 1 - 4.3e-9 (docs/flip7.md, "Flip 7 alone").
const POINTS_TOLERANCE: f64 = 1e-8;

/// The points-optimal solo policy at the decisions it reaches from a fresh deck.
#[derive(Clone, Debug)]
pub struct SoloPolicy {
    index: DecisionIndex,
    /// Per decision index (a bit each): reached by the policy from a fresh deck.
    reached: Vec<u64>,
    /// Per decision index: the policy hits there (a subset of `reached`).
    hit: Vec<u64>,
    len: usize,
    /// The exact distribution of a fresh-deck round's points under the policy.
    points: Vec<f64>,
}

impl SoloPolicy {
    /// The table of a policy walk ([`super::solo_table::FreshSolver::walk_policy`] on the full
    /// deck). Errors if a decision is outside the full deck's index.
    pub fn from_walk(walk: &PolicyWalk) -> Result<Self> {
        let index = DecisionIndex::new(&CARD_COPIES);
        let words = index.len().div_ceil(64);
        let (mut reached, mut hit) = (vec![0u64; words], vec![0u64; words]);
        let mut len = 0;
        for &(i, h) in &walk.decisions {
            let i = i as usize;
            if i >= index.len() {
                return Err(Error::Invalid {
                    what: "optimal-solo policy",
                    reason: format!("decision {i} outside the index ({})", index.len()),
                });
            }
            if reached[i / 64] >> (i % 64) & 1 == 0 {
                len += 1;
            }
            reached[i / 64] |= 1 << (i % 64);
            hit[i / 64] |= u64::from(h) << (i % 64);
        }
        if walk.points.len() != MAX_POINTS + 1 {
            return Err(Error::Invalid {
                what: "optimal-solo policy",
                reason: format!("{} round totals, expected {}", walk.points.len(), MAX_POINTS + 1),
            });
        }
        Ok(SoloPolicy {
            index,
            reached,
            hit,
            len,
            points: walk.points.clone(),
        })
    }

    /// The exact distribution of a fresh-deck round's points under the policy (index: the
    /// round's points, `0..=171`), as the solver's forward walk found it.
    pub fn round_points(&self) -> &[f64] {
        &self.points
    }

    /// The exact expected rounds to bank `target` from 0 with this policy, every round dealt
    /// from a fresh deck ([`PolicyWalk::rounds_to_target`]).
    pub fn expected_rounds(&self, target: u32) -> f64 {
        let walk = PolicyWalk {
            points: self.points.clone(),
            decisions: Vec::new(),
        };
        walk.rounds_to_target(target).first().copied().unwrap_or(0.0)
    }

    /// Plays the table's policy forward from a fresh deck (more than an hour on the full
    /// table, one core): the round's points distribution and the decisions reached, which
    /// must be the table's own. Errors if the policy is unknown at a decision reached.
    pub fn walk(&self) -> Result<PolicyWalk> {
        walk_with(
            &CARD_COPIES,
            &self.index,
            |i, _| {
                let bit = |v: &[u64]| v[i / 64] >> (i % 64) & 1 == 1;
                bit(&self.reached).then(|| bit(&self.hit))
            },
            |_| {},
        )
    }

    /// Number of decisions held.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the table holds no decision.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The file's bytes: the magic `F7SOLO2\n`, then one zstd frame of two bitmaps over the
    /// [`DecisionIndex`] (little-endian `u64` words): the decisions reached, then those
    /// where the policy hits; then the round's points distribution (172 little-endian
    /// `f64`). The index's layout (a block of 64 modifier sets × 4 Flip Three
    /// counts per held-numbers set) makes both very regular, so they compress far below the
    /// list of decisions.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut raw = Vec::with_capacity(16 * self.reached.len());
        for w in self.reached.iter().chain(&self.hit) {
            raw.extend_from_slice(&w.to_le_bytes());
        }
        for p in &self.points {
            raw.extend_from_slice(&p.to_le_bytes());
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
        let index = DecisionIndex::new(&CARD_COPIES);
        let words = index.len().div_ceil(64);
        let want = 16 * words + 8 * (MAX_POINTS + 1);
        if raw.len() != want {
            return Err(bad(format!("{} bytes, expected {want}", raw.len())));
        }
        let mut all = raw
            .chunks_exact(8)
            .map(|w| u64::from_le_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]));
        let reached: Vec<u64> = all.by_ref().take(words).collect();
        let hit: Vec<u64> = all.by_ref().take(words).collect();
        let points: Vec<f64> = all.map(f64::from_bits).collect();
        if points.iter().any(|p| !(0.0..=1.0).contains(p))
            || (points.iter().sum::<f64>() - 1.0).abs() > POINTS_TOLERANCE
        {
            return Err(bad("the round's points distribution is not one".into()));
        }
        if reached.iter().zip(&hit).any(|(r, h)| h & !r != 0) {
            return Err(bad("a hit at a decision not reached".into()));
        }
        let len = reached.iter().map(|w| w.count_ones() as usize).sum();
        Ok(SoloPolicy {
            index,
            reached,
            hit,
            len,
            points,
        })
    }

    /// The process-wide table, decoded once: the built-in table, or the file
    /// `CARDVEC_FLIP7_SOLO_POLICY` names (an error, kept, if it cannot be read or is not a
    /// table).
    pub fn shared() -> Result<Arc<SoloPolicy>> {
        static SHARED: OnceLock<std::result::Result<Arc<SoloPolicy>, String>> = OnceLock::new();
        SHARED
            .get_or_init(|| {
                let (bytes, from) = match std::env::var_os("CARDVEC_FLIP7_SOLO_POLICY") {
                    Some(path) => {
                        let shown = path.to_string_lossy().into_owned();
                        let bytes = std::fs::read(&path).map_err(|e| {
                            format!("{shown} (CARDVEC_FLIP7_SOLO_POLICY): {e}")
                        })?;
                        (std::borrow::Cow::Owned(bytes), shown)
                    }
                    None => (
                        std::borrow::Cow::Borrowed(BUILT_IN_POLICY),
                        format!("the built-in {DEFAULT_POLICY_FILE}"),
                    ),
                };
                SoloPolicy::from_bytes(&bytes)
                    .map(Arc::new)
                    .map_err(|e| format!("{from}: {e}"))
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
        let i = self.index.index(&CARD_COPIES, pile, table)?;
        let bit = |v: &[u64]| v[i / 64] >> (i % 64) & 1 == 1;
        bit(&self.reached).then(|| bit(&self.hit))
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
    /// The bot on the shared table ([`SoloPolicy::shared`]); errors only if
    /// `CARDVEC_FLIP7_SOLO_POLICY` names a file that is not a table.
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
        let mut points = vec![0.0; MAX_POINTS + 1];
        points[0] = 0.25;
        points[20] = 0.75;
        let walk = PolicyWalk {
            points,
            decisions: vec![(3, true), (17, false), (1 << 20, true)],
        };
        let p = SoloPolicy::from_walk(&walk).unwrap();
        assert_eq!(p.len(), 3);
        let bytes = p.to_bytes();
        let q = SoloPolicy::from_bytes(&bytes).unwrap();
        assert_eq!(q.round_points(), p.round_points());
        // 0.25 of the rounds score 0, the others 20: ten scoring rounds to 200.
        assert!((q.expected_rounds(200) - 10.0 / 0.75).abs() < 1e-9);
        assert_eq!((&q.reached, &q.hit, q.len), (&p.reached, &p.hit, 3));
        assert!(SoloPolicy::from_walk(&PolicyWalk::default()).is_err());
        let far = PolicyWalk {
            points: walk.points.clone(),
            decisions: vec![(u32::MAX, true)],
        };
        assert!(SoloPolicy::from_walk(&far).is_err());
        // A hit where no decision is reached.
        let mut raw = vec![0u8; 16 * p.reached.len()];
        raw[8 * p.reached.len()] = 1;
        raw.extend(1f64.to_le_bytes());
        raw.extend(vec![0u8; 8 * MAX_POINTS]);
        let mut hit_only = MAGIC.to_vec();
        hit_only.extend(zstd::bulk::compress(&raw, 3).unwrap());
        assert!(SoloPolicy::from_bytes(&hit_only).is_err());
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
    fn the_table_covers_every_fresh_deck_decision() {
        let bot = OptimalSolo::shared().expect("the built-in table decodes");
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
