//! Invariants of a Flip 7 lane: [`check_state`] (what `Game::check_state` and
//! `VecEnv::set_state` require: every card accounted for, counters consistent, the event
//! queue well formed, a decision available to the seat to act) and the game's part of the
//! generic fuzz check ([`fuzz_invariants`]: hidden-state agreement, rewards adding up to the
//! banked totals).

use super::fast::{Flip7State, TASK_CAPACITY};
use super::reference::compare_hidden;
use super::*;
use crate::core::spec::FuzzStep;
use crate::core::Game;
use crate::core::spec::GameChecks;
use crate::core::{LaneRng, SingleLane};

/// The most events the scheduler can hold (18 deals, 1 turn, 3 forced draws, 1 end of a
/// Flip Three, 6 deferred actions).
pub(crate) const MAX_TASKS: usize = 29;

/// Every card of a lane by id: draw pile, discard pile, hands, deferred actions, scheduled
/// deferred actions and the pending card. The state's card bytes and lengths must be in
/// range (as [`check_state`] checks before it counts).
pub fn card_census(s: &Flip7State) -> [u32; CARD_IDS] {
    let mut counts = [0u32; CARD_IDS];
    for &c in s.draw_pile() {
        counts[c as usize] += 1;
    }
    for c in 0..CARD_IDS {
        counts[c] += s.discard[c] as u32;
        counts[c] += s.hands.iter().map(|h| h[c] as u32).sum::<u32>();
    }
    for &c in &s.deferred[..s.deferred_len as usize] {
        counts[c as usize] += 1;
    }
    for i in 0..s.task_len as usize {
        let (kind, _, card) = s.task_at(i);
        if kind == TASK_RESOLVE {
            counts[card as usize] += 1;
        }
    }
    if s.pending != NO_CARD {
        counts[s.pending as usize] += 1;
    }
    counts
}

/// The padding bytes of a state: between fields, as `(from, to)` byte ranges.
fn padding() -> [(usize, usize); 5] {
    use std::mem::{offset_of, size_of};
    [
        (
            offset_of!(Flip7State, obs_deferred_len) + 1,
            offset_of!(Flip7State, shuffles),
        ),
        (
            offset_of!(Flip7State, shuffles) + 2,
            offset_of!(Flip7State, active),
        ),
        (
            offset_of!(Flip7State, discard) + CARD_IDS,
            offset_of!(Flip7State, scores),
        ),
        (
            offset_of!(Flip7State, hands) + MAX_PLAYERS * CARD_IDS,
            offset_of!(Flip7State, round_scores),
        ),
        (
            offset_of!(Flip7State, round_scores) + 4 * MAX_PLAYERS,
            size_of::<Flip7State>(),
        ),
    ]
}

/// Checks that `s` is a state of this configuration the engine can reach, as far as its
/// bytes tell, so that every method is safe on it and every step keeps it valid:
///
/// - ranges: every card byte of the deck, the deferred cards, the scheduled events and the
///   pending card is a card id (the pending card one of the three action cards); the
///   lengths fit (`deck_len <= shuffled_len <= 94`, at most 3 deferred cards, at most
///   29 events, `MAX_TASKS`); dealer and seat to act are seats; flags are 0 or 1; the change
///   record (`obs_*`) is in range; the padding bytes are zero;
/// - cards: all 94 cards accounted for ([`card_census`]), `discard_len` their number in
///   the discard pile, the cached per-seat counts and sums equal to what the hands hold;
///   seats beyond the count hold nothing and are active-zero;
/// - seats: statuses known and `active` their bits; no seat holds two Second Chances; a
///   busted seat holds exactly one pair of numbers and no Second Chance, any other seat no
///   pair; a frozen seat holds a Freeze; a seat that stayed holds a card (while running:
///   the statuses of a finished game are those of its last round, its hands are empty);
/// - rounds and scores: round at least 1 (and within `max_rounds`, and below `u32::MAX`);
///   the last completed round is the one before (once over: this one); before any round
///   was completed no points; each banked total at least the last round's points; while
///   running every total below the target; once over, terminated with a total at the
///   target or truncated at `max_rounds` without one, and the round ended by one of its
///   three causes (a Flip 7 by an active seat, no active seat, an exhausted deck);
/// - a running round: no Flip 7 yet, an active seat, the deck not exhausted, at most six
///   numbers for a seat that did not bust; the event queue reads, front to back, an
///   optional Flip Three (up to 3 forced draws then its end, one seat), deferred actions
///   to resolve (Freeze or Flip Three), the rest of the opening deal (consecutive seats
///   ending at the dealer, the turn then starting after the dealer), and one turn event;
///   deferred cards (Freeze or Flip Three) only while a Flip Three's forced draws run, at
///   most one per draw made; with no pending card the queue is the turn event alone, for
///   the seat after the one to act, which is active; a pending card goes to a seat that
///   did not bust (a Second Chance only to an active seat holding one, and the only
///   pending card during a Flip Three is a Second Chance drawn by its seat), and has a
///   target;
/// - a finished game: no events, deferred or pending cards, no cards in front of anyone,
///   seat 0 to act.
pub fn check_state(game: &Flip7, s: &Flip7State) -> Result<(), String> {
    check_ranges(game, s)?;
    let n = game.num_players();
    let census = card_census(s);
    if census.iter().zip(CARD_COPIES).any(|(&a, b)| a != b as u32) {
        return Err(format!("cards not conserved: {census:?}"));
    }
    if s.discard_len as u32 != s.discard.iter().map(|&c| c as u32).sum::<u32>() {
        return Err("discard_len disagrees with the discard counts".into());
    }
    check_seats(game, s)?;
    check_rounds(game, s)?;
    if s.end != 0 {
        if s.task_len != 0 || s.task_head != 0 || s.deferred_len != 0 || s.pending != NO_CARD {
            return Err("a finished game has events, deferred or pending cards".into());
        }
        if s.to_act != 0 {
            return Err(format!("seat {} to act in a finished game", s.to_act));
        }
        if s.held[..n].iter().any(|&h| h != 0) {
            return Err("cards in front of a seat in a finished game".into());
        }
        return Ok(());
    }
    check_running(game, s)
}

