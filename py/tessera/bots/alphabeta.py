"""Negamax with alpha-beta pruning and iterative deepening, for any game.

The search is a generator (``yield from`` down the tree) so it runs in
slices in the browser.  Leaves are scored by ``game.evaluate(player)``,
endings by distance (a quicker win and a later loss are preferred).  Move
ordering: the transposition table's move, then the history heuristic.
The table is keyed by ``game.key()`` when the game offers a cheap key and by
``game.position()`` otherwise.

Each finished iteration gives a move; an iteration cut short by the budget
still counts once its first root move (the previous best) is searched, since
anything it then preferred was proved better.
"""

from __future__ import annotations

from typing import Any, Callable, Generator

from ..core.game import Game, Move
from ..core.rng import SeededRandom
from .base import Bot, Search
from .clock import Budget

WIN = 1000.0
"""Score of a win at the root; a win n plies away scores WIN - n."""
WIN_THRESHOLD = WIN - 500.0
"""Scores beyond this (in absolute value) are forced results (no search
reaches 500 plies, and evaluations stay within [-1, 1])."""
EXACT, LOWER, UPPER = 0, 1, 2
TABLE_LIMIT = 200_000
"""Entries kept before the transposition table is cleared (memory bound)."""

NodeSearch = Generator[None, None, float]


