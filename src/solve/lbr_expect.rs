//! The expected estimator of a hand ([`Estimator::Expect`]): LBR's cards and the board are
//! dealt from the hand's stream exactly as [`Estimator::Sample`] deals them, and the hand's
//! result is the expectation of LBR's net chips over the policy's holdings and actions
//! given them.
//!
//! The walk carries `reach[h]`, the product of the policy's probabilities of the actions
//! of the branch with holding `h` (1 at the start for every holding not blocked by LBR's
//! cards). LBR's range at a node is `reach` over the holdings the board dealt so far does
//! not block, normalized, which is what [`Estimator::Sample`] tracks along the same
//! actions, so LBR decides as it does there (its sampled runouts, before the flop with
//! [`PreflopMode::Act`], come from the hand's stream in the order of the walk). At each of
//! the policy's decisions every action of positive weight is a branch. A leaf adds
//! `Σ_h reach[h] · net(h) / C`, over the `C` holdings disjoint from LBR's cards and the
//! board of the deal: the net is LBR's whatever `h` after a fold, and at a showdown `+m`,
//! `0` or `−m` as LBR's hand beats, ties or loses to `h` (`m` the chips both matched). An
//! all-in called before the river is valued over every runout of the missing cards when
//! there are at most [`LbrOptions::exact_limit`] of them (the holdings disjoint from each
//! runout, `C` = C(45, 2) each), else on the board of the deal.
//!
//! Given LBR's cards and the board, the deal of the policy's cards is uniform over the `C`
//! holdings and its actions follow its probabilities, so the sum is the conditional
//! expectation of the sampled net (and over the runouts, of the net given the board
//! before the all-in): the estimator is unbiased for the same LBR strategy, and its
//! variance is that of the sampled net less the variance from the policy's cards, its
//! actions and the all-in runouts (the law of total variance).

use super::{
    binomial, for_each_subset, lbr_candidates, win_probability, Estimator, LbrHand, LbrOptions,
    OpponentRange, PreflopMode,
};
use crate::core::{CardSet64, Error, Game, LaneRng, Result};
use crate::games::holdem::policy::{holdings, HoldemPolicy, HOLDINGS};
use crate::games::holdem::{NoLimitHoldem, NoLimitHoldemState, CHECK_CALL};
use crate::poker::cards::FULL_DECK;
use crate::poker::eval::rank_of_set;

/// `C`: the holdings disjoint from LBR's two cards and a five-card board, C(45, 2).
const DISJOINT: f64 = 990.0;

/// The cards of holding `h` as a bit set.
fn bits(h: usize) -> u64 {
    let [a, b] = holdings()[h];
    (1u64 << a) | (1u64 << b)
}

struct Walk<'a> {
    game: &'a NoLimitHoldem,
    policy: &'a dyn HoldemPolicy,
    options: &'a LbrOptions,
    /// LBR's seat and cards.
    seat: usize,
    hole: [u8; 2],
    rng: LaneRng,
    /// The divisor of a leaf's sum: `C` from the deal; from a spot's root, see
    /// `lbr_spot`.
    norm: f64,
    streets: [f64; 4],
    showdown: f64,
    deepest: u8,
}

