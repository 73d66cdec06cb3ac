//! `cardvec games`: every registered game with its players, options, bots and docs page.

use cardvec::core::Result;
use cardvec::registry::GAMES;
use serde::Serialize;

/// Options of `cardvec games`.
#[derive(clap::Args, Debug)]
pub struct GamesArgs {
    /// Print the table as JSON instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct OptionLine {
    name: &'static str,
    kind: String,
    default: &'static str,
    doc: &'static str,
}

#[derive(Serialize)]
struct GameLine {
    id: &'static str,
    title: &'static str,
    summary: &'static str,
    players: (usize, usize),
    python_class: &'static str,
    docs: &'static str,
    oracle: &'static str,
    options: Vec<OptionLine>,
    bots: &'static [&'static str],
    configurations: &'static [&'static str],
}

/// Runs `cardvec games`.
pub fn run(args: GamesArgs) -> Result<()> {
    let lines: Vec<GameLine> = GAMES
        .iter()
        .map(|g| GameLine {
            id: g.id,
            title: g.title,
            summary: g.summary,
            players: g.num_players,
            python_class: g.python_class,
            docs: g.docs,
            oracle: g.oracle,
            options: g
                .options
                .iter()
                .map(|o| OptionLine {
                    name: o.name,
                    kind: o.kind.to_string(),
                    default: o.default,
                    doc: o.doc,
                })
                .collect(),
            bots: g.bots,
            configurations: g.configurations,
        })
        .collect();
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&lines).expect("the table always serializes")
        );
        return Ok(());
    }
    for g in &lines {
        let players = if g.players.0 == g.players.1 {
            format!("{}", g.players.0)
        } else {
            format!("{}-{}", g.players.0, g.players.1)
        };
        println!("{}  {} ({players} players): {}", g.id, g.title, g.summary);
        println!(
            "  docs: {}   python: cardvec.{}   cardvec.make({:?}, ...)",
            g.docs, g.python_class, g.id
        );
        if !g.oracle.is_empty() {
            println!("  oracle: {}", g.oracle);
        }
        if g.options.is_empty() {
            println!("  options: none");
        } else {
            println!("  options:");
            for o in &g.options {
                println!(
                    "    {:<16} {} (default {}): {}",
                    o.name, o.kind, o.default, o.doc
                );
            }
        }
        println!("  bots: {}", g.bots.join(", "));
        println!();
    }
    Ok(())
}
