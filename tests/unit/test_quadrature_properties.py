"""Property tests for the Quadrature engine, plus a slow reference model.

Random games are driven by hypothesis-drawn indices into the legal move
list, so a failing game shrinks to a short, readable move sequence.

``Reference`` below is a deliberately naive second implementation of the
rules (lists, loops, no bitboards), written from the rules document and the
Quadrature section of RULINGS.md only.  The differential test plays the
engine and the reference side by side and compares every legal move list,
position string, conversion list and outcome: two independent readings of
the rules must agree move for move.

Budgets are small (these tests also run in Pyodide under Node, about three
times slower than CPython).
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tessera.core.game import Outcome
from tessera.core.record import Record
from tessera.games.quadrature import Quadrature
from tessera.games.quadrature.rules import square_name

SIZE = 11
EMPTY, WHITE, BLACK = -1, 0, 1
CHECKERS = 16
PLY_LIMIT = 400
# Rows (0-based) of the home plates: White's is e11-g11, Black's e1-g1.
PLATE_ROW = {WHITE: 10, BLACK: 0}
PLATE_COLS = (4, 5, 6)
FORWARD = {WHITE: -1, BLACK: 1}

SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _name(sq: int) -> str:
    return "abcdefghijk"[sq % SIZE] + str(sq // SIZE + 1)


class Reference:
    """The rules read literally: one list of 121 cells, everything recomputed."""

    def __init__(self, position: str) -> None:
        rows_text, side, white_marker, black_marker, ply = position.split(" ")
        rows = rows_text.split("/")
        self.board = [EMPTY] * (SIZE * SIZE)
        for index, row_text in enumerate(rows):
            row = SIZE - 1 - index
            for col, char in enumerate(row_text):
                self.board[row * SIZE + col] = {".": EMPTY, "w": WHITE, "b": BLACK}[char]
        self.side = WHITE if side == "w" else BLACK
        self.markers = [int(white_marker), int(black_marker)]
        self.ply = int(ply)
        self.converted: list[int] = []
        self.result: Outcome | None = None

    def position(self) -> str:
        rows = []
        for row in range(SIZE - 1, -1, -1):
            rows.append("".join(".wb"[self.board[row * SIZE + col] + 1] for col in range(SIZE)))
        return (f"{'/'.join(rows)} {'wb'[self.side]} {self.markers[0]} "
                f"{self.markers[1]} {self.ply}")

    def count(self, player: int) -> int:
        return self.board.count(player)

    def _rectangle(self, board: list[int], sq: int, colour: int,
                   active: set[int] | None = None) -> bool:
        """Is ``sq`` a corner of a rectangle whose other three corners are ``colour``?

        With ``active`` given, at least one of those three must be in it.
        """
        col, row = sq % SIZE, sq // SIZE
        for col2 in range(SIZE):
            if col2 == col or board[row * SIZE + col2] != colour:
                continue
            for row2 in range(SIZE):
                if row2 == row:
                    continue
                a, b, c = row * SIZE + col2, row2 * SIZE + col, row2 * SIZE + col2
                if board[b] == colour and board[c] == colour:
                    if active is None or a in active or b in active or c in active:
                        return True
        return False

    def _convert(self, board: list[int], mover: int, moved_to: int) -> list[int]:
        """Convert on ``board`` in place; the converted squares in order."""
        enemy = 1 - mover
        active = {moved_to}
        converted = []
        while CHECKERS - board.count(mover) > 0:
            found = None
            for sq in range(SIZE * SIZE):  # a1, b1, ..., k11: row, then column
                if board[sq] == enemy and self._rectangle(board, sq, mover, active):
                    found = sq
                    break
            if found is None:
                break
            board[found] = mover
            active.add(found)
            converted.append(found)
        return converted

    def generate(self) -> list[tuple[int, int]]:
        """Legal (from, to) pairs for the side to move, ignoring game end."""
        me, enemy = self.side, 1 - self.side
        moves = []
        for frm in range(SIZE * SIZE):
            if self.board[frm] != me:
                continue
            col, row = frm % SIZE, frm // SIZE
            steps = [(0, FORWARD[me]), (-1, FORWARD[me]), (1, FORWARD[me]), (-1, 0), (1, 0)]
            for dc, dr in steps:
                c2, r2 = col + dc, row + dr
                if not (0 <= c2 < SIZE and 0 <= r2 < SIZE):
                    continue
                to = r2 * SIZE + c2
                if self.board[to] != EMPTY:
                    continue
                board = list(self.board)
                board[frm] = EMPTY
                board[to] = me
                if self._rectangle(board, to, enemy):
                    continue  # suicide, tested before any conversion
                if dr == 0 and self.markers[me] == 2 and not self._convert(board, me, to):
                    continue  # a third non-aggressive sideways move in a row
                moves.append((frm, to))
        return moves

    def legal(self) -> list[tuple[int, int]]:
        return [] if self.result is not None else self.generate()

    def push(self, frm: int, to: int) -> None:
        me = self.side
        self.board[frm] = EMPTY
        self.board[to] = me
        self.converted = self._convert(self.board, me, to)
        sideways = frm // SIZE == to // SIZE
        self.markers[me] = self.markers[me] + 1 if sideways and not self.converted else 0
        self.side = 1 - me
        self.ply += 1
        self.result = self._judge(me)

    def _judge(self, mover: int) -> Outcome | None:
        enemy = 1 - mover
        if self.count(enemy) <= 2:
            return Outcome(mover, "annihilation")
        plate_row = PLATE_ROW[enemy]
        if all(self.board[plate_row * SIZE + col] == mover for col in PLATE_COLS):
            return Outcome(mover, "home_plate")
        if not self.generate():
            return Outcome(mover, "no_moves")
        if self.ply >= PLY_LIMIT:
            return Outcome(None, "ply_limit")
        return None


def _texts(pairs: list[tuple[int, int]]) -> list[str]:
    return sorted(f"{_name(a)}-{_name(b)}" for a, b in pairs)


def _play(game: Quadrature, picks: list[int]) -> list:
    """Play moves chosen by ``picks`` (indices modulo the legal count)."""
    played = []
    for pick in picks:
        moves = game.legal_moves()
        if not moves:
            break
        move = moves[pick % len(moves)]
        game.push(move)
        played.append(move)
    return played


picks_strategy = st.lists(st.integers(min_value=0, max_value=10_000), min_size=1, max_size=120)


@SETTINGS
@given(picks=picks_strategy, first=st.sampled_from(["white", "black"]))
def test_random_games_keep_the_invariants(picks: list[int], first: str) -> None:
    """Every position of a random game has 18 checkers, consistent reserves and markers 0..2."""
    game = Quadrature({"first": first})
    for pick in picks:
        white, black = game.counts()
        assert white + black == 18
        assert game.reserves() == (16 - white, 16 - black)
        assert game.scores() == (white, black)
        assert all(marker in (0, 1, 2) for marker in game.markers)
        assert game.position().split(" ")[2:4] == [str(m) for m in game.markers]
        moves = game.legal_moves()
        if not moves:
            assert game.outcome() is not None
            break
        assert game.outcome() is None
        game.push(moves[pick % len(moves)])
        assert len(game.last_converted()) == len(set(game.last_converted()))


@SETTINGS
@given(picks=picks_strategy)
def test_push_pop_restores_every_position(picks: list[int]) -> None:
    """Popping each move gives back exactly the position before it."""
    game = Quadrature()
    before = []
    for pick in picks:
        moves = game.legal_moves()
        if not moves:
            break
        before.append(game.position())
        game.push(moves[pick % len(moves)])
    while before:
        game.pop()
        assert game.position() == before.pop()
    assert game.position() == Quadrature().position()


@SETTINGS
@given(picks=picks_strategy)
def test_record_replay_gives_the_same_position(picks: list[int]) -> None:
    """A record written from a game replays, through JSON, to the same position."""
    game = Quadrature()
    _play(game, picks)
    text = Record.from_game(game).dumps()
    replayed = Record.loads(text).replay()
    assert replayed.position() == game.position()
    assert replayed.outcome() == game.outcome()


@SETTINGS
@given(picks=picks_strategy)
def test_notation_and_position_round_trip(picks: list[int]) -> None:
    """Every legal move's text parses back; the position string rebuilds the game."""
    game = Quadrature()
    _play(game, picks)
    for move in game.legal_moves():
        assert game.parse_move(game.move_text(move)) == move
    rebuilt = Quadrature(setup=game.position())
    assert rebuilt.position() == game.position()
    assert rebuilt.sorted_legal_texts() == game.sorted_legal_texts()
    assert rebuilt.outcome() == game.outcome()
    assert rebuilt.stable_hash() == game.stable_hash()


