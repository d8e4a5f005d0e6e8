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

Zoom and pan (views with ``zoomable = True``, e.g. a 39x32 Dots field on a
phone): the view draws into a ``DrawList`` of the zoomed size and the
component shifts it by the pan offset when painting, so hit-testing only
undoes the shift.  Pinch and two-finger drag, a one-finger or mouse drag
while zoomed in, the mouse wheel, and the -, + and fit buttons under the
board all change the same transform.  Taps on a zoomable board count on
release, when the pointer did not travel (a drag pans instead).

Confirmed moves (views with ``confirm_moves = True``): when
``confirm_touch`` is on, a touch tap sets ``highlights["confirm"]`` so the
view shows a ghost first; a second tap or the confirm button under the
board plays it.  Mouse, pen and keyboard play at once.

A field too dense to tap (39x32 on a phone) opens zoomed in around the
last move or the centre, with an overview of the whole field in the corner
(``access.opening_zoom``, ``overview``).  The page
theme, the coordinates and the colour-blind shapes come from the settings
(``ui/settings.py``); a change redraws the board.  With ``describe``, every
keyboard cursor move is said to screen readers (the point and what is on
it, the targets of a selected checker) through the board's live region
(``access.BoardVoice``).

Move animations: ``animate(timeline, game)`` plays a view's description of
a move (``core/animation.py``) through ``BoardMotion``: while it runs, every
redraw puts the frame in ``highlights["animation"]`` and asks for the next
animation frame; showing another game or ply, or a press or key on the
board, finishes it.

