"""Quadrotone's bot levels, weakest first: all ``bot.QuadrotoneBot``.

Easy draws a dozen one-chip moves and picks at random among its three
best, never plays more than one chip at a time; Medium plays the most
points among many candidates, bigger moves included; Hard also subtracts
what each of its best moves opens for the opponent and keeps its big
multi-chip moves for big payoffs.

Measured with ``python3 -m tessera match quadrotone A B`` (times x 1/3,
bots alternating seats, two matches sharing a busy two-core machine; games
take 30-180 s, so the runs are short of 40 games):

    medium vs easy      +10 =0 -0  (seed 1, 10 games)  and +6 =0 -0 (seed 0, 6 games)
    hard   vs medium    +9 =0 -1   (seed 1, 10 games)  and +3 =0 -0 (seed 0, 3 games)

Bot games end with totals of about 3,500-12,000 each; an 8000-point lead
happened in 3 of 6 medium-easy games, never between hard and medium.
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
    BotLevel("hard", "quadrotone", 2000, {"singles": 2500, "replies": 40, "reserve": 0.5, "finalists": 10}),
)