@SETTINGS
@given(picks=picks_strategy)
def test_copy_is_equal_and_independent(picks: list[int]) -> None:
    """A copy has the same position and hash, and moving it leaves the original alone."""
    game = Quadrature()
    _play(game, picks)
    clone = game.copy()
    assert clone.position() == game.position()
    assert clone.stable_hash() == game.stable_hash()
    moves = clone.legal_moves()
    if moves:
        original = game.position()
        clone.push(moves[0])
        assert game.position() == original


@SETTINGS
@given(picks=picks_strategy, first=st.sampled_from(["white", "black"]))
def test_engine_agrees_with_the_reference_model(picks: list[int], first: str) -> None:
    """Legal moves, positions, conversions and outcomes match a naive reading of the rules."""
    game = Quadrature({"first": first})
    ref = Reference(game.position())
    for pick in picks:
        assert game.sorted_legal_texts() == _texts(ref.legal())
        moves = game.legal_moves()
        if not moves:
            break
        move = moves[pick % len(moves)]
        text = game.move_text(move)
        game.push(move)
        frm, to = text.split("-")
        ref.push(*(_square_index(part) for part in (frm, to)))
        assert game.position() == ref.position(), text
        assert [square_name(sq) for sq in game.last_converted()] == [_name(sq) for sq in ref.converted]
        assert game.outcome() == ref.result


