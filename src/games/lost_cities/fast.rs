//! The fast lane engine: the whole round in a 192-byte `Pod` state (three cache lines) of card bit sets and
//! small arrays; legal mask as a 96-bit set expanded by SIMD; observation by SIMD one-hot rows.

use bytemuck::{Pod, Zeroable};

use super::*;
use crate::core::simd::{one_hot_f32, one_hot_rows_f32, one_hot_u8, spread_bits_to_bytes, OneHotRows};
use crate::core::{CardSet64, Error, Game, LaneOutcome, LaneRng, ObsFormat, Result};

const COLOR_MASK: u64 = 0xFFF;
const ALL_CARDS: u64 = (1u64 << DECK_SIZE) - 1;

/// Sum of number ranks for each 9-bit pattern of a column's number slots (slot 3 = rank 2).
const RANK_SUMS: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut bits = 0;
    while bits < 512 {
        let mut s = 0;
        let mut i = 0;
        while i < 9 {
            if bits >> i & 1 == 1 {
                s += i as u8 + 2;
            }
            i += 1;
        }
        t[bits] = s;
        bits += 1;
    }
    t
};

/// One lane of Lost Cities.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Pod, Zeroable)]
#[repr(C)]
pub struct LostCitiesState {
    /// Each player's hand.
    pub(crate) hands: [u64; 2],
    /// Each player's expeditions (all colours in one set).
    pub(crate) boards: [u64; 2],
    /// Cards in each player's hand that were taken from a discard pile.
    pub(crate) public_hands: [u64; 2],
    /// Every card lying in a discard pile.
    pub(crate) discards: u64,
    /// Plies applied so far.
    pub(crate) steps: u16,
    /// The deal order; the deck is `deck[deck_pos..]`, drawn from the front.
    pub(crate) deck: [u8; DECK_SIZE],
    /// Discard piles, bottom first.
    pub(crate) piles: [[u8; 12]; N_COLORS],
    /// Height of each discard pile.
    pub(crate) pile_len: [u8; N_COLORS],
    /// Index of the next deck card.
    pub(crate) deck_pos: u8,
    /// Seat to act.
    pub(crate) to_act: u8,
    /// 0 running, 1 terminated (deck exhausted), 2 truncated (step limit).
    pub(crate) end: u8,
    _pad: [u8; 6],
}

impl LostCitiesState {
    /// Whether the round is over.
    #[inline]
    pub fn is_over(&self) -> bool {
        self.end != 0
    }

    /// Cards left in the deck.
    #[inline]
    pub fn deck_len(&self) -> usize {
        DECK_SIZE - self.deck_pos as usize
    }

    /// The top of discard pile `color`, if any.
    #[inline]
    pub fn pile_top(&self, color: usize) -> Option<u8> {
        let len = self.pile_len[color] as usize;
        (len > 0).then(|| self.piles[color][len - 1])
    }

    /// Bit `c` set where discard pile `c` is not empty.
    #[inline]
    fn nonempty_piles(&self) -> u32 {
        let mut m = 0;
        for (c, &len) in self.pile_len.iter().enumerate() {
            m |= ((len != 0) as u32) << c;
        }
        m
    }

    /// Set of discard tops.
    #[inline]
    fn tops(&self) -> u64 {
        // Branch-free: an empty pile reads its slot 0 (a card id, or 0) and adds no bit.
        let mut t = 0;
        for c in 0..N_COLORS {
            let len = self.pile_len[c] as usize;
            let card = self.piles[c][len.saturating_sub(1)];
            t |= ((len > 0) as u64) << card;
        }
        t
    }

    /// The ordered hand of `player`, as a card set.
    #[inline]
    pub fn hand(&self, player: usize) -> CardSet64 {
        CardSet64(self.hands[player])
    }

    /// The expeditions of `player` (every colour), as a card set.
    #[inline]
    pub fn board(&self, player: usize) -> CardSet64 {
        CardSet64(self.boards[player])
    }

    /// Discard pile `color`, bottom first.
    #[inline]
    pub fn pile(&self, color: usize) -> &[u8] {
        &self.piles[color][..self.pile_len[color] as usize]
    }
}

/// The expedition column of `color` in a board set (12 bits, slot order).
#[inline]
pub(super) fn column(board: u64, color: usize) -> u64 {
    board >> (color * SLOTS_PER_COLOR) & COLOR_MASK
}

