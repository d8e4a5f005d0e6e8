"""Where the hand is drawn and which chip a tap on it names: the tray, the strip and the sheet.

On a wide board the hand is a tray beside or under the field (``layout``),
each tap naming one chip.  On a phone those chips would be about 11 CSS
pixels: too small for a finger.  So a board narrower than ``COMPACT_WIDTH``
draws a *strip* in the tray's place instead (whose hand, how many chips,
the chip held), and a tap on it opens a *sheet* over the part of the field
on screen that shows the hand as large chips, never under 44 CSS pixels (a
fingertip, ``MIN_SHEET_CHIP``): when they do not all fit, the sheet has
pages, turned by the buttons of its last row (128 chips take three pages on
a 390-pixel phone; as the hand empties they fit on one, up to 56 pixels).
A tap on a chip takes it and closes the sheet; the field is then free for
the square to drop it on.  The canvas keeps its shape, so the field, the
strip and the buttons under the board stay on one phone screen with no
scrolling between hand and field.

The sheet is part of the move being put together: the draft (the board's
selection) holds ``(SHEET,)`` while it is open (with the chip held from the
hand, if any), so Escape, Clear or any move closes it as they drop the
draft.  Everything here is arithmetic on sizes in CSS pixels, tested in
CPython; ``view.py`` draws it.

Why not a taller canvas with fewer, larger tray chips on a phone: the
board's shape comes from ``BoardView.aspect(game)``, which does not know
the width, and a canvas twice as tall would put the hand a scroll away
from the field for every chip.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

from .compose import HAND, Draft, is_draft

COMPACT_WIDTH = 418.0
"""A board narrower than this (CSS pixels) has the strip and the sheet: its
tray chips would be under 11.7 px.  The desktop column is never narrower
than 420 px (``app.css``), so desktop boards keep the tray."""
SHEET = "sheet"
OPEN = (SHEET, "open")
"""The cell of the strip: a tap opens the sheet."""
CLOSE = (SHEET, "close")
"""The sheet's close button, and any tap on the sheet beside a chip."""

PAGE = "page"
"""``(SHEET, PAGE, n)``: a button of the sheet that shows its page ``n`` (from 0)."""

SHEET_PAD = 8.0
SHEET_TITLE = 34.0
"""The sheet's title row (whose chips, and the close button), CSS pixels."""
SHEET_FOOTER = 46.0
"""The row of the page buttons, when the sheet has pages."""
SHEET_MAX_CHIP = 56.0
MIN_SHEET_CHIP = 46.0
"""A chip's place in the sheet is never smaller than a fingertip: fewer a page
instead (the chip drawn in it, ``SHEET_GAP`` inside, is 44 pixels or more)."""
SHEET_GAP = 0.02
"""The margin round a chip in its place, as a part of the place."""


def is_compact(canvas_width: float) -> bool:
    return 0 < canvas_width < COMPACT_WIDTH


def window(state: Any, width: float, height: float) -> tuple[float, float, float, float]:
    """The part of the drawing on screen (x, y, w, h): all of it unless the board is zoomed in."""
    viewport = state.highlights.get("viewport") if state is not None else None
    if viewport is not None and len(viewport) == 4:
        return float(viewport[0]), float(viewport[1]), float(viewport[2]), float(viewport[3])
    return 0.0, 0.0, width, height


def sheet_open(selected: Any) -> bool:
    return is_draft(selected) and selected.held is not None and selected.held[0] == SHEET


def open_sheet(draft: Draft) -> Draft:
    """The draft with the sheet open; a chip held from the hand stays held
    (``(SHEET, chip, turns)``), so a tap on it in the sheet turns it as in the tray."""
    held = draft.held
    return replace(draft, held=(SHEET,) + (tuple(held[1:]) if held is not None and held[0] == HAND else ()))


def close_sheet(draft: Draft) -> Draft:
    """The draft as it was before the sheet opened."""
    if not sheet_open(draft):
        return draft
    held = draft.held
    return replace(draft, held=(HAND,) + tuple(held[1:]) if len(held) == 3 else None, page=0)


def is_page(cell: Any) -> bool:
    """Whether ``cell`` is a page button of the sheet: ``(SHEET, PAGE, n)``."""
    return isinstance(cell, tuple) and len(cell) == 3 and cell[:2] == (SHEET, PAGE) and isinstance(cell[2], int)


def held_in_sheet(draft: Any) -> tuple[int, int] | None:
    """(chip, turns) of the hand's chip held while the sheet is open."""
    return (draft.held[1], draft.held[2]) if sheet_open(draft) and len(draft.held) == 3 else None


