"""Rooms in Redis, shared by several relay processes (``relay --redis URL``).

Any relay process on the same Redis can serve either player of any room:
the room's state is in a key, a change is one script that writes it only
if nobody changed the room meanwhile, and events go out through Redis
pub/sub to every process with a socket in the room (``redis_events.py``).
A relay process that stops or is killed loses nothing: its players
reconnect to another one (or to it, restarted) with their secret and the
version they had.

Keys, all under ``prefix`` (``tessera:relay:`` by default):

* ``room:<id>`` - a hash: ``state`` (the ``RoomState`` JSON), ``rev`` (how
  many changes it has had), ``epoch`` (drawn when the room is made or
  restored) and ``ttl``.  The key expires ``ttl`` after the last change:
  the relay's ``idle_seconds``, or ``pending_ttl`` while the second player
  has not come; each process renews the rooms it has a socket in every
  ``refresh_seconds``.  So a room nobody is connected to goes by itself, even
  when the process its players were on was killed.
* ``rooms`` - a sorted set of the room ids by when their key expires (in
  Redis's own clock): the count the cap is checked against, atomically with
  adding one (a Lua script).
* ``owner:<address key>`` - the rooms an address made or restored (its
  share of the cap, checked in the same script).
* ``clocks`` - a sorted set of the rooms whose clock runs, by when the seat
  to move runs out: the rooms a sweep must look at.
* channel ``events:<id>`` - one message a change (``redis_events.py``).

A change costs one round trip: each process keeps a copy of the rooms it
serves (the room with its live engine) and follows every change published
on their channels, so its copy is the room as it is.  ``change`` runs the
action on that copy and sends one script (``COMMIT``): it writes the state
and publishes the events if the room is still at the epoch and ``rev`` the
copy was at, and otherwise hands back the room as it is now, on which the
action runs again.  No lock is taken and nothing polls.  An action that
changed nothing still sends the script, as a check, so nothing is refused
on a copy that is behind.

Stored data is not trusted: a key that is not a hash, JSON that is not a
room, or a record the engine refuses is logged and treated as unreadable
(``no_access``), never a crash.  Redis out of reach or too slow
(``op_timeout``) is ``StoreDown`` (the client is told to try again), and
the outage is logged once, then its end (``OutageLog``).

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
from collections import OrderedDict
from typing import Any, Callable
from urllib.parse import urlsplit, urlunsplit

from .redis_events import EventHub, pack
from .redis_pipe import CommandPipe
from .redis_scripts import ADD, COMMIT, DUE, LIST, REFRESH
from .rooms import SEATS, Room, RoomState
from .store import (ADDED, EXISTS, FULL, OWNER_FULL, Action, Change, Deliver, Envelope, LocalLocks, OutageLog,
                    RoomGone, RoomStore, RoomUnreadable, StoreDown)

log = logging.getLogger("tessera.relay.redis")

DEFAULT_PREFIX = "tessera:relay:"
OP_SECONDS = 2.0
"""A command Redis has not answered in this long fails (the client is told to try again)."""
CONNECT_SECONDS = 5.0
ROOMS_KEPT = 4096
"""Rooms whose copy (with its live engine) this process keeps."""
COMMIT_ATTEMPTS = 8
"""Times a change is tried on a newer copy before the client is told to try again."""
_RESULTS = {1: ADDED, 0: FULL, 2: EXISTS, 3: OWNER_FULL}
UNAVAILABLE_REPLIES = frozenset({"OOM", "MISCONF", "BUSY", "LOADING", "READONLY", "MASTERDOWN", "NOREPLICAS"})
"""Error replies of a Redis that cannot take writes now (memory full, a failing disk, loading): try again."""


class StoreUnavailable(Exception):
    """Redis cannot be used: ``kind`` is ``"url"`` (a bad URL) or ``"connect"``."""

    def __init__(self, kind: str, url: str, detail: object) -> None:
        super().__init__(f"{safe_url(url)}: {detail}")
        self.kind, self.url, self.detail = kind, safe_url(url), str(detail)


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
RECORD_FIELDS = ("moves", "movers", "plies")
"""The fields that grow with the game: a change sends only their new tail."""
SMALL_FIELDS = tuple(name for name in STATE_FIELDS if name not in RECORD_FIELDS)
SMALL_SET = frozenset(SMALL_FIELDS)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return (_is_int(value) or isinstance(value, float)) and math.isfinite(value)


def _seat_or_none(value: Any) -> bool:
    return value is None or (_is_int(value) and 0 <= value < SEATS)


def _pairs(value: Any, check: Callable[[Any], bool]) -> bool:
    return isinstance(value, list) and len(value) == SEATS and all(check(v) for v in value)


def _moves(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(m, str) for m in value)


def _movers(value: Any) -> bool:
    return isinstance(value, list) and all(_is_int(m) and 0 <= m < SEATS for m in value)


def _plies(value: Any) -> bool:
    return isinstance(value, list) and all(_is_int(p) and p >= 0 for p in value)


CHECKS: dict[str, Callable[[Any], bool]] = {
    "game_id": lambda v: isinstance(v, str),
    "options": lambda v: isinstance(v, dict),
    "seed": _is_int,
    "time_control": lambda v: v is None or isinstance(v, dict),
    "seat_keys": lambda v: _pairs(v, lambda k: isinstance(k, str)),
    "spectator_key": lambda v: isinstance(v, str),
    "moves": _moves,
    "movers": _movers,
    "version": lambda v: _is_int(v) and v >= 0,
    "plies": lambda v: _plies(v) and bool(v),
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
    "draw_offered_at": lambda v: _pairs(v, lambda t: t is None or _is_number(t)),
}
OPTIONAL_FIELDS = {"draw_offered_at": lambda: [None] * SEATS}
"""Fields a room stored by an older relay lacks: they take these values."""


def check_state(data: Any, room_id: str) -> str | None:
    """What is wrong with stored room data (None: it can be loaded)."""
    if not isinstance(data, dict):
        return "not a JSON object"
    fields = set(STATE_FIELDS)
    for name, default in OPTIONAL_FIELDS.items():
        data.setdefault(name, default())
    if set(data) != fields:
        return f"fields differ: {sorted(set(data) ^ fields)}"
    if data["room_id"] != room_id:
        return "bad field room_id"
    for name, check in CHECKS.items():
        if not check(data[name]):
            return f"bad field {name}"
    if len(data["movers"]) != len(data["moves"]) or len(data["plies"]) != data["version"] + 1:
        return "moves, movers and plies disagree"
    return None


class _Copy:
    """This process's copy of a room: the room, and the epoch and rev it is at (``busy`` while an
    action runs on it, when what pub/sub says of the room is left to the change's own check)."""

    __slots__ = ("room", "epoch", "rev", "busy")

    def __init__(self, room: Room, epoch: str, rev: int) -> None:
        self.room, self.epoch, self.rev, self.busy = room, epoch, rev, False


