"""Every registered cardvec game as an OpenSpiel game (``pip install open-spiel``).

Importing this module registers one pyspiel game per registered cardvec game, named
``cardvec_`` + the game id with ``-`` turned into ``_`` (``cardvec_lost_cities``,
``cardvec_flip7``, ``cardvec_151``, ``cardvec_holdem``, ``cardvec_kuhn``, ``cardvec_leduc``),
whose parameters are the registry's options with their defaults::

    import cardvec.openspiel, pyspiel
    game = pyspiel.load_game("cardvec_flip7(num_players=5)")
    state = game.new_initial_state()

Options become OpenSpiel parameters by their registry type, one rule for every game: an
``int`` option is an int parameter; an ``optional int`` option, or an ``int`` whose registry
default is a word (hold'em's ``stack="auto"``), is an int parameter whose default ``-1``
means the registry's default; a ``choice`` is a string parameter; an ``int list`` /
``float list`` is a string of numbers separated by ``;`` (OpenSpiel's game strings
separate parameters by commas: ``cardvec_holdem(raise_fractions=0.5;1)``; ``""``: the
registry's default).
One more parameter, ``rng_seed`` (default 0), seeds the deals: a loaded game deals its
states from the seeds ``rng_seed``, ``rng_seed + 1``, ... (the deal of lane 0 of
``cardvec.make(game_id, 1, seed=s)``; OpenSpiel's ``clone()`` takes a seed too).

Games with a game tree (the registry's capability, ``cardvec.solve.tree_ids()``: Kuhn,
Leduc) have explicit chance nodes (``ChanceMode.EXPLICIT_STOCHASTIC``): a state is a node
of the tree held in Rust (``cardvec._cardvec.solve.TreeNode``), chance acts at the deals
(``current_player()`` is OpenSpiel's chance id, ``chance_outcomes()`` the cards left),
``returns()`` are the tree's exact float64 returns (``RewardModel.TERMINAL``) and the
game's bounds (chance outcomes, utilities, length) are read off the whole tree. OpenSpiel's
CFR and exploitability give on them the figures of ``kuhn_poker`` / ``leduc_poker``.

Every other game samples its chance inside the engine (``ChanceMode.SAMPLED_STOCHASTIC``):
each state is one lane of a one-lane cardvec environment and never a chance node; the deal
happens in ``new_initial_state`` and later chance events, Flip 7's reshuffles and 151's new
rounds, inside ``apply_action``. ``clone()`` and ``serialize()`` / ``game.deserialize_state``
are exact: the copy deals the same seed (or sets the same determinized state) and replays
the actions (the engine is deterministic), so it has the same state and the same random
stream; their cost grows with the number of actions played (a 151 match of thousands of
steps clones slowly). ``resample_from_infostate`` is the engine's determinization (what
OpenSpiel's IS-MCTS bot samples worlds with). ``apply_action`` of an illegal action raises
``ValueError`` in both kinds.

Observation tensors are the game's own observation (``observe_as``, float32 ``[obs_dim]``);
information-state tensors and strings are the engine's perfect-recall information states
where the game has them (Kuhn, Leduc, hold'em: ``info_state_tensor``,
``info_state_string``) and otherwise the seat's observation (Lost Cities, Flip 7, 151: not
a perfect-recall history; the string is the observation tensor's nonzero entries, which
fix the legal actions). ``action_to_string`` is the game's action name (two legal actions
named alike get `` #<id>``), ``str(state)`` the game's state text (every card, the deck
too), observation strings the seat's ``view`` as sorted JSON. Rewards of a sampled game are
the engine's per-step rewards (``RewardModel.REWARDS``); ``returns()`` is their sum; the
utility is zero-sum where the engine says so (``BatchEnv.zero_sum``), else general-sum.
OpenSpiel asks the sampled games for bounds the registry does not give: utilities within
+-2**40, games of at most 2**30 moves.

``bot(name, game, player, seed=0)`` wraps any cardvec bot as a ``pyspiel.Bot``.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import numpy as np
import pyspiel

from ._cardvec.solve import TreeNode, tree_ids
from . import bots
from ._games import games, make

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from ._cardvec import BatchEnv, GameInfo, OptionInfo

__all__ = ["CardvecBot", "bot", "game_name", "registered_games"]

#: The value of an int parameter that stands for the registry's default (optional ints).
DEFAULT_SENTINEL = -1
#: A bound on the length of a game that OpenSpiel asks for (the engine's games have no
#: fixed one: Flip 7 and 151 play rounds until a target score).
MAX_GAME_LENGTH = 1 << 30
#: A bound on the utilities OpenSpiel asks for (the registry declares none).
UTILITY_BOUND = float(1 << 40)

_REGISTERED: dict[str, str] = {}


def game_name(game_id: str) -> str:
    """The OpenSpiel name of cardvec game ``game_id``: ``cardvec_`` + the id, ``-`` -> ``_``."""
    return "cardvec_" + game_id.replace("-", "_")


def registered_games() -> dict[str, str]:
    """OpenSpiel name -> cardvec game id, for every game this module registered."""
    return dict(_REGISTERED)


def _int_param_default(option: OptionInfo) -> bool:
    """True when an int option's OpenSpiel default is the sentinel (registry default not an int)."""
    default = option["default"]
    return option["type"] == "optional int" or not isinstance(default, int)


