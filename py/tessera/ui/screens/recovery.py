"""The recovery screen: what the player sees when a screen fails to render.

Every saved value is checked at load (``saved_games.summarize``) and a bad
one is put aside, so a screen should never fail on stored state; this is
the guard for whatever still gets through (any exception, any screen, or the
start-up itself, ``app.App.recover``).  Instead of a blank page or a dead
"could not start", the player reads what failed in plain words (the home
screen, a game, the archive...), and can

* download everything Tessera keeps in this browser as one file
  (``storage.backup_text``: saves, the archive, put-aside values, settings,
  high scores), before anything else;
* set the failing game aside when the address names one (kept under
  ``corrupt/``, not deleted; the notice tells the truth when storage is too
  full to copy it); when the screen lists games (home, the archive) and no
  one game can be blamed, set every saved game aside at once, a gentler
  step than a reset: nothing is deleted, the download still holds them;
* reset storage (after a question), which removes every value of the app;
* go to the home screen.

It leans on as little as it can: the DOM helpers, storage and the catalog.
The technical line (the exception) is under "Technical details", for
whoever fixes it; the console has the traceback.
"""

from __future__ import annotations

from typing import Any

import js  # type: ignore[import-not-found]

from ...i18n import Message, has, t
from ..saves import storage
from ..dom import Listeners, button, el, set_text

WHAT_FAILED = {"play": "recovery.what.play", "archive": "recovery.what.archive", "rules": "recovery.what.rules",
               "join": "recovery.what.join", "start": "recovery.what.start"}
"""The first part of a route -> what the player is told could not be shown."""


def what_failed(route: tuple[str, ...]) -> str:
    """"Your Dots game could not be shown.": the failing screen in the player's words."""
    if not route:
        return t("recovery.what.home")
    game = route[1] if len(route) > 1 and has(f"game.{route[1]}.title") else None
    if route[0] == "archive" and len(route) == 3 and game:
        return t("recovery.what.review", game=t(f"game.{game}.title"))
    if route[0] in ("play", "rules") and game:
        return t(f"{WHAT_FAILED[route[0]]}_game", game=t(f"game.{game}.title"))
    return t(WHAT_FAILED.get(route[0], "recovery.what.page"))


def failing_save(route: tuple[str, ...]) -> str | None:
    """The id of the saved game the route opens (a game, or a finished one's replay), if any."""
    if len(route) == 3 and route[0] in ("play", "archive") and storage.get_text(storage.session_key(route[2])):
        return route[2]
    return None


LISTING_ROUTES = ((), ("archive",))
"""Screens that read every saved game: when one of them fails, any save may be the cause."""


def saved_game_keys() -> list[str]:
    return storage.keys(storage.SESSION_PREFIX)


def technical(error: BaseException) -> str:
    text = " ".join(str(error).split())
    line = f"{type(error).__name__}: {text}" if text else type(error).__name__
    return line if len(line) <= 300 else line[:299] + "…"


