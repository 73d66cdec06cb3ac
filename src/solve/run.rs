//! The solvers by game id and algorithm name: what `cardvec solve` and `cardvec.solve`
//! call. [`solve`] runs an algorithm on a registered game with the
//! [`GameTree`] capability and reports the exploitability of its
//! average policy along the way; [`evaluate_table`] evaluates a policy given as a table.

use std::time::{Duration, Instant};

use super::cfr::{CfrConfig, CfrSolver};
use super::exploit::{evaluate, Evaluation};
use super::flat::{FlatTree, DEFAULT_MAX_NODES};
use super::mccfr::{McCfrConfig, McCfrSolver, Sampling};
use super::policy::{Policy, PolicyTable};
use super::state::{resolved_options, RunState, SolverState};
use crate::core::spec::{OptionValue, Options};
use crate::core::{Error, GameTree, Progress, Result, TreeVisitor};
use crate::registry;

/// A solving algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algorithm {
    /// Vanilla CFR ([`CfrConfig::CFR`]).
    Cfr,
    /// CFR+ ([`CfrConfig::CFR_PLUS`]).
    CfrPlus,
    /// Discounted CFR ([`CfrConfig::DCFR`]: alpha 1.5, beta 0, gamma 2).
    Dcfr,
    /// Predictive CFR+ ([`CfrConfig::PCFR_PLUS`]).
    PcfrPlus,
    /// External-sampling MCCFR ([`Sampling::External`]).
    EsMccfr,
    /// Outcome-sampling MCCFR ([`Sampling::Outcome`]).
    OsMccfr,
}

impl Algorithm {
    /// Every algorithm, by name.
    pub const ALL: [Algorithm; 6] = [
        Algorithm::Cfr,
        Algorithm::CfrPlus,
        Algorithm::Dcfr,
        Algorithm::PcfrPlus,
        Algorithm::EsMccfr,
        Algorithm::OsMccfr,
    ];

    /// The algorithm's name: `cfr`, `cfr+`, `dcfr`, `pcfr+`, `es-mccfr` or `os-mccfr`.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Cfr => "cfr",
            Algorithm::CfrPlus => "cfr+",
            Algorithm::Dcfr => "dcfr",
            Algorithm::PcfrPlus => "pcfr+",
            Algorithm::EsMccfr => "es-mccfr",
            Algorithm::OsMccfr => "os-mccfr",
        }
    }

    /// Whether the algorithm samples (MCCFR: `seed`, `lanes` and `epsilon` matter).
    pub fn is_sampling(self) -> bool {
        matches!(self, Algorithm::EsMccfr | Algorithm::OsMccfr)
    }

    /// The algorithm named `name` (an unknown name is an error listing the names).
    pub fn parse(name: &str) -> Result<Algorithm> {
        Algorithm::ALL
            .into_iter()
            .find(|a| a.name() == name)
            .ok_or_else(|| Error::Unknown {
                what: "algorithm",
                name: name.to_string(),
                expected: Algorithm::ALL.map(|a| a.name()).join(", "),
            })
    }
}

/// What [`solve`] runs.
#[derive(Clone, Debug, PartialEq)]
pub struct SolveConfig {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// Iterations to run (at least 1).
    pub iterations: u64,
    /// The seed (sampling algorithms only).
    pub seed: u64,
    /// Report the exploitability every this many iterations (0: only at the end).
    pub every: u64,
    /// Traversals per player per iteration of the sampling algorithms.
    pub lanes: usize,
    /// Exploration of outcome sampling.
    pub epsilon: f64,
    /// The largest tree to enumerate, in nodes.
    pub max_nodes: usize,
    /// Stop once this much wall time (iterations and evaluations) has passed, keeping the
    /// solution reached (at least one iteration is always run).
    pub time_limit: Option<Duration>,
}

impl Default for SolveConfig {
    fn default() -> Self {
        SolveConfig {
            algorithm: Algorithm::CfrPlus,
            iterations: 1000,
            seed: 0,
            every: 0,
            lanes: 1,
            epsilon: 0.6,
            max_nodes: DEFAULT_MAX_NODES,
            time_limit: None,
        }
    }
}

/// One report point of a run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ReportPoint {
    /// Iterations done.
    pub iteration: u64,
    /// Exploitability of the average policy.
    pub exploitability: f64,
    /// Seconds spent iterating so far (evaluations excluded).
    pub seconds: f64,
}

/// Why a run ended before its iteration count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stopped {
    /// [`SolveConfig::time_limit`] passed.
    TimeLimit,
    /// The [`Progress`] asked to stop (Ctrl-C on the command line).
    Interrupted,
}

impl Stopped {
    /// `time-limit` or `interrupted`.
    pub fn name(self) -> &'static str {
        match self {
            Stopped::TimeLimit => "time-limit",
            Stopped::Interrupted => "interrupted",
        }
    }
}

