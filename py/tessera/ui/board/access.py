"""What a board says to screen readers, and how a dense field opens.

``BoardVoice`` gives a ``BoardComponent`` a polite live region (what the
keyboard cursor reaches: "e9, white checker"; "e8, empty, a move for e9";
"12-7, red dot, surrounded by Blue") and a hint on how to play it from the
keyboard, read with the board's name (``aria-describedby``).  The words
come from the game's adapter (``GameUI.describe_cell``) and the catalog.

``opening_zoom`` is the zoom a board opens at: a field whose points are
closer than ``COMFORT_SPACING`` (39x32 on a phone: 9 px) opens zoomed to
``OPENING_SPACING`` around the last move or the field's centre; the
overview (``overview``) then shows where that view lies.
"""

from __future__ import annotations

from typing import Any, Callable

import js  # type: ignore[import-not-found]

from ...core.game import Game
from ...core.view import ViewState
from ...i18n import t

COMFORT_SPACING = 12.0
"""Points closer than this (CSS pixels) are too small to tap: the board opens zoomed."""
OPENING_SPACING = 24.0
"""The spacing such a board opens at."""

_hints = 0
"""Keyboard hints made so far (their ids)."""


class BoardVoice:
    """The live region and keyboard hint of one board, next to its canvas."""

    def __init__(self, host: Any, canvas: Any,
                 describe: Callable[[Game, ViewState, Any], str] | None, hint_key: str = "board.keys") -> None:
        global _hints
        self.describe = describe
        self.live = js.document.createElement("p")
        self.live.className = "visually-hidden board-live"
        self.live.setAttribute("aria-live", "polite")
        self.live.setAttribute("aria-atomic", "true")
        host.appendChild(self.live)
        self.hint: Any = None
        if describe is not None:
            _hints += 1
            self.hint = js.document.createElement("p")
            self.hint.className = "visually-hidden"
            self.hint.id = f"board-keys-{_hints}"
            self.hint.textContent = t(hint_key)
            host.appendChild(self.hint)
            canvas.setAttribute("aria-describedby", self.hint.id)

    def say(self, text: str) -> None:
        """Tell screen readers ``text`` (emptied first, so a repeat is said again)."""
        self.live.textContent = ""
        self.live.textContent = text

    def say_cell(self, game: Game | None, state: ViewState, cell: Any) -> None:
        """Describe ``cell`` (and a selection's targets), if the board has a describer."""
        if self.describe is None or cell is None or game is None:
            return
        try:
            text = self.describe(game, state, cell)
        except Exception as error:  # a description must never break the keyboard
            js.console.error(f"board describe: {type(error).__name__}: {error}")
            return
        if text:
            self.say(text)

    def destroy(self) -> None:
        for node in (self.live, self.hint):
            if node is not None and node.parentNode:
                node.parentNode.removeChild(node)


def opening_zoom(board: Any) -> None:
    """Zoom ``board`` (a ``BoardComponent`` with a game and a size) in around
    the last move or the centre when its points are too close to tap."""
    spacing = board._spacing(1.0)
    if not board.zoomable or spacing <= 0 or spacing >= COMFORT_SPACING:
        return
    view, viewport = board.view, board.viewport
    viewport.zoom = max(1.0, min(board._max_zoom(), OPENING_SPACING / spacing))
    start = getattr(view, "initial_cursor", None)
    center = getattr(view, "point_center", None)
    if start is not None and center is not None:
        x, y = center(board.game, start(board.game, board.state), board.width * viewport.zoom,
                      board.height * viewport.zoom, board.state.flipped)
        viewport.pan_x = board.width / 2 - x
        viewport.pan_y = board.height / 2 - y
    viewport.clamp(board.width, board.height)
