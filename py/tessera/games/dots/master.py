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

``extend=N`` lets a line read up to N plies past its end where the last
move threatens a capture (``Reader.extensions``), and ``table=1`` keeps a
transposition table across the depths (``Reader.use_table``: often a ply
deeper in the same time); both are off by default, since neither won more
games against hard (``levels.py``).

Measured against the hard level at equal move times (``levels.py``).  A
landing-balance term at the root (own ungrounded dots against the
opponent's) was tried and lost games: the capture reading decides.
"""

from __future__ import annotations

from typing import Any

from ...bots.clock import Budget
from .bot import DotsReaderBot
from .eval import Reader


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

    Parameters: those of ``DotsReaderBot``, ``exchange``, ``extend`` and ``table``.
    """

    name = "dots_master"
    param_names: tuple[str, ...] = DotsReaderBot.param_names + ("exchange", "extend", "table")
    scoring_share = 1 / 4
    reorder = True

    def __init__(self, seed: int = 0, movetime_ms: int = 1000, max_depth: int = 40,
                 width: int = 12, inner_width: int = 5, max_nodes: int = 0, exchange: int = 1,
                 extend: int = 0, table: int = 0, **params: Any) -> None:
        super().__init__(seed, movetime_ms, max_depth=max_depth, width=width,
                         inner_width=inner_width, max_nodes=max_nodes, exchange=exchange, extend=extend,
                         table=table, **params)
        self.exchange = bool(int(exchange))
        self.extend = max(0, int(extend))
        self.table = bool(int(table))

    def make_reader(self, field: Any, budget: Budget, hot: list[int]) -> Reader:
        cls = ExchangeReader if self.exchange else Reader
        reader = cls(field, budget, self.inner_width, hot)
        reader.extensions = self.extend
        if self.table:
            reader.use_table()
        return reader
