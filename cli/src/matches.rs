//! `cardvec match`: built-in bots of any registered game against each other. A two-player
//! configuration plays one bot against another, seats alternating (`--a`, `--b`); a game
//! with a free-for-all in its registry entry (or `--bots`, `--players`) rotates several bots
//! over the seats, for each player count asked.

use cardvec::core::matches::{free_for_all, head_to_head, head_to_head_duplicate};
use cardvec::core::spec::{GameSpec, OptionValue, Options};
use cardvec::core::{Bot, Error, Result};
use cardvec::registry::{self, Visitor};
use serde::Serialize;

use crate::game_args::{check_count, check_players, options, parse_list, split_bots};

/// Options of `cardvec match`.
#[derive(clap::Args, Debug)]
pub struct MatchArgs {
    /// The game (`cardvec games` lists games and bots).
    game: String,
    /// Game options, `name=value` (repeatable).
    #[arg(short = 'o', long = "option", value_name = "NAME=VALUE")]
    options: Vec<String>,
    /// Head-to-head: the first bot (default: the game's, e.g. lost-cities safe-heuristic).
    #[arg(long)]
    a: Option<String>,
    /// Head-to-head: the second bot (default: the game's, e.g. random).
    #[arg(long)]
    b: Option<String>,
    /// Head-to-head: duplicate deals (games 2k and 2k+1 dealt alike from stream (seed, k,
    /// 0), the seats swapped), which cuts the luck of the deal out of the comparison.
    #[arg(long)]
    duplicate: bool,
    /// Free-for-all: the bots, comma separated (default: the game's); a bot's own options
    /// stay with it (`pimc:sims=8,playout=expected-value,expected-value` is two bots).
    #[arg(long)]
    bots: Option<String>,
    /// Free-for-all: the player counts to play, comma separated (default: the game's).
    #[arg(long, visible_alias = "seats")]
    players: Option<String>,
    /// Number of games (per player count).
    #[arg(long, default_value_t = 10_000)]
    games: u64,
    /// Seed (game `g` is dealt from stream `(seed, g, 0)`).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Step limit per game: a game that reaches N plies without ending is cut off
    /// (truncated), scored by the rewards paid so far and counted as `truncated`. Default:
    /// none (a game's own limits, such as 151's `max_round_steps`, still apply).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    max_steps: Option<u32>,
    /// Worker threads (default: one per core).
    #[arg(long)]
    threads: Option<usize>,
    /// Print the results as JSON lines instead of text.
    #[arg(long)]
    json: bool,
}

/// A head-to-head result, as `--json` prints it.
#[derive(Serialize)]
struct HeadToHeadLine {
    game: &'static str,
    options: String,
    a: String,
    b: String,
    games: u64,
    seed: u64,
    duplicate: bool,
    a_wins: u64,
    ties: u64,
    a_losses: u64,
    score: f64,
    score_low: f64,
    score_high: f64,
    reward_a: f64,
    reward_a_ci95: f64,
    reward_b: f64,
    reward_b_ci95: f64,
    /// The interval of `reward_a` over deals (each deal's mean over its games): with
    /// `--duplicate` the duplicate interval; `reward_a_ci95` treats the games as
    /// independent, as a match without duplicate on the same deals would.
    reward_a_ci95_deals: f64,
    reward_unit: &'static str,
    plies_per_game: f64,
    max_steps: Option<u32>,
    truncated: u64,
}

/// One bot's free-for-all standing, as `--json` prints it.
#[derive(Serialize)]
struct StandingLine {
    bot: String,
    seats: u64,
    win_rate: f64,
    win_rate_low: f64,
    win_rate_high: f64,
    reward: f64,
    reward_ci95: f64,
}

/// A free-for-all result at one player count, as `--json` prints it.
#[derive(Serialize)]
struct FreeForAllLine {
    game: &'static str,
    options: String,
    players: usize,
    games: u64,
    seed: u64,
    fair_share: f64,
    plies_per_game: f64,
    reward_unit: &'static str,
    max_steps: Option<u32>,
    truncated: u64,
    standings: Vec<StandingLine>,
}