/// Whether a card with `slot` may go on a column (numbers strictly rising, handshakes first).
#[inline]
pub(super) fn playable_on(column: u64, slot: u8) -> bool {
    let from = if slot < 3 { 3 } else { slot };
    column >> from == 0
}

/// The sum of the ranks of a column's numbers (`column` a 12-slot column; its handshakes
/// count nothing).
#[inline]
pub fn rank_sum(column: u64) -> i32 {
    RANK_SUMS[(column >> 3 & 0x1FF) as usize] as i32
}

/// Score of one expedition column.
#[inline]
pub fn column_score(column: u64) -> i32 {
    if column == 0 {
        return 0;
    }
    let handshakes = (column & 0b111).count_ones() as i32;
    let ranks = RANK_SUMS[(column >> 3) as usize] as i32;
    let bonus = if column.count_ones() >= 8 { 20 } else { 0 };
    (ranks - 20) * (1 + handshakes) + bonus
}

/// Board score of a whole board set.
#[inline]
pub fn board_score_of(board: u64) -> i32 {
    (0..N_COLORS).map(|c| column_score(column(board, c))).sum()
}

/// The raw board scores of both players.
pub fn board_score(state: &LostCitiesState) -> [i32; 2] {
    [
        board_score_of(state.boards[0]),
        board_score_of(state.boards[1]),
    ]
}

/// The zero-sum outcome: `board_score[s] - board_score[1 - s]` for each seat.
pub fn score(state: &LostCitiesState) -> [i32; 2] {
    let [a, b] = board_score(state);
    [a - b, b - a]
}

impl LostCities {
    /// The legal actions of each hand slot as a 12-bit row (bit `place_type * 6 +
    /// draw_source`), or `None` once the game is over.
    #[inline]
    pub fn legal_rows(&self, s: &LostCitiesState) -> Option<[u16; HAND_SIZE]> {
        if s.is_over() {
            return None;
        }
        let p = s.to_act as usize;
        let nonempty = s.nonempty_piles() as u16;
        let play_row = 1 | nonempty << 1;
        let mut rows = [0u16; HAND_SIZE];
        for (row, card) in rows.iter_mut().zip(s.hand(p).iter()) {
            let color = color_of(card) as usize;
            let discard_row = (1 | (nonempty & !(1 << color)) << 1) << 6;
            let open = playable_on(column(s.boards[p], color), slot_of(card));
            *row = discard_row | if open { play_row } else { 0 };
        }
        Some(rows)
    }

    /// Whether `action` is legal in `s`.
    #[inline]
    pub fn is_legal(&self, s: &LostCitiesState, action: u32) -> bool {
        match self.legal_rows(s) {
            Some(rows) if action < N_ACTIONS as u32 => {
                rows[action as usize / 12] >> (action % 12) & 1 == 1
            }
            _ => false,
        }
    }
}

/// The largest margin a round can end with, the forfeit's (`on_illegal = lose`): per
/// expedition 166 points, one seat having opened it with the 2 alone (−18) while the other
/// holds the other eight numbers and the three wagers ((52 − 20) × 4 + 20 = 148); a brute
/// force over every split of an expedition's cards finds no larger one. Five expeditions:
/// 830.
pub const FORFEIT_MARGIN: i32 = 5 * 166;

impl Game for LostCities {
    type State = LostCitiesState;

    /// The forfeit rule (`on_illegal = lose`): the offender takes the worst
    /// result the scoring allows, a margin of `FORFEIT_MARGIN` points against it, and the
    /// other seat the same margin for it (zero-sum, as the score difference is).
    #[inline]
    fn forfeit_rewards(&self, _: &Self::State, offender: usize, rewards: &mut [f32]) -> bool {
        rewards[offender] = -FORFEIT_MARGIN as f32;
        rewards[1 - offender] = FORFEIT_MARGIN as f32;
        true
    }

    fn num_players(&self) -> usize {
        NUM_PLAYERS
    }
    fn num_actions(&self) -> usize {
        N_ACTIONS
    }
    fn obs_dim(&self) -> usize {
        OBS_DIM
    }

    fn reset(&self, rng: &mut LaneRng) -> LostCitiesState {
        let mut order: [u8; DECK_SIZE] = std::array::from_fn(|i| i as u8);
        rng.shuffle(&mut order);
        deal(&order)
    }

