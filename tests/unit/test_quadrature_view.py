"""The Quadrature board view: drawing, geometry and tap logic, without a browser."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree

import pytest

from tessera.core.draw import OP_CIRCLE, OP_CIRCLE_STROKE, OP_ROUND_RECT, OP_TEXT, DrawList, to_svg
from tessera.core.view import ViewState
from tessera.games.quadrature import Quadrature
from tessera.games.quadrature.rules import make_move, move_to, parse_square
from tessera.games.quadrature.view import (
    CHECKER_RADIUS, PALETTE, QuadratureView, geometry, square_at, square_center)

VIEW = QuadratureView()
SIZES = [(560.0, 560.0), (331.0, 497.0), (900.0, 420.0)]


def draw(game: Quadrature, state: ViewState | None = None, size: tuple[float, float] = (560.0, 560.0)) -> DrawList:
    out = DrawList(*size)
    VIEW.draw(game, state or ViewState(), out)
    return out


def checker_circles(out: DrawList) -> list[tuple[float, float, str]]:
    """Filled circles of a checker's radius with a checker colour."""
    _, _, spacing = geometry(out.width, out.height)
    radius = CHECKER_RADIUS * spacing
    colours = {PALETTE.white_fill, PALETTE.black_fill}
    return [(a[0], a[1], out.strings[int(a[3])]) for op, a in out.commands()
            if op == OP_CIRCLE and abs(a[2] - radius) < 1e-9 and out.strings[int(a[3])] in colours]


def test_start_position_draws_eighteen_checkers():
    """The start position shows 9 white and 9 black checkers."""
    circles = checker_circles(draw(Quadrature()))
    assert len(circles) == 18
    assert sum(1 for *_, colour in circles if colour == PALETTE.white_fill) == 9
    assert sum(1 for *_, colour in circles if colour == PALETTE.black_fill) == 9


def test_checkers_are_drawn_on_their_points():
    """Every checker circle is centred on its square's point."""
    game = Quadrature()
    out = draw(game)
    centres = {(round(x, 6), round(y, 6)) for x, y, _ in checker_circles(out)}
    expected = set()
    for sq in range(121):
        if game.piece_at(sq) != -1:
            x, y = square_center(sq, out.width, out.height)
            expected.add((round(x, 6), round(y, 6)))
    assert centres == expected


def test_svg_is_valid_xml():
    """The same draw list renders as a well-formed SVG document."""
    game = Quadrature()
    game.push_text("b9-b8")
    svg = to_svg(draw(game, ViewState(selected=parse_square("c9"), flipped=True)))
    root = ElementTree.fromstring(svg)
    assert root.tag.endswith("svg")
    assert len(root) > 100


def test_coordinates_are_labelled():
    """Files a-k and ranks 1-11 are written around the board."""
    texts = {draw(Quadrature()).strings[int(a[4])] for op, a in draw(Quadrature()).commands() if op == OP_TEXT}
    assert set("abcdefghijk") <= texts
    assert {str(n) for n in range(1, 12)} <= texts


@pytest.mark.parametrize("flipped", [False, True])
@pytest.mark.parametrize("size", SIZES)
def test_cell_at_inverts_square_center(flipped, size):
    """Tapping a point's centre finds that point, for all 121 squares."""
    state = ViewState(flipped=flipped)
    for sq in range(121):
        x, y = square_center(sq, *size, flipped)
        assert VIEW.cell_at(Quadrature(), state, *size, x, y) == sq


def test_cell_at_tolerance_and_outside():
    """Taps near a point count; taps between points or off the board do not."""
    width = height = 560.0
    x0, y0, spacing = geometry(width, height)
    sq = square_at(width, height, x0 + 0.3 * spacing, y0 + 0.2 * spacing)
    assert sq is not None
    assert square_at(width, height, x0 + 0.5 * spacing, y0 + 0.5 * spacing) is None
    assert square_at(width, height, 1.0, 1.0) is None
    assert square_at(width, height, x0 + 20 * spacing, y0) is None


