"""A game against a player on another device, through the relay (``tessera.relay``).

The page's side of the relay protocol (``relay/protocol.py`` documents it),
without any transport: the UI hands ``RemoteGame`` the messages that arrive
(``receive``) and a ``send`` for the ones to go out, so the same code runs in
the browser (a WebSocket) and in CPython tests (``websockets``).

The local ``Session`` stays the game the screen shows and saves.  The
opponent's seat is a ``RemoteParticipant``: the session waits on it like on a
bot, and it never answers by itself; the relay's moves are applied by
``RemoteGame`` as they arrive (``Session.receive``), so moves that were missed
while the page was closed replay the same way as live ones.  What the local
player does (a move, resigning, offering or answering a draw) is heard from
the session's events and sent, each move naming the relay's state version it
was made on.  The relay is the authority: when it refuses a move or says the
game went differently, the page asks it for the game again (``resync``) and
the session is brought into line: moves the relay does not have are taken
back, the ones it has are applied.

``RemoteInfo`` is what a save keeps of the link (``session.meta["remote"]``):
the relay's address, the room, this seat's secret, the last version this
device is known to match, so a reload rejoins where it was, and the room's
keys (hashes of its secrets, as the relay sends them to players), so the
page can make the room again if the relay lost it.

When the relay answers ``lost`` (a Redis restarted without persistence, a
relay restarted with rooms in memory, a game left past its expiry), a
player's page sends ``restore``: its own record, its secret and the keys.
The relay replays every move on the engine, so a page cannot cheat this
way, and makes the room again under the same id and secrets, so the
friend's link works as before and no game is lost.  A spectator's page,
or one without the keys (a save from before them), says the game is lost.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Callable, Mapping

from ..i18n import Message
from .game import Outcome
from .seats import SessionError

PROTOCOL = 1
MAX_URL_CHARS = 300
MAX_TOKEN_CHARS = 128
KEY_CHARS = 64
HEX = frozenset("0123456789abcdef")


@dataclass
class RemoteInfo:
    """The link of a saved remote game: where, which room, which seat and how far."""

    relay: str
    room: str
    secret: str
    seat: int | None
    """This device's seat; None: a spectator's link (it only watches)."""
    version: int = 0
    invite: str | None = None
    """The other seat's secret, kept by whoever created the game to share it again."""
    spectate: str | None = None
    keys: list[str] | None = None
    """The room's keys (the relay's ``state`` gives them to players): what ``restore`` needs."""

    def to_json(self) -> dict[str, Any]:
        return {key: value for key, value in asdict(self).items() if value is not None}

    @classmethod
    def from_json(cls, data: Any) -> "RemoteInfo":
        """Read a save's link; SessionError (``error.remote.save``) if it is not one."""
        if not isinstance(data, Mapping):
            raise SessionError("error.remote.save")
        relay, room, secret = data.get("relay"), data.get("room"), data.get("secret")
        seat, version = data.get("seat"), data.get("version", 0)
        if not (_text(relay, MAX_URL_CHARS) and _text(room, MAX_TOKEN_CHARS) and _text(secret, MAX_TOKEN_CHARS)):
            raise SessionError("error.remote.save")
        if seat not in (0, 1, None) or isinstance(seat, bool) or not _count(version):
            raise SessionError("error.remote.save")
        invite, spectate = data.get("invite"), data.get("spectate")
        for token in (invite, spectate):
            if token is not None and not _text(token, MAX_TOKEN_CHARS):
                raise SessionError("error.remote.save")
        keys = data.get("keys")
        if keys is not None and not is_keys(keys):
            raise SessionError("error.remote.save")
        return cls(relay, room, secret, seat, version, invite, spectate, keys)


def is_keys(value: Any) -> bool:
    """A room's keys as the relay sends them: three SHA-256 in hex."""
    return isinstance(value, list) and len(value) == 3 and all(
        isinstance(key, str) and len(key) == KEY_CHARS and set(key) <= HEX for key in value)


def _text(value: Any, limit: int) -> bool:
    return isinstance(value, str) and 0 < len(value) <= limit


