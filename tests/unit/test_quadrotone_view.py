"""The Quadrotone field view: taps name large squares, chips are drawn, the
last move's patterns are outlined and numbered, palettes keep contrast; the
hand is hit where it is drawn (a tray on a wide board, a sheet on a phone)
and is the hand the play screen asks for."""

from __future__ import annotations

from dataclasses import replace

from tessera.core import registry  # noqa: F401  (the games' catalog parts)
from tessera.core.contrast import ratio as contrast_ratio
from tessera.core.draw import DrawList
from tessera.core.game_ui import game_ui
from tessera.core.rng import SeededRandom
from tessera.core.session import Seat, Session
from tessera.core.view import ViewState
from tessera.games.quadrotone import Quadrotone
from tessera.games.quadrotone.sampler import random_move
from tessera.games.quadrotone.tray import CLOSE, OPEN, SHEET_GAP, is_compact, sheet_layout, sheet_open
from tessera.games.quadrotone.view import (CONTRAST_PAIRS, PALETTES, QuadrotoneView, square_center, strip_center,
                                          tray_center, tray_rows)


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


def test_every_tray_chip_is_hit_where_it_is_drawn_on_a_wide_board() -> None:
    view, game = QuadrotoneView(), Quadrotone(seed=7)
    rows = tray_rows(game)
    for width in (420.0, 648.0, 1000.0):
        height = width / view.aspect(game)
        shown = view.tray_chips(game, ViewState())
        assert len(shown) == 128
        for index, chip in enumerate(shown):
            assert view.cell_at(game, ViewState(), width, height, *tray_center(index, width, height, rows)) \
                == ("hand", chip)


def test_a_phone_opens_a_sheet_of_large_chips() -> None:
    """On a narrow board the strip opens a sheet; each chip is hit where it is
    drawn, a tap takes it and closes the sheet, a tap beside the chips closes it."""
    view, game = QuadrotoneView(), Quadrotone(seed=7)
    rows = tray_rows(game)
    width = 374.0
    height = width / view.aspect(game)
    assert is_compact(width) and not is_compact(648.0)
    state = ViewState()
    assert view.cell_at(game, state, width, height, *strip_center(width, height, rows)) == OPEN
    assert view.cell_at(game, state, width, height, *tray_center(5, width, height, rows)) == OPEN
    opened = view.tap(game, state, OPEN).selected
    assert sheet_open(opened)
    state = ViewState(selected=opened)
    drawing = DrawList(width, height)
    view.draw(game, state, drawing)
    assert view.hand_label(game, state) in texts(drawing)
    shown = view.tray_chips(game, state)
    layout = sheet_layout((0, 0, width, height), len(shown))
    assert layout.chip * (1 - 2 * SHEET_GAP) >= 44            # a fingertip, not 11 px
    assert layout.pages == 3 and layout.per_page * 3 >= 128
    seen = []
    paged = state
    for page in range(layout.pages):                          # every chip on its page, hit where it is drawn
        on_page = sheet_layout((0, 0, width, height), len(shown), page)
        for index in on_page.shown(len(shown)):
            assert view.cell_at(game, paged, width, height, *on_page.center(index)) == ("hand", shown[index])
            seen.append(index)
        previous, following = on_page.page_buttons()
        forward = view.cell_at(game, paged, width, height, following[0] + 5, following[1] + 5)
        back = view.cell_at(game, paged, width, height, previous[0] + 5, previous[1] + 5)
        assert back == ("sheet", "page", max(0, page - 1))
        assert forward == ("sheet", "page", min(page + 1, layout.pages - 1))
        paged = ViewState(selected=view.tap(game, paged, forward).selected)
        assert sheet_open(paged.selected)
    assert seen == list(range(len(shown)))
    drawn = DrawList(width, height)
    view.draw(game, ViewState(selected=replace(opened, page=1)), drawn)
    assert "2 / 3" in texts(drawn)
    picked = view.tap(game, state, ("hand", shown[3])).selected
    assert not sheet_open(picked) and picked.held == ("hand", shown[3], 0)
    again = view.tap(game, ViewState(selected=picked), OPEN).selected     # the chip held stays held
    turned = view.tap(game, ViewState(selected=again), ("hand", shown[3])).selected
    assert not sheet_open(turned) and turned.held[:2] == ("hand", shown[3]) and turned.held[2] != 0
    assert view.tap(game, ViewState(selected=again), CLOSE).selected == picked
    x, y, _ = layout.close_box
    assert view.cell_at(game, state, width, height, x, y) == CLOSE
    assert view.tap(game, state, CLOSE).selected is None
    # Zoomed in: the sheet covers the part of the field on screen.
    zoomed = ViewState(selected=opened, highlights={"viewport": (300.0, 200.0, width, height)})
    layout = sheet_layout((300.0, 200.0, width, height), len(shown))
    assert view.cell_at(game, zoomed, width * 2, height * 2, *layout.center(0)) == ("hand", shown[0])


def test_the_tray_shows_the_hand_the_play_screen_asks_for() -> None:
    view, game = QuadrotoneView(), Quadrotone(seed=7)
    mover, other = game.to_move, 1 - game.to_move
    asked = ViewState(highlights={"hand_seat": other, "hand_own": True})
    assert view.tray_chips(game, asked) == sorted(game.hands[other])
    assert view.tray_chips(game, ViewState()) == sorted(game.hands[mover])
    assert view.hand_label(game, asked) == "Your chips: 128"
    assert view.hand_label(game, ViewState()).startswith("Chips of the")
    width = 648.0
    height = width / view.aspect(game)
    x, y = tray_center(0, width, height, tray_rows(game))
    assert view.cell_at(game, asked, width, height, x, y) is None   # not the mover's: nothing to take


def test_against_the_bot_the_tray_keeps_the_players_hand() -> None:
    ui = game_ui("quadrotone")
    for human in (0, 1):
        seats = [Seat("human"), Seat("bot", "easy")] if human == 0 else [Seat("bot", "easy"), Seat("human")]
        session = Session(Quadrotone(seed=7), seats)
        assert ui.view_highlights(session) == {"hand_seat": human, "hand_own": True}
    hot = Session(Quadrotone(seed=7), [Seat("human"), Seat("human")])
    assert ui.view_highlights(hot) == {"hand_seat": hot.game.to_move, "hand_own": False}