def test_orientation():
    """Unflipped shows White's side at the bottom; flipped puts a1 bottom left."""
    width = height = 500.0
    e11 = square_center(parse_square("e11"), width, height, False)
    e1 = square_center(parse_square("e1"), width, height, False)
    assert e11[1] > e1[1]
    a1 = square_center(parse_square("a1"), width, height, True)
    k11 = square_center(parse_square("k11"), width, height, True)
    assert a1[0] < k11[0] and a1[1] > k11[1]


def test_step_cell_moves_on_screen_and_clamps():
    """The keyboard cursor steps in screen directions and stays on the board."""
    for flipped in (False, True):
        sq = parse_square("f6")
        x, y = square_center(sq, 500, 500, flipped)
        right = VIEW.step_cell(sq, 1, 0, flipped)
        rx, ry = square_center(right, 500, 500, flipped)
        assert rx > x and ry == pytest.approx(y)
        up = VIEW.step_cell(sq, 0, -1, flipped)
        assert square_center(up, 500, 500, flipped)[1] < y
    corner = parse_square("a1")
    assert VIEW.step_cell(corner, -1, 0, True) == corner
    assert VIEW.step_cell(corner, 0, 1, True) == corner


def test_tap_selects_own_checker_and_shows_targets():
    """Tapping a checker of the side to move selects it and draws its targets."""
    game = Quadrature()
    state = ViewState()
    b9 = parse_square("b9")
    result = VIEW.tap(game, state, b9)
    assert result.selected == b9 and result.move is None
    state.selected = result.selected
    targets = {move_to(m) for m in game.moves_from(b9)}
    assert targets
    _, _, spacing = geometry(560, 560)
    out = draw(game, state)
    dots = {(round(a[0], 6), round(a[1], 6)) for op, a in out.commands()
            if op == OP_CIRCLE and out.strings[int(a[3])] == PALETTE.target}
    assert dots == {tuple(round(c, 6) for c in square_center(t, 560, 560)) for t in targets}


def test_tap_target_makes_the_move():
    """With a checker selected, tapping one of its targets returns the move."""
    game = Quadrature()
    b9, b8 = parse_square("b9"), parse_square("b8")
    result = VIEW.tap(game, ViewState(selected=b9), b8)
    assert result.move == make_move(b9, b8)
    assert result.selected is None


def test_tap_elsewhere_deselects_and_other_checker_reselects():
    """Empty non-target points, enemy checkers and the selected checker deselect."""
    game = Quadrature()
    b9 = parse_square("b9")
    state = ViewState(selected=b9)
    assert VIEW.tap(game, state, parse_square("f5")).selected is None
    assert VIEW.tap(game, state, parse_square("d3")).selected is None   # Black's checker
    assert VIEW.tap(game, state, b9).selected is None
    assert VIEW.tap(game, state, None).selected is None
    other = VIEW.tap(game, state, parse_square("e9"))
    assert other.selected == parse_square("e9") and other.move is None


def test_tap_ignored_when_not_interactive():
    """A display-only board never selects nor moves."""
    game = Quadrature()
    result = VIEW.tap(game, ViewState(interactive=False), parse_square("b9"))
    assert result.selected is None and result.move is None


def test_last_move_and_conversions_are_marked():
    """After a converting move the converted checkers get a ring."""
    game = Quadrature()
    game.push_text("b9-b8")
    plain = draw(game)
    rings = [a for op, a in plain.commands()
             if op == OP_CIRCLE_STROKE and plain.strings[int(a[3])] == PALETTE.converted]
    assert rings == []
    marked = draw(game, ViewState(highlights={"converted": [parse_square("b8")]}))
    rings = [a for op, a in marked.commands()
             if op == OP_CIRCLE_STROKE and marked.strings[int(a[3])] == PALETTE.converted]
    assert len(rings) == 1
    x, y = square_center(parse_square("b8"), 560, 560)
    assert (rings[0][0], rings[0][1]) == pytest.approx((x, y))
    tints = [a for op, a in plain.commands()
             if op == OP_ROUND_RECT and plain.strings[int(a[5])] == PALETTE.last_move]
    assert len(tints) == 2
