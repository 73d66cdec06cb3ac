//! The reference engine: one no-limit hand ([`NlHand`]), written for clarity with owned
//! data, and [`Reference`], that hand played through the batch game's discrete actions
//! and observation (what `cardvec diff holdem` compares with the fast engine).
//!
//! The betting follows pokerkit 0.7's no-limit rules (its `State`): an actor queue that a
//! full bet or raise refills with every seat that still has chips, the last full raise
//! increment, and the short all-in bookkeeping that decides whether a seat that already
//! acted may raise again. `docs/holdem.md` states every rule with an example.

use std::collections::VecDeque;

use super::view::{encode, ObsInputs};
use super::{
    Action, Chips, Legal, NoLimitHoldem, TableConfig, CHECK_CALL, DECK_SIZE, FOLD, MAX_PLAYERS,
    MIN_PLAYERS,
};
use crate::core::{CardSet64, Error, LaneOutcome, LaneRng, Playable, Result, SingleLane};
use crate::poker::cards::Card;
use crate::poker::eval::{Hand, HandRank};

/// A betting round, or the end of the hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Street {
    /// Hole cards dealt, blinds posted.
    Preflop = 0,
    /// Three board cards.
    Flop = 1,
    /// Four board cards.
    Turn = 2,
    /// Five board cards.
    River = 3,
    /// The hand is over and paid.
    Over = 4,
}

impl Street {
    /// Board cards visible on this street (5 once over, if the hand reached a showdown).
    pub fn board_len(self) -> usize {
        [0, 3, 4, 5, 5][self as usize]
    }
}

/// A pot: chips and the seats that can win them.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Pot {
    /// Chips in the pot.
    pub amount: Chips,
    /// Seats (not folded) that contributed up to this pot's level, ascending.
    pub eligible: Vec<usize>,
}

/// One hand of no-limit hold'em from the deal to the payout (the reference engine).
///
/// ```
/// use cardvec::games::holdem::{Action, NlHand, TableConfig};
/// use cardvec::poker::parse_cards;
/// let cards = parse_cards("As Ad Kc Kd 2c 7d 9h Js 3c").unwrap();
/// let config = TableConfig::new(1, 2, 0).unwrap();
/// let mut hand = NlHand::new(config, &[100, 100], 0, &[[cards[0], cards[1]], [cards[2], cards[3]]],
///     [cards[4], cards[5], cards[6], cards[7], cards[8]]).unwrap();
/// assert_eq!(hand.to_act(), Some(0)); // heads-up: the button acts first before the flop
/// hand.apply(Action::AllIn).unwrap();
/// hand.apply(Action::Call).unwrap();
/// assert!(hand.is_over());
/// assert_eq!(hand.stacks(), &[200, 0]);
/// ```
#[derive(Clone, Debug)]
pub struct NlHand {
    config: TableConfig,
    button: usize,
    starting: Vec<Chips>,
    hole: Vec<[Card; 2]>,
    board: [Card; 5],
    /// Chips behind.
    stacks: Vec<Chips>,
    /// Chips in front of each seat on this street.
    bets: Vec<Chips>,
    /// Chips each seat has put in the pots on earlier streets (antes included).
    committed: Vec<Chips>,
    folded: Vec<bool>,
    street: Street,
    /// Board cards dealt so far.
    dealt: usize,
    /// Seats still to act this round, the first to act first.
    queue: VecDeque<usize>,
    /// Seats that acted since the last full bet or raise (pokerkit's `acted_player_indices`).
    acted: Vec<bool>,
    /// The largest bet or raise increment of the round (pokerkit's
    /// `completion_betting_or_raising_amount`).
    increment: Chips,
    /// Increments of consecutive short all-in raises not yet amounting to a full raise.
    short_all_ins: Vec<Chips>,
    /// Betting is over for the rest of the hand (at most one seat with chips).
    all_in_runout: bool,
    /// The pots once betting is over (before payout).
    final_pots: Vec<Pot>,
    /// Chips each seat won.
    won: Vec<Chips>,
    /// Chips returned uncalled to each seat over the hand.
    returned: Vec<Chips>,
    /// Every action with its seat, in order.
    history: Vec<(usize, Action)>,
    /// The street of each action of `history`.
    history_streets: Vec<Street>,
}

