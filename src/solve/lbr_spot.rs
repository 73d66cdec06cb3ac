//! LBR from a spot's root ([`LbrOptions::spot`]): the hands start where a postflop spot of
//! the spot solver starts (`crate::solve::spot`: its board, pot, effective stack and the
//! two players' weighted ranges) instead of at the deal, so that LBR's value against a
//! solved spot's strategy can be checked against the spot's exact best response.
//!
//! # The table
//!
//! A spot is played on a heads-up table ([`SpotStart::game`]) with both blinds of 1 chip
//! (so that a bet of one chip is legal, as in the spot's tree), an ante of `pot/2 − 1` and
//! starting stacks of `stack + pot/2`: the button (seat 0) is the spot's IP player, the big
//! blind (seat 1) its OOP player. Both check before the flop (and on the flop and the turn
//! when the spot starts later), which leaves `pot` chips in the middle, `stack` behind each,
//! the spot's street and OOP to act: the spot's root ([`SpotStart::root`]). The pot must be
//! even (the table has no dead money: both seats put in `pot/2`).
//!
//! # The deal
//!
//! As the spot deals: a pair of holdings `(h0, h1)` (OOP's, IP's) has probability
//! proportional to `w0(h0) · w1(h1)` over the pairs disjoint from each other and from the
//! board, and the cards still to come are uniform over the cards left. Hand `i` draws from
//! its stream `(seed, i, 0)`: LBR's holding `h` from its marginal `w_L(h) · W(h)`, `W(h)`
//! the policy's range weight disjoint from `h`; then ([`crate::solve::lbr::Estimator::Sample`])
//! the policy's holding in proportion to its weight among those disjoint from `h`, and the
//! runout from the cards left; or ([`crate::solve::lbr::Estimator::Expect`]) the runout
//! from the cards not in `h` nor on the board, the policy's holdings then weighted: the
//! range LBR tracks starts at the policy's spot weights (those disjoint from `h`), and a
//! leaf's sum `Σ_x reach[x] · net(x)` over the holdings `x` disjoint from the runout is
//! divided by `W(h) · C(m − 2, r) / C(m, r)` (`m` the cards left after the board and `h`,
//! `r` the cards to come), which makes it, over the uniform runout, the expectation of
//! LBR's net given `h`.
//!
//! # Values
//!
//! A hand's value is LBR's net at the table; the spot counts what a player takes from the
//! pot minus what it puts in after the root, which is the net plus `pot/2`
//! ([`LbrSpotReport`]).

use serde::Serialize;

use super::{binomial, play_sampled, LbrHand, LbrOptions, OpponentRange};
use crate::core::{CardSet64, Error, Game, LaneRng, Result};
use crate::games::holdem::policy::{holdings, HoldemPolicy, HOLDINGS};
use crate::games::holdem::{NoLimitHoldem, NoLimitHoldemState, TableConfig, CHECK_CALL};
use crate::poker::cards::FULL_DECK;
use crate::solve::spot::Spot;

/// Where a spot's hands start, for LBR (see the module documentation): the board, the
/// pot, the stack and both players' weights per holding, with the exact values of the
/// policy's strategy when known.
#[derive(Clone, Debug, PartialEq)]
pub struct SpotStart {
    board: Vec<u8>,
    pot: u32,
    stack: u32,
    /// Per spot player (0 OOP, 1 IP), per holding of [`holdings`]: the range weight (0 off
    /// the range or on the board).
    weights: [Vec<f64>; 2],
    /// Per spot player `p` as LBR, per holding `h`: the other player's weight disjoint from
    /// `h` (`W(h)`).
    disjoint: [Vec<f64>; 2],
    /// Per spot player `p` as LBR: the cumulative sums of `w_p(h) · W(h)` over [`holdings`].
    cumulative: [Vec<f64>; 2],
    exact: Option<SpotExact>,
}

/// The exact values of the policy's strategy in a spot, in chips as the spot counts them
/// (what a player takes from the pot minus what it puts in after the root), per spot
/// player (0 OOP, 1 IP).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SpotExact {
    /// Each player's best-response value against the other's strategy (the spot solver's
    /// `best_response_values`).
    pub best_response: [f64; 2],
    /// Each player's value when both play the strategy (the solver's `root_ev`).
    pub strategy_ev: [f64; 2],
}

