"""Dots bots that read captures: a capture taker, a tactician and a
Monte Carlo search.

Dots is decided by captures, and a capture can only happen at a point
whose eight neighbours hold the mover's live dots in two or more separate
arcs (the engine's ring table): only such a point can close a chain.  That
test costs eight look-ups, so every bot here filters points with it and
only plays the survivors on the field (``Field.place`` / ``undo``, a few
microseconds) to learn what they would take.  The bots never call
``legal_moves`` after the root and never scan the whole field inside the
search, so one step costs the same on 20x20 and 39x32.

* ``DotsCaptureBot`` ("dots_capture"): the biggest capture on offer, else a
  random point next to a dot.  It does not see threats.
* ``DotsTacticsBot`` ("dots_tactics"): scores each point near the dots by a
  two-ply reading: what it takes, the biggest capture the opponent then has
  (old threats that stay open and new ones next to the move), and the
  capture threats it leaves for the next turn; plays the best.
* ``DotsMctsBot`` ("dots_mcts"): takes the tactician's best few points as
  candidates and their scores as a prior, then shares its time among them
  by UCB (a search tree of depth one), each visit one playout.  Playout
  moves take a capture next to the last two moves when there is one, else
  block the opponent's capture there, else play a random point near the
  dots (never a point where the new dot is captured at once); a playout is
  cut after ``playout_plies`` plies and scored by the change in the score
  difference.

All searches are generators that yield every few candidates or playouts;
the field is always restored before a yield, so a cancelled search leaves
the game as it was.
"""

from __future__ import annotations

import math
from typing import Any, Generator

from ...bots.base import Bot, Search
from ...bots.clock import Budget
from ...core.rng import SeededRandom
from .field import _RING_STARTS, Field
from .rules import LAND, Dots

CAN_CLOSE = bytes(1 if arcs else 0 for arcs in _RING_STARTS)
"""By 8-bit ring mask of a player's live dots: 1 if a dot placed in the
middle could close a chain (two or more separate free arcs)."""

SAFETY_ITERATIONS = 2000
"""Iteration cap when a search has neither a time nor an iteration limit."""
SCORE_YIELD = 1
"""Candidates scored between yields."""
THREATS_RECHECKED = 3
"""Each side's biggest open captures that the two-ply score re-reads after
a candidate move (more rarely matter and cost a field update each)."""


