//! The fast lane engine: one game in a fixed-size `Copy` state of per-card-id counts, the
//! deck order, and the public event scheduler as a 32-slot ring of packed `u16` events.
//!
//! The step mirrors game-room's scheduler (`_advance`): chance events run until the next
//! decision (Hit/Stay, or a target for a pending action card) or the end of the game. The
//! scheduler is part of the observation, so its exact contents are kept.

use bytemuck::{Pod, Zeroable};

use super::*;
use crate::core::simd::one_hot_u8;
use crate::core::{Game, LaneOutcome, LaneRng, Result};

/// Capacity of the event ring. The scheduler never holds more than 29 events: 18 opening
/// deals, 1 turn, 3 forced draws, 1 end of a Flip Three and 6 deferred actions.
pub(crate) const TASK_CAPACITY: usize = 32;

/// A packed scheduled event: `kind | seat << 3 | card << 8`.
#[inline]
const fn task(kind: u8, seat: u8, card: u8) -> u16 {
    kind as u16 | (seat as u16) << 3 | (card as u16) << 8
}

/// Unpacks a scheduled event into `(kind, seat, card)`.
#[inline]
pub(crate) const fn unpack_task(t: u16) -> (u8, u8, u8) {
    ((t & 7) as u8, (t >> 3 & 31) as u8, (t >> 8) as u8)
}

/// One lane of Flip 7. Seats `>= num_players` stay zero.
///
/// The fields are laid out by how often a step touches them (scalars and the event ring,
/// the per-seat bytes, the discard counts and banked totals, the deck, the hands, the last
/// round's scores), so that a small table's step works in about half of the state's cache
/// lines: at thousands of lanes the states live beyond L2.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Pod, Zeroable)]
#[repr(C)]
pub struct Flip7State {
    /// Cards in the draw pile.
    pub(crate) deck_len: u8,
    /// Cards in the last shuffle (see `deck`).
    pub(crate) shuffled_len: u8,
    /// Cards in the discard pile.
    pub(crate) discard_len: u8,
    /// First event of the ring.
    pub(crate) task_head: u8,
    /// Events in the ring.
    pub(crate) task_len: u8,
    /// Entries of `deferred` in use.
    pub(crate) deferred_len: u8,
    /// The action card waiting for a target, or [`NO_CARD`].
    pub(crate) pending: u8,
    /// Seat to act (0 once the game is over, as game-room).
    pub(crate) to_act: u8,
    /// Dealer seat; dealing and turns start on its left.
    pub(crate) dealer: u8,
    /// The seat that flipped seven numbers this round, or [`NO_SEAT`].
    pub(crate) flip7: u8,
    /// 1 when a draw found both piles empty (the round is banked).
    pub(crate) exhausted: u8,
    /// 0 running, 1 terminated (target reached), 2 truncated (`max_rounds`).
    pub(crate) end: u8,
    /// 1 if the last applied step may have changed the discard pile.
    pub(crate) obs_discard: u8,
    /// Events in the ring before the last applied step (how much of the observation's
    /// event block was in use).
    pub(crate) obs_task_len: u8,
    /// Deferred action cards before the last applied step (the observation's deferred
    /// block is rewritten only if some were held before or after it).
    pub(crate) obs_deferred_len: u8,
    _pad0: u8,
    /// Shuffles so far (the opening shuffle counts).
    pub(crate) shuffles: u16,
    _pad1: [u8; 2],
    /// Seats still [`ACTIVE`], as bits (seat `p` is bit `p`).
    pub(crate) active: u32,
    /// Seats (bit `p`) whose observation row (score, status, hand) the last applied step
    /// may have changed: what [`Game::observe_update`] rewrites.
    pub(crate) obs_seats: u32,
    /// Round number, 1-based.
    pub(crate) round: u32,
    /// The last completed round (0 before the first round ends).
    pub(crate) completed_round: u32,
    /// Scheduled events, a ring of [`TASK_CAPACITY`] packed events from `task_head`.
    pub(crate) tasks: [u16; TASK_CAPACITY],
    /// Round status of each seat ([`ACTIVE`], [`STAYED`], [`BUSTED`], [`FROZEN`]).
    pub(crate) status: [u8; MAX_PLAYERS],
    /// Number cards in front of each seat (a busted seat counts its duplicate).
    pub(crate) numbers: [u8; MAX_PLAYERS],
    /// All cards in front of each seat.
    pub(crate) held: [u8; MAX_PLAYERS],
    /// Sum of the number cards in front of each seat (kept as cards arrive).
    pub(crate) number_sum: [u8; MAX_PLAYERS],
    /// Sum of the +N modifiers in front of each seat (kept as cards arrive).
    pub(crate) plus_sum: [u8; MAX_PLAYERS],
    /// Action cards drawn during a Flip Three, in draw order.
    pub(crate) deferred: [u8; OBS_DEFERRED_SLOTS],
    /// Discard pile, counts per card id.
    pub(crate) discard: [u8; CARD_IDS],
    _pad2: u8,
    /// Banked totals.
    pub(crate) scores: [u32; MAX_PLAYERS],
    /// The draw pile is `deck[..deck_len]`, its top at `deck_len - 1` (as game-room's
    /// list). Right after a shuffle, `deck[..shuffled_len]` is the shuffled order, and the
    /// cards drawn since stay readable above `deck_len` until the next shuffle.
    pub(crate) deck: [u8; DECK_SIZE],
    /// Cards in front of each seat this round, as counts per card id.
    pub(crate) hands: [[u8; CARD_IDS]; MAX_PLAYERS],
    _pad3: [u8; 2],
    /// Each seat's points in the last completed round (`info["round_scores"]`).
    pub(crate) round_scores: [u32; MAX_PLAYERS],
}

