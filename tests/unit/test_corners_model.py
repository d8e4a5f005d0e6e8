"""Corners against a second, deliberately simple model of the rules.

The model is written from the rule text (RULINGS.md "Corners") and shares
nothing with the engine: no bitboards, no precomputed tables, its own
position reader and writer.  Pieces are a dict from (col, row) to
(side, painted).  A rectangle is found by trying every 4 of the mover's
pieces: the four points are a rectangle when, for one way of pairing them
into two diagonals A-C and B-D, the diagonals share their midpoint
(A + C == B + D: a parallelogram) and the sides at A are perpendicular
((B - A)·(D - A) == 0).  A cell is inside the closed rectangle when its
centre is on the inner side of, or on, each of the four edges taken in
order round the rectangle (integer cross products: another test than the
engine's projections onto the sides).

The two are compared move by move (legal move sets, scores, position
strings, outcome) in seeded random games from crowded random positions,
and by perft, the number of move sequences of a given length, from a few
set-ups at depths 3 and 4.
"""

from __future__ import annotations

import itertools
import random
import sys
from functools import lru_cache

import pytest

from tessera.core.rng import SeededRandom
from tessera.games.corners import Corners

Point = tuple[int, int]
COLUMNS = "abcdefgh"


def name(point: Point) -> str:
    return f"{COLUMNS[point[0]]}{point[1] + 1}"


@lru_cache(maxsize=4096)
def rectangles_among(points: frozenset[Point]) -> tuple[tuple[Point, Point, Point, Point], ...]:
    """Every rectangle with its corners among ``points``, each as a cycle
    A, B, C, D round it (A-C and B-D the diagonals).  Cached because in a
    search the same side's pieces recur while the other side moves."""
    found = []
    for four in itertools.combinations(sorted(points), 4):
        a = four[0]
        for c in four[1:]:                       # which point is opposite A
            b, d = (p for p in four[1:] if p != c)
            parallelogram = (a[0] + c[0], a[1] + c[1]) == (b[0] + d[0], b[1] + d[1])
            right_angle = (b[0] - a[0]) * (d[0] - a[0]) + (b[1] - a[1]) * (d[1] - a[1]) == 0
            if parallelogram and right_angle:
                found.append((a, b, c, d))
    return tuple(found)


def inside(cycle: tuple[Point, Point, Point, Point], q: Point) -> bool:
    """On the same side of (or on) all four edges of the cycle."""
    signs = set()
    for i in range(4):
        (x1, y1), (x2, y2) = cycle[i], cycle[(i + 1) % 4]
        cross = (x2 - x1) * (q[1] - y1) - (y2 - y1) * (q[0] - x1)
        if cross:
            signs.add(cross > 0)
    return len(signs) <= 1


