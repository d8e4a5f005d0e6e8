"""The Abatis board, its four queues and the paths chips travel, worked out once.

Cells are ``index = row * 8 + col`` with a1 = 0 at the bottom left
(RULINGS.md).  A queue lies outside each side, two chips deep per lane:
N above row 8 (lanes a-h, shooting down), E right of column h (lanes 1-8,
shooting left), S below row 1 (shooting up), W left of column a (shooting
right).  A queue place is numbered ``(side * 8 + lane) * 2 + depth`` with
depth 0 the inner chip (next to the board) and 1 the outer.

A lane's path lists its board cells in the order a chip shot from that side
meets them; a chip that travels past the last one leaves the board into the
opposite side's queue in the same lane.
"""

from __future__ import annotations

SIZE = 8
CELLS = SIZE * SIZE
COLUMNS = "abcdefgh"
SIDES = "NESW"
NORTH, EAST, SOUTH, WEST = 0, 1, 2, 3
LANES = 8
QUEUE_PLACES = len(SIDES) * LANES * 2
OPPOSITE = (SOUTH, WEST, NORTH, EAST)

COLOURS = "RGBYPOCMWK"
"""Colour letters (red, green, blue, yellow, purple, orange, cyan, magenta,
white, black); colour ``k`` (1-10) is ``COLOURS[k - 1]``; 0 is no chip."""
MIN_COLOURS, MAX_COLOURS = 4, 10

NO_POINTER, UP, DOWN, LEFT, RIGHT = 0, 1, 2, 3, 4
POINTER_CHARS = ".^v<>"
STEP = (0, SIZE, -SIZE, -1, 1)
"""Index change of one step in a pointer's direction."""
SHOT_POINTER = (DOWN, LEFT, UP, RIGHT)
"""The pointer a chip shot from each side gets: its direction of travel."""
EXIT_SIDE = {UP: NORTH, DOWN: SOUTH, LEFT: WEST, RIGHT: EAST}
"""The queue a chip moving that way joins when it leaves the board."""


def cell_name(index: int) -> str:
    return f"{COLUMNS[index % SIZE]}{index // SIZE + 1}"


def lane_name(side: int, lane: int) -> str:
    """``d`` for lane 3 of N or S, ``4`` for lane 3 of W or E."""
    return COLUMNS[lane] if side in (NORTH, SOUTH) else str(lane + 1)


def queue_place(side: int, lane: int, depth: int) -> int:
    return (side * LANES + lane) * 2 + depth


def _path(side: int, lane: int) -> tuple[int, ...]:
    if side == NORTH:
        return tuple(row * SIZE + lane for row in range(SIZE - 1, -1, -1))
    if side == SOUTH:
        return tuple(row * SIZE + lane for row in range(SIZE))
    if side == WEST:
        return tuple(lane * SIZE + col for col in range(SIZE))
    return tuple(lane * SIZE + col for col in range(SIZE - 1, -1, -1))


PATHS: tuple[tuple[int, ...], ...] = tuple(_path(side, lane) for side in range(4) for lane in range(LANES))
"""``PATHS[side * 8 + lane]``: the lane's cells from the shooting side on."""


def ray(cell: int, pointer: int) -> tuple[int, ...]:
    """The cells ahead of ``cell`` in the pointer's direction, nearest first."""
    row, col = divmod(cell, SIZE)
    if pointer == UP:
        return tuple(r * SIZE + col for r in range(row + 1, SIZE))
    if pointer == DOWN:
        return tuple(r * SIZE + col for r in range(row - 1, -1, -1))
    if pointer == LEFT:
        return tuple(row * SIZE + c for c in range(col - 1, -1, -1))
    return tuple(row * SIZE + c for c in range(col + 1, SIZE))


RAYS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(ray(cell, pointer) if pointer else () for pointer in range(5)) for cell in range(CELLS))
"""``RAYS[cell][pointer]``, precomputed for the slides."""


def exit_lane(cell: int, pointer: int) -> int:
    """The lane of the queue a chip leaving the board from ``cell`` joins."""
    row, col = divmod(cell, SIZE)
    return col if pointer in (UP, DOWN) else row


NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(cell + step for step, ok in ((SIZE, cell // SIZE < SIZE - 1), (-SIZE, cell >= SIZE),
                                         (-1, cell % SIZE > 0), (1, cell % SIZE < SIZE - 1)) if ok)
    for cell in range(CELLS))

READING_ORDER: tuple[int, ...] = tuple(row * SIZE + col for row in range(SIZE - 1, -1, -1) for col in range(SIZE))
"""Row 8 to row 1, a to h: the order pointer chips slide in (RULINGS.md)."""


def block_points(size: int) -> int:
    """1, 2, 4, 7, 11 ... for a block of 3, 4, 5, 6, 7 ... chips."""
    return 1 + (size - 3) * (size - 2) // 2
