"""Playing through the relay: whole games, refusals that change nothing, reconnects, endings."""

from __future__ import annotations


from conftest import FakeTime, client, new_game, play_random_game, run, running_relay

from tessera.core.registry import game_class
from tessera.relay.server import RelayConfig


def first_legal(moves: list[str] | None = None, game: str = "quadrature") -> str:
    engine = game_class(game)()
    for text in moves or []:
        engine.push_text(text)
    return engine.move_text(engine.legal_moves()[0])


def test_two_clients_play_a_whole_game_and_both_see_every_move() -> None:
    """A seeded random Quadrature game is played to its end; the relay's record and result match the engine's."""
    async def scenario() -> None:
        async with running_relay(RelayConfig(rate=1000, burst=1000)) as relay:  # moves far faster than people
            ann, bob, created = await new_game(relay)
            players = [ann, bob]
            engine, version, moved = await play_random_game(players, 7)
            assert moved["result"] == engine.outcome().to_json()
            room = await relay.store.get(created["room"])
            assert len(room.state.moves) == engine.ply and room.game.position() == engine.position()
            assert room.result_json() == engine.outcome().to_json()
            await ann.send("move", move=first_legal(), version=version)
            assert (await ann.error())["code"] == "game_over"
    run(scenario())


def test_an_illegal_move_is_refused_with_the_engines_reason_and_changes_nothing() -> None:
    """An illegal move gets ``illegal_move`` with the engine's own reason as a nested key; the game is unchanged."""
    async def scenario() -> None:
        async with running_relay() as relay:
            ann, bob, created = await new_game(relay)
            await ann.send("move", move="b9-b5", version=0, id=3)
            error = await ann.error()
            assert (error["code"], error["id"], error["key"]) == ("illegal_move", 3, "relay.error.illegal_move")
            assert error["values"]["reason"]["key"].startswith("illegal.")
            await ann.send("move", move="not a move", version=0)
            assert (await ann.error())["code"] == "bad_notation"
            assert await bob.quiet() == []
            room = await relay.store.get(created["room"])
            assert (room.state.version, room.state.moves) == (0, [])
    run(scenario())


def test_a_move_out_of_turn_and_a_stale_move_are_refused() -> None:
    """The player not to move gets ``not_your_turn``; a move on an old version gets ``stale``."""
    async def scenario() -> None:
        async with running_relay() as relay:
            ann, bob, created = await new_game(relay)
            await bob.send("move", move=first_legal(), version=0)
            assert (await bob.error())["code"] == "not_your_turn"
            first = first_legal()
            await ann.send("move", move=first, version=0)
            await bob.expect("moved")
            await bob.send("move", move=first_legal([first]), version=0)
            error = await bob.error()
            assert error["code"] == "stale" and error["values"] == {"version": 0, "current": 1}
            room = await relay.store.get(created["room"])
            assert room.state.moves == [first]
    run(scenario())


def test_a_spectator_watches_but_cannot_move() -> None:
    """The spectator token shows the game and its moves; its moves, resignations and offers are refused."""
    async def scenario() -> None:
        async with running_relay() as relay:
            ann, bob, created = await new_game(relay)
            first = first_legal()
            await ann.send("move", move=first, version=0)
            watcher = await client(relay)
            await watcher.send("join", room=created["room"], secret=created["spectate"])
            state = await watcher.expect("state")
            assert state["you"] is None and state["moves"] == [first]
            assert [p["name"] for p in state["players"]] == ["Ann", "Bob"]
            for kind, fields in (("move", {"move": first_legal([first]), "version": 1}), ("resign", {}),
                                 ("offer_draw", {}), ("request_takeback", {})):
                await watcher.send(kind, **fields)
                assert (await watcher.error())["code"] == "spectator"
            await bob.send("move", move=first_legal([first]), version=1)
            assert (await watcher.expect("moved"))["seat"] == 1
            room = await relay.store.get(created["room"])
            assert room.state.version == 2 and room.state.result is None
    run(scenario())


