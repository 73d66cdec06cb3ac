//! The hand evaluator: the rank of the best five cards among five, six or seven, its category,
//! the five cards themselves and the hand's name in words.
//!
//! A [`Hand`] carries two words, as in b-inary's holdem-hand-evaluator: the sum of the cards'
//! keys (rank keys in the high 32 bits, one 4-bit counter per suit in the low bits, started at
//! 3 so that bit 3 of a counter says "five or more of this suit") and the card set itself. Its
//! rank is then one of two loads:
//! - with a flush, the flush table indexed by the 13-bit rank mask of that suit (with seven
//!   cards or fewer, a flush excludes quads and full houses, so the suit decides);
//! - otherwise the perfect hash of the rank-key sum, which identifies the multiset of ranks.
//!
//! Adding a card is one add and one or, so enumerations build hands incrementally. A
//! [`CardSet64`] is evaluated without a hand: the four suit masks give the key sum and the
//! flush with eight loads ([`rank_of_set`]). The tables come from `tables_gen.rs` at build
//! time. Ranks order hands: higher wins, equal ranks tie.

use std::fmt;

use super::cards::{card_set, check_deck_set, Card, Rank, Suit};
use super::tables::{
    CATEGORY_SIZES, CLASS_RANKS, FLUSH_LOOKUP, RANK_BASES, RANK_LOOKUP, RANK_OFFSETS, RANK_SHIFT,
    SUIT_KEYSUM,
};
use crate::core::{CardSet64, Error, Result};

/// The category of a hand, weakest first. A royal flush is the ace-high straight flush.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Category {
    /// No pair, no straight, no flush.
    HighCard = 0,
    /// One pair.
    OnePair,
    /// Two pairs.
    TwoPair,
    /// Three of a kind.
    ThreeOfAKind,
    /// Five consecutive ranks (the ace may be low in the five-high straight).
    Straight,
    /// Five cards of one suit.
    Flush,
    /// Three of a kind and a pair.
    FullHouse,
    /// Four of a kind.
    FourOfAKind,
    /// A straight in one suit.
    StraightFlush,
}

impl Category {
    /// All categories, weakest first.
    pub const ALL: [Category; 9] = [
        Category::HighCard,
        Category::OnePair,
        Category::TwoPair,
        Category::ThreeOfAKind,
        Category::Straight,
        Category::Flush,
        Category::FullHouse,
        Category::FourOfAKind,
        Category::StraightFlush,
    ];

