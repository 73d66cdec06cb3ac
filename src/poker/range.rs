//! Hole cards and ranges of hole cards in the usual notation.
//!
//! A range is a comma-separated list of:
//! - a pair `TT`, pairs from one up `TT+`, a span of pairs `99-66`;
//! - suited `AKs`, offsuit `KQo`, or both `AK` (16 combos); with `+` the kicker runs up to
//!   one below the first card (`ATs+` is ATs, AJs, AQs, AKs); a span keeps the first card and
//!   spans the kicker (`A5s-A2s`);
//! - one exact combo `AsKs` (also `♠A♠K`);
//! - `random` (or `*`) for all 1,326 combos.
//!
//! Combos are kept once each, whatever the overlap of the parts.

use std::fmt;

use super::cards::{read_cards, set_cards, Card, Rank, Suit, DECK_SIZE};
use crate::core::{CardSet64, Error, Result};

/// Two hole cards, the higher id first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HoleCards([Card; 2]);

impl HoleCards {
    /// The hole cards `a` and `b`, or an error if they are the same card.
    pub fn new(a: Card, b: Card) -> Result<HoleCards> {
        if a == b {
            return Err(Error::Invalid {
                what: "hole cards",
                reason: format!("{a} twice"),
            });
        }
        Ok(HoleCards(if a > b { [a, b] } else { [b, a] }))
    }

    /// The two cards, the higher id first.
    pub const fn cards(self) -> [Card; 2] {
        self.0
    }

    /// The two cards as a set.
    pub const fn set(self) -> CardSet64 {
        CardSet64(self.0[0].bit().0 | self.0[1].bit().0)
    }
}

impl fmt::Display for HoleCards {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [a, b] = self.0;
        if (a.rank(), a.suit()) >= (b.rank(), b.suit()) {
            write!(f, "{a}{b}")
        } else {
            write!(f, "{b}{a}")
        }
    }
}

/// A set of hole-card combos.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Range {
    combos: Vec<HoleCards>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Suitedness {
    Suited,
    Offsuit,
    Any,
}

/// One class of starting hands: `AKs`, `KQo`, `AK`, `TT`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Class {
    high: Rank,
    low: Rank,
    kind: Suitedness,
}

/// What a part of a range can be, for messages.
const CLASS_FORMS: &str = "a hand class is two ranks, then s (suited), o (offsuit) or \
                           nothing (AKs, KQo, AK; a pair: TT), and an exact combo is two \
                           cards (AsKs)";

/// `n` and the word, singular or plural (`1 card`, `3 cards`).
fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn bad_range(part: &str, reason: &str) -> Error {
    Error::Invalid {
        what: "range",
        reason: format!("{part:?}: {reason}"),
    }
}

impl Class {
    fn parse(text: &str) -> Result<Class> {
        let chars: Vec<char> = text.chars().collect();
        let (a, b, kind) = match chars.as_slice() {
            [a, b] => (*a, *b, Suitedness::Any),
            [a, b, 's' | 'S'] => (*a, *b, Suitedness::Suited),
            [a, b, 'o' | 'O'] => (*a, *b, Suitedness::Offsuit),
            [_, _, x] => {
                return Err(bad_range(
                    text,
                    &format!(
                        "a hand class ends in s (suited), o (offsuit) or nothing (both), \
                         not {x:?}"
                    ),
                ))
            }
            _ => {
                return Err(bad_range(
                    text,
                    &format!(
                        "{}; {CLASS_FORMS}",
                        count(chars.len(), "character", "characters")
                    ),
                ))
            }
        };
        let rank = |c: char| {
            Rank::from_char(c).ok_or_else(|| bad_range(text, &format!("{c:?} is not a rank")))
        };
        let (a, b) = (rank(a)?, rank(b)?);
        if a == b && kind != Suitedness::Any {
            return Err(bad_range(text, "a pair is neither suited nor offsuit"));
        }
        Ok(Class {
            high: a.max(b),
            low: a.min(b),
            kind,
        })
    }

    fn is_pair(self) -> bool {
        self.high == self.low
    }

    fn combos(self, out: &mut Vec<HoleCards>) {
        for s1 in Suit::ALL {
            for s2 in Suit::ALL {
                let keep = match self.kind {
                    _ if self.is_pair() => s1 < s2,
                    Suitedness::Suited => s1 == s2,
                    Suitedness::Offsuit => s1 != s2,
                    Suitedness::Any => true,
                };
                if keep {
                    let (a, b) = (Card::new(self.high, s1), Card::new(self.low, s2));
                    if let Ok(h) = HoleCards::new(a, b) {
                        out.push(h);
                    }
                }
            }
        }
    }
}

