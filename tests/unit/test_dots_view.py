"""The Dots board view: drawing, hit-testing, taps, and the rules page's examples."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from tessera.core.draw import OP_CIRCLE, OP_CIRCLE_STROKE, OP_POLYGON, OP_POLYLINE, OP_TEXT, DrawList, to_svg
from tessera.core.rng import SeededRandom
from tessera.core.view import ViewState
from tessera.games.dots import LAND, Dots
from tessera.games.dots.examples import EXAMPLES
from tessera.games.dots.view import DotsView, point_at, point_center


def captured_game() -> Dots:
    """20x20: blue surrounds the red dot 10-10 of the start cross."""
    game = Dots({"size": "20x20"})
    for text in ("10-9", "5-5", "9-10"):
        game.push_text(text)
    return game


def ops(drawing: DrawList, opcode: int) -> list[list[float]]:
    return [args for op, args in drawing.commands() if op == opcode]


def test_a_position_with_a_region_draws_fill_chain_dots_and_labels() -> None:
    """The region is a filled polygon and a closed chain; every dot is a circle; coordinates are written."""
    game = captured_game()
    view = DotsView()
    drawing = DrawList(600, 600 / view.aspect(game))
    view.draw(game, ViewState(), drawing)
    polygons = ops(drawing, OP_POLYGON)
    assert len(polygons) == 1 and int(polygons[0][1]) == 4
    chains = ops(drawing, OP_POLYLINE)
    assert len(chains) == 1 and int(chains[0][2]) == 5       # closed: the first point again
    circles = ops(drawing, OP_CIRCLE)
    assert len(circles) >= 7                                  # 7 dots plus the last-move centre
    texts = {drawing.strings[int(args[4])] for args in ops(drawing, OP_TEXT)}
    assert {"2", "10", "20"} <= texts


def test_svg_of_a_full_field_is_well_formed() -> None:
    """A 39x32 field after 1000 random moves renders to valid SVG."""
    game = Dots()
    game.random_fill(SeededRandom(3), 1000)
    assert game.field.regions
    view = DotsView()
    drawing = DrawList(800, 800 / view.aspect(game))
    view.draw(game, ViewState(highlights={"viewport": (100, 100, 300, 300)}), drawing)
    root = ET.fromstring(to_svg(drawing))
    assert root.tag.endswith("svg")
    assert len(root) > 1000


def test_houses_are_not_painted() -> None:
    """A closed loop round empty points draws no polygon."""
    house = next(example for example in EXAMPLES if example.key == "house")
    game = house.game(1)
    assert game.houses() and not game.regions()
    drawing = DrawList(400, 400)
    DotsView().draw(game, ViewState(), drawing)
    assert not ops(drawing, OP_POLYGON)


@pytest.mark.parametrize("size", ["20x20", "39x32"])
@pytest.mark.parametrize("flipped", [False, True])
def test_cell_at_and_point_center_round_trip(size: str, flipped: bool) -> None:
    """Every point's centre hit-tests back to that point."""
    game = Dots({"size": size})
    view = DotsView()
    width = 700.0
    height = width / view.aspect(game)
    state = ViewState(flipped=flipped)
    for x in range(1, game.width + 1):
        for y in range(1, game.height + 1):
            cx, cy = point_center(game, (x, y), width, height, flipped)
            assert view.cell_at(game, state, width, height, cx, cy) == (x, y)
    assert point_at(game, width, height, 1.0, 1.0, flipped) is None


def test_coordinates_follow_the_document() -> None:
    """1-1 is at the bottom left, x grows to the right and y upwards."""
    game = Dots({"size": "20x20"})
    x1, y1 = point_center(game, (1, 1), 500, 500)
    x2, y2 = point_center(game, (20, 20), 500, 500)
    assert x1 < x2 and y1 > y2


def test_tap_plays_at_once_without_confirmation() -> None:
    """A tap on a free point is the move; on a taken point it does nothing."""
    game = Dots({"size": "20x20"})
    view = DotsView()
    result = view.tap(game, ViewState(), (3, 4))
    assert result.move == game.cell(3, 4) and result.selected is None
    assert view.tap(game, ViewState(), (10, 10)).move is None      # a start dot
    assert view.tap(game, ViewState(interactive=False), (3, 4)).move is None


def test_tap_with_confirmation_shows_a_ghost_first() -> None:
    """First tap: ghost; tap elsewhere: ghost moves; same point again: the move."""
    game = Dots({"size": "20x20"})
    view = DotsView()
    state = ViewState(highlights={"confirm": True})
    first = view.tap(game, state, (3, 4))
    assert first.move is None and first.selected == (3, 4)
    state.selected = first.selected
    moved = view.tap(game, state, (5, 5))
    assert moved.move is None and moved.selected == (5, 5)
    state.selected = moved.selected
    played = view.tap(game, state, (5, 5))
    assert played.move == game.cell(5, 5) and played.selected is None
    drawing = DrawList(400, 400)
    state.selected = (5, 5)
    view.draw(game, state, drawing)          # the ghost is drawn without errors


