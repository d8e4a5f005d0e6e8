"""A game's rules page: our own words and worked examples to step through.

The page is the same for every game; what it says and shows is the game's
``CONTENT`` (``core.rules_content``; the registry says where it lives):
sections of paragraphs, worked examples, rulings.  The diagrams are not
pictures: each is a ``<tessera-board game=... example=...>``, the element
any page may embed (``assets/js/embed.js``; ``embed.example`` is its
board), served here by the app's own Python.  So a diagram is replayed by
the game's engine and drawn by its board view, and can never disagree with
the rules the app plays by (the unit tests replay the same examples).
Back, Next and Start again step through a diagram's moves, Play steps by
itself where the diagram asks for it, and where a diagram is interactive
a tap plays a move of the reader's own from the step shown.  The boards
take the app's theme and coordinates setting as attributes.  Where the
diagrams can be seen from either side (Quadrature's are drawn from
Black's, as the document draws them), a note says which and turns them.
Tables may hold pictures (SVG the game's content made with
``core.draw.to_svg``), and the lead may link to sections further down
(``RulesContent.intro_links``): a link scrolls to its section and moves the
focus to its heading, without changing the route.

The app routes ``#/rules/<game>`` to ``mount(container, lang, game_id)``;
call ``destroy()`` on the returned page when leaving it.
"""

from __future__ import annotations

from typing import Any, Callable

import js  # type: ignore[import-not-found]
from pyodide.ffi import to_js  # type: ignore[import-not-found]

from .. import settings
from ...core import registry
from ...core.rules_content import Diagram, RulesContent
from ...i18n import t
from ..dom import Listeners, button, el, present
from ..embed.element import serve_app

STYLESHEET = "./assets/css/board.css"
EMBED_SCRIPT = "./embed.js"


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


class ExampleElement:
    """One worked example on the page: a ``<tessera-board example=...>``
    (``embed.example``, the element any page may embed) and its caption."""

    def __init__(self, diagram: Diagram, content: RulesContent, lang: str, flipped: bool) -> None:
        self.diagram = diagram
        self.element = el("tessera-board", None, None, {
            "game": content.game_id, "example": diagram.key, "mode": "step", "lang": lang})
        self.set_look(flipped)
        self.node = el("figure", f"rules-example rules-example-{content.game_id}", None,
                       {"data-example": diagram.key},
                       [self.element, el("figcaption", None, t(diagram.caption_key, lang))])

    def set_look(self, flipped: bool | None = None) -> None:
        """The app's theme and coordinates (and the side seen from, when given)."""
        element = self.element
        element.setAttribute("theme", settings.theme())
        if settings.get("coordinates") != "off":
            element.setAttribute("coords", "")
        else:
            element.removeAttribute("coords")
        if flipped is not None:
            element.setAttribute("flip", "on" if flipped else "off")


def _serve_elements() -> None:
    """The app's Python serves the page's ``<tessera-board>`` elements, and
    ``embed.js`` (which defines the element) is loaded once."""
    serve_app()
    if present(js.customElements.get("tessera-board")) or js.document.querySelector("script[data-tessera-embed]"):
        return
    js.document.head.appendChild(el("script", None, None, {
        "type": "module", "src": EMBED_SCRIPT, "data-tessera-embed": ""}))


