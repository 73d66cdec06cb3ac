//! The fast lane engine: one hand in a fixed-size `Pod` state of `u32` chip arrays and `u16`
//! seat bit sets. The queue of seats to act is a bit set read cyclically from the last
//! actor (pokerkit's actor deque is always a cyclic run of seats, so the two agree).

use bytemuck::{Pod, Zeroable};

use super::view::{encode, ObsInputs};
use super::{Chips, Legal, Street, DECK_SIZE, MAX_PLAYERS, NO_SEAT};
use super::{NoLimitHoldem, CHECK_CALL, FOLD};
use crate::core::{CardSet64, Error, Game, LaneOutcome, LaneRng, Result};
use crate::poker::eval::{rank_of_set, HandRank};

/// Bytes of a state's action history ([`NoLimitHoldemState`]): 1 per action id of the
/// mask, 4 per exact raise-to. Random play uses at most 28 (10 seats, 20,000 hands); a
/// longer history keeps the first bytes and hashes the rest. Each byte costs the batch step
/// (a larger state): 56 bytes cost about 3% of `cardvec bench holdem`, 120 about 5%.
pub const HISTORY_BYTES: usize = 56;

/// The flag bit of a state's history length: the history overflowed (the actions that did
/// not fit are folded into a hash).
pub(crate) const HISTORY_OVERFLOW: u16 = 0x8000;

/// The first byte of an exact raise-to in the history: the 4 bytes are
/// `(EXACT_HISTORY << 24 | chips)` big-endian (`chips < 2^30`); a discrete action id is one
/// byte below it.
pub(crate) const EXACT_HISTORY: u8 = 0xC0;

/// One lane: a hand of no-limit hold'em in 320 bytes: 256 of betting state, then the
/// action history the information states replay. Seats `>= num_players` stay zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Pod, Zeroable)]
#[repr(C)]
pub struct NoLimitHoldemState {
    /// Chips behind.
    pub(crate) stacks: [u32; MAX_PLAYERS],
    /// Bets on the current street.
    pub(crate) bets: [u32; MAX_PLAYERS],
    /// Chips in the pots from finished streets (antes included).
    pub(crate) committed: [u32; MAX_PLAYERS],
    /// Stacks at the start of the hand.
    pub(crate) starting: [u32; MAX_PLAYERS],
    /// Largest bet or raise increment of the round.
    pub(crate) increment: u32,
    /// Sum of the consecutive short all-in raises not yet amounting to a full raise.
    pub(crate) short_sum: u32,
    /// Raises this street per seat.
    pub(crate) raises_street: [u16; MAX_PLAYERS],
    /// Raises this hand per seat.
    pub(crate) raises_total: [u16; MAX_PLAYERS],
    /// Raises per street.
    pub(crate) street_raises: [u16; 4],
    /// Folded seats.
    pub(crate) folded: u16,
    /// Seats still to act this round.
    pub(crate) pending: u16,
    /// Seats that acted since the last full raise.
    pub(crate) acted: u16,
    /// Hole card ids, two per seat.
    pub(crate) hole: [[u8; 2]; MAX_PLAYERS],
    /// The five board card ids of the deal.
    pub(crate) board: [u8; 5],
    /// Number of players (seats at the table).
    pub(crate) num_players: u8,
    /// Button seat.
    pub(crate) button: u8,
    /// Seat to act, or [`NO_SEAT`] once over.
    pub(crate) to_act: u8,
    /// 0..=3 the street, 4 over.
    pub(crate) street: u8,
    /// Board cards dealt.
    pub(crate) dealt: u8,
    /// 1 while short all-ins are pending (`short_sum` counts).
    pub(crate) short_any: u8,
    /// 1 once betting is over for the hand (at most one seat with chips).
    pub(crate) runout: u8,
    /// Bytes of `history` used; [`HISTORY_OVERFLOW`] set once an action did not fit.
    pub(crate) hist_len: u16,
    /// The actions of the hand in order, as given to the step (an id of the mask: 1 byte;
    /// an exact raise-to: 4 bytes, see [`EXACT_HISTORY`]); the bytes after `hist_len` are
    /// zero.
    pub(crate) history: [u8; HISTORY_BYTES],
    /// Once the history overflowed: the FNV-1a 64 hash (low word, high word) of the bytes of
    /// every action that did not fit; zero before.
    pub(crate) hist_hash: [u32; 2],
}