def _count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 2 ** 53


def relay_message(data: Any) -> Message:
    """A relay's ``{"key", "values"}`` (an error, or a value of one) as a catalog
    message; anything else the relay sent is worded as "the relay answered oddly"."""
    if not isinstance(data, Mapping):
        return Message("error.remote.odd_answer")
    key, values = data.get("key"), data.get("values")
    if not isinstance(key, str) or not key.startswith(("relay.", "illegal.", "error.", "notation.", "game.")) \
            or not isinstance(values, Mapping):
        return Message("error.remote.odd_answer")
    params: dict[str, Any] = {}
    for name, value in values.items():
        if isinstance(value, Mapping):
            params[str(name)] = relay_message(value)
        elif value is None or isinstance(value, (str, int, float)):
            params[str(name)] = value
        else:
            params[str(name)] = str(value)
    return Message(key, **params)


Send = Callable[[dict[str, Any]], None]
Notify = Callable[[str, Any], None]
RESYNC_ERRORS = {"stale", "not_your_turn", "illegal_move", "bad_notation", "game_over",
                 "no_draw_offer", "draw_offered", "nothing_to_take_back", "no_takeback"}
"""Refusals that mean this device's game differs from the relay's: ask for it again."""
RETRY_ERRORS = {"unavailable", "address_busy"}
"""Refusals of a relay that cannot serve now: ask again after a pause (what was sent may or may not
have been done, and the rejoin tells)."""
RECONNECT_ERRORS = {"idle"}
"""Fatal refusals after which a page simply connects again (the socket comes back by itself)."""