impl Flip7State {
    /// Whether the game is over.
    #[inline]
    pub fn is_over(&self) -> bool {
        self.end != 0
    }

    /// The scheduled event at position `i` of the queue, as `(kind, seat, card)`.
    #[inline]
    pub fn task_at(&self, i: usize) -> (u8, u8, u8) {
        unpack_task(self.tasks[(self.task_head as usize + i) % TASK_CAPACITY])
    }

    /// Number of scheduled events (positions `0..task_count()` of [`Flip7State::task_at`]).
    #[inline]
    pub fn task_count(&self) -> usize {
        self.task_len as usize
    }

    /// Action cards drawn during a Flip Three and held until it ends, in draw order.
    #[inline]
    pub fn deferred(&self) -> &[u8] {
        &self.deferred[..self.deferred_len as usize]
    }

    /// The draw pile, bottom first (its top is the last card).
    #[inline]
    pub fn draw_pile(&self) -> &[u8] {
        &self.deck[..self.deck_len as usize]
    }

    /// The order the last shuffle produced, bottom first (game-room's list after
    /// `shuffle`).
    #[inline]
    pub fn last_shuffle(&self) -> &[u8] {
        &self.deck[..self.shuffled_len as usize]
    }

    /// The pending action card, if a target is to be chosen.
    #[inline]
    pub fn pending_card(&self) -> Option<u8> {
        (self.pending != NO_CARD).then_some(self.pending)
    }

    /// The seat that flipped seven this round, if any.
    #[inline]
    pub fn flip7_seat(&self) -> Option<usize> {
        (self.flip7 != NO_SEAT).then_some(self.flip7 as usize)
    }

    /// The cards in front of `seat` this round, as counts per card id (all zero for a seat
    /// at or beyond the game's `num_players`).
    #[inline]
    pub fn hand(&self, seat: usize) -> &[u8; CARD_IDS] {
        &self.hands[seat]
    }

    /// The round status of `seat`: [`ACTIVE`], [`STAYED`], [`BUSTED`] or [`FROZEN`].
    #[inline]
    pub fn status(&self, seat: usize) -> u8 {
        self.status[seat]
    }

    /// Banked totals, one per seat up to [`MAX_PLAYERS`] (0 from the game's `num_players`
    /// on).
    #[inline]
    pub fn scores(&self) -> &[u32; MAX_PLAYERS] {
        &self.scores
    }

