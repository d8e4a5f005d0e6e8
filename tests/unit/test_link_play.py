"""Playing by link (``core.link_play``): a game travels in a URL and comes
back whole; a link that rewrites earlier moves or belongs to another game
is told apart from a newer or an older one; damaged, huge or hostile
tokens are refused with our error, never Python's."""

from __future__ import annotations

import base64
import json
import zlib

import pytest
from hypothesis import given, settings, strategies as st

from tessera.core.game import Outcome
from tessera.core.link_play import (MAX_JSON_BYTES, LinkError, Standing, compare, decode, encode, new_moves_by)
from tessera.core.record import Record
from tessera.core.rng import SeededRandom
from tessera.games.dots import Dots
from tessera.games.quadrotone import Quadrotone


def played(game, plies: int, seed: int = 1):
    rng = SeededRandom(seed)
    for _ in range(plies):
        game.push(game.random_move(rng))
    return game


def test_a_link_carries_the_whole_game_and_reads_back() -> None:
    game = played(Quadrotone(seed=9), 12)
    record = Record.from_game(game)
    token = encode(record, "abc123", game.move_stack and (game.ply - 1) % 2)
    link = decode(token)
    assert link.link_id == "abc123" and link.record.moves == record.moves
    assert link.record.options == record.options and link.record.seed == 9
    assert link.record.replay().position() == game.position()
    assert all(ch.isalnum() or ch in "-_" for ch in token)


def test_a_long_dots_game_makes_a_link_a_messenger_takes() -> None:
    game = played(Dots({"size": "20x20"}), 300, seed=4)
    token = encode(Record.from_game(game), "d1", 0)
    assert len(token) < 3000, len(token)


def test_a_resignation_travels_too() -> None:
    game = played(Dots({"size": "10x10"}), 3)
    record = Record.from_game(game, Outcome(1, "resign"))
    link = decode(encode(record, "r1", 0))
    assert link.record.result == Outcome(1, "resign")
    assert compare(Record.from_game(game), link.record) is Standing.AHEAD


def test_how_a_link_stands_to_the_game_kept_here() -> None:
    game = played(Dots({"size": "10x10"}), 6)
    now = Record.from_game(game)
    earlier = Record(now.game, now.options, now.seed, None, now.moves[:4])
    assert compare(None, now) is Standing.NEW
    assert compare(now, now) is Standing.SAME
    assert compare(earlier, now) is Standing.AHEAD
    assert compare(now, earlier) is Standing.BEHIND
    rewritten = Record(now.game, now.options, now.seed, None, now.moves[:3] + ["1-1"])
    assert compare(earlier, rewritten) is Standing.OTHER, "a link that rewrites an earlier move"
    other_seed = Record(now.game, now.options, now.seed + 1, None, now.moves)
    assert compare(now, other_seed) is Standing.OTHER, "another game under the same name"
    other_size = Record(now.game, {**now.options, "size": "12x12"}, now.seed, None, now.moves)
    assert compare(now, other_size) is Standing.OTHER


def test_a_link_adds_only_the_senders_moves() -> None:
    link = decode(encode(Record.from_game(played(Dots({"size": "10x10"}), 4)), "x", 1))
    assert new_moves_by(link, 3, [0, 1, 0, 1])
    assert not new_moves_by(link, 2, [0, 1, 0, 1]), "a link may not play the receiver's move"


def token_of(data) -> str:
    raw = json.dumps(data).encode()
    return "1" + base64.urlsafe_b64encode(zlib.compress(raw)).decode().rstrip("=")


@pytest.mark.parametrize("token, key", [
    ("", "error.link.empty"), (None, "error.link.empty"), ("2abc", "error.link.format"),
    ("1!!!!", "error.link.damaged"), ("1" + "A" * 70_000, "error.link.too_long"),
    ("1" + base64.urlsafe_b64encode(zlib.compress(b"\x00" * (MAX_JSON_BYTES + 10))).decode(), "error.link.too_long"),
    (token_of([1, 2]), "error.link.damaged"),
    (token_of({"id": "", "by": 0, "g": "dots"}), "error.link.id"),
    (token_of({"id": "a b", "by": 0, "g": "dots"}), "error.link.id"),
    (token_of({"id": "ok", "by": True, "g": "dots"}), "error.link.seat"),
    (token_of({"id": "ok", "by": 0, "g": "chess"}), "error.link.record"),
    (token_of({"id": "ok", "by": 0, "g": "dots", "m": "5-5"}), "error.link.record"),
    ("1" + base64.urlsafe_b64encode(zlib.compress(b"\xff\xfe")).decode(), "error.link.damaged"),
    (token_of({"id": "ok", "by": 0, "g": "dots", "s": 10 ** 30}), "error.link.record"),
])
def test_bad_links_are_refused_in_words(token, key: str) -> None:
    with pytest.raises(LinkError) as refused:
        decode(token)
    assert refused.value.key == key


def test_deeply_nested_json_in_a_link_is_refused() -> None:
    with pytest.raises(LinkError):
        decode(token_of({"id": "ok", "by": 0, "g": "dots", "o": json.loads("[" * 500 + "]" * 500)}))


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_any_text_is_a_link_or_our_error(text: str) -> None:
    try:
        decode(text)
    except LinkError:
        pass


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300))
def test_any_bytes_behind_the_format_are_a_link_or_our_error(raw: bytes) -> None:
    try:
        decode("1" + base64.urlsafe_b64encode(zlib.compress(raw)).decode().rstrip("="))
    except LinkError:
        pass
