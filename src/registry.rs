//! The table of games: the one place that knows which games exist. Every tool that serves
//! "any game" reads it: the CLI (`cardvec games`, `bench`, `diff`, `match`, `trace`), the
//! Python `cardvec.make` and `cardvec.games()`, the conformance suite, the fuzz targets and
//! the benches. A game registers by implementing [`GameSpec`] for its configuration type and
//! adding one line to the table, the `register_games!` invocation in `src/games/mod.rs`
//! (which also declares the game's module).
//!
//! A tool that needs the game's types implements [`Visitor`] and is called back with them
//! ([`visit`] for the game an id names, [`visit_all`] for every game); a tool that only
//! needs a batch environment takes a [`DynEnv`] from [`make`] (a learner view, the other
//! seats played by bots: a [`DynLearner`] from [`make_learner`]). A solver reaches a game
//! with the [`GameTree`] capability through [`visit_tree`].

use crate::core::dyn_env::DynEnv;
use crate::core::env::{EnvOptions, VecEnv};
use crate::core::error::{Error, Result};
use crate::core::fuzz::StateCheckReport;
use crate::core::learner::{DynLearner, LearnerEnv, LearnerSeat, Opponents};
use crate::core::policy::LaneView;
use crate::core::spec::{GameInfo, GameSpec, OptionValue, Options};
use crate::core::tree::{DynTree, Erase, GameTree, TreeVisitor};
use crate::core::words::{DynWords, ErasedWords};

/// A computation over one registered game, generic in the game's type.
pub trait Visitor {
    /// What the computation returns.
    type Output;
    /// Runs the computation for game `G`.
    fn visit<G: GameSpec>(&mut self) -> Self::Output;
}

/// Declares the table of games: for each `module::Type` it declares the game module
/// (`pub mod module;`, so a game's folder needs no other line) and lists `Type` (which
/// implements [`GameSpec`]) in [`GAMES`], [`visit`] and [`visit_all`]. Invoked once, in
/// `src/games/mod.rs`, the table itself.
macro_rules! register_games {
    ($($module:ident :: $game:ident),+ $(,)?) => {
        $(pub mod $module;)+

        /// Every registered game, in the table's order.
        pub const GAMES: &[$crate::core::spec::GameInfo] =
            &[$(<$module::$game as $crate::core::spec::GameSpec>::INFO),+];

        /// Runs `visitor` on the game whose id is `id` (an unknown id is an error listing
        /// the known ones).
        pub fn visit<V: $crate::registry::Visitor>(
            id: &str,
            visitor: &mut V,
        ) -> $crate::core::error::Result<V::Output> {
            $(
                if id == <$module::$game as $crate::core::spec::GameSpec>::INFO.id {
                    return Ok(visitor.visit::<$module::$game>());
                }
            )+
            Err($crate::registry::unknown_game(id))
        }

        /// Runs `visitor` on every game, in the table's order.
        pub fn visit_all<V: $crate::registry::Visitor>(visitor: &mut V) -> Vec<V::Output> {
            vec![$(visitor.visit::<$module::$game>()),+]
        }
    };
}
pub(crate) use register_games;

pub use crate::games::{visit, visit_all, GAMES};

pub(crate) fn unknown_game(id: &str) -> Error {
    Error::Unknown {
        what: "game",
        name: id.to_string(),
        expected: ids().join(", "),
    }
}

/// The ids of every game.
pub fn ids() -> Vec<&'static str> {
    GAMES.iter().map(|g| g.id).collect()
}

/// The entry of the game whose id is `id`.
pub fn info(id: &str) -> Result<&'static GameInfo> {
    GAMES
        .iter()
        .find(|g| g.id == id)
        .ok_or_else(|| unknown_game(id))
}

/// Checks options of game `id` given as `(name, value)` pairs.
pub fn options(id: &str, pairs: Vec<(String, OptionValue)>) -> Result<Options> {
    Options::new(info(id)?.options, pairs)
}

