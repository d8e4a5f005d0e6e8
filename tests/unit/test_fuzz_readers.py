"""Fuzzing every reader: mutated records, saves and position strings.

Each test takes real inputs (records and saves of played games, position
strings of real positions), breaks them at random (text edits with nasty
fragments, or a value of the parsed structure swapped for one Python
dislikes: ints past float range, NaN, deep lists, wrong container types),
and feeds them to a reader.  The reader must answer with its own error
class (a clear message, one line), or read a valid state that round-trips;
never anything else.  The SGF reader has its own fuzz test in
``test_dots_sgf.py``.

Budgets are small: these run in Pyodide under Node too, where Python is
about three times slower.
"""

from __future__ import annotations

import copy
import io
import json
import math
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tessera.cli import main
from tessera.core.game import GameError
from tessera.core.record import Record, RecordError
from tessera.core.registry import game_class
from tessera.core.rng import SeededRandom
from tessera.core.session import Seat, Session, SessionError
from tessera.games.dots import Dots
from tessera.games.quadrature import Quadrature
from tessera.ui.saves.saved_games import SaveProblem, summarize

PROFILE = settings(max_examples=int(__import__("os").environ.get("FUZZ_N", 60)), deadline=None, suppress_health_check=[HealthCheck.too_slow])

NASTY_TEXT = st.sampled_from([
    "[", "]", "{", "}", '"', ",", ":", "\\", "9" * 5000, "1e999", "-1", "null", "true", "NaN",
    "Infinity", "\\u0000", "\ufeff", "[" * 300, "{\"a\":" * 80, '"x"', "0", "\n", "\u00e9", "\ud800",
])
NASTY_VALUES = st.sampled_from([
    None, True, False, 0, -1, 2 ** 64, 10 ** 400, -10 ** 400, 1.5, math.inf, -math.inf, math.nan, "",
    "x" * 5000, "9" * 5000, [], {}, [[[[]]]], {"a": {"b": {}}}, ["e9-e8"], {"kind": "bot"},
])


def played_quadrature(seed: int, plies: int) -> Quadrature:
    game = Quadrature()
    rng = SeededRandom(seed)
    while game.ply < plies and not game.is_over():
        game.push_unchecked(rng.choice(game.legal_moves()))
    return game


def played_dots(seed: int, plies: int) -> Dots:
    game = Dots({"size": "20x20"})
    game.random_fill(SeededRandom(seed), plies)
    return game


GAMES = [played_quadrature(1, 30), played_dots(2, 120), played_quadrature(3, 0)]
RECORDS = [Record.from_game(game, meta={"white": "Ann"}).dumps() for game in GAMES]
SAVES = [Session(game, [Seat("human"), Seat("bot", "easy")], "s1",
                 meta={"updated": 1.0, "side_names": list(game.seat_names), "to_move": game.to_move}).to_save()
         for game in GAMES]
POSITIONS = [(type(game), game.position()) for game in GAMES]


@st.composite
def mutated(draw: st.DrawFn, text: str) -> str:
    """``text`` after one to four random edits."""
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(text)))
        j = min(len(text), i + draw(st.integers(0, 12)))
        kind = draw(st.sampled_from(["insert", "delete", "replace", "duplicate"]))
        fragment = draw(st.one_of(NASTY_TEXT, st.text(max_size=6)))
        if kind == "insert":
            text = text[:i] + fragment + text[i:]
        elif kind == "delete":
            text = text[:i] + text[j:]
        elif kind == "replace":
            text = text[:i] + fragment + text[j:]
        else:
            text = text[:j] + text[i:j] + text[j:]
    return text


def paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    """Every path (keys and indexes) into a parsed JSON value."""
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found += paths(item, prefix + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value[:6]):
            found += paths(item, prefix + (index,))
    return found


@st.composite
def broken_structure(draw: st.DrawFn, data: dict) -> dict:
    """A deep copy of ``data`` with one to three values replaced."""
    data = json.loads(json.dumps(data))
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(paths(data)[1:]))
        target = data
        for key in path[:-1]:
            target = target[key]
        if isinstance(target, (dict, list)):
            target[path[-1]] = copy.deepcopy(draw(NASTY_VALUES))  # never mutate the shared samples
    return data


