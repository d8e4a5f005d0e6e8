"""Modal dialogs on the native ``<dialog>`` element (focus trap and Escape for free).

``Dialog`` is the frame; ``confirm``, ``new_game_dialog`` and
``game_over_dialog`` are the app's dialogs built on it.
"""

from __future__ import annotations

import random
from typing import Any, Callable

import js  # type: ignore[import-not-found]
from pyodide.ffi import to_js  # type: ignore[import-not-found]

from ..core.game import Game, GameError, OptionSpec
from ..i18n import has, t
from .dom import Listeners, button, el, present, set_text

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
        """Show the dialog scrolled to its top (on a phone a tall dialog must
        not open at its buttons, its first choices out of sight), the focus
        on ``focus`` (without scrolling to it)."""
        js.document.body.appendChild(self.node)
        self.node.showModal()
        self._open = True
        if focus is not None:
            focus.focus(to_js({"preventScroll": True}, dict_converter=js.Object.fromEntries))
        self.node.scrollTop = 0
        self.body.scrollTop = 0
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


CUSTOM = "custom"
"""The radio value that stands for an option's ``custom`` form (a Dots size)."""


class OptionGroups:
    """The game's options in the new-game form, one radio group each.

    An option with a ``custom`` form (``OptionSpec.custom``) gets one more
    radio, "Custom", and a number input per part (``option.<game>.<key>.<part>``;
    typing there picks "Custom").  After every change, each preset that the
    game refuses together with the other current choices
    (``Game.normalize_options``, e.g. Dots' four crosses on a small field)
    is greyed out and cannot be picked, with the reason under the group
    (``option.<game>.<key>.<value>.unavailable``); if it was picked, the
    option's default (or its first allowed choice) is picked instead.
    """

    def __init__(self, cls: type[Game], game_id: str, form: Any, preset: dict[str, str],
                 listeners: Listeners) -> None:
        self.cls = cls
        self.game_id = game_id
        self.form = form
        self.listeners = listeners
        self.specs = [spec for spec in cls.option_specs if spec.choices and spec.shown]
        self.switches = [spec for spec in cls.option_specs if spec.choices is None and spec.shown]
        """On/off options (Quadrotone's chains and fences): one checkbox each."""
        self.errors: dict[str, Any] = {}
        self.notes: dict[str, Any] = {}
        for spec in self.specs:
            self._build(spec, preset.get(spec.key))
        if self.switches:
            self._build_switches(preset)
        self.refresh()

    # ----- building ------------------------------------------------------------------
    def _build(self, spec: OptionSpec, value: Any) -> None:
        base = f"option.{self.game_id}.{spec.key}"
        choices = [(str(v), t(f"{base}.{v}") if has(f"{base}.{v}") else str(v)) for v in spec.choices]
        custom_numbers: tuple[int, ...] | None = None
        if spec.custom is not None:
            choices.append((CUSTOM, t(f"{base}.{CUSTOM}") if has(f"{base}.{CUSTOM}") else t("newgame.custom")))
            if value not in spec.choices:
                custom_numbers = self._parse(spec, value)
        checked = value if value in spec.choices else CUSTOM if custom_numbers else spec.default
        group = _radio_group(spec.key, t(base), choices, str(checked), self.listeners,
                             lambda chosen, spec=spec: self._chosen(spec, chosen))
        if spec.custom is not None:
            numbers = custom_numbers or self._parse(spec, checked)
            row = self._custom_row(spec, base, numbers)
            row.hidden = checked != CUSTOM
            group.appendChild(row)
            error = el("p", "move-error", None, {"role": "alert", "id": f"ng-{spec.key}-error"})
            self.errors[spec.key] = error
            group.appendChild(error)
        note = el("p", "dialog-hint", None, {"hidden": True, "data-unavailable": spec.key})
        self.notes[spec.key] = note
        group.appendChild(note)
        self.form.appendChild(group)
        if has(f"{base}.hint"):
            self.form.appendChild(el("p", "dialog-hint", t(f"{base}.hint")))

    def _build_switches(self, preset: dict[str, Any]) -> None:
        group = el("fieldset", "choice-group switch-group", None, {"data-name": "switches"})
        group.appendChild(el("legend", None, t(f"option.{self.game_id}.switches") if has(f"option.{self.game_id}.switches")
                             else t("newgame.switches")))
        for spec in self.switches:
            value = preset.get(spec.key)
            checked = value if isinstance(value, bool) else spec.default
            box = el("input", None, None, {"type": "checkbox", "name": spec.key, "id": f"ng-{spec.key}",
                                           "checked": checked})
            self.listeners.on(box, "change", lambda event: self.refresh())
            label = el("label", "view-toggle", None, {"for": f"ng-{spec.key}"},
                       [box, el("span", None, t(f"option.{self.game_id}.{spec.key}"))])
            group.appendChild(label)
            hint = f"option.{self.game_id}.{spec.key}.hint"
            if has(hint):
                group.appendChild(el("p", "dialog-hint", t(hint)))
        self.form.appendChild(group)

    def switch_value(self, spec: OptionSpec) -> bool:
        box = self.form.querySelector(f'input[name="{spec.key}"]')
        return bool(box.checked) if present(box) else bool(spec.default)

    @staticmethod
    def _parse(spec: OptionSpec, value: Any) -> tuple[int, ...] | None:
        try:
            return spec.custom.parse(value)
        except GameError:
            return None

    def _custom_row(self, spec: OptionSpec, base: str, numbers: tuple[int, ...] | None) -> Any:
        """The number inputs, shown while "Custom" is picked; they start from
        the preset picked last, so "Custom" begins at a size the player saw."""
        custom = spec.custom
        row = el("div", "choice-row custom-row", None, {"data-custom": spec.key})
        for index, part in enumerate(custom.parts):
            box = el("input", "move-input", None, {
                "type": "number", "id": f"ng-{spec.key}-{part}", "name": f"{spec.key}-{part}",
                "min": custom.low, "max": custom.high, "step": 1, "inputmode": "numeric",
                "value": numbers[index] if numbers else None})
            self.listeners.on(box, "input", lambda event, key=spec.key: self._typed(key))
            row.appendChild(el("label", "time-row", None, None,
                               [el("span", "time-row-label", t(f"{base}.{part}")), box]))
        return row

    def _chosen(self, spec: OptionSpec, chosen: str) -> None:
        if spec.custom is not None:
            row = self.form.querySelector(f'[data-custom="{spec.key}"]')
            row.hidden = chosen != CUSTOM
            numbers = self._parse(spec, chosen) if chosen != CUSTOM else None
            for part, number in zip(spec.custom.parts, numbers or ()):
                self.form.querySelector(f'input[name="{spec.key}-{part}"]').value = str(number)
            self._mark(spec.key, False)
        self.refresh()

    def _typed(self, key: str) -> None:
        radio = self.form.querySelector(f'input[name="{key}"][value="{CUSTOM}"]')
        if present(radio):
            radio.checked = True
        self._mark(key, False)
        self.refresh()

    def _mark(self, key: str, invalid: bool) -> None:
        """Show or clear the custom numbers' error (text and aria-invalid)."""
        spec = next(spec for spec in self.specs if spec.key == key)
        message = t("newgame.custom_range", low=spec.custom.low, high=spec.custom.high) if invalid else ""
        set_text(self.errors[key], message)
        for part in spec.custom.parts:
            box = self.form.querySelector(f'input[name="{key}-{part}"]')
            if invalid:
                box.setAttribute("aria-invalid", "true")
                box.setAttribute("aria-describedby", f"ng-{key}-error")
            else:
                box.removeAttribute("aria-invalid")

    # ----- reading -------------------------------------------------------------------
    def value(self, spec: OptionSpec) -> Any:
        """The option's value now; ``None`` while its custom numbers are not valid."""
        checked = _checked(self.form, spec.key)
        if checked != CUSTOM:   # the radio's text back to the choice itself (5, not "5")
            return next((v for v in spec.choices if str(v) == checked), spec.default)
        texts = [str(self.form.querySelector(f'input[name="{spec.key}-{part}"]').value or "").strip()
                 for part in spec.custom.parts]
        try:
            return spec.validate(spec.custom.separator.join(texts))
        except GameError:
            return None

    def values(self) -> dict[str, Any] | None:
        """Every option's value, or None after showing why one is not valid."""
        result = {}
        for spec in self.specs:
            value = self.value(spec)
            if value is None:
                self._mark(spec.key, True)
                self.form.querySelector(f'input[name="{spec.key}-{spec.custom.parts[0]}"]').focus()
                return None
            result[spec.key] = value
        for spec in self.switches:
            result[spec.key] = self.switch_value(spec)
        return result

    # ----- what may be combined --------------------------------------------------------
    def refresh(self) -> None:
        current = {spec.key: value for spec in self.specs if (value := self.value(spec)) is not None}
        current.update({spec.key: self.switch_value(spec) for spec in self.switches})
        for spec in self.specs:
            others = {key: value for key, value in current.items() if key != spec.key}
            base = f"option.{self.game_id}.{spec.key}"
            reasons = []
            for choice in spec.choices:
                radio = self.form.querySelector(f'input[name="{spec.key}"][value="{choice}"]')
                allowed = self._allowed({**others, spec.key: choice})
                radio.disabled = not allowed
                label = radio.parentNode
                if allowed:
                    label.removeAttribute("title")
                else:
                    key = next((k for k in (f"{base}.{choice}.unavailable", f"{base}.unavailable") if has(k)), "")
                    reason = t(key) if key else ""
                    if reason:
                        label.setAttribute("title", reason)
                        if reason not in reasons:
                            reasons.append(reason)
                    if radio.checked:
                        self._pick_allowed(spec, others)
            note = self.notes[spec.key]
            set_text(note, " ".join(reasons))
            note.hidden = not reasons

    def _allowed(self, options: dict[str, Any]) -> bool:
        try:
            self.cls.normalize_options(options)
        except GameError:
            return False
        return True

    def _pick_allowed(self, spec: OptionSpec, others: dict[str, Any]) -> None:
        order = [spec.default] + [c for c in spec.choices if c != spec.default]
        for choice in order:
            if self._allowed({**others, spec.key: choice}):
                self.form.querySelector(f'input[name="{spec.key}"][value="{choice}"]').checked = True
                return