    fn reset_from_order(&self, order: &[u8]) -> Result<LostCitiesState> {
        let order = check_order(order)?;
        Ok(deal(&order))
    }

    fn current_player(&self, s: &LostCitiesState) -> usize {
        s.to_act as usize
    }

    fn finished(&self, s: &LostCitiesState) -> (bool, bool) {
        (s.end == 1, s.end == 2)
    }

    fn check_state(&self, s: &LostCitiesState) -> std::result::Result<(), String> {
        super::checks::check_state(s)
    }

    #[inline]
    fn legal_mask(&self, s: &LostCitiesState, mask: &mut [u8]) {
        match self.legal_rows(s) {
            None => mask.fill(0),
            Some(rows) => {
                for (out, row) in mask.chunks_exact_mut(12).zip(rows) {
                    out[..8].copy_from_slice(&spread_bits_to_bytes(row as u8).to_le_bytes());
                    let high = spread_bits_to_bytes((row >> 8) as u8).to_le_bytes();
                    out[8..].copy_from_slice(&high[..4]);
                }
            }
        }
    }

    #[inline]
    fn step(
        &self,
        s: &mut LostCitiesState,
        action: u32,
        _rng: &mut LaneRng,
        rewards: &mut [f32],
    ) -> LaneOutcome {
        if s.is_over() || action >= N_ACTIONS as u32 {
            return LaneOutcome::ILLEGAL;
        }
        let p = s.to_act as usize;
        let (hand_slot, discard, source) = decode_action(action);
        let Some(card) = s.hand(p).nth(hand_slot) else {
            return LaneOutcome::ILLEGAL;
        };
        let color = color_of(card) as usize;
        if !discard && !playable_on(column(s.boards[p], color), slot_of(card)) {
            return LaneOutcome::ILLEGAL;
        }
        if source > 0 {
            let pile = source as usize - 1;
            if s.pile_len[pile] == 0 || (discard && pile == color) {
                return LaneOutcome::ILLEGAL;
            }
        }
        let bit = 1u64 << card;
        s.hands[p] &= !bit;
        s.public_hands[p] &= !bit;
        if discard {
            s.piles[color][s.pile_len[color] as usize] = card;
            s.pile_len[color] += 1;
            s.discards |= bit;
        } else {
            s.boards[p] |= bit;
        }
        if source == 0 {
            let drawn = s.deck[s.deck_pos as usize];
            s.deck_pos += 1;
            s.hands[p] |= 1u64 << drawn;
        } else {
            let pile = source as usize - 1;
            s.pile_len[pile] -= 1;
            let drawn = s.piles[pile][s.pile_len[pile] as usize];
            let dbit = 1u64 << drawn;
            s.discards &= !dbit;
            s.hands[p] |= dbit;
            s.public_hands[p] |= dbit;
        }
        s.steps += 1;
        s.to_act ^= 1;
        let terminated = s.deck_pos as usize == DECK_SIZE;
        let truncated = !terminated && s.steps >= MAX_STEPS;
        if terminated || truncated {
            s.end = if terminated { 1 } else { 2 };
            let outcome = score(s);
            rewards[0] = outcome[0] as f32;
            rewards[1] = outcome[1] as f32;
        }
        LaneOutcome {
            applied: true,
            terminated,
            truncated,
        }
    }

    #[inline]
    fn observe(&self, s: &LostCitiesState, player: usize, obs: &mut [f32]) {
        let parts = ObsParts::of(s, player);
        let (onehot, scalars) = obs.split_at_mut(N_CHANNELS * DECK_SIZE);
        match self.layout() {
            ObsLayout::ChannelMajor => {
                for (row, bits) in onehot.chunks_exact_mut(DECK_SIZE).zip(parts.channels) {
                    one_hot_f32(bits, row);
                }
            }
            ObsLayout::CardMajor => {
                // One 8-value table copy per card, in card order.
                let channels = parts.channel_of_cards();
                one_hot_rows_f32::<N_CHANNELS>(&channels[..DECK_SIZE], onehot);
            }
        }
        write_scalars(&parts.counts, parts.steps, parts.diff, scalars);
    }

