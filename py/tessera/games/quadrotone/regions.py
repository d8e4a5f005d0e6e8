"""Chains (2.19) and fences (2.20): the extra points for one-colour groups.

The document describes both in words only; this is our precise reading
(the rules page lists the same points).  Squares are field indices
``y * 32 + x``; "touching" is by a side or a corner (8 neighbours).

The move's groups: for every small square of a chip the move placed, moved,
swapped or turned (where the move left it), the largest group of squares of
its colour that touch one another, each group once.

Chains (2.19):
- a group of at least ``catalog().chain_from`` squares is a chain, worth
  ``chain_value(len)``;
- what counts is a square's colour and place, whoever's chip it is on.  A
  chain scores nothing when more than half of its squares (colour and place)
  lay in chains that scored earlier in the game; exactly half still scores.
  The same chain at the same place therefore never scores twice;
- chains of one move are separate groups, so they never share squares.

Fences (2.20):
- every group of the move is a fence.  The field's squares outside it split
  into areas joined by sides (an unbroken fence of touching squares blocks
  a side step), and the field's edges bound every area;
- an area of more than ``fence_cap`` squares is the open field when it is
  the fence's only such area.  If the fence leaves two or more of them, it
  has fenced more than the cap: the move scores no fence points;
- every other area is fenced.  It counts only if it holds a square of a
  colour other than the fence's (empty squares are no colour), so a solid
  blob or a ring round empty places scores nothing;
- all its places count, empty ones and the fence's colour not touching the
  fence included (squares of that colour that touch it are the fence);
- everything one move fences (all fences, all colours) is counted together,
  each place once.  More than ``fence_cap`` places: no fence points at all;
- what counts is a place, whatever its colour.  An area scores nothing when
  more than half of its places were fenced by earlier moves (exactly half
  still scores); the move's points are ``fence_value`` of the places in its
  areas that score.

Work grows with the squares the move touched and the sizes of its groups:
each area is filled only up to ``fence_cap + 1`` places, and only a fence
that may split the field into two big parts grows those fills further,
always the smaller side first.  Nothing scans the whole field.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from .catalog import catalog
from .patterns import SIDE

Field = bytes | bytearray
CELLS = SIDE * SIDE


def _neighbour_table(corners: bool) -> tuple[tuple[int, ...], ...]:
    steps = [(dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1)
             if (dx or dy) and (corners or not (dx and dy))]
    return tuple(tuple((y + dy) * SIDE + x + dx for dx, dy in steps if 0 <= x + dx < SIDE and 0 <= y + dy < SIDE)
                 for y in range(SIDE) for x in range(SIDE))


TOUCHING = _neighbour_table(corners=True)
"""Field index -> the indices touching it by a side or a corner."""
BESIDE = _neighbour_table(corners=False)
"""Field index -> the indices sharing a side with it."""


@dataclass(frozen=True)
class Group:
    """One colour's squares that touch one another, holding a square of the move."""

    colour: int
    cells: frozenset[int]


@dataclass(frozen=True)
class Chain:
    colour: int
    cells: frozenset[int]
    points: int

    def keys(self) -> set[tuple[int, int]]:
        """(colour, index) of its squares: what the game adds to ``counted``."""
        return {(self.colour, index) for index in self.cells}


@dataclass(frozen=True)
class FencedArea:
    colour: int
    """The fence's colour."""
    border: frozenset[int]
    """The fence: its group's squares."""
    cells: frozenset[int]


@dataclass(frozen=True)
class Fence:
    """What one move's fences score: the areas that count and their places."""

    areas: tuple[FencedArea, ...]
    cells: frozenset[int]
    """Every place of the counted areas, once: what the game adds to ``fenced``."""
    points: int


def move_groups(field: Field, involved: Iterable[int]) -> list[Group]:
    """The groups holding the move's squares (``involved``: field indices), each once."""
    seen = bytearray(CELLS)
    groups = []
    for start in involved:
        colour = field[start]
        if not colour or seen[start]:
            continue
        seen[start] = 1
        cells = [start]
        for index in cells:
            for near in TOUCHING[index]:
                if not seen[near] and field[near] == colour:
                    seen[near] = 1
                    cells.append(near)
        groups.append(Group(colour, frozenset(cells)))
    return groups


def chains(field: Field, involved: Iterable[int], counted: set[tuple[int, int]],
           groups: list[Group] | None = None) -> list[Chain]:
    """The chains the move scores; ``counted`` holds (colour, index) of the
    squares of chains scored earlier.  Pass ``groups`` (``move_groups``) to
    share them with ``fences``."""
    table = catalog()
    found = []
    for group in move_groups(field, involved) if groups is None else groups:
        size = len(group.cells)
        if size < table.chain_from:
            continue
        colour = group.colour
        before = sum(1 for index in group.cells if (colour, index) in counted)
        if 2 * before > size:
            continue
        points = table.chain_value(size)
        if points > 0:
            found.append(Chain(colour, group.cells, points))
    return found


