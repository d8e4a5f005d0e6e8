"""Dots bots: legal answers on both sizes, captures seen, clean and seeded searches."""

from __future__ import annotations

import pytest

from tessera.bots.base import Bot
from tessera.bots.registry import BOTS, bot_from_spec, level, levels_for, make_level_bot
from tessera.core.registry import game_class
from tessera.core.rng import SeededRandom
from tessera.core.steps import finish
from tessera.games.dots import LAND, Dots
from tessera.games.dots.bot import DotsCaptureBot, DotsMctsBot, DotsReaderBot, DotsTacticsBot
from tessera.games.dots.eval import Tactics, score_candidates
from tessera.games.dots.master import DotsMasterBot


def _no_clock(bot_name: str, seed: int = 0) -> Bot:
    """A level's bot with iteration limits only, so results do not depend on speed."""
    if bot_name == "dots_reader":
        return DotsReaderBot(seed=seed, movetime_ms=0, max_depth=3)
    if bot_name == "dots_master":
        return DotsMasterBot(seed=seed, movetime_ms=0, max_depth=3)
    if bot_name == "dots_mcts":
        return DotsMctsBot(seed=seed, movetime_ms=0, max_iterations=40)
    if bot_name == "dots_tactics":
        return DotsTacticsBot(seed=seed, movetime_ms=0)
    return DotsCaptureBot(seed=seed, movetime_ms=0)


def _played(size: str, plies: int, seed: int) -> Dots:
    """A game after ``plies`` random moves near the dots."""
    game = Dots({"size": size})
    rng = SeededRandom(seed)
    for _ in range(plies):
        near = Tactics(game.field).near_free()
        game.push(near[rng.below(len(near))])
    return game


def _capture_in_one() -> tuple[Dots, int]:
    """Blue to move can surround the red dot 5-5 by playing 5-4."""
    game = Dots({"size": "20x20", "start": "empty"})
    for text in ("5-6", "5-5", "4-5", "15-15", "6-5", "16-16"):
        game.push_text(text)
    return game, game.parse_move("5-4")


def test_levels_are_registered_and_ordered() -> None:
    """Dots is playable through the registry and has four levels, weakest first (master last)."""
    assert game_class("dots") is Dots
    keys = [lv.key for lv in levels_for("dots")]
    assert keys == ["easy", "medium", "hard", "master"]
    assert [lv.bot for lv in levels_for("dots")] == ["dots_capture", "dots_tactics", "dots_reader", "dots_master"]
    assert "dots_master" in BOTS
    for lv in levels_for("dots"):
        assert lv.bot in BOTS
        assert lv.movetime_ms > 0


@pytest.mark.parametrize("size,plies", [("20x20", 0), ("20x20", 40), ("39x32", 0), ("39x32", 90)])
@pytest.mark.parametrize("name", ["dots_capture", "dots_tactics", "dots_reader", "dots_master"])
def test_every_level_returns_a_legal_move(name: str, size: str, plies: int) -> None:
    """Each level's bot, and the master, answers with a free point on both field sizes."""
    game = _played(size, plies, seed=plies + 1)
    bot = _no_clock(name, seed=3)
    move = bot.choose(game)
    assert game.is_legal(move)
    assert move == LAND or game.field.is_free(move)


def test_level_bot_from_spec_and_scaled_time() -> None:
    """Level keys and the Dots bot names work as command-line specs."""
    bot = bot_from_spec("dots", "hard", seed=1, time_scale=1 / 3)
    assert isinstance(bot, DotsReaderBot) and bot.movetime_ms == 500
    bot = bot_from_spec("dots", "dots_mcts:width=4,max_iterations=10", seed=1)
    assert isinstance(bot, DotsMctsBot) and bot.width == 4 and bot.max_iterations == 10
    assert isinstance(make_level_bot(level("dots", "medium")), DotsTacticsBot)