    /// Each seat's points in the last completed round (game-room's
    /// `info["round_scores"]`), laid out as [`Flip7State::scores`].
    #[inline]
    pub fn round_scores(&self) -> &[u32; MAX_PLAYERS] {
        &self.round_scores
    }

    /// The round being played, from 1.
    #[inline]
    pub fn round(&self) -> u32 {
        self.round
    }

    /// The last completed round (0 before the first round ends).
    #[inline]
    pub fn completed_round(&self) -> u32 {
        self.completed_round
    }

    /// The dealer seat (dealing and turns start on its left).
    #[inline]
    pub fn dealer(&self) -> usize {
        self.dealer as usize
    }

    /// The discard pile, as counts per card id.
    #[inline]
    pub fn discard(&self) -> &[u8; CARD_IDS] {
        &self.discard
    }

    /// Sets a seat's round status, keeping the active-seat bits (for building test
    /// positions; play changes statuses only through the rules).
    #[cfg(test)]
    pub(crate) fn set_seat_status(&mut self, seat: usize, status: u8) {
        self.active = self.active & !(1 << seat) | ((status == ACTIVE) as u32) << seat;
        self.status[seat] = status;
        self.obs_seats |= 1 << seat;
    }

    /// Starts the change record of an applied step (see `obs_seats`).
    #[inline]
    fn begin_step(&mut self) {
        self.obs_seats = 0;
        self.obs_discard = 0;
        self.obs_task_len = self.task_len;
        self.obs_deferred_len = self.deferred_len;
    }

    /// Every part of the observation may have changed (a round ended or started).
    #[inline]
    fn touch_all(&mut self) {
        self.obs_seats = u32::MAX;
        self.obs_discard = 1;
    }

    #[inline]
    fn push_back(&mut self, t: u16) {
        debug_assert!((self.task_len as usize) < TASK_CAPACITY);
        let i = (self.task_head as usize + self.task_len as usize) % TASK_CAPACITY;
        self.tasks[i] = t;
        self.task_len += 1;
    }

    #[inline]
    fn push_front(&mut self, t: u16) {
        debug_assert!((self.task_len as usize) < TASK_CAPACITY);
        self.task_head = ((self.task_head as usize + TASK_CAPACITY - 1) % TASK_CAPACITY) as u8;
        self.tasks[self.task_head as usize] = t;
        self.task_len += 1;
    }

    #[inline]
    fn pop_front(&mut self) -> (u8, u8, u8) {
        debug_assert!(self.task_len > 0);
        let t = self.tasks[self.task_head as usize];
        self.task_head = ((self.task_head as usize + 1) % TASK_CAPACITY) as u8;
        self.task_len -= 1;
        unpack_task(t)
    }

    #[inline(always)]
    fn give(&mut self, seat: usize, card: u8) {
        self.hands[seat][card as usize] += 1;
        self.held[seat] += 1;
        if is_number(card) {
            self.number_sum[seat] += card;
        } else if (PLUS_2..=PLUS_10).contains(&card) {
            self.plus_sum[seat] += plus_value(card) as u8;
        }
        self.obs_seats |= 1 << seat;
    }

    #[inline]
    fn discard_card(&mut self, card: u8) {
        self.discard[card as usize] += 1;
        self.discard_len += 1;
        self.obs_discard = 1;
    }

    #[inline]
    fn set_status(&mut self, seat: usize, status: u8) {
        debug_assert_eq!(self.status[seat], ACTIVE);
        self.status[seat] = status;
        self.active &= !(1 << seat);
        self.obs_seats |= 1 << seat;
    }

