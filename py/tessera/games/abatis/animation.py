"""How an Abatis move animates: the shot, the blocks, the slides, a new level.

The game object the board draws is already after the move, and a move may
end in a new level whose layout replaced the whole board.  So
``move_timeline`` rebuilds the move once, when it starts animating: it
takes the position before the move from a cheap copy of the game with the
move popped (``Abatis.copy`` copies flat arrays and the undo list), then
replays ``game.last_steps`` on it phase by phase.  Each ``Phase`` keeps the
still picture to draw under it (board and queues as bytes) and the chips
that move (``Chain``), so a frame draws a ready picture plus a handful of
moving chips: constant, small work per frame, whatever the cascade.

Places are the engine's (``rules.PLACE_QUEUE``, ``rules.PLACE_STACK``): a
board cell 0-63, 64 + a queue place, or the stack.  ``place_point`` says
where a place is drawn, in cell units from the top-left corner of the
12x12 picture (the 8x8 board inside its four two-deep queues); the stack
preview is a row under the picture.

Steps (kinds): ``shot``, ``remove``, ``slide`` and ``level``, in the order
the engine wrote them; each step's target is its ``Phase``.  The steps
are linear in time; a chain eases its own part of the phase.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...core.animation import EASE_IN_OUT, EASE_LINEAR, EASE_OUT, Frame, Timeline, ease
from ...core.game import Game
from .geometry import CELLS, LANES, SIZE
from .rules import PLACE_QUEUE, PLACE_STACK

SHOT = "shot"
REMOVE = "remove"
SLIDE = "slide"
LEVEL = "level"

SHOT_BASE_MS = 110.0
SHOT_CELL_MS = 42.0
REMOVE_MS = 420.0
SLIDE_BASE_MS = 90.0
SLIDE_CELL_MS = 42.0
LEVEL_MS = 1300.0

PICTURE = 12
"""The board and its queues span 12 x 12 cells (the corners stay empty)."""
STRIP_Y = 13.2
"""Centre line of the stack preview under the picture, in cell units."""
PREVIEW_X = (5.6, 6.65, 7.5)
"""Centres of the next three stack chips (the first one is drawn larger)."""


def queue_point(side: int, lane: int, depth: int) -> tuple[float, float]:
    """Centre of a queue place: N above the board, E right, S below, W left."""
    if side == 0:
        return 2.5 + lane, 1.5 - depth
    if side == 2:
        return 2.5 + lane, 10.5 + depth
    if side == 3:
        return 1.5 - depth, 9.5 - lane
    return 10.5 + depth, 9.5 - lane


def cell_point(cell: int) -> tuple[float, float]:
    row, col = divmod(cell, SIZE)
    return 2.5 + col, 9.5 - row


def place_point(place: int) -> tuple[float, float]:
    """Where ``place`` is drawn (the stack: its first preview slot)."""
    if place < CELLS:
        return cell_point(place)
    if place < PLACE_STACK:
        q = place - PLACE_QUEUE
        return queue_point(q // (2 * LANES), (q // 2) % LANES, q % 2)
    return PREVIEW_X[0], STRIP_Y


def distance(source: int, target: int) -> float:
    """How far a chip travels between two places, in cells (along a lane:
    exact); a chip leaving or joining the stack does not travel (it shrinks
    away or grows in place), so counts 1."""
    if PLACE_STACK in (source, target):
        return 1.0
    (x1, y1), (x2, y2) = place_point(source), place_point(target)
    return max(abs(x2 - x1), abs(y2 - y1))


@dataclass(frozen=True, eq=False)
class Chain:
    """One chip's journey in a phase: ``source`` to ``target`` (places),
    during the share ``begin``..``end`` of the phase.  A chip the engine
    moved twice in one pass (into a queue, then on to the outer place) is
    one chain from its first place to its last."""

    colour: int
    pointer: int
    source: int
    target: int
    begin: float = 0.0
    end: float = 1.0
    easing: str = EASE_IN_OUT

    def progress(self, share: float) -> float:
        """How far along the chip is when the phase is ``share`` done (0..1)."""
        if share <= self.begin:
            return 0.0
        if share >= self.end or self.end <= self.begin:
            return 1.0
        return ease(self.easing, (share - self.begin) / (self.end - self.begin))

    def point(self, share: float) -> tuple[float, float]:
        """Where the chip is; a chip from the stack appears at its target and
        one going under the stack vanishes at its source (``size``)."""
        if self.source == PLACE_STACK:
            return place_point(self.target)
        if self.target == PLACE_STACK:
            return place_point(self.source)
        (x1, y1), (x2, y2) = place_point(self.source), place_point(self.target)
        p = self.progress(share)
        return x1 + (x2 - x1) * p, y1 + (y2 - y1) * p

    def size(self, share: float) -> float:
        """The chip's scale: growing out of the stack, shrinking into it, else 1."""
        if self.source == PLACE_STACK:
            return self.progress(share)
        if self.target == PLACE_STACK:
            return 1.0 - self.progress(share)
        return 1.0


