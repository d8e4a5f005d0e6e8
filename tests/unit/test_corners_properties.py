"""Corners: properties of random games (hypothesis) and fuzzed readers.

Random games end and keep their invariants (scores are the painted
pieces, the sides never share a cell, push/pop restores every position,
the move texts replay to the same game, notation and position string
round-trip); a capture is written the same whatever order its corners are
typed in; the notation and position readers answer anything, huge
numbers and unicode included, with our own keyed errors only.  The
comparison with an independent model of the rules is in
``test_corners_model.py``.
"""

from __future__ import annotations

import json
import random
import sys

from hypothesis import given, settings, strategies as st

from tessera.core.game import GameError
from tessera.core.record import Record
from tessera.games.corners import Corners
from tessera.core.rng import SeededRandom
from tessera.games.corners.geometry import CAPTURE_BASE, PASS, RECTANGLES, cell_name
from tessera.games.corners.rules import parse_cell


MOST_PLIES = 64 + 64 + 2
"""No game is longer: a placement or a capture that fills empties at
least one of the 64 cells for good, a capture that fills nothing paints
at least one of at most 64 pieces for good, and only the final round's
two turns may pass."""


def random_game(rng, start: str | None = None) -> Corners:
    game = Corners(setup=start)
    while not game.is_over():
        game.push(rng.choice(game.legal_moves()))
    return game


def captures_by_scan(game: Corners, side: int, painting_only: bool = False) -> list[int]:
    """Every capture of ``side`` found the plain way: each rectangle, by its
    lowest corner then its index, whose corners are all the side's and
    which paints a corner or (before the final round) fills a cell."""
    own, unpainted, empty = game.pieces[side], game.pieces[side] & ~game.painted, game.empty
    found = []
    for index in sorted(range(len(RECTANGLES)), key=lambda i: (RECTANGLES[i].corners[0], i)):
        corners, inside = RECTANGLES[index].corner_mask, RECTANGLES[index].inside_mask
        if corners & own == corners and (corners & unpainted or (not painting_only and inside & empty)):
            found.append(index)
    return found


@settings(max_examples=4 if sys.platform == "emscripten" else 12, deadline=None)  # a third in Pyodide, 3x slower
@given(st.integers(0, 2**32))
def test_the_kept_rectangles_are_the_captures_found_the_plain_way(seed: int) -> None:
    """The engine keeps the rectangles each side has completed as pieces
    come (``full``), undone with the moves; its captures are exactly those
    a scan of every rectangle finds, in the same order, at every ply of a
    random game with take-backs, and in a position read from its string."""
    rng = random.Random(seed)
    game = Corners()
    while not game.is_over():
        for side in (0, 1):
            for painting_only in (False, True):
                assert game.captures(side, painting_only) == captures_by_scan(game, side, painting_only)
            assert sorted(game.full[side]) == sorted(
                i for i, rect in enumerate(RECTANGLES) if rect.corner_mask & game.pieces[side] == rect.corner_mask)
        if game.ply and rng.random() < 0.15:
            game.pop()
        else:
            game.push(rng.choice(game.legal_moves()))
        if rng.random() < 0.1:
            read = Corners(setup=game.position())
            assert [read.captures(side) for side in (0, 1)] == [game.captures(side) for side in (0, 1)]
            copied = game.copy()
            assert copied.full == game.full and copied.full[0] is not game.full[0]


@settings(max_examples=6 if sys.platform == "emscripten" else 20, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([0.0, 0.5, 1.0]))
def test_a_playout_in_place_makes_only_legal_moves_and_is_put_back(seed: int, share: float) -> None:
    """``play_randomly`` (the tree search's playouts) plays in place without
    history.  Each of its turns, one at a time, must come to a position that
    one of the legal moves comes to (found by pushing each), with the kept
    rectangles those a scan finds; ``restore_scratch`` then gives back the
    position, its rectangles and its moves exactly."""
    rng = random.Random(seed)
    game = Corners()
    for _ in range(rng.randrange(0, 70)):
        if game.is_over():
            break
        game.push(rng.choice(game.legal_moves()))
    before = (game.position(), [list(kept) for kept in game.full], game.legal_moves(), list(game.move_stack))
    state = game.scratch_state()
    draws = SeededRandom(seed)
    played = 0
    while not game.is_over():
        reachable = set()
        for move in game.legal_moves():
            game.push_unchecked(move)
            reachable.add(game.position())
            game.pop()
        assert game.play_randomly(draws, 1, share) == 1
        played += 1
        assert game.position() in reachable
        for side in (0, 1):
            assert sorted(game.full[side]) == sorted(
                i for i, rect in enumerate(RECTANGLES) if rect.corner_mask & game.pieces[side] == rect.corner_mask)
    assert game.play_randomly(draws, 5, share) == 0, "nothing is played once the game is over"
    steps = SeededRandom(seed)   # one draw a turn: the generator is where as many next64() leave it
    for _ in range(played):
        steps.next64()
    assert draws.state == steps.state
    game.restore_scratch(state)
    assert (game.position(), game.full, game.legal_moves(), game.move_stack) == before


