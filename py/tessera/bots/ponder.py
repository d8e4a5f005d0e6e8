"""Pondering: a bot that reads on its opponent's time.

While the opponent thinks, the bot guesses the reply and starts its own
search on the position after that reply.  The guess is the reply its last
search expected (``Bot.expected_reply``: the Dots reader's best line), or
else a search of its own kind from the opponent's side, with
``PREDICT_SHARE`` of its move time.  That search runs on a
``FrozenClock``: its time does not pass while it ponders, so it keeps
reading (deeper and deeper) however long the opponent takes.  When the
opponent plays the expected move (a *hit*) the clock starts: the same
search goes on for the bot's whole move time from there, with everything
it already read, and answers as it would have without pondering, only
deeper.  Any other reply (a *miss*) drops it, and the bot searches afresh.

A bot whose replies are too many to guess (``Bot.read_ahead`` gives steps)
reads ahead instead: it scores its own candidates on the position before
the reply, and its next search keeps what the reply left true.

Nothing here knows a game or a bot: every bot reads its budget's time
from its ``clock`` (``bots.clock.Budget``), which is what the frozen clock
replaces.  The page ponders in its worker (``bots.service``); the command
line's ``match --ponder`` gives the pondering side exactly the time its
opponent thought (``ponder_match_game``), one after the other, as two
cores would run them side by side.
"""

from __future__ import annotations

import time
from typing import Callable

from ..core.game import Game, Move
from ..core.steps import UNFINISHED, Steps, Unfinished, finish, run_slice
from .base import Bot

PREDICT_SHARE = 0.25
"""The guess of the opponent's reply gets this share of the bot's move time."""
MIN_PREDICT_MS = 50


class FrozenClock:
    """A clock that stands still until ``start()``, then runs like ``base``.

    A search timed by it never runs out of time before the start, and once
    started it has its whole budget, counted from the start.
    """

    def __init__(self, base: Callable[[], float] = time.perf_counter) -> None:
        self.base = base
        self.frozen_at = base()
        self.offset: float | None = None

    def __call__(self) -> float:
        if self.offset is None:
            return self.frozen_at
        return self.base() - self.offset

    @property
    def running(self) -> bool:
        return self.offset is not None

    def start(self) -> None:
        if self.offset is None:
            self.offset = self.base() - self.frozen_at


class Ponder:
    """One bot's reading on the opponent's time, for one position.

    ``game`` is the position with the opponent to move (the ponder keeps
    its own copy); ``bot`` is the bot that will answer the reply (its
    search runs on a frozen clock until ``resume``); ``predictor`` a bot of
    the same kind and time that guesses the reply (a separate object, so
    the bot's own state is touched by one search only).
    """

    def __init__(self, bot: Bot, game: Game, predictor: Bot) -> None:
        self.bot = bot
        self.game = game.copy()
        self.predictor = predictor
        self.expected: Move | None = None
        self.reading_ahead = False
        """The bot reads ahead (``Bot.read_ahead``) instead of guessing a reply."""
        self.guessed_by_bot = False
        """The reply came from the bot's own last search (``Bot.expected_reply``),
        not from the predictor's."""
        self.result: Move | None | Unfinished = UNFINISHED
        self.clock: FrozenClock | None = None
        self._had_clock = "clock" in vars(bot)
        self._old_clock = bot.clock
        self.steps: Steps[None] = self._run()

    def _run(self) -> Steps[None]:
        ahead = self.bot.read_ahead(self.game.copy())
        if ahead is not None:
            self.reading_ahead = True
            yield from ahead
            return None
        predicted = self.bot.expected_reply(self.game)
        if predicted is None:
            predicted = yield from self.predictor.search(self.game.copy())
        else:
            self.guessed_by_bot = True
        if predicted is None or not self.game.is_legal(predicted):
            return None
        after = self.game.copy()
        after.push(predicted)
        if after.is_over():
            return None
        self.expected = predicted
        self.clock = FrozenClock(self._old_clock)
        self.bot.clock = self.clock  # type: ignore[method-assign]
        self.result = yield from self.bot.search(after)
        return None

    def run(self, slice_ms: float) -> bool:
        """Read for about ``slice_ms``; True once nothing is left to read."""
        return run_slice(self.steps, slice_ms) is not UNFINISHED

    def hit(self, game: Game) -> bool:
        """``game`` is this position after the expected reply."""
        return (self.expected is not None and game.ply == self.game.ply + 1
                and game.move_stack[-1] == self.expected and game.move_stack[:-1] == self.game.move_stack)

    def resume(self) -> Steps[Move | None]:
        """After a hit: the bot's answer, from the reading done so far (its
        clock now runs: it has its move time from here)."""
        if self.clock is not None:
            self.clock.start()
        try:
            if self.result is UNFINISHED:
                yield from self.steps
            return None if self.result is UNFINISHED else self.result  # type: ignore[return-value]
        finally:
            self.restore()

    def drop(self) -> None:
        """A miss, or the game went elsewhere: stop reading, give the bot its clock back."""
        self.steps.close()
        self.restore()

    def restore(self) -> None:
        if self._had_clock:
            self.bot.clock = self._old_clock  # type: ignore[method-assign]
        elif "clock" in vars(self.bot):
            del self.bot.clock


def predictor_for(bot: Bot, make: Callable[[int, int], Bot]) -> Bot:
    """A bot like ``bot`` (``make(seed, movetime_ms)``) with the guess's share of its time."""
    return make(bot.seed + 7919, max(MIN_PREDICT_MS, int(bot.movetime_ms * PREDICT_SHARE)))


class PonderStats:
    """How often the guess was right, and how often the bot read ahead
    instead (``match --ponder`` prints it)."""

    def __init__(self) -> None:
        self.hits = 0
        self.misses = 0
        self.read_ahead = 0


def ponder_match_game(game: Game, bots: list[Bot], seat: int, make: Callable[[int, int], Bot],
                      stats: PonderStats | None = None, clock: Callable[[], float] = time.perf_counter) -> Game:
    """Play ``game`` to its end, the bot in ``seat`` pondering.

    Each time the opponent moves, its search is timed, and then the
    ponderer reads for exactly as long (one after the other on one core,
    as the page's worker reads on a second core while the player thinks).
    """
    ponder: Ponder | None = None
    while game.outcome() is None:
        mover = game.to_move
        if mover == seat:
            if ponder is not None and ponder.hit(game):
                move = finish(ponder.resume())
                if stats is not None:
                    stats.hits += 1
            else:
                if ponder is not None:
                    ponder.drop()
                    if stats is not None and ponder.reading_ahead:
                        stats.read_ahead += 1
                    elif stats is not None:
                        stats.misses += 1
                move = bots[mover].choose(game)
            ponder = None
        else:
            started = clock()
            move = bots[mover].choose(game)
            spent_ms = (clock() - started) * 1000.0
            ponder = Ponder(bots[seat], game, predictor_for(bots[seat], make))
            ponder.run(spent_ms)
        if move is None:
            break
        game.push(move)
    if ponder is not None:
        ponder.drop()
    return game
