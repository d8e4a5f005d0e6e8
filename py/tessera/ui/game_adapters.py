"""What the play screen needs to know about each game beyond the protocol.

The core ``Game`` protocol covers moves and endings; a game's board view,
the names of its cells, the numbers shown in the player panels and any
actions of its own (Dots' landing) are per game.  One small adapter per
game keeps the play screen generic.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from ..core.game import Game
from ..core.view import BoardView


@dataclass(frozen=True)
class ExtraAction:
    """A game-specific button on the play screen.

    ``run(screen)`` does it (usually after a confirmation dialog);
    ``enabled(session)`` says whether it can be pressed now.
    """

    key: str                                  # data-action and i18n "action.<key>"
    label_key: str
    run: Callable[[Any], Any]
    enabled: Callable[[Any], bool]
    danger: bool = False


class GameUI:
    """Defaults for a game without extras."""

    flippable = True
    """Whether turning the board round means anything (not for Dots' field)."""
    gain_key = "moves.converted"
    """Catalog key of the move list's "×N" mark: what a move's gain (the rise
    of the mover's score, ``Session.move_gain``) is called."""

    def view(self) -> BoardView:
        raise NotImplementedError

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

    def move_note(self, session: Any, event: Any) -> str | None:
        """More words for the screen reader after a move (captures...)."""
        return None


class QuadratureUI(GameUI):
    def view(self) -> BoardView:
        from ..games.quadrature.view import QuadratureView
        return QuadratureView()

    def cell_name(self, cell: Any) -> str:
        from ..games.quadrature.rules import square_name
        return square_name(cell)

    def stats(self, game: Game, seat: int) -> list[tuple[str, str, str]]:
        counts = game.counts()  # type: ignore[attr-defined]
        reserves = game.reserves()  # type: ignore[attr-defined]
        marker = game.markers[seat]  # type: ignore[attr-defined]
        return [
            ("panel.checkers", str(counts[seat]), "checkers"),
            ("panel.reserve", str(reserves[seat]), "reserve"),
            ("panel.marker", str(marker), "marker"),
        ]


def landing_preview(game: Game) -> tuple[tuple[int, int], tuple[int, int]]:
    """Scores now and if the side to move declared landing now."""
    from ..games.dots import LAND
    before = game.scores()
    trial = game.copy()
    trial.push(LAND)
    return before, trial.scores()


class DotsUI(GameUI):
    flippable = False
    gain_key = "moves.captured"

    def view(self) -> BoardView:
        from ..games.dots.view import DotsView
        return DotsView()

    def cell_name(self, cell: Any) -> str:
        if isinstance(cell, tuple):
            return f"{cell[0]}-{cell[1]}"
        return str(cell)

    def default_flipped(self, session: Any) -> bool:
        """The field is always seen as the document numbers it (1-1 bottom left)."""
        return False

    def extra_actions(self) -> list[ExtraAction]:
        def can_land(session: Any) -> bool:
            return session.is_local_turn() and not session.is_viewing_history()

        return [ExtraAction("land", "action.land", lambda screen: screen.ask_landing(), can_land)]

    def move_note(self, session: Any, event: Any) -> str | None:
        """Who captured how many dots with this move, and the score now."""
        from ..i18n import t
        game = session.game
        if game.ply == 0:
            return None
        old, new = session.moves.scores[-2], session.moves.scores[-1]
        notes = []
        for seat in (0, 1):
            gain = new[seat] - old[seat]
            if gain > 0:
                notes.append(t("announce.dots_captured", side=t(f"seat.{game.seat_names[seat]}"),
                               count=gain, score=f"{new[0]}:{new[1]}"))
        return " ".join(notes) or None


ADAPTERS: dict[str, type[GameUI]] = {"quadrature": QuadratureUI, "dots": DotsUI}


def adapter(game_id: str) -> GameUI:
    return ADAPTERS.get(game_id, GameUI)()