class SimpleCorners:
    """The rules as written, in the plainest data."""

    def __init__(self, position: str) -> None:
        rows, side, phase, *turns = position.split(" ")
        self.pieces: dict[Point, tuple[int, bool]] = {}
        for r, line in enumerate(rows.split("/")):
            for c, char in enumerate(line):
                if char != ".":
                    self.pieces[(c, 7 - r)] = ("ot".index(char.lower()), char.isupper())
        self.side = "ot".index(side)
        self.final: int | None = int(turns[0]) if phase == "final" else None

    def copy(self) -> "SimpleCorners":
        return SimpleCorners(self.position())

    def empty_cells(self) -> list[Point]:
        return [(c, r) for r in range(8) for c in range(8) if (c, r) not in self.pieces]

    def own_rectangles(self) -> tuple[tuple[Point, Point, Point, Point], ...]:
        own = frozenset(p for p, (side, _) in self.pieces.items() if side == self.side)
        return rectangles_among(own)

    def effect(self, cycle: tuple[Point, ...], empty: list[Point]) -> tuple[int, list[Point]]:
        """(corners it would paint, cells of ``empty`` it would fill)."""
        paints = sum(1 for p in cycle if not self.pieces[p][1])
        return paints, [q for q in empty if inside(cycle, q)]  # type: ignore[arg-type]

    @staticmethod
    def capture_key(cycle: tuple[Point, ...]) -> str:
        """A capture named by its corner set (the model has no canonical order)."""
        return "x" + "".join(sorted(name(p) for p in cycle))

    def legal(self) -> dict[str, tuple[Point, ...] | None]:
        """Move key -> the rectangle it captures (None for a placement or pass)."""
        if self.final == 0:
            return {}
        moves: dict[str, tuple[Point, ...] | None] = {}
        empty = self.empty_cells()
        if self.final is None:
            for cell in empty:
                moves[name(cell)] = None
        else:
            moves["pass"] = None
        for cycle in self.own_rectangles():
            paints, fills = self.effect(cycle, empty)
            if paints or (self.final is None and fills):
                moves[self.capture_key(cycle)] = cycle
        return moves

    def play(self, key: str) -> None:
        cycle = self.legal()[key]
        if cycle is not None:
            _, fills = self.effect(cycle, self.empty_cells())
            for p in cycle:
                self.pieces[p] = (self.side, True)
            for q in fills:
                self.pieces[q] = (self.side, False)
        elif key != "pass":
            self.pieces[(COLUMNS.index(key[0]), int(key[1]) - 1)] = (self.side, False)
        if self.final is not None:
            self.final -= 1
        elif not self.empty_cells():
            self.final = 2
        self.side = 1 - self.side

    def scores(self) -> tuple[int, int]:
        return (sum(1 for side, painted in self.pieces.values() if side == 0 and painted),
                sum(1 for side, painted in self.pieces.values() if side == 1 and painted))

    def result(self) -> str | None:
        """None while playing, else "o", "t" or "draw"."""
        if self.final != 0:
            return None
        circles, triangles = self.scores()
        return "draw" if circles == triangles else ("o" if circles > triangles else "t")

    def position(self) -> str:
        rows = []
        for r in range(7, -1, -1):
            line = ""
            for c in range(8):
                piece = self.pieces.get((c, r))
                line += "." if piece is None else ("OT"[piece[0]] if piece[1] else "ot"[piece[0]])
            rows.append(line)
        phase = "play" if self.final is None else f"final {self.final}"
        return "/".join(rows) + " " + "ot"[self.side] + " " + phase


def engine_key(game: Corners, move: int) -> str:
    text = game.move_text(move)
    if text.startswith("x"):
        return "x" + "".join(sorted(text[i:i + 2] for i in range(1, 9, 2)))
    return text


def engine_result(game: Corners) -> str | None:
    outcome = game.outcome()
    if outcome is None:
        return None
    return "draw" if outcome.winner is None else "ot"[outcome.winner]


def crowded_start(rng: random.Random, empty_share: float) -> str:
    """A random play-phase position, pieces of both sides painted or not."""
    cells = []
    for _ in range(64):
        cells.append("." if rng.random() < empty_share else rng.choice("oOtT"))
    if "." not in cells:
        cells[rng.randrange(64)] = "."
    rows = ["".join(cells[i:i + 8]) for i in range(0, 64, 8)]
    return "/".join(rows) + " " + rng.choice("ot") + " play"


def compare_game(start: str, rng: random.Random) -> int:
    """Play a random game from ``start`` in both; returns its length."""
    game, model = Corners(setup=start), SimpleCorners(start)
    assert game.position() == model.position()
    while True:
        keys = {engine_key(game, m): m for m in game.legal_moves()}
        assert set(keys) == set(model.legal()), game.position()
        assert game.scores() == model.scores()
        assert engine_result(game) == model.result()
        if not keys:
            return game.ply
        key = rng.choice(sorted(keys))
        game.push(keys[key])
        model.play(key)
        assert game.position() == model.position()


RANDOM_GAMES = 2 if sys.platform == "emscripten" else 6
"""Pyodide runs two of the crowded games (about 2.5 s each there): the same engine, checked
on another interpreter; CPython runs all six."""


@pytest.mark.parametrize("seed", range(RANDOM_GAMES))
def test_random_games_agree_move_by_move(seed: int) -> None:
    """Crowded starts (a third of the cells empty) hold rectangles of every
    shape at once, tilted ones included, so every kind of capture occurs."""
    rng = random.Random(seed)
    length = compare_game(crowded_start(rng, 0.35), rng)
    assert length >= 3  # at least a placement or capture and the final round's two turns


