"""Speed figures of the Dots engine and its strongest bot: random
full-field playouts, the slowest single move, and the master's reading.

A playout fills the field with uniformly random placements (never
landing) from the standard cross, through ``Dots.random_fill``; the
slowest move is timed around each ``push_unchecked`` of such games.  The
reading is the master bot's search (``master.py``), timed, from positions a fight in
the middle has made (random points near the dots), in nodes per second
and the depth it reaches.
"""

from __future__ import annotations

import gc
import time

from ...core.rng import SeededRandom
from .rules import Dots


def _playouts(size: str, seconds: float, seed: int) -> tuple[float, int, float]:
    """(playouts per second, playouts done, mean moves per playout)."""
    start = time.perf_counter()
    done = 0
    moves = 0
    while True:
        game = Dots({"size": size})
        moves += game.random_fill(SeededRandom(seed + done))
        done += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done / elapsed, done, moves / done


def _slowest_move(size: str, games: int, seed: int, collect: bool = True) -> float:
    """The longest single move update (ms) over ``games`` random games;
    with ``collect`` False the garbage collector is paused meanwhile, which
    shows the engine's own worst case apart from collector pauses."""
    was_enabled = gc.isenabled()
    if not collect:
        gc.disable()
    try:
        return _slowest_move_timed(size, games, seed)
    finally:
        if was_enabled:
            gc.enable()


def _slowest_move_timed(size: str, games: int, seed: int) -> float:
    worst = 0.0
    clock = _cpu_clock()
    for index in range(games):
        game = Dots({"size": size})
        rng = SeededRandom(seed + index)
        order = game.placements()
        rng.shuffle(order)
        field = game.field
        for cell in order:
            if field.dot[cell] or field.owner[cell]:
                continue
            t0 = clock()
            game.push_unchecked(cell)
            spent = clock() - t0
            if spent > worst:
                worst = spent
    return worst * 1000.0


def _cpu_clock():
    """This thread's CPU time where the platform has it, so another busy
    process on the machine does not show up as a slow move."""
    try:
        time.thread_time()
        return time.thread_time
    except (AttributeError, OSError):
        return time.perf_counter


def _fight(size: str, plies: int, seed: int) -> Dots:
    """A position of ``plies`` random moves, each within two points of a dot."""
    game = Dots({"size": size})
    rng = SeededRandom(seed)
    field = game.field
    stride = field.stride
    while game.ply < plies and not game.is_over():
        dots = [c for c in field.cells if field.dot[c] in (1, 2) and not field.owner[c]]
        centre = dots[rng.below(len(dots))]
        cell = centre + (rng.below(5) - 2) * stride + rng.below(5) - 2
        if field.is_free(cell):
            game.push_unchecked(cell)
    return game


def _reading(size: str, plies: int, seconds: float) -> tuple[float, float]:
    """(nodes per second, mean depth reached) of the master's reading over
    three positions, ``seconds`` each."""
    from .master import DotsMasterBot
    nodes = depth = 0
    spent = 0.0
    for seed in range(3):
        game = _fight(size, plies, 300 + seed)
        bot = DotsMasterBot(seed=seed, movetime_ms=int(seconds * 1000))
        start = time.perf_counter()
        bot.choose(game)
        spent += time.perf_counter() - start
        nodes += bot.nodes
        depth += bot.depth_reached
    return nodes / spent, depth / 3


def bench(quick: bool) -> list[dict]:
    """Playouts per second on 39x32 and 20x20 and the slowest move update."""
    seconds = 0.5 if quick else 3.0
    games = 2 if quick else 10
    results = []
    for size in ("39x32", "20x20"):
        rate, done, mean_moves = _playouts(size, seconds, seed=1000)
        results.append({"name": f"dots {size}: random full-field playouts", "value": round(rate, 2), "unit": "playouts/s"})
        results.append({"name": f"dots {size}: moves per playout", "value": round(mean_moves, 1), "unit": "moves"})
        results.append({"name": f"dots {size}: slowest move update", "value": round(_slowest_move(size, games, 2000), 3),
                        "unit": "ms"})
        results.append({"name": f"dots {size}: slowest move update, GC paused",
                        "value": round(_slowest_move(size, games, 2000, collect=False), 3), "unit": "ms"})
        rate, depth = _reading(size, 60 if size == "20x20" else 120, 0.3 if quick else 1.0)
        results.append({"name": f"dots {size}: master's reading, mid-game", "value": round(rate),
                        "unit": "nodes/s"})
        results.append({"name": f"dots {size}: master's depth in {0.3 if quick else 1.0:g} s",
                        "value": round(depth, 1), "unit": "plies"})
    return results


if __name__ == "__main__":
    for row in bench(quick=False):
        print(f"{row['name']:44} {row['value']:>10} {row['unit']}")