/// Game `G` configured by `options`, options checked against `G`'s (the registry's makers
/// all configure a game here; options checked against another game's are an error).
fn configured<G: GameSpec>(options: &Options) -> Result<G> {
    if options.specs() != G::INFO.options {
        return Err(Error::Invalid {
            what: "options",
            reason: format!(
                "checked against another game's options, not {}'s",
                G::INFO.id
            ),
        });
    }
    G::configure(options)
}

struct Make<'a> {
    options: &'a Options,
    env: EnvOptions,
}

impl Visitor for Make<'_> {
    type Output = Result<Box<dyn DynEnv>>;
    fn visit<G: GameSpec>(&mut self) -> Self::Output {
        let game = configured::<G>(self.options)?;
        Ok(Box::new(VecEnv::new(game, self.env.clone())?))
    }
}

/// A batch environment of game `id` configured by `options` (`(name, value)` pairs, checked
/// against the game's options), built with `env`.
pub fn make(
    id: &str,
    options: Vec<(String, OptionValue)>,
    env: EnvOptions,
) -> Result<Box<dyn DynEnv>> {
    make_with(id, &self::options(id, options)?, env)
}

/// [`make`] with options already checked ([`options`], or a tool's own [`Options`] of
/// game `id`): they go to the game as they are.
pub fn make_with(id: &str, options: &Options, env: EnvOptions) -> Result<Box<dyn DynEnv>> {
    visit(id, &mut Make { options, env })?
}

struct MakeLearner<'a> {
    options: &'a Options,
    opponents: &'a Opponents,
    seat: LearnerSeat,
    env: EnvOptions,
}

impl Visitor for MakeLearner<'_> {
    type Output = Result<Box<dyn DynLearner>>;
    fn visit<G: GameSpec>(&mut self) -> Self::Output {
        let game = configured::<G>(self.options)?;
        Ok(Box::new(crate::agents::learner(
            game,
            self.opponents,
            self.seat,
            self.env.clone(),
        )?))
    }
}

/// A learner view ([`LearnerEnv`]) of game `id` configured by `options`, its other seats
/// played by the game's built-in bots `opponents`, the learner at `seat`, built with `env`.
pub fn make_learner(
    id: &str,
    options: Vec<(String, OptionValue)>,
    opponents: &Opponents,
    seat: LearnerSeat,
    env: EnvOptions,
) -> Result<Box<dyn DynLearner>> {
    make_learner_with(id, &self::options(id, options)?, opponents, seat, env)
}

/// [`make_learner`] with options already checked.
pub fn make_learner_with(
    id: &str,
    options: &Options,
    opponents: &Opponents,
    seat: LearnerSeat,
    env: EnvOptions,
) -> Result<Box<dyn DynLearner>> {
    visit(
        id,
        &mut MakeLearner {
            options,
            opponents,
            seat,
            env,
        },
    )?
}

/// A type-erased batch (a [`DynEnv`] or a [`DynLearner`]) seen as its typed lanes: what the
/// visitors that act on lanes (bots, policy files) read, written once for both kinds.
trait ErasedLanes {
    /// The lanes of the batch, which must hold game `G`.
    fn lane_view<G: GameSpec>(&self) -> Result<LaneView<'_, G>>;
}

impl ErasedLanes for dyn DynEnv + '_ {
    fn lane_view<G: GameSpec>(&self) -> Result<LaneView<'_, G>> {
        self.as_any()
            .downcast_ref::<VecEnv<G>>()
            .map(VecEnv::lane_view)
            .ok_or_else(|| wrong_type(G::INFO.id))
    }
}

impl ErasedLanes for dyn DynLearner + '_ {
    fn lane_view<G: GameSpec>(&self) -> Result<LaneView<'_, G>> {
        self.as_any()
            .downcast_ref::<LearnerEnv<G>>()
            .map(LearnerEnv::lane_view)
            .ok_or_else(|| wrong_type(G::INFO.id))
    }
}

fn wrong_type(id: &str) -> Error {
    Error::Invalid {
        what: "environment",
        reason: format!("the environment does not hold a registered {id} batch"),
    }
}

