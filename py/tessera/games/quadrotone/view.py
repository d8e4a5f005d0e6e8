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
from .chips import rotate, squares
from .compose import FIELD, HAND, Draft, is_draft, occupied_after
from .compose import tap as tap_draft
from .field import COLUMNS, LARGE
from .notation import PLACE
from .patterns import SIDE
from .rules import SQUARE_OF

MARGIN = 0.9
"""Room for the coordinates, in large squares."""
SPAN = LARGE + 2 * MARGIN
TRAY_COLUMNS = 32
TRAY_ROWS = 4
"""The hand below the field: 32 chips a row at half a large square, room for all 128."""
TRAY_CHIP = 0.5
"""A hand chip's size, in large squares (the field zooms for a closer look)."""
TRAY_GAP = 0.5


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


def tray_rows(game: Any) -> int:
    """Rows below the field for the hand (none in the reverse game: no hands)."""
    return TRAY_ROWS if getattr(game, "options", {}).get("variant", "normal") == "normal" else 0


def total_height(rows: int) -> float:
    return SPAN + (rows * TRAY_CHIP + TRAY_GAP if rows else 0.0)


def geometry(width: float, height: float, rows: int = 0) -> tuple[float, float, float]:
    """(x, y) of the field's top-left corner and a large square's size."""
    s = min(width / SPAN, height / total_height(rows))
    left = (width - SPAN * s) / 2 + MARGIN * s
    top = (height - total_height(rows) * s) / 2 + MARGIN * s
    return left, top, s


def square_center(square: int, width: float, height: float, rows: int = 0) -> tuple[float, float]:
    left, top, s = geometry(width, height, rows)
    col, row = square % LARGE, square // LARGE
    return left + (col + 0.5) * s, top + (LARGE - 1 - row + 0.5) * s


def tray_origin(left: float, top: float, s: float) -> tuple[float, float]:
    return left, top + (LARGE + MARGIN + TRAY_GAP) * s


def hand_order(game: Any, seat: int, grouped: bool = False) -> list[int]:
    """The hand as the tray shows it: by chip, or grouped by how many colours a chip has."""
    chips = sorted(game.hands[seat])
    if grouped:
        chips.sort(key=lambda chip: (len(set(squares(chip))), squares(chip)))
    return chips


