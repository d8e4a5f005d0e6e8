"""Several relays over one Redis: players on different processes, a relay killed mid-game, a restart.

The relays are real processes (``python -m tessera relay --port 0 --redis
URL``) where a process must die or the command line is under test, and
``Relay`` objects in this process with stores of their own (their own Redis
connections, as separate processes have) where a test needs a fast rate
limit, a short expiry or a clock it moves itself.  Each test empties the
session's Redis (``redis_url`` in conftest.py).
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import subprocess
import sys
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any, AsyncIterator

import pytest
from conftest import (REPO, Client, FakeTime, client, free_port, new_game, play_random_game, relay_processes, run,
                      running_relay)

from tessera.cli import main
from tessera.core.registry import game_class
from tessera.relay.server import Relay, RelayConfig

try:
    import redis.asyncio as aioredis
except ImportError:
    if os.environ.get("CI"):
        raise
    pytest.skip("the redis package is not installed (requirements-dev.txt)", allow_module_level=True)

from tessera.relay.redis_store import DEFAULT_PREFIX, RedisStore, check_state, safe_url  # noqa: E402

FAST = {"rate": 1000, "burst": 1000}
"""Moves far faster than people (the default rate limit would drop them)."""


def first_legal(moves: list[str] | None = None, game: str = "quadrature") -> str:
    engine = game_class(game)()
    for text in moves or []:
        engine.push_text(text)
    return engine.move_text(engine.legal_moves()[0])


@asynccontextmanager
async def relays(redis_url: str, count: int = 2, now: FakeTime | None = None, ttl: float = 3600.0,
                 refresh: float | None = None, **config: Any) -> AsyncIterator[list[Relay]]:
    """``count`` relays in this process, each with its own RedisStore on ``redis_url``."""
    clock: dict[str, Any] = {"now": now} if now is not None else {}
    async with AsyncExitStack() as stack:
        started = []
        for _ in range(count):
            store = RedisStore(redis_url, ttl=ttl, refresh_seconds=refresh, **clock)
            started.append(await stack.enter_async_context(running_relay(RelayConfig(**config), store=store,
                                                                         **clock)))
        yield started


@asynccontextmanager
async def reader(redis_url: str) -> AsyncIterator[RedisStore]:
    """A store to look at Redis with, as a relay would see it (not started: it only reads)."""
    store = RedisStore(redis_url)
    try:
        yield store
    finally:
        await store.close()


async def play(players: list[Client], moves: list[str], count: int) -> None:
    """``count`` more moves (the first legal one each time), each seen by both players."""
    for _ in range(count):
        version = len(moves)
        text = first_legal(moves)
        await players[version % 2].send("move", move=text, version=version)
        moves.append(text)
        for player in players:
            moved = await player.expect("moved")
            assert (moved["move"], moved["version"]) == (text, version + 1)


async def wait_until_gone(store: RedisStore, room_id: str, seconds: float = 10.0) -> None:
    for _ in range(int(seconds / 0.1)):
        if await store.get(room_id) is None:
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"room {room_id} is still in Redis after {seconds} s")


# ----- playing across processes -----------------------------------------------------------
def test_two_relays_share_a_room_and_play_a_whole_game_to_its_end(redis_url: str) -> None:
    """Ann on one relay, Bob on another: a seeded random Quadrature game is played to its end; each move
    reaches both players once and in order, and the record in Redis is the engine's."""
    async def scenario() -> None:
        async with relays(redis_url, **FAST) as (one, two):
            ann, bob, created = await new_game(one, bob_at=two)
            players = [ann, bob]
            engine, version, moved = await play_random_game(players, 11)
            assert moved["result"] == engine.outcome().to_json()
            for player in players:
                assert [m["version"] for m in player.seen if m["type"] == "moved"] == list(range(1, version + 1))
            for relay in (one, two):
                room = await relay.store.get(created["room"])
                assert len(room.state.moves) == engine.ply and room.game.position() == engine.position()
                assert room.result_json() == engine.outcome().to_json()
            await bob.send("move", move=first_legal(), version=version)
            assert (await bob.error())["code"] == "game_over"
    run(scenario())


