//! Bots for 151, from the weakest to the strongest: random, greedy, medium and the
//! depth-limited search bots `minmax_d3`, `minmax_d5`, `minmax_d6` (see `docs/151-arena.md`).
//!
//! Every bot decides from what its seat may know only: a [`PlayerView`] and the legal
//! actions ([`ViewPolicy`]). The search bots sample the hidden cards consistently with the
//! view ([`determinize`]) and search copies of the fast-engine state. [`by_name`] and the
//! catalog (`arena::catalog`) build them by name.

use super::fast::{I151State, FLAG_ACE_EFFECT, FLAG_CHOOSE_SUIT, FLAG_SKIP_NEXT};
use super::*;
use crate::core::{Bot, Error, LaneRng, Result};

/// A bot that decides from its seat's [`PlayerView`] and the legal actions (bits `0..38` of
/// [`I151::legal_bits`]), drawing any randomness from `rng`.
pub trait ViewPolicy: Send + Sync {
    /// The bot's short name (`random`, `greedy`, `medium`, `minmax_d3`, ...).
    fn name(&self) -> &str;
    /// The action to play; always one of `legal` (which is never empty when called).
    fn choose(&self, game: &I151, view: &PlayerView, legal: u64, rng: &mut LaneRng) -> u32;
    /// Whether the bot remembers between its decisions (see [`Bot::remembers`]).
    fn remembers(&self) -> bool {
        false
    }
}

/// Implements the core [`Bot`] trait for a [`ViewPolicy`]: the bot sees only the view of
/// the seat to act.
macro_rules! bot_from_policy {
    ($t:ty) => {
        impl Bot<I151> for $t {
            fn name(&self) -> &str {
                ViewPolicy::name(self)
            }
            fn act(&self, game: &I151, state: &I151State, _mask: &[u8], rng: &mut LaneRng) -> u32 {
                let view = game.view(state, state.to_act as usize);
                self.choose(game, &view, game.legal_bits(state), rng)
            }
            fn remembers(&self) -> bool {
                ViewPolicy::remembers(self)
            }
        }
    };
}

/// The `k`-th set bit of `bits` (`k < popcount`).
fn nth_bit(mut bits: u64, mut k: u32) -> u32 {
    while k > 0 {
        bits &= bits - 1;
        k -= 1;
    }
    bits.trailing_zeros()
}

/// A uniformly random legal action.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomPolicy;

impl ViewPolicy for RandomPolicy {
    fn name(&self) -> &str {
        "random"
    }
    fn choose(&self, _game: &I151, _view: &PlayerView, legal: u64, rng: &mut LaneRng) -> u32 {
        nth_bit(legal, rng.below(legal.count_ones()))
    }
}
bot_from_policy!(RandomPolicy);

/// The suit of which `hand` holds the most cards (eights not counted), ties to the most
/// points then the lowest suit.
fn best_suit(hand: u32) -> u8 {
    let non_eights = hand & !rank_set(EIGHT);
    (0..4u8)
        .max_by_key(|&s| {
            let cards = non_eights & suit_set(s);
            (cards.count_ones(), hand_points(cards), std::cmp::Reverse(s))
        })
        .unwrap_or(0)
}

/// Sheds points: plays the playable card worth the most points, keeping eights (wild) for
/// when nothing else can be played; announces the suit it holds most of; draws only when
/// it cannot play, and after a draw passes only when it still cannot play.
#[derive(Clone, Copy, Debug, Default)]
pub struct Greedy;

impl ViewPolicy for Greedy {
    fn name(&self) -> &str {
        "greedy"
    }

    fn choose(&self, _game: &I151, view: &PlayerView, legal: u64, rng: &mut LaneRng) -> u32 {
        if legal >> ACTION_CHOOSE_SUIT & 0xF != 0 {
            return ACTION_CHOOSE_SUIT + best_suit(view.hand) as u32;
        }
        let plays = legal as u32;
        let play = (0..DECK_SIZE as u32)
            .filter(|&c| plays >> c & 1 != 0)
            .max_by_key(|&c| {
                let card = c as u8;
                (
                    (rank_of(card) != EIGHT) as u32,
                    card_points(card),
                    std::cmp::Reverse(c),
                )
            });
        if let Some(card) = play {
            return card;
        }
        if legal >> ACTION_PASS & 1 != 0 {
            return ACTION_PASS;
        }
        if legal >> ACTION_DRAW & 1 != 0 {
            return ACTION_DRAW;
        }
        RandomPolicy.choose(_game, view, legal, rng)
    }
}
bot_from_policy!(Greedy);

