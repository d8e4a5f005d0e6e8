"""Quadrotone's chains (2.19) and fences (2.20).

Hand-built fields check each rule of the reading in ``regions``' docstring;
a deliberately simple scorer (whole-field flood fills, written plainly from
that reading) is compared with the fast one on random fields and moves.
"""

from __future__ import annotations

import pytest

from tessera.core.rng import SeededRandom
from tessera.games.quadrotone.catalog import catalog
from tessera.games.quadrotone.patterns import SIDE
from tessera.games.quadrotone.regions import chains, fenced_areas, fences, move_groups, score_regions

R, G, B, Y = 1, 2, 3, 4
LETTERS = {".": 0, "R": R, "G": G, "B": B, "Y": Y}
CAP = catalog().fence_cap


def at(x: int, y: int) -> int:
    return y * SIDE + x


def paint(field: bytearray, rows: list[str], left: int = 0, bottom: int = 0) -> None:
    """Draw ``rows`` (top row first, '.' leaves a square as it is) with its
    lower-left corner at (left, bottom)."""
    for dy, row in enumerate(reversed(rows)):
        for dx, letter in enumerate(row):
            if letter != ".":
                field[at(left + dx, bottom + dy)] = LETTERS[letter]


def drawn(rows: list[str], left: int = 0, bottom: int = 0) -> bytearray:
    field = bytearray(SIDE * SIDE)
    paint(field, rows, left, bottom)
    return field


def ring(size: int, colour: str = "R", inside: str = ".") -> list[str]:
    """A square ring of ``size`` with ``inside`` filling its hole."""
    edge = colour * size
    return [edge] + [colour + inside * (size - 2) + colour for _ in range(size - 2)] + [edge]


# ----- chains ------------------------------------------------------------------------------

def test_a_chain_scores_from_eight_squares() -> None:
    seven = drawn(["RRRRRRR"], 3, 5)
    assert chains(seven, [at(3, 5)], set()) == []
    eight = drawn(["RRRRRRRR"], 3, 5)
    (chain,) = chains(eight, [at(3, 5)], set())
    assert chain.colour == R and chain.cells == {at(x, 5) for x in range(3, 11)}
    assert chain.points == catalog().chain_value(8) > 0


def test_a_chain_joins_by_corners_and_needs_a_square_of_the_move() -> None:
    field = drawn(["R...R...", ".R.R.R.R", "..R...R."], 2, 2)   # a zigzag of 8 touching by corners
    assert len(chains(field, [at(2, 4)], set())[0].cells) == 8
    assert chains(field, [at(20, 20)], set()) == []              # the move touched no square of it
    paint(field, ["G"], 20, 20)
    assert chains(field, [at(20, 20)], set()) == []


def test_a_chain_never_scores_twice_at_the_same_place() -> None:
    field = drawn(["RRRRRRRRR"], 0, 0)
    (chain,) = chains(field, [at(0, 0)], set())
    assert chains(field, [at(8, 0)], chain.keys()) == []
    green = drawn(["GGGGGGGGG"], 0, 0)                       # same places, another colour: a new chain
    assert len(chains(green, [at(0, 0)], chain.keys())) == 1


def test_a_chain_over_half_counted_before_scores_nothing_exactly_half_scores() -> None:
    earlier = {(R, at(x, 0)) for x in range(5)}
    nine = drawn(["RRRRRRRRR"])                     # 5 of 9 counted: more than half
    assert chains(nine, [at(8, 0)], earlier) == []
    ten = drawn(["RRRRRRRRRR"])                     # 5 of 10: exactly half
    (chain,) = chains(ten, [at(9, 0)], earlier)
    assert chain.points == catalog().chain_value(10)


def test_one_move_scores_each_chain_once() -> None:
    field = drawn(["RRRRRRRR", "........", "BBBBBBBB"])
    found = chains(field, [at(0, 0), at(1, 0), at(0, 2)], set())
    assert sorted(chain.colour for chain in found) == [R, B]


