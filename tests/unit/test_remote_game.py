"""``core.remote.RemoteGame`` against the relay's own logic, without sockets.

The relay's ``Relay.receive`` is driven directly with in-memory connections
(what a socket would carry is the same JSON), so these run in CPython and
in Pyodide alike.  The socket tests are in tests/relay/.  Also: whatever a
relay (or something posing as one) sends, ``receive`` never raises and the
local game stays a game its moves replay to.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tessera.core.game import Outcome
from tessera.core.registry import game_class
from tessera.core.remote import RemoteGame, RemoteInfo, session_from_state
from tessera.core.seats import Seat
from tessera.core.session import Session
from tessera.relay.protocol import encode
from tessera.relay.server import Connection, Relay, TokenBucket


def run_now(coroutine: Any) -> Any:
    """Run a coroutine that never has to wait (the in-memory store's locks are
    free, its deliveries are queued): no event loop, so Pyodide runs it too."""
    try:
        coroutine.send(None)
    except StopIteration as done:
        return done.value
    coroutine.close()
    raise AssertionError("the relay had to wait")


class Wire:
    """One device's connection to an in-memory relay: messages both ways as JSON text."""

    def __init__(self, relay: Relay) -> None:
        self.relay = relay
        self.conn = Connection(socket=None, bucket=TokenBucket(1000, 1000))
        self.remote: RemoteGame | None = None

    def send(self, data: dict[str, Any]) -> None:
        run_now(self.relay.receive(self.conn, encode(data)))

    def inbox(self) -> list[dict[str, Any]]:
        out = []
        while not self.conn.queue.empty():
            text = self.conn.queue.get_nowait()
            if text is not None:
                out.append(json.loads(text))
        return out


class Table:
    """A relay and two devices, with their sessions kept in step by ``pump``."""

    def __init__(self, game: str = "quadrature", **create: Any) -> None:
        self.relay = Relay()
        self.wires: list[Wire] = []
        maker = Wire(self.relay)
        maker.send({"type": "create", "protocol": 1, "game": game, "name": "Ann", **create})
        created, state = maker.inbox()
        self.created = created
        self.devices = []
        for seat, secret in ((created["seat"], created["secret"]), (1 - created["seat"], created["invite"])):
            info = RemoteInfo("ws://test", created["room"], secret, seat)
            wire = maker if seat == created["seat"] else Wire(self.relay)
            if wire is not maker:
                wire.send({"type": "join", "protocol": 1, "room": info.room, "secret": secret, "name": "Bob"})
                state = [m for m in wire.inbox() if m["type"] == "state"][0]
            session = session_from_state(state, info, f"s{seat}")
            wire.remote = RemoteGame(session, info, wire.send, lambda kind, detail: None)
            wire.remote.receive(state)
            self.wires.append(wire)
        self.pump()

    def pump(self) -> None:
        """Deliver everything queued until the wires are quiet."""
        for _ in range(50):
            moved = False
            for wire in self.wires:
                for data in wire.inbox():
                    moved = True
                    wire.remote.receive(data)
            if not moved:
                return

    def close(self) -> None:
        """Nothing to release (no loop, no sockets)."""

    def session(self, index: int) -> Session:
        return self.wires[index].remote.session


def test_moves_on_one_device_reach_the_other_and_the_relay_agrees() -> None:
    table = Table()
    try:
        ann, bob = table.session(0), table.session(1)
        for _ in range(10):
            mover = ann if ann.is_local_turn() else bob
            mover.play(mover.game.legal_moves()[0])
            table.pump()
        assert ann.history() == bob.history() and len(ann.history()) == 10
        room = table.relay.store._rooms[table.created["room"]]
        assert room.state.moves == ann.history()
        assert table.wires[0].remote.info.version == room.state.version == 10
    finally:
        table.close()


def test_a_resignation_and_a_declined_then_accepted_draw() -> None:
    table = Table()
    try:
        ann, bob = table.session(0), table.session(1)
        ann.offer_draw(0)
        table.pump()
        assert bob.draw_offer == 0
        bob.answer_draw(1, False)
        table.pump()
        assert ann.draw_offer is None and not ann.is_over()
        bob.resign(1)
        table.pump()
        assert ann.outcome() == Outcome(0, "resign") == bob.outcome()
    finally:
        table.close()


