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
//!
//! [`WeightedRange`] adds weights (`AKs:0.5,QQ+,T9s:0.25`) and percentage ranges (`15%`, by
//! the ranking of [`preflop_ranking`]).

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

/// A weighted range: hole-card combos, each with a weight in (0, 1] (the fraction of the
/// combo's deals a player holding the range takes it into).
///
/// The text is a comma-separated list of the parts of a [`Range`] (`QQ+`, `AKs`, `A5s-A2s`,
/// `AsKs`, `random`) and of percentage parts, each optionally followed by `:weight`:
/// `AKs:0.5,QQ+,T9s:0.25`, `15%`, `10%,K9s:0.5`. A part without a weight weighs 1.
///
/// - A weight is a decimal number with `0 < weight <= 1`; anything else (0, a negative
///   number, more than 1, NaN, infinity, words) is an error naming the part.
/// - A combo named by several parts must get the same weight from each; two different
///   weights for one combo are an error (the range text does not silently pick one):
///   `QQ+,AA:0.5` is refused, write `KK-QQ,AA:0.5`.
/// - A percentage part `p%` (`0 < p <= 100`, decimals allowed: `12.5%`) is the top `p`% of
///   the 1,326 combos by the ranking of [`preflop_ranking`]: the 169 hand classes in
///   decreasing order of their exact preflop all-in equity against a random hand, whole
///   classes taken in that order until their combos reach at least `p`% of 1,326
///   (`15%` is 198.9 combos, so the first classes holding 199 or more).
///
/// Entries are kept in the id order of [`Range::combos`].
#[derive(Clone, Debug, PartialEq)]
pub struct WeightedRange {
    entries: Vec<(HoleCards, f64)>,
}

/// The 169 hand classes of [`crate::poker::preflop`] in decreasing order of their exact
/// heads-up preflop all-in equity against a random hand (a uniformly random hole disjoint
/// from the class's hole), ties broken by class index.
///
/// The equity of class `a` is computed from the exact integer counts of the built-in
/// [`crate::poker::preflop::EquityTable`]: `Σ_b (2 wins(a, b) + ties(a, b)) / (2 Σ_b
/// deals(a, b))`, compared as exact fractions; so the ranking is reproducible bit for bit
/// (AA first, 32o last). Percentage ranges (`15%`) take classes in this order.
pub fn preflop_ranking() -> Result<&'static [super::preflop::HandClass]> {
    use super::preflop::{EquityTable, HandClass};
    use std::sync::OnceLock;
    static RANKING: OnceLock<Vec<HandClass>> = OnceLock::new();
    if let Some(r) = RANKING.get() {
        return Ok(r);
    }
    let table = EquityTable::builtin()?;
    // (numerator, denominator) of each class's equity against a random hand.
    let frac: Vec<(u128, u128)> = HandClass::all()
        .map(|a| {
            HandClass::all().fold((0u128, 0u128), |(n, d), b| {
                (
                    n + 2 * table.wins(a, b) as u128 + table.ties(a, b) as u128,
                    d + 2 * table.deals(a, b) as u128,
                )
            })
        })
        .collect();
    let mut order: Vec<HandClass> = HandClass::all().collect();
    order.sort_by(|x, y| {
        let (nx, dx) = frac[x.index()];
        let (ny, dy) = frac[y.index()];
        (ny * dx).cmp(&(nx * dy)).then(x.index().cmp(&y.index()))
    });
    Ok(RANKING.get_or_init(|| order))
}

/// The combos of a percentage part (`p` in (0, 100]).
fn top_percent(part: &str, p: f64, out: &mut Vec<HoleCards>) -> Result<()> {
    if !(p > 0.0 && p <= 100.0) {
        return Err(bad_range(
            part,
            "a percentage range is more than 0% and at most 100% (15%, 12.5%)",
        ));
    }
    let target = p / 100.0 * 1326.0;
    let mut taken = 0u32;
    for class in preflop_ranking()? {
        if f64::from(taken) >= target - 1e-9 {
            break;
        }
        for [a, b] in class.holes() {
            out.push(HoleCards::new(a, b)?);
        }
        taken += class.combos();
    }
    Ok(())
}

