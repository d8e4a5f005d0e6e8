"""Abatis: clear an 8x8 board by shooting chips in from four queues.

The rules are the seed document and RULINGS.md "Abatis"; this module is the
whole move cycle.  A move names a side and a lane (``Nd``, ``W4``; ``Nd*``
in Mixed for a Knockout move made by clicking the outer chip):

1. The lane's inner chip leaves its queue; the outer chip moves in and the
   top of the stack takes the outer place.  (Our decision where the rulings
   are silent: the queue refills before the shot chip travels, so a chip a
   Knockout push expels reaches the stack after this draw.)
2. Classic: the chip stops before the first chip in the lane.  Knockout:
   it pushes that chip and the unbroken run in front of it one cell on; a
   chip pushed past the far edge joins the far queue (its inner chip moves
   out, the outer chip goes to the bottom of the stack).  The shot chip
   gets a pointer, its direction of travel.
3. Rounds until one changes nothing: remove every block (3 or more
   same-colour chips joined by sides) at once and score it, then slide the
   pointer chips in passes (reading order, each as far as it can or off the
   board into a queue, never pushing) until a pass moves nothing.
4. After 64 blocks at this level or a cleared board (+32) the next level
   starts with a new seeded layout, queues and stack.

State is flat: ``board`` holds ``colour | pointer << 4`` per cell (colour
1-10, 0 empty), ``queues`` a colour per queue place, ``stack`` colours top
first.  ``push``/``pop`` keep one fixed-size snapshot per move, so undo is
exact (score, stack and the generator included) and costs the same at move
10 and move 10,000.  ``last_steps`` describes the last move for the board's
animation: a list of ``(kind, items)`` where kind is ``shot``, ``remove``,
``slide`` or ``level``.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from ...core.game import Game, NotationError, OptionSpec, Outcome, PositionError, excerpt
from ...core.rng import SeededRandom
from ...i18n import Message
from .geometry import (CELLS, COLOURS, EXIT_SIDE, LANES, MAX_COLOURS, NEIGHBOURS, OPPOSITE, PATHS, POINTER_CHARS,
                       QUEUE_PLACES, RAYS, READING_ORDER, SHOT_POINTER, SIDES, SIZE, block_points, cell_name,
                       exit_lane, lane_name, queue_place)
from .scenario import COLOUR_COUNTS, DEFAULT_SCENARIO, LEVELS_PER_STEP, MODES, Scenario

KNOCKOUT_FLAG = 32
"""Added to ``side * 8 + lane`` for a Mixed move made with the outer chip (``Nd*``)."""
BLOCKS_PER_LEVEL = 64
CLEAR_BONUS = 32
STACK_MIN = 3
PREVIEW = 3
"""Stack chips shown to the player."""

PLACE_QUEUE = CELLS
"""Places in ``last_steps`` motions: a board cell (0-63), ``PLACE_QUEUE +
queue place`` (64-127), or ``PLACE_STACK``."""
PLACE_STACK = CELLS + QUEUE_PLACES

STAT_NAMES = ("blocks", "chips", "biggest_block", "best_move", "longest_cascade", "bonuses")
"""The game's statistics, kept through levels and restored by undo."""

MOVE_TEXT = re.compile(r"([NESW])([a-h1-8])(\*?)")
TYPED_MOVE = re.compile(r"([nesw])\s*[-:]?\s*([a-h1-8])\s*(\*?)")
POSITION_CELL = re.compile(r"\+\+|\.\.|[RGBYPOCMWK][.^v<>]")
MAX_POSITION_TEXT = 1000
"""A picture of 299 characters, a stack of at most 200 chips and three short fields."""

Motion = tuple[int, int, int, int]
"""(colour, pointer, from place, to place) of one chip in ``last_steps``."""


def _decode(move: int) -> tuple[int, int, bool]:
    knockout = move >= KNOCKOUT_FLAG
    lane_index = move - KNOCKOUT_FLAG if knockout else move
    return lane_index // LANES, lane_index % LANES, knockout


