"""Reading captures on a Dots field: the queries the Dots bots share.

Dots is decided by captures, and a capture can only happen at a point
whose eight neighbours hold the mover's live dots in two or more separate
arcs (the engine's ring table): only such a point can close a chain.  That
test costs eight look-ups, so everything here filters points with it and
only plays the survivors on the field (``Field.place`` / ``undo``, a few
microseconds, more when a flood runs far) to learn what they would take.
Nothing here calls ``legal_moves`` or scans the whole field below the root,
so one step of a search costs about the same on 20x20 and 39x32.

* ``Tactics``: one-point queries (could it close a chain, what would it
  gain) and the two-ply score of a move (``move_value``);
  ``score_candidates`` scores every point near the dots with it.
* ``Reader``: a selective negamax below the root, on the field itself.
* ``Playout``: capture-aware random playouts for Monte Carlo search.

Every query restores the field before it returns or yields.
"""

from __future__ import annotations

import math
from typing import Generator

from ...bots.clock import Budget
from ...core.rng import SeededRandom
from .field import OFF, Field
from .ring import CAN_CLOSE, DOTS_IN_RING, RING_STARTS
from .rules import LAND, Dots


def _arcs_table() -> tuple[tuple[tuple[int, int], ...], ...]:
    """By ring mask of own live dots, when the point can close a chain: each
    free arc as ``(ring index of an orthogonal cell in it, bit mask of its
    cells)``, so a playout floods only arcs that touch an enemy dot."""
    table = []
    for mask, starts in enumerate(RING_STARTS):
        arcs = []
        for start in starts:
            bits = 1 << start
            for direction in (1, 7):
                i = (start + direction) % 8
                while not mask >> i & 1 and not bits >> i & 1:
                    bits |= 1 << i
                    i = (i + direction) % 8
            arcs.append((start, bits))
        table.append(tuple(arcs))
    return tuple(table)


ARCS = _arcs_table()

SMALL_AREA = 30
"""Largest enclosure (cells) a playout looks for when it reads captures."""
THREATS_RECHECKED = 3
"""Each side's biggest open captures that the two-ply score re-reads after
a candidate move (more rarely matter and cost a field update each)."""


class Tactics:
    """Capture queries on one field; every query leaves the field as it was."""

    __slots__ = ("field", "near2", "count")

    def __init__(self, field: Field) -> None:
        self.field = field
        stride = field.stride
        self.near2 = tuple(dy * stride + dx for dy in range(-2, 3) for dx in range(-2, 3)
                           if dx or dy)
        self.count = field.cell_count

    def can_close(self, cell: int, player: int) -> bool:
        """Whether a dot of ``player`` on ``cell`` could close a chain."""
        return CAN_CLOSE[self.field.live_ring[player][cell]] == 1

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

    def best_captures(self, player: int, cells: list[int], extra: list[int]) -> tuple[int, int]:
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
            reply, _ = self.best_captures(enemy, theirs, nearby)
            threat, second = self.best_captures(player, mine, nearby)
        finally:
            field.undo()
        own = DOTS_IN_RING[field.live_ring[player][cell]]
        them = DOTS_IN_RING[field.live_ring[enemy][cell]]
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


def open_captures(field: Field) -> list[tuple[int, int, int]]:
    """``(point, player, dots)`` for every free point near the dots where
    ``player`` would capture now, taking ``dots`` of the opponent's dots:
    the threats a player sees on the field ("show threats").  A point where
    the opponent would capture is where the other side saves its dots.  The
    same reading the bots use (ring table, then a trial move)."""
    tactics = Tactics(field)
    found = []
    for c in tactics.near_free():
        for player in (0, 1):
            if tactics.can_close(c, player):
                taken = tactics.gain(c, player)
                if taken > 0:
                    found.append((c, player, taken))
    return found


