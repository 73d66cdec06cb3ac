//! Invariants of a no-limit lane: [`check_state`] (what `Game::check_state` and
//! `VecEnv::set_state` require) and the game's part of the generic fuzz check (exact
//! raise-to amounts around the legal bounds, hidden-state agreement, chip conservation).

use super::fast::{history_actions, NoLimitHoldemState, HISTORY_BYTES, HISTORY_OVERFLOW};
use super::reference::compare_hidden;
use super::NO_SEAT;
use super::{Chips, TableConfig, DECK_SIZE, MAX_PLAYERS};
use super::{NoLimitHoldem, EXACT_RAISE};
use crate::core::spec::FuzzStep;
use crate::core::{CardSet64, Game, LaneRng};
use super::{reference, trace, MIN_PLAYERS};
use crate::core::spec::{GameChecks, TraceRequest, TraceSummary};
use crate::core::{Error, SingleLane};

/// Checks that `s` is a hand of this configuration the engine can reach, as far as its
/// bytes tell, so that every method is safe on it and every step keeps it valid:
///
/// - the seat count, the starting stacks and (if fixed) the button are the configured ones;
///   the button is a seat; seats beyond the count and the padding hold zeros;
/// - the hole cards and the board are `2 * num_players + 5` distinct card ids below 52, and the
///   board cards dealt match the street (0, 3, 4, 5; once over any of them);
/// - chips: in a running hand each seat's stack, bet and committed chips add up to its
///   starting stack; once over no bets are left and the stacks add up to the starting
///   total;
/// - contributions of a running hand: before the flop the pots hold exactly the antes the
///   deal takes; from the flop on every live seat with chips has put as much in the pots as
///   any seat; some live seat has put in (pots and bets) as much as any folded seat;
/// - the betting round of a running hand: at least two seats not folded, no run-out, the
///   seat to act pending, only live seats with chips pending, and every live seat with chips
///   that faces a bet pending; the raise bookkeeping is
///   in range (increment at most the largest bet, the short all-in sum below the increment
///   and only while flagged, flags 0 or 1); no raises counted on later streets, a seat's
///   street raises within its hand raises, and (short of saturation) the counts agree;
/// - a finished hand has no seat to act, nothing pending and a street of 4, and its whole
///   board dealt when two or more seats are still in (a hand decided at the deal included).
///
/// and then that the action history is the hand's: its length within the buffer, the bytes
/// after it zero, the overflow hash zero unless the history overflowed, and replaying the
/// recorded actions from the deal gives exactly `s` (every field); an overflowed history
/// (more than [`super::fast::HISTORY_BYTES`] bytes of actions) only has its recorded
/// actions replayed, each applied.
pub fn check_state(game: &NoLimitHoldem, s: &NoLimitHoldemState) -> Result<(), String> {
    check_fields(game, s)?;
    check_history(game, s)
}

/// The history part of [`check_state`] (the fields are checked).
fn check_history(game: &NoLimitHoldem, s: &NoLimitHoldemState) -> Result<(), String> {
    let len = (s.hist_len & !HISTORY_OVERFLOW) as usize;
    if len > HISTORY_BYTES {
        return Err(format!("history length {len} above {HISTORY_BYTES}"));
    }
    if s.history[len..].iter().any(|&b| b != 0) {
        return Err("a stale history byte".into());
    }
    let overflow = s.hist_len & HISTORY_OVERFLOW != 0;
    if !overflow && s.hist_hash != [0; 2] {
        return Err("an overflow hash without an overflow".into());
    }
    let Some(actions) = history_actions(&s.history[..len]) else {
        return Err("a truncated exact raise in the history".into());
    };
    let n = s.num_players as usize;
    let mut replay = game.deal(&s.hole[..n], s.board, s.button as usize);
    let mut rng = LaneRng::from_seed(0);
    let mut rewards = [0f32; MAX_PLAYERS];
    for (i, &a) in actions.iter().enumerate() {
        if replay.is_over() || !game.step(&mut replay, a, &mut rng, &mut rewards).applied {
            return Err(format!("history action {i} ({a:#x}) cannot be played"));
        }
    }
    if !overflow && replay != *s {
        return Err("the state is not the replay of its history".into());
    }
    Ok(())
}

