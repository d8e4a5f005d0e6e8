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
"""

from __future__ import annotations

from typing import Any, ClassVar

from ...core.game import (Game, NotationError, OptionSpec,
                          Outcome, PositionError, validate_setup_rows)

SIZE = 11
POINTS = SIZE * SIZE
ROW_MASK = (1 << SIZE) - 1
CHECKERS_PER_SIDE = 16
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
    if len(text) < 2 or text[0] not in "abcdefghijk" or not (text[1:].isascii() and text[1:].isdigit()):
        raise NotationError(f"{text!r} is not a point (a1 to k11)")
    row = int(text[1:]) - 1
    if not 0 <= row < SIZE or text[1] == "0":
        raise NotationError(f"{text!r} is not a point (a1 to k11)")
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
            raise PositionError("a position must be a string")
        parts = text.split()
        if len(parts) != 5:
            raise PositionError("a Quadrature position has 5 fields: rows, side, two markers, ply")
        rows = parts[0].split("/")
        if len(rows) != SIZE:
            raise PositionError(f"a Quadrature position has {SIZE} rows, not {len(rows)}")
        validate_setup_rows(rows, SIZE, ".wb")
        sides = [0, 0]
        for index, text_row in enumerate(rows):
            row = SIZE - 1 - index
            for col, char in enumerate(text_row):
                if char != ".":
                    sides[SIDE_CHARS.index(char)] |= 1 << square(col, row)
        if parts[1] not in ("w", "b"):
            raise PositionError(f"the side to move must be w or b, not {parts[1]!r}")
        try:
            markers = [int(parts[2]), int(parts[3])]
            ply = int(parts[4])
        except ValueError:
            raise PositionError("markers and ply must be whole numbers") from None
        if not all(0 <= m <= 2 for m in markers):
            raise PositionError("markers must be 0, 1 or 2")
        if not 0 <= ply <= PLY_LIMIT:
            raise PositionError(f"the ply count must be from 0 to {PLY_LIMIT}")
        for player in (WHITE, BLACK):
            count = sides[player].bit_count()
            if count > CHECKERS_PER_SIDE:
                raise PositionError(f"{self.seat_names[player]} has {count} checkers; at most {CHECKERS_PER_SIDE}")
        self.sides = sides
        self.markers = markers
        self._to_move = SIDE_CHARS.index(parts[1])
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
                    if not self._converts(mine, theirs, frm, to):
                        continue
                moves.append((frm << 7) | to)
                if first_only:
                    return moves
        return moves

    @staticmethod
    def _converts(mine: list[int], theirs: list[int], frm: Square, to: Square) -> bool:
        """Does moving frm -> to square at least one enemy checker?"""
        moved = list(mine)
        moved[frm // SIZE] &= ~(1 << (frm % SIZE))
        moved[to // SIZE] |= 1 << (to % SIZE)
        return squared_by(moved, theirs, to % SIZE, to // SIZE) != 0

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
        self.markers[player] = self.markers[player] + 1 if sideways and not converted else 0
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
        candidates = squared_by(mine, theirs, moved_to % SIZE, moved_to // SIZE)
        reserve = CHECKERS_PER_SIDE - mine_bits.bit_count()
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

    def explain_illegal(self, move: QMove) -> str:
        """Why a move is illegal, in the terms a player would use."""
        if self.is_over():
            return "the game is over"
        frm, to = move >> 7, move & 0x7F
        player = self._to_move
        if not 0 <= frm < POINTS or not 0 <= to < POINTS:
            return "the point is off the board"
        owner = self.piece_at(frm)
        if owner == EMPTY:
            return f"there is no checker on {square_name(frm)}"
        if owner != player:
            return f"the checker on {square_name(frm)} is not yours"
        step = next((s for t, s in STEPS[player][frm] if t == to), None)
        if step is None:
            return "a checker moves one point forward, diagonally forward or sideways"
        if self.piece_at(to) != EMPTY:
            return f"{square_name(to)} is occupied"
        theirs = _rows(self.sides[1 - player])
        if completes_rectangle(theirs, to % SIZE, to // SIZE):
            return "suicide: it completes a rectangle of enemy checkers"
        if step and self.markers[player] == 2:
            return "your marker shows 2: a sideways move must convert"
        return "it is not legal here"

    # ----- notation ----------------------------------------------------------
    def move_text(self, move: QMove) -> str:
        return f"{square_name(move >> 7)}-{square_name(move & 0x7F)}"

    def parse_move(self, text: str) -> QMove:
        if not isinstance(text, str):
            raise NotationError("a move must be text")
        parts = text.strip().lower().split("-")
        if len(parts) != 2:
            raise NotationError(f"{text!r} is not a move: write from-to, like b9-b8")
        return make_move(parse_square(parts[0]), parse_square(parts[1]))

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


def start_bits(player: int) -> Bitboard:
    """b..j on the player's start row."""
    return (0b01111111110) << (START_ROWS[player] * SIZE)
