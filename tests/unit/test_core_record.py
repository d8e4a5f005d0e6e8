"""Game records: JSON round trip, refusal of bad input, and replay errors that say where."""

from __future__ import annotations

import json

import pytest

from tessera.core.game import Outcome
from tessera.core.record import FORMAT, MAX_COMMENT_CHARS, MAX_RECORD_BYTES, Record, RecordError
from tessera.games.quadrature import Quadrature

MOVES = ["b9-b8", "b3-b4", "i9-j8", "c3-c4"]


def _record_json(**changes) -> str:
    data = {"format": FORMAT, "game": "quadrature", "options": {}, "seed": 0, "setup": None,
            "moves": list(MOVES), "result": None, "meta": {}}
    data.update(changes)
    return json.dumps(data)


def test_round_trip_through_json() -> None:
    game = Quadrature({"first": "black"}, seed=42)
    for text in ["b3-b4", "b9-b8", "c3-c4"]:
        game.push_text(text)
    record = Record.from_game(game, Outcome(1, "resign"), {"white": "Ann", "black": "Бо"})
    again = Record.loads(record.dumps())
    assert again == record
    assert again.moves == ["b3-b4", "b9-b8", "c3-c4"]
    assert again.options == {"first": "black"} and again.seed == 42
    assert again.result == Outcome(1, "resign")
    assert again.meta["black"] == "Бо"
    assert again.replay().position() == game.position()
    assert again.outcome(again.replay()) == Outcome(1, "resign")


def test_setup_is_kept_and_replayed() -> None:
    setup = Quadrature().position().replace(" w 0 0 0", " w 0 0 10")
    game = Quadrature(setup=setup)
    game.push_text("b9-b8")
    again = Record.loads(Record.from_game(game).dumps())
    assert again.setup == setup
    assert again.replay().position() == game.position()


def test_replay_to_a_ply() -> None:
    record = Record.loads(_record_json())
    assert record.replay(0).position() == Quadrature().position()
    partial = Quadrature()
    partial.push_text("b9-b8")
    partial.push_text("b3-b4")
    assert record.replay(2).position() == partial.position()


def test_minimal_record_defaults() -> None:
    record = Record.loads(json.dumps({"format": FORMAT, "game": "quadrature"}))
    assert record.moves == [] and record.seed == 0 and record.setup is None
    assert record.replay().position() == Quadrature().position()


@pytest.mark.parametrize("text", ["", "not json", "{", "[1, 2", "\x00"])
def test_refuses_non_json(text: str) -> None:
    with pytest.raises(RecordError):
        Record.loads(text)


@pytest.mark.parametrize("text", [
    "[]", "42", '"quadrature"', "null",
    _record_json(format="tessera/2"),
    json.dumps({"game": "quadrature", "moves": []}),
])
def test_refuses_wrong_format(text: str) -> None:
    with pytest.raises(RecordError):
        Record.loads(text)


@pytest.mark.parametrize("game", ["chess", "", "QUADRATURE", 7, None])
def test_refuses_unknown_game(game) -> None:
    with pytest.raises(RecordError):
        Record.loads(_record_json(game=game))


@pytest.mark.parametrize("seed", [-1, 2**64, "1", 1.5, True, None, [1]])
def test_refuses_bad_seed(seed) -> None:
    with pytest.raises(RecordError):
        Record.loads(_record_json(seed=seed))


@pytest.mark.parametrize("moves", ["b9-b8", [1, 2], ["b9-b8", None], {"1": "b9-b8"}, 5])
def test_refuses_bad_moves_type(moves) -> None:
    with pytest.raises(RecordError):
        Record.loads(_record_json(moves=moves))


@pytest.mark.parametrize("field, value", [("options", []), ("setup", 5), ("meta", "x"),
                                          ("result", {"winner": 3, "reason": "x"}),
                                          ("result", {"winner": 0, "reason": ""})])
def test_refuses_bad_fields(field: str, value) -> None:
    with pytest.raises(RecordError):
        Record.loads(_record_json(**{field: value}))


def test_refuses_too_large_input() -> None:
    huge = _record_json(meta={"pad": "x" * MAX_RECORD_BYTES})
    with pytest.raises(RecordError, match="too large"):
        Record.loads(huge)
    with pytest.raises(RecordError):
        Record.loads(huge.encode())


def test_bad_options_or_setup_fail_at_replay() -> None:
    for text in (_record_json(options={"first": "green"}), _record_json(options={"size": 9}),
                 _record_json(setup="nonsense")):
        record = Record.loads(text)
        with pytest.raises(RecordError):
            record.replay()


def test_replay_names_the_first_garbage_move() -> None:
    record = Record.loads(_record_json(moves=["b9-b8", "b3-b4", "zz-top", "c3-c4"]))
    with pytest.raises(RecordError) as info:
        record.replay()
    assert info.value.move_number == 3
    assert info.value.move_text == "zz-top"
    assert "3" in str(info.value) and "zz-top" in str(info.value)


def test_replay_names_the_first_illegal_move() -> None:
    """b8-b9 moves White backwards: move 3 is refused, by number and text."""
    record = Record.loads(_record_json(moves=["b9-b8", "b3-b4", "b8-b9", "zz"]))
    with pytest.raises(RecordError) as info:
        record.replay()
    assert (info.value.move_number, info.value.move_text) == (3, "b8-b9")
    assert "b8-b9" in str(info.value)


def test_replay_refuses_moves_after_the_end() -> None:
    """A move after a finished game (here a ply-limit draw) is refused."""
    setup = Quadrature().position().replace(" w 0 0 0", " w 0 0 399")
    record = Record.loads(_record_json(setup=setup, moves=["b9-b8", "b3-b4"]))
    with pytest.raises(RecordError) as info:
        record.replay()
    assert info.value.move_number == 2


# ----- per-move comments: meta["comments"], one caption per ply -----------------------

def test_comments_are_one_caption_per_ply() -> None:
    """meta["comments"] lines up with plies ([0] before the first move); short lists
    are padded, long ones cut at the last move, and anything but text is no comment."""
    record = Record.loads(_record_json(meta={"comments": ["Before.", 7, None, "Third."]}))
    assert record.comments() == ["Before.", "", "", "Third.", ""]
    record.meta["comments"] = ["a", "b", "c", "d", "e", "past the end", "more"]
    assert record.comments() == ["a", "b", "c", "d", "e"]
    for junk in (None, "text", {"0": "x"}, 5):
        record.meta["comments"] = junk
        assert record.comments() == [""] * 5
    del record.meta["comments"]
    assert record.comments() == [""] * 5


def test_a_long_comment_is_cut_and_comments_round_trip() -> None:
    comments = ["Start.", "x" * (MAX_COMMENT_CHARS + 50), "", "Четвёртый ход.", ""]
    record = Record.loads(_record_json(meta={"comments": comments}))
    assert len(record.comments()[1]) == MAX_COMMENT_CHARS
    again = Record.loads(record.dumps())
    assert again == record and again.meta["comments"] == comments
