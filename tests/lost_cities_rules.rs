//! Lost Cities rules, one behaviour per test, each checked on both engines: the reference
//! engine (`Reference`) and the fast lane engine (`SingleLane<LostCities>`). Positions are
//! built from deliberate deck orders (`from_order`); long situations are driven by scripted
//! policies. After every step the two engines must agree on everything they show.

use cardvec::core::diff::{compare_game, policy_rng};
use cardvec::core::{Game, GameChecks, LaneOutcome, LaneRng, Playable, SingleLane, Words};
use cardvec::games::lost_cities::{
    action_id, board_score, decode_action, parse_card_code, score, LostCities, ObsLayout,
    Reference, DECK_SIZE, MAX_STEPS, N_ACTIONS, N_CHANNELS, OBS_DIM,
};

/// Draw source: the deck.
const DECK: u32 = 0;

/// Draw source: the discard pile of `color`.
fn pile(color: u8) -> u32 {
    1 + color as u32
}

/// A card by its state-text code (`Y2` .. `R10`, `YH1` .. `RH3`).
fn card(code: &str) -> u8 {
    parse_card_code(code).unwrap()
}

/// Cards by their state-text codes, separated by spaces (`"Y5 B3 GH1"`).
fn cards(codes: &str) -> Vec<u8> {
    codes.split_whitespace().map(card).collect()
}

/// A deck order: `p0`'s eight cards, `p1`'s eight, then `deck_front`, then every other card
/// in ascending id order.
fn order_with(p0: &[u8], p1: &[u8], deck_front: &[u8]) -> Vec<u8> {
    assert_eq!((p0.len(), p1.len()), (8, 8));
    let mut order: Vec<u8> = p0.iter().chain(p1).chain(deck_front).copied().collect();
    for card in 0..DECK_SIZE as u8 {
        if !order.contains(&card) {
            order.push(card);
        }
    }
    assert_eq!(order.len(), DECK_SIZE, "order_with got repeated cards");
    order
}

/// A deck order written in the state text's card codes (`YH1`, `Y2` .. `R10`): `"<seat 0's
/// eight> / <seat 1's eight> / <the deck's front>"`, every other card after them in
/// ascending id order.
fn deal(text: &str) -> Vec<u8> {
    let parts: Vec<Vec<u8>> = text
        .split('/')
        .map(|part| {
            part.split_whitespace()
                .map(|c| parse_card_code(c).unwrap())
                .collect()
        })
        .collect();
    let front = parts.get(2).cloned().unwrap_or_default();
    order_with(&parts[0], &parts[1], &front)
}

/// A uniformly shuffled order from a seed.
fn shuffled_order(seed: u64) -> Vec<u8> {
    let mut order: Vec<u8> = (0..DECK_SIZE as u8).collect();
    LaneRng::from_seed(seed).shuffle(&mut order);
    order
}

/// The cards set in channel `channel` of an observation.
fn channel(obs: &[f32], channel: usize) -> Vec<u8> {
    (0..DECK_SIZE)
        .filter(|&c| obs[ObsLayout::default().index(c, channel)] == 1.0)
        .map(|c| c as u8)
        .collect()
}

fn sorted(cards: &[u8]) -> Vec<u8> {
    let mut v = cards.to_vec();
    v.sort_unstable();
    v
}

/// Both engines on the same game, compared after every change.
struct Both {
    reference: Reference,
    fast: SingleLane<LostCities>,
}

impl Both {
    fn new(order: &[u8]) -> Both {
        let both = Both {
            reference: Reference::from_order(order).unwrap(),
            fast: SingleLane::from_order(LostCities::default(), order, LaneRng::from_seed(0))
                .unwrap(),
        };
        both.check();
        both
    }

