"""Rooms in Redis, shared by several relay processes (``relay --redis URL``).

Any relay process on the same Redis can serve either player of any room:
the room's state is in a key, a change is made under a lock that holds
across processes, and events go out through Redis pub/sub to every process
with a player in the room.  A relay process that stops or is killed loses
nothing: its players reconnect to another one (or to it, restarted) with
their secret and the version they had.

Keys, all under ``prefix`` (``tessera:relay:`` by default):

* ``room:<id>`` - a hash: ``state``, the ``RoomState`` as JSON, and ``seq``,
  how many events the room has published.  It expires ``ttl`` seconds
  (the relay's ``idle_seconds``) after the last save; each process renews
  the rooms it has a socket in every ``ttl / 4`` seconds (at most a
  minute).  So a room nobody is connected to goes by itself, even when the
  process its players were on was killed and left their ``connected``
  flags set.
* ``rooms`` - a sorted set of the room ids by when their key expires (in
  Redis's own clock): the list of rooms and the count the cap is checked
  against, atomically with adding one (a Lua script).
* ``clocks`` - a sorted set of the room ids whose clock runs, by when the
  seat to move runs out (the relay's clock): the rooms a sweep must look
  at, so sweeping costs nothing for rooms without a clock.
* ``lock:<id>`` - a room's lock: a random token set with ``NX`` and an
  expiry (``LOCK_SECONDS``, so a lock held by a killed process frees
  itself), deleted only by its holder (a compare-and-delete script).
* channel ``events:<id>`` - the room's events, as ``"<seq> <json>"``.

A change is two round trips to Redis: one script takes the lock and reads
the room; what is saved and published under the lock is kept until the lock
is released, then one script checks the lock is still this holder's, writes
the state, publishes the events in order and releases the lock.  So a change
is all or nothing (a relay killed halfway leaves the room as it was), and a
holder whose lock expired meanwhile writes nothing (the action fails).

Each process has one pub/sub connection and hands each event to its local
subscribers in the order Redis delivers them (events are published under
the room's lock, so that is the order they happened in).  A subscriber
skips events up to the ``seq`` the room had when it subscribed, which its
``state`` message already shows.  A lock is released only once this
process's subscriptions to the room are confirmed by Redis, so no event
published after that can miss a new subscriber.

``get`` rebuilds the ``Room`` from its state; each process keeps a copy of
the engine of the rooms it has seen (``ENGINES_KEPT``), so a move costs the
moves made since, not a replay of the whole record.

Stored data is not trusted: a key that is not a hash, JSON that is not a
room, or a record the engine refuses is logged and treated as a missing room
(``no_access``), never a crash.

The ``redis`` package is imported when a store is made, never at import
time: the site's build imports this whole package in Pyodide.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import secrets
import time
from collections import OrderedDict, deque
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator, Callable
from urllib.parse import urlsplit, urlunsplit

from ..core.game import Game
from .redis_scripts import ADD, COMMIT, DUE, LIST, LOCK, PUBLISH, REFRESH, SAVE
from .rooms import SEATS, Room, RoomState
from .store import Deliver, RoomStore

log = logging.getLogger("tessera.relay.redis")

DEFAULT_PREFIX = "tessera:relay:"
LOCK_SECONDS = 5.0
"""A room lock expires by itself after this long (a killed holder frees it)."""
LOCK_WAIT_SECONDS = 15.0
"""Waiting longer than this for a room's lock is an error (the action fails, the room is untouched)."""
CONFIRM_SECONDS = 5.0
ENGINES_KEPT = 2048
"""Rooms whose replayed engine this process keeps (a room's moves are replayed once, not on every get)."""
CONNECT_SECONDS = 5.0


class StoreUnavailable(Exception):
    """Redis cannot be used: ``kind`` is ``"url"`` (a bad URL) or ``"connect"``."""

    def __init__(self, kind: str, url: str, detail: object) -> None:
        super().__init__(f"{safe_url(url)}: {detail}")
        self.kind, self.url, self.detail = kind, safe_url(url), str(detail)


class StoreBusy(Exception):
    """A room's lock could not be had in time."""