class Abatis(Game):
    game_id: ClassVar[str] = "abatis"
    num_players: ClassVar[int] = 1
    seat_names: ClassVar[tuple[str, ...]] = ("player",)
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("mode", DEFAULT_SCENARIO[0], MODES),
        OptionSpec("colours_min", DEFAULT_SCENARIO[1], COLOUR_COUNTS),
        OptionSpec("colours_max", DEFAULT_SCENARIO[2], COLOUR_COUNTS),
        OptionSpec("levels_per_colour", DEFAULT_SCENARIO[3], LEVELS_PER_STEP),
    )

    @classmethod
    def normalize_options(cls, options: Any) -> dict[str, Any]:
        """Also refuses a colour range whose minimum is above its maximum
        (the new-game dialog greys such a choice out)."""
        result = super().normalize_options(options)
        if result["colours_min"] > result["colours_max"]:
            raise PositionError("error.abatis.colour_range", low=result["colours_min"], high=result["colours_max"])
        return result

    # ----- state ------------------------------------------------------------------
    def _init_state(self, setup: str | None) -> None:
        self.board = bytearray(CELLS)
        self.queues = bytearray(QUEUE_PLACES)
        self.stack: list[int] = []
        self.rng = SeededRandom(self.seed)
        self.level = 0
        self.level_blocks = 0
        self.score = 0
        self.level_start = 0
        """The ply the current level began at: undo goes back no further."""
        self.colours = 0
        self.stats = dict.fromkeys(STAT_NAMES, 0)
        self.last_steps: list[tuple[str, Any]] = []
        self._undo: list[tuple[Any, ...]] = []
        self._legal: list[int] | None = None
        if setup is None:
            self._start_level(0)
        else:
            self._read_position(setup)

    @property
    def scenario(self) -> Scenario:
        return Scenario.from_options(self.options)

    @property
    def mode(self) -> str:
        return self.options["mode"]

    @property
    def to_move(self) -> int:
        return 0

    def undo_floor(self) -> int:
        return self.level_start

    def chip(self, cell: int) -> tuple[int, int]:
        """(colour, pointer) on ``cell``; colour 0 is an empty cell."""
        value = self.board[cell]
        return value & 15, value >> 4

    def queue_chip(self, side: int, lane: int, depth: int) -> int:
        return self.queues[queue_place(side, lane, depth)]

    def preview(self) -> list[int]:
        """The next chips the stack gives, top first (at most three)."""
        return self.stack[:PREVIEW]

    def chips_on_board(self) -> int:
        return CELLS - self.board.count(0)

    def statistics(self) -> dict[str, int]:
        return dict(self.stats)

    # ----- levels -------------------------------------------------------------------
    def _start_level(self, level: int) -> None:
        scenario = self.scenario
        self.level = level
        self.level_blocks = 0
        self.colours = scenario.colours(level)
        self._lay_out(scenario.layout_chips(level))
        rng = self.rng
        for place in range(QUEUE_PLACES):
            self.queues[place] = 1 + rng.below(self.colours)
        self.stack = []
        self._top_up()

    def _lay_out(self, count: int) -> None:
        """``count`` chips on uniformly drawn empty cells, uniformly drawn
        colours; a chip that would complete a block is drawn again (cell and
        colour), so the layout never starts with a block."""
        board = self.board
        board[:] = bytes(CELLS)
        rng = self.rng
        placed = 0
        while placed < count:
            empty = [cell for cell in range(CELLS) if not board[cell]]
            cell = empty[rng.below(len(empty))]
            colour = 1 + rng.below(self.colours)
            board[cell] = colour
            if len(self._group(cell)) >= 3:
                board[cell] = 0
                continue
            placed += 1

    def _group(self, start: int) -> list[int]:
        board = self.board
        colour = board[start] & 15
        group = [start]
        seen = {start}
        for cell in group:
            for near in NEIGHBOURS[cell]:
                if near not in seen and board[near] & 15 == colour:
                    seen.add(near)
                    group.append(near)
        return group

    def _top_up(self) -> None:
        while len(self.stack) < STACK_MIN:
            self.stack.append(1 + self.rng.below(self.colours))

    def _draw(self) -> int:
        self._top_up()
        colour = self.stack.pop(0)
        self._top_up()
        return colour

    # ----- moves -------------------------------------------------------------------
    def legal_moves(self) -> list[int]:
        if self._legal is None:
            self._legal = self._generate()
        return list(self._legal)

    def _generate(self) -> list[int]:
        board = self.board
        mode = self.mode
        moves: list[int] = []
        for index, path in enumerate(PATHS):
            if not any(board[cell] for cell in path):
                continue
            enters = not board[path[0]]
            if mode == "classic":
                if enters:
                    moves.append(index)
            elif mode == "knockout":
                moves.append(index)
            else:
                if enters:
                    moves.append(index)
                moves.append(index + KNOCKOUT_FLAG)
        return moves

    def is_legal(self, move: object) -> bool:
        if not isinstance(move, int) or isinstance(move, bool):
            return False
        return move in self.legal_moves()

    def pushes(self, move: int) -> bool:
        """True for a Knockout move (every move in Knockout, ``*`` moves in Mixed)."""
        return self.mode == "knockout" or move >= KNOCKOUT_FLAG

    def _snapshot(self) -> tuple[Any, ...]:
        return (bytes(self.board), bytes(self.queues), tuple(self.stack), self.rng.state, self.level,
                self.level_blocks, self.score, self.level_start, self.colours, tuple(self.stats.values()), self.last_steps)

    def _restore(self, saved: tuple[Any, ...]) -> None:
        (board, queues, stack, self.rng.state, self.level, self.level_blocks, self.score, self.level_start,
         self.colours, stats, self.last_steps) = saved
        self.board[:] = board
        self.queues[:] = queues
        self.stack = list(stack)
        self.stats = dict(zip(STAT_NAMES, stats))
        self._legal = None

    def _apply(self, move: int) -> None:  # type: ignore[override]
        self._undo.append(self._snapshot())
        steps: list[tuple[str, Any]] = []
        self.last_steps = steps
        self._shoot(move, steps)
        points = cascade = 0
        while True:
            removed = self._remove_blocks(steps)
            moved = self._slide(steps)
            points += removed
            if removed:
                cascade += 1
            if not removed and not moved:
                break
        stats = self.stats
        stats["best_move"] = max(stats["best_move"], points)
        stats["longest_cascade"] = max(stats["longest_cascade"], cascade)
        cleared = not any(self.board)
        if self.level_blocks >= BLOCKS_PER_LEVEL or cleared:
            bonus = CLEAR_BONUS if cleared else 0
            self.score += bonus
            stats["bonuses"] += 1 if cleared else 0
            self._start_level(self.level + 1)
            self.level_start = len(self.move_stack) + 1
            steps.append(("level", (bonus, self.level)))
        self._legal = None

    def _unapply(self, move: int) -> None:  # type: ignore[override]
        self._restore(self._undo.pop())

    def _shoot(self, move: int, steps: list[tuple[str, Any]]) -> None:
        side, lane, _ = _decode(move)
        board, queues = self.board, self.queues
        inner = queue_place(side, lane, 0)
        colour = queues[inner]
        pointer = SHOT_POINTER[side]
        motions: list[Motion] = []
        queues[inner] = queues[inner + 1]
        motions.append((queues[inner], 0, PLACE_QUEUE + inner + 1, PLACE_QUEUE + inner))
        queues[inner + 1] = self._draw()
        motions.append((queues[inner + 1], 0, PLACE_STACK, PLACE_QUEUE + inner + 1))
        path = PATHS[side * LANES + lane]
        first = next(i for i, cell in enumerate(path) if board[cell])
        if not self.pushes(move):
            target = path[first - 1]
        else:
            end = first
            while end < SIZE and board[path[end]]:
                end += 1
            if end == SIZE:   # the run reaches the far edge: its last chip leaves
                last = path[SIZE - 1]
                self._leave(last, OPPOSITE[side], lane, motions)
                end -= 1
            for i in range(end - 1, first - 1, -1):
                chip = board[path[i]]
                board[path[i + 1]] = chip
                motions.append((chip & 15, chip >> 4, path[i], path[i + 1]))
            target = path[first]
        board[target] = colour | pointer << 4
        motions.append((colour, pointer, PLACE_QUEUE + inner, target))
        steps.append(("shot", motions))

    def _leave(self, cell: int, side: int, lane: int, motions: list[Motion]) -> None:
        """The chip on ``cell`` leaves the board into ``side``'s queue in ``lane``."""
        chip = self.board[cell]
        self.board[cell] = 0
        inner = queue_place(side, lane, 0)
        expelled = self.queues[inner + 1]
        motions.append((expelled, 0, PLACE_QUEUE + inner + 1, PLACE_STACK))
        motions.append((self.queues[inner], 0, PLACE_QUEUE + inner, PLACE_QUEUE + inner + 1))
        motions.append((chip & 15, chip >> 4, cell, PLACE_QUEUE + inner))
        self.stack.append(expelled)
        self.queues[inner + 1] = self.queues[inner]
        self.queues[inner] = chip & 15

    def _remove_blocks(self, steps: list[tuple[str, Any]]) -> int:
        """Remove every block at once; the points they score."""
        board = self.board
        seen = bytearray(CELLS)
        blocks = []
        for cell in range(CELLS):
            if board[cell] and not seen[cell]:
                group = self._group(cell)
                for member in group:
                    seen[member] = 1
                if len(group) >= 3:
                    blocks.append((tuple(sorted(group)), board[cell] & 15, block_points(len(group))))
        if not blocks:
            return 0
        points = 0
        stats = self.stats
        for cells, _, value in blocks:
            for cell in cells:
                board[cell] = 0
            points += value
            stats["blocks"] += 1
            stats["chips"] += len(cells)
            stats["biggest_block"] = max(stats["biggest_block"], len(cells))
        self.level_blocks += len(blocks)
        self.score += points
        steps.append(("remove", tuple(blocks)))
        return points

    def _slide(self, steps: list[tuple[str, Any]]) -> bool:
        """Slide passes until one moves nothing; True if any chip moved."""
        board = self.board
        moved = False
        while True:
            motions: list[Motion] = []
            movers = [cell for cell in READING_ORDER if board[cell] >> 4]
            for cell in movers:
                chip = board[cell]
                pointer = chip >> 4
                ahead = RAYS[cell][pointer]
                reach = 0
                while reach < len(ahead) and not board[ahead[reach]]:
                    reach += 1
                if reach == len(ahead):
                    side = EXIT_SIDE[pointer]
                    self._leave(cell, side, exit_lane(cell, pointer), motions)
                elif reach:
                    board[cell] = 0
                    board[ahead[reach - 1]] = chip
                    motions.append((chip & 15, pointer, cell, ahead[reach - 1]))
            if not motions:
                return moved
            steps.append(("slide", motions))
            moved = True

    def copy(self) -> "Abatis":
        clone = object.__new__(Abatis)
        clone.options = dict(self.options)
        clone.seed, clone.setup = self.seed, self.setup
        clone.move_stack = list(self.move_stack)
        clone.board, clone.queues = bytearray(self.board), bytearray(self.queues)
        clone.stack = list(self.stack)
        clone.rng = SeededRandom(0)
        clone.rng.state = self.rng.state
        clone.level, clone.level_blocks, clone.score = self.level, self.level_blocks, self.score
        clone.level_start, clone.colours = self.level_start, self.colours
        clone.stats = dict(self.stats)
        clone.last_steps = self.last_steps
        clone._undo = list(self._undo)
        clone._legal = self._legal
        return clone

    # ----- results -----------------------------------------------------------------
    def scores(self) -> tuple[int]:
        return (self.score,)

    def outcome(self) -> Outcome | None:
        return None if self.legal_moves() else Outcome(None, "no_moves")

    def evaluate(self, player: int) -> float:
        """Fewer chips on the board is better (generic bots only; the hint has its own search)."""
        return 1.0 - 2.0 * self.chips_on_board() / CELLS

    # ----- notation ----------------------------------------------------------------
    def move_text(self, move: int) -> str:  # type: ignore[override]
        if not isinstance(move, int) or isinstance(move, bool) or not 0 <= move < 2 * KNOCKOUT_FLAG:
            raise NotationError("error.abatis.move_value", value=excerpt(move))
        side, lane, star = _decode(move)
        return SIDES[side] + lane_name(side, lane) + ("*" if star else "")

    def parse_move(self, text: str) -> int:  # type: ignore[override]
        """``Nd``, ``W4``, ``Sa*``; raises NotationError."""
        match = MOVE_TEXT.fullmatch(text) if isinstance(text, str) and len(text) <= 8 else None
        if match is None:
            raise NotationError("error.abatis.notation", text=excerpt(text))
        return self._move_of(match.group(1), match.group(2), bool(match.group(3)), text)

    def parse_typed(self, text: str) -> int:  # type: ignore[override]
        """Also ``nd``, ``N d``, ``n-4``, ``Nd *``."""
        if isinstance(text, str) and len(text) <= 32:
            match = TYPED_MOVE.fullmatch(text.strip().lower())
            if match:
                return self._move_of(match.group(1).upper(), match.group(2), bool(match.group(3)), text)
        return super().parse_typed(text)

    @staticmethod
    def _move_of(side_char: str, lane_char: str, star: bool, text: str) -> int:
        side = SIDES.index(side_char)
        by_column = side_char in "NS"
        if lane_char.isdigit() == by_column:
            raise NotationError("error.abatis.lane", text=excerpt(text), side=side_char,
                                lanes="a-h" if by_column else "1-8")
        lane = "abcdefgh".index(lane_char) if by_column else int(lane_char) - 1
        return side * LANES + lane + (KNOCKOUT_FLAG if star else 0)

    def move_example(self, seat: int | None = None) -> str:
        return "Nd"

    def illegal_reason(self, move: object) -> Message:
        if self.is_over():
            return Message("illegal.over")
        if not isinstance(move, int) or isinstance(move, bool) or not 0 <= move < 2 * KNOCKOUT_FLAG:
            return Message("illegal.generic")
        side, lane, star = _decode(move)
        name = SIDES[side] + lane_name(side, lane)
        if star and self.mode != "mixed":
            return Message("illegal.abatis.star_only_mixed", move=name)
        path = PATHS[side * LANES + lane]
        if not any(self.board[cell] for cell in path):
            return Message("illegal.abatis.empty_lane", move=name)
        if self.board[path[0]] and not self.pushes(move):
            return Message("illegal.abatis.entry_taken", move=name, cell=cell_name(path[0]))
        return Message("illegal.generic")

    # ----- position string ---------------------------------------------------------
    def position(self) -> str:
        rows = []
        for depth in (1, 0):
            rows.append("++++" + "".join(self._queue_text(0, lane, depth) for lane in range(LANES)) + "++++")
        for row in range(SIZE - 1, -1, -1):
            cells = [self._queue_text(3, row, 1), self._queue_text(3, row, 0)]
            for col in range(SIZE):
                colour, pointer = self.chip(row * SIZE + col)
                cells.append(COLOURS[colour - 1] + POINTER_CHARS[pointer] if colour else "..")
            cells += [self._queue_text(1, row, 0), self._queue_text(1, row, 1)]
            rows.append("".join(cells))
        for depth in (0, 1):
            rows.append("++++" + "".join(self._queue_text(2, lane, depth) for lane in range(LANES)) + "++++")
        stack = "".join(COLOURS[colour - 1] for colour in self.stack) or "-"
        return f"{'/'.join(rows)} {stack} {self.level_blocks} {self.score} {self.mode}"

    def _queue_text(self, side: int, lane: int, depth: int) -> str:
        colour = self.queues[queue_place(side, lane, depth)]
        return COLOURS[colour - 1] + "." if colour else ".."

    def _read_position(self, text: str) -> None:
        if not isinstance(text, str) or len(text) > MAX_POSITION_TEXT:
            raise PositionError("error.abatis.position", text=excerpt(text))
        fields = text.split()
        if len(fields) != 5:
            raise PositionError("error.abatis.position", text=excerpt(text))
        picture, stack, blocks, score, mode = fields
        rows = picture.split("/")
        if len(rows) != 12 or any(len(row) != 24 for row in rows):
            raise PositionError("error.abatis.picture", text=excerpt(picture))
        cells = [[row[i:i + 2] for i in range(0, 24, 2)] for row in rows]
        for r, row in enumerate(cells):
            for c, cell in enumerate(row):
                corner = r in (0, 1, 10, 11) and c in (0, 1, 10, 11)
                if not POSITION_CELL.fullmatch(cell) or (cell == "++") != corner:
                    raise PositionError("error.abatis.picture_cell", row=r + 1, column=c + 1, text=excerpt(cell))
                if not corner and not (2 <= r <= 9 and 2 <= c <= 9):   # a queue place
                    if cell == ".." or cell[1] != ".":
                        raise PositionError("error.abatis.queue_cell", row=r + 1, column=c + 1, text=excerpt(cell))
        if mode not in MODES:
            raise PositionError("error.abatis.mode", text=excerpt(mode))
        if not (stack == "-" or (len(stack) <= 200 and all(ch in COLOURS for ch in stack))):
            raise PositionError("error.abatis.stack", text=excerpt(stack))
        for value in (blocks, score):
            if not (value.isascii() and value.isdigit() and len(value) <= 9):
                raise PositionError("error.abatis.number", text=excerpt(value))
        self.options["mode"] = mode
        for lane in range(LANES):
            for depth, r in ((1, 0), (0, 1)):
                self.queues[queue_place(0, lane, depth)] = COLOURS.index(cells[r][2 + lane][0]) + 1
            for depth, r in ((0, 10), (1, 11)):
                self.queues[queue_place(2, lane, depth)] = COLOURS.index(cells[r][2 + lane][0]) + 1
        for r in range(2, 10):
            row = SIZE - 1 - (r - 2)
            for depth, c in ((1, 0), (0, 1)):
                self.queues[queue_place(3, row, depth)] = COLOURS.index(cells[r][c][0]) + 1
            for depth, c in ((0, 10), (1, 11)):
                self.queues[queue_place(1, row, depth)] = COLOURS.index(cells[r][c][0]) + 1
            for col in range(SIZE):
                cell = cells[r][2 + col]
                if cell != "..":
                    self.board[row * SIZE + col] = COLOURS.index(cell[0]) + 1 | POINTER_CHARS.index(cell[1]) << 4
        self.stack = [] if stack == "-" else [COLOURS.index(ch) + 1 for ch in stack]
        self.level_blocks, self.score = int(blocks), int(score)
        if self.level_blocks >= BLOCKS_PER_LEVEL:
            raise PositionError("error.abatis.level_over", blocks=self.level_blocks, limit=BLOCKS_PER_LEVEL)
        if not any(self.board):
            raise PositionError("error.abatis.empty_board")
        present = max([chip & 15 for chip in self.board] + list(self.queues) + self.stack)
        self.colours = min(MAX_COLOURS, max(self.scenario.colours(0), present))
