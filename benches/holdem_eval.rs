//! Hold'em evaluator throughput, side by side with `aya_poker` (an OMPEval-style evaluator
//! on crates.io; b-inary's `holdem-hand-evaluator` is not published there, see
//! docs/holdem-evaluator.md).
//!
//! - `enumerate`: every seven-card hand once, built incrementally by nested loops.
//! - `random`: a pre-generated array of random seven-card hands, evaluated in order (each
//!   library's own hand type; ours also as plain card sets and through the batch evaluator).
//!
//! Run: `cargo bench --bench holdem_eval`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

use cardvec::core::{CardSet64, LaneRng};
use cardvec::poker::{rank_hands, rank_of_set, rank_sets, Card, Hand, HandRank};

const RANDOM_HANDS: usize = 1 << 20;
const ALL_SEVEN: u64 = 133_784_560;

fn aya_card(c: Card) -> aya_poker::base::Card {
    c.to_string().parse().expect("aya_poker parses every card")
}

/// Random seven-card hands (card ids), from a fixed stream.
fn random_hands() -> Vec<[Card; 7]> {
    let mut rng = LaneRng::from_seed(2024);
    let deck: Vec<Card> = Card::all().collect();
    (0..RANDOM_HANDS)
        .map(|_| {
            let mut d = deck.clone();
            for i in 0..7 {
                let j = i + rng.below((52 - i) as u32) as usize;
                d.swap(i, j);
            }
            [d[0], d[1], d[2], d[3], d[4], d[5], d[6]]
        })
        .collect()
}

fn enumerate_cardvec() -> u64 {
    let deck: Vec<Hand> = Card::all().map(|c| Hand::EMPTY.add(c)).collect();
    let mut sum = 0u64;
    for a in 0..52 {
        let h1 = deck[a];
        for b in a + 1..52 {
            let h2 = h1.combine(deck[b]);
            for c in b + 1..52 {
                let h3 = h2.combine(deck[c]);
                for d in c + 1..52 {
                    let h4 = h3.combine(deck[d]);
                    for e in d + 1..52 {
                        let h5 = h4.combine(deck[e]);
                        for f in e + 1..52 {
                            let h6 = h5.combine(deck[f]);
                            for &last in &deck[f + 1..] {
                                sum += h6.combine(last).rank().0 as u64;
                            }
                        }
                    }
                }
            }
        }
    }
    sum
}

fn enumerate_aya() -> u64 {
    use aya_poker::base::Hand as AyaHand;
    let cards: Vec<aya_poker::base::Card> = Card::all().map(aya_card).collect();
    let mut sum = 0u64;
    let with = |h: AyaHand, c: &aya_poker::base::Card| {
        let mut h = h;
        h.insert_unchecked(c);
        h
    };
    for a in 0..52 {
        let h1 = with(AyaHand::new(), &cards[a]);
        for b in a + 1..52 {
            let h2 = with(h1, &cards[b]);
            for c in b + 1..52 {
                let h3 = with(h2, &cards[c]);
                for d in c + 1..52 {
                    let h4 = with(h3, &cards[d]);
                    for e in d + 1..52 {
                        let h5 = with(h4, &cards[e]);
                        for f in e + 1..52 {
                            let h6 = with(h5, &cards[f]);
                            for last in &cards[f + 1..] {
                                sum += aya_poker::poker_rank(&with(h6, last)).0 as u64;
                            }
                        }
                    }
                }
            }
        }
    }
    sum
}

fn bench_enumerate(c: &mut Criterion) {
    let mut group = c.benchmark_group("holdem_enumerate_7card");
    group.sample_size(10);
    group.throughput(Throughput::Elements(ALL_SEVEN));
    group.bench_function("cardvec", |b| b.iter(|| black_box(enumerate_cardvec())));
    group.bench_function("aya_poker", |b| b.iter(|| black_box(enumerate_aya())));
    group.finish();
}

fn bench_random(c: &mut Criterion) {
    let hands = random_hands();
    let ours: Vec<Hand> = hands
        .iter()
        .map(|h| h.iter().fold(Hand::EMPTY, |acc, &c| acc.add(c)))
        .collect();
    let sets: Vec<CardSet64> = ours.iter().map(|h| h.cards()).collect();
    let theirs: Vec<aya_poker::base::Hand> = hands
        .iter()
        .map(|h| h.iter().map(|&c| aya_card(c)).collect())
        .collect();
    let mut out = vec![HandRank::default(); sets.len()];
    let single = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a one-thread pool");

    let mut group = c.benchmark_group("holdem_random_7card");
    group.throughput(Throughput::Elements(RANDOM_HANDS as u64));
    group.bench_function("cardvec_hand", |b| {
        b.iter(|| {
            black_box(&ours)
                .iter()
                .map(|h| h.rank().0 as u64)
                .sum::<u64>()
        })
    });
    group.bench_function("cardvec_set", |b| {
        b.iter(|| {
            black_box(&sets)
                .iter()
                .map(|&s| rank_of_set(s).0 as u64)
                .sum::<u64>()
        })
    });
    group.bench_function("cardvec_batch_sets_1_thread", |b| {
        b.iter(|| single.install(|| rank_sets(black_box(&sets), &mut out)))
    });
    group.bench_function("cardvec_batch_sets_all_threads", |b| {
        b.iter(|| rank_sets(black_box(&sets), &mut out))
    });
    group.bench_function("cardvec_batch_hands_1_thread", |b| {
        b.iter(|| single.install(|| rank_hands(black_box(&ours), &mut out)))
    });
    group.bench_function("cardvec_batch_hands_all_threads", |b| {
        b.iter(|| rank_hands(black_box(&ours), &mut out))
    });
    group.bench_function("aya_poker", |b| {
        b.iter(|| {
            black_box(&theirs)
                .iter()
                .map(|h| aya_poker::poker_rank(h).0 as u64)
                .sum::<u64>()
        })
    });
    group.finish();
}

criterion_group!(benches, bench_random, bench_enumerate);
criterion_main!(benches);
