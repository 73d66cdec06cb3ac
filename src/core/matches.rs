//! Bot matches: many independent games, bots rotated over the seats, played in parallel on
//! the current rayon pool. Game `g` is dealt from stream `(seed, g, 0)` and its bots draw
//! from stream `(seed, g, 1)`, so results never depend on the thread count. A duplicate
//! head-to-head ([`head_to_head_duplicate`]) deals games `2k` and `2k + 1` alike, from stream
//! `(seed, k, 0)`, the seats swapped: each deal is played from both sides, which cuts the
//! luck of the deal out of the comparison (exactly in a game whose chance is all in the
//! deal, such as Lost Cities; in others the later chance events come from the same stream,
//! so they stay alike as long as the two games draw alike).

use rayon::prelude::*;

use super::game::Game;
use super::policy::Bot;
use super::rng::LaneRng;
use super::stats::{wilson, Proportion, Summary};

/// The result of one game: each bot's total reward and the number of plies.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// Total reward of each bot (indexed like the bots, not the seats).
    pub rewards: Vec<f32>,
    /// Actions applied.
    pub plies: u32,
    /// The game was cut off (by the game's own limit or by `max_steps`), not ended.
    pub truncated: bool,
}

/// Plays game `g` of a match with as many bots as seats, seats rotated as in
/// [`play_rotated`], cut off after `max_steps` plies if given, and returns the rewards by
/// bot.
pub fn play_one<G: Game>(
    game: &G,
    bots: &[&dyn Bot<G>],
    seed: u64,
    g: u64,
    max_steps: Option<u32>,
) -> GameRecord {
    play_one_dealt(game, bots, seed, g, g, max_steps)
}

/// [`play_one`] dealt as game `deal` (the seats rotated by `g`).
fn play_one_dealt<G: Game>(
    game: &G,
    bots: &[&dyn Bot<G>],
    seed: u64,
    g: u64,
    deal: u64,
    max_steps: Option<u32>,
) -> GameRecord {
    let n = bots.len();
    debug_assert_eq!(n, game.num_players());
    let played = play_seated(game, bots, seed, g, deal, max_steps);
    let mut rewards = vec![0f32; n];
    for (seat, r) in played.rewards.iter().enumerate() {
        rewards[(seat + (g % n as u64) as usize) % n] += r;
    }
    GameRecord {
        rewards,
        plies: played.plies,
        truncated: played.truncated,
    }
}

/// Summary of a two-bot match from the first bot's point of view.
#[derive(Clone, Debug)]
pub struct HeadToHead {
    /// Games played.
    pub games: u64,
    /// First bot's wins (its reward strictly above the second's).
    pub wins: u64,
    /// Ties.
    pub ties: u64,
    /// First bot's win rate with its 95% interval (ties count as half a win).
    pub score: Proportion,
    /// First bot's reward per game.
    pub reward_a: Summary,
    /// Second bot's reward per game.
    pub reward_b: Summary,
    /// First bot's reward per game averaged over each deal: over the two games of a deal
    /// in a duplicate match (a last unpaired game alone), over the one game otherwise. Its
    /// interval is the duplicate match's interval of the mean reward; `reward_a`'s treats
    /// the games as independent (wider in a duplicate match: the two games of a deal cancel
    /// each other's luck).
    pub reward_a_deals: Summary,
    /// Plies per game.
    pub plies: Summary,
    /// Games cut off rather than ended (by the game's own limit or by `max_steps`); they
    /// are scored by the rewards paid until the cut.
    pub truncated: u64,
}

/// Plays `games` games between two bots (alternating seats) on the current rayon pool, each
/// cut off after `max_steps` plies if given; the totals are summed in game order, so they
/// never depend on the thread count.
pub fn head_to_head<G: Game>(
    game: &G,
    a: &dyn Bot<G>,
    b: &dyn Bot<G>,
    games: u64,
    seed: u64,
    max_steps: Option<u32>,
) -> HeadToHead {
    head_to_head_dealt(game, a, b, games, seed, max_steps, false)
}

/// [`head_to_head`] over duplicate deals: games `2k` and `2k + 1` are dealt alike (stream
/// `(seed, k, 0)`), the first bot in seat 0 in the first and in seat 1 in the second (see
/// the module documentation). The interval of [`HeadToHead::score`] treats the games as
/// independent, which overstates its width here (the two games of a deal cancel each
/// other's luck).
pub fn head_to_head_duplicate<G: Game>(
    game: &G,
    a: &dyn Bot<G>,
    b: &dyn Bot<G>,
    games: u64,
    seed: u64,
    max_steps: Option<u32>,
) -> HeadToHead {
    head_to_head_dealt(game, a, b, games, seed, max_steps, true)
}