    /// Asserts that the engines agree on everything observable.
    fn check(&self) {
        let (r, f) = (&self.reference, &self.fast);
        assert_eq!(r.finished(), f.finished(), "finished");
        assert_eq!(r.current_player(), f.current_player(), "current player");
        let (mut mr, mut mf) = (vec![0u8; N_ACTIONS], vec![0u8; N_ACTIONS]);
        r.legal_mask(&mut mr);
        f.legal_mask(&mut mf);
        assert_eq!(mr, mf, "legal masks");
        let expected: Vec<u32> = (0..N_ACTIONS as u32)
            .filter(|&a| mr[a as usize] == 1)
            .collect();
        assert_eq!(r.legal_actions(), expected, "legal_actions vs mask");
        for player in 0..2 {
            let (mut or, mut of) = (vec![0f32; OBS_DIM], vec![0f32; OBS_DIM]);
            r.observe(player, &mut or);
            f.observe(player, &mut of);
            let bits = |o: &[f32]| o.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&or), bits(&of), "observation of seat {player}");
        }
        assert_eq!(r.board_score(), board_score(&f.state), "board_score");
        assert_eq!(r.score(), score(&f.state), "score");
    }

    fn mask(&self) -> Vec<u8> {
        let mut m = vec![0u8; N_ACTIONS];
        self.reference.legal_mask(&mut m);
        m
    }

    fn legal(&self, action: u32) -> bool {
        self.mask()[action as usize] == 1
    }

    fn obs(&self, player: usize) -> Vec<f32> {
        let mut o = vec![0f32; OBS_DIM];
        self.reference.observe(player, &mut o);
        o
    }

    fn board_score(&self) -> [i32; 2] {
        self.reference.board_score()
    }

    fn deck_len(&self) -> usize {
        self.reference.deck().len()
    }

    /// Sends `action` to both engines with `rewards` pre-filled; asserts they agree.
    fn step_with(&mut self, action: u32, prefill: [f32; 2]) -> (LaneOutcome, [f32; 2]) {
        let (mut rr, mut rf) = (prefill, prefill);
        let out_r = self.reference.step(action, &mut rr);
        let out_f = self.fast.step(action, &mut rf);
        assert_eq!(out_r, out_f, "outcome of action {action}");
        assert_eq!(rr, rf, "rewards of action {action}");
        self.check();
        (out_r, rr)
    }

    fn step(&mut self, action: u32) -> (LaneOutcome, [f32; 2]) {
        self.step_with(action, [0.0; 2])
    }

    /// The action placing `card` (from the current player's hand) and drawing from `draw`.
    fn action(&self, card: u8, discard: bool, draw: u32) -> u32 {
        let hand = self.reference.hand(self.reference.current_player());
        let slot = hand
            .iter()
            .position(|&c| c == card)
            .expect("card not in hand");
        action_id(slot as u32, discard, draw)
    }

    fn play(&mut self, card: u8, draw: u32) -> (LaneOutcome, [f32; 2]) {
        let a = self.action(card, false, draw);
        assert!(self.legal(a), "play of {card} draw {draw} should be legal");
        let out = self.step(a);
        assert!(out.0.applied);
        out
    }

    fn discard(&mut self, card: u8, draw: u32) -> (LaneOutcome, [f32; 2]) {
        let a = self.action(card, true, draw);
        assert!(
            self.legal(a),
            "discard of {card} draw {draw} should be legal"
        );
        let out = self.step(a);
        assert!(out.0.applied);
        out
    }

    /// The current player discards their lowest card and draws from the deck.
    fn discard_lowest(&mut self) -> (LaneOutcome, [f32; 2]) {
        let a = action_id(0, true, DECK);
        assert!(self.legal(a));
        self.step(a)
    }

    fn done(&self) -> bool {
        let (t, u) = self.reference.finished();
        t || u
    }
}

/// Plays discard-lowest/draw-deck plies until the deck runs out; returns the last step.
fn play_until_deck_empty(both: &mut Both) -> (LaneOutcome, [f32; 2]) {
    loop {
        let out = both.discard_lowest();
        if out.0.done() {
            return out;
        }
    }
}

/// Plays random legal actions, preferring those that do not draw from the deck while
/// `avoid_deck(both)` says so, until the game ends. Returns every step's outcome.
fn play_scripted(
    both: &mut Both,
    rng: &mut LaneRng,
    avoid_deck: impl Fn(&Both) -> bool,
) -> Vec<(LaneOutcome, [f32; 2])> {
    let mut log = Vec::new();
    while !both.done() {
        let legal = both.reference.legal_actions();
        let wants_pile = avoid_deck(both);
        let preferred: Vec<u32> = legal
            .iter()
            .copied()
            .filter(|&a| (decode_action(a).2 != DECK) == wants_pile)
            .collect();
        let pool = if preferred.is_empty() {
            &legal
        } else {
            &preferred
        };
        let action = pool[rng.below(pool.len() as u32) as usize];
        log.push(both.step(action));
        assert!(log.len() <= MAX_STEPS as usize);
    }
    log
}

// ---------------------------------------------------------------- deal and encoding

