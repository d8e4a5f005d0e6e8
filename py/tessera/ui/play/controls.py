"""The play screen's controls: the move box, the move list's box and the action buttons.

Functions of the screen (``PlayScreen``, called ``self`` here as in its
methods): each builds its part of the side column and keeps the nodes the
screen renders later (``self.input``, ``self.undo_btn``...) on it.
"""

from __future__ import annotations

from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import create_once_callable  # type: ignore[import-not-found]

from ...core.clock import format_clock
from ...i18n import Message, t
from ..dom import button, el, present, set_flag, set_text
from .questions import acting_seat, ask_resign, run_extra_action
from .move_list import MoveList
from .solo import SoloHelpers


def move_form(self: Any) -> Any:
    """The move box: type a move in the game's notation; its error line under it."""
    form = el("form", "move-form", None, {"autocomplete": "off", "novalidate": True})
    label = el("label", "move-label", t("input.label"), {"for": "move-input"})
    self.input = el("input", "move-input", None, {
        "id": "move-input", "type": "text", "inputmode": "text", "spellcheck": "false",
        "autocapitalize": "off", "placeholder": example_text(self),
        "aria-describedby": "move-error"})
    submit = el("button", "btn", t("input.play"), {"type": "submit"})
    self.input_error = el("p", "move-error", None, {"id": "move-error", "aria-live": "assertive"})
    form.appendChild(label)
    form.appendChild(el("div", "move-input-row", None, None, [self.input, submit]))
    form.appendChild(self.input_error)
    self.listeners.on(form, "submit", self._on_submit)
    self.listeners.on(self.input, "input", lambda e: self._show_error(""))
    return form

def example_text(self: Any) -> str:
    """The move box's placeholder: a move of the side that plays here (in
    hot-seat the side to move), not always the first side's."""
    return t("input.placeholder", example=self.session.game.move_example(acting_seat(self.session)))


def refresh_example(self: Any) -> None:
    """Word the placeholder again when the side that plays here changes (hot-seat turns)."""
    text = example_text(self)
    if str(self.input.placeholder) != text:
        self.input.placeholder = text


def moves_box(self: Any) -> Any:
    """The move list's box: its heading and step buttons (First, Back, Next, Last),
    the clock's caption, the list itself (``move_list``; a click on a move shows
    it), the "viewing" line and "Continue from here"."""
    box = el("section", "moves-box", None, {"aria-labelledby": "moves-title"})
    head = el("div", "moves-head")
    head.appendChild(el("h2", "moves-title", t("moves.heading"), {"id": "moves-title"}))
    nav = el("div", "moves-nav", None, {"role": "group", "aria-label": t("moves.nav_label")})
    self.nav_buttons = {}
    for name, handler in (
            ("first", lambda e: self.session.show_ply(0)),
            ("prev", lambda e: self.session.step_view(-1)),
            ("next", lambda e: self.session.step_view(1)),
            ("last", lambda e: self.session.show_ply(None))):
        node = button(t(f"moves.{name}"), handler, self.listeners, "btn-icon nav-btn",
                      {"data-nav": name}, icon=name)
        self.nav_buttons[name] = node
        nav.appendChild(node)
    head.appendChild(nav)
    box.appendChild(head)
    from .time_controls import clock_caption
    caption = clock_caption(self.session)  # "Clock: 1 min +2 s." when the game has one
    if caption is not None:
        box.appendChild(caption)
    scroller = el("div", "moves-scroll")
    self.moves = el("ol", "move-list", None, {"aria-label": t("moves.heading")})
    self.move_list = MoveList(self.moves, self.ui.gain_key, self.session.game.num_players, self.ui.gain_sign)
    scroller.appendChild(self.moves)
    box.appendChild(scroller)
    self.listeners.on(self.moves, "click", lambda event: _on_move_list_click(self, event))
    self.viewing = el("p", "viewing-note", None, {"hidden": True})
    box.appendChild(self.viewing)
    box.appendChild(self.branching.button)
    note = self.branching.origin_note()   # a game continued from another says where from
    if note is not None:
        box.appendChild(note)
    return box


def _on_move_list_click(self: Any, event: Any) -> None:
    target = event.target.closest("button.move") if present(event.target) else None
    if present(target):
        self.session.show_ply(int(target.dataset.ply))


def render_moves_nav(self: Any) -> None:
    """The step buttons, the move marked in the list and the "viewing" line, for the ply shown."""
    session = self.session
    ply, last = session.shown_ply, session.game.ply
    set_flag(self.nav_buttons["first"], "disabled", ply == 0)
    set_flag(self.nav_buttons["prev"], "disabled", ply == 0)
    set_flag(self.nav_buttons["next"], "disabled", ply == last)
    set_flag(self.nav_buttons["last"], "disabled", ply == last)
    self.move_list.mark(ply)
    if session.is_viewing_history():
        self.viewing.hidden = False
        set_text(self.viewing, t("moves.viewing", ply=ply, total=last))
    else:
        self.viewing.hidden = True
    self.branching.render()