def safe_url(url: str) -> str:
    """The URL without its password (for messages and logs)."""
    try:
        parts = urlsplit(url)
        if parts.password is None:
            return url
        host = parts.hostname or ""
        if ":" in host:
            host = f"[{host}]"
        user = f"{parts.username}:***@" if parts.username else "***@"
        port = f":{parts.port}" if parts.port is not None else ""
        return urlunsplit((parts.scheme, user + host + port, parts.path, parts.query, parts.fragment))
    except ValueError:
        return "(unreadable URL)"



# ----- stored data is checked before it is believed ------------------------------------------
STATE_FIELDS = tuple(RoomState.__dataclass_fields__)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return (_is_int(value) or isinstance(value, float)) and math.isfinite(value)


def _seat_or_none(value: Any) -> bool:
    return value is None or (_is_int(value) and 0 <= value < SEATS)


def _pairs(value: Any, check: Callable[[Any], bool]) -> bool:
    return isinstance(value, list) and len(value) == SEATS and all(check(v) for v in value)


def check_state(data: Any, room_id: str) -> str | None:
    """What is wrong with stored room data (None: it can be loaded)."""
    if not isinstance(data, dict):
        return "not a JSON object"
    fields = set(STATE_FIELDS)
    if set(data) != fields:
        return f"fields differ: {sorted(set(data) ^ fields)}"
    checks: dict[str, Callable[[Any], bool]] = {
        "room_id": lambda v: v == room_id,
        "game_id": lambda v: isinstance(v, str),
        "options": lambda v: isinstance(v, dict),
        "seed": _is_int,
        "time_control": lambda v: v is None or isinstance(v, dict),
        "seat_keys": lambda v: _pairs(v, lambda k: isinstance(k, str)),
        "spectator_key": lambda v: isinstance(v, str),
        "moves": lambda v: isinstance(v, list) and all(isinstance(m, str) for m in v),
        "movers": lambda v: isinstance(v, list) and all(_is_int(m) and 0 <= m < SEATS for m in v),
        "version": lambda v: _is_int(v) and v >= 0,
        "plies": lambda v: isinstance(v, list) and bool(v) and all(_is_int(p) and p >= 0 for p in v),
        "result": lambda v: v is None or isinstance(v, dict),
        "draw_offer": _seat_or_none,
        "takeback": _seat_or_none,
        "names": lambda v: _pairs(v, lambda n: n is None or isinstance(n, str)),
        "seen": lambda v: _pairs(v, lambda b: isinstance(b, bool)),
        "connected": lambda v: _pairs(v, lambda b: isinstance(b, bool)),
        "clock": lambda v: v is None or isinstance(v, dict),
        "clock_at": _is_number,
        "created": _is_number,
        "active": _is_number,
    }
    for name, check in checks.items():
        if not check(data[name]):
            return f"bad field {name}"
    if len(data["movers"]) != len(data["moves"]) or len(data["plies"]) != data["version"] + 1:
        return "moves, movers and plies disagree"
    return None


class _Listener:
    """A local subscriber: its callback and the last event its state already showed."""

    __slots__ = ("deliver", "start")

    def __init__(self, deliver: Deliver, start: int) -> None:
        self.deliver, self.start = deliver, start


class _Held:
    """A room while this process holds its lock: what was read, and what to write on release."""

    __slots__ = ("text", "seq", "problem", "save", "deadline", "events")

    def __init__(self, text: str | None, seq: int, problem: str | None) -> None:
        self.text, self.seq, self.problem = text, seq, problem
        self.save: str | None = None
        self.deadline = ""
        self.events: list[str] = []


class _LocalLock:
    __slots__ = ("lock", "users")

    def __init__(self) -> None:
        self.lock, self.users = asyncio.Lock(), 0


