"""Quadrotone's bot levels, weakest first: all ``bot.QuadrotoneBot``.

Easy draws a dozen one-chip moves and picks at random among its three
best, never plays more than one chip at a time; Medium plays the most
points among many candidates, bigger moves included; Hard also subtracts
what each of its best moves opens for the opponent and keeps its big
multi-chip moves for big payoffs.

Measured with ``python3 -m tessera match quadrotone A B --games N --save DIR``
(level times x 1/3, bots alternating seats, 2026-11-25, on a two-core
machine shared with other runs: wall-clock budgets, so both sides searched
less than alone) and ``python3 -m tessera scores DIR``:

    medium vs easy    +40 =0 -0  (100%; seed 11, 40 games)
    hard   vs medium  +32 =0 -8  (80%; seeds 12-15, 10 games each:
                                  +7-3, +8-2, +8-2, +9-1)

Final points of those games (min / q1 / median / q3 / max):

    medium vs easy    higher 4925 / 6007 / 6599 / 7557 / 9256
                      lower   949 / 3416 / 3750 / 3909 / 4252
                      2 of 40 ended on the 8000 lead, 38 when the limits ran out
    hard vs medium    higher 5584 / 6100 / 6643 / 6954 / 10093
                      lower  4506 / 5187 / 5578 / 6019 / 8287
                      all 40 ended when the limits ran out (margins 77-2561)

So a typical game ends in the thousands, and the lead is reached when the
players are far apart (``tests/unit/test_quadrotone_scores.py`` keeps one
such game).

Measured again after an occurrence came to score once, the patterns 2.15
drops stayed used and the deal became the one by rotation classes
(2026-11-28, same machine, as busy): the levels keep their order.

    medium vs easy    +4 =0 -0   (seed 11, 4 games; 2 ended on the 8000 lead)
    hard   vs medium  +9 =0 -1   (90%; seed 12, 10 games; all ended when the
                                  limits ran out, margins 257-2300; higher
                                  6351 / 6865 / 7280 / 8198 / 12778)

Hard pondering as in the page (``match --ponder``) against hard, seeds 71
and 72, 20 games each (2026-11-29): +10 -10 and +10 -10 (50%).  The
expected reply came 182 times of 3185: a 167 ms guess of a move among so
many placements and arrangements is almost never the one played, so the
ponderer nearly always searched afresh.

So Hard now reads ahead instead (``read_ahead``, ``bot.py``): on the
player's time it scores its own one-chip moves as the field stands, and
its next search starts from those the reply did not come near.  Hard
reading ahead (``match --ponder``: for exactly as long as the opponent
thought) against Hard as it was (``hard:read_ahead=0``), seeds 101 and
102, 20 games each (2026-11-29, the two matches side by side on two
cores):

    hard vs hard:read_ahead=0   +16 =0 -4 (seed 101), +18 =0 -2 (seed 102):
                                +34 =0 -6, 85% of 40 games

All 40 ended when the limits ran out (margins 18-3249, median about
1100); it read ahead before 3781 of its moves.  The page's player thinks
longer than the 667 ms the match gives the reading, so there Hard reads
more (up to its 6000 moves).
"""

from __future__ import annotations

from ...bots.base import BotLevel
from ...bots.registry import register_bot
from .bot import QuadrotoneBot

register_bot("quadrotone", QuadrotoneBot)

LEVELS: tuple[BotLevel, ...] = (
    BotLevel("easy", "quadrotone", 400, {"singles": 12, "multi": False, "noise": 3, "arrange_share": 0.1,
                                          "best_fit_squares": 0}),
    BotLevel("medium", "quadrotone", 1000, {"singles": 1500}),
    BotLevel("hard", "quadrotone", 2000, {"singles": 2500, "replies": 40, "reserve": 0.5, "finalists": 10,
                                          "read_ahead": 6000}),
)