fn ranks_between(a: Rank, b: Rank) -> impl Iterator<Item = Rank> {
    let (lo, hi) = (a.min(b).index(), a.max(b).index());
    (lo..=hi).filter_map(Rank::from_index)
}

/// The classes of one comma-separated part (`TT+`, `A5s-A2s`, `AKs`).
fn part_classes(part: &str) -> Result<Vec<Class>> {
    if let Some(base) = part.strip_suffix('+') {
        let c = Class::parse(base)?;
        return Ok(if c.is_pair() {
            ranks_between(c.low, Rank::Ace)
                .map(|r| Class {
                    high: r,
                    low: r,
                    ..c
                })
                .collect()
        } else {
            let top = Rank::from_index(c.high.index() - 1).unwrap_or(c.low);
            ranks_between(c.low, top)
                .map(|r| Class { low: r, ..c })
                .collect()
        });
    }
    if let Some((from, to)) = part.split_once('-') {
        let (a, b) = (Class::parse(from)?, Class::parse(to)?);
        if a.is_pair() && b.is_pair() {
            return Ok(ranks_between(a.low, b.low)
                .map(|r| Class {
                    high: r,
                    low: r,
                    ..a
                })
                .collect());
        }
        if a.is_pair() || b.is_pair() || a.high != b.high || a.kind != b.kind {
            return Err(bad_range(
                part,
                "a span joins two pairs, or two hands with the same first card and suitedness \
                 (A5s-A2s)",
            ));
        }
        return Ok(ranks_between(a.low, b.low)
            .map(|r| Class { low: r, ..a })
            .collect());
    }
    Ok(vec![Class::parse(part)?])
}

impl Range {
    /// All 1,326 combos.
    pub fn all() -> Range {
        let mut combos = Vec::with_capacity(1326);
        for a in Card::all() {
            for b in Card::all().filter(|&b| b < a) {
                combos.push(HoleCards([a, b]));
            }
        }
        Range { combos }
    }

    /// The range of one combo.
    pub fn single(hole: HoleCards) -> Range {
        Range { combos: vec![hole] }
    }

