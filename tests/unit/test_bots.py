"""Bots on tiny toy games, then on Quadrature: right moves, seeds, slices."""

from __future__ import annotations

import asyncio
from typing import Any, ClassVar

import pytest

from tessera.bots.alphabeta import AlphaBetaBot
from tessera.bots.base import Bot, BotLevel, choose_async
from tessera.bots.greedy import GreedyBot
from tessera.bots.mcts import MctsBot
from tessera.bots.random_bot import RandomBot
from tessera.bots.registry import (BOTS, BotSpecError, bot_from_spec, level, levels_for,
                                   make_bot, make_level_bot, parse_spec)
from tessera.core.game import Game, NotationError, Outcome


# ----- toy games ---------------------------------------------------------------------
class Nim(Game):
    """Take 1-3 from one pile; whoever takes the last object wins."""

    game_id: ClassVar[str] = "nim"

    def _init_state(self, setup: str | None) -> None:
        self.pile = int(setup) if setup else 10
        self._to_move = 0

    @property
    def to_move(self) -> int:
        return self._to_move

    def legal_moves(self) -> list[int]:
        return [n for n in (1, 2, 3) if n <= self.pile]

    def _apply(self, move: int) -> None:
        self.pile -= move
        self._to_move ^= 1

    def _unapply(self, move: int) -> None:
        self.pile += move
        self._to_move ^= 1

    def outcome(self) -> Outcome | None:
        return Outcome(1 - self._to_move, "last") if self.pile == 0 else None

    def scores(self) -> tuple[int, ...]:
        return (0, 0)

    def move_text(self, move: int) -> str:
        return str(move)

    def parse_move(self, text: str) -> int:
        if text not in ("1", "2", "3"):
            raise NotationError(text)
        return int(text)

    def position(self) -> str:
        return f"{self.pile} {self._to_move}"

    def evaluate(self, player: int) -> float:
        return 0.0


LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


class TicTacToe(Game):
    """Noughts and crosses; setup is 9 characters of x, o and '.'."""

    game_id: ClassVar[str] = "tictactoe"

    def _init_state(self, setup: str | None) -> None:
        self.cells = list(setup or ".........")
        self._to_move = 0 if self.cells.count("x") == self.cells.count("o") else 1

    @property
    def to_move(self) -> int:
        return self._to_move

    def legal_moves(self) -> list[int]:
        if self._winner() is not None:
            return []
        return [i for i, c in enumerate(self.cells) if c == "."]

    def _apply(self, move: int) -> None:
        self.cells[move] = "xo"[self._to_move]
        self._to_move ^= 1

    def _unapply(self, move: int) -> None:
        self.cells[move] = "."
        self._to_move ^= 1

    def _winner(self) -> int | None:
        for a, b, c in LINES:
            if self.cells[a] != "." and self.cells[a] == self.cells[b] == self.cells[c]:
                return "xo".index(self.cells[a])
        return None

    def outcome(self) -> Outcome | None:
        winner = self._winner()
        if winner is not None:
            return Outcome(winner, "line")
        if "." not in self.cells:
            return Outcome(None, "full")
        return None

    def scores(self) -> tuple[int, ...]:
        return (0, 0)

    def move_text(self, move: int) -> str:
        return str(move)

    def parse_move(self, text: str) -> int:
        return int(text)

    def position(self) -> str:
        return "".join(self.cells)

    def evaluate(self, player: int) -> float:
        """Open lines for ``player`` minus open lines for the opponent."""
        mine, theirs = "xo"[player], "xo"[1 - player]
        value = 0
        for line in LINES:
            marks = [self.cells[i] for i in line]
            if theirs not in marks:
                value += marks.count(mine)
            if mine not in marks:
                value -= marks.count(theirs)
        return value / 24.0


def run(bot: Bot, game: Game) -> Any:
    return bot.choose(game)


def drive(bot: Bot, game: Game) -> tuple[Any, int]:
    """Run a search on ``game`` itself, counting its yields."""
    search = bot.search(game)
    yields = 0
    try:
        while True:
            next(search)
            yields += 1
    except StopIteration as stop:
        return stop.value, yields