/// What [`solve`] returns.
#[derive(Clone, Debug)]
pub struct Solution {
    /// The algorithm run.
    pub algorithm: Algorithm,
    /// Iterations done in all (fewer than asked when [`Solution::stopped`] says why),
    /// counting those of the state resumed from.
    pub iterations: u64,
    /// The iterations of the state the run resumed from (0 for a fresh run).
    pub resumed_from: u64,
    /// Why the run ended early, if it did: the solution is then the one reached.
    pub stopped: Option<Stopped>,
    /// The average policy, by information-state string.
    pub table: PolicyTable,
    /// The exact evaluation of the average policy (each seat's value, best responses,
    /// NashConv, exploitability).
    pub evaluation: Evaluation,
    /// The report points, the last one at the end.
    pub curve: Vec<ReportPoint>,
    /// Seconds spent iterating (evaluations excluded).
    pub seconds: f64,
    /// Nodes of the flattened tree.
    pub nodes: usize,
    /// Information sets of the tree.
    pub infosets: usize,
}

/// Runs `config.algorithm` on game `id` configured by `options`. `progress` hears one
/// unit per iteration and may stop the run; `on_point` hears each report point as it is
/// made. A run stopped by `progress` or by `config.time_limit` after at least one
/// iteration returns the solution reached, its [`Solution::stopped`] saying why, with a
/// last report point at the iteration reached; stopped before any iteration it is
/// [`Error::Cancelled`]. Errors: unknown game or option, a game without a tree (listing
/// the games with one), a tree above `config.max_nodes`, bad settings (a time limit of
/// zero).
pub fn solve(
    id: &str,
    options: Vec<(String, OptionValue)>,
    config: &SolveConfig,
    progress: &dyn Progress,
    on_point: &mut dyn FnMut(&ReportPoint),
) -> Result<Solution> {
    solve_resumable(id, options, config, None, progress, on_point).map(|(s, _)| s)
}

/// [`solve`], continuing from `resume` (a state this function returned, or
/// [`RunState::load`] read) when given, and returning the state reached with the solution
/// (to save with [`RunState::save`] and continue later). `config.iterations` more
/// iterations are run; iterations count on from the state's (report points every
/// `config.every` of them, the curve's iteration numbers and [`Solution::iterations`]
/// included), so N iterations, then M from their state, give the same bits as N + M at
/// once. Errors: those of [`solve`], and a state of another game, options (compared with
/// every option resolved), algorithm, seed, lanes or epsilon (sampling algorithms), or of
/// a tree this cardvec builds with other node or information-set counts.
pub fn solve_resumable(
    id: &str,
    options: Vec<(String, OptionValue)>,
    config: &SolveConfig,
    resume: Option<RunState>,
    progress: &dyn Progress,
    on_point: &mut dyn FnMut(&ReportPoint),
) -> Result<(Solution, RunState)> {
    Error::check_range("iterations", 1, i64::MAX as i128, config.iterations as i128)?;
    if config.time_limit == Some(Duration::ZERO) {
        return Err(Error::Invalid {
            what: "time limit",
            reason: "must be more than 0 seconds".into(),
        });
    }
    let parsed = registry::options(id, options)?;
    if let Some(state) = &resume {
        check_resume(id, &parsed, config, state)?;
    }
    registry::visit_tree_with(
        id,
        &parsed,
        &mut Solve {
            id,
            options: &parsed,
            config,
            resume,
            progress,
            on_point,
        },
    )?
}

/// Refuses a state of another game, options, algorithm or sampling settings.
fn check_resume(id: &str, options: &Options, config: &SolveConfig, state: &RunState) -> Result<()> {
    let refuse = |reason: String| {
        Err(Error::Invalid {
            what: "resume",
            reason,
        })
    };
    if state.game != id {
        return refuse(format!(
            "the saved run is of {:?}, not of {id:?}",
            state.game
        ));
    }
    let saved = Options::parse(options.specs(), &state.options)?;
    if resolved_options(&saved) != resolved_options(options) {
        return refuse(format!(
            "the saved run has the options {:?}, not {:?} (give the same options)",
            state.options,
            options.to_string()
        ));
    }
    if state.algorithm != config.algorithm {
        return refuse(format!(
            "the saved run is of {}, not of {}",
            state.algorithm.name(),
            config.algorithm.name()
        ));
    }
    if config.algorithm.is_sampling() {
        let (seed, lanes, epsilon) = (state.seed, state.lanes, state.epsilon);
        if seed != config.seed || lanes != config.lanes as u64 {
            return refuse(format!(
                "the saved run has seed {seed} and {lanes} lanes, not seed {} and {} lanes",
                config.seed, config.lanes
            ));
        }
        if config.algorithm == Algorithm::OsMccfr && epsilon.to_bits() != config.epsilon.to_bits() {
            return refuse(format!(
                "the saved run has epsilon {epsilon}, not {}",
                config.epsilon
            ));
        }
    }
    state
        .iterations()
        .checked_add(config.iterations)
        .filter(|&n| n <= i64::MAX as u64)
        .map(|_| ())
        .ok_or_else(|| Error::Invalid {
            what: "iterations",
            reason: "the saved run's iterations and these add past 2^63 - 1".into(),
        })
}