def _parameter(option: OptionInfo) -> int | str:
    """The OpenSpiel parameter default of a registry option."""
    kind = option["type"]
    default = option["default"]
    if kind in ("int", "optional int"):
        return DEFAULT_SENTINEL if _int_param_default(option) else int(default)
    if kind == "choice":
        return str(default)
    if kind in ("int list", "float list"):
        return "" if default is None else ";".join(str(v) for v in default)
    raise ValueError(f"option {option['name']!r}: registry type {kind!r} has no OpenSpiel form")


def _options(info: GameInfo, params: dict[str, Any]) -> dict[str, Any]:
    """The cardvec options of OpenSpiel ``params`` (the registry checks their values)."""
    known = {o["name"]: o for o in info["options"]}
    options: dict[str, Any] = {}
    for name, value in params.items():
        if name == "rng_seed":
            continue
        option = known.get(name)
        if option is None:  # pyspiel checks names first; kept for direct construction
            accepted = ", ".join(sorted(known)) or "none"
            raise ValueError(
                f"{game_name(info['id'])}: unknown parameter {name!r} (accepted: {accepted}, rng_seed)"
            )
        kind = option["type"]
        if kind in ("int", "optional int"):
            if int(value) == DEFAULT_SENTINEL and _int_param_default(option):
                continue
            options[name] = int(value)
        elif kind == "choice":
            options[name] = str(value)
        else:
            text = str(value).strip()
            if not text:
                continue
            convert = int if kind == "int list" else float
            try:
                options[name] = [convert(v) for v in text.replace(",", ";").split(";")]
            except ValueError:
                raise ValueError(
                    f"{game_name(info['id'])}: parameter {name!r} must be numbers "
                    f"separated by ';', got {value!r}"
                ) from None
    return options


def _lane(game_id: str, options: dict[str, Any], seed: int) -> BatchEnv:
    # One lane, one worker thread, observed on demand.
    env: BatchEnv = make(game_id, 1, seed=seed, num_threads=1, observe=False, **options)
    return env


class CardvecGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no stubs
    """A registered cardvec game as a ``pyspiel.Game`` (one subclass per game)."""

    GAME_ID = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        info = _INFOS[self.GAME_ID]
        params = dict(params or {})
        self.options = _options(info, params)
        self.rng_seed = int(params.get("rng_seed", 0))
        self._next_seed = self.rng_seed
        probe = _lane(self.GAME_ID, self.options, self.rng_seed)
        self.num_players_ = probe.num_players
        self.num_actions_ = probe.num_actions
        self.obs_dim = probe.obs_dim
        self.info_dim = probe.info_state_dim
        self.zero_sum = probe.zero_sum
        self.state_size = probe.state_size
        # A game with a game tree: explicit chance nodes, its bounds read off the tree.
        self.tree: TreeNode | None = None
        bounds = (0, -UTILITY_BOUND, UTILITY_BOUND, MAX_GAME_LENGTH)
        if self.GAME_ID in _TREE_IDS:
            self.tree = TreeNode(self.GAME_ID, self.options)
            bounds = _tree_bounds(self.tree)
        chance, low, high, length = bounds
        game_info = pyspiel.GameInfo(
            num_distinct_actions=self.num_actions_,
            max_chance_outcomes=chance,
            num_players=self.num_players_,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0 if self.zero_sum else None,
            max_game_length=length,
        )
        game_type = _game_type(info, zero_sum=self.zero_sum, tree=self.tree is not None)
        super().__init__(game_type, game_info, params)

    def new_initial_state(self) -> CardvecState | CardvecTreeState:
        if self.tree is not None:
            return CardvecTreeState(self, self.tree)
        seed = self._next_seed
        self._next_seed += 1
        return CardvecState(self, seed)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> CardvecObserver:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        info_state = iig_obs_type is None or bool(iig_obs_type.perfect_recall)
        return CardvecObserver(self, info_state)


