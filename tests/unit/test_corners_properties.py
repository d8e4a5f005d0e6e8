"""Corners against a second, deliberately simple model written from the rule
text, and properties of random games.

The model shares nothing with the engine: a dict of pieces, rectangles
found by trying every three own pieces as a corner and its two
neighbours (a right angle at the corner, the fourth corner completing the
parallelogram), and "inside" decided as a point in a convex polygon: on
the inner side of, or on, each of the four edges taken anticlockwise
(cross products), not by the engine's projections.
"""

from __future__ import annotations

import json

from hypothesis import given, settings, strategies as st

from tessera.core.record import Record
from tessera.games.corners import Corners
from tessera.games.corners.geometry import cell_name
from tessera.games.corners.rules import parse_cell


class SimpleCorners:
    """The rules as written: pieces[(col, row)] = (side, painted)."""

    def __init__(self, position: str) -> None:
        rows, side, phase, *rest = position.split()
        self.pieces: dict[tuple[int, int], tuple[int, bool]] = {}
        for r, line in enumerate(rows.split("/")):
            for c, char in enumerate(line):
                if char != ".":
                    self.pieces[(c, 7 - r)] = ("ot".index(char.lower()), char.isupper())
        self.side = "ot".index(side)
        self.final = int(rest[0]) if phase == "final" else None

    def empty_cells(self) -> list[tuple[int, int]]:
        return [(c, r) for c in range(8) for r in range(8) if (c, r) not in self.pieces]

    def rectangles(self) -> set[frozenset[tuple[int, int]]]:
        own = [p for p, (side, _) in self.pieces.items() if side == self.side]
        found = set()
        for a in own:
            for b in own:
                for d in own:
                    if len({a, b, d}) < 3:
                        continue
                    u = (b[0] - a[0], b[1] - a[1])
                    v = (d[0] - a[0], d[1] - a[1])
                    if u[0] * v[0] + u[1] * v[1] != 0:
                        continue
                    far = (a[0] + u[0] + v[0], a[1] + u[1] + v[1])
                    if far in own:
                        found.add(frozenset((a, b, d, far)))
        return found

    @staticmethod
    def inside(corners: frozenset[tuple[int, int]], q: tuple[int, int]) -> bool:
        cx = sum(p[0] for p in corners) / 4
        cy = sum(p[1] for p in corners) / 4
        import math
        ring = sorted(corners, key=lambda p: math.atan2(p[1] - cy, p[0] - cx))
        for i in range(4):
            (x1, y1), (x2, y2) = ring[i], ring[(i + 1) % 4]
            if (x2 - x1) * (q[1] - y1) - (y2 - y1) * (q[0] - x1) < 0:
                return False
        return True

    def capture_effect(self, corners: frozenset[tuple[int, int]]) -> tuple[int, list[tuple[int, int]]]:
        paints = sum(1 for p in corners if not self.pieces[p][1])
        fills = [q for q in self.empty_cells() if self.inside(corners, q)]
        return paints, fills

    def legal(self) -> set[str]:
        if self.final == 0:
            return set()
        moves = set()
        if self.final is None:
            moves.update(cell_name(c + 8 * r) for c, r in self.empty_cells())
        else:
            moves.add("pass")
        for corners in self.rectangles():
            paints, fills = self.capture_effect(corners)
            if paints or (self.final is None and fills):
                moves.add("x" + "".join(sorted(cell_name(c + 8 * r) for c, r in corners)))
        return moves

    def play(self, text: str) -> None:
        if text.startswith("x"):
            corners = frozenset((("abcdefgh".index(text[i]), int(text[i + 1]) - 1) for i in range(1, 9, 2)))
            _, fills = self.capture_effect(corners)
            for p in corners:
                self.pieces[p] = (self.side, True)
            for q in fills:
                self.pieces[q] = (self.side, False)
        elif text != "pass":
            self.pieces[("abcdefgh".index(text[0]), int(text[1]) - 1)] = (self.side, False)
        if self.final is not None:
            self.final -= 1
        elif not self.empty_cells():
            self.final = 2
        self.side = 1 - self.side

    def scores(self) -> tuple[int, int]:
        return tuple(sum(1 for side, painted in self.pieces.values() if side == s and painted) for s in (0, 1))


