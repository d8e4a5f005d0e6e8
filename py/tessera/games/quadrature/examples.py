"""Worked examples of Quadrature, as data for the rules page and the tests.

Each example is a start position, the moves played from it, the position
they lead to, the checkers the last move converted (in the order the engine
converts them), optionally a move that must be illegal in the position the
moves reach, and optionally the game's outcome there.  The rules page draws
the positions; ``tests/unit/test_quadrature_golden.py`` replays every one,
so a picture on the rules page can never disagree with the engine.

Where the examples come from
----------------------------
The rules document draws most of its examples as 6x6 fragments of the
board.  Each fragment is placed on the 11x11 board with its top towards
White (White moves down the board, Black moves up), fragment column 0 on
column c and fragment row 0 (its top) on row 8:

    board column = "cdefgh"[fragment column]
    board row    = 8 - fragment row            (rows 8 .. 3)

The fragments alone would end the game on the spot (a side with two or
fewer checkers has lost) and would not add up to the 18 checkers a real
game always has on the board, so every fragment is padded to 9 White and
9 Black checkers: White's extra checkers fill rows 11, 10, 9 in columns
a, b, i, j, k (in that order), Black's fill rows 1, 2 in the same columns.
Padding rows and columns share no row and no column with the fragment
(rows 3-8, columns c-h), so a rectangle through a padding checker has all
four corners among the padding; and no row holds padding of both colours,
so every such rectangle is one colour or two-and-two and can never square
anything.  The padding keeps off both home plates (e-g).  The tests check
all of this again, rectangle by rectangle.

The two winning examples, the basic move and the start position use the
whole board as the document draws it, without padding.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tessera.core.game import Outcome

COLUMNS = "abcdefghijk"
SIZE = 11

WHITE_PADDING = ("a11", "b11", "i11", "j11", "k11", "a10", "b10", "i10", "j10", "k10",
                 "a9", "b9", "i9", "j9", "k9")
BLACK_PADDING = ("a1", "b1", "i1", "j1", "k1", "a2", "b2", "i2", "j2", "k2")
SIDE_TOTAL = 9
"""Each padded example has this many checkers of each colour (as at the start)."""


@dataclass(frozen=True)
class WorkedExample:
    key: str
    setup_position: str
    moves: list[str]
    expected_position: str | None
    """The position after ``moves``; None when no move is played."""
    converted: list[str]
    """Squares converted by the last move, in conversion order."""
    illegal: str | None
    """A move that is illegal in the position reached after ``moves``."""
    outcome: tuple | None
    """``(winner, reason)`` after ``moves``, or None while the game goes on."""
    caption_key: str
    padding: tuple[str, ...] = field(default=())
    """Squares of checkers added far from the action only to make a full game."""

    def outcome_value(self) -> Outcome | None:
        return Outcome(*self.outcome) if self.outcome else None


def position(white: str, black: str, to_move: str = "b", markers: tuple[int, int] = (0, 0),
             ply: int = 0) -> str:
    """A position string from space-separated square names of each colour."""
    cells = ["."] * (SIZE * SIZE)
    for char, squares in (("w", white), ("b", black)):
        for name in squares.split():
            col, row = COLUMNS.index(name[0]), int(name[1:]) - 1
            index = row * SIZE + col
            if cells[index] != ".":
                raise ValueError(f"{name} is listed twice")
            cells[index] = char
    rows = ["".join(cells[row * SIZE:(row + 1) * SIZE]) for row in range(SIZE - 1, -1, -1)]
    return f"{'/'.join(rows)} {to_move} {markers[0]} {markers[1]} {ply}"


def _padding(white: str, black: str) -> tuple[str, str]:
    """Padding squares that bring each colour of a fragment to ``SIDE_TOTAL``."""
    white_pad = WHITE_PADDING[:SIDE_TOTAL - len(white.split())]
    black_pad = BLACK_PADDING[:SIDE_TOTAL - len(black.split())]
    return " ".join(white_pad), " ".join(black_pad)


def _fragment(key: str, white: str, black: str, moves: list[str], white_after: str | None,
              black_after: str | None, converted: list[str], *, to_move: str = "b",
              markers: tuple[int, int] = (0, 0), markers_after: tuple[int, int] = (0, 0),
              illegal: str | None = None) -> WorkedExample:
    """A padded fragment example; the padding is worked out from the setup."""
    white_pad, black_pad = _padding(white, black)
    setup = position(f"{white} {white_pad}", f"{black} {black_pad}", to_move, markers)
    expected = None
    if moves:
        side = to_move if len(moves) % 2 == 0 else "wb"[to_move == "w"]
        expected = position(f"{white_after} {white_pad}", f"{black_after} {black_pad}", side,
                            markers_after, len(moves))
    return WorkedExample(key, setup, moves, expected, converted, illegal, None,
                         f"rules.quadrature.example.{key}",
                         tuple((white_pad + " " + black_pad).split()))


START_WHITE = "b9 c9 d9 e9 f9 g9 h9 i9 j9"
START_BLACK = "b3 c3 d3 e3 f3 g3 h3 i3 j3"
START_POSITION = position(START_WHITE, START_BLACK, "w")

# The two full-board winning positions as the document draws them (final state).
_HOME_WHITE = "c7 d7 e7 g7 h7 e4 h4 i4 g2 h2 f1"
_HOME_BLACK_AFTER = "e11 f11 g11 c9 i9 j9 j5"
_HOME_BLACK_BEFORE = "e11 f10 g11 c9 i9 j9 j5"          # one step short of the plate
_ANNIHILATION_WHITE_AFTER = "b7 c6"
_ANNIHILATION_BLACK_AFTER = "c9 h9 i9 d7 e7 f7 g7 i7 e5 g5 h5 i5 c4 d4 e4 h4"
_ANNIHILATION_WHITE_BEFORE = "b7 c6 d7"                  # d7 is about to be squared
_ANNIHILATION_BLACK_BEFORE = "c9 h9 i9 e7 f7 g7 i7 e5 g5 h5 i5 c4 d4 f3 h4"


def _build() -> list[WorkedExample]:
    examples = [
        # White's first move in the document: one point diagonally forward.
        WorkedExample(
            "basic_move", START_POSITION, ["i9-j8"],
            position("b9 c9 d9 e9 f9 g9 h9 j8 j9", START_BLACK, "b", ply=1),
            [], None, None, "rules.quadrature.example.basic_move"),
        # Black's diagonal f4-g5 closes the rectangle d7 g7 d5 g5 on White's d7.
        _fragment("square_one", "d7", "g7 d5 f4", ["f4-g5"],
                  "", "d7 g7 d5 g5", ["d7"]),
        # One move squares two White checkers at once (d7 and h7 share row 7).
        _fragment("square_two", "d7 h7", "f6 d4 f4 h4", ["f6-f7"],
                  "", "d7 f7 h7 d4 f4 h4", ["d7", "h7"]),
        # The chain: g5-h6 squares e6; the new Black e6 then squares c6.
        _fragment("chain_reaction", "c6 e6", "c8 e8 g5 e4 h4", ["g5-h6"],
                  "", "c8 e8 c6 e6 h6 e4 h4", ["e6", "c6"]),
        # Marker: a quiet sideways move turns Black's marker to 1.
        _fragment("marker_one", "d6 f6", "d4 f4", ["f4-g4"],
                  "d6 f6", "d4 g4", [], markers_after=(0, 1)),
        # Black sideways, White sideways, Black sideways again: Black's marker 2.
        _fragment("marker_two", "d6 f6", "d4 f4", ["f4-g4", "f6-g6", "g4-h4"],
                  "d6 g6", "d4 h4", [], markers_after=(1, 2)),
        # A forward (here diagonal) move clears the marker; White's stays.
        _fragment("marker_clear", "d6 g6", "d4 g4", ["g4-h5"],
                  "d6 g6", "d4 h5", [], markers=(1, 1), markers_after=(1, 0)),
        # Rectangles of any shape and size square a checker.
        _fragment("shape_wide", "c6", "h6 c5 h4", ["h4-h5"],
                  "", "c6 h6 c5 h5", ["c6"]),
        _fragment("shape_tall", "e4", "e7 g6 g4", ["g6-g7"],
                  "", "e7 g7 e4 g4", ["e4"]),
        _fragment("shape_large", "g7", "c6 c3 g3", ["c6-c7"],
                  "", "c7 g7 c3 g3", ["g7"]),
        _fragment("shape_small", "f5", "e6 f6 e4", ["e4-e5"],
                  "", "e6 f6 e5 f5", ["f5"]),
        # e5-f6 would complete White's d8 f8 d6 rectangle: illegal, even though it
        # would also square d6 with d4 and f4.
        _fragment("suicide", "d8 f8 d6", "e5 d4 f4", [], None, None, [],
                  illegal="e5-f6"),
        # g5-h6 squares e6; the new Black e6 sits inside White's c8 e8 c6 rectangle
        # and stays there.
        _fragment("convert_into_square", "c8 e8 g8 c6 e6", "g5 e4 h4", ["g5-h6"],
                  "c8 e8 g8 c6", "e6 h6 e4 h4", ["e6"]),
    ]
    # White's answer to the previous example: the sideways g8-h8 squares h6
    # (c8 h8 c6), and the new White h6 squares e6 (e8 h8 h6).  Starting from
    # the previous example's result keeps its padding.
    previous = examples[-1]
    white_pad, black_pad = _padding("c8 e8 g8 c6 e6", "g5 e4 h4")
    examples.append(WorkedExample(
        "chain_reply", previous.expected_position or "", ["g8-h8"],
        position(f"c8 e8 h8 c6 e6 h6 {white_pad}", f"e4 h4 {black_pad}", "b", ply=2),
        ["h6", "e6"], None, None, "rules.quadrature.example.chain_reply", previous.padding))
    # The full-board endings.  f10-f11 completes Black's three on e11-g11.
    examples.append(WorkedExample(
        "win_home_plate", position(_HOME_WHITE, _HOME_BLACK_BEFORE, "b"), ["f10-f11"],
        position(_HOME_WHITE, _HOME_BLACK_AFTER, "w", ply=1),
        [], None, (1, "home_plate"), "rules.quadrature.example.win_home_plate"))
    # f3-e4 squares d7 (d7 e7 d4 e4), leaving White b7 and c6 only.
    examples.append(WorkedExample(
        "win_annihilation",
        position(_ANNIHILATION_WHITE_BEFORE, _ANNIHILATION_BLACK_BEFORE, "b"), ["f3-e4"],
        position(_ANNIHILATION_WHITE_AFTER, _ANNIHILATION_BLACK_AFTER, "w", ply=1),
        ["d7"], None, (1, "annihilation"), "rules.quadrature.example.win_annihilation"))
    return examples


EXAMPLES: list[WorkedExample] = _build()
"""In the order the rules page shows them."""