/// A sensible heuristic (close to the Dart app's standard AI): every playable card is
/// scored by the points it sheds, what the hand can still follow with after it (same suit
/// or rank), chains of the same rank, and its effect as a weapon: an ace forces the
/// opponent to hold an ace or an eight or draw two, a queen gives another turn. Eights
/// (32 points but wild) are kept for when nothing else fits, or played when the round is
/// about to end (the opponent or the bot is down to two cards or fewer). The suit
/// announced after an eight is the one the hand holds most of (by cards, then points).
/// It draws only when it cannot play.
#[derive(Clone, Copy, Debug, Default)]
pub struct Medium;

impl Medium {
    /// The score of playing `card` (higher is better).
    fn card_score(view: &PlayerView, card: u8) -> i32 {
        let seat = view.seat as usize;
        let opp_cards = (0..view.num_players as usize)
            .filter(|&p| p != seat && !view.seats[p].is_excluded)
            .map(|p| view.seats[p].hand_size as i32)
            .min()
            .unwrap_or(8);
        let rest = view.hand & !(1u32 << card);
        let rank = rank_of(card);
        let suit = suit_of(card);
        let mut score = card_points(card) as i32;
        // Follow-ups: cards that can be played on this one next turn.
        let follow = (rest & (suit_set(suit) | rank_set(rank)) & !rank_set(EIGHT)).count_ones();
        score += 3 * follow as i32;
        let endgame = opp_cards <= 2 || rest.count_ones() <= 1;
        match rank {
            EIGHT => {
                score -= if endgame { 0 } else { 45 };
                if rest == 0 {
                    score += 100;
                }
            }
            ACE => {
                // The opponent must answer with an ace or an eight or draw two.
                score += if opp_cards <= 3 { 14 } else { 6 };
            }
            QUEEN => {
                // Another turn: worth it when the hand can follow it (a queen that empties
                // the hand makes the player draw).
                if rest & (suit_set(suit) | rank_set(QUEEN) | rank_set(EIGHT)) != 0 {
                    score += 10;
                } else if rest == 0 {
                    score -= 30;
                }
            }
            _ => {}
        }
        // Chain: the same rank as the top card with more of it in hand.
        if let Some(top) = view.top_card {
            if rank_of(top) == rank && rest & rank_set(rank) != 0 {
                score += 6;
            }
        }
        if rest == 0 && rank != QUEEN {
            score += 200;
        }
        score
    }
}

impl ViewPolicy for Medium {
    fn name(&self) -> &str {
        "medium"
    }

    fn choose(&self, game: &I151, view: &PlayerView, legal: u64, rng: &mut LaneRng) -> u32 {
        if legal >> ACTION_CHOOSE_SUIT & 0xF != 0 {
            let plays = legal as u32;
            // Chain another eight only to empty the hand.
            if plays != 0 && view.hand.count_ones() == plays.count_ones() {
                return plays.trailing_zeros();
            }
            return ACTION_CHOOSE_SUIT + best_suit(view.hand) as u32;
        }
        let plays = legal as u32;
        let best = (0..DECK_SIZE as u8)
            .filter(|&c| plays >> c & 1 != 0)
            .max_by_key(|&c| (Self::card_score(view, c), std::cmp::Reverse(c)));
        if let Some(card) = best {
            // After a draw or in a chain, passing keeps an eight rather than spending it.
            let passable = legal >> ACTION_PASS & 1 != 0;
            if passable && rank_of(card) == EIGHT && Self::card_score(view, card) < 0 {
                return ACTION_PASS;
            }
            return card as u32;
        }
        if legal >> ACTION_PASS & 1 != 0 {
            return ACTION_PASS;
        }
        if legal >> ACTION_DRAW & 1 != 0 {
            return ACTION_DRAW;
        }
        RandomPolicy.choose(game, view, legal, rng)
    }
}
bot_from_policy!(Medium);

/// A full state consistent with `view`, the hidden cards sampled from `rng`: every card
/// the seat cannot see (not in its hand nor on the played pile) is dealt
/// at random to the other seats (as many as each holds) and the rest, shuffled, is the
/// bank. The pile keeps its last three cards in order (the rest of its order is not in the
/// view and is sampled too). Match-level facts that the view lacks (the match seed) are
/// set to 0: searches stop at the end of the round.
#[cfg(test)]
fn determinize(game: &I151, view: &PlayerView, rng: &mut LaneRng) -> I151State {
    determinize_inferred(game, view, rng, &Inference::default())
}

