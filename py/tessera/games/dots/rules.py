"""Dots (sport rules of the Russian dots federation, 2017): the Game.

The field mechanics (captures, houses, landing, undo) live in ``field``;
this module adds turn order, options, notation, the game's end and the
queries the view needs.  RULINGS.md fixes what the document leaves open.

Coordinates.  The document's ``x-y``: 1-based, x from the left, y from the
bottom (``20-17``).  A move is an int: the field cell ``y * (width + 2) + x``
for a dot, or ``LAND`` (-1) for declaring landing.  ``game.cell(x, y)`` and
``game.xy(move)`` convert; the view's queries take and give ``(x, y)``.

Start (option ``start``).  The single cross of Art. 4.3 has its lower-left
dot at ``(cx, cy) = ((width + 1) // 2, (height + 1) // 2)``: blue on
``(cx, cy + 1)`` and ``(cx + 1, cy)``, red on ``(cx, cy)`` and
``(cx + 1, cy + 1)``; on 39x32 that is blue 20-17, 21-16 and red 20-16,
21-17 as the document says (20x20: blue 10-11, 11-10; 30x30: blue 15-16,
16-15).  ``four_crosses`` puts the same cross 6 points left, right, up and
down of that one (lower-left dots at ``cx -+ 6, cy`` and ``cx, cy -+ 6``).
With ``setup`` (a position string, see ``position``) the string decides
the start and ``start`` is ignored; ``size`` must match it.

Sizes (option ``size``).  ``WxH`` for any width and height from 5 to 52,
what SGF's letters a-z A-Z can name: 39x32 is the default, 30x30 and 20x20
are the dialog's presets, any other is a custom size (records from other
programs, a custom game).  The four crosses need 16x16 or more, so that
every cross keeps a free line between it and the edge; a smaller field with
``four_crosses`` is refused (``normalize_options``), and the new-game dialog
greys that choice out.

Landing as a move.  ``land`` is legal for the player to move at any time
while the game goes on (8.3), so ``push`` accepts it; ``legal_moves``
lists it only when it would end the game with the declarer winning, the
only time a player gains by it.  Random playouts use ``placements()``
or ``random_fill`` and never land.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar, Mapping

from ...core.game import CustomValue, Game, NotationError, OptionSpec, Outcome, PositionError, excerpt
from ...i18n import Message
from ...core.rng import SeededRandom
from . import position as position_codec
from .field import EMPTY_CELL, OFF, Field

BLUE, RED = 0, 1
NONE = -1
LAND = -1
SIZES = {"39x32": (39, 32), "30x30": (30, 30), "20x20": (20, 20)}
"""The presets; any ``WxH`` within ``MIN_SIDE``..``MAX_SIDE`` is valid too."""
MIN_SIDE, MAX_SIDE = 5, 52
"""52 is what SGF's point letters (a-z, A-Z) can name; below 5 there is no game."""
CUSTOM_SIZE = CustomValue(("width", "height"), MIN_SIDE, MAX_SIDE, "x")
FOUR_CROSSES_MIN_SIDE = 16
"""The four crosses sit 6 points from the centre; from 16 up each keeps a free line to the edge."""
STARTS = ("cross", "four_crosses", "empty")
CROSS_OFFSETS = ((0, 0),)
FOUR_CROSS_OFFSETS = ((-6, 0), (6, 0), (0, 6), (0, -6))
TYPED_POINT = re.compile(r"\(?\s*(\d{1,3})\s*(?:[-\u2010-\u2015\u2212,;:x\u00d7]|\s)\s*(\d{1,3})\s*\)?")
"""A point as people type it (lower-cased first): two numbers with a dash of
any kind, a comma, a colon, an x or spaces between, maybe in brackets."""


def field_size(size: str) -> tuple[int, int]:
    """``(width, height)`` of a size option (``"39x32"``); PositionError if it is not one."""
    if size in SIZES:
        return SIZES[size]
    width, height = CUSTOM_SIZE.parse(size)
    return width, height


