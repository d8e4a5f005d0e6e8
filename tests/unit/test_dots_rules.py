"""Dots rules, article by article (sections 4-6 and 8 of the 2017 rules and
the Dots rulings), on positions drawn as pictures.

A picture is placed on an empty 20x20 field with its lower-left corner on
3-3.  ``B``/``R`` are live dots, the other position-string letters
(``a b c p q r``) are points inside regions, ``.`` is empty, and the
letters ``v w x y z`` label empty points that the test then plays.
"""

from __future__ import annotations

import textwrap

import pytest

from tessera.core.game import IllegalMoveError
from tessera.games.dots import BLUE, LAND, NONE, RED, Dots

ORIGIN = 3
LABELS = "vwxyz"


def board(picture: str, to_move: str = "b") -> tuple[Dots, dict[str, str]]:
    rows = [row.replace(" ", "") for row in textwrap.dedent(picture).strip().splitlines()]
    grid = [["."] * 20 for _ in range(20)]
    labels = {}
    for i, row in enumerate(rows):
        y = ORIGIN + len(rows) - 1 - i
        for j, char in enumerate(row):
            x = ORIGIN + j
            if char in LABELS:
                labels[char] = f"{x}-{y}"
            elif char != ".":
                grid[20 - y][x - 1] = char
    setup = "/".join("".join(row) for row in grid) + f" {to_move} - -"
    return Dots({"size": "20x20", "start": "empty"}, setup=setup), labels


def at(label: str) -> tuple[int, int]:
    x, y = label.split("-")
    return int(x), int(y)


def pic(col: int, row: int) -> tuple[int, int]:
    """Picture column/row (1-based, row 1 at the bottom) to field x, y."""
    return ORIGIN + col - 1, ORIGIN + row - 1


def diamond(cx: int, cy: int, r: int) -> list[tuple[int, int]]:
    return sorted({(cx + dx, cy + s * (r - abs(dx))) for dx in range(-r, r + 1) for s in (1, -1)})


def play_points(game: Dots, points) -> None:
    for x, y in points:
        game.push(game.cell(x, y))


# ----- section 4: the start ------------------------------------------------------
def test_default_start_is_the_cross_of_article_4_3():
    """39x32 starts with blue on 20-17, 21-16 and red on 20-16, 21-17, blue to move."""
    game = Dots()
    assert (game.width, game.height) == (39, 32)
    assert game.point_state(20, 17) == (BLUE, NONE) and game.point_state(21, 16) == (BLUE, NONE)
    assert game.point_state(20, 16) == (RED, NONE) and game.point_state(21, 17) == (RED, NONE)
    assert game.to_move == BLUE and game.free_count() == 39 * 32 - 4 and game.scores() == (0, 0)


@pytest.mark.parametrize("size, blue, red", [
    ("20x20", [(10, 11), (11, 10)], [(10, 10), (11, 11)]),
    ("30x30", [(15, 16), (16, 15)], [(15, 15), (16, 16)]),
])
def test_cross_is_centred_on_other_sizes(size, blue, red):
    """The cross's lower-left dot is ((w+1)//2, (h+1)//2) on every size."""
    game = Dots({"size": size})
    for x, y in blue:
        assert game.point_state(x, y) == (BLUE, NONE)
    for x, y in red:
        assert game.point_state(x, y) == (RED, NONE)


def test_four_crosses_sit_six_points_around_the_centre():
    """Four crosses: the single cross moved 6 points left, right, up and down."""
    game = Dots({"start": "four_crosses"})
    dots = [(x, y) for x in range(1, 40) for y in range(1, 33) if game.point_state(x, y)[0] != NONE]
    assert len(dots) == 16
    for dx, dy in ((-6, 0), (6, 0), (0, 6), (0, -6)):
        assert game.point_state(20 + dx, 17 + dy) == (BLUE, NONE)
        assert game.point_state(20 + dx, 16 + dy) == (RED, NONE)
    assert game.point_state(20, 17) == (NONE, NONE)
    assert Dots({"start": "empty"}).free_count() == 39 * 32


# ----- 5.2, 5.6: chains and the smallest region --------------------------------
def test_smallest_region_is_four_dots_around_one():
    """5.6: four blue dots around one red dot surround it; blue scores 1."""
    game, p = board("""
        . B .
        B R x
        . B .
    """)
    game.push_text(p["x"])
    assert game.point_state(*pic(2, 2)) == (RED, BLUE)
    assert game.scores() == (1, 0)
    [region] = game.regions()
    assert region["owner"] == BLUE and region["holder"] == BLUE
    assert sorted(region["chain"]) == sorted([pic(2, 3), pic(1, 2), pic(3, 2), pic(2, 1)])


