"""How an Abatis board looks and how taps on its queues become moves.

The picture is the position string's 12 x 12: the 8x8 board inside four
two-deep queues (N above, E right, S below, W left; the corners empty),
with the next three stack chips in a row underneath.  Ten chip colours
must be told apart by everyone, so each colour also carries its own
symbol (dot, triangle, square, star, diamond, plus, ring, cross, hexagon,
bars), always drawn, in both themes.  The tray is a mid-dark tone so that
pale chips and the black chip alike reach 3:1 against it
(``CONTRAST_PAIRS``, checked by the palette test).  A pointer chip shows
an arrow reaching out of its rim in the direction it slides.

Taps: a queue chip plays its lane.  In Classic and Knockout both chips of
a lane make the lane's one move; in Mixed the inner chip shoots Classic
(``Nd``) and the outer one Knockout (``Nd*``).  A lane that cannot be
shot gives no move; board cells are not tappable.  The keyboard cursor
walks the whole picture, board cells included, so a screen-reader player
can read the board (``AbatisUI.describe_cell`` words the cells); Enter on a
queue chip plays it.  Cursor cells are a board index (int) or a queue
place ``(side, lane, depth)``, as the adapter names them.

``ViewState.highlights`` keys: ``hint`` (the Hint button's move), ``cursor`` (keyboard cursor), ``animation``
(a ``core.animation.Frame`` of ``animation.move_timeline``), ``show_last``.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import cos, pi, sin
from typing import Any, Union

from ...core.animation import Timeline, fade
from ...core.contrast import GRAPHICS, TEXT
from ...core.draw import ALIGN_CENTER, ALIGN_RIGHT, DrawList
from ...core.game import Game
from ...core.grid import Grid
from ...core.view import BoardView, TapResult, ViewState
from ...i18n import t
from .animation import (LEVEL, PICTURE, PREVIEW_X, REMOVE, STRIP_Y, Phase, cell_point, current, move_timeline,
                        queue_point)
from .geometry import CELLS, COLUMNS, LANES, PATHS, SIZE
from .rules import KNOCKOUT_FLAG

Place = Union[int, tuple[int, int, int]]
"""A board cell (0-63) or a queue place ``(side, lane, depth)``."""

MARGIN = 0.5
"""Room around the picture for the lane names, in cells."""
SPAN_X = PICTURE + 2 * MARGIN
SPAN_Y = MARGIN + STRIP_Y + 0.8
CHIP = 0.41
"""Chip radius in cells."""
UP, DOWN, LEFT, RIGHT = 1, 2, 3, 4
POINTER_VECTORS = {UP: (0.0, -1.0), DOWN: (0.0, 1.0), LEFT: (-1.0, 0.0), RIGHT: (1.0, 0.0)}
SYMBOLS = ("dot", "triangle", "square", "star", "diamond", "plus", "ring", "cross", "hexagon", "bars")
"""The mark on each colour's chips (colour 1 = red .. 10 = black), told apart by shape alone."""


@dataclass(frozen=True)
class Palette:
    """Colours of one theme; ``chips`` and ``marks`` are indexed by colour - 1."""

    board: str = "#3d6660"
    frame: str = "#c9dcd6"
    grid: str = "rgba(255, 255, 255, 0.13)"
    label: str = "#eef5f2"
    chips: tuple[str, ...] = ("#ff9a8a", "#8fe07a", "#a0b4ff", "#fff060", "#e0a6ff",
                              "#ffa94a", "#6fe8e8", "#ff8fd0", "#ffffff", "#000000")
    marks: tuple[str, ...] = ("#1b1b1b",) * 9 + ("#ffffff",)
    pointer_edge: str = "#ffffff"
    playable: str = "#ffffff"
    last_move: str = "#ffc061"
    last_band: str = "rgba(255, 255, 255, 0.09)"
    cursor: str = "#8fe3ff"
    ghost: str = "#ffffff"
    badge: str = "rgba(12, 16, 20, 0.86)"
    badge_text: str = "#ffffff"
    scrim: str = "rgba(8, 12, 16, 0.62)"
    level_text: str = "#ffffff"


