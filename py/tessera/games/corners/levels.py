"""Corners' bot levels, weakest first.

Easy and Medium are ``bot.CornersBot`` at one ply (Easy picks at random
among the moves whose immediate gain is near the best); Hard is
``planner.CornersMctsBot``: tree search whose playouts take a capture half
the time (random playouts mostly place pieces and rarely see what a
rectangle is worth) and which plays the final round exactly.

Measured with ``python3 -m tessera match corners A B`` (seed 0, times x 1/3,
bots alternating seats; the machine busy with other work):

    medium vs easy                    +39 =0 -1   97.5%  (40 games)
    hard   vs medium                  +38 =0 -2   95.0%  (40 games)
    hard   vs the former Hard          +11 =2 -7   60.0%  (20 games;
           mcts:playout_plies=24,movetime_ms=1500, plain random playouts)

Hard with more time, and pondering as in the page (``match --ponder``),
against hard (``--opening 4``, 2026-11-29, 20 games each):

    hard:movetime_ms=3000 vs hard     +13 =0 -7   65.0%  (seed 80)
    hard pondering vs hard            +13 =0 -7   65.0%  (seed 81; the
           expected reply came 56 times of 440: a 125 ms guess is seldom right)

Then (2026-11-29) the engine keeps each side's completed rectangles as
pieces come (``Corners.full``) instead of scanning for captures, and lists
empty cells a row at a time: a search reads about twice the positions in
the same time (``bench``: MCTS iterations 1,243 -> 2,504 per second), and
the tree search expands its moves best first (``_priors``).  Hard so,
pondering, against Hard as it was before (the code of a2d3300 on its own
engine, in the same process; seed 201, ``--opening 4``, 40 games):

    hard (faster, pondering) vs the former hard   +23 =4 -13   62.5%

Against the former hard again (2026-11-30, seed 400, ``--opening 4``, 40
games each, pondering; so Hard stands at 65% in 80 games):

    hard                                          +26 =2 -12   67.5%
    hard:widening=1,bias=0.2                      +22 =6 -12   62.5%
    hard:playout_plies=48                         +22 =5 -13   61.2%
    hard, its tree kept from move to move and read on the opponent's
         time instead of guessing the reply (not kept)   +25 =0 -15   62.5%

Then (2026-11-30) the tree search reads twice the positions in the same
time (``bench``: 3,065 -> 6,719 iterations per second at ply 24): playouts
run in place without history (``Corners.play_randomly``), the rectangles a
piece completes come from per-cell tables, and a node's moves are shuffled
at its first expansion only.  Hard so, pondering, against the former hard
(``--opening 4``, 40 games each: ``tests/bench/against_former.py a2d3300
corners hard -- match corners hard former:movetime_ms=1500 --ponder ...``,
which plays that commit's Hard on its own engine in the same process):

    hard, before the dead rectangles were dropped from playouts
          seed 410  +32 =0 -8   80.0%
          seed 411  +25 =1 -14  63.7%   (together 71.9% in 80 games)
    hard as it is
          seed 412  +30 =2 -8   77.5%
          seed 413  +29 =2 -9   75.0%   (together 76.3% in 80 games)

RAVE (each move's results wherever its player made it later in a
simulation, mixed into the tree's values with ``b = sqrt(k / (3n + k))``),
pondering, against the former hard (2026-11-30), seed 400,
``--opening 4``: k=300 +3 =1 -11 and k=1000 +4 =2 -9 after 15 games each
(stopped; the code is not kept).  A cell's worth here is the rectangles
around it when it is taken, which "played anywhere later" does not see.
Search instead of tree search, the same day and match without pondering:
``corners:depth=2,candidates=30,replies=30`` +0 =0 -7 and the generic
``alphabeta`` (iterative deepening on ``position_value``) +2 =3 -7.

Tried at the same speed against hard, none clearly better (20-60 games
each, on a machine running other matches): progressive widening 1
(+32 =4 -24), 4-ply playouts (+14 =1 -5, then +5 =1 -10), exploration 0.5
(+11 =3 -12), the best capture rather than a random one in playouts
(+8 =1 -9; at share 0.8 +14 =2 -14), and every waiting capture's paint in
the evaluation (+13 =1 -10).
"""

from __future__ import annotations

from ...bots.base import BotLevel
from ...bots.registry import register_bot
from .bot import CornersBot
from .planner import CornersMctsBot

register_bot("corners", CornersBot)
register_bot("corners_mcts", CornersMctsBot)

LEVELS: tuple[BotLevel, ...] = (
    BotLevel("easy", "corners", 300, {"depth": 1, "noise": 1.0}),
    BotLevel("medium", "corners", 600, {"depth": 1, "candidates": 64}),
    BotLevel("hard", "corners_mcts", 1500, {"playout_plies": 24, "capture_share": 0.5}),
)