struct Solve<'a> {
    id: &'a str,
    options: &'a Options,
    config: &'a SolveConfig,
    resume: Option<RunState>,
    progress: &'a dyn Progress,
    on_point: &'a mut dyn FnMut(&ReportPoint),
}

impl TreeVisitor for Solve<'_> {
    type Output = Result<(Solution, RunState)>;
    fn visit<G: GameTree>(&mut self, game: &G) -> Result<(Solution, RunState)> {
        let tree = FlatTree::build(game, self.config.max_nodes)?;
        // The policy is returned keyed by string: refuse before iterating, not after.
        super::policy::string_index(&tree)?;
        let config = self.config;
        let resume = self.resume.take();
        if let Some(state) = &resume {
            let (nodes, infosets) = (tree.num_nodes() as u64, tree.infosets().len() as u64);
            if (state.nodes, state.infosets) != (nodes, infosets) {
                return Err(Error::Invalid {
                    what: "resume",
                    reason: format!(
                        "the saved run's tree has {} nodes and {} information sets, and this \
                         cardvec builds {nodes} and {infosets} (written by cardvec {}; solve \
                         again)",
                        state.nodes, state.infosets, state.cardvec_version
                    ),
                });
            }
        }
        let base = resume.as_ref().map_or(0, |s| s.iterations());
        let saved = resume.map(|s| s.solver);
        let cfr_config = match config.algorithm {
            Algorithm::Cfr => Some(CfrConfig::CFR),
            Algorithm::CfrPlus => Some(CfrConfig::CFR_PLUS),
            Algorithm::Dcfr => Some(CfrConfig::DCFR),
            Algorithm::PcfrPlus => Some(CfrConfig::PCFR_PLUS),
            Algorithm::EsMccfr | Algorithm::OsMccfr => None,
        };
        let mut stepper: Box<dyn Stepper + '_> = match cfr_config {
            Some(cfg) => match saved {
                None => Box::new(CfrSolver::new(&tree, cfg)),
                Some(SolverState::Cfr(state)) => Box::new(CfrSolver::resume(&tree, cfg, state)?),
                Some(SolverState::Mccfr(_)) => return Err(sampled_state_mismatch()),
            },
            None => {
                let sampling = if config.algorithm == Algorithm::EsMccfr {
                    Sampling::External
                } else {
                    Sampling::Outcome {
                        epsilon: config.epsilon,
                    }
                };
                let mccfr = McCfrConfig {
                    sampling,
                    seed: config.seed,
                    lanes: config.lanes,
                };
                match saved {
                    None => Box::new(McCfrSolver::new(game.clone(), mccfr)?),
                    Some(SolverState::Mccfr(state)) => {
                        Box::new(McCfrSolver::resume(game.clone(), mccfr, state)?)
                    }
                    Some(SolverState::Cfr(_)) => return Err(sampled_state_mismatch()),
                }
            }
        };
        self.progress.start(config.iterations, "iterations");
        let mut curve: Vec<ReportPoint> = Vec::new();
        let mut seconds = 0.0;
        let started = Instant::now();
        let mut stopped = None;
        let mut done = base;
        for i in 1..=config.iterations {
            if self.progress.should_stop() {
                stopped = Some(Stopped::Interrupted);
            } else if config
                .time_limit
                .is_some_and(|l| i > 1 && started.elapsed() >= l)
            {
                stopped = Some(Stopped::TimeLimit);
            }
            if stopped.is_some() {
                if done == base {
                    self.progress.finish();
                    return Err(Error::Cancelled { what: "solve" });
                }
                if curve.last().is_none_or(|p| p.iteration != done) {
                    let point = ReportPoint {
                        iteration: done,
                        exploitability: evaluate(&tree, &stepper.average(&tree)).exploitability,
                        seconds,
                    };
                    (self.on_point)(&point);
                    curve.push(point);
                }
                break;
            }
            let t = Instant::now();
            stepper.iterate();
            seconds += t.elapsed().as_secs_f64();
            done = base + i;
            self.progress.advance(1);
            let report = i == config.iterations || (config.every > 0 && done % config.every == 0);
            if report {
                let point = ReportPoint {
                    iteration: done,
                    exploitability: evaluate(&tree, &stepper.average(&tree)).exploitability,
                    seconds,
                };
                (self.on_point)(&point);
                curve.push(point);
            }
        }
        self.progress.finish();
        let policy = stepper.average(&tree);
        let state = RunState {
            cardvec_version: env!("CARGO_PKG_VERSION").into(),
            game: self.id.to_string(),
            options: self.options.to_string(),
            algorithm: config.algorithm,
            seed: config.seed,
            lanes: config.lanes as u64,
            epsilon: config.epsilon,
            nodes: tree.num_nodes() as u64,
            infosets: tree.infosets().len() as u64,
            solver: stepper.state(),
        };
        let solution = Solution {
            algorithm: config.algorithm,
            iterations: done,
            resumed_from: base,
            stopped,
            table: policy.to_table(&tree)?,
            evaluation: evaluate(&tree, &policy),
            curve,
            seconds,
            nodes: tree.num_nodes(),
            infosets: tree.infosets().len(),
        };
        Ok((solution, state))
    }
}

