#!/usr/bin/env python3
"""Relay load: many concurrent games on loopback, with one relay process and with two over Redis.

Part of ``./build.sh bench`` (``run.py``; ``--no-relay`` skips it), or alone:
``.venv/bin/python tests/bench/relay_load.py [--quick] [--games N] [--seconds S]``.

Two set-ups are measured the same way:

* ``memory``: one relay process (``python -m tessera relay``), rooms in memory;
* ``redis``: two relay processes over one Redis (a ``redis-server`` of the
  bench's own on 127.0.0.1, a free port, no persistence), each game's two
  players on different processes, so every move crosses Redis.

The clients all run here, in this process (asyncio and ``websockets``), and
the relays in their own processes, so the relays' figures are theirs alone
(on a machine with few cores the clients, the relays and Redis still share
them).  For each set-up:

1. a warm-up game is played and closed (engines imported, code paths run),
   then the relays' resident memory (RSS) is read;
2. ``games`` games are opened (Ann creates, Bob joins with the invite,
   ``OPEN_AT_ONCE`` at a time);
3. every game plays a precomputed random Quadrature record for ``seconds``
   seconds: the player to move sends a move as soon as the previous one has
   reached them, after a pause of ``THINK`` seconds (a game makes at most
   ``1 / THINK`` moves a second, under the relay's rate limit);
4. every socket is pinged: a game whose two sockets answer is held.

Reported: games held, moves a second (moves that reached the opponent, per
second of the window), move latency p50 and p99 (from the mover's send to
the opponent's receipt of ``moved``), and memory per connection (the relays'
RSS growth from step 1 to the end of step 3, divided by the sockets).

Bounded: ``games`` games (200, quick 40), ``seconds`` seconds of play
(8, quick 3), at most one record's moves per game, and a time-out on every
wait; everything it starts is stopped at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "py"))

THINK = 0.1
"""Seconds a player waits before answering a move."""
OPEN_AT_ONCE = 25
WAIT = 15.0
"""Seconds any one answer may take before the game counts as lost."""
RECORDS = 8
MIN_PLIES = 120


def log(msg: str) -> None:
    print(f"bench: {msg}", file=sys.stderr, flush=True)


# ----- processes -----------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def rss_kb(pid: int) -> int:
    """Resident memory of a process (Linux ``/proc``), in KB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for process {pid}")


class RedisServer:
    """A redis-server of our own on 127.0.0.1 (a free port, a temporary folder, no persistence)."""

    def __init__(self) -> None:
        self.folder = tempfile.mkdtemp(prefix="tessera-bench-redis-")
        self.port = free_port()
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", self.folder, "--logfile", os.path.join(self.folder, "redis.log")],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        import redis

        probe = redis.Redis(host="127.0.0.1", port=self.port, socket_connect_timeout=1)
        give_up = time.monotonic() + 10
        while True:
            try:
                probe.ping()
                break
            except redis.ConnectionError:
                if self.process.poll() is not None or time.monotonic() > give_up:
                    self.stop()
                    raise RuntimeError("redis-server did not start") from None
                time.sleep(0.05)
        probe.close()
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.folder, ignore_errors=True)


async def start_relay(*options: str) -> tuple[asyncio.subprocess.Process, str]:
    env = {**os.environ, "PYTHONPATH": str(REPO / "py"), "PYTHONDONTWRITEBYTECODE": "1"}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tessera", "relay", "--port", "0", "--max-connections", "5000", *options,
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL,
        env=env)
    line = (await asyncio.wait_for(process.stdout.readline(), 30)).decode()
    if not line.startswith("relay listening on ws://"):
        process.kill()
        await process.wait()
        raise RuntimeError(f"the relay did not start: {line!r}")
    return process, line.split()[-1]


async def stop_relay(process: asyncio.subprocess.Process) -> None:
    if process.returncode is None:
        process.terminate()
    try:
        await asyncio.wait_for(process.wait(), 15)
    except asyncio.TimeoutError:
        process.kill()
        await process.wait()


# ----- clients ------------------------------------------------------------------------------
class Player:
    def __init__(self, socket: Any) -> None:
        self.socket = socket

    async def send(self, kind: str, **fields: Any) -> None:
        await self.socket.send(json.dumps({"type": kind, "protocol": 1, **fields}))

    async def until(self, kind: str, version: int | None = None) -> dict[str, Any]:
        """Read to the next message of ``kind`` (with this ``version``); an error ends the game."""
        while True:
            data = json.loads(await asyncio.wait_for(self.socket.recv(), WAIT))
            if data["type"] == "error":
                raise RuntimeError(f"relay error {data['code']}")
            if data["type"] == kind and (version is None or data.get("version") == version):
                return data


