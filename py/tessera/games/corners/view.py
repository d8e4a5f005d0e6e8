"""How a Corners board looks and how taps on it become moves.

An 8x8 board of cells; circles and triangles stand in them.  An unpainted
piece is an outline (a ring, a hollow triangle), a painted one is solid
with a light mark inside, so painted pieces are told apart by form, not by
colour alone; the two sides differ in shape and colour.

A capture is chosen by its corners.  Tapping an own piece that is a
corner of some capture starts a pick (``Pick``); each further corner
narrows the rectangles still possible, all of them drawn as outlines
(tilted ones tilted).  Two opposite corners usually leave one: the board
then previews it (the corners to be painted ringed, the cells to be filled
with ghost pieces) and a tap on any of its corners captures.  A tap on an
empty cell with no pick places a piece; anything else clears the pick.
The adapter's buttons and keys step through every capture the side has,
one previewed at a time (a pick of its four corners).

``ViewState.highlights`` keys: ``cursor`` (keyboard cursor cell),
``preview`` (a capture move to preview, rules diagrams), ``hint`` (a
suggested move), ``faded``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...core.animation import Timeline
from ...core.contrast import GRAPHICS, TEXT
from ...core.draw import ALIGN_CENTER, DrawList
from ...core.hint_marks import hint_colour
from ...core.hint_marks import ring as hint_ring
from ...core.game import Game
from ...core.grid import Grid
from ...core.view import BoardView, TapResult, ViewState
from .animation import growth, move_timeline, outline_of, paint_share, pulse
from .geometry import CAPTURE_BASE, CELLS, COLUMNS, PASS, RECTANGLES, SIZE
from .rules import CIRCLES

MARGIN = 0.62
"""Board margin around the cells, in cells; the coordinates sit in it."""
SPAN = SIZE + 2 * MARGIN


@dataclass(frozen=True)
class Pick:
    """The corners picked so far for a capture (cell indices, in tap order)."""

    cells: tuple[int, ...]


@dataclass(frozen=True)
class Palette:
    """Colours; every mark reaches 3:1 against what it sits on (``CONTRAST_PAIRS``)."""

    board: str = "#efe6d2"
    board_edge: str = "#8a7350"
    cell_dark: str = "#e2d4b6"
    grid: str = "#7d6a4a"
    label: str = "#4e3f25"
    circle: str = "#1d4f91"
    circle_mark: str = "#ffffff"
    triangle: str = "#a3301c"
    triangle_mark: str = "#ffffff"
    piece_inner: str = "#fbf8f1"
    last_move: str = "#3f6b00"
    outline: str = "#6b3fa0"
    candidate: str = "rgba(107, 63, 160, 0.55)"
    preview_fill: str = "rgba(107, 63, 160, 0.14)"
    picked: str = "#0f6a3a"
    cursor: str = "#0b57d0"


LIGHT = Palette()
DARK = Palette(board="#2b2824", board_edge="#6f6352", cell_dark="#35312b", grid="#9c8f78", label="#d9ccb2",
               circle="#7fb0ff", circle_mark="#10233f", triangle="#ff8a70", triangle_mark="#3a0d05",
               piece_inner="#2b2824", last_move="#a8d85a", outline="#c9a2ff",
               candidate="rgba(201, 162, 255, 0.6)", preview_fill="rgba(201, 162, 255, 0.16)",
               picked="#6fd49a", cursor="#8ab4ff")
PALETTES = {"light": LIGHT, "dark": DARK}
CONTRAST_PAIRS: tuple[tuple[tuple[str, ...], tuple[str, ...], float], ...] = (
    (("grid",), ("board",), GRAPHICS),
    (("grid",), ("cell_dark",), GRAPHICS),
    (("label",), ("board",), TEXT),
    (("circle",), ("board",), GRAPHICS),
    (("circle",), ("cell_dark",), GRAPHICS),
    (("triangle",), ("board",), GRAPHICS),
    (("triangle",), ("cell_dark",), GRAPHICS),
    (("circle_mark",), ("circle",), GRAPHICS),
    (("triangle_mark",), ("triangle",), GRAPHICS),
    (("last_move",), ("board",), GRAPHICS),
    (("last_move",), ("cell_dark",), GRAPHICS),
    (("outline",), ("board",), GRAPHICS),
    (("outline",), ("cell_dark",), GRAPHICS),
    (("picked",), ("board",), GRAPHICS),
    (("cursor",), ("board",), GRAPHICS),
)


GRID = Grid(SPAN, SPAN, MARGIN, MARGIN)
"""The board in cells (``core.grid``)."""


def geometry(width: float, height: float) -> tuple[float, float, float]:
    """(x, y) of the top-left cell's corner and the cell size."""
    return GRID.fit(width, height)


