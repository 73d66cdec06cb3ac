//! Exhaustive checks of the hold'em evaluator and the equity fixture.
//!
//! The five-card check runs with the normal tests. The seven-card checks and the AA-vs-KK
//! fixture are long in debug builds; run them with
//! `cargo test --release --test integration -- --include-ignored holdem_exhaustive::`
//! (results are recorded in docs/holdem-evaluator.md).

use std::collections::{BTreeSet, HashMap};

use rayon::prelude::*;

use cardvec::core::CardSet64;
use cardvec::poker::reference::{reference_value, ReferenceValue};
use cardvec::poker::{
    equity, evaluate, rank_of_set, Card, EquityOptions, Hand, HandRank, Method, Range, HAND_CLASSES,
};

/// Category counts over all seven-card hands (high card .. straight flush).
const SEVEN_CARD_COUNTS: [u64; 9] = [
    23_294_460, 58_627_800, 31_433_400, 6_461_620, 6_180_020, 4_047_644, 3_473_184, 224_848, 41_584,
];

/// Category counts over all five-card hands.
const FIVE_CARD_COUNTS: [u64; 9] = [
    1_302_540, 1_098_240, 123_552, 54_912, 10_200, 5_108, 3_744, 624, 40,
];

fn deck() -> Vec<Card> {
    Card::all().collect()
}

fn all_five_card_hands() -> Vec<[Card; 5]> {
    let d = deck();
    let mut hands = Vec::with_capacity(2_598_960);
    for a in 0..52 {
        for b in a + 1..52 {
            for c in b + 1..52 {
                for e in c + 1..52 {
                    for f in e + 1..52 {
                        hands.push([d[a], d[b], d[c], d[e], d[f]]);
                    }
                }
            }
        }
    }
    hands
}

#[test]
fn five_card_hands_match_the_reference_class_by_class() {
    let hands = all_five_card_hands();
    assert_eq!(hands.len(), 2_598_960);
    let pairs: Vec<(HandRank, ReferenceValue)> = hands
        .par_iter()
        .map(|h| (evaluate(h).unwrap(), reference_value(h).unwrap()))
        .collect();
    // The reference's distinct values, in order, are the classes 1..=7462.
    let values: BTreeSet<ReferenceValue> = pairs.iter().map(|p| p.1).collect();
    assert_eq!(values.len(), HAND_CLASSES as usize);
    let ordinal: HashMap<ReferenceValue, u16> = values
        .iter()
        .enumerate()
        .map(|(i, v)| (*v, i as u16 + 1))
        .collect();
    let mut counts = [0u64; 9];
    for (rank, value) in &pairs {
        assert_eq!(rank.ordinal(), ordinal[value], "{value:?}");
        assert_eq!((rank.category(), rank.ranks()), *value);
        counts[rank.category() as usize] += 1;
    }
    assert_eq!(counts, FIVE_CARD_COUNTS);
    let distinct: BTreeSet<HandRank> = pairs.iter().map(|p| p.0).collect();
    assert_eq!(distinct.len(), 7462);
}

/// Calls `f` on every seven-card hand whose lowest card is `a`, built incrementally.
fn for_each_seven(a: usize, mut f: impl FnMut(Hand)) {
    let d = deck();
    let h1 = Hand::EMPTY.add(d[a]);
    for b in a + 1..52 {
        let h2 = h1.add(d[b]);
        for c in b + 1..52 {
            let h3 = h2.add(d[c]);
            for e in c + 1..52 {
                let h4 = h3.add(d[e]);
                for g in e + 1..52 {
                    let h5 = h4.add(d[g]);
                    for i in g + 1..52 {
                        let h6 = h5.add(d[i]);
                        for &last in &d[i + 1..] {
                            f(h6.add(last));
                        }
                    }
                }
            }
        }
    }
}

#[test]
#[ignore = "133,784,560 hands: run with --release --include-ignored"]
fn seven_card_category_counts_and_set_path() {
    let (counts, distinct) = (0..52usize)
        .into_par_iter()
        .map(|a| {
            let mut counts = [0u64; 9];
            let mut seen = vec![false; 1 << 16];
            for_each_seven(a, |h| {
                let r = h.rank();
                assert_eq!(rank_of_set(h.cards()), r);
                counts[r.category() as usize] += 1;
                seen[r.0 as usize] = true;
            });
            (counts, seen)
        })
        .reduce(
            || ([0u64; 9], vec![false; 1 << 16]),
            |(mut c, mut s), (c2, s2)| {
                for k in 0..9 {
                    c[k] += c2[k];
                }
                for (x, y) in s.iter_mut().zip(s2) {
                    *x |= y;
                }
                (c, s)
            },
        );
    assert_eq!(counts.iter().sum::<u64>(), 133_784_560);
    assert_eq!(counts, SEVEN_CARD_COUNTS);
    // Seven cards reach 4,824 of the 7,462 classes.
    assert_eq!(distinct.iter().filter(|&&x| x).count(), 4824);
}

#[test]
#[ignore = "133,784,560 hands against the reference (minutes): --release --include-ignored"]
fn seven_card_hands_match_the_reference() {
    let mismatches: u64 = (0..52usize)
        .into_par_iter()
        .map(|a| {
            let mut bad = 0u64;
            for_each_seven(a, |h| {
                let cards: Vec<Card> = CardSet64::iter(h.cards())
                    .filter_map(Card::from_id)
                    .collect();
                let r = h.rank();
                if (r.category(), r.ranks()) != reference_value(&cards).unwrap() {
                    bad += 1;
                }
            });
            bad
        })
        .sum();
    assert_eq!(mismatches, 0);
}

#[test]
#[cfg_attr(debug_assertions, ignore = "slow in debug builds: run with --release")]
fn aces_against_kings_preflop_matches_the_ompeval_fixture() {
    let players = [Range::parse("AA").unwrap(), Range::parse("KK").unwrap()];
    let options = EquityOptions {
        method: Method::Exact,
        ..Default::default()
    };
    let report = equity(&players, &options).unwrap();
    assert!(report.exact);
    assert_eq!(report.total, 36 * 1_712_304);
    assert_eq!(report.players[0].wins, 50_371_344);
    assert_eq!(report.players[1].wins, 10_986_372);
    assert_eq!(report.players[0].ties, 285_228);
    assert_eq!(report.players[1].ties, 285_228);
}
