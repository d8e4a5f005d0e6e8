"""Starting a game with a friend online: the relay's address, your name, the room.

The new-game dialog's part for "Play a friend online" (``remote_fieldset``,
``remote_choice``) and ``start_online_game``, which asks the relay for a room
and opens the game like any new one (the invite link is on the play screen,
``online``).  The address and name typed are kept for next time.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import create_once_callable, to_js  # type: ignore[import-not-found]

from ...core.remote import MAX_URL_CHARS, RemoteInfo, relay_message, session_from_state
from ...i18n import say, t
from ..saves import storage
from ..dom import Listeners, el, present, set_text
from ..play.panels import error_words
from .relay_socket import RelaySocket

RELAY_KEY = storage.PREFIX + "relay"
NAME_KEY = storage.PREFIX + "name"
MAX_NAME_CHARS = 40


# ----- settings: the relay's address and the player's name ---------------------------------

def named_relays() -> list[str]:
    """The relays this build of the site names (``./build.sh build --relay``
    or ``site.json``: ``<meta name="tessera-relays">``), each checked."""
    meta = js.document.querySelector('meta[name="tessera-relays"]')
    try:
        relays = json.loads(str(meta.content or "[]")) if present(meta) else []
    except (ValueError, RecursionError):
        return []
    return [r for r in relays if isinstance(r, str) and check_relay(r) is None] if isinstance(relays, list) else []


def default_relay() -> str:
    """The relay last used here; else the first the site names; else one on
    this machine for a page served locally (``./build.sh serve`` starts it);
    else none: a static host has no relay unless its site names one."""
    stored = storage.get_text(RELAY_KEY)
    if stored and check_relay(stored) is None:
        return stored
    named = named_relays()
    if named:
        return named[0]
    host = str(js.location.hostname or "")
    if host in ("", "127.0.0.1", "localhost", "[::1]"):
        return "ws://127.0.0.1:8765"
    return ""


def check_relay(address: str) -> str | None:
    """None if ``address`` can be a relay's (ws:// or wss://), else the catalog key saying why not."""
    text = address.strip()
    if not text.startswith(("ws://", "wss://")) or len(text) <= len("wss://"):
        return "remote.relay_scheme"
    if len(text) > MAX_URL_CHARS or any(char.isspace() for char in text):
        return "remote.relay_bad"
    return None


def player_name() -> str:
    return (storage.get_text(NAME_KEY) or "")[:MAX_NAME_CHARS]


def remember(relay: str, name: str) -> None:
    for key, value in ((RELAY_KEY, relay), (NAME_KEY, name)):
        try:
            storage.set_text(key, value)
        except Exception:  # storage full or off: the choice holds for this game
            pass


def remote_fieldset(listeners: Listeners) -> Any:
    """The new-game dialog's part for online play: the relay's address and your name."""
    relay = el("input", "text-input", None, {"type": "url", "id": "ng-relay", "name": "relay",
                                             "value": default_relay(), "spellcheck": "false",
                                             "autocapitalize": "off", "inputmode": "url",
                                             "placeholder": "wss://…", "list": "ng-relays"})
    suggestions = el("datalist", None, None, {"id": "ng-relays"},
                     [el("option", None, None, {"value": address}) for address in named_relays()])
    name = el("input", "text-input", None, {"type": "text", "id": "ng-name", "name": "player_name",
                                            "value": player_name(), "maxlength": str(MAX_NAME_CHARS),
                                            "autocomplete": "nickname"})
    error = el("p", "dialog-error", None, {"id": "ng-relay-error", "aria-live": "assertive", "hidden": True})
    problem = el("div", "relay-problem", None, {"id": "ng-relay-problem", "role": "alert", "hidden": True})

    def edited(event: Any) -> None:
        error.hidden = True
        problem.hidden = True
    listeners.on(relay, "input", edited)
    hint = t("remote.hint") if default_relay() else t("remote.no_relay")
    group = el("fieldset", "choice-group remote-group", None, {"data-name": "remote"}, [
        el("legend", None, t("remote.legend")),
        el("label", "field-label", t("remote.relay"), {"for": "ng-relay"}), relay, suggestions,
        el("label", "field-label", t("remote.name"), {"for": "ng-name"}), name, error,
        problem,
        el("p", "dialog-hint", hint),
    ])
    return group


