//! Hand histories in PHH, the TOML-based format pokerkit reads (`pokerkit.notation`,
//! `HandHistory.loads`): [`write_phh`] writes a played hand, [`read_phh`] reads the
//! no-limit hold'em subset back into an [`NlHand`] (replaying its actions) and reports any
//! malformed or impossible input as an error.
//!
//! Players `p1..pn` are in pokerkit's order: `p1` is the seat left of the button (the small
//! blind, or the big blind heads-up) and `pn` the button. Fields written:
//!
//! ```toml
//! variant = 'NT'
//! ante_trimming_status = true
//! antes = [0, 0, 0]
//! blinds_or_straddles = [1, 2, 0]
//! min_bet = 2
//! starting_stacks = [100, 100, 100]
//! actions = ['d dh p1 AsAd', 'd dh p2 KcKd', 'd dh p3 QhQs', 'p3 cc', 'p1 cc', 'p2 cc',
//!            'd db 2c7d9h', ...]
//! finishing_stacks = [...]
//! hand = 7
//! _cardvec_button = 0
//! _cardvec_board = '2c7d9hJs3c'
//! ```
//!
//! At a showdown every live player shows (`pK sm cards`) right after the last action, and
//! the rest of the board follows, as pokerkit's tournament mode expects. The two
//! underscore fields (user-defined in PHH) keep cardvec's seat numbers and the undealt board
//! of a hand won by folds; without them [`read_phh`] puts the button last and fills an
//! undealt board with unused cards.

use std::fmt::Write as _;

use toml::{Table, Value};

use super::{pokerkit_index, Action, Chips, NlHand, Street, TableConfig};
use crate::core::{CardSet64, Error, Result};
use crate::poker::cards::{parse_cards, Card};

fn cards_text(cards: &[Card]) -> String {
    cards.iter().map(|c| c.to_string()).collect()
}

fn list<T: std::fmt::Display>(items: impl IntoIterator<Item = T>) -> String {
    let v: Vec<String> = items.into_iter().map(|x| x.to_string()).collect();
    format!("[{}]", v.join(", "))
}

/// The PHH text of a hand (finished or not; `finishing_stacks` only once it is over).
/// `number` becomes the `hand` field.
pub fn write_phh(hand: &NlHand, number: Option<u64>) -> String {
    let n = hand.num_players();
    let b = hand.button();
    let seat_of = |k: usize| (b + 1 + k) % n; // pokerkit index k -> seat
    let p = |seat: usize| pokerkit_index(n, b, seat) + 1;
    let c = hand.config();
    let mut blinds = vec![0 as Chips; n];
    blinds[0] = c.small_blind;
    blinds[1] = c.big_blind;
    let mut actions: Vec<String> = Vec::new();
    for k in 0..n {
        let h = hand.hole_cards()[seat_of(k)];
        actions.push(format!("d dh p{} {}", k + 1, cards_text(&h)));
    }
    let board = hand.full_board();
    let mut dealt = 0usize;
    let mut deal_to = |actions: &mut Vec<String>, street: Street| {
        while dealt < street.board_len() {
            let next = if dealt == 0 { 3 } else { dealt + 1 };
            actions.push(format!("d db {}", cards_text(&board[dealt..next])));
            dealt = next;
        }
    };
    for (&(seat, action), &street) in hand.history().iter().zip(hand.history_streets()) {
        deal_to(&mut actions, street);
        let code = match action {
            Action::Fold => "f".to_string(),
            Action::Check | Action::Call => "cc".to_string(),
            Action::RaiseTo(to) => format!("cbr {to}"),
            Action::AllIn => unreachable!("history holds resolved actions"),
        };
        actions.push(format!("p{} {code}", p(seat)));
    }
    if hand.went_to_showdown() {
        for k in 0..n {
            let seat = seat_of(k);
            if !hand.folded()[seat] {
                let h = hand.hole_cards()[seat];
                actions.push(format!("p{} sm {}", k + 1, cards_text(&h)));
            }
        }
        deal_to(&mut actions, Street::River);
    }
    let mut out = String::new();
    let _ = writeln!(out, "variant = 'NT'");
    let _ = writeln!(out, "ante_trimming_status = true");
    let _ = writeln!(out, "antes = {}", list(vec![c.ante; n]));
    let _ = writeln!(out, "blinds_or_straddles = {}", list(blinds));
    let _ = writeln!(out, "min_bet = {}", c.big_blind);
    let starting: Vec<Chips> = (0..n).map(|k| hand.starting_stacks()[seat_of(k)]).collect();
    let _ = writeln!(out, "starting_stacks = {}", list(starting));
    let quoted: Vec<String> = actions.iter().map(|a| format!("'{a}'")).collect();
    let _ = writeln!(out, "actions = [{}]", quoted.join(", "));
    if hand.is_over() {
        let finishing: Vec<Chips> = (0..n).map(|k| hand.stacks()[seat_of(k)]).collect();
        let _ = writeln!(out, "finishing_stacks = {}", list(finishing));
    }
    if let Some(number) = number {
        let _ = writeln!(out, "hand = {number}");
    }
    let _ = writeln!(out, "_cardvec_button = {b}");
    let _ = writeln!(out, "_cardvec_board = '{}'", cards_text(&board));
    out
}