#[test]
fn deal_gives_first_eight_to_player0() {
    let order = shuffled_order(5);
    let mut both = Both::new(&order);
    assert_eq!(both.reference.hand(0), sorted(&order[..8]));
    assert_eq!(both.reference.hand(1), sorted(&order[8..16]));
    assert_eq!(both.reference.deck(), &order[16..]);
    assert_eq!(channel(&both.obs(0), 0), sorted(&order[..8]));
    assert_eq!(channel(&both.obs(1), 0), sorted(&order[8..16]));
    // The deck is drawn from index 16 onward, player 0 first.
    both.discard_lowest();
    assert!(both.reference.hand(0).contains(&order[16]));
    both.discard_lowest();
    assert!(both.reference.hand(1).contains(&order[17]));
    assert_eq!(both.deck_len(), 42);
}

#[test]
fn player0_moves_first_and_seats_alternate() {
    let mut both = Both::new(&shuffled_order(1));
    for ply in 0..10 {
        assert_eq!(both.reference.current_player(), ply % 2);
        both.discard_lowest();
    }
}

#[test]
fn reset_from_order_rejects_non_permutations() {
    let good: Vec<u8> = (0..60).collect();
    let mut duplicate = good.clone();
    duplicate[59] = 0;
    let mut out_of_range = good.clone();
    out_of_range[59] = 60;
    let mut far_out = good.clone();
    far_out[3] = 255;
    let bad: Vec<Vec<u8>> = vec![
        vec![],
        good[..59].to_vec(),
        good.iter().copied().chain([0]).collect(),
        duplicate,
        out_of_range,
        far_out,
    ];
    for order in &bad {
        assert!(Reference::from_order(order).is_err(), "{order:?}");
        assert!(
            LostCities::default().reset_from_order(order).is_err(),
            "{order:?}"
        );
    }
    assert!(Reference::from_order(&good).is_ok());
    assert!(LostCities::default().reset_from_order(&good).is_ok());
}

#[test]
fn diff_pair_deals_like_fast_reset() {
    for g in 0..50 {
        let rng = LaneRng::for_lane(0, g, 0);
        let (reference, lane) = LostCities::diff_pair(g, &mut rng.clone());
        let reset = SingleLane::new(lane.game, rng);
        let both = Both {
            reference,
            fast: lane.clone(),
        };
        both.check();
        for player in 0..2 {
            let (mut a, mut b) = (vec![0f32; OBS_DIM], vec![0f32; OBS_DIM]);
            lane.observe(player, &mut a);
            reset.observe(player, &mut b);
            assert_eq!(a, b);
        }
        assert_eq!(
            lane.rng, reset.rng,
            "the lane stream continues after the shuffle"
        );
        assert_eq!(both.reference.deck().len(), 44);
    }
}

#[test]
fn hand_slots_index_the_sorted_hand() {
    let p0 = cards("R9 Y5 GH2 W2 YH1 B10 G3 R2");
    let p1 = cards("W3 W4 W5 W6 W7 W8 W9 W10");
    let mut both = Both::new(&order_with(&p0, &p1, &[]));
    let lowest = *p0.iter().min().unwrap();
    let highest = *p0.iter().max().unwrap();
    assert_eq!(both.reference.hand(0), sorted(&p0));
    both.step(action_id(7, true, DECK));
    assert_eq!(both.reference.discard_pile(4), [highest]);
    both.discard_lowest();
    both.step(action_id(0, false, DECK));
    assert_eq!(both.reference.expedition(0, 0), [lowest]);
}

#[test]
fn opening_position_allows_only_deck_draws() {
    let both = Both::new(&shuffled_order(2));
    let expected: Vec<u32> = (0..8)
        .flat_map(|slot| [action_id(slot, false, DECK), action_id(slot, true, DECK)])
        .collect();
    assert_eq!(both.reference.legal_actions(), expected);
}

// ---------------------------------------------------------------- expeditions

