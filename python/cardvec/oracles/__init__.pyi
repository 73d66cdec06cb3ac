"""Types of ``cardvec.oracles``: the external oracles as importable replays."""

__all__ = ["ORACLES", "require"]

ORACLES: dict[str, tuple[str, str, str]]

def require(game_id: str) -> str: ...
