//! Card bit sets: a set of up to 64 card ids in one `u64`, walked with `trailing_zeros`.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not, Sub};

/// A set of card ids `0..64`.
///
/// ```
/// use cardvec::core::CardSet64;
/// let hand = CardSet64::from_ids([3, 1, 40]);
/// assert!(hand.contains(40));
/// assert_eq!(hand.iter().collect::<Vec<_>>(), vec![1, 3, 40]);
/// assert_eq!((hand - CardSet64::single(3)).len(), 2);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(transparent)]
pub struct CardSet64(pub u64);

impl CardSet64 {
    /// The empty set.
    pub const EMPTY: CardSet64 = CardSet64(0);

    /// The set holding ids `0..n` (`n <= 64`).
    #[inline]
    pub const fn first(n: u32) -> CardSet64 {
        if n >= 64 {
            CardSet64(u64::MAX)
        } else {
            CardSet64((1u64 << n) - 1)
        }
    }

    /// The set holding only `id`.
    #[inline]
    pub const fn single(id: u8) -> CardSet64 {
        CardSet64(1u64 << id)
    }

    /// The set of the given ids.
    pub fn from_ids<I: IntoIterator<Item = u8>>(ids: I) -> CardSet64 {
        ids.into_iter()
            .fold(CardSet64::EMPTY, |s, id| s | CardSet64::single(id))
    }

    /// Whether `id` is in the set.
    #[inline]
    pub const fn contains(self, id: u8) -> bool {
        self.0 >> id & 1 != 0
    }

    /// Adds `id`.
    #[inline]
    pub fn insert(&mut self, id: u8) {
        self.0 |= 1u64 << id;
    }

    /// Removes `id`.
    #[inline]
    pub fn remove(&mut self, id: u8) {
        self.0 &= !(1u64 << id);
    }

    /// Number of ids in the set.
    #[inline]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The smallest id, if any.
    #[inline]
    pub const fn min(self) -> Option<u8> {
        if self.0 == 0 {
            None
        } else {
            Some(self.0.trailing_zeros() as u8)
        }
    }

    /// The largest id, if any.
    #[inline]
    pub const fn max(self) -> Option<u8> {
        if self.0 == 0 {
            None
        } else {
            Some(63 - self.0.leading_zeros() as u8)
        }
    }

    /// The `k`-th smallest id (0-based), if the set has more than `k` ids.
    #[inline]
    pub fn nth(self, k: u32) -> Option<u8> {
        let mut bits = self.0;
        for _ in 0..k {
            if bits == 0 {
                return None;
            }
            bits &= bits - 1;
        }
        CardSet64(bits).min()
    }

    /// Iterates the ids in increasing order.
    #[inline]
    pub fn iter(self) -> CardIter {
        CardIter(self.0)
    }
}

/// Iterator over the ids of a [`CardSet64`], smallest first.
#[derive(Clone, Copy, Debug)]
pub struct CardIter(u64);

impl Iterator for CardIter {
    type Item = u8;
    #[inline]
    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            None
        } else {
            let id = self.0.trailing_zeros() as u8;
            self.0 &= self.0 - 1;
            Some(id)
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for CardIter {}

impl IntoIterator for CardSet64 {
    type Item = u8;
    type IntoIter = CardIter;
    fn into_iter(self) -> CardIter {
        self.iter()
    }
}

impl BitOr for CardSet64 {
    type Output = CardSet64;
    #[inline]
    fn bitor(self, rhs: CardSet64) -> CardSet64 {
        CardSet64(self.0 | rhs.0)
    }
}

impl BitOrAssign for CardSet64 {
    #[inline]
    fn bitor_assign(&mut self, rhs: CardSet64) {
        self.0 |= rhs.0;
    }
}

impl BitAnd for CardSet64 {
    type Output = CardSet64;
    #[inline]
    fn bitand(self, rhs: CardSet64) -> CardSet64 {
        CardSet64(self.0 & rhs.0)
    }
}

impl BitAndAssign for CardSet64 {
    #[inline]
    fn bitand_assign(&mut self, rhs: CardSet64) {
        self.0 &= rhs.0;
    }
}

impl Sub for CardSet64 {
    type Output = CardSet64;
    /// Set difference.
    #[inline]
    fn sub(self, rhs: CardSet64) -> CardSet64 {
        CardSet64(self.0 & !rhs.0)
    }
}

impl Not for CardSet64 {
    type Output = CardSet64;
    #[inline]
    fn not(self) -> CardSet64 {
        CardSet64(!self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nth_walks_in_order() {
        let s = CardSet64::from_ids([5, 9, 63, 0]);
        assert_eq!(s.nth(0), Some(0));
        assert_eq!(s.nth(2), Some(9));
        assert_eq!(s.nth(3), Some(63));
        assert_eq!(s.nth(4), None);
        assert_eq!(s.max(), Some(63));
    }

    #[test]
    fn first_covers_exactly_n() {
        assert_eq!(CardSet64::first(60).len(), 60);
        assert_eq!(CardSet64::first(64).len(), 64);
        assert_eq!(CardSet64::first(0), CardSet64::EMPTY);
    }
}
