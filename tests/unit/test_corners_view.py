"""Corners' board view: picking a capture corner by corner, the preview,
placements by tap, the drawing's hit test, and the move animation."""

from __future__ import annotations

from tessera.core.draw import DrawList
from tessera.core.view import ViewState
from tessera.games.corners import Corners
from tessera.games.corners.animation import FILL, OUTLINE, PAINT, PLACE
from tessera.games.corners.examples import board
from tessera.games.corners.geometry import CAPTURE_BASE, cell_name
from tessera.games.corners.rules import parse_cell
from tessera.games.corners.view import CornersView, Pick, candidates, cell_center, previewed_capture

VIEW = CornersView()


def tap(game: Corners, state: ViewState, name: str):
    result = VIEW.tap(game, state, parse_cell(name))
    state.selected = result.selected
    return result


def test_two_opposite_corners_preview_the_one_rectangle_and_a_corner_captures() -> None:
    """a1 and e3 are opposite corners of a1-e1-e3-a3 only: the board previews
    it at once, and a tap on any of its corners (picked or not) captures."""
    game = Corners(setup=board("a1 c1 a3 c3 e1 e3 b5", "h8"))
    state = ViewState()
    assert tap(game, state, "a1").move is None and state.selected == Pick((parse_cell("a1"),))
    assert len(candidates(game, state.selected.cells)) == 2
    assert tap(game, state, "e3").move is None
    assert previewed_capture(game, state.selected.cells) is not None
    drawing = DrawList(400, 400)
    VIEW.draw(game, state, drawing)   # the preview draws without error
    result = tap(game, state, "e1")   # a corner of the rectangle previewed, not picked yet: capture
    assert game.move_text(result.move) == "xa1e1e3a3" and state.selected is None


def test_more_rectangles_fitting_two_corners_wait_for_a_third() -> None:
    """c1 and c3 are a side of two rectangles: nothing is previewed until a third corner."""
    game = Corners(setup=board("a1 c1 a3 c3 e1 e3 b5", "h8"))
    state = ViewState()
    tap(game, state, "c1")
    tap(game, state, "c3")
    assert len(candidates(game, state.selected.cells)) == 2
    assert previewed_capture(game, state.selected.cells) is None
    assert tap(game, state, "e1").move is None
    assert previewed_capture(game, state.selected.cells) is not None
    assert game.move_text(tap(game, state, "c1").move) == "xc1e1e3c3"


def test_the_captures_one_by_one_with_what_each_paints() -> None:
    """The adapter's keys go through every capture, most painted first, each
    previewed with a note; P makes the one shown; no stepping online."""
    from tessera.core.game_ui import game_ui
    from tessera.games.corners.adapter import capture_gain, capture_list
    ui = game_ui("corners")
    game = Corners(setup=board("a1 c1 a3 c3 e1 e3 b5", "h8"))
    actions = {a.key: a for a in ui.draft_actions()}
    found = capture_list(game)
    assert len(found) >= 2
    gains = [sum(capture_gain(game, index)) for index in found]
    assert gains == sorted(gains, reverse=True)
    selected, seen = None, []
    for _ in found:
        selected, move = actions["next-capture"].apply(game, selected)
        assert move is None and previewed_capture(game, selected.cells) in found
        seen.append(previewed_capture(game, selected.cells))
        note = ui.draft_note(game, selected)
        assert note.startswith(f"Capture {len(seen)} of {len(found)}") and "paints" in note
    assert seen == found
    back, _ = actions["previous-capture"].apply(game, selected)
    assert previewed_capture(game, back.cells) == found[-2]
    assert actions["capture"].enabled(game, selected)
    _, move = actions["capture"].apply(game, selected)
    assert move == CAPTURE_BASE + found[-1]
    assert actions["next-capture"].assist and not actions["capture"].assist
    assert "You can make" in ui.draft_note(game, None)


def test_a_hint_is_drawn_on_the_board() -> None:
    from tessera.core.hint_marks import hint_colour
    game = Corners(setup=board("b1 d2 c4 a3", "h8"))
    capture = next(m for m in game.legal_moves() if m >= 64)
    drawing = DrawList(400, 400)
    VIEW.draw(game, ViewState(highlights={"hint": capture}), drawing)
    assert hint_colour("light") in drawing.strings
    plain = DrawList(400, 400)
    VIEW.draw(game, ViewState(), plain)
    assert hint_colour("light") not in plain.strings


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
