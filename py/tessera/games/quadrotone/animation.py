"""How a Quadrotone move animates: the chips land, slide or turn, then what they scored shows.

``move_timeline`` describes a move just played (the game is already after
it) as a ``core.animation`` timeline; ``QuadrotoneView.draw`` asks the
frame which squares it draws itself (``moving_squares``: the view leaves
them out of the field) and then ``draw_moving`` draws those chips part-way.
What the move scored (``_draw_last`` in the view) appears step by step:
the last move's outline, then each pattern in the order the game numbered
them, then each chain, then the fence, each with its "+points" label.

Placed chips.  A move of one's own was put together on the board, so its
chips already lie on their squares when it is played: they are set down
(a little larger and lifted first, then flat).  An opponent's chips come
from a hand the tray does not show (against the bot the tray keeps the
player's hand): they grow on their squares one after another.

Steps (targets):

* ``drop`` / ``grow`` ``square``: a placed chip, as above.
* ``slide`` ``(start, end, turns)``: a chip moved (a swap is two slides),
  turning on the way when the move turns it.
* ``turn`` ``(square, turns)``: a chip turned where it lies.
* ``mark``: the outline of the squares the move left its chips on fades in.
* ``pattern`` ``index`` (in ``game.last_scored``), ``chain`` ``index`` (in
  the chains of ``game.last_regions``), ``fence``: outlined or tinted, and
  the label pops in.

Chip steps start together (placed chips a little apart); the scoring steps
follow them; ``PATTERNS_SPAN_MS`` bounds a move that scored many patterns,
and ``Timeline.scaled`` keeps the whole within ``MAX_TOTAL_MS``.  Drawing
a frame costs the still drawing plus a few polygons per moving chip.
"""

from __future__ import annotations

import math
from typing import Any, Callable

from ...core.animation import EASE_BACK, EASE_IN_OUT, EASE_OUT, Frame, Timeline, lerp
from ...core.draw import DrawList
from ...core.game import Game
from .chips import rotate
from .field import LARGE
from .notation import ARRANGE, PLACE

DROP = "drop"
GROW = "grow"
SLIDE = "slide"
TURN = "turn"
MARK = "mark"
PATTERN = "pattern"
CHAIN = "chain"
FENCE = "fence"
CHIP_KINDS = (DROP, GROW, SLIDE, TURN)

DROP_MS = 260.0
DROP_GAP_MS = 45.0
GROW_MS = 340.0
GROW_GAP_MS = 120.0
SLIDE_BASE_MS = 260.0
SLIDE_SQUARE_MS = 28.0
"""A slide takes longer the further it goes (per large square), up to ``SLIDE_MAX_MS``."""
SLIDE_MAX_MS = 620.0
TURN_MS = 360.0
MARK_MS = 220.0
PATTERN_MS = 420.0
PATTERN_GAP_MS = 260.0
PATTERNS_SPAN_MS = 1300.0
"""All the patterns of one move start within this (a move scoring twenty shows them faster)."""
REGION_MS = 460.0
REGION_GAP_MS = 220.0

DROP_LIFT = 0.22
"""How much larger a chip being set down starts."""
SHADOW = "rgba(0, 0, 0, 0.28)"

ChipPainter = Callable[[DrawList, float, float, float, int, float], None]
"""``paint(out, cx, cy, size, look, angle)``: a chip (its look: colours as they lie)
centred at (cx, cy), turned ``angle`` degrees clockwise (the view's ``paint_chip``)."""


def quarter_angle(turns: int) -> float:
    """The shortest way round to turn a chip ``turns`` quarters clockwise, in degrees."""
    turns %= 4
    return -90.0 if turns == 3 else 90.0 * turns


