"""Saves across tabs (versions and the conflict rule), continuing from a
position, the seats an import keeps, and the archive's summaries.

The browser parts (the ``storage`` event, the dialogs) are in
tests/browser/test_saves_tabs_archive.py; here is the pure logic they rely on.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tessera.core.game import Outcome
from tessera.core.record import Record
from tessera.core.registry import game_class
from tessera.core.session import Seat, Session, SessionError, read_revision
from tessera.ui.saves.import_seats import (HUMAN, RecordPeek, choices_for, has_player, new_game_choice, peek,
                                     seats_for)
from tessera.ui.saves.versions import Change, SaveStamp, classify, game_part, plan_write, stamp_of
from tessera.ui.saves.saved_games import beyond_archive, finished_newest_first, summarize

OPENING = ["e9-e8", "e3-e4", "e8-e7", "e4-e5", "d9-d8", "f3-f4"]


def quadrature(moves: list[str] = OPENING, seats: list[Seat] | None = None, session_id: str = "g1") -> Session:
    game = game_class("quadrature")()
    for text in moves:
        game.push_text(text)
    return Session(game, seats or [Seat("human"), Seat("human")], session_id, meta={"created": 1.0})


# ----- save versions ------------------------------------------------------------------

def test_a_save_carries_its_version_and_an_old_save_loads_as_version_zero() -> None:
    session = quadrature()
    session.revision, session.writer = 7, "tab-a"
    data = session.to_save()
    assert (data["rev"], data["writer"]) == (7, "tab-a")
    again = Session.from_save(data)
    assert (again.revision, again.writer) == (7, "tab-a")
    del data["rev"], data["writer"]          # as saved before versions existed
    old = Session.from_save(data)
    assert (old.revision, old.writer) == (0, "")
    assert old.history() == OPENING


@pytest.mark.parametrize("rev, writer", [(-1, ""), (1.5, ""), (True, ""), ("3", ""), (2**60, ""), (1, 5),
                                         (1, "x" * 41)])
def test_a_bad_version_is_a_bad_save(rev: Any, writer: Any) -> None:
    data = quadrature().to_save()
    data.update({"rev": rev, "writer": writer})
    with pytest.raises(SessionError):
        Session.from_save(data)
    with pytest.raises(SessionError):
        read_revision(data)


def save_of(session: Session, rev: int, writer: str) -> dict:
    session.revision, session.writer = rev, writer
    return session.to_save()


def test_a_tab_writes_the_next_version_over_its_own_or_a_missing_save() -> None:
    session = quadrature()
    stored = save_of(session, 4, "tab-a")
    base, base_game = SaveStamp(4, "tab-a"), game_part(stored)
    assert plan_write(stored, base, base_game, "tab-a") == SaveStamp(5, "tab-a")
    assert plan_write(None, base, base_game, "tab-a") == SaveStamp(5, "tab-a")   # deleted elsewhere: saved again
    assert plan_write(None, SaveStamp(), None, "tab-n") == SaveStamp(1, "tab-n")  # a new game


def test_a_newer_game_from_another_tab_is_never_overwritten() -> None:
    """Two tabs open version 4; A moves and saves 5; B's save is refused, and
    B learns of it from the storage event too."""
    tab_a, tab_b = quadrature(), quadrature()
    stored = save_of(tab_a, 4, "tab-a")
    base, base_game = SaveStamp(4, "tab-a"), game_part(stored)

    tab_a.play_text("e7-e6")
    stamp = plan_write(stored, base, base_game, "tab-a")
    stored = save_of(tab_a, stamp.rev, stamp.writer)
    assert stamp == SaveStamp(5, "tab-a")

    assert classify(stored, base, base_game) is Change.CONFLICT   # B's storage event
    tab_b.play_text("d8-d7")                                       # B played on its stale copy
    assert plan_write(stored, base, base_game, "tab-b") is None    # and may not save it
    assert Session.from_save(stored).history() == OPENING + ["e7-e6"]


def test_same_version_by_another_tab_is_newer_too() -> None:
    """Two saves of one version by two tabs (writes that raced): not ours, so newer."""
    session = quadrature()
    ours = game_part(save_of(session, 3, "tab-a"))
    session.play_text("e7-e6")
    theirs = save_of(session, 4, "tab-b")
    assert classify(theirs, SaveStamp(4, "tab-a"), ours) is Change.CONFLICT
    assert classify(theirs, SaveStamp(4, "tab-b"), ours) is Change.NONE


def test_a_newer_save_of_the_same_game_is_quiet() -> None:
    """Another tab flipped the board or saved its clock when hidden: same moves,
    so this tab takes that version and its next save goes on top of it."""
    session = quadrature()
    stored = save_of(session, 4, "tab-a")
    base, base_game = SaveStamp(4, "tab-a"), game_part(stored)
    session.meta["flipped"] = True
    flipped = save_of(session, 5, "tab-b")
    assert classify(flipped, base, base_game) is Change.QUIET
    assert plan_write(flipped, base, base_game, "tab-a") == SaveStamp(6, "tab-a")
    session.resign(0)
    resigned = save_of(session, 6, "tab-b")
    assert classify(resigned, base, base_game) is Change.CONFLICT   # a result is a change of game


@pytest.mark.parametrize("stored", [None, [], "text", {"rev": "x"}, {"rev": 9, "writer": 3}])
def test_a_missing_or_unreadable_save_is_no_newer_game(stored: Any) -> None:
    assert stamp_of(stored) is None
    assert classify(stored, SaveStamp(2, "a"), None) is Change.NONE
    assert plan_write(stored, SaveStamp(2, "a"), None, "a") == SaveStamp(3, "a")


def test_an_older_stored_version_is_written_over() -> None:
    session = quadrature()
    stored = save_of(session, 2, "tab-b")
    assert plan_write(stored, SaveStamp(5, "tab-a"), None, "tab-a") == SaveStamp(6, "tab-a")


# ----- continue from here ---------------------------------------------------------------

def test_branch_save_plays_on_from_the_position_with_its_history() -> None:
    original = quadrature(seats=[Seat("human"), Seat("bot", "easy")])
    original.resign(0)
    data = original.branch_save(4, [Seat("bot", "medium"), Seat("human")], "g2", {"created": 2.0})
    assert data["record"]["moves"] == OPENING[:4]
    assert data["record"]["setup"] is None and data["record"]["result"] is None
    assert data["meta"]["branch"] == {"from": "g1", "ply": 4}
    branched = Session.from_save(json.loads(json.dumps(data)))
    assert branched.session_id == "g2" and not branched.is_over()
    assert branched.game.position() == original._game_at(4).position()
    assert branched.history() == OPENING[:4]
    assert [seat.kind for seat in branched.seats] == ["bot", "human"]
    assert branched.meta["branch"] == {"from": "g1", "ply": 4}
    assert branched.to_move == original.to_move_at(4) == 0
    assert original.history() == OPENING and original.is_over()   # the original is untouched
    assert original.to_move_at(len(OPENING)) == original.game.to_move


def test_branch_from_the_start_and_past_the_end_is_clamped() -> None:
    original = quadrature()
    assert original.branch_save(-3, [Seat("human")] * 2, "x")["record"]["moves"] == []
    assert original.branch_save(99, [Seat("human")] * 2, "x")["meta"]["branch"]["ply"] == len(OPENING)


def test_branch_keeps_a_set_up_start() -> None:
    """A game that began from a set-up continues from that set-up plus the moves."""
    setup = "10/8R./10/10/4BR4/4RB4/10/10/.B8/10 b - -"
    record = Record("dots", {"size": "10x10"}, 5, setup, ["3-3", "4-3", "3-4"])
    start = Session.from_record(record, [Seat("human"), Seat("human")], "d1")
    data = start.branch_save(2, [Seat("human"), Seat("bot", "easy")], "d2")
    assert data["record"]["setup"] == setup
    again = Session.from_save(data)
    assert again.game.options == start.game.options and again.game.seed == 5
    assert again.history() == ["3-3", "4-3"]
    assert again.game.position() == start._game_at(2).position()


# ----- import keeps its seats ---------------------------------------------------------------

def exported(meta: dict) -> str:
    return json.dumps({"format": "tessera/1", "game": "quadrature", "moves": OPENING[:2], "meta": meta})


def test_an_exported_record_brings_back_its_seats() -> None:
    peeked = peek(exported({"app": "Tessera", "white": "human", "black": "bot:hard"}))
    assert peeked == RecordPeek("quadrature", (("white", "human"), ("black", "bot:hard")))
    choices = choices_for(peeked, ["white", "black"], ["easy", "medium", "hard"])
    assert choices == ["human", "bot:hard"]
    assert [(seat.kind, seat.level) for seat in seats_for(choices)] == [("human", None), ("bot", "hard")]
    assert new_game_choice(["white", "black"], choices) == {"opponent": "bot:hard", "side": "white"}


@pytest.mark.parametrize("meta, expected", [
    ({}, ["human", "human"]),                                         # names no one: hot-seat
    ({"white": "bot:grandmaster", "black": "human"}, ["human", "human"]),  # a level this game lacks
    ({"white": "bot:easy", "black": "bot:hard"}, ["human", "bot:hard"]),   # two bots: you take the first seat
    ({"white": "remote", "black": 3}, ["human", "human"]),
])
def test_unknown_or_impossible_seats_fall_back_to_a_player(meta: dict, expected: list[str]) -> None:
    assert choices_for(peek(exported(meta)), ["white", "black"], ["easy", "medium", "hard"]) == expected


def test_sgf_and_unreadable_text_leave_the_choice_to_the_player() -> None:
    assert peek("(;GM[40]SZ[20];B[aa])") == RecordPeek("dots")
    assert choices_for(RecordPeek("dots"), ["blue", "red"], ["easy"]) == ["human", "human"]
    assert peek("") is None and peek('{"format": "tessera/1", "game": "qu') is None
    assert choices_for(None, ["blue", "red"], []) == ["human", "human"]
    assert has_player(["human", "bot:easy"]) and not has_player(["bot:easy", "bot:hard"])
    assert new_game_choice(["blue", "red"], [HUMAN, HUMAN]) == {"opponent": "human"}


# ----- the archive's summaries ------------------------------------------------------------------

def summary_of(session_id: str, meta: dict) -> Any:
    session = quadrature(session_id=session_id)
    session.meta.update(meta)
    return summarize(json.dumps(session.to_save()), session_id)


def test_a_finished_save_says_how_and_when_it_ended() -> None:
    summary = summary_of("a", {"over": True, "ended": 5000.0, "updated": 9000.0, "side_names": ["white", "black"],
                               "result": {"winner": 1, "reason": "resign"}, "branch": {"from": "z", "ply": 3}})
    assert (summary.over, summary.ended, summary.winner, summary.reason, summary.branch_ply) == \
        (True, 5000.0, 1, "resign", 3)


@pytest.mark.parametrize("meta", [
    {"over": True, "updated": 7.0, "result": {"winner": 5, "reason": "resign"}},
    {"over": True, "updated": 7.0, "result": {"winner": "1", "reason": "x y"}, "branch": {"ply": -2}},
    {"over": True, "updated": 7.0, "result": "won", "branch": [1]},
])
def test_odd_archive_fields_are_read_as_unknown(meta: dict) -> None:
    summary = summary_of("a", {"side_names": ["white", "black"], **meta})
    assert summary.winner is None and summary.branch_ply is None
    assert summary.ended == 7.0   # a save from before "ended": when it was last saved
    assert summary.reason in (None, "resign")


def test_the_archive_keeps_the_newest_finished_games() -> None:
    summaries = [summary_of(f"g{index}", {"over": index % 2 == 0, "ended": float(index)}) for index in range(10)]
    finished = finished_newest_first(summaries)
    assert [s.session_id for s in finished] == ["g8", "g6", "g4", "g2", "g0"]
    assert [s.session_id for s in beyond_archive(summaries, keep=3)] == ["g2", "g0"]
    assert beyond_archive(summaries) == []


def test_outcome_of_a_resigned_game_is_its_result() -> None:
    session = quadrature()
    session.resign(1)
    assert session.outcome() == Outcome(0, "resign")