impl NoLimitHoldemState {
    /// Whether the hand is over.
    #[inline]
    pub fn is_over(&self) -> bool {
        self.street == 4
    }

    /// Number of players (seats at the table).
    #[inline]
    pub fn num_players(&self) -> usize {
        self.num_players as usize
    }

    /// Chips behind, per seat.
    #[inline]
    pub fn stacks(&self) -> &[u32] {
        &self.stacks[..self.num_players()]
    }

    /// Bets on the current street, per seat.
    #[inline]
    pub fn bets(&self) -> &[u32] {
        &self.bets[..self.num_players()]
    }

    /// Chips each seat put in the pots on finished streets (antes included).
    #[inline]
    pub fn committed(&self) -> &[u32] {
        &self.committed[..self.num_players()]
    }

    /// Whether `seat` has folded.
    #[inline]
    pub fn is_folded(&self, seat: usize) -> bool {
        self.folded >> seat & 1 != 0
    }

    /// The button seat.
    #[inline]
    pub fn button(&self) -> usize {
        self.button as usize
    }

    /// The betting round, or [`Street::Over`] once the hand is over.
    #[inline]
    pub fn street(&self) -> Street {
        match self.street {
            0 => Street::Preflop,
            1 => Street::Flop,
            2 => Street::Turn,
            3 => Street::River,
            _ => Street::Over,
        }
    }

    /// The hole card ids of every seat (hidden information: for tests, rendering and
    /// search).
    #[inline]
    pub fn hole_cards(&self) -> &[[u8; 2]] {
        &self.hole[..self.num_players()]
    }

    /// The board card ids dealt so far.
    #[inline]
    pub fn board(&self) -> &[u8] {
        &self.board[..self.dealt as usize]
    }

    /// The five board card ids of the deal, dealt or not (hidden information).
    #[inline]
    pub fn full_board(&self) -> [u8; 5] {
        self.board
    }

    #[inline]
    fn live(&self) -> u32 {
        let all = (1u16 << self.num_players) - 1;
        (all & !self.folded).count_ones()
    }

    #[inline]
    fn max_bet(&self) -> u32 {
        *self.bets.iter().max().unwrap_or(&0)
    }

    /// Chips in the middle: pots plus bets.
    #[inline]
    pub fn pot_total(&self) -> Chips {
        (self.committed.iter().sum::<u32>() + self.bets.iter().sum::<u32>()) as Chips
    }

    /// Each seat's result in chips: stack minus starting stack.
    pub fn net(&self) -> [i64; MAX_PLAYERS] {
        let mut out = [0i64; MAX_PLAYERS];
        for s in 0..self.num_players as usize {
            out[s] = self.stacks[s] as i64 - self.starting[s] as i64;
        }
        out
    }

    /// The recorded action history (see `HISTORY_BYTES`) and, if it overflowed, the hash
    /// of the actions that did not fit.
    #[inline]
    pub fn history(&self) -> (&[u8], Option<u64>) {
        let len = (self.hist_len & !HISTORY_OVERFLOW) as usize;
        let overflow = self.hist_len & HISTORY_OVERFLOW != 0;
        let hash = self.hist_hash[0] as u64 | (self.hist_hash[1] as u64) << 32;
        (&self.history[..len.min(HISTORY_BYTES)], overflow.then_some(hash))
    }

    /// Appends `action` (applied) to the history.
    #[inline(always)]
    fn record(&mut self, action: u32) {
        let len = self.hist_len as usize;
        // An overflowed history has its flag bit set, so `len` is then beyond the buffer.
        if action < EXACT_HISTORY as u32 && len < HISTORY_BYTES {
            self.history[len] = action as u8;
            self.hist_len += 1;
        } else {
            self.record_slow(action);
        }
    }

