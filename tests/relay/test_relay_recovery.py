"""When the relay's storage fails: lost games come back from a player's page, outages are short and quiet.

Two pages (``Device``s from test_remote_client.py: a session and its
``RemoteGame`` over a real socket) play while the relay restarts with its
rooms in memory, or while Redis is restarted without persistence, restarted
as docs/relay.md says to run it, or paused.  A lost game is said to be lost
(``lost``, not ``no_access``) and the player's page makes it again from its
own record; a paused Redis gets "try again" and one log line each way.
"""

from __future__ import annotations

import asyncio
import json
import logging
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator

import pytest
from conftest import NO_PERSISTENCE, client, run
from test_remote_client import start_game

from tessera.relay.redis_store import RedisStore
from tessera.relay.rooms import Room
from tessera.relay.server import Relay, RelayConfig

FAST = {"rate": 1000, "burst": 1000}


@asynccontextmanager
async def relay_on(port: int = 0, store: Any = None, **config: Any) -> AsyncIterator[Relay]:
    """A relay on ``port`` (0: a free one), so a test can start another on the same address."""
    relay = Relay(RelayConfig(host="127.0.0.1", port=port, **config), store)
    await relay.start()
    try:
        yield relay
    finally:
        await relay.stop()


async def play(devices: list[Any], count: int) -> None:
    """``count`` moves, each seen by both pages."""
    for _ in range(count):
        mover = next(device for device in devices if device.session.is_local_turn())
        text = mover.play_first_legal()
        for device in devices:
            await device.until(lambda d=device: d.session.history()[-1:] == [text] and d.remote.unconfirmed == 0)


def kinds(device: Any, kind: str) -> list[Any]:
    return [detail for got, detail in device.events if got == kind]


# ----- a relay restarted with rooms in memory ---------------------------------------------------------
def test_a_relay_restarted_in_memory_gets_the_game_back_from_a_page() -> None:
    """The relay restarts (rooms in memory: all gone); Ann's page rejoins, hears ``lost`` and restores the
    room from its record; Bob's page rejoins the same room with his old link; the game goes on."""
    async def scenario() -> None:
        async with relay_on(**FAST) as first:
            port = first.port
            ann, bob = await start_game(first)
            await play([ann, bob], 5)
            history = ann.session.history()
        await ann.until(lambda: not ann.remote.connected)
        async with relay_on(port, **FAST) as second:
            assert await second.store.count() == 0
            await ann.reconnect()
            assert kinds(ann, "lost") == ["restoring", "restored"]
            assert not kinds(ann, "closed")
            await bob.reconnect()
            assert bob.session.history() == ann.session.history() == history
            assert not kinds(bob, "closed") and not kinds(bob, "lost")
            await ann.until(lambda: ann.remote.opponent.get("connected"))
            await play([ann, bob], 4)
            room = await second.store.get(ann.remote.info.room)
            assert room.state.moves == ann.session.history() and room.state.names == ["Ann", "Bob"]
    run(scenario())


def test_a_spectator_is_told_the_game_is_lost_and_cannot_restore_it() -> None:
    """A page that only watches (no seat's secret) says the relay lost the game; it restores nothing."""
    async def scenario() -> None:
        async with relay_on(**FAST) as relay:
            ann, bob = await start_game(relay)
            await relay.store.remove(ann.remote.info.room)
            watcher = await client(relay)
            await watcher.send("join", room=ann.remote.info.room, secret="a" * 32)
            error = await watcher.error()
            assert (error["code"], error["key"]) == ("lost", "relay.error.lost")
            assert await relay.store.count() == 0
    run(scenario())