class _Lane:
    """The lane of a state: a one-lane environment, its seed and the actions applied since
    the deal. ``clone()`` (``copy.deepcopy``) and ``serialize()`` (pickle) rebuild it by
    dealing the same seed and replaying the actions: the engine is deterministic, so the
    copy holds the same state and the same random stream (Flip 7 reshuffles, 151's new
    rounds draw from it), which a copy of the state bytes alone would not."""

    def __init__(
        self, game_id: str, options: dict[str, Any], seed: int, base: bytes | None = None
    ) -> None:
        self.game_id = game_id
        self.options = options
        self.seed = seed
        # A resampled state (resample_from_infostate) starts from its determinized state's
        # bytes, with the random stream of ``seed``; None: the deal of ``seed``.
        self.base = base
        self.actions: list[int] = []
        self.env = _lane(game_id, options, seed)
        if base is not None:
            self.env.set_state(0, base)
        self._action = np.zeros(1, dtype=np.int64)

    def step(self, action: int) -> bool:
        """Applies ``action``; False (nothing changed) when the engine refuses it."""
        self._action[0] = action
        self.env.step(self._action)
        if int(self.env.illegal[0]) != 0:
            return False
        self.actions.append(action)
        return True

    def __deepcopy__(self, memo: dict[int, Any]) -> _Lane:
        return _restore_lane(self.game_id, self.options, self.seed, self.actions, self.base)

    def __reduce__(self) -> tuple[Any, ...]:
        args = (self.game_id, self.options, self.seed, list(self.actions), self.base)
        return (_restore_lane, args)


def _restore_lane(
    game_id: str,
    options: dict[str, Any],
    seed: int,
    actions: list[int],
    base: bytes | None = None,
) -> _Lane:
    lane = _Lane(game_id, options, seed, base)
    for action in actions:
        if not lane.step(action):
            raise ValueError(f"{game_name(game_id)}: cannot replay action {action}")
    return lane


class CardvecState(pyspiel.State):  # type: ignore[misc]  # pyspiel has no stubs
    """One cardvec lane as a ``pyspiel.State``."""

    def __init__(self, game: CardvecGame, seed: int) -> None:
        super().__init__(game)
        # Every attribute is copied by clone() (deepcopy) and pickled by serialize().
        self._lane = _Lane(game.GAME_ID, game.options, seed)
        env = self._lane.env
        self._returns = np.zeros(env.num_players, dtype=np.float64)
        self._rewards = np.zeros(env.num_players, dtype=np.float64)
        # A deal that ends the game (hold'em all-in from the blinds) shows its rewards.
        if self._over():
            self._rewards[:] = env.rewards[0]
            self._returns += self._rewards

    def _over(self) -> bool:
        env = self._lane.env
        return bool(env.terminated[0]) or bool(env.truncated[0])

    def current_player(self) -> int:
        if self._over():
            return int(pyspiel.PlayerId.TERMINAL)
        return int(self._lane.env.current_player[0])

    def _legal_actions(self, player: int) -> list[int]:
        env = self._lane.env
        if self._over() or player != int(env.current_player[0]):
            return []
        return [int(a) for a in np.flatnonzero(env.legal_mask[0])]

    def _apply_action(self, action: int) -> None:
        env = self._lane.env
        if self._over():
            raise ValueError(f"{game_name(self._lane.game_id)}: the game is over; no action applies")
        if not self._lane.step(action):
            player = self.current_player()
            raise ValueError(
                f"{game_name(self._lane.game_id)}: illegal action {action} for player "
                f"{player} (legal: {self._legal_actions(player)})"
            )
        self._rewards[:] = env.rewards[0]
        self._returns += self._rewards

    def _action_to_string(self, player: int, action: int) -> str:
        env = self._lane.env
        if self._over() or player != int(env.current_player[0]):
            return f"action {action}"
        name = env.action_name(0, action)
        # Two legal actions the game names alike (Lost Cities: two handshakes of a colour
        # in different hand slots) are told apart by their ids: OpenSpiel wants distinct
        # strings.
        for other in self._legal_actions(player):
            if other != action and env.action_name(0, other) == name:
                return f"{name} #{action}"
        return name

    def is_terminal(self) -> bool:
        return self._over()

    def returns(self) -> list[float]:
        return [float(r) for r in self._returns]

    def rewards(self) -> list[float]:
        return [float(r) for r in self._rewards]

    def __str__(self) -> str:
        return self._lane.env.state_text(0)

    def resample_from_infostate(self, player: int, sampler: Any) -> CardvecState:
        """A state ``player`` cannot tell from this one: the engine's determinization (the
        cards ``player`` cannot see dealt afresh, uniformly among the deals consistent with
        what it has seen), seeded by a draw of ``sampler`` (OpenSpiel's
        ``UniformProbabilitySampler``, or any callable returning a float in [0, 1)). What
        OpenSpiel's IS-MCTS bot samples its worlds with. Its later chance events draw from
        the stream of that seed."""
        env = self._lane.env
        if not 0 <= player < env.num_players:
            raise ValueError(f"player must be in 0..{env.num_players - 1}, got {player}")
        seed = int(float(sampler()) * 2.0**63) & ((1 << 64) - 1)
        sample = env.determinize(0, player, seed)
        copy: CardvecState = self.clone()
        copy._lane = _Lane(self._lane.game_id, self._lane.options, seed, sample)
        return copy


