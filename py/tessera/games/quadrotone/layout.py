"""Where the field and the hand go on a board of a given size.

Three shapes, chosen by the board's width (``aspect_at``) and read back
from the canvas's own shape when drawing and hit-testing (``layout``), so
what is drawn and what a tap names always agree:

- *beside*: from ``BESIDE_MIN_WIDTH`` CSS pixels the hand is a tray of
  ``BESIDE_COLUMNS`` columns to the right of the field, as the document's
  own panel "in the right part of the game form": 128 chips as big as the
  field's squares, about 30 px on a laptop (at 1280 x 800 and
  1366 x 768 the whole field, the tray and the buttons under it fit on the
  screen with the player panels beside them);
- *below*: a narrower board keeps the tray under the field, 32 chips a row;
- *strip*: a phone's board (narrower than ``tray.COMPACT_WIDTH``) draws a
  strip under the field that opens a sheet of large chips (``tray``).

A board with no hands (the reverse game) is the field alone.  Sizes are in
large squares of the field (``s``) unless they say pixels.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ...core.grid import Grid
from .field import LARGE
from .tray import is_compact

MARGIN = 0.9
"""Room for the coordinates, in large squares."""
SPAN = LARGE + 2 * MARGIN
TRAY_COLUMNS = 32
TRAY_ROWS = 4
"""The hand below the field: 32 chips a row at half a large square, room for all 128."""
TRAY_CHIP = 0.5
"""A hand chip's size below the field, in large squares (the field zooms for a closer look)."""
TRAY_GAP = 0.5
"""Between the coordinates and the tray below: the row of the hand's label."""
HAND_SIZE = 128

BESIDE_COLUMNS = 8
BESIDE_CHIP = 1.0
"""A hand chip's size beside the field: as big as a field square, 16 rows of 8 as tall as the field."""
BESIDE_GAP = 0.5
"""Between the field and the tray beside it."""
BESIDE_PAD = 0.2
BESIDE_SPAN = MARGIN + LARGE + BESIDE_GAP + BESIDE_COLUMNS * BESIDE_CHIP + BESIDE_PAD
"""The width of a board with the hand beside the field (its height is ``SPAN``)."""
BESIDE_MIN_WIDTH = 700.0
"""From this width (CSS pixels) the hand goes beside the field: its chips are
then 24 px or more, where below the field they would be under 20."""

BESIDE, BELOW, STRIP = "beside", "below", "strip"


def tray_rows(game: Any) -> int:
    """Rows below the field for the hand (none in the reverse game: no hands)."""
    return TRAY_ROWS if getattr(game, "options", {}).get("variant", "normal") == "normal" else 0


def total_height(rows: int) -> float:
    """The height of a board with the hand below the field (its width is ``SPAN``)."""
    return SPAN + (rows * TRAY_CHIP + TRAY_GAP if rows else 0.0)


def aspect_at(rows: int, width: float | None) -> float:
    """Width / height of the board ``width`` CSS pixels wide (None: the shape
    a picture of no known width takes, the hand below)."""
    if rows and width is not None and width >= BESIDE_MIN_WIDTH:
        return BESIDE_SPAN / SPAN
    return SPAN / total_height(rows)


def _is_beside(width: float, height: float, rows: int) -> bool:
    """Whether a canvas of this shape is the hand-beside layout: it is far
    wider than tall (about 1.38 against 0.88 for the others)."""
    if not rows or height <= 0:
        return False
    return width / height > (BESIDE_SPAN / SPAN + SPAN / total_height(rows)) / 2


@dataclass(frozen=True)
class Layout:
    """The field's top-left corner and square size, and the hand's place."""

    left: float
    top: float
    s: float
    """A large square, in pixels."""
    hand: str | None
    """``BESIDE``, ``BELOW``, ``STRIP`` or None (no hands)."""
    tray_x: float = 0.0
    tray_y: float = 0.0
    chip: float = 0.0
    """A tray chip's cell, in pixels (the chip is drawn a little inside it)."""
    columns: int = 0
    rows: int = 0
    """The tray's rows (beside: 16, below: 4)."""

    def tray_center(self, index: int) -> tuple[float, float]:
        """The centre of the ``index``-th chip of the tray (beside or below)."""
        return (self.tray_x + (index % self.columns + 0.5) * self.chip,
                self.tray_y + (index // self.columns + 0.5) * self.chip)

    def tray_index(self, x: float, y: float) -> int | None:
        """Which place of the tray is at (x, y), or None."""
        if self.hand not in (BESIDE, BELOW) or x < self.tray_x or y < self.tray_y:
            return None
        col, row = int((x - self.tray_x) // self.chip), int((y - self.tray_y) // self.chip)
        return row * self.columns + col if col < self.columns and row < self.rows else None

    @property
    def label_at(self) -> tuple[float, float]:
        """Where the hand's label starts (left edge, middle of its line)."""
        if self.hand == BESIDE:
            return self.tray_x, self.top - MARGIN * self.s / 2
        return self.tray_x, self.tray_y - TRAY_GAP * self.s / 2

    def strip_box(self, rows: int) -> tuple[float, float, float, float]:
        """(x, y, w, h) of the hand's place under the coordinates: the label row and the tray's rows."""
        return self.left, self.top + (LARGE + MARGIN) * self.s, LARGE * self.s, (TRAY_GAP + rows * TRAY_CHIP) * self.s


def layout(width: float, height: float, rows: int = 0, seen_width: float | None = None) -> Layout:
    """The layout of a drawing of ``width`` x ``height`` CSS pixels, of which
    ``seen_width`` is on screen (less when the board is zoomed in: a phone's
    board zoomed in keeps its strip)."""
    if _is_beside(width, height, rows):
        left, top, s = Grid(BESIDE_SPAN, SPAN, MARGIN, MARGIN).fit(width, height)
        return Layout(left, top, s, BESIDE, left + (LARGE + BESIDE_GAP) * s, top, BESIDE_CHIP * s, BESIDE_COLUMNS,
                      math.ceil(HAND_SIZE / BESIDE_COLUMNS))
    left, top, s = Grid(SPAN, total_height(rows), MARGIN, MARGIN).fit(width, height)
    if not rows:
        return Layout(left, top, s, None)
    hand = STRIP if is_compact(width if seen_width is None else seen_width) else BELOW
    return Layout(left, top, s, hand, left, top + (LARGE + MARGIN + TRAY_GAP) * s, TRAY_CHIP * s, TRAY_COLUMNS,
                  rows)


def geometry(width: float, height: float, rows: int = 0) -> tuple[float, float, float]:
    """(x, y) of the field's top-left corner and a large square's size."""
    found = layout(width, height, rows)
    return found.left, found.top, found.s


def square_center(square: int, width: float, height: float, rows: int = 0) -> tuple[float, float]:
    left, top, s = geometry(width, height, rows)
    col, row = square % LARGE, square // LARGE
    return left + (col + 0.5) * s, top + (LARGE - 1 - row + 0.5) * s


def tray_center(index: int, width: float, height: float, rows: int) -> tuple[float, float]:
    """The centre of the ``index``-th chip of the tray (beside or below the field)."""
    return layout(width, height, rows).tray_center(index)


def strip_center(width: float, height: float, rows: int) -> tuple[float, float]:
    """The centre of a narrow board's strip (a tap opens the sheet)."""
    x, y, w, h = layout(width, height, rows).strip_box(rows)
    return x + w / 2, y + h / 2
