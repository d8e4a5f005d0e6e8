#!/usr/bin/env python3
"""Relay load: many concurrent games on loopback, in memory and over Redis with 1, 2 and 4 relay processes.

Part of ``./build.sh bench`` (``run.py``; ``--no-relay`` skips it, and
``./build.sh bench --no-engine --no-browser`` runs it alone), or directly:
``.venv/bin/python tests/bench/relay_load.py [--quick] [--games N] [--seconds S] [--relay-py DIR]``.

The set-ups, each measured the same way:

* ``memory``: one relay process (``python -m tessera relay``), rooms in memory;
* ``redis xN`` (N = 1, 2, 4): N relay processes over one Redis (a
  ``redis-server`` of the bench's own on 127.0.0.1, a free port, no
  persistence); a game's two players are on different processes (with N > 1),
  so every move crosses Redis;
* ``stall``: ``STALL_GAMES`` games (1000; quick: 200) on two relay processes
  over Redis, a player answering ``STALL_THINK`` seconds after the move
  reached them: how long the longest wait for a move was.

The clients run in ``WORKERS`` processes of their own (this file with
``--worker``), each holding a share of the games, so the relays' figures
are theirs and one client process is not the bottleneck (on a machine with
few cores the clients, the relays and Redis still share them).  Every
socket gets an ``X-Forwarded-For`` address of its own (as a proxy in front
of the relay would send), so the per-address caps do not mistake the
bench's thousands of sockets for one stranger.  For each set-up:

1. a warm-up game is played and closed (engines imported, code paths run),
   then the relays' resident memory (RSS) is read;
2. the workers open ``games`` games (Ann creates, Bob joins with the invite);
3. every game plays a precomputed random Quadrature record for ``seconds``
   seconds: the player to move sends a move as soon as the previous one has
   reached them, after a pause of ``think`` seconds (a game makes at most
   ``1 / think`` moves a second);
4. every socket is pinged: a game whose two sockets answer is held.

Reported: games held, moves a second (moves that reached the opponent, per
second of the window), move latency p50, p99 and max (from the mover's send
to the opponent's receipt of ``moved``), games whose longest wait passed 2 s,
the relays' CPU time per move (user + system, all relay processes, during
the window) and Redis's, and memory per connection (the relays' RSS growth
over the run / sockets).

``--relay-py DIR`` runs the relays from another copy of the package (for a
before/after: ``git archive HEAD py | tar -x -C /tmp/before`` then
``--relay-py /tmp/before/py``).  Bounded: at most one record's moves per
game, a time-out on every wait, and everything it starts is stopped.
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
"""Seconds a player waits before answering a move (the throughput set-ups)."""
STALL_GAMES, STALL_THINK, STALL_SECONDS = 1000, 1.0, 15.0
STALL_LIMIT = 2.0
"""A wait for a move longer than this is a stall."""
WORKERS = 2
OPEN_AT_ONCE = 25
WAIT = 30.0
"""Seconds any one answer may take before the game counts as lost."""
RECORDS = 8
MIN_PLIES = 120
CLK_TCK = os.sysconf("SC_CLK_TCK")


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


def cpu_seconds(pid: int) -> float:
    """User + system CPU time a process has used (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


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


async def start_relay(relay_py: Path, *options: str) -> tuple[asyncio.subprocess.Process, str]:
    env = {**os.environ, "PYTHONPATH": str(relay_py), "PYTHONDONTWRITEBYTECODE": "1"}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tessera", "relay", "--port", "0", "--max-connections", "5000",
        "--max-rooms", "5000", *options,
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


# ----- clients (in the worker processes) -------------------------------------------------------
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


def fake_address(index: int) -> str:
    """A client address of its own for socket ``index`` (sent as a proxy would, in X-Forwarded-For)."""
    return f"10.{(index >> 16) & 255}.{(index >> 8) & 255}.{index & 255}"


async def connect_as(address: str, index: int) -> Player:
    from websockets.asyncio.client import connect

    return Player(await connect(address, open_timeout=WAIT, max_queue=None,
                                additional_headers={"X-Forwarded-For": fake_address(index)}))


async def open_game(ann_at: str, bob_at: str, index: int) -> tuple[Player, Player]:
    ann = await connect_as(ann_at, 2 * index)
    await ann.send("create", game="quadrature", seed=0, name="Ann")
    created = await ann.until("created")
    await ann.until("state")
    bob = await connect_as(bob_at, 2 * index + 1)
    await bob.send("join", room=created["room"], secret=created["invite"], name="Bob")
    await bob.until("state")
    await ann.until("presence")
    return ann, bob


async def play(game: tuple[Player, Player], moves: list[str], stop_at: float, think: float,
               latencies: list[float]) -> tuple[int, float]:
    """Play ``moves`` until ``stop_at``; how many reached the opponent, and the longest wait."""
    loop = asyncio.get_running_loop()
    await asyncio.sleep(random.random() * think)  # the games do not all start on the same tick
    played, longest = 0, 0.0
    for version, text in enumerate(moves):
        if loop.time() >= stop_at:
            break
        mover, other = game[version % 2], game[1 - version % 2]
        sent = time.perf_counter()
        await mover.send("move", move=text, version=version)
        await other.until("moved", version + 1)
        latency = time.perf_counter() - sent
        latencies.append(latency)
        longest = max(longest, latency)
        played += 1
        await asyncio.sleep(think)
    return played, longest


async def answers(player: Player) -> bool:
    try:
        await player.send("ping")
        await player.until("pong")
        return True
    except Exception:  # noqa: BLE001 (a lost socket is what this counts)
        return False


async def worker() -> None:
    """One client process: read its job, open its share of the games, play on "go", report, close on "bye"."""
    reader = asyncio.StreamReader(limit=1 << 26)
    loop = asyncio.get_running_loop()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    job = json.loads(await reader.readline())
    addresses, first, count = job["addresses"], job["first"], job["games"]
    gate = asyncio.Semaphore(OPEN_AT_ONCE)

    async def opened(index: int) -> tuple[Player, Player] | None:
        async with gate:
            try:
                return await open_game(addresses[index % len(addresses)], addresses[(index + 1) % len(addresses)],
                                       index)
            except Exception as error:  # noqa: BLE001 (counted as not held)
                log(f"relay load: a game could not be opened ({type(error).__name__}: {error})")
                return None

    pairs = await asyncio.gather(*(opened(first + i) for i in range(count)))
    held = [pair for pair in pairs if pair is not None]
    print(json.dumps({"opened": len(held)}), flush=True)
    seconds = float((await reader.readline()).split()[1])
    latencies: list[float] = []
    stop_at = loop.time() + seconds
    begun = time.perf_counter()
    cpu_begun = time.process_time()
    results = await asyncio.gather(*(play(pair, job["records"][i % len(job["records"])], stop_at, job["think"],
                                          latencies) for i, pair in enumerate(held)), return_exceptions=True)
    window = time.perf_counter() - begun
    cpu = time.process_time() - cpu_begun
    lost = [r for r in results if isinstance(r, BaseException)]
    for error in lost[:3]:
        log(f"relay load: a game failed ({type(error).__name__}: {error})")
    alive = await asyncio.gather(*(answers(player) for pair in held for player in pair))
    kept = sum(1 for i in range(len(held)) if alive[2 * i] and alive[2 * i + 1])
    done = [r for r in results if not isinstance(r, BaseException)]
    print(json.dumps({"held": kept, "sockets": 2 * len(held), "failed": len(lost), "window_s": window, "cpu_s": cpu,
                      "moves": sum(played for played, _ in done), "latencies": latencies,
                      "stalled": sum(1 for _, longest in done if longest > STALL_LIMIT) + len(lost)}), flush=True)
    await reader.readline()
    for pair in held:
        for player in pair:
            await player.socket.close()


# ----- one set-up --------------------------------------------------------------------------------
async def measure(addresses: list[str], pids: list[int], redis_pid: int | None, games: int, seconds: float,
                  think: float, moves: list[list[str]]) -> dict[str, Any]:
    """Warm up, have the workers open ``games`` games, play for ``seconds``, count the games still held."""
    warm = await open_game(addresses[0], addresses[-1], 1 << 22)
    await play(warm, moves[0][:6], asyncio.get_running_loop().time() + 30, 0.0, [])
    for player in warm:
        await player.socket.close()
    await asyncio.sleep(0.5)
    base = sum(rss_kb(pid) for pid in pids)
    env = {**os.environ, "PYTHONPATH": str(REPO / "py"), "PYTHONDONTWRITEBYTECODE": "1"}
    shares = [games // WORKERS + (1 if w < games % WORKERS else 0) for w in range(WORKERS)]
    workers = []
    first = 0
    for share in shares:
        process = await asyncio.create_subprocess_exec(
            sys.executable, __file__, "--worker", stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            env=env, limit=1 << 26)
        job = {"addresses": addresses, "first": first, "games": share, "think": think, "records": moves}
        process.stdin.write((json.dumps(job) + "\n").encode())
        await process.stdin.drain()
        workers.append(process)
        first += share
    try:
        started = time.perf_counter()
        for process in workers:
            json.loads(await asyncio.wait_for(process.stdout.readline(), 600))
        open_seconds = time.perf_counter() - started
        cpu_before = sum(cpu_seconds(pid) for pid in pids)
        redis_before = cpu_seconds(redis_pid) if redis_pid else 0.0
        for process in workers:
            process.stdin.write(f"go {seconds}\n".encode())
            await process.stdin.drain()
        reports = [json.loads(await asyncio.wait_for(process.stdout.readline(), seconds + 600))
                   for process in workers]
        cpu = sum(cpu_seconds(pid) for pid in pids) - cpu_before
        redis_cpu = cpu_seconds(redis_pid) - redis_before if redis_pid else None
        rss = sum(rss_kb(pid) for pid in pids)
    finally:
        for process in workers:
            if process.returncode is None and not process.stdin.is_closing():
                process.stdin.write(b"bye\n")
        for process in workers:
            try:
                await asyncio.wait_for(process.wait(), 60)
            except asyncio.TimeoutError:
                process.kill()
                await process.wait()
    latencies = sorted(x for r in reports for x in r["latencies"])
    moved = sum(r["moves"] for r in reports)
    window = max(r["window_s"] for r in reports)
    sockets = sum(r["sockets"] for r in reports)
    return {
        "games": games, "held": sum(r["held"] for r in reports), "sockets": sockets,
        "failed": sum(r["failed"] for r in reports), "stalled": sum(r["stalled"] for r in reports),
        "moves": moved, "window_s": window, "moves_per_s": moved / window if window else None,
        "p50_ms": 1000 * statistics.median(latencies) if latencies else None,
        "p99_ms": 1000 * latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))] if latencies else None,
        "max_ms": 1000 * latencies[-1] if latencies else None,
        "cpu_ms_per_move": 1000 * cpu / moved if moved else None,
        "redis_cpu_ms_per_move": 1000 * redis_cpu / moved if moved and redis_cpu is not None else None,
        "client_cpu_ms_per_move": 1000 * sum(r["cpu_s"] for r in reports) / moved if moved else None,
        "cpu_share": (cpu + (redis_cpu or 0.0) + sum(r["cpu_s"] for r in reports)) / window if window else None,
        "open_s": open_seconds, "rss_base_kb": base, "rss_kb": rss,
        "kb_per_connection": (rss - base) / sockets if sockets else None,
    }