class RemoteGame:
    """Keeps a session and a relay room in step (see the module docstring).

    ``send`` puts a message on the wire (dropped while disconnected: the
    rejoin catches up); ``notify(kind, detail)`` tells the UI what it shows
    itself: ``link`` (connected or not), ``presence`` (the opponent came,
    left or came back), ``takeback_asked`` (the opponent asks), ``takeback``
    (``"sent"``, ``"declined"``), ``error`` (a ``Message``), ``resync``
    (the relay's game replaced moves of this device's), ``retry`` (the relay
    cannot serve now: rejoin after a pause), ``lost`` (the relay lost the game:
    ``"restoring"`` when this page sends its record, ``"restored"`` once the
    relay has it again), ``closed`` (the relay will not take this device any
    more: ``Message`` why).
    """

    def __init__(self, session: Any, info: RemoteInfo, send: Send, notify: Notify | None = None,
                 name: str | None = None) -> None:
        self.session = session
        self.info = info
        self.send_raw = send
        self.notify = notify or (lambda kind, detail: None)
        self.name = name
        self.connected = False
        """Joined: the relay has answered this connection's ``join``."""
        self.players: list[dict[str, Any]] = [{"name": None, "connected": False} for _ in range(2)]
        """Both seats' names and presence (what a spectator shows)."""
        self.takeback: int | None = None
        self.unconfirmed = 0
        """Moves of ours sent and not yet confirmed by the relay."""
        self.restoring = False
        """A ``restore`` was sent and its ``state`` has not come yet (the next connection restores too)."""
        self._applying = False
        self._next_id = 0
        self._unsubscribe = session.subscribe(self._on_session)

    @property
    def seat(self) -> int | None:
        """This device's seat; None when it only watches (a spectator's link)."""
        return self.info.seat

    @property
    def other(self) -> int | None:
        return None if self.info.seat is None else 1 - self.info.seat

    @property
    def opponent(self) -> dict[str, Any]:
        """The other seat's name and presence (nobody's, when this device only watches)."""
        return self.players[self.other] if self.other is not None else {"name": None, "connected": False}

    def _is_other(self, seat: Any) -> bool:
        return self.other is not None and seat == self.other and not isinstance(seat, bool)

    def close(self) -> None:
        self._unsubscribe()
        self.connected = False

    # ----- out --------------------------------------------------------------------------
    def _send(self, kind: str, **fields: Any) -> None:
        self._next_id += 1
        self.send_raw({"type": kind, "protocol": PROTOCOL, "id": self._next_id, **fields})

    def hello(self) -> dict[str, Any]:
        """The ``join`` this device sends on every connection (with the version it has), or the
        ``restore`` while the relay has lost the game."""
        if self.restoring:
            return self.restore_message()
        data: dict[str, Any] = {"type": "join", "protocol": PROTOCOL, "room": self.info.room,
                                "secret": self.info.secret, "since": self.info.version}
        if self.name:
            data["name"] = self.name[:40]
        return data

    def can_restore(self) -> bool:
        """This page can make a lost room again: it plays a seat, has the keys, and the game goes on."""
        return self.seat is not None and self.info.keys is not None and not self.session.is_over()

    def restore_message(self) -> dict[str, Any]:
        """``restore``: this device's record of the game, for a relay that lost it (``protocol.py``)."""
        session, game = self.session, self.session.game
        clock = session.clock
        data: dict[str, Any] = {
            "type": "restore", "protocol": PROTOCOL, "room": self.info.room, "secret": self.info.secret,
            "keys": list(self.info.keys or ()), "game": game.game_id, "options": dict(game.options),
            "seed": game.seed, "time_control": clock.control.to_json() if clock is not None else None,
            "moves": session.history(), "version": self.info.version,
            "clock": clock.to_json() if clock is not None else None}
        own = self.name or (self.players[self.seat].get("name") if self.seat is not None else None)
        if own:
            data["name"] = own[:40]
        opponent = self.opponent.get("name")
        if opponent:
            data["opponent"] = opponent[:40]
        return data

    def disconnected(self) -> None:
        """The socket closed: moves wait until the next join catches up."""
        self.connected = False
        self.unconfirmed = 0
        self.notify("link", False)

    def _on_session(self, kind: str, detail: Any) -> None:
        """What the local player did, sent to the relay (not what the relay did here)."""
        if self._applying:
            return
        session = self.session
        if kind == "move" and detail.seat == self.seat:
            self._send("move", move=detail.text, version=self.info.version + self.unconfirmed)
            self.unconfirmed += 1
        elif kind == "result" and isinstance(detail, Outcome):
            if detail.reason == "resign" and detail.winner == self.other:
                self._send("resign")
            elif detail.reason == "draw_agreed":
                self._send("answer_draw", accept=True)
        elif kind == "draw_offer" and detail == self.seat:
            self._send("offer_draw")
        elif kind == "draw_declined" and detail == self.seat:
            self._send("answer_draw", accept=False)
        elif kind == "undo" and not session.is_over():
            # An undo is not for this device to make in a remote game (the screen asks
            # for a takeback instead); should one happen, the relay's game wins.
            self.resync()

    def request_takeback(self) -> None:
        self._send("request_takeback")

    def answer_takeback(self, accept: bool) -> None:
        self.takeback = None
        self._send("answer_takeback", accept=accept)

    def resync(self) -> None:
        """Ask the relay for its game again (the UI reconnects, then ``hello``)."""
        self.notify("resync", None)

    # ----- in ---------------------------------------------------------------------------
    def receive(self, data: Any) -> None:
        """One message from the relay (parsed JSON); nothing it holds can raise out of here."""
        try:
            if not isinstance(data, Mapping) or not isinstance(data.get("type"), str):
                raise ValueError("not a relay message")
            self._applying = True
            try:
                self._dispatch(str(data["type"]), data)
            finally:
                self._applying = False
        except SessionError as error:
            self.notify("error", Message(error.key, **error.params))
            self.resync()
        except Exception as error:  # an odd message: say so and start over from the relay's game
            self.notify("error", Message("error.remote.odd_answer"))
            self.notify("debug", f"{type(error).__name__}: {error}")
            self.resync()

    def _dispatch(self, kind: str, data: Mapping[str, Any]) -> None:
        handler = getattr(self, f"_on_{kind}", None)
        if handler is not None and kind in HANDLED:
            handler(data)
        self._take_clock(data.get("clock"))

    def _on_state(self, data: Mapping[str, Any]) -> None:
        session = self.session
        if data.get("you") != self.seat or data.get("game") != session.game.game_id:
            raise SessionError("error.remote.other_game")
        start, moves = data.get("from_ply"), data.get("moves")
        if not _count(start) or not isinstance(moves, list) or start > session.game.ply:
            raise ValueError("bad state")
        wanted = session.history()[:start] + [str(text) for text in moves]
        have = session.history()
        common = 0
        while common < min(len(wanted), len(have)) and wanted[common] == have[common]:
            common += 1
        changed = common < len(have)
        if changed or session.result is not None and data.get("result") is None:
            session.take_back_to(common)
        for text in wanted[common:]:
            session.receive(session.game.parse_move(text))
        result = data.get("result")
        if result is not None and not session.is_over():
            session.end(Outcome.from_json(result))
        offer = data.get("draw_offer")
        if self._is_other(offer) and session.draw_offer is None and not session.is_over():
            session.offer_draw(offer, decided_elsewhere=True)
        self.takeback = data.get("takeback") if data.get("takeback") in (0, 1) else None
        players = data.get("players")
        if isinstance(players, list) and len(players) == 2:
            for seat, player in enumerate(players):
                if isinstance(player, Mapping):
                    self.players[seat] = {"name": _name(player.get("name")),
                                          "connected": player.get("connected") is True}
        self._version(data)
        if is_keys(data.get("keys")):
            self.info.keys = list(data["keys"])
        self.unconfirmed = 0
        self.connected = True
        restored, self.restoring = self.restoring, False
        self.notify("link", True)
        if restored:
            self.notify("lost", "restored")
        self.notify("presence", self.opponent)
        if changed:
            self.notify("resync", "changed")
        if self._is_other(self.takeback):
            self.notify("takeback_asked", None)

    def _on_moved(self, data: Mapping[str, Any]) -> None:
        session = self.session
        seat, text, ply = data.get("seat"), data.get("move"), data.get("ply")
        if not isinstance(text, str) or not isinstance(ply, int):
            raise ValueError("bad move message")
        self.takeback = None
        history = session.history()
        if seat == self.seat and ply <= len(history) and history[ply - 1] == text:
            self.unconfirmed = max(0, self.unconfirmed - 1)      # ours, confirmed
        elif ply == session.game.ply + 1 and seat == session.to_move:
            session.receive(session.game.parse_move(text))
        else:
            raise SessionError("error.remote.out_of_step")
        self._version(data)

    def _on_ended(self, data: Mapping[str, Any]) -> None:
        result = data.get("result")
        if result is not None and not self.session.is_over():
            self.session.end(Outcome.from_json(result))
        self._version(data)

    def _on_took_back(self, data: Mapping[str, Any]) -> None:
        ply = data.get("ply")
        if not isinstance(ply, int):
            raise ValueError("bad takeback message")
        self.takeback = None
        self.session.take_back_to(ply)
        self._version(data)
        self.notify("takeback", "done")

    def _on_draw_offered(self, data: Mapping[str, Any]) -> None:
        if self._is_other(data.get("seat")) and self.session.draw_offer is None:
            self.session.offer_draw(data["seat"], decided_elsewhere=True)

    def _on_draw_declined(self, data: Mapping[str, Any]) -> None:
        if self._is_other(data.get("seat")) and self.session.draw_offer == self.seat:
            self.session.answer_draw(data["seat"], False)

    def _on_takeback_requested(self, data: Mapping[str, Any]) -> None:
        self.takeback = data.get("seat") if data.get("seat") in (0, 1) else None
        if self.takeback is not None and self.seat is not None:
            self.notify("takeback_asked" if self._is_other(self.takeback) else "takeback", "sent")

    def _on_takeback_declined(self, data: Mapping[str, Any]) -> None:
        self.takeback = None
        if self._is_other(data.get("seat")):
            self.notify("takeback", "declined")

    def _on_presence(self, data: Mapping[str, Any]) -> None:
        seat, status = data.get("seat"), data.get("status")
        if seat not in (0, 1) or isinstance(seat, bool) or seat == self.seat:
            return
        player = {"name": _name(data.get("name")) or self.players[seat].get("name"),
                  "connected": status in ("connected", "back"), "status": status}
        self.players[seat] = player
        if self._is_other(seat):
            self.notify("presence", player)
        else:
            self.notify("players", self.players)

    def _on_error(self, data: Mapping[str, Any]) -> None:
        code = data.get("code")
        words = relay_message(data)
        if code == "lost":
            self.connected = False
            self.unconfirmed = 0
            if self.can_restore() and not self.restoring:
                self.restoring = True
                self.send_raw(self.restore_message())
                self.notify("lost", "restoring")
            else:
                self.restoring = False
                self.notify("closed", words)
            return
        if code in RECONNECT_ERRORS:
            self.connected = False  # the relay closes the socket; it opens again by itself
            return
        if data.get("fatal") is True or code == "no_access" or self.restoring and code not in RETRY_ERRORS:
            self.connected = False  # a record the relay will not restore is not sent again
            self.restoring = False
            self.notify("closed", words)
            return
        self.notify("error", words)
        if code in RETRY_ERRORS:
            self.notify("retry", None)
        elif code in RESYNC_ERRORS:
            self.resync()

    def _version(self, data: Mapping[str, Any]) -> None:
        version = data.get("version")
        if _count(version):
            self.info.version = version

    def _take_clock(self, clock: Any) -> None:
        """The relay keeps the time: its figures replace the page's."""
        own = self.session.clock
        if own is not None and isinstance(clock, Mapping):
            try:
                own.load(clock)
            except Exception:  # odd figures: the page's clock goes on as it was
                pass


