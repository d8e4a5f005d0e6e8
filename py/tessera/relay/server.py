"""The relay server: a thin asyncio shell around rooms, on the ``websockets`` library.

Each connection reads messages, checks them (``protocol.parse``), and asks
its room to act (``rooms.Room``) under the room's lock in the store; the
events a room returns go out through the store's publish, so every
connection in the room (in any process, with a shared store) hears them in
order.  A connection's sends go through its own bounded queue, written by
one task, so a slow reader never holds up a room.

Limits, all in ``RelayConfig``:

* a message is refused past ``max_message_bytes`` with a typed error, and
  the socket closes past ``TRANSPORT_MAX_BYTES`` (websockets' ``max_size``);
* a token bucket per connection (``rate`` messages a second, bursts of
  ``burst``): a message over it is dropped with a ``rate_limited`` error
  (once per flood), and a client that goes on flooding (``burst`` more
  drops) is disconnected (close code 1008); the room is never touched;
* ``max_rooms`` rooms, ``rooms_per_connection`` made by one connection,
  ``max_connections`` sockets (one more gets ``too_many_connections`` and
  close code 1013);
* a socket that has not joined a room within ``join_timeout`` seconds is
  closed; a room nobody has been connected to for ``idle_seconds`` is
  removed (``sweep``, every ``sweep_seconds``, which also ends games on
  time);
* ``origins``: when given, only pages from those origins may connect
  (others get HTTP 403 in the handshake); it binds 127.0.0.1 by default.

Nothing a client sends can crash the relay: a refusal is a ``RelayError``
sent back, anything else is logged and answered with ``internal``; the
game is changed only by an action that succeeded.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Sequence

from .protocol import MAX_MESSAGE_BYTES, TRANSPORT_MAX_BYTES, ClientMessage, RelayError, encode, message, parse
from .rooms import Event, Room, new_room_id
from .store import MemoryStore, RoomStore

log = logging.getLogger("tessera.relay")

CLOSE_NORMAL, CLOSE_POLICY, CLOSE_TRY_LATER = 1000, 1008, 1013
CLOSE_GRACE = 5.0
"""Seconds a connection being closed by the relay is given to finish closing."""
SEND_QUEUE = 256
"""Messages waiting for a slow reader before its connection is dropped."""


@dataclass
class RelayConfig:
    host: str = "127.0.0.1"
    port: int = 8765
    max_rooms: int = 1000
    max_connections: int = 2000
    rooms_per_connection: int = 8
    origins: Sequence[str] | None = None
    idle_seconds: float = 6 * 3600
    join_timeout: float = 30.0
    sweep_seconds: float = 0.5
    rate: float = 10.0
    burst: int = 40
    max_message_bytes: int = MAX_MESSAGE_BYTES
    ping_interval: float | None = 20.0


class TokenBucket:
    """``rate`` tokens a second up to ``burst``; a message takes one."""

    def __init__(self, rate: float, burst: int, now: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.now = rate, burst, now
        self.tokens = float(burst)
        self.last = now()

    def take(self) -> bool:
        moment = self.now()
        self.tokens = min(float(self.burst), self.tokens + (moment - self.last) * self.rate)
        self.last = moment
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


@dataclass(eq=False)
class Connection:
    """One client socket and what it has joined."""

    socket: Any
    bucket: TokenBucket
    uid: str = field(default_factory=lambda: secrets.token_hex(8))
    room_id: str | None = None
    seat: int | None = None
    created: int = 0
    dropped: int = 0
    unsubscribe: Callable[[], None] | None = None
    queue: asyncio.Queue = field(default_factory=lambda: asyncio.Queue(SEND_QUEUE))
    closing: int | None = None
    """A close code once the relay has decided to drop this connection."""

    def send(self, data: Event) -> None:
        """Queue a message; a reader too slow to keep up is dropped."""
        if self.closing is not None:
            return
        try:
            self.queue.put_nowait(encode(data))
        except asyncio.QueueFull:
            self.closing = CLOSE_TRY_LATER
            with contextlib.suppress(asyncio.QueueFull):
                self.queue.put_nowait(None)

    def fail(self, error: RelayError, request_id: int | None, code: int = CLOSE_POLICY) -> None:
        """Send an error; a fatal one ends the connection after it."""
        self.send(error.reply(request_id))
        if error.fatal and self.closing is None:
            self.closing = code
            with contextlib.suppress(asyncio.QueueFull):
                self.queue.put_nowait(None)

    def deliver(self, envelope: dict[str, Any]) -> None:
        """A room's event, as the store hands it to every subscriber."""
        event = envelope["event"]
        if envelope.get("origin") == self.uid:
            if envelope.get("skip_origin"):
                return
            if envelope.get("id") is not None:
                event = {**event, "id": envelope["id"]}
        self.send(event)

    async def write_loop(self) -> None:
        while True:
            text = await self.queue.get()
            if text is None:
                if self.closing is not None:  # flushed: now end the socket (its reader sees it closed)
                    await self.socket.close(self.closing)
                return
            await self.socket.send(text)


