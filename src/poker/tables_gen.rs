//! Generator of the hand evaluator's lookup tables. `build.rs` compiles this file on its own
//! (it uses only `std`) and writes the tables to `$OUT_DIR/holdem_tables.rs`, which
//! `tables.rs` includes. It is not a module of the library.
//!
//! The tables:
//! - `RANK_BASES`: one key per rank such that the sums of any 0..=7 ranks (each at most four
//!   times) are all distinct (the constants of OMPEval; the generator checks the property).
//! - `RANK_LOOKUP` and `RANK_OFFSETS`: a displacement perfect hash from the rank-key sum of a
//!   hand without a flush to its rank: `RANK_LOOKUP[key + RANK_OFFSETS[key >> RANK_SHIFT]]`.
//! - `FLUSH_LOOKUP`: the rank of the best hand within one suit, indexed by the 13-bit mask of
//!   that suit's ranks (0 when fewer than five bits are set).
//! - `SUIT_KEYSUM`: the rank-key sum of a 13-bit rank mask, so that a hand given as a card set
//!   is keyed with four loads.
//! - `CLASS_RANKS`: for each of the 7,462 hand classes, weakest first, its five ranks in
//!   display order (the made part first, then kickers; the wheel ends with its ace).
//!
//! A rank is `category << 12 | index`, where `index` orders the classes of one category.
//! Values are computed here by rules written for clarity, not speed, from rank counts.

use std::collections::BTreeSet;
use std::fmt::Write;

/// Rank keys with distinct sums for every multiset of at most seven ranks, each at most four
/// times (from OMPEval, Henri Jääskeläinen).
pub const RANK_BASES: [u32; 13] = [
    0x2000, 0x8001, 0x11000, 0x3a000, 0x91000, 0x176005, 0x366000, 0x41a013, 0x47802e, 0x479068,
    0x48c0e4, 0x48f211, 0x494493,
];

/// Bits of a rank key kept per row of the perfect hash.
pub const RANK_SHIFT: u32 = 12;

/// The number of hand classes of each category, high card first.
pub const CATEGORY_SIZES: [usize; 9] = [1277, 2860, 858, 858, 10, 1277, 156, 156, 10];

const STRAIGHT: u16 = 4;
const FLUSH: u16 = 5;
const STRAIGHT_FLUSH: u16 = 8;

/// A hand's value: category and its five ranks in display order. Lexicographic order on it is
/// the poker order.
pub type Value = (u16, [u8; 5]);

/// The highest rank of the best straight among the ranks of `mask` (bit `r` = rank `r`),
/// counting the ace low in the five-high straight.
pub fn straight_top(mask: u16) -> Option<u8> {
    let wheel_ace = (mask >> 12) & 1;
    let m = (mask << 1 | wheel_ace) as u32; // bit 0: ace low, bit r + 1: rank r
    (4..14u32)
        .rev()
        .find(|&top| (m >> (top - 4)) & 0x1f == 0x1f)
        .map(|top| (top - 1) as u8)
}

fn straight_ranks(top: u8) -> [u8; 5] {
    let mut r = [0u8; 5];
    for (i, slot) in r.iter_mut().enumerate() {
        *slot = if top == 3 && i == 4 {
            12
        } else {
            top - i as u8
        };
    }
    r
}

/// The ranks of `mask`, highest first.
fn ranks_desc(mask: u16) -> Vec<u8> {
    (0..13u8).rev().filter(|&r| mask >> r & 1 == 1).collect()
}

/// The value of the best five cards within one suit whose ranks are `mask` (five or more bits).
pub fn flush_value(mask: u16) -> Value {
    match straight_top(mask) {
        Some(top) => (STRAIGHT_FLUSH, straight_ranks(top)),
        None => {
            let r = ranks_desc(mask);
            (FLUSH, [r[0], r[1], r[2], r[3], r[4]])
        }
    }
}

/// The value of the best five cards among ranks with multiplicities `counts` (five to seven
/// cards), ignoring suits (no flush).
pub fn counts_value(counts: &[u8; 13]) -> Value {
    // Ranks grouped by multiplicity, each group highest first.
    let group = |n: u8| -> Vec<u8> {
        (0..13u8)
            .rev()
            .filter(|&r| counts[r as usize] == n)
            .collect()
    };
    let (quads, trips, pairs) = (group(4), group(3), group(2));
    let present: u16 = (0..13)
        .filter(|&r| counts[r] > 0)
        .fold(0, |m, r| m | 1 << r);
    // The highest ranks not in `used`, as kickers.
    let kickers = |used: &[u8], n: usize| -> Vec<u8> {
        ranks_desc(present)
            .into_iter()
            .filter(|r| !used.contains(r))
            .take(n)
            .collect()
    };
    if let Some(&q) = quads.first() {
        let k = kickers(&[q], 1);
        return (7, [q, q, q, q, k[0]]);
    }
    if let Some(&t) = trips.first() {
        // The pair of a full house may come from a second set of trips.
        let best_pair = trips[1..].iter().chain(pairs.iter()).copied().max();
        if let Some(p) = best_pair {
            return (6, [t, t, t, p, p]);
        }
    }
    if let Some(top) = straight_top(present) {
        return (STRAIGHT, straight_ranks(top));
    }
    if let Some(&t) = trips.first() {
        let k = kickers(&[t], 2);
        return (3, [t, t, t, k[0], k[1]]);
    }
    if pairs.len() >= 2 {
        let (h, l) = (pairs[0], pairs[1]);
        let k = kickers(&[h, l], 1); // a third pair's rank may be the kicker
        return (2, [h, h, l, l, k[0]]);
    }
    if let Some(&p) = pairs.first() {
        let k = kickers(&[p], 3);
        return (1, [p, p, k[0], k[1], k[2]]);
    }
    let k = kickers(&[], 5);
    (0, [k[0], k[1], k[2], k[3], k[4]])
}