@pytest.mark.parametrize("name", ["dots_capture", "dots_tactics", "dots_reader", "dots_master"])
def test_capture_in_one_is_taken(name: str) -> None:
    """Every level's bot, and the master, closes a one-move encirclement."""
    game, capture = _capture_in_one()
    assert _no_clock(name).choose(game) == capture


def test_tactician_blocks_a_capture_in_one() -> None:
    """With nothing to take, the tactician occupies the point where red would capture."""
    game = Dots({"size": "20x20", "start": "empty"})
    for text in ("5-5", "5-6", "15-15", "4-5", "16-16", "6-5"):
        game.push_text(text)
    block = game.parse_move("5-4")
    assert DotsTacticsBot(movetime_ms=0, noise=0).choose(game) == block
    assert DotsMctsBot(movetime_ms=0, max_iterations=30).choose(game) == block
    assert DotsReaderBot(movetime_ms=0, max_depth=3).choose(game) == block


def test_reader_wins_a_dot_with_a_double_threat() -> None:
    """The reader plays between two half-surrounded red dots and takes one next turn.

    Blue holds 5-6, 5-4, 7-6 and 7-4 around red 5-5 and 7-5; blue 6-5 then
    threatens 4-5 and 8-5 at once, and red can block only one of them.
    """
    game = Dots({"size": "20x20", "start": "empty"})
    for text in ("5-6", "5-5", "5-4", "7-5", "7-6", "15-15", "7-4", "16-16"):
        game.push_text(text)
    reader = DotsReaderBot(movetime_ms=0, max_depth=3)
    move = reader.choose(game)
    assert game.move_text(move) == "6-5"
    game.push(move)
    game.push(DotsTacticsBot(movetime_ms=0, noise=0).choose(game))
    game.push(reader.choose(game))
    assert game.scores() == (1, 0)


def test_tactics_queries_leave_the_field_unchanged() -> None:
    """Capture tests play on the field and take the move back exactly."""
    game, capture = _capture_in_one()
    before = game.position()
    tactics = Tactics(game.field)
    assert tactics.gain(capture, game.to_move) == 1
    assert tactics.can_close(capture, game.to_move)
    assert tactics.captures(game.to_move, tactics.near_free()) == [(1, capture)]
    assert game.position() == before


@pytest.mark.parametrize("cls", [DotsCaptureBot, DotsTacticsBot, DotsReaderBot, DotsMctsBot, DotsMasterBot])
def test_search_leaves_the_game_unchanged(cls: type[Bot]) -> None:
    """Running a search to the end, or closing it half-way, restores the game."""
    game = _played("20x20", 50, seed=9)
    before = (game.position(), game.ply, game.key())
    limits = {DotsMctsBot: {"max_iterations": 25}, DotsReaderBot: {"max_depth": 3},
              DotsMasterBot: {"max_depth": 3}}
    bot = cls(seed=2, movetime_ms=0, **limits.get(cls, {}))
    search = bot.search(game)
    for _ in range(7):
        if next(search, "done") == "done":
            break
    search.close()
    assert (game.position(), game.ply, game.key()) == before
    bot.choose(game)
    assert (game.position(), game.ply, game.key()) == before


def test_searches_are_deterministic_with_iteration_limits() -> None:
    """The same seed and limits give the same move; the MCTS yields between playouts."""
    game = _played("39x32", 60, seed=4)
    moves = {DotsMctsBot(seed=7, movetime_ms=0, max_iterations=30).choose(game) for _ in range(2)}
    assert len(moves) == 1
    bot = DotsMctsBot(seed=7, movetime_ms=0, max_iterations=30)
    search = bot.search(game.copy())
    yields = 0
    try:
        while True:
            next(search)
            yields += 1
    except StopIteration:
        pass
    assert bot.iterations == 30 and yields >= 30
    tactics = {DotsTacticsBot(seed=5, movetime_ms=0).choose(game) for _ in range(2)}
    assert len(tactics) == 1
    reader = DotsReaderBot(seed=5, movetime_ms=0, max_depth=3)
    assert reader.choose(game) == DotsReaderBot(seed=5, movetime_ms=0, max_depth=3).choose(game)
    assert reader.depth_reached == 3


