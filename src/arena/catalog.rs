//! The opponent catalog of the i151 arena: stable ids, names, kinds, tiers and tags, as the
//! official `i151_engine.opponents.catalog` (0.2.4) lists them, and the registry that
//! resolves an id to a bot ([`resolve`]). Ids never change once published.

use super::runner::MatchConfig;
use crate::agents::policy_file::PolicyBot;
use crate::core::simd::one_hot_u8;
use crate::core::{Bot, Error, Game, LaneRng, Result};
use crate::games::i151::bots::{Greedy, Medium, Minmax, RandomPolicy, ViewPolicy};
use crate::games::i151::{encode_view, PlayerView, I151};

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
///
/// `policy:<path>` (a trained network, [`crate::agents::policy_file`]) is resolved too,
/// checked against the arena's default configuration ([`MatchConfig::new`]); for
/// another configuration use [`resolve_in`].
pub fn resolve(id: &str) -> Result<Box<dyn ViewPolicy>> {
    resolve_in(&MatchConfig::new(0).game()?, id)
}

/// The game options the arena sets by its own rules, whatever a policy file was trained with.
const ARENA_SETS: &[&str] = &["max_round_steps", "reward"];

/// The prefix of an opponent that is a policy file rather than a catalog id.
pub const POLICY_PREFIX: &str = "policy:";

/// [`resolve`] for matches of `game` (the configuration a [`MatchConfig`] makes): a
/// `policy:<path>` opponent must have been trained on the same rules (seats, cards per
/// player, target score, first dealer; not `max_round_steps` or `reward`, which the arena
/// sets by its own rules), else its file is refused with the difference named. Its network
/// reads the observation of the seat's view ([`encode_view`], what the engine's observation
/// of that seat is) and plays the legal action it rates highest, or samples with
/// `policy:<path>,sample=1`: one forward pass per decision (microseconds for the networks
/// the examples train), far inside the arena's decision time limit.
pub fn resolve_in(game: &I151, id: &str) -> Result<Box<dyn ViewPolicy>> {
    if id.starts_with(POLICY_PREFIX) {
        let bot = PolicyBot::parse_except(game, id, ARENA_SETS)?;
        return Ok(Box::new(ViewNet { bot }));
    }
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

/// The name a match shows for opponent `id`: the catalog's name, or the id itself for a
/// policy file. Errors as [`get_spec`] for an id that is neither.
pub fn display_name(id: &str) -> Result<String> {
    if id.starts_with(POLICY_PREFIX) {
        return Ok(id.to_string());
    }
    Ok(get_spec(id)?.name.to_string())
}

/// A policy file playing the arena from a seat's view.
struct ViewNet {
    bot: PolicyBot<I151>,
}

impl ViewPolicy for ViewNet {
    fn name(&self) -> &str {
        Bot::name(&self.bot)
    }

    fn choose(&self, game: &I151, view: &PlayerView, legal: u64, rng: &mut LaneRng) -> u32 {
        let mut obs = vec![0f32; game.obs_dim()];
        encode_view(view, &mut obs);
        // The engine's own expansion of the legal bits (`I151::legal_mask`).
        let mut mask = vec![0u8; game.num_actions()];
        one_hot_u8(legal as u128, &mut mask);
        self.bot.act_on_obs(&obs, &mask, rng)
    }
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
    #[test]
    fn a_policy_file_plays_the_arena_from_the_view() {
        use super::super::runner::{play_series_match, Clock};
        use crate::agents::policy_file::testing::{bytes, metadata, mlp_tensors};
        let game = MatchConfig::new(0).game().unwrap();
        let dir = std::env::temp_dir().join(format!("cardvec-arena-net-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let widths = [game.obs_dim(), 32, game.num_actions()];
        let write = |name: &str, g: &str, options: &str, widths: &[usize]| {
            let path = dir.join(name);
            let b = bytes(&mlp_tensors(widths), metadata(g, options, "tanh"));
            std::fs::write(&path, b).unwrap();
            format!("policy:{}", path.display())
        };
        // Trained with the registry's defaults (its own round cut-off): the arena takes it.
        let id = write("ok.safetensors", "151", "{}", &widths);
        let net = resolve_in(&game, &id).unwrap();
        assert_eq!(display_name(&id).unwrap(), id);
        // From a seat's view it plays what the same network plays from the state.
        let bot = PolicyBot::<I151>::parse_except(&game, &id, ARENA_SETS).unwrap();
        let mut rng = LaneRng::for_lane(5, 0, 0);
        let mut s = game.reset(&mut rng);
        let mut mask = vec![0u8; game.num_actions()];
        let mut rewards = [0f32; 2];
        let mut decisions = 0;
        while !game.finished(&s).0 && decisions < 300 {
            game.legal_mask(&s, &mut mask);
            let legal = game.legal_bits(&s);
            let view = game.view(&s, s.to_act as usize);
            let a = net.choose(&game, &view, legal, &mut rng.clone());
            assert_eq!(a, bot.act(&game, &s, &mask, &mut rng.clone()));
            assert_eq!(mask[a as usize], 1, "an illegal choice");
            game.step(&mut s, a, &mut rng, &mut rewards);
            decisions += 1;
        }
        assert!(decisions > 20, "{decisions}");
        // A whole match through the runner, against a catalog bot, without a forfeit.
        let (r, _) = play_series_match(
            &MatchConfig::new(0),
            Clock::FREE,
            &id,
            "builtin:greedy",
            3,
            0,
        )
        .unwrap();
        assert_eq!(r.forfeited, None, "{:?}", r.detail);
        assert!(r.steps_played > 0);
        // Refused, each with the reason named: another game, other rules, a missing file.
        let other = write("lc.safetensors", "lost-cities", "{}", &widths);
        let err = resolve_in(&game, &other).err().unwrap().to_string();
        assert!(err.contains("trained on lost-cities"), "{err}");
        let cards = write(
            "cards.safetensors",
            "151",
            r#"{"cards_per_player": 7}"#,
            &widths,
        );
        let err = resolve_in(&game, &cards).err().unwrap().to_string();
        assert!(err.contains("cards_per_player"), "{err}");
        let err = resolve_in(&game, "policy:/nonexistent/net.safetensors")
            .err()
            .unwrap();
        assert!(err.to_string().contains("cannot read"), "{err}");
        let narrow = write(
            "narrow.safetensors",
            "151",
            "{}",
            &[7, 4, game.num_actions()],
        );
        assert!(resolve_in(&game, &narrow).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