def test_keyboard_steps_stay_on_the_field() -> None:
    game = Dots({"size": "20x20"})
    view = DotsView()
    assert view.clamp_cell(game, view.step_cell((1, 1), -1, 1)) == (1, 1)
    assert view.step_cell((5, 5), 0, -1) == (5, 6)   # up on screen is y + 1
    assert view.initial_cursor(game, ViewState()) == (10, 10)


def test_landing_draws_without_a_last_point() -> None:
    game = captured_game()
    game.push(LAND)
    drawing = DrawList(300, 300)
    DotsView().draw(game, ViewState(), drawing)


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.key)
def test_rules_examples_replay(example) -> None:
    """Every diagram of the rules page plays through, and shows what its caption says."""
    game = example.game(len(example.moves))
    expected = {
        "capture_small": ((1, 0), 1),
        "capture_chain": ((2, 0), 1),
        "minimum_area": ((1, 0), 1),
        "house": ((1, 0), 1),
        "house_exception": ((0, 1), 1),
        "recapture": ((0, 4), 2),
        "landing": ((2, 1), 1),
    }[example.key]
    assert (game.scores(), len(game.regions())) == expected
    drawing = DrawList(300, 300)
    DotsView().draw(game, ViewState(), drawing)
    if example.key == "minimum_area":
        assert len(game.regions()[0]["chain"]) == 4 and game.houses()
    if example.key == "landing":
        assert game.outcome().winner == 0


def threat_game() -> Dots:
    """20x20 from the cross, blue to move: blue can take the red dot 10-10
    at 10-9, and red could take the blue dot 11-10 at 11-9."""
    game = Dots({"size": "20x20"})
    for text in ("9-10", "12-10"):
        game.push_text(text)
    return game


def test_open_captures_name_each_side_and_its_gain() -> None:
    from tessera.games.dots.eval import open_captures
    game = threat_game()
    found = {(game.xy(cell), player, taken) for cell, player, taken in open_captures(game.field)}
    assert {((10, 9), 0, 1), ((11, 9), 1, 1)} <= found
    for (x, y), player, taken in found:
        trial = game.copy()
        before = trial.scores()
        trial.field.place(trial.cell(x, y), player)
        assert trial.scores()[player] - before[player] == taken


def test_threats_are_ringed_only_when_asked() -> None:
    game = threat_game()
    view = DotsView()
    plain = DrawList(600, 600)
    view.draw(game, ViewState(), plain)
    shown = DrawList(600, 600)
    view.draw(game, ViewState(highlights={"threats": True}), shown)
    rings = len(ops(shown, OP_CIRCLE_STROKE)) - len(ops(plain, OP_CIRCLE_STROKE))
    assert rings == len(view.threats(game)) >= 1
    labels = {shown.strings[int(args[4])] for args in ops(shown, OP_TEXT)}
    assert "1" in labels
    game.push_text("10-9")   # blue takes: the cached reading is for a position gone
    assert all(game.xy(cell) != (10, 9) for cell, _, _ in view.threats(game))


def test_threats_are_read_again_after_a_take_back_and_another_move() -> None:
    """Same number of moves and the same score, another position: red's
    threat at 11-9 needed its dot on 12-10."""
    game = threat_game()
    view = DotsView()
    assert any(game.xy(cell) == (11, 9) for cell, _, _ in view.threats(game))
    game.pop()
    game.push_text("5-5")
    assert all(game.xy(cell) != (11, 9) for cell, _, _ in view.threats(game))


@pytest.mark.parametrize("seed", [3, 4])
def test_a_view_kept_through_a_game_draws_what_a_new_view_draws(seed: int) -> None:
    """The rows of dots a view keeps from frame to frame (``_dots_by_look``) never show a
    position gone: through moves, captures, take-backs, a turned board, another size and
    faded points, each frame equals the frame of a view that keeps nothing."""
    rng = SeededRandom(seed)
    game = Dots({"size": "20x20"})
    kept = DotsView()
    for step in range(60):
        if game.is_over():
            break
        game.random_fill(rng, 1 + step % 7)
        if step % 5 == 4:
            game.pop()
        state = ViewState(flipped=step % 10 == 9)   # mostly as before: rows kept are used
        if step % 4 == 1:
            state.highlights["faded"] = [game.xy(cell) for cell in game.placements()[:3]]
        size = 420 if step % 15 == 14 else 600
        mine, fresh = DrawList(size, size), DrawList(size, size)
        kept.draw(game, state, mine)
        DotsView().draw(game, state, fresh)
        assert mine.ops == fresh.ops and mine.strings == fresh.strings, step
