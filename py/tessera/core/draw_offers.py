"""How often each player may offer a draw.

Quadrotone's document (2.8) lets a player offer a draw at most once every
10 minutes; a game says so with ``Game.draw_offer_every`` (seconds, 0 for
no limit).  The session, the relay and the page all keep the same rule
through this one class: the time of each seat's last offer, on the wall
clock (an epoch in seconds), so the spacing holds across a reload, in a
save and in another tab.

A stored time is untrusted input: ``from_json`` refuses anything but
``None`` or a finite number of seconds per seat.  A time in the future (the
device's clock was set back) never makes a player wait longer than one
interval.
"""

from __future__ import annotations

import math
from typing import Any, Sequence

from .game import PositionError, excerpt

LATEST_TIME = 1e11
"""Seconds since 1970 beyond any real clock (the year 5138): a larger stored time is refused."""


class DrawOfferSpacing:
    """Each seat's last draw offer and how long until its next one may go."""

    def __init__(self, seats: int, every: float, offered_at: Sequence[float | None] | None = None) -> None:
        self.every = float(every)
        """Seconds a seat must wait between two offers (0: no limit)."""
        self.offered_at: list[float | None] = list(offered_at) if offered_at is not None else [None] * seats

    def wait(self, seat: int, now: float) -> float:
        """Seconds until ``seat`` may offer again (0 when it may now)."""
        last = self.offered_at[seat] if 0 <= seat < len(self.offered_at) else None
        if not self.every or last is None:
            return 0.0
        return max(0.0, min(self.every, last + self.every - now))

    def note(self, seat: int, now: float) -> None:
        """``seat`` offered a draw at ``now``."""
        if self.every and 0 <= seat < len(self.offered_at):
            self.offered_at[seat] = now

    def forget(self) -> None:
        self.offered_at = [None] * len(self.offered_at)

    def to_json(self) -> list[float | None] | None:
        """The times to save, or None when nothing needs saving."""
        return list(self.offered_at) if self.every and any(t is not None for t in self.offered_at) else None

    @classmethod
    def from_json(cls, data: Any, seats: int, every: float) -> "DrawOfferSpacing":
        """Times read back from a save; PositionError names a bad value."""
        if data is None:
            return cls(seats, every)
        if not isinstance(data, list) or len(data) != seats:
            raise PositionError("error.save.draw_offered_at", value=excerpt(data))
        times: list[float | None] = []
        for value in data:
            if value is None:
                times.append(None)
                continue
            if isinstance(value, bool) or not isinstance(value, (int, float)) \
                    or isinstance(value, int) and abs(value) > LATEST_TIME \
                    or not (math.isfinite(value) and abs(value) <= LATEST_TIME):
                raise PositionError("error.save.draw_offered_at", value=excerpt(value))
            times.append(float(value))
        return cls(seats, every, times)
