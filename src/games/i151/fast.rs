//! The fast lane engine: a match of 151 in a 192-byte `Pod` state of 32-bit card sets, the
//! bank and played pile as small ordered arrays, flags, then the match seed (36 bytes, read
//! only when a round is dealt, so the fields a step touches stay in the first 120) and 36
//! zero bytes that make the state three whole cache lines.
//!
//! Every rule follows `i151_engine` 0.2.4 (`core/legal_actions.py`, `core/reducer.py`,
//! `core/scoring.py`, `game/round.py`); `docs/151.md` lists them. The one deliberate
//! difference: when the 2-player Queen draw refills the bank from the played pile, the pile
//! is emptied (0.2.4 leaves it in place and so duplicates cards).

use bytemuck::{Pod, Zeroable};

use super::view::{encode_state, PlayerView};
use super::*;
use crate::core::simd::one_hot_u8;
use crate::core::{Error, Game, LaneOutcome, LaneRng, Result};

/// Flag: the player to act must announce a suit (an eight was played).
pub(crate) const FLAG_CHOOSE_SUIT: u8 = 1;
/// Flag: an ace is on top: the next draw takes two cards and ends the turn.
pub(crate) const FLAG_ACE_EFFECT: u8 = 2;
/// Flag: a queen was played: the next seat will be skipped.
pub(crate) const FLAG_SKIP_NEXT: u8 = 4;

/// Match status: being played.
pub(crate) const STATUS_PLAYING: u8 = 0;
/// Match status: over (at most one seat not excluded).
pub(crate) const STATUS_TERMINATED: u8 = 1;
/// Match status: cut off by the per-round step limit.
pub(crate) const STATUS_TRUNCATED: u8 = 2;

const EIGHTS: u32 = rank_set(EIGHT);
const ACES: u32 = rank_set(ACE);

/// One lane: a whole match of 151.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Pod, Zeroable)]
#[repr(C)]
pub struct I151State {
    /// Each seat's hand (empty for excluded seats).
    pub(crate) hands: [u32; MAX_PLAYERS],
    /// The cards of the played pile.
    pub(crate) pile_set: u32,
    /// Cards dealt this round to excluded seats: out of play until the next deal (the
    /// official engine deals them and drops them).
    pub(crate) dead: u32,
    /// Total scores.
    pub(crate) scores: [i16; MAX_PLAYERS],
    /// The round being played, from 1.
    pub(crate) round_number: u16,
    /// Actions applied in the current round.
    pub(crate) round_steps: u16,
    /// The bank: `bank[bank_head..bank_tail]`, drawn from the front.
    pub(crate) bank: [u8; DECK_SIZE],
    /// The played pile, oldest first: `pile[..pile_len]`.
    pub(crate) pile: [u8; DECK_SIZE],
    /// Consecutive round wins of each seat (the third takes 10 points off and resets).
    pub(crate) consecutive: [u8; MAX_PLAYERS],
    /// Front of the bank.
    pub(crate) bank_head: u8,
    /// End of the bank.
    pub(crate) bank_tail: u8,
    /// Height of the played pile.
    pub(crate) pile_len: u8,
    /// The card the next play must match, or [`NO_CARD`]. It stays after a refill empties
    /// the pile, as in the official engine.
    pub(crate) top: u8,
    /// The suit imposed by an eight, or [`NO_SUIT`].
    pub(crate) required_suit: u8,
    /// The seat to act.
    pub(crate) to_act: u8,
    /// The seat dealing this round.
    pub(crate) dealer: u8,
    /// [`FLAG_CHOOSE_SUIT`], [`FLAG_ACE_EFFECT`], [`FLAG_SKIP_NEXT`].
    pub(crate) flags: u8,
    /// Seats that have drawn this turn (bit per seat).
    pub(crate) drawn: u8,
    /// Seats chaining same-rank plays (bit per seat).
    pub(crate) chaining: u8,
    /// Excluded seats (bit per seat).
    pub(crate) excluded: u8,
    /// The last round winner, or [`NO_SEAT`].
    pub(crate) last_winner: u8,
    /// The match winner once over, or [`NO_SEAT`].
    pub(crate) winner: u8,
    /// [`STATUS_PLAYING`], [`STATUS_TERMINATED`] or [`STATUS_TRUNCATED`].
    pub(crate) status: u8,
    /// Cards put down by the last action (0 after a draw).
    pub(crate) last_play_count: u8,
    /// Number of seats.
    pub(crate) num_players: u8,
    /// The match seed: round `r` is dealt by `random.Random(match_seed + r).shuffle`. Last,
    /// as it is read only when a round is dealt.
    pub(crate) match_seed: MatchSeed,
    /// Zero: pads the state to 192 bytes, three cache lines, so that in the batch's
    /// 64-byte-aligned lane array the 120 bytes of play always sit in two lines (at 156 bytes
    /// they straddled three in most lanes; docs/performance.md, "151's lane on cache lines").
    pub(crate) reserved: [u8; STATE_RESERVED],
}