def _tree_bounds(tree: TreeNode) -> tuple[int, float, float, int]:
    """(max_chance_outcomes, min_utility, max_utility, max_game_length) of a whole tree."""
    stats = tree.stats()
    return (
        int(stats["max_chance_outcomes"]),
        float(stats["min_utility"]),
        float(stats["max_utility"]),
        int(stats["max_game_length"]),
    )


class _TreeLane:
    """The node of an explicit-chance state and the moves (chance outcomes and actions)
    since the root: ``clone()`` copies the node, ``serialize()`` replays the moves."""

    def __init__(self, game_id: str, options: dict[str, Any], node: TreeNode) -> None:
        self.game_id = game_id
        self.options = options
        self.node = node
        self.moves: list[int] = []
        #: Per move, whether chance made it.
        self.chance: list[bool] = []

    def apply(self, move: int) -> bool:
        chance = self.node.is_chance()
        if not self.node.apply(move):
            return False
        self.moves.append(move)
        self.chance.append(chance)
        return True

    def __deepcopy__(self, memo: dict[int, Any]) -> _TreeLane:
        copy = _TreeLane(self.game_id, self.options, self.node.clone())
        copy.moves = list(self.moves)
        copy.chance = list(self.chance)
        return copy

    def worlds(self, player: int) -> list[tuple[float, list[int]]]:
        """Every way chance could have played this lane's moves that ``player`` cannot tell
        from it (the same actions, the same information state at the end), with its chance
        probability: the moves of each, chance outcomes replaced."""
        key = self.node.info_state_string(player)
        found: list[tuple[float, list[int]]] = []
        stack = [(TreeNode(self.game_id, self.options), 0, 1.0, list[int]())]
        while stack:
            node, i, weight, moves = stack.pop()
            if i == len(self.moves):
                if node.info_state_string(player) == key:
                    found.append((weight, moves))
                continue
            if node.is_chance() != self.chance[i]:
                continue
            branches = node.chance_outcomes() if self.chance[i] else [(self.moves[i], 1.0)]
            for move, p in branches:
                child = node.clone()
                if child.apply(move):
                    stack.append((child, i + 1, weight * p, moves + [move]))
        return found

    def __reduce__(self) -> tuple[Any, ...]:
        return (_restore_tree_lane, (self.game_id, self.options, list(self.moves)))


def _restore_tree_lane(game_id: str, options: dict[str, Any], moves: list[int]) -> _TreeLane:
    lane = _TreeLane(game_id, options, TreeNode(game_id, options))
    for move in moves:
        if not lane.apply(move):
            raise ValueError(f"{game_name(game_id)}: cannot replay move {move}")
    return lane