def new_game_dialog(app: Any, game_id: str, preset: dict[str, str] | None = None) -> Dialog:
    """Choose opponent, side and the game's options; Start creates and opens the game.

    Generic over games: the opponents are the game's bot levels plus two
    players on this device, the sides are its seats, and every
    ``option_specs`` entry becomes a group (labels ``option.<game>.<key>``
    and ``option.<game>.<key>.<value>``, an optional ``...<key>.hint``).
    """
    from ..bots.registry import levels_for
    from ..core.registry import game_class

    from ..core.game_ui import game_ui

    cls = game_class(game_id)
    if cls.num_players == 1:
        return solo_game_dialog(app, game_id, preset)
    levels = levels_for(game_id)
    preset = dict(preset or {})
    suggested = []   # options set for a small screen, each said why
    if _small_screen():
        for key, value in game_ui(game_id).small_screen_options.items():
            if key not in preset:
                preset[key] = value
                suggested.append(key)
    dialog = Dialog(t("newgame.title", game=t(f"game.{game_id}.title")), "dialog-newgame")
    opponents = [(f"bot:{lv.key}", t("opponent.bot", level=t(f"bot.level.{lv.key}"))) for lv in levels]
    opponents.append(("human", t("opponent.hot_seat")))
    opponents.append((LINK, t("opponent.link")))
    opponents.append((ONLINE, t("opponent.online")))
    default_opponent = preset.get("opponent")
    if default_opponent not in [value for value, _ in opponents]:
        default_opponent = "bot:medium" if any(lv.key == "medium" for lv in levels) else opponents[0][0]
    form = el("form", "newgame-form", None, {"method": "dialog", "data-game": game_id})

    def opponent_changed(value: str) -> None:
        side_group.hidden = value == "human" or in_match()
        online_group.hidden = value != ONLINE
        if format_group is not None:   # a match is played on one device
            format_group.hidden = value in (ONLINE, LINK)
            side_group.hidden = value == "human" or in_match()

    def in_match() -> bool:
        return format_group is not None and not format_group.hidden and _checked(form, "format") != "single"

    def format_changed(value: str) -> None:
        side_group.hidden = _checked(form, "opponent") == "human" or value != "single"

    form.appendChild(_radio_group("opponent", t("newgame.opponent"), opponents, default_opponent,
                                  dialog.listeners, opponent_changed))
    seats = list(cls.seat_names)
    side = preset.get("side")
    side_group = _radio_group("side", t("newgame.side"),
                              [(name, t(f"seat.{name}")) for name in seats] + [("random", t("side.random"))],
                              side if side in seats + ["random"] else seats[0], dialog.listeners)
    form.appendChild(side_group)
    format_group = _format_fieldset(game_id, preset, dialog.listeners, format_changed)
    if format_group is not None:   # a match: the toss decides the sides
        form.appendChild(format_group)
    from .remote.setup import remote_choice, remote_fieldset, show_relay_problem, start_online_game
    online_group = remote_fieldset(dialog.listeners)
    online_group.hidden = default_opponent != ONLINE
    form.appendChild(online_group)
    if format_group is not None:
        format_group.hidden = default_opponent in (ONLINE, LINK)
    side_group.hidden = default_opponent == "human" or in_match()
    option_groups = OptionGroups(cls, game_id, form, preset, dialog.listeners)
    for key in suggested:
        hint_key = f"option.{game_id}.{key}.small_screen"
        group = form.querySelector(f'fieldset[data-name="{key}"]')
        if has(hint_key) and present(group):
            group.appendChild(el("p", "dialog-hint", t(hint_key), {"data-hint": "small-screen"}))
    from .play.time_controls import remember_time, remembered_time, time_choice, time_fieldset
    time_preset = {**remembered_time(), **{key: value for key, value in preset.items() if key.startswith("time_")}}
    form.appendChild(time_fieldset(time_preset, dialog.listeners, game_id))
    dialog.body.appendChild(form)

    def start() -> None:
        options = option_groups.values()
        if options is None:   # custom numbers out of range: the form says so
            return
        choice = {"opponent": _checked(form, "opponent"), "side": _checked(form, "side"),
                  **options, **time_choice(form)}
        remember_time(choice)
        if choice["opponent"] == ONLINE:
            online = remote_choice(form)
            if online is None:   # the relay's address is not one: the form says so
                return
            # The dialog stays open, every choice kept, until the relay answers: if it cannot be
            # reached, the dialog says what to do and offers to play by link instead.
            start_button.disabled = True

            def failed(words: str) -> None:
                start_button.disabled = False
                if dialog.is_open:
                    show_relay_problem(form, dialog.listeners, words, lambda: by_link_instead())
                else:   # closed while connecting: the problem is said anyway
                    app.notice(words, "error", sticky=True)

            def by_link_instead() -> None:
                form.querySelector(f'input[name="opponent"][value="{LINK}"]').click()
                start()
            start_online_game(app, game_id, choice, chosen_options(cls, choice), *online,
                              on_failed=failed, on_started=dialog.close)
            return
        if format_group is not None and choice["opponent"] != LINK:
            choice["format"] = _checked(form, "format")
        dialog.close()
        if choice.get("format") == FORMAT_MATCH:
            app.start_match(game_id, choice)
        else:
            create_game(app, game_id, choice)

    dialog.add_button(t("dialog.cancel"))
    start_button = dialog.add_button(t("newgame.start"), start, "primary", close=False,
                                     attrs={"data-action": "start"})

    return _open_starting_on_enter(dialog, form, start_button)


