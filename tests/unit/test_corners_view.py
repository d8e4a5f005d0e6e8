"""Corners' board view: picking a capture corner by corner, the preview,
placements by tap, the drawing's hit test, and the move animation."""

from __future__ import annotations

from tessera.core.draw import DrawList
from tessera.core.view import ViewState
from tessera.games.corners import Corners
from tessera.games.corners.animation import FILL, OUTLINE, PAINT, PLACE
from tessera.games.corners.examples import board
from tessera.games.corners.geometry import cell_name
from tessera.games.corners.rules import parse_cell
from tessera.games.corners.view import CornersView, Pick, candidates, cell_center

VIEW = CornersView()


def tap(game: Corners, state: ViewState, name: str):
    result = VIEW.tap(game, state, parse_cell(name))
    state.selected = result.selected
    return result


def test_corners_narrow_the_rectangles_and_a_fourth_tap_confirms() -> None:
    game = Corners(setup=board("b1 d2 c4 a3 d4 b2"))
    state = ViewState()
    assert tap(game, state, "b1").move is None and state.selected == Pick((parse_cell("b1"),))
    first = len(candidates(game, state.selected.cells))
    tap(game, state, "d2")
    assert 1 <= len(candidates(game, state.selected.cells)) <= first
    result = tap(game, state, "c4")
    assert result.move is None and len(candidates(game, state.selected.cells)) == 1
    drawing = DrawList(400, 400)
    VIEW.draw(game, state, drawing)   # the preview draws without error
    result = tap(game, state, "b1")   # a picked corner again: capture
    assert game.move_text(result.move) == "xb1d2c4a3" and state.selected is None


def test_a_tap_on_an_empty_cell_places_and_on_an_enemy_piece_clears() -> None:
    game = Corners(setup=board("a1", "h8"))
    state = ViewState()
    assert tap(game, state, "e5").move == parse_cell("e5")
    assert tap(game, state, "h8").move is None and state.selected is None
    # a piece that is no corner of any capture does not start a pick
    assert tap(game, state, "a1").move is None and state.selected is None


def test_hit_test_inverts_cell_centres_both_ways_round() -> None:
    for flipped in (False, True):
        state = ViewState(flipped=flipped)
        for cell in range(64):
            x, y = cell_center(cell, 480, 420, flipped)
            assert VIEW.cell_at(Corners(), state, 480, 420, x, y) == cell, (cell_name(cell), flipped)


def test_a_capture_animates_outline_then_paint_in_written_order_then_fills() -> None:
    game = Corners(setup=board("a1 c1 c3", "", painted_circles="a3"))
    game.push_text("xa1c1c3a3")
    timeline = VIEW.move_animation(game, game.move_stack[-1])
    kinds = [step.kind for step in timeline.steps]
    assert kinds[0] == OUTLINE
    painted = [cell_name(step.target) for step in timeline.steps if step.kind == PAINT]
    assert painted == ["a1", "c1", "c3"]            # a3 was painted already
    filled = {cell_name(step.target) for step in timeline.steps if step.kind == FILL}
    assert filled == {"b1", "a2", "b2", "c2", "b3"}
    last_paint = max(step.end for step in timeline.steps if step.kind == PAINT)
    assert min(step.start for step in timeline.steps if step.kind == FILL) >= last_paint
    game.push_text("h8")
    assert [step.kind for step in VIEW.move_animation(game, game.move_stack[-1]).steps] == [PLACE]