    /// The name in words: `high card` .. `straight flush`.
    pub const fn name(self) -> &'static str {
        [
            "high card",
            "one pair",
            "two pair",
            "three of a kind",
            "straight",
            "flush",
            "full house",
            "four of a kind",
            "straight flush",
        ][self as usize]
    }

    /// The number of distinct hand classes of this category among five-card hands.
    pub const fn classes(self) -> u16 {
        CATEGORY_SIZES[self as usize]
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Number of distinct hand classes (distinct ranks of five-card hands).
pub const HAND_CLASSES: u16 = 7462;

/// The rank of a hand: `category << 12 | index`, where `index` orders the classes of one
/// category. Higher is better; equal ranks tie.
///
/// ```
/// use cardvec::poker::{evaluate, parse_cards, Category};
/// let rank = evaluate(&parse_cards("As Ks Qs Js Ts 2h 3d").unwrap()).unwrap();
/// assert_eq!(rank.category(), Category::StraightFlush);
/// assert_eq!(rank.name(), "royal flush");
/// assert_eq!(rank.ordinal(), 7462);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(transparent)]
pub struct HandRank(pub u16);

impl HandRank {
    /// The category.
    #[inline]
    pub const fn category(self) -> Category {
        let c = (self.0 >> 12) as usize;
        Category::ALL[if c < 9 { c } else { 8 }]
    }

    /// The position of the class among all 7,462, from 1 (seven-five-high) to 7,462 (royal
    /// flush). phevaluator's rank of the same hand is `7463 - ordinal`.
    pub const fn ordinal(self) -> u16 {
        let mut start = 0;
        let mut c = 0;
        while c < self.category() as usize {
            start += CATEGORY_SIZES[c];
            c += 1;
        }
        start + (self.0 & 0xfff) + 1
    }

    /// The rank of the class of ordinal `ordinal` (`1..=7462`).
    pub fn from_ordinal(ordinal: u16) -> Result<HandRank> {
        Error::check_range("hand ordinal", 1, HAND_CLASSES, ordinal)?;
        let mut index = ordinal - 1;
        for (c, &size) in CATEGORY_SIZES.iter().enumerate() {
            if index < size {
                return Ok(HandRank(((c as u16) << 12) | index));
            }
            index -= size;
        }
        unreachable!("the sizes add up to HAND_CLASSES")
    }

    /// The five ranks of the class in display order: the made part first, then the kickers
    /// (`[Q, Q, Q, 2, 2]`, `[5, 4, 3, 2, A]` for the wheel).
    pub fn ranks(self) -> [Rank; 5] {
        let ordinal = self.ordinal().clamp(1, HAND_CLASSES);
        CLASS_RANKS[ordinal as usize - 1].map(|r| Rank::ALL[r as usize % 13])
    }

    /// The hand's name in words, as the seed notebook says it: "full house, threes over
    /// twos", "straight, five-high", "flush, ace-high", "two pair, aces and kings", "royal
    /// flush".
    pub fn name(self) -> String {
        let r = self.ranks();
        let category = self.category();
        match category {
            Category::StraightFlush if r[0] == Rank::Ace => "royal flush".to_string(),
            Category::StraightFlush | Category::Straight | Category::Flush | Category::HighCard => {
                format!("{category}, {}-high", r[0].word())
            }
            Category::FourOfAKind | Category::ThreeOfAKind | Category::OnePair => {
                format!("{category}, {}", r[0].plural())
            }
            Category::FullHouse => format!("{category}, {} over {}", r[0].plural(), r[3].plural()),
            Category::TwoPair => format!("{category}, {} and {}", r[0].plural(), r[2].plural()),
        }
    }
}

impl fmt::Display for HandRank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// Key of each card: rank key in the high word, one suit counter bit in the low word.
const CARD_KEYS: [u64; 52] = {
    let mut keys = [0u64; 52];
    let mut id = 0;
    while id < 52 {
        keys[id] = (RANK_BASES[id % 13] as u64) << 32 | 1u64 << (4 * (id / 13));
        id += 1;
    }
    keys
};

/// Suit counters start at 3: bit 3 of a counter is set once the suit has five cards.
const SUIT_COUNTERS_START: u64 = 0x3333;
const FLUSH_BITS: u64 = 0x8888;

/// A hand being built for evaluation: the sum of its card keys and its card set.
///
/// Meant for up to seven distinct cards: [`Hand::rank`] is the hand's rank when it holds five
/// to seven distinct cards; for anything else it is a meaningless value (it never panics).
/// [`Hand::from_cards`] and [`Hand::try_add`] check; [`Hand::add`] does not, for enumeration.
///
/// ```
/// use cardvec::poker::{Hand, parse_cards, Category};
/// let board = Hand::from_cards(&parse_cards("Ah Kh 7h 2h 9d").unwrap()).unwrap();
/// let hero = board.add("Qh".parse().unwrap()).add("3s".parse().unwrap());
/// assert_eq!(hero.rank().category(), Category::Flush);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Hand {
    key: u64,
    cards: CardSet64,
}

impl Default for Hand {
    fn default() -> Self {
        Hand::EMPTY
    }
}

impl Hand {
    /// The hand of no cards.
    pub const EMPTY: Hand = Hand {
        key: SUIT_COUNTERS_START,
        cards: CardSet64::EMPTY,
    };

    /// The hand of `cards` (at most seven, distinct).
    pub fn from_cards(cards: &[Card]) -> Result<Hand> {
        if cards.len() > 7 {
            return Err(Error::Invalid {
                what: "hand",
                reason: format!("at most 7 cards, got {}", cards.len()),
            });
        }
        card_set(cards)?;
        Ok(cards.iter().fold(Hand::EMPTY, |h, &c| h.add(c)))
    }

    /// This hand plus `card`, without checks (see the type's documentation).
    #[inline]
    pub const fn add(self, card: Card) -> Hand {
        Hand {
            key: self.key.wrapping_add(CARD_KEYS[card.id() as usize]),
            cards: CardSet64(self.cards.0 | 1u64 << card.id()),
        }
    }

