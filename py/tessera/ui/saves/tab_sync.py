"""One game open in two tabs: neither overwrites the other's moves.

The play screen saves through ``TabSync.save``, which writes only when the
stored save is not a newer game (``versions``: every save carries a
version and its tab's id).  The browser's ``storage`` event tells a tab at
once when another tab saved its game:

* the same game (only the board's orientation or a clock's time changed):
  the tab takes that version as its own and plays on;
* a different game (a move, an undo, a result): the tab stops acting on
  its stale copy (its bot's pending answer is dropped, its clock stops,
  the board and the move box take no moves, and it saves nothing more) and
  a notice at the top of the page says so, with two ways out: load the
  newer game, or keep this tab's game as a separate saved game.

A save deleted in another tab is no newer game: this tab keeps playing and
saves it again with its next move (nothing the player made is lost).
"""

from __future__ import annotations

from typing import Any

import js  # type: ignore[import-not-found]

from ...i18n import Message, t
from . import storage
from ..dom import Listeners, button, el, present, set_text
from .versions import Change, SaveStamp, classify, game_part, stamp_of
from .saved_games import SaveProblem, summarize


class TabSync:
    """Keeps one play screen's save in step with other tabs of the same game."""

    def __init__(self, screen: Any) -> None:
        self.screen = screen
        self.listeners = Listeners()
        self.stale = False
        """Another tab changed this game: this screen no longer plays or saves."""
        self.base_game: tuple[Any, ...] | None = None
        self.banner: Any = None

    @property
    def session(self) -> Any:
        return self.screen.session

    @property
    def key(self) -> str:
        return storage.session_key(self.session.session_id)

    def base(self) -> SaveStamp:
        return SaveStamp(self.session.revision, self.session.writer)

    def start(self) -> None:
        """Take the stored save as the base, and listen for other tabs' saves.

        The game may have changed while it was opening (a long game opens in
        slices): that is found here at once rather than at the next move.
        """
        stored = storage.stored_save(self.session.session_id)
        if stored is not None and stamp_of(stored) == self.base():
            self.base_game = game_part(stored)
        else:
            self.base_game = game_part(self.session.to_save())
        self.listeners.on(js.window, "storage", self._on_storage)
        self._compare(stored)

    def stop(self) -> None:
        self.listeners.clear()
        if self.banner is not None:
            self.banner.remove()
            self.banner = None

    # ----- saving ------------------------------------------------------------------------
    def save(self) -> None:
        """Save the game unless another tab saved a newer one (then go stale).
        Raises StorageFull like ``storage.save_session``."""
        if self.stale:
            return
        try:
            self.base_game = storage.write_session(self.session, self.base_game)
        except storage.SaveConflict as conflict:
            self.conflict(conflict.stored)

    # ----- other tabs ----------------------------------------------------------------------
    def _on_storage(self, event: Any) -> None:
        if self.stale or self.session is None or str(event.key or "") != self.key:
            return
        value = event.newValue
        if not isinstance(value, str):
            return  # deleted there: this tab saves it again with its next move
        try:
            stored = summarize(value, self.session.session_id).data
        except SaveProblem:
            return  # not a save this tab can compare with: opening it again would put it aside
        self._compare(stored)

    def _compare(self, stored: Any) -> None:
        change = classify(stored, self.base(), self.base_game)
        if change is Change.QUIET:
            stamp = stamp_of(stored)
            self.session.revision, self.session.writer = stamp.rev, stamp.writer
        elif change is Change.CONFLICT:
            self.conflict(stored)

    def conflict(self, stored: Any) -> None:
        """Another tab changed the game: stop acting on this copy and ask the player
        (again and again it moves on there: the banner's counts follow it)."""
        if self.stale:
            if self.banner is not None and present(self.banner):
                set_text(self.banner.querySelector(".notice-text"), self._banner_text(stored))
            return
        self.stale = True
        screen = self.screen
        if screen.dialog is not None:
            screen.dialog.close()  # a draw offer or the game-over box of the stale game
        if screen.ticker is not None:
            screen.ticker.stop()   # its last save is refused: this tab is stale
            screen.ticker = None
        self.session.invalidate()  # a bot thinking about this copy: its answer is dropped
        screen.render()
        if screen.root is not None:
            screen.root.classList.add("is-stale")
        self._show_banner(stored)

    def _banner_text(self, stored: Any) -> str:
        """What changed, with the moves there (counted in the stored record itself) and here."""
        record = stored.get("record") if isinstance(stored, dict) else None
        moves = record.get("moves") if isinstance(record, dict) else None
        text = t("tabs.changed")
        if isinstance(moves, list):
            text += " " + t("tabs.compare", theirs=len(moves), ours=self.session.game.ply)
        return text

    def _show_banner(self, stored: Any) -> None:
        box = el("div", "notice notice-warning notice-tabs", None, {"role": "alert", "data-notice": "tabs"})
        box.appendChild(el("span", "notice-text", self._banner_text(stored)))
        actions = el("span", "notice-actions")
        actions.appendChild(button(t("tabs.load"), lambda event: self.load_newer(), self.listeners,
                                   "btn btn-primary btn-small", {"data-action": "load-newer"}))
        actions.appendChild(button(t("tabs.keep_copy"), lambda event: self.keep_copy(), self.listeners,
                                   "btn btn-small", {"data-action": "keep-copy"}))
        box.appendChild(actions)
        self.screen.app.notice_list.container.appendChild(box)   # removed with the screen (``stop``)
        self.banner = box

    # ----- the player's choice ----------------------------------------------------------------
    def load_newer(self) -> None:
        """Open the stored (newer) game in this tab."""
        self.screen.app.show_route(force=True)

    def keep_copy(self) -> None:
        """Save this tab's game as a new game (the newer one stays as it is) and open it."""
        session = self.session
        data = session.to_save()
        copy_id = storage.new_session_id()
        now = float(js.Date.now())
        data.update({"id": copy_id, "rev": 0, "writer": ""})
        data["meta"] = {**data["meta"], "created": now, "updated": now, "copy_of": session.session_id}
        try:
            storage.save_session(data)
        except storage.StorageFull:
            self.screen.app.notice(Message("storage.quota"), "error", sticky=True, scope="app")
            return
        self.screen.app.announce(t("tabs.copied"))
        self.screen.app.go(f"#/play/{self.screen.game_id}/{copy_id}")
