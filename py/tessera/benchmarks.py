"""Speed of the engines and bots, in CPython and in Pyodide alike.

``run_all`` returns rows ``{"name", "value", "unit"}``; the command line
prints them (``python3 -m tessera bench``) and the browser's about page can
show the same numbers.  No subprocesses and no threads, so it runs anywhere;
each measurement runs for a fixed wall time, so the total stays near
``sum(durations)`` (about 12 s, or 2 s with ``quick``).
"""

from __future__ import annotations

import time
from typing import Any, Callable

from .bots.alphabeta import AlphaBetaBot
from .bots.mcts import MctsBot
from .core.game import Game
from .core.rng import SeededRandom


def _timed(duration_s: float, step: Callable[[], int]) -> tuple[int, float]:
    """Call ``step`` until ``duration_s`` has passed; (units done, seconds)."""
    started = time.perf_counter()
    done = 0
    while True:
        done += step()
        elapsed = time.perf_counter() - started
        if elapsed >= duration_s:
            return done, elapsed


def _random_game(cls: type[Game], rng: SeededRandom) -> int:
    """One full random game with ``push_unchecked``; returns its plies."""
    game = cls()
    plies = 0
    while game.outcome() is None:
        moves = game.legal_moves()
        game.push_unchecked(moves[rng.below(len(moves))])
        plies += 1
    return plies


def _positions(cls: type[Game], count: int, spacing: int, seed: int) -> list[Game]:
    """Fixed positions along one seeded random game (start included)."""
    rng = SeededRandom(seed)
    game = cls()
    positions = [game.copy()]
    while len(positions) < count and not game.is_over():
        for _ in range(spacing):
            moves = game.legal_moves()
            if not moves:
                break
            game.push_unchecked(moves[rng.below(len(moves))])
        if not game.is_over():
            positions.append(game.copy())
    return positions


def _run_search(bot: Any, game: Game) -> None:
    search = bot.search(game)
    try:
        while True:
            next(search)
    except StopIteration:
        pass


def bench_game(cls: type[Game], quick: bool = False) -> list[dict[str, Any]]:
    """Playouts, move generation, alpha-beta and MCTS speed for one game."""
    name = cls.game_id
    rows: list[dict[str, Any]] = []
    duration = 0.4 if quick else 3.0

    rng = SeededRandom(1)
    plies = [0]

    def playout() -> int:
        plies[0] += _random_game(cls, rng)
        return 1

    games, elapsed = _timed(duration, playout)
    rows.append({"name": f"{name}: random playouts", "value": games / elapsed, "unit": "games/s"})
    rows.append({"name": f"{name}: random playout plies", "value": plies[0] / elapsed, "unit": "plies/s"})

    positions = _positions(cls, 5, 12, seed=7)

    def generate() -> int:
        for game in positions:
            game.push_unchecked(game.legal_moves()[0])
            game.legal_moves()
            game.pop()
        return len(positions)

    count, elapsed = _timed(duration / 3, generate)
    rows.append({"name": f"{name}: push + legal_moves + pop", "value": count / elapsed, "unit": "calls/s"})

    depth = 2 if quick else 4
    nodes, elapsed = 0, 0.0
    for game in positions:
        bot = AlphaBetaBot(seed=1, movetime_ms=0, max_depth=depth)
        started = time.perf_counter()
        _run_search(bot, game)
        elapsed += time.perf_counter() - started
        nodes += bot.nodes
    rows.append({"name": f"{name}: alpha-beta depth {depth} ({len(positions)} positions)",
                 "value": nodes / elapsed, "unit": "nodes/s"})
    rows.append({"name": f"{name}: alpha-beta depth {depth} time per position",
                 "value": 1000.0 * elapsed / len(positions), "unit": "ms"})

    iterations = 100 if quick else 600
    bot = MctsBot(seed=1, movetime_ms=0, max_iterations=iterations)
    started = time.perf_counter()
    _run_search(bot, positions[1] if len(positions) > 1 else positions[0])
    elapsed = time.perf_counter() - started
    rows.append({"name": f"{name}: MCTS iterations", "value": bot.iterations / elapsed, "unit": "iterations/s"})
    return rows


def run_all(quick: bool = False) -> list[dict[str, Any]]:
    """Every benchmark of every game that has an engine.

    A game package may bring its own ``bench`` module (``bench(quick)``) when
    the generic figures do not fit it (Dots: a full-field alpha-beta is
    meaningless, playouts and the slowest move are what matter).
    """
    import importlib
    import importlib.util

    from .core import registry

    rows: list[dict[str, Any]] = []
    for entry in registry.GAMES:
        if entry.module is None:
            continue
        own = entry.module + ".bench"
        if importlib.util.find_spec(own) is not None:
            rows.extend(importlib.import_module(own).bench(quick))
        else:
            rows.extend(bench_game(registry.game_class(entry.game_id), quick))
    return rows