/// Zero bytes at the end of [`I151State`] (see its `reserved` field).
const STATE_RESERVED: usize = 36;
const _: () = assert!(std::mem::size_of::<I151State>() == 192);

impl I151State {
    /// Number of players (seats) of the match.
    pub fn num_players(&self) -> usize {
        self.num_players as usize
    }

    /// The hand of `seat`, as a card set (bit `id` set for each card id it holds; empty
    /// for an excluded seat).
    pub fn hand(&self, seat: usize) -> u32 {
        self.hands[seat]
    }

    /// Total scores, one per seat up to [`MAX_PLAYERS`] (0 from the match's `num_players`
    /// on).
    pub fn scores(&self) -> &[i16; MAX_PLAYERS] {
        &self.scores
    }

    /// The match seed: round `r` is dealt by `random.Random(match_seed + r).shuffle`.
    pub fn match_seed(&self) -> MatchSeed {
        self.match_seed
    }

    /// The round being played, from 1.
    pub fn round_number(&self) -> u16 {
        self.round_number
    }

    /// The seat dealing this round.
    pub fn dealer(&self) -> usize {
        self.dealer as usize
    }

    /// The bank, front first.
    pub fn bank(&self) -> &[u8] {
        &self.bank[self.bank_head as usize..self.bank_tail as usize]
    }

    /// The played pile, oldest first.
    pub fn played_pile(&self) -> &[u8] {
        &self.pile[..self.pile_len as usize]
    }

    /// Cards in the bank.
    pub fn bank_len(&self) -> usize {
        (self.bank_tail - self.bank_head) as usize
    }

    /// The bank as a card set.
    pub fn bank_set(&self) -> u32 {
        self.bank().iter().fold(0, |s, &c| s | 1 << c)
    }

    /// Whether the match is over.
    pub fn is_over(&self) -> bool {
        self.status != STATUS_PLAYING
    }

    /// Whether `seat` is excluded.
    pub fn is_excluded(&self, seat: usize) -> bool {
        self.excluded >> seat & 1 != 0
    }

    /// Number of seats not excluded.
    pub fn active_count(&self) -> u32 {
        self.num_players as u32 - self.excluded.count_ones()
    }

    /// The `top` card, if any.
    pub fn top_card(&self) -> Option<u8> {
        (self.top != NO_CARD).then_some(self.top)
    }

    /// The match winner once the match is over (`None` while it runs, or when it was cut
    /// off).
    pub fn winner(&self) -> Option<usize> {
        (self.winner != NO_SEAT).then_some(self.winner as usize)
    }

    /// The imposed suit, if any.
    pub fn required_suit(&self) -> Option<u8> {
        (self.required_suit != NO_SUIT).then_some(self.required_suit)
    }

    /// The seat after `seat` that is not excluded (official `_next_player` walk).
    #[inline]
    fn next_active(&self, seat: u8) -> u8 {
        let n = self.num_players;
        let mut next = (seat + 1) % n;
        while self.excluded >> next & 1 != 0 {
            next = (next + 1) % n;
        }
        next
    }

    /// The seat that will act after the current turn ends (the official view's
    /// `next_player_id`: skipping excluded seats and, after a queen, one more).
    pub fn next_player(&self) -> u8 {
        let mut next = self.next_active(self.to_act);
        if self.flags & FLAG_SKIP_NEXT != 0 {
            next = self.next_active(next);
        }
        next
    }

