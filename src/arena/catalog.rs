//! The opponent catalog of the i151 arena: stable ids, names, kinds, tiers and tags, as the
//! official `i151_engine.opponents.catalog` (0.2.4) lists them, and the registry that
//! resolves an id to a bot ([`resolve`]). Ids never change once published.

use crate::core::{Error, Result};
use crate::games::i151::bots::{Greedy, Medium, Minmax, RandomPolicy, ViewPolicy};

/// Who an opponent is (official `OpponentKind`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpponentKind {
    /// A bot shipped with the engine.
    Builtin,
    /// A team's submission (resolved by the competition server).
    Student,
    /// Chosen dynamically (leaderboard pools; resolved by the server).
    Pool,
}

impl OpponentKind {
    /// The official spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            OpponentKind::Builtin => "builtin",
            OpponentKind::Student => "student",
            OpponentKind::Pool => "pool",
        }
    }
}

/// Strength class (official `OpponentTier`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum OpponentTier {
    /// Smoke tests and tutorials.
    Calibration,
    /// Easy.
    Easy,
    /// Medium.
    Medium,
    /// Hard.
    Hard,
    /// Expert.
    Expert,
    /// The unpublished final bot.
    Secret,
}

impl OpponentTier {
    /// The official spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            OpponentTier::Calibration => "calibration",
            OpponentTier::Easy => "easy",
            OpponentTier::Medium => "medium",
            OpponentTier::Hard => "hard",
            OpponentTier::Expert => "expert",
            OpponentTier::Secret => "secret",
        }
    }
}

/// One catalog entry (official `OpponentSpec`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpponentSpec {
    /// Stable id, e.g. `builtin:random`.
    pub id: &'static str,
    /// Display name, e.g. `Aléatoire`.
    pub name: &'static str,
    /// Kind.
    pub kind: OpponentKind,
    /// Tier.
    pub tier: OpponentTier,
    /// What it does.
    pub description: &'static str,
    /// Tags (`smoke_test`, `tutorial`, `elo_rating`, `champion`, ...).
    pub tags: &'static [&'static str],
    /// Whether cardvec can play it ([`resolve`] succeeds).
    pub implemented: bool,
}

const fn spec(
    id: &'static str,
    name: &'static str,
    kind: OpponentKind,
    tier: OpponentTier,
    description: &'static str,
    tags: &'static [&'static str],
    implemented: bool,
) -> OpponentSpec {
    OpponentSpec {
        id,
        name,
        kind,
        tier,
        description,
        tags,
        implemented,
    }
}

use OpponentKind::{Builtin, Pool, Student};
use OpponentTier::{Calibration, Easy, Expert, Hard, Medium as MediumTier, Secret};

/// The catalog, in the official order.
pub const CATALOG: &[OpponentSpec] = &[
    spec(
        "builtin:random",
        "Aléatoire",
        Builtin,
        Calibration,
        "Joue une action légale au hasard.",
        &["smoke_test", "tutorial", "elo_rating"],
        true,
    ),
    spec(
        "builtin:greedy",
        "Glouton",
        Builtin,
        Easy,
        "Joue la carte jouable qui vaut le plus de points, garde les 8.",
        &["elo_rating", "tutorial"],
        true,
    ),
    spec(
        "builtin:medium",
        "Moyen",
        Builtin,
        MediumTier,
        "Heuristique : points en main, As et Dames comme armes, couleur selon la main.",
        &["elo_rating"],
        true,
    ),
    spec(
        "builtin:minmax_d3",
        "MinMax d3",
        Builtin,
        Hard,
        "Recherche alpha-bêta profondeur 3 sur des mains cachées échantillonnées.",
        &["elo_rating"],
        true,
    ),
    spec(
        "builtin:minmax_d5",
        "MinMax d5",
        Builtin,
        Expert,
        "Bot champion : recherche alpha-bêta profondeur 5.",
        &["elo_rating", "champion"],
        true,
    ),
    spec(
        "builtin:minmax_d6",
        "MinMax d6",
        Builtin,
        Expert,
        "Recherche alpha-bêta profondeur 6.",
        &["elo_rating"],
        true,
    ),
    spec(
        "student:{team_id}",
        "Équipe",
        Student,
        MediumTier,
        "Soumission active d'une équipe.",
        &["student", "elo_rating"],
        false,
    ),
    spec(
        "pool:leaderboard_top1",
        "#1 classement",
        Pool,
        Expert,
        "Adversaire dynamique : meilleur bot actuel.",
        &["pool", "elo_rating"],
        false,
    ),
    spec(
        "pool:leaderboard_top5",
        "Top 5",
        Pool,
        Hard,
        "Adversaire dynamique : top 5 du classement.",
        &["pool", "elo_rating"],
        false,
    ),
    spec(
        "pool:secret_final",
        "Bot secret",
        Pool,
        Secret,
        "Bot final non publié.",
        &["pool", "final_only"],
        false,
    ),
];

