"""Torch tensors over an environment's output buffers: what ``env.torch()`` returns.

Why not ``torch.from_numpy(env.obs)``: the views are read-only, and torch, which has no
read-only tensors, warns about every non-writable array (``torch.asarray`` too).
``torch.from_dlpack(env.obs)`` works only where numpy exports read-only arrays through
DLPack 1.0 and torch asks for it; otherwise numpy refuses ("Cannot export readonly array
since signalling readonly is unsupported by DLPack"). So the compiled part hands this module
writable aliases of the same buffers (numpy arrays whose base is the read-only view), and
``torch.from_numpy`` wraps them: no copy, no warning, on every torch and numpy version.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from typing import Any

    from numpy import generic
    from numpy.typing import NDArray

#: The accepted values of ``mask``: the dtype of ``legal_mask``.
MASK_DTYPES: tuple[str, ...] = ("bool", "uint8")


def _import_torch() -> Any:
    try:
        import torch
    except ImportError as e:
        raise ImportError(
            "env.torch() needs PyTorch, which is not installed (pip install torch)"
        ) from e
    return torch


class TorchViews:
    """Torch tensors sharing memory with an environment's outputs, one attribute per output
    (``names`` lists them in order). They follow every ``step``/``reset`` as the numpy views
    do. Treat them as read-only: an in-place write (``obs.sub_(m)``) changes the
    environment's buffers, and the next step may build on the changed values."""

    names: tuple[str, ...]

    def __init__(self, tensors: dict[str, Any]) -> None:
        self.__dict__.update(tensors)
        self.names = tuple(tensors)

    def __getattr__(self, name: str) -> Any:
        # Only reached for a name that is not a tensor (the tensors are instance attributes).
        names = self.__dict__.get("names", ())
        raise AttributeError(f"TorchViews has no tensor {name!r}; it has: {', '.join(names)}")

    def as_dict(self) -> dict[str, Any]:
        """The tensors by name, in ``names`` order (a new dict)."""
        return {name: getattr(self, name) for name in self.names}

    def __repr__(self) -> Any:
        fields = ", ".join(
            f"{n}={tuple(getattr(self, n).shape)}:{str(getattr(self, n).dtype)[6:]}"
            for n in self.names
        )
        return f"TorchViews({fields})"


def tensors(arrays: dict[str, NDArray[generic]], mask: object = "bool") -> TorchViews:
    """``TorchViews`` over ``arrays`` (name -> writable numpy alias from the compiled part);
    ``legal_mask`` as ``torch.bool`` (``mask="bool"``) or ``torch.uint8`` (``"uint8"``)."""
    if not isinstance(mask, str) or mask not in MASK_DTYPES:
        raise ValueError(f"mask must be one of {MASK_DTYPES}, got {mask!r}")
    torch = _import_torch()
    out = {}
    for name, arr in arrays.items():
        if name == "legal_mask" and mask == "bool":
            # The mask bytes are 0 or 1, so they are valid bools: a view, not a copy.
            arr = arr.view(np.bool_)
        out[name] = torch.from_numpy(arr)
    return TorchViews(out)
