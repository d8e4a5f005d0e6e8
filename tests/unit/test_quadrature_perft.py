"""Perft (number of move sequences of a given length) from the start position.

The expected numbers are derived by hand below, not taken from the engine.

Depth 1 = 29.  White's nine checkers stand on b9-j9 and step down to row 8,
which is empty: each has a forward and two diagonal moves (b9 reaches a8,
j9 reaches k8, so all 18 diagonals stay on the board): 9 x 3 = 27.  The only
sideways moves go to an empty point of row 9: b9-a9 and j9-k9, so 29.  No
move is a suicide (a rectangle through a point of row 8 or 9 needs a Black
checker on that row; Black is all on row 3) and none converts (a Black
corner needs a second corner on row 3, which would have to be White).

Depth 2 = 29 x 29 = 841.  Whatever White played, White is on rows 8-9 and
Black's moves go to rows 3-4, so Black has the mirror image of White's 29.

Depth 3 = 29 x 887 = 25723.  Black's reply never touches rows 7-9 and White
still cannot square or be squared (no Black checker on rows 7-9, no White
one on rows 3-4), so White's count n(W1) depends only on White's first move
W1, and depth 3 = 29 x (sum of n(W1) over the 29 first moves).  Marker 2 is
out of reach (one sideways move at most).  With x the column (b=1 ... j=9):

* forward x9-x8.  The moved checker has 5 moves (3 down, 2 sideways, all
  free).  The eight left on row 9 have 8 forward moves; 16 diagonals minus
  those onto x8 (from x-1 and x+1 when those are still on row 9); sideways
  moves into the hole x9 (from each neighbour) plus a9 (from b9) and k9
  (from j9) when those checkers are still there.
  - x = c..i (7 moves): 5 + 8 + 14 + 4 = 31.
  - x = b or j (2 moves): b9 is gone, so only c9 aims at b8 (15 diagonals),
    and a9 is out of reach while c9-b9 and j9-k9 remain: 5 + 8 + 15 + 2 = 30.
  Sum 7 x 31 + 2 x 30 = 277.
* diagonal x9-y8, y = x - 1 (9 moves; the mirror y = x + 1 gives the same).
  The moved checker has 5 moves, or 3 on the edge (y = a).  Row 9 keeps
  eight checkers: forward 7 (the one on y9 is blocked) or 8 when y = a;
  diagonals 16 minus one when x - 2 is on row 9 (its diagonal hits y8);
  sideways: a9 from b9, k9 from j9, and x9 from x-1 and x+1 if present.
  - b9-a8: 3 + 8 + 16 + 2 (k9, and c9-b9) = 29.
  - c9-b8: 5 + 7 + 16 + 4 (a9, k9, b9-c9, d9-c9) = 32.
  - d9-c8 ... i9-h8 (6 moves): 5 + 7 + 15 + 4 = 31.
  - j9-i8: 5 + 7 + 15 + 2 (a9, and i9-j9) = 29.
  Sum 29 + 32 + 6 x 31 + 29 = 276; both directions 552.
* sideways b9-a9 (and its mirror j9-k9): a9 has a8, b8 and b9 (3); c9-j9
  have 8 forward, 16 diagonal and c9-b9, j9-k9 (26): 29 each, 58 together.

Total n = 277 + 552 + 58 = 887.

Depth 4 = 887 x 887 = 786769: White's second move stays on rows 7-9 and
Black's options depend only on Black's first move, whose counts mirror
White's (sum 887), so depth 4 = (sum of n(W1)) x (sum of n(B1)).
"""

from __future__ import annotations

import pytest

from tessera.games.quadrature import Quadrature


def perft(game: Quadrature, depth: int) -> int:
    """Leaf count over the Game protocol (the last level counts moves in bulk)."""
    moves = game.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        game.push(move)
        total += perft(game, depth - 1)
        game.pop()
    return total


def first_move_breakdown() -> dict[str, int]:
    """White's move count after each of its first moves (Black passing by a quiet move)."""
    game = Quadrature()
    counts = {}
    for move in game.legal_moves():
        game.push(move)
        game.push(game.parse_move("b3-b4"))
        counts[game.move_text(move)] = len(game.legal_moves())
        game.pop()
        game.pop()
    return counts


@pytest.mark.parametrize("depth, expected", [(1, 29), (2, 841), (3, 25723)])
def test_perft_from_the_start(depth: int, expected: int) -> None:
    game = Quadrature()
    start = game.position()
    assert perft(game, depth) == expected
    assert game.position() == start


def test_first_move_breakdown_matches_the_derivation() -> None:
    """The per-move counts of the docstring, one by one."""
    expected = {}
    for col in "cdefghi":
        expected[f"{col}9-{col}8"] = 31
    expected["b9-b8"] = expected["j9-j8"] = 30
    cols = "abcdefghijk"
    for x in range(1, 10):  # x9 to the lower left, and its mirror image to the lower right
        value = {1: 29, 2: 32, 9: 29}.get(x, 31)
        expected[f"{cols[x]}9-{cols[x - 1]}8"] = value
        expected[f"{cols[10 - x]}9-{cols[11 - x]}8"] = value
    expected["b9-a9"] = expected["j9-k9"] = 29
    assert len(expected) == 29 and sum(expected.values()) == 887
    assert first_move_breakdown() == expected


@pytest.mark.slow
def test_perft_depth_four() -> None:
    """About a second in CPython: the last level only counts moves."""
    assert perft(Quadrature(), 4) == 786769