/// What a seat has inferred about the other seats' hidden hands from their public history
/// in the round (2 seats): the other seat holds none of `lacks`, except in up to `fresh`
/// of its cards (drawn since the inference, unconstrained).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Inference {
    /// Cards the other seat's older cards are not.
    pub lacks: u32,
    /// How many of its cards were drawn after the inference (free of it).
    pub fresh: u8,
}

/// [`determinize`] under an [`Inference`]: the other seat's hand is dealt first from the
/// hidden cards it is not known to lack (as many as it holds minus its `fresh` cards), then
/// its fresh cards from any hidden card left; the rest is the bank. When too few hidden
/// cards fit the inference, the hand is completed from the others, so the world always
/// agrees with the view.
pub fn determinize_inferred(
    game: &I151,
    view: &PlayerView,
    rng: &mut LaneRng,
    inf: &Inference,
) -> I151State {
    let mut s: I151State = bytemuck::Zeroable::zeroed();
    let n = view.num_players as usize;
    s.num_players = view.num_players;
    s.top = view.top_card.unwrap_or(NO_CARD);
    // The top card after a refill is in the bank (or was drawn since): hidden like the rest.
    let known = view.hand | view.played_pile;
    let mut unknown: Vec<u8> = (0..DECK_SIZE as u8)
        .filter(|&c| known >> c & 1 == 0)
        .collect();
    rng.shuffle(&mut unknown);
    let mut next = 0usize;
    for p in 0..n {
        if p == view.seat as usize {
            s.hands[p] = view.hand;
            continue;
        }
        let want = view.seats[p].hand_size as usize;
        if inf.lacks != 0 && n == 2 {
            // Constrained cards first (moved to the front of the order), then fresh ones.
            let constrained = want.saturating_sub(inf.fresh as usize);
            let mut taken = 0usize;
            for i in next..unknown.len() {
                if taken == constrained {
                    break;
                }
                if inf.lacks >> unknown[i] & 1 == 0 {
                    unknown.swap(next + taken, i);
                    taken += 1;
                }
            }
        }
        for _ in 0..want {
            if next < unknown.len() {
                s.hands[p] |= 1 << unknown[next];
                next += 1;
            }
        }
    }
    // The rest: the bank, and (only if the view's counts disagree) nothing else.
    let bank: Vec<u8> = unknown[next..].to_vec();
    s.bank[..bank.len()].copy_from_slice(&bank);
    s.bank_head = 0;
    s.bank_tail = bank.len() as u8;
    // Pile: the cards played before the last three in a random order, then the last three.
    let recent = &view.recent_cards[..view.recent_len as usize];
    let recent_set = recent.iter().fold(0u32, |a, &c| a | 1 << c);
    let mut older: Vec<u8> = (0..DECK_SIZE as u8)
        .filter(|&c| (view.played_pile & !recent_set) >> c & 1 != 0)
        .collect();
    rng.shuffle(&mut older);
    older.extend_from_slice(recent);
    s.pile[..older.len()].copy_from_slice(&older);
    s.pile_len = older.len() as u8;
    s.pile_set = view.played_pile;
    s.required_suit = view.required_suit.unwrap_or(NO_SUIT);
    s.to_act = view.current_player;
    let cp = view.current_player as usize;
    if view.must_choose_suit {
        s.flags |= FLAG_CHOOSE_SUIT;
    }
    if view.ace_effect_active {
        s.flags |= FLAG_ACE_EFFECT;
    }
    s.drawn = (view.current_has_drawn as u8) << cp;
    s.chaining = (view.current_is_chaining as u8) << cp;
    for p in 0..n {
        s.scores[p] = view.seats[p].total_score;
        s.consecutive[p] = view.seats[p].consecutive_round_wins;
        if view.seats[p].is_excluded {
            s.excluded |= 1 << p;
        }
    }
    // The queen's skip is visible through the next seat.
    let mut plain_next = (s.to_act + 1) % s.num_players;
    while s.excluded >> plain_next & 1 != 0 {
        plain_next = (plain_next + 1) % s.num_players;
    }
    if view.next_player != plain_next {
        s.flags |= FLAG_SKIP_NEXT;
    }
    s.last_winner = (0..n as u8)
        .find(|&p| view.seats[p as usize].consecutive_round_wins > 0)
        .unwrap_or(NO_SEAT);
    s.winner = NO_SEAT;
    s.dealer = view.dealer;
    s.round_number = view.round_number;
    s.last_play_count = view.last_play_count;
    let _ = game;
    s
}

