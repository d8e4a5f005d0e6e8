"""A finished game reviewed by the bot, in the archive's replay.

"Review with the bot" runs ``bots.review`` over the game in the bots'
worker (``bots.thinker``), or in slices here where there is none (the
page stays live: the player can step through the moves meanwhile), and
shows what it finds as it comes: a progress line; at each position shown,
the bot's move there drawn on the board (the hint's green arrow, ring or
frame, ``ViewState.highlights["hint"]``); the moves that lost the most
marked in the move list and listed under the button, each a link to its
position.  Nothing is saved: the review is made again on the next visit.
"""

from __future__ import annotations

import asyncio
from typing import Any

from ...bots.review import MoveReview, review_steps, strongest_level
from ...core.steps import UNFINISHED, run_slice
from ...i18n import t
from ..dom import button, clear, el, present, set_text

SLICE_MS = 12.0


def from_json(data: dict[str, Any]) -> MoveReview:
    """A move's review as the worker sends it (``bots.service.review_json``):
    its best move as text, read on the board when shown."""
    return MoveReview(int(data["ply"]), int(data["mover"]), None, str(data.get("best") or ""),
                      float(data["loss"]), bool(data.get("mistake")))


class ReviewPanel:
    """The review's button, progress and mistakes, for one replay screen."""

    def __init__(self, screen: Any) -> None:
        self.screen = screen
        self.reviews: dict[int, MoveReview] = {}
        self.running = False
        self.done = False
        self.button = button(t("review.start"), lambda event: self.start(), screen.listeners, "btn",
                             {"data-action": "review-bot"})
        self.progress = el("p", "review-progress", None, {"aria-live": "polite", "data-review": "progress"})
        self.mistakes = el("ol", "review-mistakes", None, {"data-review": "mistakes", "hidden": True})
        self.node = el("div", "review-panel", None, None, [self.button, self.progress, self.mistakes])
        self._unsubscribe: Any = None
        session = screen.session
        if session.game.num_players != 2 or strongest_level(session.game.game_id) is None:
            self.node.hidden = True

    def start(self) -> None:
        if self.running or self.done:
            return
        self.running = True
        self.button.disabled = True
        session = self.screen.session
        self._unsubscribe = session.subscribe(lambda kind, detail: self.show_best() if kind == "view" else None)
        set_text(self.progress, t("review.progress", done=0, total=session.game.ply))
        asyncio.ensure_future(self._run(session.record()))

    async def _run(self, record: Any) -> None:
        result = await self._in_worker(record)
        if result is None and not self.screen._closed:   # no worker: review here, in slices
            result = await self._here(record)
        if result is None:
            return
        self.running, self.done = False, True
        for review in result:  # type: ignore[union-attr]
            self.reviews[review.ply] = review
        self._show_mistakes(result)  # type: ignore[arg-type]
        set_text(self.progress, t("review.done", count=sum(1 for r in result if r.mistake)))  # type: ignore[union-attr]
        self.show_best()

    async def _in_worker(self, record: Any) -> list[MoveReview] | None:
        """The review from the bots' worker (``bots.service``), each move shown
        as it comes; None when there is no worker or it cannot review."""
        from ...bots.thinker import ThinkerUnavailable, current
        worker = current()
        if worker is None:
            return None
        try:
            answer = await worker.ask({"type": "review", "record": record.to_json()}, lambda: self.screen._closed,
                                      lambda message: self._reviewed(from_json(message["review"])))
        except ThinkerUnavailable:
            self.reviews.clear()
            return None
        return None if answer is None else [from_json(item) for item in answer["reviews"]]

    async def _here(self, record: Any) -> list[MoveReview] | None:
        steps = review_steps(record, on_move=self._reviewed)
        while True:
            if self.screen._closed:
                steps.close()
                return None
            result = run_slice(steps, SLICE_MS)
            if result is not UNFINISHED:
                return result  # type: ignore[return-value]
            await asyncio.sleep(0)

    def _reviewed(self, review: MoveReview) -> None:
        self.reviews[review.ply] = review
        set_text(self.progress, t("review.progress", done=review.ply, total=self.screen.session.game.ply))
        if review.ply == self.screen.session.shown_ply + 1:
            self.show_best()

    def show_best(self) -> None:
        """The bot's move at the position shown (the one the next move was played from)."""
        board = self.screen.board
        if board is None or self.screen._closed:
            return
        session = self.screen.session
        review = self.reviews.get(session.shown_ply + 1)
        best = review.best if review is not None else None
        if review is not None and best is None and review.best_text:   # from the worker: read it here
            try:
                best = session.shown_game().parse_move(review.best_text)
            except ValueError:
                best = None
        if best is not None:
            board.state.highlights["hint"] = best
        else:
            board.state.highlights.pop("hint", None)
        board.redraw()

    def _show_mistakes(self, reviews: list[MoveReview]) -> None:
        clear(self.mistakes)
        list_node = self.screen.move_list.node if self.screen.move_list is not None else None
        session = self.screen.session
        found = [r for r in reviews if r.mistake]
        for review in found:
            played = session.moves.texts[review.ply - 1]
            item = button(t("review.mistake", number=review.ply, move=played, best=review.best_text),
                          lambda event, ply=review.ply: session.show_ply(ply - 1), self.screen.listeners,
                          "btn btn-ghost review-mistake", {"data-ply": str(review.ply)})
            self.mistakes.appendChild(el("li", None, None, None, [item]))
            if list_node is not None:
                move = list_node.querySelector(f'button.move[data-ply="{review.ply}"]')
                if present(move):
                    move.classList.add("is-mistake")
                    move.setAttribute("title", t("review.mistake_title", best=review.best_text))
                    move.insertAdjacentHTML("beforeend", '<span class="move-mistake" aria-hidden="true">?</span>')
        self.mistakes.hidden = not found

    def stop(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
