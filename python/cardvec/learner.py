"""The learner view: ``LearnerEnv``, a batch in which the learner plays one seat of every
lane and built-in bots play the others inside Rust (see ``LearnerEnv``'s docstring and
docs/python.md, "Learner view")::

    env = cardvec.LearnerEnv("lost-cities", 4096, opponents="random", seat="rotate")
    obs = env.reset(seed=0)
    obs, rewards, terminated, truncated = env.step(actions)   # the learner's only
    done = terminated | truncated
    returns = env.episode_return[done]                      # episodes that just ended

``cardvec.make(game_id, num_envs, opponents=..., seat=..., **kw)`` builds the same.
"""


from __future__ import annotations

from ._cardvec import LearnerEnv

__all__ = ["LearnerEnv"]