def test_a_takeback_on_one_relay_then_a_move_on_the_other(redis_url: str) -> None:
    """Ann (on one relay) asks for a takeback, Bob (on the other) accepts; both relays then hold the
    shorter record and play on from it."""
    async def scenario() -> None:
        async with relays(redis_url, **FAST) as (one, two):
            ann, bob, created = await new_game(one, bob_at=two)
            moves: list[str] = []
            await play([ann, bob], moves, 4)
            await ann.send("request_takeback")
            await bob.expect("takeback_requested")
            await bob.send("answer_takeback", accept=True)
            for player in (ann, bob):
                took = await player.expect("took_back")
                assert (took["seat"], took["ply"], took["version"], took["to_move"]) == (0, 2, 5, 0)
            del moves[2:]
            text = first_legal(moves)
            await ann.send("move", move=text, version=5)
            for player in (ann, bob):
                moved = await player.expect("moved")
                assert (moved["ply"], moved["version"]) == (3, 6)
            for relay in (one, two):
                room = await relay.store.get(created["room"])
                assert room.state.moves == moves + [text] and room.game.ply == 3
    run(scenario())


def test_two_relay_processes_with_a_player_on_each(redis_url: str) -> None:
    """Two relay processes on one Redis: moves, a declined draw offer, a player who leaves one process and
    comes back on the other (the opponent sees "disconnected" and "back"), and a resignation."""
    async def scenario() -> None:
        async with relay_processes(redis_url, 2) as (one, two):
            ann, bob, created = await new_game(one.address, bob_at=two.address)
            moves: list[str] = []
            await play([ann, bob], moves, 4)
            await ann.send("offer_draw")
            assert (await bob.expect("draw_offered"))["seat"] == 0
            await bob.send("answer_draw", accept=False)
            assert (await ann.expect("draw_declined"))["seat"] == 1
            await bob.close()
            gone = await ann.expect("presence")
            assert (gone["seat"], gone["status"], gone["name"]) == (1, "disconnected", "Bob")
            bob = await client(one.address)
            await bob.send("join", room=created["room"], secret=created["invite"], since=4)
            state = await bob.expect("state")
            assert (state["you"], state["version"], state["from_ply"], state["moves"]) == (1, 4, 4, [])
            back = await ann.expect("presence")
            assert (back["seat"], back["status"]) == (1, "back")
            await play([ann, bob], moves, 2)
            await bob.send("resign", id=5)
            for player in (ann, bob):
                ended = await player.expect("ended")
                assert ended["result"] == {"winner": 0, "reason": "resign"} and ended["version"] == 7
            await ann.send("move", move=first_legal(moves), version=7)
            assert (await ann.error())["code"] == "game_over"
    run(scenario())


def test_illegal_out_of_turn_and_stale_moves_are_refused_across_processes(redis_url: str) -> None:
    """The relay a move reaches refuses it on the room's shared state; the other process's player hears nothing."""
    async def scenario() -> None:
        async with relay_processes(redis_url, 2) as (one, two):
            ann, bob, created = await new_game(one.address, bob_at=two.address)
            await ann.send("move", move="b9-b5", version=0)
            assert (await ann.error())["code"] == "illegal_move"
            await bob.send("move", move=first_legal(), version=0)
            assert (await bob.error())["code"] == "not_your_turn"
            assert await bob.quiet() == []
            first = first_legal()
            await ann.send("move", move=first, version=0)
            await bob.expect("moved")
            await bob.send("move", move=first_legal([first]), version=0)
            error = await bob.error()
            assert error["code"] == "stale" and error["values"] == {"version": 0, "current": 1}
            assert [m for m in await ann.quiet() if m["type"] != "moved"] == []
            async with reader(redis_url) as store:
                room = await store.get(created["room"])
                assert (room.state.version, room.state.moves) == (1, [first])
    run(scenario())


