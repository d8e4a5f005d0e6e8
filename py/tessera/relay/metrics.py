"""What an administrator watches: a health answer and metrics in the Prometheus text format.

Both are plain HTTP ``GET``s on the relay's own port, answered before any
WebSocket handshake (websockets' ``process_request``):

* ``/healthz``: ``200 ok`` while the relay can serve games, ``503`` with a
  reason when its store does not answer (a Redis out of reach);
* ``/metrics``: gauges for open connections, rooms (all processes' with a
  shared store) and whether the store answers; counters for connections
  opened, rooms made and restored, moves played, errors sent (by code) and
  connections the relay closed (by reason).

Counters are this process's since it started (Prometheus sums processes
and takes restarts in its stride).  Neither path carries anything of a
game; still, a proxy that serves the relay to the internet need only pass
its WebSocket path (``docs/relay.md``).
"""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

HEALTH_PATH, METRICS_PATH = "/healthz", "/metrics"
PREFIX = "tessera_relay_"
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
STORE_CHECK_SECONDS = 2.0


class Metrics:
    """This process's counters (the gauges are read when asked)."""

    def __init__(self) -> None:
        self.connections_opened = 0
        self.rooms_created = 0
        self.rooms_restored = 0
        self.moves = 0
        self.errors: Counter[str] = Counter()
        self.closed: Counter[str] = Counter()


def _sample(name: str, kind: str, help_text: str, values: list[tuple[str, float]]) -> list[str]:
    lines = [f"# HELP {PREFIX}{name} {help_text}", f"# TYPE {PREFIX}{name} {kind}"]
    for labels, value in values:
        lines.append(f"{PREFIX}{name}{labels} {value:g}" if isinstance(value, float) else
                     f"{PREFIX}{name}{labels} {value}")
    return lines


def _labelled(label: str, counts: Counter[str]) -> list[tuple[str, float]]:
    return [(f'{{{label}="{key}"}}', count) for key, count in sorted(counts.items())]


async def _store_figures(relay: Any) -> tuple[bool, int | None]:
    """Whether the store answers, and how many rooms it holds (None when it does not answer)."""
    try:
        healthy = await asyncio.wait_for(relay.store.healthy(), STORE_CHECK_SECONDS)
        rooms = await asyncio.wait_for(relay.store.count(), STORE_CHECK_SECONDS) if healthy else None
    except Exception:  # a store that fails to answer is what the gauge reports
        return False, None
    return healthy, rooms


async def render(relay: Any) -> str:
    """The metrics page of ``relay`` (a ``server.Relay``)."""
    counts: Metrics = relay.metrics
    up, rooms = await _store_figures(relay)
    lines: list[str] = []
    lines += _sample("connections", "gauge", "Open WebSocket connections on this process.",
                     [("", len(relay.connections))])
    if rooms is not None:
        lines += _sample("rooms", "gauge", "Rooms in the store (every process's, with a shared store).",
                         [("", rooms)])
    lines += _sample("store_up", "gauge", "1 if the room store answers, else 0.", [("", 1 if up else 0)])
    lines += _sample("connections_opened_total", "counter", "WebSocket connections accepted.",
                     [("", counts.connections_opened)])
    lines += _sample("rooms_created_total", "counter", "Rooms created.", [("", counts.rooms_created)])
    lines += _sample("rooms_restored_total", "counter", "Lost rooms restored from a player's record.",
                     [("", counts.rooms_restored)])
    lines += _sample("moves_total", "counter", "Moves played.", [("", counts.moves)])
    lines += _sample("errors_total", "counter", "Errors sent to clients, by code.", _labelled("code", counts.errors))
    lines += _sample("closed_total", "counter", "Connections the relay closed, by reason.",
                     _labelled("reason", counts.closed))
    return "\n".join(lines) + "\n"


async def answer_http(relay: Any, connection: Any, request: Any) -> Any:
    """websockets' ``process_request``: the health and metrics pages; None lets a handshake go on."""
    path = request.path.split("?", 1)[0]
    if path not in (HEALTH_PATH, METRICS_PATH) or request.headers.get("Upgrade"):
        return None
    if path == HEALTH_PATH:
        up, _ = await _store_figures(relay)
        response = connection.respond(200 if up else 503, "ok\n" if up else "store unavailable\n")
    else:
        response = connection.respond(200, await render(relay))
        del response.headers["Content-Type"]
        response.headers["Content-Type"] = CONTENT_TYPE
    response.headers["Cache-Control"] = "no-store"
    return response
