"""The relay server: a thin asyncio shell around rooms, on the ``websockets`` library.

Each connection reads messages, checks them (``protocol.parse``), and asks
the store to run an action on its room (``store.RoomStore.change``); the
events a room returns go out through the store, so every connection in the
room (in any process, with a shared store) hears them in order.  A
connection's sends go through its own bounded queue, written by one task,
so a slow reader never holds up a room.

Limits, all in ``RelayConfig``, so that one stranger with a script cannot
take the relay from everyone else:

* only text frames are messages (a binary one is ``not_text``); a message
  is refused past ``max_message_bytes`` with a typed error, and the socket
  closes past ``TRANSPORT_MAX_BYTES`` (websockets' ``max_size``);
* a token bucket per connection (``rate`` frames a second, bursts of
  ``burst``) counts every frame the client sends, WebSocket pings and pongs
  included: one over it is dropped with a ``rate_limited`` error (once per
  flood), and a client that goes on (``burst`` more) is disconnected (close
  code 1008); the room is never touched;
* draw offers, takeback requests and their answers, which every socket of
  the room hears, have a bucket of their own per connection (``offer_rate``,
  ``offer_burst``: ``too_often``);
* ``max_rooms`` rooms, ``rooms_per_connection`` made by one connection,
  ``max_connections`` sockets (one more gets ``too_many_connections`` and
  close code 1013), ``spectators_per_room`` watchers of one room (in this
  process);
* per client address (``addresses.py``; behind a proxy, the address it
  forwards): at most ``address_rooms`` rooms and ``address_connections``
  sockets, a small share of each cap, and rooms started (made or restored)
  and joins paced by buckets of their own (``address_busy``);
* a socket that has not joined a room within ``join_timeout`` seconds is
  closed, and a joined one that sends nothing for ``socket_idle_seconds``
  (the page sends a ``ping`` every minute); a room nobody has been connected
  to is removed after ``idle_seconds``, or after ``pending_seconds`` if the
  second player never came (``sweep``, every ``sweep_seconds``, which also
  ends games on time);
* ``origins``: when given, only pages from those origins may connect
  (others get HTTP 403 in the handshake); it binds 127.0.0.1 by default.

Nothing a client sends can crash the relay: a refusal is a ``RelayError``
sent back, a store out of reach is ``unavailable`` (try again), a room the
store no longer has is ``lost`` (the page may restore it), anything else is
logged and answered with ``internal``; the game is changed only by an action
that succeeded.  ``/healthz`` and ``/metrics`` answer plain HTTP (``metrics.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Sequence

from .addresses import LOOPBACK, AddressBook, address_key, client_address, trusted_set
from .metrics import Metrics, answer_http
from .protocol import MAX_MESSAGE_BYTES, TRANSPORT_MAX_BYTES, ClientMessage, RelayError, encode, message, parse
from .rooms import Event, Room, is_room_id
from .store import (ADDED, EXISTS, FULL, Change, Envelope, MemoryStore, RoomGone, RoomStore, RoomUnreadable,
                    StoreDown)

log = logging.getLogger("tessera.relay")

CLOSE_NORMAL, CLOSE_POLICY, CLOSE_RESTART, CLOSE_TRY_LATER = 1000, 1008, 1012, 1013
CLOSE_GRACE = 5.0
"""Seconds a connection being closed by the relay is given to finish closing."""
SEND_QUEUE = 256
"""Messages waiting for a slow reader before its connection is dropped."""
OFFERS = frozenset({"offer_draw", "answer_draw", "request_takeback", "answer_takeback"})


@dataclass
class RelayConfig:
    host: str = "127.0.0.1"
    port: int = 8765
    max_rooms: int = 1000
    max_connections: int = 2000
    rooms_per_connection: int = 8
    origins: Sequence[str] | None = None
    idle_seconds: float = 6 * 3600
    pending_seconds: float = 600.0
    join_timeout: float = 30.0
    socket_idle_seconds: float = 300.0
    sweep_seconds: float = 0.5
    rate: float = 10.0
    burst: int = 40
    offer_rate: float = 0.2
    offer_burst: int = 4
    spectators_per_room: int = 20
    rooms_per_address: int | None = None
    """None: 5% of ``max_rooms`` (at least 2)."""
    connections_per_address: int | None = None
    """None: 5% of ``max_connections`` (at least 4)."""
    starts_per_minute: float = 10.0
    start_burst: int = 10
    joins_per_minute: float = 60.0
    join_burst: int = 30
    trusted_proxies: Sequence[str] = LOOPBACK
    max_message_bytes: int = MAX_MESSAGE_BYTES
    ping_interval: float | None = 20.0

    @property
    def address_rooms(self) -> int:
        return self.rooms_per_address if self.rooms_per_address is not None else max(2, self.max_rooms // 20)

    @property
    def address_connections(self) -> int:
        if self.connections_per_address is not None:
            return self.connections_per_address
        return max(4, self.max_connections // 20)


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
    """One client socket, where it comes from and what it has joined."""

    socket: Any
    bucket: TokenBucket
    address: str = "unknown"
    offers: TokenBucket = field(default_factory=lambda: TokenBucket(0.2, 4))
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
        self.send_text(encode(data))

    def send_text(self, text: str) -> None:
        """Queue a message; a reader too slow to keep up is dropped."""
        if self.closing is not None:
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.close_with(CLOSE_TRY_LATER)

    def close_with(self, code: int) -> None:
        """End the connection once what is queued has gone."""
        if self.closing is None:
            self.closing = code
            with contextlib.suppress(asyncio.QueueFull):
                self.queue.put_nowait(None)

    def fail(self, error: RelayError, request_id: int | None, code: int = CLOSE_POLICY) -> None:
        """Send an error; a fatal one ends the connection after it."""
        self.send(error.reply(request_id))
        if error.fatal:
            self.close_with(code)

    def deliver(self, envelope: Envelope) -> None:
        """A room's event, as the store hands it to every subscriber."""
        if envelope.reset:  # the room was made again under us: join again to be counted in it
            self.close_with(CLOSE_RESTART)
            return
        text = envelope.text_for(self.uid)
        if text is not None:
            self.send_text(text)

    async def write_loop(self) -> None:
        while True:
            text = await self.queue.get()
            if text is None:
                if self.closing is not None:  # flushed: now end the socket (its reader sees it closed)
                    await self.socket.close(self.closing)
                return
            await self.socket.send(text)


