"""Zoom, pan and the toolbar under a zoomable board (``BoardComponent``'s part).

A view with ``zoomable = True`` (a 39x32 Dots field on a phone) is drawn at
the zoomed size and shifted by the pan offset (``core.view.Viewport``).
Pinch and two-finger drag, a one-finger or mouse drag while zoomed in, the
mouse wheel, and the -, + and fit buttons all change that one transform; a
tap counts on release when the pointer did not travel (a drag pans).  The
confirm button of a touch "ghost" move lives in the same toolbar.

A mixin, not a component of its own: it reads and changes the board's
state (``viewport``, ``state``, ``game``, size) and calls its redraw, and
keeping it apart keeps ``canvas.py`` about drawing and input.
"""

from __future__ import annotations

import math
from typing import Any, Callable

import js  # type: ignore[import-not-found]
from pyodide.ffi import create_proxy  # type: ignore[import-not-found]

from ...i18n import t

ZOOM_STEP = 1.5
MAX_SPACING = 46.0
"""Zooming in stops when points are this far apart (CSS pixels)."""
DRAG_SLOP = 8.0
"""A pointer that travels further than this (CSS pixels) pans instead of tapping."""


class BoardZoomMixin:
    """Zoom and pan for ``BoardComponent`` (see the module docstring)."""

    # Provided by BoardComponent.
    viewport: Any
    state: Any
    game: Any
    view: Any
    width: float
    height: float
    zoomable: bool

    def _build_toolbar(self) -> None:
        """-, + and fit buttons under the board, and the confirm button."""
        self._toolbar_listeners: list[tuple[Any, Any]] = []
        bar = js.document.createElement("div")
        bar.className = "board-toolbar"
        bar.setAttribute("role", "toolbar")
        bar.setAttribute("aria-label", t("board.toolbar"))

        def add(text: str, label: str, action: str, handler: Callable[[], Any], cls: str = "btn btn-icon") -> Any:
            node = js.document.createElement("button")
            node.type = "button"
            node.className = cls
            node.textContent = text
            node.setAttribute("aria-label", label)
            node.setAttribute("title", label)
            node.dataset.action = action
            proxy = create_proxy(lambda event: handler())
            node.addEventListener("click", proxy)
            self._toolbar_listeners.append((node, proxy))
            bar.appendChild(node)
            return node

        self.confirm_btn = add("✓", t("board.confirm"), "confirm-move", self._confirm_ghost,
                               "btn btn-primary board-confirm")
        self.confirm_btn.hidden = True
        spacer = js.document.createElement("span")
        spacer.className = "board-toolbar-gap"
        bar.appendChild(spacer)
        self.zoom_out_btn = add("−", t("board.zoom_out"), "zoom-out", lambda: self.zoom_by(1 / ZOOM_STEP))
        self.zoom_in_btn = add("+", t("board.zoom_in"), "zoom-in", lambda: self.zoom_by(ZOOM_STEP))
        self.zoom_fit_btn = add("⤢", t("board.zoom_fit"), "zoom-fit", self.reset_zoom)
        self.toolbar = bar
        self.host.appendChild(bar)

    def _update_toolbar(self) -> None:
        if not self.zoomable or self._destroyed:
            return
        ghost = self.state.selected is not None and bool(self.state.highlights.get("confirm")) \
            and self.state.interactive
        self.confirm_btn.hidden = not ghost
        if ghost:
            name = getattr(self.view, "cell_label", None)
            text = name(self.game, self.state.selected) if name is not None else ""
            self.confirm_btn.textContent = "✓ " + t("board.confirm_move", move=text)
        self.zoom_out_btn.disabled = self.viewport.zoom <= 1.0
        self.zoom_in_btn.disabled = self.viewport.zoom >= self._max_zoom() - 1e-6
        self.zoom_fit_btn.disabled = self.viewport.zoom <= 1.0

    def _confirm_ghost(self) -> None:
        if self.state.selected is not None:
            self._tap(self.state.selected)

    def _max_zoom(self) -> float:
        spacing = self._spacing(1.0)
        if spacing <= 0:
            return 1.0
        return max(1.0, MAX_SPACING / spacing)

    def _spacing(self, zoom: float) -> float:
        geometry = getattr(self.view, "geometry_for", None)
        if geometry is None or self.game is None or self.width <= 0:
            return 0.0
        return float(geometry(self.game, self.width * zoom, self.height * zoom)[2])

    def zoom_to(self, zoom: float, anchor_x: float | None = None, anchor_y: float | None = None) -> None:
        """Zoom keeping the drawing point under (anchor_x, anchor_y) (CSS
        pixels in the canvas; default its centre) where it is."""
        if not self.zoomable or self.width <= 0:
            return
        ax = self.width / 2 if anchor_x is None else anchor_x
        ay = self.height / 2 if anchor_y is None else anchor_y
        self.viewport.zoom_about(zoom, ax, ay, self._max_zoom(), self.width, self.height)
        self._publish_geometry()
        self.redraw()

    def zoom_by(self, factor: float) -> None:
        anchor = self._anchor_for_zoom()
        self.zoom_to(self.viewport.zoom * factor, *anchor)

    def _anchor_for_zoom(self) -> tuple[float | None, float | None]:
        """Zoom buttons centre on the ghost, the cursor or the last move if shown."""
        cell = self.state.selected or self.state.highlights.get("cursor")
        center = getattr(self.view, "point_center", None)
        if cell is None or center is None:
            return None, None
        x, y = center(self.game, cell, self.width * self.viewport.zoom, self.height * self.viewport.zoom, self.state.flipped)
        return x + self.viewport.pan_x, y + self.viewport.pan_y

    def reset_zoom(self) -> None:
        self.viewport.reset()
        self._publish_geometry()
        self.redraw()

    def pan_by(self, dx: float, dy: float) -> None:
        self.viewport.pan_by(dx, dy, self.width, self.height)
        self.view_moved()

    def view_moved(self) -> None:
        """The viewport was changed from outside (the overview): show it."""
        self._publish_geometry()
        self._request_frame()

    def _on_wheel(self, event: Any) -> None:
        if self.game is None:
            return
        delta = float(event.deltaY) * (16.0 if int(event.deltaMode) == 1 else 1.0)
        on_wheel = getattr(self, "on_wheel", None)   # Ctrl + wheel (and a trackpad's pinch) always zooms
        if on_wheel is not None and not event.ctrlKey and self.state.interactive and on_wheel(delta):
            event.preventDefault()
            return
        event.preventDefault()
        x, y = self._event_xy(event)
        self.zoom_to(self.viewport.zoom * math.exp(-delta * 0.0025), x, y)

    def _zoomable_down(self, event: Any) -> None:
        """Remember the press; a second finger starts a pinch instead."""
        x, y = self._event_xy(event)
        self._pointers[int(event.pointerId)] = (x, y)
        if len(self._pointers) == 2:
            self._press = None
            (x1, y1), (x2, y2) = self._pointers.values()
            self._pinch = {"distance": max(1.0, math.hypot(x2 - x1, y2 - y1)), "zoom": self.viewport.zoom,
                           "mx": (x1 + x2) / 2, "my": (y1 + y2) / 2}
        elif len(self._pointers) == 1:
            self._press = {"id": int(event.pointerId), "x": x, "y": y, "moved": False,
                           "touch": str(event.pointerType) == "touch"}

    def _on_pointer_move(self, event: Any) -> None:
        pointer = int(event.pointerId)
        if not self.zoomable or pointer not in self._pointers:
            return
        x, y = self._event_xy(event)
        old_x, old_y = self._pointers[pointer]
        self._pointers[pointer] = (x, y)
        pinch = self._pinch
        if pinch is not None and len(self._pointers) >= 2:
            (x1, y1), (x2, y2) = list(self._pointers.values())[:2]
            mx, my = (x1 + x2) / 2, (y1 + y2) / 2
            # Pan by the midpoint's travel, then zoom about the new midpoint.
            self.viewport.pan_x += mx - pinch["mx"]
            self.viewport.pan_y += my - pinch["my"]
            pinch["mx"], pinch["my"] = mx, my
            zoom = pinch["zoom"] * math.hypot(x2 - x1, y2 - y1) / pinch["distance"]
            self.viewport.zoom_about(zoom, mx, my, self._max_zoom(), self.width, self.height)
            self._publish_geometry()
            self._request_frame()
            return
        press = self._press
        if press is None or press["id"] != pointer:
            return
        if not press["moved"] and math.hypot(x - press["x"], y - press["y"]) > DRAG_SLOP:
            press["moved"] = True
            old_x, old_y = press["x"], press["y"]
        if press["moved"] and self.viewport.zoom > 1.0:
            self.pan_by(x - old_x, y - old_y)

    def _zoomable_up(self, event: Any) -> None:
        pointer = int(event.pointerId)
        self._pointers.pop(pointer, None)
        if not self._pointers:
            self._pinch = None
        press = self._press
        if press is None or press["id"] != pointer:
            return
        self._press = None
        if press["moved"] or self.game is None or not self.state.interactive:
            return
        confirm = press["touch"] and self.confirm_touch and bool(getattr(self.view, "confirm_moves", False))
        self.state.highlights["confirm"] = confirm
        if not confirm and getattr(self.view, "confirm_moves", False):
            self.state.selected = None   # a ghost left by an earlier touch tap is stale now
        self._tap(self._cell_at_xy(press["x"], press["y"]))