LIGHT = Palette()
DARK = Palette(board="#575d66", frame="#d2d6dc", grid="rgba(255, 255, 255, 0.12)", label="#f1f3f5")
PALETTES = {"light": LIGHT, "dark": DARK}
CONTRAST_PAIRS: tuple[tuple[str, str, float], ...] = (
    ("frame", "board", GRAPHICS),
    ("label", "board", TEXT),
    ("pointer_edge", "board", GRAPHICS),
    ("playable", "board", GRAPHICS),
    ("last_move", "board", GRAPHICS),
    ("cursor", "board", GRAPHICS),
    ("ghost", "board", GRAPHICS),
)
"""Palette fields that must stand out from what they sit on; the chips and
their marks are checked colour by colour."""


PICTURE_GRID = Grid(SPAN_X, SPAN_Y, MARGIN, MARGIN)
"""The picture in cells (``core.grid``)."""


def geometry(width: float, height: float) -> tuple[float, float, float]:
    """(x, y) of the picture's top-left corner and the cell size."""
    return PICTURE_GRID.fit(width, height)


def place_point(place: Place) -> tuple[float, float]:
    """Centre of a place in cell units from the picture's corner."""
    if isinstance(place, tuple):
        return queue_point(*place)
    return cell_point(place)


def _build_grid() -> dict[tuple[int, int], Place]:
    grid: dict[tuple[int, int], Place] = {}
    for cell in range(CELLS):
        x, y = cell_point(cell)
        grid[int(x), int(y)] = cell
    for side in range(4):
        for lane in range(LANES):
            for depth in (0, 1):
                x, y = queue_point(side, lane, depth)
                grid[int(x), int(y)] = (side, lane, depth)
    return grid


GRID: dict[tuple[int, int], Place] = _build_grid()
"""Picture square (column, row from the top) to the place drawn there."""
QUEUE_PLACES: tuple[tuple[int, int, int], ...] = tuple(p for p in GRID.values() if isinstance(p, tuple))


def place_center(place: Place, width: float, height: float) -> tuple[float, float]:
    left, top, s = geometry(width, height)
    x, y = place_point(place)
    return left + x * s, top + y * s


def queue_tuple(queue_place: int) -> tuple[int, int, int]:
    """An engine queue place number as ``(side, lane, depth)``."""
    return queue_place // (2 * LANES), (queue_place // 2) % LANES, queue_place % 2


def move_of_place(game: Game, place: Any) -> int | None:
    """The move a tap on ``place`` makes, or None (a board cell, a closed lane)."""
    if not (isinstance(place, tuple) and len(place) == 3):
        return None
    side, lane, depth = place
    move = side * LANES + lane
    if depth and game.mode == "mixed":  # type: ignore[attr-defined]
        move += KNOCKOUT_FLAG
    return move if game.is_legal(move) else None


def stop_cell(game: Game, move: int) -> int | None:
    """Where the shot chip of ``move`` comes to rest before any block or slide."""
    path = PATHS[move % KNOCKOUT_FLAG]
    board = game.board  # type: ignore[attr-defined]
    first = next((i for i, cell in enumerate(path) if board[cell]), None)
    if first is None:
        return None
    if game.pushes(move):  # type: ignore[attr-defined]
        return path[first]
    return path[first - 1] if first > 0 else None


