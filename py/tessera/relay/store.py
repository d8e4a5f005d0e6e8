"""Where rooms live: the ``RoomStore`` interface and the in-memory store.

The server never keeps a room itself; it asks the store, changes the room
while holding the room's lock, saves it, and publishes the events through
the store.  So a store shared by several relay processes (Redis: keys for
room state, pub/sub for events) plugs in without changing the server.

The contract a store keeps:

* ``add(room, limit)`` stores a new room unless ``limit`` rooms exist
  (False then); the room's id is new (``rooms.new_room_id``).
* ``get(room_id)`` returns the room as last saved, or None; ``lock(room_id)``
  is an async context manager under which one change at a time is made to a
  room (get, change, ``save``).  A shared store makes it a lock across
  processes and has ``get`` rebuild the ``Room`` from its ``RoomState``
  (``Room.save_clock`` writes the live clock into the state first).
* ``remove(room_id)`` drops a room; ``room_ids()`` lists them and
  ``count()`` counts them (for expiry and the cap); ``sweep_ids(now)``
  names the rooms a sweep must look at (all of them by default; a store
  whose rooms expire by themselves names only those whose clock may have
  run out).
* ``start()`` connects (a shared store) before the relay listens, and
  ``close()`` lets go.
* ``publish(room_id, event)`` delivers an event to every subscriber of the
  room in every process, in the order published; ``subscribe(room_id,
  deliver)`` registers a local callback and returns the function that
  unregisters it.  ``deliver`` must not block (it queues sends).
"""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator, Callable

from .rooms import Room

Deliver = Callable[[dict[str, Any]], None]


class RoomStore(ABC):
    """Rooms by id, a lock per room, and event fan-out (see the module docstring)."""

    @abstractmethod
    async def add(self, room: Room, limit: int) -> bool: ...

    @abstractmethod
    async def get(self, room_id: str) -> Room | None: ...

    @abstractmethod
    async def save(self, room: Room) -> None: ...

    @abstractmethod
    async def remove(self, room_id: str) -> None: ...

    @abstractmethod
    async def room_ids(self) -> list[str]: ...

    async def count(self) -> int:
        return len(await self.room_ids())

    async def sweep_ids(self, now: float) -> list[str]:
        """The rooms a sweep looks at (clocks to check, idle rooms to drop): all of them here."""
        return await self.room_ids()

    @abstractmethod
    def lock(self, room_id: str) -> Any:
        """An async context manager: one change at a time to this room."""

    @abstractmethod
    async def publish(self, room_id: str, event: dict[str, Any]) -> None: ...

    @abstractmethod
    def subscribe(self, room_id: str, deliver: Deliver) -> Callable[[], None]: ...

    async def start(self) -> None:
        """Connect (a shared store); nothing for memory."""

    async def close(self) -> None:
        """Release connections (a shared store); nothing for memory."""


class MemoryStore(RoomStore):
    """The embedded default: rooms in this process's memory, lost when it stops.

    Rooms are kept live (no serialising), and a lock is an ``asyncio.Lock``.
    """

    def __init__(self) -> None:
        self._rooms: dict[str, Room] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._subscribers: dict[str, list[Deliver]] = {}

    async def add(self, room: Room, limit: int) -> bool:
        if len(self._rooms) >= limit or room.state.room_id in self._rooms:
            return False
        self._rooms[room.state.room_id] = room
        return True

    async def get(self, room_id: str) -> Room | None:
        return self._rooms.get(room_id)

    async def save(self, room: Room) -> None:
        room.save_clock()
        self._rooms[room.state.room_id] = room

    async def remove(self, room_id: str) -> None:
        self._rooms.pop(room_id, None)
        self._locks.pop(room_id, None)
        self._subscribers.pop(room_id, None)

    async def room_ids(self) -> list[str]:
        return list(self._rooms)

    async def count(self) -> int:
        return len(self._rooms)

    @asynccontextmanager
    async def lock(self, room_id: str) -> AsyncIterator[None]:
        lock = self._locks.setdefault(room_id, asyncio.Lock())
        async with lock:
            yield

    async def publish(self, room_id: str, event: dict[str, Any]) -> None:
        for deliver in list(self._subscribers.get(room_id, ())):
            deliver(event)

    def subscribe(self, room_id: str, deliver: Deliver) -> Callable[[], None]:
        self._subscribers.setdefault(room_id, []).append(deliver)

        def unsubscribe() -> None:
            listeners = self._subscribers.get(room_id)
            if listeners and deliver in listeners:
                listeners.remove(deliver)
                if not listeners:
                    del self._subscribers[room_id]
        return unsubscribe