fn head_to_head_dealt<G: Game>(
    game: &G,
    a: &dyn Bot<G>,
    b: &dyn Bot<G>,
    games: u64,
    seed: u64,
    max_steps: Option<u32>,
    duplicate: bool,
) -> HeadToHead {
    let bots = [a, b];
    let (mut wins, mut ties, mut truncated) = (0, 0, 0);
    let (mut ra, mut rb, mut plies) = (Summary::default(), Summary::default(), Summary::default());
    let mut deals = Summary::default();
    let mut first_of_deal = 0f64;
    for_each_in_order(
        games,
        |g| {
            play_one_dealt(
                game,
                &bots,
                seed,
                g,
                if duplicate { g / 2 } else { g },
                max_steps,
            )
        },
        |g, rec| {
            let (x, y) = (rec.rewards[0], rec.rewards[1]);
            if !duplicate {
                deals.push(x as f64);
            } else if g % 2 == 1 {
                deals.push(0.5 * (first_of_deal + x as f64));
            } else if g + 1 == games {
                deals.push(x as f64);
            } else {
                first_of_deal = x as f64;
            }
            wins += (x > y) as u64;
            ties += (x == y) as u64;
            truncated += rec.truncated as u64;
            ra.push(x as f64);
            rb.push(y as f64);
            plies.push(rec.plies as f64);
        },
    );
    HeadToHead {
        games,
        wins,
        ties,
        score: wilson(wins as f64 + 0.5 * ties as f64, games as f64),
        reward_a: ra,
        reward_b: rb,
        reward_a_deals: deals,
        plies,
        truncated,
    }
}

/// Games played in parallel before their results are added up (in game order).
const GAMES_PER_BLOCK: u64 = 1 << 16;

/// Plays games `0..games` with `play` on the current rayon pool, a block at a time, and
/// hands each result to `add` in game order: the totals never depend on the thread count,
/// and memory does not grow with `games`.
fn for_each_in_order<R: Send>(
    games: u64,
    play: impl Fn(u64) -> R + Sync,
    mut add: impl FnMut(u64, R),
) {
    let mut start = 0;
    while start < games {
        let end = games.min(start.saturating_add(GAMES_PER_BLOCK));
        let results: Vec<R> = (start..end).into_par_iter().map(&play).collect();
        for (g, r) in (start..end).zip(results) {
            add(g, r);
        }
        start = end;
    }
}

/// Plays game `g` with seat `s` taken by bot `(s + g) % bots.len()` (any number of bots for
/// any number of seats, rotated so that every bot sits everywhere). Returns each seat's
/// total reward and the number of plies.
pub fn play_rotated<G: Game>(game: &G, bots: &[&dyn Bot<G>], seed: u64, g: u64) -> (Vec<f32>, u32) {
    let played = play_rotated_until(game, bots, seed, g, None);
    (played.rewards, played.plies)
}

/// One game of [`play_rotated_until`], by seat.
#[derive(Clone, Debug, PartialEq)]
pub struct SeatRecord {
    /// Total reward of each seat.
    pub rewards: Vec<f32>,
    /// Actions applied.
    pub plies: u32,
    /// The game was cut off (the game's own limit, or `max_steps` plies), not ended.
    pub truncated: bool,
}

/// [`play_rotated`], cut off (truncated) after `max_steps` plies if given and the game has
/// not ended by then, as [`crate::core::EnvOptions::max_steps`] cuts a lane off.
pub fn play_rotated_until<G: Game>(
    game: &G,
    bots: &[&dyn Bot<G>],
    seed: u64,
    g: u64,
    max_steps: Option<u32>,
) -> SeatRecord {
    play_seated(game, bots, seed, g, g, max_steps)
}

/// Game `rotation` of duplicate deal `deal`: dealt from stream `(seed, deal, 0)`, the bots
/// drawing from stream `(seed, deal, 1)`, seat `s` taken by bot
/// `(s + rotation) % bots.len()`, cut off after `max_steps` plies if given. The games of
/// one deal at rotations `0..bots.len()` start from the same cards, every bot in every
/// seat: what a duplicate head-to-head ([`head_to_head_duplicate`]) and the ladder
/// (`crate::ladder`) play. Returns each seat's total reward.
pub fn play_deal<G: Game>(
    game: &G,
    bots: &[&dyn Bot<G>],
    seed: u64,
    deal: u64,
    rotation: u64,
    max_steps: Option<u32>,
) -> SeatRecord {
    play_seated(game, bots, seed, rotation, deal, max_steps)
}

