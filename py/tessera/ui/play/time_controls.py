"""Time controls in the page: the new-game dialog's choices, the clocks, the ticker.

The dialog offers a total per player, a Fischer increment (seconds added
after each move; only with a total) and a per-move limit.  They apply to
bot games too: the human's clock runs, the bot's seat has none.  The
player panels show each clock with its increment (``+2 s``) and the move
box names the whole time control.

The clock itself (``core/clock.py``) and the loss on time
(``Session.check_time``) are pure Python; this module only shows them.
``ClockTicker`` wakes up when the running clock's shown second changes
(so a display "ticks" once a second and a flag falls on time), asks the
session to check the time, and redraws the two clocks.  It also saves the
game when the page is hidden or left, so a reload resumes the clocks where
they stood (the time the page is closed does not count).
"""

from __future__ import annotations

import json
import math
from typing import Any, Callable, Iterable, Mapping

import js  # type: ignore[import-not-found]
from pyodide.ffi import create_once_callable, create_proxy  # type: ignore[import-not-found]

from ...core.clock import (INCREMENT_SECONDS, MOVE_SECONDS, TOTAL_MINUTES, TimeControl, describe_control,
                          duration_words, format_clock)
from ...core.session import Session
from ...i18n import has, t
from ..saves import storage
from ..dom import Listeners, el, present, set_text
from ..board.move_feedback import play_sound

TOTAL_NAME = "time_total"
MOVE_NAME = "time_move"
INCREMENT_NAME = "time_increment"


# ----- the new-game dialog ---------------------------------------------------------------

def _choice_row(name: str, label: str, options: list[tuple[str, str]], checked: str) -> Any:
    """A labelled row of radio chips (the dialog's ``choice`` look)."""
    group = el("div", "time-row", None, {"role": "radiogroup", "aria-labelledby": f"ng-{name}-label"})
    group.appendChild(el("span", "time-row-label", label, {"id": f"ng-{name}-label"}))
    row = el("div", "choice-row")
    for value, text in options:
        input_id = f"ng-{name}-{value}"
        radio = el("input", None, None, {"type": "radio", "name": name, "value": value,
                                         "id": input_id, "checked": value == checked})
        row.appendChild(el("label", "choice choice-small", None, {"for": input_id},
                           [radio, el("span", None, text)]))
    group.appendChild(row)
    return group


def time_fieldset(preset: Mapping[str, str] | None = None, listeners: Listeners | None = None,
                  game_id: str = "") -> Any:
    """The "Time control" part of the new-game dialog: off unless the player
    picks a limit.  The increment row is greyed out while the total is off
    (``listeners`` follow that choice; the dialog's own, cleared with it)."""
    preset = preset or {}
    totals = [("off", t("time.off"))] + [(str(m), duration_words(60 * m)) for m in TOTAL_MINUTES]
    increments = [("off", t("time.off"))] + [(str(s), t("time.plus_seconds", count=s))
                                             for s in INCREMENT_SECONDS]
    moves = [("off", t("time.off"))] + [(str(s), duration_words(s)) for s in MOVE_SECONDS]
    total = preset.get(TOTAL_NAME, "off")
    increment = preset.get(INCREMENT_NAME, "off")
    move = preset.get(MOVE_NAME, "off")
    fieldset = el("fieldset", "choice-group time-group", None, {"data-name": "time"})
    fieldset.appendChild(el("legend", None, t("time.legend")))
    fieldset.appendChild(_choice_row(TOTAL_NAME, t("time.total"), totals,
                                     total if total in dict(totals) else "off"))
    fieldset.appendChild(_choice_row(INCREMENT_NAME, t("time.increment"), increments,
                                     increment if increment in dict(increments) else "off"))
    fieldset.appendChild(_choice_row(MOVE_NAME, t("time.per_move"), moves,
                                     move if move in dict(moves) else "off"))
    hint = f"time.hint.{game_id}"   # a game whose expired turns pass instead of losing says so
    fieldset.appendChild(el("p", "dialog-hint", t(hint) if game_id and has(hint) else t("time.hint")))
    _follow_total(fieldset)
    if listeners is not None:
        listeners.on(fieldset, "change", lambda event: _follow_total(fieldset))
    return fieldset


LAST_TIME_KEY = "newgame/time"
"""Under ``storage.PREFIX``: the time control chosen last, which the next
new-game dialog offers again (as lichess does)."""


