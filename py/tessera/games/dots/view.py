"""How a Dots field looks and how taps on it become moves.

The field is drawn like squared paper: grey lines through the points, blue
and red dots on the crossings, every region painted in its captor's colour
(a translucent fill inside its chain and the chain itself), houses left
unpainted (5.12), dots out of the game drawn small and pale, the last move
ringed, and the coordinates along the edges as the document numbers them:
x from 1 at the left, y from 1 at the bottom.  Everything goes into one
``DrawList`` (one interop call a frame in the browser, the same picture in
SVG).

Cells are ``(x, y)`` tuples in the document's coordinates; ``point_center``
and ``DotsView.cell_at`` are inverse to each other.

``ViewState.highlights`` keys understood here:

* ``confirm``: taps need confirming (touch screens): the first tap on a
  free point shows a ghost dot (``state.selected``), a second tap on the
  same point plays it.
* ``cursor``: the keyboard cursor point.
* ``show_last``: False hides the last-move ring.
* ``viewport``: ``(x, y, w, h)``, the part of the drawing the screen shows
  when zoomed; the coordinates are then drawn along its edges.
* ``marks``: ``{(x, y): text}`` small labels on points (rules diagrams).
* ``faded``: points whose dots are drawn quietly (rules diagrams).
* ``threats``: True rings every free point where a side would capture now
  in that side's colour, with the number of dots it would take (the
  "show threats" option): the mover's captures, and where the mover must
  play to save dots.  Read once per position (``eval.open_captures``); a
  list of ``(point, player, dots)`` is that reading made elsewhere (the
  page's bots' worker, ``DotsUI.read``), drawn as it is.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass
from typing import Any

from ...core.animation import Timeline
from ...core.contrast import GRAPHICS, TEXT
from ...core.hint_marks import hint_colour
from ...core.hint_marks import ring as hint_ring
from ...core.draw import ALIGN_CENTER, DrawList
from ...core.game import Game
from ...core.grid import Grid
from ...core.view import BoardView, TapResult, ViewState
from .animation import draw_dots, draw_regions, hidden_cells, hidden_regions, move_timeline
from .eval import open_captures
from .field import OFF
from .position import row_codes
from .rules import LAND

MARGIN = 1.05
"""Space around the outer points, in point spacings; the coordinates sit in it."""
MIN_ASPECT = 1.0
"""The drawing is never taller than wide: a tall field (10x14, 5x52) is drawn
in a square, centred, instead of a canvas many screens high."""
DOT_RADIUS = 0.30       # of the spacing (5.3: four dots round a cell must not touch)
DEAD_RADIUS = 0.17
TAP_TOLERANCE = 0.5     # of the spacing: a tap counts for the nearest point
SQUARE_HALF = 0.86
"""Half the side of a square dot (colour-blind option) per dot radius: about
the area of the round dot, so neither side looks bigger."""


@dataclass(frozen=True)
class Palette:
    """Squared paper: near-white field, grey-blue lines (1.5), clear blue and red.

    Lines, dots, chains, the last move and the cursor reach WCAG's 3:1
    against the paper (and against a region's fill where they sit in one),
    the coordinates 4.5:1 (``CONTRAST_PAIRS``, checked by the unit tests in
    both themes).  Blue is darker than red, so the sides differ in lightness
    as well as in hue; the colour-blind option also draws red as squares.
    """

    paper: str = "#fdfcf8"
    edge: str = "#7f889a"
    line: str = "#8a93a4"
    label: str = "#4f5767"
    label_back: str = "rgba(253, 252, 248, 0.92)"
    blue: str = "#1e40af"
    red: str = "#e8453c"
    blue_dead: str = "#5b73b8"
    red_dead: str = "#b5554f"
    blue_fill: str = "rgba(30, 64, 175, 0.16)"
    red_fill: str = "rgba(232, 69, 60, 0.17)"
    blue_chain: str = "#1e40af"
    red_chain: str = "#d83a31"
    blue_old_chain: str = "#7083bd"
    red_old_chain: str = "#c77670"
    blue_ghost: str = "rgba(30, 64, 175, 0.40)"
    red_ghost: str = "rgba(232, 69, 60, 0.40)"
    last: str = "#1c1f26"
    last_inner: str = "#ffffff"
    cursor: str = "#1b7a43"
    mark: str = "#1c1f26"
    faded_blue: str = "#6f86c4"
    faded_red: str = "#c46f68"


LIGHT = Palette()
DARK = Palette(
    paper="#1b1e24",
    edge="#707a8c",
    line="#666f80",
    label="#aab2c2",
    label_back="rgba(27, 30, 36, 0.92)",
    blue="#3d6fe8",
    red="#ffa08a",
    blue_dead="#5f7fcf",
    red_dead="#c77a68",
    blue_fill="rgba(61, 111, 232, 0.16)",
    red_fill="rgba(255, 160, 138, 0.15)",
    blue_chain="#4677ee",
    red_chain="#ffa08a",
    blue_old_chain="#51689e",
    red_old_chain="#a06f63",
    blue_ghost="rgba(61, 111, 232, 0.45)",
    red_ghost="rgba(255, 160, 138, 0.45)",
    last="#f2f4f8",
    last_inner="#1b1e24",
    cursor="#5fd08f",
    mark="#f2f4f8",
    faded_blue="#4d69ad",
    faded_red="#a8675a",
)
PALETTES: dict[str, Palette] = {"light": LIGHT, "dark": DARK}
"""The page theme (``ViewState.theme``) picks one."""
PALETTE = LIGHT

CONTRAST_PAIRS: tuple[tuple[tuple[str, ...], tuple[str, ...], float], ...] = (
    # (what is drawn: any of these colours, what it sits on: nearest layer first, minimum ratio)
    (("line",), ("paper",), GRAPHICS),
    (("label",), ("paper",), TEXT),
    (("label",), ("label_back", "paper"), TEXT),
    (("blue",), ("paper",), GRAPHICS),
    (("red",), ("paper",), GRAPHICS),
    (("blue",), ("blue_fill", "paper"), GRAPHICS),
    (("red",), ("red_fill", "paper"), GRAPHICS),
    (("blue_chain",), ("paper",), GRAPHICS),
    (("red_chain",), ("paper",), GRAPHICS),
    (("blue_chain",), ("blue_fill", "paper"), GRAPHICS),
    (("red_chain",), ("red_fill", "paper"), GRAPHICS),
    (("blue_old_chain",), ("paper",), GRAPHICS),
    (("red_old_chain",), ("paper",), GRAPHICS),
    (("blue_dead",), ("red_fill", "paper"), GRAPHICS),
    (("red_dead",), ("blue_fill", "paper"), GRAPHICS),
    (("last",), ("paper",), GRAPHICS),
    (("last_inner",), ("blue",), GRAPHICS),
    (("last_inner",), ("red",), GRAPHICS),
    (("cursor",), ("paper",), GRAPHICS),
    (("mark",), ("paper",), TEXT),
    (("faded_blue",), ("paper",), GRAPHICS),
    (("faded_red",), ("paper",), GRAPHICS),
)
"""Colour pairs a player must tell apart, with WCAG's minimum contrast."""

SIDE_LIGHTNESS = 2.0
"""Blue and red differ in lightness by at least this ratio (besides hue):
a field stays readable in greyscale and for most colour vision."""


def spans(game: Game) -> tuple[float, float]:
    """Width and height of the drawing in point spacings."""
    return (game.width - 1) + 2 * MARGIN, (game.height - 1) + 2 * MARGIN  # type: ignore[attr-defined]


def grid(game: Game) -> Grid:
    """The field in point spacings (``core.grid``)."""
    span_x, span_y = spans(game)
    return Grid(span_x, span_y, MARGIN, MARGIN)


def geometry(game: Game, width: float, height: float) -> tuple[float, float, float]:
    """(x, y, spacing): the centre of the top-left point (x 1, y = height)
    and the distance between points, the field centred in the area."""
    return grid(game).fit(width, height)


def _screen(game: Game, x: int, y: int, flipped: bool) -> tuple[int, int]:
    """Column and row on screen (0, 0 top left) of point ``x-y``."""
    w, h = game.width, game.height  # type: ignore[attr-defined]
    if flipped:
        return w - x, y - 1
    return x - 1, h - y


def _from_screen(game: Game, sx: int, sy: int, flipped: bool) -> tuple[int, int]:
    w, h = game.width, game.height  # type: ignore[attr-defined]
    if flipped:
        return w - sx, sy + 1
    return sx + 1, h - sy


def point_center(game: Game, cell: tuple[int, int], width: float, height: float,
                 flipped: bool = False) -> tuple[float, float]:
    """Pixel centre of point ``(x, y)`` in a ``width`` x ``height`` drawing."""
    origin_x, origin_y, s = geometry(game, width, height)
    sx, sy = _screen(game, cell[0], cell[1], flipped)
    return origin_x + sx * s, origin_y + sy * s


def point_at(game: Game, width: float, height: float, x: float, y: float,
             flipped: bool = False, tolerance: float = TAP_TOLERANCE) -> tuple[int, int] | None:
    """The point within ``tolerance`` spacings of pixel (x, y), or None."""
    found = grid(game).point_at(width, height, x, y, game.width, game.height, tolerance)  # type: ignore[attr-defined]
    return None if found is None else _from_screen(game, found[0], found[1], flipped)


def label_step(spacing: float) -> int:
    """Label every point when there is room, else every 2nd or 5th."""
    if spacing >= 17:
        return 1
    if spacing >= 8.5:
        return 2
    return 5


class DotsView(BoardView):
    """Draws a Dots field and turns taps into moves."""

    keys_hint = "board.keys.dots"
    zoomable = True
    """The board component offers zoom and pan (a 39x32 field on a phone)."""
    confirm_moves = True
    """Touch taps can be confirmed before they count (``highlights["confirm"]``)."""

    def __init__(self, palettes: dict[str, Palette] | None = None) -> None:
        self.palettes = dict(PALETTES if palettes is None else palettes)
        self._threats: tuple[Any, Any, list[tuple[int, int, int]]] = (None, None, [])
        """The field read last, its newest move-log entry, and what was found."""
        self._row_dots: dict[tuple[int, bytes], tuple[array[float], ...]] = {}
        """A row's dot centres by look, keyed by the row and its points' codes (``_dots_by_look``)."""
        self._row_dots_geometry: tuple[Any, ...] = ()

    def threats(self, game: Game) -> list[tuple[int, int, int]]:
        """``(point, player, dots)``: where each side captures now (cached
        per position: a redraw for the cursor or a hover reads nothing)."""
        field = game.field  # type: ignore[attr-defined]
        newest = field.log[-1] if field.log else None
        # Every move logs a new entry, and the cache holds the one it read, so
        # identity tells the position apart (a take-back and another move too).
        if self._threats[0] is not field or self._threats[1] is not newest:
            found = [] if game.is_over() else open_captures(field)
            self._threats = (field, newest, found)
        return self._threats[2]

    def palette_for(self, theme: str) -> Palette:
        """The palette of the page theme (light when the theme is unknown)."""
        return self.palettes.get(theme) or self.palettes.get("light") or LIGHT

    # ----- geometry ------------------------------------------------------------
    def aspect(self, game: Game) -> float:
        span_x, span_y = spans(game)
        return max(MIN_ASPECT, span_x / span_y)

    @staticmethod
    def geometry_for(game: Game, width: float, height: float) -> tuple[float, float, float]:
        return geometry(game, width, height)

    def cell_at(self, game: Game, state: ViewState, width: float, height: float,
                x: float, y: float) -> tuple[int, int] | None:
        return point_at(game, width, height, x, y, state.flipped)

    @staticmethod
    def point_center(game: Game, cell: tuple[int, int], width: float, height: float,
                     flipped: bool = False) -> tuple[float, float]:
        return point_center(game, cell, width, height, flipped)

    @staticmethod
    def step_cell(cell: tuple[int, int], dx: int, dy: int, flipped: bool = False) -> tuple[int, int]:
        """The point one screen step away (keyboard cursor); ``clamp_cell``
        keeps it on the field."""
        x, y = cell
        if flipped:
            dx, dy = -dx, -dy
        return x + dx, y - dy

    @staticmethod
    def clamp_cell(game: Game, cell: tuple[int, int]) -> tuple[int, int]:
        x, y = cell
        return (min(game.width, max(1, x)), min(game.height, max(1, y)))  # type: ignore[attr-defined]

    @staticmethod
    def cell_label(game: Game, cell: tuple[int, int]) -> str:
        """The point in the document's notation (``20-17``)."""
        return f"{cell[0]}-{cell[1]}"

    @staticmethod
    def initial_cursor(game: Game, state: ViewState) -> tuple[int, int]:
        """The last move's point, else the middle of the field."""
        last = game.last_move  # type: ignore[attr-defined]
        if last is not None and last != LAND:
            return game.xy(last)  # type: ignore[attr-defined]
        return (game.width + 1) // 2, (game.height + 1) // 2  # type: ignore[attr-defined]

    def selection_valid(self, game: Game, cell: Any) -> bool:
        """A ghost dot stays only while its point is still free."""
        return (not game.is_over() and isinstance(cell, tuple)
                and game.is_free(*cell))  # type: ignore[attr-defined]

    @staticmethod
    def move_animation(game: Game, move: Any, emphasis: bool = False) -> Timeline:
        """How ``move`` (just played on ``game``) animates (``core/animation.py``)."""
        return move_timeline(game, move, emphasis)

    @staticmethod
    def move_cell(game: Game, move: Any) -> tuple[int, int] | None:
        """The point a move was played on (None for landing): a zoomed board
        pans to show an opponent's move."""
        return None if move == LAND else game.xy(move)  # type: ignore[attr-defined]

    # ----- taps -------------------------------------------------------------------
    def tap(self, game: Game, state: ViewState, cell: Any) -> TapResult:
        """A free point plays at once, or, when confirming, first shows a
        ghost dot that a second tap on the same point plays."""
        if not state.interactive or game.is_over() or cell is None:
            return TapResult(selected=None)
        x, y = cell
        if not game.is_free(x, y):  # type: ignore[attr-defined]
            return TapResult(selected=None)
        move = game.cell(x, y)  # type: ignore[attr-defined]
        if state.highlights.get("confirm"):
            if state.selected == cell:
                return TapResult(selected=None, move=move)
            return TapResult(selected=cell)
        return TapResult(selected=None, move=move)

    # ----- drawing ------------------------------------------------------------------
    def _draw_threats(self, out: DrawList, game: Game, found: list[Any], p: Palette, px: list[float],
                      py: list[float], radius: float, s: float) -> None:
        """A ring in the capturing side's colour round each point where it
        would capture now, and how many dots; both rings where both would."""
        stride = game.field.stride  # type: ignore[attr-defined]
        width = max(1.2, 0.07 * s)
        font = max(7.0, 0.4 * s)
        labelled: set[int] = set()
        for cell, player, taken in found:
            x, y = cell % stride, cell // stride
            colour = p.blue if player == 0 else p.red
            ring = radius * (1.9 if player == game.to_move else 1.45)
            out.circle_stroke(px[x], py[y], ring, colour, width)
            if cell not in labelled:
                labelled.add(cell)
                out.text(px[x] + 0.55 * s, py[y] - 0.45 * s, str(taken), p.label, font, ALIGN_CENTER, bold=True)

    def _dots_by_look(self, field: Any, px: list[float], py: list[float], faded_cells: set[int],
                      appearing: frozenset[int], geometry_key: tuple[Any, ...]
                      ) -> tuple[tuple[array[float], array[float]], ...]:
        """Centres of the live, dead (captured) and quiet (faded) dots, blue and red apart.

        A move changes a row or a few, so each row's centres are kept, keyed by the row
        and its points' codes (``position.row_codes``, as the position string reads them): a
        field 1000 moves in is 32 lookups and a row or two walked, not 1000 dots placed
        in Python for every move and every frame of its animation.  Rows with a faded or
        an appearing dot are walked as they are.  The centres are ``array('d')``, as the
        ``DrawList`` is: joining them and adding them to it copies memory, where floats
        from lists were converted one by one (half the drawing's time at move 1000)."""
        if geometry_key != self._row_dots_geometry or len(self._row_dots) > 4 * field.height:
            self._row_dots.clear()
            self._row_dots_geometry = geometry_key
        kept = self._row_dots
        dot, owner, width, stride = field.dot, field.owner, field.width, field.stride
        live = (array("d"), array("d"))
        dead = (array("d"), array("d"))
        quiet = (array("d"), array("d"))
        walked = {c // stride for c in appearing} | {c // stride for c in faded_cells}
        for y in range(1, field.height + 1):
            base = y * stride
            yy = py[y]
            if y in walked:
                for x in range(1, width + 1):
                    c = base + x
                    d = dot[c]
                    if not d or d == OFF or c in appearing:
                        continue
                    group = quiet if c in faded_cells else dead if owner[c] else live
                    group[d - 1].extend((px[x], yy))
                continue
            codes = row_codes(field, y)
            row = kept.get((y, codes))
            if row is None:
                found: tuple[list[float], ...] = ([], [], [], [])   # live blue, live red, dead blue, dead red
                for x, code in enumerate(codes, start=1):
                    if 3 <= code < 9:   # a dot (not an empty point)
                        d, o = divmod(code, 3)
                        found[d - 1 + (2 if o else 0)].extend((px[x], yy))
                row = kept[(y, codes)] = tuple(array("d", centres) for centres in found)
            live[0].extend(row[0])
            live[1].extend(row[1])
            dead[0].extend(row[2])
            dead[1].extend(row[3])
        return live, dead, quiet

    def draw(self, game: Game, state: ViewState, out: DrawList) -> None:
        p = self.palette_for(state.theme)
        width, height = out.width, out.height
        w, h = game.width, game.height  # type: ignore[attr-defined]
        origin_x, origin_y, s = geometry(game, width, height)
        if s < 2:
            return
        flipped = state.flipped
        highlights = state.highlights
        span_x, span_y = spans(game)
        left, top = origin_x - MARGIN * s, origin_y - MARGIN * s
        out.rect(left, top, span_x * s, span_y * s, p.paper)
        out.rect_stroke(left + 0.5, top + 0.5, span_x * s - 1, span_y * s - 1, p.edge, 1.0)

        # Pixel position of every x and every y, in the document's numbering.
        px = [0.0] * (w + 2)
        py = [0.0] * (h + 2)
        for x in range(1, w + 1):
            px[x] = origin_x + ((w - x) if flipped else (x - 1)) * s
        for y in range(1, h + 1):
            py[y] = origin_y + ((y - 1) if flipped else (h - y)) * s
        x_lo, x_hi = min(px[1], px[w]), max(px[1], px[w])
        y_lo, y_hi = min(py[1], py[h]), max(py[1], py[h])

        line_width = max(0.6, min(1.4, 0.06 * s))
        for x in range(1, w + 1):
            out.line(px[x], y_lo, px[x], y_hi, p.line, line_width)
        for y in range(1, h + 1):
            out.line(x_lo, py[y], x_hi, py[y], p.line, line_width)

        field = game.field  # type: ignore[attr-defined]
        stride = field.stride

        # Regions, in the order made: fill, then chain.  A region surrounded
        # later keeps only a pale chain; the captor's own region paints over it.
        chain_width = max(1.2, 0.11 * s)
        motion = highlights.get("animation")  # a move animating (games/dots/animation.py)
        growing = hidden_regions(motion)
        for index, region in enumerate(field.regions):
            if index in growing:
                continue
            chain = region.chain(stride)
            if len(chain) < 2:
                continue
            points = [(px[c % stride], py[c // stride]) for c in chain]
            owner = region.player
            holder = field.owner[chain[0]] - 1
            current = holder < 0 or holder == owner
            if current:
                out.polygon(points, p.blue_fill if owner == 0 else p.red_fill)
                stroke = p.blue_chain if owner == 0 else p.red_chain
            else:
                stroke = p.blue_old_chain if owner == 0 else p.red_old_chain
            points.append(points[0])
            out.polyline(points, stroke, chain_width)
        if growing:
            draw_regions(out, game, motion, growing, p, px, py, chain_width)

        # Dots, batched by look: each group is one command (``DrawList.circles``)
        # and one path on the canvas, so a full board costs about what an empty one does.
        faded = highlights.get("faded")
        faded_cells = {field.cell(x, y) for x, y in faded} if faded else set()
        live, dead, quiet = self._dots_by_look(field, px, py, faded_cells, hidden_cells(motion),
                                               (origin_x, origin_y, s, flipped, w, h))
        radius, dead_radius = DOT_RADIUS * s, DEAD_RADIUS * s
        squares = state.shapes   # colour-blind option: red dots are squares
        for player, centres, r, colour in ((0, dead[0], dead_radius, p.blue_dead),
                                           (1, dead[1], dead_radius, p.red_dead),
                                           (0, quiet[0], radius, p.faded_blue),
                                           (1, quiet[1], radius, p.faded_red),
                                           (0, live[0], radius, p.blue), (1, live[1], radius, p.red)):
            if squares and player == 1:
                half = r * SQUARE_HALF
                for k in range(0, len(centres), 2):
                    out.rect(centres[k] - half, centres[k + 1] - half, 2 * half, 2 * half, colour)
            else:
                out.circles(centres, r, colour)
        if motion is not None:
            draw_dots(out, game, motion, p, px, py, radius, dead_radius, s, SQUARE_HALF if squares else 0.0)

        threats = highlights.get("threats")
        if threats:   # a list: read elsewhere (the bots' worker) for this position; True: read here
            self._draw_threats(out, game, threats if isinstance(threats, list) else self.threats(game),
                               p, px, py, radius, s)

        marks = highlights.get("marks")
        if marks:
            font = max(7.0, 0.42 * s)
            for (x, y), text in marks.items():
                out.text(px[x], py[y] - 0.62 * s, str(text), p.mark, font, ALIGN_CENTER, bold=True)

        # The last move: a dark ring and a white centre.
        last = game.last_move if highlights.get("show_last", True) else None  # type: ignore[attr-defined]
        if state.last_move is not None:
            last = state.last_move
        if last is not None and last != LAND and 0 <= last < field.cell_count:
            x, y = last % stride, last // stride
            ring = max(1.2, 0.07 * s)
            out.circle_stroke(px[x], py[y], radius + ring * 1.2, p.last, ring)
            out.circle(px[x], py[y], max(1.0, 0.09 * s), p.last_inner)

        # The ghost of a move waiting for confirmation.
        selected = state.selected
        if selected is not None and state.interactive and self.selection_valid(game, selected):
            x, y = selected
            colour = p.blue_ghost if game.to_move == 0 else p.red_ghost
            ring = p.blue if game.to_move == 0 else p.red
            if state.shapes and game.to_move == 1:
                half = radius * 1.15 * SQUARE_HALF
                out.rect(px[x] - half, py[y] - half, 2 * half, 2 * half, colour)
                out.rect_stroke(px[x] - half - 1.5, py[y] - half - 1.5, 2 * half + 3, 2 * half + 3, ring,
                                max(1.5, 0.06 * s))
            else:
                out.circle(px[x], py[y], radius * 1.15, colour)
                out.circle_stroke(px[x], py[y], radius * 1.15 + 1.5, ring, max(1.5, 0.06 * s))

        # A suggested move (Hint, or a review's best move): a ring round its point.
        hint = highlights.get("hint")
        if isinstance(hint, int) and not isinstance(hint, bool) and hint != LAND and 0 <= hint < field.cell_count:
            x, y = hint % stride, hint // stride
            colour = hint_colour(state.theme)
            hint_ring(out, px[x], py[y], radius + 0.2 * s, max(2.5, 0.12 * s), colour)
            out.circle(px[x], py[y], max(1.5, 0.12 * s), colour)

        cursor = highlights.get("cursor")
        if cursor is not None:
            x, y = cursor
            half = 0.46 * s
            out.rect_stroke(px[x] - half, py[y] - half, 2 * half, 2 * half, p.cursor, max(1.5, 0.07 * s))

        if state.coordinates:
            self._draw_labels(out, p, game, px, py, s, highlights.get("viewport"))

    def _draw_labels(self, out: DrawList, p: Palette, game: Game, px: list[float], py: list[float],
                     s: float, viewport: Any) -> None:
        """x numbers below the field and y numbers at its left (along the
        shown part's edges when zoomed in, on a light strip).

        They sit in the margin, a little outside the edge dots however big
        the spacing (5x5).  Where the margin is narrower than the numbers (52
        points on a phone) the font shrinks to fit it, down to 7 px, and the
        numbers are kept inside the drawing."""
        w, h = game.width, game.height  # type: ignore[attr-defined]
        step = label_step(s)
        digits = len(str(max(w, h)))
        margin = MARGIN * s
        font = max(7.0, min(13.0, 0.5 * s if step == 1 else 0.38 * s * step, (margin - 1) / (0.62 * digits)))
        offset = min(0.62 * s, DOT_RADIUS * s + 1.2 * font)
        half_width = 0.31 * font * digits
        bottom = min(max(py[1], py[h]) + offset, max(py[1], py[h]) + margin - 0.6 * font)
        left = max(min(px[1], px[w]) - offset, min(px[1], px[w]) - margin + half_width + 0.5)
        x_min, y_max = -1e9, 1e9   # labels past these would sit on the other strip
        if viewport is not None:
            vx, vy, vw, vh = viewport
            strip = font * 1.5
            if left < vx + font * 1.1:
                left = vx + font * 1.1
                x_min = vx + font * 2.6
                out.rect(vx, vy, font * 2.2, vh, p.label_back)
            if bottom > vy + vh - strip / 2:
                bottom = vy + vh - strip / 2
                y_max = bottom - strip * 0.8
                out.rect(vx, bottom - strip / 2, vw, strip, p.label_back)
        for y in range(1, h + 1):
            if (y % step == 0 or step == 1) and py[y] < y_max:
                out.text(left, py[y], str(y), p.label, font, ALIGN_CENTER)
        for x in range(1, w + 1):
            if (x % step == 0 or step == 1) and px[x] > x_min:
                out.text(px[x], bottom, str(x), p.label, font, ALIGN_CENTER)


VIEW = DotsView()