# ----- what a restore may and may not do ----------------------------------------------------------------
def test_a_restore_is_checked_like_moves_and_secrets() -> None:
    """A restore with keys that do not make the room's id, a secret that is not a seat's, an illegal move
    or a spectator's token is refused with the usual typed error, and makes no room."""
    async def scenario() -> None:
        async with relay_on(**FAST) as relay:
            ann, bob = await start_game(relay)
            good = ann.remote.restore_message()
            await relay.store.remove(good["room"])
            probe = await client(relay)
            other_keys = [good["keys"][1], good["keys"][0], good["keys"][2]]
            for bad, code in [({**good, "keys": other_keys}, "no_access"),
                              ({**good, "secret": "not a seat's" * 3}, "no_access"),
                              ({**good, "moves": good["moves"] + ["a1-a1"]}, "illegal_move"),
                              ({**good, "moves": ["zz"]}, "bad_notation"),
                              ({**good, "keys": good["keys"][:2]}, "bad_value")]:
                await probe.send_raw(json.dumps(bad))
                assert (await probe.error())["code"] == code
            assert await relay.store.count() == 0
            await probe.send_raw(json.dumps(good))
            state = await probe.expect("state")
            assert (state["you"], state["moves"], state["room"]) == (0, good["moves"], good["room"])
            assert await relay.store.count() == 1
    run(scenario())


def test_a_restore_cannot_give_a_player_more_time() -> None:
    """A timed game restored with a clock claiming more time than the control can have given is capped."""
    room, seat = Room.restore(*restore_args(clock={"remaining": [9999.0, 9999.0], "running": None,
                                                   "move_spent": 0}))
    assert seat == 0 and room.clock is not None
    assert room.clock.remaining == [65.0, 60.0]  # 60 s, and one move of ann's at 5 s increment


def restore_args(clock: Any) -> list[Any]:
    made, secrets_, spectate = Room.create(None, "quadrature", {}, 3, {"total": 60, "per_move": None,
                                                                      "increment": 5})
    text = made.game.move_text(made.game.legal_moves()[0])
    return [made.state.room_id, secrets_[0], made.keys(), "quadrature", {}, 3, made.state.time_control,
            [text], 1, clock, [None, None]]


# ----- Redis restarted, with and without persistence ---------------------------------------------------
def test_redis_restarted_without_persistence_loses_no_game(own_redis: Any, caplog: Any) -> None:
    """Redis restarts with nothing on disk: every room is gone.  The relay's sockets are asked to join
    again, the pages hear ``lost`` (not ``no_access``), Ann's page restores the room from its record,
    Bob's joins it, and the game goes on; the outage is logged once, then its end."""
    redis = own_redis(*NO_PERSISTENCE)

    async def scenario() -> None:
        store = RedisStore(redis.url, ttl=3600)
        async with relay_on(store=store, **FAST) as relay:
            ann, bob = await start_game(relay)
            await play([ann, bob], 6)
            history = ann.session.history()
            redis.restart()
            await ann.until(lambda: not ann.remote.connected, timeout=15)
            await bob.until(lambda: not bob.remote.connected, timeout=15)
            await ann.reconnect()
            await bob.reconnect()
            for device in (ann, bob):
                assert device.session.history() == history
                assert not kinds(device, "closed")
            assert "restored" in kinds(ann, "lost") or "restored" in kinds(bob, "lost")
            await ann.until(lambda: ann.remote.opponent.get("connected"))
            await play([ann, bob], 4)
    with caplog.at_level(logging.WARNING, logger="tessera.relay"):
        run(scenario())
    lines = [r.getMessage() for r in caplog.records if r.name.startswith("tessera.relay")]
    assert sum("out of reach" in line for line in lines) <= 1, lines
    assert not any(r.exc_info for r in caplog.records), "a traceback was logged"