class Relay:
    """The relay's logic for any number of connections (``serve`` runs it on a socket)."""

    def __init__(self, config: RelayConfig | None = None, store: RoomStore | None = None,
                 now: Callable[[], float] = time.time, monotonic: Callable[[], float] = time.monotonic) -> None:
        self.config = config or RelayConfig()
        self.store = store if store is not None else MemoryStore()
        self.now = now
        self.monotonic = monotonic
        self.connections: set[Connection] = set()
        self.seat_holders: dict[tuple[str, int], Connection] = {}
        self.server: Any = None
        self.port: int | None = None
        self._sweeper: asyncio.Task | None = None

    # ----- running -----------------------------------------------------------------------
    async def start(self) -> int:
        """Listen on the configured host and port; returns the port (0 picks a free one)."""
        from websockets.asyncio.server import serve  # the relay alone needs websockets

        config = self.config
        await self.store.start()
        self.server = await serve(self.handler, config.host, config.port,
                                  max_size=TRANSPORT_MAX_BYTES, compression=None,
                                  origins=list(config.origins) if config.origins else None,
                                  ping_interval=config.ping_interval, ping_timeout=config.ping_interval,
                                  server_header=None)
        self.port = self.server.sockets[0].getsockname()[1]
        if config.sweep_seconds > 0:
            self._sweeper = asyncio.create_task(self._sweep_loop())
        return self.port

    async def stop(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()
        await self.store.close()

    async def _sweep_loop(self) -> None:
        while True:
            await asyncio.sleep(self.config.sweep_seconds)
            try:
                await self.sweep()
            except Exception:  # the sweeper must outlive any one room's trouble
                log.exception("sweep failed")

    async def sweep(self) -> None:
        """End games whose clock ran out and remove rooms idle past ``idle_seconds``."""
        for room_id in await self.store.sweep_ids(self.now()):
            async with self.store.lock(room_id):
                room = await self.store.get(room_id)
                if room is None:
                    continue
                events = room.check_time()
                if events:
                    await self._commit(room, events)
                elif not any(room.state.connected) and self.now() - room.state.active > self.config.idle_seconds:
                    await self.store.remove(room_id)

    # ----- one connection ----------------------------------------------------------------
    async def handler(self, socket: Any) -> None:
        from websockets.exceptions import ConnectionClosed

        config = self.config
        conn = Connection(socket, TokenBucket(config.rate, config.burst, self.monotonic))
        writer = asyncio.create_task(conn.write_loop())
        if len(self.connections) >= config.max_connections:
            conn.fail(RelayError("too_many_connections", fatal=True, count=config.max_connections), None,
                      CLOSE_TRY_LATER)
        else:
            self.connections.add(conn)
        try:
            while True:
                # Once the relay has decided to close, it goes on reading (and ignoring) what
                # comes, so the client's closing frame is not stuck behind a flood it sent.
                timeout = (CLOSE_GRACE if conn.closing is not None
                           else config.join_timeout if conn.room_id is None else None)
                try:
                    raw = await asyncio.wait_for(socket.recv(), timeout)
                except asyncio.TimeoutError:
                    if conn.closing is not None:
                        break
                    conn.fail(RelayError("join_timeout", fatal=True, count=_whole(config.join_timeout)), None)
                    continue
                except ConnectionClosed:
                    break
                if conn.closing is None:
                    await self.receive(conn, raw)
        finally:
            self.connections.discard(conn)
            try:
                await self.leave(conn)
            except Exception:  # the store failed (a shared one out of reach): the socket still goes
                log.exception("leaving room %s failed", conn.room_id)
            with contextlib.suppress(asyncio.QueueFull):
                conn.queue.put_nowait(None)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer, 5)
            writer.cancel()
            with contextlib.suppress(Exception):
                await socket.close(conn.closing or CLOSE_NORMAL)

    async def receive(self, conn: Connection, raw: str | bytes) -> None:
        """One incoming frame: rate limit, parse, act; errors go back to the client."""
        if not conn.bucket.take():
            conn.dropped += 1
            if conn.dropped == 1:
                conn.fail(RelayError("rate_limited"), None)
            elif conn.dropped > self.config.burst:
                conn.fail(RelayError("rate_limited", fatal=True), None)
            return
        conn.dropped = 0
        request_id = None
        try:
            msg = parse(raw, self.config.max_message_bytes)
            request_id = msg.id
            await self.dispatch(conn, msg)
        except RelayError as error:
            conn.fail(error, request_id)
        except Exception:  # the last guard: log it, tell the client, keep serving
            log.exception("relay failure on a %s message", type(raw).__name__)
            conn.fail(RelayError("internal"), request_id)

    async def dispatch(self, conn: Connection, msg: ClientMessage) -> None:
        if msg.type == "ping":
            conn.send(message("pong", msg.id))
        elif msg.type == "create":
            await self.create(conn, msg)
        elif msg.type == "join":
            if conn.room_id is not None:
                raise RelayError("already_joined")
            await self.enter(conn, msg.get("room"), msg.get("secret"), msg.get("name"), msg.get("since"), msg.id)
        else:
            await self.act(conn, msg)

    async def create(self, conn: Connection, msg: ClientMessage) -> None:
        config = self.config
        if conn.room_id is not None:
            raise RelayError("already_joined")
        if conn.created >= config.rooms_per_connection:
            raise RelayError("room_quota", count=config.rooms_per_connection)
        if await self.store.count() >= config.max_rooms:
            raise RelayError("too_many_rooms", count=config.max_rooms)
        seed = msg.get("seed")
        if seed is None:
            seed = secrets.randbits(31)
        room, seat_secrets, spectator = Room.create(new_room_id(), msg.get("game"), msg.get("options"), seed,
                                                    msg.get("time_control"), self.now)
        if not await self.store.add(room, config.max_rooms):
            raise RelayError("too_many_rooms", count=config.max_rooms)
        conn.created += 1
        seat = msg.get("seat", 0)
        room_id = room.state.room_id
        conn.send(message("created", msg.id, room=room_id, seat=seat, secret=seat_secrets[seat],
                          invite=seat_secrets[1 - seat], spectate=spectator))
        await self.enter(conn, room_id, seat_secrets[seat], msg.get("name"), None, msg.id)

    async def enter(self, conn: Connection, room_id: str, secret: str, name: str | None,
                    since: int | None, request_id: int | None) -> None:
        """Join a room with a seat's secret or the spectator token; the answer is ``state``."""
        async with self.store.lock(room_id):
            room = await self.store.get(room_id)
            if room is None:
                raise RelayError("no_access")
            seat = room.seat_for(secret)
            await self._commit(room, room.check_time())  # before subscribing: the state below has it
            if seat is not None:
                old = self.seat_holders.get((room_id, seat))
                if old is not None and old is not conn:
                    old.fail(RelayError("replaced", fatal=True), None, CLOSE_NORMAL)
                self.seat_holders[(room_id, seat)] = conn
            conn.room_id, conn.seat = room_id, seat
            conn.unsubscribe = self.store.subscribe(room_id, conn.deliver)
            presence = room.connect(seat, name) if seat is not None else None
            conn.send(room.snapshot(seat, since, request_id))
            await self.store.save(room)
            if presence is not None:
                await self.store.publish(room_id, {"event": presence, "origin": conn.uid, "skip_origin": True})

    async def act(self, conn: Connection, msg: ClientMessage) -> None:
        """A move, resignation, draw offer or takeback, done by the room under its lock."""
        room_id, seat = conn.room_id, conn.seat
        if room_id is None:
            raise RelayError("not_joined")
        actions: dict[str, Callable[[Room], list[Event]]] = {
            "move": lambda room: room.move(seat, msg.get("move"), msg.get("version")),
            "resign": lambda room: room.resign(seat),
            "offer_draw": lambda room: room.offer_draw(seat),
            "answer_draw": lambda room: room.answer_draw(seat, msg.get("accept")),
            "request_takeback": lambda room: room.request_takeback(seat),
            "answer_takeback": lambda room: room.answer_takeback(seat, msg.get("accept")),
        }
        async with self.store.lock(room_id):
            room = await self.store.get(room_id)
            if room is None:
                raise RelayError("no_access", fatal=True)
            events = room.check_time()
            try:
                done = actions[msg.type](room)
            finally:
                await self._commit(room, events)
            await self._commit(room, done, conn.uid, msg.id)

    async def _commit(self, room: Room, events: list[Event], origin: str | None = None,
                      request_id: int | None = None) -> None:
        """Save a changed room and publish its events (the sender's copies carry its request id)."""
        if not events:
            return
        await self.store.save(room)
        for event in events:
            await self.store.publish(room.state.room_id, {"event": event, "origin": origin, "id": request_id})

    async def leave(self, conn: Connection) -> None:
        """The socket is gone: stop its deliveries and tell the room if it held a seat."""
        if conn.unsubscribe is not None:
            conn.unsubscribe()
            conn.unsubscribe = None
        room_id, seat = conn.room_id, conn.seat
        if room_id is None or seat is None or self.seat_holders.get((room_id, seat)) is not conn:
            return
        del self.seat_holders[(room_id, seat)]
        async with self.store.lock(room_id):
            room = await self.store.get(room_id)
            if room is not None:
                event = room.disconnect(seat)
                await self.store.save(room)
                await self.store.publish(room_id, {"event": event, "origin": conn.uid, "skip_origin": True})


def _whole(seconds: float) -> int | float:
    """Seconds as a whole number when they are one (the catalog picks the plural form by it)."""
    return int(seconds) if float(seconds).is_integer() else seconds


async def serve_forever(config: RelayConfig, announce: Callable[[str], Awaitable[None] | None] = print,
                        store: RoomStore | None = None) -> None:
    """Run a relay until SIGINT or SIGTERM; ``announce`` gets the first line (the address)."""
    import signal

    relay = Relay(config, store)
    port = await relay.start()
    host = config.host if ":" not in config.host else f"[{config.host}]"
    announced = announce(f"relay listening on ws://{host}:{port}")
    if asyncio.iscoroutine(announced):
        await announced
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    try:
        await stop.wait()
    finally:
        await relay.stop()
