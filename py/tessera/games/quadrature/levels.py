"""Quadrature's bot levels, weakest first.

Each level's strength is fixed mostly by a depth limit, so it plays the same
on a fast or a slow machine; ``movetime_ms`` is the browser's wall-time cap
(Pyodide runs about 3x slower than CPython, so the command line's
``match`` divides these times by 3 to play as the app does).
"""

from __future__ import annotations

from ...bots.base import BotLevel

LEVELS: tuple[BotLevel, ...] = (
    BotLevel("easy", "greedy", 300),
    BotLevel("medium", "alphabeta", 800, {"max_depth": 2}),
    BotLevel("hard", "alphabeta", 1500, {"max_depth": 4}),
)
