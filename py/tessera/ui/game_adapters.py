"""What the play screen needs to know about each game beyond the protocol.

The core ``Game`` protocol covers moves and endings; a game's board view,
the names of its cells and the numbers shown in the player panels are
per game.  One small adapter per game keeps the play screen generic.
"""

from __future__ import annotations

from typing import Any

from ..core.game import Game
from ..core.view import BoardView


class GameUI:
    """Defaults for a game without extras."""

    def view(self) -> BoardView:
        raise NotImplementedError

    def cell_name(self, cell: Any) -> str:
        return str(cell)

    def stats(self, game: Game, seat: int) -> list[tuple[str, str, str]]:
        """(catalog key, value, css kind) rows for a player panel."""
        return [("panel.score", str(game.scores()[seat]), "score")]


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


ADAPTERS: dict[str, type[GameUI]] = {"quadrature": QuadratureUI}


def adapter(game_id: str) -> GameUI:
    return ADAPTERS.get(game_id, GameUI)()
