"""The Dots position string: every point's state, the side to move, landing,
and the regions' chains.

Format: four fields separated by single spaces::

    ROWS SIDE STATUS REGIONS

* ``ROWS``: the rows from the top (y = height) to the bottom (y = 1),
  joined by ``/``; each row lists its points from x = 1, one character per
  point, a run of empty free points written as its length (``39`` is an
  empty row of the 39-wide field).  Point characters:

  ===================  ======  ==========  =========
  inside               empty   blue dot    red dot
  ===================  ======  ==========  =========
  no region (free)     ``.``   ``B``       ``R``
  a blue region        ``a``   ``b``       ``c``
  a red region         ``p``   ``q``       ``r``
  ===================  ======  ==========  =========

  so ``c`` is a red dot surrounded by blue, ``q`` a blue dot surrounded
  by red, and ``b`` / ``r`` a player's own dot excluded inside its region.
* ``SIDE``: ``b`` (blue to move) or ``r``.
* ``STATUS``: ``-`` while the game goes on; ``Lb`` / ``Lr`` after blue /
  red declared landing (the game is over).
* ``REGIONS``: ``-``, or the regions in the order they were made, joined
  by ``;``, each ``b:`` or ``r:`` (the player who made it) followed by its
  chain, points ``x-y`` joined by ``,`` in order around the region.

The point characters alone decide play (legal points, captures, houses,
score, landing); the regions field only keeps the chains to paint,
including those of regions that were later surrounded themselves.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ...core.game import PositionError, excerpt
from .field import OFF, Field, Region

CHARS = {(0, 0): ".", (1, 0): "B", (2, 0): "R",
         (0, 1): "a", (1, 1): "b", (2, 1): "c",
         (0, 2): "p", (1, 2): "q", (2, 2): "r"}
"""``(dot, owner)`` to character; dot and owner codes as in ``field``."""
STATES = {char: state for state, char in CHARS.items()}
SIDES = "br"
CODE_CHARS = bytes.maketrans(bytes(range(9)), "".join(CHARS[(d, o)] for d in range(3) for o in range(3)).encode())
"""A point's code ``dot * 3 + owner`` to its character (``bytes.translate``)."""
EMPTY_RUN = re.compile(r"\.{2,}")


def _run_length(match: re.Match[str]) -> str:
    return str(len(match.group()))


def row_codes(field: Field, y: int) -> bytes:
    """Row ``y``'s points from x = 1, each as ``dot * 3 + owner`` (0-8).  Read from the two
    bytearrays at once, as two big integers: the code stays under 256, so no byte carries
    into the next, and a row is a few C calls, not a Python step a point."""
    start = y * field.stride + 1
    end = start + field.width
    return (int.from_bytes(field.dot[start:end], "big") * 3
            + int.from_bytes(field.owner[start:end], "big")).to_bytes(field.width, "big")


def encode(field: Field, to_move: int, landed: int | None) -> str:
    """The position string: each row's codes (``row_codes``) become its characters in one
    ``translate``, so a 39x32 field is 32 rows of C work, not 1248 Python steps (1-2 ms
    of a move's task in the browser)."""
    rows = [EMPTY_RUN.sub(_run_length, row_codes(field, y).translate(CODE_CHARS).decode("ascii"))
            for y in range(field.height, 0, -1)]
    status = "-" if landed is None else "L" + SIDES[landed]
    stride = field.stride
    name = point_names(stride, field.cell_count).__getitem__
    regions = ";".join(SIDES[r.player] + ":" + ",".join(map(name, r.chain(stride))) for r in field.regions) or "-"
    return f"{'/'.join(rows)} {SIDES[to_move]} {status} {regions}"


@lru_cache(maxsize=8)
def point_names(stride: int, cell_count: int) -> tuple[str, ...]:
    """Every cell's ``x-y``, for a field of this ``stride``: the chains are a third of
    the string at move 1000, and made whole for every move."""
    return tuple(f"{c % stride}-{c // stride}" for c in range(cell_count))


def _row_cells(text: str, width: int, number: int) -> list[str]:
    cells: list[str] = []
    digits = ""

    def empty_run() -> None:
        # Checked before building it: a run like 99999999999 must not eat memory,
        # and its length before int(): Python refuses ints of over 4300 digits.
        if len(digits) > 3 or len(cells) + int(digits) > width:
            raise PositionError("error.dots.row_too_long", row=number, count=width)
        cells.extend("." * int(digits))

    for char in text:
        if "0" <= char <= "9":
            digits += char
            continue
        if digits:
            empty_run()
            digits = ""
        if char not in STATES:
            raise PositionError("error.dots.row_character", row=number, char=excerpt(char))
        cells.append(char)
    if digits:
        empty_run()
    if len(cells) != width:
        raise PositionError("error.dots.row_length", row=number, count=len(cells), width=width)
    return cells


def decode(text: str, width: int, height: int) -> tuple[Field, int, int | None]:
    """Parse a position string for a ``width`` x ``height`` field."""
    if not isinstance(text, str):
        raise PositionError("error.position.not_text")
    parts = text.split()
    if len(parts) != 4:
        raise PositionError("error.dots.position_fields")
    rows = parts[0].split("/")
    if len(rows) != height:
        raise PositionError("error.dots.position_rows", count=len(rows), size=f"{width}x{height}")
    field = Field(width, height)
    for index, row_text in enumerate(rows):
        y = height - index
        for x, char in enumerate(_row_cells(row_text, width, index + 1), start=1):
            d, o = STATES[char]
            c = field.cell(x, y)
            field.dot[c] = d
            field.owner[c] = o
    if parts[1] not in ("b", "r"):
        raise PositionError("error.dots.position_side", value=excerpt(parts[1]))
    to_move = SIDES.index(parts[1])
    if parts[2] == "-":
        landed = None
    elif parts[2] in ("Lb", "Lr"):
        landed = SIDES.index(parts[2][1])
    else:
        raise PositionError("error.dots.position_status", value=excerpt(parts[2]))
    if parts[3] != "-":
        for number, item in enumerate(parts[3].split(";"), start=1):
            field.regions.append(_parse_region(item, field, number))
    field.rebuild()
    return field, to_move, landed


def _parse_region(item: str, field: Field, number: int) -> Region:
    if len(item) < 3 or item[1] != ":" or item[0] not in SIDES:
        raise PositionError("error.dots.region_form", region=number)
    chain = []
    for point in item[2:].split(","):
        xy = point.split("-")
        if len(xy) != 2 or not all(p.isascii() and p.isdigit() and len(p) <= 3 for p in xy):
            raise PositionError("error.dots.region_point", region=number, point=excerpt(point))
        x, y = int(xy[0]), int(xy[1])
        if not (1 <= x <= field.width and 1 <= y <= field.height):
            raise PositionError("error.dots.region_off_field", region=number, point=excerpt(point))
        chain.append(field.cell(x, y))
    for a, b in zip(chain, chain[1:] + chain[:1]):
        (ax, ay), (bx, by) = field.xy(a), field.xy(b)
        if max(abs(ax - bx), abs(ay - by)) > 1 and len(chain) > 1:
            raise PositionError("error.dots.region_jump", region=number, start=f"{ax}-{ay}", end=f"{bx}-{by}")
    if any(field.dot[c] == OFF for c in chain):
        raise PositionError("error.dots.region_outside", region=number)
    return Region(SIDES.index(item[0]), None, tuple(chain))