# ----- toy-game behaviour --------------------------------------------------------
def test_alphabeta_finds_forced_nim_win() -> None:
    """From a pile of 10 only taking 2 wins, and alpha-beta proves it."""
    bot = AlphaBetaBot(seed=3, movetime_ms=0, max_depth=12)
    assert run(bot, Nim(setup="10")) == 2
    assert bot.last_score > 900


def test_alphabeta_blocks_and_wins_tictactoe() -> None:
    """X completes its line rather than blocking O's."""
    game = TicTacToe(setup="xx.oo....")
    assert run(AlphaBetaBot(movetime_ms=0, max_depth=9), game) == 2


def test_alphabeta_prefers_the_quicker_win() -> None:
    """With a win now and a win later, the win now is chosen."""
    assert run(AlphaBetaBot(movetime_ms=0, max_depth=6), Nim(setup="3")) == 3


def test_mcts_picks_winning_move() -> None:
    """The immediate win is found (x plays 2 to complete the top row)."""
    assert run(MctsBot(seed=1, movetime_ms=0, max_iterations=50), TicTacToe(setup="xx.oo....")) == 2


def test_mcts_blocks_a_threat() -> None:
    """O must block x's top row at 2; enough playouts see that."""
    game = TicTacToe(setup="xx..o....")
    assert run(MctsBot(seed=4, movetime_ms=0, max_iterations=2000), game) == 2


class PreferringMcts(MctsBot):
    """An MCTS whose priors put ``preferred`` in that order, and which notes
    the first move of every line it plays out."""

    def __init__(self, preferred: list[int], **params: Any) -> None:
        super().__init__(**params)
        self.preferred = preferred
        self.first_moves: set[int] = set()

    def _priors(self, game: Game, moves: list[Any]) -> list[float]:
        return [-float(self.preferred.index(move)) for move in moves]

    def _playout(self, game: Game, rng: Any) -> float:
        self.first_moves.add(game.move_stack[0])
        return super()._playout(game, rng)


def test_mcts_widening_reads_only_its_first_moves_in_a_short_search() -> None:
    """Widening 0.5: a root visited n times has at most 1 + 0.5 sqrt(n)
    children, so 16 iterations expand three (at 0, 1 and 5 visits), the
    three the priors put first, and the answer is one of them.  Without
    widening, the same search tries all nine moves."""
    preferred = [8, 6, 7, 0, 1, 2, 3, 4, 5]
    widened = PreferringMcts(preferred, seed=1, movetime_ms=0, max_iterations=16, widening=0.5)
    assert run(widened, TicTacToe()) in (8, 6, 7)
    assert widened.first_moves == {8, 6, 7}
    plain = PreferringMcts(preferred, seed=1, movetime_ms=0, max_iterations=16)
    run(plain, TicTacToe())
    assert plain.first_moves == set(range(9))


def test_mcts_bias_reads_the_likely_move_most() -> None:
    """On an empty board every move is sound, so 300 iterations spread
    over them; a progressive bias toward one (its prior far above the
    rest) makes it the most visited, the answer."""
    preferred = [4, 0, 1, 2, 3, 5, 6, 7, 8]
    for favourite in (4, 7):
        order = [favourite] + [move for move in preferred if move != favourite]
        biased = PreferringMcts(order, seed=2, movetime_ms=0, max_iterations=300, bias=50.0)
        assert run(biased, TicTacToe()) == favourite


@pytest.mark.parametrize("setting", [{"widening": -1}, {"widening": float("nan")}, {"bias": -0.5}])
def test_mcts_refuses_a_bad_widening_or_bias(setting: dict[str, float]) -> None:
    with pytest.raises(ValueError):
        MctsBot(**setting)


def test_greedy_takes_immediate_win() -> None:
    """One ply is enough to see a completed line."""
    for seed in range(5):
        assert run(GreedyBot(seed=seed, movetime_ms=0), TicTacToe(setup="xx.oo....")) == 2


def test_random_returns_legal_moves_and_varies_with_seed() -> None:
    """Every answer is legal, and different seeds do not all agree."""
    game = TicTacToe()
    answers = {run(RandomBot(seed=s), game) for s in range(20)}
    assert answers <= set(game.legal_moves())
    assert len(answers) > 1


