"""Dots's bot levels, weakest first (the bots are in ``bot.py``).

Importing this module registers the Dots bots by name, so specs such as
``dots_reader:max_depth=4`` or ``dots_mcts`` also work on the command line.
Pyodide runs about 3x slower than CPython, so the command line's ``match``
divides these times by 3 (``--speed-factor 3``) to play as the app does.

Measured on 20x20 with ``python3 -m tessera match dots A B --games 40
--option size=20x20`` (seed 0, times x 1/3, bots alternating seats):

    medium vs easy    +40 =0 -0   100.0%   Elo +759 (clamped)
    hard   vs medium  +38 =0 -2    95.0%   Elo +512

All 80 games ended by landing (average 160 and 235 plies).

Master, ``dots_master`` (``master.py``), is the top level since it learnt
how games end: by landing (``landing.py``).  Before that it read like hard
with a sharper leaf and all its time, and scored about even: +23 =1 -22
in 46 games against hard at 500 ms each, 20x20 (seeds 0, 1, 10, 11).
With the landing sums, against hard at the level's time (500 ms each in
CPython), each pair of games opened with 6 seeded moves of the easy level
(``--opening 6``, colours swapped), so the games differ:

    20x20, seeds 50 and 51       master +33 =0 -7    82.5%  (17-3, 16-4)
    20x20, seed 50, landing=0    master +11 =0 -9    55.0%  (the same openings)
    39x32, seeds 60, 61, 62      master +37 =0 -3    92.5%  (9-1, 15-1, 13-1)

All 100 games ended by landing.  Without ``--opening`` the bots are
nearly deterministic, and a 20-game match holds the same game more than
once.  Before the paths to the ground (winning groundings one move away
only), no openings, seeds 40 and 41: +10 -10; with them, +12 -8.

Reading past the end of a line where the last move threatens a capture
(``dots_master:extend=4``), at the same 500 ms, 20x20, seeds 10 and 11:
at every node, +4 -10 after 14 games (stopped: the threat checks cost
depth); at the leaves only, +10 -10 in 20 games (50%).  So it is off.
A transposition table (``dots_master:table=1``, a ply deeper in two of
three bench fights at 500 ms), same match: +9 -11 in 20 games (45%), so it
is off too.  Both runs are within the noise of 20 games; neither is a gain.

Levels after the engine got faster (20x20, level times / 3): medium vs
easy +10 -0 (seed 20), hard vs medium +17 -3 (seeds 21 and 22, 85%).

Master pondering as in the page (``match --ponder``: it reads on the
opponent's time), against hard, 20x20, level times / 3, ``--opening 6``
(2026-11-29): seed 50 +13 -7, seed 51 +15 -5, together +28 -12 (70%) in
40 games, all ended by landing; the expected reply came 1076 times of 2633.
The same on 39x32 (2026-11-30): seed 60 +17 -3, seed 61 +19 -1, together
+36 -4 (90%) in 40 games, all ended by landing (250 and 176 plies on
average); the expected reply came 1465 times of 4129.
Master without pondering against hard, 20x20, the same seeds and openings
(2026-11-30): seed 50 +17 -3, seed 51 +14 -6, together +31 -9 (77.5%),
all ended by landing: within the noise of 40 games of the pondering
master's 70% (the same match, 3 games apart), so pondering is not what
keeps it near 75% on 20x20.
Master pondering against hard again, 20x20, new seeds (2026-11-30):
seed 52 +12 -8, seed 53 +17 -3, together +29 -11 (72.5%), all ended by
landing; the expected reply came 1240 times of 2909.  With the first
pondering match: +57 -23 (71.3%) in 80 games.
Then (2026-11-30) pondering guesses the reply the master's own reading
expected (``Bot.expected_reply``) instead of spending a quarter of its
move time on a search for it, so all of the ponder time reads after it.
Master pondering against hard, 20x20, level times / 3, ``--opening 6``:
seed 56 +15 -5, seed 57 +18 -2, together +33 -7 (82.5%) in 40 games, all
ended by landing (161 and 123 plies on average); the expected reply came
1378 times of 2704 (51%, against 41% before).  The same on 39x32, 20
games (to check that the change holds there, not a full match): seed 62
+10 -0, seed 63 +9 -1, together +19 -1 (95%), all ended by landing (303
and 183 plies on average); the expected reply came 1267 times of 2364.
Completed to 40 games on 39x32 (2026-12-01): seed 64 +9 -1, seed 65
+10 -0, all ended by landing (252 and 216 plies on average); with seeds 62
and 63, +38 -2 (95%) in 40 games; the expected reply came 2281 times of
4636.
"""

from __future__ import annotations

from ...bots.base import BotLevel
from ...bots.registry import register_bot
from .bot import DotsCaptureBot, DotsMctsBot, DotsReaderBot, DotsTacticsBot
from .master import DotsMasterBot

for _cls in (DotsCaptureBot, DotsTacticsBot, DotsReaderBot, DotsMctsBot, DotsMasterBot):
    register_bot(_cls.name, _cls)

LEVELS: tuple[BotLevel, ...] = (
    BotLevel("easy", "dots_capture", 300),
    BotLevel("medium", "dots_tactics", 600),
    BotLevel("hard", "dots_reader", 1500),
    BotLevel("master", "dots_master", 1500),
)
