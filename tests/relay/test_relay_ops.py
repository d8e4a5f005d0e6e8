"""What an administrator watches: ``/healthz`` and ``/metrics`` over plain HTTP on the relay's port."""

from __future__ import annotations

import asyncio
import re
import urllib.error
import urllib.request
from typing import Any

from conftest import client, new_game, run, running_relay

from tessera.relay.redis_store import RedisStore
from tessera.relay.server import RelayConfig

SAMPLE = re.compile(r'^(tessera_relay_[a-z_]+)(\{[a-z]+="[a-z_]+"\})? (\d+(\.\d+)?)$')


async def get(port: int, path: str) -> tuple[int, str, str]:
    """An HTTP GET as Prometheus or a load balancer would send it: status, content type, body."""
    def fetch() -> tuple[int, str, str]:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as answer:
                return answer.status, answer.headers["Content-Type"], answer.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.headers["Content-Type"], error.read().decode()
    return await asyncio.to_thread(fetch)


def parse(text: str) -> dict[str, float]:
    """The samples of a Prometheus text page; every line must be a comment or a well-formed sample."""
    samples: dict[str, float] = {}
    for line in text.splitlines():
        if line.startswith("# HELP ") or line.startswith("# TYPE "):
            continue
        found = SAMPLE.match(line)
        assert found, f"not a Prometheus sample: {line!r}"
        samples[found.group(1) + (found.group(2) or "")] = float(found.group(3))
    return samples


def test_health_and_metrics_count_connections_rooms_moves_and_errors() -> None:
    """``/healthz`` says ok; ``/metrics`` counts the open sockets, the rooms, the moves played and the
    errors sent by code, in the Prometheus text format."""
    async def scenario() -> None:
        async with running_relay(RelayConfig(rate=1000, burst=1000)) as relay:
            status, _, body = await get(relay.port, "/healthz")
            assert (status, body) == (200, "ok\n")
            ann, bob, created = await new_game(relay)
            await ann.send("move", move="b9-b8", version=0)
            await bob.expect("moved")
            await bob.send("move", move="b9-b8", version=0)
            await bob.error()
            status, kind, body = await get(relay.port, "/metrics")
            assert status == 200 and kind.startswith("text/plain; version=0.0.4")
            samples = parse(body)
            assert samples["tessera_relay_connections"] == 2
            assert samples["tessera_relay_rooms"] == 1
            assert samples["tessera_relay_moves_total"] == 1
            assert samples['tessera_relay_errors_total{code="stale"}'] == 1
            assert samples["tessera_relay_rooms_created_total"] == 1
            assert samples["tessera_relay_store_up"] == 1
            websocket = await client(relay)  # the WebSocket side is unchanged by the HTTP paths
            await websocket.send("ping")
            await websocket.expect("pong")
    run(scenario())


def test_health_says_503_while_redis_is_paused(own_redis: Any) -> None:
    """With Redis paused the health answer is 503 and ``store_up`` 0; both recover with Redis."""
    redis = own_redis()

    async def scenario() -> None:
        async with running_relay(store=RedisStore(redis.url, op_timeout=0.5)) as relay:
            redis.pause()
            try:
                status, _, body = await get(relay.port, "/healthz")
                assert (status, body) == (503, "store unavailable\n")
                assert parse((await get(relay.port, "/metrics"))[2])["tessera_relay_store_up"] == 0
            finally:
                redis.resume()
            assert (await get(relay.port, "/healthz"))[0] == 200
    run(scenario())


def test_the_relays_own_requirements_pin_what_the_tests_run() -> None:
    """deploy/relay/requirements.txt (the container's and docs/relay.md's install) pins the same versions
    as requirements-dev.txt, which the tests run."""
    from conftest import REPO

    def pins(path: str) -> dict[str, str]:
        found = {}
        for line in (REPO / path).read_text().splitlines():
            if "==" in line and not line.startswith("#"):
                name, version = line.split("==")
                found[name.strip()] = version.strip()
        return found
    relay, dev = pins("deploy/relay/requirements.txt"), pins("requirements-dev.txt")
    assert set(relay) == {"websockets", "redis", "hiredis"}
    assert {name: dev.get(name) for name in relay} == relay
