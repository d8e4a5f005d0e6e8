"""The page-wide notices whose one action is a reload: a new version, damaged files.

- **A new version is ready.**  A new build's service worker waits instead of
  taking over a running tab (assets/sw.js); assets/js/update.js finds it and
  fires ``tessera:update-ready``: "A new version of Tessera is ready.
  [Reload]".  Reload hands over to the new build (``tesseraUpdate.apply()``:
  the waiting worker takes over and the tab reloads once); closing the notice
  keeps this tab on the version it runs, and the next load of the page offers
  the update again.
- **Some files are damaged.**  The app runs from its memory snapshot, and the
  package's files (the parts left for later, a rules page's, and the sources
  tracebacks quote) are written once the first screen is up
  (assets/js/pyodide-snapshot.mjs).  When ``tessera.zip`` cannot be read (its
  copy damaged where the service worker keeps it), the loader fires
  ``tessera:files-damaged``: "Some of Tessera's files are damaged. [Reload]",
  whose reload first lets go of the site's caches (``tesseraBoot.repair``,
  assets/js/boot.js), so the files come from the host again.

Each notice is shown once, also when its event came before Python started,
and is worded again on a language change.
"""

from __future__ import annotations

from typing import Any

import js  # type: ignore[import-not-found]

from ..i18n import t
from .dom import Listeners, button, el, present, set_text

NOTICE_NAME = "update"
"""``data-notice`` of the update's notice, for styles and tests."""
DAMAGED_NOTICE_NAME = "files-damaged"
"""``data-notice`` of the damaged files' notice."""


class ReloadNotice:
    """A notice of the whole app, until closed, with a Reload button."""

    name = ""
    text_key = ""
    action = ""
    """``data-action`` of the Reload button."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.box: Any = None
        self.listeners = Listeners()        # the notice's buttons
        self._page_listeners = Listeners()  # the page-long event that shows it

    def show(self) -> None:
        if self.box is not None and self.box.isConnected:
            return
        self.listeners.clear()
        box = el("div", f"notice notice-info notice-{self.name}", None,
                 {"role": "status", "data-notice": self.name})
        box.appendChild(el("span", "notice-text", t(self.text_key)))
        actions = el("span", "notice-actions")
        actions.appendChild(button(t("update.reload"), lambda event: self.reload(), self.listeners,
                                   "btn btn-primary btn-small", {"data-action": self.action}))
        box.appendChild(actions)
        box.appendChild(button(t("dialog.close"), lambda event: self.close(), self.listeners,
                               "notice-close", icon="close"))
        self.app.notice_list.container.appendChild(box)   # its own notice: the whole app's, until closed
        self.box = box

    def reload(self) -> None:
        reload_button = self.box.querySelector(f"[data-action={self.action}]") if self.box is not None else None
        if present(reload_button):
            reload_button.disabled = True
        self.act()

    def install(self) -> None:
        """Start listening for the event that shows the notice."""
        raise NotImplementedError

    def act(self) -> None:
        """What the Reload button does."""
        raise NotImplementedError

    def close(self) -> None:
        self.listeners.clear()
        if self.box is not None:
            self.box.remove()
        self.box = None

    def relabel(self) -> None:
        """Word the notice again in the language just chosen."""
        if self.box is None or not self.box.isConnected:
            return
        set_text(self.box.querySelector(".notice-text"), t(self.text_key))
        set_text(self.box.querySelector(f"[data-action={self.action}]"), t("update.reload"))
        close = self.box.querySelector(".notice-close")
        close.setAttribute("aria-label", t("dialog.close"))
        close.setAttribute("title", t("dialog.close"))


class UpdateNotice(ReloadNotice):
    """Shows the notice when update.js says a new build waits."""

    name = NOTICE_NAME
    text_key = "update.ready"
    action = "update-reload"

    def install(self) -> None:
        update = getattr(js.window, "tesseraUpdate", None)
        if not present(update):
            return  # no service worker support (or the script failed): nothing to offer
        self._page_listeners.on(js.window, str(update.event), lambda event: self.show())
        if update.waiting:
            self.show()

    def act(self) -> None:
        """Let the new build in; update.js reloads the tab once it has taken over."""
        js.window.tesseraUpdate.apply()


class DamagedFilesNotice(ReloadNotice):
    """Shows the notice when the loader could not write the package's files."""

    name = DAMAGED_NOTICE_NAME
    text_key = "update.files_damaged"
    action = "files-reload"

    def install(self) -> None:
        self._page_listeners.on(js.window, "tessera:files-damaged", lambda event: self.show())
        if present(getattr(js.window, "tesseraFilesDamaged", None)):
            self.show()

    def act(self) -> None:
        """The site's caches let go of, then a reload: the files come from the host again."""
        boot = getattr(js.window, "tesseraBoot", None)
        if present(boot) and present(getattr(boot, "repair", None)):
            boot.repair()
        else:
            js.window.location.reload()


_NOTICES: list[ReloadNotice] = []


def install(app: Any) -> None:
    """Start listening for a waiting build and for damaged files (once per page)."""
    if not _NOTICES:
        _NOTICES.extend((UpdateNotice(app), DamagedFilesNotice(app)))
        for notice in _NOTICES:
            notice.install()


def relabel() -> None:
    for notice in _NOTICES:
        notice.relabel()