def test_redis_restarted_as_the_docs_say_keeps_every_game(own_redis: Any) -> None:
    """With docs/relay.md's persistence settings, a restart of Redis keeps the room: the pages rejoin
    and play on without restoring anything."""
    redis = own_redis()

    async def scenario() -> None:
        store = RedisStore(redis.url, ttl=3600)
        async with relay_on(store=store, **FAST) as relay:
            ann, bob = await start_game(relay)
            await play([ann, bob], 4)
            redis.restart()
            await ann.until(lambda: not ann.remote.connected, timeout=15)
            await ann.reconnect()
            await bob.until(lambda: not bob.remote.connected, timeout=15)
            await bob.reconnect()
            assert not kinds(ann, "lost") and not kinds(bob, "lost")
            await play([ann, bob], 3)
            assert len(ann.session.history()) == 7
    run(scenario())


# ----- Redis paused ------------------------------------------------------------------------------------------
def test_redis_paused_ten_seconds_gets_try_again_and_two_log_lines(own_redis: Any, caplog: Any) -> None:
    """Redis stops answering for 10 s: a move then is answered ``unavailable`` within the store's
    timeout (not a 5 s stall and ``internal``), the log says the outage began and ended, once each and
    without a traceback, and the game goes on when Redis is back."""
    redis = own_redis()

    async def scenario() -> None:
        store = RedisStore(redis.url, ttl=3600, op_timeout=1.0)
        async with relay_on(store=store, sweep_seconds=0.2, **FAST) as relay:
            ann, bob = await start_game(relay)
            await play([ann, bob], 2)
            redis.pause()
            try:
                loop = asyncio.get_running_loop()
                started = loop.time()
                probe = await client(relay)
                answers = []
                while loop.time() - started < 10:
                    asked = loop.time()
                    await probe.send("join", room=ann.remote.info.room, secret=ann.remote.info.secret)
                    answers.append(((await probe.error(timeout=5))["code"], loop.time() - asked))
                    await asyncio.sleep(0.5)
            finally:
                redis.resume()
            assert {code for code, _ in answers} == {"unavailable"}
            assert max(seconds for _, seconds in answers) < 2.5, answers
            await play([ann, bob], 2)
    with caplog.at_level(logging.WARNING, logger="tessera.relay"):
        run(scenario())
    lines = [r.getMessage() for r in caplog.records if r.name.startswith("tessera.relay")]
    assert sum("out of reach" in line for line in lines) == 1, lines
    assert sum("is back after" in line for line in lines) == 1, lines
    assert not any(r.exc_info for r in caplog.records), "a traceback was logged"


@pytest.mark.parametrize("share", [2])
def test_an_addresss_share_of_rooms_holds_across_relay_processes(redis_url: str, share: int) -> None:
    """Rooms made by one address count on every relay over the same Redis."""
    async def scenario() -> None:
        config = {"rooms_per_address": share, "start_burst": 100}
        async with relay_on(store=RedisStore(redis_url), **config) as one, \
                relay_on(store=RedisStore(redis_url), **config) as two:
            codes = []
            for relay in (one, two, one, two):
                player = await client(relay, address="203.0.113.20")
                await player.send("create", game="quadrature")
                answer = await player.recv()
                codes.append(answer.get("code", answer["type"]))
            assert codes == ["created", "created", "address_rooms", "address_rooms"]
    run(scenario())


def test_a_room_nobody_joined_expires_from_redis_by_itself(redis_url: str) -> None:
    """In Redis a room whose second player never came lives ``pending_ttl`` after its creator left;
    a joined one lives ``ttl``."""
    async def scenario() -> None:
        store = RedisStore(redis_url, ttl=3600, pending_ttl=1.0, refresh_seconds=0.2)
        async with relay_on(store=store, **FAST) as relay:
            lonely = await client(relay)
            await lonely.send("create", game="quadrature")
            made = await lonely.expect("created")
            ann, bob = await start_game(relay)
            await asyncio.sleep(1.5)
            assert await store.get(made["room"]) is not None  # its creator is still there
            await lonely.close()
            await asyncio.sleep(2.0)
            assert await store.get(made["room"]) is None
            assert await store.get(ann.remote.info.room) is not None
    run(scenario())
