"""Issue 22 in CPython and Pyodide: the one check of a save at load, and errors that name the problem.

* ``summarize`` (every screen's reading of a save) refuses what cannot be
  opened (ids unfit for a URL, a record of the wrong shape) and reads odd
  details as unknown: a turn with no side name, dates JavaScript cannot hold.
* A one-player game's draw offer is dropped, not a reason to refuse the game.
* JSON numbers too long for Python, options of the wrong type, a record
  whose stated ending its moves do not reach, a record or game past the
  move cap: each is a keyed error that says so, in English and Russian.
* The backup file gives back every stored text exactly.
"""

from __future__ import annotations

import io
import json
import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tessera import i18n
from tessera.cli import main
from tessera.core import registry, session as session_module
from tessera.core.game import PositionError
from tessera.core.record import MAX_NUMBER_DIGITS, MAX_RECORD_MOVES, Record, RecordError, parse_json
from tessera.core.session import Seat, Session, SessionError
from tessera.games.abatis import Abatis
from tessera.games.quadrature import Quadrature
from tessera.ui.saves.saved_games import MAX_JS_TIME, SaveProblem, backup_file, js_time, summarize

RECORD = {"format": "tessera/1", "game": "quadrature", "moves": ["e9-e8", "e3-e4"]}


def saved(session_id: str = "abc", **meta: Any) -> dict:
    session = Session(Quadrature(), [Seat("human"), Seat("human")], session_id,
                      meta={"updated": 5.0, "side_names": ["white", "black"], **meta})
    session.play_text("e9-e8")
    return session.to_save()


# ----- the one check at load -------------------------------------------------------------

@pytest.mark.parametrize("session_id", ["", " ", "a b", "../x", "a/b", "#x", "x" * 65, "é"])
def test_ids_unfit_for_a_url_are_refused(session_id: str) -> None:
    """An empty id sent the router round #/play/<game>/ for ever; an id must be a URL part."""
    with pytest.raises(SaveProblem) as caught:
        summarize(json.dumps(saved(session_id)), session_id)
    assert caught.value.key == "error.save.id"


@pytest.mark.parametrize("session_id", ["abc", "18c2f3a4b5c6d7e8", "r" + "0" * 20, "fz-1", "a_b"])
def test_ids_the_app_makes_are_read(session_id: str) -> None:
    assert summarize(json.dumps(saved(session_id)), session_id).session_id == session_id


@pytest.mark.parametrize("names", [None, "white", [], 5, {"0": "white"}])
def test_a_turn_without_a_side_name_is_unknown(names: Any) -> None:
    """"to_move": 0 with side_names missing or not a list made the home screen raise IndexError."""
    data = saved(to_move=0)
    if names is None:
        del data["meta"]["side_names"]
    else:
        data["meta"]["side_names"] = names
    assert summarize(json.dumps(data), "abc").to_move is None


@pytest.mark.parametrize("ended", [1e308, -1.0, MAX_JS_TIME + 1, 10 ** 400, "tomorrow", True])
def test_an_end_time_javascript_cannot_hold_is_unknown(ended: Any) -> None:
    """"ended": 1e308 made the archive's date conversion throw: such a time falls back to the last save's."""
    data = saved(over=True, ended=ended)
    assert summarize(json.dumps(data), "abc").ended == 5.0
    data["meta"]["updated"] = ended
    assert summarize(json.dumps(data), "abc").ended == 0.0


def test_js_time_keeps_every_time_a_date_can_hold() -> None:
    assert js_time(0) == 0.0 and js_time(1.7e12) == 1.7e12 and js_time(MAX_JS_TIME) == MAX_JS_TIME
    assert js_time(math.nan) == js_time(math.inf) == js_time(False) == js_time(None) == 0.0


