"""Drawing the Quadrotone field: 16 x 16 large squares of 2 x 2 small squares.

A first step of the issue's app part: the field, the chips in four colours
(with a mark per colour under the "shapes" option, for colour-blind
players), the last move's chips outlined, and what the last move scored --
each pattern outlined with its number (1, 2, 3 ... as the rules ask), the
chains and the fenced places tinted.  Taps name a large square; composing a
move (the hand, turning, several chips, the preview of its score) is the
next step.  Like every view it draws into a ``DrawList`` only, so the page,
the rules page and ``python3 -m tessera render`` share it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...core.contrast import GRAPHICS, TEXT
from ...core.draw import ALIGN_CENTER, DrawList
from ...core.game import Game
from ...core.view import BoardView, TapResult, ViewState
from .field import COLUMNS, LARGE
from .patterns import SIDE

MARGIN = 0.9
"""Room for the coordinates, in large squares."""
SPAN = LARGE + 2 * MARGIN


@dataclass(frozen=True)
class Palette:
    """Colours; every mark reaches 3:1 against what it sits on (``CONTRAST_PAIRS``)."""

    board: str = "#f4f1ea"
    empty: str = "#ffffff"
    edge: str = "#4a4f57"
    inner: str = "#c3c7cc"
    label: str = "#3b4048"
    red: str = "#d23c32"
    green: str = "#1f8a4c"
    blue: str = "#2762d9"
    yellow: str = "#f0b400"
    mark: str = "#ffffff"
    yellow_mark: str = "#3b2a00"
    last_move: str = "#7a2bb8"
    scored: str = "#111111"
    number_fill: str = "#111111"
    number_text: str = "#ffffff"
    chain_tint: str = "rgba(255, 255, 255, 0.45)"
    fence_tint: str = "rgba(122, 43, 184, 0.28)"
    selected: str = "#0b57d0"


LIGHT = Palette()
DARK = Palette(board="#23262b", empty="#30343a", edge="#9aa3ad", inner="#4a5058", label="#d4d8de",
               red="#ff6b5e", green="#4cc47f", blue="#6f9bff", yellow="#ffd24d", mark="#1b1b1b",
               yellow_mark="#3b2a00", last_move="#d7a6ff", scored="#ffffff", number_fill="#ffffff",
               number_text="#111111", chain_tint="rgba(0, 0, 0, 0.35)", fence_tint="rgba(215, 166, 255, 0.3)",
               selected="#8ab4ff")
PALETTES = {"light": LIGHT, "dark": DARK}
CONTRAST_PAIRS: tuple[tuple[tuple[str, ...], tuple[str, ...], float], ...] = (
    (("edge",), ("empty",), GRAPHICS),
    (("label",), ("board",), TEXT),
    (("red", "green", "blue"), ("empty",), GRAPHICS),
    (("mark",), ("red", "green", "blue"), GRAPHICS),
    (("yellow_mark",), ("yellow",), GRAPHICS),
    (("last_move",), ("empty",), GRAPHICS),
    (("number_text",), ("number_fill",), TEXT),
    (("selected",), ("empty",), GRAPHICS),
)
COLOUR_FIELDS = ("red", "green", "blue", "yellow")
MARKS = ("dot", "bar", "ring", "none")
"""The colour-blind marks of R, G, B, Y (drawn under the "shapes" option)."""


def geometry(width: float, height: float) -> tuple[float, float, float]:
    """(x, y) of the field's top-left corner and a large square's size."""
    s = min(width, height) / SPAN
    left = (width - SPAN * s) / 2 + MARGIN * s
    top = (height - SPAN * s) / 2 + MARGIN * s
    return left, top, s


def square_center(square: int, width: float, height: float) -> tuple[float, float]:
    left, top, s = geometry(width, height)
    col, row = square % LARGE, square // LARGE
    return left + (col + 0.5) * s, top + (LARGE - 1 - row + 0.5) * s


class QuadrotoneView(BoardView):
    zoomable = True
    """A 16 x 16 field of small squares is dense on a phone: zoom and pan."""

    def __init__(self, palettes: dict[str, Palette] | None = None) -> None:
        self.palettes = palettes or PALETTES

    def palette_for(self, theme: str) -> Palette:
        return self.palettes.get(theme, self.palettes["light"])

    @staticmethod
    def geometry(width: float, height: float) -> tuple[float, float, float]:
        return geometry(width, height)

    def cell_at(self, game: Game, state: ViewState, width: float, height: float, x: float, y: float) -> Any:
        left, top, s = geometry(width, height)
        col, row_from_top = int((x - left) // s), int((y - top) // s)
        if not (0 <= col < LARGE and 0 <= row_from_top < LARGE) or x < left or y < top:
            return None
        return (LARGE - 1 - row_from_top) * LARGE + col

    def point_center(self, game: Game, cell: Any, width: float, height: float, flipped: bool = False) -> Any:
        return square_center(cell, width, height)

    def tap(self, game: Game, state: ViewState, cell: Any) -> TapResult:
        """A square is picked or unpicked; moves are composed in the next step of the issue."""
        return TapResult(selected=None if state.selected == cell else cell)

    def draw(self, game: Game, state: ViewState, out: DrawList) -> None:
        p = self.palette_for(state.theme)
        left, top, s = geometry(out.width, out.height)
        out.rect(left - MARGIN * s, top - MARGIN * s, SPAN * s, SPAN * s, p.board)
        out.rect(left, top, LARGE * s, LARGE * s, p.empty)
        colours = [getattr(p, name) for name in COLOUR_FIELDS]
        field = game.field  # type: ignore[attr-defined]
        half = s / 2

        def small_xy(x: int, y: int) -> tuple[float, float]:
            return left + x * half, top + (SIDE - 1 - y) * half

        for index, colour in enumerate(field):
            if colour:
                x, y = small_xy(index % SIDE, index // SIDE)
                out.rect(x, y, half, half, colours[colour - 1])
                if state.shapes:
                    self._mark(out, MARKS[colour - 1], x + half / 2, y + half / 2, half,
                               p.yellow_mark if colour == 4 else p.mark)
        thin, thick = max(0.5, 0.02 * s), max(1.0, 0.06 * s)
        for i in range(1, 2 * LARGE):
            if i % 2:
                out.line(left + i * half, top, left + i * half, top + LARGE * s, p.inner, thin)
                out.line(left, top + i * half, left + LARGE * s, top + i * half, p.inner, thin)
        for i in range(LARGE + 1):
            out.line(left + i * s, top, left + i * s, top + LARGE * s, p.edge, thick)
            out.line(left, top + i * s, left + LARGE * s, top + i * s, p.edge, thick)
        if state.coordinates:
            font = max(6.0, 0.42 * s)
            for i in range(LARGE):
                out.text(left + (i + 0.5) * s, top + (LARGE + MARGIN / 2) * s, COLUMNS[i], p.label, font, ALIGN_CENTER)
                out.text(left - MARGIN * s / 2, top + (LARGE - 1 - i + 0.5) * s, str(i + 1), p.label, font, ALIGN_CENTER)
        self._draw_last(game, state, out, left, top, s, p, small_xy)
        if state.selected is not None and isinstance(state.selected, int):
            col, row = state.selected % LARGE, state.selected // LARGE
            out.rect_stroke(left + col * s, top + (LARGE - 1 - row) * s, s, s, p.selected, max(2.0, 0.12 * s))

    def _draw_last(self, game: Game, state: ViewState, out: DrawList, left: float, top: float, s: float,
                   p: Palette, small_xy: Any) -> None:
        if not state.highlights.get("show_last", True) or not game.move_stack:
            return
        half = s / 2
        chains, fence = getattr(game, "last_regions", ([], None))
        if fence is not None and fence.points:
            for index in fence.cells:
                x, y = small_xy(index % SIDE, index // SIDE)
                out.rect(x, y, half, half, p.fence_tint)
        for chain in chains:
            for index in chain.cells:
                x, y = small_xy(index % SIDE, index // SIDE)
                out.rect(x + half * 0.3, y + half * 0.3, half * 0.4, half * 0.4, p.chain_tint)
        for square in getattr(game, "last_squares", ()):
            col, row = square % LARGE, square // LARGE
            out.rect_stroke(left + col * s, top + (LARGE - 1 - row) * s, s, s, p.last_move, max(2.0, 0.1 * s))
        labelled: set[tuple[int, int]] = set()
        for number, scored in enumerate(getattr(game, "last_scored", ()), 1):
            cells = scored.occurrence.cells()
            for x, y in cells:   # each square's outer sides: the pattern's outline
                sx, sy = small_xy(x, y)
                for dx, dy, x1, y1, x2, y2 in ((0, 1, 0, 0, 1, 0), (0, -1, 0, 1, 1, 1),
                                               (-1, 0, 0, 0, 0, 1), (1, 0, 1, 0, 1, 1)):
                    if (x + dx, y + dy) not in cells:
                        out.line(sx + x1 * half, sy + y1 * half, sx + x2 * half, sy + y2 * half, p.scored,
                                 max(1.5, 0.08 * s))
            # The top-left free square carries the number (overlapping patterns: the next one).
            order = sorted(cells, key=lambda c: (-c[1], c[0]))
            x, y = next((c for c in order if c not in labelled), order[0])
            labelled.add((x, y))
            sx, sy = small_xy(x, y)
            radius = max(5.0, 0.3 * s)
            out.circle(sx + half / 2, sy + half / 2, radius, p.number_fill)
            out.text(sx + half / 2, sy + half / 2, str(number), p.number_text, radius * 1.3, ALIGN_CENTER, True)

    @staticmethod
    def _mark(out: DrawList, kind: str, x: float, y: float, size: float, colour: str) -> None:
        if kind == "dot":
            out.circle(x, y, size * 0.16, colour)
        elif kind == "bar":
            out.rect(x - size * 0.28, y - size * 0.07, size * 0.56, size * 0.14, colour)
        elif kind == "ring":
            out.circle_stroke(x, y, size * 0.22, colour, max(0.8, size * 0.08))


VIEW = QuadrotoneView
