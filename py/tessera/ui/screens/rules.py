"""The rules screen: a frame around the game's rules page (``rules_page``).

The rules page itself (texts, worked examples, diagrams) belongs to the
board side of the UI; this screen only mounts it under the app's header and
offers a way to start playing.  ``#/rules/<game>/<section>`` opens the
page at one of its sections (a link to Quadrotone's pattern catalog).
"""

from __future__ import annotations

from typing import Any

from ... import i18n
from ...i18n import t
from ..dom import Listeners, button, el


class RulesScreen:
    def __init__(self, app: Any, game_id: str, section: str | None = None) -> None:
        self.app = app
        self.game_id = game_id
        self.section = section
        """Where the page opens (``#/rules/<game>/<section>``, e.g. Quadrotone's catalog)."""
        self.listeners = Listeners()
        self.root: Any = None
        self.page: Any = None

    def mount(self, container: Any) -> None:
        self.app.set_nav([(t("nav.games"), "#/")])
        self.root = el("div", "rules-screen", None, {"data-game": self.game_id})
        bar = el("div", "rules-bar")
        bar.appendChild(el("a", "btn btn-ghost", "← " + t("nav.games"), {"href": "#/"}))
        bar.appendChild(button(t("home.play"), lambda e: self._play(), self.listeners, "btn btn-primary",
                               {"data-action": "new-game",
                                "aria-label": t("home.play_game", game=t(f"game.{self.game_id}.title"))}))
        self.root.appendChild(bar)
        body = el("div", "rules-body")
        self.root.appendChild(body)
        container.appendChild(self.root)
        from . import rules_page
        self.page = rules_page.mount(body, i18n.language(), game_id=self.game_id)

    def shown(self) -> None:
        """Called by the app once the screen is in place: open at the section asked for."""
        if self.section and self.page is not None:
            self.page.show_section(self.section)

    def unmount(self) -> None:
        if self.page is not None:
            self.page.destroy()
        self.listeners.clear()
        if self.root is not None:
            self.root.remove()

    def _play(self) -> None:
        from ..dialogs import new_game_dialog
        new_game_dialog(self.app, self.game_id)
