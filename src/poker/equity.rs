//! Equity of 2 to 10 players, each holding known cards or a range, with a partial board and
//! dead cards: exact enumeration when the work is small enough, seeded Monte Carlo otherwise.
//!
//! Both methods measure the same thing: every deal (one combo per player, no card twice,
//! none from the board or the dead cards) weighs the same, and so does every completion of
//! the board. A player wins a deal when their hand is the only best one; players sharing the
//! best hand tie and each gets `1 / (number sharing)` of it. Equity is the mean share.
//!
//! Exact enumeration walks the board completions (in parallel, split on the first two
//! cards), ranks each player's combos once per board, then walks the deals. Monte Carlo
//! draws a deal by rejection (a deal with a card twice is drawn again) and a board from the
//! remaining cards; trials run in fixed chunks, chunk `j` drawing from stream `(seed, j, 0)`,
//! so results do not depend on the number of threads. Counts are integers (shares scaled by
//! 2520, the least common multiple of 1..=10), so parallel sums are exact.
//!
//! Some problems are far too large to finish (ten random hands enumerated exactly, 10^11
//! trials): [`EquityOptions::max_work`] refuses them up front, and a caller's
//! [`Progress::should_stop`] stops a running call (asked about every millisecond of work),
//! which then returns [`Error::Cancelled`].
//!
//! # Weighted ranges
//!
//! With [`WeightedRange`]s ([`equity_weighted`]) a deal weighs the product of its combos'
//! weights. Exact enumeration sums the weighted shares in `f64`, one partial sum per board
//! prefix, added in prefix order, so the result is the same for any number of threads; the
//! counts `wins`, `ties` and `total` stay unweighted deal counts, while `equity`,
//! `win_rate` and `tie_rate` are weighted. Monte Carlo keeps a drawn combo of weight `w`
//! with probability `w / w_max` (`w_max` the largest weight of that player's live combos;
//! otherwise the whole deal is drawn again), which draws each deal with probability
//! proportional to its weight; a player whose live weights are all equal draws no extra
//! number, so unweighted ranges give the results of [`equity`] exactly.

use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::cards::{card_set, Card, FULL_DECK};
use super::eval::Hand;
use super::range::{Range, WeightedRange};
use crate::core::progress::{Progress, Silent};
use crate::core::{CardSet64, Error, LaneRng, Result};

/// A share of one deal, scaled so that ties among up to ten players stay integers.
const SHARE_SCALE: u64 = 2520;
/// Monte Carlo trials per chunk (per random stream).
const TRIALS_PER_CHUNK: u64 = 1 << 13;
/// Monte Carlo draws of one deal before the ranges are declared incompatible.
const MAX_DEAL_ATTEMPTS: u32 = 100_000;
/// Monte Carlo trials between two questions to [`Progress::should_stop`].
const TRIALS_PER_STOP_CHECK: u64 = 1 << 10;
/// Pieces of enumeration (a board ranked, or the last player's combos walked for one
/// partial deal: at most 1,326 deals) between two questions to [`Progress::should_stop`].
const WALKS_PER_STOP_CHECK: u32 = 1 << 6;

/// How to compute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Exact when the enumeration's work is at most `EquityOptions::exact_limit`, Monte Carlo
    /// otherwise.
    Auto,
    /// Always enumerate.
    Exact,
    /// Always sample.
    MonteCarlo,
}

/// Options of [`equity`].
#[derive(Clone, Debug)]
pub struct EquityOptions {
    /// Known board cards (0 to 5).
    pub board: Vec<Card>,
    /// Cards out of play.
    pub dead: Vec<Card>,
    /// How to compute.
    pub method: Method,
    /// Largest enumeration [`Method::Auto`] accepts, in work units (board completions times
    /// the combos ranked and deals scored per board).
    pub exact_limit: u64,
    /// Monte Carlo trials.
    pub trials: u64,
    /// Seed of the Monte Carlo streams.
    pub seed: u64,
    /// Most work the call may do, in the units of `exact_limit` for an enumeration and in
    /// hands ranked (trials times players) for Monte Carlo; `None`: no bound. A computation
    /// above it is refused up front ([`Error::Invalid`]); [`Method::Auto`] enumerates only
    /// below both bounds. Must be at least 1.
    pub max_work: Option<u64>,
}

impl Default for EquityOptions {
    fn default() -> Self {
        EquityOptions {
            board: Vec::new(),
            dead: Vec::new(),
            method: Method::Auto,
            exact_limit: 400_000_000,
            trials: 1_000_000,
            seed: 0,
            max_work: None,
        }
    }
}

/// One player's result.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerEquity {
    /// Deals (or trials) won alone.
    pub wins: u64,
    /// Deals (or trials) where the player shared the best hand.
    pub ties: u64,
    /// Mean share of the pot: wins plus tied shares, over all deals.
    pub equity: f64,
    /// Standard error of `equity` (0 for an exact result).
    pub equity_se: f64,
    /// `wins / total`.
    pub win_rate: f64,
    /// `ties / total`.
    pub tie_rate: f64,
}

/// The result of [`equity`].
#[derive(Clone, Debug, PartialEq)]
pub struct EquityReport {
    /// One entry per player, in input order.
    pub players: Vec<PlayerEquity>,
    /// Deals enumerated (exact) or trials drawn (Monte Carlo).
    pub total: u64,
    /// Whether the result is exact.
    pub exact: bool,
    /// Wall time.
    pub elapsed: Duration,
}