impl NlHand {
    /// Deals a hand: `stacks[s]` chips for seat `s` (2 to 10 seats, each at least 1), the
    /// button seat, the hole cards of every seat and the five board cards (all 2n+5 cards
    /// distinct). Posts antes and blinds; the first player to act is ready.
    pub fn new(
        config: TableConfig,
        stacks: &[Chips],
        button: usize,
        hole: &[[Card; 2]],
        board: [Card; 5],
    ) -> Result<NlHand> {
        let n = stacks.len();
        Error::check_range("seats", MIN_PLAYERS as i64, MAX_PLAYERS as i64, n as i64)?;
        Error::check_len("hole cards", n, hole.len())?;
        Error::check_range("button", 0, n as i64 - 1, button as i64)?;
        for &s in stacks {
            Error::check_range("stack", 1, super::MAX_CHIPS, s)?;
        }
        let mut seen = CardSet64::EMPTY;
        for c in hole.iter().flatten().chain(board.iter()) {
            if seen.contains(c.id()) {
                return Err(Error::Invalid {
                    what: "deal",
                    reason: format!("card {c} is dealt twice"),
                });
            }
            seen.insert(c.id());
        }
        let mut hand = NlHand {
            config,
            button,
            starting: stacks.to_vec(),
            hole: hole.to_vec(),
            board,
            stacks: stacks.to_vec(),
            bets: vec![0; n],
            committed: vec![0; n],
            folded: vec![false; n],
            street: Street::Preflop,
            dealt: 0,
            queue: VecDeque::new(),
            acted: vec![false; n],
            increment: 0,
            short_all_ins: Vec::new(),
            all_in_runout: false,
            final_pots: Vec::new(),
            won: vec![0; n],
            returned: vec![0; n],
            history: Vec::new(),
            history_streets: Vec::new(),
        };
        hand.post_forced_bets();
        hand.begin_round();
        Ok(hand)
    }

    /// Antes (an ante nobody else matched in full is returned at once, as pokerkit's ante
    /// trimming), then the blinds, each capped by what the seat has after its ante.
    fn post_forced_bets(&mut self) {
        let n = self.num_players();
        let antes: Vec<Chips> = (0..n)
            .map(|s| self.config.ante.min(self.starting[s]))
            .collect();
        if antes.iter().any(|&a| a > 0) {
            let mut sorted = antes.clone();
            sorted.sort_unstable();
            let cutoff = sorted[n - 2];
            for s in 0..n {
                let kept = antes[s].min(cutoff);
                self.stacks[s] -= kept;
                self.committed[s] += kept;
                self.returned[s] += antes[s] - kept;
            }
        }
        let sb = super::small_blind_seat(n, self.button);
        let bb = super::big_blind_seat(n, self.button);
        for (seat, blind) in [(sb, self.config.small_blind), (bb, self.config.big_blind)] {
            let amount = blind.min(self.starting[seat] - antes[seat]);
            self.stacks[seat] -= amount;
            self.bets[seat] = amount;
        }
    }

    /// The seat the round's queue starts from: left of the big blind before the flop (the
    /// button heads-up), left of the button after.
    fn opener(&self) -> usize {
        let n = self.num_players();
        if self.street == Street::Preflop {
            if n == 2 {
                self.button
            } else {
                (self.button + 3) % n
            }
        } else {
            (self.button + 1) % n
        }
    }

