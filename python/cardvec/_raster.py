"""A game's view as text (``table_lines``, ``view_lines``: what every ``render`` of the
PettingZoo and Gymnasium adapters shows), and text drawn as an RGB raster
(``render_mode="rgb_array"``): numpy uint8 ``[H, W, 3]`` frames of a fixed size, for
Gymnasium's and PettingZoo's video wrappers, which need every frame of a video the same
size. The glyphs are a small 3x5 pixel font of this module's
own (letters without case, digits, punctuation, the four suits, a few signs), scaled;
any other character is drawn as a filled box. No dependency beyond numpy."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Sequence

import numpy as np

if TYPE_CHECKING:
    from numpy import uint8
    from numpy.typing import NDArray

__all__ = ["COLS", "ROWS", "frame", "table_lines", "view_lines"]

COLS: int = 96  # characters per line (longer lines wrap)
ROWS: int = 40  # lines per frame (more are cut, the last line says so)
SCALE: int = 2  # screen pixels per font pixel
_CELL_W, _CELL_H = 4, 7  # a 3x5 glyph with one column and two rows of spacing
_MARGIN = 6

_FELT = (20, 70, 42)
_INK = (240, 240, 232)
_RED = (255, 110, 110)

_GLYPHS = {
    "0": "### #.# #.# #.# ###", "1": ".#. ##. .#. .#. ###", "2": "### ..# ### #.. ###",
    "3": "### ..# .## ..# ###", "4": "#.# #.# ### ..# ..#", "5": "### #.. ### ..# ###",
    "6": "### #.. ### #.# ###", "7": "### ..# .#. .#. .#.", "8": "### #.# ### #.# ###",
    "9": "### #.# ### ..# ###",
    "A": ".#. #.# ### #.# #.#", "B": "##. #.# ##. #.# ##.", "C": ".## #.. #.. #.. .##",
    "D": "##. #.# #.# #.# ##.", "E": "### #.. ##. #.. ###", "F": "### #.. ##. #.. #..",
    "G": ".## #.. #.# #.# .##", "H": "#.# #.# ### #.# #.#", "I": "### .#. .#. .#. ###",
    "J": "..# ..# ..# #.# .#.", "K": "#.# #.# ##. #.# #.#", "L": "#.. #.. #.. #.. ###",
    "M": "#.# ### ### #.# #.#", "N": "##. #.# #.# #.# #.#", "O": ".#. #.# #.# #.# .#.",
    "P": "##. #.# ##. #.. #..", "Q": ".#. #.# #.# ##. .##", "R": "##. #.# ##. #.# #.#",
    "S": ".## #.. .#. ..# ##.", "T": "### .#. .#. .#. .#.", "U": "#.# #.# #.# #.# ###",
    "V": "#.# #.# #.# #.# .#.", "W": "#.# #.# ### ### #.#", "X": "#.# #.# .#. #.# #.#",
    "Y": "#.# #.# .#. .#. .#.", "Z": "### ..# .#. #.. ###",
    " ": "... ... ... ... ...", ".": "... ... ... ... .#.", ",": "... ... ... .#. #..",
    ":": "... .#. ... .#. ...", ";": "... .#. ... .#. #..", "-": "... ... ### ... ...",
    "+": "... .#. ### .#. ...", "/": "..# ..# .#. #.. #..", "(": ".#. #.. #.. #.. .#.",
    ")": ".#. ..# ..# ..# .#.", "[": "##. #.. #.. #.. ##.", "]": ".## ..# ..# ..# .##",
    "{": ".## .#. ##. .#. .##", "}": "##. .#. .## .#. ##.", "=": "... ### ... ### ...",
    "!": ".#. .#. .#. ... .#.", "?": "##. ..# .#. ... .#.", "*": "... #.# .#. #.# ...",
    "#": "#.# ### #.# ### #.#", "%": "#.. ..# .#. #.. ..#", "_": "... ... ... ... ###",
    "<": "..# .#. #.. .#. ..#", ">": "#.. .#. ..# .#. #..", "|": ".#. .#. .#. .#. .#.",
    "'": ".#. .#. ... ... ...", '"': "#.# #.# ... ... ...", "&": ".#. #.# .#. #.# .##",
    "@": "### #.# #.# #.. .##", "$": ".## ##. .#. .## ##.", "^": ".#. #.# ... ... ...",
    "~": "... ##. ..# ... ...", "`": "#.. .#. ... ... ...", "\\": "#.. #.. .#. ..# ..#",
    "♠": ".#. ### ### .#. ###", "♥": "#.# ### ### .#. ...", "♦": ".#. ### ### .#. ...",
    "♣": ".#. ### .#. ### .#.", "★": ".#. ### .#. #.# ...", "·": "... ... .#. ... ...",
    "–": "... ... ### ... ...", "—": "... ... ### ... ...", "…": "... ... ... ... #.#",
    "×": "... #.# .#. #.# ...",
}
_BOX = "### ### ### ### ###"
_RED_CHARS = set("♥♦")


def _bitmap(pattern: str) -> np.ndarray:
    rows = pattern.split()
    return np.array([[c == "#" for c in row] for row in rows], dtype=bool)


_BITMAPS = {ch: _bitmap(p) for ch, p in _GLYPHS.items()}
_BOX_BITMAP = _bitmap(_BOX)


def _glyph(ch: str) -> np.ndarray:
    return _BITMAPS.get(ch.upper(), _BITMAPS.get(ch, _BOX_BITMAP))


def shape() -> tuple[int, int, int]:
    """The size of every frame: ``(height, width, 3)``."""
    return (
        2 * _MARGIN + ROWS * _CELL_H * SCALE,
        2 * _MARGIN + COLS * _CELL_W * SCALE,
        3,
    )


def _wrap(text: str) -> list[str]:
    lines: list[str] = []
    for line in text.splitlines() or [""]:
        line = line.replace("\t", "    ").rstrip()
        while len(line) > COLS:
            lines.append(line[:COLS])
            line = "  " + line[COLS:]
        lines.append(line)
    if len(lines) > ROWS:
        lines = lines[: ROWS - 1] + [f"... {len(lines) - ROWS + 1} more lines"]
    return lines


def frame(text: str) -> NDArray[uint8]:
    """``text`` drawn on a frame of the fixed size ``shape()``: light glyphs on green
    felt, hearts and diamonds in red; lines longer than ``COLS`` wrap, lines past ``ROWS``
    are cut (the last line says how many)."""
    out = np.empty(shape(), dtype=np.uint8)
    out[:] = _FELT
    for r, line in enumerate(_wrap(text)):
        y = _MARGIN + r * _CELL_H * SCALE
        for c, ch in enumerate(line):
            if ch == " ":
                continue
            mask = np.kron(_glyph(ch), np.ones((SCALE, SCALE), dtype=bool))
            x = _MARGIN + c * _CELL_W * SCALE
            region = out[y : y + mask.shape[0], x : x + mask.shape[1]]
            region[mask] = _RED if ch in _RED_CHARS else _INK
    return out


def _text(value: Any) -> str:
    """A value of a view as text: a card (a dict with ``text``) by its text, a list item by
    item, a dict key by key, ``-`` for nothing."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        if "text" in value:
            return str(value["text"])
        return " ".join(f"{k} {_text(v)}" for k, v in value.items())
    if isinstance(value, list):
        inner = [f"[{_text(v)}]" if isinstance(v, list) else _text(v) for v in value]
        return ", ".join(inner) or "-"
    return str(value)


