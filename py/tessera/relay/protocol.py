"""The relay protocol, version 1: typed JSON messages, parsed strictly.

Every message is one JSON object in one WebSocket text frame, with a
``type`` and the protocol version ``"protocol": 1``.  A client message may
carry an ``"id"`` (a whole number), which the relay echoes in its direct
reply (``created``, ``state``, ``pong``, ``error``, and the ``moved`` that
confirms the sender's own move), so a client can match answers to requests.

Client to relay::

    create           game, options?, seed?, time_control?, seat?, name?
    join             room, secret, since?, name?
    restore          room, secret, keys, game, options, seed, time_control,
                     moves, version, clock?, name?, opponent?
    move             move, version
    resign
    offer_draw
    answer_draw      accept
    request_takeback
    answer_takeback  accept
    ping

Relay to client::

    created          room, seat, secret, invite, spectate
    state            room, game, options, seed, time_control, you, version,
                     from_ply, moves, ply, to_move, result, draw_offer,
                     takeback, players, clock, keys (seats only)
    moved            seat, move, ply, version, to_move, result, clock
    presence         seat, status ("connected" | "disconnected" | "back"), name, clock
    draw_offered     seat            draw_declined     seat
    takeback_requested seat          takeback_declined seat
    took_back        seat, ply, version, to_move, clock
    ended            result, version, clock
    pong
    error            code, key, values, fatal

Field meanings:

* ``room`` is the room's id; ``secret`` is what holds a seat (``created``
  gives the creator theirs, ``invite`` is the other seat's secret and
  ``spectate`` the watchers' token).  ``join`` with a seat's secret plays
  that seat, with the spectator token watches.  Secrets travel in the page
  URL's fragment, which browsers never send to a server.
* ``version`` is the room's state version: it grows by one with every
  change of the game (a move, an accepted takeback, an ending).  A ``move``
  names the version it was made on; another one is ``stale``.  Draw offers
  and takeback requests do not change it (the game is the same).
* ``since`` (in ``join``): the version the client already has.  The relay
  answers with ``from_ply`` and ``moves``: keep the first ``from_ply``
  moves, drop the rest, append ``moves``.  Without ``since`` (or one the
  relay cannot use) ``from_ply`` is 0 and ``moves`` is the whole record.
* ``move`` is a move in the game's record notation (``tessera/1``); the
  relay answers with the notation as the game writes it.
* ``keys`` (in ``state``, to the players only) are the SHA-256 of the two
  seats' secrets and of the spectator token, as the room keeps them; the
  room's id is made from them (``rooms.room_id_for``).
* ``restore`` brings back a game the relay lost (it answered ``lost``: a
  Redis restarted without persistence, a relay restarted in memory, a room
  expired): a player's page sends its own record with its seat's secret
  and the room's ``keys``.  The relay replays every move on the engine
  (an illegal one is refused like a ``move``), checks that the keys make
  the room's id and that the secret is one of the seats', and makes the
  room again with the same id and secrets, so the other player's link
  works as before; the answer is ``state``.  If the room exists by then (the
  other player restored it first) a ``restore`` is a ``join``.  A stated
  ending is not restored (an ended game needs no relay), and the clock
  restarts from the page's figures, each capped at what the time control
  can have given.
* ``result`` is ``null`` or ``{"winner": 0 | 1 | null, "reason": key}``.
* ``clock`` is ``null`` or ``{"control": {...}, "remaining": [...],
  "running": seat | null, "move_spent": seconds}`` (``core/clock.py``).
* ``time_control`` is ``null`` or ``{"total", "per_move", "increment"}``
  in seconds (``core/clock.py``'s ``TimeControl``).
* ``error``: ``code`` is a stable machine name (``ERROR_CODES``), ``key``
  the catalog key ``relay.error.<code>`` (``i18n/relay.json``) and
  ``values`` its placeholders, some of which are themselves
  ``{"key", "values"}`` (an engine's reason for an illegal move), so a page
  words every error in its language.  ``fatal`` says the relay closes the
  connection after it.  An error never changes the game.

Parsing is strict, so bad input is refused before it reaches a room: only
text frames are read (a binary one is ``not_text``); the size is checked
before anything else (``MAX_MESSAGE_BYTES``; a ``restore``, which carries a
whole record, may be up to ``MAX_RESTORE_BYTES`` if its text begins with
``{"type":"restore"``), then the nesting depth on the raw text
(``MAX_DEPTH``, so no parser recursion), then JSON (no NaN or Infinity, no
repeated keys), then the type and each field: a missing, extra or wrongly
typed field is an error naming the field.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Mapping

PROTOCOL_VERSION = 1
MAX_MESSAGE_BYTES = 8192
"""Our own cap on one message; the largest real one but ``restore`` (``create``
with options and a time control) is a few hundred bytes."""
MAX_RESTORE_BYTES = 65536
"""A ``restore`` carries a whole record: a long Dots game is about 10 KB."""
RESTORE_START = '{"type":"restore"'
"""How a ``restore`` longer than ``MAX_MESSAGE_BYTES`` must begin (so any other
message is refused by its size before it is parsed)."""
TRANSPORT_MAX_BYTES = MAX_RESTORE_BYTES
"""The socket's own cap (websockets' ``max_size``): a message between ours and
this gets a typed ``too_large`` error, a larger one closes the connection (1009)."""
MAX_DEPTH = 6
"""Deepest nesting of objects and arrays accepted (a ``create`` needs 3)."""
MAX_ID = 2 ** 53 - 1
MAX_NAME_CHARS = 40
MAX_GAME_ID_CHARS = 32
MAX_ROOM_ID_CHARS = 64
MAX_SECRET_CHARS = 128
MAX_MOVE_CHARS = 256
MAX_SEED = 2 ** 32 - 1
MAX_RECORD_MOVES = 20_000
"""The longest record a ``restore`` may carry (``rooms.MAX_PLIES``)."""
KEY_CHARS = 64
"""A key is a SHA-256 in hex."""

ERROR_CODES: dict[str, tuple[str, ...]] = {
    # parsing
    "too_large": ("count",),
    "not_utf8": (),
    "bad_json": (),
    "too_deep": ("count",),
    "not_object": (),
    "bad_protocol": ("value", "expected"),
    "unknown_type": ("value",),
    "missing_field": ("field",),
    "extra_field": ("field",),
    "wrong_type": ("field", "expected"),
    "bad_value": ("field",),
    "not_text": (),
    # rooms
    "not_joined": (),
    "already_joined": (),
    "no_access": (),
    "lost": (),
    "spectator": (),
    "not_your_turn": (),
    "stale": ("version", "current"),
    "bad_notation": ("move", "reason"),
    "illegal_move": ("move", "reason"),
    "game_over": (),
    "bad_game": ("reason",),
    "not_two_players": ("game",),
    "draw_offered": (),
    "draw_too_soon": ("seconds",),
    "no_draw_offer": (),
    "takeback_pending": (),
    "no_takeback": (),
    "nothing_to_take_back": (),
    "record_full": ("count",),
    # limits and the connection
    "too_many_rooms": ("count",),
    "room_quota": ("count",),
    "too_many_connections": ("count",),
    "rate_limited": (),
    "too_often": (),
    "too_many_spectators": ("count",),
    "address_rooms": ("count",),
    "address_connections": ("count",),
    "address_busy": (),
    "join_timeout": ("count",),
    "idle": ("count",),
    "replaced": (),
    "unavailable": (),
    "internal": (),
}
"""Every error code and the names of its values (the catalog key
``relay.error.<code>`` has exactly these placeholders)."""


class RelayError(Exception):
    """A refusal the client is told about: a code from ``ERROR_CODES`` and its values.

    ``values`` are JSON: text, numbers, or ``{"key", "values"}`` for a nested
    catalog message (``message_json``).  ``fatal`` closes the connection.
    """

    def __init__(self, code: str, /, fatal: bool = False, **values: Any) -> None:
        if code not in ERROR_CODES:
            code, values = "internal", {}
        self.code = code
        self.values = {name: json_value(value) for name, value in values.items()}
        self.fatal = fatal
        super().__init__(f"{code} {self.values}" if self.values else code)

    @property
    def key(self) -> str:
        return f"relay.error.{self.code}"

    def reply(self, request_id: int | None = None) -> dict[str, Any]:
        return message("error", request_id, code=self.code, key=self.key, values=self.values, fatal=self.fatal)


def json_value(value: Any) -> Any:
    """A value of a catalog message as JSON: keyed messages and errors become
    ``{"key", "values"}`` (recursively), tuples lists, other objects text."""
    key, params = getattr(value, "key", None), getattr(value, "params", None)
    if isinstance(key, str) and isinstance(params, Mapping):
        return message_json(key, params)
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (tuple, list)):
        return [json_value(item) for item in value]
    return str(value)


def message_json(key: str, params: Mapping[str, Any]) -> dict[str, Any]:
    return {"key": key, "values": {name: json_value(value) for name, value in params.items()}}


def message(kind: str, request_id: int | None = None, /, **fields: Any) -> dict[str, Any]:
    """A relay-to-client message of type ``kind`` (with the request's id, if any)."""
    out: dict[str, Any] = {"type": kind, "protocol": PROTOCOL_VERSION}
    if request_id is not None:
        out["id"] = request_id
    out.update(fields)
    return out


def encode(data: Mapping[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


# ----- field checks ----------------------------------------------------------------

@dataclass(frozen=True)
class Field:
    """One field of a client message: its JSON kind, whether it may be left
    out, and the allowed range (numbers) or length (text)."""

    kind: str  # "str", "int", "bool", "object", "object_or_null", "int_or_null", "str_list"
    required: bool = True
    low: int = 0
    high: int = MAX_ID
    item: tuple[int, int] = (1, MAX_MOVE_CHARS)
    """A list's items: the shortest and longest text (``str_list``)."""

    def check(self, name: str, value: Any) -> Any:
        kind = self.kind
        if kind.endswith("_or_null"):
            if value is None:
                return None
            kind = kind.removesuffix("_or_null")
        if kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                raise RelayError("wrong_type", field=name, expected=self.kind)
            if not self.low <= value <= self.high:
                raise RelayError("bad_value", field=name)
        elif kind == "str":
            if not isinstance(value, str):
                raise RelayError("wrong_type", field=name, expected=self.kind)
            if not self.low <= len(value) <= self.high:
                raise RelayError("bad_value", field=name)
        elif kind == "bool":
            if not isinstance(value, bool):
                raise RelayError("wrong_type", field=name, expected=self.kind)
        elif kind == "object":
            if not isinstance(value, dict):
                raise RelayError("wrong_type", field=name, expected=self.kind)
        elif kind == "str_list":
            if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
                raise RelayError("wrong_type", field=name, expected=self.kind)
            shortest, longest = self.item
            if not self.low <= len(value) <= self.high \
                    or not all(shortest <= len(item) <= longest for item in value):
                raise RelayError("bad_value", field=name)
        return value


MESSAGE_FIELDS: dict[str, dict[str, Field]] = {
    "create": {
        "game": Field("str", low=1, high=MAX_GAME_ID_CHARS),
        "options": Field("object", required=False),
        "seed": Field("int", required=False, high=MAX_SEED),
        "time_control": Field("object_or_null", required=False),
        "seat": Field("int", required=False, high=1),
        "name": Field("str", required=False, high=MAX_NAME_CHARS),
    },
    "join": {
        "room": Field("str", low=1, high=MAX_ROOM_ID_CHARS),
        "secret": Field("str", low=1, high=MAX_SECRET_CHARS),
        "since": Field("int_or_null", required=False),
        "name": Field("str", required=False, high=MAX_NAME_CHARS),
    },
    "restore": {
        "room": Field("str", low=1, high=MAX_ROOM_ID_CHARS),
        "secret": Field("str", low=1, high=MAX_SECRET_CHARS),
        "keys": Field("str_list", low=3, high=3, item=(KEY_CHARS, KEY_CHARS)),
        "game": Field("str", low=1, high=MAX_GAME_ID_CHARS),
        "options": Field("object"),
        "seed": Field("int", high=MAX_SEED),
        "time_control": Field("object_or_null"),
        "moves": Field("str_list", high=MAX_RECORD_MOVES),
        "version": Field("int"),
        "clock": Field("object_or_null", required=False),
        "name": Field("str", required=False, high=MAX_NAME_CHARS),
        "opponent": Field("str", required=False, high=MAX_NAME_CHARS),
    },
    "move": {
        "move": Field("str", low=1, high=MAX_MOVE_CHARS),
        "version": Field("int"),
    },
    "resign": {},
    "offer_draw": {},
    "answer_draw": {"accept": Field("bool")},
    "request_takeback": {},
    "answer_takeback": {"accept": Field("bool")},
    "ping": {},
}
"""Each client message type and its own fields (besides type, protocol, id)."""
COMMON_FIELDS = ("type", "protocol", "id")


@dataclass(frozen=True)
class ClientMessage:
    """A parsed, checked client message; ``fields`` holds only its own fields."""

    type: str
    id: int | None = None
    fields: dict[str, Any] = field(default_factory=dict)

    def get(self, name: str, default: Any = None) -> Any:
        return self.fields.get(name, default)


def nesting_depth(text: str, limit: int) -> int:
    """How deep arrays and objects nest in JSON text, stopping past ``limit``.

    Counted on the raw text (brackets inside strings do not count) so that
    too deep an input is refused before the parser recurses into it.
    """
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    return deepest
        elif char in "]}":
            depth -= 1
    return deepest


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise ValueError("repeated key")
        result[key] = value
    return result


def decode(raw: str | bytes, limit: int = MAX_MESSAGE_BYTES) -> Any:
    """Raw frame to JSON value: text, then size, then UTF-8, then depth, then the parser.

    Only a text frame is a message (the protocol says so; a binary one is
    ``not_text``).  Past ``limit`` only a ``restore`` is read, up to
    ``MAX_RESTORE_BYTES``, and only if its text begins as ``RESTORE_START``.
    """
    if not isinstance(raw, str):
        raise RelayError("not_text")
    cap = MAX_RESTORE_BYTES if raw.startswith(RESTORE_START) else limit
    if len(raw) > cap:
        raise RelayError("too_large", count=limit)
    text = raw
    try:
        size = len(text.encode("utf-8"))
    except UnicodeEncodeError:      # a lone surrogate cannot be UTF-8
        raise RelayError("not_utf8") from None
    if size > cap:
        raise RelayError("too_large", count=limit)
    if nesting_depth(text, MAX_DEPTH) > MAX_DEPTH:
        raise RelayError("too_deep", count=MAX_DEPTH)
    try:
        return json.loads(text, parse_constant=_no_constants, object_pairs_hook=_unique_keys)
    except (ValueError, RecursionError):
        raise RelayError("bad_json") from None


def parse(raw: str | bytes, limit: int = MAX_MESSAGE_BYTES) -> ClientMessage:
    """Check one client message; any bad input raises ``RelayError``, nothing else."""
    return validate(decode(raw, limit))


def validate(data: Any) -> ClientMessage:
    """A decoded JSON value to a ``ClientMessage``, or ``RelayError`` saying what is wrong."""
    if not isinstance(data, dict):
        raise RelayError("not_object")
    if "protocol" not in data:
        raise RelayError("missing_field", field="protocol")
    version = data["protocol"]
    if isinstance(version, bool) or not isinstance(version, int) or version != PROTOCOL_VERSION:
        raise RelayError("bad_protocol", value=_short(version), expected=PROTOCOL_VERSION)
    request_id = data.get("id")
    if request_id is not None:
        request_id = Field("int").check("id", request_id)
    if "type" not in data:
        raise RelayError("missing_field", field="type")
    kind = data["type"]
    if not isinstance(kind, str):
        raise RelayError("wrong_type", field="type", expected="str")
    spec = MESSAGE_FIELDS.get(kind)
    if spec is None:
        raise RelayError("unknown_type", value=_short(kind))
    for name in data:
        if name not in spec and name not in COMMON_FIELDS:
            raise RelayError("extra_field", field=_short(name))
    fields: dict[str, Any] = {}
    for name, check in spec.items():
        if name not in data:
            if check.required:
                raise RelayError("missing_field", field=name)
            continue
        fields[name] = check.check(name, data[name])
    return ClientMessage(kind, request_id, fields)


def _short(value: Any, limit: int = 32) -> str:
    """A short quotation of untrusted input for an error's values."""
    if isinstance(value, str):
        return repr(value[:limit]) + ("…" if len(value) > limit else "")
    if value is None or isinstance(value, (bool, float)) or (isinstance(value, int) and value.bit_length() <= 64):
        return repr(value)
    return type(value).__name__

