"""One remote game's room: the record, the seats, the clock, offers and requests.

The relay is authoritative but thin: a room keeps only what a record keeps
(game, options, seed, the moves in ``tessera/1`` notation) plus the facts of
remote play, and every move is checked by replaying it on the same engine
the page runs (``core.registry.game_class``).  A refused action raises
``RelayError`` before anything changes, so a bad message never alters the
game.  Every action returns the events to send to everyone in the room.

State lives in ``RoomState``, plain JSON-able data, so a store may keep it
anywhere (``store.py``); a ``Room`` wraps it with the live engine and clock.

Seats are held by secrets (``secrets.token_urlsafe``); the room keeps only
their SHA-256 (its "keys"), so a dump of a store does not hand out seats.  A
spectator token lets anyone holding it watch and nothing more.  A room's id
is made from its keys (``room_id_for``), so a page that holds a seat's
secret and the keys can make a lost room again under the same id
(``Room.restore``) and nobody can make a room under an id that is not its
own: the other player's link finds the game again, with the same secrets.

Time: if the room has a time control, the relay keeps a ``core.clock.Clock``
(time injected, wall-clock seconds by default so several processes agree).
It starts when both players have joined, and runs on while a player is
disconnected.  ``check_time`` ends the game when the seat to move runs out
(the game's ``on_time_expired`` hook may decide otherwise; remote play is
never "hot seat").
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import math
import secrets
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Callable

from ..core import registry
from ..core.clock import Clock, ClockError, TimeControl
from ..core.draw_offers import DrawOfferSpacing
from ..core.game import Game, GameError, Move, Outcome
from .protocol import MAX_RECORD_MOVES, RelayError, message, message_json

Now = Callable[[], float]
Event = dict[str, Any]

SEATS = 2
MAX_PLIES = MAX_RECORD_MOVES
"""A room refuses moves past this many (no real game comes near it)."""
SECRET_BYTES = 24
ROOM_ID_BYTES = 12
ROOM_ID_CHARS = 16
ROOM_ID_ALPHABET = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
MAX_RESTORED_GAP = 1000
"""A restored room's version is the page's, at most this far past its move count
(takebacks make versions outrun moves)."""


def new_secret() -> str:
    return secrets.token_urlsafe(SECRET_BYTES)


def new_room_id() -> str:
    return secrets.token_urlsafe(ROOM_ID_BYTES)


def secret_key(secret: str) -> str:
    """What a room keeps of a secret: its SHA-256 (hex)."""
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def is_room_id(text: str) -> bool:
    """Whether ``text`` can be a room's id (``room_id_for``'s form): an unknown id of that form is a
    room the relay lost or let expire, anything else a wrong link."""
    return len(text) == ROOM_ID_CHARS and all(char in ROOM_ID_ALPHABET for char in text)


def room_id_for(keys: list[str]) -> str:
    """A room's id from its keys (the two seats' and the spectators'): 96 bits of their SHA-256,
    URL-safe, so the id tells nothing of the secrets and no other set of keys makes it."""
    digest = hashlib.sha256(("tessera-room\n" + "\n".join(keys)).encode("ascii", "replace")).digest()
    return base64.urlsafe_b64encode(digest[:ROOM_ID_BYTES]).decode("ascii")


@dataclass
class RoomState:
    """Everything a store keeps of one room (JSON data only)."""

    room_id: str
    game_id: str
    options: dict[str, Any]
    seed: int
    time_control: dict[str, Any] | None
    seat_keys: list[str]
    spectator_key: str
    moves: list[str] = field(default_factory=list)
    movers: list[int] = field(default_factory=list)
    version: int = 0
    plies: list[int] = field(default_factory=lambda: [0])
    """The ply count after each version (``plies[v]``), to resend only the
    moves a reconnecting client lacks."""
    result: dict[str, Any] | None = None
    """An ending the moves do not show (resign, agreed draw, time)."""
    draw_offer: int | None = None
    takeback: int | None = None
    names: list[str | None] = field(default_factory=lambda: [None] * SEATS)
    seen: list[bool] = field(default_factory=lambda: [False] * SEATS)
    connected: list[bool] = field(default_factory=lambda: [False] * SEATS)
    clock: dict[str, Any] | None = None
    clock_at: float = 0.0
    created: float = 0.0
    active: float = 0.0
    draw_offered_at: list[float | None] = field(default_factory=lambda: [None] * SEATS)
    """Each seat's last draw offer (wall-clock seconds): a game may space them
    (``Game.draw_offer_every``: Quadrotone, once in 10 minutes)."""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "RoomState":
        return cls(**data)


class Room:
    """A room's state with its live engine and clock."""

    def __init__(self, state: RoomState, now: Now = time.time, game: Game | None = None) -> None:
        """``game``: the engine already at ``state.moves`` (a store's cached copy), instead of
        replaying the moves."""
        self.state = state
        self.now = now
        if game is None:
            game = registry.game_class(state.game_id)(state.options, state.seed)
            for text in state.moves:
                game.push(game.parse_move(text))
        self.game: Game = game
        self.clock: Clock | None = None
        self.load_clock()

    def load_clock(self) -> None:
        """The live clock from the state's figures (on load, and when a store takes another process's change)."""
        state = self.state
        self.clock = None
        if state.time_control is not None:
            saved = state.clock
            if saved is not None and saved.get("running") is not None:
                # time passes while a room is stored: the running move goes on
                spent = saved.get("move_spent", 0) + max(0.0, self.now() - state.clock_at)
                saved = {**saved, "move_spent": spent}
            self.clock = Clock(TimeControl.from_json(state.time_control), [True] * SEATS, self.now, saved)

    # ----- creating and joining -----------------------------------------------------
    @classmethod
    def create(cls, room_id: str | None, game_id: str, options: dict[str, Any] | None, seed: int,
               time_control: dict[str, Any] | None, now: Now = time.time) -> tuple["Room", list[str], str]:
        """A new room, its seats' secrets and the spectator token; RelayError if the game cannot be made.
        ``room_id`` None: the id made from the keys (``room_id_for``), which a lost room is restored by."""
        game, control = _new_game(game_id, options, seed, time_control)
        seat_secrets = [new_secret() for _ in range(SEATS)]
        spectator = new_secret()
        keys = [secret_key(s) for s in seat_secrets] + [secret_key(spectator)]
        moment = now()
        state = RoomState(room_id or room_id_for(keys), game_id, dict(game.options), seed,
                          control.to_json() if control is not None else None, keys[:SEATS], keys[SEATS],
                          created=moment, active=moment)
        return cls(state, now, game), seat_secrets, spectator

    @classmethod
    def restore(cls, room_id: str, secret: str, keys: list[str], game_id: str, options: dict[str, Any],
                seed: int, time_control: dict[str, Any] | None, moves: list[str], version: int,
                clock: dict[str, Any] | None, names: list[str | None], now: Now = time.time) -> tuple["Room", int]:
        """A lost room made again from a player's record (``restore`` in ``protocol.py``): the room and
        the seat ``secret`` holds.  Every move is replayed on the engine; RelayError if the keys do not
        make ``room_id``, the secret is not a seat's, or the record does not replay."""
        if room_id_for(keys) != room_id:
            raise RelayError("no_access")
        key = secret_key(secret)
        seats = [seat for seat in range(SEATS) if hmac.compare_digest(key, keys[seat])]
        if not seats:
            raise RelayError("no_access")
        seat = seats[0]
        game, control = _new_game(game_id, options, seed, time_control)
        if len(moves) > MAX_PLIES:
            raise RelayError("record_full", count=MAX_PLIES)
        movers, written = [], []
        for text in moves:
            if game.is_over():
                raise RelayError("game_over")
            move = _checked_move(game, text)
            movers.append(game.to_move)
            written.append(game.move_text(move))
            game.push_unchecked(move)
        count = len(moves)
        version = max(count, min(version, count + MAX_RESTORED_GAP))
        moment = now()
        state = RoomState(room_id, game_id, dict(game.options), seed,
                          control.to_json() if control is not None else None, list(keys[:SEATS]), keys[SEATS],
                          moves=written, movers=movers, version=version,
                          plies=[0] * version + [count], names=list(names), seen=[True] * SEATS,
                          created=moment, active=moment)
        room = cls(state, now, game)
        if room.clock is not None:
            room.clock = _restored_clock(control, clock, movers, now)
        return room, seat

    def seat_for(self, secret: str) -> int | None:
        """The seat a secret holds, None for the spectator token; RelayError otherwise.

        Every key is compared (in constant time), so the answer's timing does
        not tell which part of a guess was right.
        """
        key = secret_key(secret)
        found: int | None | str = "none"
        for seat, seat_key in enumerate(self.state.seat_keys):
            if hmac.compare_digest(key, seat_key):
                found = seat
        if hmac.compare_digest(key, self.state.spectator_key):
            found = None
        if found == "none":
            raise RelayError("no_access")
        return found  # type: ignore[return-value]

    def connect(self, seat: int, name: str | None) -> Event:
        """A seat's player is here: the presence event for the others (and the clock may start)."""
        state = self.state
        status = "back" if state.seen[seat] else "connected"
        state.seen[seat] = True
        state.connected[seat] = True
        if name is not None:
            state.names[seat] = name
        if self.clock is not None and self.clock.running is None and all(state.seen) and not self.is_over() \
                and self.game.to_move in state.movers:
            self.clock.start_turn(self.game.to_move)
        self.touch()
        return message("presence", seat=seat, status=status, name=state.names[seat], clock=self.clock_json())

    def disconnect(self, seat: int) -> Event:
        self.state.connected[seat] = False
        self.touch()
        return message("presence", seat=seat, status="disconnected", name=self.state.names[seat],
                       clock=self.clock_json())

    # ----- reading ---------------------------------------------------------------------
    def outcome(self) -> Outcome | None:
        stated = self.state.result
        return self.game.outcome() or (Outcome.from_json(stated) if stated is not None else None)

    def is_over(self) -> bool:
        return self.outcome() is not None

    def result_json(self) -> dict[str, Any] | None:
        outcome = self.outcome()
        return outcome.to_json() if outcome is not None else None

    def clock_json(self) -> dict[str, Any] | None:
        return self.clock.to_json() if self.clock is not None else None

    def from_ply(self, since: int | None) -> int:
        """The longest start of the record a client at version ``since`` shares with the room."""
        state = self.state
        if since is None or since > state.version:
            return 0
        return min(state.plies[since:])

    def snapshot(self, you: int | None, since: int | None = None, request_id: int | None = None) -> Event:
        """The ``state`` message: the room as it stands, and the moves the client lacks."""
        state = self.state
        start = self.from_ply(since)
        players = [{"name": state.names[s], "connected": state.connected[s]} for s in range(SEATS)]
        return message("state", request_id, room=state.room_id, game=state.game_id, options=state.options,
                       seed=state.seed, time_control=state.time_control, you=you, version=state.version,
                       from_ply=start, moves=state.moves[start:], ply=len(state.moves),
                       to_move=self.game.to_move, result=self.result_json(), draw_offer=state.draw_offer,
                       takeback=state.takeback, players=players, clock=self.clock_json(),
                       **({"keys": self.keys()} if you is not None else {}))

    def keys(self) -> list[str]:
        """The seats' and the spectators' keys, which a player's page keeps to restore a lost room."""
        return [*self.state.seat_keys, self.state.spectator_key]

    def joined(self) -> bool:
        """The second player has come at least once (a room nobody joined expires within minutes)."""
        return all(self.state.seen)

    def touch(self) -> None:
        self.state.active = self.now()

    def save_clock(self) -> None:
        """Write the live clock into the state (a store calls this before keeping it)."""
        if self.clock is not None:
            self.state.clock = self.clock.to_json()
            self.state.clock_at = self.now()

    # ----- actions -----------------------------------------------------------------------
    def _player(self, seat: int | None) -> int:
        if seat is None:
            raise RelayError("spectator")
        return seat

    def _playing(self, seat: int | None) -> int:
        seat = self._player(seat)
        if self.is_over():
            raise RelayError("game_over")
        return seat

    def move(self, seat: int | None, text: str, version: int) -> list[Event]:
        """Play ``text`` for ``seat`` if it is that seat's turn on the version it names."""
        seat = self._playing(seat)
        state = self.state
        if version != state.version:
            raise RelayError("stale", version=version, current=state.version)
        if self.game.to_move != seat:
            raise RelayError("not_your_turn")
        if len(state.moves) >= MAX_PLIES:
            raise RelayError("record_full", count=MAX_PLIES)
        return [self._apply(seat, _checked_move(self.game, text))]

    def _apply(self, seat: int, move: Move) -> Event:
        state, game = self.state, self.game
        written = game.move_text(move)
        game.push_unchecked(move)
        state.moves.append(written)
        state.movers.append(seat)
        state.draw_offer = state.takeback = None
        if self.clock is not None and self.clock.running == seat:
            self.clock.end_move()
        self._clock_turn()
        self._bump()
        return message("moved", seat=seat, move=written, ply=game.ply, version=state.version,
                       to_move=game.to_move, result=self.result_json(), clock=self.clock_json())

    def _bump(self) -> None:
        self.state.version += 1
        self.state.plies.append(self.game.ply)
        self.touch()

    def _end(self, outcome: Outcome) -> Event:
        state = self.state
        state.result = outcome.to_json()
        state.draw_offer = state.takeback = None
        self._clock_turn()
        self._bump()
        return message("ended", result=self.result_json(), version=state.version, clock=self.clock_json())

    def resign(self, seat: int | None) -> list[Event]:
        seat = self._playing(seat)
        return [self._end(Outcome(1 - seat, "resign"))]

    def offer_draw(self, seat: int | None) -> list[Event]:
        seat = self._playing(seat)
        if self.state.draw_offer is not None:
            raise RelayError("draw_offered")
        spacing = DrawOfferSpacing(SEATS, self.game.draw_offer_every, self.state.draw_offered_at)
        now = self.now()
        wait = spacing.wait(seat, now)
        if wait > 0:
            raise RelayError("draw_too_soon", seconds=math.ceil(wait))
        spacing.note(seat, now)
        self.state.draw_offered_at = spacing.offered_at
        self.state.draw_offer = seat
        self.touch()
        return [message("draw_offered", seat=seat)]

    def answer_draw(self, seat: int | None, accept: bool) -> list[Event]:
        seat = self._playing(seat)
        offer = self.state.draw_offer
        if offer is None or offer == seat:
            raise RelayError("no_draw_offer")
        self.state.draw_offer = None
        if accept:
            return [self._end(Outcome(None, "draw_agreed"))]
        self.touch()
        return [message("draw_declined", seat=seat)]

    def _takeback_target(self, seat: int) -> int | None:
        """The ply to go back to: just before ``seat``'s last move (not before the game's floor)."""
        movers = self.state.movers
        for index in range(len(movers) - 1, self.game.undo_floor() - 1, -1):
            if movers[index] == seat:
                return index
        return None

    def request_takeback(self, seat: int | None) -> list[Event]:
        seat = self._playing(seat)
        if self.state.takeback is not None:
            raise RelayError("takeback_pending")
        if self._takeback_target(seat) is None:
            raise RelayError("nothing_to_take_back")
        self.state.takeback = seat
        self.touch()
        return [message("takeback_requested", seat=seat)]

    def answer_takeback(self, seat: int | None, accept: bool) -> list[Event]:
        seat = self._playing(seat)
        asker = self.state.takeback
        if asker is None or asker == seat:
            raise RelayError("no_takeback")
        self.state.takeback = None
        if not accept:
            self.touch()
            return [message("takeback_declined", seat=seat)]
        target = self._takeback_target(asker)
        if target is None:  # cannot happen: a move withdraws the request
            raise RelayError("nothing_to_take_back")
        state = self.state
        while self.game.ply > target:
            self.game.pop()
        del state.moves[target:], state.movers[target:]
        state.draw_offer = None
        self._clock_turn()  # time spent is never given back: the clock runs on for the mover now
        self._bump()
        return [message("took_back", seat=asker, ply=self.game.ply, version=state.version,
                        to_move=self.game.to_move, clock=self.clock_json())]

    # ----- time -----------------------------------------------------------------------------
    def _clock_turn(self) -> None:
        """Run the clock of the seat to move: once both players have come, and
        (as on lichess, and in the page: ``Session._clock_turn``) once that seat
        has made its first move; stop it when the game is over."""
        clock = self.clock
        if clock is None or clock.running is None and not all(self.state.seen):
            return
        if self.is_over() or self.game.to_move not in self.state.movers:
            clock.stop()
        elif clock.running != self.game.to_move:
            clock.start_turn(self.game.to_move)

    def expires_in(self) -> float | None:
        """Seconds until the seat to move runs out (None: no clock runs)."""
        if self.clock is None or self.is_over():
            return None
        return self.clock.expires_in()

    def check_time(self) -> list[Event]:
        """End the game (or play the game's pass) if the seat to move has run out of time."""
        events: list[Event] = []
        for _ in range(SEATS):
            clock = self.clock
            if clock is None or self.is_over():
                break
            seat = clock.flagged()
            if seat is None:
                break
            hook = getattr(self.game, "on_time_expired", None)
            verdict = hook(seat, False) if hook is not None else None
            if verdict is not None and not isinstance(verdict, Outcome):
                events.append(self._apply(seat, verdict))
                continue
            events.append(self._end(verdict or Outcome(1 - seat, "time")))
        return events


