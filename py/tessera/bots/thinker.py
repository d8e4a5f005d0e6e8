"""Where a bot thinks: somewhere else if the page installed a thinker, else here.

The page installs one ``Thinker`` at start-up (``ui/think_worker.py``: a
Web Worker with a Pyodide of its own, running ``bots.service``).  Every
caller asks it first (a seat's bot, the Hint button, the archive's review)
and, when it is not there or cannot answer (``ThinkerUnavailable``: the
worker could not start, ran out of memory, or failed on this request),
thinks on this thread in slices exactly as before: that is the fallback,
automatic and per request.  The command line and the tests install
nothing and always think here.

Requests and answers are ``bots.service``'s JSON messages; this module
builds them from the objects a caller has (a bot, a game and its move
texts) and turns answers back into moves.
"""

from __future__ import annotations

import itertools
from typing import Any, Callable, Protocol

from ..core.game import Game, Move
from .base import Bot

Progress = Callable[[dict[str, Any]], None]


class ThinkerUnavailable(Exception):
    """The thinker cannot answer this request: think here instead."""


class Thinker(Protocol):
    def ask(self, request: dict[str, Any], cancelled: Callable[[], bool],
            progress: Progress | None = None) -> Any:
        """(async) The final answer to ``request``, None once ``cancelled()``
        turns true; raises ``ThinkerUnavailable``."""

    def tell(self, request: dict[str, Any]) -> None:
        """Send a request that has no answer (ponder, stop, forget), if the thinker runs."""

    def warm(self) -> None:
        """Start now, so the first question does not wait for the start."""


_INSTALLED: list[Thinker] = []
_KEYS = itertools.count(1)


def install(thinker: Thinker | None) -> None:
    """The page's thinker (None: think here)."""
    _INSTALLED[:] = [thinker] if thinker is not None else []


def current() -> Thinker | None:
    return _INSTALLED[0] if _INSTALLED else None


def new_key(prefix: str) -> str:
    """A key of its own for a participant or a screen's hints (the service keeps its bot by it)."""
    return f"{prefix}{next(_KEYS)}"


def bot_json(bot: Bot) -> dict[str, Any]:
    """The bot as the service makes it again: name, seed, time, parameters."""
    return {"name": bot.name, "seed": bot.seed, "movetime_ms": bot.movetime_ms, "params": dict(bot.params)}


def record_json(game: Game, texts: list[str]) -> dict[str, Any]:
    """``game``'s start and ``texts``, its moves, as a ``tessera/1`` record."""
    return {"format": "tessera/1", "game": game.game_id, "options": dict(game.options), "seed": game.seed,
            "setup": game.setup, "moves": list(texts)}


async def ask_move(bot: Bot, key: str, game: Game, texts: list[str], cancelled: Callable[[], bool]
                   ) -> tuple[bool, Move | None]:
    """``(asked, move)``: the thinker's move for ``game`` (its moves are
    ``texts``), or ``(False, None)`` when there is no thinker or it cannot
    answer, and the caller thinks here."""
    thinker = current()
    if thinker is None:
        return False, None
    request = {"type": "move", "key": key, "bot": bot_json(bot), "record": record_json(game, texts)}
    try:
        answer = await thinker.ask(request, cancelled)
    except ThinkerUnavailable:
        return False, None
    if answer is None or cancelled():
        return True, None
    text = answer.get("move")
    if not isinstance(text, str):
        return True, None
    try:
        return True, game.parse_move(text)
    except ValueError:   # an answer this page cannot read: think here
        return False, None


def tell(request: dict[str, Any]) -> None:
    thinker = current()
    if thinker is not None:
        thinker.tell(request)


def warm() -> None:
    thinker = current()
    if thinker is not None:
        thinker.warm()
