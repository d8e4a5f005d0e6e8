"""The field: 16 x 16 large squares, each split into 2 x 2 small squares.

Large squares are named like a chessboard, ``a1`` (bottom left) to ``p16``:
index ``row * 16 + col``.  Small squares are (x, y) with (0, 0) at the
bottom left, so large square (col, row) holds the small squares
(2col, 2row) to (2col + 1, 2row + 1).  A chip's squares are clockwise from
the top left: TL = (2col, 2row + 1), TR = (2col + 1, 2row + 1),
BR = (2col + 1, 2row), BL = (2col, 2row).

The field keeps one colour per small square (0 empty, 1-4 for R G B Y) in a
flat bytearray (``y * 32 + x``), which the pattern scorer reads directly.
"""

from __future__ import annotations

import re

from .chips import rotate, squares
from .patterns import SIDE

LARGE = 16
SQUARES = LARGE * LARGE
COLUMNS = "abcdefghijklmnop"
SQUARE_TEXT = re.compile(r"([a-p])(1[0-6]|[1-9])")


def square_name(square: int) -> str:
    return f"{COLUMNS[square % LARGE]}{square // LARGE + 1}"


def parse_square(text: str) -> int | None:
    match = SQUARE_TEXT.fullmatch(text) if isinstance(text, str) else None
    if match is None:
        return None
    return (int(match.group(2)) - 1) * LARGE + COLUMNS.index(match.group(1))


def small_squares(square: int) -> tuple[tuple[int, int], ...]:
    """(TL, TR, BR, BL) small squares of a large square."""
    col, row = square % LARGE, square // LARGE
    x, y = 2 * col, 2 * row
    return (x, y + 1), (x + 1, y + 1), (x + 1, y), (x, y)


SMALL_OF: tuple[tuple[tuple[int, int], ...], ...] = tuple(small_squares(s) for s in range(SQUARES))
INDEX_OF: tuple[tuple[int, ...], ...] = tuple(tuple(y * SIDE + x for x, y in cells) for cells in SMALL_OF)
"""Flat field indices of each large square's TL, TR, BR, BL."""


def paint(field: bytearray, square: int, chip: int | None, rotation: int = 0) -> None:
    """Put ``chip`` turned ``rotation`` quarters on ``square`` (None: empty it)."""
    indices = INDEX_OF[square]
    if chip is None:
        for index in indices:
            field[index] = 0
        return
    for index, colour in zip(indices, squares(rotate(chip, rotation))):
        field[index] = colour + 1