/// Depth-limited search over determinized hidden hands (perfect-information Monte Carlo):
/// `worlds` deals of the hidden cards are sampled consistently with the view
/// (`determinize`, or `determinize_inferred` for a bot built with
/// [`Minmax::tracking`], which also respects what the opponent's draws revealed it lacks).
/// In each world every root action is scored by a search of `depth` turns (at most
/// `PLIES_PER_TURN` actions per turn): the bot's own actions are searched with
/// alpha-beta, best first (plays by points, then suits, draw, pass); the other seats play
/// the medium heuristic from their own view of the world; after a draw of its own the
/// bot's turn continues with medium too (the drawn card comes from the sampled bank). A
/// round end is exact (the winner gains the others' hand points plus 30); a leaf scores the
/// hand-size race (30 per card, 10 per eight) and a tenth of the hand points. Each world
/// and root action may expand at most `NODES_PER_MOVE` positions, so a decision's work
/// is bounded whatever the machine's load. The action with the best total over the worlds
/// is played only if it beats medium's action by the bot's margin per world; otherwise
/// medium's stands. A decision with a single legal action is not searched.
#[derive(Debug)]
pub struct Minmax {
    name: String,
    depth: u32,
    worlds: u32,
    margin: i64,
    nodes: u32,
    /// The opponent inference kept across decisions (one match per bot object: the arena
    /// builds a bot per match and seat); `None` for a stateless bot.
    tracker: Option<std::sync::Mutex<Tracker>>,
}

/// The public context the opponent's turn started from, taken right after the bot's own
/// turn ended.
#[derive(Clone, Copy, Debug)]
struct TurnStart {
    /// Cards the opponent could have played on it (an eight always).
    playable: u32,
    /// Its hand size then.
    opp_hand: u8,
    /// The played pile then (set and size).
    pile_set: u32,
    pile_size: u8,
}

/// What a search bot remembers between its decisions of a round.
#[derive(Clone, Copy, Debug, Default)]
struct Tracker {
    round: u16,
    seat: u8,
    inference: Inference,
    start: Option<TurnStart>,
}

impl Tracker {
    /// Updates the inference from what changed since the bot's last turn ended and returns
    /// it. A draw by the opponent at the start of its turn (no play before it, at most one
    /// card played after it, no queen) says it held none of the cards it could have played:
    /// the bots of the catalog draw only when they cannot play. After a refill of the bank
    /// (the pile emptied) the count is lost and the inference is dropped.
    fn observe(&mut self, view: &PlayerView) -> Inference {
        if view.num_players != 2 || self.round != view.round_number || self.seat != view.seat {
            *self = Tracker {
                round: view.round_number,
                seat: view.seat,
                ..Tracker::default()
            };
        }
        let opp = 1 - view.seat as usize;
        let hand_now = view.seats[opp].hand_size;
        let inf = &mut self.inference;
        if let Some(c) = self.start.take() {
            let kept =
                view.played_pile & c.pile_set == c.pile_set && view.played_pile_size >= c.pile_size;
            if !kept {
                *inf = Inference::default();
            } else {
                let played = (view.played_pile_size - c.pile_size) as i32;
                let drawn = hand_now as i32 + played - c.opp_hand as i32;
                let new_cards = view.played_pile & !c.pile_set;
                if drawn > 0 && played <= 1 && new_cards & rank_set(QUEEN) == 0 && c.playable != 0 {
                    // The whole hand before the draw lacked `playable`; an older
                    // inference still holds only if no card was drawn since it.
                    if inf.fresh == 0 {
                        inf.lacks |= c.playable;
                    } else {
                        inf.lacks = c.playable;
                    }
                    inf.fresh = (drawn - played).max(0) as u8;
                } else if drawn > 0 {
                    inf.fresh = inf.fresh.saturating_add(drawn as u8);
                }
            }
        }
        inf.fresh = inf.fresh.min(hand_now);
        if inf.fresh >= hand_now {
            *inf = Inference::default();
        }
        *inf
    }

