"""The bot interface: a search is a generator, so it can run in slices.

``Bot.search(game)`` does its work in small steps and ``yield``s between
them (every few hundred microseconds); its return value is the move.  The
command line drives it to the end in one go (``choose``); the browser
drives it with ``choose_async``, which hands control back to the page with
``await asyncio.sleep(0)`` whenever a slice has run for ``slice_ms``, so no
main-thread task runs much past 25 ms while the bot thinks.
"""

from __future__ import annotations

import asyncio
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, Callable, Generator

from ..core.game import Game, Move
from ..core.steps import Steps

Search = Generator[None, None, Move]


class Bot(ABC):
    """A seeded player; ``movetime_ms`` bounds one move's thinking."""

    name: str = "bot"
    clock: Callable[[], float] = staticmethod(time.perf_counter)
    """The clock a search's time budget reads (seconds); tests set a fake one
    on the bot to check, without timing anything, that it keeps its time."""

    def __init__(self, seed: int = 0, movetime_ms: int = 1000, **params: Any) -> None:
        self.seed = seed
        self.movetime_ms = movetime_ms
        self.params = params
        """The parameters it was made with, to make it again (``thinker.bot_json``);
        ``registry.make_bot`` puts all of them here."""

    @abstractmethod
    def search(self, game: Game) -> Search:
        """Yield between steps of work; return the chosen move.

        ``game`` is the bot's own copy: the search may push and pop on it but
        must leave it as it found it.
        """

    def read_ahead(self, game: Game) -> Steps[None] | None:
        """Reading on the opponent's time that holds whatever they reply, or
        None (then ``bots.ponder`` guesses the reply and searches after it).

        ``game`` (the bot's own copy) has the opponent to move.  A game with
        too many replies to guess one may score the bot's own candidates here
        and keep them for its next ``search``, which must check what of it
        the reply left true.
        """
        return None

    def expected_reply(self, game: Game) -> Move | None:
        """The opponent's reply this bot's last search expects, when ``game``
        is the position after the move it chose (else None): pondering then
        reads after that reply at once instead of guessing it with a search
        of its own (``bots.ponder``)."""
        return None

    def choose(self, game: Game) -> Move:
        """Run the whole search at once (command line, tests)."""
        search = self.search(game.copy())
        try:
            while True:
                next(search)
        except StopIteration as stop:
            return stop.value


async def choose_async(bot: Bot, game: Game, slice_ms: float = 20.0,
                       cancelled: Callable[[], bool] = lambda: False) -> Move | None:
    """Run a search in slices, yielding to the event loop between them.

    Returns ``None`` if ``cancelled()`` turns true (the position was taken
    back or replaced while the bot thought).
    """
    search = bot.search(game.copy())
    slice_s = slice_ms / 1000.0
    started = time.perf_counter()
    try:
        while True:
            next(search)
            if time.perf_counter() - started >= slice_s:
                await asyncio.sleep(0)
                if cancelled():
                    search.close()
                    return None
                started = time.perf_counter()
    except StopIteration as stop:
        return None if cancelled() else stop.value


@dataclass(frozen=True)
class BotLevel:
    """A named strength the app offers: which bot, its settings, its time."""

    key: str                 # "easy", "medium", "hard" ... (catalog: bot.level.<key>)
    bot: str                 # a name in tessera.bots.registry
    movetime_ms: int
    params: dict[str, Any] = field(default_factory=dict)