def remembered_time() -> dict[str, str]:
    """The time choices of the last game started (only values the dialog
    offers; anything else stored there is ignored)."""
    try:
        data = json.loads(storage.get_text(storage.PREFIX + LAST_TIME_KEY) or "{}")
    except (ValueError, RecursionError):
        return {}
    if not isinstance(data, dict):
        return {}
    offered = {TOTAL_NAME: {str(m) for m in TOTAL_MINUTES}, INCREMENT_NAME: {str(s) for s in INCREMENT_SECONDS},
               MOVE_NAME: {str(s) for s in MOVE_SECONDS}}
    return {name: value for name, value in data.items()
            if name in offered and isinstance(value, str) and (value == "off" or value in offered[name])}


def remember_time(choice: Mapping[str, str]) -> None:
    """Keep the time choices for the next new-game dialog (a full storage keeps the old ones)."""
    try:
        storage.set_text(storage.PREFIX + LAST_TIME_KEY,
                         json.dumps({name: choice.get(name, "off") for name in (TOTAL_NAME, INCREMENT_NAME, MOVE_NAME)}))
    except Exception:   # storage full or refused: the dialog simply offers the defaults next time
        pass


def _follow_total(fieldset: Any) -> None:
    """An increment adds to a total: without one, its choices are greyed out."""
    total = fieldset.querySelector(f'input[name="{TOTAL_NAME}"]:checked')
    off = not present(total) or str(total.value) == "off"
    row = fieldset.querySelector(f'[aria-labelledby="ng-{INCREMENT_NAME}-label"]')
    for radio in fieldset.querySelectorAll(f'input[name="{INCREMENT_NAME}"]'):
        radio.disabled = off and str(radio.value) != "off"
    if present(row):
        if off:
            row.setAttribute("title", t("time.increment_needs_total"))
            row.setAttribute("aria-disabled", "true")
        else:
            row.removeAttribute("title")
            row.removeAttribute("aria-disabled")


def time_choice(form: Any) -> dict[str, str]:
    """The dialog's time choices, as strings kept with the other choices (``off`` or a number)."""
    choice = {}
    for name in (TOTAL_NAME, INCREMENT_NAME, MOVE_NAME):
        node = form.querySelector(f'input[name="{name}"]:checked')
        choice[name] = str(node.value) if present(node) else "off"
    return choice


def control_from_choice(choice: Mapping[str, Any]) -> TimeControl | None:
    """``{"time_total": "5", "time_increment": "3", "time_move": "30"}`` -> 5 min
    + 3 s a move, 30 s at most a move; None when total and move limit are
    off.  An increment without a total is dropped (it would add to nothing)."""

    def number(value: Any) -> float | None:
        try:
            number = float(value)
        except (TypeError, ValueError):
            return None
        return number if math.isfinite(number) and number > 0 else None

    total = number(choice.get(TOTAL_NAME))
    per_move = number(choice.get(MOVE_NAME))
    increment = number(choice.get(INCREMENT_NAME)) if total is not None else None
    if total is None and per_move is None:
        return None
    return TimeControl(total * 60 if total is not None else None, per_move, increment or 0)




def clock_caption(session: Session) -> Any:
    """A line for the move box naming the game's time control (None without a clock)."""
    clock = session.clock
    if clock is None:
        return None
    text = t("clock.caption", control=describe_control(clock.control))
    if not all(clock.timed):
        text += " " + t("clock.caption_bot")
    return el("p", "moves-clock", text)


# ----- the clocks in the player panels ------------------------------------------------------

def clock_node() -> Any:
    """An empty clock for a player panel (hidden until the session has a clock)."""
    node = el("div", "player-clock", None, {"role": "timer", "hidden": True})
    node.appendChild(el("span", "clock-main"))
    node.appendChild(el("span", "clock-move"))
    node.appendChild(el("span", "clock-increment", None, {"hidden": True}))
    return node


