"""The buttons under the board for a move put together before it is played.

A game whose adapter has ``draft_actions`` (Quadrotone: place or rearrange
up to eight chips) keeps its draft as the board's selection; this bar shows
the adapter's buttons and note, presses them on click or on their keys, and
plays the move the "play" button returns through the session, like a tap's.
No game is named here.
"""

from __future__ import annotations

from typing import Any

from ..i18n import t
from .dom import button, el, set_flag, set_text


WHEEL_NOTCH = 100.0
"""Wheel travel (pixels) that presses a wheel action once: a mouse notch."""


class DraftBar:
    def __init__(self, screen: Any) -> None:
        self.screen = screen
        self.actions = screen.ui.draft_actions()
        self.buttons: list[tuple[Any, Any]] = []
        self._wheel_travel = 0.0
        self.node = el("div", "draft-bar", None, {"data-draft": "bar", "hidden": not self.actions})
        self.note = el("p", "draft-note", None, {"aria-live": "polite", "data-draft": "note"})
        row = el("div", "action-row")
        for action in self.actions:
            if not action.button:
                continue
            node = button(t(action.label_key), lambda e, a=action: self.press(a), screen.listeners,
                          "btn btn-primary" if action.primary else "btn", {"data-action": f"draft-{action.key}"})
            self.buttons.append((action, node))
            row.appendChild(node)
        self.node.appendChild(self.note)
        self.node.appendChild(row)

    def attach(self, board: Any) -> None:
        if not self.actions:
            return
        board.on_select = lambda selected: self.render()
        board.on_key = self.key
        board.on_wheel = self.wheel

    def wheel(self, delta: float) -> bool:
        """A wheel action that can be pressed takes the wheel: one press per
        notch (100 px; a trackpad's small deltas add up), none while zooming."""
        screen = self.screen
        board, session = screen.board, screen.session
        if board is None or session is None:
            return False
        action = next((a for a in self.actions if a.wheel and a.enabled(session.game, board.state.selected)), None)
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
        screen = self.screen
        board, session = screen.board, screen.session
        if board is None or session is None or not session.is_local_turn() or session.is_viewing_history():
            return
        game = session.game
        if not action.enabled(game, board.state.selected):
            return
        draft, move = action.apply(game, board.state.selected)
        board.state.selected = draft
        board.redraw()
        self.render()
        if move is not None:
            screen._on_board_move(move)

    def reset(self) -> None:
        """A move or an undo: the draft was for a position gone."""
        board = self.screen.board
        if board is not None and self.actions:
            board.state.selected = None
        self.render()

    def render(self) -> None:
        if not self.actions:
            return
        screen = self.screen
        session, board = screen.session, screen.board
        if session is None or board is None:
            return
        live = session.is_local_turn() and not session.is_viewing_history() and not screen.frozen()
        draft = board.state.selected
        for action, node in self.buttons:
            set_flag(node, "disabled", not live or not action.enabled(session.game, draft))
        note = screen.ui.draft_note(session.game, draft) if live else None
        set_text(self.note, note or "")
