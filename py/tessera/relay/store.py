"""Where rooms live: the ``RoomStore`` interface and the in-memory store.

The server never keeps a room itself; it hands the store an *action* (a
function of the room that changes it and says what happened, a ``Change``)
and the store runs it on the room as it is, saves the result and publishes
its events, whole or not at all (``change``).  So a store shared by several
relay processes (Redis: one script a change, pub/sub for events) plugs in
without changing the server, and may run an action again on a newer copy of
the room when another process changed it first: an action is a pure
function of the room (no I/O, nothing kept outside it but what it returns).

The contract a store keeps:

* ``add(room, limit, owner, owner_limit)`` stores a new room unless
  ``limit`` rooms exist (``FULL``), ``owner`` (a client address's key)
  already holds ``owner_limit`` rooms (``OWNER_FULL``) or a room has that id
  (``EXISTS``: a restore that came second); else ``ADDED``.
* ``change(room_id, action, listener)`` runs ``action(room)``: if it raises
  (a ``RelayError``), nothing changes; else the room is saved (or removed,
  ``Change.remove``), its events are published, and ``Change.error``, if
  any, is the caller's to raise after.  With a ``listener``, it is
  subscribed to the room in the same step: it gets ``Change.reply`` first
  and then every event published after this change, none before; the
  returned function unsubscribes it.  A missing room raises ``RoomGone``,
  one whose stored data cannot be used ``RoomUnreadable``, a store out of
  reach ``StoreDown`` (the client is told to try again).
* ``get(room_id)`` returns the room as last saved, or None (for tests and
  reads); ``remove(room_id)`` drops it; ``count()`` counts rooms (the cap);
  ``sweep_ids(now)`` names the rooms a sweep must look at: those whose
  clock may have run out, and, unless rooms expire by themselves in the
  store (Redis keys' TTL), those nobody is connected to.
* ``start()`` connects (a shared store) before the relay listens, and
  ``close()`` lets go; ``healthy()`` says whether the store answers now.

Events travel as ``Envelope``s: the event's JSON text, encoded once however
many sockets it goes to, and who caused it (so the sender's copy carries
its request id, or is skipped).
"""

from __future__ import annotations

import asyncio
import logging
import time
from abc import ABC, abstractmethod
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, AsyncIterator, Callable

from .protocol import encode
from .rooms import Event, Room

ADDED, FULL, OWNER_FULL, EXISTS = "added", "full", "owner_full", "exists"


class StoreError(Exception):
    """A store could not do what was asked (the subclasses say why)."""


class RoomGone(StoreError):
    """No such room: never made, expired, or lost (a Redis restarted without persistence)."""


class RoomUnreadable(StoreError):
    """The room's stored data cannot be used (logged; answered like a wrong secret)."""


class StoreDown(StoreError):
    """The store does not answer now (Redis paused or out of reach): the client may try again."""


class OutageLog:
    """Logs an outage of the store once when it starts and once when it ends (with how long it lasted
    and how many calls failed meanwhile), never a line per failed call: a paused Redis must not
    flood the log while every action is answered "try again"."""

    def __init__(self, log: logging.Logger, what: str, clock: Callable[[], float] = time.monotonic) -> None:
        self.log, self.what, self.clock = log, what, clock
        self.since: float | None = None
        self.failures = 0

    @property
    def down(self) -> bool:
        return self.since is not None

    def failed(self, doing: str, error: BaseException) -> None:
        self.failures += 1
        if self.since is None:
            self.since = self.clock()
            self.log.warning("%s is out of reach (%s: %s: %s); actions are answered 'try again' until it is back",
                             self.what, doing, type(error).__name__, error)

    def ok(self) -> None:
        if self.since is not None:
            self.log.warning("%s is back after %.1f s (%d call(s) failed meanwhile)", self.what,
                             self.clock() - self.since, self.failures)
            self.since, self.failures = None, 0


class Envelope:
    """One event on its way to a room's sockets: its JSON text and who caused it.

    ``origin`` is the uid of the connection whose message caused it; that
    connection's copy carries ``request_id`` as ``id``, or is skipped
    (``skip_origin``: a presence the joiner does not need).  ``reset``: not an
    event but word that the room was made again (restored) under the
    subscriber, who must join again to be counted in it.
    """

    __slots__ = ("text", "origin", "request_id", "skip_origin", "reset")

    def __init__(self, text: str, origin: str | None = None, request_id: int | None = None,
                 skip_origin: bool = False, reset: bool = False) -> None:
        self.text, self.origin, self.request_id = text, origin, request_id
        self.skip_origin, self.reset = skip_origin, reset

    @classmethod
    def of(cls, event: Event, origin: str | None = None, request_id: int | None = None,
           skip_origin: bool = False) -> "Envelope":
        return cls(encode(event), origin, request_id, skip_origin)

    def text_for(self, uid: str) -> str | None:
        """What the connection ``uid`` is sent: None to skip; its own copy carries its request id."""
        if self.origin == uid:
            if self.skip_origin:
                return None
            if self.request_id is not None:  # {"id":N, ...the event's fields}: the event is a JSON object
                return f'{{"id":{int(self.request_id)},{self.text[1:]}'
        return self.text


Deliver = Callable[[Envelope], None]
Action = Callable[[Room], "Change"]


