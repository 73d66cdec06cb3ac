//! Bots above the games: the one place a bot name becomes a bot.
//!
//! A game knows its own built-in bots ([`GameSpec::bot`]: `random`, its heuristics). Bots
//! that work for any game (search bots over a game's determinization, trained policies
//! read from a file) live here, above the games, and are reached by a family prefix in the
//! name (`family:options`). Every tool that takes a bot name (`cardvec match`, the learner
//! view's opponents, `cardvec.bots.act`, campaigns, the web table) resolves it through
//! [`bot`], so a family added here works everywhere at once; nothing here switches on a
//! game's name, and `core/` takes bots already built (it never resolves a name).

//!
//! The families: [`pimc`] (`pimc:sims=N,playout=BOT`, determinized rollouts, for every game
//! with a determinization).

pub mod pimc;

use crate::core::{Bot, EnvOptions, GameSpec, LearnerEnv, LearnerSeat, Opponents, Result};

/// The bot named `name` for `game`: a bot of a family above the games when the name starts
/// with its prefix (`pimc` or `pimc:options`, see [`pimc`]), else the game's own built-in
/// bot ([`GameSpec::bot`]). An unknown name is an [`crate::Error::Unknown`] listing the
/// game's bots.
pub fn bot<G: GameSpec>(game: &G, name: &str) -> Result<Box<dyn Bot<G>>> {
    if name == pimc::PREFIX || name.starts_with("pimc:") {
        return Ok(Box::new(pimc::Pimc::parse(game, name)?));
    }
    game.bot(name)
}

/// The names of the bot families above the games, as patterns (what `cardvec games` may
/// list after a game's own bots).
pub const FAMILIES: &[&str] = &["pimc:sims=<N>,playout=<bot>,threads=<T>"];

/// A learner view of `game` whose other seats are played by the bots `opponents` names
/// (every name [`bot`] knows), the learner at `seat`: [`LearnerEnv::with_bots`] with
/// [`bot`] as the resolver.
pub fn learner<G: GameSpec>(
    game: G,
    opponents: &Opponents,
    seat: LearnerSeat,
    options: EnvOptions,
) -> Result<LearnerEnv<G>> {
    LearnerEnv::with_bots(game, opponents, seat, options, bot::<G>)
}
