"""What the settings change in the drawings, and what the board says to screen readers."""

from __future__ import annotations

from tessera import i18n
from tessera.core.draw import OP_CIRCLE, OP_RECT, OP_RECT_STROKE, OP_ROUND_RECT, OP_TEXT, DrawList
from tessera.core.view import ViewState
from tessera.games.dots import Dots
from tessera.games.dots import view as dots_view
from tessera.games.quadrature import Quadrature
from tessera.games.quadrature import view as quadrature_view
from tessera.games.quadrature.rules import parse_square
from tessera.games.dots.adapter import DotsUI
from tessera.games.quadrature.adapter import QuadratureUI


def draw(view, game, state: ViewState, size: float = 560.0) -> DrawList:
    out = DrawList(size, size)
    view.draw(game, state, out)
    return out


def ops(out: DrawList, op: int) -> list[list[float]]:
    return [a for code, a in out.commands() if code == op]


def colours(out: DrawList, op: int, index: int) -> set[str]:
    return {out.strings[int(a[index])] for a in ops(out, op)}


# ----- themes -------------------------------------------------------------------------

def test_each_theme_draws_with_its_palette() -> None:
    for module, game in ((quadrature_view, Quadrature()), (dots_view, Dots({"size": "20x20"}))):
        view = module.VIEW
        for theme, palette in module.PALETTES.items():
            out = draw(view, game, ViewState(theme=theme))
            used = set(out.strings)
            ground = palette.board if module is quadrature_view else palette.paper
            other = module.PALETTES["dark" if theme == "light" else "light"]
            assert ground in used
            assert (other.board if module is quadrature_view else other.paper) not in used


def test_an_unknown_theme_falls_back_to_light() -> None:
    out = draw(quadrature_view.VIEW, Quadrature(), ViewState(theme="sepia"))
    assert quadrature_view.LIGHT.board in out.strings


# ----- coordinates ----------------------------------------------------------------------

def test_coordinates_can_be_turned_off() -> None:
    for view, game in ((quadrature_view.VIEW, Quadrature()), (dots_view.VIEW, Dots({"size": "20x20"}))):
        assert ops(draw(view, game, ViewState()), OP_TEXT)
        assert ops(draw(view, game, ViewState(coordinates=False)), OP_TEXT) == []


def test_turning_coordinates_off_keeps_the_geometry() -> None:
    """Taps land on the same points with or without the numbers."""
    game = Dots({"size": "20x20"})
    on = draw(dots_view.VIEW, game, ViewState())
    off = draw(dots_view.VIEW, game, ViewState(coordinates=False))
    assert ops(on, OP_CIRCLE) == ops(off, OP_CIRCLE)


# ----- colour-blind shapes --------------------------------------------------------------

def test_shapes_draw_red_dots_as_squares() -> None:
    game = Dots({"size": "20x20"})    # the start cross: two blue and two red dots
    palette = dots_view.LIGHT
    plain = draw(dots_view.VIEW, game, ViewState())
    assert palette.red in colours(plain, OP_CIRCLE, 3)
    shaped = draw(dots_view.VIEW, game, ViewState(shapes=True))
    assert palette.red not in colours(shaped, OP_CIRCLE, 3)
    squares = [a for a in ops(shaped, OP_RECT) if shaped.strings[int(a[4])] == palette.red]
    assert len(squares) == 2
    assert all(abs(a[2] - a[3]) < 1e-9 for a in squares)          # square
    assert palette.blue in colours(shaped, OP_CIRCLE, 3)            # blue stays round


def test_shapes_also_square_the_red_ghost() -> None:
    game = Dots({"size": "20x20"})
    game.push(game.cell(3, 3))        # blue played: red to move
    state = ViewState(shapes=True, selected=(5, 5), highlights={"confirm": True})
    out = draw(dots_view.VIEW, game, state)
    assert dots_view.LIGHT.red_ghost in colours(out, OP_RECT, 4)
    assert dots_view.LIGHT.red in colours(out, OP_RECT_STROKE, 4)


# ----- the marks a player must see ---------------------------------------------------------

def test_last_move_is_outlined_and_selection_ringed() -> None:
    game = Quadrature()
    game.push_text("b9-b8")
    out = draw(quadrature_view.VIEW, game, ViewState(selected=parse_square("c3")))
    palette = quadrature_view.LIGHT
    assert sum(1 for a in ops(out, OP_RECT_STROKE) if out.strings[int(a[4])] == palette.last_move_edge) == 2
    assert sum(1 for a in ops(out, OP_ROUND_RECT) if out.strings[int(a[5])] == palette.last_move) == 2
    assert palette.selected_ring in out.strings and palette.target in out.strings


# ----- what the keyboard cursor says ------------------------------------------------------------

def test_quadrature_cell_descriptions() -> None:
    ui, game = QuadratureUI(), Quadrature()
    previous = i18n.language()
    try:
        i18n.set_language("en")
        assert ui.describe_cell(game, ViewState(), parse_square("e9")) == "e9, white checker"
        assert ui.describe_cell(game, ViewState(), parse_square("e5")) == "e5, empty"
        assert ui.describe_cell(game, ViewState(), parse_square("f11")) == "f11, empty, White's home plate"
        e9 = parse_square("e9")
        selected = ViewState(selected=e9)
        text = ui.describe_cell(game, selected, e9)
        assert text.startswith("e9, white checker, selected, can go to 3 points: ")
        assert {"d8", "e8", "f8"} <= set(text.split(": ")[1].split(", "))
        assert ui.describe_cell(game, selected, parse_square("e8")) == "e8, empty, a move for e9"
        i18n.set_language("ru")
        assert ui.describe_cell(game, ViewState(), parse_square("e3")) == "e3, чёрная шашка"
        assert "может пойти на 3 точки" in ui.describe_cell(game, selected, e9)
    finally:
        i18n.set_language(previous)


def test_russian_plural_of_targets() -> None:
    forms = {n: i18n.t("cell.targets", lang="ru", count=n, squares="…") for n in (1, 2, 5, 21)}
    assert forms[1].startswith("может пойти на 1 точку")
    assert forms[2].startswith("может пойти на 2 точки")
    assert forms[5].startswith("может пойти на 5 точек")
    assert forms[21].startswith("может пойти на 21 точку")


def test_dots_cell_descriptions() -> None:
    ui, game = DotsUI(), Dots({"size": "20x20"})
    previous = i18n.language()
    try:
        i18n.set_language("en")
        assert ui.describe_cell(game, ViewState(), (1, 1)) == "1-1, empty"
        x, y = game.xy(next(c for c in range(game.field.cell_count) if game.field.dot[c] == 1))
        assert ui.describe_cell(game, ViewState(), (x, y)) == f"{x}-{y}, blue dot"
        assert ui.describe_cell(game, ViewState(selected=(1, 1)), (1, 1)) == "1-1, empty, waiting for confirmation"
    finally:
        i18n.set_language(previous)
