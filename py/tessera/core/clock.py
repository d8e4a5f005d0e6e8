"""Time controls: a chess clock with a total per player and a per-move limit.

RULINGS: every two-player game offers time controls as an option, off by
default: a total time per player, a limit per move, or both.  A player
whose total or whose current move runs out loses on time (the session
decides that; a game may change it, see ``Session.check_time``).

Decisions, so that every screen and test agrees:

* Time is injected: ``Clock(..., now=...)`` takes any function returning
  seconds (``time.monotonic`` by default), so tests step a fake clock and
  never sleep.
* A clock only counts while the page that holds the game is open.  A save
  stores each player's time left and how long the current move has taken
  so far; loading it resumes from there.  Time while the page was closed
  (or the game was not on screen) is not counted: for a game on one device
  that is the fair reading of "the clock is stopped when nobody plays".
* Seats may be untimed (the session exempts bots: they think for their
  level's fixed, short time; the clock paces the people).  An untimed seat
  never runs out and shows no clock.
* Fischer increment (as Dots sites offer it): after each move, the mover's
  total gains ``increment`` seconds (so a total may grow past its start).
  It needs a total; the per-move limit does not grow and starts afresh
  every turn.  Undo is not a move: it gains nothing.  A seat whose flag has
  fallen is not revived by it.  Saves from before increments load as 0.

Pure Python, no ``js``.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from ..i18n import MessageError, t
from .game import excerpt

Now = Callable[[], float]
"""Seconds from any fixed origin (``time.monotonic``)."""

TOTAL_MINUTES = (1, 3, 5, 10, 30, 60, 180)
"""The totals the new-game dialog offers (minutes per player); 3 hours is
Quadrotone's own time control (RULINGS.md), and suits any slow game."""
MOVE_SECONDS = (10, 30, 60, 360)
"""The per-move limits the new-game dialog offers (seconds); 6 minutes is
Quadrotone's."""
INCREMENT_SECONDS = (1, 2, 3, 5, 10, 15)
"""The Fischer increments the new-game dialog offers (seconds a move)."""


class ClockError(MessageError, ValueError):
    """A bad time control or a clock save that does not fit (a catalog key and its values)."""


MAX_SECONDS = 10 ** 7
"""Far above any time control (about four months): anything larger is not a time."""


def is_seconds(value: Any) -> bool:
    """A finite, non-negative number of seconds (not a bool, not an int past float range)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    if isinstance(value, int):
        return 0 <= value <= MAX_SECONDS  # math.isfinite(10 ** 400) raises OverflowError
    return math.isfinite(value) and 0 <= value <= MAX_SECONDS


@dataclass(frozen=True)
class TimeControl:
    """Total seconds per player and seconds per move (``None``: no such
    limit), and the seconds a move adds to the mover's total (Fischer)."""

    total: float | None = None
    per_move: float | None = None
    increment: float = 0

    def __post_init__(self) -> None:
        for name, value in (("total", self.total), ("per_move", self.per_move)):
            if value is None:
                continue
            if not is_seconds(value) or value <= 0:
                raise ClockError(f"error.clock.{name}_not_positive")
        if not is_seconds(self.increment):
            raise ClockError("error.clock.increment_seconds")
        if self.increment and self.total is None:
            raise ClockError("error.clock.increment_without_total")

    @property
    def enabled(self) -> bool:
        return self.total is not None or self.per_move is not None

    def to_json(self) -> dict[str, Any]:
        return {"total": self.total, "per_move": self.per_move, "increment": self.increment}

    @classmethod
    def from_json(cls, data: Any) -> "TimeControl":
        """Read ``to_json``'s object; one saved before increments existed has none (0)."""
        if not isinstance(data, Mapping):
            raise ClockError("error.clock.control_not_object")
        increment = data.get("increment")
        return cls(data.get("total"), data.get("per_move"), 0 if increment is None else increment)

    def describe(self) -> str:
        """``5 min + 3 s + 30 s/move``-like text for logs and records (the UI localizes its own)."""
        parts = []
        if self.total is not None:
            parts.append(f"{self.total / 60:g} min")
        if self.increment:
            parts.append(f"{self.increment:g} s")
        if self.per_move is not None:
            parts.append(f"{self.per_move:g} s/move")
        return " + ".join(parts) or "no clock"