# ----- surviving a relay's death ---------------------------------------------------------------
def test_a_relay_killed_mid_game_and_the_game_goes_on_through_the_other(redis_url: str) -> None:
    """kill -9 of Ann's relay: Bob moves on, Ann reconnects to the other process with her secret and the
    version she had, gets the move she missed, Bob sees her back, and the game is played to its end."""
    async def scenario() -> None:
        async with relay_processes(redis_url, 2) as (one, two):
            ann, bob, created = await new_game(one.address, bob_at=two.address)
            moves: list[str] = []
            await play([ann, bob], moves, 3)
            await one.kill()
            missed = first_legal(moves)
            await bob.send("move", move=missed, version=3)
            moves.append(missed)
            assert (await bob.expect("moved"))["version"] == 4
            ann = await client(two.address)
            await ann.send("join", room=created["room"], secret=created["secret"], since=3)
            state = await ann.expect("state")
            assert (state["you"], state["version"], state["from_ply"], state["moves"]) == (0, 4, 3, [missed])
            back = await bob.expect("presence")
            assert (back["seat"], back["status"], back["name"]) == (0, "back", "Ann")
            await play([ann, bob], moves, 4)
            await ann.send("offer_draw")
            await bob.expect("draw_offered")
            await bob.send("answer_draw", accept=True)
            for player in (ann, bob):
                ended = await player.expect("ended")
                assert ended["result"] == {"winner": None, "reason": "draw_agreed"} and ended["version"] == 9
    run(scenario())


def test_a_relay_restart_keeps_the_game(redis_url: str) -> None:
    """Every relay process is killed; a new one started on the same Redis has the game, and both players
    come back to it with the moves they lack."""
    async def scenario() -> None:
        async with relay_processes(redis_url, 2) as (one, two):
            ann, bob, created = await new_game(one.address, bob_at=two.address)
            moves: list[str] = []
            await play([ann, bob], moves, 5)
            await one.kill()
            await two.kill()
        async with relay_processes(redis_url, 1) as (fresh,):
            ann = await client(fresh.address)
            await ann.send("join", room=created["room"], secret=created["secret"], since=5)
            state = await ann.expect("state")
            assert (state["version"], state["from_ply"], state["moves"], state["to_move"]) == (5, 5, [], 1)
            bob = await client(fresh.address)
            await bob.send("join", room=created["room"], secret=created["invite"], since=2)
            state = await bob.expect("state")
            assert (state["version"], state["from_ply"], state["moves"]) == (5, 2, moves[2:])
            assert (await ann.expect("presence"))["status"] == "back"
            await play([ann, bob], moves, 2)
            await ann.send("resign")
            for player in (ann, bob):
                assert (await player.expect("ended"))["result"] == {"winner": 1, "reason": "resign"}
    run(scenario())


def test_simultaneous_changes_on_two_relays_are_both_kept_in_one_order(redis_url: str) -> None:
    """Ann moves on one relay while Bob, on the other, offers a draw at the same moment, twenty times:
    one change of each pair is made on a copy that is behind and is made again on the room as it is,
    so both happen, and both players hear every event in the same order."""
    async def scenario() -> None:
        async with relays(redis_url, **FAST, offer_burst=1000, offer_rate=1000) as (one, two):
            ann, bob, created = await new_game(one, bob_at=two)
            moves: list[str] = []
            for _ in range(20):
                text = first_legal(moves)
                await asyncio.gather(ann.send("move", move=text, version=len(moves)), bob.send("offer_draw"))
                moves.append(text)
                seen = []
                for player in (ann, bob):
                    got = []
                    while len(got) < 2:
                        data = await player.recv()
                        if data["type"] in ("moved", "draw_offered"):
                            got.append(data["type"])
                        else:
                            assert data["type"] != "error", data
                    seen.append(got)
                assert seen[0] == seen[1], seen
                await bob.send("move", move=first_legal(moves), version=len(moves))
                moves.append(first_legal(moves))
                for player in (ann, bob):
                    await player.expect("moved")
            async with reader(redis_url) as store:
                room = await store.get(created["room"])
                assert room.state.moves == moves
    run(scenario())


