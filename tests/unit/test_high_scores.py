"""High-score tables: reading a stored table strictly, placing results, fuzzed input."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st

from tessera.core.high_scores import (TABLE_SIZE, HighScore, HighScoreError, clean_name, dump_table, parse_table,
                                      place, rename)


def entry(score: int, name: str = "Ann", session: str = "") -> HighScore:
    return HighScore(name, score, 2, "2026-11-25", session)


def test_place_keeps_the_best_eight_best_first() -> None:
    table: list[HighScore] = []
    rows = []
    for index, score in enumerate([50, 10, 70, 30, 90, 20, 60, 40, 80, 5]):
        table, row = place(table, entry(score, session=f"s{index}"))
        rows.append(row)
    assert [e.score for e in table] == [90, 80, 70, 60, 50, 40, 30, 20]
    assert len(table) == TABLE_SIZE
    assert rows[0] == 0 and rows[-1] is None          # 5 is not good enough once eight are better
    assert rows[8] == 1                                # 80 went in second, behind 90


def test_equal_scores_keep_the_older_first_and_a_game_enters_once() -> None:
    table, _ = place([], entry(10, "Old", "a"))
    table, row = place(table, entry(10, "New", "b"))
    assert row == 1 and [e.name for e in table] == ["Old", "New"]
    again, row = place(table, entry(99, "New", "b"))
    assert row is None and again == table


def test_round_trip_and_rename() -> None:
    table = [entry(30, "Ann", "x"), entry(20, "Борис", "y")]
    assert parse_table(dump_table(table)) == table
    renamed = rename(table, 1, "Вера")
    assert [e.name for e in renamed] == ["Ann", "Вера"] and renamed[1].score == 20


def test_clean_name() -> None:
    assert clean_name("  Ann \n Lee ", "Player") == "Ann Lee"
    assert clean_name("", "Player") == "Player"
    assert clean_name(None, "Player") == "Player"
    assert len(clean_name("x" * 500, "Player")) == 40


@pytest.mark.parametrize("text", [
    "", "null", "[]", "{}", '{"version": 2, "entries": []}', '{"version": 1, "entries": {}}',
    '{"version": 1, "entries": [5]}',
    '{"version": 1, "entries": [{"name": "", "score": 1, "level": 1, "date": "2026-01-01"}]}',
    '{"version": 1, "entries": [{"name": "a", "score": -1, "level": 1, "date": "2026-01-01"}]}',
    '{"version": 1, "entries": [{"name": "a", "score": true, "level": 1, "date": "2026-01-01"}]}',
    '{"version": 1, "entries": [{"name": "a", "score": 1e400, "level": 1, "date": "2026-01-01"}]}',
    '{"version": 1, "entries": [{"name": "a", "score": ' + "9" * 400 + ', "level": 1, "date": "2026-01-01"}]}',
    '{"version": 1, "entries": [{"name": "a", "score": 1, "level": 0, "date": "2026-01-01"}]}',
    '{"version": 1, "entries": [{"name": "a", "score": 1, "level": 1, "date": "yesterday"}]}',
    '{"version": 1, "entries": [{"name": "a", "score": 1, "level": 1, "date": "2026-01-01", "session": 5}]}',
    json.dumps({"version": 1, "entries": [{"name": "a", "score": 1, "level": 1, "date": "2026-01-01"}] * 9}),
    "[" * 20000 + "]" * 20000, "x" * 30000, "\ufeff{",
])
def test_bad_tables_are_refused_with_our_error(text: str) -> None:
    with pytest.raises(HighScoreError):
        parse_table(text)


@settings(max_examples=150, deadline=None)
@given(st.one_of(st.text(max_size=300), st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=20)),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20).map(json.dumps)))
def test_fuzzed_tables_never_raise_anything_else(text: str) -> None:
    try:
        table = parse_table(text)
    except HighScoreError:
        return
    assert len(table) <= TABLE_SIZE
