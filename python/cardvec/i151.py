"""151, the i151 competition game, as i151-engine 0.2.4 plays it (see docs/151.md).

``I151(num_envs, players=2, ...)`` builds the batch environment for 2, 3 or 4 seats
(classes ``I151P2``, ``I151P3``, ``I151P4``). Card ids follow the official deck order
(``i151_engine.models.card.standard_deck()``): ``id = suit * 8 + rank``, suits S H D C,
ranks A K Q J T 9 8 7. Actions: 0..32 play card, 32 draw, 33 pass, 34..38 choose suit.
"""

import random

import numpy as np

from ._cardvec import I151P2, I151P3, I151P4
from ._cardvec import i151 as _c

N_CARDS: int = _c.N_CARDS
N_ACTIONS: int = _c.N_ACTIONS
OBS_DIM: int = _c.OBS_DIM
ACTION_DRAW: int = _c.ACTION_DRAW
ACTION_PASS: int = _c.ACTION_PASS
ACTION_CHOOSE_SUIT: int = _c.ACTION_CHOOSE_SUIT

_CLASSES = {2: I151P2, 3: I151P3, 4: I151P4}


def I151(num_envs, players=2, **kwargs):
    """The 151 environment for ``players`` seats (2..4); other arguments as every game."""
    if players not in _CLASSES:
        raise ValueError(f"players must be in 2..=4, got {players!r}")
    return _CLASSES[players](num_envs, **kwargs)


def official_order(match_seed: int) -> np.ndarray:
    """The order that makes a lane play the official match of ``match_seed``
    (``create_match(..., seed=match_seed)``): round 1's deck, shuffled by
    ``random.Random(match_seed + 1)``, then the seed's 8 little-endian bytes, for
    ``env.reset_lane_from_order(lane, official_order(seed))``."""
    deck = list(range(N_CARDS))
    random.Random(match_seed + 1).shuffle(deck)
    seed_bytes = list(int(match_seed).to_bytes(8, "little", signed=True))
    return np.array(deck + seed_bytes, dtype=np.uint8)


__all__ = [
    "I151",
    "I151P2",
    "I151P3",
    "I151P4",
    "official_order",
    "N_CARDS",
    "N_ACTIONS",
    "OBS_DIM",
    "ACTION_DRAW",
    "ACTION_PASS",
    "ACTION_CHOOSE_SUIT",
]