def records(count: int = RECORDS) -> list[list[str]]:
    """Seeded random Quadrature records of at least ``MIN_PLIES`` moves."""
    from tessera.core.registry import game_class

    cls = game_class("quadrature")
    found: list[list[str]] = []
    seed = 0
    while len(found) < count:
        engine, rng, moves = cls(), random.Random(seed), []
        while not engine.is_over():
            move = rng.choice(engine.legal_moves())
            moves.append(engine.move_text(move))
            engine.push(move)
        if len(moves) >= MIN_PLIES:
            found.append(moves)
        seed += 1
    return found


async def open_game(ann_at: str, bob_at: str) -> tuple[Player, Player]:
    from websockets.asyncio.client import connect

    ann = Player(await connect(ann_at, open_timeout=WAIT, max_queue=None))
    await ann.send("create", game="quadrature", seed=0, name="Ann")
    created = await ann.until("created")
    await ann.until("state")
    bob = Player(await connect(bob_at, open_timeout=WAIT, max_queue=None))
    await bob.send("join", room=created["room"], secret=created["invite"], name="Bob")
    await bob.until("state")
    await ann.until("presence")
    return ann, bob


async def play(game: tuple[Player, Player], moves: list[str], stop_at: float, latencies: list[float]) -> int:
    """Play ``moves`` until ``stop_at``; returns how many reached the opponent."""
    loop = asyncio.get_running_loop()
    await asyncio.sleep(random.random() * THINK)  # the games do not all start on the same tick
    played = 0
    for version, text in enumerate(moves):
        if loop.time() >= stop_at:
            break
        mover, other = game[version % 2], game[1 - version % 2]
        sent = time.perf_counter()
        await mover.send("move", move=text, version=version)
        await other.until("moved", version + 1)
        latencies.append(time.perf_counter() - sent)
        played += 1
        await asyncio.sleep(THINK)
    return played


async def answers(player: Player) -> bool:
    try:
        await player.send("ping")
        await player.until("pong")
        return True
    except Exception:  # noqa: BLE001 (a lost socket is what this counts)
        return False


async def measure(addresses: list[str], pids: list[int], games: int, seconds: float,
                  moves: list[list[str]]) -> dict[str, Any]:
    """One set-up: warm up, open ``games`` games, play for ``seconds``, count the games still held."""
    ann_at, bob_at = addresses[0], addresses[-1]
    warm = await open_game(ann_at, bob_at)
    await play(warm, moves[0][:6], asyncio.get_running_loop().time() + 30, [])
    for player in warm:
        await player.socket.close()
    await asyncio.sleep(0.5)
    base = sum(rss_kb(pid) for pid in pids)

    gate = asyncio.Semaphore(OPEN_AT_ONCE)

    async def opened() -> tuple[Player, Player] | None:
        async with gate:
            try:
                return await open_game(ann_at, bob_at)
            except Exception as error:  # noqa: BLE001 (counted as not held)
                log(f"relay load: a game could not be opened ({type(error).__name__}: {error})")
                return None

    started = time.perf_counter()
    pairs = await asyncio.gather(*(opened() for _ in range(games)))
    open_seconds = time.perf_counter() - started
    held = [pair for pair in pairs if pair is not None]
    latencies: list[float] = []
    loop = asyncio.get_running_loop()
    stop_at = loop.time() + seconds
    begun = time.perf_counter()
    results = await asyncio.gather(*(play(pair, moves[i % len(moves)], stop_at, latencies)
                                     for i, pair in enumerate(held)), return_exceptions=True)
    window = time.perf_counter() - begun
    lost = [r for r in results if isinstance(r, BaseException)]
    for error in lost[:3]:
        log(f"relay load: a game failed ({type(error).__name__}: {error})")
    rss = sum(rss_kb(pid) for pid in pids)
    alive = await asyncio.gather(*(answers(player) for pair in held for player in pair))
    kept = sum(1 for i in range(len(held)) if alive[2 * i] and alive[2 * i + 1])
    for pair in held:
        for player in pair:
            await player.socket.close()
    moved = sum(r for r in results if isinstance(r, int))
    ordered = sorted(latencies)
    return {
        "games": games, "held": kept, "sockets": 2 * len(held), "failed": len(lost),
        "moves": moved, "window_s": window, "moves_per_s": moved / window if window else None,
        "p50_ms": 1000 * statistics.median(ordered) if ordered else None,
        "p99_ms": 1000 * ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))] if ordered else None,
        "open_s": open_seconds, "rss_base_kb": base, "rss_kb": rss,
        "kb_per_connection": (rss - base) / (2 * len(held)) if held else None,
    }


