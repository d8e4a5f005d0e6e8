"""Quadrature's rules page: the sections, rulings and worked examples that
``tessera.ui.screens.rules_page`` renders (words in ``strings.json``).

The document draws its diagrams from Black's side, so they start flipped,
and the page offers to turn them.  A diagram steps through its moves and,
where the example shows one, a last step with a forbidden move crossed
out; checkers that only pad a fragment up to a full game are drawn faded.
"""

from __future__ import annotations

from typing import Any, Sequence

from ...core.game import Game
from ...core.rules_content import Diagram, RulesContent, RulesSection
from ...i18n import t
from .examples import EXAMPLES, WorkedExample
from .rules import BLACK, WHITE, Quadrature, parse_square, square_name

SIDE_KEYS = {WHITE: "rules.quadrature.side.white", BLACK: "rules.quadrature.side.black"}


class QuadratureDiagram(Diagram):
    autoplay = True

    def __init__(self, example: WorkedExample) -> None:
        self.example = example
        self.key = example.key
        self.caption_key = example.caption_key
        self.illegal = Quadrature().parse_move(example.illegal) if example.illegal else None
        self.padding = [parse_square(name) for name in example.padding]

    @property
    def steps(self) -> int:
        return len(self.example.moves) + (1 if self.example.illegal else 0)

    def game_at(self, step: int) -> Game:
        game = Quadrature(setup=self.example.setup_position)
        for text in self.example.moves[:min(step, len(self.example.moves))]:
            game.push_text(text)
        return game

    def highlights(self, step: int, game: Game) -> dict[str, Any]:
        played = min(step, len(self.example.moves))
        marks: dict[str, Any] = {"faded": self.padding, "show_last": played > 0}
        if self.illegal is not None and step > len(self.example.moves):
            marks["illegal_move"] = self.illegal
        return marks

    def status(self, step: int, game: Game, own: Sequence[str], lang: str) -> list[str]:
        example = self.example
        played = min(step, len(example.moves))
        lines: list[str] = []
        if played == 0:
            lines.append(t("rules.quadrature.status.setup", lang, side=t(SIDE_KEYS[game.to_move], lang)))
        else:
            lines.append(t("rules.quadrature.status.after", lang, n=played, total=len(example.moves),
                           move=example.moves[played - 1]))
            converted = game.last_converted()  # type: ignore[attr-defined]
            if converted:
                lines.append(t("rules.quadrature.status.converted", lang,
                               squares=", ".join(square_name(sq) for sq in converted)))
        if self.illegal is not None and step > len(example.moves):
            lines.append(t("rules.quadrature.status.illegal", lang, move=example.illegal))
        white_marker, black_marker = game.markers  # type: ignore[attr-defined]
        if example.key.startswith("marker") or white_marker or black_marker:
            lines.append(t("rules.quadrature.status.markers", lang, white=white_marker, black=black_marker))
        outcome = game.outcome()
        if outcome is not None and outcome.winner is not None:
            lines.append(t(f"rules.quadrature.status.win.{outcome.reason}", lang,
                           side=t(SIDE_KEYS[outcome.winner], lang)))
        return lines


class QuadratureRules(RulesContent):
    game_id = "quadrature"
    prefix = "rules.quadrature"
    sections = (
        RulesSection("board", ("p.board",), view_note=True),
        RulesSection("moves", ("p.moves",), ("basic_move",)),
        RulesSection("squaring", ("p.squaring", "p.convert"),
                     ("square_one", "square_two", "shape_wide", "shape_tall", "shape_large", "shape_small")),
        RulesSection("chain", ("p.chain",), ("chain_reaction", "convert_into_square", "chain_reply"), heading=False),
        RulesSection("suicide", ("p.suicide",), ("suicide",)),
        RulesSection("marker", ("p.marker",), ("marker_one", "marker_two", "marker_clear")),
        RulesSection("winning", ("p.winning",), ("win_home_plate", "win_annihilation")),
    )
    rulings = ("coordinates", "first", "order", "suicide", "marker", "win_order", "draw", "setup")
    turnable = True
    flipped = True
    views = ("white", "black")

    def diagrams(self) -> list[Diagram]:
        return [QuadratureDiagram(example) for example in EXAMPLES]


CONTENT = QuadratureRules()
