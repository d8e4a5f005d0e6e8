"""Corners: the rules of RULINGS.md "Corners" on hand-built positions.

Rectangles at any angle, what a capture paints and fills, what it must
change, every form of the final round, notation, the position string and
move counts worked out by hand.
"""

from __future__ import annotations

import itertools

import pytest

from tessera.core.game import GameError, IllegalMoveError, NotationError, PositionError
from tessera.games.corners import CIRCLES, TRIANGLES, Corners
from tessera.games.corners.examples import EXAMPLES, board
from tessera.games.corners.geometry import PASS, RECTANGLES, cell_name
from tessera.games.corners.rules import parse_cell

EMPTY_BOARD = "/".join(["........"] * 8)


def cells(mask: int) -> set[str]:
    return {cell_name(i) for i in range(64) if mask >> i & 1}


def test_rectangle_counts_by_brute_force() -> None:
    """Count rectangles straight from the definition, independently of the
    engine's enumeration: four distinct lattice points P, P+u, P+u+v, P+v
    on the board with u·v = 0.  Every choice of P and of the two side
    vectors (u, v) from it names a rectangle 8 times (4 corners as P, times
    2 orders of the sides), so the count of (P, u, v) triples divided by 8
    is the number of rectangles: 1192, 784 of them with sides along the
    board (u or v horizontal) and 408 tilted."""
    vectors = [(x, y) for x in range(-7, 8) for y in range(-7, 8) if (x, y) != (0, 0)]
    upright = tilted = 0
    for px, py in itertools.product(range(8), repeat=2):
        for ux, uy in vectors:
            if not (0 <= px + ux < 8 and 0 <= py + uy < 8):
                continue
            for vx, vy in vectors:
                if ux * vx + uy * vy:
                    continue
                if not all(0 <= x < 8 and 0 <= y < 8 for x, y in ((px + vx, py + vy), (px + ux + vx, py + uy + vy))):
                    continue
                if ux == 0 or uy == 0:
                    upright += 1
                else:
                    tilted += 1
    assert upright % 8 == 0 and tilted % 8 == 0
    assert (upright // 8, tilted // 8) == (784, 408)
    assert len(RECTANGLES) == 1192
    assert sum(not r.tilted for r in RECTANGLES) == 784
    assert sum(r.tilted for r in RECTANGLES) == 408


def test_upright_rectangles_match_the_grid_formula() -> None:
    """Axis-parallel rectangles pick two distinct columns and two distinct
    rows: C(8,2)^2 = 28^2 = 784."""
    assert sum(not r.tilted for r in RECTANGLES) == 28 * 28


def test_tilted_capture_fills_centres_inside_and_on_the_sides() -> None:
    """b1 d2 c4 a3: P = b1 = (1,0), u = (2,1) to d2, v = (-1,2) to a3;
    u·u = v·v = 5.  For a centre q, with d = q - P, it is inside when
    0 <= d·u <= 5 and 0 <= d·v <= 5.  b2: d=(0,1): 1, 2 in; c2: (1,1): 3, 1
    in; b3: (0,2): 2, 4 in; c3: (1,2): 4, 3 in; a2: (-1,1): -1 out;
    c1: (1,0): 2, -1 out; d3: (2,2): 6 out; a4: (-1,3): 1, 7 out."""
    game = Corners(setup=board("b1 d2 c4 a3"))
    game.push_text("xb1d2c4a3")
    inside = {name for name in ("b2", "c2", "b3", "c3") if game.piece_at(parse_cell(name)) == (CIRCLES, False)}
    assert inside == {"b2", "c2", "b3", "c3"}
    for name in ("a2", "c1", "d3", "a4", "d1", "a1"):
        assert game.piece_at(parse_cell(name)) is None
    assert game.scores() == (4, 0)


def test_centre_exactly_on_a_tilted_side_is_inside() -> None:
    """P = b1 (1,0), u = (2,2) to d3, v = (-1,1) to a2,
    far corner c4 (2,3).  u·u = 8, v·v = 2.  b2 = (1,1): d = (0,1):
    d·u = 2, d·v = 1 -> inside, strictly.  c2 = (2,1): d = (1,1): d·u = 4,
    d·v = 0 -> exactly on side P..P+u: inside.  c3 = (2,2): d = (1,2):
    d·u = 6, d·v = 1 -> inside.  b3 = (1,2): d = (0,2): 4, 2 -> on the far
    side P+v..P+u+v: inside.  d2 = (3,1): d = (2,1): 6, -1 -> outside."""
    rect = next(r for r in RECTANGLES if cells(r.corner_mask) == {"b1", "d3", "c4", "a2"})
    assert cells(rect.inside_mask) == {"b1", "d3", "c4", "a2", "b2", "c2", "c3", "b3"}
    assert "d2" not in cells(rect.inside_mask)


def test_capture_over_enemy_pieces_keeps_them_and_painted_stays_painted() -> None:
    game = Corners(setup=board("f2 f5 c5", "d3 e4", painted_circles="c2"))
    game.push_text("xc5f5f2c2")       # any corner order on input
    assert game.move_text(game.move_stack[-1]) == "xc2f2f5c5"
    assert game.piece_at(parse_cell("d3")) == (TRIANGLES, False)
    assert game.piece_at(parse_cell("e4")) == (TRIANGLES, False)
    assert game.piece_at(parse_cell("d4")) == (CIRCLES, False)
    assert game.scores() == (4, 0)


def test_a_capture_that_changes_nothing_is_refused() -> None:
    """Every corner painted and no empty cell inside: nothing would change."""
    game = Corners(setup=board("", "h8", painted_circles="a1 b1 a2 b2"))
    move = game.parse_move("xa1b1b2a2")
    assert not game.is_legal(move)
    with pytest.raises(IllegalMoveError) as error:
        game.push(move)
    assert error.value.params["reason"].key == "illegal.corners.changes_nothing"
    # The same rectangle with one empty cell inside is a legal capture (it fills).
    game = Corners(setup=board("", "", painted_circles="a1 c1 a3 c3"))
    assert game.is_legal(game.parse_move("xa1c1c3a3"))


def test_placement_only_on_empty_cells_and_corners_must_be_own() -> None:
    game = Corners(setup=board("a1 c1 c3", "a3"))
    with pytest.raises(IllegalMoveError):
        game.push_text("a3")
    with pytest.raises(IllegalMoveError) as error:
        game.push_text("xa1c1c3a3")
    assert error.value.params["reason"].key == "illegal.corners.not_own_corners"
    with pytest.raises(IllegalMoveError):
        game.push_text("pass")


def full_board_except(empty: str, to_move: str = "o") -> str:
    """A board of painted pieces in stripes (no capture can paint), some cells empty."""
    grid = [list(("OT" if row % 2 else "TO") * 4) for row in range(8)]
    for name in empty.split():
        grid[8 - int(name[1])]["abcdefgh".index(name[0])] = "."
    return "/".join("".join(row) for row in grid) + f" {to_move} play"


def test_final_round_started_by_a_placement_then_two_passes() -> None:
    game = Corners(setup=full_board_except("h8"))
    game.push_text("h8")
    assert game.final_left == 2 and game.to_move == TRIANGLES
    assert game.legal_moves() == [PASS]
    game.push_text("pass")
    assert game.final_left == 1 and not game.is_over()
    with pytest.raises(IllegalMoveError):
        game.push_text("a1")
    game.push_text("pass")
    assert game.is_over() and game.legal_moves() == []
    assert game.outcome().reason == "final_round"


def test_final_round_started_by_a_capture_that_fills_the_last_cells() -> None:
    start = full_board_except("b2").replace(" o play", " o play")
    grid = [list(row) for row in start.split()[0].split("/")]
    for name in ("a1", "c1", "a3", "c3"):
        grid[8 - int(name[1])]["abcdefgh".index(name[0])] = "o"
    game = Corners(setup="/".join("".join(r) for r in grid) + " o play")
    game.push_text("xa1c1c3a3")
    assert game.final_left == 2 and game.to_move == TRIANGLES
    assert game.piece_at(parse_cell("b2")) == (CIRCLES, False)


def test_final_capture_must_paint_and_then_the_game_ends() -> None:
    grid = [list(row) for row in full_board_except("h8").split()[0].split("/")]
    for name in ("a1", "c1", "a3"):
        grid[8 - int(name[1])]["abcdefgh".index(name[0])] = "t"
    grid[8 - 3][2] = "T"   # c3 painted triangle: corners a1 c1 c3 a3
    game = Corners(setup="/".join("".join(r) for r in grid) + " o play")
    game.push_text("h8")
    capture = game.parse_move("xa1c1c3a3")
    assert capture in game.legal_moves()
    before = game.scores()
    game.push(capture)
    assert game.scores()[TRIANGLES] == before[TRIANGLES] + 3
    assert game.final_left == 1
    game.push_text("pass")
    assert game.is_over()


def test_a_final_capture_that_only_repaints_is_refused() -> None:
    """In the final round a capture of painted corners paints nothing: refused.
    The stripes put painted circles on a1, c1 (row 1 starts with O) and a3,
    c3 (row 3 too): a rectangle of circles, all painted."""
    game = Corners(setup=full_board_except("", "o").replace(" o play", " o final 2"))
    assert game.legal_moves() == [PASS]
    capture = game.parse_move("xa1c1c3a3")
    assert game.illegal_reason(capture).key == "illegal.corners.final_paints_nothing"
    with pytest.raises(IllegalMoveError):
        game.push(capture)
    assert game.illegal_reason(game.parse_move("xb1d1d3b3")).key == "illegal.corners.not_own_corners"


def test_move_counts_from_the_empty_board() -> None:
    """Depth 1: 64 placements, no capture (no pieces).  Depth 2: each of
    the 64 first placements leaves 63 empty cells and triangles have no
    pieces to capture with: 64 * 63 = 4032.  Depth 3: circles have one
    piece, still no rectangle: 64 * 63 * 62 = 249984."""
    game = Corners()
    assert len(game.legal_moves()) == 64

    def perft(depth: int) -> int:
        if depth == 0:
            return 1
        total = 0
        for move in game.legal_moves():
            game.push_unchecked(move)
            total += perft(depth - 1)
            game.pop()
        return total
    assert perft(2) == 4032


def test_notation_round_trips_and_typed_moves_are_lenient() -> None:
    game = Corners(setup=board("b1 d2 c4 a3"))
    for move in game.legal_moves():
        assert game.parse_move(game.move_text(move)) == move
    capture = game.parse_move("xb1d2c4a3")
    for typed in ("xa3c4d2b1", "XB1 D2 C4 A3", "x b1-d2-c4-a3", "b1 d2 c4 a3", "xd2,b1,a3,c4"):
        assert game.parse_typed(typed) == capture, typed
    assert game.parse_typed(" D4 ") == parse_cell("d4")
    assert game.parse_typed("PASS") == PASS
    for bad in ("", "i9", "x", "xa1a1a1a1", "xa1b1c1d1", "a0", "pass please", "d44"):
        with pytest.raises(NotationError):
            game.parse_move(bad)


def test_position_string_round_trips_and_is_checked() -> None:
    assert Corners().position() == f"{EMPTY_BOARD} o play"
    for example in EXAMPLES:
        game = Corners(setup=example.start)
        assert game.position() == example.start
        for text in example.moves:
            game.push_text(text)
            assert Corners(setup=game.position()).position() == game.position()
    for bad in ("", f"{EMPTY_BOARD} x play", f"{EMPTY_BOARD} o final 2", f"{EMPTY_BOARD} o finale",
                full_board_except("").replace(" o play", " o play"), "/".join(["ooooooooo"] * 8) + " o play",
                f"{EMPTY_BOARD} o final 3", "......../" * 8 + " o play"):
        with pytest.raises(PositionError):
            Corners(setup=bad)


def test_examples_show_what_their_captions_say() -> None:
    by_key = {example.key: example for example in EXAMPLES}
    game = Corners(setup=by_key["upright"].start)
    for text in by_key["upright"].moves:
        game.push_text(text)
    assert game.scores() == (4, 0) and game.pieces[CIRCLES].bit_count() == 9
    game = Corners(setup=by_key["enemy_inside"].start)
    game.push_text(by_key["enemy_inside"].moves[0])
    assert game.piece_at(parse_cell("d3")) == (TRIANGLES, False)
    game = Corners(setup=by_key["final_round"].start)
    for text in by_key["final_round"].moves:
        game.push_text(text)
    assert game.is_over() and game.outcome().winner == TRIANGLES


def test_errors_are_ours_and_worded() -> None:
    game = Corners()
    for bad in (None, 5, "x" * 10_000, "ж5", "xa1"):
        with pytest.raises(GameError) as error:
            game.parse_move(bad)  # type: ignore[arg-type]
        assert str(error.value)


def test_every_illegal_move_names_its_reason_in_both_languages() -> None:
    """Each refusal carries its own catalog key, worded in English and Russian."""
    from tessera import i18n
    from tessera.core import registry  # noqa: F401  (registers the game's strings)
    play = Corners(setup=board("a1 c1 c3", "a3 h8"))
    final = Corners(setup=full_board_except("", "o").replace(" o play", " o final 2"))
    cases = [
        (play, "a3", "illegal.corners.occupied"),
        (play, "pass", "illegal.corners.pass_too_early"),
        (play, "xa1c1c3a3", "illegal.corners.not_own_corners"),
        (Corners(setup=board("", "h8", painted_circles="a1 b1 a2 b2")), "xa1b1b2a2", "illegal.corners.changes_nothing"),
        (final, "xa1c1c3a3", "illegal.corners.final_paints_nothing"),
    ]
    for game, text, key in cases:
        move = game.parse_move(text)
        with pytest.raises(IllegalMoveError) as error:
            game.push(move)
        reason = error.value.params["reason"]
        assert reason.key == key, text
        for lang in ("en", "ru"):
            assert i18n.t(key, lang) != key
            assert str(error.value)
    # A placement in the final round: the board is full, so every cell is taken.
    placement = final.parse_move("d4")
    assert final.illegal_reason(placement).key == "illegal.corners.final_capture_only"
    finished = Corners(setup=full_board_except("", "o").replace(" o play", " o final 0"))
    assert finished.is_over() and finished.legal_moves() == []
    assert finished.illegal_reason(PASS).key == "illegal.over"