@dataclass(frozen=True)
class SheetLayout:
    """The sheet over ``window``: a title row, then ``columns`` chips a row of
    ``chip`` pixels, ``per_page`` of them on each of ``pages`` pages (the page
    buttons in a last row when there is more than one)."""

    x: float
    y: float
    width: float
    height: float
    chip: float
    columns: int
    grid_x: float
    grid_y: float
    per_page: int = 0
    pages: int = 1
    page: int = 0

    @property
    def close_box(self) -> tuple[float, float, float]:
        """Centre and radius of the close button, top left: a zoomed board lays
        its overview over the top right corner."""
        r = SHEET_TITLE * 0.4
        return self.x + SHEET_PAD + r, self.y + SHEET_PAD / 2 + SHEET_TITLE / 2, r

    @property
    def title_x(self) -> float:
        return self.x + 2 * SHEET_PAD + SHEET_TITLE * 0.8

    @property
    def first(self) -> int:
        """The index of the first chip on the page shown."""
        return self.page * self.per_page

    def page_buttons(self) -> tuple[tuple[float, float, float, float], tuple[float, float, float, float]] | None:
        """(x, y, w, h) of the previous and next page buttons, None without pages."""
        if self.pages <= 1:
            return None
        size = SHEET_FOOTER - 4
        y = self.y + self.height - SHEET_PAD / 2 - size
        return ((self.x + SHEET_PAD, y, size * 1.6, size),
                (self.x + self.width - SHEET_PAD - size * 1.6, y, size * 1.6, size))

    def center(self, index: int) -> tuple[float, float]:
        """The centre of chip ``index`` of the hand (on its page)."""
        row, col = divmod(index - self.first, self.columns)
        return self.grid_x + (col + 0.5) * self.chip, self.grid_y + (row + 0.5) * self.chip

    def shown(self, count: int) -> range:
        """The indices of the chips on the page shown."""
        return range(self.first, min(count, self.first + self.per_page))

    def index_at(self, x: float, y: float, count: int) -> int | None:
        """The chip under (x, y), or None."""
        if x < self.grid_x or y < self.grid_y:
            return None
        col, row = int((x - self.grid_x) // self.chip), int((y - self.grid_y) // self.chip)
        if col >= self.columns:
            return None
        index = self.first + row * self.columns + col
        return index if index in self.shown(count) else None

    def hit(self, x: float, y: float, count: int) -> int | tuple[Any, ...] | None:
        """A chip's index, a page button ``(SHEET, PAGE, n)``, ``CLOSE`` elsewhere
        on the sheet, None outside it.  A page button past either end names
        the page shown (greyed out, it does nothing)."""
        if not (self.x <= x < self.x + self.width and self.y <= y < self.y + self.height):
            return None
        buttons = self.page_buttons()
        if buttons is not None:
            for (bx, by, bw, bh), target in zip(buttons, (self.page - 1, self.page + 1)):
                if bx <= x < bx + bw and by <= y < by + bh:
                    return SHEET, PAGE, target if 0 <= target < self.pages else self.page
        index = self.index_at(x, y, count)
        return CLOSE if index is None else index


def sheet_layout(area: tuple[float, float, float, float], count: int, page: int = 0) -> SheetLayout:
    """The largest chips that fit ``count`` of them in ``area`` under the title
    row, or, when they would be under ``MIN_SHEET_CHIP``, pages of chips of at
    least that size; ``page`` is the page shown (kept in range)."""
    x, y, width, height = area
    inner_w = max(1.0, width - 2 * SHEET_PAD)
    inner_h = max(1.0, height - SHEET_TITLE - 2 * SHEET_PAD)
    count = max(1, count)
    best, best_columns = 0.0, 1
    for columns in range(1, count + 1):
        size = min(inner_w / columns, inner_h / math.ceil(count / columns))
        if size > best:
            best, best_columns = size, columns
    if best >= MIN_SHEET_CHIP:
        chip = min(best, SHEET_MAX_CHIP)
        rows = math.ceil(count / best_columns)
        grid_x = x + (width - best_columns * chip) / 2
        grid_y = y + SHEET_PAD + SHEET_TITLE + max(0.0, (inner_h - rows * chip) / 2) * 0.25
        return SheetLayout(x, y, width, height, chip, best_columns, grid_x, grid_y, count, 1, 0)
    paged_h = max(1.0, inner_h - SHEET_FOOTER)
    columns = max(1, int(inner_w // MIN_SHEET_CHIP))
    rows = max(1, int(paged_h // MIN_SHEET_CHIP))
    chip = min(inner_w / columns, paged_h / rows, SHEET_MAX_CHIP)
    per_page = columns * rows
    pages = math.ceil(count / per_page)
    grid_x = x + (width - columns * chip) / 2
    grid_y = y + SHEET_PAD + SHEET_TITLE
    return SheetLayout(x, y, width, height, chip, columns, grid_x, grid_y, per_page, pages,
                       min(max(0, page), pages - 1))
