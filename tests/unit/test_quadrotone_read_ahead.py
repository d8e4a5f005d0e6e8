"""Quadrotone's bot reading ahead on the opponent's time (``bot.read_ahead``):
its own one-chip moves scored before the reply, kept where the reply did
not come near, used by the next search, and never played on a kept score
alone."""

from __future__ import annotations

import json
from typing import Any

from tessera.bots.service import ThinkService
from tessera.core.record import Record
from tessera.core.rng import SeededRandom
from tessera.core.steps import finish
from tessera.games.quadrotone.bot import NEIGHBOURS, STALE_RADIUS, QuadrotoneBot, move_squares
from tessera.games.quadrotone.notation import ARRANGE, PLACE
from tessera.games.quadrotone.rules import Quadrotone
from tessera.games.quadrotone.sampler import random_move
from test_quadrotone_bots import played

SMALL = {"movetime_ms": 0, "singles": 60, "pool": 6, "multi": False}


def within(squares: set[int], radius: int) -> set[int]:
    """``squares`` and every large square at most ``radius`` steps (kings' moves) from one."""
    reached = set(squares)
    for _ in range(radius):
        reached |= {near for square in reached for near in NEIGHBOURS[square]}
    return reached


def touched(move: Any) -> set[int]:
    """Every large square a move changes."""
    return set(move_squares(move)) | ({item[0] for item in move[1]} if move[0] == ARRANGE else set())


def read_then_reply(seed: int, read: int = 300) -> tuple[Quadrotone, QuadrotoneBot, int, Any]:
    """A game of 40 plies, a bot that read ahead for the side not to move, then one placing reply."""
    game = played(seed, 40)
    bot = QuadrotoneBot(seed=seed, read_ahead=read, **SMALL)
    seat = 1 - game.to_move
    finish(bot.read_ahead(game.copy()))
    rng = SeededRandom(seed + 1)
    reply = random_move(game, rng, place_share=1.0)
    while reply[0] != PLACE:
        reply = random_move(game, rng, place_share=1.0)
    game.push(reply)
    assert game.to_move == seat
    return game, bot, seat, reply


def test_read_ahead_keeps_what_the_reply_did_not_come_near() -> None:
    """Scores of moves within two large squares of the reply are dropped,
    the rest kept; they were the bot's own moves, scored on the position
    before the reply."""
    game, bot, seat, reply = read_then_reply(3)
    assert bot.ahead is not None
    stack, ahead_seat, scores = bot.ahead
    assert ahead_seat == seat and stack == game.move_stack[:-1] and len(scores) == 300
    near = within(touched(reply), STALE_RADIUS)
    kept = bot._kept_scores(game, seat)
    assert kept and len(kept) < len(scores)
    for move, gain in scores.items():
        assert (move in kept) == (not near & touched(move))
        if move in kept:
            assert kept[move] == gain
    assert bot.ahead is None   # read once


def test_read_ahead_is_for_one_position_only() -> None:
    """Two moves later, for the other seat, or with no reading: nothing is kept."""
    game, bot, seat, _ = read_then_reply(4, read=40)
    ahead = bot.ahead
    assert bot._kept_scores(game, 1 - seat) == {}
    bot.ahead = ahead
    later = game.copy()
    later.push(random_move(later, SeededRandom(9)))
    assert bot._kept_scores(later, later.to_move) == {}
    assert bot._kept_scores(game, seat) == {}   # the reading was used up
    assert QuadrotoneBot(**SMALL).read_ahead(game.copy()) is None   # read_ahead=0: the ponder guesses instead


def test_a_kept_score_is_scored_again_before_it_is_played() -> None:
    """A kept score that no longer holds (here one made up, far above any
    move) does not decide the move: the move that may be played is scored
    again on the field as it is."""
    game, bot, seat, _ = read_then_reply(5)
    kept = bot._kept_scores(game, seat)
    poor = min(kept, key=lambda move: kept[move])
    bot.ahead = (game.move_stack[:-1], seat, {**kept, poor: 10**6})
    exact = bot._gain(game, poor, seat)
    move = finish(bot.search(game.copy()))
    assert game.check(move) is None
    assert move != poor or exact == max(bot._gain(game, other, seat) for other in kept)


def test_the_search_after_a_reply_plays_a_kept_move() -> None:
    """With one fresh candidate of its own and 300 kept, the search plays
    a kept one, legal on the field after the reply."""
    game, bot, seat, _ = read_then_reply(6)
    ahead = bot.ahead
    kept = bot._kept_scores(game, seat)
    bot.ahead = ahead
    bot.singles = 1
    move = finish(bot.search(game.copy()))
    assert move in kept and game.check(move) is None


def test_the_worker_reads_ahead_for_quadrotone() -> None:
    """The worker's ponder for a reading-ahead bot guesses nothing; its
    next move request plays from what was read."""
    game = played(7, 30)
    bot = {"name": "quadrotone", "seed": 2, "movetime_ms": 0, "params": {**SMALL, "read_ahead": 200}}
    del bot["params"]["movetime_ms"]
    service = ThinkService()
    service.receive(json.dumps({"type": "ponder", "key": "q", "bot": bot, "record": Record.from_game(game).to_json()}))
    for _ in range(10_000):
        if not service.busy():
            break
        service.step(5.0)
    keyed = service.keyed["q"]
    assert keyed.ponder.reading_ahead and keyed.ponder.expected is None
    assert len(keyed.bot.ahead[2]) == 200
    game.push(random_move(game, SeededRandom(1)))
    service.receive(json.dumps({"type": "move", "id": 1, "key": "q", "bot": bot,
                                "record": Record.from_game(game).to_json()}))
    answers: list[dict[str, Any]] = []
    for _ in range(10_000):
        if not service.busy():
            break
        text = service.step(5.0)
        answers += json.loads(text) if text else []
    assert [(answer["type"], answer["pondered"], answer["read_ahead"]) for answer in answers] == [("move", False, True)]
    assert game.check(game.parse_move(answers[0]["move"])) is None
    assert keyed.bot.ahead is None   # used by that search
