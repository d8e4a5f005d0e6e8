"""How a Quadrature move animates: the checker slides, then the converted
checkers flip one by one in the ruled order (a1..k11).

``move_timeline`` describes a move just played as a ``core.animation``
timeline; ``QuadratureView.draw`` asks ``animated_squares`` which checkers
the animation draws itself (it skips them) and then calls ``draw_motion``
with the frame.  Pure Python: the timeline and the drawing are tested in
CPython like the rest of the view.

Steps (targets):

* ``slide`` ``(from, to)``: the checker travels from its point to the target.
* ``flip`` ``square``: a converted checker turns over: it shrinks in its old
  colour and grows back in the mover's, each starting a little after the
  one before, in the order the rules convert them.
* ``pulse`` ``square``: a ring spreads from where the move landed, so an
  opponent's (the bot's) reply cannot be missed.
"""

from __future__ import annotations

import math
from typing import Any, Callable

from ...core.animation import EASE_IN_OUT, EASE_LINEAR, Frame, Timeline, fade, lerp
from ...core.draw import DrawList
from ...core.game import Game
from .rules import EMPTY, move_from, move_to

SLIDE = "slide"
FLIP = "flip"
PULSE = "pulse"

SLIDE_MS = 220.0
FLIP_MS = 240.0
FLIP_GAP_MS = 120.0
"""Each converted checker starts turning this long after the one before."""
PULSE_MS = 700.0
MIN_FLIP_SCALE = 0.12
"""A turning checker never quite vanishes (it reads as one checker turning over)."""


def move_timeline(game: Game, move: Any, emphasis: bool = False) -> Timeline:
    """The animation of ``move``, the last move pushed on ``game``
    (empty if it is not); ``emphasis`` adds the pulse (an opponent's move)."""
    timeline = Timeline()
    if not game.move_stack or game.move_stack[-1] != move:
        return timeline
    frm, to = move_from(move), move_to(move)
    timeline.add(SLIDE, SLIDE_MS, (frm, to), easing=EASE_IN_OUT)
    timeline.stagger(FLIP, game.last_converted(), FLIP_MS, FLIP_GAP_MS, easing=EASE_IN_OUT)  # type: ignore[attr-defined]
    if emphasis:
        timeline.add(PULSE, PULSE_MS, to, start=SLIDE_MS * 0.7, easing=EASE_LINEAR)
    return timeline


def animated_squares(frame: Frame | None) -> frozenset[int]:
    """Squares whose checkers ``draw_motion`` draws this frame (the view skips them)."""
    if frame is None:
        return frozenset()
    squares = {to for frm, to in frame.targets(SLIDE) if not frame.done(SLIDE, (frm, to))}
    squares.update(sq for sq in frame.targets(FLIP) if not frame.done(FLIP, sq))
    return frozenset(squares)


def flip_look(progress: float, old: int, new: int) -> tuple[int, float]:
    """(colour shown, radius scale) of a checker ``progress`` of the way
    through turning over from ``old`` to ``new``."""
    if progress < 0.5:
        return old, max(MIN_FLIP_SCALE, 1.0 - 2.0 * progress)
    return new, max(MIN_FLIP_SCALE, 2.0 * progress - 1.0)


def slide_position(progress: float, start: tuple[float, float], end: tuple[float, float]) -> tuple[float, float]:
    return lerp(start[0], end[0], progress), lerp(start[1], end[1], progress)


DrawChecker = Callable[[DrawList, float, float, int, float, float], None]


def draw_motion(out: DrawList, game: Game, frame: Frame, center: Callable[[int], tuple[float, float]],
                draw_checker: DrawChecker, radius: float, s: float, ring: str, highlight: str) -> None:
    """Draw what moves in this frame: turning checkers, the sliding checker
    (on top) and the pulse.  ``draw_checker(out, x, y, piece, radius, s)``
    is the view's own checker, so an animated checker looks like a still one."""
    for sq in frame.targets(FLIP):
        if frame.done(FLIP, sq):
            continue
        progress = frame.progress(FLIP, sq)
        new = game.piece_at(sq)  # type: ignore[attr-defined]
        if new == EMPTY:
            continue
        colour, scale = flip_look(progress, 1 - new, new)
        x, y = center(sq)
        draw_checker(out, x, y, colour, radius * scale, s)
        if progress > 0.0:
            out.circle_stroke(x, y, radius * 1.12, fade(ring, math.sin(math.pi * progress)), max(1.5, 0.08 * s))
    for frm, to in frame.targets(SLIDE):
        if frame.done(SLIDE, (frm, to)):
            continue
        progress = frame.progress(SLIDE, (frm, to))
        piece = game.piece_at(to)  # type: ignore[attr-defined]
        if piece == EMPTY:
            continue
        x, y = slide_position(progress, center(frm), center(to))
        lift = 1.0 + 0.10 * math.sin(math.pi * progress)  # picked up and put down
        draw_checker(out, x, y, piece, radius * lift, s)
    for sq in frame.targets(PULSE):
        progress = frame.progress(PULSE, sq)
        if 0.0 < progress < 1.0:
            x, y = center(sq)
            width = max(2.0, 0.12 * s) * (1.0 - 0.5 * progress)
            out.circle_stroke(x, y, radius * (1.05 + 1.5 * progress), fade(highlight, 1.0 - progress), width)
