//! A solved spot's strategy as a hold'em policy ([`SpotPolicy`]): at a state of the spot's
//! table (`crate::solve::lbr::SpotStart::game`: the button is IP, the big blind OOP, both
//! checked to the spot's street with `pot/2` each in the middle), the node of the spot's
//! tree the table's history reaches and the average strategy there for every holding of
//! the range of the player to act.
//!
//! - **The node.** The board must start with the spot's cards (in any order on the flop);
//!   the actions from the spot's street on are followed down the tree: a fold, check or
//!   call is the node's child of that name, a bet or raise to `x` chips on the street is the
//!   child `bet:x` or `raise:x`, and a turn or river card dealt at the table is the chance
//!   node's child of that card. Each seat must have put in `pot/2` plus what the tree says
//!   it spent since the root.
//! - **Off the tree.** A bet or raise to a size the tree does not have at that node is an
//!   error naming the node's actions (no nearest-size mapping: LBR from a spot's root plays
//!   only the tree's actions, so its comparison with the exact best response is exact), as
//!   are a board or stacks that are not the spot's.
//! - **The actions** ([`HoldemPolicy::actions`]) are the node's, in the tree's order:
//!   [`FOLD`], [`CHECK_CALL`], and each bet or raise as its exact raise-to
//!   (`EXACT_RAISE | chips`), or the all-in id when it is the whole stack.
//! - **Holdings.** A holding outside the acting player's range after card removal against
//!   the spot's board is an error (LBR from the spot's root only asks about holdings of
//!   positive weight).

use super::tree::{Action, NodeKind};
use super::{line, SpotSolver};
use crate::core::{Error, Result};
use crate::games::holdem::info::{ActionKind, PastAction};
use crate::games::holdem::policy::{holding_index, HoldemPolicy, HOLDINGS};
use crate::games::holdem::{NoLimitHoldem, NoLimitHoldemState, CHECK_CALL, EXACT_RAISE, FOLD};
use crate::poker::Card;
use crate::solve::lbr::spot::seat_of;
use crate::solve::lbr::{SpotExact, SpotStart};

/// A solved spot's average strategy as a [`HoldemPolicy`] (see the module documentation),
/// with the exact values of that strategy (each player's best response and EV).
pub struct SpotPolicy {
    solver: SpotSolver,
    name: String,
    /// Per player, per holding of `holdings()`: its index in the player's hands, or
    /// `u32::MAX`.
    index: [Vec<u32>; 2],
    start: SpotStart,
}

impl SpotPolicy {
    /// The policy of `solver`'s average strategy (as it stands: 0 iterations is the uniform
    /// strategy), named `name`. Computes the strategy's exact best-response values and EVs
    /// once. Errors: a spot [`SpotStart::new`] refuses (an odd pot, no stack).
    pub fn new(mut solver: SpotSolver, name: &str) -> Result<SpotPolicy> {
        let start = SpotStart::new(solver.spot())?;
        let exact = SpotExact {
            best_response: solver.best_response_values(),
            strategy_ev: solver.root_ev(),
        };
        let mut index = [vec![u32::MAX; HOLDINGS], vec![u32::MAX; HOLDINGS]];
        for (p, idx) in index.iter_mut().enumerate() {
            for (i, h) in solver.spot().hands(p).iter().enumerate() {
                let [a, b] = h.cards();
                idx[holding_index(a.id(), b.id())] = i as u32;
            }
        }
        Ok(SpotPolicy {
            solver,
            name: name.to_string(),
            index,
            start: start.with_exact(exact),
        })
    }

    /// The solver whose strategy this is.
    pub fn solver(&self) -> &SpotSolver {
        &self.solver
    }

    /// Where LBR's hands start for this spot, with the exact values
    /// ([`crate::solve::lbr::LbrOptions::spot`]).
    pub fn start(&self) -> &SpotStart {
        &self.start
    }

    /// The exact values of the strategy: each player's best response and EV, in chips.
    pub fn exact(&self) -> SpotExact {
        self.start
            .exact()
            .expect("a spot policy computes its exact values")
    }

