"""Quadrature's bot levels, weakest first.

Each level's strength is fixed by a depth limit, so it plays the same on a
fast or a slow machine; ``movetime_ms`` is only the browser's wall-time cap
(iterative deepening then answers with the deepest finished search).
Pyodide runs about 3x slower than CPython, so the command line's ``match``
divides these times by 3 (``--speed-factor 3``) to play as the app does.

Measured with ``python3 -m tessera match quadrature A B --games 40``
(seed 0, times x 1/3, bots alternating seats):

    medium vs easy    +38 =0 -2   95.0%   Elo +512
    hard   vs medium  +37 =0 -3   92.5%   Elo +436

Depth 3 would sit between medium and hard (82.5% against medium) but only
scored 67.5% against hard, so it is not a level of its own; depth 5 takes
2-3 s a move in the browser.
"""

from __future__ import annotations

from ...bots.base import BotLevel

LEVELS: tuple[BotLevel, ...] = (
    BotLevel("easy", "greedy", 300),
    BotLevel("medium", "alphabeta", 600, {"max_depth": 2}),
    BotLevel("hard", "alphabeta", 1500, {"max_depth": 4}),
)
