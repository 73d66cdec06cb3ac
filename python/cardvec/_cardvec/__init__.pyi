"""Types of the compiled module ``cardvec._cardvec`` (python/src/, one file per feature: docs/architecture.md, "Where a binding goes"); its submodules
``lost_cities``, ``flip7``, ``i151``, ``holdem``, ``arena``, ``pushfold``, ``solve``, ``spot`` and ``campaign`` have a stub each beside this
one. Checked against the runtime by ``python -m mypy.stubtest cardvec`` (scripts/test.sh)."""

import os
from collections.abc import Sequence
from typing import Any, Literal, SupportsIndex, TypedDict, final, type_check_only

import numpy as np
import numpy.typing as npt
from typing_extensions import Self, TypeAlias, disjoint_base

from . import arena as arena
from . import campaign as campaign
from . import flip7 as flip7
from . import holdem as holdem
from . import i151 as i151
from . import lost_cities as lost_cities
from . import pushfold as pushfold
from . import solve as solve
from . import spot as spot
from .._torch import TorchViews

__all__ = [
    "BatchEnv",
    "_BatchEngine",
    "ObsFormat",
    "games",
    "lost_cities",
    "Flip7Game",
    "flip7",
    "i151",
    "NoLimitHoldemGame",
    "holdem",
    "arena",
    "pushfold",
    "campaign",
    "solve",
    "spot",
    "LearnerEnv",
    "_LearnerEngine",
    "__version__",
    "ACTION_APPLIED",
    "ACTION_ILLEGAL",
    "ACTION_FINISHED",
    "ACTION_RESET",
    "MAX_THREADS",
    "IllegalActionError",
]

__version__: str
ACTION_APPLIED: int
ACTION_ILLEGAL: int
ACTION_FINISHED: int
ACTION_RESET: int
# The largest accepted num_threads (a pool per distinct count is shared process-wide).
MAX_THREADS: int

class IllegalActionError(ValueError):
    """A step refused under ``on_illegal="raise"``: nothing changed."""

    lanes: list[int]
    actions: list[int]
    count: int

# The accepted values of ``on_illegal`` (``None``: ``"noop"``).
_OnIllegal: TypeAlias = Literal["noop", "raise", "lose"] | None
# The accepted values of ``obs_seats`` (``None``: ``"acting"``).
_ObsSeats: TypeAlias = Literal["acting", "all"] | None

# A game option's value: an integer, a number, a word, None, or a list of integers or
# numbers (a 1-D numpy array too).
_OptionValue: TypeAlias = (
    SupportsIndex | float | str | None | list[SupportsIndex] | list[float]
    | tuple[SupportsIndex, ...] | tuple[float, ...] | npt.NDArray[Any]
)

# The accepted values of ``obs_dtype`` and ``mask_dtype`` (``None``: the default).
_ObsDtype: TypeAlias = (
    Literal["f32", "float32", "u8", "uint8"]
    | type[np.float32] | type[np.uint8] | np.dtype[np.float32] | np.dtype[np.uint8] | None
)
_MaskDtype: TypeAlias = (
    Literal["u8", "uint8", "bool"]
    | type[np.uint8] | type[np.bool_] | type[bool] | np.dtype[np.uint8] | np.dtype[np.bool_]
    | None
)
# ``obs``: float32 rows, or the bytes of the compact rows with ``obs_dtype="u8"``.
_Obs: TypeAlias = npt.NDArray[np.float32 | np.uint8]
# ``legal_mask``: uint8, or bool with ``mask_dtype="bool"``.
_Mask: TypeAlias = npt.NDArray[np.uint8 | np.bool_]

@type_check_only
class OptionInfo(TypedDict):
    """One option of a registered game (``GameInfo["options"]``)."""

    name: str
    kind: str
    type: Literal["int", "optional int", "int list", "float list", "choice"]
    min: int | float | None
    max: int | float | None
    choices: list[str] | None
    default: Any
    doc: str

@type_check_only
class GameInfo(TypedDict):
    """One registered game (``cardvec.games()``)."""

    id: str
    title: str
    summary: str
    players: tuple[int, int]
    python_class: str
    docs: str
    oracle: str | None
    options: list[OptionInfo]
    bots: list[str]
    configurations: list[dict[str, Any]]

def games() -> list[GameInfo]: ...

@final
class _BatchEngine:
    """The engine behind a ``BatchEnv``: the ``base`` of its views (``BatchEnv._engine``)."""

