"""Quadrature on the play screen: square names, the panel's numbers and
what the keyboard cursor announces (see ``core.game_ui``)."""

from __future__ import annotations

from typing import Any

from ...core.game import Game
from ...core.game_ui import GameUI
from ...i18n import t
from .rules import EMPTY, square_name
from .view import BLACK_HOME, WHITE_HOME, legal_targets


class QuadratureUI(GameUI):
    hint_level = "hard"
    """Hint: the strongest level's move, drawn as an arrow on the board."""

    def cell_name(self, cell: Any) -> str:
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

    def describe_cell(self, game: Game, state: Any, cell: Any) -> str:
        """"e9, white checker"; "e8, empty, a move for e9"; on the selected
        checker, where it can go; a home plate point says whose it is."""
        names = game.seat_names
        piece = game.piece_at(cell)  # type: ignore[attr-defined]
        parts = [self.cell_name(cell),
                 t("cell.empty") if piece == EMPTY else t(f"cell.checker.{names[piece]}")]
        for seat, home in ((0, WHITE_HOME), (1, BLACK_HOME)):
            if cell in home:
                parts.append(t("cell.home_plate", side_of=t(f"seat.{names[seat]}.of")))
        selected = state.selected
        if selected is not None:
            targets = legal_targets(game, selected)
            if cell == selected:
                squares = ", ".join(self.cell_name(sq) for sq in targets)
                parts.append(t("cell.selected"))
                parts.append(t("cell.targets", count=len(targets), squares=squares) if targets
                             else t("cell.no_targets"))
            elif cell in targets:
                parts.append(t("cell.target_of", square=self.cell_name(selected)))
        return ", ".join(parts)


ADAPTER = QuadratureUI