def move_timeline(game: Game, move: Any, emphasis: bool = False) -> Timeline:
    """The animation of ``move``, the last move pushed on ``game`` (empty if it
    is not, or for a turn that ran out of time); ``emphasis``: an opponent's move."""
    timeline = Timeline()
    if not game.move_stack or game.move_stack[-1] != move or not isinstance(move, tuple) \
            or move[0] not in (PLACE, ARRANGE):
        return timeline
    kind, items = move
    if kind == PLACE:
        squares = [square for _, _, square in items]
        if emphasis:
            timeline.stagger(GROW, squares, GROW_MS, GROW_GAP_MS, easing=EASE_BACK)
        else:
            timeline.stagger(DROP, squares, DROP_MS, DROP_GAP_MS, easing=EASE_OUT)
    else:
        for start, end, turns in items:
            if start == end:
                timeline.add(TURN, TURN_MS, (start, turns), start=0.0, easing=EASE_IN_OUT)
            else:
                distance = math.hypot(start % LARGE - end % LARGE, start // LARGE - end // LARGE)
                duration = min(SLIDE_MAX_MS, SLIDE_BASE_MS + SLIDE_SQUARE_MS * distance)
                timeline.add(SLIDE, duration, (start, end, turns), start=0.0, easing=EASE_IN_OUT)
    timeline.then(MARK, MARK_MS, overlap=MARK_MS * 0.5)
    scored = list(getattr(game, "last_scored", ()))
    if scored:
        gap = min(PATTERN_GAP_MS, PATTERNS_SPAN_MS / len(scored))
        begin = timeline.cursor - MARK_MS * 0.3
        for index in range(len(scored)):
            timeline.add(PATTERN, PATTERN_MS, index, start=begin + index * gap, easing=EASE_OUT)
    chains, fence = getattr(game, "last_regions", ([], None))
    if chains:
        timeline.stagger(CHAIN, range(len(chains)), REGION_MS, REGION_GAP_MS)
    if fence is not None and fence.points:
        timeline.then(FENCE, REGION_MS)
    return timeline


def moving_squares(frame: Frame | None) -> frozenset[int]:
    """Large squares whose chip ``draw_moving`` draws this frame (the field leaves them out)."""
    if frame is None:
        return frozenset()
    squares = set()
    for step in frame.timeline.steps:
        if step.kind in CHIP_KINDS and not frame.done(step.kind, step.target):
            target = step.target
            squares.add(target if step.kind in (DROP, GROW) else target[1] if step.kind == SLIDE else target[0])
    return frozenset(squares)


def draw_moving(frame: Frame | None, game: Game, out: DrawList, centre: Callable[[int], tuple[float, float]],
                size: float, paint: ChipPainter) -> None:
    """The chips of the move where the frame has them (on top of the field).

    ``centre(square)`` is a large square's centre; ``size`` its side."""
    if frame is None:
        return
    chip_on = game.chip_on  # type: ignore[attr-defined]
    for step in frame.timeline.steps:
        kind, target = step.kind, step.target
        if kind not in CHIP_KINDS or frame.done(kind, target):
            continue
        square = target if kind in (DROP, GROW) else target[1] if kind == SLIDE else target[0]
        lying = chip_on[square]
        if lying is None:
            continue
        chip, turns = lying
        p = step.progress(frame.elapsed)
        cx, cy = centre(square)
        if kind == GROW:
            if p > 0:
                paint(out, cx, cy, size * p, _look(chip, turns), 0.0)
            continue
        if kind == DROP:
            lift = DROP_LIFT * (1.0 - p)
            shadow = size * (1.0 + lift * 0.5)
            offset = size * 0.12 * (1.0 - p)
            out.rect(cx - shadow / 2 + offset, cy - shadow / 2 + offset, shadow, shadow, SHADOW)
            paint(out, cx, cy - offset, size * (1.0 + lift), _look(chip, turns), 0.0)
            continue
        turned = target[-1]
        angle = quarter_angle(turned)
        before = _look(chip, turns - turned)   # how it lay before the move; turning it ends as it lies
        if kind == SLIDE:
            sx, sy = centre(target[0])
            x, y = lerp(sx, cx, p), lerp(sy, cy, p)
            lifted = size * (1.0 + 0.12 * math.sin(math.pi * min(1.0, max(0.0, p))))
            out.rect(x - lifted / 2 + size * 0.06, y - lifted / 2 + size * 0.06, lifted, lifted, SHADOW)
            paint(out, x, y, lifted, before, angle * p)
        else:
            paint(out, cx, cy, size, before, angle * p)


def _look(chip: int, turns: int) -> int:
    return rotate(chip, turns % 4)


def step_state(frame: Frame | None, kind: str, target: Any = None) -> float | None:
    """How far the step is (0..1, overshooting for ``back``), None while it has not
    begun (draw nothing of it); 1 without an animation or such a step."""
    if frame is None or not frame.has(kind, target):
        return 1.0
    if frame.pending(kind, target):
        return None
    return frame.progress(kind, target)