/// Byte and length ranges: what [`card_census`] and the rest of the check index with.
fn check_ranges(game: &Flip7, s: &Flip7State) -> Result<(), String> {
    let n = game.num_players();
    let bytes = bytemuck::bytes_of(s);
    for (from, to) in padding() {
        if bytes[from..to].iter().any(|&b| b != 0) {
            return Err("padding bytes are not zero".into());
        }
    }
    if s.shuffled_len as usize > DECK_SIZE || s.deck_len > s.shuffled_len {
        return Err(format!(
            "deck length {} of a shuffle of {}",
            s.deck_len, s.shuffled_len
        ));
    }
    if let Some(&c) = s.deck.iter().find(|&&c| c as usize >= CARD_IDS) {
        return Err(format!("deck byte {c} is not a card"));
    }
    if s.deferred_len as usize > OBS_DEFERRED_SLOTS {
        return Err(format!("{} deferred cards", s.deferred_len));
    }
    if s.deferred[..s.deferred_len as usize]
        .iter()
        .any(|&c| c != FREEZE && c != FLIP_THREE)
    {
        return Err("a deferred card is not a Freeze or a Flip Three".into());
    }
    if s.task_len as usize > MAX_TASKS || s.task_head as usize >= TASK_CAPACITY {
        return Err(format!(
            "scheduler holds {} events from {}",
            s.task_len, s.task_head
        ));
    }
    for i in 0..s.task_len as usize {
        let (kind, seat, card) = s.task_at(i);
        let resolve = kind == TASK_RESOLVE;
        if !(TASK_DEAL..=TASK_TURN).contains(&kind)
            || seat as usize >= n
            || (resolve && card != FREEZE && card != FLIP_THREE)
            || (!resolve && card != 0)
        {
            return Err(format!("event {i} ({kind}, {seat}, {card}) is malformed"));
        }
    }
    if s.pending != NO_CARD && ![FREEZE, FLIP_THREE, SECOND_CHANCE].contains(&s.pending) {
        return Err(format!("pending card {} is not an action card", s.pending));
    }
    if s.to_act as usize >= n || s.dealer as usize >= n {
        return Err(format!(
            "seat to act {} or dealer {} out of range",
            s.to_act, s.dealer
        ));
    }
    if s.flip7 != NO_SEAT && s.flip7 as usize >= n {
        return Err(format!("Flip 7 seat {} out of range", s.flip7));
    }
    if s.exhausted > 1 || s.end > 2 || s.obs_discard > 1 {
        return Err("flags out of range".into());
    }
    if s.obs_task_len as usize > MAX_TASKS
        || s.obs_deferred_len as usize > OBS_DEFERRED_SLOTS
        || (s.obs_seats != u32::MAX && s.obs_seats & !all_seats(n) != 0)
    {
        return Err("change record out of range".into());
    }
    Ok(())
}

/// The bits of seats `0..n`.
fn all_seats(n: usize) -> u32 {
    (1 << n) - 1
}

