"""Dots notation, position strings and the queries the view uses."""

from __future__ import annotations

import pytest

from tessera.core.game import NotationError, PositionError
from tessera.core.rng import SeededRandom
from tessera.games.dots import BLUE, LAND, NONE, RED, Dots
from tessera.games.dots.chains import trace_chain

START = "39/39/39/39/39/39/39/39/39/39/39/39/39/39/39/19BR18/19RB18/" + "/".join(["39"] * 15) + " b - -"


def test_every_point_and_land_round_trip_through_notation():
    """move_text and parse_move are inverse on every point of 39x32 and on 'land'."""
    game = Dots()
    for x in range(1, 40):
        for y in range(1, 33):
            move = game.cell(x, y)
            assert game.move_text(move) == f"{x}-{y}"
            assert game.parse_move(f"{x}-{y}") == move and game.xy(move) == (x, y)
    assert game.parse_move(" LAND ") == LAND and game.move_text(LAND) == "land"


@pytest.mark.parametrize("text", ["", "20", "0-5", "40-1", "1-33", "a-b", "20-17-1", "-1-2", "1000-1"])
def test_bad_notation_is_a_notation_error(text):
    """Text that is not x-y on the field (or land) raises NotationError."""
    with pytest.raises(NotationError):
        Dots().parse_move(text)


def test_start_position_string():
    """The start position is the cross, blue to move, no landing, no regions."""
    assert Dots().position() == START
    assert Dots(setup=START).position() == START


def test_position_round_trips_with_regions_and_houses():
    """A position with regions, excluded points and houses reloads to the same state and play."""
    game = Dots({"size": "20x20"})
    rng = SeededRandom(7)
    for _ in range(250):
        game.push_unchecked(rng.choice(game.placements()))
    assert game.regions(), "the random game made regions"
    text = game.position()
    fields = text.split()
    assert len(fields) == 4 and fields[3] != "-"
    again = Dots({"size": "20x20"}, setup=text)
    assert again.position() == text
    assert again.scores() == game.scores() and again.houses() == game.houses()
    assert [r["chain"] for r in again.regions()] == [r["chain"] for r in game.regions()]
    for move in game.placements()[:40]:
        a, b = game.copy(), Dots({"size": "20x20"}, setup=text)
        a.push(move)
        b.push(move)
        assert a.position().split()[:3] == b.position().split()[:3]


@pytest.mark.parametrize("text, message", [
    ("39 b - -", "has 1 row,"),
    (START.replace("19BR18", "19BX18"), "unknown character"),
    (START.replace("19BR18", "19BR17"), "38 points"),
    (START.replace(" b - -", " x - -"), "side to move"),
    (START.replace(" b - -", " b L -"), "status"),
    (START.replace(" b - -", " b - q:1-1"), "region 1"),
    (START.replace(" b - -", " b - b:1-1,3-3"), "jumps"),
    (START.replace(" b - -", " b - b:0-1"), "off the field"),
    (START + " extra", "4 fields"),
])
def test_bad_positions_are_position_errors(text, message):
    """A malformed position string raises PositionError naming the problem."""
    with pytest.raises(PositionError, match=message):
        Dots(setup=text)


def test_position_must_match_the_size_option():
    """A 39x32 position with the 20x20 option is refused."""
    with pytest.raises(PositionError):
        Dots({"size": "20x20"}, setup=START)


def test_unknown_options_are_refused():
    """Options are size (a preset or WxH from 5 to 52) and start."""
    for size in ("4x4", "53x20", "19x", "19X19", "999999x5", "9" * 5000 + "x5", 19):
        with pytest.raises(PositionError, match="WIDTHxHEIGHT"):
            Dots({"size": size})
    with pytest.raises(PositionError):
        Dots({"first": "red"})


def test_point_state_last_move_and_evaluate():
    """The view's queries: point_state, last_move, scores and a bounded evaluation."""
    game = Dots({"size": "20x20", "start": "empty"})
    assert game.last_move is None and game.point_state(1, 1) == (NONE, NONE)
    for text in ("5-6", "5-5", "4-5", "1-1", "6-5", "1-2", "5-4"):
        game.push_text(text)
    assert game.move_text(game.last_move) == "5-4"
    assert game.point_state(5, 5) == (RED, BLUE) and game.scores() == (1, 0)
    assert 0 < game.evaluate(BLUE) < 1 and game.evaluate(RED) == -game.evaluate(BLUE)
    assert game.key() != Dots({"size": "20x20", "start": "empty"}).key()


def _inside_polygon(point, polygon) -> bool:
    """Ray casting; doubled edges (a chain going in and out) cancel."""
    px, py = point
    inside = False
    for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1]):
        if (y1 <= py < y2) or (y2 <= py < y1):
            cross = x1 + (py - y1) * (x2 - x1) / (y2 - y1)
            if cross > px:
                inside = not inside
    return inside


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_region_chains_are_closed_chains_around_exactly_their_points(seed):
    """Each painted chain links own dots at most one cell apart and encloses exactly its region."""
    game = Dots({"size": "20x20"})
    rng = SeededRandom(seed)
    checked = 0
    while not game.is_over():
        before = len(game.field.regions)
        game.push_unchecked(rng.choice(game.placements()))
        for region in game.field.regions[before:]:
            chain = [game.xy(c) for c in region.chain(game.field.stride)]
            for (x1, y1), (x2, y2) in zip(chain, chain[1:] + chain[:1]):
                assert max(abs(x1 - x2), abs(y1 - y2)) == 1
            for x, y in chain:
                assert game.point_state(x, y)[0] == region.player
                assert game.point_state(x, y)[1] == NONE, "chain dots stay live"
            inside = {game.xy(c) for c in region.cells}
            xs = [x for x, _ in chain]
            ys = [y for _, y in chain]
            for x in range(min(xs), max(xs) + 1):
                for y in range(min(ys), max(ys) + 1):
                    if (x, y) not in chain:
                        assert _inside_polygon((x, y), chain) == ((x, y) in inside), (x, y)
            checked += 1
    assert checked > 5


def test_trace_chain_of_a_single_point_is_its_four_neighbours():
    """The chain around one point is the diamond of its orthogonal neighbours."""
    stride = 22
    c = 5 * stride + 5
    assert sorted(trace_chain({c}, stride)) == sorted([c - stride, c + 1, c + stride, c - 1])


def test_legal_moves_follow_pop_and_a_different_push() -> None:
    """After pop and another push the legal moves are the new position's, not a cached list."""
    game = Dots({"size": "20x20"})
    first, second = game.placements()[:2]
    game.push(first)
    game.legal_moves()
    game.pop()
    game.push(second)
    moves = game.legal_moves()
    assert second not in moves and first in moves


@pytest.mark.parametrize("text", ["²-3", "3-²"])
def test_unicode_digits_are_a_notation_error(text: str) -> None:
    """Characters that str.isdigit() accepts but int() does not are rejected clearly."""
    with pytest.raises(NotationError):
        Dots({"size": "20x20"}).parse_move(text)


def test_a_huge_empty_run_in_a_position_is_refused_before_it_is_built() -> None:
    """A run length far past the row's width is a PositionError, not a MemoryError."""
    good = Dots({"size": "20x20", "start": "empty"}).position()
    rows, rest = good.split(" ", 1)
    bad_rows = "/".join(["99999999999"] + rows.split("/")[1:])
    with pytest.raises(PositionError):
        Dots({"size": "20x20"}, setup=f"{bad_rows} {rest}")
