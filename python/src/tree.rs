//! One node of a game tree from Python (`cardvec._cardvec.solve.TreeNode`): the registry's
//! type-erased tree ([`cardvec::core::DynTree`]) and words, walked one node at a time with
//! explicit chance nodes. What `cardvec.openspiel` builds its explicit-stochastic states on.

use std::sync::Arc;

use cardvec::core::{DynTree, DynWords};
use cardvec::registry;
use numpy::PyArray1;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use crate::errors::core_err;
use crate::{args, options};

/// `TreeNode(game_id, options=None)`: the root of game `game_id`'s tree (a game with a
/// game tree, `tree_ids()`), configured by `options` (a dict checked by the registry).
/// `apply(a)` plays a chance outcome at a chance node and an action at a decision node;
/// `clone()` copies the node. Everything else reads it.
#[pyclass(module = "cardvec._cardvec.solve", name = "TreeNode")]
#[derive(Clone)]
pub struct TreeNode {
    tree: Arc<dyn DynTree>,
    words: Arc<dyn DynWords>,
    state: Vec<u8>,
}

impl TreeNode {
    fn player(&self, player: &Bound<'_, PyAny>) -> PyResult<usize> {
        let n = self.tree.num_players();
        Ok(args::int_in(player, "player", 0, n as i128 - 1)? as usize)
    }

    fn decision_or_terminal(&self, what: &str) -> PyResult<()> {
        if self.tree.is_chance(&self.state) {
            return Err(PyValueError::new_err(format!(
                "{what}: a chance node has none"
            )));
        }
        Ok(())
    }
}

#[pymethods]
impl TreeNode {
    #[new]
    #[pyo3(signature = (game_id, options=None))]
    fn new(game_id: &str, options: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let info = registry::info(game_id).map_err(core_err)?;
        let pairs = options::pairs(&options::from_kwargs(info, options)?);
        let (tree, words) = registry::erased_tree(game_id, pairs).map_err(core_err)?;
        let state = tree.root();
        Ok(TreeNode {
            tree: Arc::from(tree),
            words: Arc::from(words),
            state,
        })
    }

    /// Number of seats.
    #[getter]
    fn num_players(&self) -> usize {
        self.tree.num_players()
    }

    /// Size of the action space.
    #[getter]
    fn num_actions(&self) -> usize {
        self.tree.num_actions()
    }

    /// Length of an observation.
    #[getter]
    fn obs_dim(&self) -> usize {
        self.tree.obs_dim()
    }

    /// Length of an information-state tensor.
    #[getter]
    fn info_state_dim(&self) -> usize {
        self.tree.info_state_dim()
    }

