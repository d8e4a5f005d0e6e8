"""Work as steps: a saved game opens in slices exactly as it opens at once."""

from __future__ import annotations

import pytest

from tessera.core.record import RecordError
from tessera.core.rng import SeededRandom
from tessera.core.session import Seat, Session, SessionError
from tessera.core.steps import UNFINISHED, finish, run_slice
from tessera.games.dots import Dots


def counting(n: int):
    for _ in range(n):
        yield
    return n


def test_finish_and_slices_give_the_same_result() -> None:
    assert finish(counting(5)) == 5
    steps = counting(5)
    results = [run_slice(steps, 0.0) for _ in range(5)]
    assert results[:5] == [UNFINISHED] * 5
    assert run_slice(steps, 0.0) == 5


def test_a_long_save_restores_one_move_per_step() -> None:
    """A 200-move game opens in 200 steps (so a page can pause between any two) and equals from_save."""
    game = Dots({"size": "20x20"})
    game.random_fill(SeededRandom(3), 200)
    data = Session(game, [Seat("human"), Seat("human")], "d").to_save()
    steps = Session.restoring(data)
    count = 0
    while (result := run_slice(steps, 0.0)) is UNFINISHED:
        count += 1
    assert count == 200
    assert result.game.position() == Session.from_save(data).game.position() == game.position()
    assert result.history() == Session.from_save(data).history()


def test_a_bad_move_late_in_a_save_fails_in_its_step() -> None:
    game = Dots({"size": "20x20"})
    game.random_fill(SeededRandom(4), 50)
    data = Session(game, [Seat("human"), Seat("human")], "d").to_save()
    data["record"]["moves"][40] = "99-99"
    steps = Session.restoring(data)
    with pytest.raises((RecordError, SessionError), match="move 41"):
        for _ in range(100):
            run_slice(steps, 0.0)