    /// What `seat` can still lose to the others: its stack, capped by the largest total
    /// (bet plus stack) of the other live seats beyond its own bet (pokerkit's effective
    /// stack: the second largest total of all live seats).
    pub fn effective_stack(&self, seat: usize) -> Chips {
        if self.folded[seat] {
            return 0;
        }
        let mut totals: Vec<Chips> = (0..self.num_players())
            .filter(|&s| !self.folded[s])
            .map(|s| self.bets[s] + self.stacks[s])
            .collect();
        totals.sort_unstable();
        let second = totals[totals.len() - 2];
        self.stacks[seat].min(second.saturating_sub(self.bets[seat]))
    }

    fn live(&self) -> usize {
        self.folded.iter().filter(|&&f| !f).count()
    }

    fn max_bet(&self) -> Chips {
        self.bets.iter().copied().max().unwrap_or(0)
    }

    /// Starts the betting round of `self.street`.
    fn begin_round(&mut self) {
        let n = self.num_players();
        let opener = self.opener();
        self.queue = (0..n)
            .map(|k| (opener + k) % n)
            .filter(|&s| !self.folded[s] && self.stacks[s] > 0 && self.effective_stack(s) > 0)
            .collect();
        self.increment = 0;
        self.short_all_ins.clear();
        self.acted.fill(false);
        let lone_matched = self.queue.len() == 1 && self.bets[self.queue[0]] >= self.max_bet();
        if self.all_in_runout || self.queue.is_empty() || self.live() <= 1 || lone_matched {
            self.end_round();
        }
    }

    /// Ends the betting round: returns the uncalled part of the largest bet, gathers the
    /// bets, then deals the next street, runs the board out, or pays.
    fn end_round(&mut self) {
        self.queue.clear();
        let n = self.num_players();
        if self.live() > 1 {
            let with_chips = (0..n)
                .filter(|&s| !self.folded[s] && self.stacks[s] > 0)
                .count();
            if with_chips <= 1 {
                self.all_in_runout = true;
            }
        }
        let mut sorted = self.bets.clone();
        sorted.sort_unstable();
        let cutoff = sorted[n - 2];
        for s in 0..n {
            if self.bets[s] > cutoff {
                let back = self.bets[s] - cutoff;
                self.stacks[s] += back;
                self.returned[s] += back;
                self.bets[s] = cutoff;
            }
            self.committed[s] += self.bets[s];
            self.bets[s] = 0;
        }
        if self.live() <= 1 || self.street == Street::River {
            self.finish();
        } else {
            self.street = match self.street {
                Street::Preflop => Street::Flop,
                Street::Flop => Street::Turn,
                _ => Street::River,
            };
            self.dealt = self.street.board_len();
            self.begin_round();
        }
    }

    /// Settles the pots and ends the hand.
    fn finish(&mut self) {
        self.final_pots = self.pots();
        let n = self.num_players();
        let live: Vec<usize> = (0..n).filter(|&s| !self.folded[s]).collect();
        if live.len() > 1 {
            self.dealt = 5;
        }
        if live.len() == 1 {
            let total: Chips = self.final_pots.iter().map(|p| p.amount).sum();
            self.won[live[0]] += total;
        } else {
            let board = self.board.iter().fold(Hand::EMPTY, |h, &c| h.add(c));
            let ranks: Vec<HandRank> = (0..n)
                .map(|s| board.add(self.hole[s][0]).add(self.hole[s][1]).rank())
                .collect();
            for pot in &self.final_pots {
                let best = pot.eligible.iter().map(|&s| ranks[s]).max();
                // Winners in order from the seat left of the button: the first gets the odd chips.
                let winners: Vec<usize> = (1..=n)
                    .map(|k| (self.button + k) % n)
                    .filter(|s| pot.eligible.contains(s) && Some(ranks[*s]) == best)
                    .collect();
                if winners.is_empty() {
                    continue;
                }
                let share = pot.amount / winners.len() as Chips;
                let odd = pot.amount % winners.len() as Chips;
                for (i, &w) in winners.iter().enumerate() {
                    self.won[w] += share + if i == 0 { odd } else { 0 };
                }
            }
        }
        for s in 0..n {
            self.stacks[s] += self.won[s];
        }
        self.street = Street::Over;
    }