class RulesPage:
    """The mounted page; ``destroy`` releases its boards and listeners."""

    def __init__(self, container: Any, lang: str, content: RulesContent) -> None:
        _ensure_stylesheet()
        _serve_elements()
        self.lang = lang
        self.content = content
        self.listeners = Listeners()
        self.diagrams: list[ExampleElement] = []
        self._unsubscribe = settings.subscribe(self._on_setting)
        self.flipped = content.flipped
        by_key = {diagram.key: diagram for diagram in content.diagrams()}
        used: set[str] = set()

        def tr(key: str) -> str:
            return t(f"{content.prefix}.{key}", lang)

        root = rules_article(content.game_id, lang, tr)
        self.root = root
        if content.intro_links:
            root.appendChild(self._links(tr))
        self.view_text: Any = None
        self.turn_button: Any = None
        for section in content.sections:
            node = el("section", "rules-section", None, {"data-section": section.key})
            if section.heading:
                node.appendChild(el("h2", None, tr(f"h.{section.key}")))
            for paragraph in section.paragraphs:
                node.appendChild(el("p", None, tr(paragraph)))
            for table in content.tables(section.key, lang):
                node.appendChild(rules_table(table))
            if section.view_note and content.turnable:
                node.appendChild(self._view_note(tr))
            examples = [by_key[key] for key in section.examples if key in by_key]
            if examples:
                node.appendChild(self._grid(examples))
                used.update(diagram.key for diagram in examples)
            root.appendChild(node)
        rest = [diagram for key, diagram in by_key.items() if key not in used]
        if rest:
            self._leftover(root, rest, tr)
        if content.rulings:
            rulings = el("section", "rules-section rules-rulings", None, {"data-section": "rulings"})
            rulings.appendChild(el("h2", None, tr("h.rulings")))
            rulings.appendChild(el("p", None, tr("p.rulings")))
            rulings.appendChild(el("ul", None, None, None,
                                   [el("li", None, tr(f"ruling.{key}")) for key in content.rulings]))
            root.appendChild(rulings)
        if content.turnable:
            root.dataset.view = content.views[1 if self.flipped else 0]
        container.appendChild(root)

    def _on_setting(self, key: str, value: str) -> None:
        if key in ("theme", "coordinates"):
            for diagram in self.diagrams:
                diagram.set_look()

    def _links(self, tr: Callable[[str], str]) -> Any:
        """"On this page:" and a link to each section the content names.

        A link names its section's route (``#/rules/<game>/<section>``, what
        a copied link opens); a click scrolls there without remounting the page."""
        label_id = f"rules-links-{self.content.game_id}"
        items = []
        for key in self.content.intro_links:
            link = el("a", None, tr(f"h.{key}"), {"href": f"#/rules/{self.content.game_id}/{key}",
                                                   "data-section": key})
            self.listeners.on(link, "click", lambda event, key=key: self._jump(event, key))
            items.append(el("li", None, None, None, [link]))
        return el("nav", "rules-links", None, {"aria-labelledby": label_id},
                  [el("span", None, tr("links"), {"id": label_id}), el("ul", None, None, None, items)])

    def _jump(self, event: Any, key: str) -> None:
        event.preventDefault()
        self.show_section(key)

    def show_section(self, key: str) -> None:
        """Scroll section ``key`` to the top of the window and focus its heading."""
        section = self.root.querySelector(f'section[data-section="{key}"]')
        if not section:   # JS null is falsy
            return
        section.scrollIntoView()
        heading = section.querySelector("h2")
        if heading:
            heading.setAttribute("tabindex", "-1")   # focusable by script only, so a reader goes on from there
            heading.focus(to_js({"preventScroll": True}, dict_converter=js.Object.fromEntries))

    def _leftover(self, root: Any, rest: list[Diagram], tr: Callable[[str], str]) -> None:
        node = el("section", "rules-section", None, {"data-section": "examples"})
        node.appendChild(el("h2", None, tr(self.content.leftover_heading)))
        node.appendChild(self._grid(rest))
        root.appendChild(node)

    def _view_note(self, tr: Callable[[str], str]) -> Any:
        views = self.content.views
        self.view_text = el("p", "rules-view", tr(f"view.{views[1 if self.flipped else 0]}"),
                            {"aria-live": "polite"})
        self.turn_button = button(tr("turn"), lambda event: self.turn(), self.listeners, "btn btn-small",
                                  {"data-action": "turn", "aria-pressed": "false"})
        return el("aside", "rules-note", None, None,
                  [el("h2", None, tr("h.diagrams")), self.view_text, self.turn_button, el("p", None, tr("p.examples"))])

    def turn(self) -> None:
        """Show every diagram from the other side, and say which."""
        self.flipped = not self.flipped
        for diagram in self.diagrams:
            diagram.set_look(self.flipped)
        name = self.content.views[1 if self.flipped else 0]
        if self.view_text is not None:
            self.view_text.textContent = t(f"{self.content.prefix}.view.{name}", self.lang)
            self.turn_button.setAttribute("aria-pressed", "true" if self.flipped != self.content.flipped else "false")
        self.root.dataset.view = name

    def _grid(self, diagrams: list[Diagram]) -> Any:
        grid = el("div", "rules-example-grid")
        for diagram in diagrams:
            shown = ExampleElement(diagram, self.content, self.lang, self.flipped)
            self.diagrams.append(shown)
            grid.appendChild(shown.node)
        return grid

    def destroy(self) -> None:
        self._unsubscribe()
        self.diagrams.clear()   # each element unmounts its board as it leaves the page
        self.listeners.clear()
        if self.root.parentNode:  # JS null arrives as the falsy jsnull, not None
            self.root.parentNode.removeChild(self.root)


class TitleOnlyPage(RulesPage):
    """A game without rules content yet: title, credit and lead."""

    def __init__(self, container: Any, lang: str, game_id: str) -> None:
        _ensure_stylesheet()
        self.lang = lang
        self.listeners = Listeners()
        self.diagrams = []
        self._unsubscribe = lambda: None
        self.root = rules_article(game_id, lang, lambda key: t(f"rules.{game_id}.{key}", lang))
        container.appendChild(self.root)


def mount(container: Any, lang: str, game_id: str) -> RulesPage:
    """Build the game's rules page inside ``container`` in ``lang``."""
    content = registry.part_attribute(game_id, "rules_page", "CONTENT")
    if content is None:
        return TitleOnlyPage(container, lang, game_id)
    return RulesPage(container, lang, content)


def rules_table(table: Any) -> Any:
    """A ``core.rules_content.RulesTable`` as a ``<table>``; picture columns
    get their SVG markup (our own, see ``RulesTable``)."""
    node = el("table", "rules-table", None, {"data-table": table.key})
    node.appendChild(el("caption", None, table.caption))
    head = el("tr")
    for label in table.header:
        head.appendChild(el("th", None, label, {"scope": "col"}))
    node.appendChild(el("thead", None, None, None, [head]))
    body = el("tbody")
    for row in table.rows:
        line = el("tr")
        for index, cell in enumerate(row):
            if index in table.picture_columns:
                picture = el("td", "rules-picture")
                picture.innerHTML = cell
                line.appendChild(picture)
                continue
            line.appendChild(el("td", None, cell))
        body.appendChild(line)
    node.appendChild(body)
    return node
