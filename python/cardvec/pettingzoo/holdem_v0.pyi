from collections.abc import Sequence
from typing import Any, ClassVar, SupportsIndex

from .._cardvec import NoLimitHoldemGame, _LegalDecision
from ._aec import CardvecAEC, _OrderEnforcing
from ._parallel import CardvecParallel

def env(
    *,
    num_players: int = 2,
    stack: int | None = None,
    stacks: Sequence[int] | None = None,
    small_blind: int = 1,
    big_blind: int = 2,
    ante: int = 0,
    raise_fractions: Sequence[float] = (0.5, 1.0, 2.0),
    button: int | None = None,
    render_mode: str | None = None,
) -> _OrderEnforcing: ...
def parallel_env(
    *,
    num_players: int = 2,
    stack: int | None = None,
    stacks: Sequence[int] | None = None,
    small_blind: int = 1,
    big_blind: int = 2,
    ante: int = 0,
    raise_fractions: Sequence[float] = (0.5, 1.0, 2.0),
    button: int | None = None,
    render_mode: str | None = None,
) -> CardvecParallel: ...

class raw_env(CardvecAEC):
    metadata: ClassVar[dict[str, Any]]
    game: NoLimitHoldemGame
    num_players: int
    def __init__(
        self,
        num_players: int = 2,
        stack: int | None = None,
        stacks: Sequence[int] | None = None,
        small_blind: int = 1,
        big_blind: int = 2,
        ante: int = 0,
        raise_fractions: Sequence[float] = (0.5, 1.0, 2.0),
        button: int | None = None,
        render_mode: str | None = None,
    ) -> None: ...
    def legal(self) -> _LegalDecision | None: ...
    def step_raise_to(self, chips: SupportsIndex) -> None: ...