@final
class ObsFormat:
    """A game's compact observation format (``BatchEnv.obs_format``): the float32 row is
    ``row[byte_index] = obs / byte_div`` (float32 division), ``row[tail_index] = obs_tail``."""

    @property
    def dim(self) -> int:
        """Length of the float32 row (``obs_dim``)."""
    @property
    def byte_dim(self) -> int:
        """Bytes per compact row."""
    @property
    def tail_dim(self) -> int:
        """float32 values per compact row's tail."""
    @property
    def compact_bytes(self) -> int:
        """``byte_dim + 4 * tail_dim``."""
    @property
    def byte_index(self) -> npt.NDArray[np.int64]:
        """int64 [byte_dim]: the index in the float32 row of each byte."""
    @property
    def byte_div(self) -> npt.NDArray[np.float32]:
        """float32 [byte_dim]: the divisor of each byte."""
    @property
    def tail_index(self) -> npt.NDArray[np.int64]:
        """int64 [tail_dim]: the index in the float32 row of each tail value."""

@disjoint_base
class BatchEnv:
    """The batch environment of a registered game: ``num_envs`` lanes stepped together."""

    def __new__(
        cls,
        game_id: str,
        num_envs: SupportsIndex,
        seed: SupportsIndex | None = None,
        num_threads: SupportsIndex | None = None,
        autoreset: bool = False,
        observe: bool = True,
        chunk_size: SupportsIndex | None = None,
        max_steps: SupportsIndex | None = None,
        *,
        obs_dtype: _ObsDtype = "f32",
        mask_dtype: _MaskDtype = "u8",
        on_illegal: _OnIllegal = "noop",
        obs_seats: _ObsSeats = "acting",
        **options: _OptionValue,
    ) -> Self: ...
    def reset(self, seed: SupportsIndex | Sequence[SupportsIndex] | npt.NDArray[np.integer] | None = None) -> _Obs:
        """Resets every lane (a sequence of ``num_envs`` seeds: one per lane); returns
        ``obs``."""
    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        _Obs,
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
    ]:
        """Steps every lane; returns ``(obs, rewards, terminated, truncated)``."""
    def observe(self) -> _Obs:
        """Computes the observation of the seat to act in every lane; returns ``obs``."""
    def batched_reset(self, seed: SupportsIndex | None = None) -> _Obs:
        """The batch API's name for ``reset``."""
    def batched_step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        _Obs,
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
    ]:
        """The batch API's name for ``step``."""
    def batched_obs(self) -> _Obs:
        """The batch API's observation (the seat to act in every lane)."""
    def batched_legal_mask(self) -> _Mask:
        """The batch API's legal masks (the ``legal_mask`` view)."""
    def reset_lanes(self, mask: npt.ArrayLike) -> None:
        """Resets the lanes where ``mask`` (bool [num_envs]) is true."""
    def reset_lane_from_order(self, lane: SupportsIndex, order: npt.ArrayLike) -> None:
        """Deals lane ``lane`` from an explicit card order."""
    def gather(self, sources: npt.ArrayLike) -> None:
        """Afterwards lane i holds what lane ``sources[i]`` held."""
    def _bot_actions(
        self, bot: str, lanes: npt.ArrayLike | None = None, seed: SupportsIndex | None = None
    ) -> npt.NDArray[np.int64]:
        """What ``cardvec.bots.act(env, bot, lanes, seed)`` returns."""
    def torch(self, mask: Literal["bool", "uint8"] = "bool") -> TorchViews:
        """The outputs as torch tensors sharing the views' memory (needs PyTorch)."""
    def action_keys(self) -> npt.NDArray[np.int64]:
        """The action keys of the seat to act in every lane: int64 [num_envs, num_actions]
        (for Lost Cities ``card_id * 12 + place_type * 6 + draw_source``; the action ids
        where the game is over or names no keys)."""
    @property
    def action_key_count(self) -> int:
        """How many action keys the game names (0: none)."""
    def _policy_probs(
        self, path: str | os.PathLike[str], lanes: npt.ArrayLike | None = None
    ) -> npt.NDArray[np.float32]:
        """What ``cardvec.bots.policy_probs(env, path, lanes)`` returns."""
    def _search_values(
        self, bot: str, lanes: npt.ArrayLike | None = None, seed: SupportsIndex | None = None
    ) -> npt.NDArray[np.float32]:
        """What ``cardvec.bots.action_values(env, bot, lanes, seed)`` returns."""
    def observe_as(self, lane: SupportsIndex, player: SupportsIndex) -> npt.NDArray[np.float32]:
        """A new array: the observation of lane ``lane`` as seen by seat ``player``."""
    @property
    def info_state_dim(self) -> int | None:
        """Length of one information-state tensor; ``None`` for a game without them."""
    def info_state_tensor(
        self, player: SupportsIndex | npt.ArrayLike | None = None
    ) -> npt.NDArray[np.float32]:
        """A new float32 array [num_envs, info_state_dim]: each lane's information-state
        tensor for ``player`` (``None``: the seat to act; a seat; or seats [num_envs])."""
    def info_state_key(self, lane: SupportsIndex, player: SupportsIndex) -> bytes:
        """The perfect-recall information-state key of seat ``player`` in lane ``lane``."""
    def info_state_string(self, lane: SupportsIndex, player: SupportsIndex) -> str:
        """The information state of seat ``player`` in lane ``lane`` as text."""
    def get_state(self, lane: SupportsIndex) -> bytes:
        """The state of lane ``lane`` (``state_size`` bytes)."""
    def set_state(self, lane: SupportsIndex, state: bytes | bytearray) -> None:
        """Replaces the state of lane ``lane`` (bytes from ``get_state``)."""
    def determinize(self, lane: SupportsIndex, seat: SupportsIndex, seed: SupportsIndex) -> bytes:
        """Lane ``lane``'s state with the cards ``seat`` cannot see dealt afresh (from a stream
        seeded by ``seed``), as bytes for ``set_state``; the lane does not change."""
    def action_name(self, lane: SupportsIndex, action: SupportsIndex) -> str:
        """The name of ``action`` for the seat to act in lane ``lane`` (the game's words)."""
    def view(self, lane: SupportsIndex, seat: SupportsIndex, reveal: bool = False) -> dict[str, Any]:
        """What ``seat`` sees of lane ``lane`` (the structure the web table draws)."""
    def outcome(self, lane: SupportsIndex) -> dict[str, Any] | None:
        """How lane ``lane``'s game ended, or ``None`` while it runs."""
    def state_text(self, lane: SupportsIndex) -> str:
        """Lane ``lane``'s state as one readable line."""
    def set_state_text(self, lane: SupportsIndex, text: str) -> None:
        """Sets lane ``lane`` from a state text (a bad one is a ``ValueError``)."""
    @property
    def obs(self) -> _Obs:
        """float32 [num_envs, obs_dim] (uint8 [num_envs, byte_dim] with ``obs_dtype="u8"``;
        float32 [num_envs, num_players, obs_dim] with ``obs_seats="all"``), a read-only
        view."""
    @property
    def obs_tail(self) -> npt.NDArray[np.float32]:
        """float32 [num_envs, tail_dim] (``[num_envs, 0]`` with ``obs_dtype="f32"``), a
        read-only view."""
    @property
    def legal_mask(self) -> _Mask:
        """uint8 (bool with ``mask_dtype="bool"``) [num_envs, num_actions], a read-only
        view."""
    @property
    def obs_dtype(self) -> Literal["f32", "u8"]: ...
    @property
    def obs_seats(self) -> Literal["acting", "all"]: ...
    @property
    def mask_dtype(self) -> Literal["u8", "bool"]: ...
    @property
    def obs_format(self) -> ObsFormat: ...
    def obs_f32(self, out: npt.NDArray[np.float32] | None = None) -> npt.NDArray[np.float32]:
        """The float32 observations [num_envs, obs_dim] (a copy, or written into ``out``)."""
    @property
    def mask_words(self) -> int: ...
    def legal_bits(self, out: npt.NDArray[np.uint64] | None = None) -> npt.NDArray[np.uint64]:
        """The legal masks as bits, uint64 [num_envs, mask_words] (little-endian bit order)."""
    @property
    def rewards(self) -> npt.NDArray[np.float32]:
        """float32 [num_envs, num_players], a read-only view."""
    @property
    def terminated(self) -> npt.NDArray[np.bool_]:
        """bool [num_envs], a read-only view."""
    @property
    def truncated(self) -> npt.NDArray[np.bool_]:
        """bool [num_envs], a read-only view."""
    @property
    def current_player(self) -> npt.NDArray[np.int32]:
        """int32 [num_envs], a read-only view."""
    @property
    def illegal(self) -> npt.NDArray[np.uint8]:
        """uint8 [num_envs]: 0 applied, 1 illegal, 2 finished, 3 autoreset."""
    @property
    def game_id(self) -> str: ...
    @property
    def game_title(self) -> str: ...
    @property
    def config(self) -> dict[str, Any]: ...
    @property
    def zero_sum(self) -> bool: ...
    @property
    def state_size(self) -> int: ...
    @property
    def num_envs(self) -> int: ...
    @property
    def num_actions(self) -> int: ...
    @property
    def obs_dim(self) -> int: ...
    @property
    def num_players(self) -> int: ...
    @property
    def seed(self) -> int: ...
    @property
    def autoreset(self) -> bool: ...
    @autoreset.setter
    def autoreset(self, on: bool) -> None: ...
    @property
    def observe_on_step(self) -> bool: ...
    @observe_on_step.setter
    def observe_on_step(self, on: bool) -> None: ...
    @property
    def max_steps(self) -> int | None: ...
    @property
    def on_illegal(self) -> str: ...
    @property
    def _engine(self) -> _BatchEngine: ...
    def __len__(self) -> int: ...
    def close(self) -> None: ...
    @property
    def closed(self) -> bool: ...
    def __enter__(self) -> Self: ...
    def __exit__(self, exc_type: object, exc: object, tb: object) -> bool: ...

