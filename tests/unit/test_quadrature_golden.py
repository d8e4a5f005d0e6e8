"""Golden tests of the Quadrature engine, written from the rules, not the code.

Every worked example of ``examples.py`` is replayed: set up, push the moves,
compare the position string and the converted squares, pop back to the
start.  Targeted positions then pin down each ruling of RULINGS.md
(markers, suicide, conversion order, reserves, the four endings and the
order they are checked in, the position string and the notation).

Positions are written as lists of squares (``board("d7", "g7 d5")``) with
padding far from the action, in the manner ``examples.py`` describes.
"""

from __future__ import annotations

import itertools

import pytest

from tessera.core.game import IllegalMoveError, NotationError, Outcome, PositionError
from tessera.games.quadrature import BLACK, EMPTY, WHITE, Quadrature
from tessera.games.quadrature.examples import (BLACK_PADDING, EXAMPLES, START_POSITION,
                                               WHITE_PADDING, position)
from tessera.games.quadrature.rules import parse_square, square, square_name

board = position
"""``board(white_squares, black_squares, to_move, markers, ply)`` -> position string."""

START = ("/".join(["..........."] * 2 + [".wwwwwwwww."] + ["..........."] * 5
         + [".bbbbbbbbb."] + ["..........."] * 2) + " w 0 0 0")


def names(squares: list[int]) -> list[str]:
    return [square_name(sq) for sq in squares]


def play(setup: str, *moves: str) -> Quadrature:
    game = Quadrature(setup=setup)
    for text in moves:
        game.push_text(text)
    return game


def padded(white: str, black: str, to_move: str = "b", markers: tuple[int, int] = (0, 0),
           ply: int = 0, white_total: int = 9, black_total: int = 9) -> str:
    """A fragment plus padding checkers (rows 9-11 White, rows 1-2 Black, columns a b i j k)."""
    white_pad = WHITE_PADDING[:white_total - len(white.split())]
    black_pad = BLACK_PADDING[:black_total - len(black.split())]
    return board(" ".join((white, *white_pad)), " ".join((black, *black_pad)), to_move, markers, ply)


# ----- the worked examples --------------------------------------------------------------

def _rectangles_three_one(text: str) -> list[set[str]]:
    """Every rectangle with three corners of one colour and one of the other."""
    rows = text.split(" ")[0].split("/")
    cells = {f"{'abcdefghijk'[col]}{11 - index}": char
             for index, row in enumerate(rows) for col, char in enumerate(row) if char != "."}
    found = []
    for (c1, c2), (r1, r2) in itertools.product(itertools.combinations("abcdefghijk", 2),
                                                itertools.combinations(range(1, 12), 2)):
        corners = [f"{c}{r}" for c in (c1, c2) for r in (r1, r2)]
        colours = [cells.get(corner) for corner in corners]
        if None not in colours and sorted(colours) in (["b", "w", "w", "w"], ["b", "b", "b", "w"]):
            found.append(set(corners))
    return found


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.key)
def test_example_data_is_sound(example) -> None:
    """Each example has 18 checkers, and no padding checker is a corner of any square."""
    texts = [example.setup_position] + ([example.expected_position] if example.expected_position else [])
    for text in texts:
        rows = text.split(" ")[0]
        assert rows.count("w") + rows.count("b") == 18
        for rectangle in _rectangles_three_one(text):
            assert not rectangle & set(example.padding), (example.key, rectangle)
    assert example.caption_key == f"rules.quadrature.example.{example.key}"


def test_example_keys_are_unique() -> None:
    keys = [example.key for example in EXAMPLES]
    assert len(keys) == len(set(keys))


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.key)
def test_worked_example(example) -> None:
    """The engine reproduces the example: position, conversions, outcome, and undo."""
    game = Quadrature(setup=example.setup_position)
    assert game.position() == example.setup_position
    assert game.outcome() is None
    for text in example.moves:
        game.push_text(text)
    if example.expected_position is not None:
        assert game.position() == example.expected_position
        assert names(game.last_converted()) == example.converted
    assert game.outcome() == example.outcome_value()
    if example.illegal is not None:
        move = game.parse_move(example.illegal)
        assert move not in game.legal_moves()
        with pytest.raises(IllegalMoveError):
            game.push_text(example.illegal)
        assert isinstance(game.explain_illegal(move), str) and game.explain_illegal(move)
    for _ in example.moves:
        game.pop()
    assert game.position() == example.setup_position


def test_start_position() -> None:
    """White's nine on b9-j9, Black's on b3-j3, White to move, markers off."""
    game = Quadrature()
    assert game.position() == START == START_POSITION
    assert game.to_move == WHITE
    assert game.counts() == (9, 9) and game.reserves() == (7, 7) and game.scores() == (9, 9)
    assert tuple(game.markers) == (0, 0)
    assert game.piece_at(parse_square("b9")) == WHITE
    assert game.piece_at(parse_square("j3")) == BLACK
    assert game.piece_at(parse_square("a9")) == EMPTY
    assert game.outcome() is None