#[test]
fn handshake_only_before_numbers() {
    let mut both = Both::new(&deal(
        "YH1 YH2 YH3 Y3 Y4 B2 W2 G2 / R2 R3 R4 R5 R6 R7 R8 R9",
    ));
    both.play(card("YH1"), DECK);
    both.discard_lowest();
    // Several handshakes in a row are fine.
    both.play(card("YH2"), DECK);
    both.discard_lowest();
    assert_eq!(both.obs(0)[428], 2.0 / 3.0, "col_hs of colour 0");
    both.play(card("Y3"), DECK);
    both.discard_lowest();
    // After a number, no handshake of that colour.
    assert!(!both.legal(both.action(card("YH3"), false, DECK)));
    assert!(both.legal(both.action(card("YH3"), true, DECK)));
    assert!(both.legal(both.action(card("Y4"), false, DECK)));
    let (out, _) = both.step(both.action(card("YH3"), false, DECK));
    assert_eq!(out, LaneOutcome::ILLEGAL);
    assert_eq!(
        both.reference.expedition(0, 0),
        [card("YH1"), card("YH2"), card("Y3")]
    );
}

#[test]
fn numbers_strictly_increase() {
    let mut both = Both::new(&deal("B3 B5 B7 BH1 Y2 W2 G2 R2 / R3 R4 R5 R6 R7 R8 R9 R10"));
    both.play(card("B5"), DECK);
    both.discard_lowest();
    assert!(
        !both.legal(both.action(card("B3"), false, DECK)),
        "lower number"
    );
    assert!(
        !both.legal(both.action(card("BH1"), false, DECK)),
        "handshake after a number"
    );
    // Skipping ranks is allowed.
    both.play(card("B7"), DECK);
    assert_eq!(both.obs(0)[424], 7.0 / 10.0, "col_top of colour 1");
    assert_eq!(both.obs(1)[439], 7.0 / 10.0, "opponent col_top of colour 1");
}

#[test]
fn expeditions_of_other_colours_are_independent() {
    let mut both = Both::new(&deal("B9 W2 WH1 Y2 G2 R2 Y3 G3 / R3 R4 R5 R6 R7 R8 R9 R10"));
    both.play(card("B9"), DECK);
    both.discard_lowest();
    both.play(card("WH1"), DECK);
    both.discard_lowest();
    both.play(card("W2"), DECK);
}

// ---------------------------------------------------------------- drawing

#[test]
fn cannot_draw_the_card_just_discarded() {
    let mut both = Both::new(&deal("W5 Y2 Y3 Y4 B2 B3 B4 B5 / W6 G6 G2 G3 G4 G5 G7 G8"));
    assert!(!both.legal(both.action(card("W5"), true, pile(2))));
    both.discard(card("W5"), DECK);
    assert_eq!(both.reference.discard_pile(2), [card("W5")]);
    // The pile just discarded to is closed for that draw, even though it holds another card.
    assert!(!both.legal(both.action(card("W6"), true, pile(2))));
    // Discarding elsewhere, or playing, leaves it open.
    assert!(both.legal(both.action(card("G6"), true, pile(2))));
    assert!(both.legal(both.action(card("W6"), false, pile(2))));
    let (out, _) = both.step(both.action(card("W6"), true, pile(2)));
    assert_eq!(out, LaneOutcome::ILLEGAL);
}

#[test]
fn may_draw_from_pile_of_played_colour() {
    let mut both = Both::new(&deal("G4 Y2 Y3 Y4 B2 B3 B4 B5 / G8 W6 W2 W3 W4 W5 W7 W8"));
    both.discard(card("G4"), DECK);
    both.play(card("G8"), pile(3));
    assert!(both.reference.hand(1).contains(&card("G4")));
    assert_eq!(both.reference.expedition(1, 3), [card("G8")]);
    assert!(both.reference.discard_pile(3).is_empty());
}

#[test]
fn cannot_draw_from_an_empty_pile() {
    let mut both = Both::new(&deal("G4 Y2 Y3 Y4 B2 B3 B4 B5 / G8 W6 W2 W3 W4 W5 W7 W8"));
    both.discard(card("G4"), DECK);
    for color in [0, 1, 2, 4] {
        assert!(!both.legal(both.action(card("W6"), true, pile(color))));
        assert!(!both.legal(both.action(card("G8"), false, pile(color))));
    }
    both.play(card("G8"), pile(3));
    // The pile is empty again after the draw.
    assert!(!both.legal(both.action(card("B5"), true, pile(3))));
}

#[test]
fn pile_draw_takes_the_top_card() {
    let mut both = Both::new(&deal("G4 G6 Y3 Y4 B2 B3 B4 B5 / W9 W6 W2 W3 W4 W5 W7 W8"));
    both.discard(card("G4"), DECK);
    both.discard(card("W2"), DECK);
    both.discard(card("G6"), DECK);
    let obs = both.obs(1);
    assert_eq!(channel(&obs, 3), [card("W2"), card("G6")]);
    assert_eq!(channel(&obs, 4), [card("G4")]);
    both.discard(card("W9"), pile(3));
    assert!(both.reference.hand(1).contains(&card("G6")));
    assert_eq!(both.reference.discard_pile(3), [card("G4")]);
    assert_eq!(channel(&both.obs(0), 3), [card("W9"), card("G4")]);
}