fn parse_weight(part: &str, text: &str) -> Result<f64> {
    let bad = || {
        bad_range(
            part,
            &format!("the weight {text:?} is not a number with 0 < weight <= 1 (AKs:0.5)"),
        )
    };
    let w: f64 = text.trim().parse().map_err(|_| bad())?;
    if w.is_finite() && w > 0.0 && w <= 1.0 {
        Ok(w)
    } else {
        Err(bad())
    }
}

impl WeightedRange {
    /// Parses a weighted range (see the type's documentation); an empty range, a bad
    /// weight, a bad percentage or two weights for one combo are errors.
    ///
    /// ```
    /// use cardvec::poker::WeightedRange;
    /// let r = WeightedRange::parse("AKs:0.5,QQ+,T9s:0.25").unwrap();
    /// assert_eq!(r.len(), 4 + 18 + 4);
    /// assert_eq!(r.total_weight(), 2.0 + 18.0 + 1.0);
    /// assert_eq!(WeightedRange::parse("15%").unwrap().len() >= 199, true);
    /// assert!(WeightedRange::parse("AKs:0").is_err());
    /// assert!(WeightedRange::parse("AKs:1.5").is_err());
    /// assert!(WeightedRange::parse("QQ+,AA:0.5").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<WeightedRange> {
        // weight[52 * a + b]: the weight of the combo (a > b by id), 0 when absent.
        let mut weight = vec![0f64; DECK_SIZE * DECK_SIZE];
        let mut buffer = Vec::new();
        for part in text.split(',').map(str::trim) {
            if part.is_empty() {
                return Err(bad_range(text, "empty part"));
            }
            let (body, w) = match part.split_once(':') {
                Some((body, w)) => (body.trim(), parse_weight(part, w)?),
                None => (part, 1.0),
            };
            if let Some(p) = body.strip_suffix('%') {
                let p: f64 = p.trim().parse().map_err(|_| {
                    bad_range(part, "a percentage range is a number and % (15%, 12.5%)")
                })?;
                top_percent(part, p, &mut buffer)?;
            } else {
                buffer.extend_from_slice(Range::parse(body)?.combos());
            }
            for h in buffer.drain(..) {
                let [a, b] = h.cards();
                let slot = &mut weight[a.id() as usize * DECK_SIZE + b.id() as usize];
                if *slot != 0.0 && *slot != w {
                    return Err(bad_range(
                        part,
                        &format!(
                            "{h} has the weight {} from an earlier part and {w} here; a combo \
                             gets one weight",
                            *slot
                        ),
                    ));
                }
                *slot = w;
            }
        }
        let entries = Card::all()
            .flat_map(|a| {
                let row = &weight[a.id() as usize * DECK_SIZE..][..DECK_SIZE];
                Card::all()
                    .filter(move |&b| b < a)
                    .filter(move |b| row[b.id() as usize] > 0.0)
                    .map(move |b| (HoleCards([a, b]), row[b.id() as usize]))
            })
            .collect();
        Ok(WeightedRange { entries })
    }

    /// A weighted range from its combos and weights (each weight finite with
    /// `0 < weight <= 1`, each combo once), kept in id order as [`WeightedRange::entries`]
    /// gives them; a bad weight or a repeated combo is an error.
    ///
    /// ```
    /// use cardvec::poker::WeightedRange;
    /// let r = WeightedRange::parse("AKs:0.5,QQ+").unwrap();
    /// let back = WeightedRange::from_entries(r.entries().iter().rev().copied()).unwrap();
    /// assert_eq!(back, r);
    /// assert!(WeightedRange::from_entries([(r.entries()[0].0, 0.0)]).is_err());
    /// ```
    pub fn from_entries(
        entries: impl IntoIterator<Item = (HoleCards, f64)>,
    ) -> Result<WeightedRange> {
        let mut entries: Vec<(HoleCards, f64)> = entries.into_iter().collect();
        for &(h, w) in &entries {
            if !(w.is_finite() && w > 0.0 && w <= 1.0) {
                return Err(Error::Invalid {
                    what: "range",
                    reason: format!("{h} has the weight {w}; a weight is in (0, 1]"),
                });
            }
        }
        // The order of `parse`: by the higher card's id, then the lower's.
        entries.sort_by_key(|&(h, _)| {
            let [a, b] = h.cards();
            (a.id(), b.id())
        });
        if let Some(pair) = entries.windows(2).find(|p| p[0].0 == p[1].0) {
            return Err(Error::Invalid {
                what: "range",
                reason: format!("{} appears twice", pair[0].0),
            });
        }
        Ok(WeightedRange { entries })
    }

    /// The combos with their weights, each combo once, in id order.
    pub fn entries(&self) -> &[(HoleCards, f64)] {
        &self.entries
    }

    /// Number of combos (of any weight).
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the range has no combo.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The sum of the weights (the range's size in combos).
    pub fn total_weight(&self) -> f64 {
        self.entries.iter().map(|&(_, w)| w).sum()
    }

    /// Whether every weight is 1.
    pub fn is_unweighted(&self) -> bool {
        self.entries.iter().all(|&(_, w)| w == 1.0)
    }

    /// The combos, weights dropped.
    pub fn to_range(&self) -> Range {
        Range {
            combos: self.entries.iter().map(|&(h, _)| h).collect(),
        }
    }

    /// The entries whose combo uses no card of `dead`.
    pub fn without(&self, dead: CardSet64) -> WeightedRange {
        WeightedRange {
            entries: self
                .entries
                .iter()
                .copied()
                .filter(|(h, _)| (h.set() & dead).is_empty())
                .collect(),
        }
    }
}

