"""The page's side of remote play (``core.remote``) against a real relay.

Two local sessions, as two browsers would hold them, each kept in step with
the relay by a ``RemoteGame`` over a real socket: the moves made on one
appear on the other; a reconnect catches up; resign, draws and takebacks
reach both; a device that went wrong is put right by the relay's game.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from conftest import TIMEOUT, run, running_relay, url
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from tessera.core.game import Outcome
from tessera.core.remote import RemoteGame, RemoteInfo, relay_message, session_from_state
from tessera.core.seats import RemoteParticipant, SessionError
from tessera.i18n import t


class Device:
    """One player's page: a session, its RemoteGame, and a socket that rejoins on resync."""

    def __init__(self, address: str, session: Any, info: RemoteInfo) -> None:
        self.address = address
        self.session = session
        self.events: list[tuple[str, Any]] = []
        self.remote = RemoteGame(session, info, self._send, self._notify)
        self.socket: Any = None
        self.reader: asyncio.Task | None = None
        self.outbox: list[dict[str, Any]] = []

    def _send(self, data: dict[str, Any]) -> None:
        self.outbox.append(data)
        if self.socket is not None:
            asyncio.ensure_future(self._write(data))

    async def _write(self, data: dict[str, Any]) -> None:
        try:
            await self.socket.send(json.dumps(data))
        except ConnectionClosed:
            pass

    def _notify(self, kind: str, detail: Any) -> None:
        self.events.append((kind, detail))
        if kind == "resync":
            if detail is None:
                asyncio.ensure_future(self.reconnect())

    async def connect(self) -> None:
        self.socket = await connect(self.address, open_timeout=TIMEOUT)
        self.reader = asyncio.create_task(self._read(self.socket))
        await self.socket.send(json.dumps(self.remote.hello()))
        await self.until(lambda: self.remote.connected)

    async def _read(self, socket: Any) -> None:
        try:
            async for raw in socket:
                self.remote.receive(json.loads(raw))
        except ConnectionClosed:
            pass
        if socket is self.socket:
            self.remote.disconnected()

    async def drop(self) -> None:
        socket, self.socket = self.socket, None
        await socket.close()
        await self.reader
        self.remote.disconnected()

    async def reconnect(self) -> None:
        if self.socket is not None:
            await self.drop()
        await self.connect()

    async def until(self, condition: Any, timeout: float = TIMEOUT) -> None:
        async def wait() -> None:
            while not condition():
                await asyncio.sleep(0.01)
        await asyncio.wait_for(wait(), timeout)

    def play_first_legal(self) -> str:
        game = self.session.game
        event = self.session.play(game.legal_moves()[0])
        return event.text


async def start_game(relay: Any, game: str = "quadrature", **create: Any) -> tuple[Device, Device]:
    """Ann creates a room the way the new-game dialog does, Bob opens the invite."""
    address = url(relay)
    async with connect(address, open_timeout=TIMEOUT) as socket:
        await socket.send(json.dumps({"type": "create", "protocol": 1, "game": game, "name": "Ann", **create}))
        created = json.loads(await socket.recv())
        state = json.loads(await socket.recv())
    assert created["type"] == "created" and state["type"] == "state"
    ann_info = RemoteInfo(address, created["room"], created["secret"], created["seat"], invite=created["invite"])
    ann = Device(address, session_from_state(state, ann_info, "ann"), ann_info)
    await ann.connect()
    bob_info = RemoteInfo(address, created["room"], created["invite"], 1 - created["seat"])
    async with connect(address, open_timeout=TIMEOUT) as socket:
        await socket.send(json.dumps({"type": "join", "protocol": 1, "room": bob_info.room,
                                      "secret": bob_info.secret, "name": "Bob"}))
        bob_state = json.loads(await socket.recv())
    bob = Device(address, session_from_state(bob_state, bob_info, "bob"), bob_info)
    await bob.connect()
    await ann.until(lambda: ann.remote.opponent.get("connected"))
    return ann, bob