For tests, after every layout the canvas carries ``data-geometry`` (JSON:
origin ``x``, ``y`` and ``spacing`` in CSS pixels, ``flipped``, ``width``,
``height``, and ``zoom``, ``panX``, ``panY``), ``data-position`` (the
game's position string), ``data-draws`` (a frame counter) and, once a move
animated, ``data-anim-frames`` and ``data-anim-max-ms`` (its slowest frame).
"""

from __future__ import annotations

import json
import time
from typing import Any, Callable

import js  # type: ignore[import-not-found]
from pyodide.ffi import create_once_callable, create_proxy, to_js  # type: ignore[import-not-found]

from ...core.animation import Timeline
from ...core.draw import DrawList
from ...core.game import Game, Move
from ...core.view import BoardView, ViewState, Viewport
from .. import settings
from .access import BoardVoice, opening_zoom
from .motion import BoardMotion
from .zoom import ZOOM_STEP, BoardZoomMixin


ARROWS = {"ArrowLeft": (-1, 0), "ArrowRight": (1, 0), "ArrowUp": (0, -1), "ArrowDown": (0, 1)}


class BoardComponent(BoardZoomMixin):
    """One interactive (or display-only) board on the page."""

    def __init__(self, host: Any, view: BoardView, on_move: Callable[[Move], Any] | None = None,
                 *, interactive: bool = True, label: str = "", max_height: float | None = None,
                 zoom: bool | None = None,
                 describe: Callable[[Game, ViewState, Any], str] | None = None) -> None:
        """Create the canvas inside ``host``.

        ``on_move(move)`` is called when the player completes a move; the
        owner is expected to push it and call ``show`` again.  Without
        ``on_move`` the component pushes the move onto its game itself (a
        free-play board).  ``max_height`` (CSS pixels) caps the board size
        besides the host's width; a host with ``data-fit="contain"`` also
        caps it at the host's own height.  ``zoom`` forces zoom and pan on
        or off (default: on for interactive boards of zoomable views).
        ``describe(game, state, cell)`` words a cell for screen readers
        (said when the keyboard cursor moves or a tap selects).
        """
        self.host = host
        self.view = view
        self.on_move = on_move
        self.on_select: Callable[[Any], Any] | None = None
        """Told the new selection after every tap (a composed move's buttons follow it)."""
        self.on_key: Callable[[str], bool] | None = None
        """Offered keys the board does not use itself; True: taken (a composed move's R)."""
        self.on_wheel: Callable[[float], bool] | None = None
        """Offered a mouse wheel's turn (pixels, + down) before it zooms; True: taken
        (a chip held for a composed move turns instead)."""
        self.max_height = max_height
        self.game: Game | None = None
        self._position = ""
        self._position_of: tuple[Game, list[Move]] | None = None
        """The game and the moves whose position string ``_position`` is (see ``redraw``):
        the game itself, not its id (a copy freed may leave its id to another), and the
        moves themselves, not their count (an undo and another move leave the count)."""
        self.state = ViewState(interactive=interactive)
        self.width = 0.0
        self.height = 0.0
        self.draws = 0
        self.last_draw_ms = 0.0
        self._down_cell: Any = None
        self._destroyed = False
        self.zoomable = bool(getattr(view, "zoomable", False)) and interactive if zoom is None else zoom
        self.confirm_touch = settings.is_on("confirm-touch")
        """Touch taps need a second tap (the setting; an owner may override it)."""
        self._auto_zoom_checked = False
        self.overview: Any = None
        self.viewport = Viewport()
        self._pointers: dict[int, tuple[float, float]] = {}
        self._press: dict[str, Any] | None = None   # the pointer that may become a tap
        self._pinch: dict[str, float] | None = None
        self._frame_pending = False
        self._host_size: tuple[float, float] | None = None
        """The host's width and (``data-fit="contain"``) height when last measured."""
        self._drawn_between_frames = False
        """The last drawing was made by an event's task, not by an animation frame."""
        self.motion = BoardMotion()
        """The move animating, if any (``animate``; ``ui/board/motion.py``)."""

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
        if self.zoomable:   # a stage to lay the overview over the canvas's corner
            self.stage = js.document.createElement("div")
            self.stage.className = "board-stage"
            self.stage.appendChild(canvas)
            host.appendChild(self.stage)
            from .overview import BoardOverview
            self.overview = BoardOverview(self, self.stage)
        else:
            self.stage = None
            host.appendChild(canvas)
        self.voice = BoardVoice(host, canvas, describe, getattr(view, "keys_hint", "board.keys"))
        self._unsubscribe_settings = settings.subscribe(self._on_setting)

        self._listeners: list[tuple[str, Any]] = []
        for event, handler in (("pointerdown", self._on_pointer_down),
                               ("pointermove", self._on_pointer_move),
                               ("pointerup", self._on_pointer_up),
                               ("pointercancel", self._on_pointer_cancel),
                               ("keydown", self._on_key_down),
                               ("focus", self._on_focus),
                               ("blur", self._on_blur),
                               ("contextmenu", self._on_context_menu)):
            proxy = create_proxy(handler)
            canvas.addEventListener(event, proxy)
            self._listeners.append((event, proxy))
        if self.zoomable:
            wheel = create_proxy(self._on_wheel)
            canvas.addEventListener("wheel", wheel, to_js({"passive": False},
                                                          dict_converter=js.Object.fromEntries))
            self._listeners.append(("wheel", wheel))
            self._build_toolbar()
        self._resize_proxy = create_proxy(self._on_resize)
        self._observer = js.ResizeObserver.new(self._resize_proxy)
        self._observer.observe(host)
        self._update_cursor_style()

    # ----- public API ------------------------------------------------------------
    def show(self, game: Game, state: ViewState | None = None) -> None:
        """Display ``game`` (and, if given, a new view state) and redraw."""
        self.game = game
        self._position_of = None   # read the position string again (``redraw``)
        if state is not None:
            cursor = self.state.highlights.get("cursor")
            self.state = state
            if cursor is not None and "cursor" not in state.highlights:
                state.highlights["cursor"] = cursor
        self._drop_stale_selection()
        # The host's size as last measured: the ResizeObserver measures it again when it changes;
        # reading it here would lay the page out inside a move's task (and again for the frame).
        if not self._layout(measure=False) and state is not None and self.width > 0:
            self._publish_geometry()   # a new state may be turned the other way round
        if not self._auto_zoom_checked:
            self._check_auto_zoom()
            self._publish_geometry()
        self.redraw()

    def set_interactive(self, flag: bool, redraw: bool = True) -> None:
        """Allow or block input (blocked while a bot thinks or after the end);
        ``redraw=False`` when a ``show`` follows anyway."""
        self.state.interactive = bool(flag)
        if not flag:
            self.state.selected = None
        self.canvas.setAttribute("role", "application" if flag else "img")
        self._update_cursor_style()
        if redraw:
            self.redraw()

    def set_flipped(self, flag: bool) -> None:
        self.state.flipped = bool(flag)
        if self.width > 0:
            self._publish_geometry()
        self.redraw()

    def set_label(self, text: str) -> None:
        self.canvas.setAttribute("aria-label", text)

    def animate(self, timeline: Timeline, game: Game) -> None:
        """Play ``timeline`` (a move just made on ``game``) from the next redraw;
        showing another game or ply, or any input on the board, finishes it."""
        self.motion.start(timeline, game)

    def finish_animation(self) -> None:
        if self.motion.finish():
            self.redraw()

    def reveal(self, cell: Any) -> None:
        """Pan a zoomed board so ``cell`` is on screen (an opponent's move)."""
        self._keep_in_view(cell)

    def redraw(self, in_frame: bool = False) -> None:
        """Draw the current game into the canvas (one interop call); ``in_frame``: called
        by the animation frame (``_request_frame``), not by an event's task."""
        if self._destroyed or self.game is None or self.width <= 0 or self.height <= 0:
            return
        self._drawn_between_frames = not in_frame
        started = time.perf_counter()
        zoom = self.viewport.zoom
        drawing = DrawList(self.width * zoom, self.height * zoom)
        highlights = self.state.highlights
        settings.apply_to_view(self.state)
        if zoom > 1.0:
            highlights["viewport"] = (-self.viewport.pan_x, -self.viewport.pan_y, self.width, self.height)
        else:
            highlights.pop("viewport", None)
        frame = self.motion.frame(self.game)
        if frame is not None:
            highlights["animation"] = frame
        else:
            highlights.pop("animation", None)
        self.view.draw(self.game, self.state, drawing)
        js.tesseraDraw.paint(self.canvas, self.width, self.height,
                             to_js(drawing.ops), to_js(drawing.strings), self.viewport.pan_x, self.viewport.pan_y)
        self.last_draw_ms = (time.perf_counter() - started) * 1000.0
        self.draws += 1
        dataset = self.canvas.dataset
        dataset.draws = str(self.draws)
        dataset.drawMs = f"{self.last_draw_ms:.2f}"
        # The position string costs as much as the drawing on a full Dots field:
        # made once per position shown, not on every frame of an animation.
        made = self._position_of
        if made is None or made[0] is not self.game or made[1] != self.game.move_stack:
            self._position_of = (self.game, list(self.game.move_stack))
            dataset.position = self._position = self.game.position()
        self._update_toolbar()
        if self.overview is not None:
            self.overview.update(self._position)
        if frame is not None:
            self.motion.drawn(self.last_draw_ms, self.canvas)
            self._request_frame()

    def destroy(self) -> None:
        """Remove the canvas and release every listener and proxy."""
        if self._destroyed:
            return
        self._destroyed = True
        self._unsubscribe_settings()
        if self.overview is not None:
            self.overview.destroy()
        self.voice.destroy()
        self._observer.disconnect()
        self._resize_proxy.destroy()
        for event, proxy in self._listeners:
            self.canvas.removeEventListener(event, proxy)
            proxy.destroy()
        self._listeners.clear()
        for node, proxy in getattr(self, "_toolbar_listeners", []):
            node.removeEventListener("click", proxy)
            proxy.destroy()
        toolbar = getattr(self, "toolbar", None)
        if toolbar is not None and toolbar.parentNode:
            toolbar.parentNode.removeChild(toolbar)
        if self.canvas.parentNode:  # JS null arrives as the falsy jsnull, not None
            self.canvas.parentNode.removeChild(self.canvas)
        if self.stage is not None and self.stage.parentNode:
            self.stage.parentNode.removeChild(self.stage)
        self.game = None

    # ----- zoom and pan ---------------------------------------------------------------
    def _check_auto_zoom(self) -> None:
        """Once, when the board first has a game and a size."""
        if not self._auto_zoom_checked and self.game is not None and self.width > 0:
            self._auto_zoom_checked = True
            opening_zoom(self)

    def _request_frame(self) -> None:
        """Redraw once on the next animation frame (pointer moves come faster)."""
        if self._frame_pending or self._destroyed:
            return
        self._frame_pending = True

        def frame(*_: Any) -> None:
            self._frame_pending = False
            if self._drawn_between_frames and self.motion.running:
                # The move's own task drew the animation's start for this frame already: a
                # second whole drawing would only make the move show later (a 39x32 field
                # 1000 moves in: 5-10 ms).  The animation goes on from the next frame.
                self._drawn_between_frames = False
                self._request_frame()
                return
            self.redraw(in_frame=True)
        js.requestAnimationFrame(create_once_callable(frame))

    # ----- layout ---------------------------------------------------------------
    def _layout(self, measure: bool = True) -> bool:
        """Fit the canvas to the host (measured again, or as last measured: ``measure``);
        True when the size changed."""
        if self._destroyed:
            return False
        if measure or self._host_size is None:
            contain = self.host.getAttribute("data-fit") == "contain"
            self._host_size = (float(self.host.clientWidth), float(self.host.clientHeight) if contain else 0.0)
        available, host_height = self._host_size
        if available <= 0:
            self._host_size = None   # not laid out yet (hidden): measure again next time
            return False
        aspect = self.view.aspect_at(self.game, available) if self.game is not None else 1.0
        width = available
        limit = self.max_height
        if host_height > 0:
            limit = host_height if limit is None else min(limit, host_height)
        if limit is not None and width / aspect > limit:
            width = limit * aspect
        width = float(int(width))
        height = float(int(width / aspect))
        if width == self.width and height == self.height:
            return False
        if self.width > 0 and self.viewport.zoom > 1.0:
            scale = width / self.width
            self.viewport.pan_x *= scale
            self.viewport.pan_y *= scale
        self.width, self.height = width, height
        self.viewport.clamp(self.width, self.height)
        style = self.canvas.style
        style.width = f"{width:.0f}px"
        style.height = f"{height:.0f}px"
        self._check_auto_zoom()
        self._publish_geometry()
        return True

    def _publish_geometry(self) -> None:
        data: dict[str, Any] = {"width": self.width, "height": self.height, "flipped": self.state.flipped,
                                "zoom": self.viewport.zoom, "panX": self.viewport.pan_x, "panY": self.viewport.pan_y}
        geometry = getattr(self.view, "geometry", None)
        geometry_for = getattr(self.view, "geometry_for", None)
        if geometry_for is not None and self.game is not None:
            x, y, spacing = geometry_for(self.game, self.width * self.viewport.zoom, self.height * self.viewport.zoom)
            data.update(x=x + self.viewport.pan_x, y=y + self.viewport.pan_y, spacing=spacing)
        elif geometry is not None:
            x, y, spacing = geometry(self.width, self.height)
            data.update(x=x, y=y, spacing=spacing)
        self.canvas.dataset.geometry = json.dumps(data)
        if self.overview is not None:   # the outline moves with the view, not a frame later
            self.overview.place_outline()

    def _on_resize(self, entries: Any = None, observer: Any = None) -> None:
        if self._layout():
            self.redraw()

    # ----- input -----------------------------------------------------------------
    def _event_xy(self, event: Any) -> tuple[float, float]:
        rect = self.canvas.getBoundingClientRect()
        return float(event.clientX) - float(rect.left), float(event.clientY) - float(rect.top)

    def _cell_at_xy(self, x: float, y: float) -> Any:
        if self.game is None:
            return None
        return self.view.cell_at(self.game, self.state, self.width * self.viewport.zoom, self.height * self.viewport.zoom,
                                 x - self.viewport.pan_x, y - self.viewport.pan_y)

    def _cell_from_event(self, event: Any) -> Any:
        x, y = self._event_xy(event)
        return self._cell_at_xy(x, y)

    def _on_pointer_down(self, event: Any) -> None:
        if self.game is None or not self.state.interactive:
            return
        if event.button != 0:
            return
        event.preventDefault()
        self.finish_animation()
        try:
            self.canvas.setPointerCapture(event.pointerId)
        except Exception:  # the pointer may already be gone
            pass
        self.canvas.focus(to_js({"preventScroll": True}, dict_converter=js.Object.fromEntries))
        self.state.highlights.pop("cursor", None)
        if self.zoomable:
            self._zoomable_down(event)
            return
        cell = self._cell_from_event(event)
        self._down_cell = cell
        self._tap(cell)

    def _on_pointer_up(self, event: Any) -> None:
        """Releasing over another point after pressing a checker moves it (drag)."""
        if self.zoomable:
            self._zoomable_up(event)
            return
        down, self._down_cell = self._down_cell, None
        if self.game is None or not self.state.interactive or self.state.selected is None:
            return
        cell = self._cell_from_event(event)
        if cell is not None and cell != down and down == self.state.selected:
            self._tap(cell)

    def _on_pointer_cancel(self, event: Any) -> None:
        self._down_cell = None
        self._pointers.pop(int(event.pointerId), None)
        if not self._pointers:
            self._pinch = None
        self._press = None

    def _on_context_menu(self, event: Any) -> None:
        if self.state.interactive:
            event.preventDefault()

    def _on_key_down(self, event: Any) -> None:
        if self.game is None or not self.state.interactive:
            return
        self.finish_animation()
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
                    cursor = step(cursor, dx, dy, self.state.flipped)
                    clamp = getattr(self.view, "clamp_cell", None)
                    highlights["cursor"] = clamp(self.game, cursor) if clamp is not None else cursor
            self._keep_in_view(highlights["cursor"])
            self.redraw()
            self._say_cell(highlights["cursor"])
        elif key in ("Enter", " "):
            event.preventDefault()
            event.stopPropagation()
            cursor = highlights.get("cursor")
            if cursor is None:
                highlights["cursor"] = self._initial_cursor()
                self.redraw()
                self._say_cell(highlights["cursor"])
            else:
                highlights["confirm"] = False
                if not self._tap(cursor):
                    self._say_cell(cursor)
        elif key in ("+", "=") and self.zoomable:
            event.preventDefault()
            self.zoom_by(ZOOM_STEP)
        elif key == "-" and self.zoomable:
            event.preventDefault()
            self.zoom_by(1 / ZOOM_STEP)
        elif key == "Escape":
            if self.state.selected is not None or "cursor" in highlights:
                event.preventDefault()
                event.stopPropagation()
                self.state.selected = None
                highlights.pop("cursor", None)
                if self.on_select is not None:
                    self.on_select(None)
                self.redraw()
        elif self.on_key is not None and not (event.ctrlKey or event.metaKey or event.altKey) and self.on_key(str(key)):
            event.preventDefault()
            event.stopPropagation()

    def _keep_in_view(self, cell: Any) -> None:
        """When zoomed in, pan so the keyboard cursor stays on screen."""
        center = getattr(self.view, "point_center", None)
        if self.viewport.zoom <= 1.0 or cell is None or center is None:
            return
        x, y = center(self.game, cell, self.width * self.viewport.zoom, self.height * self.viewport.zoom, self.state.flipped)
        margin = self._spacing(self.viewport.zoom) * 1.5
        sx, sy = x + self.viewport.pan_x, y + self.viewport.pan_y
        if sx < margin:
            self.viewport.pan_x += margin - sx
        elif sx > self.width - margin:
            self.viewport.pan_x -= sx - (self.width - margin)
        if sy < margin:
            self.viewport.pan_y += margin - sy
        elif sy > self.height - margin:
            self.viewport.pan_y -= sy - (self.height - margin)
        self.viewport.clamp(self.width, self.height)
        self._publish_geometry()

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
            self._say_cell(self.state.highlights["cursor"])

    def _on_blur(self, event: Any) -> None:
        if self.state.highlights.pop("cursor", None) is not None:
            self.redraw()

    def _initial_cursor(self) -> Any:
        if self.state.selected is not None:
            # A selection is a cell, unless the view keeps more (Corners' picked corners).
            cursor_of = getattr(self.view, "selection_cursor", None)
            return cursor_of(self.state.selected) if cursor_of is not None else self.state.selected
        start = getattr(self.view, "initial_cursor", None)
        return start(self.game, self.state) if start is not None else None

    def say(self, text: str) -> None:
        """Tell screen readers ``text`` (the board's polite live region)."""
        if not self._destroyed:
            self.voice.say(text)

    def _say_cell(self, cell: Any) -> None:
        """Describe the cursor's point (and a selection's targets), if a describer was given."""
        if not self._destroyed:
            self.voice.say_cell(self.game, self.state, cell)

    def _on_setting(self, key: str, value: str) -> None:
        if key == "confirm-touch":
            self.confirm_touch = value == "on"
            return
        self.redraw()   # theme, coordinates, shapes (and anything a view may draw by)

    def _tap(self, cell: Any) -> bool:
        """Apply a tap on ``cell``; True when it made a move."""
        if self.game is None:
            return False
        result = self.view.tap(self.game, self.state, cell)
        self.state.selected = result.selected
        if self.on_select is not None:
            self.on_select(result.selected)
        if result.move is None:
            self.redraw()
            return False
        if self.on_move is not None:
            draws = self.draws
            self.on_move(result.move)
            if self.draws == draws:   # the owner normally shows the move (a whole redraw of a 39x32 field)
                self.redraw()
        else:
            self.game.push(result.move)
            self.state.last_move = None
            self.state.highlights.pop("converted", None)
            self.redraw()
        return True

    def _drop_stale_selection(self) -> None:
        selected = self.state.selected
        if selected is None or self.game is None:
            return
        valid = getattr(self.view, "selection_valid", None)
        if valid is not None:
            if not valid(self.game, selected):
                self.state.selected = None
            return
        piece_at = getattr(self.game, "piece_at", None)
        if self.game.is_over() or (piece_at is not None and piece_at(selected) != self.game.to_move):
            self.state.selected = None

    def _update_cursor_style(self) -> None:
        self.canvas.style.cursor = "pointer" if self.state.interactive else "default"