/// Integer tallies, summed across threads.
#[derive(Clone, Debug, Default)]
struct Tally {
    total: u64,
    wins: Vec<u64>,
    ties: Vec<u64>,
    shares: Vec<u64>,
    shares_sq: Vec<u64>,
    /// Weighted sums (exact enumeration of weighted ranges only).
    w_total: f64,
    w_wins: Vec<f64>,
    w_ties: Vec<f64>,
    w_shares: Vec<f64>,
}

impl Tally {
    fn new(n: usize) -> Tally {
        Tally {
            total: 0,
            wins: vec![0; n],
            ties: vec![0; n],
            shares: vec![0; n],
            shares_sq: vec![0; n],
            w_total: 0.0,
            w_wins: vec![0.0; n],
            w_ties: vec![0.0; n],
            w_shares: vec![0.0; n],
        }
    }

    fn merge(mut self, other: Tally) -> Tally {
        self.total += other.total;
        for i in 0..self.wins.len() {
            self.wins[i] += other.wins[i];
            self.ties[i] += other.ties[i];
            self.shares[i] += other.shares[i];
            self.shares_sq[i] += other.shares_sq[i];
            self.w_wins[i] += other.w_wins[i];
            self.w_ties[i] += other.w_ties[i];
            self.w_shares[i] += other.w_shares[i];
        }
        self.w_total += other.w_total;
        self
    }

    /// Scores one deal from the players' ranks.
    #[inline]
    fn score(&mut self, ranks: &[u16]) {
        let best = ranks.iter().copied().max().unwrap_or(0);
        let sharing = ranks.iter().filter(|&&r| r == best).count() as u64;
        self.total += 1;
        if sharing == 1 {
            if let Some(i) = ranks.iter().position(|&r| r == best) {
                self.wins[i] += 1;
                self.shares[i] += SHARE_SCALE;
                self.shares_sq[i] += SHARE_SCALE * SHARE_SCALE;
            }
        } else {
            let share = SHARE_SCALE / sharing;
            for (i, _) in ranks.iter().enumerate().filter(|&(_, &r)| r == best) {
                self.ties[i] += 1;
                self.shares[i] += share;
                self.shares_sq[i] += share * share;
            }
        }
    }

    /// Scores one deal of weight `w` (the product of its combos' weights).
    #[inline]
    fn score_weighted(&mut self, ranks: &[u16], w: f64) {
        self.score(ranks);
        let best = ranks.iter().copied().max().unwrap_or(0);
        let sharing = ranks.iter().filter(|&&r| r == best).count();
        self.w_total += w;
        let share = w / sharing as f64;
        for (i, _) in ranks.iter().enumerate().filter(|&(_, &r)| r == best) {
            if sharing == 1 {
                self.w_wins[i] += w;
            } else {
                self.w_ties[i] += w;
            }
            self.w_shares[i] += share;
        }
    }

    /// The report with the weighted rates and equities.
    fn weighted_report(self, elapsed: Duration) -> EquityReport {
        let t = if self.w_total > 0.0 {
            self.w_total
        } else {
            1.0
        };
        let (w_wins, w_ties, w_shares) = (
            self.w_wins.clone(),
            self.w_ties.clone(),
            self.w_shares.clone(),
        );
        let mut report = self.report(true, elapsed);
        for (i, p) in report.players.iter_mut().enumerate() {
            p.equity = w_shares[i] / t;
            p.win_rate = w_wins[i] / t;
            p.tie_rate = w_ties[i] / t;
        }
        report
    }

    fn report(self, exact: bool, elapsed: Duration) -> EquityReport {
        let t = self.total.max(1) as f64;
        let scale = SHARE_SCALE as f64;
        let players = (0..self.wins.len())
            .map(|i| {
                let mean = self.shares[i] as f64 / scale / t;
                let mean_sq = self.shares_sq[i] as f64 / (scale * scale) / t;
                let se = if exact || self.total < 2 {
                    0.0
                } else {
                    ((mean_sq - mean * mean).max(0.0) / (t - 1.0)).sqrt()
                };
                PlayerEquity {
                    wins: self.wins[i],
                    ties: self.ties[i],
                    equity: mean,
                    equity_se: se,
                    win_rate: self.wins[i] as f64 / t,
                    tie_rate: self.ties[i] as f64 / t,
                }
            })
            .collect();
        EquityReport {
            players,
            total: self.total,
            exact,
            elapsed,
        }
    }
}

/// A combo ready to evaluate: its cards and its partial hand.
#[derive(Clone, Copy, Debug)]
struct Combo {
    set: CardSet64,
    hand: Hand,
    /// The combo's weight in (0, 1].
    weight: f64,
    /// The chance that Monte Carlo keeps this combo once drawn: its weight over the
    /// largest weight of its player's live combos (a player's weights scaled by one
    /// constant draw the same deals, and fewer draws are rejected).
    accept: f64,
}

/// The checked problem.
struct Setup {
    players: Vec<Vec<Combo>>,
    /// Whether some combo weighs less than 1.
    weighted: bool,
    board: Hand,
    /// Board cards still to come.
    to_deal: usize,
    /// Cards that may complete the board (not on it, not dead).
    deck: Vec<Card>,
}

fn binomial(n: usize, k: usize) -> u64 {
    if k > n {
        return 0;
    }
    (0..k).fold(1u64, |acc, i| {
        acc.saturating_mul((n - i) as u64) / (i as u64 + 1)
    })
}

