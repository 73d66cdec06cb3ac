"""Types of ``cardvec._games``: one class per registered game, made at import time from the
registry, typed here with the game's options as keyword arguments. A game added to the
registry needs a class here (python/tests/test_packaging.py checks that every registered
game has one, with the registry's options, kinds and defaults)."""

from collections.abc import Sequence
from typing import Any, ClassVar, Literal, SupportsIndex

import numpy as np
import numpy.typing as npt
from typing_extensions import Self, deprecated, overload

from ._cardvec import (
    BatchEnv,
    GameInfo,
    LearnerEnv,
    _MaskDtype,
    _ObsDtype,
    _OnIllegal,
    _OptionValue,
)

CLASSES: dict[str, type[BatchEnv]]

def games() -> list[GameInfo]: ...
def register_class(cls: type[BatchEnv]) -> None: ...
def game_class(game_id: str) -> type[BatchEnv]: ...

# make(...) is a LearnerEnv when opponents= is given (not None), else the game's BatchEnv.
@overload
def make(
    game_id: str,
    num_envs: SupportsIndex,
    *,
    opponents: str | list[str] | tuple[str, ...],
    seat: SupportsIndex | Literal["rotate"] = 0,
    seed: SupportsIndex | None = None,
    num_threads: SupportsIndex | None = None,
    chunk_size: SupportsIndex | None = None,
    max_steps: SupportsIndex | None = None,
    on_illegal: _OnIllegal = "noop",
    **options: _OptionValue,
) -> LearnerEnv: ...
@overload
def make(
    game_id: str, num_envs: SupportsIndex, *, opponents: None = None, **kwargs: Any
) -> BatchEnv: ...

class LostCities(BatchEnv):
    """Lost Cities, the classic 2-player round (``cardvec.make("lost-cities", ...)``)."""

    GAME_ID: ClassVar[str]
    def __new__(
        cls,
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
        obs_layout: Literal["card-major", "channel-major"] = "card-major",
    ) -> Self: ...

class Flip7(BatchEnv):
    """Flip 7 for 3 to 18 players (``cardvec.make("flip7", ...)``)."""

    GAME_ID: ClassVar[str]
    def __new__(
        cls,
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
        num_players: SupportsIndex = 3,
        target_score: SupportsIndex = 200,
        max_rounds: SupportsIndex | None = None,
    ) -> Self: ...

class I151(BatchEnv):
    """151 for 2 to 4 players (``cardvec.make("151", ...)``)."""

    GAME_ID: ClassVar[str]
    @overload
    def __new__(
        cls,
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
        num_players: SupportsIndex = 2,
        cards_per_player: SupportsIndex = 8,
        target_score: SupportsIndex = 151,
        initial_dealer: SupportsIndex = 0,
        max_round_steps: SupportsIndex = 500,
        reward: Literal["round-points", "match-outcome"] = "round-points",
        players: None = None,
    ) -> Self: ...
    @overload
    @deprecated("I151(players=...) is deprecated; use num_players=...")
    def __new__(
        cls,
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
        players: SupportsIndex,
        cards_per_player: SupportsIndex = 8,
        target_score: SupportsIndex = 151,
        initial_dealer: SupportsIndex = 0,
        max_round_steps: SupportsIndex = 500,
        reward: Literal["round-points", "match-outcome"] = "round-points",
    ) -> Self: ...

class NoLimitHoldem(BatchEnv):
    """No-limit Texas hold'em for 2 to 10 players (``cardvec.make("holdem", ...)``)."""

    GAME_ID: ClassVar[str]
    def __new__(
        cls,
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
        num_players: SupportsIndex = 2,
        small_blind: SupportsIndex = 1,
        big_blind: SupportsIndex = 2,
        ante: SupportsIndex = 0,
        stack: SupportsIndex | None = None,
        stacks: Sequence[SupportsIndex] | npt.NDArray[np.integer[Any]] | None = None,
        raise_fractions: Sequence[float] | npt.NDArray[np.floating[Any]] = ...,
        button: SupportsIndex | None = None,
    ) -> Self: ...

class KuhnPoker(BatchEnv):
    """Kuhn poker, two players, as OpenSpiel's kuhn_poker (``cardvec.make("kuhn", ...)``)."""

    GAME_ID: ClassVar[str]
    def __new__(
        cls,
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
    ) -> Self: ...

class LeducHoldem(BatchEnv):
    """Leduc hold'em, two players, as OpenSpiel's leduc_poker (``cardvec.make("leduc", ...)``)."""

    GAME_ID: ClassVar[str]
    def __new__(
        cls,
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
    ) -> Self: ...
