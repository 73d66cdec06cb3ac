//! The reference evaluator: the rules written for clarity, to check the fast one against.
//!
//! It classifies every five-card subset of the hand by sorting ranks and counting them, the
//! way the seed notebook's `evaluate_hand` does, and keeps the best. It shares no code and no
//! table with `eval.rs` or the table generator; the exhaustive tests compare them hand by hand.

use super::cards::{Card, Rank};
use super::eval::Category;
use crate::core::{Error, Result};

/// A hand's value: its category and its five ranks in display order (the made part first,
/// then kickers). Comparing values compares hands.
pub type ReferenceValue = (Category, [Rank; 5]);

/// The value of exactly five cards.
fn five_card_value(cards: [Card; 5]) -> ReferenceValue {
    let mut ranks = cards.map(|c| c.rank());
    ranks.sort_by(|a, b| b.cmp(a));
    let flush = cards.iter().all(|c| c.suit() == cards[0].suit());
    let distinct = ranks.windows(2).all(|w| w[0] != w[1]);
    let wheel = ranks == [Rank::Ace, Rank::Five, Rank::Four, Rank::Three, Rank::Two];
    let straight = distinct && (wheel || ranks[0].index() - ranks[4].index() == 4);
    if wheel {
        ranks = [Rank::Five, Rank::Four, Rank::Three, Rank::Two, Rank::Ace];
    }
    if straight && flush {
        return (Category::StraightFlush, ranks);
    }
    // Group equal ranks: bigger groups first, then higher ranks.
    let mut groups: Vec<(usize, Rank)> = Vec::new();
    for r in ranks {
        match groups.iter_mut().find(|g| g.1 == r) {
            Some(g) => g.0 += 1,
            None => groups.push((1, r)),
        }
    }
    groups.sort_by(|a, b| b.cmp(a));
    let mut ordered = Vec::with_capacity(5);
    for &(n, r) in &groups {
        ordered.extend(std::iter::repeat_n(r, n));
    }
    let grouped = [ordered[0], ordered[1], ordered[2], ordered[3], ordered[4]];
    let shape: Vec<usize> = groups.iter().map(|g| g.0).collect();
    let category = match shape.as_slice() {
        [4, 1] => Category::FourOfAKind,
        [3, 2] => Category::FullHouse,
        _ if flush => Category::Flush,
        _ if straight => Category::Straight,
        [3, 1, 1] => Category::ThreeOfAKind,
        [2, 2, 1] => Category::TwoPair,
        [2, 1, 1, 1] => Category::OnePair,
        _ => Category::HighCard,
    };
    let ranks = if straight { ranks } else { grouped };
    (category, ranks)
}

/// The value of the best five of `cards` (five to seven distinct cards), trying every
/// five-card subset.
pub fn reference_value(cards: &[Card]) -> Result<ReferenceValue> {
    let n = cards.len();
    if !(5..=7).contains(&n) {
        return Err(Error::Invalid {
            what: "hand",
            reason: format!("a hand to evaluate has 5 to 7 cards, got {n}"),
        });
    }
    super::cards::card_set(cards)?;
    let mut best: Option<ReferenceValue> = None;
    // Every subset that leaves out `n - 5` cards.
    for skip in 0u32..1 << n {
        if skip.count_ones() as usize != n - 5 {
            continue;
        }
        let mut five = [cards[0]; 5];
        let mut k = 0;
        for (i, &c) in cards.iter().enumerate() {
            if skip >> i & 1 == 0 {
                five[k] = c;
                k += 1;
            }
        }
        let v = five_card_value(five);
        if best.is_none_or(|b| v > b) {
            best = Some(v);
        }
    }
    best.ok_or(Error::Invalid {
        what: "hand",
        reason: "no five-card subset".to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::poker::parse_cards;

    fn value(text: &str) -> ReferenceValue {
        reference_value(&parse_cards(text).unwrap()).unwrap()
    }

    #[test]
    fn reference_ranks_the_seed_examples() {
        assert_eq!(value("As Ks Qs Js Ts 4h 6d").0, Category::StraightFlush);
        assert_eq!(value("2s 3s 4s 5s 6s 8s Ks").0, Category::StraightFlush);
        assert_eq!(value("2s 4s 6s 8s Ts 5h 7h").0, Category::Flush);
        assert_eq!(value("As 2h 3d 4c 5s").1[0], Rank::Five);
        assert!(value("As 2h 3d 4c 5s") < value("2s 3h 4d 5c 6s"));
        assert_eq!(value("2s 2h 2d 3s 3h 3d Kc").0, Category::FullHouse);
    }
}