fn bad(reason: impl Into<String>) -> Error {
    Error::Invalid {
        what: "PHH",
        reason: reason.into(),
    }
}

/// The longest PHH text [`read_phh`] reads: a hand history is a few kilobytes; anything
/// near this size is not one.
pub const MAX_PHH_BYTES: usize = 1 << 20;

/// Parses the TOML document into its top-level fields. A table is refused: PHH fields are
/// plain values. Bounded in depth and time: the text is at most [`MAX_PHH_BYTES`] long, the
/// `toml` crate's parser stops at its recursion limit (deep nesting is an error, not a stack
/// overflow; the crate's `unbounded` feature stays off) and runs in time linear
/// in the text (tests below: 200,000 levels of nesting, a list of a million lines).
fn parse_fields(text: &str) -> Result<Table> {
    if text.len() > MAX_PHH_BYTES {
        return Err(bad(format!(
            "{} bytes, more than the {MAX_PHH_BYTES} a hand history may have",
            text.len()
        )));
    }
    toml_fields(text)
}

/// [`parse_fields`] without the size limit.
fn toml_fields(text: &str) -> Result<Table> {
    let fields: Table = toml::from_str(text).map_err(|e| {
        let at = e.span().map_or(String::new(), |span| {
            let before = &text.as_bytes()[..span.start.min(text.len())];
            let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
            format!("line {line}: ")
        });
        bad(format!("{at}{}", e.message()))
    })?;
    if let Some((key, _)) = fields.iter().find(|(_, v)| v.is_table()) {
        return Err(bad(format!("[{key}]: tables are not supported here")));
    }
    Ok(fields)
}

fn ints(fields: &Table, key: &str, n: Option<usize>) -> Result<Vec<Chips>> {
    let v = match fields.get(key) {
        Some(Value::Array(items)) => items
            .iter()
            .map(|x| match x {
                Value::Integer(i) if *i >= 0 => Ok(*i as Chips),
                _ => Err(bad(format!("{key}: expected non-negative integers"))),
            })
            .collect::<Result<Vec<_>>>()?,
        Some(Value::Integer(i)) if *i >= 0 && n.is_some() => vec![*i as Chips; n.unwrap_or(0)],
        Some(_) => return Err(bad(format!("{key}: expected a list of integers"))),
        None => return Err(bad(format!("missing field {key}"))),
    };
    if let Some(n) = n {
        if v.len() != n {
            return Err(bad(format!("{key}: expected {n} values, got {}", v.len())));
        }
    }
    Ok(v)
}

fn int(fields: &Table, key: &str) -> Result<Option<i64>> {
    match fields.get(key) {
        None => Ok(None),
        Some(Value::Integer(i)) => Ok(Some(*i)),
        Some(_) => Err(bad(format!("{key}: expected an integer"))),
    }
}