class AlphaBetaBot(Bot):
    """Parameters: ``max_depth`` (plies), ``max_nodes`` (0: none),
    ``yield_every`` (nodes between yields)."""

    name = "alphabeta"
    param_names: tuple[str, ...] = ("max_depth", "max_nodes", "yield_every", "extensions")

    def __init__(self, seed: int = 0, movetime_ms: int = 1000, max_depth: int = 64,
                 max_nodes: int = 0, yield_every: int = 16, extensions: int = 0,
                 **params: Any) -> None:
        super().__init__(seed, movetime_ms, max_depth=max_depth, max_nodes=max_nodes,
                         yield_every=yield_every, extensions=extensions, **params)
        self.max_depth = max(1, int(max_depth))
        self.max_nodes = int(max_nodes)
        self.yield_every = max(1, int(yield_every))
        self.extensions = max(0, int(extensions))
        # Statistics of the last search, for benchmarks and the command line.
        self.nodes = 0
        self.depth_reached = 0
        self.last_score = 0.0

    # ----- the search ----------------------------------------------------------
    def search(self, game: Game) -> Search:
        moves = game.legal_moves()
        self.nodes = 0
        self.depth_reached = 0
        if game.is_over() or not moves:
            return None
        if len(moves) == 1:
            return moves[0]
        self._budget = Budget(self.movetime_ms, self.max_nodes, self.clock)
        self._aborted = False
        self._next_check = self.yield_every
        self._table: dict[Any, tuple[int, int, float, Move]] = {}
        self._history: dict[Move, int] = {}
        key = getattr(game, "key", None)
        self._key: Callable[[], Any] = key if callable(key) else game.position

        # Seeded shuffle first: equal moves are then chosen differently per seed.
        rng = SeededRandom(self.seed * 1_000_003 + game.ply)
        rng.shuffle(moves)
        best_move = moves[0]
        for depth in range(1, self.max_depth + 1):
            move, score, complete = yield from self._root(game, moves, depth, best_move)
            if move is not None:
                best_move = move
                self.last_score = score
                self.depth_reached = depth if complete else depth - 1
            if not complete or self._aborted:
                break
            # Searched moves first next time: the best, then in root order.
            moves.remove(best_move)
            moves.insert(0, best_move)
            if abs(score) >= WIN_THRESHOLD:
                break  # a forced result: deeper search cannot change it
            if self._budget.spent():
                break
        self._table = {}
        return best_move

    def _root(self, game: Game, moves: list[Move], depth: int,
              first: Move) -> Generator[None, None, tuple[Move | None, float, bool]]:
        """One iteration over the root moves; (best, score, finished)."""
        alpha, beta = -WIN - 1.0, WIN + 1.0
        best: Move | None = None
        me = game.to_move
        before = game.scores() if depth <= 1 and self.extensions else None
        for move in moves:
            game.push_unchecked(move)
            try:
                score = yield from self._child(game, me, depth, -beta, -alpha, 1, before, self.extensions)
            finally:
                game.pop()
            if self._aborted:
                return best, alpha, False
            if best is None or score > alpha:
                best, alpha = move, score
        return best, alpha, True

    def _child(self, game: Game, mover: int, depth: int, alpha: float, beta: float,
               ply: int, before: tuple[int, ...] | None, extensions: int) -> NodeSearch:
        """Score, for ``mover``, of the position after ``mover``'s move.

        ``alpha``/``beta`` are the window of the side to move now, so the
        caller's window in the mover's terms is (-beta, -alpha).
        """
        outcome = game.outcome()
        if outcome is not None:
            self.nodes += 1
            if self.nodes >= self._next_check:
                yield from self._pause()
            if outcome.winner is None:
                return 0.0
            return WIN - ply if outcome.winner == mover else -WIN + ply
        if depth <= 1:
            if before is None or game.scores() == before:
                self.nodes += 1
                if self.nodes >= self._next_check:
                    # Leaves pause too: a frontier node expands every child
                    # (each with its own move generation) before the next
                    # interior node, too long a stretch in the browser.
                    yield from self._pause()
                return game.evaluate(mover)
            # The move changed the score (a capture, a conversion): the
            # position is not quiet, so look one ply further (at most
            # ``extensions`` times along a line) before trusting the evaluation.
            value = yield from self._negamax(game, 1, alpha, beta, ply, extensions - 1)
            return -value
        value = yield from self._negamax(game, depth - 1, alpha, beta, ply, extensions)
        return -value

    def _pause(self) -> Generator[None, None, None]:
        """Hand control back to the driver and check the time budget."""
        self._next_check = self.nodes + self.yield_every
        self._budget.work = self.nodes
        yield
        if self._budget.spent():
            self._aborted = True

    def _negamax(self, game: Game, depth: int, alpha: float, beta: float, ply: int,
                 extensions: int) -> NodeSearch:
        """Value for the side to move of a position that is not over."""
        self.nodes += 1
        if self.nodes >= self._next_check:
            yield from self._pause()
        if self._aborted:
            return 0.0

        key = self._key()
        entry = self._table.get(key)
        table_move = None
        original_alpha = alpha
        if entry is not None:
            entry_depth, flag, value, table_move = entry
            if entry_depth >= depth:
                value = _from_table(value, ply)
                if flag == EXACT:
                    return value
                if flag == LOWER and value > alpha:
                    alpha = value
                elif flag == UPPER and value < beta:
                    beta = value
                if alpha >= beta:
                    return value

        moves = game.legal_moves()
        if not moves:
            return 0.0  # no move but not over: the game did not say, call it even
        history = self._history
        if history:
            moves.sort(key=lambda m: history.get(m, 0), reverse=True)
        if table_move is not None and table_move in moves:
            moves.remove(table_move)
            moves.insert(0, table_move)

        me = game.to_move
        best_value = -WIN - 1.0
        best_move = moves[0]
        before = game.scores() if depth <= 1 and extensions > 0 else None
        for move in moves:
            game.push_unchecked(move)
            try:
                score = yield from self._child(game, me, depth, -beta, -alpha, ply + 1, before, extensions)
            finally:
                game.pop()
            if self._aborted:
                return 0.0
            if score > best_value:
                best_value, best_move = score, move
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        history[move] = history.get(move, 0) + depth * depth
                        break

        if best_value <= original_alpha:
            flag = UPPER
        elif best_value >= beta:
            flag = LOWER
        else:
            flag = EXACT
        if len(self._table) >= TABLE_LIMIT:
            self._table.clear()
        self._table[key] = (depth, flag, _to_table(best_value, ply), best_move)
        return best_value


def _to_table(value: float, ply: int) -> float:
    """Store wins relative to the node, so they read right from any ply."""
    if value >= WIN_THRESHOLD:
        return value + ply
    if value <= -WIN_THRESHOLD:
        return value - ply
    return value


def _from_table(value: float, ply: int) -> float:
    if value >= WIN_THRESHOLD:
        return value - ply
    if value <= -WIN_THRESHOLD:
        return value + ply
    return value