def score_candidates(game: Dots, rng: SeededRandom, noise: float, budget: Budget | None = None,
                     open_points: list[int] | None = None
                     ) -> Generator[None, None, list[tuple[float, int]]]:
    """``(value, point)`` for the free points near the dots, best first.

    Points near the last two moves are read and scored first, so a search
    that runs out of time (``budget``) still has looked at the fight.  The
    budget is checked after every yield, and once it is spent no further
    step is taken: the points read so far are scored, at least one, so a
    search always has a move.  When given, ``open_points`` receives the
    points where either side captures now (the biggest few of each), which
    a deeper search keeps in view.
    """
    out_of_time = budget.spent if budget is not None else _never
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
    open_captures: list[list[tuple[int, int]]] = [[], []]
    late = out_of_time()
    for index, c in enumerate(near):
        if index % 8 == 7:
            yield
            late = out_of_time()
        if late:
            break
        for player in (me, 1 - me):
            if tactics.can_close(c, player):
                g = tactics.gain(c, player)
                if g > 0:
                    open_captures[player].append((-g, c))
    mine = [c for _, c in sorted(open_captures[me])[:THREATS_RECHECKED]]
    theirs = [c for _, c in sorted(open_captures[1 - me])[:THREATS_RECHECKED]]
    if open_points is not None:
        open_points.extend(mine + theirs)
    scored = []
    for c in near:
        if scored:  # the first point is scored even when the time is gone
            if late:
                break
            yield
            late = out_of_time()
            if late:
                break
        value = tactics.move_value(c, me, mine, theirs, last)
        if noise:
            value += noise * rng.random()
        scored.append((value, c))
    scored.sort(key=lambda item: (-item[0], item[1]))
    return scored


def _never() -> bool:
    """The budget of a search without one: never spent."""
    return False


