"""The Python side of ``<tessera-board>``: what ``assets/js/embed.js`` calls.

One Pyodide serves every board of a page.  ``embed.js`` starts it (from
the site's memory snapshot, without PyScript), unpacks ``tessera.zip``
where the app's ``pyscript.toml`` puts it, imports this module and calls,
for each board, in turn:

* ``mount(element, frame, options)``: build the board in ``frame`` (a
  ``div`` in the element's shadow root) from ``options`` (a JS object: the
  attributes as strings, ``record``, the record's text, ``fetchError`` when
  its ``src`` could not be read, ``theme``, the element's resolved
  ``light``/``dark``).  Returns the board's id, or 0 when the board cannot
  be shown; then the frame shows why, in the board's language.  Never raises.
* ``picture(id, theme)``: the board's opening position as SVG, which the
  element keeps to show on the page's next visit before Python starts.
* ``go_to(id, ply)`` (``element.goTo(n)``), ``set_theme(id, theme)`` (the
  page's colour scheme changed), ``set_look(id, name, value)`` (``coords``
  or ``flip`` changed: the board redraws and keeps its place),
  ``unmount(id)`` (the element left the page).

The app itself has boards too: its rules pages are made of
``<tessera-board example=...>`` elements.  There Python already runs, so
``serve_app`` hands this module to ``embed.js`` (``tesseraEmbedModule``)
instead of a second Pyodide, and leaves the app's language alone.

Boards live in ``_boards`` by id, so JavaScript holds plain numbers, never
Python objects it would have to release.
"""

from __future__ import annotations

import traceback
from typing import Any

import js  # type: ignore[import-not-found]

from ...core.game import excerpt
from ...i18n import set_language
from ..dom import el, present
from .board import EmbedBoard
from .example import ExampleBoard
from .modes import MODE_BOARDS
from .spec import (EmbedError, ExamplePlan, error_text, flag_value, language, make_plan, parse_spec,
                         picture_svg)

_boards: dict[int, EmbedBoard] = {}
_next_id = 1
_language_set = False


def _options(options: Any) -> dict[str, Any]:
    """The JS options object as a dict of strings (or None)."""
    data = options.to_py() if hasattr(options, "to_py") else dict(options or {})
    return {str(key): (None if value is None or not present(value) else str(value)) for key, value in data.items()}


def mount(element: Any, frame: Any, options: Any) -> int:
    """Build one board; 0 and a message in the frame when it cannot be shown."""
    global _next_id, _language_set
    lang = "en"
    try:
        data = _options(options)
        lang = language(data.get("lang"))
        if not _language_set:   # words the board component says itself (keyboard hint, zoom)
            set_language(lang)
            _language_set = True
        if data.get("fragmentError") is not None:
            raise EmbedError("embed.error.fragment", detail=" ".join(data["fragmentError"].split())[:200])
        if data.get("fetchError") is not None:
            raise EmbedError("embed.error.fetch", src=excerpt(data.get("src") or ""),
                             detail=" ".join(data["fetchError"].split())[:200])   # the browser's words
        spec = parse_spec(data)
        plan = make_plan(spec, data.get("record") or "")
        theme = data.get("theme") if data.get("theme") in ("light", "dark") else "light"
        if isinstance(plan, ExamplePlan):
            board: EmbedBoard = ExampleBoard(element, frame, plan, theme)
        else:
            board = MODE_BOARDS[spec.mode](element, frame, plan, theme)
        board.start()
        for node in list(frame.querySelectorAll(".tb-picture")):   # the live board takes its place
            node.remove()
    except Exception as error:   # bad input is a message in the element, never an exception in the page
        show_error(element, frame, error_text(error, lang))
        if not _is_keyed(error):   # a slip of ours: the console has the details
            js.console.error("tessera-board: " + "".join(traceback.format_exception(error)))
        return 0
    board_id, _next_id = _next_id, _next_id + 1
    _boards[board_id] = board
    element.dataset.state = "ready"
    return board_id


def _is_keyed(error: BaseException) -> bool:
    return isinstance(getattr(error, "key", None), str)


def show_error(element: Any, frame: Any, text: str) -> None:
    """Put ``text`` where the board would be (its picture or placeholder goes)."""
    for node in list(frame.querySelectorAll(".tb-picture, .tb-live, .tb-error")):
        node.remove()
    frame.appendChild(el("p", "tb-error", text, {"role": "alert"}))
    element.dataset.state = "error"


def go_to(board_id: int, ply: Any) -> None:
    board = _boards.get(int(board_id))
    try:
        number = int(float(ply))
    except (TypeError, ValueError, OverflowError):
        return
    if board is not None:
        board.go_to(number)


def set_theme(board_id: int, theme: str) -> None:
    board = _boards.get(int(board_id))
    if board is not None and theme in ("light", "dark"):
        board.set_theme(theme)


def picture(board_id: int, theme: str) -> str:
    """The board's opening position as the build would draw it ("" when the
    board has moved on from it: replaying would be a long task on a long record)."""
    board = _boards.get(int(board_id))
    if board is None or theme not in ("light", "dark"):
        return ""
    plan, game = board.plan, board.game
    if isinstance(board, ExampleBoard):
        if board.step != plan.start or board.own:
            return ""
    elif game.move_stack != plan.moves[:plan.start]:
        return ""
    try:
        return picture_svg(plan, theme, board.lang, game=game)
    except Exception as error:   # a picture is a nicety: never an error in the page
        js.console.error("tessera-board: picture: " + "".join(traceback.format_exception(error)))
        return ""


def set_look(board_id: int, name: str, value: Any) -> None:
    """A live attribute changed: ``coords`` or ``flip`` (a string, or None when removed)."""
    board = _boards.get(int(board_id))
    if board is None:
        return
    text = None if value is None or not present(value) else str(value)
    if name == "coords":
        board.set_coordinates(bool(flag_value(text)))
    elif name == "flip":
        board.set_flipped(flag_value(text))


def serve_app() -> None:
    """Let the app's own ``<tessera-board>`` elements use the app's Python:
    ``embed.js`` takes this module from ``globalThis.tesseraEmbedModule``
    instead of starting a Pyodide, and no board sets the app's language."""
    global _language_set
    _language_set = True
    if not present(getattr(js.globalThis, "tesseraEmbedModule", None)):
        import sys

        from pyodide.ffi import create_proxy  # type: ignore[import-not-found]

        js.globalThis.tesseraEmbedModule = create_proxy(sys.modules[__name__])


def unmount(board_id: int) -> None:
    board = _boards.pop(int(board_id), None)
    if board is not None:
        board.destroy()
