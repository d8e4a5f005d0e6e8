"""Every board marks a suggested move (the Hint button's, a review's best
move) in the same green, and only when one is given: the hint of any game
is drawn by its own view from ``ViewState.highlights["hint"]``."""

from __future__ import annotations

import pytest

from tessera.core import registry
from tessera.core.draw import DrawList
from tessera.core.game_ui import game_ui
from tessera.core.hint_marks import arrow, hint_colour
from tessera.core.rng import SeededRandom
from tessera.core.view import ViewState

TWO_PLAYER = [entry.game_id for entry in registry.GAMES if entry.num_players == 2 and entry.module is not None]


@pytest.mark.parametrize("game_id", TWO_PLAYER)
@pytest.mark.parametrize("theme", ["light", "dark"])
def test_a_hint_is_drawn_in_the_hint_green(game_id: str, theme: str) -> None:
    game = registry.game_class(game_id)()
    rng = SeededRandom(3)
    for _ in range(4):                      # a few moves in, so the board is not empty
        game.push(game.random_move(rng))
    move = game.random_move(rng)
    view = registry.view(game_id)
    width = 640.0
    height = width / view.aspect_at(game, width)
    hinted, plain = DrawList(width, height), DrawList(width, height)
    view.draw(game, ViewState(theme=theme, highlights={"hint": move}), hinted)
    view.draw(game, ViewState(theme=theme), plain)
    assert hint_colour(theme) in hinted.strings, (game_id, game.move_text(move))
    assert hint_colour(theme) not in plain.strings


@pytest.mark.parametrize("game_id", TWO_PLAYER)
def test_every_two_player_game_offers_a_hint(game_id: str) -> None:
    assert game_ui(game_id).hint_level is not None


def test_an_arrow_points_where_it_goes() -> None:
    out = DrawList(100, 100)
    arrow(out, 10, 50, 90, 50, 6, "green")
    ((_, args),) = list(out.commands())
    xs = args[2::2]
    assert max(xs) == pytest.approx(90) and min(xs) == pytest.approx(10)
    empty = DrawList(100, 100)
    arrow(empty, 10, 10, 10, 10, 6, "green")
    assert list(empty.commands()) == []
