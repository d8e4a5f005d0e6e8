"""The four things an embedded board does: view, step, play, puzzle.

* ``view`` shows the record's position at ``ply`` (its end by default);
  with ``controls`` it gets the step buttons too.
* ``step`` walks through the record: Start, Back, Next, End (and the arrow,
  Home and End keys), with the record's comment for each ply as the caption.
* ``play`` lets the reader play on from ``ply``: against a bot level of the
  game (``level``; its search runs in slices, ``bots.base.choose_async``,
  so the page never freezes) or alone, taking both sides.
* ``puzzle``: the reader must find the record's next moves from ``ply``; a
  right one is answered by the record's reply, a wrong one is shown, said
  and taken back; at the end, "Solved" and the ``solved`` event.

Stepping moves one game object forward and back (push and pop) instead of
replaying from the start for every step, as a long Dots record would cost
tens of milliseconds a click; the rules page's ``ExampleDiagram`` does the
latter for its few-move diagrams and is tied to a game's rules content, so
the embed has its own, smaller, stepping.
"""

from __future__ import annotations

import asyncio
from typing import Any

from ...bots.base import choose_async
from ...bots.registry import level as bot_level, make_level_bot
from ...core.game import GameError, Move
from ..dom import el
from .board import EmbedBoard
from .spec import EmbedPlan, Puzzle, outcome_words, turn_words

SLICE_MS = 20.0
"""A bot's search runs in slices this long between the page's own work."""
REPLY_SECONDS = 0.5
"""A puzzle's reply comes this long after the reader's right move."""
WRONG_SECONDS = 1.0
"""A wrong move stays on the board this long before it is taken back."""


class StepBoard(EmbedBoard):
    """``view`` and ``step``: the record's positions, one at a time."""

    interactive = False

    def __init__(self, element: Any, frame: Any, plan: EmbedPlan, theme: str) -> None:
        super().__init__(element, frame, plan, theme)
        self.stepping = plan.spec.mode == "step" or plan.spec.controls
        if self.stepping:
            self.first_button = self.add_button("embed.first", "first", lambda: self.go_to(0), "first")
            self.back_button = self.add_button("embed.back", "back", lambda: self.go_to(self.game.ply - 1), "prev")
            self.counter = el("span", "tb-counter")
            self.controls.appendChild(self.counter)
            self.next_button = self.add_button("embed.next", "next", lambda: self.go_to(self.game.ply + 1), "next")
            self.last_button = self.add_button("embed.last", "last", lambda: self.go_to(self.plan.count), "last")
            self.listeners.on(frame, "keydown", self._on_key)
        else:
            self.controls.hidden = True

    def go_to(self, ply: int) -> None:
        ply = max(0, min(self.plan.count, int(ply)))
        if ply == self.game.ply:
            return
        game = self.game
        while game.ply > ply:
            game.pop()
        while game.ply < ply:
            game.push_unchecked(self.plan.moves[game.ply])
        self.show()
        self.emit_move(self.plan.texts[ply - 1] if ply else "", "step")
        if ply == self.plan.count:
            ending = self.plan.outcome(game)
            self.emit("ended", ply=ply, result=outcome_words(game, ending, self.lang) if ending else "")

    def show(self) -> None:
        game, plan = self.game, self.plan
        self.draw(interactive=False)
        words = [plan.comments[game.ply]] if plan.comments[game.ply] else []
        ending = plan.outcome(game) if game.ply == plan.count else None
        if ending is not None and (self.stepping or game.ply == plan.start):
            words.append(outcome_words(game, ending, self.lang))
        self.say(" ".join(words))
        if self.stepping:
            at_start, at_end = game.ply == 0, game.ply >= plan.count
            self.first_button.disabled = self.back_button.disabled = at_start
            self.next_button.disabled = self.last_button.disabled = at_end
            self.counter.textContent = self.tr("embed.counter", ply=game.ply, count=plan.count)

    def _on_key(self, event: Any) -> None:
        """Arrows, Home and End step while the focus is in the board's frame."""
        self.step_by_key(event, self.game.ply, self.plan.count)


