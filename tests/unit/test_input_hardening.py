"""No input may crash or brick anything: the readers' hard cases, one by one.

Each test is an input Python itself rejects (deep nesting, huge numbers,
numbers past float range, wrong container types, a byte-order mark) fed to
a reader that must answer with its own clear, one-line error, or read it.
The random versions of these are in ``test_fuzz_readers.py``.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from tessera.cli import MAX_INPUT_BYTES, main
from tessera.core.game import excerpt
from tessera.core.record import MAX_JSON_DEPTH, Record, RecordError, deepest_nesting
from tessera.core.session import Seat, Session, SessionError
from tessera.games.quadrature import Quadrature
from tessera.ui.saves.saved_games import SaveProblem, summarize

RECORD = {"format": "tessera/1", "game": "quadrature", "moves": ["e9-e8", "e3-e4"]}


def saved(**changes) -> dict:
    game = Quadrature()
    game.push_text("e9-e8")
    data = Session(game, [Seat("human"), Seat("bot", "easy")], "abc",
                   meta={"updated": 5.0, "side_names": ["white", "black"]}).to_save()
    data.update(changes)
    return data


# ----- JSON that Python's parser cannot take ---------------------------------------

@pytest.mark.parametrize("depth", [MAX_JSON_DEPTH + 1, 1_000, 100_000])
def test_deep_nesting_is_a_bad_record_not_a_crash(depth: int) -> None:
    """JSON nested past the limit is refused before parsing (in Pyodide ~10,000 levels kill the interpreter)."""
    text = json.dumps({**RECORD, "meta": {"x": 1}}).replace('{"x": 1}', "[" * depth + "]" * depth)
    with pytest.raises(RecordError, match="nested"):
        Record.loads(text)


def test_nesting_depth_ignores_brackets_inside_strings() -> None:
    """Brackets in move texts or names do not count as nesting."""
    assert deepest_nesting(json.dumps({"a": "[" * 500, "b": ["\\\"{{{{"]})) == 2
    assert deepest_nesting("[" * 70 + "]" * 70) == 70


def test_byte_order_mark_is_read() -> None:
    """A JSON record saved by an editor that writes a UTF-8 BOM reads like any other."""
    text = json.dumps(RECORD)
    assert Record.loads("\ufeff" + text).moves == RECORD["moves"]
    assert Record.loads(b"\xef\xbb\xbf" + text.encode()).moves == RECORD["moves"]


def test_a_move_of_five_thousand_digits_is_a_bad_move() -> None:
    """int() refuses over 4300 digits with a ValueError: the record names the move instead."""
    record = Record.loads(json.dumps({**RECORD, "moves": ["e" + "9" * 5000 + "-e8"]}))
    with pytest.raises(RecordError) as caught:
        record.replay()
    assert caught.value.move_number == 1
    assert len(str(caught.value)) < 200 and "\n" not in str(caught.value)


@pytest.mark.parametrize("setup", ["9" * 5000 + " b - -", "39/" * 31 + "39 b - b:" + "1" * 5000 + "-1"])
def test_dots_positions_with_huge_numbers_are_refused(setup: str) -> None:
    record = Record.loads(json.dumps({"format": "tessera/1", "game": "dots", "setup": setup}))
    with pytest.raises(RecordError, match="bad start"):
        record.replay()


@pytest.mark.parametrize("result", [{"winner": 0, "reason": "home_plate"}, {"winner": 1, "reason": "no_moves"}])
def test_a_stated_rule_ending_the_moves_do_not_reach_is_refused(result: dict) -> None:
    """Only endings the moves cannot show (resign, agreed draw, time) are taken from the record."""
    record = Record.loads(json.dumps({**RECORD, "result": result}))
    game = record.replay()
    with pytest.raises(RecordError, match="do not reach"):
        record.outcome(game)
    stated = Record.loads(json.dumps({**RECORD, "result": {"winner": 0, "reason": "resign"}}))
    assert stated.outcome(stated.replay()).reason == "resign"


def test_a_result_reason_is_a_key_not_free_text() -> None:
    with pytest.raises(RecordError):
        Record.loads(json.dumps({**RECORD, "result": {"winner": 0, "reason": "x" * 10_000}}))


def test_excerpts_are_short_escaped_and_one_line() -> None:
    assert excerpt("a\nb") == "'a\\nb'"
    assert excerpt("z" * 10_000).endswith("…") and len(excerpt("z" * 10_000)) < 40
    assert str(excerpt(10 ** 400)) == "a very large number"   # a Message: worded in the player's language
    assert str(excerpt([[[]]])) == "a list"


# ----- saved games ---------------------------------------------------------------------

@pytest.mark.parametrize("change", [
    {"clock": {"control": {"total": 10 ** 400}, "remaining": [1, 1], "spent": 0}},
    {"clock": {"control": {"total": 60}, "remaining": [10 ** 400, 1], "spent": 0}},
    {"clock": {"control": {"total": 60}, "remaining": [1, 1], "running": 0, "move_spent": 10 ** 400}},
    {"clock": {"control": {"total": 60}, "remaining": [1, 1], "running": 0, "move_spent": [1]}},
    {"clock": {"control": {"total": 60}, "remaining": [1, 1], "running": 10 ** 400}},
    {"record": {"format": "tessera/1", "game": ["quadrature"], "moves": []}},
    {"record": {"format": "tessera/1", "game": "quadrature", "options": {"first": [1]}}},
    {"seats": [{"kind": "bot", "level": 5}, {"kind": "human"}]},
    {"seats": [[], {}]},
    {"draw_offer": 10 ** 400},
    {"meta": 5},
])
def test_bad_saves_raise_only_session_errors(change: dict) -> None:
    """Whatever a stored value makes Python raise, the loader says SessionError (or RecordError)."""
    with pytest.raises((SessionError, RecordError)):
        Session.from_save(saved(**change))


@pytest.mark.parametrize("meta", [
    {"updated": 10 ** 400}, {"updated": "soon"}, {"side_names": 5}, {"side_names": {"a": 1}},
    {"side_names": ["x" * 1000, "y"]}, {"to_move": 10 ** 400}, {"to_move": 7}, {"ply": -3},
    {"ply": 10 ** 400}, {"local_turn": "yes"}, {"over": [1]},
])
def test_summaries_survive_any_metadata(meta: dict) -> None:
    """The home screen's summary of a save never fails on its details: odd ones are dropped."""
    data = saved()
    data["meta"] = meta
    summary = summarize(json.dumps(data), "abc")
    assert isinstance(summary.updated, float) and isinstance(summary.ply, int) and summary.ply >= 0
    assert summary.to_move is None or 0 <= summary.to_move < len(summary.side_names)
    assert all(isinstance(name, str) and len(name) <= 40 for name in summary.side_names)


