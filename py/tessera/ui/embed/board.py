"""One embedded board in the page: its board, caption, buttons and events.

``EmbedBoard`` is what every mode shares (``modes`` has the four):
a ``BoardComponent`` in the element's shadow frame (``assets/js/embed.js``
made it), a caption under the board (a live region), a row of buttons, and
the events the host page may listen to (``move``, ``solved``, ``ended``:
``CustomEvent``s on the element that bubble out of the shadow root).

A game whose moves are put together before they are played (Quadrotone's
chips: the adapter's ``draft_actions``) gets its buttons and note under the
board, as the play screen's ``DraftBar`` gives them; the adapter's
``view_highlights`` gets this board as its "session" (``local_seats``,
``shown_game``), so the tray shows the reader's hand.

The board draws in the element's theme, not the app's: ``EmbedView`` wraps
the game's view and sets the theme and the coordinates from the element's
attributes on every drawing (the component copies the app's settings into
the view state first, then the wrapped view draws).  Every word is the
catalog's, in the board's own language (``lang``), since one page may hold
boards in two languages.
"""

from __future__ import annotations

from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import to_js  # type: ignore[import-not-found]

from ...core import registry
from ...core.game import Game, Move
from ...core.game_ui import game_ui
from ...core.view import ViewState
from ...i18n import t
from ..board.canvas import BoardComponent
from ..dom import Listeners, button, el, set_text
from ..board.draft import DraftBar
from .spec import EmbedPlan, game_title, position_label


class EmbedView:
    """The game's board view, drawn in the element's theme, with its
    coordinates setting; everything else is the view's own.  ``flipped``
    (the ``flip`` attribute) is what the boards put in each view state, as
    the board's hit-testing reads it there too."""

    def __init__(self, view: Any, theme: str, coordinates: bool, flipped: bool = False) -> None:
        self._view = view
        self.theme = theme
        self.coordinates = coordinates
        self.flipped = flipped

    def __getattr__(self, name: str) -> Any:
        return getattr(self._view, name)

    def draw(self, game: Game, state: ViewState, out: Any) -> None:
        state.theme = self.theme
        state.coordinates = self.coordinates
        self._view.draw(game, state, out)


def js_object(data: dict[str, Any]) -> Any:
    return to_js(data, dict_converter=js.Object.fromEntries)