@dataclass
class Change:
    """What an action did: events to publish, the reply for a new listener, a refusal to raise
    once the events are saved (the clock ran out before a move that was then refused), whether
    the room goes (idle), and anything the caller wants back (``data``)."""

    events: list[Envelope] = field(default_factory=list)
    reply: Event | None = None
    error: Exception | None = None
    remove: bool = False
    data: Any = None

    @property
    def changed(self) -> bool:
        return bool(self.events) or self.remove


class LocalLock:
    """A lock for one room in this process, dropped when nobody holds or waits for it (so naming
    a thousand room ids costs nothing once they are done with)."""

    __slots__ = ("lock", "users")

    def __init__(self) -> None:
        self.lock, self.users = asyncio.Lock(), 0


class LocalLocks:
    """``LocalLock``s by room id: ``async with locks.hold(room_id)``; ``len(locks)`` counts those in use."""

    def __init__(self) -> None:
        self._locks: dict[str, LocalLock] = {}

    def __len__(self) -> int:
        return len(self._locks)

    @asynccontextmanager
    async def hold(self, room_id: str) -> AsyncIterator[None]:
        local = self._locks.get(room_id)
        if local is None:
            local = self._locks[room_id] = LocalLock()
        local.users += 1
        try:
            async with local.lock:
                yield
        finally:
            local.users -= 1
            if local.users == 0:
                del self._locks[room_id]


class RoomStore(ABC):
    """Rooms by id, changed one action at a time, and event fan-out (see the module docstring)."""

    @abstractmethod
    async def add(self, room: Room, limit: int, owner: str | None = None, owner_limit: int = 0) -> str: ...

    @abstractmethod
    async def change(self, room_id: str, action: Action,
                     listener: Deliver | None = None) -> tuple[Change, Callable[[], None] | None]: ...

    @abstractmethod
    async def get(self, room_id: str) -> Room | None: ...

    @abstractmethod
    async def remove(self, room_id: str) -> None: ...

    @abstractmethod
    async def count(self) -> int: ...

    @abstractmethod
    async def sweep_ids(self, now: float) -> list[str]:
        """The rooms a sweep looks at (clocks to check, idle rooms to drop)."""

    async def start(self) -> None:
        """Connect (a shared store); nothing for memory."""

    async def close(self) -> None:
        """Release connections (a shared store); nothing for memory."""

    async def healthy(self) -> bool:
        """Whether the store answers now (the health endpoint)."""
        return True


class MemoryStore(RoomStore):
    """The embedded default: rooms in this process's memory, lost when it stops.

    Rooms are kept live (no serialising), a change runs under the room's
    ``LocalLock``, and an event is delivered to each subscriber at once.
    """

    def __init__(self) -> None:
        self._rooms: dict[str, Room] = {}
        self._locks = LocalLocks()
        self._subscribers: dict[str, list[Deliver]] = {}
        self._owners: dict[str, set[str]] = {}
        self._owner_of: dict[str, str] = {}

    @property
    def locks_held(self) -> int:
        """Room locks in use now (none once every change is done)."""
        return len(self._locks)

    async def add(self, room: Room, limit: int, owner: str | None = None, owner_limit: int = 0) -> str:
        room_id = room.state.room_id
        if room_id in self._rooms:
            return EXISTS
        if len(self._rooms) >= limit:
            return FULL
        if owner is not None:
            held = self._owners.get(owner, set())
            if len(held) >= owner_limit:
                return OWNER_FULL
            self._owners[owner] = held | {room_id}
            self._owner_of[room_id] = owner
        self._rooms[room_id] = room
        return ADDED

    async def change(self, room_id: str, action: Action,
                     listener: Deliver | None = None) -> tuple[Change, Callable[[], None] | None]:
        async with self._locks.hold(room_id):
            room = self._rooms.get(room_id)
            if room is None:
                raise RoomGone(room_id)
            done = action(room)
            if done.remove:
                self._drop(room_id)
            elif done.events:
                room.save_clock()
            for envelope in done.events:
                for deliver in list(self._subscribers.get(room_id, ())):
                    deliver(envelope)
            unsubscribe = None
            if listener is not None and not done.remove:
                if done.reply is not None:
                    listener(Envelope.of(done.reply))
                unsubscribe = self._subscribe(room_id, listener)
            return done, unsubscribe

    async def get(self, room_id: str) -> Room | None:
        return self._rooms.get(room_id)

    async def remove(self, room_id: str) -> None:
        self._drop(room_id)

    def _drop(self, room_id: str) -> None:
        self._rooms.pop(room_id, None)
        self._subscribers.pop(room_id, None)
        owner = self._owner_of.pop(room_id, None)
        if owner is not None:
            held = self._owners.get(owner, set()) - {room_id}
            if held:
                self._owners[owner] = held
            else:
                self._owners.pop(owner, None)

    async def count(self) -> int:
        return len(self._rooms)

    async def sweep_ids(self, now: float) -> list[str]:
        """Rooms nobody is connected to (they may have idled out) and rooms whose clock ran out."""
        due = []
        for room_id, room in self._rooms.items():
            if not any(room.state.connected):
                due.append(room_id)
            elif room.clock is not None and room.clock.running is not None:
                left = room.expires_in()
                if left is not None and left <= 0:
                    due.append(room_id)
        return due

    def _subscribe(self, room_id: str, deliver: Deliver) -> Callable[[], None]:
        self._subscribers.setdefault(room_id, []).append(deliver)

        def unsubscribe() -> None:
            listeners = self._subscribers.get(room_id)
            if listeners and deliver in listeners:
                listeners.remove(deliver)
                if not listeners:
                    del self._subscribers[room_id]
        return unsubscribe