class Clock:
    """One clock per seat; at most one runs: the seat to move's.

    ``remaining[seat]`` is the total left at the start of the running turn
    (``None`` with no total or for an untimed seat); the running seat's live
    figures subtract the time since its turn started.
    """

    def __init__(self, control: TimeControl, timed: Sequence[bool], now: Now = time.monotonic,
                 state: Mapping[str, Any] | None = None) -> None:
        if not control.enabled:
            raise ClockError("error.clock.no_limit")
        self.control = control
        self.timed = tuple(bool(flag) for flag in timed)
        self.now = now
        self.remaining: list[float | None] = [control.total if flag else None for flag in self.timed]
        self.running: int | None = None
        self._turn_started = 0.0      # now() when the running turn (re)started on this page
        self._spent_before = 0.0      # seconds of the running move spent before that (a reload)
        if state is not None:
            self._load(state)

    # ----- running -------------------------------------------------------------
    def start_turn(self, seat: int) -> None:
        """The previous turn ends (its time is taken off) and ``seat``'s move starts."""
        self.stop()
        self._check_seat(seat)
        self.running = seat
        self._turn_started = self.now()
        self._spent_before = 0.0

    def end_move(self) -> None:
        """The running seat has moved: its time is taken off and, unless its
        flag has fallen, the increment is added to its total."""
        seat = self.running
        if seat is None:
            return
        out = self.flagged() == seat
        self.stop()
        left = self.remaining[seat]
        if left is not None and self.control.increment and not out:
            self.remaining[seat] = left + self.control.increment

    def stop(self) -> None:
        """End the running turn: its time is taken off the mover's total."""
        seat = self.running
        if seat is None:
            return
        if self.remaining[seat] is not None:
            self.remaining[seat] = max(0.0, self.remaining[seat] - self.move_spent())
        self.running = None
        self._spent_before = 0.0

    # ----- reading -----------------------------------------------------------------
    def move_spent(self) -> float:
        """Seconds the running move has taken (0 when no clock runs)."""
        if self.running is None:
            return 0.0
        return self._spent_before + max(0.0, self.now() - self._turn_started)

    def total_left(self, seat: int) -> float | None:
        """Seconds of the total left for ``seat`` (live if it is running); None: no total."""
        left = self.remaining[seat]
        if left is None:
            return None
        if seat == self.running:
            left -= self.move_spent()
        return max(0.0, left)

    def move_left(self, seat: int) -> float | None:
        """Seconds left for the current move (the full limit when not running); None: no limit."""
        if self.control.per_move is None or not self.timed[seat]:
            return None
        if seat != self.running:
            return self.control.per_move
        return max(0.0, self.control.per_move - self.move_spent())

    def time_left(self, seat: int) -> float | None:
        """Whichever of the total and the move limit runs out first (None: untimed)."""
        values = [v for v in (self.total_left(seat), self.move_left(seat)) if v is not None]
        return min(values) if values else None

    def flagged(self) -> int | None:
        """The running seat if its time is up, else None."""
        seat = self.running
        if seat is None or not self.timed[seat]:
            return None
        left = self.time_left(seat)
        return seat if left is not None and left <= 0.0 else None

    def expires_in(self) -> float | None:
        """Seconds until the running seat's flag falls (None: nothing can fall)."""
        if self.running is None or not self.timed[self.running]:
            return None
        return self.time_left(self.running)

    def limit_for(self, seat: int) -> float | None:
        """The limit ``time_left`` counts down from (to judge "low")."""
        total_left, move_left = self.total_left(seat), self.move_left(seat)
        if move_left is not None and (total_left is None or move_left <= total_left):
            return self.control.per_move
        return self.control.total

    def is_low(self, seat: int) -> bool:
        """Little time left: a quarter of the limit, at least 5 s, at most 30 s."""
        left, limit = self.time_left(seat), self.limit_for(seat)
        if left is None or limit is None:
            return False
        return left <= min(30.0, max(5.0, limit / 4))

    # ----- saving --------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """Live figures now: loading them resumes as if no time passed in between."""
        return {
            "control": self.control.to_json(),
            "remaining": [None if left is None else round(left, 3) for left in self.remaining],
            "running": self.running,
            "move_spent": round(self.move_spent(), 3),
        }

    def load(self, state: Mapping[str, Any]) -> None:
        """Take figures read elsewhere (a relay keeps a remote game's clock):
        as ``to_json`` gave them, counting on from now; ClockError if unusable."""
        saved = (list(self.remaining), self.running, self._turn_started, self._spent_before)
        self.remaining = [self.control.total if flag else None for flag in self.timed]
        self.running = None
        try:
            self._load(state)
        except Exception:
            self.remaining, self.running, self._turn_started, self._spent_before = saved
            raise

    def _load(self, state: Mapping[str, Any]) -> None:
        remaining = state.get("remaining")
        if not isinstance(remaining, list) or len(remaining) != len(self.timed):
            raise ClockError("error.clock.saved_remaining")
        for seat, left in enumerate(remaining):
            if left is None or not self.timed[seat] or self.control.total is None:
                continue
            if not is_seconds(left):
                raise ClockError("error.clock.saved_left")
            # Without an increment a total never grows: more than it is not a
            # time this clock can have.  With one it may grow without bound.
            cap = self.control.total if not self.control.increment else MAX_SECONDS
            self.remaining[seat] = min(float(left), cap)
        running, spent = state.get("running"), state.get("move_spent", 0)
        if not is_seconds(spent):
            raise ClockError("error.clock.saved_spent")
        if running is not None:
            self._check_seat(running)
            self.running = running
            self._turn_started = self.now()
            self._spent_before = float(spent)

    def _check_seat(self, seat: Any) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(self.timed):
            raise ClockError("error.no_seat", seat=excerpt(seat))