class RedisStore(RoomStore):
    """Rooms in Redis at ``url`` (see the module docstring); ``start`` connects.

    ``ttl``: seconds a room is kept after its last change or renewal (the
    relay's ``idle_seconds``), ``pending_ttl`` while its second player has not
    come; ``connections``: the most Redis connections this process opens
    besides the pub/sub one; ``now``: the relay's clock, for the rooms' clocks;
    ``op_timeout``: seconds a command may take before it fails.
    """

    def __init__(self, url: str, ttl: float = 6 * 3600, prefix: str = DEFAULT_PREFIX,
                 now: Callable[[], float] = time.time, refresh_seconds: float | None = None,
                 connections: int = 64, pending_ttl: float = 600.0, op_timeout: float = OP_SECONDS) -> None:
        import redis.asyncio as aioredis  # only a relay run with --redis needs it
        from redis.asyncio.retry import Retry
        from redis.backoff import NoBackoff

        if ttl <= 0 or pending_ttl <= 0:
            raise ValueError("ttl must be positive")
        self.url, self.now, self.prefix = url, now, prefix
        self.ttl_ms = max(1, int(ttl * 1000))
        self.pending_ms = max(1, int(min(pending_ttl, ttl) * 1000))
        self.refresh_seconds = refresh_seconds if refresh_seconds is not None else min(self.pending_ms / 4000, 60.0)
        self.outage = OutageLog(log, f"Redis at {safe_url(url)}")
        try:
            # A blocking pool: past ``connections`` busy ones, a command waits for one (up to op_timeout).
            # No retries: a command that timed out may have run, and a script is never sent twice.
            pool = aioredis.BlockingConnectionPool.from_url(
                url, max_connections=connections, timeout=op_timeout, decode_responses=True,
                socket_connect_timeout=min(CONNECT_SECONDS, op_timeout * 2), socket_timeout=op_timeout,
                health_check_interval=0, retry=Retry(NoBackoff(), 0), protocol=2)  # RESP2: cheaper pub/sub
            self.redis = aioredis.Redis.from_pool(pool)
        except ValueError as error:
            raise StoreUnavailable("url", url, error) from None
        self.pipe = CommandPipe(pool, op_timeout)
        self.process = secrets.token_hex(8)
        self.hub = EventHub(self.redis, prefix, self.process, self.outage, self.follow)
        self._scripts = {name: self.redis.register_script(text) for name, text in
                         (("add", ADD), ("commit", COMMIT), ("refresh", REFRESH), ("list", LIST), ("due", DUE))}
        self._locks = LocalLocks()
        self._copies: OrderedDict[str, _Copy] = OrderedDict()
        self._tasks: list[asyncio.Task] = []

    # ----- names --------------------------------------------------------------------------
    def _room_key(self, room_id: str) -> str:
        return f"{self.prefix}room:{room_id}"

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
            await self.hub.start()
        except (RedisError, OSError) as error:
            await self.close()
            raise StoreUnavailable("connect", self.url, error) from None
        self._tasks = [asyncio.create_task(self._refresh_loop())]

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(BaseException):
                await task
        self._tasks = []
        await self.pipe.close()
        await self.hub.close()
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    async def healthy(self) -> bool:
        try:
            await self._call(self.pipe.execute("PING"))
            return True
        except StoreDown:
            return False

    async def _call(self, pending: Any) -> Any:
        """Await a Redis command: out of reach or too slow is ``StoreDown``, and the outage is logged once."""
        from redis.exceptions import ConnectionError as RedisConnectionError
        from redis.exceptions import ResponseError
        from redis.exceptions import TimeoutError as RedisTimeoutError

        try:
            result = await pending
        except (RedisConnectionError, RedisTimeoutError, OSError, asyncio.TimeoutError) as error:
            self.outage.failed("a command failed", error)
            raise StoreDown(str(error)) from None
        except ResponseError as error:
            if str(error).split(" ", 1)[0] not in UNAVAILABLE_REPLIES:
                raise
            self.outage.failed("Redis refused a write", error)
            raise StoreDown(str(error)) from None
        self.outage.ok()
        return result

    async def _eval(self, name: str, keys: list[str], args: list[Any]) -> Any:
        """Run a script through the pipe (loaded again if Redis forgot it: a restart)."""
        from redis.exceptions import NoScriptError

        script = self._scripts[name]
        try:
            return await self._call(self.pipe.execute("EVALSHA", script.sha, len(keys), *keys, *args))
        except NoScriptError:
            await self._call(self.pipe.execute("SCRIPT", "LOAD", script.script))
            return await self._call(self.pipe.execute("EVALSHA", script.sha, len(keys), *keys, *args))

    # ----- rooms --------------------------------------------------------------------------
    def _ttl_ms(self, room: Room) -> int:
        return self.ttl_ms if room.joined() else self.pending_ms

    @staticmethod
    def _small_json(room: Room) -> str:
        """The state but the record, as JSON (the fields as they are: ``to_json``'s ``asdict`` would
        deep-copy them first, which costs more than this)."""
        room.save_clock()
        state = room.state
        return _dumps({name: getattr(state, name) for name in SMALL_FIELDS})

    async def add(self, room: Room, limit: int, owner: str | None = None, owner_limit: int = 0) -> str:
        room_id = room.state.room_id
        owner_key = f"{self.prefix}owner:{owner}" if owner is not None else f"{self.prefix}owner:-"
        state = room.state
        added = await self._eval("add", [self._index, self._room_key(room_id), owner_key],
                                 [limit, room_id, self._small_json(room), self._ttl_ms(room), secrets.token_hex(8),
                                  owner_limit if owner is not None else "", self._room_key(""), self.ttl_ms,
                                  _dumps(state.moves), _dumps(state.movers), _dumps(state.plies)])
        return _RESULTS.get(int(added), FULL)

    async def get(self, room_id: str) -> Room | None:
        """The room as stored now (a copy of its own, not this process's), or None."""
        try:
            return (await self._load(room_id, keep=False)).room
        except (RoomGone, RoomUnreadable):
            return None

    async def _load(self, room_id: str, keep: bool = True) -> _Copy:
        from redis.exceptions import ResponseError

        try:
            got = await self._call(self.pipe.execute("HMGET", self._room_key(room_id), "state", "rev", "epoch",
                                                     *RECORD_FIELDS))
        except ResponseError as error:  # e.g. WRONGTYPE: not a hash
            log.warning("room %r: stored data unreadable (%s)", room_id, error)
            raise RoomUnreadable(room_id) from None
        if got[0] is None:
            raise RoomGone(room_id)
        copy = self._build(room_id, got)
        if keep:
            self._keep(room_id, copy)
        return copy

    def _build(self, room_id: str, got: list[Any]) -> _Copy:
        """A copy of the room from what Redis holds (state, rev, epoch and the record's lists);
        RoomUnreadable (logged) if it is not a room."""
        try:
            text, rev, epoch, *record = got
            data = json.loads(text)
            if isinstance(data, dict):
                for name, value in zip(RECORD_FIELDS, record):
                    data[name] = json.loads(value) if isinstance(value, str) else None
            problem = check_state(data, room_id)
            if problem is not None:
                raise ValueError(problem)
            if not isinstance(epoch, str):
                raise ValueError("no epoch")
            return _Copy(Room(RoomState.from_json(data), self.now), epoch, int(rev))
        except Exception as error:  # anything wrong in stored data is an unreadable room, never a crash
            log.warning("room %r: stored state unusable (%s: %s)", room_id, type(error).__name__, error)
            raise RoomUnreadable(room_id) from None

    def _keep(self, room_id: str, copy: _Copy) -> None:
        self._copies[room_id] = copy
        self._copies.move_to_end(room_id)
        if len(self._copies) > ROOMS_KEPT:
            for old in list(self._copies)[:len(self._copies) - ROOMS_KEPT]:
                if not self._copies[old].busy and old not in self.hub.listeners:
                    del self._copies[old]

    def _drop(self, room_id: str) -> None:
        self._copies.pop(room_id, None)

    # ----- a change -------------------------------------------------------------------------
    async def change(self, room_id: str, action: Action,
                     listener: Deliver | None = None) -> tuple[Change, Callable[[], None] | None]:
        async with self._locks.hold(room_id):
            joined, remove = None, None
            if listener is not None:
                joined, remove = self.hub.listen(room_id, listener)
                await self.hub.confirmed(room_id)  # nothing published from now on can miss it
            try:
                done, copy = await self._run(room_id, action)
            except BaseException:
                if remove is not None:
                    remove()
                raise
            if joined is not None:
                if done.remove:
                    remove()
                    remove = None
                else:
                    joined.activate(copy.epoch, copy.rev, Envelope.of(done.reply) if done.reply else None)
            return done, remove

    async def _run(self, room_id: str, action: Action) -> tuple[Change, _Copy]:
        copy = self._copies.get(room_id) or await self._load(room_id)
        for _ in range(COMMIT_ATTEMPTS):
            state = copy.room.state
            moves_before, plies_before = len(state.moves), len(state.plies)
            copy.busy = True
            try:
                done = action(copy.room)  # a refusal raises before it changes anything
            except BaseException:
                copy.busy = False
                raise
            try:
                got = await self._commit(room_id, copy, done, moves_before, plies_before)
            except BaseException:
                self._drop(room_id)  # changed, and unknown whether Redis took it
                raise
            copy.busy = False
            if got[0] == 1:
                if done.remove:
                    self._drop(room_id)
                return done, copy
            self._drop(room_id)
            if got[0] == -1:
                raise RoomGone(room_id)
            copy = self._build(room_id, got[1:])  # the room moved on: act on it as it is
            self._keep(room_id, copy)
        raise StoreDown(f"room {room_id!r} kept changing under {COMMIT_ATTEMPTS} attempts")

    async def _commit(self, room_id: str, copy: _Copy, done: Change, moves_before: int, plies_before: int) -> list:
        from redis.exceptions import ResponseError

        room = copy.room
        text = message = deadline = ""
        mode, parts = "a", ["", "", ""]
        if done.events and not done.remove:
            text = self._small_json(room)
            left = room.expires_in()
            deadline = "" if left is None else repr(room.now() + left)
            state = room.state
            keep = min(moves_before, len(state.moves))  # a change appends to the record or cuts it, never both
            moves, movers, plies = _dumps(state.moves[keep:]), _dumps(state.movers[keep:]), \
                _dumps(state.plies[plies_before:])
            if keep == moves_before:  # the record grew (or stayed): Redis appends the new items
                parts = [moves[1:-1], movers[1:-1], plies[1:-1]]
            else:
                mode, parts = "w", [_dumps(state.moves), _dumps(state.movers), _dumps(state.plies)]
            tail = f'{{"s":{text},"k":{keep},"m":{moves},"w":{movers},"p":{plies}}}'
            message = pack(copy.epoch, copy.rev + 1, tail, done.events)
        try:
            got = await self._eval("commit", [self._room_key(room_id), self._index, self._clocks],
                                   [copy.epoch, copy.rev, text, self._ttl_ms(room), deadline, room_id,
                                    self.hub.channel(room_id), message, "1" if done.remove else "", mode, *parts])
        except ResponseError as error:  # e.g. WRONGTYPE: the key is not a room
            log.warning("room %r: stored data unreadable (%s)", room_id, error)
            raise RoomUnreadable(room_id) from None
        if got[0] == 1 and text:
            copy.rev += 1
        return got

    def follow(self, room_id: str, epoch: str, rev: int, change: str) -> None:
        """A commit read from the room's channel (``change``: its JSON text, read only when needed):
        bring this process's copy to it (or drop the copy)."""
        copy = self._copies.get(room_id)
        if copy is None or copy.busy or (copy.epoch == epoch and rev <= copy.rev):
            return  # none kept, a change of ours is on its way, or ours already
        if copy.epoch != epoch or rev != copy.rev + 1:
            self._drop(room_id)  # missed one: read it again when next needed
            return
        try:
            _apply(copy.room, json.loads(change))
        except Exception as error:  # a change we cannot follow: read the room again when next needed
            log.warning("room %r: could not follow change %d (%s: %s)", room_id, rev, type(error).__name__, error)
            self._drop(room_id)
            return
        copy.rev = rev

    # ----- the rest of the contract -----------------------------------------------------------
    async def remove(self, room_id: str) -> None:
        self._drop(room_id)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.delete(self._room_key(room_id))
            pipe.zrem(self._index, room_id)
            pipe.zrem(self._clocks, room_id)
            await self._call(pipe.execute())

    async def room_ids(self) -> list[str]:
        return list(await self._eval("list", [self._index], ["ids"]))

    async def count(self) -> int:
        return int(await self._eval("list", [self._index], ["count"]))

    async def sweep_ids(self, now: float) -> list[str]:
        """Only rooms whose clock may have run out: idle rooms expire by themselves (the key's TTL)."""
        return list(await self._eval("due", [self._clocks], [repr(now), self._room_key("")]))

    async def _refresh_loop(self) -> None:
        """Renew the keys of rooms this process has sockets in, so they outlive their TTL."""
        while True:
            await asyncio.sleep(self.refresh_seconds)
            room_ids = list(self.hub.listeners)
            if not room_ids:
                continue
            with contextlib.suppress(StoreDown):  # logged once by the outage log
                await self._eval("refresh", [self._index] + [self._room_key(r) for r in room_ids], room_ids)


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), allow_nan=False, ensure_ascii=False)


def _apply(room: Room, change: dict[str, Any]) -> None:
    """Another process's change (``RedisStore._commit``'s tail) made to this copy of the room."""
    state, game = room.state, room.game
    small, keep, moves, movers, plies = change["s"], change["k"], change["m"], change["w"], change["p"]
    # Written by a relay's own commit; checked for shape (a failure drops the copy, which is read and
    # checked in full when next needed), not field by field on every move.
    if not (isinstance(small, dict) and small.keys() == SMALL_SET and _is_int(keep)
            and 0 <= keep <= len(state.moves) and _moves(moves) and _movers(movers) and len(moves) == len(movers)
            and _plies(plies) and small["room_id"] == state.room_id and _is_int(small["version"])):
        raise ValueError("not a change")
    while len(state.moves) > keep:
        game.pop()
        state.moves.pop()
        state.movers.pop()
    for text in moves:
        game.push_unchecked(game.parse_move(text))
    state.moves.extend(moves)
    state.movers.extend(movers)
    state.plies.extend(plies)
    for name, value in small.items():
        setattr(state, name, value)
    if len(state.plies) != state.version + 1:
        raise ValueError("versions disagree")
    room.load_clock()
