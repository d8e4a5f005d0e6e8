"""Dots's bot levels, weakest first.

Importing this module registers the Dots bots (``bot.py``) by name, so
``dots_mcts:width=6`` also works as a bot spec on the command line.
"""

from __future__ import annotations

from ...bots.base import BotLevel
from ...bots.registry import register_bot
from .bot import DotsCaptureBot, DotsMctsBot, DotsReaderBot, DotsTacticsBot

for _cls in (DotsCaptureBot, DotsTacticsBot, DotsReaderBot, DotsMctsBot):
    register_bot(_cls.name, _cls)

LEVELS: tuple[BotLevel, ...] = (
    BotLevel("easy", "dots_capture", 300),
    BotLevel("medium", "dots_tactics", 600),
    BotLevel("hard", "dots_reader", 1500),
)