    /// Both seats' rows after one step: each seat's one-hot values change only for the
    /// cards whose channel changed in its view (the card played, the card drawn, a discard
    /// pile's new or old top: a few per seat), written one value each; of the 34 scalars,
    /// only those the step can change: plies and the opponent's unseen hand cards always,
    /// the deck size when it drew from the deck, the counts of an expedition that grew and
    /// the score difference when one did.
    #[inline]
    fn observe_seats_update(
        &self,
        before: &LostCitiesState,
        s: &LostCitiesState,
        rows: &mut [f32],
    ) -> bool {
        const BASE: usize = N_CHANNELS * DECK_SIZE;
        let (row0, row1) = rows.split_at_mut(OBS_DIM);
        let mut rows = [row0, row1];
        let (old, new) = (seat_channels(before), seat_channels(s));
        let layout = self.layout();
        for (seat, row) in rows.iter_mut().enumerate() {
            let onehot = &mut row[..BASE];
            match layout {
                ObsLayout::CardMajor => {
                    flip_channels(&old[seat], &new[seat], onehot, |c, k| c * N_CHANNELS + k)
                }
                ObsLayout::ChannelMajor => {
                    flip_channels(&old[seat], &new[seat], onehot, |c, k| k * DECK_SIZE + c)
                }
            }
        }
        // The scalars, each as `write_scalars` computes it (the same operations, so the
        // same bits): count `i` of `counts` is value `BASE + i` for `i < 2`, else
        // `BASE + i + 1`; plies is `BASE + 2`, the score difference `BASE + 33`.
        let plies = s.steps as f32 / MAX_STEPS as f32;
        let deck = (s.deck_pos != before.deck_pos)
            .then(|| s.deck_len() as u8 as f32 / SCALAR_DIVS[0]);
        for (seat, row) in rows.iter_mut().enumerate() {
            let o = seat ^ 1;
            let unseen = (s.hands[o].count_ones() - s.public_hands[o].count_ones()) as u8;
            row[BASE + 1] = unseen as f32 / SCALAR_DIVS[1];
            row[BASE + 2] = plies;
            if let Some(deck) = deck {
                row[BASE] = deck;
            }
        }
        let mut grew = false;
        for b in 0..2 {
            let changed = before.boards[b] ^ s.boards[b];
            if changed == 0 {
                continue;
            }
            grew = true;
            for c in 0..N_COLORS {
                if column(changed, c) == 0 {
                    continue;
                }
                let q = column_counts(column(s.boards[b], c));
                // Seat `b`'s own block (counts 2..17), the other seat's opponent block (17..32).
                for (row, block) in [(b, 2), (b ^ 1, 17)] {
                    for (k, q) in [(0, q[0]), (5, q[1]), (10, q[2])] {
                        let i = block + k + c;
                        rows[row][BASE + i + 1] = q as f32 / SCALAR_DIVS[i];
                    }
                }
            }
        }
        if grew {
            let diff = board_score_of(s.boards[0]) - board_score_of(s.boards[1]);
            rows[0][BASE + 33] = diff as f32 / MAX_BOARD_SCORE as f32;
            rows[1][BASE + 33] = (-diff) as f32 / MAX_BOARD_SCORE as f32;
        }
        true
    }

    fn obs_format(&self) -> ObsFormat {
        let mut runs = vec![(N_CHANNELS * DECK_SIZE, Some(1)), (1, Some(44)), (1, Some(8)), (1, None)];
        for _ in 0..2 {
            runs.extend([(N_COLORS, Some(10)), (N_COLORS, Some(3)), (N_COLORS, Some(12))]);
        }
        runs.push((1, None));
        ObsFormat::from_runs(&runs)
    }

    /// The compact row directly: the 420 one-hot values as bytes (SIMD in channel-major),
    /// the 32 small scalars as their numerators, plies and the score difference in the tail.
    #[inline]
    fn observe_u8(&self, s: &LostCitiesState, player: usize, bytes: &mut [u8], tail: &mut [f32]) -> bool {
        let parts = ObsParts::of(s, player);
        let (onehot, counts) = bytes.split_at_mut(N_CHANNELS * DECK_SIZE);
        match self.layout() {
            ObsLayout::ChannelMajor => {
                for (row, bits) in onehot.chunks_exact_mut(DECK_SIZE).zip(parts.channels) {
                    one_hot_u8(bits as u128, row);
                }
            }
            ObsLayout::CardMajor => CARD_ROWS.write(&parts.channel_of_cards(), onehot),
        }
        counts.copy_from_slice(&parts.counts);
        tail[0] = parts.steps as f32 / MAX_STEPS as f32;
        tail[1] = parts.diff as f32 / MAX_BOARD_SCORE as f32;
        true
    }
}