/// The table seat of spot player `p` (0 OOP: the big blind, seat 1; 1 IP: the button,
/// seat 0), and the reverse.
pub fn seat_of(p: usize) -> usize {
    1 - p
}

impl SpotStart {
    /// The start of `spot`. Errors: an odd pot (the table holds no dead money), a stack of
    /// 0 (no decision).
    pub fn new(spot: &Spot) -> Result<SpotStart> {
        if spot.pot() % 2 != 0 {
            return Err(Error::Invalid {
                what: "spot",
                reason: format!(
                    "LBR plays a spot at a table where both seats put in half the pot: the pot \
                     must be even, got {}",
                    spot.pot()
                ),
            });
        }
        if spot.stack() == 0 {
            return Err(Error::Invalid {
                what: "spot",
                reason: "the spot has no stack behind: nobody has a decision".into(),
            });
        }
        let mut weights = [vec![0.0; HOLDINGS], vec![0.0; HOLDINGS]];
        for (p, w) in weights.iter_mut().enumerate() {
            for (h, &x) in spot.hands(p).iter().zip(spot.weights(p)) {
                let [a, b] = h.cards();
                w[crate::games::holdem::policy::holding_index(a.id(), b.id())] = x as f64;
            }
        }
        let bits = |h: usize| {
            let [a, b] = holdings()[h];
            (1u64 << a) | (1u64 << b)
        };
        let mut disjoint = [vec![0.0; HOLDINGS], vec![0.0; HOLDINGS]];
        let mut cumulative = [vec![0.0; HOLDINGS], vec![0.0; HOLDINGS]];
        for p in 0..2 {
            let other: Vec<(u64, f64)> = (0..HOLDINGS)
                .filter(|&x| weights[1 - p][x] > 0.0)
                .map(|x| (bits(x), weights[1 - p][x]))
                .collect();
            let mut acc = 0.0;
            for h in 0..HOLDINGS {
                if weights[p][h] > 0.0 {
                    let mine = bits(h);
                    disjoint[p][h] = other
                        .iter()
                        .filter(|(b, _)| b & mine == 0)
                        .map(|(_, w)| w)
                        .sum();
                    acc += weights[p][h] * disjoint[p][h];
                }
                cumulative[p][h] = acc;
            }
        }
        Ok(SpotStart {
            board: spot.board().iter().map(|c| c.id()).collect(),
            pot: spot.pot(),
            stack: spot.stack(),
            weights,
            disjoint,
            cumulative,
            exact: None,
        })
    }

    /// The same start with the exact values of the policy's strategy, reported beside
    /// LBR's ([`LbrSpotReport`]).
    pub fn with_exact(mut self, exact: SpotExact) -> SpotStart {
        self.exact = Some(exact);
        self
    }

    /// The exact values given by [`SpotStart::with_exact`].
    pub fn exact(&self) -> Option<SpotExact> {
        self.exact
    }

    /// The board of the spot (card ids).
    pub fn board(&self) -> &[u8] {
        &self.board
    }

    /// The pot at the root, in chips.
    pub fn pot(&self) -> u32 {
        self.pot
    }

    /// The effective stack behind at the root, in chips.
    pub fn stack(&self) -> u32 {
        self.stack
    }

    /// Spot player `p`'s range weight per holding of [`holdings`] (0 off the range or
    /// on the board).
    pub fn weights(&self, p: usize) -> &[f64] {
        &self.weights[p]
    }

    /// The table the spot is played on (see the module documentation).
    pub fn game(&self) -> Result<NoLimitHoldem> {
        let half = (self.pot / 2) as u64;
        let table = TableConfig::new(1, 1, half - 1)?;
        NoLimitHoldem::new(2, table, self.stack as u64 + half)?.with_button(Some(0))
    }

    /// Checks that `game` is the spot's table ([`SpotStart::game`]; its raise fractions
    /// and button may differ).
    pub fn check_game(&self, game: &NoLimitHoldem) -> Result<()> {
        let want = self.game()?;
        if game.num_players() != 2 || game.table() != want.table() || game.stacks() != want.stacks()
        {
            return Err(Error::Invalid {
                what: "game",
                reason: format!(
                    "LBR from a spot plays on the spot's table (blinds 1/1, ante {}, stacks {}), \
                     got {:?} with stacks {:?}",
                    want.table().ante,
                    want.stacks()[0],
                    game.table(),
                    game.stacks()
                ),
            });
        }
        Ok(())
    }

