"""How a Quadrature board looks and how taps on it become moves.

The board is drawn as the game is played: checkers stand on the 121 points
of an 11 x 11 lattice (like a Go board), not in squares.  The three middle
points of each back row are the home plates.  Everything, including the
selection, the legal targets, the last move and the checkers it converted,
goes into one ``DrawList``, so the browser pays for one interop call a frame
and the SVG renderer shows exactly what the canvas shows.

``ViewState.highlights`` keys understood here: ``converted`` (squares to ring;
default: what the last move converted), ``show_last`` (False hides the
last move and its conversions), ``cursor`` (keyboard cursor square),
``faded`` (squares whose checkers are drawn quietly: diagram padding) and
``illegal_move`` (a move drawn crossed out).

Geometry is shared by drawing, hit-testing and the tests: ``geometry`` gives
the pixel position of the top-left point and the distance between points;
``square_center`` and ``QuadratureView.cell_at`` are inverse to each other.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...core.animation import Timeline
from ...core.contrast import GRAPHICS, TEXT
from ...core.hint_marks import arrow, hint_colour
from ...core.hint_marks import ring as hint_ring
from ...core.draw import ALIGN_CENTER, DrawList
from ...core.game import Game
from ...core.grid import Grid
from ...core.view import BoardView, TapResult, ViewState
from .animation import animated_squares, draw_motion, move_timeline
from .rules import EMPTY, WHITE, move_from, move_to

SIZE = 11
FILES = "abcdefghijk"
# Board margin around the outer points, in units of the point spacing; the
# coordinates are written inside it.
MARGIN = 0.95
SPAN = (SIZE - 1) + 2 * MARGIN
WHITE_HOME = (4 + 10 * SIZE, 5 + 10 * SIZE, 6 + 10 * SIZE)   # e11 f11 g11
BLACK_HOME = (4, 5, 6)                                        # e1 f1 g1
CHECKER_RADIUS = 0.41   # of the spacing
TAP_TOLERANCE = 0.5     # of the spacing: how far from a point a tap still counts


@dataclass(frozen=True)
class Palette:
    """Board colours: a warm, calm wood with clear checkers (see STYLE).

    Every mark a player needs (lattice, home plates, checkers' outlines, the
    last move, the selection and its targets, conversions, the cursor)
    reaches WCAG's 3:1 against the board, and the coordinates 4.5:1
    (``CONTRAST_PAIRS``, checked by the unit tests for both themes).
    """

    board: str = "#e3c28f"
    board_edge: str = "#b88a52"
    line: str = "#7a5730"
    point: str = "#5a3c1c"
    label: str = "#553a1c"
    white_home: str = "#f8ecd4"
    white_home_edge: str = "#6e4f2a"
    black_home: str = "#c29866"
    black_home_edge: str = "#3f2a14"
    white_fill: str = "#fbf7ee"
    white_inner: str = "#e6dccb"
    white_edge: str = "#5b4a35"
    black_fill: str = "#2d2a28"
    black_inner: str = "#45403c"
    black_edge: str = "#0f0d0c"
    shadow: str = "rgba(60, 35, 10, 0.28)"
    last_move: str = "rgba(155, 199, 0, 0.40)"
    last_move_edge: str = "#4a6500"
    selected: str = "rgba(20, 110, 60, 0.30)"
    selected_ring: str = "#0f6a3a"
    target: str = "#146e3c"
    target_halo: str = "rgba(255, 255, 255, 0.55)"
    converted: str = "#b02a10"
    illegal: str = "#b3261e"
    faded_white: str = "#efe3cc"
    faded_white_edge: str = "#7a6446"
    faded_black: str = "#a88a66"
    faded_black_edge: str = "#4a3620"
    cursor: str = "#1f4fb0"


LIGHT = Palette()
DARK = Palette(
    board="#5c4327",
    board_edge="#3b2a17",
    line="#c2a170",
    point="#dcc39a",
    label="#efe0c4",
    white_home="#8a6a40",
    white_home_edge="#e3cda4",
    black_home="#2e2013",
    black_home_edge="#c2a170",
    white_fill="#efe7d8",
    white_inner="#d6cab4",
    white_edge="#dccfb8",
    black_fill="#1d1b1a",
    black_inner="#3a3633",
    black_edge="#c9b08a",
    shadow="rgba(0, 0, 0, 0.45)",
    last_move="rgba(190, 225, 60, 0.22)",
    last_move_edge="#c5e05a",
    selected="rgba(120, 225, 160, 0.22)",
    selected_ring="#7fe0a3",
    target="#86e5a8",
    target_halo="rgba(0, 0, 0, 0.35)",
    converted="#ff8a65",
    illegal="#ff9090",
    faded_white="#a89272",
    faded_white_edge="#e0ccaa",
    faded_black="#3b2d1e",
    faded_black_edge="#b89c76",
    cursor="#8fb4ff",
)
PALETTES: dict[str, Palette] = {"light": LIGHT, "dark": DARK}
"""The page theme (``ViewState.theme``) picks one."""
PALETTE = LIGHT

CONTRAST_PAIRS: tuple[tuple[tuple[str, ...], tuple[str, ...], float], ...] = (
    # (what is drawn: any of these colours, what it sits on: nearest layer first, minimum ratio)
    (("line",), ("board",), GRAPHICS),
    (("point",), ("board",), GRAPHICS),
    (("label",), ("board",), TEXT),
    (("white_home_edge",), ("board",), GRAPHICS),
    (("black_home_edge",), ("board",), GRAPHICS),
    (("white_fill", "white_edge"), ("board",), GRAPHICS),
    (("black_fill", "black_edge"), ("board",), GRAPHICS),
    (("white_fill", "white_edge"), ("white_home",), GRAPHICS),
    (("white_fill", "white_edge"), ("black_home",), GRAPHICS),
    (("black_fill", "black_edge"), ("white_home",), GRAPHICS),
    (("black_fill", "black_edge"), ("black_home",), GRAPHICS),
    (("white_fill",), ("black_fill",), GRAPHICS),          # the sides differ in lightness, not hue
    (("last_move_edge",), ("board",), GRAPHICS),
    (("last_move_edge",), ("last_move", "board"), GRAPHICS),
    (("selected_ring",), ("board",), GRAPHICS),
    (("target",), ("board",), GRAPHICS),
    (("converted",), ("board",), GRAPHICS),
    (("illegal",), ("board",), GRAPHICS),
    (("cursor",), ("board",), GRAPHICS),
    (("faded_white", "faded_white_edge"), ("board",), GRAPHICS),
    (("faded_black", "faded_black_edge"), ("board",), GRAPHICS),
)
"""Colour pairs a player must tell apart, with WCAG's minimum contrast."""