    fn blank() -> Flip7State {
        Flip7State {
            _pad0: 0,
            _pad1: [0; 2],
            _pad2: 0,
            _pad3: [0; 2],
            hands: [[0; CARD_IDS]; MAX_PLAYERS],
            scores: [0; MAX_PLAYERS],
            round_scores: [0; MAX_PLAYERS],
            round: 0,
            completed_round: 0,
            tasks: [0; TASK_CAPACITY],
            deck: [0; DECK_SIZE],
            discard: [0; CARD_IDS],
            status: [0; MAX_PLAYERS],
            numbers: [0; MAX_PLAYERS],
            held: [0; MAX_PLAYERS],
            number_sum: [0; MAX_PLAYERS],
            plus_sum: [0; MAX_PLAYERS],
            deferred: [0; OBS_DEFERRED_SLOTS],
            deck_len: 0,
            shuffled_len: 0,
            discard_len: 0,
            task_head: 0,
            task_len: 0,
            deferred_len: 0,
            pending: NO_CARD,
            to_act: 0,
            dealer: 0,
            flip7: NO_SEAT,
            active: 0,
            exhausted: 0,
            end: 0,
            shuffles: 0,
            obs_seats: 0,
            obs_discard: 0,
            obs_task_len: 0,
            obs_deferred_len: 0,
        }
    }
}

impl Flip7 {
    /// The points seat `p` would score if the round ended now (0 once busted): numbers,
    /// doubled by x2, plus modifiers, plus the Flip 7 bonus.
    #[inline]
    pub fn round_score(&self, s: &Flip7State, p: usize) -> u32 {
        if s.status[p] == BUSTED {
            return 0;
        }
        let mut total = s.number_sum[p] as u32;
        if s.hands[p][TIMES_2 as usize] > 0 {
            total *= 2;
        }
        total += s.plus_sum[p] as u32;
        if s.flip7 as usize == p {
            total += FLIP7_BONUS;
        }
        total
    }

    /// Whether `target` may receive `card` drawn by `player` (game-room's `_targets`):
    /// any active seat, and for a Second Chance only another active seat without one.
    #[inline]
    pub fn is_target(&self, s: &Flip7State, player: usize, card: u8, target: usize) -> bool {
        target < self.num_players()
            && s.status[target] == ACTIVE
            && (card != SECOND_CHANCE
                || (target != player && s.hands[target][SECOND_CHANCE as usize] == 0))
    }

    fn has_target(&self, s: &Flip7State, player: usize, card: u8) -> bool {
        (0..self.num_players()).any(|t| self.is_target(s, player, card, t))
    }

    /// A new game from a checked deck order (top at the end), before any chance event.
    fn start_game(&self, order: &[u8; DECK_SIZE]) -> Flip7State {
        let mut s = Flip7State::blank();
        s.deck = *order;
        s.deck_len = DECK_SIZE as u8;
        s.shuffled_len = DECK_SIZE as u8;
        s.shuffles = 1;
        self.start_round(&mut s);
        s
    }

    fn start_round(&self, s: &mut Flip7State) {
        let n = self.num_players();
        s.round += 1;
        s.touch_all();
        s.status = [ACTIVE; MAX_PLAYERS];
        s.active = all_seats(n);
        s.flip7 = NO_SEAT;
        s.exhausted = 0;
        s.pending = NO_CARD;
        s.deferred_len = 0;
        s.task_head = 0;
        s.task_len = 0;
        let first = next_seat(s.dealer as usize, n);
        let mut seat = first;
        for _ in 0..n {
            s.push_back(task(TASK_DEAL, seat as u8, 0));
            seat = next_seat(seat, n);
        }
        s.push_back(task(TASK_TURN, first as u8, 0));
    }

    /// Refills an empty draw pile from the discard pile: its cards in ascending id order,
    /// shuffled by the lane's stream.
    fn recycle<L: FnMut(&[u8])>(&self, s: &mut Flip7State, rng: &mut LaneRng, log: &mut L) {
        let mut k = 0;
        for card in 0..CARD_IDS {
            for _ in 0..s.discard[card] {
                s.deck[k] = card as u8;
                k += 1;
            }
        }
        s.discard = [0; CARD_IDS];
        s.discard_len = 0;
        s.obs_discard = 1;
        rng.shuffle(&mut s.deck[..k]);
        s.deck_len = k as u8;
        s.shuffled_len = k as u8;
        s.shuffles = s.shuffles.wrapping_add(1);
        log(&s.deck[..k]);
    }