def tray_center(index: int, width: float, height: float, rows: int) -> tuple[float, float]:
    left, top, s = geometry(width, height, rows)
    x0, y0 = tray_origin(left, top, s)
    c = TRAY_CHIP * s
    return x0 + (index % TRAY_COLUMNS + 0.5) * c, y0 + (index // TRAY_COLUMNS + 0.5) * c


class QuadrotoneView(BoardView):
    zoomable = True
    """A 16 x 16 field of small squares is dense on a phone: zoom and pan."""

    def __init__(self, palettes: dict[str, Palette] | None = None) -> None:
        self.palettes = palettes or PALETTES

    def palette_for(self, theme: str) -> Palette:
        return self.palettes.get(theme, self.palettes["light"])

    def aspect(self, game: Game) -> float:
        return SPAN / total_height(tray_rows(game))

    @staticmethod
    def geometry(width: float, height: float) -> tuple[float, float, float]:
        return geometry(width, height)

    def cell_at(self, game: Game, state: ViewState, width: float, height: float, x: float, y: float) -> Any:
        """A large square of the field, ``("hand", chip)`` in the tray, or None."""
        rows = tray_rows(game)
        left, top, s = geometry(width, height, rows)
        if left <= x < left + LARGE * s and top <= y < top + LARGE * s:
            return (LARGE - 1 - int((y - top) // s)) * LARGE + int((x - left) // s)
        if rows:
            x0, y0 = tray_origin(left, top, s)
            c = TRAY_CHIP * s
            col, row = int((x - x0) // c), int((y - y0) // c)
            if x >= x0 and y >= y0 and col < TRAY_COLUMNS and row < rows:
                shown = self.tray_chips(game, state)
                index = row * TRAY_COLUMNS + col
                if index < len(shown):
                    return (HAND, shown[index])
        return None

    def point_center(self, game: Game, cell: Any, width: float, height: float, flipped: bool = False) -> Any:
        rows = tray_rows(game)
        if isinstance(cell, tuple):
            shown = self.tray_chips(game, ViewState())
            return tray_center(shown.index(cell[1]) if cell[1] in shown else 0, width, height, rows)
        return square_center(cell, width, height, rows)

    @staticmethod
    def tray_chips(game: Game, state: ViewState) -> list[int]:
        """The hand of the side to move as the tray shows it, without the chips the draft has dropped."""
        draft = state.selected if is_draft(state.selected) else Draft()
        dropped = {item[0] for item in draft.items} if draft.kind == PLACE else set()
        grouped = bool(state.highlights.get("group_hand"))
        return [chip for chip in hand_order(game, game.to_move, grouped) if chip not in dropped]

    def tap(self, game: Game, state: ViewState, cell: Any) -> TapResult:
        """Taps build the draft (``compose``); the draft bar's Play button plays it."""
        draft = state.selected if is_draft(state.selected) else Draft()
        following = tap_draft(game, draft, cell)
        return TapResult(selected=None if following.empty else following)

    @staticmethod
    def selection_valid(game: Game, selected: Any) -> bool:
        return is_draft(selected)

    def draw(self, game: Game, state: ViewState, out: DrawList) -> None:
        p = self.palette_for(state.theme)
        rows = tray_rows(game)
        left, top, s = geometry(out.width, out.height, rows)
        out.rect(0, 0, out.width, out.height, p.board)
        out.rect(left, top, LARGE * s, LARGE * s, p.empty)
        colours = [getattr(p, name) for name in COLOUR_FIELDS]
        field = game.field  # type: ignore[attr-defined]
        half = s / 2
        draft = state.selected if is_draft(state.selected) else None

        def small_xy(x: int, y: int) -> tuple[float, float]:
            return left + x * half, top + (SIDE - 1 - y) * half

        changed = occupied_after(game, draft) if draft is not None else {}
        for index, colour in enumerate(field):
            if colour and SQUARE_OF[index] not in changed:
                x, y = small_xy(index % SIDE, index // SIDE)
                out.rect(x, y, half, half, colours[colour - 1])
                if state.shapes:
                    self._mark(out, MARKS[colour - 1], x + half / 2, y + half / 2, half,
                               p.yellow_mark if colour == 4 else p.mark)
        for square, placed in changed.items():
            if placed is not None:
                col, row = square % LARGE, square // LARGE
                self.draw_chip(out, left + col * s, top + (LARGE - 1 - row) * s, s, rotate(*placed), state, p)
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
        if draft is None:
            self._draw_last(game, state, out, left, top, s, p, small_xy)
        else:
            width = max(2.0, 0.12 * s)
            for square in changed:
                col, row = square % LARGE, square // LARGE
                out.rect_stroke(left + col * s, top + (LARGE - 1 - row) * s, s, s, p.selected, width)
            if draft.held is not None and draft.held[0] == FIELD:
                col, row = draft.held[1] % LARGE, draft.held[1] // LARGE
                out.rect_stroke(left + col * s - width, top + (LARGE - 1 - row) * s - width, s + 2 * width,
                                s + 2 * width, p.last_move, width)
        if rows:
            self._draw_tray(game, state, out, left, top, s, p, draft)
        cursor = state.highlights.get("cursor")
        if state.interactive and isinstance(cursor, int):
            col, row = cursor % LARGE, cursor // LARGE
            out.rect_stroke(left + col * s, top + (LARGE - 1 - row) * s, s, s, p.selected, max(2.0, 0.08 * s))

    def _draw_tray(self, game: Game, state: ViewState, out: DrawList, left: float, top: float, s: float,
                   p: Palette, draft: Draft | None) -> None:
        x0, y0 = tray_origin(left, top, s)
        held = draft.held if draft is not None else None
        c = TRAY_CHIP * s
        gap = 0.08 * c
        for index, chip in enumerate(self.tray_chips(game, state)):
            x, y = x0 + (index % TRAY_COLUMNS) * c, y0 + (index // TRAY_COLUMNS) * c
            turns = held[2] if held is not None and held[0] == HAND and held[1] == chip else 0
            self.draw_chip(out, x + gap, y + gap, c - 2 * gap, rotate(chip, turns), state, p)
            if held is not None and held[0] == HAND and held[1] == chip:
                out.rect_stroke(x, y, c, c, p.last_move, max(2.0, 0.16 * c))

    def draw_chip(self, out: DrawList, x: float, y: float, size: float, look: int, state: ViewState,
                  p: Palette) -> None:
        """A chip's four squares (TL, TR, BR, BL) in a square of ``size`` at (x, y)."""
        half = size / 2
        colours = [getattr(p, name) for name in COLOUR_FIELDS]
        for (dx, dy), colour in zip(((0, 0), (1, 0), (1, 1), (0, 1)), squares(look)):
            out.rect(x + dx * half, y + dy * half, half, half, colours[colour])
            if state.shapes:
                self._mark(out, MARKS[colour], x + (dx + 0.5) * half, y + (dy + 0.5) * half, half,
                           p.yellow_mark if colour == 3 else p.mark)
        out.rect_stroke(x, y, size, size, p.edge, max(0.8, 0.04 * size))

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
            cx, cy = sx + half / 2, sy + half / 2
            label = f"+{scored.points}"   # its points beside its number (copies: already multiplied)
            pill = radius * (0.75 * len(label) + 0.6)
            out.round_rect(cx, cy - radius * 0.8, radius + pill, radius * 1.6, radius * 0.8, p.number_fill)
            out.circle(cx, cy, radius, p.number_fill)
            out.text(cx, cy, str(number), p.number_text, radius * 1.3, ALIGN_CENTER, True)
            out.text(cx + radius + pill / 2, cy, label, p.number_text, radius * 1.1, ALIGN_CENTER, True)

    @staticmethod
    def _mark(out: DrawList, kind: str, x: float, y: float, size: float, colour: str) -> None:
        if kind == "dot":
            out.circle(x, y, size * 0.16, colour)
        elif kind == "bar":
            out.rect(x - size * 0.28, y - size * 0.07, size * 0.56, size * 0.14, colour)
        elif kind == "ring":
            out.circle_stroke(x, y, size * 0.22, colour, max(0.8, size * 0.08))


VIEW = QuadrotoneView
