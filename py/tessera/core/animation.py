"""Move animations as timelines: timed steps a board view draws, no ``js``.

A view describes how a move animates as a ``Timeline`` of ``Step``s (a
checker slides, then each converted checker flips in the ruled order; a dot
appears, then the chains it closed draw along their length and their fill
fades in).  A step is only a name, a start, a duration and what it moves;
the view alone knows how to draw a step part-way.

The board component (``ui/board/canvas.py``) plays a timeline with an
``Animation``: every animation frame it asks for the ``Frame`` at the time
elapsed and lets the view draw the position with it
(``ViewState.highlights["animation"]``).  With no frame the view draws the
position as it stands, so a finished, skipped or switched-off animation is
simply the ordinary drawing.  Time is injected (milliseconds from any
origin), so everything here is tested in CPython without waiting.

Speeds: ``normal``, ``fast`` (half the time) and ``off`` (no animation);
``prefers-reduced-motion`` makes ``off`` the default (``ui/board/move_feedback.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

SPEED_NORMAL = "normal"
SPEED_FAST = "fast"
SPEED_OFF = "off"
SPEEDS = (SPEED_NORMAL, SPEED_FAST, SPEED_OFF)
SPEED_FACTORS = {SPEED_NORMAL: 1.0, SPEED_FAST: 0.5, SPEED_OFF: 0.0}
"""How long each speed takes, as a share of the normal durations."""

MAX_TOTAL_MS = 2400.0
"""No move animates longer at normal speed: a move that converts a dozen
checkers is squeezed into this, so the game never waits on a long show."""

EASE_LINEAR = "linear"
EASE_OUT = "out"
EASE_IN_OUT = "in_out"
EASE_BACK = "back"
"""Overshoots a little and settles: something that pops into place."""


def ease(kind: str, p: float) -> float:
    """Map linear progress 0..1 to eased progress (clamped)."""
    p = 0.0 if p <= 0.0 else 1.0 if p >= 1.0 else p
    if kind == EASE_OUT:
        q = 1.0 - p
        return 1.0 - q * q * q
    if kind == EASE_IN_OUT:
        return 4 * p * p * p if p < 0.5 else 1.0 - (-2 * p + 2) ** 3 / 2
    if kind == EASE_BACK:
        q = p - 1.0
        return 1.0 + 2.70158 * q * q * q + 1.70158 * q * q
    return p


@dataclass(frozen=True)
class Step:
    """One timed part of an animation: ``kind`` (what the view draws),
    ``target`` (which checker, dot or region), from ``start`` for
    ``duration`` milliseconds."""

    kind: str
    start: float
    duration: float
    target: Any = None
    easing: str = EASE_OUT

    @property
    def end(self) -> float:
        return self.start + self.duration

    def progress(self, elapsed: float) -> float:
        """0 before the step starts, 1 once it ended, eased in between (an
        overshooting easing, ``back``, passes 1 on the way)."""
        if elapsed <= self.start:
            return 0.0
        if self.duration <= 0 or elapsed >= self.end:
            return 1.0
        return ease(self.easing, (elapsed - self.start) / self.duration)


class Timeline:
    """The steps of one move's animation, built in order with ``then`` and ``stagger``.

    ``cursor`` is where the next step starts by default (the end of the
    steps added so far); ``then(..., overlap=ms)`` starts a step that long
    before the previous one ends.
    """

    def __init__(self, steps: Iterable[Step] = ()) -> None:
        self.steps: list[Step] = list(steps)
        self.cursor = max((step.end for step in self.steps), default=0.0)

    # ----- building --------------------------------------------------------------
    def add(self, kind: str, duration: float, target: Any = None, *, start: float | None = None,
            easing: str = EASE_OUT) -> Step:
        """A step at ``start`` (default: the cursor); the cursor moves past it."""
        step = Step(kind, self.cursor if start is None else max(0.0, start), max(0.0, duration), target, easing)
        self.steps.append(step)
        self.cursor = max(self.cursor, step.end)
        return step

    def then(self, kind: str, duration: float, target: Any = None, *, overlap: float = 0.0,
             easing: str = EASE_OUT) -> Step:
        """A step after the ones so far (``overlap`` ms earlier)."""
        return self.add(kind, duration, target, start=self.cursor - overlap, easing=easing)

    def stagger(self, kind: str, targets: Iterable[Any], duration: float, gap: float, *,
                easing: str = EASE_OUT) -> list[Step]:
        """One step per target, each starting ``gap`` ms after the one before
        (one by one, in the order given, overlapping when ``gap < duration``)."""
        begin = self.cursor
        steps = []
        for index, target in enumerate(targets):
            steps.append(self.add(kind, duration, target, start=begin + index * gap, easing=easing))
        return steps

    # ----- reading ------------------------------------------------------------------
    @property
    def total(self) -> float:
        """Milliseconds until the last step ends."""
        return max((step.end for step in self.steps), default=0.0)

    def __len__(self) -> int:
        return len(self.steps)

    def scaled(self, factor: float, limit: float | None = MAX_TOTAL_MS) -> "Timeline":
        """The same steps ``factor`` times as long, first squeezed to at most
        ``limit`` ms in all; a factor of 0 (speed ``off``) gives no steps."""
        if factor <= 0 or not self.steps:
            return Timeline()
        total = self.total
        if limit is not None and total > limit:
            factor *= limit / total
        return Timeline(Step(s.kind, s.start * factor, s.duration * factor, s.target, s.easing)
                        for s in self.steps)

    def frame(self, elapsed: float) -> "Frame | None":
        """The animation ``elapsed`` ms in; None once it is over."""
        if elapsed >= self.total:
            return None
        return Frame(self, max(0.0, elapsed))


class Frame:
    """One moment of a timeline, as a view asks about it.

    A step the timeline does not have counts as done (progress 1), so a
    view draws whatever is not animated as it stands.
    """

    __slots__ = ("timeline", "elapsed", "_index")

    def __init__(self, timeline: Timeline, elapsed: float) -> None:
        self.timeline = timeline
        self.elapsed = elapsed
        index: dict[tuple[str, Any], Step] = {}
        for step in timeline.steps:
            index[(step.kind, step.target)] = step
        self._index = index

    def progress(self, kind: str, target: Any = None) -> float:
        step = self._index.get((kind, target))
        return 1.0 if step is None else step.progress(self.elapsed)

    def has(self, kind: str, target: Any = None) -> bool:
        return (kind, target) in self._index

    def pending(self, kind: str, target: Any = None) -> bool:
        """The step exists and has not started: draw its target as before the move."""
        step = self._index.get((kind, target))
        return step is not None and self.elapsed <= step.start

    def running(self, kind: str, target: Any = None) -> bool:
        step = self._index.get((kind, target))
        return step is not None and step.start < self.elapsed < step.end

    def done(self, kind: str, target: Any = None) -> bool:
        """The step is over (or there is none): draw its target as it stands.
        Ask this rather than ``progress >= 1``: an overshooting easing passes 1
        on its way."""
        step = self._index.get((kind, target))
        return step is None or self.elapsed >= step.end

    def targets(self, kind: str) -> list[Any]:
        """The targets of every step of ``kind``, in the order added."""
        return [step.target for step in self.timeline.steps if step.kind == kind]


def lerp(a: float, b: float, p: float) -> float:
    return a + (b - a) * p


def _rgba(colour: str) -> tuple[int, int, int, float] | None:
    """``#rgb``, ``#rrggbb``, ``rgb(...)`` or ``rgba(...)`` as numbers; None for anything else."""
    text = colour.strip().lower()
    try:
        if text.startswith("#"):
            digits = text[1:]
            if len(digits) == 3:
                digits = "".join(c * 2 for c in digits)
            if len(digits) != 6:
                return None
            return int(digits[0:2], 16), int(digits[2:4], 16), int(digits[4:6], 16), 1.0
        if text.startswith(("rgb(", "rgba(")) and text.endswith(")"):
            parts = [part.strip() for part in text[text.index("(") + 1:-1].split(",")]
            if len(parts) not in (3, 4):
                return None
            alpha = float(parts[3]) if len(parts) == 4 else 1.0
            return int(float(parts[0])), int(float(parts[1])), int(float(parts[2])), alpha
    except ValueError:
        return None
    return None