/// What [`bot_actions`] and [`learner_bot_actions`] do with the environment's game type:
/// the named bot (any name [`crate::agents::bot`] knows) played in the selected lanes.
struct BotActions<'a, E: ?Sized> {
    env: &'a E,
    name: &'a str,
    selected: Option<&'a [bool]>,
    seed: u64,
    out: &'a mut [i64],
}

impl<E: ErasedLanes + ?Sized> Visitor for BotActions<'_, E> {
    type Output = Result<()>;
    fn visit<G: GameSpec>(&mut self) -> Self::Output {
        let view = self.env.lane_view::<G>()?;
        let bot = crate::agents::bot(view.game, self.name)?;
        view.bot_actions(&*bot, self.selected, self.seed, self.out)
    }
}

/// The bot named `bot` (any name [`crate::agents::bot`] knows) played in every lane of
/// `env` selected by `selected`: see [`VecEnv::bot_actions`]. An unknown name is an
/// [`Error::Unknown`] listing the game's bots; nothing is written on an error.
pub fn bot_actions(
    env: &dyn DynEnv,
    bot: &str,
    selected: Option<&[bool]>,
    seed: u64,
    out: &mut [i64],
) -> Result<()> {
    visit(
        env.info().id,
        &mut BotActions {
            env,
            name: bot,
            selected,
            seed,
            out,
        },
    )?
}

/// The bot named `bot` in the learner's place in every lane of `env` selected by
/// `selected`: see [`LearnerEnv::bot_actions`] and [`bot_actions`].
pub fn learner_bot_actions(
    env: &dyn DynLearner,
    bot: &str,
    selected: Option<&[bool]>,
    seed: u64,
    out: &mut [i64],
) -> Result<()> {
    visit(
        env.info().id,
        &mut BotActions {
            env,
            name: bot,
            selected,
            seed,
            out,
        },
    )?
}

/// What [`policy_probs`] and [`learner_policy_probs`] do with the environment's game type.
struct PolicyProbs<'a, E: ?Sized> {
    env: &'a E,
    path: &'a std::path::Path,
    selected: Option<&'a [bool]>,
    out: &'a mut [f32],
}

impl<E: ErasedLanes + ?Sized> Visitor for PolicyProbs<'_, E> {
    type Output = Result<()>;
    fn visit<G: GameSpec>(&mut self) -> Self::Output {
        let view = self.env.lane_view::<G>()?;
        let bot = crate::agents::policy_file::PolicyBot::from_path(view.game, self.path, false)?;
        let (selected, out) = (self.selected, &mut *self.out);
        view.install(|| {
            bot.lane_probabilities(view.game, &view.lanes, selected, view.chunk_size, out)
        })
    }
}

/// The action probabilities of the policy file at `path` (read and checked against the
/// game, see [`crate::agents::policy_file`]) for the seat to act in every lane of `env`
/// selected by `selected` (`None`: every lane) whose game is not over, into `out`
/// (`[N, num_actions]`: the softmax over the legal actions; zero rows elsewhere). Errors
/// (nothing written): a bad or mismatched file, buffers of the wrong length.
pub fn policy_probs(
    env: &dyn DynEnv,
    path: &std::path::Path,
    selected: Option<&[bool]>,
    out: &mut [f32],
) -> Result<()> {
    visit(
        env.info().id,
        &mut PolicyProbs {
            env,
            path,
            selected,
            out,
        },
    )?
}

/// [`policy_probs`] for the learner's seat of a learner view.
pub fn learner_policy_probs(
    env: &dyn DynLearner,
    path: &std::path::Path,
    selected: Option<&[bool]>,
    out: &mut [f32],
) -> Result<()> {
    visit(
        env.info().id,
        &mut PolicyProbs {
            env,
            path,
            selected,
            out,
        },
    )?
}

/// What [`action_keys`] and [`learner_action_keys`] do with the environment's game type.
struct ActionKeys<'a, E: ?Sized> {
    env: &'a E,
    out: Option<&'a mut [i64]>,
}