    /// Draws `count` cards for `seat`: if the bank holds fewer, the whole played pile is
    /// first appended to it in order (the remaining bank cards stay in front). Returns the
    /// number of cards drawn.
    #[inline]
    fn draw_with_refill(&mut self, seat: usize, count: u8) -> u8 {
        if self.bank_tail - self.bank_head < count && self.pile_len > 0 {
            let left = (self.bank_tail - self.bank_head) as usize;
            self.bank
                .copy_within(self.bank_head as usize..self.bank_tail as usize, 0);
            let pile = self.pile_len as usize;
            self.bank[left..left + pile].copy_from_slice(&self.pile[..pile]);
            self.bank_head = 0;
            self.bank_tail = (left + pile) as u8;
            self.pile_len = 0;
            self.pile_set = 0;
        }
        let n = count.min(self.bank_tail - self.bank_head);
        for _ in 0..n {
            let card = self.bank[self.bank_head as usize];
            self.bank_head += 1;
            self.hands[seat] |= 1 << card;
        }
        n
    }

    /// Official `_next_player(drawn)`: the current seat's turn flags reset (its drawn flag
    /// set to `drawn`), the suit choice closes, and the turn moves on, skipping excluded
    /// seats and once more after a queen.
    #[inline]
    fn end_turn(&mut self, drawn: bool) {
        let cp = self.to_act;
        let bit = 1u8 << cp;
        self.drawn = (self.drawn & !bit) | if drawn { bit } else { 0 };
        self.chaining &= !bit;
        self.flags &= !FLAG_CHOOSE_SUIT;
        let mut next = self.next_active(cp);
        if self.flags & FLAG_SKIP_NEXT != 0 {
            next = self.next_active(next);
            self.flags &= !FLAG_SKIP_NEXT;
        }
        self.to_act = next;
    }
}

impl I151 {
    /// A new match with the given seed (the official `create_match(..., seed=match_seed)`):
    /// round 1 dealt by `random.Random(match_seed + 1).shuffle`.
    pub fn reset_with_match_seed(&self, match_seed: impl Into<MatchSeed>) -> I151State {
        let match_seed = match_seed.into();
        let mut s = I151State::zeroed();
        s.match_seed = match_seed;
        s.num_players = self.num_players;
        s.round_number = 1;
        s.dealer = self.initial_dealer;
        s.last_winner = NO_SEAT;
        s.winner = NO_SEAT;
        let deck = I151::round_deck(match_seed, 1);
        self.deal(&mut s, &deck);
        s
    }

    /// Official `start_round`: deals `deck` round-robin from seat 0 (7 or the configured
    /// number each), the rest is the bank; excluded seats' cards are dropped; the table is
    /// empty and the seat after the dealer (not excluded) starts.
    fn deal(&self, s: &mut I151State, deck: &[u8; DECK_SIZE]) {
        let n = self.num_players as usize;
        let dealt = n * self.cards_dealt();
        s.hands = [0; MAX_PLAYERS];
        s.dead = 0;
        for (i, &card) in deck[..dealt].iter().enumerate() {
            let seat = i % n;
            if s.excluded >> seat & 1 != 0 {
                s.dead |= 1 << card;
            } else {
                s.hands[seat] |= 1 << card;
            }
        }
        s.bank = [0; DECK_SIZE];
        s.bank[..DECK_SIZE - dealt].copy_from_slice(&deck[dealt..]);
        s.bank_head = 0;
        s.bank_tail = (DECK_SIZE - dealt) as u8;
        s.pile = [0; DECK_SIZE];
        s.pile_len = 0;
        s.pile_set = 0;
        s.top = NO_CARD;
        s.required_suit = NO_SUIT;
        s.flags = 0;
        s.drawn = 0;
        s.chaining = 0;
        s.last_play_count = 0;
        s.round_steps = 0;
        s.to_act = s.next_active(s.dealer);
    }

    /// The legal actions of the state as bits `0..38` (official `legal_actions` as a set).
    #[inline]
    pub fn legal_bits(&self, s: &I151State) -> u64 {
        if s.status != STATUS_PLAYING {
            return 0;
        }
        let cp = s.to_act as usize;
        let hand = s.hands[cp];
        let (top, req) = (s.top, s.required_suit);
        let mut playable = if req != NO_SUIT {
            hand & (EIGHTS | suit_set(req))
        } else if top == NO_CARD {
            hand
        } else if rank_of(top) == EIGHT {
            hand & EIGHTS
        } else if rank_of(top) == ACE {
            hand & (EIGHTS | ACES)
        } else {
            hand & (EIGHTS | suit_set(suit_of(top)) | rank_set(rank_of(top)))
        };
        let chaining = s.chaining >> cp & 1 != 0;
        let drawn = s.drawn >> cp & 1 != 0;
        if chaining && top != NO_CARD {
            playable &= rank_set(rank_of(top));
        }
        let mut bits = playable as u64;
        let choose = s.flags & FLAG_CHOOSE_SUIT != 0;
        if choose {
            if top != NO_CARD && rank_of(top) == EIGHT {
                bits |= 0xF << ACTION_CHOOSE_SUIT;
            }
        } else if drawn || chaining {
            bits |= 1 << ACTION_PASS;
        } else if top != NO_CARD || playable == 0 {
            bits |= 1 << ACTION_DRAW;
        }
        bits
    }