def test_black_may_start() -> None:
    game = Quadrature({"first": "black"})
    assert game.to_move == BLACK
    assert game.position() == START[:-7] + "b 0 0 0"
    assert "b3-b4" in game.sorted_legal_texts()
    assert len(game.legal_moves()) == 29


def test_square_helpers() -> None:
    assert square(0, 0) == 0 and square_name(0) == "a1"
    assert square_name(square(10, 10)) == "k11"
    assert parse_square("b9") == square(1, 8) == 8 * 11 + 1


# ----- basic moves ----------------------------------------------------------------------

@pytest.mark.parametrize("text", ["b9-b10", "c9-b10", "c9-d10", "e9-e10"])
def test_white_cannot_move_backwards(text: str) -> None:
    with pytest.raises(IllegalMoveError):
        Quadrature().push_text(text)


@pytest.mark.parametrize("text", ["b3-b2", "c3-b2", "c3-d2"])
def test_black_cannot_move_backwards(text: str) -> None:
    game = play(START, "b9-b8")
    with pytest.raises(IllegalMoveError):
        game.push_text(text)


@pytest.mark.parametrize("text", ["c9-b9", "c9-d9", "b3-b4", "a5-a4", "b9-b7", "b9-d8"])
def test_occupied_empty_foreign_or_far_moves_are_refused(text: str) -> None:
    """Onto a checker, from an empty point, with Black's checker, or more than one step."""
    with pytest.raises((IllegalMoveError, NotationError)):
        Quadrature().push_text(text)


def test_forward_onto_an_occupied_point_is_illegal() -> None:
    """Forward, diagonally or sideways, the target point must be empty."""
    game = play(START, "c9-c8", "b3-b4")
    for text in ("b9-c8", "d9-c8"):
        assert text not in game.sorted_legal_texts()
        with pytest.raises(IllegalMoveError):
            game.push_text(text)
    game = play(START, "c9-b8", "b3-b4")
    assert "b9-b8" not in game.sorted_legal_texts()
    with pytest.raises(IllegalMoveError):
        game.push_text("b9-b8")
    assert "b9-c9" in game.sorted_legal_texts()


def test_start_moves_of_one_checker() -> None:
    """b9 may go b8, a8, c8 or sideways to a9; c9 only forward and diagonally."""
    game = Quadrature()
    b9 = sorted(game.move_text(m) for m in game.moves_from(parse_square("b9")))
    assert b9 == ["b9-a8", "b9-a9", "b9-b8", "b9-c8"]
    c9 = sorted(game.move_text(m) for m in game.moves_from(parse_square("c9")))
    assert c9 == ["c9-b8", "c9-c8", "c9-d8"]


# ----- markers --------------------------------------------------------------------------

def test_marker_counts_quiet_sideways_moves_and_ignores_the_opponent() -> None:
    """Black 0 -> 1 -> (White's move leaves it) -> 2; White's own marker counts separately."""
    game = Quadrature(setup=padded("d6 f6", "d4 f4"))
    game.push_text("f4-g4")
    assert tuple(game.markers) == (0, 1)
    game.push_text("f6-g6")
    assert tuple(game.markers) == (1, 1)
    game.push_text("g4-h4")
    assert tuple(game.markers) == (1, 2)
    game.push_text("d6-d5")
    assert tuple(game.markers) == (0, 2)


def test_marker_two_forbids_quiet_sideways_moves() -> None:
    """With the marker on 2, no quiet sideways move is legal; a forward move clears it."""
    game = Quadrature(setup=padded("d6 f6", "d4 h4", markers=(1, 2)))
    texts = game.sorted_legal_texts()
    assert not any(t[1:].split("-")[0] == t.split("-")[1][1:] for t in texts), texts
    for text in ("d4-c4", "d4-e4", "h4-g4", "h4-i4", "i1-h1", "b2-c2"):
        with pytest.raises(IllegalMoveError):
            game.push_text(text)
    game.push_text("h4-h5")
    assert tuple(game.markers) == (1, 0)


def test_aggressive_sideways_move_is_allowed_on_two_and_clears_it() -> None:
    """h7-g7 squares d7 (d7 g7 d5 g5): legal on marker 2, and the marker goes to 0."""
    setup = padded("d7", "d5 g5 h7", markers=(0, 2))
    game = Quadrature(setup=setup)
    assert "h7-g7" in game.sorted_legal_texts()
    assert "h7-i7" not in game.sorted_legal_texts()
    game.push_text("h7-g7")
    assert names(game.last_converted()) == ["d7"]
    assert tuple(game.markers) == (0, 0)
    game.pop()
    game = Quadrature(setup=padded("d7", "d5 g5 h7", markers=(0, 1)))
    game.push_text("h7-g7")
    assert tuple(game.markers) == (0, 0)


