//! Cards of the 52-card deck: ranks, suits, card ids, parsing and printing, card sets and
//! dealing from seeded streams.
//!
//! A card is an id `0..52`, `13 * suit + rank`, so that the thirteen cards of one suit are
//! thirteen consecutive bits of a [`CardSet64`] (the evaluator reads a suit's ranks with one
//! shift). Ranks run from deuce (0) to ace (12); suits are clubs, diamonds, hearts, spades.
//!
//! Parsing accepts a rank and a suit in either order: `As`, `as`, `Td`, `10d`, `♠A`, `A♠`.
//! Lists of cards may be written with or without separators: `"As Kd"`, `"As,Kd"`, `"AsKd"`.
//! Evaluation lives in `eval.rs`, not here.

use std::fmt;
use std::str::FromStr;

use crate::core::{CardSet64, Error, LaneRng, Result};

/// Number of cards in the deck.
pub const DECK_SIZE: usize = 52;

/// The set of all 52 cards.
pub const FULL_DECK: CardSet64 = CardSet64((1u64 << DECK_SIZE) - 1);

/// A card rank, deuce (0) to ace (12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Rank {
    /// 2
    Two = 0,
    /// 3
    Three,
    /// 4
    Four,
    /// 5
    Five,
    /// 6
    Six,
    /// 7
    Seven,
    /// 8
    Eight,
    /// 9
    Nine,
    /// 10, written `T`
    Ten,
    /// Jack
    Jack,
    /// Queen
    Queen,
    /// King
    King,
    /// Ace (high, and low only in the five-high straight)
    Ace,
}

impl Rank {
    /// All ranks, deuce first.
    pub const ALL: [Rank; 13] = [
        Rank::Two,
        Rank::Three,
        Rank::Four,
        Rank::Five,
        Rank::Six,
        Rank::Seven,
        Rank::Eight,
        Rank::Nine,
        Rank::Ten,
        Rank::Jack,
        Rank::Queen,
        Rank::King,
        Rank::Ace,
    ];

    /// The rank of index `i` (`0` = deuce .. `12` = ace), if `i < 13`.
    pub const fn from_index(i: u8) -> Option<Rank> {
        if i < 13 {
            Some(Rank::ALL[i as usize])
        } else {
            None
        }
    }

    /// The index `0..13` (deuce = 0).
    #[inline]
    pub const fn index(self) -> u8 {
        self as u8
    }

    /// The one-character name: `2`..`9`, `T`, `J`, `Q`, `K`, `A`.
    pub const fn to_char(self) -> char {
        [
            '2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K', 'A',
        ][self as usize]
    }

    /// Parses one rank character (case-insensitive; `T` is ten).
    pub fn from_char(c: char) -> Option<Rank> {
        let i = "23456789TJQKA".find(c.to_ascii_uppercase())?;
        Rank::from_index(i as u8)
    }

    /// The English word, as in "ace-high": `two` .. `ace`.
    pub const fn word(self) -> &'static str {
        [
            "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack",
            "queen", "king", "ace",
        ][self as usize]
    }

    /// The English plural, as in "full house, threes over twos": `twos` .. `aces`.
    pub const fn plural(self) -> &'static str {
        [
            "twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens",
            "jacks", "queens", "kings", "aces",
        ][self as usize]
    }
}

/// A card suit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Suit {
    /// ♣, written `c`
    Clubs = 0,
    /// ♦, written `d`
    Diamonds,
    /// ♥, written `h`
    Hearts,
    /// ♠, written `s`
    Spades,
}

impl Suit {
    /// All suits in id order.
    pub const ALL: [Suit; 4] = [Suit::Clubs, Suit::Diamonds, Suit::Hearts, Suit::Spades];

    /// The suit of index `i` (`0..4`).
    pub const fn from_index(i: u8) -> Option<Suit> {
        if i < 4 {
            Some(Suit::ALL[i as usize])
        } else {
            None
        }
    }

