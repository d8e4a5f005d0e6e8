"""The notice that a new version of the site is ready, with its Reload button.

A new build's service worker waits instead of taking over a running tab
(assets/sw.js); assets/js/update.js finds it and fires
``tessera:update-ready``.  This module words that in the player's language:
"A new version of Tessera is ready. [Reload]".  Reload hands over to the new
build (``tesseraUpdate.apply()``: the waiting worker takes over and the tab
reloads once); closing the notice keeps this tab on the version it runs, and
the next load of the page offers the update again.

The notice is shown once, also when the worker was found before Python
started (``tesseraUpdate.waiting``), and is worded again on a language change.
"""

from __future__ import annotations

from typing import Any

import js  # type: ignore[import-not-found]

from ..i18n import t
from .dom import Listeners, button, el, present, set_text

NOTICE_NAME = "update"
"""``data-notice`` of the notice, for styles and tests."""


class UpdateNotice:
    """Shows the notice when update.js says a new build waits."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.box: Any = None
        self.listeners = Listeners()        # the notice's buttons
        self._page_listeners = Listeners()  # the page-long "update ready" event

    def install(self) -> None:
        update = getattr(js.window, "tesseraUpdate", None)
        if not present(update):
            return  # no service worker support (or the script failed): nothing to offer
        self._page_listeners.on(js.window, str(update.event), lambda event: self.show())
        if update.waiting:
            self.show()

    def show(self) -> None:
        if self.box is not None and self.box.isConnected:
            return
        self.listeners.clear()
        box = el("div", "notice notice-info notice-update", None,
                 {"role": "status", "data-notice": NOTICE_NAME})
        box.appendChild(el("span", "notice-text", t("update.ready")))
        actions = el("span", "notice-actions")
        actions.appendChild(button(t("update.reload"), lambda event: self.reload(), self.listeners,
                                   "btn btn-primary btn-small", {"data-action": "update-reload"}))
        box.appendChild(actions)
        box.appendChild(button(t("dialog.close"), lambda event: self.close(), self.listeners,
                               "notice-close", icon="close"))
        self.app.notice_list.container.appendChild(box)   # its own notice: the whole app's, until closed
        self.box = box

    def reload(self) -> None:
        """Let the new build in; update.js reloads the tab once it has taken over."""
        reload_button = self.box.querySelector("[data-action=update-reload]") if self.box is not None else None
        if present(reload_button):
            reload_button.disabled = True
        js.window.tesseraUpdate.apply()

    def close(self) -> None:
        self.listeners.clear()
        if self.box is not None:
            self.box.remove()
        self.box = None

    def relabel(self) -> None:
        """Word the notice again in the language just chosen."""
        if self.box is None or not self.box.isConnected:
            return
        set_text(self.box.querySelector(".notice-text"), t("update.ready"))
        set_text(self.box.querySelector("[data-action=update-reload]"), t("update.reload"))
        close = self.box.querySelector(".notice-close")
        close.setAttribute("aria-label", t("dialog.close"))
        close.setAttribute("title", t("dialog.close"))


_NOTICE: UpdateNotice | None = None


def install(app: Any) -> None:
    """Start listening for a waiting build (once per page)."""
    global _NOTICE
    if _NOTICE is None:
        _NOTICE = UpdateNotice(app)
        _NOTICE.install()


def relabel() -> None:
    if _NOTICE is not None:
        _NOTICE.relabel()