# ----- fences ------------------------------------------------------------------------------

def test_a_ring_fences_the_places_inside_it() -> None:
    field = drawn(ring(7), 10, 10)
    paint(field, ["B"], 12, 12)
    paint(field, ["R"], 13, 13)           # the fence's colour, not touching it: counted
    fence = fences(field, [at(10, 10)], set())
    assert fence is not None
    assert fence.cells == {at(x, y) for x in range(11, 16) for y in range(11, 16)}
    assert fence.points == catalog().fence_value(25)
    (area,) = fence.areas
    assert area.colour == R and at(10, 10) in area.border


def test_a_square_touching_the_fence_is_part_of_it() -> None:
    field = drawn(ring(5), 10, 10)
    paint(field, ["RB"], 11, 12)          # (11, 12) touches the ring: it is fence, not fenced
    fence = fences(field, [at(10, 10)], set())
    assert fence is not None and at(11, 12) not in fence.cells and len(fence.cells) == 8


def test_a_diagonal_fence_is_unbroken() -> None:
    field = drawn(["..R..", ".R.R.", "R.B.R", ".R.R.", "..R.."], 4, 4)
    fence = fences(field, [at(6, 8)], set())
    assert fence is not None and fence.cells == {at(6, 6), at(5, 6), at(7, 6), at(6, 5), at(6, 7)}


def test_a_gap_in_the_fence_fences_nothing() -> None:
    field = drawn(["RRRRR", "R...R", "R.B..", "R...R", "RRRRR"], 4, 4)
    assert fences(field, [at(4, 4)], set()) is None


def test_the_field_edge_closes_a_fence() -> None:
    field = drawn(["RRR", "..R", "..R", "B.R"])          # a corner of 6 places
    fence = fences(field, [at(2, 0)], set())
    assert fence is not None and fence.cells == {at(x, y) for x in (0, 1) for y in (0, 1, 2)}
    corner = drawn(["RB", ".R"], 30, 30)                  # the top-right place, fenced by two squares
    fence = fences(corner, [at(30, 31)], set())
    assert fence is not None and fence.cells == {at(31, 31)}


def test_nothing_of_another_colour_inside_scores_nothing() -> None:
    assert fences(drawn(ring(4), 8, 8), [at(8, 8)], set()) is None              # empty places only
    solid = drawn(ring(5), 8, 8)
    paint(solid, ["R"], 10, 10)                                                  # its own colour only
    assert fences(solid, [at(8, 8)], set()) is None
    assert fences(drawn(["RRRR"] * 4, 8, 8), [at(8, 8)], set()) is None        # a solid block


def test_fences_of_one_move_are_added_up() -> None:
    field = drawn(ring(3, "R", "B"), 2, 2)
    paint(field, ring(4, "G", "Y"), 20, 20)
    fence = fences(field, [at(2, 2), at(20, 20)], set())
    assert fence is not None and len(fence.cells) == 1 + 4 and len(fence.areas) == 2
    assert fence.points == catalog().fence_value(5)


def test_nested_fences_count_each_place_once() -> None:
    field = drawn(ring(7, "G"), 10, 10)
    paint(field, ring(3, "R", "B"), 12, 12)
    fence = fences(field, [at(10, 10), at(12, 12)], set())
    assert fence is not None and len(fence.cells) == 25 and len(fence.areas) == 2


def test_more_than_the_cap_fenced_scores_nothing() -> None:
    assert CAP == 60
    big = drawn(ring(10, "R", "B"))                                       # 64 inside
    assert fences(big, [at(0, 0)], set()) is None
    exact = drawn(["B" * 10 + "R"] * 6 + ["R" * 11], 0, 25)          # 60 against two edges
    fence = fences(exact, [at(0, 25)], set())
    assert fence is not None and len(fence.cells) == 60
    two = drawn(ring(9, "R", "B"), 2, 2)                                  # 49 and 16 in one move
    paint(two, ring(6, "G", "Y"), 20, 20)
    assert fences(two, [at(2, 2), at(20, 20)], set()) is None
    assert fences(two, [at(2, 2)], set()) is not None