impl Walk<'_> {
    /// The value of the subtree at `s` (live), `Σ_h reach[h] · E[net | h, branch] / C`
    /// over its leaves; `street` is the deepest street reached on the way.
    fn node(&mut self, s: &NoLimitHoldemState, reach: &[f64], street: u8) -> Result<f64> {
        let game = self.game;
        let legal = game.legal(s).expect("a live state");
        let street = street.max(s.street);
        self.deepest = self.deepest.max(street);
        let seen = CardSet64::from_ids(s.board().iter().copied()).0;
        if legal.seat == self.seat {
            let action = if s.street == 0 && self.options.preflop == PreflopMode::Call {
                CHECK_CALL
            } else {
                let mut weights: Vec<f64> = reach
                    .iter()
                    .enumerate()
                    .map(|(h, &w)| if bits(h) & seen != 0 { 0.0 } else { w })
                    .collect();
                let sum: f64 = weights.iter().sum();
                for w in &mut weights {
                    *w /= sum;
                }
                let range = OpponentRange { weights };
                let wp = win_probability(
                    self.hole,
                    s.board(),
                    &range,
                    self.options.exact_limit,
                    self.options.samples,
                    &mut self.rng,
                );
                let c = lbr_candidates(game, s, &range, self.policy, self.options, wp)?;
                super::best(&c)
            };
            return self.child(s, action, reach, street);
        }
        let live: Vec<usize> = (0..HOLDINGS)
            .filter(|&h| reach[h] > 0.0 && bits(h) & seen == 0)
            .collect();
        let (acts, rows) = OpponentRange::policy_rows(game, s, self.policy, &live)?;
        let n = acts.len();
        let mut total = 0.0;
        for (a, &action) in acts.iter().enumerate() {
            let mut next = vec![0.0; HOLDINGS];
            let mut weight = 0.0;
            for (k, &h) in live.iter().enumerate() {
                let w = reach[h] * rows[k * n + a];
                next[h] = w;
                weight += w;
            }
            // An action no holding plays has no weight. (Pruning on the cards still hidden
            // would bias the runouts of an all-in below.)
            if weight > 0.0 {
                total += self.child(s, action, &next, street)?;
            }
        }
        Ok(total)
    }

    fn child(
        &mut self,
        s: &NoLimitHoldemState,
        action: u32,
        reach: &[f64],
        street: u8,
    ) -> Result<f64> {
        let mut next = *s;
        let mut rewards = [0f32; 2];
        let out = self
            .game
            .step(&mut next, action, &mut LaneRng::from_seed(0), &mut rewards);
        if !out.applied {
            return Err(Error::Invalid {
                what: "action",
                reason: format!("{action:#x} was refused"),
            });
        }
        if !next.is_over() {
            return self.node(&next, reach, street);
        }
        let board = CardSet64::from_ids(next.full_board()).0;
        let hole = CardSet64::from_ids(self.hole).0;
        let blocked = board | hole;
        if next.is_folded(0) || next.is_folded(1) {
            let net = next.net()[self.seat] as f64;
            let mut w = 0.0;
            for (h, &r) in reach.iter().enumerate() {
                if bits(h) & blocked == 0 {
                    w += r;
                }
            }
            let v = net * w / self.norm;
            self.streets[street as usize] += v;
            return Ok(v);
        }
        // A showdown: each seat's chips in the middle, `m` the matched amount.
        let mut put = [0i64; 2];
        for (x, p) in put.iter_mut().enumerate() {
            *p = s.starting[x] as i64 - s.stacks[x] as i64;
        }
        let actor = self.game.legal(s).expect("a live state").seat;
        let call = self.game.legal(s).expect("a live state").call_amount as i64;
        put[actor] += call.min(s.stacks[actor] as i64);
        let m = put[0].min(put[1]) as f64;
        debug_assert!({
            let net = next.net()[self.seat] as f64;
            net == m || net == 0.0 || net == -m
        });
        let dealt = s.board();
        let known = CardSet64::from_ids(self.hole.iter().chain(dealt).copied());
        let deck: Vec<u8> = (FULL_DECK - known).iter().collect();
        let missing = 5 - dealt.len();
        let count = binomial(deck.len() as u64, missing as u64);
        let live: Vec<usize> = (0..HOLDINGS)
            .filter(|&h| reach[h] > 0.0 && bits(h) & known.0 == 0)
            .collect();
        let norm = self.norm;
        let share = |full: u64| -> f64 {
            let mine = rank_of_set(CardSet64(full | hole));
            let mut v = 0.0;
            for &h in &live {
                if bits(h) & full != 0 {
                    continue;
                }
                let theirs = rank_of_set(CardSet64(full | bits(h)));
                if mine > theirs {
                    v += reach[h];
                } else if mine < theirs {
                    v -= reach[h];
                }
            }
            v * m / norm
        };
        let v = if missing > 0 && count <= self.options.exact_limit {
            let dealt_set = CardSet64::from_ids(dealt.iter().copied()).0;
            let mut sum = 0.0;
            for_each_subset(&deck, missing, 0, 0, &mut |runout| {
                sum += share(dealt_set | runout)
            });
            sum / count as f64
        } else {
            share(board)
        };
        let mut p = 0.0;
        for (h, &r) in reach.iter().enumerate() {
            if bits(h) & blocked == 0 {
                p += r;
            }
        }
        self.showdown += p / self.norm;
        self.streets[3] += v;
        Ok(v)
    }
}