def playout_by_reading_every_kept_rectangle(game: Corners, seed: int, plies: int, share: float) -> None:
    """``play_randomly`` the plain way: each turn the side's captures are read
    from all the rectangles it has completed (``captures()``, unsorted),
    with the same draws; ``play_randomly`` reads only those still alive."""
    state = seed & (2**64 - 1)
    for _ in range(plies):
        if game.is_over():
            return
        state = (state + 0x9E3779B97F4A7C15) & (2**64 - 1)
        draw = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & (2**64 - 1)
        draw = ((draw ^ (draw >> 27)) * 0x94D049BB133111EB) & (2**64 - 1)
        draw ^= draw >> 31
        side, painted, empty = game.to_move, game.painted, game.empty
        unpainted = game.pieces[side] & ~painted
        final = game.final_left is not None
        captures = [i for i in game.full[side] if RECTANGLES[i].corner_mask & unpainted
                    or (not final and RECTANGLES[i].inside_mask & empty)]
        spaces = 1 if final else [c for c in range(64) if empty >> c & 1]
        count = 1 if final else len(spaces)
        if captures and draw & 0xFFFFFFFF < int(share * 2**32):
            pick = count + ((draw >> 32) * len(captures) >> 32)
        else:
            pick = (draw >> 32) * (count + len(captures)) >> 32
        if pick >= count:
            game.push(CAPTURE_BASE + captures[pick - count])
        else:
            game.push(PASS if final else spaces[pick])


@settings(max_examples=4 if sys.platform == "emscripten" else 15, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 60), st.sampled_from([0.0, 0.5, 1.0]))
def test_a_playout_drops_only_rectangles_that_can_change_nothing(seed: int, start: int, share: float) -> None:
    """A playout keeps no rectangle that paints nothing and fills nothing (it
    never will again) and so reads fewer each turn; with the same draws it
    plays the same game as reading every kept rectangle each turn."""
    rng = random.Random(seed)
    game = Corners()
    for _ in range(start):
        if game.is_over():
            break
        game.push(rng.choice(game.legal_moves()))
    plain = game.copy()
    game.play_randomly(SeededRandom(seed), 200, share)
    playout_by_reading_every_kept_rectangle(plain, seed, 200, share)
    assert game.position() == plain.position()


def test_a_playout_captures_at_its_share_and_otherwise_picks_any_move_alike() -> None:
    """At share 1 a playout's turn is always a capture when there is one;
    at share 0 every legal move comes about equally often (640 draws of 8
    moves: each 80 expected, none below 40 or above 130)."""
    grid = [["o", "o", "o", "o", "t", "t", "t", "t"] for _ in range(7)] + [list("oo.o.t.t")]
    #  rows 1-7 full; row 8 has three empty cells: captures wait for circles
    game = Corners(setup="/".join("".join(row) for row in reversed(grid)) + " o play")
    moves = game.legal_moves()
    captures = [move for move in moves if move >= CAPTURE_BASE]
    assert captures and len(moves) > len(captures)
    by_capture = set()
    for move in captures:
        game.push_unchecked(move)
        by_capture.add(game.position())
        game.pop()
    state = game.scratch_state()
    draws = SeededRandom(7)
    for _ in range(50):
        game.play_randomly(draws, 1, 1.0)
        assert game.position() in by_capture
        game.restore_scratch(state)
    seen: dict[str, int] = {}
    for _ in range(80 * len(moves)):
        game.play_randomly(draws, 1, 0.0)
        seen[game.position()] = seen.get(game.position(), 0) + 1
        game.restore_scratch(state)
    assert len(seen) == len(moves)
    assert all(40 <= count <= 130 for count in seen.values()), seen


@settings(max_examples=30, deadline=None)
@given(st.randoms(use_true_random=False))
def test_random_games_end_and_keep_their_invariants(rng) -> None:
    game = Corners()
    positions = [game.position()]
    while not game.is_over():
        assert game.ply < MOST_PLIES
        move = rng.choice(game.legal_moves())
        painted_before, pieces_before = game.painted, list(game.pieces)
        game.push(move)
        positions.append(game.position())
        painted = game.painted
        assert game.scores() == ((game.pieces[0] & painted).bit_count(), (game.pieces[1] & painted).bit_count())
        assert not game.pieces[0] & game.pieces[1]
        assert painted & painted_before == painted_before, "paint never comes off"
        for side in (0, 1):
            assert game.pieces[side] & pieces_before[side] == pieces_before[side], "no piece leaves the board"
        assert game.parse_move(game.move_text(move)) == move
        assert Corners(setup=game.position()).position() == game.position()
        assert (game.final_left is None) == bool(game.empty), "the final round is exactly the full board"
    assert game.final_left == 0 and not game.empty
    circles, triangles = game.scores()
    outcome = game.outcome()
    assert outcome.winner == (None if circles == triangles else (0 if circles > triangles else 1))
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