def test_a_stranger_with_the_room_id_but_no_secret_cannot_join_or_move() -> None:
    """A wrong secret is ``no_access`` (the same as an unknown room); without joining, a move is ``not_joined``."""
    async def scenario() -> None:
        async with running_relay() as relay:
            ann, bob, created = await new_game(relay)
            stranger = await client(relay)
            await stranger.send("join", room=created["room"], secret="guess" * 8)
            assert (await stranger.error())["code"] == "no_access"
            await stranger.send("join", room="no-such-room", secret=created["invite"])
            assert (await stranger.error())["code"] == "no_access"
            await stranger.send("move", move=first_legal(), version=0)
            assert (await stranger.error())["code"] == "not_joined"
            await stranger.send("resign")
            assert (await stranger.error())["code"] == "not_joined"
            room = await relay.store.get(created["room"])
            assert (room.state.version, room.state.result) == (0, None)
            assert await ann.quiet() == []
    run(scenario())


def test_reconnect_after_a_dropped_socket_gets_the_missed_moves_and_the_opponent_sees_it() -> None:
    """Bob's socket drops; Ann sees "disconnected", moves on; Bob comes back with his secret and the
    version he had, gets only the moves he missed, and Ann sees "back"."""
    async def scenario() -> None:
        async with running_relay() as relay:
            ann, bob, created = await new_game(relay)
            moves: list[str] = []
            for version in range(2):
                text = first_legal(moves)
                await (ann, bob)[version % 2].send("move", move=text, version=version)
                moves.append(text)
                await ann.expect("moved")
                await bob.expect("moved")
            bob.socket.transport.abort()  # no closing handshake: a closed laptop
            gone = await ann.expect("presence")
            assert (gone["seat"], gone["status"], gone["name"]) == (1, "disconnected", "Bob")
            for version in (2,):
                text = first_legal(moves)
                await ann.send("move", move=text, version=version)
                moves.append(text)
                await ann.expect("moved")
            bob = await client(relay)
            await bob.send("join", room=created["room"], secret=created["invite"], since=2)
            state = await bob.expect("state")
            assert (state["you"], state["version"], state["from_ply"], state["moves"]) == (1, 3, 2, moves[2:])
            back = await ann.expect("presence")
            assert (back["seat"], back["status"]) == (1, "back")
            whole = await client(relay)
            await whole.send("join", room=created["room"], secret=created["spectate"])
            state = await whole.expect("state")
            assert (state["from_ply"], state["moves"]) == (0, moves)
            await bob.send("move", move=first_legal(moves), version=3)
            assert (await ann.expect("moved"))["seat"] == 1
    run(scenario())


def test_a_second_window_on_the_same_seat_replaces_the_first() -> None:
    """Opening the same seat elsewhere hands it over: the old socket gets ``replaced`` and is closed."""
    async def scenario() -> None:
        async with running_relay() as relay:
            ann, bob, created = await new_game(relay)
            again = await client(relay)
            await again.send("join", room=created["room"], secret=created["secret"])
            assert (await again.expect("state"))["you"] == 0
            error = await ann.error()
            assert (error["code"], error["fatal"]) == ("replaced", True)
            await again.send("move", move=first_legal(), version=0)
            assert (await bob.expect("moved"))["seat"] == 0
    run(scenario())


def test_resign_ends_the_game_for_both() -> None:
    """A resignation ends the game: both get ``ended`` with the other seat winning, and no more moves."""
    async def scenario() -> None:
        async with running_relay() as relay:
            ann, bob, created = await new_game(relay)
            await bob.send("resign", id=1)
            for player in (ann, bob):
                ended = await player.expect("ended")
                assert ended["result"] == {"winner": 0, "reason": "resign"} and ended["version"] == 1
            await ann.send("move", move=first_legal(), version=1)
            assert (await ann.error())["code"] == "game_over"
            await ann.send("resign")
            assert (await ann.error())["code"] == "game_over"
    run(scenario())


