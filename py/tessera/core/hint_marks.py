"""How every board marks a suggested move: the Hint button's, or the best
move a review found (``ViewState.highlights["hint"]``).

One look for all games, as lichess draws its engine's move: a green arrow
from where a piece goes to where it lands, a green ring round a point to
play or a chip to pick, a green outline round a region.  The green differs
from every game's own marks (last move, selection, threats, captures) and
reaches 3:1 against the light and the dark boards alike.
"""

from __future__ import annotations

import math

from .draw import DrawList

HINT_COLOURS = {"light": "rgba(16, 128, 58, 0.82)", "dark": "rgba(104, 222, 146, 0.86)"}


def hint_colour(theme: str) -> str:
    return HINT_COLOURS.get(theme, HINT_COLOURS["light"])


def arrow(out: DrawList, x1: float, y1: float, x2: float, y2: float, width: float, colour: str,
          shorten: float = 0.0) -> None:
    """A filled arrow from (x1, y1) to (x2, y2), its tip ``shorten`` short of the end."""
    dx, dy = x2 - x1, y2 - y1
    length = math.hypot(dx, dy)
    if length < 1e-6:
        return
    ux, uy = dx / length, dy / length
    tip = max(0.0, length - shorten)
    head = min(tip * 0.6, width * 2.6)
    half = width / 2
    wing = width * 1.45
    nx, ny = -uy, ux
    neck = tip - head
    points = [(x1 + nx * half, y1 + ny * half),
              (x1 + ux * neck + nx * half, y1 + uy * neck + ny * half),
              (x1 + ux * neck + nx * wing, y1 + uy * neck + ny * wing),
              (x1 + ux * tip, y1 + uy * tip),
              (x1 + ux * neck - nx * wing, y1 + uy * neck - ny * wing),
              (x1 + ux * neck - nx * half, y1 + uy * neck - ny * half),
              (x1 - nx * half, y1 - ny * half)]
    out.polygon(points, colour)


def ring(out: DrawList, x: float, y: float, radius: float, width: float, colour: str) -> None:
    """A ring round a point or a piece to play."""
    out.circle_stroke(x, y, radius, colour, width)
