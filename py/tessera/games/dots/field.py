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
P-live dots in two or more separate arcs (``ring.RING_STARTS``), so most
moves cost a table look-up: the field keeps each point's ring mask of live
dots per player (``live_ring``) as dots come, go and come back.  Even then
the dots on either side of an arc must already be one chain for the new dot
to close a loop: a union-find of each player's dots (8-adjacent, live or
not, so it may only over-join) answers that without a flood when they are
not.  Otherwise one flood starts in each arc; the floods
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

from .chains import inside_of_loop, trace_chain
from .ring import RING_DIRS, RING_GROUPS, RING_STARTS

EMPTY_CELL, BLUE_DOT, RED_DOT, OFF = 0, 1, 2, 3

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
        self.ring = tuple(dy * stride + dx for dx, dy in RING_DIRS)
        self.live_ring = [bytearray(count), bytearray(count)]
        """Per player, per cell: the ring mask of that player's live dots."""
        self.ring_bits = tuple((-step, 1 << i, 255 ^ (1 << i)) for i, step in enumerate(self.ring))
        """For each ring step: the offset back to the centre, its bit, the bit's inverse."""
        self.chain_parent = list(range(count))
        """Union-find of each player's dots, 8-adjacent (no path compression, so undo is exact)."""
        self.chain_size = [1] * count
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
        joins: list[int] = []
        self.log.append((cell, player, owner_log, house_log, len(self.regions),
                         self.score[0], self.score[1], self.free, joins))
        mask = self.live_ring[player][cell]
        self.dot[cell] = player + 1
        self._live_on(player, cell)
        closed = self._closed_components(cell, player, mask) if RING_STARTS[mask] else []
        self._join(cell, player + 1, joins)
        self.free -= 1
        captured = False
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
                         self.score[0], self.score[1], self.free, []))
        enemy_code = 2 - player
        for cell in self.unsafe_cells(player):
            self._set_owner(cell, enemy_code, owner_log)

    def undo(self) -> None:
        cell, player, owner_log, house_log, regions, blue, red, free, joins = self.log.pop()
        owner, dot, live = self.owner, self.dot, self.live
        for i in range(len(owner_log) - 2, -1, -2):
            c, old = owner_log[i], owner_log[i + 1]
            owner[c] = old
            d = dot[c]
            if d == BLUE_DOT or d == RED_DOT:
                # A dot's liveness follows its cell's owner: live when free of regions.
                if old == 0:
                    if not live[d - 1][c]:
                        self._live_on(d - 1, c)
                elif live[d - 1][c]:
                    self._live_off(d - 1, c)
        for i in range(len(house_log) - 2, -1, -2):
            self.house[house_log[i]][house_log[i + 1]] ^= 1
        if cell >= 0:
            dot[cell] = EMPTY_CELL
            self._live_off(player, cell)
            parent, size = self.chain_parent, self.chain_size
            for i in range(len(joins) - 1, -1, -1):
                child = joins[i]
                size[parent[child]] -= size[child]
                parent[child] = child
        del self.regions[regions:]
        self.score[0], self.score[1], self.free = blue, red, free

    # ----- live dots and chains ----------------------------------------------
    def _live_on(self, player: int, cell: int) -> None:
        """Make the dot on ``cell`` live for ``player`` (it was not)."""
        self.live[player][cell] = 1
        masks = self.live_ring[player]
        for back, bit, _ in self.ring_bits:
            masks[cell + back] |= bit

    def _live_off(self, player: int, cell: int) -> None:
        """Make the dot on ``cell`` no longer live for ``player`` (it was)."""
        self.live[player][cell] = 0
        masks = self.live_ring[player]
        for back, _, keep in self.ring_bits:
            masks[cell + back] &= keep

    def _chain_root(self, cell: int) -> int:
        parent = self.chain_parent
        while parent[cell] != cell:
            cell = parent[cell]
        return cell

    def _join(self, cell: int, code: int, joins: list[int]) -> None:
        """Join the new dot on ``cell`` to the chains of its 8 neighbours of
        the same colour (``code``), the smaller set under the larger; every
        set put under another is logged in ``joins`` for undo."""
        dot, parent, size = self.dot, self.chain_parent, self.chain_size
        root = self._chain_root(cell)  # the dot itself, but for a rebuild
        for step in self.ring:
            n = cell + step
            if dot[n] != code:
                continue
            while parent[n] != n:
                n = parent[n]
            if n == root:
                continue
            if size[n] > size[root]:
                n, root = root, n
            parent[n] = root
            size[root] += size[n]
            joins.append(n)

    def _one_chain_twice(self, cell: int, mask: int) -> bool:
        """Whether two groups of dots around ``cell`` (by its ring ``mask``)
        are already one chain, so a dot on ``cell`` closes a loop."""
        ring = self.ring
        roots = set()
        groups = RING_GROUPS[mask]
        for i in groups:
            roots.add(self._chain_root(cell + ring[i]))
        return len(roots) < len(groups)

    # ----- captures ----------------------------------------------------------
    def _closed_components(self, cell: int, player: int, mask: int) -> list[list[int]]:
        """The enclosed components of non-``player``-live cells that a new
        dot on ``cell`` has cut off (see the module docstring); called before
        the dot joins its neighbours' chains, with ``mask``, the ring mask of
        ``player``'s live dots around ``cell``, which has two or more arcs."""
        enclosed_before = self.house[player][cell]
        if not enclosed_before and not self._one_chain_twice(cell, mask):
            return []
        arcs = RING_STARTS[mask]
        live = self.live[player]
        ring = self.ring
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
            if self.live[d - 1][cell]:
                self._live_off(d - 1, cell)
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
        count = self.cell_count
        self.score = [0, 0]
        self.free = 0
        self.live = [bytearray(count), bytearray(count)]
        self.live_ring = [bytearray(count), bytearray(count)]
        self.chain_parent = list(range(count))
        self.chain_size = [1] * count
        joins: list[int] = []
        for c in self.cells:
            d, o = dot[c], owner[c]
            if d and not o:
                self._live_on(d - 1, c)
            elif d and o != d:
                self.score[o - 1] += 1
            elif not d and not o:
                self.free += 1
            if d:
                self._join(c, d, joins)
        self.house = [self.enclosed(0), self.enclosed(1)]

    def copy(self) -> Field:
        """An independent copy of the field, its history included."""
        clone = Field.__new__(Field)
        for name in ("width", "height", "stride", "cell_count", "cells", "ring", "ring_bits",
                     "stamp", "free"):
            setattr(clone, name, getattr(self, name))
        clone.dot = bytearray(self.dot)
        clone.owner = bytearray(self.owner)
        clone.live = [bytearray(self.live[0]), bytearray(self.live[1])]
        clone.live_ring = [bytearray(self.live_ring[0]), bytearray(self.live_ring[1])]
        clone.house = [bytearray(self.house[0]), bytearray(self.house[1])]
        clone.chain_parent = list(self.chain_parent)
        clone.chain_size = list(self.chain_size)
        clone.mark = list(self.mark)
        clone.score = list(self.score)
        clone.regions = list(self.regions)
        clone.log = list(self.log)  # an entry's lists never change once its move is made
        return clone

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
