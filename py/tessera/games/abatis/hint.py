"""The hint: the move that scores most over the next moves.

A two-move look-ahead.  Every legal move is played and judged by the points
it scores plus what the position promises (``promise``); the most promising
``beam`` moves are then read one move deeper, and a first move is worth its
own points plus the best second move's.  Reading the stack is fair: the
next three chips are shown to the player, and two moves draw at most two.

The search yields after every move it tries, so the page drives it in
slices (``bots.base.choose_async``) and stops it at ``movetime_ms`` with the
best move found so far.  The same bot plays whole games on the command line
(``python3 -m tessera solo``), where the generic ``random`` bot is the baseline.
"""

from __future__ import annotations

from typing import Any

from ...bots.base import Bot, Search
from ...bots.clock import Budget
from ...core.rng import SeededRandom
from .geometry import CELLS, SIZE
from .rules import Abatis

PAIR_VALUE = 0.35
"""Two touching chips of a colour are one chip away from a block."""
CHIP_COST = 0.04
"""A fuller board leaves fewer moves and is nearer the end of the game."""
STUCK_COST = 1000.0
"""A position with no legal move ends the game."""


def promise(game: Abatis) -> float:
    """Points the position is likely to give soon, beyond the score."""
    if not game.legal_moves():
        return -STUCK_COST
    board = game.board
    pairs = 0
    chips = 0
    for cell in range(CELLS):
        colour = board[cell] & 15
        if not colour:
            continue
        chips += 1
        if cell % SIZE < SIZE - 1 and board[cell + 1] & 15 == colour:
            pairs += 1
        if cell + SIZE < CELLS and board[cell + SIZE] & 15 == colour:
            pairs += 1
    return PAIR_VALUE * pairs - CHIP_COST * chips


class AbatisHintBot(Bot):
    """``beam``: first moves read a move deeper; ``depth`` 1 or 2."""

    name = "abatis_hint"
    param_names = ("beam", "depth")

    def __init__(self, seed: int = 0, movetime_ms: int = 1000, beam: int = 10, depth: int = 2,
                 **params: Any) -> None:
        if int(depth) not in (1, 2) or int(beam) < 1:
            raise ValueError("depth is 1 or 2 and beam at least 1")
        super().__init__(seed, movetime_ms, **params)
        self.beam, self.depth = int(beam), int(depth)
        self.nodes = 0

    def _judge(self, game: Abatis, move: int) -> tuple[float, float]:
        """(points the move scores, points plus promise) after ``move``."""
        before = game.score
        game.push_unchecked(move)
        gained = game.score - before
        value = gained + promise(game)
        game.pop()
        self.nodes += 1
        return gained, value

    def search(self, game: Abatis) -> Search:  # type: ignore[override]
        budget = Budget(self.movetime_ms, clock=self.clock)
        moves = game.legal_moves()
        if len(moves) <= 1:
            return moves[0] if moves else None
        rng = SeededRandom(self.seed * 7919 + game.ply)
        rng.shuffle(moves)   # equal values: no bias to one side of the board
        judged = []
        for move in moves:
            gained, value = self._judge(game, move)
            judged.append((value, gained, move))
            yield
        judged.sort(key=lambda item: -item[0])
        best_value, _, best_move = judged[0]
        if self.depth == 1:
            return best_move
        best_total = None
        for _, gained, move in judged[:self.beam]:
            if budget.spent():
                break
            game.push_unchecked(move)
            follow = -STUCK_COST
            for reply in game.legal_moves():
                follow = max(follow, self._judge(game, reply)[1])
                yield
            game.pop()
            total = gained + follow
            if best_total is None or total > best_total:
                best_total, best_move = total, move
        return best_move