@final
class Flip7Game:
    """One game of Flip 7 stepped one decision at a time (``cardvec.pettingzoo.flip7_v0``)."""

    def __new__(
        cls,
        num_players: SupportsIndex = 3,
        target_score: SupportsIndex = 200,
        max_rounds: SupportsIndex | None = None,
        seed: SupportsIndex | None = 0,
    ) -> Self: ...
    def reset(self, seed: SupportsIndex | None = None) -> None: ...
    def step(self, action: SupportsIndex) -> bool: ...
    def observe(self, seat: SupportsIndex) -> npt.NDArray[np.float64]: ...
    def legal_mask(self) -> npt.NDArray[np.int8]: ...
    def action_name(self, action: SupportsIndex) -> str: ...
    def view(self, seat: SupportsIndex, reveal: bool = False) -> dict[str, Any]: ...
    def outcome(self) -> dict[str, Any] | None: ...
    def state_text(self) -> str: ...
    def set_state_text(self, text: str) -> None: ...
    def take_shuffles(self) -> list[bytes]: ...
    @property
    def num_players(self) -> int: ...
    @property
    def target_score(self) -> int: ...
    @property
    def max_rounds(self) -> int | None: ...
    @property
    def num_actions(self) -> int: ...
    @property
    def obs_dim(self) -> int: ...
    @property
    def current_player(self) -> int: ...
    @property
    def terminated(self) -> bool: ...
    @property
    def truncated(self) -> bool: ...
    @property
    def rewards(self) -> list[float]: ...
    @property
    def scores(self) -> list[int]: ...
    @property
    def round_scores(self) -> list[int]: ...
    @property
    def completed_round(self) -> int: ...
    @property
    def winners(self) -> list[int]: ...
    @property
    def round(self) -> int: ...
    @property
    def dealer(self) -> int: ...
    @property
    def status(self) -> bytes: ...
    @property
    def hands(self) -> list[bytes]: ...
    @property
    def pending_card(self) -> int | None: ...
    @property
    def draw_pile(self) -> bytes: ...
    @property
    def discard(self) -> bytes: ...
    @property
    def flip7_player(self) -> int | None: ...
    @property
    def tasks(self) -> list[tuple[int, int, int]]: ...
    @property
    def deferred(self) -> bytes: ...

