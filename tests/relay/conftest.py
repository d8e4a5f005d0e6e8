"""A real relay on 127.0.0.1 port 0 and real ``websockets`` clients, for the relay tests.

CPython only (tests/unit also runs in Pyodide, which has no sockets).  Each
test is a plain function running one scenario with ``asyncio.run``: no
event-loop plugin is needed.

The Redis tests get a ``redis-server`` of their own (``redis_url``): started
once for the session with ``deploy/relay/redis.conf``, the configuration
docs/relay.md tells administrators to run (persistence on), on 127.0.0.1, a
free port and a temporary folder, and stopped after.  A test that pauses or
restarts Redis starts one of its own (``RedisProcess``).  Without
``redis-server`` or the ``redis`` package they skip, except under CI (``CI``
set), where they fail.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, AsyncIterator, Iterator

import pytest

pytest.importorskip("websockets")

from websockets.asyncio.client import connect  # noqa: E402

from tessera.relay.server import Relay, RelayConfig  # noqa: E402

TIMEOUT = 5.0


class FakeTime:
    """Seconds that move only when a test says so (clocks and idle expiry)."""

    def __init__(self, start: float = 1_000_000.0) -> None:
        self.value = start

    def __call__(self) -> float:
        return self.value

    def advance(self, seconds: float) -> None:
        self.value += seconds


class Client:
    """One player's socket: send typed messages, wait for a type of reply."""

    def __init__(self, socket: Any) -> None:
        self.socket = socket
        self.seen: list[dict[str, Any]] = []

    async def send(self, kind: str, **fields: Any) -> None:
        await self.socket.send(json.dumps({"type": kind, "protocol": 1, **fields}))

    async def send_raw(self, raw: str | bytes) -> None:
        await self.socket.send(raw)

    async def recv(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        data = json.loads(await asyncio.wait_for(self.socket.recv(), timeout))
        self.seen.append(data)
        return data

    async def expect(self, kind: str, timeout: float = TIMEOUT) -> dict[str, Any]:
        """The next message of type ``kind`` (others before it are kept in ``seen``)."""
        while True:
            data = await self.recv(timeout)
            if data["type"] == kind:
                return data

    async def error(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        return await self.expect("error", timeout)

    async def quiet(self, seconds: float = 0.2) -> list[dict[str, Any]]:
        """Whatever arrives within ``seconds`` (to check nothing did)."""
        got = []
        try:
            while True:
                got.append(await self.recv(seconds))
        except (asyncio.TimeoutError, TimeoutError):
            return got

    async def close(self) -> None:
        await self.socket.close()


@asynccontextmanager
async def running_relay(config: RelayConfig | None = None, **kwargs: Any) -> AsyncIterator[Relay]:
    config = config or RelayConfig()
    config.host, config.port = "127.0.0.1", 0
    relay = Relay(config, **kwargs)
    await relay.start()
    try:
        yield relay
    finally:
        await relay.stop()


def url(relay: Relay | str) -> str:
    """A relay's address (a relay run in another process is known by its address)."""
    return relay if isinstance(relay, str) else f"ws://127.0.0.1:{relay.port}"


async def client(relay: Relay | str, address: str | None = None, **kwargs: Any) -> Client:
    """A client socket; ``address``: the client address a proxy in front of the relay would forward
    (every test client comes from 127.0.0.1, which the relay trusts as a proxy by default)."""
    if address is not None:
        kwargs["additional_headers"] = {"X-Forwarded-For": address}
    return Client(await connect(url(relay), open_timeout=TIMEOUT, **kwargs))


async def new_game(relay: Relay | str, game: str = "quadrature", bob_at: Relay | str | None = None, **create: Any
                   ) -> tuple[Client, Client, dict[str, Any]]:
    """Ann creates a game (seat 0), Bob joins with the invite (on ``bob_at``, another relay, if given);
    both have their state."""
    ann = await client(relay)
    await ann.send("create", game=game, name="Ann", **create)
    created = await ann.expect("created")
    await ann.expect("state")
    bob = await client(bob_at if bob_at is not None else relay)
    await bob.send("join", room=created["room"], secret=created["invite"], name="Bob")
    await bob.expect("state")
    presence = await ann.expect("presence")
    assert presence["seat"] == 1 and presence["status"] == "connected"
    return ann, bob, created


async def play_random_game(players: list[Client], seed: int) -> tuple[Any, int, dict[str, Any]]:
    """A seeded random Quadrature game played to its end by two joined clients: every
    move reaches both, in order, the mover's copy with its request id.  Returns the
    engine, the last version and the last ``moved``."""
    import random

    from tessera.core.registry import game_class
    engine = game_class("quadrature")()
    rng = random.Random(seed)
    version = 0
    moved: dict[str, Any] = {}
    while not engine.is_over():
        text = engine.move_text(rng.choice(engine.legal_moves()))
        mover = engine.to_move
        engine.push_text(text)
        await players[mover].send("move", move=text, version=version, id=version)
        for index, player in enumerate(players):
            moved = await player.expect("moved")
            assert (moved["move"], moved["seat"], moved["version"]) == (text, mover, version + 1)
            assert ("id" in moved) == (index == mover)
        version += 1
    return engine, version, moved


def run(scenario: Any) -> Any:
    return asyncio.run(asyncio.wait_for(scenario, 60))


# ----- Redis ---------------------------------------------------------------------------------
REPO = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _no_redis() -> str | None:
    if shutil.which("redis-server") is None:
        return "redis-server is not installed (./build.sh test installs Debian's redis-server)"
    if importlib.util.find_spec("redis") is None:
        return "the redis package is not installed (requirements-dev.txt)"
    return None


REDIS_CONF = REPO / "deploy" / "relay" / "redis.conf"
NO_PERSISTENCE = ("--save", "", "--appendonly", "no")
"""What an administrator who skipped docs/relay.md's persistence settings runs."""


def need_redis() -> None:
    missing = _no_redis()
    if missing is not None:
        if os.environ.get("CI"):
            pytest.fail(f"{missing}; CI must run the Redis tests")
        pytest.skip(missing)


class RedisProcess:
    """A redis-server of a test's own: ``deploy/relay/redis.conf`` on 127.0.0.1, a free port and a
    temporary folder (``extra`` options after the file's); it can be paused, and restarted on the same
    port and folder (so with persistence the data comes back, without it nothing does)."""

    def __init__(self, *extra: str) -> None:
        self.extra = extra
        self.folder = tempfile.mkdtemp(prefix="tessera-redis-")
        self.process: subprocess.Popen | None = None
        self.port = 0
        for _attempt in range(3):  # a port found free may be taken before redis-server binds it
            self.port = free_port()
            if self._start():
                return
        raise RuntimeError("redis-server did not start: " + self.log()[-2000:])

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def log(self) -> str:
        path = Path(self.folder, "redis.log")
        return path.read_text(errors="replace") if path.exists() else ""

    def _start(self) -> bool:
        import redis

        self.process = subprocess.Popen(
            ["redis-server", str(REDIS_CONF), "--port", str(self.port), "--bind", "127.0.0.1", "--dir", self.folder,
             "--logfile", os.path.join(self.folder, "redis.log"), "--daemonize", "no", *self.extra],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        probe = redis.Redis(host="127.0.0.1", port=self.port, socket_connect_timeout=1)
        try:
            give_up = time.monotonic() + 10
            while self.process.poll() is None and time.monotonic() < give_up:
                try:
                    probe.ping()
                    return True
                except (redis.ConnectionError, redis.exceptions.BusyLoadingError):
                    time.sleep(0.05)
        finally:
            probe.close()
        self._end(kill=True)
        return False

    def _end(self, kill: bool = False) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill() if kill else self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def pause(self) -> None:
        """SIGSTOP: Redis holds its connections and answers nothing (a stalled host, a long fork)."""
        assert self.process is not None
        self.process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGCONT)

    def restart(self) -> None:
        """Stop (SIGTERM: Redis writes what its persistence settings say) and start again."""
        self._end()
        if not self._start():
            raise RuntimeError("redis-server did not start again: " + self.log()[-2000:])

    def stop(self) -> None:
        self._end()
        shutil.rmtree(self.folder, ignore_errors=True)


@pytest.fixture(scope="session")
def redis_server() -> Iterator[str]:
    """A redis-server of our own for the session, run as docs/relay.md says; its URL."""
    need_redis()
    server = RedisProcess()
    try:
        yield server.url
    finally:
        server.stop()


@pytest.fixture
def own_redis() -> Iterator[Any]:
    """A redis-server for this test alone: ``own_redis(*extra)`` starts one (stopped after the test)."""
    need_redis()
    started: list[RedisProcess] = []

    def start(*extra: str) -> RedisProcess:
        started.append(RedisProcess(*extra))
        return started[-1]
    try:
        yield start
    finally:
        for server in started:
            server.stop()


@pytest.fixture
def redis_url(redis_server: str) -> str:
    """The session's Redis, emptied for this test."""
    import redis

    with redis.Redis.from_url(redis_server) as connection:
        connection.flushall()
    return redis_server


class RelayProcess:
    """``python -m tessera relay --port 0 --redis URL`` in a process of its own; ``address`` is its ws:// URL."""

    def __init__(self, process: asyncio.subprocess.Process, address: str, log: Path) -> None:
        self.process, self.address, self.log = process, address, log

    @classmethod
    async def start(cls, redis_url: str, *options: str) -> "RelayProcess":
        log = Path(tempfile.mkstemp(prefix="tessera-relay-", suffix=".log")[1])
        env = {**os.environ, "PYTHONPATH": str(REPO / "py"), "PYTHONDONTWRITEBYTECODE": "1"}
        with log.open("wb") as errors:
            process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "tessera", "relay", "--port", "0", "--redis", redis_url, *options,
                stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE, stderr=errors, env=env)
        try:
            line = (await asyncio.wait_for(process.stdout.readline(), 30)).decode()
        except asyncio.TimeoutError:
            line = ""
        if not line.startswith("relay listening on ws://"):
            process.kill()
            await process.wait()
            raise RuntimeError(f"the relay did not start: {line!r} {log.read_text(errors='replace')[-2000:]}")
        return cls(process, line.split()[-1], log)

    async def kill(self) -> None:
        """SIGKILL: no goodbyes, no cleanup (a crash, a pulled plug)."""
        if self.process.returncode is None:
            self.process.kill()
        await self.process.wait()

    async def stop(self) -> None:
        """SIGTERM: a clean stop."""
        if self.process.returncode is None:
            self.process.terminate()
        try:
            await asyncio.wait_for(self.process.wait(), 15)
        except asyncio.TimeoutError:
            await self.kill()
        self.log.unlink(missing_ok=True)


@asynccontextmanager
async def relay_processes(redis_url: str, count: int, *options: str) -> AsyncIterator[list[RelayProcess]]:
    """``count`` relay processes on one Redis, all stopped after."""
    started: list[RelayProcess] = []
    try:
        for _ in range(count):
            started.append(await RelayProcess.start(redis_url, *options))
        yield started
    finally:
        for relay in started:
            await relay.stop()
