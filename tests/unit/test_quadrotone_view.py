"""The Quadrotone field view: taps name large squares, chips are drawn, the
last move's patterns are outlined and numbered, palettes keep contrast."""

from __future__ import annotations

from tessera.core.contrast import ratio as contrast_ratio
from tessera.core.draw import DrawList
from tessera.core.rng import SeededRandom
from tessera.core.view import ViewState
from tessera.games.quadrotone import Quadrotone
from tessera.games.quadrotone.sampler import random_move
from tessera.games.quadrotone.view import (CONTRAST_PAIRS, PALETTES, QuadrotoneView, square_center, tray_center,
                                          tray_rows)


def texts(drawing: DrawList) -> list[str]:
    svg = __import__("tessera.core.draw", fromlist=["to_svg"]).to_svg(drawing)
    import re
    return re.findall(r">([^<>]+)</text>", svg)


def test_taps_name_squares_and_hand_chips() -> None:
    view, game = QuadrotoneView(), Quadrotone(seed=1)
    rows = tray_rows(game)
    width, height = 640.0, 640.0 / view.aspect(game)
    for square in (0, 15, 17, 128, 255):
        x, y = square_center(square, width, height, rows)
        assert view.cell_at(game, ViewState(), width, height, x, y) == square
    assert view.cell_at(game, ViewState(), width, height, 1, 1) is None
    shown = view.tray_chips(game, ViewState())
    assert sorted(shown) == sorted(game.hands[game.to_move])
    for index in (0, 17, len(shown) - 1):
        x, y = tray_center(index, width, height, rows)
        assert view.cell_at(game, ViewState(), width, height, x, y) == ("hand", shown[index])
    picked = view.tap(game, ViewState(), ("hand", shown[0])).selected
    assert picked is not None and picked.held == ("hand", shown[0], 0)
    dropped = view.tap(game, ViewState(selected=picked), 17).selected
    assert dropped.items == ((shown[0], 0, 17),) and shown[0] not in view.tray_chips(game, ViewState(selected=dropped))
    grouped = view.tray_chips(game, ViewState(highlights={"group_hand": True}))
    assert sorted(grouped) == sorted(shown) and grouped != shown
    assert tray_rows(Quadrotone({"variant": "reverse"}, seed=1)) == 0


def test_the_last_move_is_drawn_with_its_numbered_patterns() -> None:
    game = Quadrotone(seed=3)
    rng = SeededRandom(5)
    while not (game.ply > 10 and len(game.last_scored) >= 2):
        game.push(random_move(game, rng, place_share=0.95))
    drawing = DrawList(800, 800)
    QuadrotoneView().draw(game, ViewState(), drawing)
    labels = texts(drawing)
    for number, scored in enumerate(game.last_scored, 1):
        assert str(number) in labels and f"+{scored.points}" in labels
    hidden = DrawList(800, 800)
    QuadrotoneView().draw(game, ViewState(highlights={"show_last": False}), hidden)
    assert len(list(hidden.commands())) < len(list(drawing.commands()))


def test_the_shapes_option_marks_the_colours() -> None:
    game = Quadrotone(seed=2)
    game.push(game.parse_move(game.move_text(random_move(game, SeededRandom(1), place_share=1.0))))
    plain, marked = DrawList(600, 600), DrawList(600, 600)
    QuadrotoneView().draw(game, ViewState(), plain)
    QuadrotoneView().draw(game, ViewState(shapes=True), marked)
    assert len(list(marked.commands())) > len(list(plain.commands()))


def test_palettes_keep_contrast() -> None:
    for palette in PALETTES.values():
        for fronts, backs, minimum in CONTRAST_PAIRS:
            for front in fronts:
                for back in backs:
                    ratio = contrast_ratio(getattr(palette, front), getattr(palette, back))
                    assert ratio >= minimum, (front, back, ratio)
