//! Action lines: the one resolver of the comma-separated words that name a node of a spot's
//! tree (`check,bet:75%,call`, `bet:120`, `raise:2.5x`, `allin`, the cards dealt), used by
//! node locks ([`super::NodeLock`]) and by node reports
//! ([`super::SpotSolver::node_report`]). It reads the words, follows them down the tree
//! keeping the betting state, and matches each action word against the node's actions.
//!
//! The two uses ([`LineUse`]) read the same words with two documented differences, kept as
//! they were when each had its own parser: a lock's size word names the bet that size
//! became at the node, exactly as the tree built it (`bet:e` included), and `*` stands for
//! every card of a chance node; a report's size word names the nearest bet within a
//! tolerance (`bet:74%` finds a 75% bet), `allin` and a bare `bet` or `raise` are words,
//! and cards missing from the line come from a list given with it. Each use keeps its own
//! error messages.

use super::tree::{size_to, step, Action, NodeKind, SpotTree, State};
use super::{ActionInfo, BetSize, Spot};
use crate::core::{Error, Result};
use crate::poker::Card;

/// Who reads a line (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum LineUse {
    /// A node lock: exact sizes, `*` for every card, `root` for the root.
    Lock,
    /// A node report: nearest sizes, `allin`, bare `bet`/`raise`, extra cards.
    Report,
}

/// A node a line reaches.
#[derive(Clone)]
pub(super) struct Reached {
    /// The node.
    pub(super) node: usize,
    /// The betting state at the node (the player to act set at a decision node).
    pub(super) state: State,
    /// The nodes from the root to `node`.
    pub(super) path: Vec<usize>,
    /// The words of the path as a line accepts them (actions as [`Action`] displays them,
    /// cards).
    pub(super) words: Vec<String>,
}

/// The words of `line`: split at commas, trimmed, empty words dropped (and `root` for a
/// lock, whose root is the empty line or `root`).
fn line_words(line: &str, usage: LineUse) -> Vec<&str> {
    line.split(',')
        .map(str::trim)
        .filter(|w| !w.is_empty())
        .filter(|w| usage == LineUse::Report || !w.eq_ignore_ascii_case("root"))
        .collect()
}

/// The actions of decision node `n`, as a lock's errors list them.
pub(super) fn actions_text(tree: &SpotTree, n: usize) -> String {
    let names: Vec<String> = tree
        .children(n)
        .iter()
        .map(|&c| tree.nodes()[c as usize].action.to_string())
        .collect();
    if names.is_empty() {
        "none (the node ends the hand)".into()
    } else {
        names.join(", ")
    }
}

/// The actions of decision node `node`, labelled (word, chips, % of the pot after the
/// call, all-in), for `street_in` the chips each player has put in on the street.
pub(super) fn action_info(
    spot: &Spot,
    tree: &SpotTree,
    node: usize,
    street_in: [u32; 2],
) -> Vec<ActionInfo> {
    let nd = tree.nodes()[node];
    let NodeKind::Decision(q) = nd.kind else {
        return Vec::new();
    };
    let (p, o) = (q as usize, 1 - q as usize);
    let call = street_in[o] - street_in[p];
    let pot_after_call = spot.pot() as f64 + (nd.spent[0] + nd.spent[1]) as f64 + call as f64;
    tree.children(node)
        .iter()
        .map(|&c| {
            let cn = tree.nodes()[c as usize];
            let all_in = cn.spent[p] == spot.stack()
                && matches!(cn.action, Action::Bet(_) | Action::Raise(_));
            let (to, pct) = match cn.action {
                Action::Bet(to) | Action::Raise(to) => (
                    Some(to),
                    Some(100.0 * (to - street_in[o]) as f64 / pot_after_call),
                ),
                _ => (None, None),
            };
            ActionInfo {
                word: cn.action.to_string(),
                to,
                pct,
                all_in,
            }
        })
        .collect()
}

