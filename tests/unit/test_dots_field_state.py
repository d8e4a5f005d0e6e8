"""The Dots field's speed-ups keep exact state: ring masks, chains, the shortcut.

The field keeps, beside the dots, each point's ring mask of live dots per
player and a union-find of each player's dots, and skips the capture flood
when the dots around a new point are not yet one chain.  These tests check
the tables against their definition by brute force, the kept state against
a recount from scratch after every move and every undo of random games, and
the shortcut against the same field with the shortcut turned off, move by
move (dots, owners, scores, houses).  Small budgets: they also run in
Pyodide.
"""

from __future__ import annotations

import pytest

from tessera.core.rng import SeededRandom
from tessera.games.dots import Dots
from tessera.games.dots.field import Field
from tessera.games.dots.ring import CAN_CLOSE, DOTS_IN_RING, RING_GROUPS, RING_STARTS


def _arcs_and_groups(mask: int) -> tuple[list[set[int]], list[set[int]]]:
    """By definition: the free arcs that hold an orthogonal neighbour, and the
    groups of dots between them (each as a set of ring indices)."""
    if mask in (0, 255):
        return [], []
    free_runs: list[list[int]] = []
    first_set = next(i for i in range(8) if mask >> i & 1)
    run: list[int] = []
    for step in range(1, 9):
        i = (first_set + step) % 8
        if mask >> i & 1:
            if run:
                free_runs.append(run)
            run = []
        else:
            run.append(i)
    arcs = [set(r) for r in free_runs if any(i % 2 == 0 for i in r)]
    if len(arcs) < 2:
        return arcs, []
    groups: list[set[int]] = []
    current: set[int] = set()
    start = min(arcs[0])  # walk from inside a counted arc, so every group is whole
    for step in range(8):
        i = (start + step) % 8
        if any(i in arc for arc in arcs):
            if current:
                groups.append(current)
            current = set()
        elif mask >> i & 1:
            current.add(i)
    if current:
        groups.append(current)
    return arcs, groups


def test_ring_tables_follow_their_definition() -> None:
    for mask in range(256):
        arcs, groups = _arcs_and_groups(mask)
        closing = len(arcs) >= 2
        assert CAN_CLOSE[mask] == (1 if closing else 0), mask
        assert DOTS_IN_RING[mask] == bin(mask).count("1")
        if not closing:
            assert RING_STARTS[mask] == () and RING_GROUPS[mask] == (), mask
            continue
        # One orthogonal point in each arc: where the floods start.
        starts = RING_STARTS[mask]
        assert all(start % 2 == 0 for start in starts), mask
        assert sorted(next(k for k, arc in enumerate(arcs) if start in arc) for start in starts) \
            == list(range(len(arcs))), mask
        reps = RING_GROUPS[mask]
        assert len(reps) == len(groups) == len(arcs), mask
        assert sorted(next(k for k, g in enumerate(groups) if rep in g) for rep in reps) \
            == list(range(len(groups))), mask


def test_a_diagonal_gap_alone_does_not_part_two_groups() -> None:
    north, east, south = 0, 2, 4
    assert RING_GROUPS[1 << north | 1 << east] == ()
    assert len(RING_GROUPS[1 << north | 1 << south]) == 2


def _recounted(field: Field) -> tuple[list[bytes], list[list[frozenset[int]]]]:
    """Ring masks from ``live``, and each player's 8-connected sets of dots."""
    masks = []
    for player in (0, 1):
        live = field.live[player]
        row = bytearray(field.cell_count)
        for c in field.cells:
            for i, step in enumerate(field.ring):
                if live[c + step]:
                    row[c] |= 1 << i
        masks.append(bytes(row))
    chains = []
    for player in (0, 1):
        code = player + 1
        pending = {c for c in field.cells if field.dot[c] == code}
        sets = []
        while pending:
            start = pending.pop()
            group, stack = {start}, [start]
            while stack:
                c = stack.pop()
                for step in field.ring:
                    n = c + step
                    if n in pending:
                        pending.remove(n)
                        group.add(n)
                        stack.append(n)
            sets.append(frozenset(group))
        chains.append(sorted(sets, key=min))
    return masks, chains


def _kept(field: Field) -> tuple[list[bytes], list[list[frozenset[int]]]]:
    on_field = set(field.cells)
    masks = [bytes(field.live_ring[p][c] if c in on_field else 0 for c in range(field.cell_count))
             for p in (0, 1)]
    chains = []
    for player in (0, 1):
        by_root: dict[int, set[int]] = {}
        for c in field.cells:
            if field.dot[c] == player + 1:
                by_root.setdefault(field._chain_root(c), set()).add(c)
        chains.append(sorted((frozenset(s) for s in by_root.values()), key=min))
    return masks, chains


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_masks_and_chains_match_a_recount_after_moves_and_undos(seed: int) -> None:
    game = Dots({"size": "12x12"}, seed=seed)
    rng = SeededRandom(seed)
    field = game.field
    start = _kept(field)
    assert start == _recounted(field)
    pushed = 0
    while not game.is_over() and pushed < 110:
        moves = game.placements()
        game.push(moves[rng.below(len(moves))])
        pushed += 1
        if pushed % 5 == 0:
            assert _kept(field) == _recounted(field), pushed
    assert field.score != [0, 0], "the random game should capture something"
    while pushed:
        game.pop()
        pushed -= 1
        if pushed % 9 == 0:
            assert _kept(field) == _recounted(field), pushed
    assert _kept(field) == start


class _AlwaysFlooding(Field):
    """The field without the shortcut: every point with two arcs is flooded."""

    def _one_chain_twice(self, cell: int, mask: int) -> bool:
        return True


class _CountingShortcuts(Field):
    """The field as it is, counting the floods its shortcut saves."""

    skipped = 0

    def _one_chain_twice(self, cell: int, mask: int) -> bool:
        joined = super()._one_chain_twice(cell, mask)
        if not joined:
            self.skipped += 1
        return joined


def _state(field: Field) -> tuple:
    return (bytes(field.dot), bytes(field.owner), tuple(field.score), bytes(field.house[0]),
            bytes(field.house[1]), len(field.regions))


@pytest.mark.parametrize("seed", [4, 5, 6, 7])
def test_the_shortcut_changes_nothing(seed: int) -> None:
    fast, slow = _CountingShortcuts(14, 14), _AlwaysFlooding(14, 14)
    rng = SeededRandom(seed)
    player = 0
    for _ in range(170):
        free = fast.free_cells()
        if not free:
            break
        cell = free[rng.below(len(free))]
        fast.place(cell, player)
        slow.place(cell, player)
        assert _state(fast) == _state(slow)
        player = 1 - player
    assert fast.regions, "the random game should capture something"
    assert fast.skipped > 10, "the shortcut should have been taken"