    /// The index `0..4`.
    #[inline]
    pub const fn index(self) -> u8 {
        self as u8
    }

    /// The one-letter name: `c`, `d`, `h`, `s`.
    pub const fn to_char(self) -> char {
        ['c', 'd', 'h', 's'][self as usize]
    }

    /// The symbol: `♣`, `♦`, `♥`, `♠`.
    pub const fn symbol(self) -> char {
        ['♣', '♦', '♥', '♠'][self as usize]
    }

    /// Parses a suit letter (case-insensitive) or symbol (filled or outlined).
    pub fn from_char(c: char) -> Option<Suit> {
        match c {
            'c' | 'C' | '♣' | '♧' => Some(Suit::Clubs),
            'd' | 'D' | '♦' | '♢' => Some(Suit::Diamonds),
            'h' | 'H' | '♥' | '♡' => Some(Suit::Hearts),
            's' | 'S' | '♠' | '♤' => Some(Suit::Spades),
            _ => None,
        }
    }
}

/// One card: id `13 * suit + rank`, in `0..52`.
///
/// ```
/// use cardvec::poker::{Card, Rank, Suit};
/// let c: Card = "As".parse().unwrap();
/// assert_eq!(c, Card::new(Rank::Ace, Suit::Spades));
/// assert_eq!("♠A".parse::<Card>().unwrap(), c);
/// assert_eq!(c.to_string(), "As");
/// assert_eq!(c.id(), 51);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(transparent)]
pub struct Card(u8);

impl Card {
    /// The card of `rank` and `suit`.
    #[inline]
    pub const fn new(rank: Rank, suit: Suit) -> Card {
        Card(13 * suit as u8 + rank as u8)
    }

    /// The card of id `id`, if `id < 52`.
    #[inline]
    pub const fn from_id(id: u8) -> Option<Card> {
        if (id as usize) < DECK_SIZE {
            Some(Card(id))
        } else {
            None
        }
    }

    /// The id `0..52`.
    #[inline]
    pub const fn id(self) -> u8 {
        self.0
    }

    /// The rank.
    #[inline]
    pub const fn rank(self) -> Rank {
        Rank::ALL[(self.0 % 13) as usize]
    }

    /// The suit.
    #[inline]
    pub const fn suit(self) -> Suit {
        Suit::ALL[(self.0 / 13) as usize]
    }

    /// The one-card set.
    #[inline]
    pub const fn bit(self) -> CardSet64 {
        CardSet64::single(self.0)
    }

    /// The whole deck in id order.
    pub fn all() -> impl Iterator<Item = Card> {
        (0..DECK_SIZE as u8).map(Card)
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.rank().to_char(), self.suit().to_char())
    }
}

impl FromStr for Card {
    type Err = Error;

    fn from_str(s: &str) -> Result<Card> {
        let mut reader = CardReader::new(s);
        let card = reader.next_card()?;
        match card {
            Some(c) if reader.at_end() => Ok(c),
            _ => Err(bad_card(
                s,
                "expected exactly one card such as \"As\", \"Td\" or \"♠A\"",
            )),
        }
    }
}

fn bad_card(text: &str, reason: &str) -> Error {
    Error::Invalid {
        what: "card",
        reason: format!("{text:?}: {reason}"),
    }
}

/// Reads cards one by one from text, skipping spaces and commas between them.
struct CardReader<'a> {
    text: &'a str,
    chars: std::iter::Peekable<std::str::CharIndices<'a>>,
}

impl<'a> CardReader<'a> {
    fn new(text: &'a str) -> Self {
        CardReader {
            text,
            chars: text.char_indices().peekable(),
        }
    }

    fn skip_separators(&mut self) {
        while let Some(&(_, c)) = self.chars.peek() {
            if c.is_whitespace() || c == ',' {
                self.chars.next();
            } else {
                break;
            }
        }
    }

