"""The pattern catalog: Tessera's own one- and two-colour patterns and the
chain and fence point tables, read once from ``catalog.json``.

RULINGS.md leaves the catalog to us (the document's pictures are not ours
to copy).  A pattern is kept in every distinct quarter turn (a symmetric
pattern has fewer), each as its parts' cells relative to the turned
pattern's lower-left corner, with ``y`` up like the field.  Each part is
further cut into pieces, its 8-connected components: on the field a clean
part is a union of whole same-colour components (no square of its colour
touches it from outside), so the scorer finds occurrences by looking up the
components a move touched among the pieces.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

Cell = tuple[int, int]
CATALOG_FILE = Path(__file__).with_name("catalog.json")
TOUCH = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))
"""The eight neighbours: squares touch by a side or a corner."""


def normalized(cells: frozenset[Cell]) -> tuple[frozenset[Cell], Cell]:
    """The cells moved so the lowest x and y are 0, and the offset removed."""
    min_x = min(x for x, _ in cells)
    min_y = min(y for _, y in cells)
    return frozenset((x - min_x, y - min_y) for x, y in cells), (min_x, min_y)


def components(cells: frozenset[Cell]) -> list[frozenset[Cell]]:
    """The 8-connected groups of ``cells``."""
    left = set(cells)
    groups = []
    while left:
        start = left.pop()
        group = [start]
        for x, y in group:
            for dx, dy in TOUCH:
                near = (x + dx, y + dy)
                if near in left:
                    left.remove(near)
                    group.append(near)
        groups.append(frozenset(group))
    return groups


def turned(cells: frozenset[Cell]) -> frozenset[Cell]:
    """A quarter turn clockwise (y up): (x, y) -> (y, -x)."""
    return frozenset((y, -x) for x, y in cells)


@dataclass(frozen=True)
class Piece:
    """One 8-connected component of a part: its shape and where it sits."""

    part: int
    shape: frozenset[Cell]
    offset: Cell


@dataclass(frozen=True)
class Variant:
    """A pattern in one quarter turn."""

    pattern: "Pattern"
    rotation: int
    parts: tuple[frozenset[Cell], ...]
    pieces: tuple[Piece, ...]

    @property
    def cells(self) -> frozenset[Cell]:
        return frozenset().union(*self.parts)


@dataclass(frozen=True)
class Pattern:
    index: int
    key: str
    colours: int
    """1 or 2: how many colours (parts) it has."""
    parts: tuple[frozenset[Cell], ...]
    points: int

    def variants(self, rotated: bool = True) -> tuple[Variant, ...]:
        """Each distinct turn once, the smallest turn first.

        A turn is distinct when it draws a different picture.  For a
        two-colour pattern the picture is its two parts whichever is which:
        a half turn of ``halves`` (``ab/ab``) puts part b where part a was,
        and since either part may take any colour, it finds exactly the
        occurrences the unturned pattern finds.  Keeping both would score
        one occurrence twice (RULINGS.md: an occurrence scores once)."""
        seen: set[frozenset[frozenset[Cell]]] = set()
        result = []
        parts = self.parts
        for rotation in range(4 if rotated else 1):
            if rotation:
                parts = tuple(turned(part) for part in parts)
            every = frozenset().union(*parts)
            _, (min_x, min_y) = normalized(every)
            placed = tuple(frozenset((x - min_x, y - min_y) for x, y in part) for part in parts)
            picture = frozenset(placed)
            if picture in seen:
                continue
            seen.add(picture)
            pieces = []
            for index, part in enumerate(placed):
                for group in components(part):
                    shape, offset = normalized(group)
                    pieces.append(Piece(index, shape, offset))
            result.append(Variant(self, rotation, placed, tuple(pieces)))
        return tuple(result)


@dataclass(frozen=True)
class Catalog:
    one_colour: tuple[Pattern, ...]
    two_colour: tuple[Pattern, ...]
    chain_from: int
    chain_points: tuple[tuple[int, int], ...]
    fence_cap: int
    fence_points: tuple[tuple[int, int], ...]

    @property
    def patterns(self) -> tuple[Pattern, ...]:
        return self.one_colour + self.two_colour

    def chain_value(self, length: int) -> int:
        """Points for a chain of ``length`` squares (0 below the table's first row)."""
        return _step_value(self.chain_points, length)

    def fence_value(self, enclosed: int) -> int:
        """Points for ``enclosed`` fenced squares (0 past the cap)."""
        return 0 if enclosed > self.fence_cap else _step_value(self.fence_points, enclosed)


def _step_value(table: tuple[tuple[int, int], ...], amount: int) -> int:
    value = 0
    for threshold, points in table:
        if amount >= threshold:
            value = points
    return value


def _parts(rows: list[str], letters: str) -> tuple[frozenset[Cell], ...]:
    height = len(rows)
    return tuple(frozenset((x, height - 1 - y) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch == letter)
                 for letter in letters)


def _table(rows: Any) -> tuple[tuple[int, int], ...]:
    table = tuple((int(a), int(b)) for a, b in rows)
    if list(table) != sorted(table) or any(b <= 0 for _, b in table):
        raise ValueError("a point table must rise")
    return table


def parse_catalog(data: Any) -> Catalog:
    """The catalog from its JSON data; raises ValueError on a malformed one
    (it ships with the app, so this guards our own edits, not players' input)."""
    if not isinstance(data, dict) or data.get("version") != 1:
        raise ValueError("catalog version")
    patterns: list[Pattern] = []
    keys: set[str] = set()
    groups = []
    for field, letters in (("one_colour", "#"), ("two_colour", "ab")):
        group = []
        for item in data[field]:
            rows = item["rows"]
            if not rows or any(len(row) != len(rows[0]) or set(row) - set(letters + ".") for row in rows):
                raise ValueError(f"pattern {item.get('key')}: rows")
            parts = _parts(rows, letters)
            if any(not part for part in parts) or item["key"] in keys or int(item["points"]) <= 0:
                raise ValueError(f"pattern {item.get('key')}")
            keys.add(item["key"])
            pattern = Pattern(len(patterns), item["key"], len(letters), parts, int(item["points"]))
            patterns.append(pattern)
            group.append(pattern)
        groups.append(tuple(group))
    chains, fences = data["chains"], data["fences"]
    return Catalog(groups[0], groups[1], int(chains["from"]), _table(chains["points"]),
                   int(fences["cap"]), _table(fences["points"]))


@lru_cache(maxsize=1)
def catalog() -> Catalog:
    return parse_catalog(json.loads(CATALOG_FILE.read_text(encoding="utf-8")))


# Read as the module is imported: the page's memory snapshot then holds the
# catalog, and the page writes the package's files (this one's JSON among
# them) only once its first screen is up (scripts/make_snapshot.mjs).
catalog()