/// Per-seat caches, statuses and hands.
fn check_seats(game: &Flip7, s: &Flip7State) -> Result<(), String> {
    let n = game.num_players();
    for p in 0..MAX_PLAYERS {
        let hand = &s.hands[p];
        let held: u32 = hand.iter().map(|&c| c as u32).sum();
        let numbers: u32 = hand[..=MAX_NUMBER as usize].iter().map(|&c| c as u32).sum();
        let number_sum: u32 = (0..=MAX_NUMBER)
            .map(|c| c as u32 * hand[c as usize] as u32)
            .sum();
        let plus_sum: u32 = (PLUS_2..=PLUS_10)
            .map(|c| plus_value(c) * hand[c as usize] as u32)
            .sum();
        if held != s.held[p] as u32
            || numbers != s.numbers[p] as u32
            || number_sum != s.number_sum[p] as u32
            || plus_sum != s.plus_sum[p] as u32
        {
            return Err(format!("seat {p}: cached card counts are stale"));
        }
        if p >= n {
            if held != 0 || s.scores[p] != 0 || s.round_scores[p] != 0 || s.status[p] != ACTIVE {
                return Err(format!("seat {p} does not exist but is not empty"));
            }
            continue;
        }
        let status = s.status[p];
        if status > FROZEN {
            return Err(format!("seat {p} has status {status}"));
        }
        if hand[SECOND_CHANCE as usize] > 1 {
            return Err(format!("seat {p} holds two Second Chances"));
        }
        let pairs = hand[..=MAX_NUMBER as usize]
            .iter()
            .filter(|&&c| c > 1)
            .count();
        let over_two = hand[..=MAX_NUMBER as usize].iter().any(|&c| c > 2);
        if s.end != 0 {
            // Hands were cleared when the last round ended; its statuses stay.
            continue;
        }
        if status == BUSTED {
            if pairs != 1 || over_two || hand[SECOND_CHANCE as usize] != 0 {
                return Err(format!(
                    "busted seat {p} does not hold exactly one pair and no Second Chance"
                ));
            }
        } else if pairs != 0 {
            return Err(format!("seat {p} holds a pair without busting"));
        }
        if status == FROZEN && hand[FREEZE as usize] == 0 {
            return Err(format!("frozen seat {p} holds no Freeze"));
        }
        if status == STAYED && held == 0 {
            return Err(format!("seat {p} stayed with no card"));
        }
    }
    let active = (0..n)
        .filter(|&p| s.status[p] == ACTIVE)
        .fold(0u32, |bits, p| bits | 1 << p);
    if active != s.active {
        return Err("active seats disagree with the statuses".into());
    }
    Ok(())
}

/// Rounds, banked totals and the end of the game.
fn check_rounds(game: &Flip7, s: &Flip7State) -> Result<(), String> {
    let n = game.num_players();
    let limit = game.max_rounds().unwrap_or(0);
    if s.round == 0 || s.round == u32::MAX || (limit > 0 && s.round > limit) {
        return Err(format!("round {} (limit {limit})", s.round));
    }
    let completed = if s.end == 0 { s.round - 1 } else { s.round };
    if s.completed_round != completed {
        return Err(format!(
            "last completed round {} in round {}",
            s.completed_round, s.round
        ));
    }
    let scores = &s.scores[..n];
    if (0..n).any(|p| s.scores[p] < s.round_scores[p])
        || (s.completed_round == 0 && scores.iter().chain(&s.round_scores).any(|&x| x != 0))
    {
        return Err("banked totals disagree with the last round's points".into());
    }
    let best = scores.iter().copied().max().unwrap_or(0);
    let target = game.target_score();
    match s.end {
        0 if best >= target => Err(format!("a running game with a total of {best}")),
        1 if best < target => Err(format!("terminated with a best total of {best}")),
        2 if best >= target || limit == 0 || s.round != limit => Err(format!(
            "truncated in round {} (limit {limit}) with a best total of {best}",
            s.round
        )),
        1 | 2 => {
            let flipped = s.flip7 != NO_SEAT && s.status[s.flip7 as usize] == ACTIVE;
            if flipped || s.active == 0 || s.exhausted != 0 {
                Ok(())
            } else {
                Err("the game ended but its last round had no cause to end".into())
            }
        }
        _ => Ok(()),
    }
}