    /// The pots of the chips gathered so far (bets of the current street not included),
    /// layered by contribution: each distinct contribution level makes a layer holding
    /// every seat's chips up to that level (folded seats' included), won by the live seats
    /// that reached it. Adjacent layers with the same seats merge; empty layers vanish.
    pub fn pots(&self) -> Vec<Pot> {
        let n = self.num_players();
        let mut levels: Vec<Chips> = self.committed.clone();
        levels.sort_unstable();
        levels.dedup();
        let mut pots: Vec<Pot> = Vec::new();
        let mut previous = 0;
        for level in levels {
            let mut amount: Chips = (0..n)
                .map(|s| self.committed[s].min(level) - self.committed[s].min(previous))
                .sum();
            let eligible: Vec<usize> = (0..n)
                .filter(|&s| !self.folded[s] && self.committed[s] >= level)
                .collect();
            while pots.last().is_some_and(|p| p.eligible == eligible) {
                amount += pots.pop().map_or(0, |p| p.amount);
            }
            if amount > 0 {
                pots.push(Pot { amount, eligible });
            }
            previous = level;
        }
        pots
    }

    /// The seat to act, or `None` once the hand is over.
    pub fn to_act(&self) -> Option<usize> {
        self.queue.front().copied()
    }

    /// What the seat to act may do, or `None` once the hand is over.
    pub fn legal(&self) -> Option<Legal> {
        let seat = self.to_act()?;
        let max_bet = self.max_bet();
        let (bet, stack) = (self.bets[seat], self.stacks[seat]);
        let call_amount = stack.min(max_bet - bet);
        let short_sum: Chips = self.short_all_ins.iter().sum();
        let raise = call_amount >= self.increment
            && !(!self.short_all_ins.is_empty() && short_sum < self.increment && self.acted[seat])
            && stack > max_bet - bet
            && (0..self.num_players())
                .any(|s| s != seat && !self.folded[s] && self.stacks[s] + self.bets[s] > max_bet);
        let (min_raise_to, max_raise_to) = if raise {
            let full = max_bet + self.increment.max(self.config.big_blind);
            ((stack + bet).min(full), stack + bet)
        } else {
            (0, 0)
        };
        Some(Legal {
            seat,
            fold: bet < max_bet,
            check: max_bet == bet,
            call_amount,
            raise,
            min_raise_to,
            max_raise_to,
        })
    }

    /// Applies the action of the seat to act. An illegal action (or any action once the
    /// hand is over) is an error and changes nothing.
    pub fn apply(&mut self, action: Action) -> Result<()> {
        let legal = self.legal().ok_or(Error::Invalid {
            what: "action",
            reason: "the hand is over".into(),
        })?;
        let action = match action {
            Action::AllIn if legal.raise => Action::RaiseTo(legal.max_raise_to),
            Action::AllIn if legal.check => Action::Check,
            Action::AllIn => Action::Call,
            a => a,
        };
        if !legal.allows(action) {
            return Err(illegal(action, &legal));
        }
        let seat = legal.seat;
        self.queue.pop_front();
        self.acted[seat] = true;
        self.history.push((seat, action));
        self.history_streets.push(self.street);
        match action {
            Action::Fold => self.folded[seat] = true,
            Action::Check | Action::Call => {
                self.bets[seat] += legal.call_amount;
                self.stacks[seat] -= legal.call_amount;
            }
            Action::RaiseTo(to) => {
                let n = self.num_players();
                let raise = to - self.max_bet();
                self.stacks[seat] -= to - self.bets[seat];
                self.bets[seat] = to;
                self.queue = (1..n)
                    .map(|k| (seat + k) % n)
                    .filter(|&s| !self.folded[s] && self.stacks[s] > 0)
                    .collect();
                if raise >= self.increment {
                    self.acted.fill(false);
                    self.acted[seat] = true;
                }
                self.increment = self.increment.max(raise);
                if self.stacks[seat] > 0 {
                    self.short_all_ins.clear();
                } else {
                    self.short_all_ins.push(raise);
                }
                if self.short_all_ins.iter().sum::<Chips>() >= self.increment {
                    self.short_all_ins.clear();
                }
            }
            Action::AllIn => unreachable!("resolved above"),
        }
        if self.queue.is_empty() || self.live() <= 1 {
            self.end_round();
        }
        Ok(())
    }

