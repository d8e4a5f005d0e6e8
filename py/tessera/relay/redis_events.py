"""The pub/sub side of ``RedisStore``: one connection per process, rooms' events to local sockets.

A commit publishes one message on the room's channel (``events:<id>``)
with everything a process needs to follow the room without reading it:

    <epoch> <rev>
    <the change: state fields and the record's new tail, JSON>
    <origin> <request id> <skip>      one pair of lines per event:
    <the event's JSON text>           who caused it, and what to send

(``-`` for an empty origin or id.)  Each process keeps its copy of the room
in step from these (``RedisStore.follow``), and hands each event to its own
sockets in the order Redis delivers them, which is the order the commits
happened in (a commit is one script).

A subscriber (``Listener``) joins in a known place: it is registered before
its join's commit, its channel's subscription confirmed by Redis before
that commit runs, and it holds what arrives until the commit says which
``rev`` its ``state`` reply showed; then it gets the reply, and only events
after that rev.  A message of another epoch means the room was made again
(a restore) under the subscriber: it is told to join again (``Envelope``
``reset``).  When the pub/sub connection comes back after Redis went away,
events may have been missed: every local subscriber is told the same.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from typing import Any, Callable

from .store import Deliver, Envelope, OutageLog

log = logging.getLogger("tessera.relay.redis")

CONFIRM_SECONDS = 5.0


class Listener:
    """A local subscriber: its callback, and where it joined (None until its join's commit is done)."""

    __slots__ = ("deliver", "epoch", "start", "held")

    def __init__(self, deliver: Deliver) -> None:
        self.deliver = deliver
        self.epoch: str | None = None
        self.start = 0
        self.held: list[tuple[str, int, list[Envelope]]] = []

    def take(self, epoch: str, rev: int, envelopes: list[Envelope]) -> None:
        if self.epoch is None:
            self.held.append((epoch, rev, envelopes))
        elif epoch != self.epoch:
            self.epoch = epoch
            self.deliver(Envelope("", reset=True))
        elif rev > self.start:
            for envelope in envelopes:
                self.deliver(envelope)

    def activate(self, epoch: str, rev: int, reply: Envelope | None) -> None:
        """The join's commit is done at ``rev``: the reply first, then what came meanwhile."""
        self.epoch, self.start = epoch, rev
        if reply is not None:
            self.deliver(reply)
        held, self.held = self.held, []
        for message in held:
            self.take(*message)


def pack(epoch: str, rev: int, change: str, envelopes: list[Envelope]) -> str:
    """A commit's message (see the module docstring); ``change`` is its JSON text."""
    lines = [f"{epoch} {rev}", change]
    for envelope in envelopes:
        lines.append(f"{envelope.origin or '-'} {'-' if envelope.request_id is None else envelope.request_id} "
                     f"{1 if envelope.skip_origin else 0}")
        lines.append(envelope.text)
    return "\n".join(lines)


def unpack(data: str) -> tuple[str, int, str, list[Envelope]]:
    """``pack``'s message back, the change still as JSON text (the process that made it never needs
    to read it); ValueError if it is not one."""
    lines = data.split("\n")
    epoch, rev = lines[0].split(" ")
    change = lines[1]
    if len(lines) % 2:
        raise ValueError("not a commit message")
    envelopes = []
    for index in range(2, len(lines), 2):
        origin, request_id, skip = lines[index].split(" ")
        envelopes.append(Envelope(lines[index + 1], None if origin == "-" else origin,
                                  None if request_id == "-" else int(request_id), skip == "1"))
    return epoch, int(rev), change, envelopes


class EventHub:
    """This process's pub/sub connection: subscriptions in order, confirmed, and the reader.

    ``follow(room_id, epoch, rev, change)`` is called for every commit read
    (the store keeps its copy of the room in step; ``change`` is JSON text),
    before its events go to the room's local listeners.
    """

    def __init__(self, redis: Any, prefix: str, process: str, outage: OutageLog,
                 follow: Callable[[str, str, int, str], None]) -> None:
        self.redis, self.prefix, self.outage, self.follow = redis, prefix, outage, follow
        self.own_channel = f"{prefix}process:{process}"
        self.pubsub: Any = None
        self.listeners: dict[str, list[Listener]] = {}
        self._confirming: dict[str, deque[asyncio.Future]] = {}
        self._ops: asyncio.Queue | None = None
        self._tasks: list[asyncio.Task] = []
        self._connected_once = False

    def channel(self, room_id: str) -> str:
        return f"{self.prefix}events:{room_id}"

    async def start(self) -> None:
        """Subscribe to this process's own channel (so the connection is a subscriber from the start)."""
        self.pubsub = self.redis.pubsub()
        await self.pubsub.subscribe(self.own_channel)
        self._ops = asyncio.Queue()
        self._tasks = [asyncio.create_task(self._read_loop()), asyncio.create_task(self._control_loop())]

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(BaseException):
                await task
        self._tasks = []
        if self.pubsub is not None:
            with contextlib.suppress(Exception):
                await self.pubsub.aclose()
            self.pubsub = None

    # ----- subscribers ------------------------------------------------------------------
    def listen(self, room_id: str, deliver: Deliver) -> tuple[Listener, Callable[[], None]]:
        """A listener on the room, inactive until ``Listener.activate``; and how to remove it."""
        listener = Listener(deliver)
        listeners = self.listeners.get(room_id)
        if listeners is None:
            listeners = self.listeners[room_id] = []
            self._order("subscribe", room_id)
        listeners.append(listener)

        def remove() -> None:
            current = self.listeners.get(room_id)
            if current is not None and listener in current:
                current.remove(listener)
                if not current:
                    del self.listeners[room_id]
                    self._order("unsubscribe", room_id)
        return listener, remove

    def _order(self, kind: str, room_id: str) -> None:
        """Queue a (un)subscription; they reach Redis in the order asked."""
        if self._ops is None:
            raise RuntimeError("RedisStore.start() was not called")
        future: asyncio.Future | None = None
        channel = self.channel(room_id)
        if kind == "subscribe":
            future = asyncio.get_running_loop().create_future()
            self._confirming.setdefault(channel, deque()).append(future)
        self._ops.put_nowait((kind, channel, future))

    async def confirmed(self, room_id: str) -> None:
        """Wait until Redis has confirmed this process's pending subscriptions to the room."""
        pending = [f for f in self._confirming.get(self.channel(room_id), ()) if not f.done()]
        if pending:
            _, late = await asyncio.wait(pending, timeout=CONFIRM_SECONDS)
            if late:
                log.warning("room %r: Redis did not confirm a subscription in %g s", room_id, CONFIRM_SECONDS)

    def _settle(self, channel: str, future: asyncio.Future | None = None) -> None:
        """A subscription is confirmed (the oldest pending one), or ``future``'s failed."""
        waiting = self._confirming.get(channel)
        if not waiting:
            return
        if future is None:
            future = waiting.popleft()
        elif future in waiting:
            waiting.remove(future)
        if not waiting:
            del self._confirming[channel]
        if not future.done():
            future.set_result(None)

    async def _control_loop(self) -> None:
        assert self._ops is not None
        while True:
            kind, channel, future = await self._ops.get()
            try:
                if kind == "subscribe":
                    await self.pubsub.subscribe(channel)
                else:
                    await self.pubsub.unsubscribe(channel)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                self.outage.failed(f"pub/sub {kind} failed", error)
                if future is not None:
                    self._settle(channel, future)

    # ----- reading ----------------------------------------------------------------------
    async def _read_loop(self) -> None:
        prefix = self.channel("")
        while True:
            try:
                message = await self.pubsub.get_message(timeout=None)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # Redis went away: redis-py connects and subscribes again
                self.outage.failed("pub/sub read failed", error)
                await asyncio.sleep(0.5)
                continue
            if not message:
                continue
            channel = message.get("channel")
            if not isinstance(channel, str):
                continue
            if message["type"] == "subscribe":
                if channel == self.own_channel:
                    self._connected()
                else:
                    self._settle(channel)
            elif message["type"] == "message" and channel.startswith(prefix):
                self._dispatch(channel[len(prefix):], message["data"])

    def _connected(self) -> None:
        """The pub/sub connection is (again) subscribed: after a loss, events may have been missed."""
        if not self._connected_once:
            self._connected_once = True
            return
        self.outage.ok()
        rooms = list(self.listeners.items())
        log.warning("pub/sub connection back: %d room(s)' sockets are asked to join again", len(rooms))
        for _, listeners in rooms:
            for listener in list(listeners):
                listener.deliver(Envelope("", reset=True))

    def _dispatch(self, room_id: str, data: str) -> None:
        try:
            epoch, rev, change, envelopes = unpack(data)
        except (ValueError, TypeError):
            log.warning("room %r: an unreadable event on its channel was dropped", room_id)
            return
        try:
            self.follow(room_id, epoch, rev, change)
        except Exception:  # the store drops its copy itself; nothing here may stop the reader
            log.exception("room %r: following a change failed", room_id)
        for listener in list(self.listeners.get(room_id, ())):
            try:
                listener.take(epoch, rev, envelopes)
            except Exception:
                log.exception("room %r: delivering an event failed", room_id)
