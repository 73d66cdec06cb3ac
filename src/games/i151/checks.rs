//! Invariants of a 151 lane ([`check_state`]: what `Game::check_state` and
//! `VecEnv::set_state` require) and the game's part of the generic fuzz check.

use super::fast::{
    I151State, FLAG_ACE_EFFECT, FLAG_CHOOSE_SUIT, FLAG_SKIP_NEXT, STATUS_PLAYING,
    STATUS_TERMINATED, STATUS_TRUNCATED,
};
use super::reference::Reference;
use super::*;
use crate::core::spec::FuzzStep;
use std::result::Result;
use crate::core::spec::{GameChecks, TraceRequest, TraceSummary};
use crate::core::{Error, LaneRng, SingleLane};

/// Checks that `s` is a state of this configuration the engine can reach, as far as its
/// bytes tell, so that every method is safe on it and every step keeps it valid:
///
/// - the seat count is the configured one; seats beyond it hold nothing (cards, scores,
///   streaks, turn bits, exclusion);
/// - all 32 cards are in exactly one place: a hand, the bank (`bank[bank_head..bank_tail]`),
///   the played pile (`pile[..pile_len]`, matching `pile_set`), or dropped with an excluded
///   seat's deal (in a live match, `cards_dealt` per excluded seat); every stored card byte,
///   stale ones included, is a card id;
/// - the table: `top` is the last played card while the pile holds any; an imposed suit is
///   a suit, and is set only over an eight; the suit-choice flag only over an eight, the ace
///   flag only over an ace, the skip flag only over a queen and, in a live match, while the
///   seat to act chains (a queen that does not chain ends the turn); no unknown flag; no
///   imposed suit while a flag is set; a seat that must choose a suit or chains has not
///   drawn;
///   `last_play_count` is 0 or 1; only the seat to act may be chaining, and only over a top
///   card whose rank it still holds; in a live match only active seats have drawn;
/// - seats: a seat is excluded exactly when its score reaches the target; the streak
///   belongs to the last round winner alone and is at most 2; before any round ended (no
///   last winner) the match is in round 1 with the configured first dealer, no scores and
///   no exclusion;
/// - status: playing with at least two active seats, the seat to act and the dealer
///   active, fewer than `max_round_steps` actions this round (if limited), no winner, and a
///   legal action; truncated (only with a limit) at exactly `max_round_steps` actions with
///   at least two active seats and no winner; terminated with one active seat, the winner,
///   whose hand is empty and who won the last round.
pub fn check_state(game: &I151, s: &I151State) -> Result<(), String> {
    let n = game.num_players();
    if s.num_players as usize != n {
        return Err(format!("players {} vs {n}", s.num_players));
    }
    let seats = (1u32 << n) - 1;
    if (s.excluded as u32 | s.drawn as u32 | s.chaining as u32) & !seats != 0 {
        return Err("a seat beyond the player count is excluded, has drawn or chains".into());
    }
    for p in n..MAX_PLAYERS {
        if s.hands[p] != 0 || s.scores[p] != 0 || s.consecutive[p] != 0 {
            return Err(format!("seat {p} does not exist but holds cards or points"));
        }
    }
    if s.to_act as usize >= n || s.dealer as usize >= n {
        return Err(format!(
            "seat to act {} or dealer {} out of range",
            s.to_act, s.dealer
        ));
    }
    if let Err(e) = MatchSeed::from_le_bytes(bytemuck::bytes_of(&s.match_seed)) {
        return Err(e.to_string());
    }
    if s.reserved.iter().any(|&b| b != 0) {
        return Err("the reserved bytes at the end of the state are not zero".into());
    }
    if s.bank_head > s.bank_tail
        || s.bank_tail as usize > DECK_SIZE
        || s.pile_len as usize > DECK_SIZE
    {
        return Err(format!(
            "bank bounds {}..{} or pile height {} out of range",
            s.bank_head, s.bank_tail, s.pile_len
        ));
    }
    if let Some(&c) = s
        .bank
        .iter()
        .chain(&s.pile)
        .find(|&&c| c as usize >= DECK_SIZE)
    {
        return Err(format!("card byte {c} is not a card"));
    }
    let mut seen = 0u32;
    let mut add = |set: u32, what: &str| -> Result<(), String> {
        if seen & set != 0 {
            return Err(format!(
                "{what} holds cards already elsewhere: {:#x}",
                seen & set
            ));
        }
        seen |= set;
        Ok(())
    };
    for &hand in &s.hands {
        add(hand, "a hand")?;
    }
    let mut bank = 0u32;
    for &c in s.bank() {
        if bank >> c & 1 != 0 {
            return Err(format!("bank card {c} repeated"));
        }
        bank |= 1 << c;
    }
    add(bank, "the bank")?;
    let mut pile = 0u32;
    for &c in s.played_pile() {
        if pile >> c & 1 != 0 {
            return Err(format!("pile card {c} repeated"));
        }
        pile |= 1 << c;
    }
    if pile != s.pile_set {
        return Err("pile set differs from the pile".into());
    }
    add(pile, "the played pile")?;
    add(s.dead, "the dropped deal")?;
    if seen != u32::MAX {
        return Err(format!("cards missing: {:#x}", !seen));
    }
    check_table(s)?;
    check_seats(game, s)?;
    let active = s.active_count();
    match s.status {
        STATUS_PLAYING | STATUS_TRUNCATED => {
            let limit = game.max_round_steps();
            if s.status == STATUS_PLAYING && limit != 0 && s.round_steps >= limit {
                return Err(format!(
                    "a live round at {} of {limit} actions",
                    s.round_steps
                ));
            }
            if s.status == STATUS_TRUNCATED && (limit == 0 || s.round_steps != limit) {
                return Err(format!(
                    "truncated at {} actions with a limit of {limit}",
                    s.round_steps
                ));
            }
            if active < 2 || s.winner != NO_SEAT {
                return Err(format!(
                    "a match in play with {active} active seats or a winner"
                ));
            }
            if s.is_excluded(s.to_act as usize) || s.is_excluded(s.dealer as usize) {
                return Err(format!(
                    "seat to act {} or dealer {} is excluded",
                    s.to_act, s.dealer
                ));
            }
            if s.drawn & s.excluded != 0 {
                return Err("an excluded seat has drawn in a live match".into());
            }
            for p in 0..n {
                if s.is_excluded(p) && s.hands[p] != 0 {
                    return Err(format!("excluded seat {p} holds cards in a live match"));
                }
            }
            let dropped = s.excluded.count_ones() as usize * game.cards_dealt();
            if s.dead.count_ones() as usize != dropped {
                return Err(format!(
                    "{} dropped cards for {} excluded seats",
                    s.dead.count_ones(),
                    s.excluded.count_ones()
                ));
            }
            if s.status == STATUS_PLAYING && game.legal_bits(s) == 0 {
                return Err("no legal action for the seat to act".into());
            }
        }
        STATUS_TERMINATED => {
            if active != 1 {
                return Err(format!("a finished match with {active} active seats"));
            }
            let w = s.winner as usize;
            if w >= n || s.is_excluded(w) || s.last_winner != s.winner || s.hands[w] != 0 {
                return Err(format!("winner {} is not the last seat standing", s.winner));
            }
        }
        other => return Err(format!("unknown status {other}")),
    }
    Ok(())
}

