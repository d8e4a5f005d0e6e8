"""Golden tests for the rules page's worked examples (``examples.py``).

Each example is replayed move by move and the position after every move
is compared with one built by hand here from the cells the move changes,
worked out in the comments; the sentences the page shows for it (title,
caption, one per move, in English and Russian) must exist.
"""

from __future__ import annotations

import pytest

from tessera import i18n
from tessera.core import registry  # noqa: F401  (registers every game's strings.json with the catalog)
from tessera.core.game import IllegalMoveError
from tessera.games.corners import TRIANGLES, Corners
from tessera.games.corners.examples import EXAMPLES, CornersExample
from tessera.games.corners.geometry import PASS

BY_KEY = {example.key: example for example in EXAMPLES}


def position(to_move: str, phase: str = "play", o: str = "", O: str = "", t: str = "", T: str = "",
             rows: str | None = None) -> str:
    """A position string from cell lists per character (or from ``rows``, rows 8 to 1)."""
    grid = [list(line) for line in rows.split("/")] if rows else [["."] * 8 for _ in range(8)]
    for cells, char in ((o, "o"), (O, "O"), (t, "t"), (T, "T")):
        for cell in cells.split():
            grid[8 - int(cell[1])]["abcdefgh".index(cell[0])] = char
    return "/".join("".join(line) for line in grid) + f" {to_move} {phase}"


def replay(example: CornersExample) -> list[Corners]:
    """The game after each step, the start included (copies)."""
    game = Corners(setup=example.start)
    games = [game.copy()]
    for text in example.moves:
        game.push_text(text)
        games.append(game.copy())
    return games


def test_the_required_examples_exist() -> None:
    assert {"upright", "tilted", "enemy_inside", "final_round"} <= set(BY_KEY)


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.key)
def test_every_example_is_worded_in_both_languages(example: CornersExample) -> None:
    keys = [example.title_key, example.caption_key] + [example.step_key(n) for n in range(1, len(example.moves) + 1)]
    for lang in ("en", "ru"):
        table = i18n.catalog()[lang]
        for key in keys:
            assert table.get(key), (lang, key)
    with pytest.raises(IndexError):
        example.step_key(len(example.moves) + 1)


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.key)
def test_every_example_replays_and_its_start_round_trips(example: CornersExample) -> None:
    games = replay(example)
    assert games[0].position() == example.start
    for game in games:
        assert Corners(setup=game.position()).position() == game.position()
    assert [games[0].move_text(m) for m in games[-1].move_stack] == list(example.moves), \
        "the page writes every move in its one canonical text"


def test_upright_capture_step_by_step() -> None:
    """Circles b2 d2 b4, triangles f6 g7.  d4 completes the 3x3 square
    b2 d2 d4 b4; after g5 circles capture it: the corners are painted and
    the five empty cells inside (c2 b3 c3 d3 c4: columns b-d, rows 2-4,
    less the corners) are filled with unpainted circles."""
    games = replay(BY_KEY["upright"])
    assert games[1].position() == position("t", o="b2 d2 b4 d4", t="f6 g7")
    assert games[2].position() == position("o", o="b2 d2 b4 d4", t="f6 g7 g5")
    assert games[3].position() == position("t", O="b2 d2 d4 b4", o="c2 b3 c3 d3 c4", t="f6 g7 g5")
    assert games[3].scores() == (4, 0)


def test_a_rectangle_waits_for_the_next_turn() -> None:
    """The square is complete after d4, but a turn is one action: it is the
    triangles' turn then, and circles capture on the turn after."""
    game = replay(BY_KEY["upright"])[1]
    assert game.to_move == TRIANGLES
    with pytest.raises(IllegalMoveError):
        game.push_text("xb2d2d4b4")


def test_tilted_capture_step_by_step() -> None:
    """b1 d2 c4 a3: P = b1 (1,0), u = (2,1), v = (-1,2), u·u = v·v = 5.
    Inside: b2 (0,1)->(1,2), c2 (1,1)->(3,1), b3 (0,2)->(2,4), c3 (1,2)->(4,3),
    each pair of projections within 0..5.  a2 (-1,1) projects to -1 on u,
    c1 (1,0) to -1 on v: their cells are cut by the sides, their centres are
    outside, so they stay empty."""
    games = replay(BY_KEY["tilted"])
    assert games[1].position() == position("t", o="b1 d2 c4 a3", t="f6 g6")
    assert games[2].position() == position("o", o="b1 d2 c4 a3", t="f6 g6 f7")
    assert games[3].position() == position("t", O="b1 d2 c4 a3", o="b2 c2 b3 c3", t="f6 g6 f7")


def test_capture_over_enemy_pieces_step_by_step() -> None:
    """c2 (painted) f2 f5 c5: columns c-f, rows 2-5, 16 cells.  Corners 4,
    triangles d3 e4 stay, the other 10 are filled: d2 e2 c3 e3 f3 c4 d4 f4
    d5 e5.  Three corners get paint (c2 had it), so the score is 4."""
    games = replay(BY_KEY["enemy_inside"])
    assert games[1].position() == position("t", O="c2 f2 f5 c5", o="d2 e2 c3 e3 f3 c4 d4 f4 d5 e5",
                                           t="d3 e4 h8")
    assert games[1].scores() == (4, 0)


def test_final_round_step_by_step() -> None:
    """h8 is the only empty cell and no circle is unpainted, so circles can
    only place there (a board corner is inside a rectangle only as a
    corner: no capture can fill it).  That starts the final round,
    triangles first.  Their capture a1 c1 c3 a3 paints a1, their only
    unpainted piece.  Circles' one unpainted piece is h8, and a rectangle
    with a corner on the board's corner h8 has its sides along row 8 and
    column h; row 8 holds triangles only, so circles cannot paint: pass.
    Counting the start: 28 painted circles, 34 painted triangles; +1 for a1."""
    example = BY_KEY["final_round"]
    games = replay(example)
    start = example.start.split()[0]
    assert games[0].legal_moves() == [games[0].parse_move("h8")]
    assert games[0].scores() == (28, 34)
    assert games[1].position() == position("t", "final 2", o="h8", rows=start)
    assert games[2].position() == position("o", "final 1", o="h8", T="a1", rows=start)
    assert games[2].legal_moves() == [PASS]
    assert games[3].position() == position("t", "final 0", o="h8", T="a1", rows=start)
    assert games[3].scores() == (28, 35)
    assert games[3].outcome().winner == TRIANGLES
    assert games[3].outcome().reason == "final_round"
    assert games[3].legal_moves() == []

