"""Finding and scoring the patterns a move builds, around the squares it changed.

RULINGS.md: a one-colour pattern occurs in colour c when all its small
squares have colour c and no other square of colour c touches it by a side
or a corner; a two-colour pattern has two parts of two different colours,
and outside the whole pattern no square of either colour touches either
part.  So every part on the field is a union of whole same-colour
8-connected components -- the catalog's pieces.  The scorer therefore only
looks at the components that hold a square the move changed (it was
"built by the move"), matches them against the pieces of that shape, and
checks the rest of the pattern where the match puts it.  Work grows with
the squares a move touched, never with the whole field.

Scoring one move (``score``): an occurrence (pattern, turn, place) already
used in the game never scores again (2.14); among the one-colour
occurrences of one colour, one whose squares all lie inside another is
dropped (2.15), and a dropped one is used up as if it had scored, so a
later move that builds it again there scores nothing for it; copies -- one-colour occurrences of the same pattern in the
same turn -- score 1x, 2x, 3x ... their base value (2.16; the document
gives copies for one-colour patterns only, so two-colour ones score once).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable

from .catalog import TOUCH, Cell, Piece, Variant, catalog, normalized

SIDE = 32
"""Small squares along each side of the field."""


@dataclass(frozen=True)
class Occurrence:
    variant: Variant
    origin: Cell
    colours: tuple[int, ...]
    """The colour (1-4) of each part."""

    @property
    def key(self) -> tuple[int, int, int, int]:
        """(pattern, turn, x, y): what may score only once in a game."""
        return self.variant.pattern.index, self.variant.rotation, self.origin[0], self.origin[1]

    def cells(self) -> frozenset[Cell]:
        ox, oy = self.origin
        return frozenset((x + ox, y + oy) for x, y in self.variant.cells)

    def part_cells(self, part: int) -> frozenset[Cell]:
        ox, oy = self.origin
        return frozenset((x + ox, y + oy) for x, y in self.variant.parts[part])


@lru_cache(maxsize=2)
def _pieces_by_shape(rotated: bool) -> tuple[dict[frozenset[Cell], list[tuple[Variant, Piece]]], int]:
    table: dict[frozenset[Cell], list[tuple[Variant, Piece]]] = {}
    largest = 0
    for pattern in catalog().patterns:
        for variant in pattern.variants(rotated):
            for piece in variant.pieces:
                table.setdefault(piece.shape, []).append((variant, piece))
                largest = max(largest, len(piece.shape))
    return table, largest


def colour_at(field: bytes | bytearray, x: int, y: int) -> int:
    return field[y * SIDE + x] if 0 <= x < SIDE and 0 <= y < SIDE else 0


def component(field: bytes | bytearray, x: int, y: int, limit: int) -> frozenset[Cell] | None:
    """The 8-connected same-colour group holding (x, y); None if it is empty
    or grows past ``limit`` squares (then no piece can be it)."""
    colour = colour_at(field, x, y)
    if not colour:
        return None
    group = [(x, y)]
    seen = {(x, y)}
    for cx, cy in group:
        for dx, dy in TOUCH:
            near = (cx + dx, cy + dy)
            if near not in seen and colour_at(field, near[0], near[1]) == colour:
                seen.add(near)
                group.append(near)
                if len(group) > limit:
                    return None
    return frozenset(group)


def find(field: bytes | bytearray, changed: Iterable[Cell], rotated: bool = True) -> list[Occurrence]:
    """Every occurrence with a square among ``changed``, each once."""
    table, largest = _pieces_by_shape(rotated)
    done: set[Cell] = set()
    found: dict[tuple[int, int, int, int], Occurrence] = {}
    for x, y in changed:
        if (x, y) in done:
            continue
        group = component(field, x, y, largest)
        if group is None:
            continue
        done |= group
        shape, (gx, gy) = normalized(group)
        colour = colour_at(field, x, y)
        for variant, piece in table.get(shape, ()):
            origin = (gx - piece.offset[0], gy - piece.offset[1])
            occurrence = _check(field, variant, origin, piece.part, colour, largest)
            if occurrence is not None:
                found.setdefault(occurrence.key, occurrence)
    return list(found.values())


def _check(field: bytes | bytearray, variant: Variant, origin: Cell, part: int, colour: int,
           largest: int) -> Occurrence | None:
    ox, oy = origin
    if ox < 0 or oy < 0:
        return None
    colours = [0] * len(variant.parts)
    colours[part] = colour
    if len(variant.parts) == 2:   # the other part's colour is whatever stands at its first square
        other = 1 - part
        first_x, first_y = min(variant.parts[other])
        colours[other] = colour_at(field, first_x + ox, first_y + oy)
        if colours[other] in (0, colour):
            return None
    for piece in variant.pieces:
        px, py = piece.offset
        sx, sy = min(piece.shape)
        group = component(field, sx + px + ox, sy + py + oy, largest)
        if group is None or colour_at(field, sx + px + ox, sy + py + oy) != colours[piece.part]:
            return None
        if group != frozenset((cx + px + ox, cy + py + oy) for cx, cy in piece.shape):
            return None
    occurrence = Occurrence(variant, origin, tuple(colours))
    if len(colours) == 2 and not _parts_apart(field, occurrence):
        return None
    return occurrence


def _parts_apart(field: bytes | bytearray, occurrence: Occurrence) -> bool:
    """No square of one part's colour outside the pattern touches the other part."""
    inside = occurrence.cells()
    for part in (0, 1):
        other_colour = occurrence.colours[1 - part]
        for x, y in occurrence.part_cells(part):
            for dx, dy in TOUCH:
                near = (x + dx, y + dy)
                if near not in inside and colour_at(field, near[0], near[1]) == other_colour:
                    return False
    return True


