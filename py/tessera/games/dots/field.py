"""The Dots field: flat arrays, incremental captures, houses, landing, exact undo.

Layout.  A field of ``width`` x ``height`` points is stored row by row with
a one-point sentinel border, so ``cell = y * stride + x`` with 1-based
``x`` (left to right), 1-based ``y`` (bottom to top) and
``stride = width + 2``; the four neighbours of a cell are ``cell +- 1`` and
``cell +- stride`` and never need a bounds check.

Per cell (bytearrays, indexed by cell):

* ``dot``: 0 empty, 1 blue dot, 2 red dot, 3 off the field (sentinel);
* ``owner``: 0, or 1/2 when the cell is inside a blue/red region (5.7:
  excluded from the game; a dot there is surrounded if of the other colour);
* ``live[p]``: 1 when the cell holds a dot of player ``p`` that is not
  excluded: exactly the dots that can be chain links (5.7.1);
* ``house[p]``: 1 when the cell is (or was, see below) enclosed by live dots
  of player ``p``.  A hint kept for speed: every enclosed cell is tagged,
  a tag may be stale; it is checked by a flood before it is acted on.

Captures (5.2-5.11).  A chain passes each dot once (RULINGS, Dots).  A
closed chain of player P splits the cells that are not P-live into
4-connected components; a component that does not reach the field's edge
is enclosed, and the smallest chain around it (5.10, 5.15) is the simple
loop that ``trace_chain`` cuts out of the component's boundary walk.  A new
dot can only close chains when the ring of its eight neighbours holds
P-live dots in two or more separate arcs (``_RING_STARTS``), so most moves
cost a table look-up.  Otherwise one flood starts in each arc; the floods
run in lock-step with a doubling budget, merge when they meet, stop at the
sentinel border, and the last one left is known to reach the border unless
the new dot was already inside a P house.  An enclosed component holding a
live enemy dot becomes a region: everything inside its simple chain, so
its holes (P dots, own regions, houses) and any pocket of P dots that
touches the chain at one dot are inside too (5.7, 5.11).  Every cell inside
changes owner, which moves re-captured regions' dots to the new owner
(6.4).  Components closed by one move stay separate regions (5.9).  An
enclosed component without live enemy dots is a house (5.12): its cells
are tagged and stay playable.

Houses (5.13-5.16).  When a dot placed by P captures nothing and its cell
is tagged as enclosed by Q, a flood through non-Q-live cells from the dot
decides: if it is enclosed, Q captures the smallest component around it
(5.14, 5.15).  A dot that itself closes a region is never taken (5.16).

Undo.  Every move logs the cells whose owner or house tag changed, plus the
counters, so ``undo`` restores the field exactly.
"""

from __future__ import annotations

from typing import Iterable

EMPTY_CELL, BLUE_DOT, RED_DOT, OFF = 0, 1, 2, 3

_RING_DIRS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
"""The eight neighbours in cyclic order N, NE, E, SE, S, SW, W, NW."""


def _ring_starts_table() -> tuple[tuple[int, ...], ...]:
    """For each 8-bit mask of own live dots around a point: the ring index of
    one orthogonal neighbour in each separate free arc, when there are two or
    more such arcs (only then can the point close a chain); else ``()``."""
    table = []
    for mask in range(256):
        if mask == 0 or mask == 255:
            table.append(())
            continue
        first_set = next(i for i in range(8) if mask >> i & 1)
        starts = []
        current: list[int] = []
        for step in range(1, 9):
            i = (first_set + step) % 8
            if mask >> i & 1:
                if current:
                    orthogonal = [j for j in current if j % 2 == 0]
                    if orthogonal:
                        starts.append(orthogonal[0])
                    current = []
            else:
                current.append(i)
        table.append(tuple(starts) if len(starts) >= 2 else ())
    return tuple(table)


_RING_STARTS = _ring_starts_table()

_RUNNING, _BOUNDED, _UNBOUNDED, _MERGED = 0, 1, 2, 3


class Region:
    """One encirclement region: its creator, inside cells and chain.

    ``cells`` is the inside at creation (None when loaded from a position
    string); ``chain`` is the simple closed chain around it, in order
    (traced from ``cells`` when first asked if not given).
    """

    __slots__ = ("player", "cells", "_chain")

    def __init__(self, player: int, cells: tuple[int, ...] | None,
                 chain: tuple[int, ...] | None = None) -> None:
        self.player = player
        self.cells = cells
        self._chain = chain

    def chain(self, stride: int) -> tuple[int, ...]:
        if self._chain is None:
            self._chain = trace_chain(set(self.cells or ()), stride)
        return self._chain


