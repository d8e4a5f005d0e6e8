"""Dots chains are simple (RULINGS, Dots; Art. 5.2, 5.4, 5.7, 5.10): golden
cases where the smallest chain touches itself or own dots stick into it.

A chain passes each dot once and splits the field into an outside and an
inside; the region is the whole inside, so own dots and houses in it are
excluded even where they form a pocket that touches the chain at one dot.
The smallest area (5.10) chooses among simple chains only.

Pictures as in ``test_dots_rules``: placed on an empty 20x20 field with the
lower-left corner on 3-3; ``B``/``R`` live dots, ``.`` empty, and the
labels ``v w x y z`` empty points the test plays.
"""

from __future__ import annotations

import textwrap

import pytest

from test_dots_rules import at, pic
from test_dots_rules import board as picture_board

from tessera.core.game import IllegalMoveError
from tessera.games.dots import BLUE, NONE, RED, Dots



def board(picture: str, to_move: str = "b") -> tuple[Dots, dict[str, tuple[int, int]]]:
    """A 20x20 game set up from a picture (``test_dots_rules.board``), and
    the labelled points as (x, y)."""
    game, labels = picture_board(picture, to_move)
    return game, {label: at(point) for label, point in labels.items()}


def play(game: Dots, point: tuple[int, int]) -> None:
    game.push(game.cell(*point))


def assert_refused(game: Dots, point: tuple[int, int]) -> None:
    """5.7.2: nobody may play on an excluded point."""
    move = game.cell(*point)
    assert not game.is_legal(move) and move not in game.legal_moves()
    with pytest.raises(IllegalMoveError, match="5.7.2"):
        game.push(move)


def assert_simple_chains(game: Dots) -> None:
    """Every region's chain passes each dot once, and survives the position string."""
    for region in game.regions():
        assert len(set(region["chain"])) == len(region["chain"]), region
    again = Dots(game.options, setup=game.position())
    assert again.position() == game.position() and again.regions() == game.regions()


# ----- the game from the issue ----------------------------------------------------
ISSUE_MOVES = ("4-6 6-5 5-5 20-20 4-4 18-20 2-6 16-20 2-7 14-20 3-8 12-20 4-8 10-20 5-8 8-20 "
               "6-7 6-20 7-6 4-20 7-5 2-20 7-4 20-18 6-3 18-18 5-2 16-18 4-2 14-18 3-2 12-18 "
               "2-3 10-18 2-4 8-18 3-5")


def test_pinch_dot_closing_a_chain_takes_the_pocket_inside():
    """The issue's 20x20 game: blue 3-5 closes a chain round red 6-5 that
    touches blue's diamond 4-6, 5-5, 4-4 at 3-5 only.  The simple chain
    goes round the diamond, so the diamond and its house 4-5 are inside:
    excluded, and refused to both sides afterwards."""
    game = Dots({"size": "20x20"})
    for text in ISSUE_MOVES.split():
        game.push_text(text)
    assert game.scores() == (1, 0)
    assert game.point_state(6, 5) == (RED, BLUE)
    for point in ((4, 6), (5, 5), (4, 4)):
        assert game.point_state(*point) == (BLUE, BLUE), f"{point} is inside, not live"
    assert game.point_state(3, 5) == (BLUE, NONE), "the pinch dot is on the chain and stays live"
    [region] = game.regions()
    assert len(region["chain"]) == 16 and (3, 5) in region["chain"] and (4, 6) not in region["chain"]
    assert_simple_chains(game)
    assert_refused(game, (4, 5))
    game.push_text("1-1")
    assert_refused(game, (4, 5))
    assert game.houses() == []


# ----- pockets of own dots touching the chain -----------------------------------
POCKET = """
    . . B B B . .
    . B . . . B .
    . B . B . . B
    . . B {c} B R x
    . B . B . . B
    . B . . . B .
    . . B B B . .
"""
"""A blue ring round red, with a diamond of blue dots that touches the
ring only at its left dot (picture 3, 4); the diamond's centre {c} is
empty (a house) or blue."""
POCKET_DOTS = (pic(4, 5), pic(5, 4), pic(4, 3))


