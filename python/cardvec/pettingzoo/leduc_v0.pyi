from typing import Any, ClassVar

from ._aec import CardvecAEC, _OrderEnforcing

GAME_ID: str
PRIVATE: int
PUBLIC: int
BETTING: int

def env(*, render_mode: str | None = None) -> _OrderEnforcing: ...
def parallel_env(*, render_mode: str | None = None) -> Any: ...
def card_name(card: int) -> str: ...

class raw_env(CardvecAEC):
    metadata: ClassVar[dict[str, Any]]
    num_players: int
    def __init__(self, render_mode: str | None = None) -> None: ...