class RedisStore(RoomStore):
    """Rooms in Redis at ``url`` (see the module docstring); ``start`` connects.

    ``ttl``: seconds a room is kept after its last save or renewal (the
    relay's ``idle_seconds``); ``connections``: the most Redis connections
    this process opens (the pub/sub one among them); ``now``: the relay's
    clock, for the rooms' clocks.
    """

    def __init__(self, url: str, ttl: float = 6 * 3600, prefix: str = DEFAULT_PREFIX,
                 now: Callable[[], float] = time.time, refresh_seconds: float | None = None,
                 connections: int = 64) -> None:
        import redis.asyncio as aioredis  # only a relay run with --redis needs it

        if ttl <= 0:
            raise ValueError("ttl must be positive")
        self.url, self.now, self.prefix = url, now, prefix
        self.ttl_ms = max(1, int(ttl * 1000))
        self.refresh_seconds = refresh_seconds if refresh_seconds is not None else min(ttl / 4, 60.0)
        try:
            # A blocking pool: past ``connections`` busy ones, a command waits for one to be free.
            pool = aioredis.BlockingConnectionPool.from_url(
                url, max_connections=connections, timeout=LOCK_WAIT_SECONDS, decode_responses=True,
                socket_connect_timeout=CONNECT_SECONDS, health_check_interval=0)
            self.redis = aioredis.Redis.from_pool(pool)
        except ValueError as error:
            raise StoreUnavailable("url", url, error) from None
        self.pubsub: Any = None
        self.process = secrets.token_hex(8)
        self._scripts = {name: self.redis.register_script(text) for name, text in
                         (("add", ADD), ("save", SAVE), ("refresh", REFRESH), ("list", LIST), ("due", DUE),
                          ("publish", PUBLISH), ("lock", LOCK), ("commit", COMMIT))}
        self._listeners: dict[str, list[_Listener]] = {}
        self._confirming: dict[str, deque[asyncio.Future]] = {}
        self._ops: asyncio.Queue | None = None
        self._tasks: list[asyncio.Task] = []
        self._local_locks: dict[str, _LocalLock] = {}
        self._held: dict[str, _Held] = {}
        """The rooms whose lock this process holds."""
        self._engines: OrderedDict[str, tuple[tuple[str, str, int], list[str], Game]] = OrderedDict()
        """By room: the game, options and seed, the moves, and a copy of the engine after them."""

    # ----- names --------------------------------------------------------------------------
    def _room_key(self, room_id: str) -> str:
        return f"{self.prefix}room:{room_id}"

    def _channel(self, room_id: str) -> str:
        return f"{self.prefix}events:{room_id}"

    @property
    def _index(self) -> str:
        return f"{self.prefix}rooms"

    @property
    def _clocks(self) -> str:
        return f"{self.prefix}clocks"

    # ----- connecting ---------------------------------------------------------------------
    async def start(self) -> None:
        """Check Redis answers, then start the pub/sub reader and the renewal of this process's rooms."""
        from redis.exceptions import RedisError

        try:
            await self.redis.ping()
            self.pubsub = self.redis.pubsub()
            # a channel of this process alone keeps the pub/sub connection subscribed from the start
            await self.pubsub.subscribe(f"{self.prefix}process:{self.process}")
        except (RedisError, OSError) as error:
            await self.close()
            raise StoreUnavailable("connect", self.url, error) from None
        self._ops = asyncio.Queue()
        self._tasks = [asyncio.create_task(self._read_loop()), asyncio.create_task(self._control_loop()),
                       asyncio.create_task(self._refresh_loop())]

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
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    # ----- rooms --------------------------------------------------------------------------
    def _state_json(self, room: Room) -> str:
        room.save_clock()
        # the fields as they are (``to_json``'s ``asdict`` deep-copies them first, which costs more than this)
        state = room.state
        return json.dumps({name: getattr(state, name) for name in STATE_FIELDS}, separators=(",", ":"),
                          allow_nan=False)

    async def add(self, room: Room, limit: int) -> bool:
        room_id = room.state.room_id
        added = await self._scripts["add"](keys=[self._index, self._room_key(room_id)],
                                           args=[limit, room_id, self._state_json(room), self.ttl_ms])
        return bool(added)

    async def get(self, room_id: str) -> Room | None:
        from redis.exceptions import ResponseError

        held = self._held.get(room_id)
        if held is not None:  # read when the lock was taken
            text, problem = held.text, held.problem
        else:
            try:
                text, _ = await self.redis.hmget(self._room_key(room_id), "state", "seq")
                problem = None
            except ResponseError as error:  # e.g. WRONGTYPE: not a hash
                text, problem = None, str(error)
        if problem is not None:
            log.warning("room %r: stored data unreadable (%s); treated as missing", room_id, problem)
            return None
        if text is None:
            return None
        try:
            data = json.loads(text)
            problem = check_state(data, room_id)
            if problem is not None:
                raise ValueError(problem)
            state = RoomState.from_json(data)
            room = Room(state, self.now, self._engine(state))
        except Exception as error:  # anything wrong in stored data is a missing room, never a crash
            log.warning("room %r: stored state unusable (%s: %s); treated as missing",
                        room_id, type(error).__name__, error)
            return None
        self._keep_engine(room)
        return room

    # A room's engine is the same whichever process replays its moves, so each process keeps a
    # copy of the last one it saw and, next time, plays only the moves made since (on another
    # process, most often one).  A record that does not start with the kept moves is replayed.
    def _engine(self, state: RoomState) -> Game | None:
        kept = self._engines.get(state.room_id)
        if kept is None:
            return None
        start, moves, engine = kept
        if start != (state.game_id, json.dumps(state.options, sort_keys=True), state.seed) \
                or state.moves[:len(moves)] != moves:
            return None
        self._engines.move_to_end(state.room_id)
        game = engine.copy()
        for text in state.moves[len(moves):]:
            game.push(game.parse_move(text))
        return game

    def _keep_engine(self, room: Room) -> None:
        state = room.state
        self._engines[state.room_id] = ((state.game_id, json.dumps(state.options, sort_keys=True), state.seed),
                                        list(state.moves), room.game.copy())
        self._engines.move_to_end(state.room_id)
        while len(self._engines) > ENGINES_KEPT:
            self._engines.popitem(last=False)

    async def save(self, room: Room) -> None:
        room_id = room.state.room_id
        text = self._state_json(room)
        left = room.expires_in()
        deadline = "" if left is None else repr(room.now() + left)
        held = self._held.get(room_id)
        if held is not None:  # written when the lock is released
            held.text = held.save = text
            held.deadline = deadline
        else:
            await self._scripts["save"](keys=[self._index, self._room_key(room_id), self._clocks],
                                        args=[room_id, text, self.ttl_ms, deadline])
        self._keep_engine(room)

    async def remove(self, room_id: str) -> None:
        self._engines.pop(room_id, None)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.delete(self._room_key(room_id))
            pipe.zrem(self._index, room_id)
            pipe.zrem(self._clocks, room_id)
            await pipe.execute()

    async def room_ids(self) -> list[str]:
        return list(await self._scripts["list"](keys=[self._index], args=["ids"]))

    async def count(self) -> int:
        return int(await self._scripts["list"](keys=[self._index], args=["count"]))

    async def sweep_ids(self, now: float) -> list[str]:
        """Only rooms whose clock may have run out: idle rooms expire by themselves (the key's TTL)."""
        return list(await self._scripts["due"](keys=[self._clocks], args=[repr(now), self._room_key("")]))

    # ----- the lock -----------------------------------------------------------------------
    @asynccontextmanager
    async def lock(self, room_id: str) -> AsyncIterator[None]:
        """Hold the room's lock; what is saved and published meanwhile is written on release."""
        # Waiters in this process queue on a local lock, so only one of them polls Redis.
        local = self._local_locks.setdefault(room_id, _LocalLock())
        local.users += 1
        try:
            async with local.lock:
                key, token = f"{self.prefix}lock:{room_id}", secrets.token_hex(16)
                held = await self._acquire(room_id, key, token)
                self._held[room_id] = held
                try:
                    yield
                finally:
                    del self._held[room_id]
                    await self._release(room_id, key, token, held)
        finally:
            local.users -= 1
            if local.users == 0:
                del self._local_locks[room_id]

    async def _acquire(self, room_id: str, key: str, token: str) -> _Held:
        loop = asyncio.get_running_loop()
        give_up = loop.time() + LOCK_WAIT_SECONDS
        pause = 0.002
        while True:
            got = await self._scripts["lock"](keys=[key, self._room_key(room_id)],
                                              args=[token, int(LOCK_SECONDS * 1000)])
            if got[0] == 1:
                break
            if loop.time() > give_up:
                raise StoreBusy(f"room {room_id!r} stayed locked for {LOCK_WAIT_SECONDS:g} s")
            await asyncio.sleep(pause)
            pause = min(pause * 2, 0.05)
        if len(got) > 3:
            return _Held(None, 0, f"the key holds a {got[3]}, not a hash")
        text = got[1] if len(got) > 1 else None
        try:
            seq = int(got[2] or 0) if len(got) > 2 else 0
        except ValueError:
            return _Held(None, 0, f"its event count is {got[2]!r}")
        return _Held(text, seq, None)

    async def _release(self, room_id: str, key: str, token: str, held: _Held) -> None:
        """Write what was saved and published under the lock, and release it (one script)."""
        try:
            await self._confirmed(room_id)  # no later event may miss a new subscriber
        finally:
            changed = held.save is not None or bool(held.events)
            try:
                done = await self._scripts["commit"](
                    keys=[key, self._index, self._room_key(room_id), self._clocks],
                    args=[token, room_id, self._channel(room_id), self.ttl_ms, held.save or "", held.deadline,
                          *held.events])
            except Exception as error:
                if changed:
                    raise
                log.warning("room %r: releasing the lock failed (%s); it expires by itself", room_id, error)
                return
            if done != 1 and changed:
                raise StoreBusy(f"room {room_id!r}: the lock expired before the change was written, "
                                "so nothing was")

    # ----- events -------------------------------------------------------------------------
    async def publish(self, room_id: str, event: dict[str, Any]) -> None:
        text = json.dumps(event, separators=(",", ":"))
        held = self._held.get(room_id)
        if held is not None:  # published when the lock is released, after the state is written
            held.events.append(text)
        else:
            await self._scripts["publish"](keys=[self._room_key(room_id)], args=[self._channel(room_id), text])

    def subscribe(self, room_id: str, deliver: Deliver) -> Callable[[], None]:
        # A subscriber added under the lock has the room as it is after the events published so far.
        held = self._held.get(room_id)
        listener = _Listener(deliver, held.seq + len(held.events) if held is not None else -1)
        listeners = self._listeners.get(room_id)
        if listeners is None:
            listeners = self._listeners[room_id] = []
            self._order("subscribe", room_id)
        listeners.append(listener)

        def unsubscribe() -> None:
            current = self._listeners.get(room_id)
            if current is not None and listener in current:
                current.remove(listener)
                if not current:
                    del self._listeners[room_id]
                    self._order("unsubscribe", room_id)
        return unsubscribe

    def _order(self, kind: str, room_id: str) -> None:
        """Queue a (un)subscription; they reach Redis in the order asked."""
        if self._ops is None:
            raise RuntimeError("RedisStore.start() was not called")
        future: asyncio.Future | None = None
        if kind == "subscribe":
            future = asyncio.get_running_loop().create_future()
            self._confirming.setdefault(self._channel(room_id), deque()).append(future)
        self._ops.put_nowait((kind, self._channel(room_id), future))

    async def _confirmed(self, room_id: str) -> None:
        """Wait until Redis has confirmed this process's pending subscriptions to the room."""
        pending = [f for f in self._confirming.get(self._channel(room_id), ()) if not f.done()]
        if pending:
            done, late = await asyncio.wait(pending, timeout=CONFIRM_SECONDS)
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
                log.warning("pub/sub %s %s failed (%s)", kind, channel, error)
                if future is not None:
                    self._settle(channel, future)

    async def _read_loop(self) -> None:
        prefix = self._channel("")
        while True:
            try:
                message = await self.pubsub.get_message(timeout=None)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # Redis went away: redis-py reconnects and subscribes again
                log.warning("pub/sub read failed (%s); retrying", error)
                await asyncio.sleep(0.5)
                continue
            if not message:
                continue
            channel = message.get("channel")
            if not isinstance(channel, str) or not channel.startswith(prefix):
                continue
            if message["type"] == "subscribe":
                self._settle(channel)
            elif message["type"] == "message":
                self._dispatch(channel[len(prefix):], message["data"])

    def _dispatch(self, room_id: str, data: str) -> None:
        try:
            seq_text, _, body = data.partition(" ")
            seq, envelope = int(seq_text), json.loads(body)
        except ValueError:
            log.warning("room %r: an unreadable event on its channel was dropped", room_id)
            return
        for listener in list(self._listeners.get(room_id, ())):
            if seq < 0 or seq > listener.start:
                try:
                    listener.deliver(envelope)
                except Exception:
                    log.exception("room %r: delivering an event failed", room_id)

    async def _refresh_loop(self) -> None:
        """Renew the keys of rooms this process has sockets in, so they outlive their TTL."""
        while True:
            await asyncio.sleep(self.refresh_seconds)
            room_ids = list(self._listeners)
            if not room_ids:
                continue
            try:
                await self._scripts["refresh"](keys=[self._index] + [self._room_key(r) for r in room_ids],
                                               args=[self.ttl_ms] + room_ids)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.warning("renewing %d room(s) failed (%s)", len(room_ids), error)
