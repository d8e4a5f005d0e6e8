"""The overview of a zoomed board: the whole field, small, with the view outlined.

A 39x32 Dots field on a phone leaves 9 px between points, so the board opens
zoomed in around the play; this picture in the board's corner shows where
that view lies on the field.  A tap or a drag on it moves the view there.
It is drawn by the game's own view (the same ``DrawList`` as the board,
without coordinates), again only when the position, theme or size changes;
the outline of the view is a positioned element, so panning costs no drawing.
It is a pointer convenience, hidden from screen readers: the keyboard
cursor pans the board by itself.
"""

from __future__ import annotations

from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import create_proxy, to_js  # type: ignore[import-not-found]

from ...core.draw import DrawList
from ...core.view import ViewState

SHARE = 0.3
"""The overview's width as a share of the board's."""
MIN_WIDTH, MAX_WIDTH = 96.0, 150.0
"""Its width in CSS pixels, whatever the board's."""


class BoardOverview:
    """The overview of one ``BoardComponent`` (``canvas``), inside its stage."""

    def __init__(self, board: Any, stage: Any) -> None:
        self.board = board
        node = js.document.createElement("div")
        node.className = "board-overview"
        node.setAttribute("aria-hidden", "true")
        node.hidden = True
        canvas = js.document.createElement("canvas")
        canvas.className = "board-overview-field"
        frame = js.document.createElement("div")
        frame.className = "board-overview-view"
        node.appendChild(canvas)
        node.appendChild(frame)
        stage.appendChild(node)
        self.node, self.canvas, self.frame = node, canvas, frame
        self.width = self.height = 0.0
        self._drawn: tuple[Any, ...] | None = None
        self._dragging: int | None = None
        self._listeners: list[tuple[str, Any]] = []
        for event, handler in (("pointerdown", self._on_down), ("pointermove", self._on_move),
                               ("pointerup", self._on_up), ("pointercancel", self._on_up)):
            proxy = create_proxy(handler)
            node.addEventListener(event, proxy)
            self._listeners.append((event, proxy))

    def update(self, position: str) -> None:
        """Show or hide the overview, redraw the field if it changed, place the outline."""
        board = self.board
        zoom = board.viewport.zoom
        if zoom <= 1.0 or board.game is None or board.width <= 0:
            if not self.node.hidden:
                self.node.hidden = True
            return
        self.node.hidden = False
        width = float(int(min(MAX_WIDTH, max(MIN_WIDTH, board.width * SHARE), board.width / 2)))
        height = float(int(width * board.height / board.width))
        state = board.state
        key = (position, width, height, state.theme, state.shapes, state.flipped)
        if key != self._drawn:
            self._drawn = key
            self.width, self.height = width, height
            self.node.style.width = f"{width:.0f}px"
            self.node.style.height = f"{height:.0f}px"
            self.canvas.style.width = f"{width:.0f}px"
            self.canvas.style.height = f"{height:.0f}px"
            drawing = DrawList(width, height)
            small = ViewState(flipped=state.flipped, interactive=False, theme=state.theme,
                              coordinates=False, shapes=state.shapes)
            board.view.draw(board.game, small, drawing)
            js.tesseraDraw.paint(self.canvas, width, height, to_js(drawing.ops), to_js(drawing.strings), 0, 0)
        self.place_outline()

    def place_outline(self) -> None:
        """Outline the part of the zoomed drawing the board shows, scaled to the overview.

        Called whenever the board publishes its geometry, before its next frame
        is drawn, so the outline and the published geometry never disagree."""
        board = self.board
        if self.node.hidden or self.width <= 0 or board.width <= 0:
            return
        scale = self.width / (board.width * board.viewport.zoom)
        style = self.frame.style
        style.left = f"{-board.viewport.pan_x * scale:.1f}px"
        style.top = f"{-board.viewport.pan_y * scale:.1f}px"
        style.width = f"{board.width * scale:.1f}px"
        style.height = f"{board.height * scale:.1f}px"

    # ----- moving the view ---------------------------------------------------------
    def _centre_on(self, event: Any) -> None:
        rect = self.node.getBoundingClientRect()
        if float(rect.width) <= 0 or float(rect.height) <= 0:
            return
        fx = (float(event.clientX) - float(rect.left)) / float(rect.width)
        fy = (float(event.clientY) - float(rect.top)) / float(rect.height)
        board = self.board
        zoom = board.viewport.zoom
        board.viewport.pan_x = board.width / 2 - fx * board.width * zoom
        board.viewport.pan_y = board.height / 2 - fy * board.height * zoom
        board.viewport.clamp(board.width, board.height)
        board.view_moved()

    def _on_down(self, event: Any) -> None:
        if event.button != 0:
            return
        event.preventDefault()
        event.stopPropagation()
        self._dragging = int(event.pointerId)
        try:
            self.node.setPointerCapture(event.pointerId)
        except Exception:  # the pointer may already be gone
            pass
        self._centre_on(event)

    def _on_move(self, event: Any) -> None:
        if self._dragging is not None and int(event.pointerId) == self._dragging:
            event.preventDefault()
            self._centre_on(event)

    def _on_up(self, event: Any) -> None:
        if self._dragging is not None and int(event.pointerId) == self._dragging:
            self._dragging = None

    def destroy(self) -> None:
        for event, proxy in self._listeners:
            self.node.removeEventListener(event, proxy)
            proxy.destroy()
        self._listeners.clear()
        self.node.remove()