def render_clock(node: Any, session: Session, seat: int) -> None:
    """Show ``seat``'s time: its total (or the move limit alone), the move countdown when both."""
    clock = session.clock
    if clock is None or not clock.timed[seat]:
        node.hidden = True
        return
    node.hidden = False
    main_node, move_node, increment_node = node.children[0], node.children[1], node.children[2]
    total, move = clock.total_left(seat), clock.move_left(seat)
    running = clock.running == seat
    outcome = session.outcome()
    flagged = (outcome is not None and outcome.reason == "time" and outcome.winner is not None
               and outcome.winner != seat)
    if flagged and move is not None and (total is None or total > 0):
        move = 0.0  # the move's time ran out: show that, not the full limit of a next move
    main = total if total is not None else move
    set_text(main_node, format_clock(main))
    show_move = total is not None and move is not None and (running or flagged)
    set_text(move_node, t("clock.move", time=format_clock(move)) if show_move else "")
    move_node.hidden = not show_move
    increment = clock.control.increment
    show_increment = bool(increment) and not show_move
    set_text(increment_node, t("time.plus_seconds", count=f"{increment:g}") if show_increment else "")
    increment_node.hidden = not show_increment
    left = clock.time_left(seat)
    classes = ["player-clock"]
    if running:
        classes.append("is-running")
    if flagged or (left is not None and left <= 0):
        classes.append("is-out")
    elif running and clock.is_low(seat):
        classes.append("is-low")
    cls = " ".join(classes)
    if node.className != cls:
        node.className = cls
    side = t(f"seat.{session.game.seat_names[seat]}")
    label = t("clock.label", side=side, time=format_clock(main))
    if show_move:
        label += ", " + t("clock.move_label", time=format_clock(move))
    if increment:
        label += ", " + t("clock.increment_label", count=f"{increment:g}")
    if node.getAttribute("aria-label") != label:
        node.setAttribute("aria-label", label)


class ClockTicker:
    """Checks the flag and redraws the clocks each time the running clock's second changes.

    ``targets()`` gives ``(clock node, seat)`` pairs to redraw; ``save`` is
    called when the page is hidden or left while a clock runs, so the clock
    resumes from there after a reload.
    """

    def __init__(self, session: Session, targets: Callable[[], Iterable[tuple[Any, int]]],
                 save: Callable[[], Any]) -> None:
        self.session = session
        self.targets = targets
        self.save = save
        self.listeners = Listeners()
        self._proxy = create_proxy(self._tick)
        self._timer: Any = None
        self._stopped = False
        self._unsubscribe: Callable[[], Any] | None = None
        self._warned: tuple[int, int] | None = None
        """(seat, ply) of the turn whose low time has been sounded: once a turn."""

    def start(self) -> None:
        if self.session.clock is None:
            return
        self._unsubscribe = self.session.subscribe(lambda kind, detail: self._schedule())
        self.listeners.on(js.window, "pagehide", lambda event: self._save_running())
        self.listeners.on(js.document, "visibilitychange",
                          lambda event: self._save_running() if js.document.hidden else None)
        self._tick()

    def stop(self) -> None:
        """Save a running clock, then stop ticking (the screen goes away)."""
        if self._stopped:
            return
        self._save_running()
        self._stopped = True
        self._cancel()
        if self._unsubscribe is not None:
            self._unsubscribe()
        self.listeners.clear()
        proxy = self._proxy
        js.setTimeout(create_once_callable(lambda: proxy.destroy()), 0)

    def refresh(self) -> None:
        for node, seat in self.targets():
            render_clock(node, self.session, seat)

    # ----- internals ----------------------------------------------------------------------
    def _save_running(self) -> None:
        clock = self.session.clock
        if not self._stopped and clock is not None and clock.running is not None:
            self.save()

    def _cancel(self) -> None:
        if self._timer is not None:
            js.clearTimeout(self._timer)
            self._timer = None

    def _schedule(self) -> None:
        """Wake up when the shown second of the running clock changes (nothing to do if none runs)."""
        self._cancel()
        clock = self.session.clock
        if self._stopped or clock is None or clock.running is None:
            return
        left = clock.time_left(clock.running)
        if left is None:  # an untimed seat (a bot) is to move: nothing can fall
            return
        fraction = left - math.floor(left)
        delay_ms = max(20, min(1000, int((fraction if fraction > 0.001 else 1.0) * 1000) + 15))
        self._timer = js.setTimeout(self._proxy, delay_ms)

    def _tick(self, *_: Any) -> None:
        self._timer = None
        if self._stopped:
            return
        self.session.check_time()  # a fallen flag ends the game through the session's events
        self.refresh()
        self._warn_low()
        self._schedule()

    def _warn_low(self) -> None:
        """A player here whose clock runs low hears it once a turn (if sound is on);
        the clock turns red as well (``render_clock``)."""
        clock, session = self.session.clock, self.session
        seat = clock.running if clock is not None else None
        if seat is None or not session.is_local_seat(seat) or not clock.is_low(seat):
            return
        turn = (seat, session.game.ply)
        if self._warned != turn:
            self._warned = turn
            play_sound("low")