@pytest.mark.parametrize("bot", [RandomBot(), GreedyBot(movetime_ms=0),
                                 AlphaBetaBot(movetime_ms=0, max_depth=5),
                                 AlphaBetaBot(movetime_ms=0, max_depth=2, extensions=2),
                                 MctsBot(movetime_ms=0, max_iterations=200)],
                         ids=lambda b: f"{b.name}{b.params}")
def test_search_leaves_game_unchanged(bot: Bot) -> None:
    """The search pushes and pops on the game it is given, and restores it."""
    game = TicTacToe(setup="x...o....")
    before = (game.position(), list(game.move_stack), game.to_move)
    move, _ = drive(bot, game)
    assert move in game.legal_moves()
    assert (game.position(), list(game.move_stack), game.to_move) == before


@pytest.mark.parametrize("bot", [RandomBot(), GreedyBot(), AlphaBetaBot(), MctsBot()],
                         ids=lambda b: b.name)
def test_finished_game_and_single_move_return_at_once(bot: Bot) -> None:
    """No legal move: None; one legal move: that move, without yielding."""
    assert drive(bot, TicTacToe(setup="xxxoo...."))[0] is None
    assert drive(bot, Nim(setup="1")) == (1, 0)


def test_alphabeta_yields_every_few_nodes() -> None:
    """At least one yield per ``yield_every`` interior nodes (plus leaves)."""
    bot = AlphaBetaBot(movetime_ms=0, max_depth=9, yield_every=10)
    _, yields = drive(bot, TicTacToe())
    assert bot.nodes > 100
    assert yields >= bot.nodes // 40


def test_mcts_yields_regularly() -> None:
    """A search of many iterations hands control back many times."""
    bot = MctsBot(movetime_ms=0, max_iterations=500)
    _, yields = drive(bot, TicTacToe())
    assert yields >= 500 * 3 // 48 - 1


def test_searches_are_deterministic_with_limits() -> None:
    """Same seed and limits: same move and the same amount of work."""
    for make in (lambda: AlphaBetaBot(seed=7, movetime_ms=0, max_nodes=300),
                 lambda: MctsBot(seed=7, movetime_ms=0, max_iterations=300)):
        first, second = make(), make()
        assert run(first, TicTacToe()) == run(second, TicTacToe())
        assert vars(first).get("nodes") == vars(second).get("nodes")
        assert vars(first).get("iterations") == vars(second).get("iterations")


def test_alphabeta_node_limit_is_respected() -> None:
    """``max_nodes`` stops the search soon after the limit."""
    bot = AlphaBetaBot(movetime_ms=0, max_nodes=200, yield_every=16)
    move = run(bot, TicTacToe())
    assert move in range(9)
    assert bot.nodes < 200 + 16 + 9


def run_coroutine(coroutine: Any) -> Any:
    """Step a coroutine that only awaits ``asyncio.sleep(0)``.

    ``asyncio.run`` needs stack switching under Pyodide in Node, so the
    coroutine is driven by hand; each ``send`` is one slice.
    """
    try:
        while True:
            coroutine.send(None)
    except StopIteration as stop:
        return stop.value


def test_choose_async_returns_move_and_none_when_cancelled() -> None:
    """Slices end in the move, or in None once the caller cancels."""
    game = TicTacToe(setup="xx.oo....")
    bot = MctsBot(seed=1, movetime_ms=0, max_iterations=3000)
    assert run_coroutine(choose_async(bot, game, slice_ms=0.0)) == 2
    slow = AlphaBetaBot(movetime_ms=0, max_depth=9, yield_every=1)
    assert run_coroutine(choose_async(slow, TicTacToe(), slice_ms=0.0, cancelled=lambda: True)) is None
    assert game.position() == "xx.oo...."


def test_choose_async_under_asyncio_run() -> None:
    """The same search under a real event loop."""
    bot = AlphaBetaBot(movetime_ms=0, max_depth=9)
    assert asyncio.run(choose_async(bot, TicTacToe(setup="xx.oo...."))) == 2