@settings(max_examples=20, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(0, 40))
def test_games_from_a_set_up_position_replay_and_round_trip(rng, plies) -> None:
    """Set up the position after a few random moves, then play on: the
    set-up game, its copy and a replay of its record all agree."""
    head = Corners()
    while head.ply < plies and not head.is_over():
        head.push(rng.choice(head.legal_moves()))
    start = head.position()
    game = random_game(rng, start)
    clone = game.copy()
    assert clone.position() == game.position() and clone.legal_moves() == game.legal_moves()
    record = Record.from_game(game, game.outcome(), {})
    assert Record.loads(record.dumps()).replay().position() == game.position()
    while game.move_stack:
        game.pop()
    assert game.position() == start


def cross(o: tuple[int, int], a: tuple[int, int], b: tuple[int, int]) -> int:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


@settings(max_examples=60, deadline=None)
@given(st.integers(0, len(RECTANGLES) - 1), st.permutations(range(4)), st.booleans())
def test_capture_text_is_canonical_whatever_the_corner_order(index, order, upper) -> None:
    """Type a rectangle's corners in any order (and case): one move, one
    text, starting at the corner in the lowest row (the leftmost of two)
    and going round anticlockwise (every turn a left turn)."""
    corners = RECTANGLES[index].corners
    names = [cell_name(corners[i]) for i in order]
    cells = {cell_name(c): "o" for c in corners}
    grid = [["."] * 8 for _ in range(8)]
    for cell in cells:
        grid[int(cell[1]) - 1]["abcdefgh".index(cell[0])] = "o"
    game = Corners(setup="/".join("".join(grid[r]) for r in range(7, -1, -1)) + " o play")
    typed = "x" + "".join(names)
    move = game.parse_typed(typed.upper() if upper else typed)
    assert move == game.parse_move("x" + "".join(names))
    text = game.move_text(move)
    points = [("abcdefgh".index(text[i]), int(text[i + 1]) - 1) for i in range(1, 9, 2)]
    assert sorted(points, key=lambda p: (p[1], p[0]))[0] == points[0]
    assert all(cross(points[i], points[(i + 1) % 4], points[(i + 2) % 4]) > 0 for i in range(4))
    assert move in game.legal_moves()


NASTY = st.sampled_from([
    None, True, 0, -1, 64, 2 ** 64, 10 ** 400, -10 ** 400, 1.5, float("nan"), "", " ", "9" * 5000,
    "x" * 5000, "xa1" * 3, "\x00", "\ud800", "ｄ４", "д4", "x a1 c1 c3", "pass pass", [], {}, ("d4",),
])


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=40) | NASTY)
def test_fuzzed_move_text_raises_only_our_errors(text) -> None:
    game = Corners(setup="......../......../......../......../..o...../o......./...o..../.o...... o play")
    for reader in (game.parse_move, game.parse_typed):
        try:
            move = reader(text)
        except GameError as error:
            assert str(error) and "\n" not in str(error)
        else:
            assert game.parse_move(game.move_text(move)) == move


@settings(max_examples=200, deadline=None)
@given(NASTY | st.integers())
def test_move_values_that_are_no_move_raise_our_error(value) -> None:
    game = Corners()
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= PASS:
        assert game.parse_move(game.move_text(value)) == value
        return
    try:
        game.move_text(value)
    except GameError:
        pass
    assert not game.is_legal(value)


@st.composite
def mutated_positions(draw) -> str:
    """A real position with one edit: a character changed, dropped or added."""
    rng = draw(st.randoms(use_true_random=False))
    game = Corners()
    for _ in range(draw(st.integers(0, 70))):
        if game.is_over():
            break
        game.push(rng.choice(game.legal_moves()))
    text = game.position()
    at = draw(st.integers(0, len(text)))
    piece = draw(st.sampled_from([".", "o", "O", "t", "T", "/", " ", "x", "0", "1", "2", "3", "9" * 400, "\n",
                                  "final", "play", "ж", ""]))
    kind = draw(st.sampled_from(["replace", "insert", "drop"]))
    if kind == "replace":
        return text[:at] + piece + text[at + 1:]
    if kind == "insert":
        return text[:at] + piece + text[at:]
    return text[:at] + text[at + 1:]


@settings(max_examples=200, deadline=None)
@given(mutated_positions() | st.text(alphabet=".oOtT/ 0123finalplay", max_size=120) | st.text(max_size=80) | NASTY)
def test_fuzzed_positions_raise_only_our_errors_or_round_trip(text) -> None:
    try:
        game = Corners(setup=text)
    except GameError as error:
        assert str(error) and "\n" not in str(error)
    else:
        assert Corners(setup=game.position()).position() == game.position()
        assert (game.final_left is None) == bool(game.empty)


def test_cell_names_round_trip() -> None:
    for index in range(64):
        assert parse_cell(cell_name(index)) == index