/// Reads a no-limit hold'em PHH (as [`write_phh`] writes, or any `NT` hand history with
/// every hole card known, no straddles and one ante for all) and replays it: the returned
/// hand has played every action. A malformed file, a field out of range, an unknown action
/// or an action the rules refuse is an error naming the problem. When `finishing_stacks`
/// is given, the replayed stacks must equal it.
pub fn read_phh(text: &str) -> Result<NlHand> {
    let f = parse_fields(text)?;
    match f.get("variant") {
        Some(Value::String(v)) if v == "NT" => {}
        Some(other) => return Err(bad(format!("variant {other:?} is not 'NT'"))),
        None => return Err(bad("missing field variant")),
    }
    let starting = ints(&f, "starting_stacks", None)?;
    let n = starting.len();
    Error::check_range("PHH players", 2, 10, n as i64)?;
    let antes = ints(&f, "antes", Some(n))?;
    let blinds = ints(&f, "blinds_or_straddles", Some(n))?;
    if antes.iter().any(|&a| a != antes[0]) {
        return Err(bad(
            "antes differ between players (only one ante for all is supported)",
        ));
    }
    if blinds[2..].iter().any(|&x| x != 0) {
        return Err(bad("straddles are not supported"));
    }
    let min_bet = int(&f, "min_bet")?.ok_or_else(|| bad("missing field min_bet"))?;
    if min_bet != blinds[1] as i64 {
        return Err(bad(format!(
            "min_bet {min_bet} differs from the big blind {}",
            blinds[1]
        )));
    }
    if let Some(Value::Boolean(false)) = f.get("ante_trimming_status") {
        if antes[0] > 0 {
            return Err(bad("ante_trimming_status = false is not supported"));
        }
    }
    let config = TableConfig::new(blinds[0], blinds[1], antes[0])?;
    let button = match int(&f, "_cardvec_button")? {
        Some(b) if (0..n as i64).contains(&b) => b as usize,
        Some(b) => return Err(bad(format!("_cardvec_button {b} out of range"))),
        None => n - 1,
    };
    let seat_of = |k: usize| (button + 1 + k) % n;
    let actions: Vec<String> = match f.get("actions") {
        Some(Value::Array(items)) => items
            .iter()
            .map(|x| match x {
                Value::String(s) => Ok(s.clone()),
                _ => Err(bad("actions: expected strings")),
            })
            .collect::<Result<_>>()?,
        _ => return Err(bad("missing or malformed field actions")),
    };
    let player = |word: &str| -> Result<usize> {
        let k: usize = word
            .strip_prefix('p')
            .and_then(|d| d.parse().ok())
            .filter(|&k| (1..=n).contains(&k))
            .ok_or_else(|| bad(format!("bad player {word:?}")))?;
        Ok(seat_of(k - 1))
    };
    // First pass: the cards.
    let mut hole: Vec<Option<[Card; 2]>> = vec![None; n];
    let mut board: Vec<Card> = Vec::new();
    for a in &actions {
        let words: Vec<&str> = a
            .split('#')
            .next()
            .unwrap_or("")
            .split_whitespace()
            .collect();
        match words.as_slice() {
            ["d", "dh", p, cards] => {
                let seat = player(p)?;
                let c = parse_cards(cards)?;
                if c.len() != 2 || hole[seat].is_some() {
                    return Err(bad(format!("{a:?}: two hole cards once per player")));
                }
                hole[seat] = Some([c[0], c[1]]);
            }
            ["d", "db", cards] => board.extend(parse_cards(cards)?),
            _ => {}
        }
    }
    if let Some(Value::String(full)) = f.get("_cardvec_board") {
        let full = parse_cards(full)?;
        if full.len() != 5 || !full.starts_with(&board) {
            return Err(bad("_cardvec_board disagrees with the dealt board"));
        }
        board = full;
    }
    let hole: Vec<[Card; 2]> = hole
        .into_iter()
        .enumerate()
        .map(|(s, h)| h.ok_or_else(|| bad(format!("no hole cards for seat {s}"))))
        .collect::<Result<_>>()?;
    if board.len() > 5 {
        return Err(bad("more than five board cards"));
    }
    let mut used = CardSet64::EMPTY;
    for c in hole.iter().flatten().chain(&board) {
        used.insert(c.id());
    }
    let mut spare = Card::all().filter(|c| !used.contains(c.id()));
    while board.len() < 5 {
        board.push(spare.next().ok_or_else(|| bad("no cards left"))?);
    }
    let mut hand = NlHand::new(
        config,
        &(0..n)
            .map(|s| starting[(s + n - button - 1) % n])
            .collect::<Vec<_>>(),
        button,
        &hole,
        [board[0], board[1], board[2], board[3], board[4]],
    )?;
    // Second pass: the decisions.
    for a in &actions {
        let words: Vec<&str> = a
            .split('#')
            .next()
            .unwrap_or("")
            .split_whitespace()
            .collect();
        let (seat, action) = match words.as_slice() {
            ["d", ..] => continue,
            [p, "sm", ..] => {
                player(p)?;
                continue;
            }
            [p, "f"] => (player(p)?, Action::Fold),
            [p, "cc"] => {
                let seat = player(p)?;
                let check = hand.legal().is_some_and(|l| l.check);
                (seat, if check { Action::Check } else { Action::Call })
            }
            [p, "cbr", amount] => {
                let to: Chips = amount
                    .parse()
                    .map_err(|_| bad(format!("{a:?}: bad amount")))?;
                (player(p)?, Action::RaiseTo(to))
            }
            _ => return Err(bad(format!("unknown action {a:?}"))),
        };
        if hand.to_act() != Some(seat) {
            return Err(bad(format!(
                "{a:?}: seat {seat} acts out of turn (to act: {:?})",
                hand.to_act()
            )));
        }
        hand.apply(action).map_err(|e| bad(format!("{a:?}: {e}")))?;
    }
    if f.contains_key("finishing_stacks") {
        let finishing = ints(&f, "finishing_stacks", Some(n))?;
        let ours: Vec<Chips> = (0..n).map(|k| hand.stacks()[seat_of(k)]).collect();
        if !hand.is_over() || ours != finishing {
            return Err(bad(format!(
                "finishing_stacks {finishing:?} but the replay ends with {ours:?}"
            )));
        }
    }
    Ok(hand)
}