    /// Records the context the opponent's turn starts from, if `action` ends the bot's turn
    /// in `world` (any world sampled from the view: the public result is the same).
    fn after_action(&mut self, game: &I151, world: &I151State, action: u32) {
        let me = world.to_act;
        let mut child = *world;
        self.start = None;
        if let Ok(None) = game.act(&mut child, action) {
            if child.to_act != me && child.num_players == 2 {
                // What the engine lets it play holding every card the bot cannot see.
                let opp = child.to_act as usize;
                let mut probe = child;
                probe.hands[opp] = !(child.hands[me as usize] | child.pile_set);
                let playable = game.legal_bits(&probe) as u32;
                let empty = child.top == NO_CARD && child.pile_len == 0;
                self.start = Some(TurnStart {
                    playable: if empty { 0 } else { playable },
                    opp_hand: child.hands[child.to_act as usize].count_ones() as u8,
                    pile_set: child.pile_set,
                    pile_size: child.pile_len,
                });
            }
        }
    }
}

impl Minmax {
    /// A search bot of `depth` plies over `worlds` sampled deals (`depth` in 1..=12,
    /// `worlds` in 1..=256).
    pub fn new(depth: u32, worlds: u32) -> Result<Minmax> {
        Error::check_range("depth", 1, 12, depth)?;
        Error::check_range("worlds", 1, 256, worlds)?;
        Ok(Minmax {
            name: format!("minmax_d{depth}"),
            depth,
            worlds,
            margin: MARGIN_PER_WORLD,
            nodes: NODES_PER_MOVE,
            tracker: None,
        })
    }

    /// The same bot remembering the opponent's public history across its decisions of a
    /// round (a draw reveals the cards it lacked) and sampling the hidden hands
    /// consistently with it. One such bot plays one match (the arena builds one per match
    /// and seat); decisions stay deterministic given the match and the bot's stream.
    pub fn tracking(mut self) -> Minmax {
        self.tracker = Some(std::sync::Mutex::new(Tracker::default()));
        self
    }

    /// Sets the margin (per world) by which a searched action must beat medium's.
    pub fn with_margin(mut self, margin: i64) -> Minmax {
        self.margin = margin;
        self
    }

    /// The catalog's settings: `minmax_d3` 32 worlds and a margin of 1,500 per world,
    /// `minmax_d5` and `minmax_d6` 48 worlds and 2,000 (stateless: the catalog adds
    /// [`Minmax::tracking`]).
    pub fn catalog(depth: u32) -> Result<Minmax> {
        let (worlds, margin) = match depth {
            0..=3 => (32, 1_500),
            _ => (48, 2_000),
        };
        Ok(Minmax::new(depth, worlds)?.with_margin(margin))
    }

    /// Search depth in plies.
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// Determinizations per decision.
    pub fn worlds(&self) -> u32 {
        self.worlds
    }
}

/// Value of a finished round for `me`.
fn round_value(s: &I151State, me: usize, winner: u8) -> i32 {
    let n = s.num_players as usize;
    if winner as usize == me {
        let others: u32 = (0..n)
            .filter(|&p| p != me)
            .map(|p| hand_points(s.hands[p]))
            .sum();
        10_000 + 30 + others as i32
    } else {
        -10_000 - 30 - hand_points(s.hands[me]) as i32
    }
}

/// Heuristic value of a live state for `me`: the hand-size race (an eight, always
/// playable, counts a third of a card), then a tenth of the hand points.
fn leaf_value(s: &I151State, me: usize) -> i32 {
    let n = s.num_players as usize;
    let dist = |h: u32| {
        let eights = (h & rank_set(EIGHT)).count_ones() as i32;
        30 * (h.count_ones() as i32 - eights) + 10 * eights
    };
    let mine = s.hands[me];
    let mut v = 0i32;
    for p in 0..n {
        if p == me || s.excluded >> p & 1 != 0 {
            continue;
        }
        v += dist(s.hands[p]) - dist(mine);
        v += (hand_points(s.hands[p]) as i32 - hand_points(mine) as i32) / 10;
    }
    v
}

/// How much better than the medium heuristic's action (per world) a searched action must
/// score to be played instead.
const MARGIN_PER_WORLD: i64 = 6_000;

/// The medium heuristic's action for the seat to act in `s`.
fn medium_action(game: &I151, s: &I151State) -> u32 {
    let view = game.view(s, s.to_act as usize);
    let mut rng = LaneRng::from_seed(0);
    Medium.choose(game, &view, game.legal_bits(s), &mut rng)
}

