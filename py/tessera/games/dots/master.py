"""Dots's strongest bot, "dots_master": the reader's search, sharper and using all its time.

The master reads like the hard level (``DotsReaderBot`` with
``eval.Reader``: the tactician's best points at the root, then a selective
negamax over captures, blocks and contact points next to the last moves)
and differs where the hard level leaves strength unused:

* a leaf weighs both sides' open captures (``ExchangeReader``), where the
  hard level counts only the mover's biggest capture;
* it deepens until its time is spent (the reader stops at depth 8, and
  then often at half its time), with a quarter of the time, not a third,
  for the two-ply scoring of every point;
* each depth searches the root moves in the order the previous depth
  ranked them, so alpha-beta cuts more and the same time reaches deeper;
* it keeps a few more root moves (12, not 10).

Measured against the hard level at equal move times (``levels.py``).  A
landing-balance term at the root (own ungrounded dots against the
opponent's) was tried and lost games: the capture reading decides.
"""

from __future__ import annotations

import math
from typing import Any

from ...bots.base import Bot, Search
from ...bots.clock import Budget
from ...core.rng import SeededRandom
from .bot import LANDING_LOSS, SAFETY_ITERATIONS, opening_move, root_moves
from .eval import Reader, score_candidates
from .rules import LAND, Dots


class ExchangeReader(Reader):
    """The reader with a leaf that weighs both sides' open captures.

    At a leaf the mover either takes its biggest capture and then loses
    the opponent's biggest, or blocks that one and loses the opponent's
    second: worth ``max(mine - theirs, -second)`` beyond the lead (``mine``
    alone when the opponent threatens nothing).  The hard level's leaf
    counts only ``mine``, so a double threat against it, or a capture it
    answers with a bigger loss, stays beyond its horizon.
    """

    def leaf_gain(self, player: int, local: list[int]) -> float:
        mine, _ = self.tactics.best_captures(player, local, [])
        theirs, second = self.tactics.best_captures(1 - player, local, [])
        if not theirs:
            return mine
        return max(mine - theirs, -second)


class DotsMasterBot(Bot):
    """The reader's search over the best ``width`` two-ply points,
    deepened until the time or ``max_depth`` runs out.

    Parameters: ``max_depth`` (plies), ``width`` (root candidates),
    ``inner_width`` (candidates below the root), ``max_nodes`` (0: none).
    """

    name = "dots_master"
    param_names: tuple[str, ...] = ("max_depth", "width", "inner_width", "max_nodes", "exchange")

    def __init__(self, seed: int = 0, movetime_ms: int = 1000, max_depth: int = 40,
                 width: int = 12, inner_width: int = 5, max_nodes: int = 0, exchange: int = 1,
                 **params: Any) -> None:
        super().__init__(seed, movetime_ms, max_depth=max_depth, width=width,
                         inner_width=inner_width, max_nodes=max_nodes, exchange=exchange, **params)
        self.exchange = bool(int(exchange))
        self.max_depth = max(1, int(max_depth))
        self.width = max(1, int(width))
        self.inner_width = max(1, int(inner_width))
        self.max_nodes = int(max_nodes)
        self.depth_reached = 0
        self.nodes = 0
        """Nodes the last search read (the bench's nodes per second)."""

    def search(self, game: Dots) -> Search:
        timed = self.movetime_ms > 0
        limit = self.max_nodes or (0 if timed else SAFETY_ITERATIONS * 10)
        budget = Budget(self.movetime_ms, limit, self.clock)
        self.depth_reached = 0
        self.nodes = 0
        if game.is_over():
            return None
        moves, landing_wins = root_moves(game)
        if landing_wins:
            return LAND
        yield
        rng = SeededRandom(self.seed * 1_000_003 + game.ply)
        scoring = Budget(self.movetime_ms / 4 if timed else 0, clock=self.clock)
        hot: list[int] = []
        scored = yield from score_candidates(game, rng, 0.05, scoring, hot)
        if not scored:
            return opening_move(game, moves)
        arms = scored[:self.width]
        if len(arms) == 1:
            return arms[0][1]
        field = game.field
        me = game.to_move
        stack = game.move_stack
        prev = stack[-1] if stack and stack[-1] != LAND else -1
        # Beyond the reading: a small share of the two-ply score, and the
        # loss when the opponent could land and win at once.
        static: dict[int, float] = {}
        for value, c in arms:
            static[c] = 0.001 * (value - arms[0][0])
            field.place(c, me)
            after = field.scores_after_landing(1 - me)
            if after[1 - me] > after[me]:
                static[c] -= LANDING_LOSS
            field.undo()
            yield  # a landing count floods the whole field: one per step
            if budget.spent():
                break
        best = max(static, key=static.__getitem__)  # among the moves weighed
        if budget.spent():
            return best
        arms = [arm for arm in arms if arm[1] in static]
        reader = (ExchangeReader if self.exchange else Reader)(field, budget, self.inner_width, hot)
        order = [c for _, c in arms]
        for depth in range(1, self.max_depth + 1):
            alpha = -math.inf
            depth_best = None
            values: dict[int, float] = {}
            # The previous best first: a move that beats it before the time
            # runs out is proved better, so a cut-short depth still counts.
            for move in [best] + [c for c in order if c != best]:
                value = yield from reader.child_value(move, me, prev, depth - 1, alpha)
                if reader.aborted:
                    break
                value += static[move]
                values[move] = value
                if value > alpha:
                    alpha, depth_best = value, move
            if depth_best is not None:
                best = depth_best
            self.nodes = reader.nodes
            if reader.aborted:
                break
            self.depth_reached = depth
            # The next depth tries the moves in this depth's order (a move cut
            # off by alpha-beta keeps its bound, which still ranks it).
            order.sort(key=lambda c: -values.get(c, -math.inf))
        return best
