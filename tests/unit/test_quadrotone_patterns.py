"""Quadrotone's chips, deal, catalog and pattern scorer.

The scorer is checked against a deliberately simple one written from the
rule text (every pattern, turn, place and colour tried, squares compared
one by one) on random fields, and on hand-built cases for the scoring
rules: clean and not clean, copies, no repeat, inclusion.
"""

from __future__ import annotations

import pytest

from tessera.core.rng import SeededRandom
from tessera.games.quadrotone.catalog import TOUCH, catalog, parse_catalog
from tessera.games.quadrotone.chips import (CHIPS, EXCHANGE, SWAPS, chip_text, deal, parse_chip, rotate,
                                            squares, swapped)
from tessera.games.quadrotone.patterns import SIDE, find, score

R, G, B, Y = 1, 2, 3, 4


def field_of(cells: dict[tuple[int, int], int]) -> bytearray:
    field = bytearray(SIDE * SIDE)
    for (x, y), colour in cells.items():
        field[y * SIDE + x] = colour
    return field


def keys(occurrences) -> set[tuple[str, int, tuple[int, int], tuple[int, ...]]]:
    return {(o.variant.pattern.key, o.variant.rotation, o.origin, o.colours) for o in occurrences}


# ----- chips and the deal ---------------------------------------------------------------

def test_chips_rotate_round_and_read_back() -> None:
    assert len({chip_text(c) for c in range(CHIPS)}) == 256
    for chip in range(CHIPS):
        assert parse_chip(chip_text(chip)) == chip
        assert rotate(chip, 4) == chip
        tl, tr, br, bl = squares(chip)
        assert squares(rotate(chip, 1)) == (bl, tl, tr, br)   # a quarter turn clockwise
    assert chip_text(rotate(parse_chip("RGBY"), 1)) == "YRGB"
    for bad in ("RGB", "RGBX", "rgby", 5, None):
        assert parse_chip(bad) is None


@pytest.mark.parametrize("seed", range(6))
def test_the_old_exchange_deal_still_deals_as_it_did(seed: int) -> None:
    """Records from before the ruled deal replay with the colour exchange:
    each hand is the other's image under one of the three swaps."""
    (first, second), starter = deal(seed, EXCHANGE)
    assert len(first) == len(second) == 128 and not first & second
    assert first | second == set(range(CHIPS))
    assert any({swapped(chip, swap) for chip in first} == second for swap in SWAPS)
    assert starter in (0, 1)
    assert deal(seed, EXCHANGE) == deal(seed, EXCHANGE) != deal(seed)


def test_different_seeds_deal_differently() -> None:
    assert len({deal(seed)[0][0] for seed in range(8)}) > 1
    assert len({deal(seed, EXCHANGE)[0][0] for seed in range(8)}) > 1


# ----- the catalog ------------------------------------------------------------------------

def test_the_catalog_has_what_the_rulings_ask() -> None:
    table = catalog()
    assert len(table.one_colour) >= 24 and len(table.two_colour) >= 12
    by_key = {p.key: p for p in table.patterns}
    assert len(by_key["square4"].variants()) == 1
    assert len(by_key["bar3"].variants()) == 2
    assert len(by_key["ell4"].variants()) == 4
    assert len(by_key["ell4"].variants(rotated=False)) == 1
    assert table.chain_value(7) == 0 and table.chain_value(8) > 0
    assert table.fence_value(61) == 0 and table.fence_value(60) > table.fence_value(1) > 0


@pytest.mark.parametrize("bad", [
    None, {"version": 2}, {"version": 1, "one_colour": [{"key": "x", "rows": ["#", "##"], "points": 1}],
                           "two_colour": [], "chains": {"from": 8, "points": []}, "fences": {"cap": 60, "points": []}},
])
def test_a_malformed_catalog_is_refused(bad) -> None:
    with pytest.raises((ValueError, KeyError, TypeError)):
        parse_catalog(bad)


# ----- a simple scorer from the rule text --------------------------------------------------

def simple_find(field: bytearray, changed: set[tuple[int, int]], rotated: bool = True):
    """Every (pattern, turn, place, colours) whose squares have their part's
    colour, with no square of a part's colour (either part's, for two
    colours) outside the pattern touching it, and a changed square inside."""
    def at(x: int, y: int) -> int:
        return field[y * SIDE + x] if 0 <= x < SIDE and 0 <= y < SIDE else 0
    found = set()
    for pattern in catalog().patterns:
        for variant in pattern.variants(rotated):
            cells = variant.cells
            width = max(x for x, _ in cells) + 1
            height = max(y for _, y in cells) + 1
            for oy in range(SIDE - height + 1):
                for ox in range(SIDE - width + 1):
                    placed = [{(x + ox, y + oy) for x, y in part} for part in variant.parts]
                    inside = set().union(*placed)
                    if not inside & changed:
                        continue
                    colours = tuple(at(*min(part)) for part in placed)
                    if 0 in colours or len(set(colours)) != len(colours):
                        continue
                    if any(at(x, y) != colour for part, colour in zip(placed, colours) for x, y in part):
                        continue
                    clean = True
                    for part in placed:
                        for x, y in part:
                            for dx, dy in TOUCH:
                                near = (x + dx, y + dy)
                                if near not in inside and at(*near) in colours:
                                    clean = False
                    if clean:
                        found.add((pattern.key, variant.rotation, (ox, oy), colours))
    return found


