"""What the play screen needs to know about a game beyond the protocol.

The core ``Game`` protocol covers moves and endings; a game's board view,
the names of its cells, the numbers shown in the player panels and any
actions of its own (Dots' landing, Corners' pass) are per game.  Each game
package has an ``adapter`` module whose ``ADAPTER`` subclasses ``GameUI``;
the play screen finds it through the registry and knows no game by name.

Nothing here touches the page: an adapter answers in words (catalog keys
and texts) and moves, and the screen shows them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from . import registry
from .game import Game, Move
from .view import BoardView


@dataclass(frozen=True)
class ActionQuestion:
    """A confirmation the screen asks before an extra action's move."""

    question: str
    button: str
    detail: str = ""


@dataclass(frozen=True)
class ExtraAction:
    """A game-specific button on the play screen that plays one move.

    ``move(game)`` is the move it plays; ``enabled(session)`` says whether it
    can be pressed now; ``ask(game)``, when given, is the question the screen
    asks first (landing says what the opponent would get).
    """

    key: str                                  # data-action and i18n "action.<key>"
    label_key: str
    move: Callable[[Game], Move]
    enabled: Callable[[Any], bool]
    ask: Callable[[Game], ActionQuestion] | None = None
    danger: bool = False


@dataclass(frozen=True)
class DraftAction:
    """A button (and optionally a key) under the board for a move put
    together before it is played (Quadrotone: up to eight chips).

    The board's selection is the draft; ``apply(game, draft)`` returns the
    next draft and, for the button that plays, the move (else None).
    ``enabled(game, draft)`` says whether it can be pressed now.
    """

    key: str                                  # data-action and i18n label
    label_key: str
    apply: Callable[[Game, Any], tuple[Any, Move | None]]
    enabled: Callable[[Game, Any], bool]
    keys: tuple[str, ...] = ()
    """Keyboard keys that press it while the board has the focus (``r``)."""
    primary: bool = False
    button: bool = True
    """False for an action of the keyboard alone (Quadrotone's next chip of
    the hand, which a pointer picks from the tray instead)."""
    wheel: bool = False
    """The mouse wheel over the board presses it (one press a notch) while it
    is enabled; else the wheel zooms (Quadrotone: turn the chip held)."""
    assist: bool = False
    """It reads the position for the player (Corners: every capture in
    turn), so an online game against a person does not offer it."""


@dataclass(frozen=True)
class ViewToggle:
    """A checkbox under the board that sets ``ViewState.highlights[key]``.

    ``assist``: the option reads the position for the player (threats,
    every capture), so an online game against a person does not offer it.
    """

    key: str
    label_key: str
    assist: bool = False
    reading: bool = False
    """The option draws a reading of the position (``GameUI.read``): the page
    asks the bots' worker for it, so the main thread only draws; where there
    is no worker, the view reads it itself (``highlights[key]`` True)."""


class GameUI:
    """Defaults for a game without extras."""

    flippable = True
    """Whether turning the board round means anything (not for Dots' field)."""
    gain_key = "moves.converted"
    """Catalog key of the move list's "×N" mark: what a move's gain (the rise
    of the mover's score, ``Session.move_gain``) is called."""
    gain_sign = "×"
    """What the move list writes before a gain: ``×3`` converted, ``+3`` points."""
    view_toggles: tuple[ViewToggle, ...] = ()
    """Drawing options the player may switch on (Corners: show every capture)."""
    panels_beside_board = False
    """On a wide screen, put both player panels in the side column, so the
    board and the buttons under it take the whole height (Quadrotone's field
    and hand need it); else one panel above the board and one below."""
    first_tip: str | None = None
    """Catalog key of a one-line tip the play screen shows the first time
    this game is opened (until closed), for what a newcomer would not find
    alone (Corners: how a capture is picked); None: no tip."""
    small_screen_options: dict[str, str] = {}
    """New-game choices suggested on a small screen when the player brings
    none (a smaller field); the dialog says why (``option.<game>.<key>.small_screen``)."""

    def __init__(self, game_id: str = "") -> None:
        self.game_id = game_id

    def view(self) -> BoardView:
        """The board view: the registry's ``view`` part of the game."""
        return registry.view(self.game_id)

    def cell_name(self, cell: Any) -> str:
        return str(cell)

    def stats(self, game: Game, seat: int) -> list[tuple[str, str, str]]:
        """(catalog key, value, css kind) rows for a player panel."""
        return [("panel.score", str(game.scores()[seat]), "score")]

    def default_flipped(self, session: Any) -> bool:
        """Seen from the first seat unless the one local player sits in another."""
        return 0 not in session.local_seats()

    def extra_actions(self) -> list[ExtraAction]:
        """Buttons beyond undo, draw and resign."""
        return []

    def draft_actions(self) -> list[DraftAction]:
        """Buttons under the board for composing a move (empty: moves are single taps)."""
        return []

    def view_highlights(self, session: Any) -> dict[str, Any]:
        """Game-specific ``ViewState.highlights`` the play screen sets before
        each drawing, from what only the session knows (Quadrotone: whose
        hand the tray shows); empty: nothing."""
        return {}

    def draft_note(self, game: Game, draft: Any) -> str | None:
        """A line under the board about the draft (what it would score)."""
        return None

    def status_note(self, game: Game) -> str | None:
        """More words for the status line in a phase worth naming (a final round)."""
        return None

    def move_note(self, session: Any, event: Any) -> str | None:
        """More words for the screen reader after a move (captures...)."""
        return None

    def describe_cell(self, game: Game, state: Any, cell: Any) -> str:
        """What a screen reader hears when the keyboard cursor reaches ``cell``."""
        return self.cell_name(cell)

    hint_level: str | None = None
    """A level of the game's ``LEVELS`` that the play screen's Hint button
    runs to suggest a move (Abatis, Dots), never in an online game against
    a person; None: no Hint button."""

    def details(self, game: Game) -> list[tuple[str, str]]:
        """(catalog key, value) rows of the game's detailed statistics, shown
        when the player panel is clicked; empty: the panel is not a button."""
        return []

    def read(self, what: str, game: Game) -> Any:
        """A reading of ``game`` for a view toggle (``ViewToggle.reading``),
        as JSON (the bots' worker makes it, the view draws it)."""
        raise ValueError(f"no reading {what!r} in {self.game_id}")

    def score_table(self, game: Game) -> str | None:
        """A one-player game's high-score table (a key like ``classic-5-8-5``);
        None: the game keeps no high scores."""
        return None

    def score_table_name(self, table: str) -> str:
        """The table's name for people (a scenario in words)."""
        return table


def game_ui(game_id: str) -> GameUI:
    """The game's adapter (its ``adapter`` part's ``ADAPTER``), or the defaults."""
    cls = registry.part_attribute(game_id, "adapter", "ADAPTER", GameUI)
    return cls(game_id)