class CardvecTreeState(pyspiel.State):  # type: ignore[misc]  # pyspiel has no stubs
    """A node of a cardvec game tree as a ``pyspiel.State`` with explicit chance nodes
    (the games of ``cardvec.solve.tree_ids()``)."""

    def __init__(self, game: CardvecGame, root: TreeNode) -> None:
        super().__init__(game)
        self._lane = _TreeLane(game.GAME_ID, game.options, root.clone())

    def current_player(self) -> int:
        node = self._lane.node
        if node.is_chance():
            return int(pyspiel.PlayerId.CHANCE)
        player = node.current_player()
        if player is None:
            return int(pyspiel.PlayerId.TERMINAL)
        return player

    def _legal_actions(self, player: int) -> list[int]:
        node = self._lane.node
        if node.is_chance():
            return sorted(o for o, _ in node.chance_outcomes())
        if player != node.current_player():
            return []
        return node.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return sorted(self._lane.node.chance_outcomes())

    def _apply_action(self, action: int) -> None:
        if self._lane.node.is_terminal():
            raise ValueError(f"{game_name(self._lane.game_id)}: the game is over; no action applies")
        if not self._lane.apply(action):
            player = self.current_player()
            raise ValueError(
                f"{game_name(self._lane.game_id)}: illegal action {action} for player "
                f"{player} (legal: {self._legal_actions(player)})"
            )

    def _action_to_string(self, player: int, action: int) -> str:
        node = self._lane.node
        if player == int(pyspiel.PlayerId.CHANCE) or node.is_chance():
            return f"chance outcome {action}"
        if player != node.current_player():
            return f"action {action}"
        return node.action_name(action) or f"action {action}"

    def is_terminal(self) -> bool:
        return self._lane.node.is_terminal()

    def returns(self) -> list[float]:
        return self._lane.node.returns()

    def rewards(self) -> list[float]:
        # RewardModel.TERMINAL: the returns at the end, zeros before.
        node = self._lane.node
        return node.returns() if node.is_terminal() else [0.0] * node.num_players

    def __str__(self) -> str:
        return self._lane.node.text()

    def resample_from_infostate(self, player: int, sampler: Any) -> CardvecTreeState:
        """A state ``player`` cannot tell from this one: the chance outcomes replaced by any
        consistent with ``player``'s information state (the same actions), drawn with their
        chance probabilities by one draw of ``sampler`` (a callable returning a float in
        [0, 1), as OpenSpiel's ``UniformProbabilitySampler``); found by enumerating the
        chance outcomes along the moves (small trees only). Its history is its own moves."""
        node = self._lane.node
        if not 0 <= player < node.num_players:
            raise ValueError(f"player must be in 0..{node.num_players - 1}, got {player}")
        if node.is_chance():
            raise ValueError("resample_from_infostate: a chance node has no information state")
        worlds = self._lane.worlds(player)
        total = sum(w for w, _ in worlds)
        target = float(sampler()) * total
        moves = worlds[-1][1]
        for weight, candidate in worlds:
            target -= weight
            if target < 0:
                moves = candidate
                break
        state: CardvecTreeState = self.get_game().new_initial_state()
        for move in moves:
            state.apply_action(move)
        return state


class CardvecObserver:
    """OpenSpiel's PyObserver over a cardvec state: the information state (perfect recall)
    or the observation of a seat."""

    def __init__(self, game: CardvecGame, info_state: bool) -> None:
        self.info_state = info_state
        self.engine_info_state = info_state and game.info_dim is not None
        size = game.info_dim if self.engine_info_state and game.info_dim else game.obs_dim
        self.tensor: NDArray[np.float32] = np.zeros(size, np.float32)
        self.dict: dict[str, NDArray[np.float32]] = {"observation": self.tensor}

    def set_from(self, state: CardvecState | CardvecTreeState, player: int) -> None:
        if isinstance(state, CardvecTreeState):
            node = state._lane.node
            if node.is_chance():
                # A chance node shows nothing (pyspiel reads the tensors' shapes there).
                self.tensor[:] = 0.0
            elif self.engine_info_state:
                self.tensor[:] = node.info_state_tensor(player)
            else:
                self.tensor[:] = node.observation(player)
            return
        lane = state._lane.env
        if self.engine_info_state:
            self.tensor[:] = lane.info_state_tensor(player)[0]
        else:
            self.tensor[:] = lane.observe_as(0, player)

    def string_from(self, state: CardvecState | CardvecTreeState, player: int) -> str:
        if isinstance(state, CardvecTreeState):
            node = state._lane.node
            if self.engine_info_state:
                return node.info_state_string(player)
            view = node.view(player)
            if view is None:
                raise ValueError("a chance node has no observation")
            return json.dumps(json.loads(view), sort_keys=True, separators=(",", ":"))
        lane = state._lane.env
        if self.engine_info_state:
            return lane.info_state_string(0, player)
        if self.info_state:
            # No perfect-recall information state: the seat's observation tensor, which
            # (unlike the view) determines the legal actions, as text.
            return _tensor_text(lane.observe_as(0, player))
        return json.dumps(lane.view(0, player), sort_keys=True, separators=(",", ":"))