impl<E: ErasedLanes + ?Sized> Visitor for ActionKeys<'_, E> {
    type Output = Result<usize>;
    fn visit<G: GameSpec>(&mut self) -> Self::Output {
        let view = self.env.lane_view::<G>()?;
        let (game, a) = (view.game, view.game.num_actions());
        let count = game.action_key_count();
        let Some(out) = self.out.as_deref_mut() else {
            return Ok(count);
        };
        Error::check_len("action keys", view.lanes.states.len() * a, out.len())?;
        if a == 0 {
            return Ok(count);
        }
        let mut keys = vec![0u32; a];
        for (l, row) in out.chunks_exact_mut(a).enumerate() {
            if count > 0 && view.lanes.asked(l, None) {
                game.action_keys(&view.lanes.states[l], &mut keys);
                for (o, &k) in row.iter_mut().zip(&keys) {
                    *o = i64::from(k);
                }
            } else {
                for (i, o) in row.iter_mut().enumerate() {
                    *o = i as i64;
                }
            }
        }
        Ok(count)
    }
}

/// The action keys ([`GameSpec::action_keys`]) of the seat to act in every lane of `env`
/// into `out` when given (`[N, num_actions]`; the action ids themselves in a lane whose
/// game is over, and everywhere for a game that names no keys); returns the game's key
/// count (0: it names none). Errors (nothing written): `out` of the wrong length.
pub fn action_keys(env: &dyn DynEnv, out: Option<&mut [i64]>) -> Result<usize> {
    visit(env.info().id, &mut ActionKeys { env, out })?
}

/// [`action_keys`] for the learner's seat of a learner view.
pub fn learner_action_keys(env: &dyn DynLearner, out: Option<&mut [i64]>) -> Result<usize> {
    visit(env.info().id, &mut ActionKeys { env, out })?
}

/// What [`search_values`] and [`learner_search_values`] do with the environment's game type:
/// a `pimc` bot's action values in the selected lanes.
struct SearchValues<'a, E: ?Sized> {
    env: &'a E,
    name: &'a str,
    selected: Option<&'a [bool]>,
    seed: u64,
    out: &'a mut [f32],
}

impl<E: ErasedLanes + ?Sized> Visitor for SearchValues<'_, E> {
    type Output = Result<()>;
    fn visit<G: GameSpec>(&mut self) -> Self::Output {
        let view = self.env.lane_view::<G>()?;
        let bot = crate::agents::pimc::Pimc::parse(view.game, self.name)?;
        let (selected, seed, out) = (self.selected, self.seed, &mut *self.out);
        view.install(|| bot.lane_values(view.game, &view.lanes, selected, seed, out))
    }
}

/// The action values of the search bot `bot` (a `pimc` name, see
/// [`crate::agents::pimc`]) for the seat to act in every lane of `env` selected by
/// `selected` (`None`: every lane) whose game is not over, into `out` (`[N, num_actions]`:
/// each legal action's mean rollout value for that seat, `NaN` for illegal actions and
/// in the other rows): see [`crate::agents::pimc::Pimc::lane_values`]. Lane `l` searches
/// with the stream [`bot_actions`] gives the bot, so with the same `seed` the highest value
/// is the action `bot_actions` returns. Errors (nothing written): a name that is not a
/// valid `pimc` name, a game without a determinization, buffers of the wrong length.
pub fn search_values(
    env: &dyn DynEnv,
    bot: &str,
    selected: Option<&[bool]>,
    seed: u64,
    out: &mut [f32],
) -> Result<()> {
    visit(
        env.info().id,
        &mut SearchValues {
            env,
            name: bot,
            selected,
            seed,
            out,
        },
    )?
}

/// [`search_values`] for the learner's seat of a learner view (the search plays in the
/// learner's place, as [`learner_bot_actions`]).
pub fn learner_search_values(
    env: &dyn DynLearner,
    bot: &str,
    selected: Option<&[bool]>,
    seed: u64,
    out: &mut [f32],
) -> Result<()> {
    visit(
        env.info().id,
        &mut SearchValues {
            env,
            name: bot,
            selected,
            seed,
            out,
        },
    )?
}

struct VisitTree<'a, V> {
    options: &'a Options,
    visitor: &'a mut V,
}