def _fields(items: dict[str, Any], skip: Sequence[str]) -> str:
    return " | ".join(f"{k} {_text(v)}" for k, v in items.items() if k not in skip)


def table_lines(title: str, view: dict[str, Any], names: Sequence[str] | None = None) -> list[str]:
    """A game's view (``Words::view``: the dict the web table draws) as lines of text, the
    same for every game: ``title`` and the table's fields on the first line, then a line per
    seat, named by ``names`` (``seat N`` when not given). What the PettingZoo ``render`` and
    the Gymnasium ``render`` both draw."""
    lines = [" | ".join([title] + ([_fields(view, ("kind", "seats"))] if len(view) > 2 else []))]
    seats = [s for s in view.get("seats", []) if isinstance(s, dict)]
    if names is None:
        names = [f"seat {s.get('seat', i)}" for i, s in enumerate(seats)]
    for name, seat in zip(names, seats):
        lines.append(f"{name}: {_fields(seat, ('seat',))}")
    return lines


def view_lines(view: dict[str, Any] | str) -> str:
    """:func:`table_lines` of a view (a dict or its JSON text), titled by its ``kind``, as
    one text."""
    data: dict[str, Any] = json.loads(view) if isinstance(view, str) else view
    return "\n".join(table_lines(str(data.get("kind", "game")), data))