# ----- stored data, caps, expiry, clocks ------------------------------------------------------
def corrupt_states(good: dict[str, Any]) -> list[tuple[str, dict[str, str] | None]]:
    """(what, the room hash's fields to write, or None for a key of the wrong type)."""
    small = {k: v for k, v in good.items() if k not in ("moves", "movers", "plies")}
    return [
        ("not JSON", {"state": "{not json"}),
        ("JSON, not an object", {"state": "[1, 2]"}),
        ("a field missing", {"state": json.dumps({k: v for k, v in small.items() if k != "names"})}),
        ("a field of the wrong type", {"state": json.dumps({**small, "connected": "yes"})}),
        ("the record's lists not lists", {"state": json.dumps(small), "moves": "{}"}),
        ("moves the engine refuses", {"state": json.dumps({**small, "version": 1}), "moves": '["zz-zz"]',
                                      "movers": "[0]", "plies": "[0, 1]"}),
        ("another room's state", {"state": json.dumps({**small, "room_id": "elsewhere"})}),
        ("a key that is not a hash", None),
    ]


def test_a_corrupt_room_in_redis_is_no_access_not_a_crash(redis_url: str) -> None:
    """Whatever is wrong with a stored room, joining it on a relay that must read it gets ``no_access``
    and the relay serves on; a relay whose copy cannot be written any more tells its player so."""
    async def scenario() -> None:
        async with relays(redis_url, 2) as (one, relay):
            ann, bob, created = await new_game(one)
            key = f"{DEFAULT_PREFIX}room:{created['room']}"
            async with aioredis.Redis.from_url(redis_url, decode_responses=True) as raw:
                stored = await raw.hgetall(key)
                good = {**json.loads(stored["state"]),
                        **{name: json.loads(stored[name]) for name in ("moves", "movers", "plies")}}
                assert check_state(good, created["room"]) is None
                for what, fields in corrupt_states(good):
                    if fields is None:
                        await raw.delete(key)
                        await raw.set(key, "just a string")
                    else:
                        await raw.hset(key, mapping={**stored, **fields})
                    probe = await client(relay)
                    await probe.send("join", room=created["room"], secret=created["invite"])
                    error = await probe.error()
                    assert error["code"] == "no_access", what
                    await probe.send("ping", id=1)
                    assert (await probe.expect("pong"))["id"] == 1
                    await probe.close()
                await ann.send("move", move=first_legal(), version=0)
                error = await ann.error()
                assert (error["code"], error["fatal"]) == ("no_access", True)
    run(scenario())


def test_the_room_cap_holds_across_processes(redis_url: str) -> None:
    """Eight players create games at once on two relay processes capped at three rooms: exactly three get one."""
    async def scenario() -> None:
        async with relay_processes(redis_url, 2, "--max-rooms", "3") as (one, two):
            players = [await client((one, two)[i % 2].address, address=f"192.0.2.{i + 1}") for i in range(8)]
            for player in players:
                await player.send("create", game="quadrature")
            answers = await asyncio.gather(*(player.recv() for player in players))
            kinds = sorted(a["type"] if a["type"] != "error" else a["code"] for a in answers)
            assert kinds == ["created"] * 3 + ["too_many_rooms"] * 5
            async with reader(redis_url) as store:
                assert await store.count() == 3
    run(scenario())