@dataclass(frozen=True)
class Scored:
    occurrence: Occurrence
    points: int
    copy: int
    """1 for the first of its pattern and turn in this move, 2 for the second ..."""


@dataclass(frozen=True)
class Scoring:
    """What one move's occurrences come to."""

    scored: list[Scored]
    """What scores, in a stable order."""
    dropped: tuple[Occurrence, ...]
    """Fresh one-colour occurrences inside a bigger one of their colour: they
    score nothing now and, by 2.15, are "unavailable for repetition in the
    next moves of any of the opponents" -- used up like the scored ones."""

    def used_keys(self) -> list[tuple[int, int, int, int]]:
        """Every occurrence this move uses up (2.14 and 2.15): the scored and the dropped."""
        return [s.occurrence.key for s in self.scored] + [o.key for o in self.dropped]


def score(occurrences: list[Occurrence], already: set[tuple[int, int, int, int]]) -> Scoring:
    """What a move's occurrences score (see the module docstring); ``already``
    holds the keys used up earlier in the game."""
    fresh = sorted((o for o in occurrences if o.key not in already), key=lambda o: (o.key[0], o.key[1], o.key[3], o.key[2]))
    kept = []
    dropped = []
    for occurrence in fresh:
        if len(occurrence.colours) == 1:
            cells = occurrence.cells()
            if any(other is not occurrence and len(other.colours) == 1 and other.colours == occurrence.colours
                   and cells < other.cells() for other in fresh):
                dropped.append(occurrence)   # inside a bigger one-colour occurrence of its colour (2.15)
                continue
        kept.append(occurrence)
    result = []
    copies: dict[tuple[int, int], int] = {}
    for occurrence in kept:
        base = occurrence.variant.pattern.points
        if len(occurrence.colours) == 1:
            number = copies.get(occurrence.key[:2], 0) + 1
            copies[occurrence.key[:2]] = number
        else:
            number = 1
        result.append(Scored(occurrence, base * number, number))
    return Scoring(result, tuple(dropped))
