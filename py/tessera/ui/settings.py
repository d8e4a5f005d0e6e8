"""Player settings: one list of specs, stored in ``localStorage``, one menu.

Every setting is a ``SettingSpec`` in ``SPECS``: its key, its choices (a
switch is ``("on", "off")``), the default, and optionally when it is offered
(``available``) and what changing it does to the page at once (``apply``).
The settings dialog (the gear in the header) is built from that list, so a
new setting (animation speed, sound) is one ``register(SettingSpec(...))``
and two catalog keys: ``setting.<key>`` (its label) and, for a choice,
``setting.<key>.<choice>``; ``setting.<key>.hint`` adds a line under it.

Values are read once and kept in memory (a board reads them on every
frame); ``set_value`` stores, applies and tells every subscriber (boards
redraw, screens update).  The theme is resolved by ``assets/js/theme.js``,
which runs before Python so the page never flashes the wrong colours.
"""

from __future__ import annotations

from typing import Any, Callable

import js  # type: ignore[import-not-found]

from ..core.plain_values import PlainValue
from ..core.view import ViewState
from ..i18n import has, t
from .saves import storage
from .dom import Listeners, button, el, present

KEY_PREFIX = storage.PREFIX + "settings/"
SWITCH = ("on", "off")


class SettingSpec(PlainValue):
    """One setting: what it may be, and what choosing it does.

    ``available``: offered only when this says so (e.g. on touch screens);
    None: always.  ``apply`` is called with the value at start and after
    every change.
    """

    __slots__ = ("key", "choices", "default", "available", "apply")

    def __init__(self, key: str, choices: tuple[str, ...], default: str,
                 available: Callable[[], bool] | None = None,
                 apply: Callable[[str], None] | None = None) -> None:
        self.key = key
        self.choices = choices
        self.default = default
        self.available = available
        self.apply = apply

    @property
    def storage_key(self) -> str:
        return KEY_PREFIX + self.key

    @property
    def is_switch(self) -> bool:
        return self.choices == SWITCH


# ----- what the page does with them ---------------------------------------------------

_touch_seen = False


def touch_possible() -> bool:
    """A touch screen: a coarse pointer, touch points, or a touch already seen."""
    if _touch_seen:
        return True
    try:
        if js.matchMedia("(any-pointer: coarse)").matches:
            return True
        return int(getattr(js.navigator, "maxTouchPoints", 0) or 0) > 0
    except Exception:  # very old engines: no matchMedia
        return False


def _apply_theme(value: str) -> None:
    theme = getattr(js, "tesseraTheme", None)
    if theme is not None and present(theme):
        theme.set(value)
    else:   # theme.js missing: resolve here (no system following then)
        dark = value == "dark" or (value == "auto" and bool(js.matchMedia("(prefers-color-scheme: dark)").matches))
        js.document.documentElement.dataset.theme = "dark" if dark else "light"


def _apply_shapes(value: str) -> None:
    js.document.documentElement.dataset.shapes = value


def _apply_coordinates(value: str) -> None:
    js.document.documentElement.dataset.coordinates = value


SPECS: list[SettingSpec] = [
    SettingSpec("theme", ("auto", "light", "dark"), "auto", apply=_apply_theme),
    SettingSpec("coordinates", SWITCH, "on", apply=_apply_coordinates),
    SettingSpec("shapes", SWITCH, "off", apply=_apply_shapes),
    SettingSpec("confirm-touch", SWITCH, "on", available=touch_possible),
]
"""The settings, in the menu's order."""

_values: dict[str, str] = {}
_subscribers: list[Callable[[str, str], Any]] = []
_listeners = Listeners()


def register(spec: SettingSpec) -> None:
    """Add a setting (or replace one with the same key), keeping the order."""
    for index, existing in enumerate(SPECS):
        if existing.key == spec.key:
            SPECS[index] = spec
            break
    else:
        SPECS.append(spec)
    _values.pop(spec.key, None)
    if spec.apply is not None:
        spec.apply(get(spec.key))


def spec_for(key: str) -> SettingSpec:
    for spec in SPECS:
        if spec.key == key:
            return spec
    raise KeyError(key)


def get(key: str) -> str:
    """The setting's value: stored, else its default (a stored value that is
    not one of its choices counts as the default)."""
    value = _values.get(key)
    if value is None:
        spec = spec_for(key)
        stored = storage.get_text(spec.storage_key)
        value = _values[key] = stored if stored in spec.choices else spec.default
    return value


def is_on(key: str) -> bool:
    return get(key) == "on"


def set_value(key: str, value: str) -> None:
    """Store, apply and announce a new value (it holds for this page even
    when storage is full)."""
    spec = spec_for(key)
    if value not in spec.choices:
        raise ValueError(f"{key}: {value!r} is not one of {spec.choices}")
    _values[key] = value
    try:
        storage.set_text(spec.storage_key, value)
    except storage.StorageFull:
        pass
    if spec.apply is not None:
        spec.apply(value)
    _notify(key, value)