def test_rooms_expire_by_themselves_but_not_while_a_player_is_on_a_live_relay(redis_url: str) -> None:
    """With a 2 s expiry: a room with players on live relays outlives it (each relay renews its rooms);
    once they leave it goes; and a room whose relay died with its players' seats still marked connected
    goes too."""
    async def scenario() -> None:
        async with relays(redis_url, 2, ttl=2.0, refresh=0.2) as (one, two):
            ann, bob, created = await new_game(one, bob_at=two)
            await asyncio.sleep(4.5)
            assert await two.store.get(created["room"]) is not None
            await ann.close()
            await bob.close()
            await wait_until_gone(two.store, created["room"])
            assert await one.store.count() == 0

            ann, bob, created = await new_game(one)
            await one.store.close()  # as if the relay died: no more renewals, its players' seats stay marked
            await wait_until_gone(two.store, created["room"])
            probe = await client(two)
            await probe.send("join", room=created["room"], secret=created["secret"])
            assert (await probe.error())["code"] == "lost"
    run(scenario())


def test_the_clock_runs_out_on_either_relay(redis_url: str) -> None:
    """A timed game across two relays: only rooms whose clock may have run out are swept, and the sweep of
    the relay the player out of time is not on ends the game for both."""
    async def scenario() -> None:
        now = FakeTime()
        async with relays(redis_url, now=now, sweep_seconds=0) as (one, two):
            ann, bob, created = await new_game(one, bob_at=two,
                                               time_control={"total": 60, "per_move": None, "increment": 2})
            opening = [first_legal()]                      # each side's first move: no clock yet
            await ann.send("move", move=opening[0], version=0)
            await ann.expect("moved")
            moved = await bob.expect("moved")
            opening.append(first_legal(opening))
            await bob.send("move", move=opening[1], version=moved["version"])
            await bob.expect("moved")
            moved = await ann.expect("moved")
            now.advance(10)
            await ann.send("move", move=first_legal(opening), version=moved["version"])
            await ann.expect("moved")
            moved = await bob.expect("moved")
            assert moved["clock"]["remaining"] == [52.0, 60.0] and moved["clock"]["running"] == 1
            now.advance(59)
            assert await one.store.sweep_ids(now()) == []
            await one.sweep()
            assert await ann.quiet() == []
            now.advance(2)
            assert await one.store.sweep_ids(now()) == [created["room"]]
            await one.sweep()
            for player in (ann, bob):
                assert (await player.expect("ended"))["result"] == {"winner": 0, "reason": "time"}
            assert await two.store.sweep_ids(now()) == []
    run(scenario())


# ----- the command line and the import ------------------------------------------------------
def test_the_command_line_refuses_a_bad_redis_url_and_an_unreachable_redis() -> None:
    """A bad URL and a Redis nobody answers at are one line each, exit status 2, and no password shown."""
    for url, words in (("nope://127.0.0.1", "is not a Redis URL"),
                       (f"redis://:hunter2@127.0.0.1:{free_port()}/0", "cannot use Redis at redis://***@127.0.0.1")):
        out, err = io.StringIO(), io.StringIO()
        assert main(["relay", "--port", "0", "--redis", url], out, err) == 2
        assert words in err.getvalue() and "hunter2" not in err.getvalue(), err.getvalue()
        assert err.getvalue().count("\n") == 1 and out.getvalue() == ""
    assert safe_url("redis://user:pw@[::1]:6380/2") == "redis://user:***@[::1]:6380/2"
    assert safe_url("redis://127.0.0.1:6379/0") == "redis://127.0.0.1:6379/0"


def test_the_relay_package_imports_without_redis_and_websockets() -> None:
    """The site's build imports the whole package in Pyodide, which has neither library."""
    code = ("import sys; sys.modules['redis'] = None; sys.modules['websockets'] = None\n"
            "import tessera.relay.redis_store, tessera.relay.server, tessera.relay.store\n"
            "try:\n    tessera.relay.redis_store.RedisStore('redis://127.0.0.1')\n"
            "except ImportError:\n    print('needs redis')\n")
    done = subprocess.run([sys.executable, "-c", code], env={**os.environ, "PYTHONPATH": str(REPO / "py")},
                          capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout.strip()) == (0, "needs redis"), done.stderr