class AbatisView(BoardView):
    keys_hint = "board.keys.abatis"

    def __init__(self, palettes: dict[str, Palette] | None = None) -> None:
        self.palettes = dict(PALETTES if palettes is None else palettes)

    def palette_for(self, theme: str) -> Palette:
        return self.palettes.get(theme) or LIGHT

    # ----- geometry ---------------------------------------------------------------
    def aspect(self, game: Game) -> float:
        return SPAN_X / SPAN_Y

    @staticmethod
    def geometry(width: float, height: float) -> tuple[float, float, float]:
        return geometry(width, height)

    def cell_at(self, game: Game, state: ViewState, width: float, height: float,
                x: float, y: float) -> Place | None:
        found = PICTURE_GRID.cell_at(width, height, x, y, 10 ** 6, 10 ** 6)   # ``GRID`` names the places
        return None if found is None else GRID.get(found)

    @staticmethod
    def point_center(game: Game, cell: Place, width: float, height: float,
                     flipped: bool = False) -> tuple[float, float]:
        return place_center(cell, width, height)

    @staticmethod
    def step_cell(cell: Place, dx: int, dy: int, flipped: bool = False) -> Place:
        """One square on in the picture; an empty corner or the edge keeps the cursor."""
        x, y = place_point(cell)
        return GRID.get((int(x) + dx, int(y) + dy), cell)

    @staticmethod
    def initial_cursor(game: Game, state: ViewState) -> Place:
        """The last move's chip, else the first lane that can be shot, else Na."""
        last = game.move_stack[-1] if game.move_stack else None
        if isinstance(last, int):
            return AbatisView.move_cell(game, last) or (0, 0, 0)
        moves = game.legal_moves()
        return AbatisView.move_cell(game, moves[0]) if moves else (0, 0, 0)  # type: ignore[return-value]

    @staticmethod
    def selection_cursor(selected: Any) -> None:
        return None   # Abatis never selects: a tap shoots at once

    @staticmethod
    def selection_valid(game: Game, selected: Any) -> bool:
        return False

    @staticmethod
    def move_cell(game: Game, move: Any) -> tuple[int, int, int] | None:
        """The queue chip that makes ``move`` (the outer one for ``Nd*``)."""
        if not isinstance(move, int) or not 0 <= move < 2 * KNOCKOUT_FLAG:
            return None
        lane_index = move % KNOCKOUT_FLAG
        return lane_index // LANES, lane_index % LANES, 1 if move >= KNOCKOUT_FLAG else 0

    # ----- taps -------------------------------------------------------------------
    def tap(self, game: Game, state: ViewState, cell: Any) -> TapResult:
        if not state.interactive or game.is_over():
            return TapResult(selected=None)
        return TapResult(selected=None, move=move_of_place(game, cell))

    @staticmethod
    def move_animation(game: Game, move: Any, emphasis: bool = False) -> Timeline:
        """How ``move`` (just played on ``game``) animates (``animation.py``)."""
        return move_timeline(game, move, emphasis)

    # ----- drawing ----------------------------------------------------------------
    def draw(self, game: Game, state: ViewState, out: DrawList) -> None:
        p = self.palette_for(state.theme)
        if min(out.width, out.height) < 2 * SPAN_X:
            return
        left, top, s = geometry(out.width, out.height)

        def at(point: tuple[float, float]) -> tuple[float, float]:
            return left + point[0] * s, top + point[1] * s

        out.round_rect(left - MARGIN * s, top - MARGIN * s, SPAN_X * s, SPAN_Y * s, 0.3 * s, p.board)
        self._draw_grid(out, left, top, s, p)
        if state.coordinates:
            self._draw_labels(out, left, top, s, p)

        playing = current(state.highlights.get("animation"))
        last = state.last_move if state.highlights.get("show_last", True) else None
        if playing is None and isinstance(last, int):
            self._draw_lane(out, last % KNOCKOUT_FLAG, at, s, p)
        elif playing is not None and playing[0].lane >= 0:
            self._draw_lane(out, playing[0].lane, at, s, p)

        radius = CHIP * s
        if playing is None:
            board, queues, preview = game.board, game.queues, tuple(game.preview())  # type: ignore[attr-defined]
            self._draw_still(out, board, queues, at, radius, s, p)
            self._draw_preview(out, preview, at, radius, s, p)
            if state.interactive and not game.is_over():
                self._draw_playable(out, game, state, at, radius, s, p)
            hint = state.highlights.get("hint")
            if isinstance(hint, int) and game.is_legal(hint):
                self._draw_hint(out, game, hint, at, radius, s, p)
        else:
            self._draw_phase(out, playing[0], playing[1], at, radius, s, p)

        cursor = state.highlights.get("cursor")
        if state.interactive and cursor is not None and cursor in GRID.values():
            x, y = at(place_point(cursor))
            half = 0.47 * s
            out.rect_stroke(x - half, y - half, 2 * half, 2 * half, p.cursor, max(2.0, 0.08 * s))

    def _draw_grid(self, out: DrawList, left: float, top: float, s: float, p: Palette) -> None:
        x0, y0 = left + 2 * s, top + 2 * s
        thin = max(0.75, 0.025 * s)
        for i in range(1, SIZE):
            out.line(x0, y0 + i * s, x0 + SIZE * s, y0 + i * s, p.grid, thin)
            out.line(x0 + i * s, y0, x0 + i * s, y0 + SIZE * s, p.grid, thin)
        out.rect_stroke(x0, y0, SIZE * s, SIZE * s, p.frame, max(1.5, 0.05 * s))

    @staticmethod
    def _draw_labels(out: DrawList, left: float, top: float, s: float, p: Palette) -> None:
        """Lane names around the queues, as the moves write them (Nd, W4)."""
        font = max(7.0, 0.34 * s)
        for i in range(SIZE):
            x = left + (2.5 + i) * s
            out.text(x, top - MARGIN * s * 0.45, COLUMNS[i], p.label, font, ALIGN_CENTER)
            out.text(x, top + (PICTURE + MARGIN * 0.45) * s, COLUMNS[i], p.label, font, ALIGN_CENTER)
            y = top + (9.5 - i) * s
            out.text(left - MARGIN * s * 0.5, y, str(i + 1), p.label, font, ALIGN_CENTER)
            out.text(left + (PICTURE + MARGIN * 0.5) * s, y, str(i + 1), p.label, font, ALIGN_CENTER)

    @staticmethod
    def _draw_lane(out: DrawList, lane_index: int, at: Any, s: float, p: Palette) -> None:
        """The last move's lane: a band from its queue across the board."""
        side, lane = divmod(lane_index, LANES)
        outer = at(queue_point(side, lane, 1))
        far = at(cell_point(PATHS[lane_index][-1]))
        x1, x2 = sorted((outer[0], far[0]))
        y1, y2 = sorted((outer[1], far[1]))
        half = 0.5 * s
        out.rect(x1 - half, y1 - half, x2 - x1 + 2 * half, y2 - y1 + 2 * half, p.last_band)
        out.rect_stroke(x1 - half, y1 - half, x2 - x1 + 2 * half, y2 - y1 + 2 * half, p.last_move,
                        max(1.5, 0.05 * s))

    def _draw_still(self, out: DrawList, board: Any, queues: Any, at: Any, radius: float, s: float,
                    p: Palette, skip: frozenset[int] = frozenset()) -> None:
        for cell in range(CELLS):
            value = board[cell]
            if value and cell not in skip:
                x, y = at(cell_point(cell))
                self.draw_chip(out, x, y, radius, value & 15, value >> 4, p)
        for place in QUEUE_PLACES:
            side, lane, depth = place
            colour = queues[(side * LANES + lane) * 2 + depth]
            if colour:
                x, y = at(queue_point(side, lane, depth))
                self.draw_chip(out, x, y, radius, colour, 0, p)

    def _draw_preview(self, out: DrawList, preview: tuple[int, ...], at: Any, radius: float, s: float,
                      p: Palette) -> None:
        x, y = at((PREVIEW_X[0] - 0.62, STRIP_Y))
        out.text(x, y, t("abatis.view.next"), p.label, max(7.0, 0.34 * s), ALIGN_RIGHT)
        for index, colour in enumerate(preview[:3]):
            cx, cy = at((PREVIEW_X[index], STRIP_Y))
            self.draw_chip(out, cx, cy, radius * (1.0 if index == 0 else 0.78), colour, 0, p)

    def _draw_playable(self, out: DrawList, game: Game, state: ViewState, at: Any, radius: float, s: float,
                       p: Palette) -> None:
        """Rings round the chips that shoot (inner ones; in Mixed also outer
        ones for Knockout) and, under the cursor, where the chip would stop."""
        width = max(1.5, 0.06 * s)
        for move in game.legal_moves():
            place = self.move_cell(game, move)
            if place is None:
                continue
            x, y = at(queue_point(*place))
            out.circle_stroke(x, y, radius + 0.055 * s, p.playable, width)
        cursor = state.highlights.get("cursor")
        if isinstance(cursor, tuple):
            move = move_of_place(game, cursor)
            stop = stop_cell(game, move) if move is not None else None
            if stop is not None:
                x, y = at(cell_point(stop))
                out.circle_stroke(x, y, radius * 0.8, p.ghost, width)
                out.circle(x, y, max(1.5, 0.07 * s), p.ghost)

    def _draw_hint(self, out: DrawList, game: Game, move: int, at: Any, radius: float, s: float,
                   p: Palette) -> None:
        """The Hint button's move: a thick ring on the chip to click and a
        dot where it would stop (Classic)."""
        place = self.move_cell(game, move)
        if place is None:
            return
        x, y = at(queue_point(*place))
        width = max(2.5, 0.11 * s)
        out.circle_stroke(x, y, radius + 0.12 * s, p.cursor, width)
        stop = stop_cell(game, move)
        if stop is not None:
            sx, sy = at(cell_point(stop))
            out.circle_stroke(sx, sy, radius * 0.8, p.cursor, width)

    def _draw_phase(self, out: DrawList, phase: Phase, share: float, at: Any, radius: float, s: float,
                    p: Palette) -> None:
        """One frame of a move's animation: the phase's still picture, then what moves."""
        if phase.kind == LEVEL:
            old = share < 0.5
            board, queues = (phase.board, phase.queues) if old else (phase.after_board, phase.after_queues)
            self._draw_still(out, board, queues, at, radius, s, p)
            self._draw_preview(out, phase.preview if old else phase.after_preview, at, radius, s, p)
            self._draw_level(out, phase, share, at, s, p)
            return
        if phase.kind == REMOVE:
            vanishing = frozenset(cell for cells, _, _ in phase.blocks for cell in cells)
            self._draw_still(out, phase.board, phase.queues, at, radius, s, p, vanishing)
            self._draw_preview(out, phase.preview, at, radius, s, p)
            size = max(0.0, 1.0 - min(1.0, share / 0.7))
            for cell in vanishing:
                value = phase.board[cell]
                if size > 0 and value:
                    x, y = at(cell_point(cell))
                    self.draw_chip(out, x, y, radius * size, value & 15, value >> 4, p, size)
            for cells, _, points in phase.blocks:
                self._draw_badge(out, cells, points, share, at, s, p)
            return
        self._draw_still(out, phase.board, phase.queues, at, radius, s, p)
        self._draw_preview(out, phase.after_preview if share >= 0.75 else phase.preview, at, radius, s, p)
        for chain in phase.chains:
            x, y = at(chain.point(share))
            size = chain.size(share)
            if size > 0:
                self.draw_chip(out, x, y, radius * size, chain.colour, chain.pointer, p)

    @staticmethod
    def _draw_badge(out: DrawList, cells: tuple[int, ...], points: int, share: float, at: Any, s: float,
                    p: Palette) -> None:
        """"+4" over a block as it goes, rising a little."""
        xs, ys = zip(*(cell_point(cell) for cell in cells))
        x, y = at((sum(xs) / len(xs), sum(ys) / len(ys) - 0.4 * share))
        alpha = min(1.0, share / 0.15)
        text = f"+{points}"
        w, h = (0.36 + 0.24 * len(text)) * s, 0.56 * s
        out.round_rect(x - w / 2, y - h / 2, w, h, h / 2, fade(p.badge, alpha))
        out.text(x, y, text, fade(p.badge_text, alpha), 0.38 * s, ALIGN_CENTER, bold=True)

    @staticmethod
    def _draw_level(out: DrawList, phase: Phase, share: float, at: Any, s: float, p: Palette) -> None:
        """The bonus and the new level's number over a veil that comes and goes."""
        alpha = max(0.0, min(1.0, share / 0.15, (1.0 - share) / 0.15))
        x0, y0 = at((2.0, 2.0))
        out.rect(x0, y0, SIZE * s, SIZE * s, fade(p.scrim, alpha))
        cx, cy = at((6.0, 6.0))
        colour = fade(p.level_text, alpha)
        if phase.bonus:
            out.text(cx, cy - 0.8 * s, f"+{phase.bonus}", colour, 0.8 * s, ALIGN_CENTER, bold=True)
        out.text(cx, cy + 0.5 * s, t("abatis.view.level", level=phase.level + 1), colour, 0.75 * s, ALIGN_CENTER,
                 bold=True)

    # ----- chips ------------------------------------------------------------------
    def draw_chip(self, out: DrawList, x: float, y: float, radius: float, colour: int, pointer: int,
                  p: Palette, alpha: float = 1.0) -> None:
        """A chip: its colour, a rim and its colour's symbol in the mark colour, and its pointer."""
        if not 1 <= colour <= len(p.chips) or radius <= 0:
            return
        fill, mark = p.chips[colour - 1], p.marks[colour - 1]
        if alpha < 1.0:
            fill, mark = fade(fill, alpha), fade(mark, alpha)
        out.circle(x, y, radius, fill)
        out.circle_stroke(x, y, radius, mark, max(0.75, 0.07 * radius))
        draw_symbol(out, SYMBOLS[colour - 1], x, y, radius * (0.4 if pointer else 0.46), mark)
        vector = POINTER_VECTORS.get(pointer)
        if vector is not None:
            edge = p.pointer_edge if alpha >= 1.0 else fade(p.pointer_edge, alpha)
            dx, dy = vector
            base, tip, half = 0.58 * radius, 1.3 * radius, 0.36 * radius
            points = [(x + dx * tip, y + dy * tip),
                      (x + dx * base - dy * half, y + dy * base + dx * half),
                      (x + dx * base + dy * half, y + dy * base - dx * half)]
            out.polygon(points, mark)
            out.polyline(points + [points[0]], edge, max(0.75, 0.07 * radius))