#[test]
fn drawn_discard_becomes_public_until_played() {
    let x = card("R9");
    let p0 = cards("R9 Y2 Y3 Y4 Y5 Y6 Y7 Y8");
    let p1 = cards("G5 W6 W2 W3 W4 W5 W7 W8");
    let mut both = Both::new(&order_with(&p0, &p1, &[]));
    both.discard(x, DECK);
    assert_eq!(both.obs(0)[421], 1.0);
    both.discard(card("G5"), pile(4));
    assert!(both.reference.public_hand(1).contains(&x));
    let seen_by_p0 = both.obs(0);
    assert_eq!(channel(&seen_by_p0, 5), [x]);
    assert_eq!(seen_by_p0[421], 7.0 / 8.0);
    assert!(channel(&both.obs(1), 0).contains(&x));
    assert!(
        channel(&both.obs(1), 5).is_empty(),
        "p0 took nothing from a pile"
    );
    // It stays public while held.
    both.discard_lowest();
    both.discard_lowest();
    both.discard_lowest();
    assert_eq!(channel(&both.obs(0), 5), [x]);
    both.play(x, DECK);
    let seen_by_p0 = both.obs(0);
    assert!(channel(&seen_by_p0, 5).is_empty());
    assert_eq!(channel(&seen_by_p0, 2), [x]);
    assert_eq!(seen_by_p0[421], 1.0);
}

#[test]
fn drawn_discard_stops_being_public_when_discarded_again() {
    let x = card("R9");
    let p0 = cards("R9 Y2 Y3 Y4 Y5 Y6 Y7 Y8");
    let p1 = cards("G5 W6 W2 W3 W4 W5 W7 W8");
    let mut both = Both::new(&order_with(&p0, &p1, &[]));
    both.discard(x, DECK);
    both.discard(card("G5"), pile(4));
    both.discard_lowest();
    both.discard(x, DECK);
    assert!(both.reference.public_hand(1).is_empty());
    let seen_by_p0 = both.obs(0);
    assert!(channel(&seen_by_p0, 5).is_empty());
    assert!(channel(&seen_by_p0, 3).contains(&x));
    // Taken again, by the other player, it is public on their side.
    both.discard(card("Y3"), pile(4));
    assert_eq!(channel(&both.obs(1), 5), [x]);
}

// ---------------------------------------------------------------- end of the round

#[test]
fn round_ends_when_last_deck_card_drawn() {
    let mut both = Both::new(&shuffled_order(3));
    for ply in 1..44 {
        let (out, rewards) = both.discard_lowest();
        assert!(!out.done(), "ply {ply}");
        assert_eq!(rewards, [0.0, 0.0]);
    }
    assert_eq!(both.deck_len(), 1);
    let (out, _) = both.discard_lowest();
    assert!(out.applied && out.terminated && !out.truncated);
    assert_eq!(both.reference.finished(), (true, false));
    assert_eq!(both.deck_len(), 0);
    assert_eq!(both.reference.steps(), 44);
}

#[test]
fn seat_advances_after_terminal_transition() {
    let mut both = Both::new(&shuffled_order(4));
    play_until_deck_empty(&mut both);
    // Ply 44 was player 1's; the seat still moves on to player 0.
    assert_eq!(both.reference.current_player(), 0);
}

#[test]
fn finished_game_rejects_actions() {
    let mut both = Both::new(&shuffled_order(6));
    play_until_deck_empty(&mut both);
    assert!(both.mask().iter().all(|&m| m == 0));
    let before = (both.obs(0), both.obs(1));
    for action in (0..100).chain([u32::MAX]) {
        let (out, rewards) = both.step_with(action, [5.0, -5.0]);
        assert_eq!(out, LaneOutcome::ILLEGAL);
        assert_eq!(rewards, [5.0, -5.0], "rewards untouched");
    }
    assert_eq!((both.obs(0), both.obs(1)), before);
    assert_eq!(both.reference.finished(), (true, false));
}

