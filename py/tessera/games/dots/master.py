"""Dots's top level, Master ("dots_master"): the reader's search, sharper,
using all its time, and knowing how games end.

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
* it keeps a few more root moves (12, not 10);
* it knows how games end: by landing (``landing.Grounding``, ``landing=0``
  turns this off).  It plays a grounding or capture after which landing
  wins whatever the opponent's biggest captures do, without reading; at
  the root it weighs the points where either side would ground enough
  dots to win by landing, and the first steps of the leader's paths to
  the ground; a root move after which the opponent could ground (or
  capture) and then win by landing comes after every other; a move that
  leaves us such a grounding gets a bonus (more for two of them, which
  one block cannot stop); and while ahead it is pulled towards grounding
  its own groups, while behind towards blocking the opponent's.

``extend=N`` lets a line read up to N plies past its end where the last
move threatens a capture (``Reader.extensions``), and ``table=1`` keeps a
transposition table across the depths (``Reader.use_table``: often a ply
deeper in the same time); both are off by default, since neither won more
games against hard (``levels.py``).

Measured against the hard level at equal move times (``levels.py``).  A
landing-balance term at the root (own ungrounded dots against the
opponent's, whoever leads) was tried and lost 3 games of 3; the landing
sums above count only where a lead can be won or lost by landing.
"""

from __future__ import annotations

from typing import Any, Generator

from ...bots.clock import Budget
from .bot import LANDING_LOSS, DotsReaderBot, capture_scan
from .eval import Reader, Tactics
from .field import Field
from .landing import Grounding
from .rules import Dots


GROUNDING_TRIED = 4
"""Winning grounding points tried per side at the root."""
REPLIES_TRIED = 4
"""The opponent's biggest captures tried against a winning grounding."""
GROUNDING_PULL = 0.25
"""Root bonus per dot a move grounds while ahead (or keeps the opponent
from grounding while behind), up to ``GROUNDING_CAP`` dots: a lead is won
only by landing, so grounding 8 dots is worth about a 2-dot capture."""
GROUNDING_CAP = 12
SINGLE_THREAT = 1.0
"""Root bonus for a move after which one of our dots would ground enough
to win by landing: the opponent must spend a move to block it."""
LANDING_NEXT = 8.0
"""Root bonus for a move (a capture) after which we could land and win."""
DOUBLE_THREAT = 4.0
"""The same with two or more such points: one block cannot stop them all."""


def _landing_margin(field: Field, player: int) -> int:
    after = field.scores_after_landing(player)
    return after[player] - after[1 - player]


def _captures_to_land(field: Field, player: int, budget: Budget | None) -> Generator[None, None, bool | None]:
    """Whether one of ``player``'s biggest captures now would let it land
    and win (a capture's region may ground a whole group); None if
    ``budget`` runs out first."""
    captures = yield from capture_scan(Tactics(field), player, budget=budget)
    if captures is None:
        return None
    for _, point in captures[:REPLIES_TRIED]:
        yield
        if budget is not None and budget.spent():
            return None
        field.place(point, player)
        won = _landing_margin(field, player) > 0
        field.undo()
        if won:
            return True
    return False


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


