"""Every rectangle of the 8x8 board, worked out once at import.

A piece stands at the centre of its cell, so the cell centres form an
integer lattice: cell ``index = row * 8 + col`` is the point (col, row).
RULINGS.md: a rectangle is four lattice points P, P+u, P+u+v, P+v with u, v
non-zero integer vectors and u perpendicular to v, at any angle.  There
are 1192 of them on the board, 784 with sides along the board's lines and
408 tilted.  A cell is inside the closed rectangle when its centre q has
0 <= (q-P)·u <= u·u and 0 <= (q-P)·v <= v·v: whole numbers only, so a
centre exactly on a side or at a corner counts, with no rounding anywhere.

Each rectangle is kept as bitmasks (bit ``index`` per cell) of its four
corners and of every cell inside it (corners included), so move
generation is a few integer operations per rectangle.

Canonical corner order (how a capture is written): start at the corner in
the lowest row (the leftmost of two there) and go round anticlockwise, as
seen with row 1 at the bottom: ``xa1c1c3a3``, ``xb1d2c4a3``.
"""

from __future__ import annotations

from dataclasses import dataclass

SIZE = 8
CELLS = SIZE * SIZE
FULL = (1 << CELLS) - 1
COLUMNS = "abcdefgh"
CORNER_ORDER = "from the corner in the lowest row (leftmost of two), anticlockwise"
"""The canonical order of a capture's corners, for the rules page."""


def cell_name(index: int) -> str:
    return f"{COLUMNS[index % SIZE]}{index // SIZE + 1}"


def point(index: int) -> tuple[int, int]:
    """(col, row) of a cell's centre."""
    return index % SIZE, index // SIZE


@dataclass(frozen=True)
class Rectangle:
    corners: tuple[int, int, int, int]
    """Cell indices in the canonical order (see the module docstring)."""
    corner_mask: int
    inside_mask: int
    """Every cell whose centre lies in the closed rectangle, corners included."""
    tilted: bool


def _canonical(p: tuple[int, int], u: tuple[int, int], v: tuple[int, int]) -> tuple[int, int, int, int]:
    points = [p, (p[0] + u[0], p[1] + u[1]), (p[0] + u[0] + v[0], p[1] + u[1] + v[1]), (p[0] + v[0], p[1] + v[1])]
    # Anticlockwise order around the centre, then start at the lowest row's leftmost corner.
    if (points[1][0] - points[0][0]) * (points[3][1] - points[0][1]) \
            - (points[1][1] - points[0][1]) * (points[3][0] - points[0][0]) < 0:
        points = [points[0], points[3], points[2], points[1]]
    start = min(range(4), key=lambda i: (points[i][1], points[i][0]))
    ordered = points[start:] + points[:start]
    return tuple(y * SIZE + x for x, y in ordered)  # type: ignore[return-value]


def _inside(p: tuple[int, int], u: tuple[int, int], v: tuple[int, int]) -> int:
    mask = 0
    uu = u[0] * u[0] + u[1] * u[1]
    vv = v[0] * v[0] + v[1] * v[1]
    for index in range(CELLS):
        qx, qy = point(index)
        dx, dy = qx - p[0], qy - p[1]
        along_u = dx * u[0] + dy * u[1]
        along_v = dx * v[0] + dy * v[1]
        if 0 <= along_u <= uu and 0 <= along_v <= vv:
            mask |= 1 << index
    return mask


def _all_rectangles() -> tuple[Rectangle, ...]:
    """Each side vector u pointing up (or right, if flat), from every cell;
    the integer vectors perpendicular to u are the multiples of its primitive
    rotation w = (-uy, ux) / gcd, and v = k·w with k >= 1 reaches every
    rectangle from one of its corners (found again from others: kept once)."""
    found: dict[frozenset[int], Rectangle] = {}
    for index in range(CELLS):
        p = point(index)
        for ux in range(-(SIZE - 1), SIZE):
            for uy in range(0, SIZE):
                if uy == 0 and ux <= 0:
                    continue
                if not (0 <= p[0] + ux < SIZE and p[1] + uy < SIZE):
                    continue
                g = _gcd(abs(ux), uy)
                wx, wy = -uy // g, ux // g
                for k in range(1, SIZE * g):
                    v = (wx * k, wy * k)
                    far = (p[0] + ux + v[0], p[1] + uy + v[1])
                    near = (p[0] + v[0], p[1] + v[1])
                    if not all(0 <= x < SIZE and 0 <= y < SIZE for x, y in (far, near)):
                        break
                    corners = _canonical(p, (ux, uy), v)
                    key = frozenset(corners)
                    if key in found:
                        continue
                    mask = 0
                    for corner in corners:
                        mask |= 1 << corner
                    found[key] = Rectangle(corners, mask, _inside(p, (ux, uy), v), ux != 0 and uy != 0)
    return tuple(sorted(found.values(), key=lambda r: r.corners))


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a


RECTANGLES: tuple[Rectangle, ...] = _all_rectangles()
BY_CORNERS: dict[frozenset[int], int] = {frozenset(r.corners): i for i, r in enumerate(RECTANGLES)}
"""Rectangle index by its set of corner cells (a capture typed in any order)."""

CAPTURE_BASE = CELLS
"""Moves are ints: 0-63 place on that cell, CAPTURE_BASE + i captures RECTANGLES[i]."""
PASS = CAPTURE_BASE + len(RECTANGLES)

_other_corners: tuple[tuple[tuple[int, int], ...], ...] = ()


def other_corners() -> tuple[tuple[tuple[int, int], ...], ...]:
    """For each cell, ``(index, mask of its other three corners)`` of every
    rectangle with a corner there, by index: what a piece placed there
    completes, spoils or builds (the rules and the bots' move ordering).
    Made by the first caller rather than on import, like the rules' other
    tables (``rules._make_tables``, which says why: the page's memory
    snapshot imports every engine)."""
    global _other_corners
    if not _other_corners:
        _other_corners = tuple(
            tuple((i, rect.corner_mask & ~(1 << cell)) for i, rect in enumerate(RECTANGLES) if cell in rect.corners)
            for cell in range(CELLS))
    return _other_corners
