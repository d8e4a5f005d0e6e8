"""How a Dots move animates: the dot appears, then each chain it closed draws
along its length, then the regions' fill fades in as the dots inside go pale.

``move_timeline`` describes a move just played as a ``core.animation``
timeline.  ``DotsView.draw`` asks ``hidden_regions`` and ``hidden_cells``
what the animation draws itself (it skips those), then calls
``draw_regions`` where it paints regions and ``draw_dots`` after the dots,
so the order of layers is the still drawing's.  Pure Python, tested in
CPython.

Steps (targets):

* ``dot`` ``cell``: the new dot pops in.
* ``pulse`` ``cell``: a ring spreads from it (an opponent's, the bot's, move).
* ``chain`` ``region index``: the chain is drawn from its first point round
  to its first point again, one region after another (in the order made).
* ``fill`` ``region index``: the inside fades in once the chains are drawn.
* ``dim`` ``captured cells``: the dots just surrounded shrink and go pale with
  the fill.
"""

from __future__ import annotations

import math
from typing import Any, Sequence

from ...core.animation import EASE_BACK, EASE_IN_OUT, EASE_LINEAR, Frame, Timeline, fade, lerp, mix
from ...core.draw import DrawList
from ...core.game import Game
from .field import BLUE_DOT, RED_DOT
from .rules import LAND

DOT = "dot"
PULSE = "pulse"
CHAIN = "chain"
FILL = "fill"
DIM = "dim"

DOT_MS = 200.0
PULSE_MS = 750.0
CHAIN_BASE_MS = 260.0
CHAIN_LINK_MS = 22.0
"""A chain takes longer the longer it is (per link), up to ``CHAIN_MAX_MS``."""
CHAIN_MAX_MS = 800.0
CHAIN_GAP_MS = 180.0
"""Each further region closed by the move starts this long after the one before."""
FILL_MS = 320.0
PULSE_MIN_REACH = 28.0
"""The pulse ring spreads to at least this radius (CSS pixels)."""


def _last_entry(game: Game, move: Any) -> tuple | None:
    """The field's log entry of ``move`` if it is the last move pushed (a placement)."""
    if move == LAND or not game.move_stack or game.move_stack[-1] != move:
        return None
    log = game.field.log  # type: ignore[attr-defined]
    if not log or log[-1][0] != move:
        return None
    return log[-1]


def captured_by(game: Game, entry: tuple) -> tuple[int, ...]:
    """Dots that were in play before the move and are surrounded after it."""
    field = game.field  # type: ignore[attr-defined]
    owner_log = entry[2]
    cells = []
    for i in range(0, len(owner_log) - 1, 2):
        cell, before = owner_log[i], owner_log[i + 1]
        if before == 0 and field.owner[cell] and field.dot[cell] in (BLUE_DOT, RED_DOT):
            cells.append(cell)
    return tuple(sorted(set(cells)))


def move_timeline(game: Game, move: Any, emphasis: bool = False) -> Timeline:
    """The animation of ``move``, the last move pushed on ``game`` (empty if
    it is not, or for landing); ``emphasis`` adds the pulse."""
    timeline = Timeline()
    entry = _last_entry(game, move)
    if entry is None:
        return timeline
    field = game.field  # type: ignore[attr-defined]
    timeline.add(DOT, DOT_MS, move, easing=EASE_BACK)
    if emphasis:
        timeline.add(PULSE, PULSE_MS, move, start=DOT_MS * 0.5, easing=EASE_LINEAR)
    first = entry[4]
    regions = range(first, len(field.regions))
    if not regions:
        return timeline
    for order, index in enumerate(regions):
        links = len(field.regions[index].chain(field.stride))
        duration = min(CHAIN_MAX_MS, CHAIN_BASE_MS + CHAIN_LINK_MS * links)
        timeline.add(CHAIN, duration, index, start=DOT_MS + order * CHAIN_GAP_MS, easing=EASE_IN_OUT)
    chains_end = timeline.cursor
    for index in regions:
        timeline.add(FILL, FILL_MS, index, start=chains_end - FILL_MS * 0.25)
    captured = captured_by(game, entry)
    if captured:
        timeline.add(DIM, FILL_MS, captured, start=chains_end - FILL_MS * 0.25)
    return timeline


def hidden_regions(frame: Frame | None) -> frozenset[int]:
    """Regions ``draw_regions`` paints this frame (the view skips them)."""
    if frame is None:
        return frozenset()
    return frozenset(index for index in frame.targets(CHAIN)
                     if not (frame.done(CHAIN, index) and frame.done(FILL, index)))


