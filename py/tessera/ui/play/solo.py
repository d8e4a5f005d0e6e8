"""What the play screen adds for games that have them: the Hint button, the
high-score tables of one-player games and the detailed statistics behind
the player panel.  All of it is asked of the game's adapter
(``GameUI.hint_level``, ``score_table``, ``details``), so no game is named.
"""

from __future__ import annotations

import asyncio
from typing import Any

from ...core.registry import entry
from ...i18n import t
from ..dialogs import Dialog
from ..dom import button, el, set_flag, set_text

HINT_SLICE_MS = 12.0


class SoloHelpers:
    """The Hint and High scores buttons of one play screen, and the panel's details."""

    def __init__(self, screen: Any) -> None:
        self.screen = screen
        self.ui = screen.ui
        self.solo = entry(screen.game_id).num_players == 1
        self.hint_button: Any = None
        self.scores_button: Any = None
        self.note = el("p", "hint-note", None, {"aria-live": "polite", "hidden": True, "data-hint": "note"})
        self._hint_version: int | None = None
        self._hint_key = ""   # the bots' worker keeps the hint's position by it
        buttons = []
        if self.ui.hint_level is not None and screen.remote is None and screen.link is None:   # none against a person
            self.hint_button = button(t("play.hint"), lambda e: self.ask_hint(), screen.listeners, "btn",
                                      {"data-action": "hint"})
            buttons.append(self.hint_button)
        if self.solo:
            self.scores_button = button(t("play.high_scores"), lambda e: self.show_scores(), screen.listeners, "btn",
                                        {"data-action": "high-scores"})
            buttons.append(self.scores_button)
        self.row = el("div", "action-row solo-row", None, None, buttons + [self.note]) if buttons else None
        if self.ui.details(screen.session.game):
            panel = screen.bottom_panel.node
            panel.classList.add("has-details")
            panel.setAttribute("role", "button")
            panel.setAttribute("tabindex", "0")
            panel.setAttribute("title", t("panel.details"))
            panel.setAttribute("data-action", "details")
            screen.listeners.on(panel, "click", lambda e: self.show_details())
            screen.listeners.on(panel, "keydown", self._panel_key)

    # ----- rendering ----------------------------------------------------------------
    def render(self, unavailable: bool) -> None:
        session = self.screen.session
        if self.hint_button is not None:
            busy = self._hint_version is not None or session.thinking
            set_flag(self.hint_button, "disabled", unavailable or busy or not session.is_local_turn()
                     or self.screen.frozen())

    def clear_hint(self) -> None:
        """A move or an undo: the hint shown is for a position gone."""
        board = self.screen.board
        if board is not None and board.state.highlights.pop("hint", None) is not None:
            board.redraw()
        self.note.hidden = True
        set_text(self.note, "")

    # ----- hint ---------------------------------------------------------------------
    def ask_hint(self) -> None:
        session = self.screen.session
        if self._hint_version is not None or session.is_over() or not session.is_local_turn():
            return
        self._hint_version = session.version
        self.note.hidden = False
        set_text(self.note, t("hint.thinking"))
        self.render(False)
        asyncio.ensure_future(self._hint(session.version))

    async def _hint(self, version: int) -> None:
        """The hint level's move, from the bots' worker (``bots.thinker``) or,
        where there is none, searched here in slices; a move made meanwhile
        cancels it."""
        from ...bots.base import choose_async
        from ...bots.registry import level, make_level_bot
        from ...bots.thinker import ask_move, new_key
        screen = self.screen
        session = screen.session
        stale = lambda: screen._closed or session.version != version  # noqa: E731
        try:
            bot = make_level_bot(level(screen.game_id, self.ui.hint_level), session.game.seed + session.game.ply)
            self._hint_key = self._hint_key or new_key("hint")
            asked, move = await ask_move(bot, self._hint_key, session.game.copy(),
                                         session.moves.texts[:session.game.ply], stale)
            if not asked:
                move = await choose_async(bot, session.game.copy(), HINT_SLICE_MS, stale)
        finally:
            self._hint_version = None
        if screen._closed:
            return
        if session.version != version:   # a move came first: the button is free again
            self.render(session.is_over() or session.is_viewing_history())
            return
        if move is None:
            set_text(self.note, t("hint.none"))
        else:
            text = session.game.move_text(move)
            set_text(self.note, t("hint.move", move=text))
            screen.app.announce(t("hint.move", move=text))
            if screen.board is not None:
                screen.board.state.highlights["hint"] = move
                screen.board.redraw()
        self.render(False)

    # ----- high scores and details ------------------------------------------------------
    def show_scores(self) -> None:
        from ..saves.high_scores import high_scores_dialog
        game = self.screen.session.game
        self.screen.dialog = high_scores_dialog(self.screen.app, self.screen.game_id, self.ui.score_table(game))

    def show_details(self) -> None:
        game = self.screen.session.shown_game()
        dialog = Dialog(t("details.title"), "dialog-details")
        rows = el("dl", "details-list")
        for key, value in self.ui.details(game):
            rows.appendChild(el("dt", None, t(key)))
            rows.appendChild(el("dd", None, value))
        dialog.body.appendChild(rows)
        close = dialog.add_button(t("dialog.close"), None, "primary")
        self.screen.dialog = dialog.open(focus=close)

    def _panel_key(self, event: Any) -> None:
        if str(event.key) in ("Enter", " "):
            event.preventDefault()
            self.show_details()


def game_over_scores(screen: Any) -> Any:
    """For a finished one-player game: its result entered in its high-score
    table, and the table (the new row's name can be changed there)."""
    from ..saves.high_scores import enter_result, scores_node
    session = screen.session
    if entry(screen.game_id).num_players != 1:
        return None
    entered = enter_result(screen.app, session)
    if entered is None:
        return None
    table, row = entered
    box = el("div", "over-scores")
    box.appendChild(el("p", "dialog-hint", t("scores.entered", row=row + 1) if row is not None
                       else t("scores.not_entered")))
    box.appendChild(scores_node(screen.app, screen.game_id, table, row, screen.listeners))
    return box