/// A saved state whose kind (tabular or sampled) is not its algorithm's (the file reader
/// refuses this; a state built in memory cannot be).
fn sampled_state_mismatch() -> Error {
    Error::Invalid {
        what: "resume",
        reason: "the saved state's kind (tabular or sampled) is not its algorithm's".into(),
    }
}

/// A solver seen by the driver.
trait Stepper {
    fn iterate(&mut self);
    fn average(&self, tree: &FlatTree) -> Policy;
    fn state(&self) -> SolverState;
}

impl Stepper for CfrSolver<'_> {
    fn iterate(&mut self) {
        CfrSolver::iterate(self)
    }
    fn average(&self, _: &FlatTree) -> Policy {
        self.average_policy()
    }
    fn state(&self) -> SolverState {
        SolverState::Cfr(CfrSolver::state(self))
    }
}

impl<G: GameTree> Stepper for McCfrSolver<G> {
    fn iterate(&mut self) {
        McCfrSolver::iterate(self)
    }
    fn average(&self, tree: &FlatTree) -> Policy {
        self.average_policy(tree)
    }
    fn state(&self) -> SolverState {
        SolverState::Mccfr(McCfrSolver::state(self))
    }
}

/// A policy to evaluate: every seat uniform, or a table.
#[derive(Clone, Debug)]
pub enum PolicySource<'a> {
    /// Every seat plays uniformly over its legal actions.
    Uniform,
    /// A table by information-state string (checked by [`Policy::from_table`]).
    Table(&'a PolicyTable),
}

/// Evaluates a policy of game `id` configured by `options` exactly: each seat's value, the
/// best-response values, NashConv and exploitability. Errors: as [`solve`], and a table
/// that [`Policy::from_table`] refuses (the message names the information state).
pub fn evaluate_table(
    id: &str,
    options: Vec<(String, OptionValue)>,
    policy: PolicySource<'_>,
    max_nodes: usize,
) -> Result<Evaluation> {
    struct Eval<'a>(PolicySource<'a>, usize);
    impl TreeVisitor for Eval<'_> {
        type Output = Result<Evaluation>;
        fn visit<G: GameTree>(&mut self, game: &G) -> Result<Evaluation> {
            let tree = FlatTree::build(game, self.1)?;
            let policy = match &self.0 {
                PolicySource::Uniform => Policy::uniform(&tree),
                PolicySource::Table(table) => Policy::from_table(&tree, table)?,
            };
            Ok(evaluate(&tree, &policy))
        }
    }
    registry::visit_tree(id, options, &mut Eval(policy, max_nodes))?
}

/// A policy file read and checked by [`load_policy`].
#[derive(Clone, Debug, PartialEq)]
pub struct LoadedPolicy {
    /// The game id the file names.
    pub game: String,
    /// The game's options, in their text form (`name=value,...`; empty for defaults).
    pub options: String,
    /// The policy, a full one of that game.
    pub table: PolicyTable,
}