impl Setup {
    fn new(ranges: &[WeightedRange], options: &EquityOptions) -> Result<Setup> {
        Error::check_range("players", 2, 10, ranges.len())?;
        Error::check_range("board cards", 0, 5, options.board.len())?;
        let board = card_set(&options.board)?;
        let dead = card_set(&options.dead)?;
        if let Some(c) = (board & dead).min() {
            return Err(Error::Invalid {
                what: "equity",
                reason: format!(
                    "{} is both on the board and dead",
                    Card::from_id(c).map_or(String::new(), |c| c.to_string())
                ),
            });
        }
        let known = board | dead;
        let mut players = Vec::with_capacity(ranges.len());
        for (i, range) in ranges.iter().enumerate() {
            let live = range.without(known);
            if live.is_empty() {
                return Err(Error::Invalid {
                    what: "range",
                    reason: format!("player {}: every combo uses a board or dead card", i + 1),
                });
            }
            let top = live.entries().iter().map(|&(_, w)| w).fold(0.0, f64::max);
            players.push(
                live.entries()
                    .iter()
                    .map(|&(h, weight)| {
                        let [a, b] = h.cards();
                        Combo {
                            set: h.set(),
                            hand: Hand::EMPTY.add(a).add(b),
                            weight,
                            accept: weight / top,
                        }
                    })
                    .collect(),
            );
        }
        let weighted = ranges.iter().any(|r| !r.is_unweighted());
        let setup = Setup {
            players,
            weighted,
            board: options.board.iter().fold(Hand::EMPTY, |h, &c| h.add(c)),
            to_deal: 5 - options.board.len(),
            deck: super::cards::set_cards(FULL_DECK - known).collect(),
        };
        if !setup.some_deal_exists() {
            return Err(Error::Invalid {
                what: "equity",
                reason: "no deal gives every player a combo without sharing a card".to_string(),
            });
        }
        let cards_needed = 2 * ranges.len() + setup.to_deal;
        if cards_needed > setup.deck.len() {
            return Err(Error::Invalid {
                what: "equity",
                reason: format!(
                    "{cards_needed} cards needed, {} left in the deck",
                    setup.deck.len()
                ),
            });
        }
        Ok(setup)
    }

    fn some_deal_exists(&self) -> bool {
        fn search(players: &[Vec<Combo>], used: CardSet64, budget: &mut u32) -> bool {
            let Some((first, rest)) = players.split_first() else {
                return true;
            };
            for c in first {
                if *budget == 0 {
                    return true; // give up proving; Monte Carlo reports a stuck draw anyway
                }
                *budget -= 1;
                if (c.set & used).is_empty() && search(rest, used | c.set, budget) {
                    return true;
                }
            }
            false
        }
        search(&self.players, CardSet64::EMPTY, &mut 1_000_000)
    }

    /// The enumeration's work: boards times (combos ranked + deals scored, bounded above).
    fn exact_work(&self) -> u64 {
        let boards = binomial(self.deck.len(), self.to_deal);
        let ranked: u64 = self.players.iter().map(|p| p.len() as u64).sum();
        let deals = self
            .players
            .iter()
            .fold(1u64, |acc, p| acc.saturating_mul(p.len() as u64));
        boards.saturating_mul(ranked.saturating_add(deals))
    }
}

/// Asks a [`Progress`] whether to stop, once every `WALKS_PER_STOP_CHECK` pieces of work.
struct StopCheck<'a> {
    progress: &'a dyn Progress,
    countdown: u32,
    stopped: bool,
}

impl<'a> StopCheck<'a> {
    fn new(progress: &'a dyn Progress) -> Self {
        StopCheck {
            progress,
            countdown: WALKS_PER_STOP_CHECK,
            stopped: false,
        }
    }

    /// Counts one piece of work; whether the call must stop.
    #[inline]
    fn tick(&mut self) -> bool {
        self.countdown -= 1;
        if self.countdown == 0 {
            self.countdown = WALKS_PER_STOP_CHECK;
            self.stopped = self.stopped || self.progress.should_stop();
        }
        self.stopped
    }
}

/// What an enumeration task accumulates: the tallies, and the stop check.
struct Walk<'a> {
    tally: Tally,
    stop: StopCheck<'a>,
}

/// Scores every deal on one complete board (`ranks`: scratch space, one entry per combo).
fn score_board(setup: &Setup, board: Hand, ranks: &mut [Vec<u16>], walk: &mut Walk<'_>) {
    if walk.stop.tick() {
        return;
    }
    let used = board.cards();
    for (p, combos) in setup.players.iter().enumerate() {
        for (r, c) in ranks[p].iter_mut().zip(combos) {
            *r = if (c.set & used).is_empty() {
                board.combine(c.hand).rank().0
            } else {
                0
            };
        }
    }
    let mut current = [0u16; 10];
    walk_deals(setup, ranks, 0, used, 1.0, &mut current, walk);
}

