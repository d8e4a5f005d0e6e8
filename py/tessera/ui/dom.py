"""Small helpers to build DOM elements and to keep event proxies tidy.

Every Python callable handed to the browser needs a proxy that must be
destroyed when it is no longer used; ``Listeners`` owns the proxies of one
screen or dialog and releases them together (rendercanvas's habit).
"""

from __future__ import annotations

from typing import Any, Callable, Iterable

import js  # type: ignore[import-not-found]
from pyodide.ffi import create_once_callable, create_proxy, jsnull  # type: ignore[import-not-found]

Child = Any  # a DOM node, a string, or None (skipped)
SVG_NS = "http://www.w3.org/2000/svg"

ICONS: dict[str, tuple[str, ...]] = {
    # 24x24 filled shapes (drawn with currentColor): fonts in the wild lack ⏮ ⏭.
    "first": ("M5 6h2.6v12H5z", "M19 6v12l-9.5-6z"),
    "prev": ("M16.5 6v12L7 12z",),
    "next": ("M7.5 6v12L17 12z",),
    "last": ("M16.4 6H19v12h-2.6z", "M5 6v12l9.5-6z"),
    "close": ("M6.4 5 12 10.6 17.6 5 19 6.4 13.4 12 19 17.6 17.6 19 12 13.4 6.4 19 5 17.6 10.6 12 5 6.4z",),
    "settings": ("M19.14 12.94c.04-.3.06-.61.06-.94 0-.32-.02-.64-.07-.94l2.03-1.58a.49.49 0 0 0 .12-.61"
                 "l-1.92-3.32a.49.49 0 0 0-.59-.22l-2.39.96c-.5-.38-1.03-.7-1.62-.94l-.36-2.54a.48.48 0 0 0-.48-.41"
                 "h-3.84c-.24 0-.43.17-.47.41l-.36 2.54c-.59.24-1.13.57-1.62.94l-2.39-.96a.49.49 0 0 0-.59.22"
                 "L2.74 8.87c-.12.21-.08.47.12.61l2.03 1.58c-.05.3-.09.63-.09.94s.02.64.07.94l-2.03 1.58"
                 "a.49.49 0 0 0-.12.61l1.92 3.32c.12.22.37.29.59.22l2.39-.96c.5.38 1.03.7 1.62.94l.36 2.54"
                 "c.05.24.24.41.48.41h3.84c.24 0 .44-.17.47-.41l.36-2.54c.59-.24 1.13-.56 1.62-.94l2.39.96"
                 "c.22.08.47 0 .59-.22l1.92-3.32c.12-.22.07-.47-.12-.61l-2.01-1.58zM12 15.6a3.6 3.6 0 1 1 0-7.2"
                 " 3.6 3.6 0 0 1 0 7.2z",),
}


def el(tag: str, cls: str | None = None, text: str | None = None,
       attrs: dict[str, Any] | None = None, children: Iterable[Child] = ()) -> Any:
    """A new element: ``el("button", "btn", "Undo", {"type": "button"})``.

    Attributes with value ``None`` or ``False`` are left out, ``True``
    sets an empty attribute (``disabled``, ``hidden``).
    """
    node = js.document.createElement(tag)
    if cls:
        node.className = cls
    if text is not None:
        node.textContent = text
    for name, value in (attrs or {}).items():
        if value is None or value is False:
            continue
        node.setAttribute(name, "" if value is True else str(value))
    append(node, children)
    return node


def svg_icon(name: str, size: int = 20) -> Any:
    """An inline SVG icon from ``ICONS`` (hidden from screen readers)."""
    svg = js.document.createElementNS(SVG_NS, "svg")
    for key, value in (("viewBox", "0 0 24 24"), ("width", str(size)), ("height", str(size)),
                       ("aria-hidden", "true"), ("focusable", "false"), ("class", "icon")):
        svg.setAttribute(key, value)
    for d in ICONS[name]:
        path = js.document.createElementNS(SVG_NS, "path")
        path.setAttribute("d", d)
        path.setAttribute("fill", "currentColor")
        svg.appendChild(path)
    return svg


def append(parent: Any, children: Iterable[Child]) -> Any:
    for child in children:
        if child is None:
            continue
        parent.appendChild(js.document.createTextNode(child) if isinstance(child, str) else child)
    return parent


def present(value: Any) -> bool:
    """True unless ``value`` is JS ``null``/``undefined`` (``jsnull`` or None here)."""
    return value is not None and value is not jsnull


def clear(node: Any) -> None:
    node.replaceChildren()


def by_id(element_id: str) -> Any:
    return js.document.getElementById(element_id)


def set_flag(node: Any, name: str, flag: bool) -> None:
    """Set or remove a boolean attribute (``disabled``, ``hidden``, ``aria-pressed``...)."""
    if name.startswith("aria-"):
        node.setAttribute(name, "true" if flag else "false")
    elif flag:
        node.setAttribute(name, "")
    else:
        node.removeAttribute(name)


AFTER_PAINT_LATEST_MS = 100
"""A hidden page paints no frames: ``after_paint`` runs its callback on this timer there."""


def after_paint(callback: Callable[[], None]) -> None:
    """Run ``callback`` once, in a task after the next frame is painted.

    A timer set in an animation frame's callback runs after that frame's
    style, layout and paint, so what a task drew before it is on screen
    first.  A hidden page runs no animation frames: a timer runs the callback
    there (``AFTER_PAINT_LATEST_MS``, or as late as the browser holds timers).
    """
    done = False

    def run(*_: Any) -> None:
        nonlocal done
        if not done:
            done = True
            callback()

    js.requestAnimationFrame(create_once_callable(lambda *_: js.setTimeout(create_once_callable(run), 0)))
    js.setTimeout(create_once_callable(run), AFTER_PAINT_LATEST_MS)


def set_text(node: Any, text: str) -> None:
    if node.textContent != text:
        node.textContent = text


class Listeners:
    """Event listeners (and their proxies) of one screen, removed together."""

    def __init__(self) -> None:
        self._items: list[tuple[Any, str, Any]] = []

    def on(self, target: Any, event: str, handler: Callable[[Any], Any]) -> None:
        proxy = create_proxy(handler)
        target.addEventListener(event, proxy)
        self._items.append((target, event, proxy))

    def clear(self) -> None:
        """Remove every listener now; destroy the proxies a moment later.

        A handler often clears its own screen (a button that navigates
        away), and a proxy must not be destroyed while it is running.
        """
        items, self._items = self._items, []
        for target, event, proxy in items:
            target.removeEventListener(event, proxy)
        if items:
            js.setTimeout(create_once_callable(lambda: [proxy.destroy() for _, _, proxy in items]), 0)


def button(label: str, on_click: Callable[[Any], Any], listeners: Listeners,
           cls: str = "btn", attrs: dict[str, Any] | None = None,
           icon: str | None = None) -> Any:
    """A ``<button type=button>`` with a click handler owned by ``listeners``.

    With ``icon`` (a name in ``ICONS``) the visible content is the icon and
    ``label`` becomes the accessible name (and tooltip).
    """
    attributes = {"type": "button", **(attrs or {})}
    if icon is not None:
        attributes.setdefault("aria-label", label)
        attributes.setdefault("title", label)
        node = el("button", cls, None, attributes, [svg_icon(icon)])
    else:
        node = el("button", cls, label, attributes)
    listeners.on(node, "click", on_click)
    return node