/// Calls `f` on every multiset of `n` ranks with each rank at most four times.
pub fn for_each_multiset(n: u8, f: &mut impl FnMut(&[u8; 13])) {
    fn rec(i: usize, left: u8, counts: &mut [u8; 13], f: &mut impl FnMut(&[u8; 13])) {
        if i == 13 {
            if left == 0 {
                f(counts);
            }
            return;
        }
        for c in 0..=left.min(4) {
            counts[i] = c;
            rec(i + 1, left - c, counts, f);
        }
        counts[i] = 0;
    }
    rec(0, n, &mut [0; 13], f);
}

/// The rank-key sum of a multiset of ranks.
pub fn key_of_counts(counts: &[u8; 13]) -> u32 {
    counts
        .iter()
        .zip(RANK_BASES)
        .map(|(&c, b)| c as u32 * b)
        .sum()
}

/// All generated tables.
pub struct Tables {
    /// Perfect-hash displacement per row of keys.
    pub offsets: Vec<u32>,
    /// Rank of a non-flush hand by hashed key.
    pub rank_lookup: Vec<u16>,
    /// Rank of the best hand within one suit by 13-bit rank mask.
    pub flush_lookup: Vec<u16>,
    /// Rank-key sum of a 13-bit rank mask.
    pub suit_keysum: Vec<u32>,
    /// The five ranks of each class, weakest class first.
    pub class_ranks: Vec<[u8; 5]>,
}

/// Builds every table, checking the properties the evaluator relies on.
pub fn generate() -> Tables {
    // Every five-card value, to number the classes within each category.
    let mut values: BTreeSet<Value> = BTreeSet::new();
    for_each_multiset(5, &mut |c| {
        values.insert(counts_value(c));
    });
    for mask in 0u16..1 << 13 {
        if mask.count_ones() == 5 {
            values.insert(flush_value(mask));
        }
    }
    let mut sizes = [0usize; 9];
    let mut class_ranks = Vec::with_capacity(values.len());
    let mut rank_of = std::collections::HashMap::new();
    for v in &values {
        let index = sizes[v.0 as usize];
        sizes[v.0 as usize] += 1;
        rank_of.insert(*v, (v.0 << 12) | index as u16);
        class_ranks.push(v.1);
    }
    assert_eq!(sizes, CATEGORY_SIZES, "hand classes per category");

    // Non-flush hands of five to seven cards, keyed by rank-key sum.
    let mut entries: Vec<(u32, u16)> = Vec::new();
    let mut seen = std::collections::HashMap::new();
    for n in 5..=7 {
        for_each_multiset(n, &mut |c| {
            let key = key_of_counts(c);
            if let Some(prev) = seen.insert(key, *c) {
                panic!("rank keys collide: {prev:?} and {c:?}");
            }
            entries.push((key, rank_of[&counts_value(c)]));
        });
    }
    let (offsets, rank_lookup) = perfect_hash(&entries);

    let flush_lookup = (0u16..1 << 13)
        .map(|m| {
            if m.count_ones() >= 5 {
                rank_of[&flush_value(m)]
            } else {
                0
            }
        })
        .collect();
    let suit_keysum = (0u32..1 << 13)
        .map(|m| {
            (0..13)
                .filter(|r| m >> r & 1 == 1)
                .map(|r| RANK_BASES[r])
                .sum()
        })
        .collect();
    Tables {
        offsets,
        rank_lookup,
        flush_lookup,
        suit_keysum,
        class_ranks,
    }
}

