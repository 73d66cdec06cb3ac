//! What a game says about itself in words ([`Words`]): the name of an action in a state, a
//! readable view of a state for one seat (what the web table draws), and the outcome of a
//! finished game (every seat's result, the winners with ties kept as ties, the hands shown
//! down). Every registered game implements it in its own `words.rs`; the tools above the
//! games (the web table, traces, error messages) read it through the registry or a
//! [`super::DynEnv`] and never switch on a game.

use serde::Serialize;
use serde_json::{json, Value};

use super::error::{Error, Result};
use super::game::Game;

/// How a finished game ended, in the game's own terms.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Outcome {
    /// Each seat's result, the count the winners are read from: chips won or lost (poker),
    /// expedition points (Lost Cities), banked score (Flip 7), penalty points (151). The
    /// game's docs say which; it need not be the sum of the rewards.
    pub results: Vec<f64>,
    /// The seats that won: more than one is a tie (a split pot), never broken by an odd chip
    /// or a seat order. For a game cut off before its end ([`Outcome::cut_off`]): the
    /// leaders when it stopped.
    pub winners: Vec<usize>,
    /// Per seat, the hand it showed down, named ("two pair, eights and twos"); `None` for a
    /// seat that showed nothing (folded, or the game has no showdown). Empty when the game
    /// names no hands.
    pub hands: Vec<Option<String>>,
    /// The end in one line: "seat 1 wins", "split pot between seats 0 and 1", "seats 0 and
    /// 2 tie".
    pub summary: String,
}

impl Outcome {
    /// Whether more than one seat won (a tie, a split pot).
    pub fn tie(&self) -> bool {
        self.winners.len() > 1
    }

    /// The outcome read from `results` alone: the winners are the seats with the highest
    /// result (`higher_wins`) or the lowest, ties kept; no hands; the summary says who won.
    pub fn by_results(results: Vec<f64>, higher_wins: bool) -> Outcome {
        let best = if higher_wins {
            results.iter().copied().fold(f64::NEG_INFINITY, f64::max)
        } else {
            results.iter().copied().fold(f64::INFINITY, f64::min)
        };
        let winners: Vec<usize> = (0..results.len()).filter(|&p| results[p] == best).collect();
        let summary = win_summary(&winners, "tie");
        Outcome {
            results,
            winners,
            hands: Vec::new(),
            summary,
        }
    }

    /// This outcome for a game cut off before its natural end (a step limit): the winners
    /// are the leaders when it stopped, and the summary says so ("cut off before the end;
    /// seat 1 leads").
    pub fn cut_off(mut self) -> Outcome {
        self.summary = match self.winners.as_slice() {
            [] => "cut off before the end".to_string(),
            [one] => format!("cut off before the end; seat {one} leads"),
            many => format!(
                "cut off before the end; {} share the lead",
                seats_text(many)
            ),
        };
        self
    }

    /// This outcome as JSON, with `tie` added (what the web API returns).
    pub fn to_json(&self) -> Value {
        let mut v = serde_json::to_value(self).unwrap_or(Value::Null);
        v["tie"] = json!(self.tie());
        v
    }
}

/// A list of seats in words: "seat 2", "seats 0 and 1", "seats 0, 1 and 3".
pub fn seats_text(seats: &[usize]) -> String {
    match seats {
        [] => "no seat".to_string(),
        [one] => format!("seat {one}"),
        [rest @ .., last] => {
            let rest: Vec<String> = rest.iter().map(|s| s.to_string()).collect();
            format!("seats {} and {last}", rest.join(", "))
        }
    }
}

/// "seat 2 wins", or for several winners "seats 0 and 1 {tie_word}" ("tie", "split the
/// pot").
pub fn win_summary(winners: &[usize], tie_word: &str) -> String {
    match winners {
        [] => "nobody wins".to_string(),
        [one] => format!("seat {one} wins"),
        many => format!("{} {tie_word}", seats_text(many)),
    }
}

/// A game's words: what the tools show of its actions, states and ends. Every method has a
/// default, so a game starts with plain words ("action 7", a generic view, no outcome) and
/// replaces them one by one.
pub trait Words: Game {
    /// The name of `action` for the seat to act in `state`, before it is applied ("call 2",
    /// "play yellow 7, draw from deck", "hit"). Any `u32` gets a name (an id the game does
    /// not know: "action N"). The default: "action N".
    fn action_name(&self, state: &Self::State, action: u32) -> String {
        let _ = state;
        format!("action {action}")
    }

    /// The move `action` as it was played, for a log: `before` is the state it was chosen
    /// in, `after` the state it led to, so the name may tell what only the move revealed
    /// (Flip 7: "hit: 7", the card drawn). The default: [`Words::action_name`] in `before`.
    fn move_text(&self, before: &Self::State, action: u32, after: &Self::State) -> String {
        let _ = after;
        self.action_name(before, action)
    }