/// The table part of [`check_state`]: top card, imposed suit, flags, turn bits.
fn check_table(s: &I151State) -> Result<(), String> {
    if s.top != NO_CARD && s.top as usize >= DECK_SIZE {
        return Err(format!("top {} is not a card", s.top));
    }
    if let Some(&last) = s.played_pile().last() {
        if s.top != last {
            return Err(format!("top {} is not the last played card {last}", s.top));
        }
    }
    let top_rank = s.top_card().map(rank_of);
    if s.required_suit != NO_SUIT
        && (s.required_suit as usize >= N_SUITS || top_rank != Some(EIGHT))
    {
        return Err(format!(
            "imposed suit {} without an eight on top",
            s.required_suit
        ));
    }
    if s.flags & !(FLAG_CHOOSE_SUIT | FLAG_ACE_EFFECT | FLAG_SKIP_NEXT) != 0 {
        return Err(format!("unknown flags {:#x}", s.flags));
    }
    for (flag, rank, what) in [
        (FLAG_CHOOSE_SUIT, EIGHT, "suit choice"),
        (FLAG_ACE_EFFECT, ACE, "ace effect"),
        (FLAG_SKIP_NEXT, QUEEN, "skip"),
    ] {
        if s.flags & flag != 0 && top_rank != Some(rank) {
            return Err(format!("{what} flag without its card on top"));
        }
    }
    if s.flags != 0 && s.required_suit != NO_SUIT {
        // A suit is imposed by the choice that ends an eight's turn; any play lifts it.
        return Err("a suit imposed while a card's effect is pending".into());
    }
    let cp_bit = 1u8 << s.to_act;
    if (s.flags & FLAG_CHOOSE_SUIT != 0 || s.chaining != 0) && s.drawn & cp_bit != 0 {
        return Err("the seat to act just played but is marked as having drawn".into());
    }
    if s.last_play_count > 1 {
        return Err(format!("last play count {}", s.last_play_count));
    }
    if s.chaining & !(1 << s.to_act) != 0 {
        return Err("a seat not to act is chaining".into());
    }
    if s.flags & FLAG_SKIP_NEXT != 0 && s.chaining == 0 && s.status != STATUS_TERMINATED {
        // A queen ends the turn (consuming the skip) unless its seat chains queens, or
        // empties the winner's hand.
        return Err("skip flag while the seat to act is not chaining".into());
    }
    if s.chaining != 0 {
        match top_rank {
            Some(rank) if s.hands[s.to_act as usize] & rank_set(rank) != 0 => {}
            _ => return Err("chaining without a card of the top's rank".into()),
        }
    }
    Ok(())
}