/// Writes the 34 scalars of a row (after the one-hot block): the 32 small ones as
/// `counts[i] / SCALAR_DIVS[i]`, plies / `MAX_STEPS` and the board-score difference /
/// `MAX_BOARD_SCORE`.
#[inline(always)]
fn write_scalars(counts: &[u8; 32], steps: u16, diff: i32, scalars: &mut [f32]) {
    // The 32 small scalars are two contiguous runs of the row (0..2 and 3..33, around
    // plies): written as such, without a per-scalar index, they vectorize.
    let (q, div) = (counts, &SCALAR_DIVS);
    for (out, (&q, &div)) in scalars[..2].iter_mut().zip(q[..2].iter().zip(&div[..2])) {
        *out = q as f32 / div;
    }
    for (out, (&q, &div)) in scalars[3..33].iter_mut().zip(q[2..].iter().zip(&div[2..])) {
        *out = q as f32 / div;
    }
    scalars[2] = steps as f32 / MAX_STEPS as f32;
    scalars[33] = diff as f32 / MAX_BOARD_SCORE as f32;
}

/// Writes into a one-hot block the change from channels `old` to `new` (each card in one
/// channel of each): 0 where a card left a channel, 1 where it entered one, at
/// `index(card, channel)`; every other value is left as it is.
#[inline(always)]
fn flip_channels(
    old: &[u64; N_CHANNELS],
    new: &[u64; N_CHANNELS],
    onehot: &mut [f32],
    index: impl Fn(usize, usize) -> usize,
) {
    for k in 0..N_CHANNELS {
        let (mut left, mut entered) = (old[k] & !new[k], new[k] & !old[k]);
        while left != 0 {
            onehot[index(left.trailing_zeros() as usize, k)] = 0.0;
            left &= left - 1;
        }
        while entered != 0 {
            onehot[index(entered.trailing_zeros() as usize, k)] = 1.0;
            entered &= entered - 1;
        }
    }
}

/// The seven one-hot channels of `s` as seen by `player`, as card sets: own hand, own
/// expeditions, the opponent's, discard tops, the rest of the discard piles, the
/// opponent's hand cards taken from a pile, and every other card (unseen).
#[inline(always)]
fn channels(s: &LostCitiesState, player: usize) -> [u64; N_CHANNELS] {
    let (p, o) = (player, player ^ 1);
    let tops = s.tops();
    let six = [
        s.hands[p],
        s.boards[p],
        s.boards[o],
        tops,
        s.discards & !tops,
        s.public_hands[o],
    ];
    let seen = six.iter().fold(0, |acc, c| acc | c);
    [six[0], six[1], six[2], six[3], six[4], six[5], ALL_CARDS & !seen]
}

/// The 32 small scalars' numerators ([`SCALAR_DIVS`]) of `s` as seen by `player`.
#[inline(always)]
fn counts(s: &LostCitiesState, player: usize) -> [u8; 32] {
    let (p, o) = (player, player ^ 1);
    let mut counts = [0u8; 32];
    counts[0] = s.deck_len() as u8;
    counts[1] = (s.hands[o].count_ones() - s.public_hands[o].count_ones()) as u8;
    for (seat, base) in [(p, 2), (o, 17)] {
        for c in 0..N_COLORS {
            let [top, handshakes, len] = column_counts(column(s.boards[seat], c));
            counts[base + c] = top;
            counts[base + 5 + c] = handshakes;
            counts[base + 10 + c] = len;
        }
    }
    counts
}

/// An expedition column's three counts: its top number's rank (0 when it has none),
/// its handshakes and its cards.
#[inline(always)]
fn column_counts(col: u64) -> [u8; 3] {
    let numbers = col >> 3;
    let top = if numbers == 0 {
        0
    } else {
        64 - numbers.leading_zeros() + 1
    };
    [
        top as u8,
        (col & 0b111).count_ones() as u8,
        col.count_ones() as u8,
    ]
}

/// [`channels`] for both seats, the discard tops found once.
#[inline(always)]
fn seat_channels(s: &LostCitiesState) -> [[u64; N_CHANNELS]; 2] {
    let tops = s.tops();
    let buried = s.discards & !tops;
    let seat = |p: usize| {
        let o = p ^ 1;
        let seen = s.hands[p] | s.boards[p] | s.boards[o] | tops | buried | s.public_hands[o];
        [
            s.hands[p],
            s.boards[p],
            s.boards[o],
            tops,
            buried,
            s.public_hands[o],
            ALL_CARDS & !seen,
        ]
    };
    [seat(0), seat(1)]
}

