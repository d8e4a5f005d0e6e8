"""Corners' bot levels, weakest first.

Easy and Medium are ``bot.CornersBot`` at one ply (Easy picks at random
among the moves whose immediate gain is near the best); Hard is the
generic MCTS (random playouts of 24 plies scored by ``strategy``), which
plays the board's long-term fights far better than the one-ply reading:
a two-ply CornersBot scored only 50% against Medium.

Measured with ``python3 -m tessera match corners A B --games 40`` (seed 0,
times x 1/3, bots alternating seats):

    medium vs easy    +39 =0 -1    97.5%   Elo +636 [+441, +1200]
    hard   vs medium  +39 =0 -1    97.5%   Elo +636 [+441, +1200]

(Before Medium and Easy preferred central cells when nothing else
differed, Medium beat Easy 40-0 and Hard beat Medium +33 =1 -6, 83.8%.)
"""

from __future__ import annotations

from ...bots.base import BotLevel
from ...bots.registry import register_bot
from .bot import CornersBot

register_bot("corners", CornersBot)

LEVELS: tuple[BotLevel, ...] = (
    BotLevel("easy", "corners", 300, {"depth": 1, "noise": 1.0}),
    BotLevel("medium", "corners", 600, {"depth": 1, "candidates": 64}),
    BotLevel("hard", "mcts", 1500, {"playout_plies": 24}),
)
