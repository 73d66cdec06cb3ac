//! The all-in control variate of an LBR hand ([`super::LbrOptions::control`]).
//!
//! `φ(x, F)` is what a holding `x` wins, in chips, on flop `F` with a simple all-in
//! strategy against a uniform range that calls everything: with `e` its share of the pot at
//! showdown against every holding disjoint from `x` and the board (ties counted half; on
//! the flop and the turn averaged over the runouts), it goes all-in (`S · (2e − 1)`, `S` the
//! smaller starting stack) on the first street where `e > 1/2`, else checks to the next
//! card, and checks down the river (`bb · (2e − 1)`, a pot of two big blinds). It is LBR's
//! value against `call-station` exactly.
//!
//! The hand's value becomes `X − (φ(H, F) − mean_x φ(x, F))`, `H` LBR's cards and `F` the
//! flop of the deal, the mean over every holding disjoint from the flop. Given `F`, `H` is
//! uniform over those holdings, so the correction has mean zero whatever the policy: the
//! estimate stays unbiased, and its variance drops by as much as `X` and `φ(H, F)` move
//! together (all of LBR's variance from its cards against `call-station`).

use crate::core::CardSet64;
use crate::poker::eval::rank_of_set;

/// The correction (chips, mean zero) for LBR's cards `hole` on the deal's `board`, a
/// stack `stack` and big blind `bb` in chips (see the module documentation).
pub fn allin_correction(hole: [u8; 2], board: [u8; 5], stack: f64, bb: f64) -> f64 {
    let flop = [board[0], board[1], board[2]];
    let flop_set = CardSet64::from_ids(flop).0;
    // The cards not on the flop and the holdings of two of them (x indices).
    let cards: Vec<u8> = (0..52u8).filter(|&c| flop_set >> c & 1 == 0).collect();
    let nc = cards.len(); // 49
    let mut pos = [usize::MAX; 52];
    for (i, &c) in cards.iter().enumerate() {
        pos[c as usize] = i;
    }
    let pair = |i: usize, j: usize| -> usize {
        let (a, b) = (i.min(j), i.max(j));
        a * (2 * nc - a - 1) / 2 + (b - a - 1)
    };
    let nx = nc * (nc - 1) / 2; // 1176
    let value = |e: f64, last: f64| {
        if e > 0.5 {
            stack * (2.0 * e - 1.0)
        } else {
            last
        }
    };
    // Per turn card `t` and holding `x`: the sum over the rivers of x's share on
    // flop + t + river, and of its river value.
    let mut shares = vec![0f64; nc * nx];
    let mut rivers = vec![0f64; nc * nx];
    let mut ranked: Vec<(u16, u16, u8, u8)> = Vec::with_capacity(nx);
    let (ha, hb) = (pos[hole[0] as usize], pos[hole[1] as usize]);
    let mine = pair(ha, hb);
    // LBR's share on flop + t + r, by pair(t, r).
    let mut own = vec![0f64; nx];
    for t in 0..nc {
        for r in t + 1..nc {
            let board = flop_set | 1u64 << cards[t] | 1u64 << cards[r];
            ranked.clear();
            for a in 0..nc {
                if a == t || a == r {
                    continue;
                }
                for b in a + 1..nc {
                    if b == t || b == r {
                        continue;
                    }
                    let set = board | 1u64 << cards[a] | 1u64 << cards[b];
                    ranked.push((
                        rank_of_set(CardSet64(set)).0,
                        pair(a, b) as u16,
                        a as u8,
                        b as u8,
                    ));
                }
            }
            ranked.sort_unstable_by_key(|e| e.0);
            // Wins and ties against the holdings disjoint from x: every holding of lower
            // rank (or of the same) less those holding one of x's cards.
            let mut below = 0u32;
            let mut below_card = [0u32; 52];
            let mut group_card = [0u32; 52];
            let mut g = 0;
            while g < ranked.len() {
                let mut end = g;
                while end < ranked.len() && ranked[end].0 == ranked[g].0 {
                    group_card[ranked[end].2 as usize] += 1;
                    group_card[ranked[end].3 as usize] += 1;
                    end += 1;
                }
                let size = (end - g) as u32;
                for &(_, x, a, b) in &ranked[g..end] {
                    let (a, b) = (a as usize, b as usize);
                    let wins = below - below_card[a] - below_card[b];
                    let ties = size + 1 - group_card[a] - group_card[b];
                    let e = (wins as f64 + 0.5 * ties as f64) / 990.0;
                    if x as usize == mine {
                        own[pair(t, r)] = e;
                    }
                    let v = value(e, bb * (2.0 * e - 1.0));
                    for turn in [t, r] {
                        shares[turn * nx + x as usize] += e;
                        rivers[turn * nx + x as usize] += v;
                    }
                }
                for &(_, _, a, b) in &ranked[g..end] {
                    below_card[a as usize] += 1;
                    below_card[b as usize] += 1;
                    group_card[a as usize] = 0;
                    group_card[b as usize] = 0;
                }
                below += size;
                g = end;
            }
        }
    }
    // 46 rivers after each of the 47 turns.
    let (turn_count, river_count) = ((nc - 2) as f64, (nc - 3) as f64);
    let phi = |a: usize, b: usize| -> f64 {
        let x = pair(a, b);
        let (mut flop_sum, mut turns) = (0.0, 0.0);
        for t in 0..nc {
            if t == a || t == b {
                continue;
            }
            let e_t = shares[t * nx + x] / river_count;
            flop_sum += e_t;
            turns += value(e_t, rivers[t * nx + x] / river_count);
        }
        value(flop_sum / turn_count, turns / turn_count)
    };
    let mut mean = 0.0;
    for a in 0..nc {
        for b in a + 1..nc {
            mean += phi(a, b);
        }
    }
    mean /= nx as f64;
    // φ's strategy along the deal's turn and river: past a street checked (e ≤ 1/2) the
    // next card's value less its mean over the cards that could have come.
    let (turn, river) = (pos[board[3] as usize], pos[board[4] as usize]);
    let river_value = |t: usize, r: usize| {
        let e = own[pair(t, r)];
        value(e, bb * (2.0 * e - 1.0))
    };
    let turn_share = |t: usize| {
        (0..nc)
            .filter(|&r| r != ha && r != hb && r != t)
            .map(|r| own[pair(t, r)])
            .sum::<f64>()
            / river_count
    };
    let turn_value = |t: usize| {
        let v = (0..nc)
            .filter(|&r| r != ha && r != hb && r != t)
            .map(|r| river_value(t, r))
            .sum::<f64>()
            / river_count;
        value(turn_share(t), v)
    };
    let turns: Vec<usize> = (0..nc).filter(|&t| t != ha && t != hb).collect();
    let flop_share = turns.iter().map(|&t| turn_share(t)).sum::<f64>() / turn_count;
    let mut correction = mean - phi(ha, hb);
    if flop_share <= 0.5 {
        let mean_turn = turns.iter().map(|&t| turn_value(t)).sum::<f64>() / turn_count;
        correction += mean_turn - turn_value(turn);
        if turn_share(turn) <= 0.5 {
            let rivers: Vec<usize> = (0..nc)
                .filter(|&r| r != ha && r != hb && r != turn)
                .collect();
            let mean_river =
                rivers.iter().map(|&r| river_value(turn, r)).sum::<f64>() / river_count;
            correction += mean_river - river_value(turn, river);
        }
    }
    correction
}