def _tensor_text(tensor: NDArray[np.float32]) -> str:
    """A tensor as text: its nonzero entries, ``index:value`` separated by spaces."""
    return " ".join(f"{i}:{float(tensor[i])!r}" for i in np.flatnonzero(tensor))


class CardvecBot(pyspiel.Bot):  # type: ignore[misc]  # pyspiel has no stubs
    """A cardvec built-in bot (``cardvec.bots``) as a ``pyspiel.Bot``: made by :func:`bot`."""

    def __init__(self, name: str, game: CardvecGame, player: int, seed: int) -> None:
        pyspiel.Bot.__init__(self)
        self.name = name
        self.player = player
        self.seed = seed
        # A one-lane environment that holds the states of a game tree (explicit chance),
        # whose nodes are not lanes; the name is checked on it now (an unknown bot is a
        # ValueError listing the game's bots).
        self._env = _lane(game.GAME_ID, game.options, 0)
        bots.act(self._env, name, seed=seed)

    def restart_at(self, state: Any) -> None:
        pass

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        pass

    def step(self, state: Any) -> int:
        if state.current_player() != self.player:
            raise ValueError(
                f"bot {self.name!r} plays seat {self.player}; seat {state.current_player()} "
                "is to act"
            )
        if isinstance(state, CardvecTreeState):
            env = self._env
            held = state._lane.node.batch_state_bytes()
            assert held is not None  # a decision node (the seat to act is the bot's)
            env.set_state(0, held)
        else:
            env = state._lane.env
        return int(bots.act(env, self.name, seed=self.seed)[0])


def bot(name: str, game: Any, player: int, seed: int = 0) -> CardvecBot:
    """Built-in bot ``name`` of a cardvec game (any name ``cardvec.bots.act`` takes: the
    registry's bots, search bots, ``policy:<path>``) as a ``pyspiel.Bot`` playing seat
    ``player`` of ``game`` (a game loaded from this module), for OpenSpiel's
    ``evaluate_bots`` and the like. Its choice in a state depends only on ``seed`` and the
    state (``cardvec.bots.act``'s random stream). An unknown name, a game not of this module
    or a seat out of range is a ``ValueError``. Bots that remember between decisions
    (151's tracking search bots) are refused, as by ``bots.act``."""
    if not isinstance(game, CardvecGame):
        raise ValueError(f"{game} is not a cardvec game (load one named cardvec_...)")
    if not 0 <= int(player) < game.num_players():
        raise ValueError(f"player must be in 0..{game.num_players() - 1}, got {player}")
    return CardvecBot(name, game, int(player), int(seed))


def _game_type(info: GameInfo, zero_sum: bool, tree: bool) -> Any:
    utility = pyspiel.GameType.Utility
    chance = pyspiel.GameType.ChanceMode
    reward = pyspiel.GameType.RewardModel
    parameters: dict[str, int | str] = {o["name"]: _parameter(o) for o in info["options"]}
    parameters["rng_seed"] = 0
    low, high = info["players"]
    return pyspiel.GameType(
        short_name=game_name(info["id"]),
        long_name=f"cardvec {info['title']}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=chance.EXPLICIT_STOCHASTIC if tree else chance.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility.ZERO_SUM if zero_sum else utility.GENERAL_SUM,
        reward_model=reward.TERMINAL if tree else reward.REWARDS,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters,
    )


_INFOS: dict[str, GameInfo] = {}
#: The games with a game tree (explicit chance nodes).
_TREE_IDS = frozenset(tree_ids())


def _register() -> None:
    for info in games():
        game_id = info["id"]
        name = game_name(game_id)
        if name in _REGISTERED:
            continue
        _INFOS[game_id] = info
        cls = type(
            f"CardvecGame_{game_id.replace('-', '_')}",
            (CardvecGame,),
            {"GAME_ID": game_id, "__module__": __name__},
        )
        # The registered type: the defaults' zero-sum flag (a game's utility does not depend
        # on its options in the registry's games; each loaded game carries its own type).
        probe = _lane(game_id, {}, 0)
        game_type = _game_type(info, zero_sum=probe.zero_sum, tree=game_id in _TREE_IDS)
        pyspiel.register_game(game_type, cls)
        _REGISTERED[name] = game_id


_register()
