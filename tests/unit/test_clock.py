"""The chess clock: totals, per-move limits, untimed seats, saves; time is a fake."""

from __future__ import annotations

import pytest

from tessera.core.clock import (MOVE_SECONDS, TOTAL_MINUTES, Clock, ClockError, TimeControl, describe_control,
                                 duration_words, format_clock)


class FakeTime:
    """A ``now()`` the test moves by hand."""

    def __init__(self, start: float = 1000.0) -> None:
        self.value = start

    def __call__(self) -> float:
        return self.value

    def advance(self, seconds: float) -> None:
        self.value += seconds


def test_only_the_running_seat_loses_time() -> None:
    """Each turn's time comes off the mover's total; the other clock stands still."""
    now = FakeTime()
    clock = Clock(TimeControl(total=60), [True, True], now)
    clock.start_turn(0)
    now.advance(10)
    assert clock.total_left(0) == 50 and clock.total_left(1) == 60
    clock.start_turn(1)
    now.advance(4)
    assert clock.total_left(0) == 50 and clock.total_left(1) == 56
    clock.stop()
    now.advance(100)
    assert clock.total_left(1) == 56 and clock.running is None and clock.flagged() is None


def test_total_runs_out() -> None:
    now = FakeTime()
    clock = Clock(TimeControl(total=60), [True, True], now)
    clock.start_turn(0)
    now.advance(59.5)
    assert clock.flagged() is None and clock.expires_in() == pytest.approx(0.5)
    now.advance(0.5)
    assert clock.flagged() == 0 and clock.total_left(0) == 0


def test_per_move_limit_restarts_every_turn() -> None:
    """A move may take up to the limit; the next move gets the whole limit again."""
    now = FakeTime()
    clock = Clock(TimeControl(per_move=10), [True, True], now)
    clock.start_turn(0)
    now.advance(9)
    assert clock.move_left(0) == 1 and clock.move_left(1) == 10 and clock.total_left(0) is None
    clock.start_turn(1)
    clock.start_turn(0)
    assert clock.move_left(0) == 10
    now.advance(10)
    assert clock.flagged() == 0


def test_total_and_move_limit_whichever_first() -> None:
    now = FakeTime()
    clock = Clock(TimeControl(total=15, per_move=10), [True, True], now)
    clock.start_turn(0)
    now.advance(8)
    clock.start_turn(1)
    clock.start_turn(0)
    assert clock.time_left(0) == 7 and clock.limit_for(0) == 15
    now.advance(7)
    assert clock.flagged() == 0


def test_untimed_seat_never_flags() -> None:
    """A bot's seat is untimed: it has no clock and its turns cost the other side nothing."""
    now = FakeTime()
    clock = Clock(TimeControl(total=60, per_move=10), [True, False], now)
    clock.start_turn(1)
    now.advance(1000)
    assert clock.flagged() is None and clock.time_left(1) is None and clock.expires_in() is None
    clock.start_turn(0)
    assert clock.total_left(0) == 60


def test_save_resumes_without_the_closed_time() -> None:
    """A reloaded clock goes on from what was saved: time while closed does not count."""
    now = FakeTime()
    control = TimeControl(total=60, per_move=30)
    clock = Clock(control, [True, True], now)
    clock.start_turn(0)
    now.advance(5)
    clock.start_turn(1)
    now.advance(12)
    saved = clock.to_json()
    later = FakeTime(50_000.0)
    again = Clock(TimeControl.from_json(saved["control"]), [True, True], later, saved)
    assert again.running == 1 and again.total_left(0) == 55 and again.total_left(1) == 48
    assert again.move_left(1) == 18
    later.advance(18)
    assert again.flagged() == 1


def test_low_time() -> None:
    now = FakeTime()
    clock = Clock(TimeControl(per_move=10), [True, True], now)
    clock.start_turn(0)
    now.advance(4)
    assert not clock.is_low(0)
    now.advance(1)
    assert clock.is_low(0) and not clock.is_low(1)
    long = Clock(TimeControl(total=600), [True, True], now)
    long.start_turn(0)
    now.advance(569)
    assert not long.is_low(0)
    now.advance(1)
    assert long.is_low(0)


@pytest.mark.parametrize("control", [
    dict(total=0), dict(per_move=-1), dict(total=float("inf")), dict(total="5"), dict(per_move=True),
])
def test_bad_controls_are_refused(control: dict) -> None:
    with pytest.raises(ClockError):
        TimeControl(**control)


def test_a_clock_needs_a_limit() -> None:
    with pytest.raises(ClockError):
        Clock(TimeControl(), [True, True])


@pytest.mark.parametrize("state", [
    {"remaining": [60]},
    {"remaining": [60, "x"]},
    {"remaining": [60, -1]},
    {"remaining": [60, 60], "running": 2},
    {"remaining": [60, 60], "running": 0, "move_spent": -3},
])
def test_bad_saves_are_refused(state: dict) -> None:
    with pytest.raises(ClockError):
        Clock(TimeControl(total=60), [True, True], FakeTime(), state)


def test_saved_time_never_exceeds_the_control() -> None:
    clock = Clock(TimeControl(total=60), [True, True], FakeTime(), {"remaining": [900, 30]})
    assert clock.total_left(0) == 60 and clock.total_left(1) == 30


def test_round_trip_and_text() -> None:
    control = TimeControl(total=300, per_move=30)
    assert TimeControl.from_json(control.to_json()) == control
    assert control.describe() == "5 min + 30 s/move" and TimeControl().describe() == "no clock"
    with pytest.raises(ClockError):
        TimeControl.from_json([300])


@pytest.mark.parametrize("seconds, text", [
    (None, ""), (0, "0:00"), (0.2, "0:01"), (9.0, "0:09"), (59.01, "1:00"), (299.5, "5:00"),
    (3600, "1:00:00"), (3725, "1:02:05"), (-3, "0:00"),
])
def test_format_clock(seconds: float | None, text: str) -> None:
    """Rounded up, so a clock shows 0:00 only once it has run out."""
    assert format_clock(seconds) == text


@pytest.mark.parametrize("seconds, en, ru", [
    (45, "45 s", "45 с"), (90, "90 s", "90 с"), (360, "6 min", "6 мин"), (1800, "30 min", "30 мин"),
    (3600, "1 h", "1 ч"), (5400, "1 h 30 min", "1 ч 30 мин"), (10800, "3 h", "3 ч"), (2.5, "2.5 s", "2.5 с"),
])
def test_durations_are_worded_in_the_largest_whole_unit(seconds: float, en: str, ru: str) -> None:
    assert duration_words(seconds, "en") == en
    assert duration_words(seconds, "ru") == ru


def test_the_dialog_offers_quadrotones_three_hours_and_six_minutes_a_move() -> None:
    assert 180 in TOTAL_MINUTES and 360 in MOVE_SECONDS
    slow = TimeControl(3 * 3600, 360, 0)
    assert describe_control(slow, "en") == "3 h · 6 min per move"
    assert describe_control(slow, "ru") == "3 ч · 6 мин на ход"
    assert describe_control(TimeControl(60, None, 2), "en") == "1 min +2 s"
    assert describe_control(TimeControl(None, 30, 0), "ru") == "30 с на ход"
    assert format_clock(3 * 3600) == "3:00:00"
