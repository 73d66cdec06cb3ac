from collections import deque
from typing import Any, ClassVar

from .._cardvec import Flip7Game
from ._aec import CardvecAEC, _OrderEnforcing
from ._parallel import CardvecParallel

HIT: int
STAY: int
TARGET_OFFSET: int
CARD_COUNT: int
ACTIVE: int
STAYED: int
BUSTED: int
FROZEN: int

def env(
    *,
    num_players: int = 3,
    target_score: int = 200,
    max_rounds: int | None = None,
    render_mode: str | None = None,
) -> _OrderEnforcing: ...
def parallel_env(
    *,
    num_players: int = 3,
    target_score: int = 200,
    max_rounds: int | None = None,
    render_mode: str | None = None,
) -> CardvecParallel: ...

class raw_env(CardvecAEC):
    metadata: ClassVar[dict[str, Any]]
    game: Flip7Game
    num_players: int
    target_score: int
    max_rounds: int | None
    def __init__(
        self,
        num_players: int = 3,
        target_score: int = 200,
        max_rounds: int | None = None,
        render_mode: str | None = None,
    ) -> None: ...
    @property
    def scores(self) -> list[int]: ...
    @property
    def winners(self) -> list[str]: ...
    @property
    def round_number(self) -> int: ...
    @property
    def dealer(self) -> int: ...
    @property
    def hands(self) -> list[list[int]]: ...
    @property
    def status(self) -> list[int]: ...
    @property
    def deck(self) -> list[int]: ...
    @property
    def discard(self) -> list[int]: ...
    @property
    def pending_card(self) -> int | None: ...
    @property
    def flip7_player(self) -> int | None: ...
    @property
    def tasks(self) -> deque[tuple[int, int, int]]: ...
    @property
    def deferred(self) -> list[int]: ...