    /// This hand plus `card`, or an error if the card is already in it or the hand is full.
    pub fn try_add(self, card: Card) -> Result<Hand> {
        if self.cards.contains(card.id()) {
            return Err(Error::Invalid {
                what: "hand",
                reason: format!("{card} is already in the hand"),
            });
        }
        if self.len() >= 7 {
            return Err(Error::Invalid {
                what: "hand",
                reason: "a hand holds at most 7 cards".to_string(),
            });
        }
        Ok(self.add(card))
    }

    /// This hand plus every card of `other` (the hands must not share cards).
    #[inline]
    pub const fn combine(self, other: Hand) -> Hand {
        Hand {
            key: self
                .key
                .wrapping_add(other.key)
                .wrapping_sub(SUIT_COUNTERS_START),
            cards: CardSet64(self.cards.0 | other.cards.0),
        }
    }

    /// The cards of the hand.
    #[inline]
    pub const fn cards(self) -> CardSet64 {
        self.cards
    }

    /// The number of cards.
    #[inline]
    pub const fn len(self) -> u32 {
        self.cards.0.count_ones()
    }

    /// Whether the hand has no cards.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.cards.0 == 0
    }

    /// The rank of the best five cards (meaningful for five to seven distinct cards).
    #[inline]
    pub fn rank(self) -> HandRank {
        let flush = self.key & FLUSH_BITS;
        if flush != 0 {
            let suit = flush.trailing_zeros() / 4;
            let mask = (self.cards.0 >> (13 * suit)) & 0x1fff;
            HandRank(FLUSH_LOOKUP[mask as usize])
        } else {
            HandRank(rank_of_key((self.key >> 32) as u32))
        }
    }
}

/// The rank of a non-flush hand from its rank-key sum, through the perfect hash.
#[inline]
fn rank_of_key(key: u32) -> u16 {
    let row = (key >> RANK_SHIFT) as usize;
    let offset = RANK_OFFSETS.get(row).copied().unwrap_or(0);
    let slot = key.wrapping_add(offset) as usize;
    RANK_LOOKUP.get(slot).copied().unwrap_or(0)
}

/// The rank of the best five cards of `set`, without checks: meaningful when `set` holds five
/// to seven cards of the deck, a meaningless value (never a panic) otherwise.
#[inline]
pub fn rank_of_set(set: CardSet64) -> HandRank {
    let bits = set.0;
    let masks = [
        (bits & 0x1fff) as usize,
        ((bits >> 13) & 0x1fff) as usize,
        ((bits >> 26) & 0x1fff) as usize,
        ((bits >> 39) & 0x1fff) as usize,
    ];
    // A suit with five cards or more decides (no quads or full house then); otherwise the
    // flush table gives 0 for every suit and the rank multiset decides.
    let flush = FLUSH_LOOKUP[masks[0]]
        .max(FLUSH_LOOKUP[masks[1]])
        .max(FLUSH_LOOKUP[masks[2]])
        .max(FLUSH_LOOKUP[masks[3]]);
    let key = SUIT_KEYSUM[masks[0]]
        .wrapping_add(SUIT_KEYSUM[masks[1]])
        .wrapping_add(SUIT_KEYSUM[masks[2]])
        .wrapping_add(SUIT_KEYSUM[masks[3]]);
    HandRank(flush.max(rank_of_key(key)))
}

fn check_count(n: usize) -> Result<()> {
    if (5..=7).contains(&n) {
        Ok(())
    } else {
        Err(Error::Invalid {
            what: "hand",
            reason: format!("a hand to evaluate has 5 to 7 cards, got {n}"),
        })
    }
}

/// The rank of the best five of `cards` (five to seven distinct cards).
///
/// ```
/// use cardvec::poker::{evaluate, parse_cards};
/// let rank = |s| evaluate(&parse_cards(s).unwrap()).unwrap();
/// assert!(rank("2c 2d 3h 3s 3c") > rank("Ac Ad Ah Kc Qs 2s"));
/// assert_eq!(rank("As 2d 3h 4s 5c").name(), "straight, five-high");
/// assert!(evaluate(&parse_cards("As Kd").unwrap()).is_err());
/// ```
pub fn evaluate(cards: &[Card]) -> Result<HandRank> {
    check_count(cards.len())?;
    Ok(Hand::from_cards(cards)?.rank())
}

