"""One stranger with a script against the relay: each way it could take the relay down, tried.

Every test is a repro of issue 23's list, with real sockets: one address
filling the room cap or the connection cap, spectator sockets held open,
joins naming made-up rooms, draw-offer spam into a crowded room, WebSocket
ping floods and binary frames.  The relay must refuse with a typed error,
keep its memory bounded and serve everyone else.
"""

from __future__ import annotations

import asyncio
import secrets

import pytest
from conftest import FakeTime, client, new_game, run, running_relay
from websockets.exceptions import ConnectionClosed

from tessera.core.registry import game_class
from tessera.relay.server import RelayConfig


def first_move() -> str:
    engine = game_class("quadrature")()
    return engine.move_text(engine.legal_moves()[0])


async def create(relay, address: str, **fields) -> dict:
    """One connect-create from ``address``: the first answer (``created`` or an error)."""
    player = await client(relay, address=address)
    await player.send("create", game="quadrature", **fields)
    answer = await player.recv()
    player.kept = answer  # type: ignore[attr-defined]
    return answer


# ----- 1. rooms: creates per address, a share of the cap, unjoined rooms expire ---------------------
def test_one_address_cannot_fill_the_room_cap_by_connect_create_close() -> None:
    """Connect, create, close, from one address, again and again: it gets its share of the rooms (5%
    of the cap) and no more; rooms are left for everyone else."""
    async def scenario() -> None:
        config = RelayConfig(max_rooms=100, start_burst=1000, starts_per_minute=1000)
        async with running_relay(config) as relay:
            codes = []
            for _ in range(30):
                player = await client(relay, address="203.0.113.7")
                await player.send("create", game="quadrature")
                answer = await player.recv()
                codes.append(answer["type"] if answer["type"] != "error" else answer["code"])
                await player.close()
            assert codes.count("created") == config.address_rooms == 5
            assert set(codes[5:]) == {"address_rooms"}
            assert await relay.store.count() == 5
            for index in range(3):  # others still create
                assert (await create(relay, f"198.51.100.{index + 1}"))["type"] == "created"
    run(scenario())


def test_creates_from_one_address_are_paced() -> None:
    """Past ``start_burst`` rooms made in a row, an address waits (``address_busy``), even if it closes
    every socket; another address is not held up."""
    async def scenario() -> None:
        config = RelayConfig(start_burst=3, starts_per_minute=1, rooms_per_address=100)
        async with running_relay(config) as relay:
            answers = [await create(relay, "203.0.113.8") for _ in range(5)]
            assert [a.get("code", a["type"]) for a in answers] == ["created"] * 3 + ["address_busy"] * 2
            assert (await create(relay, "203.0.113.9"))["type"] == "created"
    run(scenario())


def test_a_room_nobody_joined_expires_within_minutes_and_a_joined_one_does_not() -> None:
    """A room whose invite was never used goes ``pending_seconds`` after its creator left; a game both
    players joined stays until ``idle_seconds``."""
    async def scenario() -> None:
        now = FakeTime()
        config = RelayConfig(sweep_seconds=0, pending_seconds=600, idle_seconds=6 * 3600)
        async with running_relay(config, now=now) as relay:
            lonely = await client(relay)
            await lonely.send("create", game="quadrature")
            abandoned = await lonely.expect("created")
            ann, bob, played = await new_game(relay)
            for player in (lonely, ann, bob):
                await player.close()
            await asyncio.sleep(0.1)
            now.advance(601)
            await relay.sweep()
            assert await relay.store.get(abandoned["room"]) is None
            assert await relay.store.get(played["room"]) is not None
            late = await client(relay)
            await late.send("join", room=abandoned["room"], secret=abandoned["invite"])
            assert (await late.error())["code"] == "lost"
    run(scenario())


# ----- 2. sockets: per address, spectators per room, idle joined sockets ------------------------------
def test_one_address_cannot_hold_every_connection_slot() -> None:
    """One address gets its share of the connection cap; the next socket from it is refused with
    ``address_connections`` and close code 1013, while another address connects."""
    async def scenario() -> None:
        async with running_relay(RelayConfig(max_connections=100)) as relay:
            held = [await client(relay, address="203.0.113.10") for _ in range(5)]
            extra = await client(relay, address="203.0.113.10")
            error = await extra.error()
            assert (error["code"], error["fatal"], error["values"]) == ("address_connections", True, {"count": 5})
            with pytest.raises(ConnectionClosed) as closed:
                await extra.recv()
            assert closed.value.rcvd.code == 1013
            other = await client(relay, address="203.0.113.11")
            await other.send("ping")
            await other.expect("pong")
            await held[0].send("ping")
            await held[0].expect("pong")
    run(scenario())