@pytest.mark.parametrize("centre", [".", "B"])
def test_pocket_touching_the_chain_at_one_dot_is_inside(centre):
    """A pocket of own dots, with or without a house in it, that touches the
    chain at one dot is inside the region: its dots and points are excluded."""
    game, p = board(POCKET.format(c=centre))
    if centre == ".":
        assert [h["points"] for h in game.houses()] == [[pic(4, 4)]]
    play(game, p["x"])
    assert game.scores() == (1, 0)
    for point in POCKET_DOTS:
        assert game.point_state(*point) == (BLUE, BLUE)
    assert game.point_state(*pic(4, 4)) == (NONE if centre == "." else BLUE, BLUE)
    assert game.point_state(*pic(3, 4)) == (BLUE, NONE), "the touching dot stays live on the chain"
    [region] = game.regions()
    assert pic(3, 4) in region["chain"] and not set(POCKET_DOTS) & set(region["chain"])
    assert game.houses() == []
    assert_simple_chains(game)


def test_former_pocket_is_refused_and_scores_nothing_again():
    """An enemy dot may not be put into a former pocket: it is excluded (5.7.2),
    so it cannot be surrounded a second time for the region's owner."""
    game, p = board(POCKET.format(c="."))
    play(game, p["x"])
    assert game.to_move == RED
    assert_refused(game, pic(4, 4))
    assert game.scores() == (1, 0)


def test_pocket_touching_the_chain_at_two_dots_stays_outside():
    """A pocket joined to the chain at two dots splits the ring: the smallest
    simple chain runs along the pocket's near side, and the pocket stays a
    house that an enemy dot may enter once (5.14)."""
    game, p = board("""
        . . B B B . .
        . B . R . B .
        B . . . . . x
        B . B B B . B
        B B . . . B B
        B . B B B . B
        . B . . . B .
        . . B B B . .
    """)
    play(game, p["x"])
    assert game.scores() == (1, 0)
    [region] = game.regions()
    assert {pic(3, 5), pic(4, 5), pic(5, 5), pic(2, 4), pic(6, 4)} <= set(region["chain"])
    for col in (3, 4, 5):
        assert game.is_free(*pic(col, 4)), "the pocket stays in play"
        assert game.point_state(*pic(col, 3)) == (BLUE, NONE), "the pocket's far side stays live"
    assert pic(4, 4) in [point for house in game.houses() for point in house["points"]]
    play(game, pic(4, 4))
    assert game.scores() == (2, 0) and game.point_state(*pic(4, 4)) == (RED, BLUE)
    assert game.is_free(*pic(4, 2)), "the lower band is another house, untouched"


def test_recapture_of_a_region_holding_a_pocket():
    """6.4: red surrounds the blue region with its pocket; red gains every blue
    dot inside, the pocket's too, and blue loses the red dot it held."""
    inner = [row.split() for row in textwrap.dedent(POCKET.format(c=".")).strip().splitlines()]
    rows = [["R"] * 9] + [["R", *row, "R"] for row in inner] + [["R"] * 9]
    rows[-1][4] = "y"
    game, p = board("\n".join(" ".join(row) for row in rows))

    def at(col: int, row: int) -> tuple[int, int]:
        return pic(col + 1, row + 1)

    play(game, p["x"])
    assert game.scores() == (1, 0)
    assert_refused(game, at(4, 4))
    blue_dots = sum(1 for x in range(1, 21) for y in range(1, 21) if game.point_state(x, y)[0] == BLUE)
    play(game, p["y"])
    assert game.scores() == (0, blue_dots)
    for col, row in ((4, 5), (5, 4), (4, 3), (3, 4), (7, 4)):
        assert game.point_state(*at(col, row)) == (BLUE, RED)
    assert game.point_state(*at(4, 4)) == (NONE, RED)
    assert game.point_state(*at(6, 4)) == (RED, RED)
    assert [r["holder"] for r in game.regions()] == [RED, RED]
    assert_simple_chains(game)