    /// [`Self::record`] for an exact raise-to or a full history.
    #[cold]
    #[inline(never)]
    fn record_slow(&mut self, action: u32) {
        let exact = ((EXACT_HISTORY as u32) << 24 | (action & !super::EXACT_RAISE)).to_be_bytes();
        let one = [action as u8];
        let bytes: &[u8] = if action & super::EXACT_RAISE != 0 {
            &exact
        } else {
            &one
        };
        let len = self.hist_len as usize;
        if len + bytes.len() <= HISTORY_BYTES {
            self.history[len..len + bytes.len()].copy_from_slice(bytes);
            self.hist_len += bytes.len() as u16;
            return;
        }
        let mut hash = if self.hist_len & HISTORY_OVERFLOW == 0 {
            self.hist_len |= HISTORY_OVERFLOW;
            FNV_OFFSET
        } else {
            self.hist_hash[0] as u64 | (self.hist_hash[1] as u64) << 32
        };
        for &b in bytes {
            hash = (hash ^ b as u64).wrapping_mul(FNV_PRIME);
        }
        self.hist_hash = [hash as u32, (hash >> 32) as u32];
    }

    fn effective_stack(&self, seat: usize) -> u32 {
        let (mut first, mut second) = (0u32, 0u32);
        for s in 0..self.num_players as usize {
            if self.folded >> s & 1 == 0 {
                let t = self.bets[s] + self.stacks[s];
                if t > first {
                    second = first;
                    first = t;
                } else if t > second {
                    second = t;
                }
            }
        }
        self.stacks[seat].min(second.saturating_sub(self.bets[seat]))
    }
}

impl NoLimitHoldem {
    /// What the seat to act may do (`None` once over): the same numbers as
    /// [`super::NlHand::legal`].
    #[inline(always)]
    pub fn legal(&self, s: &NoLimitHoldemState) -> Option<Legal> {
        if s.to_act == NO_SEAT {
            return None;
        }
        let seat = s.to_act as usize;
        let max_bet = s.max_bet();
        let (bet, stack) = (s.bets[seat], s.stacks[seat]);
        let call = stack.min(max_bet - bet);
        let bit = 1u16 << seat;
        let others_cover = (0..s.num_players as usize)
            .any(|o| o != seat && s.folded >> o & 1 == 0 && s.stacks[o] + s.bets[o] > max_bet);
        let raise = call >= s.increment
            && !(s.short_any != 0 && s.short_sum < s.increment && s.acted & bit != 0)
            && stack > max_bet - bet
            && others_cover;
        let (min_raise_to, max_raise_to) = if raise {
            let full = max_bet as Chips + (s.increment as Chips).max(self.table.big_blind);
            (((stack + bet) as Chips).min(full), (stack + bet) as Chips)
        } else {
            (0, 0)
        };
        Some(Legal {
            seat,
            fold: bet < max_bet,
            check: bet == max_bet,
            call_amount: call as Chips,
            raise,
            min_raise_to,
            max_raise_to,
        })
    }

    /// A hand with these cards (`hole[s]` for each seat, then the board) and button.
    pub fn deal(&self, hole: &[[u8; 2]], board: [u8; 5], button: usize) -> NoLimitHoldemState {
        let mut s = NoLimitHoldemState::zeroed();
        self.deal_into(&mut s, hole, board, button);
        s
    }

    /// [`NoLimitHoldem::deal`] written over `s` (the batch's resets write the lane in place:
    /// the state is 320 bytes, and a copy of it through the stack costs more than the deal's
    /// arithmetic).
    #[inline]
    fn deal_into(&self, s: &mut NoLimitHoldemState, hole: &[[u8; 2]], board: [u8; 5], button: usize) {
        let n = self.num_players();
        *s = NoLimitHoldemState::zeroed();
        s.num_players = n as u8;
        s.button = button as u8;
        s.to_act = NO_SEAT;
        s.hole[..n].copy_from_slice(&hole[..n]);
        s.board = board;
        s.stacks = self.stacks;
        s.starting = self.stacks;
        let ante = self.table.ante.min(u32::MAX as Chips) as u32;
        let mut antes = [0u32; MAX_PLAYERS];
        for seat in 0..n {
            antes[seat] = ante.min(s.starting[seat]);
        }
        if ante > 0 {
            let mut sorted = antes;
            sorted[..n].sort_unstable();
            let cutoff = sorted[n - 2];
            for seat in 0..n {
                let kept = antes[seat].min(cutoff);
                s.stacks[seat] -= kept;
                s.committed[seat] += kept;
            }
        }
        let sb = super::small_blind_seat(n, button);
        let bb = super::big_blind_seat(n, button);
        for (seat, blind) in [(sb, self.table.small_blind), (bb, self.table.big_blind)] {
            let amount = (blind.min(u32::MAX as Chips) as u32).min(s.starting[seat] - antes[seat]);
            s.stacks[seat] -= amount;
            s.bets[seat] = amount;
        }
        self.begin_round(s);
    }

