"""Drawing the Quadrotone field: 16 x 16 large squares of 2 x 2 small squares.

The field, the chips in four colours (with a mark per colour under the
"shapes" option, for colour-blind players), the move being put together
(``compose``), the last move's chips outlined, and what the last move
scored -- each pattern outlined with its number (1, 2, 3 ... as the rules
ask) and its points, the chains and the fenced places tinted with theirs.
A move that was just played animates (``animation.py``): its chips land,
slide or turn, then what it scored shows one part after another.

The hand is drawn under the field (``tray.py``: a tray of small chips on a
wide board, a strip that opens a sheet of large chips on a phone), with a
label saying whose it is.  Which hand: ``ViewState.highlights["hand_seat"]``
(the play screen sets it through the adapter's ``view_highlights``:
against the bot always the player's, between two people the side to
move's), else the side to move's; ``hand_own`` words it "your chips".
Other highlights: ``group_hand``, ``show_last``, ``cursor``, ``animation``,
``viewport``.  Like every view it draws into a ``DrawList`` only, so the
page, the rules page and ``python3 -m tessera render`` share it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

from ...core.animation import Timeline, fade
from ...core.contrast import GRAPHICS, TEXT
from ...core.draw import ALIGN_CENTER, ALIGN_LEFT, DrawList
from ...core.hint_marks import arrow as hint_arrow
from ...core.hint_marks import hint_colour
from ...core.game import Game
from ...core.view import BoardView, TapResult, ViewState
from ...i18n import t
from .animation import CHAIN, FENCE, MARK, PATTERN, draw_moving, move_timeline, moving_squares, step_state
from .badges import place_badges
from .chips import rotate, squares
from .compose import FIELD, HAND, Draft, is_draft, occupied_after
from .compose import tap as tap_draft
from .field import COLUMNS, LARGE
from .layout import (MARGIN, STRIP, Layout, aspect_at, geometry, layout, square_center, strip_center, tray_center,
                     tray_rows)
from .notation import EXPIRED, PLACE
from .patterns import SIDE
from .rules import SQUARE_OF
from .tray import (CLOSE, OPEN, SHEET_GAP, close_sheet, held_in_sheet, is_page, open_sheet, sheet_layout,
                   sheet_open, window)

FIELD_CENTRE = (LARGE // 2 - 1) * LARGE + LARGE // 2 - 1
"""h8: where the keyboard cursor starts on an empty field."""


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


def hand_order(game: Any, seat: int, grouped: bool = False) -> list[int]:
    """The hand as the tray shows it: by chip, or grouped by how many colours a chip has."""
    chips = sorted(game.hands[seat])
    if grouped:
        chips.sort(key=lambda chip: (len(set(squares(chip))), squares(chip)))
    return chips


def hand_seat(game: Any, state: ViewState | None) -> int:
    """The seat whose hand the tray shows: ``highlights["hand_seat"]``, else the side to move."""
    seat = state.highlights.get("hand_seat") if state is not None else None
    return seat if seat in (0, 1) else game.to_move


def _draft_of(state: ViewState) -> Draft | None:
    return state.selected if is_draft(state.selected) else None


class QuadrotoneView(BoardView):
    zoomable = True
    """A 16 x 16 field of small squares is dense on a phone: zoom and pan."""

    def __init__(self, palettes: dict[str, Palette] | None = None) -> None:
        self.palettes = palettes or PALETTES
        self._badges: tuple[Any, list[Any]] | None = None
        """The last move's badge placements and what they were placed for."""

    def palette_for(self, theme: str) -> Palette:
        return self.palettes.get(theme, self.palettes["light"])

    def aspect(self, game: Game) -> float:
        return aspect_at(tray_rows(game), None)

    def aspect_at(self, game: Game, width: float) -> float:
        """From ``layout.BESIDE_MIN_WIDTH`` the hand goes beside the field: a wider board."""
        return aspect_at(tray_rows(game), width)

    @staticmethod
    def geometry(width: float, height: float) -> tuple[float, float, float]:
        return geometry(width, height)

    @staticmethod
    def geometry_for(game: Game, width: float, height: float) -> tuple[float, float, float]:
        """The field's corner and a large square's size (the board's zoom limits read the size)."""
        return geometry(width, height, tray_rows(game))

    @staticmethod
    def move_animation(game: Game, move: Any, emphasis: bool = False) -> Timeline:
        """How ``move`` (just played on ``game``) animates (``animation.py``)."""
        return move_timeline(game, move, emphasis)

    keys_hint = "board.keys.quadrotone"

    @staticmethod
    def step_cell(cell: Any, dx: int, dy: int, flipped: bool = False) -> Any:
        """The keyboard cursor moves over the large squares (row 1 at the bottom)."""
        if not isinstance(cell, int):
            return FIELD_CENTRE
        col = min(LARGE - 1, max(0, cell % LARGE + dx))
        row = min(LARGE - 1, max(0, cell // LARGE - dy))
        return row * LARGE + col

    @staticmethod
    def initial_cursor(game: Game, state: ViewState) -> int:
        """Where the last move left a chip, else the middle of the field."""
        last = getattr(game, "last_squares", ())
        return last[0] if last else FIELD_CENTRE

    @staticmethod
    def selection_cursor(selected: Any) -> int:
        """The cursor over a draft: the field chip held, else the square of its last chip."""
        if is_draft(selected):
            if selected.held is not None and selected.held[0] == FIELD:
                return selected.held[1]
            if selected.items:
                item = selected.items[-1]
                return item[2] if selected.kind == PLACE else item[1]
        return FIELD_CENTRE

    @staticmethod
    def move_cell(game: Game, move: Any) -> int | None:
        """Where an opponent's move left a chip: a zoomed field pans to show it."""
        squares_ = getattr(game, "last_squares", ())
        return squares_[0] if squares_ else None

    def cell_at(self, game: Game, state: ViewState, width: float, height: float, x: float, y: float) -> Any:
        """A large square of the field, ``("hand", chip)`` in the tray or the
        sheet, ``tray.OPEN`` on a narrow board's strip, ``tray.CLOSE``, or None."""
        rows = tray_rows(game)
        if rows and sheet_open(state.selected):
            shown = self.tray_chips(game, state)
            hit = sheet_layout(window(state, width, height), len(shown), state.selected.page).hit(x, y, len(shown))
            if isinstance(hit, int):
                return HAND, shown[hit]
            return hit if is_page(hit) else CLOSE
        found = layout(width, height, rows, window(state, width, height)[2])
        left, top, s = found.left, found.top, found.s
        if left <= x < left + LARGE * s and top <= y < top + LARGE * s:   # the field (Grid.cell_at's rule)
            return (LARGE - 1 - int((y - top) // s)) * LARGE + int((x - left) // s)
        if not rows or hand_seat(game, state) != game.to_move:
            return None
        if found.hand == STRIP:
            bx, by, bw, bh = found.strip_box(rows)
            return OPEN if bx <= x < bx + bw and by <= y < by + bh else None
        index = found.tray_index(x, y)
        if index is not None:
            shown = self.tray_chips(game, state)
            if index < len(shown):
                return (HAND, shown[index])
        return None

    def point_center(self, game: Game, cell: Any, width: float, height: float, flipped: bool = False) -> Any:
        """Where ``cell`` is drawn (a draft: its chip held on the field or its last square)."""
        rows = tray_rows(game)
        if is_draft(cell):
            held = cell.held
            square = held[1] if held is not None and held[0] == FIELD else \
                (cell.items[-1][2 if cell.kind == PLACE else 1] if cell.items else None)
            if square is None:
                left, top, s = geometry(width, height, rows)
                return left + LARGE * s / 2, top + LARGE * s / 2
            return square_center(square, width, height, rows)
        if cell in (OPEN, CLOSE):
            return strip_center(width, height, rows)
        if isinstance(cell, tuple):
            shown = self.tray_chips(game, ViewState())
            return tray_center(shown.index(cell[1]) if cell[1] in shown else 0, width, height, rows)
        return square_center(cell, width, height, rows)

    @staticmethod
    def tray_chips(game: Game, state: ViewState) -> list[int]:
        """The hand shown (``hand_seat``) in the tray's order, without the chips the draft has dropped."""
        seat = hand_seat(game, state)
        draft = state.selected if is_draft(state.selected) else Draft()
        dropped = {item[0] for item in draft.items} if draft.kind == PLACE and seat == game.to_move else set()
        grouped = bool(state.highlights.get("group_hand"))
        return [chip for chip in hand_order(game, seat, grouped) if chip not in dropped]

    @staticmethod
    def hand_label(game: Game, state: ViewState) -> str:
        """Whose chips the tray shows, and how many."""
        seat = hand_seat(game, state)
        number = len(game.hands[seat])  # type: ignore[attr-defined]
        if state.highlights.get("hand_own"):
            return t("tray.quadrotone.yours", number=number)
        return t("tray.quadrotone.of", seat=t(f"seat.{game.seat_names[seat]}.of"), number=number)

    def tap(self, game: Game, state: ViewState, cell: Any) -> TapResult:
        """Taps build the draft (``compose``); the draft bar's Play button plays it.
        On a narrow board the strip opens the sheet, and a chip taken from it closes it."""
        draft = state.selected if is_draft(state.selected) else Draft()
        if cell == OPEN:
            return TapResult(selected=open_sheet(draft))
        if is_page(cell) and sheet_open(draft):
            return TapResult(selected=replace(draft, page=cell[2]))
        if sheet_open(draft) or cell == CLOSE:
            draft = close_sheet(draft)
            if not (isinstance(cell, tuple) and len(cell) == 2 and cell[0] == HAND):
                return TapResult(selected=None if draft.empty else draft)
        following = tap_draft(game, draft, cell)
        return TapResult(selected=None if following.empty else following)

    @staticmethod
    def selection_valid(game: Game, selected: Any) -> bool:
        return is_draft(selected)

    # ----- drawing ------------------------------------------------------------------
    def draw(self, game: Game, state: ViewState, out: DrawList) -> None:
        p = self.palette_for(state.theme)
        rows = tray_rows(game)
        found = layout(out.width, out.height, rows, window(state, out.width, out.height)[2])
        left, top, s = found.left, found.top, found.s
        out.rect(0, 0, out.width, out.height, p.board)
        out.rect(left, top, LARGE * s, LARGE * s, p.empty)
        colours = [getattr(p, name) for name in COLOUR_FIELDS]
        field = game.field  # type: ignore[attr-defined]
        half = s / 2
        draft = _draft_of(state)
        frame = state.highlights.get("animation")

        def small_xy(x: int, y: int) -> tuple[float, float]:
            return left + x * half, top + (SIDE - 1 - y) * half

        changed = occupied_after(game, draft) if draft is not None else {}
        skipped = set(changed) | moving_squares(frame)
        for index, colour in enumerate(field):
            if colour and SQUARE_OF[index] not in skipped:
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
            self._draw_last(game, state, out, left, top, s, p, small_xy, frame)
        else:
            width = max(2.0, 0.12 * s)
            for square in changed:
                col, row = square % LARGE, square // LARGE
                out.rect_stroke(left + col * s, top + (LARGE - 1 - row) * s, s, s, p.selected, width)
            if draft.held is not None and draft.held[0] == FIELD:
                col, row = draft.held[1] % LARGE, draft.held[1] // LARGE
                out.rect_stroke(left + col * s - width, top + (LARGE - 1 - row) * s - width, s + 2 * width,
                                s + 2 * width, p.last_move, width)

        def centre(square: int) -> tuple[float, float]:
            return left + (square % LARGE + 0.5) * s, top + (LARGE - 1 - square // LARGE + 0.5) * s

        def paint(target: DrawList, cx: float, cy: float, size: float, look: int, angle: float) -> None:
            self.paint_chip(target, cx, cy, size, look, angle, state, p)
        draw_moving(frame, game, out, centre, s, paint)
        if found.hand == STRIP:
            self._draw_strip(game, state, out, found.strip_box(rows), p, draft)
        elif found.hand is not None:
            self._draw_tray(game, state, out, found, p, draft)
        hint = state.highlights.get("hint")
        if draft is None and hint is not None and hint != EXPIRED and game.is_legal(hint):
            self._draw_hint(game, state, out, hint, left, top, s, p)
        cursor = state.highlights.get("cursor")
        if state.interactive and isinstance(cursor, int):
            col, row = cursor % LARGE, cursor // LARGE
            out.rect_stroke(left + col * s, top + (LARGE - 1 - row) * s, s, s, p.selected, max(2.0, 0.08 * s))
        if rows and draft is not None and sheet_open(draft):
            self._draw_sheet(game, state, out, p)

    def _draw_hint(self, game: Game, state: ViewState, out: DrawList, move: Any, left: float, top: float,
                   s: float, p: Palette) -> None:
        """A suggested move (Hint, or a review's best move): each chip where it
        would lie, framed in the hint green; a chip moved has an arrow from
        where it stood."""
        colour = hint_colour(state.theme)
        width = max(2.5, 0.12 * s)

        def corner(square: int) -> tuple[float, float]:
            return left + (square % LARGE) * s, top + (LARGE - 1 - square // LARGE) * s
        kind, items = move
        for item in items:
            if kind == PLACE:
                chip, turns, square = item
                look, start = rotate(chip, turns), None
            else:
                start, square, turns = item
                look = rotate(game.chip_at(start), turns)  # type: ignore[attr-defined]
            x, y = corner(square)
            self.draw_chip(out, x, y, s, look, state, p)
            out.rect_stroke(x - width / 2, y - width / 2, s + width, s + width, colour, width)
            if start is not None and start != square:
                sx, sy = corner(start)
                hint_arrow(out, sx + s / 2, sy + s / 2, x + s / 2, y + s / 2, max(3.0, 0.16 * s), colour, s * 0.3)

    def _draw_tray(self, game: Game, state: ViewState, out: DrawList, found: Layout, p: Palette,
                   draft: Draft | None) -> None:
        """The hand as a tray of chips, beside the field or under it."""
        label_x, label_y = found.label_at
        out.text(label_x, label_y, self.hand_label(game, state), p.label, max(9.0, 0.34 * found.s), ALIGN_LEFT)
        held = draft.held if draft is not None else None
        c = found.chip
        gap = 0.06 * c
        for index, chip in enumerate(self.tray_chips(game, state)):
            cx, cy = found.tray_center(index)
            x, y = cx - c / 2, cy - c / 2
            turns = held[2] if held is not None and held[0] == HAND and held[1] == chip else 0
            self.draw_chip(out, x + gap, y + gap, c - 2 * gap, rotate(chip, turns), state, p)
            if held is not None and held[0] == HAND and held[1] == chip:
                out.rect_stroke(x, y, c, c, p.last_move, max(2.0, 0.16 * c))

    def _draw_strip(self, game: Game, state: ViewState, out: DrawList, box: tuple[float, float, float, float],
                    p: Palette, draft: Draft | None) -> None:
        """A narrow board's hand: whose chips and how many, the chip held, "tap to choose"."""
        x, y, w, h = box
        pad = min(6.0, h * 0.12)
        out.round_rect(x, y + pad / 2, w, h - pad, pad * 1.5, p.edge)
        out.round_rect(x + 1.5, y + pad / 2 + 1.5, w - 3, h - pad - 3, pad * 1.5, p.empty)
        size = h - 3 * pad
        cx, cy = x + pad + size / 2 + 2, y + h / 2
        held = draft.held if draft is not None else None
        if held is not None and held[0] == HAND:
            self.draw_chip(out, cx - size / 2, cy - size / 2, size, rotate(held[1], held[2]), state, p)
            out.rect_stroke(cx - size / 2 - 2, cy - size / 2 - 2, size + 4, size + 4, p.last_move, 2.0)
        else:   # three chips of the hand, fanned: the hand is here
            shown = self.tray_chips(game, state)[:3]
            small = size * 0.62
            for index, chip in enumerate(shown):
                shift = (index - (len(shown) - 1) / 2) * small * 0.42
                self.draw_chip(out, cx - small / 2 + shift, cy - small / 2 + shift * 0.45, small, chip, state, p)
        text_x = cx + size / 2 + pad * 1.6
        font = max(11.0, min(15.0, h * 0.27))
        out.text(text_x, cy - font * 0.62, self.hand_label(game, state), p.label, font, ALIGN_LEFT, True)
        if hand_seat(game, state) == game.to_move and state.interactive:
            out.text(text_x, cy + font * 0.68, t("tray.quadrotone.open"), p.label, font * 0.85, ALIGN_LEFT)

    def _draw_sheet(self, game: Game, state: ViewState, out: DrawList, p: Palette) -> None:
        """The hand as large chips over the part of the field on screen, a page at a time."""
        shown = self.tray_chips(game, state)
        layout = sheet_layout(window(state, out.width, out.height), len(shown), state.selected.page)
        out.rect(layout.x, layout.y, layout.width, layout.height, p.board)
        out.rect_stroke(layout.x + 1, layout.y + 1, layout.width - 2, layout.height - 2, p.edge, 2.0)
        cx, cy, r = layout.close_box
        out.text(layout.title_x, cy, self.hand_label(game, state), p.label, 15.0, ALIGN_LEFT, True)
        out.circle_stroke(cx, cy, r, p.edge, 2.0)
        out.line(cx - r * 0.4, cy - r * 0.4, cx + r * 0.4, cy + r * 0.4, p.label, 2.0)
        out.line(cx - r * 0.4, cy + r * 0.4, cx + r * 0.4, cy - r * 0.4, p.label, 2.0)
        c = layout.chip
        gap = SHEET_GAP * c
        held = held_in_sheet(state.selected)
        for index in layout.shown(len(shown)):
            chip = shown[index]
            x, y = layout.center(index)
            turns = held[1] if held is not None and held[0] == chip else 0
            self.draw_chip(out, x - c / 2 + gap, y - c / 2 + gap, c - 2 * gap, rotate(chip, turns), state, p)
            if turns or (held is not None and held[0] == chip):
                out.rect_stroke(x - c / 2 + 1, y - c / 2 + 1, c - 2, c - 2, p.last_move, max(2.0, 0.08 * c))
        buttons = layout.page_buttons()
        if buttons is not None:   # ‹ page k of n ›
            for (bx, by, bw, bh), enabled, sign in zip(buttons, (layout.page > 0, layout.page < layout.pages - 1),
                                                        (-1, 1)):
                out.round_rect(bx, by, bw, bh, 8.0, p.edge if enabled else p.inner)
                out.round_rect(bx + 1.5, by + 1.5, bw - 3, bh - 3, 7.0, p.empty)
                mx, my, arm = bx + bw / 2, by + bh / 2, bh * 0.2
                out.polyline([(mx - sign * arm * 0.6, my - arm), (mx + sign * arm * 0.6, my),
                              (mx - sign * arm * 0.6, my + arm)], p.label if enabled else p.inner, 3.0)
            out.text(layout.x + layout.width / 2, buttons[0][1] + buttons[0][3] / 2,
                     t("tray.quadrotone.page", page=layout.page + 1, pages=layout.pages), p.label, 14.0,
                     ALIGN_CENTER)

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

    def paint_chip(self, out: DrawList, cx: float, cy: float, size: float, look: int, angle: float,
                   state: ViewState, p: Palette) -> None:
        """A chip centred at (cx, cy) turned ``angle`` degrees clockwise (an animation's)."""
        if size <= 0:
            return
        if abs(angle) < 0.01:
            self.draw_chip(out, cx - size / 2, cy - size / 2, size, look, state, p)
            return
        cos_a, sin_a = math.cos(math.radians(angle)), math.sin(math.radians(angle))
        half = size / 2

        def at(x: float, y: float) -> tuple[float, float]:
            return cx + x * cos_a - y * sin_a, cy + x * sin_a + y * cos_a
        colours = [getattr(p, name) for name in COLOUR_FIELDS]
        for (dx, dy), colour in zip(((-1, -1), (0, -1), (0, 0), (-1, 0)), squares(look)):
            x0, y0 = dx * half, dy * half
            out.polygon([at(x0, y0), at(x0 + half, y0), at(x0 + half, y0 + half), at(x0, y0 + half)],
                        colours[colour])
            if state.shapes:
                mx, my = at(x0 + half / 2, y0 + half / 2)
                self._mark(out, MARKS[colour], mx, my, half, p.yellow_mark if colour == 3 else p.mark)
        corners = [at(-half, -half), at(half, -half), at(half, half), at(-half, half), at(-half, -half)]
        out.polyline(corners, p.edge, max(0.8, 0.04 * size))

    def _draw_last(self, game: Game, state: ViewState, out: DrawList, left: float, top: float, s: float,
                   p: Palette, small_xy: Any, frame: Any = None) -> None:
        """What the last move scored; while it animates, each part once its step has begun."""
        if not state.highlights.get("show_last", True) or not game.move_stack:
            return
        half = s / 2
        chains, fence = getattr(game, "last_regions", ([], None))
        shown = step_state(frame, FENCE) if fence is not None and fence.points else None
        if shown is not None:
            tint = p.fence_tint if shown >= 1 else fade(p.fence_tint, shown)
            for index in fence.cells:
                x, y = small_xy(index % SIDE, index // SIDE)
                out.rect(x, y, half, half, tint)
        for number, chain in enumerate(chains):
            shown = step_state(frame, CHAIN, number)
            if shown is None:
                continue
            tint = p.chain_tint if shown >= 1 else fade(p.chain_tint, shown)
            for index in chain.cells:
                x, y = small_xy(index % SIDE, index // SIDE)
                out.rect(x + half * 0.3, y + half * 0.3, half * 0.4, half * 0.4, tint)
        shown = step_state(frame, MARK)
        if shown is not None:
            colour = p.last_move if shown >= 1 else fade(p.last_move, shown)
            for square in getattr(game, "last_squares", ()):
                col, row = square % LARGE, square // LARGE
                out.rect_stroke(left + col * s, top + (LARGE - 1 - row) * s, s, s, colour, max(2.0, 0.1 * s))
        radius = max(5.0, 0.3 * s)
        scored_parts = list(enumerate(getattr(game, "last_scored", ()), 1))
        regions = [(CHAIN, number, chain.cells, chain.points) for number, chain in enumerate(chains)]
        if fence is not None and fence.points:
            regions.append((FENCE, None, fence.cells, fence.points))
        labels = [(str(number), f"+{scored.points}", sorted(scored.occurrence.cells(), key=lambda c: (-c[1], c[0])))
                  for number, scored in scored_parts]
        labels += [(None, f"+{points}", sorted(((i % SIDE, i // SIDE) for i in cells), key=lambda c: (-c[1], c[0])))
                   for _, _, cells, points in regions]
        blocked = {SQUARE_OF[y * SIDE + x] for _, scored in scored_parts for x, y in scored.occurrence.cells()}
        blocked.update(getattr(game, "last_squares", ()))
        key = (game.ply, tuple(scored.occurrence.key for _, scored in scored_parts), tuple(blocked), left, top, s)
        if self._badges is None or self._badges[0] != key:   # placed once, drawn each frame of the animation
            self._badges = (key, place_badges(labels, left, top, s, blocked, radius))
        placed = self._badges[1]
        for number, scored in scored_parts:
            shown = step_state(frame, PATTERN, number - 1)
            if shown is None:
                continue
            cells = scored.occurrence.cells()
            colour = p.scored if shown >= 1 else fade(p.scored, min(1.0, shown * 1.6))
            for cx, cy in cells:   # each square's outer sides: the pattern's outline
                sx, sy = small_xy(cx, cy)
                for dx, dy, x1, y1, x2, y2 in ((0, 1, 0, 0, 1, 0), (0, -1, 0, 1, 1, 1),
                                               (-1, 0, 0, 0, 0, 1), (1, 0, 1, 0, 1, 1)):
                    if (cx + dx, cy + dy) not in cells:
                        out.line(sx + x1 * half, sy + y1 * half, sx + x2 * half, sy + y2 * half, colour,
                                 max(1.5, 0.08 * s))
            self._draw_placed(out, placed[number - 1], radius * min(1.0, 0.35 + shown), p)
        for index, (kind, target, _, _) in enumerate(regions):   # chains and the fence: their points, no number
            shown = step_state(frame, kind, target)
            if shown is not None:
                self._draw_placed(out, placed[len(scored_parts) + index], radius * min(1.0, 0.35 + shown), p)

    def _draw_placed(self, out: DrawList, placed: tuple[float, float, str | None, str | None] | None,
                     radius: float, p: Palette) -> None:
        if placed is not None:
            x, y, number, points = placed
            self._label(out, x, y, radius, number, points, p)

    @staticmethod
    def _label(out: DrawList, cx: float, cy: float, radius: float, number: str | None, points: str | None,
               p: Palette) -> None:
        """A dark pill with ``points``, after a circled ``number`` when there is one
        (only the circle when ``points`` is None: no room for them)."""
        if points is None:
            out.circle(cx, cy, radius, p.number_fill)
            out.text(cx, cy, number or "", p.number_text, radius * 1.3, ALIGN_CENTER, True)
            return
        pill = radius * (0.75 * len(points) + 0.6)
        if number is None:
            out.round_rect(cx - radius * 0.8, cy - radius * 0.8, pill + radius * 0.8, radius * 1.6, radius * 0.8,
                           p.number_fill)
            out.text(cx - radius * 0.8 + (pill + radius * 0.8) / 2, cy, points, p.number_text, radius * 1.1,
                     ALIGN_CENTER, True)
            return
        out.round_rect(cx, cy - radius * 0.8, radius + pill, radius * 1.6, radius * 0.8, p.number_fill)
        out.circle(cx, cy, radius, p.number_fill)
        out.text(cx, cy, number, p.number_text, radius * 1.3, ALIGN_CENTER, True)
        out.text(cx + radius + pill / 2, cy, points, p.number_text, radius * 1.1, ALIGN_CENTER, True)

    @staticmethod
    def _mark(out: DrawList, kind: str, x: float, y: float, size: float, colour: str) -> None:
        if kind == "dot":
            out.circle(x, y, size * 0.16, colour)
        elif kind == "bar":
            out.rect(x - size * 0.28, y - size * 0.07, size * 0.56, size * 0.14, colour)
        elif kind == "ring":
            out.circle_stroke(x, y, size * 0.22, colour, max(0.8, size * 0.08))


VIEW = QuadrotoneView