fn walk_deals(
    setup: &Setup,
    ranks: &[Vec<u16>],
    p: usize,
    used: CardSet64,
    weight: f64,
    current: &mut [u16; 10],
    walk: &mut Walk<'_>,
) {
    let n = setup.players.len();
    if p + 1 == n {
        // The last player's combos: at most 1,326 deals, a piece of work.
        if walk.stop.tick() {
            return;
        }
        for (c, &r) in setup.players[p].iter().zip(&ranks[p]) {
            if (c.set & used).is_empty() {
                current[p] = r;
                if setup.weighted {
                    walk.tally.score_weighted(&current[..n], weight * c.weight);
                } else {
                    walk.tally.score(&current[..n]);
                }
            }
        }
        return;
    }
    for (c, &r) in setup.players[p].iter().zip(&ranks[p]) {
        if (c.set & used).is_empty() {
            current[p] = r;
            walk_deals(
                setup,
                ranks,
                p + 1,
                used | c.set,
                weight * c.weight,
                current,
                walk,
            );
            if walk.stop.stopped {
                return;
            }
        }
    }
}

/// Enumerates board completions choosing from `deck[from..]`, `left` cards to go.
fn walk_boards(
    setup: &Setup,
    from: usize,
    left: usize,
    board: Hand,
    ranks: &mut [Vec<u16>],
    walk: &mut Walk<'_>,
) {
    if left == 0 {
        score_board(setup, board, ranks, walk);
        return;
    }
    for i in from..=setup.deck.len() - left {
        walk_boards(
            setup,
            i + 1,
            left - 1,
            board.add(setup.deck[i]),
            ranks,
            walk,
        );
        if walk.stop.stopped {
            return;
        }
    }
}

/// The tallies of every deal, or [`Error::Cancelled`] if `progress` said stop.
fn exact(setup: &Setup, progress: &dyn Progress) -> Result<Tally> {
    let n = setup.players.len();
    let m = setup.deck.len();
    // Tasks: the first one or two cards of the completion.
    let split = setup.to_deal.min(2);
    let mut tasks: Vec<(Hand, usize)> = Vec::new();
    match split {
        0 => tasks.push((setup.board, 0)),
        1 => tasks.extend((0..m).map(|i| (setup.board.add(setup.deck[i]), i + 1))),
        _ => {
            for i in 0..m {
                for j in i + 1..m {
                    let h = setup.board.add(setup.deck[i]).add(setup.deck[j]);
                    tasks.push((h, j + 1));
                }
            }
        }
    }
    progress.start(tasks.len() as u64, "board prefixes");
    // One tally per task, merged in task order: the weighted `f64` sums are then the same
    // for any number of threads (the integer counts would be anyway).
    let parts: Vec<(Tally, bool)> = tasks
        .par_iter()
        .map_init(
            || -> Vec<Vec<u16>> { setup.players.iter().map(|p| vec![0; p.len()]).collect() },
            |ranks, &(board, from)| {
                let mut walk = Walk {
                    tally: Tally::new(n),
                    stop: StopCheck::new(progress),
                };
                walk.stop.stopped = progress.should_stop();
                let left = setup.to_deal - split;
                if !walk.stop.stopped && from + left <= m {
                    walk_boards(setup, from, left, board, ranks, &mut walk);
                }
                progress.advance(1);
                (walk.tally, walk.stop.stopped)
            },
        )
        .collect();
    let (tally, stopped) = parts
        .into_iter()
        .fold((Tally::new(n), false), |(a, sa), (b, sb)| {
            (a.merge(b), sa || sb)
        });
    progress.finish();
    if stopped {
        return Err(Error::Cancelled { what: "equity" });
    }
    Ok(tally)
}

/// Draws one deal: a combo per player, no card twice. `None` if the draws keep colliding.
fn draw_deal(setup: &Setup, rng: &mut LaneRng, hands: &mut [Hand]) -> Option<CardSet64> {
    'attempt: for _ in 0..MAX_DEAL_ATTEMPTS {
        let mut used = CardSet64::EMPTY;
        for (p, combos) in setup.players.iter().enumerate() {
            let c = combos[rng.below(combos.len() as u32) as usize];
            if c.accept < 1.0 && rng.unit_f64() >= c.accept {
                continue 'attempt;
            }
            if !(c.set & used).is_empty() {
                continue 'attempt;
            }
            used |= c.set;
            hands[p] = c.hand;
        }
        return Some(used);
    }
    None
}

fn monte_carlo(setup: &Setup, options: &EquityOptions, progress: &dyn Progress) -> Result<Tally> {
    let n = setup.players.len();
    let chunks = options.trials.div_ceil(TRIALS_PER_CHUNK);
    progress.start(options.trials, "trials");
    let deck_set = setup.deck.iter().fold(CardSet64::EMPTY, |s, c| s | c.bit());
    let result = (0..chunks)
        .into_par_iter()
        .map(|chunk| -> Result<Tally> {
            let mut rng = LaneRng::for_lane(options.seed, chunk, 0);
            let trials = TRIALS_PER_CHUNK.min(options.trials - chunk * TRIALS_PER_CHUNK);
            let mut tally = Tally::new(n);
            let mut hands = [Hand::EMPTY; 10];
            let mut ranks = [0u16; 10];
            let mut left = trials;
            while left > 0 {
                if progress.should_stop() {
                    return Err(Error::Cancelled { what: "equity" });
                }
                let block = left.min(TRIALS_PER_STOP_CHECK);
                left -= block;
                for _ in 0..block {
                    let used = draw_deal(setup, &mut rng, &mut hands[..n]).ok_or_else(|| {
                        Error::Invalid {
                            what: "equity",
                            reason: "the ranges almost never fit together (or weigh too little); draws keep \
                             being rejected"
                                .to_string(),
                        }
                    })?;
                    let free = deck_set - used;
                    let mut board = setup.board;
                    let mut taken = CardSet64::EMPTY;
                    while taken.len() < setup.to_deal as u32 {
                        let id = rng.below(52) as u8;
                        if free.contains(id) && !taken.contains(id) {
                            taken.insert(id);
                            if let Some(c) = Card::from_id(id) {
                                board = board.add(c);
                            }
                        }
                    }
                    for p in 0..n {
                        ranks[p] = board.combine(hands[p]).rank().0;
                    }
                    tally.score(&ranks[..n]);
                }
            }
            progress.advance(trials);
            Ok(tally)
        })
        .try_reduce(|| Tally::new(n), |a, b| Ok(a.merge(b)));
    progress.finish();
    result
}

