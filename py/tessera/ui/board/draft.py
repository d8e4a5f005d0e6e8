"""The buttons under the board for a move put together before it is played.

A game whose adapter has ``draft_actions`` (Quadrotone: place or rearrange
up to eight chips) keeps its draft as the board's selection; this bar shows
the adapter's buttons and note, presses them on click, on their keys or on
the mouse wheel, and hands the move the "play" button returns to its host,
like a tap's.  The play screen and an embedded board (``embed.board``) both
use it: the host says which game a draft is for while the player may
compose (``game_now``) and plays the move (``play``).  No game is named here.
"""

from __future__ import annotations

from typing import Any, Callable

from ...core.game import Game, Move
from ...i18n import t
from ..dom import Listeners, button, el, set_flag, set_text

WHEEL_NOTCH = 100.0
"""Wheel travel (pixels) that presses a wheel action once: a mouse notch."""


class DraftBar:
    """The draft's note and buttons for ``ui`` (a ``core.game_ui.GameUI``).

    ``game_now()`` is the game drafts are made on, or None while the player
    may not compose (not their turn, an earlier move shown, a frozen game);
    ``play(move)`` plays what the play button made.  ``tr`` words the
    labels (an embedded board speaks its own language), ``small`` makes the
    buttons the small ones of an embed.
    """

    def __init__(self, ui: Any, listeners: Listeners, game_now: Callable[[], Game | None],
                 play: Callable[[Move], Any], tr: Callable[[str], str] = t, small: bool = False,
                 assist: bool = True) -> None:
        self.ui = ui
        self.game_now = game_now
        self.play = play
        self.actions = [action for action in ui.draft_actions() if assist or not action.assist]
        """``assist``: False in an online game against a person (no reading help)."""
        self.board: Any = None
        self.buttons: list[tuple[Any, Any]] = []
        self._wheel_travel = 0.0
        self.node = el("div", "draft-bar", None, {"data-draft": "bar", "hidden": not self.actions})
        self.note = el("p", "draft-note", None, {"aria-live": "polite", "data-draft": "note"})
        row = el("div", "action-row")
        size = " btn-small" if small else ""
        for action in self.actions:
            if not action.button:
                continue
            node = button(tr(action.label_key), lambda e, a=action: self.press(a), listeners,
                          ("btn btn-primary" if action.primary else "btn") + size,
                          {"data-action": f"draft-{action.key}"})
            self.buttons.append((action, node))
            row.appendChild(node)
        self.node.appendChild(self.note)
        self.node.appendChild(row)

    def attach(self, board: Any) -> None:
        self.board = board
        if not self.actions:
            return
        board.on_select = lambda selected: self.render()
        board.on_key = self.key
        board.on_wheel = self.wheel

    def wheel(self, delta: float) -> bool:
        """A wheel action that can be pressed takes the wheel: one press per
        notch (100 px; a trackpad's small deltas add up), none while zooming."""
        game = self.game_now()
        if self.board is None or game is None:
            return False
        action = next((a for a in self.actions if a.wheel and a.enabled(game, self.board.state.selected)), None)
        if action is None:
            self._wheel_travel = 0.0
            return False
        self._wheel_travel += abs(delta)
        if self._wheel_travel >= WHEEL_NOTCH:
            self._wheel_travel = 0.0
            self.press(action)
        return True

    def key(self, key: str) -> bool:
        for action in self.actions:
            if key in action.keys:
                self.press(action)
                return True
        return False

    def press(self, action: Any) -> None:
        board, game = self.board, self.game_now()
        if board is None or game is None or not action.enabled(game, board.state.selected):
            return
        draft, move = action.apply(game, board.state.selected)
        board.state.selected = draft
        board.redraw()
        self.render()
        if move is not None:
            self.play(move)

    def reset(self) -> None:
        """A move or an undo: the draft was for a position gone."""
        if self.board is not None and self.actions:
            self.board.state.selected = None
        self.render()

    def render(self) -> None:
        if not self.actions or self.board is None:
            return
        game = self.game_now()
        draft = self.board.state.selected
        for action, node in self.buttons:
            set_flag(node, "disabled", game is None or not action.enabled(game, draft))
        note = self.ui.draft_note(game, draft) if game is not None else None
        set_text(self.note, note or "")