impl<V: TreeVisitor> Visitor for VisitTree<'_, V> {
    type Output = Result<V::Output>;
    fn visit<G: GameSpec>(&mut self) -> Self::Output {
        let game = configured::<G>(self.options)?;
        game.visit_tree(self.visitor).ok_or_else(|| Error::Invalid {
            what: "game",
            reason: format!(
                "{} has no game tree for solvers (games with one: {})",
                G::INFO.id,
                tree_ids().join(", ")
            ),
        })
    }
}

/// Runs `visitor` on game `id` configured by `options`, as a [`GameTree`]: what a solver
/// calls. An unknown id, a bad option or a game without the capability is an error.
pub fn visit_tree<V: TreeVisitor>(
    id: &str,
    options: Vec<(String, OptionValue)>,
    visitor: &mut V,
) -> Result<V::Output> {
    visit_tree_with(id, &self::options(id, options)?, visitor)
}

/// [`visit_tree`] with options already checked.
pub fn visit_tree_with<V: TreeVisitor>(
    id: &str,
    options: &Options,
    visitor: &mut V,
) -> Result<V::Output> {
    visit(id, &mut VisitTree { options, visitor })?
}

struct ErasedNode<'a> {
    options: &'a Options,
}

impl Visitor for ErasedNode<'_> {
    type Output = Result<(Box<dyn DynTree>, Box<dyn DynWords>)>;
    fn visit<G: GameSpec>(&mut self) -> Self::Output {
        let game = configured::<G>(self.options)?;
        let tree = game.visit_tree(&mut Erase).ok_or_else(|| Error::Invalid {
            what: "game",
            reason: format!(
                "{} has no game tree (games with one: {})",
                G::INFO.id,
                tree_ids().join(", ")
            ),
        })?;
        // The same configured game, so the words read the tree's state bytes.
        Ok((tree, Box::new(ErasedWords(game))))
    }
}

/// Game `id` configured by `options` as a [`GameTree`] and its [`Words`](crate::core::Words), their state type
/// erased ([`DynTree`], [`DynWords`]: states are the bytes of the game's `State`, the same
/// for both): what a binding holding one tree node at a time uses (the OpenSpiel adapter's
/// explicit chance nodes). An unknown id, a bad option or a game without the capability is
/// an error.
pub fn erased_tree(
    id: &str,
    options: Vec<(String, OptionValue)>,
) -> Result<(Box<dyn DynTree>, Box<dyn DynWords>)> {
    let options = self::options(id, options)?;
    visit(id, &mut ErasedNode { options: &options })?
}

struct HasTree;

impl TreeVisitor for HasTree {
    type Output = ();
    fn visit<G: GameTree>(&mut self, _: &G) {}
}

impl Visitor for HasTree {
    type Output = bool;
    fn visit<G: GameSpec>(&mut self) -> bool {
        configured::<G>(&Options::defaults(G::INFO.options))
            .map(|g: G| g.visit_tree(&mut HasTree).is_some())
            .unwrap_or(false)
    }
}

/// The ids of the games with the [`GameTree`] capability (in their default configuration).
pub fn tree_ids() -> Vec<&'static str> {
    ids_where(&mut HasTree)
}

/// The ids of the games for which `test` answers `true`, in the table's order.
fn ids_where<V: Visitor<Output = bool>>(test: &mut V) -> Vec<&'static str> {
    GAMES
        .iter()
        .zip(visit_all(test))
        .filter(|(_, has)| *has)
        .map(|(g, _)| g.id)
        .collect()
}

struct TreeCheck<'a>(&'a [u8]);

impl TreeVisitor for TreeCheck<'_> {
    type Output = std::result::Result<(), String>;
    fn visit<G: GameTree>(&mut self, game: &G) -> Self::Output {
        crate::core::tree::check_tree(game, self.0)
    }
}

/// The game-tree check ([`crate::core::tree::check_tree`]) of game `id` in its default
/// configuration on fuzz input `data`. `Err` for a failed invariant or a game without a tree.
pub fn tree_check(id: &str, data: &[u8]) -> std::result::Result<(), String> {
    visit_tree(id, vec![], &mut TreeCheck(data)).map_err(|e| e.to_string())?
}