def boundary_walk(inside: set[int] | frozenset[int], stride: int) -> list[int]:
    """The cells just outside the outer boundary of a 4-connected set, in
    order with the set on the left (counter-clockwise, y up).

    Consecutive cells of the walk are at most one diagonal apart.  The walk
    may pass one cell more than once: where the outside touches the set
    from two sides (a pinch) or sticks into it (a spike).
    """
    if not inside:
        return []
    ccw = {-stride: 1, 1: stride, stride: -1, -1: -stride}
    cw = {v: k for k, v in ccw.items()}
    start = min(inside)
    cell, d = start, -stride
    walk: list[int] = []
    for _ in range(8 * len(inside) + 8):
        outside = cell + d
        if not walk or walk[-1] != outside:
            walk.append(outside)
        t = ccw[d]
        ahead = cell + t
        if ahead not in inside:
            d = t
        elif ahead + d in inside:
            cell, d = ahead + d, cw[d]
        else:
            cell = ahead
        if cell == start and d == -stride:
            break
    if len(walk) > 1 and walk[0] == walk[-1]:
        walk.pop()
    return walk


def simple_loop(walk: list[int], stride: int) -> tuple[int, ...]:
    """The one simple loop of a closed boundary walk that has the set inside.

    A chain passes each dot once (RULINGS, Dots).  Cutting the walk at every
    dot it meets again splits it into simple loops: the set lies inside the
    one turning counter-clockwise (positive area, exactly one such loop);
    the clockwise loops go round pockets that the set wraps and touches at
    one dot, and two-dot loops are spikes sticking into the set; both lie
    inside the kept loop.  So it is the chain of smallest area around the
    set among those that pass no dot twice (5.10 among simple chains only).
    """
    best: list[int] = []
    best_area = 0
    stack: list[int] = []
    position: dict[int, int] = {}

    def consider(loop: list[int]) -> None:
        nonlocal best, best_area
        area = _doubled_area(loop, stride)
        if area > best_area:
            best, best_area = loop, area

    for cell in walk:
        index = position.get(cell)
        if index is None:
            position[cell] = len(stack)
            stack.append(cell)
            continue
        consider(stack[index:])
        for dropped in stack[index + 1:]:
            del position[dropped]
        del stack[index + 1:]
    consider(stack)
    return tuple(best)


def _doubled_area(loop: list[int], stride: int) -> int:
    """Twice the signed area of a closed polygon of cells (shoelace, y up)."""
    total = 0
    px, py = loop[-1] % stride, loop[-1] // stride
    for c in loop:
        x, y = c % stride, c // stride
        total += px * y - x * py
        px, py = x, y
    return total


