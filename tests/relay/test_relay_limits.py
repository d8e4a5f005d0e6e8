"""The relay's edges: malformed and oversized messages, floods, caps, origins, timeouts, idle rooms."""

from __future__ import annotations

import asyncio
import json

import pytest
from conftest import FakeTime, client, new_game, run, running_relay, url
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from tessera.core.registry import game_class
from tessera.relay.protocol import MAX_DEPTH, MAX_MESSAGE_BYTES, TRANSPORT_MAX_BYTES
from tessera.relay.server import RelayConfig


def first_move() -> str:
    engine = game_class("quadrature")()
    return engine.move_text(engine.legal_moves()[0])


MALFORMED = [
    ("{not json", "bad_json"),
    ('{"type": "ping", "protocol": 1, "protocol": 1}', "bad_json"),
    ('{"type": "ping", "protocol": NaN}', "bad_json"),
    ("[1, 2, 3]", "not_object"),
    ('"ping"', "not_object"),
    ('{"type": "ping"}', "missing_field"),
    ('{"type": "ping", "protocol": 2}', "bad_protocol"),
    ('{"type": "ping", "protocol": true}', "bad_protocol"),
    ('{"protocol": 1}', "missing_field"),
    ('{"type": 5, "protocol": 1}', "wrong_type"),
    ('{"type": "teleport", "protocol": 1}', "unknown_type"),
    ('{"type": "ping", "protocol": 1, "extra": 1}', "extra_field"),
    ('{"type": "move", "protocol": 1, "move": "b9-b8"}', "missing_field"),
    ('{"type": "move", "protocol": 1, "move": 5, "version": 0}', "wrong_type"),
    ('{"type": "move", "protocol": 1, "move": "b9-b8", "version": "0"}', "wrong_type"),
    ('{"type": "move", "protocol": 1, "move": "b9-b8", "version": true}', "wrong_type"),
    ('{"type": "move", "protocol": 1, "move": "b9-b8", "version": -1}', "bad_value"),
    ('{"type": "move", "protocol": 1, "move": "", "version": 0}', "bad_value"),
    ('{"type": "answer_draw", "protocol": 1, "accept": 1}', "wrong_type"),
    ('{"type": "ping", "protocol": 1, "id": "x"}', "wrong_type"),
    ('{"type": "create", "protocol": 1, "game": "chess"}', "bad_game"),
    ('{"type": "create", "protocol": 1, "game": "abatis"}', "not_two_players"),
    ('{"type": "create", "protocol": 1, "game": "quadrature", "options": {"first": "red"}}', "bad_game"),
    ('{"type": "create", "protocol": 1, "game": "quadrature", "options": {"nope": 1}}', "bad_game"),
    ('{"type": "create", "protocol": 1, "game": "quadrature", "time_control": {"total": -5}}', "bad_game"),
    ('{"type": "create", "protocol": 1, "game": "quadrature", "seat": 2}', "bad_value"),
    ('{"type": "join", "protocol": 1, "room": [], "secret": "x"}', "wrong_type"),
    ("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), "too_deep"),
    ('{"type": "ping", "protocol": 1, "a": ' + "[" * 10000 + "]" * 10000 + "}", "too_large"),
    (b'{"type": "ping", "protocol": 1}', "not_text"),
]


@pytest.mark.parametrize("raw, code", MALFORMED, ids=[code for _, code in MALFORMED])
def test_a_malformed_message_gets_a_typed_error_and_the_connection_goes_on(raw: str | bytes, code: str) -> None:
    """Bad JSON, wrong types, unknown types, extra or missing fields, deep nesting: a typed error each,
    worded by a catalog key, and the connection still answers."""
    async def scenario() -> None:
        async with running_relay() as relay:
            probe = await client(relay)
            await probe.send_raw(raw)
            error = await probe.error()
            assert error["code"] == code and error["key"] == f"relay.error.{code}" and error["fatal"] is False
            await probe.send("ping", id=9)
            assert await probe.recv() == {"type": "pong", "protocol": 1, "id": 9}
    run(scenario())


def test_malformed_messages_in_a_game_change_nothing() -> None:
    """A player who sends garbage between moves gets errors; the room's state and the opponent are untouched."""
    async def scenario() -> None:
        async with running_relay(RelayConfig(rate=1000, burst=1000)) as relay:
            ann, bob, created = await new_game(relay)
            for raw, _code in MALFORMED:
                await ann.send_raw(raw)
                await ann.error()
            assert await bob.quiet() == []
            room = await relay.store.get(created["room"])
            assert (room.state.version, room.state.moves, room.state.result) == (0, [], None)
            await ann.send("move", move=first_move(), version=0)
            assert (await bob.expect("moved"))["version"] == 1
    run(scenario())


def test_an_oversized_message_is_refused_and_a_huge_one_closes_the_socket() -> None:
    """Past our cap: a ``too_large`` error before any parsing; past the socket's cap: closed with 1009."""
    async def scenario() -> None:
        async with running_relay() as relay:
            ann, bob, created = await new_game(relay)
            padding = "x" * (MAX_MESSAGE_BYTES + 1)
            await ann.send_raw(json.dumps({"type": "move", "protocol": 1, "move": padding, "version": 0}))
            error = await ann.error()
            assert error["code"] == "too_large" and error["values"] == {"count": MAX_MESSAGE_BYTES}
            await ann.send("ping")
            await ann.expect("pong")
            await bob.send_raw("x" * (TRANSPORT_MAX_BYTES + 1))
            with pytest.raises(ConnectionClosed) as closed:
                await bob.recv()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
            gone = await ann.expect("presence")
            assert gone["status"] == "disconnected"
            room = await relay.store.get(created["room"])
            assert room.state.version == 0
    run(scenario())


def test_a_flood_beyond_the_rate_limit_is_dropped_then_disconnected_and_the_room_is_unharmed() -> None:
    """Bursts past the token bucket are dropped with one ``rate_limited`` error; a client flooding on is
    closed with 1008; the room and the other player go on."""
    async def scenario() -> None:
        async with running_relay(RelayConfig(rate=2, burst=8)) as relay:
            ann, bob, created = await new_game(relay)
            for _ in range(200):
                await bob.send("move", move="b9-b8", version=0)
            errors = []
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    data = await bob.recv()
                    if data["type"] == "error":
                        errors.append((data["code"], data["fatal"]))
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
            assert ("rate_limited", False) in errors and errors[-1] == ("rate_limited", True)
            assert {code for code, _ in errors} <= {"rate_limited", "not_your_turn"}
            await ann.send("move", move=first_move(), version=0)
            assert (await ann.expect("moved"))["version"] == 1
            room = await relay.store.get(created["room"])
            assert room.state.moves == [first_move()]
            bob = await client(relay)
            await bob.send("join", room=created["room"], secret=created["invite"])
            assert (await bob.expect("state"))["version"] == 1
    run(scenario())


def test_a_slow_burst_within_the_limit_is_served_in_full() -> None:
    async def scenario() -> None:
        async with running_relay(RelayConfig(rate=100, burst=20)) as relay:
            probe = await client(relay)
            for number in range(20):
                await probe.send("ping", id=number)
            assert [(await probe.recv())["id"] for _ in range(20)] == list(range(20))
    run(scenario())


def test_the_room_cap_and_the_per_connection_quota() -> None:
    """Past ``max_rooms`` a create gets ``too_many_rooms``; one connection may create ``rooms_per_connection``."""
    async def scenario() -> None:
        async with running_relay(RelayConfig(max_rooms=2)) as relay:
            for _ in range(2):
                player = await client(relay)
                await player.send("create", game="quadrature")
                await player.expect("state")
            late = await client(relay)
            await late.send("create", game="quadrature")
            error = await late.error()
            assert error["code"] == "too_many_rooms" and error["values"] == {"count": 2}
            await player.send("create", game="quadrature")
            assert (await player.error())["code"] == "already_joined"
            assert await relay.store.count() == 2
    run(scenario())


def test_the_connection_cap() -> None:
    """One socket past ``max_connections`` gets ``too_many_connections`` and close code 1013."""
    async def scenario() -> None:
        async with running_relay(RelayConfig(max_connections=2)) as relay:
            first, second = await client(relay), await client(relay)
            third = await client(relay)
            error = await third.error()
            assert (error["code"], error["fatal"], error["values"]) == ("too_many_connections", True, {"count": 2})
            with pytest.raises(ConnectionClosed) as closed:
                await third.recv()
            assert closed.value.rcvd.code == 1013
            await first.send("ping")
            await first.expect("pong")
            await second.close()
            await asyncio.sleep(0.1)
            fourth = await client(relay)
            await fourth.send("ping")
            await fourth.expect("pong")
    run(scenario())


def test_a_socket_that_joins_nothing_is_closed() -> None:
    async def scenario() -> None:
        async with running_relay(RelayConfig(join_timeout=0.2)) as relay:
            idle = await client(relay)
            error = await idle.error()
            assert error["code"] == "join_timeout" and error["fatal"] is True
            with pytest.raises(ConnectionClosed):
                await idle.recv()
    run(scenario())


def test_the_origin_allow_list() -> None:
    """With ``origins`` set, a page from elsewhere is refused in the handshake (HTTP 403)."""
    async def scenario() -> None:
        async with running_relay(RelayConfig(origins=["https://games.example"])) as relay:
            with pytest.raises(InvalidStatus) as refused:
                await connect(url(relay), origin="https://evil.example")
            assert refused.value.response.status_code == 403
            with pytest.raises(InvalidStatus):
                await connect(url(relay))
            welcome = await client(relay, origin="https://games.example")
            await welcome.send("ping")
            await welcome.expect("pong")
    run(scenario())


def test_an_idle_room_expires_but_not_while_a_player_is_connected() -> None:
    """A room nobody is connected to for ``idle_seconds`` is removed by the sweep; a connected one stays."""
    async def scenario() -> None:
        now = FakeTime()
        async with running_relay(RelayConfig(sweep_seconds=0, idle_seconds=600), now=now) as relay:
            ann, bob, created = await new_game(relay)
            now.advance(3600)
            await relay.sweep()
            assert await relay.store.get(created["room"]) is not None
            await ann.close()
            await bob.close()
            await asyncio.sleep(0.1)
            now.advance(599)
            await relay.sweep()
            assert await relay.store.get(created["room"]) is not None
            now.advance(2)
            await relay.sweep()
            assert await relay.store.get(created["room"]) is None
            late = await client(relay)
            await late.send("join", room=created["room"], secret=created["secret"])
            assert (await late.error())["code"] == "lost"
    run(scenario())