    /// The decision node of the spot's tree at the live table state `s` (see the module
    /// documentation for the mapping and its errors).
    pub fn node(&self, game: &NoLimitHoldem, s: &NoLimitHoldemState) -> Result<usize> {
        self.start.check_game(game)?;
        let Some(legal) = game.legal(s) else {
            return Err(Error::Invalid {
                what: "state",
                reason: "the hand is over: nobody is to act".into(),
            });
        };
        let spot = self.solver.spot();
        let tree = self.solver.tree();
        let k0 = spot.board().len();
        let board = s.board();
        let spot_board = spot.board_set();
        if board.len() < k0 || board[..k0].iter().any(|&c| !spot_board.contains(c)) {
            return Err(Error::Invalid {
                what: "board",
                reason: format!(
                    "the table's board {} does not start with the spot's {}",
                    cards_text(board),
                    spot.board()
                        .iter()
                        .map(|c| c.to_string())
                        .collect::<String>()
                ),
            });
        }
        let (past, lost) = game.past_actions(s);
        if lost.is_some() {
            return Err(Error::Invalid {
                what: "state",
                reason: "the table's history overflowed: the spot's node cannot be found".into(),
            });
        }
        let root_street = (k0 - 2) as u8;
        let mut n = 0usize;
        let mut words: Vec<String> = Vec::new();
        let deal = |n: usize, words: &mut Vec<String>| -> Option<usize> {
            let at = 3 + tree.nodes()[n].street as usize;
            let card = *board.get(at)?;
            let c = tree.children(n).iter().copied().find(
                |&c| matches!(tree.nodes()[c as usize].action, Action::Deal(d) if d.id() == card),
            )?;
            words.push(tree.nodes()[c as usize].action.to_string());
            Some(c as usize)
        };
        for a in past.iter().filter(|a| a.street >= root_street) {
            while tree.nodes()[n].kind == NodeKind::Chance {
                n = deal(n, &mut words).ok_or_else(|| Error::Invalid {
                    what: "board",
                    reason: "a card the spot's tree deals is missing from the table".into(),
                })?;
            }
            let NodeKind::Decision(q) = tree.nodes()[n].kind else {
                return Err(off_tree(&words, a, "the spot's hand is over there".into()));
            };
            if seat_of(q as usize) != a.seat as usize {
                return Err(off_tree(&words, a, "the other player acts there".into()));
            }
            let found = tree.children(n).iter().copied().find(|&c| {
                let act = tree.nodes()[c as usize].action;
                match a.kind {
                    ActionKind::Fold => act == Action::Fold,
                    ActionKind::Check => act == Action::Check,
                    ActionKind::Call => act == Action::Call,
                    ActionKind::Raise => {
                        matches!(act, Action::Bet(to) | Action::Raise(to) if to == a.amount)
                    }
                }
            });
            let Some(c) = found else {
                return Err(off_tree(
                    &words,
                    a,
                    format!("the tree has {}", line::actions_text(tree, n)),
                ));
            };
            n = c as usize;
            words.push(tree.nodes()[n].action.to_string());
        }
        while tree.nodes()[n].kind == NodeKind::Chance {
            n = deal(n, &mut words).ok_or_else(|| Error::Invalid {
                what: "board",
                reason: "a card the spot's tree deals is missing from the table".into(),
            })?;
        }
        let node = &tree.nodes()[n];
        let NodeKind::Decision(q) = node.kind else {
            return Err(Error::Invalid {
                what: "state",
                reason: format!(
                    "the spot's hand is over after {:?} while the table's goes on",
                    words.join(",")
                ),
            });
        };
        let half = spot.pot() / 2;
        let stack = spot.stack();
        for p in 0..2 {
            let seat = seat_of(p);
            let put = s.starting[seat] - s.stacks[seat];
            if s.starting[seat] != stack + half || put != half + node.spent[p] {
                return Err(Error::Invalid {
                    what: "state",
                    reason: format!(
                        "the table's chips are not the spot's after {:?}: seat {seat} put in \
                         {put} of {}, the spot says {} of {}",
                        words.join(","),
                        s.starting[seat],
                        half + node.spent[p],
                        stack + half
                    ),
                });
            }
        }
        if seat_of(q as usize) != legal.seat {
            return Err(Error::Invalid {
                what: "state",
                reason: "the seat to act is not the spot's player to act".into(),
            });
        }
        Ok(n)
    }
}