    #[inline(always)]
    fn draw<L: FnMut(&[u8])>(
        &self,
        s: &mut Flip7State,
        p: usize,
        forced: bool,
        rng: &mut LaneRng,
        log: &mut L,
    ) {
        if s.deck_len == 0 {
            self.recycle(s, rng, log);
            if s.deck_len == 0 {
                s.exhausted = 1;
                return;
            }
        }
        s.deck_len -= 1;
        let card = s.deck[s.deck_len as usize];
        if is_number(card) {
            if s.hands[p][card as usize] > 0 {
                if s.hands[p][SECOND_CHANCE as usize] > 0 {
                    s.hands[p][SECOND_CHANCE as usize] -= 1;
                    s.held[p] -= 1;
                    s.obs_seats |= 1 << p;
                    s.discard_card(SECOND_CHANCE);
                    s.discard_card(card);
                    return;
                }
                s.set_status(p, BUSTED);
            }
            s.give(p, card);
            s.numbers[p] += 1;
            if s.status[p] != BUSTED && s.numbers[p] == FLIP7_CARDS {
                s.flip7 = p as u8;
            }
        } else if is_modifier(card) {
            s.give(p, card);
        } else if card == SECOND_CHANCE {
            if s.hands[p][SECOND_CHANCE as usize] == 0 {
                s.give(p, card);
            } else if self.has_target(s, p, card) {
                s.pending = card;
                s.to_act = p as u8;
            } else {
                s.discard_card(card);
            }
        } else if forced {
            s.deferred[s.deferred_len as usize] = card;
            s.deferred_len += 1;
        } else {
            s.pending = card;
            s.to_act = p as u8;
        }
    }

    /// Runs chance events until a decision or the end of the game (game-room's `_advance`).
    #[inline(always)]
    fn advance<L: FnMut(&[u8])>(
        &self,
        s: &mut Flip7State,
        rng: &mut LaneRng,
        rewards: &mut [f32],
        log: &mut L,
    ) {
        let n = self.num_players();
        loop {
            // One branch for the three ends of a round (`|`, not `||`).
            if ((s.flip7 != NO_SEAT) | (s.active == 0) | (s.exhausted != 0))
                && self.finish_round(s, rewards)
            {
                return;
            }
            if s.pending != NO_CARD {
                return;
            }
            if s.task_len == 1 {
                // The common case, a lone turn event: what the loop below would do, turn
                // after turn, until an active seat (there is one, or the round would have
                // ended) takes its turn and schedules the next.
                let (kind, seat, _) = s.task_at(0);
                if kind == TASK_TURN {
                    // The first active seat from `seat` on, found from the bits without a
                    // loop (which mispredicted on every skipped seat).
                    let seat = seat as usize;
                    let from = s.active & (u32::MAX << seat);
                    let p = (if from != 0 { from } else { s.active }).trailing_zeros() as usize;
                    let skipped = if p >= seat { p - seat } else { p + n - seat };
                    s.task_head = ((s.task_head as usize + skipped + 1) % TASK_CAPACITY) as u8;
                    s.tasks[s.task_head as usize] = task(TASK_TURN, next_seat(p, n) as u8, 0);
                    s.to_act = p as u8;
                    return;
                }
            }
            let (kind, seat, card) = s.pop_front();
            let p = seat as usize;
            match kind {
                TASK_TURN => {
                    s.push_back(task(TASK_TURN, next_seat(p, n) as u8, 0));
                    if s.status[p] == ACTIVE {
                        s.to_act = seat;
                        return;
                    }
                }
                TASK_DEAL | TASK_FORCED_DRAW => {
                    if s.status[p] == ACTIVE {
                        self.draw(s, p, kind == TASK_FORCED_DRAW, rng, log);
                    }
                }
                TASK_END_THREE => {
                    let deferred = s.deferred;
                    let len = s.deferred_len as usize;
                    if s.status[p] == BUSTED {
                        for &c in &deferred[..len] {
                            s.give(p, c);
                        }
                    } else {
                        for &c in deferred[..len].iter().rev() {
                            s.push_front(task(TASK_RESOLVE, seat, c));
                        }
                    }
                    s.deferred_len = 0;
                }
                _ => {
                    debug_assert_eq!(kind, TASK_RESOLVE);
                    if s.status[p] == BUSTED {
                        s.give(p, card);
                    } else {
                        s.pending = card;
                        s.to_act = seat;
                    }
                }
            }
        }
    }