/// The game-tree check on fuzz input `data` for every game with a tree: the first byte picks
/// the game (modulo their number), the rest drives [`tree_check`]. What the `trees` fuzz
/// target runs.
pub fn tree_check_any(data: &[u8]) -> std::result::Result<(), String> {
    let ids = tree_ids();
    let (pick, rest) = data
        .split_first()
        .map_or((0, data), |(b, r)| (*b as usize, r));
    tree_check(ids[pick % ids.len()], rest)
}

struct HasInfoStates;

impl Visitor for HasInfoStates {
    type Output = bool;
    fn visit<G: GameSpec>(&mut self) -> bool {
        G::info_states().is_some()
    }
}

/// The ids of the games with information states ([`GameSpec::info_states`]: the batch
/// information-state calls of [`VecEnv`] and [`DynEnv`] work on them).
pub fn info_state_ids() -> Vec<&'static str> {
    ids_where(&mut HasInfoStates)
}

/// The error of a batch information-state call on game `id`, which has none, naming the
/// games that have them.
pub fn no_info_states(id: &str) -> Error {
    Error::Invalid {
        what: "game",
        reason: format!(
            "{id} has no information states (games with them: {})",
            info_state_ids().join(", ")
        ),
    }
}

struct Fuzz<'a>(&'a [u8]);

impl Visitor for Fuzz<'_> {
    type Output = std::result::Result<(), String>;
    fn visit<G: GameSpec>(&mut self) -> Self::Output {
        crate::core::fuzz::check::<G>(self.0)
    }
}

/// The generic fuzz check ([`crate::core::fuzz::check`]) on game `id`.
pub fn fuzz_check(id: &str, data: &[u8]) -> std::result::Result<(), String> {
    visit(id, &mut Fuzz(data)).map_err(|e| e.to_string())?
}

/// The fuzz check over every game: the first byte picks the game (modulo the number of
/// games), the rest is that game's input. What the `games` fuzz target runs.
pub fn fuzz_check_any(data: &[u8]) -> std::result::Result<(), String> {
    let Some((&pick, rest)) = data.split_first() else {
        return Ok(());
    };
    let game = &GAMES[pick as usize % GAMES.len()];
    fuzz_check(game.id, rest).map_err(|e| format!("{}: {e}", game.id))
}

struct States<'a>(&'a [u8]);

impl Visitor for States<'_> {
    type Output = std::result::Result<StateCheckReport, String>;
    fn visit<G: GameSpec>(&mut self) -> Self::Output {
        crate::core::fuzz::check_states::<G>(self.0)
    }
}

/// The state-corruption check ([`crate::core::fuzz::check_states`]) on game `id`.
pub fn state_check(id: &str, data: &[u8]) -> std::result::Result<StateCheckReport, String> {
    visit(id, &mut States(data)).map_err(|e| e.to_string())?
}

/// The state-corruption check over every game: the first byte picks the game (modulo the
/// number of games), the rest is that game's input (an empty input checks nothing). What
/// the `states` fuzz target runs.
pub fn state_check_any(data: &[u8]) -> std::result::Result<StateCheckReport, String> {
    let Some((&pick, rest)) = data.split_first() else {
        return Ok(StateCheckReport::default());
    };
    let game = &GAMES[pick as usize % GAMES.len()];
    state_check(game.id, rest).map_err(|e| format!("{}: {e}", game.id))
}