/// The value of `child`, reached by `action` from a state where `mover` was to act: a
/// round end is exact; after a draw by the searching seat the rest of its turn follows the
/// medium heuristic (the card drawn comes from the sampled bank, so choosing the best
/// follow-up for it would reward drawing with knowledge the seat does not have); the search
/// goes one turn deeper when the turn passed.
#[allow(clippy::too_many_arguments)]
fn child_value(
    game: &I151,
    mut child: I151State,
    me: usize,
    mover: u8,
    action: u32,
    depth: u32,
    plies: u32,
    alpha: i32,
    beta: i32,
    nodes: &mut u32,
) -> i32 {
    if action == ACTION_DRAW && mover as usize == me {
        let mut guard = 0;
        while child.to_act == mover && guard < 16 {
            let a = medium_action(game, &child);
            match game.act(&mut child, a) {
                Ok(Some(w)) => return round_value(&child, me, w),
                Ok(None) => {}
                Err(()) => break,
            }
            guard += 1;
        }
    }
    let d = if child.to_act != mover {
        depth - 1
    } else {
        depth
    };
    alphabeta(
        game,
        &child,
        me,
        d,
        plies.saturating_sub(1),
        alpha,
        beta,
        nodes,
    )
}

/// The legal actions of `bits`, best first for move ordering.
fn ordered(bits: u64, out: &mut [u32; N_ACTIONS]) -> usize {
    let mut len = 0;
    // Plays by points (the most first): shedding points and emptying the hand.
    let mut plays = bits as u32;
    let mut tmp = [0u32; DECK_SIZE];
    let mut k = 0;
    while plays != 0 {
        let c = plays.trailing_zeros();
        plays &= plays - 1;
        tmp[k] = c;
        k += 1;
    }
    tmp[..k].sort_by_key(|&c| std::cmp::Reverse(card_points(c as u8)));
    for &c in &tmp[..k] {
        out[len] = c;
        len += 1;
    }
    for a in ACTION_CHOOSE_SUIT..ACTION_CHOOSE_SUIT + 4 {
        if bits >> a & 1 != 0 {
            out[len] = a;
            len += 1;
        }
    }
    for a in [ACTION_DRAW, ACTION_PASS] {
        if bits >> a & 1 != 0 {
            out[len] = a;
            len += 1;
        }
    }
    len
}

/// Search nodes (positions expanded) allowed per world and root action: a deterministic
/// bound on a decision's work, whatever the load of the machine. Over 40 matches against
/// medium (1.2 M searched root actions per depth), depth 5 needed more in 0.01% of them and
/// depth 6 in 0.25%; the slowest capped decision took 0.16 s on an idle core (uncapped
/// depth 6: 0.46 s), against the arena's default limit of 1 s.
pub const NODES_PER_MOVE: u32 = 4096;

/// Actions searched at most per turn of depth (a turn is a draw, plays, a suit; a long
/// run of queens and refills could otherwise go on without the turn passing).
pub const PLIES_PER_TURN: u32 = 4;

#[allow(clippy::too_many_arguments)]
fn alphabeta(
    game: &I151,
    s: &I151State,
    me: usize,
    depth: u32,
    plies: u32,
    mut alpha: i32,
    mut beta: i32,
    nodes: &mut u32,
) -> i32 {
    if depth == 0 || plies == 0 || *nodes == 0 {
        return leaf_value(s, me);
    }
    *nodes -= 1;
    let bits = game.legal_bits(s);
    if bits == 0 {
        return leaf_value(s, me);
    }
    let maximize = s.to_act as usize == me;
    if !maximize {
        // The other seats play the medium heuristic from their own view of this world.
        let a = medium_action(game, s);
        let mut child = *s;
        return match game.act(&mut child, a) {
            Ok(Some(w)) => round_value(&child, me, w),
            Ok(None) => child_value(
                game, child, me, s.to_act, a, depth, plies, alpha, beta, nodes,
            ),
            Err(()) => leaf_value(s, me),
        };
    }
    let mut moves = [0u32; N_ACTIONS];
    let len = ordered(bits, &mut moves);
    let mut best = if maximize { i32::MIN } else { i32::MAX };
    for &a in &moves[..len] {
        let mut child = *s;
        let v = match game.act(&mut child, a) {
            Ok(Some(w)) => round_value(&child, me, w),
            Ok(None) => child_value(
                game, child, me, s.to_act, a, depth, plies, alpha, beta, nodes,
            ),
            Err(()) => continue,
        };
        if maximize {
            best = best.max(v);
            alpha = alpha.max(v);
        } else {
            best = best.min(v);
            beta = beta.min(v);
        }
        if alpha >= beta {
            break;
        }
    }
    best
}

