from typing import Any, ClassVar

from ._aec import _OrderEnforcing
from ._lane import LaneAEC
from ._parallel import CardvecParallel

GAME_ID: str
CARD: int
HISTORY: int

# The game has no options: render_mode is the only argument.
def env(*, render_mode: str | None = None) -> _OrderEnforcing: ...
def parallel_env(*, render_mode: str | None = None) -> CardvecParallel: ...

class raw_env(LaneAEC):
    metadata: ClassVar[dict[str, Any]]
    def __init__(self, render_mode: str | None = None) -> None: ...
