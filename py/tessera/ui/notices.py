"""The page's notices: short messages that float over the page.

A play-test found notices that stuck: an English relay error stayed on
every later screen, also after switching to Russian; one pushed a running
clock half off the screen; on a phone old ones piled up.  So here:

- a notice belongs to the screen it was raised for (the route shown, or
  the one being opened when it is raised while the app changes screens)
  and goes when another route is shown; a notice of the whole app
  (``scope="app"``: storage is full) stays until closed;
- its words are a ``Message`` or a function giving the text, so a language
  change words every notice shown again (plain text is kept as written);
- an information notice goes by itself after ``INFO_MS``; every notice has
  a close button; the same words twice show once (the timer starts again);
  at most ``MAX_SHOWN`` are shown, the oldest going first;
- the notices float over the page (``app.css``: fixed, in a corner), so
  nothing under them (the board, the clocks, the move list) ever moves.
"""

from __future__ import annotations

from typing import Any, Callable, Union

import js  # type: ignore[import-not-found]
from pyodide.ffi import create_once_callable  # type: ignore[import-not-found]

from ..i18n import Message, say, t
from .dom import Listeners, button, el

Words = Union[str, Message, Callable[[], str]]
INFO_MS = 6000
MAX_SHOWN = 3
APP_WIDE = "app"


def wording(words: Words) -> str:
    """The words in the page's language now."""
    if isinstance(words, Message):
        return say(words)
    if callable(words):
        return words()
    return str(words)


class Notice:
    """One notice shown: its box, its words (worded again on a language
    change), its kind, and its owner: the route it belongs to, or ``APP_WIDE``."""

    __slots__ = ("box", "words", "kind", "owner", "listeners")

    def __init__(self, box: Any, words: Words, kind: str, owner: Any) -> None:
        self.box = box
        self.words = words
        self.kind = kind
        self.owner = owner
        self.listeners = Listeners()

    @property
    def text_node(self) -> Any:
        return self.box.querySelector(".notice-text")


class Notices:
    """The notices shown in ``container`` (``#notices``)."""

    def __init__(self, container: Any) -> None:
        self.container = container
        self.shown: list[Notice] = []

    def show(self, words: Words, kind: str, sticky: bool, owner: Any) -> Any:
        """Show a notice (see the module docstring); its box."""
        text = wording(words)
        for notice in self.shown:   # the same words again: one notice, its time starts again
            if notice.kind == kind and wording(notice.words) == text and notice.owner == owner:
                self._expire_later(notice, sticky)
                return notice.box
        role = "alert" if kind == "error" else "status"
        box = el("div", f"notice notice-{kind}", None, {"role": role, "data-kind": kind})
        box.appendChild(el("span", "notice-text", text))
        notice = Notice(box, words, kind, owner)
        box.appendChild(button(t("dialog.close"), lambda event: self.close(notice), notice.listeners,
                               "notice-close", icon="close"))
        self.container.appendChild(box)
        self.shown.append(notice)
        while len(self.shown) > MAX_SHOWN:
            self.close(self.shown[0])
        self._expire_later(notice, sticky)
        return box

    def _expire_later(self, notice: Notice, sticky: bool) -> None:
        if sticky or notice.kind != "info":
            return
        stamp = notice.box.dataset.stamp = str(float(js.Date.now()))

        def expire() -> None:
            if notice in self.shown and str(notice.box.dataset.stamp) == stamp:
                self.close(notice)
        js.setTimeout(create_once_callable(expire), INFO_MS)

    def close(self, notice: Notice) -> None:
        if notice in self.shown:
            self.shown.remove(notice)
        notice.listeners.clear()
        notice.box.remove()

    def close_box(self, box: Any) -> None:
        """Close the notice shown in ``box`` (a caller that kept the box)."""
        for notice in list(self.shown):
            if notice.box == box:
                self.close(notice)

    def keep_only(self, owner: Any) -> None:
        """Another screen is shown: the notices of the others go."""
        for notice in list(self.shown):
            if notice.owner not in (owner, APP_WIDE):
                self.close(notice)

    def reword(self) -> None:
        """The language changed: every notice in the new language (and its close button's name)."""
        for notice in self.shown:
            notice.text_node.textContent = wording(notice.words)
            close = notice.box.querySelector(".notice-close")
            if close is not None:
                close.setAttribute("aria-label", t("dialog.close"))
                close.setAttribute("title", t("dialog.close"))