def test_a_fence_splitting_the_field_in_two_big_parts_scores_nothing() -> None:
    field = drawn(["R"] * SIDE, 15, 0)              # a wall from edge to edge
    paint(field, ["B"], 3, 3)
    paint(field, ["B"], 25, 3)
    paint(field, ring(3, "G", "Y"), 5, 20)
    assert fences(field, [at(15, 0)], set()) is None
    assert fences(field, [at(15, 0), at(5, 20)], set()) is None     # the whole move's fences
    assert fences(field, [at(5, 20)], set()) is not None
    bent = drawn(["R"] * 20, 15, 0)                 # open at the top: one open field
    paint(bent, ["B"], 3, 3)
    assert fences(bent, [at(15, 0)], set()) is None
    wavy = bytearray(SIDE * SIDE)                   # a long fence that the fills on each side meet late
    for y in range(SIDE):
        wavy[at(10 + (y // 4) % 2, y)] = R
    paint(wavy, ring(3, "R", "B"), 11, 0)           # and a small fenced area joined to it
    paint(wavy, ["B"], 3, 3)
    assert fences(wavy, [at(10, 0)], set()) is None
    wavy[at(11, 31)] = 0                            # a gap at the top: one open field again
    fence = fences(wavy, [at(10, 0)], set())
    assert fence is not None and fence.cells == {at(12, 1)}


def test_an_area_over_half_fenced_before_scores_nothing_exactly_half_scores() -> None:
    field = drawn(ring(5, "R", "B"), 10, 10)                         # 9 inside
    inside = [at(x, y) for x in range(11, 14) for y in range(11, 14)]
    assert fences(field, [at(10, 10)], set(inside[:5])) is None
    small = drawn(ring(4, "R", "B"), 10, 10)                         # 4 inside, 2 fenced before
    fence = fences(small, [at(10, 10)], {at(11, 11), at(12, 11)})
    assert fence is not None and fence.points == catalog().fence_value(4)


def test_only_the_areas_that_count_are_added_up() -> None:
    field = drawn(ring(3, "R", "B"), 2, 2)
    paint(field, ring(4, "G", "Y"), 20, 20)
    fence = fences(field, [at(2, 2), at(20, 20)], {at(3, 3)})
    assert fence is not None and fence.cells == {at(x, y) for x in (21, 22) for y in (21, 22)}


def test_score_regions_shares_the_groups() -> None:
    field = drawn(ring(5, "R", "B"), 10, 10)
    found, fence = score_regions(field, [at(10, 10)], set(), set())
    assert len(found) == 1 and len(found[0].cells) == 16 and fence is not None
    assert score_regions(field, [at(10, 10)], set(), set(), with_chains=False)[0] == []
    assert score_regions(field, [at(10, 10)], set(), set(), with_fences=False)[1] is None


# ----- against a plain reference --------------------------------------------------------------

def plain_groups(field: bytearray, corners: bool, keep) -> list[set[int]]:
    """Every group of squares for which ``keep`` holds, joined by sides (and
    corners), over the whole field."""
    steps = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx or dy) and (corners or not (dx and dy))]
    seen: set[int] = set()
    groups = []
    for start in range(SIDE * SIDE):
        if start in seen or not keep(start):
            continue
        group, todo = {start}, [start]
        seen.add(start)
        while todo:
            index = todo.pop()
            x, y = index % SIDE, index // SIDE
            for dx, dy in steps:
                near = at(x + dx, y + dy)
                if 0 <= x + dx < SIDE and 0 <= y + dy < SIDE and near not in seen and keep(near) \
                        and (not corners or field[near] == field[start]):
                    seen.add(near)
                    group.add(near)
                    todo.append(near)
        groups.append(group)
    return groups


def plain_score(field: bytearray, involved: list[int], counted: set, fenced: set):
    table = catalog()
    groups = [g for g in plain_groups(field, True, lambda i: field[i] != 0) if g & set(involved)]
    chain_result = set()
    for group in groups:
        colour = field[next(iter(group))]
        before = len([i for i in group if (colour, i) in counted])
        if len(group) >= table.chain_from and 2 * before <= len(group):
            chain_result.add((colour, frozenset(group), table.chain_value(len(group))))
    areas = []
    for group in groups:
        colour = field[next(iter(group))]
        outside = plain_groups(field, False, lambda i: i not in group)
        if len([area for area in outside if len(area) > table.fence_cap]) >= 2:
            return chain_result, None
        areas += [area for area in outside if len(area) <= table.fence_cap
                  and any(field[i] not in (0, colour) for i in area)]
    if not areas or len(set().union(*areas)) > table.fence_cap:
        return chain_result, None
    scoring = [area for area in areas if 2 * len(area & fenced) <= len(area)]
    if not scoring:
        return chain_result, None
    cells = frozenset(set().union(*scoring))
    return chain_result, (cells, table.fence_value(len(cells)))


def random_field(rng: SeededRandom) -> bytearray:
    """Walls and rings of few colours over scattered chips, so that chains,
    fences and splits all happen."""
    field = bytearray(SIDE * SIDE)
    colours = 2 + rng.below(3)
    for _ in range(rng.below(120)):
        x, y = rng.below(SIDE), rng.below(SIDE)
        field[at(x, y)] = 1 + rng.below(4)
    for _ in range(2 + rng.below(6)):
        colour = 1 + rng.below(colours)
        x, y = rng.below(SIDE), rng.below(SIDE)
        for _ in range(rng.below(60)):
            field[at(x, y)] = colour
            x = min(SIDE - 1, max(0, x + rng.below(3) - 1))
            y = min(SIDE - 1, max(0, y + rng.below(3) - 1))
    if rng.below(2):                                   # a wall from the bottom edge to the top
        colour, x = 1 + rng.below(colours), rng.below(SIDE)
        for y in range(SIDE):
            field[at(x, y)] = colour
            x = min(SIDE - 1, max(0, x + rng.below(3) - 1))
    for _ in range(rng.below(4)):
        size = 3 + rng.below(9)
        paint(field, ring(size, "RGBY"[rng.below(colours)]), rng.below(SIDE - size), rng.below(SIDE - size))
    return field


@pytest.mark.parametrize("seed", range(8))
def test_fast_scorer_agrees_with_the_plain_one(seed: int) -> None:
    rng = SeededRandom(seed)
    seen_fences = seen_splits = 0
    for _ in range(6):
        field = random_field(rng)
        counted: set[tuple[int, int]] = set()
        fenced: set[int] = set()
        for _ in range(4):
            filled = [i for i in range(SIDE * SIDE) if field[i]]
            squares = [rng.below(256) if rng.below(2) else (rng.choice(filled) % SIDE) // 2
                       + (rng.choice(filled) // SIDE) // 2 * 16 for _ in range(1 + rng.below(8))]
            involved = [at(2 * (s % 16) + dx, 2 * (s // 16) + dy) for s in squares for dx in (0, 1) for dy in (0, 1)]
            found, fence = score_regions(field, involved, counted, fenced)
            want_chains, want_fence = plain_score(field, involved, counted, fenced)
            assert {(c.colour, c.cells, c.points) for c in found} == want_chains
            assert (None if fence is None else (fence.cells, fence.points)) == want_fence
            assert fences(field, involved, fenced) == fence and chains(field, involved, counted) == found
            for chain in found:
                counted |= chain.keys()
            if fence is not None:
                fenced |= fence.cells
                seen_fences += 1
            seen_splits += sum(1 for g in move_groups(field, involved) if fenced_areas(field, g, CAP) is None)
            for _ in range(rng.below(30)):                 # the field changes between moves
                field[rng.below(SIDE * SIDE)] = rng.below(5)
    assert seen_fences and seen_splits        # the random fields did exercise fences and splits
