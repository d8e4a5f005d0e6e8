"""Small pictures of the final positions in the archive's list, and its filters.

Each row of the archive gets a picture of the position its game ended in,
drawn by the game's own view (the drawing code of the boards and of the
embedded boards' pictures: ``view.draw`` into a ``DrawList``, as SVG).  A
save holds its moves, not its final position, so the picture needs a
replay: only the rows that come into sight are drawn (an
``IntersectionObserver``), one game at a time, in slices (no long task
however long the games), and kept for the rest of the visit.

The filters (game, opponent) hide the rows that do not fit: nothing is read
again.
"""

from __future__ import annotations

import asyncio
from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import create_proxy  # type: ignore[import-not-found]

from ...core import registry
from ...core.draw import DrawList, to_svg
from ...core.record import Record
from ...core.steps import UNFINISHED, run_slice
from ...core.view import ViewState
from ...i18n import t
from .. import settings
from ..dom import Listeners, el
from ..saves.saved_games import SavedSummary

PICTURE_WIDTH = 84.0
SLICE_MS = 10.0
_drawn: dict[tuple[str, str], str] = {}
"""(session id, theme) -> the picture's markup, for the rest of the visit."""

OPPONENTS = ("bot", "hot_seat", "online", "solo")


def opponent_kind(summary: SavedSummary) -> str:
    """Which of ``OPPONENTS`` a finished game was played against."""
    seats = summary.seats
    if len(seats) == 1:
        return "solo"
    if any(seat.kind == "bot" for seat in seats):
        return "bot"
    if seats and all(seat.kind == "human" for seat in seats):
        return "hot_seat"
    return "online"


def final_picture(summary: SavedSummary, theme: str) -> Any:
    """Steps that replay the game and return its final position's SVG markup."""
    record = Record.from_json(summary.data.get("record"))
    game = record.new_game()
    yield from record.play_moves(game)
    view = registry.view(game.game_id)
    drawing = DrawList(PICTURE_WIDTH, float(int(PICTURE_WIDTH / view.aspect_at(game, PICTURE_WIDTH))))
    view.draw(game, ViewState(interactive=False, theme=theme, coordinates=False,
                              highlights={"show_last": False}), drawing)
    return to_svg(drawing, title=t("archive.picture", game=t(f"game.{game.game_id}.title")))


class ArchivePictures:
    """Draws the pictures of the rows that come into sight, one after another."""

    def __init__(self, closed: Any) -> None:
        self.closed = closed
        """A function: True once the archive is gone (drawing stops)."""
        self.waiting: list[tuple[SavedSummary, Any]] = []
        self.busy = False
        self.rows: dict[str, tuple[SavedSummary, Any]] = {}
        self._proxy = create_proxy(self._seen)
        self.observer = js.IntersectionObserver.new(self._proxy)

    def watch(self, summary: SavedSummary, holder: Any, row: Any) -> None:
        """Draw ``summary``'s picture into ``holder`` once ``row`` comes into sight."""
        cached = _drawn.get((summary.session_id, settings.theme()))
        if cached is not None:
            holder.innerHTML = cached
            return
        row.dataset.pictureFor = summary.session_id
        self.rows[summary.session_id] = (summary, holder)
        self.observer.observe(row)

    def _seen(self, entries: Any, *_: Any) -> None:
        for entry in entries:
            if not entry.isIntersecting:
                continue
            self.observer.unobserve(entry.target)
            found = self.rows.pop(str(entry.target.dataset.pictureFor), None)
            if found is not None:
                self.waiting.append(found)
        if self.waiting and not self.busy:
            self.busy = True
            asyncio.ensure_future(self._draw_waiting())

    async def _draw_waiting(self) -> None:
        try:
            while self.waiting and not self.closed():
                summary, holder = self.waiting.pop(0)
                theme = settings.theme()
                try:
                    steps = final_picture(summary, theme)
                    while True:
                        result = run_slice(steps, SLICE_MS)
                        if result is not UNFINISHED:
                            break
                        await asyncio.sleep(0)
                        if self.closed():
                            return
                except Exception:   # a game that does not replay: its row simply has no picture
                    continue
                _drawn[(summary.session_id, theme)] = result  # type: ignore[assignment]
                holder.innerHTML = result
                await asyncio.sleep(0)
        finally:
            self.busy = False

    def stop(self) -> None:
        self.waiting.clear()
        self.observer.disconnect()
        self._proxy.destroy()


def filter_bar(summaries: list[SavedSummary], listeners: Listeners, apply: Any) -> Any:
    """Two selects, the game and the opponent, each with "all"; ``apply(game, opponent)`` on change."""
    games = sorted({s.game for s in summaries}, key=lambda g: t(f"game.{g}.title"))
    kinds = [kind for kind in OPPONENTS if any(opponent_kind(s) == kind for s in summaries)]

    def select(name: str, label: str, options: list[tuple[str, str]]) -> Any:
        node = el("select", "archive-filter", None, {"id": f"archive-{name}", "data-filter": name})
        for value, text in [("", t(f"archive.filter.all_{name}"))] + options:
            node.appendChild(el("option", None, text, {"value": value}))
        return el("label", "archive-filter-label", None, {"for": f"archive-{name}"},
                  [el("span", None, label), node])
    game = select("game", t("archive.filter.game"), [(g, t(f"game.{g}.title")) for g in games])
    opponent = select("opponent", t("archive.filter.opponent"), [(k, t(f"archive.opponent.{k}")) for k in kinds])
    bar = el("div", "archive-filters", None, {"role": "group", "aria-label": t("archive.filter.label")},
             [game, opponent])

    def changed(event: Any) -> None:
        apply(str(bar.querySelector("[data-filter=game]").value), str(bar.querySelector("[data-filter=opponent]").value))
    listeners.on(bar, "change", changed)
    return bar