/// The actions of decision node `node` with their sizes, as a report's errors list them.
pub(super) fn describe_actions(
    spot: &Spot,
    tree: &SpotTree,
    node: usize,
    street_in: [u32; 2],
) -> String {
    action_info(spot, tree, node, street_in)
        .iter()
        .map(|a| match a.pct {
            Some(p) if a.all_in => format!("{} ({p:.0}%, all-in)", a.word),
            Some(p) => format!("{} ({p:.0}%)", a.word),
            None => a.word.clone(),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn cards_text(cards: &[Card]) -> String {
    cards
        .iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The index among decision node `n`'s children of the action `word` names, at the
/// betting state `st` (its player the node's); `Ok(None)` when no action matches.
///
/// Both uses: `fold`, `check`, `call`, `bet:120` / `raise:300` (the street total in
/// chips). A lock: a size word after `bet:` / `raise:` (`bet:75%`, `raise:2.5x`, `bet:e`,
/// `bet:a`) names the bet or raise that size became at this node, and a bad size word is
/// an error. A report: `bet:75%` / `raise:100%` the bet or raise whose size beyond the call
/// is nearest that fraction of the pot after the call (within one chip or one percentage
/// point), `raise:2.5x` the one nearest 2.5 times the bet faced (within one chip or 1%),
/// `allin` / `all-in` / `a` / `bet:a` / `raise:a` the action putting the player all-in,
/// `bet` / `raise` alone the only one there is.
pub(super) fn match_action(
    spot: &Spot,
    tree: &SpotTree,
    n: usize,
    st: &State,
    word: &str,
    usage: LineUse,
) -> Result<Option<usize>> {
    let w = word.trim().to_ascii_lowercase();
    let kids = tree.children(n);
    let action = |i: usize| tree.nodes()[kids[i] as usize].action;
    let is_kind = |i: usize, raise: bool| {
        matches!(
            (action(i), raise),
            (Action::Bet(_), false) | (Action::Raise(_), true)
        )
    };
    // `bet:SIZE` or `raise:SIZE`: (raise?, SIZE); a report allows spaces around the colon.
    let sized = [("bet", false), ("raise", true)]
        .into_iter()
        .find_map(|(k, raise)| match usage {
            LineUse::Lock => {
                let size = w.strip_prefix(k)?.strip_prefix(':')?;
                Some((raise, size.trim().to_string()))
            }
            LineUse::Report => {
                let (kind, size) = w.split_once(':')?;
                (kind.trim() == k).then(|| (raise, size.trim().to_string()))
            }
        });
    let nearest = |raise: bool, target: f64, tol: f64| {
        (0..kids.len())
            .filter(|&i| is_kind(i, raise))
            .filter_map(|i| match action(i) {
                Action::Bet(to) | Action::Raise(to) => Some((i, (to as f64 - target).abs())),
                _ => None,
            })
            .filter(|&(_, d)| d <= tol + 1e-9)
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(i, _)| i)
    };
    let exact = |raise: bool, to: u32| {
        (0..kids.len()).find(|&i| {
            action(i)
                == if raise {
                    Action::Raise(to)
                } else {
                    Action::Bet(to)
                }
        })
    };
    let literal = || (0..kids.len()).find(|&i| action(i).to_string() == w);
    match usage {
        LineUse::Lock => {
            let Some((raise, rest)) = sized else {
                return Ok(literal());
            };
            if let Ok(to) = rest.parse::<u32>() {
                return Ok(exact(raise, to));
            }
            let size = BetSize::parse(&rest).map_err(|e| Error::Invalid {
                what: "lock action",
                reason: format!("{word:?}: {e}"),
            })?;
            Ok(size_to(spot, st, size)
                .and_then(|to| u32::try_from(to).ok())
                .and_then(|to| exact(raise, to)))
        }
        LineUse::Report => {
            let infos = action_info(spot, tree, n, st.street_in);
            let (p, o) = (st.player, 1 - st.player);
            let all_in = |raise: Option<bool>| {
                (0..kids.len()).find(|&i| infos[i].all_in && raise.is_none_or(|r| is_kind(i, r)))
            };
            if matches!(w.as_str(), "allin" | "all-in" | "a") {
                return Ok(all_in(None));
            }
            if w == "bet" || w == "raise" {
                let of: Vec<usize> = (0..kids.len())
                    .filter(|&i| is_kind(i, w == "raise"))
                    .collect();
                return Ok((of.len() == 1).then(|| of[0]));
            }
            let Some((raise, s)) = sized else {
                return Ok(if w.contains(':') { None } else { literal() });
            };
            if s == "a" {
                return Ok(all_in(Some(raise)));
            }
            let nd = tree.nodes()[n];
            let pot_after_call = spot.pot() as f64
                + (nd.spent[0] + nd.spent[1]) as f64
                + (st.street_in[o] - st.street_in[p]) as f64;
            let faced = st.street_in[o] as f64;
            if let Some(pct) = s.strip_suffix('%') {
                let found = pct
                    .trim()
                    .parse::<f64>()
                    .ok()
                    .filter(|p| p.is_finite())
                    .and_then(|pct| {
                        nearest(
                            raise,
                            faced + pct / 100.0 * pot_after_call,
                            (0.01 * pot_after_call).max(1.0),
                        )
                    });
                return Ok(found);
            }
            if let Some(x) = s.strip_suffix('x') {
                let found = x
                    .trim()
                    .parse::<f64>()
                    .ok()
                    .filter(|x| x.is_finite())
                    .and_then(|x| nearest(raise, x * faced, (0.01 * x * faced).max(1.0)));
                return Ok(found);
            }
            Ok(s.parse::<u32>().ok().and_then(|to| exact(raise, to)))
        }
    }
}

/// One step of a line from a node: stop there, or the nodes reached (and whether the word
/// was used).
enum Step {
    Stop,
    Next(Vec<Reached>, bool),
}

/// The root of `spot`'s tree as a line starts from it.
fn root(spot: &Spot) -> Reached {
    Reached {
        node: 0,
        state: State::root(spot),
        path: vec![0],
        words: Vec::new(),
    }
}

/// The board at the end of `path`: the spot's cards, then those dealt along the path.
pub(super) fn board_on(spot: &Spot, tree: &SpotTree, path: &[usize]) -> Vec<Card> {
    let mut board = spot.board().to_vec();
    for &n in path {
        if let Action::Deal(c) = tree.nodes()[n].action {
            board.push(c);
        }
    }
    board
}

/// Follows `line` from the root of `spot`'s `tree` (see the module documentation and
/// [`match_action`] for the words), with `cards` dealt in order at the chance nodes a
/// report's line reaches without a card (a lock gives none). A lock's line may reach
/// several nodes (through `*`); a report's reaches one. Errors name the step that leaves
/// the tree and what is possible there, in each use's words.
pub(super) fn resolve(
    spot: &Spot,
    tree: &SpotTree,
    line: &str,
    cards: &[Card],
    usage: LineUse,
) -> Result<Vec<Reached>> {
    let words = line_words(line, usage);
    let lock_bad = |reason: String| Error::Invalid {
        what: "lock line",
        reason: format!("{line:?}: {reason}"),
    };
    let report_bad = |reason: String| Error::Invalid {
        what: "line",
        reason,
    };
    let mut at = vec![root(spot)];
    let mut extra = cards.iter();
    let mut i = 0;
    loop {
        let word = words.get(i).copied();
        if word.is_none() && usage == LineUse::Lock {
            break;
        }
        // Where the line is, for the errors: the words as written (a lock) or as matched.
        let where_ = |r: &Reached| {
            let done: Vec<&str> = match usage {
                LineUse::Lock => words[..i].to_vec(),
                LineUse::Report => r.words.iter().map(String::as_str).collect(),
            };
            if done.is_empty() {
                "at the root".to_string()
            } else {
                format!("after {:?}", done.join(","))
            }
        };
        let mut next = Vec::new();
        let mut used = true;
        let mut stop = false;
        for r in &at {
            let n = r.node;
            let node = tree.nodes()[n];
            let after = where_(r);
            let child = |c: usize, word: String| {
                let mut reached = Reached {
                    node: c,
                    state: step(&r.state, tree.nodes()[c].action),
                    path: r.path.clone(),
                    words: r.words.clone(),
                };
                reached.path.push(c);
                reached.words.push(word);
                reached
            };
            let deal = |card: Card| {
                tree.children(n)
                    .iter()
                    .find(|&&c| tree.nodes()[c as usize].action == Action::Deal(card))
                    .map(|&c| c as usize)
            };
            let outcome = match (node.kind, usage) {
                (NodeKind::Chance, LineUse::Lock) => {
                    let word = word.expect("a lock stops when its words end");
                    if word == "*" {
                        let all = tree.children(n).iter().map(|&c| {
                            let c = c as usize;
                            child(c, tree.nodes()[c].action.to_string())
                        });
                        Step::Next(all.collect(), true)
                    } else {
                        let card: Card = word.parse().map_err(|_| {
                            lock_bad(format!(
                                "{after} a card is dealt: {word:?} is not a card (give the \
                                 card, such as 7h, or * for every card)"
                            ))
                        })?;
                        let Some(c) = deal(card) else {
                            return Err(lock_bad(format!(
                                "{after} the card {card} cannot be dealt (it is on the board)"
                            )));
                        };
                        Step::Next(vec![child(c, card.to_string())], true)
                    }
                }
                (NodeKind::Chance, LineUse::Report) => {
                    let (card, from_line) = match word.and_then(|w| w.parse::<Card>().ok()) {
                        Some(c) => (Some(c), true),
                        None => (extra.next().copied(), false),
                    };
                    let open: Vec<Card> = tree
                        .children(n)
                        .iter()
                        .filter_map(|&c| match tree.nodes()[c as usize].action {
                            Action::Deal(card) => Some(card),
                            _ => None,
                        })
                        .collect();
                    let street = ["flop", "turn", "river"][node.street as usize + 1];
                    match card {
                        None if word.is_none() => Step::Stop,
                        None => {
                            return Err(report_bad(format!(
                                "the {street} card comes {after}: write it in the line or \
                                 give it with the cards (one of: {})",
                                cards_text(&open)
                            )))
                        }
                        Some(card) => {
                            let Some(c) = deal(card) else {
                                return Err(report_bad(format!(
                                    "{card} cannot come as the {street} card {after} (the \
                                     board is {}); one of: {}",
                                    cards_text(&board_on(spot, tree, &r.path)),
                                    cards_text(&open)
                                )));
                            };
                            Step::Next(vec![child(c, card.to_string())], from_line)
                        }
                    }
                }
                (NodeKind::Decision(q), _) => {
                    let Some(word) = word else {
                        stop = true;
                        break;
                    };
                    if usage == LineUse::Lock && word == "*" {
                        return Err(lock_bad(format!(
                            "{after} {} acts: * stands for a dealt card; the actions are {}",
                            ["OOP", "IP"][q as usize],
                            actions_text(tree, n)
                        )));
                    }
                    let mut st = r.state.clone();
                    st.player = q as usize;
                    match match_action(spot, tree, n, &st, word, usage)? {
                        Some(i) => {
                            let c = tree.children(n)[i] as usize;
                            let mut reached = child(c, tree.nodes()[c].action.to_string());
                            reached.state = step(&st, tree.nodes()[c].action);
                            Step::Next(vec![reached], true)
                        }
                        None => {
                            return Err(match usage {
                                LineUse::Lock => lock_bad(format!(
                                    "{after} there is no action {word:?}; the actions are {}",
                                    actions_text(tree, n)
                                )),
                                LineUse::Report => report_bad(format!(
                                    "no action {word:?} {after}: {} to act can {}",
                                    ["OOP", "IP"][q as usize],
                                    describe_actions(spot, tree, n, st.street_in)
                                )),
                            })
                        }
                    }
                }
                (kind, _) => {
                    let Some(word) = word else {
                        stop = true;
                        break;
                    };
                    let what = if matches!(kind, NodeKind::Showdown) {
                        "showdown"
                    } else {
                        "fold"
                    };
                    return Err(match usage {
                        LineUse::Lock => lock_bad(format!(
                            "{after} the hand is over (a {what}); {word:?} goes past it"
                        )),
                        LineUse::Report => report_bad(format!(
                            "the hand is over {after} (a {what}): nothing can follow, got \
                             {word:?}"
                        )),
                    });
                }
            };
            match outcome {
                Step::Stop => {
                    stop = true;
                    break;
                }
                Step::Next(reached, u) => {
                    next.extend(reached);
                    used = u;
                }
            }
        }
        if stop {
            break;
        }
        at = next;
        if used {
            i += 1;
        }
    }
    if let Some(c) = extra.next() {
        let words = at.first().map(|r| r.words.join(",")).unwrap_or_default();
        return Err(report_bad(format!(
            "the card {c} is left over: the line {words:?} reaches no chance node for it"
        )));
    }
    Ok(at)
}