    /// Official `_handle_play` for one card. Returns the round winner if the round ended.
    #[inline]
    fn play(&self, s: &mut I151State, card: u8) -> Option<u8> {
        let cp = s.to_act as usize;
        let prev_top = s.top;
        let rank = rank_of(card);
        s.hands[cp] &= !(1u32 << card);
        s.pile[s.pile_len as usize] = card;
        s.pile_len += 1;
        s.pile_set |= 1 << card;
        let same_rank_left = s.hands[cp] & rank_set(rank) != 0;
        let chains =
            ((prev_top != NO_CARD && rank_of(prev_top) == rank) || rank == EIGHT) && same_rank_left;
        let bit = 1u8 << cp;
        s.drawn &= !bit;
        s.chaining = (s.chaining & !bit) | if chains { bit } else { 0 };
        s.top = card;
        s.last_play_count = 1;
        s.required_suit = NO_SUIT;
        s.flags &= !(FLAG_ACE_EFFECT | FLAG_CHOOSE_SUIT);
        match rank {
            EIGHT => s.flags |= FLAG_CHOOSE_SUIT,
            ACE => s.flags |= FLAG_ACE_EFFECT,
            QUEEN => s.flags |= FLAG_SKIP_NEXT,
            _ => {}
        }
        if s.hands[cp] == 0 {
            if s.active_count() == 2 && rank == QUEEN {
                s.draw_with_refill(cp, 1);
                s.end_turn(true);
                return None;
            }
            return Some(cp as u8);
        }
        if !chains && s.flags & FLAG_CHOOSE_SUIT == 0 {
            s.end_turn(false);
        }
        None
    }

    /// Official `_handle_draw` (reached only when the seat has not drawn this turn).
    #[inline]
    fn draw(&self, s: &mut I151State) {
        let cp = s.to_act as usize;
        let ace = s.flags & FLAG_ACE_EFFECT != 0;
        s.draw_with_refill(cp, if ace { 2 } else { 1 });
        s.last_play_count = 0;
        if ace {
            s.flags &= !FLAG_ACE_EFFECT;
            s.end_turn(false);
            return;
        }
        s.drawn |= 1 << cp;
        if s.bank_len() == 0 && s.pile_len == 0 {
            s.top = NO_CARD;
            s.required_suit = NO_SUIT;
        }
    }

    /// Official `apply_round_scoring` then `start_round`: losers add their hand points and
    /// are excluded at the target; the winner's streak grows (the third win takes 10 off
    /// and resets it); the match ends when at most one seat is left.
    fn end_round(&self, s: &mut I151State, winner: u8, rewards: &mut [f32]) {
        let n = self.num_players as usize;
        let before = s.scores;
        for p in 0..n {
            if p == winner as usize {
                continue;
            }
            let score = s.scores[p] as i32 + hand_points(s.hands[p]) as i32;
            s.scores[p] = score.min(i16::MAX as i32) as i16;
            if score >= self.target_score as i32 {
                s.excluded |= 1 << p;
            }
            s.consecutive[p] = 0;
        }
        let w = winner as usize;
        if s.last_winner == winner {
            s.consecutive[w] += 1;
            if s.consecutive[w] == 3 {
                s.scores[w] = s.scores[w].saturating_sub(10);
                s.consecutive[w] = 0;
            }
        } else {
            s.consecutive[w] = 1;
        }
        s.last_winner = winner;
        if self.reward == RewardMode::RoundPoints {
            for p in 0..n {
                rewards[p] = -((s.scores[p] as i32 - before[p] as i32) as f32);
            }
        }
        if s.active_count() <= 1 {
            s.status = STATUS_TERMINATED;
            s.winner = (0..n as u8)
                .find(|&p| s.excluded >> p & 1 == 0)
                .unwrap_or(NO_SEAT);
            if self.reward == RewardMode::MatchOutcome {
                let lose = -1.0 / (n as f32 - 1.0);
                for (p, r) in rewards.iter_mut().enumerate().take(n) {
                    *r = if p as u8 == s.winner { 1.0 } else { lose };
                }
            }
            return;
        }
        s.dealer = s.next_active(s.dealer);
        s.round_number = s.round_number.wrapping_add(1);
        let deck = I151::round_deck(s.match_seed, s.round_number as u32);
        self.deal(s, &deck);
    }