    fn at_end(&mut self) -> bool {
        self.skip_separators();
        self.chars.peek().is_none()
    }

    /// Reads a rank: one character, or `10`.
    fn rank(&mut self) -> Option<Rank> {
        let &(_, c) = self.chars.peek()?;
        if c == '1' {
            self.chars.next();
            return match self.chars.next() {
                Some((_, '0')) => Some(Rank::Ten),
                _ => None,
            };
        }
        let r = Rank::from_char(c)?;
        self.chars.next();
        Some(r)
    }

    fn suit(&mut self) -> Option<Suit> {
        let &(_, c) = self.chars.peek()?;
        let s = Suit::from_char(c)?;
        self.chars.next();
        Some(s)
    }

    /// The next card, `None` at the end of the text.
    fn next_card(&mut self) -> Result<Option<Card>> {
        self.skip_separators();
        let Some(&(start, first)) = self.chars.peek() else {
            return Ok(None);
        };
        let card = if Suit::from_char(first).is_some() {
            // The suit first: "♠A".
            let suit = self.suit();
            self.rank().zip(suit).map(|(r, s)| Card::new(r, s))
        } else {
            let rank = self.rank();
            rank.zip(self.suit()).map(|(r, s)| Card::new(r, s))
        };
        card.map(Some).ok_or_else(|| {
            let token: String = self.text[start..]
                .chars()
                .take_while(|c| !c.is_whitespace() && *c != ',')
                .collect();
            bad_card(
                &token,
                "a card is a rank (2-9, T or 10, J, Q, K, A) and a suit (c, d, h, s or ♣♦♥♠)",
            )
        })
    }
}

/// Parses a list of cards such as `"As Kd"`, `"As,Kd"` or `"2c7d9h"`. Repeated cards are an
/// error.
///
/// ```
/// use cardvec::poker::parse_cards;
/// let cards = parse_cards("2c7d9h").unwrap();
/// assert_eq!(cards.len(), 3);
/// assert!(parse_cards("As As").is_err());
/// assert!(parse_cards("Xx").is_err());
/// ```
pub fn parse_cards(text: &str) -> Result<Vec<Card>> {
    let cards = read_cards(text)?;
    let mut seen = CardSet64::EMPTY;
    for &card in &cards {
        if seen.contains(card.id()) {
            return Err(Error::Invalid {
                what: "cards",
                reason: format!("{card} appears more than once in {text:?}"),
            });
        }
        seen.insert(card.id());
    }
    Ok(cards)
}

/// The cards of `text` in order, repeats kept ([`parse_cards`] refuses them).
pub(crate) fn read_cards(text: &str) -> Result<Vec<Card>> {
    let mut reader = CardReader::new(text);
    let mut cards = Vec::new();
    while let Some(card) = reader.next_card()? {
        cards.push(card);
    }
    Ok(cards)
}

/// The set of `cards`, or an error naming a card given twice.
pub fn card_set(cards: &[Card]) -> Result<CardSet64> {
    let mut set = CardSet64::EMPTY;
    for &c in cards {
        if set.contains(c.id()) {
            return Err(Error::Invalid {
                what: "cards",
                reason: format!("{c} appears more than once"),
            });
        }
        set.insert(c.id());
    }
    Ok(set)
}

/// Checks that `set` holds only ids of the 52-card deck.
pub fn check_deck_set(set: CardSet64) -> Result<()> {
    if set.0 & !FULL_DECK.0 != 0 {
        return Err(Error::Invalid {
            what: "card set",
            reason: format!("bits above 51 are set ({:#x})", set.0 & !FULL_DECK.0),
        });
    }
    Ok(())
}

/// The cards of `set`, by id.
pub fn set_cards(set: CardSet64) -> impl Iterator<Item = Card> {
    (set & FULL_DECK).iter().map(Card)
}