#[test]
fn max_steps_truncates_and_scores() {
    let mut both = Both::new(&shuffled_order(7));
    let mut rng = LaneRng::from_seed(7);
    let log = play_scripted(&mut both, &mut rng, |_| true);
    assert_eq!(log.len(), MAX_STEPS as usize);
    for (out, rewards) in &log[..log.len() - 1] {
        assert!(out.applied && !out.done());
        assert_eq!(*rewards, [0.0, 0.0]);
    }
    let (out, rewards) = log[log.len() - 1];
    assert!(out.applied && out.truncated && !out.terminated);
    assert!(both.deck_len() > 0);
    let [d0, d1] = both.reference.score();
    assert_eq!(rewards, [d0 as f32, d1 as f32]);
    assert_ne!(d0, 0, "a scored position");
    assert_eq!(both.obs(0)[422], 1.0);
    assert!(both.mask().iter().all(|&m| m == 0));
}

#[test]
fn last_card_on_ply_400_terminates_not_truncates() {
    let mut both = Both::new(&shuffled_order(8));
    let mut rng = LaneRng::from_seed(8);
    // Avoid the deck until exactly enough plies remain to empty it.
    let log = play_scripted(&mut both, &mut rng, |b| {
        b.deck_len() < MAX_STEPS as usize - b.reference.steps() as usize
    });
    assert_eq!(log.len(), MAX_STEPS as usize);
    let (out, _) = log[log.len() - 1];
    assert!(out.terminated && !out.truncated);
    assert_eq!(both.deck_len(), 0);
}

#[test]
fn terminal_reward_is_zero_sum_score_difference() {
    let mut both = Both::new(&shuffled_order(9));
    let mut rng = LaneRng::from_seed(9);
    // Prefer playing on expeditions, so the boards score.
    while !both.done() {
        let legal = both.reference.legal_actions();
        let plays: Vec<u32> = legal
            .iter()
            .copied()
            .filter(|&a| !decode_action(a).1)
            .collect();
        let pool = if plays.is_empty() { &legal } else { &plays };
        let action = pool[rng.below(pool.len() as u32) as usize];
        let (out, rewards) = both.step(action);
        if out.done() {
            let [b0, b1] = both.board_score();
            assert_ne!(b0, b1, "a non-trivial final position");
            assert_eq!(rewards, [(b0 - b1) as f32, (b1 - b0) as f32]);
            assert_eq!(rewards[0] + rewards[1], 0.0);
        } else {
            assert_eq!(rewards, [0.0, 0.0]);
        }
    }
}

#[test]
fn rejected_actions_do_not_count_toward_max_steps() {
    let mut both = Both::new(&shuffled_order(10));
    both.discard_lowest();
    let illegal_in_range = (0..N_ACTIONS as u32).find(|&a| !both.legal(a)).unwrap();
    for action in [96, 200, u32::MAX, illegal_in_range] {
        both.step(action);
    }
    assert_eq!(both.reference.steps(), 1);
    assert_eq!(both.obs(0)[422], 1.0 / 400.0);
}

#[test]
fn illegal_action_is_noop() {
    let mut both = Both::new(&shuffled_order(11));
    both.discard_lowest();
    let before = (
        both.obs(0),
        both.obs(1),
        both.mask(),
        both.reference.clone(),
    );
    let illegal_in_range = (0..N_ACTIONS as u32).find(|&a| !both.legal(a)).unwrap();
    for action in [96, 97, 1000, u32::MAX - 1, u32::MAX, illegal_in_range] {
        let (out, rewards) = both.step_with(action, [7.0, -3.0]);
        assert_eq!(out, LaneOutcome::ILLEGAL, "action {action}");
        assert_eq!(rewards, [7.0, -3.0], "rewards untouched");
    }
    let after = (
        both.obs(0),
        both.obs(1),
        both.mask(),
        both.reference.clone(),
    );
    assert_eq!(before, after);
    assert_eq!(both.reference.current_player(), 1);
}

// ---------------------------------------------------------------- scoring

