"""Quadrotone's board at the sizes people use: the hand beside the field on
a laptop with chips a finger or a mouse can take (28 px and more), every
chip hit where it is drawn, and the score badges of a move never laid on a
chip that scored (nor on each other, nor over the hand)."""

from __future__ import annotations

import pytest

from tessera.core.draw import DrawList
from tessera.core.rng import SeededRandom
from tessera.core.view import ViewState
from tessera.games.quadrotone import Quadrotone
from tessera.games.quadrotone.badges import badge_box, place_badges
from tessera.games.quadrotone.field import LARGE
from tessera.games.quadrotone.layout import (BELOW, BESIDE, BESIDE_MIN_WIDTH, STRIP, layout, square_center,
                                             tray_center, tray_rows)
from tessera.games.quadrotone.rules import SQUARE_OF
from tessera.games.quadrotone.sampler import random_move
from tessera.games.quadrotone.view import QuadrotoneView

TRAY_DRAWN = 0.88
"""The part of a tray place a chip fills (``_draw_tray`` leaves a gap round it)."""


def board_size(view: QuadrotoneView, game: Quadrotone, width: float) -> tuple[float, float]:
    return width, width / view.aspect_at(game, width)


@pytest.mark.parametrize("width", [852.0, 840.0])
def test_a_laptop_board_has_the_hand_beside_the_field_in_chips_of_28_px(width: float) -> None:
    """The board column at 1280 x 800 and 1366 x 768 is about 840-852 px wide (app.css)."""
    view, game = QuadrotoneView(), Quadrotone(seed=4)
    w, h = board_size(view, game, width)
    found = layout(w, h, tray_rows(game))
    assert found.hand == BESIDE and found.chip * TRAY_DRAWN >= 28
    assert found.tray_x >= found.left + LARGE * found.s and found.rows * found.chip <= LARGE * found.s + 1e-6
    assert h <= 600, "the field, the tray and the buttons under them fit under a 768-pixel screen's header"


def test_the_shape_follows_the_width() -> None:
    view, game = QuadrotoneView(), Quadrotone(seed=4)
    rows = tray_rows(game)
    assert layout(*board_size(view, game, BESIDE_MIN_WIDTH), rows).hand == BESIDE
    assert layout(*board_size(view, game, BESIDE_MIN_WIDTH - 1), rows).hand == BELOW
    assert layout(*board_size(view, game, 374.0), rows).hand == STRIP
    reverse = Quadrotone({"variant": "reverse"}, seed=4)
    assert view.aspect_at(reverse, 1000.0) == view.aspect(reverse) == 1.0


@pytest.mark.parametrize("width", [BESIDE_MIN_WIDTH, 852.0, 1000.0])
def test_every_chip_and_square_is_hit_where_it_is_drawn_beside_the_field(width: float) -> None:
    view, game = QuadrotoneView(), Quadrotone(seed=9)
    w, h = board_size(view, game, width)
    rows = tray_rows(game)
    shown = view.tray_chips(game, ViewState())
    for index, chip in enumerate(shown):
        assert view.cell_at(game, ViewState(), w, h, *tray_center(index, w, h, rows)) == ("hand", chip)
    for square in (0, 15, 100, 240, 255):
        assert view.cell_at(game, ViewState(), w, h, *square_center(square, w, h, rows)) == square
    drawing = DrawList(w, h)
    view.draw(game, ViewState(highlights={"hand_own": True}), drawing)


def test_a_badge_box_is_what_the_view_draws() -> None:
    assert badge_box("3", None, 10.0) == (20.0, 20.0, 10.0)
    width, height, anchor = badge_box("3", "+28", 10.0)
    assert (height, anchor) == (20.0, 10.0) and width == pytest.approx(20.0 + 10.0 * (0.75 * 3 + 0.6))


def rects_overlap(a, b) -> bool:
    return not (a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1])


def check_badges(badges, placed, left, top, s, blocked, radius) -> None:
    boxes = []
    for badge, where in zip(badges, placed):
        if where is None:
            continue
        x, y, number, points = where
        assert number == badge[0] or number is None
        width, height, anchor = badge_box(number, points, radius)
        box = (x - anchor, y - height / 2, x - anchor + width, y + height / 2)
        for square in blocked:
            col, row = square % LARGE, square // LARGE
            chip = (left + col * s, top + (LARGE - 1 - row) * s, left + (col + 1) * s, top + (LARGE - row) * s)
            assert not rects_overlap(box, (chip[0] + 0.5, chip[1] + 0.5, chip[2] - 0.5, chip[3] - 0.5)), \
                (badge, square)
        assert box[0] >= left - 0.45 * s - 1e-6 and box[2] <= left + (LARGE + 0.45) * s + 1e-6
        boxes.append(box)
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert not rects_overlap(a, b), (a, b)


def test_many_badges_crowded_together_never_cover_a_scored_chip_or_each_other() -> None:
    left, top, s, radius = 30.0, 30.0, 33.0, 10.0
    patterns = [[(x, 10), (x + 1, 10)] for x in range(0, 12, 2)]          # six patterns side by side
    badges = [(str(i + 1), f"+{10 * (i + 1)}", cells) for i, cells in enumerate(patterns)]
    blocked = {SQUARE_OF[y * 32 + x] for cells in patterns for x, y in cells}
    placed = place_badges(badges, left, top, s, blocked, radius)
    assert all(p is not None for p in placed) and placed[0][2:] == ("1", "+10")
    check_badges(badges, placed, left, top, s, blocked, radius)


@pytest.mark.parametrize("seed", range(4))
def test_the_badges_of_real_moves_never_cover_what_scored(seed: int) -> None:
    """Random games crowded in one corner: after each move that scored, the
    badges the board places cover no chip of a scored pattern or of the move."""
    view, game, rng = QuadrotoneView(), Quadrotone(seed=seed), SeededRandom(seed)
    w, h = board_size(view, game, 852.0)
    found = layout(w, h, tray_rows(game))
    scored_moves = 0
    while game.ply < 50 and not game.is_over():
        game.push(random_move(game, rng, place_share=0.9))
        if not game.last_scored:
            continue
        scored_moves += 1
        drawing = DrawList(w, h)
        view.draw(game, ViewState(), drawing)
        key, placed = view._badges
        blocked = {SQUARE_OF[y * 32 + x] for s in game.last_scored for x, y in s.occurrence.cells()}
        blocked |= set(game.last_squares)
        badges = [(str(n), f"+{s.points}", sorted(s.occurrence.cells())) for n, s in enumerate(game.last_scored, 1)]
        check_badges(badges, placed[:len(badges)], found.left, found.top, found.s, blocked, max(5.0, 0.3 * found.s))
        assert sum(1 for p in placed[:len(badges)] if p is not None) >= min(1, len(badges))
    assert scored_moves > 0