async def run_setups(games: int, seconds: float) -> dict[str, Any]:
    moves = records()
    out: dict[str, Any] = {"games": games, "seconds": seconds, "think": THINK}
    process, address = await start_relay()
    try:
        log(f"relay load: {games} games on one relay process for {seconds:g} s")
        out["memory"] = await measure([address], [process.pid], games, seconds, moves)
    except Exception as error:  # noqa: BLE001 (report, keep the other set-up)
        out["memory"] = {"error": f"{type(error).__name__}: {error}"}
    finally:
        await stop_relay(process)
    if shutil.which("redis-server") is None:
        out["redis"] = {"error": "redis-server missing (./build.sh bench installs it)"}
        return out
    if importlib.util.find_spec("redis") is None:
        out["redis"] = {"error": "the redis package is missing (requirements-dev.txt)"}
        return out
    server = RedisServer()
    relays: list[asyncio.subprocess.Process] = []
    try:
        addresses = []
        for _ in range(2):
            process, address = await start_relay("--redis", server.url)
            relays.append(process)
            addresses.append(address)
        log(f"relay load: {games} games on two relay processes over Redis for {seconds:g} s")
        out["redis"] = await measure(addresses, [p.pid for p in relays], games, seconds, moves)
    except Exception as error:  # noqa: BLE001
        out["redis"] = {"error": f"{type(error).__name__}: {error}"}
    finally:
        for process in relays:
            await stop_relay(process)
        server.stop()
    return out


def relay_load_metrics(quick: bool, games: int | None = None, seconds: float | None = None) -> dict[str, Any]:
    if importlib.util.find_spec("websockets") is None:
        return {"error": "the websockets package is missing (requirements-dev.txt)"}
    return asyncio.run(run_setups(games or (40 if quick else 200), seconds or (3.0 if quick else 8.0)))


# ----- the table -------------------------------------------------------------------------------
SETUPS = (("memory", "1 process"), ("redis", "2 processes + Redis"))


def relay_rows(got: dict[str, Any] | None, row: Any, fmt: Any) -> list[str]:
    """Rows for run.py's table (figures in the CPython column: the relay is a CPython program)."""
    if not got:
        return []
    if got.get("error"):
        return [row("relay load", cpython=f"n/a ({got['error']})")]
    out = []
    for key, what in SETUPS:
        res = got.get(key) or {"error": "not run"}
        name = f"relay load, {what}, {got['games']} games"
        if res.get("error"):
            out.append(row(name, cpython=f"n/a ({res['error']})"))
            continue
        out.append(row(f"{name}: games held ({res['sockets']} sockets, {got['seconds']:g} s of play)", "games",
                       f"{res['held']} of {res['games']}"))
        out.append(row(f"{name}: moves a second (a move every {got['think']:g} s at most per game)", "moves/s",
                       fmt(res["moves_per_s"])))
        out.append(row(f"{name}: move latency p50 / p99 (send to the opponent's receipt)", "ms",
                       f"{fmt(res['p50_ms'])} / {fmt(res['p99_ms'])}"))
        out.append(row(f"{name}: memory per connection (relay RSS growth / sockets)", "KB",
                       fmt(res["kb_per_connection"])))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--games", type=int, default=None)
    ap.add_argument("--seconds", type=float, default=None)
    ap.add_argument("--json", metavar="PATH")
    args = ap.parse_args(argv)
    got = relay_load_metrics(args.quick, args.games, args.seconds)

    def row(metric: str, unit: str = "", cpython: str = "") -> str:
        return f"| {metric} | {unit} | {cpython} |"

    def fmt(value: float | None) -> str:
        return "n/a" if value is None else f"{value:,.1f}"

    print("| metric | unit | value |\n| --- | --- | ---: |")
    print("\n".join(relay_rows(got, row, fmt)))
    if args.json:
        Path(args.json).write_text(json.dumps(got, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