def cross_points(width: int, height: int, start: str) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Blue and red start points (x, y) for a start option (see docstring)."""
    if start == "empty":
        return [], []
    cx, cy = (width + 1) // 2, (height + 1) // 2
    offsets = CROSS_OFFSETS if start == "cross" else FOUR_CROSS_OFFSETS
    blue, red = [], []
    for dx, dy in offsets:
        x, y = cx + dx, cy + dy
        blue += [(x, y + 1), (x + 1, y)]
        red += [(x, y), (x + 1, y + 1)]
    return blue, red


LAND_WORDS = frozenset({"заземление", "заземлить", "заземлиться", "земля"})
"""Landing typed in Russian (the record still writes ``land``)."""


class Dots(Game):
    """A Dots position with its move history."""

    game_id: ClassVar[str] = "dots"
    num_players: ClassVar[int] = 2
    seat_names: ClassVar[tuple[str, ...]] = ("blue", "red")
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("size", "39x32", tuple(SIZES), CUSTOM_SIZE),
        OptionSpec("start", "cross", STARTS),
    )

    @classmethod
    def normalize_options(cls, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """The generic checks, then: four crosses need a field of 16x16 or more."""
        result = super().normalize_options(options)
        if result["start"] == "four_crosses":
            width, height = field_size(result["size"])
            if min(width, height) < FOUR_CROSSES_MIN_SIDE:
                raise PositionError("error.dots.four_crosses", min=f"{FOUR_CROSSES_MIN_SIDE}x{FOUR_CROSSES_MIN_SIDE}",
                                    size=f"{width}x{height}")
        return result

    # ----- state -------------------------------------------------------------
    def _init_state(self, setup: str | None) -> None:
        width, height = field_size(self.options["size"])
        self._legal_cache: list[int] | None = None
        """Valid for the current position only: every push and pop clears it."""
        if setup is None:
            field = Field(width, height)
            blue, red = cross_points(width, height, self.options["start"])
            for player, points in ((BLUE, blue), (RED, red)):
                for x, y in points:
                    field.dot[field.cell(x, y)] = player + 1
            field.rebuild()
            self.field = field
            self._to_move = BLUE
            self.landed: int | None = None
        else:
            self.field, self._to_move, self.landed = position_codec.decode(setup, width, height)

    @property
    def width(self) -> int:
        return self.field.width

    @property
    def height(self) -> int:
        return self.field.height

    @property
    def to_move(self) -> int:
        return self._to_move

    def scores(self) -> tuple[int, int]:
        return self.field.score[0], self.field.score[1]

    # ----- coordinates and queries for the view ------------------------------
    def cell(self, x: int, y: int) -> int:
        """The move placing a dot on ``x-y`` (1-based, y from the bottom)."""
        if not (1 <= x <= self.width and 1 <= y <= self.height):
            raise NotationError("error.dots.off_field", point=f"{x}-{y}", size=f"{self.width}x{self.height}",
                                width=self.width, height=self.height)
        return self.field.cell(x, y)

    def xy(self, move: int) -> tuple[int, int]:
        return self.field.xy(move)

    def point_state(self, x: int, y: int) -> tuple[int, int]:
        """``(dot, region)`` of a point: dot BLUE, RED or NONE; region is the
        player whose region holds the point (excluded), or NONE."""
        c = self.field.cell(x, y)
        return self.field.dot[c] - 1, self.field.owner[c] - 1

    def is_free(self, x: int, y: int) -> bool:
        return self.field.is_free(self.field.cell(x, y))

    def regions(self) -> list[dict[str, Any]]:
        """Every region in the order made: ``owner`` (who made it), ``holder``
        (who holds it now: the owner, or whoever surrounded it since) and
        ``chain``, its points (x, y) in order, to paint as a polygon."""
        field = self.field
        result = []
        for region in field.regions:
            chain = region.chain(field.stride)
            holder = field.owner[chain[0]] - 1 if chain else -1
            result.append({"owner": region.player,
                           "holder": region.player if holder < 0 else holder,
                           "chain": [field.xy(c) for c in chain]})
        return result

    def houses(self) -> list[dict[str, Any]]:
        """Houses now (5.12): areas closed by one player's live dots, outside
        any region; ``points`` are (x, y).  Computed from scratch."""
        field = self.field
        result = []
        for player in (BLUE, RED):
            enclosed = field.enclosed(player)
            cells = [c for c in field.cells if enclosed[c] and not field.owner[c]]
            for group in field.components(cells):
                result.append({"owner": player, "points": [field.xy(c) for c in group]})
        return result

    @property
    def last_move(self) -> int | None:
        return self.move_stack[-1] if self.move_stack else None

    def free_count(self) -> int:
        return self.field.free

    # ----- moves -------------------------------------------------------------
    def placements(self) -> list[int]:
        """Every free point (no landing): what random playouts choose from."""
        if self.is_over():
            return []
        return self.field.free_cells()

    def legal_moves(self) -> list[int]:
        if self._legal_cache is None:
            moves = self.placements()
            if moves and self._landing_wins(self._to_move):
                moves.append(LAND)
            self._legal_cache = moves
        return list(self._legal_cache)

    def _landing_wins(self, player: int) -> bool:
        after = self.field.scores_after_landing(player)
        return after[player] > after[1 - player]

    def is_legal(self, move: Any) -> bool:
        if not isinstance(move, int) or isinstance(move, bool) or self.is_over():
            return False
        return move == LAND or self.field.is_free(move)

    def _apply(self, move: int) -> None:
        self._legal_cache = None
        if move == LAND:
            self.field.land(self._to_move)
            self.landed = self._to_move
        else:
            self.field.place(move, self._to_move)
        self._to_move = 1 - self._to_move

    def _unapply(self, move: int) -> None:
        self._legal_cache = None
        self.field.undo()
        self._to_move = 1 - self._to_move
        if move == LAND:
            self.landed = None

    def random_fill(self, rng: SeededRandom, max_moves: int | None = None) -> int:
        """Play uniformly random placements until the field is full (or
        ``max_moves``); returns how many were pushed.  A shuffled list of
        the free points, skipping those taken meanwhile, gives the same
        distribution as choosing among the free points at every move."""
        if self.is_over():
            return 0
        order = self.field.free_cells()
        rng.shuffle(order)
        dot, owner = self.field.dot, self.field.owner
        pushed = 0
        for cell in order:
            if max_moves is not None and pushed >= max_moves:
                break
            if dot[cell] or owner[cell]:
                continue
            self.push_unchecked(cell)
            pushed += 1
        return pushed

    def illegal_reason(self, move: Any) -> Message:
        if self.is_over():
            return Message("illegal.over")
        if move == LAND:
            return Message("illegal.dots.landing")
        if not isinstance(move, int) or not 0 <= move < self.field.cell_count:
            return Message("illegal.dots.not_a_move")
        if self.field.dot[move] == OFF:
            return Message("illegal.dots.off_field")
        if self.field.owner[move]:
            return Message("illegal.dots.excluded")
        if self.field.dot[move] != EMPTY_CELL:
            return Message("illegal.dots.occupied")
        return Message("illegal.generic")

    # ----- end of game -------------------------------------------------------
    def outcome(self) -> Outcome | None:
        if self.landed is not None:
            reason = "landing"
        elif self.field.free == 0:
            reason = "field_full"
        else:
            return None
        blue, red = self.field.score
        return Outcome(BLUE if blue > red else RED if red > blue else None, reason)

    def is_over(self) -> bool:
        return self.landed is not None or self.field.free == 0

    # ----- notation ----------------------------------------------------------
    def move_text(self, move: int) -> str:
        if move == LAND:
            return "land"
        x, y = self.field.xy(move)
        return f"{x}-{y}"

    def parse_move(self, text: str) -> int:
        if not isinstance(text, str):
            raise NotationError("error.move.not_text")
        cleaned = text.strip().lower()
        if cleaned == "land":
            return LAND
        parts = cleaned.split("-")
        if len(parts) != 2 or not all(p.isascii() and p.isdigit() and len(p) <= 3 for p in parts):
            raise NotationError("error.dots.notation", text=excerpt(text), example=self.move_example())
        return self.cell(int(parts[0]), int(parts[1]))

    def parse_typed(self, text: str) -> int:
        """Also ``15 15``, ``15,15``, ``15 - 15``, ``(15, 15)``, ``15x15``, any
        dash, ``LAND``, and landing in Russian words (``заземление``): a
        player typing in Russian is told they may."""
        if isinstance(text, str):
            typed = TYPED_POINT.fullmatch(text.strip().lower())
            if typed:
                return self.parse_move(f"{typed.group(1)}-{typed.group(2)}")
            if text.strip().lower() in LAND_WORDS:
                return LAND
        return super().parse_typed(text)

    def move_example(self, seat: int | None = None) -> str:
        """The point just below the start cross: on the field whatever its size, free at the start."""
        x, y = (self.width + 1) // 2, (self.height + 1) // 2 - 1
        return f"{x}-{y}"

    def position(self) -> str:
        return position_codec.encode(self.field, self._to_move, self.landed)

    def ascii(self) -> str:
        """The field as text, top row first (B/R live, b/r excluded own,
        lower-case letters as in the position string)."""
        rows = []
        field = self.field
        for y in range(self.height, 0, -1):
            row = []
            for x in range(1, self.width + 1):
                c = field.cell(x, y)
                row.append(position_codec.CHARS[(field.dot[c], field.owner[c])])
            rows.append(f"{y:>2} {''.join(row)}")
        rows.append(f"blue {field.score[0]} red {field.score[1]}")
        return "\n".join(rows)

    # ----- evaluation and copies ----------------------------------------------
    def evaluate(self, player: int) -> float:
        """The score difference, squashed into (-1, 1)."""
        diff = self.field.score[player] - self.field.score[1 - player]
        return diff / (abs(diff) + 10.0)

    def key(self) -> tuple[bytes, bytes, int, int | None]:
        """An exact key of the position for transposition tables."""
        return bytes(self.field.dot), bytes(self.field.owner), self._to_move, self.landed

    def copy(self) -> "Dots":
        """A clone of the state and history without replaying the moves."""
        clone = Dots.__new__(Dots)
        clone.options = dict(self.options)
        clone.seed = self.seed
        clone.setup = self.setup
        clone.move_stack = list(self.move_stack)
        clone._legal_cache = None
        clone._to_move = self._to_move
        clone.landed = self.landed
        clone.field = self.field.copy()
        return clone


__all__ = ["Dots", "BLUE", "RED", "NONE", "LAND", "SIZES", "STARTS", "MIN_SIDE", "MAX_SIDE",
           "FOUR_CROSSES_MIN_SIDE", "cross_points", "field_size"]
