//! 151 rules, one behaviour per test, on the fast engine (the reference engine is held to
//! the same behaviour by `cardvec diff 151` and the fuzz check): identical deals with
//! CPython, the official deck and deal, and bad input. The rules played from positions
//! written into the state are unit tests in `src/games/i151/rules_tests.rs`.

use cardvec::core::{Error, Game, LaneRng};
use cardvec::games::i151::*;

fn id(code: &str) -> u8 {
    (0..32u8)
        .find(|&c| card_code(c) == code)
        .expect("a card code")
}

fn set(codes: &[&str]) -> u32 {
    codes.iter().fold(0, |s, c| s | 1 << id(c))
}

#[test]
fn shuffles_match_cpython_for_committed_seeds() {
    let data = include_str!("data/i151_python_shuffles.txt");
    let mut cases = 0;
    for line in data.lines().filter(|l| !l.starts_with('#')) {
        let parts: Vec<&str> = line.split(';').map(str::trim).collect();
        let seed: MatchSeed = parts[0].parse().unwrap();
        let nums = |s: &str| {
            s.split_whitespace()
                .map(|x| x.parse::<u64>().unwrap())
                .collect::<Vec<_>>()
        };
        let mut deck: Vec<u8> = (0..32).collect();
        python_shuffle(seed, &mut deck);
        let expected: Vec<u8> = nums(parts[1]).into_iter().map(|x| x as u8).collect();
        assert_eq!(deck, expected, "deck of seed {seed}");
        let mut mt = Mt19937::from_python_int(seed);
        let bits: Vec<u64> = (0..8).map(|_| mt.getrandbits(32) as u64).collect();
        assert_eq!(bits, nums(parts[2]), "getrandbits of seed {seed}");
        for (n, want) in [1, 2, 3, 5, 7, 31, 32].into_iter().zip(nums(parts[3])) {
            assert_eq!(Mt19937::from_python_int(seed).randbelow(n) as u64, want);
        }
        cases += 1;
    }
    assert!(cases >= 100);
}

/// MT19937 as `mt19937ar.c` writes it: `init_genrand`, `init_by_array` reading back the
/// array, and the block twist of all 624 words when the state is used up. An independent
/// transcription, the specification of the lazy (word by word) generator.
struct BlockMt {
    mt: [u32; 624],
    mti: usize,
}

impl BlockMt {
    fn from_key(key: &[u32]) -> BlockMt {
        let mut mt = [0u32; 624];
        mt[0] = 19_650_218;
        for i in 1..624 {
            mt[i] = 1_812_433_253u32
                .wrapping_mul(mt[i - 1] ^ (mt[i - 1] >> 30))
                .wrapping_add(i as u32);
        }
        let (mut i, mut j) = (1usize, 0usize);
        for _ in 0..624.max(key.len()) {
            mt[i] = (mt[i] ^ (mt[i - 1] ^ (mt[i - 1] >> 30)).wrapping_mul(1_664_525))
                .wrapping_add(key[j])
                .wrapping_add(j as u32);
            i += 1;
            j += 1;
            if i >= 624 {
                mt[0] = mt[623];
                i = 1;
            }
            if j >= key.len() {
                j = 0;
            }
        }
        for _ in 0..623 {
            mt[i] = (mt[i] ^ (mt[i - 1] ^ (mt[i - 1] >> 30)).wrapping_mul(1_566_083_941))
                .wrapping_sub(i as u32);
            i += 1;
            if i >= 624 {
                mt[0] = mt[623];
                i = 1;
            }
        }
        mt[0] = 0x8000_0000;
        BlockMt { mt, mti: 624 }
    }

    fn next_u32(&mut self) -> u32 {
        const MAG: [u32; 2] = [0, 0x9908_B0DF];
        if self.mti >= 624 {
            let mt = &mut self.mt;
            for k in 0..624 - 397 {
                let y = (mt[k] & 0x8000_0000) | (mt[k + 1] & 0x7FFF_FFFF);
                mt[k] = mt[k + 397] ^ (y >> 1) ^ MAG[(y & 1) as usize];
            }
            for k in 624 - 397..623 {
                let y = (mt[k] & 0x8000_0000) | (mt[k + 1] & 0x7FFF_FFFF);
                mt[k] = mt[k + 397 - 624] ^ (y >> 1) ^ MAG[(y & 1) as usize];
            }
            let y = (mt[623] & 0x8000_0000) | (mt[0] & 0x7FFF_FFFF);
            mt[623] = mt[396] ^ (y >> 1) ^ MAG[(y & 1) as usize];
            self.mti = 0;
        }
        let mut y = self.mt[self.mti];
        self.mti += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9D2C_5680;
        y ^= (y << 15) & 0xEFC6_0000;
        y ^ (y >> 18)
    }
}