    /// Applies `action` for `seat`, which must be the seat to act: acting out of turn is an
    /// error and changes nothing (for callers that track seats themselves, such as a table
    /// server or a hand-history reader).
    pub fn apply_for(&mut self, seat: usize, action: Action) -> Result<()> {
        match self.to_act() {
            Some(s) if s == seat => self.apply(action),
            Some(s) => Err(Error::Invalid {
                what: "action",
                reason: format!("seat {seat} acts out of turn: seat {s} is to act"),
            }),
            None => Err(Error::Invalid {
                what: "action",
                reason: "the hand is over".into(),
            }),
        }
    }

    /// Whether the hand is over (chips paid).
    pub fn is_over(&self) -> bool {
        self.street == Street::Over
    }

    /// The current street ([`Street::Over`] once paid).
    pub fn street(&self) -> Street {
        self.street
    }

    /// Number of players (seats at the table).
    pub fn num_players(&self) -> usize {
        self.stacks.len()
    }

    /// The button seat.
    pub fn button(&self) -> usize {
        self.button
    }

    /// The table's blinds and ante.
    pub fn config(&self) -> TableConfig {
        self.config
    }

    /// Stacks at the start of the hand.
    pub fn starting_stacks(&self) -> &[Chips] {
        &self.starting
    }

    /// Chips behind each seat (final stacks once the hand is over).
    pub fn stacks(&self) -> &[Chips] {
        &self.stacks
    }

    /// Each seat's bet on the current street.
    pub fn bets(&self) -> &[Chips] {
        &self.bets
    }

    /// Chips each seat put into the pots on finished streets (antes included).
    pub fn committed(&self) -> &[Chips] {
        &self.committed
    }

    /// Chips in the middle: pots plus the bets of this street.
    pub fn pot_total(&self) -> Chips {
        self.committed.iter().sum::<Chips>() + self.bets.iter().sum::<Chips>()
    }

    /// Which seats folded.
    pub fn folded(&self) -> &[bool] {
        &self.folded
    }

    /// Whether `seat` is in the hand with no chips behind.
    pub fn is_all_in(&self, seat: usize) -> bool {
        !self.folded[seat] && self.stacks[seat] == 0
    }

    /// The hole cards of every seat.
    pub fn hole_cards(&self) -> &[[Card; 2]] {
        &self.hole
    }

    /// The five board cards of the deal (visible or not).
    pub fn full_board(&self) -> [Card; 5] {
        self.board
    }

    /// The board cards dealt so far (all five once a hand with two or more live seats is
    /// over: the board is run out when betting ends).
    pub fn board(&self) -> &[Card] {
        &self.board[..self.dealt]
    }

    /// The pots at the end of betting (empty before the hand is over).
    pub fn final_pots(&self) -> &[Pot] {
        &self.final_pots
    }

    /// Chips each seat won from the pots (0 before the end).
    pub fn winnings(&self) -> &[Chips] {
        &self.won
    }

    /// Chips returned to each seat as uncalled (bets or antes nobody matched).
    pub fn returned(&self) -> &[Chips] {
        &self.returned
    }

    /// Each seat's result: final (or current) stack minus starting stack.
    pub fn net(&self) -> Vec<i64> {
        (0..self.num_players())
            .map(|s| self.stacks[s] as i64 - self.starting[s] as i64)
            .collect()
    }