class DotsMasterBot(DotsReaderBot):
    """The reader's search with the exchange leaf (``exchange=0`` turns it
    off), a quarter of the time for the scoring, root moves re-ordered by
    each depth, and by default 12 root moves and no depth cap that matters.

    With ``landing=1`` (the default) it also weighs how the game ends by
    landing (see the module docstring).

    Parameters: those of ``DotsReaderBot``, ``exchange``, ``extend``,
    ``table`` and ``landing``.
    """

    name = "dots_master"
    param_names: tuple[str, ...] = DotsReaderBot.param_names + ("exchange", "extend", "table", "landing")
    scoring_share = 1 / 4
    reorder = True

    def __init__(self, seed: int = 0, movetime_ms: int = 1000, max_depth: int = 40,
                 width: int = 12, inner_width: int = 5, max_nodes: int = 0, exchange: int = 1,
                 extend: int = 0, table: int = 0, landing: int = 1, **params: Any) -> None:
        super().__init__(seed, movetime_ms, max_depth=max_depth, width=width,
                         inner_width=inner_width, max_nodes=max_nodes, exchange=exchange, extend=extend,
                         table=table, landing=landing, **params)
        self.landing = bool(int(landing))
        self._root_lead = 0
        self._root_expected = 0.0
        self.exchange = bool(int(exchange))
        self.extend = max(0, int(extend))
        self.table = bool(int(table))

    def early_answer(self, game: Dots, budget: Budget) -> Generator[None, None, int | None]:
        """A point where our dot grounds enough dots that landing then
        wins, and still wins after each of the opponent's biggest captures:
        the game is won, so no reading is needed."""
        if not self.landing:
            return None
        field, me = game.field, game.to_move
        tactics = Tactics(field)
        options = Grounding(field, me).winning_points()[:GROUNDING_TRIED]
        captures = yield from capture_scan(tactics, me, budget=budget)
        if captures is None:
            return None
        options += [c for _, c in captures[:REPLIES_TRIED]]
        best, best_margin = None, 0
        for point in options:
            yield
            if budget.spent():
                break
            field.place(point, me)
            try:
                if _landing_margin(field, me) <= 0:
                    continue
                replies = yield from capture_scan(tactics, 1 - me, budget=budget)
                if replies is None:
                    break
                worst = _landing_margin(field, me)
                for _, reply in replies[:REPLIES_TRIED]:
                    yield
                    field.place(reply, 1 - me)
                    worst = min(worst, _landing_margin(field, me))
                    field.undo()
            finally:
                field.undo()
            if worst > best_margin:
                best, best_margin = point, worst
        return best

    def root_arms(self, game: Dots, scored: list[tuple[float, int]],
                  budget: Budget) -> Generator[None, None, list[tuple[float, int]]]:
        """The reader's arms, the points where either side would ground
        enough dots to win by landing (to take, or to block), the first
        steps of the leader's best paths to the ground (to take while ahead,
        to block while behind), and while we lead, the points that leave us
        a winning grounding (a landing threat)."""
        arms = yield from super().root_arms(game, scored, budget)
        if not self.landing:
            return arms
        field, me = game.field, game.to_move
        mine, theirs = Grounding(field, me), Grounding(field, 1 - me)
        self._root_lead = field.score[me] - field.score[1 - me]
        urgent = set(mine.winning_points()[:GROUNDING_TRIED] + theirs.winning_points()[:GROUNDING_TRIED])
        # The leader's ways to the ground: to take while ahead, to block while behind.
        leader = mine if self._root_lead > 0 else theirs if self._root_lead < 0 else None
        if leader is not None:
            yield  # two floods of the field so far: the paths get a step of their own
            steps, firsts = leader.distances()
            dots = leader.group_dots()
            groups = sorted(range(1, len(dots)), key=lambda label: -dots[label] / steps[label])
            urgent.update(firsts[label] for label in groups[:GROUNDING_TRIED] if firsts[label] >= 0)
            self._root_expected = leader.expected_cost(steps)
        if self._root_lead > 0 and not budget.spent():
            # Where a dot leaves a grounding that wins: one ungrounded dot more
            # to pay for, so the margin after both moves must still be above 0.
            for point in mine.frontier:
                yield
                if budget.spent():
                    break
                field.place(point, me)
                after = Grounding(field, me)
                field.undo()
                if after.winning_points():
                    urgent.add(point)
        known = {c for _, c in arms}
        arms = arms + [item for item in scored if item[1] in urgent and item[1] not in known]
        return arms

    def landing_penalty(self, field: Field, me: int,
                        budget: Budget) -> Generator[None, None, float | None]:
        """The hard level's penalty; half of it when the opponent could then
        ground enough dots with one move to win by landing next (a move we
        could answer only by capturing); a bonus when we could (more when
        in two ways, which one block cannot stop; most for a capture after
        which we could land and win); and a pull towards grounding our own
        groups while ahead, or keeping the opponent's from the ground while
        behind, by how much the move changes the leader's expected landing
        cost (``Grounding.expected_cost``)."""
        if not self.landing:
            return (yield from super().landing_penalty(field, me, budget))
        theirs = Grounding(field, 1 - me)
        if theirs.margin > 0:
            return LANDING_LOSS
        if theirs.winning_points():
            return LANDING_LOSS / 2
        landing = yield from _captures_to_land(field, 1 - me, budget)
        if landing is None:
            return None
        if landing:
            return LANDING_LOSS / 2
        yield
        if budget.spent():
            return None
        mine = Grounding(field, me)
        if mine.margin > 0:
            return -LANDING_NEXT
        threats = len(mine.winning_points())
        if threats:
            return -DOUBLE_THREAT if threats > 1 else -SINGLE_THREAT
        yield
        if budget.spent():
            return None
        if self._root_lead > 0:
            grounded = self._root_expected - mine.expected_cost(mine.distances()[0])
        elif self._root_lead < 0:
            grounded = theirs.expected_cost(theirs.distances()[0]) - self._root_expected
        else:
            return 0.0
        return -GROUNDING_PULL * max(-1.0, min(grounded, GROUNDING_CAP))

    def make_reader(self, field: Any, budget: Budget, hot: list[int]) -> Reader:
        cls = ExchangeReader if self.exchange else Reader
        reader = cls(field, budget, self.inner_width, hot)
        reader.extensions = self.extend
        if self.table:
            reader.use_table()
        return reader
