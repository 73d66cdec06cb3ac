//! Suit isomorphism: when two suits are interchangeable (the board holds the same ranks in
//! both, and swapping them maps each player's weighted range onto itself), the turn or
//! river card of one suit leads to a subtree that is a mirror image of the subtree of the
//! same rank in the other suit. The tree marks such a card's subtree as a *mirror* of its
//! *representative* (the card of the lowest suit of its class) with the suit permutation
//! that maps the one onto the other; the solver then walks only representatives and reads a
//! mirror's values, strategies and EVs from its representative, hands permuted.
//!
//! The mapping is exact for a symmetric game: the ranges are symmetric (checked here), the
//! board is (checked per chance node), and the strategies above a chance node treat mirror
//! hands alike, which they do when every iteration sees symmetric values (up to f32
//! rounding). Node locks can make a game asymmetric, so the solver does not use the
//! mirrors while locks are in force.

use std::collections::HashMap;

use super::Spot;
use crate::core::CardSet64;

/// A permutation of the four suits: `perm[s]` is the image of suit `s` (suit ids as
/// [`crate::poker::Suit`]: clubs 0, diamonds 1, hearts 2, spades 3).
pub(super) type SuitPerm = [u8; 4];

/// The identity permutation.
pub(super) const IDENTITY: SuitPerm = [0, 1, 2, 3];

/// The 24 permutations of the four suits, the identity first: a node stores the index of
/// its permutation (`u8`).
pub(super) fn all_perms() -> &'static [SuitPerm; 24] {
    static PERMS: std::sync::OnceLock<[SuitPerm; 24]> = std::sync::OnceLock::new();
    PERMS.get_or_init(|| {
        let mut v = Vec::with_capacity(24);
        for a in 0..4u8 {
            for b in 0..4u8 {
                for c in 0..4u8 {
                    for d in 0..4u8 {
                        let p = [a, b, c, d];
                        let mut seen = 0u8;
                        p.iter().for_each(|&x| seen |= 1 << x);
                        if seen == 0xf {
                            v.push(p);
                        }
                    }
                }
            }
        }
        v.try_into().expect("4! permutations")
    })
}

/// The index of `perm` in [`all_perms`].
pub(super) fn perm_id(perm: SuitPerm) -> u8 {
    all_perms()
        .iter()
        .position(|&p| p == perm)
        .expect("a permutation of the four suits") as u8
}

/// `outer ∘ inner`: first `inner`, then `outer`.
pub(super) fn compose(outer: SuitPerm, inner: SuitPerm) -> SuitPerm {
    inner.map(|s| outer[s as usize])
}

/// The transposition of suits `a` and `b`.
pub(super) fn swap(a: u8, b: u8) -> SuitPerm {
    let mut p = IDENTITY;
    p.swap(a as usize, b as usize);
    p
}

/// The image of card id `card` (`13 · suit + rank`).
#[inline]
pub(super) fn map_card(perm: SuitPerm, card: u8) -> u8 {
    13 * perm[(card / 13) as usize] + card % 13
}

/// The image of a card set.
pub(super) fn map_set(perm: SuitPerm, set: CardSet64) -> CardSet64 {
    let mut out = 0u64;
    let mut bits = set.0;
    while bits != 0 {
        let c = bits.trailing_zeros() as u8;
        bits &= bits - 1;
        out |= 1 << map_card(perm, c);
    }
    CardSet64(out)
}

/// `swappable[a][b]`: swapping suits `a` and `b` maps both players' weighted ranges onto
/// themselves (a hand and its image have the same weight).
pub(super) fn range_symmetry(spot: &Spot) -> [[bool; 4]; 4] {
    let mut ok = [[true; 4]; 4];
    for p in 0..2 {
        let index: HashMap<u64, f32> = spot
            .hands(p)
            .iter()
            .zip(spot.weights(p))
            .map(|(h, &w)| (h.set().0, w))
            .collect();
        for a in 0..4u8 {
            for b in a + 1..4 {
                let perm = swap(a, b);
                let symmetric = spot.hands(p).iter().zip(spot.weights(p)).all(|(h, &w)| {
                    index
                        .get(&map_set(perm, h.set()).0)
                        .is_some_and(|&v| v.to_bits() == w.to_bits())
                });
                ok[a as usize][b as usize] &= symmetric;
                ok[b as usize][a as usize] &= symmetric;
            }
        }
    }
    ok
}

/// For each suit, the lowest suit it is interchangeable with on `board` (itself when
/// none): suits are interchangeable when `swappable` says so and the board holds the same
/// ranks in both.
pub(super) fn representatives(swappable: &[[bool; 4]; 4], board: CardSet64) -> [u8; 4] {
    let ranks = |s: u8| (board.0 >> (13 * s)) & 0x1fff;
    std::array::from_fn(|s| {
        let s = s as u8;
        (0..s)
            .find(|&m| swappable[m as usize][s as usize] && ranks(m) == ranks(s))
            .unwrap_or(s)
    })
}

/// Per player, hand `i`'s image under `perm` (an index into the same range): `None` when
/// an image is not in the range (a permutation the ranges are not symmetric under).
pub(super) fn hand_perm(spot: &Spot, perm: SuitPerm) -> Option<[Vec<u32>; 2]> {
    let mut out: [Vec<u32>; 2] = Default::default();
    for (p, o) in out.iter_mut().enumerate() {
        let index: HashMap<u64, u32> = spot
            .hands(p)
            .iter()
            .enumerate()
            .map(|(i, h)| (h.set().0, i as u32))
            .collect();
        for h in spot.hands(p) {
            o.push(*index.get(&map_set(perm, h.set()).0)?);
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permutations_compose_and_map_cards() {
        let perms = all_perms();
        assert_eq!(perms[0], IDENTITY);
        let mut sorted = perms.to_vec();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), 24);
        for &p in perms {
            assert_eq!(all_perms()[perm_id(p) as usize], p);
            for &q in perms {
                let pq = compose(p, q);
                for c in 0..52u8 {
                    assert_eq!(map_card(pq, c), map_card(p, map_card(q, c)));
                }
            }
        }
        // 7c (id 5) under clubs <-> hearts is 7h (id 31).
        assert_eq!(map_card(swap(0, 2), 5), 31);
        assert_eq!(
            map_set(swap(0, 2), CardSet64(1 << 5 | 1 << 31)).0,
            1 << 5 | 1 << 31
        );
    }

    #[test]
    fn representatives_need_equal_board_ranks_and_symmetric_ranges() {
        let all = [[true; 4]; 4];
        // Qs Jh 2h: clubs and diamonds are interchangeable, hearts and spades are not.
        let board: CardSet64 = ["Qs", "Jh", "2h"]
            .iter()
            .map(|c| c.parse::<crate::poker::Card>().unwrap().bit())
            .fold(CardSet64(0), |a, b| a | b);
        assert_eq!(representatives(&all, board), [0, 0, 2, 3]);
        // A monotone board: the other three suits are one class.
        let mono: CardSet64 = ["Ks", "7s", "2s"]
            .iter()
            .map(|c| c.parse::<crate::poker::Card>().unwrap().bit())
            .fold(CardSet64(0), |a, b| a | b);
        assert_eq!(representatives(&all, mono), [0, 0, 0, 3]);
        // Ranges not symmetric in clubs and diamonds: no class.
        let mut no = all;
        no[0][1] = false;
        no[1][0] = false;
        assert_eq!(representatives(&no, board), [0, 1, 2, 3]);
    }
}