@pytest.mark.parametrize("record", [
    {**RECORD, "moves": "e9-e8"}, {**RECORD, "moves": [1]}, {**RECORD, "seed": -1}, {**RECORD, "options": []},
    {**RECORD, "result": {"winner": 0, "reason": "no such thing!"}}, {**RECORD, "format": "tessera/9"},
    {**RECORD, "moves": ["e9-e8"] * (MAX_RECORD_MOVES + 1)},
])
def test_a_record_of_the_wrong_shape_is_refused_at_load(record: dict) -> None:
    """The record's shape is part of the one check, so no screen meets it half-read."""
    data = saved()
    data["record"] = record
    with pytest.raises(SaveProblem) as caught:
        summarize(json.dumps(data), "abc")
    assert caught.value.key == "error.save.record" and "\n" not in str(caught.value)


def test_a_game_this_build_does_not_know_is_left_alone() -> None:
    """A newer build's game is not this build's to judge: read (and not listed), never put aside."""
    data = saved()
    data["record"] = {"format": "tessera/1", "game": "hexagony", "moves": {"whatever": 1}}
    assert summarize(json.dumps(data), "abc").game == "hexagony"


META_VALUES = st.one_of(st.none(), st.booleans(), st.integers(-2 ** 70, 2 ** 70), st.floats(allow_nan=True),
                        st.text(max_size=50), st.lists(st.text(max_size=8), max_size=10),
                        st.dictionaries(st.text(max_size=8), st.integers(-3, 3), max_size=3))
META_KEYS = st.sampled_from(["to_move", "side_names", "ended", "updated", "ply", "over", "local_turn",
                             "result", "score", "branch", "created"])


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(META_KEYS, META_VALUES, max_size=6), st.integers(-1, 3), st.text(max_size=12))
def test_every_summary_field_is_in_range_whatever_the_meta(meta: dict, winner: int, reason: str) -> None:
    """Fuzzed details: a summary whose fields the screens can use as they are, or a SaveProblem."""
    data = saved()
    data["meta"] = {**meta, "result": {"winner": winner, "reason": reason}} if meta.get("result") else meta
    try:
        summary = summarize(json.dumps(data), "abc")
    except SaveProblem:
        return
    assert summary.to_move is None or 0 <= summary.to_move < len(summary.side_names)
    assert summary.winner is None or 0 <= summary.winner < len(summary.side_names)
    assert 0 <= summary.ended <= MAX_JS_TIME and 0 <= summary.updated <= MAX_JS_TIME
    assert summary.ply >= 0 and (summary.score is None or summary.score >= 0)


# ----- a one-player game's draw offer ----------------------------------------------------

def test_a_draw_offer_in_a_one_player_save_is_dropped_not_refused() -> None:
    """Abatis with "draw_offer": 0 opened into an IndexError; it is a readable game."""
    session = Session(Abatis(), [Seat("human")], "alone")
    session.play(session.game.legal_moves()[0])
    data = session.to_save()
    data["draw_offer"] = 0
    again = Session.from_save(data)
    assert again.draw_offer is None and again.history() == session.history()
    with pytest.raises(SessionError) as caught:
        again.offer_draw(0)
    assert caught.value.key == "error.session.no_draws"


# ----- errors that name the problem, not Python ----------------------------------------------

def test_a_number_too_long_for_python_is_said_so() -> None:
    """4,301 digits made Python's int() raise ValueError, worded "not valid JSON (ValueError)"."""
    for sign in ("", "-"):
        text = json.dumps({**RECORD, "seed": 0}).replace('"seed": 0', f'"seed": {sign}{"7" * (MAX_NUMBER_DIGITS + 1)}')
        with pytest.raises(RecordError) as caught:
            Record.loads(text)
        assert caught.value.key == "error.json.number_too_long"
        assert caught.value.params == {"count": MAX_NUMBER_DIGITS + 1, "limit": MAX_NUMBER_DIGITS}
        assert "4301 digits long" in str(caught.value)
        assert "ValueError" not in i18n.say(caught.value, "ru") and "4301 цифру" in i18n.say(caught.value, "ru")
    assert parse_json("7" * MAX_NUMBER_DIGITS, RecordError) == int("7" * MAX_NUMBER_DIGITS)


