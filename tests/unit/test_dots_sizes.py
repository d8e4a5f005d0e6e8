"""Dots on every field size from 5x5 to 52x52: the option, the start, records, bots and the view."""

from __future__ import annotations

import pytest

from tessera.core.draw import OP_TEXT, DrawList
from tessera.core.game import CustomValue, OptionSpec, PositionError
from tessera.core.record import Record, RecordError
from tessera.core.view import ViewState
from tessera.games.dots import BLUE, RED, Dots
from tessera.games.dots.rules import FOUR_CROSSES_MIN_SIDE, MAX_SIDE, MIN_SIDE, cross_points, field_size
from tessera.games.dots.view import DotsView, label_step, point_at, point_center


@pytest.mark.parametrize("size, width, height", [
    ("39x32", 39, 32), ("20x20", 20, 20), ("12x12", 12, 12), ("10x14", 10, 14),
    ("17x21", 17, 21), ("5x5", 5, 5), ("52x52", 52, 52), ("5x52", 5, 52), ("07x09", 7, 9),
])
def test_any_size_from_5_to_52_is_an_option(size: str, width: int, height: int) -> None:
    """Presets and any WxH within 5..52 make a field of that size; the option is kept canonical."""
    game = Dots({"size": size})
    assert (game.width, game.height) == (width, height)
    assert game.options["size"] == f"{width}x{height}"
    assert game.free_count() == width * height - 4


@pytest.mark.parametrize("size", [
    "4x4", "5x4", "53x5", "0x0", "-5x5", "5x5x5", "5", "x", "", " 5x5", "5 x5", "5X5", "５x5",
    "999999x5", "9" * 5000 + "x5", "5x" + "9" * 100_000, 20, 20.0, None, True, ["20x20"],
])
def test_other_sizes_are_refused_clearly(size) -> None:
    """Anything else is a PositionError naming the allowed forms, however large the input."""
    with pytest.raises(PositionError) as info:
        Dots({"size": size})
    message = str(info.value)
    assert "39x32" in message and "WIDTHxHEIGHT" in message and f"{MIN_SIDE} to {MAX_SIDE}" in message
    assert len(message) < 200


def test_custom_value_is_generic() -> None:
    """CustomValue parses and formats any number of parts; OptionSpec keeps presets as they are."""
    custom = CustomValue(("rows", "columns", "layers"), 1, 20, "-")
    assert custom.parse("3-04-9") == (3, 4, 9)
    assert custom.format((3, 4, 9)) == "3-4-9"
    with pytest.raises(PositionError, match="out of range"):
        custom.parse("3-0-9")
    spec = OptionSpec("board", "small", ("small", "large"), custom)
    assert spec.validate("large") == "large"
    assert spec.validate("1-2-03") == "1-2-3"
    with pytest.raises(PositionError, match="ROWS-COLUMNS-LAYERS"):
        spec.validate("medium")


@pytest.mark.parametrize("size, blue, red", [
    ("5x5", [(3, 4), (4, 3)], [(3, 3), (4, 4)]),
    ("10x14", [(5, 8), (6, 7)], [(5, 7), (6, 8)]),
    ("17x21", [(9, 12), (10, 11)], [(9, 11), (10, 12)]),
    ("52x52", [(26, 27), (27, 26)], [(26, 26), (27, 27)]),
])
def test_the_cross_is_centred_on_every_size(size: str, blue, red) -> None:
    """The start cross's lower-left dot is ((w+1)//2, (h+1)//2), as on 39x32."""
    game = Dots({"size": size})
    for x, y in blue:
        assert game.point_state(x, y) == (BLUE, -1)
    for x, y in red:
        assert game.point_state(x, y) == (RED, -1)