def solo_game_dialog(app: Any, game_id: str, preset: dict[str, str] | None = None) -> Dialog:
    """A one-player game's new-game dialog: its options only (Abatis: the
    mode and the scenario); no opponent, side or clock."""
    from ..core.registry import game_class

    cls = game_class(game_id)
    dialog = Dialog(t("newgame.title", game=t(f"game.{game_id}.title")), "dialog-newgame")
    form = el("form", "newgame-form", None, {"method": "dialog", "data-game": game_id})
    option_groups = OptionGroups(cls, game_id, form, dict(preset or {}), dialog.listeners)
    dialog.body.appendChild(form)

    def start() -> None:
        options = option_groups.values()
        if options is None:
            return
        dialog.close()
        create_game(app, game_id, {"opponent": "solo", **options})

    dialog.add_button(t("dialog.cancel"))
    start_button = dialog.add_button(t("newgame.start"), start, "primary", close=False,
                                     attrs={"data-action": "start"})

    return _open_starting_on_enter(dialog, form, start_button)


def _open_starting_on_enter(dialog: Dialog, form: Any, start_button: Any) -> Dialog:
    """Open a new-game dialog whose Enter on any choice presses Start.

    Enter on a radio submits the form, which would close the <dialog>
    natively, behind Dialog's back; and the browser submits on Enter only
    while the form has at most one text-like field (the custom size's
    numbers are two).  The focus starts on the first choice: the dialog
    opens at its top, and Enter there starts a game with every choice as
    it stands.
    """
    def submitted(event: Any) -> None:
        event.preventDefault()
        start_button.click()

    def key_pressed(event: Any) -> None:
        target = event.target
        if str(event.key) != "Enter" or bool(getattr(event, "isComposing", False)) \
                or str(getattr(target, "tagName", "") or "").upper() != "INPUT":
            return
        if str(target.type) in ("radio", "checkbox", "number", "text"):
            event.preventDefault()
            start_button.click()
    dialog.listeners.on(form, "submit", submitted)
    dialog.listeners.on(form, "keydown", key_pressed)
    first = form.querySelector('input[type="radio"]:checked')
    dialog.open(focus=first if present(first) else start_button)
    return dialog