def test_spectators_of_one_room_are_capped() -> None:
    """Past ``spectators_per_room`` watchers, one more gets ``too_many_spectators`` and the players
    are unaffected."""
    async def scenario() -> None:
        async with running_relay(RelayConfig(spectators_per_room=3)) as relay:
            ann, bob, created = await new_game(relay)
            watchers = []
            for index in range(4):
                watcher = await client(relay, address=f"192.0.2.{index + 1}")
                await watcher.send("join", room=created["room"], secret=created["spectate"])
                watchers.append(await watcher.recv())
            assert [w["type"] for w in watchers[:3]] == ["state"] * 3
            assert (watchers[3]["code"], watchers[3]["values"]) == ("too_many_spectators", {"count": 3})
            await ann.send("move", move=first_move(), version=0)
            assert (await bob.expect("moved"))["version"] == 1
    run(scenario())


def test_a_joined_socket_that_says_nothing_is_closed() -> None:
    """A joined socket silent for ``socket_idle_seconds`` gets ``idle`` and is closed; one that pings
    in time stays."""
    async def scenario() -> None:
        async with running_relay(RelayConfig(socket_idle_seconds=0.6)) as relay:
            ann, bob, created = await new_game(relay)
            for _ in range(4):
                await asyncio.sleep(0.3)
                await ann.send("ping")
                await ann.expect("pong")
            error = await bob.error()
            assert (error["code"], error["fatal"]) == ("idle", True)
            with pytest.raises(ConnectionClosed):
                await bob.recv()
            await ann.send("ping")
            await ann.expect("pong")
            assert [m["status"] for m in ann.seen if m["type"] == "presence"] == ["connected", "disconnected"]
    run(scenario())


# ----- 3. joins naming made-up rooms leave nothing behind -----------------------------------------------
def test_joins_of_made_up_rooms_leave_no_lock_behind() -> None:
    """A thousand joins naming room ids that do not exist are refused and leave no lock, watcher or
    seat entry behind (the in-memory store once kept a lock per id named, forever)."""
    async def scenario() -> None:
        config = RelayConfig(rate=10_000, burst=10_000, join_burst=10_000, joins_per_minute=10_000)
        async with running_relay(config) as relay:
            probe = await client(relay)
            for _ in range(1000):
                await probe.send("join", room=secrets.token_urlsafe(12), secret="x" * 32)
            codes = {(await probe.error())["code"] for _ in range(1000)}
            assert codes == {"lost"}
            assert relay.store.locks_held == 0 and relay.watchers == {} and relay.seat_holders == {}
            ann, bob, created = await new_game(relay)
            assert relay.store.locks_held == 0
    run(scenario())


def test_joins_from_one_address_are_paced() -> None:
    """Joining again and again (each join tells the room's sockets a player came) is paced per address."""
    async def scenario() -> None:
        async with running_relay(RelayConfig(join_burst=5, joins_per_minute=1)) as relay:
            ann, bob, created = await new_game(relay)
            probe = await client(relay, address="203.0.113.12")
            codes = []
            for _ in range(7):
                await probe.send("join", room=created["room"], secret="wrong" * 8)
                codes.append((await probe.error())["code"])
            assert codes == ["no_access"] * 5 + ["address_busy"] * 2
    run(scenario())


# ----- 6. fan-out: what a seat may broadcast is paced ----------------------------------------------------
def test_draw_offer_spam_is_paced_and_the_spectators_hear_little_of_it() -> None:
    """A seat that offers a draw and its opponent who declines, over and over, in front of the room's
    spectators: past ``offer_burst`` each gets ``too_often``, the room's state is unharmed, and each
    spectator hears a bounded number of events."""
    async def scenario() -> None:
        config = RelayConfig(rate=1000, burst=1000, offer_burst=3, offer_rate=0.01, spectators_per_room=5)
        async with running_relay(config) as relay:
            ann, bob, created = await new_game(relay)
            watchers = []
            for index in range(5):
                watcher = await client(relay, address=f"192.0.2.{index + 10}")
                await watcher.send("join", room=created["room"], secret=created["spectate"])
                await watcher.expect("state")
                watchers.append(watcher)
            refused = 0
            for _ in range(50):
                await ann.send("offer_draw")
                await bob.send("answer_draw", accept=False)
            for player in (ann, bob):
                for data in await player.quiet(0.5):
                    refused += data.get("code") == "too_often"
            assert refused >= 2 * (50 - 3)
            heard = [len(await watcher.quiet(0.3)) for watcher in watchers]
            assert max(heard) <= 2 * 3, heard
            await ann.send("move", move=first_move(), version=0)
            assert (await bob.expect("moved"))["version"] == 1
    run(scenario())