/// Reads the JSON text of a policy file (`cardvec solve --policy-out`,
/// `cardvec.solve.save_policy`) and checks it against its game: the JSON well formed,
/// action ids integers; the game the file names known, with a tree, and `expected_game`
/// when given; its options valid; the table a full policy of that game's tree (every
/// information state present and no other, each row over the legal actions, finite,
/// non-negative and summing to 1 — [`Policy::from_table`]). Every refusal is an error
/// saying what is wrong (the information state for a bad row).
pub fn load_policy(
    text: &str,
    expected_game: Option<&str>,
    max_nodes: usize,
) -> Result<LoadedPolicy> {
    let (table, game, options) = PolicyTable::from_json(text)?;
    if let Some(expected) = expected_game {
        if expected != game {
            return Err(Error::Invalid {
                what: "policy file",
                reason: format!("it holds a policy of {game:?}, not of {expected:?}"),
            });
        }
    }
    let info = registry::info(&game)?;
    let parsed = crate::core::spec::Options::parse(info.options, &options)?;
    struct Check<'a>(&'a PolicyTable, usize);
    impl TreeVisitor for Check<'_> {
        type Output = Result<()>;
        fn visit<G: GameTree>(&mut self, game: &G) -> Result<()> {
            let tree = FlatTree::build(game, self.1)?;
            Policy::from_table(&tree, self.0).map(|_| ())
        }
    }
    registry::visit_tree_with(&game, &parsed, &mut Check(&table, max_nodes))??;
    Ok(LoadedPolicy {
        game,
        options,
        table,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::StopFlag;

    fn run(algorithm: Algorithm, iterations: u64, seed: u64) -> Solution {
        let config = SolveConfig {
            algorithm,
            iterations,
            seed,
            every: iterations / 4,
            ..SolveConfig::default()
        };
        solve("kuhn", vec![], &config, &StopFlag::new(), &mut |_| {}).unwrap()
    }

    /// The documented figure (docs/cfr.md): Kuhn CFR+ after 1000 iterations.
    #[test]
    fn kuhn_cfr_plus_reaches_the_equilibrium_and_its_value() {
        let s = run(Algorithm::CfrPlus, 1000, 0);
        assert!(s.evaluation.exploitability < 1e-3, "{:?}", s.evaluation);
        assert!(
            (s.evaluation.values[0] + 1.0 / 18.0).abs() < 1e-3,
            "{:?}",
            s.evaluation
        );
        assert_eq!(s.curve.len(), 4);
        assert!(s.curve[0].exploitability > s.curve[3].exploitability);
    }

    /// OpenSpiel 2.0's `CFRPlusSolver` and `CFRSolver` (Python and C++ alike) on
    /// `leduc_poker`: the exploitability of the average policy after a few iterations.
    #[test]
    fn leduc_follows_openspiel_iteration_for_iteration() {
        for (algorithm, iterations, openspiel) in [
            (Algorithm::CfrPlus, 1, 2.373611111111111),
            (Algorithm::CfrPlus, 2, 2.057916666666667),
            (Algorithm::CfrPlus, 20, 0.17365537344197066),
            // Long after regret matching+ amplifies rounding: the same sums in the same
            // order give the same number.
            (Algorithm::CfrPlus, 200, 0.0049631295504932865),
            (Algorithm::Cfr, 2, 2.0613194444444445),
            (Algorithm::Cfr, 4, 1.6590264691929169),
        ] {
            let config = SolveConfig {
                algorithm,
                iterations,
                ..SolveConfig::default()
            };
            let s = solve("leduc", vec![], &config, &StopFlag::new(), &mut |_| {}).unwrap();
            let e = s.evaluation.exploitability;
            assert!(
                (e - openspiel).abs() < 1e-12,
                "{algorithm:?} {iterations}: {e}"
            );
            assert_eq!((s.nodes, s.infosets), (9457, 936));
        }
    }

    /// DCFR and PCFR+ on Kuhn: the game value -1/18 and exploitability below 1e-3 within
    /// 1000 iterations (measured 1.47e-4 and 2.35e-8); on Leduc below the thresholds stated
    /// after 1000 iterations (docs/cfr.md), DCFR ahead of CFR+ there.
    #[test]
    fn dcfr_and_pcfr_plus_converge_on_kuhn_and_leduc() {
        for (algorithm, kuhn_iterations) in [(Algorithm::Dcfr, 1000), (Algorithm::PcfrPlus, 1000)] {
            let s = run(algorithm, kuhn_iterations, 0);
            assert!(
                s.evaluation.exploitability < 1e-3,
                "{algorithm:?}: {:?}",
                s.evaluation
            );
            assert!(
                (s.evaluation.values[0] + 1.0 / 18.0).abs() < 1e-3,
                "{algorithm:?}: {:?}",
                s.evaluation
            );
            assert!(s.curve[0].exploitability > s.curve[3].exploitability);
        }
        let leduc = |algorithm, iterations| {
            let config = SolveConfig {
                algorithm,
                iterations,
                ..SolveConfig::default()
            };
            solve("leduc", vec![], &config, &StopFlag::new(), &mut |_| {}).unwrap()
        };
        // Measured: DCFR 1.4347e-4, PCFR+ 7.0787e-4, CFR+ 2.5715e-4 after 1000 iterations.
        let dcfr = leduc(Algorithm::Dcfr, 1000).evaluation.exploitability;
        let pcfr = leduc(Algorithm::PcfrPlus, 1000).evaluation.exploitability;
        let plus = leduc(Algorithm::CfrPlus, 1000).evaluation.exploitability;
        assert!(dcfr < 2e-4 && dcfr < plus, "DCFR {dcfr}, CFR+ {plus}");
        assert!(pcfr < 1e-3 && pcfr != plus, "PCFR+ {pcfr}, CFR+ {plus}");
    }

    /// Stops the run once it has heard `after` iterations.
    struct StopAfter {
        after: u64,
        heard: std::sync::atomic::AtomicU64,
    }

    impl Progress for StopAfter {
        fn advance(&self, done: u64) {
            self.heard
                .fetch_add(done, std::sync::atomic::Ordering::Relaxed);
        }
        fn should_stop(&self) -> bool {
            self.heard.load(std::sync::atomic::Ordering::Relaxed) >= self.after
        }
    }

    /// A run stopped after 37 iterations (an interrupt) returns what 37 iterations give,
    /// with a last report point there; a time limit returns the solution reached.
    #[test]
    fn a_stopped_run_keeps_the_solution_it_reached() {
        for algorithm in [Algorithm::CfrPlus, Algorithm::Dcfr, Algorithm::EsMccfr] {
            let config = SolveConfig {
                algorithm,
                iterations: 1000,
                every: 10,
                seed: 3,
                ..SolveConfig::default()
            };
            let stop = StopAfter {
                after: 37,
                heard: 0.into(),
            };
            let mut points = Vec::new();
            let s = solve("kuhn", vec![], &config, &stop, &mut |p| points.push(*p)).unwrap();
            assert_eq!((s.iterations, s.stopped), (37, Some(Stopped::Interrupted)));
            assert_eq!(s.curve.len(), 4, "{:?}", s.curve);
            assert_eq!(s.curve.last().unwrap().iteration, 37);
            assert_eq!(points, s.curve);
            let direct = solve(
                "kuhn",
                vec![],
                &SolveConfig {
                    iterations: 37,
                    ..config.clone()
                },
                &StopFlag::new(),
                &mut |_| {},
            )
            .unwrap();
            assert_eq!(direct.stopped, None);
            assert_eq!(s.table, direct.table, "{algorithm:?}");
            assert_eq!(s.evaluation, direct.evaluation);
        }
        let config = SolveConfig {
            algorithm: Algorithm::CfrPlus,
            iterations: u64::MAX / 2,
            time_limit: Some(Duration::from_millis(200)),
            ..SolveConfig::default()
        };
        let t = Instant::now();
        let s = solve("leduc", vec![], &config, &StopFlag::new(), &mut |_| {}).unwrap();
        assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
        assert_eq!(s.stopped, Some(Stopped::TimeLimit));
        assert!(s.iterations >= 1 && s.iterations < u64::MAX / 2);
        assert_eq!(s.curve.last().unwrap().iteration, s.iterations);
        // Better than one CFR+ iteration (2.3736).
        assert!(s.evaluation.exploitability < 2.3, "{:?}", s.evaluation);
        let err = solve(
            "kuhn",
            vec![],
            &SolveConfig {
                time_limit: Some(Duration::ZERO),
                ..SolveConfig::default()
            },
            &StopFlag::new(),
            &mut |_| {},
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("time limit"), "{err}");
    }

    /// The bytes of a run file holding `state`.
    fn bytes(state: &RunState) -> Vec<u8> {
        let mut v = Vec::new();
        state.write_to(&mut v).unwrap();
        v
    }

    /// N iterations, the state saved to a file and loaded, M more give the same bits as
    /// N + M at once (the policy, its evaluation, and the run files byte for byte), for
    /// every algorithm (MCCFR with 3 lanes); the report points count on from N.
    #[test]
    fn a_saved_run_resumes_bit_for_bit() {
        let dir = std::env::temp_dir().join(format!("cardvec-run-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let stop = StopFlag::new();
        for algorithm in Algorithm::ALL {
            let config = SolveConfig {
                algorithm,
                iterations: 30,
                seed: 5,
                lanes: 3,
                every: 10,
                ..SolveConfig::default()
            };
            let run = |iterations, resume| {
                let mut points = Vec::new();
                let config = SolveConfig {
                    iterations,
                    ..config.clone()
                };
                let (s, state) =
                    solve_resumable("leduc", vec![], &config, resume, &stop, &mut |p| {
                        points.push(p.iteration)
                    })
                    .unwrap();
                (s, state, points)
            };
            let (whole, whole_state, _) = run(30, None);
            let (first, state, points) = run(17, None);
            assert_eq!((first.iterations, points), (17, vec![10, 17]));
            let path = dir.join(format!("{}.cvsolve", algorithm.name()));
            assert!(state.save(&path).unwrap() > 0);
            let loaded = RunState::load(&path).unwrap();
            assert_eq!(loaded, state);
            assert_eq!(loaded.iterations(), 17);
            let (second, second_state, points) = run(13, Some(loaded));
            assert_eq!(points, vec![20, 30], "{algorithm:?}");
            assert_eq!((second.iterations, second.resumed_from), (30, 17));
            assert_eq!(second.table, whole.table, "{algorithm:?}");
            assert_eq!(second.evaluation, whole.evaluation, "{algorithm:?}");
            assert_eq!(bytes(&second_state), bytes(&whole_state), "{algorithm:?}");
            // Without the state, 13 iterations are another policy.
            assert_ne!(run(13, None).0.table, whole.table);
            std::fs::remove_file(&path).unwrap();
        }
        std::fs::remove_dir(&dir).unwrap();
    }

    /// A state of another game, options, algorithm, seed, lanes or epsilon is refused,
    /// saying which; a file that is not a run file, of another version, truncated or
    /// corrupt is refused.
    #[test]
    fn a_run_file_of_another_run_or_damaged_is_refused() {
        let stop = StopFlag::new();
        let config = |algorithm| SolveConfig {
            algorithm,
            iterations: 5,
            seed: 2,
            ..SolveConfig::default()
        };
        let state = |id: &str, algorithm| {
            solve_resumable(id, vec![], &config(algorithm), None, &stop, &mut |_| {})
                .unwrap()
                .1
        };
        let refused = |id: &str, config: SolveConfig, state: RunState| {
            solve_resumable(id, vec![], &config, Some(state), &stop, &mut |_| {})
                .unwrap_err()
                .to_string()
        };
        let kuhn = state("kuhn", Algorithm::CfrPlus);
        let e = refused("leduc", config(Algorithm::CfrPlus), kuhn.clone());
        assert!(e.contains("of \"kuhn\", not of \"leduc\""), "{e}");
        let e = refused("kuhn", config(Algorithm::Dcfr), kuhn.clone());
        assert!(e.contains("of cfr+, not of dcfr"), "{e}");
        let mut other = kuhn.clone();
        other.options = "pot=3".into();
        let e = refused("kuhn", config(Algorithm::CfrPlus), other);
        assert!(e.contains("pot"), "{e}");
        let mut other = kuhn.clone();
        other.nodes += 1;
        let e = refused("kuhn", config(Algorithm::CfrPlus), other);
        assert!(e.contains("nodes"), "{e}");
        let es = state("kuhn", Algorithm::EsMccfr);
        for (seed, lanes) in [(3, 1), (2, 2)] {
            let c = SolveConfig {
                seed,
                lanes,
                ..config(Algorithm::EsMccfr)
            };
            let e = refused("kuhn", c, es.clone());
            assert!(e.contains("seed 2 and 1 lanes"), "{e}");
        }
        let os = state("kuhn", Algorithm::OsMccfr);
        let c = SolveConfig {
            epsilon: 0.5,
            ..config(Algorithm::OsMccfr)
        };
        let e = refused("kuhn", c, os);
        assert!(e.contains("epsilon 0.6, not 0.5"), "{e}");

        let err = |bytes: &[u8]| RunState::read_from(bytes).unwrap_err().to_string();
        for algorithm in [Algorithm::PcfrPlus, Algorithm::EsMccfr] {
            let good = bytes(&state("leduc", algorithm));
            assert!(good.starts_with(&super::super::state::RUN_FILE_MAGIC));
            assert_eq!(
                RunState::read_from(good.as_slice()).unwrap().algorithm(),
                algorithm
            );
            for bytes in [
                &b"{\"game\": \"kuhn\"}"[..],
                b"",
                &b"\x89CVSPOT\n\x02\0\0\0"[..],
            ] {
                let e = err(bytes);
                assert!(e.contains("not a cardvec run file"), "{e}");
            }
            crate::solve::frame::check_damaged_files(&good, err, &[2], "reads version 1");
        }
        let e = RunState::load("/nonexistent/x.cvsolve")
            .unwrap_err()
            .to_string();
        assert!(e.contains("run file") && e.contains("x.cvsolve"), "{e}");
    }

    #[test]
    fn kuhn_vanilla_cfr_converges() {
        let s = run(Algorithm::Cfr, 1000, 0);
        assert!(s.evaluation.exploitability < 5e-3, "{:?}", s.evaluation);
    }

    #[test]
    fn mccfr_is_deterministic_for_a_seed_and_converges_on_kuhn() {
        for algorithm in [Algorithm::EsMccfr, Algorithm::OsMccfr] {
            let config = SolveConfig {
                algorithm,
                iterations: 2000,
                seed: 7,
                lanes: 8,
                ..SolveConfig::default()
            };
            let go = |threads: usize| {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap();
                pool.install(|| solve("kuhn", vec![], &config, &StopFlag::new(), &mut |_| {}))
                    .unwrap()
            };
            let (a, b) = (go(1), go(3));
            assert_eq!(a.table, b.table, "{algorithm:?} depends on threads");
            let limit = if algorithm == Algorithm::EsMccfr {
                0.01
            } else {
                0.05
            };
            assert!(
                a.evaluation.exploitability < limit,
                "{algorithm:?}: {:?}",
                a.evaluation
            );
            let other = solve(
                "kuhn",
                vec![],
                &SolveConfig {
                    seed: 8,
                    ..config.clone()
                },
                &StopFlag::new(),
                &mut |_| {},
            )
            .unwrap();
            assert_ne!(a.table, other.table, "{algorithm:?} ignores its seed");
        }
    }

    #[test]
    fn bad_requests_are_refused_with_what_was_asked() {
        let stop = StopFlag::new();
        let err = solve(
            "lost-cities",
            vec![],
            &SolveConfig::default(),
            &stop,
            &mut |_| {},
        )
        .unwrap_err()
        .to_string();
        assert!(
            err.contains("no game tree") && err.contains("kuhn"),
            "{err}"
        );
        let err = Algorithm::parse("cfr++").unwrap_err().to_string();
        assert!(err.contains("cfr++") && err.contains("os-mccfr"), "{err}");
        let config = SolveConfig {
            max_nodes: 10,
            ..SolveConfig::default()
        };
        let err = solve("kuhn", vec![], &config, &stop, &mut |_| {})
            .unwrap_err()
            .to_string();
        assert!(err.contains("more than 10 nodes"), "{err}");
        stop.stop();
        assert!(matches!(
            solve("kuhn", vec![], &SolveConfig::default(), &stop, &mut |_| {}),
            Err(Error::Cancelled { .. })
        ));
    }

    /// A written policy loads back; a file of another game, a short table, a row that is
    /// not a distribution or not finite, bad JSON, an unknown game are refused, saying why.
    #[test]
    fn load_policy_checks_the_file_against_its_game() {
        let s = run(Algorithm::CfrPlus, 100, 0);
        let text = s.table.to_json("kuhn", "");
        let loaded = load_policy(&text, Some("kuhn"), 1000).unwrap();
        assert_eq!((loaded.game.as_str(), &loaded.table), ("kuhn", &s.table));
        assert_eq!(load_policy(&text, None, 1000).unwrap(), loaded);
        let refused = |text: &str, expected: Option<&str>| {
            load_policy(text, expected, 100_000)
                .unwrap_err()
                .to_string()
        };
        let err = refused(&text, Some("leduc"));
        assert!(err.contains("\"kuhn\", not of \"leduc\""), "{err}");
        // Kuhn's table for Leduc: unknown states.
        let err = refused(&text.replace("\"kuhn\"", "\"leduc\""), None);
        assert!(err.contains("unknown information state"), "{err}");
        let mut short = s.table.clone();
        short.0.remove("1pb");
        let err = refused(&short.to_json("kuhn", ""), None);
        assert!(err.contains("missing") && err.contains("1pb"), "{err}");
        let mut bad = s.table.clone();
        bad.0.insert("1pb".into(), vec![(0, 0.7), (1, 0.7)]);
        let err = refused(&bad.to_json("kuhn", ""), None);
        assert!(err.contains("\"1pb\"") && err.contains("sum"), "{err}");
        bad.0.insert("1pb".into(), vec![(0, 1.5), (1, -0.5)]);
        let err = refused(&bad.to_json("kuhn", ""), None);
        assert!(err.contains("\"1pb\"") && err.contains("-0.5"), "{err}");
        // Not finite: JSON has no infinity (serde_json writes null), both are refused.
        bad.0
            .insert("1pb".into(), vec![(0, f64::INFINITY), (1, 0.0)]);
        let err = refused(&bad.to_json("kuhn", ""), None);
        assert!(err.contains("policy file") && err.contains("null"), "{err}");
        let err = refused(
            "{\"game\": \"kuhn\", \"policy\": {\"0\": {\"0\": 1e999}}}",
            None,
        );
        assert!(err.contains("policy file"), "{err}");
        let err = refused("[1, 2]", None);
        assert!(err.contains("policy file"), "{err}");
        let err = refused(&text.replace("\"kuhn\"", "\"lost-cities\""), None);
        assert!(err.contains("no game tree"), "{err}");
        let err = refused(&text.replace("\"kuhn\"", "\"chess\""), None);
        assert!(err.contains("chess"), "{err}");
        let err = refused(
            &text.replace("\"options\": \"\"", "\"options\": \"pot=3\""),
            None,
        );
        assert!(err.contains("pot"), "{err}");
    }

    #[test]
    fn uniform_kuhn_is_exploitable_by_eleven_twenty_fourths() {
        let e = evaluate_table("kuhn", vec![], PolicySource::Uniform, 1000).unwrap();
        assert!((e.exploitability - 0.458_333_333_333_333_3).abs() < 1e-12);
    }
}