def _square_index(text: str) -> int:
    return (int(text[1:]) - 1) * SIZE + "abcdefghijk".index(text[0])


# Random play rarely reaches conversions, so the reference is also compared on
# crowded random positions where rectangles abound.
@st.composite
def crowded_positions(draw) -> str:
    cells = draw(st.permutations(range(SIZE * SIZE)))
    white = draw(st.integers(min_value=3, max_value=15))
    black = 18 - white
    board = ["."] * (SIZE * SIZE)
    for sq in cells[:white]:
        board[sq] = "w"
    for sq in cells[white:white + black]:
        board[sq] = "b"
    rows = ["".join(board[row * SIZE:(row + 1) * SIZE]) for row in range(SIZE - 1, -1, -1)]
    side = draw(st.sampled_from("wb"))
    markers = draw(st.tuples(st.integers(0, 2), st.integers(0, 2)))
    return f"{'/'.join(rows)} {side} {markers[0]} {markers[1]} {draw(st.integers(0, 390))}"


def _plate_full(position: str) -> bool:
    """A setup where some side already holds the other's plate is outside the tested ground."""
    rows = position.split(" ")[0].split("/")
    return rows[0][4:7] == "bbb" or rows[10][4:7] == "www"


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=crowded_positions(), picks=st.lists(st.integers(0, 10_000), min_size=1, max_size=6))
def test_reference_agrees_on_crowded_positions(position: str, picks: list[int]) -> None:
    """On random crowded boards the engine's moves and conversions match the reference."""
    if _plate_full(position):
        return
    game = Quadrature(setup=position)
    ref = Reference(position)
    for pick in picks:
        ref_moves = ref.generate()
        engine_texts = game.sorted_legal_texts()
        if game.outcome() is None and ref.result is None:
            assert engine_texts == _texts(ref_moves), position
        if not engine_texts:
            break
        text = engine_texts[pick % len(engine_texts)]
        before = game.position()
        game.push_text(text)
        frm, to = text.split("-")
        ref.push(_square_index(frm), _square_index(to))
        assert game.position() == ref.position(), (before, text)
        converted = [square_name(sq) for sq in game.last_converted()]
        assert converted == [_name(sq) for sq in ref.converted], (before, text)
        assert game.outcome() == ref.result, (before, text)