    /// Parses a range (see the module documentation); an empty range is an error. Time is
    /// linear in the text and memory bounded whatever it repeats (`"random, random, ..."`):
    /// combos are kept in a 52 x 52 bit table.
    ///
    /// ```
    /// use cardvec::poker::Range;
    /// assert_eq!(Range::parse("AA").unwrap().len(), 6);
    /// assert_eq!(Range::parse("TT+").unwrap().len(), 30);
    /// assert_eq!(Range::parse("A5s-A2s").unwrap().len(), 16);
    /// assert_eq!(Range::parse("KQo, AsKs").unwrap().len(), 13);
    /// assert!(Range::parse("AKx").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<Range> {
        // `lower[a]`: the second cards of the combos whose higher card has id `a`.
        let mut lower = [CardSet64::EMPTY; DECK_SIZE];
        let add = |lower: &mut [CardSet64; DECK_SIZE], h: HoleCards| {
            let [a, b] = h.cards();
            lower[a.id() as usize].insert(b.id());
        };
        let mut buffer = Vec::new();
        for part in text.split(',').map(str::trim) {
            if part.is_empty() {
                return Err(bad_range(text, "empty part"));
            }
            if part.eq_ignore_ascii_case("random") || part == "*" {
                for (a, set) in lower.iter_mut().enumerate() {
                    set.0 |= (1u64 << a) - 1;
                }
                continue;
            }
            let as_cards = read_cards(part);
            if let Ok([a, b]) = as_cards.as_deref() {
                if a == b {
                    return Err(bad_range(
                        part,
                        &format!(
                            "{a} twice; an exact combo is two different cards (AsKs), and a \
                             pair class two ranks ({r}{r}: all six combos)",
                            r = a.rank().to_char()
                        ),
                    ));
                }
                add(&mut lower, HoleCards::new(*a, *b)?);
                continue;
            }
            let classes = part_classes(part).map_err(|e| {
                // Report a failed exact combo as such when the part looked like cards.
                match as_cards {
                    Ok(cards) if !cards.is_empty() => bad_range(
                        part,
                        &format!(
                            "{}; an exact combo is two cards (AsKs)",
                            count(cards.len(), "card", "cards")
                        ),
                    ),
                    _ => e,
                }
            })?;
            for c in classes {
                c.combos(&mut buffer);
                for h in buffer.drain(..) {
                    add(&mut lower, h);
                }
            }
        }
        // In id order, as `HoleCards` sort.
        let combos = Card::all()
            .flat_map(|a| set_cards(lower[a.id() as usize]).map(move |b| HoleCards([a, b])))
            .collect();
        Ok(Range { combos })
    }

    /// The combos, each once.
    pub fn combos(&self) -> &[HoleCards] {
        &self.combos
    }

    /// Number of combos.
    pub fn len(&self) -> usize {
        self.combos.len()
    }

    /// Whether the range has no combo.
    pub fn is_empty(&self) -> bool {
        self.combos.is_empty()
    }

    /// The combos that use no card of `dead`.
    pub fn without(&self, dead: CardSet64) -> Range {
        Range {
            combos: self
                .combos
                .iter()
                .copied()
                .filter(|h| (h.set() & dead).is_empty())
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(text: &str) -> usize {
        Range::parse(text).unwrap().len()
    }

    #[test]
    fn class_sizes_follow_the_suits() {
        assert_eq!(count("AA"), 6);
        assert_eq!(count("AKs"), 4);
        assert_eq!(count("AKo"), 12);
        assert_eq!(count("AK"), 16);
        assert_eq!(count("KA"), 16);
        assert_eq!(count("random"), 1326);
    }

    #[test]
    fn plus_runs_pairs_to_aces_and_kickers_below_the_first_card() {
        assert_eq!(count("TT+"), 5 * 6);
        assert_eq!(count("22+"), 13 * 6);
        assert_eq!(count("ATs+"), 4 * 4);
        assert_eq!(count("K9o+"), 4 * 12);
        let r = Range::parse("ATs+").unwrap();
        assert!(r.combos().iter().all(|h| h.cards()[0].rank() == Rank::Ace));
    }

    #[test]
    fn spans_cover_both_ends() {
        assert_eq!(count("A5s-A2s"), 16);
        assert_eq!(count("A2s-A5s"), 16);
        assert_eq!(count("99-66"), 24);
    }

    #[test]
    fn overlapping_parts_count_each_combo_once() {
        assert_eq!(count("AA, AsAh, TT+"), 30);
        assert_eq!(count("AKs, AK"), 16);
    }

    #[test]
    fn exact_combos_parse_in_any_notation() {
        let a = Range::parse("AsKs").unwrap();
        assert_eq!(a, Range::parse("♠K♠A").unwrap());
        assert_eq!(a.combos()[0].to_string(), "AsKs");
    }

    #[test]
    fn unparsable_ranges_are_errors() {
        for bad in [
            "", "AKx", "AAs", "ZZ", "A5s-K2s", "A5s-A2o", "TT-A5s", "AsKsQs", "AsAs", "AK,,QQ", "A",
        ] {
            assert!(Range::parse(bad).is_err(), "{bad:?} parsed");
        }
    }

    #[test]
    fn errors_say_what_is_wrong() {
        let message = |text: &str| Range::parse(text).unwrap_err().to_string();
        let twice = message("AsAs");
        assert!(
            twice.contains("As twice") && twice.contains("(AA: all six combos)"),
            "{twice}"
        );
        assert!(
            message("As").contains("\"As\": 1 card; "),
            "{}",
            message("As")
        );
        assert!(
            message("AsKsQs").contains("3 cards; "),
            "{}",
            message("AsKsQs")
        );
        assert!(message("A").contains("1 character; "), "{}", message("A"));
        assert!(message("AKx").contains("not 'x'"), "{}", message("AKx"));
        assert!(
            message("AAs").contains("a pair is neither"),
            "{}",
            message("AAs")
        );
    }

    #[test]
    fn combos_are_sorted_and_unique_as_before() {
        let r = Range::parse("QQ+, AKs, AsKs, KQo, A5s-A2s, 99-77, 7h6h").unwrap();
        let mut sorted = r.combos().to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(r.combos(), sorted);
        assert_eq!(Range::parse("random").unwrap(), Range::all());
    }

    #[test]
    fn long_repetitive_ranges_stay_small() {
        // A million parts: linear time, and the range holds each combo once.
        let text = vec!["random"; 1_000_000].join(",");
        assert_eq!(Range::parse(&text).unwrap().len(), 1326);
        let text = vec!["22+, AKs"; 100_000].join(",");
        assert_eq!(Range::parse(&text).unwrap().len(), 13 * 6 + 4);
    }

    #[test]
    fn without_drops_blocked_combos() {
        let dead = Card::new(Rank::Ace, Suit::Spades).bit();
        assert_eq!(Range::parse("AA").unwrap().without(dead).len(), 3);
    }
}
