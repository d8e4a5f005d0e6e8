"""Move animations on a board: a ``core.animation.Animation`` on the page's clock.

``BoardComponent`` owns one ``BoardMotion``.  ``start`` plays a timeline for
the game the board is about to show; every redraw asks ``frame`` for the
frame to draw (None when nothing animates, or when the board shows another
game or another ply: a navigation, an undo or the next move finishes the
animation at once) and, while there is one, the board asks for another
animation frame.  Each frame is a whole redraw through the one-call draw
list, so its cost is the still drawing's; ``drawn`` keeps on the canvas
how many animations have played (``data-anim-count``), the frames of the
last one and its slowest (``data-anim-frames``, ``data-anim-max-ms``), for
the tests and the report.
"""

from __future__ import annotations

from typing import Any

import js  # type: ignore[import-not-found]

from ...core.animation import Animation, Frame, Timeline
from ...core.game import Game


def _now() -> float:
    return float(js.performance.now())


def _key(game: Game) -> tuple[int, int]:
    """What an animation belongs to: this game object at this ply."""
    return id(game), game.ply


class BoardMotion:
    def __init__(self) -> None:
        self.animation = Animation()
        self.started = 0
        """How many animations have started (``data-anim-count``)."""
        self.frames = 0
        self.slowest_ms = 0.0

    @property
    def running(self) -> bool:
        return self.animation.running

    def start(self, timeline: Timeline, game: Game) -> bool:
        """Play ``timeline`` on ``game`` (as it is now); False if there is nothing to play."""
        started = self.animation.start(timeline, _now(), _key(game))
        if started:
            self.started += 1
            self.frames, self.slowest_ms = 0, 0.0
        return started

    def frame(self, game: Game) -> Frame | None:
        if not self.animation.running:
            return None
        return self.animation.frame(_now(), _key(game))

    def remaining_ms(self) -> float:
        """How long the animation running has still to go (0: none runs)."""
        timeline = self.animation.timeline
        if timeline is None:
            return 0.0
        return max(0.0, timeline.total - (_now() - self.animation.started_at))

    def drawn(self, milliseconds: float, canvas: Any) -> None:
        """One animation frame took ``milliseconds`` (drawing and painting)."""
        self.frames += 1
        self.slowest_ms = max(self.slowest_ms, milliseconds)
        dataset = canvas.dataset
        dataset.animCount = str(self.started)
        dataset.animFrames = str(self.frames)
        dataset.animMaxMs = f"{self.slowest_ms:.2f}"

    def finish(self) -> bool:
        """Stop at once (the board then draws the position as it stands); True if one ran."""
        running = self.animation.running
        self.animation.finish()
        return running
