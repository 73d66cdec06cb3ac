"""Types of ``cardvec._cardvec.campaign``: the shards of ``cardvec.campaign`` (games
``first..first + count`` of a run with seed ``seed``, each played exactly as in the whole
run), computed in Rust without the GIL on ``threads`` workers (None: one per core)."""

from collections.abc import Sequence
from typing import Any, SupportsIndex

__all__ = [
    "diff_shard",
    "match_shard",
    "arena_shard",
    "trace_shard",
    "ladder_spec",
    "ladder_shard",
    "ladder_report",
    "PLANTED",
]

PLANTED: str

def diff_shard(
    game_id: str,
    seed: SupportsIndex,
    first: SupportsIndex,
    count: SupportsIndex,
    options: dict[str, Any] | None = None,
    threads: SupportsIndex | None = None,
    probe_every: int = 16,
    plant_mismatch_game: SupportsIndex | None = None,
) -> dict[str, Any]:
    """The differential run of games ``first..first + count``: ``games``, ``actions``,
    ``rejected``, ``failed_games``, ``mismatches`` ([{"game", "step", "what"}]) and
    ``seconds``. ``plant_mismatch_game``: a test hook (that game is reported as a
    mismatch)."""

def match_shard(
    game_id: str,
    seed: SupportsIndex,
    first: SupportsIndex,
    count: SupportsIndex,
    bots: Sequence[str] | None = None,
    options: dict[str, Any] | None = None,
    threads: SupportsIndex | None = None,
) -> dict[str, Any]:
    """Games ``first..first + count`` of a match of built-in bots rotated over the seats:
    exact integer tallies (``games``, ``plies``, ``plies_sq``, ``reward_scale``, ``bots``)."""

def arena_shard(
    a: str,
    b: str,
    seed: SupportsIndex,
    first: SupportsIndex,
    count: SupportsIndex,
    threads: SupportsIndex | None = None,
    max_steps: int = 500,
) -> dict[str, Any]:
    """Matches ``first..first + count`` of the 151 arena series ``a`` vs ``b`` on a clock
    on which no time passes: the ladder log's fields."""

def trace_shard(
    game_id: str,
    seed: SupportsIndex,
    first: SupportsIndex,
    count: SupportsIndex,
    players: Sequence[int] | None = None,
    policy_seed: int = 0,
) -> tuple[str, dict[str, int]]:
    """Games ``first..first + count`` of ``cardvec trace GAME``: the JSON lines and the
    trace's counts."""

def ladder_spec(
    game_id: str,
    bots: Sequence[str],
    games: SupportsIndex,
    seed: SupportsIndex | None = None,
    options: dict[str, Any] | None = None,
    max_steps: int | None = None,
) -> tuple[str, int]:
    """The ladder ``cardvec ladder GAME --bots ... --games GAMES --seed SEED`` plays,
    checked: its log header (JSON) and its number of units."""

def ladder_shard(
    spec: str,
    first: SupportsIndex,
    count: SupportsIndex,
    threads: SupportsIndex | None = None,
) -> list[str]:
    """Units ``first..first + count`` of the ladder ``spec``: one log line per unit."""

def ladder_report(spec: str, records: Sequence[str]) -> str:
    """The standings (``cardvec ladder --json``'s JSON) of the unit lines ``records``."""