def test_a_takeback_and_the_clock_kept_by_the_relay() -> None:
    table = Table(time_control={"total": 300, "per_move": None, "increment": 2})
    try:
        ann, bob = table.session(0), table.session(1)
        ann.play(ann.game.legal_moves()[0])              # each side's first move: no clock yet
        table.pump()
        assert bob.clock is not None and bob.clock.running is None
        bob.play(bob.game.legal_moves()[0])
        table.pump()
        ann.play(ann.game.legal_moves()[0])
        table.pump()
        assert bob.clock.running == 1
        table.wires[0].remote.request_takeback()
        table.pump()
        table.wires[1].remote.answer_takeback(True)
        table.pump()
        assert ann.game.ply == bob.game.ply == 2
        assert ann.clock.running == 0
    finally:
        table.close()


def test_a_local_move_the_relay_refuses_is_taken_back() -> None:
    """A device that plays on a version the relay has left gets the relay's game back."""
    table = Table()
    try:
        ann, bob = table.session(0), table.session(1)
        resyncs = []
        table.wires[0].remote.notify = lambda kind, detail: resyncs.append(kind)
        table.wires[0].remote.info.version = 7          # a wrong belief
        ann.play(ann.game.legal_moves()[0])
        table.pump()
        assert "error" in resyncs and "resync" in resyncs
        # the page reconnects: a fresh join with the version it has
        wire = table.wires[0]
        wire.conn = Connection(socket=None, bucket=TokenBucket(1000, 1000))
        wire.send(wire.remote.hello())
        table.pump()
        assert ann.game.ply == 0 == bob.game.ply
    finally:
        table.close()


# ----- fuzz: whatever arrives ---------------------------------------------------------------

JSON = st.recursive(st.none() | st.booleans() | st.integers(-3, 40) | st.text(max_size=12),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                                  max_size=4), max_leaves=12)
KINDS = ["state", "moved", "ended", "took_back", "draw_offered", "draw_declined", "takeback_requested",
         "takeback_declined", "presence", "error", "pong", "created", "nonsense"]
FIELDS = ["seat", "move", "ply", "version", "result", "from_ply", "moves", "you", "game", "clock", "code", "key",
          "values", "fatal", "status", "name", "players", "draw_offer", "takeback"]


@st.composite
def relay_messages(draw: Any) -> dict[str, Any]:
    message: dict[str, Any] = {"type": draw(st.sampled_from(KINDS))}
    for name in draw(st.lists(st.sampled_from(FIELDS), max_size=6)):
        message[name] = draw(st.one_of(JSON, st.sampled_from(["a1-a2", "b9-b8", "b9-a8"]), st.integers(0, 3)))
    if draw(st.booleans()):
        message["game"] = "quadrature"
        message["you"] = 0
    return message


@settings(max_examples=50 if sys.platform == "emscripten" else 150, deadline=None)  # a third in Pyodide, 3x slower
@given(st.lists(st.one_of(relay_messages(), JSON), max_size=8))
def test_fuzz_any_relay_messages_never_raise_and_keep_a_real_game(messages: list[Any]) -> None:
    session = Session(game_class("quadrature")(), [Seat("human"), Seat("remote")], "fuzz")
    remote = RemoteGame(session, RemoteInfo("ws://x", "room", "secret", 0), lambda data: None,
                        lambda kind, detail: None)
    for message in messages:
        remote.receive(message)
    replayed = Session.from_record(session.record(), [Seat("human"), Seat("remote")])
    assert replayed.history() == session.history()
    assert remote.info.version >= 0


def test_the_clock_starts_on_both_devices_when_the_second_player_comes() -> None:
    """The relay runs a side's clock once both have joined and that side has
    made its first move; both pages hear it then."""
    table = Table(time_control={"total": 60, "per_move": None, "increment": 0})
    try:
        ann, bob = table.session(0), table.session(1)
        assert ann.clock is not None and ann.clock.running is None
        ann.play(ann.game.legal_moves()[0])
        table.pump()
        bob.play(bob.game.legal_moves()[0])
        table.pump()
        assert ann.clock.running == ann.to_move == bob.clock.running
    finally:
        table.close()