def test_two_devices_play_a_game_and_each_sees_the_others_moves() -> None:
    async def scenario() -> None:
        async with running_relay() as relay:
            ann, bob = await start_game(relay)
            assert ann.session.seats[1].kind == "remote" and bob.session.seats[0].kind == "remote"
            assert isinstance(ann.session.participants[1], RemoteParticipant)
            assert not ann.session.is_local_seat(1) and bob.session.is_local_seat(1)
            for _ in range(12):
                mover = ann if ann.session.is_local_turn() else bob
                other = bob if mover is ann else ann
                text = mover.play_first_legal()
                await other.until(lambda: other.session.history()[-1:] == [text])
                await mover.until(lambda: mover.remote.unconfirmed == 0)
            assert ann.session.history() == bob.session.history()
            assert ann.remote.info.version == bob.remote.info.version == 12
            assert ann.remote.opponent["name"] == "Bob" and bob.remote.opponent["name"] == "Ann"
    run(scenario())


def test_a_device_that_was_away_catches_up_on_rejoin_and_its_opponent_saw_it_go() -> None:
    async def scenario() -> None:
        async with running_relay() as relay:
            ann, bob = await start_game(relay)
            ann.play_first_legal()
            await bob.until(lambda: bob.session.game.ply == 1)
            await bob.drop()
            await ann.until(lambda: ann.remote.opponent.get("status") == "disconnected")
            # Bob's page is closed: a new session from his save, and Ann's next moves wait for him
            saved = bob.session.to_save()
            from tessera.core.session import Session
            reopened = Session.from_save(saved)
            info = RemoteInfo.from_json(saved["meta"]["remote"] | {"version": bob.remote.info.version})
            bob = Device(bob.address, reopened, info)
            await bob.connect()
            assert bob.session.history() == ann.session.history()
            await ann.until(lambda: ann.remote.opponent.get("status") == "back")
            text = bob.play_first_legal()
            await ann.until(lambda: ann.session.history()[-1:] == [text])
    run(scenario())


def test_moves_missed_while_away_replay_in_order() -> None:
    async def scenario() -> None:
        async with running_relay() as relay:
            ann, bob = await start_game(relay)
            ann.play_first_legal()
            await bob.until(lambda: bob.session.game.ply == 1)
            await ann.drop()
            # Ann is away; a second device of Ann's (her phone, same secret) plays on
            phone = Device(ann.address, session_from_state_copy(ann), RemoteInfo(
                ann.address, ann.remote.info.room, ann.remote.info.secret, 0, version=ann.remote.info.version))
            await phone.connect()
            bob.play_first_legal()
            await phone.until(lambda: phone.session.game.ply == 2)
            phone.play_first_legal()
            await bob.until(lambda: bob.session.game.ply == 3)
            await phone.drop()
            await ann.connect()            # the laptop again: it missed two moves, one of them its own seat's
            assert ann.session.history() == bob.session.history()
    run(scenario())


def session_from_state_copy(device: Device) -> Any:
    from tessera.core.session import Session
    return Session.from_save(device.session.to_save())


def test_resign_and_an_accepted_draw_reach_both_devices() -> None:
    async def scenario() -> None:
        async with running_relay() as relay:
            ann, bob = await start_game(relay)
            ann.session.offer_draw(0)
            await bob.until(lambda: bob.session.draw_offer == 0)
            bob.session.answer_draw(1, False)
            await ann.until(lambda: ann.session.draw_offer is None)
            assert ("draw_declined" in [kind for kind, _ in ann.events]) or ann.session.draw_offer is None
            bob.session.offer_draw(1)
            await ann.until(lambda: ann.session.draw_offer == 1)
            ann.session.answer_draw(0, True)
            await bob.until(lambda: bob.session.is_over())
            assert bob.session.outcome() == Outcome(None, "draw_agreed")

            carl, dana = await start_game(relay)
            dana.session.resign(1)
            await carl.until(lambda: carl.session.is_over())
            assert carl.session.outcome() == Outcome(0, "resign")
            await dana.until(lambda: dana.remote.info.version == carl.remote.info.version)
    run(scenario())


def test_a_takeback_asked_and_accepted_takes_the_move_back_on_both() -> None:
    async def scenario() -> None:
        async with running_relay() as relay:
            ann, bob = await start_game(relay)
            ann.play_first_legal()
            await bob.until(lambda: bob.session.game.ply == 1)
            ann.remote.request_takeback()
            await bob.until(lambda: ("takeback_asked", None) in bob.events or bob.remote.takeback == 0)
            bob.remote.answer_takeback(True)
            await ann.until(lambda: ann.session.game.ply == 0)
            await bob.until(lambda: bob.session.game.ply == 0)
            assert ann.remote.info.version == bob.remote.info.version == 2
            text = ann.play_first_legal()
            await bob.until(lambda: bob.session.history() == [text])
    run(scenario())