/// The fields part of [`check_state`].
fn check_fields(game: &NoLimitHoldem, s: &NoLimitHoldemState) -> Result<(), String> {
    let n = game.num_players();
    if s.num_players as usize != n {
        return Err(format!("{} seats vs {n}", s.num_players));
    }
    if s.button as usize >= n || game.button.is_some_and(|b| b != s.button) {
        return Err(format!("button {} is not this table's", s.button));
    }
    if s.starting != game.stacks {
        return Err("starting stacks differ from the configured stacks".into());
    }
    let seats = (1u32 << n) - 1;
    if (s.folded as u32 | s.pending as u32 | s.acted as u32) & !seats != 0 {
        return Err("a seat beyond the seat count folded, acted or is pending".into());
    }
    for p in n..MAX_PLAYERS {
        if s.stacks[p] != 0
            || s.bets[p] != 0
            || s.committed[p] != 0
            || s.raises_street[p] != 0
            || s.raises_total[p] != 0
            || s.hole[p] != [0; 2]
        {
            return Err(format!("seat {p} does not exist but is not empty"));
        }
    }
    let mut cards = CardSet64::EMPTY;
    for &c in s.hole[..n].iter().flatten().chain(&s.board) {
        if c as usize >= DECK_SIZE || cards.contains(c) {
            return Err(format!("card {c} out of range or repeated"));
        }
        cards.insert(c);
    }
    if s.street > 4 || ![0, 3, 4, 5].contains(&s.dealt) {
        return Err(format!("street {} with {} board cards", s.street, s.dealt));
    }
    if s.short_any > 1 || s.runout > 1 {
        return Err("flags out of range".into());
    }
    let starting: u64 = s.starting[..n].iter().map(|&x| x as u64).sum();
    let stacks: u64 = s.stacks[..n].iter().map(|&x| x as u64).sum();
    if s.is_over() {
        if s.bets.iter().any(|&b| b != 0) {
            return Err("bets left on a finished hand".into());
        }
        if stacks != starting {
            return Err(format!(
                "chips not conserved at the end: {stacks} vs {starting}"
            ));
        }
        if s.to_act != NO_SEAT || s.pending != 0 {
            return Err("a finished hand has a seat to act".into());
        }
        if s.folded.count_ones() as usize >= n {
            return Err("every seat folded".into());
        }
        // A hand that ended with two or more seats in (a showdown, possibly at the deal when
        // nobody had a decision) has its board run out.
        if (n - s.folded.count_ones() as usize) > 1 && s.dealt != 5 {
            return Err(format!("a showdown with {} board cards", s.dealt));
        }
        let committed: u64 = s.committed[..n].iter().map(|&x| x as u64).sum();
        if committed > starting {
            return Err(format!("{committed} chips committed of {starting}"));
        }
        return Ok(());
    }
    check_running(game, s)
}

/// The running-hand part of [`check_state`].
fn check_running(game: &NoLimitHoldem, s: &NoLimitHoldemState) -> Result<(), String> {
    let n = s.num_players as usize;
    for p in 0..n {
        let held = s.stacks[p] as u64 + s.bets[p] as u64 + s.committed[p] as u64;
        if held != s.starting[p] as u64 {
            return Err(format!(
                "seat {p}: {held} chips in play of {} at the start",
                s.starting[p]
            ));
        }
    }
    if s.dealt != [0, 3, 4, 5][s.street as usize] {
        return Err(format!("street {} with {} board cards", s.street, s.dealt));
    }
    let live = !s.folded & ((1u16 << n) - 1);
    if live.count_ones() < 2 || s.runout != 0 {
        return Err("a running hand with fewer than two live seats or in run-out".into());
    }
    check_contributions(game, s, live)?;
    let max_bet = s.bets[..n].iter().copied().max().unwrap_or(0);
    for p in 0..n {
        let pending = s.pending >> p & 1 != 0;
        let can_act = live >> p & 1 != 0 && s.stacks[p] > 0;
        if pending && !can_act {
            return Err(format!("seat {p} is pending but cannot act"));
        }
        if can_act && !pending && s.bets[p] < max_bet {
            return Err(format!("seat {p} faces a bet but is not pending"));
        }
    }
    let seat = s.to_act as usize;
    if seat >= n || s.pending >> seat & 1 == 0 {
        return Err(format!("seat to act {seat} is not pending"));
    }
    if s.increment > max_bet {
        return Err(format!(
            "raise increment {} above the largest bet {max_bet}",
            s.increment
        ));
    }
    if (s.short_any == 0 && s.short_sum != 0)
        || (s.short_any != 0 && (s.short_sum == 0 || s.short_sum >= s.increment))
    {
        return Err(format!(
            "short all-in sum {} (flag {}) vs increment {}",
            s.short_sum, s.short_any, s.increment
        ));
    }
    let street = s.street as usize;
    if s.street_raises[street + 1..].iter().any(|&r| r != 0) {
        return Err("raises counted on a later street".into());
    }
    if (0..n).any(|p| s.raises_street[p] > s.raises_total[p]) {
        return Err("a seat raised more on this street than in the hand".into());
    }
    let saturated = s
        .raises_total
        .iter()
        .chain(&s.street_raises)
        .any(|&r| r == u16::MAX);
    if !saturated {
        let on_street: u64 = s.raises_street.iter().map(|&r| r as u64).sum();
        let in_hand: u64 = s.raises_total.iter().map(|&r| r as u64).sum();
        let by_street: u64 = s.street_raises.iter().map(|&r| r as u64).sum();
        if on_street != s.street_raises[street] as u64 || in_hand != by_street {
            return Err("raise counts disagree".into());
        }
    }
    if game.legal(s).is_none() {
        return Err("no decision for the seat to act".into());
    }
    Ok(())
}