/// ` max_steps=N truncated=T` for the text lines, when a limit was given or a game was cut.
fn truncation_text(max_steps: Option<u32>, truncated: u64) -> String {
    let limit = max_steps.map_or_else(String::new, |m| format!(" max_steps={m}"));
    if max_steps.is_some() || truncated > 0 {
        format!("{limit} truncated={truncated}")
    } else {
        String::new()
    }
}

fn json<T: Serialize>(line: &T) {
    println!(
        "{}",
        serde_json::to_string(line).expect("a result always serializes")
    );
}

struct Match<'a> {
    args: &'a MatchArgs,
    pool: rayon::ThreadPool,
}

impl Match<'_> {
    fn bots<G: GameSpec>(game: &G, names: &[String]) -> Result<Vec<Box<dyn Bot<G>>>> {
        names
            .iter()
            .map(|n| cardvec::agents::bot(game, n))
            .collect()
    }

    fn head_to_head<G: GameSpec>(&self, options: &Options) -> Result<()> {
        let args = self.args;
        let info = &G::INFO;
        let game = G::configure(options)?;
        let a = args.a.clone().unwrap_or(info.match_bots[0].to_string());
        let b = args
            .b
            .clone()
            .unwrap_or(info.match_bots[1 % info.match_bots.len()].to_string());
        let bots = Self::bots(&game, &[a, b])?;
        let play = if args.duplicate {
            head_to_head_duplicate
        } else {
            head_to_head
        };
        let r = self.pool.install(|| {
            play(
                &game,
                bots[0].as_ref(),
                bots[1].as_ref(),
                args.games,
                args.seed,
                args.max_steps,
            )
        });
        let (scale, unit) = info.reward_report;
        let line = HeadToHeadLine {
            game: info.id,
            options: game.options().to_string(),
            a: bots[0].name().to_string(),
            b: bots[1].name().to_string(),
            games: r.games,
            seed: args.seed,
            duplicate: args.duplicate,
            a_wins: r.wins,
            ties: r.ties,
            a_losses: r.games - r.wins - r.ties,
            score: r.score.rate,
            score_low: r.score.low,
            score_high: r.score.high,
            reward_a: scale * r.reward_a.mean(),
            reward_a_ci95: scale * r.reward_a.ci95(),
            reward_b: scale * r.reward_b.mean(),
            reward_b_ci95: scale * r.reward_b.ci95(),
            reward_a_ci95_deals: scale * r.reward_a_deals.ci95(),
            reward_unit: unit,
            plies_per_game: r.plies.mean(),
            max_steps: args.max_steps,
            truncated: r.truncated,
        };
        if args.json {
            json(&line);
            return Ok(());
        }
        println!(
            "game={} options={} a={} b={} games={} seed={}{}{}",
            line.game,
            line.options,
            line.a,
            line.b,
            line.games,
            line.seed,
            if line.duplicate { " duplicate" } else { "" },
            truncation_text(line.max_steps, line.truncated)
        );
        println!(
            "a wins={} ties={} losses={} score={:.4} (95% CI {:.4}..{:.4}, ties count half)",
            line.a_wins, line.ties, line.a_losses, line.score, line.score_low, line.score_high
        );
        println!(
            "mean reward ({unit}) a={:.2} ±{:.2} b={:.2} ±{:.2}; plies per game {:.1}",
            line.reward_a,
            line.reward_a_ci95,
            line.reward_b,
            line.reward_b_ci95,
            line.plies_per_game
        );
        if line.duplicate {
            println!(
                "duplicate: a's interval ±{:.2} over {} deals, ±{:.2} treating the games as \
                 independent (width ratio {:.3})",
                line.reward_a_ci95_deals,
                r.reward_a_deals.count(),
                line.reward_a_ci95,
                line.reward_a_ci95_deals / line.reward_a_ci95
            );
        }
        Ok(())
    }

    fn free_for_all<G: GameSpec>(&self, options: &Options, players: &[usize]) -> Result<()> {
        let args = self.args;
        let info = &G::INFO;
        let names: Vec<String> = match &args.bots {
            Some(list) => split_bots(list)?,
            None => info.match_bots.iter().map(|s| s.to_string()).collect(),
        };
        let (scale, unit) = info.reward_report;
        for &n in players {
            let mut options = options.clone();
            let has_option = info.options.iter().any(|s| s.name == "num_players");
            if has_option && !options.is_given("num_players") {
                options.set("num_players", OptionValue::Int(n as i64))?;
            }
            let game = G::configure(&options)?;
            let owned = Self::bots(&game, &names)?;
            let bots: Vec<&dyn Bot<G>> = owned.iter().map(|b| b.as_ref()).collect();
            let r = self
                .pool
                .install(|| free_for_all(&game, &bots, args.games, args.seed, args.max_steps));
            let line = FreeForAllLine {
                game: info.id,
                options: game.options().to_string(),
                players: game.num_players(),
                games: r.games,
                seed: args.seed,
                fair_share: 1.0 / game.num_players() as f64,
                plies_per_game: r.plies.mean(),
                reward_unit: unit,
                max_steps: args.max_steps,
                truncated: r.truncated,
                standings: r
                    .standings
                    .iter()
                    .map(|s| StandingLine {
                        bot: s.name.clone(),
                        seats: s.seats,
                        win_rate: s.score.rate,
                        win_rate_low: s.score.low,
                        win_rate_high: s.score.high,
                        reward: scale * s.reward.mean(),
                        reward_ci95: scale * s.reward.ci95(),
                    })
                    .collect(),
            };
            if args.json {
                json(&line);
                continue;
            }
            println!(
                "game={} players={} games={} seed={} options={} plies_per_game={:.1} fair_share={:.4}{}",
                line.game,
                line.players,
                line.games,
                line.seed,
                line.options,
                line.plies_per_game,
                line.fair_share,
                truncation_text(line.max_steps, line.truncated)
            );
            for s in &line.standings {
                println!(
                    "  {:<16} seats={:<8} win_rate={:.4} (95% CI {:.4}..{:.4}) reward ({unit})={:.2} ±{:.2}",
                    s.bot, s.seats, s.win_rate, s.win_rate_low, s.win_rate_high, s.reward, s.reward_ci95
                );
            }
        }
        Ok(())
    }
}