/// An amount of work in words (`u64::MAX` is what a saturated estimate reaches).
fn work_text(work: u64) -> String {
    if work == u64::MAX {
        "18446744073709551615 or more".to_string()
    } else {
        work.to_string()
    }
}

/// The equity of each player (a range each; a single combo is a range of one).
///
/// ```
/// use cardvec::poker::{equity, parse_cards, EquityOptions, Range};
/// let players = [Range::parse("AsAh").unwrap(), Range::parse("KdKc").unwrap()];
/// let options = EquityOptions { board: parse_cards("2c7d9h").unwrap(), ..Default::default() };
/// let report = equity(&players, &options).unwrap();
/// assert!(report.exact);
/// assert_eq!(report.total, 990); // C(45, 2) turns and rivers
/// assert!(report.players[0].equity > 0.9);
/// ```
pub fn equity(ranges: &[Range], options: &EquityOptions) -> Result<EquityReport> {
    equity_with_progress(ranges, options, &Silent)
}

/// [`equity`], telling `progress` of the board prefixes (exact) or trials (Monte Carlo)
/// done; `progress` may stop the call ([`Progress::should_stop`]), which then returns
/// [`Error::Cancelled`].
pub fn equity_with_progress(
    ranges: &[Range],
    options: &EquityOptions,
    progress: &dyn Progress,
) -> Result<EquityReport> {
    let weighted: Vec<WeightedRange> = ranges.iter().map(WeightedRange::from).collect();
    equity_weighted_with_progress(&weighted, options, progress)
}

/// [`equity`] of weighted ranges: a deal weighs the product of its combos' weights (see
/// the module documentation, "Weighted ranges"). Ranges whose weights are all 1 give the
/// results of [`equity`] exactly.
///
/// ```
/// use cardvec::poker::{equity_weighted, parse_cards, EquityOptions, WeightedRange};
/// let players = [
///     WeightedRange::parse("AA:0.5,KK").unwrap(),
///     WeightedRange::parse("QdQc").unwrap(),
/// ];
/// let options = EquityOptions { board: parse_cards("2c7d9h").unwrap(), ..Default::default() };
/// let report = equity_weighted(&players, &options).unwrap();
/// assert!(report.exact && report.players[0].equity > 0.9);
/// ```
pub fn equity_weighted(ranges: &[WeightedRange], options: &EquityOptions) -> Result<EquityReport> {
    equity_weighted_with_progress(ranges, options, &Silent)
}