/// The chips each seat put in, in a running hand: before the flop the pots hold exactly
/// the antes the deal takes (each seat's ante, capped by its stack and by the second largest
/// ante); from the flop on every live seat with chips has put in as much as any seat; and
/// some live seat has put in (pots and bets) as much as any folded seat, so that every pot
/// has a seat to win it.
fn check_contributions(
    game: &NoLimitHoldem,
    s: &NoLimitHoldemState,
    live: u16,
) -> Result<(), String> {
    let n = s.num_players as usize;
    if s.street == 0 {
        let ante = game.table.ante.min(u32::MAX as Chips) as u32;
        let mut antes = [0u32; MAX_PLAYERS];
        for p in 0..n {
            antes[p] = ante.min(s.starting[p]);
        }
        let mut sorted = antes;
        sorted[..n].sort_unstable();
        let cutoff = sorted[n - 2];
        if (0..n).any(|p| s.committed[p] != antes[p].min(cutoff)) {
            return Err("pots before the flop are not the antes".into());
        }
    } else {
        let top = s.committed[..n].iter().copied().max().unwrap_or(0);
        if let Some(p) =
            (0..n).find(|&p| live >> p & 1 != 0 && s.stacks[p] > 0 && s.committed[p] != top)
        {
            return Err(format!(
                "live seat {p} with chips has put {} in the pots, another seat {top}",
                s.committed[p]
            ));
        }
    }
    let put = |p: usize| s.committed[p] as u64 + s.bets[p] as u64;
    let most_live = (0..n).filter(|&p| live >> p & 1 != 0).map(put).max();
    let most_folded = (0..n).filter(|&p| live >> p & 1 == 0).map(put).max();
    if most_folded > most_live {
        return Err("a folded seat has put in more than every live seat".into());
    }
    Ok(())
}

impl GameChecks for NoLimitHoldem {
    type Reference = reference::Reference;

    fn diff_pair(g: u64, deal: &mut LaneRng) -> (Self::Reference, SingleLane<Self>) {
        reference::diff_pair(g, deal)
    }

    /// `2 * num_players + 5` distinct card ids: the hole cards, then the board.
    fn sample_order(&self, rng: &mut LaneRng) -> Option<Vec<u8>> {
        let mut deck: Vec<u8> = (0..DECK_SIZE as u8).collect();
        rng.shuffle(&mut deck);
        deck.truncate(2 * self.num_players() + 5);
        Some(deck)
    }

    const FUZZ_CONFIG_BYTES: usize = 3;

    /// The configuration of a fuzz input's first three bytes `a, b, c` (what
    /// [`crate::core::spec::GameChecks::fuzz_config`] reads): `2 + a % 9` players, blinds, ante
    /// and stacks from `b` and `c` (short stacks included). When `(a / 9) % 4 == 3` (about one
    /// input in four) the table is short (antes up to four big blinds, stacks down to one chip:
    /// `reference::short_table`), so that many hands are decided at the deal.
    fn fuzz_config(bytes: &[u8]) -> Self {
        let (a, b, c) = (bytes[0], bytes[1], bytes[2]);
        let seats = 2 + (a % 9) as usize;
        let bb: Chips = [2, 3, 10, 100][(b % 4) as usize];
        let sb = (bb / 2).max(1);
        let mut ante: Chips = if b & 4 != 0 {
            1 + (b as Chips >> 3) % bb
        } else {
            0
        };
        let mut rng = LaneRng::from_seed(c as u64);
        let mut stacks: Vec<Chips> = (0..seats)
            .map(|_| {
                ante + bb
                    + match rng.below(4) {
                        0 => 1 + rng.below(2 * bb as u32) as Chips,
                        1 => 1 + rng.below((10 * bb) as u32) as Chips,
                        _ => 1 + rng.below((150 * bb) as u32) as Chips,
                    }
            })
            .collect();
        if (a / 9) % 4 == 3 {
            (ante, stacks) = super::reference::short_table(seats, sb, bb, &mut rng);
        }
        let table = TableConfig::new(sb, bb, ante).expect("valid blinds");
        let fractions: &[f64] = if c & 1 == 0 {
            &[0.5, 1.0, 2.0]
        } else {
            &[0.25, 0.75]
        };
        NoLimitHoldem::new(seats, table, 1)
            .and_then(|g| g.with_stacks(&stacks))
            .and_then(|g| g.with_raise_fractions(fractions))
            .expect("valid fuzz configuration")
    }