    fn opener(&self, s: &NoLimitHoldemState) -> usize {
        let n = s.num_players as usize;
        let b = s.button as usize;
        if s.street == 0 {
            if n == 2 {
                b
            } else {
                (b + 3) % n
            }
        } else {
            (b + 1) % n
        }
    }

    /// The first pending seat at or after `from`, cyclically.
    #[inline]
    fn next_pending(s: &NoLimitHoldemState, from: usize) -> u8 {
        let n = s.num_players as usize;
        (0..n)
            .map(|k| (from + k) % n)
            .find(|&seat| s.pending >> seat & 1 != 0)
            .map_or(NO_SEAT, |seat| seat as u8)
    }

    fn begin_round(&self, s: &mut NoLimitHoldemState) {
        let n = s.num_players as usize;
        s.pending = 0;
        for seat in 0..n {
            if s.folded >> seat & 1 == 0 && s.stacks[seat] > 0 && s.effective_stack(seat) > 0 {
                s.pending |= 1 << seat;
            }
        }
        s.increment = 0;
        s.short_sum = 0;
        s.short_any = 0;
        s.acted = 0;
        s.raises_street = [0; MAX_PLAYERS];
        let lone_matched = s.pending.count_ones() == 1
            && s.bets[s.pending.trailing_zeros() as usize] >= s.max_bet();
        if s.runout != 0 || s.pending == 0 || s.live() <= 1 || lone_matched {
            self.end_round(s);
        } else {
            s.to_act = Self::next_pending(s, self.opener(s));
        }
    }

    fn end_round(&self, s: &mut NoLimitHoldemState) {
        let n = s.num_players as usize;
        s.pending = 0;
        s.to_act = NO_SEAT;
        if s.live() > 1 {
            let with_chips = (0..n)
                .filter(|&seat| s.folded >> seat & 1 == 0 && s.stacks[seat] > 0)
                .count();
            if with_chips <= 1 {
                s.runout = 1;
            }
        }
        let mut sorted = s.bets;
        sorted[..n].sort_unstable();
        let cutoff = sorted[n - 2];
        for seat in 0..n {
            if s.bets[seat] > cutoff {
                s.stacks[seat] += s.bets[seat] - cutoff;
                s.bets[seat] = cutoff;
            }
            s.committed[seat] += s.bets[seat];
            s.bets[seat] = 0;
        }
        if s.live() <= 1 || s.street == 3 {
            self.finish(s);
        } else {
            s.street += 1;
            s.dealt = [0, 3, 4, 5][s.street as usize];
            self.begin_round(s);
        }
    }

