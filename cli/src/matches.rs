//! `cardvec match`: one bot against another over many games, seats alternating; for games
//! of more than two seats (Flip 7), a free-for-all among several bots rotated over the
//! seats, for each player count asked.

use cardvec::core::matches::{free_for_all, head_to_head};
use cardvec::core::{Bot, Game, Result};
use cardvec::games::flip7::{self, Flip7};
use cardvec::games::holdem::{self as nlhe, NoLimitHoldem};
use cardvec::games::i151::{self, I151};
use cardvec::games::lost_cities::{bots, LostCities};

/// Options of `cardvec match`.
#[derive(clap::Args, Debug)]
pub struct MatchArgs {
    /// The game.
    game: String,
    /// First bot.
    #[arg(long, default_value = "safe-heuristic")]
    a: String,
    /// Second bot.
    #[arg(long, default_value = "random")]
    b: String,
    /// Number of games.
    #[arg(long, default_value_t = 10_000)]
    games: u64,
    /// Seed (game `g` is dealt from stream `(seed, g, 0)`).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Worker threads (default: one per core).
    #[arg(long)]
    threads: Option<usize>,
    /// Many-seat games: the bots of the free-for-all, comma separated (default: flip7
    /// `random,threshold-27,expected-value`, holdem `random,call-station,equity`).
    #[arg(long)]
    bots: Option<String>,
    /// Many-seat games: the player counts to play, comma separated (default: flip7
    /// `3,4,5,6`, holdem `2,6`).
    #[arg(long, visible_alias = "seats")]
    players: Option<String>,
    /// Hold'em: each seat's stack at the start of every hand, in big blinds (blinds 1/2).
    #[arg(long, default_value_t = 100)]
    stack_bb: u64,
}

fn parse_list<T: std::str::FromStr>(what: &'static str, list: &str) -> Result<Vec<T>> {
    list.split(',')
        .map(|x| {
            x.trim().parse().map_err(|_| cardvec::core::Error::Invalid {
                what,
                reason: format!("cannot parse {x:?}"),
            })
        })
        .collect()
}

fn report_flip7(args: &MatchArgs) -> Result<()> {
    let bots = args
        .bots
        .as_deref()
        .unwrap_or("random,threshold-27,expected-value");
    let names: Vec<String> = parse_list("bots", bots)?;
    let owned = names
        .iter()
        .map(|n| flip7::bots::by_name(n))
        .collect::<Result<Vec<_>>>()?;
    let bots: Vec<&dyn Bot<Flip7>> = owned.iter().map(|b| b.as_ref()).collect();
    let pool = crate::pool(args.threads)?;
    for players in parse_list::<usize>("players", args.players.as_deref().unwrap_or("3,4,5,6"))? {
        let game = Flip7::with_players(players)?;
        let r = pool.install(|| free_for_all(&game, &bots, args.games, args.seed));
        println!(
            "game=flip7 players={players} games={} seed={} plies_per_game={:.1} fair_share={:.4}",
            r.games,
            args.seed,
            r.plies.mean(),
            1.0 / players as f64
        );
        for s in &r.standings {
            println!(
                "  {:<16} seats={:<7} win_rate={:.4} (95% CI {:.4}..{:.4}) mean_score={:.1} ±{:.1}",
                s.name,
                s.seats,
                s.score.rate,
                s.score.low,
                s.score.high,
                s.reward.mean(),
                s.reward.ci95()
            );
        }
    }
    Ok(())
}

/// Hold'em: a free-for-all per table size, each bot's result in big blinds per 100 hands.
fn report_holdem(args: &MatchArgs) -> Result<()> {
    let names: Vec<String> = parse_list(
        "bots",
        args.bots.as_deref().unwrap_or("random,call-station,equity"),
    )?;
    let owned = names
        .iter()
        .map(|n| nlhe::bots::by_name(n))
        .collect::<Result<Vec<_>>>()?;
    let bots: Vec<&dyn Bot<NoLimitHoldem>> = owned.iter().map(|b| b.as_ref()).collect();
    let pool = crate::pool(args.threads)?;
    let seat_counts = parse_list::<usize>("seats", args.players.as_deref().unwrap_or("2,6"))?;
    let table = nlhe::TableConfig::new(1, 2, 0)?;
    let stack = args.stack_bb.saturating_mul(table.big_blind);
    for seats in seat_counts {
        let game = NoLimitHoldem::new(seats, table, stack)?;
        let r = pool.install(|| free_for_all(&game, &bots, args.games, args.seed));
        println!(
            "game=holdem seats={seats} hands={} seed={} blinds=1/2 stacks={}bb actions_per_hand={:.2}",
            r.games,
            args.seed,
            args.stack_bb,
            r.plies.mean(),
        );
        for s in &r.standings {
            println!(
                "  {:<14} seat-hands={:<8} bb/100={:>9.2} (95% CI {:.2}..{:.2})",
                s.name,
                s.seats,
                100.0 * s.reward.mean(),
                100.0 * (s.reward.mean() - s.reward.ci95()),
                100.0 * (s.reward.mean() + s.reward.ci95()),
            );
        }
    }
    Ok(())
}

fn report<G: Game>(game: &G, a: &dyn Bot<G>, b: &dyn Bot<G>, args: &MatchArgs) -> Result<()> {
    let pool = crate::pool(args.threads)?;
    let r = pool.install(|| head_to_head(game, a, b, args.games, args.seed));
    println!(
        "game={} a={} b={} games={} seed={}",
        game.name(),
        a.name(),
        b.name(),
        r.games,
        args.seed
    );
    println!(
        "a wins={} ties={} losses={} score={:.4} (95% CI {:.4}..{:.4}, ties count half)",
        r.wins,
        r.ties,
        r.games - r.wins - r.ties,
        r.score.rate,
        r.score.low,
        r.score.high
    );
    println!(
        "mean reward a={:.2} ±{:.2} b={:.2} ±{:.2}; plies per game {:.1}",
        r.reward_a.mean(),
        r.reward_a.ci95(),
        r.reward_b.mean(),
        r.reward_b.ci95(),
        r.plies.mean()
    );
    Ok(())
}

/// Runs `cardvec match`.
pub fn run(args: MatchArgs) -> Result<()> {
    match args.game.as_str() {
        "lost-cities" => {
            let a = bots::by_name(&args.a)?;
            let b = bots::by_name(&args.b)?;
            report(&LostCities, a.as_ref(), b.as_ref(), &args)
        }
        "flip7" => report_flip7(&args),
        "holdem" => report_holdem(&args),
        "151" => {
            let a = i151::bots::by_name(if args.a == "safe-heuristic" {
                "greedy"
            } else {
                &args.a
            })?;
            let b = i151::bots::by_name(&args.b)?;
            let game = I151::new(2)?.with_reward(i151::RewardMode::MatchOutcome);
            report(&game, a.as_ref(), b.as_ref(), &args)
        }
        other => Err(crate::unknown_game(other)),
    }
}