def _screen(cell: int, flipped: bool) -> tuple[int, int]:
    col, row = cell % SIZE, cell // SIZE
    return (SIZE - 1 - col, row) if flipped else (col, SIZE - 1 - row)


def _cell_from_screen(x: int, y: int, flipped: bool) -> int:
    return (y * SIZE + SIZE - 1 - x) if flipped else ((SIZE - 1 - y) * SIZE + x)


def cell_center(cell: int, width: float, height: float, flipped: bool = False) -> tuple[float, float]:
    left, top, s = geometry(width, height)
    x, y = _screen(cell, flipped)
    return left + (x + 0.5) * s, top + (y + 0.5) * s


def candidates(game: Game, picked: tuple[int, ...]) -> list[int]:
    """Rectangle indices the side to move may capture that use every picked cell."""
    need = 0
    for cell in picked:
        need |= 1 << cell
    final = game.final_left is not None  # type: ignore[attr-defined]
    return [index for index in game.captures(painting_only=final)  # type: ignore[attr-defined]
            if RECTANGLES[index].corner_mask & need == need]


def previewed_capture(game: Game, picked: tuple[int, ...]) -> int | None:
    """The rectangle the board previews: the only one that fits two or more
    picked corners (a tap on any of its corners captures), else None."""
    if len(picked) < 2:
        return None
    fitting = candidates(game, picked)
    return fitting[0] if len(fitting) == 1 else None


