"""The Corners bot: move ordering by ``strategy``, then a shallow search.

``depth=1`` plays the move whose position ``strategy.position_value``
likes best; ``depth=2`` also lets the opponent answer with its best reply
among its ``replies`` most promising moves, so the bot sees what it leaves
the other side (a rectangle it completes, a cell it must block).  The final
round is played exactly (``strategy.best_final_move``: the capture that
paints most, pass only when none paints), and a move that starts it is
judged by what each side's last capture will take.
``noise`` makes a weak level: it picks at random among the moves whose
ordering gain is within ``noise`` of the best.

The search yields between candidates and stops at ``movetime_ms`` (0: no
limit) with the best move found so far, so the page stays responsive and the level keeps
its time on a slow phone.
"""

from __future__ import annotations

from typing import Any

from ...bots.base import Bot, Search
from ...bots.clock import Budget
from ...core.rng import SeededRandom
from .rules import Corners
from .strategy import CORNER_MASKS, best_final_move, move_gain, position_value


class CornersBot(Bot):
    name = "corners"
    param_names = ("depth", "candidates", "replies", "noise")

    def __init__(self, seed: int = 0, movetime_ms: int = 1000, depth: int = 2, candidates: int = 12,
                 replies: int = 10, noise: float = 0.0, **params: Any) -> None:
        super().__init__(seed, movetime_ms, **params)
        if depth not in (1, 2) or candidates < 1 or replies < 1 or noise < 0:
            raise ValueError("depth is 1 or 2; candidates and replies at least 1; noise at least 0")
        self.depth = depth
        self.candidates = candidates
        self.replies = replies
        self.noise = noise
        self.rng = SeededRandom(seed)
        self.nodes = 0

    def _ordered(self, game: Corners, limit: int) -> list[int]:
        scored = sorted(((move_gain(game, move), move) for move in game.legal_moves()), reverse=True)
        return [move for _, move in scored[:limit]]

    def search(self, game: Corners) -> Search:  # type: ignore[override]
        budget = Budget(self.movetime_ms, clock=self.clock)   # 0 or less: no time limit
        moves = game.legal_moves()
        if len(moves) <= 1:
            return moves[0] if moves else None
        if game.final_left is not None:
            yield
            return best_final_move(game)
        if self.noise > 0:
            scored = sorted(((move_gain(game, move), move) for move in moves), reverse=True)
            best = scored[0][0]
            near = [move for gain, move in scored if gain >= best - self.noise]
            return near[self.rng.below(len(near))]
        player = game.to_move
        candidates = self._ordered(game, self.candidates)
        best_move, best_value = candidates[0], -2.0
        for move in candidates:
            game.push_unchecked(move)
            self.nodes += 1
            if self.depth == 1 or game.is_over():
                value = position_value(game, player)
            else:
                value = self._worst_reply(game, player)
            game.pop()
            if value > best_value:
                best_move, best_value = move, value
            yield
            if budget.spent():
                break
        return best_move

    def _worst_reply(self, game: Corners, player: int) -> float:
        """The value for ``player`` after the opponent's best reply."""
        if game.final_left is not None:
            return self._final_value(game, player)
        worst = 2.0
        for reply in self._ordered(game, self.replies):
            game.push_unchecked(reply)
            self.nodes += 1
            worst = min(worst, position_value(game, player))
            game.pop()
        return worst

    def _final_value(self, game: Corners, player: int) -> float:
        """Exact once the final round has begun: each side with a turn left
        paints as much as its best capture can (``strategy.best_final_move``:
        the two turns cannot affect each other), then the scores decide."""
        self.nodes += 1
        scores = list(game.scores())
        left = game.final_left or 0
        for turn in range(left):
            side = (game.to_move + turn) % 2
            paint = [(CORNER_MASKS[index] & ~game.painted).bit_count()
                     for index in game.captures(side, painting_only=True)]
            scores[side] += max(paint, default=0)
        if scores[0] == scores[1]:
            return 0.0
        return 1.0 if scores[player] > scores[1 - player] else -1.0