/// A running round: the event queue, the deferred and pending cards, the seat to act.
fn check_running(game: &Flip7, s: &Flip7State) -> Result<(), String> {
    let n = game.num_players();
    if s.flip7 != NO_SEAT || s.active == 0 || s.exhausted != 0 {
        return Err("a running round that should have ended".into());
    }
    for p in 0..n {
        if s.status[p] != BUSTED && s.numbers[p] >= FLIP7_CARDS {
            return Err(format!("seat {p} holds {} numbers", s.numbers[p]));
        }
    }
    let events: Vec<(u8, u8, u8)> = (0..s.task_len as usize).map(|i| s.task_at(i)).collect();
    let mut i = 0;
    let mut three = None;
    let mut forced = 0;
    while i < events.len() && events[i].0 == TASK_FORCED_DRAW {
        forced += 1;
        i += 1;
    }
    if i < events.len() && events[i].0 == TASK_END_THREE {
        let seat = events[i].1;
        if events[..i].iter().any(|e| e.1 != seat) || forced > 3 {
            return Err("a Flip Three's forced draws do not match its end".into());
        }
        three = Some(seat as usize);
        i += 1;
    } else if forced > 0 {
        return Err("forced draws without the end of a Flip Three".into());
    }
    while i < events.len() && events[i].0 == TASK_RESOLVE {
        i += 1;
    }
    let first_deal = i;
    while i < events.len() && events[i].0 == TASK_DEAL {
        i += 1;
    }
    let deals = &events[first_deal..i];
    let dealer = s.dealer as usize;
    let next = |p: usize| if p + 1 == n { 0 } else { p + 1 };
    let mut expected = dealer;
    for d in deals.iter().rev() {
        if d.1 as usize != expected {
            return Err(format!("deal event for seat {} out of order", d.1));
        }
        expected = if expected == 0 { n - 1 } else { expected - 1 };
    }
    if i + 1 != events.len() || events[i].0 != TASK_TURN {
        return Err("the event queue does not end with its one turn event".into());
    }
    let turn = events[i].1 as usize;
    if !deals.is_empty() && turn != next(dealer) {
        return Err(format!(
            "the opening deal runs but the first turn is seat {turn}"
        ));
    }
    let deferred = s.deferred_len as usize;
    if deferred > 0 && (three.is_none() || forced + deferred > 3) {
        return Err(format!(
            "{deferred} deferred cards with {forced} forced draws left"
        ));
    }
    let p = s.to_act as usize;
    if s.pending == NO_CARD {
        if events.len() != 1 || turn != next(p) || s.status[p] != ACTIVE {
            return Err(format!(
                "seat {p} to act with {} events and the turn event for seat {turn}",
                events.len()
            ));
        }
    } else {
        if s.status[p] == BUSTED || s.status[p] == STAYED {
            return Err(format!("seat {p} places a card but cannot"));
        }
        if s.pending == SECOND_CHANCE
            && (s.status[p] != ACTIVE || s.hands[p][SECOND_CHANCE as usize] == 0)
        {
            return Err(format!("seat {p} places a Second Chance it could keep"));
        }
        if let Some(seat) = three {
            if s.pending != SECOND_CHANCE || seat != p {
                return Err("a card pending during another seat's Flip Three".into());
            }
        }
        let mut mask = vec![0u8; game.num_actions()];
        game.legal_mask(s, &mut mask);
        if mask.iter().all(|&m| m == 0) {
            return Err("no target for the pending card".into());
        }
    }
    Ok(())
}

impl GameChecks for Flip7 {
    type Reference = reference::Reference;

    fn diff_pair(g: u64, deal: &mut LaneRng) -> (Self::Reference, SingleLane<Self>) {
        reference::diff_pair(g, deal)
    }

    /// The 94-card deck shuffled (see [`check_order`]).
    fn sample_order(&self, rng: &mut LaneRng) -> Option<Vec<u8>> {
        let mut order = make_deck().to_vec();
        rng.shuffle(&mut order);
        Some(order)
    }

    const FUZZ_CONFIG_BYTES: usize = 2;

    /// The configuration of a fuzz input's first two bytes `a, b` (what
    /// [`crate::core::spec::GameChecks::fuzz_config`] reads): `3 + a % 17` players, one (the
    /// solo game) for `a % 17 == 16`; `b` picks
    /// the target (200, 60 or 1) and the round limit (none or `1 + b / 8 % 4`).
    fn fuzz_config(bytes: &[u8]) -> Self {
        let (a, b) = (bytes[0], bytes[1]);
        let target = [200, 60, 1, 200][(b % 4) as usize];
        let max_rounds = (b & 4 != 0).then_some(1 + (b / 8 % 4) as u32);
        let players = match a % 17 {
            16 => SOLO_PLAYERS,
            k => 3 + k as usize,
        };
        Flip7::new(players, target, max_rounds).expect("valid fuzz configuration")
    }

