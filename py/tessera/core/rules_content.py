"""What a game's rules page says and shows, without the page itself.

A game's ``rules_page`` part (the registry says where) has ``CONTENT``, a
``RulesContent``: the catalog prefix of its words, its sections (paragraph
keys and the worked examples shown there), its rulings and one
``Diagram`` per worked example.  ``tessera.ui.screens.rules_page`` renders any
game's content the same way: a board per diagram with Back, Next and Start
again (and Play where the diagram plays itself), the reader's own moves
where the diagram allows them, and a status line from ``Diagram.status``.
Pure Python: the content is tested in CPython.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, Sequence

from .game import Game


@dataclass(frozen=True)
class RulesSection:
    key: str
    """``data-section`` and, with ``heading``, the heading ``<prefix>.h.<key>``."""
    paragraphs: tuple[str, ...]
    """Paragraph keys under the prefix."""
    examples: tuple[str, ...] = ()
    heading: bool = True
    view_note: bool = False
    """Put the note on from which side diagrams are seen here (``turnable``)."""


@dataclass(frozen=True)
class RulesTable:
    """A table shown under a section's paragraphs, worded in one language."""

    key: str
    """``data-table`` of the table (``limits``, ``one_colour``...)."""
    caption: str
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    picture_columns: tuple[int, ...] = ()
    """Columns whose cells are pictures: SVG markup that our own code made
    (``core.draw.to_svg``, never a player's text), inserted as it is.  Each
    picture carries its words itself (a ``<title>``), for screen readers."""


class Diagram(ABC):
    """One worked example: a position, moves to step through, words per step."""

    key: str
    caption_key: str
    """Full catalog key of the caption."""
    interactive: bool = False
    """The reader may play on from the step shown (for whoever is to move)."""
    autoplay: bool = False
    """A Play button steps through by itself."""

    @property
    @abstractmethod
    def steps(self) -> int:
        """How many steps after the start (moves, and an illegal try if shown)."""

    @abstractmethod
    def game_at(self, step: int) -> Game:
        """A fresh game showing ``step``."""

    def highlights(self, step: int, game: Game) -> dict[str, Any]:
        """``ViewState.highlights`` for the step (faded padding, a crossed-out move...)."""
        return {"show_last": step > 0}

    @abstractmethod
    def status(self, step: int, game: Game, own: Sequence[str], lang: str) -> list[str]:
        """The sentences under the board, in ``lang``; ``own`` are the reader's moves."""


class ReplayedDiagram(Diagram):
    """A worked example replayed from its start position: ``example`` has
    ``key``, ``caption_key``, ``start`` (a position string) and ``moves``
    (notation); ``game_class`` reads the start.  Corners and Abatis use it."""

    interactive = True
    game_class: type[Game]

    def __init__(self, example: Any) -> None:
        self.example = example
        self.key = example.key
        self.caption_key = example.caption_key

    @property
    def steps(self) -> int:
        return len(self.example.moves)

    def game_at(self, step: int) -> Game:
        game = self.game_class(setup=self.example.start)
        for text in self.example.moves[:step]:
            game.push_text(text)
        return game


class RulesContent(ABC):
    game_id: str
    prefix: str
    """Catalog prefix of the page's words (``rules.dots``): ``title``, ``credit``, ``intro``..."""
    sections: tuple[RulesSection, ...] = ()
    rulings: tuple[str, ...] = ()
    """Keys ``<prefix>.ruling.<key>``, listed under ``h.rulings`` after ``p.rulings``."""
    turnable = False
    """The diagrams can be seen from either side: a note says which, with a
    Turn button (``view.<name>`` per ``views``, ``turn``, ``h.diagrams``, ``p.examples``)."""
    views: tuple[str, str] = ("unflipped", "flipped")
    """Names of the two views (from the first seat's side, from the second's)."""
    flipped = False
    """The side diagrams are first seen from (the document's, for Quadrature)."""
    leftover_heading = "h.examples"
    """Heading of a last section holding the examples no section names."""
    intro_links: tuple[str, ...] = ()
    """Sections the lead links to, each by its heading, after ``links``
    ("On this page:"): a long page's way straight to what players look up
    (Quadrotone's pattern catalog)."""

    @abstractmethod
    def diagrams(self) -> list[Diagram]:
        """Every worked example, in the page's order."""

    def tables(self, section: str, lang: str) -> list[RulesTable]:
        """Tables shown under a section's paragraphs, worded in ``lang``
        (Quadrotone's limits and pattern points, read from the engine)."""
        return []