    /// The actions taken, with their seats, in order (all-ins recorded as what they
    /// resolved to).
    pub fn history(&self) -> &[(usize, Action)] {
        &self.history
    }

    /// The street of each action of [`NlHand::history`].
    pub fn history_streets(&self) -> &[Street] {
        &self.history_streets
    }

    /// Whether the hand is over with two or more seats still in (a showdown).
    pub fn went_to_showdown(&self) -> bool {
        self.is_over() && self.live() > 1
    }
}

fn illegal(action: Action, legal: &Legal) -> Error {
    let reason = match action {
        Action::RaiseTo(to) if legal.raise => format!(
            "seat {}: raise to {to} is outside {}..={}",
            legal.seat, legal.min_raise_to, legal.max_raise_to
        ),
        Action::RaiseTo(_) => format!("seat {} may not bet or raise here", legal.seat),
        Action::Fold => format!("seat {} may not fold with nothing to call", legal.seat),
        Action::Check => format!(
            "seat {} may not check facing {} to call",
            legal.seat, legal.call_amount
        ),
        Action::Call => format!("seat {} has nothing to call (check)", legal.seat),
        Action::AllIn => unreachable!("all-in is always legal"),
    };
    Error::Invalid {
        what: "action",
        reason,
    }
}

/// A reference hand played through the discrete actions of a [`NoLimitHoldem`].
#[derive(Clone, Debug)]
pub struct Reference {
    /// The batch game (abstraction, observation).
    pub(crate) game: NoLimitHoldem,
    /// The hand.
    pub(crate) hand: NlHand,
    raises_street: Vec<u16>,
    raises_total: Vec<u16>,
    street_raises: [u16; 4],
}

impl Reference {
    /// Deals like [`crate::core::Game::reset`] of the fast engine: the button (when random)
    /// from `rng`, then a shuffle of the 52 card ids.
    pub fn dealt(game: NoLimitHoldem, rng: &mut LaneRng) -> Self {
        let n = game.num_players();
        let button = match game.button() {
            Some(b) => b,
            None => rng.below(n as u32) as usize,
        };
        let mut deck: Vec<u8> = (0..DECK_SIZE as u8).collect();
        rng.shuffle(&mut deck);
        let card = |i: usize| Card::from_id(deck[i]).expect("id < 52");
        let hole: Vec<[Card; 2]> = (0..n).map(|s| [card(2 * s), card(2 * s + 1)]).collect();
        let board = [0, 1, 2, 3, 4].map(|k| card(2 * n + k));
        let hand = NlHand::new(game.table(), &game.stacks(), button, &hole, board)
            .expect("a validated game deals a valid hand");
        Reference {
            game,
            hand,
            raises_street: vec![0; n],
            raises_total: vec![0; n],
            street_raises: [0; 4],
        }
    }

    fn max_bet(&self) -> Chips {
        self.hand.bets().iter().copied().max().unwrap_or(0)
    }

    /// Each seat's result in big blinds, the rewards of a finished hand.
    fn write_results(&self, rewards: &mut [f32]) {
        let bb = self.game.table().big_blind as f32;
        for (r, x) in rewards.iter_mut().zip(self.hand.net()) {
            *r = x as f32 / bb;
        }
    }
}