def test_a_draw_offer_can_be_declined_then_accepted() -> None:
    """Ann offers a draw, Bob declines; a second offer, which Ann cannot answer herself, Bob accepts."""
    async def scenario() -> None:
        async with running_relay() as relay:
            ann, bob, created = await new_game(relay)
            await ann.send("offer_draw")
            assert (await bob.expect("draw_offered"))["seat"] == 0
            await ann.send("offer_draw")
            assert (await ann.error())["code"] == "draw_offered"
            await bob.send("answer_draw", accept=False)
            assert (await ann.expect("draw_declined"))["seat"] == 1
            await bob.send("answer_draw", accept=True)
            assert (await bob.error())["code"] == "no_draw_offer"
            await ann.send("offer_draw")
            await bob.expect("draw_offered")
            await ann.send("answer_draw", accept=True)
            assert (await ann.error())["code"] == "no_draw_offer"
            await bob.send("answer_draw", accept=True)
            for player in (ann, bob):
                assert (await player.expect("ended"))["result"] == {"winner": None, "reason": "draw_agreed"}
    run(scenario())


def test_a_takeback_request_accepted_takes_back_the_askers_last_move() -> None:
    """Ann moves, Bob replies, Ann asks to take back: accepted, both moves go; the version moves on."""
    async def scenario() -> None:
        async with running_relay() as relay:
            ann, bob, created = await new_game(relay)
            await ann.send("request_takeback")
            assert (await ann.error())["code"] == "nothing_to_take_back"
            moves: list[str] = []
            for version, player in enumerate((ann, bob)):
                text = first_legal(moves)
                await player.send("move", move=text, version=version)
                moves.append(text)
                await ann.expect("moved")
                await bob.expect("moved")
            await ann.send("request_takeback")
            assert (await bob.expect("takeback_requested"))["seat"] == 0
            await ann.send("answer_takeback", accept=True)
            assert (await ann.error())["code"] == "no_takeback"
            await bob.send("answer_takeback", accept=True)
            for player in (ann, bob):
                took = await player.expect("took_back")
                assert (took["seat"], took["ply"], took["version"], took["to_move"]) == (0, 0, 3, 0)
            room = await relay.store.get(created["room"])
            assert room.state.moves == [] and room.game.ply == 0
            await bob.send("move", move=first_legal(), version=3)
            assert (await bob.error())["code"] == "not_your_turn"
            await ann.send("move", move=first_legal(), version=2)
            assert (await ann.error())["code"] == "stale"
            await ann.send("move", move=first_legal(), version=3)
            assert (await bob.expect("moved"))["version"] == 4
    run(scenario())


def test_a_declined_takeback_changes_nothing_and_a_move_withdraws_a_request() -> None:
    async def scenario() -> None:
        async with running_relay() as relay:
            ann, bob, created = await new_game(relay)
            first = first_legal()
            await ann.send("move", move=first, version=0)
            await bob.expect("moved")
            await ann.send("request_takeback")
            await bob.expect("takeback_requested")
            await bob.send("answer_takeback", accept=False)
            assert (await ann.expect("takeback_declined"))["seat"] == 1
            await ann.send("request_takeback")
            await bob.expect("takeback_requested")
            await bob.send("move", move=first_legal([first]), version=1)
            await bob.expect("moved")
            await bob.send("answer_takeback", accept=True)
            assert (await bob.error())["code"] == "no_takeback"
            room = await relay.store.get(created["room"])
            assert len(room.state.moves) == 2
    run(scenario())