/// The seat part of [`check_state`]: scores, exclusions, streaks, the first round.
fn check_seats(game: &I151, s: &I151State) -> Result<(), String> {
    let n = game.num_players();
    for p in 0..n {
        // Seats are excluded when a round is scored, the winner never: before the first
        // round is won nobody is, and at a target of 0 the last winner stays in at 0 points.
        let reached = s.scores[p] as i32 >= game.target_score();
        let spared = s.last_winner == NO_SEAT || s.last_winner as usize == p;
        let out = reached && !(spared && game.target_score() == 0);
        if out != s.is_excluded(p) {
            return Err(format!(
                "seat {p} with {} points is {}excluded",
                s.scores[p],
                if out { "not " } else { "" }
            ));
        }
        let streak = s.consecutive[p];
        if streak > 2 || (streak != 0 && s.last_winner as usize != p) {
            return Err(format!("seat {p} has a streak of {streak}"));
        }
    }
    if s.last_winner == NO_SEAT {
        if s.round_number != 1
            || s.dealer as usize != game.initial_dealer()
            || s.excluded != 0
            || s.scores.iter().any(|&x| x != 0)
            || s.status == STATUS_TERMINATED
        {
            return Err("no round won yet, but not the first round as dealt".into());
        }
    } else if s.last_winner as usize >= n {
        return Err(format!("last winner {} out of range", s.last_winner));
    } else if s.round_number == 0 {
        return Err("round number 0".into());
    }
    if s.winner != NO_SEAT && s.status != STATUS_TERMINATED {
        return Err(format!("winner {} in a match not over", s.winner));
    }
    Ok(())
}