#[cfg(test)]
mod tests {
    #[test]
    fn erased_trees_walk_as_openspiels_kuhn_and_leduc() {
        // OpenSpiel: kuhn_poker's and leduc_poker's max chance outcomes, utilities and
        // game lengths.
        for (id, chance, utility, length) in [("kuhn", 3, 2.0, 3), ("leduc", 6, 13.0, 8)] {
            let (tree, words) = erased_tree(id, vec![]).unwrap();
            let stats = tree.stats(1_000_000).unwrap();
            assert_eq!(stats.max_chance_outcomes, chance);
            assert_eq!((stats.min_utility, stats.max_utility), (-utility, utility));
            assert_eq!(stats.max_game_length, length);
            assert!(tree.stats(10).is_err());
            // Every decision node of a path names its actions through the words (its
            // batch state passes the game's checks); a chance node has no batch state.
            let mut s = tree.root();
            assert!(tree.is_chance(&s) && tree.batch_state(&s).is_none());
            assert!(!tree.apply(&mut s, 99));
            while !tree.is_terminal(&s) {
                if tree.is_chance(&s) {
                    let o = tree.chance_outcomes(&s)[0].0;
                    assert!(tree.apply(&mut s, o));
                    continue;
                }
                let legal = tree.legal_actions(&s);
                let batch = tree.batch_state(&s).unwrap();
                for &a in &legal {
                    assert!(words.action_name(&batch, a).is_some());
                }
                assert!(words.view(&batch, 1).is_some() && words.view(&batch, 2).is_none());
                let before = s.clone();
                assert!(!tree.apply(&mut s, 99) && s == before);
                assert!(tree.apply(&mut s, *legal.last().unwrap()));
            }
            assert_eq!(tree.returns(&s).iter().sum::<f64>(), 0.0);
            assert!(!tree.apply(&mut s[..1], 0), "bytes of another length");
        }
        assert!(erased_tree("flip7", vec![]).is_err());
    }

    use super::*;
    use crate::core::{OptionKind, OptionSpec};

    #[test]
    fn ids_are_unique_and_found() {
        let ids = ids();
        for (i, id) in ids.iter().enumerate() {
            assert!(!ids[..i].contains(id), "{id} twice");
            assert_eq!(info(id).unwrap().id, *id);
        }
        assert!(matches!(info("chess"), Err(Error::Unknown { .. })));
    }

    struct Root;

    impl TreeVisitor for Root {
        type Output = bool;
        fn visit<G: GameTree>(&mut self, game: &G) -> bool {
            game.is_chance(&game.root())
        }
    }

    #[test]
    fn tree_games_are_reached_by_id_and_others_refused_with_the_list() {
        let trees = tree_ids();
        assert!(
            trees.contains(&"kuhn") && trees.contains(&"leduc"),
            "{trees:?}"
        );
        // Kuhn's and Leduc's trees start at the deal.
        assert!(visit_tree("kuhn", vec![], &mut Root).unwrap());
        assert!(visit_tree("leduc", vec![], &mut Root).unwrap());
        // Every registered game is reached or refused by its capability, with no list of
        // games kept here (a new tree game needs no edit of this test).
        for info in GAMES {
            let result = visit_tree(info.id, vec![], &mut Root);
            if trees.contains(&info.id) {
                assert!(result.is_ok(), "{}", info.id);
            } else {
                let err = result.unwrap_err().to_string();
                assert!(
                    err.contains("no game tree") && trees.iter().all(|t| err.contains(t)),
                    "{err}"
                );
            }
        }
        assert!(trees.len() < GAMES.len(), "some game has no tree");
        assert!(matches!(
            visit_tree("chess", vec![], &mut Root),
            Err(Error::Unknown { .. })
        ));
    }

    #[test]
    fn every_tree_game_passes_the_tree_check_on_random_paths() {
        let mut rng = crate::core::LaneRng::from_seed(16);
        for id in tree_ids() {
            for len in 0..600 {
                let data: Vec<u8> = (0..len % 40).map(|_| rng.below(256) as u8).collect();
                tree_check(id, &data).unwrap_or_else(|e| panic!("{id} {data:?}: {e}"));
            }
        }
        assert!(tree_check("flip7", &[1, 2])
            .unwrap_err()
            .contains("no game tree"));
        tree_check_any(&[]).unwrap();
    }