def test_candidates_cover_the_fight_and_come_sorted() -> None:
    """Scored candidates are free points near dots, best first."""
    game, capture = _capture_in_one()
    search = score_candidates(game, SeededRandom(1), 0.0)
    try:
        while True:
            next(search)
    except StopIteration as stop:
        scored = stop.value
    values = [v for v, _ in scored]
    assert values == sorted(values, reverse=True)
    assert scored[0][1] == capture
    assert all(game.field.is_free(c) for _, c in scored)


def test_bots_land_when_landing_wins() -> None:
    """A bot declares landing when that ends the game in its favour."""
    game = Dots({"size": "20x20", "start": "empty"})
    for text in ("2-1", "2-2", "1-2", "15-15", "3-2", "16-16", "2-3", "17-17"):
        game.push_text(text)
    assert game.scores() == (1, 0) and LAND in game.legal_moves()
    for bot in (DotsCaptureBot(movetime_ms=0), DotsTacticsBot(movetime_ms=0),
                DotsReaderBot(movetime_ms=0, max_depth=2), DotsMctsBot(movetime_ms=0, max_iterations=5)):
        assert bot.choose(game) == LAND


def test_empty_field_gets_the_centre() -> None:
    """With no dots at all the bots open in the middle."""
    game = Dots({"size": "20x20", "start": "empty"})
    for bot in (DotsCaptureBot(movetime_ms=0), DotsTacticsBot(movetime_ms=0),
                DotsReaderBot(movetime_ms=0, max_depth=2), DotsMctsBot(movetime_ms=0, max_iterations=5)):
        assert game.move_text(bot.choose(game)) == "10-10"


def test_cli_match_takes_game_options(tmp_path) -> None:
    """``match --option size=20x20`` plays Dots on the small field; bad options exit 2."""
    import io
    import json

    from tessera.cli import main

    out, err = io.StringIO(), io.StringIO()
    status = main(["match", "dots", "easy", "dots_capture", "--games", "1", "--movetime", "5",
                   "--option", "size=20x20", "--quiet", "--save", str(tmp_path)], out, err)
    assert status == 0, err.getvalue()
    assert "easy: +" in out.getvalue()
    record = json.loads((tmp_path / "game001.json").read_text(encoding="utf-8"))
    assert record["options"]["size"] == "20x20"
    bad = main(["match", "dots", "easy", "easy", "--games", "1", "--option", "size"],
               io.StringIO(), io.StringIO())
    assert bad == 2
    assert main(["match", "dots", "easy", "easy", "--games", "1", "--option", "size=4x4"],
                io.StringIO(), io.StringIO()) == 2


# ----- keeping the move-time cap, on fake clocks (nothing here reads the real time) -------

