"""Modal dialogs on the native ``<dialog>`` element (focus trap and Escape for free).

``Dialog`` is the frame; ``confirm``, ``new_game_dialog`` and
``game_over_dialog`` are the app's dialogs built on it.
"""

from __future__ import annotations

import random
from typing import Any, Callable

import js  # type: ignore[import-not-found]

from ..i18n import has, t
from .dom import Listeners, button, el, present

_counter = 0


class Dialog:
    """A modal with a title, a body and a row of buttons."""

    def __init__(self, title: str, cls: str = "", on_cancel: Callable[[], Any] | None = None) -> None:
        global _counter
        _counter += 1
        title_id = f"dialog-title-{_counter}"
        self.listeners = Listeners()
        self.on_cancel = on_cancel
        self.node = el("dialog", f"dialog {cls}".strip(), None, {"aria-labelledby": title_id})
        self.node.appendChild(el("h2", "dialog-title", title, {"id": title_id}))
        self.body = el("div", "dialog-body")
        self.actions = el("div", "dialog-actions")
        self.node.appendChild(self.body)
        self.node.appendChild(self.actions)
        self.listeners.on(self.node, "cancel", self._cancel)
        self._open = False

    def add_button(self, label: str, handler: Callable[[], Any] | None = None, kind: str = "",
                   close: bool = True, attrs: dict[str, Any] | None = None) -> Any:
        """A button; ``kind`` is ``primary``, ``danger`` or empty."""

        def clicked(event: Any) -> None:
            if close:
                self.close()
            if handler is not None:
                handler()

        cls = "btn" + (f" btn-{kind}" if kind else "")
        node = button(label, clicked, self.listeners, cls, attrs)
        self.actions.appendChild(node)
        return node

    def open(self, focus: Any = None) -> "Dialog":
        js.document.body.appendChild(self.node)
        self.node.showModal()
        self._open = True
        if focus is not None:
            focus.focus()
        return self

    def close(self) -> None:
        if not self._open:
            return
        self._open = False
        self.node.close()
        self.node.remove()
        self.listeners.clear()

    @property
    def is_open(self) -> bool:
        return self._open

    def _cancel(self, event: Any) -> None:
        event.preventDefault()
        self.close()
        if self.on_cancel is not None:
            self.on_cancel()


def confirm(question: str, yes_label: str, on_yes: Callable[[], Any], danger: bool = False,
            detail: str | None = None) -> Dialog:
    dialog = Dialog(question, "dialog-confirm")
    if detail:
        dialog.body.appendChild(el("p", None, detail))
    cancel = dialog.add_button(t("dialog.cancel"))
    dialog.add_button(yes_label, on_yes, "danger" if danger else "primary", attrs={"data-action": "confirm"})
    return dialog.open(focus=cancel)


# ----- new game --------------------------------------------------------------------

def _radio_group(name: str, legend: str, options: list[tuple[str, str]], checked: str,
                 listeners: Listeners, on_change: Callable[[str], Any] | None = None) -> Any:
    fieldset = el("fieldset", "choice-group", None, {"data-name": name})
    fieldset.appendChild(el("legend", None, legend))
    row = el("div", "choice-row")
    for value, label in options:
        input_id = f"ng-{name}-{value}"
        radio = el("input", None, None, {"type": "radio", "name": name, "value": value,
                                         "id": input_id, "checked": value == checked})
        if on_change is not None:
            listeners.on(radio, "change", lambda event, value=value: on_change(value))
        row.appendChild(el("label", "choice", None, {"for": input_id}, [radio, el("span", None, label)]))
    fieldset.appendChild(row)
    return fieldset


def _checked(root: Any, name: str) -> str:
    node = root.querySelector(f'input[name="{name}"]:checked')
    return str(node.value) if present(node) else ""