/// The ids of the full ladder (official `FULL_LADDER_OPPONENTS`), weakest first.
pub const FULL_LADDER: &[&str] = &[
    "builtin:random",
    "builtin:greedy",
    "builtin:medium",
    "builtin:minmax_d3",
    "builtin:minmax_d5",
    "builtin:minmax_d6",
];

fn known_ids() -> String {
    CATALOG.iter().map(|s| s.id).collect::<Vec<_>>().join(", ")
}

/// The spec of `id`; [`Error::Unknown`] (an unknown `opponent`, the message listing the
/// catalog's ids) if the catalog does not hold it.
pub fn get_spec(id: &str) -> Result<&'static OpponentSpec> {
    CATALOG
        .iter()
        .find(|s| s.id == id)
        .ok_or_else(|| Error::Unknown {
            what: "opponent",
            name: id.to_string(),
            expected: known_ids(),
        })
}

/// The catalog entries, filtered like the official `list_specs` (sorted by id).
pub fn list_specs(implemented_only: bool, tag: Option<&str>) -> Vec<&'static OpponentSpec> {
    let mut specs: Vec<_> = CATALOG
        .iter()
        .filter(|s| !implemented_only || s.implemented)
        .filter(|s| tag.is_none_or(|t| s.tags.contains(&t)))
        .collect();
    specs.sort_by_key(|s| s.id);
    specs
}

/// The bot of catalog id `id`: [`Error::Unknown`] for an id the catalog does not hold,
/// [`Error::Invalid`] for an entry that only the competition server can resolve
/// (`student:*`, `pool:*`). The search bots are built tracking the opponent's public
/// history ([`Minmax::tracking`]): a resolved bot plays one match.
pub fn resolve(id: &str) -> Result<Box<dyn ViewPolicy>> {
    let spec = get_spec(id)?;
    let bot: Box<dyn ViewPolicy> = match spec.id {
        "builtin:random" => Box::new(RandomPolicy),
        "builtin:greedy" => Box::new(Greedy),
        "builtin:medium" => Box::new(Medium),
        "builtin:minmax_d3" => Box::new(Minmax::catalog(3)?.tracking()),
        "builtin:minmax_d5" => Box::new(Minmax::catalog(5)?.tracking()),
        "builtin:minmax_d6" => Box::new(Minmax::catalog(6)?.tracking()),
        _ => {
            return Err(Error::Invalid {
                what: "opponent",
                reason: format!("{id} is resolved by the competition server, not implemented here"),
            })
        }
    };
    Ok(bot)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_resolve_and_unknown_ids_are_errors() {
        for id in FULL_LADDER {
            assert_eq!(
                resolve(id).unwrap().name(),
                id.strip_prefix("builtin:").unwrap()
            );
            assert!(get_spec(id).unwrap().implemented);
        }
        let err = resolve("builtin:nobody").err().unwrap();
        assert!(
            matches!(&err, Error::Unknown { what: "opponent", name, .. } if name == "builtin:nobody"),
            "{err}"
        );
        for spec in CATALOG {
            assert!(err.to_string().contains(spec.id), "{err}");
        }
        assert!(matches!(
            resolve("pool:secret_final"),
            Err(Error::Invalid { .. })
        ));
        assert_eq!(get_spec("builtin:random").unwrap().name, "Aléatoire");
        assert_eq!(list_specs(true, None).len(), 6);
        assert_eq!(
            list_specs(false, Some("champion"))[0].id,
            "builtin:minmax_d5"
        );
    }
}