    /// What `seat` sees of `state`, as JSON for the web table to draw: its cards, the piles,
    /// chips and scores; never a card that seat may not see while the game runs, unless
    /// `reveal` (every card shown, as at the end of a game or in a replay). The object has
    /// a `kind` naming the drawing (`"poker"`, `"lost-cities"`, ...). The default:
    /// `{"kind": "generic"}`.
    fn view(&self, state: &Self::State, seat: usize, reveal: bool) -> Value {
        let _ = (state, seat, reveal);
        json!({ "kind": "generic" })
    }

    /// How the game ended, once `state` is finished (terminated or cut off); `None` while
    /// it runs. The default: `None` (the game says nothing of its end).
    fn outcome(&self, state: &Self::State) -> Option<Outcome> {
        let _ = state;
        None
    }

    /// The state as one line of text that [`Words::parse_state`] reads back to the same
    /// state, every byte of it (a FEN for this game). The default: `bytes:` and the state's
    /// bytes in hexadecimal, exact but not for people; a game writes its own readable line
    /// (its docs page gives the format).
    fn state_text(&self, state: &Self::State) -> String {
        bytes_text(state)
    }

    /// Reads a line written by [`Words::state_text`] back into a state, checked like a
    /// state set from outside ([`Game::check_state`]): a malformed text or a state the game
    /// cannot reach is an [`Error::Invalid`] naming what is wrong. The default reads the
    /// `bytes:` form.
    fn parse_state(&self, text: &str) -> Result<Self::State> {
        let state = parse_bytes_text::<Self::State>(text)?;
        checked(self, state)
    }
}

/// A game's [`Words`] with its state type erased: a state is the bytes of the game's
/// `State`. Each method answers only for a state the game accepts ([`Game::check_state`]);
/// anything else (other bytes, a tree state the batch engine cannot hold) is `None`.
pub trait DynWords: Send + Sync {
    /// [`Words::action_name`].
    fn action_name(&self, state: &[u8], action: u32) -> Option<String>;
    /// [`Words::state_text`].
    fn state_text(&self, state: &[u8]) -> Option<String>;
    /// [`Words::view`] for `seat`, hidden cards hidden (`None` also for a seat out of range).
    fn view(&self, state: &[u8], seat: usize) -> Option<Value>;
}

/// A game behind [`DynWords`].
pub struct ErasedWords<G: Words>(pub G);

impl<G: Words> ErasedWords<G> {
    fn read(&self, state: &[u8]) -> Option<G::State> {
        (state.len() == std::mem::size_of::<G::State>())
            .then(|| bytemuck::pod_read_unaligned::<G::State>(state))
            .filter(|s| self.0.check_state(s).is_ok())
    }
}

impl<G: Words> DynWords for ErasedWords<G> {
    fn action_name(&self, state: &[u8], action: u32) -> Option<String> {
        self.read(state).map(|s| self.0.action_name(&s, action))
    }
    fn state_text(&self, state: &[u8]) -> Option<String> {
        self.read(state).map(|s| self.0.state_text(&s))
    }
    fn view(&self, state: &[u8], seat: usize) -> Option<Value> {
        let s = self.read(state)?;
        (seat < self.0.num_players()).then(|| self.0.view(&s, seat, false))
    }
}

/// A state set from a text, checked by the game: an error `state text: <why>` if the game
/// refuses it.
pub fn checked<G: Game>(game: &G, state: G::State) -> Result<G::State> {
    game.check_state(&state).map_err(|reason| Error::Invalid {
        what: "state text",
        reason: format!("not a state of this game: {reason}"),
    })?;
    Ok(state)
}

/// An error about a state text: `state text: <reason>`.
pub fn text_error(reason: impl Into<String>) -> Error {
    Error::Invalid {
        what: "state text",
        reason: reason.into(),
    }
}

/// The `key=value` fields of a state text (space-separated, each key exactly once, in any
/// order), read against the keys a game's text has: an unknown key, a key given twice, a
/// field that is not `key=value` or (on [`Fields::get`]) a missing key is an error naming it.
pub struct Fields<'a> {
    keys: &'static [&'static str],
    values: Vec<Option<&'a str>>,
}