def hidden_cells(frame: Frame | None) -> frozenset[int]:
    """Dots ``draw_dots`` draws this frame (the view skips them)."""
    if frame is None:
        return frozenset()
    cells = {cell for cell in frame.targets(DOT) if not frame.done(DOT, cell)}
    for captured in frame.targets(DIM):
        if not frame.done(DIM, captured):
            cells.update(captured)
    return frozenset(cells)


def partial_loop(points: Sequence[tuple[float, float]], share: float) -> list[tuple[float, float]]:
    """The first ``share`` (0..1) of the closed loop through ``points``, by length."""
    if not points:
        return []
    loop = list(points) + [points[0]]
    if share >= 1.0:
        return loop
    lengths = [math.dist(loop[i], loop[i + 1]) for i in range(len(loop) - 1)]
    goal = max(0.0, share) * sum(lengths)
    result = [loop[0]]
    for i, length in enumerate(lengths):
        if goal <= length:
            if length > 0 and goal > 0:
                p = goal / length
                result.append((lerp(loop[i][0], loop[i + 1][0], p), lerp(loop[i][1], loop[i + 1][1], p)))
            break
        result.append(loop[i + 1])
        goal -= length
    return result


def draw_regions(out: DrawList, game: Game, frame: Frame, indices: frozenset[int], palette: Any,
                 px: Sequence[float], py: Sequence[float], chain_width: float) -> None:
    """The regions being closed: the fill fading in under the chain drawn so far."""
    field = game.field  # type: ignore[attr-defined]
    stride = field.stride
    for index in sorted(indices):
        if index >= len(field.regions):
            continue
        region = field.regions[index]
        chain = region.chain(stride)
        if len(chain) < 2:
            continue
        points = [(px[c % stride], py[c // stride]) for c in chain]
        blue = region.player == 0
        fill = frame.progress(FILL, index)
        if fill > 0.0:
            out.polygon(points, fade(palette.blue_fill if blue else palette.red_fill, fill))
        drawn = partial_loop(points, frame.progress(CHAIN, index))
        if len(drawn) >= 2:
            out.polyline(drawn, palette.blue_chain if blue else palette.red_chain, chain_width)


def _dot(out: DrawList, x: float, y: float, r: float, colour: str, square_half: float) -> None:
    """A dot as the view draws it: a circle, or a square (``square_half`` of
    the radius, the colour-blind option's red)."""
    if square_half:
        half = r * square_half
        out.rect(x - half, y - half, 2 * half, 2 * half, colour)
    else:
        out.circle(x, y, r, colour)


def draw_dots(out: DrawList, game: Game, frame: Frame, palette: Any, px: Sequence[float], py: Sequence[float],
              radius: float, dead_radius: float, s: float, red_square_half: float = 0.0) -> None:
    """The dots just surrounded going pale, the new dot popping in, the pulse.
    ``red_square_half``: red dots are squares this share of the radius (0: circles)."""
    field = game.field  # type: ignore[attr-defined]
    stride = field.stride
    appearing = {cell for cell in frame.targets(DOT) if not frame.done(DOT, cell)}
    for captured in frame.targets(DIM):
        if frame.done(DIM, captured):
            continue
        share = frame.progress(DIM, captured)
        for cell in captured:
            if cell in appearing:
                continue
            blue = field.dot[cell] == BLUE_DOT
            live, dead = (palette.blue, palette.blue_dead) if blue else (palette.red, palette.red_dead)
            _dot(out, px[cell % stride], py[cell // stride], lerp(radius, dead_radius, share),
                 mix(live, dead, share), 0.0 if blue else red_square_half)
    for cell in appearing:
        blue = field.dot[cell] == BLUE_DOT
        scale = max(0.0, frame.progress(DOT, cell))
        _dot(out, px[cell % stride], py[cell // stride], radius * scale, palette.blue if blue else palette.red,
             0.0 if blue else red_square_half)
    for cell in frame.targets(PULSE):
        share = frame.progress(PULSE, cell)
        if 0.0 < share < 1.0:
            # Wide enough to catch the eye on a dense field (a phone's 20x20: 6 px dots).
            start, end = radius * 1.3, max(radius * 4.0, PULSE_MIN_REACH)
            width = max(2.5, 0.14 * s) * (1.0 - 0.5 * share)
            out.circle_stroke(px[cell % stride], py[cell // stride], lerp(start, end, share),
                              fade(palette.last, 1.0 - share), width)