/// Checks that scores only grow from `before` to `after`, except for one seat's −10 bonus
/// on its third consecutive round win.
pub fn check_scores(before: &I151State, after: &I151State) -> Result<(), String> {
    let mut bonuses = 0;
    for p in 0..before.num_players as usize {
        let delta = after.scores[p] as i32 - before.scores[p] as i32;
        if delta == -10 && after.last_winner as usize == p && after.consecutive[p] == 0 {
            bonuses += 1;
        } else if delta < 0 {
            return Err(format!(
                "seat {p} score went from {} to {}",
                before.scores[p], after.scores[p]
            ));
        }
    }
    if bonuses > 1 {
        return Err("two bonuses in one step".into());
    }
    Ok(())
}

/// Checks that the reference and the fast state hold the same cards in the same places
/// and the same scores.
pub fn agree(r: &Reference, s: &I151State) -> Result<(), String> {
    for (p, hand) in r.hands().iter().enumerate() {
        let set = hand.iter().fold(0u32, |a, &c| a | 1 << c);
        if set != s.hands[p] {
            return Err(format!("hand of seat {p} differs"));
        }
    }
    if r.bank() != s.bank() {
        return Err("bank differs".into());
    }
    if r.played_pile() != s.played_pile() {
        return Err("played pile differs".into());
    }
    let scores: Vec<i32> = (0..s.num_players as usize)
        .map(|p| s.scores[p] as i32)
        .collect();
    if r.scores() != scores {
        return Err(format!("scores {:?} vs {scores:?}", r.scores()));
    }
    Ok(())
}

impl GameChecks for I151 {
    type Reference = reference::Reference;

    fn diff_pair(g: u64, deal: &mut LaneRng) -> (Self::Reference, SingleLane<Self>) {
        reference::diff_pair(g, deal)
    }

    /// The 32 card ids shuffled, then a random match seed (8 bytes) for the later rounds.
    fn sample_order(&self, rng: &mut LaneRng) -> Option<Vec<u8>> {
        let mut order: Vec<u8> = (0..DECK_SIZE as u8).collect();
        rng.shuffle(&mut order);
        order.extend(rng.next_u64().to_le_bytes());
        Some(order)
    }

    const FUZZ_CONFIG_BYTES: usize = 1;

    /// The configuration of a fuzz input's first byte (what
    /// [`crate::core::spec::GameChecks::fuzz_config`] reads): 2..=4 players, optional deal size,
    /// first dealer, and a small target sometimes so that exclusions and match ends come fast.
    fn fuzz_config(bytes: &[u8]) -> Self {
        let byte = bytes[0];
        let num_players = 2 + (byte % 3) as usize;
        let mut game = I151::new(num_players).expect("2..=4 seats");
        let max = DECK_SIZE / num_players;
        game = game
            .with_cards_per_player(1 + (byte as usize / 3) % max)
            .expect("in range");
        game = game
            .with_initial_dealer((byte as usize / 7) % num_players)
            .expect("in range");
        if byte & 0x80 != 0 {
            game = game.with_target_score(30).expect("in range");
        }
        game.with_max_round_steps(0)
    }

    fn fuzz_pair(&self, seed: u64) -> (Self::Reference, SingleLane<Self>) {
        let seed = seed as i64;
        let fast = SingleLane {
            game: *self,
            state: self.reset_with_match_seed(seed),
            rng: LaneRng::from_seed(0),
        };
        (reference::Reference::new(*self, seed), fast)
    }