    fn fuzz_pair(&self, seed: u64) -> (Self::Reference, SingleLane<Self>) {
        let rng = LaneRng::from_seed(seed);
        (
            reference::Reference::dealt(*self, &mut rng.clone()),
            SingleLane::new(*self, rng),
        )
    }

    /// A raw action of the fuzz script ([`crate::core::fuzz`], `k` in `0..15`): an exact
    /// raise-to near the legal bounds, `min_raise_to - 2 + k` for `k < 8`, else
    /// `max_raise_to + 2 - (k - 8)`.
    fn fuzz_raw_action(reference: &Self::Reference, k: u8) -> u32 {
        let legal = reference.hand.legal();
        let (lo, hi) = legal.map_or((0, 0), |l| (l.min_raise_to, l.max_raise_to));
        let to = if k < 8 {
            lo as i64 - 2 + k as i64
        } else {
            hi as i64 + 2 - (k as i64 - 8)
        };
        EXACT_RAISE | (to.clamp(0, 0x7fff_ffff) as u32)
    }

    /// Random tables and hands under a mixed random policy, for
    /// `python/tests/holdem_pokerkit_oracle.py` to replay in pokerkit: hand `i` draws from
    /// stream `(seed, i, 0)`; seat counts 2, 3, 6, 10 in turn unless given; with a directory,
    /// one PHH file per hand (`hand_NNNNNN.phh`).
    fn write_trace(
        request: &TraceRequest,
        mut out: &mut dyn std::io::Write,
    ) -> crate::core::Result<TraceSummary> {
        for &p in &request.players {
            Error::check_range("players", MIN_PLAYERS, MAX_PLAYERS, p)?;
        }
        let config = trace::TraceConfig {
            hands: request.games,
            first: request.first,
            players: if request.players.is_empty() {
                vec![2, 3, 6, 10]
            } else {
                request.players.clone()
            },
            seed: request.seed as u64,
        };
        let io = |e: std::io::Error| Error::Invalid {
            what: "trace output",
            reason: e.to_string(),
        };
        let s = match &request.dir {
            Some(dir) => {
                std::fs::create_dir_all(dir).map_err(io)?;
                trace::write_phh_files(&config, dir).map_err(io)?
            }
            None => trace::write_trace(&config, &mut out).map_err(io)?,
        };
        Ok(vec![
            ("hands", s.hands),
            ("decisions", s.decisions),
            ("showdowns", s.showdowns),
        ])
    }

