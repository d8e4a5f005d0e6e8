"""The Quadrature rules page: our own text and the document's worked examples.

The words live in ``i18n/rules_quadrature.json`` (English and Russian).
The diagrams are not pictures: each is a worked example from
``games/quadrature/examples.py`` replayed by the engine and drawn by a
display-only ``BoardComponent``, so a diagram can never disagree with the
rules the app plays by (the unit tests replay the same examples).  Each
diagram steps through its moves: the setup, then the position after each
move with the converted checkers ringed, then, where the example shows a
forbidden move, that move crossed out.  The diagrams are drawn from Black's
side, as the document draws them, and "Turn the diagrams round" shows them
from White's; the sentence that says which side they are seen from follows.

The app routes ``#/rules/quadrature`` to ``mount(container, lang)``, which
returns a ``RulesPage``; call its ``destroy()`` when leaving the page.
"""

from __future__ import annotations

import asyncio
from typing import Any, Callable

import js  # type: ignore[import-not-found]

from ..core.view import ViewState
from ..games.quadrature import Quadrature
from ..games.quadrature.examples import EXAMPLES, WorkedExample
from ..games.quadrature.rules import BLACK, WHITE, parse_square, square_name
from ..games.quadrature.view import QuadratureView
from ..i18n import t
from .board import BoardComponent
from .dom import Listeners, button, el

STYLESHEET = "./assets/css/board.css"
PLAY_STEP_SECONDS = 1.1

# Which examples illustrate which section; the rest go to a final section.
SECTIONS: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...] = (
    ("board", ("p.board",), ()),
    ("moves", ("p.moves",), ("basic_move",)),
    ("squaring", ("p.squaring", "p.convert"),
     ("square_one", "square_two", "shape_wide", "shape_tall", "shape_large", "shape_small")),
    ("chain", ("p.chain",), ("chain_reaction", "convert_into_square", "chain_reply")),
    ("suicide", ("p.suicide",), ("suicide",)),
    ("marker", ("p.marker",), ("marker_one", "marker_two", "marker_clear")),
    ("winning", ("p.winning",), ("win_home_plate", "win_annihilation")),
)
RULINGS = ("coordinates", "first", "order", "suicide", "marker", "win_order", "draw", "setup")
SIDE_KEYS = {WHITE: "rules.quadrature.side.white", BLACK: "rules.quadrature.side.black"}


def _ensure_stylesheet() -> None:
    """Link the board and rules styles once, if the page does not already."""
    if js.document.querySelector('link[data-tessera-css="board"]'):
        return
    for link in js.document.querySelectorAll('link[rel="stylesheet"]'):
        if str(link.getAttribute("href") or "").endswith("board.css"):
            return
    link = el("link", None, None, {"rel": "stylesheet", "href": STYLESHEET, "data-tessera-css": "board"})
    js.document.head.appendChild(link)


def rules_article(game_id: str, lang: str, tr: Callable[[str], str]) -> Any:
    """The frame every game's rules page starts with: title, credit, lead."""
    root = el("article", "rules-page", None, {"lang": lang, "data-game": game_id})
    root.appendChild(el("h1", None, tr("title")))
    root.appendChild(el("p", "rules-credit", tr("credit")))
    root.appendChild(el("p", "rules-lead", tr("intro")))
    return root