fn cards_text(ids: &[u8]) -> String {
    ids.iter()
        .filter_map(|&c| Card::from_id(c))
        .map(|c| c.to_string())
        .collect()
}

fn off_tree(words: &[String], a: &PastAction, why: String) -> Error {
    let what = match a.kind {
        ActionKind::Fold => "fold".to_string(),
        ActionKind::Check => "check".to_string(),
        ActionKind::Call => "call".to_string(),
        ActionKind::Raise => format!("bet or raise to {}", a.amount),
    };
    Error::Invalid {
        what: "action",
        reason: format!(
            "the table's {what} after {:?} is not in the spot's tree ({why})",
            words.join(",")
        ),
    }
}

impl HoldemPolicy for SpotPolicy {
    fn name(&self) -> &str {
        &self.name
    }

    fn actions(&self, game: &NoLimitHoldem, s: &NoLimitHoldemState) -> Result<Vec<u32>> {
        let n = self.node(game, s)?;
        let tree = self.solver.tree();
        let legal = game.legal(s).expect("a decision node is live");
        let max_bet = s.bets().iter().copied().max().unwrap_or(0) as u64;
        tree.children(n)
            .iter()
            .map(|&c| match tree.nodes()[c as usize].action {
                Action::Fold => Ok(FOLD),
                Action::Check | Action::Call => Ok(CHECK_CALL),
                Action::Bet(to) | Action::Raise(to) => {
                    let id = if to as u64 == legal.max_raise_to {
                        game.all_in_action()
                    } else {
                        EXACT_RAISE | to
                    };
                    if game.raise_target(id, &legal, max_bet, s.pot_total()) != Some(to as u64) {
                        return Err(Error::Invalid {
                            what: "spot tree",
                            reason: format!("the tree's raise to {to} is not legal at the table"),
                        });
                    }
                    Ok(id)
                }
                a => Err(Error::Invalid {
                    what: "spot tree",
                    reason: format!("{a} is not a player's action"),
                }),
            })
            .collect()
    }

    fn probabilities(
        &self,
        game: &NoLimitHoldem,
        s: &NoLimitHoldemState,
        holdings: &[[u8; 2]],
        out: &mut [f64],
    ) -> Result<()> {
        let n = self.node(game, s)?;
        let tree = self.solver.tree();
        let NodeKind::Decision(q) = tree.nodes()[n].kind else {
            unreachable!("node() finds decision nodes")
        };
        let q = q as usize;
        let k = tree.children(n).len();
        Error::check_len("out", holdings.len() * k, out.len())?;
        let hands = self.solver.spot().hands(q).len();
        let strategy = self
            .solver
            .average_strategy(n)
            .expect("a decision node has a strategy");
        for (row, h) in out.chunks_exact_mut(k).zip(holdings) {
            if h[0] >= 52 || h[1] >= 52 || h[0] == h[1] {
                return Err(Error::Invalid {
                    what: "holding",
                    reason: format!("{h:?} are not two distinct card ids"),
                });
            }
            let i = self.index[q][holding_index(h[0], h[1])];
            if i == u32::MAX {
                return Err(Error::Invalid {
                    what: "holding",
                    reason: format!(
                        "{} is not in the spot's {} range",
                        cards_text(h),
                        ["OOP", "IP"][q]
                    ),
                });
            }
            let mut total = 0.0;
            for (a, x) in row.iter_mut().enumerate() {
                *x = strategy[a * hands + i as usize] as f64;
                total += *x;
            }
            for x in row.iter_mut() {
                *x /= total;
            }
        }
        Ok(())
    }
}