def format_clock(seconds: float | None) -> str:
    """``m:ss`` (``h:mm:ss`` from an hour), rounded up so 0:00 shows only at the flag."""
    if seconds is None:
        return ""
    whole = max(0, math.ceil(seconds - 1e-9))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def duration_words(seconds: float, lang: str | None = None) -> str:
    """A duration in the page's language, in the largest whole unit that
    fits: ``3 h``, ``1 h 30 min``, ``6 min``, ``45 s`` (``90 s`` stays seconds)."""
    if seconds >= 3600 and seconds % 60 == 0:
        hours, minutes = divmod(int(seconds) // 60, 60)
        return (t("time.hours", lang, count=hours) if not minutes
                else t("time.hours_minutes", lang, hours=hours, minutes=minutes))
    if seconds >= 60 and seconds % 60 == 0:
        return t("time.minutes", lang, count=int(seconds) // 60)
    return t("time.seconds", lang, count=f"{seconds:g}")


def describe_control(control: TimeControl, lang: str | None = None) -> str:
    """The time control in the page's language: ``5 min +3 s · 30 s per move``, ``3 h · 6 min per move``."""
    parts = []
    if control.total is not None:
        parts.append(duration_words(control.total, lang))
        if control.increment:
            parts[-1] += " " + t("time.plus_seconds", lang, count=f"{control.increment:g}")
    if control.per_move is not None:
        parts.append(t("time.per_move_limit", lang, time=duration_words(control.per_move, lang)))
    return " · ".join(parts)