def action_buttons(self: Any) -> Any:
    """Undo (Ask for takeback online), Draw, Resign or Stop, the game's own buttons and
    drawing options, Flip, New game, Export and Import; kept on the screen as its attributes."""
    box = el("div", "play-actions")
    undo_label = t("remote.takeback") if self.remote is not None else t("play.undo")
    self.undo_btn = button(undo_label, lambda e: self._undo(), self.listeners, "btn",
                           {"data-action": "undo"})
    self.draw_btn = button(t("play.offer_draw"), lambda e: self._offer_draw(), self.listeners, "btn",
                           {"data-action": "draw"})
    self.draw_wait = DrawOfferWait(self.draw_btn)
    self.resign_btn = button(t("play.stop" if self.solo else "play.resign"), lambda e: ask_resign(self),
                             self.listeners, "btn btn-danger-soft", {"data-action": "resign"})
    flip = button(t("play.flip"), lambda e: self._flip(), self.listeners, "btn", {"data-action": "flip"})
    new = button(t("play.new_game"), lambda e: self._new_game(), self.listeners, "btn",
                 {"data-action": "new-game"})
    export = button(t("record.export"), lambda e: self._export(), self.listeners, "btn",
                    {"data-action": "export"})
    imp = button(t("record.import"), lambda e: self._import(), self.listeners, "btn",
                 {"data-action": "import"})
    box.appendChild(el("div", "action-row", None, None, [self.undo_btn, self.draw_btn, self.resign_btn]))
    self.helper = SoloHelpers(self)   # Hint and High scores, for games that have them
    if self.helper.row is not None:
        box.appendChild(self.helper.row)
    self.extra_buttons = []
    for action in self.ui.extra_actions():
        node = button(t(action.label_key), lambda e, a=action: run_extra_action(self, a), self.listeners,
                      "btn btn-danger-soft" if action.danger else "btn", {"data-action": action.key})
        self.extra_buttons.append((action, node))
    if self.extra_buttons:
        box.appendChild(el("div", "action-row", None, None, [node for _, node in self.extra_buttons]))
    for toggle in self.ui.view_toggles:   # a game's drawing options (Corners: every capture)
        if not (toggle.assist and (self.remote is not None or self.link is not None)):   # no reading help
                                                                                          # against a person
            box.appendChild(view_toggle(self, toggle))
    box.appendChild(el("div", "action-row", None, None, [flip, new] if self.ui.flippable else [new]))
    box.appendChild(el("div", "action-row", None, None, [export, imp]))
    return box

def view_toggle(self: Any, toggle: Any) -> Any:
    """A game's drawing option (Corners: every capture) as a checkbox."""
    box = el("input", None, None, {"type": "checkbox", "id": f"toggle-{toggle.key}",
                                   "data-toggle": toggle.key})

    def changed(event: Any) -> None:
        if self.board is not None:
            if toggle.reading:   # read in the bots' worker (ui/play/readings.py)
                self.readings.toggled(toggle.key, bool(box.checked))
            else:
                self.board.state.highlights[toggle.key] = bool(box.checked)
            self.board.redraw()
    self.listeners.on(box, "change", changed)
    return el("label", "view-toggle", None, {"for": f"toggle-{toggle.key}"}, [box, el("span", None, t(toggle.label_key))])


class DrawOfferWait:
    """The draw button in a game that spaces draw offers (Quadrotone: one
    every 10 minutes): while the player must wait it is greyed out and says
    when it will be available, counting down once a second."""

    def __init__(self, node: Any) -> None:
        self.node = node
        self.session: Any = None
        self.seat = 0
        self.blocked = False
        self._ticking = False

    def render(self, session: Any, seat: int, blocked: bool) -> None:
        """``blocked``: the button is off for another reason (game over, an offer standing)."""
        self.session, self.seat, self.blocked = session, seat, blocked
        wait = 0.0 if blocked else session.draw_offer_wait(seat)
        set_flag(self.node, "disabled", blocked or wait > 0)
        every = session.draw_spacing.every
        self.node.textContent = t("play.offer_draw_wait", time=format_clock(wait)) if wait else t("play.offer_draw")
        if every:
            self.node.title = t("play.offer_draw_wait.hint", every=Message("time.minutes", count=round(every / 60)))
        if wait > 0 and not self._ticking:
            self._ticking = True
            js.setTimeout(create_once_callable(self._tick), int(1000 * (wait % 1 or 1)) + 20)

    def _tick(self) -> None:
        self._ticking = False
        if self.session is not None and self.node.isConnected:
            self.render(self.session, self.seat, self.blocked)


TIPS_KEY = "tips/"
"""Under ``storage.PREFIX``: the games whose first tip has been shown."""


def first_tip(self: Any) -> Any:
    """The game's one-line tip (``GameUI.first_tip``) the first time the
    game is opened here, with a close button; None once it has been shown."""
    from ..saves import storage
    key = self.ui.first_tip
    if key is None or self.review:
        return None
    seen = storage.PREFIX + TIPS_KEY + self.game_id
    if storage.get_text(seen) is not None:
        return None
    try:
        storage.set_text(seen, "1")
    except Exception:   # storage full or refused: the tip shows again next time
        pass
    box = el("p", "play-tip", None, {"data-tip": self.game_id, "role": "note"})
    box.appendChild(el("span", None, t(key)))
    box.appendChild(button(t("dialog.close"), lambda e: box.remove(), self.listeners, "notice-close", icon="close"))
    return box
