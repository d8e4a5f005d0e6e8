"""Quadrature (Mark Steere, 1992): the rules engine.

The board is 11x11 points; a point is ``sq = row * 11 + col`` with col 0..10
= a..k and row 0..10 = ranks 1..11.  Each side is one 121-bit int, so a row
of a side is ``(bits >> row * 11) & 0x7FF``: rectangle tests become a few
mask operations instead of loops over pieces.

RULINGS.md fixes what the document leaves open: White starts on b9-j9 and
moves down, Black on b3-j3 and moves up; a rectangle has two distinct x and
two distinct y; suicide is tested before any conversion; conversions go one
at a time in a1..k11 order, each using a reserve checker, recomputed after
each; wins are checked after every move in the ruled order.

Aggressive moves
----------------
A move is aggressive when it converts at least one enemy checker, and a
conversion needs a reserve checker to put in the squared checker's place.
So a move that squares an enemy checker while the mover's reserve is empty
converts nothing and is *not* aggressive: sideways, it raises the marker,
and with the marker at 2 it is illegal.  ``first_conversions`` is the one
place that says which checkers a move starts converting; the move
generator, ``illegal_reason`` and ``_convert`` (hence the marker update in
``_apply``) all ask it, so they cannot disagree.

Set-up positions
----------------
A position string (``setup``) must describe a position the rules can
reach, as far as its counts and its ending show; anything else is refused
with a ``PositionError`` saying what is wrong:

* each side has at most 16 checkers on the board (its reserve is 16 minus
  that, never negative), and together exactly 18: the game starts with 9
  and 9, and a conversion swaps one checker for one, so the total never
  changes.  Hence the reserves add up to 14, each side has at least 2, and
  a reserve is empty only when the other side is down to 2: "conversion
  stops when the reserve is empty" and "the opponent then has 2 and has
  lost" are the same event;
* a side with 2 checkers has lost on its opponent's last move, so it must
  be that side's turn (it is a finished game);
* the side to move does not already hold 3 points of the opponent's home
  plate: its own last move would have won the game;
* the markers are 0, 1 or 2 and the ply count 0 to 400.  They are taken as
  declared and not checked against each other: a set-up is a position, not
  a history (a puzzle may start at ply 0 with a marker of 2), and the ply
  count only times the 400-ply draw.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from ...core.game import (Game, NotationError, OptionSpec,
                          Outcome, PositionError, excerpt, validate_setup_rows)
from ...i18n import Message

SIZE = 11
POINTS = SIZE * SIZE
ROW_MASK = (1 << SIZE) - 1
CHECKERS_PER_SIDE = 16
START_TOTAL = 18                  # 9 + 9 on the board; conversions keep the total
PLY_LIMIT = 400

WHITE, BLACK, EMPTY = 0, 1, -1
SIDE_CHARS = "wb"
FORWARD = (-1, 1)                 # row step of White (down) and Black (up)
START_ROWS = (8, 2)               # b9-j9 and b3-j3
HOME_PLATE_ROW = (10, 0)          # White's plate e11-g11, Black's e1-g1
PLATE_COLS_MASK = 0b1110000       # columns e, f, g
PLATES = tuple(PLATE_COLS_MASK << (row * SIZE) for row in HOME_PLATE_ROW)
"""``PLATES[p]`` is the bitboard of player p's own home plate."""

Bitboard = int
Square = int
QMove = int


def square(col: int, row: int) -> Square:
    return row * SIZE + col