class CornersView(BoardView):
    keys_hint = "board.keys.corners"
    confirm_moves = True
    """On touch, a placement waits for a second tap (``confirm-touch``)."""

    def __init__(self, palettes: dict[str, Palette] | None = None) -> None:
        self.palettes = dict(PALETTES if palettes is None else palettes)

    def palette_for(self, theme: str) -> Palette:
        return self.palettes.get(theme) or LIGHT

    # ----- geometry ---------------------------------------------------------------
    @staticmethod
    def geometry(width: float, height: float) -> tuple[float, float, float]:
        return geometry(width, height)

    def cell_at(self, game: Game, state: ViewState, width: float, height: float,
                x: float, y: float) -> int | None:
        found = GRID.cell_at(width, height, x, y, SIZE, SIZE)
        return None if found is None else _cell_from_screen(found[0], found[1], state.flipped)

    def point_center(self, game: Game, cell: int, width: float, height: float,
                     flipped: bool = False) -> tuple[float, float]:
        return cell_center(cell, width, height, flipped)

    @staticmethod
    def step_cell(cell: int, dx: int, dy: int, flipped: bool = False) -> int:
        x, y = _screen(cell, flipped)
        return _cell_from_screen(min(SIZE - 1, max(0, x + dx)), min(SIZE - 1, max(0, y + dy)), flipped)

    @staticmethod
    def initial_cursor(game: Game, state: ViewState) -> int:
        last = game.move_stack[-1] if game.move_stack else None
        if isinstance(last, int) and 0 <= last < CELLS:
            return last
        return 3 * SIZE + 3   # d4

    @staticmethod
    def selection_cursor(selected: Any) -> int | None:
        """Where the keyboard cursor starts while a pick is open: its last corner."""
        return selected.cells[-1] if isinstance(selected, Pick) and selected.cells else None

    @staticmethod
    def selection_valid(game: Game, selected: Any) -> bool:
        return isinstance(selected, Pick) and not game.is_over() and bool(candidates(game, selected.cells))

    @staticmethod
    def move_cell(game: Game, move: Any) -> int | None:
        """The cell a move is announced at (a placement's; a capture's first corner)."""
        if isinstance(move, int) and 0 <= move < CELLS:
            return move
        if isinstance(move, int) and CAPTURE_BASE <= move < PASS:
            return RECTANGLES[move - CAPTURE_BASE].corners[0]
        return None

    # ----- taps -------------------------------------------------------------------
    def tap(self, game: Game, state: ViewState, cell: Any) -> TapResult:
        """A placement on an empty cell; a capture picked by its corners: two
        opposite corners are usually enough (one rectangle fits, the board
        previews it), a third narrows when more fit, and a tap on any corner of
        the rectangle previewed captures.  ``CornersUI`` offers the same
        captures one by one from the keyboard and buttons."""
        if not state.interactive or game.is_over() or cell is None:
            return TapResult(selected=None)
        picked = state.selected.cells if isinstance(state.selected, Pick) else ()
        piece = game.piece_at(cell)  # type: ignore[attr-defined]
        if piece is None:
            if not picked and game.final_left is None:  # type: ignore[attr-defined]
                return TapResult(selected=None, move=cell)
            return TapResult(selected=None)
        if piece[0] != game.to_move:
            return TapResult(selected=None)
        previewed = previewed_capture(game, picked)
        if previewed is not None and cell in RECTANGLES[previewed].corners:
            return TapResult(selected=None, move=CAPTURE_BASE + previewed)
        if cell in picked:
            rest = tuple(c for c in picked if c != cell)
            return TapResult(selected=Pick(rest) if rest else None)
        wanted = picked + (cell,)
        if not candidates(game, wanted):
            return TapResult(selected=Pick((cell,)) if candidates(game, (cell,)) else None)
        return TapResult(selected=Pick(wanted))

    # ----- drawing ----------------------------------------------------------------
    def draw(self, game: Game, state: ViewState, out: DrawList) -> None:
        p = self.palette_for(state.theme)
        width, height = out.width, out.height
        if min(width, height) < 2 * SPAN:
            return
        left, top, s = geometry(width, height)
        flipped = state.flipped
        pad = MARGIN * s

        def center(cell: int) -> tuple[float, float]:
            x, y = _screen(cell, flipped)
            return left + (x + 0.5) * s, top + (y + 0.5) * s

        out.round_rect(left - pad, top - pad, SPAN * s, SPAN * s, 0.2 * s, p.board_edge)
        rim = 0.06 * s
        out.round_rect(left - pad + rim, top - pad + rim, SPAN * s - 2 * rim, SPAN * s - 2 * rim, 0.16 * s, p.board)
        for cell in range(CELLS):
            x, y = _screen(cell, flipped)
            if (x + y) % 2:
                out.rect(left + x * s, top + y * s, s, s, p.cell_dark)
        grid = max(0.75, 0.025 * s)
        for i in range(SIZE + 1):
            out.line(left, top + i * s, left + SIZE * s, top + i * s, p.grid, grid)
            out.line(left + i * s, top, left + i * s, top + SIZE * s, p.grid, grid)
        if state.coordinates:
            font = max(7.0, 0.3 * s)
            for i in range(SIZE):
                column = COLUMNS[SIZE - 1 - i] if flipped else COLUMNS[i]
                out.text(left + (i + 0.5) * s, top + SIZE * s + pad * 0.5, column, p.label, font, ALIGN_CENTER)
                row = i + 1 if flipped else SIZE - i
                out.text(left - pad * 0.5, top + (i + 0.5) * s, str(row), p.label, font, ALIGN_CENTER)

        last = state.last_move if state.highlights.get("show_last", True) else None
        last_cells: tuple[int, ...] = ()
        if isinstance(last, int) and 0 <= last < CELLS:
            last_cells = (last,)
        elif isinstance(last, int) and CAPTURE_BASE <= last < PASS:
            last_cells = RECTANGLES[last - CAPTURE_BASE].corners
            self._outline(out, RECTANGLES[last - CAPTURE_BASE].corners, center, p.last_move, max(1.5, 0.06 * s))
        for cell in last_cells:
            x, y = center(cell)
            half = 0.46 * s
            out.rect_stroke(x - half, y - half, 2 * half, 2 * half, p.last_move, max(1.5, 0.07 * s))

        picked = state.selected.cells if isinstance(state.selected, Pick) else ()
        preview: int | None = state.highlights.get("preview")
        if state.interactive and not game.is_over():
            shown: list[int] = []
            if picked:
                shown = candidates(game, picked)
                single = previewed_capture(game, picked)
                if single is not None:
                    preview = CAPTURE_BASE + single
            for index in shown:
                self._outline(out, RECTANGLES[index].corners, center, p.candidate, max(1.0, 0.035 * s))

        faded = set(state.highlights.get("faded", ()))
        radius = 0.34 * s
        motion = state.highlights.get("animation")   # a move animating (animation.py)
        capturing = outline_of(motion)
        if capturing is not None:
            self._outline(out, RECTANGLES[capturing].corners, center, p.outline, max(2.0, 0.08 * s))
        for cell in range(CELLS):
            piece = game.piece_at(cell)  # type: ignore[attr-defined]
            if piece is None:
                continue
            x, y = center(cell)
            size = growth(motion, cell)
            if size is not None:
                if size > 0:
                    self.draw_piece(out, x, y, piece[0], piece[1], radius * size, s, p)
                continue
            paint = paint_share(motion, cell)
            if paint is not None:   # a corner turning painted: the paint spreads over the outline
                self.draw_piece(out, x, y, piece[0], False, radius, s, p)
                if paint > 0:
                    self.draw_piece(out, x, y, piece[0], True, radius * min(1.0, paint), s, p)
                continue
            self.draw_piece(out, x, y, piece[0], piece[1], radius, s, p, quiet=cell in faded)
        ring = pulse(motion)
        if ring is not None:
            x, y = center(ring[0])
            out.circle_stroke(x, y, radius + ring[1] * 0.5 * s, p.outline, max(1.5, 0.05 * s * (1.2 - ring[1])))

        if isinstance(preview, int) and CAPTURE_BASE <= preview < PASS:
            rect = RECTANGLES[preview - CAPTURE_BASE]
            points = [center(c) for c in rect.corners]
            out.polygon(points, p.preview_fill)
            self._outline(out, rect.corners, center, p.outline, max(2.0, 0.08 * s))
            side = game.to_move
            empty = game.empty  # type: ignore[attr-defined]
            for cell in range(CELLS):
                if rect.inside_mask >> cell & 1 and empty >> cell & 1:
                    x, y = center(cell)
                    self.draw_ghost(out, x, y, side, radius * 0.75, s, p)
            for cell in rect.corners:
                x, y = center(cell)
                out.circle_stroke(x, y, radius + 0.09 * s, p.outline, max(1.5, 0.06 * s))

        for cell in picked:
            x, y = center(cell)
            out.circle_stroke(x, y, radius + 0.12 * s, p.picked, max(2.0, 0.07 * s))

        hint = state.highlights.get("hint")   # a suggested move: its cell ringed, or its rectangle outlined
        if isinstance(hint, int) and not isinstance(hint, bool) and game.is_legal(hint):
            colour = hint_colour(state.theme)
            if 0 <= hint < CELLS:
                x, y = center(hint)
                hint_ring(out, x, y, radius + 0.1 * s, max(2.5, 0.1 * s), colour)
            elif CAPTURE_BASE <= hint < PASS:
                self._outline(out, RECTANGLES[hint - CAPTURE_BASE].corners, center, colour, max(3.0, 0.12 * s))
                for cell in RECTANGLES[hint - CAPTURE_BASE].corners:
                    x, y = center(cell)
                    hint_ring(out, x, y, radius + 0.1 * s, max(2.5, 0.1 * s), colour)

        cursor = state.highlights.get("cursor")
        if isinstance(cursor, int):
            x, y = center(cursor)
            out.rect_stroke(x - 0.45 * s, y - 0.45 * s, 0.9 * s, 0.9 * s, p.cursor, max(1.5, 0.07 * s))

    @staticmethod
    def move_animation(game: Game, move: Any, emphasis: bool = False) -> Timeline:
        """How ``move`` (just played on ``game``) animates (``core/animation.py``)."""
        return move_timeline(game, move, emphasis)

    @staticmethod
    def _outline(out: DrawList, corners: tuple[int, ...], center: Any, colour: str, width: float) -> None:
        points = [center(c) for c in corners]
        out.polyline(points + [points[0]], colour, width)

    @staticmethod
    def draw_ghost(out: DrawList, x: float, y: float, side: int, radius: float, s: float, p: Palette) -> None:
        """A piece a capture would add: the side's shape in the preview colour."""
        stroke = max(1.5, 0.06 * s)
        if side == CIRCLES:
            out.circle_stroke(x, y, radius, p.outline, stroke)
        else:
            r = radius * 1.12
            points = [(x, y - r), (x + r * 0.866, y + r * 0.5), (x - r * 0.866, y + r * 0.5)]
            out.polyline(points + [points[0]], p.outline, stroke)
        out.circle(x, y, max(1.5, 0.06 * s), p.outline)

    def draw_piece(self, out: DrawList, x: float, y: float, side: int, painted: bool, radius: float, s: float,
                   p: Palette, quiet: bool = False) -> None:
        """A ring or hollow triangle; painted: solid with a light mark inside."""
        colour, mark = (p.circle, p.circle_mark) if side == CIRCLES else (p.triangle, p.triangle_mark)
        stroke = max(1.5, (0.07 if quiet else 0.1) * s)
        if side == CIRCLES:
            if painted:
                out.circle(x, y, radius, colour)
                out.circle(x, y, radius * 0.3, mark)
            else:
                out.circle(x, y, radius - stroke / 2, p.piece_inner)
                out.circle_stroke(x, y, radius - stroke / 2, colour, stroke)
            return
        r = radius * 1.12
        points = [(x, y - r), (x + r * 0.866, y + r * 0.5), (x - r * 0.866, y + r * 0.5)]
        if painted:
            out.polygon(points, colour)
            out.circle(x, y + r * 0.12, radius * 0.26, mark)
        else:
            out.polygon(points, p.piece_inner)
            out.polyline(points + [points[0]], colour, stroke)


VIEW = CornersView