#[test]
fn lazy_twist_equals_the_block_twist_across_seeds() {
    // The Python seeds of a match's rounds (small, 63-bit, negative, multi-word) and raw
    // keys of every length up to 5; 1,900 words each: three block twists, so every wrap
    // of the lazy index is crossed.
    let mut rng = LaneRng::from_seed(151);
    let mut seeds: Vec<i128> = vec![
        0,
        1,
        2,
        -1,
        151,
        u32::MAX as i128,
        1 << 32,
        i64::MAX as i128,
    ];
    seeds.extend((0..40).map(|_| (rng.next_u64() >> 1) as i128));
    seeds.extend((0..10).map(|_| -((rng.next_u64() >> 1) as i128)));
    seeds.extend((0..10).map(|_| ((rng.next_u64() as i128) << 64) | rng.next_u64() as i128));
    for seed in seeds {
        let magnitude = seed.unsigned_abs();
        let key: Vec<u32> = if magnitude == 0 {
            vec![0]
        } else {
            (0..4)
                .map(|w| (magnitude >> (32 * w)) as u32)
                .take((128 - magnitude.leading_zeros()).div_ceil(32) as usize)
                .collect()
        };
        let mut lazy = Mt19937::from_python_int(seed);
        let mut block = BlockMt::from_key(&key);
        for word in 0..1900 {
            assert_eq!(
                lazy.next_u32(),
                block.next_u32(),
                "seed {seed}, word {word}"
            );
        }
    }
    for len in 1..=5usize {
        for _ in 0..8 {
            let key: Vec<u32> = (0..len).map(|_| rng.next_u64() as u32).collect();
            let mut lazy = Mt19937::from_key(&key);
            let mut block = BlockMt::from_key(&key);
            for word in 0..1900 {
                assert_eq!(
                    lazy.next_u32(),
                    block.next_u32(),
                    "key {key:?}, word {word}"
                );
            }
        }
    }
}

#[test]
fn deck_order_and_points_follow_the_official_deck() {
    let codes: Vec<String> = (0..32).map(card_code).collect();
    assert_eq!(
        &codes[..8],
        &["AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S"]
    );
    assert_eq!(codes[31], "7C");
    assert_eq!(
        hand_points(set(&["8S", "AH", "QD", "KC", "JS", "7H", "9D", "TC"])),
        32 + 11 + 3 + 4 + 2 + 7 + 9 + 10
    );
}

#[test]
fn deal_is_round_robin_from_seat_zero_and_the_rest_is_the_bank() {
    let game = I151::new(3).unwrap();
    let s = game.reset_with_match_seed(41);
    let deck = I151::round_deck(41, 1);
    for (i, &c) in deck[..24].iter().enumerate() {
        assert!(s.hand(i % 3) >> c & 1 == 1);
    }
    assert_eq!(s.bank(), &deck[24..]);
    assert_eq!(game.current_player(&s), 1, "the seat after dealer 0 starts");
    assert_eq!(s.top_card(), None);
}

#[test]
fn four_players_are_dealt_seven_cards() {
    let game = I151::new(4).unwrap();
    let s = game.reset_with_match_seed(3);
    assert!((0..4).all(|p| s.hand(p).count_ones() == 7));
    assert_eq!(s.bank_len(), 4);
}

#[test]
fn bad_configuration_is_an_error() {
    assert!(matches!(I151::new(1), Err(Error::OutOfRange { .. })));
    assert!(matches!(I151::new(5), Err(Error::OutOfRange { .. })));
    assert!(I151::new(3).unwrap().with_cards_per_player(11).is_err());
    assert!(I151::new(2).unwrap().with_cards_per_player(0).is_err());
    assert!(I151::new(2).unwrap().with_cards_per_player(16).is_ok());
    assert!(I151::new(2).unwrap().with_initial_dealer(2).is_err());
}

#[test]
fn reset_from_order_deals_the_given_deck_and_rejects_non_permutations() {
    let game = I151::new(2).unwrap();
    let order: Vec<u8> = (0..32).rev().collect();
    let s = game.reset_from_order(&order).unwrap();
    assert_eq!(s.hand(0), (0..8).fold(0, |a, i| a | 1 << (31 - 2 * i)));
    assert_eq!(s.bank(), &order[16..]);
    let mut with_seed = order.clone();
    with_seed.extend(77i64.to_le_bytes());
    assert_eq!(
        game.reset_from_order(&with_seed).unwrap().match_seed(),
        MatchSeed::from(77i64)
    );
    assert!(game.reset_from_order(&order[..31]).is_err());
    let mut dup = order.clone();
    dup[0] = 1;
    assert!(game.reset_from_order(&dup).is_err());
}

/// The registry's (and so the CLI's `-o initial_dealer=`) first dealer is any integer taken
/// modulo the seats as Python's `%` does, as the official `create_match` takes
/// `initial_dealer_index`: with 4 seats, -1 and 7 both make seat 3 deal (seat 0 starts).
#[test]
fn registry_initial_dealer_is_taken_modulo_the_seats() {
    use cardvec::core::spec::{GameSpec, Options};
    for (text, dealer) in [
        ("-1", 3),
        ("7", 3),
        ("4", 0),
        ("-5", 3),
        ("-9223372036854775808", 0),
        ("9223372036854775807", 3),
    ] {
        let options = Options::parse(
            I151::INFO.options,
            &format!("num_players=4,initial_dealer={text}"),
        )
        .unwrap();
        let game = I151::configure(&options).unwrap();
        assert_eq!(game.initial_dealer(), dealer, "initial_dealer={text}");
        let s = game.reset_with_match_seed(5);
        assert_eq!(game.current_player(&s), (dealer + 1) % 4);
        // The configuration reports the seat.
        assert!(game
            .options()
            .to_string()
            .contains(&format!("initial_dealer={dealer}")));
    }
    let three = Options::parse(I151::INFO.options, "num_players=3,initial_dealer=-1").unwrap();
    assert_eq!(I151::configure(&three).unwrap().initial_dealer(), 2);
}
