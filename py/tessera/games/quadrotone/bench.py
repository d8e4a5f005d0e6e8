"""Quadrotone's benchmark rows: on a nearly full field, the time to play
(check, place, score) and take back a move of 1 and of 8 chips, and to draw
a random legal move.  Generic rows (random playouts over every listed move,
alpha-beta) do not fit a game whose moves cannot be listed."""

from __future__ import annotations

import time
from typing import Any

from ...core.rng import SeededRandom
from .field import SQUARES
from .notation import make_arrange
from .rules import Quadrotone
from .sampler import random_move

NEARLY_FULL = 230


def nearly_full(seed: int) -> Quadrotone:
    """A seeded random game played until about 230 of the 256 squares hold chips."""
    game = Quadrotone(seed=seed)
    rng = SeededRandom(seed)
    while sum(1 for c in game.chip_on if c is not None) < NEARLY_FULL and not game.is_over():
        move = random_move(game, rng, place_share=0.95)
        if move is None:
            break
        game.push(move)
    return game


def _arrangement(game: Quadrotone, size: int, rng: SeededRandom) -> Any:
    """A legal move turning ``size`` chips in place (a cyclic shuffle of their squares if turning is refused)."""
    occupied = [s for s in range(SQUARES) if game.chip_on[s] is not None]
    for _ in range(200):
        picked = [occupied[rng.below(len(occupied))] for _ in range(size)]
        if len(set(picked)) != size:
            continue
        move = make_arrange(((s, picked[(i + 1) % size], rng.below(4)) for i, s in enumerate(picked)), game.chip_at)
        if game.is_legal(move):
            return move
    return None


def bench(quick: bool = False) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    game = nearly_full(1)
    rng = SeededRandom(2)
    for size in (1, 8):
        move = _arrangement(game, size, rng)
        if move is None:
            continue
        repeats = 20 if quick else 200
        started = time.perf_counter()
        for _ in range(repeats):
            game.push(move)   # checked, applied, scored
            game.pop()
        elapsed = (time.perf_counter() - started) / repeats
        rows.append({"name": f"quadrotone: {size}-chip move checked, played and scored, nearly full field",
                     "value": 1000.0 * elapsed, "unit": "ms"})
    started = time.perf_counter()
    drawn = 0
    while drawn < (10 if quick else 100):
        random_move(game, rng)
        drawn += 1
    rows.append({"name": "quadrotone: random legal move drawn, nearly full field",
                 "value": 1000.0 * (time.perf_counter() - started) / drawn, "unit": "ms"})
    return rows