impl From<&Range> for WeightedRange {
    /// Every combo of the range with weight 1.
    fn from(range: &Range) -> WeightedRange {
        WeightedRange {
            entries: range.combos.iter().map(|&h| (h, 1.0)).collect(),
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

    fn weights(text: &str) -> Vec<(String, f64)> {
        WeightedRange::parse(text)
            .unwrap()
            .entries()
            .iter()
            .map(|&(h, w)| (h.to_string(), w))
            .collect()
    }

    #[test]
    fn weighted_parts_keep_their_weights() {
        let r = WeightedRange::parse("AKs:0.5,QQ+,T9s:0.25").unwrap();
        assert_eq!(r.len(), 4 + 18 + 4);
        assert_eq!(r.total_weight(), 21.0);
        assert!(!r.is_unweighted());
        for (h, w) in r.entries() {
            let [a, b] = h.cards();
            let want = match (a.rank(), b.rank()) {
                (Rank::Ace, Rank::King) | (Rank::King, Rank::Ace) => 0.5,
                (Rank::Ten, Rank::Nine) | (Rank::Nine, Rank::Ten) => 0.25,
                _ => 1.0,
            };
            assert_eq!(*w, want, "{h}");
        }
        // The same combos, in the same order, as the unweighted parse.
        assert_eq!(r.to_range(), Range::parse("AKs,QQ+,T9s").unwrap());
        // A part repeated with its weight, or a combo inside a class with the same weight.
        assert_eq!(weights("AA:0.5,AsAh:0.5"), weights("AA:0.5"));
        assert_eq!(weights(" KK : 1 "), weights("KK"));
        assert!(WeightedRange::parse("KK:1").unwrap().is_unweighted());
        let plain = Range::parse("TT+,AKo").unwrap();
        assert_eq!(WeightedRange::from(&plain).to_range(), plain);
    }

    #[test]
    fn bad_weights_are_refused() {
        for text in [
            "AKs:0",
            "AKs:-0.5",
            "AKs:1.5",
            "AKs:NaN",
            "AKs:inf",
            "AKs:",
            "AKs:half",
            "AKs:0.5:1",
            "QQ+,AA:0.5",
            "AsAh:0.5,AA",
        ] {
            let e = WeightedRange::parse(text);
            assert!(e.is_err(), "{text} parsed");
        }
        let msg = WeightedRange::parse("QQ+,AA:0.5").unwrap_err().to_string();
        assert!(msg.contains("one weight"), "{msg}");
        let msg = WeightedRange::parse("AKs:2").unwrap_err().to_string();
        assert!(msg.contains("0 < weight <= 1"), "{msg}");
    }

    #[test]
    fn without_keeps_weights() {
        let dead = Card::new(Rank::Ace, Suit::Spades).bit();
        let r = WeightedRange::parse("AA:0.5,KK").unwrap().without(dead);
        assert_eq!(r.len(), 3 + 6);
        assert_eq!(r.total_weight(), 1.5 + 6.0);
    }

    #[test]
    fn ranking_puts_aces_first_and_three_deuce_offsuit_last() {
        use crate::poker::preflop::HandClass;
        let ranking = preflop_ranking().unwrap();
        assert_eq!(ranking.len(), 169);
        let mut seen: Vec<usize> = ranking.iter().map(|c| c.index()).collect();
        seen.sort_unstable();
        assert_eq!(seen, (0..169).collect::<Vec<_>>());
        assert_eq!(ranking[0], HandClass::parse("AA").unwrap());
        assert_eq!(ranking[1], HandClass::parse("KK").unwrap());
        assert_eq!(ranking[168], HandClass::parse("32o").unwrap());
    }

    #[test]
    fn percentage_ranges_take_whole_classes_up_to_the_share() {
        assert_eq!(WeightedRange::parse("100%").unwrap().len(), 1326);
        // 0.4% of 1,326 is 5.3 combos: AA (6) reaches it.
        assert_eq!(
            WeightedRange::parse("0.4%").unwrap().to_range(),
            Range::parse("AA").unwrap()
        );
        // 0.5% is 6.63 combos: AA is not enough, AA and KK are.
        assert_eq!(
            WeightedRange::parse("0.5%").unwrap().to_range(),
            Range::parse("KK+").unwrap()
        );
        let ranking = preflop_ranking().unwrap();
        for p in [1.0, 5.0, 15.0, 33.3, 50.0, 99.0] {
            let r = WeightedRange::parse(&format!("{p}%")).unwrap();
            let target = p / 100.0 * 1326.0;
            assert!(r.len() as f64 >= target, "{p}%: {}", r.len());
            // Dropping the last class taken falls below the share.
            let mut n = 0;
            let mut k = 0;
            while n < r.len() {
                n += ranking[k].combos() as usize;
                k += 1;
            }
            assert_eq!(n, r.len(), "{p}%: whole classes");
            assert!(
                ((n - ranking[k - 1].combos() as usize) as f64) < target,
                "{p}%"
            );
        }
        let r = WeightedRange::parse("10%:0.5,AA").unwrap_err().to_string();
        assert!(r.contains("one weight"), "{r}");
        assert_eq!(
            WeightedRange::parse("10%:0.5").unwrap().total_weight(),
            WeightedRange::parse("10%").unwrap().len() as f64 * 0.5
        );
        for bad in ["0%", "-5%", "101%", "x%", "%", "nan%"] {
            assert!(WeightedRange::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn ranking_agrees_with_sampled_equity_against_a_random_hand() {
        use crate::poker::{equity, EquityOptions, Method};
        // Independent of the table: Monte Carlo with the evaluator, one combo of a class
        // against a random hand, at ranks 0, 40, 120 and 168 of the ranking.
        let ranking = preflop_ranking().unwrap();
        let mut last = f64::INFINITY;
        for k in [0, 40, 120, 168] {
            let [a, b] = ranking[k].holes()[0];
            let players = [Range::single(HoleCards::new(a, b).unwrap()), Range::all()];
            let options = EquityOptions {
                method: Method::MonteCarlo,
                trials: 200_000,
                seed: 7,
                ..Default::default()
            };
            let r = equity(&players, &options).unwrap();
            let p = &r.players[0];
            assert!(
                p.equity + 4.0 * p.equity_se < last,
                "rank {k}: {}",
                p.equity
            );
            last = p.equity;
        }
    }
}
