"""A game board on a canvas: the only place the board touches ``js``.

``BoardComponent`` mounts a ``BoardView`` (pure Python drawing and
hit-testing) on a ``<canvas>`` inside a host element.  Each frame is drawn
into a ``DrawList`` and handed to ``assets/js/draw.js`` in one interop call.
The canvas is sharp on HiDPI screens (backing store = CSS size x
devicePixelRatio), follows its host's width through a ``ResizeObserver``,
takes mouse, pen and touch input through pointer events (no click delay:
``touch-action: none``) and the keyboard (arrows move a cursor, Enter or
Space taps, Escape deselects).  Any number of components can live on one
page; ``destroy`` releases every listener and proxy.

For tests, after every layout the canvas carries ``data-geometry`` (JSON:
origin ``x``, ``y`` and ``spacing`` in CSS pixels, ``flipped``, ``width``,
``height``), ``data-position`` (the game's position string) and
``data-draws`` (a frame counter).
"""

from __future__ import annotations

import json
import time
from typing import Any, Callable

import js  # type: ignore[import-not-found]
from pyodide.ffi import create_proxy, to_js  # type: ignore[import-not-found]

from ..core.draw import DrawList
from ..core.game import Game, Move
from ..core.view import BoardView, ViewState

ARROWS = {"ArrowLeft": (-1, 0), "ArrowRight": (1, 0), "ArrowUp": (0, -1), "ArrowDown": (0, 1)}