class ExampleDiagram:
    """One worked example: a board, its caption and step-through buttons."""

    def __init__(self, example: WorkedExample, lang: str, listeners: Listeners) -> None:
        self.example = example
        self.lang = lang
        self.step = 0
        self.illegal = parse_square_move(example.illegal) if example.illegal else None
        self.flipped = True   # seen from Black's side, as the document draws its diagrams
        self.total = len(example.moves) + (1 if example.illegal else 0)
        self.padding = [parse_square(name) for name in example.padding]
        self._task: asyncio.Task | None = None
        self._closed = False

        caption = t(example.caption_key, lang)
        self.node = el("figure", "rules-example", None, {"data-example": example.key})
        self.host = el("div", "rules-board-host")
        self.status = el("p", "rules-example-status", None, {"aria-live": "polite"})
        self.play_button = button(t("rules.quadrature.play", lang), self._on_play, listeners,
                                  "btn btn-small", {"data-action": "play"})
        self.step_button = button(t("rules.quadrature.step", lang), self._on_step, listeners,
                                  "btn btn-small", {"data-action": "step"})
        self.reset_button = button(t("rules.quadrature.reset", lang), self._on_reset, listeners,
                                   "btn btn-small", {"data-action": "reset"})
        controls = el("div", "rules-example-controls", None, None,
                      [self.play_button, self.step_button, self.reset_button])
        self.node.appendChild(self.host)
        self.node.appendChild(el("figcaption", None, caption))
        self.node.appendChild(controls)
        self.node.appendChild(self.status)
        self.board = BoardComponent(self.host, QuadratureView(), interactive=False,
                                    label=t("rules.quadrature.diagram_label", lang, caption=caption))

    def show(self) -> None:
        """Draw the current step and describe it under the board."""
        example, step = self.example, self.step
        game = Quadrature(setup=example.setup_position)
        played = min(step, len(example.moves))
        for text in example.moves[:played]:
            game.push_text(text)
        highlights: dict[str, Any] = {"faded": self.padding, "show_last": played > 0}
        lines: list[str] = []
        if played == 0:
            lines.append(t("rules.quadrature.status.setup", self.lang,
                           side=t(SIDE_KEYS[game.to_move], self.lang)))
        else:
            lines.append(t("rules.quadrature.status.after", self.lang, n=played,
                           total=len(example.moves), move=example.moves[played - 1]))
            converted = game.last_converted()
            if converted:
                lines.append(t("rules.quadrature.status.converted", self.lang,
                               squares=", ".join(square_name(sq) for sq in converted)))
        if self.illegal is not None and step > len(example.moves):
            highlights["illegal_move"] = self.illegal
            lines.append(t("rules.quadrature.status.illegal", self.lang, move=example.illegal))
        white_marker, black_marker = game.markers
        if example.key.startswith("marker") or white_marker or black_marker:
            lines.append(t("rules.quadrature.status.markers", self.lang,
                           white=white_marker, black=black_marker))
        outcome = game.outcome()
        if outcome is not None and outcome.winner is not None:
            lines.append(t(f"rules.quadrature.status.win.{outcome.reason}", self.lang,
                           side=t(SIDE_KEYS[outcome.winner], self.lang)))
        state = ViewState(flipped=self.flipped, interactive=False, highlights=highlights)
        self.board.show(game, state)
        self.status.textContent = " ".join(lines)
        self.node.dataset.step = str(step)
        at_end = step >= self.total
        self.step_button.disabled = at_end
        self.play_button.disabled = at_end or self._task is not None
        self.reset_button.disabled = step == 0 and self._task is None

    def _on_step(self, event: Any = None) -> None:
        self._stop()
        if self.step < self.total:
            self.step += 1
        self.show()

    def _on_reset(self, event: Any = None) -> None:
        self._stop()
        self.step = 0
        self.show()

    def _on_play(self, event: Any = None) -> None:
        self._stop()
        if self.step >= self.total:
            self.step = 0
        self._task = asyncio.ensure_future(self._play())
        self.show()

    async def _play(self) -> None:
        """Show the setup briefly, then each step in turn."""
        try:
            while self.step < self.total and not self._closed:
                await asyncio.sleep(PLAY_STEP_SECONDS)
                if self._closed:
                    return
                self.step += 1
                if self.step >= self.total:
                    self._task = None
                self.show()
        finally:
            self._task = None
            if not self._closed:
                self.show()

    def _stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()

    def destroy(self) -> None:
        self._closed = True
        self._stop()
        self.board.destroy()


def parse_square_move(text: str) -> int:
    """``e5-f6`` to a move, through a throwaway engine (notation lives there)."""
    return Quadrature().parse_move(text)