impl Playable for Reference {
    fn num_players(&self) -> usize {
        self.game.num_players()
    }
    fn num_actions(&self) -> usize {
        self.game.num_actions()
    }
    fn obs_dim(&self) -> usize {
        self.game.obs_dim()
    }
    fn current_player(&self) -> usize {
        self.hand.to_act().unwrap_or(0)
    }
    fn finished(&self) -> (bool, bool) {
        (self.hand.is_over(), false)
    }
    fn legal_mask(&self, mask: &mut [u8]) {
        match self.hand.legal() {
            Some(l) => self
                .game
                .mask_of(&l, self.max_bet(), self.hand.pot_total(), mask),
            None => mask.fill(0),
        }
    }
    fn step(&mut self, action: u32, rewards: &mut [f32]) -> LaneOutcome {
        let Some(legal) = self.hand.legal() else {
            return LaneOutcome::ILLEGAL;
        };
        let act = match action {
            FOLD if legal.fold => Action::Fold,
            FOLD => return LaneOutcome::ILLEGAL,
            CHECK_CALL if legal.check => Action::Check,
            CHECK_CALL => Action::Call,
            _ => match self
                .game
                .raise_target(action, &legal, self.max_bet(), self.hand.pot_total())
            {
                Some(to) => Action::RaiseTo(to),
                None => return LaneOutcome::ILLEGAL,
            },
        };
        let street = self.hand.street();
        if self.hand.apply(act).is_err() {
            return LaneOutcome::ILLEGAL;
        }
        if let Action::RaiseTo(_) = act {
            self.raises_street[legal.seat] += 1;
            self.raises_total[legal.seat] += 1;
            self.street_raises[street as usize] += 1;
        }
        // "Raises this street" restart whenever a new street is dealt (a board run out after
        // the last action counts), and keep the last street's values when the hand ends on it.
        let live = self.hand.folded().iter().filter(|&&f| !f).count();
        let new_street = match self.hand.street() {
            Street::Over => live > 1 && street != Street::River,
            s => s != street,
        };
        if new_street {
            self.raises_street.fill(0);
        }
        if self.hand.is_over() {
            self.write_results(rewards);
        }
        LaneOutcome {
            applied: true,
            terminated: self.hand.is_over(),
            truncated: false,
        }
    }
    fn observe(&self, player: usize, obs: &mut [f32]) {
        let h = &self.hand;
        let hole: Vec<[u8; 2]> = h
            .hole_cards()
            .iter()
            .map(|c| [c[0].id(), c[1].id()])
            .collect();
        let board: Vec<u8> = h.board().iter().map(|c| c.id()).collect();
        // Every amount is at most MAX_TABLE_CHIPS (2^30), so `u32` holds it exactly.
        let small = |v: &[Chips]| -> Vec<u32> { v.iter().map(|&c| c as u32).collect() };
        let (stacks, bets, committed) = (small(h.stacks()), small(h.bets()), small(h.committed()));
        let folded = h.folded().iter().enumerate().map(|(s, &f)| (f as u32) << s).sum();
        let inputs = ObsInputs {
            num_players: h.num_players(),
            button: h.button(),
            to_act: h.to_act(),
            street: h.street() as usize,
            hole: &hole,
            board: &board,
            stacks: &stacks,
            bets: &bets,
            committed: &committed,
            folded,
            raises_street: &self.raises_street,
            raises_total: &self.raises_total,
            street_raises: self.street_raises,
            legal: h.legal(),
        };
        encode(&self.game, &inputs, player, obs);
    }

    /// The exact raise-to ids (`EXACT_RAISE | chips`), as the fast engine.
    fn is_extended_action(&self, action: u32) -> bool {
        action & super::EXACT_RAISE != 0
    }

    /// A hand over as dealt (nobody has a decision) pays each seat's result in big blinds.
    fn deal_rewards(&self, rewards: &mut [f32]) {
        if self.hand.is_over() {
            self.write_results(rewards);
        }
    }
}

