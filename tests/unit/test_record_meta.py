"""What an exported record keeps besides its moves: how the game ended (also
when the rules ended it), the players, the day and the time control; the
same facts in Dots' SGF (RE, PB/PW, DT, TM/OT); and a record whose stated
ending its moves contradict is refused."""

from __future__ import annotations

import pytest

from tessera.core.clock import TimeControl
from tessera.core.game import Outcome
from tessera.core.record import Record, RecordError
from tessera.core.record_meta import day_of, export_meta, player_name
from tessera.core.seats import Seat
from tessera.core.session import Session
from tessera.games.dots import Dots
from tessera.games.dots.sgf import from_sgf, to_sgf
from tessera.games.quadrature import Quadrature

# Dots ends by the rules as soon as a player lands (grounds every dot and ends the game).
LANDED = ["5-5", "6-6", "land"]


def dots_game_over_by_rules() -> Session:
    session = Session(Dots({"size": "20x20", "start": "empty"}), [Seat("human"), Seat("human")], "d")
    for text in LANDED:
        session.play_text(text)
    assert session.game.outcome() is not None and session.facts.result is None
    return session


def test_a_game_the_rules_ended_records_its_result_and_reads_back() -> None:
    session = dots_game_over_by_rules()
    record = session.record()
    assert record.result == session.game.outcome() and record.to_json()["result"] is not None
    again = Record.loads(record.dumps())
    game = again.replay()
    assert again.outcome(game) == session.game.outcome()
    assert again.check_result(game) is None, "the rules' ending is the game's own, not a stated one"
    back = Session.from_save(session.to_save())
    assert back.outcome() == session.outcome() and back.facts.result is None


def test_a_stated_ending_the_moves_contradict_is_refused() -> None:
    data = dots_game_over_by_rules().record().to_json()
    winner = data["result"]["winner"]
    for wrong in ({"winner": 1 - winner, "reason": data["result"]["reason"]}, {"winner": winner, "reason": "resign"}):
        with pytest.raises(RecordError) as refused:
            record = Record.from_json({**data, "result": wrong})
            record.check_result(record.replay())
        assert refused.value.key == "error.record.other_result"


def test_export_meta_names_the_players_the_day_and_the_clock() -> None:
    seats = [Seat("human"), Seat("bot", "hard")]
    control = TimeControl(300, None, 3)
    meta = export_meta(("white", "black"), seats, {"created": 1_764_288_000_000, "branch": {"from": "x", "ply": 2}},
                       control, ("sgf",))
    assert meta["white"] == "human" and meta["black"] == "bot:hard"
    assert meta["players"] == {"white": "Player 1", "black": "Tessera bot (hard)"}
    assert meta["date"] == "2025-11-28" and meta["time_control"] == {"total": 300, "per_move": None, "increment": 3}
    assert meta["branch"] == {"from": "x", "ply": 2} and "sgf" not in meta
    assert player_name(Seat("remote", name="Ольга"), 1) == "Ольга"
    assert "time_control" not in export_meta(("white", "black"), seats, {})


@pytest.mark.parametrize("bad", [None, "2025-01-01", True, float("nan"), float("inf"), 1e300, -1e300, 10 ** 400,
                                 [1], 8.64e15 + 1])
def test_a_day_is_read_only_from_a_real_time(bad) -> None:
    assert day_of(bad) is None


def test_day_of_the_edges_of_javascript_time() -> None:
    """JavaScript dates reach the year 275760; Python's stop at 9999: past that, no day (and no crash)."""
    assert day_of(0) == "1970-01-01" and day_of(-86_400_000) == "1969-12-31"
    assert day_of(253_402_300_799_999) == "9999-12-31" and day_of(8.64e15) is None


def test_dots_sgf_writes_the_result_names_day_and_time_control() -> None:
    session = dots_game_over_by_rules()
    text = to_sgf(session.game, {"blue": "Player 1", "red": "Tessera bot (hard)", "date": "2026-11-27",
                                 "time_control": TimeControl(600, 30, 5), "result": session.outcome()})
    for prop in ("RE[", "PB[Player 1]", "PW[Tessera bot (hard)]", "DT[2026-11-27]", "TM[600]",
                 "OT[5s Fischer, 30s per move]"):
        assert prop in text, prop
    game, meta = from_sgf(text)
    assert meta["sgf"]["TM"] == "600" and game.move_stack == session.game.move_stack


def test_quadrature_record_of_a_resignation_keeps_it() -> None:
    session = Session(Quadrature(), [Seat("human"), Seat("human")], "q")
    session.play_text("e9-e8")
    session.resign(1)
    record = Record.loads(session.record().dumps())
    assert record.result == Outcome(0, "resign") and record.outcome(record.replay()) == Outcome(0, "resign")