GRID = Grid(SPAN, SPAN, MARGIN, MARGIN)
"""The board in point spacings (``core.grid``)."""


def geometry(width: float, height: float) -> tuple[float, float, float]:
    """(x, y, spacing): the top-left point's centre and the point distance.

    The board is square and centred in the ``width`` x ``height`` area.
    """
    return GRID.fit(width, height)


def _screen_col_row(sq: int, flipped: bool) -> tuple[int, int]:
    """Column and row on screen (0, 0 top left) of square ``sq``.

    Unflipped, the board is seen from White's side (seat 0): White's home
    plate e11-g11 at the bottom, so a1 is at the top right.  Flipped, it is
    seen from Black's side, which is also how the rules document draws it:
    a1 at the bottom left.
    """
    col, row = sq % SIZE, sq // SIZE
    if flipped:
        return col, SIZE - 1 - row
    return SIZE - 1 - col, row


def _square_from_screen(sx: int, sy: int, flipped: bool) -> int:
    """Inverse of ``_screen_col_row``."""
    if flipped:
        return (SIZE - 1 - sy) * SIZE + sx
    return sy * SIZE + (SIZE - 1 - sx)


def square_center(sq: int, width: float, height: float, flipped: bool = False) -> tuple[float, float]:
    """Pixel centre of square ``sq`` (``row * 11 + col``) in logical pixels."""
    origin_x, origin_y, spacing = geometry(width, height)
    x, y = _screen_col_row(sq, flipped)
    return origin_x + x * spacing, origin_y + y * spacing