#[test]
fn bonus_of_20_at_eight_cards_not_multiplied() {
    let p0 = cards("YH1 YH2 YH3 Y2 Y3 Y4 Y5 Y6");
    let p1 = cards("R2 R3 R4 R5 R6 R7 R8 R9");
    // Player 0 draws the 7 first.
    let mut both = Both::new(&order_with(&p0, &p1, &cards("Y7")));
    for card in p0 {
        both.play(card, DECK);
        both.discard_lowest();
    }
    assert_eq!(both.reference.expedition(0, 0).len(), 8);
    assert_eq!(both.board_score()[0], 20, "(20 - 20) * 4 + 20");
    assert_eq!(both.obs(0)[433], 8.0 / 12.0, "col_len of colour 0");
    both.play(card("Y7"), DECK);
    assert_eq!(both.board_score()[0], 48, "(27 - 20) * 4 + 20");
    assert_eq!(both.obs(0)[453], 48.0 / 780.0);
    assert_eq!(both.obs(1)[453], -48.0 / 780.0);
}

#[test]
fn seven_cards_get_no_bonus() {
    let order = deal("YH1 YH2 YH3 Y2 Y3 Y4 Y5 Y6 / R2 R3 R4 R5 R6 R7 R8 R9 / Y7");
    let p0 = &order[..8];
    let mut both = Both::new(&order);
    for card in &p0[..7] {
        both.play(*card, DECK);
        both.discard_lowest();
    }
    assert_eq!(both.board_score()[0], -24, "(14 - 20) * 4");
}

#[test]
fn handshakes_multiply_the_expedition_cost() {
    let mut both = Both::new(&deal("WH1 W10 Y2 Y3 Y4 Y5 Y6 Y7 / R2 R3 R4 R5 R6 R7 R8 R9"));
    assert_eq!(both.board_score(), [0, 0], "empty columns score 0");
    both.play(card("WH1"), DECK);
    assert_eq!(both.board_score(), [-40, 0], "(0 - 20) * 2");
    assert_eq!(both.obs(1)[453], 40.0 / 780.0);
    both.discard_lowest();
    both.play(card("W10"), DECK);
    assert_eq!(both.board_score(), [-20, 0], "(10 - 20) * 2");
    both.play(card("R9"), DECK);
    assert_eq!(both.board_score(), [-20, -11], "(9 - 20) * 1");
}