# ``NoLimitHoldemGame.legal()``: the decision of the seat to act, in chips ("raise" is a
# keyword, hence the functional syntax).
_LegalDecision = TypedDict(
    "_LegalDecision",
    {
        "seat": int,
        "fold": bool,
        "check": bool,
        "call_amount": int,
        "raise": bool,
        "min_raise_to": int,
        "max_raise_to": int,
    },
)

@final
class NoLimitHoldemGame:
    """One hand of no-limit hold'em after another (``cardvec.pettingzoo.holdem_v0``)."""

    def __new__(
        cls,
        seed: SupportsIndex | None = 0,
        *,
        num_players: SupportsIndex = 2,
        small_blind: SupportsIndex = 1,
        big_blind: SupportsIndex = 2,
        ante: SupportsIndex = 0,
        stack: SupportsIndex | None = None,
        stacks: list[SupportsIndex] | tuple[SupportsIndex, ...] | npt.NDArray[np.integer[Any]] | None = None,
        raise_fractions: list[float] | tuple[float, ...] | npt.NDArray[np.floating[Any]] = ...,
        button: SupportsIndex | None = None,
    ) -> Self: ...
    def reset(self, seed: SupportsIndex | None = None) -> None: ...
    def step(self, action: SupportsIndex) -> bool: ...
    def observe(self, seat: SupportsIndex) -> npt.NDArray[np.float32]: ...
    def legal_mask(self) -> npt.NDArray[np.int8]: ...
    def action_name(self, action: SupportsIndex) -> str: ...
    def view(self, seat: SupportsIndex, reveal: bool = False) -> dict[str, Any]: ...
    def outcome(self) -> dict[str, Any] | None: ...
    def state_text(self) -> str: ...
    def set_state_text(self, text: str) -> None: ...
    def legal(self) -> _LegalDecision | None: ...
    @property
    def num_players(self) -> int: ...
    @property
    def num_actions(self) -> int: ...
    @property
    def obs_dim(self) -> int: ...
    @property
    def current_player(self) -> int: ...
    @property
    def terminated(self) -> bool: ...
    @property
    def rewards(self) -> list[float]: ...
    @property
    def stacks(self) -> list[int]: ...
    @property
    def bets(self) -> list[int]: ...
    @property
    def pot(self) -> int: ...
    @property
    def folded(self) -> list[bool]: ...
    @property
    def button(self) -> int: ...
    @property
    def street(self) -> int: ...
    @property
    def board(self) -> bytes: ...
    @property
    def hole_cards(self) -> list[bytes]: ...
    @property
    def big_blind(self) -> int: ...

