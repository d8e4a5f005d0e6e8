"""Corners: place pieces, capture rectangles of your own pieces at any angle.

The rules document (seeds/004, in Russian) and RULINGS.md "Corners": an 8x8
board, circles (``o``, the side that moves first) and triangles (``t``).  A
turn is one action: place a piece on an empty cell (``d4``) or capture a
rectangle whose four corners are your own pieces, painted or not
(``xa1c1c3a3``, corners in any order on input, written in the canonical
order of ``geometry``).  A capture paints the four corners and fills every
empty cell whose centre lies in the closed rectangle with a new unpainted
piece of yours; enemy pieces inside stay, painted pieces stay painted, and
a capture must change something (paint a corner or fill a cell).  A score
is the number of your painted pieces.

While a cell is empty a placement is always possible, so the side to move
always has a move.  As soon as no cell is empty (after a placement or a
capture) the final round starts: each player, the one to move first, gets
exactly one more turn, a capture that paints at least one corner (nothing
can be filled then) or ``pass``; then the game ends, the higher score wins
and equal scores draw.

Position string (RULINGS.md): rows 8 down to 1 joined by ``/``, each of
``.`` ``o`` ``O`` (painted) ``t`` ``T``, then the side to move and the
phase: ``......../... o play`` or ``... t final 2``.  ``final 0`` is a
finished game (``position()`` writes it after the last turn, so it must
read back; no move is legal there).  A set-up is refused, never
normalized, when its phase contradicts the board: ``play`` with no empty
cell (the final round would already have started, and whether one or two
turns are left cannot be guessed), or ``final`` with an empty cell.
"""

from __future__ import annotations

import re
from typing import ClassVar

from ...core.game import Game, NotationError, Outcome, PositionError, excerpt, validate_setup_rows
from ...core.rng import SeededRandom
from ...i18n import Message
from .geometry import BY_CORNERS, CAPTURE_BASE, CELLS, COLUMNS, FULL, PASS, RECTANGLES, SIZE, cell_name, other_corners
from .strategy import position_value

CIRCLES, TRIANGLES = 0, 1
SIDE_CHARS = "ot"
FINAL_TURNS = 2

CELL_TEXT = re.compile(r"[a-h][1-8]")
TYPED_CAPTURE = re.compile(r"x?\s*((?:[a-h]\s*[1-8][\s,;-]*){4})")
MAX_MOVE_TEXT = 64
"""Longer typed or recorded text is refused before any parsing."""

CORNER_LISTS = tuple(rect.corners for rect in RECTANGLES)
CORNER_MASKS = tuple(rect.corner_mask for rect in RECTANGLES)
INSIDE_MASKS = tuple(rect.inside_mask for rect in RECTANGLES)
OTHER_CORNERS: tuple[tuple[tuple[int, int], ...], ...] = ()
"""For each cell, (rectangle, its other three corners) of every rectangle
with a corner there: a piece put there completes those whose other three
are the same side's."""
ROW_BITS = (1 << SIZE) - 1
RNG_MASK = (1 << 64) - 1
ROW_CELLS: tuple[tuple[tuple[int, ...], ...], ...] = ()
"""The cells of each row's bits, for listing the empty cells a row at a time."""
LISTING_RANK: tuple[int, ...] = ()
"""Each rectangle's place in the listing of captures: by its first (lowest)
corner, then by index, as the rules page and every record so far list them."""


NIBBLES = CELLS // 4
COMPLETING: list[tuple[tuple[int, ...], tuple[int, ...]] | None] = [None] * CELLS
"""Per cell, made at its first use (``_completing``): the rectangles with a
corner there, and a table that says at once which of them a side's pieces
complete: ``table[16 * k + nibble]`` is the set (bit i: the cell's i-th
rectangle) of rectangles none of whose other corners lie in the k-th four
cells outside ``nibble``; so the AND over the 16 nibbles of the side's
pieces is the set whose other three corners are all the side's.  Checking
the 75 rectangles of a cell one by one was three quarters of a playout's
time: a placement took 3.9 us so, 2.5 with this (CPython; the tables of the
64 cells are 0.77 MB)."""