def test_the_relay_keeps_the_clock_and_ends_the_game_on_time() -> None:
    """With a 60 s time control a side's clock starts once both have joined and
    that side has made its first move (as in the page); past it, the sweep ends the game."""
    async def scenario() -> None:
        now = FakeTime()
        async with running_relay(RelayConfig(sweep_seconds=0), now=now) as relay:
            ann, bob, created = await new_game(relay, time_control={"total": 60, "per_move": None, "increment": 2})
            room = await relay.store.get(created["room"])
            assert room.clock is not None and room.clock.running is None
            now.advance(100)                                   # nobody has moved: no clock runs
            opening = [first_legal()]
            await ann.send("move", move=opening[0], version=0)
            await ann.expect("moved")
            moved = await bob.expect("moved")
            assert moved["clock"]["running"] is None, "the second player has not moved yet"
            now.advance(100)
            opening.append(first_legal(opening))
            await bob.send("move", move=opening[1], version=moved["version"])
            await bob.expect("moved")
            moved = await ann.expect("moved")
            assert moved["clock"]["remaining"] == [60.0, 60.0] and moved["clock"]["running"] == 0
            now.advance(10)
            await ann.send("move", move=first_legal(opening), version=moved["version"])
            await ann.expect("moved")
            moved = await bob.expect("moved")
            assert moved["clock"]["remaining"] == [52.0, 60.0] and moved["clock"]["running"] == 1
            now.advance(59)
            await relay.sweep()
            assert await ann.quiet() == []
            now.advance(2)
            await relay.sweep()
            for player in (ann, bob):
                ended = await player.expect("ended")
                assert ended["result"] == {"winner": 0, "reason": "time"}
            await bob.send("move", move=first_legal(), version=1)
            assert (await bob.error())["code"] == "game_over"
    run(scenario())


def test_a_flag_that_fell_is_seen_on_the_next_message_too() -> None:
    """Without a sweep, a move arriving after the mover's time ran out ends the game instead of playing."""
    async def scenario() -> None:
        now = FakeTime()
        async with running_relay(RelayConfig(sweep_seconds=0), now=now) as relay:
            ann, bob, created = await new_game(relay, time_control={"total": None, "per_move": 30})
            opening = [first_legal()]
            await ann.send("move", move=opening[0], version=0)
            await ann.expect("moved")
            moved = await bob.expect("moved")
            opening.append(first_legal(opening))
            await bob.send("move", move=opening[1], version=moved["version"])
            await bob.expect("moved")
            moved = await ann.expect("moved")
            now.advance(31)
            await ann.send("move", move=first_legal(opening), version=moved["version"])
            assert (await ann.expect("ended"))["result"] == {"winner": 1, "reason": "time"}
            assert (await ann.error())["code"] == "game_over"
            room = await relay.store.get(created["room"])
            assert room.state.moves == opening
    run(scenario())


def test_quadrotone_draw_offers_are_spaced_ten_minutes_by_the_relay() -> None:
    """2.8: a player may offer a draw once in 10 minutes; the relay refuses a
    second offer at 9:59 (saying how long is left) and takes it at 10:00; the
    other player is not held back by the first's offer."""
    async def scenario() -> None:
        now = FakeTime()
        async with running_relay(RelayConfig(sweep_seconds=0, offer_rate=100.0, offer_burst=100),
                                 now=now) as relay:
            ann, bob, created = await new_game(relay, game="quadrotone")
            await ann.send("offer_draw")
            await bob.expect("draw_offered")
            await bob.send("answer_draw", accept=False)
            await ann.expect("draw_declined")
            now.advance(599)
            await ann.send("offer_draw")
            refused = await ann.error()
            assert refused["code"] == "draw_too_soon" and refused["values"] == {"seconds": 1}
            await bob.quiet()
            await bob.send("offer_draw")                       # Bob has offered nothing yet
            assert (await ann.expect("draw_offered"))["seat"] == 1
            await ann.send("answer_draw", accept=False)
            await bob.expect("draw_declined")
            await ann.quiet()
            await bob.quiet()
            now.advance(1)
            await ann.send("offer_draw")
            assert (await bob.expect("draw_offered"))["seat"] == 0
            room = await relay.store.get(created["room"])
            assert room.state.draw_offered_at[0] == now() and room.state.draw_offered_at[1] is not None
    run(scenario())