    fn finish(&self, s: &mut NoLimitHoldemState) {
        let n = s.num_players as usize;
        let b = s.button as usize;
        let mut won = [0u32; MAX_PLAYERS];
        // Pots by contribution level: distinct levels ascending, adjacent equal seat sets merged.
        let mut levels = s.committed;
        levels[..n].sort_unstable();
        let mut pots = [(0u32, 0u16); MAX_PLAYERS];
        let mut count = 0;
        let mut previous = 0u32;
        for k in 0..n {
            let level = levels[k];
            if k > 0 && level == levels[k - 1] {
                continue;
            }
            let mut amount = 0u32;
            let mut eligible = 0u16;
            for seat in 0..n {
                amount += s.committed[seat].min(level) - s.committed[seat].min(previous);
                if s.folded >> seat & 1 == 0 && s.committed[seat] >= level {
                    eligible |= 1 << seat;
                }
            }
            while count > 0 && pots[count - 1].1 == eligible {
                count -= 1;
                amount += pots[count].0;
            }
            if amount > 0 {
                pots[count] = (amount, eligible);
                count += 1;
            }
            previous = level;
        }
        let live = !s.folded & ((1u16 << n) - 1);
        if live.count_ones() == 1 {
            won[live.trailing_zeros() as usize] = pots[..count].iter().map(|p| p.0).sum();
        } else {
            s.dealt = 5;
            let board = CardSet64::from_ids(s.board);
            let mut ranks = [HandRank(0); MAX_PLAYERS];
            for seat in 0..n {
                if live >> seat & 1 != 0 {
                    let mut set = board;
                    set.insert(s.hole[seat][0]);
                    set.insert(s.hole[seat][1]);
                    ranks[seat] = rank_of_set(set);
                }
            }
            for &(amount, eligible) in &pots[..count] {
                let best = (0..n)
                    .filter(|&seat| eligible >> seat & 1 != 0)
                    .map(|seat| ranks[seat])
                    .max();
                let mut winners = [0usize; MAX_PLAYERS];
                let mut w = 0;
                for k in 1..=n {
                    let seat = (b + k) % n;
                    if eligible >> seat & 1 != 0 && Some(ranks[seat]) == best {
                        winners[w] = seat;
                        w += 1;
                    }
                }
                if w == 0 {
                    continue;
                }
                let share = amount / w as u32;
                let odd = amount % w as u32;
                for (i, &seat) in winners[..w].iter().enumerate() {
                    won[seat] += share + if i == 0 { odd } else { 0 };
                }
            }
        }
        for seat in 0..n {
            s.stacks[seat] += won[seat];
        }
        s.street = 4;
        s.to_act = NO_SEAT;
    }

    /// Applies fold (`None` raise, `fold`), check/call, or a raise to `to` for the seat to
    /// act; the caller has checked legality.
    fn apply(
        &self,
        s: &mut NoLimitHoldemState,
        legal: &Legal,
        fold: bool,
        raise_to: Option<Chips>,
    ) {
        let seat = legal.seat;
        let bit = 1u16 << seat;
        s.pending &= !bit;
        s.acted |= bit;
        if fold {
            s.folded |= bit;
        } else if let Some(to) = raise_to {
            let to = to as u32;
            let n = s.num_players as usize;
            let raise = to - s.max_bet();
            s.stacks[seat] -= to - s.bets[seat];
            s.bets[seat] = to;
            s.pending = 0;
            for o in 0..n {
                if o != seat && s.folded >> o & 1 == 0 && s.stacks[o] > 0 {
                    s.pending |= 1 << o;
                }
            }
            if raise >= s.increment {
                s.acted = bit;
            }
            s.increment = s.increment.max(raise);
            if s.stacks[seat] > 0 {
                s.short_sum = 0;
                s.short_any = 0;
            } else {
                s.short_sum += raise;
                s.short_any = 1;
            }
            if s.short_sum >= s.increment {
                s.short_sum = 0;
                s.short_any = 0;
            }
            s.raises_street[seat] = s.raises_street[seat].saturating_add(1);
            s.raises_total[seat] = s.raises_total[seat].saturating_add(1);
            let st = s.street as usize;
            s.street_raises[st] = s.street_raises[st].saturating_add(1);
        } else {
            let amount = legal.call_amount as u32;
            s.bets[seat] += amount;
            s.stacks[seat] -= amount;
        }
        if s.pending == 0 || s.live() <= 1 {
            self.end_round(s);
        } else {
            s.to_act = Self::next_pending(s, seat + 1);
        }
    }

    /// Each seat's result in big blinds (final stack minus starting stack), the rewards of
    /// a finished hand.
    #[inline]
    fn write_results(&self, s: &NoLimitHoldemState, rewards: &mut [f32]) {
        let bb = self.table.big_blind as f32;
        let net = s.net();
        for (r, &x) in rewards.iter_mut().zip(net.iter()) {
            *r = x as f32 / bb;
        }
    }

    /// The fields the observation encoder reads.
    fn write_obs(&self, s: &NoLimitHoldemState, player: usize, obs: &mut [f32]) {
        self.with_obs_inputs(s, |inputs| encode(self, inputs, player, obs));
    }

    /// The compact observation (see [`super::view::encode_u8`]).
    fn write_obs_u8(&self, s: &NoLimitHoldemState, player: usize, bytes: &mut [u8], tail: &mut [f32]) {
        self.with_obs_inputs(s, |inputs| {
            super::view::encode_u8(self, inputs, player, bytes, tail)
        });
    }

