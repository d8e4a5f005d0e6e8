"""Quadrotone bots: every level answers legally, leaves the game as it found
it, keeps a (fake) clock's budget, and Hard finishes a pattern it is shown.
Nothing here times anything: the bots run on counts or on a fake clock."""

from __future__ import annotations

from typing import Any

import pytest

from tessera.bots.base import Bot
from tessera.bots.registry import levels_for, make_bot
from tessera.core.rng import SeededRandom
from tessera.games.quadrotone.bot import QuadrotoneBot, move_squares
from tessera.games.quadrotone.chips import chip_text, parse_chip, rotate
from tessera.games.quadrotone.field import parse_square
from tessera.games.quadrotone.rules import Quadrotone
from tessera.games.quadrotone.sampler import random_move

LEVELS = levels_for("quadrotone")
SMALL = {"singles": 150, "pool": 6, "replies": 8, "finalists": 3}
"""Counts that keep the tests quick; the levels' own settings otherwise."""


def level_bot(key: str, seed: int = 0, **extra: Any) -> Bot:
    """A level's bot with no time limit and small counts, so its answer does not depend on speed."""
    chosen = next(lv for lv in LEVELS if lv.key == key)
    params = dict(chosen.params)
    for name, value in SMALL.items():
        if name in params or name in ("pool", "finalists"):
            params[name] = min(value, params.get(name, value))
    params.update(extra)
    return make_bot(chosen.bot, seed, 0, **params)


def played(seed: int, plies: int) -> Quadrotone:
    game = Quadrotone(seed=seed)
    rng = SeededRandom(seed)
    while game.ply < plies and not game.is_over():
        game.push(random_move(game, rng, place_share=0.9))
    return game


def run(bot: Bot, game: Quadrotone) -> Any:
    """Drive a search on ``game`` itself (``Bot.choose`` works on a copy
    replayed from the moves, which would drop chips laid with ``put``)."""
    search = bot.search(game)
    try:
        while True:
            next(search)
    except StopIteration as stop:
        return stop.value


def snapshot(game: Quadrotone) -> tuple[Any, ...]:
    return (game.position(), tuple(game.points), [sorted(hand) for hand in game.hands], str(game.used),
            set(game.scored_keys), game.last_touch, list(game.move_stack), game.to_move)


def test_three_levels_weakest_first() -> None:
    """The app offers easy, medium and hard, and each thinks longer than the one before."""
    assert [lv.key for lv in LEVELS] == ["easy", "medium", "hard"]
    assert LEVELS[0].movetime_ms < LEVELS[1].movetime_ms < LEVELS[2].movetime_ms


@pytest.mark.parametrize("key", ["easy", "medium", "hard"])
@pytest.mark.parametrize("plies", [0, 30])
def test_levels_answer_legally_and_leave_the_game_alone(key: str, plies: int) -> None:
    """A level's move passes ``check`` and its search pops every move it pushed."""
    game = played(7, plies)
    before = snapshot(game)
    bot = level_bot(key, seed=3)
    move = run(bot, game)
    assert snapshot(game) == before
    assert game.check(move) is None


def test_bot_arranges_once_the_hand_is_empty() -> None:
    """With nothing left to place, the bot still finds a legal arrangement."""
    game = played(11, 40)
    for square in range(256):
        if game.chip_on[square] is None:
            chip = next(iter(game.hands[0] | game.hands[1]), None)
            if chip is None:
                break
            game.put(square, chip, 0)
    assert not game.hands[game.to_move]
    move = run(level_bot("medium", seed=5), game)
    assert move[0] == "arrange" and game.check(move) is None


class FakeClock:
    """Seconds that advance by ``step`` every time they are read."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


@pytest.mark.parametrize("key", ["medium", "hard"])
def test_search_stops_at_its_budget(key: str) -> None:
    """On a clock that runs a millisecond per reading, a 40 ms move plays
    few candidates, where the same bot without a limit plays its full count."""
    chosen = next(lv for lv in LEVELS if lv.key == key)
    game = played(5, 20)
    timed = make_bot(chosen.bot, 1, 40, **chosen.params)
    timed.clock = FakeClock(0.001)
    move = timed.choose(game)
    assert game.check(move) is None
    unlimited = make_bot(chosen.bot, 1, 0, **{**chosen.params, "singles": 300})
    unlimited.choose(game)
    assert timed.nodes < 60 < unlimited.nodes


def ring_but_one(seed: int) -> tuple[Quadrotone, int]:
    """A red 4x4 ring (catalog ``ring12``, 140 points) on e5, f5, e6 with
    f6 missing; the side to move holds a chip that closes it."""
    game = Quadrotone(seed=seed)
    player = game.to_move
    corner = next(chip for chip in game.hands[player] if sorted(chip_text(chip)) == ["G", "R", "R", "R"])
    others = [c for c in (parse_chip(t) for t in ("RRRG", "RRGR", "RGRR", "GRRR", "RRRB", "RRBR", "RBRR", "BRRR",
                                                  "RRRY", "RRYR", "RYRR", "YRRR")) if c != corner]
    # e6 is the ring's top left (red but its bottom right), f5 bottom right, e5 bottom left
    wanted = {"e6": "RRGR", "f5": "GRRR", "e5": "RGRR"}
    for name, look in wanted.items():
        chip = next(c for c in others if any(rotate(c, t) == parse_chip(look) for t in range(4)))
        others.remove(chip)
        turns = next(t for t in range(4) if rotate(chip, t) == parse_chip(look))
        game.put(parse_square(name), chip, turns)
    return game, player


def test_hard_closes_the_ring() -> None:
    """Shown three quarters of a ring, Hard plays a move that scores at
    least the ring's points, on f6."""
    game, player = ring_but_one(seed=4)
    bot = level_bot("hard", seed=2, singles=400, multi=False)
    move = run(bot, game)
    assert game.check(move) is None
    before = game.points[player]
    game.push(move)
    assert game.points[player] - before >= 140
    assert parse_square("f6") in move_squares(move)


def test_bot_rejects_bad_settings() -> None:
    """Counts below one are refused."""
    with pytest.raises(ValueError):
        QuadrotoneBot(singles=0)
