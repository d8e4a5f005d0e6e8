"""A worked example of a game's rules page as an embedded board.

``<tessera-board game="quadrature" example="chain_reaction">`` shows one
``Diagram`` of the game's rules content (``core.rules_content``): its start,
then each step (a move, or an illegal try the example shows crossed out),
with the diagram's own marks and its status sentences under the board.
Back, Next and Start again step (and the arrow, Home and End keys); where
the diagram plays itself a Play button steps by itself; where it is
interactive the reader may play moves of their own from the step shown.

Our own rules pages (``rules_page``) are made of these elements, so a
diagram there and one pasted into another site are the same board; the
words are the rules page's (``<prefix>.back``...), in the board's language.
"""

from __future__ import annotations

import asyncio
from typing import Any

from ...core.game import GameError, Move
from ...core.view import ViewState
from .board import EmbedBoard
from .spec import ExamplePlan

PLAY_STEP_SECONDS = 1.1
"""How long Play shows each step."""


class ExampleBoard(EmbedBoard):
    """One worked example: its steps, its status words, the reader's own moves."""

    zoom = False   # a diagram is a few points of a field

    def __init__(self, element: Any, frame: Any, plan: ExamplePlan, theme: str) -> None:
        self.interactive = plan.diagram.interactive
        super().__init__(element, frame, plan, theme)   # type: ignore[arg-type]
        self.example = plan
        self.diagram = plan.diagram
        self.step = plan.start
        self.own: list[str] = []    # the reader's moves after ``step``
        self._task: asyncio.Task | None = None
        stepping = plan.spec.mode == "step" or plan.spec.controls
        self.play_button = None
        if stepping and self.diagram.autoplay:
            self.play_button = self.add_button(f"{plan.prefix}.play", "play", self._on_play)
        self.back_button = self.add_button(f"{plan.prefix}.back", "back", lambda: self.go_to(self.step - 1))
        self.step_button = self.add_button(f"{plan.prefix}.step", "step", lambda: self.go_to(self.step + 1))
        self.reset_button = self.add_button(f"{plan.prefix}.reset", "reset", lambda: self.go_to(0))
        if stepping:
            self.listeners.on(frame, "keydown", self._on_key)
        else:
            self.controls.hidden = True
        self.element.dataset.example = self.diagram.key

    # ----- stepping -------------------------------------------------------------------
    def go_to(self, step: int) -> None:
        """Show step ``step`` of the example (the reader's own moves are dropped)."""
        self._stop()
        step = max(0, min(self.diagram.steps, int(step)))
        moved = step != self.step or bool(self.own)
        self.step, self.own = step, []
        self.show()
        if moved:
            self.emit("move", ply=self.game.ply, step=step, move="", by="step")

    def show(self, rebuild: bool = True) -> None:
        """Draw the step (or the reader's moves after it) and say what it shows."""
        diagram, step = self.diagram, self.step
        if rebuild:
            self.game = diagram.game_at(step)
        game = self.game
        highlights = self.example.highlights(step, game) if not self.own else {}
        state = ViewState(interactive=self.interactive and not game.is_over(), highlights=highlights,
                          flipped=self.view.flipped)
        if game.move_stack and (self.own or highlights.get("show_last", True)):
            state.last_move = game.move_stack[-1]
        self.board.set_label(self.label())
        self.board.show(game, state)
        self.board.set_interactive(state.interactive, redraw=False)
        self.say(" ".join(diagram.status(step, game, self.own, self.lang)))
        dataset = self.element.dataset
        dataset.step = str(step)
        dataset.ply = str(game.ply)
        dataset.score = ":".join(str(score) for score in game.scores())
        at_end = step >= diagram.steps
        self.back_button.disabled = step == 0 and not self.own
        self.step_button.disabled = at_end and not self.own
        self.reset_button.disabled = step == 0 and not self.own and self._task is None
        if self.play_button is not None:
            self.play_button.disabled = at_end or self._task is not None
        self.render_draft()

    def label(self) -> str:
        return self.tr(f"{self.example.prefix}.diagram_label", caption=self.example.caption(self.lang))

    def _on_key(self, event: Any) -> None:
        """Arrows, Home and End step while the focus is in the board's frame
        (not on the board itself while the reader may play there: its
        arrows move the cursor)."""
        if not self.board.state.interactive:
            self.step_by_key(event, self.step, self.diagram.steps)

    # ----- the reader's own moves ---------------------------------------------------------
    def on_move(self, move: Move) -> None:
        """The reader plays on from the step shown (for whoever is to move)."""
        if not self.interactive:
            return
        self._stop()
        try:
            text = self.game.move_text(move)
            self.game.push(move)
        except GameError:
            return
        self.own.append(text)
        self.show(rebuild=False)
        self.emit_move(text, "reader")

    def local_seats(self) -> list[int]:
        return list(range(self.game.num_players)) if self.interactive else []

    # ----- Play -------------------------------------------------------------------------
    def _on_play(self) -> None:
        self._stop()
        if self.step >= self.diagram.steps:
            self.step = 0
        self.own = []
        self._task = asyncio.ensure_future(self._play())
        self.show()

    async def _play(self) -> None:
        """Show the start briefly, then each step in turn."""
        try:
            while self.step < self.diagram.steps and not self.closed:
                await asyncio.sleep(PLAY_STEP_SECONDS)
                if self.closed:
                    return
                self.step += 1
                if self.step >= self.diagram.steps:
                    self._task = None
                self.show()
        finally:
            self._task = None
            if not self.closed:
                self.show()

    def _stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()

    # ----- the look --------------------------------------------------------------------
    def set_flipped(self, flipped: bool | None) -> None:
        """Seen from the other side (``flip``; None: the page's usual side)."""
        self.view.flipped = self.example.flipped if flipped is None else flipped
        self.board.set_flipped(self.view.flipped)

    def destroy(self) -> None:
        self._stop()
        super().destroy()