HANDLED = {"state", "moved", "ended", "took_back", "draw_offered", "draw_declined", "takeback_requested",
           "takeback_declined", "presence", "error"}


def _name(value: Any) -> str | None:
    return value[:40] if isinstance(value, str) and value.strip() else None


BIDI_CONTROLS = dict.fromkeys([*range(0x202A, 0x202F), *range(0x2066, 0x206A)])
"""Embeddings, overrides and isolates (LRE..RLO, LRI..PDI): what could reach out of an isolate."""
FSI, PDI = "\u2068", "\u2069"


def shown_name(name: str) -> str:
    """A player's name as a page shows it among other words: isolated (FSI ... PDI), so a right-to-left
    name, or one holding a right-to-left override, cannot reorder the sentence around it.  The relay
    passes names on as typed; the directional controls in one are dropped here, since a stray PDI or
    PDF could close the isolate early.  Text it is, always: the UI sets it as text, never as HTML."""
    return FSI + name.translate(BIDI_CONTROLS) + PDI


def session_from_state(state: Mapping[str, Any], info: RemoteInfo, session_id: str,
                       meta: Mapping[str, Any] | None = None) -> Any:
    """A new local session of the relay's game (a ``state`` message), this device
    in ``info.seat`` and the opponent remote; SessionError or RecordError if it
    cannot be made."""
    from .clock import TimeControl
    from .record import Record
    from .seats import Seat
    from .session import Session
    game, options, seed = state.get("game"), state.get("options"), state.get("seed")
    moves = state.get("moves")
    if not isinstance(game, str) or not isinstance(options, Mapping) or not isinstance(seed, int) \
            or not isinstance(moves, list) or state.get("from_ply") != 0:
        raise SessionError("error.remote.odd_answer")
    record = Record(game, dict(options), seed, None, [str(text) for text in moves])
    seats = [Seat("remote") if index != info.seat else Seat("human") for index in range(2)]
    control = state.get("time_control")
    time_control = TimeControl.from_json(control) if isinstance(control, Mapping) else None
    session = Session.from_record(record, seats, session_id,
                                  meta={**dict(meta or {}), "remote": info.to_json()}, time_control=time_control)
    result = state.get("result")
    if result is not None and not session.is_over():
        session.end(Outcome.from_json(result))
    info.version = state.get("version") if _count(state.get("version")) else 0
    if is_keys(state.get("keys")):
        info.keys = list(state["keys"])
    session.meta["remote"] = info.to_json()
    return session

