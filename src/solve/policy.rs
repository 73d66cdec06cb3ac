//! Policies: per information set a probability distribution over its legal actions.
//!
//! [`Policy`] is the solvers' form, a flat array aligned with a [`FlatTree`]'s slots.
//! [`PolicyTable`] is the exchange form, keyed by the information-state string
//! ([`crate::core::InfoStates::info_state_string`]; for games ported from OpenSpiel its
//! `information_state_string`), with JSON export and import, so that OpenSpiel can load a
//! cardvec policy and the other way round.

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};

use super::flat::FlatTree;
use crate::core::{Error, Result};

/// How far a distribution's sum may be from 1 (on import).
pub const SUM_TOLERANCE: f64 = 1e-6;

/// A policy for every seat of a [`FlatTree`]: [`FlatTree::num_slots`] probabilities,
/// information set `s`'s distribution over its legal actions at
/// `probs[s.offset..s.offset + s.actions.len()]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Policy {
    probs: Vec<f64>,
}

impl Policy {
    /// Every seat plays uniformly over its legal actions.
    pub fn uniform(tree: &FlatTree) -> Policy {
        let mut probs = vec![0.0; tree.num_slots()];
        for set in tree.infosets() {
            let n = set.actions.len();
            probs[set.offset..set.offset + n].fill(1.0 / n as f64);
        }
        Policy { probs }
    }

    /// A policy from its flat array (`tree.num_slots()` long), checked: every value finite
    /// and non-negative, every set's distribution summing to 1 (within [`SUM_TOLERANCE`]).
    pub fn from_probs(tree: &FlatTree, probs: Vec<f64>) -> Result<Policy> {
        Error::check_len("policy", tree.num_slots(), probs.len())?;
        for set in tree.infosets() {
            check_distribution(
                &set.string,
                &probs[set.offset..set.offset + set.actions.len()],
            )?;
        }
        Ok(Policy { probs })
    }

    /// Normalizes per-set weights (for example cumulative strategies) into a policy: a set
    /// whose weights sum to zero plays uniformly (as OpenSpiel's average policies do).
    pub fn normalized(tree: &FlatTree, weights: &[f64]) -> Policy {
        let mut probs = weights.to_vec();
        for set in tree.infosets() {
            let row = &mut probs[set.offset..set.offset + set.actions.len()];
            let total: f64 = row.iter().sum();
            if total > 0.0 {
                row.iter_mut().for_each(|p| *p /= total);
            } else {
                let n = row.len() as f64;
                row.fill(1.0 / n);
            }
        }
        Policy { probs }
    }

    /// The flat array.
    pub fn probs(&self) -> &[f64] {
        &self.probs
    }

    /// Information set `set`'s distribution (over `tree.infosets()[set].actions`).
    pub fn set_probs<'a>(&'a self, tree: &FlatTree, set: usize) -> &'a [f64] {
        let s = &tree.infosets()[set];
        &self.probs[s.offset..s.offset + s.actions.len()]
    }

    /// The exchange form: every information set by its string, with its legal actions'
    /// probabilities. An error if two information sets of the tree share a string (the
    /// game's strings do not tell them apart).
    pub fn to_table(&self, tree: &FlatTree) -> Result<PolicyTable> {
        string_index(tree)?;
        let mut table = PolicyTable::default();
        for set in tree.infosets() {
            let probs = &self.probs[set.offset..set.offset + set.actions.len()];
            table.0.insert(
                set.string.clone(),
                set.actions
                    .iter()
                    .copied()
                    .zip(probs.iter().copied())
                    .collect(),
            );
        }
        Ok(table)
    }

    /// A policy from the exchange form, checked: every information set of the tree is in
    /// the table and nothing else is; every distribution is over the set's legal actions
    /// (an action listed twice, or an illegal action with a positive probability, is an
    /// error), finite, non-negative and sums to 1 within [`SUM_TOLERANCE`]. Errors name the
    /// information state.
    pub fn from_table(tree: &FlatTree, table: &PolicyTable) -> Result<Policy> {
        let index = string_index(tree)?;
        let mut probs = vec![0.0; tree.num_slots()];
        let mut seen = vec![false; tree.infosets().len()];
        for (string, dist) in &table.0 {
            let Some(&s) = index.get(string.as_str()) else {
                return Err(Error::Invalid {
                    what: "policy",
                    reason: format!("unknown information state {string:?}"),
                });
            };
            seen[s] = true;
            let set = &tree.infosets()[s];
            let row = &mut probs[set.offset..set.offset + set.actions.len()];
            let mut given = vec![false; row.len()];
            for &(action, p) in dist {
                match set.actions.iter().position(|&a| a == action) {
                    Some(i) if given[i] => {
                        return Err(Error::Invalid {
                            what: "policy",
                            reason: format!("information state {string:?}: action {action} twice"),
                        })
                    }
                    Some(i) => {
                        given[i] = true;
                        row[i] = p;
                    }
                    None if p == 0.0 => {}
                    None => {
                        return Err(Error::Invalid {
                            what: "policy",
                            reason: format!(
                                "information state {string:?}: action {action} is not legal \
                                 (legal: {:?}) but has probability {p}",
                                set.actions
                            ),
                        })
                    }
                }
            }
            check_distribution(string, row)?;
        }
        if let Some(s) = seen.iter().position(|&x| !x) {
            let missing = seen.iter().filter(|&&x| !x).count();
            return Err(Error::Invalid {
                what: "policy",
                reason: format!(
                    "{missing} information states missing, for example {:?}",
                    tree.infosets()[s].string
                ),
            });
        }
        Ok(Policy { probs })
    }
}

