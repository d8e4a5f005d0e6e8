"""Fischer increment and clocks in bot games; time is a fake (``now`` injected), nothing sleeps."""

from __future__ import annotations

import asyncio
from typing import Any, Callable

import pytest

from tessera.core.clock import Clock, ClockError, TimeControl
from tessera.core.game import Game, Outcome
from tessera.core.session import LocalHuman, Participant, Seat, Session
from tessera.games.quadrature import Quadrature


class FakeTime:
    """A ``now()`` the test moves by hand."""

    def __init__(self, start: float = 500.0) -> None:
        self.value = start

    def __call__(self) -> float:
        return self.value

    def advance(self, seconds: float) -> None:
        self.value += seconds


class SlowBot(Participant):
    """Plays the first legal move after ``think`` fake seconds."""

    def __init__(self, now: FakeTime, think: float) -> None:
        self.now, self.think = now, think

    async def choose(self, game: Game, cancelled: Callable[[], bool]) -> Any:
        await asyncio.sleep(0)
        self.now.advance(self.think)
        return sorted(game.legal_moves())[0]


def timed(now: FakeTime, control: TimeControl, seats: list[Seat] | None = None,
          bot: Participant | None = None) -> Session:
    """A timed game whose sides have made a first move each (b9-b8, b3-b4, in
    no time, gaining nothing: a side's clock starts with its first move)."""
    seats = seats or [Seat("human"), Seat("human")]
    factory = (lambda seat, game, index: bot if seat.kind == "bot" else LocalHuman())
    session = Session(Quadrature(), seats, "inc", factory, time_control=control, now=now)
    session.play_text("b9-b8")
    if bot is None:
        session.play_text("b3-b4")
    else:
        assert asyncio.run(session.advance()) is not None
    assert session.clock.total_left(0) == session.clock.control.total
    return session


# ----- the clock -------------------------------------------------------------------------

def test_the_mover_gains_the_increment_after_each_move() -> None:
    now = FakeTime()
    clock = Clock(TimeControl(total=60, increment=2), [True, True], now)
    clock.start_turn(0)
    now.advance(5)
    clock.end_move()
    clock.start_turn(1)
    assert clock.total_left(0) == 57 and clock.total_left(1) == 60
    now.advance(1)
    clock.end_move()
    assert clock.total_left(1) == 61, "a total may grow past its start"


def test_undo_and_stop_gain_nothing() -> None:
    """Only a move earns the increment; ending a turn otherwise (undo, resign) does not."""
    now = FakeTime()
    clock = Clock(TimeControl(total=60, increment=5), [True, True], now)
    clock.start_turn(0)
    now.advance(10)
    clock.start_turn(1)       # what Session does on undo: the turn switches, no move was made
    assert clock.total_left(0) == 50
    clock.stop()
    assert clock.total_left(1) == 60


def test_a_fallen_flag_is_not_revived() -> None:
    now = FakeTime()
    clock = Clock(TimeControl(total=10, increment=5), [True, True], now)
    clock.start_turn(0)
    now.advance(12)
    clock.end_move()
    assert clock.total_left(0) == 0


def test_untimed_seats_gain_nothing() -> None:
    now = FakeTime()
    clock = Clock(TimeControl(total=60, increment=3), [True, False], now)
    clock.start_turn(1)
    now.advance(30)
    clock.end_move()
    assert clock.total_left(1) is None and clock.total_left(0) == 60


def test_the_move_limit_does_not_grow() -> None:
    now = FakeTime()
    clock = Clock(TimeControl(total=60, per_move=10, increment=5), [True, True], now)
    clock.start_turn(0)
    now.advance(2)
    clock.end_move()
    clock.start_turn(0)
    assert clock.move_left(0) == 10 and clock.total_left(0) == 63