def new_game_dialog(app: Any, game_id: str, preset: dict[str, str] | None = None) -> Dialog:
    """Choose opponent, side and the game's options; Start creates and opens the game.

    Generic over games: the opponents are the game's bot levels plus two
    players on this device, the sides are its seats, and every
    ``option_specs`` entry becomes a group (labels ``option.<game>.<key>``
    and ``option.<game>.<key>.<value>``, an optional ``...<key>.hint``).
    """
    from ..bots.registry import levels_for
    from ..core.registry import game_class

    cls = game_class(game_id)
    levels = levels_for(game_id)
    preset = dict(preset or {})
    dialog = Dialog(t("newgame.title", game=t(f"game.{game_id}.title")), "dialog-newgame")
    opponents = [(f"bot:{lv.key}", t("opponent.bot", level=t(f"bot.level.{lv.key}"))) for lv in levels]
    opponents.append(("human", t("opponent.hot_seat")))
    default_opponent = preset.get("opponent")
    if default_opponent not in [value for value, _ in opponents]:
        default_opponent = "bot:medium" if any(lv.key == "medium" for lv in levels) else opponents[0][0]
    form = el("form", "newgame-form", None, {"method": "dialog", "data-game": game_id})

    def opponent_changed(value: str) -> None:
        side_group.hidden = value == "human"

    form.appendChild(_radio_group("opponent", t("newgame.opponent"), opponents, default_opponent,
                                  dialog.listeners, opponent_changed))
    seats = list(cls.seat_names)
    side = preset.get("side")
    side_group = _radio_group("side", t("newgame.side"),
                              [(name, t(f"seat.{name}")) for name in seats] + [("random", t("side.random"))],
                              side if side in seats + ["random"] else seats[0], dialog.listeners)
    side_group.hidden = default_opponent == "human"
    form.appendChild(side_group)
    for spec in cls.option_specs:
        if not spec.choices:   # booleans: no game has one yet
            continue
        base = f"option.{game_id}.{spec.key}"
        value = preset.get(spec.key)
        form.appendChild(_radio_group(spec.key, t(base), [(v, t(f"{base}.{v}")) for v in spec.choices],
                                      value if value in spec.choices else spec.default, dialog.listeners))
        if has(f"{base}.hint"):
            form.appendChild(el("p", "dialog-hint", t(f"{base}.hint")))
    from .time_ui import time_choice, time_fieldset
    form.appendChild(time_fieldset(preset))
    dialog.body.appendChild(form)

    def start() -> None:
        options = {spec.key: _checked(form, spec.key) or spec.default for spec in cls.option_specs
                   if spec.choices}
        choice = {"opponent": _checked(form, "opponent"), "side": _checked(form, "side"),
                  **options, **time_choice(form)}
        create_game(app, game_id, choice)

    dialog.add_button(t("dialog.cancel"))
    start_button = dialog.add_button(t("newgame.start"), start, "primary", attrs={"data-action": "start"})

    def submitted(event: Any) -> None:
        # Enter on a radio submits the form, which would close the <dialog>
        # natively, behind Dialog's back: make it press Start instead.
        event.preventDefault()
        start_button.click()
    dialog.listeners.on(form, "submit", submitted)
    dialog.open(focus=start_button)
    return dialog


def create_game(app: Any, game_id: str, choice: dict[str, str]) -> None:
    """Make, save and open a new session from the dialog's choices."""
    from ..core.registry import game_class
    from ..core.session import Seat, Session
    from . import storage
    from .play_screen import session_meta

    cls = game_class(game_id)
    names = list(cls.seat_names)
    opponent = choice.get("opponent") or "human"
    side = choice.get("side") or names[0]
    if side == "random":
        side = random.choice(names)
    seat = names.index(side) if side in names else 0
    if opponent == "human":
        seats = [Seat("human"), Seat("human")]
    else:
        bot = Seat("bot", opponent.split(":", 1)[1])
        seats = [Seat("human"), bot] if seat == 0 else [bot, Seat("human")]
    options = {spec.key: choice[spec.key] for spec in cls.option_specs
               if spec.choices and choice.get(spec.key) in spec.choices}
    game = cls(options, seed=random.randrange(1 << 31))
    session_id = storage.new_session_id()
    from .time_ui import control_from_choice
    session = Session(game, seats, session_id, meta={"created": float(js.Date.now()),
                                                      "choice": dict(choice)},
                      time_control=control_from_choice(choice))
    session.meta.update(session_meta(session))
    app.open_session(session)


# ----- game over ---------------------------------------------------------------------

def game_over_dialog(app: Any, title: str, reason: str, on_new_game: Callable[[], Any]) -> Dialog:
    dialog = Dialog(title, "dialog-over")
    dialog.body.appendChild(el("p", "over-reason", reason))
    dialog.add_button(t("over.home"), lambda: app.go("#/"))
    dialog.add_button(t("over.review"), attrs={"data-action": "review"})
    new = dialog.add_button(t("over.new_game"), on_new_game, "primary", attrs={"data-action": "new-game"})
    return dialog.open(focus=new)