def test_four_crosses_need_16x16() -> None:
    """Four crosses fit with a free line to every edge from 16x16 up; smaller fields refuse them."""
    for size in ("16x16", "16x52", "39x32"):
        game = Dots({"size": size, "start": "four_crosses"})
        width, height = field_size(size)
        xs = [x for x, _ in cross_points(width, height, "four_crosses")[0]]
        ys = [y for _, y in cross_points(width, height, "four_crosses")[0]]
        assert min(xs) >= 2 and max(xs) <= width - 1 and min(ys) >= 2 and max(ys) <= height - 1
        assert game.free_count() == width * height - 16
    for size in ("15x15", "15x52", "52x15", "5x5"):
        with pytest.raises(PositionError, match=f"at least {FOUR_CROSSES_MIN_SIDE}x{FOUR_CROSSES_MIN_SIDE}"):
            Dots({"size": size, "start": "four_crosses"})
    assert Dots({"size": "5x5", "start": "empty"}).free_count() == 25


def test_a_record_of_any_size_replays_and_a_bad_one_names_the_problem() -> None:
    """A tessera/1 record with {"size": "12x12"} replays; a bad size fails at replay with the reason."""
    game = Dots({"size": "12x12"})
    for text in ("1-1", "12-12", "6-8", "7-5"):
        game.push_text(text)
    record = Record.loads(Record.from_game(game).dumps())
    assert record.options == {"size": "12x12", "start": "cross"}
    assert record.replay().position() == game.position()
    for options in ({"size": "999999x5"}, {"size": "10x10", "start": "four_crosses"}):
        bad = Record.loads(Record(game="dots", options=options).dumps())
        with pytest.raises(RecordError, match="bad start of game"):
            bad.replay()
    with pytest.raises(RecordError, match="13-1"):
        Record(game="dots", options={"size": "12x12"}, moves=["13-1"]).replay()


@pytest.mark.parametrize("size", ["5x5", "10x14", "52x52", "5x52"])
@pytest.mark.parametrize("name", ["dots_capture", "dots_tactics", "dots_reader", "dots_mcts"])
def test_every_bot_plays_legal_moves_on_odd_sizes(size: str, name: str) -> None:
    """The bots assume no field size: each answers with legal moves on tiny, long and huge fields
    (iteration limits only, as in test_dots_bot, so the result does not depend on speed)."""
    from tessera.games.dots.bot import DotsCaptureBot, DotsMctsBot, DotsReaderBot, DotsTacticsBot

    makers = {"dots_capture": lambda seed: DotsCaptureBot(seed=seed, movetime_ms=0),
              "dots_tactics": lambda seed: DotsTacticsBot(seed=seed, movetime_ms=0),
              "dots_reader": lambda seed: DotsReaderBot(seed=seed, movetime_ms=0, max_depth=2),
              "dots_mcts": lambda seed: DotsMctsBot(seed=seed, movetime_ms=0, max_iterations=20)}
    bots = [makers[name](1), makers[name](2)]
    game = Dots({"size": size}, seed=3)
    for _ in range(10):
        if game.is_over():
            break
        move = bots[game.to_move].choose(game)
        assert move is not None and game.is_legal(move)
        game.push(move)
    assert game.ply >= 1
    empty = Dots({"size": size, "start": "empty"})
    first = bots[0].choose(empty)
    assert empty.xy(first) == ((empty.width + 1) // 2, (empty.height + 1) // 2), "opens in the centre"


@pytest.mark.parametrize("size", ["5x5", "52x52", "5x52", "52x5"])
def test_view_hit_testing_and_labels_on_extreme_sizes(size: str) -> None:
    """Points map to pixels and back at every corner; coordinates are labelled, thinned out when tight."""
    game = Dots({"size": size})
    view = DotsView()
    width = 640.0
    height = width / view.aspect(game)
    for cell in ((1, 1), (game.width, 1), (1, game.height), (game.width, game.height)):
        for flipped in (False, True):
            x, y = point_center(game, cell, width, height, flipped)
            assert point_at(game, width, height, x, y, flipped) == cell
    drawing = DrawList(width, height)
    view.draw(game, ViewState(), drawing)
    labels = {drawing.strings[int(args[4])] for op, args in drawing.commands() if op == OP_TEXT}
    spacing = view.geometry_for(game, width, height)[2]
    step = label_step(spacing)
    wanted = {str(n) for n in range(1, max(game.width, game.height) + 1) if step == 1 or n % step == 0}
    assert labels == wanted
    if size in ("5x5", "52x52"):   # 640 px wide: every point labelled on 5x5, every second on 52x52
        assert step == (1 if size == "5x5" else 2)
