from typing import Any

import numpy as np
import numpy.typing as npt

MASK_DTYPES: tuple[str, ...]

class TorchViews:
    """Torch tensors sharing memory with an environment's outputs, one attribute per output."""

    names: tuple[str, ...]
    def __init__(self, tensors: dict[str, Any]) -> None: ...
    def as_dict(self) -> dict[str, Any]: ...
    # One torch.Tensor per output (obs, legal_mask, ...); torch is optional, so Any.
    def __getattr__(self, name: str) -> Any: ...

def tensors(arrays: dict[str, npt.NDArray[np.generic]], mask: object = "bool") -> TorchViews: ...