/// The rank of the best five cards of `set` (five to seven cards of the deck).
pub fn evaluate_set(set: CardSet64) -> Result<HandRank> {
    check_deck_set(set)?;
    check_count(set.len() as usize)?;
    Ok(rank_of_set(set))
}

/// The five cards that make the best hand among `cards` (five to seven distinct cards), in
/// display order (the made part first, then kickers), with their rank.
///
/// ```
/// use cardvec::poker::{best_five, parse_cards};
/// let (rank, five) = best_five(&parse_cards("2c 2d 3h 3s 3c 8h Td").unwrap()).unwrap();
/// assert_eq!(rank.name(), "full house, threes over twos");
/// let shown: Vec<String> = five.iter().map(|c| c.to_string()).collect();
/// assert_eq!(shown, ["3s", "3h", "3c", "2d", "2c"]);
/// ```
pub fn best_five(cards: &[Card]) -> Result<(HandRank, [Card; 5])> {
    let rank = evaluate(cards)?;
    let flush_suit = match rank.category() {
        Category::Flush | Category::StraightFlush => Suit::ALL
            .into_iter()
            .find(|&s| cards.iter().filter(|c| c.suit() == s).count() >= 5),
        _ => None,
    };
    let mut left: Vec<Card> = cards
        .iter()
        .copied()
        .filter(|c| flush_suit.is_none_or(|s| c.suit() == s))
        .collect();
    left.sort_by_key(|c| std::cmp::Reverse(c.suit()));
    let mut five = [cards[0]; 5];
    for (slot, r) in five.iter_mut().zip(rank.ranks()) {
        let at = left
            .iter()
            .position(|c| c.rank() == r)
            .ok_or(Error::Invalid {
                what: "hand",
                reason: "internal: best five not found".to_string(),
            })?;
        *slot = left.remove(at);
    }
    Ok((rank, five))
}