    /// The spot's root at `game` (the spot's table) for a deal: both seats check to the
    /// spot's street. `hole[seat]` are the seats' cards, `board` the five board cards (the
    /// spot's first, in its order).
    pub fn root(
        &self,
        game: &NoLimitHoldem,
        hole: &[[u8; 2]; 2],
        board: [u8; 5],
    ) -> Result<NoLimitHoldemState> {
        if board[..self.board.len()] != self.board[..] {
            return Err(Error::Invalid {
                what: "board",
                reason: format!(
                    "the board {board:?} does not start with the spot's {:?}",
                    self.board
                ),
            });
        }
        let mut s = game.deal(hole, board, 0);
        let street = self.board.len() as u8 - 2;
        let mut rewards = [0f32; 2];
        while !s.is_over() && s.street < street {
            let out = game.step(&mut s, CHECK_CALL, &mut LaneRng::from_seed(0), &mut rewards);
            debug_assert!(out.applied);
        }
        if s.is_over()
            || s.pot_total() != self.pot as u64
            || s.stacks() != [self.stack, self.stack]
            || game.legal(&s).map(|l| l.seat) != Some(seat_of(0))
        {
            return Err(Error::Invalid {
                what: "game",
                reason: "the table does not reach the spot's root (not the spot's table?)".into(),
            });
        }
        Ok(s)
    }

    /// Draws LBR's holding as spot player `p` from its marginal (see the module
    /// documentation).
    fn draw_lbr(&self, p: usize, rng: &mut LaneRng) -> usize {
        let cum = &self.cumulative[p];
        let u = rng.unit_f64() * cum[HOLDINGS - 1];
        let h = cum.partition_point(|&c| c <= u).min(HOLDINGS - 1);
        // Skip holdings of zero mass (equal cumulative sums) that the search may land on.
        (h..HOLDINGS)
            .find(|&x| self.weights[p][x] * self.disjoint[p][x] > 0.0)
            .unwrap_or(h)
    }

    /// The policy's weights (spot player `1 − p`) disjoint from LBR's holding `mine`.
    fn opponent_weights(&self, p: usize, mine: [u8; 2]) -> Vec<f64> {
        let dead = CardSet64::from_ids(mine);
        holdings()
            .iter()
            .zip(&self.weights[1 - p])
            .map(|(h, &w)| {
                if dead.contains(h[0]) || dead.contains(h[1]) {
                    0.0
                } else {
                    w
                }
            })
            .collect()
    }

    /// The board of a deal: the spot's, then the cards to come from `deck` in its order.
    fn full_board(&self, deck: &[u8]) -> [u8; 5] {
        let mut board = [0u8; 5];
        let k = self.board.len();
        board[..k].copy_from_slice(&self.board);
        board[k..].copy_from_slice(&deck[..5 - k]);
        board
    }

    /// The cards not on the board nor in `dead`, shuffled by `rng`.
    fn rest(&self, dead: CardSet64, rng: &mut LaneRng) -> Vec<u8> {
        let known = CardSet64::from_ids(self.board.iter().copied());
        let mut deck: Vec<u8> = (FULL_DECK - known - dead).iter().collect();
        rng.shuffle(&mut deck);
        deck
    }
}

/// What both estimators draw first for hand `index`: its random stream, LBR's table seat
/// (alternating by hand), LBR's spot player and LBR's holding (an index into
/// [`holdings`]) drawn from that player's range.
fn lbr_deal(options: &LbrOptions, start: &SpotStart, index: u64) -> (LaneRng, usize, usize, usize) {
    let mut rng = LaneRng::for_lane(options.seed, index, 0);
    let seat = (index % 2) as usize;
    let p = 1 - seat;
    let h = start.draw_lbr(p, &mut rng);
    (rng, seat, p, h)
}

/// The two seats' hole cards: LBR's `mine` at `seat`, `other` at the other seat.
fn seat_holes(seat: usize, mine: [u8; 2], other: [u8; 2]) -> [[u8; 2]; 2] {
    let mut hole = [[0u8; 2]; 2];
    hole[seat] = mine;
    hole[1 - seat] = other;
    hole
}

