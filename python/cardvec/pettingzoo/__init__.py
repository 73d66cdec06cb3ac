"""PettingZoo environments backed by cardvec's engines (``pettingzoo`` must be installed).

``cardvec.pettingzoo.flip7_v0`` is a drop-in for game-room 0.1.0's ``game_room.flip7_v0``.
``cardvec.pettingzoo.holdem_v0`` is no-limit hold'em for 2 to 10 players (docs/holdem.md).
"""