/// [`play_rotated_until`] dealt from stream `(seed, deal, 0)`, the seats rotated by `g`.
fn play_seated<G: Game>(
    game: &G,
    bots: &[&dyn Bot<G>],
    seed: u64,
    g: u64,
    deal: u64,
    max_steps: Option<u32>,
) -> SeatRecord {
    let seats = game.num_players();
    let bot_of = |seat: usize| (seat + (g % bots.len() as u64) as usize) % bots.len();
    let mut rng = LaneRng::for_lane(seed, deal, 1);
    let mut deal = LaneRng::for_lane(seed, deal, 0);
    let mut state = game.reset(&mut deal);
    let mut mask = vec![0u8; game.num_actions()];
    let mut step_rewards = vec![0f32; seats];
    let mut rewards = vec![0f32; seats];
    // A game over as dealt (a hold'em hand with no decision) pays at the deal.
    game.deal_rewards(&state, &mut rewards);
    let mut plies = 0;
    let truncated = loop {
        let (terminated, truncated) = game.finished(&state);
        if terminated || truncated {
            break truncated && !terminated;
        }
        if max_steps.is_some_and(|m| plies >= m) {
            break true;
        }
        let bot = bots[bot_of(game.current_player(&state))];
        game.legal_mask(&state, &mut mask);
        let action = bot.act(game, &state, &mask, &mut rng);
        step_rewards.fill(0.0);
        let outcome = game.step(&mut state, action, &mut deal, &mut step_rewards);
        assert!(
            outcome.applied,
            "bot {} played illegal action {action}",
            bot.name()
        );
        plies += 1;
        for (total, r) in rewards.iter_mut().zip(&step_rewards) {
            *total += r;
        }
    };
    SeatRecord {
        rewards,
        plies,
        truncated,
    }
}

/// One bot's results in a [`free_for_all`].
#[derive(Clone, Debug)]
pub struct Standing {
    /// The bot's name.
    pub name: String,
    /// Seats it occupied, summed over games.
    pub seats: u64,
    /// Its wins per seat occupied, with the 95% interval: a seat with the highest total
    /// reward wins, and `k` tied leaders get `1/k` each.
    pub score: Proportion,
    /// Total reward per seat occupied.
    pub reward: Summary,
}

/// Summary of a many-seat match.
#[derive(Clone, Debug)]
pub struct FreeForAll {
    /// Games played.
    pub games: u64,
    /// Players per game (a fair bot wins `1 / num_players` of its seats).
    pub num_players: usize,
    /// One entry per bot, in the order given.
    pub standings: Vec<Standing>,
    /// Plies per game.
    pub plies: Summary,
    /// Games cut off rather than ended (see [`HeadToHead::truncated`]).
    pub truncated: u64,
}

/// Plays `games` games of any seat count among any number of bots, rotated over the seats
/// ([`play_rotated`]), each cut off after `max_steps` plies if given, on the current rayon
/// pool; totals are summed in game order, so they never depend on the thread count.
pub fn free_for_all<G: Game>(
    game: &G,
    bots: &[&dyn Bot<G>],
    games: u64,
    seed: u64,
    max_steps: Option<u32>,
) -> FreeForAll {
    let b = bots.len();
    let mut seats = vec![0u64; b];
    let mut wins = vec![0f64; b];
    let mut reward = vec![Summary::default(); b];
    let mut plies = Summary::default();
    let mut truncated = 0;
    for_each_in_order(
        games,
        |g| play_rotated_until(game, bots, seed, g, max_steps),
        |g, played| {
            let (rewards, n) = (played.rewards, played.plies);
            truncated += played.truncated as u64;
            let best = rewards.iter().copied().fold(f32::NEG_INFINITY, f32::max);
            let leaders = rewards.iter().filter(|&&r| r == best).count() as f64;
            for (seat, &r) in rewards.iter().enumerate() {
                let bot = (seat + (g % b as u64) as usize) % b;
                seats[bot] += 1;
                reward[bot].push(r as f64);
                if r == best {
                    wins[bot] += 1.0 / leaders;
                }
            }
            plies.push(n as f64);
        },
    );
    let standings = (0..b)
        .map(|i| Standing {
            name: bots[i].name().to_string(),
            seats: seats[i],
            score: wilson(wins[i], seats[i] as f64),
            reward: reward[i],
        })
        .collect();
    FreeForAll {
        games,
        num_players: game.num_players(),
        standings,
        plies,
        truncated,
    }
}