/// A displacement perfect hash: keys are grouped in rows by `key >> RANK_SHIFT`; rows, most
/// crowded first, are placed at the first position where all their slots are free.
fn perfect_hash(entries: &[(u32, u16)]) -> (Vec<u32>, Vec<u16>) {
    let max_key = entries.iter().map(|e| e.0).max().unwrap_or(0);
    let n_rows = (max_key >> RANK_SHIFT) as usize + 1;
    let low_mask = (1u32 << RANK_SHIFT) - 1;
    let mut rows: Vec<Vec<(u32, u16)>> = vec![Vec::new(); n_rows];
    for &(k, v) in entries {
        rows[(k >> RANK_SHIFT) as usize].push((k & low_mask, v));
    }
    let mut order: Vec<usize> = (0..n_rows).filter(|&r| !rows[r].is_empty()).collect();
    order.sort_by_key(|&r| (std::cmp::Reverse(rows[r].len()), r));
    // Occupied slots as a bit set; anything past the end is free.
    let mut used: Vec<u64> = Vec::new();
    // The 64 occupancy bits of slots `i..i + 64`.
    let used64 = |used: &[u64], i: usize| -> u64 {
        let (w, b) = (i / 64, i % 64);
        let lo = used.get(w).copied().unwrap_or(0);
        let hi = used.get(w + 1).copied().unwrap_or(0);
        if b == 0 {
            lo
        } else {
            lo >> b | hi << (64 - b)
        }
    };
    let mut table: Vec<u16> = Vec::new();
    let mut offsets = vec![0u32; n_rows];
    let mut full_words = 0; // used[..full_words] are all ones
    for r in order {
        let row = &mut rows[r];
        row.sort_unstable();
        let lowest = row[0].0 as usize;
        // Test 64 positions of the row's lowest slot at once: bit `j` of `clash` says
        // whether putting it at `start + j` lands some slot of the row on a used one.
        while used.get(full_words) == Some(&u64::MAX) {
            full_words += 1;
        }
        let mut start = lowest.max(full_words * 64);
        let slot = loop {
            let clash = row.iter().fold(0u64, |acc, &(l, _)| {
                acc | used64(&used, start + (l as usize - lowest))
            });
            if clash != u64::MAX {
                break start + (!clash).trailing_zeros() as usize;
            }
            start += 64;
        };
        let base = slot - lowest;
        for &(l, v) in row.iter() {
            let at = base + l as usize;
            if table.len() <= at {
                table.resize(at + 1, 0);
                used.resize(at / 64 + 1, 0);
            }
            used[at / 64] |= 1 << (at % 64);
            table[at] = v;
        }
        offsets[r] = (base as u32).wrapping_sub((r as u32) << RANK_SHIFT);
    }
    (offsets, table)
}

fn write_array<T: std::fmt::Display>(out: &mut String, name: &str, ty: &str, doc: &str, v: &[T]) {
    writeln!(out, "/// {doc}").unwrap();
    writeln!(out, "pub static {name}: [{ty}; {}] = [", v.len()).unwrap();
    for chunk in v.chunks(16) {
        let line: Vec<String> = chunk.iter().map(|x| x.to_string()).collect();
        writeln!(out, "    {},", line.join(", ")).unwrap();
    }
    writeln!(out, "];").unwrap();
}

/// The tables as Rust source.
pub fn to_rust(t: &Tables) -> String {
    let mut out = String::new();
    writeln!(
        out,
        "// Generated by src/games/holdem/tables_gen.rs (build.rs). Do not edit."
    )
    .unwrap();
    writeln!(out, "/// Rank keys with distinct sums for any seven cards.").unwrap();
    writeln!(out, "pub const RANK_BASES: [u32; 13] = {:?};", RANK_BASES).unwrap();
    writeln!(
        out,
        "/// Bits of a rank key kept per row of the perfect hash."
    )
    .unwrap();
    writeln!(out, "pub const RANK_SHIFT: u32 = {RANK_SHIFT};").unwrap();
    writeln!(out, "/// Classes per category, high card first.").unwrap();
    writeln!(
        out,
        "pub const CATEGORY_SIZES: [u16; 9] = {:?};",
        CATEGORY_SIZES
    )
    .unwrap();
    write_array(
        &mut out,
        "RANK_OFFSETS",
        "u32",
        "Perfect-hash displacement per row.",
        &t.offsets,
    );
    write_array(
        &mut out,
        "RANK_LOOKUP",
        "u16",
        "Rank of a non-flush hand by hashed key.",
        &t.rank_lookup,
    );
    write_array(
        &mut out,
        "FLUSH_LOOKUP",
        "u16",
        "Best rank within one suit by rank mask.",
        &t.flush_lookup,
    );
    write_array(
        &mut out,
        "SUIT_KEYSUM",
        "u32",
        "Rank-key sum of a 13-bit rank mask.",
        &t.suit_keysum,
    );
    writeln!(
        out,
        "/// The five ranks of each class, weakest class first."
    )
    .unwrap();
    writeln!(
        out,
        "pub static CLASS_RANKS: [[u8; 5]; {}] = [",
        t.class_ranks.len()
    )
    .unwrap();
    for chunk in t.class_ranks.chunks(8) {
        let line: Vec<String> = chunk.iter().map(|x| format!("{x:?}")).collect();
        writeln!(out, "    {},", line.join(", ")).unwrap();
    }
    writeln!(out, "];").unwrap();
    out
}
