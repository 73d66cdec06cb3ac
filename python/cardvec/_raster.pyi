from typing import Any, Sequence

import numpy as np
import numpy.typing as npt

__all__ = ["COLS", "ROWS", "frame", "table_lines", "view_lines"]

COLS: int
ROWS: int
SCALE: int

def shape() -> tuple[int, int, int]: ...
def frame(text: str) -> npt.NDArray[np.uint8]: ...
def table_lines(
    title: str, view: dict[str, Any], names: Sequence[str] | None = None
) -> list[str]: ...
def view_lines(view: dict[str, Any] | str) -> str: ...
