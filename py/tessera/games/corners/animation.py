"""How a Corners move animates: a placed piece pops in; a capture outlines
its rectangle, paints the corners one by one in their written order, then
the new pieces pop in across the inside.

``move_timeline`` describes the move just played as a ``core.animation``
timeline; ``CornersView.draw`` asks ``appearing`` which pieces to draw
growing (or not yet) and ``painting`` which corners to draw as not yet
painted or turning.  Pure Python, tested in CPython.

Steps (targets): ``place`` and ``fill`` (cell) grow a piece; ``outline``
(rectangle index) draws the capture's rectangle; ``paint`` (cell) fills a
corner; ``pulse`` (cell) rings an opponent's placement.
"""

from __future__ import annotations

from typing import Any

from ...core.animation import EASE_BACK, EASE_LINEAR, Frame, Timeline
from ...core.game import Game
from .geometry import CAPTURE_BASE, CELLS, PASS, RECTANGLES

PLACE = "place"
FILL = "fill"
OUTLINE = "outline"
PAINT = "paint"
PULSE = "pulse"

PLACE_MS = 220.0
PULSE_MS = 700.0
OUTLINE_MS = 320.0
PAINT_MS = 200.0
PAINT_GAP_MS = 130.0
FILL_MS = 200.0
FILL_GAP_MS = 45.0


def move_timeline(game: Game, move: Any, emphasis: bool = False) -> Timeline:
    """The animation of ``move``, the last move pushed on ``game`` (empty for
    a pass, or when it is not the last move)."""
    timeline = Timeline()
    if not game.move_stack or game.move_stack[-1] != move or move == PASS:
        return timeline
    added, painted = game.last_change()  # type: ignore[attr-defined]
    if isinstance(move, int) and 0 <= move < CELLS:
        timeline.add(PLACE, PLACE_MS, move, easing=EASE_BACK)
        if emphasis:
            timeline.add(PULSE, PULSE_MS, move, start=0.0, easing=EASE_LINEAR)
        return timeline
    if isinstance(move, int) and CAPTURE_BASE <= move < PASS:
        index = move - CAPTURE_BASE
        timeline.add(OUTLINE, OUTLINE_MS, index, easing=EASE_LINEAR)
        corners = [cell for cell in RECTANGLES[index].corners if painted >> cell & 1]
        timeline.stagger(PAINT, corners, PAINT_MS, PAINT_GAP_MS, easing=EASE_BACK)
        cells = [cell for cell in range(CELLS) if added >> cell & 1]
        timeline.cursor = timeline.total
        timeline.stagger(FILL, cells, FILL_MS, FILL_GAP_MS, easing=EASE_BACK)
    return timeline


def growth(frame: Frame | None, cell: int) -> float | None:
    """How big a piece appearing by this move is drawn (0..~1.1), or None
    when it is not appearing (draw it as it stands)."""
    if frame is None:
        return None
    for kind in (PLACE, FILL):
        if frame.has(kind, cell):
            return 0.0 if frame.pending(kind, cell) else (None if frame.done(kind, cell) else frame.progress(kind, cell))
    return None


def paint_share(frame: Frame | None, cell: int) -> float | None:
    """How far a corner's paint has come (0..~1.1), or None when it is not being painted."""
    if frame is None or not frame.has(PAINT, cell) or frame.done(PAINT, cell):
        return None
    return 0.0 if frame.pending(PAINT, cell) else frame.progress(PAINT, cell)


def outline_of(frame: Frame | None) -> int | None:
    """The rectangle being captured while its animation runs."""
    if frame is None:
        return None
    targets = frame.targets(OUTLINE)
    return targets[0] if targets else None


def pulse(frame: Frame | None) -> tuple[int, float] | None:
    if frame is None:
        return None
    targets = frame.targets(PULSE)
    if not targets or frame.done(PULSE, targets[0]):
        return None
    return targets[0], frame.progress(PULSE, targets[0])