@pytest.mark.parametrize("seed", range(8))
def test_the_scorer_agrees_with_the_simple_one_on_random_fields(seed: int) -> None:
    rng = SeededRandom(seed)
    density = [0.25, 0.45, 0.65][seed % 3]
    field = bytearray(SIDE * SIDE)
    for index in range(SIDE * SIDE):
        if rng.random() < density:
            field[index] = 1 + rng.below(2 if seed % 2 else 4)   # two colours make more patterns
    for _ in range(3):
        cx, cy = rng.below(15), rng.below(15)
        changed = {(2 * cx + dx, 2 * cy + dy) for dx in (0, 1) for dy in (0, 1)}   # one chip's squares
        assert keys(find(field, changed)) == simple_find(field, changed)
        assert keys(find(field, changed, rotated=False)) == simple_find(field, changed, rotated=False)


# ----- hand-built cases -------------------------------------------------------------------

def test_clean_and_not_clean() -> None:
    bar = {(3, 10): R, (4, 10): R, (5, 10): R}
    assert ("bar3", 0, (3, 10), (R,)) in keys(find(field_of(bar), [(4, 10)]))
    touching_corner = field_of({**bar, (6, 11): R})          # a red square touches the bar's end by a corner
    assert not any(o.variant.pattern.key == "bar3" for o in find(touching_corner, [(4, 10)]))
    other_colour = field_of({**bar, (6, 11): G, (4, 11): B})  # other colours may touch a one-colour pattern
    assert ("bar3", 0, (3, 10), (R,)) in keys(find(other_colour, [(4, 10)]))


def test_a_two_colour_pattern_needs_its_parts_apart_from_outside_squares() -> None:
    halves = {(2, 0): R, (2, 1): R, (3, 0): B, (3, 1): B}
    assert ("halves", 0, (2, 0), (R, B)) in keys(find(field_of(halves), [(2, 0)]))
    blue_touches_red = field_of({**halves, (1, 2): B})   # a blue square outside touches only the red part
    assert not any(o.variant.pattern.key == "halves" for o in find(blue_touches_red, [(2, 0)]))
    red_elsewhere = field_of({**halves, (0, 3): R})      # a red square that touches neither part is fine
    assert ("halves", 0, (2, 0), (R, B)) in keys(find(red_elsewhere, [(2, 0)]))


def test_built_by_the_move_means_a_changed_square_inside() -> None:
    field = field_of({(3, 10): R, (4, 10): R, (5, 10): R})
    assert find(field, [(10, 10)]) == []


def test_copies_score_one_two_three_times() -> None:
    cells = {}
    for row in (2, 6, 10):
        for x in (3, 4, 5):
            cells[(x, row)] = [R, G, B][row // 4]     # three bars of three, of different colours
    occurrences = [o for o in find(field_of(cells), [(4, 2), (4, 6), (4, 10)]) if o.variant.pattern.key == "bar3"]
    scored = score(occurrences, set()).scored
    assert sorted(s.points for s in scored) == [4, 8, 12] and sorted(s.copy for s in scored) == [1, 2, 3]


def test_an_occurrence_scores_once_per_game() -> None:
    field = field_of({(3, 10): R, (4, 10): R, (5, 10): R})
    first = score(find(field, [(4, 10)]), set()).scored
    already = {s.occurrence.key for s in first}
    assert first and score(find(field, [(4, 10)]), already).scored == []
    repainted = field_of({(3, 10): Y, (4, 10): Y, (5, 10): Y})   # in another colour it still does not
    assert [s for s in score(find(repainted, [(4, 10)]), already).scored if s.occurrence.variant.pattern.key == "bar3"] == []


def test_inclusion_keeps_the_bigger_one_colour_pattern() -> None:
    dots = field_of({(2, 5): G, (4, 5): G, (6, 5): G})            # dots3 holds two dots2
    scoring = score(find(dots, [(2, 5), (4, 5), (6, 5)]), set())
    assert [s.occurrence.variant.pattern.key for s in scoring.scored] == ["dots3"]
    assert sorted(o.variant.pattern.key for o in scoring.dropped) == ["dots2", "dots2"]
