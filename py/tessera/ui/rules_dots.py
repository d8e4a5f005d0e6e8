"""The Dots rules page: our own words and small fields to play with.

The words live in ``i18n/rules_dots.json`` (English and Russian).  Each
diagram is an example from ``games/dots/examples.py`` replayed by the
engine and drawn by ``DotsView``: Back and Next step through its moves,
and a tap on a free point plays a move of the reader's own from the step
shown (for whoever is to move), so the reader can test what closes a
chain, what makes a house, and what landing gives away.

``rules_page.mount(container, lang, game_id="dots")`` builds it; call
``destroy()`` on the returned page when leaving.
"""

from __future__ import annotations

from typing import Any

from ..core.game import GameError, Move
from ..core.view import ViewState
from ..games.dots.examples import EXAMPLES, DotsExample, SmallField
from ..games.dots.view import DotsView
from ..i18n import t
from .board import BoardComponent
from .dom import Listeners, button, el

SECTIONS: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...] = (
    ("field", ("p.field", "p.moves", "p.start"), ()),
    ("capture", ("p.capture", "p.capture_small"), ("capture_small", "capture_chain")),
    ("capture_more", ("p.capture_more",), ()),
    ("minimum", ("p.minimum",), ("minimum_area",)),
    ("houses", ("p.houses", "p.houses_enter", "p.houses_exception"), ("house", "house_exception")),
    ("recapture", ("p.recapture",), ("recapture",)),
    ("score", ("p.score",), ()),
    ("landing", ("p.landing",), ("landing",)),
)
RULINGS = ("grounding", "land_move", "start", "exception", "position", "sgf", "time")
SIDES = ("blue", "red")


class DotsDiagram:
    """One example: a small field, its caption, Back / Next / Start again."""

    def __init__(self, example: DotsExample, lang: str, listeners: Listeners) -> None:
        self.example = example
        self.lang = lang
        self.step = 0
        self.own: list[str] = []       # the reader's moves after ``step``
        caption = self.tr(f"example.{example.key}")
        self.node = el("figure", "rules-example rules-example-dots", None, {"data-example": example.key})
        self.host = el("div", "rules-board-host")
        self.status = el("p", "rules-example-status", None, {"aria-live": "polite"})
        self.back_button = button(self.tr("back"), lambda e: self._go(self.step - 1), listeners,
                                  "btn btn-small", {"data-action": "back"})
        self.step_button = button(self.tr("step"), lambda e: self._go(self.step + 1), listeners,
                                  "btn btn-small", {"data-action": "step"})
        self.reset_button = button(self.tr("reset"), lambda e: self._go(0), listeners,
                                   "btn btn-small", {"data-action": "reset"})
        controls = el("div", "rules-example-controls", None, None,
                      [self.back_button, self.step_button, self.reset_button])
        self.node.appendChild(self.host)
        self.node.appendChild(el("figcaption", None, caption))
        self.node.appendChild(controls)
        self.node.appendChild(self.status)
        from .game_adapters import DotsUI
        self.board = BoardComponent(self.host, DotsView(), on_move=self._on_move, zoom=False,
                                    label=self.tr("diagram_label", caption=caption),
                                    describe=DotsUI().describe_cell)
        self.game: SmallField = example.game(0)

    def tr(self, key: str, **params: Any) -> str:
        return t(f"rules.dots.{key}", self.lang, **params)

    def _go(self, step: int) -> None:
        self.step = max(0, min(len(self.example.moves), step))
        self.own = []
        self.show()

    def _on_move(self, move: Move) -> None:
        """The reader plays on from the step shown."""
        try:
            text = self.game.move_text(move)
            self.game.push(move)
        except GameError:
            return
        self.own.append(text)
        self.show(rebuild=False)

    def show(self, rebuild: bool = True) -> None:
        example = self.example
        if rebuild:
            self.game = example.game(self.step)
        game = self.game
        lines = []
        if self.own:
            lines.append(self.tr("status.own", move=", ".join(self.own)))
        elif self.step == 0:
            lines.append(self.tr("status.setup", side_nom=self.tr(f"side_nom.{SIDES[game.to_move]}")))
        else:
            lines.append(self.tr("status.after", n=self.step, total=len(example.moves),
                                 move=example.moves[self.step - 1]))
        blue, red = game.scores()
        lines.append(self.tr("status.score", blue=blue, red=red))
        outcome = game.outcome()
        if outcome is not None:
            result = "draw" if outcome.winner is None else SIDES[outcome.winner]
            lines.append(self.tr("status.over", result=self.tr(f"result.{result}")))
        else:
            lines.append(self.tr("status.try", side=self.tr(f"side.{SIDES[game.to_move]}")))
        self.board.show(game, ViewState(interactive=not game.is_over()))
        self.status.textContent = " ".join(lines)
        self.node.dataset.step = str(self.step)
        self.node.dataset.score = f"{blue}:{red}"
        self.back_button.disabled = self.step == 0 and not self.own
        self.step_button.disabled = self.step >= len(example.moves) and not self.own
        self.reset_button.disabled = self.step == 0 and not self.own

    def destroy(self) -> None:
        self.board.destroy()


class DotsRulesPage:
    """The mounted page; ``destroy`` releases its boards and listeners."""

    def __init__(self, container: Any, lang: str) -> None:
        from .rules_page import _ensure_stylesheet, rules_article
        _ensure_stylesheet()
        self.lang = lang
        self.listeners = Listeners()
        self.diagrams: list[DotsDiagram] = []
        by_key = {example.key: example for example in EXAMPLES}

        def tr(key: str) -> str:
            return t(f"rules.dots.{key}", lang)

        root = rules_article("dots", lang, tr)
        for section_key, paragraphs, example_keys in SECTIONS:
            section = el("section", "rules-section", None, {"data-section": section_key})
            if section_key != "capture_more":
                section.appendChild(el("h2", None, tr(f"h.{section_key}")))
            for paragraph in paragraphs:
                section.appendChild(el("p", None, tr(paragraph)))
            examples = [by_key[key] for key in example_keys if key in by_key]
            if examples:
                grid = el("div", "rules-example-grid")
                for example in examples:
                    diagram = DotsDiagram(example, lang, self.listeners)
                    self.diagrams.append(diagram)
                    grid.appendChild(diagram.node)
                section.appendChild(grid)
            root.appendChild(section)

        rulings = el("section", "rules-section rules-rulings", None, {"data-section": "rulings"})
        rulings.appendChild(el("h2", None, tr("h.rulings")))
        rulings.appendChild(el("p", None, tr("p.rulings")))
        rulings.appendChild(el("ul", None, None, None,
                               [el("li", None, tr(f"ruling.{key}")) for key in RULINGS]))
        root.appendChild(rulings)
        self.root = root
        container.appendChild(root)
        for diagram in self.diagrams:   # boards measure their hosts: draw once attached
            diagram.show()

    def destroy(self) -> None:
        for diagram in self.diagrams:
            diagram.destroy()
        self.diagrams.clear()
        self.listeners.clear()
        if self.root.parentNode:
            self.root.parentNode.removeChild(self.root)