/// Fixed-point scale of the reward sums of a [`MatchTally`]: a reward `x` is added as the
/// integer `round(x * REWARD_SCALE)`, so sums are exact integers whatever the order of
/// addition (rewards finer than `1 / REWARD_SCALE` are rounded to that step).
pub const REWARD_SCALE: f64 = (1u64 << 20) as f64;

/// One bot's exact totals in a [`MatchTally`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BotTally {
    /// Seats the bot occupied.
    pub seats: u64,
    /// `leaders[k - 1]`: seats it occupied that had the highest total reward together with
    /// `k - 1` other seats (`leaders[0]`: outright wins; a seat shared by `k` leaders wins
    /// `1 / k`).
    pub leaders: Vec<u64>,
    /// Sum of its rewards, in units of `1 / REWARD_SCALE`.
    pub reward_sum: i128,
    /// Sum of its squared rewards, in units of `1 / REWARD_SCALE²`.
    pub reward_sq_sum: i128,
}

/// Exact, order-free totals of the games `first..first + games` of a match (bots rotated
/// over the seats as in [`play_rotated`]): only integers, so the tallies of consecutive
/// ranges (shards of a match, played anywhere) add up ([`MatchTally::merge`]) to the
/// tally of their union, bit for bit.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MatchTally {
    /// Games played.
    pub games: u64,
    /// One entry per bot, in the order given.
    pub bots: Vec<BotTally>,
    /// Plies summed over the games.
    pub plies: u64,
    /// Squared plies summed over the games.
    pub plies_sq: u128,
}

impl MatchTally {
    /// Adds the tally of another range of the same match.
    pub fn merge(&mut self, other: &MatchTally) {
        self.games += other.games;
        self.plies += other.plies;
        self.plies_sq += other.plies_sq;
        if self.bots.len() < other.bots.len() {
            self.bots.resize(other.bots.len(), BotTally::default());
        }
        for (a, b) in self.bots.iter_mut().zip(&other.bots) {
            a.seats += b.seats;
            if a.leaders.len() < b.leaders.len() {
                a.leaders.resize(b.leaders.len(), 0);
            }
            for (x, y) in a.leaders.iter_mut().zip(&b.leaders) {
                *x += y;
            }
            a.reward_sum += b.reward_sum;
            a.reward_sq_sum += b.reward_sq_sum;
        }
    }
}

/// Plays games `first..first + games` of a match between `bots` rotated over the seats
/// ([`play_rotated`]: game `g` dealt from stream `(seed, g, 0)`) on the current rayon pool
/// and returns their exact tally. Game indices past `u64::MAX` are not played.
pub fn tally_range<G: Game>(
    game: &G,
    bots: &[&dyn Bot<G>],
    seed: u64,
    first: u64,
    games: u64,
) -> MatchTally {
    let b = bots.len();
    let seats = game.num_players();
    let end = first.saturating_add(games);
    let blank = || MatchTally {
        games: 0,
        bots: vec![
            BotTally {
                leaders: vec![0; seats],
                ..BotTally::default()
            };
            b
        ],
        plies: 0,
        plies_sq: 0,
    };
    (first..end)
        .into_par_iter()
        .fold(blank, |mut t, g| {
            let (rewards, n) = play_rotated(game, bots, seed, g);
            let best = rewards.iter().copied().fold(f32::NEG_INFINITY, f32::max);
            let leaders = rewards.iter().filter(|&&r| r == best).count();
            for (seat, &r) in rewards.iter().enumerate() {
                let bot = &mut t.bots[(seat + (g % b as u64) as usize) % b];
                bot.seats += 1;
                let fixed = (r as f64 * REWARD_SCALE).round() as i128;
                bot.reward_sum += fixed;
                bot.reward_sq_sum += fixed * fixed;
                if r == best {
                    bot.leaders[leaders - 1] += 1;
                }
            }
            t.games += 1;
            t.plies += n as u64;
            t.plies_sq += (n as u128) * (n as u128);
            t
        })
        .reduce(blank, |mut x, y| {
            x.merge(&y);
            x
        })
}