def canonical(text: str) -> str:
    """Compare captures as corner sets (the model does not know our order)."""
    return "x" + "".join(sorted(text[i:i + 2] for i in range(1, 9, 2))) if text.startswith("x") else text


def crowded_start(seed: int) -> str:
    """A random position with many pieces, so rectangles of every shape occur."""
    import random
    rng = random.Random(seed)
    rows = []
    for _ in range(8):
        rows.append("".join(rng.choice("..oOtT") for _ in range(8)))
    position = "/".join(rows) + " " + rng.choice("ot") + " play"
    if "." not in position.split()[0]:
        position = "." + position[1:]
    return position


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10_000), st.randoms(use_true_random=False))
def test_engine_and_simple_model_agree_move_by_move(seed, rng) -> None:
    start = crowded_start(seed)
    game, model = Corners(setup=start), SimpleCorners(start)
    while not game.is_over():
        engine_moves = {canonical(game.move_text(m)) for m in game.legal_moves()}
        assert engine_moves == model.legal(), game.position()
        move = rng.choice(sorted(game.legal_moves()))
        text = game.move_text(move)
        game.push(move)
        model.play(text)
        assert game.scores() == model.scores()
        assert SimpleCorners(game.position()).pieces == model.pieces
    assert model.legal() == set()


@settings(max_examples=30, deadline=None)
@given(st.randoms(use_true_random=False))
def test_random_games_end_and_keep_their_invariants(rng) -> None:
    game = Corners()
    positions = [game.position()]
    while not game.is_over():
        assert game.ply <= 64 + 64, "a game cannot outlast the cells plus the captures"
        move = rng.choice(game.legal_moves())
        game.push(move)
        positions.append(game.position())
        painted = game.painted
        assert game.scores() == ((game.pieces[0] & painted).bit_count(), (game.pieces[1] & painted).bit_count())
        assert not game.pieces[0] & game.pieces[1]
        assert game.parse_move(game.move_text(move)) == move
        assert Corners(setup=game.position()).position() == game.position()
    texts = [game.move_text(m) for m in game.move_stack]
    replayed = Corners()
    for text in texts:
        replayed.push_text(text)
    assert replayed.position() == game.position()
    record = Record.from_game(game, game.outcome(), {})
    again = Record.loads(json.dumps(json.loads(record.dumps())))
    assert again.replay().position() == game.position()
    while game.move_stack:
        game.pop()
        assert game.position() == positions[len(game.move_stack)]


@given(st.permutations(["b1", "d2", "c4", "a3"]))
def test_capture_text_is_canonical_whatever_the_corner_order(order) -> None:
    game = Corners(setup="......../......../......../......../..o...../o......./...o..../.o...... o play")
    move = game.parse_move("x" + "".join(order))
    assert game.move_text(move) == "xb1d2c4a3"


@given(st.text(max_size=40))
def test_fuzzed_move_text_raises_only_our_errors(text) -> None:
    from tessera.core.game import GameError
    game = Corners()
    for reader in (game.parse_move, game.parse_typed):
        try:
            reader(text)
        except GameError:
            pass


@given(st.text(alphabet=".oOtT/ 0123finalplay", max_size=120) | st.text(max_size=80))
def test_fuzzed_positions_raise_only_our_errors(text) -> None:
    from tessera.core.game import GameError
    try:
        Corners(setup=text)
    except GameError:
        pass


def test_cell_names_round_trip() -> None:
    for index in range(64):
        assert parse_cell(cell_name(index)) == index
