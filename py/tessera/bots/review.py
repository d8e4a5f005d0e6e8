"""A finished game reviewed by the bot: for each move, the strongest level's
own move there, and how much the move played lost against it.

For every position of the game the game's strongest level (``levels_for``'s
last) searches with a review's own time (``REVIEW_SHARE`` of its playing
time, at least ``MIN_THINK_MS``).  Both its move and the move played are
then weighed the same way, from the mover's side: the position after the
move, after the opponent's most damaging reply when the game lists its
moves (a two-ply look, ``Game.evaluate`` at its leaves), or as it stands
when it cannot (Quadrotone: a move's points are its own).  An ending
counts as -1, 0 or 1.  A move's *loss* is how much worse it left the mover
than the bot's move would have (never below 0).

The moves that lost the most are the mistakes: for each side, the
``MISTAKES_PER_SIDE`` largest losses that are at least ``MIN_LOSS`` (the
scale of ``evaluate`` differs from game to game, so no fixed threshold
would suit all five).

The whole review is ``Steps`` (``core.steps``): it yields inside the bot's
search and every ``REPLIES_PER_STEP`` replies weighed, so the page runs it
in slices and stays live; ``review_steps`` reports each move's review as it
is made (``on_move``), so the page shows them as they come.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable

from ..core.game import Game, Move
from ..core.record import Record
from ..core.steps import Steps
from .base import BotLevel
from .registry import levels_for, make_level_bot

REVIEW_SHARE = 1 / 3
MIN_THINK_MS = 300
MISTAKES_PER_SIDE = 3
MIN_LOSS = 0.02
REPLIES_PER_STEP = 64
MAX_REPLIES = 2000
"""A position with more replies than this is weighed as it stands (a 52x52
Dots field early on): the look would cost more than the bot's own search."""


@dataclass(frozen=True)
class MoveReview:
    """The review of move ``ply`` (1 for the first), played from position ``ply - 1``."""

    ply: int
    mover: int
    best: Move | None
    best_text: str
    loss: float
    mistake: bool = False


def strongest_level(game_id: str) -> BotLevel | None:
    levels = levels_for(game_id)
    return levels[-1] if levels else None


def think_ms(level: BotLevel) -> int:
    """The review's time for one position: a share of the level's playing time."""
    return max(MIN_THINK_MS, int(level.movetime_ms * REVIEW_SHARE))


def review_steps(record: Record, on_move: Callable[[MoveReview], None] | None = None,
                 level: BotLevel | None = None, movetime_ms: int | None = None) -> Steps[list[MoveReview]]:
    """Review every move of ``record`` (a finished game, replayed here); the
    list comes back with the mistakes marked."""
    game = record.new_game()
    level = level or strongest_level(game.game_id)
    if level is None:
        return []
    time_ms = think_ms(level) if movetime_ms is None else movetime_ms
    reviews: list[MoveReview] = []
    for ply, text in enumerate(record.moves, start=1):
        played = game.parse_move(text)
        if game.is_over() or not game.is_legal(played):
            break
        mover = game.to_move
        bot = make_level_bot(level, seed=game.seed + ply, movetime_ms=time_ms)
        best = yield from bot.search(game.copy())
        loss = 0.0
        if best is not None and best != played and game.is_legal(best):
            best_value = yield from weigh(game, best, mover)
            played_value = yield from weigh(game, played, mover)
            loss = max(0.0, best_value - played_value)
        review = MoveReview(ply, mover, best, game.move_text(best) if best is not None else "", loss)
        reviews.append(review)
        if on_move is not None:
            on_move(review)
        game.push(played)
    return mark_mistakes(reviews)


def weigh(game: Game, move: Move, player: int) -> Steps[float]:
    """How good ``move`` leaves ``player``: after the opponent's worst reply for
    ``player`` (two plies) when the game lists its moves, else as it stands."""
    game.push(move)
    try:
        ending = value_of_end(game, player)
        if ending is not None:
            return ending
        if not game.lists_every_move or game.to_move == player:
            return game.evaluate(player)
        replies = game.legal_moves()
        if not replies or len(replies) > MAX_REPLIES:
            return game.evaluate(player)
        worst = 1.0
        for index, reply in enumerate(replies, start=1):
            game.push(reply)
            ending = value_of_end(game, player)
            worst = min(worst, ending if ending is not None else game.evaluate(player))
            game.pop()
            if index % REPLIES_PER_STEP == 0:
                yield
        return worst
    finally:
        game.pop()


def value_of_end(game: Game, player: int) -> float | None:
    outcome = game.outcome()
    if outcome is None:
        return None
    if outcome.winner is None:
        return 0.0
    return 1.0 if outcome.winner == player else -1.0


def mark_mistakes(reviews: list[MoveReview]) -> list[MoveReview]:
    """Mark, for each side, the moves that lost the most (see the module docstring)."""
    marked = set()
    for mover in {review.mover for review in reviews}:
        own = sorted((r for r in reviews if r.mover == mover and r.loss >= MIN_LOSS), key=lambda r: -r.loss)
        marked.update(r.ply for r in own[:MISTAKES_PER_SIDE])
    return [replace(review, mistake=review.ply in marked) for review in reviews]
