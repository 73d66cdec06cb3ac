//! The game and its options as every subcommand takes them: a registry id, `--players N`
//! (the `num_players` option) and `-o name=value` (any option, repeatable, or several at
//! once: `-o num_players=8,target_score=60`).

use cardvec::core::spec::{split_pairs, GameInfo, OptionValue, Options};
use cardvec::core::{Error, Result};
use cardvec::registry;

/// A game configuration from the command line.
#[derive(clap::Args, Debug, Clone)]
pub struct GameArgs {
    /// The game (`cardvec games` lists them).
    pub game: String,
    /// Game options, `name=value` (repeatable; `cardvec games` lists each game's options).
    #[arg(short = 'o', long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
}

/// Parses `-o` words (and extra `(name, value)` pairs) into checked options of `game`,
/// with the options of `defaults` (text form) applied unless given.
pub fn options(
    game: &str,
    words: &[String],
    extra: Vec<(String, OptionValue)>,
    defaults: &str,
) -> Result<Options> {
    let info = registry::info(game)?;
    let mut pairs: Vec<(String, OptionValue)> = Vec::new();
    for word in words {
        for (k, v) in split_pairs(word)? {
            pairs.push((k, OptionValue::parse(&v)));
        }
    }
    pairs.extend(extra);
    for (k, v) in split_pairs(defaults)? {
        if !pairs.iter().any(|(name, _)| *name == k) {
            pairs.push((k, OptionValue::parse(&v)));
        }
    }
    Options::new(info.options, pairs)
}

/// Parses a comma-separated list (`3,4,5`).
pub fn parse_list<T: std::str::FromStr>(what: &'static str, list: &str) -> Result<Vec<T>> {
    list.split(',')
        .filter(|x| !x.trim().is_empty())
        .map(|x| {
            x.trim().parse().map_err(|_| Error::Invalid {
                what,
                reason: format!("cannot parse {x:?}"),
            })
        })
        .collect()
}

/// The bot names of `--bots`: split at commas, a piece `key=value` (an `=` and no `:`)
/// after a name with options (`family:...`) joined back to it, so that
/// `pimc:sims=8,playout=greedy,random` is two bots (`cardvec ladder`, `cardvec match`).
pub fn split_bots(list: &str) -> Result<Vec<String>> {
    let mut bots: Vec<String> = Vec::new();
    for piece in parse_list::<String>("--bots", list)? {
        let piece = piece.trim().to_string();
        let continues = piece.contains('=') && !piece.contains(':');
        match bots.last_mut() {
            Some(last) if continues && last.contains(':') => {
                last.push(',');
                last.push_str(&piece);
            }
            _ => bots.push(piece),
        }
    }
    Ok(bots)
}

/// `--players N` checked against the players the game takes ([`GameInfo::num_players`]),
/// as the `num_players` option for games that have one (a game with a fixed number of
/// players takes only that number, and no option). A count outside the range is an error
/// naming it.
pub fn players_option(
    info: &GameInfo,
    players: Option<usize>,
) -> Result<Vec<(String, OptionValue)>> {
    let Some(p) = players else {
        return Ok(Vec::new());
    };
    check_players(info, p)?;
    let has_option = info.options.iter().any(|s| s.name == "num_players");
    Ok(has_option
        .then(|| ("num_players".to_string(), OptionValue::Int(p as i64)))
        .into_iter()
        .collect())
}

/// Checks a player count given on the command line against the game's range.
pub fn check_players(info: &GameInfo, players: usize) -> Result<()> {
    let (lo, hi) = info.num_players;
    if (lo..=hi).contains(&players) {
        return Ok(());
    }
    let range = if lo == hi {
        format!("{lo}")
    } else {
        format!("{lo} to {hi}")
    };
    Err(Error::Invalid {
        what: "--players",
        reason: format!("{} is played by {range} players, got {players}", info.id),
    })
}

/// Checks that a count given on the command line (`--steps`, `--games`, ...) is at least 1.
pub fn check_count(flag: &'static str, value: u64) -> Result<()> {
    if value >= 1 {
        return Ok(());
    }
    Err(Error::Invalid {
        what: flag,
        reason: format!("must be at least 1, got {value}"),
    })
}