def test_a_game_from_the_empty_board_agrees() -> None:
    compare_game(Corners().position(), random.Random(7))


def engine_perft(game: Corners, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for move in game.legal_moves():
        game.push_unchecked(move)
        total += engine_perft(game, depth - 1)
        game.pop()
    return total


def model_perft(model: SimpleCorners, depth: int) -> int:
    moves = model.legal()
    if depth == 1:
        return len(moves)
    total = 0
    for key in moves:
        child = model.copy()
        child.play(key)
        total += model_perft(child, depth - 1)
    return total


def played_position(seed: int, plies: int) -> str:
    """The position after ``plies`` seeded random moves from the empty board."""
    game = Corners()
    rng = SeededRandom(seed)
    while game.ply < plies and not game.is_over():
        game.push_unchecked(rng.choice(game.legal_moves()))
    return game.position()


def checkerboard(empty: str, unpainted: str = "", to_move: str = "o", phase: str = "play") -> str:
    """Painted circles on the dark squares and painted triangles on the
    light ones, except the ``unpainted`` cells and the ``empty`` ones.

    Empty cells in the board's corners and along its edges can be filled
    only by a rectangle with a corner or a side on that corner or edge, so
    the first moves are few and the tree stays small enough for the model
    at depth 4; the pieces placed there then open painting captures and
    captures that fill the other empty cells."""
    grid = [["O" if (col + row) % 2 == 0 else "T" for col in range(8)] for row in range(8)]
    for cell in unpainted.split():
        col, row = COLUMNS.index(cell[0]), int(cell[1]) - 1
        grid[row][col] = grid[row][col].lower()
    for cell in empty.split():
        grid[int(cell[1]) - 1][COLUMNS.index(cell[0])] = "."
    return "/".join("".join(grid[row]) for row in range(7, -1, -1)) + f" {to_move} {phase}"


def sparse(circles: str, triangles: str) -> str:
    """A play-phase position with a few unpainted pieces, circles to move."""
    grid = [["."] * 8 for _ in range(8)]
    for cells, char in ((circles, "o"), (triangles, "t")):
        for cell in cells.split():
            grid[int(cell[1]) - 1][COLUMNS.index(cell[0])] = char
    return "/".join("".join(grid[row]) for row in range(7, -1, -1)) + " o play"


PERFT_SETUPS = [
    # Six and four empty cells at the corners: placements, then captures
    # that paint the new pieces and fill the cells beside them; the final
    # round starts inside the tree.
    (checkerboard("h8 g8 h7 a1 b1 a2"), 4),
    (checkerboard("h8 a1 h1 a8"), 4),
    # The final round already running: five unpainted pieces, painting captures and pass.
    (checkerboard("", "c3 d5 e2 f6 b6", "t", "final 2"), 2),
    # Three corners of an upright and a tilted rectangle each (a3 completes
    # both for circles), triangles a corner short of a tilted square.
    (sparse("b1 d2 c4 a1 c1 c3", "f6 g7 h6 e3 e5"), 3),
    # The middle of a game reached by play: placements and the first captures.
    (played_position(5, 40), 3),
]


@pytest.mark.parametrize("setup, depth", PERFT_SETUPS)
def test_perft_agrees_with_the_model(setup: str, depth: int) -> None:
    game = Corners(setup=setup)
    count = engine_perft(game, depth)
    assert count == model_perft(SimpleCorners(setup), depth)
    assert game.position() == setup            # perft leaves the game as it found it
    assert count > 0


def test_model_counts_the_rectangles_of_a_full_side() -> None:
    """The model's own rectangle search, given all 64 points, finds the 1192
    of the board (784 upright, 408 tilted), as the engine's tables do."""
    every = rectangles_among(frozenset((c, r) for c in range(8) for r in range(8)))
    upright = sum(1 for a, b, _, d in every if a[0] == b[0] or a[1] == b[1])
    assert (len(every), upright, len(every) - upright) == (1192, 784, 408)
