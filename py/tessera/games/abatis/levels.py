"""Abatis has no opponent: its one search is the hint the play screen's
Hint button runs (``hint.AbatisHintBot``); the command line's ``solo``
plays whole games with it and with the random baseline."""

from __future__ import annotations

from ...bots.base import BotLevel
from ...bots.registry import register_bot
from .hint import AbatisHintBot

register_bot("abatis_hint", AbatisHintBot)

HINT = BotLevel("hint", "abatis_hint", 1500, {"beam": 10, "depth": 2})
"""The Hint button's search: 1.5 s at most on a phone."""

LEVELS: tuple[BotLevel, ...] = ()
"""No opponents."""
HELPERS: tuple[BotLevel, ...] = (HINT,)
"""Searches for the player (``bots.registry.helpers_for``): the Hint button
runs ``hint``, and so can ``python3 -m tessera solo abatis hint``."""
