"""PettingZoo environments backed by cardvec's engines (``pettingzoo`` must be installed).

- ``cardvec.pettingzoo.lost_cities_v0``: Lost Cities, two players.
- ``cardvec.pettingzoo.flip7_v0``: Flip 7, a drop-in for game-room 0.1.0's
  ``game_room.flip7_v0``.
- ``cardvec.pettingzoo.i151_v0``: 151, 2 to 4 players, one match per episode.
- ``cardvec.pettingzoo.holdem_v0``: no-limit hold'em for 2 to 10 players (docs/holdem.md).
- ``cardvec.pettingzoo.kuhn_v0``: Kuhn poker as OpenSpiel's ``kuhn_poker`` (docs/kuhn.md).
- ``cardvec.pettingzoo.leduc_v0``: Leduc hold'em as OpenSpiel's ``leduc_poker`` (docs/leduc.md).

Each has ``env()`` (AEC, wrapped), ``raw_env()`` and ``parallel_env()`` (the Parallel API
for turn-based games: every agent is observed, only the agent to act has a nonzero action
mask and only its action is applied). Conventions, seeds and pickling: docs/python.md.
"""

from __future__ import annotations

