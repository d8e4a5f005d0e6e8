"""The geometry of Dots chains: boundary walks, simple loops, insides.

Pure functions of cell sets on the field's padded row-major layout (see
``field``): they trace the chain around a captured component and list the
cells inside a chain.  The field calls them when it makes a region; the
view and the position reader use them for drawing and checking.
"""

from __future__ import annotations


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