class RulesPage:
    """The mounted page; ``destroy`` releases its boards and listeners."""

    def __init__(self, container: Any, lang: str) -> None:
        _ensure_stylesheet()
        self.lang = lang
        self.listeners = Listeners()
        self.diagrams: list[ExampleDiagram] = []
        by_key = {example.key: example for example in EXAMPLES}
        used: set[str] = set()

        def tr(key: str) -> str:
            return t(f"rules.quadrature.{key}", lang)

        root = rules_article("quadrature", lang, tr)
        self.flipped = True
        self.view_text = el("p", "rules-view", tr("view.black"), {"aria-live": "polite"})
        self.turn_button = button(tr("turn"), lambda event: self.turn(), self.listeners, "btn btn-small",
                                  {"data-action": "turn", "aria-pressed": "false"})
        note = el("aside", "rules-note", None, None,
                  [el("h2", None, tr("h.diagrams")), self.view_text, self.turn_button,
                   el("p", None, tr("p.examples"))])

        for section_key, paragraphs, example_keys in SECTIONS:
            heading_key = "h.squaring" if section_key == "chain" else f"h.{section_key}"
            section = el("section", "rules-section", None, {"data-section": section_key})
            if section_key != "chain":
                section.appendChild(el("h2", None, tr(heading_key)))
            for paragraph in paragraphs:
                section.appendChild(el("p", None, tr(paragraph)))
            if section_key == "board":
                section.appendChild(note)
            examples = [by_key[key] for key in example_keys if key in by_key]
            if examples:
                section.appendChild(self._grid(examples))
                used.update(example.key for example in examples)
            root.appendChild(section)

        rest = [example for example in EXAMPLES if example.key not in used]
        if rest:
            section = el("section", "rules-section", None, {"data-section": "examples"})
            section.appendChild(el("h2", None, tr("h.examples")))
            section.appendChild(self._grid(rest))
            root.appendChild(section)

        rulings = el("section", "rules-section rules-rulings", None, {"data-section": "rulings"})
        rulings.appendChild(el("h2", None, tr("h.rulings")))
        rulings.appendChild(el("p", None, tr("p.rulings")))
        rulings.appendChild(el("ul", None, None, None,
                               [el("li", None, tr(f"ruling.{key}")) for key in RULINGS]))
        root.appendChild(rulings)

        self.root = root
        root.dataset.view = "black"
        container.appendChild(root)
        # Boards measure their hosts, so draw once the page is in the document.
        for diagram in self.diagrams:
            diagram.show()

    def turn(self) -> None:
        """Show every diagram from the other side (Black's, as the document
        draws them, or White's), and say which."""
        self.flipped = not self.flipped
        for diagram in self.diagrams:
            diagram.flipped = self.flipped
            diagram.show()
        self.view_text.textContent = t("rules.quadrature.view." + ("black" if self.flipped else "white"), self.lang)
        self.turn_button.setAttribute("aria-pressed", "false" if self.flipped else "true")
        self.root.dataset.view = "black" if self.flipped else "white"

    def _grid(self, examples: list[WorkedExample]) -> Any:
        grid = el("div", "rules-example-grid")
        for example in examples:
            diagram = ExampleDiagram(example, self.lang, self.listeners)
            self.diagrams.append(diagram)
            grid.appendChild(diagram.node)
        return grid

    def destroy(self) -> None:
        for diagram in self.diagrams:
            diagram.destroy()
        self.diagrams.clear()
        self.listeners.clear()
        if self.root.parentNode:  # JS null arrives as the falsy jsnull, not None
            self.root.parentNode.removeChild(self.root)


def mount(container: Any, lang: str, game_id: str = "quadrature") -> Any:
    """Build the game's rules page inside ``container`` in ``lang``."""
    if game_id == "dots":
        from .rules_dots import DotsRulesPage
        return DotsRulesPage(container, lang)
    return RulesPage(container, lang)
