"""Quadrature: which set-up positions are valid, and "aggressive" means "converts".

Two rulings meet here (RULINGS.md, Quadrature): a move is aggressive only if
it converts, and a conversion uses a reserve checker.  A sideways move that
squares an enemy checker while the mover's reserve is empty converts nothing,
so it is a quiet sideways move: illegal on marker 2, and no move may ever
leave a marker at 3.  In a game that can happen only from a set-up with more
than 18 checkers, which the engine now refuses; the engine's own definition
is still tested on such boards, built by writing the bitboards of a valid
game directly (the only way left to reach them).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tessera.core.game import IllegalMoveError, Outcome, PositionError
from tessera.games.quadrature import BLACK, WHITE, Quadrature
from tessera.games.quadrature.examples import position
from tessera.games.quadrature.rules import STEPS, make_move, parse_square, square_name

SIZE = 11
SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

# Black's h7-g7 would square White's d7 (d7 g7 d5 g5).  Black has 16 on the
# board here, so its reserve is empty and the move can convert nothing.
FULL_BLACK = "d5 g5 h7 a1 b1 c1 i1 j1 k1 a2 b2 c2 h2 i2 j2 k2"
FEW_WHITE = "d7 a11 b11 i11 j11"
# The same fragment with 9 + 9: Black's reserve is 7, h7-g7 converts d7.
FULL_GAME_BLACK = "d5 g5 h7 a1 b1 i1 j1 k1 a2"
FULL_GAME_WHITE = "d7 a11 b11 i11 j11 k11 a10 b10 i10"


def bits(squares: str) -> int:
    """The bitboard of space-separated square names."""
    total = 0
    for name in squares.split():
        total |= 1 << parse_square(name)
    return total


def injected(white: str, black: str, to_move: str, markers: tuple[int, int]) -> Quadrature:
    """A game whose board is written straight into the engine, past the set-up checks.

    The start is a valid position with the same side to move and markers;
    nothing has been asked of it yet, so no cache holds the old board.
    """
    game = Quadrature(setup=position(FULL_GAME_WHITE, FULL_GAME_BLACK, to_move, markers))
    game.sides = [bits(white), bits(black)]
    return game


# ----- aggressive means "converts", for the generator, the move and the explanation --------

def test_control_the_same_move_with_a_reserve_converts_and_is_legal_on_two() -> None:
    game = Quadrature(setup=position(FULL_GAME_WHITE, FULL_GAME_BLACK, "b", (0, 2)))
    assert "h7-g7" in game.sorted_legal_texts()
    game.push_text("h7-g7")
    assert [square_name(sq) for sq in game.last_converted()] == ["d7"]
    assert tuple(game.markers) == (0, 0)


def test_squaring_with_an_empty_reserve_is_not_aggressive_on_marker_two() -> None:
    """16 Black checkers on the board, marker 2: h7-g7 squares d7 but cannot convert it."""
    game = injected(FEW_WHITE, FULL_BLACK, "b", (0, 2))
    assert game.reserves()[BLACK] == 0 and game.outcome() is None
    move = game.parse_move("h7-g7")
    assert move not in game.legal_moves()
    assert "h7-h8" in game.sorted_legal_texts()
    assert not any(m >> 7 == parse_square("h7") and (m & 0x7F) // SIZE == 6
                   for m in game.legal_moves())
    reason = game.explain_illegal(move)
    assert "marker shows 2" in reason and "reserve" in reason
    with pytest.raises(IllegalMoveError, match="reserve"):
        game.push(move)
    assert tuple(game.markers) == (0, 2)


def test_squaring_with_an_empty_reserve_raises_the_marker() -> None:
    """On marker 1 the same move is legal, converts nothing and is counted as quiet."""
    game = injected(FEW_WHITE, FULL_BLACK, "b", (0, 1))
    game.push_text("h7-g7")
    assert game.last_converted() == []
    assert tuple(game.markers) == (0, 2)
    game.push_text("a11-a10")
    sideways = [text for text in game.sorted_legal_texts()
                if text.split("-")[0][1:] == text.split("-")[1][1:]]
    assert sideways == []  # marker 2 and an empty reserve: no sideways move can be aggressive


# ----- which set-ups are valid ----------------------------------------------------------

REFUSED = {
    # 16 Black and 5 White: Black's reserve is empty while White still plays.
    "21 checkers": (position(FEW_WHITE, FULL_BLACK, "b"), "21 checkers"),
    "19 checkers": (position(FULL_GAME_WHITE + " j10", FULL_GAME_BLACK, "b"), "19 checkers"),
    "17 checkers": (position(FULL_GAME_WHITE, "d5 g5 h7 a1 b1 i1 j1 k1", "b"), "17 checkers"),
    "17 of one side": (position("a11 b11 c11 d11 e11 f11 g11 h11 i11 j11 k11 a10 b10 c10 d10 e10 f10",
                                "a1", "b"), "White has 17 checkers"),
    "the beaten side is not to move": (position("a11 b11", "a1 b1 c1 d1 e1 f1 g1 h1 i1 j1 k1 a2 b2 c2 d2 e2",
                                                "b"), "must be White's turn"),
    "the side to move already holds the plate": (
        position("e1 f1 g1 a9 b9 c9 i9 j9 k9", "a7 b7 c7 i7 j7 k7 a6 b6 c6", "w"),
        "cannot be White's turn"),
}


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_unreachable_setups_are_refused_clearly(name: str) -> None:
    text, words = REFUSED[name]
    with pytest.raises(PositionError, match=words):
        Quadrature(setup=text)


def test_finished_positions_are_valid_setups() -> None:
    """A game over by annihilation or on the plate round-trips, with the loser to move."""
    beaten = position("a11 b11", "a1 b1 c1 d1 e1 f1 g1 h1 i1 j1 k1 a2 b2 c2 d2 e2", "w")
    game = Quadrature(setup=beaten)
    assert game.reserves() == (14, 0)
    assert game.outcome() == Outcome(BLACK, "annihilation")
    plate = position("e1 f1 g1 a9 b9 c9 i9 j9 k9", "a7 b7 c7 i7 j7 k7 a6 b6 c6", "b")
    assert Quadrature(setup=plate).outcome() == Outcome(WHITE, "home_plate")


def test_markers_and_ply_are_taken_as_declared() -> None:
    """A set-up is a position, not a history: marker 2 at ply 0 is a valid puzzle start."""
    text = position(FULL_GAME_WHITE, FULL_GAME_BLACK, "b", (2, 2), 0)
    assert Quadrature(setup=text).position() == text


# ----- properties -----------------------------------------------------------------------

def _holds_enemy_plate(board: list[str], char: str) -> bool:
    """White aims at e1-g1 (row 1), Black at e11-g11 (row 11)."""
    row = 0 if char == "w" else SIZE - 1
    return all(board[row * SIZE + col] == char for col in (4, 5, 6))


@st.composite
def valid_setups(draw) -> str:
    """Any position the set-up rules accept: 18 checkers, 2 to 16 a side."""
    cells = draw(st.permutations(range(SIZE * SIZE)))
    white = draw(st.integers(min_value=2, max_value=16))
    board = ["."] * (SIZE * SIZE)
    for index, sq in enumerate(cells[:18]):
        board[sq] = "w" if index < white else "b"
    # A side down to 2 has lost and is to move; a side on the enemy plate has won.
    sides = [side for side in "wb" if not _holds_enemy_plate(board, side)
             and not (white == 2 and side == "b") and not (white == 16 and side == "w")]
    assume(sides)
    side = draw(st.sampled_from(sides))
    rows = ["".join(board[row * SIZE:(row + 1) * SIZE]) for row in range(SIZE - 1, -1, -1)]
    markers = draw(st.tuples(st.integers(0, 2), st.integers(0, 2)))
    return f"{'/'.join(rows)} {side} {markers[0]} {markers[1]} {draw(st.integers(0, 399))}"


@SETTINGS
@given(setup=valid_setups(), picks=st.lists(st.integers(0, 10_000), min_size=1, max_size=12))
def test_random_games_from_valid_setups_never_show_a_marker_of_three(setup: str, picks: list[int]) -> None:
    """Valid set-ups are accepted, and play from them keeps 18 checkers and markers 0..2."""
    game = Quadrature(setup=setup)
    assert game.position() == setup
    for pick in picks:
        white, black = game.counts()
        assert white + black == 18 and sum(game.reserves()) == 14
        assert all(marker in (0, 1, 2) for marker in game.markers)
        moves = game.legal_moves()
        if not moves:
            break
        game.push(moves[pick % len(moves)])
    assert all(marker in (0, 1, 2) for marker in game.markers)


@st.composite
def crowded_boards(draw) -> tuple[int, int, str, tuple[int, int]]:
    """Boards the set-up rules refuse (up to 16 a side, any total): the engine's own ground."""
    cells = draw(st.permutations(range(SIZE * SIZE)))
    mover = draw(st.integers(min_value=12, max_value=16))
    other = draw(st.integers(min_value=3, max_value=16))
    side = draw(st.sampled_from("wb"))
    mover_bits = sum(1 << sq for sq in cells[:mover])
    other_bits = sum(1 << sq for sq in cells[mover:mover + other])
    white, black = (mover_bits, other_bits) if side == "w" else (other_bits, mover_bits)
    markers = (2, 2) if draw(st.booleans()) else draw(st.tuples(st.integers(0, 2), st.integers(0, 2)))
    return white, black, side, markers


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(board=crowded_boards())
def test_generator_move_and_explanation_agree_on_any_board(board) -> None:
    """Every legal move keeps the marker at 2 or less; every refused step says why.

    A sideways move listed as legal on marker 2 must convert; a step the
    generator refuses gets a real reason from explain_illegal.
    """
    white, black, side, markers = board
    game = Quadrature(setup=position(FULL_GAME_WHITE, FULL_GAME_BLACK, side, markers))
    game.sides = [white, black]
    if game.outcome() is not None:
        return
    player = game.to_move
    legal = set(game.legal_moves())
    for frm in range(SIZE * SIZE):
        if game.piece_at(frm) != player:
            continue
        for to, sideways in STEPS[player][frm]:
            move = make_move(frm, to)
            if move in legal:
                game.push(move)
                assert game.markers[player] <= 2, game.move_text(move)
                if sideways and markers[player] == 2:
                    assert game.last_converted(), game.move_text(move)
                game.pop()
            else:
                assert game.explain_illegal(move) != "it is not legal here", game.move_text(move)