    /// Applies a legal action (checked by the caller), then ends the round or cuts the
    /// match off if it is time.
    #[inline]
    fn apply(&self, s: &mut I151State, action: u32, rewards: &mut [f32]) {
        match self.dispatch(s, action) {
            Some(w) => self.end_round(s, w, rewards),
            None => {
                if self.max_round_steps != 0 && s.round_steps >= self.max_round_steps {
                    s.status = STATUS_TRUNCATED;
                }
            }
        }
    }

    /// Applies `action` for the seat to act **without** closing the round: when the action
    /// empties a hand, the state stays as the official `RoundState` is in its `ENDED`
    /// phase (the winner's hand empty, nothing scored, nothing dealt) and the winner is
    /// returned; [`I151::finish_round`] then scores and deals. The match runner and the
    /// search bots use this pair. The per-round step limit is not applied here. An illegal
    /// action changes nothing and returns `Err(())`.
    #[allow(clippy::result_unit_err)]
    #[inline]
    pub fn act(&self, s: &mut I151State, action: u32) -> std::result::Result<Option<u8>, ()> {
        if action >= N_ACTIONS as u32 || self.legal_bits(s) >> action & 1 == 0 {
            return Err(());
        }
        Ok(self.dispatch(s, action))
    }

    /// Carries out a legal `action` for the seat to act and counts the step; returns the
    /// seat that emptied its hand, if the action did (the round is not closed here).
    #[inline]
    fn dispatch(&self, s: &mut I151State, action: u32) -> Option<u8> {
        let winner = match action {
            0..32 => self.play(s, action as u8),
            ACTION_DRAW => {
                self.draw(s);
                None
            }
            ACTION_PASS => {
                s.end_turn(false);
                None
            }
            _ => {
                s.chaining &= !(1 << s.to_act);
                s.required_suit = (action - ACTION_CHOOSE_SUIT) as u8;
                s.flags &= !FLAG_CHOOSE_SUIT;
                s.end_turn(false);
                None
            }
        };
        s.round_steps = s.round_steps.wrapping_add(1);
        winner
    }

    /// Scores the round won by `winner` (returned by [`I151::act`]) and deals the next one,
    /// or ends the match (official `apply_round_scoring` then `start_round`).
    pub fn finish_round(&self, s: &mut I151State, winner: u8) {
        let mut rewards = [0f32; MAX_PLAYERS];
        self.end_round(s, winner, &mut rewards);
    }

    /// The view of `seat` (see [`PlayerView`]).
    pub fn view(&self, s: &I151State, seat: usize) -> PlayerView {
        PlayerView::from_state(self, s, seat)
    }
}

impl Game for I151 {
    type State = I151State;

    /// The forfeit rule (`on_illegal = lose`): the offender loses the match. With
    /// [`RewardMode::MatchOutcome`] it gets −1 and every other seat `1 / (num_players − 1)`
    /// (zero-sum); with [`RewardMode::RoundPoints`] its score is raised to the target (the
    /// score that excludes a seat), paid as minus that change, and the other seats get 0.
    #[inline]
    fn forfeit_rewards(&self, s: &I151State, offender: usize, rewards: &mut [f32]) -> bool {
        let n = self.num_players as usize;
        match self.reward {
            RewardMode::MatchOutcome => {
                let share = 1.0 / (n as f32 - 1.0);
                for (p, r) in rewards.iter_mut().enumerate().take(n) {
                    *r = if p == offender { -1.0 } else { share };
                }
            }
            RewardMode::RoundPoints => {
                let rise = (self.target_score as i32 - s.scores[offender] as i32).max(0);
                rewards[offender] = -(rise as f32);
            }
        }
        true
    }