    /// Matches under a random legal policy with every decision's state, for
    /// `python/tests/i151_oracle.py` to replay in i151-engine: match `i` has seed
    /// `seed + i`; JSON lines only.
    fn write_trace(
        request: &TraceRequest,
        mut out: &mut dyn std::io::Write,
    ) -> crate::core::Result<TraceSummary> {
        if request.dir.is_some() {
            return Err(Error::Invalid {
                what: "trace",
                reason: "151 writes JSON lines only (no history directory)".into(),
            });
        }
        for &p in &request.players {
            Error::check_range("players", MIN_PLAYERS, MAX_PLAYERS, p)?;
        }
        let config = trace::TraceConfig {
            matches: request.games,
            first: request.first,
            first_seed: request.seed,
            players: request.players.clone(),
            policy_seed: request.policy_seed,
        };
        let s = trace::write_trace(&config, &mut out).map_err(|e| Error::Invalid {
            what: "trace output",
            reason: e.to_string(),
        })?;
        Ok(vec![
            ("matches", s.matches),
            ("decisions", s.decisions),
            ("rounds", s.rounds),
        ])
    }

    /// The invariants the generic fuzz check ([`crate::core::fuzz`]) adds for 151: the score
    /// bookkeeping of the step (`check_scores`) and agreement of both engines on cards and
    /// scores (`agree`).
    fn fuzz_invariants(step: &FuzzStep<'_, Self>) -> std::result::Result<(), String> {
        check_scores(step.previous, &step.fast.state)?;
        agree(step.reference, &step.fast.state)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::testing::{assert_refused, env_of, refuse_edit};
    use crate::core::{Game, LaneRng};
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        /// Whole random matches keep the score laws (scores only grow, except by the bonus)
        /// and `check_state` holds on every state.
        #[test]
        fn whole_random_matches_keep_the_invariants(seed in any::<i64>(), players in 2usize..=4, policy in any::<u64>()) {
            let game = I151::new(players).unwrap().with_max_round_steps(0);
            let mut s = game.reset_with_match_seed(seed);
            let mut rng = LaneRng::from_seed(policy);
            let mut mask = [0u8; N_ACTIONS];
            let mut rewards = vec![0f32; players];
            while !s.is_over() {
                game.check_state(&s).map_err(TestCaseError::fail)?;
                game.legal_mask(&s, &mut mask);
                let before = s;
                let out = game.step(&mut s, crate::core::policy::random_legal(&mask, &mut rng), &mut rng, &mut rewards);
                prop_assert!(out.applied);
                check_scores(&before, &s).map_err(TestCaseError::fail)?;
            }
            game.check_state(&s).map_err(TestCaseError::fail)?;
        }
    }

    proptest! {
        #[test]
        fn check_state_answers_arbitrary_bytes_without_panicking(
            data in proptest::collection::vec(any::<u8>(), std::mem::size_of::<I151State>())
        ) {
            let s: I151State = bytemuck::pod_read_unaligned(&data);
            for players in 2..=MAX_PLAYERS {
                let _ = check_state(&I151::new(players).unwrap(), &s);
            }
        }
    }

    fn dealt(game: &I151) -> I151State {
        game.reset(&mut LaneRng::from_seed(8))
    }

    #[test]
    fn a_fresh_deal_is_accepted_and_belongs_to_its_configuration() {
        let game = I151::new(3).unwrap();
        let s = dealt(&game);
        assert_eq!(check_state(&game, &s), Ok(()));
        assert!(check_state(&I151::new(2).unwrap(), &s).is_err());
        let other_dealer = game.with_initial_dealer(2).unwrap();
        assert!(check_state(&other_dealer, &s).is_err());
    }

    #[test]
    fn exclusion_must_follow_the_score() {
        let game = I151::new(3).unwrap();
        let mut s = dealt(&game);
        s.last_winner = 0;
        s.round_number = 2;
        s.consecutive[0] = 1;
        assert_eq!(check_state(&game, &s), Ok(()));
        s.scores[1] = 151;
        assert!(check_state(&game, &s).unwrap_err().contains("excluded"));
    }

    #[test]
    fn flags_need_their_card_on_top() {
        let game = I151::new(2).unwrap();
        let mut s = dealt(&game);
        s.flags = FLAG_ACE_EFFECT;
        assert!(check_state(&game, &s).unwrap_err().contains("ace effect"));
        s.flags = 0;
        s.required_suit = 2;
        assert!(check_state(&game, &s).unwrap_err().contains("imposed suit"));
    }

