"""Long work as a generator of small steps, run all at once or in slices.

The page has one thread: any work that can grow (a bot's search, replaying a
long game) is written as a generator that yields between small steps and
returns its result.  The command line and the tests run it to the end with
``finish``; the page runs a slice with ``run_slice`` and, if work is left,
hands control back to the browser (``await asyncio.sleep(0)``) before the
next one, so no task grows with the work.
"""

from __future__ import annotations

import time
from typing import Generator, TypeVar

T = TypeVar("T")
Steps = Generator[None, None, T]


class Unfinished:
    """``run_slice``'s answer while work is left."""

    def __repr__(self) -> str:
        return "UNFINISHED"


UNFINISHED = Unfinished()


def finish(steps: Steps[T]) -> T:
    """Run every step now; the generator's return value."""
    try:
        while True:
            next(steps)
    except StopIteration as stop:
        return stop.value


def run_slice(steps: Steps[T], slice_ms: float) -> T | Unfinished:
    """Run steps for about ``slice_ms``; the result, or UNFINISHED if work is left."""
    deadline = time.perf_counter() + slice_ms / 1000.0
    try:
        while True:
            next(steps)
            if time.perf_counter() >= deadline:
                return UNFINISHED
    except StopIteration as stop:
        return stop.value