struct Run<'a>(&'a Match<'a>);

impl Visitor for Run<'_> {
    type Output = Result<()>;
    fn visit<G: GameSpec>(&mut self) -> Result<()> {
        let m = self.0;
        let args = m.args;
        let info = &G::INFO;
        let options = options(&args.game, &args.options, Vec::new(), info.match_options)?;
        let players: Vec<usize> = match &args.players {
            Some(list) => {
                let players: Vec<usize> = parse_list("--players", list)?;
                if players.is_empty() {
                    return Err(Error::Invalid {
                        what: "--players",
                        reason: format!("no player count in {list:?}"),
                    });
                }
                for &p in &players {
                    check_players(info, p)?;
                }
                if options.is_given("num_players") {
                    return Err(Error::Invalid {
                        what: "--players",
                        reason: "give --players or -o num_players, not both".into(),
                    });
                }
                players
            }
            None => info.match_players.to_vec(),
        };
        if let Some(list) = &args.bots {
            if split_bots(list)?.is_empty() {
                return Err(Error::Invalid {
                    what: "--bots",
                    reason: format!("no bot in {list:?}"),
                });
            }
        }
        // `--a`, `--b` or `--duplicate` ask for a head-to-head, also in a game whose
        // registry entry plays a free-for-all by default (hold'em).
        let head_to_head = args.a.is_some() || args.b.is_some() || args.duplicate;
        if head_to_head && (args.bots.is_some() || args.players.is_some()) {
            return Err(Error::Invalid {
                what: "--duplicate",
                reason: "--a, --b and --duplicate play a head-to-head: give them without \
                         --bots or --players"
                    .into(),
            });
        }
        if head_to_head || (players.is_empty() && args.bots.is_none()) {
            m.head_to_head::<G>(&options)
        } else if players.is_empty() {
            let n = G::configure(&options)?.num_players();
            m.free_for_all::<G>(&options, &[n])
        } else {
            m.free_for_all::<G>(&options, &players)
        }
    }
}

/// Runs `cardvec match`.
pub fn run(args: MatchArgs) -> Result<()> {
    check_count("--games", args.games)?;
    let m = Match {
        pool: crate::pool(args.threads)?,
        args: &args,
    };
    registry::visit(&args.game, &mut Run(&m))?
}