/// Hand `index` from the spot's root with the sampled estimator.
pub(super) fn sample_hand(
    game: &NoLimitHoldem,
    policy: &dyn HoldemPolicy,
    options: &LbrOptions,
    start: &SpotStart,
    index: u64,
) -> Result<LbrHand> {
    let (mut rng, seat, p, h) = lbr_deal(options, start, index);
    let mine = holdings()[h];
    let theirs = start.opponent_weights(p, mine);
    let total: f64 = theirs.iter().sum();
    let u = rng.unit_f64() * total;
    let mut acc = 0.0;
    let mut pick = (0..HOLDINGS).rfind(|&x| theirs[x] > 0.0).unwrap_or(0);
    for (x, &w) in theirs.iter().enumerate() {
        acc += w;
        if w > 0.0 && u < acc {
            pick = x;
            break;
        }
    }
    let hole = seat_holes(seat, mine, holdings()[pick]);
    let deck = start.rest(
        CardSet64::from_ids(hole.iter().flatten().copied()),
        &mut rng,
    );
    let board = start.full_board(&deck);
    let s = start.root(game, &hole, board)?;
    let mut range = OpponentRange { weights: theirs };
    range.normalize();
    play_sampled(game, policy, options, index, seat, hole, s, range, rng)
}

/// Hand `index` from the spot's root with the expected estimator.
pub(super) fn expect_hand(
    game: &NoLimitHoldem,
    policy: &dyn HoldemPolicy,
    options: &LbrOptions,
    start: &SpotStart,
    index: u64,
) -> Result<LbrHand> {
    let (mut rng, seat, p, h) = lbr_deal(options, start, index);
    let mine = holdings()[h];
    let deck = start.rest(CardSet64::from_ids(mine), &mut rng);
    let board = start.full_board(&deck);
    // The other seat's cards are a placeholder nothing reads (two cards off the board).
    let other = [deck[5 - start.board.len()], deck[6 - start.board.len()]];
    let hole = seat_holes(seat, mine, other);
    let s = start.root(game, &hole, board)?;
    let reach = start.opponent_weights(p, mine);
    let m = (52 - start.board.len() - 2) as u64;
    let r = (5 - start.board.len()) as u64;
    let norm = start.disjoint[p][h] * binomial(m - 2, r) as f64 / binomial(m, r) as f64;
    super::expect::expect_from(game, policy, options, seat, mine, &s, &reach, norm, rng)
}

/// One spot player's part of an LBR run from a spot's root, in chips as the spot counts
/// them.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SpotPart {
    /// Hands LBR played as this player.
    pub hands: u64,
    /// LBR's mean value (its net at the table plus half the pot).
    pub value: f64,
    /// The half-width of its 95% interval.
    pub ci95: f64,
    /// The exact best-response value against the policy's strategy, when known.
    pub best_response: Option<f64>,
    /// The player's value when both play the policy's strategy, when known.
    pub strategy_ev: Option<f64>,
    /// `(value − strategy_ev) / (best_response − strategy_ev)`: the share of what a best
    /// response gains over the strategy itself that LBR gains, when known and the best
    /// response gains more than 0.1% of the pot (else `None`).
    pub found: Option<f64>,
}

/// What an LBR run from a spot's root adds to the report: per spot player (0 OOP, 1 IP),
/// LBR's value beside the exact ones.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct LbrSpotReport {
    /// The pot at the root.
    pub pot: u32,
    /// The effective stack at the root.
    pub stack: u32,
    /// LBR as OOP, then as IP.
    pub players: [SpotPart; 2],
}

/// The spot part of a report over `hands`.
pub(super) fn spot_report(start: &SpotStart, hands: &[LbrHand]) -> LbrSpotReport {
    let half = start.pot as f64 / 2.0;
    let players = [0, 1].map(|p| {
        let mut sum = crate::core::stats::Summary::default();
        for h in hands.iter().filter(|h| h.seat as usize == seat_of(p)) {
            sum.push(h.value + half);
        }
        let br = start.exact.map(|e| e.best_response[p]);
        let ev = start.exact.map(|e| e.strategy_ev[p]);
        let found = match (br, ev) {
            (Some(b), Some(e)) if b - e > 1e-3 * start.pot as f64 => {
                Some((sum.mean() - e) / (b - e))
            }
            _ => None,
        };
        SpotPart {
            hands: sum.count(),
            value: sum.mean(),
            ci95: sum.ci95(),
            best_response: br,
            strategy_ev: ev,
            found,
        }
    });
    LbrSpotReport {
        pot: start.pot,
        stack: start.stack,
        players,
    }
}
