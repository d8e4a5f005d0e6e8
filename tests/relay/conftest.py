"""A real relay on 127.0.0.1 port 0 and real ``websockets`` clients, for the relay tests.

CPython only (tests/unit also runs in Pyodide, which has no sockets).  Each
test is a plain function running one scenario with ``asyncio.run``: no
event-loop plugin is needed.
"""

from __future__ import annotations

import asyncio
import json
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator

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


def url(relay: Relay) -> str:
    return f"ws://127.0.0.1:{relay.port}"


async def client(relay: Relay, **kwargs: Any) -> Client:
    return Client(await connect(url(relay), open_timeout=TIMEOUT, **kwargs))


async def new_game(relay: Relay, game: str = "quadrature", **create: Any
                   ) -> tuple[Client, Client, dict[str, Any]]:
    """Ann creates a game (seat 0), Bob joins with the invite; both have their state."""
    ann = await client(relay)
    await ann.send("create", game=game, name="Ann", **create)
    created = await ann.expect("created")
    await ann.expect("state")
    bob = await client(relay)
    await bob.send("join", room=created["room"], secret=created["invite"], name="Bob")
    await bob.expect("state")
    presence = await ann.expect("presence")
    assert presence["seat"] == 1 and presence["status"] == "connected"
    return ann, bob, created


def run(scenario: Any) -> Any:
    return asyncio.run(asyncio.wait_for(scenario, 60))