impl<'a> Fields<'a> {
    /// Splits `text` into its fields; `keys` are the keys the text may have.
    pub fn parse(text: &'a str, keys: &'static [&'static str]) -> Result<Fields<'a>> {
        let mut values = vec![None; keys.len()];
        for field in text.split_whitespace() {
            let (key, value) = field
                .split_once('=')
                .ok_or_else(|| text_error(format!("{field:?} is not key=value")))?;
            let k = keys.iter().position(|&x| x == key).ok_or_else(|| {
                text_error(format!("unknown key {key:?} (keys: {})", keys.join(", ")))
            })?;
            if values[k].replace(value).is_some() {
                return Err(text_error(format!("{key} is given twice")));
            }
        }
        Ok(Fields { keys, values })
    }

    /// The value of `key`, or `None` if the text leaves it out.
    pub fn opt(&self, key: &str) -> Option<&'a str> {
        let k = self.keys.iter().position(|&x| x == key)?;
        self.values[k]
    }

    /// The value of `key`; an error if the text leaves it out.
    pub fn get(&self, key: &str) -> Result<&'a str> {
        self.opt(key)
            .ok_or_else(|| text_error(format!("{key} is missing")))
    }

    /// The value of `key` as a number ([`number`]).
    pub fn number<T: std::str::FromStr>(&self, key: &str) -> Result<T> {
        number(key, self.get(key)?)
    }
}

/// `text` as a number of type `T`; an error naming `key` if it is not one or out of range.
pub fn number<T: std::str::FromStr>(key: &str, text: &str) -> Result<T> {
    text.parse()
        .map_err(|_| text_error(format!("{key}={text:?} is not a number in range")))
}

/// `text` split at `sep` into exactly `n` parts; an error naming `key` otherwise.
pub fn parts<'a>(key: &str, text: &'a str, sep: char, n: usize) -> Result<Vec<&'a str>> {
    let p: Vec<&str> = text.split(sep).collect();
    if p.len() != n {
        return Err(text_error(format!(
            "{key} has {} parts separated by {sep}, expected {n}",
            p.len()
        )));
    }
    Ok(p)
}

/// The items of a `sep`-separated list, each read by `item` (an empty text is no item).
pub fn list<T>(text: &str, sep: char, item: impl Fn(&str) -> Result<T>) -> Result<Vec<T>> {
    if text.is_empty() {
        return Ok(Vec::new());
    }
    text.split(sep).map(item).collect()
}

/// `items` printed by `item` and joined by `sep`.
pub fn join<T>(
    items: impl IntoIterator<Item = T>,
    sep: &str,
    item: impl Fn(T) -> String,
) -> String {
    items.into_iter().map(item).collect::<Vec<_>>().join(sep)
}

/// A fixed array of card slots of which `slots[lo..hi]` is in use, as text:
/// `<slots before lo>|<slots in use>~<slots after hi>`, each part cards by `code` joined by
/// commas; the `...|` part is left out when `lo` is 0 and the `~...` part when the slots
/// after `hi` are all 0 (trailing zeros are left out: what earlier use left there is kept,
/// so the text reads back to the same bytes).
pub fn window_text(slots: &[u8], lo: usize, hi: usize, code: impl Fn(u8) -> String) -> String {
    let mut out = String::new();
    if lo > 0 {
        out.push_str(&join(slots[..lo].iter().copied(), ",", &code));
        out.push('|');
    }
    out.push_str(&join(slots[lo..hi].iter().copied(), ",", &code));
    let after = &slots[hi..];
    let keep = after.iter().rposition(|&x| x != 0).map_or(0, |i| i + 1);
    if keep > 0 {
        out.push('~');
        out.push_str(&join(after[..keep].iter().copied(), ",", &code));
    }
    out
}

/// Reads a [`window_text`] into `slots` (the rest zero); returns `(lo, hi)`. More cards than
/// slots is an error naming `key`.
pub fn parse_window(
    key: &str,
    text: &str,
    slots: &mut [u8],
    card: impl Fn(&str) -> Result<u8>,
) -> Result<(usize, usize)> {
    let (before, rest) = text.split_once('|').unwrap_or(("", text));
    let (live, after) = rest.split_once('~').unwrap_or((rest, ""));
    let (before, live, after) = (
        list(before, ',', &card)?,
        list(live, ',', &card)?,
        list(after, ',', &card)?,
    );
    let total = before.len() + live.len() + after.len();
    if total > slots.len() {
        return Err(text_error(format!(
            "{key} has {total} slots, at most {}",
            slots.len()
        )));
    }
    slots.fill(0);
    for (slot, &c) in slots
        .iter_mut()
        .zip(before.iter().chain(&live).chain(&after))
    {
        *slot = c;
    }
    Ok((before.len(), before.len() + live.len()))
}

/// A seat set (bit `p` for seat `p`) as text: the seats joined by commas.
pub fn seats_bits_text(bits: u32) -> String {
    join((0..32).filter(|&p| bits >> p & 1 != 0), ",", |p: u32| {
        p.to_string()
    })
}

/// Reads a [`seats_bits_text`]; a seat not below `n` is an error naming `key`.
pub fn parse_seat_bits(key: &str, text: &str, n: usize) -> Result<u32> {
    let mut bits = 0u32;
    for p in list(text, ',', |x| number::<usize>(key, x))? {
        if p >= n {
            return Err(text_error(format!("{key}: seat {p} is not one of 0..{n}")));
        }
        bits |= 1 << p;
    }
    Ok(bits)
}