    /// Scores the round, moves every card on the table to the discard pile, and either ends
    /// the game (returns `true`) or starts the next round with the next dealer.
    fn finish_round(&self, s: &mut Flip7State, rewards: &mut [f32]) -> bool {
        let n = self.num_players();
        s.touch_all();
        let mut best = 0;
        for (p, reward) in rewards.iter_mut().enumerate().take(n) {
            let points = self.round_score(s, p);
            s.scores[p] += points;
            s.round_scores[p] = points;
            *reward += points as f32;
            best = best.max(s.scores[p]);
        }
        for p in 0..n {
            add_counts(&mut s.discard, &s.hands[p]);
            s.discard_len += s.held[p];
            s.hands[p] = [0; CARD_IDS];
            s.held[p] = 0;
            s.number_sum[p] = 0;
            s.plus_sum[p] = 0;
            s.numbers[p] = 0;
        }
        for i in 0..s.deferred_len as usize {
            s.discard_card(s.deferred[i]);
        }
        for i in 0..s.task_len as usize {
            let (kind, _, card) = s.task_at(i);
            if kind == TASK_RESOLVE {
                s.discard_card(card);
            }
        }
        if s.pending != NO_CARD {
            s.discard_card(s.pending);
        }
        s.task_len = 0;
        s.task_head = 0;
        s.deferred_len = 0;
        s.pending = NO_CARD;
        s.completed_round = s.round;
        let finished = best >= self.target_score;
        let truncated = !finished && self.max_rounds > 0 && s.round >= self.max_rounds;
        if finished || truncated {
            s.end = if finished { 1 } else { 2 };
            s.to_act = 0;
            return true;
        }
        s.dealer = next_seat(s.dealer as usize, n) as u8;
        self.start_round(s);
        false
    }

    /// [`Game::reset`] that also reports the opening shuffle's order to `log`.
    pub fn reset_logged<L: FnMut(&[u8])>(&self, rng: &mut LaneRng, log: &mut L) -> Flip7State {
        let mut order = make_deck();
        rng.shuffle(&mut order);
        log(&order);
        let mut s = self.start_game(&order);
        self.advance(&mut s, rng, &mut [0.0; MAX_PLAYERS], log);
        s
    }

    /// [`Game::step`] that also reports the order of every discard pile recycled during the
    /// step to `log` (bottom first, top last: the list game-room's `shuffle` must produce).
    #[inline(always)]
    pub fn step_logged<L: FnMut(&[u8])>(
        &self,
        s: &mut Flip7State,
        action: u32,
        rng: &mut LaneRng,
        rewards: &mut [f32],
        log: &mut L,
    ) -> LaneOutcome {
        let n = self.num_players();
        if s.end != 0 || action >= TARGET_OFFSET + n as u32 {
            return LaneOutcome::ILLEGAL;
        }
        let p = s.to_act as usize;
        if s.pending != NO_CARD {
            let Some(t) = action.checked_sub(TARGET_OFFSET) else {
                return LaneOutcome::ILLEGAL;
            };
            let t = t as usize;
            let card = s.pending;
            if !self.is_target(s, p, card, t) {
                return LaneOutcome::ILLEGAL;
            }
            s.begin_step();
            s.pending = NO_CARD;
            s.give(t, card);
            if card == FREEZE {
                s.set_status(t, FROZEN);
            } else if card == FLIP_THREE {
                s.push_front(task(TASK_END_THREE, t as u8, 0));
                for _ in 0..3 {
                    s.push_front(task(TASK_FORCED_DRAW, t as u8, 0));
                }
            }
        } else if action == STAY {
            if s.held[p] == 0 {
                return LaneOutcome::ILLEGAL;
            }
            s.begin_step();
            s.set_status(p, STAYED);
        } else if action == HIT {
            s.begin_step();
            self.draw(s, p, false, rng, log);
        } else {
            return LaneOutcome::ILLEGAL;
        }
        self.advance(s, rng, rewards, log);
        LaneOutcome {
            applied: true,
            terminated: s.end == 1,
            truncated: s.end == 2,
        }
    }

