from typing import Any, ClassVar, Literal

from ._aec import _OrderEnforcing
from ._lane import LaneAEC
from ._parallel import CardvecParallel

GAME_ID: str
HANDSHAKE_SLOTS: int
HAND: int
BOARD: int
DISCARD_TOP: int
DISCARD_BELOW: int
DECK_LEFT: int
PLIES: int
SCORE_DIFF: int

def env(
    *,
    render_mode: str | None = None,
    obs_layout: Literal["card-major", "channel-major"] = "card-major",
) -> _OrderEnforcing: ...
def parallel_env(
    *,
    render_mode: str | None = None,
    obs_layout: Literal["card-major", "channel-major"] = "card-major",
) -> CardvecParallel: ...

class raw_env(LaneAEC):
    metadata: ClassVar[dict[str, Any]]
    def __init__(
        self,
        render_mode: str | None = None,
        *,
        obs_layout: Literal["card-major", "channel-major"] = "card-major",
    ) -> None: ...