    #[test]
    fn every_state_of_matches_cut_off_by_a_step_limit_is_accepted() {
        let mut truncated = 0;
        for players in 2..=MAX_PLAYERS {
            for limit in [1, 3, 20] {
                let game = I151::new(players).unwrap().with_max_round_steps(limit);
                let mut mask = [0u8; N_ACTIONS];
                let mut rewards = [0f32; MAX_PLAYERS];
                for seed in 0..30 {
                    let mut rng = LaneRng::from_seed(seed);
                    let mut s = game.reset(&mut rng);
                    loop {
                        assert_eq!(check_state(&game, &s), Ok(()), "{s:?}");
                        if s.is_over() {
                            truncated += (s.status == STATUS_TRUNCATED) as usize;
                            break;
                        }
                        game.legal_mask(&s, &mut mask);
                        let a = crate::core::policy::random_legal(&mask, &mut rng);
                        assert!(game.step(&mut s, a, &mut rng, &mut rewards).applied);
                    }
                }
            }
        }
        assert!(truncated > 100, "only {truncated} matches truncated");
    }

    #[test]
    fn truncation_needs_a_step_limit_reached() {
        let game = I151::new(2).unwrap();
        let mut s = dealt(&game);
        s.status = STATUS_TRUNCATED;
        assert!(check_state(&game, &s).unwrap_err().contains("truncated"));
        s.round_steps = game.max_round_steps();
        assert_eq!(check_state(&game, &s), Ok(()));
    }

    #[test]
    fn i151_imposed_suit_beyond_the_suits_is_refused() {
        let game = I151::new(3).unwrap();
        refuse_edit(game, "required_suit = 9", |s: &mut I151State| {
            s.required_suit = 9
        });
        refuse_edit(game, "seat to act 5", |s: &mut I151State| s.to_act = 5);
        refuse_edit(game, "players = 4", |s: &mut I151State| s.num_players = 4);
        refuse_edit(game, "match seed = 2**280", |s: &mut I151State| {
            bytemuck::cast_mut::<MatchSeed, [u32; seed::SEED_WORDS]>(&mut s.match_seed)[8] = 1 << 24
        });
        refuse_edit(game, "a reserved byte set", |s: &mut I151State| s.reserved[35] = 1);
    }

    /// The state of the 151 finding: a queen on top with its skip pending, but the seat to act
    /// not chaining queens (a queen that does not chain ends the turn and uses the skip).
    #[test]
    fn i151_a_pending_skip_needs_a_queen_chain() {
        let game = I151::new(2).unwrap();
        let mut env = env_of(game);
        let mut state = *env.state(1).unwrap();
        let queen = 8 + QUEEN;
        let holder = (0..2).find(|&p| state.hands[p] >> queen & 1 != 0);
        let (from_bank, pos) = match holder {
            Some(p) => (false, p),
            None => (true, 0),
        };
        // Put the queen of suit 1 on the pile, from wherever it is.
        if from_bank {
            let i = state.bank[state.bank_head as usize..state.bank_tail as usize]
                .iter()
                .position(|&c| c == queen)
                .map(|i| i + state.bank_head as usize);
            match i {
                Some(i) => {
                    let last = state.bank_tail as usize - 1;
                    state.bank.swap(i, last);
                    state.bank_tail -= 1;
                }
                None => state.dead &= !(1 << queen),
            }
        } else {
            state.hands[pos] &= !(1 << queen);
        }
        state.pile[0] = queen;
        state.pile_len = 1;
        state.pile_set = 1 << queen;
        state.top = queen;
        state.chaining = 0;
        state.flags = 0;
        assert_eq!(game.check_state(&state), Ok(()), "a queen on top, no skip");
        state.flags = FLAG_SKIP_NEXT;
        assert_refused(&mut env, state, "a skip without a queen chain");
    }
}