@pytest.mark.parametrize("control", [
    dict(total=60, increment=-1), dict(total=60, increment=float("nan")), dict(total=60, increment="2"),
    dict(total=60, increment=True), dict(per_move=10, increment=2), dict(increment=2),
])
def test_bad_increments_are_refused(control: dict) -> None:
    with pytest.raises(ClockError):
        TimeControl(**control)


def test_increment_round_trip_and_old_saves() -> None:
    control = TimeControl(total=60, increment=2)
    assert control.to_json() == {"total": 60, "per_move": None, "increment": 2}
    assert TimeControl.from_json(control.to_json()) == control
    old = TimeControl.from_json({"total": 300, "per_move": 30})
    assert old.increment == 0 and old == TimeControl(300, 30)
    assert TimeControl.from_json({"total": 60, "increment": None}).increment == 0
    assert control.describe() == "1 min + 2 s"


def test_a_saved_total_may_exceed_the_start_with_an_increment() -> None:
    """Without an increment a saved total above the start is clipped; with one it is real."""
    state = {"remaining": [75, 30], "running": 0, "move_spent": 0}
    assert Clock(TimeControl(total=60), [True, True], FakeTime(), state).total_left(0) == 60
    assert Clock(TimeControl(total=60, increment=2), [True, True], FakeTime(), state).total_left(0) == 75


# ----- sessions ----------------------------------------------------------------------------

def test_session_moves_earn_the_increment_and_undo_does_not() -> None:
    now = FakeTime()
    session = timed(now, TimeControl(total=60, increment=2))
    now.advance(3)
    session.play_text("e9-e8")
    assert session.clock.total_left(0) == 59 and session.clock.running == 1
    now.advance(10)
    session.play_text("e3-e4")
    assert session.clock.total_left(1) == 52
    now.advance(4)
    session.undo()                                    # hot-seat: takes back e3-e4 only
    assert session.clock.running == 1 and session.clock.total_left(0) == 55
    assert session.clock.total_left(1) == 52, "undo gives no time back and earns nothing"


def test_save_and_resume_with_increment_then_flag() -> None:
    """A save keeps the totals grown by increments; the resumed clock runs on and flags."""
    now = FakeTime()
    session = timed(now, TimeControl(total=60, increment=2))
    now.advance(1)
    session.play_text("e9-e8")
    now.advance(20)
    data = session.to_save()
    assert data["clock"]["control"]["increment"] == 2
    assert data["clock"]["remaining"] == [61, 60] and data["clock"]["move_spent"] == 20
    later = FakeTime(90_000.0)
    again = Session.from_save(data, now=later)
    assert again.clock.control.increment == 2
    assert again.clock.total_left(0) == 61 and again.clock.total_left(1) == 40
    later.advance(5)
    again.play_text("e3-e4")
    assert again.clock.total_left(1) == 37
    later.advance(61)
    assert again.check_time() == Outcome(1, "time")
    assert Session.from_save(again.to_save()).outcome() == Outcome(1, "time")


def test_an_old_save_without_increment_loads_as_zero() -> None:
    now = FakeTime()
    session = timed(now, TimeControl(total=60))
    data = session.to_save()
    del data["clock"]["control"]["increment"]
    again = Session.from_save(data, now=now)
    assert again.clock.control.increment == 0
    again.play_text("e9-e8")
    assert again.clock.total_left(0) == 60


def test_a_bot_game_times_the_human_only() -> None:
    """Against a bot the human's clock runs (and gains the increment); the bot's seat is untimed
    and however long it thinks, no clock runs meanwhile."""
    now = FakeTime()
    bot = SlowBot(now, think=40)
    session = timed(now, TimeControl(total=60, increment=2), [Seat("human"), Seat("bot", "easy")], bot)
    assert session.clock.timed == (True, False)
    now.advance(5)
    session.play_text("e9-e8")
    assert session.clock.total_left(0) == 57 and session.clock.time_left(1) is None
    assert asyncio.run(session.advance()) is not None
    assert session.clock.running == 0 and session.clock.total_left(0) == 57
    now.advance(57)
    assert session.check_time() == Outcome(1, "time")
