"""Types of ``cardvec.errors``."""

__all__ = ["UnknownOptionError"]

class UnknownOptionError(ValueError, TypeError): ...