# ----- 7. ping frames count -------------------------------------------------------------------------------
def test_a_flood_of_websocket_pings_is_rate_limited_and_closed() -> None:
    """WebSocket ping frames count against the connection's bucket: a flood is answered only until the
    bucket is empty, then the socket is closed with 1008."""
    async def scenario() -> None:
        config = RelayConfig(rate=5, burst=20)
        async with running_relay(config) as relay:
            flooder = await client(relay)
            waiters = []
            with pytest.raises(ConnectionClosed) as closed:
                for _ in range(5000):
                    waiters.append(await flooder.socket.ping())
                    await asyncio.sleep(0)
                await flooder.recv(5)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
            answered = sum(1 for w in waiters if w.done() and not w.cancelled() and w.exception() is None)
            assert answered <= 2 * config.burst + 5, answered
            other = await client(relay)
            await other.send("ping")
            await other.expect("pong")
    run(scenario())


# ----- 8. binary frames ------------------------------------------------------------------------------------
def test_a_binary_frame_holding_a_move_is_refused_and_plays_nothing() -> None:
    """The protocol says text: a binary frame holding a valid move gets ``not_text`` and the game is unchanged."""
    async def scenario() -> None:
        async with running_relay() as relay:
            ann, bob, created = await new_game(relay)
            await ann.send_raw(('{"type":"move","protocol":1,"move":"%s","version":0}' % first_move()).encode())
            error = await ann.error()
            assert (error["code"], error["fatal"]) == ("not_text", False)
            assert await bob.quiet() == []
            assert (await relay.store.get(created["room"])).state.version == 0
    run(scenario())


# ----- who counts as one address ----------------------------------------------------------------------
def test_the_address_a_client_counts_as() -> None:
    """The peer, unless it is a trusted proxy: then the right-most forwarded address that is not one
    (what a client writes to the left of it is ignored); IPv6 counts by its /64."""
    from tessera.relay.addresses import client_address, trusted_set

    trusted = trusted_set(["127.0.0.1", "::1", "172.30.0.0/24"])
    assert client_address(("203.0.113.5", 4000), None, trusted) == "203.0.113.5"
    assert client_address(("203.0.113.5", 4000), "198.51.100.1", trusted) == "203.0.113.5"  # not a proxy
    assert client_address(("127.0.0.1", 4000), "198.51.100.1", trusted) == "198.51.100.1"
    assert client_address(("172.30.0.1", 4000), "1.2.3.4, 198.51.100.1", trusted) == "198.51.100.1"
    assert client_address(("127.0.0.1", 4000), "198.51.100.1, 172.30.0.9", trusted) == "198.51.100.1"
    assert client_address(("127.0.0.1", 4000), "not an address", trusted) == "127.0.0.1"
    assert client_address(("127.0.0.1", 4000), None, trusted) == "127.0.0.1"
    assert client_address(("::1", 4000, 0, 0), "2001:db8:1:2::5", trusted) == "2001:db8:1:2::/64"
    assert client_address(("2001:db8:1:2::7", 4000, 0, 0), None, trusted) == "2001:db8:1:2::/64"
    assert client_address(("::ffff:198.51.100.7", 4000, 0, 0), None, trusted) == "198.51.100.7"
    assert client_address(None, "198.51.100.1", trusted) == "unknown"


def test_the_command_line_refuses_a_trusted_proxy_that_is_not_an_address() -> None:
    import io

    from tessera.cli import main

    out, err = io.StringIO(), io.StringIO()
    assert main(["relay", "--port", "0", "--trust-proxy", "proxy.example"], out, err) == 2
    assert "--trust-proxy proxy.example" in err.getvalue() and err.getvalue().count("\n") == 1