#[test]
fn a_dealt_state_reads_back_from_its_text_and_shows_the_deal() {
    let order = deal("YH1 YH2 YH3 Y3 Y4 B2 W2 G2 / R2 R3 R4 R5 R6 R7 R8 R9 / Y10");
    let game = LostCities::default();
    let state = game.reset_from_order(&order).unwrap();
    let text = game.state_text(&state);
    assert!(
        text.contains("hands=YH1,YH2,YH3,Y3,Y4,B2,W2,G2/R2,R3,R4,R5,R6,R7,R8,R9"),
        "{text}"
    );
    assert!(
        text.contains("pos=16 deck=YH1,YH2,YH3,Y3,Y4,B2,W2,G2,R2,"),
        "{text}"
    );
    assert!(text.contains(",R9,Y10,"), "{text}");
    assert_eq!(game.parse_state(&text).unwrap(), state);
    // A card in two places, a bad code, a missing field: errors that say what is wrong.
    let twice = text.replace("hands=YH1,", "hands=Y10,");
    let e = game.parse_state(&twice).unwrap_err().to_string();
    assert!(e.contains("not a state of this game"), "{e}");
    let e = game
        .parse_state(&text.replace("Y3,", "Y1,"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("\"Y1\" is not a card"), "{e}");
    let e = game
        .parse_state(&text.replace(" end=0", ""))
        .unwrap_err()
        .to_string();
    assert!(e.contains("end is missing"), "{e}");
}

// ---------------------------------------------------------------- observation

/// The channel the seed's list names for `card` as seen by `player`, from the reference
/// engine's public places: my hand, my board, opponent board, discard top, discard
/// non-top, opponent public hand, unknown.
fn seed_channel(r: &Reference, card: u8, player: usize) -> usize {
    let o = 1 - player;
    let on_board = |seat: usize| (0..5).any(|c| r.expedition(seat, c).contains(&card));
    let pile = (0..5)
        .map(|c| r.discard_pile(c))
        .find(|p| p.contains(&card));
    if r.hand(player).contains(&card) {
        0
    } else if on_board(player) {
        1
    } else if on_board(o) {
        2
    } else if let Some(pile) = pile {
        if pile.last() == Some(&card) {
            3
        } else {
            4
        }
    } else if r.public_hand(o).contains(&card) {
        5
    } else {
        6
    }
}

/// Card-major (the default) against the seed's reading: block `card` (values
/// `card * 7..card * 7 + 7`) of the fast engine's observation is one-hot and its hot value
/// is the channel the seed's list names for the card.
#[test]
fn card_major_blocks_follow_the_seed() {
    for seed in 0..10 {
        let mut both = Both::new(&shuffled_order(300 + seed));
        let mut rng = LaneRng::from_seed(seed);
        while !both.done() {
            for player in 0..2 {
                let mut obs = vec![0f32; OBS_DIM];
                both.fast.observe(player, &mut obs);
                for (card, block) in obs[..420].chunks_exact(N_CHANNELS).enumerate() {
                    let mut one_hot = [0f32; N_CHANNELS];
                    one_hot[seed_channel(&both.reference, card as u8, player)] = 1.0;
                    assert_eq!(block, one_hot, "card {card} seat {player}");
                }
            }
            let legal = both.reference.legal_actions();
            both.step(legal[rng.below(legal.len() as u32) as usize]);
        }
    }
}

#[test]
fn observation_channels_partition_the_deck() {
    for seed in 0..20 {
        let mut both = Both::new(&shuffled_order(100 + seed));
        let mut rng = LaneRng::from_seed(seed);
        while !both.done() {
            for player in 0..2 {
                let obs = both.obs(player);
                for card in 0..DECK_SIZE {
                    let hot: Vec<f32> = (0..N_CHANNELS)
                        .map(|c| obs[card * N_CHANNELS + c])
                        .collect();
                    assert_eq!(hot.iter().filter(|&&v| v == 1.0).count(), 1, "card {card}");
                    assert!(hot.iter().all(|&v| v == 0.0 || v == 1.0));
                }
                let count = |c: usize| channel(&obs, c).len();
                assert_eq!(count(0), 8, "my hand");
                assert_eq!(
                    count(5) + count(6),
                    both.deck_len() + 8,
                    "opponent hand + deck"
                );
                let piles = (0..5).filter(|&c| !both.reference.discard_pile(c).is_empty());
                assert_eq!(count(3), piles.count(), "one top per non-empty pile");
            }
            let legal = both.reference.legal_actions();
            both.step(legal[rng.below(legal.len() as u32) as usize]);
        }
    }
}

#[test]
fn observation_scalars_follow_the_doc() {
    let p0 = cards("BH1 B4 G6 Y3 Y4 Y5 Y6 Y7");
    let p1 = cards("WH1 WH2 W8 R5 R6 R7 R8 R9");
    let mut both = Both::new(&order_with(&p0, &p1, &[]));
    both.play(card("BH1"), DECK);
    both.play(card("WH1"), DECK);
    both.play(card("B4"), DECK);
    both.play(card("WH2"), DECK);
    both.discard(card("G6"), DECK);
    both.play(card("W8"), pile(3));
    // p0: colour 1 = [H, 4] -> (4 - 20) * 2 = -32. p1: colour 2 = [H, H, 8] -> -36.
    assert_eq!(both.board_score(), [-32, -36]);
    let f = |v: u32, d: u32| v as f32 / d as f32;
    let mut expected = vec![f(39, 44), f(7, 8), f(6, 400)];
    expected.extend([0, 4, 0, 0, 0].map(|v| f(v, 10)));
    expected.extend([0, 1, 0, 0, 0].map(|v| f(v, 3)));
    expected.extend([0, 2, 0, 0, 0].map(|v| f(v, 12)));
    expected.extend([0, 0, 8, 0, 0].map(|v| f(v, 10)));
    expected.extend([0, 0, 2, 0, 0].map(|v| f(v, 3)));
    expected.extend([0, 0, 3, 0, 0].map(|v| f(v, 12)));
    expected.push(4_f32 / 780.0);
    let obs = both.obs(0);
    assert_eq!(&obs[420..], &expected[..]);
    let obs1 = both.obs(1);
    assert_eq!(obs1[421], 1.0, "p0 took nothing from a pile");
    assert_eq!(obs1[423..438], obs[438..453], "own features first");
    assert_eq!(obs1[438..453], obs[423..438]);
    assert_eq!(obs1[453], -4_f32 / 780.0);
}

// ---------------------------------------------------------------- both engines at large

#[test]
fn random_games_agree_step_by_step() {
    for g in 0..300 {
        let (mut a, mut b) = LostCities::diff_pair(g, &mut LaneRng::for_lane(42, g, 0));
        let mut policy = policy_rng(42, g);
        if let Err(m) = compare_game(g, &mut a, &mut b, &mut policy, 8) {
            panic!("{m:?}");
        }
    }
}