def inside_of_loop(loop: tuple[int, ...], stride: int) -> list[int]:
    """The cells strictly inside a simple closed chain, row by row.

    A horizontal ray just above a cell's row crosses the chain once for
    every non-horizontal link whose lower end is on that row and to the
    right; an odd count means inside.  Exact for any simple polygon of
    links at most one diagonal long, and costs the area it returns.
    """
    crossings: dict[int, list[int]] = {}
    previous = loop[-1]
    for cell in loop:
        y, y_prev = cell // stride, previous // stride
        if y != y_prev:
            lower = cell if y < y_prev else previous
            crossings.setdefault(lower // stride, []).append(lower % stride)
        previous = cell
    on_chain = set(loop)
    cells: list[int] = []
    for y, xs in crossings.items():
        xs.sort()
        base = y * stride
        for k in range(0, len(xs) - 1, 2):
            for x in range(xs[k] + 1, xs[k + 1]):
                if base + x not in on_chain:
                    cells.append(base + x)
    return cells


def trace_chain(inside: set[int], stride: int) -> tuple[int, ...]:
    """The simple chain around a 4-connected set of cells, in order.

    The outer boundary walk cut down to its one simple loop with the set
    inside (``simple_loop``): pockets and spikes of the outside that touch
    the set at one dot end up inside the chain.
    """
    return simple_loop(boundary_walk(inside, stride), stride)


class Field:
    """The mutable state of a Dots field (no turn order, no notation)."""

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height
        self.stride = stride = width + 2
        self.cell_count = count = stride * (height + 2)
        self.dot = bytearray(count)
        for cell in range(count):
            x, y = cell % stride, cell // stride
            if not (1 <= x <= width and 1 <= y <= height):
                self.dot[cell] = OFF
        self.owner = bytearray(count)
        self.live = [bytearray(count), bytearray(count)]
        self.house = [bytearray(count), bytearray(count)]
        self.mark = [0] * count
        self.stamp = 1
        self.cells = tuple(y * stride + x for y in range(1, height + 1) for x in range(1, width + 1))
        self.ring = tuple(dy * stride + dx for dx, dy in _RING_DIRS)
        self.score = [0, 0]
        self.free = width * height
        self.regions: list[Region] = []
        self.log: list[tuple] = []

    # ----- queries -----------------------------------------------------------
    def cell(self, x: int, y: int) -> int:
        return y * self.stride + x

    def xy(self, cell: int) -> tuple[int, int]:
        return cell % self.stride, cell // self.stride

    def is_free(self, cell: int) -> bool:
        return 0 <= cell < self.cell_count and self.dot[cell] == EMPTY_CELL and self.owner[cell] == 0

    def free_cells(self) -> list[int]:
        dot, owner = self.dot, self.owner
        return [c for c in self.cells if not dot[c] and not owner[c]]

    # ----- a move ------------------------------------------------------------
    def place(self, cell: int, player: int) -> None:
        """Put a dot of ``player`` on a free cell and resolve every capture."""
        owner_log: list[int] = []
        house_log: list[int] = []
        self.log.append((cell, player, owner_log, house_log, len(self.regions),
                         self.score[0], self.score[1], self.free))
        self.dot[cell] = player + 1
        self.live[player][cell] = 1
        self.free -= 1
        captured = False
        closed = self._closed_components(cell, player)
        if closed:
            # Every chain closed by this move is judged on the position before
            # any of its regions is made (5.9): a pocket holding an enemy dot
            # is a region even when the outer chain's region took it in first.
            holding = [self._holds_live(component, 1 - player) for component in closed]
            for component, holds_enemy in zip(closed, holding):
                if holds_enemy:
                    self._make_region(player, component, owner_log)
                    captured = True
                else:
                    self._tag_house(player, component, house_log)
        enemy = 1 - player
        if not captured and self.house[enemy][cell]:
            component = self._enclosure(cell, enemy, house_log)
            if component is not None:
                self._make_region(enemy, component, owner_log)

    def land(self, player: int) -> None:
        """Landing (8.4 as ruled): every ungrounded dot and region of
        ``player`` counts as surrounded by the opponent."""
        owner_log: list[int] = []
        self.log.append((-1, player, owner_log, [], len(self.regions),
                         self.score[0], self.score[1], self.free))
        enemy_code = 2 - player
        for cell in self.unsafe_cells(player):
            self._set_owner(cell, enemy_code, owner_log)

    def undo(self) -> None:
        cell, player, owner_log, house_log, regions, blue, red, free = self.log.pop()
        owner, dot, live = self.owner, self.dot, self.live
        for i in range(len(owner_log) - 2, -1, -2):
            c, old = owner_log[i], owner_log[i + 1]
            owner[c] = old
            live[0][c] = live[1][c] = 0
            if old == 0 and dot[c] in (BLUE_DOT, RED_DOT):
                live[dot[c] - 1][c] = 1
        for i in range(len(house_log) - 2, -1, -2):
            self.house[house_log[i]][house_log[i + 1]] ^= 1
        if cell >= 0:
            dot[cell] = EMPTY_CELL
            live[player][cell] = 0
        del self.regions[regions:]
        self.score[0], self.score[1], self.free = blue, red, free

    # ----- captures ----------------------------------------------------------
    def _closed_components(self, cell: int, player: int) -> list[list[int]]:
        """The enclosed components of non-``player``-live cells that the new
        dot on ``cell`` has just cut off (see the module docstring)."""
        live = self.live[player]
        ring = self.ring
        mask = 0
        for i in range(8):
            if live[cell + ring[i]]:
                mask |= 1 << i
        arcs = _RING_STARTS[mask]
        if not arcs:
            return []
        dot, mark, stride = self.dot, self.mark, self.stride
        k = len(arcs)
        base = self.stamp
        self.stamp = base + k
        queues: list[list[int]] = []
        extra: list[list[int]] = [[] for _ in range(k)]
        heads = [0] * k
        state = [_RUNNING] * k
        parent = list(range(k))
        for i, ring_index in enumerate(arcs):
            start = cell + ring[ring_index]
            if dot[start] == OFF:
                state[i] = _UNBOUNDED
                queues.append([])
            else:
                mark[start] = base + i
                queues.append([start])
        enclosed_before = self.house[player][cell]
        budget = 8
        while True:
            running = [i for i in range(k) if state[i] == _RUNNING]
            if not running:
                break
            if len(running) == 1 and not enclosed_before and _UNBOUNDED not in state:
                state[running[0]] = _UNBOUNDED
                break
            for i in running:
                if state[i] != _RUNNING:
                    continue
                queue = queues[i]
                head = heads[i]
                limit = head + budget
                result = _RUNNING
                other = -1
                while head < len(queue) and head < limit:
                    c = queue[head]
                    head += 1
                    for n in (c + 1, c - 1, c + stride, c - stride):
                        m = mark[n]
                        if m >= base:
                            j = m - base
                            while parent[j] != j:
                                j = parent[j]
                            if j == i:
                                continue
                            other = j
                            result = _MERGED
                            head -= 1
                            break
                        if live[n]:
                            continue
                        if dot[n] == OFF:
                            result = _UNBOUNDED
                            break
                        mark[n] = base + i
                        queue.append(n)
                    if result != _RUNNING:
                        break
                heads[i] = head
                if result == _RUNNING:
                    if head >= len(queue):
                        state[i] = _BOUNDED
                elif result == _UNBOUNDED:
                    state[i] = _UNBOUNDED
                else:
                    parent[i] = other
                    state[i] = _MERGED
                    if state[other] == _RUNNING:
                        queues[other].extend(queue[head:])
                        extra[other].extend(queue[:head])
                        extra[other].extend(extra[i])
            budget *= 2
        return [queues[i] + extra[i] for i in range(k) if state[i] == _BOUNDED]

    def _holds_live(self, cells: list[int], player: int) -> bool:
        live = self.live[player]
        for c in cells:
            if live[c]:
                return True
        return False

    def _enclosure(self, cell: int, player: int, house_log: list[int]) -> list[int] | None:
        """The component of non-``player``-live cells around ``cell``, or
        None when it reaches the edge (then its stale house tags are cleared)."""
        live, dot, mark, stride = self.live[player], self.dot, self.mark, self.stride
        stamp = self.stamp
        self.stamp += 1
        mark[cell] = stamp
        queue = [cell]
        head = 0
        while head < len(queue):
            c = queue[head]
            head += 1
            for n in (c + 1, c - 1, c + stride, c - stride):
                if mark[n] == stamp or live[n]:
                    continue
                if dot[n] == OFF:
                    house = self.house[player]
                    for q in queue:
                        if house[q]:
                            house[q] = 0
                            house_log.append(player)
                            house_log.append(q)
                    return None
                mark[n] = stamp
                queue.append(n)
        return queue

    def _tag_house(self, player: int, cells: list[int], house_log: list[int]) -> None:
        house = self.house[player]
        for c in cells:
            if not house[c]:
                house[c] = 1
                house_log.append(player)
                house_log.append(c)

    def _make_region(self, player: int, component: list[int], owner_log: list[int]) -> None:
        """Turn the inside of the simple chain around ``component`` into a
        region of ``player`` (5.4, 5.7, 5.11): the component and everything
        else inside that chain (own dots, houses, pockets of own dots that
        touch the chain, older regions) changes owner; the chain's dots stay
        live.  Costs the region's area and its chain's length."""
        stride = self.stride
        xs = [c % stride for c in component]
        ys = [c // stride for c in component]
        chain: tuple[int, ...] | None
        if (max(xs) - min(xs) + 1) * (max(ys) - min(ys) + 1) == len(component):
            # A full rectangle (most captures: one point): nothing else lies
            # inside its chain, which ``Region.chain`` traces when asked.
            chain, inside = None, component
        else:
            chain = trace_chain(set(component), stride)
            inside = inside_of_loop(chain, stride)
        code = player + 1
        owner = self.owner
        for c in inside:
            if owner[c] != code:
                self._set_owner(c, code, owner_log)
        self.regions.append(Region(player, tuple(sorted(inside)), chain))

    def _set_owner(self, cell: int, code: int, owner_log: list[int]) -> None:
        """Move ``cell`` into a region of player ``code - 1``, keeping the
        score (enemy dots inside one's regions) and the free count exact."""
        owner, dot, score = self.owner, self.dot, self.score
        old = owner[cell]
        owner_log.append(cell)
        owner_log.append(old)
        d = dot[cell]
        if d:
            if old and old != d:
                score[old - 1] -= 1
            if code != d:
                score[code - 1] += 1
            self.live[d - 1][cell] = 0
        elif not old:
            self.free -= 1
        owner[cell] = code

    # ----- landing -----------------------------------------------------------
    def grounded(self, player: int) -> bytearray:
        """Cells joined to the edge by orthogonal steps through live dots
        and region cells of ``player`` (the landing ruling)."""
        live, owner, stride = self.live[player], self.owner, self.stride
        code = player + 1
        seen = bytearray(self.cell_count)
        stack = []
        w, h = self.width, self.height
        for c in self.cells:
            x, y = c % stride, c // stride
            if (x == 1 or x == w or y == 1 or y == h) and live[c]:
                seen[c] = 1
                stack.append(c)
        while stack:
            c = stack.pop()
            for n in (c + 1, c - 1, c + stride, c - stride):
                if not seen[n] and (live[n] or owner[n] == code):
                    seen[n] = 1
                    stack.append(n)
        return seen

    def unsafe_cells(self, player: int) -> list[int]:
        seen = self.grounded(player)
        live, owner = self.live[player], self.owner
        code = player + 1
        return [c for c in self.cells if not seen[c] and (live[c] or owner[c] == code)]

    def scores_after_landing(self, player: int) -> tuple[int, int]:
        """The scores if ``player`` declared landing now (nothing changes)."""
        score = list(self.score)
        enemy_code = 2 - player
        dot, owner = self.dot, self.owner
        for c in self.unsafe_cells(player):
            d, old = dot[c], owner[c]
            if d:
                if old and old != d:
                    score[old - 1] -= 1
                if enemy_code != d:
                    score[enemy_code - 1] += 1
        return score[0], score[1]

    # ----- from scratch (loading and checking) -------------------------------
    def enclosed(self, player: int) -> bytearray:
        """Cells not P-live that no orthogonal path of non-P-live cells joins
        to the edge: exactly the cells inside closed chains of ``player``."""
        live, stride = self.live[player], self.stride
        reach = bytearray(self.cell_count)
        stack = []
        w, h = self.width, self.height
        for c in self.cells:
            x, y = c % stride, c // stride
            if (x == 1 or x == w or y == 1 or y == h) and not live[c]:
                reach[c] = 1
                stack.append(c)
        while stack:
            c = stack.pop()
            for n in (c + 1, c - 1, c + stride, c - stride):
                if not reach[n] and not live[n] and self.dot[n] != OFF:
                    reach[n] = 1
                    stack.append(n)
        result = bytearray(self.cell_count)
        for c in self.cells:
            if not reach[c] and not live[c]:
                result[c] = 1
        return result

    def rebuild(self) -> None:
        """Recompute live dots, scores, free count and house tags from
        ``dot`` and ``owner`` (after loading a position)."""
        dot, owner = self.dot, self.owner
        self.score = [0, 0]
        self.free = 0
        for p in (0, 1):
            self.live[p] = bytearray(self.cell_count)
        for c in self.cells:
            d, o = dot[c], owner[c]
            if d and not o:
                self.live[d - 1][c] = 1
            elif d and o != d:
                self.score[o - 1] += 1
            elif not d and not o:
                self.free += 1
        self.house = [self.enclosed(0), self.enclosed(1)]

    def components(self, cells: Iterable[int]) -> list[list[int]]:
        """4-connected components of a set of cells (for queries)."""
        pending = set(cells)
        stride = self.stride
        result = []
        while pending:
            start = pending.pop()
            group = [start]
            stack = [start]
            while stack:
                c = stack.pop()
                for n in (c + 1, c - 1, c + stride, c - stride):
                    if n in pending:
                        pending.remove(n)
                        group.append(n)
                        stack.append(n)
            result.append(sorted(group))
        return result
