//! The games' state texts (`Words::state_text` / `parse_state`): a reached state prints and
//! reads back, the line says what a person needs (cards in the game's notation, whose turn,
//! chips or scores), and a corrupt line (a bad card, a card twice, a wrong count, a turn
//! the state cannot have) is an error that names the problem. The conformance suite
//! round-trips every state it reaches; these are the readable examples of docs/*.md.

use cardvec::core::{Game, LaneRng, Words};
use cardvec::games::flip7::Flip7;
use cardvec::games::holdem::NoLimitHoldem;
use cardvec::games::i151::I151;
use cardvec::games::kuhn::KuhnPoker;
use cardvec::games::leduc::LeducHoldem;

/// Plays `plies` first legal actions from the deal of `seed`, then checks the round trip.
fn reached<G: Game + Words>(game: &G, seed: u64, plies: usize) -> (G::State, String) {
    let mut rng = LaneRng::from_seed(seed);
    let mut s = game.reset(&mut rng);
    let mut mask = vec![0u8; game.num_actions()];
    let mut rewards = vec![0f32; game.num_players()];
    for _ in 0..plies {
        let (te, tr) = game.finished(&s);
        if te || tr {
            break;
        }
        game.legal_mask(&s, &mut mask);
        let a = mask.iter().position(|&m| m == 1).unwrap() as u32;
        assert!(game.step(&mut s, a, &mut rng, &mut rewards).applied);
    }
    let text = game.state_text(&s);
    assert_eq!(game.parse_state(&text).unwrap(), s, "{text}");
    (s, text)
}

/// `text` with `from` replaced by `to` (which must occur) is refused with a message holding
/// every part of `says`.
fn refused<G: Words>(game: &G, text: &str, from: &str, to: &str, says: &[&str]) {
    assert!(text.contains(from), "{from:?} not in {text}");
    let bad = text.replacen(from, to, 1);
    let e = game.parse_state(&bad).map(|_| ()).unwrap_err().to_string();
    assert!(e.contains("state text"), "{e}");
    for part in says {
        assert!(e.contains(part), "{bad}\n{e} should say {part:?}");
    }
}

#[test]
fn kuhn_state_text() {
    let game = KuhnPoker;
    let s = game.parse_state("cards=K/J history=pb to_act=0").unwrap();
    assert_eq!(s.history(), &[0, 1]);
    assert_eq!(game.state_text(&s), "cards=K/J history=pb to_act=0");
    let text = "cards=K/J history=pb to_act=0";
    refused(&game, text, "K/J", "K/X", &["\"X\" is not a card"]);
    refused(&game, text, "K/J", "K/K", &["duplicate card K"]);
    refused(&game, text, "K/J", "K/J/Q", &["3 parts"]);
    refused(
        &game,
        text,
        "to_act=0",
        "to_act=1",
        &["to_act=1 is impossible", "gives 0"],
    );
    refused(&game, text, "pb", "pbbp", &["action 3", "after the end"]);
    refused(&game, text, "pb", "px", &["'x' is not an action"]);
    for seed in 0..20 {
        reached(&game, seed, 3);
    }
}

#[test]
fn leduc_state_text() {
    let game = LeducHoldem;
    let text = "cards=K0/Q1 public=J0 history=rc/c pot=3/3 to_act=1";
    let s = game.parse_state(text).unwrap();
    assert_eq!(game.state_text(&s), text);
    assert_eq!(s.round(), 1);
    refused(
        &game,
        text,
        "public=J0",
        "public=Q1",
        &["duplicate card Q1"],
    );
    refused(
        &game,
        text,
        "public=J0",
        "public=A0",
        &["\"A0\" is not a card"],
    );
    refused(
        &game,
        text,
        "pot=3/3",
        "pot=3/5",
        &["pot of seat 1=5 is impossible", "gives 3"],
    );
    refused(
        &game,
        text,
        "to_act=1",
        "to_act=0",
        &["to_act=0 is impossible"],
    );
    refused(&game, text, "rc/c", "rc", &["history has 1 parts"]);
    refused(&game, text, "rc/c", "rcc/", &["round 0 action 2"]);
    for seed in 0..20 {
        reached(&game, seed, 5);
    }
}

#[test]
fn holdem_state_text() {
    let game = NoLimitHoldem::standard(3).unwrap();
    let (_, text) = reached(&game, 7, 0);
    assert!(text.contains(" history= "), "{text}");
    let (_, text) = reached(&game, 7, 1);
    assert!(text.starts_with("button="), "{text}");
    assert!(text.contains(" history=f "), "{text}");
    let hole = text.split(' ').find(|f| f.starts_with("hole=")).unwrap();
    let first = &hole[5..7];
    let second = &hole[7..9];
    refused(
        &game,
        &text,
        hole,
        &hole.replacen(second, first, 1),
        &["duplicate card", first],
    );
    refused(&game, &text, first, "Zz", &["hole"]);
    refused(
        &game,
        &text,
        hole,
        &format!("{hole}/"),
        &["hole has 4 parts"],
    );
    let to_act = text.rsplit(' ').next().unwrap();
    refused(
        &game,
        &text,
        to_act,
        "to_act=-",
        &["to_act=- is impossible"],
    );
    refused(
        &game,
        &text,
        "history=",
        "history=c,c,c,c,c,c,c,c,c,c,c,c,",
        &["cannot be played"],
    );
    refused(&game, &text, "pot=", "pot=1", &["pot=1"]);
    refused(
        &game,
        &text,
        " stacks=",
        " bets=0,0,0 stacks=",
        &["bets goes only with overflow"],
    );
    for seed in 0..30 {
        reached(&game, seed, 40);
    }
}

#[test]
fn i151_state_text() {
    let game = I151::new(3).unwrap();
    let (_, text) = reached(&game, 3, 5);
    assert!(
        text.contains(" hands=") && text.contains(" to_act="),
        "{text}"
    );
    let hands = text.split(' ').find(|f| f.starts_with("hands=")).unwrap();
    let first = hands[6..].split([',', '/']).next().unwrap();
    refused(
        &game,
        &text,
        hands,
        &format!("{hands},{first}"),
        &["duplicate card", first],
    );
    refused(
        &game,
        &text,
        hands,
        &hands.replacen(first, "ZZ", 1),
        &["\"ZZ\" is not a card"],
    );
    refused(
        &game,
        &text,
        hands,
        &format!("{hands}/"),
        &["hands has 4 parts"],
    );
    refused(&game, &text, "to_act=", "to_act=7", &["to_act=7"]);
    refused(&game, &text, "players=3", "players=4", &["this game has 3"]);
    for seed in 0..10 {
        reached(&game, seed, 200);
    }
}

#[test]
fn flip7_state_text() {
    let game = Flip7::with_players(3).unwrap();
    let (_, text) = reached(&game, 5, 3);
    assert!(text.contains(" hands=") && text.contains(" deck=") && text.contains(" to_act="));
    refused(&game, &text, "players=3", "players=4", &["this game has 3"]);
    refused(
        &game,
        &text,
        "status=a",
        "status=z",
        &["\"z\" is not one of a, s, b, f"],
    );
    refused(
        &game,
        &text,
        "discard= ",
        "discard=13 ",
        &["\"13\" is not a card"],
    );
    refused(
        &game,
        &text,
        "discard= ",
        "discard=12 ",
        &["card 12 stands 13 times", "deck has 12"],
    );
    refused(&game, &text, "to_act=", "to_act=9", &["to_act=9"]);
    for seed in 0..10 {
        reached(&game, seed, 300);
    }
}
