"""Time and node budgets shared by the bots.

A bot's search stops at whichever comes first: its ``movetime_ms`` of wall
time (0 or less: no time limit) or its node/iteration limit (0: none).  Tests
use only the limits, so their results never depend on the machine's speed,
or inject a fake ``clock`` to check how a search keeps its time.
"""

from __future__ import annotations

import time
from typing import Callable

Clock = Callable[[], float]
"""Seconds on a monotonic clock (``time.perf_counter`` unless a test fakes it)."""


class Budget:
    """Wall-clock deadline plus an optional work limit, checked cheaply."""

    __slots__ = ("deadline", "max_work", "work", "started", "clock")

    def __init__(self, movetime_ms: float, max_work: int = 0, clock: Clock | None = None) -> None:
        self.clock = clock or time.perf_counter
        self.started = self.clock()
        self.deadline = self.started + movetime_ms / 1000.0 if movetime_ms and movetime_ms > 0 else float("inf")
        self.max_work = max_work if max_work and max_work > 0 else 0
        self.work = 0

    def spent(self) -> bool:
        """True once the time or the work limit is used up."""
        if self.max_work and self.work >= self.max_work:
            return True
        return self.clock() >= self.deadline