class PlayBoard(EmbedBoard):
    """``play``: the reader plays on from ``ply``, against a bot level or alone."""

    interactive = True

    def __init__(self, element: Any, frame: Any, plan: EmbedPlan, theme: str) -> None:
        super().__init__(element, frame, plan, theme)
        self.start_ply = plan.start
        self.reader = self.game.to_move
        self.level = None
        if plan.spec.level is not None and self.game.num_players > 1:
            self.level = bot_level(plan.game_id, plan.spec.level)
        self.token = 0
        self.thinking = False
        self.undo_button = self.add_button("play.undo", "undo", self.undo)
        self.restart_button = self.add_button("embed.restart", "restart", self.restart)

    def local_seats(self) -> list[int]:
        return [self.reader] if self.level is not None else list(range(self.game.num_players))

    def bot_to_move(self) -> bool:
        return self.level is not None and not self.game.is_over() and self.game.to_move != self.reader

    def on_move(self, move: Move) -> None:
        if self.thinking or self.game.is_over():
            return
        try:
            text = self.game.move_text(move)
            self.game.push(move)
        except GameError:
            return
        self.emit_move(text, "reader")
        self.after_move()

    def after_move(self) -> None:
        if self.bot_to_move():
            self.thinking = True
            self.token += 1
            asyncio.ensure_future(self._bot(self.token))
        self.show()
        ending = self.game.outcome()
        if ending is not None:
            self.emit("ended", ply=self.game.ply, result=outcome_words(self.game, ending, self.lang),
                      winner=ending.winner)

    async def _bot(self, token: int) -> None:
        def cancelled() -> bool:
            return token != self.token or self.closed

        await asyncio.sleep(0)   # the reader's move is drawn before the search starts
        bot = make_level_bot(self.level, seed=self.plan.record.seed + self.game.ply)
        move = await choose_async(bot, self.game, SLICE_MS, cancelled)
        if move is None or cancelled():
            return
        self.thinking = False
        text = self.game.move_text(move)
        self.game.push(move)
        self.emit_move(text, "bot")
        self.after_move()

    def _cancel(self) -> None:
        self.token += 1
        self.thinking = False

    def undo(self) -> None:
        """Take back the reader's last move (and the bot's answer to it)."""
        self._cancel()
        game = self.game
        if game.ply > self.start_ply:
            game.pop()
        while self.level is not None and game.ply > self.start_ply and game.to_move != self.reader:
            game.pop()
        self.show()

    def restart(self) -> None:
        self._cancel()
        self.game = self.plan.game_at(self.start_ply)
        self.show()

    def go_to(self, ply: int) -> None:
        """Play on from the record's ``ply`` instead."""
        self.start_ply = max(0, min(self.plan.count, int(ply)))
        self.restart()
        self.reader = self.game.to_move

    def show(self) -> None:
        game = self.game
        ending = game.outcome()
        if ending is not None:
            status = outcome_words(game, ending, self.lang)
        elif self.thinking:
            status = self.tr("bot.thinking")
        elif self.level is not None:
            status = self.tr("turn.yours")
        else:
            status = turn_words(game, self.lang)
        self.say(status)
        self.draw(interactive=not self.thinking)
        self.undo_button.disabled = game.ply <= self.start_ply
        self.restart_button.disabled = game.ply == self.start_ply and not self.thinking


class PuzzleBoard(EmbedBoard):
    """``puzzle``: find the record's moves from ``ply``."""

    interactive = True

    def __init__(self, element: Any, frame: Any, plan: EmbedPlan, theme: str) -> None:
        super().__init__(element, frame, plan, theme)
        self.puzzle = Puzzle(plan)
        self.busy = False
        self.token = 0
        self.note = "find"
        self.wrong_text = ""
        self.restart_button = self.add_button("embed.restart", "restart", self.restart)

    def local_seats(self) -> list[int]:
        return [self.puzzle.solver]

    @property
    def solved(self) -> bool:
        return self.puzzle.solved(self.game)

    def on_move(self, move: Move) -> None:
        if self.busy or self.solved:
            return
        game = self.game
        try:
            text = game.move_text(move)
            if not game.is_legal(move):
                return
        except GameError:
            return
        if self.puzzle.is_right(game, move):
            game.push_unchecked(move)
            self.emit_move(text, "reader")
            self.note = "right"
            self._after_right()
            return
        self.puzzle.mistakes += 1
        game.push_unchecked(move)
        self.busy = True
        self.note, self.wrong_text = "wrong", text
        self.show()
        self.token += 1
        asyncio.ensure_future(self._take_back(self.token))

    def _after_right(self) -> None:
        if self.solved:
            self._finish()
            return
        if self.puzzle.reply(self.game) is not None:
            self.busy = True
            self.token += 1
            asyncio.ensure_future(self._reply(self.token))
        self.show()

    async def _reply(self, token: int) -> None:
        await asyncio.sleep(REPLY_SECONDS)
        if token != self.token or self.closed:
            return
        move = self.puzzle.reply(self.game)
        self.busy = False
        if move is not None:
            text = self.game.move_text(move)
            self.game.push_unchecked(move)
            self.emit_move(text, "record")
        self.note = "next"
        self._after_right()

    async def _take_back(self, token: int) -> None:
        await asyncio.sleep(WRONG_SECONDS)
        if token != self.token or self.closed:
            return
        self.game.pop()
        self.busy = False
        self.note = "again"
        self.show()

    def _finish(self) -> None:
        self.note = "solved"
        self.show()
        self.emit("solved", ply=self.game.ply, mistakes=self.puzzle.mistakes)

    def restart(self) -> None:
        self.token += 1
        self.busy = False
        self.puzzle.mistakes = 0
        self.note = "find"
        self.game = self.plan.game_at(self.puzzle.start)
        self.show()

    def go_to(self, ply: int) -> None:
        """Start the puzzle again from the record's ``ply`` (before its last move)."""
        self.plan.start = max(0, min(self.plan.count - 1, int(ply)))
        self.puzzle = Puzzle(self.plan)
        self.restart()

    def status(self) -> str:
        side = turn_words(self.plan.game_at(self.puzzle.start), self.lang)
        mistakes = self.puzzle.mistakes
        if self.note == "solved":
            return self.tr("embed.puzzle.solved") if not mistakes else \
                self.tr("embed.puzzle.solved_after", count=mistakes)
        if self.note == "wrong":
            return self.tr("embed.puzzle.wrong", move=self.wrong_text)
        if self.note == "again":
            return self.tr("embed.puzzle.again")
        if self.note == "right":
            return self.tr("embed.puzzle.right")
        if self.note == "next":
            return self.tr("embed.puzzle.next")
        return self.tr("embed.puzzle.find", side=side)

    def show(self) -> None:
        game = self.game
        comment = self.plan.comments[game.ply] if game.ply <= self.plan.count and self.note != "wrong" else ""
        self.say(" ".join(part for part in (self.status(), comment) if part))
        self.draw(interactive=not self.busy and not self.solved)
        self.element.dataset.puzzle = self.note
        self.restart_button.disabled = game.ply == self.puzzle.start and not self.busy and not self.puzzle.mistakes


MODE_BOARDS: dict[str, type[EmbedBoard]] = {
    "view": StepBoard, "step": StepBoard, "play": PlayBoard, "puzzle": PuzzleBoard,
}