impl ViewPolicy for Minmax {
    fn name(&self) -> &str {
        &self.name
    }

    fn remembers(&self) -> bool {
        self.tracker.is_some()
    }

    fn choose(&self, game: &I151, view: &PlayerView, legal: u64, rng: &mut LaneRng) -> u32 {
        let mut tracker = self.tracker.as_ref().map(|m| m.lock().unwrap());
        let inference = match tracker.as_mut() {
            Some(t) => t.observe(view),
            None => Inference::default(),
        };
        let first = determinize_inferred(game, view, rng, &inference);
        let action = self.search(game, view, legal, rng, &inference, first);
        if let Some(t) = tracker.as_mut() {
            t.after_action(game, &first, action);
        }
        action
    }
}

impl Minmax {
    fn search(
        &self,
        game: &I151,
        view: &PlayerView,
        legal: u64,
        rng: &mut LaneRng,
        inference: &Inference,
        first: I151State,
    ) -> u32 {
        if legal.count_ones() == 1 {
            return legal.trailing_zeros();
        }
        let me = view.seat as usize;
        let mut moves = [0u32; N_ACTIONS];
        let len = ordered(legal, &mut moves);
        let mut totals = [0i64; N_ACTIONS];
        for w in 0..self.worlds {
            let world = if w == 0 {
                first
            } else {
                determinize_inferred(game, view, rng, inference)
            };
            for (i, &a) in moves[..len].iter().enumerate() {
                let mut child = world;
                let mut nodes = self.nodes;
                totals[i] += match game.act(&mut child, a) {
                    Ok(Some(w)) => round_value(&child, me, w),
                    Ok(None) => child_value(
                        game,
                        child,
                        me,
                        world.to_act,
                        a,
                        self.depth,
                        PLIES_PER_TURN * self.depth,
                        i32::MIN,
                        i32::MAX,
                        &mut nodes,
                    ),
                    Err(()) => i32::MIN / 4,
                } as i64;
            }
        }
        let best = (0..len)
            .max_by_key(|&i| (totals[i], std::cmp::Reverse(i)))
            .unwrap_or(0);
        // The medium heuristic's action stands unless the search finds one clearly better
        // over the same worlds, which keeps the noise of a few sampled worlds out of play.
        let prior = Medium.choose(game, view, legal, rng);
        if let Some(p) = moves[..len].iter().position(|&a| a == prior) {
            if totals[best] - totals[p] < self.margin * self.worlds as i64 {
                return prior;
            }
        }
        moves[best]
    }
}
bot_from_policy!(Minmax);

/// The names [`by_name`] knows.
pub const BOT_NAMES: &[&str] = &[
    "random",
    "greedy",
    "medium",
    "minmax_d3",
    "minmax_d5",
    "minmax_d6",
    "minmax_d<D>w<W>[t]",
];

/// Resolves a builtin bot name into a box of the calling function's return type (every
/// builtin is both a [`ViewPolicy`] and a core [`Bot`]).
macro_rules! builtin_by_name {
    ($name:expr) => {
        match $name.strip_prefix("builtin:").unwrap_or($name) {
            "random" => Ok(Box::new(RandomPolicy)),
            "greedy" => Ok(Box::new(Greedy)),
            "medium" => Ok(Box::new(Medium)),
            "minmax_d3" => Ok(Box::new(Minmax::catalog(3)?)),
            "minmax_d5" => Ok(Box::new(Minmax::catalog(5)?)),
            "minmax_d6" => Ok(Box::new(Minmax::catalog(6)?)),
            other => match parse_minmax(other) {
                Some(m) => Ok(Box::new(m?)),
                None => Err(Error::Unknown {
                    what: "151 bot",
                    name: other.to_string(),
                    expected: BOT_NAMES.join(", "),
                }),
            },
        }
    };
}

/// The bot called `name` (with or without the `builtin:` prefix): `random`, `greedy`,
/// `medium`, `minmax_d3`, `minmax_d5`, `minmax_d6`.
pub fn policy_by_name(name: &str) -> Result<Box<dyn ViewPolicy>> {
    builtin_by_name!(name)
}

