"""Abatis' rules page: sections, decisions and worked examples, which
``tessera.ui.screens.rules_page`` renders (words in ``rules.json``).

Each diagram replays an example of ``examples`` through the engine, so what
the page shows is what the app plays.  Under the board the status says which
move was played and what it did, the score and blocks of the level, and the
next move; from any step the reader may shoot on by clicking queue chips
(Abatis has one player, so a diagram is always the reader's to play).
"""

from __future__ import annotations

from typing import Any, Sequence

from ...core.game import Game
from ...core.rules_content import Diagram, ReplayedDiagram, RulesContent, RulesSection
from ...i18n import t
from .examples import EXAMPLES, AbatisExample
from .rules import BLOCKS_PER_LEVEL, Abatis

PREFIX = "rules.abatis"


class AbatisDiagram(ReplayedDiagram):
    """Replayed with seed 0, so the stack's top-ups are the same on every
    replay, here and in the tests."""

    game_class = Abatis
    example: AbatisExample

    def status(self, step: int, game: Game, own: Sequence[str], lang: str) -> list[str]:
        assert isinstance(game, Abatis)

        def tr(key: str, **params: Any) -> str:
            return t(f"{PREFIX}.{key}", lang, **params)

        moves = self.example.moves
        lines = []
        if own:
            lines.append(tr("status.own", move=", ".join(own)))
        elif step == 0:
            lines.append(tr(f"status.start.{game.mode}"))
        else:
            lines.append(tr("status.after", n=step, total=len(moves), move=moves[step - 1]))
            lines.append(t(self.example.step_key(step), lang))
        if not own and step < len(moves):
            lines.append(tr("status.next", move=moves[step]))
        if game.level:
            lines.append(tr("status.level", level=game.level + 1))
        lines.append(tr("status.score", count=game.score, blocks=game.level_blocks, limit=BLOCKS_PER_LEVEL))
        if game.is_over():
            lines.append(tr("status.over"))
        return lines


class AbatisRules(RulesContent):
    game_id = "abatis"
    prefix = PREFIX
    sections = (
        RulesSection("goal", ("p.goal",)),
        RulesSection("board", ("p.board", "p.queues", "p.stack")),
        RulesSection("move", ("p.move", "p.modes")),
        RulesSection("classic", ("p.classic",), ("classic",)),
        RulesSection("knockout", ("p.knockout", "p.knockout_edge"), ("knockout",)),
        RulesSection("mixed", ("p.mixed",), ("mixed",)),
        RulesSection("pointers", ("p.pointers", "p.slide", "p.exit"), ("slide_out",)),
        RulesSection("blocks", ("p.blocks", "p.points"), ("block5",)),
        RulesSection("cascades", ("p.cascades",), ("cascade",)),
        RulesSection("levels", ("p.level_end", "p.layout", "p.colours"), ("cleared",)),
        RulesSection("end", ("p.end",)),
        RulesSection("undo", ("p.undo",)),
        RulesSection("scenarios", ("p.scenarios", "p.high_scores")),
        RulesSection("notation", ("p.notation", "p.letters", "p.position", "p.position_tail", "p.position_row")),
    )
    rulings = ("refill", "pass_order", "edge", "layout", "setup", "setup_limits")
    """The lead engineer's decisions where RULINGS.md is silent (rules.py's docstrings)."""

    def diagrams(self) -> list[Diagram]:
        return [AbatisDiagram(example) for example in EXAMPLES]


CONTENT = AbatisRules()
