//! `cardvec match`: one bot against another over many games, seats alternating.

use cardvec::core::arena::head_to_head;
use cardvec::core::{Bot, Game, Result};
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
}

fn report<G: Game>(game: &G, a: &dyn Bot<G>, b: &dyn Bot<G>, args: &MatchArgs) -> Result<()> {
    let pool = super::pool(args.threads)?;
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
        other => Err(super::unknown_game(other)),
    }
}