    /// The invariants the generic fuzz check adds for hold'em: both engines hold the same
    /// hidden and public state (`compare_hidden`), and once the hand is over every seat's
    /// rewards add up to its result in big blinds and the results to zero.
    fn fuzz_invariants(step: &FuzzStep<'_, Self>) -> std::result::Result<(), String> {
        compare_hidden(step.reference, step.fast)?;
        let (game, state) = (&step.fast.game, &step.fast.state);
        if state.is_over() {
            let bb = game.table().big_blind as f32;
            let net = state.net();
            for (seat, &total) in step.reward_totals.iter().enumerate() {
                let expected = (net[seat] as f32 / bb) as f64;
                if total != expected {
                    return Err(format!(
                        "seat {seat}: rewards {total} but result {expected} big blinds"
                    ));
                }
            }
            if net.iter().sum::<i64>() != 0 {
                return Err("results do not sum to zero".into());
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::spec::{GameSpec, Options};
    use crate::core::testing::{assert_refused, env_of, refuse_edit};
    use crate::core::Game;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn check_state_answers_arbitrary_bytes_without_panicking(
            data in proptest::collection::vec(
                any::<u8>(),
                std::mem::size_of::<NoLimitHoldemState>(),
            )
        ) {
            let s: NoLimitHoldemState = bytemuck::pod_read_unaligned(&data);
            for seats in 2..=MAX_PLAYERS {
                let _ = check_state(&NoLimitHoldem::standard(seats).unwrap(), &s);
            }
        }
    }

    #[test]
    fn a_hand_belongs_to_its_table() {
        let game = NoLimitHoldem::standard(3).unwrap();
        let s = game.reset(&mut LaneRng::from_seed(2));
        assert_eq!(check_state(&game, &s), Ok(()));
        let deeper = game.with_stacks(&[200, 200, 300]).unwrap();
        assert!(check_state(&deeper, &s)
            .unwrap_err()
            .contains("starting stacks"));
        let fixed = game.with_button(Some((s.button as usize + 1) % 3)).unwrap();
        assert!(check_state(&fixed, &s).unwrap_err().contains("button"));
    }

    #[test]
    fn chips_must_stay_with_their_seat() {
        let game = NoLimitHoldem::standard(3).unwrap();
        let mut s = game.reset(&mut LaneRng::from_seed(2));
        // The sum is kept, but one seat's chips moved to another.
        s.stacks[0] -= 1;
        s.stacks[1] += 1;
        assert!(check_state(&game, &s)
            .unwrap_err()
            .contains("chips in play"));
    }

    #[test]
    fn a_running_hand_needs_its_seat_to_act_pending() {
        let game = NoLimitHoldem::standard(3).unwrap();
        let mut s = game.reset(&mut LaneRng::from_seed(2));
        s.pending &= !(1 << s.to_act);
        assert!(check_state(&game, &s).unwrap_err().contains("not pending"));
    }

    #[test]
    fn holdem_chips_from_nowhere_are_refused() {
        let game = NoLimitHoldem::standard(6).unwrap();
        refuse_edit(game, "stack + 1", |s: &mut NoLimitHoldemState| {
            s.stacks[0] += 1
        });
        refuse_edit(game, "button 6 of 6 seats", |s: &mut NoLimitHoldemState| {
            s.button = 6
        });
        refuse_edit(game, "hole card 60", |s: &mut NoLimitHoldemState| {
            s.hole[0][0] = 60
        });
        refuse_edit(
            NoLimitHoldem::standard(2).unwrap(),
            "a 6-seat hand at a 2-seat table",
            |s: &mut NoLimitHoldemState| *s = env_of(game).states()[0],
        );
    }

    /// The hand of the first hold'em finding, as its corrupted state: refused.
    #[test]
    fn holdem_pots_no_live_seat_can_win_are_refused() {
        let game = NoLimitHoldem::configure(
            &Options::parse(
                NoLimitHoldem::INFO.options,
                "num_players=3,ante=1,stacks=[50,200,1000]",
            )
            .unwrap(),
        )
        .unwrap();
        let mut env = env_of(game);
        let mut state = *env.state(1).unwrap();
        state.stacks[..3].copy_from_slice(&[39, 197, 989]);
        state.bets = [0; 10];
        state.committed[..3].copy_from_slice(&[11, 3, 11]);
        state.increment = 0;
        state.short_sum = 0;
        state.short_any = 0;
        state.raises_street = [0; 10];
        state.raises_total = [0; 10];
        state.raises_total[2] = 1;
        state.street_raises = [1, 0, 0, 0];
        state.folded = 0;
        state.acted = 0;
        state.pending = 7;
        state.button = 2;
        state.to_act = 2;
        state.street = 1;
        state.dealt = 3;
        assert_refused(&mut env, state, "pots [11, 3, 11] on the flop");
    }

    /// What the random cases found while the hold'em check was being hardened: a live seat
    /// with chips facing a bet but not pending would never answer the bet (the round ended with
    /// its pots short of the others').
    #[test]
    fn holdem_a_seat_facing_a_bet_must_be_pending() {
        let game = NoLimitHoldem::standard(3).unwrap();
        let mut env = env_of(game);
        let mut state = *env.state(1).unwrap();
        let small_blind = super::super::small_blind_seat(3, state.button as usize);
        assert_eq!((state.street, state.bets[small_blind]), (0, 1));
        assert_ne!(state.to_act as usize, small_blind);
        state.pending &= !(1 << small_blind);
        assert_refused(
            &mut env,
            state,
            "the small blind facing the big blind, not pending",
        );
    }
}