def test_diagonal_links_close_a_chain_and_empty_points_inside_are_excluded():
    """5.2, 5.7: a chain of diagonal links closes; the empty points inside leave the game."""
    game, p = board("""
        . . B . .
        . B . B .
        B . R . B
        . B . B .
        . . x . .
    """)
    game.push_text(p["x"])
    assert game.scores() == (1, 0)
    for col, row in ((2, 3), (4, 3), (3, 4), (3, 2)):
        assert game.point_state(*pic(col, row)) == (NONE, BLUE)
        assert not game.is_free(*pic(col, row))
    assert len(game.regions()[0]["chain"]) == 8


def test_a_gap_of_two_points_does_not_close_a_chain():
    """5.2: links are at most one cell apart, so a wider gap surrounds nothing."""
    game, p = board("""
        . B . .
        B R . x
        . B . .
    """)
    game.push_text(p["x"])
    assert game.scores() == (0, 0) and game.regions() == []


# ----- 5.7: excluded points ---------------------------------------------------------
def test_no_dot_on_an_excluded_point():
    """5.7.2: neither player may play on a surrounded dot or an excluded empty point."""
    game, p = board("""
        . . B . .
        . B . B .
        B . R . B
        . B . B .
        . . x . .
    """)
    game.push_text(p["x"])
    for point in (pic(3, 3), pic(2, 3)):
        move = game.cell(*point)
        assert not game.is_legal(move) and move not in game.legal_moves()
        with pytest.raises(IllegalMoveError, match="5.7.2"):
            game.push(move)
    occupied = game.cell(*pic(3, 5))
    with pytest.raises(IllegalMoveError, match="2.9"):
        game.push(occupied)


def test_excluded_dots_are_never_chain_links():
    """5.7.1: a red dot surrounded by blue cannot close a red chain around blue."""
    picture = """
        . . R . .
        . R B x .
        . B {} B .
        . . B . .
    """
    game, p = board(picture.format("c"), to_move="r")
    game.push_text(p["x"])
    assert game.point_state(*pic(3, 3)) == (BLUE, NONE)
    assert game.scores() == (1, 0)
    control, p = board(picture.format("R"), to_move="r")
    control.push_text(p["x"])
    assert control.point_state(*pic(3, 3)) == (BLUE, RED)
    assert control.scores() == (0, 1)


def test_region_boundary_is_reused_as_a_chain():
    """5.8: the chain of a region serves as part of the next chain."""
    game, p = board("""
        . B . B .
        B R B R x
        . y . B .
    """)
    game.push_text(p["y"])
    assert game.scores() == (1, 0)
    game.push_text("1-1")
    game.push_text(p["x"])
    assert game.scores() == (2, 0)
    assert len(game.regions()) == 2
    shared = pic(3, 2)
    assert all(shared in region["chain"] for region in game.regions())


# ----- 5.9, 5.10: several chains, smallest area -------------------------------------
def test_one_move_closing_two_chains_makes_two_regions():
    """5.9: the regions closed by one move stay separate."""
    game, p = board("""
        . B . B .
        B R x R B
        . B . B .
    """)
    game.push_text(p["x"])
    assert game.scores() == (2, 0)
    regions = game.regions()
    assert len(regions) == 2 and all(len(r["chain"]) == 4 for r in regions)
    assert game.point_state(*at(p["x"])) == (BLUE, NONE)


def test_smallest_area_leaves_an_empty_pocket_out_of_the_region():
    """5.10: of two trajectories the region takes the smaller; the empty pocket stays a house."""
    game, p = board("""
        . B B B B .
        B . . . . B
        B B B B x .
        B . R . . B
        . B B B B .
    """)
    game.push_text(p["x"])
    assert game.scores() == (1, 0)
    for col in range(2, 6):
        assert game.is_free(*pic(col, 4)), "the pocket stays in play"
        assert game.point_state(*pic(col, 2))[1] == BLUE
    [region] = game.regions()
    assert pic(3, 5) not in region["chain"]
    houses = game.houses()
    assert [h["owner"] for h in houses] == [BLUE]
    assert sorted(houses[0]["points"]) == [pic(col, 4) for col in range(2, 6)]