def fade(colour: str, share: float) -> str:
    """``colour`` with its opacity times ``share`` (0..1), to fade a shape in
    or out; a colour it cannot read is returned as it is."""
    rgba = _rgba(colour)
    if rgba is None:
        return colour
    r, g, b, a = rgba
    alpha = max(0.0, min(1.0, a * share))
    return f"rgba({r}, {g}, {b}, {alpha:.3f})"


def mix(start: str, end: str, p: float) -> str:
    """The colour ``p`` of the way from ``start`` to ``end`` (either unreadable:
    ``start`` until half-way, then ``end``)."""
    a, b = _rgba(start), _rgba(end)
    if a is None or b is None:
        return start if p < 0.5 else end
    p = max(0.0, min(1.0, p))
    r, g, bl = (round(lerp(a[i], b[i], p)) for i in range(3))
    return f"rgba({r}, {g}, {bl}, {lerp(a[3], b[3], p):.3f})"


class Animation:
    """Plays one timeline against an injected clock (milliseconds).

    ``key`` says what the animation belongs to (the board uses the game
    shown and its ply): a board showing anything else drops it, so a
    navigation or another move finishes it at once.
    """

    def __init__(self) -> None:
        self.timeline: Timeline | None = None
        self.key: Any = None
        self.started_at = 0.0

    @property
    def running(self) -> bool:
        return self.timeline is not None

    def start(self, timeline: Timeline, now: float, key: Any = None) -> bool:
        """Play ``timeline`` from ``now``; False (nothing runs) when it is empty."""
        if not timeline.steps or timeline.total <= 0:
            self.finish()
            return False
        self.timeline, self.key, self.started_at = timeline, key, now
        return True

    def frame(self, now: float, key: Any = None) -> Frame | None:
        """The frame to draw at ``now`` (None, and finished, once over or when
        ``key`` is not what the animation was started for)."""
        timeline = self.timeline
        if timeline is None:
            return None
        if key != self.key:
            self.finish()
            return None
        frame = timeline.frame(now - self.started_at)
        if frame is None:
            self.finish()
        return frame

    def finish(self) -> None:
        self.timeline = None
        self.key = None
