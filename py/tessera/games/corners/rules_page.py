"""Corners' rules page: sections, rulings and worked examples, which
``tessera.ui.screens.rules_page`` renders (words in ``strings.json``).

Each diagram steps through an example of ``examples``: the capture's
corners are outlined on the step before it is made (``preview``), so the
reader sees the rectangle, then what it painted and filled; from any
step the reader may play on for whoever is to move.
"""

from __future__ import annotations

from typing import Any, Sequence

from ...core.game import Game
from ...core.rules_content import Diagram, ReplayedDiagram, RulesContent, RulesSection
from ...i18n import t
from .examples import EXAMPLES, CornersExample
from .geometry import CAPTURE_BASE, PASS
from .rules import Corners

SIDES = ("circles", "triangles")


class CornersDiagram(ReplayedDiagram):
    game_class = Corners
    example: CornersExample

    def highlights(self, step: int, game: Game) -> dict[str, Any]:
        marks: dict[str, Any] = {"show_last": step > 0}
        if step < len(self.example.moves):
            upcoming = game.parse_move(self.example.moves[step])
            if isinstance(upcoming, int) and CAPTURE_BASE <= upcoming < PASS:
                marks["preview"] = upcoming
        return marks

    def status(self, step: int, game: Game, own: Sequence[str], lang: str) -> list[str]:
        def tr(key: str, **params: Any) -> str:
            return t(f"rules.corners.{key}", lang, **params)
        lines = []
        if own:
            lines.append(tr("status.own", move=", ".join(own)))
        elif step == 0:
            lines.append(tr("status.start", side=t(f"seat.{SIDES[game.to_move]}", lang)))
        else:
            lines.append(tr("status.after", n=step, total=len(self.example.moves),
                            move=self.example.moves[step - 1]))
            lines.append(t(self.example.step_key(step), lang))
        if not own and step < len(self.example.moves):
            lines.append(tr("status.next", move=self.example.moves[step]))
        circles, triangles = game.scores()
        lines.append(tr("status.score", circles=circles, triangles=triangles))
        left = game.final_left  # type: ignore[attr-defined]
        if left:
            lines.append(t("corners.final_round", lang, count=left))
        outcome = game.outcome()
        if outcome is not None:
            lines.append(t("result.draw", lang) if outcome.winner is None
                         else t(f"result.win.{SIDES[outcome.winner]}", lang))
        return lines


class CornersRules(RulesContent):
    game_id = "corners"
    prefix = "rules.corners"
    sections = (
        RulesSection("board", ("p.board", "p.turns")),
        RulesSection("capture", ("p.rectangle", "p.capture"), ("upright", "tilted")),
        RulesSection("inside", ("p.inside", "p.enemy"), ("enemy_inside",)),
        RulesSection("final", ("p.final",), ("final_round",)),
        RulesSection("score", ("p.score", "p.match")),
        RulesSection("notation", ("p.notation", "p.position")),
        RulesSection("origin", ("p.origin",)),
    )
    rulings = ("coordinates", "any_angle", "must_change", "timing", "final", "match", "toss")

    def diagrams(self) -> list[Diagram]:
        return [CornersDiagram(example) for example in EXAMPLES]


CONTENT = CornersRules()