def _new_game(game_id: str, options: dict[str, Any] | None, seed: int,
              time_control: dict[str, Any] | None) -> tuple[Game, TimeControl | None]:
    """A new engine and time control for a room; RelayError if they cannot be made."""
    try:
        game_cls = registry.game_class(game_id)
    except GameError as error:
        raise RelayError("bad_game", reason=error) from None
    if game_cls.num_players != SEATS:
        raise RelayError("not_two_players", game=message_json(f"game.{game_id}.title", {}))
    try:
        game = game_cls(options or {}, seed)
        control = TimeControl.from_json(time_control) if time_control is not None else None
    except (GameError, ClockError) as error:
        raise RelayError("bad_game", reason=error) from None
    except Exception as error:  # an engine's own error on odd options is still a refusal
        raise RelayError("bad_game", reason=type(error).__name__) from None
    if control is not None and not control.enabled:
        control = None
    return game, control


def _checked_move(game: Game, text: str) -> Move:
    """``text`` as a legal move of ``game`` now; RelayError (with the engine's reason) if it is not one."""
    try:
        move = game.parse_move(text)
    except GameError as error:
        raise RelayError("bad_notation", move=_quote(text), reason=error) from None
    except Exception as error:  # an engine's own error on odd text is still a refusal
        raise RelayError("bad_notation", move=_quote(text), reason=type(error).__name__) from None
    try:
        legal = game.is_legal(move)
        reason = None if legal else game.illegal_reason(move)
    except Exception as error:  # a parsed move the engine cannot judge is not played
        raise RelayError("illegal_move", move=_quote(text), reason=type(error).__name__) from None
    if reason is not None:
        raise RelayError("illegal_move", move=_quote(text), reason=reason)
    return move


def _restored_clock(control: TimeControl | None, figures: dict[str, Any] | None, movers: list[int],
                    now: Now) -> Clock | None:
    """A restored room's clock: the page's figures, stopped (it starts again when a player comes),
    each seat's total capped at what the control can have given it (its start plus an increment a
    move), so a page cannot give itself time; RelayError if a timed game comes without them."""
    if control is None:
        return None
    if figures is None:
        raise RelayError("missing_field", field="clock")
    clock = Clock(control, [True] * SEATS, now)
    try:
        clock.load({"remaining": figures.get("remaining"), "running": None, "move_spent": 0})
    except (ClockError, AttributeError):
        raise RelayError("bad_value", field="clock") from None
    if control.total is not None:
        for seat in range(SEATS):
            cap = control.total + control.increment * movers.count(seat)
            left = clock.remaining[seat]
            clock.remaining[seat] = cap if left is None else min(left, cap)
    return clock


def _quote(text: str, limit: int = 32) -> str:
    return repr(text[:limit]) + ("…" if len(text) > limit else "")


__all__ = ["MAX_PLIES", "Room", "RoomState", "is_room_id", "new_room_id", "new_secret", "room_id_for",
           "secret_key"]