def fences(field: Field, involved: Iterable[int], fenced: set[int],
           groups: list[Group] | None = None) -> Fence | None:
    """What the move's fences score, or None if nothing; ``fenced`` holds the
    places fenced by earlier moves."""
    table = catalog()
    cap = table.fence_cap
    areas: list[FencedArea] = []
    for group in move_groups(field, involved) if groups is None else groups:
        found = fenced_areas(field, group, cap)
        if found is None:
            return None
        areas.extend(found)
    if not areas or len(frozenset().union(*(area.cells for area in areas))) > cap:
        return None
    scoring = tuple(area for area in areas
                    if 2 * sum(1 for index in area.cells if index in fenced) <= len(area.cells))
    if not scoring:
        return None
    cells = frozenset().union(*(area.cells for area in scoring))
    points = table.fence_value(len(cells))
    return Fence(scoring, cells, points) if points > 0 else None


class _Areas:
    """The areas outside one fence, found by fills that share one labelling.

    A fill stops once it passes ``cap`` places (a big area).  Fills that meet
    are one area (only big fills can be met: a small one is closed).  Areas
    are numbered from 1; ``parent`` joins numbers that turned out one area.
    """

    def __init__(self, field: Field, border: frozenset[int], cap: int) -> None:
        self.field = field
        self.cap = cap
        self.wall = bytearray(CELLS)
        for index in border:
            self.wall[index] = 1
        self.label = [0] * CELLS
        self.parent = [0]
        self.cells: list[list[int]] = [[]]
        self.head = [0]

    def root(self, area: int) -> int:
        while self.parent[area] != area:
            area = self.parent[area]
        return area

    def start(self, index: int) -> int:
        area = len(self.parent)
        self.parent.append(area)
        self.cells.append([index])
        self.head.append(0)
        self.label[index] = area
        return area

    def step(self, area: int) -> int:
        """Take the next place of ``area``'s fill; the area's number afterwards
        (another one if the fill met it)."""
        index = self.cells[area][self.head[area]]
        self.head[area] += 1
        met = []
        for near in BESIDE[index]:
            if self.wall[near]:
                continue
            other = self.label[near]
            if not other:
                self.label[near] = area
                self.cells[area].append(near)
            elif other != area:
                met.append(other)
        for other in met:
            other = self.root(other)
            if other != area:
                self.parent[area] = other   # keep filling from where both fills stand
                self.cells[other].extend(self.cells[area][self.head[area]:])
                area = other
        return area

    def done(self, area: int) -> bool:
        return self.head[area] >= len(self.cells[area])

    def fill(self, index: int) -> tuple[int, bool]:
        """Fill from ``index``: (its area, whether that area is big)."""
        area = self.start(index)
        while True:
            if self.done(area):
                return area, False
            grown = self.step(area)
            if grown != area or len(self.cells[area]) > self.cap:
                return grown, True


def fenced_areas(field: Field, group: Group, cap: int) -> list[FencedArea] | None:
    """The areas ``group`` fences that hold another colour; None if it splits
    the field into two or more areas of more than ``cap`` places."""
    if len(group.cells) < 2:
        return []   # one square fences nothing
    areas = _Areas(field, group.cells, cap)
    small: list[int] = []
    big: set[int] = set()
    for index in group.cells:
        for seed in BESIDE[index]:
            if areas.wall[seed] or areas.label[seed]:
                continue
            area, is_big = areas.fill(seed)
            if is_big:
                big.add(area)
            else:
                small.append(area)
    live = {areas.root(area) for area in big}
    while len(live) > 1:   # are these one area, or does the fence split the field?
        area = min(live, key=lambda a: len(areas.cells[a]))
        if areas.done(area):
            return None
        grown = areas.step(area)
        if grown != area:
            live = {areas.root(a) for a in live}
    colour = group.colour
    found = []
    for area in small:
        cells = areas.cells[area]
        if any(field[index] != colour and field[index] for index in cells):
            found.append(FencedArea(colour, group.cells, frozenset(cells)))
    return found


def score_regions(field: Field, involved: Iterable[int], counted: set[tuple[int, int]], fenced: set[int],
                  with_chains: bool = True, with_fences: bool = True) -> tuple[list[Chain], Fence | None]:
    """Chains and fences of one move, finding its groups once."""
    if not (with_chains or with_fences):
        return [], None
    groups = move_groups(field, involved)
    return (chains(field, (), counted, groups) if with_chains else [],
            fences(field, (), fenced, groups) if with_fences else None)