@dataclass(frozen=True, eq=False)
class Phase:
    """One step of the move: the still picture under it (``board``: colour |
    pointer << 4 per cell, ``queues``: a colour per queue place, moving chips
    left out), what moves, and the position once it is over (``after_*``)."""

    kind: str
    board: bytes
    queues: bytes
    preview: tuple[int, ...]
    after_board: bytes
    after_queues: bytes
    after_preview: tuple[int, ...]
    chains: tuple[Chain, ...] = ()
    blocks: tuple[tuple[tuple[int, ...], int, int], ...] = ()
    bonus: int = 0
    level: int = 0
    lane: int = -1


def _compose(motions: list[tuple[int, int, int, int]], shot: bool) -> list[list[int]]:
    """Join motions that carry one chip on (a place it just reached is its
    next motion's source) into [colour, pointer, source, target] chains.
    The shot chip (a shot's last motion) leaves its inner place after the
    queue refilled it: it never continues another chain."""
    chains: list[list[int]] = []
    arrived: dict[int, list[int]] = {}
    last = len(motions) - 1
    for index, (colour, pointer, source, target) in enumerate(motions):
        chain = None if (shot and index == last) or source == PLACE_STACK else arrived.pop(source, None)
        if chain is None:
            chain = [colour, pointer, source, target]
            chains.append(chain)
        else:
            chain[1], chain[3] = pointer, target
        if target != PLACE_STACK:
            arrived[target] = chain
    return chains


def _apply(board: bytearray, queues: bytearray, motions: list[tuple[int, int, int, int]]) -> None:
    """Replay motions in order: a chip leaves its source unless something
    already arrived there in this phase (the refilled inner place the shot
    chip leaves), and lands on its target."""
    written: set[int] = set()
    for colour, pointer, source, target in motions:
        if source not in written:
            if source < CELLS:
                board[source] = 0
            elif source < PLACE_STACK:
                queues[source - PLACE_QUEUE] = 0
        if target < CELLS:
            board[target] = colour | pointer << 4
        elif target < PLACE_STACK:
            queues[target - PLACE_QUEUE] = colour
        written.add(target)


def _timed_chains(raw: list[list[int]], shot: bool) -> tuple[tuple[Chain, ...], float]:
    """Chains with their share of the phase, and the phase's length in cells.

    A shot: the shot chip travels the whole phase, the queue shifts and the
    stack chip drops in meanwhile, and the chips it pushes (or knocks out)
    start when it reaches them.  A slide: every chip at the same speed."""
    if not raw:
        return (), 0.0
    if shot:
        colour, pointer, source, target = raw[-1]
        travel = max(1.0, distance(source, target))
        impact = (travel - 1.0) / travel
        chains = []
        for c, p, s, t in raw[:-1]:
            if s == PLACE_STACK:
                chains.append(Chain(c, p, s, t, 0.15, 0.75, EASE_OUT))
            elif s >= CELLS and t >= CELLS and (s - PLACE_QUEUE) // 2 == (source - PLACE_QUEUE) // 2:
                chains.append(Chain(c, p, s, t, 0.0, 0.45, EASE_OUT))   # the shot lane's queue moves up
            else:
                chains.append(Chain(c, p, s, t, impact, 1.0, EASE_OUT))
        chains.append(Chain(colour, pointer, source, target, 0.0, 1.0, EASE_OUT))
        return tuple(chains), travel
    lengths = [distance(s, t) for _, _, s, t in raw]
    longest = max(max(lengths), 1.0)
    chains = []
    for (c, p, s, t), length in zip(raw, lengths):
        if s < CELLS:
            chains.append(Chain(c, p, s, t, 0.0, max(0.25, length / longest)))
        else:   # a queue making room for a chip leaving the board
            chains.append(Chain(c, p, s, t, 0.55, 1.0))
    return tuple(chains), longest