@pytest.mark.parametrize("raw", [
    "", "null", "[]", "{", "[" * 20_000, '{"format": "tessera-session/1", "id": "abc"}',
    json.dumps({**saved(), "id": "other"}), json.dumps({**saved(), "record": {"game": ["x"]}}),
    json.dumps({**saved(), "record": {"game": "q" * 5000}}), "1" * 5000,
])
def test_unusable_saves_are_a_save_problem(raw: str) -> None:
    with pytest.raises(SaveProblem):
        summarize(raw, "abc")


# ----- the command line --------------------------------------------------------------

class EndlessZeros(io.RawIOBase):
    """Like /dev/zero; reading it whole would never end."""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        buffer[:] = bytes(len(buffer))
        return len(buffer)

    def readall(self) -> bytes:
        raise AssertionError("read without a size limit")


class Stdin:
    def __init__(self, binary) -> None:
        self.buffer = binary


def test_replay_refuses_endless_input_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """``replay /dev/zero``: at most the limit plus one byte is read, then a clear error."""
    monkeypatch.setattr("sys.stdin", Stdin(io.BufferedReader(EndlessZeros())))
    err = io.StringIO()
    assert main(["replay", "-"], io.StringIO(), err) == 2
    assert "too large" in err.getvalue() and str(MAX_INPUT_BYTES) in err.getvalue()


def test_replay_reads_a_json_record_with_a_byte_order_mark(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(RECORD).encode())
    out = io.StringIO()
    assert main(["replay", str(path)], out, io.StringIO()) == 0
    assert "ply: 2 of 2" in out.getvalue()


def test_replay_does_not_trust_a_stated_rule_ending(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps({**RECORD, "result": {"winner": 0, "reason": "annihilation"}}))
    err = io.StringIO()
    assert main(["replay", str(path)], io.StringIO(), err) == 2
    assert "do not reach" in err.getvalue()


@pytest.mark.parametrize("size", ["0", "-40", "1000000"])
def test_render_refuses_sizes_out_of_range(tmp_path: Path, size: str) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(RECORD))
    err = io.StringIO()
    assert main(["render", str(path), "-o", str(tmp_path / "x.svg"), "--size", size], io.StringIO(), err) == 2
    assert "--size" in err.getvalue()


@pytest.mark.parametrize("text", [
    "[" * 50_000, '{"format": "tessera/1", "game": "quadrature", "moves": ["' + "x" * 100_000 + '"]}',
    '{"format": "tessera/1", "game": "quadrature", "seed": ' + "9" * 5000 + "}",
    '{"format": "tessera/1", "game": "dots", "options": {"size": "' + "9" * 5000 + 'x5"}}',
])
def test_every_bad_input_is_one_short_line_and_exit_2(tmp_path: Path, text: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text)
    err = io.StringIO()
    assert main(["replay", str(path)], io.StringIO(), err) == 2
    message = err.getvalue()
    assert message.count("\n") == 1 and len(message) < 400, message


def test_an_unexpected_failure_is_one_line_not_a_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    """The last guard in ``main``: a slip of ours still never shows a traceback."""
    def broken(*_args):
        raise TypeError("something internal\nwith two lines")
    monkeypatch.setattr("tessera.cli.cmd_replay", broken)
    err = io.StringIO()
    assert main(["replay", "-"], io.StringIO(), err) == 1
    assert err.getvalue().count("\n") == 1 and "TypeError" in err.getvalue()