FORMAT_MATCH = "match"
ONLINE = "online"
LINK = "link"
"""The new-game dialog's opponent "a friend, by link" (``ui/remote/link.py``)."""
"""The opponent "a friend online" (``remote.online``)."""
FORMAT_SINGLE = "single"


def _format_fieldset(game_id: str, preset: dict[str, str], listeners: Listeners,
                     on_change: Callable[[str], Any]) -> Any | None:
    """The "Format" group for games played as matches (``play.match`` plays them)."""
    from ..core.registry import entry
    games = entry(game_id).match_games
    if games < 2:
        return None
    chosen = preset.get("format") if preset.get("format") in (FORMAT_MATCH, FORMAT_SINGLE) else FORMAT_MATCH
    group = _radio_group("format", t("match.format"),
                         [(FORMAT_MATCH, t("match.format.match", count=games)),
                          (FORMAT_SINGLE, t("match.format.single"))], chosen, listeners, on_change)
    group.appendChild(el("p", "dialog-hint", t("match.format.hint")))
    return group


def _small_screen() -> bool:
    """A phone-sized viewport, where a big field's points are too close to tap."""
    try:
        return bool(js.matchMedia("(max-width: 600px), (max-height: 500px)").matches)
    except Exception:  # very old engines: no matchMedia
        return False