/// The divisor of each of the 32 small scalars: cards left in the deck (44), the
/// opponent's unseen hand cards (8), then per seat (own, opponent) and colour the top
/// number's rank (10), handshakes (3) and cards in the column (12).
const SCALAR_DIVS: [f32; 32] = {
    let mut t = [0.0; 32];
    t[0] = DECK_AFTER_DEAL as f32;
    t[1] = HAND_SIZE as f32;
    let mut i = 2;
    while i < 32 {
        let k = (i - 2) % 15 / N_COLORS;
        t[i] = [10.0, 3.0, 12.0][k];
        i += 1;
    }
    t
};

/// What an observation is made of, before it is written in one dtype or the other.
struct ObsParts {
    /// The seven one-hot channels as card sets.
    channels: [u64; N_CHANNELS],
    /// The 32 small scalars as numerators (see [`SCALAR_DIVS`]).
    counts: [u8; 32],
    /// Plies played.
    steps: u16,
    /// Own board score minus the opponent's.
    diff: i32,
}

/// The card-major one-hot block as 60 rows of 7 bytes, one per card, from each card's channel.
const CARD_ROWS: OneHotRows = OneHotRows::new(N_CHANNELS, DECK_SIZE);

impl ObsParts {
    /// Each card's channel (the channels partition the deck), one byte per card, then the
    /// padding [`OneHotRows::write`] may read: the three bits of the channel number as bit
    /// planes, spread eight cards at a time.
    #[inline(always)]
    fn channel_of_cards(&self) -> [u8; DECK_SIZE + 20] {
        let c = &self.channels;
        let planes = [c[1] | c[3] | c[5], c[2] | c[3] | c[6], c[4] | c[5] | c[6]];
        let mut out = [0u8; DECK_SIZE + 20];
        for (k, chunk) in out[..64].chunks_exact_mut(8).enumerate() {
            let byte = |plane: u64| spread_bits_to_bytes((plane >> (8 * k)) as u8);
            let word = byte(planes[0]) | byte(planes[1]) << 1 | byte(planes[2]) << 2;
            chunk.copy_from_slice(&word.to_le_bytes());
        }
        out
    }

    #[inline(always)]
    fn of(s: &LostCitiesState, player: usize) -> Self {
        let (p, o) = (player, player ^ 1);
        ObsParts {
            channels: channels(s, player),
            counts: counts(s, player),
            steps: s.steps,
            diff: board_score_of(s.boards[p]) - board_score_of(s.boards[o]),
        }
    }
}

/// Checks that `order` is a permutation of `0..60` and returns it as an array.
pub fn check_order(order: &[u8]) -> Result<[u8; DECK_SIZE]> {
    Error::check_len("deck order", DECK_SIZE, order.len())?;
    let mut seen = 0u64;
    for &c in order {
        if c as usize >= DECK_SIZE || seen >> c & 1 == 1 {
            return Err(Error::Invalid {
                what: "deck order",
                reason: format!(
                    "must be a permutation of 0..60 (card {c} is out of range or repeated)"
                ),
            });
        }
        seen |= 1 << c;
    }
    let mut out = [0u8; DECK_SIZE];
    out.copy_from_slice(order);
    Ok(out)
}

/// Deals a checked order: `0..8` to player 0, `8..16` to player 1, the deck from 16.
fn deal(order: &[u8; DECK_SIZE]) -> LostCitiesState {
    let mut s = LostCitiesState::zeroed();
    s.deck = *order;
    s.hands[0] = CardSet64::from_ids(order[..HAND_SIZE].iter().copied()).0;
    s.hands[1] = CardSet64::from_ids(order[HAND_SIZE..2 * HAND_SIZE].iter().copied()).0;
    s.deck_pos = (2 * HAND_SIZE) as u8;
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_is_192_bytes() {
        assert_eq!(std::mem::size_of::<LostCitiesState>(), 192);
    }

    #[test]
    fn rank_sums_table() {
        assert_eq!(RANK_SUMS[0], 0);
        assert_eq!(RANK_SUMS[0b1_1111_1111], 54);
        assert_eq!(RANK_SUMS[1], 2);
        assert_eq!(RANK_SUMS[1 << 8], 10);
    }
}
