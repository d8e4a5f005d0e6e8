"""The protocol's parser, its error catalog, room state as data, and the command that runs the relay."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tessera import i18n
from tessera.relay.protocol import (ERROR_CODES, MAX_DEPTH, MAX_MESSAGE_BYTES, MESSAGE_FIELDS, ClientMessage,
                                    RelayError, nesting_depth, parse)
from tessera.relay.rooms import Room, RoomState

ROOT = Path(__file__).resolve().parents[2]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=20)
field_values = st.sampled_from(["b9-b8", "", "quadrature", "x" * 300]) | st.integers(-3, 2 ** 64) | json_values
messages = st.fixed_dictionaries(
    {"type": st.sampled_from(sorted(MESSAGE_FIELDS)) | st.text(max_size=8) | json_values,
     "protocol": st.sampled_from([1, 2, "1", True, None])},
    optional={name: field_values for name in
              {"id", "game", "options", "seed", "time_control", "seat", "name", "room", "secret", "since", "move",
               "version", "accept", "extra"}})


def check(raw: str | bytes) -> None:
    """The parser's only outcomes: a checked message or a RelayError with a known code."""
    try:
        result = parse(raw)
    except RelayError as error:
        assert error.code in ERROR_CODES and error.code != "internal"
        json.dumps(error.reply())
    else:
        assert isinstance(result, ClientMessage) and result.type in MESSAGE_FIELDS


@settings(max_examples=400)
@given(messages)
def test_fuzz_message_shaped_objects_give_a_message_or_a_typed_error(data: dict) -> None:
    """Any object with plausible and implausible fields is either a valid message or a typed error."""
    check(json.dumps(data))


@settings(max_examples=300)
@given(json_values)
def test_fuzz_any_json_value_gives_a_typed_error_or_a_message(value: object) -> None:
    check(json.dumps(value))


@settings(max_examples=300)
@given(st.text(max_size=200) | st.binary(max_size=200))
def test_fuzz_any_text_or_bytes_gives_a_typed_error_or_a_message(raw: str | bytes) -> None:
    check(raw)


@settings(max_examples=100)
@given(st.text(alphabet='[]{}"\\,:1 ', max_size=300))
def test_fuzz_bracket_soup_never_reaches_the_parser_too_deep(raw: str) -> None:
    check(raw)


def test_nesting_is_counted_outside_strings_only() -> None:
    assert nesting_depth('{"a": [[1]]}', 10) == 3
    assert nesting_depth('{"a": "[[[[[[[[[["}', 10) == 1
    assert nesting_depth('{"a": "\\"[[[[["}', 10) == 1
    deep = "[" * 100_000
    assert nesting_depth(deep, MAX_DEPTH) == MAX_DEPTH + 1  # stops early


def test_a_valid_message_keeps_only_its_own_fields() -> None:
    msg = parse('{"type": "move", "protocol": 1, "id": 4, "move": "b9-b8", "version": 0}')
    assert (msg.type, msg.id, msg.fields) == ("move", 4, {"move": "b9-b8", "version": 0})


def test_the_size_is_checked_before_decoding() -> None:
    with pytest.raises(RelayError) as error:
        parse("é" * (MAX_MESSAGE_BYTES // 2 + 1))  # few characters, too many bytes
    assert error.value.code == "too_large"


def test_every_error_code_is_worded_in_both_languages_with_exactly_its_values() -> None:
    """The app words relay errors from ``relay.error.<code>``: each key exists in English and Russian,
    and its placeholders are the values the relay sends."""
    catalog = i18n.load_catalog()
    for code, values in ERROR_CODES.items():
        key = f"relay.error.{code}"
        for lang in i18n.LANGUAGES:
            texts = [text for k, text in catalog[lang].items() if k == key or i18n.plural_base(k) == key]
            assert texts, f"{lang}: {key}"
            for text in texts:
                assert i18n.placeholders(text) == set(values), f"{lang}: {key}: {text}"


def test_an_error_with_an_engine_reason_words_in_russian() -> None:
    from tessera.core.game import IllegalMoveError
    error = RelayError("illegal_move", move="'b9-b5'", reason=IllegalMoveError("illegal.generic"))
    reply = error.reply(3)
    assert reply["values"]["reason"] == {"key": "illegal.generic", "values": {}}
    nested = i18n.Message(reply["values"]["reason"]["key"], reply["values"]["reason"]["values"])
    text = i18n.t(reply["key"], lang="ru", move=reply["values"]["move"], reason=nested)
    assert "невозможен" in text and "{" not in text


def test_room_state_is_plain_data_that_rebuilds_the_same_room() -> None:
    """What a shared store would keep: JSON in, the same game, clock and secrets out."""
    now = [100.0]
    room, seat_secrets, spectator = Room.create("r1", "quadrature", {}, 5, {"total": 300, "per_move": None},
                                                lambda: now[0])
    room.connect(0, "Ann")
    room.connect(1, "Bob")
    for version in range(3):   # each side's first move, then White's second: Black's clock runs
        room.move(version % 2, room.game.move_text(room.game.legal_moves()[0]), version)
    now[0] += 7
    room.save_clock()
    data = json.loads(json.dumps(room.state.to_json()))
    now[0] += 3  # stored for 3 s: the running move goes on
    again = Room(RoomState.from_json(data), lambda: now[0])
    assert again.game.position() == room.game.position() and again.state.version == 3
    assert again.clock is not None and again.clock.total_left(1) == pytest.approx(290)
    assert again.state.draw_offered_at == [None, None]
    assert again.seat_for(seat_secrets[1]) == 1 and again.seat_for(spectator) is None
    assert seat_secrets[0] not in json.dumps(data)  # only hashes of secrets are kept


@pytest.mark.skipif(sys.platform == "win32", reason="signals")
def test_the_relay_command_listens_on_a_free_port_and_says_where() -> None:
    """``python3 -m tessera relay --port 0`` prints ``relay listening on ws://127.0.0.1:PORT`` first."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "py")}
    process = subprocess.Popen([sys.executable, "-m", "tessera", "relay", "--port", "0"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=env)
    try:
        line = process.stdout.readline().strip()
        assert line.startswith("relay listening on ws://127.0.0.1:"), line
        port = int(line.rsplit(":", 1)[1])
        assert port > 0

        import asyncio
        from websockets.asyncio.client import connect

        async def ping() -> dict:
            async with connect(f"ws://127.0.0.1:{port}") as socket:
                await socket.send('{"type": "ping", "protocol": 1}')
                return json.loads(await socket.recv())
        assert asyncio.run(ping())["type"] == "pong"
    finally:
        process.terminate()
        assert process.wait(10) == 0
