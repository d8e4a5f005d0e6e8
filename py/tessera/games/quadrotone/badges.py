"""Where the last move's score badges go: near what they score, never on it.

The rules ask for every pattern a move scores to be shown with its number
(2.11); the board adds its points.  A badge laid on the pattern's own chips
hides the colours the player wants to see, so a badge is placed around the
squares it labels, ring after ring outwards, on the first spot that covers
no chip of a scored pattern or of the move itself and no other badge.
When no spot is free within reach, the badge shows its number alone, and
failing that is left out (the outline still shows the pattern; the panel
and the move list give the points).

Pure arithmetic on CSS pixels, tested in CPython; ``view`` draws the badges.
"""

from __future__ import annotations

from typing import Iterable, Iterator

from .field import LARGE

Cell = tuple[int, int]
Badge = tuple[str | None, str, list[Cell]]
"""(number or None, "+points", the small squares it labels)."""
Placement = tuple[float, float, str | None, str | None]
"""(x, y) of the badge's anchor, and its number and points (either None when left out)."""
RINGS = 6
"""How far from its squares a badge may go: this many half squares."""


def badge_box(number: str | None, points: str | None, radius: float) -> tuple[float, float, float]:
    """(width, height, anchor's distance from the left edge) of a badge as
    ``QuadrotoneView._label`` draws it: a circled number, then a pill with the points."""
    if points is None:
        return 2 * radius, 2 * radius, radius
    pill = radius * (0.75 * len(points) + 0.6)
    if number is None:
        return pill + 0.8 * radius, 1.6 * radius, 0.8 * radius
    return 2 * radius + pill, 2 * radius, radius


class BadgePlacer:
    """Places badges one after another on a field at (``left``, ``top``) with
    large squares of ``s`` pixels; ``blocked``: the large squares no badge may cover."""

    def __init__(self, left: float, top: float, s: float, blocked: Iterable[int], radius: float) -> None:
        self.left, self.top, self.s, self.radius = left, top, s, radius
        self.blocked = set(blocked)
        reach = 0.45 * s   # a badge may reach into the coordinates' margin, not into the hand
        self.bounds = (left - reach, top - reach, left + LARGE * s + reach, top + LARGE * s + reach)
        self.taken: list[tuple[float, float, float, float]] = []

    def place(self, badge: Badge) -> Placement | None:
        number, points, cells = badge
        box = self._cells_box(cells)
        for wanted in ((number, points), (number, None)):
            if wanted[0] is None and wanted[1] is None:
                continue
            width, height, anchor = badge_box(wanted[0], wanted[1], self.radius)
            for x0, y0 in self._spots(box, width, height):
                rect = (x0, y0, x0 + width, y0 + height)
                if self._free(rect):
                    self.taken.append(rect)
                    return x0 + anchor, y0 + height / 2, wanted[0], wanted[1]
        return None

    def _cells_box(self, cells: list[Cell]) -> tuple[float, float, float, float]:
        half = self.s / 2
        xs = [self.left + x * half for x, _ in cells]
        ys = [self.top + (2 * LARGE - 1 - y) * half for _, y in cells]
        return min(xs), min(ys), max(xs) + half, max(ys) + half

    def _spots(self, box: tuple[float, float, float, float], width: float, height: float) -> Iterator[tuple[float, float]]:
        """Top-left corners to try: above the squares, right of them, below, left; then a ring further out."""
        bx0, by0, bx1, by1 = box
        step = self.s / 2
        gap = max(1.0, 0.04 * self.s)
        for ring in range(RINGS):
            e = ring * step + gap
            xs = _steps(bx0 - e - width / 2 + step / 2, bx1 + e - width / 2, step)
            ys = _steps(by0 - e - height / 2 + step / 2, by1 + e - height / 2, step)
            for x in xs:
                yield x, by0 - e - height
            for y in ys:
                yield bx1 + e, y
            for x in xs:
                yield x, by1 + e
            for y in ys:
                yield bx0 - e - width, y

    def _free(self, rect: tuple[float, float, float, float]) -> bool:
        x0, y0, x1, y1 = rect
        bx0, by0, bx1, by1 = self.bounds
        if x0 < bx0 or y0 < by0 or x1 > bx1 or y1 > by1:
            return False
        if any(not (x1 <= o[0] or o[2] <= x0 or y1 <= o[1] or o[3] <= y0) for o in self.taken):
            return False
        s, eps = self.s, 0.5
        first_col, last_col = int((x0 + eps - self.left) // s), int((x1 - eps - self.left) // s)
        first_row, last_row = int((y0 + eps - self.top) // s), int((y1 - eps - self.top) // s)
        for screen_row in range(max(0, first_row), min(LARGE - 1, last_row) + 1):
            for col in range(max(0, first_col), min(LARGE - 1, last_col) + 1):
                if (LARGE - 1 - screen_row) * LARGE + col in self.blocked:
                    return False
        return True


def _steps(start: float, end: float, step: float) -> list[float]:
    """From ``start`` to ``end`` by ``step``, the middle first (a badge best sits centred on what it labels)."""
    values = [start]
    while values[-1] + step <= end + 1e-9:
        values.append(values[-1] + step)
    middle = (start + values[-1]) / 2
    return sorted(values, key=lambda value: abs(value - middle))


def place_badges(badges: list[Badge], left: float, top: float, s: float, blocked: Iterable[int],
                 radius: float) -> list[Placement | None]:
    """Each badge's placement, in order (earlier badges get the nearer spots)."""
    placer = BadgePlacer(left, top, s, blocked, radius)
    return [placer.place(badge) for badge in badges]
