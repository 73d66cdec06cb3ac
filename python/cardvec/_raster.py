"""Text drawn as an RGB raster (``render_mode="rgb_array"``): numpy uint8 ``[H, W, 3]``
frames of a fixed size, for Gymnasium's and PettingZoo's video wrappers, which need every
frame of a video the same size. The glyphs are a small 3x5 pixel font of this module's
own (letters without case, digits, punctuation, the four suits, a few signs), scaled;
any other character is drawn as a filled box. No dependency beyond numpy."""

from __future__ import annotations

import json
from typing import Any

import numpy as np

__all__ = ["COLS", "ROWS", "frame", "view_lines"]

COLS = 96  # characters per line (longer lines wrap)
ROWS = 40  # lines per frame (more are cut, the last line says so)
SCALE = 2  # screen pixels per font pixel
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


def frame(text: str) -> np.ndarray:
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


def _value_text(value: Any) -> str:
    if isinstance(value, dict):
        if "text" in value and isinstance(value["text"], str):
            return value["text"]
        return "{" + ", ".join(f"{k} {_value_text(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return " ".join(_value_text(v) for v in value) if value else "-"
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def view_lines(view: dict[str, Any] | str) -> str:
    """A game's view (``Words::view``: the JSON the web table draws, as a dict or its
    text) as lines of text, the same for every game: the scalars first, then each seat
    on a line of its own (a card as its ``text``), then the other lists."""
    if isinstance(view, str):
        view = json.loads(view)
    head = [f"{view.get('kind', 'game')}"]
    scalars, lists = [], []
    for key, value in view.items():
        if key in ("kind", "seats"):
            continue
        if isinstance(value, list) or isinstance(value, dict):
            lists.append(f"{key}: {_value_text(value)}")
        else:
            scalars.append(f"{key} {_value_text(value)}")
    if scalars:
        head.append(" · ".join(scalars))
    lines = head + lists
    for seat in view.get("seats", []):
        if isinstance(seat, dict):
            name = f"seat {seat.get('seat', '?')}"
            rest = ", ".join(f"{k} {_value_text(v)}" for k, v in seat.items() if k != "seat")
            lines.append(f"{name}: {rest}")
    return "\n".join(lines)