def _completing(cell: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    rects = OTHER_CORNERS[cell]
    every = (1 << len(rects)) - 1
    at = [0] * CELLS     # per cell: the rectangles with one of their other corners there
    for slot, (_, others) in enumerate(rects):
        while others:
            low = others & -others
            others ^= low
            at[low.bit_length() - 1] |= 1 << slot
    table: list[int] = []
    for k in range(NIBBLES):
        outside = [0] * 16     # per nibble value: the rectangles with a corner in its empty places
        for value in range(14, -1, -1):
            free = (~value & (value + 1)).bit_length() - 1   # its lowest unset place
            outside[value] = outside[value | 1 << free] | at[4 * k + free]
        table.extend(every & ~mask for mask in outside)
    made = (tuple(index for index, _ in rects), tuple(table))
    COMPLETING[cell] = made
    return made


def _completed_at(cell: int, own: int) -> list[int]:
    """The rectangles with a corner on ``cell`` whose other three corners are in ``own``."""
    indices, t = COMPLETING[cell] or _completing(cell)
    found = (t[own & 15] & t[16 | own >> 4 & 15] & t[32 | own >> 8 & 15] & t[48 | own >> 12 & 15]
             & t[64 | own >> 16 & 15] & t[80 | own >> 20 & 15] & t[96 | own >> 24 & 15]
             & t[112 | own >> 28 & 15] & t[128 | own >> 32 & 15] & t[144 | own >> 36 & 15]
             & t[160 | own >> 40 & 15] & t[176 | own >> 44 & 15] & t[192 | own >> 48 & 15]
             & t[208 | own >> 52 & 15] & t[224 | own >> 56 & 15] & t[240 | own >> 60 & 15])
    completed = []
    while found:
        low = found & -found
        found ^= low
        completed.append(indices[low.bit_length() - 1])
    return completed


def _make_tables() -> None:
    """The tables above, made by the first game rather than on import: the
    page's memory snapshot imports every engine, and these would add 90 KB
    to it (and more to its heap) for players who never open Corners."""
    global OTHER_CORNERS, ROW_CELLS, LISTING_RANK
    OTHER_CORNERS = other_corners()
    ROW_CELLS = tuple(
        tuple(tuple(row * SIZE + col for col in range(SIZE) if bits >> col & 1) for bits in range(1 << SIZE))
        for row in range(SIZE))
    listed = sorted(range(len(RECTANGLES)), key=lambda i: (RECTANGLES[i].corners[0], i))
    rank = [0] * len(RECTANGLES)
    for place, index in enumerate(listed):
        rank[index] = place
    LISTING_RANK = tuple(rank)


def parse_cell(text: str) -> int:
    if not CELL_TEXT.fullmatch(text):
        raise NotationError("error.corners.cell", text=excerpt(text))
    return (int(text[1]) - 1) * SIZE + COLUMNS.index(text[0])


class Corners(Game):
    game_id: ClassVar[str] = "corners"
    num_players: ClassVar[int] = 2
    seat_names: ClassVar[tuple[str, ...]] = ("circles", "triangles")

    # ----- state ------------------------------------------------------------------
    def _init_state(self, setup: str | None) -> None:
        if not OTHER_CORNERS:
            _make_tables()
        self.pieces = [0, 0]
        """Each side's pieces (painted or not) as cell bitmasks."""
        self.painted = 0
        self.full: list[list[int]] = [[], []]
        """Rectangles whose four corners are each side's pieces, as they were
        completed: pieces are never removed, so this only grows, and a
        capture is one of these that still changes something."""
        self._to_move = CIRCLES
        self.final_left: int | None = None
        """None while pieces are placed; in the final round the turns left (2, 1, 0)."""
        self._undo: list[tuple[int, int, int, int, int | None, int]] = []
        self._legal: list[int] | None = None
        if setup is not None:
            self._read_position(setup)

    @property
    def to_move(self) -> int:
        return self._to_move

    @property
    def empty(self) -> int:
        return FULL & ~(self.pieces[0] | self.pieces[1])

    def piece_at(self, cell: int) -> tuple[int, bool] | None:
        """(side, painted) of the piece on ``cell``, or None."""
        bit = 1 << cell
        for side in (CIRCLES, TRIANGLES):
            if self.pieces[side] & bit:
                return side, bool(self.painted & bit)
        return None

    def in_final_round(self) -> bool:
        return self.final_left is not None

    def last_change(self) -> tuple[int, int]:
        """(cells the last move filled or placed, corners it painted) as
        masks: what the board animates (0, 0 before any move)."""
        if not self._undo:
            return 0, 0
        before_pieces = self._undo[-1][0] | self._undo[-1][1]
        added = (self.pieces[0] | self.pieces[1]) & ~before_pieces
        return added, self.painted & ~self._undo[-1][2]

    # ----- moves -------------------------------------------------------------------
    def captures(self, side: int | None = None, painting_only: bool = False) -> list[int]:
        """Rectangle indices ``side`` (default: the side to move) may capture."""
        side = self._to_move if side is None else side
        unpainted = self.pieces[side] & ~self.painted
        if painting_only:
            found = [index for index in self.full[side] if CORNER_MASKS[index] & unpainted]
        else:
            empty = self.empty
            found = [index for index in self.full[side]
                     if CORNER_MASKS[index] & unpainted or INSIDE_MASKS[index] & empty]
        found.sort(key=LISTING_RANK.__getitem__)
        return found

    def _complete(self, side: int, added: int) -> None:
        """Note the rectangles the pieces ``added`` (a mask, now ``side``'s) complete."""
        own = self.pieces[side]
        full = self.full[side]
        if added & (added - 1) == 0:   # one piece: each rectangle is new once
            full.extend(_completed_at(added.bit_length() - 1, own))
            return
        # Several pieces: a rectangle is counted at the first of its new corners
        # (its other corners then hold none of the cells counted before).
        while added:
            low = added & -added
            added ^= low
            full.extend(_completed_at(low.bit_length() - 1, own))
            own ^= low

    def _find_full(self) -> None:
        """``full`` from scratch (a position read from its string)."""
        self.full = [[i for i, corners in enumerate(CORNER_MASKS) if corners & own == corners]
                     for own in self.pieces]

    def legal_moves(self) -> list[int]:
        if self._legal is None:
            self._legal = self._generate()
        return list(self._legal)

    def _generate(self) -> list[int]:
        if self.final_left is not None:
            if self.final_left == 0:
                return []
            return [CAPTURE_BASE + i for i in self.captures(painting_only=True)] + [PASS]
        moves: list[int] = []
        empty = self.empty
        for row in range(SIZE):
            moves.extend(ROW_CELLS[row][empty >> (SIZE * row) & ROW_BITS])
        moves.extend([CAPTURE_BASE + i for i in self.captures()])
        return moves

    def is_legal(self, move: object) -> bool:
        if not isinstance(move, int) or isinstance(move, bool) or self.is_over():
            return False
        if move == PASS:
            return self.final_left is not None
        if 0 <= move < CELLS:
            return self.final_left is None and bool(self.empty >> move & 1)
        if CAPTURE_BASE <= move < PASS:
            index = move - CAPTURE_BASE
            own = self.pieces[self._to_move]
            corners = CORNER_MASKS[index]
            if corners & own != corners:
                return False
            if corners & ~self.painted:
                return True
            return self.final_left is None and bool(INSIDE_MASKS[index] & self.empty)
        return False

    def _apply(self, move: int) -> None:  # type: ignore[override]
        side = self._to_move
        self._undo.append((self.pieces[0], self.pieces[1], self.painted, side, self.final_left,
                           len(self.full[side])))
        if move < CAPTURE_BASE:
            self.pieces[side] |= 1 << move
            self._complete(side, 1 << move)
        elif move < PASS:
            index = move - CAPTURE_BASE
            self.painted |= CORNER_MASKS[index]
            filled = INSIDE_MASKS[index] & self.empty
            if filled:
                self.pieces[side] |= filled
                self._complete(side, filled)
        if self.final_left is not None:
            self.final_left -= 1
        elif not self.empty:
            self.final_left = FINAL_TURNS
        self._to_move = 1 - side
        self._legal = None

    def _unapply(self, move: int) -> None:  # type: ignore[override]
        self.pieces[0], self.pieces[1], self.painted, self._to_move, self.final_left, kept = self._undo.pop()
        del self.full[self._to_move][kept:]
        self._legal = None

    # ----- playouts (the tree search's hot path) -------------------------------------
    def scratch_state(self) -> tuple[int, int, int, int, int | None, int, int, list[int] | None]:
        """What ``play_randomly`` changes, for ``restore_scratch``."""
        return (self.pieces[0], self.pieces[1], self.painted, self._to_move, self.final_left,
                len(self.full[0]), len(self.full[1]), self._legal)

    def restore_scratch(self, state: tuple[int, int, int, int, int | None, int, int, list[int] | None]) -> None:
        self.pieces[0], self.pieces[1], self.painted, self._to_move, self.final_left, kept0, kept1, self._legal = state
        del self.full[0][kept0:]
        del self.full[1][kept1:]

    def play_randomly(self, rng: SeededRandom, max_plies: int, capture_share: float) -> int:
        """Play up to ``max_plies`` random legal moves in place, without
        history (``move_stack`` and undo stay as they were: only
        ``restore_scratch`` takes them back); returns the plies played.

        Each turn is a capture at ``capture_share`` odds when one is legal,
        else any legal move, all equally likely.  Playouts are most of the
        tree search's time, so this builds no move list, records nothing and
        draws once a turn: the low 32 bits of one SplitMix64 number (the
        step of ``SeededRandom.next64``, inlined, which leaves ``rng`` where
        as many ``next64`` calls would) decide whether to capture, the high
        32 pick the move by multiplying (a bias below 1e-7: no rejection)."""
        pieces, full, painted = self.pieces, self.full, self.painted
        side, final_left = self._to_move, self.final_left
        share_below = int(capture_share * (1 << 32))
        state = rng.state
        self._legal = None
        # Each side's rectangles that may still change something: one that
        # paints nothing and fills nothing never will again (paint stays,
        # cells only fill), so each turn's list is the next turn's to read.
        live = [list(full[0]), list(full[1])]
        plies = 0
        while plies < max_plies and final_left != 0:
            state = (state + 0x9E3779B97F4A7C15) & RNG_MASK
            draw = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & RNG_MASK
            draw = ((draw ^ (draw >> 27)) * 0x94D049BB133111EB) & RNG_MASK
            draw ^= draw >> 31
            own = pieces[side]
            unpainted = own & ~painted
            empty = FULL & ~(pieces[0] | pieces[1])
            if final_left is None:
                captures = [index for index in live[side]
                            if CORNER_MASKS[index] & unpainted or INSIDE_MASKS[index] & empty]
                spaces = empty.bit_count()
            else:   # the final round: a capture that paints, or a pass (one "space")
                captures = [index for index in live[side] if CORNER_MASKS[index] & unpainted]
                spaces = 1
            live[side] = captures
            if captures and draw & 0xFFFFFFFF < share_below:
                pick = spaces + ((draw >> 32) * len(captures) >> 32)
            else:
                pick = (draw >> 32) * (spaces + len(captures)) >> 32
            kept = len(full[side])
            if pick >= spaces:
                index = captures[pick - spaces]
                painted |= CORNER_MASKS[index]
                filled = INSIDE_MASKS[index] & empty
                if filled:
                    pieces[side] = own | filled
                    self._complete(side, filled)
            elif final_left is None:   # the pick-th empty cell, found a row at a time
                for row in range(SIZE):
                    cells = ROW_CELLS[row][empty >> (SIZE * row) & ROW_BITS]
                    if pick < len(cells):
                        cell = cells[pick]
                        break
                    pick -= len(cells)
                pieces[side] = own | 1 << cell
                full[side].extend(_completed_at(cell, own | 1 << cell))
            if len(full[side]) > kept:
                captures.extend(full[side][kept:])   # live[side]: the rectangles just completed
            if final_left is not None:
                final_left -= 1
            elif not FULL & ~(pieces[0] | pieces[1]):
                final_left = FINAL_TURNS
            side = 1 - side
            plies += 1
        rng.state = state
        self.painted, self._to_move, self.final_left = painted, side, final_left
        return plies

    def copy(self) -> "Corners":
        clone = Corners(self.options, self.seed, self.setup)
        clone.pieces = list(self.pieces)
        clone.painted = self.painted
        clone.full = [list(self.full[0]), list(self.full[1])]
        clone._to_move = self._to_move
        clone.final_left = self.final_left
        clone.move_stack = list(self.move_stack)
        clone._undo = list(self._undo)
        clone._legal = self._legal
        return clone

    # ----- results -----------------------------------------------------------------
    def scores(self) -> tuple[int, int]:
        return ((self.pieces[0] & self.painted).bit_count(), (self.pieces[1] & self.painted).bit_count())

    def outcome(self) -> Outcome | None:
        if self.final_left != 0:
            return None
        circles, triangles = self.scores()
        if circles == triangles:
            return Outcome(None, "final_round")
        return Outcome(CIRCLES if circles > triangles else TRIANGLES, "final_round")

    def evaluate(self, player: int) -> float:
        """Painted pieces decide; then the best capture each side has waiting
        (its right never lapses) and, a little, the pieces on the board."""
        return position_value(self, player)

    # ----- notation ----------------------------------------------------------------
    def move_text(self, move: int) -> str:  # type: ignore[override]
        if move == PASS:
            return "pass"
        if isinstance(move, int) and 0 <= move < CELLS:
            return cell_name(move)
        if isinstance(move, int) and CAPTURE_BASE <= move < PASS:
            return "x" + "".join(cell_name(c) for c in CORNER_LISTS[move - CAPTURE_BASE])
        raise NotationError("error.corners.move_value", value=excerpt(move))

    def parse_move(self, text: str) -> int:  # type: ignore[override]
        """``d4``, ``xa1c1c3a3`` (corners in any order), ``pass``; raises NotationError."""
        if not isinstance(text, str) or len(text) > MAX_MOVE_TEXT:
            raise NotationError("error.corners.notation", text=excerpt(text))
        if text == "pass":
            return PASS
        if len(text) == 2:
            return parse_cell(text)
        if len(text) == 9 and text[0] == "x":
            cells = [parse_cell(text[i:i + 2]) for i in range(1, 9, 2)]
            return self._capture_of(cells, text)
        raise NotationError("error.corners.notation", text=excerpt(text))

    def parse_typed(self, text: str) -> int:  # type: ignore[override]
        """Also ``D4``, ``x a1 c1 c3 a3``, ``a1-c1-c3-a3``, ``PASS``."""
        if isinstance(text, str) and len(text) <= MAX_MOVE_TEXT:
            typed = text.strip().lower()
            if typed in ("pass", "пас"):
                return PASS
            compact = re.sub(r"\s+", "", typed)
            if CELL_TEXT.fullmatch(compact):
                return parse_cell(compact)
            match = TYPED_CAPTURE.fullmatch(typed)
            if match:
                names = re.findall(r"[a-h]\s*[1-8]", match.group(1))
                return self._capture_of([parse_cell(re.sub(r"\s+", "", name)) for name in names], text)
        return super().parse_typed(text)

    @staticmethod
    def _capture_of(cells: list[int], text: str) -> int:
        index = BY_CORNERS.get(frozenset(cells))
        if len(set(cells)) != 4 or index is None:
            raise NotationError("error.corners.not_rectangle", text=excerpt(text))
        return CAPTURE_BASE + index

    def move_example(self, seat: int | None = None) -> str:
        return "d4"

    def illegal_reason(self, move: object) -> Message:
        if self.is_over():
            return Message("illegal.over")
        if move == PASS:
            return Message("illegal.corners.pass_too_early")
        if isinstance(move, int) and 0 <= move < CELLS:
            if self.final_left is not None:
                return Message("illegal.corners.final_capture_only")
            return Message("illegal.corners.occupied", cell=cell_name(move))
        if isinstance(move, int) and CAPTURE_BASE <= move < PASS:
            corners = CORNER_MASKS[move - CAPTURE_BASE]
            if corners & self.pieces[self._to_move] != corners:
                return Message("illegal.corners.not_own_corners")
            if self.final_left is not None:
                return Message("illegal.corners.final_paints_nothing")
            return Message("illegal.corners.changes_nothing")
        return Message("illegal.generic")

    # ----- position string ---------------------------------------------------------
    def position(self) -> str:
        rows = []
        for row in range(SIZE - 1, -1, -1):
            chars = []
            for col in range(SIZE):
                piece = self.piece_at(row * SIZE + col)
                if piece is None:
                    chars.append(".")
                else:
                    side, painted = piece
                    chars.append(SIDE_CHARS[side].upper() if painted else SIDE_CHARS[side])
            rows.append("".join(chars))
        phase = "play" if self.final_left is None else f"final {self.final_left}"
        return f"{'/'.join(rows)} {SIDE_CHARS[self._to_move]} {phase}"

    def _read_position(self, text: str) -> None:
        if not isinstance(text, str) or len(text) > 120:
            raise PositionError("error.corners.position", text=excerpt(text))
        fields = text.split()
        if len(fields) not in (3, 4) or fields[1] not in SIDE_CHARS:
            raise PositionError("error.corners.position", text=excerpt(text))
        rows = fields[0].split("/")
        if len(rows) != SIZE:
            raise PositionError("error.corners.position", text=excerpt(text))
        validate_setup_rows(rows, SIZE, ".oOtT")
        pieces, painted = [0, 0], 0
        for r, line in enumerate(rows):
            row = SIZE - 1 - r
            for col, char in enumerate(line):
                if char == ".":
                    continue
                bit = 1 << (row * SIZE + col)
                pieces["ot".index(char.lower())] |= bit
                if char.isupper():
                    painted |= bit
        self.pieces, self.painted = pieces, painted
        self._find_full()
        self._to_move = SIDE_CHARS.index(fields[1])
        full = not self.empty
        if fields[2] == "play" and len(fields) == 3:
            if full:
                raise PositionError("error.corners.full_in_play")
            self.final_left = None
        elif fields[2] == "final" and len(fields) == 4 and fields[3] in ("0", "1", "2"):
            if not full:
                raise PositionError("error.corners.final_not_full")
            self.final_left = int(fields[3])
        else:
            raise PositionError("error.corners.phase", text=excerpt(" ".join(fields[2:])))