    /// Calls `f` with what the observation encoders read of `s`.
    #[inline(always)]
    fn with_obs_inputs(&self, s: &NoLimitHoldemState, f: impl FnOnce(&ObsInputs<'_>)) {
        let n = s.num_players as usize;
        let inputs = ObsInputs {
            num_players: n,
            button: s.button as usize,
            to_act: (s.to_act != NO_SEAT).then_some(s.to_act as usize),
            street: s.street as usize,
            hole: &s.hole[..n],
            board: &s.board[..s.dealt as usize],
            stacks: &s.stacks[..n],
            bets: &s.bets[..n],
            committed: &s.committed[..n],
            folded: s.folded as u32,
            raises_street: &s.raises_street[..n],
            raises_total: &s.raises_total[..n],
            street_raises: s.street_raises,
            legal: self.legal(s),
        };
        f(&inputs);
    }
}

/// The action ids of a recorded history (as [`NoLimitHoldemState::history`] gives it), or
/// `None` if it ends inside an exact raise-to.
pub fn history_actions(bytes: &[u8]) -> Option<Vec<u32>> {
    let ids: Vec<u32> = decode_history(bytes).collect();
    let used: usize = ids
        .iter()
        .map(|&a| if a & super::EXACT_RAISE != 0 { 4 } else { 1 })
        .sum();
    (used == bytes.len()).then_some(ids)
}

/// The action ids of a recorded history in order, without allocating; stops before an
/// exact raise-to cut short.
pub fn decode_history(bytes: &[u8]) -> impl Iterator<Item = u32> + '_ {
    let mut i = 0;
    std::iter::from_fn(move || {
        let &b = bytes.get(i)?;
        if b < EXACT_HISTORY {
            i += 1;
            return Some(b as u32);
        }
        let word: [u8; 4] = bytes.get(i..i + 4)?.try_into().ok()?;
        i += 4;
        Some(super::EXACT_RAISE | (u32::from_be_bytes(word) & 0x3FFF_FFFF))
    })
}

/// FNV-1a 64: the offset basis.
const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
/// FNV-1a 64: the prime.
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// Checks that `order` holds `2 * num_players + 5` distinct card ids below 52.
pub fn check_order(num_players: usize, order: &[u8]) -> Result<()> {
    Error::check_len("card order", 2 * num_players + 5, order.len())?;
    let mut seen = CardSet64::EMPTY;
    for &c in order {
        if c as usize >= DECK_SIZE || seen.contains(c) {
            return Err(Error::Invalid {
                what: "card order",
                reason: format!("card id {c} is out of range or repeated"),
            });
        }
        seen.insert(c);
    }
    Ok(())
}

impl Game for NoLimitHoldem {
    type State = NoLimitHoldemState;

    /// The forfeit rule (`on_illegal = lose`): the offender loses its whole starting stack,
    /// the worst result of a hand, and the other seats share it equally (zero-sum to within
    /// `f32` rounding, as every result); in big blinds.
    #[inline]
    fn forfeit_rewards(&self, s: &NoLimitHoldemState, offender: usize, rewards: &mut [f32]) -> bool {
        let n = self.num_players();
        let lost = s.starting[offender] as f64 / self.table.big_blind as f64;
        let share = (lost / (n - 1) as f64) as f32;
        for (p, r) in rewards.iter_mut().enumerate().take(n) {
            *r = if p == offender { -(lost as f32) } else { share };
        }
        true
    }

    fn num_players(&self) -> usize {
        self.num_players()
    }
    fn num_actions(&self) -> usize {
        self.num_actions()
    }
    fn obs_dim(&self) -> usize {
        self.obs_dim()
    }

    fn check_state(&self, s: &NoLimitHoldemState) -> std::result::Result<(), String> {
        super::checks::check_state(self, s)
    }

    #[inline]
    fn is_extended_action(&self, action: u32) -> bool {
        action & super::EXACT_RAISE != 0
    }

    /// The button (if random) is drawn first, then the 52 card ids are shuffled: seat `s`
    /// gets cards `2s, 2s + 1`, the board the next five.
    fn reset(&self, rng: &mut LaneRng) -> NoLimitHoldemState {
        let mut s = NoLimitHoldemState::zeroed();
        self.reset_into(rng, &mut s);
        s
    }