class Reader:
    """Negamax below the root on the field itself (place / undo).

    Candidates at a node, among the free points within two steps of the
    last two moves that touch a dot and the points where a side could
    capture at the root (``hot``): the mover's captures first, then the
    points where the opponent would capture (blocks), then those touching
    most dots; ``width`` of them.  A leaf is worth the mover's score lead plus the biggest capture
    the mover could make there at once.
    """

    extensions = 0
    """Plies a line may read beyond its depth where, at its end, the last
    move threatens a capture (the mover must answer it): a leaf is not
    judged in the middle of a ladder.  The hard level reads none; the
    master sets it."""

    def __init__(self, field: Field, budget: Budget, width: int, hot: list[int]) -> None:
        self.field = field
        self.tactics = Tactics(field)
        self.budget = budget
        self.width = width
        self.hot = hot
        self.aborted = False
        self.nodes = 0
        self._extended = 0   # extension plies on the line being read
        self.table: dict[tuple[int, int, int], tuple[int, float, int, int]] | None = None
        self.key = 0         # the dots placed since the root, hashed (with a table)
        self._keys: list[int] = []
        self.child_best = -1
        """The best reply ``child_value`` found to its move (-1: none read),
        which a bot that ponders expects (``Bot.expected_reply``)."""
        self._at_child = False

    def use_table(self) -> None:
        """Remember what each position read to (a transposition table, kept
        across the depths): a position met again is not read again, and its
        best move is tried first.  A position is the dots placed since the
        root (Zobrist keys) and the last two moves, which pick its candidates."""
        keys = SeededRandom(0x7AB1E)
        self._keys = [keys.below(1 << 62) for _ in range(2 * len(self.field.dot))]
        self.table = {}

    def child_value(self, move: int, player: int, prev: int, depth: int,
                    alpha: float) -> Generator[None, None, float]:
        """Value for ``player`` of playing ``move`` (then ``depth`` plies)."""
        field = self.field
        field.place(move, player)
        turn = self._keys[2 * move + player] if self._keys else 0
        self.key ^= turn
        self.child_best = -1
        self._at_child = True
        try:
            value = yield from self._negamax(1 - player, move, prev, depth, -math.inf, -alpha)
        finally:
            field.undo()
            self.key ^= turn
        return -value

    def _negamax(self, player: int, last: int, prev: int, depth: int, alpha: float,
                 beta: float) -> Generator[None, None, float]:
        """Yields once per node and then checks the budget, so one step is
        one node's work and nothing is read once the time is up: after
        ``aborted`` every value is thrown away up to the root, so 0 will do."""
        self.nodes += 1
        self.budget.work = self.nodes
        at_child, self._at_child = self._at_child, False
        yield
        if self.aborted or self.budget.spent():
            self.aborted = True
            return 0.0
        field = self.field
        score = field.score
        lead = score[player] - score[1 - player]
        local = self._local(last, prev)
        extended = depth == 0 and self._extended < self.extensions and self.threatened(player, last)
        if extended:
            depth += 1
            self._extended += 1
        try:
            if depth == 0:
                return lead + self.leaf_gain(player, local)
            table, keys, hint = self.table, self._keys, -1
            slot = (self.key, last, prev) if table is not None else None   # this position, as the table knows it
            if table is not None:
                entry = table.get(slot)
                if entry is not None:
                    known_depth, known, bound, hint = entry
                    if known_depth >= depth and (bound == 0 or (bound > 0 and known >= beta)
                                                 or (bound < 0 and known <= alpha)):
                        return known
            candidates = self._candidates(player, last, local)
            if not candidates:
                return lead
            if hint in candidates:
                candidates.remove(hint)
                candidates.insert(0, hint)
            low, best, best_move = alpha, -math.inf, -1
            for move in candidates:
                field.place(move, player)
                turn = keys[2 * move + player] if keys else 0
                self.key ^= turn
                try:
                    value = -(yield from self._negamax(1 - player, move, last, depth - 1, -beta, -alpha))
                finally:
                    field.undo()
                    self.key ^= turn
                if value > best:
                    best, best_move = value, move
                if value > alpha:
                    alpha = value
                if alpha >= beta or self.aborted:
                    break
            if table is not None and not self.aborted:
                # 0: exact; 1: at least (a cut); -1: at most (nothing beat alpha).
                bound = 1 if best >= beta else -1 if best <= low else 0
                table[slot] = (depth, best, bound, best_move)
            if at_child and not self.aborted:
                self.child_best = best_move
            return best
        finally:
            if extended:
                self._extended -= 1

    def threatened(self, player: int, last: int) -> bool:
        """Whether the last move (the opponent's) lets the opponent capture
        next to it now: the mover must answer."""
        if last < 0:
            return False
        tactics, enemy = self.tactics, 1 - player
        dot, owner = self.field.dot, self.field.owner
        for c in tactics.around(last):
            if not dot[c] and not owner[c] and tactics.can_close(c, enemy) and tactics.gain(c, enemy) > 0:
                return True
        return False

    def _local(self, last: int, prev: int) -> list[int]:
        """Free points near the last two moves, then the root's open
        captures (``hot``) that are still free."""
        cells = self.tactics.around(last) if last >= 0 else []
        seen = set(cells)
        if prev >= 0:
            cells += [c for c in self.tactics.around(prev) if c not in seen]
            seen.update(cells)
        dot, owner = self.field.dot, self.field.owner
        cells += [c for c in self.hot if c not in seen and not dot[c] and not owner[c]]
        return cells

    def leaf_gain(self, player: int, local: list[int]) -> float:
        """What a leaf adds to the mover's lead: the biggest capture the
        mover could make there at once."""
        return self._best_capture(player, local)

    def _best_capture(self, player: int, cells: list[int]) -> int:
        best = 0
        tactics = self.tactics
        for c in cells:
            if tactics.can_close(c, player):
                g = tactics.gain(c, player)
                if g > best:
                    best = g
        return best

    def _candidates(self, player: int, last: int, cells: list[int]) -> list[int]:
        """Up to ``width`` points for ``player``, most urgent first."""
        tactics = self.tactics
        field = self.field
        enemy = 1 - player
        ring_me, ring_them = field.live_ring[player], field.live_ring[enemy]
        ranked = []
        for c in cells:
            mask_me, mask_them = ring_me[c], ring_them[c]
            own, them = DOTS_IN_RING[mask_me], DOTS_IN_RING[mask_them]
            value = 0.3 * min(own, 2) + 0.35 * min(them, 3)
            if CAN_CLOSE[mask_me]:
                g = tactics.gain(c, player)
                if g < 0:
                    continue
                value += 10.0 * g
            if CAN_CLOSE[mask_them]:
                g = tactics.gain(c, enemy)
                if g > 0:
                    value += 8.0 * g
            if own or them:
                ranked.append((-value, c))
        ranked.sort()
        return [c for _, c in ranked[:self.width]]