    /// [`Game::reset_from_order`] as a plain function (the order's top is its last card).
    pub fn deal_order(&self, order: &[u8]) -> Result<Flip7State> {
        let order = check_order(order)?;
        let mut s = self.start_game(&order);
        // The opening deal of round 1 draws at most 18 + 3 * 3 cards: no reshuffle.
        let mut unused = LaneRng::from_seed(0);
        self.advance(
            &mut s,
            &mut unused,
            &mut [0.0; MAX_PLAYERS],
            &mut |_: &[u8]| {},
        );
        Ok(s)
    }

    /// A controlled position, as game-room's test helper `position(hands, draws)` builds
    /// it: round 1, dealer 0, every seat active with the given cards and a banked total of
    /// 0, seat 0 to act with an ordinary turn of seat 1 scheduled next, an empty discard
    /// pile, and a draw pile of the remaining cards (ascending ids) under `draws`, which
    /// are drawn first to last. Fails if the cards are not in the deck.
    pub fn position(&self, hands: &[&[u8]], draws: &[u8]) -> Result<Flip7State> {
        let n = self.num_players();
        crate::core::Error::check_len("hands", n, hands.len())?;
        let mut left = CARD_COPIES;
        let mut s = Flip7State::blank();
        for &c in hands.iter().flat_map(|h| h.iter()).chain(draws) {
            let slot = left.get_mut(c as usize).filter(|k| **k > 0);
            let Some(k) = slot else {
                return Err(crate::core::Error::Invalid {
                    what: "position",
                    reason: format!("card {c} is not left in the deck"),
                });
            };
            *k -= 1;
        }
        for (p, hand) in hands.iter().enumerate() {
            for &c in hand.iter() {
                s.give(p, c);
                s.numbers[p] += is_number(c) as u8;
            }
        }
        let mut k = 0;
        for (card, &copies) in left.iter().enumerate() {
            for _ in 0..copies {
                s.deck[k] = card as u8;
                k += 1;
            }
        }
        for &c in draws.iter().rev() {
            s.deck[k] = c;
            k += 1;
        }
        s.deck_len = k as u8;
        s.round = 1;
        s.active = all_seats(n);
        s.push_back(task(TASK_TURN, 1, 0));
        Ok(s)
    }

    /// The seats that share the win once the game is over (the highest banked total); empty
    /// while the game runs or after truncation.
    pub fn winners(&self, s: &Flip7State) -> Vec<usize> {
        if s.end != 1 {
            return Vec::new();
        }
        let scores = &s.scores[..self.num_players()];
        let best = scores.iter().copied().max().unwrap_or(0);
        (0..self.num_players())
            .filter(|&p| scores[p] == best)
            .collect()
    }
}

impl Game for Flip7 {
    type State = Flip7State;

    /// The forfeit rule (`on_illegal = lose`): the offender gives up its banked total
    /// (reward minus it, so that its summed rewards, its final score, come to 0, the lowest
    /// score there is) and the points of the round in play; the other seats keep their
    /// banked totals (reward 0).
    #[inline]
    fn forfeit_rewards(&self, s: &Flip7State, offender: usize, rewards: &mut [f32]) -> bool {
        rewards[offender] = -(s.scores[offender] as f32);
        true
    }

    fn num_players(&self) -> usize {
        self.num_players()
    }
    fn num_actions(&self) -> usize {
        TARGET_OFFSET as usize + self.num_players()
    }
    fn obs_dim(&self) -> usize {
        self.obs_dim()
    }

    fn reset(&self, rng: &mut LaneRng) -> Flip7State {
        self.reset_logged(rng, &mut |_: &[u8]| {})
    }