    #[inline]
    fn reset_into(&self, rng: &mut LaneRng, s: &mut NoLimitHoldemState) {
        let n = self.num_players();
        let button = match self.button {
            Some(b) => b as usize,
            None => rng.below(n as u32) as usize,
        };
        let mut deck = [0u8; DECK_SIZE];
        for (i, d) in deck.iter_mut().enumerate() {
            *d = i as u8;
        }
        rng.shuffle(&mut deck);
        let mut hole = [[0u8; 2]; MAX_PLAYERS];
        for seat in 0..n {
            hole[seat] = [deck[2 * seat], deck[2 * seat + 1]];
        }
        let board = [0, 1, 2, 3, 4].map(|k| deck[2 * n + k]);
        self.deal_into(s, &hole[..n], board, button)
    }

    /// `order`: `2 * num_players + 5` distinct card ids, the hole cards seat by seat, then the
    /// board. The button is the configured one (seat 0 if random).
    fn reset_from_order(&self, order: &[u8]) -> Result<NoLimitHoldemState> {
        let n = self.num_players();
        check_order(n, order)?;
        let hole: Vec<[u8; 2]> = (0..n).map(|s| [order[2 * s], order[2 * s + 1]]).collect();
        let board = [0, 1, 2, 3, 4].map(|k| order[2 * n + k]);
        Ok(self.deal(&hole, board, self.button.unwrap_or(0) as usize))
    }

    fn current_player(&self, s: &NoLimitHoldemState) -> usize {
        if s.to_act == NO_SEAT {
            0
        } else {
            s.to_act as usize
        }
    }

    fn finished(&self, s: &NoLimitHoldemState) -> (bool, bool) {
        (s.is_over(), false)
    }

    fn legal_mask(&self, s: &NoLimitHoldemState, mask: &mut [u8]) {
        match self.legal(s) {
            Some(legal) => self.mask_of(&legal, s.max_bet() as Chips, s.pot_total(), mask),
            None => mask.fill(0),
        }
    }

    fn step(
        &self,
        s: &mut NoLimitHoldemState,
        action: u32,
        _rng: &mut LaneRng,
        rewards: &mut [f32],
    ) -> LaneOutcome {
        let Some(legal) = self.legal(s) else {
            return LaneOutcome::ILLEGAL;
        };
        match action {
            FOLD if legal.fold => self.apply(s, &legal, true, None),
            FOLD => return LaneOutcome::ILLEGAL,
            CHECK_CALL => self.apply(s, &legal, false, None),
            _ => match self.raise_target(action, &legal, s.max_bet() as Chips, s.pot_total()) {
                Some(to) => self.apply(s, &legal, false, Some(to)),
                None => return LaneOutcome::ILLEGAL,
            },
        }
        s.record(action);
        if s.is_over() {
            self.write_results(s, rewards);
        }
        LaneOutcome {
            applied: true,
            terminated: s.is_over(),
            truncated: false,
        }
    }

    /// Bytes: cards, street, the seat flags and the position; f32 tail: every chip amount
    /// (in big blinds) and the raise counts (a deep stack can raise more than 255 times).
    fn obs_format(&self) -> crate::core::ObsFormat {
        let b = Some(1);
        let mut runs = vec![(109, b)];
        for _ in 0..self.num_players() {
            runs.extend([(3, None), (4, b), (2, None)]);
        }
        runs.extend([(8, None), (1, b)]);
        crate::core::ObsFormat::from_runs(&runs)
    }

    #[inline]
    fn observe_u8(
        &self,
        s: &NoLimitHoldemState,
        player: usize,
        bytes: &mut [u8],
        tail: &mut [f32],
    ) -> bool {
        self.write_obs_u8(s, player, bytes, tail);
        true
    }

    fn observe(&self, s: &NoLimitHoldemState, player: usize, obs: &mut [f32]) {
        self.write_obs(s, player, obs);
    }

    /// A hand in which nobody has a decision (stacks no larger than the forced bets) is
    /// played out at the deal: each seat's result in big blinds, as the step that ends a
    /// hand pays it.
    #[inline]
    fn deal_rewards(&self, s: &NoLimitHoldemState, rewards: &mut [f32]) {
        if s.is_over() {
            self.write_results(s, rewards);
        }
    }
}