async def run_setup(relay_py: Path, processes: int, redis: bool, games: int, seconds: float, think: float,
                    moves: list[list[str]]) -> dict[str, Any]:
    server = RedisServer() if redis else None
    relays: list[asyncio.subprocess.Process] = []
    try:
        addresses = []
        for _ in range(processes):
            process, address = await start_relay(relay_py, *(("--redis", server.url) if server else ()))
            relays.append(process)
            addresses.append(address)
        where = f"{processes} relay process(es)" + (" over Redis" if redis else ", in memory")
        log(f"relay load: {games} games on {where} for {seconds:g} s, a move every {think:g} s at most")
        return await measure(addresses, [p.pid for p in relays], server.process.pid if server else None,
                             games, seconds, think, moves)
    except Exception as error:  # noqa: BLE001 (report, keep the other set-ups)
        return {"error": f"{type(error).__name__}: {error}"}
    finally:
        for process in relays:
            await stop_relay(process)
        if server is not None:
            server.stop()


SETUPS = (("memory", 1, False), ("redis x1", 1, True), ("redis x2", 2, True), ("redis x4", 4, True))
"""(name, relay processes, over Redis)."""


async def run_setups(games: int, seconds: float, quick: bool, relay_py: Path, stall: bool = True) -> dict[str, Any]:
    moves = records()
    out: dict[str, Any] = {"games": games, "seconds": seconds, "think": THINK, "setups": {}}
    missing = None
    if shutil.which("redis-server") is None:
        missing = "redis-server missing (./build.sh bench installs it)"
    elif importlib.util.find_spec("redis") is None:
        missing = "the redis package is missing (requirements-dev.txt)"
    for name, processes, redis in SETUPS:
        if redis and missing:
            out["setups"][name] = {"error": missing}
            continue
        out["setups"][name] = await run_setup(relay_py, processes, redis, games, seconds, THINK, moves)
    if stall and not missing:
        count = 200 if quick else STALL_GAMES
        out["stall"] = {"games": count, "think": STALL_THINK, "seconds": STALL_SECONDS,
                        **await run_setup(relay_py, 2, True, count, STALL_SECONDS, STALL_THINK, moves)}
    return out