    fn fuzz_pair(&self, seed: u64) -> (Self::Reference, SingleLane<Self>) {
        let rng = LaneRng::from_seed(seed);
        (
            reference::Reference::shuffled(*self, rng.clone()),
            SingleLane::new(*self, rng),
        )
    }

    /// The invariants the generic fuzz check ([`crate::core::fuzz`]) adds for Flip 7: both
    /// engines agree on everything hidden (draw pile, hands, scores), and every seat's rewards
    /// so far sum to its banked total.
    fn fuzz_invariants(step: &FuzzStep<'_, Self>) -> std::result::Result<(), String> {
        compare_hidden(step.reference, step.fast)?;
        let scores = &step.fast.state.scores;
        for (p, &t) in step.reward_totals.iter().enumerate() {
            if t != scores[p] as f64 {
                return Err(format!(
                    "seat {p}: rewards sum to {t} but it banked {}",
                    scores[p]
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::testing::refuse_edit;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn check_state_answers_arbitrary_bytes_without_panicking(
            data in proptest::collection::vec(any::<u8>(), std::mem::size_of::<Flip7State>())
        ) {
            let s: Flip7State = bytemuck::pod_read_unaligned(&data);
            for players in [3, 7, 18] {
                let _ = check_state(&Flip7::with_players(players).unwrap(), &s);
            }
        }
    }

    #[test]
    fn the_queue_must_end_with_its_turn_event() {
        let game = Flip7::with_players(4).unwrap();
        let mut s = game.reset(&mut LaneRng::from_seed(3));
        check_state(&game, &s).unwrap();
        assert_eq!(s.pending, NO_CARD, "seed 3 deals without a pending card");
        let (kind, seat, _) = s.task_at(0);
        assert_eq!((s.task_len, kind), (1, TASK_TURN));
        // A deal event for the seat after the dealer, in front of the turn.
        let head = (s.task_head as usize + TASK_CAPACITY - 1) % TASK_CAPACITY;
        s.tasks[head] = TASK_DEAL as u16 | (seat as u16) << 3;
        s.task_head = head as u8;
        s.task_len = 2;
        assert!(check_state(&game, &s).is_err());
        s.task_len = 0;
        s.task_head = (head as u8 + 2) % TASK_CAPACITY as u8;
        assert!(check_state(&game, &s).unwrap_err().contains("turn event"));
    }

    #[test]
    fn a_pending_card_needs_an_action_card_and_a_target() {
        let game = Flip7::with_players(3).unwrap();
        let mut s = game.reset(&mut LaneRng::from_seed(3));
        s.pending = 5;
        assert!(check_state(&game, &s).unwrap_err().contains("action card"));
    }

    #[test]
    fn a_finished_game_has_no_events() {
        let game = Flip7::new(3, 1, None).unwrap();
        let mut rng = LaneRng::from_seed(5);
        let mut s = game.reset(&mut rng);
        let mut rewards = [0f32; 3];
        while !s.is_over() {
            let mut mask = [0u8; 5];
            game.legal_mask(&s, &mut mask);
            let a = crate::core::policy::random_legal(&mask, &mut rng);
            assert!(game.step(&mut s, a, &mut rng, &mut rewards).applied);
        }
        check_state(&game, &s).unwrap();
        let mut t = s;
        t.task_len = 1;
        assert!(check_state(&game, &t).is_err());
        let mut t = s;
        t.end = 0;
        assert!(check_state(&game, &t).is_err());
        // Another configuration: a target this game's totals never reached.
        assert!(check_state(&Flip7::new(3, 1000, None).unwrap(), &s).is_err());
    }

    #[test]
    fn fresh_games_keep_the_invariants() {
        for players in 3..=18 {
            let game = Flip7::with_players(players).unwrap();
            let s = game.reset(&mut LaneRng::from_seed(players as u64));
            check_state(&game, &s).unwrap();
        }
    }

    #[test]
    fn flip7_draw_pile_longer_than_the_deck_is_refused() {
        let game = Flip7::with_players(4).unwrap();
        refuse_edit(game, "deck_len = 200", |s: &mut Flip7State| {
            s.deck_len = 200
        });
        refuse_edit(game, "task_len = 40", |s: &mut Flip7State| s.task_len = 40);
        refuse_edit(game, "pending card 30", |s: &mut Flip7State| s.pending = 30);
        refuse_edit(game, "padding", |s: &mut Flip7State| {
            let at = std::mem::offset_of!(Flip7State, obs_deferred_len) + 1;
            bytemuck::bytes_of_mut(s)[at] = 1
        });
    }
}
