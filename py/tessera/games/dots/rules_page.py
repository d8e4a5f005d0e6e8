"""Dots' rules page: sections, rulings and small fields to play with, which
``tessera.ui.screens.rules_page`` renders (words in ``strings.json``).

Each diagram replays an example of ``examples`` on its own small field;
Back and Next step through its moves, and a tap on a free point plays a
move of the reader's own from the step shown, so the reader can test what
closes a chain, what makes a house and what landing gives away.
"""

from __future__ import annotations

from typing import Any, Sequence

from ...core.game import Game
from ...core.rules_content import Diagram, RulesContent, RulesSection
from ...i18n import t
from .examples import EXAMPLES, DotsExample

SIDES = ("blue", "red")


class DotsDiagram(Diagram):
    interactive = True

    def __init__(self, example: DotsExample) -> None:
        self.example = example
        self.key = example.key
        self.caption_key = f"rules.dots.example.{example.key}"

    @property
    def steps(self) -> int:
        return len(self.example.moves)

    def game_at(self, step: int) -> Game:
        return self.example.game(step)

    def highlights(self, step: int, game: Game) -> dict[str, Any]:
        return {}

    def status(self, step: int, game: Game, own: Sequence[str], lang: str) -> list[str]:
        def tr(key: str, **params: Any) -> str:
            return t(f"rules.dots.{key}", lang, **params)
        lines = []
        if own:
            lines.append(tr("status.own", move=", ".join(own)))
        elif step == 0:
            lines.append(tr("status.setup", side_nom=tr(f"side_nom.{SIDES[game.to_move]}")))
        else:
            lines.append(tr("status.after", n=step, total=len(self.example.moves), move=self.example.moves[step - 1]))
        blue, red = game.scores()
        lines.append(tr("status.score", blue=blue, red=red))
        outcome = game.outcome()
        if outcome is not None:
            result = "draw" if outcome.winner is None else SIDES[outcome.winner]
            lines.append(tr("status.over", result=tr(f"result.{result}")))
        else:
            lines.append(tr("status.try", side=tr(f"side.{SIDES[game.to_move]}")))
        return lines


class DotsRules(RulesContent):
    game_id = "dots"
    prefix = "rules.dots"
    sections = (
        RulesSection("field", ("p.field", "p.moves", "p.start")),
        RulesSection("capture", ("p.capture", "p.capture_small"), ("capture_small", "capture_chain")),
        RulesSection("capture_more", ("p.capture_more",), heading=False),
        RulesSection("minimum", ("p.minimum",), ("minimum_area",)),
        RulesSection("houses", ("p.houses", "p.houses_enter", "p.houses_exception"), ("house", "house_exception")),
        RulesSection("recapture", ("p.recapture",), ("recapture",)),
        RulesSection("score", ("p.score",)),
        RulesSection("landing", ("p.landing",), ("landing",)),
    )
    rulings = ("grounding", "land_move", "start", "exception", "position", "sgf", "time")

    def diagrams(self) -> list[Diagram]:
        return [DotsDiagram(example) for example in EXAMPLES]


CONTENT = DotsRules()
