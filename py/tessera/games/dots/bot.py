"""Dots bots, weakest to strongest; the capture reading is in ``eval``.

* ``DotsCaptureBot`` ("dots_capture", level easy): the biggest capture on
  offer, else a random point within two steps of a dot.  Blind to threats.
* ``DotsTacticsBot`` ("dots_tactics", level medium): scores each point near
  the dots by a two-ply reading (``eval.Tactics.move_value``): what it
  takes, the biggest capture the opponent then has (old threats that stay
  open and new ones next to the move), and the capture threats it leaves
  for the next turn; plays the best.
* ``DotsReaderBot`` ("dots_reader", level hard): the tactician's best few
  points at the root, then a selective negamax (``eval.Reader``) over
  captures, blocks and contact points next to the last moves, deepened ply
  by ply while the time lasts.  A root move after which the opponent could
  land and win comes last.
* ``DotsMctsBot`` ("dots_mcts", no level): the tactician's best few points
  shared out by UCB (a tree of depth one), each visit a capture-aware
  playout (``eval.Playout``) scored by the change in the score difference.
  Kept for experiments: in a 6-game pilot it lost 2-4 to the tactician.

Every bot declares landing when that wins at once.  All searches are
generators that yield every few candidates, after every node or playout,
and a closed search undoes its trial moves, so a cancelled search leaves
the game as it was; with a time limit of 0 only the node/iteration limits
count (tests).

Keeping the time.  A timed bot's budget starts when its search is first
resumed, that is when it is asked, before any work; every phase checks it
after each yield, and once it is spent the search answers without reading
further.  So the answer comes at most one step after the cap, and a step is
one node, one playout, one landing count or a few candidates: about a
millisecond at most in CPython on 39x32, so a few in Pyodide (2 to 3 times
slower), well inside the app's 12 ms slices.
"""

from __future__ import annotations

import math
from typing import Any, Generator

from ...bots.base import Bot, Search
from ...bots.clock import Budget
from ...core.rng import SeededRandom
from .eval import Playout, Reader, Tactics, score_candidates
from .field import Field
from .rules import LAND, Dots

SAFETY_ITERATIONS = 2000
"""Iteration cap when a search has neither a time nor an iteration limit."""
LANDING_LOSS = 1000.0
"""What the reader takes off a root move that lets the opponent land and win."""


def capture_scan(tactics: Tactics, player: int, chunk: int = 16,
                 budget: Budget | None = None) -> Generator[None, None, list[tuple[int, int]] | None]:
    """``Tactics.captures`` over every free point near the dots, ``chunk``
    points per step (a yield before each), biggest first; None if
    ``budget`` runs out first."""
    near = tactics.near_free()
    found: list[tuple[int, int]] = []
    for start in range(0, len(near), chunk):
        yield
        if budget is not None and budget.spent():
            return None
        found += tactics.captures(player, near[start:start + chunk])
    found.sort(key=lambda item: (-item[0], item[1]))
    return found