def show_relay_problem(form: Any, listeners: Listeners, words: str, by_link: Any) -> None:
    """The relay could not start the game: say so in the dialog (every choice
    kept), what to do, and offer to play the friend by link instead."""
    box = form.querySelector("#ng-relay-problem")
    if not present(box):
        return
    while box.firstChild:
        box.removeChild(box.firstChild)
    box.appendChild(el("p", None, words))
    box.appendChild(el("p", "dialog-hint", t("remote.what_to_do")))
    link = el("button", "btn", t("remote.by_link_instead"), {"type": "button", "data-action": "by-link-instead"})
    listeners.on(link, "click", lambda event: by_link())
    box.appendChild(link)
    box.hidden = False
    box.scrollIntoView(to_js({"block": "nearest"}, dict_converter=js.Object.fromEntries))


def remote_choice(form: Any) -> tuple[str, str] | None:
    """The relay and name typed in the dialog, or None after saying what is wrong."""
    relay = str(form.querySelector("#ng-relay").value or "").strip()
    name = " ".join(str(form.querySelector("#ng-name").value or "").split())[:MAX_NAME_CHARS]
    problem = check_relay(relay)
    if problem is not None:
        error = form.querySelector("#ng-relay-error")
        set_text(error, t(problem))
        error.hidden = False
        form.querySelector("#ng-relay").focus()
        return None
    return relay, name


# ----- creating a room --------------------------------------------------------------------

def start_online_game(app: Any, game_id: str, choice: dict[str, str], options: dict[str, Any],
                      relay: str, name: str, on_failed: Any = None, on_started: Any = None) -> None:
    """Ask ``relay`` for a room of this game with these options and open it
    (the invite is on the play screen); a refusal or no answer is said, to
    ``on_failed(words)`` when given (the dialog keeps the choices) else in a
    notice; ``on_started`` is called before the game opens."""
    from ...core.registry import game_class
    from ..play.time_controls import control_from_choice

    remember(relay, name)
    cls = game_class(game_id)
    names = list(cls.seat_names)
    side = choice.get("side") or names[0]
    seat = names.index(side) if side in names else random.randrange(2)
    control = control_from_choice(choice)
    request: dict[str, Any] = {"type": "create", "protocol": 1, "id": 1, "game": game_id,
                               "options": options, "seed": random.randrange(1 << 31),
                               "time_control": control.to_json() if control is not None else None,
                               "seat": seat}
    if name:
        request["name"] = name
    notice = app.notice(lambda: t("remote.connecting", relay=relay), "info", sticky=True)
    answers: dict[str, Any] = {}

    def finish(words: str | None) -> None:
        if answers.get("finished"):
            return
        answers["finished"] = True
        socket.close()
        app.notice_list.close_box(notice)
        if words is None:
            return
        if on_failed is not None:
            on_failed(words)
        else:
            app.notice(words, "error", sticky=True)

    def message(data: Any) -> None:
        kind = data.get("type") if isinstance(data, dict) else None
        if kind == "created":
            answers["created"] = data
        elif kind == "error":
            finish(say(relay_message(data)))
        elif kind == "state" and "created" in answers:
            created = answers["created"]
            try:
                info = RemoteInfo(relay, str(created["room"]), str(created["secret"]), int(created["seat"]),
                                  invite=str(created["invite"]), spectate=str(created.get("spectate") or "") or None)
                session = session_from_state(data, info, local_id(info.room, info.secret),
                                             {"created": float(js.Date.now()), "choice": dict(choice)})
            except Exception as error:  # an answer we cannot use: say so, keep nothing
                finish(t("remote.cannot_start", detail=error_words(error)))
                return
            finish(None)
            if on_started is not None:
                on_started()
            open_remote_session(app, session)

    def closed(code: int) -> None:
        if not socket.closed:
            finish(t("remote.unreachable", relay=relay))

    socket = RelaySocket(relay, lambda: socket.send(request), message, closed, retry=False)
    socket.connect()
    give_up_later(socket, lambda: finish(t("remote.unreachable", relay=relay)))


ANSWER_TIMEOUT_S = 15.0
"""How long starting or joining a game waits for the relay before saying it cannot reach it."""


def give_up_later(socket: RelaySocket, give_up: Any) -> None:
    """Call ``give_up`` if ``socket`` is still waiting after ``ANSWER_TIMEOUT_S``
    (a relay that accepts the connection and never answers)."""
    def check() -> None:
        if not socket.closed:
            give_up()
    js.setTimeout(create_once_callable(check), int(ANSWER_TIMEOUT_S * 1000))


def open_remote_session(app: Any, session: Any) -> None:
    from ..saves.session_store import session_meta
    session.meta.update(session_meta(session))
    app.open_session(session)


def local_id(room: str, secret: str) -> str:
    """The saved game of this room and seat on this device (the same link opens the same game)."""
    digest = hashlib.sha256(f"{room}\n{secret}".encode("utf-8", "replace")).hexdigest()
    return "r" + digest[:20]