/// `minmax_d<depth>w<worlds>`: a search bot with explicit settings (for experiments).
fn parse_minmax(name: &str) -> Option<Result<Minmax>> {
    let rest = name.strip_prefix("minmax_d")?;
    let (rest, track) = match rest.strip_suffix('t') {
        Some(r) => (r, true),
        None => (rest, false),
    };
    let (rest, margin) = match rest.split_once('m') {
        Some((r, m)) => (r, Some(m.parse::<i64>().ok()?)),
        None => (rest, None),
    };
    let (d, w) = rest.split_once('w')?;
    Some(Minmax::new(d.parse().ok()?, w.parse().ok()?).map(|m| {
        let m = match margin {
            Some(x) => m.with_margin(x),
            None => m,
        };
        if track {
            m.tracking()
        } else {
            m
        }
    }))
}

/// The bot called `name` as a core [`Bot`] (for `cardvec match 151`).
pub fn by_name(name: &str) -> Result<Box<dyn Bot<I151>>> {
    builtin_by_name!(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The inference a tracking search bot draws from the opponent's public history is
    /// true of the opponent's real hand when the opponent draws only when it cannot play
    /// (medium): at every decision of the bot, at most `fresh` of the opponent's cards are
    /// among those it is inferred to lack; worlds sampled under it agree with the view.
    #[test]
    fn tracked_inference_holds_against_medium() {
        let game = I151::new(2).unwrap();
        let mut rng = LaneRng::from_seed(5);
        let mut informed = 0;
        for seed in 0..150i64 {
            let bot = Minmax::new(1, 2).unwrap().tracking();
            let mut s = game.reset_with_match_seed(seed);
            let mut steps = 0;
            while !s.is_over() && steps < 400 {
                let seat = s.to_act as usize;
                let view = game.view(&s, seat);
                let legal = game.legal_bits(&s);
                let a = if seat == 0 {
                    let a = bot.choose(&game, &view, legal, &mut rng);
                    let inf = bot.tracker.as_ref().unwrap().lock().unwrap().inference;
                    let wrong = (s.hands[1] & inf.lacks).count_ones();
                    assert!(
                        wrong <= inf.fresh as u32,
                        "seed {seed} step {steps}: {inf:?}"
                    );
                    if inf.lacks != 0 {
                        informed += 1;
                        let world = determinize_inferred(&game, &view, &mut rng, &inf);
                        assert_eq!(game.view(&world, 0).seats[..2], view.seats[..2]);
                        assert_eq!(game.legal_bits(&world), legal);
                    }
                    a
                } else {
                    Medium.choose(&game, &view, legal, &mut rng)
                };
                let mut r = [0f32; 4];
                let _ = crate::core::Game::step(&game, &mut s, a, &mut rng, &mut r);
                steps += 1;
            }
        }
        assert!(informed > 500, "only {informed} informed decisions");
    }

    /// The determinized world agrees with the view: same view for the bot's seat, every
    /// card accounted for, the other seat's hand size kept.
    #[test]
    fn determinized_worlds_match_the_view() {
        let game = I151::new(2).unwrap();
        let mut rng = LaneRng::from_seed(3);
        for seed in 0..200i64 {
            let mut s = game.reset_with_match_seed(seed);
            let mut steps = 0;
            while !s.is_over() && steps < 60 {
                let view = game.view(&s, s.to_act as usize);
                let world = determinize(&game, &view, &mut rng);
                let wview = game.view(&world, s.to_act as usize);
                assert_eq!(view.hand, wview.hand);
                assert_eq!(view.seats[..2], wview.seats[..2]);
                assert_eq!(view.top_card, wview.top_card);
                assert_eq!(view.recent_cards, wview.recent_cards);
                assert_eq!(view.next_player, wview.next_player);
                assert_eq!(game.legal_bits(&s), game.legal_bits(&world));
                let all = world.hands[0] | world.hands[1] | world.pile_set | world.bank_set();
                let top = world.top_card().map_or(0, |c| 1u32 << c);
                assert_eq!(all | top, u32::MAX, "seed {seed}");
                let a = RandomPolicy.choose(&game, &view, game.legal_bits(&s), &mut rng);
                let mut r = [0f32; 4];
                let _ = crate::core::Game::step(&game, &mut s, a, &mut rng, &mut r);
                steps += 1;
            }
        }
    }
}