class Tactics:
    """Capture queries on one field; every query leaves the field as it was."""

    __slots__ = ("field", "ring", "near2", "count")

    def __init__(self, field: Field) -> None:
        self.field = field
        self.ring = field.ring
        stride = field.stride
        self.near2 = tuple(dy * stride + dx for dy in range(-2, 3) for dx in range(-2, 3)
                           if dx or dy)
        self.count = field.cell_count

    def can_close(self, cell: int, player: int) -> bool:
        """Whether a dot of ``player`` on ``cell`` could close a chain."""
        live = self.field.live[player]
        mask = 0
        bit = 1
        for step in self.ring:
            if live[cell + step]:
                mask |= bit
            bit <<= 1
        return CAN_CLOSE[mask] == 1

    def gain(self, cell: int, player: int) -> int:
        """Change of ``player``'s score lead if they put a dot on ``cell``:
        positive for a capture, negative when the new dot is taken itself."""
        field = self.field
        score = field.score
        before = score[player] - score[1 - player]
        field.place(cell, player)
        after = score[player] - score[1 - player]
        field.undo()
        return after - before

    def around(self, cell: int) -> list[int]:
        """Free points within two steps (king moves) of ``cell``."""
        dot, owner, count = self.field.dot, self.field.owner, self.count
        result = []
        for step in self.near2:
            n = cell + step
            if 0 <= n < count and not dot[n] and not owner[n]:
                result.append(n)
        return result

    def near_free(self) -> list[int]:
        """Free points within two steps of a live dot, in field order."""
        field = self.field
        dot, owner, count = field.dot, field.owner, self.count
        live0, live1 = field.live
        seen = bytearray(count)
        result = []
        for c in field.cells:
            if live0[c] or live1[c]:
                for step in self.near2:
                    n = c + step
                    if 0 <= n < count and not seen[n] and not dot[n] and not owner[n]:
                        seen[n] = 1
                        result.append(n)
        result.sort()
        return result

    def captures(self, player: int, cells: list[int]) -> list[tuple[int, int]]:
        """``(gain, cell)`` for every point of ``cells`` where ``player``
        captures now, biggest first."""
        dot, owner = self.field.dot, self.field.owner
        found = []
        for c in cells:
            if not dot[c] and not owner[c] and self.can_close(c, player):
                g = self.gain(c, player)
                if g > 0:
                    found.append((g, c))
        found.sort(key=lambda item: (-item[0], item[1]))
        return found

    def _best_captures(self, player: int, cells: list[int], extra: list[int]) -> tuple[int, int]:
        """The two biggest capture gains of ``player`` over two point lists
        (each point counted once)."""
        dot, owner = self.field.dot, self.field.owner
        first = second = 0
        checked: set[int] = set()
        for group in (cells, extra):
            for c in group:
                if c in checked or dot[c] or owner[c]:
                    continue
                checked.add(c)
                if not self.can_close(c, player):
                    continue
                g = self.gain(c, player)
                if g > first:
                    first, second = g, first
                elif g > second:
                    second = g
        return first, second

    def move_value(self, cell: int, player: int, mine: list[int], theirs: list[int],
                   last: int) -> float:
        """The two-ply score of ``player`` putting a dot on ``cell``.

        ``mine`` / ``theirs``: points where each side captures before the
        move.  The score weighs what the move takes, the biggest capture
        the opponent then has, the two best captures it leaves for the
        player's next turn, and a little shape: contact with the opponent,
        links to own dots, nearness to the last move.
        """
        field = self.field
        score = field.score
        enemy = 1 - player
        before = score[player] - score[enemy]
        field.place(cell, player)
        try:
            taken = score[player] - score[enemy] - before
            if taken < 0:
                return 10.0 * taken - 5.0
            nearby = self.around(cell)
            reply, _ = self._best_captures(enemy, theirs, nearby)
            threat, second = self._best_captures(player, mine, nearby)
        finally:
            field.undo()
        live_me, live_them = field.live[player], field.live[enemy]
        own = them = 0
        for step in self.ring:
            own += live_me[cell + step]
            them += live_them[cell + step]
        shape = 0.3 * min(own, 2) + 0.35 * min(them, 3)
        if own == 0 and them == 0:
            shape -= 0.5
        if field.house[player][cell]:
            shape -= 1.0
        if last >= 0:
            stride = field.stride
            dx = abs(cell % stride - last % stride)
            dy = abs(cell // stride - last // stride)
            if max(dx, dy) <= 2:
                shape += 0.4
        value = 10.0 * taken - 8.0 * reply + 3.0 * min(threat, 6) + 1.5 * min(second, 6) + shape
        return value


def _center(field: Field) -> int:
    return field.cell((field.width + 1) // 2, (field.height + 1) // 2)


def _root_moves(game: Dots) -> tuple[list[int], bool]:
    """The free points near the dots, and whether landing wins now."""
    moves = game.legal_moves()
    return moves, LAND in moves


class DotsCaptureBot(Bot):
    """The biggest capture, else a random point next to a dot."""

    name = "dots_capture"
    param_names: tuple[str, ...] = ()

    def search(self, game: Dots) -> Search:
        if game.is_over():
            return None
        moves, landing_wins = _root_moves(game)
        if landing_wins:
            return LAND
        yield
        field = game.field
        tactics = Tactics(field)
        me = game.to_move
        near = tactics.near_free()
        if not near:
            return _center(field) if field.is_free(_center(field)) else moves[0]
        found = tactics.captures(me, near)
        if found:
            return found[0][1]
        yield
        rng = SeededRandom(self.seed * 1_000_003 + game.ply)
        rng.shuffle(near)
        for c in near[:12]:
            if tactics.gain(c, me) >= 0:
                return c
        return near[0]


class DotsTacticsBot(Bot):
    """The point with the best two-ply capture score (``Tactics.move_value``);
    ``noise`` adds a seeded random amount in [0, noise) to each score."""

    name = "dots_tactics"
    param_names: tuple[str, ...] = ("noise",)

    def __init__(self, seed: int = 0, movetime_ms: int = 1000, noise: float = 0.5,
                 **params: Any) -> None:
        super().__init__(seed, movetime_ms, noise=noise, **params)
        self.noise = float(noise)

    def search(self, game: Dots) -> Search:
        if game.is_over():
            return None
        moves, landing_wins = _root_moves(game)
        if landing_wins:
            return LAND
        yield
        budget = Budget(self.movetime_ms)
        rng = SeededRandom(self.seed * 1_000_003 + game.ply)
        scored = yield from score_candidates(game, rng, self.noise, budget)
        if not scored:
            field = game.field
            return _center(field) if field.is_free(_center(field)) else moves[0]
        return scored[0][1]


def score_candidates(game: Dots, rng: SeededRandom, noise: float,
                     budget: Budget | None = None) -> Generator[None, None, list[tuple[float, int]]]:
    """``(value, point)`` for the free points near the dots, best first.

    Points near the last two moves are scored first, so a search that runs
    out of time (``budget``) still has looked at the fight.
    """
    field = game.field
    tactics = Tactics(field)
    me = game.to_move
    near = tactics.near_free()
    if not near:
        return []
    stack = game.move_stack
    last = stack[-1] if stack and stack[-1] != LAND else -1
    recent = set()
    for move in stack[-2:]:
        if move != LAND:
            recent.update(tactics.around(move))
    near.sort(key=lambda c: (c not in recent, c))
    yield
    mine = [c for _, c in tactics.captures(me, near)[:THREATS_RECHECKED]]
    theirs = [c for _, c in tactics.captures(1 - me, near)[:THREATS_RECHECKED]]
    yield
    scored = []
    for index, c in enumerate(near):
        if index and index % SCORE_YIELD == 0:
            yield
            if budget is not None and budget.spent():
                break
        value = tactics.move_value(c, me, mine, theirs, last)
        if noise:
            value += noise * rng.random()
        scored.append((value, c))
    scored.sort(key=lambda item: (-item[0], item[1]))
    return scored


class DotsMctsBot(Bot):
    """UCB over the tactician's best ``width`` points with capture-aware
    playouts (see the module docstring).

    Parameters: ``max_iterations`` (playouts; 0: none), ``width``
    (candidates searched), ``playout_plies``, ``exploration`` (UCB
    constant), ``prior_visits`` (weight of the two-ply score, in playouts).
    """

    name = "dots_mcts"
    param_names: tuple[str, ...] = ("max_iterations", "width", "playout_plies", "exploration",
                                    "prior_visits")

    def __init__(self, seed: int = 0, movetime_ms: int = 1000, max_iterations: int = 0,
                 width: int = 8, playout_plies: int = 24, exploration: float = 0.5,
                 prior_visits: float = 6.0, **params: Any) -> None:
        super().__init__(seed, movetime_ms, max_iterations=max_iterations, width=width,
                         playout_plies=playout_plies, exploration=exploration,
                         prior_visits=prior_visits, **params)
        self.max_iterations = int(max_iterations)
        self.width = max(1, int(width))
        self.playout_plies = max(0, int(playout_plies))
        self.exploration = float(exploration)
        self.prior_visits = max(0.0, float(prior_visits))
        self.iterations = 0

    def search(self, game: Dots) -> Search:
        self.iterations = 0
        if game.is_over():
            return None
        moves, landing_wins = _root_moves(game)
        if landing_wins:
            return LAND
        yield
        limit = self.max_iterations or (0 if self.movetime_ms > 0 else SAFETY_ITERATIONS)
        budget = Budget(self.movetime_ms, limit)
        rng = SeededRandom(self.seed * 1_000_003 + game.ply)
        # Scoring may use at most half the time; the playouts get the rest.
        scoring = Budget(self.movetime_ms / 2 if self.movetime_ms > 0 else 0)
        scored = yield from score_candidates(game, rng, 0.05, scoring)
        field = game.field
        if not scored:
            return _center(field) if field.is_free(_center(field)) else moves[0]
        arms = scored[:self.width]
        if len(arms) == 1:
            return arms[0][1]
        best_value = arms[0][0]
        # The prior: virtual playouts whose mean falls off with the two-ply score.
        visits = [self.prior_visits] * len(arms)
        totals = [self.prior_visits * (0.5 + 0.45 * math.tanh((value - best_value) / 6.0))
                  for value, _ in arms]
        me = game.to_move
        near = Tactics(field).near_free()
        playout = _Playout(field, near, rng)
        score = field.score
        root_lead = score[me] - score[1 - me]
        stack = game.move_stack
        prev = stack[-1] if stack and stack[-1] != LAND else -1
        c = self.exploration
        while True:
            n_total = sum(visits)
            log_n = math.log(n_total + 1.0)
            pick, pick_value = 0, -1.0
            for i in range(len(arms)):
                value = totals[i] / visits[i] + c * math.sqrt(log_n / visits[i])
                if value > pick_value:
                    pick, pick_value = i, value
            move = arms[pick][1]
            field.place(move, me)
            try:
                playout.run(1 - me, move, prev, self.playout_plies)
                lead = score[me] - score[1 - me] - root_lead
            finally:
                field.undo()
            visits[pick] += 1
            totals[pick] += 0.5 + 0.5 * lead / (abs(lead) + 3.0)
            self.iterations += 1
            budget.work = self.iterations
            yield
            if budget.spent():
                break
        best = max(range(len(arms)), key=lambda i: (visits[i], totals[i] / visits[i], -i))
        return arms[best][1]


class _Playout:
    """Capture-aware playouts on a field, from a list of points near dots.

    ``run`` plays and then undoes its moves, so the field is unchanged.
    """

    __slots__ = ("field", "tactics", "near", "in_near", "rng")

    def __init__(self, field: Field, near: list[int], rng: SeededRandom) -> None:
        self.field = field
        self.tactics = Tactics(field)
        self.near = near
        self.in_near = bytearray(field.cell_count)
        for c in near:
            self.in_near[c] = 1
        self.rng = rng

    def run(self, player: int, last: int, prev: int, plies: int) -> int:
        """Play up to ``plies`` moves from ``player``; returns how many."""
        field = self.field
        dot, owner, score, ring = field.dot, field.owner, field.score, field.ring
        live = field.live
        near, in_near, rng = self.near, self.in_near, self.rng
        base_near = len(near)
        placed = 0
        try:
            for _ in range(plies):
                enemy = 1 - player
                move = -1
                block = -1
                # Captures for the mover, blocks of the enemy's, next to the last moves.
                for centre in (last, prev):
                    if centre < 0:
                        continue
                    for step in ring:
                        n = centre + step
                        if dot[n] or owner[n]:
                            continue
                        mask_me = mask_them = 0
                        bit = 1
                        live_me, live_them = live[player], live[enemy]
                        for s in ring:
                            if live_me[n + s]:
                                mask_me |= bit
                            if live_them[n + s]:
                                mask_them |= bit
                            bit <<= 1
                        if CAN_CLOSE[mask_me]:
                            lead = score[player] - score[enemy]
                            field.place(n, player)
                            if score[player] - score[enemy] > lead:
                                move = n
                                break
                            field.undo()
                        if block < 0 and CAN_CLOSE[mask_them]:
                            lead = score[enemy] - score[player]
                            field.place(n, enemy)
                            if score[enemy] - score[player] > lead:
                                block = n
                            field.undo()
                    if move >= 0:
                        break
                if move < 0 and block >= 0:
                    lost = score[enemy]
                    field.place(block, player)
                    if score[enemy] > lost:
                        field.undo()
                    else:
                        move = block
                if move < 0:
                    for _try in range(8):
                        if last >= 0 and rng.below(2):
                            c = last + self.tactics.near2[rng.below(24)]
                            if not 0 <= c < len(dot):
                                continue
                        else:
                            c = near[rng.below(len(near))]
                        if dot[c] or owner[c]:
                            continue
                        lost = score[enemy]
                        field.place(c, player)
                        if score[enemy] > lost:
                            field.undo()
                            continue
                        move = c
                        break
                if move < 0:
                    break
                placed += 1
                for step in ring:
                    n = move + step
                    if not in_near[n] and not dot[n]:
                        in_near[n] = 1
                        near.append(n)
                prev, last = last, move
                player = enemy
            return placed
        finally:
            for _ in range(placed):
                field.undo()
            for c in near[base_near:]:
                in_near[c] = 0
            del near[base_near:]
