"""Corners' benchmark rows: the generic ones (playouts, move generation,
search speeds) and the time the strongest level takes for a move in the
middle of a game, at its full app time budget."""

from __future__ import annotations

import time
from typing import Any

from ...benchmarks import bench_game
from ...bots.registry import levels_for, make_bot, make_level_bot
from ...core.rng import SeededRandom
from .rules import Corners

MIDGAME_PLIES = 24


def bench(quick: bool = False) -> list[dict[str, Any]]:
    rows = bench_game(Corners, quick)
    strongest = levels_for("corners")[-1]
    rng = SeededRandom(3)
    times = []
    games = []
    for sample in range(1 if quick else 3):
        game = Corners()
        while game.ply < MIDGAME_PLIES and not game.is_over():
            moves = game.legal_moves()
            game.push_unchecked(moves[rng.below(len(moves))])
        games.append(game)
        bot = make_level_bot(strongest, seed=sample)
        started = time.perf_counter()
        bot.choose(game)
        times.append(1000.0 * (time.perf_counter() - started))
    rows.append({"name": f"corners: {strongest.key} level, one move at ply {MIDGAME_PLIES} (cap {strongest.movetime_ms} ms)",
                 "value": sum(times) / len(times), "unit": "ms"})
    # Its tree search's speed, by iterations rather than time (the move above uses its cap).
    iterations = 300 if quick else 3000
    started = time.perf_counter()
    for sample in range(3):
        bot = make_bot(strongest.bot, sample, 0, **strongest.params, max_iterations=iterations)
        bot.choose(games[sample % len(games)])
    rows.append({"name": f"corners: {strongest.key} level's tree search at ply {MIDGAME_PLIES}",
                 "value": 3 * iterations / (time.perf_counter() - started), "unit": "iterations/s"})
    return rows
