"""Monte Carlo tree search (UCT) for any two-player game.

Each iteration walks down the tree by the UCT rule, adds one node, plays
seeded random moves for at most ``playout_plies`` plies and scores the end
by the result or, if the playout was cut, by ``game.evaluate``.  Before
searching, a move that wins at once is played at once (a cheap check that
saves the tree from discovering it slowly).
"""

from __future__ import annotations

import math
from typing import Any

from ..core.game import Game, Move
from ..core.rng import SeededRandom
from .base import Bot, Search
from .clock import Budget

YIELD_STEPS = 48
"""Pushes (tree walk plus playout) between yields."""


class _Node:
    __slots__ = ("move", "parent", "player", "children", "untried", "visits", "total", "prior", "priors")

    def __init__(self, move: Move | None, parent: "_Node | None", player: int,
                 untried: list[Move]) -> None:
        self.move = move
        self.parent = parent
        self.player = player        # who played ``move``; ``total`` is from their side
        self.children: list[_Node] = []
        self.untried = untried      # legal moves not yet expanded (empty when over)
        self.visits = 0
        self.total = 0.0
        self.prior = 0.0            # what the bot thought ``move`` worth before searching it (``_priors``)
        self.priors: list[float] | None = None
        """The priors of ``untried``, once ordered by them (at the node's first expansion)."""


class MctsBot(Bot):
    """Parameters: ``max_iterations`` (0: none), ``playout_plies``,
    ``exploration`` (UCT constant), ``widening``, ``bias``.

    A game's bot may say what each move looks worth before any search
    (``_priors``); then a node expands its moves best first, and:

    - ``widening`` (0: off) is progressive widening: a node visited n times
      has at most ``1 + widening * sqrt(n)`` children, so a short search
      reads its best candidates deeper instead of trying every move once;
    - ``bias`` (0: off) is progressive bias: a child's UCT value gains
      ``bias * prior / (visits + 1)``, a hint that fades as results come.

    Without priors (or both off) every move of a node is tried, in random
    order (shuffled when the node is first expanded), before any is read
    further.
    """

    name = "mcts"
    param_names: tuple[str, ...] = ("max_iterations", "playout_plies", "exploration", "widening", "bias")

    def __init__(self, seed: int = 0, movetime_ms: int = 1000, max_iterations: int = 0,
                 playout_plies: int = 24, exploration: float = 1.0, widening: float = 0.0, bias: float = 0.0,
                 **params: Any) -> None:
        super().__init__(seed, movetime_ms, max_iterations=max_iterations, playout_plies=playout_plies,
                         exploration=exploration, widening=widening, bias=bias, **params)
        if not (float(widening) >= 0 and float(bias) >= 0):
            raise ValueError("widening and bias are 0 or more")
        self.max_iterations = int(max_iterations)
        self.playout_plies = max(0, int(playout_plies))
        self.exploration = float(exploration)
        self.widening = float(widening)
        self.bias = float(bias)
        self.iterations = 0

    def _priors(self, game: Game, moves: list[Move]) -> list[float] | None:
        """What each of ``moves`` (of the position ``game`` is in) looks worth
        before any search, higher better, or None: the generic bot knows
        nothing of the game.  Called once per node, at its first expansion."""
        return None

    def search(self, game: Game) -> Search:
        budget = Budget(self.movetime_ms, self.max_iterations, self.clock)  # the time counts from the asking
        moves = game.legal_moves()
        self.iterations = 0
        if game.is_over() or not moves:
            return None
        if len(moves) == 1:
            return moves[0]
        me = game.to_move
        for move in moves:
            game.push_unchecked(move)
            outcome = game.outcome()
            game.pop()
            if outcome is not None and outcome.winner == me:
                return move
        yield

        rng = SeededRandom(self.seed * 1_000_003 + game.ply)
        root = _Node(None, None, 1 - me, moves)
        steps = 0
        while True:
            steps += self._iterate(game, root, rng)
            self.iterations += 1
            budget.work = self.iterations
            if steps >= YIELD_STEPS:
                steps = 0
                yield
            if budget.spent():
                break
        best = max(root.children, key=lambda n: (n.visits, n.total))
        return best.move

    def _iterate(self, game: Game, root: _Node, rng: SeededRandom) -> int:
        """One select-expand-playout-backup; returns the number of pushes."""
        node = root
        pushed = 0
        c = self.exploration
        try:
            # Selection: follow UCT through nodes with all the children they may have.
            widening = self.widening
            while node.children and (not node.untried or (
                    widening and len(node.children) >= 1 + widening * math.sqrt(node.visits))):
                log_n = math.log(node.visits)
                best, best_value = node.children[0], -1.0
                bias = self.bias
                for child in node.children:
                    value = child.total / child.visits + c * math.sqrt(log_n / child.visits)
                    if bias:
                        value += bias * child.prior / (child.visits + 1)
                    if value > best_value:
                        best, best_value = child, value
                node = best
                game.push_unchecked(node.move)
                pushed += 1
            # Expansion: one new child, the best by the priors (else the next of
            # the moves shuffled when listed).
            if node.untried:
                if node.priors is None and not node.children:
                    # Shuffled here, at its first expansion, not when the node is
                    # made: most nodes stay leaves, and shuffling each new one's
                    # moves was a tenth of a Corners search's time.
                    rng.shuffle(node.untried)
                    priors = self._priors(game, node.untried)
                    if priors is not None:   # best last: it is popped first; equals keep the shuffle
                        pairs = sorted(zip(priors, range(len(priors))))
                        node.untried = [node.untried[index] for _, index in pairs]
                        node.priors = [prior for prior, _ in pairs]
                move = node.untried.pop()
                prior = node.priors.pop() if node.priors is not None else 0.0
                player = game.to_move
                game.push_unchecked(move)
                pushed += 1
                untried = [] if game.outcome() is not None else game.legal_moves()
                child = _Node(move, node, player, untried)
                child.prior = prior
                node.children.append(child)
                node = child
            # Playout.
            value_for_first = self._playout(game, rng)
            pushed_playout = self._last_playout_plies
            # Backup.
            while node is not None:
                node.visits += 1
                node.total += value_for_first if node.player == 0 else 1.0 - value_for_first
                node = node.parent
        finally:
            for _ in range(pushed):
                game.pop()
        return pushed + pushed_playout

    def _playout(self, game: Game, rng: SeededRandom) -> float:
        """Random moves from here; the result for seat 0 in [0, 1]."""
        plies = 0
        try:
            while plies < self.playout_plies:
                outcome = game.outcome()
                if outcome is not None:
                    break
                moves = game.legal_moves()
                if not moves:
                    break
                game.push_unchecked(moves[rng.below(len(moves))])
                plies += 1
            outcome = game.outcome()
            if outcome is not None:
                if outcome.winner is None:
                    return 0.5
                return 1.0 if outcome.winner == 0 else 0.0
            return 0.5 + 0.5 * max(-1.0, min(1.0, game.evaluate(0)))
        finally:
            self._last_playout_plies = plies
            for _ in range(plies):
                game.pop()
