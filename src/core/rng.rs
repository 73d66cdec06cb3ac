//! Lane random streams: every lane draws from a `Xoshiro256PlusPlus` keyed by
//! `(seed, lane, episode)`, so results never depend on threads or chunking.

use rand_core::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// SplitMix64 finalizer: a bijective mix of 64 bits.
#[inline]
pub(crate) fn splitmix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The random stream of one lane.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaneRng(Xoshiro256PlusPlus);

impl LaneRng {
    /// The stream for `(seed, lane, episode)`. Distinct keys give independent-looking streams.
    pub fn for_lane(seed: u64, lane: u64, episode: u64) -> Self {
        Self::for_key(Self::lane_key(seed, lane), episode)
    }

    /// The key of lane `lane` of a batch reset with `seed`: [`LaneRng::for_key`]`(key, e)`
    /// is [`LaneRng::for_lane`]`(seed, lane, e)`. A batch keeps one key per lane, so each lane
    /// may follow a seed of its own (`VecEnv::reset_seeds`).
    #[inline]
    pub fn lane_key(seed: u64, lane: u64) -> u64 {
        splitmix64(splitmix64(seed) ^ lane)
    }

    /// The stream of episode `episode` of the lane keyed `key` ([`LaneRng::lane_key`]).
    #[inline]
    pub fn for_key(key: u64, episode: u64) -> Self {
        LaneRng(Xoshiro256PlusPlus::seed_from_u64(splitmix64(
            key ^ episode.rotate_left(32),
        )))
    }

    /// A stream from a single 64-bit seed (for tools that need one stream, not a batch).
    pub fn from_seed(seed: u64) -> Self {
        LaneRng(Xoshiro256PlusPlus::seed_from_u64(seed))
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A uniform integer in `0..n` (`n > 0`), by Lemire's multiply-and-reject method.
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        debug_assert!(n > 0);
        let n64 = n as u64;
        loop {
            let x = self.next_u64() >> 32;
            let m = x * n64;
            let low = m as u32;
            if low >= n || low >= (n.wrapping_neg() % n) {
                return (m >> 32) as u32;
            }
        }
    }

    /// A uniform float in `[0, 1)`.
    #[inline]
    pub fn unit_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Shuffles `items` uniformly (Fisher–Yates from the end, the order every engine of this
    /// project uses so that two engines fed the same stream deal the same cards).
    #[inline]
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u32 + 1) as usize;
            items.swap(i, j);
        }
    }

    /// Picks the index of a uniformly random nonzero byte of `mask`, or `None` if all are zero.
    pub fn pick_set(&mut self, mask: &[u8]) -> Option<usize> {
        let count = mask.iter().filter(|&&m| m != 0).count();
        if count == 0 {
            return None;
        }
        let k = self.below(count as u32) as usize;
        mask.iter()
            .enumerate()
            .filter(|&(_, &m)| m != 0)
            .nth(k)
            .map(|(i, _)| i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_differ_by_lane_and_episode() {
        let a = LaneRng::for_lane(1, 0, 0).next_u64();
        let b = LaneRng::for_lane(1, 1, 0).next_u64();
        let c = LaneRng::for_lane(1, 0, 1).next_u64();
        let d = LaneRng::for_lane(2, 0, 0).next_u64();
        assert!(a != b && a != c && a != d && b != c);
        assert_eq!(a, LaneRng::for_lane(1, 0, 0).next_u64());
    }

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut rng = LaneRng::from_seed(7);
        let mut seen = [0u32; 7];
        for _ in 0..7000 {
            seen[rng.below(7) as usize] += 1;
        }
        assert!(seen.iter().all(|&c| c > 800 && c < 1200), "{seen:?}");
    }

    #[test]
    fn shuffle_is_a_permutation() {
        let mut rng = LaneRng::from_seed(3);
        let mut v: Vec<u32> = (0..60).collect();
        rng.shuffle(&mut v);
        let mut sorted = v.clone();
        sorted.sort();
        assert_eq!(sorted, (0..60).collect::<Vec<_>>());
        assert_ne!(v, sorted);
    }

    #[test]
    fn pick_set_only_picks_set_entries() {
        let mut rng = LaneRng::from_seed(9);
        let mask = [0u8, 1, 0, 0, 1, 0];
        for _ in 0..100 {
            let i = rng.pick_set(&mask).unwrap();
            assert!(i == 1 || i == 4);
        }
        assert_eq!(rng.pick_set(&[0, 0]), None);
    }
}