fn check_distribution(string: &str, row: &[f64]) -> Result<()> {
    if let Some(p) = row.iter().find(|p| !p.is_finite() || **p < 0.0) {
        return Err(Error::Invalid {
            what: "policy",
            reason: format!("information state {string:?}: probability {p} is not in [0, 1]"),
        });
    }
    let total: f64 = row.iter().sum();
    if (total - 1.0).abs() > SUM_TOLERANCE {
        return Err(Error::Invalid {
            what: "policy",
            reason: format!("information state {string:?}: probabilities sum to {total}, not 1"),
        });
    }
    Ok(())
}

/// The information sets of `tree` by string; an error if two share one.
pub(crate) fn string_index(tree: &FlatTree) -> Result<HashMap<&str, usize>> {
    let mut index = HashMap::with_capacity(tree.infosets().len());
    for (s, set) in tree.infosets().iter().enumerate() {
        if index.insert(set.string.as_str(), s).is_some() {
            return Err(Error::Invalid {
                what: "policy",
                reason: format!(
                    "two information sets share the string {:?}: the game's strings cannot \
                     key a policy",
                    set.string
                ),
            });
        }
    }
    Ok(index)
}

/// A policy keyed by information-state string: per string, `(action, probability)` pairs.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PolicyTable(pub BTreeMap<String, Vec<(u32, f64)>>);

/// The JSON form of a policy: `{"game": id, "options": text, "policy": {info_state_string:
/// {action: probability}}}` (action ids as strings, JSON keys being strings).
#[derive(Serialize, Deserialize)]
struct PolicyFile {
    game: String,
    #[serde(default)]
    options: String,
    policy: BTreeMap<String, BTreeMap<String, f64>>,
}

impl PolicyTable {
    /// The JSON text of this table for game `game` (configured by `options`, its text form).
    pub fn to_json(&self, game: &str, options: &str) -> String {
        let file = PolicyFile {
            game: game.to_string(),
            options: options.to_string(),
            policy: self
                .0
                .iter()
                .map(|(k, v)| {
                    (
                        k.clone(),
                        v.iter().map(|(a, p)| (a.to_string(), *p)).collect(),
                    )
                })
                .collect(),
        };
        serde_json::to_string_pretty(&file).expect("a policy always serializes")
    }

    /// Reads the JSON form: the table, the game id and the options text.
    pub fn from_json(text: &str) -> Result<(PolicyTable, String, String)> {
        let file: PolicyFile = serde_json::from_str(text).map_err(|e| Error::Invalid {
            what: "policy file",
            reason: e.to_string(),
        })?;
        let mut table = PolicyTable::default();
        for (k, v) in file.policy {
            let mut dist = Vec::with_capacity(v.len());
            for (a, p) in v {
                let action = a.parse::<u32>().map_err(|_| Error::Invalid {
                    what: "policy file",
                    reason: format!("information state {k:?}: action {a:?} is not an action id"),
                })?;
                dist.push((action, p));
            }
            table.0.insert(k, dist);
        }
        Ok((table, file.game, file.options))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::kuhn::KuhnPoker;

    #[test]
    fn a_table_round_trips_through_json_and_bad_tables_name_the_key() {
        let tree = FlatTree::build(&KuhnPoker, 1000).unwrap();
        let uniform = Policy::uniform(&tree);
        let table = uniform.to_table(&tree).unwrap();
        assert_eq!(table.0["0pb"], vec![(0, 0.5), (1, 0.5)]);
        let (back, game, _) = PolicyTable::from_json(&table.to_json("kuhn", "")).unwrap();
        assert_eq!(game, "kuhn");
        assert_eq!(Policy::from_table(&tree, &back).unwrap(), uniform);

        let mut bad = table.clone();
        bad.0.insert("0pb".into(), vec![(0, 0.5), (1, 0.6)]);
        let err = Policy::from_table(&tree, &bad).unwrap_err().to_string();
        assert!(err.contains("\"0pb\"") && err.contains("sum"), "{err}");
        let mut bad = table.clone();
        bad.0.insert("9".into(), vec![(0, 1.0)]);
        let err = Policy::from_table(&tree, &bad).unwrap_err().to_string();
        assert!(err.contains("unknown information state \"9\""), "{err}");
        let mut bad = table.clone();
        bad.0.insert("1".into(), vec![(0, -0.5), (1, 1.5)]);
        assert!(Policy::from_table(&tree, &bad).is_err());
        let mut bad = table;
        bad.0.remove("2pb");
        let err = Policy::from_table(&tree, &bad).unwrap_err().to_string();
        assert!(err.contains("missing") && err.contains("2pb"), "{err}");
    }
}