class Playout:
    """Capture-aware playouts on a field, from a list of points near dots.

    Whether a point captures is read by ``small_capture``, a flood capped
    at ``SMALL_AREA`` cells, instead of a trial ``Field.place`` (whose
    floods may cover half the field); only the chosen move is placed.
    ``run`` undoes its moves, so the field is left unchanged.
    """

    __slots__ = ("field", "near", "in_near", "rng", "mark", "stamp", "near2")

    def __init__(self, field: Field, near: list[int], rng: SeededRandom) -> None:
        self.field = field
        self.near = near
        self.in_near = bytearray(field.cell_count)
        for c in near:
            self.in_near[c] = 1
        self.rng = rng
        self.mark = [0] * field.cell_count
        self.stamp = 0
        self.near2 = Tactics(field).near2

    def small_capture(self, cell: int, mask: int, enemy_mask: int, player: int) -> bool:
        """Whether a dot of ``player`` on ``cell`` closes a chain around at
        most ``SMALL_AREA`` cells holding a live enemy dot next to ``cell``
        (``mask`` / ``enemy_mask``: the ring masks of own / enemy live dots)."""
        field = self.field
        live, enemy_live, dot = field.live[player], field.live[1 - player], field.dot
        mark = self.mark
        stride = field.stride
        ring = field.ring
        for start, bits in ARCS[mask]:
            if not bits & enemy_mask:
                continue
            n0 = cell + ring[start]
            if dot[n0] == OFF:
                continue
            self.stamp += 1
            stamp = self.stamp
            mark[cell] = stamp
            mark[n0] = stamp
            queue = [n0]
            head = 0
            enclosed = True
            while head < len(queue):
                c = queue[head]
                head += 1
                for n in (c + 1, c - 1, c + stride, c - stride):
                    if mark[n] == stamp or live[n]:
                        continue
                    if dot[n] == OFF or len(queue) >= SMALL_AREA:
                        enclosed = False
                        break
                    mark[n] = stamp
                    queue.append(n)
                if not enclosed:
                    break
            if enclosed:
                for c in queue:
                    if enemy_live[c]:
                        return True
        return False

    def run(self, player: int, last: int, prev: int, plies: int) -> int:
        """Play up to ``plies`` moves from ``player``; returns how many."""
        field = self.field
        dot, owner, score, ring = field.dot, field.owner, field.score, field.ring
        live_ring = field.live_ring
        near, in_near, rng, near2 = self.near, self.in_near, self.rng, self.near2
        size = len(dot)
        base_near = len(near)
        placed = 0
        try:
            for _ in range(plies):
                enemy = 1 - player
                ring_me, ring_them = live_ring[player], live_ring[enemy]
                move = -1
                block = -1
                # A capture for the mover next to the last two moves, else a
                # point where the enemy would capture there.
                for centre in (last, prev):
                    if centre < 0:
                        continue
                    for step in ring:
                        n = centre + step
                        if dot[n] or owner[n]:
                            continue
                        mask_me, mask_them = ring_me[n], ring_them[n]
                        if mask_them and CAN_CLOSE[mask_me] and self.small_capture(n, mask_me, mask_them, player):
                            move = n
                            break
                        if (block < 0 and mask_me and CAN_CLOSE[mask_them]
                                and self.small_capture(n, mask_them, mask_me, enemy)):
                            block = n
                    if move >= 0:
                        break
                if move < 0:
                    move = block
                if move >= 0:
                    lost = score[enemy]
                    field.place(move, player)
                    if score[enemy] > lost:
                        field.undo()
                        move = -1
                if move < 0:
                    for _try in range(8):
                        if last >= 0 and rng.below(2):
                            c = last + near2[rng.below(24)]
                            if not 0 <= c < size:
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