class RecoveryScreen:
    """Shown in place of a screen whose ``mount`` raised (see the module's docstring)."""

    def __init__(self, app: Any, route: tuple[str, ...], error: BaseException) -> None:
        self.app = app
        self.route = route
        self.error = error
        self.listeners = Listeners()
        self.root: Any = None
        self.status: Any = None
        self.confirm: Any = None

    def mount(self, container: Any) -> None:
        kind = self.route[0] if self.route else "home"
        self.root = el("div", "recovery", None, {"data-recovery": kind})
        self.root.appendChild(el("section", "home-intro", None, {"aria-labelledby": "recovery-title"}, [
            el("h1", "home-title", t("recovery.title"), {"id": "recovery-title"}),
            el("p", "recovery-what", what_failed(self.route)),
            el("p", "home-lead", t("recovery.safe")),
        ]))
        actions = el("div", "recovery-actions")
        actions.appendChild(button(t("recovery.export"), lambda event: self._export(), self.listeners,
                                   "btn btn-primary", {"data-action": "export-all"}))
        if failing_save(self.route) is not None:
            actions.appendChild(button(t("recovery.put_aside"), lambda event: self._put_aside(), self.listeners,
                                       "btn", {"data-action": "put-aside"}))
        elif tuple(self.route) in LISTING_ROUTES and saved_game_keys():
            actions.appendChild(button(t("recovery.put_aside_all", count=len(saved_game_keys())),
                                       lambda event: self._put_all_aside(), self.listeners,
                                       "btn", {"data-action": "put-aside-all"}))
        actions.appendChild(button(t("recovery.reset"), lambda event: self._ask_reset(), self.listeners,
                                   "btn btn-danger-soft", {"data-action": "reset"}))
        actions.appendChild(button(t("recovery.home"), lambda event: self._home(), self.listeners,
                                   "btn btn-ghost", {"data-action": "home"}))
        self.root.appendChild(actions)
        self.status = el("p", "recovery-status", None, {"role": "status"})
        self.root.appendChild(self.status)
        self.confirm = el("div", "recovery-confirm", None, {"hidden": True, "role": "group",
                                                            "aria-labelledby": "recovery-confirm-text"}, [
            el("p", None, t("recovery.reset_confirm"), {"id": "recovery-confirm-text"}),
            el("div", "action-row", None, None, [
                button(t("recovery.reset_yes"), lambda event: self._reset(), self.listeners,
                       "btn btn-danger-soft", {"data-action": "reset-yes"}),
                button(t("recovery.reset_no"), lambda event: self._cancel_reset(), self.listeners,
                       "btn", {"data-action": "reset-no"}),
            ]),
        ])
        self.root.appendChild(self.confirm)
        self.root.appendChild(el("details", "recovery-details", None, None, [
            el("summary", None, t("recovery.details")),
            el("code", None, technical(self.error)),
        ]))
        container.appendChild(self.root)
        self.root.querySelector("h1").setAttribute("tabindex", "-1")
        self.root.querySelector("h1").focus()

    def unmount(self) -> None:
        self.listeners.clear()
        if self.root is not None:
            self.root.remove()

    # ----- actions -------------------------------------------------------------------
    def _export(self) -> None:
        try:
            text, count = storage.backup_text()
            stamp = str(js.Date.new().toISOString())[:10]
            js.tesseraUtil.download(f"tessera-backup-{stamp}.json", text)
        except Exception as error:   # say so rather than fail a second time
            js.console.error(f"backup failed: {technical(error)}")
            set_text(self.status, t("recovery.export_failed"))
            return
        set_text(self.status, t("recovery.exported", count=count))

    def _put_aside(self) -> None:
        session_id = failing_save(self.route)
        if session_id is None:
            return
        key = storage.session_key(session_id)
        raw = storage.get_text(key)
        problem = storage.put_aside(key, raw, technical(self.error)) if raw is not None else None
        if problem is not None and problem.aside_key is None:   # storage full: it could not be copied
            set_text(self.status, t("recovery.put_aside_full"))
            return
        self._home()   # first: the notice is the home screen's
        self.app.notice(Message("recovery.put_aside_done"), "info", sticky=True)

    def _put_all_aside(self) -> None:
        moved = left = 0
        for key in saved_game_keys():
            raw = storage.get_text(key)
            if raw is None:
                continue
            problem = storage.put_aside(key, raw, technical(self.error))
            moved, left = (moved + 1, left) if problem.aside_key is not None else (moved, left + 1)
        if left:   # storage full: those could not be copied, and are left as they were
            set_text(self.status, t("recovery.put_aside_all_full", count=left))
            return
        self._home()   # first: the notice is the home screen's
        self.app.notice(Message("recovery.put_aside_all_done", count=moved), "info", sticky=True)

    def _ask_reset(self) -> None:
        self.confirm.hidden = False
        self.confirm.querySelector("button").focus()

    def _cancel_reset(self) -> None:
        self.confirm.hidden = True

    def _reset(self) -> None:
        count = storage.reset()
        js.console.warn(f"storage reset from the recovery screen: {count} values removed")
        self._home()   # first: the notice is the home screen's
        self.app.notice(Message("recovery.reset_done"), "info", sticky=True)

    def _home(self) -> None:
        self.app.home()