def other_types(value: Any) -> list[Any]:
    """Values equal to ``value`` in Python that are not of its type (5.0 == 5, True == 1)."""
    found = [float(value)] if isinstance(value, int) and not isinstance(value, bool) else []
    if isinstance(value, bool):
        found.append(int(value))
    if value in (0, 1) and not isinstance(value, bool):
        found.append(bool(value))
    return found


@pytest.mark.parametrize("game_id", registry.available_ids())
def test_options_are_checked_by_type_in_every_game(game_id: str) -> None:
    """Abatis {"colours_max": 5.0} passed (5.0 == 5) and then failed laying out the board."""
    cls = registry.game_class(game_id)
    for spec in cls.option_specs:
        for value in (spec.choices or (True, False)):
            assert spec.validate(value) == value and type(spec.validate(value)) is type(value)
            for odd in other_types(value):
                with pytest.raises(PositionError) as caught:
                    spec.validate(odd)
                assert caught.value.key.startswith("error.option.")


def test_abatis_refuses_a_float_colour_count_as_a_bad_option() -> None:
    with pytest.raises(RecordError) as caught:
        Record.loads(json.dumps({"format": "tessera/1", "game": "abatis", "options": {"colours_max": 5.0}})).replay()
    assert "colours_max" in str(caught.value) and "TypeError" not in str(caught.value)


@pytest.mark.parametrize("ply", [None, "1"])
def test_render_and_replay_both_refuse_an_ending_the_moves_do_not_reach(tmp_path: Path, ply: str | None) -> None:
    """``render`` drew such a record and exited 0 while ``replay`` refused it."""
    path = tmp_path / "game.json"
    path.write_text(json.dumps({**RECORD, "result": {"winner": 0, "reason": "annihilation"}}))
    more = ["--ply", ply] if ply else []
    for argv in (["replay", str(path), *more], ["render", str(path), "-o", str(tmp_path / "x.svg"), *more]):
        err = io.StringIO()
        assert main(argv, io.StringIO(), err) == 2, argv
        assert "do not reach" in err.getvalue()
    assert not (tmp_path / "x.svg").exists()


def test_a_record_past_the_move_cap_is_refused_in_words() -> None:
    with pytest.raises(RecordError) as caught:
        Record.from_json({**RECORD, "moves": ["e9-e8"] * (MAX_RECORD_MOVES + 1)})
    assert caught.value.key == "error.record.too_many_moves"
    assert f"{MAX_RECORD_MOVES + 1} moves; a game holds at most {MAX_RECORD_MOVES}" in str(caught.value)
    assert "в записи" in i18n.say(caught.value, "ru")


def test_a_game_at_the_move_cap_takes_no_more_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    """The session refuses the move a record could not hold, saying why (the cap made small here)."""
    monkeypatch.setattr(session_module, "MAX_RECORD_MOVES", 2)
    session = Session(Quadrature(), [Seat("human"), Seat("human")], "cap")
    session.play_text("e9-e8")
    session.play_text("e3-e4")
    with pytest.raises(SessionError) as caught:
        session.play_text("e8-e7")
    assert caught.value.key == "error.session.move_limit" and session.game.ply == 2
    assert "start a new game" in str(caught.value) and "начните новую" in i18n.say(caught.value, "ru")


# ----- the backup ----------------------------------------------------------------------------

@settings(max_examples=50, deadline=None)
@given(st.dictionaries(st.text(min_size=1, max_size=30), st.text(max_size=200), max_size=8))
def test_a_backup_gives_back_every_stored_text_exactly(items: dict[str, str]) -> None:
    text = backup_file(items, 1.7e12)
    assert text.isascii()
    data = json.loads(text)
    assert data["format"] == "tessera-backup/1" and data["items"] == items and data["saved"] == 1.7e12
