//! The fast engine's observation encoders (docs/flip7.md, "Observation"): the row's layout
//! ([`Flip7::encode_format`]), the full f32 row, the compact byte row, and the incremental
//! update that rewrites only what a step marked. `fast.rs`'s [`Game`](crate::core::Game)
//! implementation forwards to them.

use super::fast::{all_seats, Flip7State};
use super::*;
use crate::core::simd::widen_u8_f32;

impl Flip7 {
    /// Bytes: seat numbers, the deck's size, flags, card ids and counts, statuses and the
    /// event block; f32 tail: the round, the target score and round limit, and each seat's
    /// score (they can exceed 255).
    pub(super) fn encode_format(&self) -> crate::core::ObsFormat {
        let b = Some(1);
        let mut runs = vec![(3, b), (1, None), (1, b), (2, None), (3, b)];
        for _ in 0..self.num_players() {
            runs.extend([(1, None), (1, b), (CARD_IDS, b)]);
        }
        runs.extend([(CARD_IDS, b), (3 * OBS_TASK_SLOTS, b), (OBS_DEFERRED_SLOTS, b)]);
        crate::core::ObsFormat::from_runs(&runs)
    }

    /// The compact row directly: the state keeps its counts as bytes already, so most of
    /// the row is copied as it is.
    #[inline(always)]
    pub(super) fn encode_u8(&self, s: &Flip7State, player: usize, bytes: &mut [u8], tail: &mut [f32]) -> bool {
        let n = self.num_players();
        let (header, rest) = bytes.split_at_mut(7);
        header[0] = player as u8;
        header[1] = s.to_act;
        header[2] = s.dealer;
        header[3] = s.deck_len;
        header[4] = (s.pending != NO_CARD) as u8;
        header[5] = if s.pending == NO_CARD { 0 } else { s.pending };
        header[6] = if s.flip7 == NO_SEAT { 0 } else { s.flip7 + 1 };
        tail[0] = s.round as f32;
        tail[1] = self.target_score as f32;
        tail[2] = self.max_rounds as f32;
        let (rows, rest) = rest.split_at_mut((1 + CARD_IDS) * n);
        for (p, row) in rows.chunks_exact_mut(1 + CARD_IDS).enumerate() {
            row[0] = s.status[p];
            row[1..].copy_from_slice(&s.hands[p]);
            tail[3 + p] = s.scores[p] as f32;
        }
        let (discard, rest) = rest.split_at_mut(CARD_IDS);
        discard.copy_from_slice(&s.discard);
        let (queue, deferred) = rest.split_at_mut(3 * OBS_TASK_SLOTS);
        let used = 3 * s.task_len as usize;
        for (i, triple) in queue[..used].chunks_exact_mut(3).enumerate() {
            let (kind, seat, card) = s.task_at(i);
            triple.copy_from_slice(&[kind, seat, card]);
        }
        queue[used..].fill(0);
        for (i, o) in deferred.iter_mut().enumerate() {
            *o = if i < s.deferred_len as usize { s.deferred[i] + 1 } else { 0 };
        }
        true
    }

    /// The full row (docs/flip7.md, "Observation").
    #[inline(always)]
    pub(super) fn encode_f32(&self, s: &Flip7State, player: usize, obs: &mut [f32]) {
        let n = self.num_players();
        let (header, rest) = obs.split_at_mut(OBS_HEADER);
        self.write_header(s, player, header);
        header[5] = self.target_score as f32;
        header[6] = self.max_rounds as f32;
        let (rows, rest) = rest.split_at_mut(OBS_ROW * n);
        for (p, row) in rows.chunks_exact_mut(OBS_ROW).enumerate() {
            write_seat_row(s, p, row);
        }
        let (discard, rest) = rest.split_at_mut(CARD_IDS);
        write_discard(s, discard);
        let (queue, deferred) = rest.split_at_mut(3 * OBS_TASK_SLOTS);
        let used = 3 * s.task_len as usize;
        write_queue(s, &mut queue[..used]);
        queue[used..].fill(0.0);
        write_deferred(s, deferred);
    }

    /// Rewrites the header, the event block up to the longer of the queues before and after
    /// the step, the deferred cards, and only the seat rows and discard pile the step
    /// marked (`obs_seats`, `obs_discard`): about a tenth of the row in a typical step.
    #[inline(always)]
    pub(super) fn encode_update(&self, s: &Flip7State, player: usize, obs: &mut [f32]) -> bool {
        let n = self.num_players();
        let (header, rest) = obs.split_at_mut(OBS_HEADER);
        self.write_header(s, player, header);
        let (rows, rest) = rest.split_at_mut(OBS_ROW * n);
        let mut seats = s.obs_seats & all_seats(n);
        while seats != 0 {
            let p = seats.trailing_zeros() as usize;
            write_seat_row(s, p, &mut rows[p * OBS_ROW..(p + 1) * OBS_ROW]);
            seats &= seats - 1;
        }
        let (discard, rest) = rest.split_at_mut(CARD_IDS);
        if s.obs_discard != 0 {
            write_discard(s, discard);
        }
        let (queue, deferred) = rest.split_at_mut(3 * OBS_TASK_SLOTS);
        let used = 3 * s.task_len as usize;
        let before = 3 * s.obs_task_len as usize;
        write_queue(s, &mut queue[..used]);
        if before > used {
            queue[used..before].fill(0.0);
        }
        if s.deferred_len != 0 || s.obs_deferred_len != 0 {
            write_deferred(s, deferred);
        }
        true
    }

    /// The observation's header (see `docs/flip7.md`), but for the game's constants
    /// `target_score` and `max_rounds` (entries 5 and 6), which only a full observation
    /// writes.
    #[inline(always)]
    fn write_header(&self, s: &Flip7State, player: usize, header: &mut [f32]) {
        header[0] = player as f32;
        header[1] = s.to_act as f32;
        header[2] = s.dealer as f32;
        header[3] = s.round as f32;
        header[4] = s.deck_len as f32;
        header[7] = (s.pending != NO_CARD) as u8 as f32;
        header[8] = if s.pending == NO_CARD {
            0.0
        } else {
            s.pending as f32
        };
        header[9] = if s.flip7 == NO_SEAT {
            0.0
        } else {
            s.flip7 as f32 + 1.0
        };
    }
}

/// Seat `p`'s observation row: banked total, status, hand counts.
#[inline(always)]
fn write_seat_row(s: &Flip7State, p: usize, row: &mut [f32]) {
    row[0] = s.scores[p] as f32;
    row[1] = s.status[p] as f32;
    widen_u8_f32(&s.hands[p], &mut row[2..]);
}

/// The discard pile's counts.
#[inline(always)]
fn write_discard(s: &Flip7State, discard: &mut [f32]) {
    widen_u8_f32(&s.discard, discard);
}

/// The scheduled events in use, as `(kind, seat, card)` triples (`queue` is `3 * task_len`
/// long).
#[inline(always)]
fn write_queue(s: &Flip7State, queue: &mut [f32]) {
    for (i, triple) in queue.chunks_exact_mut(3).enumerate() {
        let (kind, seat, card) = s.task_at(i);
        triple[0] = kind as f32;
        triple[1] = seat as f32;
        triple[2] = card as f32;
    }
}

/// The deferred action cards (`card + 1`, 0 for an unused slot).
#[inline(always)]
fn write_deferred(s: &Flip7State, deferred: &mut [f32]) {
    for (i, o) in deferred.iter_mut().enumerate() {
        *o = if i < s.deferred_len as usize {
            s.deferred[i] as f32 + 1.0
        } else {
            0.0
        };
    }
}
