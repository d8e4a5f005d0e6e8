"""A game's drawing options that read the position (Dots' threats), read in
the bots' worker so the main thread only draws.

A view toggle with ``reading`` (``core.game_ui.ViewToggle``) asks the
worker for ``GameUI.read`` of the position shown, once per position; until
the answer comes the board draws nothing of it (never a reading of another
position), then it redraws with it.  A newer position cancels the request.
Where there is no worker (or it cannot answer) the highlight is True and
the view reads the position itself, as before.
"""

from __future__ import annotations

import asyncio
from typing import Any

from ...bots.thinker import ThinkerUnavailable, current, record_json


class Readings:
    """The reading toggles of one play screen."""

    def __init__(self, screen: Any) -> None:
        self.screen = screen
        self.on: dict[str, bool] = {}
        self.found: dict[str, tuple[Any, Any]] = {}   # key -> (position, reading)
        self.asking: dict[str, Any] = {}              # key -> the position asked about
        self.here = False                             # the worker cannot: the view reads

    def toggled(self, key: str, checked: bool) -> None:
        self.on[key] = checked
        self.refresh()

    def refresh(self) -> None:
        """Set the board's highlights for the position shown (the play screen calls it before each drawing)."""
        screen = self.screen
        board, session = screen.board, screen.session
        if board is None or session is None:
            return
        for toggle in screen.ui.view_toggles:
            if not toggle.reading or toggle.key not in self.on:
                continue
            key = toggle.key
            if not self.on[key]:
                board.state.highlights[key] = False
                continue
            if self.here or current() is None:
                board.state.highlights[key] = True
                continue
            where = (session.version, session.shown_ply)
            found = self.found.get(key)
            board.state.highlights[key] = found[1] if found is not None and found[0] == where else []
            if (found is None or found[0] != where) and self.asking.get(key) != where:
                self.asking[key] = where
                asyncio.ensure_future(self._ask(key, where))

    async def _ask(self, key: str, where: Any) -> None:
        screen, session = self.screen, self.screen.session
        game = session.shown_game()
        request = {"type": "reading", "what": key,
                   "record": record_json(game, session.moves.texts[:session.shown_ply])}
        stale = lambda: screen._closed or (session.version, session.shown_ply) != where  # noqa: E731
        try:
            answer = await current().ask(request, stale)   # type: ignore[union-attr]
        except ThinkerUnavailable:
            self.here = True
            answer = None
        finally:
            if self.asking.get(key) == where:
                del self.asking[key]
        if answer is not None and not stale():
            self.found[key] = (where, answer.get("value"))
        if not screen._closed and screen.board is not None and (answer is not None or self.here):
            self.refresh()
            screen.board.redraw()
