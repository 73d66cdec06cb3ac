from ._cardvec import LearnerEnv as LearnerEnv

__all__ = ["LearnerEnv"]