def move_timeline(game: Game, move: Any, emphasis: bool = False) -> Timeline:
    """The animation of ``move``, the last move pushed on ``game`` (empty when
    it is not, or the game kept no steps)."""
    timeline = Timeline()
    steps = getattr(game, "last_steps", None)
    if not game.move_stack or game.move_stack[-1] != move or not steps:
        return timeline
    before = game.copy()
    before.pop()
    board, queues = bytearray(before.board), bytearray(before.queues)  # type: ignore[attr-defined]
    preview = tuple(before.preview())  # type: ignore[attr-defined]
    levels_up = any(kind == LEVEL for kind, _ in steps)
    for kind, items in steps:
        start_board, start_queues, start_preview = bytes(board), bytes(queues), preview
        if kind in (SHOT, SLIDE):
            shot = kind == SHOT
            raw = _compose(list(items), shot)
            _apply(board, queues, list(items))
            if shot:   # the stack's top dropped into the queue; the engine kept the rest
                preview = tuple(before.stack[1:4]) if levels_up else tuple(game.preview())  # type: ignore[attr-defined]
            chains, cells = _timed_chains(raw, shot)
            still_board, still_queues = bytearray(board), bytearray(queues)
            for chain in chains:
                if chain.target < CELLS:
                    still_board[chain.target] = 0
                elif chain.target < PLACE_STACK:
                    still_queues[chain.target - PLACE_QUEUE] = 0
            base, per_cell = (SHOT_BASE_MS, SHOT_CELL_MS) if shot else (SLIDE_BASE_MS, SLIDE_CELL_MS)
            lane = move % (4 * LANES) if shot and isinstance(move, int) else -1
            phase = Phase(kind, bytes(still_board), bytes(still_queues), start_preview, bytes(board), bytes(queues),
                          preview, chains=chains, lane=lane)
            timeline.then(kind, base + per_cell * cells, phase, easing=EASE_LINEAR)
        elif kind == REMOVE:
            for cells, _, _ in items:
                for cell in cells:
                    board[cell] = 0
            # The still board keeps the block chips: the view draws them vanishing from ``blocks``.
            phase = Phase(kind, start_board, start_queues, start_preview, bytes(board), bytes(queues), preview,
                          blocks=tuple(items))
            timeline.then(kind, REMOVE_MS, phase, easing=EASE_LINEAR)
        elif kind == LEVEL:
            bonus, level = items
            board, queues = bytearray(game.board), bytearray(game.queues)  # type: ignore[attr-defined]
            preview = tuple(game.preview())  # type: ignore[attr-defined]
            phase = Phase(kind, start_board, start_queues, start_preview, bytes(board), bytes(queues), preview,
                          bonus=bonus, level=level)
            timeline.then(kind, LEVEL_MS, phase, easing=EASE_LINEAR)
    return timeline


def current(frame: Frame | None) -> tuple[Phase, float] | None:
    """The phase to draw and how far it is (0..1), or None without an animation.

    Phases follow one another, so this is the last step begun (the first
    one before anything started)."""
    if frame is None or not frame.timeline.steps:
        return None
    steps = frame.timeline.steps
    chosen = steps[0]
    for step in steps:
        if step.start <= frame.elapsed:
            chosen = step
        else:
            break
    target = chosen.target
    if not isinstance(target, Phase):
        return None
    return target, chosen.progress(frame.elapsed)


def phase_kinds(timeline: Timeline) -> list[str]:
    """The kinds of a timeline's phases in time order (tests, the report)."""
    return [step.kind for step in sorted(timeline.steps, key=lambda step: step.start)]
