"""Abatis' benchmark rows: moves resolved per second in each mode, the
slowest single move met (cascades, a new level's layout), and the hint's
time for one move at its full app budget.

The generic rows (alpha-beta, MCTS) are for two-player games and are not
run here.  Every row comes from seeded random play, so CPython and Pyodide
measure the same moves.
"""

from __future__ import annotations

import time
from typing import Any

from ...bots.registry import level, make_level_bot
from ...core.rng import SeededRandom
from .rules import Abatis

MODES = ("classic", "knockout", "mixed")


def bench(quick: bool = False) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    duration = 0.3 if quick else 2.0
    slowest = 0.0
    for mode in MODES:
        rng = SeededRandom(17)
        moves = 0
        seed = 0
        started = time.perf_counter()
        game = Abatis({"mode": mode}, seed=seed)
        while time.perf_counter() - started < duration:
            legal = game.legal_moves()
            if not legal or game.ply >= 400:
                seed += 1
                game = Abatis({"mode": mode}, seed=seed)
                continue
            move = legal[rng.below(len(legal))]
            before = time.perf_counter()
            game.push_unchecked(move)
            slowest = max(slowest, time.perf_counter() - before)
            moves += 1
        elapsed = time.perf_counter() - started
        rows.append({"name": f"abatis: {mode} moves resolved (random play)", "value": moves / elapsed,
                     "unit": "moves/s"})
    rows.append({"name": "abatis: slowest single move seen (random play)", "value": 1000.0 * slowest, "unit": "ms"})

    hint = level("abatis", "hint")
    times = []
    for sample in range(1 if quick else 3):
        game = Abatis({"mode": MODES[sample % 3]}, seed=sample)
        rng = SeededRandom(sample)
        while game.ply < 30 and game.legal_moves():
            legal = game.legal_moves()
            game.push_unchecked(legal[rng.below(len(legal))])
        bot = make_level_bot(hint, seed=sample)
        started = time.perf_counter()
        bot.choose(game)
        times.append(1000.0 * (time.perf_counter() - started))
    rows.append({"name": f"abatis: hint, one move at ply 30 (cap {hint.movetime_ms} ms)",
                 "value": sum(times) / len(times), "unit": "ms"})
    return rows