def test_house_capture_takes_only_the_part_holding_the_dot():
    """5.15: a dot put in a house split by a wall is surrounded by the smaller part only."""
    game, p = board("""
        . B B B B .
        B . . x . B
        B B B B B .
        B . . . . B
        . B B B B .
    """, to_move="r")
    game.push_text(p["x"])
    assert game.scores() == (1, 0)
    assert game.point_state(*at(p["x"])) == (RED, BLUE)
    for col in range(2, 6):
        assert game.point_state(*pic(col, 4))[1] == BLUE
        assert game.is_free(*pic(col, 2))


# ----- 5.11, 6.4: regions inside regions ----------------------------------------------
def test_recapture_moves_the_score_back_and_forth():
    """5.11, 6.4: surrounding a region takes its chain and contents; the score moves."""
    c = (10, 10)
    blue_inner = diamond(*c, 1)
    red_ring = diamond(*c, 2)
    blue_ring = diamond(*c, 4)
    grid = [["."] * 20 for _ in range(20)]
    for points, char in ((blue_inner[:-1], "B"), (red_ring[:-1], "R"), (blue_ring[:-1], "B"), ([c], "R")):
        for x, y in points:
            grid[20 - y][x - 1] = char
    game = Dots({"size": "20x20", "start": "empty"},
                setup="/".join("".join(r) for r in grid) + " b - -")
    play_points(game, [blue_inner[-1]])
    assert game.scores() == (1, 0)
    play_points(game, [red_ring[-1]])
    assert game.scores() == (0, 4), "red takes the 4 blue chain dots; blue loses its red dot"
    assert game.point_state(*c) == (RED, RED)
    assert [r["holder"] for r in game.regions()] == [RED, RED]
    play_points(game, [blue_ring[-1]])
    assert game.scores() == (9, 0), "blue takes red's 8 ring dots and the first red dot again"
    assert game.point_state(*blue_inner[0]) == (BLUE, BLUE)
    assert [r["holder"] for r in game.regions()] == [BLUE, BLUE, BLUE]
    for _ in range(3):
        game.pop()
    assert game.scores() == (0, 0) and game.regions() == []


def _rings(blue: list, red: list, to_move: str = "b") -> Dots:
    grid = {}
    for x, y in blue:
        grid[(x, y)] = "B"
    for x, y in red:
        grid[(x, y)] = "R"
    return Dots({"size": "20x20", "start": "empty"}, setup=_rows(grid) + f" {to_move} - -")


def test_own_region_inside_a_larger_own_region():
    """5.11: a region may hold an older region of the same colour; its chain leaves the game."""
    inner, outer = diamond(10, 10, 1), diamond(10, 10, 4)
    game = _rings(inner[:-1] + outer[:-1], [(10, 10), (13, 10)])
    play_points(game, [inner[-1], (1, 20), outer[-1]])
    assert game.scores() == (2, 0)
    assert game.point_state(*inner[0]) == (BLUE, BLUE), "the old chain dot is now excluded"
    assert game.point_state(10, 10) == (RED, BLUE)
    assert len(game.regions()) == 2 and game.regions()[0]["holder"] == BLUE


def test_closing_a_chain_around_only_own_region_scores_nothing_more():
    """5.5: a new region needs a live enemy dot; around an own region it is only a house."""
    inner, outer = diamond(10, 10, 1), diamond(10, 10, 4)
    game = _rings(inner[:-1] + outer[:-1], [(10, 10)])
    play_points(game, [inner[-1], (1, 20), outer[-1]])
    assert game.scores() == (1, 0) and len(game.regions()) == 1
    assert game.is_free(12, 10) and game.is_free(13, 10)
    [house] = game.houses()
    assert house["owner"] == BLUE and (13, 10) in house["points"] and (10, 10) not in house["points"]


# ----- 5.12-5.16: houses ---------------------------------------------------------------
HOUSE = """
    . . B . .
    . B . B .
    B . . . B
    . B . B .
    . . B . .
"""


def test_a_chain_around_empty_points_is_a_house():
    """5.12, 5.13: an empty enclosure is not painted, scores nothing, and stays in play."""
    game, _ = board(HOUSE)
    assert game.regions() == [] and game.scores() == (0, 0)
    [house] = game.houses()
    assert house["owner"] == BLUE and len(house["points"]) == 5
    game.push(game.cell(*pic(3, 3)))
    assert game.point_state(*pic(3, 3)) == (BLUE, NONE)
    assert game.regions() == []


