from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["COLS", "ROWS", "frame", "view_lines"]

COLS: int
ROWS: int
SCALE: int

def shape() -> tuple[int, int, int]: ...
def frame(text: str) -> npt.NDArray[np.uint8]: ...
def view_lines(view: dict[str, Any] | str) -> str: ...
