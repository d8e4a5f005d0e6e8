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
    small_screen_options: dict[str, str] = {}
    """New-game choices suggested on a small screen when the player brings
    none (a smaller field); the dialog says why (``option.<game>.<key>.small_screen``)."""

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

    def describe_cell(self, game: Game, state: Any, cell: Any) -> str:
        """What a screen reader hears when the keyboard cursor reaches ``cell``."""
        return self.cell_name(cell)


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

    def describe_cell(self, game: Game, state: Any, cell: Any) -> str:
        """"e9, white checker"; "e8, empty, a move for e9"; on the selected
        checker, where it can go; a home plate point says whose it is."""
        from ..games.quadrature.rules import EMPTY
        from ..games.quadrature.view import BLACK_HOME, WHITE_HOME, legal_targets
        from ..i18n import t
        names = game.seat_names
        piece = game.piece_at(cell)
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


def landing_preview(game: Game) -> tuple[tuple[int, int], tuple[int, int]]:
    """Scores now and if the side to move declared landing now."""
    from ..games.dots import LAND
    before = game.scores()
    trial = game.copy()
    trial.push(LAND)
    return before, trial.scores()


def ask_landing(screen: Any) -> None:
    """Confirm landing, saying what the opponent would get (Dots)."""
    from ..core.game import IllegalMoveError
    from ..core.session import SessionError
    from ..games.dots import LAND
    from ..i18n import t
    from .dialogs import confirm
    from .panels import error_words, sentence
    session = screen.session
    if not session.is_local_turn():
        return
    game = session.game
    seat = game.to_move
    before, after = landing_preview(game)
    names = game.seat_names
    other = 1 - seat
    gain = after[other] - before[other]
    loss = before[seat] - after[seat]
    lines = [t("land.gain", side=t(f"seat.{names[other]}"), count=gain)] if gain else []
    if not gain and not loss:
        lines.append(t("land.safe"))
    if loss:
        lines.append(t("land.loss", side=t(f"seat.{names[seat]}"), count=loss))
    blue, red = after
    verdict = ("land.result.draw" if blue == red else
               "land.result.win" if (blue > red) == (seat == 0) else "land.result.lose")
    lines.append(t("land.final", blue=blue, red=red) + " " + t(verdict, side=t(f"seat.{names[seat]}")))

    def land() -> None:
        try:
            session.play(LAND)
        except (IllegalMoveError, SessionError) as error:
            screen._show_error(sentence(error_words(error)))
    screen.dialog = confirm(t("land.question", side=t(f"seat.{names[seat]}")), t("action.land"), land,
                            detail=" ".join(lines))


class DotsUI(GameUI):
    flippable = False
    gain_key = "moves.captured"
    small_screen_options = {"size": "20x20"}

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

        return [ExtraAction("land", "action.land", ask_landing, can_land)]

    def describe_cell(self, game: Game, state: Any, cell: Any) -> str:
        """"12-7, empty"; "12-7, blue dot"; "12-7, red dot, surrounded by Blue";
        "12-7, inside Red's region"; a ghost dot waiting for confirmation."""
        from ..games.dots.field import OFF
        from ..i18n import t
        names = game.seat_names
        field = game.field  # type: ignore[attr-defined]
        x, y = cell
        index = field.cell(x, y)
        dot, owner = field.dot[index], field.owner[index]
        parts = [self.cell_name(cell)]
        if dot and dot != OFF:
            parts.append(t(f"cell.dot.{names[dot - 1]}"))
            if owner:
                parts.append(t("cell.surrounded", side_of=t(f"seat.{names[owner - 1]}.of")))
        elif owner:
            parts.append(t("cell.inside", side_of=t(f"seat.{names[owner - 1]}.of")))
        else:
            parts.append(t("cell.empty"))
            if state.selected == cell:
                parts.append(t("cell.ghost"))
        return ", ".join(parts)

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