def check_record_text(text: str) -> None:
    try:
        record = Record.loads(text)
        game = record.replay()
        record.outcome(game)
    except RecordError as error:
        assert "\n" not in str(error) and len(str(error)) < 500
        return
    again = type(game)(game.options, setup=game.position())
    assert again.position() == game.position()


@PROFILE
@given(data=st.data(), index=st.integers(0, len(RECORDS) - 1))
def test_mutated_records_give_a_record_error_or_a_valid_game(data: st.DataObject, index: int) -> None:
    """Text edits anywhere in a record: RecordError, or a game whose position round-trips."""
    check_record_text(data.draw(mutated(RECORDS[index])))


@PROFILE
@given(data=st.data(), index=st.integers(0, len(RECORDS) - 1))
def test_records_with_odd_values_give_a_record_error_or_a_valid_game(data: st.DataObject, index: int) -> None:
    """Any value of a record swapped for one Python dislikes: RecordError or a valid game."""
    broken = data.draw(broken_structure(json.loads(RECORDS[index])))
    check_record_text(json.dumps(broken))


def check_save(data: Any) -> None:
    """Session.from_save says SessionError/RecordError, or the session saves and reloads."""
    try:
        session = Session.from_save(data)
    except (SessionError, RecordError) as error:
        assert "\n" not in str(error)
        return
    again = Session.from_save(json.loads(json.dumps(session.to_save())))
    assert again.game.position() == session.game.position()
    assert again.history() == session.history()


@PROFILE
@given(data=st.data(), index=st.integers(0, len(SAVES) - 1))
def test_saves_with_odd_values_are_refused_cleanly_or_resume(data: st.DataObject, index: int) -> None:
    """The saved-game loader and the home screen's summary never raise Python's own errors."""
    broken = data.draw(broken_structure(SAVES[index]))
    check_save(broken)
    try:
        summary = summarize(json.dumps(broken), "s1")
    except SaveProblem as problem:
        assert "\n" not in str(problem)
        return
    assert isinstance(summary.game, str) and isinstance(summary.updated, float)


@PROFILE
@given(data=st.data(), index=st.integers(0, len(SAVES) - 1))
def test_mutated_save_texts_are_refused_cleanly_or_resume(data: st.DataObject, index: int) -> None:
    text = data.draw(mutated(json.dumps(SAVES[index])))
    try:
        summary = summarize(text, "s1")
    except SaveProblem:
        return
    check_save(summary.data)


@PROFILE
@given(data=st.data(), index=st.integers(0, len(POSITIONS) - 1))
def test_mutated_position_strings_give_a_position_error_or_a_playable_game(data: st.DataObject,
                                                                           index: int) -> None:
    """A broken setup is refused with the game's own error, or it is a position that plays and round-trips."""
    cls, position = POSITIONS[index]
    text = data.draw(mutated(position))
    try:
        game = cls(setup=text)
    except GameError as error:
        assert "\n" not in str(error) and len(str(error)) < 500
        return
    assert cls(setup=game.position()).position() == game.position()
    moves = game.legal_moves()
    if moves:
        before = game.position()
        game.push(moves[len(moves) // 2])
        game.pop()
        assert game.position() == before


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(data=st.data(), index=st.integers(0, len(RECORDS) - 1))
def test_the_command_line_answers_bad_files_in_one_line(tmp_path: Path, data: st.DataObject, index: int) -> None:
    """``replay`` and ``render`` exit 0 or 2, and a refusal is one line on stderr."""
    path = tmp_path / "game.json"
    path.write_text(data.draw(mutated(RECORDS[index])), encoding="utf-8", errors="surrogatepass")
    for argv in (["replay", str(path)], ["render", str(path), "-o", "-"]):
        err = io.StringIO()
        status = main(argv, io.StringIO(), err)
        assert status in (0, 2), err.getvalue()
        if status == 2:
            assert err.getvalue().count("\n") == 1


def test_every_registered_game_reads_back_its_own_records() -> None:
    """The fixtures above are real: each record replays to its game."""
    for text, game in zip(RECORDS, GAMES):
        replayed = Record.loads(text).replay()
        assert replayed.position() == game.position()
        assert game_class(game.game_id) is type(game)