def _server_connection() -> type:
    """websockets' server connection, telling the relay of every control frame a client sends
    (pings are answered by the library itself, so this is where they are counted)."""
    from websockets.asyncio.server import ServerConnection
    from websockets.frames import Opcode

    class RelaySocket(ServerConnection):
        on_control: Callable[[], None] | None = None

        def process_event(self, event: Any) -> None:
            if getattr(event, "opcode", None) in (Opcode.PING, Opcode.PONG) and self.on_control is not None:
                self.on_control()
            super().process_event(event)

    return RelaySocket


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
        self.watchers: dict[str, int] = {}
        """Spectator sockets by room, in this process."""
        config = self.config
        self.addresses = AddressBook((config.starts_per_minute, config.start_burst),
                                     (config.joins_per_minute, config.join_burst), monotonic)
        self.trusted = trusted_set(config.trusted_proxies)
        self.metrics = Metrics()
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
                                  server_header=None, create_connection=_server_connection(),
                                  process_request=lambda connection, request: answer_http(self, connection,
                                                                                           request))
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
            except StoreDown:  # the store logs its outage once; the next sweep tries again
                pass
            except Exception:  # the sweeper must outlive any one room's trouble
                log.exception("sweep failed")

    async def sweep(self) -> None:
        """End games whose clock ran out; remove rooms idle past ``idle_seconds`` (``pending_seconds``
        if the second player never came)."""
        self.addresses.prune()
        moment = self.now()
        config = self.config

        def action(room: Room) -> Change:
            events = room.check_time()
            if events:
                return Change([Envelope.of(event) for event in events])
            state = room.state
            idle = moment - state.active
            if not any(state.connected) and (idle > config.idle_seconds or
                                             not room.joined() and idle > config.pending_seconds):
                return Change(remove=True)
            return Change()

        for room_id in await self.store.sweep_ids(moment):
            with contextlib.suppress(RoomGone, RoomUnreadable):
                await self.store.change(room_id, action)

    # ----- one connection ----------------------------------------------------------------
    async def handler(self, socket: Any) -> None:
        from websockets.exceptions import ConnectionClosed

        config = self.config
        forwarded = socket.request.headers.get("X-Forwarded-For") if getattr(socket, "request", None) else None
        address = client_address(getattr(socket, "remote_address", None), forwarded, self.trusted)
        conn = Connection(socket, TokenBucket(config.rate, config.burst, self.monotonic), address,
                          TokenBucket(config.offer_rate, config.offer_burst, self.monotonic))
        socket.on_control = lambda: self.throttle(conn)
        writer = asyncio.create_task(conn.write_loop())
        counted = False
        if len(self.connections) >= config.max_connections:
            self.refuse(conn, RelayError("too_many_connections", fatal=True, count=config.max_connections))
        elif self.addresses.connected(address) >= config.address_connections:
            self.refuse(conn, RelayError("address_connections", fatal=True, count=config.address_connections))
        else:
            self.connections.add(conn)
            self.addresses.open(address)
            self.metrics.connections_opened += 1
            counted = True
        try:
            while True:
                # Once the relay has decided to close, it goes on reading (and ignoring) what
                # comes, so the client's closing frame is not stuck behind a flood it sent.
                timeout = (CLOSE_GRACE if conn.closing is not None
                           else config.join_timeout if conn.room_id is None else config.socket_idle_seconds)
                try:
                    raw = await asyncio.wait_for(socket.recv(), timeout)
                except asyncio.TimeoutError:
                    if conn.closing is not None:
                        break
                    if conn.room_id is None:
                        self.refuse(conn, RelayError("join_timeout", fatal=True, count=_whole(config.join_timeout)))
                    else:
                        self.refuse(conn, RelayError("idle", fatal=True,
                                                     count=_whole(config.socket_idle_seconds / 60)), CLOSE_NORMAL)
                    continue
                except ConnectionClosed:
                    break
                if conn.closing is None:
                    await self.receive(conn, raw)
        finally:
            self.connections.discard(conn)
            if counted:
                self.addresses.close(address)
            try:
                await self.leave(conn)
            except StoreDown:
                pass  # the room shows the seat connected until it comes back or the room expires
            except Exception:  # the store failed: the socket still goes
                log.exception("leaving room %s failed", conn.room_id)
            with contextlib.suppress(asyncio.QueueFull):
                conn.queue.put_nowait(None)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer, 5)
            writer.cancel()
            with contextlib.suppress(Exception):
                await socket.close(conn.closing or CLOSE_NORMAL)

    def refuse(self, conn: Connection, error: RelayError, code: int = CLOSE_POLICY,
               request_id: int | None = None) -> None:
        """Send ``error`` (and close after a fatal one), counted by code."""
        self.metrics.errors[error.code] += 1
        if error.fatal and conn.closing is None:
            self.metrics.closed[error.code] += 1
        conn.fail(error, request_id, CLOSE_TRY_LATER if error.code in ("too_many_connections",
                                                                       "address_connections") else code)

    def throttle(self, conn: Connection) -> bool:
        """Take a frame from the connection's bucket; False (and the flood handled) if it is empty."""
        if conn.bucket.take():
            conn.dropped = 0
            return True
        conn.dropped += 1
        if conn.dropped == 1:
            self.refuse(conn, RelayError("rate_limited"))
        elif conn.dropped > self.config.burst and conn.closing is None:
            self.refuse(conn, RelayError("rate_limited", fatal=True))
        return False

    async def receive(self, conn: Connection, raw: str | bytes) -> None:
        """One incoming frame: rate limit, parse, act; errors go back to the client."""
        if not self.throttle(conn):
            return
        request_id = None
        try:
            msg = parse(raw, self.config.max_message_bytes)
            request_id = msg.id
            await self.dispatch(conn, msg)
        except RelayError as error:
            self.refuse(conn, error, request_id=request_id)
        except StoreDown:
            self.refuse(conn, RelayError("unavailable"), request_id=request_id)
        except Exception:  # the last guard: log it, tell the client, keep serving
            log.exception("relay failure on a %s message", type(raw).__name__)
            self.refuse(conn, RelayError("internal"), request_id=request_id)

    async def dispatch(self, conn: Connection, msg: ClientMessage) -> None:
        if msg.type == "ping":
            conn.send(message("pong", msg.id))
        elif msg.type in ("create", "restore"):
            if conn.room_id is not None:
                raise RelayError("already_joined")
            await (self.create(conn, msg) if msg.type == "create" else self.restore(conn, msg))
        elif msg.type == "join":
            if conn.room_id is not None:
                raise RelayError("already_joined")
            await self.enter(conn, msg.get("room"), msg.get("secret"), msg.get("name"), msg.get("since"), msg.id)
        else:
            await self.act(conn, msg)

    async def _add(self, conn: Connection, room: Room) -> str:
        config = self.config
        added = await self.store.add(room, config.max_rooms, address_key(conn.address), config.address_rooms)
        if added == FULL:
            raise RelayError("too_many_rooms", count=config.max_rooms)
        if added not in (ADDED, EXISTS):
            raise RelayError("address_rooms", count=config.address_rooms)
        return added

    async def create(self, conn: Connection, msg: ClientMessage) -> None:
        config = self.config
        if conn.created >= config.rooms_per_connection:
            raise RelayError("room_quota", count=config.rooms_per_connection)
        if not self.addresses.may_start(conn.address):
            raise RelayError("address_busy")
        seed = msg.get("seed")
        if seed is None:
            seed = secrets.randbits(31)
        room, seat_secrets, spectator = Room.create(None, msg.get("game"), msg.get("options"), seed,
                                                    msg.get("time_control"), self.now)
        if await self._add(conn, room) != ADDED:  # an id made from fresh secrets cannot exist
            raise RelayError("internal")
        conn.created += 1
        self.metrics.rooms_created += 1
        seat = msg.get("seat", 0)
        room_id = room.state.room_id
        conn.send(message("created", msg.id, room=room_id, seat=seat, secret=seat_secrets[seat],
                          invite=seat_secrets[1 - seat], spectate=spectator))
        await self.enter(conn, room_id, seat_secrets[seat], msg.get("name"), None, msg.id, paced=False)

    async def restore(self, conn: Connection, msg: ClientMessage) -> None:
        """Make a lost room again from a player's record (``protocol.py``), or join it if it is back."""
        if not self.addresses.may_start(conn.address):
            raise RelayError("address_busy")
        room_id, secret, name = msg.get("room"), msg.get("secret"), msg.get("name")
        room, seat = Room.restore(room_id, secret, msg.get("keys"), msg.get("game"), msg.get("options"),
                                  msg.get("seed"), msg.get("time_control"), msg.get("moves"), msg.get("version"),
                                  msg.get("clock"), [None, None], self.now)
        room.state.names[seat], room.state.names[1 - seat] = name, msg.get("opponent")
        if await self._add(conn, room) == ADDED:
            self.metrics.rooms_restored += 1
            log.info("room %s restored from a player's record (%d moves)", room_id, len(room.state.moves))
        # the whole record, not moves since a version: a room restored by the other player may differ
        await self.enter(conn, room_id, secret, name, None, msg.id, paced=False)

    async def enter(self, conn: Connection, room_id: str, secret: str, name: str | None,
                    since: int | None, request_id: int | None, paced: bool = True) -> None:
        """Join a room with a seat's secret or the spectator token; the answer is ``state``."""
        if paced and not self.addresses.may_join(conn.address):
            raise RelayError("address_busy")
        cap = self.config.spectators_per_room

        def action(room: Room) -> Change:
            seat = room.seat_for(secret)
            if seat is None and self.watchers.get(room_id, 0) >= cap:
                raise RelayError("too_many_spectators", count=cap)
            events = [Envelope.of(event) for event in room.check_time()]
            if seat is not None:
                events.append(Envelope.of(room.connect(seat, name), conn.uid, skip_origin=True))
            return Change(events, reply=room.snapshot(seat, since, request_id), data=seat)

        try:
            done, unsubscribe = await self.store.change(room_id, action, conn.deliver)
        except RoomGone:
            raise RelayError("lost" if is_room_id(room_id) else "no_access") from None
        except RoomUnreadable:
            raise RelayError("no_access") from None
        seat = done.data
        if seat is not None:
            old = self.seat_holders.get((room_id, seat))
            if old is not None and old is not conn:
                self.refuse(old, RelayError("replaced", fatal=True), CLOSE_NORMAL)
            self.seat_holders[(room_id, seat)] = conn
        else:
            self.watchers[room_id] = self.watchers.get(room_id, 0) + 1
        conn.room_id, conn.seat, conn.unsubscribe = room_id, seat, unsubscribe

    async def act(self, conn: Connection, msg: ClientMessage) -> None:
        """A move, resignation, draw offer or takeback, done by the room in one change."""
        room_id, seat = conn.room_id, conn.seat
        if room_id is None:
            raise RelayError("not_joined")
        if msg.type in OFFERS and not conn.offers.take():
            raise RelayError("too_often")
        actions: dict[str, Callable[[Room], list[Event]]] = {
            "move": lambda room: room.move(seat, msg.get("move"), msg.get("version")),
            "resign": lambda room: room.resign(seat),
            "offer_draw": lambda room: room.offer_draw(seat),
            "answer_draw": lambda room: room.answer_draw(seat, msg.get("accept")),
            "request_takeback": lambda room: room.request_takeback(seat),
            "answer_takeback": lambda room: room.answer_takeback(seat, msg.get("accept")),
        }

        def action(room: Room) -> Change:
            events = [Envelope.of(event) for event in room.check_time()]
            try:
                done = actions[msg.type](room)
            except RelayError as error:  # refused, but the time that ran out is kept
                return Change(events, error=error)
            return Change(events + [Envelope.of(event, conn.uid, msg.id) for event in done])

        try:
            done, _ = await self.store.change(room_id, action)
        except RoomGone:
            self._forget(conn)  # free to restore (or join) again on this socket
            raise RelayError("lost") from None
        except RoomUnreadable:
            raise RelayError("no_access", fatal=True) from None
        if done.error is not None:
            raise done.error
        if msg.type == "move":
            self.metrics.moves += 1

    def _forget(self, conn: Connection) -> None:
        """The connection is in no room any more (its room is gone)."""
        if conn.unsubscribe is not None:
            conn.unsubscribe()
            conn.unsubscribe = None
        room_id, seat = conn.room_id, conn.seat
        if room_id is not None:
            if seat is None:
                left = self.watchers.get(room_id, 0) - 1
                if left > 0:
                    self.watchers[room_id] = left
                else:
                    self.watchers.pop(room_id, None)
            elif self.seat_holders.get((room_id, seat)) is conn:
                del self.seat_holders[(room_id, seat)]
        conn.room_id = conn.seat = None

    async def leave(self, conn: Connection) -> None:
        """The socket is gone: stop its deliveries and tell the room if it held a seat."""
        room_id, seat = conn.room_id, conn.seat
        holder = seat is not None and self.seat_holders.get((room_id, seat)) is conn
        self._forget(conn)
        if room_id is None or not holder:
            return

        def action(room: Room) -> Change:
            return Change([Envelope.of(room.disconnect(seat), conn.uid, skip_origin=True)])

        with contextlib.suppress(RoomGone, RoomUnreadable):
            await self.store.change(room_id, action)


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