def test_markers_round_trip_through_the_position_string() -> None:
    text = padded("d6 g6", "d4 g4", markers=(2, 1), ply=37)
    assert Quadrature(setup=text).position() == text
    assert tuple(Quadrature(setup=text).markers) == (2, 1)


# ----- squaring -------------------------------------------------------------------------

def test_suicide_is_checked_before_conversion() -> None:
    """e5-f6 would square d6, but it completes White's d8 f8 d6 rectangle: illegal."""
    game = Quadrature(setup=padded("d8 f8 d6", "e5 d4 f4"))
    assert "e5-f6" not in game.sorted_legal_texts()
    assert "e5-e6" in game.sorted_legal_texts()
    with pytest.raises(IllegalMoveError):
        game.push_text("e5-f6")


def test_sideways_suicide_is_illegal() -> None:
    """Black d5-e5 would be the fourth corner of White's c7 e7 c5: illegal."""
    game = Quadrature(setup=padded("c7 e7 c5", "d5"))
    assert "d5-e5" not in game.sorted_legal_texts()
    assert "d5-d6" in game.sorted_legal_texts()


def test_square_must_be_formed_this_turn() -> None:
    """After convert_into_square, White's e6 square on the new Black e6 is old: no conversion."""
    game = play(padded("c8 e8 g8 c6 e6", "g5 e4 h4"), "g5-h6")
    assert names(game.last_converted()) == ["e6"]
    game.push_text("a11-a10")
    assert names(game.last_converted()) == []
    assert game.piece_at(parse_square("e6")) == BLACK


def test_conversion_order_is_row_then_column() -> None:
    """f5-e6 squares c7 (c7 e7 c6) and h5 (h5 h6 e5): h5, on the lower row, goes first."""
    game = play(padded("c7 h5", "c6 e7 h6 e5 f5"), "f5-e6")
    assert names(game.last_converted()) == ["h5", "c7"]
    assert game.counts() == (7, 11)
    assert game.reserves() == (9, 5)


def test_empty_reserve_stops_conversion() -> None:
    """With one Black checker in reserve only h5 turns; White is left with 2 and loses."""
    setup = padded("c7 h5", "c6 e7 h6 e5 f5", white_total=3, black_total=15)
    game = Quadrature(setup=setup)
    assert game.counts() == (3, 15) and game.reserves() == (13, 1)
    game.push_text("f5-e6")
    assert names(game.last_converted()) == ["h5"]
    assert game.piece_at(parse_square("c7")) == WHITE
    assert game.counts() == (2, 16) and game.reserves() == (14, 0)
    assert game.outcome() == Outcome(BLACK, "annihilation")
    assert game.legal_moves() == []


def test_conversions_keep_eighteen_checkers() -> None:
    game = play(padded("c6 e6", "c8 e8 g5 e4 h4"), "g5-h6")
    assert sum(game.counts()) == 18
    assert game.counts() == (7, 11)


# ----- endings --------------------------------------------------------------------------

# Black e11 f11 wait for g11; h8-g9 squares White's g11 (f11 g11 f9 g9).
PLATE_WHITE = "g11 a5 b5 c5 i5 j5 k5 a4 b4"
PLATE_BLACK = "e11 f11 f9 h8 a1 b1 i1 j1 k1"


def test_home_plate_reached_by_conversion_wins() -> None:
    game = play(board(PLATE_WHITE, PLATE_BLACK), "h8-g9")
    assert names(game.last_converted()) == ["g11"]
    assert game.outcome() == Outcome(BLACK, "home_plate")
    assert game.legal_moves() == []


def test_home_plate_reached_sideways_wins() -> None:
    game = play(board("a5 b5 c5 i5 j5 k5 a4 b4 c4", "d11 f11 g11 a1 b1 i1 j1 k1 h2"), "d11-e11")
    assert game.outcome() == Outcome(BLACK, "home_plate")


def test_white_home_plate_win() -> None:
    """White's three on e1-g1 win for White just the same."""
    game = play(board("e1 g1 f2 a9 b9 c9 i9 j9 k9", "a7 b7 c7 i7 j7 k7 a6 b6 c6", "w"), "f2-f1")
    assert game.outcome() == Outcome(WHITE, "home_plate")


def test_annihilation_is_checked_before_home_plate() -> None:
    """The conversion of g11 both fills the plate and leaves White with 2: annihilation."""
    game = play(board("g11 a5 b5", "e11 f11 f9 h8 a1 b1 i1 j1 k1 c1 d2 e2 f2 g2 h2"), "h8-g9")
    assert game.counts() == (2, 16)
    assert game.outcome() == Outcome(BLACK, "annihilation")