def test_a_device_out_of_step_is_put_right_by_the_relays_game() -> None:
    """A move the relay refuses (made on an old state) is taken back here and the
    relay's game stands; the player is told."""
    async def scenario() -> None:
        async with running_relay() as relay:
            ann, bob = await start_game(relay)
            ann.play_first_legal()
            await bob.until(lambda: bob.session.game.ply == 1)
            # Bob's device wrongly believes an older version: its move is stale
            bob.remote.info.version = 0
            bob.play_first_legal()
            await bob.until(lambda: any(kind == "error" for kind, _ in bob.events))
            error = next(detail for kind, detail in bob.events if kind == "error")
            assert error.key == "relay.error.stale"
            await bob.until(lambda: bob.remote.connected and bob.session.game.ply == 1)
            assert bob.session.history() == ann.session.history()
            text = bob.play_first_legal()           # and the game goes on
            await ann.until(lambda: ann.session.history()[-1:] == [text])
    run(scenario())


def test_the_relay_keeps_the_clock() -> None:
    async def scenario() -> None:
        async with running_relay() as relay:
            ann, bob = await start_game(relay, time_control={"total": 60, "per_move": None, "increment": 0})
            assert ann.session.clock is not None and bob.session.clock is not None
            ann.play_first_legal()
            await bob.until(lambda: bob.session.game.ply == 1)
            assert bob.session.clock.running is None, "a side's clock starts with its first move"
            bob.play_first_legal()
            await ann.until(lambda: ann.session.game.ply == 2)
            ann.play_first_legal()
            await bob.until(lambda: bob.session.game.ply == 3)
            assert bob.session.clock.running == 1
    run(scenario())


def test_odd_relay_messages_are_worded_and_never_raise() -> None:
    """Whatever arrives, ``receive`` says so in the catalog's words and asks for the game again."""
    from tessera.core.registry import game_class
    from tessera.core.seats import Seat
    from tessera.core.session import Session
    session = Session(game_class("quadrature")(), [Seat("human"), Seat("remote")], "x")
    events: list[tuple[str, Any]] = []
    remote = RemoteGame(session, RemoteInfo("ws://x", "room", "secret", 0), lambda data: None,
                        lambda kind, detail: events.append((kind, detail)))
    for odd in [None, 5, [], {}, {"type": 5}, {"type": "moved"}, {"type": "moved", "move": "zz", "ply": 1, "seat": 1},
                {"type": "state", "you": 0, "game": "quadrature", "from_ply": -1, "moves": []},
                {"type": "state", "you": 0, "game": "quadrature", "from_ply": 0, "moves": ["nonsense"]},
                {"type": "state", "you": 1, "game": "dots"},
                {"type": "ended", "result": {"winner": 7}}, {"type": "took_back", "ply": "x"},
                {"type": "error", "code": "stale", "key": 5}, {"type": "error", "key": "relay.error.stale",
                                                                "values": {"version": {"key": []}}}]:
        events.clear()
        remote.receive(odd)
        for kind, detail in events:
            if kind == "error":
                assert t(detail.key, **detail.params)
    assert session.game.ply == 0 and not session.is_over()
    assert relay_message({"key": "relay.error.stale", "values": {"version": 1, "current": 2}}).key == "relay.error.stale"
    assert relay_message({"key": "javascript:alert", "values": {}}).key == "error.remote.odd_answer"


def test_a_saved_link_is_checked() -> None:
    good = RemoteInfo("ws://127.0.0.1:8765", "room", "secret", 1, 4, "invite").to_json()
    assert RemoteInfo.from_json(good).to_json() == good
    for bad in [None, [], {}, {**good, "seat": 2}, {**good, "seat": True}, {**good, "version": -1},
                {**good, "relay": ""}, {**good, "room": "x" * 500}, {**good, "invite": 5}]:
        try:
            RemoteInfo.from_json(bad)
        except SessionError as error:
            assert error.key == "error.remote.save"
        else:
            raise AssertionError(f"accepted {bad!r}")