/// The configuration of differential game `g`: 2, 3, 6 or 10 seats in turn, random blinds,
/// ante, stacks (many short), button and raise fractions, from a stream of its own. One game
/// in four (from a second stream, so that the others keep their configurations) is a short
/// table: antes up to four big blinds and stacks as short as one chip, so that many hands
/// are decided at the deal (every seat, or all but one facing no bet, all-in from the
/// forced bets).
pub fn diff_config(g: u64) -> NoLimitHoldem {
    let mut rng = LaneRng::for_lane(0xD1FF_401D, g, 1);
    let seats = [2, 3, 6, 10][(g % 4) as usize];
    let bb: Chips = [2, 2, 3, 10, 25, 100][rng.below(6) as usize];
    let sb: Chips = (bb / 2).max(1);
    let mut ante: Chips = if rng.below(3) == 0 {
        1 + rng.below(bb as u32) as Chips
    } else {
        0
    };
    let mut stacks: Vec<Chips> = (0..seats)
        .map(|_| {
            ante + bb
                + match rng.below(6) {
                    0 => 1 + rng.below(2 * bb as u32) as Chips,
                    1 | 2 => 1 + rng.below((12 * bb) as u32) as Chips,
                    _ => 1 + rng.below((200 * bb) as u32) as Chips,
                }
        })
        .collect();
    let fractions: &[f64] = match rng.below(3) {
        0 => &[0.5, 1.0, 2.0],
        1 => &[0.33, 0.75, 1.5, 3.0],
        _ => &[1.0],
    };
    let button = if rng.below(4) == 0 { Some(0) } else { None };
    let mut short = LaneRng::for_lane(0xD1FF_401D, g, 2);
    if short.below(4) == 0 {
        (ante, stacks) = short_table(seats, sb, bb, &mut short);
    }
    let table = TableConfig::new(sb, bb, ante).expect("valid blinds");
    NoLimitHoldem::new(seats, table, 1)
        .and_then(|g| g.with_stacks(&stacks))
        .and_then(|g| g.with_raise_fractions(fractions))
        .and_then(|g| g.with_button(button))
        .expect("valid differential configuration")
}

/// The ante and stacks of a short table (for the differential and fuzz configurations): no
/// ante, a small one or one up to four big blinds; each stack at most the ante plus the
/// small blind (3 in 8), at most the ante plus the big blind (3 in 8), a few big blinds
/// above that, or deep. Many of its hands are decided at the deal.
pub(crate) fn short_table(
    seats: usize,
    sb: Chips,
    bb: Chips,
    rng: &mut LaneRng,
) -> (Chips, Vec<Chips>) {
    let ante: Chips = match rng.below(3) {
        0 => 0,
        1 => 1 + rng.below(bb as u32) as Chips,
        _ => 1 + rng.below(4 * bb as u32) as Chips,
    };
    let stacks = (0..seats)
        .map(|_| match rng.below(8) {
            0..=2 => 1 + rng.below((ante + sb) as u32) as Chips,
            3..=5 => 1 + rng.below((ante + bb) as u32) as Chips,
            6 => ante + bb + 1 + rng.below(3 * bb as u32) as Chips,
            _ => 1 + rng.below(200 * bb as u32) as Chips,
        })
        .collect();
    (ante, stacks)
}

/// Both engines of differential game `g`, dealt from the same stream.
pub fn diff_pair(g: u64, rng: &mut LaneRng) -> (Reference, SingleLane<NoLimitHoldem>) {
    let game = diff_config(g);
    let reference = Reference::dealt(game, &mut rng.clone());
    let fast = SingleLane::new(game, rng.clone());
    (reference, fast)
}

/// Checks that a reference lane and a fast lane hold the same hidden and public state:
/// stacks, bets, pots, folds and cards.
pub fn compare_hidden(
    r: &Reference,
    f: &SingleLane<NoLimitHoldem>,
) -> std::result::Result<(), String> {
    let (h, s) = (&r.hand, &f.state);
    let n = h.num_players();
    for seat in 0..n {
        if h.stacks()[seat] != s.stacks[seat] as Chips
            || h.bets()[seat] != s.bets[seat] as Chips
            || h.committed()[seat] != s.committed[seat] as Chips
            || h.folded()[seat] != (s.folded >> seat & 1 != 0)
            || h.hole_cards()[seat].map(|c| c.id()) != s.hole[seat]
        {
            return Err(format!("seat {seat} differs"));
        }
    }
    if h.full_board().map(|c| c.id()) != s.board || f.game.legal(s) != h.legal() {
        return Err("board or legal options differ".into());
    }
    Ok(())
}