    #[test]
    fn every_configuration_and_default_parses_and_configures() {
        struct Check;
        impl Visitor for Check {
            type Output = ();
            fn visit<G: GameSpec>(&mut self) {
                for spec in G::INFO.options {
                    if spec.default != "auto" {
                        assert!(
                            Options::defaults(G::INFO.options).get(spec.name).is_some(),
                            "{}: default of {} does not parse",
                            G::INFO.id,
                            spec.name
                        );
                    }
                }
                for text in G::INFO.configurations {
                    let options = Options::parse(G::INFO.options, text).unwrap();
                    let game = G::configure(&options).unwrap();
                    let again = G::configure(&game.options()).unwrap();
                    assert_eq!(
                        again.options(),
                        game.options(),
                        "{}: options do not round-trip",
                        G::INFO.id
                    );
                }
                assert_eq!(G::INFO.configurations.first(), Some(&""));
            }
        }
        visit_all(&mut Check);
    }

    /// Every integer option of every game, at the ends of its range and just beyond:
    /// a value in range configures a game that reports that same value back (or is refused
    /// for a reason that involves other options), never a narrowed one; a value beyond the
    /// range is refused with a message showing the value given.
    #[test]
    fn integer_options_are_checked_before_they_are_narrowed() {
        struct Check;
        impl Visitor for Check {
            type Output = ();
            fn visit<G: GameSpec>(&mut self) {
                let id = G::INFO.id;
                for spec in G::INFO.options {
                    let (min, max) = match spec.kind {
                        OptionKind::Int { min, max } | OptionKind::OptionalInt { min, max } => {
                            (min, max)
                        }
                        _ => continue,
                    };
                    for v in [min, max] {
                        let pairs = [(spec.name.to_string(), OptionValue::Int(v))];
                        let options = Options::new(G::INFO.options, pairs).unwrap();
                        // (An option the game reports through another, such as hold'em's
                        // `stack` as `stacks`, reads as not given.)
                        let reported = G::configure(&options)
                            .ok()
                            .and_then(|game| game.options().get(spec.name));
                        // 151's first dealer is any integer taken modulo the seats (2 by
                        // default), as the official create_match takes it: the seat is
                        // reported.
                        let expected = if (id, spec.name) == ("151", "initial_dealer") {
                            v.rem_euclid(2)
                        } else {
                            v
                        };
                        if let Some(reported) = reported {
                            assert_eq!(
                                reported,
                                OptionValue::Int(expected),
                                "{id}: {}={v} is reported as {reported}",
                                spec.name
                            );
                        }
                    }
                    for v in [min.saturating_sub(1), max.saturating_add(1), i64::MAX] {
                        if (min..=max).contains(&v) {
                            continue;
                        }
                        let pairs = [(spec.name.to_string(), OptionValue::Int(v))];
                        let err = Options::new(G::INFO.options, pairs).unwrap_err();
                        assert!(
                            err.to_string().ends_with(&format!("got {v}")),
                            "{id}: {}={v}: {err}",
                            spec.name
                        );
                    }
                }
            }
        }
        visit_all(&mut Check);
    }

    #[test]
    fn options_narrow_without_wrapping() {
        const SPECS: &[OptionSpec] = &[OptionSpec {
            name: "n",
            kind: OptionKind::Int {
                min: -1,
                max: 1 << 40,
            },
            default: "0",
            doc: "n",
        }];
        let big = Options::parse(SPECS, "n=1099511627776").unwrap();
        let err = big.int_as::<u32>("n").unwrap_err();
        assert_eq!(
            err.to_string(),
            "n must be in 0..=4294967295, got 1099511627776"
        );
        assert_eq!(big.int_as::<u64>("n"), Ok(1 << 40));
        let negative = Options::parse(SPECS, "n=-1").unwrap();
        assert!(negative.int_as::<usize>("n").is_err());
        assert_eq!(negative.int_as::<i8>("n"), Ok(-1));
    }

    #[test]
    fn make_rejects_unknown_games_and_options() {
        let env = EnvOptions::new(4);
        assert!(make("chess", vec![], env.clone()).is_err());
        assert!(make(
            "flip7",
            vec![("players".into(), OptionValue::Int(3))],
            env.clone()
        )
        .is_err());
        let e = make(
            "flip7",
            vec![("num_players".into(), OptionValue::Int(5))],
            env,
        )
        .unwrap();
        assert_eq!(e.num_players(), 5);
        assert_eq!(e.info().id, "flip7");
    }
}