/// Hand `index` of a run with the expected estimator (see the module documentation).
pub(super) fn expect_hand(
    game: &NoLimitHoldem,
    policy: &dyn HoldemPolicy,
    options: &LbrOptions,
    index: u64,
) -> Result<LbrHand> {
    debug_assert_eq!(options.estimator, Estimator::Expect);
    let mut rng = LaneRng::for_lane(options.seed, index, 0);
    let mut deck: Vec<u8> = (0..52).collect();
    rng.shuffle(&mut deck);
    let seat = (index % 2) as usize;
    let mut hole = [[0u8; 2]; 2];
    hole[seat] = [deck[0], deck[1]];
    hole[1 - seat] = [deck[2], deck[3]];
    let board = [deck[4], deck[5], deck[6], deck[7], deck[8]];
    expect_deal(game, policy, options, seat, hole, board, rng)
}

/// The expected estimator on a given deal (LBR in `seat`; the other seat's cards in `hole`
/// are a placeholder that nothing reads), LBR's runout samples drawn from `rng`.
pub(super) fn expect_deal(
    game: &NoLimitHoldem,
    policy: &dyn HoldemPolicy,
    options: &LbrOptions,
    seat: usize,
    hole: [[u8; 2]; 2],
    board: [u8; 5],
    rng: LaneRng,
) -> Result<LbrHand> {
    let s = game.deal(&hole, board, 0);
    let mine = CardSet64::from_ids(hole[seat]).0;
    let reach: Vec<f64> = (0..HOLDINGS)
        .map(|h| (bits(h) & mine == 0) as u8 as f64)
        .collect();
    expect_from(
        game, policy, options, seat, hole[seat], &s, &reach, DISJOINT, rng,
    )
}

/// The expected estimator from the live state `s` (LBR in `seat` with `hole`): `reach` the
/// policy's starting weight per holding (0 for a holding blocked by LBR's cards or the
/// board), `norm` the divisor of a leaf's sum (`Σ_h reach[h] · net(h) / norm` over the
/// holdings disjoint from LBR's cards and the board of the deal), LBR's runout samples
/// drawn from `rng`.
#[allow(clippy::too_many_arguments)]
pub(super) fn expect_from(
    game: &NoLimitHoldem,
    policy: &dyn HoldemPolicy,
    options: &LbrOptions,
    seat: usize,
    hole: [u8; 2],
    s: &NoLimitHoldemState,
    reach: &[f64],
    norm: f64,
    rng: LaneRng,
) -> Result<LbrHand> {
    let mut walk = Walk {
        game,
        policy,
        options,
        seat,
        hole,
        rng,
        norm,
        streets: [0.0; 4],
        showdown: 0.0,
        deepest: 0,
    };
    let value = walk.node(s, reach, 0)?;
    Ok(LbrHand {
        seat: seat as u8,
        value,
        street: walk.deepest.min(3),
        streets: walk.streets,
        showdown: walk.showdown,
        correction: 0.0,
    })
}
