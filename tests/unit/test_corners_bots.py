"""Corners bots: every level answers legally, the final round is played
exactly, captures are seen, searches leave the game as they found it,
and every bot keeps its move-time cap (on a fake clock: nothing here
depends on the machine's speed)."""

from __future__ import annotations

import pytest

from tessera.bots.base import Bot
from tessera.bots.registry import bot_from_spec, levels_for, make_bot
from tessera.core.rng import SeededRandom
from tessera.games.corners import CIRCLES, Corners
from tessera.games.corners.geometry import CAPTURE_BASE, PASS, RECTANGLES
from tessera.games.corners.planner import CornersMctsBot
from tessera.games.corners.strategy import best_final_move, placement_gain

LEVELS = levels_for("corners")


def unlimited(level_key: str, seed: int = 0) -> Bot:
    """A level's bot with no time limit and, for a tree search, a fixed
    number of iterations, so its answer does not depend on speed."""
    chosen = next(lv for lv in LEVELS if lv.key == level_key)
    params = dict(chosen.params)
    if "mcts" in chosen.bot:
        params["max_iterations"] = 60
    return make_bot(chosen.bot, seed, 0, **params)


def played(seed: int, plies: int) -> Corners:
    game = Corners()
    rng = SeededRandom(seed)
    while game.ply < plies and not game.is_over():
        game.push_unchecked(rng.choice(game.legal_moves()))
    return game


def checkerboard(unpainted: str, to_move: str, phase: str) -> str:
    """A full board: painted circles where col + row is even, painted
    triangles elsewhere, the ``unpainted`` cells without paint."""
    grid = [["O" if (col + row) % 2 == 0 else "T" for col in range(8)] for row in range(8)]
    for cell in unpainted.split():
        col, row = "abcdefgh".index(cell[0]), int(cell[1]) - 1
        grid[row][col] = grid[row][col].lower()
    return "/".join("".join(grid[row]) for row in range(7, -1, -1)) + f" {to_move} {phase}"


def test_levels_are_named_weakest_first() -> None:
    assert [lv.key for lv in LEVELS][:3] == ["easy", "medium", "hard"]
    assert [lv.movetime_ms for lv in LEVELS] == sorted(lv.movetime_ms for lv in LEVELS)


@pytest.mark.parametrize("level_key", [lv.key for lv in LEVELS])
@pytest.mark.parametrize("plies", [0, 20, 45])
def test_every_level_answers_a_legal_move_and_leaves_the_game(level_key: str, plies: int) -> None:
    game = played(plies + 1, plies)
    before = game.position()
    move = unlimited(level_key, seed=2).choose(game)
    assert game.position() == before
    assert game.is_legal(move)


def most_paint(game: Corners) -> int:
    """The most corners one final-round move of the side to move paints, by trying each."""
    best = 0
    for move in game.legal_moves():
        before = game.scores()[game.to_move]
        game.push(move)
        best = max(best, game.scores()[1 - game.to_move] - before)
        game.pop()
    return best


@pytest.mark.parametrize("level_key", [lv.key for lv in LEVELS])
@pytest.mark.parametrize("unpainted", ["c3 a1 c1 a3 e1 e5 h8", "b2 d4 f6 h2", "a1 b2", "g1 e3 c5 h4 b6"])
def test_in_the_final_round_every_level_paints_the_most(level_key: str, unpainted: str) -> None:
    """No piece is added in the final round, so each side's best turn is
    the capture that paints most; a bot that cannot paint passes."""
    for to_move in ("o", "t"):
        game = Corners(setup=checkerboard(unpainted, to_move, "final 2"))
        move = unlimited(level_key).choose(game)
        mover, before = game.to_move, game.scores()[game.to_move]
        game.push(move)
        painted = game.scores()[mover] - before
        game.pop()
        assert painted == most_paint(game), (to_move, game.move_text(move))
        assert (move == PASS) == (most_paint(game) == 0)


def test_best_final_move_passes_only_when_nothing_paints() -> None:
    game = Corners(setup=checkerboard("", "o", "final 2"))
    assert best_final_move(game) == PASS
    game = Corners(setup=checkerboard("a1", "o", "final 1"))
    assert CAPTURE_BASE <= best_final_move(game) < PASS