/// [`equity_weighted`] with a [`Progress`], as [`equity_with_progress`].
pub fn equity_weighted_with_progress(
    ranges: &[WeightedRange],
    options: &EquityOptions,
    progress: &dyn Progress,
) -> Result<EquityReport> {
    let start = Instant::now();
    if options.max_work == Some(0) {
        return Err(Error::OutOfRange {
            what: "max_work",
            min: 1,
            max: u64::MAX as i128,
            got: 0,
        });
    }
    let setup = Setup::new(ranges, options)?;
    let max_work = options.max_work.unwrap_or(u64::MAX);
    let exact_work = setup.exact_work();
    let exact_run = match options.method {
        Method::Exact => true,
        Method::MonteCarlo => false,
        Method::Auto => exact_work <= options.exact_limit.min(max_work),
    };
    if exact_run && exact_work > max_work {
        return Err(Error::Invalid {
            what: "equity",
            reason: format!(
                "exact enumeration needs about {} units of work, more than max_work={max_work}",
                work_text(exact_work)
            ),
        });
    }
    let tally = if exact_run {
        exact(&setup, progress)?
    } else {
        if options.trials == 0 {
            return Err(Error::Invalid {
                what: "trials",
                reason: "Monte Carlo needs at least one trial".to_string(),
            });
        }
        let work = options.trials.saturating_mul(ranges.len() as u64);
        if work > max_work {
            return Err(Error::Invalid {
                what: "equity",
                reason: format!(
                    "{} trials of {} players rank {} hands, more than max_work={max_work}",
                    options.trials,
                    ranges.len(),
                    work_text(work)
                ),
            });
        }
        monte_carlo(&setup, options, progress)?
    };
    if tally.total == 0 {
        return Err(Error::Invalid {
            what: "equity",
            reason: "no deal is possible".to_string(),
        });
    }
    Ok(if exact_run && setup.weighted {
        tally.weighted_report(start.elapsed())
    } else {
        tally.report(exact_run, start.elapsed())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::poker::reference::reference_value;
    use crate::poker::{parse_cards, HoleCards};

    fn ranges(texts: &[&str]) -> Vec<Range> {
        texts.iter().map(|t| Range::parse(t).unwrap()).collect()
    }

    fn with_board(board: &str) -> EquityOptions {
        EquityOptions {
            board: parse_cards(board).unwrap(),
            ..Default::default()
        }
    }

    /// Every deal and every river card, ranked by the reference evaluator.
    fn brute_force(players: &[Range], board: &[Card]) -> (u64, Vec<u64>, Vec<u64>) {
        let n = players.len();
        let board_set = card_set(board).unwrap();
        let mut total = 0;
        let (mut wins, mut ties) = (vec![0; n], vec![0; n]);
        let mut deals: Vec<Vec<HoleCards>> = vec![vec![]];
        for r in players {
            deals = deals
                .into_iter()
                .flat_map(|d| {
                    r.combos().iter().map(move |&h| {
                        let mut d = d.clone();
                        d.push(h);
                        d
                    })
                })
                .collect();
        }
        for deal in deals {
            let mut used = board_set;
            let mut ok = true;
            for h in &deal {
                ok &= (h.set() & used).is_empty();
                used |= h.set();
            }
            if !ok {
                continue;
            }
            for river in Card::all().filter(|c| !used.contains(c.id())) {
                let values: Vec<_> = deal
                    .iter()
                    .map(|h| {
                        let mut cards = board.to_vec();
                        cards.extend(h.cards());
                        cards.push(river);
                        reference_value(&cards).unwrap()
                    })
                    .collect();
                let best = values.iter().max().unwrap();
                let sharing: Vec<usize> = (0..n).filter(|&i| values[i] == *best).collect();
                total += 1;
                if sharing.len() == 1 {
                    wins[sharing[0]] += 1;
                } else {
                    sharing.iter().for_each(|&i| ties[i] += 1);
                }
            }
        }
        (total, wins, ties)
    }

    #[test]
    fn multiway_turn_equity_matches_brute_force() {
        let board = parse_cards("Ks 9h 5c 2d").unwrap();
        for players in [
            ranges(&["AsKh", "9d9c", "QhJh"]),
            ranges(&["AA", "KQs, 55", "T9s", "6h6d"]),
            ranges(&["AK", "JJ", "QTs"]),
        ] {
            let options = EquityOptions {
                board: board.clone(),
                method: Method::Exact,
                ..Default::default()
            };
            let report = equity(&players, &options).unwrap();
            let (total, wins, ties) = brute_force(&players, &board);
            assert_eq!(report.total, total);
            for (i, p) in report.players.iter().enumerate() {
                assert_eq!((p.wins, p.ties), (wins[i], ties[i]), "player {i}");
            }
        }
    }

    #[test]
    fn equities_sum_to_one() {
        let report = equity(&ranges(&["AKs", "QQ", "random"]), &with_board("Ah 7c 2d")).unwrap();
        let sum: f64 = report.players.iter().map(|p| p.equity).sum();
        assert!((sum - 1.0).abs() < 1e-9, "{sum}");
    }

    #[test]
    fn monte_carlo_is_within_three_standard_errors_of_exact() {
        let players = ranges(&["AsAh", "KdKc", "7s6s"]);
        let mut options = with_board("Qc 8s 5s");
        options.method = Method::Exact;
        let exact = equity(&players, &options).unwrap();
        options.method = Method::MonteCarlo;
        options.trials = 200_000;
        options.seed = 5;
        let mc = equity(&players, &options).unwrap();
        assert!(!mc.exact);
        for (e, m) in exact.players.iter().zip(&mc.players) {
            assert!(m.equity_se > 0.0);
            let z = (m.equity - e.equity) / m.equity_se;
            assert!(
                z.abs() < 3.0,
                "exact {} mc {} se {}",
                e.equity,
                m.equity,
                m.equity_se
            );
        }
    }

    #[test]
    fn monte_carlo_does_not_depend_on_threads() {
        let players = ranges(&["AA", "random", "random"]);
        let options = EquityOptions {
            method: Method::MonteCarlo,
            trials: 30_000,
            seed: 9,
            ..Default::default()
        };
        let run = |threads| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let r = pool.install(|| equity(&players, &options)).unwrap();
            r.players
        };
        assert_eq!(run(1), run(3));
    }

    #[test]
    fn river_board_is_a_single_showdown() {
        let report = equity(&ranges(&["AsAh", "KdKc"]), &with_board("2c 7d 9h Ks 3c")).unwrap();
        assert_eq!(report.total, 1);
        assert_eq!(report.players[1].wins, 1);
    }

    /// Says stop once it has been asked `after` times.
    struct StopAfter {
        after: u64,
        asked: std::sync::atomic::AtomicU64,
    }

    impl Progress for StopAfter {
        fn advance(&self, _done: u64) {}
        fn should_stop(&self) -> bool {
            self.asked
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed)
                >= self.after
        }
    }

    #[test]
    fn a_stop_request_ends_an_enumeration_that_would_never_finish() {
        // Ten random hands: about 10^31 deals per board.
        let players: Vec<Range> = (0..10).map(|_| Range::all()).collect();
        for method in [Method::Exact, Method::MonteCarlo] {
            let options = EquityOptions {
                method,
                trials: u64::MAX / 16,
                ..Default::default()
            };
            let stop = StopAfter {
                after: 50,
                asked: Default::default(),
            };
            assert_eq!(
                equity_with_progress(&players, &options, &stop),
                Err(Error::Cancelled { what: "equity" }),
                "{method:?}"
            );
        }
    }

    #[test]
    fn a_raised_stop_flag_stops_before_any_work() {
        let flag = crate::core::StopFlag::new();
        flag.stop();
        let players = ranges(&["AsAh", "KdKc"]);
        for method in [Method::Exact, Method::MonteCarlo] {
            let options = EquityOptions {
                method,
                ..Default::default()
            };
            assert!(matches!(
                equity_with_progress(&players, &options, &flag),
                Err(Error::Cancelled { .. })
            ));
        }
        // An unraised flag changes nothing.
        let options = with_board("2c 7d 9h");
        assert_eq!(
            equity_with_progress(&players, &options, &crate::core::StopFlag::new())
                .unwrap()
                .players,
            equity(&players, &options).unwrap().players
        );
    }

    #[test]
    fn max_work_refuses_what_is_too_large_up_front() {
        let players = ranges(&["AsAh", "KdKc"]);
        let exact = EquityOptions {
            method: Method::Exact,
            max_work: Some(1000),
            ..Default::default()
        };
        let e = equity(&players, &exact).unwrap_err().to_string();
        assert!(e.contains("max_work=1000"), "{e}");
        let mc = EquityOptions {
            method: Method::MonteCarlo,
            trials: 501,
            max_work: Some(1000),
            ..Default::default()
        };
        let e = equity(&players, &mc).unwrap_err().to_string();
        assert!(
            e.contains("1002 hands") && e.contains("max_work=1000"),
            "{e}"
        );
        // Auto samples when the enumeration is above max_work and the trials fit under it.
        let auto = EquityOptions {
            trials: 500,
            ..mc.clone()
        };
        let auto = EquityOptions {
            method: Method::Auto,
            ..auto
        };
        assert!(!equity(&players, &auto).unwrap().exact);
        // Within the bound nothing changes.
        let river = EquityOptions {
            max_work: Some(10),
            ..with_board("2c 7d 9h Ks 3c")
        };
        assert_eq!(equity(&players, &river).unwrap().total, 1);
        let zero = EquityOptions {
            max_work: Some(0),
            ..Default::default()
        };
        assert!(matches!(
            equity(&players, &zero),
            Err(Error::OutOfRange {
                what: "max_work",
                got: 0,
                ..
            })
        ));
    }

    #[test]
    fn bad_inputs_are_errors() {
        let two = ranges(&["AsAh", "KdKc"]);
        assert!(
            equity(&two[..1], &EquityOptions::default()).is_err(),
            "one player"
        );
        let eleven: Vec<Range> = (0..11).map(|_| Range::all()).collect();
        assert!(
            equity(&eleven, &EquityOptions::default()).is_err(),
            "eleven players"
        );
        assert!(
            equity(&two, &with_board("As 2c 3d")).is_err(),
            "hole card on board"
        );
        assert!(
            equity(&two, &with_board("2c 3d 4h 5s 6c 7d")).is_err(),
            "six board cards"
        );
        assert!(equity(&ranges(&["AsAh", "AsKd"]), &EquityOptions::default()).is_err());
        let mut dead = with_board("2c");
        dead.dead = parse_cards("2c").unwrap();
        assert!(equity(&two, &dead).is_err(), "board card also dead");
    }

    fn weighted(texts: &[&str]) -> Vec<WeightedRange> {
        texts
            .iter()
            .map(|t| WeightedRange::parse(t).unwrap())
            .collect()
    }

    #[test]
    fn weighted_exact_is_the_weighted_mean_of_the_combo_equities() {
        let board = "2c7d9hKs";
        let texts = ["AKs:0.5,QQ:0.25,T9s,8h8d:0.75", "KQ:0.3,99:0.6,JTs"];
        let report = equity_weighted(&weighted(&texts), &with_board(board)).unwrap();
        assert!(report.exact);
        // Independently: every disjoint pair of live combos enumerated alone (unweighted),
        // averaged with the product of the weights.
        let dead = card_set(&parse_cards(board).unwrap()).unwrap();
        let [r1, r2] = [0, 1].map(|i| WeightedRange::parse(texts[i]).unwrap().without(dead));
        let (mut num, mut tie_num, mut den) = (0.0f64, 0.0f64, 0.0f64);
        for &(h1, w1) in r1.entries() {
            for &(h2, w2) in r2.entries() {
                if !(h1.set() & h2.set()).is_empty() {
                    continue;
                }
                let pair = [Range::single(h1), Range::single(h2)];
                let one = equity(&pair, &with_board(board)).unwrap();
                let w = w1 * w2;
                num += w * one.players[0].equity;
                tie_num += w * one.players[0].tie_rate;
                den += w;
            }
        }
        let p = &report.players[0];
        assert!(
            (p.equity - num / den).abs() < 1e-12,
            "{} {}",
            p.equity,
            num / den
        );
        assert!((p.tie_rate - tie_num / den).abs() < 1e-12);
        let sum: f64 = report.players.iter().map(|p| p.equity).sum();
        assert!((sum - 1.0).abs() < 1e-12);
        // A different weighting gives a different answer (the weights are used).
        let flat = equity_weighted(
            &weighted(&["AKs,QQ,T9s,8h8d", "KQ,99,JTs"]),
            &with_board(board),
        )
        .unwrap();
        assert!((flat.players[0].equity - p.equity).abs() > 1e-3);
    }

    /// Weighted equity of two players on a turn board by explicit enumeration with the
    /// reference evaluator: every pair of disjoint live combos, every river, each deal
    /// weighing the product of the two weights.
    fn weighted_brute_force(texts: [&str; 2], board: &str) -> [f64; 2] {
        let board = parse_cards(board).unwrap();
        assert_eq!(board.len(), 4);
        let board_set = card_set(&board).unwrap();
        let [r1, r2] = texts.map(|t| WeightedRange::parse(t).unwrap());
        let (mut share, mut total) = ([0.0f64; 2], 0.0f64);
        for &(h1, w1) in r1.entries() {
            for &(h2, w2) in r2.entries() {
                let used = h1.set() | h2.set();
                if !(h1.set() & h2.set()).is_empty() || !(used & board_set).is_empty() {
                    continue;
                }
                let w = w1 * w2;
                for river in Card::all().filter(|c| !(used | board_set).contains(c.id())) {
                    let value = |h: HoleCards| {
                        let mut cards = board.clone();
                        cards.extend(h.cards());
                        cards.push(river);
                        reference_value(&cards).unwrap()
                    };
                    let (v1, v2) = (value(h1), value(h2));
                    total += w;
                    match v1.cmp(&v2) {
                        std::cmp::Ordering::Greater => share[0] += w,
                        std::cmp::Ordering::Less => share[1] += w,
                        std::cmp::Ordering::Equal => {
                            share[0] += w / 2.0;
                            share[1] += w / 2.0;
                        }
                    }
                }
            }
        }
        share.map(|s| s / total)
    }

    #[test]
    fn weighted_equity_matches_a_brute_force_enumeration() {
        for (texts, board) in [
            (["AKs:0.5,QQ:0.25,T9s,8h8d:0.75", "KdQd"], "Ks9h5c2d"),
            (["JJ+:0.3,AQs,76s:0.9", "TT:0.2,KQ,A5s:0.6"], "Qh7c6d2s"),
            (["KK+:0.5,QQ-88,AKs:0.4", "15%"], "AhKd8c3s"),
        ] {
            let players = weighted(&texts);
            let report = equity_weighted(&players, &with_board(board)).unwrap();
            assert!(report.exact);
            let want = weighted_brute_force(texts, board);
            for (p, w) in report.players.iter().zip(want) {
                assert!(
                    (p.equity - w).abs() < 1e-9,
                    "{texts:?} {board}: {} vs {w}",
                    p.equity
                );
            }
        }
    }

    #[test]
    fn weights_of_one_give_the_unweighted_results() {
        let options = with_board("2c7d9h");
        let a = equity(&ranges(&["AK,QQ", "random"]), &options).unwrap();
        let b = equity_weighted(&weighted(&["AK:1,QQ", "random"]), &options).unwrap();
        assert_eq!(a.players, b.players);
        let mc = EquityOptions {
            method: Method::MonteCarlo,
            trials: 20_000,
            ..with_board("2c7d9h")
        };
        let a = equity(&ranges(&["AK,QQ", "random"]), &mc).unwrap();
        let b = equity_weighted(&weighted(&["AK:1,QQ", "random"]), &mc).unwrap();
        assert_eq!(a.players, b.players);
        // One weight for all of a player's combos draws the same deals as no weight.
        let c = equity_weighted(&weighted(&["AK:0.5,QQ:0.5", "random:0.1"]), &mc).unwrap();
        assert_eq!(a.players, c.players);
        let e = equity_weighted(&weighted(&["AK:0.5,QQ:0.5", "random"]), &options).unwrap();
        let f = equity(&ranges(&["AK,QQ", "random"]), &options).unwrap();
        for (e, f) in e.players.iter().zip(&f.players) {
            assert!((e.equity - f.equity).abs() < 1e-12);
            assert_eq!((e.wins, e.ties), (f.wins, f.ties));
        }
    }

    #[test]
    fn weighted_ranges_emptied_by_the_board_are_errors() {
        let players = weighted(&["AA:0.5,KhKd", "QQ"]);
        let options = EquityOptions {
            dead: parse_cards("Kh").unwrap(),
            ..with_board("AsAhAd")
        };
        let msg = equity_weighted(&players, &options).unwrap_err().to_string();
        assert!(
            msg.contains("player 1") && msg.contains("board or dead"),
            "{msg}"
        );
        // One combo left is enough.
        let options = with_board("AsAhAd");
        assert!(equity_weighted(&players, &options).is_ok());
    }

    #[test]
    fn weighted_monte_carlo_agrees_with_weighted_exact() {
        let texts = ["AKs:0.5,QQ:0.25,T9s,22:0.1", "15%:0.5,72o"];
        let exact = equity_weighted(&weighted(&texts), &with_board("2c7d9h")).unwrap();
        let mc = EquityOptions {
            method: Method::MonteCarlo,
            trials: 400_000,
            seed: 3,
            ..with_board("2c7d9h")
        };
        let sampled = equity_weighted(&weighted(&texts), &mc).unwrap();
        for (e, s) in exact.players.iter().zip(&sampled.players) {
            assert!(
                (e.equity - s.equity).abs() < 4.0 * s.equity_se + 1e-9,
                "{} vs {} ± {}",
                e.equity,
                s.equity,
                s.equity_se
            );
        }
    }

    #[test]
    fn weighted_exact_is_the_same_on_any_number_of_threads() {
        let texts = ["AKs:0.5,QQ:0.25,T9s", "20%:0.7,72o"];
        let run = |threads: usize| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| equity_weighted(&weighted(&texts), &with_board("Jc8d3h")).unwrap())
        };
        let (a, b) = (run(1), run(3));
        assert_eq!(a.players, b.players);
    }
}