def test_house_with_a_pinch_pocket_is_captured_whole():
    """5.14, 5.15: a red dot put into a blue house whose component touches a
    pocket at one dot is surrounded by the simple chain, pocket included."""
    game, _ = board(POCKET.format(c=".").replace("R x", ". B"), to_move="r")
    play(game, pic(6, 4))
    assert game.scores() == (1, 0)
    assert game.point_state(*pic(6, 4)) == (RED, BLUE)
    for point in POCKET_DOTS:
        assert game.point_state(*point) == (BLUE, BLUE)
    assert game.point_state(*pic(4, 4)) == (NONE, BLUE)
    assert game.houses() == []
    assert_simple_chains(game)


def turned(picture: str, quarter_turns: int, mirror: bool) -> str:
    """The picture mirrored left to right, then turned clockwise."""
    rows = [row.split() for row in textwrap.dedent(picture).strip().splitlines()]
    if mirror:
        rows = [row[::-1] for row in rows]
    for _ in range(quarter_turns):
        rows = [list(row) for row in zip(*rows[::-1])]
    return "\n".join(" ".join(row) for row in rows)


@pytest.mark.parametrize("quarter_turns", range(4))
@pytest.mark.parametrize("mirror", [False, True])
def test_one_move_closing_the_ring_and_a_pocket_holding_red(quarter_turns, mirror):
    """5.9 with a pinch: the pinch dot closes the ring and the pocket round a
    red dot at once.  Both chains are judged on the position before the
    move, so there are two regions whichever way the field is turned; the
    pocket lies inside the ring's simple chain, so its dots are excluded."""
    picture = POCKET.format(c="R").replace(". . B R B R x", ". . x R B R B")
    game, p = board(turned(picture, quarter_turns, mirror))
    play(game, p["x"])
    assert game.scores() == (2, 0)
    assert len(game.regions()) == 2
    assert game.point_state(*pic(4, 4)) == (RED, BLUE), "the pocket's red dot, at the picture's centre"
    excluded_blue = [(x, y) for x in range(1, 21) for y in range(1, 21) if game.point_state(x, y) == (BLUE, BLUE)]
    assert len(excluded_blue) == 3, "the pocket's three dots"
    assert game.point_state(*p["x"]) == (BLUE, NONE)
    assert_simple_chains(game)


# ----- own dots next to the chain -----------------------------------------------
def test_notch_dot_stays_live_on_the_chain():
    """5.10: where the chain bends in round a dot (a 45 degree wedge of the
    outside), that dot is on the smallest chain and stays live."""
    game, p = board("""
        . B B x B .
        B . . . . B
        B . R . . B
        B . B . . B
        . B B . . B
        . . . B B .
    """)
    play(game, p["x"])
    assert game.scores() == (1, 0)
    [region] = game.regions()
    assert pic(3, 3) in region["chain"]
    assert game.point_state(*pic(3, 3)) == (BLUE, NONE)
    assert game.point_state(*pic(2, 3)) == (NONE, BLUE)
    assert_simple_chains(game)


def test_own_dot_on_a_diagonal_link_inside_the_chain_is_excluded():
    """A blue dot inside, joined to the chain only by one diagonal link at a
    cut corner, is inside the simple chain: excluded."""
    game, p = board("""
        . B B B B .
        B . . . . B
        B . . R . B
        B . B . . B
        . B . . . B
        . . B B x .
    """)
    play(game, p["x"])
    assert game.scores() == (1, 0)
    assert game.point_state(*pic(3, 3)) == (BLUE, BLUE)
    assert game.point_state(*pic(2, 2)) == (BLUE, NONE)
    assert pic(3, 3) not in game.regions()[0]["chain"]
    assert_simple_chains(game)


def test_spike_two_dots_deep_loses_its_tip():
    """A line of two blue dots sticking into the region from the chain: the
    first is a notch on the smallest chain (live), the tip is inside."""
    game, p = board("""
        . B B . B B .
        B . . B . . B
        B . . B . . B
        B . R . . . B
        B . . . . . B
        . B B x B B .
    """)
    play(game, p["x"])
    assert game.scores() == (1, 0)
    assert game.point_state(*pic(4, 5)) == (BLUE, NONE)
    assert game.point_state(*pic(4, 4)) == (BLUE, BLUE)
    [region] = game.regions()
    assert pic(4, 5) in region["chain"] and pic(4, 4) not in region["chain"]
    assert_simple_chains(game)