@final
class _LearnerEngine:
    """The engine behind a ``LearnerEnv``: the ``base`` of its views (``LearnerEnv._engine``)."""

@final
class LearnerEnv:
    """The learner view of a registered game: the learner plays one seat of every lane,
    built-in bots play the others inside Rust (``cardvec.make(..., opponents=...)``)."""

    def __new__(
        cls,
        game_id: str,
        num_envs: SupportsIndex,
        opponents: str | list[str] | tuple[str, ...] = "random",
        seat: SupportsIndex | Literal["rotate"] = 0,
        seed: SupportsIndex | None = None,
        num_threads: SupportsIndex | None = None,
        chunk_size: SupportsIndex | None = None,
        max_steps: SupportsIndex | None = None,
        on_illegal: _OnIllegal = "noop",
        **options: _OptionValue,
    ) -> Self: ...
    def reset(self, seed: SupportsIndex | Sequence[SupportsIndex] | npt.NDArray[np.integer] | None = None) -> npt.NDArray[np.float32]:
        """Resets every lane (the bots play until the learner's first decision; a sequence
        of ``num_envs`` seeds: one per lane); returns ``obs``."""
    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
    ]:
        """Applies the learner's actions, then the bots play until the learner is to act
        again; returns ``(obs, rewards, terminated, truncated)``."""
    def batched_reset(self, seed: SupportsIndex | None = None) -> npt.NDArray[np.float32]:
        """The batch API's name for ``reset``."""
    def batched_step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
    ]:
        """The batch API's name for ``step``."""
    def batched_obs(self) -> npt.NDArray[np.float32]:
        """The batch API's observation (the ``obs`` view)."""
    def batched_legal_mask(self) -> npt.NDArray[np.uint8]:
        """The batch API's legal masks (the ``legal_mask`` view)."""
    def _bot_actions(
        self, bot: str, lanes: npt.ArrayLike | None = None, seed: SupportsIndex | None = None
    ) -> npt.NDArray[np.int64]:
        """What ``cardvec.bots.act(env, bot, lanes, seed)`` returns."""
    def torch(self, mask: Literal["bool", "uint8"] = "bool") -> TorchViews:
        """The views as torch tensors sharing their memory (needs PyTorch)."""
    @property
    def obs(self) -> npt.NDArray[np.float32]:
        """float32 [num_envs, obs_dim] as seen by the learner's seat, a read-only view."""
    @property
    def legal_mask(self) -> npt.NDArray[np.uint8]:
        """uint8 [num_envs, num_actions], a read-only view."""
    @property
    def rewards(self) -> npt.NDArray[np.float32]:
        """float32 [num_envs]: the learner's reward, a read-only view."""
    @property
    def terminated(self) -> npt.NDArray[np.bool_]:
        """bool [num_envs], a read-only view."""
    @property
    def truncated(self) -> npt.NDArray[np.bool_]:
        """bool [num_envs], a read-only view."""
    @property
    def illegal(self) -> npt.NDArray[np.uint8]:
        """uint8 [num_envs]: 0 applied, 1 illegal, 3 autoreset."""
    @property
    def seat(self) -> npt.NDArray[np.int32]:
        """int32 [num_envs]: the learner's seat in each lane's current game."""
    @property
    def episode_return(self) -> npt.NDArray[np.float32]:
        """float32 [num_envs]: the learner's return in the current (or just ended) episode."""
    @property
    def seat_returns(self) -> npt.NDArray[np.float32]:
        """float32 [num_envs, num_players]: every seat's rewards in the current (or just
        ended) game, column ``s`` seat ``s``."""
    @property
    def episode_length(self) -> npt.NDArray[np.int32]:
        """int32 [num_envs]: the learner's decisions in the current (or just ended) episode."""
    @property
    def episodes(self) -> npt.NDArray[np.uint64]:
        """uint64 [num_envs]: games finished since the reset, skipped ones included."""
    @property
    def skipped(self) -> npt.NDArray[np.uint64]:
        """uint64 [num_envs]: games that ended before the learner's first decision."""
    @property
    def skipped_return(self) -> npt.NDArray[np.float64]:
        """float64 [num_envs]: the learner's total reward in the skipped games."""
    @property
    def game_id(self) -> str: ...
    @property
    def config(self) -> dict[str, Any]: ...
    @property
    def opponents(self) -> list[str]: ...
    def set_pool(
        self,
        entries: Sequence[str | Sequence[str]],
        weights: Sequence[float] | None = None,
    ) -> None:
        """Replaces the opponent pool; games in progress keep their opponents."""
    @property
    def pool(self) -> list[tuple[int, str, float]]:
        """``(id, name, weight)`` of every entry of the opponent pool."""
    @property
    def opponent_names(self) -> list[str]:
        """The name of every opponent entry ever in the pool, indexed by id."""
    @property
    def opponent_id(self) -> npt.NDArray[np.int64]:
        """int64 [num_envs]: the opponent entry of each lane's current game."""
    def action_keys(self) -> npt.NDArray[np.int64]:
        """The action keys of the seat to act in every lane: int64 [num_envs, num_actions]
        (for Lost Cities ``card_id * 12 + place_type * 6 + draw_source``; the action ids
        where the game is over or names no keys)."""
    @property
    def action_key_count(self) -> int:
        """How many action keys the game names (0: none)."""
    def _policy_probs(
        self, path: str | os.PathLike[str], lanes: npt.ArrayLike | None = None
    ) -> npt.NDArray[np.float32]:
        """What ``cardvec.bots.policy_probs(env, path, lanes)`` returns."""
    def _search_values(
        self, bot: str, lanes: npt.ArrayLike | None = None, seed: SupportsIndex | None = None
    ) -> npt.NDArray[np.float32]:
        """What ``cardvec.bots.action_values(env, bot, lanes, seed)`` returns."""
    @property
    def learner_seat(self) -> int | Literal["rotate"]: ...
    @property
    def num_envs(self) -> int: ...
    @property
    def num_actions(self) -> int: ...
    @property
    def obs_dim(self) -> int: ...
    @property
    def num_players(self) -> int: ...
    @property
    def seed(self) -> int: ...
    @property
    def max_steps(self) -> int | None: ...
    @property
    def on_illegal(self) -> str: ...
    @property
    def _engine(self) -> _LearnerEngine: ...
    def view_json(self, lane: SupportsIndex | None = None, reveal: bool = False) -> str:
        """The game's view of lane ``lane`` as the learner's seat there sees it, as JSON."""
    def __len__(self) -> int: ...
    def close(self) -> None: ...
    @property
    def closed(self) -> bool: ...
    def __enter__(self) -> Self: ...
    def __exit__(self, exc_type: object, exc: object, tb: object) -> bool: ...