class EmbedBoard:
    """The parts of an embedded board every mode has."""

    interactive = False
    zoom: bool | None = None
    """Zoom and pan: None is the board's own choice (on where a big field is played on)."""

    def __init__(self, element: Any, frame: Any, plan: EmbedPlan, theme: str) -> None:
        self.element = element
        self.frame = frame
        self.plan = plan
        self.lang = plan.spec.lang
        self.listeners = Listeners()
        self.closed = False
        self.view = EmbedView(registry.view(plan.game_id), theme, plan.spec.coords, plan.flipped)
        self.live = el("div", "tb-live")
        self.board_host = el("div", "tb-board")
        self.caption = el("p", "tb-caption", None, {"aria-live": "polite"})
        self.controls = el("div", "tb-controls", None, {"role": "group", "aria-label": self.tr("embed.controls")})
        self.ui = game_ui(plan.game_id)
        self.drafts = DraftBar(self.ui, self.listeners, self._draft_game, self._on_board_move,
                               tr=self.tr, small=True)
        self.live.appendChild(self.board_host)
        if self.interactive and self.drafts.actions:
            self.live.appendChild(self.drafts.node)
        self.live.appendChild(self.controls)
        self.live.appendChild(self.caption)
        frame.appendChild(self.live)
        self.board = BoardComponent(self.board_host, self.view, on_move=self._on_board_move,
                                    interactive=self.interactive, zoom=self.zoom,
                                    label=game_title(plan.game_id, self.lang),
                                    describe=self.ui.describe_cell)
        if self.interactive:
            self.drafts.attach(self.board)
        self.game = plan.game_at(plan.start)
        dataset = element.dataset
        dataset.mode = plan.spec.mode
        dataset.game = plan.game_id
        dataset.count = str(plan.count)

    # ----- words and buttons --------------------------------------------------------
    def tr(self, key: str, **params: Any) -> str:
        return t(key, self.lang, **params)

    def add_button(self, key: str, action: str, handler: Any, icon: str | None = None) -> Any:
        node = button(self.tr(key), lambda event: handler(), self.listeners, "btn btn-small",
                      {"data-action": action}, icon=icon)
        self.controls.appendChild(node)
        return node

    def say(self, text: str) -> None:
        set_text(self.caption, text)

    # ----- a move put together first (the adapter's draft actions: ``board.draft``) -------------
    def _draft_game(self) -> Game | None:
        """The game a draft is made on, while the reader may play."""
        return self.game if self.board.state.interactive else None

    def render_draft(self) -> None:
        self.drafts.render()

    # ----- what the adapter may ask, as of a session ------------------------------------------
    def local_seats(self) -> list[int]:
        """The seats the reader plays (none while only looking)."""
        return []

    def shown_game(self) -> Game:
        return self.game

    # ----- drawing ----------------------------------------------------------------------
    def draw(self, interactive: bool, last: Move | None = None) -> None:
        """Show ``self.game`` (the last move marked) and publish its ply."""
        game = self.game
        if last is None and game.move_stack:
            last = game.move_stack[-1]
        state = ViewState(interactive=interactive and not game.is_over(), last_move=last,
                          highlights=self._highlights(), flipped=self.view.flipped)
        self.board.set_label(self.label())
        self.board.show(game, state)
        self.board.set_interactive(state.interactive, redraw=False)
        self.element.dataset.ply = str(game.ply)
        self.render_draft()

    def _highlights(self) -> dict[str, Any]:
        try:
            return dict(self.ui.view_highlights(self))
        except Exception:   # an adapter that wants more of a session than a board has: draw without
            return {}

    def label(self) -> str:
        ply = self.game.ply
        if ply <= self.plan.count and self.game.move_stack == self.plan.moves[:ply]:
            return position_label(self.plan, ply, self.lang)
        return self.tr("embed.label.own", game=game_title(self.plan.game_id, self.lang), number=ply)

    def set_theme(self, theme: str) -> None:
        self.view.theme = theme
        self.board.redraw()

    def step_by_key(self, event: Any, shown: int, last: int) -> None:
        """Arrows, Home and End step (``go_to``) from ``shown`` within 0 to
        ``last``, while the focus is in the board's frame."""
        if event.ctrlKey or event.metaKey or event.altKey:
            return
        targets = {"ArrowLeft": shown - 1, "ArrowRight": shown + 1, "Home": 0, "End": last}
        key = str(event.key)
        if key in targets:
            event.preventDefault()
            self.go_to(targets[key])

    def set_coordinates(self, on: bool) -> None:
        self.view.coordinates = on
        self.board.redraw()

    def set_flipped(self, flipped: bool | None) -> None:
        """Seen from the second seat's side or not (``flip``; None: not)."""
        self.view.flipped = bool(flipped)
        self.board.set_flipped(self.view.flipped)

    # ----- events --------------------------------------------------------------------
    def emit(self, name: str, **detail: Any) -> None:
        """A ``CustomEvent`` on the element that bubbles out of the shadow root."""
        if self.closed:
            return
        event = js.CustomEvent.new(name, js_object({"detail": detail, "bubbles": True, "composed": True}))
        self.element.dispatchEvent(event)

    def emit_move(self, text: str, by: str) -> None:
        """``move``: the ply now shown, the move's notation and who made it
        (``reader``, ``bot``, ``record`` for a puzzle's reply, ``step``)."""
        self.emit("move", ply=self.game.ply, move=text, by=by)

    # ----- what the modes fill in -------------------------------------------------------
    def start(self) -> None:
        """Draw the board first (the frame has its width now)."""
        self.show()

    def show(self) -> None:
        raise NotImplementedError

    def go_to(self, ply: int) -> None:
        """``element.goTo(n)``."""

    def _on_board_move(self, move: Move) -> None:
        self.on_move(move)

    def on_move(self, move: Move) -> None:
        """A move made on the board by the reader."""

    def destroy(self) -> None:
        self.closed = True
        self.listeners.clear()
        self.board.destroy()
        if self.live.parentNode:   # JS null is falsy
            self.live.parentNode.removeChild(self.live)
