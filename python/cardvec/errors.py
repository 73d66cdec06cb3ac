"""cardvec's own exception types (the rest are Python's: ``ValueError`` for bad input,
``TypeError`` for a wrong type, ``MemoryError``, ``RuntimeError``).

- ``UnknownOptionError``: a keyword argument or option no one accepts, anywhere in cardvec
  (the registry classes' ``**options``, ``cardvec.make``, ``Flip7Game``, the CLI's ``-o``
  in Python campaigns). It is both a ``ValueError`` (what the registry classes always
  raised for an unknown option) and a ``TypeError`` (what Python raises for an unexpected
  keyword argument), so code written for either catches it. The message names the
  accepted names.
"""



from __future__ import annotations


class UnknownOptionError(ValueError, TypeError):
    """An option or keyword argument that is not accepted; the message lists those that are."""


__all__ = ["UnknownOptionError"]
