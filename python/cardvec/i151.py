"""151, the i151 competition game, as i151-engine 0.2.4 plays it (see docs/151.md).

``I151(num_envs, num_players=2, ...)`` builds the batch environment for 2, 3 or 4 seats
(``cardvec.make("151", ...)`` builds the same class; its options are listed by
``cardvec.games()``). Card ids follow the official deck order
(``i151_engine.models.card.standard_deck()``): ``id = suit * 8 + rank``, suits S H D C,
ranks A K Q J T 9 8 7. Actions: 0..32 play card, 32 draw, 33 pass, 34..38 choose suit.

Deprecated: ``I151(num_envs, players=k)`` (use ``num_players``) and the classes
``I151P2``, ``I151P3``, ``I151P4`` (now functions building ``I151(..., num_players=k)``);
both warn with ``DeprecationWarning``.
"""
from __future__ import annotations

import operator
import random
import warnings
from typing import TYPE_CHECKING, Any, SupportsIndex, overload

import numpy as np

from . import _game_classes, _games
from ._args import int_arg
from ._cardvec import i151 as _c

if TYPE_CHECKING:
    from numpy import uint8
    from numpy.typing import NDArray
    from typing_extensions import Self, Unpack, deprecated

    from ._cardvec import _MaskDtype, _ObsDtype, _ObsSeats, _OnIllegal
    from ._game_classes import _I151Options
else:

    def deprecated(message: str) -> Any:
        """The typing marker only: the functions below warn themselves."""
        return lambda function: function


DECK_SIZE: int = _c.DECK_SIZE
N_ACTIONS: int = _c.N_ACTIONS
OBS_DIM: int = _c.OBS_DIM
ACTION_DRAW: int = _c.ACTION_DRAW
ACTION_PASS: int = _c.ACTION_PASS
ACTION_CHOOSE_SUIT: int = _c.ACTION_CHOOSE_SUIT
#: The old name of ``DECK_SIZE`` (kept for compatibility).
N_CARDS: int = DECK_SIZE


class I151(_game_classes.I151):
    __doc__ = (_game_classes.I151.__doc__ or "") + (
        "\n\n``players=k`` is a deprecated spelling of ``num_players=k`` (DeprecationWarning)."
        "\n\nThe official engine's values are accepted: ``target_score`` 0 to 20,000, "
        "``initial_dealer`` any integer (taken modulo ``num_players``), ``cards_per_player`` "
        "1 to 32 // ``num_players``; ``max_round_steps`` (0: never) is cardvec's round cut-off."
    )
    __module__ = "cardvec"
    __slots__ = ()

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
        obs_seats: _ObsSeats = "acting",
        players: None = None,
        **options: Unpack[_I151Options],
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
        obs_seats: _ObsSeats = "acting",
        players: SupportsIndex,
        **options: Unpack[_I151Options],
    ) -> Self: ...
    def __new__(
        cls,
        num_envs: SupportsIndex,
        *args: Any,
        players: SupportsIndex | None = None,
        **kwargs: Any,
    ) -> Self:
        if players is not None:
            warnings.warn(
                "I151(players=...) is deprecated; use num_players=...",
                DeprecationWarning,
                stacklevel=2,
            )
            if "num_players" in kwargs:
                raise TypeError("give num_players or players (deprecated), not both")
            kwargs["num_players"] = players
        dealer = kwargs.get("initial_dealer")
        seats = kwargs.get("num_players", 2)
        if (
            isinstance(dealer, (int, np.integer))
            and not isinstance(dealer, (bool, np.bool_))
            and isinstance(seats, (int, np.integer))
            and not isinstance(seats, (bool, np.bool_))
            and 2 <= seats <= 4
        ):
            # The official create_match takes any integer, modulo the seats.
            kwargs["initial_dealer"] = operator.index(dealer) % operator.index(seats)
        return super().__new__(cls, num_envs, *args, **kwargs)


_games.register_class(I151)


def _deprecated_alias(players: int, num_envs: SupportsIndex, kwargs: dict[str, Any]) -> I151:
    warnings.warn(
        f"I151P{players} is deprecated; use cardvec.I151(num_envs, num_players={players})",
        DeprecationWarning,
        stacklevel=3,
    )
    return I151(num_envs, num_players=players, **kwargs)


@deprecated("use cardvec.I151(num_envs, num_players=2)")
def I151P2(num_envs: SupportsIndex, **kwargs: Any) -> I151:
    """Deprecated: ``I151(num_envs, num_players=2, **kwargs)``."""
    return _deprecated_alias(2, num_envs, kwargs)


@deprecated("use cardvec.I151(num_envs, num_players=3)")
def I151P3(num_envs: SupportsIndex, **kwargs: Any) -> I151:
    """Deprecated: ``I151(num_envs, num_players=3, **kwargs)``."""
    return _deprecated_alias(3, num_envs, kwargs)


@deprecated("use cardvec.I151(num_envs, num_players=4)")
def I151P4(num_envs: SupportsIndex, **kwargs: Any) -> I151:
    """Deprecated: ``I151(num_envs, num_players=4, **kwargs)``."""
    return _deprecated_alias(4, num_envs, kwargs)


#: A lane holds any match seed with ``abs(seed) < 2**MATCH_SEED_BITS`` (docs/151.md).
MATCH_SEED_BITS: int = 256


def official_order(match_seed: SupportsIndex) -> NDArray[uint8]:
    """The order that makes a lane play the official match of ``match_seed``
    (``create_match(..., seed=match_seed)``): round 1's deck, shuffled by
    ``random.Random(match_seed + 1)``, then the seed in little-endian two's-complement
    bytes (8 for a seed that fits an ``int64``; 16, 24, 32 or 40 for a larger one), for
    ``env.reset_lane_from_order(lane, official_order(seed))``. Any integer with
    ``abs(match_seed) < 2**256`` (``MATCH_SEED_BITS``); a larger one is a ValueError."""
    bound = 2**MATCH_SEED_BITS
    if isinstance(match_seed, (int, np.integer)) and not isinstance(match_seed, (bool, np.bool_)):
        if abs(int(match_seed)) >= bound:
            raise ValueError(
                f"match_seed must be in -(2**{MATCH_SEED_BITS}-1)..=2**{MATCH_SEED_BITS}-1 "
                f"(cardvec's bound for 151 match seeds, docs/151.md), got {int(match_seed)}"
            )
    match_seed = int_arg(match_seed, "match_seed", -bound + 1, bound - 1)
    deck = list(range(DECK_SIZE))
    random.Random(match_seed + 1).shuffle(deck)
    bits = (match_seed if match_seed >= 0 else ~match_seed).bit_length() + 1  # with the sign
    width = 8 * max(1, -(-bits // 64))
    seed_bytes = list(match_seed.to_bytes(width, "little", signed=True))
    return np.array(deck + seed_bytes, dtype=np.uint8)


__all__ = [
    "I151",
    "I151P2",
    "I151P3",
    "I151P4",
    "official_order",
    "MATCH_SEED_BITS",
    "DECK_SIZE",
    "N_ACTIONS",
    "OBS_DIM",
    "ACTION_DRAW",
    "ACTION_PASS",
    "ACTION_CHOOSE_SUIT",
    "N_CARDS",
]