def create_game(app: Any, game_id: str, choice: dict[str, str], seats: list[Any] | None = None,
                meta: dict[str, Any] | None = None) -> None:
    """Make, save and open a new session from the dialog's choices (``seats``
    and more ``meta`` when a match has decided them)."""
    from ..core.registry import game_class
    from ..core.session import Seat, Session
    from .saves import storage
    from .saves.session_store import session_meta

    cls = game_class(game_id)
    names = list(cls.seat_names)
    opponent = choice.get("opponent") or "human"
    side = choice.get("side") or names[0]
    if side == "random":
        side = random.choice(names)
    seat = names.index(side) if side in names else 0
    if seats is not None:
        pass
    elif cls.num_players == 1:
        seats = [Seat("human")]
    elif opponent == "human":
        seats = [Seat("human"), Seat("human")]
    elif opponent == LINK:   # a friend by link: they sit in the other seat, this device keeps the link's name
        seats = [Seat("human"), Seat("link")] if seat == 0 else [Seat("link"), Seat("human")]
        meta = {**(meta or {}), "link": {"id": storage.new_session_id(), "seat": seat}}
    else:
        bot = Seat("bot", opponent.split(":", 1)[1])
        seats = [Seat("human"), bot] if seat == 0 else [bot, Seat("human")]
    game = cls(chosen_options(cls, choice), seed=random.randrange(1 << 31))
    session_id = storage.new_session_id()
    from .play.time_controls import control_from_choice
    session = Session(game, seats, session_id, meta={"created": float(js.Date.now()),
                                                      "choice": dict(choice), **(meta or {})},
                      time_control=control_from_choice(choice))
    session.meta.update(session_meta(session))
    app.open_session(session)


def chosen_options(cls: type[Game], choice: dict[str, str]) -> dict[str, Any]:
    """The game's options from the dialog's choices (a stale or edited one: the default)."""
    options = {}
    for spec in cls.option_specs:
        if spec.key in choice:   # a choice, or an on/off switch
            try:
                options[spec.key] = spec.validate(choice[spec.key])
            except GameError:
                pass
    try:
        cls.normalize_options(options)
    except GameError:
        options = {}
    return options


# ----- game over ---------------------------------------------------------------------

def game_over_dialog(app: Any, title: str, reason: str, on_new_game: Callable[[], Any],
                     extra: Any = None, next_game: tuple[str, Callable[[], Any]] | None = None) -> Dialog:
    """The result; ``extra`` (a match's table) under it; the main button
    starts a new game, or the match's ``next_game`` (label, action)."""
    dialog = Dialog(title, "dialog-over")
    dialog.body.appendChild(el("p", "over-reason", reason))
    if extra is not None:
        dialog.body.appendChild(extra)
    dialog.add_button(t("over.home"), lambda: app.go("#/"))
    dialog.add_button(t("over.review"), attrs={"data-action": "review"})
    if next_game is not None:
        label, action = next_game
        main = dialog.add_button(label, action, "primary", attrs={"data-action": "next-game"})
    else:
        main = dialog.add_button(t("over.new_game"), on_new_game, "primary", attrs={"data-action": "new-game"})
    return dialog.open(focus=main)