class BoardComponent:
    """One interactive (or display-only) board on the page."""

    def __init__(self, host: Any, view: BoardView, on_move: Callable[[Move], Any] | None = None,
                 *, interactive: bool = True, label: str = "", max_height: float | None = None) -> None:
        """Create the canvas inside ``host``.

        ``on_move(move)`` is called when the player completes a move; the
        owner is expected to push it and call ``show`` again.  Without
        ``on_move`` the component pushes the move onto its game itself (a
        free-play board).  ``max_height`` (CSS pixels) caps the board size
        besides the host's width; a host with ``data-fit="contain"`` also
        caps it at the host's own height.
        """
        self.host = host
        self.view = view
        self.on_move = on_move
        self.max_height = max_height
        self.game: Game | None = None
        self.state = ViewState(interactive=interactive)
        self.width = 0.0
        self.height = 0.0
        self.draws = 0
        self.last_draw_ms = 0.0
        self._down_cell: Any = None
        self._destroyed = False

        canvas = js.document.createElement("canvas")
        canvas.className = "tessera-board"
        canvas.tabIndex = 0
        canvas.setAttribute("role", "img" if not interactive else "application")
        if label:
            canvas.setAttribute("aria-label", label)
        style = canvas.style
        style.display = "block"
        style.touchAction = "none"
        style.userSelect = "none"
        style.setProperty("-webkit-tap-highlight-color", "transparent")
        style.margin = "0 auto"
        # The keyboard cursor drawn on the board is the focus indicator.
        style.outline = "none"
        self.canvas = canvas
        host.appendChild(canvas)

        self._listeners: list[tuple[str, Any]] = []
        for event, handler in (("pointerdown", self._on_pointer_down),
                               ("pointerup", self._on_pointer_up),
                               ("pointercancel", self._on_pointer_cancel),
                               ("keydown", self._on_key_down),
                               ("focus", self._on_focus),
                               ("blur", self._on_blur),
                               ("contextmenu", self._on_context_menu)):
            proxy = create_proxy(handler)
            canvas.addEventListener(event, proxy)
            self._listeners.append((event, proxy))
        self._resize_proxy = create_proxy(self._on_resize)
        self._observer = js.ResizeObserver.new(self._resize_proxy)
        self._observer.observe(host)
        self._update_cursor_style()

    # ----- public API ------------------------------------------------------------
    def show(self, game: Game, state: ViewState | None = None) -> None:
        """Display ``game`` (and, if given, a new view state) and redraw."""
        self.game = game
        if state is not None:
            cursor = self.state.highlights.get("cursor")
            self.state = state
            if cursor is not None and "cursor" not in state.highlights:
                state.highlights["cursor"] = cursor
        self._drop_stale_selection()
        self._layout()
        self.redraw()

    def set_interactive(self, flag: bool) -> None:
        """Allow or block input (blocked while a bot thinks or after the end)."""
        self.state.interactive = bool(flag)
        if not flag:
            self.state.selected = None
        self.canvas.setAttribute("role", "application" if flag else "img")
        self._update_cursor_style()
        self.redraw()

    def set_flipped(self, flag: bool) -> None:
        self.state.flipped = bool(flag)
        self.redraw()

    def set_label(self, text: str) -> None:
        self.canvas.setAttribute("aria-label", text)

    def redraw(self) -> None:
        """Draw the current game into the canvas (one interop call)."""
        if self._destroyed or self.game is None or self.width <= 0 or self.height <= 0:
            return
        started = time.perf_counter()
        drawing = DrawList(self.width, self.height)
        self.view.draw(self.game, self.state, drawing)
        js.tesseraDraw.paint(self.canvas, self.width, self.height,
                             to_js(drawing.ops), to_js(drawing.strings))
        self.last_draw_ms = (time.perf_counter() - started) * 1000.0
        self.draws += 1
        dataset = self.canvas.dataset
        dataset.draws = str(self.draws)
        dataset.drawMs = f"{self.last_draw_ms:.2f}"
        dataset.position = self.game.position()

    def destroy(self) -> None:
        """Remove the canvas and release every listener and proxy."""
        if self._destroyed:
            return
        self._destroyed = True
        self._observer.disconnect()
        self._resize_proxy.destroy()
        for event, proxy in self._listeners:
            self.canvas.removeEventListener(event, proxy)
            proxy.destroy()
        self._listeners.clear()
        if self.canvas.parentNode:  # JS null arrives as the falsy jsnull, not None
            self.canvas.parentNode.removeChild(self.canvas)
        self.game = None

    # ----- layout ---------------------------------------------------------------
    def _layout(self) -> bool:
        """Fit the canvas to the host; True when the size changed."""
        if self._destroyed:
            return False
        available = float(self.host.clientWidth)
        if available <= 0:
            return False
        aspect = self.view.aspect(self.game) if self.game is not None else 1.0
        width = available
        limit = self.max_height
        if self.host.getAttribute("data-fit") == "contain" and self.host.clientHeight > 0:
            host_height = float(self.host.clientHeight)
            limit = host_height if limit is None else min(limit, host_height)
        if limit is not None and width / aspect > limit:
            width = limit * aspect
        width = float(int(width))
        height = float(int(width / aspect))
        if width == self.width and height == self.height:
            return False
        self.width, self.height = width, height
        style = self.canvas.style
        style.width = f"{width:.0f}px"
        style.height = f"{height:.0f}px"
        self._publish_geometry()
        return True

    def _publish_geometry(self) -> None:
        geometry = getattr(self.view, "geometry", None)
        data: dict[str, Any] = {"width": self.width, "height": self.height, "flipped": self.state.flipped}
        if geometry is not None:
            x, y, spacing = geometry(self.width, self.height)
            data.update(x=x, y=y, spacing=spacing)
        self.canvas.dataset.geometry = json.dumps(data)

    def _on_resize(self, entries: Any = None, observer: Any = None) -> None:
        if self._layout():
            self.redraw()

    # ----- input -----------------------------------------------------------------
    def _cell_from_event(self, event: Any) -> Any:
        if self.game is None:
            return None
        rect = self.canvas.getBoundingClientRect()
        x = float(event.clientX) - float(rect.left)
        y = float(event.clientY) - float(rect.top)
        return self.view.cell_at(self.game, self.state, self.width, self.height, x, y)

    def _on_pointer_down(self, event: Any) -> None:
        if self.game is None or not self.state.interactive:
            return
        if event.button != 0:
            return
        event.preventDefault()
        try:
            self.canvas.setPointerCapture(event.pointerId)
        except Exception:  # the pointer may already be gone
            pass
        self.canvas.focus(to_js({"preventScroll": True}, dict_converter=js.Object.fromEntries))
        self.state.highlights.pop("cursor", None)
        cell = self._cell_from_event(event)
        self._down_cell = cell
        self._tap(cell)

    def _on_pointer_up(self, event: Any) -> None:
        """Releasing over another point after pressing a checker moves it (drag)."""
        down, self._down_cell = self._down_cell, None
        if self.game is None or not self.state.interactive or self.state.selected is None:
            return
        cell = self._cell_from_event(event)
        if cell is not None and cell != down and down == self.state.selected:
            self._tap(cell)

    def _on_pointer_cancel(self, event: Any) -> None:
        self._down_cell = None

    def _on_context_menu(self, event: Any) -> None:
        if self.state.interactive:
            event.preventDefault()

    def _on_key_down(self, event: Any) -> None:
        if self.game is None or not self.state.interactive:
            return
        key = event.key
        highlights = self.state.highlights
        if key in ARROWS:
            event.preventDefault()
            event.stopPropagation()
            cursor = highlights.get("cursor")
            if cursor is None:
                highlights["cursor"] = self._initial_cursor()
            else:
                step = getattr(self.view, "step_cell", None)
                if step is not None:
                    dx, dy = ARROWS[key]
                    highlights["cursor"] = step(cursor, dx, dy, self.state.flipped)
            self.redraw()
        elif key in ("Enter", " "):
            event.preventDefault()
            event.stopPropagation()
            cursor = highlights.get("cursor")
            if cursor is None:
                highlights["cursor"] = self._initial_cursor()
                self.redraw()
            else:
                self._tap(cursor)
        elif key == "Escape":
            if self.state.selected is not None or "cursor" in highlights:
                event.preventDefault()
                event.stopPropagation()
                self.state.selected = None
                highlights.pop("cursor", None)
                self.redraw()

    def _on_focus(self, event: Any) -> None:
        """Reaching the board with Tab shows the keyboard cursor at once."""
        if self.game is None or not self.state.interactive:
            return
        try:
            keyboard = bool(self.canvas.matches(":focus-visible"))
        except Exception:  # very old engines: no :focus-visible
            keyboard = False
        if keyboard and self.state.highlights.get("cursor") is None:
            self.state.highlights["cursor"] = self._initial_cursor()
            self.redraw()

    def _on_blur(self, event: Any) -> None:
        if self.state.highlights.pop("cursor", None) is not None:
            self.redraw()

    def _initial_cursor(self) -> Any:
        if self.state.selected is not None:
            return self.state.selected
        start = getattr(self.view, "initial_cursor", None)
        return start(self.game, self.state) if start is not None else None

    def _tap(self, cell: Any) -> None:
        if self.game is None:
            return
        result = self.view.tap(self.game, self.state, cell)
        self.state.selected = result.selected
        if result.move is None:
            self.redraw()
            return
        if self.on_move is not None:
            self.on_move(result.move)
            # The owner normally calls show(); make sure the board is current.
            self.redraw()
        else:
            self.game.push(result.move)
            self.state.last_move = None
            self.state.highlights.pop("converted", None)
            self.redraw()

    def _drop_stale_selection(self) -> None:
        selected = self.state.selected
        if selected is None or self.game is None:
            return
        piece_at = getattr(self.game, "piece_at", None)
        if self.game.is_over() or (piece_at is not None and piece_at(selected) != self.game.to_move):
            self.state.selected = None

    def _update_cursor_style(self) -> None:
        self.canvas.style.cursor = "pointer" if self.state.interactive else "default"
