//! The batch evaluator: ranks many card sets at once, split over rayon's threads in chunks.
//!
//! Each hand costs eight loads from small tables (suit masks to key sums and flush ranks) and
//! two dependent loads through the perfect hash; a chunk evaluates its hands in a straight
//! loop so the processor overlaps the loads of neighbouring hands. Results do not depend on
//! the number of threads.

use rayon::prelude::*;

use super::cards::FULL_DECK;
use super::eval::{rank_of_set, Hand, HandRank};
use crate::core::{CardSet64, Error, Result};

/// Hands per parallel task.
const CHUNK: usize = 1 << 14;

fn rank_chunk(sets: &[CardSet64], out: &mut [HandRank]) {
    for (o, &s) in out.iter_mut().zip(sets) {
        *o = rank_of_set(s);
    }
}

/// Writes the rank of `sets[i]` to `out[i]`, in parallel, without checking the hands (see
/// [`rank_of_set`]); an error only if the lengths differ.
pub fn rank_sets(sets: &[CardSet64], out: &mut [HandRank]) -> Result<()> {
    Error::check_len("ranks output", sets.len(), out.len())?;
    if sets.len() <= CHUNK {
        rank_chunk(sets, out);
    } else {
        out.par_chunks_mut(CHUNK)
            .zip(sets.par_chunks(CHUNK))
            .for_each(|(o, s)| rank_chunk(s, o));
    }
    Ok(())
}

/// Writes the rank of `hands[i]` to `out[i]`, in parallel (see [`Hand::rank`]); an error
/// only if the lengths differ. Prepared hands skip the four key-sum and four flush loads of a
/// card set, so this is the faster batch when the hands already exist (enumerations).
pub fn rank_hands(hands: &[Hand], out: &mut [HandRank]) -> Result<()> {
    Error::check_len("ranks output", hands.len(), out.len())?;
    let kernel = |h: &[Hand], o: &mut [HandRank]| {
        for (o, h) in o.iter_mut().zip(h) {
            *o = h.rank();
        }
    };
    if hands.len() <= CHUNK {
        kernel(hands, out);
    } else {
        out.par_chunks_mut(CHUNK)
            .zip(hands.par_chunks(CHUNK))
            .for_each(|(o, h)| kernel(h, o));
    }
    Ok(())
}

/// Like [`rank_sets`], after checking that every set holds five to seven cards of the deck;
/// on an error `out` is left unchanged.
///
/// ```
/// use cardvec::core::CardSet64;
/// use cardvec::poker::{evaluate_sets, HandRank};
/// let hands = [CardSet64(0b11111), CardSet64(0b1_1111_0000_0000)];
/// let mut ranks = [HandRank::default(); 2];
/// evaluate_sets(&hands, &mut ranks).unwrap();
/// assert!(ranks[1] > ranks[0]);
/// assert!(evaluate_sets(&[CardSet64(0b111)], &mut ranks[..1]).is_err());
/// ```
pub fn evaluate_sets(sets: &[CardSet64], out: &mut [HandRank]) -> Result<()> {
    Error::check_len("ranks output", sets.len(), out.len())?;
    let bad = sets
        .par_iter()
        .position_first(|s| s.0 & !FULL_DECK.0 != 0 || !(5..=7).contains(&s.len()));
    if let Some(i) = bad {
        return Err(Error::Invalid {
            what: "hand batch",
            reason: format!(
                "hand {i} ({:#x}) is not 5 to 7 cards of the 52-card deck",
                sets[i].0
            ),
        });
    }
    rank_sets(sets, out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::LaneRng;
    use crate::poker::{evaluate_set, Deck};

    #[test]
    fn batch_matches_single_evaluation_for_any_thread_count() {
        let mut rng = LaneRng::from_seed(11);
        let sets: Vec<CardSet64> = (0..50_000)
            .map(|i| {
                let mut deck = Deck::shuffled(&mut rng, CardSet64::EMPTY);
                let n = 5 + i % 3;
                let cards = deck.deal(n).unwrap();
                cards.iter().fold(CardSet64::EMPTY, |s, c| s | c.bit())
            })
            .collect();
        let single: Vec<HandRank> = sets.iter().map(|&s| evaluate_set(s).unwrap()).collect();
        for threads in [1, 2, 3] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let mut out = vec![HandRank::default(); sets.len()];
            pool.install(|| evaluate_sets(&sets, &mut out)).unwrap();
            assert_eq!(out, single);
            let hands: Vec<Hand> = sets
                .iter()
                .map(|s| super::super::cards::set_cards(*s).fold(Hand::EMPTY, |h, c| h.add(c)))
                .collect();
            let mut out = vec![HandRank::default(); sets.len()];
            pool.install(|| rank_hands(&hands, &mut out)).unwrap();
            assert_eq!(out, single);
        }
    }

    #[test]
    fn batch_rejects_wrong_lengths() {
        let mut out = vec![HandRank::default(); 2];
        assert!(rank_sets(&[CardSet64(0x1f)], &mut out).is_err());
    }
}
