"""One ply of look-ahead: the move whose resulting position evaluates best.

Wins score +inf and losses -inf, so greedy always takes an immediate win and
avoids an immediate loss when it can; equal values are broken by a seeded
random choice, so two greedy bots with different seeds play different games.
"""

from __future__ import annotations

from ..core.game import Game
from ..core.rng import SeededRandom
from .base import Bot, Search
from .clock import Budget

INF = float("inf")
TIE_EPSILON = 1e-9
YIELD_EVERY = 16
"""Moves evaluated between yields (each is a push, an evaluate and a pop)."""


class GreedyBot(Bot):
    name = "greedy"
    param_names: tuple[str, ...] = ()

    def search(self, game: Game) -> Search:
        moves = game.legal_moves()
        if game.is_over() or not moves:
            return None
        if len(moves) == 1:
            return moves[0]
        rng = SeededRandom(self.seed * 1_000_003 + game.ply)
        me = game.to_move
        budget = Budget(self.movetime_ms, clock=self.clock)
        best_value = -INF
        best_moves: list = []
        for index, move in enumerate(moves):
            if index and index % YIELD_EVERY == 0:
                yield
                if budget.spent() and best_moves:
                    break
            game.push_unchecked(move)
            try:
                outcome = game.outcome()
                if outcome is None:
                    value = game.evaluate(me)
                elif outcome.winner is None:
                    value = 0.0
                else:
                    value = INF if outcome.winner == me else -INF
            finally:
                game.pop()
            if value > best_value + TIE_EPSILON:
                best_value = value
                best_moves = [move]
            elif value >= best_value - TIE_EPSILON:
                best_moves.append(move)
        return rng.choice(best_moves)