def test_enemy_dot_in_a_house_is_surrounded_at_once():
    """5.14: a red dot put in a blue house is surrounded; the house becomes a region."""
    game, _ = board(HOUSE, to_move="r")
    game.push(game.cell(*pic(3, 3)))
    assert game.scores() == (1, 0)
    assert game.point_state(*pic(3, 3)) == (RED, BLUE)
    assert all(game.point_state(*pic(c, r))[1] == BLUE for c, r in ((2, 3), (4, 3), (3, 2), (3, 4)))
    assert game.houses() == [] and len(game.regions()) == 1
    game.pop()
    assert game.scores() == (0, 0) and len(game.houses()) == 1


def test_dot_closing_its_own_chain_in_a_house_is_not_surrounded():
    """5.16: a red dot in a blue house that closes a red chain captures and survives."""
    picture = """
        . . {} . .
        . R B R .
        . B x B .
        . . B . .
    """
    game, p = board(picture.format("R"), to_move="r")
    game.push_text(p["x"])
    assert game.point_state(*at(p["x"])) == (RED, NONE)
    assert game.point_state(*pic(3, 3)) == (BLUE, RED)
    assert game.scores() == (0, 1)
    control, p = board(picture.format("."), to_move="r")
    control.push_text(p["x"])
    assert control.point_state(*at(p["x"])) == (RED, BLUE)
    assert control.scores() == (1, 0)


# ----- 8: game end and landing -----------------------------------------------------------
def test_full_field_ends_the_game_and_the_score_decides():
    """8.1c, 8.6: no free point left ends the game; more points wins, equal is a draw."""
    game, p = board("""
        . B .
        B R x
        . B .
    """)
    game.push_text(p["x"])
    from tessera.core.rng import SeededRandom
    game.random_fill(SeededRandom(3))
    outcome = game.outcome()
    assert outcome.reason == "field_full" and game.legal_moves() == []
    blue, red = game.scores()
    assert outcome.winner == (BLUE if blue > red else RED if red > blue else None)


def test_landing_grounds_only_orthogonal_paths():
    """Landing ruling: a dot joined to the edge only by a diagonal link goes to the opponent."""
    game = Dots({"size": "20x20", "start": "empty"},
                setup=_rows({(1, 5): "B", (2, 5): "B", (3, 5): "B", (4, 6): "B"}) + " b - -")
    game.push(LAND)
    assert game.point_state(4, 6) == (BLUE, RED)
    assert game.point_state(3, 5) == (BLUE, NONE)
    assert game.scores() == (0, 1)
    assert game.outcome().reason == "landing" and game.outcome().winner == RED
    assert game.legal_moves() == [] and not game.is_legal(game.cell(10, 10))
    game.pop()
    assert game.scores() == (0, 0) and game.outcome() is None
    grounded = Dots({"size": "20x20", "start": "empty"},
                    setup=_rows({(1, 5): "B", (2, 5): "B", (3, 5): "B", (4, 5): "B"}) + " b - -")
    grounded.push(LAND)
    assert grounded.scores() == (0, 0) and grounded.outcome().winner is None


def test_landing_gives_away_floating_regions():
    """Landing ruling, 6.4: an ungrounded region counts as surrounded by the opponent."""
    game, p = board("""
        . B .
        B R x
        . B .
    """)
    game.push_text(p["x"])
    game.push_text("20-20")
    assert game.scores() == (1, 0)
    assert LAND not in game.legal_moves(), "landing would lose, so bots are not offered it"
    assert game.is_legal(LAND)
    game.push(LAND)
    assert game.scores() == (0, 4)
    assert game.point_state(*pic(2, 2)) == (RED, RED)
    assert game.outcome().winner == RED


def test_grounded_region_survives_landing_and_landing_is_offered_when_it_wins():
    """Landing ruling: a region joined to the edge by orthogonal steps is safe."""
    game = Dots({"size": "20x20", "start": "empty"},
                setup=_rows({(1, 4): "B", (2, 4): "B", (3, 4): "B", (4, 5): "B", (4, 3): "B",
                             (4, 4): "R"}) + " b - -")
    game.push_text("5-4")
    game.push_text("20-20")
    assert game.scores() == (1, 0)
    assert LAND in game.legal_moves()
    game.push(LAND)
    assert game.scores() == (1, 0) and game.outcome() == game.outcome().__class__(BLUE, "landing")


def _rows(points: dict[tuple[int, int], str]) -> str:
    grid = [["."] * 20 for _ in range(20)]
    for (x, y), char in points.items():
        grid[20 - y][x - 1] = char
    return "/".join("".join(row) for row in grid)
