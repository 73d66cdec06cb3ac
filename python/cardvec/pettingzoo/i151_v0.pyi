from typing import Any, ClassVar, Literal, SupportsIndex

from ._aec import _OrderEnforcing
from ._lane import LaneAEC
from ._parallel import CardvecParallel

GAME_ID: str
SUITS: str
RANKS: str
HAND: int
TOP: int
REQUIRED_SUIT: int
SCALARS: int
SEATS: int
SEAT_WIDTH: int
SCORE: int
EXCLUDED: int
DEALER: int

# The options of cardvec.make("151", ...) (cardvec.I151), with the registry's defaults.
def env(
    *,
    num_players: SupportsIndex = 2,
    render_mode: str | None = None,
    cards_per_player: SupportsIndex = 8,
    target_score: SupportsIndex = 151,
    initial_dealer: SupportsIndex = 0,
    max_round_steps: SupportsIndex = 500,
    reward: Literal["round-points", "match-outcome"] = "round-points",
) -> _OrderEnforcing: ...
def parallel_env(
    *,
    num_players: SupportsIndex = 2,
    render_mode: str | None = None,
    cards_per_player: SupportsIndex = 8,
    target_score: SupportsIndex = 151,
    initial_dealer: SupportsIndex = 0,
    max_round_steps: SupportsIndex = 500,
    reward: Literal["round-points", "match-outcome"] = "round-points",
) -> CardvecParallel: ...
def card_code(card: int) -> str: ...

class raw_env(LaneAEC):
    metadata: ClassVar[dict[str, Any]]
    target_score: int
    def __init__(
        self,
        num_players: SupportsIndex = 2,
        render_mode: str | None = None,
        *,
        cards_per_player: SupportsIndex = 8,
        target_score: SupportsIndex = 151,
        initial_dealer: SupportsIndex = 0,
        max_round_steps: SupportsIndex = 500,
        reward: Literal["round-points", "match-outcome"] = "round-points",
    ) -> None: ...