    /// `stats(max_nodes=10000000) -> dict`: walks the whole tree from the root: `nodes`,
    /// `max_chance_outcomes` (one more than the largest outcome id), `max_game_length`
    /// (decisions on the longest path), `min_utility`, `max_utility` (over every seat's
    /// return at every end). A tree of more nodes is a `ValueError`.
    #[pyo3(signature = (max_nodes=10_000_000))]
    fn stats<'py>(&self, py: Python<'py>, max_nodes: usize) -> PyResult<Bound<'py, PyDict>> {
        let tree = self.tree.clone();
        let s = py.detach(|| tree.stats(max_nodes)).map_err(core_err)?;
        let d = PyDict::new(py);
        d.set_item("nodes", s.nodes)?;
        d.set_item("max_chance_outcomes", s.max_chance_outcomes)?;
        d.set_item("max_game_length", s.max_game_length)?;
        d.set_item("min_utility", s.min_utility)?;
        d.set_item("max_utility", s.max_utility)?;
        Ok(d)
    }

    /// A copy of this node.
    fn clone(&self) -> TreeNode {
        Clone::clone(self)
    }

    /// Whether chance acts here.
    fn is_chance(&self) -> bool {
        self.tree.is_chance(&self.state)
    }

    /// Whether the game is over here.
    fn is_terminal(&self) -> bool {
        self.tree.is_terminal(&self.state)
    }

    /// The seat to act at a decision node; `None` at a chance or terminal node.
    fn current_player(&self) -> Option<usize> {
        (!self.is_chance() && !self.is_terminal()).then(|| self.tree.current_player(&self.state))
    }

    /// `[(outcome, probability)]` at a chance node, `[]` elsewhere.
    fn chance_outcomes(&self) -> Vec<(u32, f64)> {
        self.tree.chance_outcomes(&self.state)
    }

    /// The legal actions at a decision node, ascending; `[]` elsewhere.
    fn legal_actions(&self) -> Vec<u32> {
        self.tree.legal_actions(&self.state)
    }

    /// Applies a chance outcome (chance node) or an action (decision node); `False`, with
    /// nothing changed, for one the node does not accept.
    fn apply(&mut self, action: &Bound<'_, PyAny>) -> PyResult<bool> {
        let action = args::action(action)?;
        Ok(self.tree.apply(&mut self.state, action))
    }

    /// Every seat's return for the whole game (float64, exact; zeros before the end).
    fn returns(&self) -> Vec<f64> {
        self.tree.returns(&self.state)
    }

    /// `player`'s information-state string (a `ValueError` at a chance node).
    fn info_state_string(&self, player: &Bound<'_, PyAny>) -> PyResult<String> {
        let p = self.player(player)?;
        self.decision_or_terminal("information state")?;
        Ok(self.tree.info_state_string(&self.state, p))
    }

    /// `player`'s information-state tensor, float32 (a `ValueError` at a chance node).
    fn info_state_tensor<'py>(
        &self,
        py: Python<'py>,
        player: &Bound<'_, PyAny>,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let p = self.player(player)?;
        self.decision_or_terminal("information state")?;
        Ok(PyArray1::from_vec(
            py,
            self.tree.info_state_tensor(&self.state, p),
        ))
    }

    /// `player`'s observation, float32 `[obs_dim]` (a `ValueError` at a chance node).
    fn observation<'py>(
        &self,
        py: Python<'py>,
        player: &Bound<'_, PyAny>,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let p = self.player(player)?;
        self.decision_or_terminal("observation")?;
        Ok(PyArray1::from_vec(py, self.tree.observe(&self.state, p)))
    }

    /// The game's name of `action` at a decision node; `None` elsewhere.
    fn action_name(&self, action: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
        let action = args::action(action)?;
        if self.current_player().is_none() {
            return Ok(None);
        }
        Ok(self
            .tree
            .batch_state(&self.state)
            .and_then(|s| self.words.action_name(&s, action)))
    }

    /// What `seat` sees here as JSON text (the game's `view`, sorted keys); `None` at a
    /// chance node.
    fn view(&self, seat: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
        let seat = self.player(seat)?;
        Ok(self
            .tree
            .batch_state(&self.state)
            .and_then(|s| self.words.view(&s, seat))
            .map(|v| v.to_string()))
    }

    /// The game's state text where this node is a state the batch engine holds; otherwise
    /// (a chance node, cards not dealt yet) the state's fields.
    fn text(&self) -> String {
        self.words
            .state_text(&self.state)
            .unwrap_or_else(|| self.tree.debug(&self.state))
    }

    /// The node as a state the batch engine holds (bytes for `BatchEnv.set_state`: the
    /// cards chance has not dealt yet dealt in a fixed way, on which nothing a seat sees
    /// depends); `None` at a chance node.
    fn batch_state_bytes<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyBytes>> {
        self.tree
            .batch_state(&self.state)
            .map(|s| PyBytes::new(py, &s))
    }

    /// The node's bytes (the game's state).
    fn state_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.state)
    }

    fn __repr__(&self) -> String {
        format!("TreeNode({})", self.text())
    }
}

/// Adds `TreeNode` to the `solve` submodule.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<TreeNode>()
}