/// The indices of the best hands among `ranks` (several when they tie); empty for no hands.
///
/// ```
/// use cardvec::poker::{winners, HandRank};
/// assert_eq!(winners(&[HandRank(5), HandRank(9), HandRank(9)]), vec![1, 2]);
/// ```
pub fn winners(ranks: &[HandRank]) -> Vec<usize> {
    let best = ranks.iter().max();
    ranks
        .iter()
        .enumerate()
        .filter(|(_, r)| Some(*r) == best)
        .map(|(i, _)| i)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::poker::parse_cards;

    fn rank(text: &str) -> HandRank {
        evaluate(&parse_cards(text).unwrap()).unwrap()
    }

    fn name(text: &str) -> String {
        rank(text).name()
    }

    #[test]
    fn seed_notebook_hands_are_named_in_its_words() {
        assert_eq!(name("As Ks Qs Js Ts 4h 6d"), "royal flush");
        assert_eq!(name("3s 4s 5s 6s 7s Th Qd"), "straight flush, seven-high");
        assert_eq!(name("2s 2h 2d 2c 6s 9h Qd"), "four of a kind, twos");
        assert_eq!(name("2s 2h 3s 3d 3c 8h Td"), "full house, threes over twos");
        assert_eq!(name("2s 4s 6s 8s Ts 5h 9d"), "flush, ten-high");
        assert_eq!(name("3s 4h 5d 6c 7s Th Qd"), "straight, seven-high");
        assert_eq!(name("2s 2h 2d 5s 7h 9d Jc"), "three of a kind, twos");
        assert_eq!(name("2s 2h 3d 3c 6s 8h Td"), "two pair, threes and twos");
        assert_eq!(name("2s 2h 5s 7h 9d Jc Ks"), "one pair, twos");
        assert_eq!(name("2s 4h 6d 8c Ts Qh Ad"), "high card, ace-high");
    }

    #[test]
    fn wheel_is_a_five_high_straight() {
        assert_eq!(name("As 2h 3d 4c 5s"), "straight, five-high");
        assert!(rank("As 2h 3d 4c 5s") < rank("2s 3h 4d 5c 6s"));
        assert!(rank("As 2h 3d 4c 5s") > rank("As Ah Ad Kc Qs"));
        assert_eq!(rank("As 2s 3s 4s 5s").ranks()[4], Rank::Ace);
    }

    #[test]
    fn ace_high_straight_without_flush_is_not_royal() {
        assert_eq!(name("Ts Jh Qd Kc As 3h 6d"), "straight, ace-high");
    }

    #[test]
    fn straight_and_flush_from_different_cards_is_a_flush() {
        assert_eq!(name("2s 4s 6s 8s Ts 5h 7h"), "flush, ten-high");
        assert_eq!(name("As Ks Qs Js 5s Th 3h"), "flush, ace-high");
    }

    #[test]
    fn straight_flush_hidden_under_higher_flush_cards_is_found() {
        assert_eq!(name("2s 3s 4s 5s 6s 8s Ks"), "straight flush, six-high");
    }

    #[test]
    fn two_trips_make_a_full_house() {
        assert_eq!(name("2s 2h 2d 3s 3h 3d Kc"), "full house, threes over twos");
    }

    #[test]
    fn three_pairs_use_the_best_kicker() {
        // The third pair's rank beats the single card as kicker.
        let r = rank("Ks Kh Qs Qh 9s 9h 2c");
        assert_eq!(
            r.ranks(),
            [Rank::King, Rank::King, Rank::Queen, Rank::Queen, Rank::Nine]
        );
        assert_eq!(r, rank("Ks Kh Qs Qh 9d"));
        assert!(r < rank("Ks Kh Qs Qh Td"));
    }

    #[test]
    fn ties_compare_equal_across_suits() {
        assert_eq!(rank("As Kd 9h 7c 4s 3h 2d"), rank("Ah Kc 9s 7d 4h 3c 2s"));
        assert_eq!(
            winners(&[rank("Ah Ad 3c 4d 9s"), rank("Ac As 3h 4s 9d")]),
            vec![0, 1]
        );
    }

    #[test]
    fn set_and_hand_paths_agree_with_the_card_path() {
        for text in [
            "As Ks Qs Js Ts 2h 3d",
            "2c 3c 4c 5c 7d",
            "Kh Kd Kc 9s 9d 2c",
        ] {
            let cards = parse_cards(text).unwrap();
            let set = card_set(&cards).unwrap();
            assert_eq!(evaluate_set(set).unwrap(), evaluate(&cards).unwrap());
        }
    }

    #[test]
    fn ordinals_run_from_one_to_7462() {
        assert_eq!(rank("7s 5h 4d 3c 2s").ordinal(), 1);
        assert_eq!(rank("As Ks Qs Js Ts").ordinal(), 7462);
        for o in [1, 1277, 1278, 7452, 7462] {
            assert_eq!(HandRank::from_ordinal(o).unwrap().ordinal(), o);
        }
        assert!(HandRank::from_ordinal(0).is_err());
        assert!(HandRank::from_ordinal(7463).is_err());
    }

    #[test]
    fn bad_hands_are_errors() {
        let cards = parse_cards("As Ks Qs Js").unwrap();
        assert!(evaluate(&cards).is_err());
        let eight = parse_cards("As Ks Qs Js Ts 9s 8s 7s").unwrap();
        assert!(evaluate(&eight).is_err());
        assert!(Hand::from_cards(&eight).is_err());
        let dup = [cards[0], cards[0], cards[1], cards[2], cards[3]];
        assert!(evaluate(&dup).is_err());
        assert!(evaluate_set(CardSet64(0x1f << 52)).is_err());
        assert!(Hand::EMPTY.add(cards[0]).try_add(cards[0]).is_err());
    }

    #[test]
    fn unchecked_paths_never_panic() {
        for bits in [0u64, u64::MAX, 0x1f, 1 << 63, 0xdead_beef_dead_beef] {
            let _ = rank_of_set(CardSet64(bits));
        }
        let mut h = Hand::EMPTY;
        for c in Card::all() {
            h = h.add(c);
            let _ = h.rank();
        }
        let _ = HandRank(u16::MAX).name();
    }
}