NO_MOVES_BLACK = "d1 d5 e5 f5 g5 h5 i5 j5 k5 d6 e6 f6 g6 h6 i6"


def test_no_legal_move_loses() -> None:
    """White's a1 b1 c1 are hemmed in by the edge and by Black's d1."""
    game = play(board("a1 b1 c1", NO_MOVES_BLACK), "k5-k6")
    assert game.to_move == WHITE
    assert game.outcome() == Outcome(BLACK, "no_moves")
    assert game.legal_moves() == []


def test_marker_two_can_leave_no_legal_move() -> None:
    """White's a1 c1 i1 could only slide sideways, which marker 2 forbids."""
    black = "d5 e5 f5 g5 h5 i5 j5 k5 d6 e6 f6 g6 h6 i6 j6"
    game = play(board("a1 c1 i1", black, "b", (2, 0)), "k5-k6")
    assert game.outcome() == Outcome(BLACK, "no_moves")
    game = play(board("a1 c1 i1", black, "b", (1, 0)), "k5-k6")
    assert game.outcome() is None
    assert game.sorted_legal_texts() == ["a1-b1", "c1-b1", "c1-d1", "i1-h1", "i1-j1"]


def test_ply_limit_draw() -> None:
    """The 400th ply ends the game drawn; the 399th does not."""
    game = play(START[:-1] + "398", "b9-b8")
    assert game.outcome() is None
    assert game.position().endswith(" b 0 0 399")
    game.push_text("b3-b4")
    assert game.position().endswith(" w 0 0 400")
    assert game.outcome() == Outcome(None, "ply_limit")
    assert game.legal_moves() == []
    with pytest.raises(IllegalMoveError):
        game.push_text("c9-c8")
    game.pop()
    assert game.outcome() is None


def test_wins_are_checked_before_the_ply_limit() -> None:
    """On the 400th ply, reaching the plate or stalemating the opponent still wins."""
    plate = play(board(PLATE_WHITE, PLATE_BLACK, ply=399), "h8-g9")
    assert plate.outcome() == Outcome(BLACK, "home_plate")
    stuck = play(board("a1 b1 c1", NO_MOVES_BLACK, ply=399), "k5-k6")
    assert stuck.outcome() == Outcome(BLACK, "no_moves")


# ----- position strings and notation -------------------------------------------------------

def test_position_round_trips() -> None:
    for example in EXAMPLES:
        assert Quadrature(setup=example.setup_position).position() == example.setup_position
    text = padded("d6 g6", "d4 g4", to_move="w", markers=(1, 2), ply=123)
    game = Quadrature(setup=text)
    assert game.position() == text
    assert game.to_move == WHITE


_ROWS = START.split(" ")[0]
MALFORMED = [
    "",
    "garbage",
    START.replace(" w ", " x "),
    START.replace(" 0 0 0", " 3 0 0"),
    START.replace(" 0 0 0", " 0 -1 0"),
    START.replace(" 0 0 0", " 0 0 -1"),
    START.replace(" 0 0 0", " 0 0 x"),
    START.replace(" 0 0 0", " 0 0"),
    START + " 5",
    _ROWS + " w 0 0",
    "/".join(_ROWS.split("/")[1:]) + " w 0 0 0",          # ten rows
    _ROWS.replace(".wwwwwwwww.", ".wwwwwwwww") + " w 0 0 0",  # a short row
    _ROWS.replace(".wwwwwwwww.", ".wwwwwwwwwx") + " w 0 0 0",  # unknown cell
    _ROWS.replace("...........", "wwwwwwww...", 1) + " w 0 0 0",  # 17 White checkers
]


@pytest.mark.parametrize("text", MALFORMED)
def test_malformed_positions_are_refused(text: str) -> None:
    with pytest.raises(PositionError):
        Quadrature(setup=text)


def test_notation_round_trips_at_the_start() -> None:
    game = Quadrature()
    for move in game.legal_moves():
        text = game.move_text(move)
        assert game.parse_move(text) == move
        assert game.move_text(game.parse_move(text)) == text
    assert "b9-b8" in game.sorted_legal_texts()


@pytest.mark.parametrize("text", ["", "b9", "b9b8", "b9-", "-b8", "z9-b8", "b12-b8", "b0-b1",
                                  "b9-b8-b7", "99-88", "b9_b8", "hello"])
def test_garbage_notation_is_refused(text: str) -> None:
    with pytest.raises(NotationError):
        Quadrature().parse_move(text)


def test_unicode_digits_are_a_notation_error() -> None:
    """b9-b² looks numeric to str.isdigit() but is not a point."""
    with pytest.raises(NotationError):
        Quadrature().parse_move("b9-b²")