def square_name(sq: Square) -> str:
    return "abcdefghijk"[sq % SIZE] + str(sq // SIZE + 1)


def parse_square(text: str) -> Square:
    if not 2 <= len(text) <= 3 or text[0] not in "abcdefghijk" or not (text[1:].isascii() and text[1:].isdigit()):
        raise NotationError("error.quadrature.not_point", text=excerpt(text))
    row = int(text[1:]) - 1
    if not 0 <= row < SIZE or text[1] == "0":
        raise NotationError("error.quadrature.not_point", text=excerpt(text))
    return square("abcdefghijk".index(text[0]), row)


def make_move(frm: Square, to: Square) -> QMove:
    return (frm << 7) | to


def move_from(move: QMove) -> Square:
    return move >> 7


def move_to(move: QMove) -> Square:
    return move & 0x7F


def _bits(mask: int):
    """Indices of the set bits, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _build_steps() -> tuple[tuple[tuple[tuple[Square, bool], ...], ...], ...]:
    """``STEPS[player][sq]``: (target, is_sideways) for every step on the board."""
    steps = []
    for player in (WHITE, BLACK):
        dy = FORWARD[player]
        per_square = []
        for sq in range(POINTS):
            col, row = sq % SIZE, sq // SIZE
            targets = []
            for dx, ddy in ((0, dy), (-1, dy), (1, dy), (-1, 0), (1, 0)):
                c, r = col + dx, row + ddy
                if 0 <= c < SIZE and 0 <= r < SIZE:
                    targets.append((square(c, r), ddy == 0))
            per_square.append(tuple(targets))
        steps.append(tuple(per_square))
    return tuple(steps)


STEPS = _build_steps()


def _rows(bits: Bitboard) -> list[int]:
    return [(bits >> (r * SIZE)) & ROW_MASK for r in range(SIZE)]


def completes_rectangle(rows: list[int], col: int, row: int) -> bool:
    """Would a checker at (col, row) be the fourth corner of a rectangle
    whose other three corners are set in ``rows`` (one side's row masks)?"""
    across = rows[row] & ~(1 << col)
    if not across:
        return False
    bit = 1 << col
    for r in range(SIZE):
        if r != row and rows[r] & bit and rows[r] & across:
            return True
    return False


def squared_by(mine: list[int], theirs: list[int], col: int, row: int) -> int:
    """Enemy checkers squared through my checker at (col, row).

    Returns a bitboard of the enemy points E such that E, my checker at
    (col, row) and two more of my checkers are the corners of a rectangle.
    The three cases are where E sits relative to my checker: in its row, in
    its column, or diagonally opposite.
    """
    found = 0
    bit = 1 << col
    my_row = mine[row]
    # E diagonally opposite: (ex, ey) with mine at (col, ey) and (ex, row).
    # E in my row: (ex, row) with mine at (col, y2) and (ex, y2).
    enemy_in_row = theirs[row]
    for r in range(SIZE):
        if r == row:
            continue
        mine_r = mine[r]
        if mine_r & bit:
            diagonal = theirs[r] & my_row & ~bit
            if diagonal:
                found |= diagonal << (r * SIZE)
            same_row = enemy_in_row & mine_r & ~bit
            if same_row:
                found |= same_row << (row * SIZE)
        # E in my column: (col, r) with mine at (x2, row) and (x2, r).
        if theirs[r] & bit and mine_r & my_row & ~bit:
            found |= bit << (r * SIZE)
    return found


def first_conversions(mine: list[int], theirs: list[int], moved_to: Square, reserve: int) -> Bitboard:
    """The enemy checkers a move to ``moved_to`` starts converting.

    ``mine`` are the mover's rows after the move, ``reserve`` the mover's
    checkers off the board.  These are the enemy checkers the moved checker
    squares, or none when the reserve is empty: a conversion puts a reserve
    checker in the squared checker's place, so without one nothing turns.
    A move is aggressive exactly when this is not empty; the generator,
    ``illegal_reason`` and ``_convert`` all decide it here.
    """
    if reserve <= 0:
        return 0
    return squared_by(mine, theirs, moved_to % SIZE, moved_to // SIZE)


def reserve_of(bits: Bitboard) -> int:
    """Checkers of a side that are off the board (16 in all per side)."""
    return CHECKERS_PER_SIDE - bits.bit_count()


class Quadrature(Game):
    """A Quadrature position with its move history."""

    game_id: ClassVar[str] = "quadrature"
    num_players: ClassVar[int] = 2
    seat_names: ClassVar[tuple[str, ...]] = ("white", "black")
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("first", "white", ("white", "black")),
    )

    # ----- state -------------------------------------------------------------
    def _init_state(self, setup: str | None) -> None:
        self._undo: list[tuple[Any, ...]] = []
        self._legal_cache: list[QMove] | None = None
        self._outcome_cache: tuple[int, Outcome | None] | None = None
        self._converted: list[Square] = []
        if setup is None:
            self.sides = [start_bits(WHITE), start_bits(BLACK)]
            self.markers = [0, 0]
            self._to_move = WHITE if self.options["first"] == "white" else BLACK
            self.start_ply = 0
        else:
            self._load_position(setup)

    def _load_position(self, text: str) -> None:
        if not isinstance(text, str):
            raise PositionError("error.position.not_text")
        parts = text.split()
        if len(parts) != 5:
            raise PositionError("error.quadrature.position_fields")
        rows = parts[0].split("/")
        if len(rows) != SIZE:
            raise PositionError("error.quadrature.position_rows", size=SIZE, count=len(rows))
        validate_setup_rows(rows, SIZE, ".wb")
        sides = [0, 0]
        for index, text_row in enumerate(rows):
            row = SIZE - 1 - index
            for col, char in enumerate(text_row):
                if char != ".":
                    sides[SIDE_CHARS.index(char)] |= 1 << square(col, row)
        if parts[1] not in ("w", "b"):
            raise PositionError("error.quadrature.position_side", value=excerpt(parts[1]))
        try:
            markers = [int(parts[2]), int(parts[3])]
            ply = int(parts[4])
        except ValueError:
            raise PositionError("error.quadrature.position_numbers") from None
        if not all(0 <= m <= 2 for m in markers):
            raise PositionError("error.quadrature.position_markers")
        if not 0 <= ply <= PLY_LIMIT:
            raise PositionError("error.quadrature.position_ply", limit=PLY_LIMIT)
        to_move = SIDE_CHARS.index(parts[1])
        problem = setup_problem(sides, to_move)
        if problem:
            raise PositionError(problem.key, **problem.params)
        self.sides = sides
        self.markers = markers
        self._to_move = to_move
        self.start_ply = ply

    @property
    def to_move(self) -> int:
        return self._to_move

    @property
    def total_ply(self) -> int:
        """Plies since the game's start, including those before ``setup``."""
        return self.start_ply + len(self.move_stack)

    def piece_at(self, sq: Square) -> int:
        if self.sides[WHITE] >> sq & 1:
            return WHITE
        if self.sides[BLACK] >> sq & 1:
            return BLACK
        return EMPTY

    def counts(self) -> tuple[int, int]:
        return self.sides[WHITE].bit_count(), self.sides[BLACK].bit_count()

    def reserves(self) -> tuple[int, int]:
        white, black = self.counts()
        return CHECKERS_PER_SIDE - white, CHECKERS_PER_SIDE - black

    def scores(self) -> tuple[int, ...]:
        return self.counts()

    def last_converted(self) -> list[Square]:
        return list(self._converted)

    # ----- moves -------------------------------------------------------------
    def legal_moves(self) -> list[QMove]:
        if self._legal_cache is None:
            over = self._terminal_before_moves() is not None or self.total_ply >= PLY_LIMIT
            self._legal_cache = [] if over else self._generate()
        return list(self._legal_cache)

    def _has_move(self) -> bool:
        """Whether any legal move exists (the end-of-game test at every
        search leaf needs no more than the first one).  Alpha-beta and the
        greedy bot gain ~35%; a random playout, which asks for the full list
        right after, pays ~5% for the extra partial generation."""
        return bool(self._generate(first_only=True))

    def _generate(self, first_only: bool = False) -> list[QMove]:
        """The legal moves in board order; with ``first_only`` at most one.

        A plain loop that appends, not a generator: full generation is the
        random playouts' hot path, where a generator costs about 9%."""
        player = self._to_move
        mine_bits, theirs_bits = self.sides[player], self.sides[1 - player]
        occupied = mine_bits | theirs_bits
        theirs = _rows(theirs_bits)
        mine = None
        marker_full = self.markers[player] == 2
        reserve = reserve_of(mine_bits)
        steps = STEPS[player]
        moves: list[QMove] = []
        for frm in _bits(mine_bits):
            for to, sideways in steps[frm]:
                if occupied >> to & 1:
                    continue
                col, row = to % SIZE, to // SIZE
                if completes_rectangle(theirs, col, row):
                    continue
                if sideways and marker_full:
                    if mine is None:
                        mine = _rows(mine_bits)
                    if not self._converts(mine, theirs, frm, to, reserve):
                        continue
                moves.append((frm << 7) | to)
                if first_only:
                    return moves
        return moves

    @staticmethod
    def _converts(mine: list[int], theirs: list[int], frm: Square, to: Square, reserve: int) -> bool:
        """Is moving frm -> to aggressive: does it convert at least one
        enemy checker?  (``mine`` are the rows before the move.)"""
        moved = list(mine)
        moved[frm // SIZE] &= ~(1 << (frm % SIZE))
        moved[to // SIZE] |= 1 << (to % SIZE)
        return first_conversions(moved, theirs, to, reserve) != 0

    def moves_from(self, sq: Square) -> list[QMove]:
        return [m for m in self.legal_moves() if m >> 7 == sq]

    def is_legal(self, move: Any) -> bool:
        return isinstance(move, int) and move in self.legal_moves()

    def _apply(self, move: QMove) -> None:
        player = self._to_move
        enemy = 1 - player
        frm, to = move >> 7, move & 0x7F
        self._undo.append((self.sides[WHITE], self.sides[BLACK], self.markers[player],
                           self._converted, self._legal_cache, self._outcome_cache))
        mine_bits = (self.sides[player] & ~(1 << frm)) | (1 << to)
        theirs_bits = self.sides[enemy]
        converted = self._convert(player, mine_bits, theirs_bits, to)
        if converted:
            gained = 0
            for sq in converted:
                gained |= 1 << sq
            mine_bits |= gained
            theirs_bits &= ~gained
        self.sides[player], self.sides[enemy] = mine_bits, theirs_bits
        sideways = frm // SIZE == to // SIZE
        aggressive = bool(converted)  # non-empty exactly when first_conversions was
        self.markers[player] = self.markers[player] + 1 if sideways and not aggressive else 0
        self._converted = converted
        self._to_move = enemy
        self._legal_cache = None
        self._outcome_cache = None

    @staticmethod
    def _convert(player: int, mine_bits: Bitboard, theirs_bits: Bitboard, moved_to: Square) -> list[Square]:
        """Conversions of one move, one at a time in a1..k11 order.

        Every checker that is moved or converted in this move is "added", so
        rectangles through it convert; a candidate stays convertible once
        found (conversion never removes the mover's checkers), so the set of
        candidates only grows and the lowest point is taken each time.
        """
        mine, theirs = _rows(mine_bits), _rows(theirs_bits)
        reserve = reserve_of(mine_bits)
        candidates = first_conversions(mine, theirs, moved_to, reserve)
        converted: list[Square] = []
        while candidates and reserve > 0:
            low = candidates & -candidates
            sq = low.bit_length() - 1
            candidates ^= low
            col, row = sq % SIZE, sq // SIZE
            theirs[row] &= ~(1 << col)
            mine[row] |= 1 << col
            reserve -= 1
            converted.append(sq)
            candidates |= squared_by(mine, theirs, col, row)
        return converted

    def _unapply(self, move: QMove) -> None:
        self._to_move = 1 - self._to_move
        (white, black, marker, self._converted, self._legal_cache,
         self._outcome_cache) = self._undo.pop()
        self.sides[WHITE], self.sides[BLACK] = white, black
        self.markers[self._to_move] = marker

    # ----- end of game -------------------------------------------------------
    def _terminal_before_moves(self) -> Outcome | None:
        """The checks that come before "the player to move has no move"."""
        mover = 1 - self._to_move
        if self.sides[self._to_move].bit_count() <= 2:
            return Outcome(mover, "annihilation")
        if (self.sides[mover] & PLATES[self._to_move]).bit_count() >= 3:
            return Outcome(mover, "home_plate")
        return None

    def outcome(self) -> Outcome | None:
        ply = len(self.move_stack)
        if self._outcome_cache is not None and self._outcome_cache[0] == ply:
            return self._outcome_cache[1]
        result = self._terminal_before_moves()
        if result is None:
            at_limit = self.total_ply >= PLY_LIMIT
            # At the limit legal_moves() is empty, yet "no legal move loses"
            # is checked first, so look at the moves the rules would allow.
            cached = None if at_limit else self._legal_cache
            if not (cached if cached is not None else self._has_move()):
                result = Outcome(1 - self._to_move, "no_moves")
            elif at_limit:
                result = Outcome(None, "ply_limit")
        self._outcome_cache = (ply, result)
        return result

    def copy(self) -> "Quadrature":
        """A clone of the state and history without replaying the moves."""
        clone = Quadrature(self.options, self.seed, self.setup)
        clone.sides = list(self.sides)
        clone.markers = list(self.markers)
        clone._to_move = self._to_move
        clone.move_stack = list(self.move_stack)
        clone._undo = list(self._undo)
        clone._converted = self._converted
        clone._legal_cache = self._legal_cache
        clone._outcome_cache = self._outcome_cache
        return clone

    def illegal_reason(self, move: QMove) -> Message:
        """Why a move is illegal, in the terms a player would use."""
        if self.is_over():
            return Message("illegal.over")
        frm, to = move >> 7, move & 0x7F
        player = self._to_move
        if not 0 <= frm < POINTS or not 0 <= to < POINTS:
            return Message("illegal.off_board")
        owner = self.piece_at(frm)
        if owner == EMPTY:
            return Message("illegal.no_checker", square=square_name(frm))
        if owner != player:
            return Message("illegal.not_yours", square=square_name(frm))
        step = next((s for t, s in STEPS[player][frm] if t == to), None)
        if step is None:
            return Message("illegal.step")
        if self.piece_at(to) != EMPTY:
            return Message("illegal.occupied", square=square_name(to))
        theirs = _rows(self.sides[1 - player])
        if completes_rectangle(theirs, to % SIZE, to // SIZE):
            return Message("illegal.suicide")
        mine_bits = self.sides[player]
        reserve = reserve_of(mine_bits)
        if step and self.markers[player] == 2 and not self._converts(
                _rows(mine_bits), theirs, frm, to, reserve):
            if reserve == 0:
                return Message("illegal.marker_no_reserve")
            return Message("illegal.marker")
        return Message("illegal.generic")

    # ----- notation ----------------------------------------------------------
    def move_text(self, move: QMove) -> str:
        return f"{square_name(move >> 7)}-{square_name(move & 0x7F)}"

    def parse_move(self, text: str) -> QMove:
        if not isinstance(text, str):
            raise NotationError("error.move.not_text")
        parts = text.strip().lower().split("-")
        if len(parts) != 2:
            raise NotationError("error.quadrature.notation", text=excerpt(text), example=self.move_example())
        return make_move(parse_square(parts[0]), parse_square(parts[1]))

    def parse_typed(self, text: str) -> QMove:
        """Also ``E9-E8``, ``e9e8``, ``e9 e8``, ``e9–e8`` (any dash), spaces around."""
        if isinstance(text, str):
            typed = TYPED_MOVE.fullmatch(text.strip().lower())
            if typed:
                return self.parse_move(f"{typed.group(1)}-{typed.group(2)}")
        return super().parse_typed(text)

    def move_example(self, seat: int | None = None) -> str:
        """The side's first step from the middle of its row (White down, Black up)."""
        side = self.to_move if seat is None else seat
        return "e3-e4" if side == BLACK else "e9-e8"

    def position(self) -> str:
        rows = []
        for row in range(SIZE - 1, -1, -1):
            cells = []
            for col in range(SIZE):
                cells.append(".wb"[self.piece_at(square(col, row)) + 1])
            rows.append("".join(cells))
        return (f"{'/'.join(rows)} {SIDE_CHARS[self._to_move]} "
                f"{self.markers[WHITE]} {self.markers[BLACK]} {self.total_ply}")

    def key(self) -> tuple[int, int, int, int, int]:
        """A cheap exact key of the position for transposition tables."""
        return (self.sides[WHITE], self.sides[BLACK], self._to_move,
                self.markers[WHITE], self.markers[BLACK])

    def ascii(self) -> str:
        """The board as text, White's side on top, for the command line."""
        lines = []
        for row in range(SIZE - 1, -1, -1):
            cells = []
            for col in range(SIZE):
                piece = self.piece_at(square(col, row))
                if piece == WHITE:
                    cells.append("w")
                elif piece == BLACK:
                    cells.append("b")
                elif row in HOME_PLATE_ROW and PLATE_COLS_MASK >> col & 1:
                    cells.append(",")
                else:
                    cells.append(".")
            lines.append(f"{row + 1:>2} {' '.join(cells)}")
        lines.append("   " + " ".join("abcdefghijk"))
        white_res, black_res = self.reserves()
        lines.append(f"White: {self.counts()[0]} on board, reserve {white_res}, marker {self.markers[WHITE]}")
        lines.append(f"Black: {self.counts()[1]} on board, reserve {black_res}, marker {self.markers[BLACK]}")
        return "\n".join(lines)

    # ----- evaluation --------------------------------------------------------
    def evaluate(self, player: int) -> float:
        """Material first, then progress towards the enemy home plate.

        Material is what decides the game (conversions snowball); progress
        breaks ties and pulls the bot towards the plate win.
        """
        mine_bits, theirs_bits = self.sides[player], self.sides[1 - player]
        material = mine_bits.bit_count() - theirs_bits.bit_count()
        progress = _progress(mine_bits, player) - _progress(theirs_bits, 1 - player)
        value = 0.07 * material + 0.004 * progress
        return max(-0.99, min(0.99, value))


def _progress(bits: Bitboard, player: int) -> int:
    """Rows advanced, summed, plus a bonus near the enemy home plate."""
    total = 0
    goal_row = HOME_PLATE_ROW[1 - player]
    for sq in _bits(bits):
        row, col = sq // SIZE, sq % SIZE
        distance = abs(goal_row - row)
        total += 10 - distance
        if distance <= 2 and 3 <= col <= 7:
            total += 3 - distance
    return total


def setup_problem(sides: list[Bitboard], to_move: int) -> Message | None:
    """Why a set-up position cannot occur in a game, or None if it can.

    The rules are only coherent on the positions they can reach: with more
    than 18 checkers a side's reserve can run dry while its opponent still
    has 3 or more, and a sideways move that squares would then convert
    nothing.  The module docstring lists the conditions and why.
    """
    names = ("white", "black")

    def side(player: int) -> dict[str, Message]:
        return {"side": Message(f"seat.{names[player]}"), "side_of": Message(f"seat.{names[player]}.of")}

    counts = [bits.bit_count() for bits in sides]
    for player in (WHITE, BLACK):
        if counts[player] > CHECKERS_PER_SIDE:
            return Message("error.quadrature.setup_too_many",
                           {**side(player), "count": counts[player], "limit": CHECKERS_PER_SIDE})
    total = counts[WHITE] + counts[BLACK]
    if total != START_TOTAL:
        return Message("error.quadrature.setup_total",
                       {"count": total, "white": counts[WHITE], "black": counts[BLACK], "total": START_TOTAL})
    for player in (WHITE, BLACK):
        if counts[player] <= 2 and player != to_move:
            return Message("error.quadrature.setup_beaten",
                           {**side(player), "count": counts[player],
                            "other_of": Message(f"seat.{names[1 - player]}.of")})
    plate = (sides[to_move] & PLATES[1 - to_move]).bit_count()
    if plate >= 3:
        return Message("error.quadrature.setup_plate",
                       {**side(to_move), "other_of": Message(f"seat.{names[1 - to_move]}.of")})
    return None


TYPED_MOVE = re.compile(r"([a-k](?:1[01]|[1-9]))\s*[-\u2010-\u2015\u2212\s]?\s*([a-k](?:1[01]|[1-9]))")
"""A move as people type it (lower-cased first): two points, with a dash of
any kind (hyphen, en dash, em dash, minus), spaces or nothing between."""


def start_bits(player: int) -> Bitboard:
    """b..j on the player's start row."""
    return (0b01111111110) << (START_ROWS[player] * SIZE)