/// Numbers joined by `sep`.
pub fn nums_text<T: std::fmt::Display>(xs: &[T], sep: &str) -> String {
    join(xs, sep, |x| x.to_string())
}

/// Reads exactly `out.len()` numbers separated by `sep` into `out`.
pub fn parse_nums<T: std::str::FromStr>(
    key: &str,
    text: &str,
    sep: char,
    out: &mut [T],
) -> Result<()> {
    let xs = parts(key, text, sep, out.len())?;
    for (o, x) in out.iter_mut().zip(xs) {
        *o = number(key, x)?;
    }
    Ok(())
}

/// `-` for `none`, else the number.
pub fn opt_text(x: u8, none: u8) -> String {
    if x == none {
        "-".to_string()
    } else {
        x.to_string()
    }
}

/// Reads an [`opt_text`].
pub fn parse_opt(key: &str, text: &str, none: u8) -> Result<u8> {
    if text == "-" {
        Ok(none)
    } else {
        number(key, text)
    }
}

/// An error if a card of `cards` (ids below 64) stands twice: `duplicate card <name>`.
pub fn distinct(cards: impl IntoIterator<Item = u8>, name: impl Fn(u8) -> String) -> Result<()> {
    let mut seen = 0u64;
    for c in cards {
        let bit = 1u64 << (c % 64);
        if seen & bit != 0 {
            return Err(text_error(format!("duplicate card {}", name(c))));
        }
        seen |= bit;
    }
    Ok(())
}

/// An error if the state read from a text disagrees with what the text says of it
/// (`what` is `said` in the text, the state gives `actual`).
pub fn agrees<T: PartialEq + std::fmt::Display>(what: &str, said: T, actual: T) -> Result<()> {
    if said != actual {
        return Err(text_error(format!(
            "{what}={said} is impossible here: the state gives {actual}"
        )));
    }
    Ok(())
}

/// The default state text: `bytes:` and the bytes in hexadecimal.
pub fn bytes_text<S: bytemuck::Pod>(state: &S) -> String {
    let bytes = bytemuck::bytes_of(state);
    let mut out = String::with_capacity(6 + 2 * bytes.len());
    out.push_str("bytes:");
    for b in bytes {
        out.push_str(&format!("{b:02x}"));
    }
    out
}

/// Reads [`bytes_text`] back (not checked by the game).
pub fn parse_bytes_text<S: bytemuck::Pod>(text: &str) -> Result<S> {
    let hex = text
        .trim()
        .strip_prefix("bytes:")
        .ok_or_else(|| text_error("expected `bytes:` and hexadecimal digits"))?;
    let want = 2 * std::mem::size_of::<S>();
    if hex.len() != want {
        return Err(text_error(format!(
            "{} hexadecimal digits, expected {want}",
            hex.len()
        )));
    }
    let mut state = S::zeroed();
    let bytes = bytemuck::bytes_of_mut(&mut state);
    for (i, b) in bytes.iter_mut().enumerate() {
        let pair = hex.get(2 * i..2 * i + 2).unwrap_or("");
        *b = u8::from_str_radix(pair, 16)
            .map_err(|_| text_error(format!("{pair:?} at digit {} is not hexadecimal", 2 * i)))?;
    }
    Ok(state)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn winners_by_results_keep_ties() {
        let o = Outcome::by_results(vec![3.0, 5.0, 5.0], true);
        assert_eq!(o.winners, vec![1, 2]);
        assert!(o.tie());
        assert_eq!(o.summary, "seats 1 and 2 tie");
        let o = Outcome::by_results(vec![3.0, 5.0, 4.0], false);
        assert_eq!(o.winners, vec![0]);
        assert_eq!(o.summary, "seat 0 wins");
        assert_eq!(o.to_json()["tie"], json!(false));
    }

    #[test]
    fn byte_texts_round_trip_and_bad_ones_are_errors() {
        let x: [u32; 2] = [7, 0xdead_beef];
        let t = bytes_text(&x);
        assert_eq!(t, "bytes:07000000efbeadde");
        assert_eq!(parse_bytes_text::<[u32; 2]>(&t), Ok(x));
        for bad in ["07000000efbeadde", "bytes:07", "bytes:07000000efbeadzz"] {
            let e = parse_bytes_text::<[u32; 2]>(bad).unwrap_err().to_string();
            assert!(e.contains("state text"), "{e}");
        }
    }

    #[test]
    fn seats_in_words() {
        assert_eq!(seats_text(&[4]), "seat 4");
        assert_eq!(seats_text(&[0, 1]), "seats 0 and 1");
        assert_eq!(seats_text(&[0, 1, 3]), "seats 0, 1 and 3");
    }
}