def test_make_bot_and_specs() -> None:
    """Names, parameters and errors of the bot registry."""
    assert {"random", "greedy", "alphabeta", "mcts"} <= set(BOTS)  # games may register their own
    bot = make_bot("alphabeta", seed=2, movetime_ms=50, max_depth=3)
    assert isinstance(bot, AlphaBetaBot) and bot.max_depth == 3 and bot.seed == 2
    assert parse_spec("alphabeta:max_depth=2, max_nodes=500") == ("alphabeta", {"max_depth": 2, "max_nodes": 500})
    assert parse_spec("mcts:exploration=0.7") == ("mcts", {"exploration": 0.7})
    with pytest.raises(BotSpecError):
        make_bot("stockfish")
    with pytest.raises(BotSpecError):
        make_bot("alphabeta", no_such_param=1)
    with pytest.raises(BotSpecError):
        parse_spec("alphabeta:max_depth")


# ----- Quadrature ---------------------------------------------------------------
quadrature = pytest.importorskip("tessera.games.quadrature")


def quadrature_positions() -> list[Game]:
    """The start, a middle game, and a position with Black to move."""
    from tessera.core.rng import SeededRandom

    positions = [quadrature.Quadrature()]
    game = quadrature.Quadrature()
    rng = SeededRandom(11)
    for ply in range(25):
        moves = game.legal_moves()
        game.push_unchecked(moves[rng.below(len(moves))])
        if ply in (12, 23) and not game.is_over():
            positions.append(game.copy())
    return positions


def test_quadrature_levels_are_ordered_and_known() -> None:
    """At least three levels, each naming a registered bot, times rising."""
    levels = levels_for("quadrature")
    assert len(levels) >= 3
    assert all(isinstance(lv, BotLevel) and lv.bot in BOTS for lv in levels)
    assert [lv.key for lv in levels][:3] == ["easy", "medium", "hard"]
    assert all(lv.movetime_ms <= 2000 for lv in levels)
    assert level("quadrature", "hard") is levels[2]
    with pytest.raises(BotSpecError):
        level("quadrature", "grandmaster")


@pytest.mark.parametrize("key", [lv.key for lv in levels_for("quadrature")])
def test_every_level_returns_legal_move(key: str) -> None:
    """Each level, cut to a small node budget, answers legally and leaves the game alone."""
    for game in quadrature_positions():
        bot = make_level_bot(level("quadrature", key), seed=1, movetime_ms=0)
        # Node/iteration caps keep the test independent of machine speed.
        if isinstance(bot, AlphaBetaBot):
            bot.max_nodes = 400
        if isinstance(bot, MctsBot):
            bot.max_iterations = 30
        before = game.position()
        move, _ = drive(bot, game)
        assert move in game.legal_moves()
        assert game.position() == before


def test_bot_from_spec_levels_and_scaling() -> None:
    """Level keys and bot names both work; the time scale applies to levels."""
    hard = level("quadrature", "hard")
    bot = bot_from_spec("quadrature", "hard", seed=1, time_scale=1 / 3)
    assert bot.movetime_ms == round(hard.movetime_ms / 3)
    assert bot_from_spec("quadrature", "alphabeta:max_depth=2", movetime_ms=5).movetime_ms == 5
    with pytest.raises(BotSpecError):
        bot_from_spec("quadrature", "nosuchlevel")
    # A spec may name its own base time; the scale applies to it as to a level's.
    assert bot_from_spec("quadrature", "mcts:movetime_ms=1500", time_scale=1 / 3).movetime_ms == 500
    for bad in ("mcts:movetime_ms=0", "mcts:movetime_ms=fast", "mcts:movetime_ms=1.5", "mcts:movetime_ms=true"):
        with pytest.raises(BotSpecError):
            bot_from_spec("quadrature", bad)


def test_quadrature_extensions_are_deterministic_and_clean() -> None:
    """Score-change extensions search further, reproducibly, and restore the game."""
    for game in quadrature_positions():
        before = game.position()
        plain = AlphaBetaBot(seed=2, movetime_ms=0, max_depth=2)
        first = AlphaBetaBot(seed=2, movetime_ms=0, max_depth=2, extensions=2)
        second = AlphaBetaBot(seed=2, movetime_ms=0, max_depth=2, extensions=2)
        drive(plain, game)
        move, _ = drive(first, game)
        assert move in game.legal_moves() and game.position() == before
        assert drive(second, game)[0] == move and second.nodes == first.nodes
        assert first.nodes >= plain.nodes