    fn num_players(&self) -> usize {
        self.num_players as usize
    }
    fn num_actions(&self) -> usize {
        N_ACTIONS
    }
    fn obs_dim(&self) -> usize {
        OBS_DIM
    }

    fn check_state(&self, s: &I151State) -> std::result::Result<(), String> {
        super::checks::check_state(self, s)
    }

    /// A new match whose seed is drawn from the lane stream (63 random bits, so the seed
    /// is a non-negative `i64`); everything after is dealt from that seed.
    fn reset(&self, rng: &mut LaneRng) -> I151State {
        self.reset_with_match_seed((rng.next_u64() >> 1) as i64)
    }

    /// `order` is the deck of round 1 (a permutation of `0..32`, dealt round-robin from
    /// seat 0, the rest is the bank, front first), optionally followed by the match seed
    /// that deals the later rounds (default 0): little-endian two's-complement bytes, 8 for
    /// an `i64` and 16, 24, 32 or 40 for a larger seed (Python's `seed.to_bytes(8 * k,
    /// "little", signed=True)`; `|seed| < 2**256`, see [`MatchSeed::from_le_bytes`]).
    fn reset_from_order(&self, order: &[u8]) -> Result<I151State> {
        let seed_bytes = order.len().wrapping_sub(DECK_SIZE);
        if order.len() < DECK_SIZE || seed_bytes % 8 != 0 || seed_bytes > 40 {
            return Err(Error::Invalid {
                what: "151 deck order",
                reason: format!(
                    "expected 32 cards, optionally followed by the match seed in 8, 16, 24, \
                     32 or 40 bytes, got {} bytes",
                    order.len()
                ),
            });
        }
        let mut seen = 0u32;
        for &c in &order[..DECK_SIZE] {
            if c as usize >= DECK_SIZE || seen >> c & 1 != 0 {
                return Err(Error::Invalid {
                    what: "151 deck order",
                    reason: "not a permutation of the card ids 0..32".into(),
                });
            }
            seen |= 1 << c;
        }
        let seed = MatchSeed::from_le_bytes(&order[DECK_SIZE..])?;
        let mut s = self.reset_with_match_seed(seed);
        s.excluded = 0;
        let deck: [u8; DECK_SIZE] = order[..DECK_SIZE].try_into().expect("32 cards");
        self.deal(&mut s, &deck);
        Ok(s)
    }

    fn current_player(&self, s: &I151State) -> usize {
        s.to_act as usize
    }

    fn finished(&self, s: &I151State) -> (bool, bool) {
        (s.status == STATUS_TERMINATED, s.status == STATUS_TRUNCATED)
    }

    fn legal_mask(&self, s: &I151State, mask: &mut [u8]) {
        one_hot_u8(self.legal_bits(s) as u128, &mut mask[..N_ACTIONS]);
    }

    #[inline]
    fn step(
        &self,
        s: &mut I151State,
        action: u32,
        _rng: &mut LaneRng,
        rewards: &mut [f32],
    ) -> LaneOutcome {
        if action >= N_ACTIONS as u32 || self.legal_bits(s) >> action & 1 == 0 {
            return LaneOutcome::ILLEGAL;
        }
        self.apply(s, action, rewards);
        LaneOutcome {
            applied: true,
            terminated: s.status == STATUS_TERMINATED,
            truncated: s.status == STATUS_TRUNCATED,
        }
    }

    /// Bytes: the one-hot blocks and flags, sizes out of 32, the last play's count, the
    /// seat flags and streaks out of 3; f32 tail: each seat's score over the target and the
    /// hand's points (they can exceed 255).
    fn obs_format(&self) -> crate::core::ObsFormat {
        use super::view::layout::*;
        let b = Some(1);
        let mut runs = vec![(SCALARS, b), (2, Some(32)), (1, b)];
        for _ in 0..MAX_PLAYERS {
            runs.extend([(1, b), (1, Some(32)), (1, None), (1, b), (1, Some(3)), (3, b)]);
        }
        runs.push((1, None));
        crate::core::ObsFormat::from_runs(&runs)
    }

    #[inline]
    fn observe_u8(&self, s: &I151State, player: usize, bytes: &mut [u8], tail: &mut [f32]) -> bool {
        super::view::encode_state_u8(self, s, player, bytes, tail);
        true
    }

    fn observe(&self, s: &I151State, player: usize, obs: &mut [f32]) {
        encode_state(self, s, player, obs);
    }
}