/// The PHH reader's fuzz check (fuzz target `phh`; `tests/fuzz_corpus.rs` replays its
/// corpus): reading any bytes (as text, invalid UTF-8 replaced) must not panic, and a hand
/// it reads must keep its chips, write back as PHH and read back to the same hand, whose
/// PHH text is the same again. `Err` describes the first broken rule.
pub fn fuzz_check(data: &[u8]) -> std::result::Result<(), String> {
    let text = String::from_utf8_lossy(data);
    let Ok(hand) = read_phh(&text) else {
        return Ok(());
    };
    let total: Chips = hand.starting_stacks().iter().sum();
    let held: Chips = hand.stacks().iter().sum::<Chips>()
        + if hand.is_over() { 0 } else { hand.pot_total() };
    if held != total {
        return Err(format!(
            "chips not conserved: {held} held, {total} at the start\n{text}"
        ));
    }
    let written = write_phh(&hand, None);
    let back = read_phh(&written)
        .map_err(|e| format!("the reader refuses what the writer wrote: {e}\n{written}"))?;
    let same = back.config() == hand.config()
        && back.button() == hand.button()
        && back.starting_stacks() == hand.starting_stacks()
        && back.hole_cards() == hand.hole_cards()
        && back.full_board() == hand.full_board()
        && back.history() == hand.history()
        && back.stacks() == hand.stacks()
        && back.is_over() == hand.is_over();
    if !same {
        return Err(format!(
            "the hand read back differs from the hand written\n{text}\n---\n{written}"
        ));
    }
    let again = write_phh(&back, None);
    if again != written {
        return Err(format!(
            "writing the hand read back gives another text\n{written}\n---\n{again}"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::LaneRng;
    use crate::games::holdem::trace::{random_action, random_hand};

    fn played(seed: u64, seats: usize) -> NlHand {
        let mut rng = LaneRng::from_seed(seed);
        let mut hand = random_hand(seats, &mut rng).unwrap();
        while let Some(l) = hand.legal() {
            hand.apply(random_action(&l, &mut rng)).unwrap();
        }
        hand
    }

    #[test]
    fn written_hands_read_back_to_the_same_hand() {
        for seed in 0..400 {
            let hand = played(seed, [2, 3, 6, 10][seed as usize % 4]);
            let text = write_phh(&hand, Some(seed));
            let back = read_phh(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(back.stacks(), hand.stacks());
            assert_eq!(back.history(), hand.history());
            assert_eq!(back.button(), hand.button());
        }
    }

    #[test]
    fn malformed_files_are_errors() {
        let good = write_phh(&played(3, 3), None);
        assert!(read_phh(&good).is_ok());
        let cases = [
            good.replace("'NT'", "'FT'"),
            good.replace("variant = 'NT'\n", ""),
            good.replace("min_bet", "max_bet"),
            good.replace("actions = [", "actions = ['p9 cc', "),
            good.replace("actions = [", "actions = ['p1 xx', "),
            good.replace("starting_stacks = [", "starting_stacks = [1, "),
            good.replace("]", ""),
            good.replace("= ", "== "),
            good.replace("d dh p1 ", "d dh p1 Zz"),
            good.replace("finishing_stacks = [", "finishing_stacks = [1"),
            "[table]\nvariant = 'NT'".to_string(),
            String::new(),
            "garbage".to_string(),
        ];
        for (i, text) in cases.iter().enumerate() {
            let err = read_phh(text);
            assert!(err.is_err(), "case {i} was accepted:\n{text}");
            assert!(
                err.unwrap_err().to_string().contains("PHH") || i == 8,
                "case {i}"
            );
        }
    }

    #[test]
    fn deeply_nested_values_are_errors_not_stack_overflows() {
        // On a thread with the default 2 MiB stack of a spawned thread (as in `cargo
        // test`), set explicitly so that RUST_MIN_STACK cannot hide an overflow.
        std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(deeply_nested_values)
            .unwrap()
            .join()
            .unwrap();
    }

    fn deeply_nested_values() {
        let good = write_phh(&played(3, 3), None);
        // Shallow nesting is read (and ignored: an unknown field).
        let shallow = format!("deep = {}1{}\n{good}", "[".repeat(50), "]".repeat(50));
        assert!(read_phh(&shallow).is_ok());
        for depth in [100, 100_000, 200_000] {
            let array = format!("{}1{}", "[".repeat(depth), "]".repeat(depth));
            let inline = format!("{}1{}", "{a = ".repeat(depth), "}".repeat(depth));
            let mixed = format!("{}1{}", "[{a = ".repeat(depth), "}]".repeat(depth));
            let dotted = format!("{}a", "a.".repeat(depth));
            for field in [
                format!("deep = {array}"),
                format!("deep = {inline}"),
                format!("deep = {mixed}"),
                format!("{dotted} = 1"),
                format!("deep = {}", "[".repeat(depth)),
            ] {
                let text = format!("{field}\n{good}");
                // The parser's depth limit, whatever the size.
                let err = toml_fields(&text).unwrap_err().to_string();
                assert!(err.contains("PHH") && err.contains("recurs"), "{err}");
                // The reader: the depth limit, or the size limit first (beyond 1 MiB).
                let err = read_phh(&text).unwrap_err().to_string();
                let limit = if text.len() > MAX_PHH_BYTES { "bytes" } else { "recurs" };
                assert!(err.contains("PHH") && err.contains(limit), "{err}");
            }
        }
    }

    /// A multi-line list of `lines` lines, one value each, as the field `name`.
    fn long_list(name: &str, lines: usize) -> String {
        let mut text = format!("{name} = [\n");
        for _ in 0..lines {
            text.push_str("0,\n");
        }
        text.push_str("]\n");
        text
    }

    #[test]
    fn long_multi_line_lists_are_read_in_linear_time() {
        // The hand-written parser this reader replaced took quadratic time in the lines of
        // a list (80,000 lines: 7.7 s; a million would take hours). A million lines through
        // the parser (3 MB, beyond the reader's size limit) and the longest lists the reader
        // takes must finish; `examples/phh_read_time.rs` measures the time per line.
        let fields = toml_fields(&long_list("padding", 1_000_000)).unwrap();
        assert_eq!(fields["padding"].as_array().map(Vec::len), Some(1_000_000));
        let good = write_phh(&played(3, 3), None);
        let expected = read_phh(&good).unwrap();
        // An unknown field of 300,000 lines is read (and ignored).
        let hand = read_phh(&format!("{good}{}", long_list("padding", 300_000))).unwrap();
        assert_eq!(hand.history(), expected.history());
        // A field of 300,000 values is read, then refused for its length.
        let without: Vec<&str> = good.lines().filter(|l| !l.starts_with("antes =")).collect();
        let text = format!("{}\n{}", without.join("\n"), long_list("antes", 300_000));
        let err = read_phh(&text).unwrap_err().to_string();
        assert!(err.contains("antes: expected 3 values, got 300000"), "{err}");
        // A million lines (blank inside a list) within the size limit.
        let blank = format!("{good}padding = [{}0]\n", "\n".repeat(1_000_000));
        assert!(blank.len() < MAX_PHH_BYTES);
        assert_eq!(read_phh(&blank).unwrap().history(), expected.history());
    }

    #[test]
    fn the_fuzz_check_passes_on_written_hands_and_on_garbage() {
        for seed in 0..100 {
            let seats = [2, 3, 6, 10][seed as usize % 4];
            let text = write_phh(&played(seed, seats), Some(seed));
            assert!(read_phh(&text).is_ok());
            fuzz_check(text.as_bytes()).unwrap();
            // An unfinished hand (no finishing_stacks).
            let mut rng = LaneRng::from_seed(seed);
            let mut hand = random_hand(seats, &mut rng).unwrap();
            for _ in 0..seed % 5 {
                if let Some(l) = hand.legal() {
                    hand.apply(random_action(&l, &mut rng)).unwrap();
                }
            }
            let text = write_phh(&hand, None);
            assert!(read_phh(&text).is_ok());
            fuzz_check(text.as_bytes()).unwrap();
        }
        for garbage in [&b""[..], b"\xff\xfe", b"actions = [", b"variant = 'NT'"] {
            fuzz_check(garbage).unwrap();
        }
    }

    #[test]
    fn huge_inputs_are_errors() {
        let good = write_phh(&played(3, 3), None);
        // More than a megabyte: refused before parsing.
        let padding = format!("# {}\n", "x".repeat(MAX_PHH_BYTES));
        let err = read_phh(&format!("{padding}{good}"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("bytes"), "{err}");
        // A stack beyond 64 bits, a raise beyond 64 bits, ten thousand players.
        let err = read_phh(&good.replace(
            "starting_stacks = [",
            "starting_stacks = [99999999999999999999, ",
        ))
        .unwrap_err()
        .to_string();
        assert!(err.contains("PHH"), "{err}");
        let text = good.replace("actions = [", "actions = ['p1 cbr 99999999999999999999', ");
        assert!(read_phh(&text).unwrap_err().to_string().contains("PHH"));
        let many = vec!["100"; 10_000].join(", ");
        let text = good.replace(
            "starting_stacks = [",
            &format!("starting_stacks = [{many}, "),
        );
        let err = read_phh(&text).unwrap_err();
        assert!(matches!(err, Error::OutOfRange { .. }), "{err}");
    }

    #[test]
    fn an_action_out_of_turn_is_an_error() {
        let hand = played(5, 3);
        let text = write_phh(&hand, None);
        // Swap the first two decisions.
        let acts: Vec<&str> = text
            .lines()
            .find(|l| l.starts_with("actions"))
            .unwrap()
            .split("', '")
            .collect();
        assert!(acts.len() > 4);
        let swapped = text
            .replacen(acts[3], "TMP", 1)
            .replacen(acts[4], acts[3], 1)
            .replacen("TMP", acts[4], 1);
        if swapped != text {
            assert!(read_phh(&swapped).is_err());
        }
    }
}