class FakeClock:
    """A clock that only moves when the test (or the work it counts) moves it."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


TIMED_BOTS = [
    pytest.param(lambda cap: DotsReaderBot(seed=1, movetime_ms=cap), id="hard"),
    pytest.param(lambda cap: DotsMasterBot(seed=1, movetime_ms=cap), id="master"),
    pytest.param(lambda cap: DotsTacticsBot(seed=1, movetime_ms=cap), id="medium"),
    pytest.param(lambda cap: DotsMctsBot(seed=1, movetime_ms=cap), id="mcts"),
]


def _answer_on_stepped_clock(bot: Bot, game: Dots, step_ms: float) -> tuple[float, int, int]:
    """Run a search where every step between two yields takes ``step_ms``.

    Returns the clock when the answer comes (time since the bot was asked),
    the move, and how many times the search was resumed after its cap.
    """
    clock = FakeClock()
    bot.clock = clock
    search = bot.search(game)
    late_resumes = 0
    while True:
        if clock.now * 1000 >= bot.movetime_ms:
            late_resumes += 1
        try:
            next(search)
        except StopIteration as stop:
            return clock.now * 1000, stop.value, late_resumes
        clock.now += step_ms / 1000


@pytest.mark.parametrize("make_bot", TIMED_BOTS)
@pytest.mark.parametrize("step_ms", [0.7, 7.0, 40.0])
def test_the_answer_comes_at_the_first_step_after_the_cap(make_bot, step_ms: float) -> None:
    """The time counts from the asking, and the first resume past the cap answers.

    A step of 40 ms is a slow device or a busy page between two slices: the
    bot cannot shorten it, but must not add more steps after it.
    """
    game = _played("39x32", 90, seed=5)
    before = game.position()
    bot = make_bot(300)
    answer_ms, move, late_resumes = _answer_on_stepped_clock(bot, game, step_ms)
    assert answer_ms <= 300 + step_ms
    assert late_resumes <= 1
    assert game.position() == before
    assert game.is_legal(move)


def _work_clock(game: Dots, place_ms: float, landing_ms: float) -> FakeClock:
    """A clock driven by the search's own work: each trial move on the field
    costs ``place_ms`` and each landing count (a flood of the whole field)
    ``landing_ms``, about their cost in CPython on 39x32."""
    clock = FakeClock()
    field = game.field
    place, landing = field.place, field.scores_after_landing

    def timed_place(cell: int, player: int) -> None:
        clock.now += place_ms / 1000
        place(cell, player)

    def timed_landing(player: int) -> tuple[int, int]:
        clock.now += landing_ms / 1000
        return landing(player)

    field.place = timed_place  # type: ignore[method-assign]
    field.scores_after_landing = timed_landing  # type: ignore[method-assign]
    return clock


@pytest.mark.parametrize("make_bot", TIMED_BOTS)
@pytest.mark.parametrize("plies,seed", [(90, 5), (160, 6), (240, 7)])
def test_no_step_is_long_and_nothing_runs_past_the_cap(make_bot, plies: int, seed: int) -> None:
    """On a clock that counts the search's work, every step between two
    yields stays under 1 ms and the answer comes within 1 ms of the cap."""
    game = _played("39x32", plies, seed=seed)
    clock = _work_clock(game, place_ms=0.02, landing_ms=0.15)
    bot = make_bot(60)
    bot.clock = clock
    search = bot.search(game)
    longest = 0.0
    last = clock.now
    try:
        while True:
            next(search)
            longest = max(longest, clock.now - last)
            last = clock.now
    except StopIteration as stop:
        move = stop.value
    longest = max(longest, clock.now - last) * 1000
    assert longest < 1.0, f"a step of {longest:.2f} ms"
    assert clock.now * 1000 <= 60 + 1.0
    assert move == LAND or game.field.is_free(move)


def test_a_cap_spent_before_the_reading_still_gives_a_sound_move() -> None:
    """If the time is gone before the reader starts, the answer is the best
    two-ply point that does not let the opponent land and win."""
    game = _played("39x32", 90, seed=5)
    bot = DotsReaderBot(seed=1, movetime_ms=1)
    answer_ms, move, _ = _answer_on_stepped_clock(bot, game, 0.1)
    assert answer_ms <= 1.1
    assert bot.depth_reached == 0
    game.push(move)
    after = game.field.scores_after_landing(game.to_move)
    assert after[game.to_move] <= after[1 - game.to_move]


def test_the_master_deepens_until_its_time_is_spent() -> None:
    """Where the reader stops at its last depth with time left (8 in the
    app; 4 here, for a quick test), the master goes on reading until the
    time is spent (a clock that counts its work: 0.02 ms a trial move).
    Without its extensions, so that depths count the same plies."""
    game = _played("20x20", 40, seed=4)
    used = {}
    for name, bot in (("hard", DotsReaderBot(seed=1, movetime_ms=400, max_depth=4)),
                      ("master", DotsMasterBot(seed=1, movetime_ms=400, extend=0))):
        trial = game.copy()
        bot.clock = _work_clock(trial, place_ms=0.02, landing_ms=0.15)
        move = finish(bot.search(trial))   # on the game itself: choose() would search a copy
        used[name] = (bot.clock.now * 1000, bot.depth_reached)
        assert trial.is_legal(move)
    assert used["hard"][0] < 300 and used["hard"][1] == 4, used
    assert used["master"][0] >= 399 and used["master"][1] > 4, used


def test_the_masters_leaf_weighs_both_sides_captures() -> None:
    """Blue to move can take one dot at 10-9, red one at 11-9: the hard
    level's leaf counts blue's capture (+1); the master's sees that the
    exchange leaves nothing (take and be taken, or block and keep level)."""
    from tessera.bots.clock import Budget
    from tessera.games.dots.eval import Reader
    from tessera.games.dots.master import ExchangeReader
    game = Dots({"size": "20x20"})
    for text in ("9-10", "12-10"):
        game.push_text(text)
    local = Tactics(game.field).near_free()
    hard = Reader(game.field, Budget(0), 5, [])
    master = ExchangeReader(game.field, Budget(0), 5, [])
    assert hard.leaf_gain(0, local) == 1
    assert master.leaf_gain(0, local) == 0
    game.push_text("11-9")   # blue blocks instead: red has nothing to take, blue still has 10-9
    local = Tactics(game.field).near_free()
    assert master.leaf_gain(1, local) == hard.leaf_gain(1, local) == 0   # red blocks 10-9 and is level
    assert master.leaf_gain(0, local) == hard.leaf_gain(0, local) == 1


def test_the_master_reads_on_where_the_last_move_threatens() -> None:
    """Blue's 6-5 threatens red 5-5 (at 4-5) and red 7-5 (at 8-5) at once.  Read
    to depth 0 after it, the hard level's reader stops there and sees red level;
    with extensions red must answer, and the line goes on until blue takes a
    dot: red is one down.  A quiet move extends nothing."""
    import math

    from tessera.bots.clock import Budget
    from tessera.games.dots.eval import Reader
    game = Dots({"size": "20x20", "start": "empty"})
    for text in ("5-6", "5-5", "5-4", "7-5", "7-6", "15-15", "7-4", "16-16", "6-5"):
        game.push_text(text)
    last, prev = game.move_stack[-1], game.move_stack[-2]
    hard, master = Reader(game.field, Budget(0), 5, []), Reader(game.field, Budget(0), 5, [])
    master.extensions = 4
    assert master.threatened(1, last) and not master.threatened(0, prev)
    read = lambda reader: finish(reader._negamax(1, last, prev, 0, -math.inf, math.inf))   # noqa: E731
    assert read(hard) == 0 and read(master) == -1
    assert master._extended == 0 and master.nodes > hard.nodes
    quiet = Dots({"size": "20x20"})
    quiet.push_text("3-3")
    assert not Reader(quiet.field, Budget(0), 5, []).threatened(1, quiet.move_stack[-1])


def test_the_masters_table_remembers_what_it_read() -> None:
    """With a transposition table, a position read again comes from the table:
    the same value, far fewer nodes, and the hash back at the root's."""
    import math

    from tessera.bots.clock import Budget
    from tessera.games.dots.eval import Reader
    game = _played("20x20", 40, seed=6)
    last, prev = game.move_stack[-1], game.move_stack[-2]
    reader = Reader(game.field, Budget(0), 5, [])
    reader.use_table()
    before = game.field.copy()
    first = finish(reader._negamax(game.to_move, last, prev, 4, -math.inf, math.inf))
    nodes = reader.nodes
    again = finish(reader._negamax(game.to_move, last, prev, 4, -math.inf, math.inf))
    assert again == first and reader.nodes - nodes < nodes / 10
    assert reader.key == 0 and len(reader.table) > 10
    assert game.field.dot == before.dot and game.field.score == before.score
