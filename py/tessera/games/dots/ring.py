"""The ring of eight neighbours around a Dots point, and tables by ring mask.

A ring mask has bit ``i`` set when the ``i``-th neighbour (in the cyclic
order of ``RING_DIRS``) holds a live dot of one player.  A dot placed in the
middle can only close a chain when those dots form two or more groups
separated by free arcs that include an orthogonal neighbour: only then can
it join a chain to itself.  The field keeps every point's mask per player up
to date, so these questions cost one table look-up.
"""

from __future__ import annotations

RING_DIRS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
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


RING_STARTS = _ring_starts_table()


def _ring_groups_table() -> tuple[tuple[int, ...], ...]:
    """For each mask with two or more arcs (``RING_STARTS``): the ring index
    of one dot in each group of dots between two such arcs.  The dots of a
    group are 8-adjacent to each other (a free diagonal alone does not part
    them), so a group lies in one chain; a new dot closes a loop only when
    two groups already lie in one chain."""
    table = []
    for mask, starts in enumerate(RING_STARTS):
        if not starts:
            table.append(())
            continue
        first_set = next(i for i in range(8) if mask >> i & 1)
        reps: list[int] = []
        rep = first_set
        gap: list[int] = []
        for step in range(1, 9):
            i = (first_set + step) % 8
            if mask >> i & 1:
                if gap and any(j % 2 == 0 for j in gap):
                    reps.append(rep)
                    rep = i
                gap = []
            else:
                gap.append(i)
        # Back at first_set: the group before it was closed by a counted arc
        # (its rep was appended there) unless the arc before first_set is
        # uncounted, and then that group is first_set's own.
        if len(reps) < len(starts):
            reps.append(rep)
        table.append(tuple(reps))
    return tuple(table)


RING_GROUPS = _ring_groups_table()

CAN_CLOSE = bytes(1 if arcs else 0 for arcs in RING_STARTS)
"""By ring mask: 1 if a dot placed in the middle could close a chain."""

DOTS_IN_RING = bytes(bin(mask).count("1") for mask in range(256))
"""By ring mask: how many of the eight neighbours it holds."""