def draw_symbol(out: DrawList, name: str, x: float, y: float, k: float, colour: str) -> None:
    """A colour's symbol, about ``2k`` across, centred on (x, y)."""
    if name == "dot":
        out.circle(x, y, 0.78 * k, colour)
    elif name == "triangle":
        out.polygon([(x, y - k), (x + 0.95 * k, y + 0.7 * k), (x - 0.95 * k, y + 0.7 * k)], colour)
    elif name == "square":
        out.rect(x - 0.72 * k, y - 0.72 * k, 1.44 * k, 1.44 * k, colour)
    elif name == "star":
        out.polygon(_star(x, y, 1.08 * k, 0.45 * k), colour)
    elif name == "diamond":
        out.polygon([(x, y - 1.05 * k), (x + 0.75 * k, y), (x, y + 1.05 * k), (x - 0.75 * k, y)], colour)
    elif name == "plus":
        out.rect(x - 0.9 * k, y - 0.25 * k, 1.8 * k, 0.5 * k, colour)
        out.rect(x - 0.25 * k, y - 0.9 * k, 0.5 * k, 1.8 * k, colour)
    elif name == "ring":
        out.circle_stroke(x, y, 0.68 * k, colour, 0.34 * k)
    elif name == "cross":
        out.line(x - 0.7 * k, y - 0.7 * k, x + 0.7 * k, y + 0.7 * k, colour, 0.42 * k)
        out.line(x - 0.7 * k, y + 0.7 * k, x + 0.7 * k, y - 0.7 * k, colour, 0.42 * k)
    elif name == "hexagon":
        out.polygon([(x + 0.9 * k * cos(pi / 3 * i), y + 0.9 * k * sin(pi / 3 * i)) for i in range(6)], colour)
    elif name == "bars":
        out.rect(x - 0.85 * k, y - 0.62 * k, 1.7 * k, 0.44 * k, colour)
        out.rect(x - 0.85 * k, y + 0.18 * k, 1.7 * k, 0.44 * k, colour)


def _star(x: float, y: float, outer: float, inner: float) -> list[tuple[float, float]]:
    points = []
    for i in range(10):
        r = outer if i % 2 == 0 else inner
        angle = -pi / 2 + i * pi / 5
        points.append((x + r * cos(angle), y + r * sin(angle)))
    return points


VIEW = AbatisView