    fn reset_from_order(&self, order: &[u8]) -> Result<Flip7State> {
        self.deal_order(order)
    }

    fn check_state(&self, s: &Flip7State) -> std::result::Result<(), String> {
        super::checks::check_state(self, s)
    }

    #[inline]
    fn current_player(&self, s: &Flip7State) -> usize {
        s.to_act as usize
    }

    #[inline]
    fn finished(&self, s: &Flip7State) -> (bool, bool) {
        (s.end == 1, s.end == 2)
    }

    #[inline(always)]
    fn legal_mask(&self, s: &Flip7State, mask: &mut [u8]) {
        // As bits first, then one SIMD-within-a-register spread (a `fill` of a few bytes
        // would cost a `memset` call).
        let p = s.to_act as usize;
        let mut bits = 0u128;
        if s.end == 0 {
            if s.pending == NO_CARD {
                bits = 1 << HIT | ((s.held[p] > 0) as u128) << STAY;
            } else {
                for t in 0..self.num_players() {
                    bits |= (self.is_target(s, p, s.pending, t) as u128)
                        << (TARGET_OFFSET as usize + t);
                }
            }
        }
        one_hot_u8(bits, mask);
    }

    #[inline(always)]
    fn step(
        &self,
        s: &mut Flip7State,
        action: u32,
        rng: &mut LaneRng,
        rewards: &mut [f32],
    ) -> LaneOutcome {
        self.step_logged(s, action, rng, rewards, &mut |_: &[u8]| {})
    }

    /// The row's layout (`Flip7::encode_format`).
    fn obs_format(&self) -> crate::core::ObsFormat {
        self.encode_format()
    }

    #[inline]
    fn observe_u8(&self, s: &Flip7State, player: usize, bytes: &mut [u8], tail: &mut [f32]) -> bool {
        self.encode_u8(s, player, bytes, tail)
    }

    fn observe(&self, s: &Flip7State, player: usize, obs: &mut [f32]) {
        self.encode_f32(s, player, obs)
    }

    /// Inlined into the batch loop: as a call of its own it cost 5% of the observed step
    /// (docs/performance.md, issue 29).
    #[inline(always)]
    fn observe_update(&self, s: &Flip7State, player: usize, obs: &mut [f32]) -> bool {
        self.encode_update(s, player, obs)
    }

    /// Asks for the header's line, which every update writes. Prefetching more of the likely
    /// lines (acting seat, start of the event block, deferred cards) was no faster than
    /// leaving them to the stores (docs/flip7.md, "Speed").
    #[inline]
    fn prefetch_observe_update(&self, _s: &Flip7State, obs: &[f32]) {
        crate::core::simd::prefetch(&obs[..OBS_HEADER]);
    }
}

/// The bits of seats `0..n`.
#[inline(always)]
pub(super) fn all_seats(n: usize) -> u32 {
    (1 << n) - 1
}

/// The seat after `p` of `n` (a compare instead of the division of `% n`).
#[inline(always)]
fn next_seat(p: usize, n: usize) -> usize {
    if p + 1 == n {
        0
    } else {
        p + 1
    }
}

/// `into[c] += from[c]` for every card id, as two wide integers: no count reaches 256
/// (there are 94 cards), so no byte carries into the next.
#[inline(always)]
fn add_counts(into: &mut [u8; CARD_IDS], from: &[u8; CARD_IDS]) {
    let word = |b: &[u8; CARD_IDS]| {
        let mut lo = [0u8; 16];
        let mut hi = [0u8; 8];
        lo.copy_from_slice(&b[..16]);
        hi[..CARD_IDS - 16].copy_from_slice(&b[16..]);
        (u128::from_le_bytes(lo), u64::from_le_bytes(hi))
    };
    let (a_lo, a_hi) = word(into);
    let (b_lo, b_hi) = word(from);
    into[..16].copy_from_slice(&(a_lo + b_lo).to_le_bytes());
    into[16..].copy_from_slice(&(a_hi + b_hi).to_le_bytes()[..CARD_IDS - 16]);
}