/// Writes the cards of `set` highest rank first (`"AsKdTc"` style, no separators).
pub fn format_set(set: CardSet64) -> String {
    let mut cards: Vec<Card> = set_cards(set).collect();
    cards.sort_by_key(|c| std::cmp::Reverse((c.rank(), c.suit())));
    cards.iter().map(|c| c.to_string()).collect()
}

/// A deck in a dealing order; cards are dealt from the front.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deck {
    order: Vec<Card>,
    next: usize,
}

impl Deck {
    /// All cards not in `exclude`, shuffled by `rng` (Fisher–Yates from the end, as every
    /// engine of the project shuffles).
    pub fn shuffled(rng: &mut LaneRng, exclude: CardSet64) -> Deck {
        let mut order: Vec<Card> = set_cards(FULL_DECK - exclude).collect();
        rng.shuffle(&mut order);
        Deck { order, next: 0 }
    }

    /// A deck dealing `order` as given; an error if a card repeats.
    pub fn from_order(order: Vec<Card>) -> Result<Deck> {
        card_set(&order)?;
        Ok(Deck { order, next: 0 })
    }

    /// Cards left to deal.
    pub fn remaining(&self) -> usize {
        self.order.len() - self.next
    }

    /// Deals `n` cards, or an error if fewer are left (nothing is dealt then).
    pub fn deal(&mut self, n: usize) -> Result<&[Card]> {
        if n > self.remaining() {
            return Err(Error::Invalid {
                what: "deal",
                reason: format!(
                    "{n} {} asked, {} left",
                    if n == 1 { "card" } else { "cards" },
                    self.remaining()
                ),
            });
        }
        let start = self.next;
        self.next += n;
        Ok(&self.order[start..self.next])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_card_prints_and_parses_back() {
        for c in Card::all() {
            assert_eq!(c.to_string().parse::<Card>().unwrap(), c);
            let symbol_first = format!("{}{}", c.suit().symbol(), c.rank().to_char());
            assert_eq!(symbol_first.parse::<Card>().unwrap(), c);
            assert_eq!(Card::new(c.rank(), c.suit()), c);
        }
    }

    #[test]
    fn ten_may_be_written_10() {
        assert_eq!("10h".parse::<Card>().unwrap(), "Th".parse().unwrap());
        assert_eq!("♥10".parse::<Card>().unwrap(), "Th".parse().unwrap());
        assert_eq!(parse_cards("10h10s").unwrap().len(), 2);
    }

    #[test]
    fn lists_parse_with_or_without_separators() {
        let a = parse_cards("As Kd, 2c").unwrap();
        let b = parse_cards("AsKd2c").unwrap();
        assert_eq!(a, b);
        assert_eq!(parse_cards("").unwrap(), vec![]);
    }

    #[test]
    fn bad_cards_are_errors() {
        for text in ["", "A", "Ax", "1s", "Zs", "As Ks", "s", "AsK"] {
            let one = text.parse::<Card>();
            assert!(one.is_err(), "{text:?} parsed as one card");
        }
        assert!(parse_cards("AsK").is_err());
        assert!(parse_cards("As as").is_err(), "duplicates");
    }

    #[test]
    fn suit_masks_are_contiguous() {
        let spades: CardSet64 = card_set(&Rank::ALL.map(|r| Card::new(r, Suit::Spades))).unwrap();
        assert_eq!(spades.0, 0x1fff << 39);
    }

    #[test]
    fn shuffled_deck_skips_excluded_cards() {
        let dead = card_set(&parse_cards("As Ah").unwrap()).unwrap();
        let mut deck = Deck::shuffled(&mut LaneRng::from_seed(1), dead);
        assert_eq!(deck.remaining(), 50);
        let all = deck.deal(50).unwrap().to_vec();
        assert!(all.iter().all(|c| !dead.contains(c.id())));
        assert!(deck.deal(1).is_err());
        assert_eq!(card_set(&all).unwrap().len(), 50);
    }
}