def subscribe(callback: Callable[[str, str], Any]) -> Callable[[], None]:
    """``callback(key, value)`` after every change; returns the unsubscriber."""
    _subscribers.append(callback)

    def unsubscribe() -> None:
        if callback in _subscribers:
            _subscribers.remove(callback)
    return unsubscribe


def _notify(key: str, value: str) -> None:
    for callback in list(_subscribers):
        try:
            callback(key, value)
        except Exception as error:  # one broken listener must not stop the others
            js.console.error(f"settings listener: {type(error).__name__}: {error}")


def theme() -> str:
    """The theme in force (``light`` or ``dark``), as theme.js resolved it."""
    # A page that is not the app's (an embedded board's host) has no data-theme: the
    # missing property is an AttributeError through the JS proxy, not undefined.
    value = str(getattr(js.document.documentElement.dataset, "theme", None) or "")
    return value if value in ("light", "dark") else "light"


def apply_to_view(state: ViewState) -> None:
    """Copy what the board views draw by into ``state`` (every frame: cheap)."""
    state.theme = theme()
    state.coordinates = get("coordinates") != "off"
    state.shapes = is_on("shapes")


# ----- start-up and the menu ----------------------------------------------------------

def install(app: Any) -> None:
    """Apply every setting, follow the system theme, and put the gear in the header."""
    for spec in SPECS:
        if spec.apply is not None:
            spec.apply(get(spec.key))

    def touched(event: Any) -> None:
        global _touch_seen
        if str(getattr(event, "pointerType", "")) == "touch" and not _touch_seen:
            _touch_seen = True
    _listeners.on(js.window, "pointerdown", touched)
    # theme.js says when the system theme changes while the setting is "auto".
    _listeners.on(js.window, "tessera-theme", lambda event: _notify("theme", get("theme")))
    header = js.document.querySelector(".site-header")
    if present(header) and not present(js.document.getElementById("settings-button")):
        gear = button(t("settings.open"), lambda event: open_dialog(), _listeners, "btn-icon header-settings",
                      {"id": "settings-button", "data-action": "settings"}, icon="settings")
        header.appendChild(gear)
    app.settings_button = js.document.getElementById("settings-button")


def relabel() -> None:
    """The gear's name in the current language (after a language change)."""
    gear = js.document.getElementById("settings-button")
    if present(gear):
        gear.setAttribute("aria-label", t("settings.open"))
        gear.setAttribute("title", t("settings.open"))


def _label(key: str, choice: str) -> str:
    own = f"setting.{key}.{choice}"
    return t(own) if has(own) else t(f"setting.choice.{choice}")


def _control(spec: SettingSpec, listeners: Listeners) -> Any:
    """A checkbox for a switch, a row of radio chips for a choice."""
    key = spec.key
    hint = el("p", "dialog-hint setting-hint", t(f"setting.{key}.hint"), {"id": f"setting-{key}-hint"}) \
        if has(f"setting.{key}.hint") else None
    if spec.is_switch:
        box = el("input", None, None, {"type": "checkbox", "id": f"setting-{key}", "name": key,
                                       "checked": get(key) == "on",
                                       "aria-describedby": f"setting-{key}-hint" if hint else None})
        listeners.on(box, "change", lambda event: set_value(key, "on" if box.checked else "off"))
        row = el("label", "setting-row setting-switch", None, {"for": f"setting-{key}"},
                 [box, el("span", None, t(f"setting.{key}"))])
        return el("div", "setting", None, {"data-setting": key}, [row, hint])
    group = el("fieldset", "choice-group setting", None, {"data-setting": key})
    group.appendChild(el("legend", None, t(f"setting.{key}")))
    row = el("div", "choice-row")
    for choice in spec.choices:
        input_id = f"setting-{key}-{choice}"
        radio = el("input", None, None, {"type": "radio", "name": f"setting-{key}", "value": choice,
                                         "id": input_id, "checked": get(key) == choice})
        listeners.on(radio, "change", lambda event, choice=choice: set_value(key, choice))
        row.appendChild(el("label", "choice choice-small", None, {"for": input_id},
                           [radio, el("span", None, _label(key, choice))]))
    group.appendChild(row)
    if hint is not None:
        group.appendChild(hint)
    return group


def open_dialog() -> Any:
    """The settings menu: every available setting, applied as soon as it changes."""
    from .dialogs import Dialog

    dialog = Dialog(t("settings.title"), "dialog-settings")
    form = el("form", "settings-form", None, {"method": "dialog"})
    for spec in SPECS:
        if spec.available is not None and not spec.available():
            continue
        form.appendChild(_control(spec, dialog.listeners))
    dialog.listeners.on(form, "submit", lambda event: (event.preventDefault(), dialog.close()))
    dialog.body.appendChild(form)
    done = dialog.add_button(t("dialog.close"), kind="primary", attrs={"data-action": "close"})
    first = form.querySelector("input:checked") or form.querySelector("input")
    return dialog.open(focus=first if present(first) else done)
