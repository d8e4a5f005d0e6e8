"""A finished game reviewed by the bot (``bots.review``): every move gets the
strongest level's own move and how much the move played lost against it;
the moves that lost the most are the mistakes, for each side; the review
runs in steps and reports each move as it goes; every two-player game can
be reviewed."""

from __future__ import annotations

import pytest

from tessera.bots.review import (MISTAKES_PER_SIDE, MoveReview, mark_mistakes, review_steps, strongest_level,
                                 think_ms, weigh)
from tessera.core import registry
from tessera.core.record import Record
from tessera.core.rng import SeededRandom
from tessera.core.steps import finish
from tessera.games.dots import Dots

TWO_PLAYER = [entry.game_id for entry in registry.GAMES if entry.num_players == 2 and entry.module is not None]


def random_record(game_id: str, plies: int, seed: int = 1) -> Record:
    game = registry.game_class(game_id)()
    rng = SeededRandom(seed)
    for _ in range(plies):
        move = game.random_move(rng)
        if move is None:
            break
        game.push(move)
    return Record.from_game(game)


@pytest.mark.parametrize("game_id", TWO_PLAYER)
def test_every_two_player_game_is_reviewed_move_by_move(game_id: str) -> None:
    record = random_record(game_id, 6)
    heard: list[MoveReview] = []
    reviews = finish(review_steps(record, on_move=heard.append, movetime_ms=30))
    assert [r.ply for r in reviews] == list(range(1, len(record.moves) + 1)) == [r.ply for r in heard]
    game = record.new_game()
    for review, text in zip(reviews, record.moves):
        assert review.mover == game.to_move and review.loss >= 0
        assert review.best is not None and game.is_legal(review.best) and review.best_text
        game.push(game.parse_move(text))
    assert strongest_level(game_id) is not None and think_ms(strongest_level(game_id)) >= 300


def test_a_move_that_lets_a_capture_loses_against_the_bots() -> None:
    """Dots: red's 5-5 is nearly surrounded (4-5, 6-5, 5-4 blue); blue to close
    it at 5-6, and red to move first: playing elsewhere loses a dot."""
    game = Dots({"size": "10x10", "start": "empty"})
    for text in ("4-5", "5-5", "6-5", "9-9", "5-4"):
        game.push_text(text)
    # red to move: 5-6 saves the dot, 1-1 does not
    saving, careless = game.parse_move("5-6"), game.parse_move("1-1")
    mover = game.to_move
    assert finish(weigh(game, saving, mover)) > finish(weigh(game, careless, mover))


def test_the_moves_that_lost_the_most_are_the_mistakes_for_each_side() -> None:
    losses = [0.5, 0.0, 0.3, 0.01, 0.2, 0.9, 0.1, 0.4, 0.05, 0.6]
    reviews = [MoveReview(ply, (ply - 1) % 2, None, "", loss) for ply, loss in enumerate(losses, start=1)]
    marked = mark_mistakes(reviews)
    for mover in (0, 1):
        own = [r for r in marked if r.mover == mover]
        top = sorted((r.loss for r in own if r.loss >= 0.02), reverse=True)[:MISTAKES_PER_SIDE]
        assert sorted((r.loss for r in own if r.mistake), reverse=True) == top
    assert not any(r.mistake for r in marked if r.loss < 0.02)


def test_the_review_runs_in_steps() -> None:
    """It yields inside the bot's search: the page can run it in slices."""
    steps = review_steps(random_record("quadrature", 4), movetime_ms=30)
    count = 0
    try:
        while True:
            next(steps)
            count += 1
    except StopIteration as stop:
        assert len(stop.value) == 4
    assert count > 4