def test_a_capture_in_hand_that_paints_four_is_taken() -> None:
    """Circles hold the square b2 d2 d4 b4 and triangles nothing: the
    capture paints four and fills five; the one-ply levels take it."""
    grid = [["."] * 8 for _ in range(8)]
    for cell in ("b2", "d2", "d4", "b4"):
        grid[int(cell[1]) - 1]["abcdefgh".index(cell[0])] = "o"
    grid[7][7] = "t"
    game = Corners(setup="/".join("".join(grid[row]) for row in range(7, -1, -1)) + " o play")
    capture = game.parse_move("xb2d2d4b4")
    for key in ("medium",):
        assert unlimited(key).choose(game) == capture
    assert game.to_move == CIRCLES
    # The tree search's priors rank it first.
    moves = game.legal_moves()
    priors = CornersMctsBot()._priors(game, moves)
    assert moves[priors.index(max(priors))] == capture


def counted_placement_gain(game: Corners, cell: int) -> float:
    """``placement_gain`` counted plainly: every rectangle with a corner on
    ``cell``, its other three corners counted piece by piece."""
    me, other = game.to_move, 1 - game.to_move
    gain = 0.0
    for rect in RECTANGLES:
        if cell not in rect.corners:
            continue
        others = [c for c in rect.corners if c != cell]
        mine = sum(bool(game.pieces[me] >> c & 1) for c in others)
        theirs = sum(bool(game.pieces[other] >> c & 1) for c in others)
        unpainted = sum(not game.painted >> c & 1 for c in others)
        free_inside = sum(1 for c in range(64) if rect.inside_mask >> c & 1 and c != cell
                          and not (game.pieces[0] | game.pieces[1]) >> c & 1)
        if mine == 3:
            gain += 0.45 * (1 + unpainted) + 0.12 * free_inside
        elif theirs == 3:
            gain += 0.4 * (1 + unpainted) + 0.1 * free_inside
        elif mine == 2 and theirs == 0:
            gain += 0.06
    return gain


@pytest.mark.parametrize("seed", range(6))
def test_placement_gain_is_the_plain_count(seed: int) -> None:
    """The tree search's move ordering tests each rectangle's other corners
    as one mask; counted corner by corner it comes to the same, on games
    played to every stage."""
    for plies in (0, 9, 21, 37, 52):
        game = played(seed, plies)
        if game.final_left is not None:
            continue
        for cell in range(64):
            if game.empty >> cell & 1:
                assert placement_gain(game, cell) == pytest.approx(counted_placement_gain(game, cell), abs=1e-9), \
                    (seed, plies, cell)


def test_the_strongest_level_plans_captures() -> None:
    """The strongest level is the Corners tree search, not a generic one."""
    strongest = LEVELS[-1]
    assert isinstance(make_bot(strongest.bot, 0, 100, **strongest.params), CornersMctsBot)


def test_bad_bot_parameters_are_refused() -> None:
    from tessera.bots.registry import BotSpecError
    for spec in ("corners_mcts:capture_share=2", "corners:depth=5", "corners:noise=-1"):
        with pytest.raises(BotSpecError):
            bot_from_spec("corners", spec)


# ----- keeping the move-time cap, on a fake clock ---------------------------------

class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def answer_on_stepped_clock(bot: Bot, game: Corners, step_ms: float) -> tuple[float, int]:
    """Run a search where every step between two yields takes ``step_ms``:
    (the clock when the answer comes, the move)."""
    clock = FakeClock()
    bot.clock = clock  # type: ignore[method-assign]
    search = bot.search(game)
    while True:
        try:
            next(search)
        except StopIteration as stop:
            return clock.now * 1000, stop.value
        clock.now += step_ms / 1000


@pytest.mark.parametrize("level_key", [lv.key for lv in LEVELS])
@pytest.mark.parametrize("step_ms", [0.7, 7.0, 40.0])
def test_every_level_answers_at_the_first_step_after_its_cap(level_key: str, step_ms: float) -> None:
    game = played(9, 30)
    before = game.position()
    chosen = next(lv for lv in LEVELS if lv.key == level_key)
    bot = make_bot(chosen.bot, 1, 200, **chosen.params)
    answer_ms, move = answer_on_stepped_clock(bot, game, step_ms)
    assert answer_ms <= 200 + step_ms
    assert game.position() == before
    assert game.is_legal(move)