def relay_load_metrics(quick: bool, games: int | None = None, seconds: float | None = None,
                       relay_py: Path | None = None, stall: bool = True) -> dict[str, Any]:
    if importlib.util.find_spec("websockets") is None:
        return {"error": "the websockets package is missing (requirements-dev.txt)"}
    return asyncio.run(run_setups(games or (40 if quick else 200), seconds or (3.0 if quick else 8.0), quick,
                                  relay_py or REPO / "py", stall))


# ----- the table -------------------------------------------------------------------------------
def relay_rows(got: dict[str, Any] | None, row: Any, fmt: Any) -> list[str]:
    """Rows for run.py's table (figures in the CPython column: the relay is a CPython program)."""
    if not got:
        return []
    if got.get("error"):
        return [row("relay load", cpython=f"n/a ({got['error']})")]
    out = []
    for key, res in got.get("setups", {}).items():
        name = f"relay load, {key}, {got['games']} games"
        if res.get("error"):
            out.append(row(name, cpython=f"n/a ({res['error']})"))
            continue
        out.append(row(f"{name}: games held ({res['sockets']} sockets, {got['seconds']:g} s of play)", "games",
                       f"{res['held']} of {res['games']}"))
        out.append(row(f"{name}: moves a second (a move every {got['think']:g} s at most per game)", "moves/s",
                       fmt(res["moves_per_s"])))
        out.append(row(f"{name}: move latency p50 / p99 / max (send to the opponent's receipt)", "ms",
                       f"{fmt(res['p50_ms'])} / {fmt(res['p99_ms'])} / {fmt(res['max_ms'])}"))
        cpu = fmt(res["cpu_ms_per_move"])
        if res.get("redis_cpu_ms_per_move") is not None:
            cpu += f" (+ Redis {fmt(res['redis_cpu_ms_per_move'])})"
        out.append(row(f"{name}: CPU per move, all relay processes (user + system)", "ms", cpu))
        out.append(row(f"{name}: memory per connection (relay RSS growth / sockets)", "KB",
                       fmt(res["kb_per_connection"])))
    stall = got.get("stall")
    if stall:
        name = f"relay load, {stall['games']} games over Redis (2 processes, a move {stall['think']:g} s after the last)"
        if stall.get("error"):
            out.append(row(name, cpython=f"n/a ({stall['error']})"))
        else:
            out.append(row(f"{name}: games held / games that waited past {STALL_LIMIT:g} s for a move", "games",
                           f"{stall['held']} of {stall['games']} / {stall['stalled']}"))
            out.append(row(f"{name}: moves a second; latency p99 / max", "moves/s; ms",
                           f"{fmt(stall['moves_per_s'])}; {fmt(stall['p99_ms'])} / {fmt(stall['max_ms'])}"))
            out.append(row(f"{name}: CPU per move, relays / Redis / the bench's clients; cores the three used",
                           "ms; cores", f"{fmt(stall['cpu_ms_per_move'])} / {fmt(stall['redis_cpu_ms_per_move'])} / "
                           f"{fmt(stall.get('client_cpu_ms_per_move'))}; {fmt(stall.get('cpu_share'))}"))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--games", type=int, default=None)
    ap.add_argument("--seconds", type=float, default=None)
    ap.add_argument("--no-stall", action="store_true", help="skip the 1000-game run")
    ap.add_argument("--relay-py", type=Path, default=None, help="run the relays from this copy of py/")
    ap.add_argument("--json", metavar="PATH")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        asyncio.run(worker())
        return 0
    got = relay_load_metrics(args.quick, args.games, args.seconds, args.relay_py, not args.no_stall)

    def row(metric: str, unit: str = "", cpython: str = "") -> str:
        return f"| {metric} | {unit} | {cpython} |"

    def fmt(value: float | None) -> str:
        return "n/a" if value is None else f"{value:,.3g}" if abs(value) < 10 else f"{value:,.1f}"

    print("| metric | unit | value |\n| --- | --- | ---: |")
    print("\n".join(relay_rows(got, row, fmt)))
    if args.json:
        Path(args.json).write_text(json.dumps(got, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