def opening_move(game: Dots, moves: list[int]) -> int:
    """The move when no dot is on the field yet: the centre point."""
    field = game.field
    centre = field.cell((field.width + 1) // 2, (field.height + 1) // 2)
    return centre if field.is_free(centre) else moves[0]


def root_moves(game: Dots) -> tuple[list[int], bool]:
    """The free points near the dots, and whether landing wins now."""
    moves = game.legal_moves()
    return moves, LAND in moves


class DotsCaptureBot(Bot):
    """The biggest capture, else a random point within two steps of a dot
    where the new dot is not captured at once."""

    name = "dots_capture"
    param_names: tuple[str, ...] = ()

    def search(self, game: Dots) -> Search:
        if game.is_over():
            return None
        moves, landing_wins = root_moves(game)
        if landing_wins:
            return LAND
        yield
        field = game.field
        tactics = Tactics(field)
        me = game.to_move
        near = tactics.near_free()
        if not near:
            return opening_move(game, moves)
        found = yield from capture_scan(tactics, me, 64)
        if found:
            return found[0][1]
        rng = SeededRandom(self.seed * 1_000_003 + game.ply)
        rng.shuffle(near)
        for c in near[:12]:
            if tactics.gain(c, me) >= 0:
                return c
        return near[0]


class DotsTacticsBot(Bot):
    """The point with the best two-ply capture score (``Tactics.move_value``);
    ``noise`` adds a seeded random amount in [0, noise) to each score."""

    name = "dots_tactics"
    param_names: tuple[str, ...] = ("noise",)

    def __init__(self, seed: int = 0, movetime_ms: int = 1000, noise: float = 0.5,
                 **params: Any) -> None:
        super().__init__(seed, movetime_ms, noise=noise, **params)
        self.noise = float(noise)

    def search(self, game: Dots) -> Search:
        budget = Budget(self.movetime_ms, clock=self.clock)
        if game.is_over():
            return None
        moves, landing_wins = root_moves(game)
        if landing_wins:
            return LAND
        yield
        rng = SeededRandom(self.seed * 1_000_003 + game.ply)
        scored = yield from score_candidates(game, rng, self.noise, budget)
        if not scored:
            return opening_move(game, moves)
        return scored[0][1]


class DotsReaderBot(Bot):
    """Selective negamax over capture-aware candidates (see ``eval.Reader``),
    deepened one ply at a time until the time or ``max_depth`` runs out.

    Parameters: ``max_depth`` (plies), ``width`` (root candidates),
    ``inner_width`` (candidates below the root), ``max_nodes`` (0: none).
    A subclass may change the reader (``make_reader``), the share of the
    time the two-ply scoring may use (``scoring_share``), whether each
    depth tries the root moves in the previous depth's order (``reorder``),
    a move played before any reading (``early_answer``), the root moves
    (``root_arms``) and what a root move loses by landing
    (``landing_penalty``).
    """

    name = "dots_reader"
    param_names: tuple[str, ...] = ("max_depth", "width", "inner_width", "max_nodes")
    scoring_share = 1 / 3
    reorder = False

    def __init__(self, seed: int = 0, movetime_ms: int = 1000, max_depth: int = 8,
                 width: int = 10, inner_width: int = 5, max_nodes: int = 0,
                 **params: Any) -> None:
        super().__init__(seed, movetime_ms, max_depth=max_depth, width=width,
                         inner_width=inner_width, max_nodes=max_nodes, **params)
        self.max_depth = max(1, int(max_depth))
        self.width = max(1, int(width))
        self.inner_width = max(1, int(inner_width))
        self.max_nodes = int(max_nodes)
        self.depth_reached = 0
        self.nodes = 0
        """Nodes the last search read (the bench's nodes per second)."""
        self._expected: tuple[int, int, int] | None = None
        """(ply after its move, the move, the reply the reading expects), for pondering."""

    def make_reader(self, field: Any, budget: Budget, hot: list[int]) -> Reader:
        return Reader(field, budget, self.inner_width, hot)

    def early_answer(self, game: Dots, budget: Budget) -> Generator[None, None, int | None]:
        """A move that needs no reading (a subclass's), or None; ``budget``
        is the scoring's share of the time."""
        return None
        yield  # a generator, for subclasses that read

    def root_arms(self, game: Dots, scored: list[tuple[float, int]],
                  budget: Budget) -> Generator[None, None, list[tuple[float, int]]]:
        """The root moves the reading weighs: the best ``width`` by two-ply
        score (a subclass may look for more while ``budget`` lasts)."""
        return scored[:self.width]
        yield  # a generator, for subclasses that read

    def landing_penalty(self, field: Field, me: int,
                        budget: Budget) -> Generator[None, None, float | None]:
        """What a root move, already on ``field``, loses by landing:
        ``LANDING_LOSS`` when the opponent could then land and win at once.
        A subclass that reads more may yield, and answers None when
        ``budget`` runs out meanwhile."""
        after = field.scores_after_landing(1 - me)
        return LANDING_LOSS if after[1 - me] > after[me] else 0.0
        yield  # a generator, for subclasses that read

    def search(self, game: Dots) -> Search:
        timed = self.movetime_ms > 0
        limit = self.max_nodes or (0 if timed else SAFETY_ITERATIONS * 10)
        budget = Budget(self.movetime_ms, limit, self.clock)
        self.depth_reached = 0
        self.nodes = 0
        self._expected = None
        if game.is_over():
            return None
        moves, landing_wins = root_moves(game)
        if landing_wins:
            return LAND
        yield
        scoring = Budget(self.movetime_ms * self.scoring_share if timed else 0, clock=self.clock)
        early = yield from self.early_answer(game, scoring)
        if early is not None:
            return early
        rng = SeededRandom(self.seed * 1_000_003 + game.ply)
        hot: list[int] = []
        scored = yield from score_candidates(game, rng, 0.05, scoring, hot)
        field = game.field
        if not scored:
            return opening_move(game, moves)
        arms = yield from self.root_arms(game, scored, budget)
        if len(arms) == 1:
            return arms[0][1]
        me = game.to_move
        stack = game.move_stack
        prev = stack[-1] if stack and stack[-1] != LAND else -1
        reader = self.make_reader(field, budget, hot)
        # Ties between equal readings go to the better two-ply score; a move
        # after which the opponent wins by landing at once comes last.
        tiebreak: dict[int, float] = {}
        for value, c in arms:
            tiebreak[c] = 0.001 * (value - arms[0][0])
            field.place(c, me)
            try:
                penalty = yield from self.landing_penalty(field, me, budget)
                if penalty is None and len(tiebreak) == 1:
                    # The first move gets at least the quick check, so there is an answer.
                    penalty = yield from DotsReaderBot.landing_penalty(self, field, me, budget)
            finally:
                field.undo()
            if penalty is None:  # the time ran out while weighing it
                del tiebreak[c]
                break
            tiebreak[c] -= penalty
            yield  # a landing count floods the whole field: one per step
            if budget.spent():
                break
        # Before any reading: the best two-ply score that does not lose by
        # landing, among the moves weighed before the time ran out.
        best = max(tiebreak, key=tiebreak.__getitem__)
        if budget.spent():
            return best
        order = [c for _, c in arms]
        replies: dict[int, int] = {}   # each root move's best reply, from the deepest reading
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
                if reader.child_best >= 0:
                    replies[move] = reader.child_best
                value += tiebreak[move]
                values[move] = value
                if value > alpha:
                    alpha, depth_best = value, move
            if depth_best is not None:
                best = depth_best
            self.nodes = reader.nodes
            if reader.aborted:
                break
            self.depth_reached = depth
            if self.reorder:
                # A move cut off by alpha-beta keeps its bound, which still ranks it.
                order.sort(key=lambda c: -values.get(c, -math.inf))
        if best in replies:
            self._expected = (game.ply + 1, best, replies[best])
        return best

    def expected_reply(self, game: Dots) -> int | None:  # type: ignore[override]
        """The reply the reading found best against the move it chose."""
        expected = self._expected
        if expected is None or game.ply != expected[0] or not game.move_stack or game.move_stack[-1] != expected[1]:
            return None
        return expected[2] if game.is_legal(expected[2]) else None


class DotsMctsBot(Bot):
    """UCB over the tactician's best ``width`` points with capture-aware
    playouts (see the module docstring).

    Parameters: ``max_iterations`` (playouts; 0: none), ``width``
    (candidates searched), ``playout_plies``, ``exploration`` (UCB
    constant), ``prior_visits`` (weight of the two-ply score, in playouts).
    """

    name = "dots_mcts"
    param_names: tuple[str, ...] = ("max_iterations", "width", "playout_plies", "exploration",
                                    "prior_visits")

    def __init__(self, seed: int = 0, movetime_ms: int = 1000, max_iterations: int = 0,
                 width: int = 8, playout_plies: int = 24, exploration: float = 0.5,
                 prior_visits: float = 6.0, **params: Any) -> None:
        super().__init__(seed, movetime_ms, max_iterations=max_iterations, width=width,
                         playout_plies=playout_plies, exploration=exploration,
                         prior_visits=prior_visits, **params)
        self.max_iterations = int(max_iterations)
        self.width = max(1, int(width))
        self.playout_plies = max(0, int(playout_plies))
        self.exploration = float(exploration)
        self.prior_visits = max(1e-6, float(prior_visits))  # 0 would divide by zero
        self.iterations = 0

    def search(self, game: Dots) -> Search:
        limit = self.max_iterations or (0 if self.movetime_ms > 0 else SAFETY_ITERATIONS)
        budget = Budget(self.movetime_ms, limit, self.clock)
        self.iterations = 0
        if game.is_over():
            return None
        moves, landing_wins = root_moves(game)
        if landing_wins:
            return LAND
        yield
        rng = SeededRandom(self.seed * 1_000_003 + game.ply)
        # Scoring may use at most half the time; the playouts get the rest.
        scoring = Budget(self.movetime_ms / 2 if self.movetime_ms > 0 else 0, clock=self.clock)
        scored = yield from score_candidates(game, rng, 0.05, scoring)
        field = game.field
        if not scored:
            return opening_move(game, moves)
        arms = scored[:self.width]
        if len(arms) == 1:
            return arms[0][1]
        best_value = arms[0][0]
        # The prior: virtual playouts whose mean falls off with the two-ply score.
        visits = [self.prior_visits] * len(arms)
        totals = [self.prior_visits * (0.5 + 0.45 * math.tanh((value - best_value) / 6.0))
                  for value, _ in arms]
        me = game.to_move
        near = Tactics(field).near_free()
        playout = Playout(field, near, rng)
        score = field.score
        root_lead = score[me] - score[1 - me]
        stack = game.move_stack
        prev = stack[-1] if stack and stack[-1] != LAND else -1
        c = self.exploration
        while True:
            n_total = sum(visits)
            log_n = math.log(n_total + 1.0)
            pick, pick_value = 0, -1.0
            for i in range(len(arms)):
                value = totals[i] / visits[i] + c * math.sqrt(log_n / visits[i])
                if value > pick_value:
                    pick, pick_value = i, value
            move = arms[pick][1]
            field.place(move, me)
            try:
                playout.run(1 - me, move, prev, self.playout_plies)
                lead = score[me] - score[1 - me] - root_lead
            finally:
                field.undo()
            visits[pick] += 1
            totals[pick] += 0.5 + 0.5 * lead / (abs(lead) + 3.0)
            self.iterations += 1
            budget.work = self.iterations
            yield
            if budget.spent():
                break
        best = max(range(len(arms)), key=lambda i: (visits[i], totals[i] / visits[i], -i))
        return arms[best][1]