def square_at(width: float, height: float, x: float, y: float, flipped: bool = False,
              tolerance: float = TAP_TOLERANCE) -> int | None:
    """The square whose point is within ``tolerance`` spacings of (x, y)."""
    found = GRID.point_at(width, height, x, y, SIZE, SIZE, tolerance)
    return None if found is None else _square_from_screen(found[0], found[1], flipped)


def _last_move(game: Game, state: ViewState) -> Any:
    if state.last_move is not None:
        return state.last_move
    if state.highlights.get("show_last", True) and game.move_stack:
        return game.move_stack[-1]
    return None


def _converted(game: Game, state: ViewState) -> list[int]:
    converted = state.highlights.get("converted")
    if converted is not None:
        return list(converted)
    if state.highlights.get("show_last", True) and game.move_stack:
        return list(game.last_converted())
    return []


def legal_targets(game: Game, sq: int | None) -> list[int]:
    """Destinations of the legal moves of the checker on ``sq``."""
    if sq is None or game.is_over():
        return []
    return [move_to(m) for m in game.moves_from(sq)]


class QuadratureView(BoardView):
    """Draws a Quadrature position and turns taps into moves."""

    keys_hint = "board.keys.quadrature"
    def __init__(self, palettes: dict[str, Palette] | None = None) -> None:
        self.palettes = dict(PALETTES if palettes is None else palettes)

    def palette_for(self, theme: str) -> Palette:
        """The palette of the page theme (light when the theme is unknown)."""
        return self.palettes.get(theme) or self.palettes.get("light") or LIGHT

    # ----- geometry ----------------------------------------------------------
    @staticmethod
    def geometry(width: float, height: float) -> tuple[float, float, float]:
        return geometry(width, height)

    @staticmethod
    def square_center(sq: int, width: float, height: float, flipped: bool = False) -> tuple[float, float]:
        return square_center(sq, width, height, flipped)

    def cell_at(self, game: Game, state: ViewState, width: float, height: float,
                x: float, y: float) -> int | None:
        return square_at(width, height, x, y, state.flipped)

    @staticmethod
    def step_cell(cell: int, dx: int, dy: int, flipped: bool = False) -> int:
        """The square one screen step from ``cell`` (keyboard cursor), clamped."""
        sx, sy = _screen_col_row(cell, flipped)
        sx = min(SIZE - 1, max(0, sx + dx))
        sy = min(SIZE - 1, max(0, sy + dy))
        return _square_from_screen(sx, sy, flipped)

    @staticmethod
    def initial_cursor(game: Game, state: ViewState) -> int:
        """Where the keyboard cursor starts: a checker of the side to move."""
        squares = range(SIZE * SIZE)
        if state.flipped:
            squares = reversed(squares)
        for sq in squares:
            if game.piece_at(sq) == game.to_move and game.moves_from(sq):
                return sq
        return (SIZE * SIZE) // 2

    # ----- taps ---------------------------------------------------------------
    def tap(self, game: Game, state: ViewState, cell: Any) -> TapResult:
        """Select an own checker, move to a target, or clear the selection.

        Tapping the selected checker again, an empty point that is not a
        target or an enemy checker deselects; tapping another own checker
        selects that one instead.
        """
        if not state.interactive or game.is_over():
            return TapResult(selected=None)
        selected = state.selected
        if cell is None:
            return TapResult(selected=None)
        if selected is not None and cell != selected:
            for move in game.moves_from(selected):
                if move_to(move) == cell:
                    return TapResult(selected=None, move=move)
        if cell != selected and game.piece_at(cell) == game.to_move:
            return TapResult(selected=cell)
        return TapResult(selected=None)

    # ----- drawing ------------------------------------------------------------
    def draw(self, game: Game, state: ViewState, out: DrawList) -> None:
        p = self.palette_for(state.theme)
        width, height = out.width, out.height
        if min(width, height) < 2 * SPAN:   # too small to draw anything legible
            return
        origin_x, origin_y, s = geometry(width, height)
        flipped = state.flipped
        half = MARGIN * s
        left, top = origin_x - half, origin_y - half
        extent = (SIZE - 1) * s

        def center(sq: int) -> tuple[float, float]:
            x, y = _screen_col_row(sq, flipped)
            return origin_x + x * s, origin_y + y * s

        # Board plate with a darker rim.
        out.round_rect(left, top, SPAN * s, SPAN * s, 0.28 * s, p.board_edge)
        rim = 0.10 * s
        out.round_rect(left + rim, top + rim, SPAN * s - 2 * rim, SPAN * s - 2 * rim, 0.22 * s, p.board)

        # Home plates: a soft tile under the three points of each.
        for home, fill, edge in ((WHITE_HOME, p.white_home, p.white_home_edge),
                                 (BLACK_HOME, p.black_home, p.black_home_edge)):
            xs = [center(sq)[0] for sq in home]
            y = center(home[0])[1]
            x0, x1 = min(xs) - 0.46 * s, max(xs) + 0.46 * s
            e = max(1.0, 0.06 * s)
            out.round_rect(x0 - e, y - 0.46 * s - e, x1 - x0 + 2 * e, 0.92 * s + 2 * e, 0.2 * s + e, edge)
            out.round_rect(x0, y - 0.46 * s, x1 - x0, 0.92 * s, 0.2 * s, fill)

        # Lattice lines and points.
        line_width = max(0.75, 0.035 * s)
        for i in range(SIZE):
            offset = i * s
            out.line(origin_x, origin_y + offset, origin_x + extent, origin_y + offset, p.line, line_width)
            out.line(origin_x + offset, origin_y, origin_x + offset, origin_y + extent, p.line, line_width)
        dot = max(1.2, 0.075 * s)
        for sq in range(SIZE * SIZE):
            x, y = center(sq)
            out.circle(x, y, dot, p.point)

        # Coordinates (unless turned off): files along the bottom, ranks along the left side.
        font = max(7.0, 0.34 * s)
        label_offset = 0.67 * s   # clear of the home plates (0.46 s and their rim)
        for i in range(SIZE if state.coordinates else 0):
            file_index = i if flipped else SIZE - 1 - i
            out.text(origin_x + i * s, origin_y + extent + label_offset, FILES[file_index],
                     p.label, font, ALIGN_CENTER)
            rank = SIZE - i if flipped else i + 1
            out.text(origin_x - label_offset, origin_y + i * s, str(rank), p.label, font, ALIGN_CENTER)

        # Last move: tint its two points and outline them (the tint alone is
        # too faint to see; the outline reaches 3:1 against the board).
        last = _last_move(game, state)
        if last is not None:
            outline = max(1.5, 0.06 * s)
            for sq in (move_from(last), move_to(last)):
                x, y = center(sq)
                out.round_rect(x - 0.48 * s, y - 0.48 * s, 0.96 * s, 0.96 * s, 0.14 * s, p.last_move)
                half = 0.48 * s - outline / 2
                out.rect_stroke(x - half, y - half, 2 * half, 2 * half, p.last_move_edge, outline)

        selected = state.selected
        if selected is not None:
            x, y = center(selected)
            out.round_rect(x - 0.48 * s, y - 0.48 * s, 0.96 * s, 0.96 * s, 0.14 * s, p.selected)

        # Checkers.
        radius = CHECKER_RADIUS * s
        edge_width = max(1.0, 0.05 * s)
        faded = set(state.highlights.get("faded", ()))
        motion = state.highlights.get("animation")  # a move animating (games/quadrature/animation.py)
        moving = animated_squares(motion)
        for sq in range(SIZE * SIZE):
            piece = game.piece_at(sq)
            if piece == EMPTY or sq in moving:
                continue
            x, y = center(sq)
            if sq in faded:
                # Checkers that only fill a diagram up to a real game: quiet discs.
                fill, edge = ((p.faded_white, p.faded_white_edge) if piece == WHITE
                              else (p.faded_black, p.faded_black_edge))
                out.circle(x, y, radius * 0.8, fill)
                out.circle_stroke(x, y, radius * 0.8 - edge_width / 2, edge, edge_width)
                continue
            self.draw_checker(out, x, y, piece, radius, s, p)
        if motion is not None:
            draw_motion(out, game, motion, center,
                        lambda out, x, y, piece, r, s: self.draw_checker(out, x, y, piece, r, s, p),
                        radius, s, p.converted, p.cursor)

        # The selected checker: a ring around it.
        ring = max(1.5, 0.08 * s)
        if selected is not None:
            x, y = center(selected)
            out.circle_stroke(x, y, radius + ring * 0.9, p.selected_ring, ring)

        # Checkers converted by the last move: a bright ring around each.
        for sq in _converted(game, state):
            x, y = center(sq)
            out.circle_stroke(x, y, radius + ring * 0.9, p.converted, ring)

        # Legal targets of the selected checker.
        if selected is not None and state.interactive:
            targets = legal_targets(game, selected)
            for sq in targets:   # a halo first, so a target shows on a line or a plate too
                x, y = center(sq)
                out.circle(x, y, 0.17 * s + max(1.0, 0.04 * s), p.target_halo)
            for sq in targets:
                x, y = center(sq)
                out.circle(x, y, 0.17 * s, p.target)

        # A move shown as forbidden (rules diagrams): a red line and a cross.
        illegal = state.highlights.get("illegal_move")
        if illegal is not None:
            x1, y1 = center(move_from(illegal))
            x2, y2 = center(move_to(illegal))
            width = max(2.0, 0.09 * s)
            out.line(x1, y1, x2, y2, p.illegal, width)
            arm = 0.24 * s
            out.line(x2 - arm, y2 - arm, x2 + arm, y2 + arm, p.illegal, width * 1.3)
            out.line(x2 - arm, y2 + arm, x2 + arm, y2 - arm, p.illegal, width * 1.3)

        # A suggested move (Hint, or a review's best move): an arrow from the checker to its point.
        hint = state.highlights.get("hint")
        if isinstance(hint, int) and not isinstance(hint, bool) and game.is_legal(hint):
            x1, y1 = center(move_from(hint))
            x2, y2 = center(move_to(hint))
            colour = hint_colour(state.theme)
            hint_ring(out, x1, y1, radius + 0.1 * s, max(2.0, 0.08 * s), colour)
            arrow(out, x1, y1, x2, y2, max(3.0, 0.16 * s), colour)

        cursor = state.highlights.get("cursor")
        if cursor is not None:
            x, y = center(cursor)
            out.rect_stroke(x - 0.47 * s, y - 0.47 * s, 0.94 * s, 0.94 * s, p.cursor, max(1.5, 0.07 * s))

    def draw_checker(self, out: DrawList, x: float, y: float, piece: int, radius: float, s: float,
                     palette: Palette | None = None) -> None:
        """One checker centred at (x, y) (also the animation's sliding and turning ones)."""
        p = palette or self.palette_for("light")
        edge_width = max(1.0, 0.05 * s)
        out.circle(x + 0.02 * s, y + 0.05 * s, radius, p.shadow)
        if piece == WHITE:
            out.circle(x, y, radius, p.white_fill)
            out.circle_stroke(x, y, radius * 0.62, p.white_inner, max(1.0, 0.06 * s))
            out.circle_stroke(x, y, max(0.0, radius - edge_width / 2), p.white_edge, edge_width)
        else:
            out.circle(x, y, radius, p.black_fill)
            out.circle_stroke(x, y, radius * 0.62, p.black_inner, max(1.0, 0.06 * s))
            out.circle_stroke(x, y, max(0.0, radius - edge_width / 2), p.black_edge, edge_width)

    @staticmethod
    def move_animation(game: Game, move: Any, emphasis: bool = False) -> Timeline:
        """How ``move`` (just played on ``game``) animates (``core/animation.py``)."""
        return move_timeline(game, move, emphasis)


VIEW = QuadratureView()
